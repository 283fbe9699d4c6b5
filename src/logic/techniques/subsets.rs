//! Subsets: naked pairs, triples and quads (`2` `3` `4`, locked pairs and
//! triples when the cells also share a box and a line and strike in the
//! box and on the line outside it), hidden pairs, triples and quads (`*`
//! `^` `&`), searched as HoDoKu searches them: boxes, rows, then columns.

use crate::grid::Unit;
use crate::logic::memo::Run;
use crate::logic::words::Words;
use crate::logic::{at_most, bit, digits_of, Board, Step, Technique};

/// The largest subset searched for.
const MAX_SIZE: usize = 4;

/// A unit's subsets of every size: its cells of two to [`MAX_SIZE`]
/// candidates (naked) and its digits of two to `MAX_SIZE` places (hidden)
/// whose masks cover as many bits as there are of them, each in the order
/// the search of its size meets it (items in the unit's order, choices in
/// lexicographic order). They depend on the unit's candidates alone, so
/// they are found once while these stay, for the pairs, triples and
/// quads that follow one another on a position (and the positions after,
/// in units that did not change); whether one strikes is told anew.
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct UnitSubsets {
    /// Whether the subsets were found (for `cands`).
    made: bool,
    /// The candidates of the unit's cells they were found in.
    cands: Vec<u64>,
    /// Cells whose candidates cover as many digits.
    naked: Vec<Cover<usize>>,
    /// Digits whose places cover as many cells.
    hidden: Vec<Cover<u8>>,
}

/// What the subsets family keeps: each unit's naked and hidden subsets
/// and the candidates they were found in ([`UnitSubsets`]).
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct Subsets {
    /// By unit (rows, columns, boxes).
    pub(in crate::logic) units: Vec<UnitSubsets>,
}

/// A choice of items (cells, digits) and the union of their masks.
#[derive(Debug, Clone, Copy)]
struct Cover<T> {
    items: [T; MAX_SIZE],
    len: usize,
    union: u64,
}

impl<T> Cover<T> {
    fn items(&self) -> &[T] {
        &self.items[..self.len]
    }
}

/// Every choice of two to [`MAX_SIZE`] of `items` (a key and a mask each)
/// whose masks cover as many bits as there are items chosen, into `out`:
/// depth first, items in order, a branch cut as soon as its union passes
/// `MAX_SIZE` bits. The choices of one size come in the order the search
/// for that size alone meets them (the same tree, cut sooner).
fn covers<T: Copy + Default>(items: &[(T, u64)], out: &mut Vec<Cover<T>>) {
    fn go<T: Copy>(
        items: &[(T, u64)],
        from: usize,
        (union, len): (u64, usize),
        pick: &mut [T; MAX_SIZE],
        out: &mut Vec<Cover<T>>,
    ) {
        for (j, &(key, mask)) in items.iter().enumerate().skip(from) {
            let u = union | mask;
            if !at_most(u, MAX_SIZE) {
                continue;
            }
            pick[len] = key;
            if len >= 1 && u.count_ones() as usize == len + 1 {
                out.push(Cover {
                    items: *pick,
                    len: len + 1,
                    union: u,
                });
            }
            if len + 1 < MAX_SIZE {
                go(items, j + 1, (u, len + 1), pick, out);
            }
        }
    }
    out.clear();
    go(items, 0, (0, 0), &mut [T::default(); MAX_SIZE], out);
}

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

impl Subsets {
    /// One naked subset of `size` cells that strikes something, as HoDoKu
    /// finds them: in boxes, rows, then columns, each striking in every
    /// unit its cells share. With `locked`, only subsets (pairs and
    /// triples) of a box that share a line too and strike both in the box
    /// and on the line outside it (HoDoKu's locked pair and triple),
    /// searched in the boxes alone.
    pub(in crate::logic) fn naked_subset(
        &mut self,
        board: &mut Board,
        run: &mut Run,
        size: usize,
        locked: bool,
    ) -> bool {
        let n = board.side;
        let t = naked_technique(size, locked);
        // The units unchanged since its last search in vain (`facts.rs`).
        let skip = run.units_unchanged(board, t);
        let units = if locked { 2 * n..3 * n } else { 2 * n..5 * n };
        for k in units.map(|k| k % (3 * n)) {
            if skip.as_ref().is_some_and(|u| u[k]) {
                continue;
            }
            self.find_unit_subsets(board, k);
            let step = self.units[k]
                .naked
                .iter()
                .filter(|c| c.len == size)
                .find_map(|c| self.naked_step(board, k, c.items(), c.union, locked));
            if let Some(step) = step {
                board.apply(step);
                return true;
            }
        }
        false
    }

    /// Finds unit `k`'s subsets ([`UnitSubsets`], kept in the board's
    /// cache) anew if its candidates changed since they were.
    fn find_unit_subsets(&mut self, board: &Board, k: usize) {
        let n = board.side;
        if self.units.len() != board.units.len() {
            self.units = vec![UnitSubsets::default(); board.units.len()];
        }
        let cells = &board.units[k];
        let memo = &mut self.units[k];
        let same = memo.made
            && memo.cands.len() == cells.len()
            && cells
                .iter()
                .zip(&memo.cands)
                .all(|(&c, &m)| board.cands[c] == m);
        if !same {
            memo.made = true;
            memo.cands.clear();
            memo.cands.extend(cells.iter().map(|&c| board.cands[c]));
            // Cells of two to MAX_SIZE candidates, digits of two to
            // MAX_SIZE places.
            let mut items = [(0usize, 0u64); 64];
            let mut len = 0;
            for &c in cells.iter() {
                let m = board.cands[c];
                if m & m.wrapping_sub(1) != 0 && at_most(m, MAX_SIZE) {
                    items[len] = (c, m);
                    len += 1;
                }
            }
            covers(&items[..len], &mut memo.naked);
            let mut places = [(0u8, 0u64); 64];
            let mut len = 0;
            for d in 1..=n as u8 {
                let p = cells
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| board.cands[c] & bit(d) != 0)
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                if p & p.wrapping_sub(1) != 0 && at_most(p, MAX_SIZE) {
                    places[len] = (d, p);
                    len += 1;
                }
            }
            covers(&places[..len], &mut memo.hidden);
        }
    }

    /// The step for the cells `pick` of unit `k` holding the digits
    /// `union` between them, if it strikes something: in every unit the
    /// cells share (HoDoKu's `createSubsetStep`). With `locked`, only a
    /// locked subset: a pair or triple sharing a box and a line, striking
    /// in the box and on the line outside the box.
    fn naked_step(
        &self,
        board: &Board,
        k: usize,
        pick: &[usize],
        union: u64,
        locked: bool,
    ) -> Option<Step> {
        let size = pick.len();
        let n = board.side;
        // The units the cells share (without an allocation: most subsets
        // met were used before and strike nothing).
        let mut shared = [0usize; 3];
        let mut len = 0;
        for slot in 0..3 {
            let u = board.cell_units[pick[0]][slot];
            if pick.iter().all(|&c| board.cell_units[c][slot] == u) {
                shared[len] = u;
                len += 1;
            }
        }
        let shared = &shared[..len];
        let the_box = board.cell_units[pick[0]][2];
        // In HoDoKu's order (its `createSubsetStep`): unit by unit (row,
        // column, box), cells in the unit's order; the order the strikes
        // fill its queues of singles in.
        let mut eliminated: Vec<(usize, u8)> = Vec::new();
        // Strikes in the box, and on a line outside the box.
        let (mut in_box, mut on_line) = (false, false);
        for &u in shared {
            for &c in &board.units[u] {
                if pick.contains(&c) || board.cands[c] & union == 0 {
                    continue;
                }
                if u >= 2 * n {
                    in_box = true;
                } else if board.cell_units[c][2] != the_box {
                    on_line = true;
                }
                for d in digits_of(board.cands[c] & union) {
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
            unit: Some(board.unit_of(k)),
            digits: digits_of(union).collect(),
            cells: pick.to_vec(),
            placed: None,
            chains: Vec::new(),
            eliminated,
        })
    }

    /// One hidden subset of `size` digits (2 to 4) that strikes something.
    pub(in crate::logic) fn hidden_subset(
        &mut self,
        board: &mut Board,
        run: &mut Run,
        size: usize,
    ) -> bool {
        let n = board.side;
        // The units unchanged since its last search in vain (`facts.rs`).
        let t = match size {
            2 => Technique::HiddenPair,
            3 => Technique::HiddenTriple,
            _ => Technique::HiddenQuad,
        };
        let skip = run.units_unchanged(board, t);
        // HoDoKu's order: boxes, rows, then columns.
        for k in (2 * n..3 * n).chain(0..2 * n) {
            if skip.as_ref().is_some_and(|u| u[k]) {
                continue;
            }
            self.find_unit_subsets(board, k);
            let step = self.units[k]
                .hidden
                .iter()
                .filter(|c| c.len == size)
                .find_map(|c| self.hidden_step(board, k, c.items(), c.union));
            if let Some(step) = step {
                board.apply(step);
                return true;
            }
        }
        false
    }

    /// The step for the digits `pick` confined to the positions `union`
    /// of unit `k`, if their cells hold other candidates to strike.
    fn hidden_step(&self, board: &Board, k: usize, pick: &[u8], union: u64) -> Option<Step> {
        let keep: u64 = pick.iter().map(|&d| bit(d)).fold(0, |a, b| a | b);
        // Most digit sets met strike nothing (one already used keeps its
        // pattern): tell so before building the step.
        if digits_of(union).all(|i| board.cands[board.units[k][i as usize - 1]] & !keep == 0) {
            return None;
        }
        let cells: Vec<usize> = digits_of(union)
            .map(|i| board.units[k][i as usize - 1])
            .collect();
        let eliminated: Vec<(usize, u8)> = cells
            .iter()
            .flat_map(|&c| digits_of(board.cands[c] & !keep).map(move |d| (c, d)))
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
            unit: Some(board.unit_of(k)),
            digits: pick.to_vec(),
            cells,
            placed: None,
            eliminated,
            chains: Vec::new(),
        })
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (
            Technique::NakedPair
            | Technique::NakedTriple
            | Technique::NakedQuad
            | Technique::LockedPair
            | Technique::LockedTriple
            | Technique::HiddenPair
            | Technique::HiddenTriple
            | Technique::HiddenQuad,
            None,
        ) => {
            let mut units: Vec<Unit> = step.unit.into_iter().collect();
            if matches!(
                step.technique,
                Technique::LockedPair | Technique::LockedTriple
            ) {
                units.extend(
                    w.shared(&step.cells)
                        .into_iter()
                        .filter(|u| Some(*u) != step.unit),
                );
                units.truncate(2);
            }
            let units: Vec<String> = units.into_iter().map(|u| w.unit(u)).collect();
            format!(
                "{name} {} in {} ({}): {removes}",
                w.digits(&step.digits),
                w.cells(&step.cells),
                units.join(", ")
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::grid::{BoxShape, Grid};
    use crate::logic::{Solver, Technique};

    /// The covers of `size` among `items` (masks of 2 to `size` bits) a
    /// search of that size alone meets, and those of `kept`, in order.
    #[allow(clippy::type_complexity)]
    fn both_ways<T: Copy + Default>(
        items: &[(T, u64)],
        kept: &[super::Cover<T>],
        size: usize,
    ) -> (Vec<(Vec<T>, u64)>, Vec<(Vec<T>, u64)>) {
        let items: Vec<(T, u64)> = items
            .iter()
            .copied()
            .filter(|&(_, m)| (2..=size).contains(&(m.count_ones() as usize)))
            .collect();
        let mut want = Vec::new();
        crate::logic::first_cover(&items, size, &mut Vec::new(), &mut |pick, u| {
            want.push((pick.to_vec(), u));
            None
        });
        let got = kept
            .iter()
            .filter(|c| c.len == size)
            .map(|c| (c.items().to_vec(), c.union))
            .collect();
        (got, want)
    }

    #[test]
    fn a_units_subsets_are_those_each_sizes_search_meets_in_order() {
        // At every position of hard puzzles, in every unit: the naked and
        // hidden subsets kept, of each size, are the covers a search of
        // that size alone (`first_cover`, asked for all) meets, in order.
        let (mut naked, mut hidden) = (0, 0);
        crate::logic::tests::each_hard_position(12, |b| {
            let mut b = b.clone();
            let n = b.side;
            for k in 0..3 * n {
                b.families.subsets.find_unit_subsets(&b.board, k);
                let kept = b.families.subsets.units[k].clone();
                let cells: Vec<(usize, u64)> =
                    b.units[k].iter().map(|&c| (c, b.cands[c])).collect();
                let places: Vec<(u8, u64)> = (1..=n as u8).map(|d| (d, b.places(k, d))).collect();
                for size in 2..=4 {
                    let (got, want) = both_ways(&cells, &kept.naked, size);
                    assert_eq!(got, want, "naked {size} in unit {k}");
                    naked += got.len();
                    let (got, want) = both_ways(&places, &kept.hidden, size);
                    assert_eq!(got, want, "hidden {size} in unit {k}");
                    hidden += got.len();
                }
            }
        });
        assert!(naked > 1000 && hidden > 1000, "{naked} {hidden}");
    }

    fn empty_board() -> Solver {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        Solver::edited_by_hand(&p)
    }

    #[test]
    fn locked_pair_strikes_in_line_and_box() {
        let mut b = empty_board();
        b.cands[0] = 0b11;
        b.cands[1] = 0b11;
        assert!(b.find(Technique::LockedPair));
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
        assert_eq!(b.candidates(5).bits() & 0b11, 0);
        assert_eq!(
            b.candidates(27).bits() & 0b11,
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
        assert!(!b.find(Technique::LockedPair));
        assert!(b.find(Technique::NakedPair));
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
        assert!(!b.find(Technique::LockedPair));
        assert!(b.find(Technique::NakedPair));
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
        assert!(!b.find(Technique::LockedTriple), "not in one box");
        assert!(b.find(Technique::NakedTriple));
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
        assert!(b.find(Technique::HiddenQuad));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.technique, Technique::HiddenQuad);
        assert_eq!(s.cells, vec![0, 1, 2, 3]);
        assert!((0..4).all(|c| b.candidates(c).bits() == 0b1111));
    }
}
