//! `solve --answers beside|at:CELL` through the real binary: the solution
//! goes into a copy of the grid (its styles, givens plain, solved cells blue
//! italic), the puzzle's own cells stay as they are, an occupied target
//! refuses the grid naming the cell, and reruns replace the copy.

use crate::util::fixture;
use crate::util::xlsudoku;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use calamine::{open_workbook, Data, Reader, Xlsx};
use xlsudoku::address::{CellRange, CellRef};
use xlsudoku::report::SheetRecord;
use xlsudoku::workbook::{read_workbook, ReadOptions};

/// Solves `input` into `dir/NAME`, with `--json` and `extra`: the exit
/// code and the grid records.
fn solve(input: &Path, out: &Path, extra: &[&str]) -> (i32, Vec<SheetRecord>) {
    crate::util::solve_records(input, out, extra)
}

fn range(s: &str) -> CellRange {
    s.parse().unwrap()
}

/// The cell values of a sheet, as text (`""` for empty).
fn values(path: &Path, sheet: &str) -> calamine::Range<Data> {
    let mut book: Xlsx<_> = open_workbook(path).unwrap();
    book.worksheet_range(sheet).unwrap()
}

fn text(v: &calamine::Range<Data>, at: CellRef) -> String {
    crate::util::cell_text(v, at)
}

fn cells(r: CellRange) -> Vec<CellRef> {
    crate::util::range_cells(r)
}

/// The `s` attribute of each `<c>` of a sheet part (`None`: no `s`).
fn cell_styles(path: &Path, part: &str) -> std::collections::HashMap<String, Option<String>> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut z.by_name(part).unwrap(), &mut xml).unwrap();
    crate::util::cell_styles_of(&xml)
}

/// Checks one grid's answer copy in `out`: the puzzle's cells as in
/// `input`, the copy a valid solution holding every given in its place,
/// each copy cell styled from its grid cell (a given with the very same
/// style).
fn check_copy(
    input: &Path,
    out: &Path,
    sheet: &str,
    part: &str,
    grid: CellRange,
    block: CellRange,
) {
    let (before, after) = (values(input, sheet), values(out, sheet));
    let side = grid.rows();
    assert_eq!(block.rows(), side);
    for at in cells(grid) {
        assert_eq!(
            text(&before, at),
            text(&after, at),
            "{sheet}!{at} untouched"
        );
    }
    let copy = |r: u32, c: u32| text(&after, block.cell(r, c));
    for r in 0..side {
        for c in 0..side {
            let given = text(&before, grid.cell(r, c));
            assert!(
                !copy(r, c).is_empty(),
                "{sheet}: {} empty",
                block.cell(r, c)
            );
            if !given.is_empty() {
                assert_eq!(copy(r, c), given, "{sheet}: given copied");
            }
        }
    }
    let (bw, bh) = match side {
        6 => (3, 2),
        9 => (3, 3),
        16 => (4, 4),
        _ => unreachable!(),
    };
    let box_w = if sheet == "Tall" { bh } else { bw };
    let box_h = side / box_w;
    for k in 0..side {
        let row: HashSet<String> = (0..side).map(|c| copy(k, c)).collect();
        let col: HashSet<String> = (0..side).map(|r| copy(r, k)).collect();
        let (br, bc) = ((k / (side / box_w)) * box_h, (k % (side / box_w)) * box_w);
        let bx: HashSet<String> = (0..side)
            .map(|i| copy(br + i / box_w, bc + i % box_w))
            .collect();
        for (what, set) in [("row", row), ("column", col), ("box", bx)] {
            assert_eq!(set.len(), side as usize, "{sheet}: {what} {k} of the copy");
        }
    }
    let styles = cell_styles(out, part);
    let style = |at: CellRef| styles.get(&at.to_string()).cloned().flatten();
    let mut blue = 0;
    for r in 0..side {
        for c in 0..side {
            let (g, a) = (grid.cell(r, c), block.cell(r, c));
            if text(&before, g).is_empty() {
                // A solved cell: the grid cell's style made blue italic.
                assert_ne!(style(a), style(g), "{sheet}: {a} is blue italic");
                blue += 1;
            } else {
                assert_eq!(style(a), style(g), "{sheet}: {a} has {g}'s style");
            }
        }
    }
    assert!(blue > 0);
}

fn copy_of(records: &[SheetRecord], sheet: &str) -> (CellRange, CellRange) {
    let r = records
        .iter()
        .find(|r| r.sheet.as_deref() == Some(sheet))
        .unwrap_or_else(|| panic!("no record of {sheet}"));
    assert_eq!(r.status, "solved", "{r:?}");
    assert_eq!(r.answer_sheet.as_deref(), Some(sheet));
    (
        range(r.range.as_deref().unwrap()),
        range(r.answer_range.as_deref().expect("answer_range")),
    )
}

#[test]
fn beside_copies_nine_sixteen_and_six_grids_to_the_right() {
    let dir = tempfile::tempdir().unwrap();
    for (name, sheet, part, want) in [
        (
            "status_logic_easy.xlsx",
            "Easy",
            "xl/worksheets/sheet1.xml",
            "M3:U11",
        ),
        ("example.xlsx", "Big", "xl/worksheets/sheet2.xml", "T3:AI18"),
        (
            "layout_6x6.xlsx",
            "Six",
            "xl/worksheets/sheet1.xml",
            "I2:N7",
        ),
        (
            "layout_6x6.xlsx",
            "Tall",
            "xl/worksheets/sheet2.xml",
            "I2:N7",
        ),
    ] {
        let out = dir.path().join(format!("{sheet}.{name}"));
        let (code, recs) = solve(&fixture(name), &out, &["--answers", "beside"]);
        assert_eq!(code, 0, "{name}");
        let (grid, block) = copy_of(&recs, sheet);
        assert_eq!(block, range(want), "{name} {sheet}");
        check_copy(&fixture(name), &out, sheet, part, grid, block);
    }
}

#[test]
fn at_cell_puts_the_copy_there_for_every_size() {
    let dir = tempfile::tempdir().unwrap();
    for (name, sheet, part, at, want) in [
        (
            "status_logic_easy.xlsx",
            "Easy",
            "xl/worksheets/sheet1.xml",
            "C14",
            "C14:K22",
        ),
        (
            "example.xlsx",
            "Big",
            "xl/worksheets/sheet2.xml",
            "B21",
            "B21:Q36",
        ),
        (
            "layout_6x6.xlsx",
            "Six",
            "xl/worksheets/sheet1.xml",
            "J1",
            "J1:O6",
        ),
    ] {
        let out = dir.path().join(format!("{sheet}.{name}"));
        let (code, recs) = solve(&fixture(name), &out, &["--answers", &format!("at:{at}")]);
        assert_eq!(code, 0, "{name}");
        let (grid, block) = copy_of(&recs, sheet);
        assert_eq!(block, range(want), "{name} {sheet}");
        check_copy(&fixture(name), &out, sheet, part, grid, block);
    }
}

#[test]
fn beside_goes_below_when_the_right_is_another_grid() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("two.xlsx");
    let input = fixture("layout_two_grids.xlsx");
    let (code, recs) = solve(&input, &out, &["--answers", "beside"]);
    assert_eq!(code, 0);
    let blocks: Vec<(String, String)> = recs
        .iter()
        .map(|r| (r.range.clone().unwrap(), r.answer_range.clone().unwrap()))
        .collect();
    // B2:J10 has L2:T10 to its right: below it, a row left for its note.
    assert_eq!(
        blocks,
        vec![
            ("B2:J10".to_string(), "B12:J20".to_string()),
            ("L2:T10".to_string(), "V2:AD10".to_string()),
        ]
    );
    for (grid, block) in [("B2:J10", "B12:J20"), ("L2:T10", "V2:AD10")] {
        check_copy(
            &input,
            &out,
            "Two",
            "xl/worksheets/sheet1.xml",
            range(grid),
            range(block),
        );
    }
}

#[test]
fn an_occupied_target_refuses_the_grid_naming_the_cell_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("example.xlsx");
    for (at, cell, what) in [
        ("A1", "A1", "holds a value"),
        ("E5", "E5", "is in the grid C3:K11"),
        ("A12", "C12", "holds a grid's note"),
    ] {
        let out = dir.path().join(format!("{at}.xlsx"));
        let (code, recs) = solve(
            &input,
            &out,
            &["--answers", &format!("at:{at}"), "--sheet", "Easy"],
        );
        assert_eq!(code, 1, "{at}");
        let r = &recs[0];
        assert_eq!(r.status, "refused", "{r:?}");
        let error = r.error.clone().unwrap();
        assert!(error.contains(&format!("{cell} {what}")), "{error}");
        assert!(r.answer_range.is_none());
        // Not a byte of the sheet changed.
        let part = |p: &Path| {
            let mut z = zip::ZipArchive::new(std::fs::File::open(p).unwrap()).unwrap();
            let mut b = Vec::new();
            std::io::Read::read_to_end(&mut z.by_name("xl/worksheets/sheet1.xml").unwrap(), &mut b)
                .unwrap();
            b
        };
        assert_eq!(part(&input), part(&out), "{at}");
    }
    // Past the sheet's edge.
    let out = dir.path().join("edge.xlsx");
    let (code, recs) = solve(&input, &out, &["--answers", "at:XFA1", "--sheet", "Easy"]);
    assert_eq!(code, 1);
    assert_eq!(recs[0].status, "refused");
    assert!(recs[0].error.as_deref().unwrap().contains("XFA1"));
}

/// Every part of a copy, the notes' timings left out.
fn parts(p: &Path) -> Vec<(String, String)> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(p).unwrap()).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let mut s = String::new();
            std::io::Read::read_to_string(&mut f, &mut s).unwrap_or_default();
            let s: Vec<String> = s
                .split("<t>")
                // The note's time (`solved in 0.76 ms · …`) differs each run.
                .map(|piece| match piece.find(" · ") {
                    Some(k) if piece.starts_with("solved in ") => piece[k..].to_string(),
                    _ => piece.to_string(),
                })
                .collect();
            (f.name().unwrap().to_string(), s.join("<t>"))
        })
        // The run's own record names its input (another file each run).
        .filter(|(name, _)| name != xlsudoku::annotate::RECORD_PART)
        .collect()
}

#[test]
fn a_rerun_in_each_mode_replaces_the_copy_instead_of_stacking() {
    let dir = tempfile::tempdir().unwrap();
    for (name, mode) in [
        ("status_logic_easy.xlsx", "beside"),
        ("layout_two_grids.xlsx", "beside"),
        ("example.xlsx", "beside"),
        ("layout_6x6.xlsx", "at:B10"),
        ("example.xlsx", "at:C40"),
    ] {
        let first = dir
            .path()
            .join(format!("1.{mode}.{name}").replace(':', "_"));
        let second = dir
            .path()
            .join(format!("2.{mode}.{name}").replace(':', "_"));
        let (code, a) = solve(&fixture(name), &first, &["--answers", mode]);
        assert_eq!(code, 0, "{name} {mode}");
        let (code, b) = solve(&first, &second, &["--answers", mode]);
        assert_eq!(code, 0, "{name} {mode}: {b:?}");
        let blocks = |r: &[SheetRecord]| -> Vec<Option<String>> {
            r.iter().map(|r| r.answer_range.clone()).collect()
        };
        assert_eq!(blocks(&a), blocks(&b), "{name} {mode}");
        assert_eq!(a.len(), b.len(), "the copy is no new grid");
        assert_eq!(parts(&first), parts(&second), "{name} {mode}");
    }
}

#[test]
fn a_rerun_in_another_mode_clears_the_earlier_copy_and_gives_its_cells_back() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("status_logic_easy.xlsx");
    let beside = dir.path().join("beside.xlsx");
    assert_eq!(solve(&input, &beside, &["--answers", "beside"]).0, 0);
    // Into the grid: the copy goes, its cells as they were.
    let filled = dir.path().join("filled.xlsx");
    let (code, recs) = solve(&beside, &filled, &[]);
    assert_eq!(code, 0);
    assert!(recs[0].answer_range.is_none());
    let v = values(&filled, "Easy");
    for at in cells(range("M3:U11")) {
        assert_eq!(text(&v, at), "", "{at} cleared");
    }
    let styles = cell_styles(&filled, "xl/worksheets/sheet1.xml");
    let original = cell_styles(&input, "xl/worksheets/sheet1.xml");
    for at in cells(range("M3:U11")) {
        let key = at.to_string();
        let s = styles.get(&key).cloned().flatten();
        assert!(
            s.is_none() || s.as_deref() == Some("0") || s == original.get(&key).cloned().flatten(),
            "{at} has its style back: {s:?}"
        );
    }
    let sheets = read_workbook(&filled, &ReadOptions::default()).unwrap();
    assert_eq!(sheets[0].grids.len(), 1);
    // The grid's fills are this run's, its givens the input's.
    assert_eq!(sheets[0].grids[0].puzzle().givens(), 30);
    assert_eq!(sheets[0].grids[0].shown().givens(), 81);
    // Moved: the copy at M3 goes to M14, M3:U11 empty again.
    let moved = dir.path().join("moved.xlsx");
    let (code, recs) = solve(&beside, &moved, &["--answers", "at:M14"]);
    assert_eq!(code, 0);
    assert_eq!(recs[0].answer_range.as_deref(), Some("M14:U22"));
    let v = values(&moved, "Easy");
    assert!(cells(range("M3:U11"))
        .iter()
        .all(|&at| text(&v, at).is_empty()));
    check_copy(
        &input,
        &moved,
        "Easy",
        "xl/worksheets/sheet1.xml",
        range("C3:K11"),
        range("M14:U22"),
    );
}

#[test]
fn the_answers_mode_is_part_of_the_up_to_date_stamp() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("in");
    std::fs::create_dir(&inbox).unwrap();
    std::fs::copy(fixture("status_logic_easy.xlsx"), inbox.join("a.xlsx")).unwrap();
    let out: PathBuf = dir.path().join("out");
    let run = |extra: &[&str]| solve(&inbox, &out, extra).1;
    assert!(!run(&[])[0].skipped);
    assert!(run(&[])[0].skipped, "same options: up to date");
    let beside = run(&["--answers", "beside"]);
    assert!(!beside[0].skipped, "another mode is redone");
    assert_eq!(beside[0].answer_range.as_deref(), Some("M3:U11"));
    let again = run(&["--answers", "beside"]);
    assert!(again[0].skipped);
    assert_eq!(
        again[0].answer_range.as_deref(),
        Some("M3:U11"),
        "kept in the stamp"
    );
}

#[test]
fn the_human_report_names_the_copy() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.xlsx");
    let o = xlsudoku(&[
        "solve",
        fixture("status_logic_easy.xlsx").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--answers",
        "beside",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("→ answers in M3:U11"), "{text}");
}

#[test]
fn a_bad_answers_value_is_a_usage_error() {
    let o = xlsudoku(&[
        "solve",
        fixture("example.xlsx").to_str().unwrap(),
        "--answers",
        "at:nowhere",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at:nowhere"));
}

#[test]
fn openpyxl_reads_every_mode_back() {
    let ok = Command::new("python3")
        .args(["-c", "import openpyxl"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var("CI").is_err(), "openpyxl is missing under CI");
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: python3 with openpyxl not found"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for mode in ["beside", "at:C40"] {
        let out = dir.path().join(format!("{}.xlsx", mode.replace(':', "_")));
        let (code, recs) = solve(&fixture("example.xlsx"), &out, &["--answers", mode]);
        assert_eq!(code, 0);
        let (_, block) = copy_of(&recs, "Big");
        let script = format!(
            "import openpyxl,sys\nwb=openpyxl.load_workbook(sys.argv[1])\nws=wb['Big']\n\
             vals=[c.value for row in ws['{block}'] for c in row]\n\
             assert all(v is not None for v in vals), vals\n\
             assert ws['{corner}'].font.i in (None, False) or ws['{corner}'].value is not None\n\
             print(len(vals))",
            corner = block.start,
        );
        let o = Command::new("python3")
            .args(["-c", &script, out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "256");
    }
}

/// `path` with `from` replaced by `to` in one part, every other part (the
/// records part among them) and the zip comment kept: a copy changed by hand.
fn edit_part(path: &Path, part: &str, from: &str, to: &str) {
    crate::util::repack_file(path, path, |name, bytes| {
        if name != part {
            return Some(bytes);
        }
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains(from), "{from} in {part}");
        Some(text.replacen(from, to, 1).into_bytes())
    });
}

#[test]
fn a_copy_changed_since_is_left_as_it_is_and_its_grid_refused() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.xlsx");
    let input = fixture("status_logic_easy.xlsx");
    assert_eq!(solve(&input, &first, &["--answers", "beside"]).0, 0);
    edit_part(
        &first,
        "xl/worksheets/sheet1.xml",
        r#"<c r="N3" s="2"><v>3</v>"#,
        r#"<c r="N3" s="2"><v>7</v>"#,
    );
    let second = dir.path().join("second.xlsx");
    let (code, recs) = solve(&first, &second, &["--answers", "beside"]);
    assert_eq!(code, 1);
    assert_eq!(recs.len(), 1, "the copy is still no puzzle");
    assert_eq!(recs[0].status, "refused");
    let error = recs[0].error.clone().unwrap();
    assert!(
        error.contains(
            "M3:U11 is not free: N3 was changed since xlsudoku wrote this grid's answers"
        ),
        "{error}"
    );
    let v = values(&second, "Easy");
    assert_eq!(
        text(&v, "N3".parse().unwrap()),
        "7",
        "kept as the person left it"
    );
}

#[test]
fn every_part_the_copy_has_no_reason_to_change_stays_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("example.xlsx");
    for mode in ["beside", "at:C40"] {
        let out = dir.path().join(format!("{}.xlsx", mode.replace(':', "_")));
        assert_eq!(solve(&input, &out, &["--answers", mode]).0, 0);
        let (before, mut after) = (
            crate::util::raw_entries(&input),
            crate::util::raw_entries(&out),
        );
        // The copy's records are a part of their own, added last.
        assert_eq!(
            after.pop().map(|e| e.0).as_deref(),
            Some(xlsudoku::annotate::RECORD_PART)
        );
        let names =
            |v: &[(String, Vec<u8>)]| -> Vec<String> { v.iter().map(|e| e.0.clone()).collect() };
        assert_eq!(
            names(&before),
            names(&after),
            "{mode}: same parts, same order"
        );
        // The sheets with grids, the styles (blue italic twins) and the
        // workbook (recalculation on load) change; nothing else does.
        let changed = [
            "xl/worksheets/sheet1.xml",
            "xl/worksheets/sheet2.xml",
            "xl/styles.xml",
            "xl/workbook.xml",
        ];
        for ((name, a), (_, b)) in before.iter().zip(&after) {
            if !changed.contains(&name.as_str()) {
                assert!(a == b, "{mode}: {name} changed");
            }
        }
    }
}

#[test]
fn beside_refused_names_both_squares_and_the_sheets_corner() {
    let dir = tempfile::tempdir().unwrap();
    // Something to the right (M5) and below (C15): both squares named.
    let input = crate::util::easy_with_sheet(dir.path(), "blocked.xlsx", |xml| {
        xml.replace(
            "</sheetData>",
            r#"<row r="15"><c r="C15"><v>1</v></c></row></sheetData>"#,
        )
        .replace(
            r#"<c r="K5" s="9"/></row>"#,
            r#"<c r="K5" s="9"/><c r="M5"><v>2</v></c></row>"#,
        )
    });
    let out = dir.path().join("out.xlsx");
    let (code, recs) = solve(&input, &out, &["--answers", "beside"]);
    assert_eq!(code, 1);
    assert_eq!(recs[0].status, "refused", "{recs:?}");
    let error = recs[0].error.clone().unwrap();
    assert!(
        error.contains("to the right, the answer square M3:U11 is not free: M5 holds a value")
            && error.contains("below, the answer square C13:K21 is not free: C15 holds a value"),
        "{error}"
    );
    // A grid in the sheet's last rows and columns: no column past XFD named.
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    for (i, ch) in crate::util::EASY.chars().enumerate() {
        if let Some(d) = ch.to_digit(10) {
            ws.write_number(1_048_567 + (i / 9) as u32, 16_375 + (i % 9) as u16, d)
                .unwrap();
        }
    }
    let corner = dir.path().join("corner.xlsx");
    book.save(&corner).unwrap();
    let out = dir.path().join("corner_out.xlsx");
    let (code, recs) = solve(
        &corner,
        &out,
        &["--answers", "beside", "--range", "XEV1048568:XFD1048576"],
    );
    assert_eq!(code, 1, "{recs:?}");
    let error = recs[0].error.clone().unwrap();
    assert!(
        error.contains("the grid is at the corner of the sheet"),
        "{error}"
    );
    assert!(!error.contains("XFF"), "{error}");
}
