//! The annotated copy: a copy of an `.xlsx`/`.xlsm` workbook in which some
//! cells of some sheets change and every other byte of every other part is
//! kept.
//!
//! The copy is a surgical patch, not a load and save: every zip entry is
//! copied as it is stored (compressed bytes, name and order) except
//!
//! - the worksheet parts whose cells change, rewritten by streaming their
//!   XML and changing only the edited cells (plus the sheet's `<dimension>`);
//! - `xl/styles.xml`, which gains the blue italic fonts and cell formats
//!   the written cells use (once each, reused on later runs);
//! - `xl/workbook.xml`, which gets `<calcPr fullCalcOnLoad="1"/>` so that
//!   formulas over the grid are recalculated when the copy is opened.
//!
//! and, only when needed: `xl/calcChain.xml` loses the entries of formula
//! cells that were overwritten (Excel calls a file damaged otherwise; a
//! chain left empty is dropped with its content type and relationship),
//! a workbook without a style sheet is given one, and with
//! [`AnnotateOptions::solutions`] the sheet of solutions is added, rewritten
//! or removed with its content type, relationship, place in the sheet list
//! and print area ([`solutions`]).
//!
//! With no edits at all, nothing is rewritten. Written values (numbers and
//! text) take the cell's own style (borders, fill, number format,
//! alignment) with the font made italic and [`FILL_COLOR`] blue; a cell
//! absent from the XML takes its row's style (`customFormat`), else its
//! column's. Text is written as an inline string, so the shared strings
//! part is never touched. A [`CellValue::Clear`] removes a value (and
//! formula) and keeps the style. A cell named in
//! [`AnnotateOptions::style_from`] takes another cell's style instead (plain,
//! or its blue italic twin): the answer copy of a grid gets the grid's
//! borders. Running the same edits on the copy gives the same parts again:
//! no style is ever added twice.
//!
//! The copy's records get the run's stamp ([`AnnotateOptions::stamp`])
//! and one [`GridRecord`] line per grid solved
//! ([`AnnotateOptions::grids`]): the cells xlsudoku filled with the style
//! each had before, the note's cell, and the square of the grid's answer
//! copy with the style each of its cells had before. Where they are kept
//! (the zip comment while short, else the part [`RECORD_PART`] pointed at
//! from the comment) is [`crate::records`]'s business. A later run recognises its own
//! writing by this record only, and a [`CellValue::Clear`] of a recorded
//! fill gives the cell its old style back.
//!
//! Refused with a typed [`AnnotateError`]: encrypted workbooks and other
//! OLE files, inputs that are not zip archives or have no workbook part,
//! archives whose central directory names an entry twice or disagrees with
//! its end record's count (a copy would lose entries),
//! parts that inflate beyond [`MAX_PART_SIZE`] (zip bombs), unknown sheet
//! names, chart sheets, and overwriting the master cell of a shared formula
//! (the cells that share it would lose their formula).
//!
//! ```
//! use std::io::Cursor;
//! use xlsudoku::annotate::{annotate, CellEdit, CellValue, SheetEdits};
//!
//! // A workbook with a given in C3, made with rust_xlsxwriter.
//! let mut book = rust_xlsxwriter::Workbook::new();
//! book.add_worksheet().set_name("Puzzle")?.write_number(2, 2, 5)?;
//! let original = book.save_to_buffer()?;
//!
//! let edits = [SheetEdits {
//!     sheet: "Puzzle".into(),
//!     cells: vec![
//!         CellEdit { at: "D3".parse()?, value: CellValue::Number(7.0) },
//!         CellEdit { at: "C13".parse()?, value: CellValue::Text("solved".into()) },
//!     ],
//! }];
//! let mut copy = Cursor::new(Vec::new());
//! annotate(Cursor::new(original), &edits, &mut copy)?;
//!
//! use calamine::{Data, Reader, Xlsx};
//! let mut book: Xlsx<_> = calamine::open_workbook_from_rs(copy)?;
//! let sheet = book.worksheet_range("Puzzle")?;
//! assert_eq!(sheet.get_value((2, 3)), Some(&Data::Float(7.0)));
//! assert_eq!(sheet.get_value((12, 2)), Some(&Data::String("solved".into())));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod calc_chain;
mod package;
mod sheet;
mod sheet_place;
pub mod solutions;
mod styles;
mod xml;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{Read, Seek, SeekFrom, Write};

use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use crate::address::{CellRef, MAX_COL, MAX_ROW};
use calc_chain::{drop_entries, ChainEdit};
use package::{parse_rels, parse_sheets, rels_part_of, remove_elements, set_full_calc_on_load};
use sheet::{patch_sheet, SheetPlan};
use styles::StylePool;

pub use crate::records::{
    parse_grid_records, read_grid_records, read_stamp, record_text, AnswerRecord, GridMark,
    GridRecord, GRID_PREFIX, RECORD_PART, STAMP_PREFIX,
};
pub use crate::records::{read_solutions_record, SolutionsRecord, SOLUTIONS_PREFIX};
pub use solutions::{SolutionCopy, Solutions};

/// The font colour of written cells (ARGB): blue, as in the seed macros.
pub const FILL_COLOR: &str = "FF0000FF";

/// The largest uncompressed size of a part the patcher inflates (256 MiB):
/// a guard against zip bombs.
pub const MAX_PART_SIZE: u64 = 256 * 1024 * 1024;

/// The first bytes of an OLE compound file: what Excel saves an encrypted
/// (password-protected) workbook as.
const CFB_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// The new content of one cell.
#[derive(Debug, Clone, PartialEq)]
pub enum CellValue {
    /// A number (a solved digit), written as a numeric value in blue italics.
    Number(f64),
    /// Text (candidate letters, the note), written as an inline string in
    /// blue italics.
    Text(String),
    /// No value: an existing value (and formula) is removed, the cell's
    /// style kept. Clearing a cell that is not in the sheet does nothing.
    Clear,
}

/// One cell to change.
#[derive(Debug, Clone, PartialEq)]
pub struct CellEdit {
    /// The cell.
    pub at: CellRef,
    /// Its new content.
    pub value: CellValue,
}

/// A written cell that takes another cell's style instead of its own: the
/// answer copy of a grid takes the borders, fill and number format of the
/// grid's cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleFrom {
    /// The sheet's name.
    pub sheet: String,
    /// The written cell.
    pub at: CellRef,
    /// The cell whose style (`cellXfs` index, as the sheet has it before
    /// the edits) it takes.
    pub from: CellRef,
    /// Whether the value is written in that style's blue italic twin (a
    /// solved digit) rather than the style itself (a given).
    pub blue: bool,
}

/// The cells to change on one sheet.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SheetEdits {
    /// The sheet's name, as in the workbook (the tab name).
    pub sheet: String,
    /// The edits; when a cell appears twice, the last edit wins.
    pub cells: Vec<CellEdit>,
}

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
    /// [`Solutions::force`] says so.
    #[error("the sheet '{sheet}' was changed since xlsudoku wrote its solutions; left as it is (--force replaces it)")]
    EditedSolutions {
        /// The sheet's name.
        sheet: String,
    },
}

/// Settings of [`annotate_with`].
#[derive(Debug, Clone, PartialEq)]
pub struct AnnotateOptions {
    /// The largest uncompressed part size to inflate, in bytes.
    pub max_part_size: u64,
    /// A line to record in the copy's records (see [`crate::records`]): it replaces any
    /// earlier line starting with [`STAMP_PREFIX`]; the rest is kept. Batch runs record
    /// what the copy was made from, to know later whether it is up to date.
    pub stamp: Option<String>,
    /// The grids the edits solve, recorded in the copy's records (one
    /// [`GridRecord`] line each, beside the stamp) so that a later run
    /// knows which cells xlsudoku wrote and which style each had before.
    /// Records of sheets that neither `grids` nor the edits name are kept;
    /// the others are replaced. When the records do not all fit in the
    /// record text (65,535 bytes, a zip comment's limit), none is
    /// written: the filled digits then read as givens, never the other way
    /// round.
    pub grids: Vec<GridMark>,
    /// Written cells that take another cell's style ([`StyleFrom`]); a
    /// cell the edits do not write with a value is left alone.
    pub style_from: Vec<StyleFrom>,
    /// The sheet of solutions (`--answers sheet`): `Some` writes it with
    /// these copies (or, with none, removes an earlier run's), `None`
    /// leaves an earlier run's sheet and its record as they are.
    pub solutions: Option<Solutions>,
}

impl Default for AnnotateOptions {
    fn default() -> Self {
        AnnotateOptions {
            max_part_size: MAX_PART_SIZE,
            stamp: None,
            grids: Vec::new(),
            style_from: Vec::new(),
            solutions: None,
        }
    }
}

/// Writes to `output` a copy of the workbook `input` with `edits` applied.
///
/// Every zip entry other than the edited sheets, `xl/styles.xml` and
/// `xl/workbook.xml` is copied byte for byte (as stored); with no cell
/// edits, all of them are. See the [module documentation](self) for what
/// changes in the rewritten parts, and [`AnnotateError`] for the failures.
pub fn annotate<R: Read + Seek, W: Write + Seek>(
    input: R,
    edits: &[SheetEdits],
    output: W,
) -> Result<(), AnnotateError> {
    annotate_with(input, edits, output, AnnotateOptions::default())
}

/// [`annotate`] with explicit [`AnnotateOptions`].
pub fn annotate_with<R: Read + Seek, W: Write + Seek>(
    mut input: R,
    edits: &[SheetEdits],
    output: W,
    options: AnnotateOptions,
) -> Result<(), AnnotateError> {
    let mut magic = [0u8; 8];
    let n = read_up_to(&mut input, &mut magic)?;
    if n == magic.len() && magic == CFB_MAGIC {
        return Err(AnnotateError::Encrypted);
    }
    crate::opc::check_central_directory(&mut input).map_err(|reason| {
        AnnotateError::NotAWorkbook(format!(
            "a damaged zip package ({reason}); refusing it rather than lose parts"
        ))
    })?;
    input.seek(SeekFrom::Start(0))?;
    let mut archive = ZipArchive::new(input)
        .map_err(|e| AnnotateError::NotAWorkbook(format!("not a readable zip archive ({e})")))?;
    let book = Book::read(&mut archive, options.max_part_size)?;
    let old_records = record_text(&mut archive);
    let earlier = parse_grid_records(&old_records);
    let plans = book.plan(edits, &earlier, &options.style_from)?;
    // Part → the style each written cell had before.
    let mut bases: HashMap<String, HashMap<CellRef, u32>> = HashMap::new();
    // The sheet of solutions an earlier run wrote, when it is still there.
    let own_sheet = crate::records::parse_solutions_record(&old_records)
        .filter(|r| book.worksheet_part(&r.sheet) == Some(r.part.as_str()));
    if let (Some(own), Some(wanted)) = (&own_sheet, &options.solutions) {
        let now = read_bytes(&mut archive, &own.part, options.max_part_size)?;
        if solutions::digest(&now) != own.digest && !wanted.force {
            return Err(AnnotateError::EditedSolutions {
                sheet: own.sheet.clone(),
            });
        }
    }
    let copies: &[SolutionCopy] = options
        .solutions
        .as_ref()
        .map_or(&[], |s| s.copies.as_slice());
    // The new sheet of solutions: name, part and content.
    let mut new_sheet: Option<(String, String, Vec<u8>, String)> = None;

    let mut changes = Changes::default();
    if !plans.is_empty() || !copies.is_empty() {
        let limit = options.max_part_size;
        let (styles_part, styles_src, created) = match &book.styles {
            Some(p) => (p.clone(), read_part(&mut archive, p, limit)?, false),
            None => {
                let xfs = max_style_index(&mut archive, &book, limit)?.saturating_add(1);
                (
                    new_styles_name(&book)?,
                    Part::new(&minimal_styles(xfs)),
                    true,
                )
            }
        };
        let mut pool = StylePool::parse(&styles_part, &styles_src.text)?;
        let mut dropped: HashSet<(u32, CellRef)> = HashSet::new();
        for planned in &plans {
            let src = read_part(&mut archive, &planned.part, limit)?;
            let forced = forced_styles(&planned.part, &src.text, &planned.from)?;
            let patched = patch_sheet(
                &planned.part,
                &src.text,
                &planned.plan,
                &planned.restore,
                &forced,
                &mut pool,
            )?;
            bases.insert(planned.part.clone(), patched.bases.into_iter().collect());
            if let Some(id) = planned.sheet_id {
                dropped.extend(patched.dropped_formulas.iter().map(|c| (id, *c)));
            }
            changes.set(&planned.part, src.bytes_of(patched.xml));
        }
        if !copies.is_empty() {
            let name = solutions::free_name(
                book.sheets.iter().map(|s| s.name.as_str()),
                own_sheet.as_ref().map(|o| o.sheet.as_str()),
            );
            let part = match &own_sheet {
                Some(o) => o.part.clone(),
                None => book.new_sheet_part(&claimed_parts(&mut archive, &book, limit)?),
            };
            let (xml, area) =
                solutions_sheet(&mut archive, &book, copies, &name, &mut pool, limit)?;
            new_sheet = Some((name, part, xml.into_bytes(), area));
        }
        if let Some(styles) = pool.render()? {
            let bytes = styles_src.bytes_of(styles);
            if created {
                add_styles_part(
                    &mut archive,
                    &book,
                    &styles_part,
                    bytes,
                    limit,
                    &mut changes,
                )?;
            } else {
                changes.set(&styles_part, bytes);
            }
        }
        let wb_src = read_part(&mut archive, &book.workbook, limit)?;
        let wb = set_full_calc_on_load(&book.workbook, &wb_src.text)?;
        if wb != wb_src.text {
            changes.set(&book.workbook, wb_src.bytes_of(wb));
        }
        if let (Some(chain), false) = (&book.calc_chain, dropped.is_empty()) {
            let src = read_part(&mut archive, chain, limit)?;
            match drop_entries(chain, &src.text, &dropped)? {
                ChainEdit::Keep => {}
                ChainEdit::Rewrite(text) => changes.set(chain, src.bytes_of(text)),
                ChainEdit::Remove => {
                    remove_calc_chain(&mut archive, &book, chain, limit, &mut changes)?;
                }
            }
        }
    }
    let mut removed = false;
    let solutions_line = match (&options.solutions, &new_sheet, &own_sheet) {
        (Some(_), Some((name, part, bytes, area)), _) => {
            put_solutions_sheet(
                &mut archive,
                &book,
                (name, part, bytes, area),
                own_sheet.is_some(),
                options.max_part_size,
                &mut changes,
            )?;
            Some(
                SolutionsRecord {
                    sheet: name.clone(),
                    part: part.clone(),
                    digest: solutions::digest(bytes),
                }
                .to_line(),
            )
        }
        (Some(_), None, Some(own)) => {
            remove_solutions_sheet(
                &mut archive,
                &book,
                own,
                options.max_part_size,
                &mut changes,
            )?;
            removed = true;
            None
        }
        (Some(_), None, None) => None,
        (None, _, own) => own.as_ref().map(SolutionsRecord::to_line),
    };
    let mut records = grid_records(&book, edits, &options.grids, &earlier, &bases);
    if (new_sheet.is_some() || removed) && records.is_none() {
        records = Some(earlier.iter().map(GridRecord::to_line).collect());
    }
    if let (Some(lines), Some(line)) = (records.as_mut(), solutions_line) {
        lines.push(line);
    }
    let text = crate::records::stamped_comment(&old_records, options.stamp.as_deref());
    let text = match &records {
        Some(lines) => crate::records::recorded_comment(&text, lines),
        None => text,
    };
    // A long record goes into a part of its own: LibreOffice cannot open a
    // zip archive with a long comment.
    let (comment, part) = crate::records::part::split_record_text(&text);
    let had_part = archive.by_name(RECORD_PART).is_ok();
    match part {
        Some(bytes) if had_part => changes.set(RECORD_PART, bytes),
        Some(bytes) => changes.added.push((RECORD_PART.to_string(), bytes)),
        None if had_part => {
            changes.replaced.insert(RECORD_PART.to_string(), None);
        }
        None => {}
    }
    write_copy(&mut archive, &changes, output, comment)
}

/// The grid record lines of the copy (`None`: the comment's records stay
/// as they are, since nothing is edited or recorded): the earlier records
/// of sheets left alone, then one per [`GridMark`], whose cells take the
/// style they had before xlsudoku first wrote them.
fn grid_records(
    book: &Book,
    edits: &[SheetEdits],
    marks: &[GridMark],
    earlier: &[GridRecord],
    bases: &HashMap<String, HashMap<CellRef, u32>>,
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
        let values: HashMap<CellRef, &CellValue> = edits
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
                answer,
            }
            .to_line(),
        );
    }
    Some(lines)
}

/// What the copy changes in the package.
#[derive(Debug, Default)]
struct Changes {
    /// Entry name → new bytes, or `None` to leave the entry out.
    replaced: HashMap<String, Option<Vec<u8>>>,
    /// New entries, written after the others.
    added: Vec<(String, Vec<u8>)>,
}

impl Changes {
    fn set(&mut self, name: &str, bytes: Vec<u8>) {
        self.replaced.insert(name.to_string(), Some(bytes));
    }

    /// The part as it stands in the copy so far.
    fn current<R: Read + Seek>(
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

/// The most cell formats a workbook can have.
const MAX_XFS: usize = 65_000;

/// The style sheet given to a workbook that has none: Excel's defaults,
/// with `xfs` plain cell formats (at least one), so that style indices the
/// sheets already use (and which meant nothing without a style sheet) keep
/// meaning the default and the new formats come after them.
fn minimal_styles(xfs: usize) -> String {
    let xfs = xfs.clamp(1, MAX_XFS);
    let mut out = String::with_capacity(1024 + 64 * xfs);
    out.push_str(concat!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
        "\n",
        r#"<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#,
        r#"<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>"#,
        r#"<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>"#,
        r#"<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>"#,
        r#"<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>"#,
    ));
    out.push_str(&format!(r#"<cellXfs count="{xfs}">"#));
    for _ in 0..xfs {
        out.push_str(r#"<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>"#);
    }
    out.push_str(concat!(
        "</cellXfs>",
        r#"<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>"#,
        "</styleSheet>"
    ));
    out
}

/// The largest `s="N"` style index written in any worksheet (0 if none).
/// A textual scan: a match inside cell text only pads the style sheet.
fn max_style_index<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    limit: u64,
) -> Result<usize, AnnotateError> {
    let mut max = 0usize;
    for sheet in &book.sheets {
        let SheetPart::Worksheet(part) = &sheet.part else {
            continue;
        };
        let src = read_part(archive, part, limit)?;
        for (i, _) in src.text.match_indices(" s=\"") {
            let rest = &src.text[i + 4..];
            let digits = rest.find('"').map_or("", |e| &rest[..e]);
            if let Ok(n) = digits.parse::<usize>() {
                max = max.max(n.min(MAX_XFS));
            }
        }
    }
    Ok(max)
}

const STYLES_TYPE: &str =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles";
const STYLES_CONTENT_TYPE: &str =
    "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml";

/// A free name for a new style sheet beside the workbook part.
fn new_styles_name(book: &Book) -> Result<String, AnnotateError> {
    let dir = book
        .workbook
        .rfind('/')
        .map_or("", |i| &book.workbook[..=i]);
    ["styles.xml", "xlsudoku-styles.xml"]
        .iter()
        .map(|n| format!("{dir}{n}"))
        .find(|n| !book.names.iter().any(|e| e.eq_ignore_ascii_case(n)))
        .ok_or_else(|| AnnotateError::Unsupported {
            part: book.workbook.clone(),
            reason: "the workbook has no style sheet and no free name for one".to_string(),
        })
}

/// Adds a style sheet to a workbook that has none: the part, its content
/// type and the workbook's relationship to it.
fn add_styles_part<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    part: &str,
    bytes: Vec<u8>,
    limit: u64,
    changes: &mut Changes,
) -> Result<(), AnnotateError> {
    let missing = |what: &str| AnnotateError::Unsupported {
        part: book.workbook.clone(),
        reason: format!("the workbook has no style sheet and no {what} to add one to"),
    };
    let ct = book
        .content_types
        .as_ref()
        .ok_or_else(|| missing("[Content_Types].xml"))?;
    let rels = book
        .workbook_rels
        .as_ref()
        .ok_or_else(|| missing("relationships part"))?;
    let src = changes.current(archive, ct, limit)?;
    let text = insert_before_root_end(
        ct,
        &src.text,
        &format!(r#"<Override PartName="/{part}" ContentType="{STYLES_CONTENT_TYPE}"/>"#),
    )?;
    changes.set(ct, src.bytes_of(text));
    let src = changes.current(archive, rels, limit)?;
    let ids: HashSet<String> = parse_rels(rels, &src.text, &book.workbook)?
        .into_iter()
        .map(|r| r.id)
        .collect();
    let id = (1..)
        .map(|n| format!("rId{n}"))
        .find(|id| !ids.contains(id))
        .unwrap_or_default();
    let target = part.rsplit('/').next().unwrap_or(part);
    let text = insert_before_root_end(
        rels,
        &src.text,
        &format!(r#"<Relationship Id="{id}" Type="{STYLES_TYPE}" Target="{target}"/>"#),
    )?;
    changes.set(rels, src.bytes_of(text));
    changes.added.push((part.to_string(), bytes));
    Ok(())
}

/// `xml` with `text` put just before the root element's end tag, found
/// by reading the document (a damaged part, with no such tag or not
/// well-formed, is refused rather than patched blind).
fn insert_before_root_end(part: &str, xml: &str, text: &str) -> Result<String, AnnotateError> {
    let malformed = |reason: String| AnnotateError::Malformed {
        part: part.to_string(),
        reason,
    };
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut depth, mut at) = (0usize, None);
    loop {
        let before = reader.buffer_position() as usize;
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(_)) => depth += 1,
            Ok(quick_xml::events::Event::End(_)) => {
                depth = depth.saturating_sub(1);
                if depth == 0 && at.is_none() {
                    at = Some(before);
                }
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => return Err(malformed(e.to_string())),
        }
    }
    let at = at
        .filter(|_| depth == 0)
        .ok_or_else(|| malformed("no root end tag".to_string()))?;
    let mut out = String::with_capacity(xml.len() + text.len());
    out.push_str(&xml[..at]);
    out.push_str(text);
    out.push_str(&xml[at..]);
    Ok(out)
}

/// Drops the calculation chain part: its entry, its content type override
/// and the workbook's relationship to it.
fn remove_calc_chain<R: Read + Seek>(
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
/// left out.
fn write_copy<R: Read + Seek, W: Write + Seek>(
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
            Some(Some(bytes)) => {
                let method = match file.compression() {
                    CompressionMethod::Stored => CompressionMethod::Stored,
                    _ => CompressionMethod::Deflated,
                };
                // Level 3 deflates large sheets about eight times faster
                // than the default 6, to within 0.5 % of the size.
                let level = (method == CompressionMethod::Deflated).then_some(3);
                let opts: SimpleFileOptions = file
                    .options()
                    .compression_method(method)
                    .compression_level(level)
                    .large_file(false);
                drop(file);
                writer.start_file(name, opts)?;
                writer.write_all(bytes)?;
            }
        }
    }
    for (name, bytes) in &changes.added {
        let opts = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .compression_level(Some(3));
        writer.start_file(name, opts)?;
        writer.write_all(bytes)?;
    }
    writer.set_raw_comment(comment.into())?;
    writer.finish()?;
    Ok(())
}

fn read_up_to<R: Read>(r: &mut R, buf: &mut [u8]) -> std::io::Result<usize> {
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
struct Part {
    /// The text, without a byte order mark.
    text: String,
    /// Whether the part started with a byte order mark (written back).
    bom: bool,
}

impl Part {
    /// A part made here.
    fn new(text: &str) -> Self {
        Part {
            text: text.to_string(),
            bom: false,
        }
    }

    /// `text` as the bytes of the part, with the byte order mark if the
    /// original had one.
    fn bytes_of(&self, text: String) -> Vec<u8> {
        if self.bom {
            let mut v = "\u{FEFF}".as_bytes().to_vec();
            v.extend_from_slice(text.as_bytes());
            v
        } else {
            text.into_bytes()
        }
    }
}

/// Inflates one part, refusing parts over `limit` bytes.
fn read_bytes<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    name: &str,
    limit: u64,
) -> Result<Vec<u8>, AnnotateError> {
    let too_large = || AnnotateError::TooLarge {
        part: name.to_string(),
        limit,
    };
    let file = archive.by_name(name)?;
    if file.size() > limit {
        return Err(too_large());
    }
    let mut buf = Vec::with_capacity(usize::try_from(file.size()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(buf)
}

/// The worksheet XML of the sheet of solutions named `name` holding
/// `copies`, each cell in its grid cell's style (its blue italic twin for
/// a solved cell), and its print area.
fn solutions_sheet<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    copies: &[SolutionCopy],
    name: &str,
    pool: &mut StylePool<'_>,
    limit: u64,
) -> Result<(String, String), AnnotateError> {
    // Each grid cell's style, read once per source sheet.
    let mut styles: Vec<Vec<u32>> = Vec::with_capacity(copies.len());
    let mut by_sheet: HashMap<&str, HashMap<CellRef, u32>> = HashMap::new();
    // Kept copies have their styles already.
    let fresh = copies.iter().filter(|c| c.kept_styles.is_none());
    for sheet in fresh.clone().map(|c| c.sheet.as_str()) {
        if by_sheet.contains_key(sheet) {
            continue;
        }
        let found = match book.worksheet_part(sheet) {
            Some(part) => {
                let wanted: HashSet<CellRef> = fresh
                    .clone()
                    .filter(|c| c.sheet == sheet)
                    .flat_map(|c| {
                        let g = c.grid;
                        (0..g.rows()).flat_map(move |r| (0..g.cols()).map(move |k| g.cell(r, k)))
                    })
                    .collect();
                let src = read_part(archive, part, limit)?;
                sheet::styles_of(part, &src.text, &wanted)?
            }
            None => return Err(AnnotateError::NoSuchSheet(sheet.to_string())),
        };
        by_sheet.insert(sheet, found);
    }
    for copy in copies {
        if let Some(kept) = &copy.kept_styles {
            styles.push(kept.clone());
            continue;
        }
        let side = copy.grid.cols().max(1) as usize;
        let own = by_sheet.get(copy.sheet.as_str());
        let mut list = Vec::with_capacity(copy.cells.len());
        for (i, (_, blue)) in copy.cells.iter().enumerate() {
            let at = copy.grid.cell((i / side) as u32, (i % side) as u32);
            let base = own.and_then(|m| m.get(&at).copied()).unwrap_or(0);
            list.push(if *blue { pool.blue(base)? } else { base });
        }
        styles.push(list);
    }
    let places = solutions::layout(copies.iter().map(|c| c.grid.rows()));
    let xml = solutions::sheet_xml(copies, &places, 0, book.strict, |k, i| {
        styles.get(k).and_then(|l| l.get(i)).copied().unwrap_or(0)
    });
    Ok((xml, solutions::print_area(name, &places)))
}

/// The parts the package names, whether it holds them or not: those its
/// content types override (an `<Override>` left behind by a part taken
/// out) and the targets of the workbook's relationships. A new part takes
/// none of these names: a second `<Override>` of one name makes the
/// package invalid, and a stale relationship would point to the new part.
fn claimed_parts<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    limit: u64,
) -> Result<Vec<String>, AnnotateError> {
    let mut out = Vec::new();
    if let Some(ct) = &book.content_types {
        let src = read_part(archive, ct, limit)?;
        let names = package::attr_values(ct, &src.text, "Override", "PartName")?;
        out.extend(
            names
                .into_iter()
                .map(|n| n.trim_start_matches('/').to_string()),
        );
    }
    if let Some(rels) = &book.workbook_rels {
        let src = read_part(archive, rels, limit)?;
        out.extend(
            parse_rels(rels, &src.text, &book.workbook)?
                .into_iter()
                .map(|r| r.target),
        );
    }
    Ok(out)
}

/// Puts the sheet of solutions into the copy: the part rewritten (an
/// earlier run's, `existing`) or added with its content type, workbook
/// relationship and place in the sheet list; its print area set.
fn put_solutions_sheet<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    (name, part, bytes, area): (&str, &str, &[u8], &str),
    existing: bool,
    limit: u64,
    changes: &mut Changes,
) -> Result<(), AnnotateError> {
    if existing {
        changes.set(part, bytes.to_vec());
        let src = changes.current(archive, &book.workbook, limit)?;
        let text = solutions::set_print_area(&book.workbook, &src.text, name, area)?;
        changes.set(&book.workbook, src.bytes_of(text));
        return Ok(());
    }
    let missing = |what: &str| AnnotateError::Unsupported {
        part: book.workbook.clone(),
        reason: format!("the workbook has no {what} to add the sheet of solutions to"),
    };
    let ct = book
        .content_types
        .as_ref()
        .ok_or_else(|| missing("[Content_Types].xml"))?;
    let rels = book
        .workbook_rels
        .as_ref()
        .ok_or_else(|| missing("relationships part"))?;
    let src = changes.current(archive, ct, limit)?;
    let text = insert_before_root_end(
        ct,
        &src.text,
        &format!(
            r#"<Override PartName="/{part}" ContentType="{}"/>"#,
            solutions::WORKSHEET_CONTENT_TYPE
        ),
    )?;
    changes.set(ct, src.bytes_of(text));
    let src = changes.current(archive, rels, limit)?;
    let existing = parse_rels(rels, &src.text, &book.workbook)?;
    let ids: HashSet<&str> = existing.iter().map(|r| r.id.as_str()).collect();
    // The worksheet relationship type the package uses already (strict
    // or transitional), else the one its namespace calls for.
    let strict = match existing.iter().find(|r| r.kind.ends_with("/worksheet")) {
        Some(r) => r.kind == solutions::STRICT_WORKSHEET_TYPE,
        None => book.strict,
    };
    let kind = if strict {
        solutions::STRICT_WORKSHEET_TYPE
    } else {
        solutions::WORKSHEET_TYPE
    };
    let id = (1..)
        .map(|n| format!("rId{n}"))
        .find(|id| !ids.contains(id.as_str()))
        .unwrap_or_default();
    let dir = book
        .workbook
        .rfind('/')
        .map_or("", |i| &book.workbook[..=i]);
    let target = part.strip_prefix(dir).unwrap_or(part);
    let target = if dir.is_empty() || part.starts_with(dir) {
        target.to_string()
    } else {
        format!("/{part}")
    };
    let text = insert_before_root_end(
        rels,
        &src.text,
        &format!(r#"<Relationship Id="{id}" Type="{kind}" Target="{target}"/>"#),
    )?;
    changes.set(rels, src.bytes_of(text));
    let sheet_id = solutions::free_sheet_id(book.sheets.iter().filter_map(|s| s.sheet_id));
    let src = changes.current(archive, &book.workbook, limit)?;
    let text = solutions::add_sheet(&book.workbook, &src.text, name, sheet_id, &id, area)?;
    changes.set(&book.workbook, src.bytes_of(text));
    changes.added.push((part.to_string(), bytes.to_vec()));
    Ok(())
}

/// Takes an earlier run's sheet of solutions out of the copy: its part,
/// content type, workbook relationship, place in the sheet list and the
/// names local to it.
fn remove_solutions_sheet<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    book: &Book,
    own: &SolutionsRecord,
    limit: u64,
    changes: &mut Changes,
) -> Result<(), AnnotateError> {
    changes.replaced.insert(own.part.clone(), None);
    if let Some(ct) = &book.content_types {
        let src = changes.current(archive, ct, limit)?;
        let name = format!("/{}", own.part);
        let text = remove_elements(ct, &src.text, "Override", "PartName", |v| {
            v.eq_ignore_ascii_case(&name)
        })?;
        changes.set(ct, src.bytes_of(text));
    }
    let rel_id = book
        .sheets
        .iter()
        .find(|s| s.name == own.sheet)
        .map(|s| s.rel_id.clone())
        .unwrap_or_default();
    if let (Some(rels), false) = (&book.workbook_rels, rel_id.is_empty()) {
        let src = changes.current(archive, rels, limit)?;
        let text = remove_elements(rels, &src.text, "Relationship", "Id", |v| v == rel_id)?;
        changes.set(rels, src.bytes_of(text));
    }
    let src = changes.current(archive, &book.workbook, limit)?;
    let text = solutions::remove_sheet(&book.workbook, &src.text, &own.sheet)?;
    changes.set(&book.workbook, src.bytes_of(text));
    Ok(())
}

/// The copies that a run writing the copies of the sheets `asked` only
/// (`--sheet`, compared without regard to case) keeps on the sheet of
/// solutions an earlier run wrote into the workbook `input`: those of the
/// other sheets still in the workbook, as they stand there
/// ([`solutions::read_copies`]), in their order. None when there is no
/// such sheet, or when it was changed since (the copy then refuses it,
/// or replaces it when forced).
pub fn kept_solution_copies<R: Read + Seek>(
    input: R,
    asked: &[String],
) -> Result<Vec<SolutionCopy>, AnnotateError> {
    let mut archive = ZipArchive::new(input)
        .map_err(|e| AnnotateError::NotAWorkbook(format!("not a readable zip archive ({e})")))?;
    let book = Book::read(&mut archive, MAX_PART_SIZE)?;
    let Some(own) = crate::records::parse_solutions_record(&record_text(&mut archive))
        .filter(|r| book.worksheet_part(&r.sheet) == Some(r.part.as_str()))
    else {
        return Ok(Vec::new());
    };
    let bytes = read_bytes(&mut archive, &own.part, MAX_PART_SIZE)?;
    if solutions::digest(&bytes) != own.digest {
        return Ok(Vec::new());
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| AnnotateError::Malformed {
        part: own.part.clone(),
        reason: "not UTF-8".to_string(),
    })?;
    let asked: Vec<String> = asked.iter().map(|s| s.to_lowercase()).collect();
    Ok(solutions::read_copies(&own.part, text)?
        .into_iter()
        .filter(|c| {
            !asked.contains(&c.sheet.to_lowercase())
                && c.sheet != own.sheet
                && book.worksheet_part(&c.sheet).is_some()
        })
        .collect())
}

/// The name the sheet of solutions takes in a copy of the workbook
/// `input` (`--answers sheet`): the name of the one an earlier run wrote
/// (rewritten in place), else `Solutions`, else `Solutions 2` … (see
/// [`solutions::free_name`]).
pub fn solutions_sheet_name<R: Read + Seek>(input: R) -> Result<String, AnnotateError> {
    let mut archive = ZipArchive::new(input)
        .map_err(|e| AnnotateError::NotAWorkbook(format!("not a readable zip archive ({e})")))?;
    let book = Book::read(&mut archive, MAX_PART_SIZE)?;
    let own = crate::records::parse_solutions_record(&record_text(&mut archive))
        .filter(|r| book.worksheet_part(&r.sheet) == Some(r.part.as_str()));
    Ok(solutions::free_name(
        book.sheets.iter().map(|s| s.name.as_str()),
        own.as_ref().map(|o| o.sheet.as_str()),
    ))
}

/// Inflates one part as UTF-8 text, refusing parts over `limit` bytes.
fn read_part<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    name: &str,
    limit: u64,
) -> Result<Part, AnnotateError> {
    let too_large = || AnnotateError::TooLarge {
        part: name.to_string(),
        limit,
    };
    let file = archive.by_name(name)?;
    if file.size() > limit {
        return Err(too_large());
    }
    let mut buf = Vec::with_capacity(usize::try_from(file.size()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(too_large());
    }
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

/// What the patcher needs to know about the package.
#[derive(Debug)]
struct Book {
    /// The workbook part, e.g. `xl/workbook.xml`.
    workbook: String,
    /// The workbook part's relationships part, if any.
    workbook_rels: Option<String>,
    /// The style sheet part, if any.
    styles: Option<String>,
    /// The calculation chain part, if any.
    calc_chain: Option<String>,
    /// The content types part, if any.
    content_types: Option<String>,
    /// The sheets in workbook order.
    sheets: Vec<SheetInfo>,
    /// Every entry name of the archive.
    names: Vec<String>,
    /// A Strict Open XML workbook (its workbook part in the strict
    /// spreadsheet namespace): parts added to it use the strict namespaces.
    strict: bool,
}

/// One sheet of the workbook.
#[derive(Debug)]
struct SheetInfo {
    name: String,
    /// The workbook relationship of its part.
    rel_id: String,
    /// Where its cells are.
    part: SheetPart,
    sheet_id: Option<u32>,
}

/// Where a sheet's cells are.
#[derive(Debug)]
enum SheetPart {
    /// A worksheet, in this zip entry.
    Worksheet(String),
    /// A worksheet whose part is not in the archive (the target named).
    Missing(String),
    /// A chart or dialog sheet, or no relationship at all.
    NotAWorksheet,
}

/// The edits of one worksheet.
#[derive(Debug)]
struct Planned {
    part: String,
    sheet_id: Option<u32>,
    plan: SheetPlan,
    /// Cleared cells that an earlier run filled: the style to give back.
    restore: HashMap<CellRef, u32>,
    /// Written cells that take another cell's style: cell → (that cell,
    /// blue italic).
    from: HashMap<CellRef, (CellRef, bool)>,
}

/// The styles of the cells written with another cell's style, as
/// [`sheet::patch_sheet`] takes them.
fn forced_styles(
    part: &str,
    src: &str,
    from: &HashMap<CellRef, (CellRef, bool)>,
) -> Result<sheet::Forced, AnnotateError> {
    if from.is_empty() {
        return Ok(sheet::Forced::new());
    }
    let wanted: HashSet<CellRef> = from.values().map(|(c, _)| *c).collect();
    let styles = sheet::styles_of(part, src, &wanted)?;
    Ok(from
        .iter()
        .map(|(&at, &(source, blue))| (at, (styles.get(&source).copied().unwrap_or(0), blue)))
        .collect())
}

impl Book {
    /// The worksheet part of sheet `name`, if it is a worksheet in the
    /// archive.
    fn worksheet_part(&self, name: &str) -> Option<&str> {
        self.sheets
            .iter()
            .find(|s| s.name == name)
            .and_then(|s| match &s.part {
                SheetPart::Worksheet(p) => Some(p.as_str()),
                _ => None,
            })
    }

    /// A free name for a new worksheet part: `worksheets/sheetN.xml`
    /// beside the workbook part, N the first number that no entry has and
    /// that no name in `claimed` (parts the package names without holding
    /// them) has.
    fn new_sheet_part(&self, claimed: &[String]) -> String {
        let dir = self
            .workbook
            .rfind('/')
            .map_or("", |i| &self.workbook[..=i]);
        (1u32..)
            .map(|n| format!("{dir}worksheets/sheet{n}.xml"))
            .find(|n| {
                !self
                    .names
                    .iter()
                    .chain(claimed)
                    .any(|e| e.eq_ignore_ascii_case(n))
            })
            .unwrap_or_default()
    }

    fn read<R: Read + Seek>(
        archive: &mut ZipArchive<R>,
        limit: u64,
    ) -> Result<Self, AnnotateError> {
        let names: Vec<String> = archive
            .file_names()
            .filter_map(Result::ok)
            .map(|s| s.into_owned())
            .collect();
        let find = |part: &str| -> Option<String> {
            names
                .iter()
                .find(|n| n.as_str() == part)
                .or_else(|| names.iter().find(|n| n.eq_ignore_ascii_case(part)))
                .cloned()
        };
        // The workbook part: the package's officeDocument relationship.
        let mut workbook = None;
        if let Some(root_rels) = find("_rels/.rels") {
            let src = read_part(archive, &root_rels, limit)?;
            workbook = parse_rels(&root_rels, &src.text, "")?
                .into_iter()
                .find(|r| r.kind.ends_with("/officeDocument") && !r.target.is_empty())
                .and_then(|r| find(&r.target));
        }
        let workbook = workbook
            .or_else(|| find("xl/workbook.xml"))
            .ok_or_else(|| {
                AnnotateError::NotAWorkbook("the zip archive has no workbook part".to_string())
            })?;
        let wb_src = read_part(archive, &workbook, limit)?;
        let entries = parse_sheets(&workbook, &wb_src.text)?;
        let rels_name = rels_part_of(&workbook);
        let rels = match find(&rels_name) {
            Some(n) => {
                let src = read_part(archive, &n, limit)?;
                parse_rels(&n, &src.text, &workbook)?
            }
            None => Vec::new(),
        };
        let related = |kind: &str| {
            rels.iter()
                .find(|r| r.kind.ends_with(kind))
                .and_then(|r| find(&r.target))
        };
        let styles = related("/styles");
        let calc_chain = related("/calcChain");
        let sheets = entries
            .into_iter()
            .map(|s| {
                let part = match rels
                    .iter()
                    .find(|r| r.id == s.rel_id && r.kind.ends_with("/worksheet"))
                {
                    Some(r) => match find(&r.target) {
                        Some(entry) => SheetPart::Worksheet(entry),
                        None => SheetPart::Missing(r.target.clone()),
                    },
                    None => SheetPart::NotAWorksheet,
                };
                SheetInfo {
                    name: s.name,
                    rel_id: s.rel_id,
                    part,
                    sheet_id: s.sheet_id,
                }
            })
            .collect();
        Ok(Book {
            workbook,
            workbook_rels: find(&rels_name),
            styles,
            calc_chain,
            content_types: find("[Content_Types].xml"),
            sheets,
            names,
            strict: wb_src.text.contains(solutions::STRICT_MAIN_NS),
        })
    }

    /// The edits grouped by worksheet part, checked; sheets without cell
    /// edits are left out.
    fn plan(
        &self,
        edits: &[SheetEdits],
        earlier: &[GridRecord],
        style_from: &[StyleFrom],
    ) -> Result<Vec<Planned>, AnnotateError> {
        type Entry = (Option<u32>, SheetPlan, HashMap<CellRef, u32>);
        let mut by_part: BTreeMap<String, Entry> = BTreeMap::new();
        for se in edits {
            let sheet = self
                .sheets
                .iter()
                .find(|s| s.name == se.sheet)
                .ok_or_else(|| AnnotateError::NoSuchSheet(se.sheet.clone()))?;
            let part = match &sheet.part {
                SheetPart::Worksheet(p) => p,
                SheetPart::Missing(target) => {
                    return Err(AnnotateError::Malformed {
                        part: self.workbook.clone(),
                        reason: format!(
                            "sheet '{}' points to {target}, which is not in the archive",
                            se.sheet
                        ),
                    })
                }
                SheetPart::NotAWorksheet => {
                    return Err(AnnotateError::NotAWorksheet(se.sheet.clone()))
                }
            };
            if se.cells.is_empty() {
                continue;
            }
            let (_, plan, restore) = by_part
                .entry(part.clone())
                .or_insert_with(|| (sheet.sheet_id, SheetPlan::new(), HashMap::new()));
            for edit in &se.cells {
                if edit.at.row > MAX_ROW || edit.at.col > MAX_COL {
                    return Err(AnnotateError::InvalidValue {
                        cell: edit.at,
                        reason: "the cell is outside the sheet (beyond XFD1048576)".to_string(),
                    });
                }
                if let CellValue::Number(n) = edit.value {
                    if !n.is_finite() {
                        return Err(AnnotateError::InvalidValue {
                            cell: edit.at,
                            reason: format!("{n} is not a finite number"),
                        });
                    }
                }
                let original = earlier
                    .iter()
                    .filter(|r| r.sheet == se.sheet)
                    .find_map(|r| r.original_style(edit.at));
                match (&edit.value, original) {
                    (CellValue::Clear, Some(s)) => restore.insert(edit.at, s),
                    _ => restore.remove(&edit.at),
                };
                plan.entry(edit.at.row)
                    .or_default()
                    .insert(edit.at.col, edit.value.clone());
            }
        }
        let part_of = |name: &str| {
            self.sheets
                .iter()
                .find(|s| s.name == name)
                .and_then(|s| match &s.part {
                    SheetPart::Worksheet(p) => Some(p.clone()),
                    _ => None,
                })
        };
        let mut from: HashMap<String, HashMap<CellRef, (CellRef, bool)>> = HashMap::new();
        for f in style_from {
            if let Some(part) = part_of(&f.sheet) {
                from.entry(part).or_default().insert(f.at, (f.from, f.blue));
            }
        }
        Ok(by_part
            .into_iter()
            .map(|(part, (sheet_id, plan, restore))| Planned {
                from: from.remove(&part).unwrap_or_default(),
                part,
                sheet_id,
                plan,
                restore,
            })
            .collect())
    }
}
