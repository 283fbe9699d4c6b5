//! What techniques found nothing on: digit by digit, and unit by unit
//! within a run.
//!
//! A fish, a skyscraper, an empty rectangle, a colouring or an X-chain on
//! digit `d` reads `d`'s places and nothing else, and strikes only `d`. So
//! "technique `t` finds nothing on `d`" holds wherever `d`'s places are
//! the same, whatever the other digits do. A hard position is usually the
//! last one with a strike or two on one digit: the others' places have
//! not changed, and their searches are skipped. The facts are kept by
//! the digit's places (row by row), so they hold across positions and
//! across the two runs of a rating ([`Findings`](crate::logic::Findings)
//! carries them).
//!
//! Each technique asks [`Run::digits_to_skip`] before its loop and
//! tells [`Run::digits_failed`] what it searched to the end in vain:
//! the step it finds, and which one it finds first, are the same as
//! without the facts. (There are no such facts about units: a naked
//! subset strikes in every unit its cells share, so "nothing in this
//! unit" does not follow from the unit alone, and keyed by a unit's
//! candidates they cost more than they saved; measurements:
//! docs/performance-log.md.)
//!
//! Within one run a board also keeps, for the techniques that read and
//! strike inside a unit or two (marked `V` in the table: subsets, locked
//! candidates, Sue de Coq), the last position where each searched in vain. The run
//! only loses candidates, so a unit whose cells hold what they held there
//! gives the same patterns, with fewer candidates to strike: nothing. Such
//! units are skipped ([`Run::units_unchanged`]),
//! whatever the other units did. ALS-XZ and the ALS-XY-wing keep theirs
//! too ([`Run::searched_in_vain_at`]): a pattern of sets carried over
//! since then strikes nothing either (`als/finders.rs`).

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::Run;
use crate::logic::{Board, Cells, Digits, Technique};

/// Facts about digits: for a digit's places, the techniques
/// ([`Technique::bit`]) that find nothing there.
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct Facts {
    /// Key: the digit, then its places in each row.
    known: FxHashMap<Box<[u64]>, u64>,
    /// The current position (steps taken) and each digit's key and facts.
    here: Option<Here>,
    /// Per technique ([`Technique::bit`]'s index), the last position
    /// where it searched in vain (`V` in the table only): steps taken and
    /// candidates (one copy per position, shared).
    vain: Vec<Option<(usize, Snapshot)>>,
    /// The last copy made, and the position (steps taken) it is of.
    vain_here: Option<(usize, Snapshot)>,
    /// For the current position (steps taken) and a copy of `vain`:
    /// whether each unit is unchanged since.
    unchanged: Option<(usize, Snapshot, Arc<Vec<bool>>)>,
    /// Tests: no fact is noted or used.
    #[cfg(test)]
    pub(in crate::logic) off: bool,
}

/// A position's candidates, shared.
type Snapshot = Arc<Vec<u64>>;

/// The fact bits of searches that are not techniques of the table
/// (whose bits, [`Technique::bit`], are the low ones): Sudoku Explainer's
/// direct pointing and direct claiming (`se_run.rs`), which read and
/// strike one digit's places.
pub(in crate::logic) const SEARCHES: [u64; 2] = [1 << 62, 1 << 63];

impl Facts {
    /// The facts alone, for another board of the same puzzle (the
    /// searches in vain are this board's run's).
    pub(in crate::logic) fn carried(&mut self) -> Facts {
        flush(&mut self.known, &mut self.here);
        Facts {
            known: self.known.clone(),
            ..Facts::default()
        }
    }

    /// Adds the facts of another board of the same puzzle.
    pub(in crate::logic) fn absorb(&mut self, other: Facts) {
        flush(&mut self.known, &mut self.here);
        if self.known.is_empty() {
            self.known = other.known;
        } else {
            for (key, facts) in other.known {
                *self.known.entry(key).or_default() |= facts;
            }
        }
    }
}

/// The current position's digits: each digit's key and facts, and the
/// digits whose facts grew here. What grew goes into the known facts when
/// the digit's places change ([`Here::refresh`]) or the facts leave the
/// board ([`flush`]): one entry a key, not one per technique that found
/// nothing.
#[derive(Debug, Clone, Default)]
struct Here {
    /// The position (steps taken) the keys are of.
    at: usize,
    /// How many words a key has (the grid's side and one).
    width: usize,
    /// Each digit's key, one after another (`width` words each).
    keys: Vec<u64>,
    /// Each digit's facts.
    facts: Vec<u64>,
    /// The digits (bit `d - 1`) whose facts grew since their key was made.
    grew: u64,
}

impl Here {
    /// Digit `i`'s key (`i` = `d - 1`).
    fn key(&self, i: usize) -> &[u64] {
        &self.keys[i * self.width..(i + 1) * self.width]
    }

    /// Moves the facts that grew into `known`.
    fn flush(&mut self, known: &mut FxHashMap<Box<[u64]>, u64>) {
        let mut grew = std::mem::take(&mut self.grew);
        while grew != 0 {
            let i = grew.trailing_zeros() as usize;
            grew &= grew - 1;
            *known.entry(self.key(i).into()).or_default() |= self.facts[i];
        }
    }

    /// Makes the keys those of position `at`, where digit `d`'s places in
    /// the rows are `places[k * n + d - 1]` (row `k`). A digit whose
    /// places are as they were keeps its facts (and what grew); another
    /// one's grown facts go into `known` first, and its facts are then
    /// those known for its new key. Keys are compared and hashed only
    /// for the digits whose places changed, with no allocation.
    fn refresh(
        &mut self,
        known: &mut FxHashMap<Box<[u64]>, u64>,
        at: usize,
        n: usize,
        places: &[u64],
    ) {
        let width = n + 1;
        if self.width != width {
            self.flush(known);
            *self = Here {
                width,
                keys: vec![u64::MAX; n * width],
                facts: vec![0; n],
                ..Here::default()
            };
        }
        self.at = at;
        let mut key = [0u64; 65];
        for i in 0..n {
            key[0] = i as u64 + 1;
            for (k, w) in key[1..width].iter_mut().enumerate() {
                *w = places[k * n + i];
            }
            if self.key(i) == &key[..width] {
                continue;
            }
            if self.grew & (1 << i) != 0 {
                self.grew &= !(1 << i);
                *known.entry(self.key(i).into()).or_default() |= self.facts[i];
            }
            self.keys[i * width..(i + 1) * width].copy_from_slice(&key[..width]);
            self.facts[i] = known.get(&key[..width]).copied().unwrap_or(0);
        }
    }
}

/// Moves the facts that grew in `here` into `known`, and drops `here`.
fn flush(known: &mut FxHashMap<Box<[u64]>, u64>, here: &mut Option<Here>) {
    if let Some(mut h) = here.take() {
        h.flush(known);
    }
}

impl Run {
    /// Each digit's facts in the current position, and which grew.
    fn digit_facts_here(&mut self, board: &Board) -> (&mut Vec<u64>, &mut u64) {
        let at = board.steps.len();
        if self.facts.here.as_ref().is_none_or(|h| h.at != at) {
            let n = board.side;
            let table = board.table();
            let Facts { known, here, .. } = &mut self.facts;
            here.get_or_insert_with(Here::default)
                .refresh(known, at, n, &table.places);
        }
        match &mut self.facts.here {
            Some(h) => (&mut h.facts, &mut h.grew),
            None => unreachable!("made above when missing"),
        }
    }

    /// The digits on which `t` is known to find nothing in the current
    /// position.
    pub(in crate::logic) fn digits_to_skip(&mut self, board: &Board, t: Technique) -> Digits {
        self.digits_to_skip_by(board, t.bit())
    }

    /// [`Run::digits_to_skip`] for a search named by its fact bit
    /// ([`Technique::bit`], or one of [`SEARCHES`]).
    pub(in crate::logic) fn digits_to_skip_by(&mut self, board: &Board, b: u64) -> Digits {
        if self.notes_off() {
            return Digits::EMPTY;
        }
        Digits::from_bits(
            self.digit_facts_here(board)
                .0
                .iter()
                .enumerate()
                .filter(|(_, facts)| *facts & b != 0)
                .fold(0, |acc, (i, _)| acc | 1 << i),
        )
    }

    /// Notes that `t` searched the digits of `digits` in the current
    /// position to the end and found nothing.
    pub(in crate::logic) fn digits_failed(&mut self, board: &Board, t: Technique, digits: Digits) {
        self.digits_failed_by(board, t.bit(), digits);
    }

    /// [`Run::digits_failed`] for a search named by its fact bit.
    pub(in crate::logic) fn digits_failed_by(&mut self, board: &Board, b: u64, digits: Digits) {
        if digits.is_empty() || self.past_deadline() {
            return;
        }
        let digits = digits.bits();
        let (here, grew) = self.digit_facts_here(board);
        for (i, facts) in here.iter_mut().enumerate() {
            if digits & (1 << i) != 0 && *facts & b == 0 {
                *facts |= b;
                *grew |= 1 << i;
            }
        }
    }
}

/// A search digit by digit, with its facts.
impl Run {
    /// The first step `search` finds, digit by digit, lowest first, on
    /// the digits of the grid but those on which `t` is known to find
    /// nothing here; the digits searched to the end before it (all of
    /// them when none is found) are noted as searched in vain. For the
    /// techniques that read and strike one digit's places alone.
    pub(in crate::logic) fn first_by_digit<T>(
        &mut self,
        board: &Board,
        t: Technique,
        mut search: impl FnMut(u8) -> Option<T>,
    ) -> Option<T> {
        self.first_on_digits(board, t, Digits::EMPTY, |d| {
            search(d).map_or(OnDigit::InVain, OnDigit::Found)
        })
    }

    /// [`Run::first_by_digit`] for a search that also skips the digits
    /// of `also`, and that may end on a digit without a step and without
    /// proving there is none ([`OnDigit::Unproven`], not noted).
    pub(in crate::logic) fn first_on_digits<T>(
        &mut self,
        board: &Board,
        t: Technique,
        also: Digits,
        mut search: impl FnMut(u8) -> OnDigit<T>,
    ) -> Option<T> {
        let skip = self.digits_to_skip(board, t) | also;
        let mut failed = Digits::EMPTY;
        for d in (Digits::all(board.side) & !skip).iter() {
            match search(d) {
                OnDigit::Found(found) => {
                    self.digits_failed(board, t, failed);
                    return Some(found);
                }
                OnDigit::InVain => failed.insert(d),
                OnDigit::Unproven => {}
            }
        }
        self.digits_failed(board, t, failed);
        None
    }
}

/// How a search on one digit ended ([`Run::first_on_digits`]).
pub(in crate::logic) enum OnDigit<T> {
    /// With a step.
    Found(T),
    /// Without one, searched to the end: noted as searched in vain.
    InVain,
    /// Without one, but not searched to the end (not noted).
    Unproven,
}

/// The searches in vain of one run (`V` in the table).
impl Run {
    /// For each unit, whether its cells hold what they held where `t`
    /// (`V` in the table) last searched in vain on this board (so it finds
    /// nothing there now); `None` when it has not, or candidates came
    /// back since.
    pub(in crate::logic) fn units_unchanged(
        &mut self,
        board: &Board,
        t: Technique,
    ) -> Option<Arc<Vec<bool>>> {
        if self.notes_off() {
            return None;
        }
        let (_, then) = self.facts.vain.get(t as usize)?.as_ref()?;
        let then = Arc::clone(then);
        let at = board.steps.len();
        if let Some((s, copy, units)) = &self.facts.unchanged {
            if *s == at && Arc::ptr_eq(copy, &then) {
                return Some(Arc::clone(units));
            }
        }
        let changed = board.units_changed_since(&then)?;
        let units = Arc::new((0..board.units.len()).map(|k| !changed.has(k)).collect());
        self.facts.unchanged = Some((at, then, Arc::clone(&units)));
        Some(units)
    }

    /// The position (steps taken) where `t` (`V` in the table) last searched in
    /// vain on this board, if no candidate came back since.
    pub(in crate::logic) fn searched_in_vain_at(
        &self,
        board: &Board,
        t: Technique,
    ) -> Option<usize> {
        if self.notes_off() {
            return None;
        }
        let (at, then) = self.facts.vain.get(t as usize)?.as_ref()?;
        board.within(then).then_some(*at)
    }

    /// Notes that `t` searched the whole position in vain (kept for the
    /// techniques of `V` in the table).
    pub(in crate::logic) fn searched_in_vain(&mut self, board: &Board, t: Technique) {
        if !t.info().in_vain_kept() || self.past_deadline() {
            return;
        }
        let at = board.steps.len();
        let copy = match &self.facts.vain_here {
            Some((s, copy)) if *s == at => Arc::clone(copy),
            _ => {
                let copy = Arc::new(board.cands.clone());
                self.facts.vain_here = Some((at, Arc::clone(&copy)));
                copy
            }
        };
        let i = t as usize;
        if self.facts.vain.len() <= i {
            self.facts.vain.resize(i + 1, None);
        }
        self.facts.vain[i] = Some((at, copy));
    }
}

/// What the searches in vain compare a position with.
impl Board {
    /// The units (bit `k % 64` of word `k / 64`; at most 3 * 64 units)
    /// with a cell whose candidates are not those of `then`, found in one
    /// pass over the cells; `None` when a cell holds a candidate it did
    /// not hold in `then` (or `then` is of another grid).
    pub(in crate::logic) fn units_changed_since(&self, then: &[u64]) -> Option<[u64; 3]> {
        if then.len() != self.cands.len() {
            return None;
        }
        let mut changed = [0u64; 3];
        for (c, (&now, &was)) in self.cands.iter().zip(then).enumerate() {
            if now & !was != 0 {
                return None;
            }
            if now != was {
                for &k in &self.cell_units[c] {
                    changed.put(k);
                }
            }
        }
        Some(changed)
    }

    /// Whether every cell holds only candidates it held in `then`.
    fn within(&self, then: &[u64]) -> bool {
        self.cands.len() == then.len() && self.cands.iter().zip(then).all(|(c, p)| c & !p == 0)
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::Grid;
    use crate::logic::{Board, Digits, Ladder, Solver, Technique};

    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn a_fact_holds_while_the_digit_places_stay_and_only_then() {
        let p: Grid = HARD.parse().unwrap();
        let mut b = Solver::with_ladder(&p, Ladder::all()).unwrap();
        assert!(b.run.digits_to_skip(&b.board, Technique::XWing).is_empty());
        b.run
            .digits_failed(&b.board, Technique::XWing, 0b101.into());
        assert_eq!(
            b.run.digits_to_skip(&b.board, Technique::XWing).bits(),
            0b101
        );
        assert!(b
            .run
            .digits_to_skip(&b.board, Technique::Swordfish)
            .is_empty());
        // Strike a 1: the fact on 1 no longer applies, the one on 3 does.
        let c1 = (0..81).find(|&c| b.cands[c] & 1 != 0).unwrap();
        b.apply(crate::logic::Step {
            technique: Technique::XWing,
            unit: None,
            digits: vec![1],
            cells: vec![],
            placed: None,
            eliminated: vec![(c1, 1)],
            chains: vec![],
        });
        assert_eq!(
            b.run.digits_to_skip(&b.board, Technique::XWing).bits(),
            0b100
        );
        // Back where the digit's places were: the fact holds again.
        let mut again = Solver::with_ladder(&p, Ladder::all()).unwrap();
        again.note_findings(None);
        b.note_findings(None);
        let facts = b.take_findings();
        again.note_findings(facts);
        assert_eq!(
            again.run.digits_to_skip(&again.board, Technique::XWing),
            Digits::from_bits(0b101)
        );
    }

    /// Every step of the whole ladder, position by position, equals the
    /// step a twin of the board finds without any facts (nor searches in
    /// vain kept). Returns the digit facts used, the units left unchanged
    /// since a search in vain, and the positions where the XY-chain
    /// search was known to find nothing.
    fn same_steps_without_facts(p: &str) -> (usize, [usize; 3], usize) {
        let grid: Grid = p.parse().unwrap();
        let mut board = Solver::with_ladder(&grid, Ladder::all()).unwrap();
        board.assume_unique();
        let (mut skipped, mut unchanged, mut xy) = (0, [0; 3], 0);
        loop {
            let mut twin = board.clone();
            twin.run.facts.off = true;
            let at = board.steps.len();
            xy += usize::from(
                board
                    .families
                    .chains
                    .xy_chains_in_vain(&board.board, &board.run),
            );
            skipped += board
                .run
                .digits_to_skip(&board.board, Technique::FinnedSwordfish)
                .len();
            for (i, t) in [
                Technique::LockedPair,
                Technique::LockedCandidates,
                Technique::SueDeCoq,
            ]
            .into_iter()
            .enumerate()
            {
                unchanged[i] += board
                    .run
                    .units_unchanged(&board.board, t)
                    .map_or(0, |u| u.iter().filter(|&&s| s).count());
            }
            let (a, b) = (board.step(), twin.step());
            assert_eq!(a, b, "{p} at step {at}");
            if !a {
                break;
            }
            assert_eq!(board.steps[at..], twin.steps[at..], "{p} at step {at}");
            board.contradiction = board.find_contradiction();
            if board.contradiction || board.grid.is_full() {
                break;
            }
        }
        (skipped, unchanged, xy)
    }

    #[test]
    fn the_facts_change_no_step() {
        // Magictour top1465's first 60 puzzles and 60 random minimal ones.
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/9x9/");
        let read = |name: &str| std::fs::read_to_string(format!("{data}{name}")).unwrap();
        let (top, random) = (
            read("puzzles3_magictour_top1465"),
            read("gen_random_minimal_10k.txt"),
        );
        let lines = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| l.len() >= 81 && !l.starts_with('#'))
                .take(60)
                .map(|l| l[..81].to_string())
                .collect()
        };
        let (skipped, unchanged, xy) = lines(&top)
            .iter()
            .chain(&lines(&random))
            .map(|p| same_steps_without_facts(p))
            .fold((0, [0; 3], 0), |(a, b, x), (c, d, y)| {
                (a + c, [b[0] + d[0], b[1] + d[1], b[2] + d[2]], x + y)
            });
        // The facts were used, the units unchanged since a search in vain
        // of locked pairs, locked candidates and Sue de Coq, and the
        // XY-chain searches known to find nothing, or the test proves
        // nothing.
        assert!(
            skipped > 0 && unchanged.iter().all(|&u| u > 0) && xy > 0,
            "{skipped} {unchanged:?} {xy}"
        );
    }

    #[test]
    fn a_search_by_digit_notes_the_digits_searched_in_vain_and_only_those() {
        let p: Grid = HARD.parse().unwrap();
        let mut s = Solver::with_ladder(&p, Ladder::all()).unwrap();
        let (board, run) = (&s.board, &mut s.run);
        // 3 skipped, 1 in vain, 2 not proven, found on 4: 1 alone noted.
        let found = run.first_on_digits(board, Technique::XWing, Digits::of(3), |d| match d {
            2 => super::OnDigit::Unproven,
            4 => super::OnDigit::Found(d),
            _ => super::OnDigit::InVain,
        });
        assert_eq!(found, Some(4));
        assert_eq!(run.digits_to_skip(board, Technique::XWing), Digits::of(1));
        // Nothing found: every digit is noted.
        let none: Option<u8> = run.first_by_digit(board, Technique::Swordfish, |_| None);
        assert_eq!(none, None);
        assert_eq!(
            run.digits_to_skip(board, Technique::Swordfish),
            Digits::all(9)
        );
    }

    #[test]
    fn the_searches_fact_bits_are_no_techniques() {
        for info in crate::logic::TABLE {
            assert!(super::SEARCHES.iter().all(|&b| b != info.technique.bit()));
        }
        assert_ne!(super::SEARCHES[0], super::SEARCHES[1]);
    }

    #[test]
    fn boards_and_findings_may_go_to_another_thread() {
        fn send<T: Send>() {}
        send::<Board>();
        send::<Solver>();
        send::<crate::logic::Findings>();
    }

    #[test]
    fn facts_travel_to_another_board_of_the_puzzle() {
        let p: Grid = HARD.parse().unwrap();
        let mut a = Solver::with_ladder(&p, Ladder::all()).unwrap();
        a.note_findings(None);
        a.run
            .digits_failed(&a.board, Technique::Skyscraper, Digits::of(9));
        let mut b = Solver::with_ladder(&p, Ladder::all()).unwrap();
        b.note_findings(a.take_findings());
        assert_eq!(
            b.run.digits_to_skip(&b.board, Technique::Skyscraper),
            Digits::of(9)
        );
    }
}
