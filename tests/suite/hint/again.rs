//! A second hint on a hint copy, after the person took the first (typed
//! its digit): the first hint's colours come off (as
//! the copy's records say what it coloured), so the new copy shows only
//! the new step's, and differs from the first copy only in the cells of
//! both steps and in the note.

use super::json_lines;
use crate::util::{cell_styles_of, entries, fixture, repack_file, xlsudoku};

use std::collections::{HashMap, HashSet};
use std::path::Path;

/// Hints `input` into `out` (with `extra` flags); the coloured cells.
fn hint(input: &Path, out: &Path, extra: &[&str]) -> HashSet<String> {
    coloured(&hint_json(input, out, extra))
}

/// The cells the hints of `lines` colour.
fn coloured(lines: &[serde_json::Value]) -> HashSet<String> {
    lines
        .iter()
        .flat_map(|h| h["colours"].as_array().unwrap().clone())
        .map(|c| c["cell"].as_str().unwrap().to_string())
        .collect()
}

/// Hints `input` into `out` (with `extra` flags); the JSON lines.
fn hint_json(input: &Path, out: &Path, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec![
        "hint",
        "--json",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = xlsudoku(&args);
    assert_eq!(o.status.code(), Some(0));
    json_lines(&o)
}

/// Each cell's style index on the first sheet, and the sheet's XML.
fn styles(path: &Path) -> (HashMap<String, Option<String>>, String) {
    let parts = entries(&std::fs::read(path).unwrap());
    let xml = parts
        .iter()
        .find(|(p, _)| p == "xl/worksheets/sheet1.xml")
        .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
        .unwrap();
    (cell_styles_of(&xml), xml)
}

/// The values of sheet `Easy`, cell by cell.
fn values(path: &Path) -> calamine::Range<calamine::Data> {
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(path).unwrap();
    calamine::Reader::worksheet_range(&mut book, "Easy").unwrap()
}

/// `from` with `digit` typed into `cell` of the first sheet (an empty,
/// styled cell), as a person takes a hint: into `to`.
fn enter(from: &Path, to: &Path, cell: &str, digit: u8) {
    repack_file(from, to, |name, bytes| {
        if name != "xl/worksheets/sheet1.xml" {
            return Some(bytes);
        }
        let xml = String::from_utf8(bytes).unwrap();
        let at = xml.find(&format!("<c r=\"{cell}\"")).unwrap();
        let end = at + xml[at..].find("/>").unwrap();
        assert!(
            !xml[at..end].contains('>'),
            "{cell} is empty: {}",
            &xml[at..end]
        );
        Some(format!("{}><v>{digit}</v></c>{}", &xml[..end], &xml[end + 2..]).into_bytes())
    });
}

#[test]
fn a_second_hint_takes_the_first_hints_colours_off() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("status_logic_easy.xlsx");
    let path = |n: &str| dir.path().join(n);
    let (first, entered, second) = (
        path("first.xlsx"),
        path("entered.xlsx"),
        path("second.xlsx"),
    );
    let lines = hint_json(&input, &first, &[]);
    let c1 = coloured(&lines);
    let placed = &lines[0]["step"]["placed"];
    // The person takes the hint: types its digit into its green cell.
    let (cell, digit) = (
        placed["cell"].as_str().unwrap(),
        placed["digit"].as_u64().unwrap() as u8,
    );
    enter(&first, &entered, cell, digit);
    let c2 = hint(&entered, &second, &[]);
    assert!(!c1.is_empty() && !c2.is_empty());
    assert!(
        !c1.is_subset(&c2),
        "the steps colour other cells: {c1:?} {c2:?}"
    );
    let (s0, _) = styles(&input);
    let (s1, _) = styles(&entered);
    let (s2, _) = styles(&second);
    let note = "C12";
    for (cell, style) in &s2 {
        if cell == note {
            continue;
        }
        let was = s0.get(cell).cloned().flatten();
        // Only the new step's cells look other than in the input.
        assert_eq!(
            was != *style,
            c2.contains(cell),
            "{cell}: {was:?} → {style:?}"
        );
        // And the second copy differs from the first in the two steps'
        // cells only.
        let before = s1.get(cell).cloned().flatten();
        if before != *style {
            assert!(c1.contains(cell) || c2.contains(cell), "{cell}");
        }
    }
    for cell in c1.difference(&c2) {
        assert_eq!(
            s2.get(cell),
            s0.get(cell),
            "{cell}: the first hint's colour stays"
        );
    }
    let (v1, v2) = (values(&entered), values(&second));
    assert_eq!(v1.end(), v2.end());
    for (r, row) in v1.rows().enumerate() {
        for (c, v) in row.iter().enumerate() {
            let at = xlsudoku::address::CellRef::new(
                v1.start().unwrap().0 + r as u32,
                v1.start().unwrap().1 + c as u32,
            );
            if at.to_string() != note {
                assert_eq!(Some(v), v2.get((r, c)), "{at}");
            }
        }
    }
    // The same hint again on the second copy changes no style.
    let third = path("third.xlsx");
    assert_eq!(hint(&second, &third, &[]), c2);
    let (s3, _) = styles(&third);
    for (cell, style) in &s3 {
        if cell != note {
            assert_eq!(s2.get(cell), Some(style), "{cell}");
        }
    }
}
