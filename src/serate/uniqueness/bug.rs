//! The bivalue universal grave as SE finds it: every region's digit with
//! two places or none, once the extra candidates of the "BUG cells" (one
//! per region and digit that breaks the rule) are set aside. Type 1 (5.6):
//! one BUG cell; type 2 (5.7): one extra digit, struck from the cells
//! seeing all BUG cells; type 4 (5.7): two BUG cells in one region; type 3
//! (5.7, +0.1 per digit of the naked set beyond the first): the extras
//! form a naked set with cells seeing the BUG cells.

use super::super::grid::{bits, Grid, CELL_REGIONS, PEERS, REGION_CELLS};
use super::super::positions::Positions;
use super::super::rules::{add_removal, Hint, Rule};

/// The first BUG hint, in SE's order.
pub fn bug(g: &Grid) -> Option<Hint> {
    let mut temp = g.clone();
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_values = 0u16;
    let mut common: Option<u128> = None;
    let places = Positions::of(g);
    for r in 0..27 {
        for d in 1..=9u8 {
            let pos = places.get(r, d);
            let n = pos.count_ones();
            if n == 0 || n == 2 {
                continue;
            }
            // The places in cells of three candidates or more: how many,
            // and the first.
            let (mut new, mut first) = (0, 0);
            for c in bits(pos).map(|i| REGION_CELLS[r][i] as usize) {
                if g.cands[c].count_ones() >= 3 {
                    if new == 0 {
                        first = c;
                    }
                    new += 1;
                }
            }
            if new == 1 {
                let c = first;
                if !bug_cells.contains(&c) {
                    bug_cells.push(c);
                }
                bug_values[c] |= 1 << d;
                all_values |= 1 << d;
                temp.cands[c] &= !(1 << d);
                let mut m = common.unwrap_or(!0u128) & PEERS[c];
                for &b in &bug_cells {
                    m &= !(1u128 << b);
                }
                common = Some(m);
                if bug_cells.len() > 1 && all_values.count_ones() > 1 && m == 0 {
                    return None;
                }
            }
            if new == 0 {
                return None;
            }
        }
    }
    if (0..81).any(|c| temp.values[c] == 0 && temp.cands[c].count_ones() != 2) {
        return None;
    }
    for r in 0..27 {
        for d in 1..=9u8 {
            let n = temp.positions(r, d).count_ones();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    let common = common.unwrap_or(0);
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let rem = g.cands[c] & !all_values;
        return (rem != 0).then(|| Hint::striking(Rule::Bug1, vec![(c as u8, rem)]));
    }
    if all_values.count_ones() == 1 {
        if let Some(h) = bug2(g, common, all_values) {
            return Some(h);
        }
        if bug_cells.len() == 2 {
            return bug4(g, &bug_cells, &bug_values, all_values);
        }
    } else if common != 0 {
        if bug_cells.len() == 2 {
            if let Some(h) = bug4(g, &bug_cells, &bug_values, all_values) {
                return Some(h);
            }
        }
        return bug3(g, &bug_cells, all_values, common);
    }
    None
}

fn bug2(g: &Grid, common: u128, all: u16) -> Option<Hint> {
    let d = all.trailing_zeros() as u8;
    let rem: Vec<(u8, u16)> = (0..81)
        .filter(|&c| common >> c & 1 == 1 && g.has(c, d))
        .map(|c| (c as u8, 1u16 << d))
        .collect();
    (!rem.is_empty()).then(|| Hint::striking(Rule::Bug, rem))
}

fn bug4(g: &Grid, cells: &[usize], values: &[u16; 81], all: u16) -> Option<Hint> {
    let (c1, c2) = (cells[0], cells[1]);
    let common = g.cands[c1] & g.cands[c2] & !all;
    if common.count_ones() != 1 {
        return None;
    }
    let shared = (0..3).any(|k| CELL_REGIONS[c1][k] == CELL_REGIONS[c2][k]);
    if !shared {
        return None;
    }
    let mut rem = Vec::new();
    add_removal(&mut rem, c1, g.cands[c1] & !values[c1] & !common);
    add_removal(&mut rem, c2, g.cands[c2] & !values[c2] & !common);
    (!rem.is_empty()).then(|| Hint::striking(Rule::Bug, rem))
}

fn bug3(g: &Grid, cells: &[usize], all: u16, common: u128) -> Option<Hint> {
    for kind in 0..3 {
        let r = CELL_REGIONS[cells[0]][kind];
        if cells.iter().any(|&c| CELL_REGIONS[c][kind] != r) {
            continue;
        }
        let region: Vec<usize> = (0..81)
            .filter(|&c| common >> c & 1 == 1 && CELL_REGIONS[c][kind] == r)
            .collect();
        for degree in 2..=6u32 {
            if region.len() < degree as usize {
                continue;
            }
            let n = region.len();
            let mut combos: Vec<u32> = (0u32..(1 << n))
                .filter(|m| m.count_ones() == degree - 1)
                .collect();
            combos.sort_unstable();
            for t in combos {
                let mut other = 0u16;
                let mut ok = all.count_ones() > 1;
                for i in 0..n {
                    if t >> i & 1 == 1 {
                        let p = g.cands[region[i]];
                        ok &= p.count_ones() > 1;
                        other |= p;
                    }
                }
                if other.count_ones() != degree || !ok || (other | all).count_ones() != degree {
                    continue;
                }
                let naked = other | all;
                let mut rem = Vec::new();
                for i in 0..n {
                    let c = region[i];
                    if t >> i & 1 == 0 && !cells.contains(&c) {
                        add_removal(&mut rem, c, g.cands[c] & naked);
                    }
                }
                if !rem.is_empty() {
                    let mut h = Hint::striking(Rule::Bug, rem);
                    h.difficulty += f64::from(naked.count_ones() - 1) * 0.1;
                    return Some(h);
                }
            }
        }
    }
    None
}
