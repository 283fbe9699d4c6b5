//! A framed grid (thick frame, thick box lines) inside other borders: an
//! "All Borders" table around it, puzzle-book coordinates (`A`-`I` above,
//! `1`-`9` at the left) bordered next to it, bordered row and column sums
//! beside and below it. Each workbook is built here with rust_xlsxwriter and
//! checked through the real binary: the grid is found at its own square and
//! solved, never taken as the larger bordered square around it.

use std::path::Path;
use std::process::Output;

use rust_xlsxwriter::{Format, FormatAlign, FormatBorder, Formula, Workbook, Worksheet};
use xlsudoku::grid::{BoxShape, Grid};
use xlsudoku::report::SheetRecord;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Gecode's 16x16 (janko.at), one solution.
const SIXTEEN: &str = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";
/// A 6x6 with 3-wide, 2-high boxes, one solution.
const SIX: &str = "...4...56.....456...1...3.5....1....";

fn thin() -> Format {
    Format::new()
        .set_align(FormatAlign::Center)
        .set_border(FormatBorder::Thin)
}

/// What to draw around the grid.
#[derive(Default, Clone, Copy)]
struct Around {
    /// An "All Borders" table of this many rows and columns at `A1`.
    table: Option<(u32, u16)>,
    /// Column letters above the grid, row numbers at its left, bordered
    /// (the corner cell between them too).
    coordinates: bool,
    /// The givens written as words (`n5`): values that are no puzzle.
    words: bool,
    /// The grid drawn with thin lines only (no thick frame or box lines).
    thin_only: bool,
    /// Row sums beside the grid, column sums below it and the total in the
    /// corner (formulas with their cached values), bordered.
    sums: bool,
}

/// Writes the puzzle `text` as a grid with thin cell lines and a medium
/// frame and box lines, its corner at (`row`, `col`), with `around` drawn
/// around it; one sheet, saved at `path`.
fn build(path: &Path, text: &str, shape: BoxShape, at: (u32, u16), around: Around) {
    let grid = Grid::parse_line(text, Some(shape)).unwrap();
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet().set_name("Puzzle").unwrap();
    if let Some((rows, cols)) = around.table {
        for r in 0..rows {
            for c in 0..cols {
                ws.write_blank(r, c, &thin()).unwrap();
            }
        }
    }
    put_grid(ws, &grid, at, around);
    let n = grid.side();
    let (row, col) = at;
    if around.coordinates {
        // The empty corner cell is bordered too, so the 10x10 square round
        // grid and labels closes.
        ws.write_blank(row - 1, col - 1, &thin()).unwrap();
        for k in 0..n {
            let letter = char::from(b'A' + k as u8).to_string();
            ws.write_string_with_format(row - 1, col + k as u16, &letter, &thin())
                .unwrap();
            ws.write_number_with_format(row + k as u32, col - 1, (k + 1) as f64, &thin())
                .unwrap();
        }
    }
    if around.sums {
        let sum_of = |cells: Vec<u8>| cells.iter().map(|&v| u32::from(v)).sum::<u32>();
        for k in 0..n {
            let row_sum = sum_of((0..n).map(|c| grid.get(k, c)).collect());
            let col_sum = sum_of((0..n).map(|r| grid.get(r, k)).collect());
            let r = row + k as u32;
            let c = col + k as u16;
            let row_cells = format!("{}:{}", cell_name(r, col), cell_name(r, col + n as u16 - 1));
            let col_cells = format!("{}:{}", cell_name(row, c), cell_name(row + n as u32 - 1, c));
            ws.write_formula_with_format(
                r,
                col + n as u16,
                Formula::new(format!("=SUM({row_cells})")).set_result(row_sum.to_string()),
                &thin(),
            )
            .unwrap();
            ws.write_formula_with_format(
                row + n as u32,
                c,
                Formula::new(format!("=SUM({col_cells})")).set_result(col_sum.to_string()),
                &thin(),
            )
            .unwrap();
        }
    }
    if around.sums {
        let all = format!(
            "{}:{}",
            cell_name(row, col),
            cell_name(row + n as u32 - 1, col + n as u16 - 1)
        );
        let total: u32 = grid.cells().iter().map(|&v| u32::from(v)).sum();
        ws.write_formula_with_format(
            row + n as u32,
            col + n as u16,
            Formula::new(format!("=SUM({all})")).set_result(total.to_string()),
            &thin(),
        )
        .unwrap();
    }
    wb.save(path).unwrap();
}

fn cell_name(row: u32, col: u16) -> String {
    xlsudoku::address::CellRef::new(row, u32::from(col)).to_string()
}

fn put_grid(ws: &mut Worksheet, grid: &Grid, (row, col): (u32, u16), around: Around) {
    let n = grid.side();
    let (w, h) = (grid.shape().width(), grid.shape().height());
    let line = |outer: bool, boxes: bool| {
        if (outer || boxes) && !around.thin_only {
            FormatBorder::Medium
        } else {
            FormatBorder::Thin
        }
    };
    for r in 0..n {
        for c in 0..n {
            let fmt = Format::new()
                .set_align(FormatAlign::Center)
                .set_border_left(line(c == 0, c % w == 0))
                .set_border_right(line(c == n - 1, (c + 1) % w == 0))
                .set_border_top(line(r == 0, r % h == 0))
                .set_border_bottom(line(r == n - 1, (r + 1) % h == 0));
            let (rr, cc) = (row + r as u32, col + c as u16);
            match grid.get(r, c) {
                0 => ws.write_blank(rr, cc, &fmt).unwrap(),
                v if around.words => ws
                    .write_string_with_format(rr, cc, format!("n{v}"), &fmt)
                    .unwrap(),
                v => ws
                    .write_number_with_format(rr, cc, f64::from(v), &fmt)
                    .unwrap(),
            };
        }
    }
}

/// `xlsudoku check --json` on one workbook: its sheet records.
fn check(path: &Path) -> Vec<SheetRecord> {
    let o: Output = crate::util::command()
        .args(["check", "--json", path.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    text.lines()
        .filter(|l| l.contains("\"sheet\""))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Builds the workbook and checks that exactly the grid at `range` is found
/// and solved.
fn assert_found(text: &str, shape: &str, at: (u32, u16), around: Around, range: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzle.xlsx");
    build(&path, text, shape.parse().unwrap(), at, around);
    let recs = check(&path);
    let got: Vec<(Option<String>, String, Option<String>)> = recs
        .iter()
        .map(|r| (r.range.clone(), r.status.to_string(), r.box_shape.clone()))
        .collect();
    assert_eq!(
        got,
        [(
            Some(range.to_string()),
            "solved".to_string(),
            Some(shape.to_string())
        )],
        "{recs:?}"
    );
}

#[test]
fn thick_framed_9x9_inside_an_all_borders_table_is_found() {
    let around = Around {
        table: Some((15, 15)),
        ..Default::default()
    };
    assert_found(EASY, "3x3", (3, 3), around, "D4:L12");
}

#[test]
fn thick_framed_9x9_in_the_corner_of_a_larger_table_is_found() {
    // The table's own corner is the grid's corner: the 12x12 (4x3) square
    // at A1 closes too.
    let around = Around {
        table: Some((12, 12)),
        ..Default::default()
    };
    assert_found(EASY, "3x3", (0, 0), around, "A1:I9");
}

#[test]
fn coordinates_a_to_i_and_1_to_9_bordered_around_the_grid_are_labels() {
    let around = Around {
        coordinates: true,
        ..Default::default()
    };
    assert_found(EASY, "3x3", (2, 2), around, "C3:K11");
}

#[test]
fn coordinates_inside_an_all_borders_table_are_labels() {
    // The table goes on past the labels: an 11x11 square closes at A1.
    let around = Around {
        table: Some((11, 11)),
        coordinates: true,
        ..Default::default()
    };
    assert_found(EASY, "3x3", (2, 2), around, "C3:K11");
}

#[test]
fn row_and_column_sums_bordered_beside_and_below_are_not_grid_cells() {
    let around = Around {
        sums: true,
        ..Default::default()
    };
    assert_found(EASY, "3x3", (1, 1), around, "B2:J10");
}

#[test]
fn sums_and_coordinates_inside_a_table_leave_the_framed_grid() {
    let around = Around {
        table: Some((13, 13)),
        coordinates: true,
        sums: true,
        ..Default::default()
    };
    assert_found(EASY, "3x3", (2, 2), around, "C3:K11");
}

#[test]
fn thick_framed_16x16_inside_an_all_borders_table_is_found() {
    let around = Around {
        table: Some((20, 20)),
        ..Default::default()
    };
    assert_found(SIXTEEN, "4x4", (2, 2), around, "C3:R18");
}

#[test]
fn thick_framed_6x6_inside_an_all_borders_table_is_found() {
    let around = Around {
        table: Some((10, 10)),
        ..Default::default()
    };
    assert_found(SIX, "3x2", (2, 2), around, "C3:H8");
}

#[test]
fn framed_square_of_words_inside_a_table_is_named_in_the_no_grid_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("puzzle.xlsx");
    let around = Around {
        table: Some((15, 15)),
        words: true,
        ..Default::default()
    };
    build(&path, EASY, "3x3".parse().unwrap(), (3, 3), around);
    let recs = check(&path);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0].status, "no-grid", "{recs:?}");
    let error = recs[0].error.as_deref().unwrap_or_default();
    assert!(
        error.starts_with(
            "bordered 9x9 at D4:L12 not taken: none of its 30 filled cells holds a digit 1-9 \
             (D4 holds \"n5\", E4 holds \"n3\", H4 holds \"n7\", …)"
        ),
        "{error}"
    );
    assert!(!error.contains("A1:O15"), "{error}");
}

#[test]
fn thin_lined_grid_with_bordered_coordinates_is_found_inside_the_labels() {
    // No thick lines at all: the 10x10 (5x2) square round labels and grid
    // closes; its top row (letters) and left column (1-9 in order) are
    // labels, so the 9x9 inside is the grid.
    let around = Around {
        coordinates: true,
        thin_only: true,
        ..Default::default()
    };
    assert_found(EASY, "3x3", (2, 2), around, "C3:K11");
}

#[test]
fn thin_lined_grid_with_bordered_sums_is_found_beside_them() {
    let around = Around {
        sums: true,
        thin_only: true,
        ..Default::default()
    };
    assert_found(EASY, "3x3", (1, 1), around, "B2:J10");
}

#[test]
fn thin_lined_grid_with_coordinates_and_sums_is_found_between_them() {
    // An 11x11 square closes (no box shape): two strips each way.
    let around = Around {
        coordinates: true,
        sums: true,
        thin_only: true,
        ..Default::default()
    };
    assert_found(EASY, "3x3", (2, 2), around, "C3:K11");
}

#[test]
fn thin_lined_6x6_with_coordinates_is_found_inside_the_labels() {
    let around = Around {
        coordinates: true,
        thin_only: true,
        ..Default::default()
    };
    assert_found(SIX, "3x2", (2, 2), around, "C3:H8");
}
