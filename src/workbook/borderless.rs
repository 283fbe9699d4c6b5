//! Grids with no borders at all: a block of values shaped like a puzzle
//! (issue 27, point 3), on a sheet where no bordered grid was found.
//!
//! The non-empty cells are grouped into islands (cells at most two rows
//! and two columns apart join). An island whose numbers `0..=side` fill a
//! rectangle with nothing else inside it (labels around it are fine) is a
//! candidate of the smallest side with a box shape that holds it and its
//! largest number. Its square is a grid when the rectangle is exactly that
//! square, the side is 6 or more, and its values are a clean puzzle (no
//! clash, no table of indicators or formulas: [`judge_labelled`])
//! with a plausible count of givens (a fifth of the cells or more, not
//! all, of at least `side - 1` different digits). Otherwise, when the
//! values of the square it would be are such a puzzle, it is only named,
//! so that the user can ask for it with `--range`.

use std::collections::HashMap;

use super::cells::{classify, Value};
use super::judge::judge_labelled;
use super::reader::RawSheet;
use crate::address::{CellRange, CellRef};
use crate::grid::BoxShape;

/// Sheets with more values than this are not searched (a puzzle's sheet is
/// small; a large table costs time and holds no such block).
const MAX_CELLS: usize = 20_000;

/// A block of values that looks like a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Found {
    /// Sure enough: the grid, with its shape.
    Grid(CellRange, BoxShape),
    /// Likely, but not sure: the square to name in the no-grid reason.
    Hint(CellRange),
}

/// The blocks of values on the sheet that look like puzzles, in reading
/// order of their corners; with `forced`, only of its side. An earlier
/// run's fills (recorded, still blue italic) count as empty, so that a run
/// over its own copy finds the same puzzle.
pub(super) fn find(sheet: &RawSheet, forced: Option<BoxShape>) -> Vec<Found> {
    if sheet.values.len() > MAX_CELLS {
        return Vec::new();
    }
    let cells: Vec<((u32, u32), Value)> = sheet
        .values
        .iter()
        .filter(|(at, _)| !sheet.earlier.contains(at))
        .map(|(&at, d)| (at, classify(Some(d))))
        .filter(|(_, v)| *v != Value::Empty)
        .collect();
    let mut out: Vec<Found> = islands(&cells)
        .into_iter()
        .filter_map(|island| candidate(sheet, &cells, &island, forced))
        .collect();
    out.sort_by_key(|f| match f {
        Found::Grid(r, _) | Found::Hint(r) => (r.start.row, r.start.col),
    });
    out
}

/// The cells (indices into `cells`) grouped into islands.
fn islands(cells: &[((u32, u32), Value)]) -> Vec<Vec<usize>> {
    let at: HashMap<(u32, u32), usize> = cells.iter().enumerate().map(|(i, c)| (c.0, i)).collect();
    let mut parent: Vec<usize> = (0..cells.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (i, ((r, c), _)) in cells.iter().enumerate() {
        for dr in 0..=2u32 {
            for dc in -2i64..=2 {
                if dr == 0 && dc <= 0 {
                    continue;
                }
                let Ok(nc) = u32::try_from(i64::from(*c) + dc) else {
                    continue;
                };
                if let Some(&j) = at.get(&(r + dr, nc)) {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    parent[a] = b;
                }
            }
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..cells.len() {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    groups.into_values().collect()
}

/// A number that may be a digit or a blank of a grid up to 64x64, or `.`.
fn digit_like(v: &Value) -> Option<i64> {
    match v {
        Value::Whole(n, _) if (0..=64).contains(n) => Some(*n),
        Value::Other(t) if t.trim() == "." => Some(0),
        _ => None,
    }
}

/// The block one island may be (see the module docs).
fn candidate(
    sheet: &RawSheet,
    cells: &[((u32, u32), Value)],
    island: &[usize],
    forced: Option<BoxShape>,
) -> Option<Found> {
    let digits: Vec<((u32, u32), i64)> = island
        .iter()
        .filter_map(|&i| digit_like(&cells[i].1).map(|n| (cells[i].0, n)))
        .collect();
    if digits.len() < 4 {
        return None;
    }
    let (r0, r1) = min_max(digits.iter().map(|d| d.0 .0))?;
    let (c0, c1) = min_max(digits.iter().map(|d| d.0 .1))?;
    let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
    let inside = |(r, c): (u32, u32)| (r0..=r1).contains(&r) && (c0..=c1).contains(&c);
    if island
        .iter()
        .any(|&i| inside(cells[i].0) && digit_like(&cells[i].1).is_none())
    {
        return None;
    }
    let largest = digits.iter().map(|d| d.1).max()? as u32;
    let least = h.max(w).max(largest);
    let side = match forced {
        Some(s) => Some(s.side() as u32).filter(|&s| s >= least)?,
        None => {
            (least..=least + 2).find(|&s| s >= 4 && BoxShape::for_side(s as usize).is_some())?
        }
    };
    if side > h.min(w) + 2 {
        return None;
    }
    let shape = forced.or_else(|| BoxShape::for_side(side as usize))?;
    // The square from the block's corner (the block may lack its last
    // rows or columns when they hold no givens).
    let range = CellRange::square(CellRef::new(r0, c0), side);
    let n = side as usize;
    let givens = usize::try_from(judge_labelled(sheet, range, &[], n)?).ok()?;
    let distinct = {
        let mut seen: Vec<i64> = digits.iter().map(|d| d.1).filter(|&d| d > 0).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    };
    if givens * 5 < n * n || givens >= n * n || distinct + 1 < n {
        return None;
    }
    Some(if h == side && w == side && side >= 6 {
        Found::Grid(range, shape)
    } else {
        Found::Hint(range)
    })
}

fn min_max(values: impl Iterator<Item = u32>) -> Option<(u32, u32)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(r: u32, c: u32) -> ((u32, u32), Value) {
        ((r, c), Value::Whole(1, "1".into()))
    }

    #[test]
    fn cells_two_apart_join_and_three_apart_do_not() {
        let cells = vec![cell(0, 0), cell(2, 2), cell(2, 5), cell(9, 0)];
        let mut sizes: Vec<usize> = islands(&cells).iter().map(Vec::len).collect();
        sizes.sort_unstable();
        assert_eq!(sizes, [1, 1, 2]);
    }

    #[test]
    fn dots_and_numbers_up_to_64_may_be_digits() {
        assert_eq!(digit_like(&Value::Other(" . ".into())), Some(0));
        assert_eq!(digit_like(&Value::Whole(64, "64".into())), Some(64));
        assert_eq!(digit_like(&Value::Whole(65, "65".into())), None);
        assert_eq!(digit_like(&Value::Other("x".into())), None);
    }
}
