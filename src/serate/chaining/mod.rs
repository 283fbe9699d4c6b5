//! SE's chainer (`Chaining`): cycles and forcing X-, Y- and XY-chains,
//! Nishio, multiple (cell and region), dynamic and dynamic plus forcing
//! chains (the simple rules inside the chains, module `advanced`), with
//! SE's difficulty: the kind's base plus an addition for the chain's
//! length (its count of distinct potentials, hidden parents included).
//!
//! Every hint of a kind is found, then the easiest is taken: by
//! difficulty, then complexity, then SE's sort key, ties in order found.

mod advanced;
mod closure;
mod graph;
mod implications;
mod multiple;
mod nested;
mod templates;
mod truth;
mod unary;

pub use multiple::Leads;
pub use truth::Known;

use super::grid::Grid;
use super::rules::{Hint, Rule};

/// Which chainer: SE's `Chaining(multiple, dynamic, nishio, level)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chainer {
    /// Cell and region forcing chains over cells of three candidates or
    /// more (and regions of three places or more).
    pub multiple: bool,
    /// Offs are struck from the working grid as they come.
    pub dynamic: bool,
    /// Nishio: contradictions from one assumption, X links only.
    pub nishio: bool,
    /// Nesting level (0: none).
    pub level: u8,
}

impl Chainer {
    /// Nishio forcing chains (7.5).
    pub const NISHIO: Chainer = Chainer {
        multiple: false,
        dynamic: true,
        nishio: true,
        level: 0,
    };
    /// Multiple forcing chains (8.0).
    pub const MULTIPLE: Chainer = Chainer {
        multiple: true,
        dynamic: false,
        nishio: false,
        level: 0,
    };
    /// Dynamic forcing chains (8.5).
    pub const DYNAMIC: Chainer = Chainer {
        multiple: true,
        dynamic: true,
        nishio: false,
        level: 0,
    };

    /// Dynamic forcing chains plus (9.0): dynamic chains that also use
    /// locking, hidden and naked pairs and X-wings.
    pub const DYNAMIC_PLUS: Chainer = Chainer {
        multiple: true,
        dynamic: true,
        nishio: false,
        level: 1,
    };

    /// Dynamic forcing chains nested at `level` (2 to 5; SE 9.5 to 11.0):
    /// the chains use whole chaining rules as steps (module `nested`).
    pub const fn nested(level: u8) -> Chainer {
        Chainer {
            level,
            ..Chainer::DYNAMIC
        }
    }

    /// The rule (and base difficulty) of this chainer's hints.
    pub fn rule(self) -> Rule {
        if self.level > 0 {
            Rule::Nested(self.level)
        } else if self.nishio {
            Rule::Nishio
        } else if self.dynamic {
            Rule::Dynamic
        } else {
            Rule::Multiple
        }
    }
}

/// A chaining hint with what SE sorts it by.
#[derive(Debug, Clone)]
pub struct ChainHint {
    /// The hint (its difficulty includes the length addition).
    pub hint: Hint,
    /// SE's complexity: the chains' counts of potentials, summed.
    pub complexity: usize,
    /// SE's tie-break between kinds of chaining hints.
    pub sort_key: u8,
    /// What a chain nesting this hint needs of it (only when asked for).
    pub nest: Option<Box<nested::NestInfo>>,
}

/// SE's addition for a chain of `complexity`: 0.1 for each step of the
/// ceilings 4, 6, 8, 12, 16, 24, … that `complexity - 2` passes.
pub fn length_addition(complexity: usize) -> f64 {
    let length = complexity as i64 - 2;
    let mut added = 0.0;
    for ceil in length_ceilings() {
        if length <= ceil as i64 {
            break;
        }
        added += 0.1;
    }
    added
}

/// The ceilings of [`length_addition`] in turn: 4, 6, 8, 10, 15, 20, …
/// (times 3/2 and 4/3 by turns), as long as they fit.
fn length_ceilings() -> impl Iterator<Item = usize> {
    std::iter::successors(Some((4usize, false)), |&(ceil, odd)| {
        let next = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        (ceil < usize::MAX / 4).then_some((next, !odd))
    })
    .map(|(ceil, _)| ceil)
}

/// Makes a hint of `rule` with base `base`, the length added.
fn chain_hint(
    rule: Rule,
    base: f64,
    complexity: usize,
    sort_key: u8,
    removals: Vec<(u8, u16)>,
    place: Option<(u8, u8)>,
) -> ChainHint {
    ChainHint {
        hint: Hint {
            rule,
            difficulty: base + length_addition(complexity),
            removals,
            place,
        },
        complexity,
        sort_key,
        nest: None,
    }
}

/// A list of hints sorted as SE sorts them (stable): by difficulty,
/// complexity, then sort key.
fn sorted(mut list: Vec<ChainHint>) -> Vec<ChainHint> {
    list.sort_by(|a, b| {
        a.hint
            .difficulty
            .partial_cmp(&b.hint.difficulty)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.complexity.cmp(&b.complexity))
            .then(a.sort_key.cmp(&b.sort_key))
    });
    list
}

/// The easiest of a list of hints, as SE sorts them.
fn easiest(list: Vec<ChainHint>) -> Option<Hint> {
    sorted(list).into_iter().next().map(|c| c.hint)
}

/// SE's "Forcing Chains & Cycles": the easiest cycle or forcing X-, Y-
/// or XY-chain.
pub fn cycles_and_forcing_chains(g: &Grid) -> Option<Hint> {
    cycles_and_forcing_chains_within(g, f64::NEG_INFINITY)
}

/// The easiest hint of a multiple, dynamic or Nishio chainer.
pub fn forcing_chains(g: &Grid, chainer: Chainer) -> Option<Hint> {
    forcing_chains_within(g, chainer, f64::NEG_INFINITY)
}

/// As [`cycles_and_forcing_chains`], but the search stops at the first
/// batch of hints holding one of difficulty `enough` or less, and takes
/// the easiest found so far: not always SE's choice of hint, but one no
/// harder than `enough` (the run's ER so far, which it then leaves as it
/// is). `f64::NEG_INFINITY` searches everything, as SE.
///
/// When the puzzle's solution is known ([`Known`]) and `enough` reaches
/// an XY forcing chain's base, the first XY forcing chain no harder than
/// `enough` from a false candidate is looked for first (cells and digits
/// in order; a hint SE's full search finds too), so that the walks go
/// only from the starts that reach their own negation.
pub fn cycles_and_forcing_chains_within(g: &Grid, enough: f64) -> Option<Hint> {
    super::budget::reached(Rule::Cycle.base());
    easiest(unary::hints(g, false, enough))
}

/// As [`forcing_chains`], stopping as [`cycles_and_forcing_chains_within`].
///
/// A dynamic chainer, when the puzzle's solution is known ([`Known`])
/// and `enough` reaches its base, first looks for the first false
/// candidate whose "on" meets a contradiction no harder than `enough`:
/// one run per false candidate until then, instead of every run of a
/// cell's and its regions' chains.
pub fn forcing_chains_within(g: &Grid, chainer: Chainer, enough: f64) -> Option<Hint> {
    forcing_chains_from(g, chainer, enough, &mut Leads::default())
}

/// As [`forcing_chains_within`], a dynamic chainer's first look for a
/// contradiction starting at cell `*from` and going round the grid,
/// `*from` left at the cell of the one found. A rating run gives the
/// cell its last step's was found at: consecutive steps tend to find
/// theirs near it.
pub fn forcing_chains_from(
    g: &Grid,
    chainer: Chainer,
    enough: f64,
    leads: &mut Leads,
) -> Option<Hint> {
    super::budget::reached(chainer.rule().base());
    easiest(multiple::hints_from(g, chainer, enough, leads))
}

/// Whether a hint of `difficulty` is no harder than `enough`.
pub(super) fn is_enough(difficulty: f64, enough: f64) -> bool {
    difficulty <= enough + 1e-9
}

#[cfg(test)]
mod tests {
    use super::length_addition;

    #[test]
    fn length_addition_follows_se_ceilings() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(length_addition(6), 0.0));
        assert!(close(length_addition(7), 0.1));
        assert!(close(length_addition(8), 0.1));
        assert!(close(length_addition(9), 0.2));
        assert!(close(length_addition(10), 0.2));
        assert!(close(length_addition(11), 0.3));
        assert!(close(length_addition(15), 0.4));
        assert!(close(length_addition(19), 0.5));
    }
}
