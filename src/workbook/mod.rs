//! Reading workbooks: every worksheet of a `.xlsx`/`.xlsm` file, with the
//! bordered Sudoku grids found on it and what each grid cell holds.
//!
//! ```no_run
//! use xlsudoku::workbook::{read_workbook, ReadOptions};
//!
//! let sheets = read_workbook("puzzles.xlsx".as_ref(), &ReadOptions::default())?;
//! for sheet in &sheets {
//!     for grid in &sheet.grids {
//!         println!("{}: {} {}", sheet.name, grid.range, grid.shape);
//!         for (cell, text) in grid.bad_cells() {
//!             println!("  {cell} holds {text:?}");
//!         }
//!     }
//! }
//! # Ok::<(), xlsudoku::workbook::ReadError>(())
//! ```
//!
//! # How a grid is found
//!
//! Borders decide where a grid is ([`detect`] has the rules: shared edges,
//! framed grids first, corners in reading order, the largest closing frame,
//! the box shape from thick inner lines or the side). A bordered square is a
//! grid only when its values can be a puzzle, by this rule:
//!
//! > at least one cell holds a digit of the grid, and at most a quarter of
//! > the non-empty cells hold anything else (blank marks — `0`, `.`, pencil
//! > marks — and an earlier run's recorded writing count as blank).
//!
//! So a bordered table of names or prices is left alone, while a puzzle with
//! one or two stray values (`x`, `12` in a 9x9, `3.5`) is a grid whose
//! stray cells are reported as [`Cell::Bad`]. On a sheet without grids,
//! [`Sheet::turned_down`] names the bordered squares left alone for their
//! values and why. With [`ReadOptions::range`] no detection happens at all:
//! the square given is the grid when its values can be a puzzle.
//!
//! # What a cell holds
//!
//! A number that is a whole `1..=side`, or text holding one (spaces,
//! including non-breaking ones, trimmed), is a [`Cell::Given`]; a formula
//! counts by its cached value. A formula without one (written by a program
//! that does not calculate, such as openpyxl; XlsxWriter caches 0) counts by
//! its value when it is a constant (`=5`, `=2+3`), else it is a
//! [`Cell::Formula`], which makes the grid invalid until the file is opened
//! and saved in Excel or LibreOffice. A value that cannot be read at all
//! (an unknown XML entity, a number that is none, a missing shared string)
//! is a [`Cell::Bad`]: never taken for blank, never written over.
//!
//! What an earlier xlsudoku run wrote is known from the grid records it
//! left in the copy's records ([`crate::annotate::GridRecord`]), never
//! from the font alone: a cell the record lists that still holds a digit
//! (or candidate letters) in blue italics is [`Cell::Filled`]
//! ([`Cell::FilledText`]), and so is the note the record names. Those count
//! as blank in [`FoundGrid::puzzle`], so a run over its own output replaces
//! them rather than stacking on them. The answer copy a record names
//! (`solve --answers beside|at:CELL`) is never taken for a puzzle; while its
//! cells hold what was written it is [`FoundGrid::earlier_answer`], to be
//! replaced. The sheet of solutions an earlier run added (`--answers
//! sheet`, named by its record) is no sheet of puzzles: it is not read.
//! A digit typed over a fill (no longer
//! blue italic) is a given; with no record (a file saved since by Excel
//! loses it) every digit is a given.
//!
//! Blanks may be written: `0` (as a number, whatever its number format —
//! also one that hides zeros — or as text) and `.` are blanks, and so are
//! pencil marks in a grid of side 9 or less: two or more digits of the
//! grid in increasing order, together (`23`, `123`) or separated by spaces
//! or commas (`1 2 3`, `4,6`). Each is a [`Cell::Marked`]: blank for the
//! puzzle, and the solution's digit replaces it in the annotated copy.
//!
//! # Letters for digits above 9
//!
//! A grid larger than 9x9 may write its digits with letters; the alphabet
//! ([`Symbols`]) is decided per grid from the symbols in it:
//!
//! - letters and a `0`, no letter past the `0`-based alphabet's last (`F` in
//!   a 16x16) and no number above 9: **`0`-`9` then `A`…** — `0` is the
//!   digit 1, `9` the digit 10, `A` 11, `F` 16 (hexadecimal 16x16);
//! - other letters (up to the side: `G` in a 16x16, `P` in a 25x25):
//!   **`1`-`9` then `A`…** — `A` is 10, `G` 16; numbers `10..=side` are read
//!   too, and `0` is a blank;
//! - no letters: numbers `1..=side`, `0` a blank.
//!
//! Letters in a 9x9 (or past the alphabet's reach) are bad values. The
//! annotated copy writes solved cells in the grid's own alphabet: digits as
//! numbers, letters as text ([`Symbols::symbol`]), in lower case when every
//! letter the grid holds is ([`FoundGrid::lowercase`]).

mod borderless;
pub mod detect;
mod plausible;
mod reader;
mod xlsx;

use std::path::{Path, PathBuf};

use calamine::Data;

use crate::address::{CellRange, CellRef};
use crate::grid::{BoxShape, Grid};

/// Overrides for grid detection.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// Use exactly this square as the grid on every sheet (`--range C3:K11`),
    /// without looking at borders or values.
    pub range: Option<CellRange>,
    /// Force the box shape (`--box 3x2`); with detection, only squares of
    /// its side are grids.
    pub shape: Option<BoxShape>,
    /// Where the solutions go (`--answers`): decides each grid's
    /// [`FoundGrid::answer`].
    pub answers: crate::answers::Answers,
}

/// What one grid cell holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing (or only spaces).
    Blank,
    /// A digit of the puzzle.
    Given(u8),
    /// A digit an earlier xlsudoku run recorded writing, still in its blue
    /// italics: blank for the puzzle, to be replaced.
    Filled(u8),
    /// Candidate letters an earlier `--logic-only` run recorded writing,
    /// still in its blue italics: blank for the puzzle, to be replaced.
    FilledText(String),
    /// A blank written as something, as the cell shows it: `0` (also when
    /// a number format hides it), `.`, or pencil marks (candidates such as
    /// `"123"`, `"1 2 3"` or `"1,2,3"`). Blank for the puzzle; the
    /// solution's digit replaces it.
    Marked(String),
    /// Anything that is not a digit of the grid, as the cell shows it (or,
    /// for a value that cannot be read, as the file holds it).
    Bad(String),
    /// A formula without a cached value that is not a constant: its text
    /// (without `=`). Never blank, never written over.
    Formula(String),
}

impl Cell {
    /// The digit of a given; 0 (blank for the puzzle) for anything else.
    pub fn given(&self) -> u8 {
        match self {
            Cell::Given(d) => *d,
            _ => 0,
        }
    }
}

/// How a grid writes its digits, decided per grid from the symbols in it
/// (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symbols {
    /// Numbers `1..=side`, as numbers or as text.
    #[default]
    Numbers,
    /// `1`-`9`, then the letters `A`, `B`, … for 10, 11, … (a 16x16's
    /// `1`-`9`, `A`-`G`); numbers `10..=side` are read too. Sides 10 to 35.
    DigitsThenLetters,
    /// `0`-`9`, then the letters `A`, `B`, … as the grid's symbols in order
    /// (a 16x16's `0`-`9`, `A`-`F`): `0` is the digit 1, `F` the digit 16.
    /// Sides 11 to 35.
    ZeroThenLetters,
}

/// How one digit is written in a grid's [`Symbols`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbol {
    /// As this number.
    Number(u32),
    /// As this letter (text).
    Letter(char),
}

impl std::fmt::Display for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Symbol::Number(n) => write!(f, "{n}"),
            Symbol::Letter(c) => write!(f, "{c}"),
        }
    }
}

impl Symbols {
    /// How the digit `digit` (`1..=side`) is written in this alphabet.
    ///
    /// ```
    /// use xlsudoku::workbook::{Symbol, Symbols};
    /// assert_eq!(Symbols::Numbers.symbol(12), Symbol::Number(12));
    /// assert_eq!(Symbols::DigitsThenLetters.symbol(9), Symbol::Number(9));
    /// assert_eq!(Symbols::DigitsThenLetters.symbol(16), Symbol::Letter('G'));
    /// assert_eq!(Symbols::ZeroThenLetters.symbol(1), Symbol::Number(0));
    /// assert_eq!(Symbols::ZeroThenLetters.symbol(16), Symbol::Letter('F'));
    /// ```
    pub fn symbol(self, digit: u8) -> Symbol {
        let letter = |k: u8| Symbol::Letter(char::from(b'A' + k));
        match self {
            Symbols::Numbers => Symbol::Number(u32::from(digit)),
            Symbols::DigitsThenLetters if digit <= 9 => Symbol::Number(u32::from(digit)),
            Symbols::DigitsThenLetters => letter(digit.saturating_sub(10).min(25)),
            Symbols::ZeroThenLetters if digit <= 10 => {
                Symbol::Number(u32::from(digit.saturating_sub(1)))
            }
            Symbols::ZeroThenLetters => letter(digit.saturating_sub(11).min(25)),
        }
    }

    /// The symbols of a grid of side `side`, in words: `1-9`, `1-16`,
    /// `1-9, A-G`, `0-9, A-F`.
    pub fn describe(self, side: usize) -> String {
        let digit = side.min(255) as u8;
        match (self, self.symbol(digit)) {
            (Symbols::Numbers, _) => format!("1-{side}"),
            (_, Symbol::Letter('A')) => format!("{}-9, A", self.symbol(1)),
            (_, last) => format!("{}-9, A-{last}", self.symbol(1)),
        }
    }

    /// The digit a value stands for in this alphabet, if any.
    fn digit(self, v: &Value, side: usize) -> Option<u8> {
        let letters = |first: usize| {
            letter_index(v)
                .map(|k| first + usize::from(k))
                .filter(|&d| d <= side)
                .map(|d| d as u8)
        };
        match self {
            Symbols::Numbers => is_digit(v, side),
            Symbols::DigitsThenLetters => is_digit(v, side).or_else(|| letters(10)),
            Symbols::ZeroThenLetters => match v {
                Value::Whole(n, _) if (0..=9).contains(n) => Some(*n as u8 + 1),
                Value::Whole(..) => None,
                _ => letters(11),
            },
        }
    }

    /// The alphabet the values of one grid are written in (blue-italic
    /// cells, an earlier run's writing, left out). Letters count only in a
    /// grid larger than 9x9, and only those the `1`-`9`, `A`… alphabet
    /// reaches (up to `G` in a 16x16; others are bad values). With such
    /// letters: `0` together with letters no further than the `0`-based
    /// alphabet reaches (`F` in a 16x16) and no number above 9 means
    /// [`Symbols::ZeroThenLetters`], anything else
    /// [`Symbols::DigitsThenLetters`]. Without: [`Symbols::Numbers`].
    fn of<'a>(values: impl Iterator<Item = &'a Value>, side: usize) -> Symbols {
        if !(10..=35).contains(&side) {
            return Symbols::Numbers;
        }
        let (mut zero, mut above_nine, mut last_letter) = (false, false, None::<usize>);
        for v in values {
            match v {
                Value::Whole(0, _) => zero = true,
                Value::Whole(n, _) if *n > 9 => above_nine = true,
                _ => {
                    if let Some(k) = letter_index(v).map(usize::from) {
                        if 10 + k <= side {
                            last_letter = last_letter.max(Some(k));
                        }
                    }
                }
            }
        }
        match last_letter {
            None => Symbols::Numbers,
            Some(last) if zero && !above_nine && 11 + last <= side => Symbols::ZeroThenLetters,
            Some(_) => Symbols::DigitsThenLetters,
        }
    }
}

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
    /// Where the grid's solution goes ([`ReadOptions::answers`]).
    pub answer: AnswerPlace,
    /// The square holding this grid's answer copy from an earlier run, when
    /// its record names one and every cell still holds what was written
    /// (to be replaced or cleared).
    pub earlier_answer: Option<CellRange>,
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
    /// sheet`, see [`crate::annotate::solutions`]).
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
    fn reason(&self) -> Option<String> {
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

    fn grid_of(&self, value: impl Fn(&Cell) -> u8) -> Grid {
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
const TURNED_DOWN_NAMED: usize = 3;

fn overlaps(a: &CellRange, b: &CellRange) -> bool {
    a.start.row <= b.end.row
        && b.start.row <= a.end.row
        && a.start.col <= b.end.col
        && b.start.col <= a.end.col
}

/// Why a workbook could not be read. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The workbook is encrypted (password protected).
    #[error("{}: the workbook is encrypted (password protected); save it without a password first", path.display())]
    Encrypted {
        /// The file.
        path: PathBuf,
    },
    /// The file is not an `.xlsx`/`.xlsm` workbook.
    #[error("{}: not an .xlsx/.xlsm workbook: {reason}", path.display())]
    NotAWorkbook {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// One sheet could not be read.
    #[error("{}: sheet '{sheet}': {reason}", path.display())]
    Sheet {
        /// The file.
        path: PathBuf,
        /// The sheet's name.
        sheet: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A part of the package (or the file) is larger than xlsudoku reads:
    /// an oversized sheet or a zip bomb.
    #[error("{}: {part} is {size} bytes uncompressed, over the {limit}-byte limit (an oversized part or a zip bomb)", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The part (or `the file`).
        part: String,
        /// Its size in bytes, as declared.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The `--range` given cannot be a grid.
    #[error("{}: range {range} is not a square with a box shape ({reason})", path.display())]
    BadRange {
        /// The file.
        path: PathBuf,
        /// The range asked for.
        range: CellRange,
        /// What is wrong with it.
        reason: String,
    },
}

/// Reads every worksheet of the workbook at `path`, in workbook order
/// (chartsheets skipped), each with the grids found on it.
pub fn read_workbook(path: &Path, opts: &ReadOptions) -> Result<Vec<Sheet>, ReadError> {
    let bytes = read_file(path)?;
    read_workbook_bytes(path, &bytes, opts)
}

/// [`read_workbook`] on a workbook already in memory (`path` names it in
/// errors), so a caller that also copies the file reads it only once.
pub fn read_workbook_bytes(
    path: &Path,
    bytes: &[u8],
    opts: &ReadOptions,
) -> Result<Vec<Sheet>, ReadError> {
    if let Some(range) = opts.range {
        check_range(path, range, opts.shape)?;
    }
    crate::opc::check_central_directory(&mut std::io::Cursor::new(bytes)).map_err(|reason| {
        ReadError::NotAWorkbook {
            path: path.to_path_buf(),
            reason: format!("a damaged zip package ({reason}); refusing it rather than lose parts"),
        }
    })?;
    let mut raw = reader::read_raw(path, bytes)?;
    let records = crate::annotate::read_grid_records(std::io::Cursor::new(bytes));
    // The sheet of solutions an earlier run wrote holds no puzzles; it is
    // known by its name and part both, as the copy knows it (a sheet that
    // took the name of one deleted since is read like any other).
    let solutions = crate::annotate::read_solutions_record(std::io::Cursor::new(bytes));
    Ok(raw
        .iter_mut()
        .filter(|sheet| {
            solutions
                .as_ref()
                .is_none_or(|s| s.sheet != sheet.name || !s.part.eq_ignore_ascii_case(&sheet.part))
        })
        .map(|sheet| {
            let recorded = Recorded::of(&records, &sheet.name);
            sheet.earlier = recorded.fills_in(sheet);
            find_grids(sheet, opts, &recorded)
        })
        .collect())
}
/// What the grid records of an earlier xlsudoku copy (its records part)
/// say about one sheet: the cells that run filled and where its notes are.
/// Only these, still in blue italics, are an earlier run's writing; with
/// no record (a file saved since by Excel drops it) every digit is a given.
#[derive(Debug, Default)]
struct Recorded {
    /// Filled cell → what was written (see [`crate::annotate::GridRecord::written`]).
    fills: std::collections::HashMap<(u32, u32), Option<u8>>,
    /// Note cell → the grid it belongs to.
    notes: std::collections::HashMap<(u32, u32), CellRange>,
    /// Grid → the answer copy an earlier run wrote for it.
    answers: Vec<(CellRange, crate::annotate::AnswerRecord)>,
}

impl Recorded {
    fn of(records: &[crate::annotate::GridRecord], sheet: &str) -> Self {
        let mut out = Recorded::default();
        for r in records.iter().filter(|r| r.sheet == sheet) {
            for (at, _) in &r.fills {
                out.fills.insert((at.row, at.col), r.written(*at).flatten());
            }
            out.notes
                .extend(r.note.iter().map(|(at, _)| ((at.row, at.col), r.range)));
            out.answers
                .extend(r.answer.iter().map(|a| (r.range, a.clone())));
        }
        out
    }

    /// The square of `grid`'s earlier answer copy, when every cell of it
    /// still holds what was written ([`as_written`]).
    fn answer_of(&self, sheet: &reader::RawSheet, grid: CellRange) -> Option<CellRange> {
        let (_, a) = self.answers.iter().find(|(g, _)| *g == grid)?;
        let range = a.range;
        let intact = (range.start.row..=range.end.row).all(|r| {
            (range.start.col..=range.end.col).all(|c| as_written(sheet, a, CellRef::new(r, c)))
        });
        intact.then_some(range)
    }

    /// True when `(row, col)` holds what an earlier run filled in: the
    /// record lists it, it is still blue italic and still holds what was
    /// written (a digit typed over it makes it a given).
    fn is_fill(&self, sheet: &reader::RawSheet, row: u32, col: u32) -> bool {
        let Some(written) = self.fills.get(&(row, col)) else {
            return false;
        };
        if !sheet.blue_italic.contains(&(row, col)) {
            return false;
        }
        let value = sheet.values.get_value((row, col));
        match written {
            None => true,
            Some(0) => matches!(value, Some(Data::String(t)) if is_candidate_text(t)),
            Some(d) => matches!(classify(value), Value::Whole(n, _) if n == i64::from(*d)),
        }
    }

    /// The cells of `sheet` that hold an earlier run's fills (see
    /// [`Recorded::is_fill`]).
    fn fills_in(&self, sheet: &reader::RawSheet) -> std::collections::HashSet<(u32, u32)> {
        self.fills
            .keys()
            .copied()
            .filter(|&(r, c)| self.is_fill(sheet, r, c))
            .collect()
    }
}

/// True when the answer copy's cell `at` still holds what was written
/// there: the digit, or text or nothing where `0` is recorded, and no
/// formula.
fn as_written(sheet: &reader::RawSheet, a: &crate::annotate::AnswerRecord, at: CellRef) -> bool {
    let key = (at.row, at.col);
    let value = sheet.values.get_value(key);
    !sheet.formulas.contains(&key)
        && !sheet.unread.contains_key(&key)
        && match a.digit(at) {
            Some(0) => matches!(value, None | Some(Data::String(_) | Data::Empty)),
            Some(d) => matches!(classify(value), Value::Whole(n, _) if n == i64::from(d)),
            None => false,
        }
}

/// Reads a workbook file into memory, with the same size limit and errors
/// as [`read_workbook`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    reader::read_file(path)
}

/// The box shape a forced range gets, or why it cannot be a grid.
fn check_range(
    path: &Path,
    range: CellRange,
    shape: Option<BoxShape>,
) -> Result<BoxShape, ReadError> {
    let bad = |reason: String| ReadError::BadRange {
        path: path.to_path_buf(),
        range,
        reason,
    };
    if range.rows() != range.cols() {
        return Err(bad(format!(
            "{} rows by {} columns",
            range.rows(),
            range.cols()
        )));
    }
    let side = range.rows() as usize;
    match shape {
        Some(s) if s.side() == side => Ok(s),
        Some(s) => Err(bad(format!(
            "box {s} makes a side of {}, not {side}",
            s.side()
        ))),
        None => BoxShape::for_side(side)
            .filter(|_| side >= detect::MIN_SIDE)
            .ok_or_else(|| {
                bad(format!(
                    "no usual box shape for a side of {side}; give --box"
                ))
            }),
    }
}

/// What a value looks like, before knowing the grid's side.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Empty,
    /// A whole number (from a number or from text).
    Whole(i64, String),
    /// Anything else, as shown.
    Other(String),
}

fn number_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn classify(data: Option<&Data>) -> Value {
    let from_float = |v: f64| {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            Value::Whole(v as i64, number_text(v))
        } else {
            Value::Other(number_text(v))
        }
    };
    match data {
        None | Some(Data::Empty) => Value::Empty,
        Some(Data::Int(i)) => Value::Whole(*i, i.to_string()),
        Some(Data::Float(f)) => from_float(*f),
        Some(Data::DateTime(d)) => from_float(d.as_f64()),
        Some(Data::String(s)) => {
            let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
            if t.is_empty() {
                Value::Empty
            } else if let Ok(v) = t.parse::<i64>() {
                Value::Whole(v, s.clone())
            } else if let Some(v) = t
                .parse::<f64>()
                .ok()
                .filter(|v| v.fract() == 0.0 && v.abs() < 1e15)
            {
                Value::Whole(v as i64, s.clone())
            } else {
                Value::Other(s.clone())
            }
        }
        Some(Data::Bool(b)) => Value::Other(if *b { "TRUE" } else { "FALSE" }.into()),
        Some(Data::Error(e)) => Value::Other(e.to_string()),
        Some(Data::DateTimeIso(s) | Data::DurationIso(s)) => Value::Other(s.clone()),
    }
}

fn is_digit(v: &Value, side: usize) -> Option<u8> {
    match v {
        Value::Whole(n, _) if (1..=side as i64).contains(n) => Some(*n as u8),
        _ => None,
    }
}

/// True for text an earlier `--logic-only` run writes as candidates: the
/// letters `a-z`, `A-Z`, then `0-9`, `@`, `$` (for sides up to 64), as text.
fn is_candidate_text(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '@' || c == '$')
}

/// The letter a value is, `A` (or `a`) being 0: text holding one ASCII
/// letter, spaces trimmed.
fn letter_index(v: &Value) -> Option<u8> {
    let Value::Other(text) = v else {
        return None;
    };
    let mut chars = text
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}')
        .chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase() as u8 - b'A'),
        _ => None,
    }
}

/// For a value that is one letter: whether it is lower case.
fn letter_case(v: &Value) -> Option<bool> {
    letter_index(v)?;
    let Value::Other(text) = v else {
        return None;
    };
    Some(text.chars().any(|c| c.is_ascii_lowercase()))
}

/// True for a blank written as something: `0`, `.`, or pencil marks (in a
/// grid of side 9 or less: two or more digits `1..=side` in increasing
/// order, together as in `23` or `123`, or separated by spaces or commas;
/// in a larger grid `12` may be a digit, so there are no marks).
fn is_blank_mark(v: &Value, side: usize) -> bool {
    let text = match v {
        Value::Whole(0, _) => return true,
        Value::Whole(_, text) | Value::Other(text) => text,
        Value::Empty => return false,
    };
    let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
    if text == "." {
        return true;
    }
    if side > 9 {
        return false;
    }
    let is_separator = |c: char| c.is_whitespace() || c == '\u{a0}' || c == ',';
    let marks: Vec<char> = text.chars().filter(|&c| !is_separator(c)).collect();
    let top = char::from(b'0' + side as u8);
    marks.len() >= 2
        && marks.iter().all(|&c| ('1'..=top).contains(&c))
        && marks.windows(2).all(|w| w[0] < w[1])
}

/// The cell a grid position holds, given its value, whether it is an
/// earlier run's writing (recorded in the copy and still blue italic) and
/// the grid's alphabet.
fn grid_cell(value: Value, earlier: bool, side: usize, symbols: Symbols) -> Cell {
    if let Some(d) = symbols.digit(&value, side) {
        return if earlier {
            Cell::Filled(d)
        } else {
            Cell::Given(d)
        };
    }
    match value {
        Value::Empty => Cell::Blank,
        Value::Other(text) if earlier && is_candidate_text(&text) => Cell::FilledText(text),
        v if is_blank_mark(&v, side) => match v {
            Value::Whole(_, text) | Value::Other(text) => Cell::Marked(text),
            Value::Empty => Cell::Blank,
        },
        Value::Whole(_, text) | Value::Other(text) => Cell::Bad(text),
    }
}

/// The values of a square in reading order with their addresses; cells in
/// blue italics (an earlier run's writing) read as empty.
fn square_values(sheet: &reader::RawSheet, range: CellRange) -> Vec<(CellRef, Value)> {
    let mut values = Vec::with_capacity((range.rows() * range.cols()) as usize);
    for r in range.start.row..=range.end.row {
        for c in range.start.col..=range.end.col {
            let value = if sheet.earlier.contains(&(r, c)) {
                Value::Empty
            } else if let Some(reader::Unread::Formula(f)) = sheet.unread.get(&(r, c)) {
                // A formula without a value is most likely a given whose
                // value is not known yet: it counts as a digit.
                Value::Whole(1, f.clone())
            } else {
                classify(sheet.values.get_value((r, c)))
            };
            values.push((CellRef::new(r, c), value));
        }
    }
    values
}

/// What the puzzle test counts in a square.
struct Tally {
    symbols: Symbols,
    /// Some value is a letter digit, and every such one is lower case.
    lowercase: bool,
    /// Digits of the grid's alphabet.
    digits: usize,
    /// Values that are neither digits nor blank marks, with their cells.
    others: Vec<(CellRef, String)>,
}

fn tally(values: &[(CellRef, Value)], side: usize) -> Tally {
    let symbols = Symbols::of(values.iter().map(|(_, v)| v), side);
    let mut t = Tally {
        symbols,
        lowercase: false,
        digits: 0,
        others: Vec::new(),
    };
    let (mut lower, mut upper) = (false, false);
    let mut pairs: Vec<(CellRef, String)> = Vec::new();
    for (at, v) in values {
        match v {
            Value::Empty => {}
            v if symbols.digit(v, side).is_some() => {
                t.digits += 1;
                match letter_case(v) {
                    Some(true) => lower = true,
                    Some(false) => upper = true,
                    None => {}
                }
            }
            Value::Whole(n, text) if (10..100).contains(n) && is_blank_mark(v, side) => {
                pairs.push((*at, text.clone()));
            }
            v if is_blank_mark(v, side) => {}
            Value::Whole(_, text) | Value::Other(text) => t.others.push((*at, text.clone())),
        }
    }
    // Two digits together (`12`) are pencil marks, unless the square also
    // holds numbers above its side that are none (`10`): then they are
    // more likely the values of a larger grid, and count against this one.
    if t.others
        .iter()
        .any(|(_, text)| text.trim().parse::<i64>().is_ok_and(|n| n > side as i64))
    {
        t.others.extend(pairs);
        t.others.sort_by_key(|(at, _)| (at.row, at.col));
    }
    t.lowercase = lower && !upper;
    t
}

/// True for a value that is empty or may be a digit in some alphabet of
/// the side (a whole `0..=side` or a letter).
fn maybe_digit(v: &Value, side: usize) -> bool {
    match v {
        Value::Empty => true,
        Value::Whole(n, _) => (0..=side as i64).contains(n),
        Value::Other(_) => letter_index(v).is_some(),
    }
}

/// The puzzle test for a candidate square (see the module docs): `None`
/// when its values cannot be a puzzle, else a score for comparing squares
/// that overlap: digits count one, anything else minus two; blanks and
/// blank marks (`0`, `.`, pencil marks) count nothing.
fn judge_values(sheet: &reader::RawSheet, range: CellRange, side: usize) -> Option<i64> {
    // A quick look first: values that are no digit in any alphabet and no
    // blank mark; more than a quarter of the square of them ends the test
    // early (a large table of words or amounts).
    let mut certain_others = 0usize;
    for r in range.start.row..=range.end.row {
        for c in range.start.col..=range.end.col {
            if sheet.earlier.contains(&(r, c)) {
                continue;
            }
            if let Some(reader::Unread::Formula(_)) = sheet.unread.get(&(r, c)) {
                continue; // most likely a given whose value is not known yet
            }
            let v = classify(sheet.values.get_value((r, c)));
            if !maybe_digit(&v, side) && !is_blank_mark(&v, side) {
                certain_others += 1;
                if certain_others * 4 > side * side {
                    return None;
                }
            }
        }
    }
    let t = tally(&square_values(sheet, range), side);
    let others = t.others.len();
    if t.digits == 0 || others * 4 > t.digits + others {
        return None;
    }
    if plausible::not_a_puzzle(sheet, range, side).is_some() {
        return None;
    }
    Some(t.digits as i64 - 2 * others as i64)
}

/// True when a row or column of cells beside a grid of side `side` holds
/// labels rather than puzzle cells: every cell filled, and either the
/// numbers `1..=side` in order (coordinates) or at most a quarter of them
/// digits of the grid (letters `A`-`I`, words, row or column sums). Reads
/// the cells one by one and stops as soon as the answer is no.
fn is_label_strip(sheet: &reader::RawSheet, strip: CellRange, side: usize) -> bool {
    let len = (strip.rows() * strip.cols()) as usize;
    let (mut in_order, mut digits) = (true, 0usize);
    let mut k = 0i64;
    for r in strip.start.row..=strip.end.row {
        for c in strip.start.col..=strip.end.col {
            k += 1;
            if sheet.earlier.contains(&(r, c)) {
                return false;
            }
            let v = classify(sheet.values.get_value((r, c)));
            match &v {
                Value::Empty => return false,
                Value::Whole(n, _) => {
                    in_order &= *n == k;
                    // Letters and words are labels; numbers of the grid's
                    // range are its digits unless they count 1, 2, 3, ….
                    if (1..=side as i64).contains(n) {
                        digits += 1;
                    }
                }
                Value::Other(_) => in_order = false,
            }
            if !in_order && digits * 4 > len {
                return false;
            }
        }
    }
    true
}

/// The test for a square with labels beside it (see
/// [`detect::detect_all`]): its values are a clean puzzle (digits, blanks
/// and blank marks only, no clash) and every strip beside it holds labels.
fn judge_labelled(
    sheet: &reader::RawSheet,
    inner: CellRange,
    strips: &[CellRange],
    side: usize,
) -> Option<i64> {
    if !strips.iter().all(|s| is_label_strip(sheet, *s, side)) {
        return None;
    }
    // The first value that is no digit in any alphabet and no blank mark
    // ends the test (a table of words or amounts with a header row).
    for r in inner.start.row..=inner.end.row {
        for c in inner.start.col..=inner.end.col {
            if sheet.earlier.contains(&(r, c)) {
                continue;
            }
            let v = classify(sheet.values.get_value((r, c)));
            if !maybe_digit(&v, side) && !is_blank_mark(&v, side) {
                return None;
            }
        }
    }
    let t = tally(&square_values(sheet, inner), side);
    if t.digits == 0 || !t.others.is_empty() {
        return None;
    }
    if plausible::not_a_puzzle(sheet, inner, side).is_some() {
        return None;
    }
    // A puzzle's givens do not clash (a table of small numbers does).
    let shape = BoxShape::for_side(side)?;
    let cells = read_grid(sheet, inner, shape).2;
    let digits: Vec<u8> = cells.iter().map(Cell::given).collect();
    let grid = Grid::from_cells(shape, digits).ok()?;
    grid.conflicts().is_empty().then_some(t.digits as i64)
}

/// Why the values of a square turned down by [`judge_values`] are no
/// puzzle, naming the first cells that are not digits.
fn why_not_a_puzzle(sheet: &reader::RawSheet, range: CellRange, side: usize) -> String {
    let t = tally(&square_values(sheet, range), side);
    let alphabet = t.symbols.describe(side);
    if t.digits == 0 && t.others.is_empty() {
        return "it is empty (or holds only blank marks)".to_string();
    }
    let filled = t.digits + t.others.len();
    if t.digits > 0 && t.others.len() * 4 <= filled {
        if let Some(reason) = plausible::not_a_puzzle(sheet, range, side) {
            return reason;
        }
    }
    let shown: Vec<String> = t
        .others
        .iter()
        .take(3)
        .map(|(at, text)| format!("{at} holds \"{text}\""))
        .collect();
    let more = if t.others.len() > shown.len() {
        ", …"
    } else {
        ""
    };
    if t.digits == 0 {
        format!(
            "none of its {filled} filled cells holds a digit {alphabet} ({}{more})",
            shown.join(", ")
        )
    } else {
        format!(
            "{} of {filled} filled cells are not digits {alphabet}, more than a quarter ({}{more})",
            t.others.len(),
            shown.join(", ")
        )
    }
}

/// True when `at` holds the note an earlier run recorded writing there,
/// still reading as one (a status word and a colon, as every note
/// starts). Its font does not count: a note restyled since is still the
/// run's (not a cell to write a second note under), and text a person
/// typed over it, which keeps the note's blue italics, is theirs.
fn is_earlier_note(sheet: &reader::RawSheet, recorded: &Recorded, at: CellRef) -> bool {
    let key = (at.row, at.col);
    recorded.notes.contains_key(&key)
        && matches!(sheet.values.get_value(key), Some(Data::String(s)) if reads_as_note(s))
}

/// Whether `text` starts as every note does: a status word, then `:`, a
/// space (as notes of earlier versions did: `solved iiii 0.41 ms`) or
/// nothing more.
fn reads_as_note(text: &str) -> bool {
    crate::solve::Status::ALL.iter().any(|s| {
        text.strip_prefix(s.note_word())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([':', ' ']))
    })
}

/// The cell holding this grid's note from an earlier run, when the
/// record names one and it is still as that run wrote it.
fn earlier_note_of(
    sheet: &reader::RawSheet,
    recorded: &Recorded,
    range: CellRange,
) -> Option<CellRef> {
    recorded
        .notes
        .iter()
        .filter(|(_, grid)| **grid == range)
        .map(|(&(row, col), _)| CellRef::new(row, col))
        .find(|&at| is_earlier_note(sheet, recorded, at))
}

/// The rows of one column under merged ranges: sorted, disjoint
/// intervals, so that a long scan down the column stays fast whatever the
/// number of merges.
struct MergedRows(Vec<(u32, u32)>);

impl MergedRows {
    fn of(sheet: &reader::RawSheet, col: u32) -> Self {
        let mut spans: Vec<(u32, u32)> = sheet
            .merges
            .iter()
            .filter(|m| m.start != m.end && m.start.col <= col && col <= m.end.col)
            .map(|m| (m.start.row, m.end.row))
            .collect();
        spans.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(spans.len());
        for (lo, hi) in spans {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        MergedRows(out)
    }

    fn contains(&self, row: u32) -> bool {
        let i = self.0.partition_point(|&(_, hi)| hi < row);
        self.0.get(i).is_some_and(|&(lo, _)| lo <= row)
    }
}

/// Whether the note may go into `at`: an empty cell (a formula is never
/// empty), in a visible row, under no merged range (`merged`: those of
/// its column) and in no grid.
fn note_fits(
    sheet: &reader::RawSheet,
    at: CellRef,
    taken: &[CellRange],
    merged: &MergedRows,
) -> bool {
    let (row, col) = (at.row, at.col);
    classify(sheet.values.get_value((row, col))) == Value::Empty
        && !sheet.formulas.contains(&(row, col))
        && !sheet.hidden_rows.contains(&row)
        && !merged.contains(row)
        && !taken.iter().any(|t| t.contains(at))
}

/// The column the note of the grid at `range` goes in: the grid's first
/// visible column; when every column of the grid is hidden, the first
/// visible one after it (else before it), so the note is never hidden.
fn note_column(sheet: &reader::RawSheet, range: CellRange) -> u32 {
    let visible = |c: &u32| {
        !sheet
            .hidden_cols
            .iter()
            .any(|&(lo, hi)| (lo..=hi).contains(c))
    };
    (range.start.col..=range.end.col)
        .find(visible)
        .or_else(|| (range.end.col + 1..=crate::address::MAX_COL).find(visible))
        .or_else(|| (0..range.start.col).rev().find(visible))
        .unwrap_or(range.start.col)
}

/// The note's cell between the grid at `range` and whatever grid comes
/// next below it in its columns: the first cell that fits (see
/// [`note_fits`]) in the note column; `None` when there is none.
fn note_near(sheet: &reader::RawSheet, range: CellRange, taken: &[CellRange]) -> Option<CellRef> {
    let col = note_column(sheet, range);
    let next = taken
        .iter()
        .filter(|t| {
            t.start.row > range.end.row
                && t.start.col <= range.end.col
                && range.start.col <= t.end.col
        })
        .map(|t| t.start.row)
        .min()
        .unwrap_or(crate::address::MAX_ROW);
    let merged = MergedRows::of(sheet, col);
    (range.end.row + 1..next)
        .map(|row| CellRef::new(row, col))
        .find(|&at| note_fits(sheet, at, taken, &merged))
}

/// The note's cell when there is no room next to the grid: the first cell
/// that fits further down the note column, past the grids below and the
/// other notes.
fn note_apart(
    sheet: &reader::RawSheet,
    range: CellRange,
    taken: &[CellRange],
    notes: &[CellRef],
) -> CellRef {
    let col = note_column(sheet, range);
    let merged = MergedRows::of(sheet, col);
    (range.end.row + 1..=crate::address::MAX_ROW)
        .map(|row| CellRef::new(row, col))
        .find(|at| !notes.contains(at) && note_fits(sheet, *at, taken, &merged))
        .or_else(|| note_above(sheet, range, taken, notes))
        .unwrap_or(range.start)
}

/// The note's cell for a grid with no free row below it (a grid in the
/// sheet's last rows): the first free cell above the grid's note column,
/// else the first right of its first row.
fn note_above(
    sheet: &reader::RawSheet,
    range: CellRange,
    taken: &[CellRange],
    notes: &[CellRef],
) -> Option<CellRef> {
    let col = note_column(sheet, range);
    let merged = MergedRows::of(sheet, col);
    (0..range.start.row)
        .rev()
        .map(|row| CellRef::new(row, col))
        .find(|at| !notes.contains(at) && note_fits(sheet, *at, taken, &merged))
        .or_else(|| {
            (range.end.col + 1..=crate::address::MAX_COL)
                .map(|c| CellRef::new(range.start.row, c))
                .find(|at| {
                    !notes.contains(at)
                        && note_fits(sheet, *at, taken, &MergedRows::of(sheet, at.col))
                })
        })
}

/// A grid's alphabet, whether its letters are lower case, and its cells.
fn read_grid(
    sheet: &reader::RawSheet,
    range: CellRange,
    shape: BoxShape,
) -> (Symbols, bool, Vec<Cell>) {
    let side = shape.side();
    let Tally {
        symbols, lowercase, ..
    } = tally(&square_values(sheet, range), side);
    let mut cells = Vec::with_capacity(side * side);
    for r in range.start.row..=range.end.row {
        for c in range.start.col..=range.end.col {
            let raw = sheet.values.get_value((r, c));
            let earlier = sheet.earlier.contains(&(r, c));
            cells.push(match (sheet.unread.get(&(r, c)), raw) {
                (Some(reader::Unread::Formula(f)), _) => Cell::Formula(f.clone()),
                (Some(reader::Unread::Value(v)), _) => Cell::Bad(v.clone()),
                (None, raw) => match raw {
                    Some(Data::String(text)) if earlier && is_candidate_text(text) => {
                        Cell::FilledText(text.clone())
                    }
                    _ => grid_cell(classify(raw), earlier, side, symbols),
                },
            });
        }
    }
    (symbols, lowercase, cells)
}

/// What an answer copy must keep clear of on one sheet.
struct Around<'a> {
    sheet: &'a reader::RawSheet,
    recorded: &'a Recorded,
    /// The grids found.
    taken: &'a [CellRange],
    /// The notes' cells.
    notes: &'a [CellRef],
    /// The answer copies of the grids placed before.
    blocks: &'a [CellRange],
    /// This grid's earlier answer copy, free to write over.
    own: Option<CellRange>,
    /// The grid whose copy is placed.
    grid: CellRange,
}

impl Around<'_> {
    /// What keeps `at` from taking an answer; `None` when it is free.
    fn occupant(&self, at: CellRef) -> Option<String> {
        let key = (at.row, at.col);
        if let Some(g) = self.taken.iter().find(|g| g.contains(at)) {
            return Some(format!("is in the grid {g}"));
        }
        if self.blocks.iter().any(|b| b.contains(at)) {
            return Some("is in another grid's answer square".to_string());
        }
        if self.notes.contains(&at) {
            return Some("holds a grid's note".to_string());
        }
        if let Some(m) = self
            .sheet
            .merges
            .iter()
            .find(|m| m.start != m.end && m.contains(at))
        {
            return Some(format!("is in the merged cells {m}"));
        }
        if self.own.is_some_and(|o| o.contains(at)) {
            return None;
        }
        if let Some((grid, a)) = self
            .recorded
            .answers
            .iter()
            .find(|(_, a)| a.range.contains(at))
        {
            return match self.grid == *grid {
                // This grid's copy, changed since: its cells still as
                // written are no obstacle, the changed ones are.
                true if as_written(self.sheet, a, at) => None,
                true => Some("was changed since xlsudoku wrote this grid's answers".to_string()),
                false => Some("is in another grid's answer square".to_string()),
            };
        }
        if self.sheet.formulas.contains(&key) {
            return Some("holds a formula".to_string());
        }
        if self.sheet.unread.contains_key(&key)
            || classify(self.sheet.values.get_value(key)) != Value::Empty
        {
            return Some("holds a value".to_string());
        }
        None
    }

    /// The first cell of `range` (reading order) that is not free.
    fn first_occupied(&self, range: CellRange) -> Option<(CellRef, String)> {
        (range.start.row..=range.end.row)
            .flat_map(|r| (range.start.col..=range.end.col).map(move |c| CellRef::new(r, c)))
            .find_map(|at| self.occupant(at).map(|what| (at, what)))
    }
}

/// The square of a grid's side from `start`, when it fits on the sheet.
fn square_from(start: CellRef, side: u32) -> Option<CellRange> {
    let end_row = start.row.checked_add(side - 1)?;
    let end_col = start.col.checked_add(side - 1)?;
    (end_row <= crate::address::MAX_ROW && end_col <= crate::address::MAX_COL)
        .then(|| CellRange::square(start, side))
}

/// Where the answer copy of the grid at `range` goes in mode `mode`
/// (`beside`: where the grid's earlier copy is, if it has one).
fn answer_place(
    around: &Around<'_>,
    range: CellRange,
    mode: crate::answers::Answers,
) -> AnswerPlace {
    use crate::answers::Answers;
    let side = range.rows();
    let try_at = |start: CellRef| match square_from(start, side) {
        None => AnswerPlace::OffSheet { start },
        Some(square) => match around.first_occupied(square) {
            None => AnswerPlace::At(square),
            Some((cell, what)) => AnswerPlace::Occupied {
                range: square,
                cell,
                what,
            },
        },
    };
    match mode {
        Answers::InGrid => AnswerPlace::InGrid,
        Answers::Sheet => AnswerPlace::Sheet,
        Answers::At(start) => try_at(start),
        Answers::Beside => {
            // Where an earlier run put it (a copy changed since is then
            // refused, not written beside again).
            if let Some((_, a)) = around.recorded.answers.iter().find(|(g, _)| *g == range) {
                return try_at(a.range.start);
            }
            // Right, one empty column between; else below, one row left
            // for the note.
            let right = try_at(CellRef::new(
                range.start.row,
                range.end.col.saturating_add(2),
            ));
            if matches!(right, AnswerPlace::At(_)) {
                return right;
            }
            match try_at(CellRef::new(
                range.end.row.saturating_add(2),
                range.start.col,
            )) {
                below @ AnswerPlace::At(_) => below,
                below => AnswerPlace::NotBeside {
                    right: Box::new(right),
                    below: Box::new(below),
                },
            }
        }
    }
}

fn find_grids(sheet: &reader::RawSheet, opts: &ReadOptions, recorded: &Recorded) -> Sheet {
    let (detected, turned_down): (Vec<(CellRange, BoxShape)>, Vec<CellRange>) = match opts.range {
        Some(range) => {
            // The shape was checked before reading. The square is this
            // sheet's grid when its values can be a puzzle, so that a range
            // meant for one sheet leaves the workbook's other sheets alone.
            let side = range.rows() as usize;
            let shape = opts.shape.or_else(|| BoxShape::for_side(side));
            match shape {
                Some(s) if judge_values(sheet, range, side).is_some() => {
                    (vec![(range, s)], Vec::new())
                }
                Some(_) => (Vec::new(), vec![range]),
                None => (Vec::new(), Vec::new()),
            }
        }
        None => {
            let found = sheet.detect(
                opts.shape,
                |range, side| judge_values(sheet, range, side),
                |inner, strips, side| judge_labelled(sheet, inner, strips, side),
            );
            (
                found.grids.iter().map(|d| (d.range, d.shape)).collect(),
                found.turned_down,
            )
        }
    };
    // An earlier run's answer copies are no puzzles.
    let mut detected: Vec<(CellRange, BoxShape)> = detected
        .into_iter()
        .filter(|(range, _)| !recorded.answers.iter().any(|(_, a)| a.range == *range))
        .collect();
    let mut named: Vec<TurnedDown> = Vec::new();
    if detected.is_empty() && opts.range.is_none() {
        // No bordered grid: a block of values shaped like a puzzle is one,
        // or is named with the range to ask for it.
        for found in borderless::find(sheet, opts.shape) {
            match found {
                borderless::Found::Grid(range, shape) => detected.push((range, shape)),
                borderless::Found::Hint(range) if named.len() < TURNED_DOWN_NAMED => {
                    let side = range.rows();
                    named.push(TurnedDown {
                        range,
                        reason: format!(
                            "the digits at {range} look like a {side}×{side} puzzle: --range {range}"
                        ),
                        bordered: false,
                    });
                }
                borderless::Found::Hint(_) => {}
            }
        }
        detected.retain(|(range, _)| !recorded.answers.iter().any(|(_, a)| a.range == *range));
        if !detected.is_empty() {
            named.clear();
        }
    }
    if detected.is_empty() {
        // The first few, each apart from those named before it (the rows
        // of one long table are one square, not one per row).
        for range in turned_down {
            if named.len() == TURNED_DOWN_NAMED {
                break;
            }
            if named.iter().any(|t| overlaps(&t.range, &range)) {
                continue;
            }
            named.push(TurnedDown {
                range,
                reason: why_not_a_puzzle(sheet, range, range.rows() as usize),
                bordered: true,
            });
        }
    }
    let taken: Vec<CellRange> = detected.iter().map(|d| d.0).collect();
    // Notes: an earlier run's note of the grid where it is; else the first
    // free cell below the grid, before the next grid; else (no room there)
    // further down, and the note names its grid.
    let mut places: Vec<Option<(CellRef, bool, bool)>> = taken
        .iter()
        .map(|&range| {
            earlier_note_of(sheet, recorded, range)
                .map(|at| (at, true, false))
                .or_else(|| note_near(sheet, range, &taken).map(|at| (at, false, false)))
        })
        .collect();
    for i in 0..places.len() {
        if places[i].is_none() {
            let notes: Vec<CellRef> = places.iter().flatten().map(|p| p.0).collect();
            places[i] = Some((note_apart(sheet, taken[i], &taken, &notes), false, true));
        }
    }
    let notes: Vec<CellRef> = places.iter().flatten().map(|p| p.0).collect();
    let mut blocks: Vec<CellRange> = Vec::new();
    let grids = detected
        .into_iter()
        .zip(places)
        .map(|((range, shape), place)| {
            let (note_at, earlier_note, note_apart) = place.unwrap_or((
                CellRef::new(range.end.row + 1, range.start.col),
                false,
                true,
            ));
            let (symbols, lowercase, cells) = read_grid(sheet, range, shape);
            let formulas = cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    (
                        c,
                        range.cell((i / shape.side()) as u32, (i % shape.side()) as u32),
                    )
                })
                .filter(|(c, at)| {
                    matches!(c, Cell::Blank | Cell::Marked(_))
                        && sheet.formulas.contains(&(at.row, at.col))
                })
                .map(|(_, at)| at)
                .collect();
            let merged = sheet
                .merges
                .iter()
                .filter(|m| m.start != m.end && overlaps(m, &range))
                .copied()
                .collect();
            let earlier_answer = recorded.answer_of(sheet, range);
            let answer = answer_place(
                &Around {
                    sheet,
                    recorded,
                    taken: &taken,
                    notes: &notes,
                    blocks: &blocks,
                    own: earlier_answer,
                    grid: range,
                },
                range,
                opts.answers,
            );
            blocks.extend(answer.range());
            FoundGrid {
                range,
                shape,
                symbols,
                lowercase,
                cells,
                note_at,
                earlier_note,
                formulas,
                merged,
                note_apart,
                answer,
                earlier_answer,
            }
        })
        .collect();
    Sheet {
        name: sheet.name.clone(),
        grids,
        turned_down: named,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_known_by_its_status_word_and_colon() {
        for note in [
            "solved: 4.65 ms · SE 1.2 · easy",
            "gave up: i!-3 ms",
            "multiple solutions: more than one (1 ms)",
            "timeout: (5 s)",
            "solved",
            // As notes of earlier versions read.
            "solved iiiiiiii 0.41 ms rating 1.2",
        ] {
            assert!(reads_as_note(note), "{note}");
        }
        for other in [
            "checked by Ann",
            "solved!",
            "Solved: x",
            "solvedx: 1 ms",
            "",
        ] {
            assert!(!reads_as_note(other), "{other}");
        }
    }

    #[test]
    fn values_classify_numbers_and_text() {
        assert_eq!(
            classify(Some(&Data::Float(5.0))),
            Value::Whole(5, "5".into())
        );
        assert_eq!(
            classify(Some(&Data::Float(3.5))),
            Value::Other("3.5".into())
        );
        assert_eq!(
            classify(Some(&Data::String("\u{a0} 7 ".into()))),
            Value::Whole(7, "\u{a0} 7 ".into())
        );
        assert_eq!(classify(Some(&Data::String("  ".into()))), Value::Empty);
        assert_eq!(
            classify(Some(&Data::String("5.0".into()))),
            Value::Whole(5, "5.0".into())
        );
        assert_eq!(
            classify(Some(&Data::String("inf".into()))),
            Value::Other("inf".into())
        );
        assert_eq!(
            classify(Some(&Data::String("x".into()))),
            Value::Other("x".into())
        );
        assert_eq!(
            classify(Some(&Data::Bool(true))),
            Value::Other("TRUE".into())
        );
        assert_eq!(classify(None), Value::Empty);
    }

    #[test]
    fn candidate_text_covers_the_letters_of_large_grids() {
        assert!(is_candidate_text("abi"));
        assert!(is_candidate_text("AZ09@$"));
        assert!(!is_candidate_text(""));
        assert!(!is_candidate_text("a b"));
        assert!(!is_candidate_text("solved: 1 ms"));
    }

    #[test]
    fn grid_cells_by_side_and_font() {
        let v = |n: i64| Value::Whole(n, n.to_string());
        assert_eq!(grid_cell(v(9), false, 9, Symbols::Numbers), Cell::Given(9));
        assert_eq!(
            grid_cell(v(12), false, 9, Symbols::Numbers),
            Cell::Marked("12".into())
        );
        assert_eq!(
            grid_cell(v(21), false, 9, Symbols::Numbers),
            Cell::Bad("21".into())
        );
        assert_eq!(
            grid_cell(v(12), false, 16, Symbols::Numbers),
            Cell::Given(12)
        );
        // `0` is a blank written as a digit, not a bad value.
        assert_eq!(
            grid_cell(v(0), false, 9, Symbols::Numbers),
            Cell::Marked("0".into())
        );
        assert_eq!(grid_cell(v(4), true, 9, Symbols::Numbers), Cell::Filled(4));
        assert_eq!(
            grid_cell(Value::Other("abd".into()), true, 9, Symbols::Numbers),
            Cell::FilledText("abd".into())
        );
        assert_eq!(
            grid_cell(Value::Other("x".into()), false, 9, Symbols::Numbers),
            Cell::Bad("x".into())
        );
        assert_eq!(
            grid_cell(Value::Empty, true, 9, Symbols::Numbers),
            Cell::Blank
        );
    }

    fn text(t: &str) -> Value {
        classify(Some(&Data::String(t.into())))
    }

    #[test]
    fn blanks_written_as_zero_dot_or_pencil_marks() {
        let cell = |v: Value| grid_cell(v, false, 9, Symbols::Numbers);
        let marked = |t: &str| Cell::Marked(t.into());
        assert_eq!(cell(classify(Some(&Data::Float(0.0)))), marked("0"));
        assert_eq!(cell(text(" . ")), marked(" . "));
        assert_eq!(cell(text("0")), marked("0"));
        for marks in ["123", "1 2 3", "1,2,3", "2\n5 9", "1 9", "1, 2"] {
            assert_eq!(cell(text(marks)), marked(marks), "{marks:?}");
        }
        // Two or more increasing digits together are marks (numbers or
        // text alike).
        assert_eq!(cell(classify(Some(&Data::Float(123.0)))), marked("123"));
        assert_eq!(cell(classify(Some(&Data::Int(12)))), marked("12"));
        assert_eq!(cell(text("23")), marked("23"));
        // Not increasing, repeated, out of range, other characters: bad.
        for bad in [
            "21", "2 1", "1 1", "11", "10", "1a", "1-3", "..", "-", "1 0",
        ] {
            assert_eq!(cell(text(bad)), Cell::Bad(bad.into()), "{bad:?}");
        }
        // Pencil marks only up to side 9: in a 16x16 "12" is a digit.
        assert_eq!(
            grid_cell(text("12"), false, 16, Symbols::Numbers),
            Cell::Given(12)
        );
        assert_eq!(
            grid_cell(text("1 2"), false, 16, Symbols::Numbers),
            Cell::Bad("1 2".into())
        );
        // Letters in a 9x9 stay bad.
        assert_eq!(cell(text("A")), Cell::Bad("A".into()));
    }

    fn symbols_of(values: &[Value], side: usize) -> Symbols {
        Symbols::of(values.iter(), side)
    }

    #[test]
    fn letters_all_in_lower_case_make_a_lower_case_grid() {
        let lowercase = |vs: &[Value]| {
            let at: Vec<(CellRef, Value)> =
                vs.iter().map(|v| (CellRef::new(0, 0), v.clone())).collect();
            tally(&at, 16).lowercase
        };
        let n = |k: i64| Value::Whole(k, k.to_string());
        assert!(lowercase(&[n(1), text("a"), text("g")]));
        assert!(lowercase(&[n(0), text("f"), text(" b ")]));
        assert!(!lowercase(&[n(1), text("a"), text("G")]), "mixed: upper");
        assert!(!lowercase(&[n(1), text("A")]));
        assert!(!lowercase(&[n(1), n(9)]), "no letters");
        // A letter that is not a digit of the alphabet does not count.
        assert!(lowercase(&[n(1), text("a"), text("Z")]));
    }

    #[test]
    fn alphabet_is_decided_per_grid_from_its_symbols() {
        let n = |k: i64| Value::Whole(k, k.to_string());
        let (a, f, g) = (text("A"), text("f"), text("G"));
        use Symbols::*;
        assert_eq!(symbols_of(&[n(1), n(16)], 16), Numbers);
        assert_eq!(symbols_of(&[n(1), a.clone()], 16), DigitsThenLetters);
        assert_eq!(symbols_of(&[n(1), g.clone()], 16), DigitsThenLetters);
        assert_eq!(symbols_of(&[n(0), f.clone()], 16), ZeroThenLetters);
        // `0` with a `G`: letters go on after 9 and `0` is a blank.
        assert_eq!(
            symbols_of(&[n(0), f.clone(), g.clone()], 16),
            DigitsThenLetters
        );
        // `0` with a number above 9: not the 0-based alphabet.
        assert_eq!(symbols_of(&[n(0), n(12), a.clone()], 16), DigitsThenLetters);
        // Without letters `0` is a blank in numbers.
        assert_eq!(symbols_of(&[n(0), n(5)], 16), Numbers);
        // Letters beyond reach, or in a 9x9: numbers (the letters are bad).
        assert_eq!(symbols_of(&[n(1), text("Z")], 16), Numbers);
        assert_eq!(
            symbols_of(&[n(1), a.clone(), text("Z")], 16),
            DigitsThenLetters
        );
        assert_eq!(
            symbols_of(&[n(0), a.clone(), text("Z")], 16),
            ZeroThenLetters
        );
        assert_eq!(symbols_of(&[n(0), a.clone()], 9), Numbers);
        // 12x12: `1`-`9`, `A`-`C`; 25x25: `1`-`9`, `A`-`P`.
        assert_eq!(symbols_of(&[text("C")], 12), DigitsThenLetters);
        assert_eq!(symbols_of(&[text("P")], 25), DigitsThenLetters);

        let cell = |v: &Value, s: Symbols| grid_cell(v.clone(), false, 16, s);
        assert_eq!(cell(&g, DigitsThenLetters), Cell::Given(16));
        assert_eq!(cell(&a, DigitsThenLetters), Cell::Given(10));
        assert_eq!(cell(&n(0), DigitsThenLetters), Cell::Marked("0".into()));
        assert_eq!(cell(&n(0), ZeroThenLetters), Cell::Given(1));
        assert_eq!(cell(&n(9), ZeroThenLetters), Cell::Given(10));
        assert_eq!(cell(&f, ZeroThenLetters), Cell::Given(16));
        assert_eq!(cell(&g, ZeroThenLetters), Cell::Bad("G".into()));
        assert_eq!(cell(&n(12), ZeroThenLetters), Cell::Bad("12".into()));
        assert_eq!(DigitsThenLetters.describe(16), "1-9, A-G");
        assert_eq!(ZeroThenLetters.describe(16), "0-9, A-F");
        assert_eq!(Numbers.describe(9), "1-9");
        assert_eq!(DigitsThenLetters.describe(10), "1-9, A");
        for d in 1..=16 {
            for s in [Numbers, DigitsThenLetters, ZeroThenLetters] {
                let shown = match s.symbol(d) {
                    Symbol::Number(k) => n(i64::from(k)),
                    Symbol::Letter(c) => text(&c.to_string()),
                };
                assert_eq!(s.digit(&shown, 16), Some(d), "{s:?} {d}");
            }
        }
    }

    fn found(cells: Vec<Cell>) -> FoundGrid {
        FoundGrid {
            range: "B2:E5".parse().unwrap(),
            shape: BoxShape::new(2, 2).unwrap(),
            symbols: Symbols::Numbers,
            lowercase: false,
            cells,
            note_at: CellRef::new(5, 1),
            earlier_note: false,
            formulas: Vec::new(),
            merged: Vec::new(),
            note_apart: false,
            answer: AnswerPlace::InGrid,
            earlier_answer: None,
        }
    }

    #[test]
    fn puzzle_keeps_givens_only_and_bad_cells_have_addresses() {
        let mut cells = vec![Cell::Blank; 16];
        cells[0] = Cell::Given(1);
        cells[5] = Cell::Filled(3);
        cells[6] = Cell::Bad("x".into());
        cells[15] = Cell::Given(4);
        let g = found(cells);
        assert_eq!(g.puzzle().to_line(), "1..............4");
        assert_eq!(g.bad_cells(), vec![(CellRef::new(2, 3), "x".to_string())]);
        assert_eq!(g.cell_ref(15).to_string(), "E5");
    }

    #[test]
    fn merged_rows_of_a_column_are_joined_and_found() {
        let m = MergedRows(vec![(2, 4), (9, 9)]);
        assert!(!m.contains(1) && m.contains(2) && m.contains(4) && !m.contains(5));
        assert!(m.contains(9) && !m.contains(10));
        assert!(!MergedRows(Vec::new()).contains(0));
    }

    #[test]
    fn forced_range_must_be_a_square_with_a_shape() {
        let p = Path::new("t.xlsx");
        let r = |s: &str| s.parse::<CellRange>().unwrap();
        assert!(check_range(p, r("C3:K11"), None).is_ok());
        assert!(matches!(
            check_range(p, r("C3:K10"), None),
            Err(ReadError::BadRange { .. })
        ));
        assert!(check_range(p, r("A1:G7"), None).is_err());
        let six = BoxShape::new(2, 3).unwrap();
        assert_eq!(check_range(p, r("A1:F6"), Some(six)).unwrap(), six);
        assert!(check_range(p, r("A1:I9"), Some(six)).is_err());
        let msg = check_range(p, r("A1:G7"), None).unwrap_err().to_string();
        assert!(msg.contains("t.xlsx") && msg.contains("A1:G7"), "{msg}");
    }
}
