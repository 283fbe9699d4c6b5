// Peer timing: sudoku crate 0.8, solutions_count_up_to(2), parse first, time only solving
// in thread CPU time (CLOCK_THREAD_CPUTIME_ID), like the xlsudoku bench.
use sudoku::Sudoku;

fn thread_cpu_secs() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: valid writable timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn main() {
    println!("{:<36} {:>8} {:>8} {:>8} {:>8} {:>9} {:>12}", "file", "puzzles", "unique", "multiple", "none", "seconds", "per_second");
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let puzzles: Vec<Sudoku> = text
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|t| !t.starts_with('#'))
            .map(|t| Sudoku::from_str_line(t).unwrap())
            .collect();
        let mut counts = Vec::with_capacity(puzzles.len());
        let start = thread_cpu_secs();
        for s in &puzzles {
            counts.push(s.solutions_count_up_to(2));
        }
        let secs = thread_cpu_secs() - start;
        let u = counts.iter().filter(|&&c| c == 1).count();
        let m = counts.iter().filter(|&&c| c >= 2).count();
        let n = counts.iter().filter(|&&c| c == 0).count();
        let name = std::path::Path::new(&path).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or(path.clone());
        println!("{:<36} {:>8} {:>8} {:>8} {:>8} {:>9.3} {:>12.0}", name, puzzles.len(), u, m, n, secs, puzzles.len() as f64 / secs);
    }
}
