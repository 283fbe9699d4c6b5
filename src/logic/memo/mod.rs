//! What the techniques keep to go faster: each family's own memo, a type
//! beside its finders (the link graph in `chains`, the almost locked sets
//! in `als`, the rectangles in `uniqueness`, the colour clusters in
//! `colouring`, the subsets in `subsets`, the fish in `finned_fish`, the
//! premises in `forcing`), gathered in one [`Memo`]; and here the facts
//! about digits and the searches in vain of one run ([`facts`]), and what
//! runs on the same puzzle found ([`Findings`]). None of it changes a
//! step: a technique finds the same step, first the same, with or without
//! its memo.
//!
//! Which techniques take part is read off the technique table: a step of
//! a technique marked `kept` is noted for a second run, a technique
//! marked `vain` keeps the position of its last search in vain.

pub(super) mod facts;

use std::sync::Arc;

use super::techniques::{als, chains, colouring, finned_fish, forcing, subsets, uniqueness};
use super::{Step, Technique};

/// A board's memo: each family's own (defined beside its finders) and
/// the run's notes.
#[derive(Debug, Clone, Default)]
pub(super) struct Memo {
    /// The link graph and the XY-chains' last search in vain.
    pub(super) chains: chains::Chains,
    /// The last position's almost locked sets.
    pub(super) als: als::AlmostLockedSets,
    /// The sashimi fish met, the searches in vain by digit.
    pub(super) finned_fish: finned_fish::FinnedFish,
    /// The rectangles.
    pub(super) uniqueness: uniqueness::Uniqueness,
    /// The colour clusters.
    pub(super) colouring: colouring::Colouring,
    /// The premises that concluded.
    pub(super) forcing: forcing::Forcing,
    /// Each unit's subsets.
    pub(super) subsets: subsets::Subsets,
    /// What the single-digit techniques found nothing on, and where the
    /// unit-bound ones last searched in vain ([`facts`]).
    pub(super) facts: facts::Facts,
    /// What runs on this puzzle found where, when noted
    /// ([`Board::note_findings`](super::Board::note_findings)).
    pub(super) findings: Option<Findings>,
}

/// What runs on one puzzle found, position by position (a position is
/// its candidates): the techniques tried there in vain, and the steps the
/// costlier ones found. Whether and what a technique finds depends on the
/// position alone (the searches' own memos are checked against the
/// candidates they were made for), so a second run on the same puzzle,
/// in another order, skips those searches: the ratings run the ladder
/// twice, in HoDoKu's order and in Sudoku Explainer's, and about half of
/// the second run's positions were met by the first. Forcing chains and
/// nets, which try first the premises that concluded before, are noted
/// only where they find nothing, and X- and XY-chains, whose choice
/// differs between the runs (`Pick`), likewise. The facts of the
/// single-digit techniques ([`facts`]: nothing found on a digit) and the
/// link graphs built go along.
#[derive(Debug, Clone, Default)]
pub(crate) struct Findings {
    positions: rustc_hash::FxHashMap<Vec<u64>, Noted>,
    pub(super) facts: facts::Facts,
    /// The link graphs built, by position (9x9 and smaller grids only,
    /// at most [`chains::KEPT_GRAPHS`]): the second run takes them.
    pub(super) graphs: rustc_hash::FxHashMap<Vec<u64>, Arc<chains::Graph>>,
}

/// What was found in one position.
#[derive(Debug, Clone, Default)]
pub(super) struct Noted {
    /// The techniques that found nothing, as bits ([`Technique::bit`]).
    pub(super) failed: u64,
    /// Steps found, by the technique tried (a step may name a variant:
    /// a grouped AIC search finds plain ones too).
    pub(super) found: Vec<(Technique, Step)>,
}

impl Findings {
    /// What was noted in the position `key` (its candidates).
    pub(super) fn at(&self, key: &[u64]) -> Noted {
        self.positions.get(key).cloned().unwrap_or_default()
    }

    /// Notes what one step of the ladder met in the position `key`: the
    /// techniques that found nothing (`failed`, beyond what was `known`)
    /// and the step found (of a technique whose steps are `kept`).
    pub(super) fn note(
        &mut self,
        key: Vec<u64>,
        known: &Noted,
        failed: u64,
        step: Option<(Technique, Step)>,
    ) {
        if failed & !known.failed != 0 || step.is_some() {
            let noted = self.positions.entry(key).or_default();
            noted.failed |= failed;
            noted.found.extend(step);
        }
    }
}
