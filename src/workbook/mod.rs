//! Reading workbooks: every worksheet of a `.xlsx`/`.xlsm` file, with the
//! bordered Sudoku grids found on it and what each grid cell holds.
//!
//! ```no_run
//! use xlsudoku::workbook::{read_workbook, ReadOptions};
//!
//! let sheets = read_workbook("puzzles.xlsx".as_ref(), &ReadOptions::default())?;
//! for sheet in &sheets {
//!     for grid in &sheet.grids {
//!         println!("{}: {} {}", sheet.name, grid.range, grid.shape);
//!         for (cell, text) in grid.bad_cells() {
//!             println!("  {cell} holds {text:?}");
//!         }
//!     }
//! }
//! # Ok::<(), xlsudoku::workbook::ReadError>(())
//! ```
//!
//! # How a grid is found
//!
//! Borders decide where a grid is ([`detect`] has the rules: shared edges,
//! corners in reading order, the largest closing frame, the box shape from
//! thick inner lines or the side). A bordered square is a grid only when its
//! values can be a puzzle, by this rule:
//!
//! > at least one cell holds a digit `1..=side`, and at most a quarter of the
//! > non-empty cells hold anything else (an earlier run's writing counts as
//! > blank).
//!
//! So a bordered table of names or prices is left alone, while a puzzle with
//! one or two stray values (`x`, `12` in a 9x9, `0`, `3.5`) is a grid whose
//! stray cells are reported as [`Cell::Bad`]. With [`ReadOptions::range`] no
//! detection happens at all: the square given is the grid, whatever it holds.
//!
//! # What a cell holds
//!
//! A number that is a whole `1..=side`, or text holding one (spaces,
//! including non-breaking ones, trimmed), is a [`Cell::Given`]; a formula
//! counts by its cached value. What an earlier xlsudoku run wrote is known
//! from the grid records it left in the copy's zip comment
//! ([`crate::annotate::GridRecord`]), never from the font alone: a cell the
//! record lists that still holds a digit (or candidate letters) in blue
//! italics is [`Cell::Filled`] ([`Cell::FilledText`]), and so is the note
//! the record names. Those count as blank in [`FoundGrid::puzzle`], so a run
//! over its own output replaces them rather than stacking on them. A digit
//! typed over a fill (no longer blue italic) is a given; with no record (a
//! file saved since by Excel loses it) every digit is a given.

pub mod detect;
mod reader;

use std::path::{Path, PathBuf};

use calamine::Data;

use crate::address::{CellRange, CellRef};
use crate::grid::{BoxShape, Grid};

/// Overrides for grid detection.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// Use exactly this square as the grid on every sheet (`--range C3:K11`),
    /// without looking at borders or values.
    pub range: Option<CellRange>,
    /// Force the box shape (`--box 3x2`); with detection, only squares of
    /// its side are grids.
    pub shape: Option<BoxShape>,
}

/// What one grid cell holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing (or only spaces).
    Blank,
    /// A digit of the puzzle.
    Given(u8),
    /// A digit an earlier xlsudoku run recorded writing, still in its blue
    /// italics: blank for the puzzle, to be replaced.
    Filled(u8),
    /// Candidate letters an earlier `--logic-only` run recorded writing,
    /// still in its blue italics: blank for the puzzle, to be replaced.
    FilledText(String),
    /// Anything that is not a digit `1..=side`, as the cell shows it.
    Bad(String),
}

/// One grid found on a sheet.
#[derive(Debug, Clone)]
pub struct FoundGrid {
    /// The square of cells the grid covers.
    pub range: CellRange,
    /// Its box shape.
    pub shape: BoxShape,
    /// Every cell, row-major, `side * side` of them.
    pub cells: Vec<Cell>,
    /// Where the note goes: the earlier run's note of this grid if its
    /// record names one, else the first empty cell below the grid in its
    /// first visible column, before the next grid (never a formula, a
    /// hidden row or a merged range); see [`FoundGrid::note_apart`].
    pub note_at: CellRef,
    /// True when `note_at` holds an earlier run's note (to be replaced).
    pub earlier_note: bool,
    /// Grid cells that hold a formula showing no digit (often `""`): blank
    /// for the puzzle, but never written over. A formula showing a digit
    /// is a given like any other.
    pub formulas: Vec<CellRef>,
    /// Merged ranges that reach into the grid: a grid with any is
    /// unreadable (the merged cells hide all but the first), and nothing
    /// is written into it.
    pub merged: Vec<CellRange>,
    /// True when the note could not sit between the grid and what follows
    /// it (the next grid below): it is further down and names its grid.
    pub note_apart: bool,
}

impl FoundGrid {
    /// The puzzle: givens only; filled, bad and blank cells are blank.
    pub fn puzzle(&self) -> Grid {
        self.grid_of(|c| match c {
            Cell::Given(v) => *v,
            _ => 0,
        })
    }

    /// The grid as the sheet shows it: givens and the digits an earlier
    /// xlsudoku run filled in (what a reader of an annotated copy sees).
    pub fn shown(&self) -> Grid {
        self.grid_of(|c| match c {
            Cell::Given(v) | Cell::Filled(v) => *v,
            _ => 0,
        })
    }

    fn grid_of(&self, value: impl Fn(&Cell) -> u8) -> Grid {
        let cells = self.cells.iter().map(value).collect();
        // Digits are checked against the side when read, so this holds;
        // fall back to an empty grid rather than panic.
        Grid::from_cells(self.shape, cells).unwrap_or_else(|_| Grid::empty(self.shape))
    }

    /// Every [`Cell::Bad`] cell with its address and text, in reading order.
    pub fn bad_cells(&self) -> Vec<(CellRef, String)> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                Cell::Bad(text) => Some((self.cell_ref(i), text.clone())),
                _ => None,
            })
            .collect()
    }

    /// The sheet address of the cell at a row-major index of the grid.
    pub fn cell_ref(&self, index: usize) -> CellRef {
        let side = self.shape.side();
        self.range
            .cell((index / side) as u32, (index % side) as u32)
    }
}

/// One worksheet and the grids on it (possibly none).
#[derive(Debug, Clone)]
pub struct Sheet {
    /// The sheet's name as the workbook shows it.
    pub name: String,
    /// The grids found, in reading order of their top-left corners.
    pub grids: Vec<FoundGrid>,
}

/// Why a workbook could not be read. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The workbook is encrypted (password protected).
    #[error("{}: the workbook is encrypted (password protected); save it without a password first", path.display())]
    Encrypted {
        /// The file.
        path: PathBuf,
    },
    /// The file is not an `.xlsx`/`.xlsm` workbook.
    #[error("{}: not an .xlsx/.xlsm workbook: {reason}", path.display())]
    NotAWorkbook {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// One sheet could not be read.
    #[error("{}: sheet '{sheet}': {reason}", path.display())]
    Sheet {
        /// The file.
        path: PathBuf,
        /// The sheet's name.
        sheet: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A part of the package (or the file) is larger than xlsudoku reads:
    /// an oversized sheet or a zip bomb.
    #[error("{}: {part} is {size} bytes uncompressed, over the {limit}-byte limit (an oversized part or a zip bomb)", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The part (or `the file`).
        part: String,
        /// Its size in bytes, as declared.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The `--range` given cannot be a grid.
    #[error("{}: range {range} is not a square with a box shape ({reason})", path.display())]
    BadRange {
        /// The file.
        path: PathBuf,
        /// The range asked for.
        range: CellRange,
        /// What is wrong with it.
        reason: String,
    },
}

/// Reads every worksheet of the workbook at `path`, in workbook order
/// (chartsheets skipped), each with the grids found on it.
pub fn read_workbook(path: &Path, opts: &ReadOptions) -> Result<Vec<Sheet>, ReadError> {
    let bytes = read_file(path)?;
    read_workbook_bytes(path, &bytes, opts)
}

/// [`read_workbook`] on a workbook already in memory (`path` names it in
/// errors), so a caller that also copies the file reads it only once.
pub fn read_workbook_bytes(
    path: &Path,
    bytes: &[u8],
    opts: &ReadOptions,
) -> Result<Vec<Sheet>, ReadError> {
    if let Some(range) = opts.range {
        check_range(path, range, opts.shape)?;
    }
    crate::opc::check_central_directory(&mut std::io::Cursor::new(bytes)).map_err(|reason| {
        ReadError::NotAWorkbook {
            path: path.to_path_buf(),
            reason: format!("a damaged zip package ({reason}); refusing it rather than lose parts"),
        }
    })?;
    let raw = reader::read_raw(path, bytes)?;
    let records = crate::annotate::read_grid_records(std::io::Cursor::new(bytes));
    Ok(raw
        .iter()
        .map(|sheet| find_grids(sheet, opts, &Recorded::of(&records, &sheet.name)))
        .collect())
}

/// What the grid records of an earlier xlsudoku copy (its zip comment)
/// say about one sheet: the cells that run filled and where its notes are.
/// Only these, still in blue italics, are an earlier run's writing; with
/// no record (a file saved since by Excel drops it) every digit is a given.
#[derive(Debug, Default)]
struct Recorded {
    /// Filled cell → what was written (see [`crate::annotate::GridRecord::written`]).
    fills: std::collections::HashMap<(u32, u32), Option<u8>>,
    /// Note cell → the grid it belongs to.
    notes: std::collections::HashMap<(u32, u32), CellRange>,
}

impl Recorded {
    fn of(records: &[crate::annotate::GridRecord], sheet: &str) -> Self {
        let mut out = Recorded::default();
        for r in records.iter().filter(|r| r.sheet == sheet) {
            for (at, _) in &r.fills {
                out.fills.insert((at.row, at.col), r.written(*at).flatten());
            }
            out.notes
                .extend(r.note.iter().map(|(at, _)| ((at.row, at.col), r.range)));
        }
        out
    }

    /// True when `(row, col)` holds what an earlier run filled in: the
    /// record lists it, it is still blue italic and still holds what was
    /// written (a digit typed over it makes it a given).
    fn is_fill(&self, sheet: &reader::RawSheet, row: u32, col: u32) -> bool {
        let Some(written) = self.fills.get(&(row, col)) else {
            return false;
        };
        if !sheet.blue_italic.contains(&(row, col)) {
            return false;
        }
        let value = sheet.values.get_value((row, col));
        match written {
            None => true,
            Some(0) => matches!(value, Some(Data::String(t)) if is_candidate_text(t)),
            Some(d) => matches!(classify(value), Value::Whole(n, _) if n == i64::from(*d)),
        }
    }
}

/// Reads a workbook file into memory, with the same size limit and errors
/// as [`read_workbook`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    reader::read_file(path)
}

/// The box shape a forced range gets, or why it cannot be a grid.
fn check_range(
    path: &Path,
    range: CellRange,
    shape: Option<BoxShape>,
) -> Result<BoxShape, ReadError> {
    let bad = |reason: String| ReadError::BadRange {
        path: path.to_path_buf(),
        range,
        reason,
    };
    if range.rows() != range.cols() {
        return Err(bad(format!(
            "{} rows by {} columns",
            range.rows(),
            range.cols()
        )));
    }
    let side = range.rows() as usize;
    match shape {
        Some(s) if s.side() == side => Ok(s),
        Some(s) => Err(bad(format!(
            "box {s} makes a side of {}, not {side}",
            s.side()
        ))),
        None => BoxShape::for_side(side)
            .filter(|_| side >= detect::MIN_SIDE)
            .ok_or_else(|| {
                bad(format!(
                    "no usual box shape for a side of {side}; give --box"
                ))
            }),
    }
}

/// What a value looks like, before knowing the grid's side.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Empty,
    /// A whole number (from a number or from text).
    Whole(i64, String),
    /// Anything else, as shown.
    Other(String),
}

fn number_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn classify(data: Option<&Data>) -> Value {
    let from_float = |v: f64| {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            Value::Whole(v as i64, number_text(v))
        } else {
            Value::Other(number_text(v))
        }
    };
    match data {
        None | Some(Data::Empty) => Value::Empty,
        Some(Data::Int(i)) => Value::Whole(*i, i.to_string()),
        Some(Data::Float(f)) => from_float(*f),
        Some(Data::DateTime(d)) => from_float(d.as_f64()),
        Some(Data::String(s)) => {
            let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
            if t.is_empty() {
                Value::Empty
            } else if let Ok(v) = t.parse::<i64>() {
                Value::Whole(v, s.clone())
            } else if let Some(v) = t
                .parse::<f64>()
                .ok()
                .filter(|v| v.fract() == 0.0 && v.abs() < 1e15)
            {
                Value::Whole(v as i64, s.clone())
            } else {
                Value::Other(s.clone())
            }
        }
        Some(Data::Bool(b)) => Value::Other(if *b { "TRUE" } else { "FALSE" }.into()),
        Some(Data::Error(e)) => Value::Other(e.to_string()),
        Some(Data::DateTimeIso(s) | Data::DurationIso(s)) => Value::Other(s.clone()),
    }
}

fn is_digit(v: &Value, side: usize) -> Option<u8> {
    match v {
        Value::Whole(n, _) if (1..=side as i64).contains(n) => Some(*n as u8),
        _ => None,
    }
}

/// True for text an earlier `--logic-only` run writes as candidates: the
/// letters `a-z`, `A-Z`, then `0-9`, `@`, `$` (for sides up to 64), as text.
fn is_candidate_text(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '@' || c == '$')
}

/// The cell a grid position holds, given its value and whether it is an
/// earlier run's writing (recorded in the copy and still blue italic).
fn grid_cell(value: Value, earlier: bool, side: usize) -> Cell {
    if let Some(d) = is_digit(&value, side) {
        return if earlier {
            Cell::Filled(d)
        } else {
            Cell::Given(d)
        };
    }
    match value {
        Value::Empty => Cell::Blank,
        Value::Other(text) if earlier && is_candidate_text(&text) => Cell::FilledText(text),
        Value::Whole(_, text) | Value::Other(text) => Cell::Bad(text),
    }
}

/// The puzzle test for a candidate square (see the module docs): `None`
/// when its values cannot be a puzzle, else a score for comparing squares
/// that overlap: digits count one, anything else minus two.
fn judge_values(
    sheet: &reader::RawSheet,
    recorded: &Recorded,
    range: CellRange,
    side: usize,
) -> Option<i64> {
    let (mut digits, mut others) = (0usize, 0usize);
    for r in range.start.row..=range.end.row {
        for c in range.start.col..=range.end.col {
            if recorded.is_fill(sheet, r, c) {
                // An earlier run's writing (digits or candidate letters)
                // counts as blank.
                continue;
            }
            match classify(sheet.values.get_value((r, c))) {
                Value::Empty => {}
                v if is_digit(&v, side).is_some() => digits += 1,
                _ => others += 1,
            }
            if others * 4 > side * side {
                return None; // more than a quarter of the square is not digits
            }
        }
    }
    (digits > 0 && others * 4 <= digits + others).then(|| digits as i64 - 2 * others as i64)
}

/// True when `at` holds the note an earlier run recorded writing there,
/// still as it wrote it (blue italic text).
fn is_earlier_note(sheet: &reader::RawSheet, recorded: &Recorded, at: CellRef) -> bool {
    let key = (at.row, at.col);
    recorded.notes.contains_key(&key)
        && sheet.blue_italic.contains(&key)
        && matches!(sheet.values.get_value(key), Some(Data::String(_)))
}

/// The cell holding this grid's note from an earlier run, when the
/// record names one and it is still as that run wrote it.
fn earlier_note_of(
    sheet: &reader::RawSheet,
    recorded: &Recorded,
    range: CellRange,
) -> Option<CellRef> {
    recorded
        .notes
        .iter()
        .filter(|(_, grid)| **grid == range)
        .map(|(&(row, col), _)| CellRef::new(row, col))
        .find(|&at| is_earlier_note(sheet, recorded, at))
}

/// The rows of one column under merged ranges: sorted, disjoint
/// intervals, so that a long scan down the column stays fast whatever the
/// number of merges.
struct MergedRows(Vec<(u32, u32)>);

impl MergedRows {
    fn of(sheet: &reader::RawSheet, col: u32) -> Self {
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

    fn contains(&self, row: u32) -> bool {
        let i = self.0.partition_point(|&(_, hi)| hi < row);
        self.0.get(i).is_some_and(|&(lo, _)| lo <= row)
    }
}

/// Whether the note may go into `at`: an empty cell (a formula is never
/// empty), in a visible row, under no merged range (`merged`: those of
/// its column) and in no grid.
fn note_fits(
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
/// visible column.
fn note_column(sheet: &reader::RawSheet, range: CellRange) -> u32 {
    (range.start.col..=range.end.col)
        .find(|c| {
            !sheet
                .hidden_cols
                .iter()
                .any(|&(lo, hi)| (lo..=hi).contains(c))
        })
        .unwrap_or(range.start.col)
}

/// The note's cell between the grid at `range` and whatever grid comes
/// next below it in its columns: the first cell that fits (see
/// [`note_fits`]) in the note column; `None` when there is none.
fn note_near(sheet: &reader::RawSheet, range: CellRange, taken: &[CellRange]) -> Option<CellRef> {
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
fn note_apart(
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
        .unwrap_or(CellRef::new(crate::address::MAX_ROW, col))
}

fn read_grid(
    sheet: &reader::RawSheet,
    recorded: &Recorded,
    range: CellRange,
    shape: BoxShape,
) -> Vec<Cell> {
    let side = shape.side();
    let mut cells = Vec::with_capacity(side * side);
    for r in range.start.row..=range.end.row {
        for c in range.start.col..=range.end.col {
            let raw = sheet.values.get_value((r, c));
            let earlier = recorded.is_fill(sheet, r, c);
            cells.push(match raw {
                Some(Data::String(text)) if earlier && is_candidate_text(text) => {
                    Cell::FilledText(text.clone())
                }
                _ => grid_cell(classify(raw), earlier, side),
            });
        }
    }
    cells
}

/// True when two ranges share a cell.
fn overlaps(a: &CellRange, b: &CellRange) -> bool {
    a.start.row <= b.end.row
        && b.start.row <= a.end.row
        && a.start.col <= b.end.col
        && b.start.col <= a.end.col
}

fn find_grids(sheet: &reader::RawSheet, opts: &ReadOptions, recorded: &Recorded) -> Sheet {
    let detected: Vec<(CellRange, BoxShape)> = match opts.range {
        Some(range) => {
            // The shape was checked before reading. The square is this
            // sheet's grid when its values can be a puzzle, so that a range
            // meant for one sheet leaves the workbook's other sheets alone.
            let side = range.rows() as usize;
            opts.shape
                .or_else(|| BoxShape::for_side(side))
                .filter(|_| judge_values(sheet, recorded, range, side).is_some())
                .map(|s| vec![(range, s)])
                .unwrap_or_default()
        }
        None => detect::detect(&sheet.borders, opts.shape, |range, side| {
            judge_values(sheet, recorded, range, side)
        })
        .into_iter()
        .map(|d| (d.range, d.shape))
        .collect(),
    };
    let taken: Vec<CellRange> = detected.iter().map(|d| d.0).collect();
    // Notes: an earlier run's note of the grid where it is; else the first
    // free cell below the grid, before the next grid; else (no room there)
    // further down, and the note names its grid.
    let mut places: Vec<Option<(CellRef, bool, bool)>> = taken
        .iter()
        .map(|&range| {
            earlier_note_of(sheet, recorded, range)
                .map(|at| (at, true, false))
                .or_else(|| note_near(sheet, range, &taken).map(|at| (at, false, false)))
        })
        .collect();
    for i in 0..places.len() {
        if places[i].is_none() {
            let notes: Vec<CellRef> = places.iter().flatten().map(|p| p.0).collect();
            places[i] = Some((note_apart(sheet, taken[i], &taken, &notes), false, true));
        }
    }
    let grids = detected
        .into_iter()
        .zip(places)
        .map(|((range, shape), place)| {
            let (note_at, earlier_note, note_apart) = place.unwrap_or((
                CellRef::new(range.end.row + 1, range.start.col),
                false,
                true,
            ));
            let cells = read_grid(sheet, recorded, range, shape);
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
                    matches!(c, Cell::Blank) && sheet.formulas.contains(&(at.row, at.col))
                })
                .map(|(_, at)| at)
                .collect();
            let merged = sheet
                .merges
                .iter()
                .filter(|m| m.start != m.end && overlaps(m, &range))
                .copied()
                .collect();
            FoundGrid {
                range,
                shape,
                cells,
                note_at,
                earlier_note,
                formulas,
                merged,
                note_apart,
            }
        })
        .collect();
    Sheet {
        name: sheet.name.clone(),
        grids,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_classify_numbers_and_text() {
        assert_eq!(
            classify(Some(&Data::Float(5.0))),
            Value::Whole(5, "5".into())
        );
        assert_eq!(
            classify(Some(&Data::Float(3.5))),
            Value::Other("3.5".into())
        );
        assert_eq!(
            classify(Some(&Data::String("\u{a0} 7 ".into()))),
            Value::Whole(7, "\u{a0} 7 ".into())
        );
        assert_eq!(classify(Some(&Data::String("  ".into()))), Value::Empty);
        assert_eq!(
            classify(Some(&Data::String("5.0".into()))),
            Value::Whole(5, "5.0".into())
        );
        assert_eq!(
            classify(Some(&Data::String("inf".into()))),
            Value::Other("inf".into())
        );
        assert_eq!(
            classify(Some(&Data::String("x".into()))),
            Value::Other("x".into())
        );
        assert_eq!(
            classify(Some(&Data::Bool(true))),
            Value::Other("TRUE".into())
        );
        assert_eq!(classify(None), Value::Empty);
    }

    #[test]
    fn candidate_text_covers_the_letters_of_large_grids() {
        assert!(is_candidate_text("abi"));
        assert!(is_candidate_text("AZ09@$"));
        assert!(!is_candidate_text(""));
        assert!(!is_candidate_text("a b"));
        assert!(!is_candidate_text("solved: 1 ms"));
    }

    #[test]
    fn grid_cells_by_side_and_font() {
        let v = |n: i64| Value::Whole(n, n.to_string());
        assert_eq!(grid_cell(v(9), false, 9), Cell::Given(9));
        assert_eq!(grid_cell(v(12), false, 9), Cell::Bad("12".into()));
        assert_eq!(grid_cell(v(12), false, 16), Cell::Given(12));
        assert_eq!(grid_cell(v(0), false, 9), Cell::Bad("0".into()));
        assert_eq!(grid_cell(v(4), true, 9), Cell::Filled(4));
        assert_eq!(
            grid_cell(Value::Other("abd".into()), true, 9),
            Cell::FilledText("abd".into())
        );
        assert_eq!(
            grid_cell(Value::Other("x".into()), false, 9),
            Cell::Bad("x".into())
        );
        assert_eq!(grid_cell(Value::Empty, true, 9), Cell::Blank);
    }

    fn found(cells: Vec<Cell>) -> FoundGrid {
        FoundGrid {
            range: "B2:E5".parse().unwrap(),
            shape: BoxShape::new(2, 2).unwrap(),
            cells,
            note_at: CellRef::new(5, 1),
            earlier_note: false,
            formulas: Vec::new(),
            merged: Vec::new(),
            note_apart: false,
        }
    }

    #[test]
    fn puzzle_keeps_givens_only_and_bad_cells_have_addresses() {
        let mut cells = vec![Cell::Blank; 16];
        cells[0] = Cell::Given(1);
        cells[5] = Cell::Filled(3);
        cells[6] = Cell::Bad("x".into());
        cells[15] = Cell::Given(4);
        let g = found(cells);
        assert_eq!(g.puzzle().to_line(), "1..............4");
        assert_eq!(g.bad_cells(), vec![(CellRef::new(2, 3), "x".to_string())]);
        assert_eq!(g.cell_ref(15).to_string(), "E5");
    }

    #[test]
    fn merged_rows_of_a_column_are_joined_and_found() {
        let m = MergedRows(vec![(2, 4), (9, 9)]);
        assert!(!m.contains(1) && m.contains(2) && m.contains(4) && !m.contains(5));
        assert!(m.contains(9) && !m.contains(10));
        assert!(!MergedRows(Vec::new()).contains(0));
    }

    #[test]
    fn forced_range_must_be_a_square_with_a_shape() {
        let p = Path::new("t.xlsx");
        let r = |s: &str| s.parse::<CellRange>().unwrap();
        assert!(check_range(p, r("C3:K11"), None).is_ok());
        assert!(matches!(
            check_range(p, r("C3:K10"), None),
            Err(ReadError::BadRange { .. })
        ));
        assert!(check_range(p, r("A1:G7"), None).is_err());
        let six = BoxShape::new(2, 3).unwrap();
        assert_eq!(check_range(p, r("A1:F6"), Some(six)).unwrap(), six);
        assert!(check_range(p, r("A1:I9"), Some(six)).is_err());
        let msg = check_range(p, r("A1:G7"), None).unwrap_err().to_string();
        assert!(msg.contains("t.xlsx") && msg.contains("A1:G7"), "{msg}");
    }
}
