//! Subsets: naked pairs, triples and quads (`2` `3` `4`, locked pairs and
//! triples when the cells also share a box and a line and strike in the
//! box and on the line outside it), hidden pairs, triples and quads (`*`
//! `^` `&`), searched as HoDoKu searches them: boxes, rows, then columns.

use super::{bit, digits_of, first_cover, Board, Step, Technique};

/// The technique of a naked subset of `size` cells, locked or not.
fn naked_technique(size: usize, locked: bool) -> Technique {
    match (size, locked) {
        (2, true) => Technique::LockedPair,
        (_, true) => Technique::LockedTriple,
        (2, false) => Technique::NakedPair,
        (3, false) => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    }
}

impl Board {
    /// One naked subset of `size` cells that strikes something, as HoDoKu
    /// finds them: in boxes, rows, then columns, each striking in every
    /// unit its cells share. With `locked`, only subsets (pairs and
    /// triples) of a box that share a line too and strike both in the box
    /// and on the line outside it (HoDoKu's locked pair and triple),
    /// searched in the boxes alone.
    pub(super) fn naked_subset(&mut self, size: usize, locked: bool) -> bool {
        let n = self.side;
        // The unit's cells of 2 to `size` candidates, without an
        // allocation per unit.
        let table = self.table();
        let mut cells = [(0usize, 0u64); 64];
        let mut pick = Vec::with_capacity(size);
        let t = naked_technique(size, locked);
        // The units unchanged since its last search in vain (`facts.rs`).
        let skip = self.units_unchanged(t);
        let units = if locked { 2 * n..3 * n } else { 2 * n..5 * n };
        for k in units.map(|k| k % (3 * n)) {
            if skip.as_ref().is_some_and(|u| u[k]) {
                continue;
            }
            let mut len = 0;
            for &c in &self.units[k] {
                if (2..=size).contains(&(table.counts[c] as usize)) {
                    cells[len] = (c, self.cands[c]);
                    len += 1;
                }
            }
            if len < size || (locked && !self.may_lock(k, &cells[..len], size)) {
                continue;
            }
            let step = first_cover(&cells[..len], size, &mut pick, &mut |pick, union| {
                self.naked_step(k, pick, union, locked)
            });
            if let Some(step) = step {
                self.apply(step);
                return true;
            }
        }
        false
    }

    /// Whether `size` of these cells of unit `k` share a second unit (a
    /// box for a line, a line for a box), as a locked subset's must.
    fn may_lock(&self, k: usize, cells: &[(usize, u64)], size: usize) -> bool {
        let kind = k / self.side;
        (0..3).filter(|&slot| slot != kind).any(|slot| {
            cells.iter().enumerate().any(|(i, &(c, _))| {
                let u = self.cell_units[c][slot];
                cells[i..]
                    .iter()
                    .filter(|&&(o, _)| self.cell_units[o][slot] == u)
                    .count()
                    >= size
            })
        })
    }

    /// The step for the cells `pick` of unit `k` holding the digits
    /// `union` between them, if it strikes something: in every unit the
    /// cells share (HoDoKu's `createSubsetStep`). With `locked`, only a
    /// locked subset: a pair or triple sharing a box and a line, striking
    /// in the box and on the line outside the box.
    fn naked_step(&self, k: usize, pick: &[usize], union: u64, locked: bool) -> Option<Step> {
        let size = pick.len();
        let n = self.side;
        // The units the cells share (without an allocation: most subsets
        // met were used before and strike nothing).
        let mut shared = [0usize; 3];
        let mut len = 0;
        for slot in 0..3 {
            let u = self.cell_units[pick[0]][slot];
            if pick.iter().all(|&c| self.cell_units[c][slot] == u) {
                shared[len] = u;
                len += 1;
            }
        }
        let shared = &shared[..len];
        let the_box = self.cell_units[pick[0]][2];
        // In HoDoKu's order (its `createSubsetStep`): unit by unit (row,
        // column, box), cells in the unit's order; the order the strikes
        // fill its queues of singles in.
        let mut eliminated: Vec<(usize, u8)> = Vec::new();
        // Strikes in the box, and on a line outside the box.
        let (mut in_box, mut on_line) = (false, false);
        for &u in shared {
            for &c in &self.units[u] {
                if pick.contains(&c) || self.cands[c] & union == 0 {
                    continue;
                }
                if u >= 2 * n {
                    in_box = true;
                } else if self.cell_units[c][2] != the_box {
                    on_line = true;
                }
                for d in digits_of(self.cands[c] & union) {
                    if !eliminated.contains(&(c, d)) {
                        eliminated.push((c, d));
                    }
                }
            }
        }
        if eliminated.is_empty() {
            return None;
        }
        let is_locked =
            size < 4 && shared.len() == 2 && shared.contains(&the_box) && in_box && on_line;
        if locked && !is_locked {
            return None;
        }
        Some(Step {
            technique: naked_technique(size, locked),
            unit: Some(self.unit_of(k)),
            digits: digits_of(union).collect(),
            cells: pick.to_vec(),
            placed: None,
            chains: Vec::new(),
            eliminated,
        })
    }

    /// One hidden subset of `size` digits (2 to 4) that strikes something.
    pub(super) fn hidden_subset(&mut self, size: usize) -> bool {
        let n = self.side;
        let table = self.table();
        let mut places = [(0u8, 0u64); 64];
        let mut pick = Vec::with_capacity(size);
        // The units unchanged since its last search in vain (`facts.rs`).
        let t = match size {
            2 => Technique::HiddenPair,
            3 => Technique::HiddenTriple,
            _ => Technique::HiddenQuad,
        };
        let skip = self.units_unchanged(t);
        // HoDoKu's order: boxes, rows, then columns.
        for k in (2 * n..3 * n).chain(0..2 * n) {
            if skip.as_ref().is_some_and(|u| u[k]) {
                continue;
            }
            let all = &table.places[k * n..(k + 1) * n];
            let mut len = 0;
            for d in 1..=n as u8 {
                let p = all[d as usize - 1];
                if p & p.wrapping_sub(1) != 0 && super::at_most(p, size) {
                    places[len] = (d, p);
                    len += 1;
                }
            }
            if len < size {
                continue;
            }
            let step = first_cover(&places[..len], size, &mut pick, &mut |pick, union| {
                self.hidden_step(k, pick, union)
            });
            if let Some(step) = step {
                self.apply(step);
                return true;
            }
        }
        false
    }

    /// The step for the digits `pick` confined to the positions `union`
    /// of unit `k`, if their cells hold other candidates to strike.
    fn hidden_step(&self, k: usize, pick: &[u8], union: u64) -> Option<Step> {
        let keep: u64 = pick.iter().map(|&d| bit(d)).fold(0, |a, b| a | b);
        // Most digit sets met strike nothing (one already used keeps its
        // pattern): tell so before building the step.
        if digits_of(union).all(|i| self.cands[self.units[k][i as usize - 1]] & !keep == 0) {
            return None;
        }
        let cells: Vec<usize> = digits_of(union)
            .map(|i| self.units[k][i as usize - 1])
            .collect();
        let eliminated: Vec<(usize, u8)> = cells
            .iter()
            .flat_map(|&c| digits_of(self.cands[c] & !keep).map(move |d| (c, d)))
            .collect();
        if eliminated.is_empty() {
            return None;
        }
        let technique = match pick.len() {
            2 => Technique::HiddenPair,
            3 => Technique::HiddenTriple,
            _ => Technique::HiddenQuad,
        };
        Some(Step {
            technique,
            unit: Some(self.unit_of(k)),
            digits: pick.to_vec(),
            cells,
            placed: None,
            eliminated,
            chains: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Board, Technique};
    use crate::grid::{BoxShape, Grid};

    fn empty_board() -> Board {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        Board::edited_by_hand(&p)
    }

    #[test]
    fn locked_pair_strikes_in_line_and_box() {
        let mut b = empty_board();
        b.cands[0] = 0b11;
        b.cands[1] = 0b11;
        assert!(b.naked_subset(2, true));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.technique, Technique::LockedPair);
        assert_eq!(
            (s.cells.clone(), s.digits.clone()),
            (vec![0, 1], vec![1, 2])
        );
        let mut want: Vec<(usize, u8)> = (2..9)
            .chain([9, 10, 11, 18, 19, 20])
            .flat_map(|c| [(c, 1), (c, 2)])
            .collect();
        want.sort_unstable();
        assert_eq!(s.eliminated, want);
        assert_eq!(b.candidates(5) & 0b11, 0);
        assert_eq!(
            b.candidates(27) & 0b11,
            0b11,
            "column cells outside the box keep them"
        );
    }

    #[test]
    fn a_pair_striking_in_its_box_alone_is_a_naked_pair() {
        // {1,2} in r1c1 and r1c2 (box 1, row 1). The rest of row 1 outside
        // the box has neither digit: the pair strikes in the box alone
        // (r1c3 is in both), so HoDoKu calls it a naked pair, not a locked
        // one, and finds it in the box, striking there.
        let mut b = empty_board();
        b.cands[0] = 0b11;
        b.cands[1] = 0b11;
        for c in 3..9 {
            b.cands[c] &= !0b11;
        }
        assert!(!b.naked_subset(2, true));
        assert!(b.naked_subset(2, false));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.technique, Technique::NakedPair);
        assert_eq!(s.unit, Some(crate::grid::Unit::Box(0)));
        let mut want: Vec<(usize, u8)> = [2, 9, 10, 11, 18, 19, 20]
            .into_iter()
            .flat_map(|c| [(c, 1), (c, 2)])
            .collect();
        want.sort_unstable();
        assert_eq!(s.eliminated, want);
    }

    #[test]
    fn a_naked_pair_strikes_in_every_unit_its_cells_share() {
        // {3,4} in r1c1 and r1c2, which share row 1 and box 1; the box
        // holds no other 3 or 4, so no locked pair: the naked pair is
        // found in the box first (HoDoKu's order: boxes, rows, columns)
        // and strikes along the row too.
        let mut b = empty_board();
        b.cands[0] = 0b1100;
        b.cands[1] = 0b1100;
        for c in [2, 9, 10, 11, 18, 19, 20] {
            b.cands[c] &= !0b1100;
        }
        assert!(!b.naked_subset(2, true));
        assert!(b.naked_subset(2, false));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.unit, Some(crate::grid::Unit::Box(0)));
        let want: Vec<(usize, u8)> = (3..9).flat_map(|c| [(c, 3), (c, 4)]).collect();
        assert_eq!(s.eliminated, want);
    }

    #[test]
    fn naked_triple_strikes_in_its_unit_only() {
        let mut b = empty_board();
        // Column 1 (cells 0, 27, 54: three boxes): {1,2}, {2,3}, {1,3}.
        b.cands[0] = 0b011;
        b.cands[27] = 0b110;
        b.cands[54] = 0b101;
        assert!(!b.naked_subset(3, true), "not in one box");
        assert!(b.naked_subset(3, false));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.technique, Technique::NakedTriple);
        assert!(s.eliminated.iter().all(|&(c, d)| c % 9 == 0 && d <= 3));
        assert_eq!(s.eliminated.len(), 6 * 3);
    }

    #[test]
    fn hidden_quad_keeps_only_its_digits() {
        let mut b = empty_board();
        // Digits 1-4 of row 1 only in its first four cells.
        for c in 4..9 {
            b.cands[c] &= !0b1111;
        }
        assert!(b.hidden_subset(4));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.technique, Technique::HiddenQuad);
        assert_eq!(s.cells, vec![0, 1, 2, 3]);
        assert!((0..4).all(|c| b.candidates(c) == 0b1111));
    }
}
