//! A cell given twice in the sheet data (a `<row>` repeated, or one `<c>`
//! repeated, as a merge tool or hand edit leaves it). xlsudoku read one
//! occurrence and filled the grid, the patcher edited one occurrence, and
//! other readers take the other: the copy, opened elsewhere, showed the
//! puzzle unsolved (or its givens as blanks) while xlsudoku reported it
//! solved, exit 0. Such a sheet is refused by `check` and `solve` alike
//! (exit 2, naming the cell), and nothing is written.

use crate::util::{easy_with_sheet as easy_with, output_text as text, xlsudoku};

use std::path::Path;

fn refused(dir: &Path, input: &Path, cell: &str) {
    let before = std::fs::read(input).unwrap();
    let out = dir.join("out.xlsx");
    let check = xlsudoku(&["check", input.to_str().unwrap()]);
    let solve = xlsudoku(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(2), "check: {}", text(&check));
    assert_eq!(solve.status.code(), Some(2), "solve: {}", text(&solve));
    assert!(
        text(&solve).contains(cell),
        "names {cell}: {}",
        text(&solve)
    );
    assert!(!out.exists(), "no copy is written");
    assert_eq!(std::fs::read(input).unwrap(), before, "input unchanged");
}

/// The `<row r="N">…</row>` element of row `n`.
fn row_element(xml: &str, n: u32) -> String {
    let start = xml.find(&format!("<row r=\"{n}\"")).unwrap();
    let end = start + xml[start..].find("</row>").unwrap() + "</row>".len();
    xml[start..end].to_string()
}

#[test]
fn a_row_given_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Row 3 (givens and blanks) repeated after row 5, blanks and all.
    let input = easy_with(dir.path(), "dup_row.xlsx", |xml| {
        let row3 = row_element(&xml, 3);
        let row5 = row_element(&xml, 5);
        xml.replacen(&row5, &format!("{row5}{row3}"), 1)
    });
    refused(dir.path(), &input, "C3");
}

#[test]
fn a_cell_given_twice_in_its_row_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // E3 (a blank) repeated at the end of row 3, holding a digit.
    let input = easy_with(dir.path(), "dup_cell.xlsx", |xml| {
        let row3 = row_element(&xml, 3);
        let twice = row3.replacen("</row>", "<c r=\"E3\"><v>4</v></c></row>", 1);
        xml.replacen(&row3, &twice, 1)
    });
    refused(dir.path(), &input, "E3");
}
