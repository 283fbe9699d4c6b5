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
//! use xlsudoku::annotate::solutions::layout;
//!
//! // A 9x9 and a 6x6 grid: titles in B2 and B14, the grids below them.
//! let places = layout([9, 6]);
//! assert_eq!(places[0].title.to_string(), "B2");
//! assert_eq!(places[0].range.to_string(), "B3:J11");
//! assert_eq!(places[1].title.to_string(), "B14");
//! assert_eq!(places[1].range.to_string(), "B15:G20");
//! ```

pub(crate) mod write;

use std::collections::HashSet;
use std::fmt::Write as _;

use quick_xml::events::Event;
use quick_xml::Reader;

use super::package::{comes_after, pos, xml_err};
use super::sheet::format_number;
use super::xml::{attr, escape_text, prefix_of, write_start_tag};
use super::{AnnotateError, CellValue};
use crate::address::{CellRange, CellRef};
pub use crate::records::solutions::{
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
/// use xlsudoku::annotate::solutions::read_copies;
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
                    Some(CellValue::Clear) | None => {
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

/// Where the elements of `<workbook>` are, as the patcher needs them.
#[derive(Debug, Default)]
struct WorkbookLayout {
    /// The root element's prefix (`"x:"` or `""`).
    prefix: String,
    /// The prefix the root binds to the relationships namespace (the
    /// transitional one or the strict one), if any.
    r_prefix: Option<String>,
    /// Whether the root binds the strict spreadsheet namespace.
    strict: bool,
    /// The start of `</sheets>`.
    sheets_close: Option<usize>,
    /// The `<sheet>` elements: (name, byte range).
    sheets: Vec<(String, std::ops::Range<usize>)>,
    /// The indices of the sheets that are hidden (`state="hidden"` or
    /// `"veryHidden"`).
    hidden: Vec<usize>,
    /// The start of `</definedNames>` (or the whole empty `<definedNames/>`).
    names_close: Option<std::ops::Range<usize>>,
    /// Where a new `<definedNames>` goes: before the first child that the
    /// schema puts after it, else before the root's end tag.
    names_at: Option<usize>,
}

fn workbook_layout(part: &str, xml: &str) -> Result<WorkbookLayout, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out = WorkbookLayout::default();
    let mut depth = 0usize;
    // The child of the root we are in.
    let mut in_child: Option<String> = None;
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        match ev {
            Event::Start(e) | Event::Empty(e) => {
                let empty = xml.as_bytes().get(end.wrapping_sub(2)) == Some(&b'/');
                let local = e.local_name().as_ref().to_string();
                if depth == 0 {
                    out.prefix = prefix_of(&e);
                    for a in e.attributes() {
                        let a = a.map_err(|e| err(e.into()))?;
                        let key = a.key.as_ref().to_string();
                        let value = a.value.as_ref();
                        if let Some(p) = key.strip_prefix("xmlns:") {
                            if value == RELATIONSHIPS_NS || value == STRICT_RELATIONSHIPS_NS {
                                out.r_prefix = Some(p.to_string());
                            }
                        }
                        if (key == "xmlns" || key.starts_with("xmlns:")) && value == STRICT_MAIN_NS
                        {
                            out.strict = true;
                        }
                    }
                } else if depth == 1 {
                    if out.names_at.is_none() && comes_after(&local, "definedNames") {
                        out.names_at = Some(start);
                    }
                    if local == "definedNames" && empty {
                        out.names_close = Some(start..end);
                    }
                    if !empty {
                        in_child = Some(local.clone());
                    }
                } else if depth == 2 && in_child.as_deref() == Some("sheets") && local == "sheet" {
                    let name = attr(&e, "name").map_err(&err)?.unwrap_or_default();
                    let state = attr(&e, "state").map_err(&err)?;
                    if matches!(state.as_deref(), Some("hidden" | "veryHidden")) {
                        out.hidden.push(out.sheets.len());
                    }
                    let stop = if empty {
                        end
                    } else {
                        // A <sheet> with content: up to its end tag.
                        let mut d = 1usize;
                        let mut stop = end;
                        while d > 0 {
                            match reader.read_event().map_err(&err)? {
                                Event::Start(_) => d += 1,
                                Event::End(_) => d -= 1,
                                Event::Eof => break,
                                _ => {}
                            }
                            stop = pos(&reader);
                        }
                        stop
                    };
                    out.sheets.push((name, start..stop));
                    continue;
                }
                if !empty {
                    depth += 1;
                }
            }
            Event::End(e) => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    match e.local_name().as_ref() {
                        "sheets" => out.sheets_close = Some(start),
                        "definedNames" => out.names_close = Some(start..start),
                        _ => {}
                    }
                    in_child = None;
                } else if depth == 0 && out.names_at.is_none() {
                    out.names_at = Some(start);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// An edit of the workbook part's text: replace `range` with `text`.
type Splice = (std::ops::Range<usize>, String);

fn apply(xml: &str, mut splices: Vec<Splice>) -> String {
    splices.sort_by_key(|(r, _)| (r.start, r.end));
    let mut out = String::with_capacity(xml.len() + 256);
    let mut at = 0usize;
    for (r, text) in splices {
        let from = r.start.max(at);
        out.push_str(&xml[at..from]);
        out.push_str(&text);
        at = r.end.max(from);
    }
    out.push_str(&xml[at..]);
    out
}

/// The `<definedName>` elements of the workbook part, rewritten: those
/// local to sheet `index` named [`PRINT_AREA`] go (all names local to it
/// when `removed`), local sheet indices past a removed sheet move down by
/// one, and `add` (a new print area for sheet `index`) comes in.
fn defined_names_splices(
    part: &str,
    xml: &str,
    index: usize,
    removed: bool,
    add: Option<&str>,
    layout: &WorkbookLayout,
) -> Result<Vec<Splice>, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out: Vec<Splice> = Vec::new();
    let mut depth = 0usize;
    let mut in_names = false;
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        match ev {
            Event::Start(e) | Event::Empty(e) => {
                let empty = xml.as_bytes().get(end.wrapping_sub(2)) == Some(&b'/');
                if depth == 1 && e.local_name().as_ref() == "definedNames" && !empty {
                    in_names = true;
                }
                if depth == 2 && in_names && e.local_name().as_ref() == "definedName" {
                    let local: Option<usize> = attr(&e, "localSheetId")
                        .map_err(&err)?
                        .and_then(|v| v.trim().parse().ok());
                    let name = attr(&e, "name").map_err(&err)?.unwrap_or_default();
                    // The element's end.
                    let mut stop = end;
                    if !empty {
                        let mut d = 1usize;
                        while d > 0 {
                            match reader.read_event().map_err(&err)? {
                                Event::Start(_) => d += 1,
                                Event::End(_) => d -= 1,
                                Event::Eof => break,
                                _ => {}
                            }
                            stop = pos(&reader);
                        }
                    }
                    match local {
                        Some(l)
                            if l == index && (removed || name.eq_ignore_ascii_case(PRINT_AREA)) =>
                        {
                            out.push((start..stop, String::new()));
                        }
                        Some(l) if removed && l > index => {
                            let mut tag = String::new();
                            let v = (l - 1).to_string();
                            write_start_tag(&mut tag, &e, &[("localSheetId", &v)], &[], empty)
                                .map_err(&err)?;
                            out.push((start..end, tag));
                        }
                        _ => {}
                    }
                    continue;
                }
                if !empty {
                    depth += 1;
                }
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    in_names = false;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(value) = add {
        let p = &layout.prefix;
        let name = format!(
            r#"<{p}definedName name="{PRINT_AREA}" localSheetId="{index}">{}</{p}definedName>"#,
            escape_text(value)
        );
        match &layout.names_close {
            // `<definedNames/>`: replaced by a full element.
            Some(r) if r.start != r.end => {
                out.push((
                    r.clone(),
                    format!("<{p}definedNames>{name}</{p}definedNames>"),
                ));
            }
            Some(r) => out.push((r.clone(), name)),
            None => {
                let at = layout.names_at.ok_or_else(|| AnnotateError::Malformed {
                    part: part.to_string(),
                    reason: "no <workbook> element".to_string(),
                })?;
                out.push((at..at, format!("<{p}definedNames>{name}</{p}definedNames>")));
            }
        }
    }
    Ok(out)
}

/// The workbook part with a new sheet `name` (last in the list, `sheetId`
/// `sheet_id`, relationship `rel_id`) and its print area.
pub(crate) fn add_sheet(
    part: &str,
    xml: &str,
    name: &str,
    sheet_id: u32,
    rel_id: &str,
    area: &str,
) -> Result<String, AnnotateError> {
    let layout = workbook_layout(part, xml)?;
    let close = layout
        .sheets_close
        .ok_or_else(|| AnnotateError::Unsupported {
            part: part.to_string(),
            reason: "the workbook's sheet list (<sheets>) is missing or empty".to_string(),
        })?;
    let p = &layout.prefix;
    let (r, ns) = match &layout.r_prefix {
        Some(r) => (r.clone(), String::new()),
        None => {
            let ns = if layout.strict {
                STRICT_RELATIONSHIPS_NS
            } else {
                RELATIONSHIPS_NS
            };
            ("r".to_string(), format!(r#" xmlns:r="{ns}""#))
        }
    };
    let sheet = format!(
        r#"<{p}sheet name="{}" sheetId="{sheet_id}" {r}:id="{rel_id}"{ns}/>"#,
        escape_text(name)
    );
    let index = layout.sheets.len();
    let mut splices = defined_names_splices(part, xml, index, false, Some(area), &layout)?;
    splices.push((close..close, sheet));
    Ok(apply(xml, splices))
}

/// The workbook part with sheet `name`'s print area set to `area`.
pub(crate) fn set_print_area(
    part: &str,
    xml: &str,
    name: &str,
    area: &str,
) -> Result<String, AnnotateError> {
    let layout = workbook_layout(part, xml)?;
    let index = sheet_index(part, &layout, name)?;
    let splices = defined_names_splices(part, xml, index, false, Some(area), &layout)?;
    Ok(apply(xml, splices))
}

/// The workbook part without sheet `name`: its `<sheet>` and the names
/// local to it go; later sheets' local names follow their sheets, and so
/// do the window's active and first tabs (`<workbookView activeTab
/// firstSheet>`, indices into the sheet list too). Refused when no
/// visible sheet would be left.
pub(crate) fn remove_sheet(part: &str, xml: &str, name: &str) -> Result<String, AnnotateError> {
    let layout = workbook_layout(part, xml)?;
    let index = sheet_index(part, &layout, name)?;
    if (0..layout.sheets.len()).all(|i| i == index || layout.hidden.contains(&i)) {
        return Err(AnnotateError::Unsupported {
            part: part.to_string(),
            reason: format!(
                "taking the sheet '{name}' out would leave no visible sheet, which Excel refuses; \
                 show a sheet first (or keep --answers sheet)"
            ),
        });
    }
    let mut splices = defined_names_splices(part, xml, index, true, None, &layout)?;
    splices.extend(view_splices(part, xml, index, layout.sheets.len())?);
    splices.push((layout.sheets[index].1.clone(), String::new()));
    let out = apply(xml, splices);
    // A list of names left empty goes (the workbook had none before).
    let p = &layout.prefix;
    Ok(out.replacen(&format!("<{p}definedNames></{p}definedNames>"), "", 1))
}

/// The `<workbookView>` start tags whose sheet indices (`activeTab`,
/// `firstSheet`) change when sheet `index` of `count` goes: later sheets
/// move down by one; the removed sheet's own index goes to the sheet that
/// takes its place (the one before it, when it was the last).
fn view_splices(
    part: &str,
    xml: &str,
    index: usize,
    count: usize,
) -> Result<Vec<Splice>, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        let (e, empty) = match ev {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::Eof => break,
            _ => continue,
        };
        if e.local_name().as_ref() != "workbookView" {
            continue;
        }
        let mut set: Vec<(&str, String)> = Vec::new();
        for key in ["activeTab", "firstSheet"] {
            let Some(v) = attr(&e, key)
                .map_err(&err)?
                .and_then(|v| v.trim().parse::<usize>().ok())
            else {
                continue;
            };
            let moved = if v > index || (v == index && index + 1 == count) {
                v.saturating_sub(1)
            } else {
                v
            };
            if moved != v {
                set.push((key, moved.to_string()));
            }
        }
        if !set.is_empty() {
            let set: Vec<(&str, &str)> = set.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let mut tag = String::new();
            write_start_tag(&mut tag, &e, &set, &[], empty).map_err(&err)?;
            out.push((start..end, tag));
        }
    }
    Ok(out)
}

fn sheet_index(part: &str, layout: &WorkbookLayout, name: &str) -> Result<usize, AnnotateError> {
    layout
        .sheets
        .iter()
        .position(|(n, _)| n == name)
        .ok_or_else(|| AnnotateError::Malformed {
            part: part.to_string(),
            reason: format!("no sheet named '{name}' in the sheet list"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_avoid_taken_ones_without_regard_to_case() {
        assert_eq!(free_name(["Easy", "Hard"], None), "Solutions");
        assert_eq!(free_name(["SOLUTIONS"], None), "Solutions 2");
        assert_eq!(
            free_name(["solutions", "Solutions 2", "x"], None),
            "Solutions 3"
        );
        assert_eq!(free_name(["Solutions"], Some("Solutions")), "Solutions");
    }

    #[test]
    fn titles_and_print_areas_quote_names_as_formulas_do() {
        let r: CellRange = "C3:K11".parse().unwrap();
        assert_eq!(title("Easy", r), "Easy!C3:K11");
        assert_eq!(title("Hard one", r), "'Hard one'!C3:K11");
        assert_eq!(title("it's", r), "'it''s'!C3:K11");
        assert_eq!(title("AB12", r), "'AB12'!C3:K11");
        assert_eq!(title("1st", r), "'1st'!C3:K11");
        let places = layout([9, 16]);
        assert_eq!(places[1].range.to_string(), "B15:Q30");
        assert_eq!(print_area("Solutions", &places), "'Solutions'!$A$1:$Q$30");
    }

    #[test]
    fn copies_read_back_from_the_sheet_as_written() {
        let copy = |sheet: &str, grid: &str, side: usize| SolutionCopy {
            sheet: sheet.into(),
            grid: grid.parse().unwrap(),
            cells: (0..side * side)
                .map(|i| match i % 3 {
                    0 => (CellValue::Number((i % 9 + 1) as f64), true),
                    1 => (CellValue::Text(format!("a<&{i}")), false),
                    _ => (CellValue::Clear, false),
                })
                .collect(),
            kept_styles: None,
        };
        let copies = vec![copy("It's 1!", "C3:F6", 4), copy("B", "A1:I9", 9)];
        let places = layout(copies.iter().map(|c| c.grid.rows()));
        let xml = sheet_xml(&copies, &places, 0, false, |k, i| (k * 100 + i) as u32);
        let back = read_copies("s", &xml).unwrap();
        assert_eq!(back.len(), 2);
        for (k, (a, b)) in copies.iter().zip(&back).enumerate() {
            assert_eq!((&a.sheet, a.grid), (&b.sheet, b.grid));
            let values: Vec<&CellValue> = a.cells.iter().map(|(v, _)| v).collect();
            let again: Vec<&CellValue> = b.cells.iter().map(|(v, _)| v).collect();
            assert_eq!(values, again);
            let styles: Vec<u32> = (0..a.cells.len()).map(|i| (k * 100 + i) as u32).collect();
            assert_eq!(b.kept_styles.as_ref(), Some(&styles));
        }
        // Written again from what was read: the same sheet.
        let kept_xml = sheet_xml(&back, &places, 0, false, |k, i| {
            back[k].kept_styles.as_ref().map_or(0, |s| s[i])
        });
        assert_eq!(kept_xml, xml);
        // A title naming a square no grid has is no copy.
        let huge = xml.replacen("C3:F6", "A1:XFD1048576", 1);
        assert_eq!(read_copies("s", &huge).unwrap().len(), 1);
        // Not a sheet of solutions: nothing, and no panic on cut XML.
        assert!(read_copies("s", "<worksheet/>").unwrap().is_empty());
        for cut in (0..xml.len()).step_by(3) {
            if xml.is_char_boundary(cut) {
                let _ = read_copies("s", &xml[..cut]);
            }
        }
    }

    #[test]
    fn sheet_ids_stay_unique_past_the_largest() {
        assert_eq!(free_sheet_id([]), 1);
        assert_eq!(free_sheet_id([1, 7, 3]), 8);
        assert_eq!(free_sheet_id([1, 2, u32::MAX]), 3);
        assert_eq!(free_sheet_id([u32::MAX, 2]), 1);
    }

    #[test]
    fn removing_a_sheet_moves_the_active_and_first_tabs_with_their_sheets() {
        let wb = r#"<workbook><bookViews><workbookView firstSheet="1" activeTab="2"/></bookViews><sheets><sheet name="S"/><sheet name="A"/><sheet name="B"/></sheets></workbook>"#;
        assert_eq!(
            remove_sheet("w", wb, "S").unwrap(),
            r#"<workbook><bookViews><workbookView firstSheet="0" activeTab="1"/></bookViews><sheets><sheet name="A"/><sheet name="B"/></sheets></workbook>"#
        );
        // The active sheet removed, last: the one before it is active.
        let out = remove_sheet("w", wb, "B").unwrap();
        assert!(
            out.contains(r#"<workbookView firstSheet="1" activeTab="1"/>"#),
            "{out}"
        );
        // The last visible sheet stays.
        let hidden = wb.replace(
            r#"<sheet name="A"/><sheet name="B"/>"#,
            r#"<sheet name="A" state="hidden"/><sheet name="B" state="veryHidden"/>"#,
        );
        assert!(matches!(
            remove_sheet("w", &hidden, "S"),
            Err(AnnotateError::Unsupported { .. })
        ));
        assert!(remove_sheet("w", &hidden, "A").is_ok());
        // Before the tabs: nothing moves.
        let wb = wb.replace(r#"firstSheet="1" activeTab="2""#, r#"activeTab="0""#);
        let out = remove_sheet("w", &wb, "B").unwrap();
        assert!(out.contains(r#"<workbookView activeTab="0"/>"#), "{out}");
    }

    #[test]
    fn a_record_line_reads_back() {
        let rec = SolutionsRecord {
            sheet: "Solutions 2".into(),
            part: "xl/worksheets/sheet4.xml".into(),
            digest: digest(b"abc"),
        };
        let line = rec.to_line();
        assert!(line.starts_with("xlsudoku-solutions sheet=Solutions%202 part=xl%2F"));
        assert_eq!(SolutionsRecord::parse_line(&line), Some(rec.clone()));
        let text = format!("xlsudoku 0.1\n{line}\nxlsudoku-grid x");
        assert_eq!(parse_solutions_record(text.as_bytes()), Some(rec));
        for bad in [
            "xlsudoku-solutions sheet= part=a digest=0123456789abcdef",
            "xlsudoku-solutions sheet=S part=a digest=12",
            "xlsudoku-solutions sheet=S digest=0123456789abcdef",
            "xlsudoku-solutions sheet=%G1 part=a digest=0123456789abcdef",
        ] {
            assert_eq!(SolutionsRecord::parse_line(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_sheet_goes_last_with_its_print_area_before_calc_pr() {
        let wb = r#"<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="1"/></workbook>"#;
        let out = add_sheet("w", wb, "Solutions", 2, "rId5", "'Solutions'!$A$1:$J$11").unwrap();
        assert_eq!(
            out,
            r#"<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId1"/><sheet name="Solutions" sheetId="2" r:id="rId5"/></sheets><definedNames><definedName name="_xlnm.Print_Area" localSheetId="1">'Solutions'!$A$1:$J$11</definedName></definedNames><calcPr calcId="1"/></workbook>"#
        );
        // Set again: the old print area goes, the new one comes.
        let again = set_print_area("w", &out, "Solutions", "'Solutions'!$A$1:$B$2").unwrap();
        assert!(again.contains(r#"<definedNames><definedName name="_xlnm.Print_Area" localSheetId="1">'Solutions'!$A$1:$B$2</definedName></definedNames>"#), "{again}");
        // Removed: back to the start.
        let back = remove_sheet("w", &again, "Solutions").unwrap();
        assert_eq!(back, wb);
    }

    #[test]
    fn existing_names_are_kept_and_follow_their_sheets() {
        let wb = r#"<x:workbook xmlns:x="m" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:sheets><x:sheet name="A" sheetId="1" rel:id="rId1"/><x:sheet name="S" sheetId="7" rel:id="rId2"/><x:sheet name="B" sheetId="3" rel:id="rId3"/></x:sheets><x:definedNames><x:definedName name="_xlnm.Print_Area" localSheetId="0">A!$A$1</x:definedName><x:definedName name="k" localSheetId="1">S!$A$1</x:definedName><x:definedName name="_xlnm.Print_Area" localSheetId="2">B!$A$1</x:definedName></x:definedNames></x:workbook>"#;
        let out = remove_sheet("w", wb, "S").unwrap();
        assert_eq!(
            out,
            r#"<x:workbook xmlns:x="m" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:sheets><x:sheet name="A" sheetId="1" rel:id="rId1"/><x:sheet name="B" sheetId="3" rel:id="rId3"/></x:sheets><x:definedNames><x:definedName name="_xlnm.Print_Area" localSheetId="0">A!$A$1</x:definedName><x:definedName name="_xlnm.Print_Area" localSheetId="1">B!$A$1</x:definedName></x:definedNames></x:workbook>"#
        );
        let added = add_sheet("w", &out, "Solutions", 8, "rId9", "v").unwrap();
        assert!(
            added.contains(r#"<x:sheet name="Solutions" sheetId="8" rel:id="rId9"/></x:sheets>"#),
            "{added}"
        );
        assert!(added.contains(r#"B!$A$1</x:definedName><x:definedName name="_xlnm.Print_Area" localSheetId="2">v</x:definedName></x:definedNames>"#), "{added}");
        // No relationships prefix on the root: declared on the element.
        let bare = r#"<workbook><sheets><sheet name="A"/></sheets><definedNames/></workbook>"#;
        let added = add_sheet("w", bare, "S", 2, "rId2", "v").unwrap();
        assert_eq!(
            added,
            format!(
                r#"<workbook><sheets><sheet name="A"/><sheet name="S" sheetId="2" r:id="rId2" xmlns:r="{RELATIONSHIPS_NS}"/></sheets><definedNames><definedName name="_xlnm.Print_Area" localSheetId="1">v</definedName></definedNames></workbook>"#
            )
        );
    }

    #[test]
    fn a_strict_workbook_gets_strict_relationship_ids() {
        let wb = format!(
            r#"<workbook xmlns="{STRICT_MAIN_NS}"><sheets><sheet name="A"/></sheets></workbook>"#
        );
        let out = add_sheet("w", &wb, "S", 2, "rId2", "v").unwrap();
        assert!(
            out.contains(&format!(
                r#"<sheet name="S" sheetId="2" r:id="rId2" xmlns:r="{STRICT_RELATIONSHIPS_NS}"/>"#
            )),
            "{out}"
        );
        let wb = wb.replace(
            "<workbook ",
            &format!(r#"<workbook xmlns:q="{STRICT_RELATIONSHIPS_NS}" "#),
        );
        let out = add_sheet("w", &wb, "S", 2, "rId2", "v").unwrap();
        assert!(
            out.contains(r#"<sheet name="S" sheetId="2" q:id="rId2"/>"#),
            "{out}"
        );
        let xml = sheet_xml(&[], &[], 0, true, |_, _| 0);
        assert!(
            xml.contains(&format!(
                r#"<worksheet xmlns="{STRICT_MAIN_NS}" xmlns:r="{STRICT_RELATIONSHIPS_NS}">"#
            )),
            "{xml}"
        );
    }

    #[test]
    fn truncated_workbook_parts_give_errors_not_panics() {
        let wb = r#"<workbook xmlns:r="R"><sheets><sheet name="A" sheetId="1" r:id="rId1"/><sheet name="S"><x/></sheet></sheets><definedNames><definedName name="n" localSheetId="1">1</definedName></definedNames><calcPr/></workbook>"#;
        for cut in 0..wb.len() {
            let _ = add_sheet("w", &wb[..cut], "T", 3, "rId3", "v");
            let _ = remove_sheet("w", &wb[..cut], "S");
            let _ = set_print_area("w", &wb[..cut], "S", "v");
        }
    }
}
