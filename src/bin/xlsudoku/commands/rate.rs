//! `xlsudoku rate`: its flags and run (SE rating, HoDoKu level and score).

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common::{on_stdout, parse_timeout, say, usage_error, MAX_JOBS};

/// Rate text puzzle files: per puzzle line (in input order) the Sudoku
/// Explainer rating, the HoDoKu level and score and the history, then a
/// summary on stderr (counts per level, puzzles per second).
///
/// A puzzle with clashing givens, no solution or more than one is reported
/// as `invalid`, `unsolvable` or `multiple`, not rated; a rating with `+`
/// is a lower bound (the techniques needed a guess: level extreme). A line
/// that is not a puzzle is reported on stderr with its file and line (and,
/// with --json, as a record with status `malformed`), and the run goes on.
/// A closed stdout (`| head -1`) ends the run at once, quietly, with 141. Exit status: 0 every puzzle rated, 1 some puzzle not
/// rated (invalid, unsolvable, multiple, timeout), 2 a malformed line, a
/// file that cannot be read, or a usage error.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Text puzzle files: one puzzle per line, `.` or `0` blank, `#`
    /// comment lines; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// JSON Lines on stdout: one object per puzzle (file, line, puzzle,
    /// status, rating, ep, ed, level, score, history, guesses, elapsed_ms),
    /// then {"summary":{...}}.
    #[arg(long)]
    json: bool,
    /// Threads for puzzles [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    jobs: Option<usize>,
    /// Give up on a puzzle after this many seconds (status `timeout`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
    /// Sudoku Explainer's rating alone, as serate and skfr give it: per
    /// 9x9 puzzle ER/EP/ED, without the HoDoKu level, score and history
    /// (a third less work on hard puzzles). Other sizes, where SE has no
    /// scale, are rated in full.
    #[arg(long)]
    se_only: bool,
}

/// `xlsudoku rate FILE...`: a line per puzzle on stdout as soon as it and
/// every puzzle before it are rated, the summary last.
pub fn run(a: Args) -> u8 {
    use xlsudoku::rate_lists::{rate_files, RateOptions, RateSummary};
    if let Some(j) = a.jobs {
        if j == 0 || j > MAX_JOBS {
            return usage_error(format!("--jobs {j}: must be 1 to {MAX_JOBS}"));
        }
    }
    crate::common::end_when_stdout_closes();
    let opts = RateOptions {
        timeout: a.timeout,
        jobs: a.jobs.unwrap_or(0),
        se_only: a.se_only,
    };
    let start = Instant::now();
    let mut summary = RateSummary {
        files: a.files.len() as u64,
        se_only: a.se_only,
        ..RateSummary::default()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut written: std::io::Result<()> = Ok(());
    let run = rate_files(&a.files, &opts, |item| {
        summary.add(&item);
        match &item {
            Ok(r) => {
                if written.is_ok() {
                    let line = if a.json {
                        r.to_json_line()
                    } else {
                        r.to_human_line()
                    };
                    // Out at once: a puzzle may take seconds to rate.
                    written = writeln!(out, "{line}").and_then(|()| out.flush());
                }
            }
            Err(e) => {
                if let (true, Some(line), true) = (a.json, e.malformed_json_line(), written.is_ok())
                {
                    written = writeln!(out, "{line}");
                }
                // Flush first, so that the message follows the lines before it.
                if written.is_ok() {
                    written = out.flush();
                }
                say(&format!("xlsudoku: {e}"));
            }
        }
        // A closed pipe ends the run at once (nobody reads the rest).
        written = on_stdout(std::mem::replace(&mut written, Ok(())));
    });
    if let Err(e) = run {
        return usage_error(e);
    }
    summary.finish(start.elapsed().as_secs_f64());
    if a.json {
        if written.is_ok() {
            written = writeln!(out, "{}", summary.to_json_line());
        }
    } else {
        say(&summary.to_human_line());
    }
    let mut code = if summary.malformed > 0 || summary.file_errors > 0 {
        2
    } else if summary.all_rated() {
        0
    } else {
        1
    };
    if let Err(e) = on_stdout(written.and_then(|()| out.flush())) {
        say(&format!("xlsudoku: stdout: cannot write the report: {e}"));
        code = 2;
    }
    code
}
