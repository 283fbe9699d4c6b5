//! The style sheet (`xl/styles.xml`): for a cell style (a `cellXfs` index)
//! find or add its blue italic twin, keeping its borders, fill, number
//! format and alignment; then write the style sheet back with only the new
//! `<font>`s and `<xf>`s added and the `count`s fixed.

use std::collections::HashMap;
use std::ops::Range;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::book::{Book, SheetPart};
use super::copy::{add_part, read_part, Changes, NewPart};
use super::part_edit::{pos, xml_err};
use super::xml::{attr, prefix_of, write_start_tag};
use super::{AnnotateError, FILL_COLOR};
use std::io::{Read, Seek};
use zip::ZipArchive;

/// Where a list container (`<fonts>` or `<cellXfs>`) sits in the source.
#[derive(Debug)]
struct Container {
    /// The start tag, `<fonts count="3">` (or the whole `<fonts/>`).
    tag: Range<usize>,
    empty: bool,
    /// Where new children go: the start of the end tag.
    close: usize,
    /// The children (`<font>` / `<xf>`), each whole.
    items: Vec<Range<usize>>,
    prefix: String,
}

/// The style sheet being extended.
#[derive(Debug)]
pub(crate) struct StylePool<'a> {
    part: String,
    src: &'a str,
    fonts: Container,
    xfs: Container,
    /// The `<fills>` list, when the style sheet has one (only tints need it).
    fills: Option<Container>,
    new_fonts: Vec<String>,
    new_xfs: Vec<String>,
    new_fills: Vec<String>,
    /// Existing fonts and xfs in the form new ones are written in, to reuse
    /// an identical one instead of adding it again (filled lazily).
    norm_fonts: Option<Vec<String>>,
    norm_xfs: Option<Vec<String>>,
    memo: HashMap<u32, u32>,
    /// Tinted formats made: (format, colour) → format.
    tints: HashMap<(u32, String), u32>,
}

/// Font children in the order Excel writes them.
const FONT_ORDER: &[&str] = &[
    "b",
    "i",
    "strike",
    "condense",
    "extend",
    "outline",
    "shadow",
    "u",
    "vertAlign",
    "sz",
    "color",
    "name",
    "family",
    "charset",
    "scheme",
];

impl<'a> StylePool<'a> {
    /// Reads the `fonts` and `cellXfs` lists of a style sheet.
    pub(crate) fn parse(part: &str, src: &'a str) -> Result<Self, AnnotateError> {
        let err = xml_err(part);
        let mut reader = Reader::from_str(src);
        let mut depth = 0usize;
        let mut fonts: Option<Container> = None;
        let mut xfs: Option<Container> = None;
        let mut fills: Option<Container> = None;
        // Which container we are in (0 fonts, 1 cellXfs, 2 fills) and where
        // the current child started.
        let mut inside: Option<u8> = None;
        let mut child_start = 0usize;
        loop {
            let start = pos(&reader);
            let ev = reader.read_event().map_err(&err)?;
            let end = pos(&reader);
            match ev {
                Event::Start(e) | Event::Empty(e)
                    if depth == 1 && is_container(e.local_name().as_ref()) =>
                {
                    let empty = matches!(src.as_bytes().get(end.wrapping_sub(2)), Some(b'/'));
                    let c = Container {
                        tag: start..end,
                        empty,
                        close: end,
                        items: Vec::new(),
                        prefix: prefix_of(&e),
                    };
                    let which = match e.local_name().as_ref() {
                        "fonts" => 0,
                        "cellXfs" => 1,
                        _ => 2,
                    };
                    match which {
                        0 => fonts = Some(c),
                        1 => xfs = Some(c),
                        _ => fills = Some(c),
                    }
                    if !empty {
                        inside = Some(which);
                        depth += 1;
                    }
                }
                Event::Start(_) => {
                    if depth == 2 && inside.is_some() {
                        child_start = start;
                    }
                    depth += 1;
                }
                Event::Empty(_) if depth == 2 => {
                    let target = match inside {
                        Some(0) => fonts.as_mut(),
                        Some(1) => xfs.as_mut(),
                        Some(_) => fills.as_mut(),
                        None => None,
                    };
                    if let Some(c) = target {
                        c.items.push(start..end);
                    }
                }
                Event::End(_) => {
                    depth = depth.saturating_sub(1);
                    let target = match inside {
                        Some(0) => fonts.as_mut(),
                        Some(1) => xfs.as_mut(),
                        Some(_) => fills.as_mut(),
                        None => None,
                    };
                    if let Some(c) = target {
                        if depth == 2 {
                            c.items.push(child_start..end);
                        } else if depth == 1 {
                            c.close = start;
                            inside = None;
                        }
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        let missing = |what: &str| AnnotateError::Malformed {
            part: part.to_string(),
            reason: format!("the style sheet has no <{what}> list"),
        };
        let fonts = fonts.ok_or_else(|| missing("fonts"))?;
        let xfs = xfs.ok_or_else(|| missing("cellXfs"))?;
        if xfs.items.is_empty() {
            return Err(AnnotateError::Malformed {
                part: part.to_string(),
                reason: "the style sheet has no cell formats (<cellXfs> is empty)".to_string(),
            });
        }
        Ok(StylePool {
            part: part.to_string(),
            src,
            fonts,
            xfs,
            fills,
            new_fonts: Vec::new(),
            new_xfs: Vec::new(),
            new_fills: Vec::new(),
            norm_fonts: None,
            norm_xfs: None,
            memo: HashMap::new(),
            tints: HashMap::new(),
        })
    }

    /// The number of cell formats (`cellXfs`) including those added.
    /// The most cell formats a workbook can have.
    #[cfg(test)]
    pub(crate) fn xf_count(&self) -> usize {
        self.xfs.items.len() + self.new_xfs.len()
    }

    /// The blue italic version of cell format `xf` (an index into
    /// `cellXfs`; an index out of range is read as 0): the same `<xf>` with
    /// a font that is the old one plus italics and the blue colour. Reuses
    /// an existing identical font or format, so applying it to its own
    /// result gives the same index back.
    pub(crate) fn blue(&mut self, xf: u32) -> Result<u32, AnnotateError> {
        if let Some(&v) = self.memo.get(&xf) {
            return Ok(v);
        }
        let idx = xf as usize;
        let base = if idx < self.xfs.items.len() { idx } else { 0 };
        let xf_src = &self.src[self.xfs.items[base].clone()];
        let (xf_tag, xf_body) = split_element(&self.part, xf_src)?;
        let font_id: usize = attr(&xf_tag, "fontId")
            .map_err(xml_err(&self.part))?
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        let new_font = match self.fonts.items.get(font_id) {
            Some(r) => blue_font(&self.part, &self.src[r.clone()])?,
            None => blue_font(&self.part, &format!("<{}font/>", self.fonts.prefix))?,
        };
        let font_idx = self.find_or_add_font(new_font)?;
        let font_val = font_idx.to_string();
        let xf_idx = self.xf_like(
            &xf_tag,
            xf_body,
            &[("fontId", &font_val), ("applyFont", "1")],
        )?;
        self.memo.insert(xf, xf_idx);
        Ok(xf_idx)
    }

    /// Cell format `xf` with a solid fill of colour `argb` (`FF3FDA65`):
    /// the same `<xf>` (font, borders, number format, alignment) with a
    /// fill of that colour, added once and reused (also from an earlier
    /// run's output). A style sheet without a `<fills>` list is refused.
    pub(crate) fn tinted(&mut self, xf: u32, argb: &str) -> Result<u32, AnnotateError> {
        if let Some(&v) = self.tints.get(&(xf, argb.to_string())) {
            return Ok(v);
        }
        let Some(fills) = &self.fills else {
            return Err(AnnotateError::Malformed {
                part: self.part.clone(),
                reason: "the style sheet has no <fills> list".to_string(),
            });
        };
        let p = &fills.prefix;
        let fill = format!(
            "<{p}fill><{p}patternFill patternType=\"solid\"><{p}fgColor rgb=\"{argb}\"/><{p}bgColor indexed=\"64\"/></{p}patternFill></{p}fill>"
        );
        let existing = fills.items.iter().position(|r| self.src[r.clone()] == fill);
        let fill_idx = match (existing, self.new_fills.iter().position(|f| *f == fill)) {
            (Some(i), _) => i,
            (None, Some(i)) => fills.items.len() + i,
            (None, None) => {
                self.new_fills.push(fill);
                fills.items.len() + self.new_fills.len() - 1
            }
        };
        let idx = xf as usize;
        let base = if idx < self.xfs.items.len() { idx } else { 0 };
        let (xf_tag, xf_body) = split_element(&self.part, &self.src[self.xfs.items[base].clone()])?;
        let fill_val = fill_idx.to_string();
        let xf_idx = self.xf_like(
            &xf_tag,
            xf_body,
            &[("fillId", &fill_val), ("applyFill", "1")],
        )?;
        self.tints.insert((xf, argb.to_string()), xf_idx);
        Ok(xf_idx)
    }

    /// The cell format `<xf>` written as `tag` and `body` are, with the
    /// attributes `set` changed, added once and reused: its index.
    fn xf_like(
        &mut self,
        tag: &BytesStart<'_>,
        body: Option<&str>,
        set: &[(&str, &str)],
    ) -> Result<u32, AnnotateError> {
        let mut new_xf = String::new();
        write_start_tag(&mut new_xf, tag, set, &[], body.is_none()).map_err(xml_err(&self.part))?;
        close_element(&mut new_xf, tag, body);
        let xf_idx = self.find_or_add_xf(new_xf)?;
        u32::try_from(xf_idx).map_err(|_| AnnotateError::Malformed {
            part: self.part.clone(),
            reason: "too many cell formats".to_string(),
        })
    }

    fn find_or_add_font(&mut self, font: String) -> Result<usize, AnnotateError> {
        if self.norm_fonts.is_none() {
            let mut v = Vec::with_capacity(self.fonts.items.len());
            for r in &self.fonts.items {
                v.push(normalize_font(&self.part, &self.src[r.clone()])?);
            }
            self.norm_fonts = Some(v);
        }
        let existing = self.norm_fonts.as_deref().unwrap_or_default();
        if let Some(i) = existing.iter().position(|f| *f == font) {
            return Ok(i);
        }
        let n = existing.len();
        if let Some(i) = self.new_fonts.iter().position(|f| *f == font) {
            return Ok(n + i);
        }
        self.new_fonts.push(font);
        Ok(n + self.new_fonts.len() - 1)
    }

    fn find_or_add_xf(&mut self, xf: String) -> Result<usize, AnnotateError> {
        if self.norm_xfs.is_none() {
            let mut v = Vec::with_capacity(self.xfs.items.len());
            for r in &self.xfs.items {
                v.push(normalize_xf(&self.part, &self.src[r.clone()])?);
            }
            self.norm_xfs = Some(v);
        }
        let existing = self.norm_xfs.as_deref().unwrap_or_default();
        if let Some(i) = existing.iter().position(|f| *f == xf) {
            return Ok(i);
        }
        let n = existing.len();
        if let Some(i) = self.new_xfs.iter().position(|f| *f == xf) {
            return Ok(n + i);
        }
        self.new_xfs.push(xf);
        Ok(n + self.new_xfs.len() - 1)
    }

    /// The style sheet with the added fonts and formats, or `None` when
    /// nothing had to be added (the part is then copied as it is).
    pub(crate) fn render(&self) -> Result<Option<String>, AnnotateError> {
        if self.new_fonts.is_empty() && self.new_xfs.is_empty() && self.new_fills.is_empty() {
            return Ok(None);
        }
        // (position, length replaced, text), applied in order.
        let mut edits: Vec<(usize, usize, String)> = Vec::new();
        let mut lists = vec![
            (&self.fonts, &self.new_fonts, "fonts"),
            (&self.xfs, &self.new_xfs, "cellXfs"),
        ];
        if let Some(fills) = &self.fills {
            lists.push((fills, &self.new_fills, "fills"));
        }
        for (c, new, name) in lists {
            if new.is_empty() {
                continue;
            }
            let count = (c.items.len() + new.len()).to_string();
            let mut tag = String::new();
            let e = start_tag_of(&self.part, &self.src[c.tag.clone()])?;
            write_start_tag(&mut tag, &e, &[("count", &count)], &[], false)
                .map_err(xml_err(&self.part))?;
            if c.empty {
                tag.push_str(&new.concat());
                tag.push_str(&format!("</{}{}>", c.prefix, name));
                edits.push((c.tag.start, c.tag.len(), tag));
            } else {
                edits.push((c.tag.start, c.tag.len(), tag));
                edits.push((c.close, 0, new.concat()));
            }
        }
        edits.sort_by_key(|e| e.0);
        let mut out = String::with_capacity(self.src.len() + 512);
        let mut at = 0;
        for (p, len, text) in edits {
            out.push_str(&self.src[at..p]);
            out.push_str(&text);
            at = p + len;
        }
        out.push_str(&self.src[at..]);
        Ok(Some(out))
    }
}

fn is_container(name: &str) -> bool {
    name == "fonts" || name == "cellXfs" || name == "fills"
}

/// The first start tag of `src`.
fn start_tag_of<'s>(part: &str, src: &'s str) -> Result<BytesStart<'s>, AnnotateError> {
    let mut r = Reader::from_str(src);
    loop {
        match r.read_event().map_err(xml_err(part))? {
            Event::Start(e) | Event::Empty(e) => return Ok(e),
            Event::Eof => {
                return Err(AnnotateError::Malformed {
                    part: part.to_string(),
                    reason: format!("expected an element in '{src}'"),
                })
            }
            _ => {}
        }
    }
}

/// An element's start tag and its inner text (`None` for `<x/>`).
fn split_element<'s>(
    part: &str,
    src: &'s str,
) -> Result<(BytesStart<'s>, Option<&'s str>), AnnotateError> {
    let mut r = Reader::from_str(src);
    loop {
        let ev = r.read_event().map_err(xml_err(part))?;
        match ev {
            Event::Empty(e) => return Ok((e, None)),
            Event::Start(e) => {
                let body_start = pos(&r);
                let body_end = src.rfind("</").unwrap_or(src.len()).max(body_start);
                return Ok((e, Some(&src[body_start..body_end])));
            }
            Event::Eof => {
                return Err(AnnotateError::Malformed {
                    part: part.to_string(),
                    reason: format!("expected an element in '{src}'"),
                })
            }
            _ => {}
        }
    }
}

fn close_element(out: &mut String, tag: &BytesStart<'_>, body: Option<&str>) {
    if let Some(body) = body {
        out.push_str(body);
        out.push_str("</");
        out.push_str(tag.name().as_ref());
        out.push('>');
    }
}

/// The `<xf>` as this module writes one (attributes re-quoted).
fn normalize_xf(part: &str, src: &str) -> Result<String, AnnotateError> {
    let (tag, body) = split_element(part, src)?;
    let mut out = String::new();
    write_start_tag(&mut out, &tag, &[], &[], body.is_none()).map_err(xml_err(part))?;
    close_element(&mut out, &tag, body);
    Ok(out)
}

/// The `<font>` as this module writes one: children in Excel's order,
/// whitespace between them dropped.
fn normalize_font(part: &str, src: &str) -> Result<String, AnnotateError> {
    rebuild_font(part, src, false)
}

/// The font with `<i/>` and the blue colour, replacing any italic or
/// colour it had; size, name, family and the rest are kept.
fn blue_font(part: &str, src: &str) -> Result<String, AnnotateError> {
    rebuild_font(part, src, true)
}

fn rebuild_font(part: &str, src: &str, blue: bool) -> Result<String, AnnotateError> {
    let err = xml_err(part);
    let mut r = Reader::from_str(src);
    let mut depth = 0usize;
    let mut tag: Option<(BytesStart<'_>, String)> = None;
    // (rank, text) of each child.
    let mut children: Vec<(usize, String)> = Vec::new();
    let mut child: Option<usize> = None;
    loop {
        let start = pos(&r);
        let ev = r.read_event().map_err(&err)?;
        let end = pos(&r);
        match ev {
            Event::Start(e) | Event::Empty(e) if depth == 0 && tag.is_none() => {
                let empty = src.as_bytes().get(end.wrapping_sub(2)) == Some(&b'/');
                let prefix = prefix_of(&e);
                tag = Some((e, prefix));
                if empty {
                    break;
                }
                depth = 1;
            }
            Event::Empty(e) if depth == 1 => {
                let name = e.local_name();
                children.push((rank(name.as_ref()), src[start..end].to_string()));
            }
            Event::Start(e) => {
                if depth == 1 {
                    let name = e.local_name();
                    child = Some(start);
                    children.push((rank(name.as_ref()), String::new()));
                }
                depth += 1;
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    if let (Some(s), Some(last)) = (child.take(), children.last_mut()) {
                        last.1 = src[s..end].to_string();
                    }
                } else if depth == 0 {
                    break;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let Some((tag, prefix)) = tag else {
        return Err(AnnotateError::Malformed {
            part: part.to_string(),
            reason: format!("expected a <font> in '{src}'"),
        });
    };
    if blue {
        children.retain(|(rank, _)| *rank != RANK_I && *rank != RANK_COLOR);
        children.push((RANK_I, format!("<{prefix}i/>")));
        children.push((RANK_COLOR, format!("<{prefix}color rgb=\"{FILL_COLOR}\"/>")));
    }
    children.sort_by_key(|c| c.0);
    let mut out = String::new();
    write_start_tag(&mut out, &tag, &[], &[], children.is_empty()).map_err(&err)?;
    if !children.is_empty() {
        for (_, text) in &children {
            out.push_str(text);
        }
        out.push_str("</");
        out.push_str(tag.name().as_ref());
        out.push('>');
    }
    Ok(out)
}

const RANK_I: usize = 1;
const RANK_COLOR: usize = 10;

fn rank(name: &str) -> usize {
    FONT_ORDER
        .iter()
        .position(|n| *n == name)
        .unwrap_or(FONT_ORDER.len())
}

pub(super) const MAX_XFS: usize = 65_000;

/// The style sheet given to a workbook that has none: Excel's defaults,
/// with `xfs` plain cell formats (at least one), so that style indices the
/// sheets already use (and which meant nothing without a style sheet) keep
/// meaning the default and the new formats come after them.
pub(super) fn minimal_styles(xfs: usize) -> String {
    let xfs = xfs.clamp(1, MAX_XFS);
    let mut out = String::with_capacity(1024 + 64 * xfs);
    out.push_str(concat!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
        "\n",
        r#"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#,
        r#"<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>"#,
        r#"<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>"#,
        r#"<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"#,
        r#"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#,
    ));
    out.push_str(&format!(r#"<cellXfs count="{xfs}">"#));
    for _ in 0..xfs {
        out.push_str(r#"<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#);
    }
    out.push_str(concat!(
        "</cellXfs>",
        r#"<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#,
        "</styleSheet>"
    ));
    out
}

/// The largest `s="N"` style index written in any worksheet (0 if none).
/// A textual scan: a match inside cell text only pads the style sheet.
pub(super) fn max_style_index<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    limit: u64,
) -> Result<usize, AnnotateError> {
    let mut max = 0usize;
    for sheet in &book.sheets {
        let SheetPart::Worksheet(part) = &sheet.part else {
            continue;
        };
        let src = read_part(archive, part, limit)?;
        for (i, _) in src.text.match_indices(" s=\"") {
            let rest = &src.text[i + 4..];
            let digits = rest.find('"').map_or("", |e| &rest[..e]);
            if let Ok(n) = digits.parse::<usize>() {
                max = max.max(n.min(MAX_XFS));
            }
        }
    }
    Ok(max)
}

pub(super) const STYLES_TYPE: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles";
pub(super) const STYLES_CONTENT_TYPE: &str =
    "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml";

/// A free name for a new style sheet beside the workbook part.
pub(super) fn new_styles_name(book: &Book) -> Result<String, AnnotateError> {
    let dir = book
        .workbook
        .rfind('/')
        .map_or("", |i| &book.workbook[..=i]);
    ["styles.xml", "xlsudoku-styles.xml"]
        .iter()
        .map(|n| format!("{dir}{n}"))
        .find(|n| !book.names.iter().any(|e| e.eq_ignore_ascii_case(n)))
        .ok_or_else(|| AnnotateError::Unsupported {
            part: book.workbook.clone(),
            reason: "the workbook has no style sheet and no free name for one".to_string(),
        })
}

/// Adds a style sheet to a workbook that has none: the part, its content
/// type and the workbook's relationship to it.
pub(super) fn add_styles_part<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    part: &str,
    bytes: Vec<u8>,
    limit: u64,
    changes: &mut Changes,
) -> Result<(), AnnotateError> {
    let new = NewPart {
        name: part,
        content_type: STYLES_CONTENT_TYPE,
        kind: &|_| STYLES_TYPE,
        bytes,
        what: "a style sheet",
    };
    add_part(archive, book, new, limit, changes).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHEET: &str = r#"<styleSheet xmlns="m"><fonts count="2" x14ac:knownFonts="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font><font><b/><sz val="14"/><name val="Arial"/></font></fonts><fills count="1"><fill/></fills><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="3" xfId="0" applyBorder="1"><alignment horizontal="center"/></xf></cellXfs><dxfs count="1"><dxf><font><i/></font></dxf></dxfs></styleSheet>"#;

    #[test]
    fn blue_italic_clone_keeps_border_alignment_size_and_name() {
        let mut pool = StylePool::parse("s", SHEET).unwrap();
        assert_eq!(pool.blue(1).unwrap(), 2);
        let out = pool.render().unwrap().unwrap();
        assert!(
            out.contains(r#"<fonts count="3" x14ac:knownFonts="1">"#),
            "{out}"
        );
        assert!(out.contains(
            r#"<font><b/><i/><sz val="14"/><color rgb="FF0000FF"/><name val="Arial"/></font></fonts>"#
        ));
        assert!(out.contains(r#"<cellXfs count="3">"#));
        assert!(out.contains(
            r#"<xf numFmtId="0" fontId="2" fillId="0" borderId="3" xfId="0" applyBorder="1" applyFont="1"><alignment horizontal="center"/></xf></cellXfs>"#
        ), "{out}");
        // The dxf font is not a cell font.
        assert!(out.contains(r#"<dxf><font><i/></font></dxf>"#));
    }

    #[test]
    fn each_new_style_is_added_once_and_reused() {
        let mut pool = StylePool::parse("s", SHEET).unwrap();
        assert_eq!(pool.blue(0).unwrap(), 2);
        assert_eq!(pool.blue(0).unwrap(), 2);
        assert_eq!(pool.blue(1).unwrap(), 3);
        // Out of range reads as format 0.
        assert_eq!(pool.blue(99).unwrap(), 2);
        assert_eq!(pool.xf_count(), 4);
        let out = pool.render().unwrap().unwrap();
        assert_eq!(out.matches("FF0000FF").count(), 2);
    }

    #[test]
    fn applying_to_its_own_output_adds_nothing() {
        let mut pool = StylePool::parse("s", SHEET).unwrap();
        let blue0 = pool.blue(0).unwrap();
        let blue1 = pool.blue(1).unwrap();
        let once = pool.render().unwrap().unwrap();
        let mut again = StylePool::parse("s", &once).unwrap();
        assert_eq!(again.blue(blue0).unwrap(), blue0);
        assert_eq!(again.blue(blue1).unwrap(), blue1);
        assert_eq!(again.render().unwrap(), None);
    }

    #[test]
    fn an_existing_identical_style_is_reused() {
        let sheet = r#"<styleSheet><fonts count="2"><font><sz val="11"/></font><font><i/><sz val="11"/><color rgb="FF0000FF"/></font></fonts><cellXfs count="2"><xf fontId="0"/><xf fontId="1" applyFont="1"/></cellXfs></styleSheet>"#;
        let mut pool = StylePool::parse("s", sheet).unwrap();
        assert_eq!(pool.blue(0).unwrap(), 1);
        assert_eq!(pool.render().unwrap(), None);
    }

    #[test]
    fn empty_font_list_and_old_colour_and_italic_are_replaced() {
        let f = blue_font(
            "s",
            r#"<x:font><x:i val="0"/><x:color indexed="8"/><x:sz val="9"/></x:font>"#,
        )
        .unwrap();
        assert_eq!(
            f,
            r#"<x:font><x:i/><x:sz val="9"/><x:color rgb="FF0000FF"/></x:font>"#
        );
        let sheet =
            r#"<styleSheet><fonts count="0"/><cellXfs count="1"><xf/></cellXfs></styleSheet>"#;
        let mut pool = StylePool::parse("s", sheet).unwrap();
        assert_eq!(pool.blue(0).unwrap(), 1);
        let out = pool.render().unwrap().unwrap();
        assert!(
            out.contains(r#"<fonts count="1"><font><i/><color rgb="FF0000FF"/></font></fonts>"#),
            "{out}"
        );
        assert!(
            out.contains(r#"<xf fontId="0" applyFont="1"/></cellXfs>"#),
            "{out}"
        );
    }

    #[test]
    fn truncated_style_sheets_give_errors_not_panics() {
        for cut in 0..SHEET.len() {
            if let Ok(mut pool) = StylePool::parse("s", &SHEET[..cut]) {
                let _ = pool.blue(1).and_then(|_| pool.render());
            }
        }
    }

    #[test]
    fn a_style_sheet_without_cell_formats_is_refused() {
        let err = StylePool::parse("s", "<styleSheet><fonts/></styleSheet>").unwrap_err();
        assert!(err.to_string().contains("cellXfs"), "{err}");
    }
}
