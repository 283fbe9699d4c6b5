//! Aligned pair and triple exclusion as SE finds them (the cells need not
//! be aligned: any cells whose common "excluders", house cells with two
//! or three candidates, rule out combinations of their values).

use super::grid::{Grid, PEERS};
use super::rules::{Hint, Rule};

/// The first aligned exclusion of `degree` (2 or 3) cells that strikes.
pub fn aligned_exclusion(g: &Grid, degree: usize) -> Option<Hint> {
    // Candidate cells and their excluders (as cell bit sets and lists).
    let mut list: Vec<usize> = Vec::new();
    let mut excl: [u128; 81] = [0; 81];
    let mut excl_order: Vec<Vec<usize>> = vec![Vec::new(); 81];
    for c in 0..81 {
        if g.cands[c].count_ones() < 2 {
            continue;
        }
        let mut naked = false;
        for h in Grid::house_cells(c) {
            let n = g.cands[h].count_ones() as usize;
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
    if common.count_ones() < 2 {
        return None;
    }
    let excluders: Vec<u16> = (0..81)
        .filter(|&c| common >> c & 1 == 1)
        .map(|c| g.cands[c])
        .collect();
    let mut allowed = [0u16; 3];
    let n = cells.len();
    let mut pick = [0u8; 3];
    combos(g, cells, 0, &mut pick, &mut |vals: &[u8]| {
        for a in 0..n {
            for b in a + 1..n {
                if vals[a] == vals[b] && PEERS[cells[a]] >> cells[b] & 1 == 1 {
                    return;
                }
            }
        }
        let set = vals.iter().fold(0u16, |m, &v| m | 1 << v);
        if excluders.iter().any(|&e| e & !set == 0) {
            return;
        }
        for (k, &v) in vals.iter().enumerate() {
            allowed[k] |= 1 << v;
        }
    });
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

fn combos(g: &Grid, cells: &[usize], k: usize, pick: &mut [u8; 3], f: &mut impl FnMut(&[u8])) {
    if k == cells.len() {
        f(&pick[..k]);
        return;
    }
    for d in super::grid::digits(g.cands[cells[k]]) {
        pick[k] = d;
        combos(g, cells, k + 1, pick, f);
    }
}
