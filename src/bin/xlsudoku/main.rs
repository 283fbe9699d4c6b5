//! The `xlsudoku` command line: a thin layer over the library.
//!
//! This file holds the parser (`Cli`, `Command`), the default-command
//! rewriting (`xlsudoku in.xlsx` means `xlsudoku solve in.xlsx`) and
//! `main`, which hands each command to `commands::<name>::run`. Each
//! command's flags and run are in `commands/<name>.rs`; what several share
//! is in `common.rs` (flags, option checks, messages) and `jobs.rs` (the
//! runner behind `solve` and `check`).

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// mimalloc, not the system allocator: the ladder makes and drops many small
/// lists per position, and `rate` on magictour top1465 ran 11 % faster with
/// it (README, Design).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod commands;
mod common;
mod jobs;

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
/// --force). Ctrl-C removes the run's temporary files and exits with 130;
/// a closed stdout (`| head -1`) ends any command at once, quietly, with 141.
#[derive(Parser, Debug)]
#[command(name = "xlsudoku", version, long_version = long_version(), about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every grid and write annotated copies (the default command).
    Solve(commands::solve::Args),
    /// Check puzzles without writing anything: grid found, givens
    /// consistent, solvable, unique.
    Check(commands::check::Args),
    /// Solve text puzzle files (one puzzle per line) and report puzzles per
    /// second.
    Bench(commands::bench::Args),
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
    Explain(commands::explain::Args),
    /// Rate text puzzle files (one puzzle per line) like Sudoku Explainer's
    /// serate: SE rating, HoDoKu level and score, history.
    Rate(commands::rate::Args),
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
    /// Exit status: 0 the set was written, 1 the set stopped short at
    /// --max-attempts or --timeout and the puzzles made are written (how
    /// many is said), 2 a usage or file error, a request no puzzle can meet,
    /// or nothing made within --max-attempts or --timeout (named in the
    /// message).
    Generate(commands::generate::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell,
    /// elvish) on stdout.
    Completions(commands::completions::Args),
    /// Print the manual page (roff) on stdout.
    Man,
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
        Command::Solve(a) => commands::solve::run(a),
        Command::Check(a) => commands::check::run(a),
        Command::Bench(a) => commands::bench::run(a),
        Command::Explain(a) => commands::explain::run(a),
        Command::Rate(a) => commands::rate::run(a),
        Command::Generate(a) => commands::generate::run(a),
        Command::Completions(a) => commands::completions::run(a),
        Command::Man => commands::man::run(),
    };
    ExitCode::from(code)
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
