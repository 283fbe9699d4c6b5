//! Why a workbook or a sheet could not be read.

use std::path::PathBuf;

use crate::address::CellRange;

/// Why a workbook could not be read. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The workbook is encrypted (password protected).
    #[error("{}: the workbook is encrypted (password protected); save it without a password first", path.display())]
    Encrypted {
        /// The file.
        path: PathBuf,
    },
    /// The file is not an `.xlsx`/`.xlsm` workbook.
    #[error("{}: not an .xlsx/.xlsm workbook: {reason}", path.display())]
    NotAWorkbook {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// One sheet could not be read.
    #[error("{}: sheet '{sheet}': {reason}", path.display())]
    Sheet {
        /// The file.
        path: PathBuf,
        /// The sheet's name.
        sheet: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A part of the package (or the file) is larger than xlsudoku reads:
    /// an oversized sheet or a zip bomb.
    #[error("{}: {part} is {size} bytes uncompressed, over the {limit}-byte limit (an oversized part or a zip bomb)", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The part (or `the file`).
        part: String,
        /// Its size in bytes, as declared.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// An `.xls` or `.ods` workbook that could not be converted.
    #[error(transparent)]
    Legacy(#[from] super::legacy::LegacyError),
    /// The `--range` given cannot be a grid.
    #[error("{}: range {range} is not a square with a box shape ({reason})", path.display())]
    BadRange {
        /// The file.
        path: PathBuf,
        /// The range asked for.
        range: CellRange,
        /// What is wrong with it.
        reason: String,
    },
}
