//! The pages of a generated puzzle book, as LibreOffice prints them: each
//! book is converted to PDF, its pages rasterised (poppler's `pdftoppm`)
//! and its words placed (`pdftotext -bbox`), and what a person would check
//! with a ruler is checked: the page count the layout implies, every grid
//! with its title on one page, each page's block centred within 0.25 in,
//! and square cells (within 2 %). The workbook names no font but Arial,
//! which LibreOffice draws with its metric twin Liberation Sans, so no
//! Calibri or Carlito is needed for this to hold.
//!
//! Without LibreOffice or poppler the test says so (`SKIPPED:`) and
//! passes; `.ci/run` installs both.

use crate::util::stderr;
use std::io::Write;
use std::path::Path;
use std::process::Command;

use crate::util::xlsudoku;
use xlsudoku::generate::book::{AnswerPage, Paper};

/// Pixels per inch of the raster, as the layout counts them.
const DPI: f64 = 96.0;

/// One book to make and look at.
struct Case {
    name: &'static str,
    per_page: usize,
    paper: &'static str,
    size: usize,
    count: usize,
}

const CASES: [Case; 5] = [
    Case {
        name: "one_letter",
        per_page: 1,
        paper: "letter",
        size: 9,
        count: 2,
    },
    Case {
        name: "two_a4",
        per_page: 2,
        paper: "a4",
        size: 9,
        count: 3,
    },
    Case {
        name: "four_letter",
        per_page: 4,
        paper: "letter",
        size: 9,
        count: 5,
    },
    Case {
        name: "six_a4",
        per_page: 6,
        paper: "a4",
        size: 9,
        count: 13,
    },
    Case {
        name: "two_any_16",
        per_page: 2,
        paper: "any",
        size: 16,
        count: 2,
    },
];

fn found(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A page as gray pixels, row by row.
struct Raster {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Raster {
    fn dark(&self, x: usize, y: usize) -> bool {
        self.pixels[y * self.width + x] < 128
    }

    /// The smallest box holding every dark pixel: left, top, right, bottom.
    fn ink(&self) -> (usize, usize, usize, usize) {
        let (mut l, mut t, mut r, mut b) = (self.width, self.height, 0, 0);
        for y in 0..self.height {
            for x in 0..self.width {
                if self.dark(x, y) {
                    (l, t, r, b) = (l.min(x), t.min(y), r.max(x), b.max(y));
                }
            }
        }
        (l, t, r, b)
    }

    /// The longest dark run along a row (`across`) or a column.
    fn longest_run(&self, across: bool) -> usize {
        let (outer, inner) = if across {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        };
        let mut best = 0;
        for o in 0..outer {
            let mut run = 0;
            for i in 0..inner {
                let d = if across {
                    self.dark(i, o)
                } else {
                    self.dark(o, i)
                };
                run = if d { run + 1 } else { 0 };
                best = best.max(run);
            }
        }
        best
    }

    /// Whether a row between `from` and `to` (pixels down) holds a dark run
    /// of at least `len` pixels: a grid's top line.
    fn line_between(&self, from: usize, to: usize, len: usize) -> bool {
        (from..to.min(self.height)).any(|y| {
            let mut run = 0;
            (0..self.width).any(|x| {
                run = if self.dark(x, y) { run + 1 } else { 0 };
                run >= len
            })
        })
    }
}

/// The pages of `pdf` at [`DPI`], in gray (poppler's PGM output, one
/// after another).
fn rasterise(pdf: &Path) -> Vec<Raster> {
    let o = Command::new("pdftoppm")
        .args(["-r", "96", "-gray"])
        .arg(pdf)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = o.stdout;
    let mut pages = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        // P5 WIDTH HEIGHT MAXVAL, each followed by one whitespace byte.
        let mut fields = Vec::new();
        while fields.len() < 4 {
            while bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            let start = at;
            while !bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            fields.push(String::from_utf8_lossy(&bytes[start..at]).to_string());
        }
        at += 1;
        assert_eq!(fields[0], "P5", "a gray page");
        let (width, height): (usize, usize) =
            (fields[1].parse().unwrap(), fields[2].parse().unwrap());
        pages.push(Raster {
            width,
            height,
            pixels: bytes[at..at + width * height].to_vec(),
        });
        at += width * height;
    }
    pages
}

/// The words of each page that start with `word`, with the bottom of each
/// in pixels at [`DPI`] (pdftotext gives points).
fn words_per_page(pdf: &Path, word: &str) -> Vec<Vec<f64>> {
    let o = Command::new("pdftotext")
        .arg("-bbox")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = String::from_utf8_lossy(&o.stdout).to_string();
    html.split("<page ")
        .skip(1)
        .map(|page| {
            page.split("<word ")
                .skip(1)
                .filter(|w| w.split('>').nth(1).is_some_and(|t| t.starts_with(word)))
                .map(|w| {
                    let y_max = w
                        .split("yMax=\"")
                        .nth(1)
                        .and_then(|v| v.split('"').next())
                        .unwrap();
                    y_max.parse::<f64>().unwrap() * DPI / 72.0
                })
                .collect()
        })
        .collect()
}

#[test]
fn books_print_centred_with_square_cells_and_titles_on_their_grids_pages() {
    if !crate::util::soffice_found() {
        return;
    }
    if !found("pdftoppm", "-v") {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: pdftoppm not found (apt-get install poppler-utils)"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut books = Vec::new();
    for c in &CASES {
        let book = dir.path().join(format!("{}.xlsx", c.name));
        let o = crate::util::command()
            .args(["generate", "-q", "--seed", "3"])
            .args(["--size", &c.size.to_string(), "-n", &c.count.to_string()])
            .args([
                "--per-page",
                &c.per_page.to_string(),
                "--paper",
                c.paper,
                "-o",
            ])
            .arg(&book)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        books.push(book);
    }
    let profile = dir.path().join("lo-profile");
    let o = crate::util::soffice_convert("pdf", dir.path(), &profile, &books);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for c in &CASES {
        let pdf = dir.path().join(format!("{}.pdf", c.name));
        let pages = rasterise(&pdf);
        let paper: Paper = c.paper.parse().unwrap();
        let answers_per_page = AnswerPage::new(c.size, paper).count();
        let puzzle_pages = c.count.div_ceil(c.per_page);
        assert_eq!(
            pages.len(),
            puzzle_pages + c.count.div_ceil(answers_per_page),
            "{}: the page count",
            c.name
        );
        let titles = words_per_page(&pdf, "Puzzle");
        for (k, page) in pages.iter().enumerate() {
            let name = format!("{} page {}", c.name, k + 1);
            let on_page = if k < puzzle_pages {
                c.per_page.min(c.count - k * c.per_page)
            } else {
                answers_per_page.min(c.count - (k - puzzle_pages) * answers_per_page)
            };
            assert_eq!(titles[k].len(), on_page, "{name}: titles {:?}", titles[k]);
            // Under each title, its grid's top line, on the same page.
            for &bottom in &titles[k] {
                let from = bottom as usize;
                assert!(
                    page.line_between(from, from + 40, 60),
                    "{name}: no grid under the title at {bottom:.0} px"
                );
            }
            if k >= puzzle_pages {
                continue;
            }
            let (l, t, r, b) = page.ink();
            let (side_l, side_r) = (l as f64, (page.width - 1 - r) as f64);
            let (side_t, side_b) = (t as f64, (page.height - 1 - b) as f64);
            assert!(
                (side_l - side_r).abs() <= 0.25 * DPI,
                "{name}: left {side_l} px, right {side_r} px"
            );
            assert!(
                (side_t - side_b).abs() <= 0.25 * DPI,
                "{name}: top {side_t} px, bottom {side_b} px"
            );
            // The frame's top line is the grid's width, its left line its
            // height: a square grid of square cells.
            let (w, h) = (
                page.longest_run(true) as f64,
                page.longest_run(false) as f64,
            );
            assert!(
                (w / h - 1.0).abs() <= 0.02,
                "{name}: grid {w} x {h} px, cells not square"
            );
        }
    }
}

/// The text of the part `name` of the workbook at `book`.
fn part_text(book: &Path, name: &str) -> String {
    let bytes = std::fs::read(book).unwrap();
    let (entries, _) = crate::util::unzip(&bytes);
    let (_, data) = entries.iter().find(|(n, _)| n == name).unwrap();
    String::from_utf8(data.clone()).unwrap()
}

/// Runs xlsudoku with `args`, which must succeed.
fn made(args: &[&str]) {
    let o = xlsudoku(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
}

#[test]
fn check_on_a_book_checks_its_puzzles_and_not_its_answer_key() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("weekly.xlsx");
    let b = book.to_str().unwrap();
    made(&[
        "generate",
        "-q",
        "--seed",
        "4",
        "--level",
        "easy:2,medium..hard:2",
        "--per-page",
        "4",
        "-o",
        b,
    ]);
    let o = xlsudoku(&["check", b, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let records: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &serde_json::Value| r.get("range").is_some())
        .collect();
    assert_eq!(records.len(), 4, "four puzzles, no answers: {records:?}");
    for r in &records {
        assert_eq!(r["sheet"], "Puzzles 1-4", "{r}");
    }
    // Sections are numbered through the book, in order of their levels.
    let sheets = xlsudoku::workbook::read_workbook(&book, &Default::default()).unwrap();
    assert_eq!(
        sheets.len(),
        1,
        "the Solutions sheet is not read as puzzles"
    );
    let levels: Vec<String> = records
        .iter()
        .map(|r| r["level"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(&levels[..2], ["easy", "easy"], "{levels:?}");
    assert!(
        levels[2..].iter().all(|l| l == "medium" || l == "hard"),
        "{levels:?}"
    );
}

#[test]
fn letters_past_nine_are_written_in_the_alphabet_asked_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    for (alphabet, letter) in [("1-9A", "G"), ("0-9A", "F")] {
        let book = dir.path().join(format!("{alphabet}.xlsx"));
        let b = book.to_str().unwrap();
        made(&[
            "generate",
            "-q",
            "--seed",
            "2",
            "--size",
            "16",
            "--alphabet",
            alphabet,
            "-o",
            b,
        ]);
        let sheets = xlsudoku::workbook::read_workbook(&book, &Default::default()).unwrap();
        let grid = &sheets[0].grids[0];
        assert_eq!(grid.shape.side(), 16, "{alphabet}");
        let o = xlsudoku(&["check", b]);
        assert!(o.status.success(), "{alphabet}: {}", stderr(&o));
        let text = part_text(&book, "xl/sharedStrings.xml");
        assert!(text.contains(&format!(">{letter}<")), "{alphabet}: {text}");
    }
}

#[test]
fn layout_flags_are_checked_before_anything_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.xlsx");
    let o = out.to_str().unwrap();
    for (args, says) in [
        (
            vec!["--level", "easy:1,hard:2", "-n", "4"],
            "--count 4, but the sections of --level make 3",
        ),
        (vec!["--level", "easy:1,hard"], "a section is LEVEL:COUNT"),
        (vec!["--per-page", "3"], "1, 2, 4 or 6"),
        (vec!["--paper", "legal"], "a4, letter or any"),
        (vec!["--title", "{number}"], "{n}, {level}"),
        (vec!["--alphabet", "0-9A"], "not 9x9"),
        (
            vec!["--alphabet", "1-9A", "--size", "16", "--format", "txt"],
            "--alphabet lays out a workbook",
        ),
    ] {
        let mut all = vec!["generate", "--seed", "1", "-o", o];
        all.extend(args.iter().copied());
        let r = xlsudoku(&all);
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        assert!(stderr(&r).contains(says), "{args:?}: {}", stderr(&r));
        assert!(!out.exists(), "{args:?}: nothing is written");
    }
}

#[test]
fn titles_follow_the_template_and_the_command_makes_the_book_again() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("t.xlsx");
    let b = book.to_str().unwrap();
    made(&[
        "generate",
        "-q",
        "--seed",
        "9",
        "-n",
        "2",
        "--per-page",
        "2",
        "--title",
        "Week 47 · {n} · {level}",
        "-o",
        b,
    ]);
    let strings = part_text(&book, "xl/sharedStrings.xml");
    let custom = part_text(&book, "docProps/custom.xml");
    assert!(
        strings.contains("Week 47 · 1 · ") && strings.contains("Week 47 · 2 · "),
        "{strings}"
    );
    assert!(
        custom.contains("--per-page 2") && custom.contains("--title &apos;Week 47")
            || custom.contains("--title 'Week 47"),
        "{custom}"
    );
    // The same seed makes the same book at any -j.
    let again = dir.path().join("again.xlsx");
    made(&[
        "generate",
        "-q",
        "--seed",
        "9",
        "-n",
        "2",
        "--per-page",
        "2",
        "-j",
        "1",
        "--title",
        "Week 47 · {n} · {level}",
        "-o",
        again.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(&book).unwrap(),
        std::fs::read(&again).unwrap()
    );
}

/// The techniques on the path of each puzzle of `book`, as `explain
/// --json` names them.
fn path_techniques(book: &Path) -> Vec<Vec<String>> {
    let sheets = xlsudoku::workbook::read_workbook(book, &Default::default()).unwrap();
    let mut paths = Vec::new();
    for sheet in &sheets {
        for grid in &sheet.grids {
            let puzzle = grid.puzzle();
            let mut board = xlsudoku::logic::Solver::new(&puzzle).unwrap();
            board.assume_unique();
            board.run(None);
            paths.push(
                board
                    .steps()
                    .iter()
                    .map(|s| s.technique.info().key.to_string())
                    .collect(),
            );
        }
    }
    paths
}

#[test]
fn needs_keeps_only_puzzles_whose_path_uses_the_technique() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("x.xlsx");
    let b = book.to_str().unwrap();
    made(&[
        "generate", "-q", "--seed", "5", "-n", "3", "--needs", "x-wing", "-o", b,
    ]);
    let paths = path_techniques(&book);
    assert_eq!(paths.len(), 3);
    for p in &paths {
        assert!(p.iter().any(|t| t == "x-wing"), "{p:?}");
    }
    // The technique is in the title, and the command makes the book again.
    let strings = part_text(&book, "xl/sharedStrings.xml");
    assert!(strings.contains("Puzzle 1: X-wing · "), "{strings}");
    // Nothing past XY-wing on the path, and either of two techniques.
    made(&[
        "generate",
        "-q",
        "--seed",
        "5",
        "-n",
        "2",
        "--needs",
        "skyscraper,xy-wing",
        "--needs-any",
        "--max-technique",
        "xy-wing",
        "-o",
        b,
        "--force",
    ]);
    let ladder: Vec<String> =
        xlsudoku::generate::needs::ladder_up_to(xlsudoku::logic::Technique::XyWing)
            .techniques()
            .map(|t| t.info().key.to_string())
            .collect();
    for p in path_techniques(&book) {
        assert!(
            p.iter().any(|t| t == "skyscraper" || t == "xy-wing"),
            "{p:?}"
        );
        assert!(p.iter().all(|t| ladder.contains(t)), "{p:?} past xy-wing");
    }
}

#[test]
fn needs_out_of_reach_says_how_far_the_search_went() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.xlsx");
    // A 4x4 never needs an X-wing.
    let o = xlsudoku(&[
        "generate",
        "--seed",
        "1",
        "--size",
        "4",
        "--needs",
        "x-wing",
        "--max-attempts",
        "200",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("needing X-wing") && e.contains("200 attempts"),
        "{e}"
    );
    assert!(!out.exists());
    let o = xlsudoku(&["generate", "--needs", "x-wong", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("x-wong"), "{}", stderr(&o));
}
