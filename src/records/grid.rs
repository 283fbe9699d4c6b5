//! The per-grid record an annotated copy carries among its records (the
//! part `xlsudoku/records.xml`, or the zip comment itself when all the
//! records are short: see [`super::part`]): which cells xlsudoku filled
//! (and the style each had before), and where it put the note. A later run recognises its own writing by this record alone,
//! never by the font: a puzzle whose givens happen to be blue italics keeps
//! them.
//!
//! One line per grid, beside the run's stamp line:
//!
//! ```text
//! xlsudoku-grid sheet=Easy%20one range=C3:K11 fills=0f3c… styles=5*12,7,5*38 note=C12:0
//! ```
//!
//! - `sheet`: the sheet name, bytes outside `A-Z a-z 0-9 . _ -` as `%HH`;
//! - `fills`: a bitmap over the grid's cells in reading order, four cells
//!   to a hex digit, the first cell in the digit's highest bit;
//! - `styles`: the style index (`cellXfs` position) each filled cell had
//!   before it was filled, in the same order, runs written `style*count`;
//! - `digits`: what each filled cell was given, in the same order, one
//!   character each: the digit in [`DIGITS`] (`1`–`9`, then `a`… for 10…),
//!   `0` for candidate letters;
//! - `note`: the note's cell and the style index it had before;
//! - `tints` (a hint's copy): each cell the hint coloured and the style
//!   index it had before, `C3:5,D4:7`;
//! - `answer`, `astyles`, `adigits` (`--answers beside` or `at:CELL`): the
//!   square the grid's answer copy was written into, the style index each of
//!   its cells had before (reading order, runs as in `styles`) and what each
//!   was given (as in `digits`; `0` for text or nothing).
//!
//! A line that does not parse is ignored (its cells are then givens, the
//! safe reading).

use std::fmt::Write as _;

use crate::address::{CellRange, CellRef};

/// The characters of the `digits` field: index = the digit written, `0`
/// for candidate letters.
pub const DIGITS: &str = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@$#";

/// How a grid record line ([`GridRecord`]) begins in the copy's records.
pub const GRID_PREFIX: &str = "xlsudoku-grid ";

/// What one grid's edits wrote, given to [`crate::annotate::annotate_with`] through
/// [`crate::annotate::AnnotateOptions::grids`] so that the copy records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridMark {
    /// The sheet's name, as in the workbook.
    pub sheet: String,
    /// The grid's square.
    pub range: CellRange,
    /// The grid cells the edits write a digit or candidate letters into.
    pub filled: Vec<CellRef>,
    /// The cell the note is written into, if any.
    pub note: Option<CellRef>,
    /// The cells the edits colour, their values kept (a hint's fills).
    pub tinted: Vec<CellRef>,
    /// The square the grid's answer copy is written into (`--answers
    /// beside` or `at:CELL`), if any.
    pub answer: Option<CellRange>,
    /// True when this run writes nothing for the grid (its answer copy was
    /// refused): the earlier record of the grid is kept as it is.
    pub keep: bool,
}

/// The answer copy of a grid an earlier run wrote (see
/// [`GridRecord::answer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerRecord {
    /// The square of the copy.
    pub range: CellRange,
    /// The style index each of its cells had before, in reading order.
    pub styles: Vec<u32>,
    /// What each cell was given, in reading order: the digit, or `0` for
    /// text (a letter, candidate letters) or nothing.
    pub digits: Vec<u8>,
}

impl AnswerRecord {
    /// The position of `at` in reading order, when it is in the square.
    fn index(&self, at: CellRef) -> Option<usize> {
        self.range.contains(at).then(|| {
            (at.row - self.range.start.row) as usize * self.range.cols() as usize
                + (at.col - self.range.start.col) as usize
        })
    }

    /// What the copy's cell `at` was given (see [`AnswerRecord::digits`]).
    pub fn digit(&self, at: CellRef) -> Option<u8> {
        self.index(at).and_then(|i| self.digits.get(i).copied())
    }

    /// The style index `at` had before the copy was written into it.
    pub fn style(&self, at: CellRef) -> Option<u32> {
        self.index(at).and_then(|i| self.styles.get(i).copied())
    }
}

/// One grid's record, as read back from a copy's records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridRecord {
    /// The sheet's name.
    pub sheet: String,
    /// The grid's square.
    pub range: CellRange,
    /// Each cell xlsudoku filled, with the style index it had before.
    pub fills: Vec<(CellRef, u32)>,
    /// What each of [`GridRecord::fills`] was given: the digit, or `0` for
    /// candidate letters; `None` when the record does not say.
    pub digits: Option<Vec<u8>>,
    /// The note's cell and the style index it had before.
    pub note: Option<(CellRef, u32)>,
    /// Each cell a hint coloured, with the style index it had before.
    pub tints: Vec<(CellRef, u32)>,
    /// The grid's answer copy, when the run wrote one.
    pub answer: Option<AnswerRecord>,
}

impl GridRecord {
    /// What the record says xlsudoku wrote into `at`: `Some(Some(d))` a
    /// digit (`0`: candidate letters), `Some(None)` a fill of unrecorded
    /// value, `None` no fill.
    pub fn written(&self, at: CellRef) -> Option<Option<u8>> {
        let k = self.fills.iter().position(|(c, _)| *c == at)?;
        Some(self.digits.as_ref().and_then(|d| d.get(k).copied()))
    }

    /// The style index `at` had before xlsudoku filled or coloured it,
    /// when the record lists it as a fill, a hint's colour or a cell of
    /// the answer copy.
    pub fn original_style(&self, at: CellRef) -> Option<u32> {
        self.fills
            .iter()
            .chain(&self.tints)
            .find(|(c, _)| *c == at)
            .map(|(_, s)| *s)
            .or_else(|| self.answer.as_ref().and_then(|a| a.style(at)))
    }

    /// The record as one comment line (without a line break).
    pub fn to_line(&self) -> String {
        let side = self.range.cols() as usize;
        let cells = side * self.range.rows() as usize;
        let mut bits = vec![0u8; cells.div_ceil(4)];
        for (at, _) in &self.fills {
            if self.range.contains(*at) {
                let i = (at.row - self.range.start.row) as usize * side
                    + (at.col - self.range.start.col) as usize;
                bits[i / 4] |= 8 >> (i % 4);
            }
        }
        let mut fills: Vec<(usize, u32, Option<u8>)> = self
            .fills
            .iter()
            .enumerate()
            .filter(|(_, (at, _))| self.range.contains(*at))
            .map(|(k, (at, s))| {
                (
                    (at.row - self.range.start.row) as usize * side
                        + (at.col - self.range.start.col) as usize,
                    *s,
                    self.digits.as_ref().and_then(|d| d.get(k).copied()),
                )
            })
            .collect();
        fills.sort_unstable();
        fills.dedup_by_key(|f| f.0);
        let mut line = format!(
            "{GRID_PREFIX}sheet={} range={} fills=",
            encode_name(&self.sheet),
            self.range
        );
        for b in bits {
            let _ = write!(line, "{b:x}");
        }
        line.push_str(" styles=");
        let digits: Option<String> = fills
            .iter()
            .map(|f| f.2.and_then(|d| DIGITS.chars().nth(usize::from(d))))
            .collect();
        line.push_str(&style_runs(fills.iter().map(|f| f.1)));
        if let Some(d) = digits {
            let _ = write!(line, " digits={d}");
        }
        if let Some((at, s)) = self.note {
            let _ = write!(line, " note={at}:{s}");
        }
        if !self.tints.is_empty() {
            let tints: Vec<String> = self
                .tints
                .iter()
                .map(|(at, s)| format!("{at}:{s}"))
                .collect();
            let _ = write!(line, " tints={}", tints.join(","));
        }
        if let Some(a) = &self.answer {
            let digits: Option<String> = a
                .digits
                .iter()
                .map(|&d| DIGITS.chars().nth(usize::from(d)))
                .collect();
            if let Some(d) = digits {
                let _ = write!(
                    line,
                    " answer={} astyles={} adigits={d}",
                    a.range,
                    style_runs(a.styles.iter().copied())
                );
            }
        }
        line
    }

    /// Parses one comment line; `None` when it is not a well-formed record.
    pub fn parse_line(line: &str) -> Option<GridRecord> {
        let rest = line.strip_prefix(GRID_PREFIX)?;
        let (mut sheet, mut range, mut fills, mut styles, mut note) =
            (None, None, None, None, None);
        let mut digits: Option<Vec<u8>> = None;
        let mut tints = Vec::new();
        let (mut answer, mut astyles, mut adigits) = (None, None, None);
        for field in rest.split(' ').filter(|f| !f.is_empty()) {
            let (key, value) = field.split_once('=')?;
            match key {
                "sheet" => sheet = Some(decode_name(value)?),
                "range" => range = Some(value.parse::<CellRange>().ok()?),
                "fills" => fills = Some(value),
                "styles" => styles = Some(value),
                "digits" => digits = Some(parse_digits(value)?),
                "note" => {
                    let (at, s) = value.split_once(':')?;
                    note = Some((at.parse::<CellRef>().ok()?, s.parse::<u32>().ok()?));
                }
                "tints" => {
                    for pair in value.split(',').filter(|p| !p.is_empty()) {
                        let (at, s) = pair.split_once(':')?;
                        tints.push((at.parse::<CellRef>().ok()?, s.parse::<u32>().ok()?));
                    }
                }
                "answer" => answer = Some(value.parse::<CellRange>().ok()?),
                "astyles" => astyles = Some(value),
                "adigits" => adigits = Some(parse_digits(value)?),
                _ => {} // later versions may add fields
            }
        }
        let (sheet, range, fills, styles) = (sheet?, range?, fills?, styles?);
        let side = range.cols() as usize;
        let cells = side.checked_mul(range.rows() as usize)?;
        if fills.len() != cells.div_ceil(4) {
            return None;
        }
        let styles_list = parse_style_runs(styles, cells)?;
        let answer = match (answer, astyles, adigits) {
            (None, None, None) => None,
            (Some(range), Some(styles), Some(digits)) => {
                let n = (range.rows() as usize).checked_mul(range.cols() as usize)?;
                let styles = parse_style_runs(styles, n)?;
                if styles.len() != n || digits.len() != n {
                    return None;
                }
                Some(AnswerRecord {
                    range,
                    styles,
                    digits,
                })
            }
            _ => return None,
        };
        let mut out = Vec::with_capacity(styles_list.len());
        for (k, ch) in fills.chars().enumerate() {
            let nibble = ch.to_digit(16)?;
            for bit in 0..4 {
                if nibble & (8 >> bit) != 0 {
                    let i = k * 4 + bit;
                    if i >= cells {
                        return None;
                    }
                    let at = range.cell((i / side) as u32, (i % side) as u32);
                    out.push(at);
                }
            }
        }
        if out.len() != styles_list.len() || digits.as_ref().is_some_and(|d| d.len() != out.len()) {
            return None;
        }
        Some(GridRecord {
            sheet,
            range,
            fills: out.into_iter().zip(styles_list).collect(),
            digits,
            note,
            tints,
            answer,
        })
    }
}

/// Style indices as `style*count` runs, comma-separated.
fn style_runs(styles: impl Iterator<Item = u32>) -> String {
    let mut runs: Vec<(u32, usize)> = Vec::new();
    for s in styles {
        match runs.last_mut() {
            Some((last, n)) if *last == s => *n += 1,
            _ => runs.push((s, 1)),
        }
    }
    let runs: Vec<String> = runs
        .into_iter()
        .map(|(s, n)| {
            if n == 1 {
                s.to_string()
            } else {
                format!("{s}*{n}")
            }
        })
        .collect();
    runs.join(",")
}

/// [`style_runs`] read back; `None` past `most` styles or when malformed.
fn parse_style_runs(text: &str, most: usize) -> Option<Vec<u32>> {
    let mut out: Vec<u32> = Vec::new();
    for run in text.split(',').filter(|r| !r.is_empty()) {
        let (s, n) = match run.split_once('*') {
            Some((s, n)) => (s.parse::<u32>().ok()?, n.parse::<usize>().ok()?),
            None => (run.parse::<u32>().ok()?, 1),
        };
        if out.len().saturating_add(n) > most {
            return None;
        }
        out.extend(std::iter::repeat_n(s, n));
    }
    Some(out)
}

/// A `digits` field read back.
fn parse_digits(text: &str) -> Option<Vec<u8>> {
    text.chars()
        .map(|c| DIGITS.find(c).and_then(|i| u8::try_from(i).ok()))
        .collect()
}

/// Every well-formed grid record of a copy's record text
/// ([`record_text`](super::record_text): the records part's lines and the
/// zip comment's).
pub fn parse_grid_records(comment: &[u8]) -> Vec<GridRecord> {
    comment
        .split(|&b| b == b'\n')
        .filter_map(|l| std::str::from_utf8(l).ok())
        .filter_map(|l| GridRecord::parse_line(l.trim_end_matches('\r')))
        .collect()
}

/// The grid records of the workbook `input`, from its records part or its
/// zip comment (none when it is no readable zip archive).
pub fn read_grid_records<R: std::io::Read + std::io::Seek>(input: R) -> Vec<GridRecord> {
    match zip::ZipArchive::new(input) {
        Ok(mut archive) => parse_grid_records(&super::part::record_text(&mut archive)),
        Err(_) => Vec::new(),
    }
}

pub(crate) fn encode_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

pub(crate) fn decode_name(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let range: CellRange = "C3:K11".parse().unwrap();
        let rec = GridRecord {
            sheet: "My sheet %1 é".into(),
            range,
            fills: vec![
                (CellRef::new(2, 3), 5),
                (CellRef::new(2, 4), 5),
                (CellRef::new(10, 10), 7),
            ],
            digits: Some(vec![4, 0, 25]),
            note: Some((CellRef::new(11, 2), 0)),
            tints: vec![(CellRef::new(4, 6), 3), (CellRef::new(5, 6), 0)],
            answer: None,
        };
        let line = rec.to_line();
        assert!(
            line.starts_with("xlsudoku-grid sheet=My%20sheet%20%251%20%C3%A9 range=C3:K11 fills=6")
        );
        assert!(
            line.contains(" styles=5*2,7 digits=40p note=C12:0 tints=G5:3,G6:0"),
            "{line}"
        );
        assert!(!line.contains('\n'));
        assert_eq!(GridRecord::parse_line(&line), Some(rec.clone()));
        let comment = format!("made by hand\nxlsudoku 0.1 input=x\n{line}\n");
        assert_eq!(parse_grid_records(comment.as_bytes()), vec![rec]);
    }

    #[test]
    fn an_answer_copy_reads_back_and_gives_its_styles() {
        let range: CellRange = "A1:D4".parse().unwrap();
        let block: CellRange = "F1:I4".parse().unwrap();
        let rec = GridRecord {
            sheet: "S".into(),
            range,
            fills: Vec::new(),
            digits: Some(Vec::new()),
            note: Some((CellRef::new(4, 0), 0)),
            tints: Vec::new(),
            answer: Some(AnswerRecord {
                range: block,
                styles: [vec![3; 15], vec![0]].concat(),
                digits: (0..16).map(|i| (i % 4) + 1).collect(),
            }),
        };
        let line = rec.to_line();
        assert!(
            line.ends_with(" answer=F1:I4 astyles=3*15,0 adigits=1234123412341234"),
            "{line}"
        );
        assert_eq!(GridRecord::parse_line(&line), Some(rec.clone()));
        assert_eq!(rec.original_style("I4".parse().unwrap()), Some(0));
        assert_eq!(rec.original_style("F1".parse().unwrap()), Some(3));
        assert_eq!(rec.original_style("J1".parse().unwrap()), None);
        let cut = line.replace("adigits=1234123412341234", "adigits=123");
        assert_eq!(GridRecord::parse_line(&cut), None);
        let half = line.replace(" adigits=1234123412341234", "");
        assert_eq!(GridRecord::parse_line(&half), None);
    }

    #[test]
    fn malformed_lines_are_ignored() {
        for bad in [
            "xlsudoku-grid sheet=A range=C3:K11 fills=zz styles=",
            "xlsudoku-grid sheet=A range=C3:K11 fills=8 styles=1",
            "xlsudoku-grid sheet=A range=A1:D4 fills=8000 styles=1,2",
            "xlsudoku-grid sheet=A range=A1:D4 fills=8000 styles=1*99999999999999999999",
            "xlsudoku-grid sheet=%G1 range=A1:D4 fills=8000 styles=1",
            "xlsudoku-grid range=A1:D4 fills=8000 styles=1",
            "xlsudoku-grid sheet=A range=A1:D4 fills=8000 styles=1 note=Q:1",
            "xlsudoku-grid sheet=A range=A1:D4 fills=8000 styles=1 digits=12",
            "xlsudoku-grid sheet=A range=A1:D4 fills=8000 styles=1 digits=%",
        ] {
            assert_eq!(GridRecord::parse_line(bad), None, "{bad}");
        }
        let ok = GridRecord::parse_line("xlsudoku-grid sheet=A range=A1:D4 fills=8001 styles=1*2")
            .unwrap();
        assert_eq!(
            ok.fills,
            vec![(CellRef::new(0, 0), 1), (CellRef::new(3, 3), 1)]
        );
    }
}
