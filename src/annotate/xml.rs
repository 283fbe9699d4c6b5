//! Small XML helpers shared by the part patchers: reading attributes,
//! rebuilding a start tag with some attributes changed, and escaping text.

use quick_xml::events::BytesStart;

pub(crate) use crate::package::attr;

/// The namespace prefix of an element with its colon (`"x:"`), or `""`.
pub(crate) fn prefix_of(e: &BytesStart<'_>) -> String {
    match e.name().prefix() {
        Some(p) => format!("{}:", p.as_ref()),
        None => String::new(),
    }
}

/// Writes the start tag `e` again into `out`, with the attributes named in
/// `set` given new values (already escaped; appended when absent), the
/// attributes named in `drop` left out, and every other attribute kept in
/// its order with its raw value. `empty` writes `<x .../>` rather than `<x ...>`.
pub(crate) fn write_start_tag(
    out: &mut String,
    e: &BytesStart<'_>,
    set: &[(&str, &str)],
    drop: &[&str],
    empty: bool,
) -> Result<(), quick_xml::Error> {
    out.push('<');
    out.push_str(e.name().as_ref());
    // Which of `set` are written: on the stack for the few a caller sets.
    let (mut few, mut many) = ([false; 8], Vec::new());
    let used: &mut [bool] = if set.len() <= few.len() {
        &mut few[..set.len()]
    } else {
        many.resize(set.len(), false);
        &mut many
    };
    for a in e.attributes() {
        let a = a?;
        let key = a.key.as_ref();
        if drop.contains(&key) {
            continue;
        }
        if let Some(i) = set.iter().position(|(k, _)| *k == key) {
            if !used[i] {
                used[i] = true;
                push_attr(out, key, set[i].1);
            }
            continue;
        }
        // The raw value may come from a single-quoted attribute.
        if a.value.contains('"') {
            push_attr(out, key, &a.value.replace('"', "&quot;"));
        } else {
            push_attr(out, key, &a.value);
        }
    }
    for (i, (k, v)) in set.iter().enumerate() {
        if !used[i] {
            push_attr(out, k, v);
        }
    }
    out.push_str(if empty { "/>" } else { ">" });
    Ok(())
}

fn push_attr(out: &mut String, key: &str, value: &str) {
    out.push(' ');
    out.push_str(key);
    out.push_str("=\"");
    out.push_str(value);
    out.push('"');
}

/// Escapes text for element content or attribute values: `&`, `<`, `>`,
/// `"`, and, as Excel does, characters XML 1.0 cannot carry as `_xHHHH_`
/// (a literal `_xHHHH_` in the text gets its underscore escaped so that it
/// reads back as written).
pub(crate) fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for (i, ch) in s.char_indices() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '_' if looks_like_excel_escape(&s[i..]) => out.push_str("_x005F_"),
            // A raw CR would read back as LF (end-of-line normalisation).
            '\r' => out.push_str("_x000D_"),
            '\t' | '\n' => out.push(ch),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                out.push_str(&format!("_x{:04X}_", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// True when `s` starts with `_xHHHH_` (four hex digits).
fn looks_like_excel_escape(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 7
        && b[0] == b'_'
        && b[1] == b'x'
        && b[2..6].iter().all(u8::is_ascii_hexdigit)
        && b[6] == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;
    use quick_xml::events::Event;
    use quick_xml::Reader;

    fn first_tag(xml: &str) -> BytesStart<'_> {
        let mut r = Reader::from_str(xml);
        loop {
            match r.read_event() {
                Ok(Event::Start(e)) | Ok(Event::Empty(e)) => return e,
                Ok(Event::Eof) | Err(_) => panic!("no tag in {xml}"),
                _ => {}
            }
        }
    }

    #[test]
    fn rebuilt_tag_replaces_drops_and_appends_attributes_in_order() {
        let e = first_tag(r#"<c r="B2" t='s' s="3" ph="1"/>"#);
        let mut out = String::new();
        write_start_tag(&mut out, &e, &[("s", "7"), ("x", "1")], &["t"], false).unwrap();
        assert_eq!(out, r#"<c r="B2" s="7" ph="1" x="1">"#);
    }

    #[test]
    fn single_quoted_values_with_double_quotes_stay_well_formed() {
        let e = first_tag(r#"<a v='say "hi"'/>"#);
        let mut out = String::new();
        write_start_tag(&mut out, &e, &[], &[], true).unwrap();
        assert_eq!(out, r#"<a v="say &quot;hi&quot;"/>"#);
    }

    #[test]
    fn text_escaping_covers_markup_quotes_controls_and_excel_escapes() {
        assert_eq!(
            escape_text(r#"a<b & "c">"#),
            "a&lt;b &amp; &quot;c&quot;&gt;"
        );
        assert_eq!(escape_text("x\u{1}y\tz"), "x_x0001_y\tz");
        assert_eq!(escape_text("a\r\nb"), "a_x000D_\nb");
        assert_eq!(escape_text("_x0041_ _x"), "_x005F_x0041_ _x");
    }

    #[test]
    fn prefixed_attribute_lookup_finds_relationship_ids() {
        use crate::package::prefixed_attr;
        let e = first_tag(r#"<sheet name="A" sheetId="1" r:id="rId3"/>"#);
        assert_eq!(prefixed_attr(&e, "id").unwrap().as_deref(), Some("rId3"));
        assert_eq!(attr(&e, "name").unwrap().as_deref(), Some("A"));
        assert_eq!(attr(&e, "id").unwrap(), None);
    }
}
