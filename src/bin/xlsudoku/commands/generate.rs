//! `xlsudoku generate`: its flags and run (new unique puzzles, written whole
//! as a workbook or one puzzle per line).

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use xlsudoku::batch;
use xlsudoku::generate::{Span, Symmetry};
use xlsudoku::grid::BoxShape;
use xlsudoku::logic::{Ladder, Level};

use crate::common::{on_stdout, parse_timeout, say, usage_error, MAX_JOBS};

/// `generate`'s flags (the command's help is on [`Command::Generate`]).
#[derive(clap::Args, Debug)]
pub struct Args {
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
pub fn run(a: Args) -> u8 {
    use xlsudoku::generate::book::{text, text_header, workbook_bytes, SetInfo};
    use xlsudoku::generate::generate_each;
    if let Some(j) = a.jobs {
        if j == 0 || j > MAX_JOBS {
            return usage_error(format!("--jobs {j}: must be 1 to {MAX_JOBS}"));
        }
    }
    let shape = match shape_of(&a) {
        Ok(s) => s,
        Err(e) => return usage_error(e),
    };
    if a.count == 0 {
        return usage_error("--count 0: nothing to generate");
    }
    let format = match set_format(&a, shape) {
        Ok(f) => f,
        Err(e) => return usage_error(e),
    };
    let to_stdout = batch::is_dash(&a.output);
    if !to_stdout && !a.force && a.output.exists() {
        return usage_error(format!(
            "{}: exists; choose another name or add --force to replace it",
            a.output.display()
        ));
    }
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let mut opts = match options(&a, shape, seed) {
        Ok(o) => o,
        Err(e) => return usage_error(e),
    };
    let start = Instant::now();
    opts.deadline = a.timeout.map(|t| start + t);
    // The command that makes the same set again.
    let command = remake_command(&a, shape, opts.max_attempts, seed);
    let target = opts.target.describe(shape, opts.symmetry);
    // A target out of reach is refused before a seed is announced.
    if let Err(e) = opts.target.check_reachable(shape, opts.symmetry) {
        return usage_error(e);
    }
    if !a.quiet && a.seed.is_none() {
        say(&format!(
            "xlsudoku: seed {seed} (--seed {seed} makes this set again)"
        ));
    }
    let progress = progress_bar(a.quiet, a.count);
    // Past 25x25 a puzzle takes minutes: said up front, then each one as
    // it is made.
    let slow = !a.quiet && shape.side() > SLOW_SIDE;
    if slow {
        say(&slow_warning(shape.side()));
    }
    let info = SetInfo {
        seed,
        command,
        target: target.clone(),
    };
    // Text on standard output is written as the puzzles are made, in
    // order; a file (or a workbook) is written whole at the end.
    let mut stream = (to_stdout && format == SetFormat::Txt)
        .then(|| std::io::BufWriter::new(std::io::stdout().lock()));
    let mut written = Ok(());
    let mut set = Vec::new();
    let (mut made, mut attempts) = (0usize, 0u64);
    let run = generate_each(&opts, |g| {
        made += 1;
        attempts += g.attempts;
        if let Some(pb) = &progress {
            pb.inc(1);
        } else if slow {
            say(&format!(
                "xlsudoku: puzzle {made} of {} made in {:.0} s",
                a.count,
                start.elapsed().as_secs_f64()
            ));
        }
        match &mut stream {
            Some(out) => {
                // The header with the first puzzle: nothing when none is made.
                let header = if made == 1 {
                    text_header(&info)
                } else {
                    String::new()
                };
                written = on_stdout(writeln!(out, "{header}{}", g.puzzle.to_line()));
                if written.is_err() {
                    return ControlFlow::Break(());
                }
            }
            None => set.push(g),
        }
        ControlFlow::Continue(())
    });
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    if let Some(out) = &mut stream {
        written = written.and_then(|()| on_stdout(out.flush()));
    }
    if let Err(e) = written {
        return usage_error(format!("stdout: cannot write the set: {e}"));
    }
    // A set stopped short: what was made is written, and said (exit 1).
    let short = match run {
        Ok(()) => None,
        Err(e) if e.made() > 0 => Some(e),
        Err(e) => return usage_error(e),
    };
    let seconds = start.elapsed().as_secs_f64();
    if stream.is_none() {
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
    }
    let whither = if to_stdout {
        String::new()
    } else {
        format!(", written to {}", a.output.display())
    };
    if let Some(e) = short {
        say(&format!(
            "xlsudoku: {e}; the {made} made{}",
            if to_stdout {
                " are written".to_string()
            } else {
                format!(" are written to {}", a.output.display())
            }
        ));
        return 1;
    }
    if !a.quiet {
        say(&format!(
            "xlsudoku: {made} {target} puzzles in {seconds:.2} s ({:.0}/s, {:.1} attempts each), seed {seed}{whither}",
            made as f64 / seconds.max(1e-9),
            attempts as f64 / made.max(1) as f64,
        ));
    }
    0
}

/// The generator's options from the command line's.
fn options(
    a: &Args,
    shape: BoxShape,
    seed: u64,
) -> Result<xlsudoku::generate::GenerateOptions, String> {
    use xlsudoku::generate::{default_attempts, GenerateOptions};
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
        return Err("--max-attempts 0: no puzzle could be made".to_string());
    }
    opts.jobs = a.jobs.unwrap_or(0);
    Ok(opts)
}

/// The format of the set (`--format`, else told by the output's name),
/// checked against the count, the shape and the output.
fn set_format(a: &Args, shape: BoxShape) -> Result<SetFormat, String> {
    use xlsudoku::generate::book::MAX_PUZZLE_SHEETS;
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
    if format == SetFormat::Xlsx && a.count > MAX_PUZZLE_SHEETS {
        return Err(format!(
            "--count {}: a workbook holds at most {MAX_PUZZLE_SHEETS} puzzles (a sheet each: LibreOffice opens no more than 10,000 sheets); write them one per line with --format txt",
            a.count
        ));
    }
    if format == SetFormat::Txt && BoxShape::for_side(shape.side()) != Some(shape) {
        return Err(format!(
            "--format txt: a puzzle line has the usual box shape for its size ({}), not {shape}; write a workbook instead",
            BoxShape::for_side(shape.side()).map(|b| b.to_string()).unwrap_or_default()
        ));
    }
    check_output(&a.output, format)?;
    Ok(format)
}

/// The box shape asked for (`--size`, `--box`), checked as every command
/// checks `--box`.
fn shape_of(a: &Args) -> Result<BoxShape, String> {
    let shape = match (a.size, a.box_shape) {
        (Some(n), Some(b)) if b.side() != n => {
            return Err(format!(
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
                    return Err(format!(
                        "--size {n}: no usual box shape; give one with --box WxH (sizes 4 to 64 with a factor pair, e.g. 4, 6, 8, 9, 12, 16, 25)"
                    ))
                }
            }
        }
    };
    // The check every command makes of --box (one message for all).
    shape.usable().map_err(|e| format!("--box: {e}"))?;
    Ok(shape)
}

/// The command that makes the same set again.
fn remake_command(a: &Args, shape: BoxShape, max_attempts: u64, seed: u64) -> String {
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
        command.push_str(&format!(" --max-attempts {}", max_attempts));
    }
    command.push_str(&format!(" --seed {seed}"));
    command
}

/// The progress bar of a set of several puzzles on a terminal (not with -q).
fn progress_bar(quiet: bool, count: usize) -> Option<ProgressBar> {
    (!quiet && std::io::stderr().is_terminal() && count > 1).then(|| {
        let pb = ProgressBar::with_draw_target(Some(count as u64), ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} puzzles [{elapsed_precise}, ETA {eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    })
}

/// The largest side made without a warning that it is slow.
const SLOW_SIDE: usize = 25;

/// What a set of large puzzles costs, said before starting.
fn slow_warning(side: usize) -> String {
    format!(
        "xlsudoku: {side}x{side} puzzles are slow to make: minutes each and up to a gigabyte of memory (one 64x64 puzzle: 150 s, 1 GB); each is reported as it is made, --timeout bounds the run"
    )
}

/// A level range as `--level` reads it back: `hard`, `easy..medium`.
fn span_text(l: &Span<Level>) -> String {
    match (l.min, l.max) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        _ => l.to_string(),
    }
}

/// Extensions of spreadsheet files: a text set is never named so.
const SPREADSHEET_EXTENSIONS: [&str; 8] =
    ["xlsx", "xlsm", "xlsb", "xls", "xltx", "xltm", "ods", "csv"];

/// Refuses, before anything is generated, an output whose name does not
/// say what is written there (a workbook is `.xlsx`; a text set is `-` or
/// not named as a spreadsheet), or that is not a regular file (a FIFO, a
/// device, a folder: never replaced, even with --force).
fn check_output(path: &Path, format: SetFormat) -> Result<(), String> {
    // Standard output takes either: it is named where it is redirected.
    if batch::is_dash(path) {
        return Ok(());
    }
    let shown = path.display();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match format {
        SetFormat::Xlsx if ext != "xlsx" => {
            return Err(format!(
                "{shown}: a generated workbook is a plain .xlsx: name it NAME.xlsx (or NAME.txt, or --format txt, for one puzzle per line)"
            ))
        }
        SetFormat::Txt if SPREADSHEET_EXTENSIONS.contains(&ext.as_str()) => {
            return Err(format!(
                "{shown}: --format txt writes text, one puzzle per line: name it NAME.txt (any name but a spreadsheet's), or - for standard output"
            ))
        }
        _ => {}
    }
    match batch::not_regular(path) {
        Some(kind) => Err(batch::not_regular_message(path, kind)),
        None => Ok(()),
    }
}

/// Writes `bytes` to standard output (`-`), or to a temporary file beside
/// `path` renamed over it once complete: never a half-written set. A
/// missing folder is made; the file gets the usual permissions of a new
/// file (the umask applies), or keeps those of the file it replaces.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if batch::is_dash(path) {
        let mut out = std::io::stdout().lock();
        return on_stdout(out.write_all(bytes).and_then(|()| out.flush()))
            .map_err(|e| format!("stdout: cannot write the set: {e}"));
    }
    let shown = path.display();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    let mut tmp =
        batch::TempCopy::beside(path).map_err(|e| format!("{shown}: cannot write: {e}"))?;
    tmp.file()
        .write_all(bytes)
        .and_then(|()| tmp.file().sync_all())
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    // Checked again: a FIFO or a device made there meanwhile is kept.
    if let Some(kind) = batch::not_regular(path) {
        return Err(batch::not_regular_message(path, kind));
    }
    tmp.persist(path)
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    Ok(())
}
