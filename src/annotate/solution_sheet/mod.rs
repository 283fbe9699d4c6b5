//! The sheet of solutions (`solve --answers sheet`): one worksheet part the
//! patcher adds to the package, holding a copy of every solved grid under a
//! title naming its sheet and range.
//!
//! The sheet is a proper part of the package: the worksheet itself
//! (`xl/worksheets/sheetN.xml`, N the first free number), its content type
//! override, a relationship of the workbook part (the first free `rIdN`),
//! a `<sheet>` of the workbook's sheet list (the next `sheetId`, last in
//! the list) and its print area (a `_xlnm.Print_Area` defined name). Every
//! other part stays as it was, `docProps/app.xml` included (see
//! docs/design.md, "The sheet of solutions").
//!
//! The copy records the sheet in one line of its records
//! ([`SolutionsRecord`]): its name, its part and a digest of the part as
//! written. A later run knows its own sheet by this line only, never by
//! its name: it rewrites the same part (or removes the sheet when the run
//! writes no solutions there), and refuses to touch a sheet whose part no
//! longer has the digest written (edited since), unless forced.
//!
//! ```
//! use xlsudoku::annotate::solution_sheet::layout;
//!
//! // A 9x9 and a 6x6 grid: titles in B2 and B14, the grids below them.
//! let places = layout([9, 6]);
//! assert_eq!(places[0].title.to_string(), "B2");
//! assert_eq!(places[0].range.to_string(), "B3:J11");
//! assert_eq!(places[1].title.to_string(), "B14");
//! assert_eq!(places[1].range.to_string(), "B15:G20");
//! ```

mod workbook;
pub(crate) mod write;

pub(crate) use workbook::{add_sheet, remove_sheet, set_print_area};

use std::collections::HashSet;
use std::fmt::Write as _;

use quick_xml::events::Event;
use quick_xml::Reader;

use super::part_edit::{pos, xml_err};
use super::sheet::format_number;
use super::xml::{attr, escape_text};
use super::{AnnotateError, CellValue};
use crate::address::{CellRange, CellRef};
pub use crate::records::solution_sheet::{
    digest, parse_solutions_record, read_solutions_record, SolutionsRecord, SOLUTIONS_PREFIX,
};

/// The name of the sheet of solutions, when no sheet has it already
/// (`Solutions 2`, `Solutions 3` … otherwise).
pub const SOLUTIONS_NAME: &str = "Solutions";

/// The content type of a worksheet part.
pub(crate) const WORKSHEET_CONTENT_TYPE: &str =
    "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";

/// The relationship type of a worksheet.
pub(crate) const WORKSHEET_TYPE: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet";

/// The namespace of relationship ids (`r:id`).
const RELATIONSHIPS_NS: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// The spreadsheet namespace.
const MAIN_NS: &str = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

/// The namespaces of a Strict Open XML workbook (ISO/IEC 29500 strict),
/// in place of [`MAIN_NS`], [`RELATIONSHIPS_NS`] and [`WORKSHEET_TYPE`]:
/// a strict package uses no transitional namespace, so the parts and
/// relationships the sheet of solutions adds to one use these.
pub(crate) const STRICT_MAIN_NS: &str = "http://purl.oclc.org/ooxml/spreadsheetml/main";
const STRICT_RELATIONSHIPS_NS: &str = "http://purl.oclc.org/ooxml/officeDocument/relationships";
pub(crate) const STRICT_WORKSHEET_TYPE: &str =
    "http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet";

/// The defined name of a sheet's print area.
const PRINT_AREA: &str = "_xlnm.Print_Area";

/// One grid's copy on the sheet of solutions.
#[derive(Debug, Clone, PartialEq)]
pub struct SolutionCopy {
    /// The grid's sheet.
    pub sheet: String,
    /// The grid's square on its sheet.
    pub grid: CellRange,
    /// Each cell of the copy in reading order: what it holds (a digit, a
    /// letter of the grid's alphabet, candidate letters) and whether it is
    /// written in blue italics (a solved cell) or as the given it is.
    pub cells: Vec<(CellValue, bool)>,
    /// The style of each cell as an earlier run wrote it, for a copy kept
    /// from the sheet that run wrote ([`read_copies`]); `None` (a new
    /// copy): each cell takes its grid cell's style.
    pub kept_styles: Option<Vec<u32>>,
}

/// What the sheet of solutions holds ([`super::AnnotateOptions::solutions`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Solutions {
    /// The copies, in the order they go on the sheet (the source sheets'
    /// order, then the grids' order). None: no sheet of solutions (an
    /// earlier run's is removed).
    pub copies: Vec<SolutionCopy>,
    /// Replace an earlier run's sheet even when it was changed since
    /// (`--force`); otherwise such a sheet makes the copy fail
    /// ([`AnnotateError::EditedSolutions`]).
    pub force: bool,
}

/// Where one copy goes on the sheet of solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CopyPlace {
    /// The title's cell (it names the grid's sheet and range).
    pub title: CellRef,
    /// The copy's square, just below the title.
    pub range: CellRange,
}

/// The first column of the copies (B): column A is a margin.
const FIRST_COL: u32 = 1;
/// The first title's row (2): row 1 is a margin.
const FIRST_ROW: u32 = 1;
/// Empty rows between a copy and the next title.
const GAP_ROWS: u32 = 2;

/// Where copies of grids of these sides go: each under its title, one
/// below the other, two empty rows between (see the module example).
pub fn layout(sides: impl IntoIterator<Item = u32>) -> Vec<CopyPlace> {
    let mut row = FIRST_ROW;
    sides
        .into_iter()
        .map(|side| {
            let side = side.max(1);
            let title = CellRef::new(row, FIRST_COL);
            let range = CellRange::square(CellRef::new(row + 1, FIRST_COL), side);
            row = range.end.row + 1 + GAP_ROWS;
            CopyPlace { title, range }
        })
        .collect()
}

/// The title of a grid's copy: its sheet and range as a reference
/// (`Easy!C3:K11`, `'Hard one'!B2:P17`).
pub fn title(sheet: &str, range: impl std::fmt::Display) -> String {
    format!("{}!{range}", quoted_sheet(sheet))
}

/// A sheet name as a formula reference writes it: quoted (`'` doubled)
/// unless it is letters, digits and `_` only, not starting with a digit.
fn quoted_sheet(name: &str) -> String {
    let plain = !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
        // A name that reads as a cell (`AB12`) must be quoted too.
        && name.parse::<CellRef>().is_err();
    if plain {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\'', "''"))
    }
}

/// Reads a title written by [`title`] back: the sheet's name and the
/// grid's range.
fn parse_title(text: &str) -> Option<(String, CellRange)> {
    let (sheet, range) = text.rsplit_once('!')?;
    let range: CellRange = range.parse().ok()?;
    let sheet = match sheet.strip_prefix('\'') {
        Some(quoted) => quoted.strip_suffix('\'')?.replace("''", "'"),
        None => sheet.to_string(),
    };
    (!sheet.is_empty()).then_some((sheet, range))
}

/// The copies on a sheet of solutions as xlsudoku wrote it (its
/// `xml`, of part `part`), in their order, each with the values and the
/// styles its cells have there ([`SolutionCopy::kept_styles`]): what a run
/// that writes only some sheets' copies (`--sheet`) keeps of the others.
///
/// ```
/// use xlsudoku::annotate::solution_sheet::read_copies;
///
/// let xml = r#"<worksheet><sheetData><row r="2"><c r="B2" s="0" t="inlineStr"><is><t>'It''s'!C3:D4</t></is></c></row><row r="3"><c r="B3" s="4"><v>1</v></c><c r="C3" s="5"><v>2</v></c></row><row r="4"><c r="B4" s="4"><v>2</v></c><c r="C4" s="5" t="inlineStr"><is><t>a</t></is></c></row></sheetData></worksheet>"#;
/// let copies = read_copies("s", xml)?;
/// assert_eq!(copies[0].sheet, "It's");
/// assert_eq!(copies[0].grid.to_string(), "C3:D4");
/// assert_eq!(copies[0].kept_styles, Some(vec![4, 5, 4, 5]));
/// # Ok::<(), xlsudoku::annotate::AnnotateError>(())
/// ```
pub fn read_copies(part: &str, xml: &str) -> Result<Vec<SolutionCopy>, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    // Every cell: where, its style, what it holds.
    let mut cells: Vec<(CellRef, u32, CellValue)> = Vec::new();
    let mut cell: Option<(CellRef, u32, bool)> = None;
    let mut value: Option<CellValue> = None;
    let mut text_from: Option<usize> = None;
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        match ev {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(xml.as_bytes().get(end.wrapping_sub(2)), Some(b'/'));
                match e.local_name().as_ref() {
                    "c" => {
                        let at = attr(&e, "r").map_err(&err)?.and_then(|r| r.parse().ok());
                        let style = attr(&e, "s")
                            .map_err(&err)?
                            .and_then(|v| v.trim().parse().ok())
                            .unwrap_or(0);
                        let inline = attr(&e, "t").map_err(&err)?.as_deref() == Some("inlineStr");
                        cell = at.map(|at| (at, style, inline));
                        value = None;
                        if empty {
                            if let Some((at, style, _)) = cell.take() {
                                cells.push((at, style, CellValue::Clear));
                            }
                        }
                    }
                    "v" | "t" if !empty => text_from = Some(end),
                    _ => {}
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                "v" | "t" => {
                    let raw = text_from
                        .take()
                        .and_then(|a| xml.get(a..start))
                        .unwrap_or("");
                    let text = quick_xml::escape::unescape(raw)
                        .map_err(|e| err(e.into()))?
                        .into_owned();
                    let inline = cell.is_some_and(|(_, _, inline)| inline);
                    value = Some(match (inline, text.trim().parse::<f64>()) {
                        (false, Ok(n)) => CellValue::Number(n),
                        _ => CellValue::Text(text),
                    });
                }
                "c" => {
                    if let Some((at, style, _)) = cell.take() {
                        cells.push((at, style, value.take().unwrap_or(CellValue::Clear)));
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    let by_at: std::collections::HashMap<CellRef, (u32, &CellValue)> =
        cells.iter().map(|(at, s, v)| (*at, (*s, v))).collect();
    let mut out = Vec::new();
    for (at, _, v) in &cells {
        let CellValue::Text(t) = v else { continue };
        // A title names a square no larger than a grid can be; anything
        // else is not a copy (and is not allocated for).
        let Some((sheet, grid)) = parse_title(t).filter(|(_, g)| {
            at.col == FIRST_COL
                && g.rows() == g.cols()
                && (1..=crate::grid::MAX_SIDE as u32).contains(&g.rows())
        }) else {
            continue;
        };
        let place = CellRange::square(CellRef::new(at.row + 1, FIRST_COL), grid.rows().max(1));
        let n = (place.rows() * place.cols()) as usize;
        let mut copy: Vec<(CellValue, bool)> = Vec::with_capacity(n);
        let mut styles = Vec::with_capacity(n);
        for r in 0..place.rows() {
            for c in 0..place.cols() {
                let (style, v) = by_at
                    .get(&place.cell(r, c))
                    .map_or((0, CellValue::Clear), |(s, v)| (*s, (*v).clone()));
                copy.push((v, false));
                styles.push(style);
            }
        }
        out.push(SolutionCopy {
            sheet,
            grid,
            cells: copy,
            kept_styles: Some(styles),
        });
    }
    Ok(out)
}

/// The name the sheet of solutions takes: `own` (the name of an earlier
/// run's sheet, which is rewritten), else `Solutions`, else the first of
/// `Solutions 2`, `Solutions 3` … that no sheet has, compared without
/// regard to case as Excel compares sheet names.
pub fn free_name<'a>(existing: impl IntoIterator<Item = &'a str>, own: Option<&str>) -> String {
    if let Some(own) = own {
        return own.to_string();
    }
    let taken: Vec<String> = existing.into_iter().map(str::to_lowercase).collect();
    std::iter::once(SOLUTIONS_NAME.to_string())
        .chain((2u32..).map(|n| format!("{SOLUTIONS_NAME} {n}")))
        .find(|n| !taken.contains(&n.to_lowercase()))
        .unwrap_or_else(|| SOLUTIONS_NAME.to_string())
}

/// The `sheetId` of a new sheet: one past the largest in use, or, when
/// that is the largest number there is (`4294967295`), the smallest
/// number no sheet has (sheet ids are unique, from 1).
pub(crate) fn free_sheet_id(ids: impl IntoIterator<Item = u32>) -> u32 {
    let ids: HashSet<u32> = ids.into_iter().collect();
    match ids.iter().max() {
        None => 1,
        Some(&max) => max
            .checked_add(1)
            .unwrap_or_else(|| (1..).find(|n| !ids.contains(n)).unwrap_or(max)),
    }
}

/// Column width (characters) and row height (points) of the copies'
/// cells: 32 pixels each way with the default font, so cells are square.
const CELL_WIDTH: &str = "3.85546875";
const CELL_HEIGHT: &str = "24";
/// The margin column's width.
const MARGIN_WIDTH: &str = "1.7109375";

/// The worksheet XML of the sheet of solutions: each copy's title (in
/// style `title_style`) and cells, each cell in the style `style_of` gives
/// for copy `k`, cell `i`; in the strict namespaces when `strict`.
pub(crate) fn sheet_xml(
    copies: &[SolutionCopy],
    places: &[CopyPlace],
    title_style: u32,
    strict: bool,
    mut style_of: impl FnMut(usize, usize) -> u32,
) -> String {
    let widest = places
        .iter()
        .map(|p| p.range.end.col)
        .max()
        .unwrap_or(FIRST_COL);
    let last_row = places.last().map_or(FIRST_ROW, |p| p.range.end.row);
    let first = CellRef::new(FIRST_ROW, FIRST_COL);
    let dimension = CellRange {
        start: first,
        end: CellRef::new(last_row, widest),
    };
    let mut out = String::with_capacity(256 + copies.len() * 4096);
    let (main, rels) = if strict {
        (STRICT_MAIN_NS, STRICT_RELATIONSHIPS_NS)
    } else {
        (MAIN_NS, RELATIONSHIPS_NS)
    };
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<worksheet xmlns=\"{main}\" xmlns:r=\"{rels}\">"
    );
    let _ = write!(
        out,
        r#"<dimension ref="{dimension}"/><sheetViews><sheetView showGridLines="0" workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols><col min="1" max="1" width="{MARGIN_WIDTH}" customWidth="1"/><col min="{}" max="{}" width="{CELL_WIDTH}" customWidth="1"/></cols><sheetData>"#,
        FIRST_COL + 1,
        widest + 1,
    );
    for (k, (copy, place)) in copies.iter().zip(places).enumerate() {
        let t = place.title;
        let _ = write!(
            out,
            r#"<row r="{}"><c r="{t}" s="{title_style}" t="inlineStr"><is><t>{}</t></is></c></row>"#,
            t.row + 1,
            escape_text(&title(&copy.sheet, copy.grid)),
        );
        let side = place.range.cols() as usize;
        for r in 0..place.range.rows() {
            let _ = write!(
                out,
                r#"<row r="{}" ht="{CELL_HEIGHT}" customHeight="1">"#,
                place.range.start.row + r + 1
            );
            for c in 0..place.range.cols() {
                let i = r as usize * side + c as usize;
                let at = place.range.cell(r, c);
                let s = style_of(k, i);
                match copy.cells.get(i).map(|(v, _)| v) {
                    Some(CellValue::Number(n)) => match format_number(*n) {
                        Some(v) => {
                            let _ = write!(out, r#"<c r="{at}" s="{s}"><v>{v}</v></c>"#);
                        }
                        None => {
                            let _ = write!(out, r#"<c r="{at}" s="{s}"/>"#);
                        }
                    },
                    Some(CellValue::Text(text)) => {
                        let _ = write!(
                            out,
                            r#"<c r="{at}" s="{s}" t="inlineStr"><is><t>{}</t></is></c>"#,
                            escape_text(text)
                        );
                    }
                    Some(CellValue::Clear | CellValue::Tint(_) | CellValue::Restyle(_)) | None => {
                        let _ = write!(out, r#"<c r="{at}" s="{s}"/>"#);
                    }
                }
            }
            out.push_str("</row>");
        }
    }
    out.push_str(r#"</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>"#);
    out
}

/// The print area of the sheet of solutions: from the margin's corner to
/// the last copy's last cell (`'Solutions 2'!$A$1:$Q$40`).
pub(crate) fn print_area(name: &str, places: &[CopyPlace]) -> String {
    let widest = places
        .iter()
        .map(|p| p.range.end.col)
        .max()
        .unwrap_or(FIRST_COL);
    let last_row = places.last().map_or(FIRST_ROW, |p| p.range.end.row);
    format!(
        "'{}'!$A$1:${}${}",
        name.replace('\'', "''"),
        crate::address::column_name(widest),
        last_row + 1
    )
}

#[cfg(test)]
mod tests;
