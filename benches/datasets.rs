//! Puzzles per second on text puzzle collections, one table row per file.
//!
//! `cargo bench --bench datasets -- [--first] [--timeout SECS] FILE...`
//! (unique check by default; `--timeout` is per puzzle). Without files,
//! every collection under `$XLSUDOKU_BENCH_DIR` (default: the repository's
//! `benches/data`) is run. Diagnostics: `--guesses` prints the mean
//! guesses per puzzle, `--each SECS` solves each puzzle alone with that
//! deadline and prints its time and guesses.

use std::path::{Path, PathBuf};

use xlsudoku::bench::{bench_file_with, BenchMode, FileReport};

fn default_files() -> Vec<PathBuf> {
    let root = std::env::var_os("XLSUDOKU_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data"));
    let mut files = Vec::new();
    for sub in ["9x9", "16x16", "25x25"] {
        let Ok(entries) = std::fs::read_dir(root.join(sub)) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().is_some_and(|n| n != "README.txt"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

/// Mean guesses per puzzle for each file (a diagnostic, untimed).
fn print_guesses(files: &[PathBuf], mode: BenchMode) {
    let opts = xlsudoku::search::SearchOptions {
        limit: mode.limit(),
        deadline: None,
    };
    for file in files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let Ok(puzzles) = xlsudoku::bench::parse_puzzles(&text) else {
            eprintln!("error: {} does not parse", file.display());
            continue;
        };
        let total: u64 = puzzles
            .iter()
            .filter_map(|(_, p)| xlsudoku::search::search(p, &opts).ok())
            .map(|o| o.guesses)
            .sum();
        println!(
            "{:<60} {:>10.2} guesses/puzzle",
            file.display(),
            total as f64 / puzzles.len().max(1) as f64
        );
    }
}

/// Each puzzle on its own with a deadline of `secs`: time, guesses, result.
fn print_each(files: &[PathBuf], mode: BenchMode, secs: f64) {
    for file in files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let Ok(puzzles) = xlsudoku::bench::parse_puzzles(&text) else {
            eprintln!("error: {} does not parse", file.display());
            continue;
        };
        let mut times = Vec::new();
        for (line, puzzle) in &puzzles {
            let start = std::time::Instant::now();
            let opts = xlsudoku::search::SearchOptions {
                limit: mode.limit(),
                deadline: Some(start + std::time::Duration::from_secs_f64(secs)),
            };
            let result = xlsudoku::search::search(puzzle, &opts);
            let took = start.elapsed().as_secs_f64();
            times.push(took);
            match result {
                Ok(o) => println!(
                    "{}:{line} {:.3} s {} guesses {} solutions{}{}",
                    file.display(),
                    took,
                    o.guesses,
                    o.solutions.len(),
                    if o.handed_over { " (SAT)" } else { "" },
                    if o.solutions.iter().all(|s| s.solves(puzzle)) {
                        ""
                    } else {
                        " INVALID"
                    }
                ),
                Err(e) => println!("{}:{line} {:.3} s {e}", file.display(), took),
            }
        }
        times.sort_by(f64::total_cmp);
        let n = times.len();
        if let Some(&max) = times.last() {
            // An even count takes the mean of the two middle times.
            let median = (times[(n - 1) / 2] + times[n / 2]) / 2.0;
            let within = |secs: f64| times.iter().filter(|&&t| t < secs).count();
            println!(
                "{}: median {median:.3} s, max {max:.3} s, {} of {n} under 5 s",
                file.display(),
                within(5.0)
            );
        }
    }
}

/// Command-line options of this runner.
struct Args {
    mode: BenchMode,
    guesses: bool,
    each: Option<f64>,
    timeout: Option<f64>,
    files: Vec<PathBuf>,
}

fn parse_args() -> Args {
    let mut args = Args {
        mode: BenchMode::Unique,
        guesses: false,
        each: None,
        timeout: None,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--first" => args.mode = BenchMode::First,
            "--unique" => args.mode = BenchMode::Unique,
            "--guesses" => args.guesses = true,
            "--each" => args.each = it.next().and_then(|s| s.parse().ok()),
            "--timeout" => args.timeout = it.next().and_then(|s| s.parse().ok()),
            // Flags cargo passes to bench targets (`--bench`).
            other if other.starts_with("--") => {}
            file => args.files.push(PathBuf::from(file)),
        }
    }
    if args.files.is_empty() {
        args.files = default_files();
    }
    args
}

fn main() {
    let args = parse_args();
    if let Some(secs) = args.each {
        print_each(&args.files, args.mode, secs);
        return;
    }
    if args.guesses {
        print_guesses(&args.files, args.mode);
        return;
    }
    let limit = args.timeout.map(std::time::Duration::from_secs_f64);
    println!("{}", FileReport::table_header());
    for file in &args.files {
        match bench_file_with(Path::new(file), args.mode, limit) {
            Ok(report) => println!("{}", report.table_row()),
            Err(e) => eprintln!("error: {e}"),
        }
    }
}
