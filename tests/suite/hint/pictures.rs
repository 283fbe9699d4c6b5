//! `explain --xlsx`: the steps as pictures, read back. Each picture's
//! candidates are the ladder's position before its step, as a replay of
//! `explain --json`'s steps from the givens says it.

use super::json_lines;
use crate::util::{bench_text, fixture, xlsudoku};

use calamine::{Data, Reader, Xlsx};
use serde_json::Value;
use xlsudoku::grid::Grid;

/// The candidates of a 9x9 before each step: from the givens, narrowed
/// by the pencil marks `marks` (bit `d - 1` for `d`, per cell; empty for
/// none), each step's placement and strikes applied (0 when filled).
fn positions(
    puzzle: &Grid,
    marks: &[u64],
    steps: &[Value],
    index: impl Fn(&str) -> usize,
) -> Vec<(Vec<u8>, Vec<u16>)> {
    let peers = |i: usize, j: usize| {
        let (r1, c1, r2, c2) = (i / 9, i % 9, j / 9, j % 9);
        r1 == r2 || c1 == c2 || (r1 / 3 == r2 / 3 && c1 / 3 == c2 / 3)
    };
    let mut values = puzzle.cells().to_vec();
    let mut cands: Vec<u16> = (0..81)
        .map(|i| {
            if values[i] != 0 {
                return 0;
            }
            let mark = |d: u16| {
                marks
                    .get(i)
                    .is_none_or(|&m| m == 0 || m >> (d - 1) & 1 == 1)
            };
            (1..=9u16)
                .filter(|&d| !(0..81).any(|j| peers(i, j) && values[j] == d as u8))
                .filter(|&d| mark(d))
                .fold(0, |m, d| m | 1 << (d - 1))
        })
        .collect();
    let mut out = Vec::new();
    for s in steps {
        out.push((values.clone(), cands.clone()));
        if let Some(p) = s.get("placed").filter(|p| !p.is_null()) {
            let (c, d) = (
                index(p["cell"].as_str().unwrap()),
                p["digit"].as_u64().unwrap() as u8,
            );
            values[c] = d;
            cands[c] = 0;
            for (j, m) in cands.iter_mut().enumerate() {
                if peers(c, j) {
                    *m &= !(1 << (d - 1));
                }
            }
        }
        for e in s["eliminated"].as_array().unwrap() {
            let (c, d) = (
                index(e["cell"].as_str().unwrap()),
                e["digit"].as_u64().unwrap() as u8,
            );
            cands[c] &= !(1 << (d - 1));
        }
    }
    out
}

/// Reads the pictures of sheet `sheet` back and checks each against the
/// position before its step, and its sentence.
pub fn check_pictures(
    book: &std::path::Path,
    sheet: &str,
    puzzle: &Grid,
    marks: &[u64],
    grid: &Value,
    index: impl Fn(&str) -> usize,
) {
    let steps = grid["steps"].as_array().unwrap();
    assert!(!steps.is_empty());
    let mut wb: Xlsx<_> = calamine::open_workbook(book).unwrap();
    let range = wb.worksheet_range(sheet).unwrap();
    let text = |r: u32, c: u32| match range.get_value((r, c)) {
        Some(Data::String(s)) => s.clone(),
        Some(Data::Float(f)) => format!("{f}"),
        Some(Data::Int(i)) => format!("{i}"),
        _ => String::new(),
    };
    for (k, (values, cands)) in positions(puzzle, marks, steps, index)
        .into_iter()
        .enumerate()
    {
        let top = 2 + k as u32 * 11;
        assert_eq!(
            text(top, 1),
            format!("{}. {}", k + 1, steps[k]["text"].as_str().unwrap())
        );
        for i in 0..81 {
            let got = text(top + 1 + (i / 9) as u32, 1 + (i % 9) as u32);
            if values[i] != 0 {
                assert_eq!(got, values[i].to_string(), "step {} cell {i}", k + 1);
            } else {
                let shown: u16 = got
                    .split_whitespace()
                    .map(|t| t.parse::<u16>().unwrap_or_else(|_| panic!("{got:?}")))
                    .fold(0, |m, d| m | 1 << (d - 1));
                assert_eq!(shown, cands[i], "step {} cell {i}: {got:?}", k + 1);
            }
        }
    }
}

#[test]
fn on_every_fixture_each_picture_of_a_grid_is_the_position_before_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut names: Vec<String> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            [".xlsx", ".xlsm", ".xls", ".ods"]
                .iter()
                .any(|e| n.ends_with(e))
        })
        .collect();
    names.sort();
    let mut checked = 0;
    for name in names {
        let book = dir.path().join(format!("{name}.steps.xlsx"));
        let input = fixture(&name);
        let o = xlsudoku(&[
            "explain",
            "--json",
            "--se-budget",
            "0",
            input.to_str().unwrap(),
            "--xlsx",
            book.to_str().unwrap(),
        ]);
        if o.status.code() == Some(2) {
            // Not a workbook that can be read (encrypted, damaged ...).
            continue;
        }
        let grids: Vec<Value> = json_lines(&o)
            .into_iter()
            .filter(|g| g.get("range").is_some_and(|r| !r.is_null()))
            .collect();
        // A sheet of pictures per solved grid, in the grids' order.
        let sheet_names = Xlsx::<_>::sheet_names(&calamine::open_workbook(&book).unwrap());
        let mut sheets = sheet_names.iter();
        let read = crate::util::read(&name);
        for g in &grids {
            if g["status"] != "solved" {
                continue;
            }
            let sheet = sheets
                .next()
                .unwrap_or_else(|| panic!("{name}: a sheet per solved grid"));
            if g["size"] != "9x9"
                || g["symbols"] != "1-9"
                || g["steps"].as_array().unwrap().is_empty()
            {
                continue;
            }
            let range: xlsudoku::address::CellRange = g["range"].as_str().unwrap().parse().unwrap();
            let found = read
                .iter()
                .filter(|s| Some(s.name.as_str()) == g["sheet"].as_str())
                .flat_map(|s| &s.grids)
                .find(|f| f.range == range)
                .unwrap_or_else(|| panic!("{name}: {range:?} read back"));
            let origin = range.start;
            let index = |cell: &str| {
                let at: xlsudoku::address::CellRef = cell.parse().unwrap();
                ((at.row - origin.row) * 9 + (at.col - origin.col)) as usize
            };
            // The steps start from the person's pencil marks, if any.
            let marks = xlsudoku::position::Position::of_grid(found).marks;
            check_pictures(&book, sheet, &found.puzzle(), &marks, g, index);
            checked += 1;
        }
    }
    eprintln!("{checked} grids' pictures checked");
    assert!(checked >= 50, "only {checked} grids had pictures to check");
}

#[test]
fn on_200_benchmark_puzzles_each_picture_is_the_position_before_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("steps.xlsx");
    let mut lines: Vec<String> = Vec::new();
    for set in [
        "9x9/puzzles3_magictour_top1465",
        "9x9/gen_random_minimal_10k.txt",
    ] {
        lines.extend(
            bench_text(set)
                .lines()
                .filter(|l| l.len() >= 81 && !l.starts_with('#'))
                .take(100)
                .map(|l| l[..81].to_string()),
        );
    }
    let index = |name: &str| {
        let (r, c) = name[1..].split_once('c').unwrap();
        (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1
    };
    for line in &lines {
        let o = xlsudoku(&[
            "explain",
            "--json",
            "--se-budget",
            "0",
            "--puzzle",
            line,
            "--xlsx",
            book.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{line}");
        let grid = &json_lines(&o)[0];
        check_pictures(&book, "Puzzle", &line.parse().unwrap(), &[], grid, index);
    }
}
