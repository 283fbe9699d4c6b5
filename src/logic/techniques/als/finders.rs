//! The ALS steps: ALS-XZ, ALS-XY-wing and ALS chains.

use std::sync::Arc;

use super::AlmostLockedSets;
use super::{Als, AlsData, Struck, MAX_CHAIN, MAX_EXPANSIONS};
use crate::logic::memo::Run;
use crate::logic::{bit, Board, Cells, ChainNode, Step, Technique};

impl AlmostLockedSets {
    /// Candidates `z` (a digit of both, not in `except`) outside both sets
    /// seeing every `z` of `a` and of `b`.
    pub(super) fn als_struck(
        &self,
        board: &Board,
        data: &AlsData,
        a: &Als,
        b: &Als,
        except: u64,
    ) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        // On grids of 128 cells or fewer the folds are the sets.
        let own = if board.cands.len() <= 128 {
            !(a.fold | b.fold)
        } else {
            u128::MAX
        };
        for z in crate::logic::digits_of(a.mask & b.mask & !except) {
            let i = z as usize - 1;
            let both = a.seen_fold[i] & b.seen_fold[i] & data.cand_fold[i] & own;
            if both == 0 {
                // Folded sets that do not meet: the sets do not either.
                continue;
            }
            if board.cands.len() <= 128 {
                // The folds are the sets: the cells seeing every z of
                // both, holding z, outside both.
                let mut m = both;
                while m != 0 {
                    out.push((m.trailing_zeros() as usize, z));
                    m &= m - 1;
                }
                continue;
            }
            let mut s = a.seen(i).to_vec();
            s.keep(b.seen(i));
            for c in s.members() {
                if c < board.cands.len()
                    && board.cands[c] & bit(z) != 0
                    && !a.cells.contains(&c)
                    && !b.cells.contains(&c)
                {
                    out.push((c, z));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    pub(super) fn als_step(
        &mut self,
        board: &mut Board,
        technique: Technique,
        sets: &[&Als],
        commons: &[u8],
        struck: Vec<(usize, u8)>,
    ) {
        let chain: Vec<ChainNode> = sets
            .iter()
            .enumerate()
            .map(|(k, a)| ChainNode {
                cells: a.cells.clone(),
                digit: commons.get(k).or(commons.last()).copied().unwrap_or(0),
                on: false,
            })
            .collect();
        let mut digits: Vec<u8> = commons.to_vec();
        for &(_, z) in &struck {
            if !digits.contains(&z) {
                digits.push(z);
            }
        }
        let cells: Vec<usize> = sets.iter().flat_map(|a| a.cells.iter().copied()).collect();
        board.apply(Step {
            technique,
            unit: None,
            digits,
            cells,
            placed: None,
            eliminated: struck,
            chains: vec![chain],
        });
    }

    /// Which sets only make patterns that `t` (ALS-XZ, ALS-XY-wing) has
    /// tried in vain: those of the last position where it found nothing
    /// ([`Run::searched_in_vain_at`]). Their sets, and so what they
    /// strike, are the same here, and the candidates to strike are fewer;
    /// so only patterns with a newer set are tried.
    pub(super) fn als_tried(
        &self,
        board: &Board,
        run: &Run,
        t: Technique,
    ) -> impl Fn(&Als) -> bool {
        let at = run.searched_in_vain_at(board, t);
        move |a: &Als| at.is_some_and(|at| a.born <= at)
    }

    /// One ALS-XZ that strikes something.
    pub(in crate::logic) fn als_xz(&mut self, board: &mut Board, run: &mut Run) -> bool {
        let data = self.als_data(board);
        let als = &data.als;
        let old = self.als_tried(board, run, Technique::AlsXz);
        for (i, a) in als.iter().enumerate() {
            if i % 64 == 0 && run.past_deadline() {
                return false;
            }
            let old_a = old(a);
            for &(k, rcc) in &data.rcc[i] {
                if k < i || data.strikable[i] & data.strikable[k] == 0 || (old_a && old(&als[k])) {
                    continue;
                }
                let b = &als[k];
                for x in crate::logic::digits_of(rcc) {
                    let struck = self.als_struck(board, &data, a, b, bit(x));
                    if !struck.is_empty() {
                        self.als_step(board, Technique::AlsXz, &[a, b], &[x], struck);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// One ALS-XY-wing that strikes something.
    pub(in crate::logic) fn als_xy_wing(&mut self, board: &mut Board, run: &mut Run) -> bool {
        let data = self.als_data(board);
        let als = &data.als;
        let old = self.als_tried(board, run, Technique::AlsXyWing);
        // With an old pivot, the places in its list of the new sets.
        let mut fresh: Vec<usize> = Vec::new();
        for (ci, c) in als.iter().enumerate() {
            if ci % 16 == 0 && run.past_deadline() {
                return false;
            }
            let links = &data.rcc[ci];
            let old_c = old(c);
            if old_c {
                fresh.clear();
                fresh.extend((0..links.len()).filter(|&q| !old(&als[links[q].0])));
                if fresh.is_empty() {
                    continue;
                }
            }
            for (p, &(ai, ra)) in links.iter().enumerate() {
                let wing = |&(bi, rb): &(usize, u64)| {
                    self.xy_wing_strikes(board, &data, (ai, ra), (bi, rb))
                        .map(|(x, y, struck)| (bi, x, y, struck))
                };
                let found = if !old_c || !old(&als[ai]) {
                    links[p + 1..].iter().find_map(wing)
                } else {
                    let from = fresh.partition_point(|&q| q <= p);
                    fresh[from..].iter().map(|&q| &links[q]).find_map(wing)
                };
                if let Some((bi, x, y, struck)) = found {
                    let (a, b) = (&als[ai], &als[bi]);
                    self.als_step(board, Technique::AlsXyWing, &[a, c, b], &[x, y], struck);
                    return true;
                }
            }
        }
        false
    }

    /// Whether sets `i` and `j`, whose folds meet, overlap: they do on
    /// a grid of 128 cells or fewer, where the folds are the sets.
    pub(super) fn overlap(&self, board: &Board, data: &AlsData, i: usize, j: usize) -> bool {
        board.cands.len() <= 128 || data.als[i].set.meets(&data.als[j].set)
    }

    /// What the wing of sets `a` and `b` on a pivot strikes, with their
    /// restricted commons to it (`ra`, `rb`): the first `x` (of `ra`) and
    /// `y` (of `rb`, not `x`) that strike something, and what they strike.
    pub(super) fn xy_wing_strikes(
        &self,
        board: &Board,
        data: &AlsData,
        (ai, ra): (usize, u64),
        (bi, rb): (usize, u64),
    ) -> Option<(u8, u8, Struck)> {
        // The digits both sets may strike (their common digits among them).
        let z = data.strikable[ai] & data.strikable[bi];
        // Overlapping (the folds are exact on small grids, and disjoint
        // folds mean disjoint sets on any).
        if z == 0 || data.folds[ai] & data.folds[bi] != 0 && self.overlap(board, data, ai, bi) {
            return None;
        }
        let (a, b) = (&data.als[ai], &data.als[bi]);
        for x in crate::logic::digits_of(ra) {
            for y in crate::logic::digits_of(rb & !bit(x)) {
                if z & !(bit(x) | bit(y)) == 0 {
                    continue;
                }
                let struck = self.als_struck(board, data, a, b, bit(x) | bit(y));
                if !struck.is_empty() {
                    return Some((x, y, struck));
                }
            }
        }
        None
    }

    /// One ALS chain of four to [`MAX_CHAIN`] sets that strikes something.
    pub(in crate::logic) fn als_chain(&mut self, board: &mut Board, run: &Run) -> bool {
        let data = self.als_data(board);
        let (als, rcc) = (&data.als, &data.rcc);
        struct Search<'a> {
            family: &'a AlmostLockedSets,
            board: &'a Board,
            data: &'a AlsData,
            als: &'a [Arc<Als>],
            rcc: &'a [Vec<(usize, u64)>],
            path: Vec<usize>,
            commons: Vec<u8>,
            /// The cells of the path's sets (which never overlap), and
            /// folded (exact on grids of 128 cells or fewer: `small`).
            used: Vec<u64>,
            used_fold: u128,
            small: bool,
            budget: usize,
        }
        impl Search<'_> {
            fn go(&mut self) -> Option<Vec<(usize, u8)>> {
                let last = *self.path.last()?;
                let prev = self.commons.last().copied();
                for &(next, r) in &self.rcc[last] {
                    if self.budget == 0 {
                        return None;
                    }
                    self.budget -= 1;
                    let fold = self.data.folds[next];
                    // A set of the path, or one overlapping one.
                    let overlaps = if self.small {
                        self.used_fold & fold != 0
                    } else {
                        self.used.meets(&self.als[next].set)
                    };
                    if overlaps {
                        continue;
                    }
                    for x in crate::logic::digits_of(r) {
                        if Some(x) == prev {
                            continue;
                        }
                        self.path.push(next);
                        self.commons.push(x);
                        self.used_fold |= fold;
                        if !self.small {
                            for (u, w) in self.used.iter_mut().zip(&self.als[next].set) {
                                *u |= w;
                            }
                        }
                        let first = self.path[0];
                        if self.path.len() >= 4
                            && self.data.strikable[first] & self.data.strikable[next] != 0
                        {
                            let first = &self.als[first];
                            let except = bit(self.commons[0]) | bit(x);
                            let struck = self.family.als_struck(
                                self.board,
                                self.data,
                                first,
                                &self.als[next],
                                except,
                            );
                            if !struck.is_empty() {
                                return Some(struck);
                            }
                        }
                        if self.path.len() < MAX_CHAIN {
                            if let Some(s) = self.go() {
                                return Some(s);
                            }
                        }
                        self.path.pop();
                        self.commons.pop();
                        self.used_fold &= !fold;
                        if !self.small {
                            for (u, w) in self.used.iter_mut().zip(&self.als[next].set) {
                                *u &= !w;
                            }
                        }
                    }
                }
                None
            }
        }
        let mut search = Search {
            family: self,
            board,
            data: &data,
            als,
            rcc,
            path: Vec::new(),
            commons: Vec::new(),
            used: Vec::new(),
            used_fold: 0,
            small: board.cands.len() <= 128,
            budget: MAX_EXPANSIONS,
        };
        let mut found = None;
        for (start, first) in als.iter().enumerate() {
            if start % 16 == 0 && run.past_deadline() {
                break;
            }
            search.path = vec![start];
            search.commons.clear();
            search.used.clone_from(&first.set);
            search.used_fold = first.fold;
            if let Some(struck) = search.go() {
                found = Some((search.path.clone(), search.commons.clone(), struck));
                break;
            }
            if search.budget == 0 {
                break;
            }
        }
        let Some((path, commons, struck)) = found else {
            return false;
        };
        let sets: Vec<&Als> = path.iter().map(|&i| &*als[i]).collect();
        self.als_step(board, Technique::AlsChain, &sets, &commons, struck);
        true
    }
}
