//! Spreadsheet cell addresses in A1 notation: [`CellRef`] (`E7`) and
//! [`CellRange`] (`C3:K11`), 0-based inside, 1-based letters and numbers
//! outside, as Excel shows them.
//!
//! ```
//! use xlsudoku::address::{CellRange, CellRef};
//!
//! let c: CellRef = "E7".parse()?;
//! assert_eq!((c.row, c.col), (6, 4));
//! assert_eq!(c.to_string(), "E7");
//! let r: CellRange = "C3:K11".parse()?;
//! assert_eq!((r.rows(), r.cols()), (9, 9));
//! assert_eq!(r.cell(8, 8).to_string(), "K11");
//! # Ok::<(), xlsudoku::address::AddressError>(())
//! ```

use std::fmt;
use std::str::FromStr;

/// The largest row index Excel allows (0-based): 1,048,576 rows.
pub const MAX_ROW: u32 = 1_048_575;
/// The largest column index Excel allows (0-based): XFD.
pub const MAX_COL: u32 = 16_383;

/// A cell address that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a cell address like C3 or a range like C3:K11")]
pub struct AddressError(pub String);

/// One cell, 0-based row and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellRef {
    /// Row, 0-based (row 1 in Excel is 0).
    pub row: u32,
    /// Column, 0-based (column A is 0).
    pub col: u32,
}

impl CellRef {
    /// The cell at a 0-based row and column.
    pub fn new(row: u32, col: u32) -> Self {
        CellRef { row, col }
    }

    /// The cell `rows` down and `cols` right of this one.
    pub fn offset(self, rows: u32, cols: u32) -> Self {
        CellRef::new(self.row + rows, self.col + cols)
    }
}

/// Column letters for a 0-based column: 0 → `A`, 25 → `Z`, 26 → `AA`.
pub fn column_name(col: u32) -> String {
    let mut n = col as u64 + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = ((n - 1) % 26) as u8;
        out.push(b'A' + rem);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

impl fmt::Display for CellRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_name(self.col), self.row + 1)
    }
}

impl FromStr for CellRef {
    type Err = AddressError;

    /// Reads `E7`, `e7` or `$E$7`.
    fn from_str(s: &str) -> Result<Self, AddressError> {
        let bad = || AddressError(s.to_string());
        let t: String = s.trim().chars().filter(|&c| c != '$').collect();
        let split = t.find(|c: char| c.is_ascii_digit()).ok_or_else(bad)?;
        let (letters, digits) = t.split_at(split);
        if letters.is_empty()
            || letters.len() > 3
            || !letters.chars().all(|c| c.is_ascii_alphabetic())
        {
            return Err(bad());
        }
        let mut col: u32 = 0;
        for c in letters.chars() {
            col = col * 26 + (c.to_ascii_uppercase() as u32 - 'A' as u32 + 1);
        }
        let row: u32 = digits.parse().map_err(|_| bad())?;
        if row == 0 || row - 1 > MAX_ROW || col - 1 > MAX_COL {
            return Err(bad());
        }
        Ok(CellRef::new(row - 1, col - 1))
    }
}

/// A rectangle of cells, both corners included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellRange {
    /// The top-left cell.
    pub start: CellRef,
    /// The bottom-right cell.
    pub end: CellRef,
}

impl CellRange {
    /// The range from `start` to `end`, whichever way round they are given.
    pub fn new(a: CellRef, b: CellRef) -> Self {
        CellRange {
            start: CellRef::new(a.row.min(b.row), a.col.min(b.col)),
            end: CellRef::new(a.row.max(b.row), a.col.max(b.col)),
        }
    }

    /// The square range of `side` cells from `start`.
    pub fn square(start: CellRef, side: u32) -> Self {
        CellRange::new(start, start.offset(side - 1, side - 1))
    }

    /// Rows covered.
    pub fn rows(&self) -> u32 {
        self.end.row - self.start.row + 1
    }

    /// Columns covered.
    pub fn cols(&self) -> u32 {
        self.end.col - self.start.col + 1
    }

    /// The cell `row`, `col` within the range (0-based, relative).
    pub fn cell(&self, row: u32, col: u32) -> CellRef {
        self.start.offset(row, col)
    }

    /// True when the cell lies inside the range.
    pub fn contains(&self, c: CellRef) -> bool {
        (self.start.row..=self.end.row).contains(&c.row)
            && (self.start.col..=self.end.col).contains(&c.col)
    }
}

impl fmt::Display for CellRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.start, self.end)
    }
}

impl FromStr for CellRange {
    type Err = AddressError;

    /// Reads `C3:K11` (or a single cell `C3`).
    fn from_str(s: &str) -> Result<Self, AddressError> {
        let bad = |_| AddressError(s.to_string());
        match s.split_once(':') {
            Some((a, b)) => Ok(CellRange::new(
                a.parse().map_err(bad)?,
                b.parse().map_err(bad)?,
            )),
            None => {
                let c: CellRef = s.parse().map_err(bad)?;
                Ok(CellRange::new(c, c))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names() {
        assert_eq!(column_name(0), "A");
        assert_eq!(column_name(25), "Z");
        assert_eq!(column_name(26), "AA");
        assert_eq!(column_name(701), "ZZ");
        assert_eq!(column_name(702), "AAA");
        assert_eq!(column_name(MAX_COL), "XFD");
    }

    #[test]
    fn parse_round_trip() {
        for s in ["A1", "C3", "Z99", "AA10", "XFD1048576"] {
            assert_eq!(s.parse::<CellRef>().unwrap().to_string(), s);
        }
        assert_eq!("$c$3".parse::<CellRef>().unwrap().to_string(), "C3");
        for bad in ["", "3C", "A0", "XFE1", "A1048577", "ABCD1", "A-1"] {
            assert!(bad.parse::<CellRef>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ranges() {
        let r: CellRange = "K11:C3".parse().unwrap();
        assert_eq!(r.to_string(), "C3:K11");
        assert!(r.contains("E7".parse().unwrap()));
        assert!(!r.contains("B7".parse().unwrap()));
        assert_eq!(CellRange::square(CellRef::new(2, 2), 9), r);
    }
}
