//! The fixed layout of a board of one box shape, shared by every board of
//! that shape.

use std::sync::Arc;

use super::bits::bit;
use crate::grid::{Grid, PerShape};

/// The fixed layout of a board of one box shape: units, each cell's
/// units and peers. Built once per shape and thread ([`Geometry::of`]) and
/// shared by every board of that shape, as digging a large grid makes a
/// board for every given it tries.
#[derive(Clone)]
pub(super) struct Geometry {
    pub(super) units: Shared<Vec<usize>>,
    pub(super) cell_units: Shared<[usize; 3]>,
    pub(super) peers: Shared<Vec<usize>>,
    /// Each cell's peers as a bit set (`words` 64-bit words per cell).
    pub(super) peer_sets: Shared<u64>,
    /// Each cell's position (index in the unit's cells) in its row,
    /// column and box.
    pub(super) cell_pos: Shared<[u8; 3]>,
    /// For each line (unit `k` below `2 * side`) and box `b`, at
    /// `k * side + b`: the positions in the line of its cells in the box.
    pub(super) line_boxes: Shared<u64>,
    /// For each box `b` (by box number) and line `k`, at `b * 2 * side +
    /// k`: the positions in the box of its cells on the line.
    pub(super) box_line_cells: Shared<u64>,
    /// For each box (by box number): the rows and the columns through it
    /// (unit numbers, in order).
    pub(super) box_lines: Shared<(Vec<usize>, Vec<usize>)>,
}

/// A list shared by every board of one shape (read like a `Vec`).
#[derive(Debug, Clone)]
pub(super) struct Shared<T>(Arc<Vec<T>>);

impl<T> std::ops::Deref for Shared<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<'a, T> IntoIterator for &'a Shared<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

thread_local! {
    /// The last shapes' geometries, per thread.
    static GEOMETRY: std::cell::RefCell<PerShape<Geometry>> =
        const { std::cell::RefCell::new(PerShape::new()) };
}

impl Geometry {
    /// The layout of `puzzle`'s shape, from the thread's cache when a
    /// board of that shape was made on this thread lately.
    pub(super) fn of(puzzle: &Grid) -> Geometry {
        GEOMETRY.with(|cached| {
            cached
                .borrow_mut()
                .get_or_make(puzzle.shape(), || Geometry::build(puzzle))
                .clone()
        })
    }

    fn build(puzzle: &Grid) -> Geometry {
        let side = puzzle.side();
        let units: Vec<Vec<usize>> = puzzle.units().map(|u| puzzle.unit_cells(u)).collect();
        let mut cell_units = vec![[0usize; 3]; side * side];
        for (k, cells) in units.iter().enumerate() {
            for &c in cells {
                cell_units[c][k / side] = k;
            }
        }
        let peers: Vec<Vec<usize>> = (0..side * side)
            .map(|c| {
                let mut p: Vec<usize> = cell_units[c]
                    .iter()
                    .flat_map(|&k| units[k].iter().copied())
                    .filter(|&x| x != c)
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let words = (side * side).div_ceil(64);
        let mut peer_sets = vec![0u64; side * side * words];
        for (c, ps) in peers.iter().enumerate() {
            for &p in ps {
                peer_sets[c * words + p / 64] |= 1 << (p % 64);
            }
        }
        let mut cell_pos = vec![[0u8; 3]; side * side];
        for (k, cells) in units.iter().enumerate() {
            for (i, &c) in cells.iter().enumerate() {
                cell_pos[c][k / side] = i as u8;
            }
        }
        let mut line_boxes = vec![0u64; 2 * side * side];
        for (k, cells) in units[..2 * side].iter().enumerate() {
            for (pos, &c) in cells.iter().enumerate() {
                line_boxes[k * side + cell_units[c][2] - 2 * side] |= 1u64 << pos;
            }
        }
        let mut box_line_cells = vec![0u64; 2 * side * side];
        for (b, cells) in units[2 * side..].iter().enumerate() {
            for (pos, &c) in cells.iter().enumerate() {
                for &k in &cell_units[c][..2] {
                    box_line_cells[b * 2 * side + k] |= 1u64 << pos;
                }
            }
        }
        let box_lines = units[2 * side..]
            .iter()
            .map(|cells| {
                let mut rows: Vec<usize> = cells.iter().map(|&c| cell_units[c][0]).collect();
                let mut cols: Vec<usize> = cells.iter().map(|&c| cell_units[c][1]).collect();
                rows.sort_unstable();
                rows.dedup();
                cols.sort_unstable();
                cols.dedup();
                (rows, cols)
            })
            .collect();
        Geometry {
            units: Shared(Arc::new(units)),
            cell_units: Shared(Arc::new(cell_units)),
            peers: Shared(Arc::new(peers)),
            peer_sets: Shared(Arc::new(peer_sets)),
            cell_pos: Shared(Arc::new(cell_pos)),
            line_boxes: Shared(Arc::new(line_boxes)),
            box_line_cells: Shared(Arc::new(box_line_cells)),
            box_lines: Shared(Arc::new(box_lines)),
        }
    }

    /// Whether two givens of `puzzle` clash in a unit (as
    /// [`Grid::conflicts`] would find, without listing them).
    pub(super) fn clash(&self, puzzle: &Grid) -> bool {
        let cells = puzzle.cells();
        self.units.iter().any(|u| {
            let mut seen = 0u64;
            u.iter().any(|&c| match cells[c] {
                0 => false,
                v => {
                    let b = bit(v);
                    let again = seen & b != 0;
                    seen |= b;
                    again
                }
            })
        })
    }
}
