//! Finding grids and reading what their cells hold: layouts, values,
//! authors' conventions, tables around a grid, damaged and hostile
//! workbooks, and a corpus of real workbooks without a Sudoku.

mod conventions;
mod corpus;
mod damaged;
mod hostile;
mod layouts;
mod tables;
mod values;
