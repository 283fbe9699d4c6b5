//! The breadth-first search from every start at once, on bit sets over
//! the nodes with strong links of a folded graph ([`Chains::search_in_bits`]).

use super::Chains;
use super::{Found, Graph, Kind, IN_CELL, MAX_NODES};
use crate::logic::memo::Run;
use crate::logic::{bit, Board, Cells};

/// The nodes with strong links of a folded graph (at most 256 of them),
/// numbered in node order, and their links as bit sets `S` over those
/// numbers: for [`Chains::search_in_bits`].
pub(super) struct StrongNodes<S> {
    /// The nodes.
    pub(super) nodes: Vec<usize>,
    /// Each one's strong partners: "this false" makes them true.
    pub(super) partners: Vec<S>,
    /// The nodes with strong links each one sees (weak links): "this
    /// true" makes them false.
    pub(super) sees: Vec<S>,
    /// For each, the nodes with strong links that see a single node it
    /// sees too: the starts a chain ending "this true" may strike from.
    pub(super) share: Vec<S>,
}

impl<S: Set> StrongNodes<S> {
    /// The nodes `id` numbers (`u32::MAX` for the others) and the links.
    pub(super) fn of(g: &Graph, kind: Kind, id: &[u32], nodes: Vec<usize>) -> StrongNodes<S> {
        const NONE: u32 = u32::MAX;
        let count = nodes.len();
        let mut partners = vec![S::default(); count];
        let mut sees = vec![S::default(); count];
        // The strong nodes seeing each single node, and the single nodes
        // each strong node sees (`seen[seen_at[i]..seen_at[i + 1]]`).
        let mut seen_by = vec![S::default(); g.singles];
        let mut seen: Vec<u32> = Vec::with_capacity(16 * count);
        let mut seen_at = Vec::with_capacity(count + 1);
        seen_at.push(0);
        for (i, &x) in nodes.iter().enumerate() {
            for run in g.strong.runs(x, kind, true) {
                for &l in run {
                    partners[i].insert(id[(l & !IN_CELL) as usize] as usize);
                }
            }
            // An XY-chain's weak links are an X-chain's (its digit in
            // other cells) between the nodes with strong links, its pair
            // cells; the cells it strikes are any.
            let weak = if kind == Kind::Xy { Kind::X } else { kind };
            g.each_weak(x, weak, None, |z| {
                if let Some(&j) = id.get(z).filter(|&&j| j != NONE) {
                    sees[i].insert(j as usize);
                }
                if z < g.singles {
                    seen_by[z].insert(i);
                    seen.push(z as u32);
                }
            });
            seen_at.push(seen.len());
        }
        let share = shares(&seen_by, &seen, &seen_at);
        StrongNodes {
            nodes,
            partners,
            sees,
            share,
        }
    }
}

/// [`StrongNodes::share`] from the strong nodes seeing each single node
/// (`seen_by`) and the single nodes each strong node sees
/// (`seen[seen_at[i]..seen_at[i + 1]]`).
pub(super) fn shares<S: Set>(seen_by: &[S], seen: &[u32], seen_at: &[usize]) -> Vec<S> {
    seen_at
        .windows(2)
        .map(|w| {
            seen[w[0]..w[1]]
                .iter()
                .fold(S::default(), |a, &z| a | seen_by[z as usize])
        })
        .collect()
}

impl Chains {
    /// [`Chains::search`] on a folded graph with up to 256 nodes with
    /// strong links, by one breadth-first search from every start at
    /// once ([`spread`]): each literal of a node with strong links keeps
    /// the set of starts that reach it, level by level (bit sets over
    /// those nodes). A start reaching "`y` true" where a single node it
    /// sees is seen by `y` too may strike it (a chain between single
    /// nodes does; one with a group may not). For the shortest chain, the
    /// first level with such starts holds the shortest chains, and the
    /// search from one start ([`Chains::search_from`], capped at that
    /// length) makes the chain, in order, until one strikes (the first
    /// start, in node order, of the shortest chains; its first chain
    /// breadth first). With `most` (HoDoKu's choice of X- and
    /// XY-chains), every start that may strike at some level is searched,
    /// in order, and no other. `None` when the graph is not folded or
    /// more than 256 nodes have strong links.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_in_bits(
        &self,
        board: &Board,
        run: &Run,
        g: &Graph,
        kind: Kind,
        skip: u64,
        cut: &mut bool,
        most: bool,
    ) -> Option<Option<Found>> {
        const NONE: u32 = u32::MAX;
        g.fold.as_ref()?;
        let m = if kind == Kind::Grouped {
            g.nodes.len()
        } else {
            g.singles
        };
        let mut id = vec![NONE; m];
        let mut nodes = Vec::new();
        for (x, slot) in id.iter_mut().enumerate() {
            if g.strong.runs(x, kind, true).iter().any(|r| !r.is_empty()) {
                *slot = nodes.len() as u32;
                nodes.push(x);
            }
        }
        Some(match nodes.len() {
            0..=128 => {
                let s = StrongNodes::<u128>::of(g, kind, &id, nodes);
                self.search_among(board, run, g, kind, &s, skip, cut, most)
            }
            129..=256 => {
                let s = StrongNodes::<Wide>::of(g, kind, &id, nodes);
                self.search_among(board, run, g, kind, &s, skip, cut, most)
            }
            _ => return None,
        })
    }

    /// [`Chains::search_in_bits`] over the nodes with strong links `s`.
    #[allow(clippy::too_many_arguments)]
    fn search_among<S: Set>(
        &self,
        board: &Board,
        run: &Run,
        g: &Graph,
        kind: Kind,
        s: &StrongNodes<S>,
        skip: u64,
        cut: &mut bool,
        most: bool,
    ) -> Option<Found> {
        let mut only = vec![0u64; g.nodes.len().div_ceil(64)];
        let starts = |i: usize| skip & bit(g.nodes.digit(s.nodes[i])) == 0;
        if most {
            let mut any = S::default();
            spread(s, starts, |_, hits| {
                any = any | hits;
                false
            });
            if any.is_empty() {
                return None;
            }
            while let Some(i) = any.pop_first() {
                let x = s.nodes[i];
                only.put(x);
            }
            return self.search_from(board, run, g, kind, skip, Some(&only), cut, true, MAX_NODES);
        }
        let mut found = None;
        spread(s, starts, |len, mut hits| {
            while let Some(i) = hits.pop_first() {
                let x = s.nodes[i];
                only[x / 64] = 1 << (x % 64);
                found = self.search_from(board, run, g, kind, skip, Some(&only), cut, false, len);
                if found.is_some() || *cut {
                    return true;
                }
                only[x / 64] = 0;
            }
            false
        });
        found
    }
}

/// The breadth-first search of [`Chains::search_in_bits`] from the nodes
/// of `s` that `starts` allows, all at once: at each level of "true"
/// literals from the fourth on (two are too few for a chain), calls
/// `level` with the length of the chains reaching them and the starts
/// that may strike there, when there are any; stops where `level` says
/// so, where nothing new is reached, or at [`MAX_NODES`].
///
/// Each level keeps the list of the nodes it reached anew, and only
/// those are followed and then cleared (most nodes are reached anew at
/// a few levels only: scanning and clearing all of them at every level
/// was most of the work).
pub(super) fn spread<S: Set>(
    s: &StrongNodes<S>,
    starts: impl Fn(usize) -> bool,
    mut level: impl FnMut(usize, S) -> bool,
) {
    let count = s.nodes.len();
    let mut seen_off: Vec<S> = (0..count)
        .map(|i| if starts(i) { S::unit(i) } else { S::default() })
        .collect();
    // The starts reaching each node's literal anew at the last level
    // (empty but for the nodes listed), `off`, then `on`.
    let mut off = seen_off.clone();
    let mut off_new: Vec<u32> = (0..count as u32)
        .filter(|&i| !off[i as usize].is_empty())
        .collect();
    let mut seen_on = vec![S::default(); count];
    let mut on = vec![S::default(); count];
    let mut on_new: Vec<u32> = Vec::new();
    // The literals of the chains reaching `off`, then `on`.
    let mut len = 1;
    loop {
        let reached = step(&mut off, &off_new, &s.partners, &mut on);
        let mut hits = S::default();
        on_new.clear();
        reached.each(|j| {
            let new = on[j].minus(seen_on[j]);
            on[j] = new;
            seen_on[j] = seen_on[j] | new;
            hits = hits | new.and(s.share[j]);
            if !new.is_empty() {
                on_new.push(j as u32);
            }
        });
        len += 1;
        if len >= 4 && !hits.is_empty() && level(len, hits) {
            return;
        }
        if on_new.is_empty() || len >= MAX_NODES {
            return;
        }
        let reached = step(&mut on, &on_new, &s.sees, &mut off);
        off_new.clear();
        reached.each(|j| {
            let new = off[j].minus(seen_off[j]);
            off[j] = new;
            seen_off[j] = seen_off[j] | new;
            if !new.is_empty() {
                off_new.push(j as u32);
            }
        });
        len += 1;
        if off_new.is_empty() {
            return;
        }
    }
}

/// One link of [`spread`]: the starts at each node of `from_nodes` (in
/// `from`, cleared there) go on to its linked nodes (`links`) in `to`;
/// returns the nodes reached.
fn step<S: Set>(from: &mut [S], from_nodes: &[u32], links: &[S], to: &mut [S]) -> S {
    let mut reached = S::default();
    for &i in from_nodes {
        let starts = std::mem::take(&mut from[i as usize]);
        let next = links[i as usize];
        reached = reached | next;
        next.each(|j| to[j] = to[j] | starts);
    }
    reached
}

/// A set of small numbers in bits, for [`Chains::search_in_bits`]: one
/// `u128`, or two ([`Wide`]).
pub(super) trait Set: Copy + Default + std::ops::BitOr<Output = Self> {
    fn unit(i: usize) -> Self;
    fn insert(&mut self, i: usize);
    fn and(self, other: Self) -> Self;
    fn minus(self, other: Self) -> Self;
    fn is_empty(&self) -> bool;
    /// Takes the smallest number out.
    fn pop_first(&mut self) -> Option<usize>;
    /// Calls `f` on each number, in ascending order (word by word: a
    /// 64-bit word's lowest bit is found in one instruction).
    fn each(self, f: impl FnMut(usize));
}

impl Set for u128 {
    #[inline]
    fn unit(i: usize) -> u128 {
        1 << i
    }

    #[inline]
    fn insert(&mut self, i: usize) {
        *self |= 1 << i;
    }

    #[inline]
    fn and(self, other: u128) -> u128 {
        self & other
    }

    #[inline]
    fn minus(self, other: u128) -> u128 {
        self & !other
    }

    #[inline]
    fn is_empty(&self) -> bool {
        *self == 0
    }

    #[inline]
    fn pop_first(&mut self) -> Option<usize> {
        let i = self.trailing_zeros() as usize;
        *self &= self.wrapping_sub(1);
        (i < 128).then_some(i)
    }

    #[inline]
    fn each(self, mut f: impl FnMut(usize)) {
        for (base, word) in [(0, self as u64), (64, (self >> 64) as u64)] {
            let mut bits = word;
            while bits != 0 {
                f(base + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

/// Up to 256 numbers, in two `u128`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Wide([u128; 2]);

impl std::ops::BitOr for Wide {
    type Output = Wide;

    #[inline]
    fn bitor(self, other: Wide) -> Wide {
        Wide([self.0[0] | other.0[0], self.0[1] | other.0[1]])
    }
}

impl Set for Wide {
    #[inline]
    fn unit(i: usize) -> Wide {
        let mut w = Wide::default();
        w.insert(i);
        w
    }

    #[inline]
    fn insert(&mut self, i: usize) {
        self.0[i / 128] |= 1 << (i % 128);
    }

    #[inline]
    fn and(self, other: Wide) -> Wide {
        Wide([self.0[0] & other.0[0], self.0[1] & other.0[1]])
    }

    #[inline]
    fn minus(self, other: Wide) -> Wide {
        Wide([self.0[0] & !other.0[0], self.0[1] & !other.0[1]])
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.0[0] | self.0[1] == 0
    }

    #[inline]
    fn pop_first(&mut self) -> Option<usize> {
        self.0[0]
            .pop_first()
            .or_else(|| self.0[1].pop_first().map(|i| 128 + i))
    }

    #[inline]
    fn each(self, mut f: impl FnMut(usize)) {
        self.0[0].each(&mut f);
        self.0[1].each(|i| f(128 + i));
    }
}
