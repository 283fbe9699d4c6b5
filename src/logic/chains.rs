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

/// The most link graphs one puzzle's runs keep for each other
/// ([`Board::note_findings`]); about 20 KB each on a 9x9.
pub(super) const KEPT_GRAPHS: usize = 256;

/// The literals from a search's start to `goal`, following `parent`
/// (`u32::MAX` at the start) back.
pub(super) fn path_to(parent: &[u32], goal: u32) -> Vec<u32> {
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
    pub(super) nodes: Nodes,
    /// How many nodes are single cells (the first ones).
    pub(super) singles: usize,
    /// Whether the grouped nodes are in (else only single cells).
    pub(super) grouped: bool,
    /// The single node of each candidate (`cell * side + digit - 1`),
    /// `u32::MAX` where the cell lacks the digit.
    pub(super) of_cand: Vec<u32>,
    /// Strong links of each node.
    pub(super) strong: Adj,
    /// Weak links of each node.
    pub(super) weak: Adj,
}

/// The nodes of a link graph, their cells in one array: node `i`'s cells
/// are `cells[at[i]..at[i + 1]]`.
#[derive(Debug, Default)]
pub(super) struct Nodes {
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
    pub(super) fn len(&self) -> usize {
        self.digit.len()
    }

    /// Node `i`'s cells (one for a single node).
    pub(super) fn cells(&self, i: usize) -> &[usize] {
        &self.cells[self.at[i] as usize..self.at[i + 1] as usize]
    }

    /// Node `i`'s digit.
    pub(super) fn digit(&self, i: usize) -> u8 {
        self.digit[i]
    }
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
    /// node and link, grouped ones too when `grouped` (only grouped AICs
    /// use them: the others, and forcing chains, keep to single nodes,
    /// which come first and are numbered alike either way); each kind of
    /// chain keeps to its own ([`Kind::allows`]).
    pub(super) fn graph(&mut self, grouped: bool) -> Arc<Graph> {
        let at = self.steps.len();
        let fits = |g: &Graph| g.grouped || !grouped;
        if let Some((s, g)) = &self.cache.graph {
            if *s == at && fits(g) {
                return Arc::clone(g);
            }
        }
        let known = self
            .findings
            .as_ref()
            .and_then(|f| f.graphs.get(&self.cands))
            .filter(|g| fits(g));
        let g = match known {
            Some(g) => Arc::clone(g),
            None => {
                let g = Arc::new(self.build_graph(grouped));
                if let Some(f) = &mut self.findings {
                    if self.side <= 9 && f.graphs.len() < KEPT_GRAPHS {
                        f.graphs.insert(self.cands.clone(), Arc::clone(&g));
                    }
                }
                g
            }
        };
        self.cache.graph = Some((at, Arc::clone(&g)));
        g
    }

    fn build_graph(&self, grouped: bool) -> Graph {
        let n = self.side;
        let units = self.units.len();
        let table = self.table();
        let places = &table.places;
        let mut nodes = Nodes::default();
        // Node of each candidate (cell * n + digit - 1), u32::MAX when none.
        let mut of_cand = vec![u32::MAX; n * n * n];
        for c in 0..n * n {
            for d in super::digits_of(self.cands[c]) {
                of_cand[c * n + d as usize - 1] = nodes.len() as u32;
                nodes.push([c], d);
            }
        }
        let singles = nodes.len();
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
                if p.count_ones() < 2 {
                    continue;
                }
                for &(line, on_line) in &lines {
                    let q = p & on_line;
                    if q.count_ones() >= 2 {
                        let g = nodes.len() as u32;
                        keyed.push(((b * n + d as usize - 1) as u32, g));
                        keyed.push(((line * n + d as usize - 1) as u32, g));
                        group_units.push([b, line]);
                        nodes.push(
                            super::digits_of(q).map(|i| self.units[b][i as usize - 1]),
                            d,
                        );
                    }
                }
            }
        }
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
            if m.count_ones() == 2 {
                let mut ds = super::digits_of(m);
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
                let count = p.count_ones() as usize;
                let node_at = |i: u8| of_cand[self.units[k][i as usize - 1] * n + d as usize - 1];
                if count == 2 {
                    let mut at = super::digits_of(p);
                    if let (Some(i), Some(j)) = (at.next(), at.next()) {
                        link(&mut strong, node_at(i) as usize, node_at(j) as usize);
                    }
                }
                let groups = in_unit(k, d);
                if count < 3 || groups.is_empty() {
                    continue;
                }
                // Nodes inside this unit on d (singles and groups); two
                // of them that share no cell and cover every place.
                inside.clear();
                inside.extend(super::digits_of(p).map(|i| node_at(i) as usize));
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
        // Weak links, node by node: one digit in cells that see each
        // other, two digits of one cell; a group's digit elsewhere in its
        // box and line (a cell seeing every cell of a group shares one of
        // them), and the groups of either that share none of its cells.
        let m = nodes.len();
        let mut weak = Adj::open(m, singles * 24);
        let mut groups: Vec<u32> = Vec::new();
        for a in 0..singles {
            let (c, d) = (nodes.cells(a)[0], nodes.digit(a));
            // In ascending order, each once: peers by cell (so by node),
            // groups (none is in two of the cell's units: a cell sharing
            // a group's box and line, holding its digit, is in it), and
            // the cell's other digits.
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
                super::digits_of(self.cands[c])
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
                    if h as usize != g && nodes.cells(h as usize).iter().all(|c| !cg.contains(c)) {
                        weak.list.push(h);
                    }
                }
            }
            weak.close(singles, false);
        }
        Graph {
            nodes,
            singles,
            grouped,
            of_cand,
            strong: Adj::new(m, singles, strong),
            weak,
        }
    }

    /// Candidates (outside both nodes) that a true `x` or a true `y`
    /// would strike: one of them holds, so these go.
    pub(super) fn struck_by_either(
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
    /// Starts on the digits of `skip` (bit `d - 1`) are left out (an
    /// X-chain keeps to its start's digit). `cut` is set when the search
    /// stopped before trying every start (the work cap, the deadline).
    fn search(&self, g: &Graph, kind: Kind, skip: u64, cut: &mut bool) -> Option<Found> {
        let m = g.nodes.len();
        let pair: Vec<bool> = (0..m)
            .map(|i| i < g.singles && self.cands[g.nodes.cells(i)[0]].count_ones() == 2)
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
                *cut = true;
                break;
            }
            if g.strong[x].is_empty()
                || !kind.allows(g, &pair, x, false, false)
                || skip & bit(g.nodes.digit(x)) != 0
            {
                continue;
            }
            if x % 32 == 0 && self.past_deadline() {
                *cut = true;
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
                for run in adj.runs(node, kind, !on) {
                    for &link in run {
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
                        if matches!(kind, Kind::X | Kind::Xy)
                            && g.nodes.digit(x) != g.nodes.digit(y as usize)
                        {
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
                        let nx = (g.nodes.cells(x), g.nodes.digit(x));
                        let ny = (g.nodes.cells(y as usize), g.nodes.digit(y as usize));
                        let struck = self.struck_by_either(nx, ny);
                        if struck.is_empty() {
                            continue;
                        }
                        best = Some((path_to(&parent, nl), struck));
                        break 'bfs;
                    }
                }
            }
        }
        best
    }

    /// One chain of this kind that strikes something: the shortest found.
    /// An X-chain keeps to one digit: the digits it found nothing on
    /// are noted ([`Board::digits_failed`]) and skipped while their places
    /// stay.
    pub(super) fn chain(&mut self, kind: Kind) -> bool {
        let n = self.side;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let skip = match kind {
            Kind::X => self.digits_to_skip(Technique::XChain),
            _ => 0,
        };
        if skip == all {
            return false;
        }
        let g = self.graph(kind == Kind::Grouped);
        let mut cut = false;
        let found = self.search(&g, kind, skip, &mut cut);
        if kind == Kind::X && found.is_none() && !cut {
            self.digits_failed(Technique::XChain, all & !skip);
        }
        let Some((path, struck)) = found else {
            return false;
        };
        let chain: Vec<ChainNode> = path
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
