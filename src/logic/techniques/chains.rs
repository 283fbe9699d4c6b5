//! Chains: X-chain (`X`), XY-chain (`Y`) and alternating inference chains
//! (AIC, nice loops), plain and with grouped nodes (`A`).
//!
//! All of them are searched in one link graph. A node is a digit in one
//! cell, or (grouped) a digit in two or three cells of one box and line
//! taken together. A **strong link** joins two nodes of which one at least
//! is true: the only two places of a digit in a unit, or the two digits of
//! a pair cell. A **weak link** joins two nodes of which one at most is
//! true: the same digit in cells that see each other, or two digits of
//! one cell. An AIC starts from "node `X` is false", goes on by a strong
//! link to a true node, by a weak link to a false one, and so on; when it
//! reaches "node `Y` is true", `X` or `Y` holds, so every candidate weakly
//! linked to both is struck. Every link is an implication, so the
//! deduction is sound whatever shape the chain takes.
//!
//! - X-chain: only strong links in units, one digit;
//! - XY-chain: only strong links in pair cells, both ends on one digit;
//! - AIC: any links; grouped AIC: grouped nodes too.
//!
//! The search is breadth first from every node, so each chain found is a
//! shortest one from its start. Sudoku Explainer's run takes the shortest
//! over all starts (SE rates chains by length), as do AICs in HoDoKu's
//! run; there an X- or XY-chain is the one that strikes the most, as
//! HoDoKu's `ChainSolver` sorts them ([`Pick`](crate::logic::Pick), [`better`]).
//!
//! An AIC or XY-chain search on a grid of up to 128 cells, with up to 256
//! nodes with strong links, goes breadth first from all starts at once
//! (on the candidates' bit sets, without a graph, where its nodes are
//! single cells: `in_cells.rs`),
//! each literal keeping the set of starts that reach it
//! ([`Board::search_in_bits`]): the first level where a start may strike
//! holds the shortest chains, and only that start is searched alone, for
//! the chain itself (for HoDoKu's choice, only the starts that may strike
//! at some level). Elsewhere an AIC search first finds, for every node at
//! once, which candidates any chain could strike (`useful_starts`), and
//! starts only next to them: most searches that find nothing end there.
//! An X-chain search first tells, digit by digit from bit sets, whether
//! any chain on the digit could strike ([`Board::x_chain_digits`]): the
//! others are skipped, and no graph is built when none is left.
//!
//! On grids of up to 128 cells a single node's weak links are read from
//! bit sets ([`Fold`]), not listed. Chains are capped at
//! [`MAX_NODES`] nodes, as HoDoKu caps its chains at 20, and one search at
//! [`MAX_WORK`] links followed (it matters on large grids only).

use std::sync::Arc;

mod in_cells;

use crate::logic::words::Words;
use crate::logic::{bit, Board, ChainNode, Step, Technique};

/// The longest chain searched, in nodes (HoDoKu's default chain length).
pub(in crate::logic) const MAX_NODES: usize = 20;

/// The most links one chain search follows (all starts together) before
/// it gives up for the step: a 9x9 search stays well below, a 25x25 one,
/// thousands of nodes each searched from, would take seconds.
const MAX_WORK: usize = 4_000_000;

/// The most link graphs one puzzle's runs keep for each other
/// ([`Board::note_findings`]); about 20 KB each on a 9x9.
pub(in crate::logic) const KEPT_GRAPHS: usize = 256;

/// Whether chain `a` (literals, strikes) comes before chain `b` in
/// HoDoKu's order of steps (`SolutionStep.compareTo`): more strikes
/// first, then the lower weighted sum of the strikes (sorted by digit,
/// then cell: each cell index times 1, 81, 161 … plus the digit), then
/// the shorter chain.
fn better(a: (&[u32], &[(usize, u8)]), b: (&[u32], &[(usize, u8)])) -> bool {
    let index_sum = |strikes: &[(usize, u8)]| -> u64 {
        let mut sorted: Vec<(u8, usize)> = strikes.iter().map(|&(c, d)| (d, c)).collect();
        sorted.sort_unstable();
        sorted
            .iter()
            .enumerate()
            .map(|(i, &(d, c))| c as u64 * (1 + 80 * i as u64) + u64::from(d))
            .sum()
    };
    let key = |(path, strikes): (&[u32], &[(usize, u8)])| {
        (
            std::cmp::Reverse(strikes.len()),
            index_sum(strikes),
            path.len(),
        )
    };
    key(a) < key(b)
}

/// The literals from a search's start to `goal`, following `parent`
/// (`u32::MAX` at the start) back.
pub(in crate::logic) fn path_to(parent: &[u32], goal: u32) -> Vec<u32> {
    let mut path = vec![goal];
    let mut at = goal;
    while parent[at as usize] != u32::MAX {
        at = parent[at as usize];
        path.push(at);
    }
    path.reverse();
    path
}

/// Which links a chain may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::logic) enum Kind {
    /// Strong links in units only (one digit).
    X,
    /// Strong links in pair cells only; ends on one digit.
    Xy,
    /// Any links between single cells.
    Aic,
    /// Any links, grouped nodes included.
    Grouped,
}

/// A chain found: its literals (`2 * node + on`) and what it strikes.
type Found = (Vec<u32>, Vec<(usize, u8)>);

/// The link graph of a position: nodes (cells and digit), strong and
/// weak links as adjacency lists.
#[derive(Debug)]
pub(in crate::logic) struct Graph {
    /// The grid's side.
    side: usize,
    /// The cells and digit of each node; single cells first.
    pub(in crate::logic) nodes: Nodes,
    /// How many nodes are single cells (the first ones).
    pub(in crate::logic) singles: usize,
    /// Whether the grouped nodes are in (else only single cells).
    pub(in crate::logic) grouped: bool,
    /// The single node of each candidate (`cell * side + digit - 1`),
    /// `u32::MAX` where the cell lacks the digit.
    pub(in crate::logic) of_cand: Vec<u32>,
    /// Strong links of each node.
    pub(in crate::logic) strong: Adj,
    /// Weak links of each node; on a grid of up to 128 cells ([`Fold`])
    /// a single node's list holds only its links to groups.
    pub(in crate::logic) weak: Adj,
    /// The bit sets a single node's other weak links are read from, on
    /// grids of up to 128 cells.
    pub(in crate::logic) fold: Option<Fold>,
    /// What each literal of a single node leads to ([`Graph::leads`]),
    /// made on first use.
    leads: std::sync::OnceLock<Leads>,
}

/// A single node's weak links other than to groups, on a grid of up to
/// 128 cells, read from bit sets rather than listed (listing them was
/// most of the cost of building a graph, and following them one by one
/// most of a search): its digit in its cell's peers, and its cell's
/// other digits, the single nodes numbered next to it.
#[derive(Debug)]
pub(in crate::logic) struct Fold {
    /// The cells holding each digit (`d - 1`).
    places: Vec<u128>,
    /// Each cell's peers.
    peers: Vec<u128>,
    /// The cells holding two candidates.
    pairs: u128,
    /// The first single node of each cell, and one past the last node.
    cell_at: Vec<u32>,
    /// Each group's box and line, its own cells left out: where its
    /// digit's single nodes are weakly linked to it (group `g` at
    /// `g - singles`).
    group_reach: Vec<u128>,
}

impl Graph {
    /// What each literal (`2 * node + on`) of a single node leads to,
    /// link by link, among single nodes (what a forcing chain from it
    /// reaches): with `w` words for the single nodes, the nodes found
    /// false in the first `w` words, those found true in the next `w`.
    pub(in crate::logic) fn leads(&self) -> &Leads {
        self.leads.get_or_init(|| {
            let lits = 2 * self.singles;
            let mut at = Vec::with_capacity(lits + 1);
            at.push(0u32);
            let mut next = Vec::new();
            for lit in 0..lits {
                let on = lit % 2 == 1;
                next.extend(
                    self.single_links(lit / 2, on)
                        .map(|y| 2 * y as u32 + u32::from(!on)),
                );
                at.push(next.len() as u32);
            }
            let w = self.singles.div_ceil(64);
            Leads::new(&at, &next, 2 * w, 0..lits, |v| {
                Some(v / 2 + if v % 2 == 1 { 64 * w } else { 0 })
            })
        })
    }

    /// Whether [`Graph::leads`] was made.
    pub(in crate::logic) fn leads_made(&self) -> bool {
        self.leads.get().is_some()
    }

    /// The single nodes linked to single node `x`, weakly (`weak`) or
    /// strongly, in the order of the lists (ascending, links inside the
    /// cell last).
    pub(in crate::logic) fn single_links(&self, x: usize, weak: bool) -> SingleLinks<'_> {
        let n = self.side;
        let mut it = SingleLinks {
            bits: 0,
            digit: 0,
            side: n,
            of_cand: &self.of_cand,
            list: if weak { &self.weak[x] } else { &self.strong[x] }.iter(),
            singles: self.singles,
            cell: 0..0,
            skip: x as u32,
        };
        if let (true, Some(f)) = (weak && x < self.singles, &self.fold) {
            let (c, d) = (self.nodes.cells(x)[0], self.nodes.digit(x) as usize - 1);
            it.bits = f.places[d] & f.peers[c];
            it.digit = d;
            it.cell = f.cell_at[c]..f.cell_at[c + 1];
        }
        it
    }

    /// How many weak links node `x` has, of every kind.
    fn weak_len(&self, x: usize) -> usize {
        match &self.fold {
            Some(f) if x < self.singles => {
                let (c, d) = (self.nodes.cells(x)[0], self.nodes.digit(x) as usize - 1);
                (f.places[d] & f.peers[c]).count_ones() as usize
                    + self.weak[x].len()
                    + (f.cell_at[c + 1] - f.cell_at[c] - 1) as usize
            }
            Some(f) => {
                let d = self.nodes.digit(x) as usize - 1;
                (f.places[d] & f.group_reach[x - self.singles]).count_ones() as usize
                    + self.weak[x].len()
            }
            None => self.weak[x].len(),
        }
    }

    /// Calls `f` on each node a chain of `kind` (not an XY-chain) may go
    /// to from "`y` true", by a weak link.
    /// On a folded graph, `mask` (cells, by digit) keeps only some of a
    /// single node's links to its digit in other cells.
    fn each_weak(&self, y: usize, kind: Kind, mask: Option<&[u128]>, mut f: impl FnMut(usize)) {
        debug_assert!(kind != Kind::Xy);
        match &self.fold {
            Some(fo) if y < self.singles => {
                let (c, d) = (self.nodes.cells(y)[0], self.nodes.digit(y) as usize - 1);
                let mut bits = fo.places[d] & fo.peers[c] & mask.map_or(u128::MAX, |m| m[d]);
                while bits != 0 {
                    let p = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    f(self.of_cand[p * self.side + d] as usize);
                }
                if kind == Kind::Grouped {
                    self.weak[y].iter().for_each(|&h| f(h as usize));
                }
                if kind != Kind::X {
                    (fo.cell_at[c]..fo.cell_at[c + 1])
                        .filter(|&w| w as usize != y)
                        .for_each(|w| f(w as usize));
                }
            }
            Some(fo) => {
                let d = self.nodes.digit(y) as usize - 1;
                let mut bits = fo.places[d]
                    & fo.group_reach[y - self.singles]
                    & mask.map_or(u128::MAX, |m| m[d]);
                while bits != 0 {
                    let p = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    f(self.of_cand[p * self.side + d] as usize);
                }
                self.weak[y].iter().for_each(|&h| f(h as usize));
            }
            None => {
                for run in self.weak.runs(y, kind, false) {
                    run.iter().for_each(|&l| f((l & !IN_CELL) as usize));
                }
            }
        }
    }

    /// Whether single nodes `x` and `y` are both weakly linked to one
    /// single node (neither of them).
    fn share_weak(&self, x: usize, y: usize, cands: &[u64]) -> bool {
        let Some(f) = &self.fold else {
            let wx = self.single_links(x, true).collect::<Vec<_>>();
            return self.single_links(y, true).any(|w| wx.contains(&w));
        };
        let x = (self.nodes.cells(x)[0], self.nodes.digit(x));
        let y = (self.nodes.cells(y)[0], self.nodes.digit(y));
        share_weak(&f.places, &f.peers, cands, x, y)
    }
}

/// Whether candidates `(cx, dx)` and `(cy, dy)` are both weakly linked to
/// one candidate (neither of them), from each digit's places and each
/// cell's peers (bit sets over the cells).
fn share_weak(
    places: &[u128],
    peers: &[u128],
    cands: &[u64],
    (cx, dx): (usize, u8),
    (cy, dy): (usize, u8),
) -> bool {
    let other = |c: usize| cands[c] & !(bit(dx) | bit(dy)) != 0;
    if cx == cy && other(cx) {
        return true;
    }
    if dx == dy {
        return places[dx as usize - 1] & peers[cx] & peers[cy] != 0;
    }
    let sees = peers[cx] & (1 << cy) != 0;
    sees && (cands[cy] & bit(dx) != 0 || cands[cx] & bit(dy) != 0)
}

/// The single nodes one node is linked to ([`Graph::single_links`]).
pub(in crate::logic) struct SingleLinks<'a> {
    /// Peers (cells) holding the node's digit, not yet given.
    bits: u128,
    digit: usize,
    side: usize,
    of_cand: &'a [u32],
    /// The listed links.
    list: std::slice::Iter<'a, u32>,
    singles: usize,
    /// The nodes of the node's cell, `skip` (itself) left out.
    cell: std::ops::Range<u32>,
    skip: u32,
}

impl Iterator for SingleLinks<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.bits != 0 {
            let p = self.bits.trailing_zeros() as usize;
            self.bits &= self.bits - 1;
            return Some(self.of_cand[p * self.side + self.digit] as usize);
        }
        for &l in self.list.by_ref() {
            let y = (l & !IN_CELL) as usize;
            if y < self.singles {
                return Some(y);
            }
        }
        self.cell.find(|&y| y != self.skip).map(|y| y as usize)
    }
}

/// The nodes of a link graph, their cells in one array: node `i`'s cells
/// are `cells[at[i]..at[i + 1]]`.
#[derive(Debug, Default)]
pub(in crate::logic) struct Nodes {
    at: Vec<u32>,
    cells: Vec<usize>,
    digit: Vec<u8>,
}

impl Nodes {
    fn push(&mut self, cells: impl IntoIterator<Item = usize>, d: u8) {
        if self.at.is_empty() {
            self.at.push(0);
        }
        self.cells.extend(cells);
        self.at.push(self.cells.len() as u32);
        self.digit.push(d);
    }

    /// How many nodes there are.
    pub(in crate::logic) fn len(&self) -> usize {
        self.digit.len()
    }

    /// Node `i`'s cells (one for a single node).
    pub(in crate::logic) fn cells(&self, i: usize) -> &[usize] {
        &self.cells[self.at[i] as usize..self.at[i + 1] as usize]
    }

    /// Node `i`'s digit.
    pub(in crate::logic) fn digit(&self, i: usize) -> u8 {
        self.digit[i]
    }
}

/// Adjacency lists in one array: node `i`'s neighbours are
/// `list[start[i]..start[i + 1]]`.
#[derive(Debug)]
pub(in crate::logic) struct Adj {
    start: Vec<u32>,
    list: Vec<u32>,
    /// Where each node's links to grouped nodes begin in `list`, and
    /// where its links inside one cell begin (each list is in ascending
    /// order: single nodes, groups, then the [`IN_CELL`] links).
    groups_at: Vec<u32>,
    in_cell_at: Vec<u32>,
}

impl Adj {
    /// Lists given node by node ([`Adj::close`] after each node's links).
    fn open(nodes: usize, capacity: usize) -> Adj {
        let mut start = Vec::with_capacity(nodes + 1);
        start.push(0);
        Adj {
            start,
            list: Vec::with_capacity(capacity),
            groups_at: Vec::with_capacity(nodes),
            in_cell_at: Vec::with_capacity(nodes),
        }
    }

    /// Ends the list of the next node: the links pushed since the last
    /// call, sorted and kept once (`sorted`: they were pushed so).
    fn close(&mut self, singles: usize, sorted: bool) {
        let lo = *self.start.last().unwrap_or(&0) as usize;
        if sorted {
            debug_assert!(self.list[lo..].windows(2).all(|w| w[0] < w[1]));
            self.close_at(lo, self.list.len(), singles);
            return;
        }
        let links = &mut self.list[lo..];
        links.sort_unstable();
        let mut out = lo;
        for j in lo..self.list.len() {
            if j == lo || self.list[j] != self.list[out - 1] {
                self.list[out] = self.list[j];
                out += 1;
            }
        }
        self.list.truncate(out);
        self.close_at(lo, out, singles);
    }

    fn close_at(&mut self, lo: usize, out: usize, singles: usize) {
        let links = &self.list[lo..];
        self.groups_at
            .push((lo + links.partition_point(|&v| (v as usize) < singles)) as u32);
        self.in_cell_at
            .push((lo + links.partition_point(|&v| v < IN_CELL)) as u32);
        self.start.push(out as u32);
    }

    /// From links `(a, b)` given both ways; repeated links kept once,
    /// each node's list in ascending order.
    fn new(nodes: usize, singles: usize, edges: Vec<(u32, u32)>) -> Adj {
        let mut start = vec![0u32; nodes + 1];
        for &(a, _) in &edges {
            start[a as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut list = vec![0u32; edges.len()];
        for (a, b) in edges {
            list[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
        }
        // Sort and deduplicate each node's list in place, compacting.
        let mut out = 0usize;
        let mut from = 0usize;
        for i in 0..nodes {
            let to = start[i + 1] as usize;
            list[from..to].sort_unstable();
            start[i] = out as u32;
            let mut last = None;
            for j in from..to {
                let v = list[j];
                if last != Some(v) {
                    list[out] = v;
                    out += 1;
                    last = Some(v);
                }
            }
            from = to;
        }
        start[nodes] = out as u32;
        list.truncate(out);
        let mut groups_at = Vec::with_capacity(nodes);
        let mut in_cell_at = Vec::with_capacity(nodes);
        for i in 0..nodes {
            let (lo, hi) = (start[i] as usize, start[i + 1] as usize);
            let links = &list[lo..hi];
            groups_at.push((lo + links.partition_point(|&v| (v as usize) < singles)) as u32);
            in_cell_at.push((lo + links.partition_point(|&v| v < IN_CELL)) as u32);
        }
        Adj {
            start,
            list,
            groups_at,
            in_cell_at,
        }
    }

    /// Node `i`'s links a chain of this kind may follow, in two runs of
    /// the list (as `Kind::allows` would keep them, but for an XY-chain's
    /// pair cells): single nodes only for all but grouped chains, and
    /// for X-chains and the weak links of XY-chains nothing inside a
    /// cell; an XY-chain's strong links are inside its pair cells.
    #[inline]
    fn runs(&self, i: usize, kind: Kind, strong: bool) -> [&[u32]; 2] {
        let (lo, hi) = (self.start[i] as usize, self.start[i + 1] as usize);
        let (g, c) = (self.groups_at[i] as usize, self.in_cell_at[i] as usize);
        let l = &self.list;
        match kind {
            Kind::Grouped => [&l[lo..hi], &[]],
            Kind::Aic => [&l[lo..g], &l[c..hi]],
            Kind::X => [&l[lo..g], &[]],
            Kind::Xy if strong => [&l[c..hi], &[]],
            Kind::Xy => [&l[lo..g], &[]],
        }
    }
}

impl std::ops::Index<usize> for Adj {
    type Output = [u32];

    fn index(&self, i: usize) -> &[u32] {
        &self.list[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// The mark of a link inside one cell (a pair cell's strong link, two
/// digits' weak link) in an adjacency list entry; the rest is the node.
pub(in crate::logic) const IN_CELL: u32 = 1 << 31;

impl Kind {
    /// Whether a chain of this kind may go to node `y` by a link marked
    /// `in_cell` or not, `strong` or weak.
    fn allows(self, g: &Graph, pair: &[bool], y: usize, in_cell: bool, strong: bool) -> bool {
        match self {
            Kind::Grouped => true,
            Kind::Aic => y < g.singles,
            Kind::X => y < g.singles && !in_cell,
            Kind::Xy => y < g.singles && pair[y] && in_cell == strong,
        }
    }
}

/// What each vertex of a graph leads to, as a bit set of marks: the
/// strongly connected parts of the graph (Tarjan's algorithm), each
/// part's set made from its own vertices' marks and the sets of the parts
/// it leads to, which Tarjan's algorithm completes first.
#[derive(Debug)]
pub(in crate::logic) struct Leads {
    /// Each vertex's part (`u32::MAX` when not visited).
    comp: Vec<u32>,
    /// Each part's set, `words` words.
    sets: Vec<u64>,
    words: usize,
}

impl Leads {
    /// Vertex `v`'s successors are `next[at[v]..at[v + 1]]`; the search
    /// starts from `roots` (and visits what they lead to); `mark(v)` is
    /// the bit, below `64 * words`, vertex `v` sets in what leads to it.
    fn new(
        at: &[u32],
        next: &[u32],
        words: usize,
        roots: impl Iterator<Item = usize>,
        mark: impl Fn(usize) -> Option<usize>,
    ) -> Leads {
        // Sets of a fixed number of words where it is known (the unions
        // of sets, one per link, are most of the work).
        match words {
            2 => Leads::build::<2>(at, next, words, roots, mark),
            4 => Leads::build::<4>(at, next, words, roots, mark),
            6 => Leads::build::<6>(at, next, words, roots, mark),
            _ => Leads::build::<0>(at, next, words, roots, mark),
        }
    }

    /// [`Leads::new`] with sets of `W` words (`words` when `W` is 0).
    fn build<const W: usize>(
        at: &[u32],
        next: &[u32],
        words: usize,
        roots: impl Iterator<Item = usize>,
        mark: impl Fn(usize) -> Option<usize>,
    ) -> Leads {
        let words = if W == 0 { words } else { W };
        const NONE: u32 = u32::MAX;
        let vertices = at.len() - 1;
        // Tarjan's search, iterative: `calls` holds each open vertex and
        // the place of its next successor in `next`; a part found is the
        // top of `stack` from where its root was pushed (`at_stack`).
        let mut index = vec![NONE; vertices];
        let mut low = vec![0u32; vertices];
        let mut comp = vec![NONE; vertices];
        let mut at_stack = vec![0u32; vertices];
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, u32)> = Vec::new();
        let mut sets: Vec<u64> = Vec::new();
        let (mut comps, mut counter) = (0u32, 0u32);
        macro_rules! open {
            ($v:expr) => {{
                let v: usize = $v;
                (index[v], low[v], at_stack[v]) = (counter, counter, stack.len() as u32);
                counter += 1;
                stack.push(v as u32);
                calls.push((v as u32, at[v]));
            }};
        }
        for root in roots {
            if index[root] != NONE {
                continue;
            }
            open!(root);
            while let Some(top) = calls.last_mut() {
                let v = top.0 as usize;
                if top.1 < at[v + 1] {
                    let w = next[top.1 as usize] as usize;
                    top.1 += 1;
                    if index[w] == NONE {
                        open!(w);
                    } else if comp[w] == NONE {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    low[u as usize] = low[u as usize].min(low[v]);
                }
                if low[v] != index[v] {
                    continue;
                }
                let from = at_stack[v] as usize;
                for &w in &stack[from..] {
                    comp[w as usize] = comps;
                }
                let base = sets.len();
                sets.resize(base + words, 0);
                for &w in &stack[from..] {
                    let w = w as usize;
                    if let Some(b) = mark(w) {
                        sets[base + b / 64] |= 1 << (b % 64);
                    }
                    for &s in &next[at[w] as usize..at[w + 1] as usize] {
                        let c = comp[s as usize] as usize;
                        if c != comps as usize {
                            let (done, this) = sets.split_at_mut(base);
                            let from = &done[c * words..(c + 1) * words];
                            for i in 0..words {
                                this[i] |= from[i];
                            }
                        }
                    }
                }
                stack.truncate(from);
                comps += 1;
            }
        }
        Leads { comp, sets, words }
    }

    /// What vertex `v` (visited) leads to.
    pub(in crate::logic) fn of(&self, v: usize) -> &[u64] {
        let c = self.comp[v] as usize;
        &self.sets[c * self.words..(c + 1) * self.words]
    }
}

/// The starts from which an AIC (grouped or not) could strike anything,
/// as a bit set over the nodes. A chain from "`x` false" to "`y` true"
/// strikes a candidate `z` weakly linked to both, so "`z` true" leads,
/// link by link, to "`z` false" (through "`x` false", the chain, "`y`
/// true"). Only the candidates with such a path, of any length, can be
/// struck, and a chain that strikes one starts from one of its weak
/// links. The paths go through nodes with strong links only (a chain
/// enters a "true" node by one, leaves a "false" node by one), so what
/// each literal of those nodes leads to is found for all of them at once:
/// the graph's strongly connected parts (Tarjan), each one's reach made
/// from those of the parts it leads to, complete before it.
fn useful_starts(g: &Graph, kind: Kind) -> Vec<u64> {
    debug_assert!(matches!(kind, Kind::Aic | Kind::Grouped));
    let m = if kind == Kind::Grouped {
        g.nodes.len()
    } else {
        g.singles
    };
    // The nodes with strong links, numbered 0.. (`NONE` for the others),
    // and on a folded graph the cells of each digit's strong single nodes.
    const NONE: u32 = u32::MAX;
    let mut id = vec![NONE; m];
    let mut strong: Vec<usize> = Vec::new();
    let mut cells = vec![0u128; if g.fold.is_some() { g.side } else { 0 }];
    for (x, slot) in id.iter_mut().enumerate() {
        if g.strong.runs(x, kind, true).iter().any(|r| !r.is_empty()) {
            *slot = strong.len() as u32;
            strong.push(x);
            if x < g.singles && !cells.is_empty() {
                cells[g.nodes.digit(x) as usize - 1] |= 1 << g.nodes.cells(x)[0];
            }
        }
    }
    let words = strong.len().div_ceil(64);
    let mask = (!cells.is_empty()).then_some(&cells[..]);
    // Their literals (`2 * id + on`) and the successors of each.
    let mut at = Vec::with_capacity(2 * strong.len() + 1);
    at.push(0u32);
    let mut next: Vec<u32> = Vec::new();
    for &x in &strong {
        for run in g.strong.runs(x, kind, true) {
            next.extend(run.iter().map(|&l| 2 * id[(l & !IN_CELL) as usize] + 1));
        }
        at.push(next.len() as u32);
        g.each_weak(x, kind, mask, |w| {
            if id[w] != NONE {
                next.push(2 * id[w]);
            }
        });
        at.push(next.len() as u32);
    }
    let leads = Leads::new(&at, &next, words, 0..2 * strong.len(), |v| {
        (v % 2 == 1).then_some(v / 2)
    });
    let mut useful = vec![0u64; g.nodes.len().div_ceil(64)];
    // Up to 256 nodes with strong links (most positions of a 9x9): the
    // sets in words of a fixed count, which the compiler unrolls.
    match words {
        0..=2 => mark_useful::<2>(g, kind, mask, (&id, &strong), &leads, &mut useful),
        3..=4 => mark_useful::<4>(g, kind, mask, (&id, &strong), &leads, &mut useful),
        _ => mark_useful_any(g, kind, mask, (&id, &strong), &leads, &mut useful),
    }
    useful
}

/// [`useful_starts`]' last pass with sets of `W` words: marks the starts
/// of the chains that may strike each target.
fn mark_useful<const W: usize>(
    g: &Graph,
    kind: Kind,
    mask: Option<&[u128]>,
    (id, strong): (&[u32], &[usize]),
    leads: &Leads,
    useful: &mut [u64],
) {
    let reach: Vec<[u64; W]> = (0..strong.len())
        .map(|x| {
            let mut set = [0u64; W];
            set[..leads.words].copy_from_slice(leads.of(2 * x));
            set
        })
        .collect();
    for z in 0..g.singles {
        let (mut ends, mut to) = ([0u64; W], [0u64; W]);
        g.each_weak(z, kind, mask, |x| {
            let i = id[x];
            if i != u32::MAX {
                ends[i as usize / 64] |= 1 << (i % 64);
                for (t, r) in to.iter_mut().zip(&reach[i as usize]) {
                    *t |= r;
                }
            }
        });
        // One end may do: a chain from "x false" back to "x true" strikes
        // what x sees.
        if to.iter().zip(&ends).any(|(t, e)| t & e != 0) {
            for (w, &bits) in ends.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let x = strong[64 * w + bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                    useful[x / 64] |= 1 << (x % 64);
                }
            }
        }
    }
}

/// [`mark_useful`] for any number of nodes with strong links.
fn mark_useful_any(
    g: &Graph,
    kind: Kind,
    mask: Option<&[u128]>,
    (id, strong): (&[u32], &[usize]),
    leads: &Leads,
    useful: &mut [u64],
) {
    const NONE: u32 = u32::MAX;
    let words = leads.words;
    let mut to = vec![0u64; words];
    let mut ends: Vec<u32> = Vec::new();
    for z in 0..g.singles {
        ends.clear();
        g.each_weak(z, kind, mask, |x| {
            if id[x] != NONE {
                ends.push(id[x]);
            }
        });
        // One end may do: a chain from "x false" back to "x true" strikes
        // what x sees.
        if ends.is_empty() {
            continue;
        }
        to.fill(0);
        for &x in &ends {
            for (a, b) in to.iter_mut().zip(leads.of(2 * x as usize)) {
                *a |= b;
            }
        }
        if ends
            .iter()
            .any(|&y| to[y as usize / 64] & (1 << (y % 64)) != 0)
        {
            for &x in &ends {
                let x = strong[x as usize];
                useful[x / 64] |= 1 << (x % 64);
            }
        }
    }
}

/// The nodes with strong links of a folded graph (at most 256 of them),
/// numbered in node order, and their links as bit sets `S` over those
/// numbers: for [`Board::search_in_bits`].
struct StrongNodes<S> {
    /// The nodes.
    nodes: Vec<usize>,
    /// Each one's strong partners: "this false" makes them true.
    partners: Vec<S>,
    /// The nodes with strong links each one sees (weak links): "this
    /// true" makes them false.
    sees: Vec<S>,
    /// For each, the nodes with strong links that see a single node it
    /// sees too: the starts a chain ending "this true" may strike from.
    share: Vec<S>,
}

impl<S: Set> StrongNodes<S> {
    /// The nodes `id` numbers (`u32::MAX` for the others) and the links.
    fn of(g: &Graph, kind: Kind, id: &[u32], nodes: Vec<usize>) -> StrongNodes<S> {
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
fn shares<S: Set>(seen_by: &[S], seen: &[u32], seen_at: &[usize]) -> Vec<S> {
    seen_at
        .windows(2)
        .map(|w| {
            seen[w[0]..w[1]]
                .iter()
                .fold(S::default(), |a, &z| a | seen_by[z as usize])
        })
        .collect()
}

impl Board {
    /// [`Board::search`] on a folded graph with up to 256 nodes with
    /// strong links, by one breadth-first search from every start at
    /// once ([`spread`]): each literal of a node with strong links keeps
    /// the set of starts that reach it, level by level (bit sets over
    /// those nodes). A start reaching "`y` true" where a single node it
    /// sees is seen by `y` too may strike it (a chain between single
    /// nodes does; one with a group may not). For the shortest chain, the
    /// first level with such starts holds the shortest chains, and the
    /// search from one start ([`Board::search_from`], capped at that
    /// length) makes the chain, in order, until one strikes (the first
    /// start, in node order, of the shortest chains; its first chain
    /// breadth first). With `most` (HoDoKu's choice of X- and
    /// XY-chains), every start that may strike at some level is searched,
    /// in order, and no other. `None` when the graph is not folded or
    /// more than 256 nodes have strong links.
    fn search_in_bits(
        &self,
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
                self.search_among(g, kind, &s, skip, cut, most)
            }
            129..=256 => {
                let s = StrongNodes::<Wide>::of(g, kind, &id, nodes);
                self.search_among(g, kind, &s, skip, cut, most)
            }
            _ => return None,
        })
    }

    /// [`Board::search_in_bits`] over the nodes with strong links `s`.
    fn search_among<S: Set>(
        &self,
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
                only[x / 64] |= 1 << (x % 64);
            }
            return self.search_from(g, kind, skip, Some(&only), cut, true, MAX_NODES);
        }
        let mut found = None;
        spread(s, starts, |len, mut hits| {
            while let Some(i) = hits.pop_first() {
                let x = s.nodes[i];
                only[x / 64] = 1 << (x % 64);
                found = self.search_from(g, kind, skip, Some(&only), cut, false, len);
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

/// The breadth-first search of [`Board::search_in_bits`] from the nodes
/// of `s` that `starts` allows, all at once: at each level of "true"
/// literals from the fourth on (two are too few for a chain), calls
/// `level` with the length of the chains reaching them and the starts
/// that may strike there, when there are any; stops where `level` says
/// so, where nothing new is reached, or at [`MAX_NODES`].
fn spread<S: Set>(
    s: &StrongNodes<S>,
    starts: impl Fn(usize) -> bool,
    mut level: impl FnMut(usize, S) -> bool,
) {
    let count = s.nodes.len();
    let mut seen_off: Vec<S> = (0..count)
        .map(|i| if starts(i) { S::unit(i) } else { S::default() })
        .collect();
    let mut off = seen_off.clone();
    let mut seen_on = vec![S::default(); count];
    let mut on = vec![S::default(); count];
    // The literals of the chains reaching `off`, then `on`.
    let mut len = 1;
    loop {
        on.fill(S::default());
        for (i, &from) in off.iter().enumerate() {
            if !from.is_empty() {
                let mut p = s.partners[i];
                while let Some(j) = p.pop_first() {
                    on[j] = on[j] | from;
                }
            }
        }
        let (mut hits, mut any) = (S::default(), false);
        for ((new, seen), &share) in on.iter_mut().zip(&mut seen_on).zip(&s.share) {
            *new = new.minus(*seen);
            *seen = *seen | *new;
            hits = hits | new.and(share);
            any |= !new.is_empty();
        }
        len += 1;
        if len >= 4 && !hits.is_empty() && level(len, hits) {
            return;
        }
        if !any || len >= MAX_NODES {
            return;
        }
        off.fill(S::default());
        for (i, &from) in on.iter().enumerate() {
            if !from.is_empty() {
                let mut w = s.sees[i];
                while let Some(j) = w.pop_first() {
                    off[j] = off[j] | from;
                }
            }
        }
        any = false;
        for (new, seen) in off.iter_mut().zip(&mut seen_off) {
            *new = new.minus(*seen);
            *seen = *seen | *new;
            any |= !new.is_empty();
        }
        len += 1;
        if !any {
            return;
        }
    }
}

/// A set of small numbers in bits, for [`Board::search_in_bits`]: one
/// `u128`, or two ([`Wide`]).
trait Set: Copy + Default + std::ops::BitOr<Output = Self> {
    fn unit(i: usize) -> Self;
    fn insert(&mut self, i: usize);
    fn and(self, other: Self) -> Self;
    fn minus(self, other: Self) -> Self;
    fn is_empty(&self) -> bool;
    /// Takes the smallest number out.
    fn pop_first(&mut self) -> Option<usize>;
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
}

/// Up to 256 numbers, in two `u128`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Wide([u128; 2]);

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
}

impl Board {
    /// The link graph of the position, built once per position: every
    /// node and link, grouped ones too when `grouped` (only grouped AICs
    /// use them: the others, and forcing chains, keep to single nodes,
    /// which come first and are numbered alike either way); each kind of
    /// chain keeps to its own ([`Kind::allows`]).
    pub(in crate::logic) fn graph(&mut self, grouped: bool) -> Arc<Graph> {
        let at = self.steps.len();
        let fits = |g: &Graph| g.grouped || !grouped;
        if let Some((s, g)) = &self.memo.graph {
            if *s == at && fits(g) {
                return Arc::clone(g);
            }
        }
        let known = self
            .memo
            .findings
            .as_ref()
            .and_then(|f| f.graphs.get(&self.cands))
            .filter(|g| fits(g));
        let g = match known {
            Some(g) => Arc::clone(g),
            None => {
                let g = Arc::new(self.build_graph(grouped, true));
                if let Some(f) = &mut self.memo.findings {
                    if self.side <= 9 && f.graphs.len() < KEPT_GRAPHS {
                        f.graphs.insert(self.cands.clone(), Arc::clone(&g));
                    }
                }
                g
            }
        };
        self.memo.graph = Some((at, Arc::clone(&g)));
        g
    }

    /// The graph [`Board::graph`] keeps; `folded`: with a [`Fold`] on a
    /// grid of up to 128 cells (else every weak link listed).
    pub(in crate::logic) fn build_graph(&self, grouped: bool, folded: bool) -> Graph {
        let n = self.side;
        let units = self.units.len();
        let table = self.table();
        let places = &table.places;
        let mut nodes = Nodes::default();
        // Node of each candidate (cell * n + digit - 1), u32::MAX when none.
        let mut of_cand = vec![u32::MAX; n * n * n];
        let mut cell_at = Vec::with_capacity(n * n + 1);
        for c in 0..n * n {
            cell_at.push(nodes.len() as u32);
            for d in crate::logic::digits_of(self.cands[c]) {
                of_cand[c * n + d as usize - 1] = nodes.len() as u32;
                nodes.push([c], d);
            }
        }
        let singles = nodes.len();
        cell_at.push(singles as u32);
        let mut fold = (folded && n * n <= 128).then(|| {
            let mut f = Fold {
                places: vec![0; n],
                peers: (0..n * n).map(|c| self.peer_bits(c)).collect(),
                pairs: 0,
                cell_at,
                group_reach: Vec::new(),
            };
            for c in 0..n * n {
                for d in crate::logic::digits_of(self.cands[c]) {
                    f.places[d as usize - 1] |= 1 << c;
                }
                if crate::logic::two_bits(self.cands[c]) {
                    f.pairs |= 1 << c;
                }
            }
            f
        });
        // Groups: a digit's places in a box and a line, two or more. Each
        // group's box and line, and the groups of each unit and digit
        // (`unit * n + digit - 1`) in one array.
        let mut group_units: Vec<[usize; 2]> = Vec::new();
        let mut keyed: Vec<(u32, u32)> = Vec::new();
        // Each box's lines: the line unit and the box positions on it.
        let mut lines: Vec<(usize, u64)> = Vec::with_capacity(2 * n);
        let boxes = if grouped { 2 * n..3 * n } else { 0..0 };
        for b in boxes {
            lines.clear();
            for slot in 0..2 {
                let from = lines.len();
                for (i, &c) in self.units[b].iter().enumerate() {
                    let line = self.cell_units[c][slot];
                    match lines[from..].iter_mut().find(|(l, _)| *l == line) {
                        Some((_, m)) => *m |= 1 << i,
                        None => lines.push((line, 1 << i)),
                    }
                }
                lines[from..].sort_unstable();
            }
            for d in 1..=n as u8 {
                let p = places[b * n + d as usize - 1];
                if p & p.wrapping_sub(1) == 0 {
                    continue;
                }
                for &(line, on_line) in &lines {
                    let q = p & on_line;
                    if q & q.wrapping_sub(1) != 0 {
                        let g = nodes.len() as u32;
                        keyed.push(((b * n + d as usize - 1) as u32, g));
                        keyed.push(((line * n + d as usize - 1) as u32, g));
                        group_units.push([b, line]);
                        nodes.push(
                            crate::logic::digits_of(q).map(|i| self.units[b][i as usize - 1]),
                            d,
                        );
                    }
                }
            }
        }
        // On grids of up to 128 cells, each group's cells as a bit set,
        // and a digit's places in a unit.
        let group_cells: Vec<u128> = match fold {
            Some(_) => (singles..nodes.len())
                .map(|g| nodes.cells(g).iter().fold(0, |a, &c| a | 1 << c))
                .collect(),
            None => Vec::new(),
        };
        let unit_places = |k: usize, d: u8| -> u128 {
            crate::logic::digits_of(places[k * n + d as usize - 1])
                .fold(0, |a, i| a | 1 << self.units[k][i as usize - 1])
        };
        let mut in_unit_at = vec![0u32; units * n + 1];
        for &(k, _) in &keyed {
            in_unit_at[k as usize + 1] += 1;
        }
        for i in 0..units * n {
            in_unit_at[i + 1] += in_unit_at[i];
        }
        let mut fill = in_unit_at.clone();
        let mut in_unit_list = vec![0u32; keyed.len()];
        for &(k, g) in &keyed {
            in_unit_list[fill[k as usize] as usize] = g;
            fill[k as usize] += 1;
        }
        let in_unit = |k: usize, d: u8| {
            let i = k * n + d as usize - 1;
            &in_unit_list[in_unit_at[i] as usize..in_unit_at[i + 1] as usize]
        };
        let mut strong: Vec<(u32, u32)> = Vec::new();
        let link = |list: &mut Vec<(u32, u32)>, a: usize, b: usize| {
            list.push((a as u32, b as u32));
            list.push((b as u32, a as u32));
        };
        // Strong links in pair cells.
        for c in 0..n * n {
            let m = self.cands[c];
            if crate::logic::two_bits(m) {
                let mut ds = crate::logic::digits_of(m);
                if let (Some(a), Some(b)) = (ds.next(), ds.next()) {
                    let (x, y) = (
                        of_cand[c * n + a as usize - 1],
                        of_cand[c * n + b as usize - 1],
                    );
                    strong.push((x, y | IN_CELL));
                    strong.push((y, x | IN_CELL));
                }
            }
        }
        // Strong links in units: the digit's places split into two nodes.
        let mut inside: Vec<usize> = Vec::new();
        for k in 0..units {
            for d in 1..=n as u8 {
                let p = places[k * n + d as usize - 1];
                let node_at = |i: u8| of_cand[self.units[k][i as usize - 1] * n + d as usize - 1];
                let two = crate::logic::two_bits(p);
                if two {
                    let mut at = crate::logic::digits_of(p);
                    if let (Some(i), Some(j)) = (at.next(), at.next()) {
                        link(&mut strong, node_at(i) as usize, node_at(j) as usize);
                    }
                }
                let groups = in_unit(k, d);
                // Fewer than three places, or no groups to link.
                if two || p & p.wrapping_sub(1) == 0 || groups.is_empty() || !group_cells.is_empty()
                {
                    continue;
                }
                let count = p.count_ones() as usize;
                // Nodes inside this unit on d (singles and groups); two
                // of them that share no cell and cover every place.
                inside.clear();
                inside.extend(crate::logic::digits_of(p).map(|i| node_at(i) as usize));
                inside.extend(groups.iter().map(|&g| g as usize));
                for (i, &a) in inside.iter().enumerate() {
                    for &b in &inside[i + 1..] {
                        let (ca, cb) = (nodes.cells(a), nodes.cells(b));
                        if (a >= singles || b >= singles)
                            && ca.len() + cb.len() == count
                            && ca.iter().all(|c| !cb.contains(c))
                        {
                            link(&mut strong, a, b);
                        }
                    }
                }
            }
        }
        // On grids of up to 128 cells, by each group's cells as a bit set:
        // its digit's other places in each of its units, when they are
        // one cell or one group.
        for (i, &cells) in group_cells.iter().enumerate() {
            let g = singles + i;
            let d = nodes.digit(g);
            for k in group_units[i] {
                let rest = unit_places(k, d) & !cells;
                if rest.count_ones() == 1 {
                    let c = rest.trailing_zeros() as usize;
                    link(&mut strong, g, of_cand[c * n + d as usize - 1] as usize);
                } else if let Some(&h) = in_unit(k, d)
                    .iter()
                    .find(|&&h| h as usize > g && group_cells[h as usize - singles] == rest)
                {
                    link(&mut strong, g, h as usize);
                }
            }
        }
        // Weak links, node by node: one digit in cells that see each
        // other, two digits of one cell; a group's digit elsewhere in its
        // box and line (a cell seeing every cell of a group shares one of
        // them), and the groups of either that share none of its cells.
        let m = nodes.len();
        let mut weak = Adj::open(m, singles * 24);
        if let Some(f) = &mut fold {
            // Only the links to groups are listed: each group's singles
            // are its digit's places in its box and line, outside it, and
            // each single's groups are the groups holding it there, met
            // in ascending order.
            let mask = |k: usize| self.units[k].iter().fold(0u128, |a, &c| a | 1 << c);
            f.group_reach = (singles..m)
                .map(|g| {
                    let [b, l] = group_units[g - singles];
                    let cells = nodes.cells(g);
                    cells
                        .iter()
                        .fold(mask(b) | mask(l), |r, &c| r & !(1u128 << c))
                })
                .collect();
            let f = &*f;
            let each = |g: usize, visit: &mut dyn FnMut(usize)| {
                let d = nodes.digit(g) as usize - 1;
                let mut bits = f.places[d] & f.group_reach[g - singles];
                while bits != 0 {
                    let p = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    visit(of_cand[p * n + d] as usize);
                }
            };
            let mut at = vec![0u32; singles + 1];
            for g in singles..m {
                each(g, &mut |a| at[a + 1] += 1);
            }
            for a in 0..singles {
                at[a + 1] += at[a];
            }
            let mut fill = at.clone();
            let mut list = vec![0u32; at[singles] as usize];
            for g in singles..m {
                each(g, &mut |a| {
                    list[fill[a] as usize] = g as u32;
                    fill[a] += 1;
                });
            }
            for a in 0..singles {
                weak.list
                    .extend_from_slice(&list[at[a] as usize..at[a + 1] as usize]);
                weak.close(singles, true);
            }
            // Each group's groups: those of its box and of its line (in
            // both only itself), sharing none of its cells, merged.
            for g in singles..m {
                let (d, [b, l]) = (nodes.digit(g), group_units[g - singles]);
                let cg = group_cells[g - singles];
                let apart = |h: &&u32| group_cells[**h as usize - singles] & cg == 0;
                let mut x = in_unit(b, d).iter().filter(apart).peekable();
                let mut y = in_unit(l, d).iter().filter(apart).peekable();
                while let (Some(&&p), Some(&&q)) = (x.peek(), y.peek()) {
                    weak.list.push(p.min(q));
                    if p < q {
                        x.next();
                    } else {
                        y.next();
                    }
                }
                weak.list.extend(x.chain(y).copied());
                weak.close(singles, true);
            }
        } else {
            let mut groups: Vec<u32> = Vec::new();
            for a in 0..singles {
                let (c, d) = (nodes.cells(a)[0], nodes.digit(a));
                // In ascending order, each once: peers by cell (so by
                // node), groups (none is in two of the cell's units: a
                // cell sharing a group's box and line, holding its digit,
                // is in it), and the cell's other digits.
                let of_d = |p: usize| of_cand[p * n + d as usize - 1];
                weak.list.extend(
                    self.peers[c]
                        .iter()
                        .map(|&p| of_d(p))
                        .filter(|&b| b != u32::MAX),
                );
                groups.clear();
                for k in self.cell_units[c] {
                    groups.extend(
                        in_unit(k, d)
                            .iter()
                            .filter(|&&g| !nodes.cells(g as usize).contains(&c)),
                    );
                }
                groups.sort_unstable();
                weak.list.extend_from_slice(&groups);
                weak.list.extend(
                    crate::logic::digits_of(self.cands[c])
                        .filter(|&e| e != d)
                        .map(|e| of_cand[c * n + e as usize - 1] | IN_CELL),
                );
                weak.close(singles, true);
            }
            for g in singles..m {
                let d = nodes.digit(g);
                let cg = nodes.cells(g);
                for k in group_units[g - singles] {
                    for &c in &self.units[k] {
                        let h = of_cand[c * n + d as usize - 1];
                        if h != u32::MAX && !cg.contains(&c) {
                            weak.list.push(h);
                        }
                    }
                    for &h in in_unit(k, d) {
                        if h as usize != g
                            && nodes.cells(h as usize).iter().all(|c| !cg.contains(c))
                        {
                            weak.list.push(h);
                        }
                    }
                }
                weak.close(singles, false);
            }
        }
        Graph {
            side: n,
            nodes,
            singles,
            grouped,
            of_cand,
            strong: Adj::new(m, singles, strong),
            weak,
            fold,
            leads: std::sync::OnceLock::new(),
        }
    }

    /// Candidates (outside both nodes) that a true `x` or a true `y`
    /// would strike: one of them holds, so these go.
    pub(in crate::logic) fn struck_by_either(
        &self,
        (cx, dx): (&[usize], u8),
        (cy, dy): (&[usize], u8),
    ) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        if dx == dy {
            let first = cx[0];
            for &c in self.peers[first].iter() {
                if self.cands[c] & bit(dx) != 0
                    && !cx.contains(&c)
                    && !cy.contains(&c)
                    && cx.iter().chain(cy.iter()).all(|&o| self.sees(c, o))
                {
                    out.push((c, dx));
                }
            }
        } else if cx.len() == 1 && cy.len() == 1 {
            let (a, b) = (cx[0], cy[0]);
            if a == b {
                for e in crate::logic::digits_of(self.cands[a]) {
                    if e != dx && e != dy {
                        out.push((a, e));
                    }
                }
            } else if self.sees(a, b) {
                if self.cands[a] & bit(dy) != 0 {
                    out.push((a, dy));
                }
                if self.cands[b] & bit(dx) != 0 {
                    out.push((b, dx));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// The breadth-first search of [`Board::chain`] over the chains `kind`
    /// allows: the shortest chain that strikes something (for X- and
    /// XY-chains in HoDoKu's run, the one that strikes the most).
    /// Starts on the digits of `skip` (bit `d - 1`) are left out (an
    /// X-chain keeps to its start's digit). `cut` is set when the search
    /// stopped before trying every start (the work cap, the deadline).
    /// AICs start only where [`useful_starts`] allows.
    fn search(&self, g: &Graph, kind: Kind, skip: u64, cut: &mut bool) -> Option<Found> {
        let most = self.pick == crate::logic::Pick::Hodoku && matches!(kind, Kind::X | Kind::Xy);
        // (X-chains are told apart by digit first, `x_chain_digits`: the
        // search in bits gains nothing on them.)
        if kind != Kind::X {
            if let Some(found) = self.search_in_bits(g, kind, skip, cut, most) {
                return found;
            }
        }
        let useful = matches!(kind, Kind::Aic | Kind::Grouped).then(|| useful_starts(g, kind));
        if useful.as_ref().is_some_and(|u| u.iter().all(|&w| w == 0)) {
            return None;
        }
        self.search_from(g, kind, skip, useful.as_deref(), cut, most, MAX_NODES)
    }

    /// [`Board::search`] from the starts in `useful` (a bit set over the
    /// nodes; every start when `None`). With `most`, the chain HoDoKu
    /// takes instead of the shortest: every start is searched to the end
    /// and the chain that strikes the most candidates wins ([`better`]).
    #[allow(clippy::too_many_arguments)]
    fn search_from(
        &self,
        g: &Graph,
        kind: Kind,
        skip: u64,
        useful: Option<&[u64]>,
        cut: &mut bool,
        most: bool,
        cap: usize,
    ) -> Option<Found> {
        let m = g.nodes.len();
        // Which nodes are in pair cells (read by XY-chains alone).
        let pair: Vec<bool> = match kind {
            Kind::Xy => (0..m)
                .map(|i| i < g.singles && self.cands[g.nodes.cells(i)[0]].count_ones() == 2)
                .collect(),
            _ => Vec::new(),
        };
        // A quick test before working out what two single ends strike:
        // some candidate weakly linked to both (on a graph that lists its
        // weak links; a folded one tells from its bit sets).
        let mut mark = vec![u32::MAX; if g.fold.is_none() { m } else { 0 }];
        // The chain taken so far (the shortest, or with `most` the best in
        // HoDoKu's order): its literals and what it strikes.
        let mut best: Option<Found> = None;
        // Literal 2 * node + on; parent literal of each reached literal.
        let mut parent = vec![u32::MAX; 2 * m];
        let mut seen_at = vec![u32::MAX; 2 * m];
        let mut queue: Vec<(u32, u16)> = Vec::new();
        // On a folded graph: the cells whose node on each digit is reached
        // "false" from the current start.
        let n = g.side;
        let mut seen_off = vec![0u128; if g.fold.is_some() { n } else { 0 }];
        let mut work = 0usize;
        for x in 0..m {
            if work > MAX_WORK {
                *cut = true;
                break;
            }
            if g.strong[x].is_empty()
                || useful.is_some_and(|u| u[x / 64] & (1 << (x % 64)) == 0)
                || !kind.allows(g, &pair, x, false, false)
                || skip & bit(g.nodes.digit(x)) != 0
            {
                continue;
            }
            if x % 32 == 0 && self.past_deadline() {
                *cut = true;
                break;
            }
            let limit = match &best {
                Some(b) if !most => b.0.len() - 1,
                _ => cap,
            };
            if limit < 4 {
                break;
            }
            let single_x = x < g.singles;
            if single_x && g.fold.is_none() {
                for &w in &g.weak[x] {
                    mark[(w & !IN_CELL) as usize] = x as u32;
                }
            }
            let start = 2 * x as u32;
            queue.clear();
            queue.push((start, 1));
            seen_at[start as usize] = x as u32;
            parent[start as usize] = u32::MAX;
            seen_off.fill(0);
            if single_x && g.fold.is_some() {
                let d = g.nodes.digit(x) as usize - 1;
                seen_off[d] |= 1 << g.nodes.cells(x)[0];
            }
            let mut head = 0;
            'bfs: while head < queue.len() {
                let (lit, len) = queue[head];
                head += 1;
                if len as usize >= limit {
                    continue;
                }
                let node = (lit / 2) as usize;
                let on = lit % 2 == 1;
                if on && len as usize + 1 >= limit {
                    // What a "true" node leads to is "false" nodes, where
                    // no chain ends: at the limit they would not be
                    // followed further (the work is counted as if they
                    // were pushed, so the cap falls where it did).
                    work += match g.fold {
                        Some(_) => g.weak_len(node),
                        None => g.weak[node].len(),
                    };
                    continue;
                }
                if let (true, Some(f)) = (on, &g.fold) {
                    // Weak links: pushed only, no chain ends on a "false"
                    // node. The digit's places near the node first.
                    work += g.weak_len(node);
                    let single = node < g.singles;
                    let (c, d) = (g.nodes.cells(node)[0], g.nodes.digit(node) as usize - 1);
                    let near = if single {
                        f.peers[c]
                    } else {
                        f.group_reach[node - g.singles]
                    };
                    let mut bits = f.places[d] & near & !seen_off[d];
                    if kind == Kind::Xy {
                        bits &= f.pairs;
                    }
                    seen_off[d] |= bits;
                    while bits != 0 {
                        let p = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let nl = 2 * g.of_cand[p * n + d];
                        seen_at[nl as usize] = x as u32;
                        parent[nl as usize] = lit;
                        queue.push((nl, len + 1));
                    }
                    let groups: &[u32] = if kind == Kind::Grouped {
                        &g.weak[node]
                    } else {
                        &[]
                    };
                    let cell = if single && matches!(kind, Kind::Aic | Kind::Grouped) {
                        f.cell_at[c]..f.cell_at[c + 1]
                    } else {
                        0..0
                    };
                    for y in groups.iter().copied().chain(cell) {
                        let nl = 2 * y;
                        if y as usize == node || seen_at[nl as usize] == x as u32 {
                            continue;
                        }
                        seen_at[nl as usize] = x as u32;
                        if (y as usize) < g.singles {
                            let e = g.nodes.digit(y as usize) as usize - 1;
                            seen_off[e] |= 1 << c;
                        }
                        parent[nl as usize] = lit;
                        queue.push((nl, len + 1));
                    }
                    continue;
                }
                let adj = if on { &g.weak } else { &g.strong };
                work += adj[node].len();
                let [first, second] = adj.runs(node, kind, !on);
                for &link in first.iter().chain(second) {
                    let y = link & !IN_CELL;
                    debug_assert!(
                        kind.allows(g, &pair, y as usize, link & IN_CELL != 0, !on)
                            || (kind == Kind::Xy && !pair[y as usize])
                    );
                    if kind == Kind::Xy && !pair[y as usize] {
                        continue;
                    }
                    let nl = 2 * y + u32::from(!on);
                    if seen_at[nl as usize] == x as u32 {
                        continue;
                    }
                    seen_at[nl as usize] = x as u32;
                    parent[nl as usize] = lit;
                    queue.push((nl, len + 1));
                    if on {
                        if let (Some(_), true) = (&g.fold, (y as usize) < g.singles) {
                            let (c, e) = (g.nodes.cells(y as usize)[0], g.nodes.digit(y as usize));
                            seen_off[e as usize - 1] |= 1 << c;
                        }
                        continue;
                    }
                    if len + 1 < 4 {
                        continue;
                    }
                    // Reached "y is true" from "x is false".
                    if matches!(kind, Kind::X | Kind::Xy)
                        && g.nodes.digit(x) != g.nodes.digit(y as usize)
                    {
                        continue;
                    }
                    if single_x
                        && (y as usize) < g.singles
                        && !match g.fold {
                            Some(_) => g.share_weak(x, y as usize, &self.cands),
                            None => g.weak[y as usize].iter().any(|&w| {
                                let w = (w & !IN_CELL) as usize;
                                w < g.singles && mark[w] == x as u32
                            }),
                        }
                    {
                        continue;
                    }
                    let nx = (g.nodes.cells(x), g.nodes.digit(x));
                    let ny = (g.nodes.cells(y as usize), g.nodes.digit(y as usize));
                    let struck = self.struck_by_either(nx, ny);
                    if struck.is_empty() {
                        continue;
                    }
                    if most {
                        let path = path_to(&parent, nl);
                        if best
                            .as_ref()
                            .is_none_or(|b| better((&path, &struck), (&b.0, &b.1)))
                        {
                            best = Some((path, struck));
                        }
                        continue;
                    }
                    best = Some((path_to(&parent, nl), struck));
                    break 'bfs;
                }
            }
        }
        best
    }

    /// The digits (bit `d - 1`, of those not in `skip`) on which an
    /// X-chain may strike something, read from bit sets on grids of up to
    /// 128 cells (every digit not skipped on larger ones): from each place
    /// `x` with a strong link, the places a chain from "`x` false" makes
    /// true, of any length; a chain strikes only a place seeing `x` and
    /// one of them. A search on any other digit finds nothing.
    pub(in crate::logic) fn x_chain_digits(&self, skip: u64) -> u64 {
        let n = self.side;
        let all = crate::logic::all_digits(n);
        let cells = n * n;
        if cells > 128 || skip == all {
            return all & !skip;
        }
        let peer = |c: usize| self.peer_bits(c);
        let table = self.table();
        let mut conj = [0u128; 128];
        let mut out = 0;
        for d in 1..=n as u8 {
            if skip & bit(d) != 0 {
                continue;
            }
            let di = d as usize - 1;
            // The digit's places (rows come first, their cells in order),
            // and its strong links: for the digits searched alone, where
            // `in_cells.rs` makes them for every digit in one pass (most
            // digits here are skipped, so they are made one by one).
            let mut places = 0u128;
            for row in 0..n {
                places |= u128::from(table.places[row * n + di]) << (row * n);
            }
            let mut starts = 0u128;
            for k in 0..3 * n {
                let pl = table.places[k * n + di];
                if crate::logic::two_bits(pl) {
                    let a = self.units[k][pl.trailing_zeros() as usize];
                    let b = self.units[k][63 - pl.leading_zeros() as usize];
                    conj[a] |= 1 << b;
                    conj[b] |= 1 << a;
                    starts |= 1 << a | 1 << b;
                }
            }
            let mut todo = starts;
            'starts: while todo != 0 {
                let x = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let seeing_x = peer(x) & places;
                if seeing_x == 0 {
                    continue;
                }
                let (mut off, mut on, mut frontier) = (1u128 << x, 0u128, 1u128 << x);
                while frontier != 0 {
                    let mut next_on = 0;
                    let mut f = frontier;
                    while f != 0 {
                        next_on |= conj[f.trailing_zeros() as usize];
                        f &= f - 1;
                    }
                    next_on &= !on;
                    on |= next_on;
                    let mut seen = 0;
                    while next_on != 0 {
                        seen |= peer(next_on.trailing_zeros() as usize);
                        next_on &= next_on - 1;
                    }
                    // The places made true by the first link end no
                    // chain (two nodes are too few, and the search does
                    // not reach them again).
                    if seen & seeing_x != 0 && off != 1 << x {
                        out |= bit(d);
                        break 'starts;
                    }
                    frontier = seen & places & !off;
                    off |= frontier;
                }
            }
            let mut used = starts;
            while used != 0 {
                conj[used.trailing_zeros() as usize] = 0;
                used &= used - 1;
            }
        }
        out
    }

    /// Whether an XY-chain search here would find nothing, as the last one
    /// did: an XY-chain goes through pair cells alone, so where the
    /// candidates are fewer than there and no cell has become a pair
    /// since, every XY-chain is one that was there, striking no more.
    pub(in crate::logic) fn xy_chains_in_vain(&self) -> bool {
        #[cfg(test)]
        if self.memo.facts.off {
            return false;
        }
        let Some(then) = &self.memo.xy_vain else {
            return false;
        };
        then.len() == self.cands.len()
            && self
                .cands
                .iter()
                .zip(then)
                .all(|(&now, &was)| now & !was == 0 && (now == was || now.count_ones() != 2))
    }

    /// One chain of this kind that strikes something: the shortest found,
    /// or HoDoKu's choice of X- and XY-chains ([`Board::search`]).
    /// An X-chain keeps to one digit: the digits it found nothing on
    /// are noted ([`Board::digits_failed`]) and skipped while their places
    /// stay.
    pub(in crate::logic) fn chain(&mut self, kind: Kind) -> bool {
        let n = self.side;
        let all = crate::logic::all_digits(n);
        let skip = match kind {
            Kind::X => {
                let skip = self.digits_to_skip(Technique::XChain);
                // The digits without a chain that strikes are noted and
                // left out at once, found so from bit sets.
                let none = all & !skip & !self.x_chain_digits(skip);
                self.digits_failed(Technique::XChain, none);
                skip | none
            }
            _ => 0,
        };
        if skip == all || (kind == Kind::Xy && self.xy_chains_in_vain()) {
            return false;
        }
        let mut cut = false;
        // AICs and XY-chains between single cells are found without the
        // graph where the grid is small (`in_cells.rs`).
        let found = match self.chain_in_cells(kind, &mut cut) {
            Some(found) => found,
            None => {
                let g = self.graph(kind == Kind::Grouped);
                self.search(&g, kind, skip, &mut cut).map(|(path, struck)| {
                    let chain = path
                        .iter()
                        .map(|&lit| {
                            let i = (lit / 2) as usize;
                            ChainNode {
                                cells: g.nodes.cells(i).to_vec(),
                                digit: g.nodes.digit(i),
                                on: lit % 2 == 1,
                            }
                        })
                        .collect();
                    (chain, struck)
                })
            }
        };
        if kind == Kind::X && found.is_none() && !cut {
            self.digits_failed(Technique::XChain, all & !skip);
        }
        if kind == Kind::Xy && found.is_none() && !cut {
            match &mut self.memo.xy_vain {
                Some(then) => then.clone_from(&self.cands),
                None => self.memo.xy_vain = Some(self.cands.clone()),
            }
        }
        let Some((chain, struck)) = found else {
            return false;
        };
        let grouped = chain.iter().any(|nd| nd.cells.len() > 1);
        let technique = match kind {
            Kind::X => Technique::XChain,
            Kind::Xy => Technique::XyChain,
            Kind::Aic => Technique::NiceLoop,
            Kind::Grouped if grouped => Technique::GroupedNiceLoop,
            Kind::Grouped => Technique::NiceLoop,
        };
        let mut digits: Vec<u8> = chain.iter().map(|nd| nd.digit).collect();
        digits.sort_unstable();
        digits.dedup();
        let mut cells: Vec<usize> = chain
            .iter()
            .flat_map(|nd| nd.cells.iter().copied())
            .collect();
        cells.dedup();
        self.apply(Step {
            technique,
            unit: None,
            digits,
            cells,
            placed: None,
            eliminated: struck,
            chains: vec![chain],
        });
        true
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (
            Technique::XChain
            | Technique::XyChain
            | Technique::NiceLoop
            | Technique::GroupedNiceLoop,
            None,
        ) if step.chains.first().is_some_and(|c| c.len() >= 2) => {
            let chain = &step.chains[0];
            let (first, last) = (&chain[0], &chain[chain.len() - 1]);
            let on_digit = if step.technique == Technique::XChain {
                format!(" on {}", w.digit(first.digit))
            } else {
                String::new()
            };
            // The chain starts from its first node false and ends with its
            // last true: one of the two holds.
            let first_true = ChainNode {
                on: true,
                ..first.clone()
            };
            if first.digit == last.digit && first.cells == last.cells {
                // A loop back to its start: were the start false, the chain
                // would make it true, so it is true.
                let start_false = ChainNode {
                    on: false,
                    ..first.clone()
                };
                return Some(format!(
                    "{name}{on_digit}: {}: if {}, then {}; so {}: {removes}",
                    w.chain_text(chain),
                    w.node_is(&start_false),
                    w.node_is(&first_true),
                    w.node_is(&first_true)
                ));
            }
            format!(
                "{name}{on_digit}: {}: {} or {}: {removes}",
                w.chain_text(chain),
                w.node_is(&first_true),
                w.node_is(last)
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{Graph, Kind};
    use crate::grid::{BoxShape, Grid};
    use crate::logic::tests::each_hard_position;
    use crate::logic::{Board, Technique};

    fn empty() -> Board {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        Board::edited_by_hand(&p)
    }

    #[test]
    fn folded_links_and_useful_starts_change_no_chain() {
        let (mut positions, mut found, mut no_start) = (0, 0, 0);
        each_hard_position(8, |b| {
            positions += 1;
            let folded = b.build_graph(true, true);
            let listed = b.build_graph(true, false);
            assert!(folded.fold.is_some() && listed.fold.is_none());
            for x in 0..listed.singles {
                for weak in [false, true] {
                    let links = |g: &Graph| g.single_links(x, weak).collect::<Vec<_>>();
                    assert_eq!(links(&folded), links(&listed));
                }
                assert_eq!(folded.weak_len(x), listed.weak_len(x));
                let near: Vec<usize> = listed.single_links(x, true).collect();
                for y in (x % 7..listed.singles).step_by(7) {
                    let shared = listed.single_links(y, true).any(|w| near.contains(&w));
                    assert_eq!(folded.share_weak(x, y, &b.cands), shared, "{x} {y}");
                }
            }
            for x in 0..listed.nodes.len() {
                let weak = |g: &Graph| {
                    let mut v = Vec::new();
                    g.each_weak(x, Kind::Grouped, None, |w| v.push(w));
                    v
                };
                assert_eq!(weak(&folded), weak(&listed), "{x}");
                assert_eq!(folded.strong[x], listed.strong[x], "{x}");
                assert_eq!(folded.weak_len(x), listed.weak_len(x));
            }
            for kind in [Kind::X, Kind::Xy, Kind::Aic, Kind::Grouped] {
                let mut cut = false;
                // HoDoKu's choice of X- and XY-chains (the board's).
                let most = matches!(kind, Kind::X | Kind::Xy);
                let every = b.search_from(&listed, kind, 0, None, &mut cut, most, super::MAX_NODES);
                assert_eq!(b.search(&folded, kind, 0, &mut cut), every, "{kind:?}");
                assert_eq!(b.search(&listed, kind, 0, &mut cut), every, "{kind:?}");
                assert!(!cut);
                found += usize::from(every.is_some());
                if matches!(kind, Kind::Aic | Kind::Grouped) {
                    let useful = super::useful_starts(&folded, kind);
                    no_start += usize::from(useful.iter().all(|&w| w == 0));
                }
            }
        });
        // Chains were found, and searches skipped, or this proves nothing.
        assert!(
            positions > 100 && found > 20 && no_start > 20,
            "{positions} {found} {no_start}"
        );
    }

    #[test]
    fn x_chain_digits_leave_out_only_digits_without_a_chain() {
        // A digit the bit sets leave out has no X-chain that strikes (the
        // search over the graph finds none); the test means something
        // only if digits are left out, and digits kept have chains.
        let all = crate::logic::all_digits(9);
        let (mut left_out, mut with_chain) = (0, 0);
        each_hard_position(8, |b| {
            let possible = b.x_chain_digits(0);
            let g = b.build_graph(false, true);
            for d in 1..=9u8 {
                let mut cut = false;
                let skip = all & !super::bit(d);
                let found =
                    b.search_from(&g, Kind::X, skip, None, &mut cut, true, super::MAX_NODES);
                assert!(!cut);
                if possible & super::bit(d) == 0 {
                    left_out += 1;
                    assert!(found.is_none(), "digit {d}: {found:?}");
                } else {
                    with_chain += usize::from(found.is_some());
                }
            }
            // Skipped digits stay out.
            assert_eq!(b.x_chain_digits(0b1_0101_0101) & 0b1_0101_0101, 0);
        });
        assert!(left_out > 100 && with_chain > 10, "{left_out} {with_chain}");
    }

    #[test]
    fn hodoku_takes_the_chain_striking_most_and_se_the_shortest() {
        // Along the ladder on hard puzzles, the X- and XY-chain HoDoKu's
        // choice takes strikes at least as much as the shortest one SE's
        // takes, which is at most as long; somewhere strictly more.
        let mut more = 0;
        each_hard_position(40, |b| {
            for kind in [Kind::X, Kind::Xy] {
                let (mut hodoku, mut se) = (b.clone(), b.clone());
                se.pick = crate::logic::Pick::Easiest;
                let found = hodoku.chain(kind);
                assert_eq!(found, se.chain(kind));
                if !found {
                    continue;
                }
                let (h, e) = (hodoku.steps.last().unwrap(), se.steps.last().unwrap());
                assert!(h.eliminated.len() >= e.eliminated.len(), "{h:?} {e:?}");
                assert!(h.chains[0].len() >= e.chains[0].len(), "{h:?} {e:?}");
                more += usize::from(h.eliminated.len() > e.eliminated.len());
            }
        });
        assert!(more > 0);
    }

    #[test]
    fn hodokus_order_of_steps() {
        use super::better;
        let chain = |n: u32| (0..n).collect::<Vec<u32>>();
        // More strikes first, whatever the length.
        assert!(better(
            (&chain(10), &[(5, 1), (6, 1)]),
            (&chain(4), &[(0, 1)])
        ));
        // Then the lower weighted sum: (digit, cell) sorted, cell times
        // 1, 81, … plus digit.
        assert!(better((&chain(8), &[(3, 2)]), (&chain(4), &[(4, 2)])));
        assert!(better(
            (&chain(8), &[(9, 1), (3, 2)]),
            (&chain(4), &[(3, 1), (9, 2)])
        ));
        // Then the shorter.
        assert!(better((&chain(4), &[(3, 2)]), (&chain(6), &[(3, 2)])));
        assert!(!better((&chain(6), &[(3, 2)]), (&chain(6), &[(3, 2)])));
    }

    #[test]
    fn xy_chain_strikes_the_end_digit_from_cells_seeing_both_ends() {
        let mut b = empty();
        // r1c1 {1,2} – r1c5 {2,3} – r5c5 {3,4} – r5c9 {4,1}: one of r1c1
        // and r5c9 is 1, so r1c9 and r5c1 lose 1.
        b.cands[0] = 0b0011;
        b.cands[4] = 0b0110;
        b.cands[40] = 0b1100;
        b.cands[44] = 0b1001;
        assert!(b.chain(Kind::Xy));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::XyChain);
        assert_eq!(s.eliminated, vec![(8, 1), (36, 1)]);
        assert_eq!(s.chains[0].len(), 8);
        assert!(!s.chains[0][0].on && s.chains[0][7].on);
    }
}
