use super::*;
use crate::grid::{BoxShape, Grid};
use crate::logic::Technique;
use crate::samples::{EASY, PAIRS};

fn opts() -> SolveOptions {
    SolveOptions::default()
}

fn next(position: &Position) -> NextStep {
    let map = AddressMap::puzzle(position.givens.shape());
    match hint(position, &map, &opts()) {
        Hint::Step(s) => *s,
        other => panic!("{other:?}"),
    }
}

/// The first step of the ladder `solve` runs (and `explain` words) from
/// the givens.
fn solves_first(puzzle: &Grid) -> Step {
    let outcome = crate::solve::solve(puzzle, &opts());
    outcome.steps[0].clone()
}

#[test]
fn the_hint_is_the_first_step_of_the_solving_path() {
    for line in [EASY, PAIRS] {
        let p: Grid = line.parse().unwrap();
        assert_eq!(
            next(&Position::of_puzzle(&p)).step,
            solves_first(&p),
            "{line}"
        );
    }
}

#[test]
fn with_entries_the_hint_is_explains_first_step_from_givens_and_entries() {
    // The placements of the first steps of the path typed in as entries:
    // the hint is the first step `explain` gives on the sheet, where every
    // digit is a given.
    let p: Grid = PAIRS.parse().unwrap();
    let path = crate::solve::solve(&p, &opts()).steps;
    let mut position = Position::of_puzzle(&p);
    for step in path.iter().take(12) {
        if let Some((c, d)) = step.placed {
            position.reached.set(c / 9, c % 9, d);
        }
    }
    assert!(position.reached.givens() > p.givens());
    assert_eq!(next(&position).step, solves_first(&position.reached));
}

#[test]
fn wrong_digits_and_marks_are_named_without_their_answers() {
    let p: Grid = EASY.parse().unwrap();
    let sol = crate::solve::solve(&p, &opts()).grid;
    let map = AddressMap::puzzle(p.shape());
    let mut position = Position::of_puzzle(&p);
    let blanks: Vec<usize> = (0..81).filter(|&i| p.cells()[i] == 0).collect();
    let (a, b) = (blanks[0], blanks[1]);
    let wrong_digit = sol.cells()[a] % 9 + 1;
    position.reached.set(a / 9, a % 9, wrong_digit);
    let answer_b = sol.cells()[b];
    position.marks[b] = !(1u64 << (answer_b - 1)) & 0x1ff;
    let Hint::Wrong(w) = hint(&position, &map, &opts()) else {
        panic!("no wrong cells named");
    };
    assert_eq!(w.len(), 2);
    assert_eq!(
        w[0].words(&map, false),
        format!("{}: {wrong_digit} is wrong", map.cell(a))
    );
    assert!(w[1].words(&map, false).contains("leave out the answer"));
    assert!(!w[1].words(&map, false).contains(&format!("({answer_b})")));
    assert!(w[1].words(&map, true).ends_with(&format!("({answer_b})")));
}

#[test]
fn marks_narrow_the_candidates_the_step_starts_from() {
    let p: Grid = PAIRS.parse().unwrap();
    let sol = crate::solve::solve(&p, &opts()).grid;
    let mut position = Position::of_puzzle(&p);
    let whole = next(&position);
    // Every blank marked with its answer and one other candidate.
    for i in 0..81 {
        if p.cells()[i] == 0 {
            let answer = 1u64 << (sol.cells()[i] - 1);
            let other = whole.candidates[i] & !answer;
            position.marks[i] = answer | (other & other.wrapping_neg());
        }
    }
    let h = next(&position);
    for i in 0..81 {
        if position.marks[i] != 0 {
            assert_eq!(h.candidates[i] & !position.marks[i], 0, "cell {i}");
        }
    }
    assert_ne!(h.candidates, whole.candidates);
}

#[test]
fn a_solved_position_and_bad_givens_say_so() {
    let p: Grid = EASY.parse().unwrap();
    let sol = crate::solve::solve(&p, &opts()).grid;
    let map = AddressMap::puzzle(p.shape());
    let done = Position {
        reached: sol.clone(),
        ..Position::of_puzzle(&p)
    };
    assert_eq!(hint(&done, &map, &opts()), Hint::Solved);
    let empty = Position::of_puzzle(&Grid::empty(BoxShape::new(3, 3).unwrap()));
    assert!(matches!(
        hint(&empty, &map, &opts()),
        Hint::Failed(crate::solve::Status::Multiple, _)
    ));
}

#[test]
fn fins_are_told_from_the_body() {
    // A finned X-wing on 5 in rows 1 and 4 (cells r1c2, r1c8, r4c2, r4c8)
    // with a fin in r4c9: it strikes 5 from r6c8 (box 6, column 8).
    let step = Step {
        technique: Technique::FinnedXWing,
        unit: Some(crate::grid::Unit::Row(0)),
        digits: vec![5],
        cells: vec![1, 7, 27 + 1, 27 + 7, 27 + 8],
        placed: None,
        eliminated: vec![(45 + 7, 5)],
        chains: vec![],
    };
    let roles: Vec<(usize, Role)> = paint(&step, BoxShape::new(3, 3).unwrap())
        .into_iter()
        .map(|p| (p.cell, p.role))
        .collect();
    assert_eq!(
        roles,
        [
            (1, Role::Pattern),
            (7, Role::Pattern),
            (28, Role::Pattern),
            (34, Role::Pattern),
            (35, Role::Fin),
            (52, Role::Strike)
        ]
    );
}
