//! `solve --answers sheet` through the real binary: every solved grid is
//! copied to one new sheet (`Solutions`, or the next free name), each under
//! a title naming its sheet and range; the puzzles stay as they are; the
//! sheet is a proper part of the package (xlsudoku, openpyxl and
//! LibreOffice read it back); reruns rewrite it in place, mode switches add
//! or remove it, and a sheet edited since is not written over unless
//! forced.

use crate::util::fixture;

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use calamine::{open_workbook, Data, Reader, Xlsx};
use xlsudoku::address::{CellRange, CellRef};
use xlsudoku::annotate::{read_solutions_record, SolutionsRecord, RECORD_PART};
use xlsudoku::report::SheetRecord;
use xlsudoku::workbook::{read_workbook, ReadOptions};

/// Solves `input` into `out` with `--json` and `extra`: the exit code and
/// the grid records.
pub(super) fn solve(input: &Path, out: &Path, extra: &[&str]) -> (i32, Vec<SheetRecord>) {
    crate::util::solve_records(input, out, extra)
}

pub(super) fn range(s: &str) -> CellRange {
    s.parse().unwrap()
}

pub(super) fn values(path: &Path, sheet: &str) -> calamine::Range<Data> {
    let mut book: Xlsx<_> = open_workbook(path).unwrap();
    book.worksheet_range(sheet)
        .unwrap_or_else(|e| panic!("{}: {sheet}: {e}", path.display()))
}

pub(super) fn sheet_names(path: &Path) -> Vec<String> {
    let book: Xlsx<_> = open_workbook(path).unwrap();
    book.sheet_names()
}

pub(super) fn text(v: &calamine::Range<Data>, at: CellRef) -> String {
    crate::util::cell_text(v, at)
}

pub(super) fn cells(r: CellRange) -> Vec<CellRef> {
    crate::util::range_cells(r)
}

pub(super) fn record_of(path: &Path) -> SolutionsRecord {
    read_solutions_record(std::fs::File::open(path).unwrap())
        .unwrap_or_else(|| panic!("{}: no record of a sheet of solutions", path.display()))
}

/// The uncompressed bytes of one part.
pub(super) fn part(path: &Path, name: &str) -> Option<Vec<u8>> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut f = z.by_name(name).ok()?;
    let mut b = Vec::new();
    f.read_to_end(&mut b).unwrap();
    Some(b)
}

/// The `s` attribute of each `<c>` of a sheet part.
pub(super) fn cell_styles(path: &Path, name: &str) -> HashMap<String, Option<String>> {
    let xml = String::from_utf8(part(path, name).unwrap()).unwrap();
    crate::util::cell_styles_of(&xml)
}

/// The worksheet part of each sheet, by name, as the package says.
pub(super) fn sheet_parts(path: &Path) -> HashMap<String, String> {
    let wb = String::from_utf8(part(path, "xl/workbook.xml").unwrap()).unwrap();
    let rels = String::from_utf8(part(path, "xl/_rels/workbook.xml.rels").unwrap()).unwrap();
    let attr = |tag: &str, k: &str| -> String {
        let tag = format!(" {}", &tag[..tag.find('>').unwrap()]);
        let at = tag.find(&format!(" {k}=\"")).unwrap() + k.len() + 3;
        tag[at..at + tag[at..].find('"').unwrap()].to_string()
    };
    let targets: HashMap<String, String> = rels
        .split("<Relationship ")
        .skip(1)
        .map(|t| (attr(t, "Id"), attr(t, "Target")))
        .collect();
    wb.split("<sheet ")
        .skip(1)
        .map(|t| {
            (
                attr(t, "name").replace("&amp;", "&"),
                format!("xl/{}", targets[&attr(t, "r:id")]),
            )
        })
        .collect()
}

/// Checks one grid's copy on the sheet of solutions: its title above it,
/// the puzzle's cells untouched, the copy a valid solution holding every
/// given in its place, givens in their grid cell's style and solved cells
/// in another (its blue italic twin).
pub(super) fn check_copy(input: &Path, out: &Path, rec: &SheetRecord) {
    let sheet = rec.sheet.as_deref().unwrap();
    let grid = range(rec.range.as_deref().unwrap());
    let copy = range(rec.answer_range.as_deref().expect("answer_range"));
    let name = rec.answer_sheet.as_deref().expect("answer_sheet");
    let (before, after, sol) = (values(input, sheet), values(out, sheet), values(out, name));
    let side = grid.rows();
    assert_eq!(copy.rows(), side);
    for at in cells(grid) {
        assert_eq!(
            text(&before, at),
            text(&after, at),
            "{sheet}!{at} untouched"
        );
    }
    let title = CellRef::new(copy.start.row - 1, copy.start.col);
    let quoted = if sheet.chars().all(char::is_alphanumeric) {
        sheet.to_string()
    } else {
        format!("'{sheet}'")
    };
    assert_eq!(text(&sol, title), format!("{quoted}!{grid}"), "the title");
    let at = |r: u32, c: u32| text(&sol, copy.cell(r, c));
    for r in 0..side {
        for c in 0..side {
            assert!(!at(r, c).is_empty(), "{sheet}: {} empty", copy.cell(r, c));
            let given = text(&before, grid.cell(r, c));
            if !given.is_empty() {
                assert_eq!(at(r, c), given, "{sheet}: given copied");
            }
        }
    }
    let (w, h) = rec
        .box_shape
        .as_deref()
        .and_then(|b| b.split_once('x'))
        .map(|(w, h)| (w.parse::<u32>().unwrap(), h.parse::<u32>().unwrap()))
        .unwrap();
    for k in 0..side {
        let row: HashSet<String> = (0..side).map(|c| at(k, c)).collect();
        let col: HashSet<String> = (0..side).map(|r| at(r, k)).collect();
        let (br, bc) = ((k / (side / w)) * h, (k % (side / w)) * w);
        let bx: HashSet<String> = (0..side).map(|i| at(br + i / w, bc + i % w)).collect();
        for (what, set) in [("row", row), ("column", col), ("box", bx)] {
            assert_eq!(set.len(), side as usize, "{sheet}: {what} {k} of the copy");
        }
    }
    let parts = sheet_parts(out);
    let (grid_styles, copy_styles) = (
        cell_styles(out, &parts[sheet]),
        cell_styles(out, &parts[name]),
    );
    let style = |m: &HashMap<String, Option<String>>, at: CellRef| {
        m.get(&at.to_string()).cloned().flatten()
    };
    let mut blue = 0;
    for r in 0..side {
        for c in 0..side {
            let (g, a) = (grid.cell(r, c), copy.cell(r, c));
            if text(&before, g).is_empty() {
                assert_ne!(style(&copy_styles, a), style(&grid_styles, g), "{a} blue");
                blue += 1;
            } else {
                assert_eq!(style(&copy_styles, a), style(&grid_styles, g), "{a} as {g}");
            }
        }
    }
    assert!(blue > 0);
}

/// `input` solved with `--answers sheet` into `first.xlsx` in `dir`.
pub(super) fn first_with_sheet(input: &Path, dir: &Path) -> PathBuf {
    let first = dir.join("first.xlsx");
    assert_eq!(solve(input, &first, &["--answers", "sheet"]).0, 0);
    first
}

#[test]
fn every_solved_grid_of_every_size_goes_to_one_new_sheet_in_order() {
    let dir = tempfile::tempdir().unwrap();
    for (name, want) in [
        (
            "example.xlsx",
            vec![("Easy", "C3:K11", "B3:J11"), ("Big", "C3:R18", "B15:Q30")],
        ),
        (
            "layout_6x6.xlsx",
            vec![("Six", "B2:G7", "B3:G8"), ("Tall", "B2:G7", "B12:G17")],
        ),
        ("layout_25x25.xlsx", vec![("Huge", "B2:Z26", "B3:Z27")]),
        (
            "layout_two_grids.xlsx",
            vec![("Two", "B2:J10", "B3:J11"), ("Two", "L2:T10", "B15:J23")],
        ),
    ] {
        let input = fixture(name);
        let out = dir.path().join(name);
        let (code, recs) = solve(&input, &out, &["--answers", "sheet"]);
        assert_eq!(code, 0, "{name}: {recs:?}");
        let got: Vec<(&str, &str, &str)> = recs
            .iter()
            .filter(|r| r.answer_range.is_some())
            .map(|r| {
                assert_eq!(r.answer_sheet.as_deref(), Some("Solutions"), "{name}");
                (
                    r.sheet.as_deref().unwrap(),
                    r.range.as_deref().unwrap(),
                    r.answer_range.as_deref().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, want, "{name}");
        for r in recs.iter().filter(|r| r.answer_range.is_some()) {
            check_copy(&input, &out, r);
        }
        // The new sheet comes last; xlsudoku reads the same puzzles as
        // before (the sheet of solutions holds none).
        let mut names = sheet_names(&input);
        names.push("Solutions".to_string());
        assert_eq!(sheet_names(&out), names, "{name}");
        let (a, b) = (
            read_workbook(&input, &ReadOptions::default()).unwrap(),
            read_workbook(&out, &ReadOptions::default()).unwrap(),
        );
        let grids = |s: &[xlsudoku::workbook::Sheet]| -> Vec<(String, String)> {
            s.iter()
                .flat_map(|s| {
                    s.grids
                        .iter()
                        .map(|g| (s.name.clone(), g.range.to_string()))
                })
                .collect()
        };
        assert_eq!(grids(&a), grids(&b), "{name}");
        assert_eq!(record_of(&out).sheet, "Solutions");
    }
}

/// `path` with the copy's records taken out (what a program that drops
/// unknown parts and the zip comment would leave).
pub(super) fn without_records(path: &Path, to: &Path) {
    let mut entries = crate::util::entries(&std::fs::read(path).unwrap());
    entries.retain(|(name, _)| name != RECORD_PART);
    std::fs::write(to, crate::util::pack(&entries, &[])).unwrap();
}

#[test]
fn the_copies_read_back_as_solved_grids_once_the_record_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["example.xlsx", "layout_6x6.xlsx", "layout_two_grids.xlsx"] {
        let input = fixture(name);
        let out = dir.path().join(name);
        let (code, recs) = solve(&input, &out, &["--answers", "sheet"]);
        assert_eq!(code, 0);
        let bare = dir.path().join(format!("bare.{name}"));
        without_records(&out, &bare);
        let puzzles = read_workbook(&input, &ReadOptions::default()).unwrap();
        let sheets = read_workbook(&bare, &ReadOptions::default()).unwrap();
        let solutions = sheets.iter().find(|s| s.name == "Solutions").unwrap();
        let copied: Vec<&SheetRecord> = recs.iter().filter(|r| r.answer_range.is_some()).collect();
        assert_eq!(solutions.grids.len(), copied.len(), "{name}");
        for (g, r) in solutions.grids.iter().zip(&copied) {
            assert_eq!(Some(g.range.to_string()), r.answer_range, "{name}");
            let side = g.shape.side();
            assert_eq!(g.puzzle().givens(), side * side, "{name}: a full grid");
            let puzzle = puzzles
                .iter()
                .find(|s| Some(&s.name) == r.sheet.as_ref())
                .and_then(|s| {
                    s.grids
                        .iter()
                        .find(|p| Some(p.range.to_string()) == r.range)
                })
                .unwrap()
                .puzzle();
            assert!(g.shown().solves(&puzzle), "{name} {}", g.range);
        }
    }
}

#[test]
fn a_taken_name_gives_the_next_free_one() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("answers_sheet_taken.xlsx");
    let out = dir.path().join("taken.xlsx");
    let (code, recs) = solve(&input, &out, &["--answers", "sheet"]);
    assert_eq!(code, 0, "{recs:?}");
    let easy = recs
        .iter()
        .find(|r| r.sheet.as_deref() == Some("Easy"))
        .unwrap();
    assert_eq!(easy.answer_sheet.as_deref(), Some("Solutions 3"));
    assert_eq!(
        sheet_names(&out),
        ["Easy", "SOLUTIONS", "Solutions 2", "Solutions 3"]
    );
    check_copy(&input, &out, easy);
    // The sheets that had the names are as they were.
    for sheet in ["SOLUTIONS", "Solutions 2"] {
        let p = &sheet_parts(&input)[sheet];
        assert_eq!(part(&input, p), part(&out, p), "{sheet}");
    }
    // The human report names the sheet with the range.
    let o = crate::util::xlsudoku(&[
        "solve",
        input.to_str().unwrap(),
        "-o",
        dir.path().join("human.xlsx").to_str().unwrap(),
        "--answers",
        "sheet",
    ]);
    let shown = crate::util::output_text(&o);
    assert!(
        shown.contains("→ answers in 'Solutions 3'!B3:J11"),
        "{shown}"
    );
}

/// Every part of a copy, the notes' timings and the records left out.
pub(super) fn parts(p: &Path) -> Vec<(String, String)> {
    let mut z = zip::ZipArchive::new(std::fs::File::open(p).unwrap()).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let mut s = String::new();
            f.read_to_string(&mut s).unwrap_or_default();
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
        .filter(|(name, _)| name != RECORD_PART)
        .collect()
}

#[test]
fn a_rerun_rewrites_the_same_sheet_and_an_up_to_date_copy_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "example.xlsx",
        "layout_6x6.xlsx",
        "answers_sheet_taken.xlsx",
    ] {
        let first = dir.path().join(format!("1.{name}"));
        let second = dir.path().join(format!("2.{name}"));
        let (code, a) = solve(&fixture(name), &first, &["--answers", "sheet"]);
        assert_eq!(code, 0, "{name}");
        let (code, b) = solve(&first, &second, &["--answers", "sheet"]);
        assert_eq!(code, 0, "{name}: {b:?}");
        let places = |r: &[SheetRecord]| -> Vec<(Option<String>, Option<String>)> {
            r.iter()
                .map(|r| (r.answer_sheet.clone(), r.answer_range.clone()))
                .collect()
        };
        assert_eq!(
            places(&a),
            places(&b),
            "{name}: the sheet is no sheet of puzzles"
        );
        assert_eq!(parts(&first), parts(&second), "{name}");
        assert_eq!(record_of(&first), record_of(&second), "{name}");
        assert_eq!(sheet_names(&first), sheet_names(&second), "{name}");
    }
    // A folder run: up to date with the same mode, redone with another.
    let inbox = dir.path().join("in");
    std::fs::create_dir(&inbox).unwrap();
    std::fs::copy(fixture("example.xlsx"), inbox.join("a.xlsx")).unwrap();
    let out: PathBuf = dir.path().join("out");
    let run = |extra: &[&str]| solve(&inbox, &out, extra).1;
    assert!(!run(&[])[0].skipped);
    let sheet = run(&["--answers", "sheet"]);
    assert!(!sheet[0].skipped, "another mode is redone");
    let again = run(&["--answers", "sheet"]);
    assert!(again[0].skipped, "same mode: up to date");
    assert_eq!(again[0].answer_sheet.as_deref(), Some("Solutions"));
    assert_eq!(again[0].answer_range.as_deref(), Some("B3:J11"));
}

#[test]
fn switching_modes_adds_and_removes_the_sheet_and_restores_the_package() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("example.xlsx");
    let path = |n: &str| dir.path().join(n);
    assert_eq!(solve(&input, &path("grid.xlsx"), &[]).0, 0);
    assert_eq!(
        solve(&input, &path("sheet.xlsx"), &["--answers", "sheet"]).0,
        0
    );
    // sheet → grid: the sheet goes with everything that named it; the
    // package is the one a grid run of the input makes.
    let (code, recs) = solve(&path("sheet.xlsx"), &path("back.xlsx"), &[]);
    assert_eq!(code, 0);
    assert!(recs.iter().all(|r| r.answer_sheet.is_none()));
    assert_eq!(sheet_names(&path("back.xlsx")), sheet_names(&input));
    assert!(read_solutions_record(std::fs::File::open(path("back.xlsx")).unwrap()).is_none());
    let sheet_part = record_of(&path("sheet.xlsx")).part;
    assert!(part(&path("back.xlsx"), &sheet_part).is_none());
    for p in [
        "xl/workbook.xml",
        "[Content_Types].xml",
        "xl/_rels/workbook.xml.rels",
    ] {
        assert_eq!(
            part(&path("grid.xlsx"), p),
            part(&path("back.xlsx"), p),
            "{p} as a grid run leaves it"
        );
    }
    for (sheet, grid) in [("Easy", "C3:K11"), ("Big", "C3:R18")] {
        let (a, b) = (
            values(&path("grid.xlsx"), sheet),
            values(&path("back.xlsx"), sheet),
        );
        for at in cells(range(grid)) {
            assert_eq!(
                text(&a, at),
                text(&b, at),
                "{sheet}!{at}: filled in the grid"
            );
        }
    }
    // grid → sheet: the grid's fills go, the copies come.
    let (code, recs) = solve(
        &path("grid.xlsx"),
        &path("forth.xlsx"),
        &["--answers", "sheet"],
    );
    assert_eq!(code, 0);
    for r in recs.iter().filter(|r| r.answer_range.is_some()) {
        check_copy(&input, &path("forth.xlsx"), r);
    }
    // sheet → beside: the copies move beside their grids.
    let (code, recs) = solve(
        &path("sheet.xlsx"),
        &path("beside.xlsx"),
        &["--answers", "beside"],
    );
    assert_eq!(code, 0);
    let easy = recs
        .iter()
        .find(|r| r.sheet.as_deref() == Some("Easy"))
        .unwrap();
    assert_eq!(easy.answer_sheet.as_deref(), Some("Easy"));
    assert_eq!(sheet_names(&path("beside.xlsx")), sheet_names(&input));
}

#[test]
fn a_sheet_edited_since_is_left_as_it_is_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.xlsx");
    let input = fixture("status_logic_easy.xlsx");
    assert_eq!(solve(&input, &first, &["--answers", "sheet"]).0, 0);
    // A person writes into the sheet of solutions, keeping the records.
    let rec = record_of(&first);
    crate::util::repack_file(&first, &first, |name, mut b| {
        if name == rec.part {
            let t = String::from_utf8(b).unwrap();
            b = t
                .replacen("</sheetData>", r#"<row r="40"><c r="B40" t="inlineStr"><is><t>my note</t></is></c></row></sheetData>"#, 1)
                .replacen(r#"<dimension ref="B2:J11"/>"#, r#"<dimension ref="B2:J40"/>"#, 1)
                .into_bytes();
        }
        Some(b)
    });
    let second = dir.path().join("second.xlsx");
    let (code, recs) = solve(&first, &second, &["--answers", "sheet"]);
    assert_eq!(code, 2, "{recs:?}");
    let error = recs[0].error.clone().unwrap();
    assert!(
        error.contains("the sheet 'Solutions' was changed since xlsudoku wrote its solutions")
            && error.contains("--force"),
        "{error}"
    );
    assert!(!second.exists(), "nothing written");
    // Forced: the sheet is written anew, the person's cell gone.
    let (code, _) = solve(&first, &second, &["--answers", "sheet", "--force"]);
    assert_eq!(code, 0);
    assert_eq!(text(&values(&second, "Solutions"), range("B40").start), "");
    assert_eq!(sheet_names(&second), ["Easy", "Solutions"]);
}

#[test]
fn every_part_the_sheet_has_no_reason_to_change_stays_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("example.xlsx");
    let out = dir.path().join("sheet.xlsx");
    assert_eq!(solve(&input, &out, &["--answers", "sheet"]).0, 0);
    let (before, mut after) = (
        crate::util::raw_entries(&input),
        crate::util::raw_entries(&out),
    );
    // Added last: the sheet of solutions, then the records.
    assert_eq!(after.pop().map(|e| e.0).as_deref(), Some(RECORD_PART));
    assert_eq!(after.pop().map(|e| e.0), Some(record_of(&out).part));
    let names =
        |v: &[(String, Vec<u8>)]| -> Vec<String> { v.iter().map(|e| e.0.clone()).collect() };
    assert_eq!(names(&before), names(&after), "same parts, same order");
    // The sheets with grids (their notes), the styles, the workbook (the
    // new sheet, its print area, recalculation), its relationships and
    // the content types change; nothing else does.
    let changed = [
        "xl/worksheets/sheet1.xml",
        "xl/worksheets/sheet2.xml",
        "xl/styles.xml",
        "xl/workbook.xml",
        "xl/_rels/workbook.xml.rels",
        "[Content_Types].xml",
    ];
    for ((name, a), (_, b)) in before.iter().zip(&after) {
        if !changed.contains(&name.as_str()) {
            assert!(a == b, "{name} changed");
        }
    }
    // The workbook keeps its names and gains the print area.
    let wb = String::from_utf8(part(&out, "xl/workbook.xml").unwrap()).unwrap();
    let old = String::from_utf8(part(&input, "xl/workbook.xml").unwrap()).unwrap();
    for name in ["EasyGrid", "Totals"] {
        assert!(old.contains(name) && wb.contains(name), "{name}");
    }
    assert!(
        wb.contains(r#"<definedName name="_xlnm.Print_Area" localSheetId="3">'Solutions'!$A$1:$Q$30</definedName>"#),
        "{wb}"
    );
}

pub(super) fn has_openpyxl() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import openpyxl"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var("CI").is_err(), "openpyxl is missing under CI");
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: python3 with openpyxl not found"
        );
    }
    ok
}

#[test]
fn openpyxl_reads_the_sheet_of_solutions() {
    if !has_openpyxl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for name in ["example.xlsx", "layout_6x6.xlsx"] {
        let out = dir.path().join(name);
        let (code, recs) = solve(&fixture(name), &out, &["--answers", "sheet"]);
        assert_eq!(code, 0);
        let copies: Vec<String> = recs.iter().filter_map(|r| r.answer_range.clone()).collect();
        let script = "import openpyxl,sys\n\
             wb=openpyxl.load_workbook(sys.argv[1])\n\
             assert wb.sheetnames[-1]=='Solutions', wb.sheetnames\n\
             ws=wb['Solutions']\n\
             assert ws.print_area, 'no print area'\n\
             n=0\n\
             for r in sys.argv[2:]:\n\
             \x20   vals=[c for row in ws[r] for c in row]\n\
             \x20   assert all(c.value is not None for c in vals), r\n\
             \x20   assert any(c.font.i for c in vals), 'no solved cell in blue italics'\n\
             \x20   n+=len(vals)\n\
             print(n, ws.print_area)";
        let o = Command::new("python3")
            .args(["-c", script, out.to_str().unwrap()])
            .args(&copies)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let cells: usize = copies
            .iter()
            .map(|r| (range(r).rows() as usize).pow(2))
            .sum();
        let shown = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(shown.starts_with(&format!("{cells} ")), "{name}: {shown}");
        assert!(shown.contains("'Solutions'!$A$1:"), "{name}: {shown}");
    }
}

#[test]
fn libreoffice_opens_the_sheet_of_solutions_and_shows_the_solutions() {
    if !crate::util::soffice_found() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let names = [
        "example.xlsx",
        "layout_6x6.xlsx",
        "answers_sheet_taken.xlsx",
    ];
    let mut outs = Vec::new();
    for name in names {
        let out = dir.path().join(name);
        let (code, recs) = solve(&fixture(name), &out, &["--answers", "sheet"]);
        assert_eq!(code, 0);
        outs.push((fixture(name), out, recs));
    }
    let resaved = dir.path().join("resaved");
    std::fs::create_dir_all(&resaved).unwrap();
    let profile = dir.path().join("lo-profile");
    let o = crate::util::soffice_convert(
        "xlsx",
        &resaved,
        &profile,
        outs.iter().map(|(_, out, _)| out),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (input, out, recs) in &outs {
        let again = resaved.join(out.file_name().unwrap());
        // LibreOffice keeps no records: the sheet of solutions is then a
        // sheet like any other, whose copies are full grids.
        let puzzles = read_workbook(input, &ReadOptions::default()).unwrap();
        let sheets = read_workbook(&again, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("LibreOffice could not resave {}: {e}", out.display()));
        let copied: Vec<&SheetRecord> = recs.iter().filter(|r| r.answer_range.is_some()).collect();
        let target = copied[0].answer_sheet.clone().unwrap();
        assert_eq!(sheets.last().map(|s| s.name.clone()), Some(target.clone()));
        let solutions = sheets.iter().find(|s| s.name == target).unwrap();
        assert_eq!(solutions.grids.len(), copied.len(), "{}", input.display());
        for (g, r) in solutions.grids.iter().zip(&copied) {
            assert_eq!(Some(g.range.to_string()), r.answer_range);
            let puzzle = puzzles
                .iter()
                .find(|s| Some(&s.name) == r.sheet.as_ref())
                .and_then(|s| {
                    s.grids
                        .iter()
                        .find(|p| Some(p.range.to_string()) == r.range)
                })
                .unwrap()
                .puzzle();
            assert!(g.shown().solves(&puzzle), "{} {}", input.display(), g.range);
        }
    }
}

#[test]
fn grids_not_solved_get_no_copy_and_given_up_ones_their_candidates() {
    let dir = tempfile::tempdir().unwrap();
    // No grid solved: no sheet at all.
    let input = fixture("status_unsolvable.xlsx");
    let out = dir.path().join("unsolvable.xlsx");
    let (code, recs) = solve(&input, &out, &["--answers", "sheet"]);
    assert_eq!(code, 1);
    assert_eq!(recs[0].status, "unsolvable");
    assert!(recs[0].answer_sheet.is_none() && recs[0].answer_range.is_none());
    assert_eq!(sheet_names(&out), sheet_names(&input));
    // --logic-only: the grid the techniques leave gets its candidates.
    let input = fixture("layout_two_grids.xlsx");
    let out = dir.path().join("logic.xlsx");
    let (code, recs) = solve(&input, &out, &["--answers", "sheet", "--logic-only"]);
    assert_eq!(code, 1);
    assert_eq!(recs[1].status, "gave-up");
    let copy = range(recs[1].answer_range.as_deref().unwrap());
    let v = values(&out, "Solutions");
    let letters = cells(copy)
        .into_iter()
        .filter(|&at| text(&v, at).chars().all(|c| c.is_ascii_lowercase()))
        .count();
    assert!(letters > 0, "candidates as letters");
    let before = values(&input, "Two");
    let grid = range(recs[1].range.as_deref().unwrap());
    for (g, a) in cells(grid).into_iter().zip(cells(copy)) {
        if !text(&before, g).is_empty() {
            assert_eq!(text(&before, g), text(&v, a), "given {g} copied");
        }
    }
}
