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

use clap::{CommandFactory, Parser, Subcommand};

/// mimalloc, not the system allocator: the ladder makes and drops many small
/// lists per position, and `rate` on magictour top1465 ran 11 % faster with
/// it (docs/design.md, "mimalloc as the binary's allocator").
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: alloc::Mimalloc = alloc::Mimalloc;

#[cfg(feature = "mimalloc")]
mod alloc;
mod commands;
mod common;
mod failures;
mod jobs;
mod ladder_args;

/// Solve the Sudoku puzzles kept in Excel workbooks.
///
/// `xlsudoku in.xlsx -o out.xlsx` finds the bordered grid on every sheet,
/// solves them all in parallel and writes an annotated copy: solved cells in
/// blue italics, and below each grid a note with the status, the technique
/// history (one letter per deduction: the key is below, and `xlsudoku
/// techniques` lists the whole table) and the time taken. The input is
/// never modified.
///
/// Exit status: 0 every grid solved, 1 some grid failed, 2 usage or file
/// error (an existing output that xlsudoku did not write, or that was
/// changed since, is left as it is and counts as a file error: see
/// --force). Ctrl-C removes the run's temporary files and exits with 130;
/// a closed stdout (`| head -1`) ends any command at once, quietly, with 141.
#[derive(Parser, Debug)]
#[command(
    name = "xlsudoku",
    version,
    long_version = long_version(),
    about,
    long_about,
    after_long_help = commands::techniques::history_key_help()
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every grid and write annotated copies (the default command).
    #[command(after_long_help = commands::techniques::history_key_help())]
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
    /// The next step only, from where a person has got to: its cells
    /// coloured in a copy and its sentence in the note.
    ///
    /// For every grid, the position the person has reached (their digits
    /// and their pencil marks, `1 2 5`) is taken as it is and only the next
    /// step of the ladder is given: the cells to place in green, the
    /// candidates to strike in red, the pattern in yellow, fins in blue and
    /// chain ends in violet (HoDoKu's hint colours), the sentence in the
    /// note cell below the grid. No digit is written. When some of the
    /// grid's digits are bold and others not, the bold ones are the
    /// givens; an entry that disagrees with their solution, or marks that
    /// leave out a cell's answer, are named (`D5: 3 is wrong`) and nothing
    /// more; --reveal shows the right digits. `--puzzle LINE` hints a text
    /// puzzle on the terminal.
    ///
    /// Exit status: 0 every grid has a next step or is solved, 1 some grid
    /// has wrong entries or no hint (or no grid was found), 2 usage or file
    /// error.
    Hint(commands::hint::Args),
    /// Rate text puzzle files (one puzzle per line) like Sudoku Explainer's
    /// serate: SE rating, HoDoKu level and score, history.
    Rate(commands::rate::Args),
    /// Generate new puzzles: each with exactly one solution, at the level
    /// asked for, as a print-ready workbook or one puzzle per line.
    ///
    /// Random complete grids, givens taken away while the puzzle stays
    /// provably unique (by the exact solver: a minimal puzzle; from 16x16
    /// up by the ladder: a book-grade one), rated (a 9x9 by Sudoku
    /// Explainer's own rules, HoDoKu's level by the ladder) and kept when inside --level, --rating, --givens and
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
    /// List the techniques: history letter, name, --techniques key, Sudoku
    /// Explainer rating, HoDoKu level and score, in the order the ladder
    /// tries them.
    Techniques(commands::techniques::Args),
}

/// The flags that answer without a command.
const TOP_FLAGS: [&str; 4] = ["-h", "--help", "-V", "--version"];

/// The command names (`help` included), read off the parser.
fn subcommand_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let cli = Cli::command();
        let mut names: Vec<String> = cli
            .get_subcommands()
            .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_all_aliases()))
            .map(str::to_string)
            .collect();
        names.push("help".to_string());
        names
    })
}

/// Options that take the next argument as their value (`-o FILE`,
/// `--answers sheet`), read off every command's definitions, so that the
/// default command's rewriting never takes a flag's value for a path.
fn value_options() -> &'static std::collections::HashSet<String> {
    static OPTIONS: std::sync::OnceLock<std::collections::HashSet<String>> =
        std::sync::OnceLock::new();
    OPTIONS.get_or_init(|| {
        let cli = Cli::command();
        let mut set = std::collections::HashSet::new();
        for arg in cli.get_subcommands().flat_map(|c| c.get_arguments()) {
            let takes_value = arg.get_action().takes_values()
                && arg.get_num_args().is_none_or(|n| n.min_values() > 0);
            if arg.is_positional() || !takes_value {
                continue;
            }
            for long in arg.get_long_and_visible_aliases().into_iter().flatten() {
                set.insert(format!("--{long}"));
            }
            for short in arg.get_short_and_visible_aliases().into_iter().flatten() {
                set.insert(format!("-{short}"));
            }
        }
        set
    })
}

/// Where the command's name would stand: the first argument that is not a
/// flag or a flag's value (`None` past `--`, or for `--help` and
/// `--version` alone).
fn first_word(args: &[OsString]) -> Option<usize> {
    let mut i = 1;
    while i < args.len() {
        let a = args[i].to_string_lossy();
        if a == "--" {
            return None;
        }
        if !a.starts_with('-') || a == "-" {
            return Some(i);
        }
        if i == 1 && TOP_FLAGS.contains(&a.as_ref()) {
            return None;
        }
        i += if value_options().contains(a.as_ref()) {
            2
        } else {
            1
        };
    }
    None
}

/// `solve` is the default command: `xlsudoku in.xlsx` means
/// `xlsudoku solve in.xlsx`, and `xlsudoku -q check dir` means
/// `xlsudoku check -q dir`.
fn with_default_command(mut args: Vec<OsString>) -> Vec<OsString> {
    if args.len() < 2 {
        return args;
    }
    if TOP_FLAGS.contains(&args[1].to_string_lossy().as_ref()) {
        return args;
    }
    if let Some(i) = first_word(&args) {
        if subcommand_names()
            .iter()
            .any(|n| *n == args[i].to_string_lossy())
        {
            let cmd = args.remove(i);
            args.insert(1, cmd);
            return args;
        }
    }
    args.insert(1, OsString::from("solve"));
    args
}

/// A command's name mistyped where a path would stand (`xlsudoku chekc
/// dir`): the word names nothing on disk and is one or two edits away from
/// a command. Returns the word and the command.
fn mistyped_command(args: &[OsString]) -> Option<(String, &'static str)> {
    let word = args.get(first_word(args)?)?.to_str()?;
    if word == "-" || std::path::Path::new(word).symlink_metadata().is_ok() {
        return None;
    }
    let names = subcommand_names().iter().map(String::as_str);
    xlsudoku::suggest::closest(word, names).map(|n| (word.to_string(), n))
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    if let Some((word, command)) = mistyped_command(&args) {
        return ExitCode::from(common::usage_error(format!(
            "{word}: no such file or folder, and no command of that name; did you mean the command '{command}'? (xlsudoku {command} ...)"
        )));
    }
    let cli = Cli::parse_from(with_default_command(args));
    let code = match cli.command {
        Command::Solve(a) => commands::solve::run(a),
        Command::Check(a) => commands::check::run(a),
        Command::Bench(a) => commands::bench::run(a),
        Command::Explain(a) => commands::explain::run(a),
        Command::Hint(a) => commands::hint::run(a),
        Command::Rate(a) => commands::rate::run(a),
        Command::Generate(a) => commands::generate::run(a),
        Command::Completions(a) => commands::completions::run(a),
        Command::Man => commands::man::run(),
        Command::Techniques(a) => commands::techniques::run(a),
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
        // A flag's value is never taken for the command or a path.
        assert_eq!(args(&["x", "--answers", "sheet", "check"])[1], "check");
        assert_eq!(args(&["x", "-o", "rate", "in.xlsx"])[1], "solve");
    }

    #[test]
    fn value_options_are_read_off_every_commands_flags() {
        let options = value_options();
        for flag in [
            "-o",
            "--output",
            "--answers",
            "--level",
            "-j",
            "--puzzle",
            "--box",
        ] {
            assert!(options.contains(flag), "{flag}");
        }
        for flag in ["--json", "-q", "--force", "--logic-only"] {
            assert!(!options.contains(flag), "{flag}");
        }
    }

    #[test]
    fn a_mistyped_command_is_told_from_a_path() {
        let words = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        let guess = |v: &[&str]| mistyped_command(&words(v)).map(|(_, c)| c);
        assert_eq!(guess(&["x", "chekc", "dir"]), Some("check"));
        assert_eq!(guess(&["x", "-q", "genrate", "-n", "2"]), Some("generate"));
        assert_eq!(guess(&["x", "explian"]), Some("explain"));
        // Far from every command, or a command itself: no guess.
        assert_eq!(guess(&["x", "puzzles/"]), None);
        assert_eq!(guess(&["x", "check", "dir"]), None);
        assert_eq!(guess(&["x", "-o", "rat", "in.xlsx"]), None);
    }
}
