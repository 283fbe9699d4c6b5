//! Writing the copy: the parts changed, added and removed
//! ([`Changes`]), every other entry copied as stored; reading a part with
//! its size limit; and the grid record lines the copy gets.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek, Write};

use rustc_hash::FxHashMap;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use crate::address::CellRef;

use super::book::{Book, SheetPart};
use super::deflated::{deflated_entry, EntryMeta};
use super::part_edit::{insert_before_root_end, parse_rels, remove_elements, Relationship};
use super::{AnnotateError, CellValue, SheetEdits};
use crate::inflated::{inflate_entry, Entry};
use crate::records::{AnswerRecord, GridMark, GridRecord};

/// The grid record lines of the copy (`None`: the comment's records stay
/// as they are, since nothing is edited or recorded): the earlier records
/// of sheets left alone, then one per [`GridMark`], whose cells take the
/// style they had before xlsudoku first wrote them.
pub(super) fn grid_records(
    book: &Book,
    edits: &[SheetEdits],
    marks: &[GridMark],
    earlier: &[GridRecord],
    bases: &HashMap<String, FxHashMap<CellRef, u32>>,
) -> Option<Vec<String>> {
    if marks.is_empty() && edits.iter().all(|e| e.cells.is_empty()) {
        return None;
    }
    let touched = |sheet: &str| {
        marks.iter().any(|m| m.sheet == sheet)
            || edits
                .iter()
                .any(|e| e.sheet == sheet && !e.cells.is_empty())
    };
    let mut lines: Vec<String> = earlier
        .iter()
        .filter(|r| !touched(&r.sheet))
        .map(GridRecord::to_line)
        .collect();
    for mark in marks {
        if mark.keep {
            // Nothing written for this grid: what an earlier run wrote
            // stays, and so does its record.
            lines.extend(
                earlier
                    .iter()
                    .filter(|r| r.sheet == mark.sheet && r.range == mark.range)
                    .map(GridRecord::to_line),
            );
            continue;
        }
        let part = book
            .sheets
            .iter()
            .find(|s| s.name == mark.sheet)
            .and_then(|s| match &s.part {
                SheetPart::Worksheet(p) => Some(p),
                _ => None,
            });
        let written = part.and_then(|p| bases.get(p));
        let before = |at: CellRef, from_record: Option<u32>| -> Option<u32> {
            from_record.or_else(|| written.and_then(|w| w.get(&at).copied()))
        };
        let old = |at: CellRef| {
            earlier
                .iter()
                .filter(|r| r.sheet == mark.sheet)
                .find_map(|r| r.original_style(at))
        };
        // The value each cell is given (the last edit wins).
        let values: FxHashMap<CellRef, &CellValue> = edits
            .iter()
            .filter(|e| e.sheet == mark.sheet)
            .flat_map(|e| e.cells.iter().map(|c| (c.at, &c.value)))
            .collect();
        let mut fills = Vec::with_capacity(mark.filled.len());
        let mut digits = Vec::with_capacity(mark.filled.len());
        for &at in &mark.filled {
            // A cell the edits did not write is no fill of this run.
            if !written.is_some_and(|w| w.contains_key(&at)) {
                continue;
            }
            let digit = match values.get(&at) {
                Some(CellValue::Number(n)) if n.fract() == 0.0 && (1.0..=64.0).contains(n) => {
                    *n as u8
                }
                Some(CellValue::Text(_)) => 0,
                _ => continue,
            };
            if let Some(s) = before(at, old(at)) {
                fills.push((at, s));
                digits.push(digit);
            }
        }
        let note = mark.note.and_then(|at| {
            let old_note = earlier
                .iter()
                .filter(|r| r.sheet == mark.sheet)
                .find_map(|r| r.note.filter(|n| n.0 == at).map(|n| n.1));
            written
                .is_some_and(|w| w.contains_key(&at))
                .then(|| before(at, old_note))
                .flatten()
                .map(|s| (at, s))
        });
        // A hint's colours: each cell's style before the first hint that
        // coloured it.
        let old_tint = |at: CellRef| {
            earlier
                .iter()
                .filter(|r| r.sheet == mark.sheet)
                .find_map(|r| r.tints.iter().find(|t| t.0 == at).map(|t| t.1))
        };
        let tints: Vec<(CellRef, u32)> = mark
            .tinted
            .iter()
            .filter(|&&at| written.is_some_and(|w| w.contains_key(&at)))
            .filter_map(|&at| before(at, old_tint(at)).map(|s| (at, s)))
            .collect();
        let answer = mark.answer.map(|range| {
            let cells =
                (0..range.rows()).flat_map(|r| (0..range.cols()).map(move |c| range.cell(r, c)));
            let (mut styles, mut digits) = (Vec::new(), Vec::new());
            for at in cells {
                styles.push(before(at, old(at)).unwrap_or(0));
                digits.push(match values.get(&at) {
                    Some(CellValue::Number(n)) if n.fract() == 0.0 && (1.0..=64.0).contains(n) => {
                        *n as u8
                    }
                    _ => 0,
                });
            }
            AnswerRecord {
                range,
                styles,
                digits,
            }
        });
        lines.push(
            GridRecord {
                sheet: mark.sheet.clone(),
                range: mark.range,
                fills,
                digits: Some(digits),
                note,
                tints,
                answer,
            }
            .to_line(),
        );
    }
    Some(lines)
}

/// What the copy changes in the package.
#[derive(Debug, Default)]
pub(super) struct Changes {
    /// Entry name → new bytes, or `None` to leave the entry out.
    pub(super) replaced: HashMap<String, Option<Vec<u8>>>,
    /// New entries, written after the others.
    pub(super) added: Vec<(String, Vec<u8>)>,
}

impl Changes {
    pub(super) fn set(&mut self, name: &str, bytes: Vec<u8>) {
        self.replaced.insert(name.to_string(), Some(bytes));
    }

    /// The part as it stands in the copy so far.
    pub(super) fn current<R: Read + Seek>(
        &self,
        archive: &mut ZipArchive<R>,
        name: &str,
        limit: u64,
    ) -> Result<Part, AnnotateError> {
        match self.replaced.get(name) {
            Some(Some(bytes)) => {
                let text = String::from_utf8_lossy(bytes);
                let bom = text.starts_with('\u{FEFF}');
                let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
                Ok(Part {
                    text: text.to_string(),
                    bom,
                })
            }
            _ => read_part(archive, name, limit),
        }
    }
}

/// A part to add to the package: its name, content type, relationship
/// type (chosen from the workbook's relationships as they stand), bytes,
/// and what it is, for the error when the package cannot take it.
pub(super) struct NewPart<'a> {
    /// The part's name in the zip (`xl/styles.xml`).
    pub(super) name: &'a str,
    /// Its `[Content_Types].xml` override.
    pub(super) content_type: &'a str,
    /// The type of the workbook's relationship to it.
    pub(super) kind: &'a dyn Fn(&[Relationship]) -> &'a str,
    /// Its bytes.
    pub(super) bytes: Vec<u8>,
    /// What it is, for an error: "a style sheet".
    pub(super) what: &'a str,
}

/// Adds a part to the copy with its content type override and the
/// workbook's relationship to it (the first free `rIdN`, the target
/// relative to the workbook part); returns that relationship's id.
pub(super) fn add_part<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    new: NewPart<'_>,
    limit: u64,
    changes: &mut Changes,
) -> Result<String, AnnotateError> {
    let missing = |holder: &str| AnnotateError::Unsupported {
        part: book.workbook.clone(),
        reason: format!("the workbook has no {holder} to add {} to", new.what),
    };
    let ct = book
        .content_types
        .as_ref()
        .ok_or_else(|| missing("[Content_Types].xml"))?;
    let rels = book
        .workbook_rels
        .as_ref()
        .ok_or_else(|| missing("relationships part"))?;
    let part = new.name;
    let src = changes.current(archive, ct, limit)?;
    let text = insert_before_root_end(
        ct,
        &src.text,
        &format!(
            r#"<Override PartName="/{part}" ContentType="{}"/>"#,
            new.content_type
        ),
    )?;
    changes.set(ct, src.bytes_of(text));
    let src = changes.current(archive, rels, limit)?;
    let existing = parse_rels(rels, &src.text, &book.workbook)?;
    let ids: HashSet<&str> = existing.iter().map(|r| r.id.as_str()).collect();
    let kind = (new.kind)(&existing);
    let id = (1..)
        .map(|n| format!("rId{n}"))
        .find(|id| !ids.contains(id.as_str()))
        .unwrap_or_default();
    let dir = book
        .workbook
        .rfind('/')
        .map_or("", |i| &book.workbook[..=i]);
    let target = match part.strip_prefix(dir) {
        Some(inside) => inside.to_string(),
        None => format!("/{part}"),
    };
    let text = insert_before_root_end(
        rels,
        &src.text,
        &format!(r#"<Relationship Id="{id}" Type="{kind}" Target="{target}"/>"#),
    )?;
    changes.set(rels, src.bytes_of(text));
    changes.added.push((part.to_string(), new.bytes));
    Ok(id)
}

/// Drops the calculation chain part: its entry, its content type override
/// and the workbook's relationship to it.
pub(super) fn remove_calc_chain<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    chain: &str,
    limit: u64,
    changes: &mut Changes,
) -> Result<(), AnnotateError> {
    changes.replaced.insert(chain.to_string(), None);
    if let Some(ct) = &book.content_types {
        let src = changes.current(archive, ct, limit)?;
        let name = format!("/{chain}");
        let text = remove_elements(ct, &src.text, "Override", "PartName", |v| {
            v.eq_ignore_ascii_case(&name)
        })?;
        changes.set(ct, src.bytes_of(text));
    }
    if let Some(rels) = &book.workbook_rels {
        let src = changes.current(archive, rels, limit)?;
        let text = remove_elements(rels, &src.text, "Relationship", "Type", |v| {
            v.ends_with("/calcChain")
        })?;
        changes.set(rels, src.bytes_of(text));
    }
    Ok(())
}

/// Copies every entry of `archive` to `output`, raw, except those in
/// `replaced`, written anew (same name, place, time and compression) or
/// left out. Deflated parts go through [`deflated_entry`] (this thread's
/// compressor) and are copied raw from there.
pub(super) fn write_copy<R: Read + Seek, W: Write + Seek>(
    archive: &mut ZipArchive<R>,
    changes: &Changes,
    output: W,
    comment: Vec<u8>,
) -> Result<(), AnnotateError> {
    let mut writer = ZipWriter::new(output);
    for i in 0..archive.len() {
        let file = archive.by_index_raw(i)?;
        let name = file.name()?.into_owned();
        match changes.replaced.get(&name) {
            None => writer.raw_copy_file(file)?,
            Some(None) => {}
            Some(Some(bytes)) if file.compression() == CompressionMethod::Stored => {
                let opts: SimpleFileOptions = file.options().large_file(false);
                drop(file);
                writer.start_file(name, opts)?;
                writer.write_all(bytes)?;
            }
            Some(Some(bytes)) => {
                let meta = EntryMeta::of(&file);
                drop(file);
                let mut entry = deflated_entry(bytes, meta)?;
                writer.raw_copy_file_rename(entry.by_index_raw(0)?, name)?;
            }
        }
    }
    for (name, bytes) in &changes.added {
        let mut entry = deflated_entry(bytes, EntryMeta::new_entry())?;
        writer.raw_copy_file_rename(entry.by_index_raw(0)?, name)?;
    }
    writer.set_raw_comment(comment.into())?;
    writer.finish()?;
    Ok(())
}

pub(super) fn read_up_to<R: Read>(r: &mut R, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A part read as text.
#[derive(Debug)]
pub(super) struct Part {
    /// The text, without a byte order mark.
    pub(super) text: String,
    /// Whether the part started with a byte order mark (written back).
    pub(super) bom: bool,
}

impl Part {
    /// A part made here.
    pub(super) fn new(text: &str) -> Self {
        Part {
            text: text.to_string(),
            bom: false,
        }
    }

    /// `text` as the bytes of the part, with the byte order mark if the
    /// original had one.
    pub(super) fn bytes_of(&self, text: String) -> Vec<u8> {
        if self.bom {
            let mut v = "\u{FEFF}".as_bytes().to_vec();
            v.extend_from_slice(text.as_bytes());
            v
        } else {
            text.into_bytes()
        }
    }
}

/// Inflates one part, refusing parts over `limit` bytes. A part inflated
/// just before on this thread (reading the workbook read the same parts)
/// is not inflated again ([`crate::inflated`]).
pub(super) fn read_bytes<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    name: &str,
    limit: u64,
) -> Result<Vec<u8>, AnnotateError> {
    let too_large = || AnnotateError::TooLarge {
        part: name.to_string(),
        limit,
    };
    let index = archive
        .index_for_name(name)
        .ok_or(zip::result::ZipError::FileNotFound)?;
    let buf = match inflate_entry(archive, index, limit, limit.saturating_add(1))? {
        Entry::Content(buf) => buf,
        Entry::DeclaredOver => return Err(too_large()),
    };
    if buf.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(buf)
}

/// Inflates one part as UTF-8 text, refusing parts over `limit` bytes
/// ([`read_bytes`]).
pub(super) fn read_part<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    name: &str,
    limit: u64,
) -> Result<Part, AnnotateError> {
    let buf = read_bytes(archive, name, limit)?;
    let mut text = String::from_utf8(buf).map_err(|_| AnnotateError::Malformed {
        part: name.to_string(),
        reason: "the part is not UTF-8 text".to_string(),
    })?;
    // quick-xml skips a byte order mark without counting it in its offsets.
    let bom = text.starts_with('\u{FEFF}');
    if bom {
        text.drain(..3);
    }
    Ok(Part { text, bom })
}
