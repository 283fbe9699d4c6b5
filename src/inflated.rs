//! Inflating the parts of a zip package, with the last few parts inflated
//! on this thread kept by their compressed bytes.
//!
//! A file of a run is read ([`crate::workbook`]) and then copied
//! ([`crate::annotate`]) from the same bytes, and both inflate the same
//! parts: the package relationships, the workbook part and its
//! relationships, the style sheet, the sheets. Inflating is a function of
//! the compressed bytes alone, so an entry whose compressed bytes, checksum
//! and size are those of a part inflated before (and read through, its
//! checksum checked) gives that part again; anything else is inflated as
//! usual, with the zip reader's own checks.

use std::cell::RefCell;
use std::io::{Read, Seek};

use zip::result::ZipResult;
use zip::{CompressionMethod, ZipArchive};

/// How many parts are kept.
const KEPT_PARTS: usize = 16;

/// The largest part kept, compressed or not (a sheet of some 15,000
/// cells): larger ones are rare and cost more to compare and keep.
const KEPT_PART_SIZE: u64 = 1 << 20;

/// The most memory reserved for a part before reading it (a declared size
/// can lie).
const CAPACITY_HINT: u64 = 16 << 20;

/// A part inflated before: its entry's compressed bytes, checksum and size,
/// and its content.
struct Kept {
    raw: Vec<u8>,
    crc: u32,
    size: u64,
    content: Vec<u8>,
}

thread_local! {
    /// The parts inflated last on this thread, oldest first.
    static KEPT: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
}

/// An entry read by [`inflate_entry`].
pub(crate) enum Entry {
    /// Its content.
    Content(Vec<u8>),
    /// Not read: its declared size is over the limit given.
    DeclaredOver,
}

/// The content of entry `index` of `archive`, inflated (at most `take`
/// bytes), as `archive.by_index(index)` read to its end gives it; an
/// entry whose declared size is over `declared_limit` is not read.
pub(crate) fn inflate_entry<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    index: usize,
    declared_limit: u64,
    take: u64,
) -> ZipResult<Entry> {
    let mut raw = archive.by_index_raw(index)?;
    let size = raw.size();
    // Other entries (stored, encrypted, other methods) are read as ever,
    // their errors first.
    if raw.compression() != CompressionMethod::Deflated || raw.encrypted() {
        drop(raw);
        return read_through(archive.by_index(index)?, declared_limit, take, None);
    }
    if size > declared_limit {
        return Ok(Entry::DeclaredOver);
    }
    let key = if raw.compressed_size() <= KEPT_PART_SIZE && size <= KEPT_PART_SIZE {
        let mut bytes = Vec::with_capacity(raw.compressed_size() as usize);
        raw.read_to_end(&mut bytes)?;
        (bytes.len() as u64 == raw.compressed_size()).then(|| (bytes, raw.crc32()))
    } else {
        None
    };
    drop(raw);
    if let Some((bytes, crc)) = &key {
        let hit = KEPT.with_borrow(|kept| {
            kept.iter()
                .find(|k| {
                    k.crc == *crc
                        && k.size == size
                        && (k.content.len() as u64) < take
                        && k.raw == *bytes
                })
                .map(|k| k.content.clone())
        });
        if let Some(content) = hit {
            return Ok(Entry::Content(content));
        }
    }
    read_through(archive.by_index(index)?, declared_limit, take, key)
}

/// Reads `file` (at most `take` bytes), unless its declared size is over
/// `declared_limit`; keeps the content under `key` when read to its end
/// (its checksum checked there).
fn read_through<R: Read>(
    file: zip::read::ZipFile<'_, R>,
    declared_limit: u64,
    take: u64,
    key: Option<(Vec<u8>, u32)>,
) -> ZipResult<Entry> {
    let size = file.size();
    if size > declared_limit {
        return Ok(Entry::DeclaredOver);
    }
    let mut content = Vec::with_capacity(size.min(take).min(CAPACITY_HINT) as usize);
    file.take(take).read_to_end(&mut content)?;
    if let (Some((raw, crc)), true) = (key, (content.len() as u64) < take) {
        KEPT.with_borrow_mut(|kept| {
            if kept.len() == KEPT_PARTS {
                kept.remove(0);
            }
            kept.push(Kept {
                raw,
                crc,
                size,
                content: content.clone(),
            });
        });
    }
    Ok(Entry::Content(content))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};

    fn archive(parts: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes) in parts {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    fn content(bytes: &[u8], index: usize, take: u64) -> ZipResult<Vec<u8>> {
        let mut a = ZipArchive::new(Cursor::new(bytes)).unwrap();
        match inflate_entry(&mut a, index, u64::MAX, take)? {
            Entry::Content(c) => Ok(c),
            Entry::DeclaredOver => unreachable!(),
        }
    }

    #[test]
    fn kept_parts_come_back_only_for_the_same_entry() {
        let text = "<sheetData>".repeat(300);
        let one = archive(&[("a.xml", text.as_bytes()), ("b.xml", b"other")]);
        assert_eq!(content(&one, 0, u64::MAX).unwrap(), text.as_bytes());
        // Again (kept), and cut short by `take` (never from what is kept).
        assert_eq!(content(&one, 0, u64::MAX).unwrap(), text.as_bytes());
        assert_eq!(content(&one, 0, 5).unwrap(), b"<shee");
        assert_eq!(content(&one, 1, u64::MAX).unwrap(), b"other");
        // The same compressed bytes under a wrong checksum fail as the zip
        // reader fails them, kept part or not.
        let mut bad = one.clone();
        let crc = crc32(text.as_bytes()).to_le_bytes();
        let at = bad.windows(4).rposition(|w| w == crc).unwrap();
        bad[at] ^= 1;
        assert!(content(&bad, 0, u64::MAX).is_err());
        // An entry declared over the limit is not read.
        let mut a = ZipArchive::new(Cursor::new(&one)).unwrap();
        assert!(matches!(
            inflate_entry(&mut a, 0, 10, u64::MAX),
            Ok(Entry::DeclaredOver)
        ));
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut c = flate2::Crc::new();
        c.update(bytes);
        c.sum()
    }
}
