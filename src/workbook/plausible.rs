//! Bordered blocks whose values pass the count test of a puzzle (digits of
//! the grid, few other values) but that no person would call a puzzle: the
//! 0/1 indicator matrices of an integer-programming model, tables of
//! computed values (formulas everywhere), index maps and random fills whose
//! digits clash all over. A puzzle holds givens of its alphabet and blanks.

use std::collections::HashSet;

use super::cells::Cell;
use super::find::read_grid;
use super::reader::{RawSheet, Unread};
use crate::address::CellRange;
use crate::grid::{BoxShape, Grid, Unit};

/// Why the values of `range` (side `side`) are no puzzle although they pass
/// the count test, or `None` when they may be one:
///
/// - **indicators**: at least `side` digits, all of one or two values (a
///   0/1 matrix: its `0`s read as blanks, its `1`s as givens);
/// - **computed**: at least half the square filled, nine tenths or more of
///   the filled cells formulas;
/// - **clashes**: more than `side` digits, and more than a quarter of
///   them, repeat within a row or column (a box-number map, a random fill).
pub(super) fn not_a_puzzle(sheet: &RawSheet, range: CellRange, side: usize) -> Option<String> {
    let shape = BoxShape::for_side(side)?;
    let (_, _, cells) = read_grid(sheet, range, shape);
    let mut givens = 0usize;
    let mut values = [0usize; 65];
    let (mut filled, mut formulas) = (0usize, 0usize);
    for (i, cell) in cells.iter().enumerate() {
        if matches!(cell, Cell::Blank) {
            continue;
        }
        filled += 1;
        let at = range.cell((i / side) as u32, (i % side) as u32);
        let key = (at.row, at.col);
        if sheet.formulas.contains(&key)
            || matches!(sheet.unread.get(&key), Some(Unread::Formula(_)))
        {
            formulas += 1;
        }
        if let Cell::Given(d) = cell {
            givens += 1;
            values[usize::from(*d).min(64)] += 1;
        }
    }
    let distinct: Vec<usize> = (1..=side).filter(|&d| values[d] > 0).collect();
    if givens >= side && distinct.len() <= 2 {
        let shown: Vec<String> = distinct.iter().map(|d| d.to_string()).collect();
        let zeros = cells
            .iter()
            .filter(|c| matches!(c, Cell::Marked(t) if t.trim() == "0"))
            .count();
        return Some(if zeros > 0 && distinct == [1] {
            format!("it holds only 0s and 1s ({givens} ones): an indicator table, not givens")
        } else {
            format!(
                "its {givens} digits are all {}: not the givens of a puzzle",
                shown.join(" or ")
            )
        });
    }
    if filled * 2 >= side * side && formulas * 10 >= filled * 9 {
        return Some(format!(
            "{formulas} of its {filled} filled cells are formulas: a table of computed values, not givens"
        ));
    }
    let digits: Vec<u8> = cells.iter().map(Cell::given).collect();
    let grid = Grid::from_cells(shape, digits).ok()?;
    let clashing: HashSet<usize> = grid
        .conflicts()
        .iter()
        .filter(|c| matches!(c.unit, Unit::Row(_) | Unit::Col(_)))
        .flat_map(|c| c.cells.iter().copied())
        .collect();
    let n = clashing.len();
    (n > side && n * 4 > givens)
        .then(|| format!("{n} of its {givens} digits repeat within a row or column: not a puzzle"))
}
