//! The `xlsudoku` command line: a thin layer over the library.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use xlsudoku::address::CellRange;
use xlsudoku::batch::{self, Plan, RunOptions, Shard};
use xlsudoku::bench::{self, BenchMode, FileReport};
use xlsudoku::grid::BoxShape;
use xlsudoku::report::{junit_xml, SheetRecord, Summary};
use xlsudoku::solve::SolveOptions;
use xlsudoku::workbook::ReadOptions;

/// Solve the Sudoku puzzles kept in Excel workbooks.
///
/// `xlsudoku in.xlsx -o out.xlsx` finds the bordered grid on every sheet,
/// solves them all in parallel and writes an annotated copy: solved cells in
/// blue italics, and below each grid a note with the status, the technique
/// history (i hidden single, ! locked candidates, * hidden pair, ^ hidden
/// triple, # guess) and the time taken. The input is never modified.
///
/// Exit status: 0 every grid solved, 1 some grid failed, 2 usage or file error.
#[derive(Parser, Debug)]
#[command(name = "xlsudoku", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every grid and write annotated copies (the default command).
    Solve(SolveArgs),
    /// Check puzzles without writing anything: grid found, givens
    /// consistent, solvable, unique.
    Check(CheckArgs),
    /// Solve text puzzle files (one puzzle per line) and report puzzles per
    /// second.
    Bench(BenchArgs),
}

/// Flags shared by `solve` and `check`.
#[derive(Args, Debug)]
struct Common {
    /// Workbooks (.xlsx, .xlsm) and directories (searched recursively).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Threads for files and sheets [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    jobs: Option<usize>,
    /// Print nothing but errors.
    #[arg(short, long)]
    quiet: bool,
    /// JSON Lines on stdout: one object per grid, then a summary object.
    #[arg(long)]
    json: bool,
    /// Write the JSON Lines report to FILE as well.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Use exactly this square as the grid (no detection), e.g. C3:K11.
    #[arg(long, value_name = "RANGE")]
    range: Option<CellRange>,
    /// Box shape, WIDTHxHEIGHT, e.g. 3x2 for 6x6 grids.
    #[arg(long = "box", value_name = "WxH")]
    box_shape: Option<BoxShape>,
    /// Give up on a grid after this many seconds (status `timeout`).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Process only the K-th of N deterministic slices of the sorted inputs.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
}

#[derive(Args, Debug)]
struct SolveArgs {
    #[command(flatten)]
    common: Common,
    /// Output: a file for one input file, else a directory mirroring the
    /// inputs' relative paths [default: NAME.solved.xlsx beside each input].
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// Redo outputs that are up to date.
    #[arg(long)]
    force: bool,
    /// No guessing: stop when the techniques stop, keep what was deduced and
    /// write the remaining candidates as letters (a=1, b=2 ...).
    #[arg(long)]
    logic_only: bool,
}

#[derive(Args, Debug)]
struct CheckArgs {
    #[command(flatten)]
    common: Common,
    /// Write a JUnit XML report (one test case per grid) to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// A sheet without a grid passes instead of failing.
    #[arg(long)]
    allow_no_grid: bool,
}

#[derive(Args, Debug)]
struct BenchArgs {
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
}

const SUBCOMMANDS: [&str; 7] = ["solve", "check", "bench", "help", "-h", "--help", "-V"];

/// `solve` is the default command: `xlsudoku in.xlsx` means
/// `xlsudoku solve in.xlsx`.
fn with_default_command(mut args: Vec<OsString>) -> Vec<OsString> {
    let first = args.get(1).and_then(|a| a.to_str()).unwrap_or("");
    if args.len() > 1 && !SUBCOMMANDS.contains(&first) && first != "--version" {
        args.insert(1, OsString::from("solve"));
    }
    args
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(with_default_command(std::env::args_os().collect()));
    let code = match cli.command {
        Command::Solve(a) => run_solve(a),
        Command::Check(a) => run_check(a),
        Command::Bench(a) => run_bench(a),
    };
    ExitCode::from(code)
}

fn usage_error(message: impl std::fmt::Display) -> u8 {
    eprintln!("xlsudoku: {message}");
    2
}

fn read_options(c: &Common) -> ReadOptions {
    ReadOptions {
        range: c.range,
        shape: c.box_shape,
    }
}

fn timeout(c: &Common) -> Result<Option<Duration>, String> {
    match c.timeout {
        None => Ok(None),
        Some(t) if t.is_finite() && t > 0.0 => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(format!(
            "--timeout {t}: must be a positive number of seconds"
        )),
    }
}

fn run_solve(a: SolveArgs) -> u8 {
    let plan = Plan {
        inputs: a.common.inputs.clone(),
        output: a.output.clone(),
        write: true,
    };
    let timeout = match timeout(&a.common) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    let opts = RunOptions {
        read: read_options(&a.common),
        solve: SolveOptions {
            logic_only: a.logic_only,
            timeout,
        },
        force: a.force,
    };
    // A sheet without a grid is reported, not an error.
    run_jobs(&a.common, &plan, &opts, None, true)
}

fn run_check(a: CheckArgs) -> u8 {
    let plan = Plan {
        inputs: a.common.inputs.clone(),
        output: None,
        write: false,
    };
    let timeout = match timeout(&a.common) {
        Ok(t) => t,
        Err(e) => return usage_error(e),
    };
    let opts = RunOptions {
        read: read_options(&a.common),
        solve: SolveOptions {
            logic_only: false,
            timeout,
        },
        force: true,
    };
    run_jobs(&a.common, &plan, &opts, a.junit.as_deref(), a.allow_no_grid)
}

/// Where records go as files finish.
struct Sink {
    json: bool,
    quiet: bool,
    report: Option<tempfile::NamedTempFile>,
    keep: bool,
    records: Vec<SheetRecord>,
    summary: Summary,
    failed: bool,
    allow_no_grid: bool,
    progress: Option<ProgressBar>,
}

impl Sink {
    fn emit(&mut self, r: &SheetRecord) {
        self.summary.add(r);
        if r.sheet.is_some() && !r.passes(self.allow_no_grid) {
            self.failed = true;
        }
        let line = if self.json {
            r.to_json_line()
        } else {
            r.to_human_line()
        };
        if r.sheet.is_none() {
            // File errors always reach stderr, even with -q.
            self.print_err(&format!(
                "xlsudoku: {}",
                r.error.as_deref().unwrap_or("error")
            ));
        }
        if !self.quiet && (self.json || r.sheet.is_some()) {
            self.print(&line);
        }
        if let Some(f) = &mut self.report {
            let _ = writeln!(f, "{}", r.to_json_line());
        }
        if self.keep {
            self.records.push(r.clone());
        }
    }

    fn print(&self, line: &str) {
        match &self.progress {
            Some(pb) => pb.suspend(|| println!("{line}")),
            None => println!("{line}"),
        }
    }

    fn print_err(&self, line: &str) {
        match &self.progress {
            Some(pb) => pb.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }
}

fn temp_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    tempfile::Builder::new()
        .prefix(".xlsudoku-report.")
        .tempfile_in(dir)
}

fn run_jobs(
    c: &Common,
    plan: &Plan,
    opts: &RunOptions,
    junit: Option<&Path>,
    allow_no_grid: bool,
) -> u8 {
    let start = Instant::now();
    let mut jobs = match batch::plan(plan) {
        Ok(j) => j,
        Err(e) => return usage_error(e),
    };
    if let Some(shard) = c.shard {
        jobs = shard.select(jobs);
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(c.jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return usage_error(format!("cannot start {:?} threads: {e}", c.jobs)),
    };
    let report = match &c.report {
        Some(p) => match temp_beside(p) {
            Ok(f) => Some(f),
            Err(e) => return usage_error(format!("{}: {e}", p.display())),
        },
        None => None,
    };
    let progress = (!c.quiet && std::io::stderr().is_terminal() && jobs.len() > 1).then(|| {
        let pb =
            ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} files, {msg} [{elapsed_precise}, {per_sec}, ETA {eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    });
    let sink = Mutex::new(Sink {
        json: c.json,
        quiet: c.quiet,
        report,
        keep: junit.is_some(),
        records: Vec::new(),
        summary: Summary::default(),
        failed: false,
        allow_no_grid,
        progress: progress.clone(),
    });
    let file_errors = std::sync::atomic::AtomicUsize::new(0);
    pool.install(|| {
        jobs.par_iter().for_each(|job| {
            let done = batch::process(job, opts);
            if done.failed {
                file_errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            let mut s = match sink.lock() {
                Ok(s) => s,
                Err(p) => p.into_inner(),
            };
            s.summary.files += 1;
            if done.skipped {
                s.summary.skipped += 1;
            }
            if done.failed {
                s.summary.failed_files += 1;
            }
            for r in &done.records {
                s.emit(r);
            }
            if let Some(pb) = &s.progress {
                pb.inc(1);
                pb.set_message(format!("{} grids", s.summary.sheets));
            }
        })
    });
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    let mut s = match sink.into_inner() {
        Ok(s) => s,
        Err(p) => p.into_inner(),
    };
    s.summary.seconds = start.elapsed().as_secs_f64();
    if c.json {
        println!("{}", s.summary.to_json_line());
    } else if !c.quiet {
        eprintln!("{}", s.summary.to_human_line());
    }
    let mut code = 0u8;
    if let (Some(mut f), Some(path)) = (s.report.take(), c.report.as_ref()) {
        let _ = writeln!(f, "{}", s.summary.to_json_line());
        if let Err(e) = f.persist(path) {
            eprintln!(
                "xlsudoku: {}: cannot write the report: {}",
                path.display(),
                e.error
            );
            code = 2;
        }
    }
    if let Some(path) = junit {
        let xml = junit_xml(&s.records, &s.summary, allow_no_grid);
        let written = temp_beside(path).and_then(|mut f| {
            f.write_all(xml.as_bytes())?;
            f.persist(path).map(|_| ()).map_err(|e| e.error)
        });
        if let Err(e) = written {
            eprintln!(
                "xlsudoku: {}: cannot write the JUnit report: {e}",
                path.display()
            );
            code = 2;
        }
    }
    if file_errors.into_inner() > 0 {
        code = 2;
    } else if s.failed && code == 0 {
        code = 1;
    }
    code
}

fn run_bench(a: BenchArgs) -> u8 {
    let mode = if a.first {
        BenchMode::First
    } else {
        BenchMode::Unique
    };
    if !a.json {
        println!("{}", FileReport::table_header());
    }
    let mut code = 0;
    for f in &a.files {
        match bench::bench_file(f, mode) {
            Ok(r) if a.json => println!("{}", serde_json::to_string(&r).unwrap_or_default()),
            Ok(r) => println!("{}", r.table_row()),
            Err(e) => {
                eprintln!("xlsudoku: {e}");
                code = 2;
            }
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn solve_is_the_default_command() {
        let args = |v: &[&str]| with_default_command(v.iter().map(OsString::from).collect());
        assert_eq!(args(&["x", "in.xlsx"])[1], "solve");
        assert_eq!(args(&["x", "--json", "in.xlsx"])[1], "solve");
        assert_eq!(args(&["x", "check", "in.xlsx"])[1], "check");
        assert_eq!(args(&["x", "--help"])[1], "--help");
    }
}
