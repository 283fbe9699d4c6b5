//! The specialised 9x9 solver (3x3 boxes): band bitboards.
//!
//! The grid is three bands of three rows. For each digit and band one `u32`
//! holds the 27 cells of the band where the digit may still go (bit
//! `row_in_band * 9 + column`). In a solution each digit sits once in each
//! row and once in each box of a band: a perfect matching of the band's three
//! rows to its three boxes. Propagation per (digit, band) word:
//!
//! - row/box matching: a table keeps exactly the row-box pairs that belong
//!   to some perfect matching, which covers locked candidates (pointing and
//!   claiming along rows) and hidden singles in boxes;
//! - columns: when the digit's places in one box lie in one column, that
//!   column is struck in the other two bands (pointing along columns), and a
//!   column left with no place is a contradiction. Claiming along columns
//!   is left out: it saves guesses but costs more per node than they do;
//! - a row of the band left with one place fixes the digit there (hidden
//!   single in a row), striking the cell from the other digits;
//! - cell by cell, a cell left with one digit is placed (naked single) and a
//!   cell left with none is a contradiction.
//!
//! The 27 words are stored band by band (a band's nine words side by
//! side, see [`w`]). Only changed words are propagated (a dirty bit per
//! word, visited in sweeps so that consecutive words overlap in the
//! processor), and the hot updates are branch-free. A guess or a naked
//! single strikes only its own digit's row and box: the word update then
//! finds the row single and clears the cell of the other digits. Loading
//! builds each word from the givens at once (SSE2 compares of a band's 27
//! cells with each digit, then the givens' rows and boxes by table; a clash
//! is a row with two givens, two rows in one box, or one column in two
//! bands).
//!
//! Search branches on a cell with two candidates when there is one (else
//! one with three, else any), preferring the cell with the most open cells
//! among its peers (ties: the most pairs among its row and box peers) while
//! many cells are unsolved (the first pair near the leaves, and always from
//! [`QUICK_GIVENS`] givens on), and copies the 124-byte state on the stack:
//! no allocation per node.
//!
//! The whole search is compiled more than once: for the x86-64 baseline,
//! and for the bit-manipulation extensions (`popcnt`, BMI1, BMI2, `lzcnt`),
//! with or without `pext` for the row/box pattern of a word (see [`Isa`]:
//! detected at run time, so one binary serves every processor).
//!
//! Each of these choices was measured against its alternatives, and many
//! alternatives were measured and left out: docs/performance-log.md
//! ("The 9×9 exact solver").

use std::time::Instant;

use super::{Found, SearchError, SearchOptions};
pub(super) use isa::isa_name;
use isa::*;
use tables::*;

mod isa;
mod tables;

/// With at most this many unsolved cells, branch on the first cell with two
/// candidates without scoring it: near the leaves the subtrees are small and
/// the scoring costs more than a better pick saves (measured: +4% on grids
/// with many solutions, neutral on hard unique ones; 20 and 35 did worse,
/// 31 no better: serg +0.3%, hard sets -0.7%).
const QUICK_BELOW: u32 = 27;

/// From this many givens on, the first pair is always taken unscored (as
/// below [`QUICK_BELOW`]): the whole tree is small, and most such grids
/// that need a guess at all have several solutions, where a quick dive
/// pays. Measured on generated sets (minimal puzzles with givens added from
/// their solution, and solutions with all but N givens blanked): serg
/// (34-35 givens, all multiple) +5.6%, 30 givens multiple +4%, 32 +2%;
/// 30-34 givens unique from the random minimal set neutral, from the
/// hardest set -1% (32) to -2.5% (30).
const QUICK_GIVENS: u32 = 30;

/// Spare slots for the blanks while loading the givens (see [`givens`]).
const SPARE: usize = 8;

/// How often (in guesses) the deadline is checked.
const DEADLINE_EVERY: u64 = 256;

/// The row/box pattern of a band word: bit `row * 3 + box` when the row
/// has a place in that box.
///
/// In the copy of the search compiled for [`BMI_PEXT`], one `pext` of the
/// word with each cell's two right neighbours folded in gathers every third
/// bit; otherwise three table look-ups.
#[inline(always)]
fn shrink<const ISA: u8>(f: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if ISA == BMI_PEXT {
        debug_assert!(runs(ISA));
        // SAFETY: this copy runs only in `State::propagate_bmi` (see
        // [`BASELINE`]), and BMI2 was detected.
        return unsafe { std::arch::x86_64::_pext_u32(f | (f >> 1) | (f >> 2), 0x0124_9249) }
            as usize;
    }
    SHRINK[(f & 0x1FF) as usize] as usize
        | (SHRINK[((f >> 9) & 0x1FF) as usize] as usize) << 3
        | (SHRINK[(f >> 18) as usize] as usize) << 6
}

/// The columns (9 bits) where a band word has a bit.
#[inline(always)]
fn columns_of(f: u32) -> u32 {
    (f | (f >> 9) | (f >> 18)) & 0x1FF
}

/// The givens of a 9x9 grid (81 cells, row-major, 0 or anything above 9
/// blank) as digit-band words: `given[w(digit, band)]`. On x86-64 with
/// SSE2 compares, a band's 27 cells against each digit at once: no loop
/// over the cells, and no chain of updates through memory (measured:
/// serg +0.7%, 17_clue +1.8%, generated minimal puzzles +6%).
fn givens(cells: &[u8]) -> [u32; 27] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(cells) = cells.get(..81) {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8, _mm_set_epi64x};
        // Two overlapping 16-byte loads cover a band's 27 cells: 0-15 and
        // 11-26.
        let half = |at: usize| {
            let word = |k: usize| {
                let mut b = [0u8; 8];
                b.copy_from_slice(&cells[at + k..at + k + 8]);
                i64::from_le_bytes(b)
            };
            // SAFETY: SSE2 is enabled (the cfg above; x86-64 baseline).
            unsafe { _mm_set_epi64x(word(8), word(0)) }
        };
        let mut given = [0u32; 27];
        for band in 0..3 {
            let (lo, hi) = (half(band * 27), half(band * 27 + 11));
            for d in 0..9 {
                // SAFETY: SSE2 is enabled (the cfg above; x86-64 baseline).
                let (low, high) = unsafe {
                    let v = _mm_set1_epi8(d as i8 + 1);
                    (
                        _mm_movemask_epi8(_mm_cmpeq_epi8(lo, v)) as u32,
                        _mm_movemask_epi8(_mm_cmpeq_epi8(hi, v)) as u32,
                    )
                };
                given[w(d, band)] = low | high << 11;
            }
        }
        return given;
    }
    givens_scalar(cells)
}

/// [`givens`] a cell at a time.
fn givens_scalar(cells: &[u8]) -> [u32; 27] {
    // Without a branch per cell (blanks are unpredictable): a blank goes to
    // a spare slot, one of eight in turn, so that consecutive blanks do not
    // wait on each other's update of one slot in memory (one spare slot:
    // serg 0.7% slower).
    let mut slots = [0u32; 27 + SPARE];
    for (band, row) in cells.chunks(27).take(3).enumerate() {
        for (pos, &v) in row.iter().enumerate() {
            let digit = usize::from(v).wrapping_sub(1);
            let j = if digit < 9 {
                w(digit, band)
            } else {
                27 + pos % SPARE
            };
            slots[j] |= 1 << pos;
        }
    }
    let mut given = [0u32; 27];
    given.copy_from_slice(&slots[..27]);
    given
}

/// The rows of `f` (a band word) holding exactly one bit, as those bits:
/// a table look-up per row (measured: serg +1%; branch-free arithmetic
/// over the three rows at once does 5% fewer instructions but is slower,
/// a longer chain).
#[inline(always)]
fn row_singles(f: u32) -> u32 {
    u32::from(ROW_SINGLE[(f & 0x1FF) as usize])
        | u32::from(ROW_SINGLE[((f >> 9) & 0x1FF) as usize]) << 9
        | u32::from(ROW_SINGLE[(f >> 18) as usize & 0x1FF]) << 18
}

/// One search node.
#[derive(Clone, Copy)]
struct State {
    /// `f[w(digit, band)]`: where the digit may go in the band.
    f: [u32; 27],
    /// Words changed since they were last propagated (bit per word).
    dirty: u32,
    /// Cells of each band not yet fixed.
    open: [u32; 3],
}

/// The search's running totals.
struct Run<'a> {
    limit: usize,
    deadline: Option<Instant>,
    guesses: u64,
    /// The solutions found, appended as row-major cells (81 bytes each).
    out: &'a mut Vec<u8>,
    /// How many solutions were appended.
    found: usize,
    timed_out: bool,
    /// With at most this many unsolved cells, the first pair is taken
    /// unscored (see [`QUICK_BELOW`] and [`QUICK_GIVENS`]).
    quick_below: u32,
}

impl Run<'_> {
    /// Records a solved grid, given as row-major digits 1-9.
    fn record(&mut self, cells: &[u8; 81]) {
        self.out.extend_from_slice(cells);
        self.found += 1;
    }
}

/// Solves a 9x9 grid with 3x3 boxes (its cells row-major, 0 blank),
/// appending each solution's 81 cells to `out`.
pub(super) fn search_into(
    cells: &[u8],
    opts: &SearchOptions,
    out: &mut Vec<u8>,
) -> Result<Found, SearchError> {
    search_with(cells, opts, out, Isa::detect())
}

/// [`search_into`] in the copy compiled for `isa`.
fn search_with(
    cells: &[u8],
    opts: &SearchOptions,
    out: &mut Vec<u8>,
    isa: Isa,
) -> Result<Found, SearchError> {
    let mut run = Run {
        limit: opts.limit.max(1),
        deadline: opts.deadline,
        guesses: 0,
        out,
        found: 0,
        timed_out: false,
        quick_below: QUICK_BELOW,
    };
    match isa.level() {
        // SAFETY: an `Isa` above the baseline comes from `Isa::detect`,
        // which found these features.
        #[cfg(target_arch = "x86_64")]
        BMI_PEXT => unsafe { root_bmi::<BMI_PEXT>(cells, &mut run) },
        // SAFETY: as above.
        #[cfg(target_arch = "x86_64")]
        BMI => unsafe { root_bmi::<BMI>(cells, &mut run) },
        _ => root::<BASELINE>(cells, &mut run),
    }
    if run.timed_out {
        return Err(SearchError::Timeout {
            guesses: run.guesses,
        });
    }
    Ok(Found {
        count: run.found,
        guesses: run.guesses,
        handed_over: false,
    })
}

/// Loads the givens, propagates and searches, in the copy for `ISA`.
#[inline(always)]
fn root<const ISA: u8>(cells: &[u8], run: &mut Run) {
    if let Some(mut st) = State::load(cells) {
        let unsolved: u32 = st.open.iter().map(|o| o.count_ones()).sum();
        if unsolved <= 81 - QUICK_GIVENS {
            run.quick_below = 81;
        }
        st.solve::<ISA>(run);
    }
}

/// [`root`] compiled for the bit-manipulation extensions ([`BMI`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn root_bmi<const ISA: u8>(cells: &[u8], run: &mut Run) {
    root::<ISA>(cells, run);
}

impl State {
    /// The state with the givens placed; `None` when two givens clash.
    fn load(cells: &[u8]) -> Option<State> {
        let given = givens(cells);
        let placed = [0, 1, 2].map(|band| (0..9).fold(0, |acc, d| acc | given[w(d, band)]));
        let mut st = State {
            f: [0; 27],
            dirty: (1 << 27) - 1,
            open: placed.map(|p| BAND & !p),
        };
        let mut clash = 0;
        for d in 0..9 {
            let cols = [0, 1, 2].map(|b| columns_of(given[w(d, b)]));
            for band in 0..3 {
                let j = w(d, band);
                let g = given[j];
                let rows = [0, 9, 18].map(|shift| ROW_INFO[((g >> shift) & 0x1FF) as usize]);
                let [i0, i1, i2] = rows.map(u32::from);
                // Two givens of the digit in one row (a row flagged), in one
                // box (two rows in one box), or in one column of two bands.
                let [b1, b2] = OTHER_BANDS[band];
                let taken = cols[b1] | cols[b2];
                clash |= ((i0 | i1 | i2) & ROW_TWICE)
                    | ((i0 & i1) | (i0 & i2) | (i1 & i2)) & 7
                    | (cols[band] & taken);
                // The givens' rows and boxes, and their columns in the
                // other bands.
                let peers = rows
                    .iter()
                    .enumerate()
                    .fold(BOX_FILL[((i0 | i1 | i2) & 7) as usize], |acc, (r, &i)| {
                        acc | (u32::from(i != 0) * 0x1FF) << (9 * r)
                    });
                let spread = taken | (taken << 9) | (taken << 18);
                st.f[j] = (st.open[band] & !peers & !spread) | g;
            }
        }
        (clash == 0).then_some(st)
    }

    /// Stores a word, marking it for propagation when it changed.
    #[inline(always)]
    fn set(&mut self, i: usize, word: u32) {
        self.dirty |= u32::from(word != self.f[i]) << i;
        self.f[i] = word;
    }

    /// Guesses `digit` in cell `pos` of `band`: strikes its row and box
    /// there; propagation then finds the row single and clears the cell
    /// of the other digits.
    #[inline(always)]
    fn guess(&mut self, digit: usize, band: usize, pos: usize) {
        let j = w(digit, band);
        self.set(j, self.f[j] & !BAND_PEERS[pos]);
    }

    /// Strikes `digit` from cell `pos` of `band`.
    #[inline(always)]
    fn strike(&mut self, digit: usize, band: usize, pos: usize) {
        let i = w(digit, band);
        self.set(i, self.f[i] & !(1u32 << pos));
    }

    /// Propagates the digit-band words to a fixed point; false on a
    /// contradiction.
    ///
    /// The dirty bits live in a register for the whole loop (stored back
    /// at the end), not in the state. The words dirty at the start of a
    /// sweep are all visited before looking at the dirty bits again: the
    /// next word then does not wait on the last one's result and the
    /// processor overlaps their table look-ups (faster per word, a few more
    /// words).
    #[inline(always)]
    fn update_words<const ISA: u8>(&mut self) -> bool {
        let mut dirty = self.dirty;
        while dirty != 0 {
            let mut sweep = dirty;
            while sweep != 0 {
                let i = sweep.trailing_zeros() as usize;
                sweep &= sweep - 1;
                if !self.update_word::<ISA>(i, &mut dirty) {
                    self.dirty = dirty;
                    return false;
                }
            }
        }
        self.dirty = 0;
        true
    }

    /// Stores a word, marking it in `dirty` when it changed.
    #[inline(always)]
    fn store(&mut self, i: usize, word: u32, dirty: &mut u32) {
        *dirty |= u32::from(word != self.f[i]) << i;
        self.f[i] = word;
    }

    /// Propagates word `i` (see the module docs) and clears its dirty bit;
    /// false on a contradiction.
    #[inline(always)]
    fn update_word<const ISA: u8>(&mut self, i: usize, dirty: &mut u32) -> bool {
        let mut f = self.f[i];
        f &= COMPLEX[shrink::<ISA>(f)];
        if f == 0 {
            return false;
        }
        let [band, j1, j2] = WORD_LINKS[i];
        let (band, j1, j2) = (band as usize, j1 as usize, j2 as usize);
        let (o1, o2) = (self.f[j1], self.f[j2]);
        let (u0, u1, u2) = (columns_of(f), columns_of(o1), columns_of(o2));
        if u0 | u1 | u2 != 0x1FF {
            return false;
        }
        // Column pointing: a box whose digit lies in one column clears
        // that column in the other bands.
        let mask = MASK_SINGLE[columns_of(f) as usize];
        self.store(j1, o1 & mask, dirty);
        self.store(j2, o2 & mask, dirty);
        // Rows left with one place fix the digit there: the cells leave the
        // other digits (the loop also touches word i, which is then
        // restored).
        let fixed = row_singles(f) & self.open[band];
        if fixed != 0 {
            self.open[band] &= !fixed;
            // The changed words' bits gathered at constant shifts and moved
            // to the band at once (+2%).
            let mut changed = 0;
            for e in 0..9 {
                let j = w(e, band);
                let word = self.f[j];
                changed |= u32::from(word & fixed != 0) << e;
                self.f[j] = word & !fixed;
            }
            *dirty |= changed << (9 * band);
        }
        self.f[i] = f;
        *dirty &= !(1 << i);
        true
    }

    /// Full propagation: band words and naked singles; false on a
    /// contradiction. A call (not
    /// inlined in the search: measured 1% slower) to the copy for `ISA`.
    #[inline(always)]
    fn propagate<const ISA: u8>(&mut self) -> bool {
        #[cfg(target_arch = "x86_64")]
        if ISA != BASELINE {
            debug_assert!(runs(ISA));
            // SAFETY: a copy above the baseline runs only where the
            // extensions were detected (see [`BASELINE`]).
            return unsafe { self.propagate_bmi::<ISA>() };
        }
        self.propagate_baseline()
    }

    /// [`State::propagate`] for the baseline.
    #[inline(never)]
    fn propagate_baseline(&mut self) -> bool {
        self.propagate_in::<BASELINE>()
    }

    /// [`State::propagate`] compiled for the bit-manipulation extensions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    #[inline(never)]
    fn propagate_bmi<const ISA: u8>(&mut self) -> bool {
        self.propagate_in::<ISA>()
    }

    /// The body of [`State::propagate`].
    #[inline(always)]
    fn propagate_in<const ISA: u8>(&mut self) -> bool {
        loop {
            if !self.update_words::<ISA>() {
                return false;
            }
            let mut placed = false;
            for band in 0..3 {
                let open = self.open[band];
                if open == 0 {
                    continue;
                }
                let (mut once, mut twice) = (0u32, 0u32);
                for d in 0..9 {
                    let x = self.f[w(d, band)];
                    twice |= once & x;
                    once |= x;
                }
                if open & !once != 0 {
                    return false;
                }
                let singles = open & !twice;
                if singles != 0 {
                    placed = true;
                    for d in 0..9 {
                        let mut m = singles & self.f[w(d, band)];
                        while m != 0 {
                            let pos = m.trailing_zeros() as usize;
                            m &= m - 1;
                            // An earlier single may have struck it. The
                            // other digits are not in the cell: only the
                            // digit's row and box lose it.
                            let j = w(d, band);
                            if self.f[j] & (1 << pos) != 0 {
                                self.set(j, self.f[j] & !BAND_PEERS[pos]);
                                self.open[band] &= !(1 << pos);
                            }
                        }
                    }
                }
            }
            if !placed {
                return true;
            }
        }
    }

    /// Depth-first search from this state, in the copy for `ISA`; returns
    /// true when the run should stop (enough solutions, or the deadline).
    #[inline(always)]
    fn solve<const ISA: u8>(&mut self, run: &mut Run) -> bool {
        if !self.propagate::<ISA>() {
            return false;
        }
        if self.open == [0; 3] {
            run.record(&self.cells::<ISA>());
            return run.found >= run.limit;
        }
        let (band, pos, mut digits) = self.choose(run.quick_below);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            run.guesses += 1;
            if run.guesses.is_multiple_of(DEADLINE_EVERY) {
                if let Some(deadline) = run.deadline {
                    if Instant::now() >= deadline {
                        run.timed_out = true;
                        return true;
                    }
                }
            }
            if digits == 0 {
                // Last candidate: no copy needed.
                self.guess(d, band, pos);
                return self.descend::<ISA>(run);
            }
            let mut child = *self;
            child.guess(d, band, pos);
            if child.descend::<ISA>(run) {
                return true;
            }
            // Refute d here, which may propagate further.
            self.strike(d, band, pos);
        }
        false
    }

    /// [`State::solve`] one level down: a call (the recursion) to the copy
    /// for `ISA`.
    #[inline(always)]
    fn descend<const ISA: u8>(&mut self, run: &mut Run) -> bool {
        #[cfg(target_arch = "x86_64")]
        if ISA != BASELINE {
            debug_assert!(runs(ISA));
            // SAFETY: a copy above the baseline runs only where the
            // extensions were detected (see [`BASELINE`]).
            return unsafe { self.solve_bmi::<ISA>(run) };
        }
        self.solve_baseline(run)
    }

    /// [`State::solve`] for the baseline.
    fn solve_baseline(&mut self, run: &mut Run) -> bool {
        self.solve::<BASELINE>(run)
    }

    /// [`State::solve`] compiled for the bit-manipulation extensions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    fn solve_bmi<const ISA: u8>(&mut self, run: &mut Run) -> bool {
        self.solve::<ISA>(run)
    }

    /// The branching cell: a cell with two candidates (the first one when at
    /// most `quick_below` cells are unsolved, [`QUICK_BELOW`] or all of them
    /// from [`QUICK_GIVENS`] givens on; otherwise, of the first three in
    /// each band, the one with the most open peers, so that either branch
    /// strikes candidates in the most cells, then with the most pairs among
    /// its row and box peers), else a cell with three candidates (the most
    /// open peers, of the first three in each band), else the first open
    /// cell.
    /// Returns its band, position and candidate digits (bit per digit).
    #[inline(always)]
    fn choose(&self, quick_below: u32) -> (usize, usize, u32) {
        let unsolved: u32 = self.open.iter().map(|o| o.count_ones()).sum();
        let quick = unsolved <= quick_below;
        let mut best = (u32::MAX, 0usize, 0usize);
        let mut best_pair: Option<(u32, usize, usize)> = None;
        for band in 0..3 {
            let open = self.open[band];
            if open == 0 {
                continue;
            }
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[w(d, band)];
                thrice |= twice & x;
                twice |= once & x;
                once |= x;
            }
            let pairs = open & twice & !thrice;
            if quick && pairs != 0 {
                let pos = pairs.trailing_zeros() as usize;
                return (band, pos, self.digits_at(band, pos));
            }
            let mut m = pairs;
            // Scoring every pair costs more than it saves (measured: 3 per
            // band beat 2, 4 and 6).
            let mut budget = 3;
            while m != 0 && budget > 0 {
                budget -= 1;
                let pos = m.trailing_zeros() as usize;
                m &= m - 1;
                // Ties go to the pair with more pairs among its row and box
                // peers (more naked singles when either digit is placed).
                let score =
                    self.open_peers(band, pos) * 16 + (pairs & BAND_PEERS[pos]).count_ones();
                if best_pair.is_none_or(|(s, _, _)| score > s) {
                    best_pair = Some((score, band, pos));
                }
            }
            if best_pair.is_some() {
                continue;
            }
            // No pair yet: of the first three cells with three candidates
            // in each band, the one with the most open peers; else the
            // first open cell. Cells with four or more candidates, counted
            // only here (rare).
            let four = (0..9).fold((0u32, 0u32, 0u32, 0u32), |(c1, c2, c3, c4), d| {
                let x = self.f[w(d, band)];
                (c1 | x, c2 | (c1 & x), c3 | (c2 & x), c4 | (c3 & x))
            });
            let triples = open & thrice & !four.3;
            if triples != 0 {
                let mut m = triples;
                let mut budget = 3;
                while m != 0 && budget > 0 {
                    budget -= 1;
                    let pos = m.trailing_zeros() as usize;
                    m &= m - 1;
                    // Lower is better: 3 candidates, then the most open peers.
                    let key = 64 - self.open_peers(band, pos);
                    if key < best.0 {
                        best = (key, band, pos);
                    }
                }
            } else if best.0 == u32::MAX {
                best = (1000, band, open.trailing_zeros() as usize);
            }
        }
        let (band, pos) = match best_pair {
            Some((_, band, pos)) => (band, pos),
            None => (best.1, best.2),
        };
        (band, pos, self.digits_at(band, pos))
    }

    /// How many open cells share a unit with cell `pos` of `band` (its
    /// row and box in the band, its column in the other two bands): either
    /// digit placed there strikes candidates from about that many cells.
    /// One popcount of a packed word.
    #[inline(always)]
    fn open_peers(&self, band: usize, pos: usize) -> u32 {
        let col = pos % 9;
        let c = |w: u32| (w >> col) & 0x40201;
        let [b1, b2] = OTHER_BANDS[band];
        let column = c(self.open[b1]) | c(self.open[b2]) << 1;
        (u64::from(self.open[band] & BAND_PEERS[pos]) | u64::from(column) << 32).count_ones()
    }

    /// The candidate digits of one cell, bit `d` for digit `d + 1`.
    fn digits_at(&self, band: usize, pos: usize) -> u32 {
        let bit = 1u32 << pos;
        (0..9).fold(0, |acc, d| {
            acc | (u32::from(self.f[w(d, band)] & bit != 0) << d)
        })
    }

    /// The solved grid's cells, row-major, digits 1-9.
    #[inline(always)]
    fn cells<const ISA: u8>(&self) -> [u8; 81] {
        #[cfg(target_arch = "x86_64")]
        if ISA == BMI_PEXT {
            use std::arch::x86_64::_pdep_u64;
            // Each cell's digit from four bit planes (bit k of the digit),
            // eight cells at a time: `pdep` spreads eight bits of a plane to
            // the low bits of eight bytes (measured: serg +2%). Only where
            // `pdep` runs in hardware, as `pext`.
            debug_assert!(runs(ISA));
            let mut out = [0u8; 81 + 7];
            for band in 0..3 {
                let f = |d: usize| self.f[w(d, band)];
                let planes = [
                    f(0) | f(2) | f(4) | f(6) | f(8),
                    f(1) | f(2) | f(5) | f(6),
                    f(3) | f(4) | f(5) | f(6),
                    f(7) | f(8),
                ];
                for k in 0..4 {
                    let bytes = planes.iter().enumerate().fold(0u64, |acc, (bit, &p)| {
                        let eight = u64::from((p >> (8 * k)) & 0xFF);
                        // SAFETY: this copy runs only in `State::solve_bmi`
                        // (see [`BASELINE`]), and BMI2 was detected.
                        acc | unsafe { _pdep_u64(eight, 0x0101_0101_0101_0101) } << bit
                    });
                    // The last store of a band runs into the next band's
                    // cells (written after it) or the spare bytes.
                    let at = band * 27 + 8 * k;
                    out[at..at + 8].copy_from_slice(&bytes.to_le_bytes());
                }
            }
            let mut cells = [0u8; 81];
            cells.copy_from_slice(&out[..81]);
            return cells;
        }
        let mut out = [0u8; 81];
        for d in 0..9 {
            for band in 0..3 {
                let mut m = self.f[w(d, band)];
                while m != 0 {
                    let pos = m.trailing_zeros() as usize;
                    m &= m - 1;
                    out[band * 27 + pos] = d as u8 + 1;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
