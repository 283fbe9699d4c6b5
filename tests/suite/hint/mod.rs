//! `xlsudoku hint` through the real binary: the hint's step is the first
//! step `explain` gives from the same position (on every fixture and on
//! 200 benchmark puzzles), the copy differs from the input only in the
//! hinted cells' styles and the note, and wrong entries and marks are
//! named without their answers; and the steps as pictures (`explain
//! --xlsx`), each the position before its step.

mod again;
mod copy;
mod marks;
mod pictures;
mod steps;

use std::path::Path;
use std::process::Output;

use rust_xlsxwriter::{Format, FormatBorder, Workbook};
use serde_json::Value;
use xlsudoku::grid::Grid;

/// The JSON lines of a `hint --json` or `explain --json` run (a trailing
/// summary line left out).
pub fn json_lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .filter(|v| v.get("summary").is_none())
        .collect()
}

/// What a cell of a made workbook holds.
pub enum Mark {
    /// A given, in bold.
    Given(u8),
    /// A digit the person typed (plain).
    Entry(u8),
    /// Pencil marks, as text (`1 2 5`).
    Marks(String),
}

/// A workbook whose sheet `Puzzle` holds a bordered 9x9 at C3:K11 (medium
/// box lines), each cell as `cell` says (`None` blank).
pub fn bordered(path: &Path, cell: impl Fn(usize) -> Option<Mark>) {
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet().set_name("Puzzle").unwrap();
    let line = |edge: bool| {
        if edge {
            FormatBorder::Medium
        } else {
            FormatBorder::Thin
        }
    };
    for i in 0..81 {
        let (r, c) = (i / 9, i % 9);
        let fmt = Format::new()
            .set_border_left(line(c % 3 == 0))
            .set_border_right(line(c % 3 == 2))
            .set_border_top(line(r % 3 == 0))
            .set_border_bottom(line(r % 3 == 2));
        let (rr, cc) = (2 + r as u32, 2 + c as u16);
        match cell(i) {
            None => ws.write_blank(rr, cc, &fmt),
            Some(Mark::Given(d)) => {
                ws.write_number_with_format(rr, cc, f64::from(d), &fmt.set_bold())
            }
            Some(Mark::Entry(d)) => ws.write_number_with_format(rr, cc, f64::from(d), &fmt),
            Some(Mark::Marks(t)) => ws.write_string_with_format(rr, cc, t, &fmt),
        }
        .unwrap();
    }
    wb.save(path).unwrap();
}

/// The only solution of a puzzle.
pub fn solution(puzzle: &Grid) -> Grid {
    let out = xlsudoku::solve::solve(puzzle, &crate::util::without_se());
    assert_eq!(out.status, xlsudoku::solve::Status::Solved);
    out.grid
}
