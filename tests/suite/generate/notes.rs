//! A solved puzzle book: `solve` writes each grid's note into the row
//! under it, which the book gives a font of normal size (not the book's
//! 17.5 pt) and which every page's print area covers, the last grid's too.

use std::path::Path;

use xlsudoku::address::{CellRange, CellRef};
use xlsudoku::generate::book::NOTE_POINTS;

use crate::util::{entries, solve_records, xlsudoku};

/// The text of a part of a package.
fn part(parts: &[(String, Vec<u8>)], name: &str) -> String {
    let bytes = &parts.iter().find(|(p, _)| p == name).unwrap().1;
    String::from_utf8(bytes.clone()).unwrap()
}

/// The value of attribute `key` in the first tag of `xml` starting with
/// `open`.
fn attr(xml: &str, open: &str, key: &str) -> Option<String> {
    let tag = &xml[xml.find(open)?..];
    let tag = &tag[..tag.find('>')?];
    let at = tag.find(&format!(" {key}=\""))? + key.len() + 3;
    Some(tag[at..at + tag[at..].find('"')?].to_string())
}

/// The font size of style `s` (a `cellXfs` index) of a styles part.
fn font_points(styles: &str, s: usize) -> f64 {
    let xfs = &styles[styles.find("<cellXfs").unwrap()..];
    let xf = xfs.split("<xf ").nth(s + 1).unwrap();
    let font: usize = attr(&format!("<xf {xf}"), "<xf ", "fontId")
        .unwrap()
        .parse()
        .unwrap();
    let fonts = &styles[styles.find("<fonts").unwrap()..styles.find("</fonts>").unwrap()];
    let f = fonts.split("<font>").nth(font + 1).unwrap();
    attr(f, "<sz ", "val").unwrap().parse().unwrap()
}

#[test]
fn a_solved_books_notes_are_of_normal_size_and_inside_the_print_area() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.xlsx");
    let solved = dir.path().join("solved.xlsx");
    let o = xlsudoku(&[
        "generate",
        "-n",
        "4",
        "--per-page",
        "2",
        "--seed",
        "7",
        "--level",
        "easy",
        "-o",
        book.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let (code, records) = solve_records(&book, &solved, &[]);
    assert_eq!(code, 0);
    assert_eq!(records.len(), 4);
    let parts = entries(&std::fs::read(&solved).unwrap());
    let (workbook, styles) = (
        part(&parts, "xl/workbook.xml"),
        part(&parts, "xl/styles.xml"),
    );
    let sheets =
        xlsudoku::workbook::read_workbook(Path::new(&solved), &Default::default()).unwrap();
    for r in &records {
        let sheet = r.sheet.as_deref().unwrap();
        let k = sheets.iter().position(|s| s.name == sheet).unwrap();
        let range: CellRange = r.range.as_deref().unwrap().parse().unwrap();
        // The note is in the row under the grid.
        let note = CellRef::new(range.end.row + 1, range.start.col);
        let xml = part(&parts, &format!("xl/worksheets/sheet{}.xml", k + 1));
        let s: usize = attr(&xml, &format!("<c r=\"{note}\""), "s")
            .unwrap_or_else(|| panic!("{sheet}: no note at {note}"))
            .parse()
            .unwrap();
        assert!(xml.contains("solved in"), "{sheet}");
        let points = font_points(&styles, s);
        assert_eq!(points, NOTE_POINTS, "{sheet} {note}");
        assert!(points < 17.5);
        // The sheet's print area covers the note.
        let area = workbook
            .split("<definedName ")
            .find(|d| {
                d.contains("_xlnm.Print_Area") && d.contains(&format!("localSheetId=\"{k}\""))
            })
            .unwrap_or_else(|| panic!("{sheet}: no print area"));
        let area = &area[area.find('!').unwrap() + 1..area.find("</definedName>").unwrap()];
        let area: CellRange = area.replace('$', "").parse().unwrap();
        assert!(area.contains(note), "{sheet}: {note} outside {area}");
    }
}
