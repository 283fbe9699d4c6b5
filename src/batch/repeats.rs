//! Grids a run meets more than once: a folder that repeats a puzzle (a
//! class set, a book and its answer copy, the same grid on two sheets) has
//! it solved and rated once, and every repeat gets that outcome.
//!
//! The outcome of [`solve`] depends only on the puzzle and the options,
//! which are the same for the whole run; only its wall time (and what a
//! time limit cuts short) depends on the moment. A repeat reports the
//! time the puzzle took when it was solved. An outcome cut short by a
//! limit ([`Status::Timeout`]) is not kept: a repeat gets its own try.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::grid::Grid;
use crate::solve::{solve, Outcome, SolveOptions, Status};

/// At most this many outcomes are kept, and at most [`KEPT_BYTES`] of
/// them: past either, a new grid is solved and not kept, so that a very
/// large run holds a bounded memory.
pub const KEPT: usize = 2048;

/// The memory the kept outcomes may take, about (see [`footprint`]).
pub const KEPT_BYTES: usize = 16 << 20;

/// About the memory an outcome takes: itself, its grids, history and
/// steps with what they hold.
fn footprint(o: &Outcome) -> usize {
    use std::mem::size_of;
    let step = |s: &crate::logic::Step| {
        size_of::<crate::logic::Step>()
            + s.digits.len()
            + s.cells.len() * size_of::<usize>()
            + s.eliminated.len() * size_of::<(usize, u8)>()
            + s.chains
                .iter()
                .flatten()
                .map(|n| size_of::<crate::logic::ChainNode>() + n.cells.len() * size_of::<usize>())
                .sum::<usize>()
    };
    size_of::<Outcome>()
        + 2 * o.grid.cells().len()
        + o.candidates.len() * size_of::<u64>()
        + o.history.len()
        + o.steps.iter().map(step).sum::<usize>()
}

/// Outcomes a run keeps by puzzle ([`RunOptions::repeats`](super::RunOptions)).
/// Clones share one store, so the files and grids a run solves in
/// parallel share it too.
///
/// ```
/// use xlsudoku::batch::Repeats;
/// use xlsudoku::grid::Grid;
/// use xlsudoku::solve::{SolveOptions, Status};
///
/// let p: Grid =
///     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
///         .parse()?;
/// let repeats = Repeats::default();
/// let first = repeats.solve(&p, &SolveOptions::default());
/// let again = repeats.clone().solve(&p, &SolveOptions::default());
/// assert_eq!(first.status, Status::Solved);
/// assert_eq!((again.history, again.elapsed), (first.history, first.elapsed));
/// assert_eq!(repeats.len(), 1);
/// # Ok::<(), xlsudoku::grid::GridError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Repeats(Arc<Mutex<Store>>);

/// The outcomes kept, and about how much memory they take.
#[derive(Debug)]
struct Store {
    kept: HashMap<Grid, Arc<Outcome>>,
    bytes: usize,
    /// The memory they may take ([`KEPT_BYTES`]).
    room: usize,
    /// The options they were solved with (the first call's).
    opts: Option<SolveOptions>,
}

impl Default for Store {
    fn default() -> Store {
        Store {
            kept: HashMap::new(),
            bytes: 0,
            room: KEPT_BYTES,
            opts: None,
        }
    }
}

impl Repeats {
    /// [`solve`]`(puzzle, opts)`, or the outcome kept from an earlier call
    /// with the same puzzle. The store holds the outcomes of one set of
    /// options (a run's: the first call's); a call with others is solved
    /// and not kept.
    pub fn solve(&self, puzzle: &Grid, opts: &SolveOptions) -> Outcome {
        {
            let store = self.lock();
            if store.opts.as_ref().is_some_and(|o| o != opts) {
                drop(store);
                return solve(puzzle, opts);
            }
            if let Some(kept) = store.kept.get(puzzle) {
                return Outcome::clone(kept);
            }
        }
        // Solved without the lock: grids of other threads go on. Two
        // threads meeting the same new puzzle both solve it.
        let outcome = solve(puzzle, opts);
        if outcome.status != Status::Timeout {
            let bytes = footprint(&outcome) + puzzle.cells().len();
            let mut store = self.lock();
            if store.opts.is_none() {
                store.opts = Some(opts.clone());
            }
            if store.opts.as_ref() == Some(opts)
                && store.kept.len() < KEPT
                && store.bytes + bytes <= store.room
                && !store.kept.contains_key(puzzle)
            {
                store.bytes += bytes;
                store.kept.insert(puzzle.clone(), Arc::new(outcome.clone()));
            }
        }
        outcome
    }

    /// How many outcomes are kept.
    pub fn len(&self) -> usize {
        self.lock().kept.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The store; a thread that panicked holding it left it whole (an
    /// insert is one call), so a poisoned lock is taken as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    /// A repeat gets the first outcome, wall time included, without
    /// solving again; another puzzle is solved on its own.
    #[test]
    fn a_repeat_gets_the_first_outcome() {
        let p: Grid = HARD.parse().expect("81 digits");
        let repeats = Repeats::default();
        let opts = SolveOptions::default();
        let first = repeats.solve(&p, &opts);
        let again = repeats.solve(&p, &opts);
        assert_eq!(again.status, Status::Solved);
        assert_eq!(again.elapsed, first.elapsed, "not solved again");
        assert_eq!(again.grid, first.grid);
        assert_eq!(again.rating, first.rating);
        let mut q: Grid = SOLVED.parse().expect("81 digits");
        q.set(0, 0, 0);
        let third = repeats.solve(&q, &opts);
        assert_eq!(third.status, Status::Solved);
        assert_eq!(third.grid, SOLVED.parse().expect("81 digits"));
        assert_eq!(repeats.len(), 2);
    }

    /// Other options than the store's: solved with them, not kept, and
    /// the store's outcome is not given.
    #[test]
    fn other_options_are_solved_on_their_own() {
        let p: Grid = HARD.parse().expect("81 digits");
        let repeats = Repeats::default();
        let whole = repeats.solve(&p, &SolveOptions::default());
        let logic = SolveOptions {
            techniques: crate::logic::Ladder::seed(),
            logic_only: true,
            ..SolveOptions::default()
        };
        let other = repeats.solve(&p, &logic);
        assert_ne!(other.status, whole.status);
        assert_eq!(other.status, solve(&p, &logic).status);
        assert_eq!(repeats.len(), 1);
    }

    /// An outcome a time limit cut short is not kept.
    #[test]
    fn a_timeout_is_not_kept() {
        let p: Grid = HARD.parse().expect("81 digits");
        let repeats = Repeats::default();
        let opts = SolveOptions {
            timeout: Some(Duration::ZERO),
            ..SolveOptions::default()
        };
        assert_eq!(repeats.solve(&p, &opts).status, Status::Timeout);
        assert!(repeats.is_empty());
    }

    /// Past [`KEPT`] outcomes, new grids are solved but not kept.
    #[test]
    fn the_store_is_bounded() {
        let repeats = Repeats::default();
        let opts = SolveOptions::default();
        let mut solved = 0;
        for i in 0..KEPT + 3 {
            // Distinct easy grids: a solution with one or two cells blank.
            let mut g: Grid = SOLVED.parse().expect("81 digits");
            for cell in [i % 81, 40 + i / 81] {
                g.set(cell / 9, cell % 9, 0);
            }
            if repeats.solve(&g, &opts).status == Status::Solved {
                solved += 1;
            }
        }
        assert_eq!(solved, KEPT + 3);
        assert!(repeats.len() <= KEPT);
    }

    /// The kept outcomes stay within the store's memory: with room for
    /// two and a half, two of five distinct grids are kept, and the
    /// others are still solved.
    #[test]
    fn the_store_is_bounded_in_memory() {
        let opts = SolveOptions::default();
        let grids: Vec<Grid> = (0..5)
            .map(|i| {
                let mut g: Grid = SOLVED.parse().expect("81 digits");
                for cell in (i..81).step_by(4) {
                    g.set(cell / 9, cell % 9, 0);
                }
                g
            })
            .collect();
        let each: Vec<usize> = grids
            .iter()
            .map(|g| footprint(&solve(g, &opts)) + g.cells().len())
            .collect();
        let room = each[0] + each[1] + each[2] / 2;
        let repeats = Repeats(Arc::new(Mutex::new(Store {
            room,
            ..Store::default()
        })));
        for g in &grids {
            assert_eq!(repeats.solve(g, &opts).status, Status::Solved);
        }
        assert_eq!(repeats.len(), 2);
        assert!(repeats.lock().bytes <= room);
    }

    const SOLVED: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
}
