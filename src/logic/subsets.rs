//! Subsets: naked pairs, triples and quads (`2` `3` `4`, locked pairs and
//! triples when the cells also share a box and a line), hidden pairs,
//! triples and quads (`*` `^` `&`).

use std::collections::BTreeSet;

use super::{bit, digits_of, Board, Step, Technique};

impl Board {
    /// One naked subset of `size` cells that strikes something. With
    /// `locked`, only subsets whose cells share a box and a line, striking
    /// in both (HoDoKu's locked pair and triple).
    pub(super) fn naked_subset(&mut self, size: usize, locked: bool) -> bool {
        let n = self.side;
        for k in 0..3 * n {
            let cells: Vec<usize> = self.units[k]
                .iter()
                .copied()
                .filter(|&c| {
                    let count = self.cands[c].count_ones() as usize;
                    (2..=size).contains(&count)
                })
                .collect();
            if cells.len() < size {
                continue;
            }
            let mut pick = Vec::with_capacity(size);
            if let Some(step) = self.naked_search(k, &cells, size, locked, 0, 0, &mut pick) {
                self.apply(step);
                return true;
            }
        }
        false
    }

    /// Depth-first choice of `size` cells whose candidates number `size`
    /// between them and whose digits can be struck elsewhere.
    #[allow(clippy::too_many_arguments)]
    fn naked_search(
        &self,
        k: usize,
        cells: &[usize],
        size: usize,
        locked: bool,
        from: usize,
        union: u64,
        pick: &mut Vec<usize>,
    ) -> Option<Step> {
        if pick.len() == size {
            if union.count_ones() as usize != size {
                return None;
            }
            // The units the digits are locked in: this one, and for a
            // locked subset the other unit all its cells share.
            let mut strike = vec![k];
            if locked {
                let other = (0..3)
                    .map(|slot| self.cell_units[pick[0]][slot])
                    .find(|&u| u != k && pick.iter().all(|&c| self.cell_units[c].contains(&u)))?;
                strike.push(other);
            }
            let mut eliminated = BTreeSet::new();
            for &u in &strike {
                for &c in &self.units[u] {
                    if !pick.contains(&c) {
                        for d in digits_of(self.cands[c] & union) {
                            eliminated.insert((c, d));
                        }
                    }
                }
            }
            if eliminated.is_empty() {
                return None;
            }
            let technique = match (size, locked) {
                (2, true) => Technique::LockedPair,
                (3, true) => Technique::LockedTriple,
                (2, false) => Technique::NakedPair,
                (3, false) => Technique::NakedTriple,
                _ => Technique::NakedQuad,
            };
            return Some(Step {
                technique,
                unit: Some(self.unit_of(k)),
                digits: digits_of(union).collect(),
                cells: pick.clone(),
                placed: None,
                eliminated: eliminated.into_iter().collect(),
            });
        }
        for j in from..cells.len() {
            let u = union | self.cands[cells[j]];
            if u.count_ones() as usize > size {
                continue;
            }
            pick.push(cells[j]);
            let found = self.naked_search(k, cells, size, locked, j + 1, u, pick);
            pick.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// One hidden subset of `size` digits (2 to 4) that strikes something.
    pub(super) fn hidden_subset(&mut self, size: usize) -> bool {
        let n = self.side;
        for k in 0..3 * n {
            let places: Vec<(u8, u64)> = (1..=n as u8)
                .map(|d| (d, self.places(k, d)))
                .filter(|&(_, p)| p.count_ones() >= 2 && p.count_ones() as usize <= size)
                .collect();
            if places.len() < size {
                continue;
            }
            let mut pick = Vec::with_capacity(size);
            if let Some(step) = self.hidden_search(k, &places, size, 0, 0, &mut pick) {
                self.apply(step);
                return true;
            }
        }
        false
    }

    /// Depth-first choice of `size` digits whose places cover exactly
    /// `size` cells and whose cells hold other candidates to strike.
    fn hidden_search(
        &self,
        k: usize,
        places: &[(u8, u64)],
        size: usize,
        from: usize,
        union: u64,
        pick: &mut Vec<u8>,
    ) -> Option<Step> {
        if pick.len() == size {
            if union.count_ones() as usize != size {
                return None;
            }
            let keep: u64 = pick.iter().map(|&d| bit(d)).fold(0, |a, b| a | b);
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
            let technique = match size {
                2 => Technique::HiddenPair,
                3 => Technique::HiddenTriple,
                _ => Technique::HiddenQuad,
            };
            return Some(Step {
                technique,
                unit: Some(self.unit_of(k)),
                digits: pick.clone(),
                cells,
                placed: None,
                eliminated,
            });
        }
        for j in from..places.len() {
            let (d, p) = places[j];
            let u = union | p;
            if u.count_ones() as usize > size {
                continue;
            }
            pick.push(d);
            let found = self.hidden_search(k, places, size, j + 1, u, pick);
            pick.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Board, Ladder, Technique};
    use crate::grid::{BoxShape, Grid};

    fn empty_board() -> Board {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        Board::with_ladder(&p, Ladder::all()).unwrap()
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
