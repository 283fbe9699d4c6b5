//! The link graph of a position: its nodes, strong and weak links as
//! adjacency lists, and on small grids the bit sets a node's weak links
//! are read from.

use super::{Kind, Leads};
use crate::logic::bit;

/// The link graph of a position: nodes (cells and digit), strong and
/// weak links as adjacency lists.
#[derive(Debug)]
pub(in crate::logic) struct Graph {
    /// The grid's side.
    pub(super) side: usize,
    /// The cells and digit of each node; single cells first.
    pub(in crate::logic) nodes: Nodes,
    /// How many nodes are single cells (the first ones).
    pub(in crate::logic) singles: usize,
    /// Whether the grouped nodes are in (else only single cells).
    pub(super) grouped: bool,
    /// The single node of each candidate (`cell * side + digit - 1`),
    /// `u32::MAX` where the cell lacks the digit.
    pub(in crate::logic) of_cand: Vec<u32>,
    /// Strong links of each node.
    pub(in crate::logic) strong: Adj,
    /// Weak links of each node; on a grid of up to 128 cells ([`Fold`])
    /// a single node's list holds only its links to groups.
    pub(super) weak: Adj,
    /// The bit sets a single node's other weak links are read from, on
    /// grids of up to 128 cells.
    pub(in crate::logic) fold: Option<Fold>,
    /// What each literal of a single node leads to ([`Graph::leads`]),
    /// made on first use.
    pub(super) leads: std::sync::OnceLock<Leads>,
}

/// A single node's weak links other than to groups, on a grid of up to
/// 128 cells, read from bit sets rather than listed (listing them was
/// most of the cost of building a graph, and following them one by one
/// most of a search): its digit in its cell's peers, and its cell's
/// other digits, the single nodes numbered next to it.
#[derive(Debug)]
pub(in crate::logic) struct Fold {
    /// The cells holding each digit (`d - 1`).
    pub(super) places: Vec<u128>,
    /// Each cell's peers.
    pub(super) peers: Vec<u128>,
    /// The cells holding two candidates.
    pub(super) pairs: u128,
    /// The first single node of each cell, and one past the last node.
    pub(super) cell_at: Vec<u32>,
    /// Each group's box and line, its own cells left out: where its
    /// digit's single nodes are weakly linked to it (group `g` at
    /// `g - singles`).
    pub(super) group_reach: Vec<u128>,
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
            let mut next = Vec::with_capacity(16 * lits);
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
    pub(super) fn weak_len(&self, x: usize) -> usize {
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
    pub(super) fn each_weak(
        &self,
        y: usize,
        kind: Kind,
        mask: Option<&[u128]>,
        mut f: impl FnMut(usize),
    ) {
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
    pub(super) fn share_weak(&self, x: usize, y: usize, cands: &[u64]) -> bool {
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
pub(super) fn share_weak(
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
    pub(super) bits: u128,
    pub(super) digit: usize,
    pub(super) side: usize,
    pub(super) of_cand: &'a [u32],
    /// The listed links.
    pub(super) list: std::slice::Iter<'a, u32>,
    pub(super) singles: usize,
    /// The nodes of the node's cell, `skip` (itself) left out.
    pub(super) cell: std::ops::Range<u32>,
    pub(super) skip: u32,
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
    pub(super) at: Vec<u32>,
    pub(super) cells: Vec<usize>,
    pub(super) digit: Vec<u8>,
}

impl Nodes {
    pub(super) fn push(&mut self, cells: impl IntoIterator<Item = usize>, d: u8) {
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
    pub(super) start: Vec<u32>,
    pub(super) list: Vec<u32>,
    /// Where each node's links to grouped nodes begin in `list`, and
    /// where its links inside one cell begin (each list is in ascending
    /// order: single nodes, groups, then the [`IN_CELL`] links).
    groups_at: Vec<u32>,
    in_cell_at: Vec<u32>,
}

impl Adj {
    /// Lists given node by node ([`Adj::close`] after each node's links).
    pub(super) fn open(nodes: usize, capacity: usize) -> Adj {
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
    pub(super) fn close(&mut self, singles: usize, sorted: bool) {
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
    pub(super) fn new(nodes: usize, singles: usize, edges: Vec<(u32, u32)>) -> Adj {
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
    #[inline(always)]
    pub(super) fn runs(&self, i: usize, kind: Kind, strong: bool) -> [&[u32]; 2] {
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
pub(super) const IN_CELL: u32 = 1 << 31;

impl Kind {
    /// Whether a chain of this kind may go to node `y` by a link marked
    /// `in_cell` or not, `strong` or weak.
    pub(super) fn allows(
        self,
        g: &Graph,
        pair: &[bool],
        y: usize,
        in_cell: bool,
        strong: bool,
    ) -> bool {
        match self {
            Kind::Grouped => true,
            Kind::Aic => y < g.singles,
            Kind::X => y < g.singles && !in_cell,
            Kind::Xy => y < g.singles && pair[y] && in_cell == strong,
        }
    }
}
