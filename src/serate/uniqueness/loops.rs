//! Unique loops as SE finds them: from each bivalue cell, loops of cells
//! holding both its digits, through regions of alternating kinds, with at
//! most two cells holding more; every hint found, then the easiest (by
//! difficulty, then type). Difficulty 4.5, +0.1 for six cells, +0.2 for
//! eight, +0.5 for ten or more (SE adds 0.3 and 0.2 there), and for type 3
//! +0.1 per digit of the set beyond the first.

use super::super::grid::{bits, index_in, pop, Grid, CELL_REGIONS, REGION_CELLS};
use super::super::positions::Positions;
use super::super::rules::{add_removal, Hint, Rule};
use super::super::since::Changes;
use super::super::subsets::tuples;

struct Found {
    hint: Hint,
    /// SE's type (1 to 4), the tie-break after difficulty.
    kind: u8,
    /// SE's hint class (type 3 naked and hidden differ): hints of one
    /// class on one loop count once.
    class: u8,
    cells: u128,
}

fn loop_base(len: usize) -> f64 {
    let mut d = 4.5;
    if len >= 10 {
        d += 0.3;
    }
    if len >= 8 {
        d += 0.2;
    } else if len >= 6 {
        d += 0.1;
    }
    d
}

/// The easiest unique loop hint.
pub fn unique_loop(g: &Grid) -> Option<Hint> {
    unique_loop_in(g, &Changes::ALL)
}

/// [`unique_loop`] where something changed (`ch`, since the rule last
/// found nothing in the same run): only the pairs of digits that some
/// cell holding both holds in a changed region. For another pair, every
/// cell holding both, and every cell that held both then and shares a
/// region with one, lies in unchanged regions only: the searches from
/// its bivalue cells meet the same cells with the same candidates, and
/// each loop's hints read only its cells' regions, so they find nothing
/// again (a speed device: the hints found are the same, in order).
pub fn unique_loop_in(g: &Grid, ch: &Changes) -> Option<Hint> {
    let mut found: Vec<Found> = Vec::new();
    let places = Positions::of(g);
    // Bit v2 of `pairs[v1]`: the pair of digits v1, v2 is to be searched.
    let mut pairs = [0u16; 10];
    for cell in 0..81 {
        let m = g.cands[cell];
        if m.count_ones() >= 2 && CELL_REGIONS[cell].iter().any(|&r| ch.region(r as usize)) {
            for v in bits(m) {
                pairs[v] |= m;
            }
        }
    }
    for cell in 0..81 {
        let m = g.cands[cell];
        if m.count_ones() != 2 {
            continue;
        }
        let v1 = m.trailing_zeros() as u8;
        let v2 = (m & !(1 << v1)).trailing_zeros() as u8;
        if pairs[v1 as usize] >> v2 & 1 == 0 {
            continue;
        }
        let mut search = LoopSearch::new(g, &places, v1, v2);
        search.step(cell, 2, 0, None);
        for lp in search.loops {
            if !is_valid(&lp) {
                continue;
            }
            classify(g, &lp, v1, v2, &mut found);
        }
    }
    found.sort_by(|a, b| {
        a.hint
            .difficulty
            .partial_cmp(&b.hint.difficulty)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.kind.cmp(&b.kind))
    });
    found.into_iter().next().map(|f| f.hint)
}

/// SE's `checkForLoops` from one bivalue cell of digits `v1` and `v2`:
/// the loops found, in SE's order. The cells on the path are also a
/// cell set, and a region's cells holding both digits are read from
/// [`Positions`] (speed devices: the cells are met in SE's order).
/// A path that meets a region twice on steps of the same parity is not
/// followed: every loop it could close fails [`is_valid`], which SE
/// drops (a speed device too: the valid loops are found in the same
/// order).
struct LoopSearch<'a> {
    g: &'a Grid,
    places: &'a Positions,
    v1: u8,
    v2: u8,
    path: Vec<usize>,
    on_path: u128,
    /// The regions met by the path's cells on even and on odd steps.
    met: [u32; 2],
    loops: Vec<Vec<usize>>,
}

/// The three regions of a cell, as a bit set.
fn regions_of(cell: usize) -> u32 {
    CELL_REGIONS[cell].iter().fold(0, |m, &r| m | 1 << r)
}

impl<'a> LoopSearch<'a> {
    /// A search for loops of `v1` and `v2` on `g` (`places` its places).
    fn new(g: &'a Grid, places: &'a Positions, v1: u8, v2: u8) -> LoopSearch<'a> {
        LoopSearch {
            g,
            places,
            v1,
            v2,
            path: Vec::new(),
            on_path: 0,
            met: [0; 2],
            loops: Vec::new(),
        }
    }

    /// One step of the search, at `cell`.
    fn step(&mut self, cell: usize, allowed_ex: i32, ex_values: u16, last_kind: Option<usize>) {
        let (v1, v2) = (self.v1, self.v2);
        let parity = self.path.len() % 2;
        self.met[parity] |= regions_of(cell);
        self.path.push(cell);
        self.on_path |= 1 << cell;
        let mut ex = ex_values;
        for kind in 0..3 {
            if Some(kind) == last_kind {
                continue;
            }
            let r = CELL_REGIONS[cell][kind] as usize;
            // The other cells hold at most one of the digits: SE passes them.
            let both = self.places.get(r, v1) & self.places.get(r, v2);
            for i in bits(both) {
                let next = REGION_CELLS[r][i] as usize;
                if self.path[0] == next && self.path.len() >= 4 {
                    self.loops.push(self.path.clone());
                } else if self.on_path >> next & 1 == 0 {
                    let p = self.g.cands[next];
                    ex |= p;
                    ex &= !(1 << v1 | 1 << v2);
                    let card = pop(p);
                    let fits = self.met[1 - parity] & regions_of(next) == 0;
                    if fits && (card == 2 || pop(ex) == 1 || allowed_ex > 0) {
                        let next_allowed = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                        self.step(next, next_allowed, ex, Some(kind));
                    }
                }
            }
        }
        self.path.pop();
        self.on_path &= !(1 << cell);
        self.met[parity] &= !regions_of(cell);
    }
}

/// SE's `isValidLoop`: each region met once on even and once on odd
/// steps.
fn is_valid(lp: &[usize]) -> bool {
    let (mut odd, mut even) = (0u32, 0u32);
    let mut is_odd = false;
    for &c in lp {
        for r in CELL_REGIONS[c] {
            let set = if is_odd { &mut odd } else { &mut even };
            if *set >> r & 1 == 1 {
                return false;
            }
            *set |= 1 << r;
        }
        is_odd = !is_odd;
    }
    odd == even
}

fn push(
    found: &mut Vec<Found>,
    lp: &[usize],
    class: u8,
    difficulty: f64,
    removals: Vec<(u8, u16)>,
) {
    let cells = lp.iter().fold(0u128, |m, &c| m | 1 << c);
    let kind = class.min(4);
    let class = if class == 5 { 5 } else { kind };
    if removals.is_empty() || found.iter().any(|f| f.class == class && f.cells == cells) {
        return;
    }
    let hint = Hint {
        rule: Rule::UniqueLoop,
        difficulty,
        removals,
        place: None,
    };
    found.push(Found {
        hint,
        kind: if class == 5 { 3 } else { kind },
        class,
        cells,
    });
}

fn classify(g: &Grid, lp: &[usize], v1: u8, v2: u8, found: &mut Vec<Found>) {
    let base = loop_base(lp.len());
    let pair = 1u16 << v1 | 1 << v2;
    let extra: Vec<usize> = lp
        .iter()
        .copied()
        .filter(|&c| g.cands[c].count_ones() > 2)
        .collect();
    match extra.len() {
        1 => push(found, lp, 1, base, vec![(extra[0] as u8, pair)]),
        n if n > 2 => push(found, lp, 2, base, type2(g, &extra, pair)),
        2 => {
            let (c1, c2) = (extra[0], extra[1]);
            let rest = (g.cands[c1] | g.cands[c2]) & !pair;
            if rest.count_ones() == 1 {
                push(found, lp, 2, base, type2(g, &extra, pair));
            } else if rest.count_ones() >= 2 {
                type3(g, lp, c1, c2, v1, v2, base, found);
            }
            type4(g, lp, c1, c2, v1, v2, base, found);
        }
        _ => {}
    }
}

fn type2(g: &Grid, extra: &[usize], pair: u16) -> Vec<(u8, u16)> {
    let value = (g.cands[extra[0]] & !pair).trailing_zeros() as u8;
    let mut common = !0u128;
    for &c in extra {
        common &= super::super::grid::PEERS[c];
    }
    (0..81)
        .filter(|&c| common >> c & 1 == 1 && !extra.contains(&c) && g.has(c, value))
        .map(|c| (c as u8, 1u16 << value))
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn type3(
    g: &Grid,
    lp: &[usize],
    c1: usize,
    c2: usize,
    v1: u8,
    v2: u8,
    base: f64,
    found: &mut Vec<Found>,
) {
    let pair = 1u16 << v1 | 1 << v2;
    let extra = (g.cands[c1] | g.cands[c2]) & !pair;
    for degree in extra.count_ones()..=7 {
        for kind in 0..3 {
            let r = CELL_REGIONS[c1][kind] as usize;
            if r != CELL_REGIONS[c2][kind] as usize {
                continue;
            }
            let empty = g.empty_count(r);
            let (i1, i2) = (index_in(r, c1), index_in(r, c2));
            if degree * 2 <= empty {
                for t in tuples(degree) {
                    if t >> i1 & 1 == 0 || t >> i2 & 1 == 1 {
                        continue;
                    }
                    let mut naked = extra & g.cands[c1] & g.cands[c2];
                    let mut union = 0u16;
                    let mut ok = true;
                    for i in bits(t) {
                        let p = if i == i1 {
                            extra
                        } else {
                            g.cands[REGION_CELLS[r][i] as usize]
                        };
                        if i != i1 {
                            naked |= p;
                        }
                        if p.count_ones() <= 1 {
                            ok = false;
                        }
                        union |= p;
                    }
                    if naked.count_ones() != degree || !ok || union.count_ones() != degree {
                        continue;
                    }
                    let mut rem = Vec::new();
                    for i in 0..9 {
                        let c = REGION_CELLS[r][i] as usize;
                        if t >> i & 1 == 0 && c != c1 && c != c2 {
                            add_removal(&mut rem, c, g.cands[c] & union);
                        }
                    }
                    let d = base + f64::from(union.count_ones() - 1) * 0.1;
                    push(found, lp, 3, d, rem);
                }
            }
            if degree * 2 < empty {
                let rem_values: Vec<u8> = (1..=9u8)
                    .filter(|&v| v != v1 && v != v2 && extra & (1 << v) == 0)
                    .collect();
                if (degree as usize) < 2 || degree as usize - 2 > rem_values.len() {
                    continue;
                }
                let k = degree - 2;
                let n = rem_values.len();
                for t in tuples(k).take_while(|&m| m < 1 << n) {
                    let mut hidden = pair;
                    for i in 0..n {
                        if t >> i & 1 == 1 {
                            hidden |= 1 << rem_values[i];
                        }
                    }
                    let mut union = 0u16;
                    let mut ok = true;
                    for v in super::super::grid::digits(hidden) {
                        let p = g.positions(r, v) & !(1 << i2);
                        if p == 0 {
                            ok = false;
                        }
                        union |= p;
                    }
                    if !ok || union.count_ones() != degree {
                        continue;
                    }
                    let idx = union & !(1 << i1) & !(1 << i2);
                    let mut rem = Vec::new();
                    for i in bits(idx) {
                        let c = REGION_CELLS[r][i] as usize;
                        add_removal(&mut rem, c, g.cands[c] & !hidden);
                    }
                    let d = base + f64::from(idx.count_ones().saturating_sub(1)) * 0.1;
                    push(found, lp, 5, d, rem);
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn type4(
    g: &Grid,
    lp: &[usize],
    c1: usize,
    c2: usize,
    v1: u8,
    v2: u8,
    base: f64,
    found: &mut Vec<Found>,
) {
    let (mut r1, mut r2) = (false, false);
    for kind in 0..3 {
        let r = CELL_REGIONS[c1][kind] as usize;
        if r != CELL_REGIONS[c2][kind] as usize {
            continue;
        }
        let others = REGION_CELLS[r]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| c != c1 && c != c2);
        let (mut has1, mut has2) = (false, false);
        for c in others {
            has1 |= g.has(c, v1);
            has2 |= g.has(c, v2);
        }
        r1 |= !has1;
        r2 |= !has2;
    }
    let rem = if r1 {
        v2
    } else if r2 {
        v1
    } else {
        return;
    };
    push(
        found,
        lp,
        4,
        base,
        vec![(c1 as u8, 1 << rem), (c2 as u8, 1 << rem)],
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serate::grid::parse;
    use crate::serate::singles::{hidden_single, locking, naked_single};

    /// SE's search as SE makes it, every path followed.
    fn every_path(
        s: &mut LoopSearch,
        cell: usize,
        allowed_ex: i32,
        ex_values: u16,
        last: Option<usize>,
    ) {
        let (v1, v2) = (s.v1, s.v2);
        s.path.push(cell);
        s.on_path |= 1 << cell;
        let mut ex = ex_values;
        for kind in (0..3).filter(|&k| Some(k) != last) {
            let r = CELL_REGIONS[cell][kind] as usize;
            for i in bits(s.places.get(r, v1) & s.places.get(r, v2)) {
                let next = REGION_CELLS[r][i] as usize;
                if s.path[0] == next && s.path.len() >= 4 {
                    s.loops.push(s.path.clone());
                } else if s.on_path >> next & 1 == 0 {
                    let p = s.g.cands[next];
                    ex = (ex | p) & !(1 << v1 | 1 << v2);
                    let card = pop(p);
                    if card == 2 || pop(ex) == 1 || allowed_ex > 0 {
                        let next_allowed = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                        every_path(s, next, next_allowed, ex, Some(kind));
                    }
                }
            }
        }
        s.path.pop();
        s.on_path &= !(1 << cell);
    }

    #[test]
    fn the_paths_not_followed_close_no_valid_loop() {
        let mut compared = 0;
        let mut valid = 0;
        // Invalid loops the pruned search did not close.
        let mut dropped = 0;
        for puzzle in [
            ".8..5..1........8.6..38...9...8..5...6..4...8.739..4..9.6.3.....35..1...2.......1",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        ] {
            let mut g = Grid::new(&parse(puzzle).expect("81 digits"));
            while let Some(h) = hidden_single(&g)
                .or_else(|| naked_single(&g))
                .or_else(|| locking(&g, false))
            {
                h.apply(&mut g);
            }
            let places = Positions::of(&g);
            for cell in (0..81).filter(|&c| g.cands[c].count_ones() == 2) {
                let m = g.cands[cell];
                let v1 = m.trailing_zeros() as u8;
                let v2 = (m & !(1 << v1)).trailing_zeros() as u8;
                let new = |g| LoopSearch::new(g, &places, v1, v2);
                let (mut pruned, mut whole) = (new(&g), new(&g));
                pruned.step(cell, 2, 0, None);
                every_path(&mut whole, cell, 2, 0, None);
                dropped += whole.loops.len() - pruned.loops.len();
                whole.loops.retain(|lp| is_valid(lp));
                pruned.loops.retain(|lp| is_valid(lp));
                assert_eq!(pruned.loops, whole.loops, "cell {cell}");
                compared += 1;
                valid += whole.loops.len();
            }
        }
        assert!(
            compared >= 20 && valid > 0 && dropped > 0,
            "{compared} searches, {valid} loops, {dropped} dropped"
        );
    }
}
