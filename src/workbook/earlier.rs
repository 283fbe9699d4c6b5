//! What an earlier xlsudoku run wrote into a copy, as the copy's grid
//! records say: its fills, its notes and its answer copies, known by the
//! records alone, never by the font.

use crate::address::{CellRange, CellRef};

use calamine::Data;

use super::cells::{classify, is_candidate_text, Value};
use super::reader;

/// What the grid records of an earlier xlsudoku copy (its records part)
/// say about one sheet: the cells that run filled and where its notes are.
/// Only these, still in blue italics, are an earlier run's writing; with
/// no record (a file saved since by Excel drops it) every digit is a given.
#[derive(Debug, Default)]
pub(super) struct Recorded {
    /// Filled cell → what was written (see [`crate::records::GridRecord::written`]).
    pub(super) fills: std::collections::HashMap<(u32, u32), Option<u8>>,
    /// Note cell → the grid it belongs to.
    pub(super) notes: std::collections::HashMap<(u32, u32), CellRange>,
    /// Grid → the answer copy an earlier run wrote for it.
    pub(super) answers: Vec<(CellRange, crate::records::AnswerRecord)>,
}

impl Recorded {
    pub(super) fn of(records: &[crate::records::GridRecord], sheet: &str) -> Self {
        let mut out = Recorded::default();
        for r in records.iter().filter(|r| r.sheet == sheet) {
            for (at, _) in &r.fills {
                out.fills.insert((at.row, at.col), r.written(*at).flatten());
            }
            out.notes
                .extend(r.note.iter().map(|(at, _)| ((at.row, at.col), r.range)));
            out.answers
                .extend(r.answer.iter().map(|a| (r.range, a.clone())));
        }
        out
    }

    /// The square of `grid`'s earlier answer copy, when every cell of it
    /// still holds what was written ([`as_written`]).
    pub(super) fn answer_of(&self, sheet: &reader::RawSheet, grid: CellRange) -> Option<CellRange> {
        let (_, a) = self.answers.iter().find(|(g, _)| *g == grid)?;
        let range = a.range;
        let intact = (range.start.row..=range.end.row).all(|r| {
            (range.start.col..=range.end.col).all(|c| as_written(sheet, a, CellRef::new(r, c)))
        });
        intact.then_some(range)
    }

    /// True when `(row, col)` holds what an earlier run filled in: the
    /// record lists it, it is still blue italic and still holds what was
    /// written (a digit typed over it makes it a given).
    pub(super) fn is_fill(&self, sheet: &reader::RawSheet, row: u32, col: u32) -> bool {
        let Some(written) = self.fills.get(&(row, col)) else {
            return false;
        };
        if !sheet.blue_italic.contains(&(row, col)) {
            return false;
        }
        let value = sheet.values.get_value((row, col));
        match written {
            None => true,
            Some(0) => matches!(value, Some(Data::String(t)) if is_candidate_text(t)),
            Some(d) => matches!(classify(value), Value::Whole(n, _) if n == i64::from(*d)),
        }
    }

    /// The cells of `sheet` that hold an earlier run's fills (see
    /// [`Recorded::is_fill`]).
    pub(super) fn fills_in(&self, sheet: &reader::RawSheet) -> super::reader::CellSet {
        self.fills
            .keys()
            .copied()
            .filter(|&(r, c)| self.is_fill(sheet, r, c))
            .collect()
    }
}

/// True when the answer copy's cell `at` still holds what was written
/// there: the digit, or text or nothing where `0` is recorded, and no
/// formula.
pub(super) fn as_written(
    sheet: &reader::RawSheet,
    a: &crate::records::AnswerRecord,
    at: CellRef,
) -> bool {
    let key = (at.row, at.col);
    let value = sheet.values.get_value(key);
    !sheet.formulas.contains(&key)
        && !sheet.unread.contains_key(&key)
        && match a.digit(at) {
            Some(0) => matches!(value, None | Some(Data::String(_) | Data::Empty)),
            Some(d) => matches!(classify(value), Value::Whole(n, _) if n == i64::from(d)),
            None => false,
        }
}

/// True when `at` holds the note an earlier run recorded writing there,
/// still reading as one (a status word and a colon, as every note
/// starts). Its font does not count: a note restyled since is still the
/// run's (not a cell to write a second note under), and text a person
/// typed over it, which keeps the note's blue italics, is theirs.
pub(super) fn is_earlier_note(sheet: &reader::RawSheet, recorded: &Recorded, at: CellRef) -> bool {
    let key = (at.row, at.col);
    recorded.notes.contains_key(&key)
        && matches!(sheet.values.get_value(key), Some(Data::String(s)) if reads_as_note(s))
}

/// Whether `text` starts as every note does: a status word, then `:`, a
/// space (as notes of earlier versions did: `solved iiii 0.41 ms`) or
/// nothing more.
/// A hint's note (`hint: …`, [`crate::note::HINT_WORD`]) reads as one too.
pub(super) fn reads_as_note(text: &str) -> bool {
    let words = crate::solve::Status::ALL.iter().map(|s| s.note_word());
    words.chain([crate::note::HINT_WORD]).any(|w| {
        text.strip_prefix(w)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([':', ' ']))
    })
}

/// The cell holding this grid's note from an earlier run, when the
/// record names one and it is still as that run wrote it.
pub(super) fn earlier_note_of(
    sheet: &reader::RawSheet,
    recorded: &Recorded,
    range: CellRange,
) -> Option<CellRef> {
    recorded
        .notes
        .iter()
        .filter(|(_, grid)| **grid == range)
        .map(|(&(row, col), _)| CellRef::new(row, col))
        .find(|&at| is_earlier_note(sheet, recorded, at))
}
