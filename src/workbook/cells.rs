//! What a grid cell holds, and the alphabet a grid writes its digits in:
//! a sheet value classified ([`Value`]) and read as a [`Cell`].

use calamine::Data;

/// What one grid cell holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Nothing (or only spaces).
    Blank,
    /// A digit of the puzzle.
    Given(u8),
    /// A digit an earlier xlsudoku run recorded writing, still in its blue
    /// italics: blank for the puzzle, to be replaced.
    Filled(u8),
    /// Candidate letters an earlier `--logic-only` run recorded writing,
    /// still in its blue italics: blank for the puzzle, to be replaced.
    FilledText(String),
    /// A blank written as something, as the cell shows it: `0` (also when
    /// a number format hides it), `.`, or pencil marks (candidates such as
    /// `"123"`, `"1 2 3"` or `"1,2,3"`). Blank for the puzzle; the
    /// solution's digit replaces it.
    Marked(String),
    /// Anything that is not a digit of the grid, as the cell shows it (or,
    /// for a value that cannot be read, as the file holds it).
    Bad(String),
    /// A formula without a cached value that is not a constant: its text
    /// (without `=`). Never blank, never written over.
    Formula(String),
}

impl Cell {
    /// The digit of a given; 0 (blank for the puzzle) for anything else.
    pub fn given(&self) -> u8 {
        match self {
            Cell::Given(d) => *d,
            _ => 0,
        }
    }
}

/// How a grid writes its digits, decided per grid from the symbols in it
/// (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symbols {
    /// Numbers `1..=side`, as numbers or as text.
    #[default]
    Numbers,
    /// `1`-`9`, then the letters `A`, `B`, … for 10, 11, … (a 16x16's
    /// `1`-`9`, `A`-`G`); numbers `10..=side` are read too. Sides 10 to 35.
    DigitsThenLetters,
    /// `0`-`9`, then the letters `A`, `B`, … as the grid's symbols in order
    /// (a 16x16's `0`-`9`, `A`-`F`): `0` is the digit 1, `F` the digit 16.
    /// Sides 11 to 35.
    ZeroThenLetters,
}

/// How one digit is written in a grid's [`Symbols`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbol {
    /// As this number.
    Number(u32),
    /// As this letter (text).
    Letter(char),
}

impl std::fmt::Display for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Symbol::Number(n) => write!(f, "{n}"),
            Symbol::Letter(c) => write!(f, "{c}"),
        }
    }
}

impl Symbols {
    /// How the digit `digit` (`1..=side`) is written in this alphabet.
    ///
    /// ```
    /// use xlsudoku::workbook::{Symbol, Symbols};
    /// assert_eq!(Symbols::Numbers.symbol(12), Symbol::Number(12));
    /// assert_eq!(Symbols::DigitsThenLetters.symbol(9), Symbol::Number(9));
    /// assert_eq!(Symbols::DigitsThenLetters.symbol(16), Symbol::Letter('G'));
    /// assert_eq!(Symbols::ZeroThenLetters.symbol(1), Symbol::Number(0));
    /// assert_eq!(Symbols::ZeroThenLetters.symbol(16), Symbol::Letter('F'));
    /// ```
    pub fn symbol(self, digit: u8) -> Symbol {
        let letter = |k: u8| Symbol::Letter(char::from(b'A' + k));
        match self {
            Symbols::Numbers => Symbol::Number(u32::from(digit)),
            Symbols::DigitsThenLetters if digit <= 9 => Symbol::Number(u32::from(digit)),
            Symbols::DigitsThenLetters => letter(digit.saturating_sub(10).min(25)),
            Symbols::ZeroThenLetters if digit <= 10 => {
                Symbol::Number(u32::from(digit.saturating_sub(1)))
            }
            Symbols::ZeroThenLetters => letter(digit.saturating_sub(11).min(25)),
        }
    }

    /// The symbols of a grid of side `side`, in words: `1-9`, `1-16`,
    /// `1-9, A-G`, `0-9, A-F`.
    pub fn describe(self, side: usize) -> String {
        let digit = side.min(255) as u8;
        match (self, self.symbol(digit)) {
            (Symbols::Numbers, _) => format!("1-{side}"),
            (_, Symbol::Letter('A')) => format!("{}-9, A", self.symbol(1)),
            (_, last) => format!("{}-9, A-{last}", self.symbol(1)),
        }
    }

    /// The digit a value stands for in this alphabet, if any.
    pub(super) fn digit(self, v: &Value, side: usize) -> Option<u8> {
        let letters = |first: usize| {
            letter_index(v)
                .map(|k| first + usize::from(k))
                .filter(|&d| d <= side)
                .map(|d| d as u8)
        };
        match self {
            Symbols::Numbers => is_digit(v, side),
            Symbols::DigitsThenLetters => is_digit(v, side).or_else(|| letters(10)),
            Symbols::ZeroThenLetters => match v {
                Value::Whole(n, _) if (0..=9).contains(n) => Some(*n as u8 + 1),
                Value::Whole(..) => None,
                _ => letters(11),
            },
        }
    }

    /// The alphabet the values of one grid are written in (blue-italic
    /// cells, an earlier run's writing, left out). Letters count only in a
    /// grid larger than 9x9, and only those the `1`-`9`, `A`… alphabet
    /// reaches (up to `G` in a 16x16; others are bad values). With such
    /// letters: `0` together with letters no further than the `0`-based
    /// alphabet reaches (`F` in a 16x16) and no number above 9 means
    /// [`Symbols::ZeroThenLetters`], anything else
    /// [`Symbols::DigitsThenLetters`]. Without: [`Symbols::Numbers`].
    pub(super) fn of<'a>(values: impl Iterator<Item = &'a Value>, side: usize) -> Symbols {
        if !(10..=35).contains(&side) {
            return Symbols::Numbers;
        }
        let (mut zero, mut above_nine, mut last_letter) = (false, false, None::<usize>);
        for v in values {
            match v {
                Value::Whole(0, _) => zero = true,
                Value::Whole(n, _) if *n > 9 => above_nine = true,
                _ => {
                    if let Some(k) = letter_index(v).map(usize::from) {
                        if 10 + k <= side {
                            last_letter = last_letter.max(Some(k));
                        }
                    }
                }
            }
        }
        match last_letter {
            None => Symbols::Numbers,
            Some(last) if zero && !above_nine && 11 + last <= side => Symbols::ZeroThenLetters,
            Some(_) => Symbols::DigitsThenLetters,
        }
    }
}

/// What a value looks like, before knowing the grid's side.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value {
    Empty,
    /// A whole number (from a number or from text).
    Whole(i64, String),
    /// Anything else, as shown.
    Other(String),
}

pub(super) fn number_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

pub(super) fn classify(data: Option<&Data>) -> Value {
    let from_float = |v: f64| {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            Value::Whole(v as i64, number_text(v))
        } else {
            Value::Other(number_text(v))
        }
    };
    match data {
        None | Some(Data::Empty) => Value::Empty,
        Some(Data::Int(i)) => Value::Whole(*i, i.to_string()),
        Some(Data::Float(f)) => from_float(*f),
        Some(Data::DateTime(d)) => from_float(d.as_f64()),
        Some(Data::String(s)) => {
            let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
            if t.is_empty() {
                Value::Empty
            } else if let Ok(v) = t.parse::<i64>() {
                Value::Whole(v, s.clone())
            } else if let Some(v) = t
                .parse::<f64>()
                .ok()
                .filter(|v| v.fract() == 0.0 && v.abs() < 1e15)
            {
                Value::Whole(v as i64, s.clone())
            } else {
                Value::Other(s.clone())
            }
        }
        Some(Data::Bool(b)) => Value::Other(if *b { "TRUE" } else { "FALSE" }.into()),
        Some(Data::Error(e)) => Value::Other(e.to_string()),
        Some(Data::DateTimeIso(s) | Data::DurationIso(s)) => Value::Other(s.clone()),
    }
}

pub(super) fn is_digit(v: &Value, side: usize) -> Option<u8> {
    match v {
        Value::Whole(n, _) if (1..=side as i64).contains(n) => Some(*n as u8),
        _ => None,
    }
}

/// True for text an earlier `--logic-only` run writes as candidates: the
/// letters `a-z`, `A-Z`, then `0-9`, `@`, `$` (for sides up to 64), as text.
pub(super) fn is_candidate_text(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '@' || c == '$')
}

/// The letter a value is, `A` (or `a`) being 0: text holding one ASCII
/// letter, spaces trimmed.
pub(super) fn letter_index(v: &Value) -> Option<u8> {
    let Value::Other(text) = v else {
        return None;
    };
    let mut chars = text
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}')
        .chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase() as u8 - b'A'),
        _ => None,
    }
}

/// For a value that is one letter: whether it is lower case.
pub(super) fn letter_case(v: &Value) -> Option<bool> {
    letter_index(v)?;
    let Value::Other(text) = v else {
        return None;
    };
    Some(text.chars().any(|c| c.is_ascii_lowercase()))
}

/// True for a blank written as something: `0`, `.`, or pencil marks (in a
/// grid of side 9 or less: two or more digits `1..=side` in increasing
/// order, together as in `23` or `123`, or separated by spaces or commas;
/// in a larger grid `12` may be a digit, so there are no marks).
pub(super) fn is_blank_mark(v: &Value, side: usize) -> bool {
    let text = match v {
        Value::Whole(0, _) => return true,
        Value::Whole(_, text) | Value::Other(text) => text,
        Value::Empty => return false,
    };
    let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
    if text == "." {
        return true;
    }
    if side > 9 {
        return false;
    }
    let is_separator = |c: char| c.is_whitespace() || c == '\u{a0}' || c == ',';
    let marks: Vec<char> = text.chars().filter(|&c| !is_separator(c)).collect();
    let top = char::from(b'0' + side as u8);
    marks.len() >= 2
        && marks.iter().all(|&c| ('1'..=top).contains(&c))
        && marks.windows(2).all(|w| w[0] < w[1])
}

/// The cell a grid position holds, given its value, whether it is an
/// earlier run's writing (recorded in the copy and still blue italic) and
/// the grid's alphabet.
pub(super) fn grid_cell(value: Value, earlier: bool, side: usize, symbols: Symbols) -> Cell {
    if let Some(d) = symbols.digit(&value, side) {
        return if earlier {
            Cell::Filled(d)
        } else {
            Cell::Given(d)
        };
    }
    match value {
        Value::Empty => Cell::Blank,
        Value::Other(text) if earlier && is_candidate_text(&text) => Cell::FilledText(text),
        v if is_blank_mark(&v, side) => match v {
            Value::Whole(_, text) | Value::Other(text) => Cell::Marked(text),
            Value::Empty => Cell::Blank,
        },
        Value::Whole(_, text) | Value::Other(text) => Cell::Bad(text),
    }
}
