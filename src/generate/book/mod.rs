//! A generated set written out: a print-ready puzzle book (rust_xlsxwriter)
//! or one puzzle per line of text (the format `bench` and `rate` read).
//!
//! The book's pages are laid out by [`Layout`]: one, two, four or six
//! puzzles a page ([`PerPage`]), each under its title ([`Title`]), on
//! A4, Letter or either ([`Paper`]). A sheet is a printed page (`Puzzle 1`
//! with one a page, `Puzzles 1-4` with more): its print area is exactly its
//! grids, titles and the row under each grid, where a solved copy's note
//! goes in a font of normal size ([`NOTE_POINTS`]), printed at 100 % and centred on the paper, with cells
//! square whatever fonts the printing computer has (widths and heights set
//! in pixels, against the default font [`FONT`], whose metric twin
//! Liberation Sans comes with LibreOffice). Box lines and the frame are thick, cell
//! lines thin. The `Solutions` sheet at the back holds every solution as a
//! small grid under its puzzle's number, six to twelve a page, each page
//! begun by a manual break so that no number is parted from its grid.
//! The book's properties name that sheet as its answer key, so `check` and
//! `solve` read only the puzzles.
//!
//! The properties name the generator and the seed, and the command that
//! makes the same set again; the creation date is fixed, so the same set
//! gives the same bytes.
//!
//! ```
//! use xlsudoku::generate::book::{workbook_bytes, Layout, PerPage, SetInfo};
//! use xlsudoku::generate::{generate, GenerateOptions};
//! use xlsudoku::grid::BoxShape;
//!
//! let set = generate(&GenerateOptions::new(BoxShape::new(2, 2)?, 2, 1), |_| {})?;
//! let info = SetInfo { seed: 1, command: "xlsudoku generate --size 4 --count 2 --seed 1".into(), target: "4x4".into() };
//! let layout = Layout { per_page: PerPage::Two, ..Layout::default() };
//! let bytes = workbook_bytes(&set, &info, &layout)?;
//! assert!(bytes.starts_with(b"PK"));
//! assert_eq!(bytes, workbook_bytes(&set, &info, &layout)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answers;
mod page;
mod title;

pub use page::{AnswerPage, Paper, PerPage, PuzzlePage, MARGIN_INCHES, PX_PER_INCH};
pub use title::{field_list, Title, DEFAULT_TITLE, FIELDS, NEEDS_TITLE};

use rust_xlsxwriter::{DocProperties, ExcelDateTime, Format, Workbook, Worksheet, XlsxError};

use rust_xlsxwriter::{FormatAlign, FormatBorder};

use super::Generated;
use crate::address::CellRef;
use crate::export::{write_grid_styled, GridStyle};
use crate::logic::rating::se_text;
use crate::workbook::answer_key::ANSWER_SHEET_PROPERTY;
use crate::workbook::Symbols;

/// The sheet of solutions at the back of a book, named in the book's
/// properties as its answer key ([`crate::workbook::answer_key`]), so that
/// `check` and `solve` read only the puzzles.
pub const ANSWER_SHEET: &str = "Solutions";

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

/// How a book is laid out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// Puzzles a page.
    pub per_page: PerPage,
    /// The paper.
    pub paper: Paper,
    /// The title above each puzzle.
    pub title: Title,
    /// How digits past 9 are written (numbers, or letters).
    pub symbols: Symbols,
    /// The techniques the puzzles were made to need, in words (the
    /// title's `{needs}`; empty when none).
    pub needs: String,
}

/// The sheet's print setup shared by every page: margins, paper, no
/// gridlines, 100 % and centred.
fn page_setup(sheet: &mut Worksheet, paper: Paper) {
    let m = MARGIN_INCHES;
    sheet.set_margins(m, m, m, m, 0.3, 0.3);
    if let Some(code) = paper.excel_code() {
        sheet.set_paper_size(code);
    }
    sheet.set_screen_gridlines(false);
    sheet.set_portrait();
    sheet.set_print_scale(100);
    sheet.set_print_center_horizontally(true);
}

/// The font of every cell of a book: Arial, which LibreOffice draws with
/// its metric twin Liberation Sans where Arial is missing (Calibri, the
/// usual default, is drawn with fonts of other widths where neither it nor
/// Carlito is installed).
pub const FONT: &str = "Arial";

/// The size of the font of the cell under each grid, where `solve`
/// writes its note: a note's ordinary size, not the book's 17.5.
pub const NOTE_POINTS: f64 = 10.0;

/// The workbook's default font, Arial 17.5. Column widths are counted in
/// the default font's digit width, which Excel rounds to whole pixels and
/// LibreOffice does not: for Arial 17.5 Excel's is 13 pixels and
/// LibreOffice's 12.98 (Liberation Sans's digits are 0.556 em wide), so a
/// column set to N pixels is N pixels wide in both. With Calibri 11 or
/// Arial 10 (7 pixels, and 7.4 in LibreOffice) cells come out 6 % wider
/// than tall in LibreOffice, and with Arial 12 (9 and 8.9) 1.5 % narrower.
/// Every cell of a book that shows anything has a font of its own.
fn default_font() -> Format {
    Format::new().set_font_name(FONT).set_font_size(17.5)
}

/// The workbook: the pages of puzzles, then `Solutions`.
pub fn workbook_bytes(
    set: &[Generated],
    info: &SetInfo,
    layout: &Layout,
) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    // Arial 17.5: columns 120 px by default (8.43 digits of 13 px, and 9
    // px of padding); rows 30 px.
    book.set_default_format(&default_font(), 30, 120)?;
    let props = DocProperties::new()
        .set_title(format!("Sudoku puzzles: {}", info.target))
        .set_subject(format!("{} puzzles, {}", set.len(), info.target))
        .set_author(generator())
        .set_keywords(format!("sudoku, {}, seed {}", generator(), info.seed))
        .set_comment(format!("Made again by: {}", info.command))
        .set_creation_datetime(&ExcelDateTime::from_ymd(2000, 1, 1)?)
        .set_custom_property("Generator", generator())
        .set_custom_property("Seed", info.seed.to_string())
        .set_custom_property("Command", info.command.as_str())
        .set_custom_property(ANSWER_SHEET_PROPERTY, ANSWER_SHEET);
    book.set_properties(&props);
    let per = layout.per_page.count();
    for page in set.chunks(per) {
        let sheet = book.add_worksheet();
        sheet.set_name(page_name(page))?;
        puzzle_page(sheet, page, layout)?;
    }
    let sheet = book.add_worksheet();
    sheet.set_name(ANSWER_SHEET)?;
    answers::solutions_sheet(sheet, set, layout)?;
    book.save_to_buffer()
}

/// A page's sheet name: `Puzzle 7`, or `Puzzles 5-8`.
fn page_name(page: &[Generated]) -> String {
    match (page.first(), page.last()) {
        (Some(a), Some(b)) if a.index != b.index => {
            format!("Puzzles {}-{}", a.index + 1, b.index + 1)
        }
        (Some(a), _) => format!("Puzzle {}", a.index + 1),
        _ => "Puzzles".to_string(),
    }
}

/// The first column of a page's block: B (column A stays a narrow margin
/// outside the print area, so that the grids are never at the sheet's
/// edge).
const FIRST_COL: u16 = 1;
/// The first row of a page's block: the first title.
const FIRST_ROW: u32 = 0;

/// One page of puzzles: each grid under its title, `across` by `down`,
/// with the print setup that centres the block on the paper.
fn puzzle_page(
    sheet: &mut Worksheet,
    page: &[Generated],
    layout: &Layout,
) -> Result<(), XlsxError> {
    let Some(first) = page.first() else {
        return Ok(());
    };
    let side = first.puzzle.side();
    let geo = PuzzlePage::new(side, layout.per_page, layout.paper);
    let style = GridStyle {
        cell_line: FormatBorder::Thin,
        box_line: FormatBorder::Thick,
        font_points: Some(f64::from(geo.font_points)),
        font_name: Some(FONT),
        symbols: layout.symbols,
    };
    let title_format = Format::new()
        .set_font_name(FONT)
        .set_bold()
        .set_font_size(if geo.title >= 40 { 16 } else { 12 })
        .set_align(FormatAlign::Center)
        .set_align(FormatAlign::Bottom);
    // The cell under each grid, where a solved copy's note goes: a font
    // of normal size, the note at the top of the gap.
    let note_format = Format::new()
        .set_font_name(FONT)
        .set_font_size(NOTE_POINTS)
        .set_align(FormatAlign::Top);
    let band = 1 + side as u32 + 1; // title, grid, the note's row and gap
    let slot = side as u16 + 1; // grid, gap
    for (k, g) in page.iter().enumerate() {
        let (across, down) = (k % geo.across, k / geo.across);
        let top = FIRST_ROW + down as u32 * band;
        let left = FIRST_COL + across as u16 * slot;
        let title = layout.title.render(&title_fields(g, &layout.needs));
        sheet.merge_range(
            top,
            left,
            top,
            left + side as u16 - 1,
            &title,
            &title_format,
        )?;
        let at = CellRef {
            row: top + 1,
            col: u32::from(left),
        };
        write_grid_styled(sheet, &g.puzzle, at, &style)?;
        sheet.write_blank(top + 1 + side as u32, left, &note_format)?;
    }
    // Sizes: every band and slot as the geometry says, for a full page.
    sheet.set_column_width_pixels(0, 8)?;
    for a in 0..geo.across {
        let left = FIRST_COL + a as u16 * slot;
        for c in 0..side as u16 {
            sheet.set_column_width_pixels(left + c, geo.cell)?;
        }
        if a + 1 < geo.across {
            sheet.set_column_width_pixels(left + side as u16, geo.gap_x)?;
        }
    }
    let bands = page.len().div_ceil(geo.across);
    for d in 0..bands {
        let top = FIRST_ROW + d as u32 * band;
        sheet.set_row_height_pixels(top, geo.title)?;
        for r in 0..side as u32 {
            sheet.set_row_height_pixels(top + 1 + r, geo.cell)?;
        }
        sheet.set_row_height_pixels(top + 1 + side as u32, geo.gap_y)?;
    }
    page_setup(sheet, layout.paper);
    sheet.set_print_center_vertically(true);
    let cols = geo.across.min(page.len()) as u16;
    let last_col = FIRST_COL + cols * slot - 2;
    // The last grid's note row included.
    let last_row = FIRST_ROW + bands as u32 * band - 1;
    sheet.set_print_area(FIRST_ROW, FIRST_COL, last_row, last_col)?;
    Ok(())
}

/// The values a title's fields take for one puzzle.
fn title_fields(g: &Generated, needs: &str) -> [(&'static str, String); 6] {
    let side = g.puzzle.side();
    [
        ("n", (g.index + 1).to_string()),
        ("level", g.rating.level.to_string()),
        ("rating", se_text(g.rating.se, g.rating.se_exact)),
        ("givens", g.puzzle.givens().to_string()),
        ("size", format!("{side}x{side}")),
        ("needs", needs.to_string()),
    ]
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
        let bytes = workbook_bytes(&s, &info(), &Layout::default()).expect("workbook");
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

    #[test]
    fn pages_hold_as_many_puzzles_as_asked_and_are_named_by_them() {
        let s = set(2, 2, 5);
        let layout = Layout {
            per_page: PerPage::Four,
            ..Layout::default()
        };
        let bytes = workbook_bytes(&s, &info(), &layout).expect("workbook");
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("zip");
        let mut book = String::new();
        std::io::Read::read_to_string(
            &mut zip.by_name("xl/workbook.xml").expect("workbook part"),
            &mut book,
        )
        .expect("text");
        for name in ["Puzzles 1-4", "Puzzle 5", "Solutions"] {
            assert!(book.contains(&format!("name=\"{name}\"")), "{name}: {book}");
        }
        assert_eq!(book.matches("<sheet ").count(), 3, "{book}");
    }
}
