//! The workbook as the patcher sees it: its parts, its sheets and which
//! edits go into which sheet part ([`Book::plan`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{Read, Seek};

use zip::ZipArchive;

use crate::address::{CellRef, MAX_COL, MAX_ROW};

use super::copy::read_part;
use super::part_edit::{parse_rels, parse_sheets, rels_part_of};
use super::sheet::SheetPlan;
use super::{sheet, solution_sheet};
use super::{AnnotateError, CellValue, SheetEdits, StyleFrom};
use crate::records::GridRecord;

/// What the patcher needs to know about the package.
#[derive(Debug)]
pub(super) struct Book {
    /// The workbook part, e.g. `xl/workbook.xml`.
    pub(super) workbook: String,
    /// The workbook part's relationships part, if any.
    pub(super) workbook_rels: Option<String>,
    /// The style sheet part, if any.
    pub(super) styles: Option<String>,
    /// The calculation chain part, if any.
    pub(super) calc_chain: Option<String>,
    /// The content types part, if any.
    pub(super) content_types: Option<String>,
    /// The sheets in workbook order.
    pub(super) sheets: Vec<SheetInfo>,
    /// Every entry name of the archive.
    pub(super) names: Vec<String>,
    /// A Strict Open XML workbook (its workbook part in the strict
    /// spreadsheet namespace): parts added to it use the strict namespaces.
    pub(super) strict: bool,
}

/// One sheet of the workbook.
#[derive(Debug)]
pub(super) struct SheetInfo {
    pub(super) name: String,
    /// The workbook relationship of its part.
    pub(super) rel_id: String,
    /// Where its cells are.
    pub(super) part: SheetPart,
    pub(super) sheet_id: Option<u32>,
}

/// Where a sheet's cells are.
#[derive(Debug)]
pub(super) enum SheetPart {
    /// A worksheet, in this zip entry.
    Worksheet(String),
    /// A worksheet whose part is not in the archive (the target named).
    Missing(String),
    /// A chart or dialog sheet, or no relationship at all.
    NotAWorksheet,
}

/// The edits of one worksheet.
#[derive(Debug)]
pub(super) struct Planned {
    pub(super) part: String,
    pub(super) sheet_id: Option<u32>,
    pub(super) plan: SheetPlan,
    /// Cleared cells that an earlier run filled: the style to give back.
    pub(super) restore: HashMap<CellRef, u32>,
    /// Written cells that take another cell's style: cell → (that cell,
    /// blue italic).
    pub(super) from: HashMap<CellRef, (CellRef, bool)>,
}

/// The styles of the cells written with another cell's style, as
/// [`sheet::patch_sheet`] takes them.
pub(super) fn forced_styles(
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
    pub(super) fn worksheet_part(&self, name: &str) -> Option<&str> {
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
    pub(super) fn new_sheet_part(&self, claimed: &[String]) -> String {
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

    pub(super) fn read<R: Read + Seek>(
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
            strict: wb_src.text.contains(solution_sheet::STRICT_MAIN_NS),
        })
    }

    /// The edits grouped by worksheet part, checked; sheets without cell
    /// edits are left out.
    pub(super) fn plan(
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
