//! `solve --answers beside|at:CELL` through the real binary: the copy's
//! columns take the grid's widths and its rows the grid's heights, read
//! back from the copy's `<col>` and `<row>` elements, so the copy prints
//! like the grid.

use std::path::Path;

use xlsudoku::address::CellRange;

use crate::util::{fixture, solve_records, xlsudoku};

/// The text of one part of the workbook at `path`.
fn part(path: &Path, name: &str) -> String {
    let mut z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut z.by_name(name).unwrap(), &mut xml).unwrap();
    xml
}

/// The value of attribute `key` in the start tag `tag`.
fn attr(tag: &str, key: &str) -> Option<String> {
    let tag = format!(" {tag}");
    let at = tag.find(&format!(" {key}=\""))? + key.len() + 3;
    Some(tag[at..].split('"').next()?.to_string())
}

/// The start tags of the elements named `name` in `xml`.
fn tags<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    xml.split(&format!("<{name} "))
        .skip(1)
        .map(|t| &t[..t.find('>').unwrap()])
        .collect()
}

/// The width of column `col` (0-based) as the sheet's `<col>` gives it;
/// `None`: the sheet's default.
fn width(xml: &str, col: u32) -> Option<String> {
    let n = col + 1;
    tags(xml, "col")
        .into_iter()
        .find(|t| {
            let num = |k| attr(t, k).and_then(|v| v.parse::<u32>().ok());
            num("min").is_some_and(|lo| lo <= n) && num("max").is_some_and(|hi| n <= hi)
        })
        .and_then(|t| attr(t, "width"))
}

/// The height of row `row` (0-based) as its `<row>` gives it.
fn height(xml: &str, row: u32) -> Option<String> {
    let r = (row + 1).to_string();
    tags(xml, "row")
        .into_iter()
        .find(|t| attr(t, "r").as_deref() == Some(r.as_str()))
        .and_then(|t| attr(t, "ht"))
}

/// Checks that each column and row of `copy` has the width and height of
/// its `grid` column and row, and that the grid has some of its own (else
/// the check proves nothing).
fn same_sizes(xml: &str, grid: CellRange, copy: CellRange) {
    let side = grid.rows();
    let mut sized = 0;
    for k in 0..side {
        let (g, c) = (grid.start.col + k, copy.start.col + k);
        assert_eq!(
            width(xml, c),
            width(xml, g),
            "column {c} takes column {g}'s width"
        );
        let (g, c) = (grid.start.row + k, copy.start.row + k);
        assert_eq!(
            height(xml, c),
            height(xml, g),
            "row {c} takes row {g}'s height"
        );
        sized += usize::from(width(xml, grid.start.col + k).is_some());
    }
    assert!(sized > 0, "the grid's columns have widths of their own");
}

fn copy_of(recs: &[xlsudoku::report::SheetRecord]) -> (CellRange, CellRange) {
    let r = &recs[0];
    assert_eq!(r.status, "solved", "{r:?}");
    (
        r.range.as_deref().unwrap().parse().unwrap(),
        r.answer_range.as_deref().unwrap().parse().unwrap(),
    )
}

#[test]
fn beside_and_at_cell_copies_take_the_grids_column_widths() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("status_logic_easy.xlsx");
    for mode in ["beside", "at:C14", "at:P20"] {
        let out = dir.path().join(format!("{}.xlsx", mode.replace(':', "_")));
        let (code, recs) = solve_records(&input, &out, &["--answers", mode]);
        assert_eq!(code, 0, "{mode}");
        let (grid, copy) = copy_of(&recs);
        same_sizes(&part(&out, "xl/worksheets/sheet1.xml"), grid, copy);
        // A rerun writes the same sizes again (nothing stacks).
        let again = dir
            .path()
            .join(format!("again_{}.xlsx", mode.replace(':', "_")));
        let (code, _) = solve_records(&out, &again, &["--answers", mode]);
        assert_eq!(code, 0, "{mode}");
        let (a, b) = (
            part(&out, "xl/worksheets/sheet1.xml"),
            part(&again, "xl/worksheets/sheet1.xml"),
        );
        assert_eq!(tags(&a, "col"), tags(&b, "col"), "{mode}");
    }
}

#[test]
fn a_copy_of_a_book_grid_takes_its_square_rows_and_columns() {
    // A generated book's cells are square: custom widths and heights.
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.xlsx");
    let o = xlsudoku(&[
        "generate",
        "-n",
        "1",
        "--per-page",
        "1",
        "--seed",
        "5",
        "-o",
        book.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.path().join("solved.xlsx");
    let (code, recs) = solve_records(&book, &out, &["--answers", "at:N30"]);
    assert_eq!(code, 0);
    let (grid, copy) = copy_of(&recs);
    let xml = part(&out, "xl/worksheets/sheet1.xml");
    assert!(
        height(&xml, grid.start.row).is_some(),
        "the book's rows have heights"
    );
    same_sizes(&xml, grid, copy);
}
