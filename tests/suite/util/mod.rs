//! Helpers the integration tests share: the fixtures, the shared puzzles
//! and the data folders here; the runner of the binary ([`run`]), zip
//! editing ([`repack`]) and LibreOffice's re-save ([`soffice`]) beside.

mod repack;
mod run;
mod soffice;

pub use repack::*;
pub use run::*;
pub use soffice::*;

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

/// Solve options for the tests of steps, words and pictures: the ladder
/// as by default, without Sudoku Explainer's rating (a hard grid's full
/// budget would be most of their time, and they do not check it).
pub fn without_se() -> xlsudoku::solve::SolveOptions {
    xlsudoku::solve::SolveOptions {
        se_budget: Some(std::time::Duration::ZERO),
        ..Default::default()
    }
}

/// The repository's benchmark puzzle sets (`benches/data`, its README
/// names each file's source and licence), or the folder
/// `XLSUDOKU_BENCH_DIR` names.
pub fn bench_dir() -> PathBuf {
    std::env::var_os("XLSUDOKU_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data"))
}

/// The text of a benchmark puzzle file, `rel` inside [`bench_dir`]. A
/// missing file fails the test: the sets are part of the repository.
pub fn bench_text(rel: &str) -> String {
    bench_text_in(&bench_dir(), rel)
}

/// The text of the puzzle file `rel` inside `dir`, or a failure naming the
/// file and where the sets are kept. (The folder is an argument, not read
/// from the variable here, so that a test can point at a missing one
/// without changing the environment the other tests of the process read.)
pub fn bench_text_in(dir: &Path, rel: &str) -> String {
    let path = dir.join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "benchmark puzzles missing: {}: {e} (the repository keeps them in benches/data; \
             XLSUDOKU_BENCH_DIR names another folder)",
            path.display()
        )
    })
}

/// How many workbooks the repository's corpus holds at least (1,037 when
/// copied); fewer means files went missing.
pub const CORPUS_MIN: usize = 1_000;

/// The Excel-written workbooks of `tests/corpus` (origin and licence in its
/// README), or of the folder `XLSUDOKU_CORPUS` names, sorted. A missing or
/// short corpus fails the test: the corpus is part of the repository.
pub fn corpus_files() -> Vec<PathBuf> {
    corpus_files_in(std::env::var_os("XLSUDOKU_CORPUS").map(PathBuf::from))
}

/// [`corpus_files`] of `other` (the folder `XLSUDOKU_CORPUS` names), or of
/// `tests/corpus` when it is `None`. Only the repository's own corpus must
/// hold [`CORPUS_MIN`] workbooks.
pub fn corpus_files_in(other: Option<PathBuf>) -> Vec<PathBuf> {
    let own = other.is_none();
    let dir = other.unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus"));
    let listing = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "the workbook corpus is missing: {}: {e} (the repository keeps it in tests/corpus; \
             XLSUDOKU_CORPUS names another folder)",
            dir.display()
        )
    });
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
    assert!(
        !own || files.len() >= CORPUS_MIN,
        "only {} workbooks in {}, expected at least {CORPUS_MIN}",
        files.len(),
        dir.display()
    );
    files
}

/// The value of a cell of a calamine range as text (`""` for empty).
pub fn cell_text(v: &calamine::Range<calamine::Data>, at: xlsudoku::address::CellRef) -> String {
    use calamine::Data;
    match v.get_value((at.row, at.col)) {
        None | Some(Data::Empty) => String::new(),
        Some(Data::Float(f)) => format!("{f}"),
        Some(Data::Int(i)) => format!("{i}"),
        Some(d) => d.to_string(),
    }
}

/// Every cell of a range, row by row.
pub fn range_cells(r: xlsudoku::address::CellRange) -> Vec<xlsudoku::address::CellRef> {
    (r.start.row..=r.end.row)
        .flat_map(|row| {
            (r.start.col..=r.end.col).map(move |c| xlsudoku::address::CellRef::new(row, c))
        })
        .collect()
}

/// The `r` and `s` attributes of each `<c>` of a sheet part's XML (`None`:
/// no `s`).
pub fn cell_styles_of(xml: &str) -> std::collections::HashMap<String, Option<String>> {
    xml.split("<c ")
        .skip(1)
        .filter_map(|c| {
            let tag = &c[..c.find('>')?];
            let attr = |k: &str| {
                let at = tag
                    .find(&format!(" {k}=\""))
                    .or_else(|| tag.starts_with(&format!("{k}=\"")).then_some(0))?;
                let rest = &tag[at..];
                let v = &rest[rest.find('"')? + 1..];
                Some(v[..v.find('"')?].to_string())
            };
            Some((attr("r")?, attr("s")))
        })
        .collect()
}
