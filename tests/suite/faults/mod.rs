//! Faults around folder runs, through the real binary: outputs that would
//! land on inputs, copies edited by hand, reports that cannot be written,
//! links, reruns, signals, leftovers, odd names and odd arguments.

use crate::util::stderr;
use crate::util::{spawn, xlsudoku};
mod outputs;

use crate::util::fixture;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use xlsudoku::export::puzzle_workbook;
use xlsudoku::grid::Grid;
use xlsudoku::report::SheetRecord;

const PUZZLES: [&str; 3] = [
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "......41.9..3.....3...5.....48..7..........62.1.......6..2....5.7....8......9....",
];

fn book(path: &Path, sheets: &[(&str, usize)]) {
    let sheets: Vec<(String, Grid)> = sheets
        .iter()
        .map(|(n, k)| (n.to_string(), PUZZLES[*k].parse().unwrap()))
        .collect();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    puzzle_workbook(&sheets).unwrap().save(path).unwrap();
}

/// Every file below `root` (relative path → bytes).
fn snapshot(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            if meta.is_dir() {
                stack.push(p);
            } else if meta.is_file() {
                out.push((
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn names(root: &Path) -> BTreeSet<String> {
    snapshot(root)
        .into_iter()
        .map(|(p, _)| p.display().to_string())
        .collect()
}

fn json_lines(o: &Output) -> (Vec<serde_json::Value>, serde_json::Value) {
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let summary = lines.pop().expect("a summary line");
    (lines, summary["summary"].clone())
}

fn mtimes(root: &Path) -> Vec<(String, std::time::SystemTime)> {
    names(root)
        .into_iter()
        .map(|n| {
            let t = std::fs::metadata(root.join(&n))
                .unwrap()
                .modified()
                .unwrap();
            (n, t)
        })
        .collect()
}

#[test]
fn output_equal_to_an_input_folder_is_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("A"), tmp.path().join("B"));
    book(&a.join("a.xlsx"), &[("P", 0)]);
    book(&b.join("a.xlsx"), &[("P", 1)]);
    book(&b.join("b.xlsx"), &[("P", 2)]);
    std::os::unix::fs::symlink(&a, tmp.path().join("link")).unwrap();
    let before = snapshot(tmp.path());
    for args in [
        vec![
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "-o",
            b.to_str().unwrap(),
        ],
        vec![a.to_str().unwrap(), "-o", a.to_str().unwrap()],
        vec![
            a.to_str().unwrap(),
            "-o",
            tmp.path().join("link").to_str().unwrap(),
        ],
        vec![
            tmp.path().join("link").to_str().unwrap(),
            "-o",
            a.to_str().unwrap(),
        ],
    ] {
        let o = xlsudoku(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("input"), "{args:?}: {}", stderr(&o));
        assert_eq!(snapshot(tmp.path()), before, "{args:?} wrote something");
    }
}

#[test]
fn output_folder_inside_the_input_is_not_walked_and_its_workbooks_are_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let inp = tmp.path().join("in");
    book(&inp.join("a.xlsx"), &[("P", 0)]);
    book(&inp.join("x/a.xlsx"), &[("Mine", 1)]);
    let mine = std::fs::read(inp.join("x/a.xlsx")).unwrap();
    let o = xlsudoku(&[inp.to_str().unwrap(), "-o", inp.join("x").to_str().unwrap()]);
    assert_eq!(
        std::fs::read(inp.join("x/a.xlsx")).unwrap(),
        mine,
        "an input was overwritten: {}",
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    // Not walked: x/a.xlsx gets no copy of its own (x/x/a.xlsx).
    assert!(!inp.join("x/x").exists());
}

#[test]
fn a_hand_edited_copy_is_kept_unless_force() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P", 0)]);
    let run = |extra: &[&str]| {
        let mut args = vec![inp.to_str().unwrap(), "-o", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        xlsudoku(&args)
    };
    assert_eq!(run(&[]).status.code(), Some(0));
    // A person opens the copy and saves it (the save drops the stamp),
    // and the input changes afterwards.
    book(&out.join("a.xlsx"), &[("Edited", 2)]);
    let edited = std::fs::read(out.join("a.xlsx")).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    book(&inp.join("a.xlsx"), &[("P", 1)]);
    let o = run(&[]);
    assert_eq!(std::fs::read(out.join("a.xlsx")).unwrap(), edited);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("a.xlsx") && err.contains("--force"), "{err}");
    // A file named on the command line gets the same care.
    let single = tmp.path().join("single.xlsx");
    book(&single, &[("Mine", 2)]);
    let mine = std::fs::read(&single).unwrap();
    let o = xlsudoku(&[
        inp.join("a.xlsx").to_str().unwrap(),
        "-o",
        single.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&single).unwrap(), mine);
    // --force replaces it.
    assert_eq!(run(&["--force"]).status.code(), Some(0));
    assert_ne!(std::fs::read(out.join("a.xlsx")).unwrap(), edited);
    assert_eq!(run(&[]).status.code(), Some(0), "its own copy is fine");
}

#[test]
fn a_copy_edited_with_its_stamp_kept_is_kept_too() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P", 0)]);
    let args = [inp.to_str().unwrap(), "-o", out.to_str().unwrap()];
    assert_eq!(xlsudoku(&args).status.code(), Some(0));
    // A zip tool changes a part and keeps the archive comment.
    let copy = out.join("a.xlsx");
    let edited = crate::util::repack(&std::fs::read(&copy).unwrap(), |name, mut bytes| {
        if name == "docProps/core.xml" || name == "docProps/app.xml" {
            bytes.extend_from_slice(b"\n");
        }
        Some(bytes)
    });
    std::fs::write(&copy, &edited).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    book(&inp.join("a.xlsx"), &[("P", 1)]);
    let o = xlsudoku(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&copy).unwrap(), edited);
}

#[test]
fn report_write_errors_exit_2_and_name_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let inp = tmp.path().join("in");
    for k in 0..3 {
        book(&inp.join(format!("b{k}.xlsx")), &[("P", k)]);
    }
    // A full disk, through a link (never replaced: see the next test).
    let full = tmp.path().join("full.jsonl");
    std::os::unix::fs::symlink("/dev/full", &full).unwrap();
    let o = xlsudoku(&[
        "check",
        inp.to_str().unwrap(),
        "--report",
        full.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("full.jsonl"), "{}", stderr(&o));
    let o = crate::util::command()
        .args(["check", inp.to_str().unwrap(), "--json"])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("stdout"), "{}", stderr(&o));
    let o = crate::util::command()
        .args(["check", inp.to_str().unwrap()])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn a_full_disk_while_writing_a_copy_is_a_clean_error() {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P", 0), ("Q", 1), ("R", 2)]);
    let mut cmd = crate::util::command();
    cmd.args([inp.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: 2000,
                rlim_max: 2000,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("ZipWriter"), "{err}");
    assert!(err.contains("a.xlsx"), "{err}");
    assert!(!out.join("a.xlsx").exists());
    assert!(
        names(&out).is_empty(),
        "temporary files left: {:?}",
        names(&out)
    );
}

#[test]
fn a_report_through_a_symlink_keeps_the_link() {
    let tmp = tempfile::tempdir().unwrap();
    let target = tmp.path().join("reports/last.jsonl");
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::write(&target, "old\n").unwrap();
    let link = tmp.path().join("last.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = xlsudoku(&[
        "check",
        fixture("status_logic_easy.xlsx").to_str().unwrap(),
        "--report",
        link.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.contains("\"summary\""), "{text}");
    // A non-regular target (a pipe: /dev/stdout here) is written directly.
    let o = crate::util::command()
        .args([
            "check",
            fixture("status_logic_easy.xlsx").to_str().unwrap(),
            "-q",
            "--report",
            "/dev/stdout",
        ])
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"summary\""));
}

#[test]
fn the_sheet_option_is_part_of_the_stamp() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P0", 0), ("P1", 1)]);
    let run = |extra: &[&str]| {
        let mut args = vec![inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        json_lines(&xlsudoku(&args))
    };
    let (recs, _) = run(&["--sheet", "P0"]);
    assert_eq!(recs.len(), 1);
    let (recs, summary) = run(&[]);
    assert_eq!(summary["skipped"], 0, "{recs:?}");
    assert_eq!(recs.len(), 2);
    assert_eq!(run(&[]).1["skipped"], 1);
}

#[test]
fn a_rerun_writes_nothing_and_reports_the_last_statuses() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P", 0)]);
    std::fs::copy(fixture("status_multiple.xlsx"), inp.join("m.xlsx")).unwrap();
    let args = [inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"];
    let first = xlsudoku(&args);
    assert_eq!(first.status.code(), Some(1));
    let (recs, _) = json_lines(&first);
    let before = mtimes(&out);
    std::thread::sleep(Duration::from_millis(20));
    let again = xlsudoku(&args);
    assert_eq!(again.status.code(), Some(1), "a failure remains");
    assert_eq!(mtimes(&out), before, "nothing rewritten");
    let (again_recs, summary) = json_lines(&again);
    assert_eq!(summary["skipped"], 2);
    assert_eq!(summary["statuses"]["multiple"], 1);
    assert_eq!(again_recs.len(), recs.len());
    for (a, b) in recs.iter().zip(&again_recs) {
        assert_eq!(b["skipped"], true, "{b}");
        for key in [
            "file", "sheet", "range", "status", "givens", "error", "output",
        ] {
            assert_eq!(a[key], b[key], "{key}: {a} / {b}");
        }
    }
    // The human lines say so too.
    let human = xlsudoku(&args[..3]);
    assert_eq!(human.status.code(), Some(1));
    let text = String::from_utf8_lossy(&human.stdout).into_owned();
    assert!(
        text.lines()
            .any(|l| l.contains("multiple") && l.ends_with("[up to date]")),
        "{text}"
    );
    assert_eq!(mtimes(&out), before);
}

/// A folder big enough for a run to be interrupted in the middle.
fn big_inbox(root: &Path, n: usize) {
    for k in 0..n {
        book(
            &root.join(format!("d{}/b{k:03}.xlsx", k % 4)),
            &[("P", k % 3), ("Q", (k + 1) % 3), ("R", (k + 2) % 3)],
        );
    }
}

fn interrupted_run_cleans_up(signal: i32, code: i32) {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    big_inbox(&inp, 150);
    let report = tmp.path().join("last.jsonl");
    let mut child = crate::util::command()
        .args([
            inp.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-j",
            "2",
            "-q",
            "--report",
            report.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if out.exists() && names(&out).len() >= 4 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // SAFETY: sends a signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(code), "{status:?}");
    let left: Vec<String> = names(tmp.path())
        .into_iter()
        .filter(|n| n.rsplit('/').next().unwrap().starts_with('.'))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    assert!(names(&out).len() < 150, "the run was interrupted");
}

#[test]
fn sigint_during_a_folder_run_removes_its_temporary_files_and_exits_130() {
    interrupted_run_cleans_up(libc::SIGINT, 130);
}

#[test]
fn sigterm_during_a_folder_run_removes_its_temporary_files_and_exits_143() {
    interrupted_run_cleans_up(libc::SIGTERM, 143);
}

#[test]
fn stale_temporary_files_of_dead_runs_are_swept_on_every_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P", 0)]);
    let report = tmp.path().join("last.jsonl");
    let args = [
        inp.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ];
    assert_eq!(xlsudoku(&args).status.code(), Some(0));
    // What runs killed with SIGKILL leave: a copy's temporary file (of
    // any output name) and a report's. Process 4194304+ cannot exist.
    let dead = [
        out.join(".a.xlsx.4194999.Ab12Cd.xlsudoku-tmp"),
        out.join(".gone.xlsx.4194999.xY9zQ1.xlsudoku-tmp"),
        tmp.path().join(".last.jsonl.4194999.Qq1Ww2.xlsudoku-tmp"),
    ];
    for p in &dead {
        std::fs::write(p, b"partial").unwrap();
    }
    let o = xlsudoku(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for p in &dead {
        assert!(!p.exists(), "{} left", p.display());
    }
}

#[test]
fn long_names_can_be_written() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    let name = format!("{}.xlsx", "n".repeat(245));
    book(&inp.join(&name), &[("P", 0)]);
    let o = xlsudoku(&[inp.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.join(&name).is_file());
}

#[test]
fn non_utf8_names_are_processed_and_keep_their_stem() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.xlsx");
    book(&inp.join(name), &[("P", 0)]);
    let o = xlsudoku(&[inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.join(name).is_file(), "{:?}", names(&out));
    assert_eq!(json_lines(&o).1["files"], 1);
    // Named directly, the copy beside it keeps the stem.
    let o = crate::util::command().arg(inp.join(name)).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(inp
        .join(std::ffi::OsStr::from_bytes(b"caf\xe9.solved.xlsx"))
        .is_file());
}

#[test]
fn bench_input_is_bounded_and_reads_any_line_ending() {
    let tmp = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let o = xlsudoku(&["bench", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("/dev/zero"), "{}", stderr(&o));
    let o = xlsudoku(&["check", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let bench = |name: &str, text: &[u8]| {
        let p = tmp.path().join(name);
        std::fs::write(&p, text).unwrap();
        xlsudoku(&["bench", "--json", p.to_str().unwrap()])
    };
    let two = format!("{}\r{}\r", PUZZLES[0], PUZZLES[1]);
    let o = bench("mac.txt", two.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["puzzles"], 2, "{r}");
    let o = bench("bom.txt", format!("\u{feff}{}\n", PUZZLES[0]).as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = bench("one.txt", format!("{}\n5\n", PUZZLES[0]).as_bytes());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("one.txt:2"), "{}", stderr(&o));
}

#[test]
fn check_with_an_unknown_sheet_name_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("a.xlsx");
    book(&p, &[("Easy", 0), ("Hard", 1)]);
    let o = xlsudoku(&["check", p.to_str().unwrap(), "--sheet", "Hadr"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("Hadr") && err.contains("Easy") && err.contains("Hard"),
        "{err}"
    );
    // Names match case-insensitively, as Excel's do.
    let o = xlsudoku(&["check", p.to_str().unwrap(), "--sheet", "hard", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (recs, _) = json_lines(&o);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0]["sheet"], "Hard");
}

#[test]
fn several_inputs_with_a_workbook_output_are_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a.xlsx"), tmp.path().join("b.xlsx"));
    book(&a, &[("P", 0)]);
    book(&b, &[("P", 1)]);
    let out = tmp.path().join("both.xlsx");
    let o = xlsudoku(&[
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("both.xlsx"), "{}", stderr(&o));
    assert!(!out.exists());
}

#[test]
fn a_dash_reads_stdin_and_writes_stdout() {
    let input = std::fs::read(fixture("status_logic_easy.xlsx")).unwrap();
    let run = |args: &[&str]| {
        let mut child = crate::util::command()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let bytes = input.clone();
        let feeder = std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut stdin, &bytes);
        });
        let o = child.wait_with_output().unwrap();
        feeder.join().unwrap();
        o
    };
    let o = run(&["-", "-o", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("copy.xlsx");
    std::fs::write(&copy, &o.stdout).unwrap();
    let sheets = xlsudoku::workbook::read_workbook(&copy, &Default::default()).unwrap();
    assert!(!sheets.is_empty());
    let o = run(&["check", "-", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (recs, _) = json_lines(&o);
    assert_eq!(recs[0]["status"], "solved");
    // Reading stdin with nowhere to write is a usage error.
    let o = run(&["-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn the_summary_speaks_plain_english_and_huge_timeouts_stay_short() {
    let tmp = tempfile::tempdir().unwrap();
    let inp = tmp.path().join("in");
    std::fs::create_dir_all(&inp).unwrap();
    std::fs::write(inp.join("x.xlsx"), b"not a zip").unwrap();
    std::fs::write(inp.join("y.xlsx"), b"not a zip either").unwrap();
    let o = xlsudoku(&["check", inp.to_str().unwrap()]);
    assert!(stderr(&o).contains("2 errors"), "{}", stderr(&o));
    let o = xlsudoku(&[
        "check",
        fixture("status_logic_easy.xlsx").to_str().unwrap(),
        "--timeout",
        "1e300",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).len() < 300, "{}", stderr(&o));
    assert!(stderr(&o).contains("1e300"), "{}", stderr(&o));
}

#[test]
fn records_read_back_with_the_skipped_field() {
    let line = r#"{"file":"a.xlsx","sheet":"S","range":null,"size":null,"box":null,"givens":null,"status":"solved","unique":null,"history":null,"elapsed_ms":0.0,"output":null,"error":null}"#;
    let r: SheetRecord = serde_json::from_str(line).unwrap();
    assert!(r.to_json_line().contains("\"skipped\":false"));
}

#[test]
fn the_techniques_option_is_part_of_the_stamp() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    book(&inp.join("a.xlsx"), &[("P0", 1)]);
    let run = |extra: &[&str]| {
        let mut args = vec![inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        json_lines(&xlsudoku(&args))
    };
    let (seed, _) = run(&["--techniques", "seed"]);
    assert_eq!(run(&["--techniques", "seed"]).1["skipped"], 1);
    let (all, summary) = run(&[]);
    assert_eq!(summary["skipped"], 0, "another ladder redoes the copy");
    assert_ne!(seed[0]["history"], all[0]["history"]);
}

/// Runs xlsudoku with stdout a pipe whose read end is closed after `keep`
/// lines (0: at once), like `| head -1`: the run must end within a few
/// seconds, quietly, with 141 (128 + SIGPIPE).
fn ends_quietly_when_stdout_closes(args: &[&str], keep: usize) {
    use std::io::{BufRead, Read};
    let mut child = spawn(args);
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    for _ in 0..keep {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "{args:?}: no line before the end");
    }
    drop(out);
    let closed = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if closed.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("{args:?}: still running 10 s after its stdout closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(err, "", "{args:?}: nothing on stderr");
    assert_eq!(status.code(), Some(141), "{args:?}");
}

#[test]
fn every_streaming_command_stops_at_once_and_quietly_when_stdout_closes() {
    let t = tempfile::tempdir().unwrap();
    // Hours of work if the run went on.
    let many = t.path().join("many.txt");
    let line = format!("{}\n", PUZZLES[1]);
    std::fs::write(&many, line.repeat(20_000)).unwrap();
    let many = many.to_str().unwrap();
    ends_quietly_when_stdout_closes(&["rate", many], 1);
    // A line that takes minutes to rate (one of the hardest known, SE
    // 11.9) after the one read: the closed pipe ends the run while it is
    // rated, not at the next line.
    let hardest = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("benches/rating/se_reference/hardest_published41.txt"),
    )
    .expect("reference file");
    let hardest = hardest.lines().find(|l| !l.starts_with('#')).unwrap_or("");
    let slow = t.path().join("slow.txt");
    std::fs::write(&slow, format!("{}\n{}\n", PUZZLES[0], &hardest[..81])).unwrap();
    ends_quietly_when_stdout_closes(&["rate", "-j", "1", slow.to_str().unwrap()], 1);
    ends_quietly_when_stdout_closes(&["rate", "--json", "-j", "1", many], 1);
    let files: Vec<&str> = std::iter::repeat_n(many, 200).collect();
    ends_quietly_when_stdout_closes(&[&["bench"], &files[..]].concat(), 1);
    ends_quietly_when_stdout_closes(
        &[
            "generate", "--size", "4", "-n", "100000", "--seed", "1", "-o", "-",
        ],
        2,
    );
    for i in 0..40 {
        book(&t.path().join(format!("in/p{i:02}.xlsx")), &[("P", 0)]);
    }
    let folder = t.path().join("in");
    let folder = folder.to_str().unwrap();
    ends_quietly_when_stdout_closes(&["check", folder, "--json", "-j", "1"], 1);
    let one = t.path().join("in/p00.xlsx");
    let one = one.to_str().unwrap();
    ends_quietly_when_stdout_closes(&["explain", one], 0);
    ends_quietly_when_stdout_closes(&["solve", one, "-o", "-"], 0);
    // The copies of a folder run are not left half-written either.
    let out = t.path().join("out");
    ends_quietly_when_stdout_closes(
        &[
            "solve",
            folder,
            "-o",
            out.to_str().unwrap(),
            "--json",
            "-j",
            "1",
        ],
        1,
    );
    let left: Vec<String> = std::fs::read_dir(&out)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains("xlsudoku-tmp"))
                .collect()
        })
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}
