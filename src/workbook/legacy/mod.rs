//! Old and other formats: `.xls` (Excel 97–2003, BIFF8) and `.ods`
//! (OpenDocument) are read by converting them, in memory, to an `.xlsx`
//! that every command then reads like any other workbook, and that `solve`
//! annotates and writes as its copy (`in.xls` → `in.solved.xlsx`).
//!
//! The source is parsed into a small neutral model (`model.rs`): sheets of
//! cells with values, formulas and styles (fonts, fills, borders, number
//! formats, alignment), merges, column widths and row heights, hidden
//! rows, columns and sheets. `write` writes that model with
//! rust_xlsxwriter. What the copy cannot carry (macros, charts, images,
//! drawings, comments, formulas that have no Excel spelling) is counted
//! and reported with the file ([`Conversion::not_carried`]), never dropped
//! silently. `.xlsb` is not read: see [`convert`].

use std::path::{Path, PathBuf};

mod cfb;
mod formula;
mod model;
mod odf_values;
mod ods;
mod write;
mod xls;

/// The magic number of an OLE compound file.
const CFB_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// A legacy format xlsudoku converts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LegacyKind {
    /// Excel 97–2003 (`.xls`, BIFF8).
    Xls,
    /// OpenDocument spreadsheet (`.ods`).
    Ods,
}

impl LegacyKind {
    /// The format's usual extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            LegacyKind::Xls => "xls",
            LegacyKind::Ods => "ods",
        }
    }
}

/// What converting a legacy workbook to `.xlsx` did: where it came from
/// and what the copy does not carry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Conversion {
    /// The source's format.
    pub from: LegacyKind,
    /// What the `.xlsx` does not carry, one entry per kind, e.g.
    /// `macros (VBA)`, `2 images`; empty when everything was carried.
    pub not_carried: Vec<String>,
}

impl Conversion {
    /// The line said once per file: `in.xls: converted to .xlsx; not
    /// carried: macros (VBA), 2 images`.
    pub fn line(&self, file: &Path) -> String {
        let lost = if self.not_carried.is_empty() {
            "everything carried".to_string()
        } else {
            format!("not carried: {}", self.not_carried.join(", "))
        };
        format!("{}: converted to .xlsx; {lost}", file.display())
    }
}

/// Why a legacy workbook could not be converted. Every message names the
/// file, and the sheet and cell where they are known.
#[derive(Debug, thiserror::Error)]
pub enum LegacyError {
    /// The file is damaged or cut short.
    #[error("{}: {}{reason}", path.display(), place(sheet, cell))]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The sheet, when known.
        sheet: Option<String>,
        /// The cell, e.g. `B7`, when known.
        cell: Option<String>,
        /// What is wrong.
        reason: String,
    },
    /// A format, or a version of one, that xlsudoku does not read.
    #[error("{}: {what}; save it as .xlsx (Excel or LibreOffice) and try again", path.display())]
    Unsupported {
        /// The file.
        path: PathBuf,
        /// What it is.
        what: String,
    },
    /// The `.xlsx` copy could not be made.
    #[error("{}: the .xlsx copy of it could not be made ({reason})", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

fn place(sheet: &Option<String>, cell: &Option<String>) -> String {
    match (sheet, cell) {
        (Some(s), Some(c)) => format!("sheet '{s}', cell {c}: "),
        (Some(s), None) => format!("sheet '{s}': "),
        _ => String::new(),
    }
}

/// A problem met while parsing, before the file's path is attached.
#[derive(Debug)]
pub(crate) struct Fault {
    sheet: Option<String>,
    cell: Option<String>,
    reason: String,
    kind: FaultKind,
}

#[derive(Debug, PartialEq)]
enum FaultKind {
    Damaged,
    Unsupported,
    Encrypted,
}

impl Fault {
    pub(crate) fn damaged(reason: &str) -> Self {
        Self::damaged_owned(reason.to_string())
    }

    pub(crate) fn damaged_owned(reason: String) -> Self {
        Fault {
            sheet: None,
            cell: None,
            reason,
            kind: FaultKind::Damaged,
        }
    }

    pub(crate) fn unsupported(what: &str) -> Self {
        Fault {
            kind: FaultKind::Unsupported,
            ..Self::damaged(what)
        }
    }

    pub(crate) fn encrypted() -> Self {
        Fault {
            kind: FaultKind::Encrypted,
            ..Self::damaged("encrypted")
        }
    }

    /// A fault at a cell (0-based row and column).
    pub(crate) fn at(row: u32, col: u32, reason: String) -> Self {
        Fault {
            cell: Some(crate::address::CellRef::new(row, col).to_string()),
            ..Self::damaged_owned(reason)
        }
    }

    pub(crate) fn in_sheet(mut self, sheet: &str) -> Self {
        self.sheet.get_or_insert_with(|| sheet.to_string());
        self
    }

    fn into_error(self, path: &Path) -> super::ReadError {
        let path = path.to_path_buf();
        match self.kind {
            FaultKind::Encrypted => super::ReadError::Encrypted { path },
            FaultKind::Unsupported => LegacyError::Unsupported {
                path,
                what: self.reason,
            }
            .into(),
            FaultKind::Damaged => LegacyError::Damaged {
                path,
                sheet: self.sheet,
                cell: self.cell,
                reason: self.reason,
            }
            .into(),
        }
    }
}

/// The legacy format of `bytes`, if it is one this module converts. An
/// encrypted OOXML package (also a compound file) is not: the `.xlsx`
/// reader refuses it as encrypted.
pub fn legacy_kind(bytes: &[u8]) -> Option<LegacyKind> {
    if bytes.starts_with(&CFB_MAGIC) {
        let stream: Vec<u8> = "EncryptedPackage"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let encrypted = bytes.windows(stream.len()).any(|w| w == stream);
        return (!encrypted).then_some(LegacyKind::Xls);
    }
    let ods = bytes.starts_with(b"PK")
        && bytes.get(30..38) == Some(b"mimetype")
        && bytes
            .get(38..84)
            .is_some_and(|m| m.starts_with(b"application/vnd.oasis.opendocument.spreadsheet"));
    ods.then_some(LegacyKind::Ods)
}

/// An `.xls` or `.ods` workbook converted to `.xlsx` bytes, with what the
/// copy does not carry; `Ok(None)` when `bytes` are neither (an `.xlsx`,
/// `.xlsm`, or a file the `.xlsx` reader refuses with its own message:
/// `.xlsb` among them, whose cell formats, where the borders are, calamine
/// does not read). `path` names the file in errors. No input makes it
/// panic; limits on cells (`MAX_SHEET_CELLS` in `model.rs`) bound what a small
/// file can make it build.
pub fn convert(
    path: &Path,
    bytes: &[u8],
) -> Result<Option<(Vec<u8>, Conversion)>, super::ReadError> {
    let Some(kind) = legacy_kind(bytes) else {
        return Ok(None);
    };
    let mut book = match kind {
        LegacyKind::Xls => {
            let (mut book, cells) = xls::read(bytes).map_err(|f| f.into_error(path))?;
            xls::formulas(bytes, &mut book, &cells);
            book
        }
        LegacyKind::Ods => ods::read(bytes).map_err(|f| f.into_error(path))?,
    };
    if book.sheets.is_empty() {
        return Err(Fault::damaged("no worksheet in it").into_error(path));
    }
    let xlsx = write::write(&mut book).map_err(|reason| LegacyError::Write {
        path: path.to_path_buf(),
        reason,
    })?;
    Ok(Some((
        xlsx,
        Conversion {
            from: kind,
            not_carried: book.lost_list(),
        },
    )))
}
