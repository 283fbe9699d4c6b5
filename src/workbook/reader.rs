//! Reading a workbook file: the entry that every format goes through, and
//! the sheet model every format's reader produces ([`RawSheet`]).
//!
//! [`read_file`] loads the file (refusing one over [`MAX_FILE`]);
//! [`read_raw`] tells the format from the first bytes and hands the
//! package to its reader: today the Office Open XML reader
//! ([`super::xlsx`]), which gathers each worksheet's values, bordered
//! regions and blue-italic cells. An OLE compound file (encrypted OOXML or
//! an old binary `.xls`) and an OpenDocument package are told apart here
//! and refused with a message saying what they are.
//!
//! What cannot be read is never taken for blank: such a cell holds an
//! [`Unread`], and a grid holding one is invalid.

use std::collections::HashSet;

use rustc_hash::{FxHashMap, FxHashSet};

/// Something per cell, by `(row, col)`: a fast hash (the keys are a
/// sheet's own positions, not an attacker's), as the finders look every
/// cell of a square up several times.
pub(crate) type CellMap<V> = FxHashMap<(u32, u32), V>;

/// A set of cells, by `(row, col)` (see [`CellMap`]).
pub(crate) type CellSet = FxHashSet<(u32, u32)>;
use std::io::Read;
use std::path::Path;

use calamine::Data;

use super::detect::{BorderMap, Detected};
use super::ReadError;
use crate::address::{CellRange, CellRef};
use crate::grid::BoxShape;

/// The largest workbook file read.
pub(crate) const MAX_FILE: u64 = 1 << 30;

/// The magic number of an OLE compound file (old `.xls`, encrypted OOXML).
const CFB_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// A cell whose value could not be read. It is never blank: a grid holding
/// one is invalid, and nothing is written over it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Unread {
    /// A formula without a cached result that is not a constant: its text.
    Formula(String),
    /// A value that cannot be read, as the file holds it.
    Value(String),
}

/// The values of one worksheet: only the cells present (absolute
/// positions), looked up like calamine's `Range::get_value`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Values(pub(super) CellMap<Data>);

impl Values {
    /// The value at `(row, col)`, if the cell holds one.
    pub fn get_value(&self, (row, col): (u32, u32)) -> Option<&Data> {
        self.0.get(&(row, col))
    }

    /// Sets the value at `(row, col)`.
    pub(crate) fn set(&mut self, at: (u32, u32), value: Data) {
        self.0.insert(at, value);
    }

    /// Every cell present, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&(u32, u32), &Data)> {
        self.0.iter()
    }

    /// How many cells are present.
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// One bordered region of a sheet: a [`BorderMap`] whose `A1` is `origin`.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    /// The sheet cell the map's first cell stands for.
    pub origin: CellRef,
    /// The borders of the region.
    pub map: BorderMap,
}

/// One worksheet as read from the file.
pub(crate) struct RawSheet {
    /// The sheet's name.
    pub name: String,
    /// Its worksheet part (as the workbook's relationship names it).
    pub part: String,
    /// The bordered regions, in reading order; no two overlap.
    pub borders: Vec<Region>,
    /// Cell values (absolute positions); an unreadable cell holds a
    /// placeholder text here, so that it never looks empty.
    pub values: Values,
    /// Cells whose value could not be read.
    pub unread: CellMap<Unread>,
    /// Cells (row, col) whose own format is blue italic.
    pub blue_italic: CellSet,
    /// Cells (row, col) whose own font is bold.
    pub bold: CellSet,
    /// Cells (row, col) that hold a formula (an `<f>` element).
    pub formulas: CellSet,
    /// Merged ranges (`<mergeCell ref>`), as stored.
    pub merges: Vec<crate::address::CellRange>,
    /// Hidden rows (0-based).
    pub hidden_rows: HashSet<u32>,
    /// Hidden columns: `(first, last)`, 0-based.
    pub hidden_cols: Vec<(u32, u32)>,
    /// Cells holding an earlier xlsudoku run's fills, as its grid records
    /// say and as the cells still show them (set after reading, from the
    /// copy's records; empty for a workbook xlsudoku did not write).
    pub earlier: CellSet,
}

impl RawSheet {
    /// Grid detection ([`super::detect::detect_all`]) over every bordered
    /// region, with ranges in sheet positions: the grids in reading order
    /// of their corners, and the squares turned down for their values.
    pub fn detect(
        &self,
        forced: Option<BoxShape>,
        mut judge: impl FnMut(CellRange, usize) -> Option<i64>,
        mut labelled: impl FnMut(CellRange, &[CellRange], usize) -> Option<i64>,
    ) -> super::detect::Detection {
        let mut grids = Vec::new();
        let mut turned_down = Vec::new();
        for region in &self.borders {
            let o = region.origin;
            let shift = |r: CellRange| {
                CellRange::new(r.start.offset(o.row, o.col), r.end.offset(o.row, o.col))
            };
            let found = super::detect::detect_all(
                &region.map,
                forced,
                |range, side| judge(shift(range), side),
                |inner, strips, side| {
                    let strips: Vec<CellRange> = strips.iter().map(|&s| shift(s)).collect();
                    labelled(shift(inner), &strips, side)
                },
            );
            grids.extend(found.grids.into_iter().map(|d| Detected {
                range: shift(d.range),
                shape: d.shape,
            }));
            turned_down.extend(found.turned_down.into_iter().map(shift));
        }
        grids.sort_by_key(|d| (d.range.start.row, d.range.start.col));
        super::detect::Detection { grids, turned_down }
    }
}

/// Reads a workbook file into memory, refusing one over [`MAX_FILE`].
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let file = std::fs::File::open(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_open_file(path, file)
}

/// [`read_file`] of the file `path` already open as `file`.
pub(crate) fn read_open_file(path: &Path, file: std::fs::File) -> Result<Vec<u8>, ReadError> {
    let p = || path.to_path_buf();
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > MAX_FILE {
        return Err(ReadError::TooLarge {
            path: p(),
            part: "the file".into(),
            size: len,
            limit: MAX_FILE,
        });
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io { path: p(), source })?;
    Ok(bytes)
}

/// Reads every worksheet of the workbook held in `bytes` (read from
/// `path`, which names it in errors), in workbook order (chartsheets,
/// dialog and macro sheets skipped).
pub(crate) fn read_raw(path: &Path, bytes: &[u8]) -> Result<Vec<RawSheet>, ReadError> {
    let p = || path.to_path_buf();
    if bytes.starts_with(&CFB_MAGIC) {
        return Err(classify_cfb(path, bytes));
    }
    if !bytes.starts_with(b"PK") {
        return Err(ReadError::NotAWorkbook {
            path: p(),
            reason: "not a zip package (an .xlsx/.xlsm file is a zip archive)".into(),
        });
    }
    // An OpenDocument package starts with its uncompressed `mimetype` part.
    if bytes.get(30..38) == Some(b"mimetype")
        && bytes
            .get(38..84)
            .is_some_and(|m| m.starts_with(b"application/vnd.oasis.opendocument"))
    {
        return Err(ReadError::NotAWorkbook {
            path: p(),
            reason: "an OpenDocument spreadsheet (.ods); save it as .xlsx and try again".into(),
        });
    }
    super::xlsx::read_sheets(path, bytes)
}

/// An OLE compound file: encrypted OOXML or something else (old `.xls`).
/// Told by the name of the `EncryptedPackage` stream that an encrypted
/// workbook's directory holds (UTF-16LE), not by calamine, whose compound
/// file reader panics or runs out of memory on a damaged one.
fn classify_cfb(path: &Path, bytes: &[u8]) -> ReadError {
    let stream: Vec<u8> = "EncryptedPackage"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    if bytes.windows(stream.len()).any(|w| w == stream) {
        ReadError::Encrypted {
            path: path.to_path_buf(),
        }
    } else {
        ReadError::NotAWorkbook {
            path: path.to_path_buf(),
            reason: "an old binary workbook (.xls, Excel 97-2003); save it as .xlsx (Excel or LibreOffice) and try again".into(),
        }
    }
}
