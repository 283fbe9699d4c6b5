//! `xlsudoku solve` (the default command): its flags and run.

use std::io::IsTerminal;
use std::path::PathBuf;

use xlsudoku::batch::{self, Plan};

use crate::common::{run_options, usage_error, Common};
use crate::jobs::run_jobs;

#[derive(clap::Args, Debug)]
pub struct Args {
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
    answers: xlsudoku::answer_place::Answers,
}

pub fn run(a: Args) -> u8 {
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
        // A sheet without a grid is reported, not an error; a workbook
        // without any grid fails.
        Ok(mut opts) => {
            opts.read.answers = a.answers;
            run_jobs(&a.common, &plan, &opts, None, false)
        }
        Err(e) => usage_error(e),
    }
}
