//! Packages and sheets stored in unusual or broken ways: the copy keeps
//! every element and entry once, or the file is refused with a message.
//! Each test is named after the bug it pins.

use crate::util::stderr;
use crate::util::xlsudoku;
use crate::util::EASY;

use std::collections::HashSet;

use std::path::Path;

use calamine::{Data, Reader, Xlsx};
use xlsudoku::export::write_grid;
use xlsudoku::grid::Grid;

/// EASY as a bordered grid at C3, as xlsudoku's own export writes it.
fn easy_workbook() -> Vec<u8> {
    let easy: Grid = EASY.parse().unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet().set_name("Easy").unwrap();
    write_grid(ws, &easy, "C3".parse().unwrap()).unwrap();
    book.save_to_buffer().unwrap()
}

fn sheet_xml(bytes: &[u8]) -> String {
    let entries = crate::util::entries(bytes);
    let (_, data) = entries
        .iter()
        .find(|(n, _)| n == "xl/worksheets/sheet1.xml")
        .unwrap();
    String::from_utf8(data.clone()).unwrap()
}

/// The `r` attributes of every element named `tag` (`row` or `c`).
fn refs(xml: &str, tag: &str) -> Vec<String> {
    let open = format!("<{tag} ");
    xml.match_indices(&open)
        .map(|(i, _)| {
            let rest = &xml[i..];
            let at = rest.find(" r=\"").unwrap() + 4;
            rest[at..at + rest[at..].find('"').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn rows_and_cells_out_of_order_are_merged_not_duplicated() {
    let t = tempfile::tempdir().unwrap();
    let bytes = easy_workbook();
    let xml = sheet_xml(&bytes);
    // Move row 3 (the grid's first) to the end of the sheet data, and
    // write row 4's cells right to left.
    let row = |n: u32| {
        let start = xml.find(&format!("<row r=\"{n}\"")).unwrap();
        let end = start + xml[start..].find("</row>").unwrap() + "</row>".len();
        (start, end)
    };
    let (s3, e3) = row(3);
    let (s4, e4) = row(4);
    let row4 = &xml[s4..e4];
    let head_end = row4.find('>').unwrap() + 1;
    let cells: Vec<&str> = row4[head_end..row4.len() - "</row>".len()]
        .split_inclusive("/>")
        .flat_map(|c| c.split_inclusive("</c>"))
        .collect();
    let reversed: String = cells.iter().rev().copied().collect();
    let new_row4 = format!("{}{reversed}</row>", &row4[..head_end]);
    let end_data = xml.find("</sheetData>").unwrap();
    let edited = format!(
        "{}{}{}{}{}",
        &xml[..s3],
        new_row4,
        &xml[e4..end_data],
        &xml[s3..e3],
        &xml[end_data..]
    );
    assert_ne!(refs(&edited, "row")[0], "3", "rows are out of order");
    let entries: Vec<(String, Vec<u8>)> = crate::util::entries(&bytes)
        .into_iter()
        .map(|(n, d)| {
            if n == "xl/worksheets/sheet1.xml" {
                (n, edited.clone().into_bytes())
            } else {
                (n, d)
            }
        })
        .collect();
    let input = t.path().join("unordered.xlsx");
    std::fs::write(&input, crate::util::pack(&entries, &[])).unwrap();
    let out = t.path().join("out.xlsx");
    let o = xlsudoku(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let copy = sheet_xml(&std::fs::read(&out).unwrap());
    let rows = refs(&copy, "row");
    let unique: HashSet<&String> = rows.iter().collect();
    assert_eq!(unique.len(), rows.len(), "a row twice: {rows:?}");
    let cells = refs(&copy, "c");
    let unique: HashSet<&String> = cells.iter().collect();
    assert_eq!(unique.len(), cells.len(), "a cell twice: {cells:?}");
    let mut book: Xlsx<_> = calamine::open_workbook(&out).unwrap();
    let v = book.worksheet_range("Easy").unwrap();
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    for (i, ch) in solution.chars().enumerate() {
        let (r, c) = (2 + (i / 9) as u32, 2 + (i % 9) as u32);
        let want = f64::from(ch.to_digit(10).unwrap());
        assert_eq!(
            v.get_value((r, c)),
            Some(&Data::Float(want)),
            "row {r} col {c}"
        );
    }
}

fn replace_bytes(bytes: &mut [u8], from: &[u8], to: &[u8]) -> usize {
    let mut n = 0;
    for i in 0..=bytes.len() - from.len() {
        if &bytes[i..i + from.len()] == from {
            bytes[i..i + from.len()].copy_from_slice(to);
            n += 1;
        }
    }
    n
}

/// `solve` and `check` both refuse the file: exit 2, a message naming the
/// file and the problem, no copy written.
fn assert_refused(path: &Path, problem: &str) {
    let dir = path.parent().unwrap();
    let out = dir.join("out.xlsx");
    let o = xlsudoku(&[path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "solve: {}", stderr(&o));
    let name = path.file_name().unwrap().to_str().unwrap();
    assert!(
        stderr(&o).contains(name) && stderr(&o).contains(problem),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    let o = xlsudoku(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "check: {}", stderr(&o));
    assert!(stderr(&o).contains(problem), "{}", stderr(&o));
}

#[test]
fn a_zip_with_two_entries_of_one_name_is_refused_not_copied_short() {
    let t = tempfile::tempdir().unwrap();
    let mut entries = crate::util::entries(&easy_workbook());
    entries.push(("docProps/corX.xml".into(), b"<x/>".to_vec()));
    let mut bytes = crate::util::pack(&entries, &[]);
    assert_eq!(
        replace_bytes(&mut bytes, b"docProps/corX.xml", b"docProps/core.xml"),
        2
    );
    let path = t.path().join("twice.xlsx");
    std::fs::write(&path, bytes).unwrap();
    assert_refused(&path, "two entries are named docProps/core.xml");
}

#[test]
fn a_zip_whose_end_record_counts_one_entry_too_few_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let mut bytes = crate::util::pack(&crate::util::entries(&easy_workbook()), &[]);
    let eocd = bytes.len() - 22;
    assert_eq!(&bytes[eocd..eocd + 4], b"PK\x05\x06");
    let n = u16::from_le_bytes([bytes[eocd + 10], bytes[eocd + 11]]) - 1;
    bytes[eocd + 8..eocd + 10].copy_from_slice(&n.to_le_bytes());
    bytes[eocd + 10..eocd + 12].copy_from_slice(&n.to_le_bytes());
    let path = t.path().join("short.xlsx");
    std::fs::write(&path, bytes).unwrap();
    assert_refused(&path, &format!("the end record counts {n} entries"));
}

#[test]
fn merged_cells_inside_a_grid_make_it_invalid_and_nothing_is_written() {
    let t = tempfile::tempdir().unwrap();
    let easy: Grid = EASY.parse().unwrap();
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet().set_name("Merged").unwrap();
    write_grid(ws, &easy, "C3".parse().unwrap()).unwrap();
    // D4:E4 (row 2 of the grid, both blank) merged, as a careless edit does.
    let border = rust_xlsxwriter::Format::new().set_border(rust_xlsxwriter::FormatBorder::Thin);
    ws.merge_range(3, 3, 3, 4, "", &border).unwrap();
    let input = t.path().join("merged.xlsx");
    book.save(&input).unwrap();
    let out = t.path().join("out.xlsx");
    let o = xlsudoku(&[
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let rec: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(rec["status"], "invalid", "{rec}");
    let error = rec["error"].as_str().unwrap();
    assert!(
        error.contains("merged cells D4:E4 inside the grid"),
        "{error}"
    );

    let mut book: Xlsx<_> = calamine::open_workbook(&out).unwrap();
    let v = book.worksheet_range("Merged").unwrap();
    for (i, ch) in EASY.chars().enumerate() {
        let (r, c) = (2 + (i / 9) as u32, 2 + (i % 9) as u32);
        let got = v.get_value((r, c));
        if ch == '.' {
            assert!(
                matches!(got, None | Some(Data::Empty)),
                "row {r} col {c}: {got:?}"
            );
        }
    }
    match v.get_value((11, 2)) {
        Some(Data::String(note)) => assert!(
            note.starts_with("invalid: merged cells D4:E4 inside the grid"),
            "{note}"
        ),
        other => panic!("no note: {other:?}"),
    }
}
