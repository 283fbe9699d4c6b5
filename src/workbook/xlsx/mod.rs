//! The Office Open XML reader: opening a `.xlsx`/`.xlsm` package and
//! gathering, per worksheet, its values, its bordered regions and which
//! cells are in blue italics.
//!
//! What comes from where:
//!
//! - **this module** reads the package itself (quick-xml over the zip
//!   parts): the sheets and their parts (through `workbook.xml` and its
//!   relationships), the shared strings, and each sheet's cells in one pass:
//!   values (numbers, shared and inline strings, booleans, errors, cached
//!   results of formulas, constant formulas without a cached result) and
//!   style ids. Values are kept per cell present, never over the bounding
//!   box of the used area, so a sheet with one cell at `A1` and one at
//!   `XFD1048576` costs two cells. Declared counts (`uniqueCount`,
//!   `dimension`) are never used to size anything.
//! - **calamine** resolves the font palette (theme, indexed and tinted
//!   colours), which gives the blue-italic test. It is handed a package
//!   trimmed to the parts that matter for that (workbook, styles, theme), so
//!   nothing else of the input goes through it.
//! - **borders**: `xl/styles.xml`'s `cellXfs` and `borders` are parsed here
//!   (both `left`/`right` and the `start`/`end` names LibreOffice and strict
//!   OOXML writers use), with each sheet's `<cols>`, `<row>` and `<c>` style
//!   ids. A cell's borders resolve as Excel does: its own `<c s>` if the cell
//!   has an element, else its row's style when the row is custom-formatted,
//!   else its column's style. Bordered cells are grouped into separate
//!   regions (split wherever a whole row or column between them carries no
//!   border), and each region gets its own [`BorderMap`](crate::workbook::detect::BorderMap), so a far bordered
//!   cell does not make one map over the whole sheet.
//!
//! What cannot be read is never taken for blank: a value with an unknown
//! entity, a number that is no number, a shared string that does not exist
//! becomes [`Unread::Value`]; a formula without a cached result (or with a
//! cached 0) that is not a constant becomes [`Unread::Formula`], unless it
//! is a direct reference that [`formula`] reads from the workbook. References outside the sheet
//! (`r="ZZZZ1"`, row 0, past row 1,048,576) and malformed XML (including a
//! duplicated attribute) make the sheet unreadable, with a message naming
//! the file, the sheet and what is wrong.
//!
//! Its files: [`parts`] (the zip, its size limits, the workbook's sheets
//! and parts), [`styles`] (fonts and borders of the cell formats, and which
//! cells each sheet styles), [`scan`] (one pass over a worksheet part),
//! [`values`] (a cell's value from its XML), [`formula`] (constant
//! arithmetic and direct references) and [`regions`] (bordered cells cut
//! into separate regions).

mod formula;
mod parts;
mod regions;
mod scan;
mod styles;
#[cfg(test)]
mod tests;
mod values;

use std::io::Cursor;
use std::path::Path;

use calamine::Data;

use super::reader::{RawSheet, Unread, Values};
use super::ReadError;
use parts::{check_sizes, read_part, Package};
use scan::scan_sheet;
use styles::{font_palette, is_blue_italic, XfInfo};
use values::parse_shared_strings;

/// Reads every worksheet of the OOXML package held in `bytes` (read from
/// `path`, which names it in errors), in workbook order (chartsheets,
/// dialog and macro sheets skipped).
pub(super) fn read_sheets(path: &Path, bytes: &[u8]) -> Result<Vec<RawSheet>, ReadError> {
    let p = || path.to_path_buf();
    let mut zip =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| ReadError::NotAWorkbook {
            path: p(),
            reason: format!("a damaged or truncated zip package ({e})"),
        })?;
    check_sizes(&mut zip, path)?;
    let parts = Package::read(&mut zip, path)?;

    // The style palette is workbook-wide: calamine resolves fonts, this
    // module resolves borders; both are indexed by cellXfs position.
    let palette = font_palette(&mut zip, &parts).map_err(|reason| ReadError::NotAWorkbook {
        path: p(),
        reason: format!("styles: {reason}"),
    })?;
    let xfs: Vec<XfInfo> = parts
        .xf_borders
        .iter()
        .enumerate()
        .map(|(i, &edges)| XfInfo {
            edges,
            blue_italic: palette.get(i).is_some_and(is_blue_italic),
            bold: palette
                .get(i)
                .and_then(|s| s.font.as_ref())
                .is_some_and(|f| f.is_bold()),
        })
        .collect();
    let strings = match &parts.shared_strings {
        Some(part) => match read_part(&mut zip, part) {
            Some(xml) => parse_shared_strings(&xml).map_err(|e| ReadError::NotAWorkbook {
                path: p(),
                reason: format!("shared strings ({part}): {e}"),
            })?,
            None => Vec::new(),
        },
        None => Vec::new(),
    };

    let mut out = Vec::with_capacity(parts.sheets.len().min(1024));
    let (mut calculated, mut zero_cached) = (false, Vec::new());
    for (name, part) in &parts.sheets {
        let sheet_err = |reason: String| ReadError::Sheet {
            path: p(),
            sheet: name.clone(),
            reason,
        };
        let Some(part) = part else {
            return Err(sheet_err(
                "the workbook lists it but no sheet part belongs to it".into(),
            ));
        };
        let xml = read_part(&mut zip, part)
            .ok_or_else(|| sheet_err(format!("its part {part} is missing or unreadable")))?;
        let mut scan = scan_sheet(&xml, &strings).map_err(|e| sheet_err(format!("{part}: {e}")))?;
        calculated |= scan.calculated;
        zero_cached.push(std::mem::take(&mut scan.zero_cached));
        let (borders, [blue_italic, bold]) = scan.styles.resolve(&xfs);
        out.push(RawSheet {
            name: name.clone(),
            part: part.clone(),
            borders,
            values: Values(scan.values),
            unread: scan.unread,
            blue_italic,
            bold,
            formulas: scan.formulas.iter().copied().collect(),
            merges: scan.merges,
            hidden_rows: scan.hidden_rows,
            hidden_cols: scan.hidden_cols,
            earlier: Default::default(),
        });
    }
    if calculated {
        // A spreadsheet program calculated this workbook: a formula's
        // cached 0 is its value (a formula solver's 0 for an empty cell).
        for (sheet, zeros) in out.iter_mut().zip(&zero_cached) {
            for at in zeros {
                if matches!(sheet.unread.get(at), Some(Unread::Formula(_))) {
                    sheet.unread.remove(at);
                    sheet.values.set(*at, Data::Float(0.0));
                }
            }
        }
    }
    formula::resolve_references(&mut out);
    Ok(out)
}
