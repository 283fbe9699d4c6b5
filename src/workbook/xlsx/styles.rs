//! The styles of a workbook: the fonts of the cell formats (resolved by
//! calamine, for the blue-italic test), the borders of the cell formats
//! (`cellXfs` and `borders`), and which format each cell of a sheet has
//! (its own, its row's or its column's).

use std::collections::BTreeMap;
use std::io::{Cursor, Write};

use calamine::{Reader, Xlsx};
use quick_xml::events::Event;

use super::parts::{attr, attr_u32, read_part_bytes, Package, Zip};
use super::regions::{split_regions, Rect};
use crate::address::CellRef;
use crate::workbook::detect::{BorderMap, Edges, Line};
use crate::workbook::reader::{CellSet, Region};

/// Largest number of cells one border map may cover; a larger bordered
/// region is cut at the bottom (grids that far down it are not searched).
const MAX_MAP_CELLS: usize = 8 << 20;
/// Largest number of cells all border maps of one sheet may cover together;
/// regions past it (in reading order) are not searched.
const MAX_SHEET_MAP_CELLS: usize = 4 * MAX_MAP_CELLS;
/// How many columns a column style reaching to the sheet's end may add.
const COL_STYLE_CAP: u32 = 1024;

/// What one `cellXfs` entry says that matters here.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct XfInfo {
    pub(super) edges: Edges,
    pub(super) blue_italic: bool,
    /// The font is bold.
    pub(super) bold: bool,
}

pub(super) fn is_blue_italic(style: &calamine::Style) -> bool {
    style.font.as_ref().is_some_and(|f| {
        f.is_italic()
            && f.color
                .is_some_and(|c| (c.red, c.green, c.blue) == (0, 0, 255))
    })
}

/// The cell formats of the workbook as calamine resolves them (fonts with
/// their theme, indexed and tinted colours), by `cellXfs` position. Calamine
/// gets a package of its own holding only the style sheet and the theme, so
/// no other part of the input (shared strings, sheets) goes through it.
///
/// Workbooks made from one template share their style sheet and theme:
/// the last palette made on this thread is given again for the same
/// two parts (a speed device for folders of such workbooks).
pub(super) fn font_palette(
    zip: &mut Zip<'_>,
    parts: &Package,
) -> Result<Vec<calamine::Style>, String> {
    let Some(styles) = parts.styles.clone() else {
        return Ok(Vec::new());
    };
    let theme = parts.theme.as_deref().and_then(|t| read_part_bytes(zip, t));
    let key = (styles, theme);
    if let Some(palette) = LAST_PALETTE.with_borrow(|last| {
        last.as_ref()
            .filter(|(seen, _)| *seen == key)
            .map(|(_, palette)| palette.clone())
    }) {
        return Ok(palette);
    }
    let palette = palette_of(key.0.clone(), key.1.clone())?;
    LAST_PALETTE.set(Some((key, palette.clone())));
    Ok(palette)
}

type PaletteKey = (Vec<u8>, Option<Vec<u8>>);

thread_local! {
    /// The last style sheet and theme read, with their palette.
    static LAST_PALETTE: std::cell::RefCell<Option<(PaletteKey, Vec<calamine::Style>)>> =
        const { std::cell::RefCell::new(None) };
}

/// [`font_palette`] of a style sheet and a theme, by calamine.
fn palette_of(styles: Vec<u8>, theme: Option<Vec<u8>>) -> Result<Vec<calamine::Style>, String> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let ns = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    let mut files: Vec<(&str, Vec<u8>)> = vec![
        (
            "_rels/.rels",
            format!(r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{ns}/officeDocument" Target="xl/workbook.xml"/></Relationships>"#).into_bytes(),
        ),
        (
            "xl/workbook.xml",
            format!(r#"<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="{ns}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#).into_bytes(),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            format!(r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{ns}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{ns}/styles" Target="styles.xml"/></Relationships>"#).into_bytes(),
        ),
        (
            "xl/worksheets/sheet1.xml",
            br#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>"#.to_vec(),
        ),
        ("xl/styles.xml", styles),
    ];
    if let Some(theme) = theme {
        files.push(("xl/theme/theme1.xml", theme));
    }
    for (name, data) in files {
        w.start_file(name, opts).map_err(|e| e.to_string())?;
        w.write_all(&data).map_err(|e| e.to_string())?;
    }
    let trimmed = w.finish().map_err(|e| e.to_string())?.into_inner();
    let mut xlsx: Xlsx<_> = Xlsx::new(Cursor::new(trimmed)).map_err(|e| e.to_string())?;
    xlsx.worksheet_cells_reader("S")
        .map(|r| r.styles().to_vec())
        .map_err(|e| e.to_string())
}

/// The borders of each `cellXfs` entry of `xl/styles.xml`, accepting both
/// `left`/`right` and `start`/`end` side names.
pub(super) fn parse_xf_borders(xml: &str) -> Result<Vec<Edges>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut borders: Vec<Edges> = Vec::new();
    let mut xf_border_ids: Vec<usize> = Vec::new();
    let (mut in_borders, mut in_cell_xfs) = (false, false);
    let mut current: Option<Edges> = None;
    loop {
        let event = reader.read_event().map_err(|e| e.to_string())?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                match e.local_name().as_ref() {
                    "borders" => in_borders = !empty,
                    "cellXfs" => in_cell_xfs = !empty,
                    "border" if in_borders => {
                        if empty {
                            borders.push(Edges::default());
                        } else {
                            current = Some(Edges::default());
                        }
                    }
                    side @ ("left" | "start" | "right" | "end" | "top" | "bottom") => {
                        if let Some(edges) = current.as_mut() {
                            let line = attr(e, "style")?
                                .map(|s| Line::from_style_name(&s))
                                .unwrap_or_default();
                            let slot = match side {
                                "left" | "start" => &mut edges.left,
                                "right" | "end" => &mut edges.right,
                                "top" => &mut edges.top,
                                _ => &mut edges.bottom,
                            };
                            *slot = (*slot).max(line);
                        }
                    }
                    "xf" if in_cell_xfs => {
                        xf_border_ids.push(attr_u32(e, "borderId")?.unwrap_or(0) as usize);
                    }
                    _ => {}
                }
            }
            Event::End(ref e) => match e.local_name().as_ref() {
                "borders" => in_borders = false,
                "cellXfs" => in_cell_xfs = false,
                "border" => {
                    if let Some(edges) = current.take() {
                        borders.push(edges);
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(xf_border_ids
        .into_iter()
        .map(|id| borders.get(id).copied().unwrap_or_default())
        .collect())
}

/// The style ids a sheet assigns: columns, custom-formatted rows and cells.
#[derive(Debug, Default)]
pub(super) struct SheetStyles {
    /// `(first col, last col, xf)`, 0-based columns.
    pub(super) cols: Vec<(u32, u32, usize)>,
    /// Row (0-based) → xf of a custom-formatted row.
    pub(super) rows: BTreeMap<u32, usize>,
    /// Every `<c>` element: (row, col, xf), 0-based.
    pub(super) cells: Vec<(u32, u32, usize)>,
}

impl SheetStyles {
    /// The sheet's bordered regions, its blue-italic cells and its bold
    /// cells.
    pub(super) fn resolve(mut self, xfs: &[XfInfo]) -> (Vec<Region>, [CellSet; 2]) {
        let info = |xf: usize| xfs.get(xf).copied().unwrap_or_default();
        let having = |is: fn(&XfInfo) -> bool| {
            self.cells
                .iter()
                .filter(|&&(_, _, xf)| is(&info(xf)))
                .map(|&(r, c, _)| (r, c))
                .collect::<CellSet>()
        };
        let blue_italic = having(|x| x.blue_italic);
        let bold = having(|x| x.bold);
        // A cell given twice keeps its last element, as a map would.
        self.cells.sort_by_key(|&(r, c, _)| (r, c));

        // Everything that may carry a border, as rectangles: bordered cells,
        // custom rows with a bordered style (as far right as any cell) and
        // columns with a bordered style (as far down as any cell).
        let any_cell_row = self.cells.iter().map(|c| c.0).max();
        let any_cell_col = self.cells.iter().map(|c| c.1).max();
        let mut rects: Vec<Rect> = Vec::new();
        for &(r, c, xf) in &self.cells {
            if info(xf).edges.any() {
                rects.push(Rect::cell(r, c));
            }
        }
        for (&r, &xf) in &self.rows {
            if info(xf).edges.any() {
                rects.push(Rect {
                    r0: r,
                    r1: r,
                    c0: 0,
                    c1: any_cell_col.unwrap_or(0),
                });
            }
        }
        for &(lo, hi, xf) in &self.cols {
            if info(xf).edges.any() {
                rects.push(Rect {
                    r0: 0,
                    r1: any_cell_row.unwrap_or(0),
                    c0: lo,
                    c1: hi.min(lo.saturating_add(COL_STYLE_CAP)),
                });
            }
        }
        let mut regions = Vec::new();
        let mut budget = MAX_SHEET_MAP_CELLS;
        for area in split_regions(rects) {
            if budget == 0 {
                break;
            }
            let cols = area.c1 - area.c0 + 1;
            let cap = (MAX_MAP_CELLS.min(budget) / cols as usize).max(1) as u32;
            let rows = (area.r1 - area.r0 + 1).min(cap);
            budget = budget.saturating_sub(rows as usize * cols as usize);
            regions.push(self.region(area.r0, area.c0, rows, cols, &info));
        }
        (regions, [blue_italic, bold])
    }

    /// The border map of `rows` x `cols` cells from (`r0`, `c0`).
    pub(super) fn region(
        &self,
        r0: u32,
        c0: u32,
        rows: u32,
        cols: u32,
        info: &impl Fn(usize) -> XfInfo,
    ) -> Region {
        let (r1, c1) = (r0 + rows - 1, c0 + cols - 1);
        let mut map = BorderMap::new(rows, cols);
        for &(lo, hi, xf) in &self.cols {
            let edges = info(xf).edges;
            if edges.any() && lo <= c1 && hi >= c0 {
                for c in lo.max(c0)..=hi.min(c1) {
                    for r in 0..rows {
                        map.set(r, c - c0, edges);
                    }
                }
            }
        }
        for (&r, &xf) in self.rows.range(r0..=r1) {
            let edges = info(xf).edges;
            for c in 0..cols {
                map.set(r - r0, c, edges);
            }
        }
        for r in r0..=r1 {
            let from = self
                .cells
                .partition_point(|&(cr, cc, _)| (cr, cc) < (r, c0));
            for &(_, c, xf) in self.cells[from..]
                .iter()
                .take_while(|&&(cr, cc, _)| cr == r && cc <= c1)
            {
                map.set(r - r0, c - c0, info(xf).edges);
            }
        }
        Region {
            origin: CellRef::new(r0, c0),
            map,
        }
    }
}
