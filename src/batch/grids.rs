//! One grid of a sheet: solved, explained in words when invalid, and
//! turned into the edits of the annotated copy.

use super::*;
/// Why a sheet without grids has none, when it has bordered squares that
/// were turned down for their values.
pub(super) fn no_grid_reason(sheet: &crate::workbook::Sheet) -> Option<String> {
    let reasons: Vec<String> = sheet.turned_down.iter().map(|t| t.to_string()).collect();
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

/// The reason of a `no-grid` record in a workbook that has no grid on any
/// sheet: the sheet's own (`reason`), then that.
pub(super) fn no_grid_anywhere(reason: Option<String>) -> String {
    const NONE: &str = crate::report::NO_GRID_ANYWHERE;
    match reason {
        Some(r) => format!("{r}; {NONE}"),
        None => NONE.to_string(),
    }
}

/// What the edits of one grid write, for the copy's record of them: the
/// grid cells given a value, the note's cell and the answer copy's square
/// (none of them when the answer copy was refused: the earlier record is
/// kept).
pub(super) fn grid_mark(sheet: &str, grid: &FoundGrid, edits: &[CellEdit]) -> GridMark {
    let answer = grid.answer.range().filter(|block| {
        edits
            .iter()
            .any(|e| block.contains(e.at) && e.value != CellValue::Clear)
    });
    GridMark {
        answer,
        keep: edits.is_empty(),
        sheet: sheet.to_string(),
        range: grid.range,
        filled: edits
            .iter()
            .filter(|e| grid.range.contains(e.at) && e.value != CellValue::Clear)
            .map(|e| e.at)
            .collect(),
        tinted: Vec::new(),
        note: edits
            .iter()
            .any(|e| e.at == grid.note_at)
            .then_some(grid.note_at),
    }
}

/// The cells of a grid's answer copy that the edits write a value into,
/// each taking the style of its grid cell: plain for a given, its blue
/// italic twin for a solved cell.
pub fn answer_styles(sheet: &str, grid: &FoundGrid, edits: &[CellEdit]) -> Vec<StyleFrom> {
    let Some(block) = grid.answer.range() else {
        return Vec::new();
    };
    let side = grid.shape.side();
    edits
        .iter()
        .filter(|e| block.contains(e.at) && e.value != CellValue::Clear)
        .map(|e| {
            let (r, c) = (e.at.row - block.start.row, e.at.col - block.start.col);
            let i = r as usize * side + c as usize;
            StyleFrom {
                sheet: sheet.to_string(),
                at: e.at,
                from: grid.range.cell(r, c),
                blue: !matches!(grid.cells.get(i), Some(Cell::Given(_))),
            }
        })
        .collect()
}

/// Solves one found grid: its report record and the cell edits for the
/// annotated copy (fills, clears of an earlier run's fills, and the note;
/// with an answer copy ([`FoundGrid::answer`]), the copy instead of fills,
/// the grid's earlier fills cleared). A grid whose answer copy is refused
/// gets no edits at all.
/// A solved grid's rating outside `limits` makes the record `too-hard` or
/// `too-easy`; a complete grid (no blank) is never either.
pub fn solve_grid(
    file: &str,
    sheet: &str,
    grid: &FoundGrid,
    opts: &SolveOptions,
    limits: &crate::logic::Limits,
) -> (SheetRecord, Vec<CellEdit>) {
    let (record, edits, _) = solve_grid_copy(file, sheet, grid, opts, limits);
    (record, edits)
}

/// How digit `d` is written into `grid`: in its alphabet, a letter as
/// text in the grid's case.
pub(super) fn written(grid: &FoundGrid, d: u8) -> CellValue {
    match grid.symbols.symbol(d) {
        Symbol::Number(n) => CellValue::Number(f64::from(n)),
        Symbol::Letter(_) => CellValue::Text(grid.digit_name(d)),
    }
}

/// What a grid's copy on the sheet of solutions holds (`--answers
/// sheet`): each cell's value in reading order and whether it is solved
/// (blue italics) rather than given.
pub type SheetCopy = Vec<(CellValue, bool)>;

/// What is wrong with a grid that is not solved (`None` when it is, or
/// when the ladder gave up), and the note that goes under it: the status,
/// the history and the time, the ratings, the grid it belongs to when it
/// stands apart, and the formulas left as they are.
fn error_and_note(
    grid: &FoundGrid,
    outcome: &Outcome,
    opts: &SolveOptions,
) -> (Option<String>, String) {
    let error = match outcome.status {
        Status::Solved | Status::GaveUp => None,
        Status::Invalid => Some(invalid_reason(grid, outcome)),
        // The person's wrong entries when bold givens are told from plain
        // entries, else the givens to blame, by the sheet's names (the
        // outcome's grid is the puzzle).
        Status::Unsolvable => {
            let map = crate::explain::AddressMap::for_grid(grid);
            Some(
                crate::position::wrong_entries_reason(grid, &map)
                    .unwrap_or_else(|| crate::conflicts::unsolvable_reason(&outcome.grid, &map)),
            )
        }
        Status::Multiple => Some(crate::conflicts::multiple_reason(
            &outcome.grid,
            &crate::explain::AddressMap::for_grid(grid),
        )),
        Status::Timeout => Some(format!(
            "no answer within {}",
            opts.timeout
                .map(|t| format!("{} s", t.as_secs_f64()))
                .unwrap_or_default()
        )),
    };
    let mut note = crate::note::Note {
        status: outcome.status,
        elapsed: outcome.elapsed,
        history: &outcome.history,
        rating: outcome.rating,
        error: error.as_deref(),
    }
    .text();
    if grid.note_apart {
        note.push_str(&format!(" [grid {}]", grid.range));
    }
    let filled = matches!(outcome.status, Status::Solved | Status::GaveUp);
    match grid.formulas.len() {
        0 => {}
        _ if !filled => {}
        1 => note.push_str(&format!(
            "; {} holds a formula: left as it is",
            grid.formulas[0]
        )),
        n => note.push_str(&format!("; {n} cells hold formulas: left as they are")),
    }
    (error, note)
}

/// [`solve_grid`], and with [`AnswerPlace::Sheet`](crate::workbook::AnswerPlace::Sheet)
/// the copy that goes on the sheet of solutions when the grid is solved
/// (or, `--logic-only`, given up with candidates).
pub fn solve_grid_copy(
    file: &str,
    sheet: &str,
    grid: &FoundGrid,
    opts: &SolveOptions,
    limits: &crate::logic::Limits,
) -> (SheetRecord, Vec<CellEdit>, Option<SheetCopy>) {
    solve_grid_once(file, sheet, grid, (opts, limits), None)
}

/// [`solve_grid_copy`], a puzzle already in `repeats` (if given) not
/// solved again.
pub(super) fn solve_grid_once(
    file: &str,
    sheet: &str,
    grid: &FoundGrid,
    (opts, limits): (&SolveOptions, &crate::logic::Limits),
    repeats: Option<&Repeats>,
) -> (SheetRecord, Vec<CellEdit>, Option<SheetCopy>) {
    let puzzle = grid.puzzle();
    let side = grid.shape.side();
    let bad = grid.bad_cells();
    let outcome = if bad.is_empty() && grid.formula_cells().is_empty() && grid.merged.is_empty() {
        match repeats {
            Some(r) => r.solve(&puzzle, opts),
            None => crate::solve::solve(&puzzle, opts),
        }
    } else {
        // Bad values make the grid invalid whatever the rest holds: no
        // solving; any clash among the good givens is named too.
        Outcome::invalid(&puzzle)
    };
    let (error, note) = error_and_note(grid, &outcome, opts);
    let filled = matches!(outcome.status, Status::Solved | Status::GaveUp);
    let mut edits: Vec<CellEdit> = Vec::new();
    let formulas: std::collections::HashSet<CellRef> = grid.formulas.iter().copied().collect();
    let block = grid.answer.range();
    // What the solution holds for cell `i`, in the grid's own alphabet.
    let solved_value = |i: usize| match outcome.grid.cells()[i] {
        0 => match outcome.candidates.get(i) {
            Some(&m) if m != 0 => CellValue::Text(candidate_letters(m)),
            _ => CellValue::Clear,
        },
        // In the grid's own alphabet: a letter as text.
        d => written(grid, d),
    };
    for (i, cell) in grid.cells.iter().enumerate() {
        let at: CellRef = grid.cell_ref(i);
        if formulas.contains(&at) {
            // A formula is never written over.
            continue;
        }
        let earlier = matches!(cell, Cell::Filled(_) | Cell::FilledText(_));
        // A blank written as `0`, `.` or pencil marks is filled like a blank.
        if !matches!(cell, Cell::Blank | Cell::Marked(_)) && !earlier {
            continue;
        }
        let value = if filled && grid.answer == crate::workbook::AnswerPlace::InGrid {
            solved_value(i)
        } else {
            CellValue::Clear
        };
        if value == CellValue::Clear && !earlier {
            continue;
        }
        edits.push(CellEdit { at, value });
    }
    // The solution as a copy of the grid: givens as they are.
    let copy_value = |i: usize, cell: &Cell| match cell {
        Cell::Given(d) => written(grid, *d),
        _ => solved_value(i),
    };
    let mut copy: std::collections::HashSet<CellRef> = std::collections::HashSet::new();
    if let (Some(block), true) = (block, filled) {
        for (i, cell) in grid.cells.iter().enumerate() {
            let at = block.cell((i / side) as u32, (i % side) as u32);
            copy.insert(at);
            edits.push(CellEdit {
                at,
                value: copy_value(i, cell),
            });
        }
    }
    let sheet_copy: Option<SheetCopy> =
        (filled && grid.answer == crate::workbook::AnswerPlace::Sheet).then(|| {
            grid.cells
                .iter()
                .enumerate()
                .map(|(i, cell)| (copy_value(i, cell), !matches!(cell, Cell::Given(_))))
                .collect()
        });
    // An earlier answer copy goes where this run writes no other.
    if let Some(old) = grid.earlier_answer {
        for r in old.start.row..=old.end.row {
            for c in old.start.col..=old.end.col {
                let at = CellRef::new(r, c);
                if !copy.contains(&at) {
                    edits.push(CellEdit {
                        at,
                        value: CellValue::Clear,
                    });
                }
            }
        }
    }
    edits.push(CellEdit {
        at: grid.note_at,
        value: CellValue::Text(note),
    });
    let record = SheetRecord {
        file: file.to_string(),
        sheet: Some(sheet.to_string()),
        range: Some(grid.range.to_string()),
        size: Some(format!("{side}x{side}")),
        box_shape: Some(grid.shape.to_string()),
        givens: Some(puzzle.givens()),
        status: outcome.status.into(),
        unique: outcome.unique,
        history: Some(outcome.history.clone()),
        rating: outcome.rating.map(|r| r.se),
        rating_exact: outcome.rating.map(|r| r.se_exact),
        level: outcome.rating.map(|r| r.level),
        score: outcome.rating.map(|r| r.score),
        elapsed_ms: outcome.elapsed.as_secs_f64() * 1000.0,
        output: None,
        error,
        skipped: false,
        answer_range: block.filter(|_| filled).map(|b| b.to_string()),
        answer_sheet: block.filter(|_| filled).map(|_| sheet.to_string()),
        converted: None,
    };
    let mut record = record;
    if let Some(why) = grid.answer.refusal() {
        record.status = SheetStatus::Refused;
        record.error = Some(why);
        return (record, Vec::new(), None);
    }
    // A complete grid (a solution printed beside its puzzles) has nothing
    // to solve, so no difficulty to bound.
    let rated = (outcome.status, outcome.rating, puzzle.is_full());
    if let (Status::Solved, Some(r), false) = rated {
        if let Err((too_hard, why)) = limits.check(&r) {
            record.status = if too_hard {
                SheetStatus::TooHard
            } else {
                SheetStatus::TooEasy
            };
            record.error = Some(why);
        }
    }
    (record, edits, sheet_copy)
}
