//! Solving paths in words: every step of the technique ladder
//! ([`crate::logic`]) as a sentence that names cells, lines and digits the
//! way the reader sees them.
//!
//! A grid read from a workbook is named with the sheet's own addresses: a
//! grid at `C3:K11` has its first cell at `C3`, its lines are the sheet's
//! `row 7` and `column E`, and its digits are written in the grid's own
//! alphabet ([`Symbols`](crate::workbook::Symbols): a 16x16 written `0`-`9`, `A`-`F` says `F`, not
//! 16). A one-line text puzzle has no sheet: its cells are `r5c7` (row 5,
//! column 7, counted from 1), its lines `row 5` and `column 7`, its digits
//! as the text form writes them (`1`-`9`, then `A` for 10 ...). Boxes are
//! `box 1` to `box N`, row by row, in both.
//!
//! ```
//! use xlsudoku::address::CellRef;
//! use xlsudoku::explain::{explain_puzzle, AddressMap};
//! use xlsudoku::grid::{BoxShape, Grid, Unit};
//! use xlsudoku::solve::SolveOptions;
//! use xlsudoku::workbook::Symbols;
//!
//! let shape = BoxShape::new(3, 3).unwrap();
//! let sheet = AddressMap::sheet(CellRef::new(2, 2), shape, Symbols::Numbers);
//! assert_eq!(sheet.cell(0), "C3");
//! assert_eq!(sheet.unit(Unit::Row(4)), "row 7");
//! assert_eq!(sheet.unit(Unit::Col(2)), "column E");
//! assert_eq!(AddressMap::puzzle(shape).cell(4 * 9 + 6), "r5c7");
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let explained = explain_puzzle(&puzzle, &SolveOptions::default());
//! assert!(explained.passes());
//! // Singles only: one step per blank, each placing a digit.
//! assert_eq!(explained.steps.len(), 81 - puzzle.givens());
//! assert!(explained.steps.iter().all(|s| s.placed.is_some()));
//! assert!(explained.steps[0].text.starts_with("naked single: r"));
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

mod marked;
mod pictures;
mod steps;

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

pub use crate::cell_names::AddressMap;
pub use pictures::{steps_workbook, Pictured, GAP};
pub(crate) use steps::explained_step;
pub use steps::{explain_steps, explain_steps_from, CellDigit, ExplainedNode, ExplainedStep};

use crate::grid::Grid;
use crate::logic::{Level, Step};
use crate::report::SheetStatus;
use crate::solve::{solve, Outcome, SolveOptions, Status};
use crate::workbook::{read_workbook, FoundGrid, ReadError, ReadOptions, Sheet};

/// One step in words. `candidates` are the candidates of every cell just
/// before the step (bit `d - 1` for digit `d`, 0 for a filled cell), as
/// [`explain_steps`] keeps them; with an empty slice the words leave out
/// what only the candidates tell (a wing's cell contents).
///
/// ```
/// use xlsudoku::address::CellRef;
/// use xlsudoku::explain::{describe, AddressMap};
/// use xlsudoku::grid::{BoxShape, Unit};
/// use xlsudoku::logic::{Step, Technique};
/// use xlsudoku::workbook::Symbols;
///
/// let shape = BoxShape::new(3, 3).unwrap();
/// let map = AddressMap::sheet(CellRef::new(2, 2), shape, Symbols::Numbers);
/// let step = Step {
///     technique: Technique::HiddenSingle,
///     unit: Some(Unit::Row(4)),
///     digits: vec![7],
///     cells: vec![4 * 9 + 2],
///     placed: Some((4 * 9 + 2, 7)),
///     eliminated: vec![],
///     chains: vec![],
/// };
/// assert_eq!(describe(&step, &map, &[]), "hidden single: 7 has one place in row 7 → E7");
/// ```
pub fn describe(step: &Step, map: &AddressMap, candidates: &[u64]) -> String {
    crate::logic::words::describe(step, map, candidates)
}

/// One grid explained: where it is, how solving it ended, and its steps
/// (none unless it was solved). One JSON object of `explain --json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridExplanation {
    /// The workbook (`None` for a text puzzle).
    pub file: Option<String>,
    /// The sheet's name (`None` for a text puzzle).
    pub sheet: Option<String>,
    /// The grid's cells on the sheet, e.g. `C3:K11`.
    pub range: Option<String>,
    /// The text puzzle as given (`None` for a workbook grid).
    pub puzzle: Option<String>,
    /// The grid's size, e.g. `9x9`.
    pub size: Option<String>,
    /// The box shape, e.g. `3x3`.
    #[serde(rename = "box")]
    pub box_shape: Option<String>,
    /// The grid's alphabet, as the text writes digits: `1-9`, `0-9, A-F`.
    pub symbols: Option<String>,
    /// How many givens.
    pub givens: Option<usize>,
    /// How it ended (`no-grid` for a sheet without a grid).
    pub status: SheetStatus,
    /// Sudoku Explainer's rating of a solved grid.
    #[serde(serialize_with = "crate::rounding::opt_rating")]
    pub rating: Option<f32>,
    /// Whether `rating` is exact: false for a lower bound (the SE budget
    /// ran out: `SE ≥ 9.5`; beyond 9x9, the techniques stopped short).
    /// `None` when there is no rating.
    pub rating_exact: Option<bool>,
    /// HoDoKu's level of a solved grid.
    pub level: Option<Level>,
    /// HoDoKu's score of a solved grid.
    pub score: Option<u32>,
    /// The history string (naked singles silent).
    pub history: String,
    /// Time spent solving.
    #[serde(serialize_with = "crate::rounding::millis")]
    pub elapsed_ms: f64,
    /// Why the grid has no steps: the clash, the bad cell, `more than one
    /// solution` ...
    pub error: Option<String>,
    /// The steps, in order.
    pub steps: Vec<ExplainedStep>,
    /// What the step pictures are drawn from (`explain --xlsx`): a solved
    /// grid's givens, steps and names.
    #[serde(skip)]
    pub pictured: Option<Pictured>,
}

impl GridExplanation {
    /// True when the grid was solved and its steps explained.
    pub fn passes(&self) -> bool {
        self.status == SheetStatus::Solved
    }

    /// The heading line: `Hard!C3:K11 (9x9): solved · SE 4.2 · hard`, or the
    /// status and its reason.
    pub fn heading(&self) -> String {
        let place = match (&self.sheet, &self.range) {
            (Some(s), Some(r)) => format!("{}!{r}", sheet_ref(s)),
            (Some(s), None) => sheet_ref(s),
            (None, _) => "puzzle".to_string(),
        };
        let size = self
            .size
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        let mut line = format!("{place}{size}: {}", status_words(self.status));
        if let (Some(r), Some(l)) = (self.rating, self.level) {
            line.push_str(&format!(
                " · SE {} · {l}",
                crate::logic::rating::se_text(r, self.rating_exact.unwrap_or(true))
            ));
        }
        if let Some(e) = &self.error {
            line.push_str(&format!(": {e}"));
        }
        line
    }

    /// The heading, then one numbered line per step.
    pub fn to_text(&self) -> String {
        let mut s = self.heading();
        s.push('\n');
        let width = self.steps.len().to_string().len();
        for step in &self.steps {
            s.push_str(&format!("  {:>width$}. {}\n", step.n, step.text));
        }
        s
    }

    /// The explanation as one line of JSON (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

fn status_words(s: SheetStatus) -> &'static str {
    match s {
        SheetStatus::Multiple => "multiple solutions",
        SheetStatus::NoGrid => "no grid",
        other => other.as_str(),
    }
}

/// A sheet name as a formula writes it: `Hard`, `'My puzzles'`.
fn sheet_ref(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    if plain {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\'', "''"))
    }
}

/// What is wrong with a grid, in words, with the map's names; `None` when
/// it was solved.
fn failure(outcome: &Outcome, map: &AddressMap, opts: &SolveOptions) -> Option<String> {
    match outcome.status {
        Status::Solved | Status::GaveUp => None,
        Status::Invalid => Some(conflicts(outcome, map)),
        // The outcome's grid is the puzzle.
        Status::Unsolvable => Some(crate::conflicts::unsolvable_reason(&outcome.grid, map)),
        Status::Multiple => Some(crate::conflicts::multiple_reason(&outcome.grid, map)),
        Status::Timeout => Some(format!(
            "no answer within {}",
            opts.timeout
                .map(|t| format!("{} s", t.as_secs_f64()))
                .unwrap_or_default()
        )),
    }
}

/// `5 twice in row 3 (C3, I3)`, with the map's names.
pub(crate) fn conflicts(outcome: &Outcome, map: &AddressMap) -> String {
    outcome
        .conflicts
        .iter()
        .map(|c| {
            let times = match c.cells.len() {
                2 => "twice".to_string(),
                3 => "three times".to_string(),
                n => format!("{n} times"),
            };
            format!(
                "{} {times} in {} ({})",
                map.digit(c.value),
                map.unit(c.unit),
                map.cells(&c.cells)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The explanation of `puzzle`'s outcome; its steps start from the pencil
/// marks `marks` (empty: none).
fn explanation(
    puzzle: &Grid,
    marks: &[u64],
    outcome: &Outcome,
    map: &AddressMap,
    error: Option<String>,
) -> GridExplanation {
    let solved = outcome.status == Status::Solved;
    let rating = outcome.rating.filter(|_| solved);
    let side = puzzle.side();
    GridExplanation {
        file: None,
        sheet: None,
        range: None,
        puzzle: None,
        size: Some(format!("{side}x{side}")),
        box_shape: Some(puzzle.shape().to_string()),
        symbols: Some(map.alphabet()),
        givens: Some(puzzle.givens()),
        status: outcome.status.into(),
        rating: rating.map(|r| r.se),
        level: rating.map(|r| r.level),
        score: rating.map(|r| r.score),
        rating_exact: rating.map(|r| r.se_exact),
        history: outcome.history.clone(),
        elapsed_ms: outcome.elapsed.as_secs_f64() * 1000.0,
        error,
        steps: if solved {
            explain_steps_from(puzzle, marks, &outcome.steps, map)
        } else {
            Vec::new()
        },
        pictured: solved.then(|| Pictured {
            puzzle: puzzle.clone(),
            marks: marks.to_vec(),
            steps: outcome.steps.clone(),
            map: *map,
        }),
    }
}

/// Solves a text puzzle and explains its steps (cells named `r5c7`).
pub fn explain_puzzle(puzzle: &Grid, opts: &SolveOptions) -> GridExplanation {
    let opts = SolveOptions {
        logic_only: false,
        ..opts.clone()
    };
    let map = AddressMap::puzzle(puzzle.shape());
    let outcome = solve(puzzle, &opts);
    let error = failure(&outcome, &map, &opts);
    GridExplanation {
        puzzle: Some(puzzle.to_line()),
        ..explanation(puzzle, &[], &outcome, &map, error)
    }
}

/// Solves one grid of a sheet and explains its steps with the sheet's
/// addresses. A grid with bad values, formulas without a value or merged
/// cells is invalid, as `check` says, and is not solved.
pub fn explain_grid(
    file: &str,
    sheet: &str,
    grid: &FoundGrid,
    opts: &SolveOptions,
) -> GridExplanation {
    let opts = SolveOptions {
        logic_only: false,
        ..opts.clone()
    };
    let map = AddressMap::for_grid(grid);
    let puzzle = grid.puzzle();
    let clean =
        grid.bad_cells().is_empty() && grid.formula_cells().is_empty() && grid.merged.is_empty();
    let mut outcome = if clean {
        solve(&puzzle, &opts)
    } else {
        Outcome::invalid(&puzzle)
    };
    // The steps start from the person's pencil marks, as the hint's do.
    let marks = crate::position::Position::of_grid(grid).marks;
    let marked = clean && outcome.status == Status::Solved && marks.iter().any(|&m| m != 0);
    let from_marks = if marked {
        marked::from_marks(&puzzle, &mut outcome, &marks, &map, &opts)
    } else {
        None
    };
    let error = if from_marks.is_some() {
        from_marks
    } else if clean && outcome.status == Status::Unsolvable {
        crate::position::wrong_entries_reason(grid, &map).or_else(|| failure(&outcome, &map, &opts))
    } else if clean {
        failure(&outcome, &map, &opts)
    } else {
        // The cells' own faults in `check`'s words, then the clashes named
        // with the sheet's lines.
        let cells_only = Outcome {
            conflicts: Vec::new(),
            ..outcome.clone()
        };
        let parts: Vec<String> = [
            crate::invalid::invalid_reason(grid, &cells_only),
            conflicts(&outcome, &map),
        ]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
        Some(parts.join("; "))
    };
    GridExplanation {
        file: Some(file.to_string()),
        sheet: Some(sheet.to_string()),
        range: Some(grid.range.to_string()),
        ..explanation(&puzzle, &marks, &outcome, &map, error)
    }
}

/// A sheet without a grid: status `no-grid`, with the bordered squares
/// turned down for their values, if any, as the reason.
fn no_grid(file: &str, sheet: &Sheet) -> GridExplanation {
    let reasons: Vec<String> = sheet.turned_down.iter().map(|t| t.to_string()).collect();
    GridExplanation {
        file: Some(file.to_string()),
        sheet: Some(sheet.name.clone()),
        range: None,
        puzzle: None,
        size: None,
        box_shape: None,
        symbols: None,
        givens: None,
        status: SheetStatus::NoGrid,
        rating: None,
        level: None,
        score: None,
        rating_exact: None,
        history: String::new(),
        elapsed_ms: 0.0,
        error: (!reasons.is_empty()).then(|| reasons.join("; ")),
        steps: Vec::new(),
        pictured: None,
    }
}

/// Why a workbook could not be explained.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// The workbook could not be read (the message names the file).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A sheet asked for is not in the workbook.
    #[error("{}: --sheet {}: no such sheet; the sheets are: {}", path.display(), crate::quote::shown(.name), sheets.join(", "))]
    NoSuchSheet {
        /// The workbook.
        path: PathBuf,
        /// The name asked for.
        name: String,
        /// The workbook's sheets.
        sheets: Vec<String>,
    },
}

/// Reads a workbook and explains every grid of every sheet (or of the
/// sheets named in `sheets`, case ignored), in workbook order; a sheet
/// without a grid gets a `no-grid` entry. Grids are solved in parallel.
pub fn explain_workbook(
    path: &Path,
    read: &ReadOptions,
    opts: &SolveOptions,
    sheets: &[String],
) -> Result<Vec<GridExplanation>, ExplainError> {
    let book = read_workbook(path, read)?;
    let wanted: Vec<String> = sheets.iter().map(|s| s.to_lowercase()).collect();
    if let Some(missing) = sheets.iter().find(|s| {
        !book
            .iter()
            .any(|b| b.name.to_lowercase() == s.to_lowercase())
    }) {
        return Err(ExplainError::NoSuchSheet {
            path: path.to_path_buf(),
            name: missing.clone(),
            sheets: book.iter().map(|s| s.name.clone()).collect(),
        });
    }
    let file = path.display().to_string();
    let tasks: Vec<(&Sheet, Option<&FoundGrid>)> = book
        .iter()
        .filter(|s| wanted.is_empty() || wanted.contains(&s.name.to_lowercase()))
        .flat_map(|s| {
            let grids: Vec<Option<&FoundGrid>> = if s.grids.is_empty() {
                vec![None]
            } else {
                s.grids.iter().map(Some).collect()
            };
            grids.into_iter().map(move |g| (s, g))
        })
        .collect();
    Ok(tasks
        .par_iter()
        .map(|&(s, g)| match g {
            Some(g) => explain_grid(&file, &s.name, g, opts),
            None => no_grid(&file, s),
        })
        .collect())
}

#[cfg(test)]
mod tests;
