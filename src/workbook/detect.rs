//! Finding bordered Sudoku grids on an abstract per-cell border map.
//!
//! Nothing here reads files: a [`BorderMap`] says which borders each cell
//! carries, and [`detect`] finds the squares whose frame closes, whose side
//! has a box shape, and whose values (judged by a caller-supplied test) can be
//! a puzzle. That keeps the rules unit-testable on synthetic maps.
//!
//! The rules, in order:
//!
//! 1. **Edges are shared.** The line between two cells counts for both: the
//!    left edge of a cell is bordered when the cell has a left border *or* the
//!    cell to its left has a right border; likewise top/bottom. Its weight is
//!    the heavier of the two ([`Line::Thick`] beats [`Line::Thin`]).
//! 2. **Corners in reading order.** Every cell with a bordered left and top
//!    edge, row by row, left to right, is a candidate top-left corner (the
//!    seed looked only in `A1:H8`; a grid may be anywhere here). Cells inside
//!    a grid already found are not corners, and squares overlapping a grid
//!    already found are not grids.
//! 3. **Largest closing frame.** From the corner, the bordered run down the
//!    left edge and the bordered run along the top edge bound the side; the
//!    largest side (at most 64) whose bottom and right edges are also bordered
//!    over the full side, that has a box shape, and whose values pass the
//!    puzzle test, wins. This covers all three of the seed's frame styles:
//!    grid lines on every cell, an outer frame only, and a thick outer frame
//!    with thick box lines.
//! 4. **Box shape.** A forced shape wins (and then only squares of its side
//!    are grids); otherwise inner lines drawn thick over their full length
//!    that fall exactly every `w` columns and every `h` rows give a `w`x`h`
//!    box; otherwise the usual shape for the side ([`BoxShape::for_side`]).
//!
//! ```
//! use xlsudoku::workbook::detect::{detect, BorderMap, Line};
//!
//! // A 4x4 grid with grid lines everywhere, its corner at B2.
//! let mut map = BorderMap::new(6, 6);
//! map.draw_box(1, 1, 4, 4, Line::Thin, true);
//! let found = detect(&map, None, |_, _| Some(0));
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].range.to_string(), "B2:E5");
//! assert_eq!(found[0].shape.to_string(), "2x2");
//! ```

use crate::address::{CellRange, CellRef};
use crate::grid::{BoxShape, MAX_SIDE};

/// The smallest side a detected grid may have.
pub const MIN_SIDE: usize = 4;

/// How heavy one border line is, as far as grid detection cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Line {
    /// No border.
    #[default]
    None,
    /// A light line: thin, hair, dotted, dashed, dash-dot.
    Thin,
    /// A heavy line: medium, thick, double (and their dashed variants): the
    /// kind that marks box boundaries.
    Thick,
}

impl Line {
    /// The weight of an OOXML border style name (`thin`, `medium`, …);
    /// unknown names and `none` are [`Line::None`].
    ///
    /// ```
    /// use xlsudoku::workbook::detect::Line;
    /// assert_eq!(Line::from_style_name("hair"), Line::Thin);
    /// assert_eq!(Line::from_style_name("double"), Line::Thick);
    /// assert_eq!(Line::from_style_name("none"), Line::None);
    /// ```
    pub fn from_style_name(name: &str) -> Line {
        match name {
            "thin" | "hair" | "dotted" | "dashed" | "dashDot" | "dashDotDot" => Line::Thin,
            "medium" | "thick" | "double" | "mediumDashed" | "mediumDashDot"
            | "mediumDashDotDot" | "slantDashDot" => Line::Thick,
            _ => Line::None,
        }
    }

    /// True for any visible line.
    pub fn is_drawn(self) -> bool {
        self != Line::None
    }
}

/// The four borders one cell carries itself (not counting its neighbours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Edges {
    /// Left border.
    pub left: Line,
    /// Right border.
    pub right: Line,
    /// Top border.
    pub top: Line,
    /// Bottom border.
    pub bottom: Line,
}

impl Edges {
    /// True when the cell carries any border.
    pub fn any(&self) -> bool {
        self.left.is_drawn()
            || self.right.is_drawn()
            || self.top.is_drawn()
            || self.bottom.is_drawn()
    }
}

/// The borders of a rectangle of cells starting at `A1`, `rows` by `cols`;
/// cells outside it have no borders.
#[derive(Debug, Clone, Default)]
pub struct BorderMap {
    rows: u32,
    cols: u32,
    cells: Vec<Edges>,
}

impl BorderMap {
    /// A map of `rows` x `cols` cells without borders.
    pub fn new(rows: u32, cols: u32) -> Self {
        BorderMap {
            rows,
            cols,
            cells: vec![Edges::default(); rows as usize * cols as usize],
        }
    }

    /// Rows covered.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns covered.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    fn index(&self, row: u32, col: u32) -> Option<usize> {
        (row < self.rows && col < self.cols)
            .then(|| row as usize * self.cols as usize + col as usize)
    }

    /// The borders a cell carries itself (none outside the map).
    pub fn get(&self, row: u32, col: u32) -> Edges {
        self.index(row, col)
            .map(|i| self.cells[i])
            .unwrap_or_default()
    }

    /// Sets the borders a cell carries; ignored outside the map.
    pub fn set(&mut self, row: u32, col: u32, edges: Edges) {
        if let Some(i) = self.index(row, col) {
            self.cells[i] = edges;
        }
    }

    /// Changes the borders a cell carries in place; ignored outside the map.
    pub fn update(&mut self, row: u32, col: u32, f: impl FnOnce(&mut Edges)) {
        if let Some(i) = self.index(row, col) {
            f(&mut self.cells[i]);
        }
    }

    /// Draws a frame around the `rows` x `cols` block at `row`, `col`
    /// (0-based), storing each line on the cells inside the block; with
    /// `grid_lines`, every cell of the block gets all four borders of weight
    /// `line` (the frame included). Used to build test maps.
    pub fn draw_box(
        &mut self,
        row: u32,
        col: u32,
        rows: u32,
        cols: u32,
        line: Line,
        grid_lines: bool,
    ) {
        for r in row..row + rows {
            for c in col..col + cols {
                self.update(r, c, |e| {
                    let heavier = |old: &mut Line, on: bool| {
                        if on && line > *old {
                            *old = line;
                        }
                    };
                    heavier(&mut e.left, grid_lines || c == col);
                    heavier(&mut e.right, grid_lines || c == col + cols - 1);
                    heavier(&mut e.top, grid_lines || r == row);
                    heavier(&mut e.bottom, grid_lines || r == row + rows - 1);
                });
            }
        }
    }

    /// The line on the left edge of a cell: its own left border or the right
    /// border of the cell to its left, whichever is heavier.
    pub fn left_edge(&self, row: u32, col: u32) -> Line {
        let own = self.get(row, col).left;
        match col.checked_sub(1) {
            Some(c) => own.max(self.get(row, c).right),
            None => own,
        }
    }

    /// The line on the top edge of a cell: its own top border or the bottom
    /// border of the cell above, whichever is heavier.
    pub fn top_edge(&self, row: u32, col: u32) -> Line {
        let own = self.get(row, col).top;
        match row.checked_sub(1) {
            Some(r) => own.max(self.get(r, col).bottom),
            None => own,
        }
    }

    /// The line on the right edge of a cell (its right border or the left
    /// border of the cell to its right).
    pub fn right_edge(&self, row: u32, col: u32) -> Line {
        self.get(row, col)
            .right
            .max(self.get(row, col.saturating_add(1)).left)
    }

    /// The line on the bottom edge of a cell (its bottom border or the top
    /// border of the cell below).
    pub fn bottom_edge(&self, row: u32, col: u32) -> Line {
        self.get(row, col)
            .bottom
            .max(self.get(row.saturating_add(1), col).top)
    }
}

/// One grid found by [`detect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detected {
    /// The square of cells the grid covers.
    pub range: CellRange,
    /// Its box shape.
    pub shape: BoxShape,
}

/// True when the full frame of the `side`-square at `row`, `col` is bordered.
pub fn frame_closes(map: &BorderMap, row: u32, col: u32, side: u32) -> bool {
    let last = side - 1;
    (0..side).all(|k| {
        map.left_edge(row + k, col).is_drawn()
            && map.right_edge(row + k, col + last).is_drawn()
            && map.top_edge(row, col + k).is_drawn()
            && map.bottom_edge(row + last, col + k).is_drawn()
    })
}

/// The box shape the thick inner lines of a square draw, if they draw one.
///
/// An inner line counts as thick when it is [`Line::Thick`] along the whole
/// side. The shape is `w`x`h` when the thick vertical lines fall exactly at
/// every multiple of `w` and the thick horizontal lines at every multiple of
/// `h` (`w * h` being the side). `None` when there are no thick inner lines
/// or they match no shape.
pub fn shape_from_lines(map: &BorderMap, range: CellRange) -> Option<BoxShape> {
    let side = range.rows();
    if side != range.cols() || side < 2 {
        return None;
    }
    let (r0, c0) = (range.start.row, range.start.col);
    let thick_cols: Vec<u32> = (1..side)
        .filter(|&k| (0..side).all(|i| map.left_edge(r0 + i, c0 + k) == Line::Thick))
        .collect();
    let thick_rows: Vec<u32> = (1..side)
        .filter(|&k| (0..side).all(|i| map.top_edge(r0 + k, c0 + i) == Line::Thick))
        .collect();
    if thick_cols.is_empty() && thick_rows.is_empty() {
        return None;
    }
    let multiples =
        |step: u32| -> Vec<u32> { (1..side).filter(|k| k.is_multiple_of(step)).collect() };
    (1..=side)
        .filter(|w| side.is_multiple_of(*w))
        .map(|w| (w, side / w))
        .find(|&(w, h)| thick_cols == multiples(w) && thick_rows == multiples(h))
        .and_then(|(w, h)| BoxShape::new(w as usize, h as usize).ok())
}

/// Runs of bordered edges from every cell, capped at 255: how far the left
/// and right edges continue downwards, how far the top and bottom edges
/// continue rightwards. They make the frame test O(1) per square.
struct Runs {
    cols: usize,
    left_down: Vec<u8>,
    right_down: Vec<u8>,
    top_right: Vec<u8>,
    bottom_right: Vec<u8>,
}

impl Runs {
    fn new(map: &BorderMap) -> Self {
        let (rows, cols) = (map.rows() as usize, map.cols() as usize);
        let n = rows * cols;
        let mut runs = Runs {
            cols,
            left_down: vec![0; n],
            right_down: vec![0; n],
            top_right: vec![0; n],
            bottom_right: vec![0; n],
        };
        let step = |next: Option<u8>, drawn: bool| -> u8 {
            if drawn {
                next.unwrap_or(0).saturating_add(1)
            } else {
                0
            }
        };
        for r in (0..rows).rev() {
            for c in (0..cols).rev() {
                let i = r * cols + c;
                let (rr, cc) = (r as u32, c as u32);
                let below = |v: &Vec<u8>| (r + 1 < rows).then(|| v[i + cols]);
                let right = |v: &Vec<u8>| (c + 1 < cols).then(|| v[i + 1]);
                runs.left_down[i] = step(below(&runs.left_down), map.left_edge(rr, cc).is_drawn());
                runs.right_down[i] =
                    step(below(&runs.right_down), map.right_edge(rr, cc).is_drawn());
                runs.top_right[i] = step(right(&runs.top_right), map.top_edge(rr, cc).is_drawn());
                runs.bottom_right[i] = step(
                    right(&runs.bottom_right),
                    map.bottom_edge(rr, cc).is_drawn(),
                );
            }
        }
        runs
    }

    fn get(&self, v: &[u8], row: u32, col: u32) -> u32 {
        if (col as usize) >= self.cols {
            return 0;
        }
        v.get(row as usize * self.cols + col as usize)
            .map_or(0, |&x| u32::from(x))
    }

    /// The largest side a square at this corner could have: the shorter of
    /// the left-edge and top-edge runs.
    fn max_side(&self, row: u32, col: u32) -> u32 {
        self.get(&self.left_down, row, col)
            .min(self.get(&self.top_right, row, col))
    }

    /// True when the `side`-square at the corner has a closed frame.
    fn closes(&self, row: u32, col: u32, side: u32) -> bool {
        let last = side - 1;
        self.get(&self.left_down, row, col) >= side
            && self.get(&self.top_right, row, col) >= side
            && self.get(&self.right_down, row, col + last) >= side
            && self.get(&self.bottom_right, row + last, col) >= side
    }
}

fn overlaps(a: &CellRange, b: &CellRange) -> bool {
    a.start.row <= b.end.row
        && b.start.row <= a.end.row
        && a.start.col <= b.end.col
        && b.start.col <= a.end.col
}

/// Finds every bordered grid on the map, in reading order of their corners.
///
/// `forced` fixes the box shape (and so the side). `judge(range, side)`
/// says whether the values in a candidate square can be a puzzle of that
/// side: `None` when they cannot, else a score, higher for a better fit. It
/// is asked only about squares whose frame closes.
///
/// At each corner only the largest closing square counts. When it is no
/// grid (a side without a box shape, other than the forced one, or values
/// that are no puzzle), it is left alone: squares inside it are not tried
/// either, so a bordered table with grid lines does not yield the smaller
/// squares its lines also close.
///
/// When it is a grid but the bordered runs go on past it (a bordered title
/// row above a grid drawn with grid lines makes the left run one longer than
/// the grid), the same-sized squares shifted down or right along the runs
/// are judged too, and the best score wins (the first on a tie).
pub fn detect(
    map: &BorderMap,
    forced: Option<BoxShape>,
    mut judge: impl FnMut(CellRange, usize) -> Option<i64>,
) -> Vec<Detected> {
    let mut found: Vec<Detected> = Vec::new();
    let runs = Runs::new(map);
    // Squares left alone, and for each corner cell the one it fell in: a
    // corner's square is inside a rejected square when it is inside the one
    // its left, upper or upper-left neighbour fell in (the corners of a
    // bordered table chain this way), so the test stays O(1).
    let mut rejected: Vec<CellRange> = Vec::new();
    let cols = map.cols() as usize;
    let mut fell_in: Vec<u32> = vec![u32::MAX; map.rows() as usize * cols];
    // One more than the largest side, so that larger frames are seen (and
    // rejected) rather than mistaken for a 64-square inside them.
    let limit = MAX_SIDE as u32 + 1;
    for row in 0..map.rows() {
        for col in 0..map.cols() {
            let max_side = runs.max_side(row, col).min(limit);
            if max_side == 0 {
                continue;
            }
            let here = CellRef::new(row, col);
            if found.iter().any(|g| g.range.contains(here)) {
                continue;
            }
            let Some(side) = (1..=max_side)
                .rev()
                .find(|&side| runs.closes(row, col, side))
            else {
                continue;
            };
            let range = CellRange::square(here, side);
            let index = row as usize * cols + col as usize;
            let neighbours = [
                (col > 0).then(|| index - 1),
                (row > 0).then(|| index - cols),
                (row > 0 && col > 0).then(|| index - cols - 1),
            ];
            let inside = neighbours
                .into_iter()
                .flatten()
                .map(|i| fell_in[i])
                .find(|&k| {
                    rejected
                        .get(k as usize)
                        .is_some_and(|r| contains_range(r, &range))
                });
            if let Some(k) = inside {
                fell_in[index] = k;
                continue;
            }
            if found.iter().any(|g| overlaps(&g.range, &range)) {
                continue;
            }
            let usual = BoxShape::for_side(side as usize).filter(|_| side as usize >= MIN_SIDE);
            let fits = match forced {
                Some(s) => s.side() == side as usize,
                None => usual.is_some(),
            };
            if let Some(score) = fits.then(|| judge(range, side as usize)).flatten() {
                let (mut range, mut best) = (range, score);
                let extra_down = runs.get(&runs.left_down, row, col).saturating_sub(side);
                let extra_right = runs.get(&runs.top_right, row, col).saturating_sub(side);
                let shifts = (1..=extra_down.min(side))
                    .map(|d| (row + d, col))
                    .chain((1..=extra_right.min(side)).map(|d| (row, col + d)));
                for (r, c) in shifts {
                    let shifted = CellRange::square(CellRef::new(r, c), side);
                    if !runs.closes(r, c, side)
                        || found.iter().any(|g| overlaps(&g.range, &shifted))
                    {
                        continue;
                    }
                    if let Some(score) = judge(shifted, side as usize) {
                        if score > best {
                            (range, best) = (shifted, score);
                        }
                    }
                }
                let shape = forced.or_else(|| shape_from_lines(map, range)).or(usual);
                if let Some(shape) = shape {
                    found.push(Detected { range, shape });
                    continue;
                }
            }
            if side > 1 {
                fell_in[index] = rejected.len() as u32;
                rejected.push(range);
            }
        }
    }
    found
}

fn contains_range(outer: &CellRange, inner: &CellRange) -> bool {
    outer.contains(inner.start) && outer.contains(inner.end)
}

#[cfg(test)]
mod tests {
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
}
