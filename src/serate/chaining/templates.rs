//! Each digit's templates (its nine places, one per row, column and
//! block, among its candidates): which cells some template holds and
//! which every template holds. A Nishio run (one digit, X links, every
//! step sound) can only meet a contradiction from an assumption no
//! template agrees with: a digit "on" where no template holds it, "off"
//! where every template does. The other runs need not be made.
//!
//! The templates are counted, not listed: row by row, a template so far
//! is known by the columns it took and the blocks it took in the current
//! band, and the templates through a cell are those reaching the cell's
//! row in a state that can take it, times the ways to finish from there.

use super::super::grid::Grid;
use super::graph::{cell_of, digit_of, is_on};

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
        // Each digit's open columns in each row.
        let mut rows = [[0u16; 9]; 10];
        for cell in 0..81 {
            let here = g.cands[cell] | (1 << g.values[cell]) & !1;
            for d in super::super::grid::bits(here) {
                rows[d][cell / 9] |= 1 << (cell % 9);
            }
        }
        COUNTER.with(|counter| {
            let mut counter = counter.borrow_mut();
            for d in 1..=9 {
                if let Some((some, every)) = counter.count_again(d, &rows[d]) {
                    t.some[d] = some;
                    t.every[d] = every;
                }
            }
        });
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

/// The cells some template of a digit holds and those all hold (`None`:
/// the digit has no template).
type Count = Option<(u128, u128)>;

/// A partial template: the columns taken (bits 3 up) and the blocks of
/// the current band taken (bits 0 to 2).
type State = u16;

/// One step from a state of row `r` to one of row `r + 1`, by a column.
#[derive(Debug, Clone, Copy)]
struct Edge {
    from: u16,
    to: u16,
    col: u8,
}

thread_local! {
    /// The counter of this thread, its tables kept from grid to grid (a
    /// state's stamp tells whether its slot is this row's).
    static COUNTER: std::cell::RefCell<Counter> = std::cell::RefCell::new(Counter::default());
}

/// The counting's buffers, reused from digit to digit and grid to grid.
#[derive(Debug)]
struct Counter {
    /// The states of each row (row 9: the finished template), with how
    /// many templates reach each (`ways`) and how many finish from each
    /// (`rest`).
    states: Vec<State>,
    ways: Vec<u32>,
    rest: Vec<u32>,
    /// Where each row's states start in `states`.
    starts: [usize; 11],
    edges: Vec<Edge>,
    /// Where each row's edges start in `edges`.
    edge_starts: [usize; 10],
    /// The position of a state in the row being made, valid when its
    /// stamp is the row's.
    slot: Vec<u16>,
    stamp: Vec<u8>,
    /// The stamp of the row being made (the table is cleared only when
    /// the stamps run out).
    round: u8,
    /// Each digit's last count and the open columns it was made from: a
    /// rating run's next Nishio step finds most digits' places as they
    /// were, and their count is taken again instead of made.
    last: [Option<([u16; 9], Count)>; 10],
}

impl Default for Counter {
    fn default() -> Counter {
        Counter {
            states: Vec::with_capacity(256),
            ways: Vec::with_capacity(256),
            rest: Vec::new(),
            starts: [0; 11],
            edges: Vec::with_capacity(1024),
            edge_starts: [0; 10],
            slot: vec![0; 1 << 12],
            stamp: vec![0; 1 << 12],
            round: 0,
            last: [None; 10],
        }
    }
}

impl Counter {
    /// [`Counter::count`] for digit `d`, taken from the digit's last
    /// count when its open columns are the same.
    fn count_again(&mut self, d: usize, rows: &[u16; 9]) -> Count {
        if let Some((seen, counted)) = self.last[d] {
            if seen == *rows {
                return counted;
            }
        }
        let counted = self.count(rows);
        self.last[d] = Some((*rows, counted));
        counted
    }

    /// The cells some template of a digit holds and those every one
    /// does, from the columns open to it in each row; `None` when it has
    /// no template.
    fn count(&mut self, rows: &[u16; 9]) -> Count {
        self.states.clear();
        self.ways.clear();
        self.edges.clear();
        self.states.push(0);
        self.ways.push(1);
        self.starts[0] = 0;
        for (r, &open) in rows.iter().enumerate() {
            let (first, end) = (self.starts[r], self.states.len());
            self.starts[r + 1] = end;
            self.edge_starts[r] = self.edges.len();
            if self.round == u8::MAX {
                self.stamp.fill(0);
                self.round = 0;
            }
            self.round += 1;
            let row_stamp = self.round;
            for i in first..end {
                let s = self.states[i];
                let mut free = open & !(s >> 3);
                while free != 0 {
                    let c = free.trailing_zeros() as u16;
                    free &= free - 1;
                    let b = 1 << (c / 3);
                    if s & b != 0 {
                        continue;
                    }
                    // The band's blocks start anew after its third row.
                    let blocks = if r % 3 == 2 { 0 } else { s & 7 | b };
                    let next = (s >> 3 | 1 << c) << 3 | blocks;
                    let at = if self.stamp[next as usize] == row_stamp {
                        self.slot[next as usize] as usize
                    } else {
                        self.stamp[next as usize] = row_stamp;
                        self.slot[next as usize] = (self.states.len() - end) as u16;
                        self.states.push(next);
                        self.ways.push(0);
                        self.states.len() - end - 1
                    };
                    self.ways[end + at] += self.ways[i];
                    self.edges.push(Edge {
                        from: (i - first) as u16,
                        to: at as u16,
                        col: c as u8,
                    });
                }
            }
        }
        self.starts[10] = self.states.len();
        self.edge_starts[9] = self.edges.len();
        if self.starts[10] == self.starts[9] {
            return None;
        }
        // One finished state (every column taken, no band open).
        let total = self.ways[self.starts[9]];
        self.rest.clear();
        self.rest.resize(self.states.len(), 0);
        self.rest[self.starts[9]] = 1;
        let (mut some, mut every) = (0u128, (1u128 << 81) - 1);
        for r in (0..9).rev() {
            let mut through = [0u32; 9];
            for e in &self.edges[self.edge_starts[r]..self.edge_starts[r + 1]] {
                let (from, to) = (
                    self.starts[r] + e.from as usize,
                    self.starts[r + 1] + e.to as usize,
                );
                let rest = self.rest[to];
                self.rest[from] += rest;
                through[e.col as usize] += self.ways[from] * rest;
            }
            for (c, &n) in through.iter().enumerate() {
                let cell = 1u128 << (r * 9 + c);
                if n > 0 {
                    some |= cell;
                }
                if n != total {
                    every &= !cell;
                }
            }
        }
        Some((some, every))
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
    fn an_open_grid_is_counted_whole() {
        // An empty grid: 46,656 templates per digit, every cell in some,
        // none in all (a walk over them one by one would give up).
        let g = Grid::new(&[0; 81]);
        let t = Templates::new(&g);
        let all = (1u128 << 81) - 1;
        for d in 1..=9 {
            assert_eq!(t.some[d], all);
            assert_eq!(t.every[d] & all, 0);
        }
        let mut counter = Counter::default();
        let (some, every) = counter.count(&[0x1FF; 9]).expect("templates");
        assert_eq!((some, every & all), (all, 0));
        // Two rows wanting the same single column: no template.
        let mut rows = [0x1FF; 9];
        rows[0] = 1;
        rows[4] = 1;
        assert_eq!(counter.count(&rows), None);
    }

    /// The cells some template holds and those all hold, by listing
    /// every template (`None`: no template).
    fn listed(rows: &[u16; 9]) -> Option<(u128, u128)> {
        fn go(rows: &[u16; 9], r: usize, cols: u16, path: u128, out: &mut Vec<u128>) {
            if r == 9 {
                out.push(path);
                return;
            }
            for c in (0..9).filter(|&c| rows[r] >> c & 1 == 1 && cols >> c & 1 == 0) {
                let cell = r * 9 + c;
                let same_block = (r / 3 * 3..r)
                    .any(|q| (0..9).any(|k| path >> (q * 9 + k) & 1 == 1 && k / 3 == c / 3));
                if !same_block {
                    go(rows, r + 1, cols | 1 << c, path | 1 << cell, out);
                }
            }
        }
        let mut all = Vec::new();
        go(rows, 0, 0, 0, &mut all);
        (!all.is_empty()).then(|| {
            let some = all.iter().fold(0, |m, t| m | t);
            let every = all.iter().fold((1u128 << 81) - 1, |m, t| m & t);
            (some, every)
        })
    }

    #[test]
    fn counts_agree_with_a_listing_on_random_rows() {
        // Rows of 3 to 9 open columns from a fixed generator; one counter
        // for all, so its stamps wrap and its table is cleared.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut counter = Counter::default();
        let mut kinds = [0; 2];
        for round in 0..600 {
            let density = 3 + round % 7;
            let mut rows = [0u16; 9];
            for row in &mut rows {
                while row.count_ones() < density {
                    *row |= 1 << (next() % 9);
                }
            }
            let expected = listed(&rows);
            assert_eq!(counter.count(&rows), expected, "{rows:?}");
            kinds[expected.is_some() as usize] += 1;
        }
        assert!(kinds[0] > 0 && kinds[1] > 0, "{kinds:?}");
    }

    /// A count taken again is the count of the rows asked, whether they
    /// are the digit's last ones, a change of them, or another digit's.
    #[test]
    fn a_count_taken_again_is_the_count_of_the_rows_asked() {
        let mut counter = Counter::default();
        let mut rows = [0b1_1111_1111u16; 9];
        let mut taken = 0;
        for round in 0..60 {
            let d = 1 + round % 3;
            // Every few rounds one column closes in one row.
            if round % 4 == 3 {
                rows[round % 9] &= !(1 << (round % 7));
            }
            let again = counter.last[d].is_some_and(|(seen, _)| seen == rows);
            taken += again as usize;
            assert_eq!(
                counter.count_again(d, &rows),
                listed(&rows),
                "round {round}"
            );
        }
        assert!(taken > 10, "{taken} counts taken again");
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
