//! Uniqueness: unique rectangles types 1-4 (`u`), hidden rectangles (`h`)
//! and BUG+1 (`b`). Each rules out a position in which two digits could be
//! swapped among cells that are not givens, which would give the puzzle a
//! second solution. They are sound only on a puzzle known to have one
//! solution: [`Solver::assume_unique`](crate::logic::Solver::assume_unique) turns them on.
//!
//! A rectangle is four blank cells on two rows and two columns, in exactly
//! two boxes, all holding the candidates `a` and `b`:
//!
//! - type 1: three corners hold only `a,b`; the fourth loses both;
//! - type 2: two corners on one side hold only `a,b`, the other two `a,b`
//!   and the same one extra digit `x`; cells seeing both lose `x`;
//! - type 3: as type 2, but the extras of the two corners, taken as one
//!   cell, form a naked subset with other cells of a unit both share;
//! - type 4: as type 2, and `a` has no other place in a unit both extra
//!   corners share: they lose `b`;
//! - hidden rectangle: one corner holds only `a,b`; in the row and in the
//!   column of the opposite corner `a` has no place off the rectangle: the
//!   opposite corner loses `b`.
//!
//! BUG+1: every blank but one holds two candidates, and every digit has
//! two places or none in every unit, except one digit of the three-
//! candidate cell, with three places in each of its units: that digit is
//! the cell's value.

use crate::logic::words::Words;
use crate::logic::{bit, digits_of, Board, Step, Technique};

/// A rectangle: corners `[r1c1, r1c2, r2c1, r2c2]`.
pub(in crate::logic) type Rect = [usize; 4];

/// A position's candidates and its rectangles with their common digits.
pub(in crate::logic) type RectMemo = (Vec<u64>, Vec<(Rect, u64)>);

/// What the uniqueness family keeps: the rectangles of the last position
/// ([`RectMemo`]), for the five rectangle techniques that follow one
/// another on it and the positions after.
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct Uniqueness {
    /// The last position's rectangles.
    pub(in crate::logic) rects: Option<RectMemo>,
}

/// Makes the step for a type 3 subset (its other cells and all digits).
type SubsetStep<'a> = dyn FnMut(&Board, &[usize], u64) -> Option<Step> + 'a;

impl Uniqueness {
    /// [`Uniqueness::rectangles`], kept while the position stays the same: the
    /// five rectangle techniques run one after the other on a position.
    /// A later position's are the last ones that still share two
    /// candidates (candidates only go, so no rectangle is new), in the
    /// same order.
    fn rectangles_memo(&mut self, board: &Board) -> Vec<(Rect, u64)> {
        let rects = match self.rects.take() {
            Some((cands, rects)) if cands == board.cands => {
                self.rects = Some((cands, rects.clone()));
                return rects;
            }
            Some((mut cands, mut rects))
                if cands.len() == board.cands.len()
                    && board.cands.iter().zip(&cands).all(|(c, p)| c & !p == 0) =>
            {
                let now = &board.cands;
                rects.retain_mut(|(rect, common)| {
                    *common &= rect.iter().fold(u64::MAX, |m, &x| m & now[x]);
                    *common & common.wrapping_sub(1) != 0
                });
                debug_assert_eq!(rects, self.rectangles(board));
                cands.clone_from(&board.cands);
                self.rects = Some((cands, rects.clone()));
                return rects;
            }
            _ => self.rectangles(board),
        };
        self.rects = Some((board.cands.clone(), rects.clone()));
        rects
    }

    /// Every rectangle of blank cells in exactly two boxes whose corners
    /// share at least two candidates, with the candidates they share.
    fn rectangles(&self, board: &Board) -> Vec<(Rect, u64)> {
        let n = board.side;
        let mut out = Vec::new();
        for r1 in 0..n {
            for r2 in r1 + 1..n {
                for c1 in 0..n {
                    let (a, c) = (r1 * n + c1, r2 * n + c1);
                    let m1 = board.cands[a] & board.cands[c];
                    if m1 & m1.wrapping_sub(1) == 0 {
                        continue;
                    }
                    for c2 in c1 + 1..n {
                        let (b, e) = (r1 * n + c2, r2 * n + c2);
                        let m = m1 & board.cands[b] & board.cands[e];
                        if m & m.wrapping_sub(1) == 0 {
                            continue;
                        }
                        let mut boxes = [a, b, c, e].map(|x| board.cell_units[x][2]);
                        boxes.sort_unstable();
                        let distinct = 1 + boxes.windows(2).filter(|w| w[0] != w[1]).count();
                        if distinct == 2 {
                            out.push(([a, b, c, e], m));
                        }
                    }
                }
            }
        }
        out
    }

    /// The units (rows, columns, boxes) two cells share.
    fn shared_units(&self, board: &Board, x: usize, y: usize) -> Vec<usize> {
        (0..3)
            .filter(|&s| board.cell_units[x][s] == board.cell_units[y][s])
            .map(|s| board.cell_units[x][s])
            .collect()
    }

    fn rect_step(
        technique: Technique,
        digits: Vec<u8>,
        rect: Rect,
        mut eliminated: Vec<(usize, u8)>,
    ) -> Option<Step> {
        if eliminated.is_empty() {
            return None;
        }
        eliminated.sort_unstable();
        eliminated.dedup();
        Some(Step {
            technique,
            unit: None,
            digits,
            cells: rect.to_vec(),
            placed: None,
            eliminated,
            chains: Vec::new(),
        })
    }

    /// One unique rectangle of this type (1 to 4) that strikes something.
    pub(in crate::logic) fn unique_rectangle(&mut self, board: &mut Board, kind: u8) -> bool {
        for (rect, common) in self.rectangles_memo(board) {
            for a in digits_of(common) {
                for b in digits_of(common & !(u64::MAX >> (64 - a))) {
                    let step = self.rectangle_of_type(board, kind, rect, a, b);
                    if let Some(step) = step {
                        board.apply(step);
                        return true;
                    }
                }
            }
        }
        false
    }

    fn rectangle_of_type(&self, board: &Board, kind: u8, rect: Rect, a: u8, b: u8) -> Option<Step> {
        let pair = bit(a) | bit(b);
        // Type 1 has three corners holding the pair alone, the others
        // two: most rectangles met have neither, told before building.
        let bare = rect.iter().filter(|&&x| board.cands[x] == pair).count();
        if bare != if kind == 1 { 3 } else { 2 } {
            return None;
        }
        let floor: Vec<usize> = rect
            .iter()
            .copied()
            .filter(|&x| board.cands[x] == pair)
            .collect();
        let roof: Vec<usize> = rect
            .iter()
            .copied()
            .filter(|&x| board.cands[x] != pair)
            .collect();
        let technique = match kind {
            1 => Technique::UniqueRectangle1,
            2 => Technique::UniqueRectangle2,
            3 => Technique::UniqueRectangle3,
            _ => Technique::UniqueRectangle4,
        };
        if kind == 1 {
            if floor.len() != 3 {
                return None;
            }
            let x = roof[0];
            let elim = vec![(x, a), (x, b)];
            // The rectangle in reading order, the corner struck last.
            let mut cells = floor.clone();
            cells.push(x);
            let mut step = Self::rect_step(technique, vec![a, b], rect, elim)?;
            step.cells = cells;
            return Some(step);
        }
        // Types 2-4: the two roof corners on one side (sharing a line).
        if floor.len() != 2 {
            return None;
        }
        let (x, y) = (roof[0], roof[1]);
        let shared = self.shared_units(board, x, y);
        if !shared.iter().any(|&k| k < 2 * board.side) {
            return None;
        }
        let extra = (board.cands[x] | board.cands[y]) & !pair;
        let mut cells = floor.clone();
        cells.extend([x, y]);
        let step = match kind {
            2 => {
                let (ex, ey) = (board.cands[x] & !pair, board.cands[y] & !pair);
                if ex != ey || ex.count_ones() != 1 {
                    return None;
                }
                let z = digits_of(ex).next()?;
                let elim: Vec<(usize, u8)> = board
                    .common_peers(&[x, y])
                    .filter(|&c| board.cands[c] & ex != 0)
                    .map(|c| (c, z))
                    .collect();
                Self::rect_step(technique, vec![a, b, z], rect, elim)
            }
            3 => shared
                .iter()
                .find_map(|&k| self.ur_type3(board, k, x, y, extra, a, b, rect)),
            _ => {
                let mut found = None;
                for (keep, strike) in [(a, b), (b, a)] {
                    let locked = shared.iter().any(|&k| {
                        board.units[k]
                            .iter()
                            .all(|&c| c == x || c == y || board.cands[c] & bit(keep) == 0)
                    });
                    if locked {
                        found = Self::rect_step(
                            technique,
                            vec![keep, strike],
                            rect,
                            vec![(x, strike), (y, strike)],
                        );
                        break;
                    }
                }
                found
            }
        };
        // The floor, then the roof, then (type 3) the subset's other cells.
        step.map(|mut s| {
            let subset = s.cells.split_off(4);
            s.cells = cells;
            s.cells.extend(subset);
            s
        })
    }

    /// Type 3 in unit `k`: the extras `extra` of roof corners `x` and `y`
    /// with `size` other cells of `k` hold `size + 1` digits.
    #[allow(clippy::too_many_arguments)]
    fn ur_type3(
        &self,
        board: &Board,
        k: usize,
        x: usize,
        y: usize,
        extra: u64,
        a: u8,
        b: u8,
        rect: Rect,
    ) -> Option<Step> {
        let others: Vec<usize> = board.units[k]
            .iter()
            .copied()
            .filter(|&c| c != x && c != y && board.cands[c] != 0)
            .collect();
        fn go(
            board: &Board,
            others: &[usize],
            from: usize,
            union: u64,
            pick: &mut Vec<usize>,
            found: &mut SubsetStep<'_>,
        ) -> Option<Step> {
            if !pick.is_empty() && union.count_ones() as usize == pick.len() + 1 {
                if let Some(s) = found(board, pick, union) {
                    return Some(s);
                }
            }
            if pick.len() == 3 {
                return None;
            }
            for j in from..others.len() {
                let u = union | board.cands[others[j]];
                if u.count_ones() > 4 {
                    continue;
                }
                pick.push(others[j]);
                let s = go(board, others, j + 1, u, pick, found);
                pick.pop();
                if s.is_some() {
                    return s;
                }
            }
            None
        }
        let mut found = |board: &Board, pick: &[usize], union: u64| {
            let elim: Vec<(usize, u8)> = others
                .iter()
                .copied()
                .filter(|c| !pick.contains(c))
                .flat_map(|c| digits_of(board.cands[c] & union).map(move |d| (c, d)))
                .collect();
            let mut digits = vec![a, b];
            digits.extend(digits_of(union));
            let mut step = Self::rect_step(Technique::UniqueRectangle3, digits, rect, elim)?;
            // The rectangle, then the subset's other cells.
            step.cells.extend(pick);
            step.unit = Some(board.unit_of(k));
            Some(step)
        };
        let mut pick = Vec::new();
        go(board, &others, 0, extra, &mut pick, &mut found)
    }

    /// One hidden rectangle that strikes something.
    pub(in crate::logic) fn hidden_rectangle(&mut self, board: &mut Board) -> bool {
        for (rect, common) in self.rectangles_memo(board) {
            for a in digits_of(common) {
                for b in digits_of(common & !(u64::MAX >> (64 - a))) {
                    let pair = bit(a) | bit(b);
                    // Corner k's opposite is 3 - k; its row-mate k ^ 1 and
                    // column-mate k ^ 2.
                    for k in 0..4 {
                        let p = rect[k];
                        if board.cands[p] != pair {
                            continue;
                        }
                        let x = rect[3 - k];
                        let (row_mate, col_mate) = (rect[(3 - k) ^ 1], rect[(3 - k) ^ 2]);
                        for (u, v) in [(a, b), (b, a)] {
                            let only = |unit: usize, mate: usize| {
                                board.units[unit]
                                    .iter()
                                    .all(|&c| c == x || c == mate || board.cands[c] & bit(u) == 0)
                            };
                            if only(board.cell_units[x][0], row_mate)
                                && only(board.cell_units[x][1], col_mate)
                            {
                                let step = Self::rect_step(
                                    Technique::HiddenRectangle,
                                    vec![u, v],
                                    rect,
                                    vec![(x, v)],
                                );
                                if let Some(mut step) = step {
                                    // The pair corner first, the struck one last.
                                    step.cells = vec![p, row_mate, col_mate, x];
                                    board.apply(step);
                                    return true;
                                }
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// BUG+1: the one value that avoids a bivalue universal grave.
    pub(in crate::logic) fn bug_plus_one(&mut self, board: &mut Board) -> bool {
        let mut triple = None;
        for (c, &m) in board.cands.iter().enumerate() {
            match m.count_ones() {
                0 | 2 => {}
                3 if triple.is_none() => triple = Some(c),
                _ => return false,
            }
        }
        let Some(t) = triple else { return false };
        let n = board.side;
        // The digit of `t` with three places in `t`'s row.
        let row = board.cell_units[t][0];
        let Some(z) = digits_of(board.cands[t]).find(|&d| board.places(row, d).count_ones() == 3)
        else {
            return false;
        };
        for k in 0..3 * n {
            for d in 1..=n as u8 {
                let count = board.places(k, d).count_ones();
                let want_three = d == z && board.cell_units[t].contains(&k);
                let fits = if want_three {
                    count == 3
                } else {
                    count == 0 || count == 2
                };
                if !fits {
                    return false;
                }
            }
        }
        board.assign(t, z);
        board.steps.push(Step {
            technique: Technique::BugPlusOne,
            unit: None,
            digits: vec![z],
            cells: vec![t],
            placed: Some((t, z)),
            eliminated: Vec::new(),
            chains: Vec::new(),
        });
        true
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (Technique::BugPlusOne, Some((c, d))) => format!(
            "{name}: every blank but {} has two candidates, and {} has three places in its row, column and box → {} = {}",
            w.cell(c),
            w.digit(d),
            w.cell(c),
            w.digit(d)
        ),
        (
            Technique::UniqueRectangle1
            | Technique::UniqueRectangle2
            | Technique::UniqueRectangle3
            | Technique::UniqueRectangle4,
            None,
        ) if step.cells.len() >= 4 && step.digits.len() >= 2 => {
            let pair = w.digits(&step.digits[..2]);
            let c = &step.cells;
            let rect = w.cells(&c[..4]);
            let why = match step.technique {
                Technique::UniqueRectangle1 => format!(
                    "{} hold only {pair}, so {} must not",
                    w.cells(&c[..3]),
                    w.cell(c[3])
                ),
                Technique::UniqueRectangle2 => format!(
                    "{} and {} hold {pair} and the same extra {}, which one of them must be",
                    w.cell(c[2]),
                    w.cell(c[3]),
                    step.digits.get(2).map(|&z| w.digit(z)).unwrap_or_default()
                ),
                Technique::UniqueRectangle3 => format!(
                    "the extras of {} and {} ({}) form a naked subset with {}{}",
                    w.cell(c[2]),
                    w.cell(c[3]),
                    w.digits(&step.digits[2..]),
                    w.cells(&c[4..]),
                    step.unit.map(|u| format!(" in {}", w.unit(u))).unwrap_or_default()
                ),
                _ => {
                    let locked = w
                        .shared(&c[2..4])
                        .into_iter()
                        .map(|u| w.unit(u))
                        .next()
                        .unwrap_or_default();
                    format!(
                        "{} has no place in {locked} but {} and {}, so neither may be {}",
                        w.digit(step.digits[0]),
                        w.cell(c[2]),
                        w.cell(c[3]),
                        w.digit(step.digits[1])
                    )
                }
            };
            format!("{name} on {pair} ({rect}): {why}: {removes}")
        }
        (Technique::HiddenRectangle, None) if step.cells.len() == 4 && step.digits.len() == 2 => {
            let [p, q, s2, x] = [step.cells[0], step.cells[1], step.cells[2], step.cells[3]];
            let (u, v) = (step.digits[0], step.digits[1]);
            format!(
                "{name} on {} ({}): {} holds only {}, and {} has no place in {} and {} but the rectangle's, so {} may not be {}: {removes}",
                w.digits(&step.digits),
                w.cells(&[p, q, s2, x]),
                w.cell(p),
                w.digits(&step.digits),
                w.digit(u),
                w.unit(w.units_of(x)[0]),
                w.unit(w.units_of(x)[1]),
                w.cell(x),
                w.digit(v)
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::grid::{BoxShape, Grid};
    use crate::logic::{Solver, Technique};

    fn empty() -> Solver {
        let mut b = crate::logic::tests::empty_by_hand();
        b.assume_unique();
        b
    }

    #[test]
    fn type_1_strikes_the_pair_from_the_fourth_corner() {
        let mut b = empty();
        // r1c1, r1c4, r2c1 hold {1,2}; r2c4 holds {1,2,3}.
        for c in [0, 3, 9] {
            b.cands[c] = 0b11;
        }
        b.cands[12] = 0b111;
        assert!(b.find(Technique::UniqueRectangle1));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::UniqueRectangle1);
        assert_eq!(s.eliminated, vec![(12, 1), (12, 2)]);
        assert_eq!(s.cells, vec![0, 3, 9, 12]);
    }

    #[test]
    fn rectangles_in_four_boxes_are_not_deadly() {
        let mut b = empty();
        // r1c1, r1c4, r4c1 {1,2}, r4c4 {1,2,3}: four boxes, no rectangle.
        for c in [0, 3, 27] {
            b.cands[c] = 0b11;
        }
        b.cands[30] = 0b111;
        assert!(!b.find(Technique::UniqueRectangle1));
    }

    #[test]
    fn type_2_and_type_4() {
        let mut b = empty();
        // Floor r1c1, r2c1 {1,2}; roof r1c4, r2c4 {1,2,3}: type 2 strikes
        // 3 from cells seeing both roofs (column 4, box 2).
        for c in [0, 9] {
            b.cands[c] = 0b11;
        }
        for c in [3, 12] {
            b.cands[c] = 0b111;
        }
        assert!(b.find(Technique::UniqueRectangle2));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.technique, Technique::UniqueRectangle2);
        assert!(s.eliminated.contains(&(21, 3)) && s.eliminated.contains(&(4, 3)));
        assert!(s.eliminated.iter().all(|&(_, d)| d == 3));
        // Type 4: 1 only at the roofs in column 4: they lose 2.
        for r in 2..9 {
            b.cands[r * 9 + 3] &= !1;
        }
        assert!(b.find(Technique::UniqueRectangle4));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::UniqueRectangle4);
        assert_eq!(s.eliminated, vec![(3, 2), (12, 2)]);
    }

    #[test]
    fn type_3_with_a_naked_pair() {
        let mut b = empty();
        // Floor r1c1, r2c1 {1,2}; roofs r1c4 {1,2,3}, r2c4 {1,2,4}; r5c4
        // {3,4}: the extras {3,4} and r5c4 make a pair in column 4.
        for c in [0, 9] {
            b.cands[c] = 0b11;
        }
        b.cands[3] = 0b0111;
        b.cands[12] = 0b1011;
        b.cands[39] = 0b1100;
        assert!(b.find(Technique::UniqueRectangle3));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::UniqueRectangle3);
        assert!(s.eliminated.contains(&(30, 3)) && s.eliminated.contains(&(30, 4)));
        assert!(!s.eliminated.iter().any(|&(c, _)| c == 39));
        assert_eq!(s.cells[4..], [39]);
    }

    #[test]
    fn hidden_rectangle_strikes_the_opposite_corner() {
        let mut b = empty();
        // r1c1 {1,2}; r1c4, r2c1, r2c4 hold 1, 2 and more. 1 in row 2 only
        // at r2c1 and r2c4, in column 4 only at r1c4 and r2c4: r2c4 loses 2.
        b.cands[0] = 0b11;
        for c in 0..81 {
            let (r, col) = (c / 9, c % 9);
            if (r == 1 || col == 3) && ![9, 12, 3].contains(&c) {
                b.cands[c] &= !1;
            }
        }
        assert!(b.find(Technique::HiddenRectangle));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::HiddenRectangle);
        assert_eq!(s.eliminated, vec![(12, 2)]);
        assert_eq!(s.cells, vec![0, 9, 3, 12]);
    }

    #[test]
    fn uniqueness_waits_for_the_proof() {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        for c in [0, 3, 9] {
            b.cands[c] = 0b11;
        }
        b.cands[12] = 0b111;
        assert!(!b.assumes_unique());
        // The ladder's step skips uniqueness on a board not told.
        b.order = vec![Technique::UniqueRectangle1, Technique::HiddenRectangle];
        assert!(!b.step());
        b.assume_unique();
        assert!(b.step());
    }
}
