//! Where an annotated copy keeps its records: the run stamp (what the copy
//! was made from), the grid records (what each grid's run wrote) and the
//! record of the sheet of solutions (`--answers sheet`).
//!
//! They used to fill the zip archive's comment, but LibreOffice looks for
//! the end of a zip archive only in its last 512 bytes or so: a comment
//! longer than about 500 bytes makes it refuse the file ("source file
//! could not be loaded"; measured with LibreOffice 7, comments of 500
//! bytes load and of 520 do not). So the records go into a part of their
//! own, [`RECORD_PART`] (XML, so the package's `Default Extension="xml"`
//! content type covers it; Excel and LibreOffice ignore a part nothing
//! refers to), and the comment keeps one short line pointing at it:
//! `xlsudoku VERSION cd=DIGEST record=xlsudoku/records.xml`, whose digest
//! of the copy's entries is filled in after writing.
//!
//! Readers see one logical record text either way ([`record_text`]): the
//! comment's lines with the short stamp line replaced by the part's full
//! stamp line (its digest taken from the comment), then the part's other
//! lines. Copies that keep everything in the comment read as before.

use std::io::{Read, Seek};

use zip::ZipArchive;

use super::grid::GRID_PREFIX;
use super::solution_sheet::SOLUTIONS_PREFIX;
use super::STAMP_PREFIX;

/// The part holding the records.
pub const RECORD_PART: &str = "xlsudoku/records.xml";

/// The largest record part read back.
const LIMIT: u64 = 4 << 20;

/// The longest archive comment that LibreOffice still opens, with room to
/// spare (it scans about the last 512 bytes for the end record).
pub const SAFE_COMMENT: usize = 400;

fn is_ours(line: &[u8]) -> bool {
    line.starts_with(STAMP_PREFIX.as_bytes())
        || line.starts_with(GRID_PREFIX.as_bytes())
        || line.starts_with(SOLUTIONS_PREFIX.as_bytes())
}

/// The `cd=` word of a stamp line, if any.
fn digest_word(line: &str) -> Option<&str> {
    line.split(' ').find(|w| w.starts_with("cd="))
}

/// The logical record text of a workbook: the lines of its zip comment,
/// with the records of [`RECORD_PART`] in place of the short line that
/// points at them (see the module docs).
pub fn record_text<R: Read + Seek>(archive: &mut ZipArchive<R>) -> Vec<u8> {
    let comment = archive.comment().to_vec();
    let pointer = comment
        .split(|&b| b == b'\n')
        .filter_map(|l| std::str::from_utf8(l).ok())
        .find(|l| l.starts_with(STAMP_PREFIX) && l.contains(" record="))
        .map(str::to_string);
    let Some(pointer) = pointer else {
        return comment;
    };
    let part = read_record_part(archive).unwrap_or_default();
    let mut out: Vec<u8> = Vec::with_capacity(comment.len() + part.len());
    let mut push = |line: &[u8]| {
        if !line.is_empty() {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    };
    for line in comment.split(|&b| b == b'\n') {
        if !is_ours(line) {
            push(line);
        }
    }
    for line in part.lines() {
        if line.starts_with(STAMP_PREFIX) {
            // The digest is filled into the comment after the part is
            // written: take it from there.
            let full = match (digest_word(line), digest_word(&pointer)) {
                (Some(old), Some(new)) => line.replacen(old, new, 1),
                _ => line.to_string(),
            };
            push(full.as_bytes());
        } else if line.starts_with(GRID_PREFIX) || line.starts_with(SOLUTIONS_PREFIX) {
            push(line.as_bytes());
        }
    }
    while out.last() == Some(&b'\n') {
        out.pop();
    }
    out
}

/// The record part's lines, unescaped; `None` when there is none.
fn read_record_part<R: Read + Seek>(archive: &mut ZipArchive<R>) -> Option<String> {
    let file = archive.by_name(RECORD_PART).ok()?;
    let mut text = String::new();
    file.take(LIMIT).read_to_string(&mut text).ok()?;
    let start = text.find("<records")?;
    let open_end = start + text[start..].find('>')? + 1;
    let close = text.rfind("</records>")?;
    let body = text.get(open_end..close)?;
    quick_xml::escape::unescape(body)
        .ok()
        .map(|s| s.into_owned())
}

/// Splits a logical record text into the archive comment and the record
/// part's bytes (`None`: no part; everything stays in the comment, which
/// is then short enough, or no stamp points elsewhere).
pub(crate) fn split_record_text(text: &[u8]) -> (Vec<u8>, Option<Vec<u8>>) {
    let ours: Vec<&[u8]> = text.split(|&b| b == b'\n').filter(|l| is_ours(l)).collect();
    if ours.is_empty() || text.len() <= SAFE_COMMENT {
        return (text.to_vec(), None);
    }
    let mut comment: Vec<u8> = Vec::with_capacity(SAFE_COMMENT);
    for line in text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty() && !is_ours(l))
    {
        comment.extend_from_slice(line);
        comment.push(b'\n');
    }
    // The pointer: the stamp line's version and digest words.
    let stamp = ours
        .iter()
        .find(|l| l.starts_with(STAMP_PREFIX.as_bytes()))
        .map(|l| String::from_utf8_lossy(l).into_owned());
    let pointer = match &stamp {
        Some(s) => {
            let mut words = s.split(' ');
            let mut p = format!(
                "{} {}",
                words.next().unwrap_or(""),
                words.next().unwrap_or("")
            );
            if let Some(cd) = digest_word(s) {
                p.push(' ');
                p.push_str(cd);
            }
            p
        }
        None => format!("{}- -", STAMP_PREFIX),
    };
    comment.extend_from_slice(format!("{pointer} record={RECORD_PART}").as_bytes());
    let mut body = String::new();
    for l in &ours {
        body.push_str(&String::from_utf8_lossy(l));
        body.push('\n');
    }
    let part = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
         <records xmlns=\"urn:xlsudoku:records\">{}</records>\n",
        quick_xml::escape::escape(body.as_str())
    );
    (comment, Some(part.into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_records_move_to_the_part_and_read_back_whole() {
        let stamp = format!(
            "{STAMP_PREFIX}0.1.0 cd=0000000000000000 input=\"a<b>&c.xlsx\":1:2.3 grids={}",
            "x".repeat(600)
        );
        let grid = format!("{GRID_PREFIX}sheet=S range=C3:K11 fills=ff");
        let text = format!("made by hand\n{stamp}\n{grid}");
        let (comment, part) = split_record_text(text.as_bytes());
        let part = part.expect("a part");
        assert!(comment.len() <= SAFE_COMMENT, "{}", comment.len());
        let shown = String::from_utf8(comment.clone()).unwrap();
        assert!(shown.starts_with("made by hand\n"), "{shown}");
        assert!(shown.ends_with(&format!("0.1.0 cd=0000000000000000 record={RECORD_PART}")));
        // Read back through a real archive, the digest filled in.
        let filled = shown.replace("cd=0000000000000000", "cd=0123456789abcdef");
        let mut buf = std::io::Cursor::new(Vec::new());
        {
            let mut w = zip::ZipWriter::new(&mut buf);
            w.start_file(RECORD_PART, zip::write::SimpleFileOptions::default())
                .unwrap();
            std::io::Write::write_all(&mut w, &part).unwrap();
            w.set_raw_comment(filled.into_bytes().into()).unwrap();
            w.finish().unwrap();
        }
        let mut archive = ZipArchive::new(buf).unwrap();
        let back = String::from_utf8(record_text(&mut archive)).unwrap();
        assert_eq!(
            back,
            format!(
                "made by hand\n{}\n{grid}",
                stamp.replace("cd=0000000000000000", "cd=0123456789abcdef")
            )
        );
    }

    #[test]
    fn short_records_stay_in_the_comment() {
        let text = format!("{STAMP_PREFIX}0.1.0 cd=0000000000000000 input=\"a\"");
        let (comment, part) = split_record_text(text.as_bytes());
        assert_eq!(comment, text.as_bytes());
        assert!(part.is_none());
    }
}
