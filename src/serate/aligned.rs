//! Aligned pair and triple exclusion as SE finds them (the cells need not
//! be aligned: any cells whose common "excluders", house cells with two
//! or three candidates, rule out combinations of their values).

use super::grid::{digits, pop, Grid, HOUSE_PARTS, PEERS};
use super::rules::{Hint, Rule};

/// The first aligned exclusion of `degree` (2 or 3) cells that strikes.
pub fn aligned_exclusion(g: &Grid, degree: usize) -> Option<Hint> {
    aligned_exclusion_after(g, degree, &mut None)
}

/// What an aligned exclusion of one degree looked at when it last found
/// nothing: the grid's candidates, the candidate cells and their
/// excluders. A combination it tried then, none of whose cells has
/// changed since, nor common peers as excluders (`Changes`), finds
/// nothing again: its strikes are a function of its cells' candidates
/// and its common excluders' alone (a speed device for a run of steps:
/// the first combination that strikes is still SE's).
#[derive(Clone)]
pub struct Seen {
    cands: [u16; 81],
    in_list: u128,
    excl: [u128; 81],
}

impl Seen {
    /// The cells whose candidates differ in `g`.
    fn changed(&self, g: &Grid) -> u128 {
        (0..81).fold(0, |m, c| m | u128::from(self.cands[c] != g.cands[c]) << c)
    }

    /// Whether the combination `cells` (2 or 3) was tried then: its cells
    /// candidate cells, two common excluders or more, and for three, one
    /// an excluder of another (the twin area of the other two).
    fn tried(&self, cells: &[usize]) -> bool {
        if cells.iter().any(|&c| self.in_list >> c & 1 == 0) {
            return false;
        }
        let common = cells.iter().fold(!0u128, |m, &c| m & self.excl[c]);
        if fewer_than_two(common) {
            return false;
        }
        let twin =
            |a: usize, b: usize, third: usize| (self.excl[a] | self.excl[b]) >> third & 1 == 1;
        match *cells {
            [a, b, c] => twin(a, b, c) || twin(a, c, b) || twin(b, c, a),
            _ => true,
        }
    }
}

impl Seen {
    /// What changed in `g` (its candidate cells `in_list`, its changed
    /// cells `changed`) for an aligned exclusion of `degree`.
    fn changes(&self, g: &Grid, degree: usize, changed: u128, in_list: u128) -> Changes {
        let some = |m: u16| (2..=degree).contains(&(pop(m) as usize));
        let mut excluders = 0;
        let mut rest = changed;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if some(self.cands[c]) || some(g.cands[c]) {
                excluders |= 1 << c;
            }
        }
        Changes {
            cells: changed,
            excluders,
            touched: changed | in_list & !self.in_list,
        }
    }
}

/// What changed since a [`Seen`] was taken.
#[derive(Clone, Copy)]
struct Changes {
    /// The cells whose candidates changed.
    cells: u128,
    /// Those with 2..=degree candidates then or now: an exclusion reads
    /// its common peers only as excluders (their candidates, when they
    /// have 2..=degree), so a common peer that was and is none (a cell
    /// of 5 candidates losing one) changes nothing.
    excluders: u128,
    /// The cells changed, and the candidate cells now that were not then.
    touched: u128,
}

impl Changes {
    /// Everything, when nothing was seen.
    const ALL: Changes = Changes {
        cells: !0,
        excluders: !0,
        touched: !0,
    };

    /// The thirds worth trying with the pair `c0`, `c1` of a triple
    /// search (a mask over the pair's twin area; 0: pass the pair). A
    /// triple of untouched cells none of whose common peers changed as
    /// an excluder was tried then and strikes nothing now
    /// ([`known_empty`]): its cells were candidate cells then, and its
    /// common excluders and twin area (the peers with 2 or 3 candidates
    /// among its own cells and common peers) are as then. Its common
    /// peers lie within those of the pair, so for an untouched pair none
    /// of whose common peers changed as an excluder, only the touched
    /// thirds remain (exact: the triples passed are among those
    /// [`known_empty`] passes; a speed device, as most pairs lie far from
    /// a step's few changed cells).
    fn thirds_to_try(&self, c0: usize, c1: usize) -> u128 {
        let pair = 1u128 << c0 | 1u128 << c1;
        if pair & self.touched != 0 || PEERS[c0] & PEERS[c1] & self.excluders != 0 {
            !0
        } else {
            self.touched
        }
    }
}

/// Whether `cells` (2 or 3), tried when `seen` was taken, can be passed:
/// neither they nor their common peers as excluders (`changes`) have
/// changed.
fn known_empty(seen: Option<&Seen>, changes: &Changes, cells: &[usize]) -> bool {
    let Some(seen) = seen else {
        return false;
    };
    let mut support = !0u128;
    let mut own = 0u128;
    for &c in cells {
        support &= PEERS[c];
        own |= 1 << c;
    }
    own & changes.cells == 0 && support & changes.excluders == 0 && seen.tried(cells)
}

/// [`aligned_exclusion`] after an earlier call of the same degree on an
/// earlier grid of the same run (`seen`, `None` at first): the
/// combinations that cannot have changed are passed, and `seen` is
/// updated when nothing strikes.
pub fn aligned_exclusion_after(g: &Grid, degree: usize, seen: &mut Option<Seen>) -> Option<Hint> {
    let changed = seen.as_ref().map_or(!0, |s| s.changed(g));
    let before = seen.as_ref().filter(|_| changed != 0);
    if seen.is_some() && changed == 0 {
        return None; // the same grid: nothing struck then
    }
    let (list, len, excl) = candidate_cells(g, degree);
    let list = &list[..len];
    let in_list: u128 = list.iter().fold(0, |m, &c| m | 1 << c);
    let changes = before.map_or(Changes::ALL, |b| b.changes(g, degree, changed, in_list));
    let found = first_exclusion(g, degree, list, &excl, in_list, before, &changes);
    if found.is_none() {
        *seen = Some(Seen {
            cands: g.cands,
            in_list,
            excl,
        });
    }
    found
}

/// The candidate cells of an aligned exclusion of `degree` (in SE's
/// order, the list's first `len`: cells with two candidates or more, no
/// single among their peers and an excluder) and each cell's excluders
/// (its peers with 2..=`degree` candidates) as cell sets.
fn candidate_cells(g: &Grid, degree: usize) -> ([u8; 81], usize, [u128; 81]) {
    let mut list = [0u8; 81];
    let mut len = 0;
    let mut excl: [u128; 81] = [0; 81];
    let mut some = 0u128; // cells with 2..=degree candidates
    let mut singles = 0u128; // cells with one candidate
    for c in 0..81 {
        match pop(g.cands[c]) as usize {
            1 => singles |= 1 << c,
            n if n >= 2 && n <= degree => some |= 1 << c,
            _ => {}
        }
    }
    for c in 0..81 {
        if pop(g.cands[c]) < 2 || PEERS[c] & singles != 0 {
            continue;
        }
        excl[c] = PEERS[c] & some;
        if excl[c] != 0 {
            list[len] = c as u8;
            len += 1;
        }
    }
    (list, len, excl)
}

/// The search of [`aligned_exclusion_after`] over the candidate cells
/// `list` (in SE's order, their excluders `excl`).
fn first_exclusion(
    g: &Grid,
    degree: usize,
    list: &[u8],
    excl: &[u128; 81],
    in_list: u128,
    before: Option<&Seen>,
    changes: &Changes,
) -> Option<Hint> {
    if list.len() < degree {
        return None;
    }
    let mut at = [0u8; 81]; // each candidate cell's index in the list
    for (i, &c) in list.iter().enumerate() {
        at[c as usize] = i as u8;
    }
    for i in 0..list.len() {
        for j in i + 1..list.len() {
            let (c0, c1) = (list[i] as usize, list[j] as usize);
            // No exclusion without two common excluders, and no third
            // cell can give two when these two have fewer.
            if fewer_than_two(excl[c0] & excl[c1]) {
                continue;
            }
            if degree == 2 {
                if known_empty(before, changes, &[c0, c1]) {
                    continue;
                }
                if let Some(h) = exclusion(g, &[c0, c1], excl[c0] & excl[c1]) {
                    return Some(h);
                }
                continue;
            }
            let keep = changes.thirds_to_try(c0, c1);
            if (excl[c0] | excl[c1]) & in_list & keep == 0 {
                continue;
            }
            // The twin area: excluders of either, in SE's order (c0's
            // house cells, then c1's), that are candidate cells themselves.
            let mut seen = 1u128 << c0 | 1u128 << c1;
            for c in [c0, c1] {
                for part in HOUSE_PARTS[c] {
                    let mut rest = part & excl[c] & in_list & !seen;
                    seen |= rest;
                    rest &= keep;
                    while rest != 0 {
                        let c2 = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let common = excl[c0] & excl[c1] & excl[c2];
                        if fewer_than_two(common)
                            || tried_before(excl, &at, [c0, c1, c2])
                            || known_empty(before, changes, &[c0, c1, c2])
                        {
                            continue; // (the first: as `exclusion` would find)
                        }
                        if let Some(h) = exclusion(g, &[c0, c1, c2], common) {
                            return Some(h);
                        }
                    }
                }
            }
        }
    }
    None
}

/// Whether the triple `cells` (the first two a pair of the search, in
/// the order of the list of candidate cells whose indexes are `at`, the
/// third from their twin area) was tried already at an earlier pair, the
/// other cell in that pair's twin area (the excluders of either). It
/// struck nothing then, and an exclusion on the same cells in another
/// order strikes the same: trying it again would find nothing (a speed
/// device: the first triple that strikes is still SE's).
fn tried_before(excl: &[u128; 81], at: &[u8; 81], cells: [usize; 3]) -> bool {
    let [c0, c1, c2] = cells;
    let twin = |a: usize, b: usize, third: usize| (excl[a] | excl[b]) >> third & 1 == 1;
    if at[c2] > at[c1] {
        false // (c0, c1) is the triple's first pair
    } else if at[c2] > at[c0] {
        twin(c0, c2, c1) // the pair (c0, c2) came first
    } else {
        twin(c2, c0, c1) || twin(c2, c1, c0) // (c2, c0), then (c2, c1)
    }
}

/// The strikes of one aligned exclusion on `cells` with the common
/// excluders `common` (at least two needed).
fn exclusion(g: &Grid, cells: &[usize], common: u128) -> Option<Hint> {
    if fewer_than_two(common) {
        return None;
    }
    // The excluders' candidate sets, each once.
    let mut ex = Excluders::default();
    let mut union = 0;
    let mut rest = common;
    while rest != 0 {
        let c = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        ex.add(g.cands[c]);
        union |= g.cands[c];
    }
    let n = cells.len();
    let peer = |a: usize, b: usize| PEERS[cells[a]] >> cells[b] & 1 == 1;
    let (p01, p02, p12) = (peer(0, 1), n == 3 && peer(0, 2), n == 3 && peer(1, 2));
    let free = |k: usize| cells.get(k).map_or(0, |&c| pop(g.cands[c] & !union));
    if all_free(n, [free(0), free(1), free(2)], [p01, p02, p12]) {
        return None;
    }
    let mut allowed = [0u16; 3];
    for v0 in digits(g.cands[cells[0]]) {
        for v1 in digits(g.cands[cells[1]]) {
            if v0 == v1 && p01 {
                continue;
            }
            // An excluded pair of values leaves every third value excluded.
            let Some(thirds) = ex.thirds(1 << v0 | 1 << v1) else {
                continue;
            };
            if n == 2 {
                allowed[0] |= 1 << v0;
                allowed[1] |= 1 << v1;
                continue;
            }
            let mut ok = g.cands[cells[2]] & !thirds;
            if p02 {
                ok &= !(1 << v0);
            }
            if p12 {
                ok &= !(1 << v1);
            }
            if ok != 0 {
                allowed[0] |= 1 << v0;
                allowed[1] |= 1 << v1;
                allowed[2] |= ok;
                if (0..3).all(|k| allowed[k] == g.cands[cells[k]]) {
                    return None; // every candidate allowed: nothing to strike
                }
            }
        }
    }
    let removals: Vec<(u8, u16)> = (0..n)
        .map(|k| (cells[k] as u8, g.cands[cells[k]] & !allowed[k]))
        .filter(|&(_, m)| m != 0)
        .collect();
    let rule = if n == 2 {
        Rule::AlignedPair
    } else {
        Rule::AlignedTriple
    };
    (!removals.is_empty()).then(|| Hint::striking(rule, removals))
}

/// Whether every value of every cell goes with values of the others
/// that are all outside the excluders' candidates (`free`: how many
/// each of the `n` cells has) and differ where the cells are peers
/// (`peers`: 0-1, 0-2, 1-2): such values exclude nothing (an excluder
/// has two values or more), so nothing can be struck (a speed device:
/// it skips the search).
fn all_free(n: usize, free: [u32; 3], peers: [bool; 3]) -> bool {
    let [p01, p02, p12] = peers.map(u32::from);
    if n == 2 {
        return free[1] > p01 && free[0] > p01;
    }
    // Cell k's value v, then a value of i (not v if peers), then one of
    // j (not v, not i's, if peers); or j first.
    let each = |(fi, pki): (u32, u32), (fj, pkj): (u32, u32), pij: u32| {
        (fi > pki && fj > pkj + pij) || (fj > pkj && fi > pki + pij)
    };
    each((free[1], p01), (free[2], p02), p12)
        && each((free[0], p01), (free[2], p12), p02)
        && each((free[0], p02), (free[1], p12), p01)
}

/// The distinct candidate sets of the common excluders.
#[derive(Default)]
struct Excluders {
    sets: [u16; 20],
    len: usize,
}

impl Excluders {
    fn add(&mut self, set: u16) {
        if self.len < self.sets.len() && !self.sets[..self.len].contains(&set) {
            self.sets[self.len] = set;
            self.len += 1;
        }
    }

    /// For two values `pair` (or one, twice): `None` when some
    /// excluder's candidates are all among them (SE: some subset of two
    /// values or more is an excluder's), else the third values that would
    /// make up an excluder's candidates with them.
    fn thirds(&self, pair: u16) -> Option<u16> {
        let mut out = 0;
        for &e in &self.sets[..self.len] {
            let rest = e & !pair;
            if rest == 0 {
                return None;
            }
            if rest & (rest - 1) == 0 {
                out |= rest;
            }
        }
        Some(out)
    }
}

/// Whether a cell set has fewer than two cells.
#[inline]
fn fewer_than_two(cells: u128) -> bool {
    cells & cells.wrapping_sub(1) == 0
}

#[cfg(test)]
mod tests {
    use super::{
        aligned_exclusion, aligned_exclusion_after, all_free, candidate_cells, fewer_than_two,
        known_empty, Seen,
    };
    use crate::serate::grid::{parse, Grid};

    /// SE's aligned triple (7.5), and top1465 puzzles with aligned pairs
    /// and triples on their way.
    const RUNS: [&str; 4] = [
        "7.......4...29....6...8..5....7..8...8...1.9...4.3.2...2.3....6176....2.4........",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "..85.4..7.1..86..4.7....1..5...4...639...7..........39.5.3...2...14..6....3......",
        ".......4...49.3..6.78....5..2...7.....356...7.4......9...3....1...642.8......52..",
    ];

    /// Along SE's run of each puzzle, the aligned exclusions after the
    /// run's earlier grids (the passes of [`Seen`]) find what a search
    /// from scratch finds, strikes included.
    #[test]
    fn after_an_earlier_grid_the_same_exclusions_are_found() {
        let (mut found, mut passed) = (0, 0);
        for p in RUNS {
            let mut g = Grid::new(&parse(p).unwrap());
            let mut seen: [Option<Seen>; 2] = [None, None];
            while !g.is_solved() {
                for (k, degree) in [2, 3].into_iter().enumerate() {
                    let had = seen[k].is_some();
                    let fresh = aligned_exclusion(&g, degree);
                    let after = aligned_exclusion_after(&g, degree, &mut seen[k]);
                    assert_eq!(after, fresh, "{p}, degree {degree}");
                    found += usize::from(fresh.is_some());
                    passed += usize::from(had);
                }
                let Some(h) = crate::serate::next_hint(&g, false) else {
                    break;
                };
                h.apply(&mut g);
            }
        }
        assert!(found > 0 && passed > 0, "found {found}, passed {passed}");
    }

    /// Whether the combination `cells`, with the excluders `excl` in
    /// `g`, reads what it read when `seen` was taken (its cells were
    /// candidate cells then, and tried; the same candidates in its cells,
    /// the same common excluders with the same candidates): found from
    /// the definition, cell by cell.
    fn unchanged_since(seen: &Seen, g: &Grid, excl: &[u128; 81], cells: &[usize]) -> bool {
        let common = |e: &[u128; 81]| cells.iter().fold(!0u128, |m, &c| m & e[c]);
        let (now, then) = (common(excl), common(&seen.excl));
        seen.tried(cells)
            && now == then
            && cells.iter().all(|&c| seen.cands[c] == g.cands[c])
            && (0..81).all(|c| now >> c & 1 == 0 || seen.cands[c] == g.cands[c])
    }

    /// Along SE's run of each puzzle, every pair and triple the search
    /// passes ([`Changes::thirds_to_try`], [`known_empty`]) reads what it
    /// read when it was tried on the last grid without a strike: the
    /// passes drop no combination that could strike now.
    #[test]
    fn the_combinations_passed_were_tried_unchanged() {
        let (mut passed, mut kept) = ([0; 2], [0; 2]);
        for p in RUNS {
            let mut g = Grid::new(&parse(p).unwrap());
            let mut seen: [Option<Seen>; 2] = [None, None];
            while !g.is_solved() {
                for (k, degree) in [2, 3].into_iter().enumerate() {
                    if let Some(before) = &seen[k] {
                        let (list, len, excl) = candidate_cells(&g, degree);
                        let list: Vec<usize> = list[..len].iter().map(|&c| c.into()).collect();
                        let in_list = list.iter().fold(0u128, |m, &c| m | 1 << c);
                        let changes = before.changes(&g, degree, before.changed(&g), in_list);
                        for (i, &c0) in list.iter().enumerate() {
                            for &c1 in &list[i + 1..] {
                                let keep = changes.thirds_to_try(c0, c1);
                                let area = (excl[c0] | excl[c1]) & in_list & !(1 << c0 | 1 << c1);
                                let thirds = (0..81).filter(|&c| area >> c & 1 == 1);
                                let mut combos: Vec<Vec<usize>> =
                                    thirds.map(|c2| vec![c0, c1, c2]).collect();
                                if degree == 2 {
                                    combos = vec![vec![c0, c1]];
                                }
                                for cells in combos {
                                    let common = cells.iter().fold(!0u128, |m, &c| m & excl[c]);
                                    if fewer_than_two(common) {
                                        continue; // (not tried)
                                    }
                                    let pass = known_empty(Some(before), &changes, &cells)
                                        || degree == 3 && keep >> cells[2] & 1 == 0;
                                    if pass {
                                        assert!(unchanged_since(before, &g, &excl, &cells), "{p}");
                                        passed[k] += 1;
                                    } else {
                                        kept[k] += 1;
                                    }
                                }
                            }
                        }
                    }
                    aligned_exclusion_after(&g, degree, &mut seen[k]);
                }
                let Some(h) = crate::serate::next_hint(&g, false) else {
                    break;
                };
                h.apply(&mut g);
            }
        }
        let some = |n: [usize; 2]| n.iter().all(|&n| n > 0);
        assert!(
            some(passed) && some(kept),
            "passed {passed:?}, kept {kept:?}"
        );
    }

    /// Whether every value of every cell has an assignment of the others
    /// that differs where peers and holds no excluder (brute force).
    fn every_value_allowed(cands: &[u16], peers: [bool; 3], excluders: &[u16]) -> bool {
        let n = cands.len();
        let peer = |a: usize, b: usize| match (a.min(b), a.max(b)) {
            (0, 1) => peers[0],
            (0, 2) => peers[1],
            _ => peers[2],
        };
        let digits = |m: u16| (1..=9u8).filter(move |d| m >> d & 1 == 1);
        let mut allowed = vec![0u16; n];
        let third = if n == 3 { cands[2] } else { 1 << 10 };
        for a in digits(cands[0]) {
            for b in digits(cands[1]) {
                for c in (1..=10u8).filter(|d| third >> d & 1 == 1) {
                    let vals = [a, b, c];
                    let clash =
                        (0..n).any(|i| (i + 1..n).any(|j| vals[i] == vals[j] && peer(i, j)));
                    let set = vals[..n].iter().fold(0u16, |m, &v| m | 1 << v);
                    if clash || excluders.iter().any(|&e| e & !set == 0) {
                        continue;
                    }
                    for k in 0..n {
                        allowed[k] |= 1 << vals[k];
                    }
                }
            }
        }
        allowed == cands
    }

    #[test]
    fn all_free_only_when_nothing_can_be_struck() {
        // Excluders on 1, 2, 3 (any two of them); each cell some of these
        // and some of the free values 4, 5, 6 (the same in every cell:
        // the hardest case for values that must differ).
        let excluders = [0b0110, 0b1010, 0b1100];
        let union = 0b1110u16;
        let cell = |o: u32| ((o % 8) as u16) << 1 | ((1u16 << (o / 8)) - 1) << 4;
        let (mut claimed, mut struck) = (0, 0);
        for n in [2usize, 3] {
            for p in 0..8u8 {
                let peers = [p & 1 != 0, p & 2 != 0 && n == 3, p & 4 != 0 && n == 3];
                for o in 0..32u32.pow(n as u32) {
                    let cands: Vec<u16> = (0..n).map(|k| cell(o >> (5 * k) & 31)).collect();
                    if cands.iter().any(|c| c.count_ones() < 2) {
                        continue;
                    }
                    let free =
                        [0, 1, 2].map(|k| cands.get(k).map_or(0, |c| (c & !union).count_ones()));
                    let all_allowed = every_value_allowed(&cands, peers, &excluders);
                    struck += usize::from(!all_allowed);
                    if all_free(n, free, peers) {
                        claimed += 1;
                        assert!(all_allowed, "cells {cands:?}, peers {peers:?}");
                    }
                }
            }
        }
        assert!(claimed > 0 && struck > 0);
    }
}
