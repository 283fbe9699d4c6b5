//! The "+" of SE's dynamic forcing chains plus (nesting level 1): when a
//! run has nothing left to follow, the simple rules — locking, hidden
//! pairs, naked pairs, X-wings, in that order — are asked on the working
//! grid; all hints of the first rule that gives any whose pattern needed
//! a strike of the run (its "rule parents") become new "offs", with those
//! strikes as parents.

//!
//! The rules read the digits' places from the run's [`Places`] (kept up
//! to date as it strikes) instead of scanning the regions' cells: a run
//! asks them each time its links run out, thousands of times a rating.

use super::super::grid::{bits, digits, pop, Grid, CELL_REGIONS, REGION_CELLS};
use super::super::singles::LOCKING_KINDS;
use super::graph::{key, Arena};
use super::implications::Places;

/// One deduction: the candidates it strikes and the run's strikes it
/// needed, as (cell, digit).
#[derive(Debug, PartialEq)]
struct Found {
    strikes: Vec<(usize, u8)>,
    parents: Vec<(usize, u8)>,
}

/// A run's grids: where it began and where it is, with their places.
#[derive(Clone, Copy)]
pub struct RunGrids<'a> {
    /// The grid the run began on.
    pub start: &'a Grid,
    /// The run's working grid.
    pub cur: &'a Grid,
    /// The places of `start`.
    pub start_places: &'a Places,
    /// The places of `cur`.
    pub cur_places: &'a Places,
}

/// The cells of each region as a bit set (bit `c` for cell `c`).
const REGION_MASKS: [u128; 27] = region_masks();

const fn region_masks() -> [u128; 27] {
    let mut out = [0u128; 27];
    let mut r = 0;
    while r < 27 {
        let mut i = 0;
        while i < 9 {
            out[r] |= 1u128 << REGION_CELLS[r][i];
            i += 1;
        }
        r += 1;
    }
    out
}

/// The cells of a bit set with `d`, in increasing order (the order of
/// every region's cells).
fn with_digit(mut m: u128, d: u8) -> impl Iterator<Item = (usize, u8)> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            (c, d)
        })
    })
}

/// The cells of `m` with `d`, region by region in the order given (the
/// regions not overlapping), each region's in increasing order.
fn by_regions(m: u128, regions: impl IntoIterator<Item = usize>, d: u8) -> Vec<(usize, u8)> {
    regions
        .into_iter()
        .flat_map(|r| with_digit(m & REGION_MASKS[r], d))
        .collect()
}

/// The new "offs" (key, parent nodes, nested chain) the simple rules
/// give on the run's working grid; at `level` 2 or more, when they give
/// none, the nested chainers'.
pub fn potentials(
    grids: RunGrids,
    arena: &mut Arena,
    level: u8,
    out: &mut Vec<(u16, Vec<u32>, Option<u32>)>,
) {
    out.clear();
    let rules: [fn(RunGrids) -> Vec<Found>; 4] = [locking, hidden_pairs, naked_pairs, x_wings];
    for rule in rules {
        for f in rule(grids) {
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
        super::nested::potentials(grids.start, grids.cur, arena, level, out);
    }
}

/// Pointing and claiming: a digit of region `r1` whose places all lie in
/// `r2` leaves the rest of `r2`. Found by `r1` and digit: two places or
/// more lie in one region of the other kind at most, the first place's;
/// then given in SE's order (by `r1`, `r2`, digit).
fn locking(grids: RunGrids) -> Vec<Found> {
    let (now, was) = (grids.cur_places, grids.start_places);
    let mut out = Vec::new();
    let mut here: Vec<(usize, u8, u128)> = Vec::new();
    for (k1, k2) in LOCKING_KINDS {
        for r1 in k1 * 9..k1 * 9 + 9 {
            let m1 = REGION_MASKS[r1];
            here.clear();
            for d in 1..=9u8 {
                let in1 = now.cells_of(d) & m1;
                if in1 & in1.wrapping_sub(1) == 0 {
                    continue;
                }
                let r2 = CELL_REGIONS[in1.trailing_zeros() as usize][k2] as usize;
                let m2 = REGION_MASKS[r2];
                if in1 & !m2 == 0 && now.cells_of(d) & m2 & !m1 != 0 {
                    here.push((r2, d, m2));
                }
            }
            here.sort_unstable_by_key(|&(r2, d, _)| (r2, d));
            for &(_, d, m2) in &here {
                let with_d = now.cells_of(d);
                let lost = m1 & !m2 & was.cells_of(d) & !with_d;
                out.push(Found {
                    strikes: with_digit(with_d & m2 & !m1, d).collect(),
                    parents: with_digit(lost, d).collect(),
                });
            }
        }
    }
    out
}

/// The kinds of region in the order the pair rules visit them: blocks,
/// columns, rows.
const KINDS_BCR: [usize; 3] = [0, 2, 1];

/// The pairs `(i, j)`, `i < j`, of the set bits of `m`, in the order of
/// [`subsets::tuples`](super::super::subsets::tuples)`(2)` (by the mask
/// `1 << i | 1 << j`, increasing): the pair rules need both halves of a
/// pair in `m`, so only those are visited.
fn pairs_in(m: u16) -> impl Iterator<Item = (usize, usize)> {
    bits(m).flat_map(move |j| bits(m & ((1 << j) - 1)).map(move |i| (i, j)))
}

/// Hidden pairs: two digits with the same two places in a region (each
/// with exactly two: the union of two sets of two places or more has two
/// only when they are equal).
fn hidden_pairs(grids: RunGrids) -> Vec<Found> {
    let (g, start) = (grids.cur, grids.start);
    let mut out = Vec::new();
    for kind in KINDS_BCR {
        for r in kind * 9..kind * 9 + 9 {
            if g.empty_count(r) <= 4 {
                continue;
            }
            let cells = &REGION_CELLS[r];
            let places: [u16; 9] = std::array::from_fn(|i| grids.cur_places.of(r, i as u8 + 1));
            let two = (0..9)
                .filter(|&i| pop(places[i]) == 2)
                .fold(0u16, |m, i| m | 1 << i);
            for (i, j) in pairs_in(two) {
                let union = places[i];
                if places[j] != union {
                    continue;
                }
                let values = (1 << i | 1 << j) << 1;
                let mut strikes = Vec::new();
                for i in bits(union) {
                    let c = cells[i] as usize;
                    strikes.extend(digits(g.cands[c] & !values).map(|v| (c, v)));
                }
                if strikes.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for i in bits(!union & 0x1ff) {
                    let c = cells[i] as usize;
                    parents.extend(digits(start.cands[c] & values).map(|v| (c, v)));
                }
                out.push(Found { strikes, parents });
            }
        }
    }
    out
}

/// Naked pairs: two cells of a region holding the same two digits (as
/// hidden pairs, each holds exactly two).
fn naked_pairs(grids: RunGrids) -> Vec<Found> {
    let (g, start) = (grids.cur, grids.start);
    let mut out = Vec::new();
    for kind in KINDS_BCR {
        for r in kind * 9..kind * 9 + 9 {
            if g.empty_count(r) < 4 {
                continue;
            }
            let cells = &REGION_CELLS[r];
            let cands = |i: usize| g.cands[cells[i] as usize];
            let two = (0..9)
                .filter(|&i| pop(cands(i)) == 2)
                .fold(0u16, |m, i| m | 1 << i);
            for (i, j) in pairs_in(two) {
                let union = cands(i);
                if cands(j) != union {
                    continue;
                }
                let t = 1 << i | 1 << j;
                let mut strikes = Vec::new();
                for k in bits(!t & 0x1ff) {
                    let c = cells[k] as usize;
                    strikes.extend(digits(g.cands[c] & union).map(|v| (c, v)));
                }
                if strikes.is_empty() {
                    continue;
                }
                let mut parents = Vec::new();
                for k in [i, j] {
                    let c = cells[k] as usize;
                    parents.extend(digits(start.cands[c] & !union).map(|v| (c, v)));
                }
                out.push(Found { strikes, parents });
            }
        }
    }
    out
}

/// X-wings: a digit with the same two places in two rows (columns), each
/// with exactly two; pairs of lines first, then digits, as SE.
fn x_wings(grids: RunGrids) -> Vec<Found> {
    let (now, was) = (grids.cur_places, grids.start_places);
    let mut placed = [0u32; 10];
    for &v in &grids.cur.values {
        placed[v as usize] += 1;
    }
    let mut out = Vec::new();
    for (base, cover) in [(2usize, 1usize), (1, 2)] {
        // Per digit, the lines of the base kind where it has two places.
        let two: [u16; 10] = std::array::from_fn(|d| {
            let open = d > 0 && placed[d] + 4 <= 9;
            (0..9)
                .filter(|&i| open && pop(now.of(base * 9 + i, d as u8)) == 2)
                .fold(0, |m, i| m | 1 << i)
        });
        let lines = two.iter().fold(0, |m, &t| m | t);
        for (i, j) in pairs_in(lines) {
            let t = 1 << i | 1 << j;
            for d in 1..=9u8 {
                if two[d as usize] & t != t {
                    continue;
                }
                let union = now.of(base * 9 + i, d);
                if now.of(base * 9 + j, d) != union {
                    continue;
                }
                let (mut strikes, mut covered) = (0u128, 0u128);
                for k in bits(union) {
                    let m = REGION_MASKS[cover * 9 + k];
                    covered |= m;
                    strikes |= m;
                }
                let bases = REGION_MASKS[base * 9 + i] | REGION_MASKS[base * 9 + j];
                strikes &= now.cells_of(d) & !bases;
                if strikes == 0 {
                    continue;
                }
                let lost = bases & !covered & was.cells_of(d) & !now.cells_of(d);
                out.push(Found {
                    strikes: by_regions(strikes, bits(union).map(|k| cover * 9 + k), d),
                    parents: by_regions(lost, [i, j].map(|k| base * 9 + k), d),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! The rules against SE's own way of finding them (a walk of each
    //! region's cells), on run-like grids: a rating's grids with
    //! candidates struck at random.
    use super::super::super::grid::{bits, crosses, digits, pop, Grid, REGION_CELLS};
    use super::super::super::singles::LOCKING_KINDS;
    use super::super::super::subsets::tuples;
    use super::super::implications::Places;
    use super::{hidden_pairs, locking, naked_pairs, x_wings, Found, RunGrids, KINDS_BCR};

    fn pairs() -> impl Iterator<Item = u16> {
        tuples(2)
    }

    fn walk_locking(start: &Grid, g: &Grid) -> Vec<Found> {
        let mut out = Vec::new();
        for (k1, k2) in LOCKING_KINDS {
            for r1 in k1 * 9..k1 * 9 + 9 {
                for r2 in (k2 * 9..k2 * 9 + 9).filter(|&r2| crosses(r1, r2)) {
                    for d in 1..=9u8 {
                        let pos = g.positions(r1, d);
                        let in2 = |c: &u8| REGION_CELLS[r2].contains(c);
                        if pop(pos) <= 1 || !bits(pos).all(|i| in2(&REGION_CELLS[r1][i])) {
                            continue;
                        }
                        let strikes: Vec<(usize, u8)> = REGION_CELLS[r2]
                            .iter()
                            .filter(|&&c| !REGION_CELLS[r1].contains(&c) && g.has(c as usize, d))
                            .map(|&c| (c as usize, d))
                            .collect();
                        let parents = REGION_CELLS[r1]
                            .iter()
                            .filter(|c| !in2(c))
                            .map(|&c| c as usize)
                            .filter(|&c| start.has(c, d) && !g.has(c, d))
                            .map(|c| (c, d))
                            .collect();
                        if !strikes.is_empty() {
                            out.push(Found { strikes, parents });
                        }
                    }
                }
            }
        }
        out
    }

    fn walk_hidden_pairs(start: &Grid, g: &Grid) -> Vec<Found> {
        let mut out = Vec::new();
        for r in KINDS_BCR.into_iter().flat_map(|k| k * 9..k * 9 + 9) {
            if g.empty_count(r) <= 4 {
                continue;
            }
            for t in pairs() {
                let ps: Vec<u16> = bits(t).map(|i| g.positions(r, i as u8 + 1)).collect();
                let union = ps.iter().fold(0, |u, &p| u | p);
                if ps.iter().any(|&p| pop(p) <= 1) || pop(union) != 2 {
                    continue;
                }
                let cell = |i: usize| REGION_CELLS[r][i] as usize;
                let strikes: Vec<(usize, u8)> = bits(union)
                    .flat_map(|i| digits(g.cands[cell(i)] & !(t << 1)).map(move |v| (cell(i), v)))
                    .collect();
                let parents = (0..9)
                    .filter(|i| union >> i & 1 == 0)
                    .flat_map(|i| digits(start.cands[cell(i)] & t << 1).map(move |v| (cell(i), v)))
                    .collect();
                if !strikes.is_empty() {
                    out.push(Found { strikes, parents });
                }
            }
        }
        out
    }

    fn walk_naked_pairs(start: &Grid, g: &Grid) -> Vec<Found> {
        let mut out = Vec::new();
        for r in KINDS_BCR.into_iter().flat_map(|k| k * 9..k * 9 + 9) {
            if g.empty_count(r) < 4 {
                continue;
            }
            let cell = |i: usize| REGION_CELLS[r][i] as usize;
            for t in pairs() {
                let cs: Vec<u16> = bits(t).map(|i| g.cands[cell(i)]).collect();
                let union = cs.iter().fold(0, |u, &p| u | p);
                if cs.iter().any(|&p| pop(p) <= 1) || pop(union) != 2 {
                    continue;
                }
                let strikes: Vec<(usize, u8)> = (0..9)
                    .filter(|i| t >> i & 1 == 0)
                    .flat_map(|i| digits(g.cands[cell(i)] & union).map(move |v| (cell(i), v)))
                    .collect();
                let parents = bits(t)
                    .flat_map(|i| digits(start.cands[cell(i)] & !union).map(move |v| (cell(i), v)))
                    .collect();
                if !strikes.is_empty() {
                    out.push(Found { strikes, parents });
                }
            }
        }
        out
    }

    fn walk_x_wings(start: &Grid, g: &Grid) -> Vec<Found> {
        let mut out = Vec::new();
        for (base, cover) in [(2usize, 1usize), (1, 2)] {
            for t in pairs() {
                for d in (1..=9u8).filter(|&d| g.count_value(d) + 4 <= 9) {
                    let ps: Vec<u16> = bits(t).map(|i| g.positions(base * 9 + i, d)).collect();
                    let union = ps.iter().fold(0, |u, &p| u | p);
                    if ps.iter().any(|&p| pop(p) <= 1) || pop(union) != 2 {
                        continue;
                    }
                    let covers: Vec<usize> = bits(union).map(|i| cover * 9 + i).collect();
                    let strikes: Vec<(usize, u8)> = covers
                        .iter()
                        .flat_map(|&r| {
                            bits(g.positions(r, d) & !t)
                                .map(move |j| (REGION_CELLS[r][j] as usize, d))
                        })
                        .collect();
                    let covered =
                        |c: usize| covers.iter().any(|&r| REGION_CELLS[r].contains(&(c as u8)));
                    let parents = bits(t)
                        .flat_map(|i| REGION_CELLS[base * 9 + i])
                        .map(|c| c as usize)
                        .filter(|&c| !covered(c) && start.has(c, d) && !g.has(c, d))
                        .map(|c| (c, d))
                        .collect();
                    if !strikes.is_empty() {
                        out.push(Found { strikes, parents });
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_rules_by_places_find_what_the_walks_find() {
        let (mut found, mut parents) = ([0; 4], [0; 4]);
        for (start, cur) in crate::serate::tests::run_like_grids() {
            let (start_places, cur_places) = (Places::new(&start), Places::new(&cur));
            let grids = RunGrids {
                start: &start,
                cur: &cur,
                start_places: &start_places,
                cur_places: &cur_places,
            };
            let by_places = [
                locking(grids),
                hidden_pairs(grids),
                naked_pairs(grids),
                x_wings(grids),
            ];
            let walked = [
                walk_locking(&start, &cur),
                walk_hidden_pairs(&start, &cur),
                walk_naked_pairs(&start, &cur),
                walk_x_wings(&start, &cur),
            ];
            for (rule, (a, b)) in by_places.iter().zip(&walked).enumerate() {
                assert_eq!(a, b);
                found[rule] += a.len();
                parents[rule] += a.iter().filter(|f| !f.parents.is_empty()).count();
            }
        }
        // The grids give every rule work, with and without parents.
        assert!(
            found.iter().zip(&parents).all(|(&f, &p)| f > 100 && p > 10),
            "{found:?} found, {parents:?} with parents"
        );
    }
}
