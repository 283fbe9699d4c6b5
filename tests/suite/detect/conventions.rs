//! Common ways puzzle authors write blanks and digits, each through the
//! real binary: `0` for a blank (also hidden by a number format), `.` for a
//! blank, pencil marks (candidates) in blank cells, a 16x16 written `1`-`9`
//! then `A`-`G` or `0`-`9` then `A`-`F` (or their lower-case letters).
//! Each is solved and the annotated copy writes the solution over the
//! blank marks, in the grid's own alphabet and case. A bordered square
//! whose values are no puzzle makes a `no-grid` record that says why; a
//! cell that cannot be read is named.

use crate::util::xlsudoku as run;
use std::path::{Path, PathBuf};
use std::process::Output;

use calamine::{open_workbook, Data, Reader, Xlsx};
use rust_xlsxwriter::{Format, FormatAlign, FormatBorder, Workbook};
use xlsudoku::grid::{BoxShape, Grid};
use xlsudoku::report::SheetRecord;

const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const EASY_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// Gecode's 16x16 (janko.at), one solution; `A`=10 … `G`=16.
const SIXTEEN: &str = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";

/// What a grid cell holds in a test workbook.
enum Put {
    Blank,
    Number(f64),
    Text(String),
}

/// A one-sheet workbook with a bordered grid at C3 (thin lines, medium box
/// lines and frame); `put(index, digit)` says what each cell holds (digit
/// 0 for a blank of the puzzle); `format` is applied to every grid cell.
fn build(path: &Path, puzzle: &Grid, number_format: Option<&str>, put: impl Fn(usize, u8) -> Put) {
    let n = puzzle.side();
    let (w, h) = (puzzle.shape().width(), puzzle.shape().height());
    let line = |outer: bool, boxes: bool| {
        if outer || boxes {
            FormatBorder::Medium
        } else {
            FormatBorder::Thin
        }
    };
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet().set_name("Puzzle").unwrap();
    for r in 0..n {
        for c in 0..n {
            let mut fmt = Format::new()
                .set_align(FormatAlign::Center)
                .set_border_left(line(c == 0, c % w == 0))
                .set_border_right(line(c == n - 1, (c + 1) % w == 0))
                .set_border_top(line(r == 0, r % h == 0))
                .set_border_bottom(line(r == n - 1, (r + 1) % h == 0));
            if let Some(f) = number_format {
                fmt = fmt.set_num_format(f);
            }
            let (rr, cc) = (2 + r as u32, 2 + c as u16);
            match put(r * n + c, puzzle.get(r, c)) {
                Put::Blank => ws.write_blank(rr, cc, &fmt).unwrap(),
                Put::Number(v) => ws.write_number_with_format(rr, cc, v, &fmt).unwrap(),
                Put::Text(t) => ws.write_string_with_format(rr, cc, t, &fmt).unwrap(),
            };
        }
    }
    wb.save(path).unwrap();
}

fn records(o: &Output) -> Vec<SheetRecord> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.contains("\"sheet\""))
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Solves `input` into a copy beside it: the records and the copy's path.
fn solve(input: &Path) -> (Vec<SheetRecord>, PathBuf) {
    let out = input.with_file_name("out.xlsx");
    let o = run(&[
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    (records(&o), out)
}

/// The values of the copy's grid cells (C3, side `n`), row-major.
fn copy_values(out: &Path, n: usize) -> Vec<Data> {
    let mut book: Xlsx<_> = open_workbook(out).unwrap();
    let range = book.worksheet_range("Puzzle").unwrap();
    (0..n * n)
        .map(|i| {
            range
                .get_value((2 + (i / n) as u32, 2 + (i % n) as u32))
                .cloned()
                .unwrap_or(Data::Empty)
        })
        .collect()
}

fn number(d: &Data) -> Option<f64> {
    match d {
        Data::Float(v) => Some(*v),
        Data::Int(v) => Some(*v as f64),
        _ => None,
    }
}

/// A 9x9 whose blanks are written by `blank(index)`: solved, and every
/// blank of the copy holds the solution's digit as a number.
fn assert_blanks_filled(number_format: Option<&str>, blank: impl Fn(usize) -> Put) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.xlsx");
    let puzzle: Grid = EASY.parse().unwrap();
    build(&input, &puzzle, number_format, |i, d| match d {
        0 => blank(i),
        d => Put::Number(f64::from(d)),
    });
    let (recs, out) = solve(&input);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0].status, "solved", "{recs:?}");
    assert_eq!(recs[0].range.as_deref(), Some("C3:K11"));
    assert_eq!(recs[0].givens, Some(30));
    let solution: Grid = EASY_SOLUTION.parse().unwrap();
    for (i, v) in copy_values(&out, 9).iter().enumerate() {
        assert_eq!(
            number(v),
            Some(f64::from(solution.cells()[i])),
            "cell {i} of the copy: {v:?}"
        );
    }
}

#[test]
fn zero_for_blank_is_solved_and_the_digits_are_written_over_the_zeros() {
    assert_blanks_filled(None, |_| Put::Number(0.0));
}

#[test]
fn zero_hidden_by_a_number_format_is_a_blank() {
    assert_blanks_filled(Some("0;-0;;@"), |_| Put::Number(0.0));
}

#[test]
fn zero_as_text_is_a_blank() {
    assert_blanks_filled(None, |_| Put::Text("0".into()));
}

#[test]
fn dot_for_blank_is_solved_and_the_digits_are_written_over_the_dots() {
    assert_blanks_filled(None, |_| Put::Text(".".into()));
}

#[test]
fn pencil_marks_in_blank_cells_are_blanks_with_candidates() {
    assert_blanks_filled(None, |i| match i % 5 {
        0 => Put::Text("123".into()),
        1 => Put::Text("1 2 3".into()),
        2 => Put::Text("4,6,8".into()),
        3 => Put::Number(1279.0),
        _ => Put::Blank,
    });
}

/// A 16x16 written in an alphabet: the value `v` of the puzzle shown by
/// `show(v)`; solved, and the copy writes every solved cell the same way.
fn assert_sixteen_solved(show: impl Fn(u8) -> Put, read: impl Fn(&Data) -> Option<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.xlsx");
    let puzzle: Grid = SIXTEEN.parse().unwrap();
    build(&input, &puzzle, None, |_, d| match d {
        0 => Put::Blank,
        d => show(d),
    });
    let (recs, out) = solve(&input);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0].status, "solved", "{recs:?}");
    assert_eq!(recs[0].range.as_deref(), Some("C3:R18"));
    assert_eq!(recs[0].givens, Some(puzzle.givens()));
    let cells: Vec<u8> = copy_values(&out, 16)
        .iter()
        .enumerate()
        .map(|(i, v)| read(v).unwrap_or_else(|| panic!("cell {i} of the copy: {v:?}")))
        .collect();
    let written = Grid::from_cells(BoxShape::new(4, 4).unwrap(), cells).unwrap();
    assert!(written.solves(&puzzle), "{}", written.to_line());
}

/// A copy's cell holding one letter whose first letter is `a` (`b'A'` or
/// `b'a'`): the letter's place in the alphabet, `a` being 0. A letter of
/// the other case is no digit here.
fn letter(d: &Data, a: u8) -> Option<u8> {
    match d {
        Data::String(s) if s.len() == 1 => s
            .bytes()
            .next()
            .filter(|&c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == (a == b'A'))
            .map(|c| c - a),
        _ => None,
    }
}

#[test]
fn sixteen_written_1_to_9_then_a_to_g_is_solved_in_the_same_letters() {
    // Upper case, then lower case: the solved cells take the grid's case.
    for a in [b'A', b'a'] {
        assert_sixteen_solved(
            |d| match d {
                1..=9 => Put::Number(f64::from(d)),
                d => Put::Text(char::from(a + d - 10).to_string()),
            },
            |v| match (number(v), letter(v, a)) {
                (Some(n), _) if (1.0..=9.0).contains(&n) => Some(n as u8),
                (_, Some(k)) if k <= 6 => Some(k + 10),
                _ => None,
            },
        );
    }
}

#[test]
fn sixteen_written_0_to_9_then_a_to_f_is_solved_in_the_same_alphabet() {
    for a in [b'A', b'a'] {
        assert_sixteen_solved(
            |d| match d {
                1..=10 => Put::Number(f64::from(d - 1)),
                d => Put::Text(char::from(a + d - 11).to_string()),
            },
            |v| match (number(v), letter(v, a)) {
                (Some(n), _) if (0.0..=9.0).contains(&n) => Some(n as u8 + 1),
                (_, Some(k)) if k <= 5 => Some(k + 11),
                _ => None,
            },
        );
    }
}

#[test]
fn letter_out_of_reach_in_a_lettered_sixteen_is_named_with_the_alphabet() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.xlsx");
    let puzzle: Grid = SIXTEEN.parse().unwrap();
    build(&input, &puzzle, None, |i, d| match d {
        0 if i == 3 => Put::Text("Z".into()),
        0 => Put::Blank,
        1..=9 => Put::Number(f64::from(d)),
        d => Put::Text(char::from(b'A' + d - 10).to_string()),
    });
    let o = run(&["check", "--json", input.to_str().unwrap()]);
    let recs = records(&o);
    assert_eq!(recs[0].status, "invalid", "{recs:?}");
    let error = recs[0].error.as_deref().unwrap_or_default();
    assert!(
        error.contains("F3 holds \"Z\", not a digit 1-9, A-G"),
        "{error}"
    );
}

#[test]
fn a_clash_in_a_lettered_sixteen_names_the_letter_as_the_grid_writes_it() {
    // Row 1 starts with D (13); a second D at F3 clashes with it. The
    // message names the letter in the grid's case, not the number 13.
    for a in [b'A', b'a'] {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.xlsx");
        let puzzle: Grid = SIXTEEN.parse().unwrap();
        let show = |d: u8| match d {
            1..=9 => Put::Number(f64::from(d)),
            d => Put::Text(char::from(a + d - 10).to_string()),
        };
        build(&input, &puzzle, None, |i, d| match d {
            0 if i == 3 => show(13),
            0 => Put::Blank,
            d => show(d),
        });
        let o = run(&["check", "--json", input.to_str().unwrap()]);
        let recs = records(&o);
        assert_eq!(recs[0].status, "invalid", "{recs:?}");
        let error = recs[0].error.as_deref().unwrap_or_default();
        let d = char::from(a + 3);
        assert!(
            error.contains(&format!("{d} twice in row 3 (C3, F3)")),
            "{error}"
        );
        // explain names it the same way (with the sheet's row).
        let o = run(&["explain", input.to_str().unwrap()]);
        let text =
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
        assert!(
            text.contains(&format!("{d} twice in row 3 (C3, F3)")),
            "{text}"
        );
    }
}

#[test]
fn no_grid_from_unreadable_values_names_the_square_and_the_cells() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.xlsx");
    let puzzle: Grid = EASY.parse().unwrap();
    // The givens of the first rows written as words: more than a quarter
    // of the filled cells are not digits.
    build(&input, &puzzle, None, |i, d| match d {
        0 => Put::Blank,
        d if i < 45 => Put::Text(format!("n{d}")),
        d => Put::Number(f64::from(d)),
    });
    let o = run(&["check", "--json", input.to_str().unwrap()]);
    let recs = records(&o);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0].status, "no-grid", "{recs:?}");
    let error = recs[0].error.as_deref().unwrap_or_default();
    assert!(
        error.starts_with("bordered 9x9 at C3:K11 not taken: "),
        "{error}"
    );
    assert!(
        error.contains("of 30 filled cells are not digits 1-9")
            && error.contains("C3 holds \"n5\", D3 holds \"n3\""),
        "{error}"
    );
    // The human line says it too.
    let o = run(&["check", input.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("not taken"), "{text}");
}

#[test]
fn lettered_sixteen_solved_again_from_its_own_copy_keeps_its_alphabet() {
    for a in [b'A', b'a'] {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.xlsx");
        let puzzle: Grid = SIXTEEN.parse().unwrap();
        build(&input, &puzzle, None, |_, d| match d {
            0 => Put::Blank,
            1..=10 => Put::Number(f64::from(d - 1)),
            d => Put::Text(char::from(a + d - 11).to_string()),
        });
        let (_, out) = solve(&input);
        let first = copy_values(&out, 16);
        let again = dir.path().join("again.xlsx");
        let o = run(&[
            out.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
            "--json",
        ]);
        let recs = records(&o);
        assert_eq!(recs[0].status, "solved", "{recs:?}");
        assert_eq!(copy_values(&again, 16), first);
    }
}

#[test]
fn no_grid_names_a_long_bordered_table_once_not_once_per_row() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.xlsx");
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet().set_name("Table").unwrap();
    let thin = Format::new().set_border(FormatBorder::Thin);
    for r in 0..30u32 {
        for c in 0..9u16 {
            ws.write_string_with_format(r, c, format!("w{r}"), &thin)
                .unwrap();
        }
    }
    wb.save(&input).unwrap();
    let o = run(&["check", "--json", input.to_str().unwrap()]);
    let recs = records(&o);
    assert_eq!(recs[0].status, "no-grid", "{recs:?}");
    let error = recs[0].error.as_deref().unwrap_or_default();
    assert!(
        error.starts_with("bordered 9x9 at A1:I9 not taken: none of its 81 filled cells"),
        "{error}"
    );
    assert!(error.contains("A1 holds \"w0\""), "{error}");
    assert!(!error.contains("A2:I10"), "{error}");
    assert!(error.contains("A10:I18"), "the next table square: {error}");
}
