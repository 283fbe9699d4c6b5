//! The grid model: a square Sudoku grid of any box shape up to 64 cells a side.
//!
//! A [`Grid`] holds one value per cell in row-major order, `0` for a blank and
//! `1..=side` for a digit. Its [`BoxShape`] says how wide and how high one box
//! is; the side is their product (3×3 boxes make a 9×9 grid, 3×2 boxes a 6×6
//! grid). Everything else in the crate (solvers, readers, writers) speaks in
//! these two types.
//!
//! ```
//! use xlsudoku::grid::{BoxShape, Grid};
//!
//! let grid: Grid = "1.3..2.4........".parse()?;
//! assert_eq!(grid.side(), 4);
//! assert_eq!(grid.shape(), BoxShape::new(2, 2)?);
//! assert_eq!(grid.get(0, 2), 3);
//! assert!(grid.conflicts().is_empty());
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

use std::fmt;
use std::str::FromStr;

/// The largest side a grid may have (candidates fit in one `u64`).
pub const MAX_SIDE: usize = 64;

/// What can be wrong when building a grid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// The box shape multiplies to a side of 0 or more than [`MAX_SIDE`].
    #[error("box shape {width}x{height} gives a side of {side}; the side must be 1 to 64")]
    BadShape {
        /// Box width in cells.
        width: usize,
        /// Box height in cells.
        height: usize,
        /// Their product.
        side: usize,
    },
    /// A box shape written as text could not be read (`3x2` is the form).
    #[error("box shape '{0}' is not of the form WIDTHxHEIGHT, e.g. 3x3 or 3x2")]
    BadShapeText(String),
    /// The number of cells is not the square of a side with a known box shape.
    #[error("{0} cells is not a square grid of a side xlsudoku knows a box shape for")]
    BadLength(usize),
    /// A box shape no command takes: thinner than 2 cells either way, or
    /// making a side above [`MAX_SIDE`] ([`BoxShape::usable`]).
    #[error("box shape {width}x{height}: boxes must be at least 2 cells each way and make a side of at most 64 (grids from 4x4 to 64x64)")]
    UnusableShape {
        /// Box width in cells.
        width: usize,
        /// Box height in cells.
        height: usize,
    },
    /// A box shape given for a grid whose side it does not make.
    #[error("a {shape} box does not tile a {side}x{side} grid; {}", tiling_words(*.side))]
    BoxDoesNotTile {
        /// The box shape given.
        shape: BoxShape,
        /// The grid's side.
        side: usize,
    },
    /// A cell holds a value outside `0..=side`.
    #[error("cell {index} holds {value}, outside 1..={side}")]
    BadValue {
        /// Row-major index of the cell.
        index: usize,
        /// The value found.
        value: usize,
        /// The grid's side.
        side: usize,
    },
    /// A character in a text puzzle is not a digit of this grid.
    #[error("character '{}' at position {index} is not a digit of a {side}x{side} grid", shown_char(.ch))]
    BadChar {
        /// Zero-based position in the puzzle text.
        index: usize,
        /// The character found.
        ch: char,
        /// The grid's side.
        side: usize,
    },
}

/// The shape of one box: `width` columns by `height` rows.
///
/// ```
/// use xlsudoku::grid::BoxShape;
/// let shape: BoxShape = "3x2".parse()?;
/// assert_eq!((shape.width(), shape.height(), shape.side()), (3, 2, 6));
/// assert_eq!(BoxShape::for_side(6), Some(shape));
/// assert_eq!(BoxShape::for_side(16).map(|s| s.to_string()), Some("4x4".to_string()));
/// # Ok::<(), xlsudoku::grid::GridError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoxShape {
    width: u8,
    height: u8,
}

impl BoxShape {
    /// A box `width` cells wide and `height` cells high; the side
    /// (`width * height`) must be 1 to [`MAX_SIDE`].
    pub fn new(width: usize, height: usize) -> Result<Self, GridError> {
        let side = width.saturating_mul(height);
        if width == 0 || height == 0 || side > MAX_SIDE {
            return Err(GridError::BadShape {
                width,
                height,
                side,
            });
        }
        Ok(BoxShape {
            width: width as u8,
            height: height as u8,
        })
    }

    /// The usual box shape for a side: square where the side is a square
    /// (9 → 3x3, 16 → 4x4), otherwise the most nearly square factor pair,
    /// wider than high (6 → 3x2, 12 → 4x3, 8 → 4x2). `None` for a side with
    /// no such pair (a prime above 3, or outside 1..=64).
    pub fn for_side(side: usize) -> Option<Self> {
        if side == 0 || side > MAX_SIDE {
            return None;
        }
        let mut height = (side as f64).sqrt() as usize;
        while height > 1 && !side.is_multiple_of(height) {
            height -= 1;
        }
        let width = side / height;
        if height == 1 && side > 3 {
            return None;
        }
        BoxShape::new(width, height).ok()
    }

    /// The shape itself when every command takes it: boxes at least 2
    /// cells each way (so grids from 4x4), as `--box` and a text puzzle's
    /// usual shape must be.
    pub fn usable(self) -> Result<Self, GridError> {
        if self.width < 2 || self.height < 2 {
            return Err(GridError::UnusableShape {
                width: self.width(),
                height: self.height(),
            });
        }
        Ok(self)
    }

    /// Every usable box shape ([`BoxShape::usable`]) of a `side`x`side`
    /// grid, widest first: 6 → 3x2, 2x3.
    pub fn tiling(side: usize) -> Vec<BoxShape> {
        (2..=side / 2)
            .rev()
            .filter(|w| side.is_multiple_of(*w) && side / w >= 2)
            .filter_map(|w| BoxShape::new(w, side / w).ok())
            .collect()
    }

    /// Box width in cells (columns of one box).
    pub fn width(self) -> usize {
        self.width as usize
    }

    /// Box height in cells (rows of one box).
    pub fn height(self) -> usize {
        self.height as usize
    }

    /// The grid side this box shape makes: `width * height`.
    pub fn side(self) -> usize {
        self.width() * self.height()
    }
}

impl fmt::Display for BoxShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for BoxShape {
    type Err = GridError;

    /// `WIDTHxHEIGHT`, a shape every command takes ([`BoxShape::usable`]).
    fn from_str(s: &str) -> Result<Self, GridError> {
        let bad = || GridError::BadShapeText(s.to_string());
        let (w, h) = s.trim().split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let w: usize = w.trim().parse().map_err(|_| bad())?;
        let h: usize = h.trim().parse().map_err(|_| bad())?;
        BoxShape::new(w, h)
            .map_err(|_| GridError::UnusableShape {
                width: w,
                height: h,
            })?
            .usable()
    }
}

/// A character as a message quotes it ([`crate::quote::shown`]).
fn shown_char(ch: &char) -> String {
    crate::quote::shown(&ch.to_string()).into_owned()
}

/// The box shapes that tile a `side`x`side` grid, in words.
fn tiling_words(side: usize) -> String {
    let shapes: Vec<String> = BoxShape::tiling(side)
        .iter()
        .map(|b| b.to_string())
        .collect();
    match shapes.len() {
        0 => "no box shape does".to_string(),
        1 => format!("the box that does: {}", shapes[0]),
        _ => format!("boxes that do: {}", shapes.join(", ")),
    }
}

/// One of the grid's units: a row, a column or a box, each numbered from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Row `n` (0-based, top to bottom).
    Row(usize),
    /// Column `n` (0-based, left to right).
    Col(usize),
    /// Box `n` (0-based, row-major over boxes).
    Box(usize),
}

impl fmt::Display for Unit {
    /// Units as people count them: `row 4`, `column 2`, `box 9` (1-based).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(n) => write!(f, "row {}", n + 1),
            Unit::Col(n) => write!(f, "column {}", n + 1),
            Unit::Box(n) => write!(f, "box {}", n + 1),
        }
    }
}

/// A value given twice in one unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The repeated digit.
    pub value: u8,
    /// Where it repeats.
    pub unit: Unit,
    /// Row-major indices of every cell of the unit holding it (two or more).
    pub cells: Vec<usize>,
}

/// A square Sudoku grid: values in row-major order, `0` for a blank.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: BoxShape,
    cells: Vec<u8>,
}

impl Grid {
    /// An empty grid of the given box shape.
    pub fn empty(shape: BoxShape) -> Self {
        Grid {
            shape,
            cells: vec![0; shape.side() * shape.side()],
        }
    }

    /// A grid from its cells in row-major order (`0` blank). The length must
    /// be `side * side` and every value in `0..=side`.
    pub fn from_cells(shape: BoxShape, cells: Vec<u8>) -> Result<Self, GridError> {
        let side = shape.side();
        if cells.len() != side * side {
            return Err(GridError::BadLength(cells.len()));
        }
        if let Some((index, &v)) = cells.iter().enumerate().find(|(_, &v)| v as usize > side) {
            return Err(GridError::BadValue {
                index,
                value: v as usize,
                side,
            });
        }
        Ok(Grid { shape, cells })
    }

    /// Reads the one-line text form used by puzzle collections: `side * side`
    /// characters, `.` or `0` for a blank, `1`-`9` then `A`=10, `B`=11 … for
    /// larger grids (lower case accepted where the side is at most 35). The
    /// box shape is the usual one for the side ([`BoxShape::for_side`]).
    pub fn parse_line(text: &str, shape: Option<BoxShape>) -> Result<Self, GridError> {
        let chars: Vec<char> = text.trim().chars().collect();
        let root = (chars.len() as f64).sqrt().round() as usize;
        let square = root * root == chars.len();
        let shape = match shape {
            Some(s) => s.usable()?,
            None => {
                // From 4x4, as every command takes grids.
                if !square || root < 4 {
                    return Err(GridError::BadLength(chars.len()));
                }
                BoxShape::for_side(root).ok_or(GridError::BadLength(chars.len()))?
            }
        };
        let side = shape.side();
        if chars.len() != side * side {
            return Err(match square {
                true => GridError::BoxDoesNotTile { shape, side: root },
                false => GridError::BadLength(chars.len()),
            });
        }
        let cells = chars
            .iter()
            .enumerate()
            .map(|(index, &ch)| digit_value(ch, side).ok_or(GridError::BadChar { index, ch, side }))
            .collect::<Result<Vec<u8>, _>>()?;
        Ok(Grid { shape, cells })
    }

    /// The one-line text form ([`Grid::parse_line`] reads it back).
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| digit_char(v)).collect()
    }

    /// The box shape.
    pub fn shape(&self) -> BoxShape {
        self.shape
    }

    /// Cells per side.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// All cells, row-major, `0` for a blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at `row`, `col` (0-based); `0` for a blank.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.side() + col]
    }

    /// Sets the value at `row`, `col` (0-based); `0` clears it.
    ///
    /// # Panics
    /// If the position is outside the grid or the value above the side.
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        assert!(value as usize <= self.side(), "value {value} above side");
        let side = self.side();
        self.cells[row * side + col] = value;
    }

    /// Overwrites every cell with `cells` (row-major, as [`Grid::cells`]):
    /// how a search's solution, known to fit the shape, becomes a grid.
    pub(crate) fn fill_from(&mut self, cells: &[u8]) {
        debug_assert!(cells.iter().all(|&v| usize::from(v) <= self.side()));
        self.cells.copy_from_slice(cells);
    }

    /// How many cells hold a digit.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is blank.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The box number (0-based, row-major over boxes) of a cell.
    pub fn box_of(&self, row: usize, col: usize) -> usize {
        let (w, h) = (self.shape.width(), self.shape.height());
        (row / h) * (self.side() / w) + col / w
    }

    /// Row-major cell indices of one unit, in reading order.
    pub fn unit_cells(&self, unit: Unit) -> Vec<usize> {
        let side = self.side();
        match unit {
            Unit::Row(r) => (0..side).map(|c| r * side + c).collect(),
            Unit::Col(c) => (0..side).map(|r| r * side + c).collect(),
            Unit::Box(b) => {
                let (w, h) = (self.shape.width(), self.shape.height());
                let boxes_across = side / w;
                let (r0, c0) = ((b / boxes_across) * h, (b % boxes_across) * w);
                (0..h)
                    .flat_map(|dr| (0..w).map(move |dc| (r0 + dr) * side + c0 + dc))
                    .collect()
            }
        }
    }

    /// Every unit: rows, then columns, then boxes.
    pub fn units(&self) -> impl Iterator<Item = Unit> {
        let side = self.side();
        (0..side)
            .map(Unit::Row)
            .chain((0..side).map(Unit::Col))
            .chain((0..side).map(Unit::Box))
    }

    /// Every digit given twice or more in one unit, rows first, then
    /// columns, then boxes; within a unit by digit.
    pub fn conflicts(&self) -> Vec<Conflict> {
        let mut out = Vec::new();
        let mut seen: Vec<Vec<usize>> = vec![Vec::new(); self.side() + 1];
        for unit in self.units() {
            for s in seen.iter_mut() {
                s.clear();
            }
            for i in self.unit_cells(unit) {
                let v = self.cells[i] as usize;
                if v != 0 {
                    seen[v].push(i);
                }
            }
            for (v, cells) in seen.iter().enumerate() {
                if cells.len() > 1 {
                    out.push(Conflict {
                        value: v as u8,
                        unit,
                        cells: cells.clone(),
                    });
                }
            }
        }
        out
    }

    /// True when a digit appears twice in some row, column or box: what
    /// [`Grid::conflicts`] lists, found without listing (or allocating).
    fn has_conflict(&self) -> bool {
        let n = self.side();
        let (w, h) = (self.shape.width(), self.shape.height());
        let (mut rows, mut cols, mut boxes) = ([0u64; 64], [0u64; 64], [0u64; 64]);
        // The box stack of each column, divided once rather than per cell.
        let mut stack = [0usize; 64];
        for (c, s) in stack.iter_mut().enumerate().take(n) {
            *s = c / w;
        }
        for (r, row) in self.cells.chunks(n).enumerate() {
            let band = (r / h) * h;
            for (c, &v) in row.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let b = band + stack[c];
                let bit = 1u64 << (v - 1);
                if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                    return true;
                }
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[b] |= bit;
            }
        }
        false
    }

    /// True when `self` is a complete, valid grid that keeps every given of
    /// `puzzle`.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.shape == puzzle.shape
            && self.is_full()
            && !self.has_conflict()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&p, &s)| p == 0 || p == s)
    }
}

impl FromStr for Grid {
    type Err = GridError;

    /// [`Grid::parse_line`] with the usual box shape for the side.
    fn from_str(s: &str) -> Result<Self, GridError> {
        Grid::parse_line(s, None)
    }
}

impl fmt::Display for Grid {
    /// The grid as rows of text, one line per row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.cells.chunks(self.side()) {
            let line: String = row.iter().map(|&v| digit_char(v)).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// The puzzle a line of text holds, as `explain --puzzle` reads it: a
/// leading byte order mark left out; cells separated by tabs (a row of
/// cells copied from a spreadsheet, an empty one blank) joined; else the
/// first word (a note after it is left out, as `bench` reads a line).
///
/// ```
/// use xlsudoku::grid::puzzle_text;
///
/// assert_eq!(puzzle_text("\u{feff}1.3..2.4........ a note"), "1.3..2.4........");
/// assert_eq!(puzzle_text("1\t\t3\t.\n"), "1.3.");
/// ```
pub fn puzzle_text(line: &str) -> String {
    let line = line.trim_start_matches('\u{feff}');
    let trimmed = line.trim_matches(|c: char| c == '\r' || c == '\n');
    if trimmed.contains('\t') {
        let fields: Vec<&str> = trimmed.split('\t').map(str::trim).collect();
        if fields.len() > 1 && fields.iter().all(|f| f.chars().count() <= 1) {
            return fields
                .iter()
                .map(|f| if f.is_empty() { "." } else { f })
                .collect();
        }
    }
    line.split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The value of one character of the text form, `Some(0)` for a blank.
pub fn digit_value(ch: char, side: usize) -> Option<u8> {
    let v = match ch {
        '.' | '0' => 0,
        '1'..='9' => ch as usize - '0' as usize,
        'A'..='Z' => ch as usize - 'A' as usize + 10,
        'a'..='z' if side <= 35 => ch as usize - 'a' as usize + 10,
        'a'..='z' => ch as usize - 'a' as usize + 36,
        _ => return None,
    };
    (v <= side).then_some(v as u8)
}

/// The character of a value in the text form: `.` for a blank, `1`-`9`,
/// then `A`=10 … `Z`=35, then `a`=36 … `z`=61; `?` beyond.
pub fn digit_char(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        10..=35 => (b'A' + v - 10) as char,
        36..=61 => (b'a' + v - 36) as char,
        _ => '?',
    }
}

/// Values made once per box shape and kept for the few shapes last
/// asked (a folder mixes 9x9, 16x16 and 25x25 grids: keeping only the
/// last shape's would make them again at every change of shape).
#[derive(Debug)]
pub(crate) struct PerShape<T> {
    /// At most [`PerShape::KEPT`], the last asked at the end.
    kept: Vec<(BoxShape, T)>,
}

impl<T> PerShape<T> {
    /// How many shapes are kept.
    const KEPT: usize = 4;

    /// None kept yet.
    pub(crate) const fn new() -> PerShape<T> {
        PerShape { kept: Vec::new() }
    }

    /// The value for `shape`, made by `make` unless kept (past
    /// [`PerShape::KEPT`], the shape asked least lately is let go).
    pub(crate) fn get_or_make(&mut self, shape: BoxShape, make: impl FnOnce() -> T) -> &mut T {
        match self.kept.iter().position(|(s, _)| *s == shape) {
            Some(at) => {
                let kept = self.kept.remove(at);
                self.kept.push(kept);
            }
            None => {
                if self.kept.len() == Self::KEPT {
                    self.kept.remove(0);
                }
                self.kept.push((shape, make()));
            }
        }
        &mut self.kept.last_mut().expect("just pushed").1
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn per_shape_makes_a_value_once_for_each_of_the_shapes_kept() {
        let shapes: Vec<BoxShape> = [(3, 3), (4, 4), (5, 5), (2, 3), (3, 2)]
            .into_iter()
            .map(|(w, h)| BoxShape::new(w, h).expect("a shape"))
            .collect();
        let mut kept = PerShape::new();
        let made = std::cell::Cell::new(0);
        let ask = |kept: &mut PerShape<usize>, s: BoxShape| {
            *kept.get_or_make(s, || {
                made.set(made.get() + 1);
                s.width() * 10 + s.height()
            })
        };
        for _ in 0..3 {
            for &s in &shapes[..4] {
                assert_eq!(ask(&mut kept, s), s.width() * 10 + s.height());
            }
        }
        assert_eq!(made.get(), 4, "four shapes alternating are made once each");
        // Asked again, the first is kept; the second, asked least lately,
        // is let go for a fifth shape.
        ask(&mut kept, shapes[0]);
        ask(&mut kept, shapes[4]);
        ask(&mut kept, shapes[0]);
        assert_eq!(made.get(), 5, "the shape asked lately is kept");
        ask(&mut kept, shapes[1]);
        assert_eq!(made.get(), 6, "the shape asked least lately was let go");
    }
    use super::*;

    #[test]
    fn box_shape_for_common_sides() {
        let s = |n| BoxShape::for_side(n).map(|b| b.to_string());
        assert_eq!(s(4).as_deref(), Some("2x2"));
        assert_eq!(s(6).as_deref(), Some("3x2"));
        assert_eq!(s(9).as_deref(), Some("3x3"));
        assert_eq!(s(12).as_deref(), Some("4x3"));
        assert_eq!(s(25).as_deref(), Some("5x5"));
        assert_eq!(s(64).as_deref(), Some("8x8"));
        assert_eq!(s(7), None);
        assert_eq!(s(65), None);
        assert_eq!(s(0), None);
    }

    #[test]
    fn box_shape_text() {
        assert_eq!(
            "3x2".parse::<BoxShape>().unwrap(),
            BoxShape::new(3, 2).unwrap()
        );
        assert!("3by2".parse::<BoxShape>().is_err());
        assert!("9x9".parse::<BoxShape>().is_err(), "side 81 is too big");
        assert!(
            "4294967296x4294967296".parse::<BoxShape>().is_err(),
            "no overflow"
        );
    }

    #[test]
    fn every_command_takes_the_same_box_shapes() {
        for thin in ["1x9", "9x1", "1x1", "2x1", "0x4", "9x9"] {
            let e = thin.parse::<BoxShape>().unwrap_err();
            assert!(matches!(e, GridError::UnusableShape { .. }), "{thin}: {e}");
            assert!(e.to_string().contains("at least 2 cells each way"), "{e}");
        }
        let tiles = |n| {
            BoxShape::tiling(n)
                .iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(tiles(6), ["3x2", "2x3"]);
        assert_eq!(tiles(9), ["3x3"]);
        assert!(tiles(5).is_empty());
        // A text puzzle: from 4x4, and a box that does not fit is named.
        for tiny in [".", "....", "........."] {
            assert!(
                matches!(Grid::parse_line(tiny, None), Err(GridError::BadLength(_))),
                "{tiny}"
            );
        }
        let nine: BoxShape = "3x3".parse().unwrap();
        let e = Grid::parse_line(&".".repeat(36), Some(nine)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a 3x3 box does not tile a 6x6 grid; boxes that do: 3x2, 2x3"
        );
        let e = Grid::parse_line(&".".repeat(25), Some(nine)).unwrap_err();
        assert!(
            e.to_string().ends_with("5x5 grid; no box shape does"),
            "{e}"
        );
        let thin = BoxShape::new(1, 9).unwrap();
        assert!(matches!(
            Grid::parse_line(&".".repeat(81), Some(thin)),
            Err(GridError::UnusableShape {
                width: 1,
                height: 9
            })
        ));
    }

    #[test]
    fn boxes_of_a_six_grid() {
        let g = Grid::empty(BoxShape::new(3, 2).unwrap());
        assert_eq!(g.box_of(0, 0), 0);
        assert_eq!(g.box_of(0, 3), 1);
        assert_eq!(g.box_of(2, 0), 2);
        assert_eq!(g.box_of(5, 5), 5);
        assert_eq!(g.unit_cells(Unit::Box(1)), vec![3, 4, 5, 9, 10, 11]);
    }

    #[test]
    fn parse_and_print_round_trip() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let g: Grid = line.parse().unwrap();
        assert_eq!(g.to_line(), line);
        assert_eq!(g.givens(), 17);
        let big = "G".repeat(256);
        let g: Grid = big.parse().unwrap();
        assert_eq!(g.get(15, 15), 16);
    }

    #[test]
    fn parse_rejects_bad_input() {
        assert!(matches!("12".parse::<Grid>(), Err(GridError::BadLength(2))));
        let bad = format!("{}A", ".".repeat(80));
        assert!(matches!(
            bad.parse::<Grid>(),
            Err(GridError::BadChar { index: 80, .. })
        ));
    }

    #[test]
    fn a_conflict_is_found_exactly_when_conflicts_lists_one() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for (w, h) in [(3, 3), (3, 2), (2, 3), (4, 4), (5, 5)] {
            let shape = BoxShape::new(w, h).expect("shape");
            let n = shape.side();
            // A valid full grid (none), then random grids of a few digits
            // (some clash, some do not), each way round.
            let full = crate::search::search(&Grid::empty(shape), &Default::default())
                .expect("no deadline")
                .solutions
                .remove(0);
            assert!(!full.has_conflict() && full.conflicts().is_empty());
            for _ in 0..300 {
                let mut g = Grid::empty(shape);
                for _ in 0..next(2 * n) {
                    g.set(next(n), next(n), (1 + next(n)) as u8);
                }
                assert_eq!(
                    g.has_conflict(),
                    !g.conflicts().is_empty(),
                    "{w}x{h} {}",
                    g.to_line()
                );
            }
        }
    }

    #[test]
    fn conflicts_name_unit_and_cells() {
        let mut g = Grid::empty(BoxShape::new(3, 3).unwrap());
        g.set(3, 1, 5);
        g.set(3, 7, 5);
        let c = g.conflicts();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].unit, Unit::Row(3));
        assert_eq!(c[0].cells, vec![28, 34]);
        assert_eq!(c[0].unit.to_string(), "row 4");
    }
}
