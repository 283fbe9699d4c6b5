//! Grids whose outer border has gaps: the right edge missing at a few
//! cells, an open side, or inner lines with no outer frame at all.
//!
//! The frame test of [`super::detect_all`] needs every frame segment, so
//! such a grid is missed, or a smaller square inside it whose frame does
//! close (its own inner lines) is taken instead. Here the inner lines say
//! where the grid is: a square whose box lines (the lines every `w` columns
//! and every `h` rows of its box shape) are drawn over nine tenths of their
//! length, and whose inner lines stop at its edge (the rows and columns
//! just outside it do not carry them on), is a candidate, whatever its
//! frame. The caller judges its values.

use super::BorderMap;
use crate::address::{CellRange, CellRef};
use crate::grid::BoxShape;

/// The smallest side looked for: a 4x4's only box lines are one cross, too
/// little to go by.
const MIN_GAPPED_SIDE: u32 = 6;
/// The largest side looked for.
const MAX_GAPPED_SIDE: u32 = 25;

/// Counts of drawn edges over rectangles, in O(1) each.
struct EdgeCounts {
    /// `vertical[r][c]`: drawn left edges of cells `(0..r, 0..c)`, lines
    /// `0..=cols` (line `cols` is the right edge of the last column).
    vertical: Vec<u32>,
    /// `horizontal[r][c]`: drawn top edges of lines `0..r`, cells `0..c`.
    horizontal: Vec<u32>,
    /// Width of a row of `vertical` (`cols + 2`).
    v_width: usize,
    /// Width of a row of `horizontal` (`cols + 1`).
    h_width: usize,
}

impl EdgeCounts {
    fn new(map: &BorderMap) -> Self {
        let (rows, cols) = (map.rows() as usize, map.cols() as usize);
        let (v_width, h_width) = (cols + 2, cols + 1);
        let mut vertical = vec![0u32; (rows + 1) * v_width];
        let mut horizontal = vec![0u32; (rows + 2) * h_width];
        for r in 0..rows {
            for c in 0..=cols {
                let drawn = u32::from(map.left_edge(r as u32, c as u32).is_drawn());
                vertical[(r + 1) * v_width + c + 1] =
                    drawn + vertical[r * v_width + c + 1] + vertical[(r + 1) * v_width + c]
                        - vertical[r * v_width + c];
            }
        }
        for r in 0..=rows {
            for c in 0..cols {
                let drawn = u32::from(map.top_edge(r as u32, c as u32).is_drawn());
                horizontal[(r + 1) * h_width + c + 1] =
                    drawn + horizontal[r * h_width + c + 1] + horizontal[(r + 1) * h_width + c]
                        - horizontal[r * h_width + c];
            }
        }
        EdgeCounts {
            vertical,
            horizontal,
            v_width,
            h_width,
        }
    }

    /// Drawn vertical edges in rows `r0..r1` on lines `c0..c1`.
    fn vertical(&self, r0: u32, r1: u32, c0: u32, c1: u32) -> u32 {
        let at = |r: u32, c: u32| self.vertical[r as usize * self.v_width + c as usize];
        at(r1, c1) + at(r0, c0) - at(r0, c1) - at(r1, c0)
    }

    /// Drawn horizontal edges on lines `r0..r1` in columns `c0..c1`.
    fn horizontal(&self, r0: u32, r1: u32, c0: u32, c1: u32) -> u32 {
        let at = |r: u32, c: u32| self.horizontal[r as usize * self.h_width + c as usize];
        at(r1, c1) + at(r0, c0) - at(r0, c1) - at(r1, c0)
    }
}

/// Squares whose frame does not close but whose inner lines draw a grid
/// (see the module docs), larger sides first, in reading order of their
/// corners within a side; with `forced`, only squares of its side and
/// shape. They may overlap: the caller keeps the first whose values are a
/// puzzle.
pub(super) fn gapped_squares(
    map: &BorderMap,
    forced: Option<BoxShape>,
) -> Vec<(CellRange, BoxShape)> {
    let (rows, cols) = (map.rows(), map.cols());
    let top = MAX_GAPPED_SIDE.min(rows).min(cols);
    if top < MIN_GAPPED_SIDE {
        return Vec::new();
    }
    let counts = EdgeCounts::new(map);
    let mut out = Vec::new();
    for side in (MIN_GAPPED_SIDE..=top).rev() {
        let shape = match forced {
            Some(s) if s.side() == side as usize => Some(s),
            Some(_) => None,
            None => BoxShape::for_side(side as usize),
        };
        let Some(shape) = shape else {
            continue;
        };
        for row in 0..=rows - side {
            for col in 0..=cols - side {
                if is_gapped_grid(&counts, row, col, side, shape, (rows, cols)) {
                    out.push((CellRange::square(CellRef::new(row, col), side), shape));
                }
            }
        }
    }
    out
}

/// The test of [`gapped_squares`] for one square.
fn is_gapped_grid(
    counts: &EdgeCounts,
    row: u32,
    col: u32,
    side: u32,
    shape: BoxShape,
    (rows, cols): (u32, u32),
) -> bool {
    let (w, h) = (shape.width() as u32, shape.height() as u32);
    let (end_r, end_c) = (row + side, col + side);
    // Box lines: vertical every `w` columns, horizontal every `h` rows.
    let mut drawn = 0;
    let mut total = 0;
    for k in (w..side).step_by(w as usize) {
        drawn += counts.vertical(row, end_r, col + k, col + k + 1);
        total += side;
    }
    for k in (h..side).step_by(h as usize) {
        drawn += counts.horizontal(row + k, row + k + 1, col, end_c);
        total += side;
    }
    if total == 0 || drawn * 10 < total * 9 {
        return false;
    }
    // The box lines reach every edge of the square: each is drawn in its
    // first and last row (column), one miss allowed per edge.
    let (v_lines, h_lines) = ((side - 1) / w, (side - 1) / h);
    let reach_v = |r: u32| {
        (w..side)
            .step_by(w as usize)
            .map(|k| counts.vertical(r, r + 1, col + k, col + k + 1))
            .sum::<u32>()
    };
    let reach_h = |c: u32| {
        (h..side)
            .step_by(h as usize)
            .map(|k| counts.horizontal(row + k, row + k + 1, c, c + 1))
            .sum::<u32>()
    };
    if reach_v(row) + 1 < v_lines
        || reach_v(end_r - 1) + 1 < v_lines
        || reach_h(col) + 1 < h_lines
        || reach_h(end_c - 1) + 1 < h_lines
    {
        return false;
    }
    // A closed frame is the main search's business.
    let frame = counts.vertical(row, end_r, col, col + 1)
        + counts.vertical(row, end_r, end_c, end_c + 1)
        + counts.horizontal(row, row + 1, col, end_c)
        + counts.horizontal(end_r, end_r + 1, col, end_c);
    if frame == 4 * side {
        return false;
    }
    // The inner lines stop at the square's edge: the rows above and below
    // and the columns beside it carry at most a few of them on.
    let few = |n: u32| 2 * n < side - 1;
    let inner_cols = (col + 1, end_c);
    let inner_rows = (row + 1, end_r);
    let above = row > 0 && !few(counts.vertical(row - 1, row, inner_cols.0, inner_cols.1));
    let below = end_r < rows && !few(counts.vertical(end_r, end_r + 1, inner_cols.0, inner_cols.1));
    let left = col > 0 && !few(counts.horizontal(inner_rows.0, inner_rows.1, col - 1, col));
    let right =
        end_c < cols && !few(counts.horizontal(inner_rows.0, inner_rows.1, end_c, end_c + 1));
    !(above || below || left || right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workbook::detect::{Edges, Line};

    fn nine_at_b2() -> BorderMap {
        let mut map = BorderMap::new(12, 12);
        map.draw_box(1, 1, 9, 9, Line::Thin, true);
        map
    }

    fn ranges(map: &BorderMap) -> Vec<String> {
        gapped_squares(map, None)
            .iter()
            .map(|(r, s)| format!("{r} {s}"))
            .collect()
    }

    #[test]
    fn a_closed_frame_is_left_to_the_main_search() {
        assert!(ranges(&nine_at_b2()).is_empty());
    }

    #[test]
    fn an_open_right_side_is_found_and_not_the_squares_inside() {
        let mut map = nine_at_b2();
        for r in 1..10 {
            map.update(r, 9, |e| e.right = Line::None);
        }
        assert_eq!(ranges(&map), ["B2:J10 3x3"]);
    }

    #[test]
    fn inner_lines_without_a_frame_are_found() {
        let mut map = BorderMap::new(12, 12);
        for r in 1..10 {
            for c in 1..10 {
                map.set(
                    r,
                    c,
                    Edges {
                        left: if c > 1 { Line::Thin } else { Line::None },
                        right: if c < 9 { Line::Thin } else { Line::None },
                        top: if r > 1 { Line::Thin } else { Line::None },
                        bottom: if r < 9 { Line::Thin } else { Line::None },
                    },
                );
            }
        }
        assert_eq!(ranges(&map), ["B2:J10 3x3"]);
    }

    #[test]
    fn a_lined_table_larger_than_a_grid_gives_nothing() {
        let mut map = BorderMap::new(14, 14);
        map.draw_box(1, 1, 12, 9, Line::Thin, true);
        for r in 1..13 {
            map.update(r, 9, |e| e.right = Line::None);
        }
        assert!(ranges(&map).is_empty());
    }
}
