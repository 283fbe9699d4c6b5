//! The solution of the puzzle being rated, when it has exactly one, so
//! that the dynamic chainers skip the runs that provably cannot meet a
//! contradiction.
//!
//! Why a skip is exact: on a grid whose only solution is `S` (a grid
//! `S` fits, struck from a puzzle whose only solution is `S`), every
//! link of a run is a deduction valid in every solution of the grid,
//! the candidates struck on the way included. A run from an assumption
//! true in `S` (a candidate of `S` "on", or one not in `S` "off") so
//! derives only what holds in `S`, and never a potential and its
//! negation: it gives no contradiction hint. Only a run kept for other
//! hints (double implications, cell and region chains) is made then.

use super::super::grid::Grid;
use std::cell::Cell;

thread_local! {
    /// The solution of the puzzle this thread rates (set by [`Known`]).
    static SOLUTION: Cell<Option<[u8; 81]>> = const { Cell::new(None) };
}

/// While alive, the chainers on this thread know the solution of one
/// puzzle (if it has exactly one); dropping it forgets it.
pub struct Known {
    /// What the thread knew before (restored on drop).
    before: Option<[u8; 81]>,
    /// Whether the puzzle has exactly one solution.
    unique: bool,
}

impl Known {
    /// Makes the solution of `puzzle` (81 digits, 0 for a blank) known,
    /// when it has exactly one.
    pub fn new(puzzle: &[u8; 81]) -> Known {
        let solution = unique_solution(puzzle);
        Known {
            before: SOLUTION.with(|s| s.replace(solution)),
            unique: solution.is_some(),
        }
    }

    /// Whether the puzzle has exactly one solution (then it is known).
    pub fn unique(&self) -> bool {
        self.unique
    }
}

impl Drop for Known {
    fn drop(&mut self) {
        SOLUTION.with(|s| s.set(self.before));
    }
}

/// The only solution of `puzzle`, or None (none, several, or a shape the
/// solver refuses).
pub(super) fn unique_solution(puzzle: &[u8; 81]) -> Option<[u8; 81]> {
    let shape = crate::grid::BoxShape::new(3, 3).ok()?;
    let grid = crate::grid::Grid::from_cells(shape, puzzle.to_vec()).ok()?;
    let opts = crate::search::SearchOptions {
        limit: 2,
        deadline: None,
    };
    let outcome = crate::search::search(&grid, &opts).ok()?;
    if outcome.solutions.len() != 1 {
        return None;
    }
    outcome.solutions[0].cells().try_into().ok()
}

/// The solution known on this thread, if `g` fits it (every value is
/// the solution's, every open cell holds the solution's digit): then,
/// `g` coming from the puzzle by placements and strikes, it is `g`'s
/// only solution.
pub fn of(g: &Grid) -> Option<[u8; 81]> {
    let s = SOLUTION.with(Cell::get)?;
    let fits = (0..81).all(|c| {
        let d = s[c];
        (1..=9).contains(&d)
            && if g.values[c] != 0 {
                g.values[c] == d
            } else {
                g.cands[c] >> d & 1 == 1
            }
    });
    fits.then_some(s)
}

#[cfg(test)]
mod tests {
    use super::super::super::grid::parse;
    use super::*;

    const PUZZLE: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn known_only_while_alive_and_only_for_grids_that_fit() {
        let p = parse(PUZZLE).expect("81 digits");
        let g = Grid::new(&p);
        assert_eq!(of(&g), None);
        {
            let known = Known::new(&p);
            assert!(known.unique());
            let s = of(&g).expect("one solution, fits the start");
            assert!((0..81).all(|c| p[c] == 0 || p[c] == s[c]));
            // Strike a cell's solution digit: the grid no longer fits.
            let cell = (0..81).find(|&c| p[c] == 0).expect("open");
            let mut h = g.clone();
            h.cands[cell] &= !(1 << s[cell]);
            assert_eq!(of(&h), None);
        }
        assert_eq!(of(&g), None);
        // Several solutions: nothing known.
        let known = Known::new(&[0; 81]);
        assert!(!known.unique());
        assert_eq!(of(&Grid::new(&[0; 81])), None);
    }
}
