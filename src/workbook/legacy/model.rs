//! The neutral model a legacy workbook (.xls, .ods) is read into before it
//! is written as an .xlsx: sheets of cells (value, formula, style index),
//! a table of distinct styles, merges, column widths and row heights.

use std::collections::BTreeMap;

/// The largest number of cells one sheet of the model holds (values and
/// styled blanks together); cells past it are not carried and the file's
/// report says so. Like the .xlsx reader's map limits, this bounds what a
/// small file declaring huge repeats (`.ods`) can make the reader build.
pub(crate) const MAX_SHEET_CELLS: usize = 1 << 20;
/// The largest number of cells the whole model holds.
pub(crate) const MAX_BOOK_CELLS: usize = 4 << 20;
/// The last row (0-based) an .xlsx sheet has.
pub(crate) const LAST_ROW: u32 = 1_048_575;
/// The last column (0-based) an .xlsx sheet has.
pub(crate) const LAST_COL: u32 = 16_383;

/// A value as the source holds it.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Value {
    /// No value (a styled blank, or a formula whose result is empty).
    #[default]
    Empty,
    /// A number (dates and times as serial numbers).
    Number(f64),
    /// Text.
    Text(String),
    /// A boolean.
    Bool(bool),
    /// An error value such as `#DIV/0!`.
    Error(String),
}

/// One cell of the model.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Cell {
    /// Its value (the cached result, for a formula).
    pub value: Value,
    /// Its formula in Excel's syntax, without the leading `=`.
    pub formula: Option<String>,
    /// Its index in [`Book::styles`]; 0 is the default style.
    pub style: usize,
}

/// A border side: its Excel line style (0 none, 1 thin, 2 medium, 3
/// dashed, 4 dotted, 5 thick, 6 double, 7 hair, 8 medium dashed, 9 dash
/// dot, 10 medium dash dot, 11 dash dot dot, 12 medium dash dot dot, 13
/// slanted dash dot: the order of BIFF8 and of .xlsx alike) and its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Side {
    /// The line style, 0–13.
    pub line: u8,
    /// Its colour as `0xRRGGBB`, `None` for automatic.
    pub color: Option<u32>,
}

/// The font part of a style.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(crate) struct Font {
    /// The font's name, `None` for the default.
    pub name: Option<String>,
    /// Its size in twentieths of a point, `None` for the default.
    pub size_twips: Option<u32>,
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// Underlined (single).
    pub underline: bool,
    /// Struck through.
    pub strike: bool,
    /// Its colour as `0xRRGGBB`, `None` for automatic.
    pub color: Option<u32>,
}

/// One distinct cell format.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(crate) struct Style {
    /// The font.
    pub font: Font,
    /// The fill pattern (Excel's order: 0 none, 1 solid, …, 18) and its
    /// foreground and background colours.
    pub fill: (u8, Option<u32>, Option<u32>),
    /// Left, right, top and bottom borders.
    pub borders: [Side; 4],
    /// The number format: a built-in's index or a format code.
    pub num_format: NumFormat,
    /// Horizontal alignment (Excel's order: 0 general, 1 left, 2 centre,
    /// 3 right, 4 fill, 5 justify, 6 centre across, 7 distributed).
    pub h_align: u8,
    /// Vertical alignment (0 top, 1 centre, 2 bottom, 3 justify, 4
    /// distributed); 2 is the default.
    pub v_align: u8,
    /// Text wraps.
    pub wrap: bool,
}

/// A number format.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(crate) enum NumFormat {
    /// General.
    #[default]
    General,
    /// One of Excel's built-in formats, by index (1–49).
    Builtin(u8),
    /// A format code.
    Code(String),
}

/// One sheet of the model.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sheet {
    /// Its name.
    pub name: String,
    /// Hidden (or very hidden).
    pub hidden: bool,
    /// Its cells by (row, column), 0-based.
    pub cells: BTreeMap<(u32, u32), Cell>,
    /// Merged areas: first row, first column, last row, last column.
    pub merges: Vec<(u32, u32, u32, u32)>,
    /// Column widths as an .xlsx `<col width>` holds them (characters of
    /// the default font's digit, padding included), by column.
    pub col_widths: BTreeMap<u32, f64>,
    /// Column default styles (index in [`Book::styles`]), by column.
    pub col_styles: BTreeMap<u32, usize>,
    /// Row default styles (index in [`Book::styles`]), by row.
    pub row_styles: BTreeMap<u32, usize>,
    /// Hidden columns.
    pub hidden_cols: Vec<u32>,
    /// Row heights in points, by row.
    pub row_heights: BTreeMap<u32, f64>,
    /// Hidden rows.
    pub hidden_rows: Vec<u32>,
}

/// A workbook read from a legacy format.
#[derive(Debug, Clone, Default)]
pub(crate) struct Book {
    /// Its worksheets, in order (chart and macro sheets are not sheets of
    /// the model; they are counted in [`Book::lost`]).
    pub sheets: Vec<Sheet>,
    /// The distinct styles; index 0 is the default.
    pub styles: Vec<Style>,
    /// What the copy cannot carry, counted by kind (e.g. `images` → 2).
    pub lost: BTreeMap<String, usize>,
    /// Cells counted towards [`MAX_BOOK_CELLS`].
    pub total_cells: usize,
}

impl Book {
    /// Counts `n` more of something the copy does not carry.
    pub fn lose(&mut self, what: &str, n: usize) {
        if n > 0 {
            *self.lost.entry(what.to_string()).or_default() += n;
        }
    }

    /// The index of `style` in [`Book::styles`], adding it when new.
    pub fn style_index(
        &mut self,
        index: &mut std::collections::HashMap<Style, usize>,
        style: Style,
    ) -> usize {
        if self.styles.is_empty() {
            self.styles.push(Style::default());
            index.insert(Style::default(), 0);
        }
        if let Some(&i) = index.get(&style) {
            return i;
        }
        self.styles.push(style.clone());
        index.insert(style, self.styles.len() - 1);
        self.styles.len() - 1
    }

    /// Puts `cell` at `(row, col)` of `sheet` unless a limit is reached
    /// (counted in [`Book::lost`]) or the place is outside an .xlsx sheet.
    /// False when the sheet or the book is full.
    pub fn put(&mut self, sheet: &mut Sheet, row: u32, col: u32, cell: Cell) -> bool {
        if row > LAST_ROW || col > LAST_COL {
            self.lose("cells outside an .xlsx sheet", 1);
            return true;
        }
        let new = !sheet.cells.contains_key(&(row, col));
        if new && (sheet.cells.len() >= MAX_SHEET_CELLS || self.total_cells >= MAX_BOOK_CELLS) {
            self.lose("cells past the reading limit", 1);
            return false;
        }
        self.total_cells += usize::from(new);
        sheet.cells.insert((row, col), cell);
        true
    }

    /// The list of what is not carried, e.g. `macros (VBA), 2 images`.
    pub fn lost_list(&self) -> Vec<String> {
        self.lost
            .iter()
            .map(|(what, &n)| {
                if n == 1 || what.starts_with("macros") {
                    what.clone()
                } else {
                    format!("{n} {what}")
                }
            })
            .collect()
    }
}

/// Excel's serial day number of a civil date (1900 date system, with
/// Excel's phantom 29 February 1900), or `None` before 1900.
pub(crate) fn excel_serial(year: i64, month: u32, day: u32) -> Option<f64> {
    // Days from 1970-01-01 (Howard Hinnant's algorithm).
    let days = |y: i64, m: u32, d: u32| -> i64 {
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (i64::from(m) + 9) % 12;
        let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || !(1900..=9999).contains(&year) {
        return None;
    }
    let n = days(year, month, day) - days(1899, 12, 30);
    // Excel counts a 29 February 1900 that never was.
    let n = if n <= 60 { n - 1 } else { n };
    Some(n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serials_match_excel() {
        assert_eq!(excel_serial(1900, 1, 1), Some(1.0));
        assert_eq!(excel_serial(1900, 3, 1), Some(61.0));
        assert_eq!(excel_serial(2024, 1, 5), Some(45296.0));
        assert_eq!(excel_serial(1899, 1, 5), None);
    }

    #[test]
    fn limits_are_kept() {
        let mut book = Book::default();
        let mut sheet = Sheet::default();
        assert!(book.put(&mut sheet, LAST_ROW + 1, 0, Cell::default()));
        assert!(sheet.cells.is_empty());
        assert_eq!(book.lost_list(), vec!["cells outside an .xlsx sheet"]);
    }
}
