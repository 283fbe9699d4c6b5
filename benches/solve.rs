//! Criterion micro-benchmarks of the exact solver on a few fixed puzzles
//! (`cargo bench --bench solve`).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use xlsudoku::grid::{BoxShape, Grid};
use xlsudoku::search::{search, SearchOptions};

fn bench_search(c: &mut Criterion) {
    let unique = SearchOptions::default();
    let cases = [
        (
            "9x9 17-clue",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        ),
        (
            "9x9 inkala",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        ),
    ];
    for (name, line) in cases {
        let Ok(puzzle) = line.parse::<Grid>() else {
            continue;
        };
        c.bench_function(name, |b| b.iter(|| search(black_box(&puzzle), &unique)));
    }
    let first = SearchOptions {
        limit: 1,
        deadline: None,
    };
    for (w, h) in [(4, 4), (5, 5)] {
        let Ok(shape) = BoxShape::new(w, h) else {
            continue;
        };
        let empty = Grid::empty(shape);
        c.bench_function(&format!("{}x{} empty, first", w * h, w * h), |b| {
            b.iter(|| search(black_box(&empty), &first))
        });
    }
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
