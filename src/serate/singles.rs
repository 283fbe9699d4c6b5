//! Singles and SE's "direct" hints: hidden single (a region's last empty
//! cell first), naked single, and pointing, claiming, hidden pairs and
//! triples that count only when they leave a hidden single (applied as
//! that placement alone).

use super::grid::{bits, Grid, CELL_REGIONS, REGION_CELLS};
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
    let places = Positions::of(g);
    let order = [0usize, 2, 1];
    for alone in [true, false] {
        for kind in order {
            for r in kind * 9..kind * 9 + 9 {
                if !ch.region(r) {
                    continue;
                }
                for d in 1..=9u8 {
                    let pos = places.get(r, d);
                    if pos.is_power_of_two() {
                        let is_alone = g.empty_count(r) == 1;
                        if is_alone == alone {
                            let cell = REGION_CELLS[r][pos.trailing_zeros() as usize];
                            let rule = single_rule(alone, kind);
                            return Some(Hint::placing(rule, cell as usize, d));
                        }
                    }
                }
            }
        }
    }
    None
}

/// The rule of a hidden single in a region of `kind` (0 block, 1 row, 2
/// column), the region's last empty cell when `alone`.
fn single_rule(alone: bool, kind: usize) -> Rule {
    if alone {
        Rule::FullHouse
    } else if kind == 0 {
        Rule::HiddenSingleBlock
    } else {
        Rule::HiddenSingleLine
    }
}

/// The rule of a locking from a region of `kind` (0: a block, pointing;
/// else a line, claiming), `direct` or not.
fn locking_rule(kind: usize, direct: bool) -> Rule {
    match (kind == 0, direct) {
        (true, true) => Rule::DirectPointing,
        (false, true) => Rule::DirectClaiming,
        (true, false) => Rule::Pointing,
        (false, false) => Rule::Claiming,
    }
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
            // SE walks the regions `r2` of the second kind crossing `r1`,
            // then the digits: the one `r2` that can hold all of a
            // digit's places (two or more) in `r1` is the region of its
            // first place, so each digit is looked at once, and the
            // lockings found are taken by `r2`, then digit.
            let mut found = [(0u8, 0u8); 9];
            let mut n = 0;
            for d in 1..=9u8 {
                if !ch.digit(d) {
                    continue;
                }
                let pos = places.get(r1, d);
                if pos & pos.wrapping_sub(1) == 0 {
                    continue; // at most one place
                }
                let first = REGION_CELLS[r1][pos.trailing_zeros() as usize] as usize;
                let r2 = CELL_REGIONS[first][k2];
                if pos & !shared(r1, r2 as usize) == 0 {
                    found[n] = (r2, d);
                    n += 1;
                }
            }
            // Stable: the digits stay in order within one `r2`.
            found[..n].sort_by_key(|&(r2, _)| r2);
            for &(r2, d) in &found[..n] {
                if let Some(h) = locking_hint(&places, k1, (r1, r2 as usize), d, direct) {
                    return Some(h);
                }
            }
        }
    }
    None
}

/// The hint of a locking of `d` in `r1` ∩ `r2` (`r1` of kind `k1`), if it
/// gives one: direct, the hidden single it leaves; else what it strikes
/// from `r2` outside `r1`.
fn locking_hint(
    places: &Positions,
    k1: usize,
    (r1, r2): (usize, usize),
    d: u8,
    direct: bool,
) -> Option<Hint> {
    let rule = locking_rule(k1, direct);
    if direct {
        return following_single(places, k1, r1, r2, d, rule);
    }
    let outside = places.get(r2, d) & !shared(r2, r1);
    (outside != 0).then(|| {
        let removals = bits(outside)
            .map(|i| (REGION_CELLS[r2][i], 1u16 << d))
            .collect();
        Hint::striking(rule, removals)
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serate::grid::pop;

    /// SE's walk for the hidden singles: every region's places counted
    /// from its cells.
    fn walk_hidden_single(g: &Grid) -> Option<Hint> {
        for alone in [true, false] {
            for kind in [0usize, 2, 1] {
                for r in kind * 9..kind * 9 + 9 {
                    for d in 1..=9u8 {
                        let pos = g.positions(r, d);
                        if pos.count_ones() == 1 && (g.empty_count(r) == 1) == alone {
                            let cell = REGION_CELLS[r][pos.trailing_zeros() as usize];
                            let rule = single_rule(alone, kind);
                            return Some(Hint::placing(rule, cell as usize, d));
                        }
                    }
                }
            }
        }
        None
    }

    /// SE's walk for the lockings: every two crossing regions, then
    /// every digit.
    fn walk_locking(g: &Grid, direct: bool) -> Option<Hint> {
        let places = Positions::of(g);
        for (k1, k2) in LOCKING_KINDS {
            for r1 in k1 * 9..k1 * 9 + 9 {
                for r2 in k2 * 9..k2 * 9 + 9 {
                    let inside = shared(r1, r2);
                    for d in (1..=9u8).filter(|_| inside != 0) {
                        let pos = g.positions(r1, d);
                        if pop(pos) < 2 || pos & !inside != 0 {
                            continue;
                        }
                        if let Some(h) = locking_hint(&places, k1, (r1, r2), d, direct) {
                            return Some(h);
                        }
                    }
                }
            }
        }
        None
    }

    #[test]
    fn singles_and_lockings_are_what_se_walks_find() {
        // Along SE's runs, and on the same grids with random candidates
        // struck (more lockings and singles, in other places), the
        // rules by places give the walks' first hint.
        let mut found = [0usize; 3];
        for (_, g) in crate::serate::tests::run_like_grids() {
            let want = [
                walk_hidden_single(&g),
                walk_locking(&g, true),
                walk_locking(&g, false),
            ];
            let got = [hidden_single(&g), locking(&g, true), locking(&g, false)];
            assert_eq!(got, want);
            for (f, w) in found.iter_mut().zip(&want) {
                *f += usize::from(w.is_some());
            }
        }
        assert!(found.iter().all(|&f| f > 30), "{found:?}");
    }
}
