//! `explain` starts from the person's pencil marks, as `hint` does: its
//! first step is the hint's, in text, JSON and the step pictures (whose
//! first picture's candidates are the marks), and differs from the first
//! step of the same digits without the marks; marks that leave out an
//! answer are named, as the hint names them.

use super::json_lines;
use crate::util::{fixture, stdout, xlsudoku};

use xlsudoku::position::Position;

#[test]
fn explains_first_step_from_the_marks_is_the_hints_and_the_pictures_start_there() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("position_marks.xlsx");
    let copy = dir.path().join("hint.xlsx");
    let book = dir.path().join("steps.xlsx");
    let hinted = json_lines(&xlsudoku(&[
        "hint",
        "--json",
        input.to_str().unwrap(),
        "-o",
        copy.to_str().unwrap(),
    ]));
    assert_eq!(hinted[0]["status"], "step");
    let o = xlsudoku(&[
        "explain",
        "--json",
        input.to_str().unwrap(),
        "--xlsx",
        book.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let explained = &json_lines(&o)[0];
    assert_eq!(explained["steps"][0], hinted[0]["step"]);
    // The text says the same first step.
    let text = stdout(&xlsudoku(&["explain", input.to_str().unwrap()]));
    let first = text.lines().nth(1).unwrap();
    assert!(
        first.ends_with(hinted[0]["step"]["text"].as_str().unwrap()),
        "{first}"
    );
    // The marks make the difference: the same digits without them start
    // elsewhere.
    let line = hinted[0]["position"].as_str().unwrap();
    let bare = json_lines(&xlsudoku(&["explain", "--json", "--puzzle", line]));
    assert_ne!(
        bare[0]["steps"][0]["technique"], explained["steps"][0]["technique"],
        "the fixture's marks change the first step"
    );
    // Every picture, the first one's candidates narrowed by the marks.
    let sheets = crate::util::read("position_marks.xlsx");
    let grid = &sheets[0].grids[0];
    let marks = Position::of_grid(grid).marks;
    assert!(marks.iter().filter(|&&m| m != 0).count() >= 2);
    let origin = grid.range.start;
    let index = |cell: &str| {
        let at: xlsudoku::address::CellRef = cell.parse().unwrap();
        ((at.row - origin.row) * 9 + (at.col - origin.col)) as usize
    };
    super::pictures::check_pictures(&book, "Marks", &grid.puzzle(), &marks, explained, index);
}

#[test]
fn marks_that_leave_out_an_answer_are_named_by_explain_as_by_hint() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("layout_pencil_marks.xlsx");
    let copy = dir.path().join("hint.xlsx");
    let hinted = json_lines(&xlsudoku(&[
        "hint",
        "--json",
        input.to_str().unwrap(),
        "-o",
        copy.to_str().unwrap(),
    ]));
    assert_eq!(hinted[0]["status"], "wrong");
    let named = hinted[0]["note"]
        .as_str()
        .unwrap()
        .strip_prefix("hint: ")
        .unwrap();
    let o = xlsudoku(&["explain", "--json", input.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let explained = &json_lines(&o)[0];
    assert_eq!(explained["status"], "unsolvable");
    assert_eq!(
        explained["error"].as_str().unwrap(),
        format!("the marks do not fit the solution: {named}")
    );
    assert!(explained["steps"].as_array().unwrap().is_empty());
}
