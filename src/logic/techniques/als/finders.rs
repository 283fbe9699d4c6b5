//! The ALS steps: ALS-XZ and ALS-XY-wing (ALS chains: `chain.rs`).

use super::AlmostLockedSets;
use super::{Als, AlsData, Struck};
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
            for &(k, rcc) in data.rcc.of(i) {
                if k < i || data.strikable[i] & data.strikable[k] == 0 || (old_a && old(&als[k])) {
                    continue;
                }
                let b = &als[k];
                for x in crate::logic::digits_of(rcc) {
                    if !data.may_strike(i, k, bit(x)) {
                        continue;
                    }
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
        // The pivot's far sets' strikable digits and folded cells, in
        // the order of its links.
        let mut near: Vec<(u64, u128)> = Vec::new();
        for (ci, c) in als.iter().enumerate() {
            if ci % 16 == 0 && run.past_deadline() {
                return false;
            }
            let links = data.rcc.of(ci);
            let old_c = old(c);
            if old_c {
                fresh.clear();
                fresh.extend((0..links.len()).filter(|&q| !old(&als[links[q].0])));
                if fresh.is_empty() {
                    continue;
                }
            }
            near.clear();
            near.extend(
                links
                    .iter()
                    .map(|&(k, _)| (data.strikable[k], data.folds[k])),
            );
            let pivot = Pivot { links, near: &near };
            for (p, &(ai, _)) in links.iter().enumerate() {
                let found = if !old_c || !old(&als[ai]) {
                    self.first_wing(board, &data, &pivot, p, p + 1..links.len())
                } else {
                    let from = fresh.partition_point(|&q| q <= p);
                    self.first_wing(board, &data, &pivot, p, fresh[from..].iter().copied())
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

    /// The first wing on the pivot of link `p`'s set with the set of a
    /// link of `qs` (in that order) that strikes something: that set,
    /// the commons `x` and `y` and what they strike. Most wings are ruled
    /// out without a call: by the digits both sets may strike, their
    /// folds, and whether some `x` and `y` leave a digit that they may
    /// strike ([`AlsData::may_strike`]), as [`Self::xy_wing_strikes`]
    /// would ask first.
    #[inline]
    fn first_wing(
        &self,
        board: &Board,
        data: &AlsData,
        pivot: &Pivot,
        p: usize,
        qs: impl Iterator<Item = usize>,
    ) -> Option<(usize, u8, u8, Struck)> {
        let (ai, ra) = pivot.links[p];
        let (za, fa) = pivot.near[p];
        if za == 0 {
            return None;
        }
        for q in qs {
            let (zb, fb) = pivot.near[q];
            let (bi, rb) = pivot.links[q];
            let z = za & zb;
            if z == 0 || fa & fb != 0 && self.overlap(board, data, ai, bi) {
                continue;
            }
            if !wing_may_strike(data, (ai, ra), (bi, rb), z) {
                continue;
            }
            if let Some((x, y, struck)) = self.xy_wing_strikes(board, data, (ai, ra), (bi, rb)) {
                return Some((bi, x, y, struck));
            }
        }
        None
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
                if z & !(bit(x) | bit(y)) == 0 || !data.may_strike(ai, bi, bit(x) | bit(y)) {
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
}

/// The links of a pivot ([`AlsData::rcc`]'s row) and, in the same order,
/// each far set's strikable digits and folded cells.
struct Pivot<'a> {
    links: &'a [(usize, u64)],
    near: &'a [(u64, u128)],
}

/// Whether some `x` of `ra` and `y` of `rb` (not `x`) leave a digit of
/// `z` (the digits both sets may strike) that sets `ai` and `bi` may
/// strike: the test [`AlmostLockedSets::xy_wing_strikes`] makes before
/// each list of what they strike.
#[inline]
fn wing_may_strike(data: &AlsData, (ai, ra): (usize, u64), (bi, rb): (usize, u64), z: u64) -> bool {
    let mut xs = ra;
    while xs != 0 {
        let x = xs & xs.wrapping_neg();
        xs ^= x;
        let mut ys = rb & !x;
        while ys != 0 {
            let y = ys & ys.wrapping_neg();
            ys ^= y;
            if z & !(x | y) != 0 && data.may_strike(ai, bi, x | y) {
                return true;
            }
        }
    }
    false
}
