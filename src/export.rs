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
use crate::workbook::{Symbol, Symbols};

/// Where [`puzzle_workbook`] puts each grid's top-left cell: C3, as in the
/// seed macro's figure.
pub const DEFAULT_ORIGIN: CellRef = CellRef { row: 2, col: 2 };

/// Writes one puzzle as a bordered grid with its top-left cell at `at`:
/// givens as numbers, blanks as bordered empty cells, thin inner lines and
/// medium lines around boxes and the frame, square-ish cells.
pub fn write_grid(sheet: &mut Worksheet, puzzle: &Grid, at: CellRef) -> Result<(), XlsxError> {
    write_grid_styled(sheet, puzzle, at, &GridStyle::default())?;
    let width = if puzzle.side() > 9 { 3.6 } else { 3.0 };
    for c in 0..puzzle.side() {
        sheet.set_column_width(column(at, c)?, width)?;
    }
    Ok(())
}

/// How [`write_grid_styled`] draws a grid.
#[derive(Debug, Clone, PartialEq)]
pub struct GridStyle {
    /// The lines between cells of one box.
    pub cell_line: FormatBorder,
    /// The lines around the boxes and the frame.
    pub box_line: FormatBorder,
    /// The digits' font size in points (the workbook's default if none).
    pub font_points: Option<f64>,
    /// The digits' font (the workbook's default if none).
    pub font_name: Option<&'static str>,
    /// How digits are written: numbers, or letters past 9 (or past 0).
    pub symbols: Symbols,
}

impl Default for GridStyle {
    fn default() -> GridStyle {
        GridStyle {
            cell_line: FormatBorder::Thin,
            box_line: FormatBorder::Medium,
            font_points: None,
            font_name: None,
            symbols: Symbols::Numbers,
        }
    }
}

/// Writes one puzzle as a bordered grid with its top-left cell at `at`, in
/// `style`; column widths and row heights are the caller's.
pub fn write_grid_styled(
    sheet: &mut Worksheet,
    puzzle: &Grid,
    at: CellRef,
    style: &GridStyle,
) -> Result<(), XlsxError> {
    let side = puzzle.side();
    let (bw, bh) = (puzzle.shape().width(), puzzle.shape().height());
    let mut formats: HashMap<[bool; 4], Format> = HashMap::new();
    for r in 0..side {
        for c in 0..side {
            // The box line on box edges: top, bottom, left, right.
            let key = [
                r % bh == 0,
                (r + 1) % bh == 0,
                c % bw == 0,
                (c + 1) % bw == 0,
            ];
            let format = formats.entry(key).or_insert_with(|| {
                let weight = |edge: bool| {
                    if edge {
                        style.box_line
                    } else {
                        style.cell_line
                    }
                };
                let f = Format::new()
                    .set_align(FormatAlign::Center)
                    .set_align(FormatAlign::VerticalCenter)
                    .set_border_top(weight(key[0]))
                    .set_border_bottom(weight(key[1]))
                    .set_border_left(weight(key[2]))
                    .set_border_right(weight(key[3]));
                let f = match style.font_points {
                    Some(p) => f.set_font_size(p),
                    None => f,
                };
                match style.font_name {
                    Some(name) => f.set_font_name(name),
                    None => f,
                }
            });
            let (row, col) = (at.row + r as u32, column(at, c)?);
            match puzzle.get(r, c) {
                0 => sheet.write_blank(row, col, format)?,
                v => match style.symbols.symbol(v) {
                    Symbol::Number(n) => sheet.write_number_with_format(row, col, n, format)?,
                    Symbol::Letter(l) => {
                        sheet.write_string_with_format(row, col, l.to_string(), format)?
                    }
                },
            };
        }
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
