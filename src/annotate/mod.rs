//! The annotated copy: a copy of an `.xlsx`/`.xlsm` workbook in which some
//! cells of some sheets change and every other byte of every other part is
//! kept.
//!
//! The copy is a surgical patch, not a load and save: every zip entry is
//! copied as it is stored (compressed bytes, name and order) except
//!
//! - the worksheet parts whose cells change, rewritten by streaming their
//!   XML and changing only the edited cells (plus the sheet's `<dimension>`,
//!   and for a grid's answer copy the widths and heights of its columns and
//!   rows: its grid's);
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
//! and print area ([`solution_sheet`]).
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

mod book;
mod calc_chain;
mod copy;
mod deflated;
mod error;
mod part_edit;
mod sheet;
mod sheet_place;
mod sizes;
pub mod solution_sheet;
mod styles;
mod xml;

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek, SeekFrom, Write};

use rustc_hash::FxHashMap;
use zip::ZipArchive;

use crate::address::CellRef;
use calc_chain::{drop_entries, ChainEdit};
use part_edit::set_full_calc_on_load;
use sheet::patch_sheet;
use sizes::Sizes;
use styles::StylePool;

use book::{forced_styles, Book, Planned};
use copy::{
    grid_records, read_bytes, read_part, read_up_to, remove_calc_chain, write_copy, Changes, Part,
};
use solution_sheet::write::{
    claimed_parts, put_solutions_sheet, remove_solutions_sheet, solutions_sheet,
};
use styles::{add_styles_part, max_style_index, minimal_styles, new_styles_name};

pub use error::AnnotateError;
pub use solution_sheet::write::{kept_solution_copies, solutions_sheet_name};

pub use crate::records::{
    parse_grid_records, read_grid_records, read_stamp, record_text, AnswerRecord, GridMark,
    GridRecord, GRID_PREFIX, RECORD_PART, STAMP_PREFIX,
};
pub use crate::records::{read_solutions_record, SolutionsRecord, SOLUTIONS_PREFIX};
pub use solution_sheet::{SolutionCopy, Solutions};

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
    /// The value (or its absence) kept; the cell's style gains a solid
    /// fill of this ARGB colour (`FF3FDA65`), its font, borders and number
    /// format kept: a hint's colours.
    Tint(String),
    /// The value (or its absence) kept; the cell takes this style index
    /// (`cellXfs` position) again: the style an earlier run's record says
    /// it had before, so that a hint's colours are taken off.
    Restyle(u32),
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
    input: R,
    edits: &[SheetEdits],
    output: W,
    options: AnnotateOptions,
) -> Result<(), AnnotateError> {
    let mut archive = open_archive(input)?;
    let book = Book::read(&mut archive, options.max_part_size)?;
    let old_records = record_text(&mut archive);
    let earlier = parse_grid_records(&old_records);
    let plans = book.plan(edits, &earlier, &options.style_from)?;
    // The sheet of solutions an earlier run wrote, when it is still there.
    let own_sheet = crate::records::parse_solutions_record(&old_records)
        .filter(|r| book.worksheet_part(&r.sheet) == Some(r.part.as_str()));
    if let (Some(own), Some(wanted)) = (&own_sheet, &options.solutions) {
        let now = read_bytes(&mut archive, &own.part, options.max_part_size)?;
        if solution_sheet::digest(&now) != own.digest && !wanted.force {
            return Err(AnnotateError::EditedSolutions {
                sheet: own.sheet.clone(),
            });
        }
    }
    let copies: &[SolutionCopy] = options
        .solutions
        .as_ref()
        .map_or(&[], |s| s.copies.as_slice());
    let mut changes = Changes::default();
    let (bases, new_sheet) = if !plans.is_empty() || !copies.is_empty() {
        let wanted = Wanted {
            book: &book,
            plans: &plans,
            copies,
            own_sheet: own_sheet.as_ref(),
            limit: options.max_part_size,
        };
        patch_parts(&mut archive, &wanted, &mut changes)?
    } else {
        (HashMap::new(), None)
    };
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
                    digest: solution_sheet::digest(bytes),
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
    let comment = put_record_part(&mut archive, &text, &mut changes);
    write_copy(&mut archive, &changes, output, comment)
}

/// The input as a zip archive, refusing an encrypted workbook and an
/// archive whose central directory a copy could lose entries by.
fn open_archive<R: Read + Seek>(mut input: R) -> Result<ZipArchive<R>, AnnotateError> {
    let mut magic = [0u8; 8];
    let n = read_up_to(&mut input, &mut magic)?;
    if n == magic.len() && magic == CFB_MAGIC {
        return Err(AnnotateError::Encrypted);
    }
    crate::package::check_central_directory(&mut input).map_err(|reason| {
        AnnotateError::NotAWorkbook(format!(
            "a damaged zip package ({reason}); refusing it rather than lose parts"
        ))
    })?;
    input.seek(SeekFrom::Start(0))?;
    ZipArchive::new(input)
        .map_err(|e| AnnotateError::NotAWorkbook(format!("not a readable zip archive ({e})")))
}

/// What [`patch_parts`] writes: the sheets' edits and the copies for the
/// sheet of solutions, over the book read.
struct Wanted<'a> {
    book: &'a Book,
    plans: &'a [Planned],
    copies: &'a [SolutionCopy],
    /// The sheet of solutions an earlier run wrote, still there.
    own_sheet: Option<&'a SolutionsRecord>,
    /// The largest part inflated.
    limit: u64,
}

/// A new sheet of solutions: its name, part, content and print area.
type NewSheet = (String, String, Vec<u8>, String);

/// The style each written cell had before: part → cell → style index
/// (cells by a fast hash: they are the run's own, not an attacker's).
type Bases = HashMap<String, FxHashMap<CellRef, u32>>;

/// Patches the edited sheets, the styles, the workbook part and the
/// calculation chain into `changes`, and makes the new sheet of solutions:
/// the style each written cell had before (part → cell → style), and the
/// sheet.
fn patch_parts<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    wanted: &Wanted<'_>,
    changes: &mut Changes,
) -> Result<(Bases, Option<NewSheet>), AnnotateError> {
    let (book, limit) = (wanted.book, wanted.limit);
    let mut bases: Bases = HashMap::new();
    let mut new_sheet: Option<NewSheet> = None;
    let (styles_part, styles_src, created) = match &book.styles {
        Some(p) => (p.clone(), read_part(archive, p, limit)?, false),
        None => {
            let xfs = max_style_index(archive, book, limit)?.saturating_add(1);
            (
                new_styles_name(book)?,
                Part::new(&minimal_styles(xfs)),
                true,
            )
        }
    };
    let mut pool = StylePool::parse(&styles_part, &styles_src.text)?;
    let mut dropped: HashSet<(u32, CellRef)> = HashSet::new();
    for planned in wanted.plans {
        let src = read_part(archive, &planned.part, limit)?;
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
        // An answer copy takes its grid's column widths and row heights.
        let xml = sizes::copy_sizes(&planned.part, &patched.xml, &Sizes::of(&planned.from))?;
        changes.set(&planned.part, src.bytes_of(xml));
    }
    if !wanted.copies.is_empty() {
        let own_sheet = wanted.own_sheet;
        let name = solution_sheet::free_name(
            book.sheets.iter().map(|s| s.name.as_str()),
            own_sheet.map(|o| o.sheet.as_str()),
        );
        let part = match own_sheet {
            Some(o) => o.part.clone(),
            None => book.new_sheet_part(&claimed_parts(archive, book, limit)?),
        };
        let (xml, area) = solutions_sheet(archive, book, wanted.copies, &name, &mut pool, limit)?;
        new_sheet = Some((name, part, xml.into_bytes(), area));
    }
    if let Some(styles) = pool.render()? {
        let bytes = styles_src.bytes_of(styles);
        if created {
            add_styles_part(archive, book, &styles_part, bytes, limit, changes)?;
        } else {
            changes.set(&styles_part, bytes);
        }
    }
    let wb_src = read_part(archive, &book.workbook, limit)?;
    let wb = set_full_calc_on_load(&book.workbook, &wb_src.text)?;
    if wb != wb_src.text {
        changes.set(&book.workbook, wb_src.bytes_of(wb));
    }
    if let (Some(chain), false) = (&book.calc_chain, dropped.is_empty()) {
        let src = read_part(archive, chain, limit)?;
        match drop_entries(chain, &src.text, &dropped)? {
            ChainEdit::Keep => {}
            ChainEdit::Rewrite(text) => changes.set(chain, src.bytes_of(text)),
            ChainEdit::Remove => {
                remove_calc_chain(archive, book, chain, limit, changes)?;
            }
        }
    }
    Ok((bases, new_sheet))
}

/// Splits the record text between the archive comment (returned) and the
/// record part, put into `changes` (added, replaced or removed): a long
/// record goes into a part of its own, since LibreOffice cannot open a zip
/// archive with a long comment.
fn put_record_part<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    text: &[u8],
    changes: &mut Changes,
) -> Vec<u8> {
    let (comment, part) = crate::records::part::split_record_text(text);
    let had_part = archive.by_name(RECORD_PART).is_ok();
    match part {
        Some(bytes) if had_part => changes.set(RECORD_PART, bytes),
        Some(bytes) => changes.added.push((RECORD_PART.to_string(), bytes)),
        None if had_part => {
            changes.replaced.insert(RECORD_PART.to_string(), None);
        }
        None => {}
    }
    comment
}
