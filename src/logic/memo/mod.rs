//! What a run notes to go faster, behind one small interface ([`Run`]):
//! the facts about digits and the searches in vain of one run
//! ([`facts`]), and what runs on the same puzzle found ([`Findings`]).
//! (What each family keeps, its own memo, is the family's type, beside
//! its finders: the link graph in `chains`, the almost locked sets in
//! `als`, the rectangles in `uniqueness`, and so on.) None of it changes
//! a step: a technique finds the same step, first the same, with or
//! without the notes.
//!
//! Which techniques take part is read off the technique table: a step of
//! a technique marked `kept` is noted for a second run, a technique
//! marked `vain` keeps the position of its last search in vain.

pub(super) mod facts;

pub(in crate::logic) use facts::OnDigit;

use std::sync::Arc;

use std::time::Instant;

use super::techniques::chains;
use super::{Board, Pick, Step, Technique};

/// What a finder is given beside the position and its family: whose
/// choice a search makes ([`Pick`]), the deadline, and the run's notes
/// (the facts about digits and the searches in vain, [`facts`]; what runs
/// on this puzzle found, [`Findings`]). The solver's loop asks it what
/// was found in a position before searching ([`Run::known`]) and tells it
/// what the search met ([`Run::noted`]).
#[derive(Debug, Clone)]
pub(in crate::logic) struct Run {
    /// Whose choice a search makes among the steps it could take.
    pub(in crate::logic) pick: Pick,
    /// When the ladder must stop (`--timeout`).
    deadline: Option<Instant>,
    /// What the single-digit techniques found nothing on, and where the
    /// unit-bound ones last searched in vain ([`facts`]).
    pub(in crate::logic) facts: facts::Facts,
    /// What runs on this puzzle found where, when noted
    /// ([`Run::note_findings`]).
    findings: Option<Findings>,
}

impl Run {
    /// A run with HoDoKu's choice, no deadline and nothing noted.
    pub(in crate::logic) fn new() -> Run {
        Run {
            pick: Pick::Hodoku,
            deadline: None,
            facts: facts::Facts::default(),
            findings: None,
        }
    }

    /// Sets the time by which the run must stop.
    pub(in crate::logic) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Tests: whether the run neither notes nor uses facts and searches
    /// in vain (always false outside the tests).
    #[inline]
    pub(in crate::logic) fn notes_off(&self) -> bool {
        #[cfg(test)]
        return self.facts.off;
        #[cfg(not(test))]
        false
    }

    /// True once the deadline has passed.
    pub(in crate::logic) fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Notes from now on what techniques find in each position, starting
    /// from what an earlier run on the same puzzle noted (`known`).
    pub(in crate::logic) fn note_findings(&mut self, known: Option<Findings>) {
        let mut known = known.unwrap_or_default();
        self.facts.absorb(std::mem::take(&mut known.facts));
        self.findings = Some(known);
    }

    /// What [`Run::note_findings`] noted, leaving nothing noted.
    pub(in crate::logic) fn take_findings(&mut self) -> Option<Findings> {
        let mut f = self.findings.take()?;
        f.facts = self.facts.carried();
        Some(f)
    }

    /// What was noted in the board's position, when findings are noted:
    /// the position's key (its candidates) and what runs found there.
    pub(in crate::logic) fn known(&self, board: &Board) -> Option<(Vec<u64>, Noted)> {
        let f = self.findings.as_ref()?;
        let key = board.cands.clone();
        let noted = f.at(&key);
        Some((key, noted))
    }

    /// Notes what one step of the ladder met in the position `key`
    /// ([`Findings::note`]); nothing once the deadline has passed (a
    /// search cut short proves nothing).
    pub(in crate::logic) fn noted(
        &mut self,
        key: Vec<u64>,
        known: &Noted,
        failed: u64,
        step: Option<(Technique, Step)>,
    ) {
        if self.past_deadline() {
            return;
        }
        if let Some(f) = &mut self.findings {
            f.note(key, known, failed, step);
        }
    }

    /// The link graph an earlier run built in the board's position.
    pub(in crate::logic) fn known_graph(&self, board: &Board) -> Option<&Arc<chains::Graph>> {
        self.findings.as_ref()?.graphs.get(&board.cands)
    }

    /// Keeps a link graph built in the board's position for a later run
    /// (9x9 and smaller grids, at most [`chains::KEPT_GRAPHS`]), when
    /// findings are noted.
    pub(in crate::logic) fn keep_graph(&mut self, board: &Board, g: &Arc<chains::Graph>) {
        if let Some(f) = &mut self.findings {
            if board.side <= 9 && f.graphs.len() < chains::KEPT_GRAPHS {
                f.graphs.insert(board.cands.clone(), Arc::clone(g));
            }
        }
    }
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
