//! Reading a corpus of real Excel workbooks (charts, chartsheets, tables,
//! comments, VBA, …): every file reads without error and none holds a
//! Sudoku, so none may yield a grid. The corpus is `tests/corpus` (origin
//! and licence in its README; `XLSUDOKU_CORPUS` names another folder).

use std::time::Instant;

use crate::util::corpus_files;

use xlsudoku::workbook::{read_workbook, ReadOptions};

#[test]
fn corpus_workbooks_read_cleanly_and_hold_no_grids() {
    let files = corpus_files();
    let start = Instant::now();
    let mut sheets = 0;
    for path in &files {
        let read = read_workbook(path, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        sheets += read.len();
        for sheet in &read {
            assert!(
                sheet.grids.is_empty(),
                "{} / {}: {:?}",
                path.display(),
                sheet.name,
                sheet
                    .grids
                    .iter()
                    .map(|g| g.range.to_string())
                    .collect::<Vec<_>>()
            );
        }
    }
    println!(
        "detect corpus: {} workbooks checked, {sheets} worksheets read in {:?}",
        files.len(),
        start.elapsed()
    );
}
