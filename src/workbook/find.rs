//! Finding a sheet's grids: detection over its bordered regions (or the
//! range given), each square's cells read, its note placed and an earlier
//! run's answer copy recognised.

use crate::address::{CellRange, CellRef};
use crate::grid::BoxShape;

use calamine::Data;

use super::borderless;
use super::cells::{classify, grid_cell, is_candidate_text, Cell, Symbols, Value};
use super::earlier::{as_written, earlier_note_of, Recorded};
use super::found::{overlaps, AnswerPlace, FoundGrid, Sheet, TurnedDown, TURNED_DOWN_NAMED};
use super::judge::{judge_labelled, judge_values, square_values, tally, why_not_a_puzzle, Tally};
use super::note::{note_apart, note_near};
use super::options::ReadOptions;
use super::reader;

/// A grid's alphabet, whether its letters are lower case, and its cells.
pub(super) fn read_grid(
    sheet: &reader::RawSheet,
    range: CellRange,
    shape: BoxShape,
) -> (Symbols, bool, Vec<Cell>) {
    let side = shape.side();
    let Tally {
        symbols, lowercase, ..
    } = tally(&square_values(sheet, range), side);
    let mut cells = Vec::with_capacity(side * side);
    for r in range.start.row..=range.end.row {
        for c in range.start.col..=range.end.col {
            let raw = sheet.values.get_value((r, c));
            let earlier = sheet.earlier.contains(&(r, c));
            cells.push(match (sheet.unread.get(&(r, c)), raw) {
                (Some(reader::Unread::Formula(f)), _) => Cell::Formula(f.clone()),
                (Some(reader::Unread::Value(v)), _) => Cell::Bad(v.clone()),
                (None, raw) => match raw {
                    Some(Data::String(text)) if earlier && is_candidate_text(text) => {
                        Cell::FilledText(text.clone())
                    }
                    _ => grid_cell(classify(raw), earlier, side, symbols),
                },
            });
        }
    }
    (symbols, lowercase, cells)
}

/// What an answer copy must keep clear of on one sheet.
pub(super) struct Around<'a> {
    pub(super) sheet: &'a reader::RawSheet,
    pub(super) recorded: &'a Recorded,
    /// The grids found.
    pub(super) taken: &'a [CellRange],
    /// The notes' cells.
    pub(super) notes: &'a [CellRef],
    /// The answer copies of the grids placed before.
    pub(super) blocks: &'a [CellRange],
    /// This grid's earlier answer copy, free to write over.
    pub(super) own: Option<CellRange>,
    /// The grid whose copy is placed.
    pub(super) grid: CellRange,
}

impl Around<'_> {
    /// What keeps `at` from taking an answer; `None` when it is free.
    pub(super) fn occupant(&self, at: CellRef) -> Option<String> {
        let key = (at.row, at.col);
        if let Some(g) = self.taken.iter().find(|g| g.contains(at)) {
            return Some(format!("is in the grid {g}"));
        }
        if self.blocks.iter().any(|b| b.contains(at)) {
            return Some("is in another grid's answer square".to_string());
        }
        if self.notes.contains(&at) {
            return Some("holds a grid's note".to_string());
        }
        if let Some(m) = self
            .sheet
            .merges
            .iter()
            .find(|m| m.start != m.end && m.contains(at))
        {
            return Some(format!("is in the merged cells {m}"));
        }
        if self.own.is_some_and(|o| o.contains(at)) {
            return None;
        }
        if let Some((grid, a)) = self
            .recorded
            .answers
            .iter()
            .find(|(_, a)| a.range.contains(at))
        {
            return match self.grid == *grid {
                // This grid's copy, changed since: its cells still as
                // written are no obstacle, the changed ones are.
                true if as_written(self.sheet, a, at) => None,
                true => Some("was changed since xlsudoku wrote this grid's answers".to_string()),
                false => Some("is in another grid's answer square".to_string()),
            };
        }
        if self.sheet.formulas.contains(&key) {
            return Some("holds a formula".to_string());
        }
        if self.sheet.unread.contains_key(&key)
            || classify(self.sheet.values.get_value(key)) != Value::Empty
        {
            return Some("holds a value".to_string());
        }
        None
    }

    /// The first cell of `range` (reading order) that is not free.
    pub(super) fn first_occupied(&self, range: CellRange) -> Option<(CellRef, String)> {
        (range.start.row..=range.end.row)
            .flat_map(|r| (range.start.col..=range.end.col).map(move |c| CellRef::new(r, c)))
            .find_map(|at| self.occupant(at).map(|what| (at, what)))
    }
}

/// The square of a grid's side from `start`, when it fits on the sheet.
pub(super) fn square_from(start: CellRef, side: u32) -> Option<CellRange> {
    let end_row = start.row.checked_add(side - 1)?;
    let end_col = start.col.checked_add(side - 1)?;
    (end_row <= crate::address::MAX_ROW && end_col <= crate::address::MAX_COL)
        .then(|| CellRange::square(start, side))
}

/// Where the answer copy of the grid at `range` goes in mode `mode`
/// (`beside`: where the grid's earlier copy is, if it has one).
pub(super) fn answer_place(
    around: &Around<'_>,
    range: CellRange,
    mode: crate::answer_place::Answers,
) -> AnswerPlace {
    use crate::answer_place::Answers;
    let side = range.rows();
    let try_at = |start: CellRef| match square_from(start, side) {
        None => AnswerPlace::OffSheet { start },
        Some(square) => match around.first_occupied(square) {
            None => AnswerPlace::At(square),
            Some((cell, what)) => AnswerPlace::Occupied {
                range: square,
                cell,
                what,
            },
        },
    };
    match mode {
        Answers::InGrid => AnswerPlace::InGrid,
        Answers::Sheet => AnswerPlace::Sheet,
        Answers::At(start) => try_at(start),
        Answers::Beside => {
            // Where an earlier run put it (a copy changed since is then
            // refused, not written beside again).
            if let Some((_, a)) = around.recorded.answers.iter().find(|(g, _)| *g == range) {
                return try_at(a.range.start);
            }
            // Right, one empty column between; else below, one row left
            // for the note.
            let right = try_at(CellRef::new(
                range.start.row,
                range.end.col.saturating_add(2),
            ));
            if matches!(right, AnswerPlace::At(_)) {
                return right;
            }
            match try_at(CellRef::new(
                range.end.row.saturating_add(2),
                range.start.col,
            )) {
                below @ AnswerPlace::At(_) => below,
                below => AnswerPlace::NotBeside {
                    right: Box::new(right),
                    below: Box::new(below),
                },
            }
        }
    }
}

/// A note's place: its cell, whether an earlier run's note is there, and
/// whether it stands apart from its grid (and names it).
type NotePlace = (CellRef, bool, bool);

/// The grids of one sheet, with what each cell holds, where each note and
/// answer copy goes; or, without grids, the squares turned down and why.
pub(super) fn find_grids(
    sheet: &reader::RawSheet,
    opts: &ReadOptions,
    recorded: &Recorded,
) -> Sheet {
    let (detected, turned_down) = bordered_squares(sheet, opts);
    // An earlier run's answer copies are no puzzles.
    let mut detected: Vec<(CellRange, BoxShape)> = detected
        .into_iter()
        .filter(|(range, _)| !recorded.answers.iter().any(|(_, a)| a.range == *range))
        .collect();
    let mut named: Vec<TurnedDown> = Vec::new();
    if detected.is_empty() && opts.range.is_none() {
        named = borderless_grids(sheet, opts, recorded, &mut detected);
    }
    if detected.is_empty() {
        name_turned_down(sheet, turned_down, &mut named);
    }
    let taken: Vec<CellRange> = detected.iter().map(|d| d.0).collect();
    let places = note_places(sheet, recorded, &taken);
    let notes: Vec<CellRef> = places.iter().flatten().map(|p| p.0).collect();
    let mut blocks: Vec<CellRange> = Vec::new();
    let grids = detected
        .into_iter()
        .zip(places)
        .map(|((range, shape), place)| {
            let around = Around {
                sheet,
                recorded,
                taken: &taken,
                notes: &notes,
                blocks: &blocks,
                own: recorded.answer_of(sheet, range),
                grid: range,
            };
            let grid = found_grid(&around, opts, range, shape, place);
            blocks.extend(grid.answer.range());
            grid
        })
        .collect();
    Sheet {
        name: sheet.name.clone(),
        grids,
        turned_down: named,
    }
}

/// The squares bordered as grids (or the range given) whose values can be a
/// puzzle, and those turned down for their values.
fn bordered_squares(
    sheet: &reader::RawSheet,
    opts: &ReadOptions,
) -> (Vec<(CellRange, BoxShape)>, Vec<CellRange>) {
    match opts.range {
        Some(range) => {
            // The shape was checked before reading. The square is this
            // sheet's grid when its values can be a puzzle, so that a range
            // meant for one sheet leaves the workbook's other sheets alone.
            let side = range.rows() as usize;
            let shape = opts.shape.or_else(|| BoxShape::for_side(side));
            match shape {
                Some(s) if judge_values(sheet, range, side).is_some() => {
                    (vec![(range, s)], Vec::new())
                }
                Some(_) => (Vec::new(), vec![range]),
                None => (Vec::new(), Vec::new()),
            }
        }
        None => {
            let found = sheet.detect(
                opts.shape,
                |range, side| judge_values(sheet, range, side),
                |inner, strips, side| judge_labelled(sheet, inner, strips, side),
            );
            (
                found.grids.iter().map(|d| (d.range, d.shape)).collect(),
                found.turned_down,
            )
        }
    }
}

/// No bordered grid: a block of values shaped like a puzzle is one (added
/// to `detected`), or is named with the range to ask for it (returned,
/// unless some block was taken).
fn borderless_grids(
    sheet: &reader::RawSheet,
    opts: &ReadOptions,
    recorded: &Recorded,
    detected: &mut Vec<(CellRange, BoxShape)>,
) -> Vec<TurnedDown> {
    let mut named = Vec::new();
    for found in borderless::find(sheet, opts.shape) {
        match found {
            borderless::Found::Grid(range, shape) => detected.push((range, shape)),
            borderless::Found::Hint(range) if named.len() < TURNED_DOWN_NAMED => {
                let side = range.rows();
                named.push(TurnedDown {
                    range,
                    reason: format!(
                        "the digits at {range} look like a {side}×{side} puzzle: --range {range}"
                    ),
                    bordered: false,
                });
            }
            borderless::Found::Hint(_) => {}
        }
    }
    detected.retain(|(range, _)| !recorded.answers.iter().any(|(_, a)| a.range == *range));
    if !detected.is_empty() {
        named.clear();
    }
    named
}

/// The first few squares turned down, each apart from those named before
/// it (the rows of one long table are one square, not one per row).
fn name_turned_down(
    sheet: &reader::RawSheet,
    turned_down: Vec<CellRange>,
    named: &mut Vec<TurnedDown>,
) {
    for range in turned_down {
        if named.len() == TURNED_DOWN_NAMED {
            break;
        }
        if named.iter().any(|t| overlaps(&t.range, &range)) {
            continue;
        }
        named.push(TurnedDown {
            range,
            reason: why_not_a_puzzle(sheet, range, range.rows() as usize),
            bordered: true,
        });
    }
}

/// Notes: an earlier run's note of the grid where it is; else the first
/// free cell below the grid, before the next grid; else (no room there)
/// further down, and the note names its grid.
fn note_places(
    sheet: &reader::RawSheet,
    recorded: &Recorded,
    taken: &[CellRange],
) -> Vec<Option<NotePlace>> {
    let mut places: Vec<Option<NotePlace>> = taken
        .iter()
        .map(|&range| {
            earlier_note_of(sheet, recorded, range)
                .map(|at| (at, true, false))
                .or_else(|| note_near(sheet, range, taken).map(|at| (at, false, false)))
        })
        .collect();
    for i in 0..places.len() {
        if places[i].is_none() {
            let notes: Vec<CellRef> = places.iter().flatten().map(|p| p.0).collect();
            places[i] = Some((note_apart(sheet, taken[i], taken, &notes), false, true));
        }
    }
    places
}

/// One grid found: its cells read, its note placed, its answer copy placed
/// around what is taken.
fn found_grid(
    around: &Around<'_>,
    opts: &ReadOptions,
    range: CellRange,
    shape: BoxShape,
    place: Option<NotePlace>,
) -> FoundGrid {
    let sheet = around.sheet;
    let (note_at, earlier_note, note_apart) = place.unwrap_or((
        CellRef::new(range.end.row + 1, range.start.col),
        false,
        true,
    ));
    let (symbols, lowercase, cells) = read_grid(sheet, range, shape);
    let formulas = cells
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                c,
                range.cell((i / shape.side()) as u32, (i % shape.side()) as u32),
            )
        })
        .filter(|(c, at)| {
            matches!(c, Cell::Blank | Cell::Marked(_)) && sheet.formulas.contains(&(at.row, at.col))
        })
        .map(|(_, at)| at)
        .collect();
    let merged = sheet
        .merges
        .iter()
        .filter(|m| m.start != m.end && overlaps(m, &range))
        .copied()
        .collect();
    let earlier_answer = around.own;
    let answer = answer_place(around, range, opts.answers);
    FoundGrid {
        range,
        shape,
        symbols,
        lowercase,
        cells,
        note_at,
        earlier_note,
        formulas,
        merged,
        note_apart,
        answer,
        earlier_answer,
        bold: (0..shape.side() * shape.side())
            .map(|i| {
                let at = range.cell((i / shape.side()) as u32, (i % shape.side()) as u32);
                sheet.bold.contains(&(at.row, at.col))
            })
            .collect(),
    }
}
