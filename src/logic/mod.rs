//! Human-style solving: a ladder of techniques, simplest first, one
//! recorded [`Step`] per deduction.
//!
//! Every blank starts with all candidates; the techniques strike candidates
//! and place digits, simplest first, starting again from the top after each
//! success (as the seed macro does). Which techniques run is a [`Ladder`]:
//! [`Ladder::seed`] is the old macro's four, [`Ladder::all`] every one in
//! [`TABLE`] (the default). The layout follows HoDoKu's: this file holds
//! the position ([`Board`], HoDoKu's `Sudoku2`); `solver` the [`Solver`],
//! which owns a board, the technique families, the order and the run, and
//! has the loop (HoDoKu's `SudokuSolver` and `SudokuStepFinder`);
//! [`techniques`] the one table of order, letter, name, ratings and
//! finder, and one file per technique family (`singles`,
//! `intersections`, `subsets`, `fish`, `single_digit`, `wings`,
//! `uniqueness`, `finned_fish`, `sue_de_coq`, `colouring`, `chains`,
//! `als`, `forcing`; the large ones are folders), each one type with its
//! finders, its memo and its sentences; `memo` the run's notes behind
//! one interface (`Run`); `geometry` the fixed layout of a box shape;
//! `bits` the bit sets; [`rating`] the ratings, with Sudoku Explainer's
//! run in `se_run`.
//!
//! The uniqueness techniques (`u` `h` `b`) hold only for a puzzle with one
//! solution: a solver uses them only after [`Solver::assume_unique`], which
//! `solve` calls once the exact search has proven the solution unique
//! (never with `--logic-only`, which does not search).
//!
//! | letter | technique |
//! |---|---|
//! | (none) | naked single: a cell left with one candidate is filled silently |
//! | `i` | hidden single: a digit with one place in a row, column or box |
//! | `!` | locked candidates: pointing (box → line) and claiming (line → box) |
//! | `2` `3` `4` | naked pair, triple, quad (locked pair/triple when the cells also share a box and a line and strike in both) |
//! | `*` `^` `&` | hidden pair, triple, quad |
//! | `x` `s` `j` | X-wing, swordfish, jellyfish |
//! | `r` | remote pair: a chain of cells holding the same two candidates |
//! | `b` | BUG+1 (uniqueness) |
//! | `k` `t` `o` | skyscraper, 2-string kite, turbot fish |
//! | `e` | empty rectangle |
//! | `w` `y` `z` | W-wing, XY-wing, XYZ-wing |
//! | `u` | unique rectangle types 1–4 (uniqueness) |
//! | `h` | hidden rectangle (uniqueness) |
//! | `f` | finned and sashimi X-wing, swordfish, jellyfish |
//! | `q` | Sue de Coq |
//! | `c` | simple colouring (trap and wrap) |
//! | `m` | multi-colouring |
//! | `X` `Y` | X-chain, XY-chain |
//! | `A` | AIC (nice loop), plain or with grouped nodes |
//! | `L` `M` `C` | ALS-XZ, ALS-XY-wing, ALS chain |
//! | `F` `N` | forcing chain, forcing net |
//! | `#` | a guess, taken from a known solution when the ladder stops |
//!
//! ```
//! use xlsudoku::grid::Grid;
//! use xlsudoku::logic::{Solver, Stop};
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let mut solver = Solver::new(&puzzle).expect("no clash");
//! assert_eq!(solver.run(None), Stop::Solved);
//! let board = solver.board();
//! assert!(board.history().chars().all(|c| c == 'i'));
//! assert!(board.grid().solves(&puzzle));
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

mod bits;
mod geometry;
mod marks;
mod memo;
pub mod rating;
mod se_run;
mod solver;
pub mod techniques;
pub mod words;

use techniques::singles;

pub use rating::{
    rate, rate_after, rate_after_until, rate_unique, rate_unique_until, Budget, Limits, Rating,
};
pub(crate) use rating::{rate_after_noted, se_engine_rates};
pub use techniques::{
    letter_key, markdown_table, pickable_letters, Ladder, Level, Technique, TechniqueInfo,
    UnknownTechnique, TABLE,
};

pub use bits::Digits;
pub use solver::Solver;

use bits::{all_digits, at_most, bit, digits_of, first_cover, positions, two_bits, Cells};
use geometry::{Geometry, Shared};
pub(crate) use memo::Findings;

use crate::grid::{Grid, Unit};

/// One deduction: what was seen and what it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// The unit the pattern lives in (for locked candidates: the unit the
    /// digit is confined in); `None` for naked singles and guesses.
    pub unit: Option<Unit>,
    /// The digits of the pattern.
    pub digits: Vec<u8>,
    /// The cells of the pattern (row-major indices).
    pub cells: Vec<usize>,
    /// A digit placed: `(cell, digit)`.
    pub placed: Option<(usize, u8)>,
    /// Candidates struck: `(cell, digit)`.
    pub eliminated: Vec<(usize, u8)>,
    /// The chains of the pattern, for chains, almost locked sets and
    /// forcing chains (empty for the others): an X-chain, XY-chain or AIC
    /// is one chain of nodes, first to last; an ALS step one chain of its
    /// sets (each a node whose digit is the restricted common it shares
    /// with the next); a forcing chain or net one chain per branch, its
    /// premise first and its conclusion last.
    pub chains: Vec<Vec<ChainNode>>,
}

/// A node of a chain: a digit in one cell, or in a group of cells of one
/// box and line (grouped nodes), taken as true (`on`) or false.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainNode {
    /// The cells (row-major indices): one, or a group.
    pub cells: Vec<usize>,
    /// The digit.
    pub digit: u8,
    /// True when the node is "the digit is in these cells", false when it
    /// is "the digit is not there".
    pub on: bool,
}

/// Why the ladder stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Every cell holds a digit.
    Solved,
    /// No technique applies any more and no solution was given to guess from.
    Stuck,
    /// A cell lost its last candidate, or a digit its last place in a unit:
    /// the givens have no solution.
    Contradiction,
    /// The deadline ([`Solver::set_deadline`]) passed before the ladder
    /// finished.
    Timeout,
}

/// The solving position: digits placed so far, candidates of the blanks,
/// and the steps taken (a [`Solver`] owns one and moves it on).
#[derive(Debug, Clone)]
pub struct Board {
    grid: Grid,
    side: usize,
    /// Candidate bits per cell (bit `d - 1` for digit `d`); 0 once filled.
    cands: Vec<u64>,
    /// Cells of each unit: rows, then columns, then boxes.
    units: Shared<Vec<usize>>,
    /// The row, column and box unit index of each cell.
    cell_units: Shared<[usize; 3]>,
    steps: Vec<Step>,
    contradiction: bool,
    /// HoDoKu's queues of singles (every ladder but the seed's): singles
    /// are taken one per step, the next as HoDoKu takes it, and the
    /// ladder starts again from the top (`singles.rs`). The seed's ladder
    /// fills every single a pass finds, as the macro did.
    queues: Option<Box<singles::Queues>>,
    /// The peers of each cell (its row, column and box, itself left out).
    peers: Shared<Vec<usize>>,
    /// The peers of each cell as a bit set (`(side² + 63) / 64` words each).
    peer_sets: Shared<u64>,
    /// Each cell's position in its row, column and box.
    cell_pos: Shared<[u8; 3]>,
    /// Where lines cross boxes ([`Geometry::line_boxes`]).
    line_boxes: Shared<u64>,
    /// Where boxes cross lines ([`Geometry::box_line_cells`]).
    box_line_cells: Shared<u64>,
    /// Each box's rows and columns ([`Geometry::box_lines`]).
    box_lines: Shared<(Vec<usize>, Vec<usize>)>,
}

/// Which step a search takes when it could take several.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pick {
    /// HoDoKu's choice, for its run (and `solve`, `explain`): of the X-
    /// and XY-chains, as HoDoKu's `ChainSolver` sorts them, the one that
    /// strikes the most candidates (then the lowest weighted sum of them,
    /// then the shortest). The other techniques take the first found in
    /// HoDoKu's order, and AICs the shortest (HoDoKu sorts its nice loops
    /// the same way, but the ladder's AICs are not its nice loops; taken
    /// the shortest, the second run of a rating can take the first's:
    /// docs/performance-log.md).
    Hodoku,
    /// Sudoku Explainer's, for its run: the easiest step, the shortest
    /// chain (SE rates a chain by its length).
    Easiest,
}

impl Board {
    /// The starting position for a puzzle: every blank gets all
    /// candidates the givens allow; with HoDoKu's queues of singles when
    /// `queued` (every ladder but the seed's). `None` when two givens
    /// clash.
    fn new(puzzle: &Grid, queued: bool) -> Option<Board> {
        let side = puzzle.side();
        let all = all_digits(side);
        let geometry = Geometry::of(puzzle);
        if geometry.clash(puzzle) {
            return None;
        }
        let mut board = Board {
            grid: Grid::empty(puzzle.shape()),
            side,
            cands: vec![all; side * side],
            units: geometry.units,
            cell_units: geometry.cell_units,
            steps: Vec::new(),
            contradiction: false,
            queues: queued.then(|| singles::Queues::new(side)),
            peers: geometry.peers,
            peer_sets: geometry.peer_sets,
            cell_pos: geometry.cell_pos,
            line_boxes: geometry.line_boxes,
            box_line_cells: geometry.box_line_cells,
            box_lines: geometry.box_lines,
        };
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                board.assign(i, v);
            }
        }
        board.contradiction = board.find_contradiction();
        Some(board)
    }

    /// The grid as far as it is solved.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The candidates of a cell; none for a filled cell.
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::Solver;
    ///
    /// let p: Grid =
    ///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    ///         .parse()?;
    /// let solver = Solver::new(&p).unwrap();
    /// assert_eq!(solver.board().candidates(0).iter().collect::<Vec<u8>>(), [4, 5]);
    /// assert!(solver.board().candidates(2).is_empty()); // a given
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn candidates(&self, cell: usize) -> Digits {
        Digits::from_bits(self.cands[cell])
    }

    /// The steps taken so far, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The history string: one letter per deduction, naked singles silent.
    pub fn history(&self) -> String {
        self.steps
            .iter()
            .filter_map(|s| s.technique.letter())
            .collect()
    }

    fn unit_of(&self, k: usize) -> Unit {
        let n = self.side;
        match k / n {
            0 => Unit::Row(k % n),
            1 => Unit::Col(k % n),
            _ => Unit::Box(k % n),
        }
    }

    /// Places a digit and strikes it from the cell's peers.
    fn assign(&mut self, cell: usize, d: u8) {
        let n = self.side;
        self.grid.set(cell / n, cell % n, d);
        if self.queues.is_some() {
            self.assign_queued(cell, d);
            return;
        }
        self.cands[cell] = 0;
        let b = !bit(d);
        for k in self.cell_units[cell] {
            for &p in &self.units[k] {
                self.cands[p] &= b;
            }
        }
    }

    /// True when a blank has no candidate or a missing digit has no place.
    fn find_contradiction(&self) -> bool {
        match &self.queues {
            // Noted as the candidates went.
            Some(q) => q.broken,
            None => self.scan_for_contradiction(),
        }
    }

    /// [`Board::find_contradiction`], read off every cell and unit.
    fn scan_for_contradiction(&self) -> bool {
        let cells = self.grid.cells();
        if cells
            .iter()
            .zip(&self.cands)
            .any(|(&v, &m)| v == 0 && m == 0)
        {
            return true;
        }
        let all = all_digits(self.side);
        // A filled cell has no candidates: its digit counts instead.
        let has = |c: usize| {
            self.cands[c] | (u64::from(cells[c] != 0) << (cells[c].wrapping_sub(1) & 63))
        };
        self.units
            .iter()
            .any(|u| u.iter().fold(0u64, |seen, &c| seen | has(c)) != all)
    }

    fn place(&mut self, technique: Technique, unit: Option<Unit>, cell: usize, d: u8) {
        self.assign(cell, d);
        self.steps.push(Step {
            technique,
            unit,
            digits: vec![d],
            cells: vec![cell],
            placed: Some((cell, d)),
            eliminated: Vec::new(),
            chains: Vec::new(),
        });
    }

    /// The positions (bit `i` for the unit's `i`-th cell) where digit `d`
    /// may go in unit `k`.
    fn places(&self, k: usize, d: u8) -> u64 {
        let b = bit(d);
        self.units[k]
            .iter()
            .enumerate()
            .filter(|(_, &c)| self.cands[c] & b != 0)
            .fold(0u64, |acc, (i, _)| acc | (1u64 << i))
    }

    /// The positions in unit `a` of its cells in unit `b`, a unit of
    /// another kind (a row and a column cross in one cell, a line and a
    /// box in a few or none).
    fn crossing(&self, a: usize, b: usize) -> u64 {
        let n = self.side;
        match (a / n, b / n) {
            (0 | 1, 2) => self.line_boxes[a * n + b - 2 * n],
            (2, _) => self.box_line_cells[(a - 2 * n) * 2 * n + b],
            _ => 1u64 << (b % n),
        }
    }

    /// Records a deduction that strikes candidates.
    fn apply(&mut self, step: Step) {
        if self.queues.is_some() {
            for &(c, d) in &step.eliminated {
                self.strike_queued(c, d);
            }
        } else {
            for &(c, d) in &step.eliminated {
                self.cands[c] &= !bit(d);
            }
        }
        self.steps.push(step);
    }

    /// Records the deduction a search found, if any: whether it found one.
    fn apply_found(&mut self, found: Option<Step>) -> bool {
        found.map(|step| self.apply(step)).is_some()
    }

    /// Takes a step found before in this position.
    fn replay(&mut self, step: Step) {
        if let Some((cell, d)) = step.placed {
            self.assign(cell, d);
        }
        self.apply(step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{EASY, HARD, HARDER, PAIRS};

    /// The first `count` puzzles of magictour top1465, with their lines.
    pub(super) fn hard_puzzles(count: usize) -> Vec<(String, Grid)> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/data/9x9/puzzles3_magictour_top1465"
        );
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .take(count)
            .map(|l| (l.to_string(), l[..81].parse().unwrap()))
            .collect()
    }

    /// An empty 9x9 whose candidates a test writes by hand
    /// ([`Solver::edited_by_hand`]).
    pub(super) fn empty_by_hand() -> Solver {
        let p = Grid::empty(crate::grid::BoxShape::new(3, 3).unwrap());
        Solver::edited_by_hand(&p)
    }

    /// Calls `f` on the solver at every position the full ladder passes
    /// through on the first `count` puzzles of magictour top1465.
    pub(super) fn each_hard_position(count: usize, mut f: impl FnMut(&Solver)) {
        for (_, p) in hard_puzzles(count) {
            let mut b = Solver::with_ladder(&p, Ladder::all()).unwrap();
            loop {
                f(&b);
                if b.grid.is_full() || !b.step() {
                    break;
                }
            }
        }
    }

    #[test]
    fn a_second_run_with_the_first_runs_findings_takes_the_same_steps() {
        let p: Grid = HARD.parse().unwrap();
        let mut first = Solver::new(&p).unwrap();
        first.note_findings(None);
        first.run(None);
        let mut second = Solver::with_ladder(&p, Ladder::all()).unwrap();
        second.note_findings(first.take_findings());
        second.run(None);
        assert_eq!(second.steps(), first.steps());
    }

    #[test]
    fn easy_puzzle_is_solved_by_singles() {
        let p: Grid = EASY.parse().unwrap();
        let mut b = Solver::new(&p).unwrap();
        assert_eq!(b.run(None), Stop::Solved);
        assert!(b.grid().solves(&p));
        assert!(b.history().chars().all(|c| c == 'i'));
    }

    #[test]
    fn clashing_givens_have_no_board() {
        let mut p: Grid = EASY.parse().unwrap();
        p.set(0, 0, 3); // a second 3 in row 1
        assert!(Solver::new(&p).is_none());
    }

    #[test]
    fn hard_puzzle_sticks_then_finishes_with_guesses() {
        // The seed's four techniques stop on it (the whole ladder does not).
        let p: Grid = HARD.parse().unwrap();
        let mut b = Solver::with_ladder(&p, Ladder::seed()).unwrap();
        assert_eq!(b.run(None), Stop::Stuck);
        let stuck_history = b.history();
        assert!(!b.grid().is_full());
        let blank = (0..81).find(|&i| b.grid().cells()[i] == 0).unwrap();
        assert!(b.candidates(blank).len() >= 2);
        let sol = brute_force(&p).unwrap();
        assert_eq!(b.run(Some(&sol)), Stop::Solved);
        assert_eq!(b.grid(), &sol);
        assert!(b.history().starts_with(&stuck_history));
        assert!(b.history().contains('#'));
    }

    #[test]
    fn unsolvable_givens_end_in_contradiction() {
        // No clash, but r1c9 can hold nothing: 1-8 in its row, 9 in its column.
        let mut p = Grid::empty(crate::grid::BoxShape::new(3, 3).unwrap());
        for c in 0..8 {
            p.set(0, c, c as u8 + 1);
        }
        p.set(5, 8, 9);
        let mut b = Solver::new(&p).unwrap();
        assert_eq!(b.run(None), Stop::Contradiction);
    }

    #[test]
    fn every_step_agrees_with_the_solution() {
        // Hard puzzles (forum hardest, magictour) whose seed ladders use
        // every seed technique, guesses included (the whole ladder is
        // checked over the benchmark sets in tests/suite/props/logic.rs).
        let mut seen = std::collections::BTreeSet::new();
        for line in [HARD, HARDER, PAIRS] {
            let p: Grid = line.parse().unwrap();
            let sol = brute_force(&p).unwrap();
            let mut b = Solver::with_ladder(&p, Ladder::seed()).unwrap();
            assert_eq!(b.run(Some(&sol)), Stop::Solved);
            for s in b.steps() {
                seen.insert(s.technique);
                if let Some((c, d)) = s.placed {
                    assert_eq!(sol.cells()[c], d, "{:?}", s);
                }
                for &(c, d) in &s.eliminated {
                    assert_ne!(sol.cells()[c], d, "{:?}", s);
                }
            }
        }
        for t in [
            Technique::HiddenSingle,
            Technique::LockedCandidates,
            Technique::HiddenPair,
            Technique::HiddenTriple,
            Technique::Guess,
        ] {
            assert!(seen.contains(&t), "{t:?} never used: {seen:?}");
        }
    }

    /// A small backtracking reference (bit masks, fewest candidates
    /// first): the first solution, or `None`.
    pub(crate) fn brute_force(p: &Grid) -> Option<Grid> {
        struct S {
            n: usize,
            g: Grid,
            rows: Vec<u64>,
            cols: Vec<u64>,
            boxes: Vec<u64>,
        }
        impl S {
            fn free(&self, i: usize) -> u64 {
                let (r, c) = (i / self.n, i % self.n);
                let used = self.rows[r] | self.cols[c] | self.boxes[self.g.box_of(r, c)];
                !used & ((1u64 << self.n) - 1)
            }
            fn flip(&mut self, i: usize, d: u8) {
                let (r, c) = (i / self.n, i % self.n);
                let b = self.g.box_of(r, c);
                self.rows[r] ^= bit(d);
                self.cols[c] ^= bit(d);
                self.boxes[b] ^= bit(d);
            }
            fn rec(&mut self) -> bool {
                let blanks = (0..self.n * self.n).filter(|&i| self.g.cells()[i] == 0);
                let Some(i) = blanks.min_by_key(|&i| self.free(i).count_ones()) else {
                    return true;
                };
                for d in digits_of(self.free(i)) {
                    self.flip(i, d);
                    self.g.set(i / self.n, i % self.n, d);
                    if self.rec() {
                        return true;
                    }
                    self.g.set(i / self.n, i % self.n, 0);
                    self.flip(i, d);
                }
                false
            }
        }
        let n = p.side();
        let mut s = S {
            n,
            g: p.clone(),
            rows: vec![0; n],
            cols: vec![0; n],
            boxes: vec![0; n],
        };
        for i in 0..n * n {
            let d = p.cells()[i];
            if d != 0 {
                s.flip(i, d);
            }
        }
        s.rec().then_some(s.g)
    }
}
