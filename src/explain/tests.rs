//! The sentences of `explain`, pinned on hand-made steps.

use super::*;
use crate::address::CellRef;
use crate::grid::{BoxShape, Unit};
use crate::logic::words::Names;
use crate::logic::{ChainNode, Technique};
use crate::samples::{BEYOND, EASY, HARD};
use crate::workbook::Symbols;

fn nine() -> BoxShape {
    BoxShape::new(3, 3).unwrap()
}

fn step(t: Technique, unit: Option<Unit>, digits: &[u8], cells: &[usize]) -> Step {
    Step {
        technique: t,
        unit,
        digits: digits.to_vec(),
        cells: cells.to_vec(),
        placed: None,
        eliminated: Vec::new(),
        chains: Vec::new(),
    }
}

#[test]
fn sheet_names_follow_the_grid_range() {
    let m = AddressMap::sheet(CellRef::new(2, 2), nine(), Symbols::Numbers);
    assert_eq!(m.cell(0), "C3");
    assert_eq!(m.cell(80), "K11");
    assert_eq!(m.unit(Unit::Row(0)), "row 3");
    assert_eq!(m.unit(Unit::Col(8)), "column K");
    assert_eq!(m.unit(Unit::Box(3)), "box 4");
    let p = AddressMap::puzzle(nine());
    assert_eq!(p.cell(80), "r9c9");
    assert_eq!(p.unit(Unit::Col(6)), "column 7");
}

#[test]
fn letter_alphabets_name_digits_as_the_grid_writes_them() {
    let s16 = BoxShape::new(4, 4).unwrap();
    let z = AddressMap::sheet(CellRef::new(0, 0), s16, Symbols::ZeroThenLetters);
    assert_eq!((z.digit(1), z.digit(16)), ("0".into(), "F".into()));
    assert_eq!(z.alphabet(), "0-9, A-F");
    let p = AddressMap::puzzle(s16);
    assert_eq!((p.digit(9), p.digit(16)), ("9".into(), "G".into()));
    assert_eq!(p.alphabet(), "1-9, A-G");
}

fn node(cells: &[usize], digit: u8, on: bool) -> ChainNode {
    ChainNode {
        cells: cells.to_vec(),
        digit,
        on,
    }
}

#[test]
fn chains_are_written_with_the_sheets_cells() {
    let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
    // r1c1 {1,2} – r1c5 {2,3} – r5c5 {3,1}: r1c1 or r5c5 is 1.
    let mut s = step(Technique::XyChain, None, &[1, 2, 3], &[0, 4, 40]);
    s.chains = vec![vec![
        node(&[0], 1, false),
        node(&[0], 2, true),
        node(&[4], 2, false),
        node(&[4], 3, true),
        node(&[40], 3, false),
        node(&[40], 1, true),
    ]];
    s.eliminated = vec![(36, 1)];
    assert_eq!(
        describe(&s, &m, &[]),
        "XY-chain: (1)A1 = (2)A1 – (2)E1 = (3)E1 – (3)E5 = (1)E5: \
         A1 is 1 or E5 is 1: removes 1 from A5"
    );
    // A grouped node names its cells joined by a slash.
    let mut g = step(Technique::GroupedNiceLoop, None, &[4], &[0, 1, 2]);
    g.chains = vec![vec![node(&[0], 4, false), node(&[1, 2], 4, true)]];
    g.eliminated = vec![(9, 4)];
    let text = describe(&g, &m, &[]);
    assert!(
        text.starts_with("grouped AIC: (4)A1 = (4)B1/C1: "),
        "{text}"
    );
    assert!(text.contains("4 is in B1 or C1"), "{text}");
}

#[test]
fn almost_locked_sets_show_their_cells_and_digits() {
    let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
    let mut cands = vec![0u64; 81];
    cands[0] = 0b011;
    cands[3] = 0b101;
    cands[4] = 0b110;
    let mut s = step(Technique::AlsXz, None, &[1, 2], &[0, 3, 4]);
    s.chains = vec![vec![node(&[0], 1, false), node(&[3, 4], 1, false)]];
    s.eliminated = vec![(8, 2)];
    assert_eq!(
        describe(&s, &m, &cands),
        "ALS-XZ: {A1} (1,2) and {D1, E1} (1,2,3) share the restricted common 1, \
         so one of them is locked: removes 2 from I1"
    );
}

#[test]
fn forcing_steps_say_their_premises_and_branches() {
    let m = AddressMap::puzzle(nine());
    // A contradiction net: r1c1 = 5 leads to trouble.
    let mut s = step(Technique::ForcingNet, None, &[5], &[0]);
    s.chains = vec![vec![node(&[0], 5, true), node(&[10], 7, true)]];
    s.eliminated = vec![(0, 5)];
    assert_eq!(
        describe(&s, &m, &[]),
        "forcing net: if r1c1 were 5, a contradiction follows (r2c2 is 7): removes 5 from r1c1"
    );
    // A cell forcing chain: both candidates of r1c1 strike 3 from r9c9.
    let mut c = step(Technique::ForcingChain, None, &[1, 2], &[0, 0]);
    c.chains = vec![
        vec![node(&[0], 1, true), node(&[80], 1, false)],
        vec![
            node(&[0], 2, true),
            node(&[8], 2, false),
            node(&[80], 1, false),
        ],
    ];
    c.eliminated = vec![(80, 1)];
    let text = describe(&c, &m, &[]);
    assert!(
        text.starts_with("forcing chain: each candidate of r1c1 (1,2) leads to the same: "),
        "{text}"
    );
    assert!(text.ends_with(": removes 1 from r9c9"), "{text}");
    assert!(text.contains("(2)r1c1 – (2)r1c9 – (1)r9c9"), "{text}");
}

#[test]
fn x_wing_names_its_rows_and_columns() {
    let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
    let mut s = step(
        Technique::XWing,
        Some(Unit::Row(2)),
        &[4],
        &[2 * 9 + 3, 2 * 9 + 7, 6 * 9 + 3, 6 * 9 + 7],
    );
    s.eliminated = vec![(9 + 7, 4), (8 * 9 + 3, 4)];
    assert_eq!(
        describe(&s, &m, &[]),
        "X-wing on 4 in rows 3 and 7 (columns D, H): removes 4 from H2, D9"
    );
}

#[test]
fn finned_fish_names_its_covers_and_fins() {
    let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
    // Rows 1 and 5, columns B and H, fin I5 (box 6): H4 and H6 lose 1.
    let mut s = step(
        Technique::FinnedXWing,
        Some(Unit::Row(0)),
        &[1],
        &[1, 7, 37, 43, 44],
    );
    s.eliminated = vec![(34, 1), (52, 1)];
    assert_eq!(
        describe(&s, &m, &[]),
        "finned X-wing on 1 in rows 1 and 5 (columns B, H), fin I5: removes 1 from H4, H6"
    );
}

#[test]
fn uniqueness_steps_in_words() {
    let m = AddressMap::puzzle(nine());
    let mut s = step(Technique::UniqueRectangle1, None, &[1, 2], &[0, 3, 9, 12]);
    s.eliminated = vec![(12, 1), (12, 2)];
    assert_eq!(
        describe(&s, &m, &[]),
        "unique rectangle type 1 on 1,2 (r1c1, r1c4, r2c1, r2c4): r1c1, r1c4, r2c1 hold \
         only 1,2, so r2c4 must not: removes 1 from r2c4, 2 from r2c4"
    );
    let mut s = step(Technique::UniqueRectangle4, None, &[1, 2], &[0, 9, 3, 12]);
    s.eliminated = vec![(3, 2), (12, 2)];
    assert_eq!(
        describe(&s, &m, &[]),
        "unique rectangle type 4 on 1,2 (r1c1, r2c1, r1c4, r2c4): 1 has no place in \
         column 4 but r1c4 and r2c4, so neither may be 2: removes 2 from r1c4, r2c4"
    );
    let mut s = step(Technique::HiddenRectangle, None, &[1, 2], &[0, 9, 3, 12]);
    s.eliminated = vec![(12, 2)];
    let text = describe(&s, &m, &[]);
    assert!(
        text.starts_with("hidden rectangle on 1,2 (r1c1, r2c1, r1c4, r2c4): r1c1 holds only 1,2, and 1 has no place in row 2 and column 4"),
        "{text}"
    );
    let mut s = step(Technique::BugPlusOne, None, &[5], &[40]);
    s.placed = Some((40, 5));
    assert_eq!(
        describe(&s, &m, &[]),
        "BUG+1: every blank but r5c5 has two candidates, and 5 has three places in its \
         row, column and box → r5c5 = 5"
    );
}

#[test]
fn patterns_in_words() {
    let m = AddressMap::puzzle(nine());
    // Empty rectangle: box 5's 1s on row 5 and column 5; strong link
    // r5c8-r8c8 (column 8); r8c5 loses 1.
    let mut s = step(
        Technique::EmptyRectangle,
        Some(Unit::Box(4)),
        &[1],
        &[43, 70, 31, 39, 41, 49],
    );
    s.eliminated = vec![(67, 1)];
    assert_eq!(
        describe(&s, &m, &[]),
        "empty rectangle on 1: the places of 1 in box 5 lie on row 5 and column 5; \
         strong link r5c8–r8c8 (column 8): removes 1 from r8c5"
    );
    // Sue de Coq: r1c1, r1c2 with r1c7 (row) and r2c1 (box).
    let mut s = step(
        Technique::SueDeCoq,
        Some(Unit::Row(0)),
        &[1, 2, 3, 4],
        &[0, 1, 6, 9],
    );
    s.eliminated = vec![(3, 1), (10, 3)];
    let text = describe(&s, &m, &[]);
    assert!(
        text.starts_with("Sue de Coq where row 1 crosses box 1: r1c1, r1c2 with r1c7 in the line and r2c1 in the box — 4 cells holding the 4 digits 1,2,3,4: removes"),
        "{text}"
    );
    // Remote pair {1,2}: r1c1 r1c5 r5c5 r5c9.
    let mut s = step(Technique::RemotePair, None, &[1, 2], &[0, 4, 40, 44]);
    s.eliminated = vec![(8, 1), (8, 2)];
    let text = describe(&s, &m, &[]);
    assert!(
        text.contains("so r1c1, r5c5 hold one digit and r1c5, r5c9 the other"),
        "{text}"
    );
}

#[test]
fn naked_pair_groups_removals_by_digit() {
    let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
    let g = |r: usize| r * 9 + 6;
    let mut s = step(
        Technique::NakedPair,
        Some(Unit::Col(6)),
        &[2, 6],
        &[g(2), g(7)],
    );
    s.eliminated = vec![(g(4), 2), (g(4), 6), (g(8), 6)];
    assert_eq!(
        describe(&s, &m, &[]),
        "naked pair 2,6 in G3, G8 (column G): removes 2 from G5, 6 from G5, G9"
    );
}

#[test]
fn pointing_names_the_box_and_the_line() {
    let m = AddressMap::puzzle(nine());
    let mut s = step(
        Technique::LockedCandidates,
        Some(Unit::Box(0)),
        &[5],
        &[0, 1],
    );
    s.eliminated = vec![(5, 5)];
    assert_eq!(
        describe(&s, &m, &[]),
        "locked candidates (pointing): 5 of box 1 lies only in row 1 (r1c1, r1c2): removes 5 from r1c6"
    );
}

#[test]
fn singles_and_guesses_in_words() {
    let m = AddressMap::puzzle(nine());
    let mut s = step(Technique::NakedSingle, None, &[1], &[4 * 9 + 5]);
    s.placed = Some((4 * 9 + 5, 1));
    assert_eq!(describe(&s, &m, &[]), "naked single: r5c6 = 1");
    s.technique = Technique::Guess;
    // Never a bare `r5c6 = 1` as if deduced: where the techniques stop,
    // that trial and error follows, and whose digit the steps go on from.
    assert_eq!(
        describe(&s, &m, &[]),
        "guess: the techniques stop here; the rest needs trial and error, and the steps go on from r5c6 = 1, the digit of the proven solution"
    );
    // With the candidates known: how much is left open, and the cell's.
    let mut cands = vec![0u64; 81];
    cands[4 * 9 + 5] = 0b101; // 1 or 3
    cands[0] = 0b1110; // 2, 3 or 4
    cands[1] = 0b1000; // a single: not open
    assert_eq!(
        describe(&s, &m, &cands),
        "guess: the techniques stop here, with 2 cells open (5 candidates); the rest needs trial and error: r5c6 can be 1 or 3, and the steps go on from r5c6 = 1, the digit of the proven solution"
    );
}

#[test]
fn every_placement_of_a_hard_puzzle_agrees_with_its_solution() {
    for line in [EASY, HARD, BEYOND] {
        let p: Grid = line.parse().unwrap();
        let e = explain_puzzle(&p, &SolveOptions::default());
        assert!(e.passes(), "{}", e.heading());
        let sol = solve(&p, &SolveOptions::default()).grid;
        let placed = e.steps.iter().filter_map(|s| s.placed.as_ref()).count();
        assert_eq!(placed, 81 - p.givens());
        for s in &e.steps {
            if let Some(cd) = &s.placed {
                let (r, c) = parse_rc(&cd.cell);
                assert_eq!(sol.get(r, c), cd.digit, "{}", s.text);
            }
            assert!(!s.text.is_empty());
        }
    }
}

fn parse_rc(s: &str) -> (usize, usize) {
    let (r, c) = s[1..].split_once('c').unwrap();
    (
        r.parse::<usize>().unwrap() - 1,
        c.parse::<usize>().unwrap() - 1,
    )
}

#[test]
fn peers_are_the_row_column_and_box_on_a_6x6() {
    let m = AddressMap::puzzle(BoxShape::new(3, 2).unwrap());
    let i = 6 + 4; // r2c5, box 2 (columns 4-6 of rows 1-2)
    let mut peers: Vec<usize> = m.peers(i).filter(|&j| j != i).collect();
    peers.sort_unstable();
    peers.dedup();
    let want: Vec<usize> = (0..36)
        .filter(|&j| {
            j != i
                && !crate::logic::words::Layout(m.shape())
                    .shared(&[i, j])
                    .is_empty()
        })
        .collect();
    assert_eq!(peers, want);
    assert_eq!(peers.len(), 5 + 5 + 2);
}

#[test]
fn sheet_names_are_quoted_when_a_formula_would() {
    assert_eq!(sheet_ref("Hard"), "Hard");
    assert_eq!(sheet_ref("My puzzles"), "'My puzzles'");
    assert_eq!(sheet_ref("it's"), "'it''s'");
}

#[test]
fn from_pencil_marks_the_steps_start_where_the_hint_does() {
    use crate::hint::{hint, Hint, Position};
    let puzzle: Grid = HARD.parse().unwrap();
    let opts = SolveOptions::default();
    let mut outcome = solve(&puzzle, &opts);
    let solution = outcome.grid.clone();
    let map = AddressMap::puzzle(puzzle.shape());
    // Marks in the first blank: its answer and a digit its row holds, so
    // it has one candidate left.
    let cell = (0..81).find(|&i| puzzle.cells()[i] == 0).unwrap();
    let row_digit = (0..9)
        .map(|c| puzzle.cells()[cell / 9 * 9 + c])
        .find(|&d| d != 0)
        .unwrap();
    let mut marks = vec![0u64; 81];
    marks[cell] = 1 << (solution.cells()[cell] - 1) | 1 << (row_digit - 1);
    let first_before = outcome.steps[0].clone();
    assert_eq!(
        marked::from_marks(&puzzle, &mut outcome, &marks, &map, &opts),
        None
    );
    let position = Position {
        marks: marks.clone(),
        ..Position::of_puzzle(&puzzle)
    };
    let Hint::Step(step) = hint(&position, &map, &opts) else {
        panic!("no step");
    };
    assert_eq!(outcome.steps[0], step.step);
    assert_ne!(
        outcome.steps[0], first_before,
        "the marks change the first step"
    );
    assert_eq!(
        outcome.steps[0].placed,
        Some((cell, solution.cells()[cell]))
    );
    // Marks without the answer: named, nothing explained.
    let mut outcome = solve(&puzzle, &opts);
    marks[cell] = 1 << (row_digit - 1) | 1 << (solution.cells()[cell] % 9);
    let why = marked::from_marks(&puzzle, &mut outcome, &marks, &map, &opts).unwrap();
    assert!(why.contains("leave out the answer"), "{why}");
    assert_eq!(outcome.status, Status::Unsolvable);
    assert!(outcome.steps.is_empty());
}
