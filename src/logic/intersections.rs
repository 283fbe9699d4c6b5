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
            for d in 1..=n as u8 {
                let cells: Vec<usize> = self.units[k]
                    .iter()
                    .copied()
                    .filter(|&c| self.cands[c] & bit(d) != 0)
                    .collect();
                if cells.len() < 2 {
                    continue;
                }
                // The other units all these cells share.
                for slot in 0..3 {
                    let other = self.cell_units[cells[0]][slot];
                    if other == k || !cells.iter().all(|&c| self.cell_units[c][slot] == other) {
                        continue;
                    }
                    let eliminated: Vec<(usize, u8)> = self.units[other]
                        .iter()
                        .copied()
                        .filter(|c| !cells.contains(c) && self.cands[*c] & bit(d) != 0)
                        .map(|c| (c, d))
                        .collect();
                    if eliminated.is_empty() {
                        continue;
                    }
                    for &(c, _) in &eliminated {
                        self.cands[c] &= !bit(d);
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
