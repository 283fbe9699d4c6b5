//! Named conflicts through the real binary: an unsolvable grid names a
//! smallest set of givens that cannot all stand, an ambiguous one the
//! cells where two solutions differ, alike in `check`'s message, `solve`'s
//! note and `explain`; the named cells are checked against the puzzle
//! with the exact solver.

use xlsudoku::address::CellRef;
use xlsudoku::grid::Grid;
use xlsudoku::search::{search, SearchOptions};

use crate::util::{fixture, read, xlsudoku};

/// The puzzle of a fixture's first grid, and the sheet cell of each index.
fn puzzle(name: &str) -> (Grid, Vec<CellRef>) {
    let sheets = read(name);
    let grid = &sheets[0].grids[0];
    let refs = (0..grid.cells.len()).map(|i| grid.cell_ref(i)).collect();
    (grid.puzzle(), refs)
}

fn solutions(g: &Grid) -> usize {
    search(g, &SearchOptions::default())
        .unwrap()
        .solutions
        .len()
}

/// The `error` of `check --json`'s first record.
fn check_error(name: &str) -> String {
    let o = xlsudoku(&["check", "--json", fixture(name).to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let line = String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    v["error"].as_str().unwrap().to_string()
}

/// `solve`'s note of a fixture's first grid and `explain`'s first line.
fn note_and_explain(name: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.xlsx");
    let input = fixture(name);
    let o = xlsudoku(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let sheets = xlsudoku::workbook::read_workbook(&out, &Default::default()).unwrap();
    let g = &sheets[0].grids[0];
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&out).unwrap();
    let values = calamine::Reader::worksheet_range(&mut book, &sheets[0].name).unwrap();
    let note = crate::util::cell_text(&values, g.note_at);
    let o = xlsudoku(&["explain", input.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    (note, text)
}

#[test]
fn an_unsolvable_grid_names_a_smallest_set_of_givens_that_cannot_stand() {
    let name = "status_unsolvable.xlsx";
    let error = check_error(name);
    let head = "the givens have no solution; these ";
    let tail = " (leave out any one and the rest can be completed)";
    assert!(error.starts_with(head) && error.ends_with(tail), "{error}");
    let list = error[head.len()..error.len() - tail.len()]
        .split_once(" cannot all stand: ")
        .unwrap()
        .1;
    let (full, refs) = puzzle(name);
    // Each named cell is a given with that digit.
    let named: Vec<usize> = list
        .split(", ")
        .map(|pair| {
            let (cell, digit) = pair.split_once(" = ").unwrap();
            let i = refs.iter().position(|r| r.to_string() == cell).unwrap();
            assert_eq!(full.cells()[i].to_string(), digit, "{cell}");
            i
        })
        .collect();
    assert!(!named.is_empty() && named.len() < full.givens(), "{error}");
    let only = |skip: Option<usize>| {
        let mut g = Grid::empty(full.shape());
        for &i in named.iter().filter(|&&i| Some(i) != skip) {
            g.set(i / 9, i % 9, full.cells()[i]);
        }
        g
    };
    // Together they have no solution; without any one of them, one.
    assert_eq!(solutions(&only(None)), 0, "{error}");
    for &i in &named {
        assert!(solutions(&only(Some(i))) > 0, "{} is not to blame", refs[i]);
    }
    // solve's note and explain say the same.
    let (note, explain) = note_and_explain(name);
    assert!(
        note.starts_with(&format!("unsolvable: {error} (")),
        "{note}"
    );
    assert!(
        explain.ends_with(&format!("unsolvable: {error}")),
        "{explain}"
    );
}

#[test]
fn an_ambiguous_grid_names_where_two_solutions_differ() {
    let name = "status_multiple.xlsx";
    let error = check_error(name);
    let head = "more than one solution: ";
    assert!(error.starts_with(head), "{error}");
    let (full, refs) = puzzle(name);
    for group in error[head.len()..].split("; ") {
        let (cells, digits) = group.split_once(" can be ").expect(group);
        let (a, b) = digits
            .strip_suffix(" either way")
            .and_then(|d| d.split_once(" or "))
            .expect(group);
        for cell in cells.split(", ").filter(|c| *c != "…") {
            let i = refs.iter().position(|r| r.to_string() == cell).unwrap();
            assert_eq!(full.cells()[i], 0, "{cell} is blank in the puzzle");
            // The puzzle can be completed with either digit there.
            for d in [a, b] {
                let mut g = full.clone();
                g.set(i / 9, i % 9, d.parse().unwrap());
                assert!(solutions(&g) > 0, "{cell} = {d}: {error}");
            }
        }
    }
    let (note, explain) = note_and_explain(name);
    assert!(
        note.starts_with(&format!("multiple solutions: {error} (")),
        "{note}"
    );
    assert!(
        explain.ends_with(&format!("multiple solutions: {error}")),
        "{explain}"
    );
}

#[test]
fn a_column_clash_is_named_with_the_sheets_column_letter_everywhere() {
    // EASY at C3:K11 with a 4 in C4 (its 6), over the 4 of C7.
    let dir = tempfile::tempdir().unwrap();
    let input = crate::util::easy_with_sheet(dir.path(), "column.xlsx", |xml| {
        xml.replace(
            r#"<c r="C4" s="4"><v>6</v></c>"#,
            r#"<c r="C4" s="4"><v>4</v></c>"#,
        )
    });
    let want = "4 twice in column C (C4, C7)";
    let o = xlsudoku(&["check", "--json", input.to_str().unwrap()]);
    let line = String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["error"], want, "{line}");
    let out = dir.path().join("out.xlsx");
    let o = xlsudoku(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let sheets = xlsudoku::workbook::read_workbook(&out, &Default::default()).unwrap();
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&out).unwrap();
    let values = calamine::Reader::worksheet_range(&mut book, &sheets[0].name).unwrap();
    let note = crate::util::cell_text(&values, sheets[0].grids[0].note_at);
    assert!(note.starts_with(&format!("invalid: {want} (")), "{note}");
    let o = xlsudoku(&["explain", input.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        text.trim_end().ends_with(&format!("invalid: {want}")),
        "{text}"
    );
}
