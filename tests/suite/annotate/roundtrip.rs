//! The annotated copy on workbooks made with rust_xlsxwriter, read back with
//! calamine: new values and styles land where they should, and everything
//! else in the file survives untouched.

use std::io::Cursor;

use calamine::{open_workbook_from_rs, Data, Reader, Xlsx};
use rust_xlsxwriter::{
    Chart, ChartType, ConditionalFormatCell, ConditionalFormatCellRule, DataValidation,
    DataValidationRule, Format, FormatBorder, Note, Workbook,
};
use xlsudoku::annotate::{
    annotate, annotate_with, AnnotateError, AnnotateOptions, CellEdit, CellValue, SheetEdits,
};

const SHEET_PART: &str = "xl/worksheets/sheet1.xml";
const REWRITTEN: &[&str] = &[SHEET_PART, "xl/styles.xml", "xl/workbook.xml"];

/// A puzzle sheet much like a user's: a bordered 9×9 grid at C3 with
/// givens (numbers and text), a filled cell, a formula, merged cells, a
/// note, a chart, data validation, a defined name, a conditional format,
/// and a second sheet.
fn puzzle_workbook() -> Vec<u8> {
    let mut book = Workbook::new();
    let border = Format::new().set_border(FormatBorder::Thin);
    let shaded = Format::new()
        .set_border(FormatBorder::Thin)
        .set_background_color("FFFF00");
    let ws = book.add_worksheet();
    ws.set_name("Puzzle").unwrap();
    for r in 2..11u32 {
        for c in 2..11u16 {
            ws.write_blank(r, c, &border).unwrap();
        }
    }
    ws.write_number_with_format(2, 2, 5, &border).unwrap();
    ws.write_string_with_format(3, 3, "3", &border).unwrap();
    ws.write_blank(4, 4, &shaded).unwrap();
    ws.write_formula(0, 12, "=SUM(C3:K3)").unwrap();
    ws.merge_range(0, 0, 0, 5, "Sudoku", &Format::new())
        .unwrap();
    ws.insert_note(1, 12, &Note::new("a note")).unwrap();
    ws.add_data_validation(
        2,
        2,
        10,
        10,
        &DataValidation::new().allow_whole_number(DataValidationRule::Between(1, 9)),
    )
    .unwrap();
    ws.add_conditional_format(
        2,
        2,
        10,
        10,
        &ConditionalFormatCell::new()
            .set_rule(ConditionalFormatCellRule::EqualTo(5))
            .set_format(Format::new().set_bold()),
    )
    .unwrap();
    let mut chart = Chart::new(ChartType::Column);
    chart.add_series().set_values("=Puzzle!$C$3:$K$3");
    ws.insert_chart(14, 2, &chart).unwrap();
    let other = book.add_worksheet();
    other.set_name("Other").unwrap();
    other.write_string(0, 0, "keep me").unwrap();
    other.write_formula(1, 0, "=Puzzle!C3*2").unwrap();
    book.define_name("Grid", "=Puzzle!$C$3:$K$11").unwrap();
    book.save_to_buffer().unwrap()
}

fn edit(at: &str, value: CellValue) -> CellEdit {
    CellEdit {
        at: at.parse().unwrap(),
        value,
    }
}

fn puzzle_edits() -> Vec<SheetEdits> {
    vec![SheetEdits {
        sheet: "Puzzle".into(),
        cells: vec![
            edit("D3", CellValue::Number(7.0)),
            edit("E5", CellValue::Number(9.0)),
            edit("K11", CellValue::Number(1.0)),
            edit("C12", CellValue::Text("solved ii!^ 0.1 ms <&>".into())),
            edit("Z100", CellValue::Number(4.0)),
        ],
    }]
}

fn run(input: &[u8], edits: &[SheetEdits]) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    annotate(Cursor::new(input), edits, &mut out).unwrap();
    out.into_inner()
}

fn part(zip_bytes: &[u8], name: &str) -> String {
    let e = crate::util::entries(zip_bytes);
    let (_, bytes) = e.iter().find(|(n, _)| n == name).unwrap();
    String::from_utf8(bytes.clone()).unwrap()
}

fn open(bytes: &[u8]) -> Xlsx<Cursor<Vec<u8>>> {
    open_workbook_from_rs(Cursor::new(bytes.to_vec())).unwrap()
}

#[test]
fn filled_digits_read_back_as_numbers_and_the_note_as_text() {
    let out = run(&puzzle_workbook(), &puzzle_edits());
    let mut book = open(&out);
    let range = book.worksheet_range("Puzzle").unwrap();
    assert_eq!(range.get_value((2, 3)), Some(&Data::Float(7.0)));
    assert_eq!(range.get_value((4, 4)), Some(&Data::Float(9.0)));
    assert_eq!(range.get_value((10, 10)), Some(&Data::Float(1.0)));
    assert_eq!(range.get_value((99, 25)), Some(&Data::Float(4.0)));
    assert_eq!(
        range.get_value((11, 2)),
        Some(&Data::String("solved ii!^ 0.1 ms <&>".into()))
    );
    // Givens are untouched.
    assert_eq!(range.get_value((2, 2)), Some(&Data::Float(5.0)));
    assert_eq!(range.get_value((3, 3)), Some(&Data::String("3".into())));
    let sheet = part(&out, SHEET_PART);
    assert!(sheet.contains(r#"<dimension ref="A1:Z100"/>"#), "{sheet}");
}

#[test]
fn every_part_but_the_patched_three_is_byte_identical_and_in_order() {
    let input = puzzle_workbook();
    let out = run(&input, &puzzle_edits());
    let before = crate::util::entries(&input);
    let after = crate::util::entries(&out);
    let names = |e: &[(String, Vec<u8>)]| e.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&before), names(&after));
    let mut changed = Vec::new();
    for ((name, a), (_, b)) in before.iter().zip(&after) {
        if a != b {
            changed.push(name.as_str());
        }
    }
    // rust_xlsxwriter already sets fullCalcOnLoad, so workbook.xml may
    // come out unchanged; the sheet and the style sheet must change.
    assert!(changed.iter().all(|n| REWRITTEN.contains(n)), "{changed:?}");
    assert!(changed.contains(&SHEET_PART) && changed.contains(&"xl/styles.xml"));
}

#[test]
fn formulas_stay_and_the_workbook_recalculates_on_load() {
    let out = run(&puzzle_workbook(), &puzzle_edits());
    let mut book = open(&out);
    let f = book.worksheet_formula("Puzzle").unwrap();
    assert_eq!(f.get_value((0, 12)).map(String::as_str), Some("SUM(C3:K3)"));
    let f = book.worksheet_formula("Other").unwrap();
    assert_eq!(f.get_value((1, 0)).map(String::as_str), Some("Puzzle!C3*2"));
    let wb = part(&out, "xl/workbook.xml");
    assert!(wb.contains(r#"fullCalcOnLoad="1""#), "{wb}");
    assert!(wb.contains("<definedName name=\"Grid\">Puzzle!$C$3:$K$11</definedName>"));
    let sheet = part(&out, SHEET_PART);
    for kept in [
        "<mergeCell ref=\"A1:F1\"/>",
        "<dataValidation type=\"whole\"",
        "<conditionalFormatting sqref=\"C3:K11\">",
        "<drawing r:id=",
        "<legacyDrawing r:id=",
    ] {
        assert!(sheet.contains(kept), "lost {kept}");
    }
}

#[test]
fn written_cells_are_blue_italic_and_keep_their_borders_and_fill() {
    let out = run(&puzzle_workbook(), &puzzle_edits());
    let mut book = open(&out);
    let styles = book.worksheet_style("Puzzle").unwrap();
    for (pos, filled) in [((2u32, 3u32), false), ((4, 4), true), ((10, 10), false)] {
        let s = styles.get(pos).unwrap();
        let font = s.font.as_ref().unwrap();
        assert!(font.is_italic(), "{pos:?} not italic");
        let c = font.color.unwrap();
        assert_eq!((c.red, c.green, c.blue), (0, 0, 255), "{pos:?} not blue");
        let b = s.borders.as_ref().unwrap();
        assert!(
            b.left.is_visible() && b.top.is_visible(),
            "{pos:?} lost its border"
        );
        assert_eq!(
            s.fill.as_ref().is_some_and(|f| f.is_visible()),
            filled,
            "{pos:?} fill"
        );
    }
    // A given keeps its plain font.
    let given = styles.get((2, 2)).unwrap();
    assert!(!given.font.as_ref().is_some_and(|f| f.is_italic()));
}

#[test]
fn annotating_the_copy_again_gives_the_same_parts() {
    let once = run(&puzzle_workbook(), &puzzle_edits());
    let twice = run(&once, &puzzle_edits());
    assert_eq!(crate::util::entries(&once), crate::util::entries(&twice));
}

#[test]
fn no_edits_copy_every_part_unchanged() {
    let input = puzzle_workbook();
    assert_eq!(
        crate::util::entries(&run(&input, &[])),
        crate::util::entries(&input)
    );
    let empty = [SheetEdits {
        sheet: "Other".into(),
        cells: vec![],
    }];
    assert_eq!(
        crate::util::entries(&run(&input, &empty)),
        crate::util::entries(&input)
    );
}

#[test]
fn clearing_removes_a_value_and_edits_reach_two_sheets() {
    let input = puzzle_workbook();
    let edits = [
        SheetEdits {
            sheet: "Puzzle".into(),
            cells: vec![
                edit("C3", CellValue::Clear),
                edit("D3", CellValue::Number(2.0)),
            ],
        },
        SheetEdits {
            sheet: "Other".into(),
            cells: vec![edit("A1", CellValue::Text("replaced".into()))],
        },
    ];
    let out = run(&input, &edits);
    let mut book = open(&out);
    let range = book.worksheet_range("Puzzle").unwrap();
    assert!(matches!(range.get_value((2, 2)), None | Some(Data::Empty)));
    assert_eq!(range.get_value((2, 3)), Some(&Data::Float(2.0)));
    let other = book.worksheet_range("Other").unwrap();
    assert_eq!(
        other.get_value((0, 0)),
        Some(&Data::String("replaced".into()))
    );
    // The cleared cell keeps its border.
    let styles = book.worksheet_style("Puzzle").unwrap();
    assert!(styles
        .get((2, 2))
        .unwrap()
        .borders
        .as_ref()
        .unwrap()
        .left
        .is_visible());
}

#[test]
fn unknown_sheets_and_bad_values_are_refused_without_output() {
    let input = puzzle_workbook();
    let bad = |sheet: &str, value: CellValue| {
        let mut out = Cursor::new(Vec::new());
        let edits = [SheetEdits {
            sheet: sheet.into(),
            cells: vec![edit("A1", value)],
        }];
        let err = annotate(Cursor::new(&input), &edits, &mut out).unwrap_err();
        (err, out.into_inner().len())
    };
    let (err, written) = bad("Nope", CellValue::Number(1.0));
    assert!(
        matches!(err, AnnotateError::NoSuchSheet(ref s) if s == "Nope"),
        "{err}"
    );
    assert_eq!(written, 0);
    let (err, _) = bad("Puzzle", CellValue::Number(f64::NAN));
    assert!(matches!(err, AnnotateError::InvalidValue { .. }), "{err}");
}

#[test]
fn encrypted_garbage_and_truncated_inputs_get_typed_errors() {
    let mut cfb = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    cfb.extend_from_slice(&[0; 504]);
    let try_it = |bytes: &[u8]| {
        annotate(Cursor::new(bytes), &puzzle_edits(), Cursor::new(Vec::new())).unwrap_err()
    };
    assert!(matches!(try_it(&cfb), AnnotateError::Encrypted));
    assert!(matches!(try_it(b"hello"), AnnotateError::NotAWorkbook(_)));
    assert!(matches!(try_it(b""), AnnotateError::NotAWorkbook(_)));
    let input = puzzle_workbook();
    let truncated = &input[..input.len() / 2];
    assert!(matches!(try_it(truncated), AnnotateError::NotAWorkbook(_)));
}

#[test]
fn a_zip_without_a_workbook_is_not_a_workbook() {
    let bytes = crate::util::pack(&[("hello.txt".to_string(), b"hi".to_vec())], &[]);
    let err = annotate(Cursor::new(bytes), &[], Cursor::new(Vec::new())).unwrap_err();
    assert!(matches!(err, AnnotateError::NotAWorkbook(_)), "{err}");
}

#[test]
fn parts_over_the_size_limit_are_not_inflated() {
    let input = puzzle_workbook();
    let err = annotate_with(
        Cursor::new(&input),
        &puzzle_edits(),
        Cursor::new(Vec::new()),
        AnnotateOptions {
            max_part_size: 64,
            ..AnnotateOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(err, AnnotateError::TooLarge { limit: 64, .. }),
        "{err}"
    );
}

/// The workbook with its style sheet taken out (as some generators write
/// them): no styles part, no content type for it, no relationship.
fn without_styles(input: &[u8]) -> Vec<u8> {
    crate::util::repack(input, |name, bytes| match name {
        "xl/styles.xml" => None,
        "[Content_Types].xml" | "xl/_rels/workbook.xml.rels" => {
            let text = String::from_utf8(bytes).unwrap();
            let at = text.find("styles").unwrap();
            let start = text[..at].rfind('<').unwrap();
            let end = at + text[at..].find("/>").unwrap() + 2;
            Some(format!("{}{}", &text[..start], &text[end..]).into_bytes())
        }
        _ => Some(bytes),
    })
}

#[test]
fn a_sheet_whose_part_is_missing_is_a_typed_error() {
    let input = crate::util::repack(&puzzle_workbook(), |name, bytes| {
        (name != SHEET_PART).then_some(bytes)
    });
    let mut out = Cursor::new(Vec::new());
    let err = annotate(Cursor::new(input), &puzzle_edits(), &mut out).unwrap_err();
    assert!(
        matches!(err, AnnotateError::Malformed { ref reason, .. } if reason.contains("sheet1.xml")),
        "{err}"
    );
}

#[test]
fn a_workbook_without_a_style_sheet_gets_one() {
    let mut book = Workbook::new();
    let bold = Format::new().set_bold();
    let ws = book.add_worksheet();
    ws.write_number(0, 0, 5).unwrap();
    // A style index that meant nothing without a style sheet.
    ws.write_number_with_format(0, 2, 8, &bold).unwrap();
    let input = without_styles(&book.save_to_buffer().unwrap());
    assert!(!part(&input, "[Content_Types].xml").contains("styles"));
    let edits = [SheetEdits {
        sheet: "Sheet1".into(),
        cells: vec![edit("B1", CellValue::Number(6.0))],
    }];
    let out = run(&input, &edits);
    let ct = part(&out, "[Content_Types].xml");
    assert!(ct.contains(r#"<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>"#), "{ct}");
    let rels = part(&out, "xl/_rels/workbook.xml.rels");
    assert!(
        rels.contains(r#"Target="styles.xml"/></Relationships>"#),
        "{rels}"
    );
    let mut copy = open(&out);
    let range = copy.worksheet_range("Sheet1").unwrap();
    assert_eq!(range.get_value((0, 1)), Some(&Data::Float(6.0)));
    assert_eq!(range.get_value((0, 0)), Some(&Data::Float(5.0)));
    let styles = copy.worksheet_style("Sheet1").unwrap();
    assert!(styles
        .get((0, 1))
        .unwrap()
        .font
        .as_ref()
        .unwrap()
        .is_italic());
    // The old index still means the default style, not the new blue one.
    assert!(!styles
        .get((0, 2))
        .unwrap()
        .font
        .as_ref()
        .is_some_and(|f| f.is_italic()));
    // A second run finds the style sheet and adds nothing.
    assert_eq!(
        crate::util::entries(&run(&out, &edits)),
        crate::util::entries(&out)
    );
}

#[test]
fn awkward_text_reads_back_exactly() {
    let text = "a\r\nb\tc _x0041_ \u{1} <&> \"q\" ü 数独 ";
    let edits = [SheetEdits {
        sheet: "Other".into(),
        cells: vec![edit("B5", CellValue::Text(text.into()))],
    }];
    let out = run(&puzzle_workbook(), &edits);
    let mut book = open(&out);
    let range = book.worksheet_range("Other").unwrap();
    assert_eq!(range.get_value((4, 1)), Some(&Data::String(text.into())));
}
