//! Rating text puzzle collections, as Sudoku Explainer's `serate` does:
//! one record per puzzle line (status, SE rating, HoDoKu level and score,
//! the history), in input order, rated in parallel.
//!
//! Files are read as [`bench`](crate::bench) reads them
//! ([`puzzle_lines`], `-` for standard input), a window of a few hundred
//! lines at a time: one puzzle per line, `.` or `0` for a blank,
//! `#` comment lines and blank lines skipped, any line end, a byte order
//! mark. A line that is not a puzzle is an error naming its file and line,
//! and the run goes on; a file that cannot be read, or is not text, is one
//! error and the run goes on with the next file.
//!
//! Each puzzle is solved with [`solve`](fn@crate::solve::solve) (clashes, the
//! exact search for up to two solutions, then the technique ladder) and
//! rated with [`logic::rate`](crate::logic::rate). Only a puzzle with one
//! solution is rated: an invalid, unsolvable or ambiguous one, or one that
//! reaches the time limit, is reported with its status and no rating.
//!
//! ```
//! use xlsudoku::rate_lists::{rate_files, RateOptions, RateSummary};
//! use xlsudoku::solve::Status;
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("two.txt");
//! std::fs::write(
//!     &path,
//!     "# one easy puzzle, one with a clash\n\
//!      ..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n\
//!      11.......................................................................\
//!      ........\n",
//! )?;
//! let mut summary = RateSummary::default();
//! let mut records = Vec::new();
//! rate_files(&[path], &RateOptions::default(), |item| {
//!     summary.add(&item);
//!     records.push(item.expect("both lines are puzzles"));
//! })?;
//! assert_eq!(records[0].status, Status::Solved);
//! assert_eq!(records[0].level.map(|l| l.to_string()).as_deref(), Some("easy"));
//! assert_eq!((records[1].line, records[1].status), (3, Status::Invalid));
//! assert_eq!((summary.puzzles, summary.solved, summary.invalid), (2, 1, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::grid::{Grid, GridError};
use crate::logic::rating::se_text;
use crate::logic::Level;
use crate::puzzle_text::{puzzle_lines, BenchError, PuzzleLine};
use crate::solve::{solve, SolveOptions, Status};

mod se_only;
pub use se_only::rate_puzzle_se;

/// How to rate.
#[derive(Debug, Clone, Default)]
pub struct RateOptions {
    /// Give up on a puzzle's exact search after this long (status
    /// [`Status::Timeout`]).
    pub timeout: Option<Duration>,
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    /// Sudoku Explainer's rating alone on 9x9 puzzles
    /// ([`rate_puzzle_se`]): no HoDoKu level, score or history.
    pub se_only: bool,
}

/// One rated puzzle line.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RateRecord {
    /// The file as given.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// The puzzle, `.` for a blank.
    pub puzzle: String,
    /// `solved` (one solution, rated), `invalid` (clashing givens),
    /// `unsolvable`, `multiple` or `timeout`.
    pub status: Status,
    /// Sudoku Explainer's ER (the hardest step); a lower bound when the
    /// ladder needed a guess. `None` unless solved.
    #[serde(serialize_with = "crate::rounding::opt_rating")]
    pub rating: Option<f32>,
    /// True when `rating`, `ep` and `ed` are Sudoku Explainer's own (a
    /// 9x9 rated to the end by SE's rules), false when `rating` is a
    /// lower bound (beyond 9x9, when the ladder needed a guess). `None`
    /// unless solved.
    pub rating_exact: Option<bool>,
    /// Sudoku Explainer's EP: the hardest step up to the first placement
    /// (a lower bound when the techniques stopped before it). `None`
    /// unless solved.
    #[serde(serialize_with = "crate::rounding::opt_rating")]
    pub ep: Option<f32>,
    /// Sudoku Explainer's ED: the first step (a lower bound when no
    /// technique applies at the start). `None` unless solved.
    #[serde(serialize_with = "crate::rounding::opt_rating")]
    pub ed: Option<f32>,
    /// HoDoKu's level (`extreme` when the ladder needed a guess). `None`
    /// unless solved.
    pub level: Option<Level>,
    /// HoDoKu's score. `None` unless solved.
    pub score: Option<u32>,
    /// The history string (`i` hidden single, `!` locked candidates, …,
    /// `#` guess); empty unless solved.
    pub history: String,
    /// Guesses (`#`) the history holds: 0 when the techniques alone solve
    /// the puzzle.
    pub guesses: u64,
    /// Wall time spent on the puzzle, in milliseconds.
    #[serde(serialize_with = "crate::rounding::millis")]
    pub elapsed_ms: f64,
    /// Why the puzzle is invalid (its clashing givens); `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl RateRecord {
    /// The record as one JSON object on one line.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string())
    }

    /// The record as one human line: `FILE:LINE PUZZLE ER LEVEL SCORE
    /// HISTORY` (ER after `≥` when it is a lower bound), or `FILE:LINE
    /// PUZZLE STATUS` for a puzzle not rated.
    ///
    /// ```
    /// use xlsudoku::rate_lists::RateRecord;
    /// use xlsudoku::solve::Status;
    ///
    /// let r = RateRecord {
    ///     file: "p.txt".into(),
    ///     line: 3,
    ///     puzzle: "1.3..2.4....1..3".into(),
    ///     status: Status::Multiple,
    ///     rating: None,
    ///     rating_exact: None,
    ///     ep: None,
    ///     ed: None,
    ///     level: None,
    ///     score: None,
    ///     history: String::new(),
    ///     guesses: 0,
    ///     elapsed_ms: 0.1,
    ///     error: None,
    /// };
    /// assert_eq!(r.to_human_line(), "p.txt:3 1.3..2.4....1..3 multiple");
    /// ```
    pub fn to_human_line(&self) -> String {
        let head = format!("{}:{} {}", self.file, self.line, self.puzzle);
        match (self.rating, self.level, self.score) {
            (Some(se), Some(level), Some(score)) if self.status == Status::Solved => {
                let history = if self.history.is_empty() {
                    "-"
                } else {
                    &self.history
                };
                // One column: `≥9.5` for a lower bound.
                let se = se_text(se, self.rating_exact.unwrap_or(false)).replace(' ', "");
                format!("{head} {se} {level} {score} {history}")
            }
            // Sudoku Explainer's scale alone (`--se-only`): ER/EP/ED.
            (Some(se), None, None) if self.status == Status::Solved => {
                let tenth = |x: Option<f32>| x.map_or("?".to_string(), |x| format!("{x:.1}"));
                let er = se_text(se, self.rating_exact.unwrap_or(false)).replace(' ', "");
                format!("{head} {er}/{}/{}", tenth(self.ep), tenth(self.ed))
            }
            _ => match &self.error {
                Some(why) => format!("{head} {}: {why}", self.status),
                None => format!("{head} {}", self.status),
            },
        }
    }
}

/// Why a line or a file could not be rated.
#[derive(Debug, thiserror::Error)]
pub enum RateError {
    /// The file cannot be read or is not a puzzle file, or a line of it is
    /// not a puzzle ([`BenchError::BadLine`]).
    #[error(transparent)]
    File(#[from] BenchError),
    /// Rating the puzzle of this line failed inside xlsudoku (a bug, never
    /// expected); the run goes on.
    #[error("{}:{line}: internal error while rating: {message}", path.display())]
    Internal {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The panic's message.
        message: String,
    },
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
}

impl RateError {
    /// True for a malformed line ([`BenchError::BadLine`]), false for a
    /// file error or an internal one.
    pub fn is_bad_line(&self) -> bool {
        matches!(self, RateError::File(BenchError::BadLine { .. }))
    }

    /// A malformed line as one JSON object on one line, in the place its
    /// record would have had: `{"file":…,"line":…,"status":"malformed",
    /// "error":…}`. `None` for any other error.
    pub fn malformed_json_line(&self) -> Option<String> {
        /// The record of a malformed line.
        #[derive(serde::Serialize)]
        struct Malformed<'a> {
            file: String,
            line: usize,
            status: &'a str,
            error: String,
        }
        match self {
            RateError::File(BenchError::BadLine { path, line, source }) => {
                serde_json::to_string(&Malformed {
                    file: path.display().to_string(),
                    line: *line,
                    status: "malformed",
                    error: source.to_string(),
                })
                .ok()
            }
            _ => None,
        }
    }
}

/// Puzzles taken ahead of the oldest not yet handed over, per thread:
/// enough to keep every thread busy past a slow puzzle, few enough that
/// memory stays the same for any length of file.
const WINDOW_PER_THREAD: usize = 64;

/// What the rating threads take, in input order: a puzzle line of a file,
/// or the error of a file (it cannot be opened, or reading it failed: its
/// lines before are taken, none after).
enum Work {
    Line(Arc<Path>, PuzzleLine),
    Failed(RateError),
}

/// The work of every file in turn, read as it is taken.
fn work(files: &[PathBuf]) -> impl Iterator<Item = Work> + Send + '_ {
    files.iter().flat_map(|path| {
        let (mut lines, mut failed) = match puzzle_lines(path) {
            Ok(l) => (Some(l), None),
            Err(e) => (None, Some(e)),
        };
        let shown: Arc<Path> = match &lines {
            Some(l) => Arc::from(l.path()),
            None => Arc::from(path.as_path()),
        };
        std::iter::from_fn(move || {
            if let Some(e) = failed.take() {
                return Some(Work::Failed(e.into()));
            }
            match lines.as_mut()?.next()? {
                Ok(line) => Some(Work::Line(shown.clone(), line)),
                Err(e) => {
                    lines = None;
                    Some(Work::Failed(e.into()))
                }
            }
        })
    })
}

/// Rates every puzzle line of the files, in parallel over puzzles, and
/// hands each result to `emit` in input order (file by file, line by
/// line), each as soon as it and every one before it are done: a record,
/// or the error of a malformed line or of a whole file (after the records
/// of the lines before the one that shows it). Only a window of lines is
/// held at a time.
/// The only error returned is [`RateError::Threads`].
pub fn rate_files(
    files: &[PathBuf],
    opts: &RateOptions,
    emit: impl FnMut(Result<RateRecord, RateError>),
) -> Result<(), RateError> {
    let threads = match opts.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    crate::ordered::map_in_order(
        work(files),
        threads,
        WINDOW_PER_THREAD * threads,
        |w| match w {
            Work::Line(path, line) => rate_line(&path, &line, opts),
            Work::Failed(e) => Err(e),
        },
        emit,
    )
    .map_err(|e| RateError::Threads(e.to_string()))
}

/// One line of a file: its record, or why it has none.
fn rate_line(
    path: &Path,
    (line, parsed): &PuzzleLine,
    opts: &RateOptions,
) -> Result<RateRecord, RateError> {
    let puzzle = parsed.as_ref().map_err(|e: &GridError| {
        RateError::File(BenchError::BadLine {
            path: path.to_path_buf(),
            line: *line,
            source: e.clone(),
        })
    })?;
    let rate = if opts.se_only {
        rate_puzzle_se
    } else {
        rate_puzzle
    };
    catch_unwind(AssertUnwindSafe(|| {
        rate(&path.display().to_string(), *line, puzzle, opts.timeout)
    }))
    .map_err(|panic| RateError::Internal {
        path: path.to_path_buf(),
        line: *line,
        message: panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".to_string()),
    })
}

/// Rates one puzzle: solves it (proving it unique, within `timeout`) and,
/// when it has one solution, rates it.
///
/// ```
/// use xlsudoku::rate_lists::rate_puzzle;
/// use xlsudoku::solve::Status;
///
/// let puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
///     .parse()?;
/// let r = rate_puzzle("p.txt", 1, &puzzle, None);
/// assert_eq!(r.status, Status::Solved);
/// assert!(r.rating.is_some_and(|se| se <= 2.3));
/// assert_eq!(r.guesses, 0);
/// # Ok::<(), xlsudoku::grid::GridError>(())
/// ```
pub fn rate_puzzle(
    file: &str,
    line: usize,
    puzzle: &Grid,
    timeout: Option<Duration>,
) -> RateRecord {
    let outcome = solve(
        puzzle,
        &SolveOptions {
            timeout,
            // `rate` rates fully: only the timeout stops it.
            se_budget: None,
            ..SolveOptions::default()
        },
    );
    let solved = outcome.status == Status::Solved;
    let rating = outcome.rating.filter(|_| solved);
    let history = if solved {
        outcome.history
    } else {
        String::new()
    };
    let error = (!outcome.conflicts.is_empty()).then(|| clashes_in_words(&outcome.conflicts));
    RateRecord {
        file: file.to_string(),
        line,
        puzzle: puzzle.to_line(),
        status: outcome.status,
        rating: rating.map(|r| r.se),
        rating_exact: rating.map(|r| r.se_exact),
        ep: rating.map(|r| r.ep),
        ed: rating.map(|r| r.ed),
        level: rating.map(|r| r.level),
        score: rating.map(|r| r.score),
        guesses: history.chars().filter(|&c| c == '#').count() as u64,
        history,
        elapsed_ms: outcome.elapsed.as_secs_f64() * 1000.0,
        error,
    }
}

/// The clashing givens in words: `1 repeats in row 1, …`.
fn clashes_in_words(conflicts: &[crate::grid::Conflict]) -> String {
    conflicts
        .iter()
        .map(|c| {
            let d = crate::grid::digit_char(c.value);
            format!("{d} repeats in {}", c.unit)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Counts over a run: puzzles per status and per level, malformed lines,
/// files that could not be read, and the rate.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct RateSummary {
    /// Files given.
    pub files: u64,
    /// Puzzle lines read (malformed lines not counted).
    pub puzzles: u64,
    /// Puzzles with one solution, rated.
    pub solved: u64,
    /// Puzzles with clashing givens.
    pub invalid: u64,
    /// Puzzles without a solution.
    pub unsolvable: u64,
    /// Puzzles with more than one solution.
    pub multiple: u64,
    /// Puzzles given up at the time limit.
    pub timeout: u64,
    /// Lines that are not puzzles.
    pub malformed: u64,
    /// Files that could not be read, or are not puzzle files.
    pub file_errors: u64,
    /// Errors inside xlsudoku while rating (never expected).
    pub internal_errors: u64,
    /// Rated puzzles per HoDoKu level.
    pub levels: Levels,
    /// Rated puzzles the techniques solve without a guess.
    pub without_guess: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// `puzzles / seconds` (0 when nothing was timed).
    pub per_second: f64,
    /// The run rated on Sudoku Explainer's scale alone (`--se-only`):
    /// no levels to count, so the words leave them out.
    #[serde(skip)]
    pub se_only: bool,
}

/// Rated puzzles per HoDoKu level.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Levels {
    /// Easy.
    pub easy: u64,
    /// Medium.
    pub medium: u64,
    /// Hard.
    pub hard: u64,
    /// Unfair.
    pub unfair: u64,
    /// Extreme.
    pub extreme: u64,
}

impl RateSummary {
    /// Counts one result of [`rate_files`].
    pub fn add(&mut self, item: &Result<RateRecord, RateError>) {
        let r = match item {
            Ok(r) => r,
            Err(e) if e.is_bad_line() => {
                self.malformed += 1;
                return;
            }
            Err(RateError::Internal { .. }) => {
                self.puzzles += 1;
                self.internal_errors += 1;
                return;
            }
            Err(_) => {
                self.file_errors += 1;
                return;
            }
        };
        self.puzzles += 1;
        match r.status {
            Status::Solved => self.solved += 1,
            Status::Invalid => self.invalid += 1,
            Status::Unsolvable | Status::GaveUp => self.unsolvable += 1,
            Status::Multiple => self.multiple += 1,
            Status::Timeout => self.timeout += 1,
        }
        if let Some(level) = r.level {
            *match level {
                Level::Easy => &mut self.levels.easy,
                Level::Medium => &mut self.levels.medium,
                Level::Hard => &mut self.levels.hard,
                Level::Unfair => &mut self.levels.unfair,
                Level::Extreme => &mut self.levels.extreme,
            } += 1;
            if r.guesses == 0 {
                self.without_guess += 1;
            }
        }
    }

    /// Sets the run's time and the rate from it.
    pub fn finish(&mut self, seconds: f64) {
        self.seconds = seconds;
        self.per_second = if seconds > 0.0 {
            self.puzzles as f64 / seconds
        } else {
            0.0
        };
    }

    /// True when every puzzle line was rated: no malformed line, no file
    /// error, every puzzle solved with one solution.
    pub fn all_rated(&self) -> bool {
        self.solved == self.puzzles && self.malformed == 0 && self.file_errors == 0
    }

    /// The summary as `{"summary":{…}}` on one line.
    pub fn to_json_line(&self) -> String {
        let inner = serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string());
        format!("{{\"summary\":{inner}}}")
    }

    /// The summary in words, e.g. `rated 3 of 4 puzzles in 0.02 s (200
    /// puzzles/s): easy 2, medium 0, hard 0, unfair 0, extreme 1; 2 without
    /// a guess; 1 multiple`.
    pub fn to_human_line(&self) -> String {
        let l = &self.levels;
        let mut line = format!(
            "rated {} of {} puzzles in {:.2} s ({:.0} puzzles/s)",
            self.solved, self.puzzles, self.seconds, self.per_second,
        );
        if !self.se_only {
            line.push_str(&format!(
                ": easy {}, medium {}, hard {}, unfair {}, extreme {}; {} without a guess",
                l.easy, l.medium, l.hard, l.unfair, l.extreme, self.without_guess
            ));
        }
        for (n, what) in [
            (self.invalid, "invalid"),
            (self.unsolvable, "unsolvable"),
            (self.multiple, "multiple"),
            (self.timeout, "timeout"),
            (self.malformed, "malformed line"),
            (self.file_errors, "unreadable file"),
            (self.internal_errors, "internal error"),
        ] {
            if n > 0 {
                let plural = if n > 1 && what.contains(' ') { "s" } else { "" };
                line.push_str(&format!("; {n} {what}{plural}"));
            }
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{BEYOND, EASY};

    #[test]
    fn a_puzzle_beyond_the_ladder_gets_se_own_rating_and_its_guesses() {
        let r = rate_puzzle("f", 1, &BEYOND.parse().unwrap(), None);
        assert_eq!(r.status, Status::Solved);
        assert!(r.guesses > 0 && r.history.contains('#'), "{r:?}");
        assert_eq!(r.level, Some(Level::Extreme));
        // The ladder guesses, but SE's own rules rate it to the end.
        assert_eq!(r.rating_exact, Some(true));
        assert!(r.rating.is_some_and(|se| se >= 7.0), "{r:?}");
        let line = r.to_human_line();
        assert!(line.contains(" extreme ") && !line.contains('≥'), "{line}");
    }

    #[test]
    fn a_clash_is_invalid_and_named_without_a_rating() {
        let mut p: Grid = EASY.parse().unwrap();
        p.set(3, 0, 8);
        let r = rate_puzzle("f", 7, &p, None);
        assert_eq!(r.status, Status::Invalid);
        assert_eq!((r.rating, r.level, r.score), (None, None, None));
        let why = r.error.clone().expect("the clash is named");
        assert!(why.contains("8 repeats in row 4"), "{why}");
        assert!(
            r.to_human_line().starts_with("f:7 "),
            "{}",
            r.to_human_line()
        );
    }

    #[test]
    fn the_summary_counts_statuses_levels_and_errors() {
        let mut s = RateSummary::default();
        let easy = rate_puzzle("f", 1, &EASY.parse().unwrap(), None);
        s.add(&Ok(easy));
        s.add(&Err(RateError::File(BenchError::BadLine {
            path: "f".into(),
            line: 2,
            source: GridError::BadLength(5),
        })));
        s.add(&Err(RateError::File(BenchError::Io {
            path: "g".into(),
            source: std::io::Error::other("gone"),
        })));
        s.finish(0.5);
        assert_eq!((s.puzzles, s.solved, s.levels.easy), (1, 1, 1));
        assert_eq!((s.malformed, s.file_errors, s.without_guess), (1, 1, 1));
        assert_eq!(s.per_second, 2.0);
        assert!(!s.all_rated());
        let json: serde_json::Value = serde_json::from_str(&s.to_json_line()).unwrap();
        assert_eq!(json["summary"]["levels"]["easy"], 1);
        let human = s.to_human_line();
        assert!(human.contains("; 1 malformed line") && human.contains("; 1 unreadable file"));
    }

    #[test]
    fn a_malformed_line_has_a_json_record_and_other_errors_none() {
        let bad = RateError::File(BenchError::BadLine {
            path: "f.txt".into(),
            line: 4,
            source: GridError::BadLength(5),
        });
        let json: serde_json::Value =
            serde_json::from_str(&bad.malformed_json_line().expect("a record")).unwrap();
        assert_eq!(json["file"], "f.txt");
        assert_eq!(json["line"], 4);
        assert_eq!(json["status"], "malformed");
        assert_eq!(json["error"], GridError::BadLength(5).to_string());
        let gone = RateError::Threads("no".into());
        assert_eq!(gone.malformed_json_line(), None);
    }
}
