//! The exact solver: finds solutions of a grid of any box shape and proves
//! (or disproves) uniqueness.
//!
//! [`search`] is the entry point ([`search_into`] the same search for
//! callers that run many and keep the solutions in one buffer;
//! [`search_generic`] and [`search_clauses`] the other engines on any
//! grid, to check one against another). It sends
//! standard 9x9 grids (3x3 boxes) to a specialised band bitboard solver and
//! every other shape, up to 64x64, to a generic candidate-mask engine, which
//! hands the rare grid that needs more than a few hundred guesses to a
//! clause-learning SAT solver (CaDiCaL). All stop after
//! [`SearchOptions::limit`] solutions and honour an optional deadline.
//!
//! ```
//! use xlsudoku::grid::Grid;
//! use xlsudoku::search::{search, SearchOptions};
//!
//! let puzzle: Grid =
//!     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!         .parse()?;
//! let outcome = search(&puzzle, &SearchOptions::default())?;
//! assert_eq!(outcome.solutions.len(), 1, "exactly one solution");
//! assert!(outcome.solutions[0].solves(&puzzle));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod generic;
mod geometry;
mod nine;
mod sat;

use std::cell::RefCell;
use std::time::Instant;

use crate::grid::{BoxShape, Grid, PerShape};

/// How far to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Stop after this many solutions: 1 finds the first, 2 proves
    /// uniqueness (a second solution disproves it). 0 is read as 1.
    pub limit: usize,
    /// Give up with [`SearchError::Timeout`] once this instant has passed
    /// (checked every few dozen guesses).
    pub deadline: Option<Instant>,
}

impl Default for SearchOptions {
    /// Limit 2 (prove uniqueness), no deadline.
    fn default() -> Self {
        SearchOptions {
            limit: 2,
            deadline: None,
        }
    }
}

/// What a finished search found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchOutcome {
    /// Up to [`SearchOptions::limit`] solutions, in the order found. Empty
    /// when the puzzle has no solution (including clashing givens).
    pub solutions: Vec<Grid>,
    /// How many guesses (branching decisions) the search made; a search
    /// handed to the SAT solver counts those made before the hand-over.
    pub guesses: u64,
    /// Whether the SAT solver settled the grid: a large grid whose search
    /// met its budget of dead ends (never a grid with 3x3 boxes, which the
    /// 9x9 engine settles alone).
    pub handed_over: bool,
}

/// What [`search_into`] found: the solutions themselves are in the
/// caller's buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Found {
    /// How many solutions were appended: at most [`SearchOptions::limit`]
    /// (0 read as 1).
    pub count: usize,
    /// How many guesses the search made, as in [`SearchOutcome::guesses`].
    pub guesses: u64,
    /// As [`SearchOutcome::handed_over`].
    pub handed_over: bool,
}

/// Why a search stopped without an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The deadline passed before the search finished.
    #[error("search timed out after {guesses} guesses")]
    Timeout {
        /// Guesses made before giving up.
        guesses: u64,
    },
}

thread_local! {
    /// Geometry of the last generic shapes searched on this thread, so that
    /// a run over many puzzles of a few shapes builds each once.
    static GEOMETRY: RefCell<PerShape<geometry::Geometry>> = const { RefCell::new(PerShape::new()) };
}

/// The instruction set the 9x9 engine picked for this processor, detected
/// once per process: `"bmi2+pext"` (BMI1/BMI2, `popcnt`, `lzcnt`, and a
/// `pext` that runs in hardware), `"bmi2"` (the same extensions, `pext`
/// left alone) or `"baseline"` (plain x86-64, or another architecture).
/// Every level gives the same answers; only the speed differs.
///
/// ```
/// let isa = xlsudoku::search::engine_isa_name();
/// assert!(["baseline", "bmi2", "bmi2+pext"].contains(&isa));
/// ```
pub fn engine_isa_name() -> &'static str {
    nine::isa_name()
}

/// Solves `puzzle`, returning up to `opts.limit` solutions.
///
/// Clashing givens give `Ok` with no solutions. Never panics, whatever the
/// grid. Errors only when `opts.deadline` passes first.
pub fn search(puzzle: &Grid, opts: &SearchOptions) -> Result<SearchOutcome, SearchError> {
    if !is_nine(puzzle) {
        return with_generic_engine(puzzle, |engine| engine.search(puzzle, opts));
    }
    let mut cells = Vec::with_capacity(opts.limit.clamp(1, 2) * 81);
    let found = nine::search_into(puzzle.cells(), opts, &mut cells)?;
    let solutions = cells
        .chunks_exact(81)
        .map(|digits| {
            let mut grid = puzzle.clone();
            grid.fill_from(digits);
            grid
        })
        .collect();
    Ok(SearchOutcome {
        solutions,
        guesses: found.guesses,
        handed_over: found.handed_over,
    })
}

/// [`search`] for callers that run many searches (a benchmark, a
/// generator): appends each solution's cells (row-major, as
/// [`Grid::cells`]) to `out` instead of building grids, so that a search of
/// a 9x9 grid allocates nothing once `out` has room. On an error `out` is
/// left as it was.
///
/// ```
/// use xlsudoku::grid::Grid;
/// use xlsudoku::search::{search_into, SearchOptions};
///
/// let puzzle: Grid =
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
///         .parse()?;
/// let mut out = Vec::new();
/// let found = search_into(&puzzle, &SearchOptions::default(), &mut out)?;
/// assert_eq!(found.count, 1, "exactly one solution");
/// assert_eq!(out.len(), 81);
/// assert_eq!(&out[..3], &[4, 1, 7]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn search_into(
    puzzle: &Grid,
    opts: &SearchOptions,
    out: &mut Vec<u8>,
) -> Result<Found, SearchError> {
    if is_nine(puzzle) {
        let start = out.len();
        let result = nine::search_into(puzzle.cells(), opts, out);
        if result.is_err() {
            out.truncate(start);
        }
        return result;
    }
    // The generic engine builds its outcome first: `out` is touched only
    // on success.
    with_generic_engine(puzzle, |engine| engine.search(puzzle, opts))
        .map(|outcome| flatten(outcome, out))
}

/// Whether the 9x9 engine takes the grid (3x3 boxes).
fn is_nine(puzzle: &Grid) -> bool {
    let shape = puzzle.shape();
    shape.width() == 3 && shape.height() == 3
}

/// Runs `f` with the generic engine for the puzzle's shape, over the
/// geometry cached for this thread.
fn with_generic_engine<T>(puzzle: &Grid, f: impl FnOnce(&mut generic::Engine<'_>) -> T) -> T {
    let shape = puzzle.shape();
    GEOMETRY.with(|slot| {
        let mut slot = slot.borrow_mut();
        let geo = slot.get_or_make(shape, || {
            geometry::Geometry::new(shape.width(), shape.height())
        });
        f(&mut generic_engine(geo, shape))
    })
}

/// Appends an outcome's solutions to `out`.
fn flatten(outcome: SearchOutcome, out: &mut Vec<u8>) -> Found {
    for grid in &outcome.solutions {
        out.extend_from_slice(grid.cells());
    }
    Found {
        count: outcome.solutions.len(),
        guesses: outcome.guesses,
        handed_over: outcome.handed_over,
    }
}

/// Solves any shape with the generic engine, the 9x9 fast path bypassed:
/// the second opinion on [`search`]'s 9x9 answers (the property tests
/// compare the two on every puzzle they make). Same options, same outcome
/// as [`search`] on any grid, slower on 9x9.
///
/// ```
/// use xlsudoku::grid::Grid;
/// use xlsudoku::search::{search, search_generic, SearchOptions};
///
/// let puzzle: Grid =
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
///         .parse()?;
/// let opts = SearchOptions::default();
/// assert_eq!(search_generic(&puzzle, &opts)?.solutions, search(&puzzle, &opts)?.solutions);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn search_generic(puzzle: &Grid, opts: &SearchOptions) -> Result<SearchOutcome, SearchError> {
    let geo = geometry::Geometry::new(puzzle.shape().width(), puzzle.shape().height());
    generic_engine(&geo, puzzle.shape()).search(puzzle, opts)
}

/// Solves any shape (9x9 included) with the generic engine handing the
/// puzzle to the SAT solver as soon as it needs a guess (after the root
/// propagation), whatever the limit: the clause-learning path, which
/// [`search`] takes only for the rare grid that needs hundreds of
/// guesses, on any grid, to check it against the others.
///
/// ```
/// use xlsudoku::grid::Grid;
/// use xlsudoku::search::{search, search_clauses, SearchOptions};
///
/// let puzzle: Grid =
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
///         .parse()?;
/// let opts = SearchOptions::default();
/// let by_clauses = search_clauses(&puzzle, &opts)?;
/// assert_eq!(by_clauses.solutions, search(&puzzle, &opts)?.solutions);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn search_clauses(puzzle: &Grid, opts: &SearchOptions) -> Result<SearchOutcome, SearchError> {
    let geo = geometry::Geometry::new(puzzle.shape().width(), puzzle.shape().height());
    generic_engine(&geo, puzzle.shape())
        .with_sat_at_once()
        .search(puzzle, opts)
}

/// The generic engine for `shape` over its geometry: the all-different
/// matching propagation from side 16 up (it costs more per node than it
/// saves on small grids and pays on large ones).
fn generic_engine(geo: &geometry::Geometry, shape: BoxShape) -> generic::Engine<'_> {
    generic::Engine::new(geo, shape.side() >= 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_options_prove_uniqueness_without_deadline() {
        let opts = SearchOptions::default();
        assert_eq!((opts.limit, opts.deadline), (2, None));
    }

    #[test]
    fn shapes_can_alternate_on_one_thread() {
        // The cached geometry must follow the shape of each puzzle.
        for shape in [(3, 2), (2, 3), (3, 2), (4, 4), (9, 1), (3, 3)] {
            let shape = BoxShape::new(shape.0, shape.1).expect("shape");
            let empty = Grid::empty(shape);
            let outcome = search(&empty, &SearchOptions::default()).expect("no deadline");
            assert_eq!(outcome.solutions.len(), 2, "{shape}");
            assert!(outcome.solutions.iter().all(|s| s.solves(&empty)));
        }
    }

    #[test]
    fn search_into_appends_after_what_the_buffer_held() {
        for shape in [(3, 3), (3, 2), (4, 4)] {
            let shape = BoxShape::new(shape.0, shape.1).expect("shape");
            let empty = Grid::empty(shape);
            let mut out = vec![7u8; 5];
            let found = search_into(&empty, &SearchOptions::default(), &mut out).expect("found");
            let size = empty.cells().len();
            assert_eq!((found.count, out.len()), (2, 5 + 2 * size), "{shape}");
            assert_eq!(out[..5], [7; 5]);
            let (first, second) = out[5..].split_at(size);
            assert_ne!(first, second);
            // The same solutions as `search`, in the same order.
            let outcome = search(&empty, &SearchOptions::default()).expect("found");
            assert_eq!(outcome.solutions[0].cells(), first, "{shape}");
            assert_eq!(outcome.solutions[1].cells(), second, "{shape}");
        }
    }

    #[test]
    fn search_into_leaves_the_buffer_as_it_was_on_a_timeout() {
        // All solutions of an empty grid: the past deadline stops the search
        // after some solutions were appended.
        let past = SearchOptions {
            limit: usize::MAX,
            deadline: Some(Instant::now()),
        };
        for shape in [(3, 3), (4, 4)] {
            let empty = Grid::empty(BoxShape::new(shape.0, shape.1).expect("shape"));
            let mut out = vec![1, 2, 3];
            assert!(search_into(&empty, &past, &mut out).is_err());
            assert_eq!(out, [1, 2, 3]);
        }
    }

    #[test]
    fn timeout_reports_its_guesses() {
        let err = SearchError::Timeout { guesses: 7 };
        assert_eq!(err.to_string(), "search timed out after 7 guesses");
    }
}
