//! Deflating the parts the copy writes anew, with one compressor per
//! thread reused from part to part and from copy to copy.
//!
//! A zip writer makes a compressor for each archive it writes (and resets
//! it after each entry): a compressor's window and hash tables take about
//! 400 KB, zeroed when made, and its output buffer is zeroed again on
//! every call. A copy rewrites only a few small parts (a sheet, the style
//! sheet, the record part), so that set-up was most of what writing them
//! cost. Here each part is deflated with this thread's compressor, reset
//! between parts (which a fresh one would not do differently: the bytes
//! are the same), into a one-entry archive made in memory, and the zip
//! writer copies that entry raw under the part's name, with the time,
//! system and attributes the part's own entry would have been written
//! with.

use std::cell::RefCell;
use std::io::Cursor;

use flate2::{Compress, Compression, FlushCompress, Status};
use zip::{DateTime, System, ZipArchive};

use super::AnnotateError;

/// The deflate level of the parts written anew: level 3 deflates large
/// sheets about eight times faster than the default 6, to within 0.5 % of
/// the size.
pub(super) const LEVEL: u32 = 3;

/// What a part's zip entry is written with, besides its bytes: what
/// [`zip::read::ZipFile::options`] carries over from the entry it
/// replaces, or a new entry's defaults.
#[derive(Debug, Clone, Copy)]
pub(super) struct EntryMeta {
    pub(super) system: System,
    pub(super) external_attributes: u32,
    pub(super) time: DateTime,
}

impl EntryMeta {
    /// The meta of an entry replacing `file`: its system, attributes and
    /// time (a time that is no valid date becomes the writer's default).
    pub(super) fn of<R: std::io::Read>(file: &zip::read::ZipFile<'_, R>) -> Self {
        EntryMeta {
            system: file.system(),
            external_attributes: file.external_attributes(),
            time: file
                .last_modified()
                .filter(DateTime::is_valid)
                .unwrap_or_else(DateTime::default_for_write),
        }
    }

    /// The meta the zip writer gives a new entry by default: this
    /// platform's system, a regular file readable by all (`0o100644`), the
    /// default time.
    pub(super) fn new_entry() -> Self {
        EntryMeta {
            system: if cfg!(windows) {
                System::Dos
            } else {
                System::Unix
            },
            external_attributes: 0o100644 << 16,
            time: DateTime::default_for_write(),
        }
    }
}

thread_local! {
    /// This thread's compressor (raw deflate at [`LEVEL`]) and output
    /// buffer, made on first use.
    static COMPRESSOR: RefCell<Option<(Compress, Vec<u8>)>> = const { RefCell::new(None) };
}

/// `bytes` deflated (raw, at [`LEVEL`]) into a one-entry zip archive in
/// memory, whose entry has `meta`; the caller copies the entry raw.
pub(super) fn deflated_entry(
    bytes: &[u8],
    meta: EntryMeta,
) -> Result<ZipArchive<Cursor<Vec<u8>>>, AnnotateError> {
    COMPRESSOR.with(|slot| {
        let mut slot = slot.borrow_mut();
        let (compress, out) =
            slot.get_or_insert_with(|| (Compress::new(Compression::new(LEVEL), false), Vec::new()));
        compress.reset();
        out.clear();
        deflate(compress, bytes, out)?;
        let archive = one_entry_archive(bytes, out, meta)?;
        ZipArchive::new(Cursor::new(archive)).map_err(AnnotateError::from)
    })
}

/// Deflates all of `input` into `out` (emptied), growing it as needed.
fn deflate(compress: &mut Compress, input: &[u8], out: &mut Vec<u8>) -> Result<(), AnnotateError> {
    loop {
        let done = usize::try_from(compress.total_in()).unwrap_or(usize::MAX);
        let rest = input.get(done..).unwrap_or_default();
        // Deflate's worst case is a few bytes a 16 KB block over the input.
        out.reserve(rest.len() + rest.len() / 1024 + 64);
        let status = compress
            .compress_vec(rest, out, FlushCompress::Finish)
            .map_err(std::io::Error::other)?;
        if status == Status::StreamEnd {
            return Ok(());
        }
    }
}

/// A zip archive of one deflated entry: `data`, the deflated `bytes`.
fn one_entry_archive(bytes: &[u8], data: &[u8], meta: EntryMeta) -> Result<Vec<u8>, AnnotateError> {
    let too_large = || {
        AnnotateError::from(std::io::Error::other(
            "a part too large for a zip entry without ZIP64",
        ))
    };
    let size = u32::try_from(bytes.len()).map_err(|_| too_large())?;
    let packed = u32::try_from(data.len()).map_err(|_| too_large())?;
    let crc = {
        let mut c = flate2::Crc::new();
        c.update(bytes);
        c.sum()
    };
    // The entry is named `p`: the copy gives it the part's name.
    const NAME: &[u8] = b"p";
    let (time, date) = (meta.time.timepart(), meta.time.datepart());
    // Version 2.0 (deflate), no flags, method 8 (deflate).
    let common = |out: &mut Vec<u8>| {
        for v in [20u16, 0, 8, time, date] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, packed, size] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(NAME.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes()); // extra field length
    };
    let mut out = Vec::with_capacity(data.len() + 128);
    out.extend_from_slice(b"PK\x03\x04");
    common(&mut out);
    out.extend_from_slice(NAME);
    out.extend_from_slice(data);
    let directory = out.len();
    out.extend_from_slice(b"PK\x01\x02");
    // Version made by: the system in the high byte.
    out.extend_from_slice(&(u16::from(u8::from(meta.system)) << 8 | 20).to_le_bytes());
    common(&mut out);
    // Comment length, disk, internal attributes.
    out.extend_from_slice(&[0; 6]);
    out.extend_from_slice(&meta.external_attributes.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // local header offset
    out.extend_from_slice(NAME);
    let directory_len = (out.len() - directory) as u32;
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0; 4]); // disk numbers
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&directory_len.to_le_bytes());
    out.extend_from_slice(&(directory as u32).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // comment length
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// The bytes a fresh zip writer deflates `bytes` into (level 3).
    fn zip_writer_deflates(bytes: &[u8]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(i64::from(LEVEL)));
        w.start_file("p", opts).unwrap();
        w.write_all(bytes).unwrap();
        raw_entry(&mut ZipArchive::new(w.finish().unwrap()).unwrap())
    }

    /// The compressed bytes of an archive's first entry.
    fn raw_entry<R: std::io::Read + std::io::Seek>(archive: &mut ZipArchive<R>) -> Vec<u8> {
        let mut raw = Vec::new();
        archive
            .by_index_raw(0)
            .unwrap()
            .read_to_end(&mut raw)
            .unwrap();
        raw
    }

    #[test]
    fn parts_deflate_as_the_zip_writer_deflates_them_and_read_back() {
        let sheet: String = (0..3000)
            .map(|i| format!("<c r=\"A{i}\" s=\"{}\"><v>{}</v></c>", i % 7, i * 31 % 1000))
            .collect();
        let noise: Vec<u8> = (0u32..200_000)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        // Twice over, so that the second of each goes through a reset
        // compressor.
        for bytes in [
            &b""[..],
            b"x",
            sheet.as_bytes(),
            &noise,
            sheet.as_bytes(),
            &noise,
        ] {
            let mut archive = deflated_entry(bytes, EntryMeta::new_entry()).unwrap();
            let raw = raw_entry(&mut archive);
            assert_eq!(raw, zip_writer_deflates(bytes), "{} bytes", bytes.len());
            let mut back = Vec::new();
            archive.by_index(0).unwrap().read_to_end(&mut back).unwrap();
            assert_eq!(back, bytes);
        }
    }
}
