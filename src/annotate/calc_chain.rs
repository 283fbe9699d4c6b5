//! The calculation chain (`xl/calcChain.xml`) lists every formula cell;
//! Excel reports a damaged file when it names a cell that no longer holds a
//! formula. When the patch overwrites formula cells, their entries go.

use std::collections::HashSet;

use quick_xml::events::Event;
use quick_xml::Reader;

use super::part_edit::{pos, xml_err};
use super::xml::{attr, write_start_tag};
use super::AnnotateError;
use crate::address::CellRef;

/// What becomes of the calculation chain.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ChainEdit {
    /// Nothing to remove: the part is copied as it is.
    Keep,
    /// The part without the removed entries.
    Rewrite(String),
    /// Every entry goes: the part (which may not be empty) is dropped.
    Remove,
}

/// The chain without the entries of `removed` (sheet id, cell). An entry
/// without `i` belongs to the sheet of the entry before it, so an entry
/// that follows a removed one gets its sheet id written out when needed.
pub(crate) fn drop_entries(
    part: &str,
    xml: &str,
    removed: &HashSet<(u32, CellRef)>,
) -> Result<ChainEdit, AnnotateError> {
    let err = xml_err(part);
    let mut reader = Reader::from_str(xml);
    let mut out = String::with_capacity(xml.len());
    let mut copied = 0usize;
    let mut depth = 0usize;
    // The sheet id in effect in the input, and in the output so far.
    let mut cur_i: Option<u32> = None;
    let mut out_i: Option<u32> = None;
    let (mut kept, mut dropped) = (0usize, 0usize);
    loop {
        let start = pos(&reader);
        let ev = reader.read_event().map_err(&err)?;
        let end = pos(&reader);
        match ev {
            Event::Empty(e) if depth == 1 && e.local_name().as_ref() == "c" => {
                let own_i = attr(&e, "i")
                    .map_err(&err)?
                    .and_then(|v| v.trim().parse::<u32>().ok());
                if own_i.is_some() {
                    cur_i = own_i;
                }
                let cell = attr(&e, "r")
                    .map_err(&err)?
                    .and_then(|r| r.parse::<CellRef>().ok());
                let gone = match (cur_i, cell) {
                    (Some(i), Some(c)) => removed.contains(&(i, c)),
                    _ => false,
                };
                if gone {
                    dropped += 1;
                    out.push_str(&xml[copied..start]);
                    copied = end;
                    continue;
                }
                kept += 1;
                if own_i.is_none() && cur_i != out_i {
                    if let Some(i) = cur_i {
                        out.push_str(&xml[copied..start]);
                        let i = i.to_string();
                        write_start_tag(&mut out, &e, &[("i", &i)], &[], true).map_err(&err)?;
                        copied = end;
                    }
                }
                out_i = cur_i;
            }
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Eof => break,
            _ => {}
        }
    }
    out.push_str(&xml[copied..]);
    Ok(if dropped == 0 {
        ChainEdit::Keep
    } else if kept == 0 {
        ChainEdit::Remove
    } else {
        ChainEdit::Rewrite(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gone(cells: &[(u32, &str)]) -> HashSet<(u32, CellRef)> {
        cells
            .iter()
            .map(|(i, c)| (*i, c.parse().unwrap()))
            .collect()
    }

    const CHAIN: &str = r#"<calcChain xmlns="m"><c r="A2" i="2"/><c r="A1"/><c r="A5" i="1"/><c r="A4"/><c r="A3"/></calcChain>"#;

    #[test]
    fn entries_of_overwritten_cells_go_and_the_next_keeps_its_sheet() {
        assert_eq!(
            drop_entries("c", CHAIN, &gone(&[(2, "A2"), (1, "A4")])).unwrap(),
            ChainEdit::Rewrite(
                r#"<calcChain xmlns="m"><c r="A1" i="2"/><c r="A5" i="1"/><c r="A3"/></calcChain>"#
                    .into()
            )
        );
    }

    #[test]
    fn the_same_cell_on_another_sheet_stays() {
        assert_eq!(
            drop_entries("c", CHAIN, &gone(&[(3, "A1"), (1, "A2")])).unwrap(),
            ChainEdit::Keep
        );
    }

    #[test]
    fn a_chain_left_empty_is_removed() {
        let all = gone(&[(2, "A2"), (2, "A1"), (1, "A5"), (1, "A4"), (1, "A3")]);
        assert_eq!(drop_entries("c", CHAIN, &all).unwrap(), ChainEdit::Remove);
    }
}
