//! Random complete grids of any box shape.
//!
//! The first box gets a random permutation of the digits, the rest of the
//! first row and the first column random digits that clash with nothing
//! placed; the exact solver ([`search_into`]) completes that start (a start
//! it cannot complete is drawn again). The completed grid is then shuffled
//! by the moves that keep every Sudoku valid: rows within their band,
//! bands, columns within their stack, stacks, and (for square boxes) the
//! transpose. The grids are not drawn uniformly from all Sudoku grids, but
//! every start is random and the moves reach the whole class of each one.
//!
//! ```
//! use xlsudoku::generate::{random_solution, Rng};
//! use xlsudoku::grid::BoxShape;
//!
//! let mut rng = Rng::for_puzzle(1, 0);
//! let grid = random_solution(BoxShape::new(3, 2)?, &mut rng, None)?;
//! assert!(grid.is_full() && grid.conflicts().is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Instant;

use super::Rng;
use crate::grid::{BoxShape, Grid};
use crate::search::{search_into, SearchError, SearchOptions};

/// A random complete grid of this box shape; errors only when `deadline`
/// passes first.
pub fn random_solution(
    shape: BoxShape,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Grid, SearchError> {
    let side = shape.side();
    let opts = SearchOptions { limit: 1, deadline };
    let mut out = Vec::with_capacity(side * side);
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(SearchError::Timeout { guesses: 0 });
        }
        let Some(start) = random_start(shape, rng) else {
            continue;
        };
        out.clear();
        let found = search_into(&start, &opts, &mut out)?;
        if found.count == 1 {
            let mut grid = start;
            grid.fill_from(&out);
            return Ok(shuffled(&grid, rng));
        }
    }
}

/// The first box, then the rest of the first row and column, drawn at
/// random without clashes; `None` when a cell is left with no digit.
fn random_start(shape: BoxShape, rng: &mut Rng) -> Option<Grid> {
    let (side, bw, bh) = (shape.side(), shape.width(), shape.height());
    let mut grid = Grid::empty(shape);
    let mut digits: Vec<u8> = (1..=side as u8).collect();
    rng.shuffle(&mut digits);
    for (k, &d) in digits.iter().enumerate() {
        grid.set(k / bw, k % bw, d);
    }
    let cells = (bw..side).map(|c| (0, c)).chain((bh..side).map(|r| (r, 0)));
    for (r, c) in cells {
        let allowed: Vec<u8> = (1..=side as u8).filter(|&d| fits(&grid, r, c, d)).collect();
        if allowed.is_empty() {
            return None;
        }
        grid.set(r, c, allowed[rng.below(allowed.len())]);
    }
    Some(grid)
}

/// Whether `d` clashes with no digit in the row, column or box of (r, c).
fn fits(grid: &Grid, r: usize, c: usize, d: u8) -> bool {
    let side = grid.side();
    let shape = grid.shape();
    let (br, bc) = (r - r % shape.height(), c - c % shape.width());
    (0..side).all(|k| grid.get(r, k) != d && grid.get(k, c) != d)
        && (0..side).all(|k| grid.get(br + k / shape.width(), bc + k % shape.width()) != d)
}

/// A random order of `n` blocks of `size` lines each, with the lines of
/// each block in random order: the new index of every line.
fn line_order(blocks: usize, size: usize, rng: &mut Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..blocks).collect();
    rng.shuffle(&mut order);
    let mut lines = Vec::with_capacity(blocks * size);
    for b in order {
        let mut within: Vec<usize> = (0..size).collect();
        rng.shuffle(&mut within);
        lines.extend(within.into_iter().map(|k| b * size + k));
    }
    lines
}

/// The grid with its rows and columns shuffled as bands and stacks allow,
/// and transposed half the time when the boxes are square.
fn shuffled(grid: &Grid, rng: &mut Rng) -> Grid {
    let shape = grid.shape();
    let (side, bw, bh) = (shape.side(), shape.width(), shape.height());
    let rows = line_order(side / bh, bh, rng);
    let cols = line_order(side / bw, bw, rng);
    let transpose = bw == bh && rng.below(2) == 1;
    let mut out = Grid::empty(shape);
    for (r, &from_r) in rows.iter().enumerate() {
        for (c, &from_c) in cols.iter().enumerate() {
            let v = grid.get(from_r, from_c);
            if transpose {
                out.set(c, r, v);
            } else {
                out.set(r, c, v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_valid_grids_of_every_shape() {
        for (w, h) in [
            (2, 2),
            (3, 2),
            (2, 3),
            (4, 2),
            (3, 3),
            (4, 3),
            (4, 4),
            (5, 5),
        ] {
            let shape = BoxShape::new(w, h).expect("shape");
            let mut rng = Rng::for_puzzle(9, (w * 10 + h) as u64);
            let g = random_solution(shape, &mut rng, None).expect("no deadline");
            assert_eq!(g.shape(), shape);
            assert!(g.is_full(), "{shape}");
            assert!(g.conflicts().is_empty(), "{shape}:\n{g}");
        }
    }

    #[test]
    fn grids_differ_between_streams_and_repeat_within_one() {
        let shape = BoxShape::new(3, 3).expect("shape");
        let make = |i| random_solution(shape, &mut Rng::for_puzzle(3, i), None).expect("grid");
        assert_eq!(make(0), make(0));
        let distinct: std::collections::HashSet<String> =
            (0..20).map(|i| make(i).to_line()).collect();
        assert_eq!(distinct.len(), 20);
    }

    #[test]
    fn shuffling_keeps_a_grid_valid() {
        let shape = BoxShape::new(4, 3).expect("shape");
        let mut rng = Rng::for_puzzle(1, 1);
        let g = random_solution(shape, &mut rng, None).expect("grid");
        for _ in 0..10 {
            let s = shuffled(&g, &mut rng);
            assert!(s.is_full() && s.conflicts().is_empty());
        }
    }

    #[test]
    fn a_past_deadline_stops_it() {
        let shape = BoxShape::new(3, 3).expect("shape");
        let past = Some(Instant::now());
        assert!(random_solution(shape, &mut Rng::for_puzzle(1, 1), past).is_err());
    }
}
