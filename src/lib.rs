//! # xlsudoku
//!
//! Solve the Sudoku puzzles kept in Excel workbooks.
//!
//! Data flows one way through the modules:
//!
//! 1. [`workbook`] reads a `.xlsx`/`.xlsm` file (calamine) and finds the
//!    bordered grids on each sheet;
//! 2. [`grid`] is the model those grids become;
//! 3. [`solve`] turns a grid into an outcome: [`logic`] applies the human
//!    techniques and records their letters, [`search`] is the exact solver
//!    that finishes the job and proves uniqueness;
//! 4. [`annotate`] writes the annotated copy, patching the original file
//!    byte for byte;
//! 5. [`batch`] runs all of it over files and folders in parallel, and
//!    [`report`] turns results into JSON Lines and JUnit.
//!
//! [`bench`](mod@bench) measures the exact solver on text puzzle collections;
//! [`export`] writes new workbooks with bordered puzzle grids;
//! [`explain`] puts a grid's solving path in words, with the sheet's own
//! addresses; [`rate_lists`] rates text collections on Sudoku
//! Explainer's and HoDoKu's scales; [`generate`](mod@generate) makes new
//! puzzles with one solution, at the level asked for.
//!
//! Beside them: [`records`] reads and writes the records an annotated copy
//! carries (what it was made from, what each run wrote);
//! [`invalid`](mod@invalid) says why a grid is invalid, in words, with
//! [`cell_names`]' names of its cells; [`quote`] quotes user text in messages;
//! [`answer_place`] says where a solution goes; [`position`] tells a
//! person's entries and pencil marks from the givens and names the wrong
//! ones;
//! [`puzzle_text`] reads text puzzle files (one puzzle a line) for `bench`
//! and `rate`.

pub mod address;
pub mod annotate;
pub mod answer_place;
pub mod batch;
pub mod bench;
pub mod cell_names;
pub mod conflicts;
pub mod explain;
pub mod export;
pub mod generate;
pub mod grid;
pub mod hint;
mod inflated;
pub mod invalid;
pub mod logic;
pub mod note;
pub mod ordered;
mod package;
pub mod paint;
pub mod position;
pub mod puzzle_text;
pub mod quote;
pub mod rate_lists;
pub mod records;
pub mod report;
mod rounding;
#[cfg(test)]
mod samples;
pub mod search;
pub mod serate;
pub mod solve;
pub mod suggest;
pub mod workbook;
