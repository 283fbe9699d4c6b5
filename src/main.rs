//! The `xlsudoku` command line: a thin layer over the library.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use xlsudoku::address::CellRange;
use xlsudoku::batch::{self, FileOutcome, Plan, RunOptions, Shard};
use xlsudoku::bench::{self, BenchMode, FileReport};
use xlsudoku::grid::BoxShape;
use xlsudoku::logic::Ladder;
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
#[command(name = "xlsudoku", version, long_version = long_version(), about, long_about)]
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
    /// Print a shell completion script (bash, zsh, fish, powershell,
    /// elvish) on stdout.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on stdout.
    Man,
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
    /// Print nothing but errors (and, with --json, the JSON).
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
    /// Only the sheets with this name (repeat for several); the others are
    /// left alone and not reported.
    #[arg(long, value_name = "NAME")]
    sheet: Vec<String>,
    /// Techniques the ladder may use: `seed` (the old macro's four: i ! * ^,
    /// its exact history), `all`, or letters/names such as `i,!,2,x`.
    #[arg(long, value_name = "seed|all|LIST", default_value = "all")]
    techniques: Ladder,
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
    /// Give up on a puzzle after this many seconds (counted as timed out).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
}

/// Subcommand names, and the flags that answer without one.
const SUBCOMMANDS: [&str; 6] = ["solve", "check", "bench", "completions", "man", "help"];
const TOP_FLAGS: [&str; 4] = ["-h", "--help", "-V", "--version"];
/// Options that take the next argument as their value.
const VALUE_OPTIONS: [&str; 12] = [
    "--techniques",
    "-j",
    "--jobs",
    "-o",
    "--output",
    "--report",
    "--range",
    "--box",
    "--timeout",
    "--shard",
    "--junit",
    "--sheet",
];

/// `solve` is the default command: `xlsudoku in.xlsx` means
/// `xlsudoku solve in.xlsx`, and `xlsudoku -q check dir` means
/// `xlsudoku check -q dir`.
fn with_default_command(mut args: Vec<OsString>) -> Vec<OsString> {
    if args.len() < 2 {
        return args;
    }
    let mut i = 1;
    while i < args.len() {
        let a = args[i].to_string_lossy().into_owned();
        if a == "--" {
            break;
        }
        if !a.starts_with('-') || a == "-" {
            if SUBCOMMANDS.contains(&a.as_str()) {
                let cmd = args.remove(i);
                args.insert(1, cmd);
                return args;
            }
            break;
        }
        if i == 1 && TOP_FLAGS.contains(&a.as_str()) {
            return args;
        }
        i += if VALUE_OPTIONS.contains(&a.as_str()) {
            2
        } else {
            1
        };
    }
    args.insert(1, OsString::from("solve"));
    args
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(with_default_command(std::env::args_os().collect()));
    let code = match cli.command {
        Command::Solve(a) => run_solve(a),
        Command::Check(a) => run_check(a),
        Command::Bench(a) => run_bench(a),
        Command::Completions(a) => run_completions(a),
        Command::Man => run_man(),
    };
    ExitCode::from(code)
}

fn usage_error(message: impl std::fmt::Display) -> u8 {
    eprintln!("xlsudoku: {message}");
    2
}

/// The most threads `-j` may ask for.
const MAX_JOBS: usize = 256;

/// Options from the shared flags, or the usage error they make.
fn run_options(c: &Common, logic_only: bool, force: bool) -> Result<RunOptions, String> {
    let timeout = match c.timeout {
        None => None,
        Some(t) if t > 0.0 => {
            Some(Duration::try_from_secs_f64(t).map_err(|_| format!("--timeout {t}: too large"))?)
        }
        Some(t) => {
            return Err(format!(
                "--timeout {t}: must be a positive number of seconds"
            ))
        }
    };
    if let Some(j) = c.jobs {
        if j == 0 || j > MAX_JOBS {
            return Err(format!("--jobs {j}: must be 1 to {MAX_JOBS}"));
        }
    }
    if let Some(range) = c.range {
        let side = range.rows() as usize;
        if range.rows() != range.cols() {
            return Err(format!("--range {range}: not a square"));
        }
        match c.box_shape {
            Some(b) if b.side() != side => {
                return Err(format!(
                    "--range {range} is {side} cells a side; --box {b} makes {}",
                    b.side()
                ))
            }
            None if BoxShape::for_side(side).is_none() => {
                return Err(format!(
                    "--range {range}: no usual box shape for side {side}; give --box"
                ))
            }
            _ => {}
        }
    }
    Ok(RunOptions {
        read: ReadOptions {
            range: c.range,
            shape: c.box_shape,
        },
        solve: SolveOptions {
            logic_only,
            timeout,
            techniques: c.techniques.clone(),
        },
        force,
        sheets: c.sheet.clone(),
    })
}

fn run_solve(a: SolveArgs) -> u8 {
    let plan = Plan {
        inputs: a.common.inputs.clone(),
        output: a.output.clone(),
        write: true,
    };
    match run_options(&a.common, a.logic_only, a.force) {
        // A sheet without a grid is reported, not an error.
        Ok(opts) => run_jobs(&a.common, &plan, &opts, None, true),
        Err(e) => usage_error(e),
    }
}

fn run_check(a: CheckArgs) -> u8 {
    let plan = Plan {
        inputs: a.common.inputs.clone(),
        output: None,
        write: false,
    };
    match run_options(&a.common, false, true) {
        Ok(opts) => run_jobs(&a.common, &plan, &opts, a.junit.as_deref(), a.allow_no_grid),
        Err(e) => usage_error(e),
    }
}

/// Where records go, in input order, as files finish.
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
    /// False once stdout is closed (`| head`): stop printing, finish the work.
    stdout_open: bool,
}

impl Sink {
    fn file_done(&mut self, done: &FileOutcome) {
        self.summary.files += 1;
        self.summary.skipped += usize::from(done.skipped);
        self.summary.failed_files += usize::from(done.failed);
        for r in &done.records {
            self.emit(r);
        }
        if let Some(pb) = &self.progress {
            pb.inc(1);
            let rate = pb.position() as f64 / pb.elapsed().as_secs_f64().max(1e-3);
            pb.set_message(format!("{} grids, {rate:.0} files/s", self.summary.sheets));
        }
    }

    fn emit(&mut self, r: &SheetRecord) {
        self.summary.add(r);
        if r.sheet.is_some() && !r.passes(self.allow_no_grid) {
            self.failed = true;
        }
        if r.sheet.is_none() {
            // File errors always reach stderr, even with -q.
            self.print_err(&format!(
                "xlsudoku: {}",
                r.error.as_deref().unwrap_or("error")
            ));
        }
        if self.json {
            self.print(&r.to_json_line());
        } else if !self.quiet && r.sheet.is_some() {
            self.print(&r.to_human_line());
        }
        if let Some(f) = &mut self.report {
            let _ = writeln!(f, "{}", r.to_json_line());
        }
        if self.keep {
            self.records.push(r.clone());
        }
    }

    fn print(&mut self, line: &str) {
        if !self.stdout_open {
            return;
        }
        let write = || writeln!(std::io::stdout().lock(), "{line}");
        let written = match &self.progress {
            Some(pb) => pb.suspend(write),
            None => write(),
        };
        if written.is_err() {
            self.stdout_open = false;
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
    let planned = match batch::plan(plan) {
        Ok(p) => p,
        Err(e) => return usage_error(e),
    };
    if !c.quiet {
        for (input, writer) in &planned.passed_over {
            eprintln!(
                "xlsudoku: passing over {}: an earlier copy of {}, rewritten by this run",
                input.display(),
                writer.display()
            );
        }
    }
    let mut jobs = planned.jobs;
    if jobs.is_empty() && !plan.write {
        // A check over nothing is a mistyped path, not a pass.
        return usage_error("no .xlsx/.xlsm workbooks found in the inputs");
    }
    if let Some(shard) = c.shard {
        jobs = shard.select(jobs);
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(c.jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return usage_error(format!("cannot start the worker threads: {e}")),
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
                "{bar:30} {pos}/{len} files, {msg} [{elapsed_precise}, ETA {eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    });
    let mut sink = Sink {
        json: c.json,
        quiet: c.quiet,
        report,
        keep: junit.is_some(),
        records: Vec::new(),
        summary: Summary::default(),
        failed: false,
        allow_no_grid,
        progress: progress.clone(),
        stdout_open: true,
    };
    // Workers finish in any order; records are emitted in input order, each
    // file as soon as every file before it is done.
    let (tx, rx) = std::sync::mpsc::channel::<(usize, FileOutcome)>();
    std::thread::scope(|scope| {
        let jobs = &jobs;
        scope.spawn(move || {
            pool.install(|| {
                jobs.par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, job)| {
                        let _ = tx.send((i, batch::process(job, opts)));
                    })
            })
        });
        let mut pending: BTreeMap<usize, FileOutcome> = BTreeMap::new();
        let mut next = 0;
        for (i, done) in rx {
            pending.insert(i, done);
            while let Some(done) = pending.remove(&next) {
                sink.file_done(&done);
                next += 1;
            }
        }
    });
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    sink.summary.seconds = start.elapsed().as_secs_f64();
    if c.json {
        let line = sink.summary.to_json_line();
        sink.print(&line);
    } else if !c.quiet {
        eprintln!("{}", sink.summary.to_human_line());
    }
    let mut code = 0u8;
    if let (Some(mut f), Some(path)) = (sink.report.take(), c.report.as_ref()) {
        let _ = writeln!(f, "{}", sink.summary.to_json_line());
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
        let xml = junit_xml(&sink.records, &sink.summary, allow_no_grid);
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
    if sink.summary.failed_files > 0 {
        code = 2;
    } else if sink.failed && code == 0 {
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
    let limit = match a.timeout {
        None => None,
        Some(t) if t > 0.0 => match Duration::try_from_secs_f64(t) {
            Ok(d) => Some(d),
            Err(_) => return usage_error(format!("--timeout {t}: too large")),
        },
        Some(t) => {
            return usage_error(format!(
                "--timeout {t}: must be a positive number of seconds"
            ))
        }
    };
    if !a.json {
        println!("{}", FileReport::table_header());
    }
    let mut code = 0;
    for f in &a.files {
        match bench::bench_file_with(f, mode, limit) {
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

#[derive(Args, Debug)]
struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// `--version`'s text after the name: the version, then the instruction set
/// the 9x9 engine picked on this processor.
fn long_version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{}\n9x9 engine: {}",
            env!("CARGO_PKG_VERSION"),
            xlsudoku::search::engine_isa_name()
        )
    })
}

/// Writes what `render` makes to stdout: 0, or 2 with a message when stdout
/// fails (a closed pipe is not an error).
fn print_generated(render: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> u8 {
    let mut text = Vec::new();
    if let Err(e) = render(&mut text) {
        return usage_error(format!("cannot generate the text: {e}"));
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(&text).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => usage_error(format!("cannot write to stdout: {e}")),
    }
}

/// `xlsudoku completions SHELL`: the completion script, made from the same
/// definitions as the parser.
fn run_completions(a: CompletionsArgs) -> u8 {
    use clap::CommandFactory;
    print_generated(|out| {
        clap_complete::generate(a.shell, &mut Cli::command(), "xlsudoku", out);
        Ok(())
    })
}

/// `xlsudoku man`: the manual page in roff, made from the same definitions
/// as the parser. One page for the whole tool: the top-level sections, then
/// one section per command with its synopsis, description and options.
fn run_man() -> u8 {
    use clap::CommandFactory;
    print_generated(|out| {
        let mut cmd = Cli::command().disable_help_subcommand(true);
        cmd.build();
        let man = clap_mangen::Man::new(cmd.clone());
        let mut page = Vec::new();
        man.render_title(&mut page)?;
        man.render_name_section(&mut page)?;
        man.render_synopsis_section(&mut page)?;
        man.render_description_section(&mut page)?;
        man.render_options_section(&mut page)?;
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            writeln!(page, ".SH \"XLSUDOKU {}\"", sub.get_name().to_uppercase())?;
            let part = clap_mangen::Man::new(sub.clone());
            part.render_synopsis_section(&mut page)?;
            part.render_description_section(&mut page)?;
            part.render_options_section(&mut page)?;
        }
        man.render_version_section(&mut page)?;
        // Each rendered piece repeats the page's preamble (two lines) and
        // a command's own headings become paragraphs of its section.
        let mut in_command = false;
        let mut preamble_seen = 0;
        for line in String::from_utf8_lossy(&page).lines() {
            let preamble = line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq");
            if preamble {
                preamble_seen += 1;
                if preamble_seen > 2 {
                    continue;
                }
            }
            if line.starts_with(".SH \"XLSUDOKU ") {
                in_command = true;
            } else if line == ".SH VERSION" {
                in_command = false;
            } else if in_command {
                match line {
                    ".SH SYNOPSIS" => continue,
                    ".SH DESCRIPTION" => {
                        writeln!(out, ".PP")?;
                        continue;
                    }
                    ".SH OPTIONS" => {
                        writeln!(out, ".SS Options")?;
                        continue;
                    }
                    _ => {}
                }
            }
            writeln!(out, "{line}")?;
        }
        Ok(())
    })
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
