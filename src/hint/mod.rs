//! The hint: from the position a person has reached in a grid (the
//! givens, the digits they entered and the pencil marks they wrote), only
//! the next step of the technique ladder, in words and as the cells to
//! colour; or, when an entry or a set of marks disagrees with the
//! solution of the givens, which cells are wrong, and nothing more.
//!
//! The position is [`crate::position`]'s: on a sheet, bold givens are
//! told from plain entries, and pencil marks narrow their cell's
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
pub use crate::position::{Position, Written, Wrong};
pub use workbook::{
    grid_hint, hint_workbook, GridHint, HintError, HintedBook, PaintedCell, WrongCell,
};

use crate::explain::AddressMap;
use crate::logic::{Step, Stop};
use crate::search::{search, SearchOptions};
use crate::solve::{Outcome, SolveOptions};

/// The word a hint's note starts with (`hint: naked single: G7 = 5`), by
/// which a later run knows the note it wrote.
pub const NOTE_WORD: &str = crate::note::HINT_WORD;

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
    let wrong = crate::position::wrong_cells(position, solution);
    if !wrong.is_empty() {
        return Hint::Wrong(wrong);
    }
    let Some(mut solver) =
        crate::position::marked_solver(position, opts.techniques.clone(), deadline)
    else {
        // Entries that agree with the solution never clash.
        return Hint::Failed(Status::Invalid, "the entries clash".to_string());
    };
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
