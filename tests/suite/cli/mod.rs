//! The real binary on the fixtures, and the conventions of the command
//! line (completions, man page, `--version`).

mod conflicts;
mod conventions;
mod ladder;
mod runs;
mod shared_flags;
mod wrong_entries;

use std::path::{Path, PathBuf};
use std::process::Output;

use calamine::{open_workbook, Data, Reader, Xlsx};
use xlsudoku::report::SheetRecord;
use xlsudoku::workbook::{read_workbook, ReadOptions, Sheet};

use crate::util::{stdout, xlsudoku};

/// The JSON Lines of a run: sheet records, then the summary object.
pub(super) fn records(o: &Output) -> (Vec<SheetRecord>, serde_json::Value) {
    let text = stdout(o);
    let mut lines: Vec<&str> = text.lines().collect();
    let summary: serde_json::Value =
        serde_json::from_str(lines.pop().expect("a summary line")).expect("summary is JSON");
    assert!(summary.get("summary").is_some(), "last line: {summary}");
    let recs = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (recs, summary)
}

pub(super) fn solve_to(input: &Path, dir: &Path, extra: &[&str]) -> (Output, PathBuf) {
    let ext = input.extension().unwrap().to_str().unwrap();
    let out = dir.join(format!("out.{ext}"));
    let mut args = vec![input.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    (xlsudoku(&args), out)
}

pub(super) fn sheets(path: &Path) -> Vec<Sheet> {
    read_workbook(path, &ReadOptions::default()).expect("the output reads back")
}

pub(super) fn note_text(path: &Path, sheet: &Sheet) -> String {
    let mut book: Xlsx<_> = open_workbook(path).unwrap();
    let range = book.worksheet_range(&sheet.name).unwrap();
    let at = sheet.grids[0].note_at;
    match range.get_value((at.row, at.col)) {
        Some(Data::String(s)) => s.clone(),
        other => panic!("no note at {at}: {other:?}"),
    }
}

/// The grid as written: givens and filled digits.
pub(super) fn written(sheet: &Sheet) -> xlsudoku::grid::Grid {
    sheet.grids[0].shown()
}
