//! `xlsudoku generate`: its flags and run (new unique puzzles, written whole
//! as a workbook or one puzzle per line).

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use xlsudoku::batch;
use xlsudoku::generate::book::{Layout, Paper, PerPage, Title, NEEDS_TITLE};
use xlsudoku::generate::{GenerateOptions, Levels, Needs, Section, Span, Symmetry};
use xlsudoku::grid::BoxShape;
use xlsudoku::logic::Ladder;
use xlsudoku::workbook::Symbols;

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
    /// How many puzzles [default: 1, or the sum of --level's sections].
    #[arg(short = 'n', long, value_name = "N")]
    count: Option<usize>,
    /// HoDoKu level, or a range of them: easy, medium, hard, unfair,
    /// extreme; `easy..medium`, `hard..`. Sections, numbered through the
    /// book: `easy:5,medium:5,hard:10`.
    #[arg(long, value_name = "LEVEL|LEVEL:N,...")]
    level: Option<Levels>,
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
    /// Keep only puzzles whose solving path uses every one of these
    /// techniques (names or letters: x-wing, xy-wing, skyscraper, ...).
    #[arg(long, value_name = "LIST")]
    needs: Option<Needs>,
    /// With --needs: one of the techniques is enough.
    #[arg(long, requires = "needs")]
    needs_any: bool,
    /// Keep only puzzles whose solving path uses nothing the ladder tries
    /// after this technique (`xlsudoku techniques` lists the order).
    #[arg(long, value_name = "TECHNIQUE", conflicts_with = "techniques")]
    max_technique: Option<Ladder>,
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
    /// Puzzles on each printed page of the workbook.
    #[arg(long, value_name = "1|2|4|6", default_value = "1")]
    per_page: PerPage,
    /// The paper the workbook is laid out for [default: any, which fits
    /// both and names none].
    #[arg(long, value_name = "a4|letter|any", default_value = "any")]
    paper: Paper,
    /// The title above each puzzle, with the fields {n}, {level},
    /// {rating}, {givens} and {size} [default: "Puzzle {n}: {level}, SE
    /// {rating}, {givens} givens"].
    #[arg(long, value_name = "TEXT")]
    title: Option<Title>,
    /// How a workbook writes digits past 9: numbers (10, 11, …), 1-9A
    /// (A for 10, as in 1-9A-G) or 0-9A (0 for 1, as in 0-9A-F), the
    /// alphabets solve reads [default: numbers].
    #[arg(long, value_name = "numbers|1-9A|0-9A", value_parser = parse_alphabet)]
    alphabet: Option<Symbols>,
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

/// What a run makes, worked out from the flags before anything is made.
struct Plan {
    shape: BoxShape,
    format: SetFormat,
    /// The options of every section, in order (their counts sum to the
    /// set's).
    sections: Vec<GenerateOptions>,
    total: usize,
    layout: Layout,
    seed: u64,
    command: String,
    target: String,
}

/// `xlsudoku generate`: options checked, the set made in parallel with a
/// progress bar on a terminal, then written in one piece.
pub fn run(a: Args) -> u8 {
    let plan = match plan(&a) {
        Ok(p) => p,
        Err(e) => return usage_error(e),
    };
    if !a.quiet && a.seed.is_none() {
        say(&format!(
            "xlsudoku: seed {0} (--seed {0} makes this set again)",
            plan.seed
        ));
    }
    make(&a, &plan)
}

/// The box shape the flags ask for.
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
                _ => return Err(format!(
                    "--size {n}: no usual box shape; give one with --box WxH (sizes 4 to 64 with a factor pair, e.g. 4, 6, 8, 9, 12, 16, 25)"
                )),
            }
        }
    };
    // The check every command makes of --box (one message for all).
    shape.usable().map_err(|e| format!("--box: {e}"))?;
    Ok(shape)
}

/// The set's format: as asked, else by the output's name.
fn format_of(a: &Args) -> SetFormat {
    a.format.unwrap_or_else(|| {
        let txt = batch::is_dash(&a.output)
            || a.output
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("txt"));
        if txt {
            SetFormat::Txt
        } else {
            SetFormat::Xlsx
        }
    })
}

/// Checks the flags and works out what to make.
fn plan(a: &Args) -> Result<Plan, String> {
    use xlsudoku::generate::book::MAX_PUZZLE_SHEETS;
    use xlsudoku::generate::default_attempts;
    if let Some(j) = a.jobs {
        if j == 0 || j > MAX_JOBS {
            return Err(format!("--jobs {j}: must be 1 to {MAX_JOBS}"));
        }
    }
    let shape = shape_of(a)?;
    let levels = a.level.clone();
    let total = match (a.count, levels.as_ref().and_then(Levels::total)) {
        (Some(0), _) => return Err("--count 0: nothing to generate".into()),
        (Some(n), Some(t)) if n != t => {
            return Err(format!(
                "--count {n}, but the sections of --level make {t}: give one or the other"
            ))
        }
        (_, Some(t)) => t,
        (n, None) => n.unwrap_or(1),
    };
    let format = format_of(a);
    if format == SetFormat::Xlsx && total > MAX_PUZZLE_SHEETS {
        return Err(format!(
            "--count {total}: a workbook holds at most {MAX_PUZZLE_SHEETS} puzzles (a sheet each: LibreOffice opens no more than 10,000 sheets); write them one per line with --format txt"
        ));
    }
    if format == SetFormat::Txt {
        if BoxShape::for_side(shape.side()) != Some(shape) {
            return Err(format!(
                "--format txt: a puzzle line has the usual box shape for its size ({}), not {shape}; write a workbook instead",
                BoxShape::for_side(shape.side()).map(|b| b.to_string()).unwrap_or_default()
            ));
        }
        if let Some(flag) = workbook_only_flag(a) {
            return Err(format!(
                "{flag} lays out a workbook; a text set is one puzzle per line"
            ));
        }
    }
    let symbols = a.alphabet.unwrap_or_default();
    check_alphabet(symbols, shape.side())?;
    check_output(&a.output, format)?;
    if !batch::is_dash(&a.output) && !a.force && a.output.exists() {
        return Err(format!(
            "{}: exists; choose another name or add --force to replace it",
            a.output.display()
        ));
    }
    let seed = a.seed.unwrap_or_else(fresh_seed);
    let mut base = GenerateOptions::new(shape, total, seed);
    if let Some(r) = a.rating {
        base.target.limits.min_rating = r.min;
        base.target.limits.max_rating = r.max;
    }
    if let Some(g) = a.givens {
        base.target.givens = g;
    }
    base.target.ladder = match &a.max_technique {
        Some(t) => Some(max_ladder(t)?),
        None => a.techniques.clone(),
    };
    base.target.needs = a
        .needs
        .clone()
        .map(|n| if a.needs_any { n.any() } else { n });
    base.symmetry = a.symmetry;
    base.max_attempts = a.max_attempts.unwrap_or_else(|| default_attempts(shape));
    if base.max_attempts == 0 {
        return Err("--max-attempts 0: no puzzle could be made".into());
    }
    base.jobs = a.jobs.unwrap_or(0);
    base.deadline = a.timeout.map(|t| Instant::now() + t);
    let sections = section_options(&base, levels.as_ref());
    // A target out of reach is refused before a seed is announced.
    for s in &sections {
        s.target
            .check_reachable(shape, s.symmetry)
            .map_err(|e| e.to_string())?;
    }
    let target = match &levels {
        Some(Levels::Sections(_)) => {
            format!("{} in sections", base.target.describe(shape, base.symmetry))
        }
        _ => sections[0].target.describe(shape, base.symmetry),
    };
    Ok(Plan {
        shape,
        format,
        total,
        layout: Layout {
            per_page: a.per_page,
            paper: a.paper,
            title: match (&a.title, &a.needs) {
                (Some(t), _) => t.clone(),
                (None, Some(_)) => NEEDS_TITLE.parse().unwrap_or_default(),
                (None, None) => Title::default(),
            },
            symbols,
            needs: base
                .target
                .needs
                .as_ref()
                .map(|n| n.to_string())
                .unwrap_or_default(),
        },
        seed,
        command: command_of(a, shape, total, seed, levels.as_ref(), base.max_attempts),
        target,
        sections,
    })
}

/// The first flag given that only a workbook uses.
fn workbook_only_flag(a: &Args) -> Option<&'static str> {
    [
        (a.per_page != PerPage::One, "--per-page"),
        (a.paper != Paper::Any, "--paper"),
        (a.title.is_some(), "--title"),
        (a.alphabet.is_some(), "--alphabet"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
}

/// The options of each section: the base options with the section's
/// levels and count, and a seed of its own (the first section's is the
/// master seed, so a set without sections is made as it always was).
fn section_options(base: &GenerateOptions, levels: Option<&Levels>) -> Vec<GenerateOptions> {
    let Some(levels) = levels else {
        return vec![base.clone()];
    };
    levels
        .sections(base.count)
        .iter()
        .enumerate()
        .map(|(k, Section { level, count })| {
            let mut o = base.clone();
            o.count = *count;
            o.target.limits.min_level = level.min;
            o.target.limits.max_level = level.max;
            if k > 0 {
                o.seed =
                    xlsudoku::generate::Rng::for_puzzle(base.seed, u64::MAX - k as u64).next_u64();
            }
            o
        })
        .collect()
}

/// The command that makes the same set again.
fn command_of(
    a: &Args,
    shape: BoxShape,
    total: usize,
    seed: u64,
    levels: Option<&Levels>,
    max_attempts: u64,
) -> String {
    let mut command = format!("xlsudoku generate --size {}", shape.side());
    if BoxShape::for_side(shape.side()) != Some(shape) {
        command.push_str(&format!(" --box {shape}"));
    }
    command.push_str(&format!(" --count {total}"));
    if let Some(l) = levels {
        command.push_str(&format!(" --level {l}"));
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
    if let Some(t) = &a.max_technique {
        command.push_str(&format!(" --max-technique {t}"));
    }
    if let Some(n) = &a.needs {
        command.push_str(&format!(" --needs {}", n.as_flag()));
        if a.needs_any {
            command.push_str(" --needs-any");
        }
    }
    if a.max_attempts.is_some() {
        command.push_str(&format!(" --max-attempts {max_attempts}"));
    }
    if a.per_page != PerPage::One {
        command.push_str(&format!(" --per-page {}", a.per_page));
    }
    if a.paper != Paper::Any {
        command.push_str(&format!(" --paper {}", a.paper));
    }
    if let Some(t) = &a.title {
        command.push_str(&format!(
            " --title '{}'",
            t.to_string().replace('\'', r"'\''")
        ));
    }
    if let Some(s) = a.alphabet.filter(|&s| s != Symbols::Numbers) {
        command.push_str(&format!(" --alphabet {}", alphabet_name(s)));
    }
    command.push_str(&format!(" --seed {seed}"));
    command
}

/// Makes the set, section by section, and writes it.
fn make(a: &Args, plan: &Plan) -> u8 {
    use xlsudoku::generate::book::{text, text_header, workbook_bytes, SetInfo};
    use xlsudoku::generate::generate_each;
    let start = Instant::now();
    let progress = (!a.quiet && std::io::stderr().is_terminal() && plan.total > 1).then(|| {
        let pb =
            ProgressBar::with_draw_target(Some(plan.total as u64), ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} puzzles [{elapsed_precise}, ETA {eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    });
    // Past 25x25 a puzzle takes minutes: said up front, then each one as
    // it is made.
    let slow = !a.quiet && plan.shape.side() > SLOW_SIDE;
    if slow {
        say(&slow_warning(plan.shape.side()));
    }
    let info = SetInfo {
        seed: plan.seed,
        command: plan.command.clone(),
        target: plan.target.clone(),
    };
    let to_stdout = batch::is_dash(&a.output);
    // Text on standard output is written as the puzzles are made, in
    // order; a file (or a workbook) is written whole at the end.
    let mut stream = (to_stdout && plan.format == SetFormat::Txt)
        .then(|| std::io::BufWriter::new(std::io::stdout().lock()));
    let mut written = Ok(());
    let mut set = Vec::new();
    let (mut made, mut attempts) = (0usize, 0u64);
    let mut run = Ok(());
    for opts in &plan.sections {
        let offset = made;
        let section = generate_each(opts, |mut g| {
            g.index += offset;
            made += 1;
            attempts += g.attempts;
            if let Some(pb) = &progress {
                pb.inc(1);
            } else if slow {
                say(&format!(
                    "xlsudoku: puzzle {made} of {} made in {:.0} s",
                    plan.total,
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
        if let Err(e) = section {
            run = Err(e.in_set(offset, plan.total));
        }
        if run.is_err() || written.is_err() {
            break;
        }
    }
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
        let bytes = match plan.format {
            SetFormat::Txt => text(&set, &info).into_bytes(),
            SetFormat::Xlsx => match workbook_bytes(&set, &info, &plan.layout) {
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
            "xlsudoku: {made} {} puzzles in {seconds:.2} s ({:.0}/s, {:.1} attempts each), seed {}{whither}",
            plan.target,
            made as f64 / seconds.max(1e-9),
            attempts as f64 / made.max(1) as f64,
            plan.seed,
        ));
    }
    0
}

/// `--max-technique`'s ladder: the one technique named, and every one
/// tried before it.
fn max_ladder(named: &Ladder) -> Result<Ladder, String> {
    let picked: Vec<_> = named
        .techniques()
        .filter(|&t| t != xlsudoku::logic::Technique::NakedSingle)
        .collect();
    match picked.as_slice() {
        [one] => Ok(xlsudoku::generate::needs::ladder_up_to(*one)),
        _ => Err(format!(
            "--max-technique {named}: name one technique (`xlsudoku techniques` lists them)"
        )),
    }
}

/// `--alphabet`: the alphabets `solve` reads.
fn parse_alphabet(text: &str) -> Result<Symbols, String> {
    match text.to_ascii_lowercase().as_str() {
        "numbers" => Ok(Symbols::Numbers),
        "1-9a" | "letters" => Ok(Symbols::DigitsThenLetters),
        "0-9a" | "hex" => Ok(Symbols::ZeroThenLetters),
        _ => Err(format!(
            "'{text}': numbers (10, 11, …), 1-9A (A for 10) or 0-9A (0 for 1, F for 16)"
        )),
    }
}

/// `--alphabet`'s name of an alphabet.
fn alphabet_name(s: Symbols) -> &'static str {
    match s {
        Symbols::Numbers => "numbers",
        Symbols::DigitsThenLetters => "1-9A",
        Symbols::ZeroThenLetters => "0-9A",
    }
}

/// Refuses an alphabet a grid of this side cannot be read back in.
fn check_alphabet(s: Symbols, side: usize) -> Result<(), String> {
    let (lo, what) = match s {
        Symbols::Numbers => return Ok(()),
        Symbols::DigitsThenLetters => (10, "1-9A"),
        Symbols::ZeroThenLetters => (11, "0-9A"),
    };
    if side < lo || side > 35 {
        return Err(format!(
            "--alphabet {what}: for grids of side {lo} to 35, not {side}x{side} (its digits are numbers)"
        ));
    }
    Ok(())
}

/// The largest side made without a warning that it is slow.
const SLOW_SIDE: usize = 25;

/// What a set of large puzzles costs, said before starting.
fn slow_warning(side: usize) -> String {
    format!(
        "xlsudoku: {side}x{side} puzzles are slow to make: minutes each and up to a gigabyte of memory (one 64x64 puzzle: 150 s, 1 GB); each is reported as it is made, --timeout bounds the run"
    )
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
