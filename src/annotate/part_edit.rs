//! The patcher's edits of the parts around the sheets, as text: their
//! relationships and the workbook part's list of sheets (read through
//! [`crate::package`], with the patcher's errors), elements removed or added
//! before a root's end, content type overrides, and the recalculation flag
//! in `xl/workbook.xml`.

use quick_xml::events::Event;
use quick_xml::Reader;

use super::xml::{attr, prefix_of, write_start_tag};
use super::AnnotateError;

pub(crate) use crate::package::{rels_part_of, Relationship, SheetEntry};

pub(crate) fn xml_err(part: &str) -> impl Fn(quick_xml::Error) -> AnnotateError + '_ {
    move |source| AnnotateError::Xml {
        part: part.to_string(),
        source,
    }
}

/// Reads a `.rels` part; `source` is the part that owns it.
pub(crate) fn parse_rels(
    part: &str,
    xml: &str,
    source: &str,
) -> Result<Vec<Relationship>, AnnotateError> {
    crate::package::parse_rels(xml, source).map_err(xml_err(part))
}

/// The sheets listed in the workbook part, in order.
pub(crate) fn parse_sheets(part: &str, xml: &str) -> Result<Vec<SheetEntry>, AnnotateError> {
    crate::package::parse_sheets(xml).map_err(xml_err(part))
}

/// The part without the elements named `local` whose attribute `key`
/// satisfies `pick` (each removed with its content, if any).
pub(crate) fn remove_elements(
    part: &str,
    xml: &str,
    local: &str,
    key: &str,
    pick: impl Fn(&str) -> bool,
) -> Result<String, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out = String::with_capacity(xml.len());
    let mut copied = 0usize;
    // Depth of an element being removed, counted from its start tag.
    let mut removing: Option<usize> = None;
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        if let Some(d) = removing.as_mut() {
            match ev {
                Event::Start(_) => *d += 1,
                Event::End(_) => {
                    *d -= 1;
                    if *d == 0 {
                        removing = None;
                        copied = end;
                    }
                }
                Event::Eof => break,
                _ => {}
            }
            continue;
        }
        let (e, empty) = match ev {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::Eof => break,
            _ => continue,
        };
        if e.local_name().as_ref() == local
            && attr(&e, key).map_err(&err)?.is_some_and(|v| pick(&v))
        {
            out.push_str(&xml[copied..start]);
            copied = end;
            if !empty {
                removing = Some(1);
            }
        }
    }
    out.push_str(&xml[copied.min(xml.len())..]);
    Ok(out)
}

/// The values of attribute `key` of every element named `local`.
pub(crate) fn attr_values(
    part: &str,
    xml: &str,
    local: &str,
    key: &str,
) -> Result<Vec<String>, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        match reader.read_event().map_err(&err)? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == local => {
                out.extend(attr(&e, key).map_err(&err)?);
            }
            Event::Eof => return Ok(out),
            _ => {}
        }
    }
}

/// The children of `<workbook>` in the schema's order (CT_Workbook).
const WORKBOOK_CHILDREN: &[&str] = &[
    "fileVersion",
    "fileSharing",
    "workbookPr",
    "workbookProtection",
    "bookViews",
    "sheets",
    "functionGroups",
    "externalReferences",
    "definedNames",
    "calcPr",
    "oleSize",
    "customWorkbookViews",
    "pivotCaches",
    "smartTagPr",
    "smartTagTypes",
    "webPublishing",
    "fileRecoveryPr",
    "webPublishObjects",
    "extLst",
];

/// Whether the schema puts `<workbook>`'s child `name` after its child
/// `than` (false for a name it does not list).
pub(crate) fn comes_after(name: &str, than: &str) -> bool {
    let at = |n: &str| WORKBOOK_CHILDREN.iter().position(|c| *c == n);
    matches!((at(name), at(than)), (Some(a), Some(b)) if a > b)
}

/// The workbook part with `<calcPr fullCalcOnLoad="1"/>`: the attribute is
/// set on an existing `calcPr`, or a new element is put where the schema
/// wants it. Every other byte is kept.
pub(crate) fn set_full_calc_on_load(part: &str, xml: &str) -> Result<String, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut depth = 0usize;
    let mut root_prefix = String::new();
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        let (e, empty) = match ev {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Ok(insert_calc_pr(xml, start, &root_prefix));
                }
                continue;
            }
            Event::Eof => {
                return Err(AnnotateError::Malformed {
                    part: part.to_string(),
                    reason: "no <workbook> element".to_string(),
                })
            }
            _ => continue,
        };
        if depth == 0 {
            root_prefix = prefix_of(&e);
        } else if depth == 1 {
            let name = e.local_name();
            if name.as_ref() == "calcPr" {
                // Already set: the part stays as it is, byte for byte.
                let set = attr(&e, "fullCalcOnLoad").map_err(&err)?;
                if matches!(set.as_deref().map(str::trim), Some("1" | "true")) {
                    return Ok(xml.to_string());
                }
                let mut out = String::with_capacity(xml.len() + 24);
                out.push_str(&xml[..start]);
                write_start_tag(&mut out, &e, &[("fullCalcOnLoad", "1")], &[], empty)
                    .map_err(&err)?;
                out.push_str(&xml[end..]);
                return Ok(out);
            }
            if comes_after(name.as_ref(), "calcPr") {
                return Ok(insert_calc_pr(xml, start, &root_prefix));
            }
        }
        if !empty {
            depth += 1;
        }
    }
}

fn insert_calc_pr(xml: &str, at: usize, prefix: &str) -> String {
    let mut out = String::with_capacity(xml.len() + 32);
    out.push_str(&xml[..at]);
    out.push_str(&format!("<{prefix}calcPr fullCalcOnLoad=\"1\"/>"));
    out.push_str(&xml[at..]);
    out
}

/// The reader's byte offset (the input is in memory, so it fits a usize).
pub(crate) fn pos(reader: &Reader<&[u8]>) -> usize {
    usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX)
}

/// `xml` with `text` put just before the root element's end tag, found
/// by reading the document (a damaged part, with no such tag or not
/// well-formed, is refused rather than patched blind).
pub(crate) fn insert_before_root_end(
    part: &str,
    xml: &str,
    text: &str,
) -> Result<String, AnnotateError> {
    let malformed = |reason: String| AnnotateError::Malformed {
        part: part.to_string(),
        reason,
    };
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut depth, mut at) = (0usize, None);
    loop {
        let before = reader.buffer_position() as usize;
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(_)) => depth += 1,
            Ok(quick_xml::events::Event::End(_)) => {
                depth = depth.saturating_sub(1);
                if depth == 0 && at.is_none() {
                    at = Some(before);
                }
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(malformed(e.to_string())),
        }
    }
    let at = at
        .filter(|_| depth == 0)
        .ok_or_else(|| malformed("no root end tag".to_string()))?;
    let mut out = String::with_capacity(xml.len() + text.len());
    out.push_str(&xml[..at]);
    out.push_str(text);
    out.push_str(&xml[at..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rels_and_sheets_are_read_with_their_ids() {
        let rels = r#"<Relationships xmlns="x"><Relationship Id="rId1" Type="http://t/worksheet" Target="worksheets/a.xml"/><Relationship Id="rId9" Type="http://t/hyperlink" Target="http://e.com" TargetMode="External"/></Relationships>"#;
        let r = parse_rels("p", rels, "xl/workbook.xml").unwrap();
        assert_eq!(r[0].target, "xl/worksheets/a.xml");
        assert_eq!(r[1].target, "");
        let wb = r#"<workbook xmlns:r="R"><sheets><sheet name="A &amp; B" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
        let s = parse_sheets("w", wb).unwrap();
        assert_eq!(
            s,
            vec![SheetEntry {
                name: "A & B".into(),
                rel_id: "rId1".into(),
                sheet_id: Some(1),
            }]
        );
    }

    #[test]
    fn picked_elements_are_removed_with_their_content() {
        let ct = r#"<Types><Default Extension="xml" ContentType="a"/><Override PartName="/xl/calcChain.xml" ContentType="c"/><Override PartName="/xl/x.xml"><y/></Override></Types>"#;
        let out = remove_elements("t", ct, "Override", "PartName", |v| {
            v.eq_ignore_ascii_case("/xl/calcchain.xml") || v == "/xl/x.xml"
        })
        .unwrap();
        assert_eq!(
            out,
            r#"<Types><Default Extension="xml" ContentType="a"/></Types>"#
        );
    }

    #[test]
    fn truncated_workbook_parts_give_errors_not_panics() {
        let wb = r#"<workbook xmlns:r="R"><sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="1"/><extLst/></workbook>"#;
        for cut in 0..wb.len() {
            let _ = set_full_calc_on_load("w", &wb[..cut]);
            let _ = parse_sheets("w", &wb[..cut]);
            let _ = parse_rels("r", &wb[..cut], "xl/workbook.xml");
            let _ = remove_elements("w", &wb[..cut], "sheet", "name", |_| true);
        }
    }

    #[test]
    fn a_calc_pr_with_the_flag_set_is_left_byte_for_byte() {
        for wb in [
            r#"<workbook><sheets/><calcPr calcId="1" fullCalcOnLoad="1" /></workbook>"#,
            r#"<workbook><sheets/><calcPr fullCalcOnLoad = 'true'></calcPr></workbook>"#,
        ] {
            assert_eq!(set_full_calc_on_load("w", wb).unwrap(), wb);
        }
    }

    #[test]
    fn existing_calc_pr_gets_the_flag_and_keeps_its_attributes() {
        let wb = r#"<workbook><sheets/><calcPr calcId="124519" fullCalcOnLoad="0"/></workbook>"#;
        assert_eq!(
            set_full_calc_on_load("w", wb).unwrap(),
            r#"<workbook><sheets/><calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>"#
        );
    }

    #[test]
    fn missing_calc_pr_goes_after_defined_names_and_before_ext_lst() {
        let wb = r#"<x:workbook><x:sheets><x:sheet/></x:sheets><x:definedNames/><x:extLst><x:ext/></x:extLst></x:workbook>"#;
        assert_eq!(
            set_full_calc_on_load("w", wb).unwrap(),
            r#"<x:workbook><x:sheets><x:sheet/></x:sheets><x:definedNames/><x:calcPr fullCalcOnLoad="1"/><x:extLst><x:ext/></x:extLst></x:workbook>"#
        );
        let wb = r#"<?xml version="1.0"?><workbook><sheets><sheet/></sheets></workbook>"#;
        assert_eq!(
            set_full_calc_on_load("w", wb).unwrap(),
            r#"<?xml version="1.0"?><workbook><sheets><sheet/></sheets><calcPr fullCalcOnLoad="1"/></workbook>"#
        );
    }
}
