//! The 9x9 solver's tables, built at compile time: a band's words and
//! cells, each row pattern's boxes, matchings and singles, and which words
//! a placement touches.

/// The index of the word of `digit` (0-8) in `band`: band-major, so that
/// a band's nine words lie side by side.
pub(super) const fn w(digit: usize, band: usize) -> usize {
    band * 9 + digit
}

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// For one row of a band (9 bits): which of its three boxes hold a bit.
pub(super) const SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if x & (7 << (3 * k)) != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// For a row/box pattern (bit `row * 3 + box`), the band cells of the pairs
/// that lie on some perfect matching of rows to boxes; 0 when there is none.
pub(super) const COMPLEX: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut allowed = 0u32;
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let pairs = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if s & pairs == pairs {
                allowed |= pairs;
            }
            p += 1;
        }
        let mut mask = 0u32;
        let mut bit = 0;
        while bit < 9 {
            if allowed & (1 << bit) != 0 {
                let (row, bx) = (bit / 3, bit % 3);
                mask |= 7 << (row * 9 + bx * 3);
            }
            bit += 1;
        }
        t[s as usize] = mask;
        s += 1;
    }
    t
};

/// For the column union of a digit in one band (9 bits): the mask to apply
/// to the other two bands, clearing each column that is the only one of its
/// box.
pub(super) const MASK_SINGLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut mask = BAND;
        let mut k = 0;
        while k < 3 {
            let part: u32 = ((s >> (3 * k)) & 7) as u32;
            if part == 1 || part == 2 || part == 4 {
                let col = 3 * k + part.trailing_zeros() as usize;
                mask &= !column(col);
            }
            k += 1;
        }
        t[s] = mask;
        s += 1;
    }
    t
};

/// In [`ROW_INFO`]: the row holds two or more givens.
pub(super) const ROW_TWICE: u32 = 8;

/// For one row of a band (9 bits): the boxes it touches (bits 0-2, as
/// [`SHRINK`]) and [`ROW_TWICE`] when it has more than one bit.
pub(super) const ROW_INFO: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = SHRINK[x]
            | if x & (x.wrapping_sub(1)) != 0 {
                ROW_TWICE as u8
            } else {
                0
            };
        x += 1;
    }
    t
};

/// For a set of boxes of a band (bit per box): their cells.
pub(super) const BOX_FILL: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut s = 0;
    while s < 8 {
        let mut k = 0;
        while k < 3 {
            if s & (1 << k) != 0 {
                t[s] |= 0x7 << (3 * k) | 0x7 << (9 + 3 * k) | 0x7 << (18 + 3 * k);
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// For each cell of a band: the other cells of its row and of its box.
pub(super) const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut pos = 0;
    while pos < 27 {
        let (row, col) = (pos / 9, pos % 9);
        let bx = col / 3;
        let row_bits = 0x1FF << (row * 9);
        let box_bits = (7 << (bx * 3)) | (7 << (9 + bx * 3)) | (7 << (18 + bx * 3));
        t[pos] = (row_bits | box_bits) & !(1 << pos);
        pos += 1;
    }
    t
};

/// For each digit-band word `i`: its band and the words of the same digit
/// in the other two bands.
pub(super) const WORD_LINKS: [[u8; 3]; 27] = {
    let mut t = [[0u8; 3]; 27];
    let mut i = 0;
    while i < 27 {
        let (d, band) = (i % 9, i / 9);
        let [b1, b2] = OTHER_BANDS[band];
        t[i] = [band as u8, w(d, b1) as u8, w(d, b2) as u8];
        i += 1;
    }
    t
};

/// For each band, the other two.
pub(super) const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// The three cells of column `col` in a band.
pub(super) const fn column(col: usize) -> u32 {
    (1 << col) | (1 << (col + 9)) | (1 << (col + 18))
}

/// For one row of a band (9 bits): the row when it has exactly one bit,
/// else 0.
pub(super) const ROW_SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        if x != 0 && x & (x - 1) == 0 {
            t[x] = x as u16;
        }
        x += 1;
    }
    t
};
