//! Intersections: locked candidates, pointing and claiming (`!`).

use std::cell::RefCell;
use std::rc::Rc;

use crate::grid::BoxShape;
use crate::grid::Unit;
use crate::logic::memo::Run;
use crate::logic::words::Words;
use crate::logic::{bit, Board, Step, Technique};

/// What the techniques that follow one another on a position read of it
/// again and again: every digit's places in every unit. A function of
/// the shape and the candidates alone,
/// so kept per thread for the last position asked about (the ladder asks
/// for it up to ten times between two steps, and a board dug on a large
/// grid stalls on many positions).
pub(in crate::logic) struct Table {
    /// `places[k * side + d - 1]`: digit `d`'s places in unit `k`, as
    /// [`Board::places`] gives them.
    pub(in crate::logic) places: Vec<u64>,
}

/// A position's table with what names the position: its shape and its
/// candidates.
type Memo = (BoxShape, Vec<u64>, Rc<Table>);

thread_local! {
    /// The last position's table.
    static TABLE: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// The intersections family (locked candidates: pointing and claiming): its
/// finders, called as `Intersections.finder(board, …)`; it keeps nothing
/// between calls.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::logic) struct Intersections;

impl Board {
    /// The [`Table`] of the current position.
    pub(in crate::logic) fn table(&self) -> Rc<Table> {
        let shape = self.grid.shape();
        TABLE.with(|memo| {
            let mut memo = memo.borrow_mut();
            if let Some((s, cands, table)) = &*memo {
                if *s == shape && *cands == self.cands {
                    return Rc::clone(table);
                }
            }
            let n = self.side;
            // HoDoKu's queues keep the places as the candidates go.
            let places = match &self.queues {
                Some(q) => q.places().to_vec(),
                None => {
                    let mut places = vec![0u64; 3 * n * n];
                    let mut one = [0u64; 64];
                    for k in 0..3 * n {
                        self.unit_places(k, &mut one);
                        places[k * n..(k + 1) * n].copy_from_slice(&one[..n]);
                    }
                    places
                }
            };
            debug_assert!((0..3 * n).all(|k| {
                let mut one = [0u64; 64];
                self.unit_places(k, &mut one);
                places[k * n..(k + 1) * n] == one[..n]
            }));
            let table = Rc::new(Table { places });
            match &mut *memo {
                Some((s, cands, t)) => {
                    *s = shape;
                    cands.clone_from(&self.cands);
                    *t = Rc::clone(&table);
                }
                None => *memo = Some((shape, self.cands.clone(), Rc::clone(&table))),
            }
            table
        })
    }

    /// Every digit's places in unit `k` at once: `places[d - 1]` gets bit
    /// `i` when the unit's `i`-th cell may hold `d` (what
    /// [`Board::places`] gives one digit at a time), for the digits of the
    /// grid; one pass over the unit's cells.
    pub(in crate::logic) fn unit_places(&self, k: usize, places: &mut [u64; 64]) {
        places[..self.side].fill(0);
        for (pos, &c) in self.units[k].iter().enumerate() {
            let mut m = self.cands[c];
            while m != 0 {
                places[m.trailing_zeros() as usize] |= 1u64 << pos;
                m &= m - 1;
            }
        }
    }
}

impl Intersections {
    /// One pointing or claiming deduction that strikes something, in
    /// HoDoKu's order: pointing (boxes) first, then claiming from rows,
    /// then from columns.
    pub(in crate::logic) fn locked_candidates(&mut self, board: &mut Board, run: &mut Run) -> bool {
        let n = board.side;
        self.locked_candidates_in(board, run, (2 * n..3 * n).chain(0..2 * n))
    }

    /// [`Intersections::locked_candidates`] from these units only: boxes
    /// (`2n..3n`) give pointing alone.
    pub(in crate::logic) fn locked_candidates_in(
        &mut self,
        board: &mut Board,
        run: &mut Run,
        units: impl Iterator<Item = usize>,
    ) -> bool {
        let n = board.side;
        let shape = board.grid.shape();
        let (w, h) = (shape.width(), shape.height());
        let ones = |len: usize| {
            if len >= 64 {
                u64::MAX
            } else {
                (1u64 << len) - 1
            }
        };
        // Within a box, the positions (bit `i` for its `i`-th cell) of its
        // first column; shifted, of any column.
        let box_col = (0..h).fold(0u64, |m, r| m | 1u64 << (r * w));
        let table = board.table();
        // The units unchanged since a search of every unit found nothing.
        let unchanged = run.units_unchanged(board, Technique::LockedCandidates);
        for k in units {
            if unchanged.as_ref().is_some_and(|u| u[k]) {
                continue;
            }
            // The slot of `cell_units` that holds unit k's kind.
            let kind = k / n;
            // Every digit's places in k, in one pass over its cells (no
            // allocation on this hot path: most pairs of unit and digit
            // strike nothing).
            let places = &table.places[k * n..(k + 1) * n];
            for d in 1..=n as u8 {
                let b = bit(d);
                let p = places[d as usize - 1];
                // Fewer than two places.
                if p & p.wrapping_sub(1) == 0 {
                    continue;
                }
                let f = p.trailing_zeros() as usize;
                let first = board.units[k][f];
                // Which of their row, column and box the places all share
                // (the positions of k in the first place's unit of each
                // slot; none but the first for a line across k).
                let along = match kind {
                    // A row: its box holds w places in a run; a column: h.
                    0 => [0, 1u64 << f, ones(w) << (f / w * w)],
                    1 => [1u64 << f, 0, ones(h) << (f / h * h)],
                    _ => [ones(w) << (f / w * w), box_col << (f % w), 0],
                };
                let shared = along.map(|m| p & !m == 0);
                for (slot, &same) in shared.iter().enumerate() {
                    let other = board.cell_units[first][slot];
                    if other == k || !same {
                        continue;
                    }
                    // The other unit's places of d outside k.
                    if table.places[other * n + d as usize - 1] & !board.crossing(other, k) == 0 {
                        continue;
                    }
                    let strikes =
                        |c: &usize| board.cands[*c] & b != 0 && board.cell_units[*c][kind] != k;
                    let eliminated: Vec<(usize, u8)> = board.units[other]
                        .iter()
                        .filter(|c| strikes(c))
                        .map(|&c| (c, d))
                        .collect();
                    let cells: Vec<usize> = board.units[k]
                        .iter()
                        .copied()
                        .filter(|&c| board.cands[c] & b != 0)
                        .collect();
                    board.apply(Step {
                        technique: Technique::LockedCandidates,
                        unit: Some(board.unit_of(k)),
                        digits: vec![d],
                        cells,
                        placed: None,
                        eliminated,
                        chains: Vec::new(),
                    });
                    return true;
                }
            }
        }
        false
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let d0 = step.digits.first().copied();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (Technique::LockedCandidates, None) if step.unit.is_some() && d0.is_some() => {
            let (unit, d) = (step.unit.unwrap_or(Unit::Row(0)), d0.unwrap_or(1));
            let other = w
                .shared(&step.cells)
                .into_iter()
                .find(|&u| u != unit && matches!(unit, Unit::Box(_)) != matches!(u, Unit::Box(_)));
            let kind = if matches!(unit, Unit::Box(_)) {
                "pointing"
            } else {
                "claiming"
            };
            let within = other.map(|o| w.unit(o)).unwrap_or_default();
            format!(
                "{name} ({kind}): {} of {} lies only in {within} ({}): {removes}",
                w.digit(d),
                w.unit(unit),
                w.cells(&step.cells)
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::grid::Grid;
    use crate::logic::{Ladder, Solver, Technique};
    use crate::samples::HARD;

    #[test]
    fn pointing_comes_before_claiming() {
        // Digit 1 claims: row 1's places all in box 1 (r1c1, r1c2), and
        // points: box 9's places all in column 9 (r7c9, r8c9). HoDoKu
        // looks at the boxes first.
        let p = Grid::empty(crate::grid::BoxShape::new(3, 3).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        for c in 2..9 {
            b.cands[c] &= !1;
        }
        for c in [60, 61, 69, 70, 78, 79, 80] {
            b.cands[c] &= !1;
        }
        assert!(b.find(Technique::LockedCandidates));
        let s = b.steps().last().unwrap();
        assert_eq!(s.unit, Some(crate::grid::Unit::Box(8)));
        assert_eq!(s.cells, vec![62, 71]);
        assert!(b.find(Technique::LockedCandidates));
        assert_eq!(
            b.steps().last().unwrap().unit,
            Some(crate::grid::Unit::Row(0))
        );
    }

    #[test]
    fn the_table_is_every_places_of_its_position() {
        let p: Grid = HARD.parse().unwrap();
        let mut b = Solver::with_ladder(&p, Ladder::seed()).unwrap();
        for _ in 0..2 {
            let t = b.table();
            for k in 0..27 {
                for d in 1..=9u8 {
                    assert_eq!(
                        t.places[k * 9 + d as usize - 1],
                        b.places(k, d),
                        "unit {k}, {d}"
                    );
                }
            }
            // A new position (a candidate struck) gets a new table.
            let c = (0..81).find(|&c| b.candidates(c).len() > 2).unwrap();
            let d = b.candidates(c).iter().next().unwrap();
            b.cands[c] &= b.cands[c] - 1;
            let row = c / 9;
            assert_ne!(
                b.table().places[row * 9 + d as usize - 1],
                t.places[row * 9 + d as usize - 1]
            );
        }
    }
}
