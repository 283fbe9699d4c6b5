//! Why a grid is invalid, in words, with the sheet's own addresses: what
//! `solve` reports for an invalid grid and `explain` says before its
//! clashes.

use crate::solve::Outcome;
use crate::workbook::FoundGrid;

/// The reason a grid is invalid, in words, with the workbook's addresses
/// and its rows and columns as the sheet shows them (as `explain` names
/// them): `5 twice in row 6 (D6, H6)`, `E3 holds "x", not a digit 1-9`.
pub fn invalid_reason(grid: &FoundGrid, outcome: &Outcome) -> String {
    let side = grid.shape.side();
    let mut parts: Vec<String> = grid
        .merged
        .iter()
        .map(|m| format!("merged cells {m} inside the grid"))
        .collect();
    parts.extend(grid.bad_cells().into_iter().map(|(at, raw)| {
        format!(
            "{at} holds \"{raw}\", not a digit {}",
            grid.symbols.describe(side)
        )
    }));
    let formulas = grid.formula_cells();
    if !formulas.is_empty() {
        let cells: Vec<String> = formulas.iter().map(|(at, _)| at.to_string()).collect();
        let (what, them) = match formulas.len() {
            1 => ("a formula", "it"),
            _ => ("formulas", "them"),
        };
        parts.push(format!(
            "{}: {what} without a computed value; open and save the workbook in a spreadsheet program to compute {them}",
            cells.join(", ")
        ));
    }
    let map = crate::cell_names::AddressMap::for_grid(grid);
    for c in &outcome.conflicts {
        let times = match c.cells.len() {
            2 => "twice".to_string(),
            3 => "three times".to_string(),
            n => format!("{n} times"),
        };
        let cells: Vec<String> = c
            .cells
            .iter()
            .map(|&i| grid.cell_ref(i).to_string())
            .collect();
        parts.push(format!(
            "{} {times} in {} ({})",
            grid.digit_name(c.value),
            map.unit(c.unit),
            cells.join(", ")
        ));
    }
    parts.join("; ")
}
