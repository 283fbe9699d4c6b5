//! Hostile and unusual workbooks at the reading end: far cells, impossible
//! references, declared counts, escaped and padded values, formulas without
//! cached values, and the cases where `check` and `solve` once disagreed.
//! Each workbook is a fixture with one XML part rewritten.

use crate::util::xlsudoku;
use crate::util::{fixture, EASY};

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use xlsudoku::workbook::{read_workbook, Cell, ReadOptions, Sheet};

const SHEET: &str = "xl/worksheets/sheet1.xml";

/// The parts of a fixture, in order.
fn parts_of(name: &str) -> Vec<(String, Vec<u8>)> {
    crate::util::entries(&std::fs::read(fixture(name)).unwrap())
}

/// `status_logic_easy.xlsx` (EASY at C3:K11 on sheet `Easy`) with its sheet
/// XML passed through `edit`, written into `dir` as `name`.
fn easy_with(dir: &Path, name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    easy_with_part(dir, name, SHEET, edit)
}

/// The same with any one part passed through `edit`.
fn easy_with_part(dir: &Path, name: &str, part: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let mut parts = parts_of("status_logic_easy.xlsx");
    for (n, data) in parts.iter_mut() {
        if n == part {
            *data = edit(String::from_utf8(data.clone()).unwrap()).into_bytes();
        }
    }
    let path = dir.join(name);
    std::fs::write(&path, crate::util::pack(&parts, b"")).unwrap();
    path
}

/// Replaces exactly one occurrence of `from`.
fn swap(xml: String, from: &str, to: &str) -> String {
    assert_eq!(xml.matches(from).count(), 1, "{from}");
    xml.replacen(from, to, 1)
}

/// The same workbook with the givens C3 (5), D3 (3) and G3 (7) as shared
/// strings: `xl/sharedStrings.xml` holds "0".."9" (the string at index `i`
/// is the digit `i`), declared with `unique_count`; `index` writes each
/// index as the `<v>` text.
fn easy_with_shared_strings(
    dir: &Path,
    name: &str,
    unique_count: &str,
    index: impl Fn(u8) -> String,
) -> PathBuf {
    let mut parts = parts_of("status_logic_easy.xlsx");
    for (n, data) in parts.iter_mut() {
        let text = String::from_utf8(data.clone()).unwrap();
        let text = match n.as_str() {
            SHEET => {
                let mut xml = text;
                for (cell, style, digit) in [("C3", 1, 5u8), ("D3", 2, 3), ("G3", 2, 7)] {
                    xml = swap(
                        xml,
                        &format!("<c r=\"{cell}\" s=\"{style}\"><v>{digit}</v></c>"),
                        &format!(
                            "<c r=\"{cell}\" s=\"{style}\" t=\"s\"><v>{}</v></c>",
                            index(digit)
                        ),
                    );
                }
                xml
            }
            "xl/_rels/workbook.xml.rels" => swap(
                text,
                "</Relationships>",
                "<Relationship Id=\"rId99\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings\" Target=\"sharedStrings.xml\"/></Relationships>",
            ),
            "[Content_Types].xml" => swap(
                text,
                "</Types>",
                "<Override PartName=\"/xl/sharedStrings.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml\"/></Types>",
            ),
            _ => text,
        };
        *data = text.into_bytes();
    }
    let strings: String = (0..10).map(|d| format!("<si><t>{d}</t></si>")).collect();
    parts.push((
        "xl/sharedStrings.xml".into(),
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" count=\"10\" uniqueCount=\"{unique_count}\">{strings}</sst>"
        )
        .into_bytes(),
    ));
    let path = dir.join(name);
    std::fs::write(&path, crate::util::pack(&parts, b"")).unwrap();
    path
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read(p: &Path) -> Vec<Sheet> {
    read_workbook(p, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The only grid's puzzle as a line.
fn puzzle_line(p: &Path) -> String {
    let sheets = read(p);
    assert_eq!(sheets[0].grids.len(), 1, "{sheets:?}");
    sheets[0].grids[0].puzzle().to_line()
}

/// The XML of a part of a workbook file.
fn part_text(p: &Path, part: &str) -> String {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(p).unwrap()).unwrap();
    let mut out = String::new();
    zip.by_name(part).unwrap().read_to_string(&mut out).unwrap();
    out
}

/// Runs `check` on the file, in under `limit`.
fn check_within(p: &Path, limit: Duration) -> Output {
    let t = Instant::now();
    let o = xlsudoku(&["check", s(p)]);
    let took = t.elapsed();
    assert!(took < limit, "check took {took:?}: {}", text(&o));
    o
}

#[test]
fn cells_at_a1_and_xfd1048576_are_read_without_a_grid_over_the_sheet() {
    let t = tempfile::tempdir().unwrap();
    // A value at A1, and one at the sheet's last cell with the grid's
    // bordered style: no dense grid of values or borders over the sheet.
    let p = easy_with(t.path(), "far.xlsx", |xml| {
        let xml = swap(
            xml,
            "<sheetData>",
            "<sheetData><row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>Puzzle</t></is></c></row>",
        );
        swap(
            xml,
            "</sheetData>",
            "<row r=\"3000\"><c r=\"XFD3000\" s=\"1\"><v>1</v></c></row><row r=\"1048576\"><c r=\"XFD1048576\" s=\"1\"><v>1</v></c></row></sheetData>",
        )
    });
    let o = check_within(&p, Duration::from_secs(5));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("C3:K11 9x9: solved"), "{}", text(&o));
    assert_eq!(puzzle_line(&p), EASY);
}

#[test]
fn cells_at_a1_and_xfd3000_are_read_quickly() {
    let t = tempfile::tempdir().unwrap();
    let p = easy_with(t.path(), "far3000.xlsx", |xml| {
        swap(
            xml,
            "</sheetData>",
            "<row r=\"3000\"><c r=\"XFD3000\"><v>1</v></c></row></sheetData>",
        )
    });
    let o = check_within(&p, Duration::from_secs(3));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn an_impossible_cell_reference_is_an_error_naming_file_sheet_and_reference() {
    let t = tempfile::tempdir().unwrap();
    let p = easy_with(t.path(), "impossible.xlsx", |xml| {
        swap(
            xml,
            "</sheetData>",
            "<row r=\"30\"><c r=\"ZZZZZZZZZZ99999999999\"><v>1</v></c></row></sheetData>",
        )
    });
    for args in [vec!["check", s(&p)], vec![s(&p)]] {
        let o = xlsudoku(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let msg = text(&o);
        assert!(
            msg.contains("impossible.xlsx")
                && msg.contains("'Easy'")
                && msg.contains("ZZZZZZZZZZ99999999999")
                && !msg.contains("panicked"),
            "{msg}"
        );
    }
    assert!(!t.path().join("impossible.solved.xlsx").exists());
}

#[test]
fn a_huge_unique_count_in_shared_strings_is_only_a_hint() {
    let t = tempfile::tempdir().unwrap();
    let p = easy_with_shared_strings(t.path(), "count.xlsx", "2147483648", |d| d.to_string());
    let o = check_within(&p, Duration::from_secs(5));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(puzzle_line(&p), EASY);
}

#[test]
fn a_shared_string_index_written_with_spaces_is_read_as_its_number() {
    let t = tempfile::tempdir().unwrap();
    let p = easy_with_shared_strings(t.path(), "padded.xlsx", "10", |d| format!(" {d} "));
    assert_eq!(puzzle_line(&p), EASY);
    let o = xlsudoku(&["check", s(&p)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn a_given_written_as_a_character_reference_is_read_and_never_overwritten() {
    let t = tempfile::tempdir().unwrap();
    let p = easy_with(t.path(), "entity.xlsx", |xml| {
        swap(
            xml,
            "<c r=\"D3\" s=\"2\"><v>3</v></c>",
            "<c r=\"D3\" s=\"2\"><v>&#51;</v></c>",
        )
    });
    let sheets = read(&p);
    assert_eq!(sheets[0].grids[0].cells[1], Cell::Given(3));
    let out = t.path().join("out.xlsx");
    let o = xlsudoku(&[s(&p), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        part_text(&out, SHEET).contains("<c r=\"D3\" s=\"2\"><v>&#51;</v></c>"),
        "D3 must be left as it is"
    );
}

#[test]
fn a_value_that_cannot_be_read_makes_the_grid_invalid_and_is_never_overwritten() {
    let t = tempfile::tempdir().unwrap();
    // E3 is a blank of the puzzle holding a value no reader can resolve.
    let p = easy_with(t.path(), "bogus.xlsx", |xml| {
        swap(
            xml,
            "<c r=\"E3\" s=\"3\"/>",
            "<c r=\"E3\" s=\"3\"><v>&bogus;</v></c>",
        )
    });
    let o = xlsudoku(&["check", s(&p)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("invalid") && text(&o).contains("E3 holds \"&bogus;\""),
        "{}",
        text(&o)
    );
    let out = t.path().join("out.xlsx");
    let o = xlsudoku(&[s(&p), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let xml = part_text(&out, SHEET);
    assert!(
        xml.contains("<c r=\"E3\" s=\"3\"><v>&bogus;</v></c>"),
        "E3 changed"
    );
}

#[test]
fn formula_givens_without_a_cached_value_are_evaluated_when_constant() {
    let t = tempfile::tempdir().unwrap();
    // openpyxl writes `=5` as <f>5</f><v></v>; XlsxWriter caches 0.
    let p = easy_with(t.path(), "formulas.xlsx", |xml| {
        let xml = swap(
            xml,
            "<c r=\"C3\" s=\"1\"><v>5</v></c>",
            "<c r=\"C3\" s=\"1\"><f>5</f><v></v></c>",
        );
        let xml = swap(
            xml,
            "<c r=\"D3\" s=\"2\"><v>3</v></c>",
            "<c r=\"D3\" s=\"2\"><f>1+2</f></c>",
        );
        swap(
            xml,
            "<c r=\"G3\" s=\"2\"><v>7</v></c>",
            "<c r=\"G3\" s=\"2\"><f>(10-3)*2/2</f><v>0</v></c>",
        )
    });
    assert_eq!(puzzle_line(&p), EASY);
    let o = xlsudoku(&["check", s(&p)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn formula_givens_without_a_value_that_are_not_constant_are_named() {
    let t = tempfile::tempdir().unwrap();
    let p = easy_with(t.path(), "refs.xlsx", |xml| {
        let xml = swap(
            xml,
            "<c r=\"C3\" s=\"1\"><v>5</v></c>",
            "<c r=\"C3\" s=\"1\"><f>SUM(Z1)</f><v>0</v></c>",
        );
        swap(
            xml,
            "<c r=\"D3\" s=\"2\"><v>3</v></c>",
            "<c r=\"D3\" s=\"2\"><f>Z2+1</f></c>",
        )
    });
    let o = xlsudoku(&["check", s(&p)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("C3, D3: formulas without a computed value; open and save the workbook in a spreadsheet program to compute them"),
        "{}",
        text(&o)
    );
    let out = t.path().join("out.xlsx");
    let o = xlsudoku(&[s(&p), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let xml = part_text(&out, SHEET);
    assert!(
        xml.contains("<f>SUM(Z1)</f><v>0</v>") && xml.contains("<f>Z2+1</f>"),
        "formulas lost"
    );
}

/// `check` and `solve` on the same file: their exit codes.
fn check_and_solve(p: &Path, out: &Path) -> (Output, Output) {
    (xlsudoku(&["check", s(p)]), xlsudoku(&[s(p), "-o", s(out)]))
}

#[test]
fn check_and_solve_agree_on_a_full_zip_comment() {
    let t = tempfile::tempdir().unwrap();
    let parts = parts_of("status_logic_easy.xlsx");
    let p = t.path().join("comment.xlsx");
    std::fs::write(&p, crate::util::pack(&parts, &vec![b'c'; 65_535])).unwrap();
    let out = t.path().join("out.xlsx");
    let (check, solve) = check_and_solve(&p, &out);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert_eq!(solve.status.code(), Some(0), "{}", text(&solve));
    assert_eq!(puzzle_line(&out), EASY);
    assert!(
        xlsudoku::annotate::read_stamp(std::fs::File::open(&out).unwrap()).is_some(),
        "the copy is stamped"
    );
}

#[test]
fn check_and_solve_agree_on_a_grid_in_the_last_rows() {
    let t = tempfile::tempdir().unwrap();
    // Rows 3..11 moved to 1048568..1048576: no row below for the note.
    let p = easy_with(t.path(), "bottom.xlsx", |xml| {
        let mut xml = xml.replace("<dimension ref=\"C3:K11\"/>", "");
        for row in (3..=11).rev() {
            let to = row + 1_048_576 - 11;
            xml = xml.replace(&format!("<row r=\"{row}\""), &format!("<row r=\"{to}\""));
            for col in 'C'..='K' {
                xml = xml.replace(&format!("r=\"{col}{row}\""), &format!("r=\"{col}{to}\""));
            }
        }
        xml
    });
    let out = t.path().join("out.xlsx");
    let (check, solve) = check_and_solve(&p, &out);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check));
    assert!(
        text(&check).contains("C1048568:K1048576 9x9: solved"),
        "{}",
        text(&check)
    );
    assert_eq!(solve.status.code(), Some(0), "{}", text(&solve));
    let sheets = read(&out);
    assert_eq!(sheets[0].grids.len(), 1);
    let g = &sheets[0].grids[0];
    assert!(g.earlier_note, "the note is found again");
    assert_eq!(
        g.note_at.to_string(),
        "C1048567",
        "the note sits above the grid"
    );
}

#[test]
fn check_and_solve_agree_on_a_duplicated_attribute() {
    let t = tempfile::tempdir().unwrap();
    // In a sheet (read by both), in the workbook part and in the style sheet
    // (read only to make the copy: `check` makes it too, into nothing).
    for (name, part, from, to) in [
        ("row.xlsx", SHEET, "<row r=\"3\" ", "<row r=\"3\" r=\"3\" "),
        (
            "cell.xlsx",
            SHEET,
            "<c r=\"C3\" s=\"1\">",
            "<c r=\"C3\" s=\"1\" s=\"1\">",
        ),
        (
            "book.xlsx",
            "xl/workbook.xml",
            "<calcPr calcId=\"124519\"",
            "<calcPr calcId=\"124519\" calcId=\"124519\"",
        ),
        (
            "styles.xlsx",
            "xl/styles.xml",
            "<cellXfs",
            "<cellXfs a=\"1\" a=\"1\"",
        ),
    ] {
        let p = easy_with_part(t.path(), name, part, |xml| swap(xml, from, to));
        let out = t.path().join(format!("out-{name}"));
        let (check, solve) = check_and_solve(&p, &out);
        for o in [&check, &solve] {
            assert_eq!(o.status.code(), Some(2), "{name}: {}", text(o));
            assert!(
                text(o).contains(name) && text(o).contains("duplicated attribute"),
                "{}",
                text(o)
            );
        }
        assert!(!out.exists());
    }
}

#[test]
fn a_grid_far_down_is_found_beside_a_far_bordered_cell() {
    let t = tempfile::tempdir().unwrap();
    // One bordered cell at XFD1 made the border map 16,385 columns wide and
    // cut it after 512 rows: the grid at row 2003 was never looked for.
    let p = easy_with(t.path(), "far_down.xlsx", |xml| {
        let mut xml = xml.replace("<dimension ref=\"C3:K11\"/>", "");
        for row in (3..=11).rev() {
            let to = row + 2000;
            xml = xml.replace(&format!("<row r=\"{row}\""), &format!("<row r=\"{to}\""));
            for col in 'C'..='K' {
                xml = xml.replace(&format!("r=\"{col}{row}\""), &format!("r=\"{col}{to}\""));
            }
        }
        swap(
            xml,
            "<sheetData>",
            "<sheetData><row r=\"1\"><c r=\"XFD1\" s=\"1\"/></row>",
        )
    });
    let o = check_within(&p, Duration::from_secs(5));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("C2003:K2011 9x9: solved"), "{}", text(&o));
}

#[test]
fn a_cell_filed_in_another_rows_element_is_refused_by_check_and_solve() {
    // `<c r="F4">` inside row 7: patching F7 would have overwritten it.
    let t = tempfile::tempdir().unwrap();
    let p = easy_with(t.path(), "misfiled.xlsx", |xml| {
        swap(xml, "<c r=\"F7\"", "<c r=\"F4\"")
    });
    let out = t.path().join("out.xlsx");
    let (check, solve) = check_and_solve(&p, &out);
    for o in [&check, &solve] {
        assert_eq!(o.status.code(), Some(2), "{}", text(o));
        assert!(text(o).contains("cell F4 stands in row 7"), "{}", text(o));
    }
    assert!(!out.exists(), "nothing written");
}

#[test]
fn form_controls_after_a_sheet_using_its_last_row_are_kept_not_read_as_rows() {
    let t = tempfile::tempdir().unwrap();
    // A button's anchor (`<xdr:row>` in `<controls>`, under alternate
    // content) after a sheet whose data reaches row 1048576: once read as
    // "a row after row 1048576" and the whole workbook refused.
    let controls = r#"<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x14"><controls><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x14"><control shapeId="1025" name="Button 1"><controlPr defaultSize="0" print="0" autoFill="0" autoPict="0" macro="[0]!Solve"><anchor moveWithCells="1"><from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>12</xdr:row><xdr:rowOff>0</xdr:rowOff></from><to><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>14</xdr:row><xdr:rowOff>0</xdr:rowOff></to></anchor></controlPr></control></mc:Choice></mc:AlternateContent></controls></mc:Choice></mc:AlternateContent>"#;
    let p = easy_with(t.path(), "controls.xlsx", |xml| {
        let xml = swap(
            xml,
            "<worksheet ",
            "<worksheet xmlns:xdr=\"http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing\" ",
        );
        let xml = swap(
            xml,
            "</sheetData>",
            "<row r=\"1048576\"><c r=\"A1048576\" t=\"inlineStr\"><is><t>end</t></is></c></row></sheetData>",
        );
        swap(xml, "</worksheet>", &format!("{controls}</worksheet>"))
    });
    let o = xlsudoku(&["check", s(&p)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("C3:K11 9x9: solved"), "{}", text(&o));
    let out = t.path().join("out.xlsx");
    let o = xlsudoku(&[s(&p), "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let xml = part_text(&out, SHEET);
    assert!(
        xml.ends_with(&format!("{controls}</worksheet>")),
        "controls changed: {xml}"
    );
    assert!(xml.contains("<row r=\"1048576\"><c r=\"A1048576\" t=\"inlineStr\"><is><t>end</t></is></c></row></sheetData>"), "{xml}");
    assert_eq!(read(&out)[0].grids.len(), 1);
}

#[test]
fn formula_givens_that_reference_other_cells_are_read_from_the_workbook() {
    // rust_xlsxwriter writes formulas with a cached 0: the givens of the
    // grid on `Sudoku` are `=Data!C3`-style references (and one `=$M$1`,
    // one `='My Data'!A1`, one `=3+4`).
    let t = tempfile::tempdir().unwrap();
    let puzzle: xlsudoku::grid::Grid = EASY.parse().unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let thin = rust_xlsxwriter::Format::new().set_border(rust_xlsxwriter::FormatBorder::Thin);
    let sudoku = book.add_worksheet().set_name("Sudoku").unwrap();
    let mut refs = Vec::new();
    for r in 0..9u32 {
        for c in 0..9u16 {
            let (row, col) = (2 + r, 2 + c);
            let d = puzzle.get(r as usize, c as usize);
            let at = xlsudoku::address::CellRef::new(row, u32::from(col));
            let formula = match (r, c) {
                _ if d == 0 => None,
                (0, 0) => Some("=$M$1".to_string()),
                (0, 1) => Some("='My Data'!A1".to_string()),
                (0, 4) => Some("=3+4".to_string()),
                _ => Some(format!("=Data!{at}")),
            };
            match formula {
                Some(f) => {
                    refs.push((at, f.clone()));
                    sudoku
                        .write_formula_with_format(row, col, f.as_str(), &thin)
                        .unwrap();
                }
                None => {
                    sudoku.write_blank(row, col, &thin).unwrap();
                }
            }
        }
    }
    sudoku.write_number(0, 12, 5).unwrap(); // M1, for C3
    let data = book.add_worksheet().set_name("Data").unwrap();
    for r in 0..9u32 {
        for c in 0..9u16 {
            let d = puzzle.get(r as usize, c as usize);
            if d != 0 {
                data.write_number(2 + r, 2 + c, f64::from(d)).unwrap();
            }
        }
    }
    let my = book.add_worksheet().set_name("My Data").unwrap();
    my.write_number(0, 0, 3).unwrap(); // for D3
    let p = t.path().join("xlsxwriter_refs.xlsx");
    book.save(&p).unwrap();
    assert!(
        part_text(&p, SHEET).contains("<f>Data!C4</f><v>0</v>"),
        "a cached 0, as the issue's files have: {}",
        part_text(&p, SHEET)
    );
    assert_eq!(puzzle_line(&p), EASY);
    let o = xlsudoku(&["check", s(&p), "--sheet", "Sudoku"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = t.path().join("out.xlsx");
    let o = xlsudoku(&[s(&p), "-o", s(&out), "--sheet", "Sudoku"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let xml = part_text(&out, SHEET);
    for (_, f) in &refs {
        let f = f.trim_start_matches('=').replace('\'', "&apos;");
        assert!(
            xml.contains(&format!("<f>{f}</f>"))
                || xml.contains(&format!("<f>{}</f>", f.replace("&apos;", "'"))),
            "formula {f} kept"
        );
    }

    // Without the Data sheet's values the givens cannot be known: named.
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet().set_name("Sudoku").unwrap();
    for r in 0..9u32 {
        for c in 0..9u16 {
            sheet.write_blank(2 + r, 2 + c, &thin).unwrap();
        }
    }
    sheet
        .write_formula_with_format(2, 2, "=SUM(Data!A1:A3)", &thin)
        .unwrap();
    sheet
        .write_formula_with_format(3, 3, "=Nowhere!A1", &thin)
        .unwrap();
    sheet.write_number_with_format(2, 3, 5, &thin).unwrap();
    let p = t.path().join("unknown.xlsx");
    book.save(&p).unwrap();
    let o = xlsudoku(&["check", s(&p)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("C3, D4: formulas without a computed value; open and save the workbook in a spreadsheet program to compute them"),
        "{}",
        text(&o)
    );
}
