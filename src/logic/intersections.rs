//! Intersections: locked candidates, pointing and claiming (`!`).

use super::{bit, Board, Step, Technique};

impl Board {
    /// One pointing or claiming deduction that strikes something.
    pub(super) fn locked_candidates(&mut self) -> bool {
        self.locked_candidates_in(0..3 * self.side)
    }

    /// [`Board::locked_candidates`] from these units only: boxes
    /// (`2n..3n`) give pointing alone.
    pub(super) fn locked_candidates_in(&mut self, units: std::ops::Range<usize>) -> bool {
        let n = self.side;
        let shape = self.grid.shape();
        let (w, h) = (shape.width(), shape.height());
        let run = |len: usize| {
            if len >= 64 {
                u64::MAX
            } else {
                (1u64 << len) - 1
            }
        };
        // Within a box, the positions (bit `i` for its `i`-th cell) of its
        // first column; shifted, of any column.
        let box_col = (0..h).fold(0u64, |m, r| m | 1u64 << (r * w));
        let mut places = [0u64; 64];
        for k in units {
            // The slot of `cell_units` that holds unit k's kind.
            let kind = k / n;
            // Every digit's places in k, in one pass over its cells (no
            // allocation on this hot path: most pairs of unit and digit
            // strike nothing).
            self.unit_places(k, &mut places);
            for d in 1..=n as u8 {
                let b = bit(d);
                let p = places[d as usize - 1];
                if p.count_ones() < 2 {
                    continue;
                }
                let f = p.trailing_zeros() as usize;
                let first = self.units[k][f];
                // Which of their row, column and box the places all share
                // (the positions of k in the first place's unit of each
                // slot; none but the first for a line across k).
                let along = match kind {
                    // A row: its box holds w places in a run; a column: h.
                    0 => [0, 1u64 << f, run(w) << (f / w * w)],
                    1 => [1u64 << f, 0, run(h) << (f / h * h)],
                    _ => [run(w) << (f / w * w), box_col << (f % w), 0],
                };
                let shared = along.map(|m| p & !m == 0);
                for (slot, &same) in shared.iter().enumerate() {
                    let other = self.cell_units[first][slot];
                    if other == k || !same {
                        continue;
                    }
                    // The other unit's places of d outside k.
                    let strikes =
                        |c: &usize| self.cands[*c] & b != 0 && self.cell_units[*c][kind] != k;
                    if !self.units[other].iter().any(strikes) {
                        continue;
                    }
                    let eliminated: Vec<(usize, u8)> = self.units[other]
                        .iter()
                        .filter(|c| strikes(c))
                        .map(|&c| (c, d))
                        .collect();
                    let cells: Vec<usize> = self.units[k]
                        .iter()
                        .copied()
                        .filter(|&c| self.cands[c] & b != 0)
                        .collect();
                    for &(c, _) in &eliminated {
                        self.cands[c] &= !b;
                    }
                    self.steps.push(Step {
                        technique: Technique::LockedCandidates,
                        unit: Some(self.unit_of(k)),
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

    /// Every digit's places in unit `k` at once: `places[d - 1]` gets bit
    /// `i` when the unit's `i`-th cell may hold `d` (what
    /// [`Board::places`] gives one digit at a time), for the digits of the
    /// grid; one pass over the unit's cells.
    pub(super) fn unit_places(&self, k: usize, places: &mut [u64; 64]) {
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
