//! New workbooks holding puzzles as bordered grids (rust_xlsxwriter), in the
//! layout xlsudoku reads back: the grid at C3 by default, thin grid lines,
//! medium lines around the boxes and the frame.
//!
//! ```
//! use xlsudoku::export::puzzle_workbook;
//! use xlsudoku::grid::Grid;
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let mut book = puzzle_workbook(&[("Easy".to_string(), puzzle)])?;
//! let bytes = book.save_to_buffer()?;
//! assert!(bytes.starts_with(b"PK"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;

use rust_xlsxwriter::{Format, FormatAlign, FormatBorder, Workbook, Worksheet, XlsxError};

use crate::address::CellRef;
use crate::grid::Grid;

/// Where [`puzzle_workbook`] puts each grid's top-left cell: C3, as in the
/// seed macro's figure.
pub const DEFAULT_ORIGIN: CellRef = CellRef { row: 2, col: 2 };

/// Writes one puzzle as a bordered grid with its top-left cell at `at`:
/// givens as numbers, blanks as bordered empty cells, thin inner lines and
/// medium lines around boxes and the frame, square-ish cells.
pub fn write_grid(sheet: &mut Worksheet, puzzle: &Grid, at: CellRef) -> Result<(), XlsxError> {
    let side = puzzle.side();
    let (bw, bh) = (puzzle.shape().width(), puzzle.shape().height());
    let mut formats: HashMap<[bool; 4], Format> = HashMap::new();
    for r in 0..side {
        for c in 0..side {
            // Medium on box edges: top, bottom, left, right.
            let key = [
                r % bh == 0,
                (r + 1) % bh == 0,
                c % bw == 0,
                (c + 1) % bw == 0,
            ];
            let weight = |thick: bool| {
                if thick {
                    FormatBorder::Medium
                } else {
                    FormatBorder::Thin
                }
            };
            let format = formats.entry(key).or_insert_with(|| {
                Format::new()
                    .set_align(FormatAlign::Center)
                    .set_align(FormatAlign::VerticalCenter)
                    .set_border_top(weight(key[0]))
                    .set_border_bottom(weight(key[1]))
                    .set_border_left(weight(key[2]))
                    .set_border_right(weight(key[3]))
            });
            let (row, col) = (at.row + r as u32, column(at, c)?);
            match puzzle.get(r, c) {
                0 => sheet.write_blank(row, col, format)?,
                v => sheet.write_number_with_format(row, col, v as f64, format)?,
            };
        }
    }
    let width = if side > 9 { 3.6 } else { 3.0 };
    for c in 0..side {
        sheet.set_column_width(column(at, c)?, width)?;
    }
    Ok(())
}

/// The worksheet column `c` cells right of `at`, if Excel has it.
fn column(at: CellRef, c: usize) -> Result<u16, XlsxError> {
    u16::try_from(at.col as usize + c).map_err(|_| XlsxError::RowColumnLimitError)
}

/// A workbook with one puzzle per sheet, each grid at [`DEFAULT_ORIGIN`],
/// sheets named as given.
pub fn puzzle_workbook(puzzles: &[(String, Grid)]) -> Result<Workbook, XlsxError> {
    let mut book = Workbook::new();
    for (name, puzzle) in puzzles {
        let sheet = book.add_worksheet();
        sheet.set_name(name)?;
        write_grid(sheet, puzzle, DEFAULT_ORIGIN)?;
    }
    Ok(book)
}
