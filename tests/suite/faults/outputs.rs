//! Outputs that are not regular files (FIFOs, devices: never replaced,
//! never waited on), two runs writing one folder at once (the second is
//! refused), and the names `generate` writes.

use super::*;

use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};

fn mkfifo(p: &Path) {
    let s = Command::new("mkfifo").arg(p).status().unwrap();
    assert!(s.success(), "mkfifo {}", p.display());
}

fn is_fifo(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_fifo())
}

/// Runs xlsudoku with its own stdin, failing when it does not end within
/// ten seconds (it is killed then).
fn within_seconds(args: &[&str]) -> Output {
    let mut child = spawn(args);
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("xlsudoku {args:?} still runs after 10 s (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn refused_as(o: &Output, path: &Path, kind: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    let want = format!(
        "{}: is not a regular file ({kind}); left as it is",
        path.display()
    );
    assert!(stderr(o).contains(&want), "{}", stderr(o));
}

#[test]
fn a_fifo_as_the_output_is_refused_at_once_with_or_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.xlsx");
    book(&input, &[("P", 0)]);
    let fifo = tmp.path().join("out.xlsx");
    mkfifo(&fifo);
    let (i, f) = (input.to_str().unwrap(), fifo.to_str().unwrap());
    for extra in [&[][..], &["--force"][..]] {
        let o = within_seconds(&[&[i, "-o", f, "-q"][..], extra].concat());
        refused_as(&o, &fifo, "a FIFO");
        let o = within_seconds(&[&["generate", "--seed", "1", "-q", "-o", f][..], extra].concat());
        refused_as(&o, &fifo, "a FIFO");
        assert!(is_fifo(&fifo));
    }
    // The default output beside the input, and one in a folder run: that
    // file gets an error record, the others are written.
    let solved = tmp.path().join("in.solved.xlsx");
    mkfifo(&solved);
    let o = within_seconds(&[i, "--force", "-q"]);
    refused_as(&o, &solved, "a FIFO");
    let (inp, out) = (tmp.path().join("dir"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P", 0)]);
    book(&inp.join("b.xlsx"), &[("P", 1)]);
    std::fs::create_dir(&out).unwrap();
    mkfifo(&out.join("a.xlsx"));
    let o = within_seconds(&[
        inp.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--force",
        "-q",
    ]);
    refused_as(&o, &out.join("a.xlsx"), "a FIFO");
    assert!(is_fifo(&out.join("a.xlsx")));
    assert!(out.join("b.xlsx").is_file());
}

#[test]
fn a_device_as_the_output_is_never_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.xlsx");
    book(&input, &[("P", 0)]);
    let i = input.to_str().unwrap();
    let o = within_seconds(&[i, "-o", "/dev/null", "--force", "-q"]);
    refused_as(&o, Path::new("/dev/null"), "a character device");
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } != 0 {
        println!("SKIPPED: mknod needs root");
        return;
    }
    let node = tmp.path().join("node.xlsx");
    let s = Command::new("mknod")
        .arg(&node)
        .args(["c", "1", "3"])
        .status();
    assert!(s.unwrap().success());
    let n = node.to_str().unwrap();
    let o = within_seconds(&[i, "-o", n, "--force", "-q"]);
    refused_as(&o, &node, "a character device");
    let o = within_seconds(&["generate", "--seed", "1", "-q", "-o", n, "--force"]);
    refused_as(&o, &node, "a character device");
    let meta = std::fs::symlink_metadata(&node).unwrap();
    assert!(meta.file_type().is_char_device());
}

#[test]
fn a_report_fifo_is_written_into_when_read_and_refused_at_once_when_not() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.xlsx");
    book(&input, &[("P", 0)]);
    let fifo = tmp.path().join("report.jsonl");
    mkfifo(&fifo);
    let (i, f) = (input.to_str().unwrap(), fifo.to_str().unwrap());
    let o = within_seconds(&["check", i, "--report", f]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no one reads"), "{}", stderr(&o));
    let o = within_seconds(&["check", i, "--junit", f]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // With a reader there, the report goes through the FIFO.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let o = within_seconds(&["check", i, "--report", f]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut text = String::new();
    std::io::Read::read_to_string(&mut reader, &mut text).unwrap();
    assert!(text.contains("\"summary\""), "{text}");
    assert!(is_fifo(&fifo));
}

/// Holds `lock` as another run would, naming pid 4242.
fn hold(lock: &Path) -> std::fs::File {
    use std::io::Write as _;
    use std::os::unix::io::AsRawFd;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(lock)
        .unwrap();
    // SAFETY: flock on a descriptor we own.
    assert_eq!(
        unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    writeln!(f, "pid 4242: xlsudoku in -o out").unwrap();
    f
}

#[test]
fn a_run_into_outputs_another_run_writes_is_refused_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P", 0)]);
    std::fs::create_dir(&out).unwrap();
    let held = hold(&out.join(".xlsudoku.lock"));
    let args = [inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"];
    let o = within_seconds(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let want = format!(
        "{}: another xlsudoku run (pid 4242: xlsudoku in -o out) is writing here",
        out.display()
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert_eq!(names(&out), BTreeSet::from([".xlsudoku.lock".to_string()]));
    // Nor a single file into that folder.
    let one = out.join("one.xlsx");
    let a = inp.join("a.xlsx");
    let o = within_seconds(&[a.to_str().unwrap(), "-o", one.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(!one.exists());
    // A killed holder's lock file holds nothing: taken over, then removed.
    drop(held);
    let o = within_seconds(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(names(&out), BTreeSet::from(["a.xlsx".to_string()]));
    // One file: its own lock, beside it.
    let file = tmp.path().join("one.xlsx");
    let held = hold(&tmp.path().join(".one.xlsx.xlsudoku-lock"));
    let single = [inp.join("a.xlsx"), file.clone()];
    let single: Vec<&str> = single.iter().map(|p| p.to_str().unwrap()).collect();
    let o = within_seconds(&[single[0], "-o", single[1], "-q"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is writing it"), "{}", stderr(&o));
    assert!(!file.exists());
    drop(held);
}

#[test]
fn two_runs_at_once_into_one_folder_do_not_mix() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    big_inbox(&inp, 40);
    let (i, o) = (inp.to_str().unwrap(), out.to_str().unwrap());
    let mut first = crate::util::command()
        .args([i, "-o", o, "-q", "-j", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = out.join(".xlsudoku.lock");
    let start = Instant::now();
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.ends_with('\n')) {
        assert!(start.elapsed() < Duration::from_secs(20), "no lock taken");
        std::thread::sleep(Duration::from_millis(1));
    }
    let second = within_seconds(&[i, "-o", o, "-q", "--answers", "sheet"]);
    let still_running = first.try_wait().unwrap().is_none();
    assert!(still_running, "the first run ended too soon to overlap");
    assert_eq!(second.status.code(), Some(2), "{}", stderr(&second));
    let want = format!("another xlsudoku run (pid {}: ", first.id());
    assert!(stderr(&second).contains(&want), "{}", stderr(&second));
    assert!(first.wait().unwrap().success());
    // Every copy is the first run's: a rerun of it finds all up to date.
    let again = xlsudoku(&[i, "-o", o, "-q", "-j", "1", "--json"]);
    let (_, summary) = json_lines(&again);
    assert_eq!(summary["skipped"], 40, "{summary}");
    assert!(!lock.exists());
}

#[test]
fn generate_writes_xlsx_under_xlsx_names_and_text_under_other_names() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["x.xlsm", "x.xls", "x.csv", "x.pdf", "x.ods", "x"] {
        let p = tmp.path().join(name);
        let o = within_seconds(&["generate", "--seed", "1", "-q", "-o", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains("name it NAME.xlsx"), "{}", stderr(&o));
        assert!(!p.exists());
    }
    let t = tmp.path().join("t.XLSX");
    let args = ["generate", "--seed", "1", "-q", "--format", "txt", "-o"];
    let o = within_seconds(&[&args[..], &[t.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--format txt writes text"),
        "{}",
        stderr(&o)
    );
    assert!(!t.exists());
    // A missing folder is made; the file follows the umask.
    let set = tmp.path().join("new/sub/set.XLSX");
    let o = Command::new("sh")
        .args([
            "-c",
            "umask 027; exec \"$0\" generate --seed 1 -q -o \"$1\"",
        ])
        .arg(env!("CARGO_BIN_EXE_xlsudoku"))
        .arg(&set)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mode = std::fs::metadata(&set).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    assert_eq!(
        names(&tmp.path().join("new")),
        BTreeSet::from(["sub/set.XLSX".to_string()])
    );
}

#[test]
fn errors_name_the_users_path_never_a_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.xlsx");
    book(&input, &[("P", 0)]);
    let missing = tmp.path().join("missing/j.xml");
    let i = input.to_str().unwrap();
    for flag in ["--junit", "--report"] {
        let o = within_seconds(&["check", i, flag, missing.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(missing.to_str().unwrap()),
            "{}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("xlsudoku-tmp"), "{}", stderr(&o));
        assert!(!stderr(&o).contains("at path"), "{}", stderr(&o));
    }
}
