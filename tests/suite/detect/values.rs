//! What grid cells hold, through `read_workbook`: the status fixtures' givens
//! and bad values, an earlier run's blue-italic fills and note, and the
//! inputs that are not workbooks.

use crate::util::{fixture, read, EASY};

use xlsudoku::grid::Grid;
use xlsudoku::workbook::{read_workbook, Cell, FoundGrid, ReadError, ReadOptions};

fn grid(name: &str, sheet: &str) -> FoundGrid {
    let sheets = read(name);
    let s = sheets
        .iter()
        .find(|s| s.name == sheet)
        .unwrap_or_else(|| panic!("{name}: no sheet {sheet}"));
    assert_eq!(s.grids.len(), 1, "{name}/{sheet}");
    s.grids[0].clone()
}

fn bad(g: &FoundGrid) -> Vec<(String, String)> {
    g.bad_cells()
        .into_iter()
        .map(|(c, t)| (c.to_string(), t))
        .collect()
}

#[test]
fn status_fixtures_hold_their_puzzles() {
    let cases = [
        ("status_logic_easy.xlsx", "Easy", EASY),
        (
            "status_needs_guess.xlsx",
            "Hard",
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ),
        (
            "status_unsolvable.xlsx",
            "Unsolvable",
            "531.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ),
        (
            "status_multiple.xlsx",
            "Multiple",
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6.....8....419.......8..79",
        ),
    ];
    for (file, sheet, line) in cases {
        let g = grid(file, sheet);
        assert_eq!(g.range.to_string(), "C3:K11", "{file}");
        assert_eq!(g.puzzle().to_line(), line, "{file}");
        assert!(g.bad_cells().is_empty(), "{file}");
        assert!(g.puzzle().conflicts().is_empty(), "{file}: no clash");
    }
}

#[test]
fn clash_fixture_has_two_fives_in_row_one() {
    let g = grid("status_invalid_clash.xlsx", "Clash");
    let conflicts = g.puzzle().conflicts();
    assert_eq!(conflicts.len(), 1);
    assert_eq!(conflicts[0].value, 5);
    assert_eq!(conflicts[0].unit.to_string(), "row 1");
    let cells: Vec<String> = conflicts[0]
        .cells
        .iter()
        .map(|&i| g.cell_ref(i).to_string())
        .collect();
    assert_eq!(cells, ["C3", "I3"]);
}

#[test]
fn bad_values_are_reported_with_their_cells() {
    let letters = grid("status_invalid_bad_values.xlsx", "Letters");
    assert_eq!(bad(&letters), [("E4".into(), "x".into())]);
    // `12` in a 9x9 is a cell's pencil marks, not a bad value (issue 27,
    // point 4).
    assert_eq!(letters.cells[2 * 9 + 3], Cell::Marked("12".into()));
    let numbers = grid("status_invalid_bad_values.xlsx", "Numbers");
    assert_eq!(bad(&numbers), [("G7".into(), "3.5".into())]);
    // `0` is a blank written as a digit (a common convention), not a bad
    // value: D6 is blank for the puzzle and filled like any blank.
    assert_eq!(numbers.cells[3 * 9 + 1], Cell::Marked("0".into()));
    assert_eq!(numbers.puzzle().get(3, 1), 0);
    // The bad cells are blank in the puzzle; the givens are all there.
    assert_eq!(letters.puzzle().to_line(), EASY);
}

#[test]
fn earlier_run_fills_are_recognised_not_taken_as_givens() {
    let g = grid("rerun_earlier_output.xlsx", "Solved");
    assert_eq!(g.puzzle().to_line(), EASY, "fills are blank for the puzzle");
    let filled = g
        .cells
        .iter()
        .filter(|c| matches!(c, Cell::Filled(_)))
        .count();
    assert_eq!(filled, 81 - 30);
    let solution: Grid =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
            .parse()
            .unwrap();
    for (i, c) in g.cells.iter().enumerate() {
        if let Cell::Filled(v) = c {
            assert_eq!(*v, solution.cells()[i], "{}", g.cell_ref(i));
        }
    }
    assert_eq!(g.note_at.to_string(), "C12");
    assert!(g.earlier_note);
}

#[test]
fn earlier_logic_only_run_leaves_letters_and_a_note_below_user_lines() {
    let g = grid("rerun_earlier_output.xlsx", "LogicOnly");
    assert_eq!(g.cells[2], Cell::Filled(4));
    assert_eq!(g.cells[3], Cell::FilledText("fg".into()));
    assert_eq!(g.puzzle().to_line(), EASY);
    assert_eq!(g.note_at.to_string(), "C13");
    assert!(g.earlier_note);
}

#[test]
fn note_goes_below_the_users_own_lines_never_over_them() {
    let g = grid("rerun_earlier_output.xlsx", "Crowded");
    // C12, C13 hold the user's text, C14 blue italics without a status word.
    assert_eq!(g.note_at.to_string(), "C15");
    assert!(!g.earlier_note);
}

#[test]
fn macro_workbook_reads_like_any_other() {
    let sheets = read("macro.xlsm");
    assert_eq!(sheets.len(), 1);
    assert_eq!(sheets[0].grids[0].puzzle().to_line(), EASY);
}

#[test]
fn workbook_with_chart_validation_comment_and_merges_reads_its_grid() {
    let sheets = read("openpyxl_fidelity.xlsx");
    let names: Vec<&str> = sheets.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Puzzle", "Log"]);
    let g = &sheets[0].grids;
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].range.to_string(), "C3:K11");
    assert_eq!(
        g[0].puzzle().to_line(),
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    );
    assert!(sheets[1].grids.is_empty());
}

#[test]
fn encrypted_workbook_is_a_typed_error_naming_the_file() {
    let err = read_workbook(&fixture("encrypted.xlsx"), &ReadOptions::default()).unwrap_err();
    assert!(matches!(err, ReadError::Encrypted { .. }), "{err:?}");
    assert!(err.to_string().contains("encrypted.xlsx"));
}

#[test]
fn truncated_zip_is_not_a_workbook() {
    let err = read_workbook(&fixture("truncated.xlsx"), &ReadOptions::default()).unwrap_err();
    assert!(matches!(err, ReadError::NotAWorkbook { .. }), "{err:?}");
    assert!(err.to_string().contains("truncated.xlsx"));
}

#[test]
fn text_file_named_xlsx_is_not_a_workbook() {
    let err = read_workbook(&fixture("not_a_workbook.xlsx"), &ReadOptions::default()).unwrap_err();
    assert!(matches!(err, ReadError::NotAWorkbook { .. }), "{err:?}");
    assert!(err.to_string().contains("not_a_workbook.xlsx"));
}

#[test]
fn missing_file_is_an_io_error_naming_it() {
    let err = read_workbook(&fixture("no_such_file.xlsx"), &ReadOptions::default()).unwrap_err();
    assert!(matches!(err, ReadError::Io { .. }), "{err:?}");
    assert!(err.to_string().contains("no_such_file.xlsx"));
}

#[test]
fn old_binary_ole_file_is_not_a_workbook() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.xls.xlsx");
    let mut bytes = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    bytes.resize(4096, 0);
    std::fs::write(&path, bytes).unwrap();
    let err = read_workbook(&path, &ReadOptions::default()).unwrap_err();
    // Read as an .xls (tests/suite/detect/legacy.rs): a damaged one.
    assert!(matches!(err, ReadError::Legacy(_)), "{err:?}");
    assert!(err.to_string().contains("old.xls.xlsx"), "{err}");
}

/// Issue 27, point 4: in a 9x9, a blank holding two candidate digits
/// (`"23"` as text, `46` as a number) is a blank with pencil marks like one
/// holding three, not a bad value that makes the grid invalid.
#[test]
fn two_digit_pencil_marks_are_blanks_in_a_nine_by_nine() {
    let path = fixture("layout_pencil_marks.xlsx");
    let o = crate::util::xlsudoku(&["check", path.to_str().unwrap()]);
    let text = crate::util::output_text(&o);
    assert!(text.contains("[Marks] C3:K11 9x9: solved"), "{text}");
    assert_eq!(o.status.code(), Some(0), "{text}");
}
