//! The answer copy of a grid (`--answers beside`, `--answers at:CELL`)
//! takes the grid's column widths and row heights, so that the copy prints
//! like the grid: each column of the copy gets the width of its grid
//! column (or the sheet's default, when the grid column has none), each
//! row of the copy the height of its grid row. Columns and rows that the
//! copy shares with its grid (a copy beside the grid shares its rows) are
//! left as they are.

use std::collections::{BTreeMap, HashMap};

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::part_edit::{pos, xml_err};
use super::sheet_place::{Item, Place};
use super::xml::{attr, prefix_of, write_start_tag};
use super::AnnotateError;
use crate::address::CellRef;

/// The attributes that make a column's width and a row's height.
const WIDTH: [&str; 2] = ["width", "customWidth"];
const HEIGHT: [&str; 2] = ["ht", "customHeight"];

/// Which columns and rows of a sheet take another's size: copy → grid
/// (0-based), only where the two differ.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Sizes {
    cols: BTreeMap<u32, u32>,
    rows: BTreeMap<u32, u32>,
}

impl Sizes {
    /// From the cells written with another cell's style (the answer
    /// copies: copy cell → (grid cell, blue)).
    pub(super) fn of(from: &HashMap<CellRef, (CellRef, bool)>) -> Self {
        let mut sizes = Sizes::default();
        for (at, (grid, _)) in from {
            if at.col != grid.col {
                sizes.cols.insert(at.col, grid.col);
            }
            if at.row != grid.row {
                sizes.rows.insert(at.row, grid.row);
            }
        }
        sizes
    }

    fn is_empty(&self) -> bool {
        self.cols.is_empty() && self.rows.is_empty()
    }
}

/// One `<col>` of `<cols>`: its columns (1-based, as written), tag and
/// text as the part has it (kept when no copy column is in it).
struct Col<'s> {
    min: u32,
    max: u32,
    tag: BytesStart<'s>,
    raw: &'s str,
}

/// `xml` (a patched worksheet part) with the copy's columns and rows
/// given their grid's widths and heights.
pub(super) fn copy_sizes(part: &str, xml: &str, sizes: &Sizes) -> Result<String, AnnotateError> {
    if sizes.is_empty() {
        return Ok(xml.to_string());
    }
    let err = xml_err(part);
    let heights = grid_heights(part, xml, sizes)?;
    let mut reader = Reader::from_str(xml);
    let mut place = Place::default();
    let mut out = String::with_capacity(xml.len() + 512);
    let mut copied = 0usize;
    let mut cols_done = false;
    let mut last_row: Option<u32> = None;
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        let (e, empty) = match ev {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(e) => {
                if place.end(e.local_name().as_ref()) {
                    break;
                }
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let name = e.local_name();
        let name = name.as_ref().to_string();
        let item = place.start(&name, empty);
        match (item, name.as_str()) {
            (Item::Other, "cols") if !cols_done => {
                let prefix = prefix_of(&e);
                let (cols, after) = read_cols(part, xml, &mut reader, empty)?;
                out.push_str(&xml[copied..start]);
                out.push_str(&new_cols(part, &prefix, &cols, sizes)?);
                copied = after;
                cols_done = true;
                if !empty {
                    place.end("cols");
                }
            }
            (Item::Other, "sheetData") if !cols_done => {
                // No `<cols>`: one goes just before the sheet data.
                out.push_str(&xml[copied..start]);
                out.push_str(&new_cols(part, &prefix_of(&e), &[], sizes)?);
                copied = start;
                cols_done = true;
            }
            (Item::Row, _) => {
                let row = match attr(&e, "r").map_err(&err)? {
                    Some(v) => v.trim().parse::<u32>().map_or(0, |r| r.saturating_sub(1)),
                    None => last_row.map_or(0, |r| r.saturating_add(1)),
                };
                last_row = Some(row);
                if let Some(grid) = sizes.rows.get(&row) {
                    out.push_str(&xml[copied..start]);
                    match heights.get(grid) {
                        Some(ht) => write_start_tag(
                            &mut out,
                            &e,
                            &[("ht", ht), ("customHeight", "1")],
                            &[],
                            empty,
                        ),
                        None => write_start_tag(&mut out, &e, &[], &HEIGHT, empty),
                    }
                    .map_err(&err)?;
                    copied = end;
                }
            }
            _ => {}
        }
    }
    out.push_str(&xml[copied..]);
    Ok(out)
}

/// The heights (`ht`) of the grid rows that copy rows take, by row.
fn grid_heights(
    part: &str,
    xml: &str,
    sizes: &Sizes,
) -> Result<HashMap<u32, String>, AnnotateError> {
    let err = xml_err(part);
    let wanted: std::collections::HashSet<u32> = sizes.rows.values().copied().collect();
    let mut heights = HashMap::new();
    if wanted.is_empty() {
        return Ok(heights);
    }
    let mut reader = Reader::from_str(xml);
    let mut place = Place::default();
    let mut last_row: Option<u32> = None;
    loop {
        let (e, empty) = match reader.read_event().map_err(&err)? {
            Event::Start(e) => (e, false),
            Event::Empty(e) => (e, true),
            Event::End(e) => {
                if place.end(e.local_name().as_ref()) {
                    break;
                }
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let name = e.local_name();
        if place.start(name.as_ref(), empty) != Item::Row {
            continue;
        }
        let row = match attr(&e, "r").map_err(&err)? {
            Some(v) => v.trim().parse::<u32>().map_or(0, |r| r.saturating_sub(1)),
            None => last_row.map_or(0, |r| r.saturating_add(1)),
        };
        last_row = Some(row);
        if wanted.contains(&row) {
            if let Some(ht) = attr(&e, "ht").map_err(&err)? {
                heights.insert(row, ht);
            }
        }
    }
    Ok(heights)
}

/// The `<col>` elements of a `<cols>` just read (its start tag), and the
/// position after its end tag.
fn read_cols<'s>(
    part: &str,
    xml: &'s str,
    reader: &mut Reader<&'s [u8]>,
    empty: bool,
) -> Result<(Vec<Col<'s>>, usize), AnnotateError> {
    let err = xml_err(part);
    let mut cols = Vec::new();
    if empty {
        return Ok((cols, pos(reader)));
    }
    let mut depth = 1usize;
    loop {
        let start = pos(reader);
        match reader.read_event().map_err(&err)? {
            Event::Empty(e) if depth == 1 && e.local_name().as_ref() == "col" => {
                let num = |k: &str| -> Result<Option<u32>, AnnotateError> {
                    Ok(attr(&e, k)
                        .map_err(&err)?
                        .and_then(|v| v.trim().parse().ok()))
                };
                if let (Some(min), Some(max)) = (num("min")?, num("max")?) {
                    if min >= 1 && max >= min {
                        let raw = &xml[start..pos(reader)];
                        cols.push(Col {
                            min,
                            max,
                            tag: e,
                            raw,
                        });
                    }
                }
            }
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    return Ok((cols, pos(reader)));
                }
            }
            Event::Eof => {
                return Err(AnnotateError::Malformed {
                    part: part.to_string(),
                    reason: "<cols> is not closed".to_string(),
                })
            }
            _ => {}
        }
    }
}

/// A new `<cols>`: the old ranges, split where a copy column takes its
/// grid column's width (or the default, when the grid column has none).
fn new_cols(
    part: &str,
    prefix: &str,
    cols: &[Col<'_>],
    sizes: &Sizes,
) -> Result<String, AnnotateError> {
    let err = xml_err(part);
    let covering = |c: u32| cols.iter().find(|k| k.min <= c + 1 && c < k.max);
    let mut width_of: HashMap<u32, Option<String>> = HashMap::new();
    for &grid in sizes.cols.values() {
        let w = match covering(grid) {
            Some(k) => attr(&k.tag, "width").map_err(&err)?,
            None => None,
        };
        width_of.insert(grid, w);
    }
    // (first column, element) of each `<col>` written.
    let mut items: Vec<(u32, String)> = Vec::new();
    let push = |items: &mut Vec<(u32, String)>,
                tag: &BytesStart<'_>,
                min: u32,
                max: u32,
                width: Option<Option<&str>>|
     -> Result<(), AnnotateError> {
        let (lo, hi) = (min.to_string(), max.to_string());
        let mut set = vec![("min", lo.as_str()), ("max", hi.as_str())];
        let mut drop: Vec<&str> = Vec::new();
        match width {
            Some(Some(w)) => set.extend([("width", w), ("customWidth", "1")]),
            Some(None) => drop.extend(WIDTH),
            None => {}
        }
        let mut s = String::new();
        write_start_tag(&mut s, tag, &set, &drop, true).map_err(&err)?;
        items.push((min, s));
        Ok(())
    };
    for k in cols {
        if sizes.cols.range(k.min - 1..k.max).next().is_none() {
            items.push((k.min, k.raw.to_string()));
            continue;
        }
        let mut from = k.min;
        for (&copy, grid) in sizes.cols.range(k.min - 1..k.max) {
            let c = copy + 1;
            if c > from {
                push(&mut items, &k.tag, from, c - 1, None)?;
            }
            let w = width_of.get(grid).cloned().flatten();
            push(&mut items, &k.tag, c, c, Some(w.as_deref()))?;
            from = c + 1;
        }
        if from <= k.max {
            push(&mut items, &k.tag, from, k.max, None)?;
        }
    }
    let bare = BytesStart::new(format!("{prefix}col"));
    for (&copy, grid) in &sizes.cols {
        if covering(copy).is_none() {
            if let Some(Some(w)) = width_of.get(grid) {
                push(&mut items, &bare, copy + 1, copy + 1, Some(Some(w)))?;
            }
        }
    }
    if items.is_empty() {
        return Ok(String::new());
    }
    items.sort_by_key(|(min, _)| *min);
    let body: String = items.into_iter().map(|(_, s)| s).collect();
    Ok(format!("<{prefix}cols>{body}</{prefix}cols>"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(cols: &[(u32, u32)], rows: &[(u32, u32)]) -> Sizes {
        Sizes {
            cols: cols.iter().copied().collect(),
            rows: rows.iter().copied().collect(),
        }
    }

    const DATA: &str = r#"<sheetData><row r="3" ht="30" customHeight="1"><c r="C3"/></row><row r="4"><c r="C4"/></row><row r="13"><c r="M13"/></row><row r="14" ht="9"><c r="M14"/></row></sheetData>"#;

    #[test]
    fn copy_columns_split_out_of_their_ranges_with_the_grid_widths() {
        let xml = format!(
            r#"<worksheet><cols><col min="1" max="1" width="2" /><col min="3" max="4" width="5.5" customWidth="1"/><col min="5" max="20" width="12" style="3"/></cols>{DATA}</worksheet>"#
        );
        // Copy columns M, N (12, 13) take C, D (2, 3); column Z takes B (no width).
        let out = copy_sizes("s", &xml, &sizes(&[(12, 2), (13, 3), (25, 1)], &[])).unwrap();
        assert!(out.contains(r#"<col min="5" max="12" width="12" style="3"/><col min="13" max="13" width="5.5" style="3" customWidth="1"/><col min="14" max="14" width="5.5" style="3" customWidth="1"/><col min="15" max="20" width="12" style="3"/>"#), "{out}");
        // A range without copy columns is kept as written.
        assert!(out.contains(r#"<cols><col min="1" max="1" width="2" /><col min="3" max="4" width="5.5" customWidth="1"/>"#), "{out}");
        // A column outside every range whose grid column has no width: untouched.
        assert!(!out.contains(r#"min="26""#), "{out}");
        assert!(
            out.ends_with(&format!("</cols>{DATA}</worksheet>")),
            "{out}"
        );
    }

    #[test]
    fn a_sheet_without_cols_gets_one_before_its_data() {
        let xml = r#"<worksheet><sheetData/></worksheet>"#.to_string();
        let out = copy_sizes("s", &xml, &sizes(&[(12, 2)], &[])).unwrap();
        // The grid column has no width: nothing to write.
        assert_eq!(out, xml);
        let xml = r#"<x:worksheet><x:cols><x:col min="3" max="3" width="4"/></x:cols><x:sheetData/></x:worksheet>"#.to_string();
        let out = copy_sizes("s", &xml, &sizes(&[(12, 2)], &[])).unwrap();
        assert!(out.contains(r#"<x:col min="3" max="3" width="4"/><x:col min="13" max="13" width="4" customWidth="1"/></x:cols>"#), "{out}");
    }

    #[test]
    fn copy_rows_take_the_grid_heights_or_lose_their_own() {
        let xml = format!("<worksheet>{DATA}</worksheet>");
        // Rows 13 and 14 (12, 13) copy rows 3 and 4 (2, 3).
        let out = copy_sizes("s", &xml, &sizes(&[], &[(12, 2), (13, 3)])).unwrap();
        assert!(
            out.contains(r#"<row r="13" ht="30" customHeight="1">"#),
            "{out}"
        );
        assert!(out.contains(r#"<row r="14"><c r="M14"/>"#), "{out}");
        assert!(out.contains(r#"<row r="3" ht="30" customHeight="1"><c r="C3"/>"#));
    }

    #[test]
    fn nothing_to_copy_leaves_the_part_as_it_is() {
        let xml = format!(
            "<worksheet><cols><col min=\"1\" max=\"3\" width=\"9\"/></cols>{DATA}</worksheet>"
        );
        assert_eq!(copy_sizes("s", &xml, &Sizes::default()).unwrap(), xml);
        let from: HashMap<CellRef, (CellRef, bool)> =
            [(CellRef::new(2, 2), (CellRef::new(2, 2), false))].into();
        assert_eq!(Sizes::of(&from), Sizes::default());
    }
}
