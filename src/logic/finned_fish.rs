//! Finned and sashimi fish: X-wing, swordfish, jellyfish (`f`).
//!
//! A fish of `size` base lines (rows, or columns) whose places of a digit
//! lie in `size` cover lines, except for a few places outside them (the
//! fins). Either a fin holds the digit, or the fish without its fins does;
//! so a cell of a cover line, outside the base lines, that sees every fin
//! cannot hold it. A fish is sashimi when a base line keeps at most one
//! place inside the cover lines (HoDoKu's definition); finned otherwise.
//!
//! The search is capped as HoDoKu caps it: at most five fins, and base
//! lines whose places span at most three lines beyond the `size` covers.
//! Past those bounds a fin set seldom shares a box, so nothing is struck,
//! and the combinations grow fast on 16x16 and 25x25 grids.

use super::{bit, digits_of, Board, Step, Technique};

/// The most fins a fish may have.
const MAX_FINS: u32 = 5;
/// The most lines beyond the fish's size the base places may span.
const MAX_EXTRA_COVERS: u32 = 3;

impl Board {
    /// One finned (`sashimi` false) or sashimi fish of `size` lines (2 to
    /// 4) that strikes something.
    pub(super) fn finned_fish(&mut self, size: usize, sashimi: bool) -> bool {
        let n = self.side;
        for d in 1..=n as u8 {
            for (base, cover) in [(0, n), (n, 0)] {
                let lines: Vec<(usize, u64)> = (base..base + n)
                    .map(|k| (k, self.places(k, d)))
                    .filter(|&(_, p)| p != 0 && p.count_ones() <= size as u32 + MAX_FINS)
                    .collect();
                if lines.len() < size {
                    continue;
                }
                let mut pick = Vec::with_capacity(size);
                if let Some(step) =
                    self.finned_bases(d, cover, size, sashimi, &lines, 0, 0, &mut pick)
                {
                    self.apply(step);
                    return true;
                }
            }
        }
        false
    }

    /// Chooses the base lines (depth first, in order) and tries each.
    #[allow(clippy::too_many_arguments)]
    fn finned_bases(
        &self,
        d: u8,
        cover: usize,
        size: usize,
        sashimi: bool,
        lines: &[(usize, u64)],
        from: usize,
        union: u64,
        pick: &mut Vec<(usize, u64)>,
    ) -> Option<Step> {
        if pick.len() == size {
            return self.finned_covers(d, cover, sashimi, pick, union);
        }
        for j in from..lines.len() {
            let u = union | lines[j].1;
            if u.count_ones() > size as u32 + MAX_EXTRA_COVERS {
                continue;
            }
            pick.push(lines[j]);
            let step = self.finned_bases(d, cover, size, sashimi, lines, j + 1, u, pick);
            pick.pop();
            if step.is_some() {
                return step;
            }
        }
        None
    }

    /// Tries every choice of `pick.len()` cover lines among the positions
    /// `union` of the base lines `pick`.
    fn finned_covers(
        &self,
        d: u8,
        cover: usize,
        sashimi: bool,
        pick: &[(usize, u64)],
        union: u64,
    ) -> Option<Step> {
        let size = pick.len();
        let positions: Vec<u8> = digits_of(union).map(|p| p - 1).collect();
        if positions.len() < size {
            return None;
        }
        // Every `size`-subset of the positions, as a bit mask.
        let mut chosen = Vec::with_capacity(size);
        let mut found = None;
        subsets(&positions, size, 0, &mut chosen, &mut |covers: u64| {
            found = self.finned_step(d, cover, sashimi, pick, covers);
            found.is_some()
        });
        found
    }

    /// The step for base lines `pick` and cover positions `covers`, if the
    /// fish has fins, is of the wanted kind and strikes something.
    fn finned_step(
        &self,
        d: u8,
        cover: usize,
        sashimi: bool,
        pick: &[(usize, u64)],
        covers: u64,
    ) -> Option<Step> {
        let fin_count: u32 = pick.iter().map(|&(_, p)| (p & !covers).count_ones()).sum();
        if fin_count == 0 || fin_count > MAX_FINS {
            return None;
        }
        let is_sashimi = pick.iter().any(|&(_, p)| (p & covers).count_ones() <= 1);
        if is_sashimi != sashimi {
            return None;
        }
        let cells_of = |k: usize, mask: u64| -> Vec<usize> {
            digits_of(mask)
                .map(|pos| self.units[k][pos as usize - 1])
                .collect()
        };
        let fins: Vec<usize> = pick
            .iter()
            .flat_map(|&(k, p)| cells_of(k, p & !covers))
            .collect();
        let base_slot = if cover == 0 { 1 } else { 0 };
        let b = bit(d);
        let eliminated: Vec<(usize, u8)> = digits_of(covers)
            .flat_map(|pos| self.units[cover + pos as usize - 1].iter().copied())
            .filter(|&c| {
                self.cands[c] & b != 0
                    && !pick
                        .iter()
                        .any(|&(k, _)| self.cell_units[c][base_slot] == k)
                    && fins.iter().all(|&f| self.sees(c, f))
            })
            .map(|c| (c, d))
            .collect();
        if eliminated.is_empty() {
            return None;
        }
        let mut eliminated = eliminated;
        eliminated.sort_unstable();
        // The body first, then the fins.
        let mut cells: Vec<usize> = pick
            .iter()
            .flat_map(|&(k, p)| cells_of(k, p & covers))
            .collect();
        cells.extend(&fins);
        let technique = match (pick.len(), sashimi) {
            (2, false) => Technique::FinnedXWing,
            (2, true) => Technique::SashimiXWing,
            (3, false) => Technique::FinnedSwordfish,
            (3, true) => Technique::SashimiSwordfish,
            (_, false) => Technique::FinnedJellyfish,
            (_, true) => Technique::SashimiJellyfish,
        };
        Some(Step {
            technique,
            unit: Some(self.unit_of(pick[0].0)),
            digits: vec![d],
            cells,
            placed: None,
            eliminated,
        })
    }
}

/// Calls `f` with every `size`-subset of `items` (bit positions) as a mask,
/// until it returns true.
fn subsets(
    items: &[u8],
    size: usize,
    from: usize,
    chosen: &mut Vec<u8>,
    f: &mut impl FnMut(u64) -> bool,
) -> bool {
    if chosen.len() == size {
        return f(chosen.iter().fold(0u64, |m, &p| m | (1u64 << p)));
    }
    for j in from..items.len() {
        chosen.push(items[j]);
        let done = subsets(items, size, j + 1, chosen, f);
        chosen.pop();
        if done {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::{Board, Ladder, Technique};
    use crate::grid::{BoxShape, Grid};

    fn board_with_only(shape: BoxShape, d: u8, keep: &[usize]) -> Board {
        let p = Grid::empty(shape);
        let mut b = Board::with_ladder(&p, Ladder::all()).unwrap();
        let n = shape.side();
        for c in 0..n * n {
            if !keep.contains(&c) {
                b.cands[c] &= !(1 << (d - 1));
            }
        }
        b
    }

    #[test]
    fn finned_x_wing_strikes_only_beside_its_fin() {
        // 1 in row 1 at c2, c8; in row 5 at c2, c8 and the fin c9 (box 6).
        // Column 8 below, in box 6: r4c8 and r6c8 see the fin and lose 1;
        // r8c8 does not (box 9).
        let keep = [1, 7, 37, 43, 44, 34, 52, 70];
        let mut b = board_with_only(BoxShape::new(3, 3).unwrap(), 1, &keep);
        assert!(!b.basic_fish(2));
        assert!(b.finned_fish(2, false));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::FinnedXWing);
        assert_eq!(s.eliminated, vec![(34, 1), (52, 1)]);
        assert_eq!(s.cells.last(), Some(&44), "the fin comes last");
    }

    #[test]
    fn sashimi_x_wing_on_a_6x6() {
        // Boxes 3 wide, 2 high. 2 in row 1 at c1, c4; in row 3 at c4 and
        // the fin c5 (row 3 has one body cell: sashimi). r4c4 is in column
        // 4 and in the fin's box (rows 3-4, columns 4-6): it loses 2.
        let keep = [0, 3, 15, 16, 21, 33];
        let mut b = board_with_only(BoxShape::new(3, 2).unwrap(), 2, &keep);
        assert!(!b.finned_fish(2, false));
        assert!(b.finned_fish(2, true));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::SashimiXWing);
        assert_eq!(s.eliminated, vec![(21, 2)]);
    }
}
