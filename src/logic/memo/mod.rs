//! What the techniques keep to go faster, in one place: the caches of a
//! position (link graph, almost locked sets, rectangles, colour clusters,
//! subsets, fish), the searches in vain of one run, the facts about
//! digits ([`facts`]), and what runs on the same puzzle found
//! ([`Findings`]). None of it changes a step: a technique finds the same
//! step, first the same, with or without its memo.
//!
//! Which techniques take part is read off the technique table: a step of
//! a technique marked `kept` is noted for a second run, a technique
//! marked `vain` keeps the position of its last search in vain.

pub(super) mod facts;

use std::sync::Arc;

use super::techniques::{als, chains, colouring, finned_fish, forcing, subsets, uniqueness};
use super::{Step, Technique};

/// A board's memo: each family's cache and the run's notes.
#[derive(Debug, Clone, Default)]
pub(super) struct Memo {
    /// The sashimi fish a failed search for finned ones met, for the
    /// search that follows it in the same position.
    pub(super) fish: Option<finned_fish::FishMemo>,
    /// For each kind of finned fish (size and sashimi) and digit: the
    /// digit's places (row by row) where that search last went through it
    /// in vain on this board (empty when it has not).
    pub(super) fin_vain: Vec<Box<[u64]>>,
    /// The rectangles of a position, for the uniqueness techniques that
    /// follow one another on it.
    pub(super) rects: Option<uniqueness::RectMemo>,
    /// Every digit's colour clusters of a position, for the colouring
    /// techniques that follow one another on it.
    pub(super) colours: Option<colouring::ColourMemo>,
    /// The candidates where the XY-chain search last found nothing
    /// ([`Board::xy_chains_in_vain`](super::Board)).
    pub(super) xy_vain: Option<Vec<u64>>,
    /// What the single-digit techniques found nothing on, and where the
    /// unit-bound ones last searched in vain ([`facts`]).
    pub(super) facts: facts::Facts,
    /// What runs on this puzzle found where, when noted
    /// ([`Board::note_findings`](super::Board::note_findings)).
    pub(super) findings: Option<Findings>,
    /// `(steps taken, graph)`.
    pub(super) graph: Option<(usize, Arc<chains::Graph>)>,
    /// `(steps taken, candidates, sets)`: the last position's sets, kept
    /// to build the next one's from (the sets of a unit whose cells have
    /// not changed are the same, and so is a set whose own cells have
    /// not; so are the restricted commons of two such sets).
    pub(super) als: Option<(usize, Vec<u64>, Arc<als::AlsData>)>,
    /// Premise groups of forcing chains (index 0) and nets (index 1)
    /// found to conclude something, to be tried again first.
    pub(super) forcing: [Vec<forcing::Premises>; 2],
    /// Each unit's naked and hidden subsets, and the candidates they were
    /// found in ([`subsets::UnitSubsets`]).
    pub(super) subsets: Vec<subsets::UnitSubsets>,
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
