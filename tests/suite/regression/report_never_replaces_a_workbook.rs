//! `--report` or `--junit` naming one of the run's workbooks (an input, or
//! an annotated copy the run writes, directly or through a link). The
//! report replaced the input with JSON Lines (or JUnit XML) after the run,
//! exit 0 or 1: the workbook was gone. Like `-o`, a report path that is a
//! workbook of the run is a usage error (exit 2) before anything is
//! written.

use crate::util::{fixture, output_text as text, xlsudoku};

use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A folder `in/` with two workbooks (one failing), their bytes.
fn inbox(root: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let dir = root.join("in");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (name, fixture_name) in [
        ("a.xlsx", "status_logic_easy.xlsx"),
        ("b.xlsx", "status_invalid_clash.xlsx"),
    ] {
        let p = dir.join(name);
        std::fs::copy(fixture(fixture_name), &p).unwrap();
        files.push((p.clone(), std::fs::read(&p).unwrap()));
    }
    files
}

fn unchanged(files: &[(std::path::PathBuf, Vec<u8>)]) {
    for (p, bytes) in files {
        assert_eq!(&std::fs::read(p).unwrap(), bytes, "{} changed", p.display());
    }
}

#[test]
fn report_naming_an_input_workbook_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let files = inbox(t.path());
    let input = t.path().join("in");
    let out = t.path().join("out");
    let o = xlsudoku(&[s(&input), "-o", s(&out), "--report", s(&files[0].0)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("a.xlsx"), "{}", text(&o));
    unchanged(&files);
    assert!(!out.exists(), "nothing written");
}

#[test]
fn junit_naming_an_input_workbook_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let files = inbox(t.path());
    let input = t.path().join("in");
    let o = xlsudoku(&["check", s(&input), "--junit", s(&files[1].0)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    unchanged(&files);
}

#[cfg(unix)]
#[test]
fn report_through_a_link_to_an_input_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let files = inbox(t.path());
    let link = t.path().join("report.jsonl");
    std::os::unix::fs::symlink(&files[0].0, &link).unwrap();
    let o = xlsudoku(&[
        s(&files[0].0),
        "-o",
        s(&t.path().join("a.out.xlsx")),
        "--report",
        s(&link),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    unchanged(&files);
}

#[test]
fn report_naming_the_copy_the_run_writes_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let files = inbox(t.path());
    let out = t.path().join("a.out.xlsx");
    let o = xlsudoku(&[s(&files[0].0), "-o", s(&out), "--report", s(&out)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!out.exists(), "nothing written");
    unchanged(&files);
}
