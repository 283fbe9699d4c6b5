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
