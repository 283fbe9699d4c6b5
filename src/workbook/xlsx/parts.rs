//! The parts of an OOXML workbook: the zip and its size limits
//! (zip bombs), reading a part, the XML attribute helpers every part's
//! reader uses, and where the workbook's sheets, shared strings, styles
//! and theme are (`workbook.xml` and its relationships).

use std::collections::HashMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use quick_xml::events::{BytesStart, Event};

use super::styles::parse_xf_borders;
use crate::package;
use crate::workbook::detect::Edges;
use crate::workbook::ReadError;

pub(super) type Zip<'a> = zip::ZipArchive<Cursor<&'a [u8]>>;

/// The largest uncompressed part read (a 500k-cell sheet is about 30 MB).
pub(crate) const MAX_PART: u64 = 512 << 20;

/// The largest uncompressed package read, all parts together.
pub(crate) const MAX_TOTAL: u64 = 2 << 30;

/// Refuses packages whose parts declare more than the limits, before any
/// part is inflated: zip bombs and oversized sheets get a clear error
/// instead of exhausting memory.
pub(super) fn check_sizes(zip: &mut Zip<'_>, path: &Path) -> Result<(), ReadError> {
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
pub(super) fn read_part(zip: &mut Zip<'_>, name: &str) -> Option<String> {
    String::from_utf8(read_part_bytes(zip, name)?).ok()
}

/// Reads a part of the package; `None` if missing or unreadable. A part
/// inflated just before on this thread (the copy reads the same parts) is
/// not inflated again ([`crate::inflated`]).
pub(super) fn read_part_bytes(zip: &mut Zip<'_>, name: &str) -> Option<Vec<u8>> {
    let index = zip.index_for_name(name)?;
    match crate::inflated::inflate_entry(zip, index, u64::MAX, MAX_PART).ok()? {
        crate::inflated::Entry::Content(bytes) => Some(bytes),
        crate::inflated::Entry::DeclaredOver => None,
    }
}

/// The value of the attribute whose local name is `key`. Every attribute of
/// the element is checked, so a malformed or duplicated one is an error
/// wherever it stands (as it is for the patcher, which reads the same
/// elements strictly).
pub(super) fn attr(e: &BytesStart<'_>, key: &str) -> Result<Option<String>, String> {
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
pub(super) fn attrs<const N: usize>(
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
pub(super) fn check_attrs(e: &BytesStart<'_>) -> Result<(), String> {
    attrs(e, []).map(|_| ())
}

/// An OOXML boolean attribute that is set (`1` or `true`).
pub(super) fn is_true(v: Option<String>) -> bool {
    v.is_some_and(|v| matches!(v.trim(), "1" | "true"))
}

pub(super) fn attr_u32(e: &BytesStart<'_>, key: &str) -> Result<Option<u32>, String> {
    Ok(attr(e, key)?.and_then(|v| v.trim().parse().ok()))
}

/// The package-level facts this module needs.
pub(super) struct Package {
    /// Worksheets in workbook order: name and part (`None` when no part
    /// belongs to it).
    pub(super) sheets: Vec<(String, Option<String>)>,
    /// The style sheet part's bytes, when it could be read: inflated once
    /// for the borders here and the font palette
    /// ([`super::styles::font_palette`]).
    pub(super) styles: Option<Vec<u8>>,
    /// The theme part, if the workbook names one.
    pub(super) theme: Option<String>,
    /// The shared strings part, if the workbook names one.
    pub(super) shared_strings: Option<String>,
    /// Borders of each `cellXfs` entry, by index.
    pub(super) xf_borders: Vec<Edges>,
}

impl Package {
    pub(super) fn read(zip: &mut Zip<'_>, path: &Path) -> Result<Package, ReadError> {
        let bad = |reason: String| ReadError::NotAWorkbook {
            path: PathBuf::from(path),
            reason,
        };
        // The main part: from the package relationships, else the default.
        let workbook_part = read_part(zip, "_rels/.rels")
            .and_then(|rels| package::parse_rels(&rels, "").ok())
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
        let rels = read_part(zip, &package::rels_part_of(&workbook_part)).unwrap_or_default();
        let rels = package::parse_rels(&rels, &workbook_part)
            .map_err(|e| bad(format!("{}: {e}", package::rels_part_of(&workbook_part))))?;
        let targets: HashMap<&str, (&str, &str)> = rels
            .iter()
            .map(|r| (r.id.as_str(), (r.kind.as_str(), r.target.as_str())))
            .collect();
        let entries =
            package::parse_sheets(&workbook).map_err(|e| bad(format!("workbook part: {e}")))?;
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
        let styles = read_part_bytes(zip, &styles);
        let xf_borders = match styles.as_deref().map(std::str::from_utf8) {
            Some(Ok(xml)) => parse_xf_borders(xml).map_err(|e| bad(format!("styles: {e}")))?,
            _ => Vec::new(),
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
pub(super) struct XmlText {
    pub(super) text: String,
    pub(super) unreadable: bool,
}

impl XmlText {
    pub(super) fn push_event(&mut self, event: &Event<'_>) {
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
pub(super) fn unescape_ooxml(text: String) -> String {
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
