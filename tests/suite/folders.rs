//! Folder runs and CI checks with the real binary: mirroring, incremental
//! reruns, an interrupted run resumed, JSON Lines and JUnit read back,
//! shards that add up, exit codes.

use crate::util::fixture;
use crate::util::xlsudoku;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use xlsudoku::export::puzzle_workbook;
use xlsudoku::grid::Grid;
use xlsudoku::report::SheetRecord;

const PUZZLES: [&str; 3] = [
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "......41.9..3.....3...5.....48..7..........62.1.......6..2....5.7....8......9....",
];

/// An inbox of `n` workbooks in nested folders, plus a non-workbook and an
/// Excel lock file that must be skipped.
fn inbox(root: &Path, n: usize) -> Vec<PathBuf> {
    let mut made = Vec::new();
    for k in 0..n {
        let sub = root.join(format!("desk{}", k % 3)).join("week");
        std::fs::create_dir_all(&sub).unwrap();
        let path = sub.join(format!("book{k:03}.xlsx"));
        let sheets: Vec<(String, Grid)> = (0..1 + k % 2)
            .map(|s| {
                (
                    format!("P{s}"),
                    PUZZLES[(k + s) % PUZZLES.len()].parse().unwrap(),
                )
            })
            .collect();
        puzzle_workbook(&sheets).unwrap().save(&path).unwrap();
        made.push(path);
    }
    std::fs::write(root.join("readme.txt"), "not a workbook").unwrap();
    std::fs::write(root.join("~$book000.xlsx"), "lock").unwrap();
    made
}

fn outputs(root: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out
}

fn json_records(o: &Output) -> (Vec<SheetRecord>, serde_json::Value) {
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut lines: Vec<&str> = text.lines().collect();
    let summary: serde_json::Value = serde_json::from_str(lines.pop().unwrap()).unwrap();
    let recs = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (recs, summary["summary"].clone())
}

#[test]
fn folder_run_mirrors_paths_and_second_run_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("inbox"), tmp.path().join("solved"));
    let made = inbox(&inp, 7);
    let o = xlsudoku(&[inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let want: BTreeSet<PathBuf> = made
        .iter()
        .map(|p| p.strip_prefix(&inp).unwrap().to_path_buf())
        .collect();
    assert_eq!(outputs(&out), want);
    let (recs, summary) = json_records(&o);
    assert_eq!(
        recs.len(),
        7 + 3,
        "one record per grid: 7 files, 3 with two sheets"
    );
    assert!(recs
        .iter()
        .all(|r| r.status == "solved" && r.output.is_some()));
    assert_eq!(summary["files"], 7);
    assert_eq!(summary["statuses"]["solved"], 10);

    // A second run rewrites nothing.
    let mtimes = |root: &Path| -> Vec<std::time::SystemTime> {
        outputs(root)
            .iter()
            .map(|p| std::fs::metadata(root.join(p)).unwrap().modified().unwrap())
            .collect()
    };
    let before = mtimes(&out);
    std::thread::sleep(Duration::from_millis(20));
    let o = xlsudoku(&[inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let (recs, summary) = json_records(&o);
    assert_eq!(recs.len(), 10, "the last statuses, reported again");
    assert!(recs.iter().all(|r| r.skipped && r.status == "solved"));
    assert_eq!(summary["skipped"], 7);
    assert_eq!(mtimes(&out), before);

    // A changed input is redone, and only it.
    std::thread::sleep(Duration::from_millis(20));
    puzzle_workbook(&[("New".to_string(), PUZZLES[1].parse().unwrap())])
        .unwrap()
        .save(&made[2])
        .unwrap();
    let o = xlsudoku(&[inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    let (recs, summary) = json_records(&o);
    let redone: Vec<&SheetRecord> = recs.iter().filter(|r| !r.skipped).collect();
    assert_eq!(redone.len(), 1);
    assert_eq!(redone[0].sheet.as_deref(), Some("New"));
    assert_eq!(summary["skipped"], 6);

    // --force redoes everything.
    let o = xlsudoku(&[
        inp.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
        "--force",
    ]);
    let (_, summary) = json_records(&o);
    assert_eq!(summary["skipped"], 0);
    assert_eq!(summary["files"], 7);
}

#[test]
fn a_failing_file_does_not_stop_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("inbox"), tmp.path().join("solved"));
    inbox(&inp, 3);
    std::fs::copy(fixture("truncated.xlsx"), inp.join("broken.xlsx")).unwrap();
    std::fs::copy(fixture("status_multiple.xlsx"), inp.join("ambiguous.xlsx")).unwrap();
    let o = xlsudoku(&[inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a file error wins over a failed sheet"
    );
    let (recs, summary) = json_records(&o);
    assert_eq!(summary["failed_files"], 1);
    assert!(recs
        .iter()
        .any(|r| r.status == "error" && r.error.as_deref().unwrap().contains("broken.xlsx")));
    assert!(recs.iter().any(|r| r.status == "multiple"));
    assert_eq!(recs.iter().filter(|r| r.status == "solved").count(), 4);
    assert!(!out.join("broken.xlsx").exists());
    assert!(out.join("ambiguous.xlsx").exists());
}

#[test]
fn check_writes_nothing_and_its_junit_reads_back() {
    let tmp = tempfile::tempdir().unwrap();
    let inp = tmp.path().join("puzzles");
    std::fs::create_dir_all(&inp).unwrap();
    for f in [
        "status_logic_easy.xlsx",
        "status_multiple.xlsx",
        "status_invalid_clash.xlsx",
        "layout_no_grid.xlsx",
    ] {
        std::fs::copy(fixture(f), inp.join(f)).unwrap();
    }
    let before = outputs(tmp.path());
    let junit = tmp.path().join("junit.xml");
    let report = tmp.path().join("report.jsonl");
    let o = xlsudoku(&[
        "check",
        inp.to_str().unwrap(),
        "--json",
        "--junit",
        junit.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let mut after = outputs(tmp.path());
    after.remove(Path::new("junit.xml"));
    after.remove(Path::new("report.jsonl"));
    assert_eq!(after, before, "check writes nothing but its reports");
    // The report file holds the same lines as stdout.
    assert_eq!(
        std::fs::read_to_string(&report).unwrap().lines().count(),
        String::from_utf8_lossy(&o.stdout).lines().count()
    );
    // JUnit: well-formed, one testcase per record, failures counted.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let mut reader = quick_xml::Reader::from_str(&xml);
    let (mut cases, mut failures, mut suites) = (0, 0, 0);
    loop {
        match reader.read_event().expect("well-formed JUnit XML") {
            quick_xml::events::Event::Eof => break,
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e) => {
                match e.name().into_inner() {
                    "testcase" => cases += 1,
                    "failure" => failures += 1,
                    "testsuite" => suites += 1,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    assert_eq!((suites, cases, failures), (4, 4, 3), "{xml}");
    assert!(xml.contains("failures=\"3\""));
    // Allowing sheets without a grid leaves two failures.
    let o = xlsudoku(&["check", inp.to_str().unwrap(), "--allow-no-grid", "-q"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "-q prints nothing");
    let o = xlsudoku(&[
        "check",
        inp.join("status_logic_easy.xlsx").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn shards_split_the_inputs_and_add_up_to_the_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let inp = tmp.path().join("inbox");
    inbox(&inp, 10);
    let files = |o: &Output| -> Vec<String> {
        json_records(o)
            .0
            .into_iter()
            .map(|r| format!("{}|{}", r.file, r.sheet.unwrap()))
            .collect()
    };
    let whole: BTreeSet<String> = files(&xlsudoku(&["check", inp.to_str().unwrap(), "--json"]))
        .into_iter()
        .collect();
    let mut union = BTreeSet::new();
    let mut total = 0;
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let part = files(&xlsudoku(&[
            "check",
            inp.to_str().unwrap(),
            "--json",
            "--shard",
            &shard,
        ]));
        assert!(!part.is_empty());
        total += part.len();
        union.extend(part);
    }
    assert_eq!(total, whole.len(), "no record twice");
    assert_eq!(union, whole);
}

#[test]
fn a_killed_run_leaves_no_partial_output_and_the_next_run_finishes() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("inbox"), tmp.path().join("solved"));
    let made = inbox(&inp, 120);
    let mut child = crate::util::command()
        .args([
            inp.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "-j",
            "1",
            "-q",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a few outputs exist (or after a while).
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        let n = if out.exists() { outputs(&out).len() } else { 0 };
        if n >= 5 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Every visible output is a complete workbook.
    let visible: Vec<PathBuf> = outputs(&out)
        .into_iter()
        .filter(|p| !p.file_name().unwrap().to_str().unwrap().starts_with('.'))
        .collect();
    assert!(visible.len() < made.len(), "the run was interrupted");
    for p in &visible {
        xlsudoku::workbook::read_workbook(&out.join(p), &Default::default())
            .unwrap_or_else(|e| panic!("partial output {}: {e}", p.display()));
    }
    // The next run does the rest, and leaves no temporary files behind.
    let o = xlsudoku(&[inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let (_, summary) = json_records(&o);
    assert_eq!(
        summary["skipped"].as_u64().unwrap() as usize,
        visible.len(),
        "finished outputs are not redone"
    );
    let all = outputs(&out);
    assert_eq!(all.len(), made.len(), "{all:?}");
}

#[test]
fn timeout_is_a_status_and_the_run_goes_on() {
    // A minimal 25x25 puzzle (Gecode's #18, from the repository's
    // benchmark sets): seconds, far more than the deadline of 0.1 s,
    // which the easy 9x9 (a fraction of a millisecond) meets even on a
    // busy machine (1 ms was missed once under load).
    let text = crate::util::bench_text("25x25/gecode_25x25.txt");
    let hard_25 = text
        .lines()
        .find(|l| !l.starts_with('#'))
        .and_then(|l| l.split_whitespace().next())
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let inp = tmp.path().join("inbox");
    std::fs::create_dir_all(&inp).unwrap();
    puzzle_workbook(&[("Hard".to_string(), hard_25.parse().unwrap())])
        .unwrap()
        .save(inp.join("a_hard.xlsx"))
        .unwrap();
    puzzle_workbook(&[("Easy".to_string(), PUZZLES[0].parse().unwrap())])
        .unwrap()
        .save(inp.join("b_easy.xlsx"))
        .unwrap();
    let o = xlsudoku(&[
        "check",
        inp.to_str().unwrap(),
        "--json",
        "--timeout",
        "0.1",
        "-j",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let (recs, _) = json_records(&o);
    let status = |sheet: &str| {
        recs.iter()
            .find(|r| r.sheet.as_deref() == Some(sheet))
            .map(|r| r.status)
            .unwrap()
    };
    assert_eq!(status("Hard"), "timeout");
    assert_eq!(status("Easy"), "solved");
}

#[test]
fn an_output_is_redone_when_its_input_or_options_change() {
    let tmp = tempfile::tempdir().unwrap();
    let (inp, out) = (tmp.path().join("in"), tmp.path().join("out"));
    std::fs::create_dir_all(&inp).unwrap();
    let p = inp.join("p.xlsx");
    std::fs::copy(fixture("status_logic_easy.xlsx"), &p).unwrap();
    let run = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec![inp.to_str().unwrap(), "-o", out.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        json_records(&xlsudoku(&args)).1
    };
    assert_eq!(run(&[])["skipped"], 0);
    assert_eq!(run(&[])["skipped"], 1, "same input, same options");
    // Another workbook in its place, with the same modification time.
    let t = std::fs::metadata(&p).unwrap().modified().unwrap();
    std::fs::copy(fixture("status_needs_guess.xlsx"), &p).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&p)
        .unwrap()
        .set_modified(t)
        .unwrap();
    assert_eq!(run(&[])["skipped"], 0, "another input is not up to date");
    let sheets =
        xlsudoku::workbook::read_workbook(&out.join("p.xlsx"), &Default::default()).unwrap();
    assert_eq!(sheets[0].name, "Hard");
    assert_eq!(run(&[])["skipped"], 1);
    assert_eq!(run(&["--logic-only"])["skipped"], 0, "other options");
    // The logic gives up on it: the copy is up to date all the same (the
    // input and options are unchanged), and the failure is reported again
    // from its stamp.
    let again = run(&["--logic-only"]);
    assert_eq!(again["skipped"], 1);
    assert_eq!(again["statuses"]["gave-up"], 1);
    // A file named on the command line is always processed.
    let single = tmp.path().join("single.xlsx");
    for _ in 0..2 {
        let o = xlsudoku(&[
            p.to_str().unwrap(),
            "-o",
            single.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(json_records(&o).1["skipped"], 0);
    }
}

#[test]
fn files_of_other_kinds_in_a_folder_are_listed_with_why_never_silently() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("puzzles");
    std::fs::create_dir_all(dir.join("old")).unwrap();
    std::fs::copy(fixture("status_logic_easy.xlsx"), dir.join("easy.xlsx")).unwrap();
    std::fs::write(dir.join("notes.csv"), "a,b\n").unwrap();
    std::fs::write(dir.join("old/book.xlsb"), b"\xD0\xCF\x11\xE0").unwrap();
    std::fs::write(dir.join("~$easy.xlsx"), b"lock").unwrap();
    let dir_s = dir.to_str().unwrap();
    let o = xlsudoku(&["check", dir_s]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("xlsudoku: not read: 2 files of other kinds: "),
        "{err}"
    );
    assert!(
        err.contains("notes.csv (") && err.contains("book.xlsb ("),
        "{err}"
    );
    assert!(
        !err.contains("~$easy"),
        "a lock file is passed over on purpose: {err}"
    );
    assert!(err.contains("2 files of other kinds not read"), "{err}");
    // JSON: the summary lists them, with why; the records are grids only.
    let o = xlsudoku(&["check", dir_s, "--json"]);
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "one grid, then the summary: {out}");
    let not_read = lines[1]["summary"]["not_read"].as_array().unwrap();
    assert_eq!(not_read.len(), 2, "{out}");
    assert!(not_read[0]["file"].as_str().unwrap().ends_with("notes.csv"));
    assert!(not_read[0]["reason"]
        .as_str()
        .unwrap()
        .contains("save it as .xlsx"));
    // A folder of nothing but other kinds says what was there.
    std::fs::remove_file(dir.join("easy.xlsx")).unwrap();
    let o = xlsudoku(&["check", dir_s]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no .xlsx/.xlsm workbooks found in the inputs; 2 files of other kinds:"),
        "{err}"
    );
}

/// A puzzle met again in one run, on another sheet or in another file,
/// is solved once: every repeat reports the first one's outcome, its time
/// included (to the microsecond, which two solves of a hard puzzle do not
/// share), and a puzzle met once is solved on its own.
#[test]
fn a_puzzle_repeated_across_a_folder_is_solved_once() {
    let tmp = tempfile::tempdir().unwrap();
    let inp = tmp.path().join("inbox");
    std::fs::create_dir_all(&inp).unwrap();
    let hard = || PUZZLES[1].parse::<Grid>().unwrap();
    let books = [
        ("a.xlsx", vec![("Week 1", hard()), ("Week 2", hard())]),
        ("b.xlsx", vec![("Class set", hard())]),
        ("c.xlsx", vec![("Other", PUZZLES[2].parse().unwrap())]),
    ];
    for (name, sheets) in books {
        let sheets: Vec<(String, Grid)> = sheets.into_iter().map(|(s, g)| (s.into(), g)).collect();
        puzzle_workbook(&sheets)
            .unwrap()
            .save(inp.join(name))
            .unwrap();
    }
    let o = xlsudoku(&["check", inp.to_str().unwrap(), "--json", "-j", "1"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (recs, _) = json_records(&o);
    assert_eq!(recs.len(), 4);
    let first = &recs[0];
    assert_eq!(first.sheet.as_deref(), Some("Week 1"));
    assert!(first.elapsed_ms > 0.0);
    for r in &recs[1..3] {
        assert_eq!(
            (&r.status, &r.history, r.rating, r.elapsed_ms),
            (
                &first.status,
                &first.history,
                first.rating,
                first.elapsed_ms
            ),
            "{:?}",
            r.sheet
        );
    }
    let other = &recs[3];
    assert_eq!(other.sheet.as_deref(), Some("Other"));
    assert_ne!(other.history, first.history);
    assert_ne!(other.elapsed_ms, first.elapsed_ms);
}
