//! Wings: XY-wing (`y`), XYZ-wing (`z`) and W-wing (`w`).
//!
//! - XY-wing: a pivot `{x,y}` sees two pincers `{x,z}` and `{y,z}`; one
//!   pincer holds `z`, so cells seeing both pincers lose `z`.
//! - XYZ-wing: the pivot is `{x,y,z}`; cells seeing all three lose `z`.
//! - W-wing: two cells `{x,y}` that do not see each other, joined by a
//!   strong link on `x` (each end seen by one of them); one of them holds
//!   `y`, so cells seeing both lose `y`.

use crate::logic::words::{digit_bit, digit_list, Words};
use crate::logic::{bit, digits_of, Board, Cells, Step, Technique};

/// The wings family (W-wing, XY-wing, XYZ-wing): its finders, called as
/// `Wings.finder(board, …)`; it keeps nothing between calls.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::logic) struct Wings;

impl Wings {
    fn with_count(&self, board: &Board, k: u32) -> Vec<usize> {
        (0..board.cands.len())
            .filter(|&c| board.cands[c].count_ones() == k)
            .collect()
    }

    /// Cells outside `pattern` holding `d` and seeing every cell of `seen`.
    fn seeing_all(
        &self,
        board: &Board,
        d: u8,
        seen: &[usize],
        pattern: &[usize],
    ) -> Vec<(usize, u8)> {
        board
            .common_peers(seen)
            .filter(|&x| board.cands[x] & bit(d) != 0 && !pattern.contains(&x))
            .map(|x| (x, d))
            .collect()
    }

    fn wing_step(
        technique: Technique,
        d: u8,
        cells: Vec<usize>,
        eliminated: Vec<(usize, u8)>,
    ) -> Option<Step> {
        (!eliminated.is_empty()).then(|| Step {
            technique,
            unit: None,
            digits: vec![d],
            cells,
            placed: None,
            eliminated,
            chains: Vec::new(),
        })
    }

    /// One XY-wing (`three` false) or XYZ-wing (`three` true) that strikes
    /// something.
    pub(in crate::logic) fn xy_wing(&mut self, board: &mut Board, three: bool) -> bool {
        let pairs = self.with_count(board, 2);
        let pivots = if three {
            self.with_count(board, 3)
        } else {
            pairs.clone()
        };
        // The pairs as a bit set: a pivot's wings are read off its peers'.
        let words = board.cands.len().div_ceil(64);
        let mut pair_set = vec![0u64; words];
        for &c in &pairs {
            pair_set.put(c);
        }
        let mut wings: Vec<usize> = Vec::new();
        for &p in &pivots {
            let pm = board.cands[p];
            wings.clear();
            for (w, (&pairs_here, &peers)) in pair_set
                .iter()
                .zip(&board.peer_sets[p * words..(p + 1) * words])
                .enumerate()
            {
                let mut m = pairs_here & peers;
                while m != 0 {
                    let c = 64 * w + m.trailing_zeros() as usize;
                    m &= m - 1;
                    let fits = if three {
                        board.cands[c] & !pm == 0
                    } else {
                        (board.cands[c] & pm).count_ones() == 1
                    };
                    if fits {
                        wings.push(c);
                    }
                }
            }
            for (i, &a) in wings.iter().enumerate() {
                for &b in &wings[i + 1..] {
                    let (am, bm) = (board.cands[a], board.cands[b]);
                    let z = am & bm;
                    if am == bm || z.count_ones() != 1 {
                        continue;
                    }
                    let Some(d) = digits_of(z).next() else {
                        continue;
                    };
                    let step = if three {
                        if (am | bm) != pm {
                            continue;
                        }
                        let elim = self.seeing_all(board, d, &[p, a, b], &[p, a, b]);
                        Self::wing_step(Technique::XyzWing, d, vec![p, a, b], elim)
                    } else {
                        // Pincers {x,z} and {y,z} with the pivot {x,y}.
                        if pm & z != 0 || (am | bm) & !z != pm {
                            continue;
                        }
                        let elim = self.seeing_all(board, d, &[a, b], &[p, a, b]);
                        Self::wing_step(Technique::XyWing, d, vec![p, a, b], elim)
                    };
                    if let Some(step) = step {
                        board.apply(step);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// One W-wing that strikes something.
    pub(in crate::logic) fn w_wing(&mut self, board: &mut Board) -> bool {
        let pairs = self.with_count(board, 2);
        // Each digit's strong links, found when first needed.
        let mut links = vec![None; board.side];
        for (i, &a) in pairs.iter().enumerate() {
            for &b in &pairs[i + 1..] {
                let m = board.cands[a];
                if board.cands[b] != m || board.sees(a, b) {
                    continue;
                }
                for x in digits_of(m) {
                    let Some(y) = digits_of(m & !bit(x)).next() else {
                        continue;
                    };
                    let links = links[x as usize - 1].get_or_insert_with(|| board.strong_links(x));
                    for &(_, e1, e2) in links.iter() {
                        let joined = [(e1, e2), (e2, e1)].into_iter().any(|(s, t)| {
                            ![a, b].contains(&s)
                                && ![a, b].contains(&t)
                                && board.sees(a, s)
                                && board.sees(b, t)
                        });
                        if !joined {
                            continue;
                        }
                        let elim = self.seeing_all(board, y, &[a, b], &[a, b, e1, e2]);
                        if let Some(step) =
                            Self::wing_step(Technique::WWing, y, vec![a, b, e1, e2], elim)
                        {
                            board.apply(step);
                            return true;
                        }
                    }
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
    let candidates = w.cands;
    Some(match (step.technique, step.placed) {
        (Technique::XyWing | Technique::XyzWing, None) if step.cells.len() == 3 && d0.is_some() => {
            let [p, a, b] = [step.cells[0], step.cells[1], step.cells[2]];
            format!(
                "{name} on {}: pivot {}{}, pincers {}{} and {}{}: {removes}",
                w.digit(d0.unwrap_or(1)),
                w.cell(p),
                w.candidates(p),
                w.cell(a),
                w.candidates(a),
                w.cell(b),
                w.candidates(b)
            )
        }
        (Technique::WWing, None) if step.cells.len() == 4 && d0.is_some() => {
            let y = d0.unwrap_or(1);
            let [a, b, e1, e2] = [step.cells[0], step.cells[1], step.cells[2], step.cells[3]];
            let pair = candidates.get(a).copied().unwrap_or(0);
            let x = digit_list(pair & !digit_bit(y)).first().copied();
            let link = match x {
                Some(x) => {
                    let unit = w
                        .strong_unit(x, e1, e2)
                        .map(|u| format!(", {}", w.unit(u)))
                        .unwrap_or_default();
                    format!(
                        "a strong link on {} ({}–{}{unit})",
                        w.digit(x),
                        w.cell(e1),
                        w.cell(e2)
                    )
                }
                None => format!("the strong link {}–{}", w.cell(e1), w.cell(e2)),
            };
            let both = if pair.count_ones() == 2 {
                format!(" both hold {};", w.digits(&digit_list(pair)))
            } else {
                String::new()
            };
            format!(
                "{name} on {}: {} and {}{both} {link} joins them: {removes}",
                w.digit(y),
                w.cell(a),
                w.cell(b)
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::logic::Technique;

    use crate::logic::tests::empty_by_hand as empty;

    #[test]
    fn xy_wing_strikes_z_from_cells_seeing_both_pincers() {
        let mut b = empty();
        // Pivot r1c1 {1,2}; pincers r1c5 {1,3} and r5c1 {2,3}: r5c5 sees
        // both and loses 3.
        b.cands[0] = 0b011;
        b.cands[4] = 0b101;
        b.cands[36] = 0b110;
        assert!(b.find(Technique::XyWing));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::XyWing);
        assert_eq!(s.digits, vec![3]);
        assert_eq!(s.eliminated, vec![(40, 3)]);
    }

    #[test]
    fn xyz_wing_strikes_z_from_cells_seeing_all_three() {
        let mut b = empty();
        // Pivot r1c1 {1,2,3}; pincers r1c2 {1,3} (row, box) and r3c1
        // {2,3} (box): cells of box 1 lose 3.
        b.cands[0] = 0b111;
        b.cands[1] = 0b101;
        b.cands[18] = 0b110;
        assert!(b.find(Technique::XyzWing));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::XyzWing);
        assert_eq!(
            s.eliminated.iter().map(|e| e.0).collect::<Vec<_>>(),
            vec![2, 9, 10, 11, 19, 20]
        );
    }

    #[test]
    fn w_wing_needs_a_strong_link() {
        let mut b = empty();
        // r1c1 and r5c5 {1,2}; 1 in column 9 only at r1c9 and r5c9.
        b.cands[0] = 0b11;
        b.cands[40] = 0b11;
        for r in 0..9 {
            if r != 0 && r != 4 {
                b.cands[r * 9 + 8] &= !1;
            }
        }
        assert!(b.find(Technique::WWing));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::WWing);
        assert_eq!(s.digits, vec![2]);
        // Cells seeing r1c1 and r5c5: r1c5 and r5c1.
        assert_eq!(s.eliminated, vec![(4, 2), (36, 2)]);
    }
}
