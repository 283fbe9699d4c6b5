//! The records of an annotated copy: what it was made from and what each
//! run wrote, so that a later run knows its own writing and whether the
//! copy is up to date.
//!
//! Where they live: in the zip archive's comment while the whole record
//! text is short (up to [`part::SAFE_COMMENT`] bytes); past that, in the
//! part [`RECORD_PART`] (`xlsudoku/records.xml`), with one short line left
//! in the comment pointing at it (`xlsudoku VERSION cd=DIGEST
//! record=xlsudoku/records.xml`), whose digest of the copy's entries is
//! filled in after writing ([`part`] says why: LibreOffice refuses an
//! archive whose comment is long). Readers see one record text either way
//! ([`record_text`]).
//!
//! The record text is lines of three kinds:
//!
//! - the run's **stamp** ([`STAMP_PREFIX`]): the version, the digest, the
//!   input and the options the copy was made with, and each grid's report
//!   (written and read by the batch runner);
//! - one **grid record** per grid written ([`GridRecord`], [`grid`]): the
//!   cells filled and their styles before, the note, the answer copy;
//! - the record of the **sheet of solutions** ([`SolutionsRecord`],
//!   [`solution_sheet`](mod@solution_sheet)), when `--answers sheet` added one.

pub mod grid;
pub mod part;
pub mod solution_sheet;

use std::io::{Read, Seek};

use zip::ZipArchive;

pub use grid::{
    parse_grid_records, read_grid_records, AnswerRecord, GridMark, GridRecord, GRID_PREFIX,
};
pub use part::{record_text, RECORD_PART};
pub use solution_sheet::{
    parse_solutions_record, read_solutions_record, SolutionsRecord, SOLUTIONS_PREFIX,
};

/// How a stamp line ([`AnnotateOptions::stamp`](crate::annotate::AnnotateOptions::stamp)) begins.
pub const STAMP_PREFIX: &str = "xlsudoku ";

/// The longest archive comment a zip file can hold; the record text is kept
/// within it, so that it can always stay in the comment.
const MAX_COMMENT: usize = u16::MAX as usize;

/// The record text (the zip comment's lines with the records part's, see
/// [`part`]) with `stamp` in place of any earlier stamp line. It
/// is kept within a zip comment's 65,535 bytes: the earlier lines that do not
/// fit beside the stamp are dropped (Excel ignores the comment and does not
/// keep it either), so a full comment never stops the copy.
pub(crate) fn stamped_comment(comment: &[u8], stamp: Option<&str>) -> Vec<u8> {
    let Some(stamp) = stamp else {
        return comment.to_vec();
    };
    let stamp = &stamp.as_bytes()[..stamp.len().min(MAX_COMMENT)];
    let room = MAX_COMMENT - stamp.len();
    let mut out: Vec<u8> = Vec::with_capacity(comment.len().min(room) + stamp.len());
    for line in comment.split(|&b| b == b'\n') {
        if line.is_empty() || line.starts_with(STAMP_PREFIX.as_bytes()) {
            continue;
        }
        if out.len() + line.len() + 1 > room {
            break;
        }
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.extend_from_slice(stamp);
    out
}

/// The record text with the grid records replaced: every earlier record
/// line goes, `records` come in (all of them, or none when they would not
/// fit), the other lines stay as they are.
pub(crate) fn recorded_comment(comment: &[u8], records: &[String]) -> Vec<u8> {
    let kept: Vec<&[u8]> = comment
        .split(|&b| b == b'\n')
        .filter(|l| {
            !l.starts_with(GRID_PREFIX.as_bytes()) && !l.starts_with(SOLUTIONS_PREFIX.as_bytes())
        })
        .collect();
    let mut out = kept.join(&b'\n');
    while out.last() == Some(&b'\n') {
        out.pop();
    }
    let size: usize = out.len() + records.iter().map(|r| r.len() + 1).sum::<usize>();
    if records.is_empty() || size > MAX_COMMENT {
        return out;
    }
    for r in records {
        if !out.is_empty() {
            out.push(b'\n');
        }
        out.extend_from_slice(r.as_bytes());
    }
    out
}

/// The stamp line recorded in a workbook's records, if any.
pub fn read_stamp<R: Read + Seek>(input: R) -> Option<String> {
    let mut archive = ZipArchive::new(input).ok()?;
    record_text(&mut archive)
        .split(|&b| b == b'\n')
        .find(|l| l.starts_with(STAMP_PREFIX.as_bytes()))
        .map(|l| String::from_utf8_lossy(l).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamp_replaces_an_earlier_stamp_and_keeps_other_comment_text() {
        let first = stamped_comment(b"made by hand", Some("xlsudoku 0.1 input=1"));
        assert_eq!(first, b"made by hand\nxlsudoku 0.1 input=1");
        let second = stamped_comment(&first, Some("xlsudoku 0.1 input=2"));
        assert_eq!(second, b"made by hand\nxlsudoku 0.1 input=2");
        assert_eq!(stamped_comment(b"kept", None), b"kept");
        assert_eq!(stamped_comment(b"", Some("xlsudoku x")), b"xlsudoku x");
    }
}
