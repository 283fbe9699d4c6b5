//! Sudoku Explainer's ratings (ER, EP, ED) computed as SE 1.2.1 computes
//! them, for 9×9 puzzles: SE's rules in SE's order, each the first hint SE
//! would take, SE's difficulties (chain lengths included), SE's run.
//!
//! The run (SE's `Solver.getDifficulty`): ask the rules in order, apply
//! the first hint found, until the grid is full. ER is the hardest hint's
//! difficulty; ED the first hint's; EP the hardest up to the first hint
//! that places a digit. A puzzle SE's rules cannot finish rates 20.0
//! (with nesting up to level 5, no uniquely solvable puzzle is known to).
//!
//! Files by SE's rule families: [`singles`] (with SE's "direct" hints),
//! [`subsets`] (naked and hidden sets, fish), [`wings`], [`uniqueness`], [`aligned`]
//! (aligned pair and triple exclusion), [`chaining`]; [`rules`] holds the
//! table of rules and their base difficulties.

// Index loops over cells and regions read as SE's own loops here.
#![allow(clippy::needless_range_loop)]

pub mod agreement;
pub mod aligned;
pub mod chaining;
pub mod grid;
pub mod rules;
pub mod singles;
pub mod solutions;
pub mod subsets;
pub mod uniqueness;
pub mod wings;

#[cfg(test)]
mod tests;

use chaining::Chainer;
use grid::Grid;
use rules::Hint;

/// SE's three ratings of a puzzle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeRating {
    /// ER: the hardest step's difficulty.
    pub er: f64,
    /// EP: the hardest step up to the first placement.
    pub ep: f64,
    /// ED: the first step's difficulty.
    pub ed: f64,
    /// The rule of the hardest step (the first of that difficulty).
    pub hardest: Option<rules::Rule>,
}

impl SeRating {
    /// The ratings in tenths, rounded as SE's `serate` prints them.
    pub fn tenths(&self) -> (u32, u32, u32) {
        let t = |x: f64| ((x + 0.05) * 10.0) as u32;
        (t(self.er), t(self.ep), t(self.ed))
    }
}

/// The first hint SE's rules give on `g`, in SE's order of rules; the
/// nested chains (levels 2 to 5) only when `nested`.
pub fn next_hint(g: &Grid, nested: bool) -> Option<Hint> {
    next_hint_within(g, nested, f64::NEG_INFINITY)
}

/// As [`next_hint`], but a chainer stops at its first hints when one is
/// no harder than `enough` (see
/// [`chaining::cycles_and_forcing_chains_within`]): SE's rule, not always
/// SE's hint of it; and from an `enough` of 9.0 the aligned exclusions
/// are skipped. `rate` passes its ER so far.
pub fn next_hint_within(g: &Grid, nested: bool, enough: f64) -> Option<Hint> {
    singles::hidden_single(g)
        .or_else(|| singles::locking(g, true))
        .or_else(|| subsets::hidden_set(g, 2, true))
        .or_else(|| singles::naked_single(g))
        .or_else(|| subsets::hidden_set(g, 3, true))
        .or_else(|| singles::locking(g, false))
        .or_else(|| subsets::naked_set(g, 2))
        .or_else(|| subsets::fish(g, 2))
        .or_else(|| subsets::hidden_set(g, 2, false))
        .or_else(|| subsets::naked_set(g, 3))
        .or_else(|| subsets::fish(g, 3))
        .or_else(|| subsets::hidden_set(g, 3, false))
        .or_else(|| wings::wing(g, false))
        .or_else(|| wings::wing(g, true))
        .or_else(|| uniqueness::unique_loop(g))
        .or_else(|| subsets::naked_set(g, 4))
        .or_else(|| subsets::fish(g, 4))
        .or_else(|| subsets::hidden_set(g, 4, false))
        .or_else(|| uniqueness::bug(g))
        .or_else(|| aligned_exclusion_within(g, 2, enough))
        .or_else(|| chaining::cycles_and_forcing_chains_within(g, enough))
        .or_else(|| aligned_exclusion_within(g, 3, enough))
        .or_else(|| chaining::forcing_chains_within(g, Chainer::NISHIO, enough))
        .or_else(|| chaining::forcing_chains_within(g, Chainer::MULTIPLE, enough))
        .or_else(|| chaining::forcing_chains_within(g, Chainer::DYNAMIC, enough))
        .or_else(|| chaining::forcing_chains_within(g, Chainer::DYNAMIC_PLUS, enough))
        .or_else(|| {
            (2..=5).take_while(|_| nested).find_map(|level| {
                chaining::forcing_chains_within(g, Chainer::nested(level), enough)
            })
        })
}

/// Rates a puzzle (81 digits, 0 for a blank) as SE's `serate` does.
/// The puzzle should have one solution; on others the nested chains are
/// not tried (they could run for hours), so a puzzle the rules up to
/// dynamic plus cannot finish rates 20.0.
pub fn rate(puzzle: &[u8; 81]) -> SeRating {
    let mut g = Grid::new(puzzle);
    let nested = solutions::count(&g, 2) == 1;
    let mut er = f64::NEG_INFINITY;
    let (mut ep, mut ed) = (0.0, 0.0);
    let mut hardest = None;
    while !g.is_solved() {
        let Some(hint) = next_hint_within(&g, nested, pruning(er)) else {
            er = 20.0;
            break;
        };
        if hint.difficulty > er {
            er = hint.difficulty;
            hardest = Some(hint.rule);
        }
        hint.apply(&mut g);
        if ep == 0.0 {
            if ed == 0.0 {
                ed = er;
            }
            if hint.place.is_some() {
                ep = er;
            }
        }
    }
    SeRating {
        er,
        ep,
        ed,
        hardest,
    }
}

/// The difficulty a chainer may stop at, given the run's ER so far:
/// `er` itself (a hint no harder leaves ER as it is), unless
/// `SERATE_EXACT` is set in the environment (then SE's own choice of hint
/// every step, for measuring what the stop changes).
fn pruning(er: f64) -> f64 {
    static EXACT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *EXACT.get_or_init(|| std::env::var_os("SERATE_EXACT").is_some()) {
        f64::NEG_INFINITY
    } else {
        er
    }
}

/// From this ER on, `rate` skips the aligned exclusions (6.2, 7.5): the
/// chainers after them nearly always have a hint no harder than the ER
/// so far, so the step leaves ER as it is. Measured on the 1,093
/// references: no rating changes at 9.0 (at 8.5 one top1465 puzzle,
/// SE 8.8, rates 8.5).
const ALIGNED_SKIP_ER: f64 = 9.0;

/// The aligned exclusion of `degree`, unless `enough` (the ER so far)
/// has reached [`ALIGNED_SKIP_ER`].
fn aligned_exclusion_within(g: &Grid, degree: usize, enough: f64) -> Option<Hint> {
    if enough >= ALIGNED_SKIP_ER {
        return None;
    }
    aligned::aligned_exclusion(g, degree)
}
