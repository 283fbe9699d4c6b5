//! Singles and SE's "direct" hints: hidden single (a region's last empty
//! cell first), naked single, and pointing, claiming, hidden pairs and
//! triples that count only when they leave a hidden single (applied as
//! that placement alone).

use super::grid::{bits, Grid, REGION_CELLS};
use super::positions::{shared, Positions};
use super::rules::{Hint, Rule};
use super::since::Changes;

/// The first hidden single in SE's order: full houses (blocks, columns,
/// rows), then the others (blocks, columns, rows).
pub fn hidden_single(g: &Grid) -> Option<Hint> {
    hidden_single_in(g, &Changes::ALL)
}

/// [`hidden_single`] in the regions that changed (`ch`) only.
pub fn hidden_single_in(g: &Grid, ch: &Changes) -> Option<Hint> {
    let order = [0usize, 2, 1];
    for alone in [true, false] {
        for kind in order {
            for r in kind * 9..kind * 9 + 9 {
                if !ch.region(r) {
                    continue;
                }
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
    locking_in(g, direct, &Changes::ALL)
}

/// [`locking`] of the digits whose places changed (`ch`) only.
pub fn locking_in(g: &Grid, direct: bool, ch: &Changes) -> Option<Hint> {
    let places = Positions::of(g);
    for (k1, k2) in LOCKING_KINDS {
        for r1 in k1 * 9..k1 * 9 + 9 {
            for r2 in k2 * 9..k2 * 9 + 9 {
                let inside = shared(r1, r2);
                if inside == 0 {
                    continue;
                }
                for d in 1..=9u8 {
                    if !ch.digit(d) {
                        continue;
                    }
                    let pos = places.get(r1, d);
                    if pos & (pos.wrapping_sub(1)) == 0 || pos & !inside != 0 {
                        continue; // at most one place, or some outside r2
                    }
                    let rule = match (k1 == 0, direct) {
                        (true, true) => Rule::DirectPointing,
                        (false, true) => Rule::DirectClaiming,
                        (true, false) => Rule::Pointing,
                        (false, false) => Rule::Claiming,
                    };
                    if direct {
                        if let Some(h) = following_single(&places, k1, r1, r2, d, rule) {
                            return Some(h);
                        }
                    } else {
                        let outside = places.get(r2, d) & !shared(r2, r1);
                        if outside != 0 {
                            let removals = bits(outside)
                                .map(|i| (REGION_CELLS[r2][i], 1u16 << d))
                                .collect();
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
fn following_single(
    places: &Positions,
    k1: usize,
    r1: usize,
    r2: usize,
    d: u8,
    rule: Rule,
) -> Option<Hint> {
    for r3 in k1 * 9..k1 * 9 + 9 {
        let crossing = shared(r3, r2);
        if r3 == r1 || crossing == 0 {
            continue;
        }
        let pos = places.get(r3, d);
        if pos & (pos.wrapping_sub(1)) == 0 {
            continue;
        }
        let remain = pos & !crossing;
        if remain != 0 && remain & (remain - 1) == 0 {
            let c = REGION_CELLS[r3][remain.trailing_zeros() as usize];
            return Some(Hint::placing(rule, c as usize, d));
        }
    }
    None
}
