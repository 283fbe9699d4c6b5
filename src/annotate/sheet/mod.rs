//! Streaming patcher for one worksheet part: copies the XML byte for byte
//! and changes only the cells that are edited (plus the `<dimension>` and,
//! in the rows it touches, missing `r` and too narrow `spans` attributes).
//!
//! It reads the part with quick-xml and copies spans of the source between
//! the places it changes, so the rest of the sheet (namespaces,
//! `mc:Ignorable`, `x14ac` attributes, `extLst`, formulas, ...) comes out
//! as it went in. Once the last edit is written, the rest of the part is
//! copied without being parsed.

mod pass;

use std::collections::{BTreeMap, HashMap, HashSet};

use quick_xml::events::{BytesStart, Event};

use super::part_edit::xml_err;
use super::sheet_place::{Item, Place};
use super::styles::StylePool;
use super::xml::{attr, escape_text, write_start_tag};
use super::{AnnotateError, CellValue};
use crate::address::CellRef;
use pass::{parse_row_number, patch_pass, Scanner};

/// The edits of one sheet: row → column → new value (0-based).
pub(crate) type SheetPlan = BTreeMap<u32, BTreeMap<u32, CellValue>>;

/// Attributes of an edited `<c>` that describe its old value.
const VALUE_ATTRS: &[&str] = &["t", "cm", "vm"];

/// A `<col min max style>` range (0-based columns).
#[derive(Debug, Clone, Copy)]
struct ColStyle {
    first: u32,
    last: u32,
    style: u32,
}

/// The row being patched.
struct RowCtx {
    row: u32,
    /// The row's style, when `customFormat` says it applies to its cells.
    style: Option<u32>,
    /// The row's edits not written yet, by column.
    cells: BTreeMap<u32, CellValue>,
    last_col: Option<u32>,
}

/// Which rows and cells the part has, wherever they stand: known when the
/// rows (or a row's cells) are out of order, so that an edit goes into its
/// existing element even when that comes later, never into a second one.
#[derive(Debug, Default)]
struct Existing {
    rows: HashSet<u32>,
    cells: HashSet<(u32, u32)>,
}

/// Why a pass over the part stopped: an error, or rows or cells out of
/// order found while [`Existing`] was not known (the pass is redone).
enum Stop {
    Error(AnnotateError),
    OutOfOrder,
}

impl From<AnnotateError> for Stop {
    fn from(e: AnnotateError) -> Self {
        Stop::Error(e)
    }
}

struct Patcher<'s, 'p, 'x> {
    part: &'p str,
    src: &'s str,
    out: String,
    copied: usize,
    styles: &'p mut StylePool<'x>,
    prefix: String,
    cols: Vec<ColStyle>,
    dropped_formulas: Vec<CellRef>,
    /// Cells whose [`CellValue::Clear`] gives back this style.
    restore: &'p HashMap<CellRef, u32>,
    /// Cells written with another style than their own.
    forced: &'p Forced,
    /// The style each cell written with a value had before.
    bases: Vec<(CellRef, u32)>,
}

/// A patched worksheet part.
#[derive(Debug)]
pub(crate) struct SheetPatch {
    /// The new XML.
    pub xml: String,
    /// The cells whose formula the patch replaced or cleared (their
    /// calculation chain entries must go).
    pub dropped_formulas: Vec<CellRef>,
    /// The style index each cell written with a value had before (its
    /// own, or the row's or column's it inherited).
    pub bases: Vec<(CellRef, u32)>,
}

/// Cells written with a given style instead of their own: cell → (the
/// style, whether the value is written in its blue italic twin).
pub(crate) type Forced = HashMap<CellRef, (u32, bool)>;

/// Applies `plan` to the worksheet XML `src`, adding the styles it needs to
/// `styles`. A cleared cell named in `restore` gets that style back; a
/// cell named in `forced` is written with that style.
pub(crate) fn patch_sheet(
    part: &str,
    src: &str,
    plan: &SheetPlan,
    restore: &HashMap<CellRef, u32>,
    forced: &Forced,
    styles: &mut StylePool<'_>,
) -> Result<SheetPatch, AnnotateError> {
    // Rows and cells in order (as every writer stores them) are patched in
    // one streaming pass; when they turn out not to be (in the pass, or in
    // the rows after the last edit, which the pass copies unread), the pass
    // is made again knowing where every row and cell is.
    match patch_pass(part, src, plan, restore, forced, styles, None) {
        Ok(patch) => return Ok(patch),
        Err(Stop::Error(e)) => return Err(e),
        Err(Stop::OutOfOrder) => {}
    }
    let existing = scan_existing(part, src)?;
    match patch_pass(part, src, plan, restore, forced, styles, Some(&existing)) {
        Ok(patch) => Ok(patch),
        Err(Stop::Error(e)) => Err(e),
        Err(Stop::OutOfOrder) => Err(AnnotateError::Malformed {
            part: part.to_string(),
            reason: "rows or cells out of order".to_string(),
        }),
    }
}

/// The part of `rest` (the sheet after some point in its data) before its
/// last `</sheetData>`: the rows a text scan may look at. A form control's
/// `<xdr:row>` after the data is no row. Without that tag, all of `rest`.
pub(super) fn rest_of_data<'a>(rest: &'a str, prefix: &str) -> &'a str {
    let close = format!("</{prefix}sheetData>");
    rest.rfind(&close).map_or(rest, |at| &rest[..at])
}

/// True when the `<row>` tags of `src` (found by a quick text scan) have
/// increasing row numbers (1-based), all after `last`. Anything unclear
/// counts as not ordered.
pub(super) fn rows_in_order(src: &str, mut last: Option<u64>) -> bool {
    for (i, _) in src.match_indices("row") {
        let before = &src[..i];
        let after = &src.as_bytes()[i + 3..];
        if !after
            .first()
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'>' || *b == b'/')
        {
            continue;
        }
        // `<row` or `<prefix:row`, not `</row` or text.
        let Some(lt) = before.rfind('<') else {
            continue;
        };
        let name = &before[lt + 1..];
        if !(name.is_empty()
            || (name.ends_with(':')
                && !name.contains(|c: char| c.is_whitespace() || c == '>' || c == '/')))
        {
            continue;
        }
        let Some(end) = src[i..].find('>') else {
            return false;
        };
        let tag = &src[i + 3..i + end];
        let mut number = None;
        for token in tag.split_whitespace() {
            if token == "r" || token.starts_with("r=") && token.len() < 4 {
                return false;
            }
            if let Some(v) = token.strip_prefix("r=") {
                match v.trim_matches(['"', '\'', '/']).parse::<u64>() {
                    Ok(n) => number = Some(n),
                    Err(_) => return false,
                }
            }
        }
        let n = number.unwrap_or_else(|| last.map_or(1, |l| l + 1));
        if last.is_some_and(|l| n <= l) {
            return false;
        }
        last = Some(n);
    }
    true
}

/// The style index of each of `wanted` as the part has it: the cell's own
/// `s`, or for a cell absent from the XML its row's (`customFormat`), else
/// its column's, else 0.
pub(crate) fn styles_of(
    part: &str,
    src: &str,
    wanted: &HashSet<CellRef>,
) -> Result<HashMap<CellRef, u32>, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Scanner::new(src);
    let mut own: HashMap<CellRef, u32> = HashMap::new();
    let mut rows: HashMap<u32, u32> = HashMap::new();
    let mut cols: Vec<ColStyle> = Vec::new();
    let (mut row, mut next_col, mut seen_row) = (0u32, 0u32, false);
    let number = |e: &BytesStart<'_>, k: &str| -> Result<Option<u32>, AnnotateError> {
        Ok(attr(e, k)
            .map_err(&err)?
            .and_then(|v| v.trim().parse().ok()))
    };
    let mut place = Place::default();
    loop {
        let (e, empty) = match reader.next().map_err(&err)? {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            // Every end tag goes through `place.end`.
            Event::End(e) if place.end(e.local_name().as_ref()) => break,
            Event::Eof => break,
            _ => continue,
        };
        match place.start(e.local_name().as_ref(), empty) {
            Item::Col => {
                if let (Some(min), Some(max)) = (number(&e, "min")?, number(&e, "max")?) {
                    if min >= 1 && max >= min {
                        cols.push(ColStyle {
                            first: min - 1,
                            last: max - 1,
                            style: number(&e, "style")?.unwrap_or(0),
                        });
                    }
                }
            }
            Item::Row => {
                row = match attr(&e, "r").map_err(&err)?.as_deref().map(str::trim) {
                    Some(v) => parse_row_number(v).unwrap_or(row),
                    None if seen_row => row.saturating_add(1),
                    None => 0,
                };
                seen_row = true;
                next_col = 0;
                let custom = attr(&e, "customFormat")
                    .map_err(&err)?
                    .is_some_and(|v| v == "1" || v == "true");
                if let (true, Some(s)) = (custom, number(&e, "s")?) {
                    rows.insert(row, s);
                }
            }
            Item::Cell => {
                let col = match attr(&e, "r").map_err(&err)? {
                    Some(v) => v.parse::<CellRef>().map_or(next_col, |c| c.col),
                    None => next_col,
                };
                next_col = col.saturating_add(1);
                let at = CellRef::new(row, col);
                if wanted.contains(&at) {
                    own.insert(at, number(&e, "s")?.unwrap_or(0));
                }
            }
            Item::Other => {}
        }
    }
    Ok(wanted
        .iter()
        .map(|&at| {
            let style = own.get(&at).copied().unwrap_or_else(|| {
                rows.get(&at.row).copied().unwrap_or_else(|| {
                    cols.iter()
                        .find(|c| (c.first..=c.last).contains(&at.col))
                        .map_or(0, |c| c.style)
                })
            });
            (at, style)
        })
        .collect())
}

/// Every row and cell of the part, wherever it stands.
fn scan_existing(part: &str, src: &str) -> Result<Existing, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Scanner::new(src);
    let mut out = Existing::default();
    let (mut row, mut next_col, mut seen_row) = (0u32, 0u32, false);
    let mut place = Place::default();
    loop {
        let (e, empty) = match reader.next().map_err(&err)? {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            // Every end tag goes through `place.end`.
            Event::End(e) if place.end(e.local_name().as_ref()) => break,
            Event::Eof => break,
            _ => continue,
        };
        match place.start(e.local_name().as_ref(), empty) {
            Item::Row => {
                let r = attr(&e, "r").map_err(&err)?;
                row = match r.as_deref().map(str::trim) {
                    Some(v) => parse_row_number(v).ok_or_else(|| AnnotateError::Malformed {
                        part: part.to_string(),
                        reason: format!("row number '{v}' is not a number from 1 to 1048576"),
                    })?,
                    None if seen_row => row.saturating_add(1),
                    None => 0,
                };
                seen_row = true;
                next_col = 0;
                out.rows.insert(row);
            }
            Item::Cell => {
                let col = match attr(&e, "r").map_err(&err)? {
                    Some(v) => {
                        v.parse::<CellRef>()
                            .map_err(|_| AnnotateError::Malformed {
                                part: part.to_string(),
                                reason: format!("'{v}' is not a cell address"),
                            })?
                            .col
                    }
                    None => next_col,
                };
                next_col = col.saturating_add(1);
                out.cells.insert((row, col));
            }
            Item::Col | Item::Other => {}
        }
    }
    Ok(out)
}

impl Patcher<'_, '_, '_> {
    fn malformed(&self, reason: &str) -> AnnotateError {
        AnnotateError::Malformed {
            part: self.part.to_string(),
            reason: reason.to_string(),
        }
    }

    fn copy_to(&mut self, at: usize) {
        if at > self.copied {
            self.out.push_str(&self.src[self.copied..at]);
            self.copied = at;
        }
    }

    /// The style of a cell absent from the XML: the row's when it has a
    /// custom format, else its column's, else the default.
    fn inherited_style(&self, row_style: Option<u32>, col: u32) -> u32 {
        row_style.unwrap_or_else(|| {
            self.cols
                .iter()
                .find(|c| (c.first..=c.last).contains(&col))
                .map_or(0, |c| c.style)
        })
    }

    fn emit_rest_of_row(&mut self, ctx: &mut RowCtx) -> Result<(), AnnotateError> {
        for (c, v) in std::mem::take(&mut ctx.cells) {
            let style = self.inherited_style(ctx.style, c);
            self.write_cell(CellRef::new(ctx.row, c), style, &v, None)?;
        }
        Ok(())
    }

    fn emit_new_cell(
        &mut self,
        row: u32,
        col: u32,
        row_style: Option<u32>,
        v: &CellValue,
    ) -> Result<(), AnnotateError> {
        let style = self.inherited_style(row_style, col);
        self.write_cell(CellRef::new(row, col), style, v, None)
    }

    fn emit_new_row(
        &mut self,
        row: u32,
        cells: BTreeMap<u32, CellValue>,
    ) -> Result<(), AnnotateError> {
        if cells.iter().all(|(_, v)| matches!(v, CellValue::Clear)) {
            return Ok(());
        }
        self.out
            .push_str(&format!("<{}row r=\"{}\">", self.prefix, row + 1));
        for (c, v) in cells {
            let style = self.inherited_style(None, c);
            self.write_cell(CellRef::new(row, c), style, &v, None)?;
        }
        self.out.push_str(&format!("</{}row>", self.prefix));
        Ok(())
    }

    /// Writes the replacement of an existing `<c>` (its tag is `e`).
    fn replace_cell(
        &mut self,
        e: &BytesStart<'_>,
        at: CellRef,
        v: &CellValue,
    ) -> Result<(), AnnotateError> {
        let style: u32 = attr(e, "s")
            .map_err(xml_err(self.part))?
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        self.write_cell(at, style, v, Some(e))
    }

    /// Writes one cell. `old` is the existing cell's tag, whose other
    /// attributes are kept. Written straight into the part (the cells of
    /// the grids are most of what a patch writes).
    fn write_cell(
        &mut self,
        at: CellRef,
        style: u32,
        v: &CellValue,
        old: Option<&BytesStart<'_>>,
    ) -> Result<(), AnnotateError> {
        use std::fmt::Write as _;
        let restored = match v {
            CellValue::Clear => self.restore.get(&at).copied(),
            _ => {
                self.bases.push((at, style));
                None
            }
        };
        let (style, blue) = self.forced.get(&at).copied().unwrap_or((style, true));
        let (s, t) = match v {
            CellValue::Clear => (restored.unwrap_or(style), None),
            // A cell absent from the XML: its inherited style, tinted.
            CellValue::Tint(argb) => (self.styles.tinted(style, argb)?, None),
            CellValue::Restyle(s) => (*s, None),
            CellValue::Number(n) if !n.is_finite() => {
                return Err(AnnotateError::InvalidValue {
                    cell: at,
                    reason: format!("{n} is not a finite number"),
                })
            }
            CellValue::Number(_) | CellValue::Text(_) => {
                let s = if blue {
                    self.styles.blue(style)?
                } else {
                    style
                };
                (s, matches!(v, CellValue::Text(_)).then_some("inlineStr"))
            }
        };
        if old.is_none() && matches!(v, CellValue::Clear) {
            // Nothing to clear.
            return Ok(());
        }
        let (mut r, mut s_text) = (CellText::default(), CellText::default());
        let _ = write!(r, "{at}");
        let _ = write!(s_text, "{s}");
        let mut set = [("r", r.as_str()); 3];
        let mut n = 1;
        let keep_s = old.is_some() && matches!(v, CellValue::Clear);
        if s != 0 || !keep_s || restored.is_some() {
            set[n] = ("s", s_text.as_str());
            n += 1;
        }
        if let Some(t) = t {
            set[n] = ("t", t);
            n += 1;
        }
        let empty = !matches!(v, CellValue::Number(_) | CellValue::Text(_));
        let (out, p) = (&mut self.out, self.prefix.as_str());
        match old {
            Some(e) => {
                write_start_tag(out, e, &set[..n], VALUE_ATTRS, empty)
                    .map_err(xml_err(self.part))?;
            }
            None => {
                out.push('<');
                out.push_str(p);
                out.push('c');
                for (k, val) in &set[..n] {
                    let _ = write!(out, " {k}=\"{val}\"");
                }
                out.push_str(if empty { "/>" } else { ">" });
            }
        }
        match v {
            CellValue::Number(n) => {
                let _ = write!(out, "<{p}v>");
                write_number(out, *n);
                let _ = write!(out, "</{p}v></{p}c>");
            }
            CellValue::Text(text) => {
                let space = if text.trim() != text {
                    " xml:space=\"preserve\""
                } else {
                    ""
                };
                let escaped = escape_text(text);
                let _ = write!(out, "<{p}is><{p}t{space}>{escaped}</{p}t></{p}is></{p}c>");
            }
            _ => {}
        }
        Ok(())
    }
}

/// A short text made on the stack: a cell's address or style index.
#[derive(Default)]
struct CellText {
    bytes: [u8; 24],
    len: usize,
}

impl CellText {
    fn as_str(&self) -> &str {
        // Only whole `&str`s are written in (`write_str`).
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl std::fmt::Write for CellText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let room = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        room.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Writes a finite number as a cell value (see [`format_number`]).
fn write_number(out: &mut String, n: f64) {
    use std::fmt::Write as _;
    let _ = if n.fract() == 0.0 && n.abs() < 1e15 {
        write!(out, "{}", n as i64)
    } else {
        write!(out, "{n}")
    };
}

/// A number as a cell value: integers without a decimal point, others in
/// Rust's shortest round-trip form; `None` for NaN and infinities.
pub(crate) fn format_number(n: f64) -> Option<String> {
    n.is_finite().then(|| {
        let mut text = String::new();
        write_number(&mut text, n);
        text
    })
}
#[cfg(test)]
mod tests;
