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
use xlsudoku::generate::{Span, Symmetry};
use xlsudoku::grid::BoxShape;
use xlsudoku::logic::{Ladder, Level, Limits};
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
/// Exit status: 0 every grid solved, 1 some grid failed, 2 usage or file
/// error (an existing output that xlsudoku did not write, or that was
/// changed since, is left as it is and counts as a file error: see
/// --force). Ctrl-C removes the run's temporary files and exits with 130.
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
    /// Explain how each grid is solved, step by step, in words, with the
    /// sheet's own cell addresses.
    ///
    /// Every step of the technique ladder, numbered, in words: naked singles
    /// (silent in the history) too, and guesses where the techniques stop.
    /// A workbook's grids are named with the sheet's addresses (`E7`, `row 7`,
    /// `column E`, `box 4`) and digits in the grid's own alphabet (`A`-`G` or
    /// `0`-`9`, `A`-`F` in a lettered 16x16); a --puzzle line's cells are
    /// `r5c7`. A grid that is invalid, unsolvable or ambiguous is reported
    /// with the reason and no steps; a sheet without a grid is listed and
    /// passes.
    ///
    /// Exit status: 0 every grid explained, 1 some grid failed (or none was
    /// found), 2 usage or file error.
    Explain(ExplainArgs),
    /// Rate text puzzle files (one puzzle per line) like Sudoku Explainer's
    /// serate: SE rating, HoDoKu level and score, history.
    Rate(RateArgs),
    /// Generate new puzzles: each with exactly one solution, at the level
    /// asked for, as a print-ready workbook or one puzzle per line.
    ///
    /// Random complete grids, givens taken away while the puzzle stays
    /// provably unique (by the exact solver: a minimal puzzle; from 16x16
    /// up by the ladder: a book-grade one), rated by the
    /// technique ladder and kept when inside --level, --rating, --givens and
    /// --techniques. The same --seed and options give the same bytes on every
    /// machine and for every -j.
    ///
    /// `xlsudoku generate --size 9 --count 20 --level hard --seed 7 -o set.xlsx`
    /// writes one sheet per puzzle (title in C1, the grid at C3, print-ready)
    /// and a Solutions sheet; `--format txt` (or an output ending in .txt, or
    /// `-o -`) writes one puzzle per line, the format `bench` and `rate` read.
    ///
    /// Exit status: 0 the set was written, 2 a usage or file error, a request
    /// no puzzle can meet, or a target not reached within --max-attempts or
    /// --timeout (named in the message).
    Generate(GenerateArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell,
    /// elvish) on stdout.
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on stdout.
    Man,
}

/// Flags shared by `solve` and `check`.
#[derive(Args, Debug)]
struct Common {
    /// Workbooks (.xlsx, .xlsm) and directories (searched recursively);
    /// `-` reads one workbook from standard input.
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
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
    /// Process only the K-th of N deterministic slices of the sorted inputs.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Only the sheets with this name (repeat for several; case does not
    /// matter); the others are left alone and not reported. A name no
    /// workbook has is a usage error.
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
    /// Output: a file for one input file (`-`: standard output), else a
    /// directory mirroring the inputs' relative paths [default:
    /// NAME.solved.xlsx beside each input]. Never an input, nor a folder
    /// the run reads.
    #[arg(short, long, value_name = "OUTPUT")]
    output: Option<PathBuf>,
    /// Redo outputs that are up to date, and replace outputs that xlsudoku
    /// did not write or that were changed since (by default such a file is
    /// left as it is, with an error naming it: exit 2).
    #[arg(long)]
    force: bool,
    /// No guessing: stop when the techniques stop, keep what was deduced and
    /// write the remaining candidates as letters (a=1, b=2 ...). Nothing
    /// proves the solution unique then, so the uniqueness techniques
    /// (u, h, b) are not used.
    #[arg(long)]
    logic_only: bool,
    /// Where solutions go: `grid` (into the grid itself), `beside` (a copy
    /// of the grid to its right, or below it when the right is not free),
    /// `at:CELL` (a copy from that top-left cell, e.g. at:M3) or `sheet`
    /// (copies of every solved grid on a new sheet `Solutions`, or
    /// `Solutions 2` … when taken). With a copy the puzzle's cells stay as
    /// they are; a grid whose copy would cover anything is refused (status
    /// `refused`).
    #[arg(long, value_name = "grid|beside|sheet|at:CELL", default_value = "grid")]
    answers: xlsudoku::answers::Answers,
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
    /// Fail (`too-hard`) a grid whose HoDoKu level is above LEVEL (easy,
    /// medium, hard, unfair, extreme).
    #[arg(long, value_name = "LEVEL")]
    max_level: Option<Level>,
    /// Fail (`too-easy`) a grid whose HoDoKu level is below LEVEL.
    #[arg(long, value_name = "LEVEL")]
    min_level: Option<Level>,
    /// Fail (`too-hard`) a grid whose Sudoku Explainer rating is above X.
    #[arg(long, value_name = "X")]
    max_rating: Option<f32>,
    /// Fail (`too-easy`) a grid whose Sudoku Explainer rating is below X.
    #[arg(long, value_name = "X")]
    min_rating: Option<f32>,
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
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
}

/// `explain`: a workbook's grids, or one text puzzle.
#[derive(Args, Debug)]
struct ExplainArgs {
    /// The workbook (.xlsx, .xlsm).
    #[arg(
        value_name = "INPUT",
        required_unless_present = "puzzle",
        conflicts_with = "puzzle"
    )]
    input: Option<PathBuf>,
    /// Explain this one-line puzzle instead: side*side characters, `.` or
    /// `0` blank, `A`=10 ... (cells named r5c7); words after it are left
    /// out, as `bench` reads a line.
    #[arg(long, value_name = "LINE")]
    puzzle: Option<String>,
    /// Only the sheets with this name (repeat for several; case does not
    /// matter). A name the workbook lacks is a usage error.
    #[arg(long, value_name = "NAME", conflicts_with = "puzzle")]
    sheet: Vec<String>,
    /// Use exactly this square as the grid (no detection), e.g. C3:K11.
    #[arg(long, value_name = "RANGE", conflicts_with = "puzzle")]
    range: Option<CellRange>,
    /// Box shape, WIDTHxHEIGHT, e.g. 3x2 for 6x6 grids.
    #[arg(long = "box", value_name = "WxH")]
    box_shape: Option<BoxShape>,
    /// Techniques the ladder may use: `seed`, `all`, or letters/names such
    /// as `i,!,2,x` (where they stop, the steps guess).
    #[arg(long, value_name = "seed|all|LIST", default_value = "all")]
    techniques: Ladder,
    /// Give up on a grid after this many seconds (status `timeout`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
    /// JSON Lines on stdout: one object per grid with its steps, then a
    /// summary object.
    #[arg(long)]
    json: bool,
}

/// Rate text puzzle files: per puzzle line (in input order) the Sudoku
/// Explainer rating, the HoDoKu level and score and the history, then a
/// summary on stderr (counts per level, puzzles per second).
///
/// A puzzle with clashing givens, no solution or more than one is reported
/// as `invalid`, `unsolvable` or `multiple`, not rated; a rating with `+`
/// is a lower bound (the techniques needed a guess: level extreme). A line
/// that is not a puzzle is reported on stderr with its file and line, and
/// the run goes on. Exit status: 0 every puzzle rated, 1 some puzzle not
/// rated (invalid, unsolvable, multiple, timeout), 2 a malformed line, a
/// file that cannot be read, or a usage error.
#[derive(Args, Debug)]
struct RateArgs {
    /// Text puzzle files: one puzzle per line, `.` or `0` blank, `#`
    /// comment lines.
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
}

/// `generate`'s flags (the command's help is on [`Command::Generate`]).
#[derive(Args, Debug)]
struct GenerateArgs {
    /// Where to write the set; `-` for standard output. An existing file is
    /// refused unless --force.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
    /// Grid side: 4, 6, 8, 9, 12, 16, 25, ... [default: 9, or the --box side].
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Box shape, WIDTHxHEIGHT, when not the usual one for the size (2x3
    /// for 6x6 with tall boxes).
    #[arg(long = "box", value_name = "WxH")]
    box_shape: Option<BoxShape>,
    /// How many puzzles.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 1)]
    count: usize,
    /// HoDoKu level, or a range of them: easy, medium, hard, unfair,
    /// extreme; `easy..medium`, `hard..`.
    #[arg(long, value_name = "LEVEL")]
    level: Option<Span<Level>>,
    /// Sudoku Explainer rating range, e.g. `3.0..4.5`, `6..`.
    #[arg(long, value_name = "MIN..MAX")]
    rating: Option<Span<f32>>,
    /// Pattern of the givens.
    #[arg(
        long,
        value_name = "none|rotational|mirror|diagonal",
        default_value = "none"
    )]
    symmetry: Symmetry,
    /// Number of givens, e.g. `24..28` (digging stops at the lower end).
    #[arg(long, value_name = "MIN..MAX")]
    givens: Option<Span<usize>>,
    /// Keep only puzzles these techniques finish without a guess: `seed`
    /// (the old macro's four), `all`, or letters/names such as `i,!,2,x`.
    #[arg(long, value_name = "seed|all|LIST")]
    techniques: Option<Ladder>,
    /// The master seed [default: a random one, printed on stderr and kept
    /// in the workbook's properties].
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Threads [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    jobs: Option<usize>,
    /// Give up (exit 2) when the set is not made after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    timeout: Option<Duration>,
    /// Give up (exit 2) when one puzzle takes more attempts than this
    /// [default: 10000 up to 9x9, 1000 up to 16x16, 100 above].
    #[arg(long, value_name = "N")]
    max_attempts: Option<u64>,
    /// Output format [default: txt for `-o -` or a .txt file, else xlsx].
    #[arg(long, value_enum)]
    format: Option<SetFormat>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Print nothing but errors (no seed line, no progress, no summary).
    #[arg(short, long)]
    quiet: bool,
}

/// `generate --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SetFormat {
    /// A workbook: a sheet per puzzle and a Solutions sheet.
    Xlsx,
    /// One puzzle per line.
    Txt,
}

/// Subcommand names, and the flags that answer without one.
const SUBCOMMANDS: [&str; 9] = [
    "solve",
    "check",
    "bench",
    "explain",
    "rate",
    "generate",
    "completions",
    "man",
    "help",
];
const TOP_FLAGS: [&str; 4] = ["-h", "--help", "-V", "--version"];
/// Options that take the next argument as their value.
const VALUE_OPTIONS: [&str; 27] = [
    "--techniques",
    "--puzzle",
    "--max-level",
    "--min-level",
    "--max-rating",
    "--min-rating",
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
    "--size",
    "-n",
    "--count",
    "--level",
    "--rating",
    "--symmetry",
    "--givens",
    "--seed",
    "--max-attempts",
    "--format",
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
        Command::Explain(a) => run_explain(a),
        Command::Rate(a) => run_rate(a),
        Command::Generate(a) => run_generate(a),
        Command::Completions(a) => run_completions(a),
        Command::Man => run_man(),
    };
    ExitCode::from(code)
}

fn usage_error(message: impl std::fmt::Display) -> u8 {
    say(&format!("xlsudoku: {message}"));
    2
}

/// The most threads `-j` may ask for.
const MAX_JOBS: usize = 256;

/// `--timeout SECONDS`: a positive number of seconds (clap names the
/// value as typed in the error).
fn parse_timeout(text: &str) -> Result<Duration, String> {
    let t: f64 = text
        .trim()
        .parse()
        .map_err(|_| "not a number of seconds".to_string())?;
    if t.is_nan() || t <= 0.0 {
        return Err("must be a positive number of seconds".to_string());
    }
    Duration::try_from_secs_f64(t).map_err(|_| "too large".to_string())
}

/// Options from the shared flags, or the usage error they make.
fn run_options(c: &Common, logic_only: bool, force: bool) -> Result<RunOptions, String> {
    let timeout = c.timeout;
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
            ..ReadOptions::default()
        },
        solve: SolveOptions {
            logic_only,
            timeout,
            techniques: c.techniques.clone(),
        },
        force,
        sheets: c.sheet.clone(),
        limits: Limits::default(),
    })
}

fn run_solve(a: SolveArgs) -> u8 {
    let plan = Plan {
        inputs: a.common.inputs.clone(),
        output: a.output.clone(),
        write: true,
    };
    let to_stdout = a.output.as_deref().is_some_and(batch::is_dash);
    if to_stdout && a.common.json {
        return usage_error(
            "-o - writes the workbook to standard output, where --json would go too: use --report FILE",
        );
    }
    if to_stdout && std::io::stdout().is_terminal() {
        return usage_error("-o -: standard output is a terminal; redirect it to a file or a pipe");
    }
    match run_options(&a.common, a.logic_only, a.force) {
        // A sheet without a grid is reported, not an error.
        Ok(mut opts) => {
            opts.read.answers = a.answers;
            run_jobs(&a.common, &plan, &opts, None, true)
        }
        Err(e) => usage_error(e),
    }
}

fn run_check(a: CheckArgs) -> u8 {
    let plan = Plan {
        inputs: a.common.inputs.clone(),
        output: None,
        write: false,
    };
    let limits = Limits {
        max_level: a.max_level,
        min_level: a.min_level,
        max_rating: a.max_rating,
        min_rating: a.min_rating,
    };
    if let (Some(lo), Some(hi)) = (a.min_level, a.max_level) {
        if lo > hi {
            return usage_error(format!("--min-level {lo} is above --max-level {hi}"));
        }
    }
    if [a.max_rating, a.min_rating]
        .iter()
        .flatten()
        .any(|r| !r.is_finite() || *r < 0.0)
    {
        return usage_error("--max-rating/--min-rating: a rating is a number from 0 up");
    }
    match run_options(&a.common, false, true) {
        Ok(opts) => {
            let opts = RunOptions { limits, ..opts };
            run_jobs(&a.common, &plan, &opts, a.junit.as_deref(), a.allow_no_grid)
        }
        Err(e) => usage_error(e),
    }
}

/// Prints a line on stderr; a stderr that cannot be written is no reason
/// to stop.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A report file (`--report`, `--junit`) being written. A regular file (a
/// link to one: its target) is written to a temporary file beside it and
/// renamed over it at the end; anything else (a pipe, a device such as
/// `/dev/stdout`, a link to nothing) is written directly. The first write
/// error is kept, and [`ReportFile::finish`] reports it.
struct ReportFile {
    /// As given, for messages.
    path: PathBuf,
    /// The regular file to rename the temporary one over.
    target: Option<PathBuf>,
    temp: Option<batch::TempCopy>,
    direct: Option<std::io::BufWriter<std::fs::File>>,
    buffered: Option<std::io::BufWriter<std::fs::File>>,
    error: Option<std::io::Error>,
}

impl ReportFile {
    fn create(path: &Path) -> std::io::Result<ReportFile> {
        let mut report = ReportFile {
            path: path.to_path_buf(),
            target: None,
            temp: None,
            direct: None,
            buffered: None,
            error: None,
        };
        let regular = std::fs::metadata(path).map(|m| m.is_file());
        let special = path.starts_with("/dev") || path.starts_with("/proc");
        match regular {
            Ok(true) if !special => {
                let target = std::fs::canonicalize(path)?;
                let mut temp = batch::TempCopy::beside(&target)?;
                report.buffered = Some(std::io::BufWriter::new(temp.file().try_clone()?));
                report.temp = Some(temp);
                report.target = Some(target);
            }
            Ok(_) => {
                let f = std::fs::OpenOptions::new().append(true).open(path)?;
                report.direct = Some(std::io::BufWriter::new(f));
            }
            Err(_) if std::fs::symlink_metadata(path).is_ok() => {
                // A link to nothing yet: written through.
                let f = std::fs::File::create(path)?;
                report.direct = Some(std::io::BufWriter::new(f));
            }
            Err(_) => {
                let mut temp = batch::TempCopy::beside(path)?;
                report.buffered = Some(std::io::BufWriter::new(temp.file().try_clone()?));
                report.temp = Some(temp);
                report.target = Some(path.to_path_buf());
            }
        }
        Ok(report)
    }

    fn write(&mut self, text: &str) {
        if self.error.is_some() {
            return;
        }
        let w = match (&mut self.direct, &mut self.buffered) {
            (Some(w), _) | (None, Some(w)) => w,
            (None, None) => return,
        };
        if let Err(e) = w.write_all(text.as_bytes()) {
            self.error = Some(e);
        }
    }

    /// Flushes and puts the report in place; the error names the file.
    fn finish(mut self) -> Result<(), String> {
        let fail = |e: &dyn std::fmt::Display| {
            format!("{}: cannot write the report: {e}", self.path.display())
        };
        for w in [self.direct.as_mut(), self.buffered.as_mut()]
            .into_iter()
            .flatten()
        {
            if self.error.is_none() {
                if let Err(e) = w.flush().and_then(|()| w.get_ref().sync_all().or(Ok(()))) {
                    self.error = Some(e);
                }
            }
        }
        if let Some(e) = self.error.take() {
            return Err(fail(&e));
        }
        self.buffered = None;
        if let (Some(temp), Some(target)) = (self.temp.take(), &self.target) {
            temp.persist(target).map_err(|e| fail(&e))?;
        }
        Ok(())
    }
}

/// Where records go, in input order, as files finish.
struct Sink {
    json: bool,
    quiet: bool,
    report: Option<ReportFile>,
    keep: bool,
    records: Vec<SheetRecord>,
    summary: Summary,
    failed: bool,
    allow_no_grid: bool,
    progress: Option<ProgressBar>,
    /// Human lines go to stderr (stdout carries the workbook).
    human_to_stderr: bool,
    /// False once stdout is closed (`| head`): stop printing, finish the work.
    stdout_open: bool,
    /// The first error writing stdout other than its reader going away.
    stdout_error: Option<std::io::Error>,
    /// Sheet names met in the workbooks read (for `--sheet` errors).
    sheet_names: std::collections::BTreeSet<String>,
    /// Sheet names reported, lower case.
    reported_sheets: std::collections::HashSet<String>,
}

impl Sink {
    fn file_done(&mut self, done: &FileOutcome) {
        self.summary.files += 1;
        self.summary.skipped += usize::from(done.skipped);
        self.summary.failed_files += usize::from(done.failed);
        if self.sheet_names.len() < 1000 {
            self.sheet_names.extend(done.sheet_names.iter().cloned());
        }
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
        if let Some(sheet) = &r.sheet {
            self.reported_sheets.insert(sheet.to_lowercase());
        }
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
            if self.human_to_stderr {
                self.print_err(&r.to_human_line());
            } else {
                self.print(&r.to_human_line());
            }
        }
        if let Some(f) = &mut self.report {
            f.write(&format!("{}\n", r.to_json_line()));
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
        if let Err(e) = written {
            self.stdout_open = false;
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                self.stdout_error = Some(e);
            }
        }
    }

    fn print_err(&self, line: &str) {
        match &self.progress {
            Some(pb) => pb.suspend(|| say(line)),
            None => say(line),
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove this run's temporary files and
/// exit with 128 + the signal's number (130, 143, 129), as a shell does.
/// signal-hook, not ctrlc: the exit status must say which signal came,
/// and ctrlc's handler is not told.
#[cfg(unix)]
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            batch::remove_own_temporary_files();
            std::process::exit(128 + signal);
        }
    });
}

#[cfg(not(unix))]
fn clean_up_on_signals() {}

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
            say(&format!(
                "xlsudoku: passing over {}: an earlier copy of {}, rewritten by this run",
                input.display(),
                writer.display()
            ));
        }
    }
    let mut jobs = planned.jobs;
    if jobs.is_empty() && !plan.write {
        // A check over nothing is a mistyped path, not a pass.
        return usage_error("no .xlsx/.xlsm workbooks found in the inputs");
    }
    for (flag, path) in [("--report", c.report.as_deref()), ("--junit", junit)] {
        if let Some(clash) = path.and_then(|p| batch::report_clash(p, &jobs)) {
            return usage_error(format!(
                "{flag} {}: that is the workbook {}; the report would replace it: choose another file",
                path.unwrap_or(Path::new("")).display(),
                clash.display()
            ));
        }
    }
    if let Some(shard) = c.shard {
        jobs = shard.select(jobs);
    }
    clean_up_on_signals();
    // Temporary files that killed runs left where this one writes.
    let report_dirs: Vec<PathBuf> = [c.report.as_deref(), junit]
        .into_iter()
        .flatten()
        .map(|p| {
            std::fs::canonicalize(p)
                .unwrap_or_else(|_| p.to_path_buf())
                .parent()
                .map(|d| {
                    if d.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        d
                    }
                    .to_path_buf()
                })
                .unwrap_or_else(|| PathBuf::from("."))
        })
        .collect();
    let output_dirs: Vec<PathBuf> = jobs
        .iter()
        .filter_map(|j| j.output.as_deref())
        .filter(|o| !batch::is_dash(o))
        .map(|o| match o.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        })
        .collect();
    batch::sweep_leftovers(report_dirs.iter().chain(&output_dirs).map(PathBuf::as_path));
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(c.jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return usage_error(format!("cannot start the worker threads: {e}")),
    };
    let report = match &c.report {
        Some(p) => match ReportFile::create(p) {
            Ok(f) => Some(f),
            Err(e) => return usage_error(format!("{}: cannot write the report: {e}", p.display())),
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
        human_to_stderr: plan.write && plan.output.as_deref().is_some_and(batch::is_dash),
        stdout_open: true,
        stdout_error: None,
        sheet_names: Default::default(),
        reported_sheets: Default::default(),
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
        say(&sink.summary.to_human_line());
    }
    let mut code = 0u8;
    if sink.stdout_open {
        if let Err(e) = std::io::stdout().lock().flush() {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                sink.stdout_error = Some(e);
            }
        }
    }
    if let Some(e) = &sink.stdout_error {
        say(&format!("xlsudoku: stdout: cannot write the report: {e}"));
        code = 2;
    }
    if let Some(mut f) = sink.report.take() {
        f.write(&format!("{}\n", sink.summary.to_json_line()));
        if let Err(e) = f.finish() {
            say(&format!("xlsudoku: {e}"));
            code = 2;
        }
    }
    if let Some(path) = junit {
        let xml = junit_xml(&sink.records, &sink.summary, allow_no_grid);
        let written = ReportFile::create(path)
            .map_err(|e| format!("{}: cannot write the report: {e}", path.display()))
            .and_then(|mut f| {
                f.write(&xml);
                f.finish()
            });
        if let Err(e) = written {
            say(&format!("xlsudoku: {e} (JUnit)"));
            code = 2;
        }
    }
    // A --sheet name that no workbook has is a typing error, not a pass.
    let unknown: Vec<&String> = c
        .sheet
        .iter()
        .filter(|n| !sink.reported_sheets.contains(&n.to_lowercase()))
        .collect();
    if !unknown.is_empty() && sink.summary.failed_files == 0 {
        let there: Vec<&str> = sink.sheet_names.iter().map(String::as_str).collect();
        for name in unknown {
            say(&format!(
                "xlsudoku: --sheet {name}: no such sheet{}",
                if there.is_empty() {
                    String::new()
                } else {
                    format!("; the sheets are: {}", there.join(", "))
                }
            ));
        }
        code = 2;
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
    }
    if let Err(e) = written.and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            say(&format!("xlsudoku: stdout: cannot write the report: {e}"));
            code = 2;
        }
    }
    code
}

/// `xlsudoku explain`: the steps of every grid (or of one --puzzle line),
/// as text or JSON Lines, then (JSON) a summary object.
fn run_explain(a: ExplainArgs) -> u8 {
    use xlsudoku::explain::{explain_puzzle, explain_workbook, GridExplanation};
    let start = Instant::now();
    let opts = SolveOptions {
        logic_only: false,
        timeout: a.timeout,
        techniques: a.techniques.clone(),
    };
    let explained: Vec<GridExplanation> = match (&a.puzzle, &a.input) {
        // The first word, as `bench` reads a line: a note after it is left out.
        (Some(line), _) => match xlsudoku::grid::Grid::parse_line(
            line.split_whitespace().next().unwrap_or_default(),
            a.box_shape,
        ) {
            Ok(p) => vec![explain_puzzle(&p, &opts)],
            Err(e) => return usage_error(format!("--puzzle: {e}")),
        },
        (None, Some(input)) => {
            let read = ReadOptions {
                range: a.range,
                shape: a.box_shape,
                ..ReadOptions::default()
            };
            match explain_workbook(input, &read, &opts, &a.sheet) {
                Ok(e) => e,
                Err(e) => return usage_error(e),
            }
        }
        (None, None) => return usage_error("give a workbook or --puzzle LINE"),
    };
    let mut summary = Summary {
        files: usize::from(a.input.is_some()),
        ..Summary::default()
    };
    let mut text = String::new();
    for (k, e) in explained.iter().enumerate() {
        summary.sheets += 1;
        *summary.statuses.entry(e.status).or_default() += 1;
        if a.json {
            text.push_str(&e.to_json_line());
            text.push('\n');
        } else {
            if k > 0 {
                text.push('\n');
            }
            text.push_str(&e.to_text());
        }
    }
    summary.seconds = start.elapsed().as_secs_f64();
    if a.json {
        text.push_str(&summary.to_json_line());
        text.push('\n');
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return usage_error(format!("stdout: cannot write the explanation: {e}"));
        }
    }
    let grids = explained
        .iter()
        .filter(|e| e.status != xlsudoku::report::SheetStatus::NoGrid);
    let mut any = false;
    let mut failed = false;
    for e in grids {
        any = true;
        failed |= !e.passes();
    }
    if !any {
        say("xlsudoku: no grid found to explain");
    }
    u8::from(failed || !any)
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

/// `xlsudoku rate FILE...`: a line per puzzle on stdout as soon as it and
/// every puzzle before it are rated, the summary last.
fn run_rate(a: RateArgs) -> u8 {
    use xlsudoku::rate::{rate_files, RateOptions, RateSummary};
    if let Some(j) = a.jobs {
        if j == 0 || j > MAX_JOBS {
            return usage_error(format!("--jobs {j}: must be 1 to {MAX_JOBS}"));
        }
    }
    let opts = RateOptions {
        timeout: a.timeout,
        jobs: a.jobs.unwrap_or(0),
    };
    let start = Instant::now();
    let mut summary = RateSummary {
        files: a.files.len() as u64,
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
                    written = writeln!(out, "{line}");
                }
            }
            Err(e) => {
                // Flush first, so that the message follows the lines before it.
                if written.is_ok() {
                    written = out.flush();
                }
                say(&format!("xlsudoku: {e}"));
            }
        }
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
    if let Err(e) = written.and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            say(&format!("xlsudoku: stdout: cannot write the report: {e}"));
            code = 2;
        }
    }
    code
}

/// A seed when none is given: the clock's nanoseconds and the process id,
/// mixed (printed, so that the set can be made again).
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut rng = xlsudoku::generate::Rng::for_puzzle(nanos, u64::from(std::process::id()));
    // Seeds people can type: below 2^53 (exact in JSON and spreadsheets).
    rng.next_u64() >> 11
}

/// `xlsudoku generate`: options checked, the set made in parallel with a
/// progress bar on a terminal, then written in one piece.
fn run_generate(a: GenerateArgs) -> u8 {
    use xlsudoku::generate::book::{text, workbook_bytes, SetInfo};
    use xlsudoku::generate::{default_attempts, generate, GenerateOptions};
    if let Some(j) = a.jobs {
        if j == 0 || j > MAX_JOBS {
            return usage_error(format!("--jobs {j}: must be 1 to {MAX_JOBS}"));
        }
    }
    let shape = match (a.size, a.box_shape) {
        (Some(n), Some(b)) if b.side() != n => {
            return usage_error(format!(
                "--box {b} makes {}x{} grids, not --size {n}",
                b.side(),
                b.side()
            ))
        }
        (_, Some(b)) => b,
        (n, None) => {
            let n = n.unwrap_or(9);
            match BoxShape::for_side(n) {
                Some(b) if n >= 4 => b,
                _ => {
                    return usage_error(format!(
                        "--size {n}: no usual box shape; give one with --box WxH (sizes 4 to 64 with a factor pair, e.g. 4, 6, 8, 9, 12, 16, 25)"
                    ))
                }
            }
        }
    };
    if shape.side() < 4 || shape.width() == 1 || shape.height() == 1 {
        return usage_error(format!(
            "--box {shape}: boxes must be at least 2 cells each way and the side at least 4"
        ));
    }
    if a.count == 0 {
        return usage_error("--count 0: nothing to generate");
    }
    let format = a.format.unwrap_or_else(|| {
        let txt = batch::is_dash(&a.output)
            || a.output
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
        if txt {
            SetFormat::Txt
        } else {
            SetFormat::Xlsx
        }
    });
    if format == SetFormat::Txt && BoxShape::for_side(shape.side()) != Some(shape) {
        return usage_error(format!(
            "--format txt: a puzzle line has the usual box shape for its size ({}), not {shape}; write a workbook instead",
            BoxShape::for_side(shape.side()).map(|b| b.to_string()).unwrap_or_default()
        ));
    }
    let to_stdout = batch::is_dash(&a.output);
    if !to_stdout && !a.force && a.output.exists() {
        return usage_error(format!(
            "{}: exists; choose another name or add --force to replace it",
            a.output.display()
        ));
    }
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let mut opts = GenerateOptions::new(shape, a.count, seed);
    if let Some(l) = a.level {
        opts.target.limits.min_level = l.min;
        opts.target.limits.max_level = l.max;
    }
    if let Some(r) = a.rating {
        opts.target.limits.min_rating = r.min;
        opts.target.limits.max_rating = r.max;
    }
    if let Some(g) = a.givens {
        opts.target.givens = g;
    }
    opts.target.ladder = a.techniques.clone();
    opts.symmetry = a.symmetry;
    opts.max_attempts = a.max_attempts.unwrap_or_else(|| default_attempts(shape));
    if opts.max_attempts == 0 {
        return usage_error("--max-attempts 0: no puzzle could be made");
    }
    opts.jobs = a.jobs.unwrap_or(0);
    let start = Instant::now();
    opts.deadline = a.timeout.map(|t| start + t);
    // The command that makes the same set again.
    let mut command = format!("xlsudoku generate --size {}", shape.side());
    if BoxShape::for_side(shape.side()) != Some(shape) {
        command.push_str(&format!(" --box {shape}"));
    }
    command.push_str(&format!(" --count {}", a.count));
    if let Some(l) = &a.level {
        command.push_str(&format!(" --level {}", span_text(l)));
    }
    if let Some(r) = &a.rating {
        command.push_str(&format!(" --rating {r}"));
    }
    if a.symmetry != Symmetry::None {
        command.push_str(&format!(" --symmetry {}", a.symmetry));
    }
    if let Some(g) = &a.givens {
        command.push_str(&format!(" --givens {g}"));
    }
    if let Some(t) = &a.techniques {
        command.push_str(&format!(" --techniques {t}"));
    }
    if a.max_attempts.is_some() {
        command.push_str(&format!(" --max-attempts {}", opts.max_attempts));
    }
    command.push_str(&format!(" --seed {seed}"));
    let target = opts.target.describe(shape, opts.symmetry);
    if !a.quiet && a.seed.is_none() {
        say(&format!(
            "xlsudoku: seed {seed} (--seed {seed} makes this set again)"
        ));
    }
    let progress = (!a.quiet && std::io::stderr().is_terminal() && a.count > 1).then(|| {
        let pb = ProgressBar::with_draw_target(Some(a.count as u64), ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} puzzles [{elapsed_precise}, ETA {eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    });
    let made = generate(&opts, |_| {
        if let Some(pb) = &progress {
            pb.inc(1);
        }
    });
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    let set = match made {
        Ok(set) => set,
        Err(e) => return usage_error(e),
    };
    let seconds = start.elapsed().as_secs_f64();
    let info = SetInfo {
        seed,
        command,
        target: target.clone(),
    };
    let bytes = match format {
        SetFormat::Txt => text(&set, &info).into_bytes(),
        SetFormat::Xlsx => match workbook_bytes(&set, &info) {
            Ok(b) => b,
            Err(e) => return usage_error(format!("cannot build the workbook: {e}")),
        },
    };
    if let Err(e) = write_whole(&a.output, &bytes) {
        return usage_error(e);
    }
    if !a.quiet {
        let attempts: u64 = set.iter().map(|g| g.attempts).sum();
        say(&format!(
            "xlsudoku: {} {target} puzzles in {seconds:.2} s ({:.0}/s, {:.1} attempts each), seed {seed}{}",
            set.len(),
            set.len() as f64 / seconds.max(1e-9),
            attempts as f64 / set.len() as f64,
            if to_stdout {
                String::new()
            } else {
                format!(", written to {}", a.output.display())
            }
        ));
    }
    0
}

/// A level range as `--level` reads it back: `hard`, `easy..medium`.
fn span_text(l: &Span<Level>) -> String {
    match (l.min, l.max) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        _ => l.to_string(),
    }
}

/// Writes `bytes` to standard output (`-`), or to a temporary file beside
/// `path` renamed over it once complete: never a half-written set.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if batch::is_dash(path) {
        let mut out = std::io::stdout().lock();
        return match out.write_all(bytes).and_then(|()| out.flush()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(format!("stdout: cannot write the set: {e}"))
            }
            _ => Ok(()),
        };
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let shown = path.display();
    let mut tmp = tempfile::Builder::new()
        .prefix(".xlsudoku-generate-")
        .tempfile_in(dir)
        .map_err(|e| format!("{shown}: cannot write beside it: {e}"))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    tmp.persist(path)
        .map_err(|e| format!("{shown}: cannot write: {}", e.error))?;
    Ok(())
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
        assert_eq!(args(&["x", "explain", "in.xlsx"])[1], "explain");
        assert_eq!(args(&["x", "--help"])[1], "--help");
    }
}
