//! `.xls` and `.ods` workbooks: read by every command as the `.xlsx` made
//! of them, solved into a new `.xlsx`, with what the copy does not carry
//! said. The fixtures (`fixtures/legacy_*`) are made by
//! `fixtures/make_legacy.sh` with LibreOffice, which also makes the
//! reference: LibreOffice's own `.xlsx` of each (`*_from_xls.xlsx`,
//! `*_from_ods.xlsx`).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use crate::util::{fixture, xlsudoku};
use calamine::{open_workbook_auto, Data, Reader};
use xlsudoku::workbook::{read_workbook_bytes, ReadOptions};

const BASES: [&str; 5] = [
    "legacy_puzzle",
    "legacy_two_grids",
    "legacy_fidelity",
    "legacy_gaps",
    "legacy_pencil",
];

/// The JSON records of a run (the summary line dropped).
fn records(o: &Output) -> Vec<serde_json::Value> {
    let text = String::from_utf8_lossy(&o.stdout);
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    lines.pop();
    lines
}

/// What a run found: sheet, range, size, givens, status of every record.
fn grids(recs: &[serde_json::Value]) -> Vec<String> {
    recs.iter()
        .map(|r| {
            format!(
                "{} {} {} {} {}",
                r["sheet"], r["range"], r["size"], r["givens"], r["status"]
            )
        })
        .collect()
}

#[test]
fn grids_and_statuses_equal_those_of_the_libreoffice_conversion() {
    for base in BASES {
        for ext in ["xls", "ods"] {
            let legacy = fixture(&format!("{base}.{ext}"));
            let reference = fixture(&format!("{base}_from_{ext}.xlsx"));
            let o = xlsudoku(&["check", "--json", legacy.to_str().unwrap()]);
            let r = xlsudoku(&["check", "--json", reference.to_str().unwrap()]);
            assert_eq!(o.status.code(), r.status.code(), "{base}.{ext}");
            let (got, want) = (records(&o), records(&r));
            assert!(!want.is_empty() && want[0]["sheet"].is_string(), "{base}");
            assert_eq!(grids(&got), grids(&want), "{base}.{ext}");
            for rec in &got {
                assert_eq!(rec["converted"]["from"], ext, "{base}.{ext}: {rec}");
            }
        }
    }
}

#[test]
fn solve_writes_a_new_xlsx_and_never_touches_the_input() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["xls", "ods"] {
        let input = dir.path().join(format!("two.{ext}"));
        std::fs::copy(fixture(&format!("legacy_two_grids.{ext}")), &input).unwrap();
        let before = std::fs::read(&input).unwrap();
        let o = xlsudoku(&[input.to_str().unwrap(), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        let out = dir.path().join("two.solved.xlsx");
        assert!(out.is_file(), "{ext}: the copy is two.solved.xlsx");
        assert_eq!(std::fs::read(&input).unwrap(), before, "{ext}: input kept");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("converted to .xlsx"), "{err}");
        // The copy is an ordinary .xlsx: its grids read back solved.
        let c = xlsudoku(&["check", "--json", out.to_str().unwrap()]);
        let recs = records(&c);
        assert_eq!(recs.len(), 2, "{ext}");
        assert!(recs.iter().all(|r| r["status"] == "solved"), "{recs:?}");
        assert!(recs.iter().all(|r| r["converted"].is_null()));
        std::fs::remove_file(out).unwrap();
    }
}

#[test]
fn the_output_of_an_old_format_must_be_named_xlsx() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["xls", "ods"] {
        let out = dir.path().join(format!("x.solved.{ext}"));
        let input = fixture(&format!("legacy_puzzle.{ext}"));
        let o = xlsudoku(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("written as a new .xlsx") && err.contains("name the output .xlsx"),
            "{err}"
        );
        assert!(!err.contains("without macros"), "{err}");
        assert!(!out.exists());
    }
}

#[test]
fn folder_runs_pick_up_xls_and_ods() {
    let dir = tempfile::tempdir().unwrap();
    let books = dir.path().join("books");
    std::fs::create_dir(&books).unwrap();
    std::fs::copy(fixture("legacy_puzzle.xls"), books.join("a.xls")).unwrap();
    std::fs::copy(fixture("legacy_gaps.ods"), books.join("b.ods")).unwrap();
    let o = xlsudoku(&[books.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(books.join("a.solved.xlsx").is_file());
    assert!(books.join("b.solved.xlsx").is_file());
    let text = String::from_utf8_lossy(&o.stdout);
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(
        summary["summary"]["not_read"]
            .as_array()
            .map_or(0, Vec::len),
        0
    );
    assert_eq!(records(&o).len(), 4, "{text}");
    // Into another folder: the copies are .xlsx there too.
    let out = dir.path().join("out");
    let o = xlsudoku(&[books.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(out.join("a.xlsx").is_file() && out.join("b.xlsx").is_file());
}

#[test]
fn what_cannot_be_carried_is_said() {
    let o = xlsudoku(&[
        "check",
        "--json",
        fixture("legacy_fidelity.xls").to_str().unwrap(),
    ]);
    let recs = records(&o);
    let lost = recs[0]["converted"]["not_carried"].as_array().unwrap();
    // The source has a chart and a comment (fixtures/make_openpyxl.py).
    let lost: Vec<&str> = lost.iter().filter_map(|v| v.as_str()).collect();
    assert!(lost.iter().any(|l| l.contains("chart")), "{lost:?}");
    assert!(lost.iter().any(|l| l.contains("comment")), "{lost:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err
        .lines()
        .find(|l| l.contains("converted to .xlsx"))
        .unwrap();
    assert!(
        line.contains("not carried: ") && line.contains("chart"),
        "{line}"
    );
    // -q keeps the line when something was not carried.
    let o = xlsudoku(&[
        "check",
        "-q",
        fixture("legacy_fidelity.ods").to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("not carried"));
}

/// Sheet → cell (`A1`) → (value, formula), as openpyxl reads a copy.
type Book = BTreeMap<String, BTreeMap<String, (String, String)>>;

/// Every cell of a sheet as openpyxl reads the copy: value (cached) and
/// formula text.
fn openpyxl_cells(path: &Path) -> Option<Book> {
    let script = r#"
import openpyxl, sys, json
f = openpyxl.load_workbook(sys.argv[1])
v = openpyxl.load_workbook(sys.argv[1], data_only=True)
out = {}
for ws in f:
    d = {}
    for row in ws.iter_rows():
        for c in row:
            val = v[ws.title][c.coordinate].value
            form = c.value if isinstance(c.value, str) and c.data_type == 'f' else ''
            if val is None and not form:
                continue
            d[c.coordinate] = [val if isinstance(val, str) else repr(val), form or '']
    out[ws.title] = d
print(json.dumps(out))
"#;
    let o = Command::new("python3")
        .args(["-c", script, path.to_str().unwrap()])
        .output()
        .ok()?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        if err.contains("No module named") {
            return None;
        }
        panic!("openpyxl: {err}");
    }
    Some(serde_json::from_slice(&o.stdout).expect("JSON from the script"))
}

/// A formula's text without what differs between OpenFormula and Excel
/// (`of:=`, brackets, sheet dots, `;`).
fn normal(formula: &str) -> String {
    formula
        .trim_start_matches("of:")
        .replace(';', ",")
        .chars()
        .filter(|c| !"[]$.=!'".contains(*c))
        .collect()
}

#[test]
fn the_copy_keeps_every_value_and_formula_of_the_source() {
    let dir = tempfile::tempdir().unwrap();
    for base in BASES {
        for ext in ["xls", "ods"] {
            let src = fixture(&format!("{base}.{ext}"));
            let bytes = std::fs::read(&src).unwrap();
            let (xlsx, _) = xlsudoku::workbook::legacy::convert(&src, &bytes)
                .unwrap()
                .expect("a legacy workbook");
            let copy = dir.path().join(format!("{base}_{ext}.xlsx"));
            std::fs::write(&copy, xlsx).unwrap();
            let Some(got) = openpyxl_cells(&copy) else {
                assert!(std::env::var("CI").is_err(), "openpyxl is missing under CI");
                eprintln!("SKIPPED: python3 with openpyxl not found");
                return;
            };
            let mut book = open_workbook_auto(&src).unwrap();
            for name in book.sheet_names() {
                let values = book.worksheet_range(&name).unwrap();
                let formulas = book.worksheet_formula(&name).unwrap();
                let sheet = got
                    .get(&name)
                    .unwrap_or_else(|| panic!("{base}.{ext}: {name}"));
                let mut compared = 0;
                for (r, c, v) in values.used_cells() {
                    let (row, col) = (
                        r as u32 + values.start().unwrap().0,
                        c as u32 + values.start().unwrap().1,
                    );
                    let at = xlsudoku::address::CellRef::new(row, col).to_string();
                    let (val, _) = sheet.get(&at).cloned().unwrap_or_default();
                    let same = match v {
                        Data::Float(f) => val.parse::<f64>().is_ok_and(|g| (g - f).abs() < 1e-9),
                        Data::Int(i) => val.parse::<f64>().is_ok_and(|g| g == *i as f64),
                        Data::String(s) => &val == s,
                        Data::Bool(b) => val == if *b { "True" } else { "False" },
                        Data::DateTime(d) => {
                            val.parse::<f64>()
                                .is_ok_and(|g| (g - d.as_f64()).abs() < 1e-9)
                                || !val.is_empty()
                        }
                        _ => true,
                    };
                    assert!(same, "{base}.{ext} {name}!{at}: {v:?} became {val:?}");
                    compared += 1;
                }
                assert!(compared > 0 || values.is_empty());
                for (r, c, f) in formulas.used_cells() {
                    if f.is_empty() {
                        continue;
                    }
                    let (row, col) = (
                        r as u32 + formulas.start().unwrap().0,
                        c as u32 + formulas.start().unwrap().1,
                    );
                    let at = xlsudoku::address::CellRef::new(row, col).to_string();
                    let (_, form) = sheet.get(&at).cloned().unwrap_or_default();
                    assert_eq!(normal(&form), normal(f), "{base}.{ext} {name}!{at}");
                }
            }
        }
    }
}

/// Truncated and bit-flipped copies of every legacy fixture, and an
/// `.ods` declaring huge repeats: read without a panic, an error or a
/// workbook, within the limits.
#[test]
fn damaged_legacy_files_never_panic() {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let read = |name: &str, bytes: &[u8]| {
        let _ = read_workbook_bytes(Path::new(name), bytes, &ReadOptions::default());
    };
    for base in BASES {
        for ext in ["xls", "ods"] {
            let name = format!("{base}.{ext}");
            let bytes = std::fs::read(fixture(&name)).unwrap();
            for k in 1..24 {
                read(&name, &bytes[..bytes.len() * k / 24]);
            }
            for _ in 0..60 {
                let mut b = bytes.clone();
                for _ in 0..1 + next() % 4 {
                    let at = (next() as usize) % b.len();
                    b[at] ^= 1 << (next() % 8);
                }
                read(&name, &b);
            }
        }
    }
}

#[test]
fn huge_repeats_in_an_ods_are_capped() {
    use std::io::{Read, Write};
    let bytes = std::fs::read(fixture("legacy_puzzle.ods")).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&bytes)).unwrap();
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let name = f.name().unwrap().into_owned();
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        if name == "content.xml" {
            let xml = String::from_utf8(data).unwrap();
            // A bordered cell (some style of the grid) repeated over every
            // row and column of a sheet.
            let style = xml
                .split("table:style-name=\"")
                .filter_map(|s| s.split('"').next())
                .find(|s| s.starts_with("ce"))
                .unwrap()
                .to_string();
            let huge = format!(
                "<table:table-row table:number-rows-repeated=\"1048000\"><table:table-cell table:style-name=\"{style}\" table:number-columns-repeated=\"16384\"><text:p>7</text:p></table:table-cell></table:table-row><table:table-row"
            );
            data = xml.replacen("<table:table-row", &huge, 1).into_bytes();
        }
        let method = if name == "mimetype" {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let opts = zip::write::SimpleFileOptions::default().compression_method(method);
        w.start_file(name, opts).unwrap();
        w.write_all(&data).unwrap();
    }
    let ods = w.finish().unwrap().into_inner();
    let start = std::time::Instant::now();
    let (_, conv) = xlsudoku::workbook::legacy::convert(Path::new("huge.ods"), &ods)
        .unwrap()
        .unwrap();
    assert!(
        conv.not_carried.iter().any(|l| l.contains("reading limit")),
        "{conv:?}"
    );
    assert!(start.elapsed().as_secs() < 120);
}
