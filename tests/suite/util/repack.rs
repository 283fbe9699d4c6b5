//! Reading, editing and repacking the zip packages of workbooks.

use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};

use super::fixture;

/// Every entry of a zip package, in order: its name and its inflated bytes.
pub fn entries(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).expect("a zip package");
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).expect("an entry");
            let mut data = Vec::new();
            f.read_to_end(&mut data).expect("the entry");
            (f.name().expect("an entry name").to_string(), data)
        })
        .collect()
}

/// The zip comment of a package.
pub fn comment(bytes: &[u8]) -> Vec<u8> {
    let zip = zip::ZipArchive::new(Cursor::new(bytes)).expect("a zip package");
    zip.comment().to_vec()
}

/// The entries of a package, in order, and its zip comment.
pub fn unzip(bytes: &[u8]) -> (Vec<(String, Vec<u8>)>, Vec<u8>) {
    (entries(bytes), comment(bytes))
}

/// A package of `entries`, in order, deflated, with `comment` as its zip
/// comment (none when empty).
pub fn pack(entries: &[(String, Vec<u8>)], comment: &[u8]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in entries {
        w.start_file(name.as_str(), opts).expect("a new entry");
        w.write_all(data).expect("the new entry");
    }
    if !comment.is_empty() {
        w.set_raw_comment(comment.to_vec().into())
            .expect("the comment");
    }
    w.finish().expect("the package").into_inner()
}

/// The package `bytes` with each entry passed through `edit` (its name and
/// bytes → the new bytes, or `None` to leave the entry out); the zip
/// comment kept, as a zip tool keeps it.
pub fn repack(bytes: &[u8], mut edit: impl FnMut(&str, Vec<u8>) -> Option<Vec<u8>>) -> Vec<u8> {
    let kept: Vec<(String, Vec<u8>)> = entries(bytes)
        .into_iter()
        .filter_map(|(name, data)| edit(&name, data).map(|data| (name, data)))
        .collect();
    pack(&kept, &comment(bytes))
}

/// The file `path` rewritten to `to` (which may be `path`) by [`repack`].
pub fn repack_file(path: &Path, to: &Path, edit: impl FnMut(&str, Vec<u8>) -> Option<Vec<u8>>) {
    let bytes = std::fs::read(path).expect("the package");
    std::fs::write(to, repack(&bytes, edit)).expect("written");
}

/// `status_logic_easy.xlsx` (EASY at C3:K11) written to `dir/name` with its
/// sheet XML (`xl/worksheets/sheet1.xml`) passed through `edit`.
pub fn easy_with_sheet(dir: &Path, name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let bytes = std::fs::read(fixture("status_logic_easy.xlsx")).expect("the fixture");
    let path = dir.join(name);
    let edited = repack(&bytes, |part, data| {
        Some(if part == "xl/worksheets/sheet1.xml" {
            edit(String::from_utf8(data).expect("UTF-8 XML")).into_bytes()
        } else {
            data
        })
    });
    std::fs::write(&path, edited).expect("written");
    path
}

/// Every entry of a zip package, in order: its name and its stored
/// (still compressed) bytes, to compare parts byte for byte.
pub fn raw_entries(path: &Path) -> Vec<(String, Vec<u8>)> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index_raw(i).unwrap();
            let mut b = Vec::new();
            f.read_to_end(&mut b).unwrap();
            (f.name().unwrap().to_string(), b)
        })
        .collect()
}
