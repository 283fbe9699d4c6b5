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
//! shortest one from its start, and the shortest over all starts is taken
//! (Sudoku Explainer rates chains by length). Chains are capped at
//! [`MAX_NODES`] nodes, as HoDoKu caps its chains at 20, and one search at
//! [`MAX_WORK`] links followed (it matters on large grids only).

use std::sync::Arc;

use super::{bit, Board, ChainNode, Step, Technique};

/// The longest chain searched, in nodes (HoDoKu's default chain length).
pub(super) const MAX_NODES: usize = 20;

/// The most links one chain search follows (all starts together) before
/// it gives up for the step: a 9x9 search stays well below, a 25x25 one,
/// thousands of nodes each searched from, would take seconds.
const MAX_WORK: usize = 4_000_000;

/// Which links a chain may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
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
pub(super) struct Graph {
    /// The cells and digit of each node; single cells first.
    pub(super) nodes: Vec<(Vec<usize>, u8)>,
    /// How many nodes are single cells (the first ones).
    pub(super) singles: usize,
    /// Strong links of each node.
    pub(super) strong: Adj,
    /// Weak links of each node.
    pub(super) weak: Adj,
}

/// Adjacency lists in one array: node `i`'s neighbours are
/// `list[start[i]..start[i + 1]]`.
#[derive(Debug)]
pub(super) struct Adj {
    start: Vec<u32>,
    list: Vec<u32>,
    /// Where each node's links to grouped nodes begin in `list`, and
    /// where its links inside one cell begin (each list is in ascending
    /// order: single nodes, groups, then the [`IN_CELL`] links).
    groups_at: Vec<u32>,
    in_cell_at: Vec<u32>,
}

impl Adj {
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
pub(super) const IN_CELL: u32 = 1 << 31;

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

impl Board {
    /// The link graph of the position, built once per position: every
    /// node and link, grouped ones too; each kind of chain keeps to its
    /// own ([`Kind::allows`]).
    pub(super) fn graph(&mut self) -> Arc<Graph> {
        let at = self.steps.len();
        if let Some((s, g)) = &self.cache.graph {
            if *s == at {
                return Arc::clone(g);
            }
        }
        let g = Arc::new(self.build_graph());
        self.cache.graph = Some((at, Arc::clone(&g)));
        g
    }

    fn build_graph(&self) -> Graph {
        let n = self.side;
        let units = self.units.len();
        let mut nodes: Vec<(Vec<usize>, u8)> = Vec::new();
        // Node of each candidate (cell * n + digit - 1), u32::MAX when none.
        let mut of_cand = vec![u32::MAX; n * n * n];
        for c in 0..n * n {
            let m = self.cands[c];
            if m == 0 {
                continue;
            }
            for d in super::digits_of(m) {
                of_cand[c * n + d as usize - 1] = nodes.len() as u32;
                nodes.push((vec![c], d));
            }
        }
        let singles = nodes.len();
        // Groups: a digit's places in a box and a line, two or more; each
        // listed under its two units (`in_unit[unit * n + digit - 1]`).
        let mut in_unit: Vec<Vec<u32>> = vec![Vec::new(); units * n];
        // A group's box and line.
        let mut group_units: Vec<[usize; 2]> = Vec::new();
        for b in 2 * n..3 * n {
            for d in 1..=n as u8 {
                let places: Vec<usize> = self.units[b]
                    .iter()
                    .copied()
                    .filter(|&c| self.cands[c] & bit(d) != 0)
                    .collect();
                if places.len() < 2 {
                    continue;
                }
                for slot in 0..2 {
                    let mut lines: Vec<usize> =
                        places.iter().map(|&c| self.cell_units[c][slot]).collect();
                    lines.sort_unstable();
                    lines.dedup();
                    for line in lines {
                        let cells: Vec<usize> = places
                            .iter()
                            .copied()
                            .filter(|&c| self.cell_units[c][slot] == line)
                            .collect();
                        if cells.len() >= 2 {
                            let g = nodes.len() as u32;
                            in_unit[b * n + d as usize - 1].push(g);
                            in_unit[line * n + d as usize - 1].push(g);
                            group_units.push([b, line]);
                            nodes.push((cells, d));
                        }
                    }
                }
            }
        }
        let mut strong: Vec<(u32, u32)> = Vec::new();
        let mut weak: Vec<(u32, u32)> = Vec::with_capacity(nodes.len() * 24);
        let link = |list: &mut Vec<(u32, u32)>, a: usize, b: usize| {
            list.push((a as u32, b as u32));
            list.push((b as u32, a as u32));
        };
        let cell_link = |list: &mut Vec<(u32, u32)>, a: usize, b: usize| {
            list.push((a as u32, b as u32 | IN_CELL));
            list.push((b as u32, a as u32 | IN_CELL));
        };
        // Strong links in pair cells.
        for c in 0..n * n {
            let m = self.cands[c];
            if m.count_ones() == 2 {
                let mut ds = super::digits_of(m);
                if let (Some(a), Some(b)) = (ds.next(), ds.next()) {
                    let (x, y) = (
                        of_cand[c * n + a as usize - 1],
                        of_cand[c * n + b as usize - 1],
                    );
                    cell_link(&mut strong, x as usize, y as usize);
                }
            }
        }
        // Strong links in units: the digit's places split into two nodes.
        let mut places: Vec<usize> = Vec::new();
        let mut inside: Vec<usize> = Vec::new();
        for k in 0..units {
            for d in 1..=n as u8 {
                places.clear();
                places.extend(
                    self.units[k]
                        .iter()
                        .copied()
                        .filter(|&c| self.cands[c] & bit(d) != 0),
                );
                if places.len() == 2 {
                    let x = of_cand[places[0] * n + d as usize - 1];
                    let y = of_cand[places[1] * n + d as usize - 1];
                    link(&mut strong, x as usize, y as usize);
                }
                let groups = &in_unit[k * n + d as usize - 1];
                if places.len() < 3 || groups.is_empty() {
                    continue;
                }
                // Nodes inside this unit on d (singles and groups); two
                // of them that share no cell and cover every place.
                inside.clear();
                inside.extend(
                    places
                        .iter()
                        .map(|&c| of_cand[c * n + d as usize - 1] as usize),
                );
                inside.extend(groups.iter().map(|&g| g as usize));
                for (i, &a) in inside.iter().enumerate() {
                    for &b in &inside[i + 1..] {
                        let (ca, cb) = (&nodes[a].0, &nodes[b].0);
                        if (a >= singles || b >= singles)
                            && ca.len() + cb.len() == places.len()
                            && ca.iter().all(|c| !cb.contains(c))
                        {
                            link(&mut strong, a, b);
                        }
                    }
                }
            }
        }
        // Weak links: one digit in cells that see each other.
        for (a, (cells, d)) in nodes.iter().enumerate().take(singles) {
            let (c, d) = (cells[0], *d);
            for &p in &self.peers[c] {
                let b = of_cand[p * n + d as usize - 1];
                if b != u32::MAX && (b as usize) > a {
                    link(&mut weak, a, b as usize);
                }
            }
            // Two digits of one cell.
            for e in super::digits_of(self.cands[c]).filter(|&e| e > d) {
                let b = of_cand[c * n + e as usize - 1];
                cell_link(&mut weak, a, b as usize);
            }
        }
        // A group's weak links: the digit elsewhere in its box and its
        // line (a cell seeing every cell of a group shares one of them),
        // and the groups of either that share none of its cells.
        for g in singles..nodes.len() {
            let (cg, d) = (&nodes[g].0, nodes[g].1);
            let [bx, line] = group_units[g - singles];
            for k in [bx, line] {
                for &c in &self.units[k] {
                    let h = of_cand[c * n + d as usize - 1];
                    // A cell of the box's line is in both units: linked once.
                    if h != u32::MAX && !cg.contains(&c) && (k == bx || self.cell_units[c][2] != bx)
                    {
                        link(&mut weak, g, h as usize);
                    }
                }
                for &h in &in_unit[k * n + d as usize - 1] {
                    let h = h as usize;
                    // Each pair once: from the lower node, through the
                    // box when they share both units.
                    if h > g
                        && (k == bx || group_units[h - singles][0] != bx)
                        && nodes[h].0.iter().all(|c| !cg.contains(c))
                    {
                        link(&mut weak, g, h);
                    }
                }
            }
        }
        let m = nodes.len();
        Graph {
            nodes,
            singles,
            strong: Adj::new(m, singles, strong),
            weak: Adj::new(m, singles, weak),
        }
    }

    /// Candidates (outside both nodes) that a true `x` or a true `y`
    /// would strike: one of them holds, so these go.
    pub(super) fn struck_by_either(
        &self,
        x: &(Vec<usize>, u8),
        y: &(Vec<usize>, u8),
    ) -> Vec<(usize, u8)> {
        let (cx, dx) = (&x.0, x.1);
        let (cy, dy) = (&y.0, y.1);
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
                for e in super::digits_of(self.cands[a]) {
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
    /// allows: the shortest chain that strikes something.
    fn search(&self, g: &Graph, kind: Kind) -> Option<Found> {
        let m = g.nodes.len();
        let pair: Vec<bool> = g
            .nodes
            .iter()
            .map(|(cells, _)| cells.len() == 1 && self.cands[cells[0]].count_ones() == 2)
            .collect();
        // A quick test before working out what two single ends strike:
        // some candidate weakly linked to both.
        let mut mark = vec![u32::MAX; m];
        // The shortest chain so far: its literals and what it strikes.
        let mut best: Option<Found> = None;
        // Literal 2 * node + on; parent literal of each reached literal.
        let mut parent = vec![u32::MAX; 2 * m];
        let mut seen_at = vec![u32::MAX; 2 * m];
        let mut queue: Vec<(u32, u16)> = Vec::new();
        let mut work = 0usize;
        for x in 0..m {
            if work > MAX_WORK {
                break;
            }
            if g.strong[x].is_empty() || !kind.allows(g, &pair, x, false, false) {
                continue;
            }
            if x % 32 == 0 && self.past_deadline() {
                break;
            }
            let limit = best.as_ref().map_or(MAX_NODES, |b| b.0.len() - 1);
            if limit < 4 {
                break;
            }
            let single_x = x < g.singles;
            if single_x {
                for &w in &g.weak[x] {
                    mark[(w & !IN_CELL) as usize] = x as u32;
                }
            }
            let start = 2 * x as u32;
            queue.clear();
            queue.push((start, 1));
            seen_at[start as usize] = x as u32;
            parent[start as usize] = u32::MAX;
            let mut head = 0;
            'bfs: while head < queue.len() {
                let (lit, len) = queue[head];
                head += 1;
                if len as usize >= limit {
                    continue;
                }
                let node = (lit / 2) as usize;
                let on = lit % 2 == 1;
                let adj = if on { &g.weak } else { &g.strong };
                work += adj[node].len();
                for &link in adj.runs(node, kind, !on).into_iter().flatten() {
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
                    if on || len + 1 < 4 {
                        continue;
                    }
                    // Reached "y is true" from "x is false".
                    let (nx, ny) = (&g.nodes[x], &g.nodes[y as usize]);
                    if matches!(kind, Kind::X | Kind::Xy) && nx.1 != ny.1 {
                        continue;
                    }
                    if single_x
                        && (y as usize) < g.singles
                        && !g.weak[y as usize].iter().any(|&w| {
                            let w = (w & !IN_CELL) as usize;
                            w < g.singles && mark[w] == x as u32
                        })
                    {
                        continue;
                    }
                    let struck = self.struck_by_either(nx, ny);
                    if struck.is_empty() {
                        continue;
                    }
                    let mut path = vec![nl];
                    let mut at = nl;
                    while parent[at as usize] != u32::MAX {
                        at = parent[at as usize];
                        path.push(at);
                    }
                    path.reverse();
                    best = Some((path, struck));
                    break 'bfs;
                }
            }
        }
        best
    }

    /// One chain of this kind that strikes something: the shortest found.
    pub(super) fn chain(&mut self, kind: Kind) -> bool {
        let g = self.graph();
        let Some((path, struck)) = self.search(&g, kind) else {
            return false;
        };
        let chain: Vec<ChainNode> = path
            .iter()
            .map(|&lit| {
                let (cells, digit) = &g.nodes[(lit / 2) as usize];
                ChainNode {
                    cells: cells.clone(),
                    digit: *digit,
                    on: lit % 2 == 1,
                }
            })
            .collect();
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

#[cfg(test)]
mod tests {
    use super::super::{Board, Ladder, Technique};
    use super::Kind;
    use crate::grid::{BoxShape, Grid};

    fn empty() -> Board {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        Board::with_ladder(&p, Ladder::all()).unwrap()
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
