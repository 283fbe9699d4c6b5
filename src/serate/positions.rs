//! Where each digit can go in each region, computed once per call of a
//! rule instead of rescanning a region's cells for every question (a
//! speed device only: the rules ask it what [`Grid::positions`] would
//! answer, in their own order).

use super::grid::{bits, Grid, REGION_CELLS};

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
    /// The positions of `g`'s candidates.
    pub fn of(g: &Grid) -> Positions {
        let mut regions = [[0u16; 10]; 27];
        for (r, cells) in REGION_CELLS.iter().enumerate() {
            for (i, &c) in cells.iter().enumerate() {
                for d in bits(g.cands[c as usize]) {
                    regions[r][d] |= 1 << i;
                }
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
    use super::{shared, REGION_CELLS};
    use crate::serate::grid::{bits, crosses};

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
