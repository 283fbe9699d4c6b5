//! Wrong entries named by `solve` and `check` (and `explain`) as `hint`
//! names them: on a grid whose bold givens are told from plain entries,
//! an unsolvable grid says which entries are wrong (`E3: 1 is wrong`),
//! never their right digits, in the note, on the terminal and in `check`'s
//! JSON and JUnit; a grid of one font keeps the givens that cannot stand.
//! The expected cells are worked out here from the sheet's fonts and the
//! exact solver, not copied from a run.

use xlsudoku::grid::Grid;
use xlsudoku::search::{search, SearchOptions};
use xlsudoku::workbook::Cell;

use crate::util::{cell_text, fixture, read, stdout, xlsudoku};

const FIXTURE: &str = "status_wrong_entries.xlsx";

/// The wrong entries of sheet `Entries` in the hint's words, and their
/// right digits: the plain digits that differ from the one solution of
/// the bold ones.
fn expected() -> (Vec<String>, Vec<u8>) {
    let sheets = read(FIXTURE);
    let grid = &sheets.iter().find(|s| s.name == "Entries").unwrap().grids[0];
    let digit = |i: usize| match grid.cells[i] {
        Cell::Given(d) => d,
        _ => 0,
    };
    let bold: Vec<u8> = (0..81)
        .map(|i| if grid.bold[i] { digit(i) } else { 0 })
        .collect();
    let givens = Grid::from_cells(grid.shape, bold).unwrap();
    let found = search(&givens, &SearchOptions::default()).unwrap();
    assert_eq!(
        found.solutions.len(),
        1,
        "the bold givens have one solution"
    );
    let solution = found.solutions[0].cells();
    let wrong: Vec<usize> = (0..81)
        .filter(|&i| !grid.bold[i] && digit(i) != 0 && digit(i) != solution[i])
        .collect();
    assert!(wrong.len() >= 2, "the fixture has wrong entries");
    assert!(
        (0..81).any(|i| !grid.bold[i] && digit(i) != 0 && digit(i) == solution[i]),
        "and right ones, which are not named"
    );
    (
        wrong
            .iter()
            .map(|&i| format!("{}: {} is wrong", grid.cell_ref(i), digit(i)))
            .collect(),
        wrong.iter().map(|&i| solution[i]).collect(),
    )
}

/// The error names exactly the wrong entries, in reading order, and no
/// right digit.
fn names_the_wrong_entries(error: &str) {
    let (words, answers) = expected();
    let listed = error
        .strip_prefix("the entries do not fit the givens: ")
        .unwrap_or_else(|| panic!("{error}"));
    assert_eq!(listed, words.join("; "));
    for a in answers {
        assert!(!error.contains(&format!("({a})")), "{error}");
    }
}

#[test]
fn check_names_the_wrong_entries_in_json_junit_and_on_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("junit.xml");
    let input = fixture(FIXTURE);
    let o = xlsudoku(&[
        "check",
        "--json",
        "--junit",
        junit.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let records: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v.get("summary").is_none())
        .collect();
    let error = |sheet: &str| {
        let r = records.iter().find(|r| r["sheet"] == sheet).unwrap();
        assert_eq!(r["status"], "unsolvable");
        r["error"].as_str().unwrap().to_string()
    };
    names_the_wrong_entries(&error("Entries"));
    // The same digits in one font: every digit is a given, and the givens
    // that cannot all stand are named, as before.
    assert!(
        error("Plain").contains("cannot all stand"),
        "{}",
        error("Plain")
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(&expected().0.join("; ")), "{xml}");
    let text = stdout(&xlsudoku(&["check", input.to_str().unwrap()]));
    let line = text.lines().find(|l| l.contains("[Entries]")).unwrap();
    names_the_wrong_entries(line.split(" - ").nth(1).unwrap());
}

#[test]
fn solve_and_explain_name_the_wrong_entries() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.xlsx");
    let input = fixture(FIXTURE);
    let o = xlsudoku(&[
        "solve",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let terminal = crate::util::output_text(&o);
    let line = terminal
        .lines()
        .find(|l| l.contains("[Entries]"))
        .unwrap_or_else(|| panic!("{terminal}"));
    names_the_wrong_entries(line.split(" - ").nth(1).unwrap());
    let sheets = xlsudoku::workbook::read_workbook(&out, &Default::default()).unwrap();
    let grid = &sheets.iter().find(|s| s.name == "Entries").unwrap().grids[0];
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&out).unwrap();
    let values = calamine::Reader::worksheet_range(&mut book, "Entries").unwrap();
    let note = cell_text(&values, grid.note_at);
    let error = note
        .strip_prefix("unsolvable: ")
        .and_then(|n| n.rsplit_once(" ("))
        .unwrap_or_else(|| panic!("{note}"))
        .0;
    names_the_wrong_entries(error);
    let o = xlsudoku(&["explain", "--json", input.to_str().unwrap()]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(first["sheet"], "Entries");
    names_the_wrong_entries(first["error"].as_str().unwrap());
}
