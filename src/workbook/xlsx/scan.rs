//! One pass over a worksheet part: the style ids of columns, rows and
//! cells, the cells' values, formulas, merged ranges and hidden rows and
//! columns.

use std::collections::HashSet;

use crate::workbook::reader::{CellMap, CellSet};

use calamine::Data;
use quick_xml::events::{BytesEnd, BytesStart, Event};

use super::parts::{attr, attr_u32, attrs, check_attrs, is_true, XmlText};
use super::styles::SheetStyles;
use super::values::{cached_number, cell_value};
use crate::address::{CellRef, MAX_COL, MAX_ROW};
use crate::workbook::reader::Unread;

/// What one pass over a worksheet part gathers.
#[derive(Debug, Default)]
pub(super) struct SheetScan {
    pub(super) styles: SheetStyles,
    pub(super) values: CellMap<Data>,
    pub(super) unread: CellMap<Unread>,
    /// Every cell holding a formula (an `<f>` element), in file order.
    pub(super) formulas: Vec<(u32, u32)>,
    /// Formula cells whose cached result is 0, taken for no value (what
    /// XlsxWriter writes): kept as 0 when the workbook shows it was
    /// calculated (see `calculated`).
    pub(super) zero_cached: Vec<(u32, u32)>,
    /// Whether some formula caches a result other than 0: a spreadsheet
    /// program calculated the file, so its cached 0s are real.
    pub(super) calculated: bool,
    /// Merged ranges (`<mergeCells>`, after the sheet data).
    pub(super) merges: Vec<crate::address::CellRange>,
    /// Hidden rows, 0-based.
    pub(super) hidden_rows: HashSet<u32>,
    /// Hidden columns `(first, last)`, 0-based.
    pub(super) hidden_cols: Vec<(u32, u32)>,
}

/// One `<c>` element being read.
#[derive(Debug, Default)]
pub(super) struct CellXml {
    pub(super) row: u32,
    pub(super) col: u32,
    pub(super) kind: Option<String>,
    pub(super) value: Option<XmlText>,
    pub(super) formula: Option<XmlText>,
    pub(super) inline: Option<XmlText>,
}

/// Where text inside a `<c>` goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Target {
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
pub(super) enum Section {
    Cols,
    SheetData,
    MergeCells,
    Other,
}

/// A reference that no sheet can hold.
pub(super) fn outside(what: &str) -> String {
    format!("cell reference '{what}' is outside the sheet (the last cell is XFD1048576)")
}

/// Reads the style ids and values of a worksheet part (`strings`: the
/// workbook's shared strings).
pub(super) fn scan_sheet(xml: &str, strings: &[Option<String>]) -> Result<SheetScan, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut scan = Scanner::new(strings);
    loop {
        let event = reader.read_event().map_err(|e| format!("sheet XML: {e}"))?;
        match &event {
            Event::Start(e) => scan.start(e, false)?,
            Event::Empty(e) => scan.start(e, true)?,
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => scan.text(&event),
            Event::End(e) => scan.end(e),
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(scan.out)
}

/// The state of one pass over a worksheet part.
struct Scanner<'s> {
    /// The workbook's shared strings.
    strings: &'s [Option<String>],
    /// What the pass has gathered so far.
    out: SheetScan,
    /// The current row (0-based).
    row: u32,
    /// The column a cell without `r` takes.
    next_col: u32,
    /// Whether a `<row>` was met.
    seen_row: bool,
    /// Every cell met, to refuse one given twice.
    seen_cells: CellSet,
    /// The `<c>` being read.
    cell: Option<CellXml>,
    /// Where text goes.
    target: Target,
    /// Inside an `<is>`, and inside a phonetic run (`<rPh>`) there.
    in_inline: bool,
    in_phonetic: bool,
    /// Past the sheet data (merged ranges follow it).
    after_data: bool,
    /// Inside a `<row>` of the sheet data.
    in_row: bool,
    /// Elements open around the current one (0 for `<worksheet>`).
    depth: usize,
    /// Which child of `<worksheet>` they are in.
    section: Section,
}

impl<'s> Scanner<'s> {
    fn new(strings: &'s [Option<String>]) -> Self {
        Scanner {
            strings,
            out: SheetScan::default(),
            row: 0,
            next_col: 0,
            seen_row: false,
            seen_cells: CellSet::default(),
            cell: None,
            target: Target::None,
            in_inline: false,
            in_phonetic: false,
            after_data: false,
            in_row: false,
            depth: 0,
            section: Section::Other,
        }
    }

    /// An opening (or empty) element.
    fn start(&mut self, e: &BytesStart<'_>, empty: bool) -> Result<(), String> {
        let d = self.depth;
        if !empty {
            self.depth += 1;
        }
        let name = e.local_name();
        if d == 1 {
            self.section = match name.as_ref() {
                "cols" => Section::Cols,
                "sheetData" => Section::SheetData,
                "mergeCells" => Section::MergeCells,
                _ => Section::Other,
            };
            if empty && name.as_ref() == "sheetData" {
                self.after_data = true;
            }
        }
        let data = self.section == Section::SheetData;
        // Inside the sheet data an attribute given twice is an
        // error, as the patcher that rewrites it would find.
        if !self.after_data && !matches!(name.as_ref(), "c" | "row") {
            check_attrs(e)?;
        }
        match name.as_ref() {
            "col" if d == 2 && self.section == Section::Cols => self.col(e),
            "row" if d == 2 && data => self.start_row(e, empty),
            "c" if d == 3 && data && self.in_row => self.start_cell(e, empty),
            "mergeCell" if d == 2 && self.section == Section::MergeCells => {
                if let Some(range) =
                    attr(e, "ref")?.and_then(|r| r.trim().parse::<crate::address::CellRange>().ok())
                {
                    self.out.merges.push(range);
                }
                Ok(())
            }
            name => self.child(name, d, empty),
        }
    }

    /// A `<col>`: its style and whether it is hidden.
    fn col(&mut self, e: &BytesStart<'_>) -> Result<(), String> {
        let min = attr_u32(e, "min")?.unwrap_or(1).clamp(1, MAX_COL + 1);
        let max = attr_u32(e, "max")?.unwrap_or(min).clamp(min, MAX_COL + 1);
        if let Some(xf) = attr_u32(e, "style")? {
            self.out.styles.cols.push((min - 1, max - 1, xf as usize));
        }
        if is_true(attr(e, "hidden")?) {
            self.out.hidden_cols.push((min - 1, max - 1));
        }
        Ok(())
    }

    /// A `<row>` of the sheet data: its number, style and whether it is
    /// hidden.
    fn start_row(&mut self, e: &BytesStart<'_>, empty: bool) -> Result<(), String> {
        self.in_row = !empty;
        let [r, custom, style, hidden] = attrs(e, ["r", "customFormat", "s", "hidden"])?;
        self.row = match r {
            Some(r) => match r.trim().parse::<u32>() {
                Ok(n) if (1..=MAX_ROW + 1).contains(&n) => n - 1,
                _ => {
                    return Err(format!(
                        "row number '{r}' is outside the sheet (rows 1 to 1048576)"
                    ))
                }
            },
            None if self.seen_row => self
                .row
                .checked_add(1)
                .filter(|&r| r <= MAX_ROW)
                .ok_or_else(|| outside("a row after row 1048576"))?,
            None => 0,
        };
        self.seen_row = true;
        self.next_col = 0;
        if is_true(hidden) {
            self.out.hidden_rows.insert(self.row);
        }
        if is_true(custom) {
            if let Some(xf) = style.and_then(|v| v.trim().parse().ok()) {
                self.out.styles.rows.insert(self.row, xf);
            }
        }
        Ok(())
    }

    /// A `<c>` in a row: its place and style; its value is read up to its
    /// end.
    fn start_cell(&mut self, e: &BytesStart<'_>, empty: bool) -> Result<(), String> {
        let row = self.row;
        let [r, style, kind] = attrs(e, ["r", "s", "t"])?;
        let (r, c) = match r {
            Some(a) => match a.parse::<CellRef>() {
                // A cell filed under another row than its
                // own: the patcher finds cells by the row
                // they stand in, so it could not edit it.
                Ok(at) if self.seen_row && at.row != row => {
                    return Err(format!(
                        "cell {} stands in row {} (the cells of a row must be in its <row>)",
                        a.trim(),
                        row + 1
                    ))
                }
                Ok(at) => (at.row, at.col),
                Err(_) => return Err(outside(&a)),
            },
            None if self.next_col > MAX_COL => {
                return Err(outside(&format!(
                    "the cell after {}",
                    CellRef::new(row, MAX_COL)
                )))
            }
            None => (row, self.next_col),
        };
        self.next_col = c + 1;
        // A cell given twice: readers disagree on which
        // one counts, and an edit would go into one only.
        if !self.seen_cells.insert((r, c)) {
            return Err(format!(
                "cell {} appears twice in the sheet data",
                CellRef::new(r, c)
            ));
        }
        let xf = style.and_then(|v| v.trim().parse().ok()).unwrap_or(0);
        self.out.styles.cells.push((r, c, xf));
        if !empty {
            self.cell = Some(CellXml {
                row: r,
                col: c,
                kind,
                ..CellXml::default()
            });
        }
        Ok(())
    }

    /// Any other element: inside a cell, where its text goes; in a row
    /// outside a cell, an error.
    fn child(&mut self, name: &str, d: usize, empty: bool) -> Result<(), String> {
        if let Some(c) = self.cell.as_mut() {
            match name {
                "v" if d == 4 => {
                    c.value = Some(XmlText::default());
                    self.target = if empty { Target::None } else { Target::Value };
                }
                "f" if d == 4 => {
                    c.formula = Some(XmlText::default());
                    self.target = if empty { Target::None } else { Target::Formula };
                }
                "is" if d == 4 => {
                    c.inline.get_or_insert_with(XmlText::default);
                    self.in_inline = !empty;
                }
                "rPh" => self.in_phonetic = !empty,
                "t" if self.in_inline && !self.in_phonetic && !empty => {
                    self.target = Target::Inline
                }
                _ => {}
            }
        } else if self.in_row && d == 3 && name != "extLst" {
            // Only cells stand in a row: the patcher that
            // rewrites the row could not place an edit
            // beside anything else.
            return Err(format!(
                "<{name}> stands in row {} where only cells may (a damaged sheet)",
                self.row + 1
            ));
        }
        Ok(())
    }

    /// Text, a character reference or a CDATA section.
    fn text(&mut self, event: &Event<'_>) {
        if let Some(c) = self.cell.as_mut() {
            let slot = match self.target {
                Target::None => None,
                Target::Value => c.value.as_mut(),
                Target::Formula => c.formula.as_mut(),
                Target::Inline => c.inline.as_mut(),
            };
            if let Some(t) = slot {
                t.push_event(event);
            }
        }
    }

    /// A closing element.
    fn end(&mut self, e: &BytesEnd<'_>) {
        self.depth = self.depth.saturating_sub(1);
        let depth = self.depth;
        if depth == 1 {
            self.section = Section::Other;
        }
        match e.local_name().as_ref() {
            "c" if depth == 3 => {
                if let Some(c) = self.cell.take() {
                    self.end_cell(c);
                }
                (self.target, self.in_inline, self.in_phonetic) = (Target::None, false, false);
            }
            "v" | "f" | "t" => self.target = Target::None,
            "is" => self.in_inline = false,
            "rPh" => self.in_phonetic = false,
            // Merged ranges come after the data; read on for them.
            "sheetData" if depth == 1 => self.after_data = true,
            "row" if depth == 2 => self.in_row = false,
            _ => {}
        }
    }

    /// The end of a `<c>`: its formula and value are kept.
    fn end_cell(&mut self, c: CellXml) {
        let out = &mut self.out;
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
        match cell_value(c, self.strings) {
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
}
