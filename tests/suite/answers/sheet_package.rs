//! `solve --answers sheet` on packages with history: a sheet of solutions
//! moved, renamed away or taken out, sheet ids and content types left
//! behind, runs on some sheets only, forged titles and strict workbooks.
//! The package around the sheet stays valid and the puzzles' sheets keep
//! their tabs and parts.

use super::sheet::*;
use crate::util::fixture;

use std::collections::HashSet;
use std::path::Path;

use xlsudoku::address::{CellRange, CellRef};
use xlsudoku::annotate::{read_solutions_record, RECORD_PART};
use xlsudoku::report::SheetRecord;

/// `from` copied to `to` with each part passed through `edit` (name,
/// bytes → the new bytes, or `None` to leave the part out) and with `add`
/// added; the zip comment kept, as a program that keeps unknown parts
/// would.
fn rewrite(
    from: &Path,
    to: &Path,
    edit: impl Fn(&str, Vec<u8>) -> Option<Vec<u8>>,
    add: &[(&str, Vec<u8>)],
) {
    let bytes = std::fs::read(from).unwrap();
    let mut entries: Vec<(String, Vec<u8>)> = crate::util::entries(&bytes)
        .into_iter()
        .filter_map(|(name, b)| edit(&name, b).map(|b| (name, b)))
        .collect();
    entries.extend(add.iter().map(|(name, b)| (name.to_string(), b.clone())));
    let packed = crate::util::pack(&entries, &crate::util::comment(&bytes));
    std::fs::write(to, packed).unwrap();
}

/// A part as text.
fn part_text(path: &Path, name: &str) -> String {
    String::from_utf8(part(path, name).unwrap()).unwrap()
}

/// The values of attribute `key` of the elements `<tag ` of `xml`, in order.
fn attr_values(xml: &str, tag: &str, key: &str) -> Vec<String> {
    xml.split(&format!("<{tag} "))
        .skip(1)
        .filter_map(|t| {
            let t = &t[..t.find('>')?];
            let at = t.find(&format!("{key}=\""))? + key.len() + 2;
            Some(t[at..at + t[at..].find('"')?].to_string())
        })
        .collect()
}

#[test]
fn removing_a_moved_sheet_of_solutions_keeps_the_active_and_first_tabs_on_their_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let first = first_with_sheet(&fixture("example.xlsx"), dir.path());
    // A person moves the sheet of solutions to the front (names local to
    // sheets follow them) and leaves the window on Notes, first tab Easy.
    let moved = dir.path().join("moved.xlsx");
    rewrite(
        &first,
        &moved,
        |name, b| {
            if name != "xl/workbook.xml" {
                return Some(b);
            }
            let wb = String::from_utf8(b).unwrap();
            let at = wb.find(r#"<sheet name="Solutions""#).unwrap();
            let tag = &wb[at..at + wb[at..].find("/>").unwrap() + 2];
            let wb = wb
                .replacen(tag, "", 1)
                .replacen("<sheets>", &format!("<sheets>{tag}"), 1)
                .replacen(r#"localSheetId="3""#, r#"localSheetId="0""#, 1)
                .replacen(
                    "<workbookView ",
                    r#"<workbookView firstSheet="1" activeTab="3" "#,
                    1,
                );
            Some(wb.into_bytes())
        },
        &[],
    );
    assert_eq!(sheet_names(&moved), ["Solutions", "Easy", "Big", "Notes"]);
    let out = dir.path().join("grid.xlsx");
    assert_eq!(solve(&moved, &out, &["--answers", "grid"]).0, 0);
    let names = sheet_names(&out);
    assert_eq!(names, ["Easy", "Big", "Notes"]);
    let wb = part_text(&out, "xl/workbook.xml");
    let tab = |key: &str| -> String {
        let i: usize = attr_values(&wb, "workbookView", key)[0].parse().unwrap();
        names
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("no sheet {i}"))
    };
    assert_eq!(tab("activeTab"), "Notes", "{wb}");
    assert_eq!(tab("firstSheet"), "Easy", "{wb}");
    assert!(!wb.contains("localSheetId"), "{wb}");
}

#[test]
fn the_largest_sheet_id_in_use_gives_the_new_sheet_a_free_id_not_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big_id.xlsx");
    rewrite(
        &fixture("example.xlsx"),
        &input,
        |name, b| {
            if name != "xl/workbook.xml" {
                return Some(b);
            }
            let wb = String::from_utf8(b).unwrap();
            Some(
                wb.replacen(r#"sheetId="2""#, r#"sheetId="4294967295""#, 1)
                    .into_bytes(),
            )
        },
        &[],
    );
    let out = dir.path().join("out.xlsx");
    assert_eq!(solve(&input, &out, &["--answers", "sheet"]).0, 0);
    let ids = attr_values(&part_text(&out, "xl/workbook.xml"), "sheet", "sheetId");
    assert_eq!(ids.len(), 4, "{ids:?}");
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "duplicate sheetId: {ids:?}");
}

#[test]
fn a_content_type_left_behind_for_a_missing_part_is_not_declared_twice() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("stale.xlsx");
    // An Override for a part the package no longer holds (a sheet deleted
    // by a program that forgot its content type), and a relationship to
    // another missing part.
    rewrite(
        &fixture("status_logic_easy.xlsx"),
        &input,
        |name, b| {
            let t = String::from_utf8(b).unwrap();
            Some(
                match name {
                    "[Content_Types].xml" => t.replacen(
                        "</Types>",
                        r#"<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#,
                        1,
                    ),
                    "xl/_rels/workbook.xml.rels" => t.replacen(
                        "</Relationships>",
                        r#"<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet3.xml"/></Relationships>"#,
                        1,
                    ),
                    _ => t,
                }
                .into_bytes(),
            )
        },
        &[],
    );
    let out = dir.path().join("out.xlsx");
    assert_eq!(solve(&input, &out, &["--answers", "sheet"]).0, 0);
    let rec = record_of(&out);
    let overrides = attr_values(
        &part_text(&out, "[Content_Types].xml"),
        "Override",
        "PartName",
    );
    let unique: HashSet<String> = overrides.iter().map(|p| p.to_lowercase()).collect();
    assert_eq!(unique.len(), overrides.len(), "{overrides:?}");
    let targets = attr_values(
        &part_text(&out, "xl/_rels/workbook.xml.rels"),
        "Relationship",
        "Target",
    );
    let new = rec.part.trim_start_matches("xl/");
    assert_eq!(
        targets.iter().filter(|t| *t == new).count(),
        1,
        "{targets:?}"
    );
    assert_eq!(text(&values(&out, "Solutions"), range("B3").start), "5");
}

#[test]
fn a_sheet_that_took_the_name_of_a_deleted_sheet_of_solutions_is_read_for_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let first = first_with_sheet(&fixture("status_logic_easy.xlsx"), dir.path());
    let rec = record_of(&first);
    // A program that keeps unknown parts deletes the sheet of solutions;
    // the person then adds a sheet of their own named Solutions, holding
    // a puzzle, in another part (here: the relationship and the content
    // type moved to the new part, the old part gone).
    let puzzle = part(
        &fixture("status_logic_easy.xlsx"),
        "xl/worksheets/sheet1.xml",
    )
    .unwrap();
    let edited = dir.path().join("edited.xlsx");
    let own_part = rec.part.clone();
    rewrite(
        &first,
        &edited,
        |name, b| {
            if name == own_part {
                return None;
            }
            let t = String::from_utf8(b).unwrap();
            let own = own_part.trim_start_matches("xl/");
            Some(
                match name {
                    "xl/_rels/workbook.xml.rels" => t.replacen(
                        &format!(r#"Target="{own}""#),
                        "Target=\"worksheets/mine.xml\"",
                        1,
                    ),
                    "[Content_Types].xml" => t.replacen(
                        &format!(r#"PartName="/{}""#, own_part),
                        r#"PartName="/xl/worksheets/mine.xml""#,
                        1,
                    ),
                    _ => t,
                }
                .into_bytes(),
            )
        },
        &[("xl/worksheets/mine.xml", puzzle)],
    );
    assert_eq!(sheet_names(&edited), ["Easy", "Solutions"]);
    assert!(read_solutions_record(std::fs::File::open(&edited).unwrap()).is_some());
    let out = dir.path().join("out.xlsx");
    let (code, recs) = solve(&edited, &out, &[]);
    assert_eq!(code, 0, "{recs:?}");
    let theirs: Vec<&SheetRecord> = recs
        .iter()
        .filter(|r| r.sheet.as_deref() == Some("Solutions"))
        .collect();
    assert_eq!(theirs.len(), 1, "the person's sheet is not read: {recs:?}");
    assert_eq!(theirs[0].range.as_deref(), Some("C3:K11"));
}

/// A copy on the sheet of solutions: its title and its cells (value,
/// style) in reading order.
type CopyCells = (String, Vec<(String, Option<String>)>);

/// The copies on the sheet of solutions of `path`, each under its title in
/// column B.
fn copies_on_sheet(path: &Path) -> Vec<CopyCells> {
    let rec = record_of(path);
    let v = values(path, &rec.sheet);
    let styles = cell_styles(path, &rec.part);
    let mut out = Vec::new();
    for row in 0..v.end().map_or(0, |e| e.0 + 1) {
        let title = text(&v, CellRef::new(row, 1));
        let Some((_, r)) = title.rsplit_once('!') else {
            continue;
        };
        let side = range(r).rows();
        let copy = CellRange::square(CellRef::new(row + 1, 1), side);
        let cells = cells(copy)
            .into_iter()
            .map(|c| (text(&v, c), styles.get(&c.to_string()).cloned().flatten()))
            .collect();
        out.push((title, cells));
    }
    out
}

#[test]
fn a_run_on_some_sheets_keeps_the_other_sheets_copies_on_the_sheet_of_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let first = first_with_sheet(&fixture("example.xlsx"), dir.path());
    let all = copies_on_sheet(&first);
    let titles: Vec<&str> = all.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(titles, ["Easy!C3:K11", "Big!C3:R18"]);
    // A sheet without a grid: the sheet of solutions stays as it is.
    let notes = dir.path().join("notes.xlsx");
    assert_eq!(
        solve(&first, &notes, &["--answers", "sheet", "--sheet", "Notes"]).0,
        0
    );
    let rec = record_of(&first);
    assert_eq!(part(&notes, &rec.part), part(&first, &rec.part));
    // Easy only: Easy's copy is written anew, Big's stays, each in its
    // sheet's place.
    let easy = dir.path().join("easy.xlsx");
    let (code, recs) = solve(&first, &easy, &["--answers", "sheet", "--sheet", "easy"]);
    assert_eq!(code, 0);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].answer_range.as_deref(), Some("B3:J11"));
    assert_eq!(copies_on_sheet(&easy), all);
    // Another mode for Easy: its copy goes, Big's moves up and stays.
    let grid = dir.path().join("grid.xlsx");
    assert_eq!(
        solve(&first, &grid, &["--answers", "grid", "--sheet", "Easy"]).0,
        0
    );
    assert_eq!(copies_on_sheet(&grid), all[1..]);
    // Every sheet: the sheet of solutions goes.
    let none = dir.path().join("none.xlsx");
    assert_eq!(solve(&grid, &none, &["--answers", "grid"]).0, 0);
    assert_eq!(sheet_names(&none), ["Easy", "Big", "Notes"]);
}

#[test]
fn taking_the_sheet_out_gives_back_an_openpyxl_workbook_part_byte_for_byte() {
    // openpyxl writes `<calcPr … fullCalcOnLoad="1" />`: the flag the
    // copy needs is there, so the tag is not rewritten (it lost its space).
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("openpyxl_fidelity.xlsx");
    let sheet = dir.path().join("sheet.xlsx");
    assert_eq!(solve(&input, &sheet, &["--answers", "sheet"]).0, 0);
    let grid = dir.path().join("grid.xlsx");
    assert_eq!(solve(&sheet, &grid, &["--answers", "grid"]).0, 0);
    for name in [
        "xl/workbook.xml",
        "xl/_rels/workbook.xml.rels",
        "[Content_Types].xml",
    ] {
        assert_eq!(
            part_text(&grid, name),
            part_text(&input, name),
            "{name} not given back"
        );
    }
}

#[test]
fn a_forged_title_on_the_sheet_of_solutions_does_not_crash_a_run_on_some_sheets() {
    let dir = tempfile::tempdir().unwrap();
    let first = first_with_sheet(&fixture("example.xlsx"), dir.path());
    // Big's title names the whole sheet, and the records carry the digest
    // of the part so changed (a forged or damaged file).
    let rec = record_of(&first);
    let sheet = part_text(&first, &rec.part).replacen("Big!C3:R18", "Big!A1:XFD1048576", 1);
    let digest = xlsudoku::annotate::solution_sheet::digest(sheet.as_bytes());
    let forged = dir.path().join("forged.xlsx");
    rewrite(
        &first,
        &forged,
        |name, b| {
            if name == rec.part {
                return Some(sheet.clone().into_bytes());
            }
            if name == RECORD_PART {
                let t = String::from_utf8(b).unwrap();
                return Some(t.replacen(&rec.digest, &digest, 1).into_bytes());
            }
            Some(b)
        },
        &[],
    );
    assert_eq!(record_of(&forged).digest, digest);
    let out = dir.path().join("out.xlsx");
    let (code, recs) = solve(&forged, &out, &["--answers", "sheet", "--sheet", "Easy"]);
    assert_eq!(code, 0, "{recs:?}");
    // What is no copy is not kept; Easy's copy is written.
    let titles: Vec<String> = copies_on_sheet(&out).into_iter().map(|(t, _)| t).collect();
    assert_eq!(titles, ["Easy!C3:K11"]);
}

#[test]
fn taking_the_sheet_out_never_leaves_a_workbook_without_a_visible_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let first = first_with_sheet(&fixture("status_logic_easy.xlsx"), dir.path());
    // The puzzle's sheet hidden, the records kept: the sheet of solutions
    // is the only one shown.
    let hidden = dir.path().join("hidden.xlsx");
    rewrite(
        &first,
        &hidden,
        |name, b| {
            if name != "xl/workbook.xml" {
                return Some(b);
            }
            let t = String::from_utf8(b).unwrap();
            Some(
                t.replacen(
                    r#"<sheet name="Easy""#,
                    r#"<sheet state="hidden" name="Easy""#,
                    1,
                )
                .into_bytes(),
            )
        },
        &[],
    );
    let out = dir.path().join("grid.xlsx");
    let (code, recs) = solve(&hidden, &out, &["--answers", "grid"]);
    assert_eq!(code, 2, "{recs:?}");
    let error = recs
        .last()
        .and_then(|r| r.error.clone())
        .unwrap_or_default();
    assert!(error.contains("would leave no visible sheet"), "{error}");
    assert!(!out.exists(), "nothing written");
    // The sheet mode keeps it: fine.
    assert_eq!(solve(&hidden, &out, &["--answers", "sheet"]).0, 0);
    assert_eq!(sheet_names(&out), ["Easy", "Solutions"]);
}

#[test]
fn a_strict_workbook_gets_a_sheet_of_solutions_in_the_strict_namespaces() {
    // A Strict Open XML workbook (Excel's "Strict Open XML Spreadsheet")
    // uses no transitional namespace: the sheet, its relationship and its
    // r:id must not bring one in.
    let transitional = [
        "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    ];
    let strict = [
        "http://purl.oclc.org/ooxml/spreadsheetml/main",
        "http://purl.oclc.org/ooxml/officeDocument/relationships",
    ];
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("strict.xlsx");
    rewrite(
        &fixture("status_logic_easy.xlsx"),
        &input,
        |name, b| {
            if !(name.ends_with(".xml") || name.ends_with(".rels")) {
                return Some(b);
            }
            let mut t = String::from_utf8(b).unwrap();
            for (from, to) in transitional.iter().zip(&strict) {
                t = t.replace(from, to);
            }
            Some(t.into_bytes())
        },
        &[],
    );
    let out = dir.path().join("sheet.xlsx");
    let (code, recs) = solve(&input, &out, &["--answers", "sheet"]);
    assert_eq!(code, 0, "{recs:?}");
    assert_eq!(recs[0].answer_sheet.as_deref(), Some("Solutions"));
    let rec = record_of(&out);
    for name in ["xl/workbook.xml", "xl/_rels/workbook.xml.rels", &rec.part] {
        let t = part_text(&out, name);
        for ns in transitional {
            assert!(!t.contains(ns), "{name} uses {ns}: {t}");
        }
    }
    assert!(part_text(&out, &rec.part).contains(strict[0]));
    // Taken out again: the package as it was.
    let grid = dir.path().join("grid.xlsx");
    assert_eq!(solve(&out, &grid, &["--answers", "grid"]).0, 0);
    for name in ["xl/workbook.xml", "xl/_rels/workbook.xml.rels"] {
        assert_eq!(part_text(&grid, name), part_text(&input, name), "{name}");
    }
}
