//! Timing of the annotated copy on a large sheet (500,000 cells). Ignored by
//! default; run it optimised:
//!
//! ```text
//! cargo test --release --test suite annotate::perf -- --ignored --nocapture
//! ```

use std::io::{Cursor, Read};
use std::time::Instant;

use rust_xlsxwriter::Workbook;
use xlsudoku::address::CellRef;
use xlsudoku::annotate::{annotate, CellEdit, CellValue, SheetEdits};

const ROWS: u32 = 50_000;
const COLS: u16 = 10;

fn big_workbook() -> Vec<u8> {
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    for r in 0..ROWS {
        for c in 0..COLS {
            ws.write_number(r, c, f64::from(r) * 10.0 + f64::from(c))
                .unwrap();
        }
    }
    book.save_to_buffer().unwrap()
}

/// A 9×9 grid of edits with its top-left corner at `at`.
fn grid_at(at: CellRef) -> Vec<SheetEdits> {
    let mut cells = Vec::new();
    for r in 0..9 {
        for c in 0..9 {
            cells.push(CellEdit {
                at: at.offset(r, c),
                value: CellValue::Number(f64::from(1 + (r * 3 + r / 3 + c) % 9)),
            });
        }
    }
    vec![SheetEdits {
        sheet: "Sheet1".into(),
        cells,
    }]
}

fn best_of(runs: usize, input: &[u8], edits: &[SheetEdits]) -> (f64, Vec<u8>) {
    let mut best = f64::MAX;
    let mut last = Vec::new();
    for _ in 0..runs {
        let mut out = Cursor::new(Vec::new());
        let t = Instant::now();
        annotate(Cursor::new(input), edits, &mut out).unwrap();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        last = out.into_inner();
    }
    (best, last)
}

#[test]
#[ignore = "timing; run with --release --ignored --nocapture"]
fn a_500k_cell_sheet_is_patched_quickly() {
    let input = big_workbook();
    // The zip work any rewrite of the sheet part costs: inflate it and
    // deflate it again.
    let t = Instant::now();
    let sheet = {
        let mut z = zip::ZipArchive::new(Cursor::new(&input)).unwrap();
        let mut f = z.by_name("xl/worksheets/sheet1.xml").unwrap();
        let mut s = Vec::new();
        f.read_to_end(&mut s).unwrap();
        s
    };
    let inflate = t.elapsed().as_secs_f64() * 1e3;
    let sheet_len = sheet.len();
    println!("inflate {inflate:.1} ms");
    for level in [None, Some(1), Some(3)] {
        let t = Instant::now();
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default().compression_level(level);
        w.start_file("s.xml", opts).unwrap();
        std::io::Write::write_all(&mut w, &sheet).unwrap();
        let size = w.finish().unwrap().into_inner().len();
        let deflate = t.elapsed().as_secs_f64() * 1e3;
        println!("deflate level {level:?}: {deflate:.1} ms, {size} bytes");
    }
    let (none, _) = best_of(5, &input, &[]);
    let (top, _) = best_of(5, &input, &grid_at(CellRef::new(2, 2)));
    let (bottom, out) = best_of(5, &input, &grid_at(CellRef::new(ROWS - 5, 8)));
    println!(
        "500k cells, sheet part {:.1} MB: no edits {none:.1} ms, 81 edits at the top {top:.1} ms, 81 edits at the bottom {bottom:.1} ms (whole annotate incl. inflate/deflate, best of 5)",
        sheet_len as f64 / 1e6
    );
    // The copy holds the last grid, over the old values.
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(out)).unwrap();
    let range = calamine::Reader::worksheet_range(&mut book, "Sheet1").unwrap();
    assert_eq!(
        range.get_value((ROWS - 5, 8)),
        Some(&calamine::Data::Float(1.0))
    );
    assert_eq!(
        range.get_value((ROWS - 1, 0)),
        Some(&calamine::Data::Float(f64::from(ROWS - 1) * 10.0))
    );
}
