//! What changed since a rule last found nothing, on an earlier grid of
//! the same run: the regions and the digits whose candidates differ.
//! A rule whose hints in a region depend only on that region's
//! candidates (singles, naked and hidden sets), or whose hints of a
//! digit depend only on that digit's places (locking, fish), looks only
//! where something changed: elsewhere it found nothing then and would
//! find nothing again, so its first hint in SE's order is the same (a
//! speed device for a run of steps).

use super::grid::{Grid, CELL_REGIONS};
use super::rules::Hint;

/// A rule's last grid without a hint in a run (none at first).
#[derive(Clone, Default)]
pub struct Since {
    cands: Option<[u16; 81]>,
}

/// The regions and digits whose candidates differ between two grids.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Changes {
    regions: u32,
    digits: u16,
}

impl Changes {
    /// Everything: a rule that has not run yet looks everywhere.
    pub const ALL: Changes = Changes {
        regions: (1 << 27) - 1,
        digits: 0b11_1111_1110,
    };

    /// Whether region `r` (0-8 blocks, 9-17 rows, 18-26 columns) changed.
    pub fn region(&self, r: usize) -> bool {
        self.regions >> r & 1 == 1
    }

    /// Whether the places of digit `d` changed.
    pub fn digit(&self, d: u8) -> bool {
        self.digits >> d & 1 == 1
    }
}

impl Since {
    /// What changed between the rule's last grid without a hint and `g`.
    pub fn changes(&self, g: &Grid) -> Changes {
        let Some(before) = &self.cands else {
            return Changes::ALL;
        };
        let mut ch = Changes {
            regions: 0,
            digits: 0,
        };
        for c in 0..81 {
            let diff = before[c] ^ g.cands[c];
            if diff != 0 {
                ch.digits |= diff;
                for r in CELL_REGIONS[c] {
                    ch.regions |= 1 << r;
                }
            }
        }
        ch
    }

    /// Runs `rule` on `g` where something changed since its last grid
    /// without a hint, and keeps `g` as that grid when it finds nothing.
    pub fn run(&mut self, g: &Grid, rule: impl FnOnce(&Changes) -> Option<Hint>) -> Option<Hint> {
        let ch = self.changes(g);
        if ch.digits == 0 {
            return None; // the same grid: nothing then
        }
        let found = rule(&ch);
        if found.is_none() {
            self.cands = Some(g.cands);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serate::grid::parse;

    #[test]
    fn changes_name_the_regions_and_digits_of_the_changed_cells() {
        let g = Grid::new(
            &parse(
                "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            )
            .unwrap(),
        );
        let mut since = Since::default();
        assert_eq!(since.changes(&g), Changes::ALL);
        assert_eq!(since.run(&g, |_| None), None);
        let mut h = g.clone();
        // Cell r1c2 (index 1) loses a candidate.
        let d = h.cands[1].trailing_zeros() as u8;
        h.cands[1] &= !(1 << d);
        let ch = since.changes(&h);
        let regions: Vec<usize> = (0..27).filter(|&r| ch.region(r)).collect();
        let mut want: Vec<usize> = CELL_REGIONS[1].iter().map(|&r| r as usize).collect();
        want.sort();
        assert_eq!(regions, want);
        assert_eq!((1..=9).filter(|&x| ch.digit(x)).collect::<Vec<u8>>(), [d]);
        // The same grid again: the rule is not asked.
        assert_eq!(since.run(&g, |_| panic!("asked again")), None);
    }

    /// Along SE's run of each puzzle, every rule that looks only where
    /// something changed finds what it finds from scratch.
    #[test]
    fn along_a_run_each_rule_finds_what_it_finds_from_scratch() {
        use crate::serate::{singles, subsets, uniqueness};
        type Rule = (
            fn(&Grid) -> Option<Hint>,
            fn(&Grid, &Changes) -> Option<Hint>,
        );
        let rules: [Rule; 11] = [
            (singles::hidden_single, singles::hidden_single_in),
            (
                |g| singles::locking(g, true),
                |g, c| singles::locking_in(g, true, c),
            ),
            (
                |g| singles::locking(g, false),
                |g, c| singles::locking_in(g, false, c),
            ),
            (
                |g| subsets::hidden_set(g, 2, true),
                |g, c| subsets::hidden_set_in(g, 2, true, c),
            ),
            (
                |g| subsets::hidden_set(g, 3, false),
                |g, c| subsets::hidden_set_in(g, 3, false, c),
            ),
            (
                |g| subsets::naked_set(g, 2),
                |g, c| subsets::naked_set_in(g, 2, c),
            ),
            (
                |g| subsets::naked_set(g, 3),
                |g, c| subsets::naked_set_in(g, 3, c),
            ),
            (|g| subsets::fish(g, 2), |g, c| subsets::fish_in(g, 2, c)),
            (|g| subsets::fish(g, 3), |g, c| subsets::fish_in(g, 3, c)),
            (|g| subsets::fish(g, 4), |g, c| subsets::fish_in(g, 4, c)),
            (uniqueness::unique_loop, uniqueness::unique_loop_in),
        ];
        let (mut found, mut passed) = ([0; 11], 0);
        for p in [
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "..7.83...2.........6.71...2..53..9......75...6..1...4..4......68......1..7..34.5.",
            "7......12....62..4....3..8........4.8...1.2.5.975.3........6...6...789..1.3.5....",
            ".......4...49.3..6.78....5..2...7.....356...7.4......9...3....1...642.8......52..",
            // SE's unique loop (4.5).
            ".8..5..1........8.6..38...9...8..5...6..4...8.739..4..9.6.3.....35..1...2.......1",
        ] {
            let mut g = Grid::new(&parse(p).unwrap());
            let mut since: [Since; 11] = Default::default();
            while !g.is_solved() {
                for (k, (fresh, within)) in rules.iter().enumerate() {
                    let had = since[k].cands.is_some();
                    let want = fresh(&g);
                    assert_eq!(since[k].run(&g, |ch| within(&g, ch)), want, "{p}, rule {k}");
                    found[k] += usize::from(want.is_some());
                    passed += usize::from(had);
                }
                let Some(h) = crate::serate::next_hint(&g, false) else {
                    break;
                };
                h.apply(&mut g);
            }
        }
        // Every rule but the jellyfish finds something on the way.
        let missing = (0..11).filter(|&k| k != 9 && found[k] == 0).count();
        assert!(passed > 0 && missing == 0, "{found:?}");
    }
}
