//! Reports on a run: one [`SheetRecord`] per grid (or per sheet without a
//! grid, or per file that could not be read), a [`Summary`] at the end, as
//! JSON Lines, human lines, or JUnit XML.
//!
//! ```
//! use xlsudoku::report::{SheetRecord, SheetStatus, Summary};
//!
//! let mut summary = Summary::default();
//! let record = SheetRecord {
//!     file: "in.xlsx".into(),
//!     sheet: Some("Sheet1".into()),
//!     status: SheetStatus::Solved,
//!     ..SheetRecord::default()
//! };
//! summary.add(&record);
//! assert_eq!(summary.sheets, 1);
//! assert!(record.to_json_line().starts_with("{\"file\":\"in.xlsx\""));
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

/// How a grid (or a sheet, or a file) ended, as reports spell it.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum SheetStatus {
    /// Solved (and, unless logic-only, proven unique).
    Solved,
    /// Logic-only: the techniques stopped.
    GaveUp,
    /// Clashing givens or a cell that is not a digit.
    Invalid,
    /// No solution.
    Unsolvable,
    /// More than one solution.
    Multiple,
    /// The time limit passed.
    Timeout,
    /// The sheet has no grid.
    #[default]
    NoGrid,
    /// The file could not be processed.
    Error,
    /// Solved, but harder than `check --max-level`/`--max-rating` allow.
    TooHard,
    /// Solved, but easier than `check --min-level`/`--min-rating` allow.
    TooEasy,
    /// `solve --answers`: the square meant for the answer copy is not free
    /// (the record's error names its first occupied cell); nothing of the
    /// grid was written.
    Refused,
}

impl SheetStatus {
    /// The word reports use: `solved`, `gave-up`, `invalid`, `unsolvable`,
    /// `multiple`, `timeout`, `no-grid`, `error`, `too-hard`, `too-easy`,
    /// `refused`.
    pub fn as_str(self) -> &'static str {
        match self {
            SheetStatus::Solved => "solved",
            SheetStatus::GaveUp => "gave-up",
            SheetStatus::Invalid => "invalid",
            SheetStatus::Unsolvable => "unsolvable",
            SheetStatus::Multiple => "multiple",
            SheetStatus::Timeout => "timeout",
            SheetStatus::NoGrid => "no-grid",
            SheetStatus::Error => "error",
            SheetStatus::TooHard => "too-hard",
            SheetStatus::TooEasy => "too-easy",
            SheetStatus::Refused => "refused",
        }
    }
}

impl From<crate::solve::Status> for SheetStatus {
    fn from(s: crate::solve::Status) -> Self {
        use crate::solve::Status;
        match s {
            Status::Solved => SheetStatus::Solved,
            Status::GaveUp => SheetStatus::GaveUp,
            Status::Invalid => SheetStatus::Invalid,
            Status::Unsolvable => SheetStatus::Unsolvable,
            Status::Multiple => SheetStatus::Multiple,
            Status::Timeout => SheetStatus::Timeout,
        }
    }
}

impl std::fmt::Display for SheetStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for SheetStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// One line of the report: a grid, a sheet without a grid, or a file that
/// could not be processed (`sheet` is then `None` and `status` `error`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct SheetRecord {
    /// The input file, as given or found.
    pub file: String,
    /// The sheet's name; `None` for a file-level error.
    pub sheet: Option<String>,
    /// The grid's cells, e.g. `C3:K11`.
    pub range: Option<String>,
    /// The grid's size, e.g. `9x9`.
    pub size: Option<String>,
    /// The box shape, e.g. `3x3`.
    #[serde(rename = "box")]
    pub box_shape: Option<String>,
    /// How many givens.
    pub givens: Option<usize>,
    /// How it ended.
    pub status: SheetStatus,
    /// Whether the solution was proven unique (`None` when not checked).
    pub unique: Option<bool>,
    /// The technique history string.
    pub history: Option<String>,
    /// Sudoku Explainer's rating (ER) of a solved grid with one solution;
    /// a lower bound when `rating_exact` is false.
    #[serde(default, serialize_with = "crate::rounding::opt_rating")]
    pub rating: Option<f32>,
    /// True when `rating` is Sudoku Explainer's own (a 9x9 rated to the
    /// end by SE's rules within `--se-budget`), false when it is a lower
    /// bound (the budget ran out; beyond 9x9, the ladder needed a guess).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_exact: Option<bool>,
    /// HoDoKu's level of a solved grid with one solution.
    #[serde(default)]
    pub level: Option<crate::logic::Level>,
    /// HoDoKu's score of a solved grid with one solution.
    #[serde(default)]
    pub score: Option<u32>,
    /// Time spent solving this grid.
    #[serde(serialize_with = "crate::rounding::millis")]
    pub elapsed_ms: f64,
    /// The annotated copy written (`None` for `check` and for errors).
    pub output: Option<String>,
    /// What went wrong, with cell addresses where they matter.
    pub error: Option<String>,
    /// True when the copy was up to date and left alone: the record is the
    /// one its last run made (kept in the copy's stamp).
    #[serde(default)]
    pub skipped: bool,
    /// `solve --answers beside|at:CELL`: the square the grid's answer copy
    /// was written into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_range: Option<String>,
    /// The sheet holding [`SheetRecord::answer_range`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_sheet: Option<String>,
    /// An `.xls` or `.ods` input: read (and copied) as the `.xlsx` made of
    /// it, with what that copy does not carry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub converted: Option<crate::workbook::legacy::Conversion>,
}

impl SheetRecord {
    /// The record as one line of JSON (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// True when this record passes: solved, or a sheet without a grid in
    /// a workbook that has grids elsewhere (`workbook_has_grid`, see
    /// [`has_grid`]) or where that is allowed. A workbook with no grid
    /// anywhere fails.
    pub fn passes(&self, workbook_has_grid: bool, allow_no_grid: bool) -> bool {
        match self.status {
            SheetStatus::Solved => true,
            SheetStatus::NoGrid => workbook_has_grid || allow_no_grid,
            _ => false,
        }
    }

    /// The record as one human-readable line.
    pub fn to_human_line(&self) -> String {
        let mut s = self.file.clone();
        if let Some(sheet) = &self.sheet {
            let _ = write!(s, " [{sheet}]");
        }
        if let Some(range) = &self.range {
            let _ = write!(s, " {range}");
        }
        if let Some(size) = &self.size {
            let _ = write!(s, " {size}");
        }
        let _ = write!(s, ": {}", self.status);
        if let Some(h) = self.history.as_deref().filter(|h| !h.is_empty()) {
            let _ = write!(s, " {h}");
        }
        if let (Some(r), Some(l)) = (self.rating, self.level) {
            let exact = self.rating_exact.unwrap_or(true);
            let _ = write!(s, " [SE {} · {l}]", crate::logic::rating::se_text(r, exact));
        }
        if self.sheet.is_some() && self.status != SheetStatus::NoGrid {
            let _ = write!(s, " ({:.2} ms)", self.elapsed_ms);
        }
        if let Some(range) = &self.answer_range {
            match &self.answer_sheet {
                // On another sheet (`--answers sheet`): named with it.
                Some(other) if Some(other) != self.sheet.as_ref() => {
                    let _ = write!(
                        s,
                        " → answers in {}",
                        crate::annotate::solution_sheet::title(other, range)
                    );
                }
                _ => {
                    let _ = write!(s, " → answers in {range}");
                }
            }
        }
        if let Some(e) = &self.error {
            let _ = write!(s, " - {e}");
        }
        if self.skipped {
            s.push_str(" [up to date]");
        }
        s
    }
}

/// What the `no-grid` records of a workbook with no grid on any sheet say
/// (not only on the sheets a `--sheet` run reports).
pub const NO_GRID_ANYWHERE: &str = "no grid anywhere in the workbook";

/// True when the records of one workbook find a grid somewhere in it: a
/// sheet record other than `no-grid`, or `no-grid` records that do not say
/// [`NO_GRID_ANYWHERE`] (their workbook has grids on sheets a `--sheet`
/// run left out).
pub fn has_grid<'a>(records: impl IntoIterator<Item = &'a SheetRecord>) -> bool {
    let mut none_anywhere = false;
    for r in records {
        if r.sheet.is_some() && r.status != SheetStatus::NoGrid {
            return true;
        }
        none_anywhere |= r.status == SheetStatus::NoGrid
            && r.error
                .as_deref()
                .is_some_and(|e| e.contains(NO_GRID_ANYWHERE));
    }
    !none_anywhere
}

/// Totals over a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct Summary {
    /// Files looked at (processed or skipped).
    pub files: usize,
    /// Files skipped because their output was up to date.
    pub skipped: usize,
    /// Files that could not be processed.
    pub failed_files: usize,
    /// Sheet records (grids, sheets without a grid).
    pub sheets: usize,
    /// Records per status.
    pub statuses: BTreeMap<SheetStatus, usize>,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// Files of other kinds found in the folders searched and not read,
    /// with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_read: Vec<NotRead>,
}

/// A file found in a folder and not read (`.csv`, `.xls`, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct NotRead {
    /// The file, as found.
    pub file: String,
    /// Why it was not read.
    pub reason: String,
}

impl Summary {
    /// Counts one record in.
    pub fn add(&mut self, r: &SheetRecord) {
        if r.sheet.is_some() {
            self.sheets += 1;
        }
        *self.statuses.entry(r.status).or_default() += 1;
    }

    /// The summary as one JSON line: `{"summary":{...}}`.
    pub fn to_json_line(&self) -> String {
        #[derive(Serialize)]
        struct Wrap<'a> {
            summary: &'a Summary,
        }
        serde_json::to_string(&Wrap { summary: self }).unwrap_or_default()
    }

    /// The summary in words: `3 files (1 skipped as up to date), 4 grids:
    /// 3 solved, 1 error in 0.02 s`.
    pub fn to_human_line(&self) -> String {
        let counts: Vec<String> = self
            .statuses
            .iter()
            .map(|(k, v)| match k {
                SheetStatus::Error | SheetStatus::Timeout => plural(*v, k.as_str()),
                _ => format!("{v} {k}"),
            })
            .collect();
        format!(
            "{} ({} skipped as up to date), {}: {} in {:.2} s",
            plural(self.files, "file"),
            self.skipped,
            plural(self.sheets, "grid"),
            if counts.is_empty() {
                "nothing to do".to_string()
            } else {
                counts.join(", ")
            },
            self.seconds
        ) + &if !self.not_read.is_empty() {
            format!(
                "; {} of other kinds not read",
                plural(self.not_read.len(), "file")
            )
        } else {
            String::new()
        }
    }
}

/// `1 file`, `2 files`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot carry.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML for CI dashboards: one `<testsuite>` per file, one
/// `<testcase>` per record; a record that does not pass is a `<failure>`
/// (a file-level error an `<error>`; a sheet without a grid only when its
/// workbook has none anywhere, see [`SheetRecord::passes`]).
pub fn junit_xml(records: &[SheetRecord], summary: &Summary, allow_no_grid: bool) -> String {
    let mut by_file: BTreeMap<&str, Vec<&SheetRecord>> = BTreeMap::new();
    for r in records {
        by_file.entry(r.file.as_str()).or_default().push(r);
    }
    let fails = |r: &SheetRecord, recs: &[&SheetRecord]| {
        r.sheet.is_some() && !r.passes(has_grid(recs.iter().copied()), allow_no_grid)
    };
    let failures: usize = by_file
        .values()
        .map(|recs| recs.iter().filter(|r| fails(r, recs)).count())
        .sum();
    let errors = records.iter().filter(|r| r.sheet.is_none()).count();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"xlsudoku check\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{:.3}\">",
        records.len(),
        summary.seconds
    );
    for (file, recs) in by_file {
        let f = recs.iter().filter(|r| fails(r, &recs)).count();
        let e = recs.iter().filter(|r| r.sheet.is_none()).count();
        let time: f64 = recs.iter().map(|r| r.elapsed_ms).sum::<f64>() / 1000.0;
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{f}\" errors=\"{e}\" time=\"{time:.3}\">",
            xml_escape(file),
            recs.len()
        );
        for &r in &recs {
            let name = match (&r.sheet, &r.range) {
                (Some(s), Some(range)) => format!("{s}!{range}"),
                (Some(s), None) => s.clone(),
                (None, _) => "(file)".to_string(),
            };
            let _ = write!(
                x,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                xml_escape(file),
                xml_escape(&name),
                r.elapsed_ms / 1000.0
            );
            let message = r.error.clone().unwrap_or_else(|| r.status.to_string());
            if r.sheet.is_none() {
                let _ = writeln!(
                    x,
                    ">\n      <error type=\"error\" message=\"{}\"/>\n    </testcase>",
                    xml_escape(&message)
                );
            } else if fails(r, &recs) {
                let _ = writeln!(
                    x,
                    ">\n      <failure type=\"{}\" message=\"{}\"/>\n    </testcase>",
                    r.status,
                    xml_escape(&message)
                );
            } else {
                x.push_str("/>\n");
            }
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(file: &str, sheet: Option<&str>, status: SheetStatus) -> SheetRecord {
        SheetRecord {
            file: file.into(),
            sheet: sheet.map(Into::into),
            status,
            error: (status != SheetStatus::Solved).then(|| format!("{status} <&>")),
            ..Default::default()
        }
    }

    #[test]
    fn a_human_line_names_the_answer_copy() {
        let mut r = rec("a.xlsx", Some("S"), SheetStatus::Solved);
        assert!(!r.to_human_line().contains("answers"));
        r.answer_range = Some("M3:U11".into());
        r.answer_sheet = Some("S".into());
        assert!(
            r.to_human_line().contains(" → answers in M3:U11"),
            "{}",
            r.to_human_line()
        );
        let mut other = r.clone();
        other.answer_range = Some("B3:J11".into());
        other.answer_sheet = Some("Solutions 2".into());
        assert!(
            other
                .to_human_line()
                .contains(" → answers in 'Solutions 2'!B3:J11"),
            "{}",
            other.to_human_line()
        );
        assert!(r
            .to_json_line()
            .contains(r#""answer_range":"M3:U11","answer_sheet":"S""#));
    }

    #[test]
    fn json_line_has_every_field_and_reads_back() {
        let r = rec("a.xlsx", Some("S"), SheetStatus::Solved);
        let line = r.to_json_line();
        for key in [
            "file",
            "sheet",
            "range",
            "size",
            "box",
            "givens",
            "status",
            "unique",
            "history",
            "elapsed_ms",
            "output",
            "error",
            "skipped",
        ] {
            assert!(
                line.contains(&format!("\"{key}\":")),
                "{key} missing in {line}"
            );
        }
        let back: SheetRecord = serde_json::from_str(&line).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn junit_counts_failures_and_errors_and_escapes() {
        let records = vec![
            rec("a.xlsx", Some("S1"), SheetStatus::Solved),
            rec("a.xlsx", Some("S2"), SheetStatus::Multiple),
            rec("a.xlsx", Some("S3"), SheetStatus::NoGrid),
            rec("b&c.xlsx", None, SheetStatus::Error),
        ];
        let x = junit_xml(&records, &Summary::default(), false);
        // S3 has no grid, but a.xlsx has grids elsewhere: not a failure.
        assert!(x.contains("tests=\"4\" failures=\"1\" errors=\"1\""), "{x}");
        assert!(x.contains("b&amp;c.xlsx"));
        assert!(x.contains("message=\"multiple &lt;&amp;&gt;\""));
        assert!(x.contains("name=\"S3\" time=\"0.000\"/>"), "{x}");
    }

    #[test]
    fn a_sheet_without_a_grid_fails_only_in_a_workbook_without_any() {
        let records = vec![
            rec("a.xlsx", Some("Grid"), SheetStatus::Solved),
            rec("a.xlsx", Some("Notes"), SheetStatus::NoGrid),
            rec("b.xlsx", Some("S1"), SheetStatus::NoGrid),
            rec("b.xlsx", Some("S2"), SheetStatus::NoGrid),
        ];
        let mut records = records;
        for r in &mut records[2..] {
            r.error = Some(NO_GRID_ANYWHERE.to_string());
        }
        assert!(has_grid(&records[..2]) && !has_grid(&records[2..]));
        // A --sheet run that reports only a sheet without a grid, in a
        // workbook with grids elsewhere: its record does not say none
        // anywhere, and it passes.
        assert!(has_grid(&[rec(
            "c.xlsx",
            Some("Notes"),
            SheetStatus::NoGrid
        )]));
        assert!(records[1].passes(true, false) && !records[2].passes(false, false));
        assert!(records[2].passes(false, true), "--allow-no-grid");
        assert!(!rec("c", Some("S"), SheetStatus::Invalid).passes(true, true));
        let x = junit_xml(&records, &Summary::default(), false);
        assert!(x.contains("tests=\"4\" failures=\"2\" errors=\"0\""), "{x}");
        assert!(
            x.contains("name=\"a.xlsx\" tests=\"2\" failures=\"0\""),
            "{x}"
        );
        assert!(
            x.contains("name=\"b.xlsx\" tests=\"2\" failures=\"2\""),
            "{x}"
        );
        let allowed = junit_xml(&records, &Summary::default(), true);
        assert!(allowed.contains("failures=\"0\""), "{allowed}");
    }

    #[test]
    fn summary_counts_statuses() {
        let mut s = Summary::default();
        s.add(&rec("a", Some("x"), SheetStatus::Solved));
        s.add(&rec("a", Some("y"), SheetStatus::Solved));
        s.add(&rec("b", None, SheetStatus::Error));
        assert_eq!(s.sheets, 2);
        assert_eq!(s.statuses[&SheetStatus::Solved], 2);
        assert_eq!(s.statuses[&SheetStatus::Error], 1);
        assert!(s.to_json_line().starts_with("{\"summary\":{"));
        let line = s.to_human_line();
        assert!(line.starts_with("0 files (0 skipped"), "{line}");
        assert!(line.contains("2 grids: 2 solved, 1 error"), "{line}");
    }
}
