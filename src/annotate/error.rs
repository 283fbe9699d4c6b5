//! Why an annotated copy could not be written.

use zip::result::ZipError;

use crate::address::CellRef;

/// Why an annotated copy could not be written.
#[derive(Debug, thiserror::Error)]
pub enum AnnotateError {
    /// The file is an OLE compound file: an encrypted (password to open)
    /// workbook, or a legacy `.xls`.
    #[error("the workbook is encrypted (password to open) or a legacy .xls file; save it as an unprotected .xlsx and try again")]
    Encrypted,
    /// The input is not an Excel workbook (not a zip archive, or no workbook part).
    #[error("not an Excel workbook: {0}")]
    NotAWorkbook(String),
    /// An edit names a sheet the workbook does not have.
    #[error("the workbook has no sheet named '{0}'")]
    NoSuchSheet(String),
    /// An edit names a chart sheet or dialog sheet, which have no cells.
    #[error("sheet '{0}' is not a worksheet (it is a chart or dialog sheet)")]
    NotAWorksheet(String),
    /// An edit is outside the sheet or carries a value a cell cannot hold.
    #[error("cannot write cell {cell}: {reason}")]
    InvalidValue {
        /// The cell.
        cell: CellRef,
        /// What is wrong.
        reason: String,
    },
    /// The zip archive could not be read or written.
    #[error("zip archive error: {0}")]
    Zip(#[from] ZipError),
    /// A part is not well-formed XML.
    #[error("malformed XML in {part}: {source}")]
    Xml {
        /// The part (zip entry name).
        part: String,
        /// The parser's error.
        #[source]
        source: quick_xml::Error,
    },
    /// A part is XML but not what the format says it should be.
    #[error("unexpected content in {part}: {reason}")]
    Malformed {
        /// The part (zip entry name).
        part: String,
        /// What is wrong.
        reason: String,
    },
    /// A part inflates to more than the size limit (zip bomb guard).
    #[error("{part} is larger than {limit} bytes uncompressed; refusing to inflate it")]
    TooLarge {
        /// The part (zip entry name).
        part: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// The edit is possible in principle but this patcher does not do it.
    #[error("cannot patch {part}: {reason}")]
    Unsupported {
        /// The part (zip entry name).
        part: String,
        /// What is not supported.
        reason: String,
    },
    /// Reading the input or writing the output failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// The sheet of solutions an earlier run wrote was changed since (its
    /// part no longer has the digest recorded): it is not replaced unless
    /// [`Solutions::force`](super::Solutions::force) says so.
    #[error("the sheet '{sheet}' was changed since xlsudoku wrote its solutions; left as it is (--force replaces it)")]
    EditedSolutions {
        /// The sheet's name.
        sheet: String,
    },
}
