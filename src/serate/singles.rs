//! Singles and SE's "direct" hints: hidden single (a region's last empty
//! cell first), naked single, and pointing, claiming, hidden pairs and
//! triples that count only when they leave a hidden single (applied as
//! that placement alone).

use super::grid::{bits, crosses, Grid, REGION_CELLS};
use super::rules::{Hint, Rule};

/// The first hidden single in SE's order: full houses (blocks, columns,
/// rows), then the others (blocks, columns, rows).
pub fn hidden_single(g: &Grid) -> Option<Hint> {
    let order = [0usize, 2, 1];
    for alone in [true, false] {
        for kind in order {
            for r in kind * 9..kind * 9 + 9 {
                for d in 1..=9u8 {
                    let pos = g.positions(r, d);
                    if pos.count_ones() == 1 {
                        let is_alone = g.empty_count(r) == 1;
                        if is_alone == alone {
                            let cell = REGION_CELLS[r][pos.trailing_zeros() as usize];
                            let rule = if is_alone {
                                Rule::FullHouse
                            } else if kind == 0 {
                                Rule::HiddenSingleBlock
                            } else {
                                Rule::HiddenSingleLine
                            };
                            return Some(Hint::placing(rule, cell as usize, d));
                        }
                    }
                }
            }
        }
    }
    None
}

/// The first naked single, row by row.
pub fn naked_single(g: &Grid) -> Option<Hint> {
    (0..81)
        .find(|&c| g.cands[c].count_ones() == 1)
        .map(|c| Hint::placing(Rule::NakedSingle, c, g.cands[c].trailing_zeros() as u8))
}

/// The pairs of region kinds SE's locking looks at, in its order:
/// block→column, block→row, column→block, row→block.
pub const LOCKING_KINDS: [(usize, usize); 4] = [(0, 2), (0, 1), (2, 0), (1, 0)];

/// Pointing and claiming (SE's `Locking`). Direct: only those that leave
/// a hidden single in another region of the first kind crossing the
/// second, applied as that placement.
pub fn locking(g: &Grid, direct: bool) -> Option<Hint> {
    for (k1, k2) in LOCKING_KINDS {
        for r1 in k1 * 9..k1 * 9 + 9 {
            for r2 in k2 * 9..k2 * 9 + 9 {
                if !crosses(r1, r2) {
                    continue;
                }
                for d in 1..=9u8 {
                    let pos = g.positions(r1, d);
                    if pos.count_ones() <= 1 {
                        continue;
                    }
                    let inside = bits(pos).all(|i| REGION_CELLS[r2].contains(&REGION_CELLS[r1][i]));
                    if !inside {
                        continue;
                    }
                    let rule = match (k1 == 0, direct) {
                        (true, true) => Rule::DirectPointing,
                        (false, true) => Rule::DirectClaiming,
                        (true, false) => Rule::Pointing,
                        (false, false) => Rule::Claiming,
                    };
                    if direct {
                        if let Some(h) = following_single(g, k1, r1, r2, d, rule) {
                            return Some(h);
                        }
                    } else {
                        let removals: Vec<(u8, u16)> = REGION_CELLS[r2]
                            .iter()
                            .filter(|&&c| !REGION_CELLS[r1].contains(&c) && g.has(c as usize, d))
                            .map(|&c| (c, 1u16 << d))
                            .collect();
                        if !removals.is_empty() {
                            return Some(Hint::striking(rule, removals));
                        }
                    }
                }
            }
        }
    }
    None
}

/// A hidden single a locking of `d` in `r1` ∩ `r2` leaves in another
/// region of `r1`'s kind crossing `r2`.
fn following_single(g: &Grid, k1: usize, r1: usize, r2: usize, d: u8, rule: Rule) -> Option<Hint> {
    for r3 in k1 * 9..k1 * 9 + 9 {
        if r3 == r1 || !crosses(r3, r2) {
            continue;
        }
        let pos = g.positions(r3, d);
        if pos.count_ones() <= 1 {
            continue;
        }
        let mut remain = bits(pos)
            .map(|i| REGION_CELLS[r3][i])
            .filter(|c| !REGION_CELLS[r2].contains(c));
        if let (Some(c), None) = (remain.next(), remain.next()) {
            return Some(Hint::placing(rule, c as usize, d));
        }
    }
    None
}
