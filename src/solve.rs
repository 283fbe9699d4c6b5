//! From a puzzle to an outcome: validation, the exact search that proves
//! the answer unique, and the technique ladder that records how a person
//! gets there.
//!
//! ```
//! use xlsudoku::grid::Grid;
//! use xlsudoku::solve::{solve, SolveOptions, Status};
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let outcome = solve(&puzzle, &SolveOptions::default());
//! assert_eq!(outcome.status, Status::Solved);
//! assert!(outcome.grid.solves(&puzzle));
//! assert!(outcome.history.chars().all(|c| c == 'i'));
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

use std::fmt;
use std::time::{Duration, Instant};

use crate::grid::{Conflict, Grid};
use crate::logic::{
    rate_after_noted, rate_unique_until, se_engine_rates, Budget, Ladder, Rating, Solver, Step,
    Stop,
};
use crate::search::{search, SearchError, SearchOptions};

/// How long Sudoku Explainer's own rating of a 9x9 may take on the solve
/// path by default ([`SolveOptions::se_budget`]).
pub const DEFAULT_SE_BUDGET: Duration = Duration::from_secs(1);

/// How to solve.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveOptions {
    /// Like the seed macro: no search; stop when the techniques stop, keep
    /// what was deduced and report the remaining candidates.
    pub logic_only: bool,
    /// Give up after this long (status [`Status::Timeout`]).
    pub timeout: Option<Duration>,
    /// The techniques the ladder may use ([`Ladder::all`] by default;
    /// [`Ladder::seed`] gives the old macro's history exactly).
    pub techniques: Ladder,
    /// How long Sudoku Explainer's own rating of a 9x9 grid may take
    /// ([`DEFAULT_SE_BUDGET`] by default): past it, the rating's SE part
    /// is a lower bound ([`Rating::se_exact`] false), never a guess.
    /// `None`: no limit but `timeout`.
    pub se_budget: Option<Duration>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            logic_only: false,
            timeout: None,
            techniques: Ladder::default(),
            se_budget: Some(DEFAULT_SE_BUDGET),
        }
    }
}

/// How solving a grid ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Solved, and (unless logic-only) proven to be the only solution.
    Solved,
    /// Logic-only: the techniques stopped before the end.
    GaveUp,
    /// Givens clash, or a cell holds something that is not a digit.
    Invalid,
    /// The givens do not clash, but no solution exists.
    Unsolvable,
    /// More than one solution.
    Multiple,
    /// The time limit passed first.
    Timeout,
}

impl Status {
    /// The word the note in the workbook starts with: `solved`, `gave up`,
    /// `invalid`, `unsolvable`, `multiple solutions`, `timeout`.
    pub fn note_word(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::GaveUp => "gave up",
            Status::Invalid => "invalid",
            Status::Unsolvable => "unsolvable",
            Status::Multiple => "multiple solutions",
            Status::Timeout => "timeout",
        }
    }

    /// The word reports use: `solved`, `gave-up`, `invalid`, `unsolvable`,
    /// `multiple`, `timeout`.
    pub fn report_word(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::GaveUp => "gave-up",
            Status::Invalid => "invalid",
            Status::Unsolvable => "unsolvable",
            Status::Multiple => "multiple",
            Status::Timeout => "timeout",
        }
    }

    /// Every status, in order.
    pub const ALL: [Status; 6] = [
        Status::Solved,
        Status::GaveUp,
        Status::Invalid,
        Status::Unsolvable,
        Status::Multiple,
        Status::Timeout,
    ];
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.report_word())
    }
}

/// The result of solving one grid.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub status: Status,
    /// The grid at the end: the solution when solved, what was deduced when
    /// the ladder gave up, the puzzle itself otherwise.
    pub grid: Grid,
    /// For [`Status::GaveUp`]: the remaining candidates of each cell (bit
    /// `d - 1` for digit `d`, 0 for a filled cell); empty otherwise.
    pub candidates: Vec<u64>,
    /// The history string: one letter per deduction.
    pub history: String,
    /// The deductions, in order.
    pub steps: Vec<Step>,
    /// Clashing givens, for [`Status::Invalid`].
    pub conflicts: Vec<Conflict>,
    /// Whether the solution was proven unique (`None` when not checked).
    pub unique: Option<bool>,
    /// Guesses the exact search made.
    pub search_guesses: u64,
    /// The puzzle's difficulty on SE's and HoDoKu's scales (with every
    /// technique, whatever [`SolveOptions::techniques`] says), for a
    /// solved grid with one solution; `None` otherwise.
    pub rating: Option<Rating>,
    /// Wall time taken.
    pub elapsed: Duration,
}

impl Outcome {
    fn new(status: Status, grid: Grid, started: Instant) -> Self {
        Outcome {
            status,
            grid,
            candidates: Vec::new(),
            history: String::new(),
            steps: Vec::new(),
            conflicts: Vec::new(),
            unique: None,
            search_guesses: 0,
            rating: None,
            elapsed: started.elapsed(),
        }
    }

    /// An invalid grid's outcome, naming its clashes (if any), without
    /// solving: for a puzzle with bad cells, whose clashes alone are known.
    pub fn invalid(puzzle: &Grid) -> Self {
        let started = Instant::now();
        let mut out = Outcome::new(Status::Invalid, puzzle.clone(), started);
        out.conflicts = puzzle.conflicts();
        out.elapsed = started.elapsed();
        out
    }

    fn with_solver(mut self, solver: Solver) -> Self {
        self.history = solver.board().history();
        self.grid = solver.board().grid().clone();
        self.steps = solver.into_steps();
        self
    }
}

/// Solves one puzzle: clashes first, then the exact search (count up to
/// two), then the technique ladder with guesses from the solution, so the
/// history shows how a person would get there. With
/// [`SolveOptions::logic_only`], the ladder alone.
pub fn solve(puzzle: &Grid, opts: &SolveOptions) -> Outcome {
    let started = Instant::now();
    let Some(mut solver) = Solver::with_ladder(puzzle, opts.techniques.clone()) else {
        return Outcome::invalid(puzzle);
    };
    // A timeout too large to add is no limit at all.
    let deadline = opts.timeout.and_then(|t| started.checked_add(t));
    solver.set_deadline(deadline);
    if opts.logic_only {
        return logic_only(puzzle, solver, started);
    }
    let search_opts = SearchOptions { limit: 2, deadline };
    let found = match search(puzzle, &search_opts) {
        Ok(found) => found,
        Err(SearchError::Timeout { guesses }) => {
            let mut out = Outcome::new(Status::Timeout, puzzle.clone(), started);
            out.search_guesses = guesses;
            return out;
        }
    };
    let status = match found.solutions.len() {
        0 => Status::Unsolvable,
        1 => Status::Solved,
        _ => Status::Multiple,
    };
    let mut out = Outcome::new(status, puzzle.clone(), started);
    out.search_guesses = found.guesses;
    out.unique = Some(found.solutions.len() == 1);
    if status == Status::Solved {
        let solution = &found.solutions[0];
        let mut solver = solver;
        // Proven unique: the uniqueness techniques are sound here (and only
        // here: logic-only runs never prove it, so never use them).
        solver.assume_unique();
        let whole = opts.techniques == Ladder::all();
        // The whole ladder's solver before its first step: Sudoku
        // Explainer's run by the ladder (grids other than 9x9) starts
        // from a copy instead of making the board again, and skips what
        // this run found nothing with. A 9x9 is rated by SE's own rules,
        // which need neither.
        let by_ladder = whole && !se_engine_rates(puzzle, true);
        let start = by_ladder.then(|| solver.clone());
        if by_ladder {
            solver.note_findings(None);
        }
        let stop = solver.run(Some(solution));
        if stop == Stop::Timeout {
            return Outcome::new(Status::Timeout, puzzle.clone(), started);
        }
        let findings = solver.take_findings();
        out = out.with_solver(solver);
        // The whole ladder's run up to its first guess is HoDoKu's run.
        let budget = Budget {
            deadline,
            se: opts.se_budget,
        };
        out.rating = if whole {
            rate_after_noted(puzzle, &out.steps, (findings, start), budget)
        } else {
            rate_unique_until(puzzle, budget)
        };
        if out.rating.is_none() {
            // The givens do not clash, so only the deadline stops a rating.
            return Outcome::new(Status::Timeout, puzzle.clone(), started);
        }
        if stop != Stop::Solved {
            // The ladder is sound, so this cannot happen on a proven unique
            // solution; keep the search's answer whatever the ladder did.
            out.grid = solution.clone();
        }
    }
    out.elapsed = started.elapsed();
    out
}

fn logic_only(puzzle: &Grid, mut solver: Solver, started: Instant) -> Outcome {
    let status = match solver.run(None) {
        Stop::Solved => Status::Solved,
        Stop::Stuck => Status::GaveUp,
        Stop::Contradiction => Status::Unsolvable,
        Stop::Timeout => Status::Timeout,
    };
    let mut out = Outcome::new(status, puzzle.clone(), started);
    if status == Status::GaveUp {
        out.candidates = (0..puzzle.cells().len())
            .map(|i| solver.board().candidates(i).bits())
            .collect();
    }
    let out = match status {
        Status::Unsolvable => out,
        _ => out.with_solver(solver),
    };
    Outcome {
        elapsed: started.elapsed(),
        ..out
    }
}

/// Candidate bits as the seed's letters: `a` = 1, `b` = 2 … `y` = 25, then
/// `z` and upper case for larger grids.
pub fn candidate_letters(mask: u64) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@$";
    (0..64)
        .filter(|b| mask & (1u64 << b) != 0)
        .map(|b| LETTERS[b] as char)
        .collect()
}

/// A duration as the note shows it: `0.84 ms`, `12.3 ms`, `1.52 s`.
pub fn format_elapsed(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else if ms < 1000.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{BEYOND, EASY};

    #[test]
    fn hard_puzzle_is_solved_with_guesses_in_history() {
        let p: Grid = BEYOND.parse().unwrap();
        let out = solve(&p, &SolveOptions::default());
        assert_eq!(out.status, Status::Solved);
        assert_eq!(out.unique, Some(true));
        assert!(out.grid.solves(&p));
        assert!(out.history.contains('#'), "{}", out.history);
        let rating = out.rating.expect("a unique puzzle is rated");
        assert!(!rating.complete && rating.level == crate::logic::Level::Extreme);
    }

    #[test]
    fn uniqueness_is_used_only_once_the_solution_is_proven_unique() {
        // Among singles, subsets and unique rectangles, a unique rectangle
        // finishes this one: solve (which proves the solution unique)
        // takes it; logic-only (which does not) stops. (Chains finish it
        // too, so they are left out.)
        let p: Grid =
            "..4.....8.5...........9.2.7....7..6...6....193..6..7.5....8.....4275....1...2..36"
                .parse()
                .unwrap();
        let techniques: Ladder = "i,!,2,3,4,*,^,&,u".parse().unwrap();
        let out = solve(
            &p,
            &SolveOptions {
                techniques: techniques.clone(),
                ..Default::default()
            },
        );
        assert_eq!(out.status, Status::Solved);
        assert!(
            out.history.contains('u') && !out.history.contains('#'),
            "{}",
            out.history
        );
        let only = solve(
            &p,
            &SolveOptions {
                logic_only: true,
                techniques,
                ..Default::default()
            },
        );
        assert_eq!(only.status, Status::GaveUp);
        assert!(!only.history.contains('u'), "{}", only.history);
        assert!(out.history.starts_with(&only.history));
    }

    #[test]
    fn logic_only_gives_up_and_keeps_candidates() {
        let p: Grid = BEYOND.parse().unwrap();
        let out = solve(
            &p,
            &SolveOptions {
                logic_only: true,
                ..Default::default()
            },
        );
        assert_eq!(out.status, Status::GaveUp);
        assert!(!out.history.contains('#'));
        let blanks: Vec<usize> = (0..81).filter(|&i| out.grid.cells()[i] == 0).collect();
        assert!(!blanks.is_empty());
        assert!(blanks.iter().all(|&i| out.candidates[i].count_ones() >= 2));
        // Deduced cells are kept and agree with the givens.
        assert!(out.grid.givens() > p.givens());
    }

    #[test]
    fn clash_is_invalid_and_named() {
        let mut p: Grid = EASY.parse().unwrap();
        p.set(3, 0, 8); // row 4 already has 8 at column 4
        let out = solve(&p, &SolveOptions::default());
        assert_eq!(out.status, Status::Invalid);
        assert!(!out.conflicts.is_empty());
    }

    #[test]
    fn too_few_givens_is_multiple() {
        let mut p: Grid = EASY.parse().unwrap();
        for c in 0..9 {
            p.set(0, c, 0);
            p.set(1, c, 0);
        }
        let out = solve(&p, &SolveOptions::default());
        assert_eq!(out.status, Status::Multiple);
        assert_eq!(out.unique, Some(false));
        assert_eq!(&out.grid, &p, "no fill for an ambiguous grid");
    }

    #[test]
    fn unsolvable_without_clash() {
        // No clash, but r1c9 can hold nothing: 1-8 in its row, 9 in its column.
        let mut p = Grid::empty(crate::grid::BoxShape::new(3, 3).unwrap());
        for c in 0..8 {
            p.set(0, c, c as u8 + 1);
        }
        p.set(5, 8, 9);
        assert!(p.conflicts().is_empty());
        let out = solve(&p, &SolveOptions::default());
        assert_eq!(out.status, Status::Unsolvable);
        let logic = solve(
            &p,
            &SolveOptions {
                logic_only: true,
                ..Default::default()
            },
        );
        assert_eq!(logic.status, Status::Unsolvable);
    }

    #[test]
    fn letters_and_times() {
        assert_eq!(candidate_letters(0b1_0000_0101), "aci");
        assert_eq!(format_elapsed(Duration::from_micros(840)), "0.84 ms");
        assert_eq!(format_elapsed(Duration::from_millis(1520)), "1.52 s");
    }
}
