//! Grid detection on the layout fixtures, through `read_workbook`: where each
//! grid is, its box shape, its givens and where its note goes.

use crate::util::{fixture, read, EASY};

use xlsudoku::address::CellRange;
use xlsudoku::grid::BoxShape;
use xlsudoku::workbook::{read_workbook, Cell, FoundGrid, ReadOptions};

fn only_grid(name: &str) -> FoundGrid {
    let sheets = read(name);
    assert_eq!(sheets.len(), 1, "{name}: sheets");
    assert_eq!(sheets[0].grids.len(), 1, "{name}: grids");
    sheets[0].grids[0].clone()
}

fn shape(text: &str) -> BoxShape {
    text.parse().unwrap()
}

fn range(text: &str) -> CellRange {
    text.parse().unwrap()
}

#[test]
fn example_workbook_has_easy_big_and_notes_sheets() {
    let sheets = read("example.xlsx");
    let names: Vec<&str> = sheets.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Easy", "Big", "Notes"]);
    let easy = &sheets[0].grids;
    assert_eq!(easy.len(), 1);
    assert_eq!(easy[0].range, range("C3:K11"));
    assert_eq!(easy[0].shape, shape("3x3"));
    assert_eq!(easy[0].puzzle().to_line(), EASY);
    assert_eq!(easy[0].note_at.to_string(), "C12");
    let big = &sheets[1].grids;
    assert_eq!(big.len(), 1);
    assert_eq!(big[0].range, range("C3:R18"));
    assert_eq!(big[0].shape, shape("4x4"));
    assert_eq!(big[0].puzzle().get(0, 0), 13, "D = 13 in the text form");
    assert!(sheets[2].grids.is_empty(), "Notes holds data, not a grid");
}

#[test]
fn grid_lines_at_c3() {
    let g = only_grid("layout_gridlines_c3.xlsx");
    assert_eq!(g.range, range("C3:K11"));
    assert_eq!(g.shape, shape("3x3"));
    assert_eq!(g.puzzle().to_line(), EASY);
}

#[test]
fn outer_frame_only_at_b2() {
    let g = only_grid("layout_frame_b2.xlsx");
    assert_eq!(g.range, range("B2:J10"));
    assert_eq!(g.puzzle().to_line(), EASY);
    assert_eq!(g.note_at.to_string(), "B11");
}

#[test]
fn thick_frame_and_box_lines_at_a1() {
    let g = only_grid("layout_thick_a1.xlsx");
    assert_eq!(g.range, range("A1:I9"));
    assert_eq!(g.shape, shape("3x3"));
    assert_eq!(g.note_at.to_string(), "A10");
}

#[test]
fn grid_outside_the_seeds_search_area_at_h8() {
    let g = only_grid("layout_h8.xlsx");
    assert_eq!(g.range, range("H8:P16"));
    assert_eq!(g.puzzle().to_line(), EASY);
}

#[test]
fn borders_stored_on_neighbouring_cells() {
    let g = only_grid("layout_neighbour_borders.xlsx");
    assert_eq!(g.range, range("C3:K11"));
    assert_eq!(g.puzzle().to_line(), EASY);
}

#[test]
fn bordered_title_row_above_grid_lines_stays_out_of_the_grid() {
    let g = only_grid("layout_title_row.xlsx");
    assert_eq!(g.range, range("A2:I10"));
    assert_eq!(g.puzzle().to_line(), EASY);
    assert!(g.bad_cells().is_empty());
}

#[test]
fn two_grids_on_one_sheet_each_with_its_note() {
    let sheets = read("layout_two_grids.xlsx");
    let grids = &sheets[0].grids;
    assert_eq!(grids.len(), 2);
    assert_eq!(grids[0].range, range("B2:J10"));
    assert_eq!(grids[1].range, range("L2:T10"));
    assert_eq!(grids[0].note_at.to_string(), "B11");
    assert_eq!(grids[1].note_at.to_string(), "L11");
    assert_eq!(grids[1].puzzle().givens(), 22);
}

#[test]
fn six_by_six_boxes_come_from_the_thick_lines() {
    let sheets = read("layout_6x6.xlsx");
    let six = &sheets[0].grids[0];
    assert_eq!(six.range, range("B2:G7"));
    assert_eq!(six.shape, shape("3x2"));
    assert_eq!(
        six.puzzle().to_line(),
        "...4...56.....456...1...3.5....1...."
    );
    // The transposed puzzle is drawn with 2-wide, 3-high boxes: not the
    // usual shape for 6, so only the lines can tell.
    let tall = &sheets[1].grids[0];
    assert_eq!(tall.shape, shape("2x3"));
    assert!(tall.puzzle().conflicts().is_empty());
}

#[test]
fn four_by_four() {
    let g = only_grid("layout_4x4.xlsx");
    assert_eq!(g.range, range("B2:E5"));
    assert_eq!(g.shape, shape("2x2"));
    assert_eq!(g.puzzle().to_line(), ".2..3.......4..3");
}

#[test]
fn twenty_five_by_twenty_five() {
    let g = only_grid("layout_25x25.xlsx");
    assert_eq!(g.range, range("B2:Z26"));
    assert_eq!(g.shape, shape("5x5"));
    assert_eq!(g.cells.len(), 625);
    assert!(g.puzzle().givens() > 300);
    assert!(g.bad_cells().is_empty());
}

#[test]
fn givens_as_text_with_spaces_and_formulas() {
    let g = only_grid("layout_text_givens.xlsx");
    assert_eq!(g.puzzle().to_line(), EASY);
    assert!(g.bad_cells().is_empty());
}

#[test]
fn bordered_tables_that_are_no_puzzle_are_left_alone() {
    let sheets = read("layout_nongrid_tables.xlsx");
    let names: Vec<&str> = sheets.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Names", "Prices", "Small"]);
    for sheet in &sheets {
        assert!(sheet.grids.is_empty(), "{}: {:?}", sheet.name, sheet.grids);
    }
}

#[test]
fn sheet_without_grid_is_listed_with_no_grids() {
    let sheets = read("layout_no_grid.xlsx");
    assert_eq!(sheets.len(), 1);
    assert_eq!(sheets[0].name, "Data");
    assert!(sheets[0].grids.is_empty());
}

#[test]
fn borders_from_row_and_column_styles() {
    let sheets = read("openpyxl_row_col_styles.xlsx");
    for sheet in &sheets {
        assert_eq!(sheet.grids.len(), 1, "{}", sheet.name);
        assert_eq!(sheet.grids[0].range, range("C3:K11"), "{}", sheet.name);
        assert_eq!(sheet.grids[0].puzzle().to_line(), EASY, "{}", sheet.name);
    }
}

#[test]
fn start_and_end_border_names_count_as_left_and_right() {
    let g = only_grid("start_end_borders.xlsx");
    assert_eq!(g.range, range("B2:J10"));
    assert_eq!(g.shape, shape("3x3"));
}

#[test]
fn forced_range_reads_exactly_that_square() {
    let opts = ReadOptions {
        range: Some(range("C3:K11")),
        shape: None,
        ..ReadOptions::default()
    };
    // The frame-only grid sits at B2; the forced square is taken as given.
    let sheets = read_workbook(&fixture("layout_frame_b2.xlsx"), &opts).unwrap();
    let g = &sheets[0].grids[0];
    assert_eq!(g.range, range("C3:K11"));
    let puzzle = g.puzzle();
    for i in 0..8 {
        for j in 0..8 {
            let ch = EASY.as_bytes()[(i + 1) * 9 + j + 1];
            let want = if ch == b'.' { 0 } else { ch - b'0' };
            assert_eq!(puzzle.get(i, j), want, "row {i} col {j}");
        }
    }
    assert_eq!(g.cells[80], Cell::Blank, "K11 is outside the real grid");
    // A forced range needs no borders, but its values must be able to be a
    // puzzle: a sheet of other data there has no grid, and is left alone.
    let sheets = read_workbook(&fixture("layout_no_grid.xlsx"), &opts).unwrap();
    assert!(sheets[0].grids.is_empty());
    let sheets = read_workbook(&fixture("layout_gridlines_c3.xlsx"), &opts).unwrap();
    assert_eq!(sheets[0].grids.len(), 1);
}

#[test]
fn forced_shape_limits_detection_to_its_side() {
    let opts = ReadOptions {
        range: None,
        shape: Some(shape("3x2")),
        ..ReadOptions::default()
    };
    let sheets = read_workbook(&fixture("layout_6x6.xlsx"), &opts).unwrap();
    assert_eq!(sheets[1].grids[0].shape, shape("3x2"), "forced over lines");
    let sheets = read_workbook(&fixture("layout_gridlines_c3.xlsx"), &opts).unwrap();
    assert!(sheets[0].grids.is_empty(), "a 9x9 is no 3x2 grid");
}

#[test]
fn forced_range_that_is_not_square_is_an_error_naming_the_file() {
    let opts = ReadOptions {
        range: Some(range("C3:K10")),
        shape: None,
        ..ReadOptions::default()
    };
    let err = read_workbook(&fixture("layout_gridlines_c3.xlsx"), &opts).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("layout_gridlines_c3.xlsx") && msg.contains("C3:K10"),
        "{msg}"
    );
}

/// Issue 27, point 1: a grid whose outer border has gaps (two segments of
/// the right edge missing, the right side open, no frame at all) is found
/// whole through the binary, not as the 8x8 its inner lines close.
#[test]
fn grids_with_gaps_in_the_outer_border_are_found_whole() {
    let path = fixture("layout_gaps.xlsx");
    let o = crate::util::xlsudoku(&["check", path.to_str().unwrap()]);
    let text = crate::util::output_text(&o);
    for sheet in ["RightGap", "OpenRight", "NoFrame"] {
        assert!(
            text.contains(&format!("[{sheet}] B2:J10 9x9: solved")),
            "{sheet}: {text}"
        );
    }
    assert!(!text.contains("8x8"), "{text}");
    assert_eq!(o.status.code(), Some(0), "{text}");
}

/// Issue 27, point 2: bordered blocks whose values pass the count test but
/// are no puzzle (a 0/1 matrix, a table of formulas, a box-number map, a
/// random fill) are no grids, each with its reason, not invalid grids.
#[test]
fn bordered_blocks_that_are_no_puzzle_are_no_grids_with_a_reason() {
    let path = fixture("layout_not_puzzles.xlsx");
    let o = crate::util::xlsudoku(&["check", path.to_str().unwrap()]);
    let text = crate::util::output_text(&o);
    for (sheet, reason) in [
        ("Indicators", "it holds only 0s and 1s"),
        ("Calculated", "81 of its 81 filled cells are formulas"),
        (
            "BoxMap",
            "81 of its 81 digits repeat within a row or column",
        ),
        ("RandomFill", "digits repeat within a row or column"),
    ] {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("[{sheet}]")))
            .unwrap_or_else(|| panic!("{sheet}: {text}"));
        assert!(
            line.contains("no-grid - bordered 9x9 at B2:J10 not taken: ") && line.contains(reason),
            "{sheet}: {line}"
        );
    }
    assert!(!text.contains("invalid"), "{text}");
}

/// Issue 27, point 3: puzzles without any border are found by their
/// values (0 for blanks, or empty blanks under a title); a block the tool
/// cannot be sure of is named in the no-grid reason with the range to ask
/// for it.
#[test]
fn borderless_puzzles_are_found_by_their_values_or_named() {
    let path = fixture("layout_borderless.xlsx");
    let o = crate::util::xlsudoku(&["check", path.to_str().unwrap()]);
    let text = crate::util::output_text(&o);
    assert!(text.contains("[top1465_1] A1:I9 9x9: solved"), "{text}");
    assert!(text.contains("[Blanks] B2:J10 9x9: solved"), "{text}");
    assert!(
        text.contains(
            "[Hint]: no-grid - no bordered grid; the digits at A1:I9 look like a 9×9 puzzle: --range A1:I9"
        ),
        "{text}"
    );
    // A run over its own copy finds the same puzzles (its fills are blank).
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.xlsx");
    let (src, dst) = (path.to_str().unwrap(), out.to_str().unwrap());
    crate::util::xlsudoku(&["solve", src, "-o", dst, "-q"]);
    let again = crate::util::output_text(&crate::util::xlsudoku(&["check", dst]));
    assert!(again.contains("[top1465_1] A1:I9 9x9: solved"), "{again}");
    assert!(again.contains("[Blanks] B2:J10 9x9: solved"), "{again}");
}
