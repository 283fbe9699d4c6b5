//! How the cells, lines and digits of one grid are named: a sheet's own
//! addresses, or a text puzzle's `r5c7`.

use crate::address::{column_name, CellRef};
use crate::grid::{digit_char, BoxShape, Unit};
use crate::logic::words::{unit_name, Layout, Names};
use crate::workbook::{FoundGrid, Symbols};

/// How the cells, lines and digits of one grid are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressMap {
    shape: BoxShape,
    /// The sheet cell of the grid's first cell; `None` for a text puzzle.
    origin: Option<CellRef>,
    /// The grid's alphabet; `None`: the text form's (`1`-`9`, `A` ...).
    symbols: Option<Symbols>,
    /// Whether the grid writes its letters in lower case.
    lowercase: bool,
}

impl AddressMap {
    /// A grid on a sheet whose first cell is `origin` (`C3` for a grid at
    /// `C3:K11`), written in `symbols`.
    pub fn sheet(origin: CellRef, shape: BoxShape, symbols: Symbols) -> Self {
        AddressMap {
            shape,
            origin: Some(origin),
            symbols: Some(symbols),
            lowercase: false,
        }
    }

    /// The names of a grid found on a sheet, its letters in its case.
    pub fn for_grid(grid: &FoundGrid) -> Self {
        AddressMap {
            lowercase: grid.lowercase,
            ..AddressMap::sheet(grid.range.start, grid.shape, grid.symbols)
        }
    }

    /// A text puzzle: cells `r5c7`, lines `row 5` and `column 7`, digits
    /// as the text form writes them.
    pub fn puzzle(shape: BoxShape) -> Self {
        AddressMap {
            shape,
            origin: None,
            symbols: None,
            lowercase: false,
        }
    }

    fn side(&self) -> usize {
        self.shape.side()
    }

    /// The name of the cell at a row-major index of the grid: `E7` on a
    /// sheet, `r5c7` for a text puzzle.
    pub fn cell(&self, index: usize) -> String {
        let n = self.side().max(1);
        let (r, c) = (index / n, index % n);
        match self.origin {
            Some(o) => CellRef::new(
                o.row.saturating_add(r as u32),
                o.col.saturating_add(c as u32),
            )
            .to_string(),
            None => format!("r{}c{}", r + 1, c + 1),
        }
    }

    /// The label of a line or box without its kind: `7` for a sheet's row 7,
    /// `E` for its column E, `4` for box 4.
    fn label(&self, unit: Unit) -> String {
        match (unit, self.origin) {
            (Unit::Row(r), Some(o)) => (u64::from(o.row) + r as u64 + 1).to_string(),
            (Unit::Col(c), Some(o)) => column_name(o.col.saturating_add(c as u32)),
            (Unit::Row(k) | Unit::Col(k) | Unit::Box(k), _) => (k + 1).to_string(),
        }
    }

    /// A unit as people name it: `row 7`, `column E` (`column 7` for a
    /// text puzzle), `box 4`.
    pub fn unit(&self, unit: Unit) -> String {
        unit_name(self, unit)
    }

    /// A digit (`1..=side`) in the grid's alphabet, its letters in the
    /// grid's case.
    pub fn digit(&self, d: u8) -> String {
        match self.symbols {
            Some(s) if self.lowercase => s.symbol(d).to_string().to_ascii_lowercase(),
            Some(s) => s.symbol(d).to_string(),
            None => digit_char(d).to_string(),
        }
    }

    /// The grid's alphabet in words: `1-9`, `1-9, A-G`, `0-9, A-F`.
    pub fn alphabet(&self) -> String {
        let side = self.side();
        match self.symbols {
            Some(s) => s.describe(side),
            None if side <= 9 => format!("1-{side}"),
            None => format!("1-9, A-{}", digit_char(side.min(61) as u8)),
        }
    }

    /// Cells by name, comma separated: `C3, D3`.
    pub(crate) fn cells(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&c| self.cell(c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The cells of a cell's row, column and box (itself included, some
    /// twice).
    pub(crate) fn peers(&self, i: usize) -> impl Iterator<Item = usize> {
        Layout(self.shape).peers(i)
    }
}

impl Names for AddressMap {
    fn shape(&self) -> BoxShape {
        self.shape
    }

    fn cell(&self, index: usize) -> String {
        AddressMap::cell(self, index)
    }

    fn label(&self, unit: Unit) -> String {
        AddressMap::label(self, unit)
    }

    fn digit(&self, d: u8) -> String {
        AddressMap::digit(self, d)
    }
}
