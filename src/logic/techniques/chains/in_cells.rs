//! AICs and XY-chains between single cells on grids of up to 128 cells,
//! searched on the candidates' bit sets, without a link graph.
//!
//! A node is a candidate (`cell * side + digit - 1`); its links are read
//! from each digit's places, each cell's peers and the pair cells. The
//! search is [`Chains::search_in_bits`]'s (every start at once, then the
//! chain from one start), and the search from one start follows the
//! links in the order the graph lists them, so the chain found is the
//! one [`Chains::search_from`] finds on the position's graph: only the
//! graph's building is saved. (Grouped AICs, X-chains and forcing chains
//! still read the graph.)

use super::Chains;
use super::{better, path_to, share_weak, shares, spread, Kind, Set, StrongNodes, Wide, MAX_NODES};
use crate::logic::memo::Run;
use crate::logic::{Board, ChainNode};

/// A chain found: its literals (`2 * candidate + on`) and what it strikes.
type Found = (Vec<u32>, Vec<(usize, u8)>);

/// A chain made: its nodes, first to last, and what it strikes.
type Chain = (Vec<ChainNode>, Vec<(usize, u8)>);

/// The candidates of a position in bit sets over the cells.
struct Cells {
    side: usize,
    /// Each digit's places (`d - 1`).
    places: Vec<u128>,
    /// Each cell's peers.
    peers: Vec<u128>,
    /// The cells holding two candidates.
    pairs: u128,
    /// Each candidate's partners by a strong link in a unit: the other
    /// place of its digit in a unit where it has two.
    conj: Vec<u128>,
}

impl Board {
    /// Cell `c`'s peers as a bit set, on grids of up to 128 cells.
    #[inline]
    pub(super) fn peer_bits(&self, c: usize) -> u128 {
        let words = (self.side * self.side).div_ceil(64);
        let w = &self.peer_sets[c * words..(c + 1) * words];
        u128::from(w[0]) | w.get(1).map_or(0, |&h| u128::from(h) << 64)
    }

    /// The candidates in bit sets, on grids of up to 128 cells.
    fn cells(&self) -> Option<Cells> {
        let n = self.side;
        let cells = n * n;
        if cells > 128 {
            return None;
        }
        let peers = (0..cells).map(|c| self.peer_bits(c)).collect();
        let table = self.table();
        let mut places = vec![0u128; n];
        let mut conj = vec![0u128; cells * n];
        for k in 0..3 * n {
            for (di, place) in places.iter_mut().enumerate() {
                let p = table.places[k * n + di];
                if k < n {
                    // Rows come first, their cells in order.
                    *place |= u128::from(p) << (k * n);
                }
                if crate::logic::two_bits(p) {
                    let a = self.units[k][p.trailing_zeros() as usize];
                    let b = self.units[k][63 - p.leading_zeros() as usize];
                    conj[a * n + di] |= 1 << b;
                    conj[b * n + di] |= 1 << a;
                }
            }
        }
        let pairs = self
            .cands
            .iter()
            .enumerate()
            .filter(|&(_, &m)| crate::logic::two_bits(m))
            .fold(0u128, |a, (c, _)| a | 1 << c);
        Some(Cells {
            side: n,
            places,
            peers,
            pairs,
            conj,
        })
    }
}

impl Chains {
    /// [`Chains::chain`]'s search for an AIC (`Kind::Aic`) or an XY-chain
    /// without the link graph: the chain (its nodes, first to last) and
    /// what it strikes. `None` when the grid has more than 128 cells or
    /// more than 256 candidates have strong links, or for other kinds.
    pub(super) fn chain_in_cells(
        &self,
        board: &Board,
        run: &Run,
        kind: Kind,
        cut: &mut bool,
    ) -> Option<Option<Chain>> {
        if !matches!(kind, Kind::Aic | Kind::Xy) {
            return None;
        }
        let c = board.cells()?;
        let n = c.side;
        const NONE: u32 = u32::MAX;
        // The candidates with strong links, in order.
        let mut id = vec![NONE; n * n * n];
        let mut nodes = Vec::new();
        for (cell, &m) in board.cands.iter().enumerate() {
            let pair = c.pairs & (1 << cell) != 0;
            for d in crate::logic::digits_of(m) {
                let x = cell * n + d as usize - 1;
                if pair || (kind == Kind::Aic && c.conj[x] != 0) {
                    id[x] = nodes.len() as u32;
                    nodes.push(x);
                }
            }
        }
        let found = match nodes.len() {
            0..=128 => self.chain_among::<u128>(board, run, &c, kind, &id, nodes, cut),
            129..=256 => self.chain_among::<Wide>(board, run, &c, kind, &id, nodes, cut),
            _ => return None,
        };
        Some(found.map(|(path, struck)| {
            let chain = path
                .iter()
                .map(|&lit| {
                    let x = (lit / 2) as usize;
                    ChainNode {
                        cells: vec![x / n],
                        digit: (x % n) as u8 + 1,
                        on: lit % 2 == 1,
                    }
                })
                .collect();
            (chain, struck)
        }))
    }

    /// [`Chains::chain_in_cells`] over the candidates with strong links
    /// `nodes` (numbered by `id`).
    #[allow(clippy::too_many_arguments)]
    fn chain_among<S: Set>(
        &self,
        board: &Board,
        run: &Run,
        c: &Cells,
        kind: Kind,
        id: &[u32],
        nodes: Vec<usize>,
        cut: &mut bool,
    ) -> Option<Found> {
        let s = strong_nodes::<S>(board, c, kind, id, nodes);
        let most = run.pick == crate::logic::Pick::Hodoku && kind == Kind::Xy;
        // Made only when some start may strike (most searches end in
        // `spread`).
        let mut search: Option<Search> = None;
        if most {
            let mut any = S::default();
            spread(
                &s,
                |_| true,
                |_, hits| {
                    any = any | hits;
                    false
                },
            );
            let mut best = None;
            while let Some(i) = any.pop_first() {
                if run.past_deadline() {
                    *cut = true;
                    break;
                }
                search
                    .get_or_insert_with(|| Search::new(c, kind))
                    .from(board, s.nodes[i], MAX_NODES, true, &mut best);
            }
            return best;
        }
        let mut best = None;
        spread(
            &s,
            |_| true,
            |len, mut hits| {
                while let Some(i) = hits.pop_first() {
                    if run.past_deadline() {
                        *cut = true;
                        return true;
                    }
                    let search = search.get_or_insert_with(|| Search::new(c, kind));
                    if search.from(board, s.nodes[i], len, false, &mut best) {
                        return true;
                    }
                }
                false
            },
        );
        best
    }
}

/// The candidates with strong links `nodes` and their links, as
/// [`StrongNodes::of`] reads them off a graph.
fn strong_nodes<S: Set>(
    b: &Board,
    c: &Cells,
    kind: Kind,
    id: &[u32],
    nodes: Vec<usize>,
) -> StrongNodes<S> {
    const NONE: u32 = u32::MAX;
    let n = c.side;
    let count = nodes.len();
    let mut partners = vec![S::default(); count];
    let mut sees = vec![S::default(); count];
    // The strong nodes seeing each candidate, and the candidates each
    // strong node sees (`seen[seen_at[i]..seen_at[i + 1]]`).
    let mut seen_by = vec![S::default(); n * n * n];
    let mut seen: Vec<u32> = Vec::with_capacity(16 * count);
    let mut seen_at = Vec::with_capacity(count + 1);
    seen_at.push(0);
    for (i, &x) in nodes.iter().enumerate() {
        let (cell, di) = (x / n, x % n);
        let add = |s: &mut S, j: usize| {
            if id[j] != NONE {
                s.insert(id[j] as usize);
            }
        };
        let pair = c.pairs & (1 << cell) != 0;
        if kind == Kind::Aic {
            let mut p = c.conj[x];
            while p != 0 {
                add(&mut partners[i], p.trailing_zeros() as usize * n + di);
                p &= p - 1;
            }
        }
        if pair {
            let other = b.cands[cell] & !(1 << di);
            add(&mut partners[i], cell * n + other.trailing_zeros() as usize);
        }
        // Weak links: the digit in the cell's peers (between pair cells
        // for an XY-chain, which strikes in any of them), and for an AIC
        // the cell's other digits.
        let mut p = c.places[di] & c.peers[cell];
        while p != 0 {
            let q = p.trailing_zeros() as usize;
            p &= p - 1;
            let z = q * n + di;
            if kind == Kind::Aic || c.pairs & (1 << q) != 0 {
                add(&mut sees[i], z);
            }
            seen_by[z].insert(i);
            seen.push(z as u32);
        }
        if kind == Kind::Aic {
            let mut others = b.cands[cell] & !(1 << di);
            while others != 0 {
                let z = cell * n + others.trailing_zeros() as usize;
                others &= others - 1;
                add(&mut sees[i], z);
                seen_by[z].insert(i);
                seen.push(z as u32);
            }
        }
        seen_at.push(seen.len());
    }
    StrongNodes {
        share: shares(&seen_by, &seen, &seen_at),
        nodes,
        partners,
        sees,
    }
}

/// The breadth-first search from one start, with its buffers.
struct Search<'a> {
    c: &'a Cells,
    kind: Kind,
    /// The literal each reached literal was reached from.
    parent: Vec<u32>,
    queue: Vec<(u32, u16)>,
    /// The cells of each digit reached "false", and "true".
    seen_off: Vec<u128>,
    seen_on: Vec<u128>,
}

impl<'a> Search<'a> {
    fn new(c: &'a Cells, kind: Kind) -> Search<'a> {
        let n = c.side;
        Search {
            c,
            kind,
            parent: vec![u32::MAX; 2 * n * n * n],
            queue: Vec::new(),
            seen_off: vec![0; n],
            seen_on: vec![0; n],
        }
    }

    /// The search of [`Chains::search_from`] from candidate `x`, for chains
    /// of at most `cap` literals: the first chain that strikes (true), or
    /// with `most` every one, the best kept in `best` as HoDoKu sorts
    /// them ([`better`]).
    fn from(
        &mut self,
        b: &Board,
        x: usize,
        cap: usize,
        most: bool,
        best: &mut Option<Found>,
    ) -> bool {
        let (c, kind) = (self.c, self.kind);
        let n = c.side;
        let limit = match &*best {
            Some(f) if !most => f.0.len() - 1,
            _ => cap,
        };
        if limit < 4 {
            return false;
        }
        let (cx, dx) = (x / n, (x % n) as u8 + 1);
        let start = 2 * x as u32;
        self.queue.clear();
        self.queue.push((start, 1));
        self.parent[start as usize] = u32::MAX;
        self.seen_off.fill(0);
        self.seen_on.fill(0);
        self.seen_off[x % n] |= 1 << cx;
        let mut head = 0;
        while head < self.queue.len() {
            let (lit, len) = self.queue[head];
            head += 1;
            if len as usize >= limit {
                continue;
            }
            let node = (lit / 2) as usize;
            let (cell, di) = (node / n, node % n);
            if lit % 2 == 1 {
                if len as usize + 1 >= limit {
                    continue;
                }
                // Weak links: the digit's places seeing the cell first,
                // then the cell's other digits.
                let mut bits = c.places[di] & c.peers[cell] & !self.seen_off[di];
                if kind == Kind::Xy {
                    bits &= c.pairs;
                }
                self.seen_off[di] |= bits;
                while bits != 0 {
                    let p = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let nl = 2 * (p * n + di) as u32;
                    self.parent[nl as usize] = lit;
                    self.queue.push((nl, len + 1));
                }
                if kind == Kind::Aic {
                    let mut others = b.cands[cell] & !(1 << di);
                    while others != 0 {
                        let e = others.trailing_zeros() as usize;
                        others &= others - 1;
                        if self.seen_off[e] & (1 << cell) != 0 {
                            continue;
                        }
                        self.seen_off[e] |= 1 << cell;
                        let nl = 2 * (cell * n + e) as u32;
                        self.parent[nl as usize] = lit;
                        self.queue.push((nl, len + 1));
                    }
                }
                continue;
            }
            // Strong links, in the graph's order: the digit's other place
            // in a unit (by cell), then the cell's other digit.
            let conj = if kind == Kind::Aic { c.conj[node] } else { 0 };
            let pair = c.pairs & (1 << cell) != 0;
            let partner = pair.then(|| (b.cands[cell] & !(1 << di)).trailing_zeros() as usize);
            let mut ends = conj;
            let mut next = || {
                if ends != 0 {
                    let p = ends.trailing_zeros() as usize;
                    ends &= ends - 1;
                    return Some((p, di));
                }
                None
            };
            let mut in_cell = partner.map(|e| (cell, e));
            while let Some((cy, ey)) = next().or_else(|| in_cell.take()) {
                if self.seen_on[ey] & (1 << cy) != 0 {
                    continue;
                }
                self.seen_on[ey] |= 1 << cy;
                let nl = 2 * (cy * n + ey) as u32 + 1;
                self.parent[nl as usize] = lit;
                self.queue.push((nl, len + 1));
                if len + 1 < 4 {
                    continue;
                }
                let dy = ey as u8 + 1;
                if kind == Kind::Xy && dy != dx {
                    continue;
                }
                if !share_weak(&c.places, &c.peers, &b.cands, (cx, dx), (cy, dy)) {
                    continue;
                }
                let struck = b.struck_by_either((&[cx], dx), (&[cy], dy));
                if struck.is_empty() {
                    continue;
                }
                let path = path_to(&self.parent, nl);
                if most {
                    if best
                        .as_ref()
                        .is_none_or(|f| better((&path, &struck), (&f.0, &f.1)))
                    {
                        *best = Some((path, struck));
                    }
                    continue;
                }
                *best = Some((path, struck));
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Kind, MAX_NODES};
    use crate::logic::tests::each_hard_position;
    use crate::logic::Pick;

    #[test]
    fn chains_in_cells_are_the_graphs() {
        // Along the ladder on hard puzzles, the AIC and the XY-chain found
        // without the graph are those the graph's search from every start
        // finds, for both runs' choices; chains were found, or this
        // proves nothing.
        let mut found = 0;
        each_hard_position(8, |b| {
            let g = b.build_graph(false, false);
            for kind in [Kind::Aic, Kind::Xy] {
                for pick in [Pick::Hodoku, Pick::Easiest] {
                    let mut b = b.clone();
                    b.run.pick = pick;
                    let (c, board, run) = (&b.families.chains, &b.board, &b.run);
                    let most = pick == Pick::Hodoku && kind == Kind::Xy;
                    let mut cut = false;
                    let every =
                        c.search_from(board, run, &g, kind, 0, None, &mut cut, most, MAX_NODES);
                    let every = every.map(|(path, struck)| {
                        let nodes: Vec<(usize, u8, bool)> = path
                            .iter()
                            .map(|&l| {
                                let i = (l / 2) as usize;
                                (g.nodes.cells(i)[0], g.nodes.digit(i), l % 2 == 1)
                            })
                            .collect();
                        (nodes, struck)
                    });
                    let cells = c.chain_in_cells(board, run, kind, &mut cut).unwrap();
                    let cells = cells.map(|(chain, struck)| {
                        let nodes: Vec<(usize, u8, bool)> =
                            chain.iter().map(|c| (c.cells[0], c.digit, c.on)).collect();
                        (nodes, struck)
                    });
                    assert!(!cut);
                    assert_eq!(cells, every, "{kind:?} {pick:?}");
                    found += usize::from(every.is_some());
                }
            }
        });
        assert!(found > 40, "{found}");
    }
}
