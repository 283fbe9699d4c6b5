//! `.xls` (BIFF8 in a compound file): the `Workbook` stream's records read
//! into the neutral [`Book`]. Values, styles (XF, FONT, FORMAT, PALETTE),
//! merges, column widths and row heights come from the records here;
//! formula text comes from calamine, which decompiles BIFF8 formula
//! tokens (see [`formulas`]).

use std::collections::{BTreeSet, HashMap};

use super::cfb::Compound;
use super::model::{Book, Cell, Font, NumFormat, Sheet, Side, Style, Value};
use super::Fault;

/// Excel's colours 8–63 when the workbook has no PALETTE record.
const PALETTE: [u32; 56] = [
    0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF, 0x800000,
    0x008000, 0x000080, 0x808000, 0x800080, 0x008080, 0xC0C0C0, 0x808080, 0x9999FF, 0x993366,
    0xFFFFCC, 0xCCFFFF, 0x660066, 0xFF8080, 0x0066CC, 0xCCCCFF, 0x000080, 0xFF00FF, 0xFFFF00,
    0x00FFFF, 0x800080, 0x800000, 0x008080, 0x0000FF, 0x00CCFF, 0xCCFFFF, 0xCCFFCC, 0xFFFF99,
    0x99CCFF, 0xFF99CC, 0xCC99FF, 0xFFCC99, 0x3366FF, 0x33CCCC, 0x99CC00, 0xFFCC00, 0xFF9900,
    0xFF6600, 0x666699, 0x969696, 0x003366, 0x339966, 0x003300, 0x333300, 0x993300, 0x993366,
    0x333399, 0x333333,
];

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn f64_at(b: &[u8], at: usize) -> Option<f64> {
    Some(f64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// One record: its type, its data and where its header starts.
struct Record<'a> {
    kind: u16,
    data: &'a [u8],
    at: usize,
}

/// The records of `stream` from byte `from`; ends at the first header or
/// body cut short.
fn records(stream: &[u8], from: usize) -> impl Iterator<Item = Record<'_>> {
    let mut at = from;
    std::iter::from_fn(move || {
        let kind = u16_at(stream, at)?;
        let len = usize::from(u16_at(stream, at + 2)?);
        let data = stream.get(at + 4..at + 4 + len)?;
        let rec = Record { kind, data, at };
        at += 4 + len;
        Some(rec)
    })
}

/// Reads an XLUnicodeString's characters (`cch` of them, the flags byte
/// at `at`) from one buffer; `None` when cut short.
fn chars(b: &[u8], at: usize, cch: usize) -> Option<(String, usize)> {
    let flags = *b.get(at)?;
    let mut at = at + 1;
    let rich = if flags & 0x08 != 0 { u16_at(b, at)? } else { 0 };
    at += if flags & 0x08 != 0 { 2 } else { 0 };
    let ext = if flags & 0x04 != 0 { u32_at(b, at)? } else { 0 };
    at += if flags & 0x04 != 0 { 4 } else { 0 };
    let text = if flags & 1 != 0 {
        let raw = b.get(at..at + 2 * cch)?;
        at += 2 * cch;
        let units: Vec<u16> = raw
            .chunks_exact(2)
            .map(|w| u16::from_le_bytes([w[0], w[1]]))
            .collect();
        String::from_utf16_lossy(&units)
    } else {
        let raw = b.get(at..at + cch)?;
        at += cch;
        raw.iter().map(|&c| char::from(c)).collect()
    };
    Some((text, at + 4 * usize::from(rich) + ext as usize))
}

/// The shared strings: the SST record and its CONTINUE records, where a
/// string's characters may break across records (each CONTINUE then opens
/// with a flags byte of its own).
fn shared_strings(segments: &[&[u8]]) -> Vec<String> {
    struct Cursor<'a> {
        segs: &'a [&'a [u8]],
        seg: usize,
        pos: usize,
    }
    impl Cursor<'_> {
        fn byte(&mut self) -> Option<u8> {
            while self.pos >= self.segs.get(self.seg)?.len() {
                self.seg += 1;
                self.pos = 0;
            }
            let b = self.segs[self.seg][self.pos];
            self.pos += 1;
            Some(b)
        }
        fn u16(&mut self) -> Option<u16> {
            Some(u16::from_le_bytes([self.byte()?, self.byte()?]))
        }
        fn u32(&mut self) -> Option<u32> {
            Some(u32::from_le_bytes([
                self.byte()?,
                self.byte()?,
                self.byte()?,
                self.byte()?,
            ]))
        }
        fn skip(&mut self, mut n: usize) -> Option<()> {
            while n > 0 {
                let len = self.segs.get(self.seg)?.len();
                let take = n.min(len - self.pos.min(len));
                if take == 0 {
                    self.seg += 1;
                    self.pos = 0;
                    continue;
                }
                self.pos += take;
                n -= take;
            }
            Some(())
        }
        fn string(&mut self) -> Option<String> {
            let cch = usize::from(self.u16()?);
            let flags = self.byte()?;
            let rich = if flags & 0x08 != 0 { self.u16()? } else { 0 };
            let ext = if flags & 0x04 != 0 { self.u32()? } else { 0 };
            let mut high = flags & 1 != 0;
            let mut units = Vec::with_capacity(cch);
            while units.len() < cch {
                if self.pos >= self.segs.get(self.seg)?.len() {
                    // A CONTINUE record: its first byte says the width.
                    self.seg += 1;
                    self.pos = 0;
                    high = self.byte()? & 1 != 0;
                    continue;
                }
                units.push(if high {
                    self.u16()?
                } else {
                    u16::from(self.byte()?)
                });
            }
            self.skip(4 * usize::from(rich) + ext as usize)?;
            Some(String::from_utf16_lossy(&units))
        }
    }
    let Some(first) = segments.first() else {
        return Vec::new();
    };
    let unique = u32_at(first, 4).unwrap_or(0) as usize;
    let mut c = Cursor {
        segs: segments,
        seg: 0,
        pos: 8,
    };
    let mut out = Vec::with_capacity(unique.min(1 << 16));
    while out.len() < unique {
        match c.string() {
            Some(s) => out.push(s),
            None => break,
        }
    }
    out
}

/// A BIFF8 error code's text.
fn error_text(code: u8) -> String {
    match code {
        0x00 => "#NULL!",
        0x07 => "#DIV/0!",
        0x0F => "#VALUE!",
        0x17 => "#REF!",
        0x1D => "#NAME?",
        0x24 => "#NUM!",
        _ => "#N/A",
    }
    .to_string()
}

fn rk(v: u32) -> f64 {
    let n = if v & 2 != 0 {
        f64::from((v as i32) >> 2)
    } else {
        f64::from_bits(u64::from(v & 0xFFFF_FFFC) << 32)
    };
    if v & 1 != 0 {
        n / 100.0
    } else {
        n
    }
}

/// What the workbook globals say: sheets, styles, strings.
#[derive(Default)]
struct Globals {
    /// Name, stream offset of its BOF, hidden, sheet type.
    sheets: Vec<(String, usize, bool, u8)>,
    fonts: Vec<Font>,
    formats: HashMap<u16, String>,
    /// Raw XF records.
    xfs: Vec<Vec<u8>>,
    palette: Vec<u32>,
    strings: Vec<String>,
}

fn colour(palette: &[u32], icv: u32) -> Option<u32> {
    match icv {
        0..=7 => Some(
            [
                0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF,
            ][icv as usize],
        ),
        8..=63 => palette.get(icv as usize - 8).copied(),
        _ => None,
    }
}

fn globals(stream: &[u8]) -> Result<Globals, Fault> {
    let mut g = Globals {
        palette: PALETTE.to_vec(),
        ..Default::default()
    };
    let mut sst: Vec<&[u8]> = Vec::new();
    let mut in_sst = false;
    let mut first = true;
    for r in records(stream, 0) {
        if first {
            first = false;
            if r.kind != 0x0809 {
                return Err(Fault::damaged(
                    "the Workbook stream does not open with a BOF record",
                ));
            }
            let vers = u16_at(r.data, 0).unwrap_or(0);
            if vers != 0x0600 {
                return Err(Fault::unsupported(
                    "an Excel 5.0/95 workbook (BIFF5) or older, which xlsudoku does not read",
                ));
            }
            continue;
        }
        if r.kind == 0x003C && in_sst {
            sst.push(r.data);
            continue;
        }
        in_sst = false;
        match r.kind {
            0x000A => break,
            0x002F => return Err(Fault::encrypted()),
            0x0085 => {
                let pos = u32_at(r.data, 0).unwrap_or(0) as usize;
                let hidden = r.data.get(4).is_some_and(|s| s & 3 != 0);
                let dt = r.data.get(5).copied().unwrap_or(0);
                let cch = usize::from(r.data.get(6).copied().unwrap_or(0));
                let name = chars(r.data, 7, cch).map(|(s, _)| s).unwrap_or_default();
                g.sheets.push((name, pos, hidden, dt));
            }
            0x0031 => {
                let d = r.data;
                let grbit = u16_at(d, 2).unwrap_or(0);
                let icv = u16_at(d, 4).unwrap_or(0x7FFF);
                let cch = usize::from(d.get(14).copied().unwrap_or(0));
                g.fonts.push(Font {
                    name: chars(d, 15, cch).map(|(s, _)| s),
                    size_twips: u16_at(d, 0).map(u32::from),
                    bold: u16_at(d, 6).unwrap_or(400) >= 700,
                    italic: grbit & 2 != 0,
                    strike: grbit & 8 != 0,
                    underline: d.get(10).is_some_and(|&u| u != 0),
                    // Resolved against the palette once it is known.
                    color: Some(u32::from(icv)),
                });
            }
            0x041E => {
                if let (Some(i), Some(cch)) = (u16_at(r.data, 0), u16_at(r.data, 2)) {
                    if let Some((s, _)) = chars(r.data, 4, usize::from(cch)) {
                        g.formats.insert(i, s);
                    }
                }
            }
            0x00E0 => g.xfs.push(r.data.to_vec()),
            0x0092 => {
                let n = usize::from(u16_at(r.data, 0).unwrap_or(0)).min(56);
                for i in 0..n {
                    if let Some(c) = r.data.get(2 + 4 * i..5 + 4 * i) {
                        g.palette[i] =
                            u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
                    }
                }
            }
            0x00FC => {
                sst = vec![r.data];
                in_sst = true;
            }
            _ => {}
        }
    }
    g.strings = shared_strings(&sst);
    for f in &mut g.fonts {
        f.color = f.color.and_then(|icv| colour(&g.palette, icv));
    }
    Ok(g)
}

/// The model style of a raw XF record.
fn xf_style(g: &Globals, xf: &[u8]) -> Style {
    let ifnt = usize::from(u16_at(xf, 0).unwrap_or(0));
    let ifnt = if ifnt >= 4 { ifnt - 1 } else { ifnt };
    let ifmt = u16_at(xf, 2).unwrap_or(0);
    let align = xf.get(6).copied().unwrap_or(0x20);
    let b1 = u32_at(xf, 10).unwrap_or(0);
    let b2 = u32_at(xf, 14).unwrap_or(0);
    let fill = u32::from(u16_at(xf, 18).unwrap_or(0));
    let side = |line: u32, icv: u32| Side {
        line: (line & 0xF).min(13) as u8,
        color: if line & 0xF == 0 {
            None
        } else {
            colour(&g.palette, icv & 0x7F)
        },
    };
    let num_format = match (ifmt, g.formats.get(&ifmt)) {
        (0, _) => NumFormat::General,
        (_, Some(code)) if code.eq_ignore_ascii_case("general") => NumFormat::General,
        (_, Some(code)) => NumFormat::Code(code.clone()),
        (1..=49, None) => NumFormat::Builtin(ifmt as u8),
        _ => NumFormat::General,
    };
    let pattern = ((b2 >> 26) & 0x3F).min(18) as u8;
    Style {
        font: g.fonts.get(ifnt).cloned().unwrap_or_default(),
        fill: (
            pattern,
            colour(&g.palette, fill & 0x7F).filter(|_| pattern != 0),
            colour(&g.palette, (fill >> 7) & 0x7F).filter(|_| pattern > 1),
        ),
        borders: [
            side(b1, b1 >> 16),
            side(b1 >> 4, b1 >> 23),
            side(b1 >> 8, b2),
            side(b1 >> 12, b2 >> 7),
        ],
        num_format,
        h_align: (align & 7).min(7),
        v_align: ((align >> 4) & 7).min(4),
        wrap: align & 8 != 0,
    }
}

/// The cells of one sheet that hold formulas, (row, column).
pub(crate) type FormulaCells = BTreeSet<(u32, u32)>;

/// Reads an `.xls` file's bytes into the model. The cells whose formula
/// text calamine gives are filled in afterwards by [`formulas`].
pub(crate) fn read(bytes: &[u8]) -> Result<(Book, Vec<FormulaCells>), Fault> {
    let cfb = Compound::open(bytes).map_err(Fault::damaged_owned)?;
    let stream = match cfb.stream("Workbook").map_err(Fault::damaged_owned)? {
        Some(s) => s,
        None if cfb.has("Book") => {
            return Err(Fault::unsupported(
                "an Excel 5.0/95 workbook (BIFF5) or older, which xlsudoku does not read",
            ))
        }
        None => return Err(Fault::damaged("a compound file without a Workbook stream")),
    };
    let g = globals(&stream)?;
    let mut book = Book::default();
    if cfb.has("_VBA_PROJECT_CUR") || cfb.has("_VBA_PROJECT") {
        book.lose("macros (VBA)", 1);
    }
    let mut index = HashMap::new();
    book.style_index(&mut index, Style::default());
    let mut xf_map: Vec<Option<usize>> = vec![None; g.xfs.len()];
    let mut formula_cells = Vec::new();
    for (name, pos, hidden, dt) in &g.sheets {
        match dt {
            0 => {}
            2 => {
                book.lose("chart sheets", 1);
                continue;
            }
            1 => {
                book.lose("macro sheets (Excel 4.0)", 1);
                continue;
            }
            _ => {
                book.lose("macros (VBA)", 1);
                continue;
            }
        }
        let mut sheet = Sheet {
            name: name.clone(),
            hidden: *hidden,
            ..Default::default()
        };
        let mut style_of = |book: &mut Book, ixfe: u16| -> usize {
            let i = usize::from(ixfe);
            match xf_map.get(i) {
                Some(Some(s)) => *s,
                Some(None) => {
                    let s = book.style_index(&mut index, xf_style(&g, &g.xfs[i]));
                    xf_map[i] = Some(s);
                    s
                }
                None => 0,
            }
        };
        let formulas = read_sheet(&stream, *pos, &g, &mut book, &mut sheet, &mut style_of)
            .map_err(|f| f.in_sheet(name))?;
        formula_cells.push(formulas);
        book.sheets.push(sheet);
    }
    if let Some(lost) = book.lost.remove("macros (VBA)") {
        book.lose("macros (VBA)", lost.min(1));
    }
    Ok((book, formula_cells))
}

/// Reads one worksheet substream (from its BOF at `pos`) into `sheet`;
/// returns the cells that hold formulas.
fn read_sheet(
    stream: &[u8],
    pos: usize,
    g: &Globals,
    book: &mut Book,
    sheet: &mut Sheet,
    style_of: &mut dyn FnMut(&mut Book, u16) -> usize,
) -> Result<BTreeSet<(u32, u32)>, Fault> {
    let mut state = CellState::default();
    let mut depth = 0usize;
    for r in records(stream, pos) {
        match r.kind {
            0x0809 => {
                depth += 1;
                continue;
            }
            0x000A => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
                continue;
            }
            _ if depth != 1 => continue,
            _ => {}
        }
        if !cell_record(&r, g, book, sheet, style_of, &mut state)? {
            layout_record(&r, sheet, book, style_of)?;
        }
    }
    Ok(state.formulas)
}

/// What [`read_sheet`] carries from one cell record to the next.
#[derive(Default)]
struct CellState {
    /// The cells that hold formulas.
    formulas: BTreeSet<(u32, u32)>,
    /// A formula cell whose text result the next STRING record holds.
    pending_string: Option<(u32, u32)>,
}

/// A cell record (LABELSST, LABEL, RK, MULRK, NUMBER, BLANK, MULBLANK,
/// BOOLERR, FORMULA and its STRING) read into `sheet`; false when `r` is
/// not one.
fn cell_record(
    r: &Record<'_>,
    g: &Globals,
    book: &mut Book,
    sheet: &mut Sheet,
    style_of: &mut dyn FnMut(&mut Book, u16) -> usize,
    state: &mut CellState,
) -> Result<bool, Fault> {
    let d = r.data;
    let cut =
        |r: &Record<'_>| Fault::damaged_owned(format!("a record at byte {} is cut short", r.at));
    let head = || -> Option<(u32, u32, u16)> {
        Some((
            u32::from(u16_at(d, 0)?),
            u32::from(u16_at(d, 2)?),
            u16_at(d, 4)?,
        ))
    };
    let mut put = |book: &mut Book, row: u32, col: u32, ixfe: u16, value: Value| {
        let style = style_of(book, ixfe);
        book.put(
            sheet,
            row,
            col,
            Cell {
                value,
                formula: None,
                style,
            },
        );
    };
    match r.kind {
        0x00FD => {
            let (row, col, ixfe) = head().ok_or_else(|| cut(r))?;
            let i = u32_at(d, 6).ok_or_else(|| cut(r))? as usize;
            let text =
                g.strings.get(i).cloned().ok_or_else(|| {
                    Fault::at(row, col, format!("shared string {i} does not exist"))
                })?;
            put(book, row, col, ixfe, Value::Text(text));
        }
        0x0204 => {
            let (row, col, ixfe) = head().ok_or_else(|| cut(r))?;
            let cch = usize::from(u16_at(d, 6).ok_or_else(|| cut(r))?);
            let (text, _) = chars(d, 8, cch).ok_or_else(|| cut(r))?;
            put(book, row, col, ixfe, Value::Text(text));
        }
        0x027E => {
            let (row, col, ixfe) = head().ok_or_else(|| cut(r))?;
            put(
                book,
                row,
                col,
                ixfe,
                Value::Number(rk(u32_at(d, 6).ok_or_else(|| cut(r))?)),
            );
        }
        0x00BD => {
            let (row, first, _) = head().ok_or_else(|| cut(r))?;
            let n = d.len().saturating_sub(6) / 6;
            for k in 0..n {
                let at = 4 + 6 * k;
                let (Some(ixfe), Some(v)) = (u16_at(d, at), u32_at(d, at + 2)) else {
                    break;
                };
                put(book, row, first + k as u32, ixfe, Value::Number(rk(v)));
            }
        }
        0x0203 => {
            let (row, col, ixfe) = head().ok_or_else(|| cut(r))?;
            put(
                book,
                row,
                col,
                ixfe,
                Value::Number(f64_at(d, 6).ok_or_else(|| cut(r))?),
            );
        }
        0x0201 => {
            let (row, col, ixfe) = head().ok_or_else(|| cut(r))?;
            put(book, row, col, ixfe, Value::Empty);
        }
        0x00BE => {
            let (row, first, _) = head().ok_or_else(|| cut(r))?;
            let n = d.len().saturating_sub(6) / 2;
            for k in 0..n {
                let Some(ixfe) = u16_at(d, 4 + 2 * k) else {
                    break;
                };
                put(book, row, first + k as u32, ixfe, Value::Empty);
            }
        }
        0x0205 => {
            let (row, col, ixfe) = head().ok_or_else(|| cut(r))?;
            let (v, err) = (
                d.get(6).copied().unwrap_or(0),
                d.get(7).copied().unwrap_or(0),
            );
            let value = if err != 0 {
                Value::Error(error_text(v))
            } else {
                Value::Bool(v != 0)
            };
            put(book, row, col, ixfe, value);
        }
        0x0006 => {
            let (row, col, ixfe) = head().ok_or_else(|| cut(r))?;
            let raw = d.get(6..14).ok_or_else(|| cut(r))?;
            let value = if raw[6] == 0xFF && raw[7] == 0xFF {
                match raw[0] {
                    0 => {
                        state.pending_string = Some((row, col));
                        Value::Text(String::new())
                    }
                    1 => Value::Bool(raw[2] != 0),
                    2 => Value::Error(error_text(raw[2])),
                    _ => Value::Text(String::new()),
                }
            } else {
                Value::Number(f64_at(d, 6).unwrap_or(0.0))
            };
            put(book, row, col, ixfe, value);
            state.formulas.insert((row, col));
        }
        0x0207 => {
            if let Some(at) = state.pending_string.take() {
                let cch = usize::from(u16_at(d, 0).unwrap_or(0));
                let text = chars(d, 2, cch).map(|(s, _)| s).unwrap_or_default();
                if let Some(c) = sheet.cells.get_mut(&at) {
                    c.value = Value::Text(text);
                }
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// A record of a sheet's layout (ROW, COLINFO, MERGEDCELLS) or of what
/// the copy does not carry (OBJ).
fn layout_record(
    r: &Record<'_>,
    sheet: &mut Sheet,
    book: &mut Book,
    style_of: &mut dyn FnMut(&mut Book, u16) -> usize,
) -> Result<(), Fault> {
    let d = r.data;
    let cut =
        |r: &Record<'_>| Fault::damaged_owned(format!("a record at byte {} is cut short", r.at));
    match r.kind {
        0x0208 => {
            let row = u32::from(u16_at(d, 0).ok_or_else(|| cut(r))?);
            let height = u16_at(d, 6).unwrap_or(255) & 0x7FFF;
            let grbit = u16_at(d, 12).unwrap_or(0);
            if grbit & 0x20 != 0 {
                sheet.hidden_rows.push(row);
            }
            if grbit & 0x40 != 0 {
                sheet.row_heights.insert(row, f64::from(height) / 20.0);
            }
            if grbit & 0x80 != 0 {
                let ixfe = u16_at(d, 14).unwrap_or(15) & 0xFFF;
                let s = style_of(book, ixfe);
                if s != 0 {
                    sheet.row_styles.insert(row, s);
                }
            }
        }
        0x007D => {
            let first = u32::from(u16_at(d, 0).ok_or_else(|| cut(r))?).min(255);
            let last = u32::from(u16_at(d, 2).unwrap_or(0)).min(255);
            let width = f64::from(u16_at(d, 4).unwrap_or(2340)) / 256.0;
            let ixfe = u16_at(d, 6).unwrap_or(15);
            let hidden = u16_at(d, 8).unwrap_or(0) & 1 != 0;
            let s = style_of(book, ixfe);
            for col in first..=last {
                sheet.col_widths.insert(col, width);
                if hidden {
                    sheet.hidden_cols.push(col);
                }
                if s != 0 {
                    sheet.col_styles.insert(col, s);
                }
            }
        }
        0x00E5 => {
            let n = usize::from(u16_at(d, 0).unwrap_or(0));
            for k in 0..n {
                let at = 2 + 8 * k;
                let (Some(r0), Some(r1), Some(c0), Some(c1)) = (
                    u16_at(d, at),
                    u16_at(d, at + 2),
                    u16_at(d, at + 4),
                    u16_at(d, at + 6),
                ) else {
                    break;
                };
                if r0 <= r1 && c0 <= c1 && (r0, c0) != (r1, c1) {
                    sheet
                        .merges
                        .push((r0.into(), c0.into(), r1.into(), c1.into()));
                }
            }
        }
        0x005D => {
            // The common object data opens an OBJ record: its type.
            let what = match u16_at(d, 4) {
                Some(5) => "charts",
                Some(8) => "images",
                Some(25) => "comments",
                _ => "drawings and form controls",
            };
            book.lose(what, 1);
        }
        _ => {}
    }
    Ok(())
}

/// Fills in the formula text of `book`'s formula cells from calamine's
/// reading of the same bytes. A formula it cannot give keeps its value and
/// is counted as not carried. Calamine runs only on a file this module has
/// read whole, and a panic inside it is caught: the formulas are then all
/// kept as values.
pub(crate) fn formulas(bytes: &[u8], book: &mut Book, cells: &[FormulaCells]) {
    use calamine::Reader;
    let read = std::panic::catch_unwind(|| -> Vec<Option<calamine::Range<String>>> {
        let Ok(mut xls) = calamine::Xls::new(std::io::Cursor::new(bytes)) else {
            return Vec::new();
        };
        book.sheets
            .iter()
            .map(|s| xls.worksheet_formula(&s.name).ok())
            .collect()
    });
    let ranges = read.unwrap_or_default();
    let mut lost = 0;
    for (i, sheet) in book.sheets.iter_mut().enumerate() {
        let range = ranges.get(i).and_then(Option::as_ref);
        for &(row, col) in cells.get(i).into_iter().flatten() {
            let text = range
                .and_then(|r| r.get_value((row, col)))
                .map(|t| t.trim())
                .filter(|t| !t.is_empty() && carried(t));
            match (text, sheet.cells.get_mut(&(row, col))) {
                (Some(t), Some(c)) => c.formula = Some(t.to_string()),
                _ => lost += 1,
            }
        }
    }
    book.lose("formulas (kept as their values)", lost);
}

/// True when calamine's text of a formula is one Excel can read back
/// (calamine writes what it cannot decompile in words).
fn carried(text: &str) -> bool {
    !text.contains("Unrecognised") && !text.contains("unsupported") && !text.contains("#REF")
}
