//! `xlsudoku generate` through the real binary: every puzzle of a set has
//! one solution and the level asked for (checked by `check` and `rate`),
//! the workbook is read back by xlsudoku, openpyxl and LibreOffice, a seed
//! makes the same bytes for any -j, symmetry and givens hold, and what
//! cannot be reached is a clear error, not an endless loop.

mod books;
mod notes;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{output_text, xlsudoku};
use serde_json::Value;
use xlsudoku::generate::Symmetry;
use xlsudoku::grid::Grid;
use xlsudoku::search::{search, SearchOptions};

/// Runs `generate` with `args` and `-o out`; asserts success.
fn generate(out: &Path, args: &[&str]) {
    let mut all = vec!["generate", "-q", "-o", out.to_str().expect("UTF-8 path")];
    all.extend_from_slice(args);
    let o = xlsudoku(&all);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", output_text(&o));
}

/// The puzzles of a text set (comment lines left out).
fn puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A text set on standard output.
fn text_set(args: &[&str]) -> Vec<Grid> {
    let o = xlsudoku(&[&["generate", "-q", "-o", "-"], args].concat());
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", output_text(&o));
    puzzles(&String::from_utf8_lossy(&o.stdout))
}

fn unique(p: &Grid) -> bool {
    search(p, &SearchOptions::default()).is_ok_and(|o| o.solutions.len() == 1)
}

/// `check --json` records of a workbook.
fn check_records(path: &Path, extra: &[&str]) -> (Option<i32>, Vec<Value>) {
    let mut args = vec!["check", "--json", path.to_str().expect("UTF-8")];
    args.extend_from_slice(extra);
    let o = xlsudoku(&args);
    let records = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .filter(|v| v.get("summary").is_none())
        .collect();
    (o.status.code(), records)
}

#[test]
fn every_puzzle_of_a_set_passes_check_at_its_level() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (level, size) in [("easy", "9"), ("medium", "9"), ("hard", "9"), ("easy", "6")] {
        let set = dir.path().join(format!("{level}{size}.xlsx"));
        generate(
            &set,
            &["--size", size, "-n", "3", "--level", level, "--seed", "11"],
        );
        let (code, records) = check_records(&set, &["--min-level", level, "--max-level", level]);
        assert_eq!(code, Some(0), "{level} {size}: {records:?}");
        let puzzles: Vec<&Value> = records
            .iter()
            .filter(|r| {
                r["sheet"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("Puzzle "))
            })
            .collect();
        assert_eq!(
            puzzles.len(),
            3,
            "{level} {size}: a grid found on every puzzle sheet"
        );
        for r in &puzzles {
            assert_eq!(r["status"], "solved", "{r}");
            assert_eq!(r["unique"], true, "{r}");
            assert_eq!(r["level"], level, "{r}");
            assert_eq!(
                r["range"],
                if size == "9" { "B2:J10" } else { "B2:G7" },
                "{r}"
            );
        }
        // The Solutions sheet is the book's answer key: not checked as
        // puzzles.
        let solutions = records.iter().filter(|r| r["sheet"] == "Solutions").count();
        assert_eq!(solutions, 0, "{level} {size}");
        // A different level fails the same check.
        let other = if level == "easy" { "medium" } else { "easy" };
        let (code, _) = check_records(&set, &["--min-level", other, "--max-level", other]);
        assert_eq!(code, Some(1), "{level} {size} checked as {other}");
    }
}

#[test]
fn a_set_is_solved_by_the_default_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let set = dir.path().join("set.xlsx");
    generate(&set, &["-n", "2", "--seed", "4", "--level", "medium"]);
    let out = dir.path().join("solved.xlsx");
    let o = xlsudoku(&[
        set.to_str().expect("UTF-8"),
        "-o",
        out.to_str().expect("UTF-8"),
    ]);
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("2 grids: 2 solved"), "{text}");
    assert!(out.exists());
}

#[test]
fn text_sets_are_unique_minimal_and_rated_as_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("set.txt");
    generate(
        &path,
        &["-n", "8", "--level", "medium..hard", "--seed", "3"],
    );
    let set = puzzles(&std::fs::read_to_string(&path).expect("the set"));
    assert_eq!(set.len(), 8);
    for p in &set {
        assert!(unique(p), "{}", p.to_line());
        // Minimal: every given is needed.
        for i in (0..81).filter(|&i| p.cells()[i] != 0) {
            let mut q = p.clone();
            q.set(i / 9, i % 9, 0);
            assert!(
                !unique(&q),
                "{} keeps a given it does not need",
                p.to_line()
            );
        }
    }
    // `rate` reads the file and agrees with the levels.
    let o = xlsudoku(&["rate", "--json", path.to_str().expect("UTF-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", output_text(&o));
    let levels: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
        .filter_map(|v| v["level"].as_str().map(String::from))
        .collect();
    assert_eq!(levels.len(), 8);
    assert!(
        levels.iter().all(|l| l == "medium" || l == "hard"),
        "{levels:?}"
    );
}

#[test]
fn the_same_seed_gives_the_same_bytes_for_any_jobs() {
    let dir = tempfile::tempdir().expect("temp dir");
    for ext in ["xlsx", "txt"] {
        let one = dir.path().join(format!("one.{ext}"));
        let two = dir.path().join(format!("two.{ext}"));
        let args = ["-n", "6", "--seed", "2026", "--symmetry", "rotational"];
        generate(&one, &[&args[..], &["-j", "1"]].concat());
        generate(&two, &[&args[..], &["-j", "2"]].concat());
        let (a, b) = (
            std::fs::read(&one).expect("one"),
            std::fs::read(&two).expect("two"),
        );
        assert!(a == b, "{ext}: -j 1 and -j 2 differ");
        let other = dir.path().join(format!("other.{ext}"));
        generate(
            &other,
            &["-n", "6", "--seed", "2027", "--symmetry", "rotational"],
        );
        assert_ne!(
            a,
            std::fs::read(&other).expect("other"),
            "{ext}: another seed"
        );
    }
}

#[test]
fn a_seed_not_given_is_printed_and_makes_the_set_again() {
    let o = xlsudoku(&["generate", "-n", "2", "-o", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", output_text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let seed = err
        .split("--seed ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("no seed printed: {err}"));
    let again = xlsudoku(&["generate", "-n", "2", "-o", "-", "--seed", seed]);
    assert_eq!(
        puzzles(&String::from_utf8_lossy(&o.stdout)),
        puzzles(&String::from_utf8_lossy(&again.stdout))
    );
}

#[test]
fn symmetry_and_givens_hold() {
    for symmetry in Symmetry::ALL {
        let name = symmetry.to_string();
        for p in text_set(&["-n", "3", "--seed", "8", "--symmetry", &name]) {
            assert!(symmetry.holds(&p), "{name}: {}", p.to_line());
            assert!(unique(&p));
        }
    }
    for p in text_set(&["-n", "4", "--seed", "8", "--givens", "30..32"]) {
        assert!((30..=32).contains(&p.givens()), "{}", p.to_line());
        assert!(unique(&p));
    }
    // Minimal puzzles never keep 40 givens: the floor stops digging there.
    for p in text_set(&["-n", "2", "--seed", "8", "--givens", "40"]) {
        assert_eq!(p.givens(), 40);
    }
}

#[test]
fn sizes_and_box_shapes() {
    for (args, side) in [
        (vec!["--size", "4"], 4),
        (vec!["--size", "6"], 6),
        (vec!["--size", "8"], 8),
        (vec!["--size", "16"], 16),
    ] {
        let set = text_set(&[&args[..], &["-n", "2", "--seed", "5"]].concat());
        assert_eq!(set.len(), 2);
        for p in &set {
            assert_eq!(p.side(), side);
            assert!(unique(p), "{}", p.to_line());
        }
    }
    // Tall boxes: written as a workbook, found with their own shape.
    let dir = tempfile::tempdir().expect("temp dir");
    let set = dir.path().join("tall.xlsx");
    generate(&set, &["--box", "2x3", "-n", "2", "--seed", "5"]);
    let (code, records) = check_records(&set, &[]);
    assert_eq!(code, Some(0), "{records:?}");
    assert!(records.iter().all(|r| r["box"] == "2x3"), "{records:?}");
    // A text line cannot say 2x3: refused, not written wrong.
    let o = xlsudoku(&["generate", "--box", "2x3", "-o", "-", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", output_text(&o));
}

#[test]
fn only_the_techniques_asked_for_finish_each_puzzle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let set = dir.path().join("seed.xlsx");
    generate(
        &set,
        &[
            "-n",
            "4",
            "--seed",
            "6",
            "--techniques",
            "seed",
            "--level",
            "medium",
        ],
    );
    let (code, records) = check_records(&set, &["--techniques", "seed"]);
    assert_eq!(code, Some(0), "{records:?}");
    for r in records.iter().filter(|r| r["sheet"] != "Solutions") {
        let history = r["history"].as_str().expect("a history");
        assert!(!history.contains('#'), "a guess: {r}");
        assert!(history.chars().all(|c| "i!*^".contains(c)), "{r}");
    }
}

#[test]
fn out_of_reach_targets_are_clear_errors() {
    let started = std::time::Instant::now();
    // Refused before any attempt.
    for args in [
        vec!["--givens", "5..6"],
        vec!["--level", "extreme", "--techniques", "all"],
        vec!["--level", "hard..easy"],
        vec!["--size", "7"],
        vec!["--count", "0"],
        vec!["--rating", "nan..inf"],
        vec!["--rating", "11..12"],
        vec!["--rating", "0..0"],
        vec!["--rating", "5..3"],
    ] {
        let o = xlsudoku(&[&["generate", "-o", "-", "--seed", "1"], &args[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", output_text(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    // A rating range off the SE scale says what the scale reaches.
    for range in ["nan..inf", "11..12", "0..0", "..1"] {
        let o = xlsudoku(&["generate", "-o", "-", "--seed", "1", "--rating", range]);
        let text = output_text(&o);
        assert!(
            text.contains("a 9x9 puzzle rates 1.2 to 10.2 on the SE scale"),
            "{range}: {text}"
        );
        assert_eq!(text.contains("not a rating"), range == "nan..inf", "{text}");
    }
    // Without --seed: refused before a seed is announced for a set that
    // will not be made.
    let o = xlsudoku(&["generate", "-o", "-", "--givens", "5..6"]);
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(!text.contains("seed"), "{text}");
    // Attempts run out: named, with what was asked.
    let o = xlsudoku(&[
        "generate", "--size", "4", "--level", "extreme", "-o", "-", "--seed", "1",
    ]);
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(text.contains("no extreme 4x4"), "{text}");
    assert!(o.stdout.is_empty());
    // The timeout ends a rare request.
    let o = xlsudoku(&[
        "generate",
        "-n",
        "1000",
        "--level",
        "unfair",
        "--timeout",
        "1",
        "-o",
        "-",
        "--seed",
        "1",
    ]);
    let text = output_text(&o);
    // Exit 2 when none was made; 1 with those made written (see
    // a_timeout_writes_the_puzzles_made_and_says_how_many).
    let made = puzzles(&String::from_utf8_lossy(&o.stdout)).len();
    assert_eq!(
        o.status.code(),
        Some(if made > 0 { 1 } else { 2 }),
        "{text}"
    );
    assert!(text.contains("timed out"), "{text}");
    assert!(started.elapsed().as_secs() < 60);
}

#[test]
fn a_timeout_writes_the_puzzles_made_and_says_how_many() {
    let dir = tempfile::tempdir().expect("temp dir");
    let args = [
        "generate",
        "--size",
        "4",
        "-n",
        "1000000",
        "--timeout",
        "1",
        "--seed",
        "1",
        "-o",
    ];
    let o = xlsudoku(&[&args[..], &["-"]].concat());
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let made = puzzles(&String::from_utf8_lossy(&o.stdout));
    assert!(!made.is_empty(), "{text}");
    assert!(
        text.contains(&format!("timed out with {} of 1000000 4x4", made.len())),
        "{text}"
    );
    assert!(text.contains("are written"), "{text}");
    // No target was asked for: none is blamed.
    assert!(!text.contains("target"), "{text}");
    // To a file: the same, written whole.
    let path = dir.path().join("set.txt");
    let o = xlsudoku(&[&args[..], &[path.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));
    let kept = puzzles(&std::fs::read_to_string(&path).expect("written"));
    assert!(!kept.is_empty());
    assert!(output_text(&o).contains(&format!("timed out with {} of", kept.len())));
}

#[test]
fn a_workbook_past_what_spreadsheets_open_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("book.xlsx");
    let started = std::time::Instant::now();
    let o = xlsudoku(&["generate", "-n", "10000", "-o", path.to_str().unwrap()]);
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(
        text.contains("at most 9999 puzzles") && text.contains("--format txt"),
        "{text}"
    );
    assert!(!path.exists());
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn large_sizes_say_what_they_cost_before_starting() {
    let o = xlsudoku(&[
        "generate",
        "--size",
        "36",
        "--seed",
        "1",
        "--timeout",
        "0.3",
        "-o",
        "-",
    ]);
    let text = String::from_utf8_lossy(&o.stderr);
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.contains("36x36 puzzles are slow to make: minutes each"),
        "{text}"
    );
    // The deadline is checked between attempts: a puzzle under way may
    // still finish (exit 0) on a fast machine, or not (exit 2).
    assert!(matches!(o.status.code(), Some(0 | 2)), "{text}");
    // Quiet means quiet.
    let o = xlsudoku(&[
        "generate",
        "--size",
        "36",
        "--seed",
        "1",
        "--timeout",
        "0.3",
        "-q",
        "-o",
        "-",
    ]);
    assert!(!output_text(&o).contains("slow"), "{}", output_text(&o));
}

#[test]
fn an_existing_output_is_kept_unless_forced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mine.xlsx");
    std::fs::write(&path, b"not yours").expect("write");
    let o = xlsudoku(&[
        "generate",
        "-o",
        path.to_str().expect("UTF-8"),
        "--seed",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", output_text(&o));
    assert_eq!(std::fs::read(&path).expect("kept"), b"not yours");
    generate(&path, &["--seed", "1", "--force"]);
    assert!(std::fs::read(&path).expect("replaced").starts_with(b"PK"));
    // Nothing else left in the folder (the temporary file was renamed).
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
}

fn has_openpyxl() -> bool {
    Command::new("python3")
        .args(["-c", "import openpyxl"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The same set as a workbook and as text.
fn both_forms(dir: &Path, args: &[&str]) -> (PathBuf, Vec<Grid>) {
    let book = dir.join("set.xlsx");
    generate(&book, args);
    let text = dir.join("set.txt");
    generate(&text, args);
    (
        book,
        puzzles(&std::fs::read_to_string(&text).expect("text")),
    )
}

#[test]
fn openpyxl_reads_the_puzzles_titles_and_print_setup() {
    if !has_openpyxl() {
        assert!(std::env::var("CI").is_err(), "openpyxl is missing under CI");
        eprintln!("SKIPPED: python3 with openpyxl not found");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (book, set) = both_forms(dir.path(), &["-n", "3", "--seed", "9", "--level", "easy"]);
    let script = r#"
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(wb.properties.creator)
print(wb.properties.keywords)
for ws in wb.worksheets:
    if ws.title == "Solutions":
        print("Solutions", ws["B1"].value, ws["B2"].value is not None)
        continue
    cells = "".join(str(ws.cell(row=2 + r, column=2 + c).value or ".") for r in range(9) for c in range(9))
    print(ws.title, "|", ws["B1"].value, "|", cells, "|", ws.page_setup.scale, ws.print_options.horizontalCentered, ws.print_options.verticalCentered, ws.print_area)
"#;
    let o = Command::new("python3")
        .args(["-c", script])
        .arg(&book)
        .output()
        .expect("python3");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("xlsudoku "), "{out}");
    assert!(lines[1].contains("seed 9"), "{out}");
    for (k, p) in set.iter().enumerate() {
        let f: Vec<&str> = lines[2 + k].split(" | ").collect();
        assert_eq!(f[0], format!("Puzzle {}", k + 1), "{out}");
        assert!(
            f[1].starts_with(&format!("Puzzle {}: easy, SE ", k + 1)),
            "{out}"
        );
        assert_eq!(f[2], p.to_line(), "{out}");
        // At 100 % (the default scale, left out), centred both ways, the
        // print area the title, the grid and the row of its note.
        assert_eq!(
            f[3],
            format!("None True True 'Puzzle {}'!$B$1:$J$11", k + 1),
            "{out}"
        );
    }
    assert_eq!(lines[5], "Solutions Puzzle 1 True", "{out}");
}

#[test]
fn libreoffice_opens_the_workbook_and_keeps_every_grid() {
    if !crate::util::soffice_found() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let (book, set) = both_forms(dir.path(), &["-n", "2", "--seed", "12", "--size", "16"]);
    let resaved = dir.path().join("resaved");
    std::fs::create_dir_all(&resaved).expect("dir");
    let profile = dir.path().join("lo-profile");
    let o = crate::util::soffice_convert("xlsx", &resaved, &profile, [&book]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // What LibreOffice saved is what it understood: every grid is still
    // found, with the same givens.
    let again = resaved.join("set.xlsx");
    let (code, records) = check_records(&again, &[]);
    assert_eq!(code, Some(0), "{records:?}");
    let givens: Vec<u64> = records
        .iter()
        .filter(|r| r["sheet"] != "Solutions")
        .map(|r| r["givens"].as_u64().expect("givens"))
        .collect();
    assert_eq!(
        givens,
        set.iter().map(|p| p.givens() as u64).collect::<Vec<_>>()
    );
    // The answer key is still known after LibreOffice saved the book (its
    // custom properties are kept): only the puzzles are checked.
    assert_eq!(records.len(), 2, "{records:?}");
}
