//! `xlsudoku explain` through the real binary: the steps in words with
//! the sheet's own addresses, every placement agreeing with the solution,
//! JSON Lines that parse, failed grids without steps, and bad input.

use crate::util::fixture;
use crate::util::xlsudoku;
use crate::util::{code, stderr, stdout};

use std::path::Path;
use std::process::Output;

use rust_xlsxwriter::{Format, FormatBorder, Workbook};
use serde_json::Value;
use xlsudoku::address::{CellRange, CellRef};
use xlsudoku::grid::Grid;
use xlsudoku::solve::{solve, SolveOptions, Status};
use xlsudoku::workbook::{read_workbook, ReadOptions};

/// A 17-clue puzzle with one solution (locked pairs and triples on its way).
const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// Gecode's 16x16 (janko.at), one solution; `A`=10 … `G`=16.
const SIXTEEN: &str = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";

/// The JSON Lines of an `explain --json` run: the grid objects, then the
/// summary.
fn json(o: &Output) -> (Vec<Value>, Value) {
    let text = stdout(o);
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let summary = lines.pop().expect("a summary line");
    assert!(summary.get("summary").is_some(), "last line: {summary}");
    (lines, summary)
}

/// The only solution of the first grid of a workbook sheet.
fn solution_of(path: &Path, sheet: &str) -> (Grid, CellRange) {
    let sheets = read_workbook(path, &ReadOptions::default()).unwrap();
    let grid = &sheets.iter().find(|s| s.name == sheet).unwrap().grids[0];
    let out = solve(&grid.puzzle(), &SolveOptions::default());
    assert_eq!(out.status, Status::Solved);
    (out.grid, grid.range)
}

/// Checks every step of one grid object against the solution: each blank
/// is placed exactly once, with the solution's digit, also as the text says
/// it; no elimination strikes the solution's digit. `at` maps a cell name
/// to the grid's row and column; `shown` writes a digit as the text does.
fn check_steps(
    grid: &Value,
    solution: &Grid,
    givens: usize,
    at: impl Fn(&str) -> (usize, usize),
    shown: impl Fn(u8) -> String,
) {
    let steps = grid["steps"].as_array().expect("steps");
    let mut placed = std::collections::HashSet::new();
    for (k, s) in steps.iter().enumerate() {
        assert_eq!(s["n"].as_u64(), Some(k as u64 + 1));
        let text = s["text"].as_str().unwrap();
        assert!(text.starts_with(s["name"].as_str().unwrap()), "{text}");
        if let Some(p) = s.get("placed").filter(|p| !p.is_null()) {
            let cell = p["cell"].as_str().unwrap();
            let d = p["digit"].as_u64().unwrap() as u8;
            let (r, c) = at(cell);
            assert_eq!(solution.get(r, c), d, "step {}: {text}", k + 1);
            assert!(placed.insert(cell.to_string()), "{cell} placed twice");
            let said = if text.contains(" → ") {
                // `hidden single: 7 has one place in row 5 → E7`
                format!("{} has one place in ", shown(d))
            } else {
                format!("{cell} = {}", shown(d))
            };
            assert!(text.contains(&said), "{text} lacks {said:?}");
            assert!(text.contains(cell), "{text}");
        }
        for e in s["eliminated"].as_array().unwrap() {
            let (r, c) = at(e["cell"].as_str().unwrap());
            let d = e["digit"].as_u64().unwrap() as u8;
            assert_ne!(solution.get(r, c), d, "step {}: {text}", k + 1);
        }
    }
    let side = solution.side();
    assert_eq!(
        placed.len(),
        side * side - givens,
        "every blank placed once"
    );
}

/// A sheet cell name (`E7`) inside `range`, as the grid's row and column.
fn sheet_cell(range: CellRange) -> impl Fn(&str) -> (usize, usize) {
    move |name| {
        let c: CellRef = name.parse().unwrap();
        assert!(range.contains(c), "{name} is outside the grid {range}");
        (
            (c.row - range.start.row) as usize,
            (c.col - range.start.col) as usize,
        )
    }
}

#[test]
fn steps_name_the_sheets_own_cells_for_a_grid_at_c3() {
    let input = fixture("status_needs_guess.xlsx");
    let o = xlsudoku(&["explain", input.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines();
    let heading = lines.next().unwrap();
    assert!(
        heading.starts_with("Hard!C3:K11 (9x9): solved · SE "),
        "{heading}"
    );
    let steps: Vec<&str> = lines.collect();
    assert!(steps.len() > 50, "{text}");
    assert!(steps[0].trim_start().starts_with("1. "), "{}", steps[0]);
    // Shifted: lines and cells are the sheet's, never the grid's own 1-9.
    assert!(
        text.contains("column K") || text.contains("row 11"),
        "{text}"
    );
    assert!(
        !text.contains("r1c") && !text.contains("column 1 "),
        "{text}"
    );
    assert!(text.contains("naked single: "), "naked singles are listed");
    assert!(
        text.contains(": the techniques stop here, with ")
            && text.contains(", the digit of the proven solution"),
        "guesses are said: {text}"
    );
    // Every cell named lies in C3:K11.
    let range: CellRange = "C3:K11".parse().unwrap();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if let Ok(c) = word.parse::<CellRef>() {
            if word.len() <= 3 && word.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
                assert!(range.contains(c), "{word} outside the grid: {text}");
            }
        }
    }
}

#[test]
fn every_placement_in_the_steps_agrees_with_the_solution() {
    let input = fixture("status_needs_guess.xlsx");
    let o = xlsudoku(&["explain", "--json", input.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (grids, summary) = json(&o);
    assert_eq!(grids.len(), 1);
    assert_eq!(summary["summary"]["statuses"]["solved"], 1);
    let g = &grids[0];
    assert_eq!(g["range"], "C3:K11");
    assert_eq!(g["status"], "solved");
    assert_eq!(g["symbols"], "1-9");
    let (solution, range) = solution_of(&input, "Hard");
    let givens = g["givens"].as_u64().unwrap() as usize;
    check_steps(g, &solution, givens, sheet_cell(range), |d| d.to_string());
    // The history letters are the steps' letters, in order.
    let letters: String = g["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["letter"].as_str())
        .collect();
    assert_eq!(g["history"].as_str().unwrap(), letters);
}

#[test]
fn puzzle_line_is_explained_with_r_c_names() {
    let o = xlsudoku(&["explain", "--puzzle", HARD]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("puzzle (9x9): solved · SE "), "{text}");
    assert!(text.contains("r6c2"), "{text}");
    let o = xlsudoku(&["explain", "--json", "--puzzle", HARD]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (grids, _) = json(&o);
    assert_eq!(grids[0]["puzzle"], HARD);
    let puzzle: Grid = HARD.parse().unwrap();
    let solution = solve(&puzzle, &SolveOptions::default()).grid;
    let at = |name: &str| {
        let (r, c) = name[1..].split_once('c').unwrap();
        (
            r.parse::<usize>().unwrap() - 1,
            c.parse::<usize>().unwrap() - 1,
        )
    };
    check_steps(&grids[0], &solution, puzzle.givens(), at, |d| d.to_string());
}

#[test]
fn json_has_one_object_per_grid_then_a_summary() {
    let input = fixture("example.xlsx");
    let o = xlsudoku(&["explain", "--json", input.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "a sheet without a grid passes: {}", stderr(&o));
    let (grids, summary) = json(&o);
    let names: Vec<&str> = grids.iter().map(|g| g["sheet"].as_str().unwrap()).collect();
    assert_eq!(names, ["Easy", "Big", "Notes"]);
    assert_eq!(grids[1]["size"], "16x16");
    assert_eq!(grids[2]["status"], "no-grid");
    assert_eq!(grids[2]["steps"].as_array().unwrap().len(), 0);
    assert_eq!(summary["summary"]["sheets"], 3);
    for (g, sheet) in grids[..2].iter().zip(["Easy", "Big"]) {
        let (solution, range) = solution_of(&input, sheet);
        let givens = g["givens"].as_u64().unwrap() as usize;
        check_steps(g, &solution, givens, sheet_cell(range), |d| d.to_string());
    }
    // --sheet picks one, case ignored.
    let o = xlsudoku(&[
        "explain",
        "--json",
        "--sheet",
        "big",
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (grids, _) = json(&o);
    assert_eq!(grids.len(), 1);
    assert_eq!(grids[0]["range"], "C3:R18");
}

#[test]
fn ambiguous_and_clashing_grids_are_reported_without_steps() {
    let o = xlsudoku(&["explain", fixture("status_multiple.xlsx").to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    // Where two solutions differ is named (cli::conflicts checks the cells).
    let text = stdout(&o);
    assert!(
        text.starts_with("Multiple!C3:K11 (9x9): multiple solutions: more than one solution: ")
            && text.trim_end().ends_with(" either way")
            && text.lines().count() == 1,
        "{text}"
    );
    let clash = fixture("status_invalid_clash.xlsx");
    let o = xlsudoku(&["explain", clash.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    // The clash's row is the sheet's row 3, as the cells are C3 and I3.
    assert_eq!(
        stdout(&o).trim_end(),
        "Clash!C3:K11 (9x9): invalid: 5 twice in row 3 (C3, I3)"
    );
    let o = xlsudoku(&["explain", "--json", clash.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    let (grids, _) = json(&o);
    assert_eq!(grids[0]["status"], "invalid");
    assert_eq!(grids[0]["steps"].as_array().unwrap().len(), 0);
}

#[test]
fn malformed_puzzle_line_is_a_usage_error() {
    let mut line = HARD.to_string();
    line.replace_range(4..5, "x");
    let o = xlsudoku(&["explain", "--puzzle", &line]);
    assert_eq!(code(&o), 2);
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    assert!(
        err.contains("--puzzle") && err.contains("'x' at position 4"),
        "{err}"
    );
    let o = xlsudoku(&["explain", "--puzzle", "123"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("3 cells"), "{}", stderr(&o));
}

#[test]
fn missing_file_and_unknown_sheet_are_errors_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.xlsx");
    let o = xlsudoku(&["explain", missing.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("missing.xlsx"), "{}", stderr(&o));
    let o = xlsudoku(&[
        "explain",
        "--sheet",
        "Nope",
        fixture("example.xlsx").to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(
        err.contains("--sheet Nope: no such sheet") && err.contains("Easy, Big, Notes"),
        "{err}"
    );
    let o = xlsudoku(&["explain"]);
    assert_eq!(code(&o), 2, "neither a workbook nor --puzzle");
}

#[test]
fn forced_range_names_cells_from_its_corner() {
    let input = fixture("status_needs_guess.xlsx");
    let o = xlsudoku(&[
        "explain",
        "--json",
        "--range",
        "C3:K11",
        input.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (grids, _) = json(&o);
    let (solution, range) = solution_of(&input, "Hard");
    let givens = grids[0]["givens"].as_u64().unwrap() as usize;
    check_steps(&grids[0], &solution, givens, sheet_cell(range), |d| {
        d.to_string()
    });
}

/// A 16x16 written `0`-`9`, `A`-`F` (the digit 1 is `0`, 16 is `F`), with
/// thin cell lines and medium box lines, at B2.
fn lettered_sixteen(path: &Path, puzzle: &Grid) {
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet().set_name("Letters").unwrap();
    let line = |edge: bool| {
        if edge {
            FormatBorder::Medium
        } else {
            FormatBorder::Thin
        }
    };
    for r in 0..16 {
        for c in 0..16 {
            let fmt = Format::new()
                .set_border_left(line(c % 4 == 0))
                .set_border_right(line(c % 4 == 3))
                .set_border_top(line(r % 4 == 0))
                .set_border_bottom(line(r % 4 == 3));
            let (rr, cc) = (1 + r as u32, 1 + c as u16);
            match puzzle.get(r, c) {
                0 => ws.write_blank(rr, cc, &fmt).unwrap(),
                d @ 1..=10 => ws
                    .write_number_with_format(rr, cc, f64::from(d - 1), &fmt)
                    .unwrap(),
                d => ws
                    .write_string_with_format(rr, cc, char::from(b'A' + d - 11).to_string(), &fmt)
                    .unwrap(),
            };
        }
    }
    wb.save(path).unwrap();
}

#[test]
fn lettered_sixteen_is_explained_in_its_own_alphabet() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("letters.xlsx");
    let puzzle: Grid = SIXTEEN.parse().unwrap();
    lettered_sixteen(&input, &puzzle);
    let o = xlsudoku(&["explain", "--json", input.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (grids, _) = json(&o);
    let g = &grids[0];
    assert_eq!(g["range"], "B2:Q17");
    assert_eq!(g["symbols"], "0-9, A-F");
    let (solution, range) = solution_of(&input, "Letters");
    let shown = |d: u8| match d {
        1..=10 => (d - 1).to_string(),
        d => char::from(b'A' + d - 11).to_string(),
    };
    check_steps(g, &solution, puzzle.givens(), sheet_cell(range), shown);
    let text = stdout(&xlsudoku(&["explain", input.to_str().unwrap()]));
    assert!(
        text.contains(" = F") || text.contains("F has one place"),
        "{text}"
    );
    assert!(!text.contains(" = 16"), "{text}");
}

/// The words each technique's steps start with, after its name.
fn form_of(technique: &str) -> &'static str {
    match technique {
        "naked-single" | "guess" => ": ",
        "hidden-single" => ": ",
        "locked-candidates" => " (",
        "naked-pair" | "naked-triple" | "naked-quad" | "locked-pair" | "locked-triple"
        | "hidden-pair" | "hidden-triple" | "hidden-quad" => " ",
        "x-wing" | "swordfish" | "jellyfish" => " on ",
        "skyscraper" | "2-string-kite" | "turbot-fish" => " on ",
        "xy-wing" | "xyz-wing" | "w-wing" | "x-chain" => " on ",
        "xy-chain" | "aic" | "grouped-aic" | "als-xz" | "als-xy-wing" | "als-chain"
        | "forcing-chain" | "forcing-net" => ": ",
        "remote-pair" | "empty-rectangle" | "simple-colouring" | "multi-colouring" => " on ",
        "unique-rectangle-1" | "unique-rectangle-2" | "unique-rectangle-3"
        | "unique-rectangle-4" | "hidden-rectangle" => " on ",
        "finned-x-wing" | "sashimi-x-wing" | "finned-swordfish" | "sashimi-swordfish"
        | "finned-jellyfish" | "sashimi-jellyfish" => " on ",
        "bug-plus-1" => ": ",
        "sue-de-coq" => " where ",
        _ => "",
    }
}

#[test]
fn every_technique_is_said_in_its_own_words_on_hard_puzzles() {
    use xlsudoku::explain::explain_puzzle;
    let text = crate::util::bench_text("9x9/puzzles6_forum_hardest_1106");
    let mut seen = std::collections::BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(120)
    {
        let puzzle: Grid = line.trim().parse().unwrap();
        let e = explain_puzzle(&puzzle, &crate::util::without_se());
        assert!(e.passes(), "{}", e.heading());
        let solution = solve(&puzzle, &crate::util::without_se()).grid;
        for s in &e.steps {
            seen.insert(s.technique);
            let said = format!("{}{}", s.name, form_of(s.technique));
            assert!(s.text.starts_with(&said), "{} lacks {said:?}", s.text);
            let words = match s.technique {
                "hidden-single" => "has one place in",
                "locked-candidates" => "lies only in",
                "x-wing" | "swordfish" | "jellyfish" => " in ",
                "skyscraper" | "2-string-kite" | "turbot-fish" => "strong links",
                "xy-wing" | "xyz-wing" => "pivot",
                "w-wing" => "both hold",
                "remote-pair" => "each sees the next",
                "empty-rectangle" => "strong link",
                "unique-rectangle-1" => "hold only",
                "unique-rectangle-2" => "extra",
                "unique-rectangle-3" => "naked subset",
                "unique-rectangle-4" | "hidden-rectangle" => "has no place in",
                "finned-x-wing" | "sashimi-x-wing" | "finned-swordfish" | "sashimi-swordfish"
                | "finned-jellyfish" | "sashimi-jellyfish" => "fin",
                "bug-plus-1" => "three places",
                "sue-de-coq" => "crosses",
                "simple-colouring" => "colour",
                "multi-colouring" => "clusters",
                "guess" => "the techniques stop here",
                // A loop back to its start says what it proves.
                "x-chain" | "xy-chain" | "aic" | "grouped-aic" if s.text.contains("; so ") => {
                    ", then "
                }
                "x-chain" | "xy-chain" | "aic" | "grouped-aic" => " or ",
                "als-xz" => "restricted common",
                "als-xy-wing" => "pivot",
                "als-chain" => "the first or the last set is locked",
                _ => "",
            };
            if matches!(s.technique, "forcing-chain" | "forcing-net") {
                assert!(
                    s.text.contains("a contradiction follows")
                        || s.text.contains("leads to the same"),
                    "{}",
                    s.text
                );
            }
            assert!(s.text.contains(words), "{} lacks {words:?}", s.text);
            if !s.eliminated.is_empty() {
                assert!(s.text.contains(": removes "), "{}", s.text);
            }
            for cd in s.eliminated.iter().chain(&s.placed) {
                let (r, c) = cd.cell[1..].split_once('c').unwrap();
                let (r, c) = (r.parse::<usize>().unwrap(), c.parse::<usize>().unwrap());
                let right = solution.get(r - 1, c - 1) == cd.digit;
                assert_eq!(right, s.placed.as_ref() == Some(cd), "{}", s.text);
            }
        }
    }
    for t in [
        "locked-candidates",
        "naked-pair",
        "hidden-pair",
        "2-string-kite",
        "w-wing",
        "remote-pair",
        "bug-plus-1",
        "empty-rectangle",
        "unique-rectangle-1",
        "unique-rectangle-3",
        "unique-rectangle-4",
        "hidden-rectangle",
        "finned-x-wing",
        "sashimi-swordfish",
        "sue-de-coq",
        "multi-colouring",
        "aic",
        "forcing-net",
    ] {
        assert!(seen.contains(t), "{t} never seen: {seen:?}");
    }
}

#[test]
fn puzzle_line_with_a_note_after_it_is_read_as_bench_reads_it() {
    let o = xlsudoku(&["explain", "--puzzle", &format!("{HARD} #norvig hard1")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with("puzzle (9x9): solved"));
    // A 6x6 with its box shape given: boxes of 3 columns by 2 rows.
    let six = "...4...56.....456...1...3.5....1....";
    let o = xlsudoku(&["explain", "--box", "3x2", "--puzzle", six]);
    let text = stdout(&o);
    assert_eq!(code(&o), 0, "{}{text}", stderr(&o));
    assert!(text.starts_with("puzzle (6x6): solved"), "{text}");
    assert!(text.contains("r3c1 = 2"), "{text}");
    let o = xlsudoku(&["explain", "--box", "2x3", "--puzzle", six]);
    assert_eq!(code(&o), 1, "another box shape makes another puzzle");
}

/// `explain --json` gives the chains of chain, ALS and forcing steps as
/// nodes with the puzzle's own cell names, and none for other steps. An
/// X-chain, XY-chain or AIC runs from "x is not there" to "y is there"
/// through alternating nodes, so in the solution x or y holds: checked on
/// every such step of hard puzzles through the real binary.
#[test]
fn json_steps_carry_their_chains_and_each_chain_holds_in_the_solution() {
    let text = crate::util::bench_text("9x9/puzzles6_forum_hardest_1106");
    let mut kinds = std::collections::BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(12)
    {
        let line = line.trim();
        let puzzle: Grid = line.parse().unwrap();
        let solution = solve(&puzzle, &crate::util::without_se()).grid;
        let o = xlsudoku(&["explain", "--json", "--se-budget", "0", "--puzzle", line]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let (grids, _) = json(&o);
        let holds = |node: &Value| {
            let d = node["digit"].as_u64().unwrap() as u8;
            node["cells"].as_array().unwrap().iter().any(|c| {
                let (r, c) = c.as_str().unwrap()[1..].split_once('c').unwrap();
                let (r, c) = (r.parse::<usize>().unwrap(), c.parse::<usize>().unwrap());
                solution.get(r - 1, c - 1) == d
            })
        };
        for s in grids[0]["steps"].as_array().unwrap() {
            let technique = s["technique"].as_str().unwrap();
            let chained = matches!(
                technique,
                "x-chain"
                    | "xy-chain"
                    | "aic"
                    | "grouped-aic"
                    | "als-xz"
                    | "als-xy-wing"
                    | "als-chain"
                    | "forcing-chain"
                    | "forcing-net"
            );
            let Some(chains) = s.get("chains") else {
                assert!(!chained, "{technique} without chains: {s}");
                continue;
            };
            assert!(chained, "{technique} with chains: {s}");
            kinds.insert(technique.to_string());
            let chains = chains.as_array().unwrap();
            assert!(!chains.is_empty() && chains.iter().all(|c| !c.as_array().unwrap().is_empty()));
            if !matches!(technique, "x-chain" | "xy-chain" | "aic" | "grouped-aic") {
                continue;
            }
            assert_eq!(chains.len(), 1, "{s}");
            let nodes = chains[0].as_array().unwrap();
            assert!(nodes.len() >= 4, "{s}");
            for (k, node) in nodes.iter().enumerate() {
                assert_eq!(node["on"].as_bool(), Some(k % 2 == 1), "{s}");
            }
            let (first, last) = (&nodes[0], &nodes[nodes.len() - 1]);
            assert!(holds(first) || holds(last), "neither end holds: {s}");
        }
    }
    assert!(kinds.contains("aic"), "no AIC met: {kinds:?}");
    assert!(kinds.iter().any(|k| k.starts_with("forcing")), "{kinds:?}");
}

#[test]
fn box_shapes_grids_too_small_and_boxes_that_do_not_fit_are_refused() {
    // Grids from 4x4, as every command takes them.
    for tiny in [".", "....", "........."] {
        let o = xlsudoku(&["explain", "--puzzle", tiny]);
        assert_eq!(code(&o), 2, "{tiny}: {}", stdout(&o));
        assert!(stdout(&o).is_empty(), "{tiny}");
        assert!(
            stderr(&o).contains("is not a square grid"),
            "{}",
            stderr(&o)
        );
    }
    // --box 1x9: the message every command gives.
    let nine = ".".repeat(81);
    let o = xlsudoku(&["explain", "--puzzle", &nine, "--box", "1x9"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("box shape 1x9: boxes must be at least 2 cells each way"),
        "{}",
        stderr(&o)
    );
    // A box that does not tile the grid is named, with those that do.
    let six = ".".repeat(36);
    let o = xlsudoku(&["explain", "--puzzle", &six, "--box", "3x3"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("a 3x3 box does not tile a 6x6 grid; boxes that do: 3x2, 2x3"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_puzzle_with_a_bom_or_tabs_between_its_cells_is_read_and_controls_are_escaped() {
    let bom = format!("\u{feff}{HARD}");
    let o = xlsudoku(&["explain", "--puzzle", &bom]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("puzzle (9x9): solved"),
        "{}",
        stdout(&o)
    );
    // A row of cells copied from a spreadsheet: tab-separated, empty blank.
    let tabs: Vec<String> = HARD
        .chars()
        .map(|c| {
            if c == '.' {
                String::new()
            } else {
                c.to_string()
            }
        })
        .collect();
    let o = xlsudoku(&["explain", "--json", "--puzzle", &tabs.join("\t")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (grids, _) = json(&o);
    assert_eq!(grids[0]["status"], "solved", "{}", grids[0]);
    assert_eq!(
        grids[0]["givens"],
        HARD.chars().filter(|&c| c != '.').count()
    );
    // A control character quoted in the message is written out.
    let bad = format!("\u{1}{}", &HARD[1..]);
    let o = xlsudoku(&["explain", "--puzzle", &bad]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("character 'U+0001' at position 0"), "{err:?}");
    assert!(!err.contains('\u{1}'), "{err:?}");
}

/// A top1465 puzzle whose XY-chains include loops back to their start.
const LOOPING: &str =
    "8.9...3.....7.1...5.........7.....263...9.......1...4..6.2....4....8.5...........";

#[test]
fn a_loop_says_what_it_proves() {
    let o = xlsudoku(&["explain", "--puzzle", LOOPING]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let mut loops = 0;
    for line in text.lines().filter(|l| l.contains(" XY-chain: (")) {
        // `54. XY-chain: (7)r7c1 = (1)r7c1 – … = (7)r7c1: …`
        let chain = line.split(": ").nth(1).unwrap();
        let (first, last) = (
            chain.split(' ').next().unwrap(),
            chain.rsplit(' ').next().unwrap(),
        );
        if first != last {
            continue;
        }
        loops += 1;
        let (d, cell) = first[1..].split_once(')').unwrap();
        assert!(
            line.contains(&format!(
                ": if {cell} is not {d}, then {cell} is {d}; so {cell} is {d}: removes "
            )),
            "{line}"
        );
        assert!(
            !line.contains(&format!("{cell} is {d} or {cell} is {d}")),
            "{line}"
        );
    }
    assert!(loops > 0, "no loop to check: {text}");
}

#[test]
fn a_guess_says_where_the_techniques_stop_and_is_no_deduction() {
    let o = xlsudoku(&[
        "explain",
        fixture("status_needs_guess.xlsx").to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let guesses: Vec<&str> = text.lines().filter(|l| l.contains(". guess: ")).collect();
    assert!(!guesses.is_empty(), "{text}");
    for line in guesses {
        // Never `guess: D11 = 7` as if the digit were deduced.
        let said = line.split(". guess: ").nth(1).unwrap();
        assert!(
            said.starts_with("the techniques stop here, with "),
            "{line}"
        );
        assert!(
            said.contains(" cells open (")
                && said.contains(" candidates); the rest needs trial and error"),
            "{line}"
        );
        assert!(
            said.ends_with(", the digit of the proven solution"),
            "{line}"
        );
    }
}
