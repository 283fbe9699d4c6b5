//! Following a premise to its consequences: along the links of the
//! position's graph (a chain), or by placing and striking (a net).

use super::Forcing;
use super::{led, Fact, Net, Reach};
use crate::logic::techniques::chains::Graph;
use crate::logic::{bit, Board, Cells, ChainNode};

impl Forcing {
    /// Follows a premise through the net (singles everywhere), stopping
    /// early once `until` holds.
    pub(super) fn net(&self, board: &Board, premise: Fact, until: Option<Fact>) -> Net {
        let mut s = Net::EMPTY;
        self.net_into(board, premise, until, &mut s, &mut Vec::new());
        s
    }

    /// [`Forcing::net`] into `s` and with `queue` (their space reused).
    pub(super) fn net_into(
        &self,
        board: &Board,
        premise: Fact,
        until: Option<Fact>,
        s: &mut Net,
        queue: &mut Vec<(usize, u8)>,
    ) {
        let n = board.side;
        let all = crate::logic::all_digits(n);
        s.cands.clear();
        s.cands.extend_from_slice(&board.cands);
        s.vals.clear();
        s.vals.extend_from_slice(board.grid.cells());
        s.placed.clear();
        s.contradiction = false;
        s.dirty.clear();
        s.dirty.resize(board.units.len(), true);
        queue.clear();
        if premise.on {
            queue.push((premise.cell, premise.digit));
        } else {
            let m = s.cands[premise.cell] & !bit(premise.digit);
            s.cands[premise.cell] = m;
            if m == 0 {
                s.contradiction = true;
                return;
            }
            if m & (m - 1) == 0 {
                queue.push((premise.cell, m.trailing_zeros() as u8 + 1));
            }
        }
        loop {
            while let Some((c, d)) = queue.pop() {
                if s.vals[c] != 0 {
                    if s.vals[c] != d {
                        s.contradiction = true;
                        return;
                    }
                    continue;
                }
                if s.cands[c] & bit(d) == 0 {
                    s.contradiction = true;
                    return;
                }
                s.vals[c] = d;
                s.cands[c] = 0;
                s.placed.push((c, d));
                for &u in &board.cell_units[c] {
                    s.dirty[u] = true;
                }
                for &p in &board.peers[c] {
                    if s.cands[p] & bit(d) != 0 {
                        let m = s.cands[p] & !bit(d);
                        s.cands[p] = m;
                        for &u in &board.cell_units[p] {
                            s.dirty[u] = true;
                        }
                        if m == 0 {
                            s.contradiction = true;
                            return;
                        }
                        if m & (m - 1) == 0 {
                            queue.push((p, m.trailing_zeros() as u8 + 1));
                        }
                    }
                }
                if until.is_some_and(|f| s.holds(f)) {
                    return;
                }
            }
            for (k, cells) in board.units.iter().enumerate() {
                if !std::mem::take(&mut s.dirty[k]) {
                    continue;
                }
                let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
                for &c in cells {
                    let m = s.cands[c];
                    twice |= once & m;
                    once |= m;
                    if s.vals[c] != 0 {
                        placed |= bit(s.vals[c]);
                    }
                }
                let missing = all & !placed;
                if missing & !once != 0 {
                    s.contradiction = true;
                    return;
                }
                let mut single = once & !twice & missing;
                while single != 0 {
                    let d = single.trailing_zeros() as u8 + 1;
                    single &= single - 1;
                    if let Some(&c) = cells.iter().find(|&&c| s.cands[c] & bit(d) != 0) {
                        queue.push((c, d));
                    }
                }
            }
            if queue.is_empty() {
                return;
            }
        }
    }

    /// What a premise leads to, as bit sets over the graph's nodes.
    pub(super) fn reach(
        &self,
        board: &Board,
        g: &Graph,
        of_cand: &[u32],
        premise: Fact,
        net: bool,
    ) -> Reach {
        let words = g.singles.div_ceil(64);
        let mut r = Reach {
            on: vec![0; words],
            off: vec![0; words],
            contradiction: false,
        };
        r.contradiction = self.reach_into(
            board,
            g,
            of_cand,
            (premise, net, false),
            &mut r.on,
            &mut r.off,
        );
        r
    }

    /// Whether a premise leads to a contradiction ([`Forcing::reach`]),
    /// read from what every literal leads to when that is made.
    pub(super) fn contradicts(
        &self,
        board: &Board,
        g: &Graph,
        of_cand: &[u32],
        premise: Fact,
        net: bool,
    ) -> bool {
        let start = of_cand[premise.cell * board.side + premise.digit as usize - 1];
        if net || g.fold.is_none() || start == u32::MAX || !g.leads_made() {
            return self.reach(board, g, of_cand, premise, net).contradiction;
        }
        led(g, start, premise.on).2
    }

    /// [`Forcing::reach`] into `on` and `off` (zeroed, a word per 64 single
    /// nodes); true on a contradiction. A chain's reach is read from what
    /// every literal leads to ([`Graph::leads`]) when that is made, or
    /// `all` asks for it (every premise is to be followed); else the
    /// links are followed from this premise alone (a few premises kept
    /// from the last search, tried again in a new position, cost less so
    /// than every literal's).
    pub(super) fn reach_into(
        &self,
        board: &Board,
        g: &Graph,
        of_cand: &[u32],
        (premise, net, all): (Fact, bool, bool),
        on: &mut [u64],
        off: &mut [u64],
    ) -> bool {
        if net {
            thread_local! {
                static SCRATCH: std::cell::RefCell<(Net, Vec<(usize, u8)>)> =
                    const { std::cell::RefCell::new((Net::EMPTY, Vec::new())) };
            }
            return SCRATCH.with_borrow_mut(|(s, queue)| {
                self.net_into(board, premise, None, s, queue);
                if !s.contradiction {
                    for i in 0..g.singles {
                        let (c, d) = (g.nodes.cells(i)[0], g.nodes.digit(i));
                        if s.vals[c] == d {
                            on.put(i);
                        } else if s.vals[c] != 0 || s.cands[c] & bit(d) == 0 {
                            off.put(i);
                        }
                    }
                }
                s.contradiction
            });
        }
        let start = of_cand[premise.cell * board.side + premise.digit as usize - 1];
        if start == u32::MAX {
            return false;
        }
        // A chain's reach: what the literal leads to along the links (a
        // contradiction: some node found both true and false). On grids
        // of up to 128 cells, read from what every literal leads to, found
        // once for the position; on larger ones (where a few premises are
        // followed) found by following the links from this one.
        if g.fold.is_some() && (all || g.leads_made()) {
            let (led_off, led_on, contradiction) = led(g, start, premise.on);
            on.copy_from_slice(led_on);
            off.copy_from_slice(led_off);
            return contradiction;
        }
        let mut stack = vec![(start as usize, premise.on)];
        if premise.on {
            on.put(start as usize);
        } else {
            off.put(start as usize);
        }
        while let Some((x, is_on)) = stack.pop() {
            for y in g.single_links(x, is_on) {
                let (mine, other) = if is_on {
                    (&mut *off, &*on)
                } else {
                    (&mut *on, &*off)
                };
                if mine.has(y) {
                    continue;
                }
                mine.put(y);
                if other.has(y) {
                    return true;
                }
                stack.push((y, !is_on));
            }
        }
        false
    }

    /// The path of a forcing chain from `premise` to `goal` (both as
    /// graph literals `2 * node + on`), breadth first along the links.
    pub(super) fn chain_path(g: &Graph, premise: u32, goal: u32) -> Vec<u32> {
        let mut parent = vec![u32::MAX; 2 * g.nodes.len()];
        let mut seen = vec![false; 2 * g.nodes.len()];
        let mut queue = std::collections::VecDeque::from([premise]);
        seen[premise as usize] = true;
        while let Some(lit) = queue.pop_front() {
            if lit == goal {
                break;
            }
            let (x, on) = ((lit / 2) as usize, lit % 2 == 1);
            for y in g.single_links(x, on) {
                let nl = 2 * y as u32 + u32::from(!on);
                if !seen[nl as usize] {
                    seen[nl as usize] = true;
                    parent[nl as usize] = lit;
                    queue.push_back(nl);
                }
            }
        }
        crate::logic::techniques::chains::path_to(&parent, goal)
    }

    /// One branch as chain nodes: the path from the premise to the
    /// conclusion (a chain), or the premise, the placements that lead to
    /// the conclusion and the conclusion (a net).
    pub(super) fn branch(
        &self,
        board: &Board,
        g: &Graph,
        of_cand: &[u32],
        premise: Fact,
        goal: Fact,
        net: bool,
    ) -> Vec<ChainNode> {
        let node = |f: Fact| ChainNode {
            cells: vec![f.cell],
            digit: f.digit,
            on: f.on,
        };
        if net {
            let s = self.net(board, premise, Some(goal));
            let mut out = vec![node(premise)];
            out.extend(
                s.placed
                    .iter()
                    .filter(|&&(c, d)| !(premise.on && c == premise.cell && d == premise.digit))
                    .map(|&(c, d)| ChainNode {
                        cells: vec![c],
                        digit: d,
                        on: true,
                    }),
            );
            if out.last() != Some(&node(goal)) {
                out.push(node(goal));
            }
            return out;
        }
        let lit =
            |f: Fact| 2 * of_cand[f.cell * board.side + f.digit as usize - 1] + u32::from(f.on);
        Self::chain_path(g, lit(premise), lit(goal))
            .into_iter()
            .map(|l| {
                let i = (l / 2) as usize;
                ChainNode {
                    cells: g.nodes.cells(i).to_vec(),
                    digit: g.nodes.digit(i),
                    on: l % 2 == 1,
                }
            })
            .collect()
    }
}
