//! `xlsudoku explain`: its flags and run (the steps of each grid in words).

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use xlsudoku::address::CellRange;
use xlsudoku::grid::BoxShape;
use xlsudoku::logic::Ladder;
use xlsudoku::report::Summary;
use xlsudoku::solve::SolveOptions;
use xlsudoku::workbook::ReadOptions;

use crate::common::{on_stdout, parse_timeout, say, usage_error};

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
    let opts = SolveOptions {
        logic_only: false,
        timeout: a.timeout,
        techniques: a.techniques.clone(),
    };
    let explained: Vec<GridExplanation> = match (&a.puzzle, &a.input) {
        // The first word, as `bench` reads a line: a note after it is left
        // out (a leading BOM too; cells separated by tabs are joined).
        (Some(line), _) => {
            match xlsudoku::grid::Grid::parse_line(&xlsudoku::grid::puzzle_text(line), a.box_shape)
            {
                Ok(p) => vec![explain_puzzle(&p, &opts)],
                Err(e) => return usage_error(format!("--puzzle: {e}")),
            }
        }
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
