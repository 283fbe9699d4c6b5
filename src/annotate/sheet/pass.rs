//! One streaming pass over a worksheet part: the part copied as it is up
//! to each edit, the edited rows and cells rewritten, new ones put in
//! place, and `<dimension>` grown to cover them.

use std::collections::{BTreeMap, HashMap};

use quick_xml::events::{BytesEnd, BytesStart, Event};
use quick_xml::Reader;

use super::{
    rest_of_data, rows_in_order, ColStyle, Existing, Forced, Patcher, RowCtx, SheetPatch,
    SheetPlan, Stop,
};
use crate::address::{CellRange, CellRef};
use crate::annotate::part_edit::{pos, xml_err};
use crate::annotate::styles::StylePool;
use crate::annotate::xml::{attr, escape_text, prefix_of, write_start_tag};
use crate::annotate::{AnnotateError, CellValue};

/// One pass over the part (see [`patch_sheet`](super::patch_sheet)); with `existing` unknown,
/// rows or cells out of order stop it.
pub(super) fn patch_pass(
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
pub(super) struct Pass<'s, 'p, 'x> {
    pub(super) p: Patcher<'s, 'p, 'x>,
    pub(super) reader: Scanner<'s>,
    /// Where every row and cell is, when known.
    pub(super) existing: Option<&'p Existing>,
    /// The edits not written yet, by row.
    pub(super) rows: BTreeMap<u32, BTreeMap<u32, CellValue>>,
    /// Elements open around the current one.
    pub(super) depth: usize,
    /// (position in `out`, tag, is empty, old ref) of `<dimension>`,
    /// written at the end when the extent of the new cells is known.
    pub(super) dimension: Option<(usize, BytesStart<'static>, bool, String)>,
    pub(super) in_sheet_data: bool,
    /// In `<cols>` (a `<col>` elsewhere, as in a form control's anchor, is
    /// no column).
    pub(super) in_cols: bool,
    pub(super) sheet_data_done: bool,
    pub(super) saw_cell: bool,
    pub(super) last_row: Option<u32>,
    /// The row being patched.
    pub(super) row: Option<RowCtx>,
}

impl<'s> Pass<'s, '_, '_> {
    /// Reads the part up to where nothing is left to edit.
    pub(super) fn run(&mut self) -> Result<(), Stop> {
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
    pub(super) fn end_tag(&mut self, e: &BytesEnd<'_>, start: usize) -> Result<(), Stop> {
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
    pub(super) fn start_tag(
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
    pub(super) fn col(&mut self, e: &BytesStart<'_>) -> Result<(), Stop> {
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
    pub(super) fn start_row(
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
    pub(super) fn start_cell(
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
            Some(v @ (CellValue::Tint(_) | CellValue::Restyle(_))) => {
                // Only the style changes: the tag is rewritten, the content
                // copied as it is.
                let old: u32 = attr(e, "s")
                    .map_err(&err)?
                    .and_then(|s| s.trim().parse().ok())
                    .unwrap_or(0);
                self.p.bases.push((at, old));
                let s = match v {
                    CellValue::Tint(argb) => self.p.styles.tinted(old, &argb)?,
                    CellValue::Restyle(s) => s,
                    _ => old,
                }
                .to_string();
                let r = at.to_string();
                write_start_tag(&mut self.p.out, e, &[("r", &r), ("s", &s)], &[], empty)
                    .map_err(&err)?;
                self.p.copied = end;
            }
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
    pub(super) fn finish(self, src: &str, plan: &SheetPlan) -> Result<SheetPatch, Stop> {
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
pub(super) fn grow(old: Option<CellRange>, plan: &SheetPlan) -> Option<CellRange> {
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

pub(super) fn parse_row_number(v: &str) -> Option<u32> {
    let n: u32 = v.parse().ok()?;
    (1..=crate::address::MAX_ROW + 1)
        .contains(&n)
        .then(|| n - 1)
}

/// A row's `spans="2:4"` widened to cover the columns written into it, or
/// `None` when it already does (or cannot be read: it is only a hint).
pub(super) fn widen_spans(spans: &str, cells: &BTreeMap<u32, CellValue>) -> Option<String> {
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
pub(super) fn skip_cell(
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
pub(super) struct Scanner<'s> {
    pub(super) src: &'s str,
    /// Offset of the reader's input in `src`.
    pub(super) base: usize,
    pub(super) reader: Reader<&'s [u8]>,
}

impl<'s> Scanner<'s> {
    pub(super) fn new(src: &'s str) -> Self {
        // quick-xml skips a byte order mark without counting it.
        let base = if src.starts_with('\u{FEFF}') { 3 } else { 0 };
        Scanner {
            src,
            base,
            reader: Reader::from_str(&src[base..]),
        }
    }

    /// The offset in `src` after the last event.
    pub(super) fn pos(&self) -> usize {
        self.base + pos(&self.reader)
    }

    pub(super) fn next(&mut self) -> Result<Event<'s>, quick_xml::Error> {
        self.reader.read_event()
    }

    /// Moves from `from` (the current position, inside an element) to the
    /// next `close` tag, which is read next, and returns the text skipped.
    /// Does not move (and returns `None`) when `close` is missing or the
    /// text holds comments, CDATA or processing instructions, in which a
    /// `close` might not be a tag.
    pub(super) fn skip_to(&mut self, from: usize, close: &str) -> Option<&'s str> {
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
