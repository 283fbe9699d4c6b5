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
        for k in units {
            // The slot of `cell_units` that holds unit k's kind.
            let kind = k / n;
            for d in 1..=n as u8 {
                let b = bit(d);
                // The places of d in k, counted without a list, and which of
                // their units they all share (no allocation on this hot path:
                // most pairs of unit and digit strike nothing).
                let mut count = 0usize;
                let mut first = 0usize;
                let mut shared = [true; 3];
                for &c in &self.units[k] {
                    if self.cands[c] & b == 0 {
                        continue;
                    }
                    if count == 0 {
                        first = c;
                    } else {
                        for (slot, same) in shared.iter_mut().enumerate() {
                            *same &= self.cell_units[c][slot] == self.cell_units[first][slot];
                        }
                    }
                    count += 1;
                }
                if count < 2 {
                    continue;
                }
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
}
