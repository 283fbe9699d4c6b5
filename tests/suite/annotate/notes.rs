//! Where the note goes: next to its own grid, in a cell a person sees and
//! nothing else uses. Each test is named after the bug it pins.

use crate::util::EASY;

use std::path::Path;
use std::process::Output;

use calamine::{Data, Reader, Xlsx};
use rust_xlsxwriter::{Format, FormatBorder, Workbook, Worksheet};
use xlsudoku::export::write_grid;
use xlsudoku::grid::Grid;

fn solve(input: &Path, out: &Path) -> Output {
    crate::util::command()
        .args([input.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .expect("run xlsudoku")
}

/// Writes the workbook `build` makes, solves it and returns every text
/// cell of the copy's first sheet starting with `solved`, by address.
fn notes_after(build: impl FnOnce(&mut Worksheet)) -> Vec<(String, String)> {
    let t = tempfile::tempdir().unwrap();
    let mut book = Workbook::new();
    let ws = book.add_worksheet().set_name("Sheet").unwrap();
    build(ws);
    let input = t.path().join("in.xlsx");
    book.save(&input).unwrap();
    let out = t.path().join("out.xlsx");
    let o = solve(&input, &out);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut book: Xlsx<_> = calamine::open_workbook(&out).unwrap();
    let range = book.worksheet_range("Sheet").unwrap();
    let (r0, c0) = range.start().unwrap();
    let mut notes: Vec<(String, String)> = range
        .cells()
        .filter_map(|(r, c, v)| match v {
            Data::String(s) if s.starts_with("solved") => Some((
                xlsudoku::address::CellRef::new(r0 + r as u32, c0 + c as u32).to_string(),
                s.clone(),
            )),
            _ => None,
        })
        .collect();
    notes.sort();
    notes
}

fn easy() -> Grid {
    EASY.parse().unwrap()
}

#[test]
fn the_note_skips_a_hidden_row_under_the_grid() {
    let notes = notes_after(|ws| {
        write_grid(ws, &easy(), "C3".parse().unwrap()).unwrap();
        ws.set_row_hidden(11).unwrap(); // row 12
    });
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].0, "C13", "{notes:?}");
}

#[test]
fn the_note_skips_a_hidden_first_column() {
    let notes = notes_after(|ws| {
        write_grid(ws, &easy(), "C3".parse().unwrap()).unwrap();
        ws.set_column_hidden(2).unwrap(); // column C
    });
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].0, "D12", "{notes:?}");
}

#[test]
fn the_note_never_goes_under_a_merged_range() {
    let notes = notes_after(|ws| {
        write_grid(ws, &easy(), "C3".parse().unwrap()).unwrap();
        // An empty merged band under the grid (a footer drawn across it).
        let fmt = Format::new().set_border_top(FormatBorder::Medium);
        ws.merge_range(11, 2, 11, 10, "", &fmt).unwrap(); // C12:K12
    });
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].0, "C13", "{notes:?}");
}

#[test]
fn stacked_grids_with_a_title_between_keep_each_note_with_its_grid() {
    let notes = notes_after(|ws| {
        write_grid(ws, &easy(), "C3".parse().unwrap()).unwrap();
        ws.write_string(11, 2, "Puzzle 2").unwrap(); // C12, right above the next grid
        write_grid(ws, &easy(), "C13".parse().unwrap()).unwrap();
    });
    assert_eq!(notes.len(), 2, "{notes:?}");
    // The second grid's note right below it; the first grid has no room
    // before the title, so its note comes after and names its grid.
    assert_eq!(notes[0].0, "C22", "{notes:?}");
    assert!(!notes[0].1.contains("[grid"), "{notes:?}");
    assert_eq!(notes[1].0, "C23", "{notes:?}");
    assert!(notes[1].1.contains("[grid C3:K11]"), "{notes:?}");
}
