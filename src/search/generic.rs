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

use super::geometry::{Geometry, Segment};
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
mod tests;
