//! The sheet of solutions in the copy: made from the solved grids, put
//! into the package (a new part, or an earlier run's rewritten) or removed,
//! and what an earlier run's sheet holds.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek};

use zip::ZipArchive;

use crate::address::CellRef;

use crate::annotate::book::Book;
use crate::annotate::copy::{add_part, read_bytes, read_part, Changes, NewPart};
use crate::annotate::part_edit::{parse_rels, remove_elements, Relationship};
use crate::annotate::styles::StylePool;
use crate::annotate::AnnotateError;
use crate::annotate::{part_edit, sheet, solution_sheet, SolutionCopy, MAX_PART_SIZE};
use crate::records::{record_text, SolutionsRecord};

/// The worksheet XML of the sheet of solutions named `name` holding
/// `copies`, each cell in its grid cell's style (its blue italic twin for
/// a solved cell), and its print area.
pub(in crate::annotate) fn solutions_sheet<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    copies: &[SolutionCopy],
    name: &str,
    pool: &mut StylePool<'_>,
    limit: u64,
) -> Result<(String, String), AnnotateError> {
    // Each grid cell's style, read once per source sheet.
    let mut styles: Vec<Vec<u32>> = Vec::with_capacity(copies.len());
    let mut by_sheet: HashMap<&str, HashMap<CellRef, u32>> = HashMap::new();
    // Kept copies have their styles already.
    let fresh = copies.iter().filter(|c| c.kept_styles.is_none());
    for sheet in fresh.clone().map(|c| c.sheet.as_str()) {
        if by_sheet.contains_key(sheet) {
            continue;
        }
        let found = match book.worksheet_part(sheet) {
            Some(part) => {
                let wanted: HashSet<CellRef> = fresh
                    .clone()
                    .filter(|c| c.sheet == sheet)
                    .flat_map(|c| {
                        let g = c.grid;
                        (0..g.rows()).flat_map(move |r| (0..g.cols()).map(move |k| g.cell(r, k)))
                    })
                    .collect();
                let src = read_part(archive, part, limit)?;
                sheet::styles_of(part, &src.text, &wanted)?
            }
            None => return Err(AnnotateError::NoSuchSheet(sheet.to_string())),
        };
        by_sheet.insert(sheet, found);
    }
    for copy in copies {
        if let Some(kept) = &copy.kept_styles {
            styles.push(kept.clone());
            continue;
        }
        let side = copy.grid.cols().max(1) as usize;
        let own = by_sheet.get(copy.sheet.as_str());
        let mut list = Vec::with_capacity(copy.cells.len());
        for (i, (_, blue)) in copy.cells.iter().enumerate() {
            let at = copy.grid.cell((i / side) as u32, (i % side) as u32);
            let base = own.and_then(|m| m.get(&at).copied()).unwrap_or(0);
            list.push(if *blue { pool.blue(base)? } else { base });
        }
        styles.push(list);
    }
    let places = solution_sheet::layout(copies.iter().map(|c| c.grid.rows()));
    let xml = solution_sheet::sheet_xml(copies, &places, 0, book.strict, |k, i| {
        styles.get(k).and_then(|l| l.get(i)).copied().unwrap_or(0)
    });
    Ok((xml, solution_sheet::print_area(name, &places)))
}

/// The parts the package names, whether it holds them or not: those its
/// content types override (an `<Override>` left behind by a part taken
/// out) and the targets of the workbook's relationships. A new part takes
/// none of these names: a second `<Override>` of one name makes the
/// package invalid, and a stale relationship would point to the new part.
pub(in crate::annotate) fn claimed_parts<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    limit: u64,
) -> Result<Vec<String>, AnnotateError> {
    let mut out = Vec::new();
    if let Some(ct) = &book.content_types {
        let src = read_part(archive, ct, limit)?;
        let names = part_edit::attr_values(ct, &src.text, "Override", "PartName")?;
        out.extend(
            names
                .into_iter()
                .map(|n| n.trim_start_matches('/').to_string()),
        );
    }
    if let Some(rels) = &book.workbook_rels {
        let src = read_part(archive, rels, limit)?;
        out.extend(
            parse_rels(rels, &src.text, &book.workbook)?
                .into_iter()
                .map(|r| r.target),
        );
    }
    Ok(out)
}

/// Puts the sheet of solutions into the copy: the part rewritten (an
/// earlier run's, `existing`) or added with its content type, workbook
/// relationship and place in the sheet list; its print area set.
pub(in crate::annotate) fn put_solutions_sheet<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    (name, part, bytes, area): (&str, &str, &[u8], &str),
    existing: bool,
    limit: u64,
    changes: &mut Changes,
) -> Result<(), AnnotateError> {
    if existing {
        changes.set(part, bytes.to_vec());
        let src = changes.current(archive, &book.workbook, limit)?;
        let text = solution_sheet::set_print_area(&book.workbook, &src.text, name, area)?;
        changes.set(&book.workbook, src.bytes_of(text));
        return Ok(());
    }
    // The worksheet relationship type the package uses already (strict
    // or transitional), else the one its namespace calls for.
    let kind = |existing: &[Relationship]| {
        let strict = match existing.iter().find(|r| r.kind.ends_with("/worksheet")) {
            Some(r) => r.kind == solution_sheet::STRICT_WORKSHEET_TYPE,
            None => book.strict,
        };
        if strict {
            solution_sheet::STRICT_WORKSHEET_TYPE
        } else {
            solution_sheet::WORKSHEET_TYPE
        }
    };
    let new = NewPart {
        name: part,
        content_type: solution_sheet::WORKSHEET_CONTENT_TYPE,
        kind: &kind,
        bytes: bytes.to_vec(),
        what: "the sheet of solutions",
    };
    let id = add_part(archive, book, new, limit, changes)?;
    let sheet_id = solution_sheet::free_sheet_id(book.sheets.iter().filter_map(|s| s.sheet_id));
    let src = changes.current(archive, &book.workbook, limit)?;
    let text = solution_sheet::add_sheet(&book.workbook, &src.text, name, sheet_id, &id, area)?;
    changes.set(&book.workbook, src.bytes_of(text));
    Ok(())
}

/// Takes an earlier run's sheet of solutions out of the copy: its part,
/// content type, workbook relationship, place in the sheet list and the
/// names local to it.
pub(in crate::annotate) fn remove_solutions_sheet<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    own: &SolutionsRecord,
    limit: u64,
    changes: &mut Changes,
) -> Result<(), AnnotateError> {
    changes.replaced.insert(own.part.clone(), None);
    if let Some(ct) = &book.content_types {
        let src = changes.current(archive, ct, limit)?;
        let name = format!("/{}", own.part);
        let text = remove_elements(ct, &src.text, "Override", "PartName", |v| {
            v.eq_ignore_ascii_case(&name)
        })?;
        changes.set(ct, src.bytes_of(text));
    }
    let rel_id = book
        .sheets
        .iter()
        .find(|s| s.name == own.sheet)
        .map(|s| s.rel_id.clone())
        .unwrap_or_default();
    if let (Some(rels), false) = (&book.workbook_rels, rel_id.is_empty()) {
        let src = changes.current(archive, rels, limit)?;
        let text = remove_elements(rels, &src.text, "Relationship", "Id", |v| v == rel_id)?;
        changes.set(rels, src.bytes_of(text));
    }
    let src = changes.current(archive, &book.workbook, limit)?;
    let text = solution_sheet::remove_sheet(&book.workbook, &src.text, &own.sheet)?;
    changes.set(&book.workbook, src.bytes_of(text));
    Ok(())
}

/// The copies that a run writing the copies of the sheets `asked` only
/// (`--sheet`, compared without regard to case) keeps on the sheet of
/// solutions an earlier run wrote into the workbook `input`: those of the
/// other sheets still in the workbook, as they stand there
/// ([`solution_sheet::read_copies`]), in their order. None when there is no
/// such sheet, or when it was changed since (the copy then refuses it,
/// or replaces it when forced).
pub fn kept_solution_copies<R: Read + Seek>(
    input: R,
    asked: &[String],
) -> Result<Vec<SolutionCopy>, AnnotateError> {
    let mut archive = ZipArchive::new(input)
        .map_err(|e| AnnotateError::NotAWorkbook(format!("not a readable zip archive ({e})")))?;
    let book = Book::read(&mut archive, MAX_PART_SIZE)?;
    let Some(own) = crate::records::parse_solutions_record(&record_text(&mut archive))
        .filter(|r| book.worksheet_part(&r.sheet) == Some(r.part.as_str()))
    else {
        return Ok(Vec::new());
    };
    let bytes = read_bytes(&mut archive, &own.part, MAX_PART_SIZE)?;
    if solution_sheet::digest(&bytes) != own.digest {
        return Ok(Vec::new());
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| AnnotateError::Malformed {
        part: own.part.clone(),
        reason: "not UTF-8".to_string(),
    })?;
    let asked: Vec<String> = asked.iter().map(|s| s.to_lowercase()).collect();
    Ok(solution_sheet::read_copies(&own.part, text)?
        .into_iter()
        .filter(|c| {
            !asked.contains(&c.sheet.to_lowercase())
                && c.sheet != own.sheet
                && book.worksheet_part(&c.sheet).is_some()
        })
        .collect())
}

/// The name the sheet of solutions takes in a copy of the workbook
/// `input` (`--answers sheet`): the name of the one an earlier run wrote
/// (rewritten in place), else `Solutions`, else `Solutions 2` … (see
/// [`solution_sheet::free_name`]).
pub fn solutions_sheet_name<R: Read + Seek>(input: R) -> Result<String, AnnotateError> {
    let mut archive = ZipArchive::new(input)
        .map_err(|e| AnnotateError::NotAWorkbook(format!("not a readable zip archive ({e})")))?;
    let book = Book::read(&mut archive, MAX_PART_SIZE)?;
    let own = crate::records::parse_solutions_record(&record_text(&mut archive))
        .filter(|r| book.worksheet_part(&r.sheet) == Some(r.part.as_str()));
    Ok(solution_sheet::free_name(
        book.sheets.iter().map(|s| s.name.as_str()),
        own.as_ref().map(|o| o.sheet.as_str()),
    ))
}
