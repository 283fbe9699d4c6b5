//! The bench runner: solves text puzzle collections and reports puzzles per
//! second, the engine's yardstick against other solvers.
//!
//! A puzzle file holds one puzzle per line: `.` or `0` for a blank, `1`-`9`
//! then `A`=10, `B`=11 … for larger grids ([`Grid::parse_line`]). The side
//! comes from the length of the first puzzle; lines starting with `#`, blank
//! lines and any text after the puzzle (after the first whitespace) are
//! ignored. The file is read in chunks of a few thousand puzzles (memory
//! stays the same for any length), each parsed before the clock starts;
//! only the solving is timed, single-threaded, in CPU time of the solving thread
//! (`CLOCK_THREAD_CPUTIME_ID` on Unix, so that a busy machine does not skew
//! the figures; wall clock elsewhere). Every reported solution is then
//! checked with [`Grid::solves`].
//!
//! ```
//! use xlsudoku::bench::{bench_file, BenchMode, FileReport};
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("two.txt");
//! std::fs::write(&path, "# a comment\n12..34..2.4.4..1 unique\n\n1..............4\n")?;
//! let report = bench_file(&path, BenchMode::Unique)?;
//! assert_eq!((report.puzzles, report.unique, report.multiple), (2, 1, 1));
//! println!("{}\n{}", FileReport::table_header(), report.table_row());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;
use std::time::{Duration, Instant};

use crate::grid::Grid;
use crate::search::{search_into, SearchOptions};

pub use crate::puzzle_text::{
    parse_puzzles, puzzle_lines, read_puzzle_lines, BenchError, PuzzleLine, PuzzleLines, MIN_SIDE,
};

/// What the bench asks of each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchMode {
    /// Prove uniqueness: search for up to two solutions.
    Unique,
    /// Stop at the first solution.
    First,
}

impl BenchMode {
    /// The solution limit this mode searches with.
    pub fn limit(self) -> usize {
        match self {
            BenchMode::Unique => 2,
            BenchMode::First => 1,
        }
    }
}

/// The result of benchmarking one file.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FileReport {
    /// The file as given.
    pub file: String,
    /// Puzzles read.
    pub puzzles: u64,
    /// Puzzles with at least one solution.
    pub solved: u64,
    /// Puzzles with exactly one solution ([`BenchMode::Unique`] only; 0 in
    /// [`BenchMode::First`], which cannot tell).
    pub unique: u64,
    /// Puzzles with two or more solutions ([`BenchMode::Unique`] only).
    pub multiple: u64,
    /// Puzzles with no solution (clashing givens included).
    pub none: u64,
    /// Puzzles given up at the per-puzzle time limit
    /// ([`bench_file_with`]; always 0 for [`bench_file`]). Left out of the
    /// JSON form when 0, so that a run without timeouts has exactly the
    /// fields issue 3 names.
    #[serde(skip_serializing_if = "is_zero")]
    pub timed_out: u64,
    /// CPU seconds of the solving thread (wall-clock seconds where the
    /// platform has no thread clock); parsing and checking excluded.
    pub seconds: f64,
    /// `puzzles / seconds` (0 when nothing was timed).
    pub per_second: f64,
}

/// Serde's test for leaving out a count of zero.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Solves every puzzle of one file single-threaded and reports the counts
/// and the solving rate. No time limit: see [`bench_file_with`].
pub fn bench_file(path: &Path, mode: BenchMode) -> Result<FileReport, BenchError> {
    bench_file_with(path, mode, None)
}

/// [`bench_file`] with an optional time limit per puzzle: a puzzle that
/// reaches it is counted in [`FileReport::timed_out`] (its time is still
/// counted in `seconds`) and the run goes on.
pub fn bench_file_with(
    path: &Path,
    mode: BenchMode,
    per_puzzle: Option<Duration>,
) -> Result<FileReport, BenchError> {
    let mut lines = puzzle_lines(path)?;
    let path = &lines.path().to_path_buf();
    let mut report = FileReport {
        file: path.display().to_string(),
        puzzles: 0,
        solved: 0,
        unique: 0,
        multiple: 0,
        none: 0,
        timed_out: 0,
        seconds: 0.0,
        per_second: 0.0,
    };
    // The file is solved a chunk at a time, so that memory stays the same
    // for any length of file.
    let mut chunk: Vec<(usize, Grid)> = Vec::with_capacity(CHUNK);
    let mut found: Vec<u8> = Vec::new();
    loop {
        chunk.clear();
        for item in lines.by_ref().take(CHUNK) {
            let (line, parsed) = item?;
            let grid = parsed.map_err(|source| BenchError::BadLine {
                path: path.to_path_buf(),
                line,
                source,
            })?;
            chunk.push((line, grid));
        }
        if chunk.is_empty() {
            break;
        }
        bench_chunk(path, &chunk, mode, per_puzzle, &mut found, &mut report)?;
    }
    report.per_second = if report.seconds > 0.0 {
        report.puzzles as f64 / report.seconds
    } else {
        0.0
    };
    Ok(report)
}

/// Puzzles read, solved and checked at a time by [`bench_file_with`].
const CHUNK: usize = 4096;

/// Solves one chunk of a file (timed), checks each solution and adds the
/// counts and the time to `report`. `found` is the solutions' buffer,
/// reused from chunk to chunk.
fn bench_chunk(
    path: &Path,
    puzzles: &[(usize, Grid)],
    mode: BenchMode,
    per_puzzle: Option<Duration>,
    found: &mut Vec<u8>,
    report: &mut FileReport,
) -> Result<(), BenchError> {
    // The timed loop appends each solution's cells to one flat buffer, its
    // pages touched beforehand: keeping every outcome would time the
    // allocator's fresh memory too (measured: 7% of a run over puzzles with
    // two solutions each), and building grids costs allocations per puzzle.
    let total: usize = puzzles
        .iter()
        .map(|(_, p)| mode.limit() * p.cells().len())
        .sum();
    if found.capacity() < total {
        *found = vec![1; total];
    }
    found.clear();
    // Per puzzle: how many solutions (None: timed out).
    let mut counts: Vec<Option<usize>> = Vec::with_capacity(puzzles.len());
    let start = ThreadClock::start();
    for (_, puzzle) in puzzles {
        let opts = SearchOptions {
            limit: mode.limit(),
            deadline: per_puzzle.map(|limit| Instant::now() + limit),
        };
        counts.push(search_into(puzzle, &opts, found).ok().map(|f| f.count));
    }
    report.seconds += start.elapsed_secs();
    report.puzzles += puzzles.len() as u64;
    let mut rest = found.as_slice();
    for ((line, puzzle), count) in puzzles.iter().zip(&counts) {
        let Some(count) = *count else {
            report.timed_out += 1;
            continue;
        };
        let size = puzzle.cells().len();
        let (these, tail) = rest.split_at((count * size).min(rest.len()));
        rest = tail;
        let solutions: Vec<&[u8]> = these.chunks(size).collect();
        // Each solution solves the puzzle, and no two are the same.
        let right = solutions.iter().enumerate().all(|(i, cells)| {
            Grid::from_cells(puzzle.shape(), cells.to_vec()).is_ok_and(|s| s.solves(puzzle))
                && !solutions[i + 1..].contains(cells)
        });
        if !right {
            return Err(BenchError::WrongSolution {
                path: path.to_path_buf(),
                line: *line,
            });
        }
        match (mode, count) {
            (_, 0) => report.none += 1,
            (BenchMode::First, _) => report.solved += 1,
            (BenchMode::Unique, 1) => {
                report.solved += 1;
                report.unique += 1;
            }
            (BenchMode::Unique, _) => {
                report.solved += 1;
                report.multiple += 1;
            }
        }
    }
    Ok(())
}

/// A stopwatch of the calling thread's CPU time (wall clock where the
/// platform has no thread clock).
struct ThreadClock {
    /// Thread CPU time at the start, in seconds.
    #[cfg(unix)]
    start: f64,
    /// Wall-clock start.
    #[cfg(not(unix))]
    start: Instant,
}

impl ThreadClock {
    /// Starts the stopwatch.
    fn start() -> ThreadClock {
        ThreadClock {
            #[cfg(unix)]
            start: thread_cpu_secs(),
            #[cfg(not(unix))]
            start: Instant::now(),
        }
    }

    /// Seconds since [`ThreadClock::start`] (never negative).
    #[cfg(unix)]
    fn elapsed_secs(&self) -> f64 {
        (thread_cpu_secs() - self.start).max(0.0)
    }

    /// Seconds since [`ThreadClock::start`].
    #[cfg(not(unix))]
    fn elapsed_secs(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// The calling thread's CPU time in seconds (0 if the clock cannot be read,
/// which POSIX rules out for this clock id).
#[cfg(unix)]
fn thread_cpu_secs() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the
    // call, and CLOCK_THREAD_CPUTIME_ID is a clock id every POSIX system
    // with threads knows; the call writes only `ts`.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Width of the file column of the human table.
const FILE_COLUMN: usize = 36;

impl FileReport {
    /// The header line of the human table, aligned with [`Self::table_row`].
    pub fn table_header() -> String {
        format!(
            "{:<w$} {:>8} {:>8} {:>8} {:>8} {:>6} {:>9} {:>9} {:>12}",
            "file",
            "puzzles",
            "solved",
            "unique",
            "multiple",
            "none",
            "timed_out",
            "seconds",
            "per_second",
            w = FILE_COLUMN
        )
    }

    /// This report as one line of the human table. The file column shows
    /// the file's name without its directory, whole (a name wider than the
    /// column pushes the row right rather than being cut).
    pub fn table_row(&self) -> String {
        let path = Path::new(&self.file);
        let file = path
            .file_name()
            .map_or_else(|| self.file.clone(), |n| n.to_string_lossy().into_owned());
        format!(
            "{:<w$} {:>8} {:>8} {:>8} {:>8} {:>6} {:>9} {:>9.3} {:>12.0}",
            file,
            self.puzzles,
            self.solved,
            self.unique,
            self.multiple,
            self.none,
            self.timed_out,
            self.seconds,
            self.per_second,
            w = FILE_COLUMN
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle_text::MAX_LINE;
    use std::path::PathBuf;

    fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write temp file");
        path
    }

    #[test]
    fn counts_unique_multiple_and_none() {
        let dir = tempfile::tempdir().expect("temp dir");
        let text = "\
# comment line
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... unique 17-clue

.................................................................................  empty: many
11............................................................................... clash
";
        let path = write(&dir, "mix.txt", text);
        let r = bench_file(&path, BenchMode::Unique).expect("bench");
        assert_eq!(r.puzzles, 3);
        assert_eq!((r.solved, r.unique, r.multiple, r.none), (2, 1, 1, 1));
        assert!(r.seconds >= 0.0);
        let first = bench_file(&path, BenchMode::First).expect("bench");
        assert_eq!(
            (first.solved, first.unique, first.multiple, first.none),
            (2, 0, 0, 1)
        );
    }

    #[test]
    fn zero_is_a_blank_and_large_sides_use_letters() {
        let dir = tempfile::tempdir().expect("temp dir");
        let sixteen = ".".repeat(255) + "G";
        let path = write(
            &dir,
            "big.txt",
            &format!("{}\n{sixteen}\n", "0".repeat(256)),
        );
        let r = bench_file(&path, BenchMode::First).expect("bench");
        assert_eq!((r.puzzles, r.solved), (2, 2));
    }

    #[test]
    fn a_bad_line_names_file_and_line() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = write(
            &dir,
            "bad.txt",
            "1.3..2.4....1..3\n\n# c\n1.3..2.4....1..\n",
        );
        let err = bench_file(&path, BenchMode::Unique).expect_err("short line");
        match &err {
            BenchError::BadLine { line, .. } => assert_eq!(*line, 4),
            other => panic!("expected BadLine, got {other:?}"),
        }
        assert!(err.to_string().contains("bad.txt:4"), "{err}");
        let path = write(&dir, "char.txt", "1.3..2.4....1..5\n");
        assert!(matches!(
            bench_file(&path, BenchMode::Unique),
            Err(BenchError::BadLine { line: 1, .. })
        ));
    }

    #[test]
    fn a_missing_file_is_an_io_error_with_its_path() {
        let err =
            bench_file(Path::new("/nonexistent/x.txt"), BenchMode::Unique).expect_err("missing");
        assert!(matches!(err, BenchError::Io { .. }));
        assert!(err.to_string().contains("/nonexistent/x.txt"));
    }

    #[test]
    fn table_rows_line_up_with_the_header() {
        let r = FileReport {
            file: "a/very/long/path/that/goes/on/and/on/puzzles5_forum_hardest".into(),
            puzzles: 48766,
            solved: 48766,
            unique: 48766,
            multiple: 0,
            none: 0,
            timed_out: 0,
            seconds: 2.5,
            per_second: 19506.4,
        };
        let (h, row) = (FileReport::table_header(), r.table_row());
        assert_eq!(h.chars().count(), row.chars().count());
        assert!(row.starts_with("puzzles5_forum_hardest "), "{row}");
        assert!(!row.contains("a/very"), "{row}");
        assert!(row.ends_with("19506"));
    }

    #[test]
    fn a_long_file_name_is_shown_whole() {
        let name = "x".repeat(FILE_COLUMN + 10) + "_tail.txt";
        let r = FileReport {
            file: format!("/some/dir/{name}"),
            puzzles: 1,
            solved: 1,
            unique: 1,
            multiple: 0,
            none: 0,
            timed_out: 0,
            seconds: 1.0,
            per_second: 1.0,
        };
        assert!(r.table_row().starts_with(&format!("{name} ")));
    }

    #[test]
    fn the_thread_clock_counts_cpu_work_and_not_sleep() {
        let clock = ThreadClock::start();
        std::thread::sleep(Duration::from_millis(30));
        let slept = clock.elapsed_secs();
        let mut x = 0u64;
        let spin = Instant::now();
        while spin.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let worked = clock.elapsed_secs() - slept;
        assert!(worked > 0.0, "spinning costs CPU time");
        if cfg!(unix) {
            assert!(slept < 0.02, "sleeping is not CPU time: {slept}");
        }
    }

    #[test]
    fn a_per_puzzle_limit_counts_timeouts_and_goes_on() {
        let dir = tempfile::tempdir().expect("temp dir");
        // An empty 36x36 grid in unique mode needs many guesses; the full
        // grid after it none.
        let full: String = (0..36 * 36)
            .map(|i| {
                let (r, c) = (i / 36, i % 36);
                crate::grid::digit_char((((r % 6) * 6 + r / 6 + c) % 36 + 1) as u8)
            })
            .collect();
        let text = format!("{}\n{full}\n", ".".repeat(36 * 36));
        let path = write(&dir, "slow.txt", &text);
        let r = bench_file_with(&path, BenchMode::Unique, Some(Duration::ZERO)).expect("bench");
        assert_eq!((r.puzzles, r.timed_out, r.unique), (2, 1, 1));
        // The JSON form names the timeout only when there was one.
        let json = serde_json::to_value(&r).expect("serialisable");
        assert_eq!(json["timed_out"], 1);
        let full_only = write(&dir, "full.txt", &format!("{full}\n"));
        let r = bench_file(&full_only, BenchMode::Unique).expect("bench");
        let json = serde_json::to_value(&r).expect("serialisable");
        assert!(json.get("timed_out").is_none(), "{json}");
    }

    #[test]
    fn any_line_end_a_byte_order_mark_and_no_tiny_puzzles() {
        let dir = tempfile::tempdir().expect("temp dir");
        let four = "1.3..2.4....1..3";
        for (name, text) in [
            ("cr.txt", format!("{four}\r# c\r{four}\r")),
            ("crlf.txt", format!("{four}\r\n\r\n{four}")),
            ("bom.txt", format!("\u{feff}{four}\n{four}\n")),
        ] {
            let path = write(&dir, name, &text);
            let r = bench_file(&path, BenchMode::Unique).expect(name);
            assert_eq!(r.puzzles, 2, "{name}");
            assert_eq!(parse_puzzles(&text).expect(name).len(), 2, "{name}");
        }
        let path = write(&dir, "one.txt", &format!("{four}\n5\n"));
        assert!(matches!(
            bench_file(&path, BenchMode::Unique),
            Err(BenchError::BadLine { line: 2, .. })
        ));
        assert!(parse_puzzles("5\n").is_err());
        let path = write(&dir, "long.txt", &"1".repeat(MAX_LINE + 10));
        assert!(matches!(
            bench_file(&path, BenchMode::Unique),
            Err(BenchError::NotPuzzles { line: 1, .. })
        ));
    }

    #[test]
    fn empty_file_reports_zero_rate() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = write(&dir, "empty.txt", "# nothing\n\n");
        let r = bench_file(&path, BenchMode::Unique).expect("bench");
        assert_eq!(r.puzzles, 0);
        assert_eq!(r.per_second, 0.0);
    }
}
