//! Each digit's templates (its nine places, one per row, column and
//! block, among its candidates): which cells some template holds and
//! which every template holds. A Nishio run (one digit, X links, every
//! step sound) can only meet a contradiction from an assumption no
//! template agrees with: a digit "on" where no template holds it, "off"
//! where every template does. The other runs need not be made.

use super::super::grid::Grid;
use super::graph::{cell_of, digit_of, is_on};

/// The most search nodes one digit may take; past it the digit is not
/// filtered (every run is made), so a grid with many templates costs
/// little.
const MAX_NODES: u32 = 20_000;

/// The cells some template holds and the cells all hold, per digit.
#[derive(Debug, Clone)]
pub struct Templates {
    some: [u128; 10],
    every: [u128; 10],
}

impl Templates {
    /// The templates of every digit of `g` (a placed digit is its own
    /// place).
    pub fn new(g: &Grid) -> Templates {
        let mut t = Templates {
            some: [0; 10],
            every: [u128::MAX; 10],
        };
        for d in 1..=9u8 {
            let mut rows = [0u16; 9];
            for (cell, row) in (0..81).map(|c| (c, c / 9)) {
                if g.values[cell] == d || g.cands[cell] >> d & 1 == 1 {
                    rows[row] |= 1 << (cell % 9);
                }
            }
            let mut s = Search {
                rows,
                path: [0; 9],
                some: 0,
                every: u128::MAX,
                nodes: 0,
            };
            if s.walk(0, 0, 0) {
                t.some[d as usize] = s.some;
                t.every[d as usize] = s.every;
            }
        }
        t
    }

    /// Whether a Nishio run from the potential `k` may meet a
    /// contradiction (false: surely not).
    pub fn may_contradict(&self, k: u16) -> bool {
        let (cell, d) = (cell_of(k), digit_of(k) as usize);
        if is_on(k) {
            self.some[d] >> cell & 1 == 0
        } else {
            self.every[d] >> cell & 1 == 1
        }
    }
}

/// A depth-first walk over one digit's templates, row by row.
struct Search {
    /// Each row's columns holding the digit.
    rows: [u16; 9],
    /// The column taken in each row so far.
    path: [u8; 9],
    some: u128,
    every: u128,
    nodes: u32,
}

impl Search {
    /// Walks the templates from `row` on, with `cols` and `blocks` taken;
    /// false when the walk took too long (nothing known).
    fn walk(&mut self, row: usize, cols: u16, blocks: u16) -> bool {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return false;
        }
        if row == 9 {
            let cells = (0..9).fold(0u128, |m, r| m | 1 << (r * 9 + self.path[r] as usize));
            self.some |= cells;
            self.every &= cells;
            return true;
        }
        let mut free = self.rows[row] & !cols;
        while free != 0 {
            let c = free.trailing_zeros() as usize;
            free &= free - 1;
            let b = 1u16 << (row / 3 * 3 + c / 3);
            if blocks & b != 0 {
                continue;
            }
            self.path[row] = c as u8;
            if !self.walk(row + 1, cols | 1 << c, blocks | b) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::grid::parse;
    use super::super::graph::key;
    use super::*;

    #[test]
    fn a_solved_digit_has_one_template() {
        // Every digit of a solved grid has exactly its own places.
        let p = parse(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .expect("81 digits");
        let t = Templates::new(&Grid::new(&p));
        for d in 1..=9u8 {
            let mine = (0..81)
                .filter(|&c| p[c] == d)
                .fold(0u128, |m, c| m | 1 << c);
            assert_eq!(t.some[d as usize], mine);
            assert_eq!(t.every[d as usize], mine);
        }
    }

    #[test]
    fn a_cell_no_template_holds_may_contradict() {
        // A hard puzzle's grid, every candidate against a brute force.
        let p = parse(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .expect("81 digits");
        let g = Grid::new(&p);
        let t = Templates::new(&g);
        let mut seen = [false; 2];
        for cell in 0..81 {
            for d in 1..=9u8 {
                if !g.has(cell, d) {
                    continue;
                }
                // Brute force: is there a template through (cell, d)?
                let through = brute(&g, d, |path| path[cell / 9] as usize == cell % 9);
                let avoiding = brute(&g, d, |path| path[cell / 9] as usize != cell % 9);
                assert_eq!(t.may_contradict(key(cell, d, true)), !through);
                assert_eq!(t.may_contradict(key(cell, d, false)), !avoiding);
                seen[through as usize] = true;
            }
        }
        assert_eq!(seen, [true, true], "both kinds of candidates are met");
    }

    /// Whether some template of `d` satisfies `ok`, by trying every
    /// column for every row.
    fn brute(g: &Grid, d: u8, ok: impl Fn(&[u8; 9]) -> bool) -> bool {
        fn go(
            g: &Grid,
            d: u8,
            row: usize,
            path: &mut [u8; 9],
            ok: &dyn Fn(&[u8; 9]) -> bool,
        ) -> bool {
            if row == 9 {
                return ok(path);
            }
            (0..9u8).any(|c| {
                let cell = row * 9 + c as usize;
                let here = g.values[cell] == d || g.has(cell, d);
                let clash =
                    (0..row).any(|r| path[r] == c || (r / 3 == row / 3 && path[r] / 3 == c / 3));
                here && !clash && {
                    path[row] = c;
                    go(g, d, row + 1, path, ok)
                }
            })
        }
        go(g, d, 0, &mut [0; 9], &ok)
    }
}
