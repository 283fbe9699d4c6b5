use super::*;

fn shape(w: usize, h: usize) -> BoxShape {
    BoxShape::new(w, h).unwrap()
}

/// A `side` grid at `row`, `col` with thin grid lines and thick box lines.
fn boxed_grid(map: &mut BorderMap, row: u32, col: u32, w: u32, h: u32) {
    let side = w * h;
    map.draw_box(row, col, side, side, Line::Thin, true);
    for br in 0..side / h {
        for bc in 0..side / w {
            map.draw_box(row + br * h, col + bc * w, h, w, Line::Thick, false);
        }
    }
}

fn ranges(found: &[Detected]) -> Vec<String> {
    found.iter().map(|d| d.range.to_string()).collect()
}

#[test]
fn grid_lines_everywhere_give_one_grid_not_one_per_cell() {
    let mut map = BorderMap::new(12, 12);
    map.draw_box(2, 2, 9, 9, Line::Thin, true);
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(ranges(&found), ["C3:K11"]);
    assert_eq!(found[0].shape, shape(3, 3));
}

#[test]
fn outer_frame_only_is_found() {
    let mut map = BorderMap::new(12, 12);
    map.draw_box(1, 1, 9, 9, Line::Thin, false);
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(ranges(&found), ["B2:J10"]);
}

#[test]
fn thick_box_lines_give_the_shape_even_when_unusual() {
    // A 6x6 drawn with 2-wide, 3-high boxes (not the usual 3x2).
    let mut map = BorderMap::new(8, 8);
    boxed_grid(&mut map, 0, 0, 2, 3);
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(ranges(&found), ["A1:F6"]);
    assert_eq!(found[0].shape, shape(2, 3));
}

#[test]
fn thick_outer_frame_alone_falls_back_to_the_usual_shape() {
    let mut map = BorderMap::new(10, 10);
    map.draw_box(0, 0, 6, 6, Line::Thin, true);
    map.draw_box(0, 0, 6, 6, Line::Thick, false);
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(found[0].shape, shape(3, 2));
}

#[test]
fn borders_stored_on_neighbours_count() {
    // Only right borders of the column left of the grid and bottom
    // borders of the row above it, plus the grid's own right and bottom.
    let mut map = BorderMap::new(12, 12);
    for k in 0..9 {
        map.update(2 + k, 1, |e| e.right = Line::Thin); // B3:B11 right = C's left
        map.update(1, 2 + k, |e| e.bottom = Line::Thin); // C2:K2 bottom = row 3's top
        map.update(2 + k, 10, |e| e.right = Line::Thin); // K's right
        map.update(10, 2 + k, |e| e.bottom = Line::Thin); // row 11's bottom
    }
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(ranges(&found), ["C3:K11"]);
}

#[test]
fn open_frame_is_not_a_grid() {
    let mut map = BorderMap::new(12, 12);
    map.draw_box(0, 0, 9, 9, Line::Thin, false);
    map.update(8, 4, |e| e.bottom = Line::None);
    assert!(detect(&map, None, |_, _| Some(0)).is_empty());
}

#[test]
fn side_without_box_shape_is_not_a_grid() {
    let mut map = BorderMap::new(8, 8);
    map.draw_box(0, 0, 5, 5, Line::Thin, false);
    map.draw_box(0, 6, 7, 2, Line::Thin, false);
    assert!(detect(&map, None, |_, _| Some(0)).is_empty());
    let mut seven = BorderMap::new(8, 8);
    seven.draw_box(0, 0, 7, 7, Line::Thin, false);
    assert!(detect(&seven, None, |_, _| Some(0)).is_empty());
}

#[test]
fn values_that_are_no_puzzle_leave_the_box_alone() {
    let mut map = BorderMap::new(12, 12);
    map.draw_box(0, 0, 9, 9, Line::Thin, true);
    let found = detect(&map, None, |_, _| None);
    assert!(found.is_empty());
}

#[test]
fn two_grids_on_one_sheet_are_both_found() {
    let mut map = BorderMap::new(20, 30);
    boxed_grid(&mut map, 1, 1, 3, 3);
    boxed_grid(&mut map, 1, 12, 4, 4);
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(ranges(&found), ["B2:J10", "M2:AB17"]);
    assert_eq!(found[1].shape, shape(4, 4));
}

#[test]
fn grid_below_a_bordered_table_uses_its_own_frame() {
    // A bordered 3-row table directly on top of a 4x4 grid: the left run
    // from the table's corner is 7, the top run 4; the 4-square at the
    // table corner closes on rows 1-4 only if row 4 has a bottom edge.
    let mut map = BorderMap::new(10, 6);
    map.draw_box(0, 0, 3, 4, Line::Thin, true);
    map.draw_box(3, 0, 4, 4, Line::Thin, true);
    let found = detect(&map, None, |r, _| (r.start.row == 3).then_some(0));
    assert_eq!(ranges(&found), ["A4:D7"]);
}

#[test]
fn forced_shape_limits_the_side_and_wins_over_lines() {
    let mut map = BorderMap::new(12, 20);
    map.draw_box(0, 0, 9, 9, Line::Thin, true);
    boxed_grid(&mut map, 0, 10, 3, 2);
    let found = detect(&map, Some(shape(2, 3)), |_, _| Some(0));
    assert_eq!(ranges(&found), ["K1:P6"]);
    assert_eq!(found[0].shape, shape(2, 3));
}

#[test]
fn table_without_box_shaped_side_leaves_its_sub_squares_alone() {
    // Grid lines over 5x5: the 4-squares inside also close, but the
    // table's own side (5) has no box shape, so nothing is a grid.
    let mut map = BorderMap::new(8, 8);
    map.draw_box(1, 1, 5, 5, Line::Thin, true);
    assert!(detect(&map, None, |_, _| Some(0)).is_empty());
}

#[test]
fn rejected_table_is_tried_once_not_per_inner_corner() {
    let mut map = BorderMap::new(12, 12);
    map.draw_box(0, 0, 9, 9, Line::Thin, true);
    let mut asked = 0;
    let found = detect(&map, None, |_, _| {
        asked += 1;
        None
    });
    assert!(found.is_empty());
    assert_eq!(asked, 1);
}

#[test]
fn long_bordered_table_is_scanned_quickly() {
    // 20,000 rows of a 20-column table with grid lines: every cell is a
    // corner; each row start is one rejected square, the rest fall in.
    let mut map = BorderMap::new(20_002, 22);
    map.draw_box(0, 0, 20_000, 20, Line::Thin, true);
    let mut asked = 0;
    let start = std::time::Instant::now();
    let found = detect(&map, None, |_, _| {
        asked += 1;
        None
    });
    assert!(found.is_empty());
    assert!(asked <= 20_000, "asked {asked} times");
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}

#[test]
fn bordered_title_row_above_grid_lines_is_not_taken_into_the_grid() {
    // A bordered title row A1:D1 directly above a 4x4 with grid lines at
    // A2: the square at A1 closes too; the values decide.
    let mut map = BorderMap::new(8, 8);
    map.draw_box(0, 0, 1, 4, Line::Thin, true);
    map.draw_box(1, 0, 4, 4, Line::Thin, true);
    let found = detect(&map, None, |r, _| {
        // The title is text (bad); the puzzle rows hold digits.
        Some(if r.start.row == 0 { 8 - 2 } else { 10 })
    });
    assert_eq!(ranges(&found), ["A2:D5"]);
}

#[test]
fn equal_scores_keep_the_square_at_the_corner() {
    // An empty bordered row under the grid: both squares score alike.
    let mut map = BorderMap::new(8, 8);
    map.draw_box(0, 0, 5, 4, Line::Thin, true);
    let found = detect(&map, None, |_, _| Some(5));
    assert_eq!(ranges(&found), ["A1:D4"]);
}

#[test]
fn frame_larger_than_64_is_not_a_grid() {
    let mut map = BorderMap::new(70, 70);
    map.draw_box(0, 0, 66, 66, Line::Thin, false);
    assert!(detect(&map, None, |_, _| Some(0)).is_empty());
}

#[test]
fn grid_at_far_corner_of_the_map_is_found() {
    let mut map = BorderMap::new(20, 20);
    map.draw_box(11, 11, 9, 9, Line::Thin, false);
    assert_eq!(ranges(&detect(&map, None, |_, _| Some(0))), ["L12:T20"]);
}

#[test]
fn largest_closing_side_wins_with_grid_lines() {
    // Grid lines over 10x10: sides 10, 9, 8 … all close; 10 (5x2) wins.
    let mut map = BorderMap::new(12, 12);
    map.draw_box(0, 0, 10, 10, Line::Thin, true);
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(ranges(&found), ["A1:J10"]);
    assert_eq!(found[0].shape, shape(5, 2));
}

#[test]
fn framed_grid_inside_a_larger_table_wins_over_the_table() {
    // An "All Borders" 15x15 table with a framed 9x9 (thick frame and
    // box lines) at D4: the table's 15x15 (5x3) square closes too.
    let mut map = BorderMap::new(16, 16);
    map.draw_box(0, 0, 15, 15, Line::Thin, true);
    boxed_grid(&mut map, 3, 3, 3, 3);
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(ranges(&found), ["D4:L12"]);
    assert_eq!(found[0].shape, shape(3, 3));
}

#[test]
fn framed_grids_come_back_in_reading_order_with_the_others() {
    let mut map = BorderMap::new(24, 24);
    map.draw_box(0, 12, 9, 9, Line::Thin, true); // grid lines only: pass 2
    map.draw_box(12, 0, 11, 11, Line::Thin, true);
    boxed_grid(&mut map, 13, 1, 3, 3); // framed, inside a table: pass 1
    let found = detect(&map, None, |_, _| Some(0));
    assert_eq!(ranges(&found), ["M1:U9", "B14:J22"]);
}

#[test]
fn thick_lines_everywhere_draw_no_boxes() {
    // Every line thick: no box pattern, and the table's own square (side
    // 10) is the only candidate.
    let mut map = BorderMap::new(12, 12);
    map.draw_box(0, 0, 10, 10, Line::Thick, true);
    let mut asked = Vec::new();
    detect(&map, None, |r, _| {
        asked.push(r.to_string());
        None
    });
    assert_eq!(asked, ["A1:J10"]);
}

#[test]
fn framed_grid_with_values_that_are_no_puzzle_is_turned_down_and_named() {
    let mut map = BorderMap::new(12, 12);
    boxed_grid(&mut map, 1, 1, 3, 3);
    let d = detect_all(&map, None, |_, _| None, |_, _, _| None);
    assert!(d.grids.is_empty());
    assert_eq!(d.turned_down, ["B2:J10".parse::<CellRange>().unwrap()]);
}

#[test]
fn framed_square_turned_down_inside_a_table_is_named_first() {
    let mut map = BorderMap::new(16, 16);
    map.draw_box(0, 0, 15, 15, Line::Thin, true);
    boxed_grid(&mut map, 3, 3, 3, 3);
    let d = detect_all(&map, None, |_, _| None, |_, _, _| None);
    assert!(d.grids.is_empty());
    assert_eq!(d.turned_down[0], "D4:L12".parse::<CellRange>().unwrap());
    assert_eq!(d.turned_down[1], "A1:O15".parse::<CellRange>().unwrap());
}

#[test]
fn labelled_square_inside_the_closing_square_is_the_grid() {
    // Grid lines over 10x10 at A1: the 9x9 at B2 with its top row and
    // left column as labels.
    let mut map = BorderMap::new(12, 12);
    map.draw_box(0, 0, 10, 10, Line::Thin, true);
    let mut offered = Vec::new();
    let d = detect_all(
        &map,
        None,
        |_, _| Some(0),
        |inner, strips, side| {
            offered.push(inner.to_string());
            let want = inner.to_string() == "B2:J10";
            if want {
                let s: Vec<String> = strips.iter().map(|s| s.to_string()).collect();
                assert_eq!(s, ["B1:J1", "A2:A10"]);
                assert_eq!(side, 9);
            }
            want.then_some(1)
        },
    );
    assert_eq!(ranges(&d.grids), ["B2:J10"]);
    // Side 9: four placements; side 8 not tried once 9 gave a grid.
    assert_eq!(offered, ["A1:I9", "B1:J9", "A2:I10", "B2:J10"]);
    // Without labels the 10x10 (5x2) is the grid, as before.
    assert_eq!(ranges(&detect(&map, None, |_, _| Some(0))), ["A1:J10"]);
}

#[test]
fn forced_shape_takes_only_framed_grids_of_its_pattern() {
    let mut map = BorderMap::new(12, 12);
    map.draw_box(0, 0, 11, 11, Line::Thin, true);
    boxed_grid(&mut map, 1, 1, 2, 3);
    let found = detect(&map, Some(shape(2, 3)), |_, _| Some(0));
    assert_eq!(ranges(&found), ["B2:G7"]);
    assert_eq!(found[0].shape, shape(2, 3));
    // A 3x2 forced: the thick lines draw 2x3 boxes, so the framed pass
    // leaves the square; the 11x11 table has another side.
    assert!(detect(&map, Some(shape(3, 2)), |_, _| Some(0)).is_empty());
}

#[test]
fn long_thick_bordered_table_is_scanned_quickly() {
    let mut map = BorderMap::new(20_002, 22);
    map.draw_box(0, 0, 20_000, 20, Line::Thick, true);
    let start = std::time::Instant::now();
    assert!(detect(&map, None, |_, _| None).is_empty());
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}

#[test]
fn line_weights_from_style_names() {
    assert_eq!(Line::from_style_name("thin"), Line::Thin);
    assert_eq!(Line::from_style_name("dashDotDot"), Line::Thin);
    assert_eq!(Line::from_style_name("medium"), Line::Thick);
    assert_eq!(Line::from_style_name("mediumDashDotDot"), Line::Thick);
    assert_eq!(Line::from_style_name(""), Line::None);
}

#[test]
fn shape_from_irregular_thick_lines_is_none() {
    let mut map = BorderMap::new(9, 9);
    map.draw_box(0, 0, 9, 9, Line::Thin, true);
    // One thick vertical line after column 4: no shape has it.
    for r in 0..9 {
        map.update(r, 3, |e| e.right = Line::Thick);
    }
    assert_eq!(shape_from_lines(&map, "A1:I9".parse().unwrap()), None);
}
