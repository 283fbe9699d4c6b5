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
mod budget;
pub mod chaining;
pub mod grid;
pub mod positions;
pub mod rules;
pub mod since;
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

/// A difficulty to the tenth, as the records and notes report ratings.
///
/// ```
/// assert_eq!(xlsudoku::serate::to_tenth(8.3 + 0.1 + 0.1), 8.5);
/// assert_eq!(xlsudoku::serate::to_tenth(1.2), 1.2);
/// ```
pub fn to_tenth(x: f64) -> f32 {
    ((x * 10.0).round() / 10.0) as f32
}

/// The first hint SE's rules give on `g`, in SE's order of rules; the
/// nested chains (levels 2 to 5) only when `nested`.
pub fn next_hint(g: &Grid, nested: bool) -> Option<Hint> {
    next_hint_within(g, nested, f64::NEG_INFINITY)
}

/// As [`next_hint`], but a chainer stops at its first hints when one is
/// no harder than `enough` (see
/// [`chaining::cycles_and_forcing_chains_within`]): SE's rule, not always
/// SE's hint of it; from an `enough` of 7.0 the cycles and forcing
/// chains are asked before the rules between them and the wings, from
/// 7.5 the Nishio, multiple and dynamic chainers before those rules too
/// (when the cycles and forcing chains have no hint), from 9.0 the
/// aligned exclusions are skipped, and from 10.0 dynamic forcing chains
/// plus. `rate` passes its ER so far.
pub fn next_hint_within(g: &Grid, nested: bool, enough: f64) -> Option<Hint> {
    next_hint_after(g, nested, enough, &mut Memo::default())
}

/// What a run's rules keep from one step to the next, to pass what
/// cannot find a hint on the next grid of the same run (speed devices:
/// every hint found is the one found without it).
#[derive(Default)]
pub struct Memo {
    /// Aligned pair and triple exclusion's last grid without a strike.
    aligned: [Option<aligned::Seen>; 2],
    /// The last grid without a hint of each rule that looks only where
    /// something changed ([`since`]), in the order of [`next_hint_after`].
    since: [since::Since; 15],
    /// Where the dynamic chainers' first look for a contradiction starts
    /// ([`chaining::Leads`]).
    leads: chaining::Leads,
}

/// As [`next_hint_within`], on a grid that follows the one `memo` was
/// last used on in the same run (a fresh memo: any grid).
pub fn next_hint_after(g: &Grid, nested: bool, enough: f64, memo: &mut Memo) -> Option<Hint> {
    let [pairs, triples] = &mut memo.aligned;
    // The dynamic chainers' first look for a contradiction starts with
    // what the last ones found.
    let leads = std::cell::RefCell::new(&mut memo.leads);
    let dynamic =
        |chainer| chaining::forcing_chains_from(g, chainer, enough, &mut leads.borrow_mut());
    let [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14] = &mut memo.since;
    let simple = s0
        .run(g, |ch| singles::hidden_single_in(g, ch))
        .or_else(|| s1.run(g, |ch| singles::locking_in(g, true, ch)))
        .or_else(|| s2.run(g, |ch| subsets::hidden_set_in(g, 2, true, ch)))
        .or_else(|| singles::naked_single(g))
        .or_else(|| s3.run(g, |ch| subsets::hidden_set_in(g, 3, true, ch)))
        .or_else(|| s4.run(g, |ch| singles::locking_in(g, false, ch)))
        .or_else(|| s5.run(g, |ch| subsets::naked_set_in(g, 2, ch)))
        .or_else(|| s6.run(g, |ch| subsets::fish_in(g, 2, ch)))
        .or_else(|| s7.run(g, |ch| subsets::hidden_set_in(g, 2, false, ch)))
        .or_else(|| s8.run(g, |ch| subsets::naked_set_in(g, 3, ch)))
        .or_else(|| s9.run(g, |ch| subsets::fish_in(g, 3, ch)))
        .or_else(|| s10.run(g, |ch| subsets::hidden_set_in(g, 3, false, ch)))
        .or_else(|| wings::wing(g, false))
        .or_else(|| wings::wing(g, true));
    // From an ER of CYCLES_FIRST_ER on, the cycles and forcing chains
    // are asked before the rules between them and the wings: a hint of
    // theirs no harder than the ER so far is taken. Else what they found
    // waits its turn in SE's order.
    let unary = asked_once(|| chaining::cycles_and_forcing_chains_within(g, enough));
    let mut between = || {
        s14.run(g, |ch| uniqueness::unique_loop_in(g, ch))
            .or_else(|| s11.run(g, |ch| subsets::naked_set_in(g, 4, ch)))
            .or_else(|| s12.run(g, |ch| subsets::fish_in(g, 4, ch)))
            .or_else(|| s13.run(g, |ch| subsets::hidden_set_in(g, 4, false, ch)))
            .or_else(|| uniqueness::bug(g))
            .or_else(|| aligned_exclusion_within(g, 2, enough, pairs))
    };
    let mut triple = || aligned_exclusion_within(g, 3, enough, triples);
    let chainers = || {
        chaining::forcing_chains_within(g, Chainer::NISHIO, enough)
            .or_else(|| chaining::forcing_chains_within(g, Chainer::MULTIPLE, enough))
            .or_else(|| dynamic(Chainer::DYNAMIC))
    };
    let beyond = || {
        (enough < PLUS_SKIP_ER)
            .then(|| dynamic(Chainer::DYNAMIC_PLUS))
            .flatten()
            .or_else(|| {
                (2..=5).take_while(|_| nested).find_map(|level| {
                    chaining::forcing_chains_within(g, Chainer::nested(level), enough)
                })
            })
    };
    let enough_hint = |h: &Hint| chaining::is_enough(h.difficulty, enough);
    let hint = if let Some(h) = simple {
        Some(h)
    } else if let Some(h) = (enough >= CYCLES_FIRST_ER)
        .then(&unary)
        .flatten()
        .filter(enough_hint)
    {
        Some(h)
    } else if enough >= DEFER_ER && unary().is_none() {
        // The rules between the wings and the cycles give hints no
        // harder than the ER so far (DEFER_ER): the chainers after them
        // are asked first, and a hint of theirs no harder is taken. Else
        // those rules, then the chainers' hint, as in SE's order.
        let chained = triple().or_else(chainers);
        match chained {
            Some(h) if enough_hint(&h) => Some(h),
            _ => {
                let passed = between();
                debug_assert!(passed.as_ref().is_none_or(enough_hint));
                passed.or(chained).or_else(beyond)
            }
        }
    } else {
        between()
            .or_else(&unary)
            .or_else(&mut triple)
            .or_else(chainers)
            .or_else(beyond)
    };
    hint
}

/// `ask`, asked once: its answer kept for the next asks.
fn asked_once(ask: impl Fn() -> Option<Hint>) -> impl Fn() -> Option<Hint> {
    let answer = std::cell::OnceCell::new();
    move || answer.get_or_init(&ask).clone()
}

/// Rates a puzzle (81 digits, 0 for a blank) as SE's `serate` does.
/// The puzzle should have one solution; on others the nested chains are
/// not tried (they could run for hours), so a puzzle the rules up to
/// dynamic plus cannot finish rates 20.0.
///
/// ```
/// use xlsudoku::serate::{grid::parse, rate};
///
/// // SE 1.2.1 rates it 3.4/1.2/1.2 (benches/rating/se_reference/).
/// let p = parse("...4..8......39...4.1.2.....3.97..18.....3..4.2....9..27.5......9....4..6..2....9")
///     .expect("81 digits");
/// assert_eq!(rate(&p).tenths(), (34, 12, 12));
/// ```
pub fn rate(puzzle: &[u8; 81]) -> SeRating {
    // No deadline: nothing stops the run early.
    rate_until(puzzle, None).unwrap_or_else(SeRating::from)
}

/// What is known of a rating stopped by its deadline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unfinished {
    /// ER is at least this: the hardest step taken, or the base of the
    /// rule the step under way had reached (every easier rule had found
    /// nothing), whichever is higher.
    pub at_least: f64,
    /// ED when the first step was taken.
    pub ed: Option<f64>,
    /// EP when a digit was placed.
    pub ep: Option<f64>,
}

/// [`rate`] within a deadline (`None`: none): past it, what is known so
/// far, never a rating SE would not give.
///
/// ```
/// use std::time::Instant;
/// use xlsudoku::serate::{grid::parse, rate_until};
///
/// let p = parse("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
///     .expect("81 digits");
/// // A deadline already past stops a puzzle at its first chain; this one
/// // needs none, so it is rated to the end.
/// assert!(rate_until(&p, Some(Instant::now())).is_ok());
/// let hard = parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
///     .expect("81 digits");
/// let known = rate_until(&hard, Some(Instant::now())).unwrap_err();
/// assert!(known.at_least >= 6.5 && known.at_least <= 9.0);
/// assert!(rate_until(&hard, None).is_ok());
/// ```
pub fn rate_until(
    puzzle: &[u8; 81],
    deadline: Option<std::time::Instant>,
) -> Result<SeRating, Unfinished> {
    budget::within(deadline, || run(puzzle, true))
}

/// [`rate`] taking SE's own choice of hint at every step (no stop at the
/// first hint no harder than the ER so far, no rule skipped): slower,
/// for measuring what those shortcuts change.
pub fn rate_exactly(puzzle: &[u8; 81]) -> SeRating {
    budget::within(None, || run(puzzle, false)).unwrap_or_else(SeRating::from)
}

/// What is known of an unfinished run, as ratings (never met without a
/// deadline: only [`rate`] and [`rate_exactly`] take it, as a fallback).
impl From<Unfinished> for SeRating {
    fn from(u: Unfinished) -> Self {
        SeRating {
            er: u.at_least,
            ep: u.at_least,
            ed: u.at_least,
            hardest: None,
        }
    }
}

/// SE's run; with `shortcuts`, a chainer stops at its first hints no
/// harder than the ER so far (they leave ER as it is), the aligned
/// exclusions are skipped from an ER of [`ALIGNED_SKIP_ER`] and dynamic
/// forcing chains plus from [`PLUS_SKIP_ER`].
fn run(puzzle: &[u8; 81], shortcuts: bool) -> Result<SeRating, Unfinished> {
    let mut g = Grid::new(puzzle);
    // The dynamic chainers skip the runs the solution rules out; the
    // nested ones run only on a puzzle with one solution.
    let known = chaining::Known::new(puzzle);
    let nested = known.unique();
    let mut er = f64::NEG_INFINITY;
    let (mut ep, mut ed) = (0.0, 0.0);
    let mut hardest = None;
    let mut memo = Memo::default();
    while !g.is_solved() {
        budget::start_step();
        let enough = if shortcuts { er } else { f64::NEG_INFINITY };
        let hint = next_hint_after(&g, nested, enough, &mut memo);
        if budget::stopped() {
            let known = |x: f64| (x != 0.0).then_some(x);
            return Err(Unfinished {
                at_least: er.max(budget::step_floor()).max(0.0),
                ed: known(ed),
                ep: known(ep),
            });
        }
        let Some(hint) = hint else {
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
    Ok(SeRating {
        // A full grid takes no step: 0, as SE's `serate` prints.
        er: er.max(0.0),
        ep,
        ed,
        hardest,
    })
}

/// From this ER on, `rate` skips the aligned exclusions (6.2, 7.5): the
/// chainers after them nearly always have a hint no harder than the ER
/// so far, so the step leaves ER as it is. Measured on the 1,093
/// references: no rating changes at 9.0 (at 8.5 one top1465 puzzle,
/// SE 8.8, rates 8.5).
const ALIGNED_SKIP_ER: f64 = 9.0;

/// From this ER on, `rate` asks the cycles and forcing chains (6.5 and
/// up) right after the wings, before the unique loops, the sets and fish
/// of four, BUG and the aligned pairs (see [`next_hint_after`]), and
/// takes a hint of theirs no harder than the ER so far. The step leaves
/// ER as SE's would: every rule passed gives hints under 7.0 (a BUG of
/// many digits, the hardest, 6.5), so SE's step is no harder than the
/// ER either. Measured on the references (benches/README.md): no rating
/// changes; top97 `rate --se-only` takes 5 % fewer instructions.
///
/// The multiple and dynamic forcing chains asked before the Nishio
/// chains gave no rating changes either, and 3 % more; but a Nishio
/// chain's hints can all be harder than the ER, so SE's step would raise
/// it where theirs does not: not done. Asked before the unique loops and
/// aligned exclusions too, one top1465 puzzle (SE 8.8) rates 8.5.
const CYCLES_FIRST_ER: f64 = 7.0;

/// From this ER on, when the cycles and forcing chains have no hint,
/// `rate` asks the aligned triple and the Nishio, multiple and dynamic
/// forcing chains before the rules between the wings and them (unique
/// loops, the sets and fish of four, BUG, the aligned pair), and takes a
/// hint of theirs no harder than the ER so far. Every rule passed gives
/// hints of 6.5 at most (a BUG of many digits, the hardest), no harder
/// than the ER either, so SE's own step leaves ER as it is too. When
/// their hint is harder, or they have none, the rules passed are asked
/// in SE's order before it is taken. Measured (2026-11-29): no rating
/// changes on the references (benches/README.md); top97 `rate
/// --se-only` takes 3.6 % fewer instructions. The aligned triple passed
/// too (7.5 is no harder than this ER) saved 4 % more, but one top1465
/// puzzle (SE 8.8) then rates 8.5: its path takes two aligned triples
/// at ER 8.5 that a chain replaces.
const DEFER_ER: f64 = 7.5;

/// From this ER on, `rate` skips dynamic forcing chains plus (9.0): on
/// the hardest puzzles it nearly never finds a hint (21 of 820 calls on
/// the hardest 41), each call a full search, while the nested chainer
/// after it nearly always has one no harder than the ER so far.
/// Measured: on the 1,093 references no rating changes; on the hardest
/// 41 and 40 others of the same list (every 24th from the 13th) ER and
/// ED stay the published ones and one EP of the 81 changes, each list
/// rated 1.3 to 1.4 times faster. From 9.5 one top1465 puzzle (SE 9.5)
/// rated 9.9.
const PLUS_SKIP_ER: f64 = 10.0;

/// The aligned exclusion of `degree`, unless `enough` (the ER so far)
/// has reached [`ALIGNED_SKIP_ER`].
fn aligned_exclusion_within(
    g: &Grid,
    degree: usize,
    enough: f64,
    seen: &mut Option<aligned::Seen>,
) -> Option<Hint> {
    if enough >= ALIGNED_SKIP_ER {
        return None;
    }
    aligned::aligned_exclusion_after(g, degree, seen)
}
