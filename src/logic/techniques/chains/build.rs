//! The building of a position's link graph, kept per position and per
//! candidates ([`Chains::graph`]), and what two ends of a chain strike.

use std::sync::Arc;

use super::Chains;
use super::{Adj, Fold, Graph, Nodes, IN_CELL};
use crate::logic::memo::Run;
use crate::logic::{bit, Board};

impl Board {
    /// The graph [`Chains::graph`] keeps; `folded`: with a [`Fold`] on a
    /// grid of up to 128 cells (else every weak link listed).
    pub(in crate::logic) fn build_graph(&self, grouped: bool, folded: bool) -> Graph {
        let table = self.table();
        let places = &table.places;
        let (parts, mut fold) = self.graph_nodes(places, grouped, folded);
        let strong = self.graph_strong_links(places, &parts);
        // Weak links, node by node: one digit in cells that see each
        // other, two digits of one cell; a group's digit elsewhere in its
        // box and line (a cell seeing every cell of a group shares one of
        // them), and the groups of either that share none of its cells.
        let (m, singles) = (parts.nodes.len(), parts.singles);
        let mut weak = Adj::open(m, singles * 24);
        match &mut fold {
            Some(f) => self.folded_weak_links(&parts, f, &mut weak),
            None => self.listed_weak_links(&parts, &mut weak),
        }
        let Parts { nodes, of_cand, .. } = parts;
        Graph {
            side: self.side,
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

    /// The nodes of [`Board::build_graph`], the groups of each unit and
    /// digit, and the [`Fold`] when `folded` on a grid of up to 128 cells.
    fn graph_nodes(&self, places: &[u64], grouped: bool, folded: bool) -> (Parts, Option<Fold>) {
        let n = self.side;
        let units = self.units.len();
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
        let fold = (folded && n * n <= 128).then(|| {
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
        let (unit_cells, digit_cells) = match &fold {
            Some(f) => (
                self.units
                    .iter()
                    .map(|cells| cells.iter().fold(0u128, |a, &c| a | 1 << c))
                    .collect(),
                f.places.clone(),
            ),
            None => (Vec::new(), Vec::new()),
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
        let parts = Parts {
            side: n,
            nodes,
            of_cand,
            singles,
            group_units,
            in_unit_at,
            in_unit_list,
            group_cells,
            unit_cells,
            digit_cells,
        };
        (parts, fold)
    }

    /// The strong links of [`Board::build_graph`]: in pair cells, in units
    /// (with groups too).
    fn graph_strong_links(&self, places: &[u64], p: &Parts) -> Vec<(u32, u32)> {
        let (n, units) = (p.side, self.units.len());
        let (nodes, of_cand, singles) = (&p.nodes, &p.of_cand, p.singles);
        let (group_units, group_cells) = (&p.group_units, &p.group_cells);
        let in_unit = |k: usize, d: u8| p.in_unit(k, d);
        // A digit's places in a unit, as a bit set (on a folded graph).
        let unit_places = |k: usize, d: u8| p.digit_cells[d as usize - 1] & p.unit_cells[k];
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
        strong
    }

    /// The weak links of [`Board::build_graph`] on a folded graph.
    fn folded_weak_links(&self, p: &Parts, f: &mut Fold, weak: &mut Adj) {
        let (n, m, singles) = (p.side, p.nodes.len(), p.singles);
        let (nodes, of_cand) = (&p.nodes, &p.of_cand);
        let (group_units, group_cells) = (&p.group_units, &p.group_cells);
        let in_unit = |k: usize, d: u8| p.in_unit(k, d);
        // Only the links to groups are listed: each group's singles
        // are its digit's places in its box and line, outside it, and
        // each single's groups are the groups holding it there, met
        // in ascending order.
        let mask = |k: usize| p.unit_cells[k];
        f.group_reach = (singles..m)
            .map(|g| {
                let [b, l] = group_units[g - singles];
                (mask(b) | mask(l)) & !group_cells[g - singles]
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
    }

    /// The weak links of [`Board::build_graph`], every one listed.
    fn listed_weak_links(&self, p: &Parts, weak: &mut Adj) {
        let (n, m, singles) = (p.side, p.nodes.len(), p.singles);
        let (nodes, of_cand, group_units) = (&p.nodes, &p.of_cand, &p.group_units);
        let in_unit = |k: usize, d: u8| p.in_unit(k, d);
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
                    if h as usize != g && nodes.cells(h as usize).iter().all(|c| !cg.contains(c)) {
                        weak.list.push(h);
                    }
                }
            }
            weak.close(singles, false);
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
}

impl Chains {
    /// The link graph of the position, built once per position: every
    /// node and link, grouped ones too when `grouped` (only grouped AICs
    /// use them: the others, and forcing chains, keep to single nodes,
    /// which come first and are numbered alike either way); each kind of
    /// chain keeps to its own ([`Kind::allows`](super::Kind::allows)).
    pub(in crate::logic) fn graph(
        &mut self,
        board: &Board,
        run: &mut Run,
        grouped: bool,
    ) -> Arc<Graph> {
        let at = board.steps.len();
        let fits = |g: &Graph| g.grouped || !grouped;
        if let Some((s, g)) = &self.graph {
            if *s == at && fits(g) {
                return Arc::clone(g);
            }
        }
        let known = run.known_graph(board).filter(|g| fits(g));
        let g = match known {
            Some(g) => Arc::clone(g),
            None => {
                let g = Arc::new(board.build_graph(grouped, true));
                run.keep_graph(board, &g);
                g
            }
        };
        self.graph = Some((at, Arc::clone(&g)));
        g
    }
}

/// What [`Board::build_graph`] makes before the links.
struct Parts {
    /// The grid's side.
    side: usize,
    /// The nodes: single cells first, then groups.
    nodes: Nodes,
    /// The single node of each candidate, `u32::MAX` where none.
    of_cand: Vec<u32>,
    /// How many nodes are single cells.
    singles: usize,
    /// Each group's box and line.
    group_units: Vec<[usize; 2]>,
    /// Where the groups of each unit and digit (`unit * side + digit - 1`)
    /// start in `in_unit_list`.
    in_unit_at: Vec<u32>,
    /// The groups of each unit and digit, one after another.
    in_unit_list: Vec<u32>,
    /// On a folded graph, each group's cells as a bit set.
    group_cells: Vec<u128>,
    /// On a folded graph, each unit's cells as a bit set.
    unit_cells: Vec<u128>,
    /// On a folded graph, each digit's places (`d - 1`) as a bit set.
    digit_cells: Vec<u128>,
}

impl Parts {
    /// The groups of digit `d` in unit `k`.
    fn in_unit(&self, k: usize, d: u8) -> &[u32] {
        let i = k * self.side + d as usize - 1;
        &self.in_unit_list[self.in_unit_at[i] as usize..self.in_unit_at[i + 1] as usize]
    }
}
