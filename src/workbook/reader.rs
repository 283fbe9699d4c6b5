//! The file side of reading: opening a `.xlsx`/`.xlsm` with calamine and
//! gathering, per worksheet, its values, a [`BorderMap`] and which cells are
//! in blue italics.
//!
//! What comes from where:
//!
//! - **calamine** opens the package (and reports password-protected OLE
//!   containers), lists the sheets with their types, reads every cell value
//!   (shared and inline strings, numbers, cached results of formulas) and
//!   resolves the style palette (fonts with theme/indexed/tinted colours),
//!   which gives the blue-italic test.
//! - **this module** adds what calamine 0.38 does not cover for borders:
//!   `Xlsx::worksheet_style` only sees `<c s="..">` elements, so borders from
//!   row styles (`<row s=".." customFormat="1">`) and column styles
//!   (`<col style="..">`) on cells without a `<c>` are lost, and its border
//!   parser knows only `left`/`right`, not the `start`/`end` names that
//!   LibreOffice and strict OOXML writers use. So it parses `xl/styles.xml`'s
//!   `cellXfs` and `borders` and each sheet's `<cols>`, `<row>` and `<c>`
//!   style ids itself (quick-xml), and resolves a cell's borders as Excel
//!   does: its own `<c s>` if the cell has an element, else its row's style
//!   when the row is custom-formatted, else its column's style.

use std::collections::HashMap;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use calamine::{Data, Reader, SheetType, Xlsx, XlsxError};
use quick_xml::events::{BytesStart, Event};

use super::detect::{BorderMap, Edges, Line};
use super::ReadError;
use crate::address::{MAX_COL, MAX_ROW};
use crate::opc;

/// Largest number of cells a border map may cover; larger used areas are cut
/// at the bottom (grids that far down a huge sheet are not searched).
const MAX_MAP_CELLS: usize = 8 << 20;
/// How many columns a column style reaching to the sheet's end may add.
const COL_STYLE_CAP: u32 = 1024;

/// The magic number of an OLE compound file (old `.xls`, encrypted OOXML).
const CFB_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// One worksheet as read from the file.
pub(crate) struct RawSheet {
    /// The sheet's name.
    pub name: String,
    /// Borders of the used area.
    pub borders: BorderMap,
    /// Cell values (absolute positions).
    pub values: calamine::Range<Data>,
    /// Cells (row, col) whose own format is blue italic.
    pub blue_italic: std::collections::HashSet<(u32, u32)>,
}

/// What one `cellXfs` entry says that matters here.
#[derive(Debug, Clone, Copy, Default)]
struct XfInfo {
    edges: Edges,
    blue_italic: bool,
}

/// Reads every worksheet of the workbook at `path` (chartsheets, dialog and
/// macro sheets skipped), in workbook order.
/// Reads a workbook file into memory, refusing one over [`MAX_FILE`].
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let p = || path.to_path_buf();
    let file = std::fs::File::open(path).map_err(|source| ReadError::Io { path: p(), source })?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > MAX_FILE {
        return Err(ReadError::TooLarge {
            path: p(),
            part: "the file".into(),
            size: len,
            limit: MAX_FILE,
        });
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io { path: p(), source })?;
    Ok(bytes)
}

/// Reads every worksheet of the workbook held in `bytes` (read from
/// `path`, which names it in errors).
pub(crate) fn read_raw(path: &Path, bytes: &[u8]) -> Result<Vec<RawSheet>, ReadError> {
    let p = || path.to_path_buf();
    if bytes.starts_with(&CFB_MAGIC) {
        return Err(classify_cfb(path, bytes));
    }
    if !bytes.starts_with(b"PK") {
        return Err(ReadError::NotAWorkbook {
            path: p(),
            reason: "not a zip package (an .xlsx/.xlsm file is a zip archive)".into(),
        });
    }
    // An OpenDocument package starts with its uncompressed `mimetype` part.
    if bytes.get(30..38) == Some(b"mimetype")
        && bytes
            .get(38..84)
            .is_some_and(|m| m.starts_with(b"application/vnd.oasis.opendocument"))
    {
        return Err(ReadError::NotAWorkbook {
            path: p(),
            reason: "an OpenDocument spreadsheet (.ods); save it as .xlsx and try again".into(),
        });
    }
    let mut xlsx: Xlsx<Cursor<&[u8]>> =
        Xlsx::new(Cursor::new(bytes)).map_err(|e| open_error(path, e))?;
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| ReadError::NotAWorkbook {
            path: p(),
            reason: format!("broken zip package: {e}"),
        })?;
    check_sizes(&mut zip, path)?;
    let parts = Package::read(&mut zip, path)?;

    let sheets: Vec<String> = xlsx
        .sheets_metadata()
        .iter()
        .filter(|s| s.typ == SheetType::WorkSheet)
        .map(|s| s.name.clone())
        .collect();

    // The style palette is workbook-wide: calamine resolves fonts, this
    // module resolves borders; both are indexed by cellXfs position.
    let palette: Vec<calamine::Style> = match sheets.first() {
        Some(first) => xlsx
            .worksheet_cells_reader(first)
            .map(|r| r.styles().to_vec())
            .map_err(|e| sheet_error(path, first, e))?,
        None => Vec::new(),
    };
    let xfs: Vec<XfInfo> = parts
        .xf_borders
        .iter()
        .enumerate()
        .map(|(i, &edges)| XfInfo {
            edges,
            blue_italic: palette.get(i).is_some_and(is_blue_italic),
        })
        .collect();

    let mut out = Vec::with_capacity(sheets.len());
    for name in sheets {
        let values = xlsx
            .worksheet_range(&name)
            .map_err(|e| sheet_error(path, &name, e))?;
        let part = parts
            .sheet_parts
            .get(&name)
            .ok_or_else(|| ReadError::Sheet {
                path: p(),
                sheet: name.clone(),
                reason: "the workbook lists it but no sheet part belongs to it".into(),
            })?;
        let xml = read_part(&mut zip, part).ok_or_else(|| ReadError::Sheet {
            path: p(),
            sheet: name.clone(),
            reason: format!("its part {part} is missing or unreadable"),
        })?;
        let styles = scan_sheet_styles(&xml).map_err(|reason| ReadError::Sheet {
            path: p(),
            sheet: name.clone(),
            reason,
        })?;
        let (borders, blue_italic) = styles.resolve(&xfs);
        out.push(RawSheet {
            name,
            borders,
            values,
            blue_italic,
        });
    }
    Ok(out)
}

fn is_blue_italic(style: &calamine::Style) -> bool {
    style.font.as_ref().is_some_and(|f| {
        f.is_italic()
            && f.color
                .is_some_and(|c| (c.red, c.green, c.blue) == (0, 0, 255))
    })
}

/// An OLE compound file: encrypted OOXML or something else (old `.xls`).
/// Told by the name of the `EncryptedPackage` stream that an encrypted
/// workbook's directory holds (UTF-16LE), not by calamine, whose compound
/// file reader panics or runs out of memory on a damaged one.
fn classify_cfb(path: &Path, bytes: &[u8]) -> ReadError {
    let stream: Vec<u8> = "EncryptedPackage"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    if bytes.windows(stream.len()).any(|w| w == stream) {
        ReadError::Encrypted {
            path: path.to_path_buf(),
        }
    } else {
        ReadError::NotAWorkbook {
            path: path.to_path_buf(),
            reason: "an old binary workbook (.xls, Excel 97-2003); save it as .xlsx (Excel or LibreOffice) and try again".into(),
        }
    }
}

fn open_error(path: &Path, e: XlsxError) -> ReadError {
    match e {
        XlsxError::Password => ReadError::Encrypted {
            path: path.to_path_buf(),
        },
        XlsxError::Io(source) => ReadError::Io {
            path: path.to_path_buf(),
            source,
        },
        XlsxError::Zip(z) => ReadError::NotAWorkbook {
            path: path.to_path_buf(),
            reason: format!("a damaged or truncated zip package ({z})"),
        },
        other => ReadError::NotAWorkbook {
            path: path.to_path_buf(),
            reason: other.to_string(),
        },
    }
}

fn sheet_error(path: &Path, sheet: &str, e: XlsxError) -> ReadError {
    ReadError::Sheet {
        path: path.to_path_buf(),
        sheet: sheet.to_string(),
        reason: e.to_string(),
    }
}

type Zip<'a> = zip::ZipArchive<Cursor<&'a [u8]>>;

/// The largest workbook file read.
pub(crate) const MAX_FILE: u64 = 1 << 30;
/// The largest uncompressed part read (a 500k-cell sheet is about 30 MB).
pub(crate) const MAX_PART: u64 = 512 << 20;
/// The largest uncompressed package read, all parts together.
pub(crate) const MAX_TOTAL: u64 = 2 << 30;

/// Refuses packages whose parts declare more than the limits, before any
/// part is inflated: zip bombs and oversized sheets get a clear error
/// instead of exhausting memory.
fn check_sizes(zip: &mut Zip<'_>, path: &Path) -> Result<(), ReadError> {
    let mut total = 0u64;
    for i in 0..zip.len() {
        let Ok(entry) = zip.by_index_raw(i) else {
            continue;
        };
        let size = entry.size();
        total = total.saturating_add(size);
        let too_large = |part: String, size: u64, limit: u64| ReadError::TooLarge {
            path: path.to_path_buf(),
            part,
            size,
            limit,
        };
        if size > MAX_PART {
            return Err(too_large(
                entry.name().map(|n| n.to_string()).unwrap_or_default(),
                size,
                MAX_PART,
            ));
        }
        if total > MAX_TOTAL {
            return Err(too_large("the package".into(), total, MAX_TOTAL));
        }
    }
    Ok(())
}

/// Reads a part of the package as text; `None` if missing or unreadable.
fn read_part(zip: &mut Zip<'_>, name: &str) -> Option<String> {
    let file = zip.by_name(name).ok()?;
    let mut text = String::new();
    file.take(MAX_PART).read_to_string(&mut text).ok()?;
    Some(text)
}

fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == key)
        .map(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| a.value.clone().into_owned())
        })
}

fn attr_u32(e: &BytesStart<'_>, key: &str) -> Option<u32> {
    attr(e, key).and_then(|v| v.trim().parse().ok())
}

fn attr_bool(e: &BytesStart<'_>, key: &str) -> bool {
    attr(e, key).is_some_and(|v| matches!(v.trim(), "1" | "true"))
}

/// The package-level facts this module needs beyond calamine.
struct Package {
    /// Worksheet name → its part path in the zip.
    sheet_parts: HashMap<String, String>,
    /// Borders of each `cellXfs` entry, by index.
    xf_borders: Vec<Edges>,
}

impl Package {
    fn read(zip: &mut Zip<'_>, path: &Path) -> Result<Package, ReadError> {
        let bad = |reason: String| ReadError::NotAWorkbook {
            path: PathBuf::from(path),
            reason,
        };
        // The main part: from the package relationships, else the default.
        let workbook_part = read_part(zip, "_rels/.rels")
            .and_then(|rels| opc::parse_rels(&rels, "").ok())
            .and_then(|rels| {
                rels.into_iter()
                    .find(|r| r.kind.ends_with("/officeDocument") && !r.target.is_empty())
                    .map(|r| r.target)
            })
            .unwrap_or_else(|| "xl/workbook.xml".to_string());
        let dir = workbook_part
            .rsplit_once('/')
            .map(|(d, _)| d.to_string())
            .unwrap_or_default();
        let workbook = read_part(zip, &workbook_part)
            .ok_or_else(|| bad(format!("no workbook part {workbook_part}")))?;
        let rels = read_part(zip, &opc::rels_part_of(&workbook_part)).unwrap_or_default();
        let targets: HashMap<String, (String, String)> = opc::parse_rels(&rels, &workbook_part)
            .unwrap_or_default()
            .into_iter()
            .map(|r| (r.id, (r.kind, r.target)))
            .collect();
        let sheets =
            opc::parse_sheets(&workbook).map_err(|e| bad(format!("workbook part: {e}")))?;
        let mut sheet_parts = HashMap::new();
        for sheet in sheets {
            if let Some((_, target)) = targets.get(&sheet.rel_id) {
                sheet_parts.insert(sheet.name, target.clone());
            }
        }
        let styles_part = targets
            .values()
            .find(|(ty, _)| ty.ends_with("/styles"))
            .map(|(_, t)| t.clone())
            .unwrap_or_else(|| format!("{dir}/styles.xml"));
        let xf_borders = match read_part(zip, &styles_part) {
            Some(xml) => parse_xf_borders(&xml).map_err(|e| bad(format!("styles: {e}")))?,
            None => Vec::new(),
        };
        Ok(Package {
            sheet_parts,
            xf_borders,
        })
    }
}

/// The borders of each `cellXfs` entry of `xl/styles.xml`, accepting both
/// `left`/`right` and `start`/`end` side names.
fn parse_xf_borders(xml: &str) -> Result<Vec<Edges>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut borders: Vec<Edges> = Vec::new();
    let mut xf_border_ids: Vec<usize> = Vec::new();
    let (mut in_borders, mut in_cell_xfs) = (false, false);
    let mut current: Option<Edges> = None;
    loop {
        let event = reader.read_event().map_err(|e| e.to_string())?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.local_name().as_ref() {
                    "borders" => in_borders = !empty,
                    "cellXfs" => in_cell_xfs = !empty,
                    "border" if in_borders => {
                        if empty {
                            borders.push(Edges::default());
                        } else {
                            current = Some(Edges::default());
                        }
                    }
                    side @ ("left" | "start" | "right" | "end" | "top" | "bottom") => {
                        if let Some(edges) = current.as_mut() {
                            let line = attr(e, "style")
                                .map(|s| Line::from_style_name(&s))
                                .unwrap_or_default();
                            let slot = match side {
                                "left" | "start" => &mut edges.left,
                                "right" | "end" => &mut edges.right,
                                "top" => &mut edges.top,
                                _ => &mut edges.bottom,
                            };
                            *slot = (*slot).max(line);
                        }
                    }
                    "xf" if in_cell_xfs => {
                        xf_border_ids.push(attr_u32(e, "borderId").unwrap_or(0) as usize);
                    }
                    _ => {}
                }
            }
            Event::End(ref e) => match e.local_name().as_ref() {
                "borders" => in_borders = false,
                "cellXfs" => in_cell_xfs = false,
                "border" => {
                    if let Some(edges) = current.take() {
                        borders.push(edges);
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(xf_border_ids
        .into_iter()
        .map(|id| borders.get(id).copied().unwrap_or_default())
        .collect())
}

/// The style ids a sheet assigns: columns, custom-formatted rows and cells.
#[derive(Debug, Default)]
struct SheetStyles {
    /// `(first col, last col, xf)`, 0-based columns.
    cols: Vec<(u32, u32, usize)>,
    /// Row (0-based) → xf of a custom-formatted row.
    rows: HashMap<u32, usize>,
    /// Every `<c>` element: (row, col, xf), 0-based.
    cells: Vec<(u32, u32, usize)>,
}

/// Reads the style ids of a worksheet part.
fn scan_sheet_styles(xml: &str) -> Result<SheetStyles, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = SheetStyles::default();
    let (mut row, mut next_col) = (0u32, 0u32);
    let mut seen_row = false;
    loop {
        let event = reader.read_event().map_err(|e| format!("sheet XML: {e}"))?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => match e.local_name().as_ref() {
                "col" => {
                    let min = attr_u32(e, "min").unwrap_or(1).max(1);
                    let max = attr_u32(e, "max").unwrap_or(min).max(min);
                    if let Some(xf) = attr_u32(e, "style") {
                        out.cols.push((min - 1, max - 1, xf as usize));
                    }
                }
                "row" => {
                    row = match attr_u32(e, "r") {
                        Some(r) if r > 0 => r - 1,
                        _ if seen_row => row + 1,
                        _ => 0,
                    };
                    seen_row = true;
                    next_col = 0;
                    if attr_bool(e, "customFormat") {
                        if let Some(xf) = attr_u32(e, "s") {
                            out.rows.insert(row, xf as usize);
                        }
                    }
                }
                "c" => {
                    let (r, c) = match attr(e, "r")
                        .and_then(|a| a.parse::<crate::address::CellRef>().ok())
                    {
                        Some(cell) => (cell.row, cell.col),
                        None => (row, next_col),
                    };
                    next_col = c + 1;
                    out.cells
                        .push((r, c, attr_u32(e, "s").unwrap_or(0) as usize));
                }
                _ => {}
            },
            Event::End(ref e) if e.local_name().as_ref() == "sheetData" => break,
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

impl SheetStyles {
    /// The sheet's border map and its blue-italic cells.
    fn resolve(&self, xfs: &[XfInfo]) -> (BorderMap, std::collections::HashSet<(u32, u32)>) {
        let info = |xf: usize| xfs.get(xf).copied().unwrap_or_default();
        let blue_italic = self
            .cells
            .iter()
            .filter(|&&(_, _, xf)| info(xf).blue_italic)
            .map(|&(r, c, _)| (r, c))
            .collect();

        // Extent: everything that carries a border, plus one cell of margin
        // so that borders stored on a neighbour are seen.
        let any_cell_row = self.cells.iter().map(|c| c.0).max();
        let any_cell_col = self.cells.iter().map(|c| c.1).max();
        let mut max_row: Option<u32> = None;
        let mut max_col: Option<u32> = None;
        let bump = |slot: &mut Option<u32>, v: Option<u32>| {
            if let Some(v) = v {
                *slot = Some(slot.map_or(v, |s| s.max(v)));
            }
        };
        for &(r, c, xf) in &self.cells {
            if info(xf).edges.any() {
                bump(&mut max_row, Some(r));
                bump(&mut max_col, Some(c));
            }
        }
        for (&r, &xf) in &self.rows {
            if info(xf).edges.any() {
                bump(&mut max_row, Some(r));
                bump(&mut max_col, any_cell_col);
            }
        }
        for &(lo, hi, xf) in &self.cols {
            if info(xf).edges.any() {
                bump(&mut max_col, Some(hi.min(lo.saturating_add(COL_STYLE_CAP))));
                bump(&mut max_row, any_cell_row);
            }
        }
        let (Some(max_row), Some(max_col)) = (max_row, max_col) else {
            return (BorderMap::new(0, 0), blue_italic);
        };
        let cols = max_col.min(MAX_COL).saturating_add(2);
        let mut rows = max_row.min(MAX_ROW).saturating_add(2);
        let cap_rows = (MAX_MAP_CELLS / cols.max(1) as usize).max(1) as u32;
        rows = rows.min(cap_rows);
        let mut map = BorderMap::new(rows, cols);
        for &(lo, hi, xf) in &self.cols {
            let edges = info(xf).edges;
            if edges.any() {
                for c in lo..=hi.min(cols.saturating_sub(1)) {
                    for r in 0..rows {
                        map.set(r, c, edges);
                    }
                }
            }
        }
        for (&r, &xf) in &self.rows {
            if r < rows {
                let edges = info(xf).edges;
                for c in 0..cols {
                    map.set(r, c, edges);
                }
            }
        }
        for &(r, c, xf) in &self.cells {
            map.set(r, c, info(xf).edges);
        }
        (map, blue_italic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLES: &str = r#"<?xml version="1.0"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<borders count="3">
  <border><left/><right/><top/><bottom/><diagonal/></border>
  <border><start style="thin"><color auto="1"/></start><end style="medium"/><top style="hair"/><bottom/></border>
  <border><left style="double"/><right/><top/><bottom style="thin"/></border>
</borders>
<cellStyleXfs count="1"><xf borderId="2"/></cellStyleXfs>
<cellXfs count="3"><xf borderId="0"/><xf borderId="1"/><xf borderId="2" applyBorder="1"/></cellXfs>
</styleSheet>"#;

    #[test]
    fn styles_read_start_and_end_as_left_and_right() {
        let xfs = parse_xf_borders(STYLES).unwrap();
        assert_eq!(xfs.len(), 3, "cellStyleXfs must not count");
        assert_eq!(xfs[0], Edges::default());
        assert_eq!(
            xfs[1],
            Edges {
                left: Line::Thin,
                right: Line::Thick,
                top: Line::Thin,
                bottom: Line::None
            }
        );
        assert_eq!(xfs[2].left, Line::Thick);
        assert_eq!(xfs[2].bottom, Line::Thin);
    }

    #[test]
    fn row_and_column_styles_reach_cells_without_elements() {
        let sheet = r#"<worksheet><cols><col min="2" max="3" style="1"/></cols><sheetData>
<row r="5" s="2" customFormat="1"><c r="A5" s="0"><v>1</v></c></row>
<row r="6" s="2"><c r="D6" s="1"/><c s="2"/></row></sheetData></worksheet>"#;
        let styles = scan_sheet_styles(sheet).unwrap();
        assert_eq!(styles.cols, vec![(1, 2, 1)]);
        assert_eq!(styles.rows.get(&4), Some(&2));
        assert!(!styles.rows.contains_key(&5), "row 6 is not customFormat");
        assert_eq!(styles.cells, vec![(4, 0, 0), (5, 3, 1), (5, 4, 2)]);
        let xfs: Vec<XfInfo> = parse_xf_borders(STYLES)
            .unwrap()
            .into_iter()
            .map(|edges| XfInfo {
                edges,
                blue_italic: false,
            })
            .collect();
        let (map, _) = styles.resolve(&xfs);
        // B1 has no <c>: column style 1 (start=thin).
        assert_eq!(map.get(0, 1).left, Line::Thin);
        // E5 has no <c>: the custom row style 2 wins over nothing.
        assert_eq!(map.get(4, 4).left, Line::Thick);
        // A5 has its own <c s="0">: no borders.
        assert_eq!(map.get(4, 0), Edges::default());
        // C5: row style over column style.
        assert_eq!(map.get(4, 2).left, Line::Thick);
        // E6 got its position from the previous cell.
        assert_eq!(map.get(5, 4).bottom, Line::Thin);
    }

    #[test]
    fn broken_sheet_xml_is_an_error_not_a_panic() {
        assert!(
            scan_sheet_styles("<worksheet><sheetData><row r=\"1\"><c r=\"A1\" s=\"1\"></row>")
                .is_err()
        );
        assert!(
            parse_xf_borders("<styleSheet><borders><border><left style=\"thin\"></border>")
                .is_err()
        );
    }
}
