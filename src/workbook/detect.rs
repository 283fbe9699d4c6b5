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
//! 4. **Framed grids first.** Before the search of rule 3, a square with a
//!    thick frame whose thick inner lines draw boxes (every `w` columns and
//!    every `h` rows, `w` and `h` at least 2) and whose values pass the
//!    puzzle test is a grid, the largest at each corner. So a framed grid
//!    inside an "All Borders" table, with bordered coordinates (`A`-`I`
//!    above, `1`-`9` at the left) or bordered row and column sums around
//!    it, is found at its own square, not as the larger square around it;
//!    rule 3 then leaves alone every square that overlaps it.
//! 5. **Labels beside a grid.** When the largest closing square at a corner
//!    takes in bordered coordinates or sums (no thick lines to go by), a
//!    square one or two cells smaller inside it is the grid when the
//!    caller's test says its values are a puzzle and the rows and columns
//!    beside it are labels ([`detect_all`]).
//! 6. **Box shape.** A forced shape wins (and then only squares of its side
//!    are grids); otherwise inner lines drawn thick over their full length
//!    that fall exactly every `w` columns and every `h` rows give a `w`x`h`
//!    box; otherwise the usual shape for the side ([`BoxShape::for_side`]).
//! 7. **Gaps in the frame.** Last, a square (side 6 to 25) whose box lines
//!    are drawn but whose frame has gaps (a missing segment, an open side,
//!    no frame at all), and whose inner lines stop at its edge, is a grid
//!    when its values are a clean puzzle ([`detect_all`]); the smaller
//!    squares its own lines close give way to it.
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

mod gaps;

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
    /// The runs of edges that `counts` (drawn edges, or thick ones only).
    fn new(map: &BorderMap, counts: impl Fn(Line) -> bool) -> Self {
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
                runs.left_down[i] = step(below(&runs.left_down), counts(map.left_edge(rr, cc)));
                runs.right_down[i] = step(below(&runs.right_down), counts(map.right_edge(rr, cc)));
                runs.top_right[i] = step(right(&runs.top_right), counts(map.top_edge(rr, cc)));
                runs.bottom_right[i] =
                    step(right(&runs.bottom_right), counts(map.bottom_edge(rr, cc)));
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
///
/// Before all that, framed grids are looked for: squares with a thick frame
/// whose thick inner lines draw boxes (see [`detect_all`]). They win over
/// any larger bordered square around them.
pub fn detect(
    map: &BorderMap,
    forced: Option<BoxShape>,
    judge: impl FnMut(CellRange, usize) -> Option<i64>,
) -> Vec<Detected> {
    detect_all(map, forced, judge, |_, _, _| None).grids
}

/// What [`detect_all`] found on a map.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Detection {
    /// The grids, in reading order of their corners.
    pub grids: Vec<Detected>,
    /// Squares whose frame closes and whose side has a box shape (or the
    /// forced one) but whose values the judge turned down, in the order
    /// they were tried: what a sheet without a grid came close to.
    pub turned_down: Vec<CellRange>,
}

/// [`detect`], also telling which squares were turned down for their
/// values.
///
/// The search runs in two passes. First, **framed grids**: every square
/// with a thick ([`Line::Thick`]) frame whose thick inner lines, drawn over
/// their full length, fall exactly every `w` columns and every `h` rows
/// (both `w` and `h` above 1, or the forced shape) and whose values pass the
/// judge is a grid, the largest at each corner. Such a square is a grid
/// even inside a larger bordered table, next to bordered coordinates or
/// sums, where the largest closing square would be the table. Then the
/// largest-closing-square search of [`detect`] runs over the rest of the
/// map, leaving alone every square that overlaps a grid already found.
///
/// In that search, before the largest closing square at a corner is
/// judged, the squares one or two cells smaller inside it (closing, with a
/// box-shaped side) are offered to `labelled(inner, strips, side)` with the
/// rows and columns of the larger square beside them: a score means "a
/// puzzle, and the strips are its labels" (coordinates, sums), and the
/// best such square is the grid. `|_, _, _| None` turns this off. The same
/// test with no strips, `labelled(square, &[], side)`, decides the last
/// pass: squares whose frame has gaps but whose box lines draw a grid.
pub fn detect_all(
    map: &BorderMap,
    forced: Option<BoxShape>,
    mut judge: impl FnMut(CellRange, usize) -> Option<i64>,
    mut labelled: impl FnMut(CellRange, &[CellRange], usize) -> Option<i64>,
) -> Detection {
    let mut framed_down: Vec<CellRange> = Vec::new();
    let runs = Runs::new(map, Line::is_drawn);
    let mut found = framed_grids(map, forced, &mut judge, &mut framed_down);
    // Framed squares turned down come first; the second pass judges them
    // again (their lines are drawn lines too) and does not repeat them.
    let mut turned_down = framed_down.clone();
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
            if let Some(inner) = labelled_inner(&runs, range, forced, &mut labelled) {
                let inner_side = inner.rows() as usize;
                let shape = forced
                    .or_else(|| shape_from_lines(map, inner))
                    .or_else(|| BoxShape::for_side(inner_side));
                if let Some(shape) = shape {
                    found.push(Detected {
                        range: inner,
                        shape,
                    });
                    continue;
                }
            }
            let usual = BoxShape::for_side(side as usize).filter(|_| side as usize >= MIN_SIDE);
            let fits = match forced {
                Some(s) => s.side() == side as usize,
                None => usual.is_some(),
            };
            let score = fits.then(|| judge(range, side as usize)).flatten();
            if fits && score.is_none() && !framed_down.contains(&range) {
                turned_down.push(range);
            }
            if let Some(score) = score {
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
    gapped_grids(map, forced, &mut found, &mut labelled);
    found.sort_by_key(|d| (d.range.start.row, d.range.start.col));
    Detection {
        grids: found,
        turned_down,
    }
}

/// The last pass of [`detect_all`]: squares whose frame has gaps but whose
/// box lines draw a grid (see [`gaps`]). Such a square is a grid when
/// `labelled(square, &[], side)` takes its values as a clean puzzle (no
/// labels beside it) and every grid found before that it overlaps lies
/// inside it: those are squares its own inner lines close (an 8x8 holding
/// the 9x9's nines, 6x6 fragments), and give way to it.
fn gapped_grids(
    map: &BorderMap,
    forced: Option<BoxShape>,
    found: &mut Vec<Detected>,
    labelled: &mut impl FnMut(CellRange, &[CellRange], usize) -> Option<i64>,
) {
    for (range, shape) in gaps::gapped_squares(map, forced) {
        let overlapping = || found.iter().filter(|g| overlaps(&g.range, &range));
        if overlapping().any(|g| !contains_range(&range, &g.range) || g.range == range) {
            continue;
        }
        if labelled(range, &[], shape.side()).is_some() {
            found.retain(|g| !overlaps(&g.range, &range));
            found.push(Detected { range, shape });
        }
    }
}

/// A square one or two cells smaller inside the largest closing square
/// `outer` whose frame closes, whose side has a box shape (or the forced
/// one), and that `labelled(inner, strips, side)` takes as a puzzle with
/// labels (coordinates, sums) in the strips of `outer` beside it; the
/// best-scoring such square, the smaller shrink first.
fn labelled_inner(
    runs: &Runs,
    outer: CellRange,
    forced: Option<BoxShape>,
    labelled: &mut impl FnMut(CellRange, &[CellRange], usize) -> Option<i64>,
) -> Option<CellRange> {
    let side = outer.rows();
    let (row, col) = (outer.start.row, outer.start.col);
    for shrink in 1..=2u32 {
        let Some(inner_side) = side.checked_sub(shrink) else {
            break;
        };
        let fits = match forced {
            Some(s) => s.side() == inner_side as usize,
            None => {
                inner_side as usize >= MIN_SIDE && BoxShape::for_side(inner_side as usize).is_some()
            }
        };
        if !fits {
            continue;
        }
        let mut best: Option<(CellRange, i64)> = None;
        for dr in 0..=shrink {
            for dc in 0..=shrink {
                let (r, c) = (row + dr, col + dc);
                if !runs.closes(r, c, inner_side) {
                    continue;
                }
                let inner = CellRange::square(CellRef::new(r, c), inner_side);
                let n = inner_side as usize;
                // The strips of `outer` beside the inner square, each as
                // long as the inner square's side.
                let (r_end, c_end) = (r + inner_side - 1, c + inner_side - 1);
                let strip = |r0: u32, c0: u32, r1: u32, c1: u32| {
                    CellRange::new(CellRef::new(r0, c0), CellRef::new(r1, c1))
                };
                let strips = (row..r)
                    .map(|k| strip(k, c, k, c_end))
                    .chain((r_end + 1..=outer.end.row).map(|k| strip(k, c, k, c_end)))
                    .chain((col..c).map(|k| strip(r, k, r_end, k)))
                    .chain((c_end + 1..=outer.end.col).map(|k| strip(r, k, r_end, k)))
                    .collect::<Vec<_>>();
                if let Some(score) = labelled(inner, &strips, n) {
                    if best.is_none_or(|(_, b)| score > b) {
                        best = Some((inner, score));
                    }
                }
            }
        }
        if let Some((inner, _)) = best {
            return Some(inner);
        }
    }
    None
}

/// The first pass of [`detect_all`]: squares with a thick frame and thick
/// inner lines in a box pattern, the largest at each corner, in reading
/// order of their corners. Those whose values the judge turns down go to
/// `turned_down`.
fn framed_grids(
    map: &BorderMap,
    forced: Option<BoxShape>,
    judge: &mut impl FnMut(CellRange, usize) -> Option<i64>,
    turned_down: &mut Vec<CellRange>,
) -> Vec<Detected> {
    let thick = Runs::new(map, |line| line == Line::Thick);
    let mut found: Vec<Detected> = Vec::new();
    let min = MIN_SIDE as u32;
    for row in 0..map.rows() {
        for col in 0..map.cols() {
            let max_side = thick.max_side(row, col).min(MAX_SIDE as u32);
            if max_side < min {
                continue;
            }
            let here = CellRef::new(row, col);
            if found.iter().any(|g| g.range.contains(here)) {
                continue;
            }
            for side in (min..=max_side).rev() {
                if !thick.closes(row, col, side) {
                    continue;
                }
                let Some(shape) = box_pattern(&thick, row, col, side, forced) else {
                    continue;
                };
                let range = CellRange::square(here, side);
                if found.iter().any(|g| overlaps(&g.range, &range)) {
                    continue;
                }
                if judge(range, side as usize).is_some() {
                    found.push(Detected { range, shape });
                    break;
                }
                turned_down.push(range);
            }
        }
    }
    found
}

/// The box shape the thick inner lines of the `side`-square at `row`, `col`
/// draw, both ways (boxes at least 2 wide and 2 high), from the runs of
/// thick edges; with `forced`, only that shape.
fn box_pattern(
    thick: &Runs,
    row: u32,
    col: u32,
    side: u32,
    forced: Option<BoxShape>,
) -> Option<BoxShape> {
    // An inner line is thick over its full length when the run of thick
    // left (top) edges from its first cell covers the side.
    let thick_col = |k: u32| thick.get(&thick.left_down, row, col + k) >= side;
    let thick_row = |k: u32| thick.get(&thick.top_right, row + k, col) >= side;
    let fits = |w: u32, h: u32| {
        (1..side).all(|k| thick_col(k) == k.is_multiple_of(w))
            && (1..side).all(|k| thick_row(k) == k.is_multiple_of(h))
    };
    match forced {
        Some(s) if s.side() as u32 == side => {
            fits(s.width() as u32, s.height() as u32).then_some(s)
        }
        Some(_) => None,
        None => (2..side)
            .filter(|w| side.is_multiple_of(*w) && side / w >= 2)
            .find(|&w| fits(w, side / w))
            .and_then(|w| BoxShape::new(w as usize, (side / w) as usize).ok()),
    }
}

fn contains_range(outer: &CellRange, inner: &CellRange) -> bool {
    outer.contains(inner.start) && outer.contains(inner.end)
}

#[cfg(test)]
mod tests;
