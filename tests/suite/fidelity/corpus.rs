//! Fidelity over the corpus of Excel-written workbooks (`tests/corpus`,
//! origin and licence in its README; `XLSUDOKU_CORPUS` names another
//! folder): annotating a few cells of the first worksheet changes only that
//! sheet, the style sheet and the workbook part; the copy opens with
//! calamine and reads the edits back; with no edits every part comes out
//! unchanged. With a sheet of solutions (`--answers sheet`) only the
//! workbook part, its relationships, the content types and the style sheet
//! change, the new sheet reads back, and taking it out again restores
//! the sheet list, the names, the relationships and the content types.

use crate::util::corpus_files;

use std::io::{Cursor, Read};
use std::path::Path;
use std::time::Instant;

use calamine::{open_workbook_from_rs, Data, Reader, SheetType, Xlsx};
use xlsudoku::address::CellRef;
use xlsudoku::annotate::{
    annotate, annotate_with, solutions_sheet_name, AnnotateError, AnnotateOptions, CellEdit,
    CellValue, SheetEdits, SolutionCopy, Solutions,
};

const NOTE: &str = "solved iiii!!^ 1.2 ms <&> \"x\"";

/// Every entry of a zip: (name, uncompressed bytes), in order.
fn entries(zip_bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut z = zip::ZipArchive::new(Cursor::new(zip_bytes)).map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(z.len());
    for i in 0..z.len() {
        let mut f = z.by_index(i).map_err(|e| e.to_string())?;
        let mut buf = Vec::new();
        f.read_to_end(&mut buf).map_err(|e| e.to_string())?;
        out.push((f.name().map_err(|e| e.to_string())?.into_owned(), buf));
    }
    Ok(out)
}

fn run(input: &[u8], edits: &[SheetEdits]) -> Result<Vec<u8>, AnnotateError> {
    let mut out = Cursor::new(Vec::new());
    annotate(Cursor::new(input), edits, &mut out)?;
    Ok(out.into_inner())
}

/// The attributes of every element named `local` in `xml`, unescaped.
fn elements(xml: &str, local: &str) -> Vec<Vec<(String, String)>> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(e)) | Ok(quick_xml::events::Event::Empty(e))
                if e.local_name().as_ref() == local =>
            {
                out.push(
                    e.attributes()
                        .filter_map(Result::ok)
                        .map(|a| {
                            let v = a
                                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                .map(|v| v.into_owned())
                                .unwrap_or_default();
                            (a.key.as_ref().to_string(), v)
                        })
                        .collect(),
                );
            }
            Ok(quick_xml::events::Event::Eof) | Err(_) => return out,
            _ => {}
        }
    }
}

fn get<'a>(attrs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// The zip entry of sheet `name`, found the way Excel does: workbook.xml
/// gives its relationship id, the workbook's rels give the target.
fn sheet_part(files: &[(String, Vec<u8>)], name: &str) -> Option<String> {
    let text = |n: &str| {
        files
            .iter()
            .find(|(f, _)| f == n)
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
    };
    let sheets = elements(&text("xl/workbook.xml")?, "sheet");
    let sheet = sheets.iter().find(|a| get(a, "name") == Some(name))?;
    let rid = get(sheet, "r:id")?;
    let rels = elements(&text("xl/_rels/workbook.xml.rels")?, "Relationship");
    let rel = rels.iter().find(|a| get(a, "Id") == Some(rid))?;
    let target = get(rel, "Target")?;
    Some(match target.strip_prefix('/') {
        Some(abs) => abs.to_string(),
        None => format!("xl/{target}"),
    })
}

/// Checks one workbook; `Ok(false)` when it has no worksheet to edit.
fn check_file(path: &Path) -> Result<bool, String> {
    let input = std::fs::read(path).map_err(|e| e.to_string())?;
    let before = entries(&input)?;

    // No edits: every part is identical.
    let copy = run(&input, &[]).map_err(|e| format!("no-edit copy failed: {e}"))?;
    if entries(&copy)? != before {
        return Err("the no-edit copy differs".into());
    }

    let mut book: Xlsx<_> = open_workbook_from_rs(Cursor::new(input.clone()))
        .map_err(|e| format!("calamine cannot open the original: {e}"))?;
    let metas = book.sheets_metadata().to_vec();
    // Editing a chart sheet is refused with a typed error.
    if let Some(m) = metas.iter().find(|m| m.typ == SheetType::ChartSheet) {
        let edits = [SheetEdits {
            sheet: m.name.clone(),
            cells: vec![CellEdit {
                at: CellRef::new(0, 0),
                value: CellValue::Number(1.0),
            }],
        }];
        match run(&input, &edits) {
            Err(AnnotateError::NotAWorksheet(_)) => {}
            other => return Err(format!("chart sheet edit gave {other:?}")),
        }
    }
    let Some(sheet) = metas.iter().find(|m| m.typ == SheetType::WorkSheet) else {
        return Ok(false);
    };
    let name = sheet.name.clone();
    let range = book
        .worksheet_range(&name)
        .map_err(|e| format!("calamine cannot read the original sheet: {e}"))?;
    let formulas = book.worksheet_formula(&name).ok();
    let is_empty = |r: u32, c: u32| matches!(range.get_value((r, c)), None | Some(Data::Empty));
    // A far cell for the number and the note, beyond any data.
    let (far_row, far_col) = match range.end() {
        Some((r, c)) => ((r + 2).max(99), (c + 2).max(25)),
        None => (99, 25),
    };
    let mut cells = vec![
        CellEdit {
            at: CellRef::new(far_row, far_col),
            value: CellValue::Number(7.0),
        },
        CellEdit {
            at: CellRef::new(far_row + 1, far_col),
            value: CellValue::Text(NOTE.into()),
        },
    ];
    // Overwrite an existing value that is not a formula, if there is one.
    let overwritten = range.used_cells().find_map(|(r, c, _)| {
        let (r, c) = (r as u32 + range.start()?.0, c as u32 + range.start()?.1);
        let has_formula = formulas
            .as_ref()
            .and_then(|f| f.get_value((r, c)))
            .is_some_and(|f| !f.is_empty());
        (!has_formula && !is_empty(r, c)).then_some((r, c))
    });
    if let Some((r, c)) = overwritten {
        cells.push(CellEdit {
            at: CellRef::new(r, c),
            value: CellValue::Number(3.0),
        });
    }
    let edits = [SheetEdits {
        sheet: name.clone(),
        cells,
    }];
    let out = run(&input, &edits).map_err(|e| format!("annotate failed: {e}"))?;
    let after = entries(&out)?;
    let part = sheet_part(&before, &name).ok_or("cannot find the sheet part")?;
    if before.len() != after.len() {
        return Err("entry count changed".into());
    }
    for ((n1, b1), (n2, b2)) in before.iter().zip(&after) {
        if n1 != n2 {
            return Err(format!("entry order changed: {n1} vs {n2}"));
        }
        let allowed = n1 == &part || n1 == "xl/styles.xml" || n1 == "xl/workbook.xml";
        if b1 != b2 && !allowed {
            return Err(format!("{n1} changed"));
        }
    }
    let mut copy: Xlsx<_> = open_workbook_from_rs(Cursor::new(out))
        .map_err(|e| format!("calamine cannot open the copy: {e}"))?;
    let got = copy
        .worksheet_range(&name)
        .map_err(|e| format!("calamine cannot read the copied sheet: {e}"))?;
    let want = |r: u32, c: u32, v: Data| -> Result<(), String> {
        match got.get_value((r, c)) {
            Some(x) if *x == v => Ok(()),
            // The cell keeps its own number format, which may be a date.
            Some(Data::DateTime(d)) if Data::Float(d.as_f64()) == v => Ok(()),
            other => Err(format!(
                "{} reads {other:?}, wanted {v:?}",
                CellRef::new(r, c)
            )),
        }
    };
    want(far_row, far_col, Data::Float(7.0))?;
    want(far_row + 1, far_col, Data::String(NOTE.into()))?;
    if let Some((r, c)) = overwritten {
        want(r, c, Data::Float(3.0))?;
    }
    Ok(true)
}

#[test]
fn every_corpus_workbook_keeps_its_untouched_parts_and_reads_back_its_edits() {
    let files = corpus_files();
    let started = Instant::now();
    let mut edited = 0usize;
    let mut failures = Vec::new();
    for f in &files {
        match check_file(f) {
            Ok(true) => edited += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    println!(
        "fidelity corpus: {} workbooks checked ({} with a worksheet edited) in {:.1?}",
        files.len(),
        edited,
        started.elapsed()
    );
    assert!(!files.is_empty(), "the corpus folder is empty");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The calculation chain's entries as (sheet id, cell), `i` inherited.
fn chain_entries(xml: &str) -> Vec<(String, String)> {
    let mut i = String::new();
    elements(xml, "c")
        .iter()
        .map(|a| {
            if let Some(v) = get(a, "i") {
                i = v.to_string();
            }
            (i.clone(), get(a, "r").unwrap_or_default().to_string())
        })
        .collect()
}

/// Overwrites the first cell of the calculation chain; its entry must go
/// (or the whole chain, with its content type and relationship).
fn check_chain(path: &Path) -> Result<bool, String> {
    let input = std::fs::read(path).map_err(|e| e.to_string())?;
    let before = entries(&input)?;
    let text = |files: &[(String, Vec<u8>)], n: &str| {
        files
            .iter()
            .find(|(f, _)| f == n)
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
    };
    let Some(chain) = text(&before, "xl/calcChain.xml") else {
        return Ok(false);
    };
    let chain = chain_entries(&chain);
    let (sheet_id, cell) = chain.first().ok_or("empty calcChain")?.clone();
    let sheets = elements(
        &text(&before, "xl/workbook.xml").ok_or("no workbook")?,
        "sheet",
    );
    let sheet = sheets
        .iter()
        .find(|a| get(a, "sheetId") == Some(sheet_id.as_str()))
        .and_then(|a| get(a, "name"))
        .ok_or("no sheet for the chain's first entry")?
        .to_string();
    let edits = [SheetEdits {
        sheet: sheet.clone(),
        cells: vec![CellEdit {
            at: cell.parse().map_err(|e| format!("{e}"))?,
            value: CellValue::Number(9.0),
        }],
    }];
    let out = match run(&input, &edits) {
        Ok(out) => out,
        // The master of a shared formula is refused, by design.
        Err(AnnotateError::Unsupported { .. }) => return Ok(false),
        Err(e) => return Err(format!("annotate failed: {e}")),
    };
    let after = entries(&out)?;
    let gone = (sheet_id.clone(), cell.clone());
    match text(&after, "xl/calcChain.xml") {
        Some(c) => {
            let left = chain_entries(&c);
            let want: Vec<_> = chain.iter().filter(|e| **e != gone).cloned().collect();
            if left != want {
                return Err(format!("calcChain entries {left:?}, wanted {want:?}"));
            }
        }
        None => {
            let ct = text(&after, "[Content_Types].xml").unwrap_or_default();
            let rels = text(&after, "xl/_rels/workbook.xml.rels").unwrap_or_default();
            if chain.iter().any(|e| *e != gone) {
                return Err("calcChain removed though other entries remained".into());
            }
            if ct.contains("calcChain") || rels.contains("calcChain") {
                return Err("a reference to the removed calcChain is left".into());
            }
        }
    }
    let mut copy: Xlsx<_> = open_workbook_from_rs(Cursor::new(out))
        .map_err(|e| format!("calamine cannot open the copy: {e}"))?;
    let range = copy
        .worksheet_range(&sheet)
        .map_err(|e| format!("calamine cannot read the copied sheet: {e}"))?;
    let at: CellRef = cell.parse().map_err(|e| format!("{e}"))?;
    match range.get_value((at.row, at.col)) {
        Some(Data::Float(v)) if *v == 9.0 => Ok(true),
        other => Err(format!("{cell} reads {other:?}")),
    }
}

#[test]
fn overwritten_formula_cells_leave_the_calculation_chain() {
    let files = corpus_files();
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in &files {
        match check_chain(path) {
            Ok(true) => checked += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    println!(
        "calcChain: {} workbooks checked, {checked} with a formula cell overwritten",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 0, "no corpus workbook has a calculation chain");
}

/// A solved 9x9 grid (the README's EASY puzzle solved).
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn with_solutions(input: &[u8], copies: Vec<SolutionCopy>) -> Result<Vec<u8>, AnnotateError> {
    let mut out = Cursor::new(Vec::new());
    let options = AnnotateOptions {
        solutions: Some(Solutions {
            copies,
            force: false,
        }),
        ..AnnotateOptions::default()
    };
    annotate_with(Cursor::new(input), &[], &mut out, options)?;
    Ok(out.into_inner())
}

/// Adds a sheet of solutions holding a copy of a 9x9 "grid" at A1:I9 of
/// the first worksheet (its cells' styles), checks the package, then
/// takes the sheet out again; `Ok(false)` when there is no worksheet.
fn check_sheet_mode(path: &Path) -> Result<bool, String> {
    let input = std::fs::read(path).map_err(|e| e.to_string())?;
    let before = entries(&input)?;
    let book: Xlsx<_> = open_workbook_from_rs(Cursor::new(input.clone()))
        .map_err(|e| format!("calamine cannot open the original: {e}"))?;
    let metas = book.sheets_metadata().to_vec();
    let Some(sheet) = metas.iter().find(|m| m.typ == SheetType::WorkSheet) else {
        return Ok(false);
    };
    let cells: Vec<(CellValue, bool)> = SOLVED
        .bytes()
        .enumerate()
        .map(|(i, b)| (CellValue::Number(f64::from(b - b'0')), i % 3 != 0))
        .collect();
    let copy = SolutionCopy {
        sheet: sheet.name.clone(),
        grid: "A1:I9".parse().map_err(|e| format!("{e}"))?,
        cells,
        kept_styles: None,
    };
    let name = solutions_sheet_name(Cursor::new(&input)).map_err(|e| e.to_string())?;
    let out = with_solutions(&input, vec![copy]).map_err(|e| format!("sheet mode failed: {e}"))?;
    let after = entries(&out)?;
    let changed = [
        "xl/workbook.xml",
        "xl/_rels/workbook.xml.rels",
        "[Content_Types].xml",
        "xl/styles.xml",
    ];
    for (i, (n1, b1)) in before.iter().enumerate() {
        let (n2, b2) = after.get(i).ok_or("entries lost")?;
        if n1 != n2 {
            return Err(format!("entry order changed: {n1} vs {n2}"));
        }
        if b1 != b2 && !changed.contains(&n1.as_str()) {
            return Err(format!("{n1} changed"));
        }
    }
    let added: Vec<&str> = after[before.len()..].iter().map(|e| e.0.as_str()).collect();
    let part = sheet_part(&after, &name).ok_or("cannot find the new sheet's part")?;
    if added.first() != Some(&part.as_str()) {
        return Err(format!("added {added:?}, the sheet is {part}"));
    }
    let mut copy: Xlsx<_> = open_workbook_from_rs(Cursor::new(out.clone()))
        .map_err(|e| format!("calamine cannot open the copy: {e}"))?;
    let mut names: Vec<String> = metas.iter().map(|m| m.name.clone()).collect();
    names.push(name.clone());
    if copy.sheet_names() != names {
        return Err(format!("sheets {:?}, wanted {names:?}", copy.sheet_names()));
    }
    let got = copy
        .worksheet_range(&name)
        .map_err(|e| format!("calamine cannot read the new sheet: {e}"))?;
    for (i, b) in SOLVED.bytes().enumerate() {
        let at = CellRef::new(2 + i as u32 / 9, 1 + i as u32 % 9);
        let want = f64::from(b - b'0');
        match got.get_value((at.row, at.col)) {
            Some(Data::Float(v)) if *v == want => {}
            // The grid cell's number format may be a date.
            Some(Data::DateTime(d)) if d.as_f64() == want => {}
            other => return Err(format!("{name}!{at} reads {other:?}, wanted {want}")),
        }
    }
    // Out again: the package's lists are as they were.
    let back = with_solutions(&out, Vec::new()).map_err(|e| format!("removal failed: {e}"))?;
    let back = entries(&back)?;
    if back.iter().any(|(n, _)| *n == part) {
        return Err("the sheet's part is left".into());
    }
    let text = |files: &[(String, Vec<u8>)], n: &str| {
        files
            .iter()
            .find(|(f, _)| f == n)
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
    };
    for n in ["[Content_Types].xml", "xl/_rels/workbook.xml.rels"] {
        if text(&before, n) != text(&back, n) {
            return Err(format!("{n} not restored"));
        }
    }
    let wb = |files: &[(String, Vec<u8>)]| {
        let t = text(files, "xl/workbook.xml").unwrap_or_default();
        (elements(&t, "sheet"), elements(&t, "definedName"))
    };
    if wb(&before) != wb(&back) {
        return Err("the sheet list or the names not restored".into());
    }
    Ok(true)
}

#[test]
fn a_sheet_of_solutions_changes_only_the_lists_that_name_it_and_goes_cleanly() {
    let files = corpus_files();
    let started = Instant::now();
    let mut checked = 0usize;
    let mut failures = Vec::new();
    for f in &files {
        match check_sheet_mode(f) {
            Ok(true) => checked += 1,
            Ok(false) => {}
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    println!(
        "sheet of solutions: {} workbooks, {checked} with one added and taken out, in {:.1?}",
        files.len(),
        started.elapsed()
    );
    assert!(checked > 0, "no corpus workbook has a worksheet");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
