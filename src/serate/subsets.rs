//! Naked and hidden sets (pairs, triples, quads) and fish (X-wing,
//! swordfish, jellyfish), in SE's search order: regions by kind (blocks,
//! columns, rows), tuples in SE's order of combinations (increasing as
//! 9-bit numbers).

use super::grid::{bits, pop, Grid, REGION_CELLS};
use super::positions::Positions;
use super::rules::{Hint, Rule};
use super::since::Changes;

/// The k-subsets of 0..9 as 9-bit masks, in SE's order (increasing as
/// 9-bit numbers), for k of 0 to 9 (other k give none).
///
/// ```
/// use xlsudoku::serate::subsets::tuples;
///
/// assert_eq!(tuples(2).take(3).collect::<Vec<_>>(), [0b11, 0b101, 0b110]);
/// assert_eq!(tuples(3).count(), 84);
/// assert_eq!(tuples(10).count(), 0);
/// ```
pub fn tuples(k: u32) -> impl Iterator<Item = u16> {
    let list: &'static [u16] = match k {
        0..=9 => &BY_SIZE[START[k as usize]..START[k as usize + 1]],
        _ => &[],
    };
    list.iter().copied()
}

/// All 512 masks by number of bits, then increasing; [`START`] says where
/// each number of bits starts.
const BY_SIZE: [u16; 512] = by_size().0;
const START: [usize; 11] = by_size().1;

const fn by_size() -> ([u16; 512], [usize; 11]) {
    let mut out = [0u16; 512];
    let mut start = [0usize; 11];
    let mut n = 0;
    let mut k = 0;
    while k <= 9 {
        start[k] = n;
        let mut m = 0u16;
        while m < 512 {
            if m.count_ones() as usize == k {
                out[n] = m;
                n += 1;
            }
            m += 1;
        }
        k += 1;
    }
    start[10] = n;
    (out, start)
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

/// The indexes `i` whose `sets[i]` has two to `k` members: a tuple of
/// `k` with any other index fails [`common_tuple`], so the searches skip
/// it unread (a speed device: the order of the tuples tried is SE's).
fn fitting(sets: &[u16], k: u32) -> u16 {
    let mut out = 0;
    for (i, &s) in sets.iter().enumerate() {
        let n = pop(s);
        if n >= 2 && n <= k {
            out |= 1 << i;
        }
    }
    out
}

const KINDS_BCR: [usize; 3] = [0, 2, 1];

/// The first naked set of `degree` cells with something to strike.
pub fn naked_set(g: &Grid, degree: u32) -> Option<Hint> {
    naked_set_in(g, degree, &Changes::ALL)
}

/// [`naked_set`] in the regions that changed (`ch`) only.
pub fn naked_set_in(g: &Grid, degree: u32, ch: &Changes) -> Option<Hint> {
    let rule = match degree {
        2 => Rule::NakedPair,
        3 => Rule::NakedTriple,
        _ => Rule::NakedQuad,
    };
    for kind in KINDS_BCR {
        for r in kind * 9..kind * 9 + 9 {
            if !ch.region(r) || g.empty_count(r) < degree * 2 {
                continue;
            }
            let cells = &REGION_CELLS[r];
            let fit = fitting(&cells.map(|c| g.cands[c as usize]), degree);
            if pop(fit) < degree {
                continue;
            }
            for t in tuples(degree) {
                if t & !fit != 0 {
                    continue;
                }
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
    hidden_set_in(g, degree, direct, &Changes::ALL)
}

/// [`hidden_set`] in the regions that changed (`ch`) only.
pub fn hidden_set_in(g: &Grid, degree: u32, direct: bool, ch: &Changes) -> Option<Hint> {
    let rule = match (degree, direct) {
        (2, true) => Rule::DirectHiddenPair,
        (3, true) => Rule::DirectHiddenTriple,
        (2, false) => Rule::HiddenPair,
        (3, false) => Rule::HiddenTriple,
        _ => Rule::HiddenQuad,
    };
    let places = Positions::of(g);
    for kind in KINDS_BCR {
        for r in kind * 9..kind * 9 + 9 {
            let empty = g.empty_count(r);
            if !ch.region(r) || !(empty > degree * 2 || (direct && empty > degree)) {
                continue;
            }
            let cells = &REGION_CELLS[r];
            let mut pos = [0u16; 10];
            for d in 1..=9u8 {
                pos[d as usize] = places.get(r, d);
            }
            // Digit d at index d - 1, as the tuples take them.
            let fit = fitting(&pos[1..], degree);
            if pop(fit) < degree {
                continue;
            }
            for t in tuples(degree) {
                if t & !fit != 0 {
                    continue;
                }
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
    fish_in(g, degree, &Changes::ALL)
}

/// [`fish`] of the digits whose places changed (`ch`) only.
pub fn fish_in(g: &Grid, degree: u32, ch: &Changes) -> Option<Hint> {
    let rule = match degree {
        2 => Rule::XWing,
        3 => Rule::Swordfish,
        _ => Rule::Jellyfish,
    };
    let mut placed = [0u32; 10];
    for &v in &g.values {
        placed[v as usize] += 1;
    }
    let places = Positions::of(g);
    for (base, cover) in [(2usize, 1usize), (1, 2)] {
        // For each digit, the base lines a fish of it can take; and the
        // digits with enough of them, in order (most often none: the
        // tuples are then not walked).
        let mut fit = [0u16; 10];
        let (mut live, mut lives) = ([0u8; 9], 0);
        for d in (1..=9u8).filter(|&d| ch.digit(d) && placed[d as usize] + degree * 2 <= 9) {
            let lines: [u16; 9] = std::array::from_fn(|i| places.get(base * 9 + i, d));
            fit[d as usize] = fitting(&lines, degree);
            if fit[d as usize].count_ones() >= degree {
                live[lives] = d;
                lives += 1;
            }
        }
        if lives == 0 {
            continue;
        }
        for t in tuples(degree) {
            for &d in &live[..lives] {
                if t & !fit[d as usize] != 0 {
                    continue;
                }
                let mut sets = [0u16; 4];
                for (n, i) in bits(t).enumerate() {
                    sets[n] = places.get(base * 9 + i, d);
                }
                let Some(common) = common_tuple(&sets[..degree as usize], degree) else {
                    continue;
                };
                let mut removals = Vec::new();
                for i in bits(common) {
                    let r = cover * 9 + i;
                    for j in bits(places.get(r, d) & !t) {
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
