//! The `Solutions` sheet at the back of a book: every solution as a small
//! grid under its puzzle's number, [`AnswerPage::count`] a page, each page
//! begun by a manual page break so that no number is parted from its grid.

use rust_xlsxwriter::{Format, FormatBorder, Worksheet, XlsxError};

use super::page::AnswerPage;
use super::{page_setup, Generated, Layout, FIRST_COL, FIRST_ROW, FONT};
use crate::address::CellRef;
use crate::export::{write_grid_styled, GridStyle};

/// Writes the solutions of `set`, laid out for `layout`'s paper.
pub(super) fn solutions_sheet(
    sheet: &mut Worksheet,
    set: &[Generated],
    layout: &Layout,
) -> Result<(), XlsxError> {
    let Some(first) = set.first() else {
        return Ok(());
    };
    let side = first.solution.side();
    let geo = AnswerPage::new(side, layout.paper);
    let style = GridStyle {
        cell_line: FormatBorder::Thin,
        box_line: FormatBorder::Medium,
        font_points: Some(f64::from(geo.font_points)),
        font_name: Some(FONT),
        symbols: layout.symbols,
    };
    let label = Format::new().set_font_name(FONT).set_bold();
    let band = 1 + side as u32 + 1; // label, grid, gap
    let slot = side as u16 + 1; // grid, gap
    let bands = set.len().div_ceil(geo.across);
    for (k, g) in set.iter().enumerate() {
        let (across, down) = (k % geo.across, k / geo.across);
        let top = FIRST_ROW + down as u32 * band;
        let left = FIRST_COL + across as u16 * slot;
        sheet.write_string_with_format(top, left, format!("Puzzle {}", g.index + 1), &label)?;
        let at = CellRef {
            row: top + 1,
            col: u32::from(left),
        };
        write_grid_styled(sheet, &g.solution, at, &style)?;
    }
    sheet.set_column_width_pixels(0, 8)?;
    for a in 0..geo.across.min(set.len()) {
        let left = FIRST_COL + a as u16 * slot;
        for c in 0..side as u16 {
            sheet.set_column_width_pixels(left + c, geo.cell)?;
        }
        sheet.set_column_width_pixels(left + side as u16, geo.gap_x)?;
    }
    let mut breaks = Vec::new();
    for d in 0..bands {
        let top = FIRST_ROW + d as u32 * band;
        if d > 0 && d % geo.down == 0 {
            breaks.push(top);
        }
        sheet.set_row_height_pixels(top, geo.label)?;
        for r in 0..side as u32 {
            sheet.set_row_height_pixels(top + 1 + r, geo.cell)?;
        }
        sheet.set_row_height_pixels(top + 1 + side as u32, geo.gap_y)?;
    }
    page_setup(sheet, layout.paper);
    if !breaks.is_empty() {
        sheet.set_page_breaks(&breaks)?;
    }
    let cols = geo.across.min(set.len()) as u16;
    let last_col = FIRST_COL + cols * slot - 2;
    let last_row = FIRST_ROW + bands as u32 * band - 2;
    sheet.set_print_area(FIRST_ROW, FIRST_COL, last_row, last_col)?;
    Ok(())
}
