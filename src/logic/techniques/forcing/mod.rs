//! Forcing chains (`F`) and forcing nets (`N`): the last techniques before
//! a guess.
//!
//! A premise ("digit `d` is in cell `c`", or "is not") is followed to its
//! consequences:
//!
//! - in a **forcing chain**, along the links of the position as it stands
//!   (a true node strikes its weakly linked nodes; a false node makes its
//!   strong partner true), so every consequence has one reason;
//! - in a **forcing net**, by placing digits and striking candidates, with
//!   naked and hidden singles found anew after every placement, so a
//!   consequence may follow from several earlier ones together.
//!
//! Three kinds of conclusions, tried in this order:
//!
//! 1. a premise that leads to a contradiction (a candidate both true and
//!    false, a cell without candidates, a digit without a place) is false:
//!    "d in c" is struck, or "d not in c" places d;
//! 2. what every candidate of one cell leads to (cell forcing) holds;
//! 3. what every place of a digit in a unit leads to (unit forcing) holds.
//!
//! A step places a digit when the branches agree on one, and else strikes
//! every candidate they agree on. Every premise is followed once per step
//! (its consequences kept as bit sets), so a step costs one propagation per
//! candidate; the ladder only gets here when everything else has stopped.
//! On grids of up to 128 cells a chain's consequences are read instead
//! from what every candidate leads to, found for all of them at once with
//! the position's link graph ([`Graph::leads`]), the same for both
//! premises of a candidate and for both runs of a rating.

mod net;

use super::chains::{Chains, Graph};
use crate::logic::memo::Run;
use crate::logic::words::Words;
use crate::logic::{bit, Board, Cells, ChainNode, Step, Technique};

/// The most branches (candidates of a cell, places of a digit in a
/// unit) followed on grids larger than 9x9.
const MAX_BRANCHES_LARGE: usize = 3;

/// What a premise leads to: nodes found true and false (bit sets over the
/// graph's nodes), and whether a contradiction came up.
struct Reach {
    on: Vec<u64>,
    off: Vec<u64>,
    contradiction: bool,
}

/// What the literal of node `start` (`on`: "true") leads to, from the
/// position's closure ([`Graph::leads`]): the nodes found false, those
/// found true, and whether some node is found both.
fn led(g: &Graph, start: u32, on: bool) -> (&[u64], &[u64], bool) {
    let set = g.leads().of(2 * start as usize + usize::from(on));
    let (off, on) = set.split_at(set.len() / 2);
    (off, on, on.iter().zip(off).any(|(a, b)| a & b != 0))
}

/// The position inside a net: candidates, digits, placements in order.
struct Net {
    cands: Vec<u64>,
    vals: Vec<u8>,
    placed: Vec<(usize, u8)>,
    contradiction: bool,
    /// The units with a cell changed since they were last searched for
    /// hidden singles: the others have none to give (what they gave,
    /// placed, changed them).
    dirty: Vec<bool>,
}

/// Premises to follow again: one that leads to a contradiction, or the
/// candidates of a cell or places of a digit in a unit that agree.
#[derive(Debug, Clone)]
pub(in crate::logic) struct Premises {
    facts: Vec<Fact>,
    contradiction: bool,
}

/// What the forcing family keeps: the premise groups of forcing chains
/// (index 0) and nets (index 1) found to conclude something, tried again
/// first.
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct Forcing {
    /// Chains' and nets' premise groups.
    pub(in crate::logic) premises: [Vec<Premises>; 2],
}

/// A premise or a conclusion: a node made true (`on`) or false.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fact {
    cell: usize,
    digit: u8,
    on: bool,
}

impl Net {
    /// A net with nothing in it yet (its lists filled by each use).
    const EMPTY: Net = Net {
        cands: Vec::new(),
        vals: Vec::new(),
        placed: Vec::new(),
        contradiction: false,
        dirty: Vec::new(),
    };

    fn holds(&self, f: Fact) -> bool {
        let v = self.vals[f.cell];
        if f.on {
            v == f.digit
        } else {
            (v != 0 && v != f.digit) || (v == 0 && self.cands[f.cell] & bit(f.digit) == 0)
        }
    }
}

impl Forcing {
    /// One forcing chain (`net` false) or net (`net` true) that places or
    /// strikes something. Premises found with a conclusion in a full
    /// search are kept and tried again first on the next call: what a
    /// premise leads to only grows as the position loses candidates, so
    /// they usually still conclude something, and one search of every
    /// candidate serves several steps.
    pub(in crate::logic) fn forcing(
        &mut self,
        board: &mut Board,
        run: &mut Run,
        chains: &mut Chains,
        net: bool,
    ) -> bool {
        let slot = usize::from(net);
        let g = chains.graph(board, run, false);
        let n = board.side;
        let of_cand = &g.of_cand;
        while let Some(p) = self.premises[slot].pop() {
            if self.conclude(board, &g, of_cand, &p, net) {
                return true;
            }
        }
        let fact = |i: usize, on: bool| Fact {
            cell: g.nodes.cells(i)[0],
            digit: g.nodes.digit(i),
            on,
        };
        let mut found: Vec<Premises> = Vec::new();
        // 2. Cells, 3. units: what every branch agrees on. On grids larger
        // than 9x9 only cells of up to MAX_BRANCHES_LARGE candidates and
        // digits with up to as many places are followed, and only their
        // candidates are tried for a contradiction: a 25x25 has thousands
        // of candidates, each a propagation over 625 cells.
        let max = if n > 9 { MAX_BRANCHES_LARGE } else { n };
        // The branches of each group: `branches[at[i]..at[i + 1]]`.
        let (mut branches, mut at) = (Vec::<usize>::new(), vec![0usize]);
        for c in 0..n * n {
            let k = board.cands[c].count_ones() as usize;
            if (2..=max).contains(&k) {
                branches.extend(
                    crate::logic::digits_of(board.cands[c])
                        .map(|d| of_cand[c * n + d as usize - 1] as usize),
                );
                at.push(branches.len());
            }
        }
        for cells in &board.units {
            for d in 1..=n as u8 {
                let from = branches.len();
                branches.extend(
                    cells
                        .iter()
                        .filter(|&&c| board.cands[c] & bit(d) != 0)
                        .map(|&c| of_cand[c * n + d as usize - 1] as usize),
                );
                if (2..=max).contains(&(branches.len() - from)) {
                    at.push(branches.len());
                } else {
                    branches.truncate(from);
                }
            }
        }
        let mut wanted = vec![n <= 9; g.singles];
        for &p in &branches {
            wanted[p] = true;
        }
        // 1. Premises "true" leading to a contradiction. What each leads
        // to: `words` words from `i * words` (a premise not followed
        // counts as a contradiction: its groups are not tried).
        let words = g.singles.div_ceil(64);
        let mut on_sets = vec![0u64; g.singles * words];
        let mut off_sets = vec![0u64; g.singles * words];
        let mut contradiction = vec![true; g.singles];
        for (i, &want) in wanted.iter().enumerate() {
            if i % 16 == 0 && run.past_deadline() {
                return false;
            }
            if !want {
                continue;
            }
            let span = i * words..(i + 1) * words;
            contradiction[i] = self.reach_into(
                board,
                &g,
                of_cand,
                (fact(i, true), net, true),
                &mut on_sets[span.clone()],
                &mut off_sets[span],
            );
            if contradiction[i] {
                found.push(Premises {
                    facts: vec![fact(i, true)],
                    contradiction: true,
                });
            }
        }
        let (mut on, mut off) = (vec![0u64; words], vec![0u64; words]);
        for premises in at.windows(2).map(|w| &branches[w[0]..w[1]]) {
            if premises.iter().any(|&p| contradiction[p]) {
                continue;
            }
            on.fill(u64::MAX);
            off.fill(u64::MAX);
            for &p in premises {
                for w in 0..words {
                    on[w] &= on_sets[p * words + w];
                    off[w] &= off_sets[p * words + w];
                }
            }
            if on.iter().chain(off.iter()).any(|&w| w != 0) {
                found.push(Premises {
                    facts: premises.iter().map(|&p| fact(p, true)).collect(),
                    contradiction: false,
                });
            }
        }
        if !found.is_empty() {
            found.reverse();
            self.premises[slot] = found;
            while let Some(p) = self.premises[slot].pop() {
                if self.conclude(board, &g, of_cand, &p, net) {
                    return true;
                }
            }
        }
        // 4. Premises "false" leading to a contradiction: the digit is there.
        for i in (0..g.singles).filter(|&i| n <= 9 || wanted[i]) {
            if i % 16 == 0 && run.past_deadline() {
                return false;
            }
            let p = Premises {
                facts: vec![fact(i, false)],
                contradiction: true,
            };
            if self.conclude(board, &g, of_cand, &p, net) {
                return true;
            }
        }
        false
    }

    /// Follows the premises in the current position and records the step
    /// they lead to, if any.
    fn conclude(
        &mut self,
        board: &mut Board,
        g: &Graph,
        of_cand: &[u32],
        p: &Premises,
        net: bool,
    ) -> bool {
        let technique = if net {
            Technique::ForcingNet
        } else {
            Technique::ForcingChain
        };
        let present = |f: &Fact| board.cands[f.cell] & bit(f.digit) != 0;
        if p.contradiction {
            let Some(&premise) = p.facts.first() else {
                return false;
            };
            if !present(&premise) || !self.contradicts(board, g, of_cand, premise, net) {
                return false;
            }
            let chains = self.contradiction_branches(board, g, of_cand, premise, net);
            let (c, d) = (premise.cell, premise.digit);
            let step = Step {
                technique,
                unit: None,
                digits: vec![d],
                cells: vec![c],
                placed: (!premise.on).then_some((c, d)),
                eliminated: if premise.on { vec![(c, d)] } else { Vec::new() },
                chains,
            };
            if premise.on {
                board.apply(step);
            } else {
                board.assign(c, d);
                board.steps.push(step);
            }
            return true;
        }
        let premises: Vec<Fact> = p.facts.iter().copied().filter(|f| present(f)).collect();
        if premises.len() < 2 {
            return false;
        }
        let words = g.singles.div_ceil(64);
        let mut on = vec![u64::MAX; words];
        let mut off = vec![u64::MAX; words];
        for &f in &premises {
            let r = self.reach(board, g, of_cand, f, net);
            if r.contradiction {
                return false;
            }
            for w in 0..words {
                on[w] &= r.on[w];
                off[w] &= r.off[w];
            }
        }
        let node_fact = |i: usize, on: bool| Fact {
            cell: g.nodes.cells(i)[0],
            digit: g.nodes.digit(i),
            on,
        };
        let placed = (0..g.singles).find(|&i| on.has(i));
        let goals: Vec<Fact> = match placed {
            Some(i) => vec![node_fact(i, true)],
            None => (0..g.singles)
                .filter(|&i| off.has(i))
                .map(|i| node_fact(i, false))
                .collect(),
        };
        let Some(&first) = goals.first() else {
            return false;
        };
        let chains = premises
            .iter()
            .map(|&f| self.branch(board, g, of_cand, f, first, net))
            .collect();
        let mut digits: Vec<u8> = premises.iter().map(|f| f.digit).collect();
        digits.dedup();
        let mut cells: Vec<usize> = premises.iter().map(|f| f.cell).collect();
        cells.dedup();
        let step = Step {
            technique,
            unit: None,
            digits,
            cells,
            placed: placed.map(|_| (first.cell, first.digit)),
            eliminated: if placed.is_some() {
                Vec::new()
            } else {
                goals.iter().map(|f| (f.cell, f.digit)).collect()
            },
            chains,
        };
        match step.placed {
            Some((c, d)) => {
                board.assign(c, d);
                board.steps.push(step);
            }
            None => board.apply(step),
        }
        true
    }

    /// The branches of a contradiction from `premise`: for a chain, the
    /// two paths to a node found both true and false; for a net, the
    /// placements up to the contradiction.
    fn contradiction_branches(
        &self,
        board: &Board,
        g: &Graph,
        of_cand: &[u32],
        premise: Fact,
        net: bool,
    ) -> Vec<Vec<ChainNode>> {
        let node = |cells: Vec<usize>, digit: u8, on: bool| ChainNode { cells, digit, on };
        if net {
            let s = self.net(board, premise, None);
            let mut out = vec![node(vec![premise.cell], premise.digit, premise.on)];
            out.extend(
                s.placed
                    .iter()
                    .filter(|&&(c, d)| !(premise.on && c == premise.cell && d == premise.digit))
                    .map(|&(c, d)| node(vec![c], d, true)),
            );
            return vec![out];
        }
        // Find the node reached both ways, then the path to each.
        let start = of_cand[premise.cell * board.side + premise.digit as usize - 1];
        let mut seen = vec![false; 2 * g.nodes.len()];
        let first = 2 * start + u32::from(premise.on);
        seen[first as usize] = true;
        let mut queue = std::collections::VecDeque::from([first]);
        let mut clash = None;
        while let Some(lit) = queue.pop_front() {
            if seen[(lit ^ 1) as usize] {
                clash = Some(lit / 2);
                break;
            }
            let (x, on) = ((lit / 2) as usize, lit % 2 == 1);
            for y in g.single_links(x, on) {
                let nl = 2 * y as u32 + u32::from(!on);
                if !seen[nl as usize] {
                    seen[nl as usize] = true;
                    queue.push_back(nl);
                }
            }
        }
        let Some(z) = clash else {
            return vec![vec![node(vec![premise.cell], premise.digit, premise.on)]];
        };
        [2 * z + 1, 2 * z]
            .into_iter()
            .map(|goal| {
                Self::chain_path(g, first, goal)
                    .into_iter()
                    .map(|l| {
                        let i = (l / 2) as usize;
                        node(g.nodes.cells(i).to_vec(), g.nodes.digit(i), l % 2 == 1)
                    })
                    .collect()
            })
            .collect()
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    Some(match (step.technique, step.placed) {
        (Technique::ForcingChain | Technique::ForcingNet, _) if !step.chains.is_empty() => {
            forcing_text(step, w)
        }
        _ => return None,
    })
}

/// A forcing chain or net in words: the premise(s), each branch, and what
/// follows.
fn forcing_text(step: &Step, w: &Words) -> String {
    let name = step.technique.name();
    let net = step.technique == Technique::ForcingNet;
    let effect = match step.placed {
        Some((c, d)) => format!("{} = {}", w.cell(c), w.digit(d)),
        None => w.removes(&step.eliminated),
    };
    let branch = |b: &[ChainNode]| -> String {
        if net {
            let shown: Vec<String> = b.iter().skip(1).take(12).map(|nd| w.node_is(nd)).collect();
            let more = if b.len() > 13 { ", …" } else { "" };
            if shown.is_empty() {
                String::new()
            } else {
                format!(" ({}{more})", shown.join(", "))
            }
        } else {
            format!(" ({})", w.chain_text(b))
        }
    };
    let premise = &step.chains[0][0];
    let contradiction = step.chains.iter().all(|b| b.first() == Some(premise))
        && (step.eliminated == [(premise.cells[0], premise.digit)]
            || step.placed == Some((premise.cells[0], premise.digit)));
    if contradiction {
        let branches: Vec<String> = step.chains.iter().map(|b| branch(b)).collect();
        return format!(
            "{name}: if {}, a contradiction follows{}: {effect}",
            w.node_is(premise).replace(" is ", " were "),
            branches.concat()
        );
    }
    let premises: Vec<&ChainNode> = step.chains.iter().filter_map(|b| b.first()).collect();
    let cells: Vec<usize> = premises.iter().map(|nd| nd.cells[0]).collect();
    let same_cell = cells.windows(2).all(|w| w[0] == w[1]);
    let each = if same_cell {
        let digits: Vec<u8> = premises.iter().map(|nd| nd.digit).collect();
        format!(
            "each candidate of {} ({})",
            w.cell(cells[0]),
            w.digits(&digits)
        )
    } else {
        let unit = w
            .shared(&cells)
            .first()
            .map(|&u| format!(" in {}", w.unit(u)))
            .unwrap_or_default();
        format!(
            "each place of {}{unit} ({})",
            w.digit(premise.digit),
            w.cells(&cells)
        )
    };
    let branches: Vec<String> = step
        .chains
        .iter()
        .map(|b| {
            let head = b.first().map(|nd| w.node_is(nd)).unwrap_or_default();
            format!("{head}{}", branch(b))
        })
        .collect();
    format!(
        "{name}: {each} leads to the same: {}: {effect}",
        branches.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use crate::grid::Grid;
    use crate::logic::{Ladder, Solver, Stop, Technique};
    use crate::samples::HARD;

    #[test]
    fn a_net_leaves_no_single_behind() {
        // Only the units changed since their last search are searched
        // again for hidden singles: none may be missed.
        let mut nets = 0;
        crate::logic::tests::each_hard_position(4, |b| {
            let n = b.side;
            // Where the ladder has no naked single left (a net places
            // the naked singles its own strikes make).
            if b.cands.iter().any(|m| m.count_ones() == 1) {
                return;
            }
            for cell in (0..n * n).filter(|&c| b.cands[c] != 0) {
                for digit in crate::logic::digits_of(b.cands[cell]) {
                    for on in [false, true] {
                        let s =
                            super::Forcing::default().net(b, super::Fact { cell, digit, on }, None);
                        if s.contradiction {
                            continue;
                        }
                        nets += 1;
                        assert!(s.cands.iter().all(|m| m.count_ones() != 1));
                        for unit in &b.units {
                            for d in 1..=n as u8 {
                                let placed = unit.iter().any(|&c| s.vals[c] == d);
                                let places = unit
                                    .iter()
                                    .filter(|&&c| s.cands[c] & super::bit(d) != 0)
                                    .count();
                                assert!(placed || places > 1, "{d} in {unit:?}");
                            }
                        }
                    }
                }
            }
        });
        assert!(nets > 1000, "{nets}");
    }

    #[test]
    fn what_each_literal_leads_to_is_what_following_the_links_finds() {
        let (mut contradictions, mut others) = (0, 0);
        crate::logic::tests::each_hard_position(3, |b| {
            // Followed from one premise on the folded graph (before its
            // closure is made) and on the listed one, and read from the
            // folded graph's closure.
            let forcing = super::Forcing::default();
            let folded = b.build_graph(false, true);
            let listed = b.build_graph(false, false);
            let mut alone = Vec::new();
            for i in 0..listed.singles {
                for on in [false, true] {
                    let (cell, digit) = (listed.nodes.cells(i)[0], listed.nodes.digit(i));
                    let f = super::Fact { cell, digit, on };
                    assert!(!folded.leads_made());
                    alone.push((f, forcing.reach(b, &folded, &folded.of_cand, f, false)));
                }
            }
            folded.leads();
            for (f, alone) in alone {
                let fast = forcing.reach(b, &folded, &folded.of_cand, f, false);
                let slow = forcing.reach(b, &listed, &listed.of_cand, f, false);
                assert_eq!(fast.contradiction, slow.contradiction);
                assert_eq!(alone.contradiction, slow.contradiction);
                if slow.contradiction {
                    contradictions += 1;
                } else {
                    others += 1;
                    assert_eq!((&fast.on, &fast.off), (&slow.on, &slow.off));
                    assert_eq!((alone.on, alone.off), (slow.on, slow.off));
                }
            }
        });
        assert!(contradictions > 100 && others > 1000);
    }

    #[test]
    fn forcing_nets_finish_a_hard_puzzle_without_a_guess() {
        let p: Grid = HARD.parse().unwrap();
        let sol = crate::logic::tests::brute_force(&p).unwrap();
        let mut b = Solver::with_ladder(&p, Ladder::all()).unwrap();
        assert_eq!(b.run(None), Stop::Solved, "{}", b.history());
        assert_eq!(b.grid(), &sol);
        assert!(b
            .steps()
            .iter()
            .any(|s| matches!(s.technique, Technique::ForcingChain | Technique::ForcingNet)));
    }
}
