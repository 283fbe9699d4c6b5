//! A cell whose reference names another row than the `<row>` it stands in
//! (`<row r="4"><c r="C3">…`, as a hand edit or a broken writer leaves it).
//! The patcher finds cells by the row element they stand in, so such a
//! cell was read as C3 and then edited as C4: the copy lost the givens of
//! row 3 under the fills of row 4, with exit 0, and came out with
//! duplicate rows. Both `check` and `solve` must refuse the sheet (exit 2,
//! naming the cell) and write nothing.

use crate::util::{easy_with_sheet as easy_with, output_text as text, xlsudoku};

use std::path::Path;

fn refused_by_check_and_solve(dir: &Path, input: &Path) {
    let before = std::fs::read(input).unwrap();
    let out = dir.join("out.xlsx");
    let check = xlsudoku(&["check", input.to_str().unwrap()]);
    let solve = xlsudoku(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(2), "check: {}", text(&check));
    assert_eq!(solve.status.code(), Some(2), "solve: {}", text(&solve));
    assert!(
        text(&solve).contains("C3"),
        "names the cell: {}",
        text(&solve)
    );
    assert!(!out.exists(), "no copy is written");
    assert_eq!(std::fs::read(input).unwrap(), before, "input unchanged");
}

#[test]
fn cells_of_row_3_filed_under_row_4_are_refused_not_written_over() {
    let dir = tempfile::tempdir().unwrap();
    // The first row element says 4 while its cells say C3..K3; the real
    // row 4 follows, so the part holds row 4 twice.
    let input = easy_with(dir.path(), "wrong_row.xlsx", |xml| {
        assert_eq!(xml.matches("<row r=\"3\"").count(), 1);
        xml.replacen("<row r=\"3\"", "<row r=\"4\"", 1)
    });
    refused_by_check_and_solve(dir.path(), &input);
}

#[test]
fn a_row_without_number_holding_cells_of_another_row_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // The first row has no `r` (so it is row 1) but its cells say row 3.
    let input = easy_with(dir.path(), "unnumbered_row.xlsx", |xml| {
        xml.replacen("<row r=\"3\" ", "<row ", 1)
    });
    refused_by_check_and_solve(dir.path(), &input);
}
