use super::cells::*;
use super::earlier::*;
use super::judge::*;
use super::note::*;
use super::*;
use crate::address::CellRef;
use calamine::Data;

#[test]
fn a_note_is_known_by_its_status_word_and_colon() {
    for note in [
        "solved in 4.65 ms · difficulty SE 1.2 (easy) · steps: ii (letters: xlsudoku techniques)",
        "gave up after 3.00 ms · steps: i! (letters: xlsudoku techniques)",
        // As notes of earlier versions read.
        "solved: 4.65 ms · SE 1.2 · easy",
        "gave up: i!-3 ms",
        "multiple solutions: more than one (1 ms)",
        "timeout: (5 s)",
        "solved",
        // As notes of earlier versions read.
        "solved iiiiiiii 0.41 ms rating 1.2",
    ] {
        assert!(reads_as_note(note), "{note}");
    }
    for other in [
        "checked by Ann",
        "solved!",
        "Solved: x",
        "solvedx: 1 ms",
        "",
    ] {
        assert!(!reads_as_note(other), "{other}");
    }
}

#[test]
fn values_classify_numbers_and_text() {
    assert_eq!(
        classify(Some(&Data::Float(5.0))),
        Value::Whole(5, "5".into())
    );
    assert_eq!(
        classify(Some(&Data::Float(3.5))),
        Value::Other("3.5".into())
    );
    assert_eq!(
        classify(Some(&Data::String("\u{a0} 7 ".into()))),
        Value::Whole(7, "\u{a0} 7 ".into())
    );
    assert_eq!(classify(Some(&Data::String("  ".into()))), Value::Empty);
    assert_eq!(
        classify(Some(&Data::String("5.0".into()))),
        Value::Whole(5, "5.0".into())
    );
    assert_eq!(
        classify(Some(&Data::String("inf".into()))),
        Value::Other("inf".into())
    );
    assert_eq!(
        classify(Some(&Data::String("x".into()))),
        Value::Other("x".into())
    );
    assert_eq!(
        classify(Some(&Data::Bool(true))),
        Value::Other("TRUE".into())
    );
    assert_eq!(classify(None), Value::Empty);
}

#[test]
fn candidate_text_covers_the_letters_of_large_grids() {
    assert!(is_candidate_text("abi"));
    assert!(is_candidate_text("AZ09@$"));
    assert!(!is_candidate_text(""));
    assert!(!is_candidate_text("a b"));
    assert!(!is_candidate_text("solved: 1 ms"));
}

#[test]
fn grid_cells_by_side_and_font() {
    let v = |n: i64| Value::Whole(n, n.to_string());
    assert_eq!(grid_cell(v(9), false, 9, Symbols::Numbers), Cell::Given(9));
    assert_eq!(
        grid_cell(v(12), false, 9, Symbols::Numbers),
        Cell::Marked("12".into())
    );
    assert_eq!(
        grid_cell(v(21), false, 9, Symbols::Numbers),
        Cell::Bad("21".into())
    );
    assert_eq!(
        grid_cell(v(12), false, 16, Symbols::Numbers),
        Cell::Given(12)
    );
    // `0` is a blank written as a digit, not a bad value.
    assert_eq!(
        grid_cell(v(0), false, 9, Symbols::Numbers),
        Cell::Marked("0".into())
    );
    assert_eq!(grid_cell(v(4), true, 9, Symbols::Numbers), Cell::Filled(4));
    assert_eq!(
        grid_cell(Value::Other("abd".into()), true, 9, Symbols::Numbers),
        Cell::FilledText("abd".into())
    );
    assert_eq!(
        grid_cell(Value::Other("x".into()), false, 9, Symbols::Numbers),
        Cell::Bad("x".into())
    );
    assert_eq!(
        grid_cell(Value::Empty, true, 9, Symbols::Numbers),
        Cell::Blank
    );
}

fn text(t: &str) -> Value {
    classify(Some(&Data::String(t.into())))
}

#[test]
fn blanks_written_as_zero_dot_or_pencil_marks() {
    let cell = |v: Value| grid_cell(v, false, 9, Symbols::Numbers);
    let marked = |t: &str| Cell::Marked(t.into());
    assert_eq!(cell(classify(Some(&Data::Float(0.0)))), marked("0"));
    assert_eq!(cell(text(" . ")), marked(" . "));
    assert_eq!(cell(text("0")), marked("0"));
    for marks in ["123", "1 2 3", "1,2,3", "2\n5 9", "1 9", "1, 2"] {
        assert_eq!(cell(text(marks)), marked(marks), "{marks:?}");
    }
    // Two or more increasing digits together are marks (numbers or
    // text alike).
    assert_eq!(cell(classify(Some(&Data::Float(123.0)))), marked("123"));
    assert_eq!(cell(classify(Some(&Data::Int(12)))), marked("12"));
    assert_eq!(cell(text("23")), marked("23"));
    // Not increasing, repeated, out of range, other characters: bad.
    for bad in [
        "21", "2 1", "1 1", "11", "10", "1a", "1-3", "..", "-", "1 0",
    ] {
        assert_eq!(cell(text(bad)), Cell::Bad(bad.into()), "{bad:?}");
    }
    // Pencil marks only up to side 9: in a 16x16 "12" is a digit.
    assert_eq!(
        grid_cell(text("12"), false, 16, Symbols::Numbers),
        Cell::Given(12)
    );
    assert_eq!(
        grid_cell(text("1 2"), false, 16, Symbols::Numbers),
        Cell::Bad("1 2".into())
    );
    // Letters in a 9x9 stay bad.
    assert_eq!(cell(text("A")), Cell::Bad("A".into()));
}

fn symbols_of(values: &[Value], side: usize) -> Symbols {
    Symbols::of(values.iter(), side)
}

#[test]
fn letters_all_in_lower_case_make_a_lower_case_grid() {
    let lowercase = |vs: &[Value]| {
        let at: Vec<(CellRef, Value)> =
            vs.iter().map(|v| (CellRef::new(0, 0), v.clone())).collect();
        tally(&at, 16).lowercase
    };
    let n = |k: i64| Value::Whole(k, k.to_string());
    assert!(lowercase(&[n(1), text("a"), text("g")]));
    assert!(lowercase(&[n(0), text("f"), text(" b ")]));
    assert!(!lowercase(&[n(1), text("a"), text("G")]), "mixed: upper");
    assert!(!lowercase(&[n(1), text("A")]));
    assert!(!lowercase(&[n(1), n(9)]), "no letters");
    // A letter that is not a digit of the alphabet does not count.
    assert!(lowercase(&[n(1), text("a"), text("Z")]));
}

#[test]
fn alphabet_is_decided_per_grid_from_its_symbols() {
    let n = |k: i64| Value::Whole(k, k.to_string());
    let (a, f, g) = (text("A"), text("f"), text("G"));
    use Symbols::*;
    assert_eq!(symbols_of(&[n(1), n(16)], 16), Numbers);
    assert_eq!(symbols_of(&[n(1), a.clone()], 16), DigitsThenLetters);
    assert_eq!(symbols_of(&[n(1), g.clone()], 16), DigitsThenLetters);
    assert_eq!(symbols_of(&[n(0), f.clone()], 16), ZeroThenLetters);
    // `0` with a `G`: letters go on after 9 and `0` is a blank.
    assert_eq!(
        symbols_of(&[n(0), f.clone(), g.clone()], 16),
        DigitsThenLetters
    );
    // `0` with a number above 9: not the 0-based alphabet.
    assert_eq!(symbols_of(&[n(0), n(12), a.clone()], 16), DigitsThenLetters);
    // Without letters `0` is a blank in numbers.
    assert_eq!(symbols_of(&[n(0), n(5)], 16), Numbers);
    // Letters beyond reach, or in a 9x9: numbers (the letters are bad).
    assert_eq!(symbols_of(&[n(1), text("Z")], 16), Numbers);
    assert_eq!(
        symbols_of(&[n(1), a.clone(), text("Z")], 16),
        DigitsThenLetters
    );
    assert_eq!(
        symbols_of(&[n(0), a.clone(), text("Z")], 16),
        ZeroThenLetters
    );
    assert_eq!(symbols_of(&[n(0), a.clone()], 9), Numbers);
    // 12x12: `1`-`9`, `A`-`C`; 25x25: `1`-`9`, `A`-`P`.
    assert_eq!(symbols_of(&[text("C")], 12), DigitsThenLetters);
    assert_eq!(symbols_of(&[text("P")], 25), DigitsThenLetters);

    let cell = |v: &Value, s: Symbols| grid_cell(v.clone(), false, 16, s);
    assert_eq!(cell(&g, DigitsThenLetters), Cell::Given(16));
    assert_eq!(cell(&a, DigitsThenLetters), Cell::Given(10));
    assert_eq!(cell(&n(0), DigitsThenLetters), Cell::Marked("0".into()));
    assert_eq!(cell(&n(0), ZeroThenLetters), Cell::Given(1));
    assert_eq!(cell(&n(9), ZeroThenLetters), Cell::Given(10));
    assert_eq!(cell(&f, ZeroThenLetters), Cell::Given(16));
    assert_eq!(cell(&g, ZeroThenLetters), Cell::Bad("G".into()));
    assert_eq!(cell(&n(12), ZeroThenLetters), Cell::Bad("12".into()));
    assert_eq!(DigitsThenLetters.describe(16), "1-9, A-G");
    assert_eq!(ZeroThenLetters.describe(16), "0-9, A-F");
    assert_eq!(Numbers.describe(9), "1-9");
    assert_eq!(DigitsThenLetters.describe(10), "1-9, A");
    for d in 1..=16 {
        for s in [Numbers, DigitsThenLetters, ZeroThenLetters] {
            let shown = match s.symbol(d) {
                Symbol::Number(k) => n(i64::from(k)),
                Symbol::Letter(c) => text(&c.to_string()),
            };
            assert_eq!(s.digit(&shown, 16), Some(d), "{s:?} {d}");
        }
    }
}

fn found(cells: Vec<Cell>) -> FoundGrid {
    FoundGrid {
        range: "B2:E5".parse().unwrap(),
        shape: BoxShape::new(2, 2).unwrap(),
        symbols: Symbols::Numbers,
        lowercase: false,
        cells,
        note_at: CellRef::new(5, 1),
        earlier_note: false,
        formulas: Vec::new(),
        merged: Vec::new(),
        note_apart: false,
        answer: AnswerPlace::InGrid,
        earlier_answer: None,
        bold: Vec::new(),
    }
}

#[test]
fn puzzle_keeps_givens_only_and_bad_cells_have_addresses() {
    let mut cells = vec![Cell::Blank; 16];
    cells[0] = Cell::Given(1);
    cells[5] = Cell::Filled(3);
    cells[6] = Cell::Bad("x".into());
    cells[15] = Cell::Given(4);
    let g = found(cells);
    assert_eq!(g.puzzle().to_line(), "1..............4");
    assert_eq!(g.bad_cells(), vec![(CellRef::new(2, 3), "x".to_string())]);
    assert_eq!(g.cell_ref(15).to_string(), "E5");
}

#[test]
fn merged_rows_of_a_column_are_joined_and_found() {
    let m = MergedRows(vec![(2, 4), (9, 9)]);
    assert!(!m.contains(1) && m.contains(2) && m.contains(4) && !m.contains(5));
    assert!(m.contains(9) && !m.contains(10));
    assert!(!MergedRows(Vec::new()).contains(0));
}

#[test]
fn forced_range_must_be_a_square_with_a_shape() {
    let p = Path::new("t.xlsx");
    let r = |s: &str| s.parse::<CellRange>().unwrap();
    assert!(check_range(p, r("C3:K11"), None).is_ok());
    assert!(matches!(
        check_range(p, r("C3:K10"), None),
        Err(ReadError::BadRange { .. })
    ));
    assert!(check_range(p, r("A1:G7"), None).is_err());
    let six = BoxShape::new(2, 3).unwrap();
    assert_eq!(check_range(p, r("A1:F6"), Some(six)).unwrap(), six);
    assert!(check_range(p, r("A1:I9"), Some(six)).is_err());
    let msg = check_range(p, r("A1:G7"), None).unwrap_err().to_string();
    assert!(msg.contains("t.xlsx") && msg.contains("A1:G7"), "{msg}");
}
