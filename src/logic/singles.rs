//! Singles: naked singles (silent) and hidden singles (`i`).

use super::{bit, Board, Technique};

impl Board {
    /// Fills every cell left with one candidate; true if any.
    pub(super) fn naked_singles(&mut self) -> bool {
        let mut any = false;
        loop {
            let mut found = false;
            for i in 0..self.cands.len() {
                let m = self.cands[i];
                if m != 0 && m & (m - 1) == 0 {
                    let d = m.trailing_zeros() as u8 + 1;
                    self.place(Technique::NakedSingle, None, i, d);
                    found = true;
                }
            }
            if !found {
                return any;
            }
            any = true;
        }
    }

    /// Fills the first cell (in reading order) left with one candidate;
    /// true if there is one.
    pub(super) fn naked_single(&mut self) -> bool {
        let Some(i) = self.cands.iter().position(|&m| m != 0 && m & (m - 1) == 0) else {
            return false;
        };
        let d = self.cands[i].trailing_zeros() as u8 + 1;
        self.place(Technique::NakedSingle, None, i, d);
        true
    }

    /// Places the first digit found with one place in a unit (columns,
    /// rows, then boxes; digits in order); true if there is one.
    pub(super) fn hidden_single(&mut self) -> bool {
        let n = self.side;
        for k in (n..2 * n).chain(0..n).chain(2 * n..3 * n) {
            let mut once = 0u64;
            let mut twice = 0u64;
            for &c in &self.units[k] {
                let m = self.cands[c];
                twice |= once & m;
                once |= m;
            }
            let single = once & !twice;
            if single != 0 {
                let d = single.trailing_zeros() as u8 + 1;
                let place = self.units[k]
                    .iter()
                    .copied()
                    .find(|&c| self.cands[c] & bit(d) != 0);
                if let Some(cell) = place {
                    let unit = self.unit_of(k);
                    self.place(Technique::HiddenSingle, Some(unit), cell, d);
                    return true;
                }
            }
        }
        false
    }

    /// Places every digit found with one place in a unit, in one pass over
    /// the units (columns, rows, then boxes: the seed's group order); each
    /// placement is one `i`. True if any.
    pub(super) fn hidden_singles(&mut self) -> bool {
        let n = self.side;
        self.hidden_singles_in((n..2 * n).chain(0..n).chain(2 * n..3 * n))
    }

    /// [`Board::hidden_singles`] in these units only, in this order.
    pub(super) fn hidden_singles_in(&mut self, units: impl Iterator<Item = usize>) -> bool {
        let mut any = false;
        for k in units {
            let mut once = 0u64;
            let mut twice = 0u64;
            for &c in &self.units[k] {
                let m = self.cands[c];
                twice |= once & m;
                once |= m;
            }
            let mut single = once & !twice;
            while single != 0 {
                let d = single.trailing_zeros() as u8 + 1;
                single &= single - 1;
                // An earlier placement of this pass may have taken the place.
                let place = self.units[k]
                    .iter()
                    .copied()
                    .find(|&c| self.cands[c] & bit(d) != 0);
                if let Some(cell) = place {
                    let unit = self.unit_of(k);
                    self.place(Technique::HiddenSingle, Some(unit), cell, d);
                    any = true;
                }
            }
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Board, Ladder, Technique};
    use crate::grid::Grid;
    use crate::samples::EASY;

    #[test]
    fn the_full_ladder_takes_one_single_per_step_naked_first() {
        // HoDoKu places one single and starts again from the top, so a
        // cell a placement leaves with one candidate is a naked single (4
        // points), not a hidden one (14): its scores count on it.
        let p: Grid = EASY.parse().unwrap();
        let mut b = Board::with_ladder(&p, Ladder::all()).unwrap();
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
    fn the_seed_ladder_fills_every_hidden_single_of_a_pass() {
        // The macro's history: one `i` per placement of a pass.
        let p: Grid = EASY.parse().unwrap();
        let mut b = Board::with_ladder(&p, Ladder::seed()).unwrap();
        assert!(b.step());
        assert!(b.steps.len() > 1, "{:?}", b.steps);
    }
}
