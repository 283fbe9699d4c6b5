//! The file side of reading: opening a `.xlsx`/`.xlsm` package and
//! gathering, per worksheet, its values, its bordered regions and which
//! cells are in blue italics.
//!
//! What comes from where:
//!
//! - **this module** reads the package itself (quick-xml over the zip
//!   parts): the sheets and their parts (through `workbook.xml` and its
//!   relationships), the shared strings, and each sheet's cells in one pass:
//!   values (numbers, shared and inline strings, booleans, errors, cached
//!   results of formulas, constant formulas without a cached result) and
//!   style ids. Values are kept per cell present, never over the bounding
//!   box of the used area, so a sheet with one cell at `A1` and one at
//!   `XFD1048576` costs two cells. Declared counts (`uniqueCount`,
//!   `dimension`) are never used to size anything.
//! - **calamine** resolves the font palette (theme, indexed and tinted
//!   colours), which gives the blue-italic test. It is handed a package
//!   trimmed to the parts that matter for that (workbook, styles, theme), so
//!   nothing else of the input goes through it.
//! - **borders**: `xl/styles.xml`'s `cellXfs` and `borders` are parsed here
//!   (both `left`/`right` and the `start`/`end` names LibreOffice and strict
//!   OOXML writers use), with each sheet's `<cols>`, `<row>` and `<c>` style
//!   ids. A cell's borders resolve as Excel does: its own `<c s>` if the cell
//!   has an element, else its row's style when the row is custom-formatted,
//!   else its column's style. Bordered cells are grouped into separate
//!   regions (split wherever a whole row or column between them carries no
//!   border), and each region gets its own [`BorderMap`], so a far bordered
//!   cell does not make one map over the whole sheet.
//!
//! What cannot be read is never taken for blank: a value with an unknown
//! entity, a number that is no number, a shared string that does not exist
//! becomes [`Unread::Value`]; a formula without a cached result (or with a
//! cached 0) that is not a constant becomes [`Unread::Formula`], unless it
//! is a direct reference that [`super::formula`] reads from the workbook. References outside the sheet
//! (`r="ZZZZ1"`, row 0, past row 1,048,576) and malformed XML (including a
//! duplicated attribute) make the sheet unreadable, with a message naming
//! the file, the sheet and what is wrong.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};

use calamine::{CellErrorType, Data, Reader, Xlsx};
use quick_xml::events::{BytesStart, Event};

use super::detect::{BorderMap, Detected, Edges, Line};
use super::ReadError;
use crate::address::{CellRange, CellRef, MAX_COL, MAX_ROW};
use crate::grid::BoxShape;
use crate::opc;

/// Largest number of cells one border map may cover; a larger bordered
/// region is cut at the bottom (grids that far down it are not searched).
const MAX_MAP_CELLS: usize = 8 << 20;
/// Largest number of cells all border maps of one sheet may cover together;
/// regions past it (in reading order) are not searched.
const MAX_SHEET_MAP_CELLS: usize = 4 * MAX_MAP_CELLS;
/// How many columns a column style reaching to the sheet's end may add.
const COL_STYLE_CAP: u32 = 1024;

/// The magic number of an OLE compound file (old `.xls`, encrypted OOXML).
const CFB_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// A cell whose value could not be read. It is never blank: a grid holding
/// one is invalid, and nothing is written over it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Unread {
    /// A formula without a cached result that is not a constant: its text.
    Formula(String),
    /// A value that cannot be read, as the file holds it.
    Value(String),
}

/// The values of one worksheet: only the cells present (absolute
/// positions), looked up like calamine's `Range::get_value`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Values(HashMap<(u32, u32), Data>);

impl Values {
    /// The value at `(row, col)`, if the cell holds one.
    pub fn get_value(&self, (row, col): (u32, u32)) -> Option<&Data> {
        self.0.get(&(row, col))
    }

    /// Sets the value at `(row, col)`.
    pub(crate) fn set(&mut self, at: (u32, u32), value: Data) {
        self.0.insert(at, value);
    }

    /// Every cell present, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&(u32, u32), &Data)> {
        self.0.iter()
    }

    /// How many cells are present.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// One bordered region of a sheet: a [`BorderMap`] whose `A1` is `origin`.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    /// The sheet cell the map's first cell stands for.
    pub origin: CellRef,
    /// The borders of the region.
    pub map: BorderMap,
}

/// One worksheet as read from the file.
pub(crate) struct RawSheet {
    /// The sheet's name.
    pub name: String,
    /// Its worksheet part (as the workbook's relationship names it).
    pub part: String,
    /// The bordered regions, in reading order; no two overlap.
    pub borders: Vec<Region>,
    /// Cell values (absolute positions); an unreadable cell holds a
    /// placeholder text here, so that it never looks empty.
    pub values: Values,
    /// Cells whose value could not be read.
    pub unread: HashMap<(u32, u32), Unread>,
    /// Cells (row, col) whose own format is blue italic.
    pub blue_italic: HashSet<(u32, u32)>,
    /// Cells (row, col) that hold a formula (an `<f>` element).
    pub formulas: HashSet<(u32, u32)>,
    /// Merged ranges (`<mergeCell ref>`), as stored.
    pub merges: Vec<crate::address::CellRange>,
    /// Hidden rows (0-based).
    pub hidden_rows: HashSet<u32>,
    /// Hidden columns: `(first, last)`, 0-based.
    pub hidden_cols: Vec<(u32, u32)>,
    /// Cells holding an earlier xlsudoku run's fills, as its grid records
    /// say and as the cells still show them (set after reading, from the
    /// copy's records; empty for a workbook xlsudoku did not write).
    pub earlier: HashSet<(u32, u32)>,
}

impl RawSheet {
    /// Grid detection ([`super::detect::detect_all`]) over every bordered
    /// region, with ranges in sheet positions: the grids in reading order
    /// of their corners, and the squares turned down for their values.
    pub fn detect(
        &self,
        forced: Option<BoxShape>,
        mut judge: impl FnMut(CellRange, usize) -> Option<i64>,
        mut labelled: impl FnMut(CellRange, &[CellRange], usize) -> Option<i64>,
    ) -> super::detect::Detection {
        let mut grids = Vec::new();
        let mut turned_down = Vec::new();
        for region in &self.borders {
            let o = region.origin;
            let shift = |r: CellRange| {
                CellRange::new(r.start.offset(o.row, o.col), r.end.offset(o.row, o.col))
            };
            let found = super::detect::detect_all(
                &region.map,
                forced,
                |range, side| judge(shift(range), side),
                |inner, strips, side| {
                    let strips: Vec<CellRange> = strips.iter().map(|&s| shift(s)).collect();
                    labelled(shift(inner), &strips, side)
                },
            );
            grids.extend(found.grids.into_iter().map(|d| Detected {
                range: shift(d.range),
                shape: d.shape,
            }));
            turned_down.extend(found.turned_down.into_iter().map(shift));
        }
        grids.sort_by_key(|d| (d.range.start.row, d.range.start.col));
        super::detect::Detection { grids, turned_down }
    }
}

/// What one `cellXfs` entry says that matters here.
#[derive(Debug, Clone, Copy, Default)]
struct XfInfo {
    edges: Edges,
    blue_italic: bool,
}

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
/// `path`, which names it in errors), in workbook order (chartsheets,
/// dialog and macro sheets skipped).
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
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| ReadError::NotAWorkbook {
            path: p(),
            reason: format!("a damaged or truncated zip package ({e})"),
        })?;
    check_sizes(&mut zip, path)?;
    let parts = Package::read(&mut zip, path)?;

    // The style palette is workbook-wide: calamine resolves fonts, this
    // module resolves borders; both are indexed by cellXfs position.
    let palette = font_palette(&mut zip, &parts).map_err(|reason| ReadError::NotAWorkbook {
        path: p(),
        reason: format!("styles: {reason}"),
    })?;
    let xfs: Vec<XfInfo> = parts
        .xf_borders
        .iter()
        .enumerate()
        .map(|(i, &edges)| XfInfo {
            edges,
            blue_italic: palette.get(i).is_some_and(is_blue_italic),
        })
        .collect();
    let strings = match &parts.shared_strings {
        Some(part) => match read_part(&mut zip, part) {
            Some(xml) => parse_shared_strings(&xml).map_err(|e| ReadError::NotAWorkbook {
                path: p(),
                reason: format!("shared strings ({part}): {e}"),
            })?,
            None => Vec::new(),
        },
        None => Vec::new(),
    };

    let mut out = Vec::with_capacity(parts.sheets.len().min(1024));
    let (mut calculated, mut zero_cached) = (false, Vec::new());
    for (name, part) in &parts.sheets {
        let sheet_err = |reason: String| ReadError::Sheet {
            path: p(),
            sheet: name.clone(),
            reason,
        };
        let Some(part) = part else {
            return Err(sheet_err(
                "the workbook lists it but no sheet part belongs to it".into(),
            ));
        };
        let xml = read_part(&mut zip, part)
            .ok_or_else(|| sheet_err(format!("its part {part} is missing or unreadable")))?;
        let mut scan = scan_sheet(&xml, &strings).map_err(|e| sheet_err(format!("{part}: {e}")))?;
        calculated |= scan.calculated;
        zero_cached.push(std::mem::take(&mut scan.zero_cached));
        let (borders, blue_italic) = scan.styles.resolve(&xfs);
        out.push(RawSheet {
            name: name.clone(),
            part: part.clone(),
            borders,
            values: Values(scan.values),
            unread: scan.unread,
            blue_italic,
            formulas: scan.formulas.iter().copied().collect(),
            merges: scan.merges,
            hidden_rows: scan.hidden_rows,
            hidden_cols: scan.hidden_cols,
            earlier: HashSet::new(),
        });
    }
    if calculated {
        // A spreadsheet program calculated this workbook: a formula's
        // cached 0 is its value (a formula solver's 0 for an empty cell).
        for (sheet, zeros) in out.iter_mut().zip(&zero_cached) {
            for at in zeros {
                if matches!(sheet.unread.get(at), Some(Unread::Formula(_))) {
                    sheet.unread.remove(at);
                    sheet.values.set(*at, Data::Float(0.0));
                }
            }
        }
    }
    super::formula::resolve_references(&mut out);
    Ok(out)
}

/// The number a formula cell caches (`<v>` of a numeric cell), if any.
fn cached_number(c: &CellXml) -> Option<f64> {
    let kind = c.kind.as_deref().map(str::trim).unwrap_or("n");
    if kind != "n" {
        return None;
    }
    c.value
        .as_ref()
        .filter(|t| !t.unreadable)
        .and_then(|t| t.text.trim().parse::<f64>().ok())
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

/// The cell formats of the workbook as calamine resolves them (fonts with
/// their theme, indexed and tinted colours), by `cellXfs` position. Calamine
/// gets a package of its own holding only the style sheet and the theme, so
/// no other part of the input (shared strings, sheets) goes through it.
fn font_palette(zip: &mut Zip<'_>, parts: &Package) -> Result<Vec<calamine::Style>, String> {
    let Some(styles) = read_part_bytes(zip, &parts.styles) else {
        return Ok(Vec::new());
    };
    let theme = parts.theme.as_deref().and_then(|t| read_part_bytes(zip, t));
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let ns = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let mut files: Vec<(&str, Vec<u8>)> = vec![
        (
            "_rels/.rels",
            format!(r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{ns}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#).into_bytes(),
        ),
        (
            "xl/workbook.xml",
            format!(r#"<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{ns}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#).into_bytes(),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            format!(r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{ns}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{ns}/styles" Target="styles.xml"/></Relationships>"#).into_bytes(),
        ),
        (
            "xl/worksheets/sheet1.xml",
            br#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>"#.to_vec(),
        ),
        ("xl/styles.xml", styles),
    ];
    if let Some(theme) = theme {
        files.push(("xl/theme/theme1.xml", theme));
    }
    for (name, data) in files {
        w.start_file(name, opts).map_err(|e| e.to_string())?;
        w.write_all(&data).map_err(|e| e.to_string())?;
    }
    let trimmed = w.finish().map_err(|e| e.to_string())?.into_inner();
    let mut xlsx: Xlsx<_> = Xlsx::new(Cursor::new(trimmed)).map_err(|e| e.to_string())?;
    xlsx.worksheet_cells_reader("S")
        .map(|r| r.styles().to_vec())
        .map_err(|e| e.to_string())
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
    String::from_utf8(read_part_bytes(zip, name)?).ok()
}

/// Reads a part of the package; `None` if missing or unreadable.
fn read_part_bytes(zip: &mut Zip<'_>, name: &str) -> Option<Vec<u8>> {
    let file = zip.by_name(name).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_PART).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// The value of the attribute whose local name is `key`. Every attribute of
/// the element is checked, so a malformed or duplicated one is an error
/// wherever it stands (as it is for the patcher, which reads the same
/// elements strictly).
fn attr(e: &BytesStart<'_>, key: &str) -> Result<Option<String>, String> {
    let mut found = None;
    for a in e.attributes() {
        let a =
            a.map_err(|err| format!("malformed attribute in <{}>: {err}", e.name().as_ref()))?;
        if found.is_none() && a.key.local_name().as_ref() == key {
            let v = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map_err(|err| format!("attribute {key}: {err}"))?;
            found = Some(v.into_owned());
        }
    }
    Ok(found)
}

/// The values of the attributes whose local names are `keys`, in one pass
/// that checks every attribute (see [`attr`]).
fn attrs<const N: usize>(
    e: &BytesStart<'_>,
    keys: [&str; N],
) -> Result<[Option<String>; N], String> {
    let mut found: [Option<String>; N] = std::array::from_fn(|_| None);
    for a in e.attributes() {
        let a =
            a.map_err(|err| format!("malformed attribute in <{}>: {err}", e.name().as_ref()))?;
        let local = a.key.local_name();
        if let Some(i) = keys.iter().position(|k| *k == local.as_ref()) {
            if found[i].is_none() {
                let v = a
                    .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                    .map_err(|err| format!("attribute {}: {err}", keys[i]))?;
                found[i] = Some(v.into_owned());
            }
        }
    }
    Ok(found)
}

/// Checks every attribute of an element (see [`attr`]).
fn check_attrs(e: &BytesStart<'_>) -> Result<(), String> {
    attrs(e, []).map(|_| ())
}

/// An OOXML boolean attribute that is set (`1` or `true`).
fn is_true(v: Option<String>) -> bool {
    v.is_some_and(|v| matches!(v.trim(), "1" | "true"))
}

fn attr_u32(e: &BytesStart<'_>, key: &str) -> Result<Option<u32>, String> {
    Ok(attr(e, key)?.and_then(|v| v.trim().parse().ok()))
}

/// The package-level facts this module needs.
struct Package {
    /// Worksheets in workbook order: name and part (`None` when no part
    /// belongs to it).
    sheets: Vec<(String, Option<String>)>,
    /// The style sheet part.
    styles: String,
    /// The theme part, if the workbook names one.
    theme: Option<String>,
    /// The shared strings part, if the workbook names one.
    shared_strings: Option<String>,
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
        let rels = opc::parse_rels(&rels, &workbook_part)
            .map_err(|e| bad(format!("{}: {e}", opc::rels_part_of(&workbook_part))))?;
        let targets: HashMap<&str, (&str, &str)> = rels
            .iter()
            .map(|r| (r.id.as_str(), (r.kind.as_str(), r.target.as_str())))
            .collect();
        let entries =
            opc::parse_sheets(&workbook).map_err(|e| bad(format!("workbook part: {e}")))?;
        let mut sheets = Vec::new();
        for sheet in entries {
            match targets.get(sheet.rel_id.as_str()) {
                // Chartsheets, dialog and macro sheets hold no cells.
                Some((kind, _)) if !kind.ends_with("/worksheet") => {}
                Some((_, target)) if !target.is_empty() => {
                    sheets.push((sheet.name, Some(target.to_string())))
                }
                _ => sheets.push((sheet.name, None)),
            }
        }
        let find = |suffix: &str| {
            rels.iter()
                .find(|r| r.kind.ends_with(suffix) && !r.target.is_empty())
                .map(|r| r.target.clone())
        };
        let styles = find("/styles").unwrap_or_else(|| format!("{dir}/styles.xml"));
        let theme = find("/theme");
        let shared_strings = find("/sharedStrings").or_else(|| {
            let default = format!("{dir}/sharedStrings.xml");
            zip.index_for_name(&default).map(|_| default)
        });
        let xf_borders = match read_part(zip, &styles) {
            Some(xml) => parse_xf_borders(&xml).map_err(|e| bad(format!("styles: {e}")))?,
            None => Vec::new(),
        };
        Ok(Package {
            sheets,
            styles,
            theme,
            shared_strings,
            xf_borders,
        })
    }
}

/// Text that XML references (`&#51;`, `&amp;`) have been resolved into; an
/// unknown or invalid reference leaves it unreadable (kept as written).
#[derive(Debug, Default)]
struct XmlText {
    text: String,
    unreadable: bool,
}

impl XmlText {
    fn push_event(&mut self, event: &Event<'_>) {
        match event {
            Event::Text(t) => self.text.push_str(&t.xml10_content()),
            Event::CData(t) => self.text.push_str(&t.xml10_content()),
            Event::GeneralRef(r) => {
                let name = r.xml10_content();
                match r.resolve_char_ref() {
                    Ok(Some(c)) => self.text.push(c),
                    Ok(None) => match quick_xml::escape::resolve_predefined_entity(&name) {
                        Some(s) => self.text.push_str(s),
                        None => {
                            self.unreadable = true;
                            self.text.push_str(&format!("&{name};"));
                        }
                    },
                    Err(_) => {
                        self.unreadable = true;
                        self.text.push_str(&format!("&{name};"));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Text with OOXML's `_xHHHH_` escapes (`_x000D_` for a carriage return,
/// `_x005F_` for `_`) resolved, as Excel reads strings; a lone surrogate
/// becomes U+FFFD.
fn unescape_ooxml(text: String) -> String {
    if !text.contains("_x") {
        return text;
    }
    let unit = |s: &str, at: usize| -> Option<u32> {
        let esc = s.get(at..at + 7)?;
        let hex = esc.strip_prefix("_x")?.strip_suffix('_')?;
        (hex.len() == 4 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(hex, 16).ok())
            .flatten()
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match unit(&text, i) {
            Some(hi @ 0xD800..=0xDBFF) => match unit(&text, i + 7) {
                Some(lo @ 0xDC00..=0xDFFF) => {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    out.push(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
                    i += 14;
                }
                _ => {
                    out.push(char::REPLACEMENT_CHARACTER);
                    i += 7;
                }
            },
            Some(u) => {
                out.push(char::from_u32(u).unwrap_or(char::REPLACEMENT_CHARACTER));
                i += 7;
            }
            None => {
                let c = text[i..]
                    .chars()
                    .next()
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                out.push(c);
                i += c.len_utf8().max(1);
            }
        }
    }
    out
}

/// The shared strings, in order; `None` for one that cannot be read. The
/// declared `count`/`uniqueCount` are not used.
fn parse_shared_strings(xml: &str) -> Result<Vec<Option<String>>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out: Vec<Option<String>> = Vec::new();
    let mut current: Option<XmlText> = None;
    let (mut in_t, mut in_phonetic) = (false, false);
    loop {
        let event = reader.read_event().map_err(|e| e.to_string())?;
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                check_attrs(e)?;
                let empty = matches!(event, Event::Empty(_));
                match e.local_name().as_ref() {
                    "si" if empty => out.push(Some(String::new())),
                    "si" => current = Some(XmlText::default()),
                    "rPh" => in_phonetic = !empty,
                    "t" => in_t = !empty && current.is_some() && !in_phonetic,
                    _ => {}
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                "si" => {
                    if let Some(t) = current.take() {
                        out.push((!t.unreadable).then(|| unescape_ooxml(t.text)));
                    }
                }
                "rPh" => in_phonetic = false,
                "t" => in_t = false,
                _ => {}
            },
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) if in_t => {
                if let Some(t) = current.as_mut() {
                    t.push_event(&event);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
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
                            let line = attr(e, "style")?
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
                        xf_border_ids.push(attr_u32(e, "borderId")?.unwrap_or(0) as usize);
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
    rows: BTreeMap<u32, usize>,
    /// Every `<c>` element: (row, col, xf), 0-based.
    cells: Vec<(u32, u32, usize)>,
}

/// What one pass over a worksheet part gathers.
#[derive(Debug, Default)]
struct SheetScan {
    styles: SheetStyles,
    values: HashMap<(u32, u32), Data>,
    unread: HashMap<(u32, u32), Unread>,
    /// Every cell holding a formula (an `<f>` element), in file order.
    formulas: Vec<(u32, u32)>,
    /// Formula cells whose cached result is 0, taken for no value (what
    /// XlsxWriter writes): kept as 0 when the workbook shows it was
    /// calculated (see `calculated`).
    zero_cached: Vec<(u32, u32)>,
    /// Whether some formula caches a result other than 0: a spreadsheet
    /// program calculated the file, so its cached 0s are real.
    calculated: bool,
    /// Merged ranges (`<mergeCells>`, after the sheet data).
    merges: Vec<crate::address::CellRange>,
    /// Hidden rows, 0-based.
    hidden_rows: HashSet<u32>,
    /// Hidden columns `(first, last)`, 0-based.
    hidden_cols: Vec<(u32, u32)>,
}

/// One `<c>` element being read.
#[derive(Debug, Default)]
struct CellXml {
    row: u32,
    col: u32,
    kind: Option<String>,
    value: Option<XmlText>,
    formula: Option<XmlText>,
    inline: Option<XmlText>,
}

/// Where text inside a `<c>` goes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    None,
    Value,
    Formula,
    Inline,
}

/// The child of `<worksheet>` a sheet's reader is in: only elements at
/// their place in one of these are read (a `<row>` or `<col>` inside
/// `<controls>`, `<mc:AlternateContent>` or an `<extLst>` is no sheet row
/// or column).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Section {
    Cols,
    SheetData,
    MergeCells,
    Other,
}

/// A reference that no sheet can hold.
fn outside(what: &str) -> String {
    format!("cell reference '{what}' is outside the sheet (the last cell is XFD1048576)")
}

/// Reads the style ids and values of a worksheet part (`strings`: the
/// workbook's shared strings).
fn scan_sheet(xml: &str, strings: &[Option<String>]) -> Result<SheetScan, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = SheetScan::default();
    let (mut row, mut next_col) = (0u32, 0u32);
    let mut seen_row = false;
    let mut seen_cells: HashSet<(u32, u32)> = HashSet::new();
    let mut cell: Option<CellXml> = None;
    let mut target = Target::None;
    let (mut in_inline, mut in_phonetic) = (false, false);
    let mut after_data = false;
    let mut in_row = false;
    // Elements open around the current one (0 for `<worksheet>`), and which
    // child of `<worksheet>` they are in.
    let mut depth = 0usize;
    let mut section = Section::Other;
    loop {
        let event = reader.read_event().map_err(|e| format!("sheet XML: {e}"))?;
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let empty = matches!(event, Event::Empty(_));
                let d = depth;
                if !empty {
                    depth += 1;
                }
                let name = e.local_name();
                if d == 1 {
                    section = match name.as_ref() {
                        "cols" => Section::Cols,
                        "sheetData" => Section::SheetData,
                        "mergeCells" => Section::MergeCells,
                        _ => Section::Other,
                    };
                    if empty && name.as_ref() == "sheetData" {
                        after_data = true;
                    }
                }
                let data = section == Section::SheetData;
                // Inside the sheet data an attribute given twice is an
                // error, as the patcher that rewrites it would find.
                if !after_data && !matches!(name.as_ref(), "c" | "row") {
                    check_attrs(e)?;
                }
                match name.as_ref() {
                    "col" if d == 2 && section == Section::Cols => {
                        let min = attr_u32(e, "min")?.unwrap_or(1).clamp(1, MAX_COL + 1);
                        let max = attr_u32(e, "max")?.unwrap_or(min).clamp(min, MAX_COL + 1);
                        if let Some(xf) = attr_u32(e, "style")? {
                            out.styles.cols.push((min - 1, max - 1, xf as usize));
                        }
                        if is_true(attr(e, "hidden")?) {
                            out.hidden_cols.push((min - 1, max - 1));
                        }
                    }
                    "row" if d == 2 && data => {
                        in_row = !empty;
                        let [r, custom, style, hidden] =
                            attrs(e, ["r", "customFormat", "s", "hidden"])?;
                        row = match r {
                            Some(r) => match r.trim().parse::<u32>() {
                                Ok(n) if (1..=MAX_ROW + 1).contains(&n) => n - 1,
                                _ => {
                                    return Err(format!(
                                        "row number '{r}' is outside the sheet (rows 1 to 1048576)"
                                    ))
                                }
                            },
                            None if seen_row => row
                                .checked_add(1)
                                .filter(|&r| r <= MAX_ROW)
                                .ok_or_else(|| outside("a row after row 1048576"))?,
                            None => 0,
                        };
                        seen_row = true;
                        next_col = 0;
                        if is_true(hidden) {
                            out.hidden_rows.insert(row);
                        }
                        if is_true(custom) {
                            if let Some(xf) = style.and_then(|v| v.trim().parse().ok()) {
                                out.styles.rows.insert(row, xf);
                            }
                        }
                    }
                    "c" if d == 3 && data && in_row => {
                        let [r, style, kind] = attrs(e, ["r", "s", "t"])?;
                        let (r, c) = match r {
                            Some(a) => match a.parse::<CellRef>() {
                                // A cell filed under another row than its
                                // own: the patcher finds cells by the row
                                // they stand in, so it could not edit it.
                                Ok(at) if seen_row && at.row != row => {
                                    return Err(format!(
                                        "cell {} stands in row {} (the cells of a row must be in its <row>)",
                                        a.trim(),
                                        row + 1
                                    ))
                                }
                                Ok(at) => (at.row, at.col),
                                Err(_) => return Err(outside(&a)),
                            },
                            None if next_col > MAX_COL => {
                                return Err(outside(&format!(
                                    "the cell after {}",
                                    CellRef::new(row, MAX_COL)
                                )))
                            }
                            None => (row, next_col),
                        };
                        next_col = c + 1;
                        // A cell given twice: readers disagree on which
                        // one counts, and an edit would go into one only.
                        if !seen_cells.insert((r, c)) {
                            return Err(format!(
                                "cell {} appears twice in the sheet data",
                                CellRef::new(r, c)
                            ));
                        }
                        let xf = style.and_then(|v| v.trim().parse().ok()).unwrap_or(0);
                        out.styles.cells.push((r, c, xf));
                        if !empty {
                            cell = Some(CellXml {
                                row: r,
                                col: c,
                                kind,
                                ..CellXml::default()
                            });
                        }
                    }
                    "mergeCell" if d == 2 && section == Section::MergeCells => {
                        if let Some(range) = attr(e, "ref")?
                            .and_then(|r| r.trim().parse::<crate::address::CellRange>().ok())
                        {
                            out.merges.push(range);
                        }
                    }
                    name => {
                        if let Some(c) = cell.as_mut() {
                            match name {
                                "v" if d == 4 => {
                                    c.value = Some(XmlText::default());
                                    target = if empty { Target::None } else { Target::Value };
                                }
                                "f" if d == 4 => {
                                    c.formula = Some(XmlText::default());
                                    target = if empty { Target::None } else { Target::Formula };
                                }
                                "is" if d == 4 => {
                                    c.inline.get_or_insert_with(XmlText::default);
                                    in_inline = !empty;
                                }
                                "rPh" => in_phonetic = !empty,
                                "t" if in_inline && !in_phonetic && !empty => {
                                    target = Target::Inline
                                }
                                _ => {}
                            }
                        } else if in_row && d == 3 && name != "extLst" {
                            // Only cells stand in a row: the patcher that
                            // rewrites the row could not place an edit
                            // beside anything else.
                            return Err(format!(
                                "<{name}> stands in row {} where only cells may (a damaged sheet)",
                                row + 1
                            ));
                        }
                    }
                }
            }
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => {
                if let Some(c) = cell.as_mut() {
                    let slot = match target {
                        Target::None => None,
                        Target::Value => c.value.as_mut(),
                        Target::Formula => c.formula.as_mut(),
                        Target::Inline => c.inline.as_mut(),
                    };
                    if let Some(t) = slot {
                        t.push_event(&event);
                    }
                }
            }
            Event::End(e) => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    section = Section::Other;
                }
                match e.local_name().as_ref() {
                    "c" if depth == 3 => {
                        if let Some(c) = cell.take() {
                            let at = (c.row, c.col);
                            let cached = c.formula.is_some().then(|| cached_number(&c)).flatten();
                            if c.formula.is_some() {
                                out.formulas.push(at);
                                match cached {
                                    Some(0.0) => out.zero_cached.push(at),
                                    Some(_) => out.calculated = true,
                                    None => {}
                                }
                            }
                            match cell_value(c, strings) {
                                Ok(Some(v)) => {
                                    out.values.insert(at, v);
                                }
                                Ok(None) => {}
                                Err(unread) => {
                                    let shown = match &unread {
                                        Unread::Formula(f) => format!("={f}"),
                                        Unread::Value(v) => v.clone(),
                                    };
                                    out.values.insert(at, Data::String(shown));
                                    out.unread.insert(at, unread);
                                }
                            }
                        }
                        (target, in_inline, in_phonetic) = (Target::None, false, false);
                    }
                    "v" | "f" | "t" => target = Target::None,
                    "is" => in_inline = false,
                    "rPh" => in_phonetic = false,
                    // Merged ranges come after the data; read on for them.
                    "sheetData" if depth == 1 => after_data = true,
                    "row" if depth == 2 => in_row = false,
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// The value of one `<c>` element: `None` when it holds none, an
/// [`Unread`] when it holds one that cannot be read.
fn cell_value(c: CellXml, strings: &[Option<String>]) -> Result<Option<Data>, Unread> {
    let kind = c.kind.as_deref().map(str::trim).unwrap_or("n");
    let text_kind = matches!(kind, "s" | "str" | "inlineStr");
    let raw = |t: &XmlText| Unread::Value(t.text.clone());
    // The cached value, as the file holds it.
    let cached: Option<Data> = match kind {
        "inlineStr" => match c.inline.as_ref().or(c.value.as_ref()) {
            Some(t) if t.unreadable => return Err(raw(t)),
            Some(t) => Some(Data::String(unescape_ooxml(t.text.clone()))),
            None => None,
        },
        _ => match c.value.as_ref() {
            None => None,
            Some(t) if t.unreadable => return Err(raw(t)),
            Some(t) => {
                let v = t.text.trim_matches(|c: char| c.is_ascii_whitespace());
                match kind {
                    "str" => Some(Data::String(unescape_ooxml(t.text.clone()))),
                    // An empty `<v/>` holds nothing, whatever the type.
                    _ if v.is_empty() => None,
                    "s" => {
                        let i: usize = v.parse().map_err(|_| raw(t))?;
                        match strings.get(i) {
                            Some(Some(s)) => Some(Data::String(s.clone())),
                            Some(None) => {
                                return Err(Unread::Value(format!(
                                    "shared string {i}, which cannot be read"
                                )))
                            }
                            None => {
                                return Err(Unread::Value(format!(
                                    "shared string {i}, which the workbook does not have"
                                )))
                            }
                        }
                    }
                    "b" => match v {
                        "0" | "false" => Some(Data::Bool(false)),
                        "1" | "true" => Some(Data::Bool(true)),
                        _ => return Err(raw(t)),
                    },
                    "e" => Some(Data::Error(error_value(v).ok_or_else(|| raw(t))?)),
                    "d" => Some(Data::DateTimeIso(v.to_string())),
                    _ => match v.parse::<f64>() {
                        Ok(x) if x.is_finite() => Some(Data::Float(x)),
                        _ => return Err(raw(t)),
                    },
                }
            }
        },
    };
    let Some(formula) = c.formula else {
        return Ok(cached);
    };
    // A program that does not calculate writes formulas without a cached
    // result (openpyxl) or with 0 (XlsxWriter): constant ones are
    // evaluated, others cannot be read.
    let missing = match &cached {
        None => !(text_kind && c.value.is_some()),
        Some(Data::Float(x)) => *x == 0.0,
        _ => false,
    };
    if !missing {
        return Ok(cached);
    }
    if formula.unreadable {
        return Err(Unread::Formula(formula.text));
    }
    // Others (a cached 0 included) are read from the workbook when they are
    // a direct reference (`super::formula`), and else stay unread.
    match eval_constant(&formula.text) {
        Some(x) => Ok(Some(Data::Float(x))),
        None => Err(Unread::Formula(formula.text)),
    }
}

fn error_value(v: &str) -> Option<CellErrorType> {
    Some(match v {
        "#DIV/0!" => CellErrorType::Div0,
        "#N/A" => CellErrorType::NA,
        "#NAME?" => CellErrorType::Name,
        "#NULL!" => CellErrorType::Null,
        "#NUM!" => CellErrorType::Num,
        "#REF!" => CellErrorType::Ref,
        "#VALUE!" => CellErrorType::Value,
        "#GETTING_DATA" => CellErrorType::GettingData,
        _ => return None,
    })
}

/// The value of a formula made only of numbers, `+ - * /` and parentheses
/// (`5`, `2+3`, `=(1+2)*3`); `None` for anything else, or a result that is
/// not a finite number.
pub(crate) fn eval_constant(formula: &str) -> Option<f64> {
    let text = formula.trim();
    let text = text.strip_prefix('=').unwrap_or(text);
    let mut p = Expr {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let v = p.sum()?;
    p.blank();
    (p.i == p.s.len() && v.is_finite()).then_some(v)
}

/// A recursive-descent reader of constant arithmetic.
struct Expr<'a> {
    s: &'a [u8],
    i: usize,
    depth: u32,
}

impl Expr<'_> {
    fn blank(&mut self) {
        while self.s.get(self.i).is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.blank();
        self.s.get(self.i).copied()
    }

    fn sum(&mut self) -> Option<f64> {
        let mut v = self.product()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.i += 1;
            let w = self.product()?;
            v = if op == b'+' { v + w } else { v - w };
        }
        Some(v)
    }

    fn product(&mut self) -> Option<f64> {
        let mut v = self.unary()?;
        while let Some(op @ (b'*' | b'/')) = self.peek() {
            self.i += 1;
            let w = self.unary()?;
            if op == b'/' && w == 0.0 {
                return None; // #DIV/0!
            }
            v = if op == b'*' { v * w } else { v / w };
        }
        Some(v)
    }

    fn unary(&mut self) -> Option<f64> {
        self.depth += 1;
        if self.depth > 200 {
            return None;
        }
        let v = match self.peek()? {
            b'-' => {
                self.i += 1;
                self.unary().map(|v| -v)
            }
            b'+' => {
                self.i += 1;
                self.unary()
            }
            b'(' => {
                self.i += 1;
                let v = self.sum()?;
                (self.peek()? == b')').then(|| {
                    self.i += 1;
                    v
                })
            }
            _ => self.number(),
        };
        self.depth -= 1;
        v
    }

    fn number(&mut self) -> Option<f64> {
        let start = self.i;
        let digits = |s: &mut Self| {
            let from = s.i;
            while s.s.get(s.i).is_some_and(u8::is_ascii_digit) {
                s.i += 1;
            }
            s.i > from
        };
        let whole = digits(self);
        let mut frac = false;
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            frac = digits(self);
        }
        if !whole && !frac {
            return None;
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }
}

impl SheetStyles {
    /// The sheet's bordered regions and its blue-italic cells.
    fn resolve(mut self, xfs: &[XfInfo]) -> (Vec<Region>, HashSet<(u32, u32)>) {
        let info = |xf: usize| xfs.get(xf).copied().unwrap_or_default();
        let blue_italic = self
            .cells
            .iter()
            .filter(|&&(_, _, xf)| info(xf).blue_italic)
            .map(|&(r, c, _)| (r, c))
            .collect();
        // A cell given twice keeps its last element, as a map would.
        self.cells.sort_by_key(|&(r, c, _)| (r, c));

        // Everything that may carry a border, as rectangles: bordered cells,
        // custom rows with a bordered style (as far right as any cell) and
        // columns with a bordered style (as far down as any cell).
        let any_cell_row = self.cells.iter().map(|c| c.0).max();
        let any_cell_col = self.cells.iter().map(|c| c.1).max();
        let mut rects: Vec<Rect> = Vec::new();
        for &(r, c, xf) in &self.cells {
            if info(xf).edges.any() {
                rects.push(Rect::cell(r, c));
            }
        }
        for (&r, &xf) in &self.rows {
            if info(xf).edges.any() {
                rects.push(Rect {
                    r0: r,
                    r1: r,
                    c0: 0,
                    c1: any_cell_col.unwrap_or(0),
                });
            }
        }
        for &(lo, hi, xf) in &self.cols {
            if info(xf).edges.any() {
                rects.push(Rect {
                    r0: 0,
                    r1: any_cell_row.unwrap_or(0),
                    c0: lo,
                    c1: hi.min(lo.saturating_add(COL_STYLE_CAP)),
                });
            }
        }
        let mut regions = Vec::new();
        let mut budget = MAX_SHEET_MAP_CELLS;
        for area in split_regions(rects) {
            if budget == 0 {
                break;
            }
            let cols = area.c1 - area.c0 + 1;
            let cap = (MAX_MAP_CELLS.min(budget) / cols as usize).max(1) as u32;
            let rows = (area.r1 - area.r0 + 1).min(cap);
            budget = budget.saturating_sub(rows as usize * cols as usize);
            regions.push(self.region(area.r0, area.c0, rows, cols, &info));
        }
        (regions, blue_italic)
    }

    /// The border map of `rows` x `cols` cells from (`r0`, `c0`).
    fn region(
        &self,
        r0: u32,
        c0: u32,
        rows: u32,
        cols: u32,
        info: &impl Fn(usize) -> XfInfo,
    ) -> Region {
        let (r1, c1) = (r0 + rows - 1, c0 + cols - 1);
        let mut map = BorderMap::new(rows, cols);
        for &(lo, hi, xf) in &self.cols {
            let edges = info(xf).edges;
            if edges.any() && lo <= c1 && hi >= c0 {
                for c in lo.max(c0)..=hi.min(c1) {
                    for r in 0..rows {
                        map.set(r, c - c0, edges);
                    }
                }
            }
        }
        for (&r, &xf) in self.rows.range(r0..=r1) {
            let edges = info(xf).edges;
            for c in 0..cols {
                map.set(r - r0, c, edges);
            }
        }
        for r in r0..=r1 {
            let from = self
                .cells
                .partition_point(|&(cr, cc, _)| (cr, cc) < (r, c0));
            for &(_, c, xf) in self.cells[from..]
                .iter()
                .take_while(|&&(cr, cc, _)| cr == r && cc <= c1)
            {
                map.set(r - r0, c - c0, info(xf).edges);
            }
        }
        Region {
            origin: CellRef::new(r0, c0),
            map,
        }
    }
}

/// A rectangle of cells, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    r0: u32,
    r1: u32,
    c0: u32,
    c1: u32,
}

impl Rect {
    fn cell(r: u32, c: u32) -> Rect {
        Rect {
            r0: r,
            r1: r,
            c0: c,
            c1: c,
        }
    }
}

/// Splits rectangles into groups separated by at least one whole row or
/// column that none of them touches, recursively, and returns each group's
/// bounding box, in reading order. A grid's frame is bordered on every row
/// and every column it spans, so no grid straddles two groups, and the
/// boxes never overlap.
fn split_regions(rects: Vec<Rect>) -> Vec<Rect> {
    // Splitting sorts each group again; a crafted nesting could make that
    // quadratic, so past a budget the groups left are kept whole (still
    // disjoint, only larger).
    let mut budget: usize = 64 << 20;
    let mut done = Vec::new();
    let mut work = vec![rects];
    while let Some(mut group) = work.pop() {
        if group.is_empty() {
            continue;
        }
        if budget < group.len() {
            done.extend(bounding_box(&group));
            continue;
        }
        budget -= group.len();
        let parts = split_on(&mut group, |r| (r.r0, r.r1));
        if parts.len() > 1 {
            work.extend(parts);
            continue;
        }
        let mut group = parts.into_iter().next().unwrap_or_default();
        let parts = split_on(&mut group, |r| (r.c0, r.c1));
        if parts.len() > 1 {
            work.extend(parts);
            continue;
        }
        done.extend(parts.first().and_then(|g| bounding_box(g)));
    }
    done.sort_by_key(|r| (r.r0, r.c0));
    done
}

/// The smallest rectangle holding them all.
fn bounding_box(rects: &[Rect]) -> Option<Rect> {
    rects.iter().fold(None, |acc, r| {
        Some(match acc {
            None => *r,
            Some(a) => Rect {
                r0: a.r0.min(r.r0),
                r1: a.r1.max(r.r1),
                c0: a.c0.min(r.c0),
                c1: a.c1.max(r.c1),
            },
        })
    })
}

/// Groups rectangles whose spans on one axis (`span`) overlap or touch.
fn split_on(group: &mut [Rect], span: impl Fn(&Rect) -> (u32, u32)) -> Vec<Vec<Rect>> {
    group.sort_by_key(|r| span(r).0);
    let mut parts: Vec<Vec<Rect>> = Vec::new();
    let mut end: Option<u32> = None;
    for r in group.iter() {
        let (lo, hi) = span(r);
        match end {
            Some(e) if lo <= e.saturating_add(1) => {
                end = Some(e.max(hi));
                if let Some(last) = parts.last_mut() {
                    last.push(*r);
                }
            }
            _ => {
                end = Some(hi);
                parts.push(vec![*r]);
            }
        }
    }
    parts
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

    fn xfs() -> Vec<XfInfo> {
        parse_xf_borders(STYLES)
            .unwrap()
            .into_iter()
            .map(|edges| XfInfo {
                edges,
                blue_italic: false,
            })
            .collect()
    }

    fn sheet(cells: &str) -> String {
        format!("<worksheet><sheetData>{cells}</sheetData></worksheet>")
    }

    fn value(cell: &str, strings: &[Option<String>]) -> (Option<Data>, Option<Unread>) {
        let scan = scan_sheet(&sheet(&format!("<row r=\"1\">{cell}</row>")), strings).unwrap();
        (
            scan.values.get(&(0, 0)).cloned(),
            scan.unread.get(&(0, 0)).cloned(),
        )
    }

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
        let xml = r#"<worksheet><cols><col min="2" max="3" style="1"/></cols><sheetData>
<row r="5" s="2" customFormat="1"><c r="A5" s="0"><v>1</v></c></row>
<row r="6" s="2"><c r="D6" s="1"/><c s="2"/></row></sheetData></worksheet>"#;
        let styles = scan_sheet(xml, &[]).unwrap().styles;
        assert_eq!(styles.cols, vec![(1, 2, 1)]);
        assert_eq!(styles.rows.get(&4), Some(&2));
        assert!(!styles.rows.contains_key(&5), "row 6 is not customFormat");
        assert_eq!(styles.cells, vec![(4, 0, 0), (5, 3, 1), (5, 4, 2)]);
        let (regions, _) = styles.resolve(&xfs());
        assert_eq!(regions.len(), 1);
        assert_eq!(regions[0].origin, CellRef::new(0, 0));
        let map = &regions[0].map;
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
    fn formulas_merges_and_hidden_lines_are_listed() {
        let sheet = r#"<worksheet><cols><col min="2" max="3" hidden="1"/></cols><sheetData>
<row r="1"><c r="A1"><f>1+1</f><v>2</v></c>
<c r="B1" t="str"><f>IF(A1=2,"","x")</f><v></v></c><c r="C1"><v>3</v></c><c r="D1"/>
<c r="E1"><f t="shared" si="0"/></c></row><row r="4" hidden="true"/></sheetData>
<mergeCells count="1"><mergeCell ref="B2:C3"/></mergeCells><pageMargins left="1" left="2"/></worksheet>"#;
        let scan = scan_sheet(sheet, &[]).unwrap();
        assert_eq!(scan.formulas, vec![(0, 0), (0, 1), (0, 4)]);
        assert_eq!(scan.merges, vec!["B2:C3".parse().unwrap()]);
        assert!(scan.hidden_rows.contains(&3) && scan.hidden_rows.len() == 1);
        assert_eq!(scan.hidden_cols, vec![(1, 2)]);
    }

    /// A form control's anchor, as Excel writes it after the sheet data.
    const CONTROLS: &str = r#"<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x14"><controls><mc:AlternateContent><mc:Choice Requires="x14"><control shapeId="1025" r:id="rId3" name="Button 1"><controlPr defaultSize="0" print="0" autoFill="0" autoPict="0" macro="[0]!Solve"><anchor moveWithCells="1" sizeWithCells="1"><from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>12</xdr:row><xdr:rowOff>0</xdr:rowOff></from><to><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>14</xdr:row><xdr:rowOff>0</xdr:rowOff></to></anchor></controlPr></control></mc:Choice></mc:AlternateContent></controls></mc:Choice></mc:AlternateContent>"#;

    #[test]
    fn only_the_sheet_data_holds_rows_and_cells() {
        // Rows, columns, cells and merges inside controls, alternate
        // content and extension lists are none of the sheet's.
        let xml = format!(
            r#"<worksheet><sheetViews><sheetView><extLst><ext><row r="2"/></ext></extLst></sheetView></sheetViews><cols><col min="2" max="2" hidden="1"/></cols><sheetData><row r="1"><c r="A1"><v>1</v><extLst><ext><c r="B1"><v>2</v></c></ext></extLst></c><extLst><ext><x14:c r="C1"><v>3</v></x14:c></ext></extLst></row><row r="1048576"><c r="A1048576"><v>4</v></c></row></sheetData>{CONTROLS}<extLst><ext><x14:mergeCells><x14:mergeCell ref="A1:B2"/></x14:mergeCells><x14:cols><x14:col min="5" max="5" hidden="1"/></x14:cols></ext></extLst></worksheet>"#
        );
        let scan = scan_sheet(&xml, &[]).unwrap();
        let mut values: Vec<_> = scan.values.into_iter().collect();
        values.sort_by_key(|(at, _)| *at);
        assert_eq!(
            values,
            vec![
                ((0, 0), Data::Float(1.0)),
                ((1_048_575, 0), Data::Float(4.0))
            ]
        );
        assert!(scan.merges.is_empty(), "{:?}", scan.merges);
        assert_eq!(scan.hidden_cols, vec![(1, 1)]);
        assert!(scan.hidden_rows.is_empty());
        assert_eq!(scan.styles.cells, vec![(0, 0, 0), (1_048_575, 0, 0)]);
    }

    #[test]
    fn broken_xml_is_an_error_not_a_panic() {
        assert!(scan_sheet(
            "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" s=\"1\"></row>",
            &[]
        )
        .is_err());
        assert!(
            parse_xf_borders("<styleSheet><borders><border><left style=\"thin\"></border>")
                .is_err()
        );
        assert!(parse_shared_strings("<sst><si><t>a</si>").is_err());
    }

    #[test]
    fn far_cells_cost_what_they_hold_and_impossible_ones_are_refused() {
        let xml = sheet(
            r#"<row r="1"><c r="A1" s="1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576" s="1"><v>2</v></c></row>"#,
        );
        let scan = scan_sheet(&xml, &[]).unwrap();
        assert_eq!(scan.values.len(), 2);
        assert_eq!(
            scan.values.get(&(MAX_ROW, MAX_COL)),
            Some(&Data::Float(2.0))
        );
        let (regions, _) = scan.styles.resolve(&xfs());
        assert_eq!(
            regions.len(),
            2,
            "two bordered cells far apart: two small maps"
        );
        assert!(regions
            .iter()
            .all(|r| r.map.rows() == 1 && r.map.cols() == 1));
        assert_eq!(regions[1].origin, CellRef::new(MAX_ROW, MAX_COL));
        for bad in [
            r#"<row r="1"><c r="ZZZZZZZZZZ99999999999"><v>1</v></c></row>"#,
            r#"<row r="1"><c r="A0"><v>1</v></c></row>"#,
            r#"<row r="1"><c r="A1048577"><v>1</v></c></row>"#,
            r#"<row r="1048577"><c><v>1</v></c></row>"#,
            r#"<row r="0"><c><v>1</v></c></row>"#,
        ] {
            let err = scan_sheet(&sheet(bad), &[]).unwrap_err();
            assert!(err.contains("outside the sheet"), "{bad}: {err}");
        }
        let err = scan_sheet(
            &sheet(r#"<row r="1"><c r="ZZZZZZZZZZ99999999999"/></row>"#),
            &[],
        )
        .unwrap_err();
        assert!(err.contains("'ZZZZZZZZZZ99999999999'"), "{err}");
    }

    #[test]
    fn duplicated_attributes_are_malformed_xml() {
        for bad in [
            r#"<row r="1" r="1"><c r="A1"><v>1</v></c></row>"#,
            r#"<row r="1"><c r="A1" s="1" s="1"><v>1</v></c></row>"#,
            r#"<row r="1"><c r="A1"><v a="1" a="2">1</v></c></row>"#,
        ] {
            let err = scan_sheet(&sheet(bad), &[]).unwrap_err();
            assert!(err.contains("duplicated attribute"), "{bad}: {err}");
        }
    }

    #[test]
    fn values_are_unescaped_and_trimmed_as_xml_says() {
        let strings = vec![Some("a".to_string()); 7]
            .into_iter()
            .chain([Some("7 & 8".to_string()), None])
            .collect::<Vec<_>>();
        assert_eq!(
            value("<c r=\"A1\"><v>&#51;</v></c>", &[]).0,
            Some(Data::Float(3.0))
        );
        assert_eq!(
            value("<c r=\"A1\"><v>&#x34;</v></c>", &[]).0,
            Some(Data::Float(4.0))
        );
        assert_eq!(
            value("<c r=\"A1\"><v> 5\n</v></c>", &[]).0,
            Some(Data::Float(5.0))
        );
        assert_eq!(
            value("<c r=\"A1\" t=\"s\"><v> 7 </v></c>", &strings).0,
            Some(Data::String("7 &amp; 8".replace("&amp;", "&")))
        );
        assert_eq!(
            value("<c r=\"A1\" t=\"inlineStr\"><is><r><t>1</t></r><r><t>2</t></r><rPh><t>x</t></rPh></is></c>", &[]).0,
            Some(Data::String("12".into()))
        );
        assert_eq!(
            value("<c r=\"A1\" t=\"b\"><v>1</v></c>", &[]).0,
            Some(Data::Bool(true))
        );
        assert_eq!(
            value("<c r=\"A1\" t=\"e\"><v>#N/A</v></c>", &[]).0,
            Some(Data::Error(CellErrorType::NA))
        );
        assert_eq!(value("<c r=\"A1\" s=\"3\"/>", &[]), (None, None));
        assert_eq!(value("<c r=\"A1\" t=\"s\"><v/></c>", &[]), (None, None));
        assert_eq!(value("<c r=\"A1\" t=\"s\"><v> </v></c>", &[]), (None, None));
        // What cannot be read is never blank.
        for (cell, shown) in [
            ("<c r=\"A1\"><v>&bogus;</v></c>", "&bogus;"),
            ("<c r=\"A1\"><v>5x</v></c>", "5x"),
            ("<c r=\"A1\"><v>NaN</v></c>", "NaN"),
            (
                "<c r=\"A1\" t=\"s\"><v>99</v></c>",
                "shared string 99, which the workbook does not have",
            ),
            (
                "<c r=\"A1\" t=\"s\"><v>8</v></c>",
                "shared string 8, which cannot be read",
            ),
            ("<c r=\"A1\" t=\"s\"><v>x</v></c>", "x"),
            ("<c r=\"A1\" t=\"b\"><v>2</v></c>", "2"),
        ] {
            let (v, u) = value(cell, &strings);
            assert_eq!(u, Some(Unread::Value(shown.into())), "{cell}");
            assert_eq!(v, Some(Data::String(shown.into())), "{cell}");
        }
    }

    #[test]
    fn ooxml_escapes_are_resolved_in_strings() {
        assert_eq!(unescape_ooxml("5_x000D_".into()), "5\r");
        assert_eq!(unescape_ooxml("a_x005F_x0041_b".into()), "a_x0041_b");
        assert_eq!(unescape_ooxml("_xD83D__xDE00_".into()), "\u{1F600}");
        assert_eq!(unescape_ooxml("_xD83D_x".into()), "\u{FFFD}x");
        assert_eq!(unescape_ooxml("_x12_ é _xZZZZ_".into()), "_x12_ é _xZZZZ_");
        assert_eq!(
            value("<c r=\"A1\" t=\"str\"><f>A2</f><v>7_x000D_</v></c>", &[]).0,
            Some(Data::String("7\r".into()))
        );
    }

    #[test]
    fn shared_string_counts_are_hints_only() {
        let sst = r#"<sst uniqueCount="2147483648" count="99999999999"><si><t xml:space="preserve"> 7 </t></si><si><r><t>4</t></r><r><t>2</t></r><rPh><t>x</t></rPh></si><si/><si><t>&#x35;&amp;</t></si><si><t>&nope;</t></si></sst>"#;
        assert_eq!(
            parse_shared_strings(sst).unwrap(),
            vec![
                Some(" 7 ".to_string()),
                Some("42".to_string()),
                Some(String::new()),
                Some("5&".to_string()),
                None
            ]
        );
    }

    #[test]
    fn formulas_without_a_cached_value_are_evaluated_or_unread() {
        let f = |cell: &str| value(cell, &[]);
        // openpyxl: no cached value.
        assert_eq!(
            f("<c r=\"A1\"><f>5</f><v></v></c>").0,
            Some(Data::Float(5.0))
        );
        assert_eq!(f("<c r=\"A1\"><f>2+3</f></c>").0, Some(Data::Float(5.0)));
        // XlsxWriter: a cached 0.
        assert_eq!(
            f("<c r=\"A1\"><f>(1+2)*3</f><v>0</v></c>").0,
            Some(Data::Float(9.0))
        );
        // A real cached value wins.
        assert_eq!(
            f("<c r=\"A1\"><f>2+3</f><v>4</v></c>").0,
            Some(Data::Float(4.0))
        );
        // Not constant: a cached 0 is no value (a reference is read later,
        // from the workbook).
        assert_eq!(
            f("<c r=\"A1\"><f>A2</f><v>0</v></c>").1,
            Some(Unread::Formula("A2".into()))
        );
        assert_eq!(
            f("<c r=\"A1\"><f>A2+1</f><v/></c>").1,
            Some(Unread::Formula("A2+1".into()))
        );
        assert_eq!(
            f("<c r=\"A1\"><f t=\"shared\" si=\"0\"/></c>").1,
            Some(Unread::Formula(String::new()))
        );
        // A cached empty text (`=IF(..,"",..)`) is a value.
        assert_eq!(
            f("<c r=\"A1\" t=\"str\"><f>IF(A2,\"\",1)</f><v></v></c>"),
            (Some(Data::String(String::new())), None)
        );
    }

    #[test]
    fn constant_formulas() {
        assert_eq!(eval_constant("5"), Some(5.0));
        assert_eq!(eval_constant("=2+3"), Some(5.0));
        assert_eq!(eval_constant(" -(1+2) * -3 / 9 "), Some(1.0));
        assert_eq!(eval_constant("1.5e1-6"), Some(9.0));
        assert_eq!(eval_constant("+.5*2"), Some(1.0));
        for bad in [
            "", "A1", "1/0", "(1+2", "1+", "2^3", "SUM(1)", "1 2", "1e", "\"5\"",
        ] {
            assert_eq!(eval_constant(bad), None, "{bad}");
        }
        assert_eq!(eval_constant(&"(".repeat(10_000)), None);
    }

    #[test]
    fn mutated_sheets_and_strings_give_results_or_errors_never_panics() {
        let base = sheet(concat!(
            r#"<row r="1" s="2" customFormat="1"><c r="A1" s="1" t="s"><v> 1 </v></c>"#,
            r#"<c r="B1" t="inlineStr"><is><r><t>x&amp;</t></r><rPh><t>y</t></rPh></is></c>"#,
            r#"<c r="C1"><f>(1+2)*3</f><v>0</v></c><c r="D1" t="b"><v>1</v></c></row>"#,
            r#"<row r="3"><c r="XFD3" s="2"><v>&#51;</v></c><c t="e"><v>#N/A</v></c></row>"#,
        ));
        let sst = r#"<sst uniqueCount="9"><si><t>a</t></si><si><r><t>7</t></r></si></sst>"#;
        let strings = parse_shared_strings(sst).unwrap();
        let pieces = [
            "<",
            ">",
            "/",
            "\"",
            "&",
            "&#",
            ";",
            "r=\"",
            "ZZZZ99",
            "0",
            "4294967296",
            "<c>",
            "<v>",
            "</v>",
            "<f>",
            "<is>",
            "<row>",
            "</sheetData>",
            " ",
            "s=\"1\"",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n.max(1)
        };
        for _ in 0..3000 {
            let mut text = base.clone();
            for _ in 0..1 + next(3) {
                let at = next(text.len());
                let at = (0..=at)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                let end = (at + next(6)).min(text.len());
                let end = (end..=text.len())
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(text.len());
                text.replace_range(at..end, pieces[next(pieces.len())]);
            }
            if let Ok(scan) = scan_sheet(&text, &strings) {
                let _ = scan.styles.resolve(&xfs());
            }
            let _ = parse_shared_strings(&text.replace("worksheet", "sst"));
        }
    }

    #[test]
    fn regions_split_on_empty_rows_and_columns_only() {
        let r = Rect::cell;
        // Touching cells stay together; one empty row or column splits.
        let out = split_regions(vec![r(0, 0), r(1, 1), r(3, 0), r(0, 3)]);
        assert_eq!(
            out,
            vec![
                Rect {
                    r0: 0,
                    r1: 1,
                    c0: 0,
                    c1: 1
                },
                r(0, 3),
                r(3, 0),
            ]
        );
        // An L inside another's bounding box is split by nothing: one box.
        let out = split_regions(vec![
            r(0, 0),
            r(0, 1),
            r(0, 2),
            r(1, 0),
            r(2, 0),
            r(1, 2),
            r(2, 2),
            r(2, 1),
        ]);
        assert_eq!(out.len(), 1);
    }
}
