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
//! ([`Chains::search_in_bits`]): the first level where a start may strike
//! holds the shortest chains, and only that start is searched alone, for
//! the chain itself (for HoDoKu's choice, only the starts that may strike
//! at some level). Elsewhere an AIC search first finds, for every node at
//! once, which candidates any chain could strike (`useful_starts`), and
//! starts only next to them: most searches that find nothing end there.
//! An X-chain search first tells, digit by digit from bit sets, whether
//! any chain on the digit could strike ([`Chains::x_chain_digits`]): the
//! others are skipped, and no graph is built when none is left.
//!
//! On grids of up to 128 cells a single node's weak links are read from
//! bit sets ([`Fold`]), not listed. Chains are capped at
//! [`MAX_NODES`] nodes, as HoDoKu caps its chains at 20, and one search at
//! [`MAX_WORK`] links followed (it matters on large grids only).

/// The longest chain searched, in nodes (HoDoKu's default chain length).
const MAX_NODES: usize = 20;

/// The most links one chain search follows (all starts together) before
/// it gives up for the step: a 9x9 search stays well below, a 25x25 one,
/// thousands of nodes each searched from, would take seconds.
const MAX_WORK: usize = 4_000_000;

/// The most link graphs one puzzle's runs keep for each other
/// ([`Solver::note_findings`](crate::logic::Solver)); about 20 KB each on a 9x9.
pub(in crate::logic) const KEPT_GRAPHS: usize = 256;

/// What the chains family keeps.
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct Chains {
    /// `(steps taken, graph)`: the position's link graph.
    graph: Option<(usize, Arc<Graph>)>,
    /// The candidates where the XY-chain search last found nothing
    /// ([`Chains::xy_chains_in_vain`](crate::logic::Board)).
    xy_vain: Option<Vec<u64>>,
}

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

use std::sync::Arc;

mod at_once;
mod build;
mod filter;
mod graph;
mod in_cells;
mod say;
mod search;

use at_once::{shares, spread, Set, StrongNodes, Wide};
use filter::useful_starts;
pub(in crate::logic) use filter::Leads;
use graph::share_weak;
use graph::IN_CELL;
pub(in crate::logic) use graph::{Adj, Fold, Graph, Nodes};
pub(in crate::logic) use say::say;

#[cfg(test)]
mod tests {
    use super::{Graph, Kind};
    use crate::logic::tests::each_hard_position;
    use crate::logic::{Digits, Technique};

    use crate::logic::tests::empty_by_hand as empty;

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
                let (c, board, run) = (&b.families.chains, &b.board, &b.run);
                let every = c.search_from(
                    board,
                    run,
                    &listed,
                    kind,
                    0,
                    None,
                    &mut cut,
                    most,
                    super::MAX_NODES,
                );
                assert_eq!(
                    c.search(board, run, &folded, kind, 0, &mut cut),
                    every,
                    "{kind:?}"
                );
                assert_eq!(
                    c.search(board, run, &listed, kind, 0, &mut cut),
                    every,
                    "{kind:?}"
                );
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
            let (c, board, run) = (&b.families.chains, &b.board, &b.run);
            let possible = c.x_chain_digits(board, Digits::EMPTY);
            let g = b.build_graph(false, true);
            for d in 1..=9u8 {
                let mut cut = false;
                let skip = all & !crate::logic::bit(d);
                let found = c.search_from(
                    board,
                    run,
                    &g,
                    Kind::X,
                    skip,
                    None,
                    &mut cut,
                    true,
                    super::MAX_NODES,
                );
                assert!(!cut);
                if !possible.contains(d) {
                    left_out += 1;
                    assert!(found.is_none(), "digit {d}: {found:?}");
                } else {
                    with_chain += usize::from(found.is_some());
                }
            }
            // Skipped digits stay out.
            let odd = Digits::from_bits(0b1_0101_0101);
            assert!((c.x_chain_digits(board, odd) & odd).is_empty());
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
                se.run.pick = crate::logic::Pick::Easiest;
                let found = hodoku
                    .families
                    .chains
                    .chain(&mut hodoku.board, &mut hodoku.run, kind);
                assert_eq!(
                    found,
                    se.families.chains.chain(&mut se.board, &mut se.run, kind)
                );
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
        assert!(b.find(Technique::XyChain));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::XyChain);
        assert_eq!(s.eliminated, vec![(8, 1), (36, 1)]);
        assert_eq!(s.chains[0].len(), 8);
        assert!(!s.chains[0][0].on && s.chains[0][7].on);
    }
}
