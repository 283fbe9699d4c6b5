//! Where the note under a grid goes: the first free cell below it (or
//! beside or above it when below is taken), never into a merged range or
//! over anything.

use crate::address::{CellRange, CellRef};

use super::cells::{classify, Value};
use super::reader;

/// The rows of one column under merged ranges: sorted, disjoint
/// intervals, so that a long scan down the column stays fast whatever the
/// number of merges.
pub(super) struct MergedRows(pub(super) Vec<(u32, u32)>);

impl MergedRows {
    pub(super) fn of(sheet: &reader::RawSheet, col: u32) -> Self {
        let mut spans: Vec<(u32, u32)> = sheet
            .merges
            .iter()
            .filter(|m| m.start != m.end && m.start.col <= col && col <= m.end.col)
            .map(|m| (m.start.row, m.end.row))
            .collect();
        spans.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(spans.len());
        for (lo, hi) in spans {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        MergedRows(out)
    }

    pub(super) fn contains(&self, row: u32) -> bool {
        let i = self.0.partition_point(|&(_, hi)| hi < row);
        self.0.get(i).is_some_and(|&(lo, _)| lo <= row)
    }
}

/// Whether the note may go into `at`: an empty cell (a formula is never
/// empty), in a visible row, under no merged range (`merged`: those of
/// its column) and in no grid.
pub(super) fn note_fits(
    sheet: &reader::RawSheet,
    at: CellRef,
    taken: &[CellRange],
    merged: &MergedRows,
) -> bool {
    let (row, col) = (at.row, at.col);
    classify(sheet.values.get_value((row, col))) == Value::Empty
        && !sheet.formulas.contains(&(row, col))
        && !sheet.hidden_rows.contains(&row)
        && !merged.contains(row)
        && !taken.iter().any(|t| t.contains(at))
}

/// The column the note of the grid at `range` goes in: the grid's first
/// visible column; when every column of the grid is hidden, the first
/// visible one after it (else before it), so the note is never hidden.
pub(super) fn note_column(sheet: &reader::RawSheet, range: CellRange) -> u32 {
    let visible = |c: &u32| {
        !sheet
            .hidden_cols
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(c))
    };
    (range.start.col..=range.end.col)
        .find(visible)
        .or_else(|| (range.end.col + 1..=crate::address::MAX_COL).find(visible))
        .or_else(|| (0..range.start.col).rev().find(visible))
        .unwrap_or(range.start.col)
}

/// The note's cell between the grid at `range` and whatever grid comes
/// next below it in its columns: the first cell that fits (see
/// [`note_fits`]) in the note column; `None` when there is none.
pub(super) fn note_near(
    sheet: &reader::RawSheet,
    range: CellRange,
    taken: &[CellRange],
) -> Option<CellRef> {
    let col = note_column(sheet, range);
    let next = taken
        .iter()
        .filter(|t| {
            t.start.row > range.end.row
                && t.start.col <= range.end.col
                && range.start.col <= t.end.col
        })
        .map(|t| t.start.row)
        .min()
        .unwrap_or(crate::address::MAX_ROW);
    let merged = MergedRows::of(sheet, col);
    (range.end.row + 1..next)
        .map(|row| CellRef::new(row, col))
        .find(|&at| note_fits(sheet, at, taken, &merged))
}

/// The note's cell when there is no room next to the grid: the first cell
/// that fits further down the note column, past the grids below and the
/// other notes.
pub(super) fn note_apart(
    sheet: &reader::RawSheet,
    range: CellRange,
    taken: &[CellRange],
    notes: &[CellRef],
) -> CellRef {
    let col = note_column(sheet, range);
    let merged = MergedRows::of(sheet, col);
    (range.end.row + 1..=crate::address::MAX_ROW)
        .map(|row| CellRef::new(row, col))
        .find(|at| !notes.contains(at) && note_fits(sheet, *at, taken, &merged))
        .or_else(|| note_above(sheet, range, taken, notes))
        .unwrap_or(range.start)
}

/// The note's cell for a grid with no free row below it (a grid in the
/// sheet's last rows): the first free cell above the grid's note column,
/// else the first right of its first row.
pub(super) fn note_above(
    sheet: &reader::RawSheet,
    range: CellRange,
    taken: &[CellRange],
    notes: &[CellRef],
) -> Option<CellRef> {
    let col = note_column(sheet, range);
    let merged = MergedRows::of(sheet, col);
    (0..range.start.row)
        .rev()
        .map(|row| CellRef::new(row, col))
        .find(|at| !notes.contains(at) && note_fits(sheet, *at, taken, &merged))
        .or_else(|| {
            (range.end.col + 1..=crate::address::MAX_COL)
                .map(|c| CellRef::new(range.start.row, c))
                .find(|at| {
                    !notes.contains(at)
                        && note_fits(sheet, *at, taken, &MergedRows::of(sheet, at.col))
                })
        })
}
