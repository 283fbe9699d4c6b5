//! What several commands share: the `Common` flags of `solve` and `check`,
//! their options (`run_options`), `--timeout` and `-j` checks, usage errors,
//! messages on stderr, and generated text (completions, man) on stdout.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use xlsudoku::address::CellRange;
use xlsudoku::batch::{RunOptions, Shard};
use xlsudoku::grid::BoxShape;
use xlsudoku::logic::{Ladder, Limits};
use xlsudoku::solve::SolveOptions;
use xlsudoku::workbook::ReadOptions;

/// Flags shared by `solve` and `check`.
#[derive(Args, Debug)]
pub struct Common {
    /// Workbooks (.xlsx, .xlsm) and directories (searched recursively);
    /// `-` reads one workbook from standard input.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Threads for files and sheets [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Print nothing but errors (and, with --json, the JSON).
    #[arg(short, long)]
    pub quiet: bool,
    /// JSON Lines on stdout: one object per grid, then a summary object.
    #[arg(long)]
    pub json: bool,
    /// Write the JSON Lines report to FILE as well.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Use exactly this square as the grid (no detection), e.g. C3:K11.
    #[arg(long, value_name = "RANGE")]
    pub range: Option<CellRange>,
    /// Box shape, WIDTHxHEIGHT, e.g. 3x2 for 6x6 grids.
    #[arg(long = "box", value_name = "WxH")]
    pub box_shape: Option<BoxShape>,
    /// Give up on a grid after this many seconds (status `timeout`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
    #[command(flatten)]
    pub se_budget: SeBudgetArg,
    /// Process only the K-th of N deterministic slices of the sorted inputs.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Only the sheets with this name (repeat for several; case does not
    /// matter); the others are left alone and not reported. A name no
    /// workbook has is a usage error.
    #[arg(long, value_name = "NAME")]
    pub sheet: Vec<String>,
    /// Techniques the ladder may use: `seed` (the old macro's four: i ! * ^,
    /// its exact history), `all`, or letters/names such as `i,!,2,x`.
    #[arg(long, value_name = "seed|all|LIST", default_value = "all")]
    pub techniques: Ladder,
    /// How each grid's line is written: `human`, or `github` (GitHub
    /// Actions workflow commands: an `::error` annotation per failing
    /// grid).
    #[arg(long, value_enum, default_value = "human")]
    pub format: crate::failures::Format,
    /// Colour the status words: `auto` (on a terminal, unless NO_COLOR is
    /// set), `always` or `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: crate::failures::ColorChoice,
}

pub fn usage_error(message: impl std::fmt::Display) -> u8 {
    say(&format!("xlsudoku: {message}"));
    2
}

/// The most threads `-j` may ask for.
pub const MAX_JOBS: usize = 256;

/// `--timeout SECONDS`: a positive number of seconds (clap names the
/// value as typed in the error).
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    let t: f64 = text
        .trim()
        .parse()
        .map_err(|_| "not a number of seconds".to_string())?;
    if t.is_nan() || t <= 0.0 {
        return Err("must be a positive number of seconds".to_string());
    }
    Duration::try_from_secs_f64(t).map_err(|_| "too large".to_string())
}

/// `--se-budget`, defined once for every command that solves workbooks.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct SeBudgetArg {
    /// Seconds Sudoku Explainer's exact rating of a 9x9 grid may take;
    /// past them the rating is what is known (`SE ≥ 9.5`). 0 gives every
    /// grid that needs chains a lower bound at once.
    #[arg(long, value_name = "SECONDS", value_parser = parse_budget, default_value = "1")]
    pub se_budget: Duration,
}

/// `--se-budget SECONDS`: zero or a positive number of seconds.
pub fn parse_budget(text: &str) -> Result<Duration, String> {
    if text.trim().parse::<f64>().is_ok_and(|t| t == 0.0) {
        return Ok(Duration::ZERO);
    }
    parse_timeout(text).map_err(|e| e.replace("must be a positive", "must be 0 or a positive"))
}

/// Options from the shared flags, or the usage error they make.
pub fn run_options(c: &Common, logic_only: bool, force: bool) -> Result<RunOptions, String> {
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
            se_budget: Some(c.se_budget.se_budget),
        },
        force,
        sheets: c.sheet.clone(),
        limits: Limits::default(),
        repeats: Default::default(),
    })
}

/// Prints a line on stderr; a stderr that cannot be written is no reason
/// to stop.
pub fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Writes what `render` makes to stdout: 0, or 2 with a message when stdout
/// fails (a closed pipe is not an error).
pub fn print_generated(render: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> u8 {
    let mut text = Vec::new();
    if let Err(e) = render(&mut text) {
        return usage_error(format!("cannot generate the text: {e}"));
    }
    let mut out = std::io::stdout().lock();
    match on_stdout(out.write_all(&text).and_then(|()| out.flush())) {
        Ok(()) => 0,
        Err(e) => usage_error(format!("cannot write to stdout: {e}")),
    }
}

/// The exit status of a run whose standard output was closed by its
/// reader (`| head -1`): 128 + SIGPIPE, what a shell reports for `cat` or
/// `seq` stopped the same way.
pub const STDOUT_CLOSED: u8 = 141;

/// Standard output was closed by its reader: removes this run's temporary
/// files and ends the process at once and quietly with [`STDOUT_CLOSED`],
/// however much work is left (nobody reads it).
pub fn stdout_closed() -> ! {
    xlsudoku::batch::remove_own_temporary_files();
    std::process::exit(i32::from(STDOUT_CLOSED))
}

/// Ends the run at once ([`stdout_closed`]) when standard output is a
/// pipe and its reader closes it, even while nothing is being written
/// (one `rate` line may take minutes): a thread waits on the pipe for it.
#[cfg(unix)]
pub fn end_when_stdout_closes() {
    use std::os::fd::AsRawFd;
    let fd = std::io::stdout().as_raw_fd();
    // SAFETY: fstat fills the zeroed struct for a descriptor we own.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut st) } != 0 || st.st_mode & libc::S_IFMT != libc::S_IFIFO {
        return;
    }
    let watch = move || loop {
        // No events asked: poll wakes only for an error or a hang-up,
        // which a pipe's write end gets when its last reader is gone.
        let mut p = libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        };
        // SAFETY: one valid pollfd, no timeout.
        let n = unsafe { libc::poll(&mut p, 1, -1) };
        if n > 0 && p.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
            stdout_closed();
        }
        let interrupted = std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted;
        if n > 0 || !interrupted {
            return;
        }
    };
    // Without the thread, a closed pipe is still seen at the next line.
    let _ = std::thread::Builder::new()
        .name("stdout-watch".into())
        .spawn(watch);
}

/// On other systems a closed pipe is seen at the next line written.
#[cfg(not(unix))]
pub fn end_when_stdout_closes() {}

/// A write to standard output: a closed pipe ends the run
/// ([`stdout_closed`]); any other error is handed back.
pub fn on_stdout<T>(written: std::io::Result<T>) -> std::io::Result<T> {
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => stdout_closed(),
        other => other,
    }
}
