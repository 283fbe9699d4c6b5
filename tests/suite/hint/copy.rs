//! The hint copy: only the hinted cells' styles and the note change;
//! wrong entries and marks are named, their answers only when asked.

use super::{bordered, json_lines, solution, Mark};
use crate::util::{cell_styles_of, cell_text, entries, fixture, range_cells, xlsudoku, EASY};

use calamine::{Reader, Xlsx};
use xlsudoku::address::{CellRange, CellRef};
use xlsudoku::grid::Grid;

fn sheet_values(path: &std::path::Path, sheet: &str) -> calamine::Range<calamine::Data> {
    let mut book: Xlsx<_> = calamine::open_workbook(path).unwrap();
    book.worksheet_range(sheet).unwrap()
}

#[test]
fn the_copy_differs_only_in_the_hinted_cells_styles_and_the_note() {
    let dir = tempfile::tempdir().unwrap();
    for (name, sheet) in [
        ("layout_two_grids.xlsx", "Two"),
        ("example.xlsx", "Easy"),
        ("layout_title_row.xlsx", "Titled"),
    ] {
        let input = fixture(name);
        let out = dir.path().join(name);
        let o = xlsudoku(&[
            "hint",
            "--json",
            input.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{name}");
        let hints: Vec<_> = json_lines(&o)
            .into_iter()
            .filter(|h| h["sheet"] == sheet)
            .collect();
        assert!(!hints.is_empty(), "{name}");
        let before = entries(&std::fs::read(&input).unwrap());
        let after = entries(&std::fs::read(&out).unwrap());
        // Every part but the style sheet, the workbook part (recalculation
        // flag) and the sheets with grids is the same, byte for byte.
        for (part, bytes) in &before {
            let now = &after.iter().find(|(p, _)| p == part).unwrap().1;
            if part != "xl/styles.xml"
                && part != "xl/workbook.xml"
                && !part.starts_with("xl/worksheets/")
            {
                assert_eq!(bytes, now, "{name}: {part}");
            }
        }
        let (old_v, new_v) = (sheet_values(&input, sheet), sheet_values(&out, sheet));
        let notes: Vec<CellRef> = hints
            .iter()
            .map(|h| {
                let range: CellRange = h["range"].as_str().unwrap().parse().unwrap();
                let at = CellRef::new(range.end.row + 1, range.start.col);
                assert_eq!(cell_text(&new_v, at), h["note"].as_str().unwrap(), "{name}");
                at
            })
            .collect();
        let rows = old_v.end().unwrap().0.max(new_v.end().unwrap().0);
        let cols = old_v.end().unwrap().1.max(new_v.end().unwrap().1);
        for at in range_cells(CellRange::new(CellRef::new(0, 0), CellRef::new(rows, cols))) {
            if !notes.contains(&at) {
                assert_eq!(cell_text(&old_v, at), cell_text(&new_v, at), "{name} {at}");
            }
        }
        // The styles change exactly on the coloured cells, and each takes
        // a fill of its colour.
        let part = |list: &[(String, Vec<u8>)]| {
            String::from_utf8(
                list.iter()
                    .find(|(p, _)| p == "xl/worksheets/sheet1.xml")
                    .unwrap()
                    .1
                    .clone(),
            )
            .unwrap()
        };
        let (s0, s1) = (
            cell_styles_of(&part(&before)),
            cell_styles_of(&part(&after)),
        );
        let coloured: Vec<(String, String)> = hints
            .iter()
            .flat_map(|h| h["colours"].as_array().unwrap().clone())
            .map(|c| {
                (
                    c["cell"].as_str().unwrap().to_string(),
                    c["fill"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert!(!coloured.is_empty());
        let note_names: Vec<String> = notes.iter().map(|n| n.to_string()).collect();
        for (cell, style) in &s1 {
            let was = s0.get(cell).cloned().flatten();
            let is_coloured = coloured.iter().any(|(c, _)| c == cell);
            if note_names.contains(cell) {
                continue;
            }
            assert_eq!(
                was != *style,
                is_coloured,
                "{name} {cell}: {was:?} → {style:?}"
            );
        }
        let styles = String::from_utf8(
            after
                .iter()
                .find(|(p, _)| p == "xl/styles.xml")
                .unwrap()
                .1
                .clone(),
        )
        .unwrap();
        for (_, fill) in &coloured {
            assert!(
                styles.contains(&format!("<fgColor rgb=\"{fill}\"/>")),
                "{name}: {fill}"
            );
        }
    }
}

/// EASY with its givens in bold and `entries` typed in plain digits.
fn typed(path: &std::path::Path, entries: &[(usize, u8)], marks: &[(usize, &str)]) {
    let p: Grid = EASY.parse().unwrap();
    bordered(path, |i| {
        if let Some(&(_, d)) = entries.iter().find(|(c, _)| *c == i) {
            return Some(Mark::Entry(d));
        }
        if let Some(&(_, m)) = marks.iter().find(|(c, _)| *c == i) {
            return Some(Mark::Marks(m.to_string()));
        }
        match p.cells()[i] {
            0 => None,
            d => Some(Mark::Given(d)),
        }
    });
}

#[test]
fn wrong_entries_and_marks_are_named_and_their_answers_shown_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let p: Grid = EASY.parse().unwrap();
    let sol = solution(&p);
    let blanks: Vec<usize> = (0..81).filter(|&i| p.cells()[i] == 0).collect();
    let (right, wrong, marked) = (blanks[0], blanks[1], blanks[2]);
    let bad = sol.cells()[wrong] % 9 + 1;
    let answer = sol.cells()[marked];
    let others: Vec<String> = (1..=9u8)
        .filter(|&d| d != answer)
        .take(2)
        .map(|d| d.to_string())
        .collect();
    let input = dir.path().join("typed.xlsx");
    typed(
        &input,
        &[(right, sol.cells()[right]), (wrong, bad)],
        &[(marked, &others.join(" "))],
    );
    let name = |i: usize| CellRef::new(2 + (i / 9) as u32, 2 + (i % 9) as u32).to_string();
    let out = dir.path().join("out.xlsx");
    let o = xlsudoku(&["hint", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    let expected = format!(
        "{}: {bad} is wrong; {}: the marks {} leave out the answer",
        name(wrong),
        name(marked),
        others.join(" ")
    );
    assert!(said.contains(&expected), "{said}");
    assert!(!said.contains(&name(right)), "{said}");
    let note = cell_text(&sheet_values(&out, "Puzzle"), CellRef::new(11, 2));
    assert_eq!(note, format!("hint: {expected}"));
    // Asked for, the answers follow.
    let o = xlsudoku(&[
        "hint",
        "--reveal",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        said.contains(&format!(
            "{}: {bad} is wrong ({})",
            name(wrong),
            sol.cells()[wrong]
        )),
        "{said}"
    );
}

#[test]
fn right_entries_and_marks_give_the_next_step_from_the_persons_position() {
    let dir = tempfile::tempdir().unwrap();
    let p: Grid = EASY.parse().unwrap();
    let sol = solution(&p);
    let blanks: Vec<usize> = (0..81).filter(|&i| p.cells()[i] == 0).collect();
    let entries: Vec<(usize, u8)> = blanks[..10].iter().map(|&i| (i, sol.cells()[i])).collect();
    let answer = sol.cells()[blanks[10]];
    let other = if answer == 1 { 2 } else { 1 };
    let marks = format!("{} {}", answer.min(other), answer.max(other));
    let input = dir.path().join("typed.xlsx");
    typed(&input, &entries, &[(blanks[10], &marks)]);
    let out = dir.path().join("out.xlsx");
    let o = xlsudoku(&[
        "hint",
        "--json",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let h = &json_lines(&o)[0];
    assert_eq!(h["status"], "step");
    let mut reached = p.clone();
    for &(i, d) in &entries {
        reached.set(i / 9, i % 9, d);
    }
    assert_eq!(h["position"].as_str().unwrap(), reached.to_line());
    // No digit is written: the grid's values are the input's.
    let (a, b) = (sheet_values(&input, "Puzzle"), sheet_values(&out, "Puzzle"));
    for at in range_cells("C3:K11".parse().unwrap()) {
        assert_eq!(cell_text(&a, at), cell_text(&b, at), "{at}");
    }
}

#[test]
fn a_second_hint_replaces_the_first_note_and_the_input_is_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.xlsx");
    let second = dir.path().join("second.xlsx");
    let input = fixture("example.xlsx");
    let before = std::fs::read(&input).unwrap();
    let o = xlsudoku(&[
        "hint",
        input.to_str().unwrap(),
        "-o",
        first.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(std::fs::read(&input).unwrap(), before);
    let o = xlsudoku(&[
        "hint",
        first.to_str().unwrap(),
        "-o",
        second.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let (a, b) = (sheet_values(&first, "Easy"), sheet_values(&second, "Easy"));
    assert_eq!(
        cell_text(&a, CellRef::new(11, 2)),
        cell_text(&b, CellRef::new(11, 2))
    );
    assert_eq!(cell_text(&b, CellRef::new(12, 2)), "");
    let o = xlsudoku(&[
        "hint",
        first.to_str().unwrap(),
        "-o",
        first.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("would replace the input"));
}

#[test]
fn the_terminal_form_says_the_step_of_a_puzzle_line() {
    let o = xlsudoku(&["hint", "--puzzle", EASY]);
    assert_eq!(o.status.code(), Some(0));
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    let explained = xlsudoku(&["explain", "--puzzle", EASY]);
    let first = String::from_utf8_lossy(&explained.stdout)
        .lines()
        .nth(1)
        .unwrap()
        .trim()
        .trim_start_matches("1. ")
        .to_string();
    assert_eq!(said.trim(), first);
}
