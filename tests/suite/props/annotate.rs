//! Property: on any sheet and any set of edits, the copy reads back as the
//! original with exactly the edited cells changed, and annotating the copy
//! again changes nothing.

use std::collections::BTreeMap;
use std::io::{Cursor, Read};

use calamine::{open_workbook_from_rs, Data, Reader, Xlsx};
use proptest::prelude::*;
use rust_xlsxwriter::{Format, FormatBorder, Workbook};
use xlsudoku::address::CellRef;
use xlsudoku::annotate::{annotate, CellEdit, CellValue, SheetEdits};

/// What a cell of the generated sheet holds.
#[derive(Debug, Clone)]
enum Orig {
    Number(i32),
    Text(String),
    /// A formatted blank (a `<c>` with only a style).
    Blank,
}

fn orig() -> impl Strategy<Value = Orig> {
    prop_oneof![
        (1..100i32).prop_map(Orig::Number),
        "[a-z<&> ]{1,6}".prop_map(Orig::Text),
        Just(Orig::Blank),
    ]
}

fn value() -> impl Strategy<Value = CellValue> {
    prop_oneof![
        4 => (1..10u8).prop_map(|d| CellValue::Number(f64::from(d))),
        2 => "[a-i!^*&<> ]{0,8}".prop_map(CellValue::Text),
        1 => Just(CellValue::Clear),
        1 => "FF(3FDA65|FF7684)".prop_map(CellValue::Tint),
    ]
}

/// Cells in a 12×12 corner, so edits often land on, between and around
/// existing cells and rows.
fn cell() -> impl Strategy<Value = (u32, u32)> {
    (0..12u32, 0..12u32)
}

fn build(cells: &BTreeMap<(u32, u32), Orig>) -> Vec<u8> {
    let mut book = Workbook::new();
    let border = Format::new().set_border(FormatBorder::Thin);
    let ws = book.add_worksheet();
    for (&(r, c), v) in cells {
        let c = c as u16;
        match v {
            Orig::Number(n) => ws.write_number_with_format(r, c, *n, &border),
            Orig::Text(t) => ws.write_string(r, c, t),
            Orig::Blank => ws.write_blank(r, c, &border),
        }
        .unwrap();
    }
    book.save_to_buffer().unwrap()
}

fn run(input: &[u8], edits: &[SheetEdits]) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    annotate(Cursor::new(input), edits, &mut out).unwrap();
    out.into_inner()
}

fn parts(zip_bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut z = zip::ZipArchive::new(Cursor::new(zip_bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index(i).unwrap();
            let mut b = Vec::new();
            f.read_to_end(&mut b).unwrap();
            (f.name().unwrap().into_owned(), b)
        })
        .collect()
}

fn expected(o: Option<&Orig>) -> Data {
    match o {
        Some(Orig::Number(n)) => Data::Float(f64::from(*n)),
        Some(Orig::Text(t)) => Data::String(t.clone()),
        Some(Orig::Blank) | None => Data::Empty,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn only_edited_cells_change_and_a_second_run_is_a_no_op(
        cells in prop::collection::btree_map(cell(), orig(), 0..30),
        edits in prop::collection::vec((cell(), value()), 1..25),
    ) {
        let input = build(&cells);
        let sheet_edits = vec![SheetEdits {
            sheet: "Sheet1".into(),
            cells: edits
                .iter()
                .map(|((r, c), v)| CellEdit { at: CellRef::new(*r, *c), value: v.clone() })
                .collect(),
        }];
        let out = run(&input, &sheet_edits);

        // The last edit of a cell wins.
        let mut want: BTreeMap<(u32, u32), Data> = BTreeMap::new();
        for r in 0..12 {
            for c in 0..12 {
                want.insert((r, c), expected(cells.get(&(r, c))));
            }
        }
        for (at, v) in &edits {
            want.insert(*at, match v {
                CellValue::Number(n) => Data::Float(*n),
                CellValue::Text(t) => Data::String(t.clone()),
                CellValue::Clear => Data::Empty,
                // The value kept: the cell's own (the plan keeps only the
                // last edit of a cell).
                CellValue::Tint(_) | CellValue::Restyle(_) => expected(cells.get(at)),
            });
        }
        let mut book: Xlsx<_> = open_workbook_from_rs(Cursor::new(out.clone())).unwrap();
        let range = book.worksheet_range("Sheet1").unwrap();
        for (&(r, c), v) in &want {
            let got = range.get_value((r, c)).cloned().unwrap_or(Data::Empty);
            // calamine reads an empty inline string as empty.
            let v = match v {
                Data::String(s) if s.is_empty() => Data::Empty,
                v => v.clone(),
            };
            let got = match got {
                Data::String(s) if s.is_empty() => Data::Empty,
                g => g,
            };
            prop_assert_eq!(got, v, "at {}", CellRef::new(r, c));
        }

        let again = run(&out, &sheet_edits);
        prop_assert_eq!(parts(&again), parts(&out));
    }
}
