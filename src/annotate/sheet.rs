//! Streaming patcher for one worksheet part: copies the XML byte for byte
//! and changes only the cells that are edited (plus the `<dimension>` and,
//! in the rows it touches, missing `r` and too narrow `spans` attributes).
//!
//! It reads the part with quick-xml and copies spans of the source between
//! the places it changes, so the rest of the sheet (namespaces,
//! `mc:Ignorable`, `x14ac` attributes, `extLst`, formulas, ...) comes out
//! as it went in. Once the last edit is written, the rest of the part is
//! copied without being parsed.

use std::collections::{BTreeMap, HashMap, HashSet};

use quick_xml::events::{BytesEnd, BytesStart, Event};
use quick_xml::Reader;

use super::package::{pos, xml_err};
use super::sheet_place::{Item, Place};
use super::styles::StylePool;
use super::xml::{attr, escape_text, prefix_of, write_start_tag};
use super::{AnnotateError, CellValue};
use crate::address::{CellRange, CellRef};

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
fn rest_of_data<'a>(rest: &'a str, prefix: &str) -> &'a str {
    let close = format!("</{prefix}sheetData>");
    rest.rfind(&close).map_or(rest, |at| &rest[..at])
}

/// True when the `<row>` tags of `src` (found by a quick text scan) have
/// increasing row numbers (1-based), all after `last`. Anything unclear
/// counts as not ordered.
fn rows_in_order(src: &str, mut last: Option<u64>) -> bool {
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

/// One pass over the part (see [`patch_sheet`]); with `existing` unknown,
/// rows or cells out of order stop it.
fn patch_pass(
    part: &str,
    src: &str,
    plan: &SheetPlan,
    restore: &HashMap<CellRef, u32>,
    forced: &Forced,
    styles: &mut StylePool<'_>,
    existing: Option<&Existing>,
) -> Result<SheetPatch, Stop> {
    let mut pass = Pass {
        p: Patcher {
            part,
            src,
            out: String::with_capacity(src.len() + 4096),
            copied: 0,
            styles,
            prefix: String::new(),
            cols: Vec::new(),
            dropped_formulas: Vec::new(),
            restore,
            forced,
            bases: Vec::new(),
        },
        reader: Scanner::new(src),
        existing,
        rows: plan.clone(),
        depth: 0,
        dimension: None,
        in_sheet_data: false,
        in_cols: false,
        sheet_data_done: false,
        saw_cell: false,
        last_row: None,
        row: None,
    };
    pass.run()?;
    pass.finish(src, plan)
}

/// The state of one pass over a worksheet part ([`patch_pass`]).
struct Pass<'s, 'p, 'x> {
    p: Patcher<'s, 'p, 'x>,
    reader: Scanner<'s>,
    /// Where every row and cell is, when known.
    existing: Option<&'p Existing>,
    /// The edits not written yet, by row.
    rows: BTreeMap<u32, BTreeMap<u32, CellValue>>,
    /// Elements open around the current one.
    depth: usize,
    /// (position in `out`, tag, is empty, old ref) of `<dimension>`,
    /// written at the end when the extent of the new cells is known.
    dimension: Option<(usize, BytesStart<'static>, bool, String)>,
    in_sheet_data: bool,
    /// In `<cols>` (a `<col>` elsewhere, as in a form control's anchor, is
    /// no column).
    in_cols: bool,
    sheet_data_done: bool,
    saw_cell: bool,
    last_row: Option<u32>,
    /// The row being patched.
    row: Option<RowCtx>,
}

impl<'s> Pass<'s, '_, '_> {
    /// Reads the part up to where nothing is left to edit.
    fn run(&mut self) -> Result<(), Stop> {
        let part = self.p.part;
        let err = xml_err(part);
        loop {
            if (self.in_sheet_data || self.sheet_data_done)
                && self.row.is_none()
                && self.rows.is_empty()
            {
                break;
            }
            let start = self.reader.pos();
            let ev = self.reader.next().map_err(&err)?;
            let end = self.reader.pos();
            let (e, empty) = match ev {
                Event::Start(e) => (e, false),
                Event::Empty(e) => (e, true),
                Event::End(e) => {
                    self.end_tag(&e, start)?;
                    continue;
                }
                Event::Eof => break,
                _ => continue,
            };
            if self.start_tag(&e, empty, start, end)? {
                self.depth += 1;
            }
        }
        Ok(())
    }

    /// An end tag: a row's or the sheet data's end takes the edits left.
    fn end_tag(&mut self, e: &BytesEnd<'_>, start: usize) -> Result<(), Stop> {
        self.depth = self.depth.saturating_sub(1);
        let name = e.local_name();
        if self.depth == 1 {
            self.in_cols = false;
        }
        if self.depth == 2 && name.as_ref() == "row" {
            if let Some(mut ctx) = self.row.take() {
                self.p.copy_to(start);
                self.p.emit_rest_of_row(&mut ctx)?;
            }
        } else if self.depth == 1 && name.as_ref() == "sheetData" && self.in_sheet_data {
            self.p.copy_to(start);
            for (r, cells) in std::mem::take(&mut self.rows) {
                self.p.emit_new_row(r, cells)?;
            }
            self.in_sheet_data = false;
            self.sheet_data_done = true;
        }
        Ok(())
    }

    /// A start (or empty) tag; whether it opens an element still to be
    /// read through.
    fn start_tag(
        &mut self,
        e: &BytesStart<'s>,
        empty: bool,
        start: usize,
        end: usize,
    ) -> Result<bool, Stop> {
        let part = self.p.part;
        let err = xml_err(part);
        let name = e.local_name();
        let name = name.as_ref();
        match self.depth {
            1 if name == "dimension" && !self.in_sheet_data => {
                let old = attr(e, "ref").map_err(&err)?.unwrap_or_default();
                self.p.copy_to(start);
                self.dimension = Some((self.p.out.len(), e.clone().into_owned(), empty, old));
                self.p.copied = end;
            }
            1 if name == "cols" => self.in_cols = !empty,
            2 if self.in_cols && name == "col" => self.col(e)?,
            1 if name == "sheetData" => {
                self.p.prefix = prefix_of(e);
                if empty {
                    self.p.copy_to(start);
                    write_start_tag(&mut self.p.out, e, &[], &[], false).map_err(&err)?;
                    for (r, cells) in std::mem::take(&mut self.rows) {
                        self.p.emit_new_row(r, cells)?;
                    }
                    self.p
                        .out
                        .push_str(&format!("</{}sheetData>", self.p.prefix));
                    self.p.copied = end;
                    self.sheet_data_done = true;
                } else {
                    self.in_sheet_data = true;
                }
            }
            2 if self.in_sheet_data && name == "row" => self.start_row(e, empty, start, end)?,
            3 if self.in_sheet_data && name == "c" => {
                self.saw_cell = true;
                if self.row.is_some() {
                    let consumed = self.start_cell(e, empty, start, end)?;
                    return Ok(!empty && !consumed);
                }
            }
            3 if self.in_sheet_data => {
                // Something after the cells of a row (extLst): the new
                // cells go before it.
                if let Some(mut ctx) = self.row.take() {
                    self.p.copy_to(start);
                    self.p.emit_rest_of_row(&mut ctx)?;
                    self.row = Some(ctx);
                }
            }
            _ => {}
        }
        Ok(!empty)
    }

    /// A `<col>` of `<cols>`: its style.
    fn col(&mut self, e: &BytesStart<'_>) -> Result<(), Stop> {
        let part = self.p.part;
        let err = xml_err(part);
        let get = |k: &str| -> Result<Option<u32>, AnnotateError> {
            Ok(attr(e, k)
                .map_err(&err)?
                .and_then(|v| v.trim().parse().ok()))
        };
        if let (Some(min), Some(max)) = (get("min")?, get("max")?) {
            let style = get("style")?.unwrap_or(0);
            if min >= 1 && max >= min {
                self.p.cols.push(ColStyle {
                    first: min - 1,
                    last: max - 1,
                    style,
                });
            }
        }
        Ok(())
    }

    /// A `<row>` of the sheet data: new rows before it are written, and its
    /// edits (if any) are taken up.
    fn start_row(
        &mut self,
        e: &BytesStart<'_>,
        empty: bool,
        start: usize,
        end: usize,
    ) -> Result<(), Stop> {
        let part = self.p.part;
        let err = xml_err(part);
        self.p.prefix = prefix_of(e);
        let r_attr = attr(e, "r").map_err(&err)?;
        let this_row = match r_attr.as_deref().map(str::trim) {
            Some(v) => parse_row_number(v).ok_or_else(|| {
                self.p.malformed(&format!(
                    "row number '{v}' is not a number from 1 to 1048576"
                ))
            })?,
            None => self.last_row.map_or(0, |r| r.saturating_add(1)),
        };
        if self.existing.is_none() && self.last_row.is_some_and(|l| this_row <= l) {
            return Err(Stop::OutOfOrder);
        }
        self.last_row = Some(this_row);
        self.p.copy_to(start);
        // Rows before this one that the part has nowhere are new.
        let existing = self.existing;
        let before: Vec<u32> = self
            .rows
            .range(..this_row)
            .map(|(r, _)| *r)
            .filter(|r| !existing.is_some_and(|x| x.rows.contains(r)))
            .collect();
        for r in before {
            if let Some(cells) = self.rows.remove(&r) {
                self.p.emit_new_row(r, cells)?;
            }
        }
        let edits = self.rows.remove(&this_row);
        let row_num = (this_row + 1).to_string();
        let mut set: Vec<(&str, &str)> = Vec::new();
        if r_attr.is_none() {
            set.push(("r", &row_num));
        }
        let Some(cells) = edits else {
            if !set.is_empty() {
                write_start_tag(&mut self.p.out, e, &set, &[], empty).map_err(&err)?;
                self.p.copied = end;
            }
            if !empty {
                // Nothing changes in this row: go straight to its end tag
                // (copied later with the rest).
                let close = format!("</{}row>", self.p.prefix);
                if let Some(skipped) = self.reader.skip_to(end, &close) {
                    self.saw_cell |= skipped.contains('<');
                }
            }
            return Ok(());
        };
        let custom = attr(e, "customFormat")
            .map_err(&err)?
            .is_some_and(|v| v == "1" || v == "true");
        let style = if custom {
            attr(e, "s")
                .map_err(&err)?
                .and_then(|v| v.trim().parse().ok())
        } else {
            None
        };
        let spans = attr(e, "spans").map_err(&err)?;
        let widened = spans.as_deref().and_then(|s| widen_spans(s, &cells));
        if let Some(w) = &widened {
            set.push(("spans", w));
        }
        write_start_tag(&mut self.p.out, e, &set, &[], false).map_err(&err)?;
        self.p.copied = end;
        let mut ctx = RowCtx {
            row: this_row,
            style,
            cells,
            last_col: None,
        };
        if empty {
            self.p.emit_rest_of_row(&mut ctx)?;
            self.p.out.push_str(&format!("</{}row>", self.p.prefix));
        } else {
            self.row = Some(ctx);
        }
        Ok(())
    }

    /// A `<c>` of the row being patched: new cells before it are written,
    /// and its edit (if any) replaces it; whether its content was read
    /// through already.
    fn start_cell(
        &mut self,
        e: &BytesStart<'_>,
        empty: bool,
        start: usize,
        end: usize,
    ) -> Result<bool, Stop> {
        let part = self.p.part;
        let err = xml_err(part);
        let existing = self.existing;
        let Some(ctx) = self.row.as_mut() else {
            return Ok(false);
        };
        let r_attr = attr(e, "r").map_err(&err)?;
        let col = match r_attr.as_deref() {
            Some(v) => {
                v.parse::<CellRef>()
                    .map_err(|_| self.p.malformed(&format!("'{v}' is not a cell address")))?
                    .col
            }
            None => ctx.last_col.map_or(0, |c| c.saturating_add(1)),
        };
        if existing.is_none() && ctx.last_col.is_some_and(|l| col <= l) {
            return Err(Stop::OutOfOrder);
        }
        ctx.last_col = Some(col);
        self.p.copy_to(start);
        // Cells before this one that the row has nowhere are new.
        let this = ctx.row;
        let before: Vec<u32> = ctx
            .cells
            .range(..col)
            .map(|(c, _)| *c)
            .filter(|c| !existing.is_some_and(|x| x.cells.contains(&(this, *c))))
            .collect();
        for c in before {
            if let Some(v) = ctx.cells.remove(&c) {
                self.p.emit_new_cell(ctx.row, c, ctx.style, &v)?;
            }
        }
        let edit = ctx.cells.remove(&col);
        let at = CellRef::new(ctx.row, col);
        let mut consumed = false;
        match edit {
            Some(value) => {
                self.p.replace_cell(e, at, &value)?;
                self.p.copied = if empty {
                    end
                } else {
                    consumed = true;
                    let (after, had_formula) = skip_cell(&mut self.reader, part, at)?;
                    if had_formula {
                        self.p.dropped_formulas.push(at);
                    }
                    after
                };
            }
            None if r_attr.is_none() => {
                let r = at.to_string();
                write_start_tag(&mut self.p.out, e, &[("r", &r)], &[], empty).map_err(&err)?;
                self.p.copied = end;
            }
            None => {}
        }
        Ok(consumed)
    }

    /// After the last edit: checks what the pass could not see, copies the
    /// rest and writes the new `<dimension>`.
    fn finish(self, src: &str, plan: &SheetPlan) -> Result<SheetPatch, Stop> {
        let part = self.p.part;
        let err = xml_err(part);
        if !self.rows.is_empty() || self.row.is_some() {
            return Err(self.p.malformed("the worksheet has no <sheetData>").into());
        }
        if self.existing.is_none()
            && self.in_sheet_data
            && !rows_in_order(
                rest_of_data(&src[self.reader.pos()..], &self.p.prefix),
                self.last_row.map(|r| u64::from(r) + 1),
            )
        {
            // A row after the last edit is out of order: it may be one the
            // pass took for missing.
            return Err(Stop::OutOfOrder);
        }
        let mut p = self.p;
        p.copy_to(src.len());
        let dropped_formulas = std::mem::take(&mut p.dropped_formulas);
        let bases = std::mem::take(&mut p.bases);
        let mut out = p.out;
        if let Some((at, tag, empty, old)) = self.dimension {
            let old_range: Option<CellRange> = old.trim().parse().ok().or_else(|| {
                old.trim()
                    .parse::<CellRef>()
                    .ok()
                    .map(|c| CellRange::new(c, c))
            });
            // `A1` is what an empty sheet says; it is no cell to keep covering.
            let a1 = CellRange::new(CellRef::new(0, 0), CellRef::new(0, 0));
            let old_range = old_range.filter(|r| self.saw_cell || *r != a1);
            let new_ref = match grow(old_range, plan) {
                Some(r) if r.start == r.end => r.start.to_string(),
                Some(r) => r.to_string(),
                None => escape_text(&old),
            };
            let mut text = String::new();
            write_start_tag(&mut text, &tag, &[("ref", &new_ref)], &[], empty).map_err(&err)?;
            out.insert_str(at, &text);
        }
        Ok(SheetPatch {
            xml: out,
            dropped_formulas,
            bases,
        })
    }
}

/// The range `old` grown to hold every cell the plan writes a value into.
fn grow(old: Option<CellRange>, plan: &SheetPlan) -> Option<CellRange> {
    let mut acc = old;
    for (r, cells) in plan {
        for (c, v) in cells {
            if matches!(v, CellValue::Clear) {
                continue;
            }
            let at = CellRef::new(*r, *c);
            acc = Some(match acc {
                None => CellRange::new(at, at),
                Some(x) => CellRange::new(
                    CellRef::new(x.start.row.min(at.row), x.start.col.min(at.col)),
                    CellRef::new(x.end.row.max(at.row), x.end.col.max(at.col)),
                ),
            });
        }
    }
    acc
}

fn parse_row_number(v: &str) -> Option<u32> {
    let n: u32 = v.parse().ok()?;
    (1..=crate::address::MAX_ROW + 1)
        .contains(&n)
        .then(|| n - 1)
}

/// A row's `spans="2:4"` widened to cover the columns written into it, or
/// `None` when it already does (or cannot be read: it is only a hint).
fn widen_spans(spans: &str, cells: &BTreeMap<u32, CellValue>) -> Option<String> {
    let mut lo = u32::MAX;
    let mut hi = 0u32;
    for part in spans.split_whitespace() {
        let (a, b) = part.split_once(':')?;
        lo = lo.min(a.trim().parse().ok()?);
        hi = hi.max(b.trim().parse().ok()?);
    }
    if lo == u32::MAX {
        return None;
    }
    let (mut nlo, mut nhi) = (lo, hi);
    for (c, v) in cells {
        if !matches!(v, CellValue::Clear) {
            nlo = nlo.min(c + 1);
            nhi = nhi.max(c + 1);
        }
    }
    ((nlo, nhi) != (lo, hi)).then(|| format!("{nlo}:{nhi}"))
}

/// Skips the content of an edited `<c>` up to and including its `</c>`,
/// returning the offset after it and whether it held a formula. Refuses to
/// drop the master cell of a shared formula, which other cells depend on.
fn skip_cell(
    reader: &mut Scanner<'_>,
    part: &str,
    at: CellRef,
) -> Result<(usize, bool), AnnotateError> {
    let err = xml_err(part);
    let mut depth = 1usize;
    let mut had_formula = false;
    loop {
        let (e, is_start) = match reader.next().map_err(&err)? {
            Event::Start(e) => (e, true),
            Event::Empty(e) => (e, false),
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    return Ok((reader.pos(), had_formula));
                }
                continue;
            }
            Event::Eof => {
                return Err(AnnotateError::Malformed {
                    part: part.to_string(),
                    reason: format!("cell {at} is not closed"),
                })
            }
            _ => continue,
        };
        let child = depth == 1;
        if is_start {
            depth += 1;
        }
        if child && e.local_name().as_ref() == "f" {
            had_formula = true;
            let shared = attr(&e, "t").map_err(&err)?.as_deref() == Some("shared");
            if shared && attr(&e, "ref").map_err(&err)?.is_some() {
                return Err(AnnotateError::Unsupported {
                    part: part.to_string(),
                    reason: format!(
                        "cell {at} holds the master of a shared formula that other cells use"
                    ),
                });
            }
        }
    }
}

/// A quick-xml reader over the part that can jump ahead over content that
/// needs no parsing.
struct Scanner<'s> {
    src: &'s str,
    /// Offset of the reader's input in `src`.
    base: usize,
    reader: Reader<&'s [u8]>,
}

impl<'s> Scanner<'s> {
    fn new(src: &'s str) -> Self {
        // quick-xml skips a byte order mark without counting it.
        let base = if src.starts_with('\u{FEFF}') { 3 } else { 0 };
        Scanner {
            src,
            base,
            reader: Reader::from_str(&src[base..]),
        }
    }

    /// The offset in `src` after the last event.
    fn pos(&self) -> usize {
        self.base + pos(&self.reader)
    }

    fn next(&mut self) -> Result<Event<'s>, quick_xml::Error> {
        self.reader.read_event()
    }

    /// Moves from `from` (the current position, inside an element) to the
    /// next `close` tag, which is read next, and returns the text skipped.
    /// Does not move (and returns `None`) when `close` is missing or the
    /// text holds comments, CDATA or processing instructions, in which a
    /// `close` might not be a tag.
    fn skip_to(&mut self, from: usize, close: &str) -> Option<&'s str> {
        let rest = self.src.get(from..)?;
        let len = rest.find(close)?;
        let skipped = &rest[..len];
        if skipped.contains("<!") || skipped.contains("<?") {
            return None;
        }
        let to = from + len;
        self.base = to;
        self.reader = Reader::from_str(&self.src[to..]);
        // The new reader has not seen the start tags it will close.
        let config = self.reader.config_mut();
        config.check_end_names = false;
        config.allow_unmatched_ends = true;
        Some(skipped)
    }
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
    /// attributes are kept.
    fn write_cell(
        &mut self,
        at: CellRef,
        style: u32,
        v: &CellValue,
        old: Option<&BytesStart<'_>>,
    ) -> Result<(), AnnotateError> {
        let r = at.to_string();
        let p = self.prefix.clone();
        let restored = match v {
            CellValue::Clear => self.restore.get(&at).copied(),
            _ => {
                self.bases.push((at, style));
                None
            }
        };
        let (style, blue) = self.forced.get(&at).copied().unwrap_or((style, true));
        let (s, t, body) = match v {
            CellValue::Clear => (restored.unwrap_or(style), None, None),
            CellValue::Number(n) => {
                let text = format_number(*n).ok_or_else(|| AnnotateError::InvalidValue {
                    cell: at,
                    reason: format!("{n} is not a finite number"),
                })?;
                (
                    if blue {
                        self.styles.blue(style)?
                    } else {
                        style
                    },
                    None,
                    Some(format!("<{p}v>{text}</{p}v>")),
                )
            }
            CellValue::Text(text) => {
                let escaped = escape_text(text);
                let space = if text.trim() != text {
                    " xml:space=\"preserve\""
                } else {
                    ""
                };
                (
                    if blue {
                        self.styles.blue(style)?
                    } else {
                        style
                    },
                    Some("inlineStr"),
                    Some(format!("<{p}is><{p}t{space}>{escaped}</{p}t></{p}is>")),
                )
            }
        };
        let s = s.to_string();
        let mut set: Vec<(&str, &str)> = vec![("r", &r)];
        let keep_s = old.is_some() && matches!(v, CellValue::Clear);
        if s != "0" || !keep_s || restored.is_some() {
            set.push(("s", &s));
        }
        if let Some(t) = t {
            set.push(("t", t));
        }
        let empty = body.is_none();
        match old {
            Some(e) => {
                write_start_tag(&mut self.out, e, &set, VALUE_ATTRS, empty)
                    .map_err(xml_err(self.part))?;
            }
            None => {
                if matches!(v, CellValue::Clear) {
                    // Nothing to clear.
                    return Ok(());
                }
                self.out.push('<');
                self.out.push_str(&p);
                self.out.push('c');
                for (k, val) in &set {
                    self.out.push_str(&format!(" {k}=\"{val}\""));
                }
                self.out.push_str(if empty { "/>" } else { ">" });
            }
        }
        if let Some(body) = body {
            self.out.push_str(&body);
            self.out.push_str(&format!("</{p}c>"));
        }
        Ok(())
    }
}

/// A number as a cell value: integers without a decimal point, others in
/// Rust's shortest round-trip form; `None` for NaN and infinities.
pub(crate) fn format_number(n: f64) -> Option<String> {
    if !n.is_finite() {
        return None;
    }
    if n.fract() == 0.0 && n.abs() < 1e15 {
        // Exact: the value is an integer well inside i64.
        return Some(format!("{}", n as i64));
    }
    Some(format!("{n}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLES: &str = r#"<styleSheet><fonts count="1"><font><sz val="11"/></font></fonts><cellXfs count="3"><xf fontId="0"/><xf fontId="0" borderId="1" applyBorder="1"/><xf fontId="0" fillId="2"/></cellXfs></styleSheet>"#;

    fn head(dim: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"><dimension ref="{dim}"/>"#
        )
    }

    fn plan(cells: &[(&str, CellValue)]) -> SheetPlan {
        let mut p = SheetPlan::new();
        for (at, v) in cells {
            let at: CellRef = at.parse().unwrap();
            p.entry(at.row).or_default().insert(at.col, v.clone());
        }
        p
    }

    fn run(src: &str, cells: &[(&str, CellValue)]) -> (String, Option<String>) {
        let mut pool = StylePool::parse("styles", STYLES).unwrap();
        let out = patch_sheet(
            "sheet",
            src,
            &plan(cells),
            &HashMap::new(),
            &HashMap::new(),
            &mut pool,
        )
        .unwrap();
        (out.xml, pool.render().unwrap())
    }

    const TAIL: &str =
        r#"<pageMargins left="0.7"/><extLst><ext uri="{X}"><x14:foo/></ext></extLst></worksheet>"#;

    #[test]
    fn cells_go_into_an_empty_sheet_data() {
        let src = format!("{}<sheetData/>{TAIL}", head("A1"));
        let (out, styles) = run(
            &src,
            &[
                ("B2", CellValue::Number(7.0)),
                ("C2", CellValue::Number(1.5)),
            ],
        );
        assert_eq!(
            out,
            format!(
                r#"{}<sheetData><row r="2"><c r="B2" s="3"><v>7</v></c><c r="C2" s="3"><v>1.5</v></c></row></sheetData>{TAIL}"#,
                head("B2:C2")
            )
        );
        assert!(styles.unwrap().contains(r#"<cellXfs count="4">"#));
    }

    #[test]
    fn a_missing_row_is_inserted_in_row_order() {
        let src = format!(
            r#"{}<sheetData><row r="1" spans="1:1" x14ac:dyDescent="0.25"><c r="A1"><v>1</v></c></row><row r="5"><c r="A5" s="1"/></row></sheetData>{TAIL}"#,
            head("A1:A5")
        );
        let (out, _) = run(&src, &[("C3", CellValue::Number(4.0))]);
        assert_eq!(
            out,
            format!(
                r#"{}<sheetData><row r="1" spans="1:1" x14ac:dyDescent="0.25"><c r="A1"><v>1</v></c></row><row r="3"><c r="C3" s="3"><v>4</v></c></row><row r="5"><c r="A5" s="1"/></row></sheetData>{TAIL}"#,
                head("A1:C5")
            )
        );
    }

    #[test]
    fn a_missing_cell_goes_between_its_neighbours_and_widens_spans() {
        let src = format!(
            r#"{}<sheetData><row r="2" spans="2:4"><c r="B2" s="1" t="s"><v>0</v></c><c r="D2" s="1"/></row></sheetData>{TAIL}"#,
            head("B2:D2")
        );
        let (out, _) = run(
            &src,
            &[
                ("C2", CellValue::Number(9.0)),
                ("F2", CellValue::Number(2.0)),
            ],
        );
        assert_eq!(
            out,
            format!(
                r#"{}<sheetData><row r="2" spans="2:6"><c r="B2" s="1" t="s"><v>0</v></c><c r="C2" s="3"><v>9</v></c><c r="D2" s="1"/><c r="F2" s="3"><v>2</v></c></row></sheetData>{TAIL}"#,
                head("B2:F2")
            )
        );
    }

    #[test]
    fn an_existing_cell_is_replaced_in_place_keeping_its_border() {
        let src = format!(
            r#"{}<sheetData><row r="1"><c r="A1" s="1" t="s" cm="1"><f>A2</f><v>3</v></c><c r="B1" s="2"/><c r="C1"><v>1</v></c></row></sheetData>{TAIL}"#,
            head("A1:C1")
        );
        let (out, styles) = run(
            &src,
            &[
                ("A1", CellValue::Number(5.0)),
                ("B1", CellValue::Number(6.0)),
            ],
        );
        assert_eq!(
            out,
            format!(
                r#"{}<sheetData><row r="1"><c r="A1" s="3"><v>5</v></c><c r="B1" s="4"><v>6</v></c><c r="C1"><v>1</v></c></row></sheetData>{TAIL}"#,
                head("A1:C1")
            )
        );
        let styles = styles.unwrap();
        assert!(
            styles.contains(r#"<xf fontId="1" borderId="1" applyBorder="1" applyFont="1"/>"#),
            "{styles}"
        );
        assert!(
            styles.contains(r#"<xf fontId="1" fillId="2" applyFont="1"/>"#),
            "{styles}"
        );
    }

    #[test]
    fn clearing_keeps_the_style_and_drops_the_value() {
        let src = format!(
            r#"{}<sheetData><row r="1"><c r="A1" s="2" t="s"><v>3</v></c><c r="B1" t="inlineStr"><is><t>x</t></is></c></row></sheetData>{TAIL}"#,
            head("A1:B1")
        );
        let (out, styles) = run(
            &src,
            &[
                ("A1", CellValue::Clear),
                ("B1", CellValue::Clear),
                ("Z9", CellValue::Clear),
            ],
        );
        assert_eq!(
            out,
            format!(
                r#"{}<sheetData><row r="1"><c r="A1" s="2"/><c r="B1"/></row></sheetData>{TAIL}"#,
                head("A1:B1")
            )
        );
        assert_eq!(styles, None);
    }

    #[test]
    fn inline_text_is_escaped_and_spaces_preserved() {
        let src = format!("{}<sheetData></sheetData>{TAIL}", head("A1"));
        let (out, _) = run(&src, &[("A1", CellValue::Text(" a<b & \"c\"".into()))]);
        assert!(out.contains(
            r#"<row r="1"><c r="A1" s="3" t="inlineStr"><is><t xml:space="preserve"> a&lt;b &amp; &quot;c&quot;</t></is></c></row>"#
        ), "{out}");
    }

    #[test]
    fn new_cells_take_the_row_style_then_the_column_style() {
        let src = format!(
            r#"{}<cols><col min="2" max="4" width="9" style="2" customWidth="1"/></cols><sheetData><row r="1" s="1" customFormat="1"><c r="A1" s="1"/></row></sheetData>{TAIL}"#,
            head("A1")
        );
        let (out, _) = run(
            &src,
            &[
                ("C1", CellValue::Number(1.0)),
                ("C2", CellValue::Number(2.0)),
                ("F2", CellValue::Number(3.0)),
            ],
        );
        // Row 1's style 1 → blue 3; column C's style 2 → blue 4; F: 0 → 5.
        assert!(out.contains(r#"<c r="C1" s="3"><v>1</v></c>"#), "{out}");
        assert!(
            out.contains(
                r#"<row r="2"><c r="C2" s="4"><v>2</v></c><c r="F2" s="5"><v>3</v></c></row>"#
            ),
            "{out}"
        );
    }

    #[test]
    fn cells_and_rows_without_r_get_explicit_addresses_where_touched() {
        let src = format!(
            r#"{}<sheetData><row><c><v>1</v></c><c><v>2</v></c><c><v>3</v></c></row><row><c><v>4</v></c></row></sheetData>{TAIL}"#,
            head("A1:C2")
        );
        let (out, _) = run(&src, &[("B1", CellValue::Number(8.0))]);
        assert!(out.contains(
            r#"<sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1" s="3"><v>8</v></c><c r="C1"><v>3</v></c></row><row><c><v>4</v></c></row>"#
        ), "{out}");
    }

    #[test]
    fn prefixed_sheets_get_prefixed_new_elements() {
        let src = r#"<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>"#;
        let (out, _) = run(
            src,
            &[
                ("B1", CellValue::Number(2.0)),
                ("A3", CellValue::Text("n".into())),
            ],
        );
        assert!(out.contains(r#"<x:c r="B1" s="3"><x:v>2</x:v></x:c></x:row><x:row r="3"><x:c r="A3" s="3" t="inlineStr"><x:is><x:t>n</x:t></x:is></x:c></x:row></x:sheetData>"#), "{out}");
    }

    #[test]
    fn rows_columns_and_cells_outside_the_data_are_none_of_the_sheets() {
        // A row and a column style inside an extension list, and a form
        // control anchored by `<xdr:row>`/`<xdr:col>` after a last row.
        let controls = r#"<mc:AlternateContent><mc:Choice Requires="x14"><controls><mc:AlternateContent><mc:Choice Requires="x14"><control shapeId="1025" r:id="rId3" name="Button 1"><controlPr macro="[0]!Solve"><anchor moveWithCells="1"><from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>12</xdr:row><xdr:rowOff>0</xdr:rowOff></from><to><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>14</xdr:row><xdr:rowOff>0</xdr:rowOff></to></anchor></controlPr></control></mc:Choice></mc:AlternateContent></controls></mc:Choice></mc:AlternateContent>"#;
        let src = format!(
            r#"{}<sheetViews><sheetView><extLst><ext><row r="2" s="2" customFormat="1"/><col min="2" max="2" style="1"/></ext></extLst></sheetView></sheetViews><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="A1048576"><v>2</v></c></row></sheetData>{controls}{TAIL}"#,
            head("A1:A1048576")
        );
        let wanted: HashSet<CellRef> = ["B2"].iter().map(|a| a.parse().unwrap()).collect();
        assert_eq!(
            styles_of("sheet", &src, &wanted).unwrap()[&wanted.iter().next().copied().unwrap()],
            0
        );
        let (out, _) = run(&src, &[("B2", CellValue::Number(5.0))]);
        let want = src
            .replace(
                r#"</row><row r="1048576">"#,
                r#"</row><row r="2"><c r="B2" s="3"><v>5</v></c></row><row r="1048576">"#,
            )
            .replace("A1:A1048576", "A1:B1048576");
        assert_eq!(out, want);
        assert_eq!(scan_existing("sheet", &src).unwrap().rows.len(), 2);
    }

    #[test]
    fn styles_of_reads_own_row_and_column_styles() {
        let src = r#"<worksheet><cols><col min="3" max="3" style="7"/></cols><sheetData><row r="1"><c r="A1" s="4"/><c r="B1"/></row><row r="2" s="5" customFormat="1"/></sheetData></worksheet>"#;
        let wanted: HashSet<CellRef> = ["A1", "B1", "A2", "C1", "D1"]
            .iter()
            .map(|a| a.parse().unwrap())
            .collect();
        let got = styles_of("sheet", src, &wanted).unwrap();
        let at = |a: &str| got[&a.parse::<CellRef>().unwrap()];
        assert_eq!(
            (at("A1"), at("B1"), at("A2"), at("C1"), at("D1")),
            (4, 0, 5, 7, 0)
        );
    }

    #[test]
    fn a_forced_style_is_written_plain_or_as_its_blue_twin() {
        let src = format!("{}<sheetData/>{TAIL}", head("A1"));
        let mut pool = StylePool::parse("styles", STYLES).unwrap();
        let forced: Forced = [
            ("A1".parse().unwrap(), (1, false)),
            ("B1".parse().unwrap(), (1, true)),
        ]
        .into_iter()
        .collect();
        let cells = [
            ("A1", CellValue::Number(1.0)),
            ("B1", CellValue::Number(2.0)),
        ];
        let out = patch_sheet(
            "sheet",
            &src,
            &plan(&cells),
            &HashMap::new(),
            &forced,
            &mut pool,
        )
        .unwrap();
        assert!(
            out.xml.contains(r#"<c r="A1" s="1"><v>1</v></c>"#),
            "{}",
            out.xml
        );
        assert!(!out.xml.contains(r#"<c r="B1" s="1">"#), "{}", out.xml);
        assert!(out.xml.contains(r#"<c r="B1" s=""#), "{}", out.xml);
    }

    #[test]
    fn the_master_of_a_shared_formula_is_refused() {
        let src = r#"<worksheet><sheetData><row r="1"><c r="A1"><f t="shared" ref="A1:A3" si="0">B1</f><v>1</v></c></row></sheetData></worksheet>"#;
        let mut pool = StylePool::parse("styles", STYLES).unwrap();
        let err = patch_sheet(
            "sheet",
            src,
            &plan(&[("A1", CellValue::Number(1.0))]),
            &HashMap::new(),
            &HashMap::new(),
            &mut pool,
        )
        .unwrap_err();
        assert!(matches!(err, AnnotateError::Unsupported { .. }), "{err}");
    }

    #[test]
    fn patching_its_own_output_again_changes_nothing() {
        let src = format!(
            r#"{}<sheetData><row r="2" spans="2:4"><c r="B2" s="1"><v>5</v></c><c r="D2" s="1"/></row></sheetData>{TAIL}"#,
            head("B2:D2")
        );
        let cells = [
            ("C2", CellValue::Number(9.0)),
            ("D2", CellValue::Number(3.0)),
            ("B4", CellValue::Text("solved".into())),
        ];
        let mut pool = StylePool::parse("styles", STYLES).unwrap();
        let once = patch_sheet(
            "sheet",
            &src,
            &plan(&cells),
            &HashMap::new(),
            &HashMap::new(),
            &mut pool,
        )
        .unwrap()
        .xml;
        let styles = pool.render().unwrap().unwrap();
        let mut pool2 = StylePool::parse("styles", &styles).unwrap();
        let twice = patch_sheet(
            "sheet",
            &once,
            &plan(&cells),
            &HashMap::new(),
            &HashMap::new(),
            &mut pool2,
        )
        .unwrap()
        .xml;
        assert_eq!(once, twice);
        assert_eq!(pool2.render().unwrap(), None);
    }

    #[test]
    fn rows_and_cells_out_of_order_take_their_edits_in_place() {
        // Cells of row 2 right to left (rows in order): the pass restarts
        // knowing where each cell is.
        let src = format!(
            r#"{}<sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="D2" s="1"/><c r="B2" s="1"/></row></sheetData>{TAIL}"#,
            head("A1:D2")
        );
        let (out, _) = run(
            &src,
            &[
                ("B2", CellValue::Number(2.0)),
                ("C2", CellValue::Number(3.0)),
                ("D2", CellValue::Number(4.0)),
            ],
        );
        assert_eq!(out.matches("r=\"B2\"").count(), 1, "{out}");
        assert_eq!(out.matches("r=\"D2\"").count(), 1, "{out}");
        assert!(out.contains("r=\"C2\""), "{out}");
        // Rows out of order.
        let src = format!(
            r#"{}<sheetData><row r="5"><c r="A5"><v>5</v></c></row><row r="2"><c r="A2"><v>2</v></c></row></sheetData>{TAIL}"#,
            head("A2:A5")
        );
        let (out, _) = run(
            &src,
            &[
                ("B2", CellValue::Number(9.0)),
                ("B5", CellValue::Number(8.0)),
                ("B3", CellValue::Number(7.0)),
            ],
        );
        for r in ["2", "3", "5"] {
            assert_eq!(out.matches(&format!("<row r=\"{r}\"")).count(), 1, "{out}");
        }
        assert!(out.contains(r#"<c r="A2"><v>2</v></c><c r="B2""#), "{out}");
        assert!(out.contains(r#"<c r="A5"><v>5</v></c><c r="B5""#), "{out}");
    }

    #[test]
    fn row_order_is_told_from_the_row_tags() {
        assert!(rows_in_order(
            r#"<sheetData><row r="1"/><x:row r="3" spans="1:2"><c><t>row 2</t></c></x:row><row/></sheetData>"#,
            None
        ));
        assert!(!rows_in_order(r#"<row r="3"/><row r="2"/>"#, None));
        assert!(!rows_in_order(r#"<row r="3"/><row r="3"/>"#, None));
        assert!(!rows_in_order(r#"<row r = "3"/>"#, None));
        assert!(!rows_in_order(r#"<row r="x"/>"#, None));
        assert!(rows_in_order("<worksheet><sheetData/></worksheet>", None));
        assert!(rows_in_order(r#"</row><row r="4"/><row/>"#, Some(3)));
        assert!(!rows_in_order(r#"</row><row r="3"/>"#, Some(3)));
    }

    #[test]
    fn a_sheet_without_sheet_data_is_malformed() {
        let mut pool = StylePool::parse("styles", STYLES).unwrap();
        let err = patch_sheet(
            "sheet",
            "<worksheet/>",
            &plan(&[("A1", CellValue::Number(1.0))]),
            &HashMap::new(),
            &HashMap::new(),
            &mut pool,
        )
        .unwrap_err();
        assert!(matches!(err, AnnotateError::Malformed { .. }), "{err}");
    }

    #[test]
    fn rows_skipped_unparsed_still_come_out_whole_even_with_comments() {
        let src = format!(
            r#"{}<sheetData><row r="1"><c r="A1"><v>1</v></c><!-- </row> --><c r="B1"><v>2</v></c></row><row r="2"><c r="A2"><v>3</v></c></row><row r="4"><c r="A4"><v>4</v></c></row></sheetData>{TAIL}"#,
            head("A1:B4")
        );
        let (out, _) = run(
            &src,
            &[
                ("B2", CellValue::Number(5.0)),
                ("A3", CellValue::Number(6.0)),
            ],
        );
        assert_eq!(
            out,
            format!(
                r#"{}<sheetData><row r="1"><c r="A1"><v>1</v></c><!-- </row> --><c r="B1"><v>2</v></c></row><row r="2"><c r="A2"><v>3</v></c><c r="B2" s="3"><v>5</v></c></row><row r="3"><c r="A3" s="3"><v>6</v></c></row><row r="4"><c r="A4"><v>4</v></c></row></sheetData>{TAIL}"#,
                head("A1:B4")
            )
        );
    }

    #[test]
    fn a_byte_order_mark_is_kept_and_offsets_stay_right() {
        const BOM: char = '\u{FEFF}';
        let src = format!("{BOM}{}<sheetData/>{TAIL}", head("A1"));
        let (out, _) = run(&src, &[("A1", CellValue::Number(1.0))]);
        assert_eq!(
            out,
            format!(
                r#"{BOM}{}<sheetData><row r="1"><c r="A1" s="3"><v>1</v></c></row></sheetData>{TAIL}"#,
                head("A1")
            )
        );
    }

    #[test]
    fn truncated_or_mangled_sheets_give_errors_not_panics() {
        let src = format!(
            r#"{}<cols><col min="1" max="3" style="1"/></cols><sheetData><row r="1" spans="1:3"><c r="A1" s="1" t="s"><v>0</v></c><c r="C1"><f>A1</f><v>2</v></c></row><row><c><v>1</v></c></row><row r="5"/></sheetData>{TAIL}"#,
            head("A1:C5")
        );
        let cells = [
            ("A1", CellValue::Number(1.0)),
            ("B1", CellValue::Text("x".into())),
            ("C1", CellValue::Clear),
            ("B4", CellValue::Number(2.0)),
            ("A5", CellValue::Number(3.0)),
        ];
        for cut in 0..src.len() {
            let mut pool = StylePool::parse("styles", STYLES).unwrap();
            let _ = patch_sheet(
                "sheet",
                &src[..cut],
                &plan(&cells),
                &HashMap::new(),
                &HashMap::new(),
                &mut pool,
            );
            // Swap two bytes to break tags in other ways.
            let mut bytes = src.clone().into_bytes();
            bytes.swap(cut, (cut * 7 + 3) % src.len());
            if let Ok(mangled) = String::from_utf8(bytes) {
                let mut pool = StylePool::parse("styles", STYLES).unwrap();
                let _ = patch_sheet(
                    "sheet",
                    &mangled,
                    &plan(&cells),
                    &HashMap::new(),
                    &HashMap::new(),
                    &mut pool,
                );
            }
        }
        let mut pool = StylePool::parse("styles", STYLES).unwrap();
        assert!(patch_sheet(
            "sheet",
            &src,
            &plan(&cells),
            &HashMap::new(),
            &HashMap::new(),
            &mut pool
        )
        .is_ok());
    }

    #[test]
    fn numbers_are_written_as_excel_reads_them() {
        assert_eq!(format_number(7.0).as_deref(), Some("7"));
        assert_eq!(format_number(-0.25).as_deref(), Some("-0.25"));
        assert_eq!(format_number(f64::NAN), None);
    }
}
