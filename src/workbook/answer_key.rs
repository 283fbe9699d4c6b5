//! The answer key of a puzzle book made by `xlsudoku generate`: the sheet
//! of solutions at its back, which holds no puzzles.
//!
//! The book names that sheet in a custom document property,
//! [`ANSWER_SHEET_PROPERTY`] (`docProps/custom.xml`). Custom properties are
//! kept by Excel and LibreOffice when the book is edited and saved, so the
//! key is still known after a person has filled in a few puzzles; a sheet
//! renamed since is no longer the key, and is read like any other.

use std::io::{Cursor, Read};

use quick_xml::events::Event;
use quick_xml::Reader;

/// The custom property naming a book's sheet of solutions.
pub const ANSWER_SHEET_PROPERTY: &str = "xlsudoku answer sheet";

/// The custom-properties part, where Excel, LibreOffice and
/// rust_xlsxwriter put it.
const CUSTOM_PART: &str = "docProps/custom.xml";

/// The largest custom-properties part read.
const LIMIT: u64 = 1 << 20;

/// The name of the book's sheet of solutions, if the workbook names one.
pub fn answer_sheet(bytes: &[u8]) -> Option<String> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
    let part = zip.by_name(CUSTOM_PART).ok()?;
    let mut xml = String::new();
    part.take(LIMIT).read_to_string(&mut xml).ok()?;
    property(&xml, ANSWER_SHEET_PROPERTY)
}

/// The text value of the custom property `name` in `xml`.
fn property(xml: &str, name: &str) -> Option<String> {
    let mut reader = Reader::from_str(xml);
    let mut inside = false;
    let mut value = String::new();
    loop {
        match reader.read_event().ok()? {
            Event::Start(e) if e.local_name().as_ref() == "property" => {
                inside = crate::package::attr(&e, "name").ok()?.as_deref() == Some(name);
            }
            Event::Text(t) if inside => value.push_str(&t.xml10_content()),
            Event::GeneralRef(r) if inside => {
                let name = r.xml10_content();
                match r.resolve_char_ref().ok()? {
                    Some(c) => value.push(c),
                    None => value.push_str(quick_xml::escape::resolve_predefined_entity(&name)?),
                }
            }
            Event::End(e) if e.local_name().as_ref() == "property" && inside => {
                return Some(value).filter(|v| !v.is_empty());
            }
            Event::Eof => return None,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_property_is_found_by_name_only() {
        let xml = r#"<Properties xmlns:vt="v"><property fmtid="x" pid="2" name="Seed"><vt:lpwstr>7</vt:lpwstr></property><property fmtid="x" pid="3" name="xlsudoku answer sheet"><vt:lpwstr>Solutions &amp; more</vt:lpwstr></property></Properties>"#;
        assert_eq!(
            property(xml, ANSWER_SHEET_PROPERTY).as_deref(),
            Some("Solutions & more")
        );
        assert_eq!(property(xml, "Seed").as_deref(), Some("7"));
        assert_eq!(property(xml, "Other"), None);
        assert_eq!(property("<not xml", ANSWER_SHEET_PROPERTY), None);
        assert_eq!(answer_sheet(b"not a zip"), None);
    }
}
