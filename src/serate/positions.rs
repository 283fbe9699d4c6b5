//! Where each digit can go in each region, computed once per grid
//! instead of rescanning a region's cells for every question (a speed
//! device only: the rules ask it what [`Grid::positions`] would answer,
//! in their own order).

use std::cell::RefCell;
use std::rc::Rc;

use super::grid::{bits, Grid};

thread_local! {
    /// The last grid's positions.
    static LAST: RefCell<Option<(Grid, Rc<Positions>)>> = const { RefCell::new(None) };
}

/// The positions of every digit in every region of a grid (bit `i` for
/// the region's `i`-th cell in SE's order), as [`Grid::positions`] gives
/// them one at a time.
///
/// ```
/// use xlsudoku::serate::grid::{parse, Grid};
/// use xlsudoku::serate::positions::Positions;
///
/// let p = parse("...4..8......39...4.1.2.....3.97..18.....3..4.2....9..27.5......9....4..6..2....9")
///     .expect("81 digits");
/// let g = Grid::new(&p);
/// let places = Positions::of(&g);
/// assert!((0..27).all(|r| (1..=9).all(|d| places.get(r, d) == g.positions(r, d))));
/// ```
#[derive(Debug, Clone)]
pub struct Positions {
    regions: [[u16; 10]; 27],
}

impl Positions {
    /// The positions of `g`'s candidates. The rules of one step ask it of
    /// the same grid in turn: the last grid's are kept (on this thread)
    /// and shared again while the grid is unchanged.
    pub fn of(g: &Grid) -> Rc<Positions> {
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            match last.as_ref() {
                Some((seen, places)) if seen == g => Rc::clone(places),
                _ => {
                    let places = Rc::new(Positions::count(g));
                    *last = Some((g.clone(), Rc::clone(&places)));
                    places
                }
            }
        })
    }

    /// The positions, from each digit's cells as two 81-bit sets (row by
    /// row, and column by column): a row's or a column's positions are
    /// nine bits of one, a block's three times three.
    fn count(g: &Grid) -> Positions {
        let (mut by_row, mut by_col) = ([0u128; 10], [0u128; 10]);
        for (c, &m) in g.cands.iter().enumerate() {
            let t = c % 9 * 9 + c / 9;
            for d in bits(m) {
                by_row[d] |= 1 << c;
                by_col[d] |= 1 << t;
            }
        }
        let mut regions = [[0u16; 10]; 27];
        for d in 1..10 {
            let (rows, cols) = (by_row[d], by_col[d]);
            let nine = |set: u128, i: usize| (set >> (9 * i)) as u16 & 0x1FF;
            let three = |y: usize, x: usize| (rows >> (9 * y + x)) as u16 & 7;
            for i in 0..9 {
                regions[9 + i][d] = nine(rows, i);
                regions[18 + i][d] = nine(cols, i);
                let (y, x) = (i / 3 * 3, i % 3 * 3);
                regions[i][d] = three(y, x) | three(y + 1, x) << 3 | three(y + 2, x) << 6;
            }
        }
        Positions { regions }
    }

    /// The positions of `d` in region `r`.
    #[inline]
    pub fn get(&self, r: usize, d: u8) -> u16 {
        self.regions[r][d as usize]
    }
}

/// The positions in region `a` of the cells it shares with region `b`
/// (none when they do not cross, or are the same region).
///
/// ```
/// use xlsudoku::serate::positions::shared;
///
/// // Block 0 shares its first row (positions 0, 1, 2) with row 0 (region 9).
/// assert_eq!(shared(0, 9), 0b111);
/// assert_eq!(shared(0, 10 + 3), 0);
/// ```
#[inline]
pub fn shared(a: usize, b: usize) -> u16 {
    SHARED[a][b]
}

const SHARED: [[u16; 27]; 27] = shared_table();

const fn shared_table() -> [[u16; 27]; 27] {
    let cells = super::grid::REGION_CELLS;
    let mut out = [[0u16; 27]; 27];
    let mut a = 0;
    while a < 27 {
        let mut b = 0;
        while b < 27 {
            let mut i = 0;
            while i < 9 {
                let mut j = 0;
                while j < 9 {
                    if a != b && cells[a][i] == cells[b][j] {
                        out[a][b] |= 1 << i;
                    }
                    j += 1;
                }
                i += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{shared, Positions};
    use crate::serate::grid::{bits, crosses, parse, Grid, REGION_CELLS};

    /// The positions of every digit in every region, one question at a
    /// time.
    fn asked(g: &Grid) -> Vec<u16> {
        (0..27)
            .flat_map(|r| (1..=9).map(move |d| (r, d)))
            .map(|(r, d)| g.positions(r, d))
            .collect()
    }

    fn told(p: &Positions) -> Vec<u16> {
        (0..27)
            .flat_map(|r| (1..=9).map(move |d| (r, d)))
            .map(|(r, d)| p.get(r, d))
            .collect()
    }

    #[test]
    fn positions_follow_the_grid_asked() {
        let p = parse(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .expect("81 digits");
        let mut g = Grid::new(&p);
        let mut grids = vec![g.clone()];
        // Strike candidates one by one, so no two grids are alike.
        let open: Vec<usize> = (0..81).filter(|&c| g.cands[c].count_ones() > 2).collect();
        for &c in open.iter().take(20) {
            g.cands[c] &= g.cands[c] - 1;
            grids.push(g.clone());
        }
        for g in grids.iter().chain(grids.iter().rev()) {
            assert_eq!(told(&Positions::of(g)), asked(g));
            assert_eq!(told(&Positions::count(g)), asked(g));
        }
    }

    #[test]
    fn shared_positions_are_the_common_cells() {
        for a in 0..27 {
            for b in 0..27 {
                let listed: Vec<u8> = bits(shared(a, b)).map(|i| REGION_CELLS[a][i]).collect();
                let common: Vec<u8> = REGION_CELLS[a]
                    .iter()
                    .copied()
                    .filter(|c| a != b && REGION_CELLS[b].contains(c))
                    .collect();
                assert_eq!(listed, common, "regions {a} and {b}");
                assert_eq!(shared(a, b) != 0, crosses(a, b), "regions {a} and {b}");
            }
        }
    }
}
