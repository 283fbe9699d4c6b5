//! A generated set written out: a print-ready workbook (rust_xlsxwriter)
//! or one puzzle per line of text (the format `bench` and `rate` read).
//!
//! The workbook has one sheet per puzzle (`Puzzle 1` …): a title in C1
//! (number, level, SE rating, givens) and the grid at C3 drawn as
//! [`write_grid`] draws it (thin cell lines, medium box lines and frame),
//! square cells, printed centred on one page. A `Solutions` sheet holds
//! every solution as a small grid under its puzzle's number. The
//! properties name the generator and the seed, and the command that makes
//! the same set again; the creation date is fixed, so the same set gives
//! the same bytes.
//!
//! ```
//! use xlsudoku::generate::book::{workbook_bytes, SetInfo};
//! use xlsudoku::generate::{generate, GenerateOptions};
//! use xlsudoku::grid::BoxShape;
//!
//! let set = generate(&GenerateOptions::new(BoxShape::new(2, 2)?, 2, 1), |_| {})?;
//! let info = SetInfo { seed: 1, command: "xlsudoku generate --size 4 --count 2 --seed 1".into(), target: "4x4".into() };
//! let bytes = workbook_bytes(&set, &info)?;
//! assert!(bytes.starts_with(b"PK"));
//! assert_eq!(bytes, workbook_bytes(&set, &info)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rust_xlsxwriter::{DocProperties, ExcelDateTime, Format, Workbook, Worksheet, XlsxError};

use super::target::title;
use super::Generated;
use crate::address::CellRef;
use crate::export::{write_grid, DEFAULT_ORIGIN};

/// What the output says about the set as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetInfo {
    /// The master seed.
    pub seed: u64,
    /// The command that makes the same set again.
    pub command: String,
    /// The target in words ([`super::Target::describe`]).
    pub target: String,
}

/// The generator's name and version, as the properties record it.
pub fn generator() -> String {
    format!("xlsudoku {}", env!("CARGO_PKG_VERSION"))
}

/// The text form: a `#` comment line with the generator and the command,
/// then one puzzle per line (`.` for a blank, `A`=10 … past 9).
pub fn text(set: &[Generated], info: &SetInfo) -> String {
    let mut out = text_header(info);
    for g in set {
        out.push_str(&g.puzzle.to_line());
        out.push('\n');
    }
    out
}

/// The first line of the text form: `# xlsudoku VERSION: COMMAND`.
pub fn text_header(info: &SetInfo) -> String {
    format!("# {}: {}\n", generator(), info.command)
}

/// The most puzzles a workbook holds: LibreOffice opens at most 10,000
/// sheets (the puzzles and `Solutions`), and each sheet costs about 50 KB
/// of memory while the workbook is built (2,000 4x4 puzzles: 111 MB).
pub const MAX_PUZZLE_SHEETS: usize = 9_999;

/// Cell size in pixels of a puzzle sheet's grid, and the digits' font
/// size, by side: a 9x9 grid about 11 cm wide on paper, a 25x25 one
/// filling the width of A4 (fit to the page shrinks only).
fn cell_pixels(side: usize) -> (u32, u32) {
    match side {
        0..=6 => (64, 24),
        7..=9 => (48, 20),
        10..=16 => (40, 14),
        _ => (28, 11),
    }
}

/// Cell size in pixels of a grid on the `Solutions` sheet.
const SMALL_PIXELS: u32 = 20;

/// The workbook: a sheet per puzzle, then `Solutions`.
pub fn workbook_bytes(set: &[Generated], info: &SetInfo) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let props = DocProperties::new()
        .set_title(format!("Sudoku puzzles: {}", info.target))
        .set_subject(format!("{} puzzles, {}", set.len(), info.target))
        .set_author(generator())
        .set_keywords(format!("sudoku, {}, seed {}", generator(), info.seed))
        .set_comment(format!("Made again by: {}", info.command))
        .set_creation_datetime(&ExcelDateTime::from_ymd(2000, 1, 1)?)
        .set_custom_property("Generator", generator())
        .set_custom_property("Seed", info.seed.to_string())
        .set_custom_property("Command", info.command.as_str());
    book.set_properties(&props);
    let bold = Format::new().set_bold().set_font_size(14);
    for g in set {
        let sheet = book.add_worksheet();
        sheet.set_name(format!("Puzzle {}", g.index + 1))?;
        puzzle_sheet(sheet, g, &bold)?;
    }
    let sheet = book.add_worksheet();
    sheet.set_name("Solutions")?;
    solutions_sheet(sheet, set)?;
    book.save_to_buffer()
}

/// One puzzle's sheet: title, grid, print setup.
fn puzzle_sheet(sheet: &mut Worksheet, g: &Generated, bold: &Format) -> Result<(), XlsxError> {
    let side = g.puzzle.side();
    let at = DEFAULT_ORIGIN;
    // C3: the column fits a `u16` (the origin is a constant).
    let c0 = at.col as u16;
    let (px, points) = cell_pixels(side);
    let big = Format::new().set_font_size(points);
    sheet.write_string_with_format(
        0,
        c0,
        title(g.index + 1, &g.rating, g.puzzle.givens()),
        bold,
    )?;
    write_grid(sheet, &g.puzzle, at)?;
    // Larger digits: the grid's cells again with their border and a font.
    restyle_givens(sheet, g, at, &big)?;
    for k in 0..side {
        sheet.set_column_width_pixels(c0 + k as u16, px)?;
        sheet.set_row_height_pixels(at.row + k as u32, px)?;
    }
    sheet.set_column_width_pixels(0, 16)?;
    sheet.set_column_width_pixels(1, 16)?;
    sheet.set_screen_gridlines(false);
    sheet.set_portrait();
    sheet.set_print_fit_to_pages(1, 1);
    sheet.set_print_center_horizontally(true);
    sheet.set_print_center_vertically(true);
    // Wide enough for the title at every size.
    let last_col = c0 + (side as u16).max(10) - 1;
    sheet.set_print_area(0, c0, at.row + side as u32 - 1, last_col)?;
    Ok(())
}

/// Writes the givens again with `font` added to the borders
/// [`write_grid`] gave them (rust_xlsxwriter replaces a cell's format, so
/// the borders are restated).
fn restyle_givens(
    sheet: &mut Worksheet,
    g: &Generated,
    at: CellRef,
    font: &Format,
) -> Result<(), XlsxError> {
    use rust_xlsxwriter::{FormatAlign, FormatBorder};
    let shape = g.puzzle.shape();
    let (side, bw, bh) = (shape.side(), shape.width(), shape.height());
    let weight = |thick: bool| {
        if thick {
            FormatBorder::Medium
        } else {
            FormatBorder::Thin
        }
    };
    for r in 0..side {
        for c in 0..side {
            let v = g.puzzle.get(r, c);
            if v == 0 {
                continue;
            }
            let format = font
                .clone()
                .set_align(FormatAlign::Center)
                .set_align(FormatAlign::VerticalCenter)
                .set_border_top(weight(r % bh == 0))
                .set_border_bottom(weight((r + 1) % bh == 0))
                .set_border_left(weight(c % bw == 0))
                .set_border_right(weight((c + 1) % bw == 0));
            sheet.write_number_with_format(
                at.row + r as u32,
                at.col as u16 + c as u16,
                v as f64,
                &format,
            )?;
        }
    }
    Ok(())
}

/// Every solution as a small grid under `Puzzle N`, a few across.
fn solutions_sheet(sheet: &mut Worksheet, set: &[Generated]) -> Result<(), XlsxError> {
    let Some(first) = set.first() else {
        return Ok(());
    };
    let side = first.solution.side();
    let across = (36 / (side + 1)).max(1);
    let label = Format::new().set_bold();
    for (k, g) in set.iter().enumerate() {
        let (band, slot) = (k / across, k % across);
        // Label, grid, then two free rows (room for a solved copy's note).
        let top = 1 + band * (side + 3);
        let left = 2 + slot * (side + 1);
        let at = CellRef {
            row: (top + 1) as u32,
            col: left as u32,
        };
        sheet.write_string_with_format(
            top as u32,
            left as u16,
            format!("Puzzle {}", g.index + 1),
            &label,
        )?;
        write_grid(sheet, &g.solution, at)?;
    }
    let cols = 2 + across.min(set.len()) * (side + 1);
    for c in 2..cols {
        sheet.set_column_width_pixels(c as u16, SMALL_PIXELS)?;
    }
    let rows = 1 + set.len().div_ceil(across) * (side + 3);
    for r in 0..rows {
        sheet.set_row_height_pixels(r as u32, SMALL_PIXELS)?;
    }
    sheet.set_screen_gridlines(false);
    sheet.set_print_fit_to_pages(1, 0);
    sheet.set_print_center_horizontally(true);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GenerateOptions};
    use crate::grid::{BoxShape, Grid};

    fn set(w: usize, h: usize, n: usize) -> Vec<Generated> {
        let shape = BoxShape::new(w, h).expect("shape");
        generate(&GenerateOptions::new(shape, n, 3), |_| {}).expect("set")
    }

    fn info() -> SetInfo {
        SetInfo {
            seed: 3,
            command: "xlsudoku generate --seed 3".into(),
            target: "9x9".into(),
        }
    }

    #[test]
    fn text_has_a_header_then_a_puzzle_per_line() {
        let s = set(4, 4, 2);
        let t = text(&s, &info());
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("# xlsudoku "), "{}", lines[0]);
        for (line, g) in lines[1..].iter().zip(&s) {
            assert_eq!(line.parse::<Grid>().expect("a puzzle line"), g.puzzle);
        }
    }

    #[test]
    fn workbooks_have_a_sheet_per_puzzle_and_solutions() {
        let s = set(3, 3, 3);
        let bytes = workbook_bytes(&s, &info()).expect("workbook");
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("zip");
        let names: Vec<String> = zip
            .file_names()
            .filter_map(|n| n.ok().map(|n| n.to_string()))
            .collect();
        for n in 1..=4 {
            assert!(
                names.contains(&format!("xl/worksheets/sheet{n}.xml")),
                "{names:?}"
            );
        }
        let mut core = String::new();
        std::io::Read::read_to_string(
            &mut zip.by_name("docProps/core.xml").expect("core"),
            &mut core,
        )
        .expect("text");
        assert!(core.contains("2000-01-01T00:00:00Z"), "{core}");
        assert!(core.contains("seed 3"), "{core}");
    }
}
