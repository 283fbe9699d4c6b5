//! The breadth-first chain search from one start after another, and the
//! step it makes ([`Chains::chain`]).

use super::Chains;
use super::{
    better, path_to, useful_starts, Fold, Found, Graph, Kind, IN_CELL, MAX_NODES, MAX_WORK,
};
use crate::logic::memo::Run;
use crate::logic::{bit, Board, Cells, ChainNode, Digits, Step, Technique};

impl Chains {
    /// The breadth-first search of [`Chains::chain`] over the chains `kind`
    /// allows: the shortest chain that strikes something (for X- and
    /// XY-chains in HoDoKu's run, the one that strikes the most).
    /// Starts on the digits of `skip` (bit `d - 1`) are left out (an
    /// X-chain keeps to its start's digit). `cut` is set when the search
    /// stopped before trying every start (the work cap, the deadline).
    /// AICs start only where [`useful_starts`] allows.
    pub(super) fn search(
        &self,
        board: &Board,
        run: &Run,
        g: &Graph,
        kind: Kind,
        skip: u64,
        cut: &mut bool,
    ) -> Option<Found> {
        let most = run.pick == crate::logic::Pick::Hodoku && matches!(kind, Kind::X | Kind::Xy);
        // (X-chains are told apart by digit first, `x_chain_digits`: the
        // search in bits gains nothing on them.)
        if kind != Kind::X {
            if let Some(found) = self.search_in_bits(board, run, g, kind, skip, cut, most) {
                return found;
            }
        }
        let useful = matches!(kind, Kind::Aic | Kind::Grouped).then(|| useful_starts(g, kind));
        if useful.as_ref().is_some_and(|u| u.iter().all(|&w| w == 0)) {
            return None;
        }
        self.search_from(
            board,
            run,
            g,
            kind,
            skip,
            useful.as_deref(),
            cut,
            most,
            MAX_NODES,
        )
    }

    /// [`Chains::search`] from the starts in `useful` (a bit set over the
    /// nodes; every start when `None`). With `most`, the chain HoDoKu
    /// takes instead of the shortest: every start is searched to the end
    /// and the chain that strikes the most candidates wins ([`better`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_from(
        &self,
        board: &Board,
        run: &Run,
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
                .map(|i| i < g.singles && board.cands[g.nodes.cells(i)[0]].count_ones() == 2)
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
        let n = g.side;
        let mut walk = Walk {
            parent: vec![u32::MAX; 2 * m],
            seen_at: vec![u32::MAX; 2 * m],
            queue: Vec::new(),
            seen_off: vec![0u128; if g.fold.is_some() { n } else { 0 }],
        };
        let mut work = 0usize;
        for x in 0..m {
            if work > MAX_WORK {
                *cut = true;
                break;
            }
            if g.strong[x].is_empty()
                || useful.is_some_and(|u| !u.has(x))
                || !kind.allows(g, &pair, x, false, false)
                || skip & bit(g.nodes.digit(x)) != 0
            {
                continue;
            }
            if x % 32 == 0 && run.past_deadline() {
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
            walk.start(g, x);
            let mut head = 0;
            'bfs: while head < walk.queue.len() {
                let (lit, len) = walk.queue[head];
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
                    // node.
                    work += g.weak_len(node);
                    walk.folded_weak(g, f, kind, x, lit, len);
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
                    if walk.seen_at[nl as usize] == x as u32 {
                        continue;
                    }
                    walk.seen_at[nl as usize] = x as u32;
                    walk.parent[nl as usize] = lit;
                    walk.queue.push((nl, len + 1));
                    if on {
                        if let (Some(_), true) = (&g.fold, (y as usize) < g.singles) {
                            let (c, e) = (g.nodes.cells(y as usize)[0], g.nodes.digit(y as usize));
                            walk.seen_off[e as usize - 1] |= 1 << c;
                        }
                        continue;
                    }
                    if len + 1 < 4 {
                        continue;
                    }
                    // Reached "y is true" from "x is false".
                    let Some(struck) = self.struck_at_end(board, g, kind, &mark, x, y as usize)
                    else {
                        continue;
                    };
                    if most {
                        let path = path_to(&walk.parent, nl);
                        if best
                            .as_ref()
                            .is_none_or(|b| better((&path, &struck), (&b.0, &b.1)))
                        {
                            best = Some((path, struck));
                        }
                        continue;
                    }
                    best = Some((path_to(&walk.parent, nl), struck));
                    break 'bfs;
                }
            }
        }
        best
    }

    /// What a chain from "`x` false" to "`y` true" strikes, or `None`: on
    /// different digits for an X- or XY-chain, or single ends with no
    /// candidate weakly linked to both (`mark`: the weak links of `x`, on
    /// a graph that lists them).
    fn struck_at_end(
        &self,
        board: &Board,
        g: &Graph,
        kind: Kind,
        mark: &[u32],
        x: usize,
        y: usize,
    ) -> Option<Vec<(usize, u8)>> {
        if matches!(kind, Kind::X | Kind::Xy) && g.nodes.digit(x) != g.nodes.digit(y) {
            return None;
        }
        if x < g.singles
            && y < g.singles
            && !match g.fold {
                Some(_) => g.share_weak(x, y, &board.cands),
                None => g.weak[y].iter().any(|&w| {
                    let w = (w & !IN_CELL) as usize;
                    w < g.singles && mark[w] == x as u32
                }),
            }
        {
            return None;
        }
        let nx = (g.nodes.cells(x), g.nodes.digit(x));
        let ny = (g.nodes.cells(y), g.nodes.digit(y));
        let struck = board.struck_by_either(nx, ny);
        (!struck.is_empty()).then_some(struck)
    }

    /// One chain of this kind that strikes something: the shortest found,
    /// or HoDoKu's choice of X- and XY-chains ([`Chains::search`]).
    /// An X-chain keeps to one digit: the digits it found nothing on
    /// are noted ([`Run::digits_failed`]) and skipped while their places
    /// stay.
    pub(in crate::logic) fn chain(&mut self, board: &mut Board, run: &mut Run, kind: Kind) -> bool {
        let n = board.side;
        let all = Digits::all(n);
        let skip = match kind {
            Kind::X => {
                let skip = run.digits_to_skip(board, Technique::XChain);
                // The digits without a chain that strikes are noted and
                // left out at once, found so from bit sets.
                let none = all & !skip & !self.x_chain_digits(board, skip);
                run.digits_failed(board, Technique::XChain, none);
                skip | none
            }
            _ => Digits::EMPTY,
        };
        if skip == all || (kind == Kind::Xy && self.xy_chains_in_vain(board, run)) {
            return false;
        }
        let mut cut = false;
        // AICs and XY-chains between single cells are found without the
        // graph where the grid is small (`in_cells.rs`).
        let found = match self.chain_in_cells(board, run, kind, &mut cut) {
            Some(found) => found,
            None => {
                let g = self.graph(board, run, kind == Kind::Grouped);
                self.search(board, run, &g, kind, skip.bits(), &mut cut)
                    .map(|(path, struck)| {
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
            run.digits_failed(board, Technique::XChain, all & !skip);
        }
        if kind == Kind::Xy && found.is_none() && !cut {
            match &mut self.xy_vain {
                Some(then) => then.clone_from(&board.cands),
                None => self.xy_vain = Some(board.cands.clone()),
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
        board.apply(Step {
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

/// One breadth-first search's literals (`2 * node + on`).
struct Walk {
    /// The parent literal of each reached literal (`u32::MAX` at the start).
    parent: Vec<u32>,
    /// The start each literal was last reached from.
    seen_at: Vec<u32>,
    /// The literals reached, with their chain's length, in order.
    queue: Vec<(u32, u16)>,
    /// On a folded graph: the cells whose node on each digit is reached
    /// "false" from the current start.
    seen_off: Vec<u128>,
}

impl Walk {
    /// Starts a walk from "node `x` is false": the queue holds that
    /// literal alone, reached from `x`.
    fn start(&mut self, g: &Graph, x: usize) {
        let start = 2 * x as u32;
        self.queue.clear();
        self.queue.push((start, 1));
        self.seen_at[start as usize] = x as u32;
        self.parent[start as usize] = u32::MAX;
        self.seen_off.fill(0);
        if x < g.singles && g.fold.is_some() {
            let d = g.nodes.digit(x) as usize - 1;
            self.seen_off[d] |= 1 << g.nodes.cells(x)[0];
        }
    }

    /// On a folded graph, from literal `lit` ("`node` true", at length
    /// `len` from start `x`), pushes the "false" literals its weak links
    /// lead to: the digit's places near the node first, then its groups
    /// and the other digits of its cell.
    fn folded_weak(&mut self, g: &Graph, f: &Fold, kind: Kind, x: usize, lit: u32, len: u16) {
        let node = (lit / 2) as usize;
        let single = node < g.singles;
        let (c, d) = (g.nodes.cells(node)[0], g.nodes.digit(node) as usize - 1);
        let near = if single {
            f.peers[c]
        } else {
            f.group_reach[node - g.singles]
        };
        let mut bits = f.places[d] & near & !self.seen_off[d];
        if kind == Kind::Xy {
            bits &= f.pairs;
        }
        self.seen_off[d] |= bits;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let nl = 2 * g.of_cand[p * g.side + d];
            self.seen_at[nl as usize] = x as u32;
            self.parent[nl as usize] = lit;
            self.queue.push((nl, len + 1));
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
            if y as usize == node || self.seen_at[nl as usize] == x as u32 {
                continue;
            }
            self.seen_at[nl as usize] = x as u32;
            if (y as usize) < g.singles {
                let e = g.nodes.digit(y as usize) as usize - 1;
                self.seen_off[e] |= 1 << c;
            }
            self.parent[nl as usize] = lit;
            self.queue.push((nl, len + 1));
        }
    }
}
