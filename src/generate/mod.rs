//! New puzzles: random complete grids of any box shape ([`fill`]), givens
//! taken away while the puzzle stays provably unique ([`dig`](mod@dig)),
//! each puzzle rated (SE's own rules on a 9x9, the ladder for HoDoKu's
//! level and beyond 9x9) and kept only inside the
//! level, rating, givens and techniques asked for ([`target`]); [`book`]
//! writes the set as a print-ready workbook or as text.
//!
//! A set is reproducible: puzzle `i` draws only from its own random stream
//! ([`Rng::for_puzzle`] of the master seed and `i`), and the attempts for
//! one puzzle are made in order on one thread, so the same seed and options
//! give the same puzzles on every machine and for any number of threads.
//!
//! ```
//! use xlsudoku::generate::{generate, GenerateOptions};
//! use xlsudoku::grid::BoxShape;
//! use xlsudoku::logic::Level;
//!
//! let mut opts = GenerateOptions::new(BoxShape::new(3, 3)?, 2, 7);
//! opts.target.limits.max_level = Some(Level::Easy);
//! let set = generate(&opts, |_| {})?;
//! assert_eq!(set.len(), 2);
//! assert!(set.iter().all(|g| g.rating.level == Level::Easy));
//! assert_eq!(set, generate(&opts, |_| {})?, "the same seed, the same set");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod book;
pub mod dig;
pub mod fill;
pub mod needs;
pub mod rng;
pub mod sections;
pub mod target;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use dig::{dig, dig_from, neighbour, Prover, Symmetry};
pub use fill::random_solution;
pub use needs::Needs;
pub use rng::Rng;
pub use sections::{Levels, Section};
pub use target::{Hardness, Span, Target, Verdict};

use crate::grid::{BoxShape, Grid};
use crate::logic::{Ladder, Rating, Technique};
use crate::search::{SearchError, SearchOptions};

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateOptions {
    /// The box shape (the side is its width times its height).
    pub shape: BoxShape,
    /// How many puzzles.
    pub count: usize,
    /// The master seed: puzzle `i` comes from ([`Rng::for_puzzle`]) this
    /// seed and `i`.
    pub seed: u64,
    /// Which puzzles are kept.
    pub target: Target,
    /// The pattern the givens follow.
    pub symmetry: Symmetry,
    /// Attempts (a puzzle dug and judged) per puzzle before giving up
    /// with [`GenerateError::Unreached`].
    pub max_attempts: u64,
    /// Give up with [`GenerateError::Timeout`] once this instant passes.
    pub deadline: Option<Instant>,
    /// Threads; 0 for one per core.
    pub jobs: usize,
}

impl GenerateOptions {
    /// `count` puzzles of this shape from `seed`: any level, no symmetry,
    /// [`default_attempts`] attempts each, no deadline, a thread per core.
    pub fn new(shape: BoxShape, count: usize, seed: u64) -> GenerateOptions {
        GenerateOptions {
            shape,
            count,
            seed,
            target: Target::default(),
            symmetry: Symmetry::None,
            max_attempts: default_attempts(shape),
            deadline: None,
            jobs: 0,
        }
    }
}

/// The attempts per puzzle allowed unless asked otherwise: 10,000 up to
/// 9x9 (well under a minute at 9x9, a fraction of a second at 4x4), 1,000
/// up to 16x16, 100 beyond (an attempt at 25x25 takes about a second).
pub fn default_attempts(shape: BoxShape) -> u64 {
    match shape.side() {
        0..=9 => 10_000,
        10..=16 => 1_000,
        _ => 100,
    }
}

/// One generated puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// Its place in the set, from 0.
    pub index: usize,
    /// The puzzle: exactly one solution, proven by the exact solver.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Its rating ([`crate::logic::rate`]).
    pub rating: Rating,
    /// How many attempts it took (1 when the first was kept).
    pub attempts: u64,
}

/// Why a set was not made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// The request can never be met (before any attempt was made).
    #[error("{0}")]
    Impossible(String),
    /// A puzzle took every attempt allowed without meeting the target.
    #[error("no {target} puzzle found in {attempts} attempts (puzzle {number}); the target may be out of reach for this size: widen it, or allow more with --max-attempts")]
    Unreached {
        /// The puzzle's number, from 1.
        number: usize,
        /// Puzzles made before it (handed over by [`generate_each`]).
        made: usize,
        /// The attempts made.
        attempts: u64,
        /// The target in words.
        target: String,
    },
    /// The deadline passed first.
    #[error("timed out with {made} of {count} {target} puzzles made{}", if *targeted { "; the target may be rare or out of reach for this size" } else { "" })]
    Timeout {
        /// Puzzles finished, in order from the first.
        made: usize,
        /// Puzzles asked for.
        count: usize,
        /// The target in words.
        target: String,
        /// Whether a target (level, rating, givens, techniques) was asked
        /// for: only then may it be to blame.
        targeted: bool,
    },
    /// The thread pool could not be built.
    #[error("cannot start {jobs} threads: {why}")]
    Threads {
        /// Threads asked for.
        jobs: usize,
        /// The pool's error.
        why: String,
    },
}

impl GenerateError {
    /// The puzzles made, in order from the first, before the set stopped
    /// (0 for an error that stops it before any attempt).
    pub fn made(&self) -> usize {
        match self {
            GenerateError::Unreached { made, .. } | GenerateError::Timeout { made, .. } => *made,
            _ => 0,
        }
    }

    /// The error of a section that comes after `before` puzzles of a set
    /// of `total`: its counts and numbers as the whole set's.
    pub fn in_set(self, before: usize, total: usize) -> GenerateError {
        match self {
            GenerateError::Unreached {
                number,
                made,
                attempts,
                target,
            } => GenerateError::Unreached {
                number: number + before,
                made: made + before,
                attempts,
                target,
            },
            GenerateError::Timeout {
                made,
                target,
                targeted,
                ..
            } => GenerateError::Timeout {
                made: made + before,
                count: total,
                target,
                targeted,
            },
            e => e,
        }
    }
}

/// How one puzzle's attempts ended short of a puzzle.
enum Stopped {
    /// Every attempt made, none kept.
    Exhausted(u64),
    /// The deadline passed.
    Timeout,
    /// Another puzzle failed: the set is abandoned.
    Cancelled,
}

/// Neighbours tried from one complete grid, while climbing towards a
/// target that is harder than the first puzzle dug from it, before a new
/// grid is drawn.
const CLIMB: u64 = 30;

/// Makes puzzle `index` of the set: attempts drawn from its own stream
/// until one meets the target. An attempt is one puzzle dug and judged:
/// a new grid dug to a minimal puzzle, or (when the target asks for harder
/// puzzles than that one) a neighbour of the hardest puzzle so far from
/// the same grid, two orbits of givens put back and the puzzle dug again,
/// kept when at least as hard (a hill climb on the rating).
fn generate_one(
    opts: &GenerateOptions,
    index: usize,
    cancel: &AtomicBool,
) -> Result<Generated, Stopped> {
    let mut rng = Rng::for_puzzle(opts.seed, index as u64);
    let floor = opts.target.givens.min.unwrap_or(0);
    let timeout = |_: SearchError| Stopped::Timeout;
    let climbs = opts.target.wants_harder();
    let prover = prover_for(opts);
    let mut attempt = 0u64;
    let stop = |attempt: u64| -> Option<Stopped> {
        if cancel.load(Ordering::Relaxed) {
            return Some(Stopped::Cancelled);
        }
        if opts.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Stopped::Timeout);
        }
        (attempt >= opts.max_attempts).then_some(Stopped::Exhausted(opts.max_attempts))
    };
    loop {
        if let Some(why) = stop(attempt) {
            return Err(why);
        }
        attempt += 1;
        let solution = random_solution(opts.shape, &mut rng, opts.deadline).map_err(timeout)?;
        let mut current = dig_from(
            solution.clone(),
            &solution,
            opts.symmetry,
            floor,
            &prover,
            &mut rng,
            opts.deadline,
        )
        .map_err(timeout)?;
        let mut best = match judge(opts, &prover, &current)? {
            Verdict::Keep(rating) => {
                return Ok(Generated {
                    index,
                    puzzle: current,
                    solution,
                    rating,
                    attempts: attempt,
                })
            }
            Verdict::TooEasy(h) if climbs => h,
            _ => continue,
        };
        for _ in 0..CLIMB {
            if let Some(why) = stop(attempt) {
                return Err(why);
            }
            attempt += 1;
            let next = neighbour(
                &current,
                &solution,
                opts.symmetry,
                2,
                floor,
                &prover,
                &mut rng,
                opts.deadline,
            )
            .map_err(timeout)?;
            match judge(opts, &prover, &next)? {
                Verdict::Keep(rating) => {
                    return Ok(Generated {
                        index,
                        puzzle: next,
                        solution,
                        rating,
                        attempts: attempt,
                    })
                }
                Verdict::TooEasy(h) if h >= best => {
                    best = h;
                    current = next;
                }
                _ => {}
            }
        }
    }
}

/// How digging proves uniqueness: exactly up to 12x12 (minimal puzzles);
/// from 16x16 up, by the ladder (`--techniques`), as the exact solver can
/// spend seconds proving a sparse large puzzle unique and the book-grade
/// large puzzles asked for are finished by the ladder. With every
/// technique (the default), digging goes without the chains, almost
/// locked sets and forcing chains and nets: on a 16x16 or 25x25 their
/// searches, run for every given tried, cost a hundred times the rest,
/// and a puzzle the other techniques finish is finished by the whole
/// ladder too.
pub fn prover_for(opts: &GenerateOptions) -> Prover {
    if opts.shape.side() < 16 {
        return Prover::Exact;
    }
    let ladder = opts.target.ladder.clone().unwrap_or_default();
    if ladder != Ladder::all() {
        return Prover::Ladder(ladder);
    }
    let light: Vec<Technique> = ladder.techniques().filter(|t| !HEAVY.contains(t)).collect();
    Prover::Ladder(Ladder::of(&light))
}

/// The techniques digging a large grid leaves out (see [`prover_for`]).
const HEAVY: [Technique; 9] = [
    Technique::XChain,
    Technique::XyChain,
    Technique::NiceLoop,
    Technique::GroupedNiceLoop,
    Technique::AlsXz,
    Technique::AlsXyWing,
    Technique::AlsChain,
    Technique::ForcingChain,
    Technique::ForcingNet,
];

/// The target's verdict on a dug puzzle; one dug by the ladder is first
/// proven unique by the exact solver (a technique that assumes uniqueness
/// would otherwise vouch for a puzzle that lacks it).
fn judge(opts: &GenerateOptions, prover: &Prover, puzzle: &Grid) -> Result<Verdict, Stopped> {
    if *prover != Prover::Exact {
        let search = SearchOptions {
            limit: 2,
            deadline: opts.deadline,
        };
        let found = crate::search::search(puzzle, &search).map_err(|_| Stopped::Timeout)?;
        if found.solutions.len() != 1 {
            return Ok(Verdict::Out);
        }
    }
    Ok(opts.target.judge(puzzle))
}

/// Generates the set: `opts.count` puzzles in order, made in parallel on
/// `opts.jobs` threads; `done` is called (on the calling thread, in order)
/// as each is made. The set is the same for every number of threads.
pub fn generate(
    opts: &GenerateOptions,
    done: impl Fn(&Generated) + Sync,
) -> Result<Vec<Generated>, GenerateError> {
    let mut set = Vec::with_capacity(opts.count.min(1 << 16));
    generate_each(opts, |g| {
        done(&g);
        set.push(g);
        ControlFlow::Continue(())
    })?;
    Ok(set)
}

/// Puzzles made ahead of the first one not yet handed over, per thread: a
/// bounded window, so that a set of any size holds only a few hundred
/// puzzles at a time.
const WINDOW_PER_THREAD: usize = 256;

/// Generates the set as [`generate`] does, handing each puzzle to `emit`
/// (on the calling thread) as soon as it and every puzzle before it are
/// made: only a window of puzzles is held, whatever the count. When the
/// set cannot be finished, the puzzles before the first one missing have
/// been handed over, and the error says how many ([`GenerateError::made`]).
/// `emit` returning `Break` ends the set early (`Ok`).
pub fn generate_each(
    opts: &GenerateOptions,
    mut emit: impl FnMut(Generated) -> ControlFlow<()>,
) -> Result<(), GenerateError> {
    use std::collections::BTreeMap;
    use std::sync::atomic::AtomicUsize;
    use std::sync::{Condvar, Mutex};
    opts.target.check_reachable(opts.shape, opts.symmetry)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs)
        .build()
        .map_err(|e| GenerateError::Threads {
            jobs: opts.jobs,
            why: e.to_string(),
        })?;
    let threads = pool.current_num_threads().max(1);
    let window = WINDOW_PER_THREAD * threads;
    let cancel = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    // Puzzles handed over so far; a worker waits while its puzzle is a
    // window or more ahead of it.
    let handed = (Mutex::new(0usize), Condvar::new());
    let stop_all = || {
        cancel.store(true, Ordering::Relaxed);
        let _guard = handed.0.lock();
        handed.1.notify_all();
    };
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Generated, Stopped>)>();
    let mut made = 0usize;
    let mut failure: Option<Stopped> = None;
    let mut broke = false;
    std::thread::scope(|scope| {
        let (cancel, next, handed, stop_all) = (&cancel, &next, &handed, &stop_all);
        scope.spawn(move || {
            pool.scope(|s| {
                for _ in 0..threads {
                    let tx = tx.clone();
                    s.spawn(move |_| loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= opts.count || cancel.load(Ordering::Relaxed) {
                            return;
                        }
                        {
                            let mut n = handed.0.lock().unwrap_or_else(|e| e.into_inner());
                            while i >= *n + window && !cancel.load(Ordering::Relaxed) {
                                n = handed.1.wait(n).unwrap_or_else(|e| e.into_inner());
                            }
                        }
                        if cancel.load(Ordering::Relaxed) {
                            return;
                        }
                        let r = generate_one(opts, i, cancel);
                        if r.is_err() {
                            stop_all();
                        }
                        if tx.send((i, r)).is_err() {
                            return;
                        }
                    });
                }
            });
            drop(tx);
        });
        let mut pending: BTreeMap<usize, Result<Generated, Stopped>> = BTreeMap::new();
        for (i, r) in rx {
            pending.insert(i, r);
            while failure.is_none() && !broke {
                match pending.remove(&made) {
                    Some(Ok(g)) => {
                        made += 1;
                        *handed.0.lock().unwrap_or_else(|e| e.into_inner()) = made;
                        handed.1.notify_all();
                        broke = emit(g).is_break();
                        if broke {
                            stop_all();
                        }
                    }
                    Some(Err(why)) => failure = Some(why),
                    None => break,
                }
            }
        }
        // The first failure in set order that is not a cancellation names
        // what went wrong.
        if let Some(Stopped::Cancelled) = failure {
            failure = pending
                .into_values()
                .filter_map(Result::err)
                .find(|w| !matches!(w, Stopped::Cancelled))
                .or(failure.take());
        }
    });
    if broke {
        return Ok(());
    }
    let target = opts.target.describe(opts.shape, opts.symmetry);
    match failure {
        Some(Stopped::Exhausted(attempts)) => Err(GenerateError::Unreached {
            number: made + 1,
            made,
            attempts,
            target,
        }),
        Some(_) => Err(GenerateError::Timeout {
            made,
            count: opts.count,
            target,
            targeted: opts.target != Target::default(),
        }),
        None if made < opts.count => Err(GenerateError::Timeout {
            made,
            count: opts.count,
            target,
            targeted: opts.target != Target::default(),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Level;

    fn nine() -> BoxShape {
        BoxShape::new(3, 3).expect("shape")
    }

    #[test]
    fn sets_are_the_same_for_any_thread_count() {
        let mut opts = GenerateOptions::new(nine(), 6, 99);
        opts.jobs = 1;
        let one = generate(&opts, |_| {}).expect("set");
        opts.jobs = 3;
        let three = generate(&opts, |_| {}).expect("set");
        assert_eq!(one, three);
        assert_eq!(
            one.iter().map(|g| g.index).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5]
        );
        opts.seed = 100;
        assert_ne!(generate(&opts, |_| {}).expect("set"), one);
    }

    #[test]
    fn every_puzzle_meets_its_target() {
        let mut opts = GenerateOptions::new(nine(), 3, 5);
        opts.target.limits.min_level = Some(Level::Medium);
        opts.target.limits.max_level = Some(Level::Medium);
        opts.symmetry = Symmetry::Rotational;
        for g in generate(&opts, |_| {}).expect("set") {
            assert_eq!(g.rating.level, Level::Medium);
            assert!(Symmetry::Rotational.holds(&g.puzzle));
            assert!(g.solution.solves(&g.puzzle));
        }
    }

    #[test]
    fn an_unreachable_target_ends_after_its_attempts() {
        // 4x4 puzzles need nothing past singles and pairs.
        let mut opts = GenerateOptions::new(BoxShape::new(2, 2).expect("shape"), 2, 1);
        opts.target.limits.min_level = Some(Level::Hard);
        opts.max_attempts = 200;
        let err = generate(&opts, |_| {}).expect_err("unreachable");
        assert!(
            matches!(
                err,
                GenerateError::Unreached {
                    number: 1,
                    attempts: 200,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("hard"), "{err}");
    }

    #[test]
    fn puzzles_are_handed_over_in_order_and_a_break_ends_the_set() {
        let mut opts = GenerateOptions::new(BoxShape::new(2, 2).expect("shape"), 700, 4);
        opts.jobs = 2;
        let mut seen = Vec::new();
        generate_each(&opts, |g| {
            seen.push(g.index);
            ControlFlow::Continue(())
        })
        .expect("set");
        assert_eq!(seen, (0..700).collect::<Vec<_>>());
        let mut first = Vec::new();
        generate_each(&opts, |g| {
            first.push(g);
            if first.len() == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .expect("stopped early");
        opts.count = 3;
        assert_eq!(first, generate(&opts, |_| {}).expect("set"));
    }

    #[test]
    fn a_deadline_without_a_target_does_not_blame_one() {
        let mut opts = GenerateOptions::new(nine(), 2, 1);
        opts.deadline = Some(Instant::now());
        let err = generate(&opts, |_| {}).expect_err("timeout");
        assert!(!err.to_string().contains("target"), "{err}");
        opts.target.limits.min_level = Some(Level::Hard);
        let err = generate(&opts, |_| {}).expect_err("timeout");
        assert!(err.to_string().contains("target may be rare"), "{err}");
    }

    #[test]
    fn a_past_deadline_times_out() {
        let mut opts = GenerateOptions::new(nine(), 2, 1);
        opts.deadline = Some(Instant::now());
        let err = generate(&opts, |_| {}).expect_err("timeout");
        assert!(
            matches!(
                err,
                GenerateError::Timeout {
                    made: 0,
                    count: 2,
                    ..
                }
            ),
            "{err}"
        );
    }
}
