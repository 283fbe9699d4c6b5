//! Whether a square's values can be a puzzle: the digits, blank marks and
//! other values it holds, bordered label strips beside it, and why a
//! square is turned down.

use crate::address::{CellRange, CellRef};
use crate::grid::{BoxShape, Grid};

use super::cells::{classify, is_blank_mark, letter_case, letter_index, Cell, Symbols, Value};
use super::find::read_grid;
use super::{plausible, reader};

/// The values of a square in reading order with their addresses; cells in
/// blue italics (an earlier run's writing) read as empty.
pub(super) fn square_values(sheet: &reader::RawSheet, range: CellRange) -> Vec<(CellRef, Value)> {
    let mut values = Vec::with_capacity((range.rows() * range.cols()) as usize);
    for r in range.start.row..=range.end.row {
        for c in range.start.col..=range.end.col {
            let value = if sheet.earlier.contains(&(r, c)) {
                Value::Empty
            } else if let Some(reader::Unread::Formula(f)) = sheet.unread.get(&(r, c)) {
                // A formula without a value is most likely a given whose
                // value is not known yet: it counts as a digit.
                Value::Whole(1, f.clone())
            } else {
                classify(sheet.values.get_value((r, c)))
            };
            values.push((CellRef::new(r, c), value));
        }
    }
    values
}

/// What the puzzle test counts in a square.
pub(super) struct Tally {
    pub(super) symbols: Symbols,
    /// Some value is a letter digit, and every such one is lower case.
    pub(super) lowercase: bool,
    /// Digits of the grid's alphabet.
    pub(super) digits: usize,
    /// Values that are neither digits nor blank marks, with their cells.
    pub(super) others: Vec<(CellRef, String)>,
}

pub(super) fn tally(values: &[(CellRef, Value)], side: usize) -> Tally {
    let symbols = Symbols::of(values.iter().map(|(_, v)| v), side);
    let mut t = Tally {
        symbols,
        lowercase: false,
        digits: 0,
        others: Vec::new(),
    };
    let (mut lower, mut upper) = (false, false);
    let mut pairs: Vec<(CellRef, String)> = Vec::new();
    for (at, v) in values {
        match v {
            Value::Empty => {}
            v if symbols.digit(v, side).is_some() => {
                t.digits += 1;
                match letter_case(v) {
                    Some(true) => lower = true,
                    Some(false) => upper = true,
                    None => {}
                }
            }
            Value::Whole(n, text) if (10..100).contains(n) && is_blank_mark(v, side) => {
                pairs.push((*at, text.clone()));
            }
            v if is_blank_mark(v, side) => {}
            Value::Whole(_, text) | Value::Other(text) => t.others.push((*at, text.clone())),
        }
    }
    // Two digits together (`12`) are pencil marks, unless the square also
    // holds numbers above its side that are none (`10`): then they are
    // more likely the values of a larger grid, and count against this one.
    if t.others
        .iter()
        .any(|(_, text)| text.trim().parse::<i64>().is_ok_and(|n| n > side as i64))
    {
        t.others.extend(pairs);
        t.others.sort_by_key(|(at, _)| (at.row, at.col));
    }
    t.lowercase = lower && !upper;
    t
}

/// True for a value that is empty or may be a digit in some alphabet of
/// the side (a whole `0..=side` or a letter).
pub(super) fn maybe_digit(v: &Value, side: usize) -> bool {
    match v {
        Value::Empty => true,
        Value::Whole(n, _) => (0..=side as i64).contains(n),
        Value::Other(_) => letter_index(v).is_some(),
    }
}

/// The puzzle test for a candidate square (see the module docs): `None`
/// when its values cannot be a puzzle, else a score for comparing squares
/// that overlap: digits count one, anything else minus two; blanks and
/// blank marks (`0`, `.`, pencil marks) count nothing.
pub(super) fn judge_values(sheet: &reader::RawSheet, range: CellRange, side: usize) -> Option<i64> {
    // A quick look first: values that are no digit in any alphabet and no
    // blank mark; more than a quarter of the square of them ends the test
    // early (a large table of words or amounts).
    let mut certain_others = 0usize;
    for r in range.start.row..=range.end.row {
        for c in range.start.col..=range.end.col {
            if sheet.earlier.contains(&(r, c)) {
                continue;
            }
            if let Some(reader::Unread::Formula(_)) = sheet.unread.get(&(r, c)) {
                continue; // most likely a given whose value is not known yet
            }
            let v = classify(sheet.values.get_value((r, c)));
            if !maybe_digit(&v, side) && !is_blank_mark(&v, side) {
                certain_others += 1;
                if certain_others * 4 > side * side {
                    return None;
                }
            }
        }
    }
    let t = tally(&square_values(sheet, range), side);
    let others = t.others.len();
    if t.digits == 0 || others * 4 > t.digits + others {
        return None;
    }
    if plausible::not_a_puzzle(sheet, range, side).is_some() {
        return None;
    }
    Some(t.digits as i64 - 2 * others as i64)
}

/// True when a row or column of cells beside a grid of side `side` holds
/// labels rather than puzzle cells: every cell filled, and either the
/// numbers `1..=side` in order (coordinates) or at most a quarter of them
/// digits of the grid (letters `A`-`I`, words, row or column sums). Reads
/// the cells one by one and stops as soon as the answer is no.
pub(super) fn is_label_strip(sheet: &reader::RawSheet, strip: CellRange, side: usize) -> bool {
    let len = (strip.rows() * strip.cols()) as usize;
    let (mut in_order, mut digits) = (true, 0usize);
    let mut k = 0i64;
    for r in strip.start.row..=strip.end.row {
        for c in strip.start.col..=strip.end.col {
            k += 1;
            if sheet.earlier.contains(&(r, c)) {
                return false;
            }
            let v = classify(sheet.values.get_value((r, c)));
            match &v {
                Value::Empty => return false,
                Value::Whole(n, _) => {
                    in_order &= *n == k;
                    // Letters and words are labels; numbers of the grid's
                    // range are its digits unless they count 1, 2, 3, ….
                    if (1..=side as i64).contains(n) {
                        digits += 1;
                    }
                }
                Value::Other(_) => in_order = false,
            }
            if !in_order && digits * 4 > len {
                return false;
            }
        }
    }
    true
}

/// The test for a square with labels beside it (see
/// [`detect_all`](crate::workbook::detect::detect_all)): its values are a clean puzzle (digits, blanks
/// and blank marks only, no clash) and every strip beside it holds labels.
pub(super) fn judge_labelled(
    sheet: &reader::RawSheet,
    inner: CellRange,
    strips: &[CellRange],
    side: usize,
) -> Option<i64> {
    if !strips.iter().all(|s| is_label_strip(sheet, *s, side)) {
        return None;
    }
    // The first value that is no digit in any alphabet and no blank mark
    // ends the test (a table of words or amounts with a header row).
    for r in inner.start.row..=inner.end.row {
        for c in inner.start.col..=inner.end.col {
            if sheet.earlier.contains(&(r, c)) {
                continue;
            }
            let v = classify(sheet.values.get_value((r, c)));
            if !maybe_digit(&v, side) && !is_blank_mark(&v, side) {
                return None;
            }
        }
    }
    let t = tally(&square_values(sheet, inner), side);
    if t.digits == 0 || !t.others.is_empty() {
        return None;
    }
    if plausible::not_a_puzzle(sheet, inner, side).is_some() {
        return None;
    }
    // A puzzle's givens do not clash (a table of small numbers does).
    let shape = BoxShape::for_side(side)?;
    let cells = read_grid(sheet, inner, shape).2;
    let digits: Vec<u8> = cells.iter().map(Cell::given).collect();
    let grid = Grid::from_cells(shape, digits).ok()?;
    grid.conflicts().is_empty().then_some(t.digits as i64)
}

/// Why the values of a square turned down by [`judge_values`] are no
/// puzzle, naming the first cells that are not digits.
pub(super) fn why_not_a_puzzle(sheet: &reader::RawSheet, range: CellRange, side: usize) -> String {
    let t = tally(&square_values(sheet, range), side);
    let alphabet = t.symbols.describe(side);
    if t.digits == 0 && t.others.is_empty() {
        return "it is empty (or holds only blank marks)".to_string();
    }
    let filled = t.digits + t.others.len();
    if t.digits > 0 && t.others.len() * 4 <= filled {
        if let Some(reason) = plausible::not_a_puzzle(sheet, range, side) {
            return reason;
        }
    }
    let shown: Vec<String> = t
        .others
        .iter()
        .take(3)
        .map(|(at, text)| format!("{at} holds \"{text}\""))
        .collect();
    let more = if t.others.len() > shown.len() {
        ", …"
    } else {
        ""
    };
    if t.digits == 0 {
        format!(
            "none of its {filled} filled cells holds a digit {alphabet} ({}{more})",
            shown.join(", ")
        )
    } else {
        format!(
            "{} of {filled} filled cells are not digits {alphabet}, more than a quarter ({}{more})",
            t.others.len(),
            shown.join(", ")
        )
    }
}
