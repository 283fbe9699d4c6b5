//! The exact solver on hard 25x25 puzzles (5x5 boxes): uniqueness is
//! proven, solutions keep their givens, and the deadline holds on a puzzle
//! the solver cannot finish quickly.
//!
//! The puzzles are entries of Gecode's `examples/sudoku-instances.hh`
//! (MIT) in the repository's benchmark sets (`benches/data/25x25`): #90
//! (entry 19 with extra givens, 276 givens; solved well under a second in
//! release builds), #20 (a minimal
//! puzzle the depth-first search alone does not settle in minutes; the SAT
//! hand-over proves it unique in under a second) and #18 (a minimal puzzle,
//! 274 givens, exactly one solution, several seconds).

use std::time::{Duration, Instant};

use xlsudoku::grid::Grid;
use xlsudoku::search::{search, search_into, SearchError, SearchOptions};

/// A puzzle of the repository's 25x25 benchmark set
/// (`benches/data/25x25/gecode_25x25.txt`), by its Gecode tag.
fn gecode(tag: &str) -> Grid {
    let text = crate::util::bench_text("25x25/gecode_25x25.txt");
    let line = text
        .lines()
        .find(|l| l.ends_with(&format!("#gecode:{tag}")))
        .unwrap_or_else(|| panic!("no #gecode:{tag} in 25x25/gecode_25x25.txt"));
    line.split_whitespace()
        .next()
        .and_then(|p| p.parse().ok())
        .expect("a 625-character 25x25 puzzle")
}

fn opts(limit: usize) -> SearchOptions {
    SearchOptions {
        limit,
        deadline: None,
    }
}

#[test]
fn gecode_90_is_proven_unique_and_its_solution_keeps_the_givens() {
    let p = gecode("90");
    assert_eq!(
        (p.side(), p.shape().width(), p.shape().height()),
        (25, 5, 5)
    );
    let outcome = search(&p, &opts(2)).expect("no deadline");
    assert_eq!(outcome.solutions.len(), 1, "exactly one solution");
    assert!(outcome.solutions[0].solves(&p));
    assert!(outcome.guesses > 0, "not solved by propagation alone");
}

#[test]
fn minimal_gecode_20_is_proven_unique_through_clause_learning() {
    let p = gecode("20");
    let outcome = search(&p, &opts(2)).expect("no deadline");
    assert_eq!(outcome.solutions.len(), 1, "exactly one solution");
    assert!(outcome.solutions[0].solves(&p));
    assert!(outcome.handed_over, "settled by the SAT solver");
    // The same through the buffer interface.
    let mut out = Vec::new();
    let found = search_into(&p, &opts(2), &mut out).expect("no deadline");
    assert_eq!((found.count, found.handed_over), (1, true));
    assert_eq!(out, outcome.solutions[0].cells());
}

#[test]
fn first_solution_of_gecode_90_is_its_unique_solution() {
    let p = gecode("90");
    let first = search(&p, &opts(1)).expect("no deadline");
    let both = search(&p, &opts(2)).expect("no deadline");
    assert_eq!(first.solutions.len(), 1);
    assert_eq!(first.solutions, both.solutions);
    assert!(
        first.guesses <= both.guesses,
        "proving uniqueness costs more"
    );
}

#[test]
fn solved_gecode_90_given_in_full_needs_no_guess() {
    let p = gecode("90");
    let solution = search(&p, &opts(1)).expect("no deadline").solutions[0].clone();
    let outcome = search(&solution, &opts(2)).expect("no deadline");
    assert_eq!(outcome.solutions, vec![solution]);
    assert_eq!(outcome.guesses, 0);
}

#[test]
fn gecode_90_with_a_clashing_extra_given_has_no_solution() {
    let mut p = gecode("90");
    let side = p.side();
    // The first open cell of a row takes a digit already given in that row.
    let (row, col) = (0..side * side)
        .map(|i| (i / side, i % side))
        .find(|&(r, c)| p.get(r, c) == 0)
        .expect("an open cell");
    let given = (0..side)
        .map(|c| p.get(row, c))
        .find(|&v| v != 0)
        .expect("a given in the row");
    p.set(row, col, given);
    let outcome = search(&p, &opts(2)).expect("no deadline");
    assert!(outcome.solutions.is_empty());
}

#[test]
fn hard_minimal_puzzle_stops_at_its_deadline() {
    let p = gecode("18");
    let start = Instant::now();
    let opts = SearchOptions {
        limit: 2,
        deadline: Some(start + Duration::from_millis(100)),
    };
    match search(&p, &opts) {
        Err(SearchError::Timeout { guesses }) => assert!(guesses > 0),
        Ok(outcome) => {
            // Only a much faster solver gets here; it must still be right.
            assert_eq!(outcome.solutions.len(), 1);
            assert!(outcome.solutions[0].solves(&p));
        }
    }
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "took {:?}",
        start.elapsed()
    );
}
