//! How `solve` and `check` show what failed: the summary of failures that
//! ends every run that had any (also under `-q`), GitHub Actions workflow
//! commands (`--format github`), and status words in colour on a terminal
//! (`--color`, `NO_COLOR`).

use std::io::IsTerminal;

use xlsudoku::report::{SheetRecord, SheetStatus};

/// `--format`: how each grid's line is written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// One line per grid, for people.
    #[default]
    Human,
    /// GitHub Actions workflow commands: an `::error` line per failing
    /// grid, so failures show on the pull request; the rest as `human`.
    Github,
}

/// `--color`: when status words are coloured.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour what goes to stdout (or stderr, `to_stderr`).
    pub fn enabled(self, to_stderr: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                let terminal = if to_stderr {
                    std::io::stderr().is_terminal()
                } else {
                    std::io::stdout().is_terminal()
                };
                terminal && !no_color
            }
        }
    }
}

/// The status word of a human line in its colour: green for solved, yellow
/// for a grid outside the promised level or a sheet without a grid, red for
/// the rest.
pub fn paint(line: &str, status: SheetStatus) -> String {
    let word = status.as_str();
    let colour = match status {
        SheetStatus::Solved => "32",
        SheetStatus::TooHard | SheetStatus::TooEasy | SheetStatus::NoGrid => "33",
        _ => "31",
    };
    let marker = format!(": {word}");
    match line.find(&marker) {
        Some(at) => {
            let start = at + 2;
            let end = start + word.len();
            format!(
                "{}\x1b[1;{colour}m{}\x1b[0m{}",
                &line[..start],
                &line[start..end],
                &line[end..]
            )
        }
        None => line.to_string(),
    }
}

/// A GitHub Actions `::error` command for a failing grid or file: the file
/// as the annotation's file, the sheet, range and status as its title.
pub fn github_line(r: &SheetRecord) -> String {
    let mut title = String::from("xlsudoku");
    if let Some(sheet) = &r.sheet {
        title.push_str(&format!(" [{sheet}]"));
    }
    if let Some(range) = &r.range {
        title.push_str(&format!(" {range}"));
    }
    title.push_str(&format!(": {}", r.status.as_str()));
    let message = r
        .error
        .clone()
        .unwrap_or_else(|| r.status.as_str().to_string());
    format!(
        "::error file={},title={}::{}",
        escape_property(&r.file),
        escape_property(&title),
        escape_data(&message)
    )
}

/// A workflow command's message, escaped as GitHub's toolkit does.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property (`file=`, `title=`), escaped as GitHub's
/// toolkit does.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The failures of a run, for the summary at its end.
#[derive(Debug, Default)]
pub struct Failures {
    lines: Vec<String>,
    grids: usize,
    files: usize,
}

/// At most this many failures are listed; the count gives the rest.
const LISTED: usize = 200;

impl Failures {
    /// Notes a failing record: a grid (or a workbook without one) that did
    /// not pass, or a file that could not be read or written.
    pub fn note(&mut self, r: &SheetRecord) {
        if r.sheet.is_some() {
            self.grids += 1;
        } else {
            self.files += 1;
        }
        if self.lines.len() < LISTED {
            if let (None, Some(e)) = (&r.sheet, &r.error) {
                // A file's error names the file already.
                self.lines
                    .push(e.lines().next().unwrap_or_default().to_string());
                return;
            }
            let mut line = r.file.clone();
            if let Some(sheet) = &r.sheet {
                line.push_str(&format!(" [{sheet}]"));
            }
            if let Some(range) = &r.range {
                line.push_str(&format!(" {range}"));
            }
            if r.sheet.is_some() {
                line.push_str(&format!(": {}", r.status.as_str()));
            }
            if let Some(e) = &r.error {
                let e: String = e
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .chars()
                    .take(240)
                    .collect();
                line.push_str(" - ");
                line.push_str(&e);
            }
            self.lines.push(line);
        }
    }

    /// The summary, or `None` when nothing failed.
    pub fn summary(&self) -> Option<String> {
        if self.lines.is_empty() {
            return None;
        }
        let mut head = Vec::new();
        if self.grids > 0 {
            head.push(plural(self.grids, "grid failed", "grids failed"));
        }
        if self.files > 0 {
            head.push(plural(
                self.files,
                "file could not be processed",
                "files could not be processed",
            ));
        }
        let mut out = format!("xlsudoku: {}:", head.join(", "));
        for l in &self.lines {
            out.push_str("\n  ");
            out.push_str(l);
        }
        let more = self.grids + self.files - self.lines.len();
        if more > 0 {
            out.push_str(&format!(
                "\n  ... and {more} more (--json or --junit lists them all)"
            ));
        }
        Some(out)
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(status: SheetStatus, error: &str) -> SheetRecord {
        SheetRecord {
            file: "puzzles/a,b.xlsx".into(),
            sheet: Some("Week: 1".into()),
            range: Some("B2:J10".into()),
            status,
            error: Some(error.into()),
            ..Default::default()
        }
    }

    #[test]
    fn github_commands_escape_what_github_reads_as_syntax() {
        let line = github_line(&record(
            SheetStatus::Invalid,
            "5 twice in row 4 (D6, H6)\n100%",
        ));
        assert_eq!(
            line,
            "::error file=puzzles/a%2Cb.xlsx,title=xlsudoku [Week%3A 1] B2%3AJ10%3A invalid::5 twice in row 4 (D6, H6)%0A100%25"
        );
    }

    #[test]
    fn the_summary_lists_each_failure_once_and_counts_the_rest() {
        let mut f = Failures::default();
        assert_eq!(f.summary(), None);
        f.note(&record(SheetStatus::Multiple, "more than one solution"));
        f.note(&SheetRecord {
            file: "b.xlsx".into(),
            status: SheetStatus::Error,
            error: Some("b.xlsx: not a zip package".into()),
            ..Default::default()
        });
        let s = f.summary().unwrap();
        assert_eq!(
            s,
            "xlsudoku: 1 grid failed, 1 file could not be processed:\n  puzzles/a,b.xlsx [Week: 1] B2:J10: multiple - more than one solution\n  b.xlsx: not a zip package"
        );
        for _ in 0..LISTED + 5 {
            f.note(&record(SheetStatus::Invalid, "x"));
        }
        assert!(f
            .summary()
            .unwrap()
            .ends_with("... and 7 more (--json or --junit lists them all)"));
    }

    #[test]
    fn only_the_status_word_is_painted() {
        let line = "a.xlsx [S] B2:J10 9x9: solved i!! (0.10 ms)";
        let painted = paint(line, SheetStatus::Solved);
        assert_eq!(
            painted,
            "a.xlsx [S] B2:J10 9x9: \x1b[1;32msolved\x1b[0m i!! (0.10 ms)"
        );
        assert_eq!(
            paint("no status here", SheetStatus::Invalid),
            "no status here"
        );
    }
}
