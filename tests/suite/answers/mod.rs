//! `solve --answers`: the solution copied beside the grid, at a cell, or to
//! a sheet of solutions.

mod grid;
mod sheet;
mod sheet_package;
mod sizes;
