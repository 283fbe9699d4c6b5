//! The position a person has reached in a grid: the puzzle's givens, the
//! digits they entered and the pencil marks they wrote; and which of their
//! entries and marks disagree with the solution of the givens, named the
//! same way by `hint`, `solve`, `check` and `explain` (`D5: 3 is wrong`).
//!
//! On a sheet, the givens are told from the person's digits by the font:
//! when some of a grid's digits are bold and others are not, the bold ones
//! are the givens (as printed puzzles and HoDoKu set them) and the others
//! the person's; otherwise every digit is a given, and the digits an
//! earlier xlsudoku run filled in (still blue italic, as its record says)
//! are entries. Pencil marks (`1 2 5`, `125`, `4,6`) narrow their cell's
//! candidates; a cell whose marks leave out its answer is wrong like a
//! wrong digit.
//!
//! ```
//! use xlsudoku::cell_names::AddressMap;
//! use xlsudoku::grid::Grid;
//! use xlsudoku::position::{wrong_cells, Position};
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let solution: Grid =
//!     "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
//!         .parse()?;
//! let mut position = Position::of_puzzle(&puzzle);
//! position.reached.set(0, 0, 5); // r1c1's answer is 4
//! let wrong = wrong_cells(&position, &solution);
//! let map = AddressMap::puzzle(puzzle.shape());
//! assert_eq!(wrong[0].words(&map, false), "r1c1: 5 is wrong");
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

use std::time::{Duration, Instant};

use crate::cell_names::AddressMap;
use crate::grid::Grid;
use crate::logic::{Ladder, Solver};
use crate::search::{search, SearchOptions};
use crate::workbook::{Cell, FoundGrid};

/// The position a person has reached: the puzzle's givens, the grid as
/// they filled it (givens and entries), and their pencil marks.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    /// The givens: the puzzle whose solution the entries are held to.
    pub givens: Grid,
    /// The givens and the person's entries.
    pub reached: Grid,
    /// Each cell's pencil marks as a bit set (bit `d - 1` for digit `d`),
    /// 0 where there are none.
    pub marks: Vec<u64>,
}

impl Position {
    /// A text puzzle: its digits are the givens, nothing entered, no marks.
    pub fn of_puzzle(puzzle: &Grid) -> Position {
        Position {
            givens: puzzle.clone(),
            reached: puzzle.clone(),
            marks: vec![0; puzzle.cells().len()],
        }
    }

    /// A grid read from a sheet (see the [module documentation](self) for
    /// how givens are told from entries).
    pub fn of_grid(grid: &FoundGrid) -> Position {
        let digit = |c: &Cell| match c {
            Cell::Given(d) | Cell::Filled(d) => *d,
            _ => 0,
        };
        let by_font = by_font(grid);
        let bold = |i: usize| grid.bold.get(i).copied().unwrap_or(false);
        let given = |i: usize| match &grid.cells[i] {
            Cell::Given(d) if !by_font || bold(i) => *d,
            _ => 0,
        };
        let shape = grid.shape;
        let of = |f: &dyn Fn(usize) -> u8| {
            Grid::from_cells(shape, (0..grid.cells.len()).map(f).collect())
                .unwrap_or_else(|_| Grid::empty(shape))
        };
        Position {
            givens: of(&given),
            reached: of(&|i| digit(&grid.cells[i])),
            marks: grid
                .cells
                .iter()
                .map(|c| match c {
                    Cell::Marked(text) => marks_of(text, shape.side()),
                    _ => 0,
                })
                .collect(),
        }
    }

    /// True when some cell holds pencil marks.
    pub fn has_marks(&self) -> bool {
        self.marks.iter().any(|&m| m != 0)
    }
}

/// True when the grid's digits are told apart by the font: some bold (the
/// givens), some not (the person's entries).
fn by_font(grid: &FoundGrid) -> bool {
    let bold = |i: usize| grid.bold.get(i).copied().unwrap_or(false);
    let digits: Vec<usize> = (0..grid.cells.len())
        .filter(|&i| matches!(grid.cells[i], Cell::Given(_)))
        .collect();
    digits.iter().any(|&i| bold(i)) && digits.iter().any(|&i| !bold(i))
}

/// The digits of pencil marks written as text (`1 2 5`, `125`, `4,6`) as a
/// bit set; 0 for a blank written `0` or `.`.
pub fn marks_of(text: &str, side: usize) -> u64 {
    text.chars()
        .filter_map(|c| c.to_digit(10))
        .filter(|&d| d >= 1 && d as usize <= side)
        .fold(0, |m, d| m | 1 << (d - 1))
}

/// What the person wrote in a wrong cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// A digit that is not the cell's answer.
    Digit(u8),
    /// Pencil marks that leave out the cell's answer.
    Marks(u64),
}

/// A cell the person got wrong, with its answer (shown only when asked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wrong {
    /// The cell (row-major index).
    pub cell: usize,
    /// What is written there.
    pub written: Written,
    /// The solution's digit.
    pub answer: u8,
}

impl Wrong {
    /// `D5: 3 is wrong`, `D5: the marks 1 2 leave out the answer`; with
    /// `reveal`, the answer follows: `D5: 3 is wrong (7)`.
    pub fn words(&self, map: &AddressMap, reveal: bool) -> String {
        let what = match self.written {
            Written::Digit(d) => format!("{} is wrong", map.digit(d)),
            Written::Marks(m) => format!(
                "the marks {} leave out the answer",
                (1..=64u8)
                    .filter(|&d| m >> (d - 1) & 1 == 1)
                    .map(|d| map.digit(d))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        let answer = if reveal {
            format!(" ({})", map.digit(self.answer))
        } else {
            String::new()
        };
        format!("{}: {what}{answer}", map.cell(self.cell))
    }
}

/// The wrong cells in words, joined by `; `: `D5: 3 is wrong; F2: 7 is
/// wrong` (with `reveal`, each answer in brackets).
pub fn wrong_words(wrong: &[Wrong], map: &AddressMap, reveal: bool) -> String {
    wrong
        .iter()
        .map(|w| w.words(map, reveal))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The cells of `position` that disagree with `solution` (the solution of
/// its givens), in reading order: a digit that is not the answer, or
/// pencil marks in a blank that leave the answer out.
pub fn wrong_cells(position: &Position, solution: &Grid) -> Vec<Wrong> {
    let answers = solution.cells();
    (0..answers.len())
        .filter_map(|i| {
            let answer = answers[i];
            let d = position.reached.cells().get(i).copied().unwrap_or(0);
            let m = position.marks.get(i).copied().unwrap_or(0);
            let written = if d != 0 && d != answer {
                Written::Digit(d)
            } else if d == 0 && answer != 0 && m != 0 && m >> (answer - 1) & 1 == 0 {
                Written::Marks(m)
            } else {
                return None;
            };
            Some(Wrong {
                cell: i,
                written,
                answer,
            })
        })
        .collect()
}

/// The person's digits to blame when a grid read from a sheet has no
/// solution: when its bold givens are told from plain entries (see the
/// [module documentation](self)) and the givens alone have exactly one
/// solution (found within `budget`), the entries that disagree with it,
/// in reading order. `None` when the grid does not tell givens from
/// entries, when the givens alone have no single solution or it was not
/// found in time, or when no entry is wrong: the givens are then to
/// blame, as [`crate::conflicts`] names them.
pub fn wrong_entries(grid: &FoundGrid, budget: Duration) -> Option<Vec<Wrong>> {
    if !by_font(grid) {
        return None;
    }
    let position = Position {
        // The digits the sheet holds, not an earlier run's fills (which a
        // new run replaces); pencil marks never make a grid unsolvable.
        reached: grid.puzzle(),
        marks: Vec::new(),
        ..Position::of_grid(grid)
    };
    let opts = SearchOptions {
        limit: 2,
        deadline: Instant::now().checked_add(budget),
    };
    let found = search(&position.givens, &opts).ok()?;
    let [solution] = found.solutions.as_slice() else {
        return None;
    };
    let wrong = wrong_cells(&position, solution);
    (!wrong.is_empty()).then_some(wrong)
}

/// A solver at `position`: its givens and entries placed, each
/// blank's candidates narrowed by its pencil marks, told the puzzle has
/// one solution (the caller has proven it) and to stop at `deadline`.
/// `None` when the digits clash. `hint` takes one step from it, `explain`
/// runs it to the end.
pub fn marked_solver(
    position: &Position,
    ladder: Ladder,
    deadline: Option<Instant>,
) -> Option<Solver> {
    let mut solver = Solver::with_ladder(&position.reached, ladder)?;
    solver.assume_unique();
    solver.set_deadline(deadline);
    for (i, &m) in position.marks.iter().enumerate() {
        if m != 0 && position.reached.cells().get(i) == Some(&0) {
            solver.keep_marks(i, m);
        }
    }
    Some(solver)
}

/// Why a grid read from a sheet has no solution when its entries are to
/// blame ([`wrong_entries`]), in the hint's words and without the right
/// digits: `the entries do not fit the givens: D5: 3 is wrong; F2: 7 is
/// wrong`. `None` when the entries are not to blame.
pub fn wrong_entries_reason(grid: &FoundGrid, map: &AddressMap) -> Option<String> {
    let wrong = wrong_entries(grid, crate::conflicts::CORE_BUDGET)?;
    Some(format!(
        "the entries do not fit the givens: {}",
        wrong_words(&wrong, map, false)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_read_in_every_way_a_person_writes_them() {
        assert_eq!(marks_of("1 2 5", 9), 0b1_0011);
        assert_eq!(marks_of("125", 9), 0b1_0011);
        assert_eq!(marks_of("4,6", 9), 0b10_1000);
        assert_eq!(marks_of("0", 9), 0);
        assert_eq!(marks_of(".", 9), 0);
        assert_eq!(marks_of("17", 6), 1, "7 is no digit of a 6x6");
    }

    #[test]
    fn only_digits_and_marks_that_leave_out_the_answer_are_wrong() {
        let solution: Grid = "1234341221434321".parse().unwrap();
        let mut position = Position::of_puzzle(&"1.........4....1".parse().unwrap());
        position.reached.set(0, 1, 2); // right
        position.reached.set(0, 2, 4); // wrong: 3
        position.marks[4] = 0b0101; // 1 3: right (3)
        position.marks[5] = 0b1001; // 1 4: right (4)
        position.marks[6] = 0b0110; // 2 3: wrong (1)
        let wrong = wrong_cells(&position, &solution);
        let cells: Vec<usize> = wrong.iter().map(|w| w.cell).collect();
        assert_eq!(cells, vec![2, 6]);
        assert_eq!(wrong[0].written, Written::Digit(4));
        assert_eq!(wrong[0].answer, 3);
        let map = AddressMap::puzzle(solution.shape());
        assert_eq!(
            wrong_words(&wrong, &map, false),
            "r1c3: 4 is wrong; r2c3: the marks 2 3 leave out the answer"
        );
        assert_eq!(
            wrong_words(&wrong, &map, true),
            "r1c3: 4 is wrong (3); r2c3: the marks 2 3 leave out the answer (1)"
        );
    }
}
