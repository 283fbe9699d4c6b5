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
//! framed grids first, corners in reading order, the largest closing frame,
//! the box shape from thick inner lines or the side). A bordered square is a
//! grid only when its values can be a puzzle, by this rule:
//!
//! > at least one cell holds a digit of the grid, and at most a quarter of
//! > the non-empty cells hold anything else (blank marks — `0`, `.`, pencil
//! > marks — and an earlier run's recorded writing count as blank).
//!
//! So a bordered table of names or prices is left alone, while a puzzle with
//! one or two stray values (`x`, `12` in a 9x9, `3.5`) is a grid whose
//! stray cells are reported as [`Cell::Bad`]. On a sheet without grids,
//! [`Sheet::turned_down`] names the bordered squares left alone for their
//! values and why. With [`ReadOptions::range`] no detection happens at all:
//! the square given is the grid when its values can be a puzzle.
//!
//! # What a cell holds
//!
//! A number that is a whole `1..=side`, or text holding one (spaces,
//! including non-breaking ones, trimmed), is a [`Cell::Given`]; a formula
//! counts by its cached value. A formula without one (written by a program
//! that does not calculate, such as openpyxl; XlsxWriter caches 0) counts by
//! its value when it is a constant (`=5`, `=2+3`), else it is a
//! [`Cell::Formula`], which makes the grid invalid until the file is opened
//! and saved in Excel or LibreOffice. A value that cannot be read at all
//! (an unknown XML entity, a number that is none, a missing shared string)
//! is a [`Cell::Bad`]: never taken for blank, never written over.
//!
//! What an earlier xlsudoku run wrote is known from the grid records it
//! left in the copy's records ([`crate::records::GridRecord`]), never
//! from the font alone: a cell the record lists that still holds a digit
//! (or candidate letters) in blue italics is [`Cell::Filled`]
//! ([`Cell::FilledText`]), and so is the note the record names. Those count
//! as blank in [`FoundGrid::puzzle`], so a run over its own output replaces
//! them rather than stacking on them. The answer copy a record names
//! (`solve --answers beside|at:CELL`) is never taken for a puzzle; while its
//! cells hold what was written it is [`FoundGrid::earlier_answer`], to be
//! replaced. The sheet of solutions an earlier run added (`--answers
//! sheet`, named by its record) is no sheet of puzzles: it is not read, and
//! neither is the answer key at the back of a book `generate` made
//! ([`answer_key`]).
//! A digit typed over a fill (no longer
//! blue italic) is a given; with no record (a file saved since by Excel
//! loses it) every digit is a given.
//!
//! Blanks may be written: `0` (as a number, whatever its number format —
//! also one that hides zeros — or as text) and `.` are blanks, and so are
//! pencil marks in a grid of side 9 or less: two or more digits of the
//! grid in increasing order, together (`23`, `123`) or separated by spaces
//! or commas (`1 2 3`, `4,6`). Each is a [`Cell::Marked`]: blank for the
//! puzzle, and the solution's digit replaces it in the annotated copy.
//!
//! # Letters for digits above 9
//!
//! A grid larger than 9x9 may write its digits with letters; the alphabet
//! ([`Symbols`]) is decided per grid from the symbols in it:
//!
//! - letters and a `0`, no letter past the `0`-based alphabet's last (`F` in
//!   a 16x16) and no number above 9: **`0`-`9` then `A`…** — `0` is the
//!   digit 1, `9` the digit 10, `A` 11, `F` 16 (hexadecimal 16x16);
//! - other letters (up to the side: `G` in a 16x16, `P` in a 25x25):
//!   **`1`-`9` then `A`…** — `A` is 10, `G` 16; numbers `10..=side` are read
//!   too, and `0` is a blank;
//! - no letters: numbers `1..=side`, `0` a blank.
//!
//! Letters in a 9x9 (or past the alphabet's reach) are bad values. The
//! annotated copy writes solved cells in the grid's own alphabet: digits as
//! numbers, letters as text ([`Symbols::symbol`]), in lower case when every
//! letter the grid holds is ([`FoundGrid::lowercase`]).
//!
//! # Parts
//!
//! The file is read by `reader.rs` (the format entry and
//! the sheet model; the OOXML reader in `xlsx/`), and the grids found by
//! `find.rs` over [`detect`]'s borders, `judge.rs`'s test of a square's
//! values, `borderless.rs` (blocks of values without borders) and
//! `note.rs` (where a note goes). `cells.rs` says what a cell holds,
//! `found.rs` is what a sheet's reading returns, `earlier.rs` knows what an
//! earlier run wrote, `options.rs` and `error.rs` hold [`ReadOptions`] and
//! [`ReadError`].

pub mod answer_key;
mod borderless;
mod cells;
pub mod detect;
mod earlier;
mod error;
mod find;
mod found;
mod judge;
pub mod legacy;
mod note;
mod options;
mod plausible;
mod reader;
#[cfg(test)]
mod tests;
mod xlsx;

use std::path::Path;

use crate::address::CellRange;
use crate::grid::BoxShape;

pub use cells::{Cell, Symbol, Symbols};
pub use error::ReadError;
pub use found::{AnswerPlace, FoundGrid, Sheet, TurnedDown};
pub use options::ReadOptions;

use earlier::Recorded;
use find::find_grids;

/// Reads every worksheet of the workbook at `path`, in workbook order
/// (chartsheets skipped), each with the grids found on it.
pub fn read_workbook(path: &Path, opts: &ReadOptions) -> Result<Vec<Sheet>, ReadError> {
    let bytes = read_file(path)?;
    read_workbook_bytes(path, &bytes, opts)
}

/// The workbook in `bytes` as `.xlsx` bytes: an `.xls` or `.ods` converted
/// (with what the conversion could not carry), anything else as it is.
/// The one place where a file's kind decides how it is read.
pub fn as_xlsx(
    path: &Path,
    bytes: Vec<u8>,
) -> Result<(Vec<u8>, Option<legacy::Conversion>), ReadError> {
    match legacy::convert(path, &bytes)? {
        Some((xlsx, conversion)) => Ok((xlsx, Some(conversion))),
        None => Ok((bytes, None)),
    }
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
    if legacy::legacy_kind(bytes).is_some() {
        let (xlsx, _) = as_xlsx(path, bytes.to_vec())?;
        return read_workbook_bytes(path, &xlsx, opts);
    }
    crate::package::check_central_directory(&mut std::io::Cursor::new(bytes)).map_err(
        |reason| ReadError::NotAWorkbook {
            path: path.to_path_buf(),
            reason: format!("a damaged zip package ({reason}); refusing it rather than lose parts"),
        },
    )?;
    let mut raw = reader::read_raw(path, bytes)?;
    let records = crate::records::read_grid_records(std::io::Cursor::new(bytes));
    // The sheet of solutions an earlier run wrote holds no puzzles; it is
    // known by its name and part both, as the copy knows it (a sheet that
    // took the name of one deleted since is read like any other).
    let solutions = crate::records::read_solutions_record(std::io::Cursor::new(bytes));
    // The answer key at the back of a generated book holds no puzzles
    // either.
    let key = answer_key::answer_sheet(bytes);
    Ok(raw
        .iter_mut()
        .filter(|sheet| {
            solutions
                .as_ref()
                .is_none_or(|s| s.sheet != sheet.name || !s.part.eq_ignore_ascii_case(&sheet.part))
                && key.as_deref() != Some(sheet.name.as_str())
        })
        .map(|sheet| {
            let recorded = Recorded::of(&records, &sheet.name);
            sheet.earlier = recorded.fills_in(sheet);
            find_grids(sheet, opts, &recorded)
        })
        .collect())
}

/// Reads a workbook file into memory, with the same size limit and errors
/// as [`read_workbook`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    reader::read_file(path)
}

/// [`read_file`] of the file `path` already open as `file` (one open for
/// a caller that has looked at what it opened).
pub(crate) fn read_open_file(path: &Path, file: std::fs::File) -> Result<Vec<u8>, ReadError> {
    reader::read_open_file(path, file)
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
