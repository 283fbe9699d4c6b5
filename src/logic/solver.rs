//! The solver: a position ([`Board`]) with the technique families that
//! search it (each with its memo), the ladder's order, whether the puzzle
//! is known to be unique, and the run ([`Run`]: whose choice, the
//! deadline, the notes). It runs the ladder: HoDoKu's `SudokuSolver` and
//! `SudokuStepFinder` to the `Sudoku2` of the board.

use std::time::Instant;

use super::memo::{Noted, Run};
use super::techniques::Families;
use super::{bit, Board, Findings, Ladder, Step, Stop, Technique};
use crate::grid::Grid;

/// Solves a puzzle step by step with the techniques of a [`Ladder`],
/// simplest first, starting again from the top after each success.
///
/// ```
/// use xlsudoku::grid::Grid;
/// use xlsudoku::logic::{Solver, Stop};
///
/// let puzzle: Grid =
///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
///         .parse()?;
/// let mut solver = Solver::new(&puzzle).expect("no clash");
/// assert_eq!(solver.run(None), Stop::Solved);
/// assert!(solver.board().history().chars().all(|c| c == 'i'));
/// assert!(solver.board().grid().solves(&puzzle));
/// # Ok::<(), xlsudoku::grid::GridError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Solver {
    /// The position.
    pub(in crate::logic) board: Board,
    /// The families of techniques, each with what it keeps.
    pub(in crate::logic) families: Families,
    /// Whose choice, the deadline and the run's notes.
    pub(in crate::logic) run: Run,
    /// The ladder's techniques in the order they are tried.
    pub(in crate::logic) order: Vec<Technique>,
    /// The puzzle is known to have exactly one solution: only then may
    /// uniqueness techniques (`u` `h` `b`) be used.
    unique: bool,
}

impl Solver {
    /// A solver for a puzzle with every technique ([`Ladder::all`]):
    /// every blank starts with all candidates the givens allow. `None`
    /// when two givens clash.
    pub fn new(puzzle: &Grid) -> Option<Solver> {
        Solver::with_ladder(puzzle, Ladder::all())
    }

    /// A solver for a puzzle with the techniques of `ladder`. `None` when
    /// two givens clash.
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::{Ladder, Solver, Stop};
    ///
    /// let hard: Grid =
    ///     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    ///         .parse()?;
    /// let mut seed = Solver::with_ladder(&hard, Ladder::seed()).unwrap();
    /// assert_eq!(seed.run(None), Stop::Stuck);
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn with_ladder(puzzle: &Grid, ladder: Ladder) -> Option<Solver> {
        Some(Solver {
            board: Board::new(puzzle, ladder != Ladder::seed())?,
            families: Families::default(),
            run: Run::new(),
            order: ladder.techniques().collect(),
            unique: false,
        })
    }

    /// A solver for a test that writes candidates by hand: the full
    /// ladder, without HoDoKu's queues of singles (they would not see the
    /// edits, and would count places that are gone).
    #[cfg(test)]
    pub(in crate::logic) fn edited_by_hand(puzzle: &Grid) -> Solver {
        let mut s = Solver::new(puzzle).unwrap();
        s.board.queues = None;
        s
    }

    /// Tells the solver that its puzzle has exactly one solution (proven,
    /// say, by [`search`](crate::search::search) with a limit of 2), which
    /// lets the ladder use the uniqueness techniques: unique rectangles
    /// (`u`), hidden rectangles (`h`) and BUG+1 (`b`). They assume that no
    /// second solution exists, so on a puzzle with several they could
    /// strike a true digit; a solver not told so (the default) skips them.
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::Solver;
    ///
    /// let p: Grid =
    ///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    ///         .parse()?;
    /// let mut solver = Solver::new(&p).expect("no clash");
    /// assert!(!solver.assumes_unique());
    /// solver.assume_unique();
    /// assert!(solver.assumes_unique());
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn assume_unique(&mut self) {
        self.unique = true;
    }

    /// Whether [`Solver::assume_unique`] was called: uniqueness techniques
    /// are used only then.
    pub fn assumes_unique(&self) -> bool {
        self.unique
    }

    /// Sets the time by which [`Solver::run`] must stop (`None`: no
    /// limit). The ladder checks it between steps and inside its costly
    /// searches (chains, almost locked sets, forcing chains), so a run
    /// ends soon after it with [`Stop::Timeout`].
    ///
    /// ```
    /// use std::time::Instant;
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::{Solver, Stop};
    ///
    /// let hard: Grid =
    ///     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    ///         .parse()?;
    /// let mut solver = Solver::new(&hard).unwrap();
    /// solver.set_deadline(Some(Instant::now()));
    /// assert_eq!(solver.run(None), Stop::Timeout);
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.run.set_deadline(deadline);
    }

    /// Notes from now on what techniques find in each position, starting
    /// from what an earlier run on the same puzzle noted (`known`), and
    /// uses the notes: a technique that found nothing in a position is not
    /// tried there again, a step found there is taken again without a
    /// search. The steps are the same, found sooner.
    pub(crate) fn note_findings(&mut self, known: Option<Findings>) {
        self.run.note_findings(known);
    }

    /// What [`Solver::note_findings`] noted, leaving nothing noted.
    pub(crate) fn take_findings(&mut self) -> Option<Findings> {
        self.run.take_findings()
    }

    /// The position: the grid as far as it is solved, the candidates, the
    /// steps taken.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The steps taken so far, in order (the board's).
    pub fn steps(&self) -> &[Step] {
        &self.board.steps
    }

    /// The steps taken, in order, taken out of the solver (no copy).
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::Solver;
    ///
    /// let p: Grid =
    ///     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    ///         .parse()?;
    /// let mut solver = Solver::new(&p).unwrap();
    /// solver.run(None);
    /// let seen = solver.steps().len();
    /// assert_eq!(solver.into_steps().len(), seen);
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn into_steps(self) -> Vec<Step> {
        self.board.steps
    }

    /// One step of the ladder: the first technique, in table order, that
    /// finds something; false when none does.
    pub(in crate::logic) fn step(&mut self) -> bool {
        // The singles at the head of the order first, without the notes:
        // they cost less than looking the position up, and are not kept.
        let mut first = 0;
        while let Some(&t @ (Technique::NakedSingle | Technique::HiddenSingle)) =
            self.order.get(first)
        {
            if self.try_technique(t) {
                return true;
            }
            first += 1;
        }
        // What runs on this puzzle found here (nothing, or a step) is
        // not searched for again; what this search finds is noted.
        let known = self.run.known(&self.board);
        let nothing = Noted::default();
        let noted = known.as_ref().map_or(&nothing, |(_, n)| n);
        let mut failed = 0u64;
        let mut found = None;
        for k in first..self.order.len() {
            let t = self.order[k];
            if noted.failed & t.bit() != 0 {
                continue;
            }
            if let Some((_, step)) = noted.found.iter().find(|(tried, _)| *tried == t) {
                self.board.replay(step.clone());
                return true;
            }
            if self.try_technique(t) {
                found = Some(t);
                break;
            }
            self.run.searched_in_vain(&self.board, t);
            failed |= t.bit();
        }
        if let Some((key, noted)) = known {
            let step = found
                .filter(|&t| t.info().kept())
                .and_then(|t| Some((t, self.board.steps.last()?.clone())));
            self.run.noted(key, &noted, failed, step);
        }
        found.is_some()
    }

    /// One step of technique `t`, if it finds one here: the search of
    /// its row of the table (a uniqueness technique only when the puzzle
    /// is known to have one solution).
    pub(in crate::logic) fn try_technique(&mut self, t: Technique) -> bool {
        let info = t.info();
        (self.unique || !info.needs_uniqueness())
            && (info.find)(&mut self.families, &mut self.board, &mut self.run)
    }

    /// One step of technique `t`, whether or not the puzzle is known to
    /// be unique: for the tests of one technique.
    #[cfg(test)]
    pub(in crate::logic) fn find(&mut self, t: Technique) -> bool {
        (t.info().find)(&mut self.families, &mut self.board, &mut self.run)
    }

    /// Runs the ladder to the end. When it stops short and `solution` is
    /// given, the blank with the fewest candidates (first in reading order)
    /// takes its value from the solution, recorded as a guess (`#`), and the
    /// ladder goes on. `solution` must solve this solver's puzzle.
    pub fn run(&mut self, solution: Option<&Grid>) -> Stop {
        loop {
            if let Err(stop) = self.advance(solution) {
                return stop;
            }
        }
    }

    /// The ladder's next move: a step, or a guess from `solution` where
    /// the techniques stop; `Err` with why there is none.
    pub(in crate::logic) fn advance(&mut self, solution: Option<&Grid>) -> Result<(), Stop> {
        let b = &self.board;
        if b.contradiction {
            return Err(Stop::Contradiction);
        }
        if b.grid.is_full() {
            return Err(Stop::Solved);
        }
        if self.run.past_deadline() {
            return Err(Stop::Timeout);
        }
        if self.step() {
            self.board.contradiction = self.board.find_contradiction();
            return Ok(());
        }
        let sol = solution.ok_or(Stop::Stuck)?;
        let b = &mut self.board;
        let cell = (0..b.cands.len())
            .filter(|&i| b.cands[i] != 0)
            .min_by_key(|&i| b.cands[i].count_ones())
            .ok_or(Stop::Contradiction)?;
        let d = sol.cells()[cell];
        if d == 0 || b.cands[cell] & bit(d) == 0 {
            // The solution does not fit this position: it was not one of
            // this puzzle's, or the position is broken.
            return Err(Stop::Contradiction);
        }
        b.place(Technique::Guess, None, cell, d);
        b.contradiction = b.find_contradiction();
        Ok(())
    }
}

/// Tests read and edit the position through the solver.
#[cfg(test)]
impl std::ops::Deref for Solver {
    type Target = Board;

    fn deref(&self) -> &Board {
        &self.board
    }
}

#[cfg(test)]
impl std::ops::DerefMut for Solver {
    fn deref_mut(&mut self) -> &mut Board {
        &mut self.board
    }
}
