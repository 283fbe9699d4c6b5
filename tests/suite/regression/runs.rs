//! Bugs of runs (outputs, reruns, flags, stdout, notes, ranges, links),
//! each pinned by the test named after what it pins.

use crate::util::stderr;
use crate::util::{fixture, EASY};

use std::path::Path;
use std::process::{Command, Output, Stdio};

use xlsudoku::address::CellRef;
use xlsudoku::export::write_grid;
use xlsudoku::grid::Grid;
use xlsudoku::workbook::read_workbook;

fn xlsudoku_in(dir: &Path, args: &[&str]) -> Output {
    crate::util::command()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run xlsudoku")
}

#[test]
fn an_output_never_overwrites_another_jobs_input() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    for sub in ["O/sub", "E/sub"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    std::fs::copy(fixture("example.xlsx"), d.join("O/sub/t.xlsx")).unwrap();
    std::fs::copy(fixture("status_logic_easy.xlsx"), d.join("E/sub/t.xlsx")).unwrap();
    let before = std::fs::read(d.join("O/sub/t.xlsx")).unwrap();
    let o = xlsudoku_in(d, &["E", "O/sub", "-o", "O"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("would overwrite"), "{}", stderr(&o));
    assert_eq!(std::fs::read(d.join("O/sub/t.xlsx")).unwrap(), before);
}

#[test]
fn solving_every_xlsx_twice_passes_over_the_earlier_copies() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::copy(fixture("status_logic_easy.xlsx"), d.join("a.xlsx")).unwrap();
    let o = xlsudoku_in(d, &["a.xlsx"]);
    assert_eq!(o.status.code(), Some(0));
    // As a shell expands `*.xlsx` the second time.
    let o = xlsudoku_in(d, &["a.solved.xlsx", "a.xlsx", "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("passing over a.solved.xlsx"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("a.solved.solved.xlsx").exists());
    // The same file named twice is one job.
    let o = xlsudoku_in(d, &["check", "a.xlsx", "./a.xlsx", "--json"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2);
}

#[cfg(unix)]
#[test]
fn outputs_get_the_usual_file_mode_not_a_private_one() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out.xlsx");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "umask 022 && exec {} {} -o {}",
            env!("CARGO_BIN_EXE_xlsudoku"),
            fixture("status_logic_easy.xlsx").display(),
            out.display()
        ))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644);
}

#[test]
fn a_rerun_reports_failures_again_instead_of_hiding_them() {
    let t = tempfile::tempdir().unwrap();
    let inbox = t.path().join("in");
    std::fs::create_dir_all(&inbox).unwrap();
    std::fs::copy(fixture("status_multiple.xlsx"), inbox.join("m.xlsx")).unwrap();
    std::fs::copy(fixture("status_logic_easy.xlsx"), inbox.join("e.xlsx")).unwrap();
    let run = || xlsudoku_in(t.path(), &["in", "-o", "out", "--json"]);
    assert_eq!(run().status.code(), Some(1));
    let again = run();
    assert_eq!(again.status.code(), Some(1), "still failing");
    let text = String::from_utf8_lossy(&again.stdout).into_owned();
    assert!(text.contains("\"status\":\"multiple\""), "{text}");
    // Both files are up to date (nothing is rewritten); the failure is
    // reported again from the copy's stamp.
    assert!(
        text.contains("\"skipped\":2"),
        "both files are skipped: {text}"
    );
}

#[test]
fn extreme_flag_values_are_usage_errors_not_crashes() {
    let f = fixture("status_logic_easy.xlsx");
    let f = f.to_str().unwrap();
    for (args, flag) in [
        (vec![f, "--timeout", "1e20"], "--timeout"),
        (vec![f, "--timeout", "0"], "--timeout"),
        (vec![f, "--box", "4294967296x4294967296"], "--box"),
        (vec![f, "-j", "1000000"], "--jobs"),
        (vec![f, "--range", "C3:K12"], "--range"),
        (vec![f, "--range", "C3:K11", "--box", "2x2"], "--box"),
        (vec!["check", f, "--shard", "5/4"], "--shard"),
    ] {
        let o = xlsudoku_in(Path::new("."), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(flag), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    // A huge timeout that still parses is simply no limit.
    let o = xlsudoku_in(Path::new("."), &["check", f, "--timeout", "1e15"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_closed_stdout_does_not_crash_the_run() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..30 {
        std::fs::copy(
            fixture("status_logic_easy.xlsx"),
            t.path().join(format!("p{i:02}.xlsx")),
        )
        .unwrap();
    }
    let mut child = crate::util::command()
        .args(["check", t.path().to_str().unwrap(), "--json", "-j", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe, like `| head -1`.
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    // It stops there, quietly, with 128 + SIGPIPE (as `cat` would).
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
}

#[test]
fn grids_stacked_in_one_column_get_one_note_each() {
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("stacked.xlsx");
    let easy: Grid = EASY.parse().unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    write_grid(sheet, &easy, CellRef::new(0, 0)).unwrap();
    write_grid(sheet, &easy, CellRef::new(9, 0)).unwrap();
    book.save(&path).unwrap();
    let out = t.path().join("out.xlsx");
    let o = xlsudoku_in(t.path(), &["stacked.xlsx", "-o", "out.xlsx"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sheets = read_workbook(&out, &Default::default()).unwrap();
    let notes: Vec<CellRef> = sheets[0].grids.iter().map(|g| g.note_at).collect();
    assert_eq!(notes.len(), 2);
    assert_ne!(notes[0], notes[1]);
    assert!(
        sheets[0].grids.iter().all(|g| g.earlier_note),
        "both notes written"
    );
    // And a rerun finds each note where it was.
    let o = xlsudoku_in(t.path(), &["out.xlsx", "-o", "again.xlsx"]);
    assert_eq!(o.status.code(), Some(0));
    let again = read_workbook(&t.path().join("again.xlsx"), &Default::default()).unwrap();
    let again: Vec<CellRef> = again[0].grids.iter().map(|g| g.note_at).collect();
    assert_eq!(again, notes);
}

#[test]
fn json_with_quiet_still_prints_every_record() {
    let o = xlsudoku_in(
        Path::new("."),
        &[
            "check",
            "-q",
            "--json",
            "--allow-no-grid",
            fixture("example.xlsx").to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 3 + 1);
    // Flags before the command name are the command's.
    let o = xlsudoku_in(
        Path::new("."),
        &[
            "-q",
            "check",
            fixture("status_logic_easy.xlsx").to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_range_meant_for_one_sheet_leaves_the_other_sheets_alone() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out.xlsx");
    let o = xlsudoku_in(
        t.path(),
        &[
            fixture("example.xlsx").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--range",
            "C3:K11",
            "--json",
        ],
    );
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert_eq!(text.matches("\"status\":\"solved\"").count(), 1, "{text}");
    assert!(!text.contains("invalid"), "{text}");
    // --sheet limits a run to the sheets named.
    let o = xlsudoku_in(
        t.path(),
        &[
            "check",
            fixture("example.xlsx").to_str().unwrap(),
            "--sheet",
            "Big",
            "--json",
        ],
    );
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.contains("\"sheet\":\"Big\""));
}

#[cfg(unix)]
#[test]
fn linked_directories_are_followed_once() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::create_dir_all(d.join("real")).unwrap();
    std::fs::copy(fixture("status_logic_easy.xlsx"), d.join("real/a.xlsx")).unwrap();
    std::fs::create_dir_all(d.join("in")).unwrap();
    std::os::unix::fs::symlink(d.join("real"), d.join("in/link")).unwrap();
    // A loop back to the top must not be walked forever.
    std::os::unix::fs::symlink(d.join("in"), d.join("in/loop")).unwrap();
    let o = xlsudoku_in(d, &["check", "in", "--json"]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
}

#[test]
fn check_over_a_folder_without_workbooks_is_a_usage_error() {
    let t = tempfile::tempdir().unwrap();
    let o = xlsudoku_in(t.path(), &["check", "."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no .xlsx/.xlsm"), "{}", stderr(&o));
    // An empty inbox is fine for a scheduled solve.
    let o = xlsudoku_in(t.path(), &[".", "-o", "out"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn a_grid_with_bad_values_is_not_solved_and_has_no_history() {
    let o = xlsudoku_in(
        Path::new("."),
        &[
            "check",
            "--json",
            fixture("status_invalid_bad_values.xlsx").to_str().unwrap(),
        ],
    );
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    for line in text.lines().filter(|l| l.contains("\"sheet\"")) {
        assert!(line.contains("\"status\":\"invalid\""), "{line}");
        assert!(line.contains("\"history\":\"\""), "{line}");
    }
}
