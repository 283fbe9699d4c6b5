//! Which givens are to blame when a grid has no solution or more than one,
//! named cell by cell: for no solution, a smallest set of givens that
//! cannot all stand (a minimal unsolvable subset, found by a deletion
//! filter with the exact solver); for several, the cells in which two
//! solutions differ.
//!
//! ```
//! use std::time::Duration;
//! use xlsudoku::conflicts::unsolvable_core;
//! use xlsudoku::grid::Grid;
//!
//! // Row 1 lacks only a 9, but column 9 holds one already (in row 5).
//! let rows = ["12345678.", ".........", ".........", ".........", "........9"];
//! let puzzle: Grid = format!("{}{}", rows.concat(), ".".repeat(36)).parse()?;
//! let core = unsolvable_core(&puzzle, Duration::from_secs(2));
//! assert!(core.smallest);
//! assert_eq!(core.cells.len(), 9, "the eight of row 1 and the 9 below");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::{Duration, Instant};

use crate::cell_names::AddressMap;
use crate::grid::Grid;
use crate::search::{search, SearchOptions};

/// How long the search for a smallest set of givens may take, on top of
/// the solve: plenty on 9×9 (a few milliseconds), a bound on large grids.
pub const CORE_BUDGET: Duration = Duration::from_secs(2);

/// The most cells a message lists before it says how many more there are.
const LISTED: usize = 12;

/// A set of givens that cannot all stand together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Core {
    /// The cells (row-major indices), in reading order.
    pub cells: Vec<usize>,
    /// True when leaving out any one of them leaves givens that can be
    /// completed (the set is as small as it can be); false when the time
    /// budget ran out first (the set still cannot stand, but may hold
    /// givens that are not to blame).
    pub smallest: bool,
}

/// Whether `puzzle` has no solution; `None` when the search did not
/// finish by `deadline`.
fn has_no_solution(puzzle: &Grid, deadline: Instant) -> Option<bool> {
    let opts = SearchOptions {
        limit: 1,
        deadline: Some(deadline),
    };
    search(puzzle, &opts).ok().map(|o| o.solutions.is_empty())
}

/// A smallest set of the givens of `puzzle` (which has no solution) that
/// has no solution on its own: each given is left out in turn and stays
/// out when the rest still has none. Stops at `budget`, keeping the givens
/// not yet tried ([`Core::smallest`] then false).
pub fn unsolvable_core(puzzle: &Grid, budget: Duration) -> Core {
    let deadline = Instant::now() + budget;
    let mut core = puzzle.clone();
    let mut smallest = true;
    let side = puzzle.side();
    for i in 0..puzzle.cells().len() {
        let d = core.cells()[i];
        if d == 0 {
            continue;
        }
        if Instant::now() >= deadline {
            smallest = false;
            break;
        }
        core.set(i / side, i % side, 0);
        match has_no_solution(&core, deadline) {
            Some(true) => {}
            Some(false) => core.set(i / side, i % side, d),
            None => {
                core.set(i / side, i % side, d);
                smallest = false;
                break;
            }
        }
    }
    Core {
        cells: (0..core.cells().len())
            .filter(|&i| core.cells()[i] != 0)
            .collect(),
        smallest,
    }
}

/// Why `puzzle` has no solution, naming the givens that cannot all stand:
/// `the givens have no solution; these 4 cannot all stand: C3 = 5, D4 =
/// 1, E9 = 7, H3 = 2 (leave out any one and the rest can be completed)`.
pub fn unsolvable_reason(puzzle: &Grid, names: &AddressMap) -> String {
    let core = unsolvable_core(puzzle, CORE_BUDGET);
    let listed: Vec<String> = core
        .cells
        .iter()
        .take(LISTED)
        .map(|&i| format!("{} = {}", names.cell(i), names.digit(puzzle.cells()[i])))
        .collect();
    let more = match core.cells.len().saturating_sub(LISTED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let why = if core.smallest {
        "leave out any one and the rest can be completed"
    } else {
        "the time for a smallest set ran out: some of them may be right"
    };
    format!(
        "the givens have no solution; these {} cannot all stand: {}{more} ({why})",
        core.cells.len(),
        listed.join(", ")
    )
}

/// Two solutions of `puzzle`, when it has more than one and the search
/// finds them by `deadline`.
pub fn two_solutions(puzzle: &Grid, deadline: Instant) -> Option<(Grid, Grid)> {
    let opts = SearchOptions {
        limit: 2,
        deadline: Some(deadline),
    };
    let mut found = search(puzzle, &opts).ok()?.solutions.into_iter();
    Some((found.next()?, found.next()?))
}

/// The cells in which two solutions differ, grouped by the pair of digits
/// they swap: `D5, D7, F5, F7 can be 1 or 2 either way`, groups joined by
/// `; `, at most 12 cells named (then how many differ in all).
pub fn difference_words(a: &Grid, b: &Grid, names: &AddressMap) -> String {
    // (low digit, high digit) → cells, in order of first appearance.
    let mut groups: Vec<((u8, u8), Vec<usize>)> = Vec::new();
    for (i, (&x, &y)) in a.cells().iter().zip(b.cells()).enumerate() {
        if x == y {
            continue;
        }
        let pair = (x.min(y), x.max(y));
        match groups.iter_mut().find(|(p, _)| *p == pair) {
            Some((_, cells)) => cells.push(i),
            None => groups.push((pair, vec![i])),
        }
    }
    let total: usize = groups.iter().map(|(_, c)| c.len()).sum();
    let mut named = 0;
    let mut parts = Vec::new();
    for ((lo, hi), cells) in &groups {
        if named >= LISTED {
            break;
        }
        let take: Vec<usize> = cells.iter().copied().take(LISTED - named).collect();
        named += take.len();
        let cut = if take.len() < cells.len() {
            ", …"
        } else {
            ""
        };
        parts.push(format!(
            "{}{cut} can be {} or {} either way",
            names.cells(&take),
            names.digit(*lo),
            names.digit(*hi)
        ));
    }
    let mut words = parts.join("; ");
    if named < total {
        words.push_str(&format!(" ({total} cells differ in all)"));
    }
    words
}

/// Why `puzzle` is ambiguous, naming where two of its solutions differ:
/// `more than one solution: D5, D7, F5, F7 can be 1 or 2 either way`.
pub fn multiple_reason(puzzle: &Grid, names: &AddressMap) -> String {
    match two_solutions(puzzle, Instant::now() + CORE_BUDGET) {
        Some((a, b)) => format!(
            "more than one solution: {}",
            difference_words(&a, &b, names)
        ),
        None => "more than one solution".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::BoxShape;

    fn grid(text: &str) -> Grid {
        text.parse().unwrap()
    }

    /// A solved 9x9 grid.
    const FULL: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn the_core_keeps_only_the_givens_to_blame() {
        // A full grid with one wrong given among all the right ones: that
        // given and the givens that force its cell's digit elsewhere.
        let mut cells: Vec<u8> = FULL.bytes().map(|b| b - b'0').collect();
        cells[0] = 6; // A1 was 5; 6 is in row 1 already (D1).
        let g = Grid::from_cells(BoxShape::new(3, 3).unwrap(), cells).unwrap();
        let core = unsolvable_core(&g, Duration::from_secs(5));
        assert!(core.smallest);
        assert!(core.cells.contains(&0), "{core:?}");
        assert!(core.cells.len() < 81);
        // Minimal: leaving out any one given of the core leaves a puzzle
        // with a solution.
        for &i in &core.cells {
            let mut cut = Grid::empty(g.shape());
            for &j in &core.cells {
                if j != i {
                    cut.set(j / 9, j % 9, g.cells()[j]);
                }
            }
            assert_eq!(
                has_no_solution(&cut, Instant::now() + CORE_BUDGET),
                Some(false)
            );
        }
    }

    #[test]
    fn no_budget_gives_every_given_and_says_so() {
        let mut cells: Vec<u8> = FULL.bytes().map(|b| b - b'0').collect();
        cells[0] = 6;
        let g = Grid::from_cells(BoxShape::new(3, 3).unwrap(), cells).unwrap();
        let core = unsolvable_core(&g, Duration::ZERO);
        assert!(!core.smallest);
        assert_eq!(core.cells.len(), 81);
        let map = AddressMap::puzzle(g.shape());
        assert!(unsolvable_reason(&g, &map).contains("the givens have no solution; these "));
    }

    #[test]
    fn two_solutions_differ_by_the_swapped_digits() {
        let full = grid(FULL);
        let swap = |d: u8| match d {
            1 => 2,
            2 => 1,
            d => d,
        };
        let other = Grid::from_cells(
            full.shape(),
            full.cells().iter().map(|&d| swap(d)).collect(),
        )
        .unwrap();
        let map = AddressMap::puzzle(full.shape());
        let words = difference_words(&full, &other, &map);
        let first: Vec<usize> = (0..81)
            .filter(|&i| matches!(full.cells()[i], 1 | 2))
            .take(LISTED)
            .collect();
        assert_eq!(
            words,
            format!(
                "{}, … can be 1 or 2 either way (18 cells differ in all)",
                map.cells(&first)
            )
        );
        // With every 1 and 2 blank, the search finds two solutions, which
        // differ only where 1 and 2 trade places.
        let blanks: Vec<u8> = full
            .cells()
            .iter()
            .map(|&d| if d <= 2 { 0 } else { d })
            .collect();
        let puzzle = Grid::from_cells(full.shape(), blanks).unwrap();
        let reason = multiple_reason(&puzzle, &map);
        assert!(reason.starts_with("more than one solution: r"), "{reason}");
        assert!(reason.contains(" can be 1 or 2 either way"), "{reason}");
        assert!(!reason.contains(" or 3 "), "{reason}");
    }

    #[test]
    fn many_differences_are_cut_and_counted() {
        let a = grid(FULL);
        // Relabel every digit d -> d % 9 + 1: all 81 cells differ, in nine
        // pairs of digits.
        let cells: Vec<u8> = a.cells().iter().map(|&d| d % 9 + 1).collect();
        let b = Grid::from_cells(a.shape(), cells).unwrap();
        let words = difference_words(&a, &b, &AddressMap::puzzle(a.shape()));
        assert!(words.ends_with(" (81 cells differ in all)"), "{words}");
        let named = words
            .as_bytes()
            .windows(2)
            .filter(|w| w[0] == b'r' && w[1].is_ascii_digit())
            .count();
        assert_eq!(named, LISTED, "{words}");
    }
}
