//! `xlsudoku hint`: its flags and run (the next step of each grid, from
//! the position the person has reached, coloured into a copy).

use std::io::Write;
use std::path::{Path, PathBuf};

use xlsudoku::hint::{grid_hint, hint_workbook, GridHint, Position};
use xlsudoku::solve::SolveOptions;

use crate::common::{on_stdout, say, usage_error};
use crate::ladder_args::LadderArgs;

/// `hint`: a workbook's grids, or one text puzzle.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The workbook (.xlsx, .xlsm; .xls and .ods give a new .xlsx).
    #[arg(
        value_name = "INPUT",
        required_unless_present = "puzzle",
        conflicts_with = "puzzle"
    )]
    input: Option<PathBuf>,
    /// The copy to write (default: NAME.hint.xlsx beside the input); never
    /// the input itself.
    #[arg(short, long, value_name = "OUTPUT", conflicts_with = "puzzle")]
    output: Option<PathBuf>,
    /// Hint this one-line puzzle instead, on the terminal: side*side
    /// characters, `.` or `0` blank (cells named r5c7).
    #[arg(long, value_name = "LINE")]
    puzzle: Option<String>,
    /// `--range`, `--box`, `--techniques`, `--timeout`.
    #[command(flatten)]
    ladder: LadderArgs,
    /// With wrong entries, show each wrong cell's right digit too.
    #[arg(long)]
    reveal: bool,
    /// JSON Lines on stdout: one object per grid (its note, step as
    /// `explain --json` gives it, wrong cells and colours).
    #[arg(long)]
    json: bool,
    /// Print nothing but errors.
    #[arg(short, long)]
    quiet: bool,
}

/// `xlsudoku hint`: prints each grid's hint (or, with --json, one object
/// per grid) and writes the copy; 0 when every grid has a next step or is
/// solved, 1 when some grid has wrong entries or no hint (or none was
/// found), 2 on a usage or file error.
pub fn run(a: Args) -> u8 {
    let opts = a.ladder.solve_options();
    let hints = match (&a.puzzle, &a.input) {
        (Some(line), _) => {
            let text = xlsudoku::grid::puzzle_text(line);
            match xlsudoku::grid::Grid::parse_line(&text, a.ladder.box_shape) {
                Ok(p) => {
                    let map = xlsudoku::explain::AddressMap::puzzle(p.shape());
                    vec![grid_hint(
                        &Position::of_puzzle(&p),
                        &map,
                        p.shape(),
                        &opts,
                        a.reveal,
                    )]
                }
                Err(e) => return usage_error(format!("--puzzle: {e}")),
            }
        }
        (None, Some(input)) => match hint_file(&a, input, &opts) {
            Ok(h) => h,
            Err(message) => return usage_error(message),
        },
        (None, None) => return usage_error("give a workbook or --puzzle LINE"),
    };
    let mut text = String::new();
    for h in &hints {
        if a.json {
            text.push_str(&h.to_json_line());
        } else {
            text.push_str(&line_of(h));
        }
        text.push('\n');
    }
    if !a.quiet || a.json {
        let mut out = std::io::stdout().lock();
        if let Err(e) = on_stdout(out.write_all(text.as_bytes()).and_then(|()| out.flush())) {
            return usage_error(format!("stdout: cannot write the hint: {e}"));
        }
    }
    if hints.is_empty() {
        say("xlsudoku: no grid found to hint");
        return 1;
    }
    u8::from(!hints.iter().all(GridHint::passes))
}

/// `Puzzle!C3:K11: naked single: …`, or the note alone for a text puzzle.
fn line_of(h: &GridHint) -> String {
    let note = h.note.strip_prefix("hint: ").unwrap_or(&h.note);
    match (&h.sheet, &h.range) {
        (Some(s), Some(r)) => format!("{s}!{r}: {note}"),
        _ => note.to_string(),
    }
}

/// Hints the workbook and writes its copy; the message of a file error.
fn hint_file(a: &Args, input: &Path, opts: &SolveOptions) -> Result<Vec<GridHint>, String> {
    let output = a.output.clone().unwrap_or_else(|| default_output(input));
    if same_file(input, &output) {
        return Err(format!(
            "{}: the copy would replace the input; give another -o",
            output.display()
        ));
    }
    let bytes = xlsudoku::workbook::read_file(input).map_err(|e| e.to_string())?;
    let read = a.ladder.read_options();
    let book = hint_workbook(input, bytes, &read, opts, a.reveal).map_err(|e| e.to_string())?;
    if !book.grids.is_empty() {
        write_whole(&output, &book.copy)?;
    }
    Ok(book.grids)
}

/// `puzzles.xlsx` → `puzzles.hint.xlsx` beside it.
fn default_output(input: &Path) -> PathBuf {
    let stem = input.file_stem().unwrap_or_default().to_string_lossy();
    input.with_file_name(format!("{stem}.hint.xlsx"))
}

/// True when both paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Writes the copy into a temporary file beside `path`, renamed over it
/// once complete: never a half-written file.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let shown = path.display();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    let mut tmp = xlsudoku::batch::TempCopy::beside(path)
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    tmp.file()
        .write_all(bytes)
        .and_then(|()| tmp.file().sync_all())
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    if let Some(kind) = xlsudoku::batch::not_regular(path) {
        return Err(xlsudoku::batch::not_regular_message(path, kind));
    }
    tmp.persist(path)
        .map_err(|e| format!("{shown}: cannot write: {e}"))
}
