//! The package around a workbook's parts (Open Packaging Conventions):
//! relationships, where they point, and the workbook part's list of sheets.
//! Shared by reading ([`crate::workbook`]) and writing ([`crate::annotate`]),
//! so both find a sheet's part the same way: through `workbook.xml` and its
//! relationships, never by file name.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// The unescaped value of the attribute whose qualified name is `key`.
pub(crate) fn attr(e: &BytesStart<'_>, key: &str) -> Result<Option<String>, quick_xml::Error> {
    for a in e.attributes() {
        let a = a?;
        if a.key.as_ref() == key {
            return Ok(Some(
                a.normalized_value(quick_xml::XmlVersion::Implicit1_0)?
                    .into_owned(),
            ));
        }
    }
    Ok(None)
}

/// The unescaped value of the first attribute whose local name is `local`
/// and which carries a namespace prefix (such as `r:id`).
pub(crate) fn prefixed_attr(
    e: &BytesStart<'_>,
    local: &str,
) -> Result<Option<String>, quick_xml::Error> {
    for a in e.attributes() {
        let a = a?;
        if a.key.prefix().is_some() && a.key.local_name().as_ref() == local {
            return Ok(Some(
                a.normalized_value(quick_xml::XmlVersion::Implicit1_0)?
                    .into_owned(),
            ));
        }
    }
    Ok(None)
}

/// One `<Relationship>` of a `.rels` part.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Relationship {
    pub id: String,
    pub kind: String,
    /// The target resolved to a part name (no leading `/`); empty for
    /// external targets.
    pub target: String,
}

/// One `<sheet>` of the workbook part.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SheetEntry {
    pub name: String,
    pub rel_id: String,
    /// The `sheetId` (what the calculation chain calls the sheet).
    pub sheet_id: Option<u32>,
}

/// The `.rels` part that holds the relationships of `part`.
pub(crate) fn rels_part_of(part: &str) -> String {
    match part.rfind('/') {
        Some(i) => format!("{}/_rels/{}.rels", &part[..i], &part[i + 1..]),
        None => format!("_rels/{part}.rels"),
    }
}

/// Resolves a relationship target against the part that owns the
/// relationships (`source`, `""` for the package root).
pub(crate) fn resolve_target(source: &str, target: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let rest = if let Some(abs) = target.strip_prefix('/') {
        abs
    } else {
        if let Some(i) = source.rfind('/') {
            parts.extend(source[..i].split('/').filter(|s| !s.is_empty()));
        }
        target
    };
    for seg in rest.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// Reads a `.rels` part; `source` is the part that owns it.
pub(crate) fn parse_rels(xml: &str, source: &str) -> Result<Vec<Relationship>, quick_xml::Error> {
    let mut reader = Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        match reader.read_event()? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "Relationship" => {
                let id = attr(&e, "Id")?.unwrap_or_default();
                let kind = attr(&e, "Type")?.unwrap_or_default();
                let target = attr(&e, "Target")?.unwrap_or_default();
                let external =
                    attr(&e, "TargetMode")?.is_some_and(|m| m.eq_ignore_ascii_case("External"));
                let target = if external {
                    String::new()
                } else {
                    resolve_target(source, &target)
                };
                out.push(Relationship { id, kind, target });
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// The sheets listed in the workbook part, in order.
pub(crate) fn parse_sheets(xml: &str) -> Result<Vec<SheetEntry>, quick_xml::Error> {
    let mut reader = Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        match reader.read_event()? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "sheet" => {
                let name = attr(&e, "name")?.unwrap_or_default();
                let rel_id = prefixed_attr(&e, "id")?.unwrap_or_default();
                let sheet_id = attr(&e, "sheetId")?.and_then(|v| v.trim().parse().ok());
                out.push(SheetEntry {
                    name,
                    rel_id,
                    sheet_id,
                });
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_resolve_relative_to_their_source_or_absolute() {
        assert_eq!(
            resolve_target("xl/workbook.xml", "worksheets/sheet1.xml"),
            "xl/worksheets/sheet1.xml"
        );
        assert_eq!(
            resolve_target("xl/workbook.xml", "/xl/worksheets/s.xml"),
            "xl/worksheets/s.xml"
        );
        assert_eq!(
            resolve_target("xl/workbook.xml", "../customXml/item.xml"),
            "customXml/item.xml"
        );
        assert_eq!(resolve_target("", "xl/workbook.xml"), "xl/workbook.xml");
        assert_eq!(
            rels_part_of("xl/workbook.xml"),
            "xl/_rels/workbook.xml.rels"
        );
        assert_eq!(rels_part_of("book.xml"), "_rels/book.xml.rels");
    }

    #[test]
    fn relationships_and_sheets_read_back() {
        let rels = r#"<Relationships><Relationship Id="rId1" Type="t/worksheet" Target="worksheets/a.xml"/><Relationship Id="rId9" Type="t/hyperlink" Target="http://x" TargetMode="External"/></Relationships>"#;
        let r = parse_rels(rels, "xl/workbook.xml").unwrap();
        assert_eq!(r[0].target, "xl/worksheets/a.xml");
        assert_eq!(r[1].target, "", "external targets are no parts");
        let wb = r#"<workbook xmlns:r="r"><sheets><sheet name="A &amp; B" sheetId="3" r:id="rId1"/></sheets></workbook>"#;
        let s = parse_sheets(wb).unwrap();
        assert_eq!(
            (s[0].name.as_str(), s[0].rel_id.as_str(), s[0].sheet_id),
            ("A & B", "rId1", Some(3))
        );
    }
}

/// Checks the zip archive's central directory for what would make a copy
/// lose entries: two entries with the same name (names compared as OPC
/// does, ignoring ASCII case), or an end record whose entry count differs
/// from the entries the central directory lists. `Err` says which, in
/// words. Archives too damaged to find a central directory in, and ZIP64
/// archives, are left to the zip reader.
pub(crate) fn check_central_directory<R: std::io::Read + std::io::Seek>(
    input: &mut R,
) -> Result<(), String> {
    use std::io::SeekFrom;
    const EOCD: &[u8] = b"PK\x05\x06";
    const CDH: &[u8] = b"PK\x01\x02";
    let io = |e: std::io::Error| format!("cannot read the zip archive: {e}");
    let len = input.seek(SeekFrom::End(0)).map_err(io)?;
    let tail_len = len.min(22 + 65_535);
    input.seek(SeekFrom::Start(len - tail_len)).map_err(io)?;
    let mut tail = vec![0u8; tail_len as usize];
    input.read_exact(&mut tail).map_err(io)?;
    // The end record: the last signature whose comment reaches the end.
    let Some(at) = (0..tail.len().saturating_sub(21)).rev().find(|&i| {
        tail[i..].starts_with(EOCD)
            && i + 22 + u16::from_le_bytes([tail[i + 20], tail[i + 21]]) as usize == tail.len()
    }) else {
        return Ok(());
    };
    let u16_at = |i: usize| u16::from_le_bytes([tail[at + i], tail[at + i + 1]]);
    let u32_at = |i: usize| {
        u32::from_le_bytes([
            tail[at + i],
            tail[at + i + 1],
            tail[at + i + 2],
            tail[at + i + 3],
        ])
    };
    let (disk_entries, entries, cd_size, cd_offset) =
        (u16_at(8), u16_at(10), u32_at(12), u32_at(16));
    if entries == u16::MAX || cd_size == u32::MAX || cd_offset == u32::MAX {
        return Ok(()); // ZIP64: counts live elsewhere
    }
    let eocd_pos = len - tail_len + at as u64;
    // Data may precede the archive (self-extractors): the directory ends
    // where the end record starts.
    let Some(cd_start) = eocd_pos.checked_sub(u64::from(cd_size)) else {
        return Err("the central directory is larger than the file".into());
    };
    input.seek(SeekFrom::Start(cd_start)).map_err(io)?;
    let mut cd = vec![0u8; cd_size as usize];
    input.read_exact(&mut cd).map_err(io)?;
    let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut count = 0usize;
    let mut i = 0usize;
    while i + 46 <= cd.len() && cd[i..].starts_with(CDH) {
        let n = |k: usize| u16::from_le_bytes([cd[i + k], cd[i + k + 1]]) as usize;
        let (name_len, extra_len, comment_len) = (n(28), n(30), n(32));
        let Some(name) = cd.get(i + 46..i + 46 + name_len) else {
            break;
        };
        let name = String::from_utf8_lossy(name).into_owned();
        if !names.insert(name.to_ascii_lowercase()) {
            return Err(format!("two entries are named {name}"));
        }
        count += 1;
        i += 46 + name_len + extra_len + comment_len;
    }
    if i != cd.len() {
        return Err("the central directory is damaged".into());
    }
    if count != usize::from(entries) || (disk_entries != entries && disk_entries != 0) {
        return Err(format!(
            "the end record counts {entries} entries but the central directory lists {count}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod zip_tests {
    use super::check_central_directory;
    use std::io::{Cursor, Write};

    fn archive(names: &[&str]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for n in names {
            w.start_file(*n, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(b"x").unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn sound_archives_pass_and_miscounted_ones_do_not() {
        let mut ok = archive(&["a.xml", "b/c.xml", "d"]);
        assert_eq!(check_central_directory(&mut Cursor::new(&ok)), Ok(()));
        let eocd = ok.len() - 22;
        ok[eocd + 8] = 2;
        ok[eocd + 10] = 2;
        let err = check_central_directory(&mut Cursor::new(&ok)).unwrap_err();
        assert!(
            err.contains("counts 2 entries") && err.contains("lists 3"),
            "{err}"
        );
        // Not a zip at all: left to the zip reader.
        assert_eq!(check_central_directory(&mut Cursor::new(b"hello")), Ok(()));
    }

    #[test]
    fn duplicate_names_are_found() {
        let mut bytes = archive(&["xl/a.xml", "xl/b.xml"]);
        // Rename the second entry (local header and directory) to the first.
        let text = replace_bytes(&mut bytes, b"xl/b.xml", b"xl/A.xml");
        assert_eq!(text, 2);
        let err = check_central_directory(&mut Cursor::new(&bytes)).unwrap_err();
        assert!(err.contains("two entries are named xl/A.xml"), "{err}");
    }

    fn replace_bytes(bytes: &mut [u8], from: &[u8], to: &[u8]) -> usize {
        let mut n = 0;
        for i in 0..bytes.len() - from.len() {
            if &bytes[i..i + from.len()] == from {
                bytes[i..i + from.len()].copy_from_slice(to);
                n += 1;
            }
        }
        n
    }
}
