//! The exact solver on hard 25x25 puzzles (5x5 boxes): uniqueness is
//! proven, solutions keep their givens, and the deadline holds on a puzzle
//! the solver cannot finish quickly.
//!
//! The puzzles are entries of Gecode's `examples/sudoku-instances.hh`
//! (MIT): #90 (entry 19 with extra givens, 276 givens) and #18 (a minimal
//! puzzle, 274 givens, exactly one solution).

use std::time::{Duration, Instant};

use xlsudoku::grid::Grid;
use xlsudoku::search::{search, SearchError, SearchOptions};

/// Gecode #90: unique, solved in well under a second in release builds.
const GECODE_90: &str = ".ND.JG6.O7591..F8IP.4.LM.FG.M.B8...P.E...CJ..H...............G.4.H.D.O.NJA2.....J.EN4.L6MA.B.2......HE..2..DC.....F4KMA.B.9O8M....62...47C19......E5...I2.8M.JGL...ADN..K..3.F7..H3.5..89....I.J.....NL.1B..9.FAP.6.N....537.H..O......1..N...O...LC.68.PGKOA.FNBH.....7.C.....M..645.ECP.I..N.F.J1...MK.79.I.L..8.O..9.P...A...2.1J...621.D.M.....B8LG..P..CH.HP.N7E.L1....3..B..O.G45....BIO....5.C.P...FN48E....FL.....2.DH..17..59O....I.MF..2G.N...A6O.HC.PB.72.1..L...IM.96E.45G.......9...7M..A.O...I...L.....C.JA.........1.....E.48.O.BI.......PHL.6..1....5CG6M...N4FI8...K..H.E......L..4.917....BE.G8F.M.I..8F......5.O3..4...9.....K";

/// Gecode #18: minimal and unique, but needs far more than a second.
const GECODE_18: &str = "...G...9..4.....6F..L8...CEIN.HDM.OF.1L..A..9PJ.4......A...L..JBN.2.D.1...HP49...JB23.AD..7E..C5F...A1H....F.N5....I.BL...26.....7..C.6...H4B..1....I5.F.P...I..B..7.5.L...9....L6A...5OF.8P...K.NE..734B2.E..L...1J.5....O7.K.APO.5.CB1.P....3EM....2L.H.2..MJ.A...9.3.7......P.8C.....CF.DPG62N.E...OH.M.J.DL..OM..IE.B8..NH...3..K.CO1F.B.N.AH..P.78.JE...DE..6.....H......4M.KIB9..N.J..6......C..1.5.G..H.....75LG...6..1..CI..4.E..9K..6.....HGN.O2P.4.......OA..IP849...2.K3...7GN....G....N...P.D9....A...C1J...M.NAFE.4..23.7....8L......J.H9CD1LP..GO....4ME48NK..5.M......JL.......9.I.OG....835.A.DH..P.....35......L.J..E....8IG.67B";

fn puzzle(text: &str) -> Grid {
    text.parse().expect("a 625-character 25x25 puzzle")
}

fn opts(limit: usize) -> SearchOptions {
    SearchOptions {
        limit,
        deadline: None,
    }
}

#[test]
fn gecode_90_is_proven_unique_and_its_solution_keeps_the_givens() {
    let p = puzzle(GECODE_90);
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
fn first_solution_of_gecode_90_is_its_unique_solution() {
    let p = puzzle(GECODE_90);
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
    let p = puzzle(GECODE_90);
    let solution = search(&p, &opts(1)).expect("no deadline").solutions[0].clone();
    let outcome = search(&solution, &opts(2)).expect("no deadline");
    assert_eq!(outcome.solutions, vec![solution]);
    assert_eq!(outcome.guesses, 0);
}

#[test]
fn gecode_90_with_a_clashing_extra_given_has_no_solution() {
    let mut p = puzzle(GECODE_90);
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
    let p = puzzle(GECODE_18);
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
