//! Single-digit patterns: two strong links on one digit joined by a weak
//! one (HoDoKu's turbot fish family). A strong link is a unit where the
//! digit has exactly two places; if the ends `B` and `C` of two strong
//! links `A=B` and `C=D` see each other, one of `A` and `D` holds the
//! digit, so every other cell seeing both loses it.
//!
//! - skyscraper (`k`): both strong links in rows, or both in columns;
//! - 2-string kite (`t`): one in a row, one in a column, joined in a box;
//! - turbot fish (`o`): any other pairing (a box link among them).
//!
//! Empty rectangle (`e`): in a box, every place of the digit lies on one
//! row `R` or one column `C` (some on `R` off `C`, some on `C` off `R`).
//! A strong link `x=y` in a column, with `x` on `R` outside the box, strikes
//! the digit from the cell on `C` in `y`'s row: were that cell the digit,
//! `y` would not be, `x` would, and the box would have no place left (the
//! same with rows and columns swapped). Any box shape.

use crate::grid::Unit;
use crate::logic::memo::Run;
use crate::logic::words::Words;
use crate::logic::{bit, Board, Step, Technique};

/// The kind of single-digit pattern a pair of strong links makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::logic) enum Pattern {
    Skyscraper,
    Kite,
    Turbot,
}

/// The single-digit family (skyscraper, 2-string kite, turbot fish, empty
/// rectangle): its finders, called as `SingleDigit.finder(board, …)`; it
/// keeps nothing between calls.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::logic) struct SingleDigit;

impl Board {
    /// True when two distinct cells share a row, column or box.
    pub(in crate::logic) fn sees(&self, a: usize, b: usize) -> bool {
        a != b && (0..3).any(|s| self.cell_units[a][s] == self.cell_units[b][s])
    }

    /// The cells seeing every cell of `seen` (not empty), in order: read
    /// off the peers' bit sets.
    pub(in crate::logic) fn common_peers(&self, seen: &[usize]) -> impl Iterator<Item = usize> {
        debug_assert!(!seen.is_empty());
        let cells = self.cands.len();
        let words = cells.div_ceil(64);
        // Up to 64 words (a 64x64 grid), on the stack.
        let mut common = [0u64; 64];
        for (w, word) in common[..words].iter_mut().enumerate() {
            *word = seen
                .iter()
                .fold(u64::MAX, |m, &s| m & self.peer_sets[s * words + w]);
        }
        (0..words)
            .flat_map(move |w| {
                let mut m = common[w];
                std::iter::from_fn(move || {
                    (m != 0).then(|| {
                        let x = 64 * w + m.trailing_zeros() as usize;
                        m &= m - 1;
                        x
                    })
                })
            })
            .filter(move |&x| x < cells)
    }

    /// The strong links of digit `d`: `(unit, cell, cell)` for every unit
    /// where `d` has exactly two places.
    pub(in crate::logic) fn strong_links(&self, d: u8) -> Vec<(usize, usize, usize)> {
        let n = self.side;
        let table = self.table();
        (0..self.units.len())
            .filter_map(|k| {
                let p = table.places[k * n + d as usize - 1];
                crate::logic::two_bits(p).then(|| {
                    let unit = &self.units[k];
                    let first = p.trailing_zeros() as usize;
                    let second = (p & (p - 1)).trailing_zeros() as usize;
                    (k, unit[first], unit[second])
                })
            })
            .collect()
    }
}

impl SingleDigit {
    /// One single-digit pattern of this kind that strikes something.
    pub(in crate::logic) fn single_digit(
        &mut self,
        board: &mut Board,
        run: &mut Run,
        kind: Pattern,
    ) -> bool {
        let n = board.side;
        let kind_of = |k: usize| k / n; // 0 row, 1 column, 2 box
        let t = match kind {
            Pattern::Skyscraper => Technique::Skyscraper,
            Pattern::Kite => Technique::TwoStringKite,
            Pattern::Turbot => Technique::TurbotFish,
        };
        let found = run.first_by_digit(board, t, |d| {
            let links = board.strong_links(d);
            for (i, &(k1, a1, b1)) in links.iter().enumerate() {
                for &(k2, a2, b2) in &links[i + 1..] {
                    let this = match (kind_of(k1), kind_of(k2)) {
                        (0, 0) | (1, 1) => Pattern::Skyscraper,
                        (0, 1) | (1, 0) => Pattern::Kite,
                        _ => Pattern::Turbot,
                    };
                    if this != kind && kind != Pattern::Turbot {
                        continue;
                    }
                    for (a, b) in [(a1, b1), (b1, a1)] {
                        for (c, e) in [(a2, b2), (b2, a2)] {
                            if [a, b].contains(&c) || [a, b].contains(&e) || !board.sees(b, c) {
                                continue;
                            }
                            // A skyscraper's inner ends share the line
                            // across its links (a column for row links);
                            // a kite's share a box. Other joins are turbots.
                            let joined_by = |slot: usize| {
                                board.cell_units[b][slot] == board.cell_units[c][slot]
                            };
                            let shape = match this {
                                Pattern::Skyscraper if joined_by(1 - kind_of(k1)) => {
                                    Pattern::Skyscraper
                                }
                                Pattern::Kite if joined_by(2) => Pattern::Kite,
                                _ => Pattern::Turbot,
                            };
                            if shape != kind {
                                continue;
                            }
                            let step = self.turbot_step(board, kind, d, [a, b, c, e], k1);
                            if step.is_some() {
                                return step;
                            }
                        }
                    }
                }
            }
            None
        });
        board.apply_found(found)
    }

    /// One empty rectangle that strikes something.
    pub(in crate::logic) fn empty_rectangle(&mut self, board: &mut Board, run: &mut Run) -> bool {
        let n = board.side;
        let lines = board.box_lines.clone();
        let table = board.table();
        let found = run.first_by_digit(board, Technique::EmptyRectangle, |d| {
            for bx in 2 * n..3 * n {
                // The box's places of d (positions in the box).
                let inbox = table.places[bx * n + d as usize - 1];
                let (rows, cols) = &lines[bx - 2 * n];
                // A cross holds at most a row and a column of the box.
                let count = inbox.count_ones() as usize;
                if count < 2 || count > rows.len() + cols.len() - 1 {
                    continue;
                }
                for &r in rows {
                    let on_r = board.crossing(bx, r);
                    for &c in cols {
                        let on_c = board.crossing(bx, c);
                        // Every place on the row or the column, one on
                        // the row off the column and one the other way.
                        if inbox & !(on_r | on_c) != 0
                            || inbox & on_r & !on_c == 0
                            || inbox & on_c & !on_r == 0
                        {
                            continue;
                        }
                        let step = self.empty_rectangle_at(board, d, bx, (r, c), inbox, &table);
                        if step.is_some() {
                            return step;
                        }
                    }
                }
            }
            None
        });
        board.apply_found(found)
    }

    /// The empty rectangle of digit `d` in box `bx` on row unit `r` and
    /// column unit `c` (its places `inbox`, positions in the box, fit
    /// it), if it strikes something.
    fn empty_rectangle_at(
        &self,
        board: &Board,
        d: u8,
        bx: usize,
        (r, c): (usize, usize),
        inbox: u64,
        table: &super::intersections::Table,
    ) -> Option<Step> {
        let n = board.side;
        let b = bit(d);
        let places = |k: usize| table.places[k * n + d as usize - 1];
        // (the rectangle's line the strong link starts from, the other line,
        // the slot of the line's kind, the slot of the other kind)
        for (line, cross, slot_line, slot_cross) in [(r, c, 0, 1), (c, r, 1, 0)] {
            let mut outside = places(line) & !board.crossing(line, bx);
            while outside != 0 {
                let x = board.units[line][outside.trailing_zeros() as usize];
                outside &= outside - 1;
                // A strong link from x across the line: its unit of the
                // other kind holds d twice.
                let perp = board.cell_units[x][slot_cross];
                let ends = places(perp);
                if !crate::logic::two_bits(ends) {
                    continue;
                }
                let other = ends & !(1u64 << board.cell_pos[x][slot_cross]);
                let y = board.units[perp][other.trailing_zeros() as usize];
                // Where y's line (of the first line's kind) crosses the
                // other line.
                let along = board.cell_units[y][slot_line];
                let t = board.units[along][board.crossing(along, cross).trailing_zeros() as usize];
                if board.cell_units[t][2] == bx || board.cands[t] & b == 0 || t == y {
                    continue;
                }
                let mut cells = vec![x, y];
                cells.extend(crate::logic::positions(inbox).map(|i| board.units[bx][i]));
                return Some(Step {
                    technique: Technique::EmptyRectangle,
                    unit: Some(board.unit_of(bx)),
                    digits: vec![d],
                    cells,
                    placed: None,
                    eliminated: vec![(t, d)],
                    chains: Vec::new(),
                });
            }
        }
        None
    }

    /// The step for the chain `a=b-c=e` on `d`, if it strikes something.
    fn turbot_step(
        &self,
        board: &Board,
        kind: Pattern,
        d: u8,
        chain: [usize; 4],
        unit: usize,
    ) -> Option<Step> {
        let [a, _, _, e] = chain;
        let b = bit(d);
        let eliminated: Vec<(usize, u8)> = board
            .common_peers(&[a, e])
            .filter(|&x| !chain.contains(&x) && board.cands[x] & b != 0)
            .map(|x| (x, d))
            .collect();
        if eliminated.is_empty() {
            return None;
        }
        Some(Step {
            technique: match kind {
                Pattern::Skyscraper => Technique::Skyscraper,
                Pattern::Kite => Technique::TwoStringKite,
                Pattern::Turbot => Technique::TurbotFish,
            },
            unit: Some(board.unit_of(unit)),
            digits: vec![d],
            cells: chain.to_vec(),
            placed: None,
            eliminated,
            chains: Vec::new(),
        })
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let d0 = step.digits.first().copied();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (Technique::Skyscraper | Technique::TwoStringKite | Technique::TurbotFish, None)
            if step.cells.len() == 4 && d0.is_some() =>
        {
            let d = d0.unwrap_or(1);
            let [a, b, c, e] = [step.cells[0], step.cells[1], step.cells[2], step.cells[3]];
            let first = step
                .unit
                .filter(|&u| w.contains(u, a) && w.contains(u, b))
                .or_else(|| w.strong_unit(d, a, b));
            let second = w.strong_unit(d, c, e);
            let link = |x: usize, y: usize, u: Option<Unit>| match u {
                Some(u) => format!("{}–{} ({})", w.cell(x), w.cell(y), w.unit(u)),
                None => format!("{}–{}", w.cell(x), w.cell(y)),
            };
            format!(
                "{name} on {}: strong links {} and {}, {} sees {}: {removes}",
                w.digit(d),
                link(a, b, first),
                link(c, e, second),
                w.cell(b),
                w.cell(c)
            )
        }
        (Technique::EmptyRectangle, None) if step.cells.len() >= 3 && d0.is_some() => {
            let d = d0.unwrap_or(1);
            let (x, y, inbox) = (step.cells[0], step.cells[1], &step.cells[2..]);
            let cross = w.rectangle_lines(inbox, x);
            let lines = match cross {
                Some((r, c)) => format!(
                    " lie on {} and {}",
                    w.unit(Unit::Row(r)),
                    w.unit(Unit::Col(c))
                ),
                None => format!(" are {}", w.cells(inbox)),
            };
            let within = step.unit.map(|u| w.unit(u)).unwrap_or_default();
            let link = w
                .strong_unit(d, x, y)
                .map(|u| format!(" ({})", w.unit(u)))
                .unwrap_or_default();
            format!(
                "{name} on {}: the places of {} in {within}{lines}; strong link {}–{}{link}: {removes}",
                w.digit(d),
                w.digit(d),
                w.cell(x),
                w.cell(y)
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::logic::Cells;

    #[test]
    fn the_peers_read_off_bit_sets_are_the_cells_that_see() {
        // 6x6, 9x9, 16x16 and 25x25 (625 cells: the last word is partial).
        for (w, h) in [(3, 2), (3, 3), (4, 4), (5, 5)] {
            let shape = crate::grid::BoxShape::new(w, h).unwrap();
            let b = crate::logic::Solver::new(&crate::grid::Grid::empty(shape)).unwrap();
            let cells = b.cands.len();
            for (x, y) in [
                (0, 1),
                (0, cells - 1),
                (cells / 2, cells / 2 + w),
                (7, 3 * cells / 4),
            ] {
                let slow: Vec<usize> = (0..cells)
                    .filter(|&c| b.sees(c, x) && b.sees(c, y))
                    .collect();
                assert_eq!(b.common_peers(&[x, y]).collect::<Vec<_>>(), slow, "{w}x{h}");
                let sets = b.colour_sets(&[vec![(x, false), (y, false)]]);
                let any: Vec<usize> = sets.seen(0, false).members().collect();
                let slow: Vec<usize> = (0..cells)
                    .filter(|&c| b.sees(c, x) || b.sees(c, y))
                    .collect();
                assert_eq!(any, slow, "{w}x{h}");
            }
        }
    }

    use crate::grid::{BoxShape, Grid};
    use crate::logic::{Solver, Technique};

    fn board_with_only(d: u8, keep: &[usize]) -> Solver {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        for c in 0..81 {
            if !keep.contains(&c) {
                b.cands[c] &= !(1 << (d - 1));
            }
        }
        b
    }

    #[test]
    fn skyscraper_strikes_a_cell_seeing_both_tops() {
        // Digit 1 only at r1c1 r1c4, r2c2 r2c5, r7c1 r7c5. Rows 1 and 7
        // are strong links joined in column 1; their tops r1c4 and r7c5
        // both see r2c5 (its box, its column), which loses 1.
        let mut b = board_with_only(1, &[0, 3, 10, 13, 54, 58]);
        assert!(b.find(Technique::Skyscraper));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::Skyscraper);
        assert_eq!(s.cells, vec![3, 0, 54, 58]);
        assert_eq!(s.eliminated, vec![(13, 1)]);
    }

    #[test]
    fn empty_rectangle_strikes_across_a_strong_link() {
        // Box 5 (rows 4-6, columns 4-6): 1 only at r5c4, r5c6 (row 5) and
        // r4c5, r6c5 (column 5). Column 8 has 1 only at r5c8 and r8c8:
        // r8c5 (row 8, column 5) loses 1.
        let mut keep: Vec<usize> = vec![39, 41, 31, 49, 43, 70];
        // Other places of 1 outside the pattern, off column 8 and box 5.
        keep.extend([0, 1, 2, 67, 68, 75, 76]);
        let mut b = board_with_only(1, &keep);
        assert!(b.find(Technique::EmptyRectangle));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::EmptyRectangle);
        assert_eq!(&s.cells[..2], &[43, 70]);
        assert_eq!(s.eliminated, vec![(67, 1)]);
    }

    #[test]
    fn kite_is_joined_in_a_box() {
        // 1 in row 1 only at r1c2 and r1c7; in column 1 only at r2c1 and
        // r8c1: r1c2 and r2c1 share box 1, so r8c7 loses 1.
        let mut b = board_with_only(1, &[1, 6, 9, 63, 69]);
        assert!(b.find(Technique::TwoStringKite));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::TwoStringKite);
        assert_eq!(s.eliminated, vec![(69, 1)]);
    }
}
