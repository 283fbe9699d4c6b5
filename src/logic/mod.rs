//! Human-style solving: a ladder of techniques, simplest first, one
//! recorded [`Step`] per deduction.
//!
//! Every blank starts with all candidates; the techniques strike candidates
//! and place digits, simplest first, starting again from the top after each
//! success (as the seed macro does). Which techniques run is a [`Ladder`]:
//! [`Ladder::seed`] is the old macro's four, [`Ladder::all`] every one in
//! [`TABLE`] (the default). The layout follows HoDoKu's: this file holds
//! the position ([`Board`]) and the loop, [`techniques`] the one table of
//! order, letter, name and ratings, and one file per technique family
//! (`singles`, `intersections`, `subsets`, `fish`, `single_digit`,
//! `wings`, `uniqueness`, `finned_fish`, `sue_de_coq`, `colouring`,
//! `chains`, `als`, `forcing`) the finders.
//!
//! The uniqueness techniques (`u` `h` `b`) hold only for a puzzle with one
//! solution: a board uses them only after [`Board::assume_unique`], which
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
//! use xlsudoku::logic::{Board, Stop};
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let mut board = Board::new(&puzzle).expect("no clash");
//! assert_eq!(board.run(None), Stop::Solved);
//! assert!(board.history().chars().all(|c| c == 'i'));
//! assert!(board.grid().solves(&puzzle));
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

mod als;
mod chains;
mod colouring;
mod explainer;
mod facts;
mod finned_fish;
mod fish;
mod forcing;
mod intersections;
pub mod rating;
mod single_digit;
mod singles;
mod subsets;
mod sue_de_coq;
pub mod techniques;
mod uniqueness;
mod wings;

pub(crate) use rating::rate_after_noted;
pub use rating::{
    rate, rate_after, rate_after_until, rate_unique, rate_unique_until, Limits, Rating,
};
pub use techniques::{
    letter_key, markdown_table, pickable_letters, Ladder, Level, Technique, TechniqueInfo,
    UnknownTechnique, TABLE,
};

use std::sync::Arc;
use std::time::Instant;

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
    /// The deadline ([`Board::set_deadline`]) passed before the ladder
    /// finished.
    Timeout,
}

/// The solving position: digits placed so far, candidates of the blanks,
/// and the steps taken.
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
    /// The ladder's techniques in the order they are tried.
    order: Vec<Technique>,
    /// The puzzle is known to have exactly one solution: only then may
    /// uniqueness techniques (`u` `h` `b`) be used.
    unique: bool,
    /// Whose choice a search makes among the steps it could take
    /// (HoDoKu's, or Sudoku Explainer's in its run).
    pick: Pick,
    /// HoDoKu's queues of singles (every ladder but the seed's): singles
    /// are taken one per step, the next as HoDoKu takes it, and the
    /// ladder starts again from the top (`singles.rs`). The seed's ladder
    /// fills every single a pass finds, as the macro did.
    queues: Option<Box<singles::Queues>>,
    /// The sashimi fish a failed search for finned ones met, for the
    /// search that follows it in the same position.
    fish_memo: Option<finned_fish::FishMemo>,
    /// For each kind of finned fish (size and sashimi) and digit: the
    /// digit's places (row by row) where that search last went through it
    /// in vain on this board (empty when it has not).
    fin_vain: Vec<Box<[u64]>>,
    /// The rectangles of a position, for the uniqueness techniques that
    /// follow one another on it.
    rect_memo: Option<uniqueness::RectMemo>,
    /// Every digit's colour clusters of a position, for the colouring
    /// techniques that follow one another on it.
    colour_memo: Option<colouring::ColourMemo>,
    /// The candidates where the XY-chain search last found nothing
    /// ([`Board::xy_chains_in_vain`]).
    xy_vain: Option<Vec<u64>>,
    /// What the single-digit techniques found nothing on, and where the
    /// unit-bound ones last searched in vain (`facts.rs`).
    facts: facts::Facts,
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
    /// When the ladder must stop (`--timeout`).
    deadline: Option<Instant>,
    /// Searches kept for the position they were made in (the number of
    /// steps taken names the position): link graphs, almost locked sets.
    cache: Cache,
    /// What runs on this puzzle found where, when noted
    /// ([`Board::note_findings`]).
    findings: Option<Findings>,
}

/// What runs on one puzzle found, position by position (a position is
/// its candidates): the techniques tried there in vain, and the steps the
/// costlier ones found. Whether and what a technique finds depends on the
/// position alone (the searches' own memos are checked against the
/// candidates they were made for), so a second run on the same puzzle,
/// in another order, skips those searches: the ratings run the ladder
/// twice, in HoDoKu's order and in Sudoku Explainer's, and about half of
/// the second run's positions were met by the first. Forcing chains and
/// nets, which try first the premises that concluded before, are noted
/// only where they find nothing, and X- and XY-chains, whose choice
/// differs between the runs (`Pick`), likewise. The facts of the
/// single-digit techniques (`facts.rs`: nothing found on a digit) and the
/// link graphs built go along.
#[derive(Debug, Clone, Default)]
pub struct Findings {
    positions: rustc_hash::FxHashMap<Vec<u64>, Noted>,
    facts: facts::Facts,
    /// The link graphs built, by position (9x9 and smaller grids only,
    /// at most [`chains::KEPT_GRAPHS`]): the second run takes them.
    graphs: rustc_hash::FxHashMap<Vec<u64>, Arc<chains::Graph>>,
}

/// What was found in one position.
#[derive(Debug, Clone, Default)]
struct Noted {
    /// The techniques that found nothing, as bits ([`Technique::bit`]).
    failed: u64,
    /// Steps found, by the technique tried (a step may name a variant:
    /// a grouped AIC search finds plain ones too).
    found: Vec<(Technique, Step)>,
}

/// Techniques whose steps are not worth keeping (singles, which cost less
/// than a copy) or depend on the run (forcing chains and nets; X- and
/// XY-chains, whose choice is HoDoKu's or Sudoku Explainer's: [`Pick`]).
fn kept(t: Technique) -> bool {
    !matches!(
        t,
        Technique::NakedSingle
            | Technique::HiddenSingle
            | Technique::ForcingChain
            | Technique::ForcingNet
            | Technique::XChain
            | Technique::XyChain
    )
}

/// Which step a search takes when it could take several.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pick {
    /// HoDoKu's choice, for its run (and `solve`, `explain`): of the X-
    /// and XY-chains, as HoDoKu's `ChainSolver` sorts them, the one that
    /// strikes the most candidates (then the lowest weighted sum of them,
    /// then the shortest). The other techniques take the first found in
    /// HoDoKu's order, and AICs the shortest (HoDoKu sorts its nice loops
    /// the same way, but the ladder's AICs are not its nice loops, and
    /// taking them so gained one level of 800 and cost 1.5 % of the
    /// rating time: the second run could no longer take the first's).
    Hodoku,
    /// Sudoku Explainer's, for its run: the easiest step, the shortest
    /// chain (SE rates a chain by its length).
    Easiest,
}

/// What the costly techniques keep between calls: the link graph and the
/// almost locked sets of the current position, and the premises of
/// forcing chains and nets found with a conclusion and not used yet.
#[derive(Debug, Clone, Default)]
struct Cache {
    /// `(steps taken, graph)`.
    graph: Option<(usize, Arc<chains::Graph>)>,
    /// `(steps taken, candidates, sets)`: the last position's sets, kept
    /// to build the next one's from (the sets of a unit whose cells have
    /// not changed are the same, and so is a set whose own cells have
    /// not; so are the restricted commons of two such sets).
    als: Option<(usize, Vec<u64>, Arc<als::AlsData>)>,
    /// Premise groups of forcing chains (index 0) and nets (index 1)
    /// found to conclude something, to be tried again first.
    forcing: [Vec<forcing::Premises>; 2],
    /// Each unit's naked and hidden subsets, and the candidates they were
    /// found in ([`subsets::UnitSubsets`]).
    subsets: Vec<subsets::UnitSubsets>,
}

/// The fixed layout of a board of one box shape: units, each cell's
/// units and peers. Built once per shape and thread ([`Geometry::of`]) and
/// shared by every board of that shape, as digging a large grid makes a
/// board for every given it tries.
#[derive(Clone)]
struct Geometry {
    shape: crate::grid::BoxShape,
    units: Shared<Vec<usize>>,
    cell_units: Shared<[usize; 3]>,
    peers: Shared<Vec<usize>>,
    /// Each cell's peers as a bit set (`words` 64-bit words per cell).
    peer_sets: Shared<u64>,
    /// Each cell's position (index in the unit's cells) in its row,
    /// column and box.
    cell_pos: Shared<[u8; 3]>,
    /// For each line (unit `k` below `2 * side`) and box `b`, at
    /// `k * side + b`: the positions in the line of its cells in the box.
    line_boxes: Shared<u64>,
    /// For each box `b` (by box number) and line `k`, at `b * 2 * side +
    /// k`: the positions in the box of its cells on the line.
    box_line_cells: Shared<u64>,
    /// For each box (by box number): the rows and the columns through it
    /// (unit numbers, in order).
    box_lines: Shared<(Vec<usize>, Vec<usize>)>,
}

/// A list shared by every board of one shape (read like a `Vec`).
#[derive(Debug, Clone)]
struct Shared<T>(Arc<Vec<T>>);

impl<T> std::ops::Deref for Shared<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<'a, T> IntoIterator for &'a Shared<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

thread_local! {
    /// The last shape's geometry, per thread.
    static GEOMETRY: std::cell::RefCell<Option<Geometry>> = const { std::cell::RefCell::new(None) };
}

impl Geometry {
    /// The layout of `puzzle`'s shape, from the thread's cache when the
    /// last board made on this thread had the same shape.
    fn of(puzzle: &Grid) -> Geometry {
        let shape = puzzle.shape();
        GEOMETRY.with(|cached| {
            let mut cached = cached.borrow_mut();
            match &*cached {
                Some(g) if g.shape == shape => g.clone(),
                _ => {
                    let g = Geometry::build(puzzle);
                    *cached = Some(g.clone());
                    g
                }
            }
        })
    }

    fn build(puzzle: &Grid) -> Geometry {
        let side = puzzle.side();
        let units: Vec<Vec<usize>> = puzzle.units().map(|u| puzzle.unit_cells(u)).collect();
        let mut cell_units = vec![[0usize; 3]; side * side];
        for (k, cells) in units.iter().enumerate() {
            for &c in cells {
                cell_units[c][k / side] = k;
            }
        }
        let peers: Vec<Vec<usize>> = (0..side * side)
            .map(|c| {
                let mut p: Vec<usize> = cell_units[c]
                    .iter()
                    .flat_map(|&k| units[k].iter().copied())
                    .filter(|&x| x != c)
                    .collect();
                p.sort_unstable();
                p.dedup();
                p
            })
            .collect();
        let words = (side * side).div_ceil(64);
        let mut peer_sets = vec![0u64; side * side * words];
        for (c, ps) in peers.iter().enumerate() {
            for &p in ps {
                peer_sets[c * words + p / 64] |= 1 << (p % 64);
            }
        }
        let mut cell_pos = vec![[0u8; 3]; side * side];
        for (k, cells) in units.iter().enumerate() {
            for (i, &c) in cells.iter().enumerate() {
                cell_pos[c][k / side] = i as u8;
            }
        }
        let mut line_boxes = vec![0u64; 2 * side * side];
        for (k, cells) in units[..2 * side].iter().enumerate() {
            for (pos, &c) in cells.iter().enumerate() {
                line_boxes[k * side + cell_units[c][2] - 2 * side] |= 1u64 << pos;
            }
        }
        let mut box_line_cells = vec![0u64; 2 * side * side];
        for (b, cells) in units[2 * side..].iter().enumerate() {
            for (pos, &c) in cells.iter().enumerate() {
                for &k in &cell_units[c][..2] {
                    box_line_cells[b * 2 * side + k] |= 1u64 << pos;
                }
            }
        }
        let box_lines = units[2 * side..]
            .iter()
            .map(|cells| {
                let mut rows: Vec<usize> = cells.iter().map(|&c| cell_units[c][0]).collect();
                let mut cols: Vec<usize> = cells.iter().map(|&c| cell_units[c][1]).collect();
                rows.sort_unstable();
                rows.dedup();
                cols.sort_unstable();
                cols.dedup();
                (rows, cols)
            })
            .collect();
        Geometry {
            shape: puzzle.shape(),
            units: Shared(Arc::new(units)),
            cell_units: Shared(Arc::new(cell_units)),
            peers: Shared(Arc::new(peers)),
            peer_sets: Shared(Arc::new(peer_sets)),
            cell_pos: Shared(Arc::new(cell_pos)),
            line_boxes: Shared(Arc::new(line_boxes)),
            box_line_cells: Shared(Arc::new(box_line_cells)),
            box_lines: Shared(Arc::new(box_lines)),
        }
    }

    /// Whether two givens of `puzzle` clash in a unit (as
    /// [`Grid::conflicts`] would find, without listing them).
    fn clash(&self, puzzle: &Grid) -> bool {
        let cells = puzzle.cells();
        self.units.iter().any(|u| {
            let mut seen = 0u64;
            u.iter().any(|&c| match cells[c] {
                0 => false,
                v => {
                    let b = bit(v);
                    let again = seen & b != 0;
                    seen |= b;
                    again
                }
            })
        })
    }
}

fn bit(d: u8) -> u64 {
    1u64 << (d - 1)
}

/// Every digit of a grid of this side, as a set (bit `d - 1` for `d`).
fn all_digits(side: usize) -> u64 {
    if side == 64 {
        u64::MAX
    } else {
        (1u64 << side) - 1
    }
}

/// The common search of subsets and fish: the first choice of `size`
/// items (each a key and a bit mask: a cell's candidates, a digit's
/// places, a line's places of a digit) whose masks together cover exactly
/// `size` bits, for which `found` makes a step. Items are tried in order;
/// a branch is cut as soon as its union passes `size` bits. `pick` is
/// room for the choice (cleared first), kept by the caller from one call
/// to the next.
fn first_cover<T: Copy>(
    items: &[(T, u64)],
    size: usize,
    pick: &mut Vec<T>,
    found: &mut impl FnMut(&[T], u64) -> Option<Step>,
) -> Option<Step> {
    fn go<T: Copy>(
        items: &[(T, u64)],
        size: usize,
        from: usize,
        union: u64,
        pick: &mut Vec<T>,
        found: &mut impl FnMut(&[T], u64) -> Option<Step>,
    ) -> Option<Step> {
        if pick.len() == size {
            return if union.count_ones() as usize == size {
                found(pick, union)
            } else {
                None
            };
        }
        // Only items that leave enough after them to complete the choice.
        let last = (items.len() + pick.len()).checked_sub(size)?;
        for (j, &(key, mask)) in items.iter().enumerate().take(last + 1).skip(from) {
            let u = union | mask;
            if !at_most(u, size) {
                continue;
            }
            pick.push(key);
            let step = go(items, size, j + 1, u, pick, found);
            pick.pop();
            if step.is_some() {
                return step;
            }
        }
        None
    }
    pick.clear();
    go(items, size, 0, 0, pick, found)
}

/// Whether `x` has exactly two bits set (a pair cell, a strong link),
/// without counting them all.
pub(super) fn two_bits(x: u64) -> bool {
    let rest = x & x.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Whether `x` has at most `k` bits set (cheaper than counting them all
/// for the small `k` of a subset or a fish).
pub(super) fn at_most(mut x: u64, k: usize) -> bool {
    for _ in 0..k {
        x &= x.wrapping_sub(1);
    }
    x == 0
}

/// The members of a bit set of cells (a word per 64 cells), in order.
pub(super) fn members_of(set: Vec<u64>) -> impl Iterator<Item = usize> {
    set.into_iter().enumerate().flat_map(|(w, mut m)| {
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let x = 64 * w + m.trailing_zeros() as usize;
                m &= m - 1;
                x
            })
        })
    })
}

/// The set bits of `mask` as indices, lowest first (positions in a unit).
pub(super) fn positions(mask: u64) -> impl Iterator<Item = usize> {
    digits_of(mask).map(|d| d as usize - 1)
}

pub(super) fn digits_of(mask: u64) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            Some(d)
        }
    })
}

impl Board {
    /// The starting position for a puzzle, solved with every technique
    /// ([`Ladder::all`]): every blank gets all candidates the givens allow.
    /// `None` when two givens clash.
    pub fn new(puzzle: &Grid) -> Option<Board> {
        Board::with_ladder(puzzle, Ladder::all())
    }

    /// A board for a test that writes candidates by hand: the full
    /// ladder, without HoDoKu's queues of singles (they would not see the
    /// edits, and would count places that are gone).
    #[cfg(test)]
    pub(super) fn edited_by_hand(puzzle: &Grid) -> Board {
        let mut b = Board::with_ladder(puzzle, Ladder::all()).unwrap();
        b.queues = None;
        b
    }

    /// The starting position for a puzzle, solved with the techniques of
    /// `ladder`. `None` when two givens clash.
    pub fn with_ladder(puzzle: &Grid, ladder: Ladder) -> Option<Board> {
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
            order: ladder.techniques().collect(),
            unique: false,
            queues: (ladder != Ladder::seed()).then(|| singles::Queues::new(side)),
            pick: Pick::Hodoku,
            fish_memo: None,
            fin_vain: Vec::new(),
            rect_memo: None,
            colour_memo: None,
            xy_vain: None,
            facts: Default::default(),
            peers: geometry.peers,
            peer_sets: geometry.peer_sets,
            cell_pos: geometry.cell_pos,
            line_boxes: geometry.line_boxes,
            box_line_cells: geometry.box_line_cells,
            box_lines: geometry.box_lines,
            deadline: None,
            cache: Cache::default(),
            findings: None,
        };
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                board.assign(i, v);
            }
        }
        board.contradiction = board.find_contradiction();
        Some(board)
    }

    /// Tells the board that its puzzle has exactly one solution (proven,
    /// say, by [`search`](crate::search::search) with a limit of 2), which
    /// lets the ladder use the uniqueness techniques: unique rectangles
    /// (`u`), hidden rectangles (`h`) and BUG+1 (`b`). They assume that no
    /// second solution exists, so on a puzzle with several they could
    /// strike a true digit; a board not told so (the default) skips them.
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::Board;
    ///
    /// let p: Grid =
    ///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    ///         .parse()?;
    /// let mut board = Board::new(&p).expect("no clash");
    /// assert!(!board.assumes_unique());
    /// board.assume_unique();
    /// assert!(board.assumes_unique());
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn assume_unique(&mut self) {
        self.unique = true;
    }

    /// Whether [`Board::assume_unique`] was called: uniqueness techniques
    /// are used only then.
    pub fn assumes_unique(&self) -> bool {
        self.unique
    }

    /// Sets the time by which [`Board::run`] must stop (`None`: no limit).
    /// The ladder checks it between steps and inside its costly searches
    /// (chains, almost locked sets, forcing chains), so a run ends soon
    /// after it with [`Stop::Timeout`].
    ///
    /// ```
    /// use std::time::Instant;
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::{Board, Stop};
    ///
    /// let hard: Grid =
    ///     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    ///         .parse()?;
    /// let mut board = Board::new(&hard).unwrap();
    /// board.set_deadline(Some(Instant::now()));
    /// assert_eq!(board.run(None), Stop::Timeout);
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Notes from now on what techniques find in each position, starting
    /// from what an earlier run on the same puzzle noted (`known`), and
    /// uses the notes: a technique that found nothing in a position is not
    /// tried there again, a step found there is taken again without a
    /// search. The steps are the same, found sooner.
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::{Board, Ladder};
    ///
    /// let p: Grid =
    ///     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    ///         .parse()?;
    /// let mut first = Board::new(&p).unwrap();
    /// first.note_findings(None);
    /// first.run(None);
    /// let mut second = Board::with_ladder(&p, Ladder::all()).unwrap();
    /// second.note_findings(first.take_findings());
    /// second.run(None);
    /// assert_eq!(second.steps(), first.steps());
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn note_findings(&mut self, known: Option<Findings>) {
        let mut known = known.unwrap_or_default();
        self.facts.absorb(std::mem::take(&mut known.facts));
        self.findings = Some(known);
    }

    /// What [`Board::note_findings`] noted, leaving nothing noted.
    pub fn take_findings(&mut self) -> Option<Findings> {
        let mut f = self.findings.take()?;
        f.facts = self.facts.carried();
        Some(f)
    }

    /// True once the deadline has passed.
    pub(crate) fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The grid as far as it is solved.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The candidates of a cell as a bit set (bit `d - 1` for digit `d`);
    /// 0 for a filled cell.
    pub fn candidates(&self, cell: usize) -> u64 {
        self.cands[cell]
    }

    /// The steps taken so far, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The steps taken, in order, taken out of the board (no copy).
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::Board;
    ///
    /// let p: Grid =
    ///     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    ///         .parse()?;
    /// let mut board = Board::new(&p).unwrap();
    /// board.run(None);
    /// let seen = board.steps().len();
    /// assert_eq!(board.into_steps().len(), seen);
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn into_steps(self) -> Vec<Step> {
        self.steps
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

    /// One step of the ladder: the first technique, in table order, that
    /// finds something; false when none does.
    fn step(&mut self) -> bool {
        // The singles at the head of the order first, without the notes:
        // they cost less than looking the position up, and are not kept.
        let mut first = 0;
        while let Some(&t @ (Technique::NakedSingle | Technique::HiddenSingle)) =
            self.order.get(first)
        {
            if self.try_technique(t) {
                return true;
            }
            first += 1;
        }
        // What runs on this puzzle found here (nothing, or a step) is
        // not searched for again; what this search finds is noted.
        let key = self.findings.as_ref().map(|_| self.cands.clone());
        let known = match (&self.findings, &key) {
            (Some(f), Some(key)) => f.positions.get(key).cloned().unwrap_or_default(),
            _ => Noted::default(),
        };
        let mut failed = 0u64;
        let mut found = None;
        for k in first..self.order.len() {
            let t = self.order[k];
            if known.failed & t.bit() != 0 {
                continue;
            }
            if let Some((_, step)) = known.found.iter().find(|(tried, _)| *tried == t) {
                self.replay(step.clone());
                return true;
            }
            if self.try_technique(t) {
                found = Some(t);
                break;
            }
            self.searched_in_vain(t);
            failed |= t.bit();
        }
        if let (Some(key), false) = (key, self.past_deadline()) {
            let step = found
                .filter(|&t| kept(t))
                .and_then(|t| Some((t, self.steps.last()?.clone())));
            if let Some(f) = &mut self.findings {
                if failed & !known.failed != 0 || step.is_some() {
                    let noted = f.positions.entry(key).or_default();
                    noted.failed |= failed;
                    noted.found.extend(step);
                }
            }
        }
        found.is_some()
    }

    /// Takes a step found before in this position.
    fn replay(&mut self, step: Step) {
        if let Some((cell, d)) = step.placed {
            self.assign(cell, d);
        }
        self.apply(step);
    }

    /// One step of technique `t`, if it finds one here.
    fn try_technique(&mut self, t: Technique) -> bool {
        let queued = self.queues.as_ref().is_some_and(|q| q.queuing());
        match t {
            Technique::NakedSingle if queued => self.queued_naked_single(),
            Technique::HiddenSingle if queued => self.queued_hidden_single(),
            Technique::NakedSingle => self.naked_singles(),
            Technique::HiddenSingle => self.hidden_singles(),
            Technique::LockedPair => self.naked_subset(2, true),
            Technique::LockedTriple => self.naked_subset(3, true),
            Technique::LockedCandidates => self.locked_candidates(),
            Technique::NakedPair => self.naked_subset(2, false),
            Technique::NakedTriple => self.naked_subset(3, false),
            Technique::HiddenPair => self.hidden_subset(2),
            Technique::HiddenTriple => self.hidden_subset(3),
            Technique::NakedQuad => self.naked_subset(4, false),
            Technique::HiddenQuad => self.hidden_subset(4),
            Technique::XWing => self.basic_fish(2),
            Technique::Swordfish => self.basic_fish(3),
            Technique::Jellyfish => self.basic_fish(4),
            Technique::RemotePair => self.remote_pair(),
            Technique::BugPlusOne => self.unique && self.bug_plus_one(),
            Technique::Skyscraper => self.single_digit(single_digit::Pattern::Skyscraper),
            Technique::TwoStringKite => self.single_digit(single_digit::Pattern::Kite),
            Technique::TurbotFish => self.single_digit(single_digit::Pattern::Turbot),
            Technique::EmptyRectangle => self.empty_rectangle(),
            Technique::WWing => self.w_wing(),
            Technique::XyWing => self.xy_wing(false),
            Technique::XyzWing => self.xy_wing(true),
            Technique::UniqueRectangle1 => self.unique && self.unique_rectangle(1),
            Technique::UniqueRectangle2 => self.unique && self.unique_rectangle(2),
            Technique::UniqueRectangle3 => self.unique && self.unique_rectangle(3),
            Technique::UniqueRectangle4 => self.unique && self.unique_rectangle(4),
            Technique::HiddenRectangle => self.unique && self.hidden_rectangle(),
            Technique::FinnedXWing => self.finned_fish(2, false),
            Technique::SashimiXWing => self.finned_fish(2, true),
            Technique::FinnedSwordfish => self.finned_fish(3, false),
            Technique::SashimiSwordfish => self.finned_fish(3, true),
            Technique::FinnedJellyfish => self.finned_fish(4, false),
            Technique::SashimiJellyfish => self.finned_fish(4, true),
            Technique::SueDeCoq => self.sue_de_coq(),
            Technique::SimpleColouring => self.simple_colouring(),
            Technique::MultiColouring => self.multi_colouring(),
            Technique::XChain => self.chain(chains::Kind::X),
            Technique::XyChain => self.chain(chains::Kind::Xy),
            Technique::NiceLoop => self.chain(chains::Kind::Aic),
            Technique::GroupedNiceLoop => self.chain(chains::Kind::Grouped),
            Technique::AlsXz => self.als_xz(),
            Technique::AlsXyWing => self.als_xy_wing(),
            Technique::AlsChain => self.als_chain(),
            Technique::ForcingChain => self.forcing(false),
            Technique::ForcingNet => self.forcing(true),
            Technique::Guess => false,
        }
    }

    /// Runs the ladder to the end. When it stops short and `solution` is
    /// given, the blank with the fewest candidates (first in reading order)
    /// takes its value from the solution, recorded as a guess (`#`), and the
    /// ladder goes on. `solution` must solve this board's puzzle.
    pub fn run(&mut self, solution: Option<&Grid>) -> Stop {
        loop {
            if self.contradiction {
                return Stop::Contradiction;
            }
            if self.grid.is_full() {
                return Stop::Solved;
            }
            if self.past_deadline() {
                return Stop::Timeout;
            }
            if self.step() {
                self.contradiction = self.find_contradiction();
                continue;
            }
            let Some(sol) = solution else {
                return Stop::Stuck;
            };
            let cell = (0..self.cands.len())
                .filter(|&i| self.cands[i] != 0)
                .min_by_key(|&i| self.cands[i].count_ones());
            let Some(cell) = cell else {
                return Stop::Contradiction;
            };
            let d = sol.cells()[cell];
            if d == 0 || self.cands[cell] & bit(d) == 0 {
                // The solution does not fit this position: it was not one of
                // this puzzle's, or the position is broken.
                return Stop::Contradiction;
            }
            self.place(Technique::Guess, None, cell, d);
            self.contradiction = self.find_contradiction();
        }
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

    /// Calls `f` on the board at every position the full ladder passes
    /// through on the first `count` puzzles of magictour top1465.
    pub(super) fn each_hard_position(count: usize, mut f: impl FnMut(&Board)) {
        for (_, p) in hard_puzzles(count) {
            let mut b = Board::with_ladder(&p, Ladder::all()).unwrap();
            loop {
                f(&b);
                if b.grid.is_full() || !b.step() {
                    break;
                }
            }
        }
    }

    #[test]
    fn easy_puzzle_is_solved_by_singles() {
        let p: Grid = EASY.parse().unwrap();
        let mut b = Board::new(&p).unwrap();
        assert_eq!(b.run(None), Stop::Solved);
        assert!(b.grid().solves(&p));
        assert!(b.history().chars().all(|c| c == 'i'));
    }

    #[test]
    fn clashing_givens_have_no_board() {
        let mut p: Grid = EASY.parse().unwrap();
        p.set(0, 0, 3); // a second 3 in row 1
        assert!(Board::new(&p).is_none());
    }

    #[test]
    fn hard_puzzle_sticks_then_finishes_with_guesses() {
        // The seed's four techniques stop on it (the whole ladder does not).
        let p: Grid = HARD.parse().unwrap();
        let mut b = Board::with_ladder(&p, Ladder::seed()).unwrap();
        assert_eq!(b.run(None), Stop::Stuck);
        let stuck_history = b.history();
        assert!(!b.grid().is_full());
        let blank = (0..81).find(|&i| b.grid().cells()[i] == 0).unwrap();
        assert!(b.candidates(blank).count_ones() >= 2);
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
        let mut b = Board::new(&p).unwrap();
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
            let mut b = Board::with_ladder(&p, Ladder::seed()).unwrap();
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
