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
