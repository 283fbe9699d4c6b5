//! Aligned pair and triple exclusion as SE finds them (the cells need not
//! be aligned: any cells whose common "excluders", house cells with two
//! or three candidates, rule out combinations of their values).

use super::grid::{digits, pop, Grid, HOUSE_PARTS, PEERS};
use super::rules::{Hint, Rule};

/// The first aligned exclusion of `degree` (2 or 3) cells that strikes.
pub fn aligned_exclusion(g: &Grid, degree: usize) -> Option<Hint> {
    // Candidate cells (in SE's order) and their excluders as cell sets.
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
    let list = &list[..len];
    if list.len() < degree {
        return None;
    }
    let mut at = [0u8; 81]; // each candidate cell's index in the list
    for (i, &c) in list.iter().enumerate() {
        at[c as usize] = i as u8;
    }
    let in_list: u128 = list.iter().fold(0, |m, &c| m | 1 << c);
    for i in 0..list.len() {
        for j in i + 1..list.len() {
            let (c0, c1) = (list[i] as usize, list[j] as usize);
            if degree == 2 {
                if let Some(h) = exclusion(g, &[c0, c1], excl[c0] & excl[c1]) {
                    return Some(h);
                }
                continue;
            }
            // No third cell can give two common excluders when these two
            // have fewer.
            if fewer_than_two(excl[c0] & excl[c1]) {
                continue;
            }
            // The twin area: excluders of either, in SE's order (c0's
            // house cells, then c1's), that are candidate cells themselves.
            let mut seen = 1u128 << c0 | 1u128 << c1;
            for c in [c0, c1] {
                for part in HOUSE_PARTS[c] {
                    let mut rest = part & excl[c] & in_list & !seen;
                    seen |= rest;
                    while rest != 0 {
                        let c2 = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        if tried_before(&excl, &at, [c0, c1, c2]) {
                            continue;
                        }
                        let common = excl[c0] & excl[c1] & excl[c2];
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
    let mut rest = common;
    while rest != 0 {
        let c = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        ex.add(g.cands[c]);
    }
    let n = cells.len();
    let peer = |a: usize, b: usize| PEERS[cells[a]] >> cells[b] & 1 == 1;
    let (p01, p02, p12) = (peer(0, 1), n == 3 && peer(0, 2), n == 3 && peer(1, 2));
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
