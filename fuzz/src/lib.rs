//! What the fuzz targets run, kept here so that every target and a replay of
//! a crash share one definition.
//!
//! - [`read`]: bytes → the workbook reader and grid detection;
//! - [`roundtrip`]: bytes → read, solve every grid found, write the annotated
//!   copy, read the copy back (it must read, with the same sheets, and every
//!   given kept);
//! - [`splice`]: a fuzz input → a fixture package with one of its XML parts
//!   replaced by the input, so the XML parsers see the mutations instead of a
//!   broken zip;
//! - [`text`]: the text puzzle parser, the grid parser and the address and box
//!   shape parsers.

use std::io::{Cursor, Write};
use std::path::Path;
use std::time::Duration;

use xlsudoku::address::{CellRange, CellRef};
use xlsudoku::annotate::{annotate, SheetEdits};
use xlsudoku::batch::solve_grid;
use xlsudoku::bench::parse_puzzles;
use xlsudoku::grid::{BoxShape, Grid};
use xlsudoku::solve::SolveOptions;
use xlsudoku::workbook::{read_workbook_bytes, Cell, ReadOptions, Sheet};

const NAME: &str = "fuzz.xlsx";

/// Reads a workbook held in memory, as the CLI does.
pub fn read(data: &[u8]) {
    let _ = read_workbook_bytes(Path::new(NAME), data, &ReadOptions::default());
}

/// Reads the workbook, solves every grid (the batch path's `solve_grid`),
/// writes the annotated copy and reads it back. Panics when the copy of a
/// readable workbook does not read back, loses or renames a sheet, or
/// changes a given of a grid that is still found at the same place.
pub fn roundtrip(data: &[u8]) {
    let path = Path::new(NAME);
    let opts = ReadOptions::default();
    let Ok(sheets) = read_workbook_bytes(path, data, &opts) else {
        return;
    };
    let solve = SolveOptions {
        logic_only: false,
        timeout: Some(Duration::from_millis(500)),
        ..SolveOptions::default()
    };
    let mut edits: Vec<SheetEdits> = Vec::new();
    for sheet in &sheets {
        for grid in &sheet.grids {
            let (_, cells) = solve_grid(NAME, &sheet.name, grid, &solve, &Default::default());
            match edits.iter_mut().find(|e| e.sheet == sheet.name) {
                Some(e) => e.cells.extend(cells),
                None => edits.push(SheetEdits {
                    sheet: sheet.name.clone(),
                    cells,
                }),
            }
        }
    }
    let mut out = Cursor::new(Vec::new());
    if annotate(Cursor::new(data), &edits, &mut out).is_err() {
        // A refusal is an answer; only a panic is a finding.
        return;
    }
    let copy = out.into_inner();
    let again = read_workbook_bytes(path, &copy, &opts)
        .unwrap_or_else(|e| panic!("the annotated copy does not read back: {e}"));
    let names = |s: &[Sheet]| s.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&sheets), names(&again), "the copy's sheets differ");
    for (before, after) in sheets.iter().zip(&again) {
        for grid in &before.grids {
            let Some(same) = after
                .grids
                .iter()
                .find(|g| g.range == grid.range && g.shape == grid.shape)
            else {
                continue;
            };
            for (i, (a, b)) in grid.cells.iter().zip(&same.cells).enumerate() {
                if let Cell::Given(v) = a {
                    assert_eq!(
                        b,
                        &Cell::Given(*v),
                        "sheet '{}': the given at {} changed in the copy (left: the copy, right: the input)",
                        before.name,
                        grid.cell_ref(i)
                    );
                }
            }
        }
    }
}

/// The packages [`splice`] patches: fixtures with grids on their first sheet,
/// from three writers (rust_xlsxwriter, LibreOffice, openpyxl).
const BASES: [&[u8]; 4] = [
    include_bytes!("../../fixtures/example.xlsx"),
    include_bytes!("../../fixtures/libreoffice_example.xlsx"),
    include_bytes!("../../fixtures/layout_text_givens.xlsx"),
    include_bytes!("../../fixtures/openpyxl_fidelity.xlsx"),
];

/// The parts [`splice`] can replace, by the low three bits of the selector.
pub const PARTS: [&str; 8] = [
    "xl/worksheets/sheet1.xml",
    "xl/worksheets/sheet2.xml",
    "xl/sharedStrings.xml",
    "xl/styles.xml",
    "xl/workbook.xml",
    "xl/_rels/workbook.xml.rels",
    "[Content_Types].xml",
    "xl/worksheets/sheet1.xml",
];

/// How many base packages [`splice`] chooses from.
pub const BASE_COUNT: usize = BASES.len();

/// Builds a package from a fuzz input: the first byte chooses the part (its
/// low three bits, see [`PARTS`]) and the base package (the next two bits),
/// the rest is the part's new content. Every other entry is copied as
/// stored; the new part is stored uncompressed (and added when the base
/// lacks it). `None` for an empty input.
pub fn splice(data: &[u8]) -> Option<Vec<u8>> {
    let (&selector, content) = data.split_first()?;
    let part = PARTS[(selector & 7) as usize];
    let base = BASES[((selector >> 3) as usize) % BASES.len()];
    Some(package_with(base, part, content))
}

/// `base` with the entry `part` replaced by (or, if absent, added as)
/// `content`, stored uncompressed.
pub fn package_with(base: &[u8], part: &str, content: &[u8]) -> Vec<u8> {
    let mut archive = zip::ZipArchive::new(Cursor::new(base)).expect("a fixture is a zip");
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut written = false;
    for i in 0..archive.len() {
        let file = archive.by_index_raw(i).expect("a fixture entry");
        if file.name().expect("a fixture entry name") == part {
            drop(file);
            writer.start_file(part, stored).expect("start a part");
            writer.write_all(content).expect("write a part");
            written = true;
        } else {
            writer.raw_copy_file(file).expect("copy a part");
        }
    }
    if !written {
        writer.start_file(part, stored).expect("start a part");
        writer.write_all(content).expect("write a part");
    }
    writer.finish().expect("finish the package").into_inner()
}

/// The text parsers: a puzzle file (`bench`), one puzzle line with and
/// without a box shape, a box shape, a cell address and a range. Whatever
/// parses must print back to text that parses to the same thing.
pub fn text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(puzzles) = parse_puzzles(&text) {
        for (_, grid) in puzzles {
            check_grid(&grid);
        }
    }
    if let Ok(grid) = Grid::parse_line(&text, None) {
        check_grid(&grid);
    }
    if let [w, h, ..] = data {
        if let Ok(shape) = BoxShape::new(usize::from(*w % 9), usize::from(*h % 9)) {
            if let Ok(grid) = Grid::parse_line(&String::from_utf8_lossy(&data[2..]), Some(shape)) {
                assert_eq!(grid.shape(), shape);
                check_grid(&grid);
            }
        }
    }
    if let Ok(shape) = text.parse::<BoxShape>() {
        assert_eq!(shape.to_string().parse::<BoxShape>(), Ok(shape));
    }
    if let Ok(cell) = text.parse::<CellRef>() {
        assert_eq!(cell.to_string().parse::<CellRef>().ok(), Some(cell));
    }
    if let Ok(range) = text.parse::<CellRange>() {
        assert_eq!(range.to_string().parse::<CellRange>().ok(), Some(range));
        assert!(range.contains(range.start) && range.contains(range.end));
    }
}

fn check_grid(grid: &Grid) {
    let side = grid.side();
    assert_eq!(grid.cells().len(), side * side);
    let line = grid.to_line();
    let back = Grid::parse_line(&line, Some(grid.shape())).expect("to_line parses back");
    assert_eq!(&back, grid, "to_line then parse_line changed the grid");
    let again = Grid::from_cells(grid.shape(), grid.cells().to_vec()).expect("from_cells");
    assert_eq!(&again, grid);
    for c in grid.conflicts() {
        assert!(c.cells.len() >= 2, "a conflict of one cell");
        for &i in &c.cells {
            assert_eq!(
                grid.cells()[i],
                c.value,
                "a conflict names a cell without its value"
            );
        }
    }
}
