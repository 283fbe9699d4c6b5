//! Naked and hidden sets (pairs, triples, quads) and fish (X-wing,
//! swordfish, jellyfish), in SE's search order: regions by kind (blocks,
//! columns, rows), tuples in SE's order of combinations (increasing as
//! 9-bit numbers).

use super::grid::{bits, pop, Grid, REGION_CELLS};
use super::rules::{Hint, Rule};

/// The k-subsets of 0..9 as 9-bit masks, in SE's order (k of 2 to 4;
/// other k give none).
pub fn tuples(k: u32) -> impl Iterator<Item = u16> {
    let list: &'static [u16] = match k {
        2 => &TUPLES_2,
        3 => &TUPLES_3,
        4 => &TUPLES_4,
        _ => &[],
    };
    list.iter().copied()
}

const TUPLES_2: [u16; 36] = tuple_table();
const TUPLES_3: [u16; 84] = tuple_table();
const TUPLES_4: [u16; 126] = tuple_table();

/// The 9-bit masks with as many bits as make `N` of them, increasing.
const fn tuple_table<const N: usize>() -> [u16; N] {
    let k = match N {
        36 => 2,
        84 => 3,
        _ => 4,
    };
    let mut out = [0u16; N];
    let (mut m, mut n) = (0u16, 0);
    while m < 512 && n < N {
        if m.count_ones() == k {
            out[n] = m;
            n += 1;
        }
        m += 1;
    }
    out
}

/// SE's `searchCommonTuple`: every set has two members or more and their
/// union has exactly `k`.
fn common_tuple(sets: &[u16], k: u32) -> Option<u16> {
    let mut union = 0;
    for &s in sets {
        if pop(s) <= 1 {
            return None;
        }
        union |= s;
    }
    (pop(union) == k).then_some(union)
}

const KINDS_BCR: [usize; 3] = [0, 2, 1];

/// The first naked set of `degree` cells with something to strike.
pub fn naked_set(g: &Grid, degree: u32) -> Option<Hint> {
    let rule = match degree {
        2 => Rule::NakedPair,
        3 => Rule::NakedTriple,
        _ => Rule::NakedQuad,
    };
    for kind in KINDS_BCR {
        for r in kind * 9..kind * 9 + 9 {
            if g.empty_count(r) < degree * 2 {
                continue;
            }
            let cells = &REGION_CELLS[r];
            for t in tuples(degree) {
                let mut sets = [0u16; 4];
                for (n, i) in bits(t).enumerate() {
                    sets[n] = g.cands[cells[i] as usize];
                }
                let Some(common) = common_tuple(&sets[..degree as usize], degree) else {
                    continue;
                };
                let removals: Vec<(u8, u16)> = (0..9)
                    .filter(|i| t >> i & 1 == 0)
                    .map(|i| (cells[i], g.cands[cells[i] as usize] & common))
                    .filter(|&(_, m)| m != 0)
                    .collect();
                if !removals.is_empty() {
                    return Some(Hint::striking(rule, removals));
                }
            }
        }
    }
    None
}

/// The first hidden set of `degree` digits. Direct: only one that leaves
/// a hidden single of another digit in its region, applied as that
/// placement.
pub fn hidden_set(g: &Grid, degree: u32, direct: bool) -> Option<Hint> {
    let rule = match (degree, direct) {
        (2, true) => Rule::DirectHiddenPair,
        (3, true) => Rule::DirectHiddenTriple,
        (2, false) => Rule::HiddenPair,
        (3, false) => Rule::HiddenTriple,
        _ => Rule::HiddenQuad,
    };
    for kind in KINDS_BCR {
        for r in kind * 9..kind * 9 + 9 {
            let empty = g.empty_count(r);
            if !(empty > degree * 2 || (direct && empty > degree)) {
                continue;
            }
            let cells = &REGION_CELLS[r];
            let mut pos = [0u16; 10];
            for d in 1..=9u8 {
                pos[d as usize] = g.positions(r, d);
            }
            for t in tuples(degree) {
                let values = t << 1; // digits as a candidate mask
                let mut sets = [0u16; 4];
                for (n, i) in bits(t).enumerate() {
                    sets[n] = pos[i + 1];
                }
                let Some(common) = common_tuple(&sets[..degree as usize], degree) else {
                    continue;
                };
                if direct {
                    for d in 1..=9u8 {
                        if values & (1 << d) != 0 || pop(pos[d as usize]) <= 1 {
                            continue;
                        }
                        let rest = pos[d as usize] & !common;
                        if pop(rest) == 1 {
                            let cell = cells[rest.trailing_zeros() as usize] as usize;
                            return Some(Hint::placing(rule, cell, d));
                        }
                    }
                    continue;
                }
                let removals: Vec<(u8, u16)> = bits(common)
                    .map(|i| (cells[i], g.cands[cells[i] as usize] & !values))
                    .filter(|&(_, m)| m != 0)
                    .collect();
                if !removals.is_empty() {
                    return Some(Hint::striking(rule, removals));
                }
            }
        }
    }
    None
}

/// The first fish of `degree` lines: base columns (strikes in rows),
/// then base rows.
pub fn fish(g: &Grid, degree: u32) -> Option<Hint> {
    let rule = match degree {
        2 => Rule::XWing,
        3 => Rule::Swordfish,
        _ => Rule::Jellyfish,
    };
    let mut placed = [0u32; 10];
    for d in 1..=9u8 {
        placed[d as usize] = g.count_value(d);
    }
    for (base, cover) in [(2usize, 1usize), (1, 2)] {
        for t in tuples(degree) {
            for d in 1..=9u8 {
                if placed[d as usize] + degree * 2 > 9 {
                    continue;
                }
                let mut sets = [0u16; 4];
                for (n, i) in bits(t).enumerate() {
                    sets[n] = g.positions(base * 9 + i, d);
                }
                let Some(common) = common_tuple(&sets[..degree as usize], degree) else {
                    continue;
                };
                let mut removals = Vec::new();
                for i in bits(common) {
                    let r = cover * 9 + i;
                    for j in bits(g.positions(r, d) & !t) {
                        removals.push((REGION_CELLS[r][j], 1u16 << d));
                    }
                }
                if !removals.is_empty() {
                    return Some(Hint::striking(rule, removals));
                }
            }
        }
    }
    None
}
