//! From a complete grid to a puzzle: givens taken away, a symmetry orbit
//! at a time in random order, as long as the exact solver still proves the
//! puzzle unique. One pass over the orbits leaves a minimal puzzle (no
//! orbit can be taken away without losing uniqueness), unless a floor on
//! the givens stopped it first.
//!
//! ```
//! use xlsudoku::generate::{dig, random_solution, Rng, Symmetry};
//! use xlsudoku::grid::BoxShape;
//! use xlsudoku::search::{search, SearchOptions};
//!
//! let mut rng = Rng::for_puzzle(1, 0);
//! let solution = random_solution(BoxShape::new(3, 3)?, &mut rng, None)?;
//! let puzzle = dig(&solution, Symmetry::Rotational, 0, &mut rng, None)?;
//! assert!(Symmetry::Rotational.holds(&puzzle));
//! let found = search(&puzzle, &SearchOptions::default())?;
//! assert_eq!(found.solutions, [solution]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use super::Rng;
use crate::grid::Grid;
use crate::logic::{Ladder, Solver, Stop, Technique};
use crate::search::{search_into, SearchError, SearchOptions};

/// Which cells are given or blank together: the pattern of givens is
/// unchanged by this move of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// Any pattern.
    #[default]
    None,
    /// Half-turn: (r, c) and (n-1-r, n-1-c), the newspaper standard.
    Rotational,
    /// Left-right mirror: (r, c) and (r, n-1-c).
    Mirror,
    /// The main diagonal: (r, c) and (c, r).
    Diagonal,
}

impl Symmetry {
    /// Every mode, as `--symmetry` spells them.
    pub const ALL: [Symmetry; 4] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The cell this symmetry pairs with (row-major index) in a grid of
    /// `side` cells a side; itself when it lies on the axis or centre.
    pub fn partner(self, cell: usize, side: usize) -> usize {
        let (r, c) = (cell / side, cell % side);
        match self {
            Symmetry::None => cell,
            Symmetry::Rotational => (side - 1 - r) * side + (side - 1 - c),
            Symmetry::Mirror => r * side + (side - 1 - c),
            Symmetry::Diagonal => c * side + r,
        }
    }

    /// Whether the givens of `puzzle` follow this symmetry.
    pub fn holds(self, puzzle: &Grid) -> bool {
        let side = puzzle.side();
        let cells = puzzle.cells();
        (0..cells.len()).all(|i| (cells[i] == 0) == (cells[self.partner(i, side)] == 0))
    }

    /// The orbits: groups of cells given or blank together, each listed
    /// once, in reading order of their first cell.
    fn orbits(self, side: usize) -> Vec<Vec<usize>> {
        let mut orbits = Vec::new();
        for cell in 0..side * side {
            let other = self.partner(cell, side);
            if other == cell {
                orbits.push(vec![cell]);
            } else if other > cell {
                orbits.push(vec![cell, other]);
            }
        }
        orbits
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        })
    }
}

impl FromStr for Symmetry {
    type Err = String;

    fn from_str(s: &str) -> Result<Symmetry, String> {
        Symmetry::ALL
            .into_iter()
            .find(|m| m.to_string().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown symmetry {s:?}: none, rotational, mirror or diagonal"))
    }
}

/// What proves a dug puzzle still unique, each time a given goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Prover {
    /// The exact solver finds no second solution: the result is minimal.
    #[default]
    Exact,
    /// These techniques still finish the puzzle without a guess (sound
    /// techniques leave no choice, so the solution is unique). Much faster
    /// on large grids, where a sparse puzzle's second solution can take the
    /// exact solver long to find or rule out; the result is minimal for
    /// the ladder (no given can go without the ladder stopping short) and
    /// finished by it, a book-grade puzzle. A caller that cannot vouch for
    /// every technique's soundness checks the result with the exact solver.
    /// A removal that leaves a second solution is refused without the
    /// ladder when one is seen sooner: two digits that can swap in a group
    /// of blank cells, or the exact solver asked first while that pays
    /// (the same verdicts, found faster; see `by_ladder`).
    Ladder(Ladder),
}

impl Prover {
    /// Whether `puzzle` (whose one solution is known to exist) is unique.
    fn unique(
        &self,
        puzzle: &Grid,
        out: &mut Vec<u8>,
        opts: &SearchOptions,
    ) -> Result<bool, SearchError> {
        match self {
            Prover::Exact => {
                out.clear();
                Ok(search_into(puzzle, opts, out)?.count == 1)
            }
            Prover::Ladder(ladder) => Ok(by_ladder(puzzle, ladder, out, opts.deadline)),
        }
    }
}

/// Whether `ladder` finishes `puzzle` (whose one solution is known to
/// exist), asking the exact solver first for a second solution when that
/// has been paying off ([`Costs`]): a puzzle with two solutions is never
/// finished by the ladder (its techniques are sound), and on a 16x16 dug by
/// singles nearly every given taken away leaves a second solution, which
/// the solver finds in half the time the ladder takes to stall. The answer
/// is the ladder's in every case (the same puzzles for any timing); only
/// the time to it changes.
fn by_ladder(puzzle: &Grid, ladder: &Ladder, out: &mut Vec<u8>, deadline: Option<Instant>) -> bool {
    let side = puzzle.side();
    let budget = with_costs(side, ladder, Costs::search_budget);
    if let Some(budget) = budget {
        let start = Instant::now();
        let until = start + budget;
        let opts = SearchOptions {
            limit: 2,
            deadline: Some(deadline.map_or(until, |d| d.min(until))),
        };
        out.clear();
        let second = matches!(search_into(puzzle, &opts, out), Ok(found) if found.count > 1);
        let spent = start.elapsed();
        with_costs(side, ladder, |c| c.searched(spent, second));
        if second {
            return false;
        }
    }
    let start = Instant::now();
    let solved = Solver::with_ladder(puzzle, ladder.clone())
        .is_some_and(|mut b| b.run(None) == Stop::Solved);
    let spent = start.elapsed();
    with_costs(side, ladder, |c| c.laddered(spent));
    solved
}

/// What one thread has measured of the two ways to a verdict on a given
/// taken away, for one side and ladder: the ladder's runs, and the
/// exact solver's searches for a second solution (with how many found
/// one). The search goes first while its time is below the ladder time it
/// saves (the ladder's mean time times the share of searches that found a
/// second solution); it is tried again now and then so a change is seen.
#[derive(Debug)]
struct Costs {
    side: usize,
    key: Ladder,
    ladder: Duration,
    ladder_runs: u64,
    search: Duration,
    searches: u64,
    seconds: u64,
    asked: u64,
}

/// Ladder runs measured before the first search; searches made before
/// their payoff is judged; one search in this many asks is made whatever
/// the judgement.
const LEARN: u64 = 8;
const PROBE_EVERY: u64 = 64;

/// The most sides and ladders a thread keeps measurements for (a large
/// grid's digging alternates two: singles, then the ladder).
const KEPT: usize = 8;

thread_local! {
    static COSTS: std::cell::RefCell<Vec<Costs>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `f` on this thread's measurements for `side` and `ladder` (new ones
/// when there are none yet, the oldest dropped past [`KEPT`]).
fn with_costs<T>(side: usize, ladder: &Ladder, f: impl FnOnce(&mut Costs) -> T) -> T {
    COSTS.with(|all| {
        let mut all = all.borrow_mut();
        let at = match all.iter().position(|c| c.side == side && c.key == *ladder) {
            Some(at) => at,
            None => {
                if all.len() >= KEPT {
                    all.remove(0);
                }
                all.push(Costs {
                    side,
                    key: ladder.clone(),
                    ladder: Duration::ZERO,
                    ladder_runs: 0,
                    search: Duration::ZERO,
                    searches: 0,
                    seconds: 0,
                    asked: 0,
                });
                all.len() - 1
            }
        };
        f(&mut all[at])
    })
}

impl Costs {
    /// How long the next search may take, or `None` to go to the ladder
    /// at once: twice the ladder's mean time.
    fn search_budget(&mut self) -> Option<Duration> {
        if self.ladder_runs < LEARN {
            return None;
        }
        self.asked = self.asked.wrapping_add(1);
        let ladder_mean = self.ladder.as_secs_f64() / self.ladder_runs as f64;
        let pays = self.searches < LEARN
            || self.asked.is_multiple_of(PROBE_EVERY)
            || self.search.as_secs_f64() < ladder_mean * self.seconds as f64;
        pays.then(|| Duration::from_secs_f64(2.0 * ladder_mean))
    }

    fn searched(&mut self, spent: Duration, second: bool) {
        self.search += spent;
        self.searches += 1;
        self.seconds += u64::from(second);
    }

    fn laddered(&mut self, spent: Duration) {
        self.ladder += spent;
        self.ladder_runs += 1;
    }
}

/// Takes givens away from `solution` (a complete grid) an orbit of
/// `symmetry` at a time, in random order, keeping every orbit whose removal
/// would leave more than one solution or fewer than `min_givens` givens.
/// The result has exactly one solution, `solution`. Errors only when
/// `deadline` passes first.
pub fn dig(
    solution: &Grid,
    symmetry: Symmetry,
    min_givens: usize,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Grid, SearchError> {
    dig_from(
        solution.clone(),
        solution,
        symmetry,
        min_givens,
        &Prover::Exact,
        rng,
        deadline,
    )
}

/// [`dig`] from a puzzle already dug part of the way, with uniqueness
/// proven by `prover`: `puzzle` must have exactly one solution,
/// `solution`, and follow `symmetry` (and, with [`Prover::Ladder`], be
/// finished by that ladder).
pub fn dig_from(
    mut puzzle: Grid,
    solution: &Grid,
    symmetry: Symmetry,
    min_givens: usize,
    prover: &Prover,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Grid, SearchError> {
    if let Prover::Ladder(ladder) = prover {
        // Singles first: most givens go on their say, and a board they
        // leave stuck costs little. The whole ladder then tries what is
        // left (its runs are the dear ones: locked candidates alone took a
        // third of a 16x16 set's time when every removal ran it).
        let cheap: Vec<Technique> = ladder
            .techniques()
            .filter(|t| matches!(t, Technique::HiddenSingle))
            .collect();
        let cheap = Ladder::of(&cheap);
        if cheap != *ladder {
            let first = Prover::Ladder(cheap);
            puzzle = dig_pass(
                puzzle, solution, symmetry, min_givens, &first, rng, deadline,
            )?;
        }
    }
    dig_pass(
        puzzle, solution, symmetry, min_givens, prover, rng, deadline,
    )
}

/// One pass of [`dig_from`] over the orbits in a random order.
fn dig_pass(
    mut puzzle: Grid,
    solution: &Grid,
    symmetry: Symmetry,
    min_givens: usize,
    prover: &Prover,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Grid, SearchError> {
    let side = solution.side();
    let mut orbits = symmetry.orbits(side);
    rng.shuffle(&mut orbits);
    let mut givens = puzzle.givens();
    let opts = SearchOptions { limit: 2, deadline };
    let mut out = Vec::with_capacity(2 * side * side);
    let swaps = matches!(prover, Prover::Ladder(_)).then(|| Swaps::new(solution));
    for orbit in orbits {
        if givens < min_givens + orbit.len() || orbit.iter().any(|&c| puzzle.cells()[c] == 0) {
            continue;
        }
        for &cell in &orbit {
            puzzle.set(cell / side, cell % side, 0);
        }
        // A second solution by two digits swapped settles it at once.
        let swapped = swaps.as_ref().is_some_and(|s| s.second(&puzzle, orbit[0]));
        if !swapped && prover.unique(&puzzle, &mut out, &opts)? {
            givens -= orbit.len();
        } else {
            for &cell in &orbit {
                puzzle.set(cell / side, cell % side, solution.cells()[cell]);
            }
        }
    }
    Ok(puzzle)
}

/// Second solutions that differ from a complete grid by two digits
/// swapped: for digits `a` and `b`, the cells holding either are linked
/// (each unit has one of each); swapping the two in a linked group leaves
/// every unit with one `a` and one `b`, a valid grid. When the group of a
/// blank cell has no given, the puzzle has that second solution too, and no
/// sound technique can finish it: the ladder need not run. A test of
/// microseconds that catches about one given in five the ladder would
/// refuse on a 16x16.
struct Swaps<'a> {
    solution: &'a Grid,
    /// `at[k * side + d - 1]`: the cell of unit `k` holding `d`.
    at: Vec<usize>,
    /// The row, column and box unit of each cell.
    units: Vec<[usize; 3]>,
}

impl<'a> Swaps<'a> {
    fn new(solution: &'a Grid) -> Swaps<'a> {
        let n = solution.side();
        let mut at = vec![0; 3 * n * n];
        let mut units = vec![[0; 3]; n * n];
        for (k, unit) in solution.units().enumerate() {
            for c in solution.unit_cells(unit) {
                let d = solution.cells()[c] as usize;
                if d > 0 {
                    at[k * n + d - 1] = c;
                }
                units[c][k / n] = k;
            }
        }
        Swaps {
            solution,
            at,
            units,
        }
    }

    /// Whether some digit swapped with `cell`'s along its linked group
    /// (all blank in `puzzle`) gives a second solution.
    fn second(&self, puzzle: &Grid, cell: usize) -> bool {
        let n = self.solution.side();
        let sol = self.solution.cells();
        let a = sol[cell];
        let mut seen = vec![false; n * n];
        let mut stack = Vec::with_capacity(2 * n);
        (1..=n as u8).filter(|&b| b != a && a != 0).any(|b| {
            seen.fill(false);
            stack.clear();
            stack.push(cell);
            seen[cell] = true;
            while let Some(c) = stack.pop() {
                if puzzle.cells()[c] != 0 {
                    return false;
                }
                let other = if sol[c] == a { b } else { a };
                for k in self.units[c] {
                    let o = self.at[k * n + other as usize - 1];
                    if !seen[o] {
                        seen[o] = true;
                        stack.push(o);
                    }
                }
            }
            true
        })
    }
}

/// A neighbour of a unique puzzle for the search of harder ones: `add`
/// blank orbits chosen at random get their givens back from `solution`,
/// then the puzzle is dug again ([`dig_from`]) in a new random order.
/// The result is unique and minimal again (down to `min_givens`).
#[allow(clippy::too_many_arguments)]
pub fn neighbour(
    puzzle: &Grid,
    solution: &Grid,
    symmetry: Symmetry,
    add: usize,
    min_givens: usize,
    prover: &Prover,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Grid, SearchError> {
    let side = solution.side();
    let mut blank: Vec<Vec<usize>> = symmetry
        .orbits(side)
        .into_iter()
        .filter(|o| o.iter().all(|&c| puzzle.cells()[c] == 0))
        .collect();
    rng.shuffle(&mut blank);
    let mut next = puzzle.clone();
    for orbit in blank.iter().take(add) {
        for &cell in orbit {
            next.set(cell / side, cell % side, solution.cells()[cell]);
        }
    }
    dig_from(next, solution, symmetry, min_givens, prover, rng, deadline)
}

#[cfg(test)]
mod tests {
    use super::super::random_solution;
    use super::*;
    use crate::grid::BoxShape;
    use crate::search::search;

    fn unique(p: &Grid) -> bool {
        search(p, &SearchOptions::default())
            .map(|o| o.solutions.len() == 1)
            .unwrap_or(false)
    }

    #[test]
    fn dug_puzzles_are_unique_minimal_and_symmetric() {
        for (w, h) in [(2, 2), (3, 2), (3, 3)] {
            let shape = BoxShape::new(w, h).expect("shape");
            for symmetry in Symmetry::ALL {
                let mut rng = Rng::for_puzzle(11, (w * h) as u64);
                let solution = random_solution(shape, &mut rng, None).expect("grid");
                let p = dig(&solution, symmetry, 0, &mut rng, None).expect("no deadline");
                assert!(solution.solves(&p));
                assert!(unique(&p), "{symmetry} {shape}");
                assert!(symmetry.holds(&p), "{symmetry} {shape}:\n{p}");
                // Minimal: no orbit of givens can go.
                let side = p.side();
                for orbit in symmetry.orbits(side) {
                    if orbit.iter().all(|&c| p.cells()[c] != 0) {
                        let mut q = p.clone();
                        for &c in &orbit {
                            q.set(c / side, c % side, 0);
                        }
                        assert!(!unique(&q), "{symmetry} {shape}: {orbit:?} could go");
                    }
                }
            }
        }
    }

    #[test]
    fn neighbours_are_unique_symmetric_and_differ() {
        let shape = BoxShape::new(3, 3).expect("shape");
        let mut rng = Rng::for_puzzle(4, 4);
        let solution = random_solution(shape, &mut rng, None).expect("grid");
        let p = dig(&solution, Symmetry::Mirror, 0, &mut rng, None).expect("dug");
        let mut differ = 0;
        for _ in 0..10 {
            let q = neighbour(
                &p,
                &solution,
                Symmetry::Mirror,
                2,
                0,
                &Prover::Exact,
                &mut rng,
                None,
            )
            .expect("dug");
            assert!(unique(&q) && solution.solves(&q));
            assert!(Symmetry::Mirror.holds(&q));
            differ += usize::from(q != p);
        }
        assert!(differ > 5, "{differ} of 10 neighbours differ");
    }

    #[test]
    fn the_ladder_prover_digs_book_grade_unique_puzzles() {
        let shape = BoxShape::new(4, 4).expect("shape");
        let mut rng = Rng::for_puzzle(6, 6);
        let solution = random_solution(shape, &mut rng, None).expect("grid");
        let seed = Prover::Ladder(Ladder::seed());
        let p = dig_from(
            solution.clone(),
            &solution,
            Symmetry::None,
            0,
            &seed,
            &mut rng,
            None,
        )
        .expect("dug");
        assert!(unique(&p));
        let mut solver = Solver::with_ladder(&p, Ladder::seed()).expect("no clash");
        assert_eq!(solver.run(None), Stop::Solved);
        assert!(p.givens() < 256 / 2, "{} givens", p.givens());
    }

    #[test]
    fn a_blank_swappable_group_is_a_second_solution() {
        let shape = BoxShape::new(3, 3).expect("shape");
        let mut rng = Rng::for_puzzle(3, 3);
        let solution = random_solution(shape, &mut rng, None).expect("grid");
        let swaps = Swaps::new(&solution);
        let mut said = 0;
        for k in 0..200 {
            // Givens taken away at random, more and more.
            let mut p = solution.clone();
            for c in 0..81 {
                if (c * 7 + k * 13) % 97 < 20 + k / 4 {
                    p.set(c / 9, c % 9, 0);
                }
            }
            let blank: Vec<usize> = (0..81).filter(|&c| p.cells()[c] == 0).collect();
            for &c in &blank {
                if swaps.second(&p, c) {
                    said += 1;
                    assert!(!unique(&p), "a swap claimed on a unique puzzle:\n{p}");
                }
            }
        }
        assert!(said > 100, "{said} swaps found");
        // The complete grid has no blank group.
        assert!(!swaps.second(&solution, 0));
    }

    #[test]
    fn the_ladder_verdict_is_the_same_with_the_solver_asked_first() {
        let shape = BoxShape::new(4, 4).expect("shape");
        let mut rng = Rng::for_puzzle(8, 8);
        let solution = random_solution(shape, &mut rng, None).expect("grid");
        let ladder = Ladder::seed();
        let mut out = Vec::new();
        let mut p = solution.clone();
        let mut order: Vec<usize> = (0..256).collect();
        rng.shuffle(&mut order);
        let (mut kept, mut refused) = (0, 0);
        for &c in order.iter().take(200) {
            p.set(c / 16, c % 16, 0);
            let plain = Solver::with_ladder(&p, ladder.clone())
                .is_some_and(|mut b| b.run(None) == Stop::Solved);
            assert_eq!(by_ladder(&p, &ladder, &mut out, None), plain, "cell {c}");
            if plain {
                kept += 1;
            } else {
                refused += 1;
                p.set(c / 16, c % 16, solution.cells()[c]);
            }
        }
        assert!(kept > 20 && refused > 20, "{kept} kept, {refused} refused");
        let searched = with_costs(16, &ladder, |c| c.searches);
        assert!(searched > 0, "the solver was never asked");
    }

    #[test]
    fn a_floor_on_givens_stops_the_digging() {
        let shape = BoxShape::new(3, 3).expect("shape");
        let mut rng = Rng::for_puzzle(2, 2);
        let solution = random_solution(shape, &mut rng, None).expect("grid");
        let p = dig(&solution, Symmetry::None, 40, &mut rng, None).expect("dug");
        assert_eq!(p.givens(), 40);
        assert!(unique(&p));
    }

    #[test]
    fn symmetry_partners_and_names() {
        assert_eq!(Symmetry::Rotational.partner(0, 9), 80);
        assert_eq!(Symmetry::Mirror.partner(9, 9), 17);
        assert_eq!(Symmetry::Diagonal.partner(1, 9), 9);
        assert_eq!(Symmetry::None.partner(5, 9), 5);
        for m in Symmetry::ALL {
            assert_eq!(m.to_string().parse::<Symmetry>(), Ok(m));
        }
        assert!("spiral".parse::<Symmetry>().is_err());
        let mut g = Grid::empty(BoxShape::new(2, 2).expect("shape"));
        g.set(0, 0, 1);
        assert!(!Symmetry::Rotational.holds(&g));
        g.set(3, 3, 1);
        assert!(Symmetry::Rotational.holds(&g));
        assert!(!Symmetry::Mirror.holds(&g));
    }
}
