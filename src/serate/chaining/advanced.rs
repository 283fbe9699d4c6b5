//! The "+" of SE's dynamic forcing chains plus (nesting level 1): when a
//! run has nothing left to follow, the simple rules — locking, hidden
//! pairs, naked pairs, X-wings, in that order — are asked on the working
//! grid; all hints of the first rule that gives any whose pattern needed
//! a strike of the run (its "rule parents") become new "offs", with those
//! strikes as parents.

use super::super::grid::{bits, crosses, pop, Grid, REGION_CELLS};
use super::super::singles::LOCKING_KINDS;
use super::graph::{key, Arena};

/// One deduction: the candidates it strikes and the run's strikes it
/// needed, as (cell, digit).
struct Found {
    strikes: Vec<(usize, u8)>,
    parents: Vec<(usize, u8)>,
}

/// The new "offs" (key, parent nodes, nested chain) the simple rules
/// give on `cur`, the working grid of a run that began on `start`; at
/// `level` 2 or more, when they give none, the nested chainers'.
pub fn potentials(
    start: &Grid,
    cur: &Grid,
    arena: &mut Arena,
    level: u8,
    out: &mut Vec<(u16, Vec<u32>, Option<u32>)>,
) {
    out.clear();
    let rules: [fn(&Grid, &Grid) -> Vec<Found>; 4] = [locking, hidden_pairs, naked_pairs, x_wings];
    for rule in rules {
        for f in rule(start, cur) {
            if f.parents.is_empty() {
                continue;
            }
            let parents: Vec<u32> = f
                .parents
                .iter()
                .filter_map(|&(c, d)| arena.get(key(c, d, false)))
                .collect();
            for &(c, d) in &f.strikes {
                out.push((key(c, d, false), parents.clone(), None));
            }
        }
        if !out.is_empty() {
            return;
        }
    }
    if level >= 2 {
        super::nested::potentials(start, cur, arena, level, out);
    }
}

fn locking(start: &Grid, g: &Grid) -> Vec<Found> {
    let mut out = Vec::new();
    for (k1, k2) in LOCKING_KINDS {
        for r1 in k1 * 9..k1 * 9 + 9 {
            for r2 in k2 * 9..k2 * 9 + 9 {
                if !crosses(r1, r2) {
                    continue;
                }
                for d in 1..=9u8 {
                    let pos = g.positions(r1, d);
                    if pop(pos) <= 1 {
                        continue;
                    }
                    let in2 = |c: &u8| REGION_CELLS[r2].contains(c);
                    if !bits(pos).all(|i| in2(&REGION_CELLS[r1][i])) {
                        continue;
                    }
                    let strikes: Vec<(usize, u8)> = REGION_CELLS[r2]
                        .iter()
                        .filter(|&&c| !REGION_CELLS[r1].contains(&c) && g.has(c as usize, d))
                        .map(|&c| (c as usize, d))
                        .collect();
                    if strikes.is_empty() {
                        continue;
                    }
                    let parents = REGION_CELLS[r1]
                        .iter()
                        .filter(|c| !in2(c))
                        .map(|&c| c as usize)
                        .filter(|&c| start.has(c, d) && !g.has(c, d))
                        .map(|c| (c, d))
                        .collect();
                    out.push(Found { strikes, parents });
                }
            }
        }
    }
    out
}

const KINDS_BCR: [usize; 3] = [0, 2, 1];

fn pairs() -> impl Iterator<Item = u16> {
    super::super::subsets::tuples(2)
}

fn hidden_pairs(start: &Grid, g: &Grid) -> Vec<Found> {
    let mut out = Vec::new();
    for kind in KINDS_BCR {
        for r in kind * 9..kind * 9 + 9 {
            if g.empty_count(r) <= 4 {
                continue;
            }
            let cells = &REGION_CELLS[r];
            for t in pairs() {
                let values = t << 1;
                let (mut union, mut ok) = (0u16, true);
                for i in bits(t) {
                    let p = g.positions(r, i as u8 + 1);
                    ok &= pop(p) > 1;
                    union |= p;
                }
                if !ok || pop(union) != 2 {
                    continue;
                }
                let mut strikes = Vec::new();
                for i in bits(union) {
                    let c = cells[i] as usize;
                    for v in super::super::grid::digits(g.cands[c] & !values) {
                        strikes.push((c, v));
                    }
                }
                if strikes.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for i in (0..9).filter(|i| union >> i & 1 == 0) {
                    let c = cells[i] as usize;
                    for v in super::super::grid::digits(start.cands[c] & values) {
                        parents.push((c, v));
                    }
                }
                out.push(Found { strikes, parents });
            }
        }
    }
    out
}

fn naked_pairs(start: &Grid, g: &Grid) -> Vec<Found> {
    let mut out = Vec::new();
    for kind in KINDS_BCR {
        for r in kind * 9..kind * 9 + 9 {
            if g.empty_count(r) < 4 {
                continue;
            }
            let cells = &REGION_CELLS[r];
            for t in pairs() {
                let (mut union, mut ok) = (0u16, true);
                for i in bits(t) {
                    let p = g.cands[cells[i] as usize];
                    ok &= pop(p) > 1;
                    union |= p;
                }
                if !ok || pop(union) != 2 {
                    continue;
                }
                let mut strikes = Vec::new();
                for i in (0..9).filter(|i| t >> i & 1 == 0) {
                    let c = cells[i] as usize;
                    for v in super::super::grid::digits(g.cands[c] & union) {
                        strikes.push((c, v));
                    }
                }
                if strikes.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for i in bits(t) {
                    let c = cells[i] as usize;
                    for v in super::super::grid::digits(start.cands[c] & !union) {
                        parents.push((c, v));
                    }
                }
                out.push(Found { strikes, parents });
            }
        }
    }
    out
}

fn x_wings(start: &Grid, g: &Grid) -> Vec<Found> {
    let mut out = Vec::new();
    let mut placed = [0u32; 10];
    for d in 1..=9u8 {
        placed[d as usize] = g.count_value(d);
    }
    for (base, cover) in [(2usize, 1usize), (1, 2)] {
        for t in pairs() {
            for d in 1..=9u8 {
                if placed[d as usize] + 4 > 9 {
                    continue;
                }
                let (mut union, mut ok) = (0u16, true);
                for i in bits(t) {
                    let p = g.positions(base * 9 + i, d);
                    ok &= pop(p) > 1;
                    union |= p;
                }
                if !ok || pop(union) != 2 {
                    continue;
                }
                let mut strikes = Vec::new();
                let mut covered = 0u128;
                for i in bits(union) {
                    let r = cover * 9 + i;
                    for &c in &REGION_CELLS[r] {
                        covered |= 1 << c;
                    }
                    for j in bits(g.positions(r, d) & !t) {
                        strikes.push((REGION_CELLS[r][j] as usize, d));
                    }
                }
                if strikes.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for i in bits(t) {
                    for &c in &REGION_CELLS[base * 9 + i] {
                        let c = c as usize;
                        if covered >> c & 1 == 0 && start.has(c, d) && !g.has(c, d) {
                            parents.push((c, d));
                        }
                    }
                }
                out.push(Found { strikes, parents });
            }
        }
    }
    out
}
