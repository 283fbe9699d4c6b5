//! Aligned pair and triple exclusion as SE finds them (the cells need not
//! be aligned: any cells whose common "excluders", house cells with two
//! or three candidates, rule out combinations of their values).

use super::grid::{digits, pop, Grid, PEERS};
use super::rules::{Hint, Rule};

/// The first aligned exclusion of `degree` (2 or 3) cells that strikes.
pub fn aligned_exclusion(g: &Grid, degree: usize) -> Option<Hint> {
    // Candidate cells and their excluders (as cell bit sets and lists).
    let mut list: Vec<usize> = Vec::new();
    let mut excl: [u128; 81] = [0; 81];
    let mut excl_order: Vec<Vec<usize>> = vec![Vec::new(); 81];
    for c in 0..81 {
        if pop(g.cands[c]) < 2 {
            continue;
        }
        let mut naked = false;
        for h in Grid::house_cells(c) {
            let n = pop(g.cands[h]) as usize;
            if n == 1 {
                naked = true;
            } else if n >= 2 && n <= degree {
                excl[c] |= 1 << h;
                excl_order[c].push(h);
            }
        }
        if !naked && excl[c] != 0 {
            list.push(c);
        }
    }
    if list.len() < degree {
        return None;
    }
    let in_list: u128 = list.iter().fold(0, |m, &c| m | 1 << c);
    for i in 0..list.len() {
        for j in i + 1..list.len() {
            let (c0, c1) = (list[i], list[j]);
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
            // The twin area: excluders of either, in SE's order, that are
            // candidate cells themselves.
            let mut tail: Vec<usize> = Vec::new();
            for &h in excl_order[c0].iter().chain(excl_order[c1].iter()) {
                if in_list >> h & 1 == 1 && h != c0 && h != c1 && !tail.contains(&h) {
                    tail.push(h);
                }
            }
            for &c2 in &tail {
                let common = excl[c0] & excl[c1] & excl[c2];
                if let Some(h) = exclusion(g, &[c0, c1, c2], common) {
                    return Some(h);
                }
            }
        }
    }
    None
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
            let set = 1 << v0 | 1 << v1;
            // An excluded pair of values leaves every third value excluded.
            if ex.excludes(set) {
                continue;
            }
            if n == 2 {
                allowed[0] |= 1 << v0;
                allowed[1] |= 1 << v1;
                continue;
            }
            for v2 in digits(g.cands[cells[2]]) {
                if (v2 == v0 && p02) || (v2 == v1 && p12) || ex.excludes(set | 1 << v2) {
                    continue;
                }
                allowed[0] |= 1 << v0;
                allowed[1] |= 1 << v1;
                allowed[2] |= 1 << v2;
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

    /// Whether some excluder's candidates are all among the values
    /// `set` (SE: some subset of two values or more is an excluder's).
    fn excludes(&self, set: u16) -> bool {
        self.sets[..self.len].iter().any(|&e| e & !set == 0)
    }
}

/// Whether a cell set has fewer than two cells.
#[inline]
fn fewer_than_two(cells: u128) -> bool {
    cells & cells.wrapping_sub(1) == 0
}
