//! What every potential reaches in a static implication graph, found
//! for all of them at once, so that the static chainers make their runs
//! (one start at a time, in SE's order) only where one can find
//! something.
//!
//! The graph is the one the static chains follow: every live
//! candidate's "on" and "off", linked by [`on_to_off`] and [`off_to_on`]
//! with region links always on and cell links as asked.
//! - A forcing chain from a start exists exactly when the start reaches
//!   its conjugate ([`Contradictions`]).
//! - A cycle's elimination does too: a candidate that sees both colours
//!   of a cycle reaches its own "off" from its "on" through the cycle
//!   walked backwards (each link also holds the other way round,
//!   negated), passing the "off" of every "on" of the cycle, its start
//!   included ([`Contradictions::may_cycle`]).
//! - Cell and region forcing chains (static) need the runs from a cell's
//!   or a region's candidates to meet ([`Reach::meet`]).
//!
//! How: Tarjan's strongly connected components, each component's
//! reachable set as a bit set made when the component closes (the
//! components it reaches have closed before it).

use super::super::grid::{digits, Grid};
use super::graph::{conjugate, key, KEYS};
use super::implications::{off_to_on, on_to_off_each, Places};
use std::cell::RefCell;
use std::rc::Rc;

const NONE: u32 = u32::MAX;

/// The candidates whose "on" or "off" reaches its conjugate, in the
/// static graph of one kind of links.
pub struct Contradictions {
    /// Bit `k` for a key whose potential reaches its conjugate.
    keys: Vec<u64>,
    /// The nodes of the "off"s whose "on"s reach them, as a bit set.
    on_offs: Vec<u64>,
    reach: Rc<Reach>,
}

impl Contradictions {
    /// The contradictions of `g` (whose places are `places`) with cell
    /// links when `y`, region links always.
    pub fn new(g: &Grid, places: &Places, y: bool) -> Contradictions {
        let reach = if y {
            Reach::with_cells(g)
        } else {
            Rc::new(Reach::new(g, places, y))
        };
        let mut c = Contradictions {
            keys: vec![0; KEYS.div_ceil(64)],
            on_offs: Vec::new(),
            reach,
        };
        c.on_offs = vec![0; c.reach.tarjan.words];
        for (u, &k) in c.reach.graph.keys.iter().enumerate() {
            let to = c.reach.graph.ids[conjugate(k) as usize] as usize;
            if c.reach.tarjan.reaches(u, to) {
                c.keys[k as usize / 64] |= 1 << (k % 64);
                if k & 1 == 1 {
                    c.on_offs[to / 64] |= 1 << (to % 64);
                }
            }
        }
        c
    }

    /// Whether any potential reaches its conjugate.
    pub fn any(&self) -> bool {
        self.keys.iter().any(|&w| w != 0)
    }

    /// Whether the potential `k` reaches its conjugate.
    pub fn reaches_conjugate(&self, k: u16) -> bool {
        self.keys[k as usize / 64] >> (k % 64) & 1 == 1
    }

    /// Whether a cycle through the "on" `source` (in these links) can
    /// strike anything: a candidate it strikes reaches its "off" from
    /// its "on" through the source's "off" (walking the cycle backwards,
    /// each link negated).
    pub fn may_cycle(&self, source: u16) -> bool {
        let (graph, t) = (&self.reach.graph, &self.reach.tarjan);
        let off = graph.ids[conjugate(source) as usize];
        if off == NONE {
            return false;
        }
        // The "off"s of those "on"s that `off` reaches, by words.
        let from_off = t.set(off as usize);
        for (j, (&a, &b)) in from_off.iter().zip(&self.on_offs).enumerate() {
            let mut m = a & b;
            while m != 0 {
                let h_off = j * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                let h = graph.ids[conjugate(graph.keys[h_off]) as usize];
                if t.reaches(h as usize, off as usize) {
                    return true;
                }
            }
        }
        false
    }
}

thread_local! {
    /// The last grid's reach with cell links: the cycles and forcing
    /// chains and the static multiple chainer of one step ask it of the
    /// same grid.
    static LAST: RefCell<Option<(Grid, Rc<Reach>)>> = const { RefCell::new(None) };
}

/// What every potential reaches in the static graph of one kind of
/// links (cell links when asked, region links always).
pub struct Reach {
    graph: Graph,
    tarjan: Tarjan,
}

impl Reach {
    /// The reach of every live potential of `g` (whose places are
    /// `places`), with cell links when `y`.
    pub fn new(g: &Grid, places: &Places, y: bool) -> Reach {
        let graph = Graph::new(g, places, y);
        let mut tarjan = Tarjan::new(graph.keys.len());
        for root in 0..graph.keys.len() as u32 {
            if tarjan.index[root as usize] == NONE && !graph.is_leaf(root) {
                tarjan.walk(&graph, root);
            }
        }
        tarjan.close_leaves(&graph);
        Reach { graph, tarjan }
    }

    /// The reach of `g` with cell links, made once for consecutive asks
    /// on the same grid (kept for the last grid asked, on this thread).
    pub fn with_cells(g: &Grid) -> Rc<Reach> {
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            if let Some((seen, reach)) = last.as_ref() {
                if seen == g {
                    return reach.clone();
                }
            }
            let reach = Rc::new(Reach::new(g, &Places::new(g), true));
            *last = Some((g.clone(), reach.clone()));
            reach
        })
    }

    /// Whether the potentials `from` (live keys, at least one) all reach
    /// one same potential.
    pub fn meet(&self, from: impl IntoIterator<Item = u16>) -> bool {
        let words = self.tarjan.words;
        let mut common = [u64::MAX; KEYS.div_ceil(64)];
        for k in from {
            let u = self.graph.ids[k as usize];
            if u == NONE {
                return false;
            }
            let set = self.tarjan.set(u as usize);
            for (c, &w) in common[..words].iter_mut().zip(set) {
                *c &= w;
            }
        }
        common[..words].iter().any(|&w| w != 0)
    }
}

/// The static graph over the live potentials, in compressed rows.
struct Graph {
    /// The key of each node.
    keys: Vec<u16>,
    /// The node of each key (`NONE` when the candidate is gone).
    ids: Vec<u32>,
    /// Node `i`'s successors are `adj[start[i]..start[i + 1]]`: those
    /// with successors of their own first, up to `inner[i]`, then the
    /// leaves (the walk passes the leaves by without a look).
    start: Vec<u32>,
    inner: Vec<u32>,
    adj: Vec<u32>,
}

impl Graph {
    fn new(g: &Grid, places: &Places, y: bool) -> Graph {
        let mut keys = Vec::with_capacity(512);
        let mut ids = vec![NONE; KEYS];
        for cell in 0..81 {
            if g.values[cell] != 0 {
                continue;
            }
            for d in digits(g.cands[cell]) {
                for on in [false, true] {
                    let k = key(cell, d, on);
                    ids[k as usize] = keys.len() as u32;
                    keys.push(k);
                }
            }
        }
        let mut start = Vec::with_capacity(keys.len() + 1);
        let mut adj = Vec::with_capacity(keys.len() * 6);
        let mut ons = Vec::new();
        for &k in &keys {
            start.push(adj.len() as u32);
            if k & 1 == 1 {
                on_to_off_each(g, places, k, y, |o| adj.push(ids[o as usize]));
            } else {
                off_to_on(g, places, k, (y, true), &mut ons);
                adj.extend(ons.iter().map(|&(o, _)| ids[o as usize]));
            }
        }
        start.push(adj.len() as u32);
        // The links name only live candidates, so every one has a node.
        debug_assert!(adj.iter().all(|&w| w != NONE));
        let inner = Self::leaves_last(&start, &mut adj);
        Graph {
            keys,
            ids,
            start,
            inner,
            adj,
        }
    }

    /// Puts each node's successors that are leaves after the others, and
    /// gives where those end. (What a node reaches does not depend on the
    /// order of its links.)
    fn leaves_last(start: &[u32], adj: &mut [u32]) -> Vec<u32> {
        let leaf = |w: u32| start[w as usize] == start[w as usize + 1];
        let mut inner = Vec::with_capacity(start.len());
        for v in 0..start.len() - 1 {
            let (from, to) = (start[v] as usize, start[v + 1] as usize);
            let mut end = from;
            for i in from..to {
                if !leaf(adj[i]) {
                    adj.swap(end, i);
                    end += 1;
                }
            }
            inner.push(end as u32);
        }
        inner
    }

    /// Node `v`'s successors that have successors.
    fn inner(&self, v: u32) -> &[u32] {
        &self.adj[self.start[v as usize] as usize..self.inner[v as usize] as usize]
    }

    /// Node `v`'s successors that are leaves.
    fn leaves(&self, v: u32) -> &[u32] {
        &self.adj[self.inner[v as usize] as usize..self.start[v as usize + 1] as usize]
    }

    /// Whether node `v` has no successor (most "off"s: a candidate
    /// neither in a cell of two nor in a region with two places).
    #[inline]
    fn is_leaf(&self, v: u32) -> bool {
        self.start[v as usize] == self.start[v as usize + 1]
    }
}

/// Tarjan's walk, each component's reachable nodes made as it closes.
struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    comp: Vec<u32>,
    stack: Vec<u32>,
    /// The walk's calls: a node and the place of its next link in the
    /// graph's list.
    calls: Vec<(u32, u32)>,
    counter: u32,
    comps: u32,
    /// Words per reachable set.
    words: usize,
    /// Component `c`'s reachable nodes: `reach[c * words..][..words]`.
    reach: Vec<u64>,
}

impl Tarjan {
    fn new(n: usize) -> Tarjan {
        Tarjan {
            index: vec![NONE; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            comp: vec![NONE; n],
            stack: Vec::with_capacity(n),
            calls: Vec::with_capacity(64),
            counter: 0,
            comps: 0,
            words: n.div_ceil(64),
            // At most one component per node, each set made whole here.
            reach: vec![0; n * n.div_ceil(64)],
        }
    }

    /// Enters node `v`: its call starts at its first link in the graph's
    /// list.
    #[inline]
    fn enter(&mut self, graph: &Graph, v: u32) {
        self.index[v as usize] = self.counter;
        self.low[v as usize] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on_stack[v as usize] = true;
        self.calls.push((v, graph.start[v as usize]));
    }

    fn walk(&mut self, graph: &Graph, root: u32) {
        self.enter(graph, root);
        while let Some(&(v, at)) = self.calls.last() {
            let vu = v as usize;
            // A leaf is a component of its own, in no cycle: it is closed
            // after the walks ([`Tarjan::close_leaves`]), and passed here.
            if at < graph.inner[vu] {
                self.calls.last_mut().expect("a call").1 = at + 1;
                let w = graph.adj[at as usize];
                let wu = w as usize;
                if self.index[wu] == NONE {
                    self.enter(graph, w);
                } else if self.on_stack[wu] {
                    self.low[vu] = self.low[vu].min(self.index[wu]);
                }
                continue;
            }
            self.calls.pop();
            if let Some(&(p, _)) = self.calls.last() {
                self.low[p as usize] = self.low[p as usize].min(self.low[vu]);
            }
            if self.low[vu] == self.index[vu] {
                self.close(graph, v);
            }
        }
    }

    /// `v` closes a component: its members, then what they reach (the
    /// components they link to have closed before).
    fn close(&mut self, graph: &Graph, v: u32) {
        let c = self.comps;
        let words = self.words;
        let base = c as usize * words;
        let from = self
            .stack
            .iter()
            .rposition(|&x| x == v)
            .expect("v on the stack");
        for i in from..self.stack.len() {
            let x = self.stack[i] as usize;
            self.on_stack[x] = false;
            self.comp[x] = c;
        }
        let (closed, set) = self.reach.split_at_mut(base);
        let set = &mut set[..words];
        for &x in &self.stack[from..] {
            set[x as usize / 64] |= 1 << (x % 64);
            // A leaf reaches itself only.
            for &w in graph.leaves(x) {
                set[w as usize / 64] |= 1 << (w % 64);
            }
            for &w in graph.inner(x) {
                // A node already in the set: its component's reach is
                // too (a closed component's set is whole), so only
                // components not yet reached are added.
                if set[w as usize / 64] >> (w % 64) & 1 == 1 {
                    continue;
                }
                let cw = self.comp[w as usize];
                if cw != c {
                    let other = &closed[cw as usize * words..][..words];
                    for (s, &o) in set.iter_mut().zip(other) {
                        *s |= o;
                    }
                }
            }
        }
        self.stack.truncate(from);
        self.comps += 1;
    }

    /// Gives each leaf (left out of the walks) its component, which
    /// reaches the leaf alone.
    fn close_leaves(&mut self, graph: &Graph) {
        let words = self.words;
        for u in (0..graph.keys.len() as u32).filter(|&u| graph.is_leaf(u)) {
            let base = self.comps as usize * words;
            self.reach[base + u as usize / 64] |= 1 << (u % 64);
            self.comp[u as usize] = self.comps;
            self.comps += 1;
        }
    }

    /// Whether node `u` reaches node `to`.
    fn reaches(&self, u: usize, to: usize) -> bool {
        self.set(u)[to / 64] >> (to % 64) & 1 == 1
    }

    /// The nodes node `u` reaches, itself included.
    fn set(&self, u: usize) -> &[u64] {
        let base = self.comp[u] as usize * self.words;
        &self.reach[base..base + self.words]
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::grid::parse;
    use super::super::graph::is_on;
    use super::super::implications::on_to_off;
    use super::*;

    /// Whether `from` reaches `to`, the slow way.
    fn reaches(g: &Grid, places: &Places, y: bool, from: u16, to: u16) -> bool {
        walk(g, places, y, from)[to as usize]
    }

    /// Every potential a walk from `from` reaches (`from` itself too).
    fn walk(g: &Grid, places: &Places, y: bool, from: u16) -> Vec<bool> {
        let mut seen = vec![false; KEYS];
        let mut todo = vec![from];
        seen[from as usize] = true;
        let (mut offs, mut ons) = (Vec::new(), Vec::new());
        while let Some(k) = todo.pop() {
            let next: Vec<u16> = if k & 1 == 1 {
                on_to_off(g, places, k, y, &mut offs);
                offs.clone()
            } else {
                off_to_on(g, places, k, (y, true), &mut ons);
                ons.iter().map(|&(o, _)| o).collect()
            };
            for n in next {
                if !seen[n as usize] {
                    seen[n as usize] = true;
                    todo.push(n);
                }
            }
        }
        seen
    }

    /// A top1465 puzzle after its singles, where chains are needed.
    fn chain_stage() -> Grid {
        let p = parse(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .expect("81 digits");
        let mut g = Grid::new(&p);
        while let Some(h) = crate::serate::singles::hidden_single(&g)
            .or_else(|| crate::serate::singles::naked_single(&g))
        {
            h.apply(&mut g);
        }
        g
    }

    #[test]
    fn meets_as_walks_from_a_cells_candidates_do() {
        let g = chain_stage();
        let places = Places::new(&g);
        let reach = Reach::new(&g, &places, true);
        let mut seen = [false; 2];
        for cell in (0..81).filter(|&c| g.cands[c].count_ones() >= 2) {
            let walks: Vec<Vec<bool>> = digits(g.cands[cell])
                .map(|v| walk(&g, &places, true, key(cell, v, true)))
                .collect();
            let slow = (0..KEYS).any(|k| walks.iter().all(|w| w[k]));
            let fast = reach.meet(digits(g.cands[cell]).map(|v| key(cell, v, true)));
            assert_eq!(fast, slow, "cell {cell}");
            seen[slow as usize] = true;
        }
        assert_eq!(seen, [true, true], "cells that meet and cells that do not");
    }

    /// The shared reach is the one of the grid asked, not of the grid
    /// asked before.
    #[test]
    fn shared_reach_follows_the_grid() {
        let g = chain_stage();
        let mut h = g.clone();
        let cell = (0..81)
            .find(|&c| h.cands[c].count_ones() >= 2)
            .expect("open");
        h.cands[cell] &= h.cands[cell] - 1;
        for grid in [&g, &g, &h, &g] {
            let shared = Reach::with_cells(grid);
            let fresh = Reach::new(grid, &Places::new(grid), true);
            assert_eq!(shared.graph.keys, fresh.graph.keys);
            for u in 0..fresh.graph.keys.len() {
                assert_eq!(shared.tarjan.set(u), fresh.tarjan.set(u));
            }
        }
        assert!(Rc::ptr_eq(&Reach::with_cells(&g), &Reach::with_cells(&g)));
    }

    /// `may_cycle` by words answers as the plain test of every "on"
    /// reaching its "off".
    #[test]
    fn may_cycle_is_the_plain_test() {
        let g = chain_stage();
        let places = Places::new(&g);
        let mut seen = [0; 2];
        for y in [false, true] {
            let c = Contradictions::new(&g, &places, y);
            let (graph, t) = (&c.reach.graph, &c.reach.tarjan);
            for (u, &k) in graph.keys.iter().enumerate().filter(|&(_, &k)| is_on(k)) {
                let off = graph.ids[conjugate(k) as usize] as usize;
                let plain = (0..graph.keys.len()).any(|h| {
                    let hk = graph.keys[h];
                    let h_off = graph.ids[conjugate(hk) as usize] as usize;
                    is_on(hk) && t.reaches(h, h_off) && t.reaches(h, off) && t.reaches(off, h_off)
                });
                assert_eq!(c.may_cycle(k), plain, "node {u} y={y}");
                seen[plain as usize] += 1;
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    }

    #[test]
    fn agrees_with_a_walk_from_every_potential() {
        let g = chain_stage();
        let places = Places::new(&g);
        let mut seen_any = [false; 2];
        for y in [false, true] {
            let c = Contradictions::new(&g, &places, y);
            for cell in 0..81 {
                for d in digits(g.cands[cell]) {
                    for on in [false, true] {
                        let k = key(cell, d, on);
                        let slow = reaches(&g, &places, y, k, conjugate(k));
                        assert_eq!(c.reaches_conjugate(k), slow, "{cell} {d} {on} y={y}");
                        seen_any[y as usize] |= slow;
                    }
                }
            }
        }
        assert!(seen_any[1], "the XY graph has a contradiction on this grid");
    }

    #[test]
    fn every_reach_set_is_what_a_walk_reaches() {
        let mut g = chain_stage();
        let mut leaves = 0;
        for _ in 0..3 {
            let places = Places::new(&g);
            for y in [false, true] {
                let reach = Reach::new(&g, &places, y);
                let (graph, t) = (&reach.graph, &reach.tarjan);
                leaves += (0..graph.keys.len() as u32)
                    .filter(|&u| graph.is_leaf(u))
                    .count();
                for (u, &k) in graph.keys.iter().enumerate() {
                    let walked = walk(&g, &places, y, k);
                    for (to, &k2) in graph.keys.iter().enumerate() {
                        assert_eq!(t.reaches(u, to), walked[k2 as usize], "{k} to {k2}, y={y}");
                    }
                }
            }
            // A few steps on, a grid with other links.
            for _ in 0..4 {
                if let Some(h) = crate::serate::next_hint(&g, false) {
                    h.apply(&mut g);
                }
            }
        }
        assert!(leaves > 100, "{leaves} leaves: the shortcut is taken");
    }
}
