//! Explaining from a person's pencil marks: the ladder starts from the
//! candidates the marks leave in their cells, as the hint does, so the
//! first step explained is the hint's step.

use super::AddressMap;
use crate::grid::Grid;
use crate::position::{marked_solver, wrong_cells, wrong_words, Position};
use crate::solve::{Outcome, SolveOptions, Status};

/// Replaces the steps and history of a solved `outcome` (of `puzzle`,
/// proven unique) by the ladder's run from the pencil marks `marks` (bit
/// `d - 1` for digit `d`, per cell), the rating staying the puzzle's.
/// Marks that leave out a cell's answer make the position unsolvable:
/// the status becomes [`Status::Unsolvable`] and the reason names them
/// as the hint does; a run past the time limit becomes
/// [`Status::Timeout`]. Returns the reason, `None` when explained.
pub(super) fn from_marks(
    puzzle: &Grid,
    outcome: &mut Outcome,
    marks: &[u64],
    map: &AddressMap,
    opts: &SolveOptions,
) -> Option<String> {
    let position = Position {
        givens: puzzle.clone(),
        reached: puzzle.clone(),
        marks: marks.to_vec(),
    };
    // A solved outcome's grid is the solution.
    let solution = outcome.grid.clone();
    let wrong = wrong_cells(&position, &solution);
    let fail = |outcome: &mut Outcome, status: Status| {
        outcome.status = status;
        outcome.steps.clear();
        outcome.history.clear();
    };
    if !wrong.is_empty() {
        fail(outcome, Status::Unsolvable);
        return Some(format!(
            "the marks do not fit the solution: {}",
            wrong_words(&wrong, map, false)
        ));
    }
    let started = std::time::Instant::now();
    let deadline = opts.timeout.and_then(|t| started.checked_add(t));
    let mut solver = marked_solver(&position, opts.techniques.clone(), deadline)?;
    if solver.run(Some(&solution)) == crate::logic::Stop::Timeout {
        fail(outcome, Status::Timeout);
        return Some("no steps from the pencil marks in time".to_string());
    }
    outcome.history = solver.board().history();
    outcome.steps = solver.into_steps();
    outcome.elapsed += started.elapsed();
    None
}
