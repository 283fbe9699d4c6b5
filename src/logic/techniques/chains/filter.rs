//! The pre-filters that spare most chain searches: which starts may lead
//! to a strike at all (AICs, [`useful_starts`]), which digits may hold an
//! X-chain ([`Chains::x_chain_digits`]), and whether an XY-chain search
//! would find what the last one did.

use super::Chains;
use super::{Graph, Kind, IN_CELL};
use crate::logic::memo::Run;
use crate::logic::{Board, Cells, Digits};

/// What each vertex of a graph leads to, as a bit set of marks: the
/// strongly connected parts of the graph (Tarjan's algorithm), each
/// part's set made from its own vertices' marks and the sets of the parts
/// it leads to, which Tarjan's algorithm completes first.
#[derive(Debug)]
pub(in crate::logic) struct Leads {
    /// Each vertex's part (`u32::MAX` when not visited).
    comp: Vec<u32>,
    /// Each part's set, `words` words.
    pub(super) sets: Vec<u64>,
    pub(super) words: usize,
}

impl Leads {
    /// Vertex `v`'s successors are `next[at[v]..at[v + 1]]`; the search
    /// starts from `roots` (and visits what they lead to); `mark(v)` is
    /// the bit, below `64 * words`, vertex `v` sets in what leads to it.
    pub(super) fn new(
        at: &[u32],
        next: &[u32],
        words: usize,
        roots: impl Iterator<Item = usize>,
        mark: impl Fn(usize) -> Option<usize>,
    ) -> Leads {
        // Sets of a fixed number of words where it is known (the unions
        // of sets, one per link, are most of the work).
        // (A graph's closure has two words per 64 single nodes: up to 8
        // for the 150 to 256 candidates of most positions forcing chains
        // are tried in.)
        match words {
            1 => Leads::build::<1>(at, next, words, roots, mark),
            2 => Leads::build::<2>(at, next, words, roots, mark),
            3 => Leads::build::<3>(at, next, words, roots, mark),
            4 => Leads::build::<4>(at, next, words, roots, mark),
            6 => Leads::build::<6>(at, next, words, roots, mark),
            8 => Leads::build::<8>(at, next, words, roots, mark),
            _ => Leads::build::<0>(at, next, words, roots, mark),
        }
    }

    /// [`Leads::new`] with sets of `W` words (`words` when `W` is 0).
    pub(super) fn build<const W: usize>(
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
        // Room for a part per vertex, up to a bound (the parts are fewer
        // than the vertices; growing the sets was a fifth of the work).
        let mut sets: Vec<u64> = Vec::with_capacity((vertices * words).min(1 << 16));
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
pub(super) fn useful_starts(g: &Graph, kind: Kind) -> Vec<u64> {
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
                ends.put(i as usize);
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
                    useful.put(x);
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
        if ends.iter().any(|&y| to.has(y as usize)) {
            for &x in &ends {
                let x = strong[x as usize];
                useful.put(x);
            }
        }
    }
}

impl Chains {
    /// The digits (of those not in `skip`) on which an
    /// X-chain may strike something, read from bit sets on grids of up to
    /// 128 cells (every digit not skipped on larger ones): from each place
    /// `x` with a strong link, the places a chain from "`x` false" makes
    /// true, of any length; a chain strikes only a place seeing `x` and
    /// one of them. A search on any other digit finds nothing.
    pub(super) fn x_chain_digits(&self, board: &Board, skip: Digits) -> Digits {
        let n = board.side;
        let all = Digits::all(n);
        let cells = n * n;
        if cells > 128 || skip == all {
            return all & !skip;
        }
        let peer = |c: usize| board.peer_bits(c);
        let table = board.table();
        let mut conj = [0u128; 128];
        let mut out = Digits::EMPTY;
        for d in (all & !skip).iter() {
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
                    let a = board.units[k][pl.trailing_zeros() as usize];
                    let b = board.units[k][63 - pl.leading_zeros() as usize];
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
                        out.insert(d);
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
    pub(in crate::logic) fn xy_chains_in_vain(&self, board: &Board, run: &Run) -> bool {
        if run.notes_off() {
            return false;
        }
        let Some(then) = &self.xy_vain else {
            return false;
        };
        then.len() == board.cands.len()
            && board
                .cands
                .iter()
                .zip(then)
                .all(|(&now, &was)| now & !was == 0 && (now == was || now.count_ones() != 2))
    }
}
