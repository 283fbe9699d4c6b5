//! Finding grids and reading what their cells hold: layouts, values,
//! authors' conventions, tables around a grid, damaged and hostile
//! workbooks, a corpus of real workbooks without a Sudoku, and the old
//! formats (.xls, .ods) read as the .xlsx made of them.

mod conventions;
mod corpus;
mod damaged;
mod hostile;
mod layouts;
mod legacy;
mod tables;
mod values;
