//! Colouring: remote pair (`r`), simple colouring (`c`) and
//! multi-colouring (`m`). Each splits a cluster of cells into two colours,
//! exactly one of which is true.
//!
//! - Remote pair: cells holding only the same two candidates `{a,b}`, each
//!   seeing the next, alternate between `a` and `b`. In a cluster of four
//!   or more, a cell seeing cells of both colours holds neither.
//! - Simple colouring: a digit's strong links (units where it has two
//!   places) form clusters whose cells alternate true and false. Trap: a
//!   cell seeing both colours loses the digit. Wrap: two cells of one
//!   colour see each other, so that colour is false everywhere.
//! - Multi-colouring: two clusters of one digit. If a colour of the first
//!   sees both colours of the second, it is false (type 2). If colour `A`
//!   of the first sees colour `C` of the second, one of their partners `B`
//!   and `D` is true, so a cell seeing both `B` and `D` loses the digit
//!   (type 1).

use std::sync::Arc;

use crate::logic::memo::Run;
use crate::logic::words::Words;
use crate::logic::{bit, digits_of, Board, Cells, Step, Technique};
use std::collections::BTreeMap;

/// A cluster split in two colours: `(cell, colour)` in the order found.
pub(in crate::logic) type Cluster = Vec<(usize, bool)>;

/// A position's candidates and the clusters of each digit (index
/// `d - 1`) worked out in it so far.
pub(in crate::logic) type ColourMemo = (Vec<u64>, Vec<Option<Arc<Vec<Cluster>>>>);

/// What the colouring family keeps: every digit's colour clusters of a
/// position ([`ColourMemo`]), for simple and multi-colouring, which
/// follow one another on it.
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct Colouring {
    /// The last position's clusters.
    pub(in crate::logic) clusters: Option<ColourMemo>,
}

/// Splits `nodes` into clusters joined by `edges` (pairs of cells),
/// two-coloured (breadth first, from the first node of each). A cluster
/// that cannot be two-coloured (only on a broken position) is left out.
fn clusters(nodes: &[usize], edges: &[(usize, usize)]) -> Vec<Cluster> {
    let index = |c: usize| nodes.binary_search(&c).ok();
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for &(a, b) in edges {
        if let (Some(i), Some(j)) = (index(a), index(b)) {
            adjacent[i].push(j);
            adjacent[j].push(i);
        }
    }
    let mut colour: Vec<Option<bool>> = vec![None; nodes.len()];
    let mut out = Vec::new();
    for start in 0..nodes.len() {
        if colour[start].is_some() {
            continue;
        }
        colour[start] = Some(false);
        let mut queue = vec![start];
        let mut head = 0;
        let mut broken = false;
        while head < queue.len() {
            let i = queue[head];
            head += 1;
            let ci = colour[i].unwrap_or(false);
            for &j in &adjacent[i] {
                match colour[j] {
                    None => {
                        colour[j] = Some(!ci);
                        queue.push(j);
                    }
                    Some(cj) if cj == ci => broken = true,
                    Some(_) => {}
                }
            }
        }
        if !broken {
            out.push(
                queue
                    .iter()
                    .map(|&i| (nodes[i], colour[i].unwrap_or(false)))
                    .collect(),
            );
        }
    }
    out
}

/// A digit's clusters as bit sets over the cells (`words` words each):
/// each colour's cells, and the cells seeing one of them.
pub(in crate::logic) struct ColourSets {
    words: usize,
    /// Per cluster: cells of colour false, of colour true, cells seeing
    /// colour false, seeing colour true.
    sets: Vec<u64>,
}

impl ColourSets {
    /// Cluster `i`'s cells of colour `c`.
    fn cells(&self, i: usize, c: bool) -> &[u64] {
        self.set(i, usize::from(c))
    }

    /// The cells seeing a cell of cluster `i`'s colour `c`.
    pub(in crate::logic) fn seen(&self, i: usize, c: bool) -> &[u64] {
        self.set(i, 2 + usize::from(c))
    }

    fn set(&self, i: usize, k: usize) -> &[u64] {
        let at = (4 * i + k) * self.words;
        &self.sets[at..at + self.words]
    }
}

impl Board {
    /// The bit sets of `clusters` ([`ColourSets`]).
    pub(in crate::logic) fn colour_sets(&self, clusters: &[Cluster]) -> ColourSets {
        let words = self.cands.len().div_ceil(64);
        let mut sets = vec![0u64; 4 * words * clusters.len()];
        for (i, cluster) in clusters.iter().enumerate() {
            for &(x, c) in cluster {
                let k = usize::from(c);
                let at = (4 * i + k) * words;
                sets[at + x / 64] |= 1 << (x % 64);
                let seen = (4 * i + 2 + k) * words;
                for (o, p) in sets[seen..seen + words]
                    .iter_mut()
                    .zip(&self.peer_sets[x * words..(x + 1) * words])
                {
                    *o |= p;
                }
            }
        }
        ColourSets { words, sets }
    }
}

impl Colouring {
    /// The candidates of `digits` (a mask) of the cells in all of `sets`
    /// and in none of `not`, in order, as struck `(cell, digit)`.
    fn struck_in(
        &self,
        board: &Board,
        digits: u64,
        sets: &[&[u64]],
        not: &[&[u64]],
    ) -> Vec<(usize, u8)> {
        let words = board.cands.len().div_ceil(64);
        let mut out = Vec::new();
        for w in 0..words {
            let mut m = sets.iter().fold(u64::MAX, |m, s| m & s[w]);
            m &= !not.iter().fold(0, |m, s| m | s[w]);
            while m != 0 {
                let x = 64 * w + m.trailing_zeros() as usize;
                m &= m - 1;
                out.extend(digits_of(board.cands[x] & digits).map(|d| (x, d)));
            }
        }
        out
    }

    /// The two-coloured clusters of digit `d`'s strong links, kept while
    /// the position stays the same: simple and multi-colouring run one
    /// after the other on a position.
    fn digit_clusters(&mut self, board: &Board, d: u8) -> Arc<Vec<Cluster>> {
        let fresh = matches!(&self.clusters, Some((cands, _)) if *cands == board.cands);
        if !fresh {
            self.clusters = Some((board.cands.clone(), vec![None; board.side]));
        }
        if let Some((_, all)) = &self.clusters {
            if let Some(found) = &all[d as usize - 1] {
                return Arc::clone(found);
            }
        }
        let (nodes, links) = self.strong_graph(board, d);
        let found = Arc::new(clusters(&nodes, &links));
        if let Some((_, all)) = &mut self.clusters {
            all[d as usize - 1] = Some(Arc::clone(&found));
        }
        found
    }

    /// The cells of a digit's strong-link graph: every cell that ends a
    /// strong link, and the links between them.
    fn strong_graph(&self, board: &Board, d: u8) -> (Vec<usize>, Vec<(usize, usize)>) {
        let links: Vec<(usize, usize)> = board
            .strong_links(d)
            .into_iter()
            .map(|(_, a, b)| (a, b))
            .collect();
        let mut nodes: Vec<usize> = links.iter().flat_map(|&(a, b)| [a, b]).collect();
        nodes.sort_unstable();
        nodes.dedup();
        (nodes, links)
    }

    fn colour_step(
        technique: Technique,
        digits: Vec<u8>,
        cells: Vec<usize>,
        mut eliminated: Vec<(usize, u8)>,
    ) -> Option<Step> {
        if eliminated.is_empty() {
            return None;
        }
        eliminated.sort_unstable();
        eliminated.dedup();
        Some(Step {
            technique,
            unit: None,
            digits,
            cells,
            placed: None,
            eliminated,
            chains: Vec::new(),
        })
    }

    /// One remote pair that strikes something.
    pub(in crate::logic) fn remote_pair(&mut self, board: &mut Board) -> bool {
        // The pair cells by their candidates, then in order.
        let mut pairs: Vec<(u64, usize)> = board
            .cands
            .iter()
            .enumerate()
            .filter(|&(_, &m)| crate::logic::two_bits(m))
            .map(|(c, &m)| (m, c))
            .collect();
        pairs.sort_unstable();
        for same in pairs.chunk_by(|a, b| a.0 == b.0) {
            if same.len() < 4 {
                continue;
            }
            let m = same[0].0;
            let nodes: Vec<usize> = same.iter().map(|&(_, c)| c).collect();
            let mut edges = Vec::new();
            for (i, &a) in nodes.iter().enumerate() {
                for &b in &nodes[i + 1..] {
                    if board.sees(a, b) {
                        edges.push((a, b));
                    }
                }
            }
            let found = clusters(&nodes, &edges);
            let sets = board.colour_sets(&found);
            for (i, cluster) in found.iter().enumerate() {
                if cluster.len() < 4 {
                    continue;
                }
                // A cell outside seeing both colours holds neither digit.
                let eliminated = self.struck_in(
                    board,
                    m,
                    &[sets.seen(i, false), sets.seen(i, true)],
                    &[sets.cells(i, false), sets.cells(i, true)],
                );
                if eliminated.is_empty() {
                    continue;
                }
                let cells = cluster.iter().map(|&(c, _)| c).collect();
                if let Some(step) = Self::colour_step(
                    Technique::RemotePair,
                    digits_of(m).collect(),
                    cells,
                    eliminated,
                ) {
                    board.apply(step);
                    return true;
                }
            }
        }
        false
    }

    /// One simple colouring (wrap, then trap, cluster by cluster) that
    /// strikes something.
    pub(in crate::logic) fn simple_colouring(&mut self, board: &mut Board, run: &mut Run) -> bool {
        let found = run.first_by_digit(board, Technique::SimpleColouring, |d| {
            let found = self.digit_clusters(board, d);
            let sets = board.colour_sets(&found);
            for (i, cluster) in found.iter().enumerate() {
                if cluster.len() < 3 {
                    continue;
                }
                // Wrap: a colour with two cells seeing each other is false.
                let mut eliminated = Vec::new();
                for c in [false, true] {
                    if sets.cells(i, c).meets(sets.seen(i, c)) {
                        eliminated = cluster
                            .iter()
                            .filter(|&&(_, cx)| cx == c)
                            .map(|&(x, _)| (x, d))
                            .collect();
                        break;
                    }
                }
                if eliminated.is_empty() {
                    // Trap: a cell outside seeing both colours.
                    eliminated = self.struck_in(
                        board,
                        bit(d),
                        &[sets.seen(i, false), sets.seen(i, true)],
                        &[sets.cells(i, false), sets.cells(i, true)],
                    );
                }
                if eliminated.is_empty() {
                    continue;
                }
                let cells: Vec<usize> = cluster.iter().map(|&(c, _)| c).collect();
                let step =
                    Self::colour_step(Technique::SimpleColouring, vec![d], cells, eliminated);
                if step.is_some() {
                    return step;
                }
            }
            None
        });
        board.apply_found(found)
    }

    /// One multi-colouring (type 2, then type 1, pair of clusters by pair)
    /// that strikes something.
    pub(in crate::logic) fn multi_colouring(&mut self, board: &mut Board, run: &mut Run) -> bool {
        let found = run.first_by_digit(board, Technique::MultiColouring, |d| {
            let b = bit(d);
            let all = self.digit_clusters(board, d);
            let sets = board.colour_sets(&all);
            for (i, c1) in all.iter().enumerate() {
                for (j, c2) in all.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    // Whether colour `ca` of c1 sees colour `cb` of c2.
                    let sees = |ca: bool, cb: bool| sets.seen(i, ca).meets(sets.cells(j, cb));
                    let mut eliminated: Vec<(usize, u8)> = Vec::new();
                    // Type 2: a colour of c1 seeing both colours of c2.
                    for ca in [false, true] {
                        if sees(ca, false) && sees(ca, true) {
                            eliminated = c1
                                .iter()
                                .filter(|&&(_, cx)| cx == ca)
                                .map(|&(x, _)| (x, d))
                                .collect();
                            break;
                        }
                    }
                    // Type 1: A sees C, so B or D holds the digit.
                    if eliminated.is_empty() && i < j {
                        'pairs: for ca in [false, true] {
                            for cc in [false, true] {
                                if !sees(ca, cc) {
                                    continue;
                                }
                                eliminated = self.struck_in(
                                    board,
                                    b,
                                    &[sets.seen(i, !ca), sets.seen(j, !cc)],
                                    &[
                                        sets.cells(i, false),
                                        sets.cells(i, true),
                                        sets.cells(j, false),
                                        sets.cells(j, true),
                                    ],
                                );
                                if !eliminated.is_empty() {
                                    break 'pairs;
                                }
                            }
                        }
                    }
                    if eliminated.is_empty() {
                        continue;
                    }
                    let cells: Vec<usize> = c1.iter().chain(c2).map(|&(c, _)| c).collect();
                    let step =
                        Self::colour_step(Technique::MultiColouring, vec![d], cells, eliminated);
                    if step.is_some() {
                        return step;
                    }
                }
            }
            None
        });
        board.apply_found(found)
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let d0 = step.digits.first().copied();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (Technique::RemotePair, None) if step.digits.len() == 2 => {
            let (a, b) = two_colours(&step.cells, |x, y| !w.shared(&[x, y]).is_empty());
            format!(
                "{name} on {}: {} hold only {} and each sees the next, so {} hold one digit and {} the other: {removes}",
                w.digits(&step.digits),
                w.cells(&step.cells),
                w.digits(&step.digits),
                w.cells(&a),
                w.cells(&b)
            )
        }
        (Technique::SimpleColouring, None) if d0.is_some() => {
            let d = d0.unwrap_or(1);
            let (a, b) = two_colours(&step.cells, |x, y| w.strong_unit(d, x, y).is_some());
            let wrap = step
                .eliminated
                .iter()
                .all(|&(c, _)| step.cells.contains(&c));
            let how = if wrap {
                "two cells of one colour see each other, so that colour is false"
            } else {
                "a cell seeing both colours cannot hold it"
            };
            format!(
                "{name} on {}: strong links colour {} against {}; {how}: {removes}",
                w.digit(d),
                w.cells(&a),
                w.cells(&b)
            )
        }
        (Technique::MultiColouring, None) if d0.is_some() && !step.cells.is_empty() => {
            let d = d0.unwrap_or(1);
            let linked = |x: usize, y: usize| w.strong_unit(d, x, y).is_some();
            let (a, b) = two_colours(&step.cells, linked);
            let first: Vec<usize> = a.iter().chain(&b).copied().collect();
            let rest: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|c| !first.contains(c))
                .collect();
            let (c2, d2) = two_colours(&rest, linked);
            format!(
                "{name} on {}: clusters {} against {}, and {} against {}, joined where their cells see each other: {removes}",
                w.digit(d),
                w.cells(&a),
                w.cells(&b),
                w.cells(&c2),
                w.cells(&d2)
            )
        }
        _ => return None,
    })
}

/// Splits the first cluster of `cells` reachable from `cells[0]` by
/// `linked` into its two colours (breadth first); cells not reached are
/// left out.
fn two_colours(cells: &[usize], linked: impl Fn(usize, usize) -> bool) -> (Vec<usize>, Vec<usize>) {
    let Some(&start) = cells.first() else {
        return (Vec::new(), Vec::new());
    };
    let mut colour: BTreeMap<usize, bool> = BTreeMap::new();
    colour.insert(start, false);
    let mut queue = vec![start];
    let mut head = 0;
    while head < queue.len() {
        let x = queue[head];
        head += 1;
        let cx = colour.get(&x).copied().unwrap_or(false);
        for &y in cells {
            if y != x && !colour.contains_key(&y) && linked(x, y) {
                colour.insert(y, !cx);
                queue.push(y);
            }
        }
    }
    let pick = |want: bool| -> Vec<usize> {
        queue
            .iter()
            .copied()
            .filter(|c| colour.get(c) == Some(&want))
            .collect()
    };
    (pick(false), pick(true))
}

#[cfg(test)]
mod tests {
    use crate::grid::{BoxShape, Grid};
    use crate::logic::{Solver, Technique};

    fn board_with_only(d: u8, keep: &[usize]) -> Solver {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        for c in 0..81 {
            if !keep.contains(&c) {
                b.cands[c] &= !(1 << (d - 1));
            }
        }
        b
    }

    #[test]
    fn remote_pair_strikes_both_digits() {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        // {1,2} at r1c1, r1c5, r5c5, r5c9: r1c1 and r5c9 have opposite
        // colours; r5c1 sees r1c1 (column) and r5c5 (row) too, and r1c9
        // sees r1c1 and r5c9.
        for c in [0, 4, 40, 44] {
            b.cands[c] = 0b11;
        }
        assert!(b.find(Technique::RemotePair));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::RemotePair);
        assert_eq!(s.digits, vec![1, 2]);
        assert!(s.eliminated.contains(&(8, 1)) && s.eliminated.contains(&(8, 2)));
        assert!(s.eliminated.contains(&(36, 1)));
        assert!(!s.eliminated.iter().any(|&(c, _)| c == 80));
    }

    #[test]
    fn simple_colouring_wrap() {
        // Strong links on 1: r1c1=r1c5 (row 1), r1c5=r3c6 (box 2),
        // r3c6=r8c6 (column 6), r8c6=r8c1 (row 8). Column 1 holds a third
        // place (r5c1), so r1c1 and r8c1 share a colour and see each other:
        // that colour is false.
        let mut b = board_with_only(1, &[0, 4, 23, 68, 63, 36]);
        assert!(b.find(Technique::SimpleColouring));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::SimpleColouring);
        assert_eq!(s.eliminated, vec![(0, 1), (23, 1), (63, 1)]);
    }

    #[test]
    fn simple_colouring_trap() {
        // As above, but row 8 holds a third place (r8c9): the cluster ends
        // at r8c6, and r8c1 sees r1c1 and r8c6, of opposite colours.
        let mut b = board_with_only(1, &[0, 4, 23, 68, 63, 36, 71]);
        assert!(b.find(Technique::SimpleColouring));
        let s = b.steps().last().unwrap();
        assert_eq!(s.eliminated, vec![(63, 1)]);
    }

    #[test]
    fn multi_colouring_type_1() {
        // Two clusters on 1: r1c1=r1c5 (row 1) and r2c6=r7c6 (column 6).
        // r1c5 sees r2c6 (box 2), so r1c1 or r7c6 holds 1: r7c1, seeing
        // both, loses it. Third places (r2c1, r2c2, r3c4, r5c1, r7c9) keep
        // boxes 1 and 2, rows 2 and 7 and column 1 from linking.
        let keep = [0, 4, 9, 10, 14, 21, 36, 54, 59, 62];
        let mut b = board_with_only(1, &keep);
        assert!(!b.find(Technique::SimpleColouring));
        assert!(b.find(Technique::MultiColouring));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::MultiColouring);
        assert_eq!(s.eliminated, vec![(54, 1)]);
    }
}
