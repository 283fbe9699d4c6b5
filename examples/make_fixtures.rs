//! Writes the fixture workbooks under `fixtures/` that rust_xlsxwriter makes
//! (the others come from `fixtures/make_openpyxl.py`). Run from the crate
//! root:
//!
//! ```text
//! cargo run --example make_fixtures            # into fixtures/
//! cargo run --example make_fixtures -- OUTDIR  # elsewhere
//! ```
//!
//! The output is deterministic (fixed creation date), so regenerating gives
//! the same files. `fixtures/README.md` lists every file and what it pins.

use std::error::Error;
use std::path::{Path, PathBuf};

use rust_xlsxwriter::{
    Color, DocProperties, ExcelDateTime, Format, FormatAlign, FormatBorder, Formula, Workbook,
    Worksheet,
};
use xlsudoku::grid::{BoxShape, Grid};

type Res<T = ()> = Result<T, Box<dyn Error>>;

/// The well-known easy puzzle (Wikipedia's "Sudoku" article): singles only.
const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Its solution.
const EASY_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// From puzzles6_forum_hardest_1106 (line 1): needs guessing.
const HARD: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
/// EASY with a 5 added in row 1, column 7 (I3 on the sheet): two 5s in row 1.
const CLASH: &str =
    "53..7.5..6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// EASY with a 1 added in row 1, column 3 (E3 on the sheet): no clash, no solution.
const UNSOLVABLE: &str =
    "531.7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// EASY with two givens removed (I9 and K10 on the sheet): several solutions.
const MULTIPLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6.....8....419.......8..79";
/// A 6x6 with 3-wide, 2-high boxes, one solution.
const SIX: &str = "...4...56.....456...1...3.5....1....";
/// A 4x4, one solution.
const FOUR: &str = ".2..3.......4..3";
/// gecode_16x16.txt line 1 (Gecode examples, janko.at puzzle).
const SIXTEEN: &str = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";
/// liamjdavis_25x25_valid.txt line 1 (easy: propagation alone).
const TWENTY_FIVE: &str = "16.D9CHE42JOFMK8PGLA3NB5IBKALEFPM5D8N6973HIO4GJC123.C8G1.LAN.HBE5.7M6..PDO.4J..F6G.O81..PL5.BCDH.EKMHMOP57JK3BGID4C2E1NF6A98LN71OAG398PCJKD6FBLE5.M4IHL3F.4O2C.HP7.BNMG.1J5..DA.8PI..LDB.ME41.N6H327OF.GMH95BE461JAFOG2IDPK7C8LN36G2JDNF7MKILH534AC.OEB1.P7.8B6.1JFG.A2H..MN9.I35..FC.AJ9B2KEN536MG14P8LD7HOE2341HCNLMKBI8D7OF56P9AGJD5GKHPA87O91CLEBIJ23M46FNO9..N45.6IF..7JH.DAC8.2BE9FKG.B8427D6L.AEN5.HJCOP18L4H7JIAE3B2NOFPCKD19GM65AEMCPKOFH15G9.8637.IB2.LD.1BN..D59.7KMC.OJA.G4EH.85DJ6OM.PGCE413H982BLAKI7F2OD9MI71JL38EN4C56HPKFGABP.E7KA.OD5..JFI.23G..H84.CN.F83..P9H.7ABK.OIM.LJ26GAH3L8KBC469521DFEJNOIPM7J461I2MHNFOCPKGAL87BD53E9";

/// How the grid's lines are drawn.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// Thin lines round every cell (the seed's figure 1, right).
    GridLines,
    /// Thin lines round every cell, thick box lines and frame (figure 1, left).
    GridLinesThickBoxes,
    /// A thin outer frame only.
    FrameOnly,
    /// A thick outer frame and thick box lines, nothing else.
    ThickBoxesOnly,
    /// Thin grid lines stored only as right/bottom borders: the grid's left
    /// edge on the right border of the column before it, its top edge on the
    /// bottom border of the row above it.
    Neighbours,
}

/// How the givens are written.
#[derive(Clone, Copy, PartialEq)]
enum Givens {
    Numbers,
    /// As text with spaces round them (ordinary and non-breaking), and one
    /// as a formula with a cached result.
    TextWithSpaces,
}

fn props() -> Res<DocProperties> {
    Ok(DocProperties::new()
        .set_author("xlsudoku fixtures")
        .set_creation_datetime(&ExcelDateTime::from_ymd(2026, 1, 1)?))
}

fn new_workbook() -> Res<Workbook> {
    let mut wb = Workbook::new();
    wb.set_properties(&props()?);
    Ok(wb)
}

fn parse(text: &str, w: usize, h: usize) -> Res<Grid> {
    Ok(Grid::parse_line(text, Some(BoxShape::new(w, h)?))?)
}

/// The border of one edge of the cell at (r, c) of a side-`n` grid with
/// `w`x`h` boxes.
fn edge(layout: Layout, outer: bool, box_line: bool) -> FormatBorder {
    match layout {
        Layout::GridLines | Layout::Neighbours => FormatBorder::Thin,
        Layout::GridLinesThickBoxes if box_line || outer => FormatBorder::Medium,
        Layout::GridLinesThickBoxes => FormatBorder::Thin,
        Layout::FrameOnly if outer => FormatBorder::Thin,
        Layout::ThickBoxesOnly if box_line || outer => FormatBorder::Thick,
        _ => FormatBorder::None,
    }
}

fn cell_format(layout: Layout, grid: &Grid, r: usize, c: usize) -> Format {
    let n = grid.side();
    let (w, h) = (grid.shape().width(), grid.shape().height());
    let base = Format::new().set_align(FormatAlign::Center);
    if layout == Layout::Neighbours {
        return base
            .set_border_right(FormatBorder::Thin)
            .set_border_bottom(FormatBorder::Thin);
    }
    base.set_border_left(edge(layout, c == 0, c.is_multiple_of(w)))
        .set_border_right(edge(layout, c == n - 1, (c + 1).is_multiple_of(w)))
        .set_border_top(edge(layout, r == 0, r.is_multiple_of(h)))
        .set_border_bottom(edge(layout, r == n - 1, (r + 1).is_multiple_of(h)))
}

/// Writes a bordered grid with its top-left corner at (row, col), 0-based.
fn put_grid(
    ws: &mut Worksheet,
    row: u32,
    col: u16,
    grid: &Grid,
    layout: Layout,
    givens: Givens,
) -> Res {
    let n = grid.side();
    let mut text_turn = 0;
    for r in 0..n {
        for c in 0..n {
            let (rr, cc) = (row + r as u32, col + c as u16);
            let fmt = cell_format(layout, grid, r, c);
            let v = grid.get(r, c);
            if v == 0 {
                ws.write_blank(rr, cc, &fmt)?;
            } else if givens == Givens::Numbers {
                ws.write_number_with_format(rr, cc, f64::from(v), &fmt)?;
            } else {
                text_turn += 1;
                match text_turn % 4 {
                    0 => ws.write_string_with_format(rr, cc, format!(" {v} "), &fmt)?,
                    1 => ws.write_string_with_format(rr, cc, format!("\u{a0}{v}"), &fmt)?,
                    2 => ws.write_string_with_format(rr, cc, format!("{v}\u{a0} "), &fmt)?,
                    _ => ws.write_formula_with_format(
                        rr,
                        cc,
                        Formula::new(format!("={}+1", v - 1)).set_result(v.to_string()),
                        &fmt,
                    )?,
                };
            }
        }
    }
    if layout == Layout::Neighbours {
        let thin_right = Format::new().set_border_right(FormatBorder::Thin);
        let thin_bottom = Format::new().set_border_bottom(FormatBorder::Thin);
        for k in 0..n {
            ws.write_blank(row + k as u32, col - 1, &thin_right)?;
            ws.write_blank(row - 1, col + k as u16, &thin_bottom)?;
        }
    }
    for c in 0..n {
        ws.set_column_width(col + c as u16, 4)?;
    }
    Ok(())
}

/// One workbook, one sheet, one grid.
fn single(out: &Path, file: &str, sheet: &str, grid: &Grid, at: (u32, u16), layout: Layout) -> Res {
    let mut wb = new_workbook()?;
    let ws = wb.add_worksheet().set_name(sheet)?;
    put_grid(ws, at.0, at.1, grid, layout, Givens::Numbers)?;
    wb.save(out.join(file))?;
    Ok(())
}

fn blue_italic() -> Format {
    Format::new()
        .set_italic()
        .set_font_color(Color::RGB(0x0000FF))
}

fn example(out: &Path) -> Res {
    let mut wb = new_workbook()?;
    let easy = parse(EASY, 3, 3)?;
    let ws = wb.add_worksheet().set_name("Easy")?;
    ws.write_string(0, 0, "An easy puzzle: run xlsudoku example.xlsx")?;
    put_grid(
        ws,
        2,
        2,
        &easy,
        Layout::GridLinesThickBoxes,
        Givens::Numbers,
    )?;

    let big = parse(SIXTEEN, 4, 4)?;
    let ws = wb.add_worksheet().set_name("Big")?;
    ws.write_string(0, 0, "A 16x16 puzzle (digits 1-16)")?;
    put_grid(ws, 2, 2, &big, Layout::GridLinesThickBoxes, Givens::Numbers)?;

    let ws = wb.add_worksheet().set_name("Notes")?;
    let bold = Format::new().set_bold();
    ws.write_string_with_format(0, 0, "Puzzle", &bold)?;
    ws.write_string_with_format(0, 1, "Givens", &bold)?;
    ws.write_string_with_format(0, 2, "Minutes", &bold)?;
    for (i, (name, givens, minutes)) in [("Easy", 30, 4.5), ("Big", 119, 25.0)].iter().enumerate() {
        let r = 1 + i as u32;
        ws.write_string(r, 0, *name)?;
        ws.write_number(r, 1, f64::from(*givens))?;
        ws.write_number(r, 2, *minutes)?;
    }
    ws.write_string_with_format(3, 0, "Total", &bold)?;
    ws.write_formula(3, 1, Formula::new("=SUM(B2:B3)").set_result("149"))?;
    ws.write_formula(3, 2, Formula::new("=SUM(C2:C3)").set_result("29.5"))?;
    ws.write_formula(5, 0, Formula::new("=COUNT(Easy!C3:K11)").set_result("30"))?;
    wb.define_name("EasyGrid", "=Easy!$C$3:$K$11")?;
    wb.define_name("Totals", "=Notes!$B$4:$C$4")?;
    wb.save(out.join("example.xlsx"))?;
    Ok(())
}

fn layouts(out: &Path) -> Res {
    let easy = parse(EASY, 3, 3)?;
    single(
        out,
        "layout_gridlines_c3.xlsx",
        "Grid",
        &easy,
        (2, 2),
        Layout::GridLines,
    )?;
    single(
        out,
        "layout_frame_b2.xlsx",
        "Frame",
        &easy,
        (1, 1),
        Layout::FrameOnly,
    )?;
    single(
        out,
        "layout_thick_a1.xlsx",
        "Thick",
        &easy,
        (0, 0),
        Layout::ThickBoxesOnly,
    )?;
    single(
        out,
        "layout_h8.xlsx",
        "Far",
        &easy,
        (7, 7),
        Layout::GridLinesThickBoxes,
    )?;
    single(
        out,
        "layout_neighbour_borders.xlsx",
        "Neighbours",
        &easy,
        (2, 2),
        Layout::Neighbours,
    )?;

    // A bordered, merged title row directly above a grid drawn with grid
    // lines: the square from A1 closes too, but holds the title.
    let mut wb = new_workbook()?;
    let ws = wb.add_worksheet().set_name("Titled")?;
    let title = Format::new()
        .set_bold()
        .set_align(FormatAlign::Center)
        .set_border(FormatBorder::Thin);
    ws.merge_range(0, 0, 0, 8, "Puzzle 7 (easy)", &title)?;
    put_grid(ws, 1, 0, &easy, Layout::GridLines, Givens::Numbers)?;
    wb.save(out.join("layout_title_row.xlsx"))?;

    let mut wb = new_workbook()?;
    let ws = wb.add_worksheet().set_name("Two")?;
    put_grid(
        ws,
        1,
        1,
        &easy,
        Layout::GridLinesThickBoxes,
        Givens::Numbers,
    )?;
    put_grid(
        ws,
        1,
        11,
        &parse(HARD, 3, 3)?,
        Layout::GridLinesThickBoxes,
        Givens::Numbers,
    )?;
    wb.save(out.join("layout_two_grids.xlsx"))?;

    let six = parse(SIX, 3, 2)?;
    let mut wb = new_workbook()?;
    let ws = wb.add_worksheet().set_name("Six")?;
    put_grid(ws, 1, 1, &six, Layout::GridLinesThickBoxes, Givens::Numbers)?;
    // The same puzzle transposed is a puzzle with 2-wide, 3-high boxes.
    let mut tall = Grid::empty(BoxShape::new(2, 3)?);
    for r in 0..6 {
        for c in 0..6 {
            tall.set(c, r, six.get(r, c));
        }
    }
    let ws = wb.add_worksheet().set_name("Tall")?;
    put_grid(
        ws,
        1,
        1,
        &tall,
        Layout::GridLinesThickBoxes,
        Givens::Numbers,
    )?;
    wb.save(out.join("layout_6x6.xlsx"))?;

    // `--answers sheet` must not take a name that is there: `Solutions`
    // (in another case, as Excel compares names) and `Solutions 2` are.
    let mut wb = new_workbook()?;
    let ws = wb.add_worksheet().set_name("Easy")?;
    put_grid(
        ws,
        2,
        2,
        &easy,
        Layout::GridLinesThickBoxes,
        Givens::Numbers,
    )?;
    wb.add_worksheet()
        .set_name("SOLUTIONS")?
        .write_string(0, 0, "the answers, by hand")?;
    wb.add_worksheet()
        .set_name("Solutions 2")?
        .write_string(0, 0, "more answers")?;
    wb.save(out.join("answers_sheet_taken.xlsx"))?;

    single(
        out,
        "layout_4x4.xlsx",
        "Four",
        &parse(FOUR, 2, 2)?,
        (1, 1),
        Layout::GridLinesThickBoxes,
    )?;
    single(
        out,
        "layout_25x25.xlsx",
        "Huge",
        &parse(TWENTY_FIVE, 5, 5)?,
        (1, 1),
        Layout::GridLinesThickBoxes,
    )?;

    let mut wb = new_workbook()?;
    let ws = wb.add_worksheet().set_name("Text")?;
    put_grid(
        ws,
        2,
        2,
        &easy,
        Layout::GridLinesThickBoxes,
        Givens::TextWithSpaces,
    )?;
    wb.save(out.join("layout_text_givens.xlsx"))?;

    non_grids(out)
}

fn non_grids(out: &Path) -> Res {
    let thin = Format::new().set_border(FormatBorder::Thin);
    let mut wb = new_workbook()?;
    let names = [
        "Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea",
    ];
    let ws = wb.add_worksheet().set_name("Names")?;
    ws.write_string(0, 1, "Seating plan")?;
    for r in 0..9u32 {
        for c in 0..9u16 {
            let name = names[(r as usize * 9 + c as usize) % names.len()];
            ws.write_string_with_format(1 + r, 1 + c, name, &thin)?;
        }
    }
    let ws = wb.add_worksheet().set_name("Prices")?;
    for r in 0..6u32 {
        for c in 0..6u16 {
            let price = 1.25 + f64::from(r) * 2.5 + f64::from(c) * 0.75;
            ws.write_number_with_format(1 + r, 1 + c, price, &thin)?;
        }
    }
    let ws = wb.add_worksheet().set_name("Small")?;
    // Digits in a bordered 5x5: no box shape for a side of 5.
    for r in 0..5u32 {
        for c in 0..5u16 {
            let v = (r + u32::from(c)) % 5 + 1;
            ws.write_number_with_format(1 + r, 1 + c, f64::from(v), &thin)?;
        }
    }
    wb.save(out.join("layout_nongrid_tables.xlsx"))?;

    let mut wb = new_workbook()?;
    let ws = wb.add_worksheet().set_name("Data")?;
    let header = Format::new()
        .set_bold()
        .set_border_bottom(FormatBorder::Thin);
    ws.write_string_with_format(0, 0, "Month", &header)?;
    ws.write_string_with_format(0, 1, "Solved", &header)?;
    for (i, m) in ["Jan", "Feb", "Mar", "Apr"].iter().enumerate() {
        ws.write_string(1 + i as u32, 0, *m)?;
        ws.write_number(1 + i as u32, 1, (3 + i * 2) as f64)?;
    }
    ws.write_formula(5, 1, Formula::new("=SUM(B2:B5)").set_result("24"))?;
    wb.save(out.join("layout_no_grid.xlsx"))?;
    Ok(())
}

fn statuses(out: &Path) -> Res {
    let at = (2, 2);
    let lay = Layout::GridLinesThickBoxes;
    single(
        out,
        "status_logic_easy.xlsx",
        "Easy",
        &parse(EASY, 3, 3)?,
        at,
        lay,
    )?;
    single(
        out,
        "status_needs_guess.xlsx",
        "Hard",
        &parse(HARD, 3, 3)?,
        at,
        lay,
    )?;
    single(
        out,
        "status_invalid_clash.xlsx",
        "Clash",
        &parse(CLASH, 3, 3)?,
        at,
        lay,
    )?;
    single(
        out,
        "status_unsolvable.xlsx",
        "Unsolvable",
        &parse(UNSOLVABLE, 3, 3)?,
        at,
        lay,
    )?;
    single(
        out,
        "status_multiple.xlsx",
        "Multiple",
        &parse(MULTIPLE, 3, 3)?,
        at,
        lay,
    )?;

    // Bad values: "x" at E4 and 12 at F5; then 3.5 at G7 (with a 0 at D6,
    // which reads as a blank written as 0).
    let easy = parse(EASY, 3, 3)?;
    let mut wb = new_workbook()?;
    let ws = wb.add_worksheet().set_name("Letters")?;
    put_grid(ws, 2, 2, &easy, lay, Givens::Numbers)?;
    ws.write_string_with_format(3, 4, "x", &cell_format(lay, &easy, 1, 2))?;
    ws.write_number_with_format(4, 5, 12.0, &cell_format(lay, &easy, 2, 3))?;
    let ws = wb.add_worksheet().set_name("Numbers")?;
    put_grid(ws, 2, 2, &easy, lay, Givens::Numbers)?;
    ws.write_number_with_format(5, 3, 0.0, &cell_format(lay, &easy, 3, 1))?;
    ws.write_number_with_format(6, 6, 3.5, &cell_format(lay, &easy, 4, 4))?;
    wb.save(out.join("status_invalid_bad_values.xlsx"))?;
    Ok(())
}

/// A workbook as an earlier xlsudoku run left it: blue-italic fills and a
/// blue-italic note, to be replaced, not stacked. The puzzle is written
/// first; the earlier run's writing is then put in by xlsudoku's own
/// patcher, so that the copy carries the grid records (its records, see `xlsudoku::records`) that
/// tell a later run which cells it filled.
fn rerun(out: &Path) -> Res {
    use xlsudoku::address::{CellRange, CellRef};
    use xlsudoku::annotate::{
        annotate_with, AnnotateOptions, CellEdit, CellValue, GridMark, SheetEdits,
    };

    let easy = parse(EASY, 3, 3)?;
    let solution = parse(EASY_SOLUTION, 3, 3)?;
    let lay = Layout::GridLinesThickBoxes;
    let mut wb = new_workbook()?;
    let range: CellRange = "C3:K11".parse()?;
    let mut edits: Vec<SheetEdits> = Vec::new();
    let mut marks: Vec<GridMark> = Vec::new();
    let mut record = |sheet: &str, cells: Vec<CellEdit>, note: CellRef| {
        marks.push(GridMark {
            sheet: sheet.into(),
            range,
            filled: cells
                .iter()
                .map(|e| e.at)
                .filter(|&at| at != note)
                .collect(),
            note: Some(note),
            tinted: Vec::new(),
            answer: None,
            keep: false,
        });
        edits.push(SheetEdits {
            sheet: sheet.into(),
            cells,
        });
    };

    // Solved: every blank filled in blue italics, the note at C12.
    let ws = wb.add_worksheet().set_name("Solved")?;
    put_grid(ws, 2, 2, &easy, lay, Givens::Numbers)?;
    let mut cells = Vec::new();
    for r in 0..9 {
        for c in 0..9 {
            if easy.get(r, c) == 0 {
                cells.push(CellEdit {
                    at: CellRef::new(2 + r as u32, 2 + c as u32),
                    value: CellValue::Number(f64::from(solution.get(r, c))),
                });
            }
        }
    }
    let note = CellRef::new(11, 2);
    cells.push(CellEdit {
        at: note,
        value: CellValue::Text("solved iiiiiiii 0.41 ms rating 1.2".into()),
    });
    record("Solved", cells, note);

    // Logic only: a few digits and candidate letters; the user's own lines
    // under the grid, then the earlier note.
    let ws = wb.add_worksheet().set_name("LogicOnly")?;
    put_grid(ws, 2, 2, &easy, lay, Givens::Numbers)?;
    ws.write_string(11, 2, "Source: Wikipedia")?;
    let note = CellRef::new(12, 2);
    record(
        "LogicOnly",
        vec![
            CellEdit {
                at: CellRef::new(2, 4), // E3
                value: CellValue::Number(4.0),
            },
            CellEdit {
                at: CellRef::new(2, 5), // F3
                value: CellValue::Text("fg".into()),
            },
            CellEdit {
                at: note,
                value: CellValue::Text("gave up ii!! 0.2 ms".into()),
            },
        ],
        note,
    );

    // Crowded: user lines under the grid, no earlier note: the note goes to
    // the first empty cell below them.
    let ws = wb.add_worksheet().set_name("Crowded")?;
    put_grid(ws, 2, 2, &easy, lay, Givens::Numbers)?;
    ws.write_string(11, 2, "Source: Wikipedia")?;
    ws.write_string(12, 2, "Level: easy")?;
    // A blue-italic cell xlsudoku did not write is not replaced.
    ws.write_string_with_format(13, 2, "see page 3", &blue_italic())?;

    let puzzle = wb.save_to_buffer()?;
    let mut copy = std::io::Cursor::new(Vec::new());
    let options = AnnotateOptions {
        grids: marks,
        ..AnnotateOptions::default()
    };
    annotate_with(std::io::Cursor::new(puzzle), &edits, &mut copy, options)?;
    std::fs::write(out.join("rerun_earlier_output.xlsx"), copy.into_inner())?;
    Ok(())
}

fn macro_workbook(out: &Path, fixtures: &Path) -> Res {
    let mut wb = new_workbook()?;
    wb.add_vba_project(fixtures.join("vbaProject.bin"))?;
    let ws = wb.add_worksheet().set_name("Macro")?;
    put_grid(
        ws,
        2,
        2,
        &parse(EASY, 3, 3)?,
        Layout::GridLinesThickBoxes,
        Givens::Numbers,
    )?;
    ws.write_string(
        0,
        0,
        "This workbook carries a VBA project (from macro01.xlsm)",
    )?;
    wb.save(out.join("macro.xlsm"))?;
    Ok(())
}

/// What a cell of a person's position holds, beside the puzzle's givens.
enum Written {
    /// A digit the person typed (plain, the givens being bold).
    Entry(u8),
    /// Pencil marks, as text.
    Marks(&'static str),
}

/// A 9x9 at C3:K11 on sheet `sheet`: the givens of `puzzle` (bold when
/// `bold`), and the person's writing at the cells (row-major) of `written`.
fn put_position(
    wb: &mut Workbook,
    sheet: &str,
    puzzle: &str,
    bold: bool,
    written: &[(usize, Written)],
) -> Res {
    let easy = parse(puzzle, 3, 3)?;
    let lay = Layout::GridLinesThickBoxes;
    let ws = wb.add_worksheet().set_name(sheet)?;
    put_grid(ws, 2, 2, &easy, lay, Givens::Numbers)?;
    for i in (0..81).filter(|&i| easy.cells()[i] != 0 && bold) {
        let (r, c) = (i / 9, i % 9);
        let fmt = cell_format(lay, &easy, r, c).set_bold();
        let d = easy.cells()[i];
        ws.write_number_with_format(2 + r as u32, 2 + c as u16, f64::from(d), &fmt)?;
    }
    for (i, w) in written {
        let (r, c) = (i / 9, i % 9);
        let fmt = cell_format(lay, &easy, r, c);
        let (rr, cc) = (2 + r as u32, 2 + c as u16);
        match w {
            Written::Entry(d) => ws.write_number_with_format(rr, cc, f64::from(*d), &fmt)?,
            Written::Marks(t) => ws.write_string_with_format(rr, cc, *t, &fmt)?,
        };
    }
    Ok(())
}

/// Positions a person reached: wrong entries on EASY, pencil marks on HARD.
fn positions(out: &Path) -> Res {
    // Right: F3 = 6, J4 = 4; wrong: E3 = 1 (its answer is 4), D6 = 2 (5).
    let entries = [
        (2, Written::Entry(1)),
        (3, Written::Entry(6)),
        (16, Written::Entry(4)),
        (28, Written::Entry(2)),
    ];
    let mut wb = new_workbook()?;
    put_position(&mut wb, "Entries", EASY, true, &entries)?;
    put_position(&mut wb, "Plain", EASY, false, &entries)?;
    wb.save(out.join("status_wrong_entries.xlsx"))?;
    // Marks that hold each answer; D3's `2 8` leaves it one candidate (8
    // is in its row), so the first step is a naked single there, not the
    // hidden single in column K the givens alone give first.
    let marks = [
        (1, Written::Marks("2 8")),
        (20, Written::Marks("14")),
        (44, Written::Entry(9)),
        (73, Written::Marks("2,7")),
    ];
    let mut wb = new_workbook()?;
    put_position(&mut wb, "Marks", HARD, true, &marks)?;
    wb.save(out.join("position_marks.xlsx"))?;
    Ok(())
}

fn main() -> Res {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| fixtures.clone());
    std::fs::create_dir_all(&out)?;
    example(&out)?;
    layouts(&out)?;
    statuses(&out)?;
    positions(&out)?;
    rerun(&out)?;
    macro_workbook(&out, &fixtures)?;
    println!("fixtures written to {}", out.display());
    Ok(())
}
