//! `xlsudoku bench`: its flags and run (text puzzle files, puzzles per second).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use xlsudoku::bench::{self, BenchMode, FileReport};

use crate::common::{on_stdout, parse_timeout, say, MAX_JOBS};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Text puzzle files: one puzzle per line, `.` or `0` blank, `A`=10 ...
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Count solutions up to two (prove uniqueness) [default].
    #[arg(long, conflicts_with = "first")]
    unique: bool,
    /// Stop at the first solution.
    #[arg(long)]
    first: bool,
    /// One JSON object per file.
    #[arg(long)]
    json: bool,
    /// Give up on a puzzle after this many seconds (counted as timed out).
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
    /// Files benched at once, each on one thread timed by its own CPU
    /// clock (a file's puzzles always run on one thread: the figure is per
    /// core) [default: 1].
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1)]
    jobs: usize,
}

pub fn run(a: Args) -> u8 {
    let mode = if a.first {
        BenchMode::First
    } else {
        BenchMode::Unique
    };
    let limit = a.timeout;
    let mut out = std::io::stdout().lock();
    let mut code = 0;
    let mut written = if a.json {
        Ok(())
    } else {
        writeln!(out, "{}", FileReport::table_header())
    };
    if a.jobs == 0 || a.jobs > MAX_JOBS {
        say(&format!(
            "xlsudoku: --jobs {}: must be 1 to {MAX_JOBS}",
            a.jobs
        ));
        return 2;
    }
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(a.jobs).build() {
        Ok(p) => p,
        Err(e) => {
            say(&format!("xlsudoku: cannot start the worker threads: {e}"));
            return 2;
        }
    };
    // Files in parallel (each on its own thread), reported in input order
    // as soon as every file before them is done.
    let (tx, rx) = std::sync::mpsc::channel();
    let files = &a.files;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                use rayon::prelude::*;
                files
                    .par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, f)| {
                        let _ = tx.send((i, bench::bench_file_with(f, mode, limit)));
                    })
            })
        });
        let mut pending = std::collections::BTreeMap::new();
        let mut next = 0;
        for (i, done) in rx {
            pending.insert(i, done);
            while let Some(done) = pending.remove(&next) {
                next += 1;
                report(done, a.json, &mut out, &mut written, &mut code);
            }
        }
    });
    if let Err(e) = on_stdout(written.and_then(|()| out.flush())) {
        say(&format!("xlsudoku: stdout: cannot write the report: {e}"));
        code = 2;
    }
    code
}

/// Writes one file's report (or says why it has none).
fn report(
    done: Result<FileReport, bench::BenchError>,
    json: bool,
    out: &mut impl Write,
    written: &mut std::io::Result<()>,
    code: &mut u8,
) {
    {
        match done {
            Ok(r) if json => {
                let line = serde_json::to_string(&r).unwrap_or_default();
                if written.is_ok() {
                    *written = writeln!(out, "{line}");
                }
            }
            Ok(r) => {
                if written.is_ok() {
                    *written = writeln!(out, "{}", r.table_row());
                }
            }
            Err(e) => {
                say(&format!("xlsudoku: {e}"));
                *code = 2;
            }
        }
        // A closed pipe ends the run before the next file.
        if let Err(e) = std::mem::replace(written, Ok(())) {
            *written = on_stdout(Err(e));
        }
    }
}
