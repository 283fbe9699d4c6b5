//! The hint: from the position a person has reached in a grid (the
//! givens, the digits they entered and the pencil marks they wrote), only
//! the next step of the technique ladder, in words and as the cells to
//! colour; or, when an entry or a set of marks disagrees with the
//! solution of the givens, which cells are wrong, and nothing more.
//!
//! On a sheet, the givens are told from the person's digits by the font:
//! when some of a grid's digits are bold and others are not, the bold ones
//! are the givens (as printed puzzles and HoDoKu set them) and the others
//! the person's; otherwise every digit is a given, and the digits an
//! earlier xlsudoku run filled in (still blue italic, as its record says)
//! are entries. Pencil marks (`1 2 5`, `125`) narrow their cell's
//! candidates; a cell whose marks leave out its answer is wrong like a
//! wrong digit.
//!
//! The step is the one `explain` gives first from the same position: the
//! ladder starts from the givens and entries, narrowed by the marks, told
//! that the puzzle has one solution (proven first, by the exact search),
//! and guesses from that solution where the techniques stop.
//!
//! ```
//! use xlsudoku::explain::AddressMap;
//! use xlsudoku::grid::Grid;
//! use xlsudoku::hint::{hint, Hint, Position};
//! use xlsudoku::solve::SolveOptions;
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let map = AddressMap::puzzle(puzzle.shape());
//! let mut position = Position::of_puzzle(&puzzle);
//! match hint(&position, &map, &SolveOptions::default()) {
//!     Hint::Step(s) => assert!(s.text.starts_with("naked single: r")),
//!     other => panic!("{other:?}"),
//! }
//! // A wrong digit typed in r1c1 (its answer is 4) is named, not corrected.
//! position.reached.set(0, 0, 5);
//! match hint(&position, &map, &SolveOptions::default()) {
//!     Hint::Wrong(w) => assert_eq!(w[0].words(&map, false), "r1c1: 5 is wrong"),
//!     other => panic!("{other:?}"),
//! }
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

mod workbook;

use std::time::Instant;

pub use crate::paint::{markdown_table, paint, Paint, Role};
pub use workbook::{
    grid_hint, hint_workbook, GridHint, HintError, HintedBook, PaintedCell, WrongCell,
};

use crate::explain::AddressMap;
use crate::grid::Grid;
use crate::logic::{Solver, Step, Stop};
use crate::search::{search, SearchOptions};
use crate::solve::{Outcome, SolveOptions};
use crate::workbook::{Cell, FoundGrid};

/// The word a hint's note starts with (`hint: naked single: G7 = 5`), by
/// which a later run knows the note it wrote.
pub const NOTE_WORD: &str = crate::note::HINT_WORD;

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
        let bold = |i: usize| grid.bold.get(i).copied().unwrap_or(false);
        let digits: Vec<usize> = (0..grid.cells.len())
            .filter(|&i| matches!(grid.cells[i], Cell::Given(_)))
            .collect();
        let by_font = digits.iter().any(|&i| bold(i)) && digits.iter().any(|&i| !bold(i));
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
}

/// The digits of pencil marks written as text (`1 2 5`, `125`, `4,6`) as a
/// bit set; 0 for a blank written `0` or `.`.
fn marks_of(text: &str, side: usize) -> u64 {
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

/// The next step, with the candidates every cell had just before it and
/// its sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct NextStep {
    /// The step.
    pub step: Step,
    /// The candidates of every cell before the step (0 for a filled cell).
    pub candidates: Vec<u64>,
    /// The step in words, with the map's names.
    pub text: String,
}

/// What the hint says of one position.
#[derive(Debug, Clone, PartialEq)]
pub enum Hint {
    /// The next step.
    Step(Box<NextStep>),
    /// Entries or marks that disagree with the solution, in reading order.
    Wrong(Vec<Wrong>),
    /// Every cell is filled, and rightly.
    Solved,
    /// The givens have no single solution (or it was not found in time):
    /// the status and the reason, in words.
    Failed(crate::solve::Status, String),
}

/// The hint for `position`: its grid's cells, lines and digits named by
/// `map`, the ladder and time limit of `opts`.
pub fn hint(position: &Position, map: &AddressMap, opts: &SolveOptions) -> Hint {
    use crate::solve::Status;
    let started = Instant::now();
    let deadline = opts.timeout.and_then(|t| started.checked_add(t));
    let givens = &position.givens;
    if !givens.conflicts().is_empty() {
        let outcome = Outcome::invalid(givens);
        return Hint::Failed(Status::Invalid, crate::explain::conflicts(&outcome, map));
    }
    let found = match search(givens, &SearchOptions { limit: 2, deadline }) {
        Ok(f) => f,
        Err(_) => return Hint::Failed(Status::Timeout, "no answer in time".to_string()),
    };
    let solution = match found.solutions.as_slice() {
        [one] => one,
        [] => {
            return Hint::Failed(
                Status::Unsolvable,
                "the givens have no solution".to_string(),
            )
        }
        _ => {
            return Hint::Failed(
                Status::Multiple,
                "the givens allow more than one solution".to_string(),
            )
        }
    };
    let answers = solution.cells();
    let wrong: Vec<Wrong> = (0..answers.len())
        .filter_map(|i| {
            let answer = answers[i];
            let d = position.reached.cells()[i];
            let m = position.marks.get(i).copied().unwrap_or(0);
            let written = if d != 0 && d != answer {
                Written::Digit(d)
            } else if d == 0 && m != 0 && m >> (answer - 1) & 1 == 0 {
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
        .collect();
    if !wrong.is_empty() {
        return Hint::Wrong(wrong);
    }
    let Some(mut solver) = Solver::with_ladder(&position.reached, opts.techniques.clone()) else {
        // Entries that agree with the solution never clash.
        return Hint::Failed(Status::Invalid, "the entries clash".to_string());
    };
    solver.assume_unique();
    solver.set_deadline(deadline);
    for (i, &m) in position.marks.iter().enumerate() {
        if m != 0 && position.reached.cells()[i] == 0 {
            solver.keep_marks(i, m);
        }
    }
    let candidates: Vec<u64> = (0..answers.len())
        .map(|i| solver.board().candidates(i).bits())
        .collect();
    match solver.next_step(Some(solution)) {
        Ok(step) => {
            let text = crate::explain::describe(step, map, &candidates);
            Hint::Step(Box::new(NextStep {
                step: step.clone(),
                candidates,
                text,
            }))
        }
        Err(Stop::Solved) => Hint::Solved,
        Err(Stop::Timeout) => Hint::Failed(Status::Timeout, "no step in time".to_string()),
        // Marks and entries that agree with the solution leave it room.
        Err(_) => Hint::Failed(
            Status::Unsolvable,
            "the position has no solution".to_string(),
        ),
    }
}

#[cfg(test)]
mod tests;
