//! `xlsudoku generate`: its flags and run (new unique puzzles, written whole
//! as a workbook or one puzzle per line).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use xlsudoku::batch;
use xlsudoku::generate::{Span, Symmetry};
use xlsudoku::grid::BoxShape;
use xlsudoku::logic::{Ladder, Level};

use crate::common::{parse_timeout, say, usage_error, MAX_JOBS};

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
    // The check every command makes of --box (one message for all).
    if let Err(e) = shape.usable() {
        return usage_error(format!("--box: {e}"));
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
    // A target out of reach is refused before a seed is announced.
    if let Err(e) = opts.target.check_reachable(shape, opts.symmetry) {
        return usage_error(e);
    }
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
