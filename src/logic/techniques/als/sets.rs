//! The almost locked sets of a position, kept from one position to the
//! next ([`AlmostLockedSets::als_data`]), and the restricted commons of two.

use std::sync::Arc;

use super::AlmostLockedSets;
use super::{Als, AlsData, Commons, MAX_CELLS_LARGE, MAX_SETS};
use crate::logic::{bit, Board, Cells};

impl AlmostLockedSets {
    /// The sets and their restricted commons, gathered once per position:
    /// from the last position's, where a unit's cells, or a set's own
    /// cells, have not changed (the same sets, the same restricted commons
    /// between two of them).
    pub(super) fn als_data(&mut self, board: &Board) -> Arc<AlsData> {
        let at = board.steps.len();
        let prev = match self.last.take() {
            Some((s, cands, data)) if s == at => {
                self.last = Some((s, cands, Arc::clone(&data)));
                return data;
            }
            Some((_, cands, data)) if !data.truncated && cands.len() == board.cands.len() => {
                Some((cands, data))
            }
            _ => None,
        };
        let units = board.units.len();
        let words = board.cands.len().div_ceil(64);
        let peer_fold: Vec<u128> = if board.cands.len() <= 128 {
            board.peer_sets.chunks(words).map(|p| p.folded()).collect()
        } else {
            Vec::new()
        };
        let mut als: Vec<Arc<Als>> = Vec::new();
        let mut unit_at = Vec::with_capacity(units + 1);
        // The index of each set in the last position's list, if from it.
        let mut was: Vec<usize> = Vec::new();
        unit_at.push(0);
        for k in 0..units {
            let kept = prev
                .as_ref()
                .filter(|(cands, _)| board.units[k].iter().all(|&c| cands[c] == board.cands[c]));
            match kept {
                Some((_, old)) => {
                    for o in old.unit_at[k]..old.unit_at[k + 1] {
                        als.push(Arc::clone(&old.als[o]));
                        was.push(o);
                    }
                }
                None => {
                    let old = prev.as_ref().map(|(cands, data)| (&cands[..], &**data));
                    for (a, o) in self.unit_als(board, k, old, &peer_fold) {
                        als.push(a);
                        was.push(o);
                    }
                }
            }
            unit_at.push(als.len());
        }
        let truncated = als.len() > MAX_SETS;
        if truncated {
            let mut order: Vec<usize> = (0..als.len()).collect();
            order.sort_by_key(|&i| als[i].cells.len());
            order.truncate(MAX_SETS);
            als = order.iter().map(|&i| Arc::clone(&als[i])).collect();
            was.clear();
            was.resize(als.len(), usize::MAX);
        }
        let small = board.cands.len() <= 128;
        let n = board.side;
        // Each pair of sets sharing a restricted common, once.
        let mut pairs: Vec<(u32, u32, u64)> = Vec::new();
        // The last position's commons between two sets both kept.
        let old = prev.as_ref().map(|(_, d)| d).filter(|_| !truncated);
        let mut is_new = vec![true; als.len()];
        if let Some(old) = old {
            let mut now = vec![usize::MAX; old.als.len()];
            for (j, &o) in was.iter().enumerate() {
                if o != usize::MAX {
                    now[o] = j;
                    is_new[j] = false;
                }
            }
            for (j, &o) in was.iter().enumerate() {
                if o != usize::MAX {
                    // Each pair is in both its sets' rows: taken from the
                    // first set's.
                    pairs.extend(old.rcc.of(o).iter().filter_map(|&(k, r)| {
                        let k = now[k];
                        (k != usize::MAX && k > j).then_some((j as u32, k as u32, r))
                    }));
                }
            }
        }
        // The pairs to work out: each new set with every kept one and
        // every later new one (all pairs when nothing was kept).
        let pair = |j: usize, k: usize| k != j && (!is_new[k] || k > j);
        if small {
            self.commons_indexed(board, &als, &is_new, &pair, &mut pairs);
        } else {
            for j in (0..als.len()).filter(|&j| is_new[j]) {
                for k in (0..als.len()).filter(|&k| pair(j, k)) {
                    // Restricted commons are symmetric: every x of one set
                    // sees every x of the other.
                    let (i, k) = (j.min(k), j.max(k));
                    let r = Self::restricted(&als[i], &als[k], small);
                    if r != 0 {
                        pairs.push((i as u32, k as u32, r));
                    }
                }
            }
        }
        let rcc = Commons::from_pairs(als.len(), &pairs);
        // Each digit's candidates, folded: a quick test of whether two
        // sets strike anything.
        let mut cand_fold = vec![0u128; n];
        for (c, &m) in board.cands.iter().enumerate() {
            for d in crate::logic::digits_of(m) {
                cand_fold[d as usize - 1] |= 1u128 << (c % 128);
            }
        }
        let mut reach = vec![0u128; als.len() * n];
        let strikable = als
            .iter()
            .zip(reach.chunks_mut(n.max(1)))
            .map(|(a, reach)| {
                let own = if small { !a.fold } else { u128::MAX };
                crate::logic::digits_of(a.mask)
                    .filter(|&z| {
                        let i = z as usize - 1;
                        reach[i] = a.seen_fold[i] & cand_fold[i] & own;
                        reach[i] != 0
                    })
                    .fold(0, |m, z| m | bit(z))
            })
            .collect();
        let folds = als.iter().map(|a| a.fold).collect();
        let data = Arc::new(AlsData {
            folds,
            als,
            rcc,
            unit_at,
            truncated,
            cand_fold,
            strikable,
            reach,
        });
        self.last = Some((at, board.cands.clone(), Arc::clone(&data)));
        data
    }

    /// The restricted commons of each new set `j` (`is_new`) with the
    /// sets `k` that `pair(j, k)` asks for, on a grid of 128 cells or
    /// fewer (the folds are exact), each pair once into `pairs`.
    /// `x` is a restricted common when every cell of one set holding it
    /// sees every cell of the other holding it (both ways alike): so the
    /// new set's first such cell sees every `x` of the other. The new
    /// sets alone are put in an index by digit and first cell, and every
    /// set looks itself up there: a position keeps most of the last one's
    /// sets, so the index is small.
    pub(super) fn commons_indexed(
        &self,
        board: &Board,
        als: &[Arc<Als>],
        is_new: &[bool],
        pair: &dyn Fn(usize, usize) -> bool,
        pairs: &mut Vec<(u32, u32, u64)>,
    ) {
        let n = board.side;
        let cells = board.cands.len();
        let new = || (0..als.len()).filter(|&j| is_new[j]);
        // New sets by (digit index, first cell holding it), in one array;
        // and per digit the cells first in some new set, so that only
        // their slots are read.
        let mut at = vec![0u32; n * cells + 1];
        let mut firsts_of = vec![0u128; n];
        for a in new().map(|j| &als[j]) {
            for x in crate::logic::digits_of(a.mask) {
                let i = x as usize - 1;
                let w = a.with_fold[i];
                at[i * cells + w.trailing_zeros() as usize + 1] += 1;
                firsts_of[i] |= w & w.wrapping_neg();
            }
        }
        for i in 0..n * cells {
            at[i + 1] += at[i];
        }
        let mut fill = at.clone();
        // The new set and its cells holding the digit.
        let mut list = vec![(0u32, 0u128); at[n * cells] as usize];
        for j in new() {
            let a = &als[j];
            for x in crate::logic::digits_of(a.mask) {
                let i = x as usize - 1;
                let slot = i * cells + a.with_fold[i].trailing_zeros() as usize;
                list[fill[slot] as usize] = (j as u32, a.with_fold[i]);
                fill[slot] += 1;
            }
        }
        let mut acc = vec![0u64; als.len()];
        let mut touched: Vec<usize> = Vec::new();
        for (k, b) in als.iter().enumerate() {
            for x in crate::logic::digits_of(b.mask) {
                let i = x as usize - 1;
                let seen = b.seen_fold[i];
                let mut firsts = seen & firsts_of[i];
                while firsts != 0 {
                    let c = firsts.trailing_zeros() as usize;
                    firsts &= firsts - 1;
                    let slot = i * cells + c;
                    for &(j, with) in &list[at[slot] as usize..at[slot + 1] as usize] {
                        let j = j as usize;
                        if with & !seen == 0 {
                            if acc[j] == 0 {
                                touched.push(j);
                            }
                            acc[j] |= 1 << i;
                        }
                    }
                }
            }
            for &j in &touched {
                let r = std::mem::take(&mut acc[j]);
                if pair(j, k) && b.fold & als[j].fold == 0 {
                    let (lo, hi) = (j.min(k), j.max(k));
                    pairs.push((lo as u32, hi as u32, r));
                }
            }
            touched.clear();
        }
    }

    /// The ALS of unit `k` that no earlier unit holds (each cell set
    /// once, from the first unit holding it: rows, columns, boxes), each
    /// with its index in `old`'s sets (the last position's candidates
    /// and sets) when its cells are unchanged since, else `usize::MAX`.
    /// `peer_fold`: each cell's peers folded on a grid of 128 cells or
    /// fewer (the folds are exact there), else empty.
    pub(super) fn unit_als(
        &self,
        board: &Board,
        k: usize,
        old: Option<(&[u64], &AlsData)>,
        peer_fold: &[u128],
    ) -> Vec<(Arc<Als>, usize)> {
        let n = board.side;
        let words = (n * n).div_ceil(64);
        let max = if n > 9 { MAX_CELLS_LARGE } else { n };
        let mut out = Vec::new();
        let unit = &board.units[k];
        let blanks: Vec<usize> = unit
            .iter()
            .copied()
            .filter(|&c| board.cands[c] != 0)
            .collect();
        let mut pick: Vec<usize> = Vec::new();
        #[allow(clippy::too_many_arguments)]
        fn go(
            b: &Board,
            blanks: &[usize],
            from: usize,
            mask: u64,
            max: usize,
            pick: &mut Vec<usize>,
            found: &mut Vec<(Vec<usize>, u64)>,
        ) {
            for j in from..blanks.len() {
                let m = mask | b.cands[blanks[j]];
                if m.count_ones() as usize > max.min(blanks.len() - 1) + 1 {
                    continue;
                }
                pick.push(blanks[j]);
                if m.count_ones() as usize == pick.len() + 1 {
                    found.push((pick.clone(), m));
                }
                if pick.len() < max.min(blanks.len().saturating_sub(1)) {
                    go(b, blanks, j + 1, m, max, pick, found);
                }
                pick.pop();
            }
        }
        let mut found = Vec::new();
        go(board, &blanks, 0, 0, max, &mut pick, &mut found);
        for (mut cells, mask) in found {
            cells.sort_unstable();
            // Each set once, from the first unit holding it (rows,
            // then columns, then boxes): a set of one row or column
            // found again in a column or box is skipped.
            let earlier = (0..k / n).any(|t| {
                let u = board.cell_units[cells[0]][t];
                cells.iter().all(|&c| board.cell_units[c][t] == u)
            });
            if earlier {
                continue;
            }
            // The same set as in the last position: the same cells (both
            // lists sorted), holding the same candidates.
            let same = old.and_then(|(cands, data)| {
                if cells.iter().any(|&c| cands[c] != board.cands[c]) {
                    return None;
                }
                let o =
                    (data.unit_at[k]..data.unit_at[k + 1]).find(|&o| data.als[o].cells == cells)?;
                Some((Arc::clone(&data.als[o]), o))
            });
            if let Some(same) = same {
                out.push(same);
                continue;
            }
            let mut set = vec![0u64; words];
            for &c in &cells {
                set.put(c);
            }
            let small = board.cands.len() <= 128;
            let mut seen_fold = vec![0u128; n];
            let mut with_fold = vec![0u128; n];
            if small {
                // The folds are the sets: `seen` and `with` stay empty.
                for d in crate::logic::digits_of(mask) {
                    let i = d as usize - 1;
                    let (mut s, mut w) = (u128::MAX, 0u128);
                    for &c in cells.iter().filter(|&&c| board.cands[c] & bit(d) != 0) {
                        s &= peer_fold[c];
                        w |= 1 << c;
                    }
                    seen_fold[i] = s;
                    with_fold[i] = w;
                }
                let a = Als {
                    born: board.steps.len(),
                    fold: set.folded(),
                    cells,
                    set,
                    mask,
                    seen: Vec::new(),
                    with: Vec::new(),
                    seen_fold,
                    with_fold,
                };
                out.push((Arc::new(a), usize::MAX));
                continue;
            }
            let mut seen_by = vec![0u64; n * words];
            let mut with = vec![0u64; n * words];
            for d in crate::logic::digits_of(mask) {
                let i = d as usize - 1;
                let s = &mut seen_by[i * words..(i + 1) * words];
                s.fill(u64::MAX);
                let w = &mut with[i * words..(i + 1) * words];
                for &c in cells.iter().filter(|&&c| board.cands[c] & bit(d) != 0) {
                    s.keep(&board.peer_sets[c * words..(c + 1) * words]);
                    w.put(c);
                }
                seen_fold[i] = s.folded();
                with_fold[i] = w.folded();
            }
            let a = Als {
                born: board.steps.len(),
                fold: set.folded(),
                cells,
                set,
                mask,
                seen: seen_by,
                with,
                seen_fold,
                with_fold,
            };
            out.push((Arc::new(a), usize::MAX));
        }
        out
    }

    /// The restricted commons of two ALS that do not overlap (`small`:
    /// the grid has 128 cells or fewer, so the folded sets are exact).
    pub(super) fn restricted(a: &Als, b: &Als, small: bool) -> u64 {
        let common = a.mask & b.mask;
        if common == 0 {
            return 0;
        }
        if small {
            if a.fold & b.fold != 0 {
                return 0;
            }
            let mut rcc = 0u64;
            for x in crate::logic::digits_of(common) {
                let i = x as usize - 1;
                if b.with_fold[i] & !a.seen_fold[i] == 0 {
                    rcc |= bit(x);
                }
            }
            return rcc;
        }
        if a.fold & b.fold != 0 && a.set.meets(&b.set) {
            return 0;
        }
        let mut rcc = 0u64;
        for x in crate::logic::digits_of(common) {
            let i = x as usize - 1;
            if b.with(i).within(a.seen(i)) {
                rcc |= bit(x);
            }
        }
        rcc
    }
}

#[cfg(test)]
mod tests {
    use super::super::AlmostLockedSets;

    #[test]
    fn indexed_commons_are_every_pairs_restricted_commons() {
        // At every position on hard puzzles, the restricted commons the
        // index finds (gathered anew, and carried from the last position)
        // are those of every two sets taken one pair at a time.
        let (mut pairs, mut kept) = (0, 0);
        crate::logic::tests::each_hard_position(8, |s| {
            let mut carried = s.families.als.clone();
            kept += usize::from(carried.last.is_some());
            for data in [
                AlmostLockedSets::default().als_data(&s.board),
                carried.als_data(&s.board),
            ] {
                for (i, list) in data.rcc.rows().enumerate() {
                    let want: Vec<(usize, u64)> = (0..data.als.len())
                        .filter(|&k| k != i)
                        .map(|k| {
                            (
                                k,
                                AlmostLockedSets::restricted(&data.als[i], &data.als[k], true),
                            )
                        })
                        .filter(|&(_, r)| r != 0)
                        .collect();
                    assert_eq!(list, want.as_slice());
                    pairs += want.len();
                }
            }
        });
        assert!(pairs > 10_000 && kept > 100, "{pairs} {kept}");
    }
}
