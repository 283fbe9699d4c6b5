//! Makes a folder of puzzle workbooks for throughput measurements:
//!
//! ```sh
//! cargo run --release --example make_folder -- /tmp/inbox 1000
//! ```
//!
//! Workbook `k` holds 1 to 3 sheets, mixed sizes: 9x9 puzzles from the
//! magictour top1465 set, 16x16 from the Gecode set and easy 25x25 from the
//! liamjdavis set in the repository's `benches/data/` (`XLSUDOKU_BENCH_DIR`
//! names another folder). The same arguments always make the same files.

use std::path::{Path, PathBuf};

use xlsudoku::export::puzzle_workbook;
use xlsudoku::grid::Grid;

fn puzzles(path: &Path) -> Vec<Grid> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (benches/data of the repository)", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|t| t.parse().ok())
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: make_folder DIR [COUNT]"));
    let count: usize = args
        .next()
        .map_or(1000, |n| n.parse().expect("COUNT is a number"));
    let bench = std::env::var_os("XLSUDOKU_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data"));
    let nine = puzzles(&bench.join("9x9/puzzles3_magictour_top1465"));
    let sixteen = puzzles(&bench.join("16x16/gecode_16x16.txt"));
    let twenty_five = puzzles(&bench.join("25x25/liamjdavis_25x25_valid.txt"));
    std::fs::create_dir_all(&dir).expect("create the folder");
    for k in 0..count {
        let sheets: Vec<(String, Grid)> = (0..1 + k % 3)
            .map(|s| {
                let i = k * 3 + s;
                let g = match i % 10 {
                    0..=6 => nine[i % nine.len()].clone(),
                    7 | 8 => sixteen[i % sixteen.len()].clone(),
                    _ => twenty_five[i % twenty_five.len()].clone(),
                };
                (format!("Puzzle {}", s + 1), g)
            })
            .collect();
        let sub = dir.join(format!("batch{:02}", k / 100));
        std::fs::create_dir_all(&sub).expect("create a subfolder");
        let path = sub.join(format!("book{k:05}.xlsx"));
        puzzle_workbook(&sheets)
            .and_then(|mut b| b.save(&path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    println!("{count} workbooks in {}", dir.display());
}
