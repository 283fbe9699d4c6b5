//! `xlsudoku bench`: its flags and run (text puzzle files, puzzles per second).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use xlsudoku::bench::{self, BenchMode, FileReport};

use crate::common::{on_stdout, parse_timeout, say};

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
    for f in &a.files {
        match bench::bench_file_with(f, mode, limit) {
            Ok(r) if a.json => {
                written = written.and_then(|()| {
                    writeln!(out, "{}", serde_json::to_string(&r).unwrap_or_default())
                })
            }
            Ok(r) => written = written.and_then(|()| writeln!(out, "{}", r.table_row())),
            Err(e) => {
                say(&format!("xlsudoku: {e}"));
                code = 2;
            }
        }
        // A closed pipe ends the run before the next file.
        written = on_stdout(written);
    }
    if let Err(e) = on_stdout(written.and_then(|()| out.flush())) {
        say(&format!("xlsudoku: stdout: cannot write the report: {e}"));
        code = 2;
    }
    code
}
