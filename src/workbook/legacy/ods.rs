//! `.ods` (OpenDocument spreadsheet): `content.xml` and `styles.xml` read
//! into the neutral [`Book`]: cell values, formulas (translated from
//! OpenFormula to Excel's syntax), the cell styles (borders, fill, font,
//! alignment, simple number formats) with their parents, column and row
//! sizes and default cell styles, repeats, spans and covered cells.

use std::collections::HashMap;
use std::io::{Cursor, Read};

use quick_xml::events::{BytesStart, Event};

use super::model::{Book, Cell, Font, NumFormat, Sheet, Side, Style, Value, LAST_COL, LAST_ROW};
use super::odf_values::{border, date_serial, duration_days, points, rgb};
use super::{formula, Fault};

/// The largest part of the package read.
const MAX_PART: u64 = 512 << 20;

/// A named style as written: its family, parent, properties and data style.
#[derive(Debug, Default, Clone)]
struct RawStyle {
    parent: Option<String>,
    props: HashMap<String, String>,
    data_style: Option<String>,
}

/// Styles, data styles and what they resolve to.
#[derive(Default)]
struct Styles {
    /// Cell styles by name (`table-cell` family).
    cell: HashMap<String, RawStyle>,
    /// The default cell style's properties.
    default: HashMap<String, String>,
    /// Column, row and table styles by name: their properties.
    other: HashMap<String, HashMap<String, String>>,
    /// Data styles (number formats) by name: an Excel format code.
    data: HashMap<String, NumFormat>,
    /// Cell style name → index in the book's styles.
    resolved: HashMap<String, usize>,
    index: HashMap<Style, usize>,
}

fn read_part(
    zip: &mut zip::ZipArchive<Cursor<&[u8]>>,
    name: &str,
) -> Result<Option<String>, Fault> {
    let Ok(file) = zip.by_name(name) else {
        return Ok(None);
    };
    if file.size() > MAX_PART {
        return Err(Fault::damaged_owned(format!(
            "{name} is larger than {MAX_PART} bytes"
        )));
    }
    let mut text = String::new();
    file.take(MAX_PART)
        .read_to_string(&mut text)
        .map_err(|e| Fault::damaged_owned(format!("{name}: {e}")))?;
    Ok(Some(text))
}

/// Reads an `.ods` file's bytes into the model.
pub(crate) fn read(bytes: &[u8]) -> Result<Book, Fault> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Fault::damaged_owned(format!("a damaged or truncated zip package ({e})")))?;
    let mut book = Book::default();
    let names: Vec<String> = zip
        .file_names()
        .filter_map(|n| n.ok().map(|n| n.into_owned()))
        .collect();
    if names.iter().any(|n| {
        (n.starts_with("Basic/") && n.matches('/').count() >= 2) || n.starts_with("Scripts/")
    }) {
        book.lose("macros (Basic)", 1);
    }
    if names
        .iter()
        .any(|n| n == "encryption-data" || n.starts_with("META-INF/encryption"))
    {
        return Err(Fault::encrypted());
    }
    let mut styles = Styles::default();
    if let Some(xml) = read_part(&mut zip, "styles.xml")? {
        parse(&xml, &mut styles, &mut book, false)
            .map_err(|e| Fault::damaged_owned(format!("styles.xml: {}", e.reason)))?;
    }
    let xml = read_part(&mut zip, "content.xml")?
        .ok_or_else(|| Fault::damaged("no content.xml: not a spreadsheet document"))?;
    if xml.contains("manifest:encryption-data") {
        return Err(Fault::encrypted());
    }
    parse(&xml, &mut styles, &mut book, true)?;
    Ok(book)
}

/// The value of the attribute named `key` (qualified, e.g. `table:name`).
fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| AsRef::<str>::as_ref(&a.key) == key)
        .and_then(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()
                .map(|v| v.into_owned())
        })
}

/// A count attribute (`number-columns-repeated` and the like), at least 1.
fn count(e: &BytesStart<'_>, key: &str) -> u32 {
    attr(e, key)
        .and_then(|v| v.trim().parse::<u32>().ok())
        .unwrap_or(1)
        .max(1)
}

/// A cell being read: its attributes and its text so far.
#[derive(Default)]
struct CellXml {
    style: Option<String>,
    repeat: u32,
    span: (u32, u32),
    kind: Option<String>,
    value: Option<String>,
    formula: Option<String>,
    text: String,
    paragraphs: usize,
}

/// Where the parse is inside a table.
#[derive(Default)]
struct TableState {
    sheet: Sheet,
    row: u32,
    col: u32,
    col_defaults: Vec<Option<String>>,
    row_style: Option<String>,
    row_repeat: u32,
    row_default: Option<String>,
    row_cells: Vec<(u32, u32, Cell)>,
    row_has_content: bool,
    row_hidden: bool,
}

/// Reads styles (from either part) and, in content.xml, the tables.
fn parse(xml: &str, styles: &mut Styles, book: &mut Book, content: bool) -> Result<(), Fault> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut parser = Parser {
        xml,
        content,
        current_style: None,
        data_style: None,
        table: None,
        cell: None,
        skip: 0,
    };
    loop {
        let event = reader.read_event().map_err(|e| {
            let f = Fault::damaged_owned(format!("XML: {e}"));
            match &parser.table {
                Some(t) => f.in_sheet(&t.sheet.name),
                None => f,
            }
        })?;
        let (start, empty) = match &event {
            Event::Start(e) => (Some(e.clone()), false),
            Event::Empty(e) => (Some(e.clone()), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            let name = e.name();
            let name = AsRef::<str>::as_ref(&name).to_string();
            if parser.skip > 0 {
                parser.skip += usize::from(!empty);
                continue;
            }
            parser.start(
                &e,
                &name,
                empty,
                styles,
                book,
                reader.buffer_position() as usize,
            );
            continue;
        }
        match event {
            Event::End(e) => {
                let name = e.name();
                let name = name.as_ref();
                if parser.skip > 0 {
                    parser.skip -= 1;
                    continue;
                }
                parser.end(name, styles, book);
            }
            Event::Text(t) if parser.skip == 0 => {
                if let Some(c) = parser.cell.as_mut() {
                    c.text.push_str(&t.xml10_content());
                }
            }
            Event::CData(t) if parser.skip == 0 => {
                if let Some(c) = parser.cell.as_mut() {
                    c.text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) if parser.skip == 0 => {
                if let Some(c) = parser.cell.as_mut() {
                    let name = r.xml10_content();
                    if let Ok(Some(ch)) = r.resolve_char_ref() {
                        c.text.push(ch);
                    } else if let Some(s) = quick_xml::escape::resolve_predefined_entity(&name) {
                        c.text.push_str(s);
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(())
}

/// The state of one part's parse: the style being read, the table, row
/// and cell being read, and how deep inside text that is not a cell's.
struct Parser<'x> {
    xml: &'x str,
    content: bool,
    current_style: Option<(String, String, RawStyle)>,
    data_style: Option<(String, String, String)>,
    table: Option<TableState>,
    cell: Option<CellXml>,
    /// Depth inside an annotation or a drawing, whose text is not the cell's.
    skip: usize,
}

impl Parser<'_> {
    /// An element opens (`empty`: and closes) at byte `pos`.
    fn start(
        &mut self,
        e: &BytesStart<'_>,
        name: &str,
        empty: bool,
        styles: &mut Styles,
        book: &mut Book,
        pos: usize,
    ) {
        let e = e.clone();
        match name {
            "style:style"
            | "style:default-style"
            | "number:number-style"
            | "number:percentage-style"
            | "number:date-style"
            | "number:time-style"
            | "number:currency-style"
            | "number:number" => self.start_style(&e, name, empty, styles),
            n if n.ends_with("-properties") => self.start_style(&e, name, empty, styles),
            "table:table"
            | "table:table-column"
            | "table:table-row"
            | "table:table-cell"
            | "table:covered-table-cell" => self.start_table(&e, name, empty, styles, book),
            "text:p" | "text:s" | "text:tab" | "text:line-break" => self.start_text(&e, name),
            "office:annotation" => {
                book.lose("comments", 1);
                self.skip += usize::from(!empty);
            }
            "draw:frame" | "draw:custom-shape" | "draw:rect" | "draw:line" | "draw:ellipse"
            | "draw:control" | "draw:g" => {
                let inner = self.xml.get(pos..).unwrap_or("");
                let end = inner.find("</draw:frame>").unwrap_or(inner.len()).min(4096);
                let what = if name != "draw:frame" {
                    "drawings and form controls"
                } else if inner[..end].contains("<draw:object") {
                    "charts and embedded objects"
                } else if inner[..end].contains("<draw:image") {
                    "images"
                } else {
                    "drawings and form controls"
                };
                book.lose(what, 1);
                self.skip += usize::from(!empty);
            }
            _ => {}
        }
    }

    /// A style element opens: a cell or table style, its properties, a
    /// number format and its parts.
    fn start_style(&mut self, e: &BytesStart<'_>, name: &str, empty: bool, styles: &mut Styles) {
        match name {
            "style:style" | "style:default-style" => {
                let family = attr(e, "style:family").unwrap_or_default();
                let raw = RawStyle {
                    parent: attr(e, "style:parent-style-name"),
                    data_style: attr(e, "style:data-style-name"),
                    ..Default::default()
                };
                let key = if name == "style:default-style" {
                    String::new()
                } else {
                    attr(e, "style:name").unwrap_or_default()
                };
                let entry = (family, key, raw);
                if empty {
                    store_style(styles, entry);
                } else {
                    self.current_style = Some(entry);
                }
            }
            n if n.ends_with("-properties") => {
                if let Some((_, _, raw)) = self.current_style.as_mut() {
                    for a in e.attributes().flatten() {
                        let k = AsRef::<str>::as_ref(&a.key).to_string();
                        if let Ok(v) = a.normalized_value(quick_xml::XmlVersion::Implicit1_0) {
                            raw.props.insert(k, v.into_owned());
                        }
                    }
                }
            }
            "number:number-style"
            | "number:percentage-style"
            | "number:date-style"
            | "number:time-style"
            | "number:currency-style" => {
                let n = attr(e, "style:name").unwrap_or_default();
                if empty {
                    styles.data.insert(n, NumFormat::General);
                } else {
                    self.data_style = Some((n, name.to_string(), String::new()));
                }
            }
            "number:number" => {
                if let Some((_, _, code)) = self.data_style.as_mut() {
                    let places = attr(e, "number:decimal-places")
                        .and_then(|v| v.parse::<usize>().ok())
                        .unwrap_or(0)
                        .min(30);
                    let grouping = attr(e, "number:grouping").as_deref() == Some("true");
                    code.push_str(if grouping { "#,##0" } else { "0" });
                    if places > 0 {
                        code.push('.');
                        code.push_str(&"0".repeat(places));
                    }
                }
            }
            _ => {}
        }
    }

    /// A table element opens: a sheet, a column, a row or a cell.
    fn start_table(
        &mut self,
        e: &BytesStart<'_>,
        name: &str,
        empty: bool,
        styles: &mut Styles,
        book: &mut Book,
    ) {
        match name {
            "table:table" if self.content => {
                let hidden = attr(e, "table:style-name")
                    .and_then(|s| styles.other.get(&s))
                    .and_then(|p| p.get("table:display"))
                    .is_some_and(|d| d == "false");
                let sheet = Sheet {
                    name: attr(e, "table:name")
                        .unwrap_or_else(|| format!("Sheet{}", book.sheets.len() + 1)),
                    hidden,
                    ..Default::default()
                };
                self.table = Some(TableState {
                    sheet,
                    ..Default::default()
                });
            }
            "table:table-column" => {
                if let Some(t) = self.table.as_mut() {
                    column(t, e, styles, book);
                }
            }
            "table:table-row" => {
                if let Some(t) = self.table.as_mut() {
                    t.row_style = attr(e, "table:style-name");
                    t.row_hidden = attr(e, "table:visibility").is_some_and(|v| v != "visible");
                    t.row_repeat = count(e, "table:number-rows-repeated");
                    t.row_default = attr(e, "table:default-cell-style-name");
                    t.col = 0;
                    t.row_cells.clear();
                    t.row_has_content = false;
                    if empty {
                        end_row(t, styles, book);
                    }
                }
            }
            "table:table-cell" | "table:covered-table-cell" if self.table.is_some() => {
                let c = CellXml {
                    style: attr(e, "table:style-name"),
                    repeat: count(e, "table:number-columns-repeated"),
                    span: (
                        count(e, "table:number-rows-spanned"),
                        count(e, "table:number-columns-spanned"),
                    ),
                    kind: attr(e, "office:value-type"),
                    value: attr(e, "office:value")
                        .or_else(|| attr(e, "office:date-value"))
                        .or_else(|| attr(e, "office:time-value"))
                        .or_else(|| attr(e, "office:boolean-value"))
                        .or_else(|| attr(e, "office:string-value")),
                    formula: attr(e, "table:formula"),
                    ..Default::default()
                };
                if empty {
                    if let Some(t) = self.table.as_mut() {
                        end_cell(t, c, styles, book);
                    }
                } else {
                    self.cell = Some(c);
                }
            }
            _ => {}
        }
    }

    /// A cell's text element opens: a paragraph, spaces, a tab, a line break.
    fn start_text(&mut self, e: &BytesStart<'_>, name: &str) {
        match name {
            "text:p" if self.cell.is_some() => {
                if let Some(c) = self.cell.as_mut() {
                    if c.paragraphs > 0 {
                        c.text.push('\n');
                    }
                    c.paragraphs += 1;
                }
            }
            "text:s" => {
                if let Some(c) = self.cell.as_mut() {
                    let n = count(e, "text:c").min(1024) as usize;
                    c.text.push_str(&" ".repeat(n));
                }
            }
            "text:tab" => {
                if let Some(c) = self.cell.as_mut() {
                    c.text.push('\t');
                }
            }
            "text:line-break" => {
                if let Some(c) = self.cell.as_mut() {
                    c.text.push('\n');
                }
            }
            _ => {}
        }
    }

    /// An element closes.
    fn end(&mut self, name: &str, styles: &mut Styles, book: &mut Book) {
        match name {
            "style:style" | "style:default-style" => {
                if let Some(entry) = self.current_style.take() {
                    store_style(styles, entry);
                }
            }
            "number:number-style"
            | "number:percentage-style"
            | "number:date-style"
            | "number:time-style"
            | "number:currency-style" => {
                if let Some((n, kind, code)) = self.data_style.take() {
                    let code = match kind.as_str() {
                        "number:percentage-style" => {
                            format!("{}%", if code.is_empty() { "0" } else { &code })
                        }
                        "number:date-style" => "yyyy-mm-dd".to_string(),
                        "number:time-style" => "hh:mm:ss".to_string(),
                        _ => code,
                    };
                    let f = if code.is_empty() {
                        NumFormat::General
                    } else {
                        NumFormat::Code(code)
                    };
                    styles.data.insert(n, f);
                }
            }
            "table:table-cell" | "table:covered-table-cell" => {
                if let (Some(t), Some(c)) = (self.table.as_mut(), self.cell.take()) {
                    end_cell(t, c, styles, book);
                }
            }
            "table:table-row" => {
                if let Some(t) = self.table.as_mut() {
                    end_row(t, styles, book);
                }
            }
            "table:table" => {
                if let Some(t) = self.table.take() {
                    book.sheets.push(t.sheet);
                }
            }
            _ => {}
        }
    }
}

fn store_style(styles: &mut Styles, (family, key, raw): (String, String, RawStyle)) {
    match family.as_str() {
        "table-cell" if key.is_empty() => styles.default = raw.props,
        "table-cell" => {
            styles.cell.insert(key, raw);
        }
        _ if !key.is_empty() => {
            styles.other.insert(key, raw.props);
        }
        _ => {}
    }
}

/// The book's style index of the cell style `name` (0 for none).
fn cell_style(styles: &mut Styles, book: &mut Book, name: Option<&str>) -> usize {
    let Some(name) = name else {
        return if styles.default.is_empty() {
            0
        } else {
            cell_style(styles, book, Some(""))
        };
    };
    if let Some(&i) = styles.resolved.get(name) {
        return i;
    }
    // Its properties over its ancestors', over the default style's.
    let mut chain = Vec::new();
    let mut at = Some(name.to_string());
    while let Some(n) = at.filter(|n| !n.is_empty() && chain.len() < 32) {
        let Some(raw) = styles.cell.get(&n) else {
            break;
        };
        chain.push(raw.clone());
        at = raw.parent.clone();
    }
    let mut props = styles.default.clone();
    let mut data = None;
    for raw in chain.iter().rev() {
        props.extend(raw.props.clone());
        data = raw.data_style.clone().or(data);
    }
    let get = |k: &str| props.get(k).map(String::as_str);
    let mut borders = [Side::default(); 4];
    if let Some(all) = get("fo:border") {
        borders = [border(all); 4];
    }
    for (i, k) in [
        "fo:border-left",
        "fo:border-right",
        "fo:border-top",
        "fo:border-bottom",
    ]
    .iter()
    .enumerate()
    {
        if let Some(v) = get(k) {
            borders[i] = border(v);
        }
    }
    let fill = get("fo:background-color").and_then(rgb);
    let style = Style {
        font: Font {
            name: get("style:font-name").map(str::to_string),
            size_twips: get("fo:font-size")
                .and_then(points)
                .map(|p| (p * 20.0).round().min(8000.0) as u32),
            bold: get("fo:font-weight")
                .is_some_and(|w| w == "bold" || w.parse::<u32>().is_ok_and(|n| n >= 600)),
            italic: get("fo:font-style").is_some_and(|s| s == "italic" || s == "oblique"),
            underline: get("style:text-underline-style").is_some_and(|s| s != "none"),
            strike: get("style:text-line-through-style").is_some_and(|s| s != "none"),
            color: get("fo:color").and_then(rgb),
        },
        fill: (u8::from(fill.is_some()), fill, None),
        borders,
        num_format: data
            .and_then(|d| styles.data.get(&d).cloned())
            .unwrap_or_default(),
        h_align: match get("fo:text-align") {
            Some("start" | "left") => 1,
            Some("center") => 2,
            Some("end" | "right") => 3,
            Some("justify") => 5,
            _ => 0,
        },
        v_align: match get("style:vertical-align") {
            Some("top") => 0,
            Some("middle") => 1,
            _ => 2,
        },
        wrap: get("fo:wrap-option") == Some("wrap"),
    };
    let i = book.style_index(&mut styles.index, style);
    styles.resolved.insert(name.to_string(), i);
    i
}

fn column(t: &mut TableState, e: &BytesStart<'_>, styles: &mut Styles, book: &mut Book) {
    let start = t.col_defaults.len() as u32;
    let room = (LAST_COL + 1).saturating_sub(start);
    let n = count(e, "table:number-columns-repeated").min(room);
    let props = attr(e, "table:style-name")
        .and_then(|s| styles.other.get(&s).cloned())
        .unwrap_or_default();
    let width = props.get("style:column-width").and_then(|w| points(w));
    let hidden = attr(e, "table:visibility").is_some_and(|v| v != "visible");
    let default = attr(e, "table:default-cell-style-name").filter(|s| s != "Default");
    let style = default
        .as_deref()
        .map(|d| cell_style(styles, book, Some(d)))
        .unwrap_or(0);
    // A run of columns to the sheet's end (LibreOffice writes one after
    // the last used column) holds the sheet's defaults: its width is
    // not written per column, and a style over it is reported.
    let tail = n > 256;
    let (width, hidden) = if tail { (None, false) } else { (width, hidden) };
    let style = if tail && style != 0 {
        book.lose("formatting of whole columns (to the sheet's end)", 1);
        0
    } else {
        style
    };
    // A width or a style for each column, up to the last column of a sheet.
    for col in start..start + n {
        if let Some(w) = width {
            // Points → pixels at 96 dpi → characters of a 7-pixel digit.
            t.sheet
                .col_widths
                .insert(col, (w * 96.0 / 72.0 / 7.0 * 256.0).round() / 256.0);
        }
        if hidden {
            t.sheet.hidden_cols.push(col);
        }
        if style != 0 {
            t.sheet.col_styles.insert(col, style);
        }
        t.col_defaults.push(default.clone());
    }
}

fn end_cell(t: &mut TableState, c: CellXml, styles: &mut Styles, book: &mut Book) {
    let col = t.col;
    let room = (LAST_COL + 1).saturating_sub(col);
    let repeat = c.repeat.min(room);
    t.col = col.saturating_add(c.repeat);
    if repeat == 0 {
        return;
    }
    let col_default = t.col_defaults.get(col as usize).cloned().flatten();
    // A blank that only takes its column's style: the column's format
    // (written for the column) carries it.
    let from_column = c.style.is_none() || c.style == col_default;
    let name = c
        .style
        .clone()
        .or_else(|| col_default.clone())
        .or_else(|| t.row_default.clone());
    let style = if name.is_some() {
        cell_style(styles, book, name.as_deref())
    } else {
        0
    };
    let value = cell_value(&c);
    let formula = c.formula.as_deref().map(formula::from_openformula);
    if (c.span.0 > 1 || c.span.1 > 1) && t.row <= LAST_ROW {
        let last_row = (t.row + c.span.0 - 1).min(LAST_ROW);
        let last_col = (col + c.span.1 - 1).min(LAST_COL);
        t.sheet.merges.push((t.row, col, last_row, last_col));
    }
    let has = value != Value::Empty || formula.is_some() || (style != 0 && !from_column);
    if !has {
        return;
    }
    t.row_has_content = true;
    let (formula, lost) = match formula {
        Some(Some(f)) => (Some(f), false),
        Some(None) => (None, true),
        None => (None, false),
    };
    for k in 0..repeat {
        if lost {
            book.lose("formulas (kept as their values)", 1);
        }
        t.row_cells.push((
            col + k,
            1,
            Cell {
                value: value.clone(),
                formula: formula.clone(),
                style,
            },
        ));
        if t.row_cells.len() > super::model::MAX_SHEET_CELLS {
            break;
        }
    }
}

fn cell_value(c: &CellXml) -> Value {
    let v = c.value.as_deref().map(str::trim);
    match c.kind.as_deref() {
        Some("float" | "percentage" | "currency") => v
            .and_then(|v| v.parse().ok())
            .map_or(Value::Empty, Value::Number),
        Some("boolean") => Value::Bool(v == Some("true")),
        Some("date") => v
            .and_then(date_serial)
            .map_or_else(|| Value::Text(c.text.clone()), Value::Number),
        Some("time") => v
            .and_then(duration_days)
            .map_or_else(|| Value::Text(c.text.clone()), Value::Number),
        Some(_) => match c.value.as_ref() {
            Some(s) if c.text.is_empty() => Value::Text(s.clone()),
            _ if c.text.starts_with('#') && c.formula.is_some() => Value::Error(c.text.clone()),
            _ => Value::Text(c.text.clone()),
        },
        None if !c.text.is_empty() => Value::Text(c.text.clone()),
        None => Value::Empty,
    }
}

fn end_row(t: &mut TableState, styles: &mut Styles, book: &mut Book) {
    let repeat = t.row_repeat.min((LAST_ROW + 1).saturating_sub(t.row));
    let props = t.row_style.as_ref().and_then(|s| styles.other.get(s));
    let height = props
        .filter(|p| {
            p.get("style:use-optimal-row-height")
                .is_none_or(|v| v != "true")
        })
        .and_then(|p| p.get("style:row-height"))
        .and_then(|h| points(h));
    let valued = t
        .row_cells
        .iter()
        .any(|(_, _, c)| c.value != Value::Empty || c.formula.is_some());
    // Rows of styled blanks repeated down the sheet: their formatting is
    // carried for this many rows, the rest reported.
    const STYLED_ROWS: u32 = 4096;
    let repeat = if !valued && t.row_has_content && repeat > STYLED_ROWS {
        book.lose("formatting of repeated blank rows (past 4,096 rows)", 1);
        STYLED_ROWS
    } else {
        repeat
    };
    if t.row_hidden {
        t.sheet
            .hidden_rows
            .extend(t.row..t.row + repeat.min(STYLED_ROWS));
    }
    'rows: for k in 0..repeat {
        let row = t.row + k;
        if let Some(h) = height {
            t.sheet.row_heights.insert(row, h);
        }
        if !t.row_has_content {
            // A long run of empty rows (to the sheet's end) has the
            // sheet's default height.
            if height.is_none() || repeat > 1024 {
                break;
            }
            // Heights only, for at most this many rows.
            if k > 4096 {
                break;
            }
            continue;
        }
        for (col, _, cell) in &t.row_cells {
            if !book.put(&mut t.sheet, row, *col, cell.clone()) {
                break 'rows;
            }
        }
    }
    t.row = t.row.saturating_add(t.row_repeat);
    t.row_cells.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LibreOffice ends each table with a column run and a row run to the
    /// sheet's end: they are the sheet's defaults, not 16,384 widths and a
    /// million heights (a 300-sheet file took 2.5 GB before).
    #[test]
    fn runs_to_the_sheets_end_are_its_defaults() {
        let xml = r#"<office:document-content><office:automatic-styles><style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="2cm"/></style:style><style:style style:name="ro1" style:family="table-row"><style:table-row-properties style:row-height="0.5cm" style:use-optimal-row-height="false"/></style:style></office:automatic-styles><office:body><office:spreadsheet><table:table table:name="S"><table:table-column table:style-name="co1" table:number-columns-repeated="2"/><table:table-column table:style-name="co1" table:number-columns-repeated="16382"/><table:table-row table:style-name="ro1"><table:table-cell office:value-type="float" office:value="5"><text:p>5</text:p></table:table-cell></table:table-row><table:table-row table:style-name="ro1" table:number-rows-repeated="1048575"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>"#;
        let (mut styles, mut book) = (Styles::default(), Book::default());
        parse(xml, &mut styles, &mut book, true).unwrap();
        let s = &book.sheets[0];
        assert_eq!(s.col_widths.len(), 2);
        assert!(s.row_heights.len() <= 2, "{}", s.row_heights.len());
        assert_eq!(s.cells.len(), 1);
        assert_eq!(s.cells[&(0, 0)].value, Value::Number(5.0));
    }
}
