//! The hint copy of a workbook: for every grid, the next step's cells
//! coloured and its sentence in the note cell below the grid (or the
//! wrong cells coloured and named); nothing else changes.

use std::io::Cursor;
use std::path::Path;

use serde::Serialize;

use super::{hint, paint, Hint, Position, Role, Written};
use crate::address::CellRef;
use crate::annotate::{annotate_with, AnnotateOptions, CellEdit, CellValue, GridMark, SheetEdits};
use crate::explain::{explained_step, AddressMap, ExplainedStep};
use crate::solve::SolveOptions;
use crate::workbook::{read_workbook_bytes, FoundGrid, ReadError, ReadOptions};

/// A cell the person got wrong, as JSON shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrongCell {
    /// The cell's name (`D5`).
    pub cell: String,
    /// The wrong digit, if a digit is written there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digit: Option<u8>,
    /// The pencil marks that leave out the answer, if marks are written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<u8>,
    /// The answer, only when asked for (`--reveal`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<u8>,
}

/// A coloured cell, as JSON shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PaintedCell {
    /// The cell's name.
    pub cell: String,
    /// Its part: `place`, `strike`, `pattern`, `fin`, `chain end`, `wrong`.
    pub role: &'static str,
    /// Its fill (ARGB).
    pub fill: &'static str,
}

/// The hint for one grid: one JSON object of `hint --json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridHint {
    /// The workbook (`None` for a text puzzle).
    pub file: Option<String>,
    /// The sheet (`None` for a text puzzle).
    pub sheet: Option<String>,
    /// The grid's cells on the sheet, e.g. `C3:K11`.
    pub range: Option<String>,
    /// `step`, `wrong`, `solved`, or why the givens give no hint
    /// (`invalid`, `unsolvable`, `multiple`, `timeout`).
    pub status: &'static str,
    /// The note: the step's sentence, the wrong cells, or the reason.
    pub note: String,
    /// The position hinted, as one line of text: the givens and the
    /// person's entries (pencil marks are not in it).
    pub position: Option<String>,
    /// The step, structured as `explain --json` gives it (numbered 1).
    pub step: Option<ExplainedStep>,
    /// The wrong cells.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wrong: Vec<WrongCell>,
    /// The cells coloured and their parts.
    pub colours: Vec<PaintedCell>,
}

impl GridHint {
    /// True when the grid has a next step or is solved.
    pub fn passes(&self) -> bool {
        matches!(self.status, "step" | "solved")
    }

    /// The hint as one line of JSON (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

/// What hinting a position gives, with the map's names: the hint, and the
/// cells to colour with their parts.
pub fn grid_hint(
    position: &Position,
    map: &AddressMap,
    shape: crate::grid::BoxShape,
    opts: &SolveOptions,
    reveal: bool,
) -> GridHint {
    let h = hint(position, map, opts);
    let colour = |cell: usize, role: Role| PaintedCell {
        cell: map.cell(cell),
        role: role.name(),
        fill: role.argb(),
    };
    let mut out = GridHint {
        file: None,
        sheet: None,
        range: None,
        status: "step",
        note: String::new(),
        position: Some(position.reached.to_line()),
        step: None,
        wrong: Vec::new(),
        colours: Vec::new(),
    };
    match h {
        Hint::Step(s) => {
            out.note = format!("{}: {}", super::NOTE_WORD, s.text);
            out.colours = paint(&s.step, shape)
                .into_iter()
                .map(|p| colour(p.cell, p.role))
                .collect();
            out.step = Some(explained_step(1, &s.step, map, s.text));
        }
        Hint::Wrong(wrong) => {
            out.status = "wrong";
            let words = crate::position::wrong_words(&wrong, map, reveal);
            out.note = format!("{}: {words}", super::NOTE_WORD);
            out.colours = wrong.iter().map(|w| colour(w.cell, Role::Wrong)).collect();
            out.wrong = wrong
                .iter()
                .map(|w| WrongCell {
                    cell: map.cell(w.cell),
                    digit: match w.written {
                        Written::Digit(d) => Some(d),
                        Written::Marks(_) => None,
                    },
                    marks: match w.written {
                        Written::Marks(m) => {
                            (1..=64u8).filter(|&d| m >> (d - 1) & 1 == 1).collect()
                        }
                        Written::Digit(_) => Vec::new(),
                    },
                    answer: reveal.then_some(w.answer),
                })
                .collect();
        }
        Hint::Solved => {
            out.status = "solved";
            out.note = format!("{}: solved, nothing left to do", super::NOTE_WORD);
        }
        Hint::Failed(status, reason) => {
            out.status = status.report_word();
            out.note = format!("{}: {}: {reason}", super::NOTE_WORD, status.note_word());
        }
    }
    out
}

/// A workbook hinted: each grid's hint, and the copy's bytes.
#[derive(Debug, Clone)]
pub struct HintedBook {
    /// The hints, grid by grid in workbook order.
    pub grids: Vec<GridHint>,
    /// The copy (`.xlsx`): the input with the hinted cells coloured and
    /// each grid's note written.
    pub copy: Vec<u8>,
}

/// Why a workbook could not be hinted.
#[derive(Debug, thiserror::Error)]
pub enum HintError {
    /// The workbook could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The copy could not be made (the message names the file).
    #[error("{path}: {source}")]
    Copy {
        /// The workbook.
        path: String,
        /// Why.
        source: crate::annotate::AnnotateError,
    },
}

/// Reads the workbook `bytes` (`path` names it), hints every grid and
/// makes the copy: per grid, its step's cells filled in HoDoKu's colours
/// ([`Role::argb`]) and the note, in blue italics, in the grid's note
/// cell (below it). On a copy an earlier hint made, that hint's note is
/// replaced and its colours taken off (the cells take back the styles the
/// copy's records say they had), so only the new step is coloured. An `.xls` or
/// `.ods` is hinted into a new `.xlsx`.
pub fn hint_workbook(
    path: &Path,
    bytes: Vec<u8>,
    read: &ReadOptions,
    opts: &SolveOptions,
    reveal: bool,
) -> Result<HintedBook, HintError> {
    let (bytes, _) = crate::workbook::as_xlsx(path, bytes)?;
    let sheets = read_workbook_bytes(path, &bytes, read)?;
    // What an earlier hint coloured, as the copy's records say.
    let earlier = crate::records::read_grid_records(Cursor::new(&bytes));
    let file = path.display().to_string();
    let mut grids = Vec::new();
    let mut edits = Vec::new();
    let mut marks = Vec::new();
    for sheet in &sheets {
        let mut cells = Vec::new();
        for grid in &sheet.grids {
            let h = GridHint {
                file: Some(file.clone()),
                sheet: Some(sheet.name.clone()),
                range: Some(grid.range.to_string()),
                ..sheet_hint(grid, opts, reveal)
            };
            let mut tinted: Vec<CellRef> = Vec::new();
            for c in &h.colours {
                if let Ok(at) = c.cell.parse() {
                    tinted.push(at);
                    cells.push(CellEdit {
                        at,
                        value: CellValue::Tint(c.fill.to_string()),
                    });
                }
            }
            // An earlier hint's colours come off, unless this step colours
            // the cell again: the cell takes back the style it had.
            let untinted = earlier
                .iter()
                .filter(|r| r.sheet == sheet.name && r.range == grid.range)
                .flat_map(|r| &r.tints)
                .filter(|(at, _)| !tinted.contains(at));
            for &(at, style) in untinted {
                cells.push(CellEdit {
                    at,
                    value: CellValue::Restyle(style),
                });
            }
            cells.push(CellEdit {
                at: grid.note_at,
                value: CellValue::Text(h.note.clone()),
            });
            marks.push(GridMark {
                sheet: sheet.name.clone(),
                range: grid.range,
                filled: Vec::new(),
                note: Some(grid.note_at),
                tinted,
                answer: None,
                keep: false,
            });
            grids.push(h);
        }
        if !cells.is_empty() {
            edits.push(SheetEdits {
                sheet: sheet.name.clone(),
                cells,
            });
        }
    }
    let mut copy = Cursor::new(Vec::new());
    let options = AnnotateOptions {
        grids: marks,
        ..AnnotateOptions::default()
    };
    annotate_with(Cursor::new(&bytes), &edits, &mut copy, options).map_err(|source| {
        HintError::Copy {
            path: file.clone(),
            source,
        }
    })?;
    Ok(HintedBook {
        grids,
        copy: copy.into_inner(),
    })
}

/// The hint of one grid of a sheet; a grid with cells that are no digit,
/// formulas without a value or merged cells gets none (`invalid`).
fn sheet_hint(grid: &FoundGrid, opts: &SolveOptions, reveal: bool) -> GridHint {
    let map = AddressMap::for_grid(grid);
    let clean =
        grid.bad_cells().is_empty() && grid.formula_cells().is_empty() && grid.merged.is_empty();
    if !clean {
        let outcome = crate::solve::Outcome::invalid(&grid.puzzle());
        return GridHint {
            file: None,
            sheet: None,
            range: None,
            status: "invalid",
            note: format!(
                "{}: invalid: {}",
                super::NOTE_WORD,
                crate::invalid::invalid_reason(grid, &outcome)
            ),
            position: None,
            step: None,
            wrong: Vec::new(),
            colours: Vec::new(),
        };
    }
    grid_hint(&Position::of_grid(grid), &map, grid.shape, opts, reveal)
}
