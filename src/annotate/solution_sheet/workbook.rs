//! The workbook part's side of the sheet of solutions: its `<sheet>` in the
//! sheet list, its print area (a `_xlnm.Print_Area` defined name), and the
//! views and defined names that follow sheet positions, edited as splices
//! of the part's text.

use quick_xml::events::Event;
use quick_xml::Reader;

use super::*;
use crate::annotate::part_edit::{comes_after, pos, xml_err};
use crate::annotate::xml::{attr, escape_text, prefix_of, write_start_tag};
use crate::annotate::AnnotateError;

/// Where the elements of `<workbook>` are, as the patcher needs them.
#[derive(Debug, Default)]
pub(crate) struct WorkbookLayout {
    /// The root element's prefix (`"x:"` or `""`).
    pub(crate) prefix: String,
    /// The prefix the root binds to the relationships namespace (the
    /// transitional one or the strict one), if any.
    pub(crate) r_prefix: Option<String>,
    /// Whether the root binds the strict spreadsheet namespace.
    pub(crate) strict: bool,
    /// The start of `</sheets>`.
    pub(crate) sheets_close: Option<usize>,
    /// The `<sheet>` elements: (name, byte range).
    pub(crate) sheets: Vec<(String, std::ops::Range<usize>)>,
    /// The indices of the sheets that are hidden (`state="hidden"` or
    /// `"veryHidden"`).
    pub(crate) hidden: Vec<usize>,
    /// The start of `</definedNames>` (or the whole empty `<definedNames/>`).
    pub(crate) names_close: Option<std::ops::Range<usize>>,
    /// Where a new `<definedNames>` goes: before the first child that the
    /// schema puts after it, else before the root's end tag.
    pub(crate) names_at: Option<usize>,
}

pub(crate) fn workbook_layout(part: &str, xml: &str) -> Result<WorkbookLayout, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out = WorkbookLayout::default();
    let mut depth = 0usize;
    // The child of the root we are in.
    let mut in_child: Option<String> = None;
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        match ev {
            Event::Start(e) | Event::Empty(e) => {
                let empty = xml.as_bytes().get(end.wrapping_sub(2)) == Some(&b'/');
                let local = e.local_name().as_ref().to_string();
                if depth == 0 {
                    out.prefix = prefix_of(&e);
                    for a in e.attributes() {
                        let a = a.map_err(|e| err(e.into()))?;
                        let key = a.key.as_ref().to_string();
                        let value = a.value.as_ref();
                        if let Some(p) = key.strip_prefix("xmlns:") {
                            if value == RELATIONSHIPS_NS || value == STRICT_RELATIONSHIPS_NS {
                                out.r_prefix = Some(p.to_string());
                            }
                        }
                        if (key == "xmlns" || key.starts_with("xmlns:")) && value == STRICT_MAIN_NS
                        {
                            out.strict = true;
                        }
                    }
                } else if depth == 1 {
                    if out.names_at.is_none() && comes_after(&local, "definedNames") {
                        out.names_at = Some(start);
                    }
                    if local == "definedNames" && empty {
                        out.names_close = Some(start..end);
                    }
                    if !empty {
                        in_child = Some(local.clone());
                    }
                } else if depth == 2 && in_child.as_deref() == Some("sheets") && local == "sheet" {
                    let name = attr(&e, "name").map_err(&err)?.unwrap_or_default();
                    let state = attr(&e, "state").map_err(&err)?;
                    if matches!(state.as_deref(), Some("hidden" | "veryHidden")) {
                        out.hidden.push(out.sheets.len());
                    }
                    let stop = if empty {
                        end
                    } else {
                        // A <sheet> with content: up to its end tag.
                        let mut d = 1usize;
                        let mut stop = end;
                        while d > 0 {
                            match reader.read_event().map_err(&err)? {
                                Event::Start(_) => d += 1,
                                Event::End(_) => d -= 1,
                                Event::Eof => break,
                                _ => {}
                            }
                            stop = pos(&reader);
                        }
                        stop
                    };
                    out.sheets.push((name, start..stop));
                    continue;
                }
                if !empty {
                    depth += 1;
                }
            }
            Event::End(e) => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    match e.local_name().as_ref() {
                        "sheets" => out.sheets_close = Some(start),
                        "definedNames" => out.names_close = Some(start..start),
                        _ => {}
                    }
                    in_child = None;
                } else if depth == 0 && out.names_at.is_none() {
                    out.names_at = Some(start);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// An edit of the workbook part's text: replace `range` with `text`.
pub(crate) type Splice = (std::ops::Range<usize>, String);

pub(crate) fn apply(xml: &str, mut splices: Vec<Splice>) -> String {
    splices.sort_by_key(|(r, _)| (r.start, r.end));
    let mut out = String::with_capacity(xml.len() + 256);
    let mut at = 0usize;
    for (r, text) in splices {
        let from = r.start.max(at);
        out.push_str(&xml[at..from]);
        out.push_str(&text);
        at = r.end.max(from);
    }
    out.push_str(&xml[at..]);
    out
}

/// The `<definedName>` elements of the workbook part, rewritten: those
/// local to sheet `index` named [`PRINT_AREA`] go (all names local to it
/// when `removed`), local sheet indices past a removed sheet move down by
/// one, and `add` (a new print area for sheet `index`) comes in.
pub(crate) fn defined_names_splices(
    part: &str,
    xml: &str,
    index: usize,
    removed: bool,
    add: Option<&str>,
    layout: &WorkbookLayout,
) -> Result<Vec<Splice>, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out: Vec<Splice> = Vec::new();
    let mut depth = 0usize;
    let mut in_names = false;
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        match ev {
            Event::Start(e) | Event::Empty(e) => {
                let empty = xml.as_bytes().get(end.wrapping_sub(2)) == Some(&b'/');
                if depth == 1 && e.local_name().as_ref() == "definedNames" && !empty {
                    in_names = true;
                }
                if depth == 2 && in_names && e.local_name().as_ref() == "definedName" {
                    let local: Option<usize> = attr(&e, "localSheetId")
                        .map_err(&err)?
                        .and_then(|v| v.trim().parse().ok());
                    let name = attr(&e, "name").map_err(&err)?.unwrap_or_default();
                    // The element's end.
                    let mut stop = end;
                    if !empty {
                        let mut d = 1usize;
                        while d > 0 {
                            match reader.read_event().map_err(&err)? {
                                Event::Start(_) => d += 1,
                                Event::End(_) => d -= 1,
                                Event::Eof => break,
                                _ => {}
                            }
                            stop = pos(&reader);
                        }
                    }
                    match local {
                        Some(l)
                            if l == index && (removed || name.eq_ignore_ascii_case(PRINT_AREA)) =>
                        {
                            out.push((start..stop, String::new()));
                        }
                        Some(l) if removed && l > index => {
                            let mut tag = String::new();
                            let v = (l - 1).to_string();
                            write_start_tag(&mut tag, &e, &[("localSheetId", &v)], &[], empty)
                                .map_err(&err)?;
                            out.push((start..end, tag));
                        }
                        _ => {}
                    }
                    continue;
                }
                if !empty {
                    depth += 1;
                }
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    in_names = false;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(value) = add {
        let p = &layout.prefix;
        let name = format!(
            r#"<{p}definedName name="{PRINT_AREA}" localSheetId="{index}">{}</{p}definedName>"#,
            escape_text(value)
        );
        match &layout.names_close {
            // `<definedNames/>`: replaced by a full element.
            Some(r) if r.start != r.end => {
                out.push((
                    r.clone(),
                    format!("<{p}definedNames>{name}</{p}definedNames>"),
                ));
            }
            Some(r) => out.push((r.clone(), name)),
            None => {
                let at = layout.names_at.ok_or_else(|| AnnotateError::Malformed {
                    part: part.to_string(),
                    reason: "no <workbook> element".to_string(),
                })?;
                out.push((at..at, format!("<{p}definedNames>{name}</{p}definedNames>")));
            }
        }
    }
    Ok(out)
}

/// The workbook part with a new sheet `name` (last in the list, `sheetId`
/// `sheet_id`, relationship `rel_id`) and its print area.
pub(crate) fn add_sheet(
    part: &str,
    xml: &str,
    name: &str,
    sheet_id: u32,
    rel_id: &str,
    area: &str,
) -> Result<String, AnnotateError> {
    let layout = workbook_layout(part, xml)?;
    let close = layout
        .sheets_close
        .ok_or_else(|| AnnotateError::Unsupported {
            part: part.to_string(),
            reason: "the workbook's sheet list (<sheets>) is missing or empty".to_string(),
        })?;
    let p = &layout.prefix;
    let (r, ns) = match &layout.r_prefix {
        Some(r) => (r.clone(), String::new()),
        None => {
            let ns = if layout.strict {
                STRICT_RELATIONSHIPS_NS
            } else {
                RELATIONSHIPS_NS
            };
            ("r".to_string(), format!(r#" xmlns:r="{ns}""#))
        }
    };
    let sheet = format!(
        r#"<{p}sheet name="{}" sheetId="{sheet_id}" {r}:id="{rel_id}"{ns}/>"#,
        escape_text(name)
    );
    let index = layout.sheets.len();
    let mut splices = defined_names_splices(part, xml, index, false, Some(area), &layout)?;
    splices.push((close..close, sheet));
    Ok(apply(xml, splices))
}

/// The workbook part with sheet `name`'s print area set to `area`.
pub(crate) fn set_print_area(
    part: &str,
    xml: &str,
    name: &str,
    area: &str,
) -> Result<String, AnnotateError> {
    let layout = workbook_layout(part, xml)?;
    let index = sheet_index(part, &layout, name)?;
    let splices = defined_names_splices(part, xml, index, false, Some(area), &layout)?;
    Ok(apply(xml, splices))
}

/// The workbook part without sheet `name`: its `<sheet>` and the names
/// local to it go; later sheets' local names follow their sheets, and so
/// do the window's active and first tabs (`<workbookView activeTab
/// firstSheet>`, indices into the sheet list too). Refused when no
/// visible sheet would be left.
pub(crate) fn remove_sheet(part: &str, xml: &str, name: &str) -> Result<String, AnnotateError> {
    let layout = workbook_layout(part, xml)?;
    let index = sheet_index(part, &layout, name)?;
    if (0..layout.sheets.len()).all(|i| i == index || layout.hidden.contains(&i)) {
        return Err(AnnotateError::Unsupported {
            part: part.to_string(),
            reason: format!(
                "taking the sheet '{name}' out would leave no visible sheet, which Excel refuses; \
                 show a sheet first (or keep --answers sheet)"
            ),
        });
    }
    let mut splices = defined_names_splices(part, xml, index, true, None, &layout)?;
    splices.extend(view_splices(part, xml, index, layout.sheets.len())?);
    splices.push((layout.sheets[index].1.clone(), String::new()));
    let out = apply(xml, splices);
    // A list of names left empty goes (the workbook had none before).
    let p = &layout.prefix;
    Ok(out.replacen(&format!("<{p}definedNames></{p}definedNames>"), "", 1))
}

/// The `<workbookView>` start tags whose sheet indices (`activeTab`,
/// `firstSheet`) change when sheet `index` of `count` goes: later sheets
/// move down by one; the removed sheet's own index goes to the sheet that
/// takes its place (the one before it, when it was the last).
pub(crate) fn view_splices(
    part: &str,
    xml: &str,
    index: usize,
    count: usize,
) -> Result<Vec<Splice>, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        let (e, empty) = match ev {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::Eof => break,
            _ => continue,
        };
        if e.local_name().as_ref() != "workbookView" {
            continue;
        }
        let mut set: Vec<(&str, String)> = Vec::new();
        for key in ["activeTab", "firstSheet"] {
            let Some(v) = attr(&e, key)
                .map_err(&err)?
                .and_then(|v| v.trim().parse::<usize>().ok())
            else {
                continue;
            };
            let moved = if v > index || (v == index && index + 1 == count) {
                v.saturating_sub(1)
            } else {
                v
            };
            if moved != v {
                set.push((key, moved.to_string()));
            }
        }
        if !set.is_empty() {
            let set: Vec<(&str, &str)> = set.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let mut tag = String::new();
            write_start_tag(&mut tag, &e, &set, &[], empty).map_err(&err)?;
            out.push((start..end, tag));
        }
    }
    Ok(out)
}

pub(crate) fn sheet_index(
    part: &str,
    layout: &WorkbookLayout,
    name: &str,
) -> Result<usize, AnnotateError> {
    layout
        .sheets
        .iter()
        .position(|(n, _)| n == name)
        .ok_or_else(|| AnnotateError::Malformed {
            part: part.to_string(),
            reason: format!("no sheet named '{name}' in the sheet list"),
        })
}
