//! What reading a sheet finds: the grids on it ([`FoundGrid`]), where an
//! earlier run's answer copy of one is ([`AnswerPlace`]), and the squares
//! turned down for their values ([`TurnedDown`]).

use crate::address::{CellRange, CellRef};
use crate::grid::{BoxShape, Grid};

use super::cells::{Cell, Symbol, Symbols};

/// One grid found on a sheet.
#[derive(Debug, Clone)]
pub struct FoundGrid {
    /// The square of cells the grid covers.
    pub range: CellRange,
    /// Its box shape.
    pub shape: BoxShape,
    /// How its digits are written (numbers, or letters after 9).
    pub symbols: Symbols,
    /// True when the grid writes its letters in lower case: every letter
    /// digit among its values is (`a`-`g` in a 16x16). The solution's
    /// letters are then written in lower case too.
    pub lowercase: bool,
    /// Every cell, row-major, `side * side` of them.
    pub cells: Vec<Cell>,
    /// Where the note goes: the earlier run's note of this grid if its
    /// record names one, else the first empty cell below the grid in its
    /// first visible column, before the next grid (never a formula, a
    /// hidden row or a merged range); see [`FoundGrid::note_apart`].
    pub note_at: CellRef,
    /// True when `note_at` holds an earlier run's note (to be replaced).
    pub earlier_note: bool,
    /// Grid cells that hold a formula showing no digit (often `""`): blank
    /// for the puzzle, but never written over. A formula showing a digit
    /// is a given like any other.
    pub formulas: Vec<CellRef>,
    /// Merged ranges that reach into the grid: a grid with any is
    /// unreadable (the merged cells hide all but the first), and nothing
    /// is written into it.
    pub merged: Vec<CellRange>,
    /// True when the note could not sit between the grid and what follows
    /// it (the next grid below): it is further down and names its grid.
    pub note_apart: bool,
    /// Where the grid's solution goes ([`ReadOptions::answers`](super::ReadOptions::answers)).
    pub answer: AnswerPlace,
    /// The square holding this grid's answer copy from an earlier run, when
    /// its record names one and every cell still holds what was written
    /// (to be replaced or cleared).
    pub earlier_answer: Option<CellRange>,
    /// Whether each cell's own font is bold, row-major (all false when the
    /// file says nothing of fonts): printed puzzles set their givens in
    /// bold, which tells them from the digits a person typed
    /// (`xlsudoku hint`).
    pub bold: Vec<bool>,
}

/// Where a grid's solution goes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum AnswerPlace {
    /// Into the grid's own blank cells.
    #[default]
    InGrid,
    /// Into a copy of the grid in this square (free, or holding this
    /// grid's earlier answer copy).
    At(CellRange),
    /// Nowhere: the square meant for the copy is not free.
    Occupied {
        /// The square meant for the copy.
        range: CellRange,
        /// Its first cell (in reading order) that is not free.
        cell: CellRef,
        /// What is there: `holds a value`, `is in the grid C3:K11` ….
        what: String,
    },
    /// Nowhere: the copy would reach past the sheet's last row or column.
    OffSheet {
        /// The copy's top-left corner.
        start: CellRef,
    },
    /// Into a copy on the workbook's sheet of solutions (`--answers
    /// sheet`, see [`crate::annotate::solution_sheet`]).
    Sheet,
    /// Nowhere beside the grid (`--answers beside`): the square to the
    /// right and the one below are both refused, each for its reason.
    NotBeside {
        /// The square to the right, refused.
        right: Box<AnswerPlace>,
        /// The square below, refused.
        below: Box<AnswerPlace>,
    },
}

impl AnswerPlace {
    /// The square the answer copy goes into, if any.
    pub fn range(&self) -> Option<CellRange> {
        match self {
            AnswerPlace::At(r) => Some(*r),
            _ => None,
        }
    }

    /// Why the answer copy cannot be written, in words; `None` when it can
    /// (or goes into the grid).
    pub fn refusal(&self) -> Option<String> {
        self.reason().map(|why| format!("{why}; nothing written"))
    }

    /// [`AnswerPlace::refusal`] without its ending.
    pub(super) fn reason(&self) -> Option<String> {
        let on_sheet =
            |at: &CellRef| at.row <= crate::address::MAX_ROW && at.col <= crate::address::MAX_COL;
        match self {
            AnswerPlace::Occupied { range, cell, what } => Some(format!(
                "the answer square {range} is not free: {cell} {what}"
            )),
            AnswerPlace::OffSheet { start } if on_sheet(start) => Some(format!(
                "the answer square from {start} would reach past the sheet's last row or column"
            )),
            AnswerPlace::OffSheet { .. } => Some("the grid is at the edge of the sheet".to_string()),
            AnswerPlace::NotBeside { right, below } => match (&**right, &**below) {
                (AnswerPlace::OffSheet { .. }, AnswerPlace::OffSheet { .. }) => Some(
                    "the grid is at the corner of the sheet: no room for its answer square to the right or below"
                        .to_string(),
                ),
                (r, b) => Some(format!(
                    "no room beside the grid: to the right, {}; below, {}",
                    r.reason().unwrap_or_default(),
                    b.reason().unwrap_or_default()
                )),
            },
            _ => None,
        }
    }
}

impl FoundGrid {
    /// Digit `d` as the grid shows it (`7`, `G`, `g`), for messages.
    pub fn digit_name(&self, d: u8) -> String {
        match self.symbols.symbol(d) {
            Symbol::Number(n) => n.to_string(),
            Symbol::Letter(c) if self.lowercase => c.to_ascii_lowercase().to_string(),
            Symbol::Letter(c) => c.to_string(),
        }
    }

    /// The puzzle: givens only; filled, bad and blank cells are blank.
    pub fn puzzle(&self) -> Grid {
        self.grid_of(Cell::given)
    }

    /// The grid as the sheet shows it: givens and the digits an earlier
    /// xlsudoku run filled in (what a reader of an annotated copy sees).
    pub fn shown(&self) -> Grid {
        self.grid_of(|c| match c {
            Cell::Given(v) | Cell::Filled(v) => *v,
            _ => 0,
        })
    }

    pub(super) fn grid_of(&self, value: impl Fn(&Cell) -> u8) -> Grid {
        let cells = self.cells.iter().map(value).collect();
        // Digits are checked against the side when read, so this holds;
        // fall back to an empty grid rather than panic.
        Grid::from_cells(self.shape, cells).unwrap_or_else(|_| Grid::empty(self.shape))
    }

    /// Every [`Cell::Bad`] cell with its address and text, in reading order.
    pub fn bad_cells(&self) -> Vec<(CellRef, String)> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                Cell::Bad(text) => Some((self.cell_ref(i), text.clone())),
                _ => None,
            })
            .collect()
    }

    /// Every [`Cell::Formula`] cell with its address and formula, in reading
    /// order: cells whose value is unknown until the file is calculated.
    pub fn formula_cells(&self) -> Vec<(CellRef, String)> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                Cell::Formula(f) => Some((self.cell_ref(i), f.clone())),
                _ => None,
            })
            .collect()
    }

    /// The sheet address of the cell at a row-major index of the grid.
    pub fn cell_ref(&self, index: usize) -> CellRef {
        let side = self.shape.side();
        self.range
            .cell((index / side) as u32, (index % side) as u32)
    }
}

/// One worksheet and the grids on it (possibly none).
#[derive(Debug, Clone)]
pub struct Sheet {
    /// The sheet's name as the workbook shows it.
    pub name: String,
    /// The grids found, in reading order of their top-left corners.
    pub grids: Vec<FoundGrid>,
    /// On a sheet without grids: the first few bordered squares that could
    /// have been grids but whose values are no puzzle, with the reason.
    pub turned_down: Vec<TurnedDown>,
}

/// A bordered square that was not taken as a grid because of its values.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnedDown {
    /// The square.
    pub range: CellRange,
    /// Why its values are no puzzle, e.g. `30 of 40 filled cells are not
    /// digits 1-9 (C3 holds "x", D3 holds "y", …)`.
    pub reason: String,
    /// False for a block of values without borders that looks like a
    /// puzzle but was not taken for one (the reason says how to ask for it).
    pub bordered: bool,
}

impl std::fmt::Display for TurnedDown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = self.range.rows();
        if !self.bordered {
            return write!(f, "no bordered grid; {}", self.reason);
        }
        write!(
            f,
            "bordered {side}x{side} at {} not taken: {}",
            self.range, self.reason
        )
    }
}

/// How many turned-down squares a sheet without grids names.
pub(super) const TURNED_DOWN_NAMED: usize = 3;

pub(super) fn overlaps(a: &CellRange, b: &CellRange) -> bool {
    a.start.row <= b.end.row
        && b.start.row <= a.end.row
        && a.start.col <= b.end.col
        && b.start.col <= a.end.col
}
