//! The generic exact solver: any box shape up to 64 cells a side.
//!
//! Candidates are one `u64` per cell (bit `d - 1` for digit `d`). Each search
//! node propagates, to a fixed point:
//!
//! 1. naked singles (a cell with one candidate is placed and its digit struck
//!    from its peers), through a work queue;
//! 2. hidden singles (a digit with one place in a unit), with the same unit
//!    scan detecting a digit with no place at all;
//! 3. locked candidates (pointing and claiming, along rows and columns);
//! 4. on large grids only, full all-different consistency per unit
//!    ([`Engine::alldiff_unit`]): a bipartite matching of cells to digits and
//!    the strongly connected components of its residual graph remove every
//!    candidate that belongs to no complete assignment of the unit (all naked
//!    and hidden subsets at once).
//!
//! It then branches two ways on one candidate of the cell with the fewest
//! candidates (ties broken by a conflict weight, dom/wdeg style): first
//! "the cell holds `d`", then "the cell does not hold `d`", which is
//! propagated in place. States live in a stack of preallocated frames, so a
//! search node allocates nothing.
//!
//! A uniqueness check or first-solution search (limit 1 or 2) that has met
//! [`SAT_AFTER_FAILS`] dead ends hands the candidates left by the root
//! propagation to the SAT solver ([`super::sat`]), with the solution found
//! so far, if any, excluded: on the rare grids that need that much
//! backtracking, clause learning beats any propagation at each node. Dead
//! ends, not guesses, are counted: filling a sparse large grid takes
//! thousands of guesses and no backtracking.

use std::time::Instant;

use crate::grid::Grid;

use super::{sat, SearchError, SearchOptions, SearchOutcome};

/// How often (in guesses) the deadline is checked.
const DEADLINE_EVERY: u64 = 64;

/// After this many dead ends the search hands the puzzle to the SAT solver.
/// Grids that need more are the few where clause learning pays (measured on
/// the Gecode 25x25 set: the two puzzles the search settles take ~600
/// guesses, 0.05 s, and the SAT solver as long; every guess spent on the
/// others is wasted).
pub(super) const SAT_AFTER_FAILS: u64 = 150;

/// The hand-over serves the questions the product asks: the first solution
/// (limit 1) and uniqueness (limit 2). Listing many solutions stays with
/// the search, which enumerates them far faster than blocking clauses do.
const SAT_UP_TO_LIMIT: usize = 2;

/// The fixed shape data of one box shape: units, peers, segments.
pub(crate) struct Geometry {
    side: usize,
    box_w: usize,
    box_h: usize,
    full: u64,
    /// `peers[cell * peer_count ..][.. peer_count]`: every other cell sharing
    /// a unit with `cell`.
    peers: Vec<u16>,
    peer_count: usize,
    /// `units[u * side ..][.. side]`: rows, then columns, then boxes.
    units: Vec<u16>,
    /// Unit numbers of each cell: row, column, box.
    cell_units: Vec<[u16; 3]>,
    /// The intersections of a line with a box (see [`Segment`]): row
    /// segments first, then column segments.
    segments: Vec<Segment>,
    /// Segment ids by line (a row's segments, then a column's, each line
    /// in turn), for claiming: a digit of a line confined to one segment
    /// leaves the rest of that segment's box.
    by_line: Vec<Vec<u16>>,
    /// Segment ids by box (a box's row segments, then its column
    /// segments), for pointing: a digit of a box confined to one segment
    /// leaves the rest of that segment's line.
    by_box: Vec<Vec<u16>>,
}

/// The cells where a line (row or column) and a box meet, with the other
/// cells of each: a digit the line (box) can hold only here leaves the
/// rest of the box (line). The cells come in the order the strikes were
/// always made, so that propagation and the search are the same.
struct Segment {
    cells: Vec<u16>,
    /// The line's other cells.
    line_rest: Vec<u16>,
    /// The box's other cells.
    box_rest: Vec<u16>,
}

impl Geometry {
    /// The geometry of a `box_w` x `box_h` box shape (side at most 64).
    pub(crate) fn new(box_w: usize, box_h: usize) -> Self {
        let side = box_w * box_h;
        let cells = side * side;
        let full = if side == 64 {
            u64::MAX
        } else {
            (1u64 << side) - 1
        };
        let box_of = |r: usize, c: usize| (r / box_h) * box_h + c / box_w;
        let mut units = Vec::with_capacity(3 * cells);
        for r in 0..side {
            units.extend((0..side).map(|c| (r * side + c) as u16));
        }
        for c in 0..side {
            units.extend((0..side).map(|r| (r * side + c) as u16));
        }
        for b in 0..side {
            let (r0, c0) = ((b / box_h) * box_h, (b % box_h) * box_w);
            for dr in 0..box_h {
                units.extend((0..box_w).map(|dc| ((r0 + dr) * side + c0 + dc) as u16));
            }
        }
        let peer_count = 2 * (side - 1) + (box_w - 1) * (box_h - 1);
        let mut peers = Vec::with_capacity(cells * peer_count);
        let mut cell_units = Vec::with_capacity(cells);
        for cell in 0..cells {
            let (r, c) = (cell / side, cell % side);
            let b = box_of(r, c);
            cell_units.push([r as u16, (side + c) as u16, (2 * side + b) as u16]);
            let (r0, c0) = ((r / box_h) * box_h, (c / box_w) * box_w);
            peers.extend(
                (0..side)
                    .filter(|&c2| c2 != c)
                    .map(|c2| (r * side + c2) as u16),
            );
            peers.extend(
                (0..side)
                    .filter(|&r2| r2 != r)
                    .map(|r2| (r2 * side + c) as u16),
            );
            for r2 in (r0..r0 + box_h).filter(|&r2| r2 != r) {
                for c2 in (c0..c0 + box_w).filter(|&c2| c2 != c) {
                    peers.push((r2 * side + c2) as u16);
                }
            }
        }
        debug_assert_eq!(peers.len(), cells * peer_count);
        let (segments, by_line, by_box) = segments(side, box_w, box_h);
        Geometry {
            side,
            box_w,
            box_h,
            full,
            peers,
            peer_count,
            units,
            cell_units,
            segments,
            by_line,
            by_box,
        }
    }

    /// Cells a side.
    pub(super) fn side(&self) -> usize {
        self.side
    }

    /// Cells in the grid.
    pub(super) fn cells(&self) -> usize {
        self.side * self.side
    }

    fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }

    /// The cells of unit `u`: rows, then columns, then boxes.
    pub(super) fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.side..(u + 1) * self.side]
    }
}

/// The line-box segments of a `box_w` x `box_h` shape with their
/// groupings by line and by box (see [`Geometry::segments`]). Row segment
/// `(r, j)` (row `r`, stack `j`) has id `r * box_h + j`; column segment
/// `(c, i)` (column `c`, band `i`) has id `side * box_h + c * box_w + i`.
fn segments(side: usize, w: usize, h: usize) -> (Vec<Segment>, Vec<Vec<u16>>, Vec<Vec<u16>>) {
    let n = side;
    let cell = |r: usize, c: usize| (r * n + c) as u16;
    let mut segments = Vec::with_capacity(n * (w + h));
    // The segments along every line, where `at(line, k)` is the line's
    // k-th cell, a segment holds `len` cells and a box spans `depth` lines.
    let mut along = |at: &dyn Fn(usize, usize) -> u16, len: usize, depth: usize| {
        for line in 0..n {
            let first = (line / depth) * depth;
            for j in 0..n / len {
                let (k0, k1) = (j * len, j * len + len);
                segments.push(Segment {
                    cells: (k0..k1).map(|k| at(line, k)).collect(),
                    line_rest: (0..n)
                        .filter(|&k| k < k0 || k >= k1)
                        .map(|k| at(line, k))
                        .collect(),
                    box_rest: (first..first + depth)
                        .filter(|&other| other != line)
                        .flat_map(|other| (k0..k1).map(move |k| at(other, k)))
                        .collect(),
                });
            }
        }
    };
    // Rows: row r, stack j (h stacks of w cells, boxes h rows deep); then
    // columns: column c, band i (w bands of h cells, boxes w columns wide).
    along(&|r, c| cell(r, c), w, h);
    along(&|c, r| cell(r, c), h, w);
    let row_seg = |r: usize, j: usize| (r * h + j) as u16;
    let col_seg = |c: usize, i: usize| (n * h + c * w + i) as u16;
    let mut by_line: Vec<Vec<u16>> = (0..n)
        .map(|r| (0..h).map(|j| row_seg(r, j)).collect())
        .collect();
    by_line.extend((0..n).map(|c| (0..w).map(|i| col_seg(c, i)).collect()));
    let mut by_box = Vec::with_capacity(2 * n);
    for b in 0..n {
        let (r0, c0) = ((b / h) * h, (b % h) * w);
        by_box.push((0..h).map(|k| row_seg(r0 + k, c0 / w)).collect());
        by_box.push((0..w).map(|k| col_seg(c0 + k, r0 / h)).collect());
    }
    (segments, by_line, by_box)
}

/// One search node's state.
#[derive(Clone)]
struct State {
    /// Candidates per cell; a placed cell keeps exactly its digit's bit.
    cand: Vec<u64>,
    /// Placed digit per cell (1-based), 0 while open.
    val: Vec<u8>,
    /// Cells still open.
    open: usize,
}

impl State {
    fn copy_from(&mut self, other: &State) {
        self.cand.copy_from_slice(&other.cand);
        self.val.copy_from_slice(&other.val);
        self.open = other.open;
    }
}

/// Propagation found a contradiction.
struct Contradiction;

type Prop = Result<(), Contradiction>;

/// The generic engine for one box shape.
pub(crate) struct Engine<'g> {
    geo: &'g Geometry,
    /// Cells whose candidates fell to one, waiting to be placed.
    queue: Vec<u16>,
    /// Whether to run the all-different matching propagation.
    alldiff: bool,
    /// Per unit: a fingerprint of its candidates when it was last made
    /// all-different consistent (the filtering depends on nothing else).
    unit_print: Vec<u64>,
    /// Conflict weight per unit (dom/wdeg): bumped on each wipe-out.
    weight: Vec<u32>,
    /// The unit that caused the last contradiction, if known.
    culprit: Option<usize>,
    /// Scratch for the all-different propagation.
    scratch: AlldiffScratch,
    /// Dead ends after which the SAT solver takes over.
    sat_after: u64,
    /// The largest solution limit the SAT solver takes over for.
    sat_up_to_limit: usize,
}

/// Scratch buffers for [`Engine::alldiff_unit`], reused across calls.
struct AlldiffScratch {
    /// Open cells of the unit (indices into the grid).
    cells: Vec<u16>,
    /// Candidate masks of those cells, restricted to the unit's open digits.
    dom: Vec<u64>,
    /// Matched digit per open cell.
    mate_of_cell: Vec<u8>,
    /// Matched open-cell index per digit (`u8::MAX` when free).
    mate_of_digit: [u8; 64],
    /// Reachability rows of the residual graph.
    reach: Vec<u64>,
}

impl<'g> Engine<'g> {
    /// An engine over `geo`; `strong` turns on the matching propagation
    /// (for large grids).
    pub(crate) fn new(geo: &'g Geometry, strong: bool) -> Self {
        Engine {
            geo,
            queue: Vec::with_capacity(geo.cells()),
            alldiff: strong,
            unit_print: vec![0; 3 * geo.side],
            weight: vec![1; 3 * geo.side],
            culprit: None,
            scratch: AlldiffScratch::default(),
            sat_after: SAT_AFTER_FAILS,
            sat_up_to_limit: SAT_UP_TO_LIMIT,
        }
    }

    /// Hands every puzzle that needs a guess to the SAT solver at once,
    /// whatever the limit (to cross-check that path).
    pub(crate) fn with_sat_at_once(mut self) -> Self {
        self.sat_after = 0;
        self.sat_up_to_limit = usize::MAX;
        self
    }

    /// Solves `puzzle` (whose shape must be this engine's), collecting up to
    /// `opts.limit` solutions.
    pub(crate) fn search(
        &mut self,
        puzzle: &Grid,
        opts: &SearchOptions,
    ) -> Result<SearchOutcome, SearchError> {
        let limit = opts.limit.max(1);
        let mut outcome = SearchOutcome {
            solutions: Vec::new(),
            guesses: 0,
            handed_over: false,
        };
        let cells = self.geo.cells();
        let mut states = vec![State {
            cand: vec![self.geo.full; cells],
            val: vec![0; cells],
            open: cells,
        }];
        self.queue.clear();
        if self.load(&mut states[0], puzzle).is_err() {
            return Ok(outcome);
        }
        // decisions[k]: the (cell, digit) assumed to go from depth k to k + 1.
        let mut decisions: Vec<(usize, u8)> = Vec::new();
        if self.propagate(&mut states[0]).is_err() {
            return Ok(outcome);
        }
        // The root state, for the SAT solver if the search runs too long.
        let root = states[0].clone();
        let hand_over_at = if limit <= self.sat_up_to_limit {
            self.sat_after
        } else {
            u64::MAX
        };
        let mut fails = 0u64;
        let mut ok = true;
        loop {
            if ok {
                let depth = decisions.len();
                if states[depth].open == 0 {
                    outcome
                        .solutions
                        .push(solution_grid(puzzle, &states[depth].val));
                    if outcome.solutions.len() >= limit {
                        return Ok(outcome);
                    }
                } else {
                    if fails >= hand_over_at {
                        return self.hand_over(puzzle, &root, limit, opts.deadline, outcome);
                    }
                    let (cell, digit) = self.choose(&states[depth]);
                    outcome.guesses += 1;
                    if outcome.guesses.is_multiple_of(DEADLINE_EVERY) {
                        if let Some(deadline) = opts.deadline {
                            if Instant::now() >= deadline {
                                return Err(SearchError::Timeout {
                                    guesses: outcome.guesses,
                                });
                            }
                        }
                    }
                    if states.len() == depth + 1 {
                        let copy = states[depth].clone();
                        states.push(copy);
                    } else {
                        let (lo, hi) = states.split_at_mut(depth + 1);
                        hi[0].copy_from(&lo[depth]);
                    }
                    decisions.push((cell, digit));
                    let child = &mut states[depth + 1];
                    self.queue.clear();
                    ok = self.assign(child, cell, digit).is_ok() && self.propagate(child).is_ok();
                    if !ok {
                        fails += 1;
                        self.bump();
                    }
                    continue;
                }
            }
            // Backtrack: refute the latest decision in its parent state.
            loop {
                let Some((cell, digit)) = decisions.pop() else {
                    return Ok(outcome);
                };
                let parent = &mut states[decisions.len()];
                if self.remove(parent, cell, 1u64 << (digit - 1)).is_ok()
                    && self.propagate(parent).is_ok()
                {
                    ok = true;
                    break;
                }
                fails += 1;
                self.bump();
            }
        }
    }

    /// Settles the puzzle with the SAT solver from the root state (after
    /// the search ran past its budget): the solutions the search found are
    /// kept and excluded, and the SAT solver looks for the rest.
    fn hand_over(
        &self,
        puzzle: &Grid,
        root: &State,
        limit: usize,
        deadline: Option<Instant>,
        mut outcome: SearchOutcome,
    ) -> Result<SearchOutcome, SearchError> {
        let known: Vec<&[u8]> = outcome.solutions.iter().map(Grid::cells).collect();
        let more = limit.saturating_sub(known.len());
        let found =
            sat::solve(self.geo, &root.cand, &root.val, &known, more, deadline).map_err(|_| {
                SearchError::Timeout {
                    guesses: outcome.guesses,
                }
            })?;
        outcome
            .solutions
            .extend(found.iter().map(|digits| solution_grid(puzzle, digits)));
        outcome.handed_over = true;
        Ok(outcome)
    }

    /// Places the givens; clashing givens are a contradiction.
    fn load(&mut self, st: &mut State, puzzle: &Grid) -> Prop {
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                self.assign(st, cell, v)?;
            }
        }
        Ok(())
    }

    /// Records a wipe-out against the unit that caused it.
    fn bump(&mut self) {
        if let Some(u) = self.culprit.take() {
            self.weight[u] = self.weight[u].saturating_add(1);
        }
    }

    /// Places `digit` in `cell` and strikes it from the peers.
    fn assign(&mut self, st: &mut State, cell: usize, digit: u8) -> Prop {
        let bit = 1u64 << (digit - 1);
        if st.val[cell] != 0 {
            return if st.val[cell] == digit {
                Ok(())
            } else {
                Err(Contradiction)
            };
        }
        if st.cand[cell] & bit == 0 {
            return Err(Contradiction);
        }
        st.val[cell] = digit;
        st.cand[cell] = bit;
        st.open -= 1;
        for &p in self.geo.peers_of(cell) {
            let p = p as usize;
            let c = st.cand[p];
            if c & bit != 0 {
                let c = c ^ bit;
                st.cand[p] = c;
                if c == 0 {
                    let (a, b) = (self.geo.cell_units[cell], self.geo.cell_units[p]);
                    let shared = (0..3).find(|&k| a[k] == b[k]).unwrap_or(2);
                    self.culprit = Some(b[shared] as usize);
                    return Err(Contradiction);
                }
                if c & (c - 1) == 0 && st.val[p] == 0 {
                    self.queue.push(p as u16);
                }
            }
        }
        Ok(())
    }

    /// Strikes `mask` from an open cell's candidates.
    #[inline]
    fn remove(&mut self, st: &mut State, cell: usize, mask: u64) -> Prop {
        let c = st.cand[cell];
        if c & mask == 0 {
            return Ok(());
        }
        let c = c & !mask;
        st.cand[cell] = c;
        if c == 0 {
            self.culprit = Some(self.geo.cell_units[cell][2] as usize);
            return Err(Contradiction);
        }
        if st.val[cell] != 0 {
            // A placed cell lost its digit.
            return Err(Contradiction);
        }
        if c & (c - 1) == 0 {
            self.queue.push(cell as u16);
        }
        Ok(())
    }

    /// Propagates to a fixed point.
    fn propagate(&mut self, st: &mut State) -> Prop {
        let result = self.propagate_inner(st);
        if result.is_err() {
            self.queue.clear();
        }
        result
    }

    fn propagate_inner(&mut self, st: &mut State) -> Prop {
        loop {
            while let Some(cell) = self.queue.pop() {
                let cell = cell as usize;
                if st.val[cell] == 0 {
                    let digit = st.cand[cell].trailing_zeros() as u8 + 1;
                    self.assign(st, cell, digit)?;
                }
            }
            if st.open == 0 {
                return Ok(());
            }
            if self.hidden_singles(st)? {
                continue;
            }
            if self.geo.box_w > 1 && self.geo.box_h > 1 && self.locked_candidates(st)? {
                continue;
            }
            if self.alldiff && self.alldiff_all(st)? {
                continue;
            }
            return Ok(());
        }
    }

    /// Places every hidden single; `Ok(true)` when something was placed.
    fn hidden_singles(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        let geo = self.geo;
        let mut placed = false;
        for u in 0..3 * geo.side {
            let unit = geo.unit(u);
            let (mut once, mut twice, mut fixed) = (0u64, 0u64, 0u64);
            for &cell in unit {
                let c = st.cand[cell as usize];
                twice |= once & c;
                once |= c;
                if st.val[cell as usize] != 0 {
                    fixed |= c;
                }
            }
            if once != geo.full {
                self.culprit = Some(u);
                return Err(Contradiction);
            }
            let mut singles = once & !twice & !fixed;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                if let Some(&cell) = unit.iter().find(|&&c| st.cand[c as usize] & bit != 0) {
                    self.assign(st, cell as usize, bit.trailing_zeros() as u8 + 1)?;
                    placed = true;
                }
            }
        }
        Ok(placed)
    }

    /// Pointing and claiming along rows and columns; `Ok(true)` when a
    /// candidate was struck.
    fn locked_candidates(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        let geo = self.geo;
        let before = self.queue.len();
        // Claiming first; pointing only when claiming struck nothing.
        let claimed = self.confine(st, &geo.by_line, |seg| &seg.box_rest)?;
        if claimed {
            return Ok(true);
        }
        let pointed = self.confine(st, &geo.by_box, |seg| &seg.line_rest)?;
        Ok(pointed || self.queue.len() > before)
    }

    /// For each group of segments that partition a unit: a digit the open
    /// cells of the group hold in one segment only is struck from that
    /// segment's `rest` cells. `Ok(true)` when something was struck.
    fn confine(
        &mut self,
        st: &mut State,
        groups: &[Vec<u16>],
        rest: impl Fn(&Segment) -> &[u16],
    ) -> Result<bool, Contradiction> {
        let geo = self.geo;
        let mut changed = false;
        let mut unions = [0u64; 64];
        for group in groups {
            for (u, &seg) in unions.iter_mut().zip(group) {
                *u = geo.segments[usize::from(seg)]
                    .cells
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| st.val[c] == 0)
                    .fold(0, |acc, c| acc | st.cand[c]);
            }
            let unions = &unions[..group.len()];
            for (k, &seg) in group.iter().enumerate() {
                let others = unions
                    .iter()
                    .enumerate()
                    .filter(|&(x, _)| x != k)
                    .fold(0, |acc, (_, &m)| acc | m);
                let only = unions[k] & !others;
                if only == 0 {
                    continue;
                }
                for &cell in rest(&geo.segments[usize::from(seg)]) {
                    let cell = usize::from(cell);
                    if st.val[cell] == 0 && st.cand[cell] & only != 0 {
                        self.remove(st, cell, only)?;
                        changed = true;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// All-different consistency on every unit; `Ok(true)` when a candidate
    /// was struck.
    fn alldiff_all(&mut self, st: &mut State) -> Result<bool, Contradiction> {
        let mut changed = false;
        for u in 0..3 * self.geo.side {
            let print = self.fingerprint(st, u);
            if print == self.unit_print[u] {
                // Filtered before with these very candidates: nothing to do
                // (a fingerprint collision only skips some pruning).
                continue;
            }
            if self
                .alldiff_unit(st, u)
                .inspect_err(|_| self.culprit = Some(u))?
            {
                changed = true;
                self.unit_print[u] = self.fingerprint(st, u);
            } else {
                self.unit_print[u] = print;
            }
        }
        Ok(changed)
    }

    /// A fingerprint of one unit's candidates.
    fn fingerprint(&self, st: &State, u: usize) -> u64 {
        self.geo
            .unit(u)
            .iter()
            .fold(0x9E37_79B9_7F4A_7C15u64, |h, &cell| {
                (h ^ st.cand[cell as usize])
                    .wrapping_mul(0x0100_0000_01B3)
                    .rotate_left(29)
            })
    }

    /// Régin's all-different filtering for one unit: keeps exactly the
    /// candidates that are part of some complete assignment of the unit's
    /// open cells to its open digits.
    fn alldiff_unit(&mut self, st: &mut State, u: usize) -> Result<bool, Contradiction> {
        let geo = self.geo;
        let s = &mut self.scratch;
        s.cells.clear();
        s.dom.clear();
        let mut fixed = 0u64;
        for &cell in geo.unit(u) {
            if st.val[cell as usize] != 0 {
                fixed |= st.cand[cell as usize];
            } else {
                s.cells.push(cell);
            }
        }
        let k = s.cells.len();
        if k < 2 {
            return Ok(false);
        }
        for &cell in &s.cells {
            s.dom.push(st.cand[cell as usize] & !fixed);
        }
        // Maximum matching by augmenting paths (greedy start).
        s.mate_of_digit = [u8::MAX; 64];
        s.mate_of_cell.clear();
        s.mate_of_cell.resize(k, u8::MAX);
        let mut used = 0u64;
        for x in 0..k {
            let free = s.dom[x] & !used;
            if free != 0 {
                used |= free & free.wrapping_neg();
                let d = free.trailing_zeros() as usize;
                s.mate_of_cell[x] = d as u8;
                s.mate_of_digit[d] = x as u8;
            }
        }
        for x in 0..k {
            if s.mate_of_cell[x] == u8::MAX && !augment(s, x) {
                return Err(Contradiction);
            }
        }
        let union = s.dom.iter().fold(0u64, |acc, &m| acc | m);
        if union.count_ones() as usize != k {
            // More digits than cells cannot happen in a consistent unit
            // (placed digits are struck from their peers); filter nothing
            // rather than reason on a matching that leaves digits free.
            return Ok(false);
        }
        // Residual graph on open cells: x -> y when x can take y's digit.
        // Since the matching is perfect (k cells, k digits), an unmatched
        // edge x-d survives iff x and mate(d) share a strongly connected
        // component. Transitive closure by bit rows (Warshall).
        s.reach.clear();
        for x in 0..k {
            let mut row = 0u64;
            let mut m = s.dom[x];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                row |= 1u64 << s.mate_of_digit[d];
            }
            s.reach.push(row);
        }
        for m in 0..k {
            let bit = 1u64 << m;
            let rm = s.reach[m];
            for x in 0..k {
                if s.reach[x] & bit != 0 {
                    s.reach[x] |= rm;
                }
            }
        }
        let mut changed = false;
        for x in 0..k {
            let mut keep = 1u64 << s.mate_of_cell[x];
            let mut m = s.dom[x] & !keep;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let y = s.mate_of_digit[d] as usize;
                if s.reach[y] & (1u64 << x) != 0 && s.reach[x] & (1u64 << y) != 0 {
                    keep |= 1u64 << d;
                }
            }
            let cell = s.cells[x] as usize;
            let drop = st.cand[cell] & !keep;
            if drop != 0 {
                changed = true;
                // `remove` needs `&mut self`; the scratch borrow ends here.
                let c = st.cand[cell] & !drop;
                st.cand[cell] = c;
                if c & (c - 1) == 0 {
                    self.queue.push(cell as u16);
                }
            }
        }
        Ok(changed)
    }

    /// The branching decision: a candidate of the open cell with the
    /// smallest ratio of candidates to conflict weight (dom/wdeg; with equal
    /// weights, the fewest candidates).
    fn choose(&self, st: &State) -> (usize, u8) {
        let geo = self.geo;
        // (candidates, weight, cell); a is better than b when
        // a.count / a.weight < b.count / b.weight.
        let mut best = (u64::MAX, 1u64, 0usize);
        for cell in 0..geo.cells() {
            if st.val[cell] != 0 {
                continue;
            }
            let count = u64::from(st.cand[cell].count_ones());
            let [r, c, b] = geo.cell_units[cell];
            let w = u64::from(self.weight[r as usize])
                + u64::from(self.weight[c as usize])
                + u64::from(self.weight[b as usize]);
            if count.saturating_mul(best.1) < best.0.saturating_mul(w) {
                best = (count, w, cell);
            }
        }
        let cell = best.2;
        (cell, st.cand[cell].trailing_zeros() as u8 + 1)
    }
}

impl Default for AlldiffScratch {
    fn default() -> Self {
        AlldiffScratch {
            cells: Vec::with_capacity(64),
            dom: Vec::with_capacity(64),
            mate_of_cell: Vec::with_capacity(64),
            mate_of_digit: [u8::MAX; 64],
            reach: Vec::with_capacity(64),
        }
    }
}

/// Finds an augmenting path from the unmatched open cell `x` (breadth
/// first over digits) and flips it; false when there is none.
fn augment(s: &mut AlldiffScratch, x: usize) -> bool {
    // parent_cell[d]: the cell from which digit d was reached.
    let mut parent_cell = [u8::MAX; 64];
    let mut seen = 0u64;
    let mut frontier: u64 = 1u64 << x; // cells to expand
    while frontier != 0 {
        let mut next = 0u64;
        let mut f = frontier;
        while f != 0 {
            let y = f.trailing_zeros() as usize;
            f &= f - 1;
            let mut m = s.dom[y] & !seen;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                seen |= 1u64 << d;
                parent_cell[d] = y as u8;
                let mate = s.mate_of_digit[d];
                if mate == u8::MAX {
                    // Flip the path back to x.
                    let mut d = d;
                    loop {
                        let y = parent_cell[d] as usize;
                        let prev = s.mate_of_cell[y];
                        s.mate_of_cell[y] = d as u8;
                        s.mate_of_digit[d] = y as u8;
                        if y == x {
                            return true;
                        }
                        d = prev as usize;
                    }
                }
                next |= 1u64 << mate;
            }
        }
        frontier = next;
    }
    false
}

/// The grid of a finished state, in the puzzle's shape.
fn solution_grid(puzzle: &Grid, val: &[u8]) -> Grid {
    let mut grid = puzzle.clone();
    let side = grid.side();
    for (cell, &v) in val.iter().enumerate() {
        grid.set(cell / side, cell % side, v);
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_state(geo: &Geometry) -> State {
        State {
            cand: vec![geo.full; geo.cells()],
            val: vec![0; geo.cells()],
            open: geo.cells(),
        }
    }

    #[test]
    fn geometry_lists_peers_and_units() {
        let geo = Geometry::new(3, 3);
        assert_eq!(geo.peer_count, 20);
        let mut peers: Vec<u16> = geo.peers_of(0).to_vec();
        peers.sort_unstable();
        assert_eq!(
            peers,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20, 27, 36, 45, 54, 63, 72]
        );
        let six = Geometry::new(3, 2);
        assert_eq!(
            six.unit(12 + 1),
            [3, 4, 5, 9, 10, 11],
            "box 1 of a 3x2 grid"
        );
        assert_eq!(six.cell_units[9], [1, 6 + 3, 12 + 1]);
        assert_eq!(Geometry::new(8, 8).full, u64::MAX);
    }

    #[test]
    fn alldiff_strikes_a_naked_pair_from_the_rest_of_the_unit() {
        let geo = Geometry::new(3, 3);
        let mut engine = Engine::new(&geo, true);
        let mut st = open_state(&geo);
        st.cand[0] = 0b011;
        st.cand[1] = 0b011;
        assert!(matches!(engine.alldiff_unit(&mut st, 0), Ok(true)));
        assert!((2..9).all(|c| st.cand[c] == geo.full & !0b011));
        assert_eq!(st.cand[9], geo.full, "other units untouched");
    }

    #[test]
    fn alldiff_reduces_a_hidden_pair_to_its_digits() {
        let geo = Geometry::new(3, 3);
        let mut engine = Engine::new(&geo, true);
        let mut st = open_state(&geo);
        // Digits 8 and 9 only in cells 0 and 1 of row 0.
        for c in 2..9 {
            st.cand[c] &= !0b1_1000_0000;
        }
        assert!(matches!(engine.alldiff_unit(&mut st, 0), Ok(true)));
        assert_eq!((st.cand[0], st.cand[1]), (0b1_1000_0000, 0b1_1000_0000));
    }

    #[test]
    fn alldiff_finds_three_cells_sharing_two_digits_contradictory() {
        let geo = Geometry::new(2, 2);
        let mut engine = Engine::new(&geo, true);
        let mut st = open_state(&geo);
        for c in 0..3 {
            st.cand[c] = 0b0011;
        }
        assert!(engine.alldiff_unit(&mut st, 0).is_err());
    }

    #[test]
    fn locked_candidates_point_and_claim() {
        let geo = Geometry::new(3, 3);
        let mut engine = Engine::new(&geo, false);
        let mut st = open_state(&geo);
        // In box 0, digit 1 only in row 0: pointing strikes it from the rest
        // of row 0.
        for cell in [9, 10, 11, 18, 19, 20] {
            st.cand[cell] &= !1;
        }
        assert!(matches!(engine.locked_candidates(&mut st), Ok(true)));
        assert!((3..9).all(|c| st.cand[c] & 1 == 0));
        assert!(st.cand[0] & 1 != 0 && st.cand[27] & 1 != 0);
    }

    #[test]
    fn segments_split_each_line_and_box_into_line_box_intersections() {
        for (w, h) in [(3, 3), (3, 2), (2, 3), (4, 2), (5, 5)] {
            let geo = Geometry::new(w, h);
            let n = geo.side;
            let sorted = |cells: &[u16]| {
                let mut v = cells.to_vec();
                v.sort_unstable();
                v
            };
            // The cells of a group of segments, sorted.
            let union = |group: &[u16]| {
                let cells: Vec<u16> = group
                    .iter()
                    .flat_map(|&s| geo.segments[usize::from(s)].cells.clone())
                    .collect();
                sorted(&cells)
            };
            // Each line's segments cover it, and each box's row (column)
            // segments cover the box.
            for (line, group) in geo.by_line.iter().enumerate() {
                assert_eq!(union(group), sorted(geo.unit(line)), "{w}x{h} line {line}");
            }
            for (k, group) in geo.by_box.iter().enumerate() {
                let bx = 2 * n + k / 2;
                assert_eq!(union(group), sorted(geo.unit(bx)), "{w}x{h} box {}", k / 2);
            }
            // A segment and its rests make up its line and its box.
            for seg in &geo.segments {
                let cell = usize::from(seg.cells[0]);
                let [row, col, bx] = geo.cell_units[cell];
                let line = if seg.cells.iter().all(|&c| usize::from(c) / n == cell / n) {
                    row
                } else {
                    col
                };
                let whole = |rest: &[u16]| sorted(&[seg.cells.as_slice(), rest].concat());
                assert_eq!(whole(&seg.line_rest), sorted(geo.unit(usize::from(line))));
                assert_eq!(whole(&seg.box_rest), sorted(geo.unit(usize::from(bx))));
            }
        }
    }

    /// On an open `w` x `h`-box grid, strikes digit bit `bit` from the
    /// cells `struck`; one locked-candidates pass must then remove it from
    /// exactly the `lost` cells among the cells still holding it, keeping it
    /// in `kept`.
    fn locks(w: usize, h: usize, bit: u64, struck: &[usize], lost: &[usize], kept: &[usize]) {
        let geo = Geometry::new(w, h);
        let mut engine = Engine::new(&geo, false);
        let mut st = open_state(&geo);
        for &cell in struck {
            st.cand[cell] &= !bit;
        }
        assert!(matches!(engine.locked_candidates(&mut st), Ok(true)));
        let gone: Vec<usize> = (0..geo.cells())
            .filter(|c| !struck.contains(c) && st.cand[*c] & bit == 0)
            .collect();
        assert_eq!(gone, lost, "{w}x{h}: cells that lost the digit");
        assert!(kept.iter().all(|&c| st.cand[c] & bit != 0), "{w}x{h}");
    }

    #[test]
    fn claiming_strikes_the_rest_of_the_box_in_rows_and_columns() {
        // 6x6 with 3x2 boxes (3 columns, 2 rows). In row 0, digit 1 only in
        // the first stack (columns 0-2): the rest of box 0 (row 1, columns
        // 0-2) loses it.
        locks(3, 2, 1, &[3, 4, 5], &[6, 7, 8], &[0, 9]);
        // In column 5, digit 2 only in band 0 (rows 0-1): the rest of box 1
        // (columns 3-4 of rows 0-1) loses it.
        locks(3, 2, 2, &[17, 23, 29, 35], &[3, 4, 9, 10], &[5, 15]);
    }

    #[test]
    fn pointing_strikes_the_rest_of_the_line_in_rows_and_columns() {
        // 6x6 with 2x3 boxes (2 columns, 3 rows): box 0 is rows 0-2,
        // columns 0-1. Digit 1 only in row 0 of box 0 (no claiming: every
        // row and column still holds it in two boxes): row 0 beyond the box
        // loses it.
        locks(2, 3, 1, &[6, 7, 12, 13], &[2, 3, 4, 5], &[0, 18]);
        // 6x6 with 3x2 boxes, box 0 rows 0-1, columns 0-2: digit 2 only in
        // column 1 of box 0 (columns 0 and 2 still hold it in two other
        // bands, rows 0 and 1 in the other stack): column 1 below the box
        // loses it.
        locks(3, 2, 2, &[0, 2, 6, 8], &[13, 19, 25, 31], &[1, 12]);
    }

    #[test]
    fn a_wipe_out_blames_the_unit_the_cells_share() {
        let geo = Geometry::new(3, 3);
        let mut engine = Engine::new(&geo, false);
        let mut st = open_state(&geo);
        st.cand[40] = 0b10; // centre cell: only digit 2
        assert!(engine.assign(&mut st, 44, 2).is_err(), "same row");
        assert_eq!(engine.culprit, Some(4), "row 5");
    }
}
