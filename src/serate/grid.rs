//! The grid as Sudoku Explainer sees it: a value or a set of candidates per
//! cell, and SE's 27 regions in SE's order (blocks, rows, columns), each
//! with its cells in SE's order. Candidate sets are bit sets (bit `d` for
//! digit `d`, 1..=9); positions in a region are bit sets of indexes 0..9.

/// Cell index `y * 9 + x`.
pub type Cell = usize;

/// Region kinds, in SE's order of region types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A 3×3 block (regions 0..9).
    Block,
    /// A row (regions 9..18).
    Row,
    /// A column (regions 18..27).
    Column,
}

/// The cells of each region, in SE's order: blocks 0..9 (block `i` at
/// rows `3*(i/3)..`, columns `3*(i%3)..`, cells row by row), rows, columns.
pub const REGION_CELLS: [[u8; 9]; 27] = region_cells();

/// The block, row and column of each cell (region indexes).
pub const CELL_REGIONS: [[u8; 3]; 81] = cell_regions();

/// Each cell's place in its block, row and column (the index `i` with
/// `REGION_CELLS[region][i] == cell`), in the order of [`CELL_REGIONS`].
pub const CELL_INDEXES: [[u8; 3]; 81] = cell_indexes();

/// For each cell, its 20 peers as a bit set over the 81 cells.
pub const PEERS: [u128; 81] = peers();
/// The 20 peers of each cell in SE's order (`getHouseCells`): its
/// block's, then its row's, then its column's, each once.
pub const HOUSE_ORDER: [[u8; 20]; 81] = house_order();
/// The 20 peers of each cell as three bit sets over the 81 cells whose
/// bits, each set taken in rising order and the sets in turn, are
/// [`HOUSE_ORDER`]: the block's, the row's outside the block, the
/// column's outside the block.
pub const HOUSE_PARTS: [[u128; 3]; 81] = house_parts();

const fn region_cells() -> [[u8; 9]; 27] {
    let mut out = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            let (by, bx) = (i / 3 * 3 + k / 3, i % 3 * 3 + k % 3);
            out[i][k] = (by * 9 + bx) as u8;
            out[9 + i][k] = (i * 9 + k) as u8;
            out[18 + i][k] = (k * 9 + i) as u8;
            k += 1;
        }
        i += 1;
    }
    out
}

const fn cell_regions() -> [[u8; 3]; 81] {
    let mut out = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (y, x) = (c / 9, c % 9);
        out[c] = [(y / 3 * 3 + x / 3) as u8, (9 + y) as u8, (18 + x) as u8];
        c += 1;
    }
    out
}

const fn cell_indexes() -> [[u8; 3]; 81] {
    let mut out = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (y, x) = (c / 9, c % 9);
        out[c] = [((y % 3) * 3 + x % 3) as u8, x as u8, y as u8];
        c += 1;
    }
    out
}

const fn house_order() -> [[u8; 20]; 81] {
    let cells = region_cells();
    let regions = cell_regions();
    let mut out = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut seen = 0u128;
        let mut n = 0;
        let mut r = 0;
        while r < 3 {
            let mut k = 0;
            while k < 9 {
                let h = cells[regions[c][r] as usize][k];
                if h as usize != c && seen >> h & 1 == 0 {
                    seen |= 1 << h;
                    out[c][n] = h;
                    n += 1;
                }
                k += 1;
            }
            r += 1;
        }
        c += 1;
    }
    out
}

const fn house_parts() -> [[u128; 3]; 81] {
    let cells = region_cells();
    let regions = cell_regions();
    let mut out = [[0u128; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let mut seen = 1u128 << c;
        let mut r = 0;
        while r < 3 {
            let mut k = 0;
            while k < 9 {
                let h = cells[regions[c][r] as usize][k];
                if seen >> h & 1 == 0 {
                    seen |= 1 << h;
                    out[c][r] |= 1 << h;
                }
                k += 1;
            }
            r += 1;
        }
        c += 1;
    }
    out
}

const fn peers() -> [u128; 81] {
    let cells = region_cells();
    let regions = cell_regions();
    let mut out = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut r = 0;
        while r < 3 {
            let mut k = 0;
            while k < 9 {
                out[c] |= 1u128 << cells[regions[c][r] as usize][k];
                k += 1;
            }
            r += 1;
        }
        out[c] &= !(1u128 << c);
        c += 1;
    }
    out
}

/// The kind of region `r`.
pub fn kind(r: usize) -> Kind {
    match r / 9 {
        0 => Kind::Block,
        1 => Kind::Row,
        _ => Kind::Column,
    }
}

/// The index of `cell` inside region `r` (SE's `indexOf`).
pub fn index_in(r: usize, cell: Cell) -> usize {
    let (y, x) = (cell / 9, cell % 9);
    match kind(r) {
        Kind::Block => (y % 3) * 3 + x % 3,
        Kind::Row => x,
        Kind::Column => y,
    }
}

/// The region of the given kind that holds `cell`.
pub fn region_of(k: Kind, cell: Cell) -> usize {
    CELL_REGIONS[cell][k as usize] as usize
}

/// Whether two regions share cells (and are not the same region).
#[inline]
pub fn crosses(a: usize, b: usize) -> bool {
    CROSSES[a] >> b & 1 == 1
}

/// For each region, the set of the other regions it shares cells with.
const CROSSES: [u32; 27] = crosses_table();

const fn crosses_table() -> [u32; 27] {
    let cells = region_cells();
    let mut out = [0u32; 27];
    let mut a = 0;
    while a < 27 {
        let mut b = 0;
        while b < 27 {
            let mut shared = false;
            let mut i = 0;
            while i < 9 {
                let mut j = 0;
                while j < 9 {
                    shared |= cells[a][i] == cells[b][j];
                    j += 1;
                }
                i += 1;
            }
            if a != b && shared {
                out[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

/// The number of set bits of each 10-bit mask (candidate sets, region
/// positions): a table, as the baseline x86-64 build has no `popcnt`.
const POP: [u8; 1024] = pop_table();

const fn pop_table() -> [u8; 1024] {
    let mut out = [0u8; 1024];
    let mut i = 0;
    while i < 1024 {
        out[i] = (i as u16).count_ones() as u8;
        i += 1;
    }
    out
}

/// The number of set bits of a candidate set or position set.
#[inline]
pub fn pop(m: u16) -> u32 {
    if m < 1024 {
        u32::from(POP[m as usize])
    } else {
        m.count_ones()
    }
}

/// The digits of a candidate set, in increasing order.
pub fn digits(mask: u16) -> impl Iterator<Item = u8> {
    bits(mask & 0x3FE).map(|d| d as u8)
}

/// The set bits of a 9-bit position set (or any u16), increasing.
pub fn bits(mask: u16) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}

/// A position in SE's solving run: values and candidates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    /// The value of each cell, 0 when empty.
    pub values: [u8; 81],
    /// The candidates of each cell (empty for a filled cell).
    pub cands: [u16; 81],
}

impl Grid {
    /// The grid of a puzzle (81 digits, 0 for a blank) with every
    /// candidate the givens allow, as SE's `rebuildPotentialValues`.
    pub fn new(puzzle: &[u8; 81]) -> Grid {
        let mut g = Grid {
            values: *puzzle,
            cands: [0; 81],
        };
        for c in 0..81 {
            if puzzle[c] == 0 {
                g.cands[c] = 0x3FE;
            }
        }
        for c in 0..81 {
            if puzzle[c] != 0 {
                for p in 0..81 {
                    if PEERS[c] >> p & 1 == 1 {
                        g.cands[p] &= !(1 << puzzle[c]);
                    }
                }
            }
        }
        g
    }

    /// Whether every cell has a value.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Whether `cell` has candidate `d`.
    #[inline]
    pub fn has(&self, cell: Cell, d: u8) -> bool {
        self.cands[cell] & (1 << d) != 0
    }

    /// The positions (indexes in the region) where `d` is a candidate.
    #[inline]
    pub fn positions(&self, r: usize, d: u8) -> u16 {
        let mut out = 0u16;
        for (i, &c) in REGION_CELLS[r].iter().enumerate() {
            if self.cands[c as usize] & (1 << d) != 0 {
                out |= 1 << i;
            }
        }
        out
    }

    /// The number of empty cells in region `r`.
    pub fn empty_count(&self, r: usize) -> u32 {
        REGION_CELLS[r]
            .iter()
            .filter(|&&c| self.values[c as usize] == 0)
            .count() as u32
    }

    /// How many cells hold `d` as their value.
    pub fn count_value(&self, d: u8) -> u32 {
        self.values.iter().filter(|&&v| v == d).count() as u32
    }

    /// Places `d` in `cell` and strikes it from the peers (SE's
    /// `setValueAndCancel`).
    pub fn place(&mut self, cell: Cell, d: u8) {
        self.values[cell] = d;
        self.cands[cell] = 0;
        let mut peers = PEERS[cell];
        while peers != 0 {
            let p = peers.trailing_zeros() as usize;
            peers &= peers - 1;
            self.cands[p] &= !(1 << d);
        }
    }

    /// The cells that share a region with `cell`, in SE's order of
    /// `getHouseCells` (block, row, column; each once; not `cell`).
    pub fn house_cells(cell: Cell) -> impl Iterator<Item = Cell> {
        HOUSE_ORDER[cell].into_iter().map(|c| c as usize)
    }
}

/// Parses 81 characters (digits, `.` or `0` for blanks) into a puzzle.
pub fn parse(text: &str) -> Option<[u8; 81]> {
    let chars: Vec<char> = text.trim().chars().take(81).collect();
    if chars.len() != 81 {
        return None;
    }
    let mut out = [0u8; 81];
    for (i, ch) in chars.into_iter().enumerate() {
        out[i] = match ch {
            '1'..='9' => ch as u8 - b'0',
            '.' | '0' => 0,
            _ => return None,
        };
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{CELL_INDEXES, CELL_REGIONS, HOUSE_ORDER, HOUSE_PARTS, REGION_CELLS};

    #[test]
    fn cell_indexes_place_each_cell_in_its_regions() {
        for c in 0..81 {
            for (&r, &i) in CELL_REGIONS[c].iter().zip(&CELL_INDEXES[c]) {
                assert_eq!(REGION_CELLS[r as usize][i as usize] as usize, c, "cell {c}");
            }
        }
    }

    #[test]
    fn house_parts_list_the_house_order() {
        for c in 0..81 {
            let mut listed = Vec::new();
            for part in HOUSE_PARTS[c] {
                listed.extend((0..81u8).filter(|&h| part >> h & 1 == 1));
            }
            assert_eq!(listed, HOUSE_ORDER[c], "cell {c}");
        }
    }
}
