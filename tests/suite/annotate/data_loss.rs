//! The annotated copy never loses what the input holds: givens that look
//! like xlsudoku's own writing, formulas, cells of malformed packages.
//! Each test is named after the bug it pins.

use crate::util::stderr;
use crate::util::EASY;
use crate::util::{unzip, xlsudoku};

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Output;

use calamine::{Data, Reader, Xlsx};
use rust_xlsxwriter::{Color, Format, FormatBorder, Workbook, Worksheet};
use xlsudoku::address::{CellRange, CellRef};
use xlsudoku::annotate::{
    annotate_with, AnnotateOptions, CellEdit, CellValue, GridMark, SheetEdits,
};
use xlsudoku::grid::Grid;
use xlsudoku::report::SheetRecord;
use xlsudoku::workbook::{read_workbook, Cell, ReadOptions};

const EASY_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// `xlsudoku INPUT -o OUTPUT --json`: the exit code and the sheet records.
fn solve(input: &Path, output: &Path) -> (i32, Vec<SheetRecord>, Output) {
    let o = xlsudoku(&[
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
        "--json",
    ]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.pop(); // the summary
    let recs = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (o.status.code().unwrap_or(-1), recs, o)
}

/// A cell's format in a bordered 9x9 grid: thin lines, medium box lines.
fn grid_format(r: usize, c: usize) -> Format {
    let w = |thick: bool| {
        if thick {
            FormatBorder::Medium
        } else {
            FormatBorder::Thin
        }
    };
    Format::new()
        .set_border_top(w(r.is_multiple_of(3)))
        .set_border_bottom(w(r % 3 == 2))
        .set_border_left(w(c.is_multiple_of(3)))
        .set_border_right(w(c % 3 == 2))
}

/// Writes `puzzle` as a bordered grid at C3; `given_format` styles the
/// givens (on top of the borders).
fn put_grid(ws: &mut Worksheet, puzzle: &Grid, mut given_format: impl FnMut(Format) -> Format) {
    for r in 0..9 {
        for c in 0..9 {
            let (row, col) = (2 + r as u32, 2 + c as u16);
            match puzzle.get(r, c) {
                0 => ws.write_blank(row, col, &grid_format(r, c)).unwrap(),
                v => ws
                    .write_number_with_format(
                        row,
                        col,
                        f64::from(v),
                        &given_format(grid_format(r, c)),
                    )
                    .unwrap(),
            };
        }
    }
}

fn blue_italic(f: Format) -> Format {
    f.set_italic().set_font_color(Color::RGB(0x0000FF))
}

fn values(path: &Path, sheet: &str) -> calamine::Range<Data> {
    let mut book: Xlsx<_> = calamine::open_workbook(path).unwrap();
    book.worksheet_range(sheet).unwrap()
}

fn number(range: &calamine::Range<Data>, at: &str) -> Option<f64> {
    let at: CellRef = at.parse().unwrap();
    match range.get_value((at.row, at.col)) {
        Some(Data::Float(f)) => Some(*f),
        Some(Data::Int(i)) => Some(*i as f64),
        _ => None,
    }
}

fn part<'a>(entries: &'a [(String, Vec<u8>)], name: &str) -> &'a str {
    let (_, data) = entries.iter().find(|(n, _)| n == name).unwrap();
    std::str::from_utf8(data).unwrap()
}

/// The `s` attribute of a cell in a sheet part (`0` when absent).
fn style_of(sheet_xml: &str, at: &str) -> String {
    let needle = format!("r=\"{at}\"");
    let i = sheet_xml.find(&needle).unwrap_or_else(|| panic!("no {at}"));
    let start = sheet_xml[..i].rfind('<').unwrap();
    let end = i + sheet_xml[i..].find('>').unwrap();
    let tag = &sheet_xml[start..end];
    tag.split_whitespace()
        .find_map(|a| a.strip_prefix("s=\""))
        .map(|v| v.trim_end_matches(['"', '/']).to_string())
        .unwrap_or_else(|| "0".into())
}

fn temp() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().to_path_buf();
    (t, p)
}

#[test]
fn blue_italic_givens_are_givens_not_an_earlier_runs_fills() {
    let (_t, dir) = temp();
    let easy: Grid = EASY.parse().unwrap();
    let mut book = Workbook::new();
    // Every given in italic pure blue, as some puzzle authors style them.
    put_grid(
        book.add_worksheet().set_name("All").unwrap(),
        &easy,
        blue_italic,
    );
    // Some givens blue italic, the others plain.
    let mut n = 0;
    put_grid(book.add_worksheet().set_name("Some").unwrap(), &easy, |f| {
        n += 1;
        if n % 2 == 0 {
            blue_italic(f)
        } else {
            f
        }
    });
    let input = dir.join("blue.xlsx");
    book.save(&input).unwrap();
    let out = dir.join("out.xlsx");
    let (code, recs, o) = solve(&input, &out);
    assert_eq!(code, 0, "{}", stderr(&o));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.status.to_string(), "solved", "{r:?}");
        assert_eq!(r.givens, Some(30), "{r:?}");
    }
    let solution: Grid = EASY_SOLUTION.parse().unwrap();
    for sheet in ["All", "Some"] {
        let v = values(&out, sheet);
        for r in 0..9 {
            for c in 0..9 {
                let at = CellRef::new(2 + r as u32, 2 + c as u32).to_string();
                assert_eq!(
                    number(&v, &at),
                    Some(f64::from(solution.get(r, c))),
                    "{sheet}!{at}"
                );
            }
        }
    }
}

#[test]
fn a_rerun_that_clears_earlier_fills_gives_them_their_style_back() {
    let (_t, dir) = temp();
    let easy: Grid = EASY.parse().unwrap();
    let mut book = Workbook::new();
    put_grid(book.add_worksheet().set_name("Easy").unwrap(), &easy, |f| f);
    let input = dir.join("easy.xlsx");
    book.save(&input).unwrap();
    let first = dir.join("first.xlsx");
    let (code, _, o) = solve(&input, &first);
    assert_eq!(code, 0, "{}", stderr(&o));

    // A person changes the given C3 (5) into a 3: the givens clash, the
    // rerun clears the earlier fills. The edit keeps the copy's records.
    let (mut entries, comment) = unzip(&std::fs::read(&first).unwrap());
    assert!(
        part(&entries, xlsudoku::annotate::RECORD_PART).contains("xlsudoku-grid "),
        "the copy records its grid"
    );
    assert!(comment.len() < 400, "the zip comment stays short");
    let sheet = part(&entries, "xl/worksheets/sheet1.xml").to_string();
    let c3 = sheet.find("r=\"C3\"").unwrap();
    let v = c3 + sheet[c3..].find("<v>5</v>").unwrap();
    let edited = format!("{}<v>3</v>{}", &sheet[..v], &sheet[v + 8..]);
    for (name, data) in &mut entries {
        if name == "xl/worksheets/sheet1.xml" {
            *data = edited.clone().into_bytes();
        }
    }
    let clashing = dir.join("clashing.xlsx");
    std::fs::write(&clashing, crate::util::pack(&entries, &comment)).unwrap();
    let second = dir.join("second.xlsx");
    let (code, recs, o) = solve(&clashing, &second);
    assert_eq!(code, 1, "{}", stderr(&o));
    assert_eq!(recs[0].status.to_string(), "invalid");

    let (orig, _) = unzip(&std::fs::read(&input).unwrap());
    let (again, _) = unzip(&std::fs::read(&second).unwrap());
    let before = part(&orig, "xl/worksheets/sheet1.xml");
    let after = part(&again, "xl/worksheets/sheet1.xml");
    let v = values(&second, "Easy");
    for r in 0..9 {
        for c in 0..9 {
            if easy.get(r, c) == 0 {
                let at = CellRef::new(2 + r as u32, 2 + c as u32).to_string();
                assert_eq!(number(&v, &at), None, "{at} cleared");
                assert_eq!(style_of(after, &at), style_of(before, &at), "{at}'s style");
            }
        }
    }
    // The givens stay as they were.
    assert_eq!(number(&v, "D4"), None);
    assert_eq!(number(&v, "C4"), Some(6.0));
    assert_eq!(style_of(after, "C4"), style_of(before, "C4"));
}

#[test]
fn grid_records_that_do_not_fit_the_zip_comment_are_left_out() {
    let easy: Grid = EASY.parse().unwrap();
    let solution: Grid = EASY_SOLUTION.parse().unwrap();
    let mut book = Workbook::new();
    put_grid(book.add_worksheet().set_name("Easy").unwrap(), &easy, |f| f);
    let (entries, _) = unzip(&book.save_to_buffer().unwrap());
    // A comment that leaves no room for the grid's record.
    let comment = vec![b'x'; 65_400];
    let input = crate::util::pack(&entries, &comment);
    let range: CellRange = "C3:K11".parse().unwrap();
    let mut cells = Vec::new();
    for r in 0..9 {
        for c in 0..9 {
            if easy.get(r, c) == 0 {
                cells.push(CellEdit {
                    at: range.cell(r as u32, c as u32),
                    value: CellValue::Number(f64::from(solution.get(r, c))),
                });
            }
        }
    }
    let filled: Vec<CellRef> = cells.iter().map(|e| e.at).collect();
    let note = CellRef::new(11, 2);
    cells.push(CellEdit {
        at: note,
        value: CellValue::Text("solved".into()),
    });
    let edits = [SheetEdits {
        sheet: "Easy".into(),
        cells,
    }];
    let options = AnnotateOptions {
        grids: vec![GridMark {
            sheet: "Easy".into(),
            range,
            filled,
            note: Some(note),
            tinted: Vec::new(),
            answer: None,
            keep: false,
        }],
        ..AnnotateOptions::default()
    };
    let mut copy = Cursor::new(Vec::new());
    annotate_with(Cursor::new(input), &edits, &mut copy, options.clone()).unwrap();
    let copy = copy.into_inner();
    let (_, written) = unzip(&copy);
    assert_eq!(written, comment, "no record, the comment kept");
    let (_t, dir) = temp();
    let path = dir.join("copy.xlsx");
    std::fs::write(&path, &copy).unwrap();
    let sheets = read_workbook(&path, &ReadOptions::default()).unwrap();
    let grid = &sheets[0].grids[0];
    assert!(
        grid.cells.iter().all(|c| matches!(c, Cell::Given(_))),
        "without a record every digit is a given"
    );
    assert!(!grid.earlier_note);

    // With room, the record is there and the fills are recognised.
    let (entries, _) = unzip(&copy);
    let roomy = crate::util::pack(&entries, b"x");
    let mut copy = Cursor::new(Vec::new());
    annotate_with(Cursor::new(roomy), &edits, &mut copy, options).unwrap();
    std::fs::write(&path, copy.into_inner()).unwrap();
    let sheets = read_workbook(&path, &ReadOptions::default()).unwrap();
    let grid = &sheets[0].grids[0];
    assert_eq!(grid.puzzle().to_line(), EASY);
    assert!(grid.earlier_note);
}

/// The workbook with every formula's cached value made the empty text, as
/// Excel stores a formula that shows `""` (rust_xlsxwriter caches 0).
fn showing_empty_text(bytes: &[u8]) -> Vec<u8> {
    let (mut entries, comment) = unzip(bytes);
    for (name, data) in &mut entries {
        if name.starts_with("xl/worksheets/") {
            let xml = String::from_utf8(data.clone()).unwrap();
            let mut out = String::new();
            let mut rest = xml.as_str();
            while let Some(i) = rest.find("><f>") {
                let end = i + rest[i..].find("</f><v>0</v>").unwrap();
                out.push_str(&rest[..i]);
                out.push_str(" t=\"str\"");
                out.push_str(&rest[i..end]);
                out.push_str("</f><v></v>");
                rest = &rest[end + "</f><v>0</v>".len()..];
            }
            out.push_str(rest);
            *data = out.into_bytes();
        }
    }
    crate::util::pack(&entries, &comment)
}

/// The formulas of a sheet, by address.
fn formulas(path: &Path, sheet: &str) -> std::collections::HashMap<String, String> {
    let mut book: Xlsx<_> = calamine::open_workbook(path).unwrap();
    let range = book.worksheet_formula(sheet).unwrap();
    range
        .cells()
        .filter(|(_, _, f)| !f.is_empty())
        .map(|(r, c, f)| {
            let (sr, sc) = range.start().unwrap();
            (
                CellRef::new(sr + r as u32, sc + c as u32).to_string(),
                f.clone(),
            )
        })
        .collect()
}

fn note_text(path: &Path, sheet: &str, at: &str) -> String {
    let at: CellRef = at.parse().unwrap();
    match values(path, sheet).get_value((at.row, at.col)) {
        Some(Data::String(s)) => s.clone(),
        other => panic!("no note at {at}: {other:?}"),
    }
}

#[test]
fn a_status_formula_below_the_grid_is_not_replaced_by_the_note() {
    let (_t, dir) = temp();
    let easy: Grid = EASY.parse().unwrap();
    let mut book = Workbook::new();
    let ws = book.add_worksheet().set_name("Easy").unwrap();
    put_grid(ws, &easy, |f| f);
    ws.write_formula(
        11,
        2,
        rust_xlsxwriter::Formula::new(r#"=IF(COUNT(C3:K11)=81,"Well done!","")"#).set_result(""),
    )
    .unwrap();
    let input = dir.join("status.xlsx");
    std::fs::write(&input, showing_empty_text(&book.save_to_buffer().unwrap())).unwrap();
    let out = dir.join("out.xlsx");
    let (code, _, o) = solve(&input, &out);
    assert_eq!(code, 0, "{}", stderr(&o));
    let f = formulas(&out, "Easy");
    assert_eq!(
        f.get("C12").map(String::as_str),
        Some(r#"IF(COUNT(C3:K11)=81,"Well done!","")"#),
        "{f:?}"
    );
    assert!(note_text(&out, "Easy", "C13").starts_with("solved"));
}

#[test]
fn grid_cells_holding_formulas_are_never_overwritten() {
    let (_t, dir) = temp();
    let easy: Grid = EASY.parse().unwrap();
    let mut book = Workbook::new();
    // A display grid: the givens as numbers, every blank a formula that
    // shows "" (as a sheet fed from another one does).
    let ws = book.add_worksheet().set_name("Show").unwrap();
    for r in 0..9 {
        for c in 0..9 {
            let (row, col) = (2 + r as u32, 2 + c as u16);
            match easy.get(r, c) {
                0 => ws
                    .write_formula_with_format(
                        row,
                        col,
                        rust_xlsxwriter::Formula::new(r#"=IF(TRUE,"","x")"#).set_result(""),
                        &grid_format(r, c),
                    )
                    .unwrap(),
                v => ws
                    .write_number_with_format(row, col, f64::from(v), &grid_format(r, c))
                    .unwrap(),
            };
        }
    }
    let input = dir.join("display.xlsx");
    std::fs::write(&input, showing_empty_text(&book.save_to_buffer().unwrap())).unwrap();
    let out = dir.join("out.xlsx");
    let (code, recs, o) = solve(&input, &out);
    assert_eq!(code, 0, "{}", stderr(&o));
    assert_eq!(recs[0].status.to_string(), "solved");
    let f = formulas(&out, "Show");
    assert_eq!(f.len(), 51, "every formula kept: {f:?}");
    let note = note_text(&out, "Show", "C12");
    assert!(note.starts_with("solved"), "{note}");
    assert!(
        note.contains("51 cells hold formulas: left as they are"),
        "{note}"
    );
}

#[test]
fn a_digit_typed_over_an_earlier_fill_in_its_blue_italics_is_a_given() {
    let (_t, dir) = temp();
    let easy: Grid = EASY.parse().unwrap();
    let mut book = Workbook::new();
    put_grid(book.add_worksheet().set_name("Easy").unwrap(), &easy, |f| f);
    let input = dir.join("easy.xlsx");
    book.save(&input).unwrap();
    let first = dir.join("first.xlsx");
    let (code, _, o) = solve(&input, &first);
    assert_eq!(code, 0, "{}", stderr(&o));
    // A person types 2 into E3 (filled with 4): the cell keeps its blue
    // italics, as a cell does in Excel when typed into.
    let (mut entries, comment) = unzip(&std::fs::read(&first).unwrap());
    let sheet = part(&entries, "xl/worksheets/sheet1.xml").to_string();
    let e3 = sheet.find("r=\"E3\"").unwrap();
    let v = e3 + sheet[e3..].find("<v>4</v>").unwrap();
    let edited = format!("{}<v>2</v>{}", &sheet[..v], &sheet[v + 8..]);
    for (name, data) in &mut entries {
        if name == "xl/worksheets/sheet1.xml" {
            *data = edited.clone().into_bytes();
        }
    }
    let typed = dir.join("typed.xlsx");
    std::fs::write(&typed, crate::util::pack(&entries, &comment)).unwrap();
    let second = dir.join("second.xlsx");
    let (_, recs, o) = solve(&typed, &second);
    assert_eq!(recs[0].givens, Some(31), "{}", stderr(&o));
    assert_eq!(number(&values(&second, "Easy"), "E3"), Some(2.0));
}

#[test]
fn an_openpyxl_workbook_keeps_its_blue_givens_and_its_formulas() {
    let (_t, dir) = temp();
    let input = crate::util::fixture("openpyxl_givens_formulas.xlsx");
    let out = dir.join("out.xlsx");
    let (code, recs, o) = solve(&input, &out);
    // `Display` fails: formulas without a cached value (openpyxl writes
    // none) that are not constants could show anything.
    assert_eq!(code, 1, "{}", stderr(&o));
    let status: Vec<(String, String, Option<usize>)> = recs
        .iter()
        .map(|r| (r.sheet.clone().unwrap(), r.status.to_string(), r.givens))
        .collect();
    assert_eq!(
        status,
        [
            ("Blue".to_string(), "solved".to_string(), Some(30)),
            ("Status".to_string(), "solved".to_string(), Some(30)),
            ("Display".to_string(), "invalid".to_string(), Some(30)),
        ]
    );
    let display = recs[2].error.clone().unwrap_or_default();
    assert!(
        display.contains("E3, F3") && display.contains("formulas without a computed value"),
        "{display}"
    );
    let solution: Grid = EASY_SOLUTION.parse().unwrap();
    let blue = values(&out, "Blue");
    for r in 0..9 {
        for c in 0..9 {
            let at = CellRef::new(2 + r as u32, 2 + c as u32).to_string();
            assert_eq!(
                number(&blue, &at),
                Some(f64::from(solution.get(r, c))),
                "{at}"
            );
        }
    }
    let f = formulas(&out, "Status");
    assert_eq!(
        f.get("C12").map(String::as_str),
        Some(r#"IF(COUNT(C3:K11)=81,"Well done!","")"#)
    );
    assert!(note_text(&out, "Status", "C13").starts_with("solved"));
    // Never overwritten, whatever the status.
    assert_eq!(formulas(&out, "Display").len(), 51);
    let note = note_text(&out, "Display", "C12");
    assert!(note.starts_with("invalid"), "{note}");
}
