//! `xlsudoku explain`: its flags and run (the steps of each grid in words).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use xlsudoku::report::Summary;

use crate::common::{on_stdout, say, usage_error};
use crate::ladder_args::LadderArgs;

/// `explain`: a workbook's grids, or one text puzzle.
#[derive(clap::Args, Debug)]
pub struct Args {
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
    /// `--range`, `--box`, `--techniques`, `--timeout`.
    #[command(flatten)]
    ladder: LadderArgs,
    #[command(flatten)]
    se_budget: crate::common::SeBudgetArg,
    /// JSON Lines on stdout: one object per grid with its steps, then a
    /// summary object.
    #[arg(long)]
    json: bool,
    /// Also write the steps as pictures into this new workbook (.xlsx): a
    /// sheet per grid, each step's sentence over the grid's candidates
    /// just before it, the step's cells coloured as `hint` colours them.
    #[arg(long, value_name = "FILE")]
    xlsx: Option<PathBuf>,
}

/// `xlsudoku explain`: the steps of every grid (or of one --puzzle line),
/// as text or JSON Lines, then (JSON) a summary object.
pub fn run(a: Args) -> u8 {
    use xlsudoku::explain::{explain_puzzle, explain_workbook, GridExplanation};
    let start = Instant::now();
    let opts = xlsudoku::solve::SolveOptions {
        se_budget: Some(a.se_budget.se_budget),
        ..a.ladder.solve_options()
    };
    let explained: Vec<GridExplanation> = match (&a.puzzle, &a.input) {
        // The first word, as `bench` reads a line: a note after it is left
        // out (a leading BOM too; cells separated by tabs are joined).
        (Some(line), _) => {
            match xlsudoku::grid::Grid::parse_line(
                &xlsudoku::grid::puzzle_text(line),
                a.ladder.box_shape,
            ) {
                Ok(p) => vec![explain_puzzle(&p, &opts)],
                Err(e) => return usage_error(format!("--puzzle: {e}")),
            }
        }
        (None, Some(input)) => {
            let read = a.ladder.read_options();
            match explain_workbook(input, &read, &opts, &a.sheet) {
                Ok(e) => e,
                Err(e) => return usage_error(e),
            }
        }
        (None, None) => return usage_error("give a workbook or --puzzle LINE"),
    };
    if let Some(path) = &a.xlsx {
        let written = xlsudoku::explain::steps_workbook(&explained)
            .map_err(|e| format!("{}: cannot make the workbook: {e}", path.display()))
            .and_then(|bytes| crate::commands::hint::write_whole(path, &bytes));
        if let Err(message) = written {
            return usage_error(message);
        }
    }
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
    if let Err(e) = on_stdout(out.write_all(text.as_bytes()).and_then(|()| out.flush())) {
        return usage_error(format!("stdout: cannot write the explanation: {e}"));
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
