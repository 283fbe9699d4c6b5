//! The implications SE's chainer follows, and its run from a set of
//! assumptions to everything they force (`doChaining`).
//!
//! From an "on" potential: the cell's other candidates go off (a "Y"
//! link, not in Nishio mode), and the digit goes off in the other cells of
//! its block, row and column. From an "off" potential: a cell left with
//! one other candidate turns it on (Y), a region left with one other
//! place for the digit turns it on (X). In dynamic mode every "off" is
//! struck from the working grid once processed, so later links see the
//! position the assumptions leave; what was struck before becomes the
//! link's "hidden parents", and counts in the chain's length.

use super::super::grid::{
    bits, digits, Grid, CELL_INDEXES, CELL_REGIONS, HOUSE_PARTS, REGION_CELLS,
};
use super::graph::{cell_of, conjugate, digit_of, key, Arena};

/// Where an "on" came from: the cell (naked single) or a region.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    /// The cell had two candidates left.
    Cell,
    /// The region (index) had two places left.
    Region(u8),
}

impl Source {
    /// The node cause of an "on" from this source.
    pub fn code(self) -> u8 {
        match self {
            Source::Cell => super::graph::CAUSE_CELL,
            Source::Region(r) => r,
        }
    }
}

/// The "off" potentials an "on" potential forces, in SE's order
/// (`places` are those of `g`).
#[inline]
pub fn on_to_off(g: &Grid, places: &Places, k: u16, y: bool, out: &mut Vec<u16>) {
    out.clear();
    on_to_off_each(g, places, k, y, |off| out.push(off));
}

/// [`on_to_off`], each "off" given to `each` in turn (no list made).
#[inline(always)]
pub fn on_to_off_each(g: &Grid, places: &Places, k: u16, y: bool, mut each: impl FnMut(u16)) {
    let (cell, d) = (cell_of(k), digit_of(k));
    if y {
        for v in digits(g.cands[cell] & !(1 << d)) {
            each(key(cell, v, false));
        }
    }
    // The peers holding `d`, in SE's order (block, row, column), by bit
    // operations on the digit's cells instead of a walk of the 20 peers.
    let with_d = places.cells[d as usize];
    for part in HOUSE_PARTS[cell] {
        let mut m = part & with_d;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            each(key(c, d, false));
        }
    }
}

/// The places of each digit in each region of a grid (bit `i` for the
/// region's `i`-th cell), kept up to date as a run strikes candidates,
/// so that an "off" finds the regions left with two places, and their
/// other place, by bit operations instead of scanning the region; and
/// the cells of each digit (bit `c` for cell `c`), for an "on"'s peers.
#[derive(Debug, Clone)]
pub struct Places {
    regions: [[u16; 10]; 27],
    cells: [u128; 10],
}

impl Places {
    /// The places of `g`.
    pub fn new(g: &Grid) -> Places {
        let mut p = Places {
            regions: [[0; 10]; 27],
            cells: [0; 10],
        };
        for c in 0..81 {
            let mut m = g.cands[c];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                p.cells[d] |= 1 << c;
                for (r, i) in regions_and_indexes(c) {
                    p.regions[r][d] |= 1 << i;
                }
            }
        }
        p
    }

    /// The places of `d` in region `r` (as [`Grid::positions`]).
    #[inline]
    pub fn of(&self, r: usize, d: u8) -> u16 {
        self.regions[r][d as usize]
    }

    /// The cells holding `d` (bit `c` for cell `c`).
    #[inline]
    pub fn cells_of(&self, d: u8) -> u128 {
        self.cells[d as usize]
    }

    /// Strikes `d` from `cell` in `g`, keeping the places.
    pub fn strike(&mut self, g: &mut Grid, cell: usize, d: u8) {
        if g.cands[cell] & (1 << d) != 0 {
            g.cands[cell] &= !(1 << d);
            self.cells[d as usize] &= !(1 << cell);
            for (r, i) in regions_and_indexes(cell) {
                self.regions[r][d as usize] &= !(1 << i);
            }
        }
    }
}

/// The three regions of `cell` with its index in each (two table
/// look-ups: the divisions they replace were a tenth of a run's work).
#[inline(always)]
fn regions_and_indexes(cell: usize) -> [(usize, usize); 3] {
    let [b, r, c] = CELL_REGIONS[cell];
    let [i, j, k] = CELL_INDEXES[cell];
    [
        (b as usize, i as usize),
        (r as usize, j as usize),
        (c as usize, k as usize),
    ]
}

/// The "on" potentials an "off" potential forces, in SE's order, each
/// with where it came from (for its hidden parents). `places` are the
/// counts of `g`.
#[inline(always)]
pub fn off_to_on(
    g: &Grid,
    places: &Places,
    k: u16,
    (y, x): (bool, bool),
    out: &mut Vec<(u16, Source)>,
) {
    out.clear();
    let (cell, d) = (cell_of(k), digit_of(k));
    if y {
        let m = g.cands[cell];
        if two(m) {
            let other = (m & !(1 << d)).trailing_zeros() as u8;
            out.push((key(cell, other, true), Source::Cell));
        }
    }
    if x {
        for (r, i) in regions_and_indexes(cell) {
            let pos = places.of(r, d);
            if !two(pos) {
                continue;
            }
            // With exactly two places for `d`: the first that is not
            // `cell` (SE's `nextSetBit` walk).
            let first = pos.trailing_zeros() as usize;
            let at = if first == i {
                (pos & (pos - 1)).trailing_zeros() as usize
            } else {
                first
            };
            let other = REGION_CELLS[r][at] as usize;
            let k2 = key(other, d, true);
            if !out.iter().any(|&(q, _)| q == k2) {
                out.push((k2, Source::Region(r as u8)));
            }
        }
    }
}

/// Whether a bit set has exactly two bits (without a popcount, which
/// the baseline x86-64 build has not).
#[inline]
fn two(m: u16) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// The parents of an "on" reached from `p`: `p`, then the candidates
/// the working grid lost since the run began (SE's hidden parents).
pub fn parents_of(
    arena: &Arena,
    p: u32,
    on: u16,
    src: Source,
    (start, cur): (&Grid, &Grid),
    (start_places, cur_places): (&Places, &Places),
    out: &mut Vec<u32>,
) {
    out.clear();
    out.push(p);
    let (cell, d) = (cell_of(on), digit_of(on));
    match src {
        Source::Cell => {
            let lost = start.cands[cell] & !cur.cands[cell];
            for v in digits(lost) {
                if let Some(n) = arena.get(key(cell, v, false)) {
                    out.push(n);
                }
            }
        }
        Source::Region(r) => {
            let r = r as usize;
            let lost = start_places.of(r, d) & !cur_places.of(r, d);
            for i in bits(lost) {
                if let Some(n) = arena.get(key(REGION_CELLS[r][i] as usize, d, false)) {
                    out.push(n);
                }
            }
        }
    }
}

/// How a run follows the links.
#[derive(Debug, Clone, Copy)]
pub struct Mode {
    /// Whether cell ("Y") links are used (not in Nishio mode).
    pub y: bool,
    /// Whether "offs" are struck from the working grid as they come.
    pub dynamic: bool,
    /// Nesting level: 1 asks the simple rules when the links run out.
    pub level: u8,
}

/// Reusable buffers of the runs on one grid.
#[derive(Debug)]
pub struct Scratch {
    places: Places,
    offs: Vec<u16>,
    ons: Vec<(u16, Source)>,
    parents: Vec<u32>,
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    advanced: Vec<(u16, Vec<u32>, Option<u32>)>,
}

impl Scratch {
    /// Buffers for runs on `g`.
    pub fn new(g: &Grid) -> Scratch {
        Scratch {
            places: Places::new(g),
            offs: Vec::new(),
            ons: Vec::new(),
            parents: Vec::new(),
            pending_on: Vec::new(),
            pending_off: Vec::new(),
            advanced: Vec::new(),
        }
    }
}

/// SE's `doChaining`: from the assumptions already in `arena`, adds
/// everything they force (`s` made for `g`). Returns the first contradiction met (the "on"
/// and the "off" node of one candidate), the sets left as they were then.
pub fn run(g: &Grid, arena: &mut Arena, mode: Mode, s: &mut Scratch) -> Option<(u32, u32)> {
    let mut cur = g.clone();
    let mut places = s.places.clone();
    s.pending_on.clear();
    s.pending_off.clear();
    for &n in &arena.order {
        if super::graph::is_on(arena.key(n)) {
            s.pending_on.push(n);
        } else {
            s.pending_off.push(n);
        }
    }
    let (mut ho, mut hf) = (0, 0);
    loop {
        if ho < s.pending_on.len() {
            let p = s.pending_on[ho];
            ho += 1;
            on_to_off(&cur, &places, arena.key(p), mode.y, &mut s.offs);
            for i in 0..s.offs.len() {
                let k = s.offs[i];
                if let Some(on) = arena.get(conjugate(k)) {
                    let off = arena.make(k, &[p]);
                    return Some((on, off));
                }
                if !arena.contains(k) {
                    let n = arena.make(k, &[p]);
                    arena.insert(n);
                    s.pending_off.push(n);
                }
            }
        } else if hf < s.pending_off.len() {
            let p = s.pending_off[hf];
            hf += 1;
            let pk = arena.key(p);
            off_to_on(&cur, &places, pk, (mode.y, true), &mut s.ons);
            for i in 0..s.ons.len() {
                let (k, src) = s.ons[i];
                let twin = arena.get(conjugate(k));
                if twin.is_none() && arena.contains(k) {
                    continue;
                }
                parents_of(
                    arena,
                    p,
                    k,
                    src,
                    (g, &cur),
                    (&s.places, &places),
                    &mut s.parents,
                );
                let n = arena.make(k, &s.parents);
                arena.set_cause(n, src.code());
                // Its "off" already reached: the run contradicts itself.
                if let Some(off) = twin {
                    return Some((n, off));
                }
                arena.insert(n);
                s.pending_on.push(n);
            }
            if mode.dynamic {
                places.strike(&mut cur, cell_of(pk), digit_of(pk));
            }
        } else {
            if mode.level == 0 {
                return None;
            }
            let grids = super::advanced::RunGrids {
                start: g,
                cur: &cur,
                start_places: &s.places,
                cur_places: &places,
            };
            super::advanced::potentials(grids, arena, mode.level, &mut s.advanced);
            let before = s.pending_off.len();
            for (k, parents, nest) in std::mem::take(&mut s.advanced) {
                if !arena.contains(k) {
                    let n = arena.make(k, &parents);
                    if let Some(nest) = nest {
                        arena.set_nest(n, nest);
                    }
                    arena.insert(n);
                    s.pending_off.push(n);
                }
            }
            if s.pending_off.len() == before {
                return None;
            }
        }
    }
}
