//! Helpers the integration tests share.
#![allow(dead_code)] // each test crate uses its own share of them

use std::path::{Path, PathBuf};

use xlsudoku::workbook::{read_workbook, ReadOptions, Sheet};

/// The well-known easy puzzle (Wikipedia's "Sudoku" article): singles only.
pub const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// A workbook of `fixtures/`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// A fixture's sheets and grids, as xlsudoku reads them.
pub fn read(name: &str) -> Vec<Sheet> {
    read_workbook(&fixture(name), &ReadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The Excel-written workbooks of `../shared/corpus/excel` (or the folder
/// `XLSUDOKU_CORPUS` names), sorted. `None` when the folder is missing on a
/// developer's machine; under CI (`CI` set) a missing corpus fails.
pub fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = std::env::var("XLSUDOKU_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/excel"));
    let Ok(listing) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var("CI").is_err(),
            "the workbook corpus is missing at {} (shared/ beside the repository)",
            dir.display()
        );
        println!("corpus not found at {}: skipped", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = listing
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("xlsx") || e.eq_ignore_ascii_case("xlsm"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no workbooks in {}", dir.display());
    Some(files)
}
