//! Singles: naked singles (silent) and hidden singles (`i`).
//!
//! The seed ladder fills every single a pass finds, as the macro did.
//! Every other ladder takes one single per step, as HoDoKu does, and
//! which one is HoDoKu's choice: its board keeps two queues, filled as
//! candidates go (a cell left with one candidate joins the naked queue,
//! a digit left with one place in a unit the hidden queue), and takes
//! the oldest single first: a full house, else the naked queue's head,
//! else the hidden queue's. A hidden single scores 14 and a naked one 4,
//! so the order decides how many of the placements are which, and
//! HoDoKu's scores count on it. [`Queues`] keeps them the same way, in
//! the order HoDoKu's `setCell` and `delCandidate` fill them.

use std::collections::VecDeque;

use crate::logic::words::Words;
use crate::logic::Step;
use crate::logic::{bit, Board, Technique};

/// HoDoKu's queues of singles, and what fills them: where each digit may
/// still go in each unit.
#[derive(Debug, Clone)]
pub(in crate::logic) struct Queues {
    side: usize,
    /// `places[k * side + d - 1]`: the positions in unit `k` (bit `i` for
    /// its `i`-th cell) of the blanks holding `d` (HoDoKu counts them:
    /// its `free`).
    places: Vec<u64>,
    /// Cells left with one candidate, and that candidate, oldest first.
    naked: VecDeque<(usize, u8)>,
    /// Digits left with one place in a unit: the place and the digit.
    hidden: VecDeque<(usize, u8)>,
    /// A blank was left without a candidate, or a digit without a place
    /// in a unit it is missing from: what [`Board::find_contradiction`]
    /// looks for, noted as it happens.
    pub(in crate::logic) broken: bool,
    /// Whether singles are queued: a run that takes them in its own order
    /// (Sudoku Explainer's) keeps the places alone.
    queuing: bool,
}

impl Queues {
    /// The queues of an empty grid: every digit everywhere.
    pub(in crate::logic) fn new(side: usize) -> Box<Queues> {
        let all = crate::logic::all_digits(side);
        Box::new(Queues {
            side,
            places: vec![all; 3 * side * side],
            naked: VecDeque::new(),
            hidden: VecDeque::new(),
            broken: false,
            queuing: true,
        })
    }

    /// Stops queuing singles (and drops those queued): the places and
    /// [`Queues::broken`] are kept up to date alone, for a run that finds
    /// its singles itself.
    pub(in crate::logic) fn places_only(&mut self) {
        self.queuing = false;
        self.naked.clear();
        self.hidden.clear();
    }

    /// Whether singles are queued (not [`Queues::places_only`]).
    pub(in crate::logic) fn queuing(&self) -> bool {
        self.queuing
    }

    /// Every digit's places in every unit (`places[k * side + d - 1]`), as
    /// [`Board::table`] lays them out.
    pub(in crate::logic) fn places(&self) -> &[u64] {
        &self.places
    }

    /// Takes the cell at position `pos` of unit `k` out of digit `d`'s
    /// places there and returns what is left; with `queue`, a digit left
    /// with one place queues it (HoDoKu's `free` down to 1).
    fn count_down(
        &mut self,
        units: &[Vec<usize>],
        (k, pos): (usize, u8),
        d: u8,
        queue: bool,
    ) -> u64 {
        let places = &mut self.places[k * self.side + d as usize - 1];
        debug_assert!(*places & (1 << pos) != 0, "unit {k} loses {d} twice");
        *places &= !(1u64 << pos);
        let left = *places;
        if queue && self.queuing && left != 0 && left & (left - 1) == 0 {
            self.hidden
                .push_back((units[k][left.trailing_zeros() as usize], d));
        }
        left
    }
}

/// The singles family (naked and hidden singles): its finders, called as
/// `Singles.finder(board, …)`; it keeps nothing between calls.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::logic) struct Singles;

impl Board {
    /// Strikes `d` from `cell` and fills the queues as HoDoKu's
    /// `delCandidate` does: a unit of the cell (row, column, box) left
    /// with one place of `d` queues that place, and the cell, left with
    /// one candidate, queues itself.
    pub(in crate::logic) fn strike_queued(&mut self, cell: usize, d: u8) {
        let Board {
            cands,
            queues,
            units,
            cell_units,
            cell_pos,
            ..
        } = self;
        if cands[cell] & bit(d) == 0 {
            return;
        }
        cands[cell] &= !bit(d);
        let Some(q) = queues else {
            return;
        };
        for slot in 0..3 {
            // No place left, and `d` is not placed in the unit (its
            // placement takes the last place itself).
            let at = (cell_units[cell][slot], cell_pos[cell][slot]);
            if q.count_down(units, at, d, true) == 0 {
                q.broken = true;
            }
        }
        let m = cands[cell];
        if m == 0 {
            q.broken = true;
        } else if q.queuing && m & (m - 1) == 0 {
            q.naked.push_back((cell, m.trailing_zeros() as u8 + 1));
        }
    }

    /// Places `d` in `cell` as HoDoKu's `setCell` does: strikes it from
    /// the peers in order, then takes the cell's own candidates out of
    /// its units' places (a digit left with one place there is queued).
    pub(in crate::logic) fn assign_queued(&mut self, cell: usize, d: u8) {
        let peers = self.peers.clone();
        for &p in &peers[cell] {
            self.strike_queued(p, d);
        }
        let own = self.cands[cell];
        self.cands[cell] = 0;
        let Board {
            queues,
            units,
            cell_units,
            cell_pos,
            ..
        } = self;
        let Some(q) = queues else {
            return;
        };
        for e in crate::logic::digits_of(own) {
            for slot in 0..3 {
                // HoDoKu queues no single of the digit placed; another
                // digit whose last place this was has none left.
                let at = (cell_units[cell][slot], cell_pos[cell][slot]);
                if q.count_down(units, at, e, e != d) == 0 && e != d {
                    q.broken = true;
                }
            }
        }
    }
}

impl Singles {
    /// One naked single: HoDoKu's next one from the queues, or (the
    /// seed's ladder) every one a pass finds.
    pub(in crate::logic) fn find_naked_single(&mut self, board: &mut Board) -> bool {
        if board.queues.as_ref().is_some_and(|q| q.queuing()) {
            self.queued_naked_single(board)
        } else {
            self.naked_singles(board)
        }
    }

    /// One hidden single: HoDoKu's next one from the queues, or (the
    /// seed's ladder) every one a pass finds.
    pub(in crate::logic) fn find_hidden_single(&mut self, board: &mut Board) -> bool {
        if board.queues.as_ref().is_some_and(|q| q.queuing()) {
            self.queued_hidden_single(board)
        } else {
            self.hidden_singles(board)
        }
    }

    /// HoDoKu's next naked single: the first queued cell that is the last
    /// blank of a unit (a full house), else the first queued cell still
    /// blank (taken off the queue). True if one was placed.
    pub(in crate::logic) fn queued_naked_single(&mut self, board: &mut Board) -> bool {
        let Some(mut q) = board.queues.take() else {
            return false;
        };
        let blank = |b: &Board, c: usize| b.grid.cells()[c] == 0;
        let full_house = q.naked.iter().copied().find(|&(c, _)| {
            blank(board, c)
                && board.cell_units[c]
                    .iter()
                    .any(|&k| board.units[k].iter().all(|&o| o == c || !blank(board, o)))
        });
        let next = full_house.or_else(|| {
            while let Some((c, d)) = q.naked.pop_front() {
                if blank(board, c) {
                    return Some((c, d));
                }
            }
            None
        });
        board.queues = Some(q);
        let Some((cell, d)) = next else {
            return false;
        };
        if board.cands[cell] != bit(d) {
            // Not a single any more: the position is broken.
            return false;
        }
        board.place(Technique::NakedSingle, None, cell, d);
        true
    }

    /// HoDoKu's next hidden single: the hidden queue's first entry whose
    /// cell is still blank (solved cells' entries are dropped), if the
    /// digit still has that one place in a unit of the cell. True if one
    /// was placed; false, as in HoDoKu, when the first blank cell's entry
    /// no longer holds.
    pub(in crate::logic) fn queued_hidden_single(&mut self, board: &mut Board) -> bool {
        let Some(mut q) = board.queues.take() else {
            return false;
        };
        let mut next = None;
        while let Some((c, d)) = q.hidden.pop_front() {
            if board.grid.cells()[c] == 0 {
                next = Some((c, d));
                break;
            }
        }
        board.queues = Some(q);
        let Some((cell, d)) = next else {
            return false;
        };
        let unit = board.cell_units[cell].iter().copied().find(|&k| {
            board.cands[cell] & bit(d) != 0
                && board.units[k]
                    .iter()
                    .all(|&o| o == cell || board.cands[o] & bit(d) == 0)
        });
        let Some(k) = unit else {
            return false;
        };
        let unit = board.unit_of(k);
        board.place(Technique::HiddenSingle, Some(unit), cell, d);
        true
    }

    /// Fills every cell left with one candidate; true if any.
    pub(in crate::logic) fn naked_singles(&mut self, board: &mut Board) -> bool {
        let mut any = false;
        loop {
            let mut found = false;
            for i in 0..board.cands.len() {
                let m = board.cands[i];
                if m != 0 && m & (m - 1) == 0 {
                    let d = m.trailing_zeros() as u8 + 1;
                    board.place(Technique::NakedSingle, None, i, d);
                    found = true;
                }
            }
            if !found {
                return any;
            }
            any = true;
        }
    }

    /// Places every digit found with one place in a unit, in one pass over
    /// the units (columns, rows, then boxes: the seed's group order); each
    /// placement is one `i`. True if any.
    pub(in crate::logic) fn hidden_singles(&mut self, board: &mut Board) -> bool {
        let n = board.side;
        self.hidden_singles_in(board, (n..2 * n).chain(0..n).chain(2 * n..3 * n))
    }

    /// [`Singles::hidden_singles`] in these units only, in this order.
    pub(in crate::logic) fn hidden_singles_in(
        &mut self,
        board: &mut Board,
        units: impl Iterator<Item = usize>,
    ) -> bool {
        let mut any = false;
        for k in units {
            let mut once = 0u64;
            let mut twice = 0u64;
            for &c in &board.units[k] {
                let m = board.cands[c];
                twice |= once & m;
                once |= m;
            }
            let mut single = once & !twice;
            while single != 0 {
                let d = single.trailing_zeros() as u8 + 1;
                single &= single - 1;
                // An earlier placement of this pass may have taken the place.
                let place = board.units[k]
                    .iter()
                    .copied()
                    .find(|&c| board.cands[c] & bit(d) != 0);
                if let Some(cell) = place {
                    let unit = board.unit_of(k);
                    board.place(Technique::HiddenSingle, Some(unit), cell, d);
                    any = true;
                }
            }
        }
        any
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    Some(match (step.technique, step.placed) {
        (Technique::NakedSingle, Some((c, d))) => {
            format!("{name}: {} = {}", w.cell(c), w.digit(d))
        }
        (Technique::HiddenSingle, Some((c, d))) => match step.unit {
            Some(u) => format!(
                "{name}: {} has one place in {} → {}",
                w.digit(d),
                w.unit(u),
                w.cell(c)
            ),
            None => format!("{name}: {} = {}", w.cell(c), w.digit(d)),
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::grid::Grid;
    use crate::logic::{Ladder, Solver, Technique};
    use crate::samples::EASY;

    #[test]
    fn the_full_ladder_takes_one_single_per_step_naked_first() {
        // HoDoKu places one single and starts again from the top, so a
        // cell a placement leaves with one candidate is a naked single (4
        // points), not a hidden one (14): its scores count on it.
        let p: Grid = EASY.parse().unwrap();
        let mut b = Solver::with_ladder(&p, Ladder::all()).unwrap();
        while !b.grid.is_full() {
            let naked = b.cands.iter().any(|&m| m != 0 && m & (m - 1) == 0);
            let before = b.steps.len();
            assert!(b.step());
            assert_eq!(b.steps.len(), before + 1);
            let t = b.steps[before].technique;
            assert!(!naked || t == Technique::NakedSingle, "{t:?}");
        }
    }

    #[test]
    fn singles_come_in_hodokus_order() {
        // The steps HoDoKu 2.2 took on the puzzles it rates easy (singles
        // only) among the first 200 random minimal ones, saved with its
        // answers: full house and naked single (both a naked single
        // here) or hidden single, one by one. The ladder takes the same.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/rating/hodoku_reference/gen_random_minimal_first200.txt"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let mut easy = 0;
        for line in text.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f[1] != "EASY" {
                continue;
            }
            easy += 1;
            let theirs: Vec<&str> = f[4]
                .split(',')
                .map(|s| if s == "FULL_HOUSE" { "NAKED_SINGLE" } else { s })
                .collect();
            let p: Grid = f[0].parse().unwrap();
            let mut b = Solver::with_ladder(&p, Ladder::all()).unwrap();
            b.run(None);
            let ours: Vec<&str> = b
                .steps
                .iter()
                .map(|s| match s.technique {
                    Technique::NakedSingle => "NAKED_SINGLE",
                    Technique::HiddenSingle => "HIDDEN_SINGLE",
                    _ => "other",
                })
                .collect();
            assert_eq!(ours, theirs, "{}", f[0]);
        }
        assert!(easy > 50, "{easy}");
    }

    #[test]
    fn the_queues_tell_a_contradiction_as_the_scan_does() {
        // Along the ladder on hard puzzles, and after a wrong digit placed
        // at each of their first positions (which breaks the position at
        // once or a few steps on), the contradiction noted as candidates
        // go is the one a scan of every cell and unit finds.
        let mut broken = 0;
        for (_, grid) in crate::logic::tests::hard_puzzles(30) {
            let solution = crate::logic::tests::brute_force(&grid).unwrap();
            let mut b = Solver::with_ladder(&grid, Ladder::all()).unwrap();
            for wrong_at in 0..12 {
                let mut w = b.clone();
                let cell = (0..81).find(|&c| w.cands[c].count_ones() >= 2).unwrap();
                let right = solution.cells()[cell];
                let d = (1..=9u8)
                    .find(|&d| d != right && w.cands[cell] & (1 << (d - 1)) != 0)
                    .unwrap();
                w.place(Technique::Guess, None, cell, d);
                for _ in 0..wrong_at {
                    assert_eq!(w.find_contradiction(), w.scan_for_contradiction());
                    if w.find_contradiction() || w.grid.is_full() || !w.step() {
                        break;
                    }
                }
                assert_eq!(w.find_contradiction(), w.scan_for_contradiction());
                broken += usize::from(w.find_contradiction());
                assert_eq!(b.find_contradiction(), b.scan_for_contradiction());
                if b.grid.is_full() || !b.step() {
                    break;
                }
            }
        }
        assert!(broken > 20, "{broken}");
    }

    #[test]
    fn the_seed_ladder_fills_every_hidden_single_of_a_pass() {
        // The macro's history: one `i` per placement of a pass.
        let p: Grid = EASY.parse().unwrap();
        let mut b = Solver::with_ladder(&p, Ladder::seed()).unwrap();
        assert!(b.step());
        assert!(b.steps.len() > 1, "{:?}", b.steps);
    }
}
