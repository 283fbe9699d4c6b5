//! Puzzles per second on text puzzle collections, one table row per file.
//!
//! `cargo bench --bench datasets -- [--first] FILE...` (unique check by
//! default). Without files, every collection under `$XLSUDOKU_BENCH_DIR`
//! (default `/work/shared/bench`) is run.

use std::path::{Path, PathBuf};

use xlsudoku::bench::{bench_file, BenchMode, FileReport};

fn default_files() -> Vec<PathBuf> {
    let root = std::env::var_os("XLSUDOKU_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/bench"));
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = if args.iter().any(|a| a == "--first") {
        BenchMode::First
    } else {
        BenchMode::Unique
    };
    let mut files: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if files.is_empty() {
        files = default_files();
    }
    println!("{}", FileReport::table_header());
    for file in &files {
        match bench_file(Path::new(file), mode) {
            Ok(report) => println!("{}", report.table_row()),
            Err(e) => eprintln!("error: {e}"),
        }
    }
}
