use super::formula::*;
use super::parts::*;
use super::regions::*;
use super::scan::*;
use super::styles::*;
use super::values::*;
use super::*;
use crate::address::{CellRef, MAX_COL, MAX_ROW};
use crate::workbook::detect::{Edges, Line};
use calamine::CellErrorType;

const STYLES: &str = r#"<?xml version="1.0"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<borders count="3">
  <border><left/><right/><top/><bottom/><diagonal/></border>
  <border><start style="thin"><color auto="1"/></start><end style="medium"/><top style="hair"/><bottom/></border>
  <border><left style="double"/><right/><top/><bottom style="thin"/></border>
</borders>
<cellStyleXfs count="1"><xf borderId="2"/></cellStyleXfs>
<cellXfs count="3"><xf borderId="0"/><xf borderId="1"/><xf borderId="2" applyBorder="1"/></cellXfs>
</styleSheet>"#;

fn xfs() -> Vec<XfInfo> {
    parse_xf_borders(STYLES)
        .unwrap()
        .into_iter()
        .map(|edges| XfInfo {
            edges,
            ..XfInfo::default()
        })
        .collect()
}

fn sheet(cells: &str) -> String {
    format!("<worksheet><sheetData>{cells}</sheetData></worksheet>")
}

fn value(cell: &str, strings: &[Option<String>]) -> (Option<Data>, Option<Unread>) {
    let scan = scan_sheet(&sheet(&format!("<row r=\"1\">{cell}</row>")), strings).unwrap();
    (
        scan.values.get(&(0, 0)).cloned(),
        scan.unread.get(&(0, 0)).cloned(),
    )
}

#[test]
fn styles_read_start_and_end_as_left_and_right() {
    let xfs = parse_xf_borders(STYLES).unwrap();
    assert_eq!(xfs.len(), 3, "cellStyleXfs must not count");
    assert_eq!(xfs[0], Edges::default());
    assert_eq!(
        xfs[1],
        Edges {
            left: Line::Thin,
            right: Line::Thick,
            top: Line::Thin,
            bottom: Line::None
        }
    );
    assert_eq!(xfs[2].left, Line::Thick);
    assert_eq!(xfs[2].bottom, Line::Thin);
}

#[test]
fn row_and_column_styles_reach_cells_without_elements() {
    let xml = r#"<worksheet><cols><col min="2" max="3" style="1"/></cols><sheetData>
<row r="5" s="2" customFormat="1"><c r="A5" s="0"><v>1</v></c></row>
<row r="6" s="2"><c r="D6" s="1"/><c s="2"/></row></sheetData></worksheet>"#;
    let styles = scan_sheet(xml, &[]).unwrap().styles;
    assert_eq!(styles.cols, vec![(1, 2, 1)]);
    assert_eq!(styles.rows.get(&4), Some(&2));
    assert!(!styles.rows.contains_key(&5), "row 6 is not customFormat");
    assert_eq!(styles.cells, vec![(4, 0, 0), (5, 3, 1), (5, 4, 2)]);
    let (regions, _) = styles.resolve(&xfs());
    assert_eq!(regions.len(), 1);
    assert_eq!(regions[0].origin, CellRef::new(0, 0));
    let map = &regions[0].map;
    // B1 has no <c>: column style 1 (start=thin).
    assert_eq!(map.get(0, 1).left, Line::Thin);
    // E5 has no <c>: the custom row style 2 wins over nothing.
    assert_eq!(map.get(4, 4).left, Line::Thick);
    // A5 has its own <c s="0">: no borders.
    assert_eq!(map.get(4, 0), Edges::default());
    // C5: row style over column style.
    assert_eq!(map.get(4, 2).left, Line::Thick);
    // E6 got its position from the previous cell.
    assert_eq!(map.get(5, 4).bottom, Line::Thin);
}

#[test]
fn formulas_merges_and_hidden_lines_are_listed() {
    let sheet = r#"<worksheet><cols><col min="2" max="3" hidden="1"/></cols><sheetData>
<row r="1"><c r="A1"><f>1+1</f><v>2</v></c>
<c r="B1" t="str"><f>IF(A1=2,"","x")</f><v></v></c><c r="C1"><v>3</v></c><c r="D1"/>
<c r="E1"><f t="shared" si="0"/></c></row><row r="4" hidden="true"/></sheetData>
<mergeCells count="1"><mergeCell ref="B2:C3"/></mergeCells><pageMargins left="1" left="2"/></worksheet>"#;
    let scan = scan_sheet(sheet, &[]).unwrap();
    assert_eq!(scan.formulas, vec![(0, 0), (0, 1), (0, 4)]);
    assert_eq!(scan.merges, vec!["B2:C3".parse().unwrap()]);
    assert!(scan.hidden_rows.contains(&3) && scan.hidden_rows.len() == 1);
    assert_eq!(scan.hidden_cols, vec![(1, 2)]);
}

/// A form control's anchor, as Excel writes it after the sheet data.
const CONTROLS: &str = r#"<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x14"><controls><mc:AlternateContent><mc:Choice Requires="x14"><control shapeId="1025" r:id="rId3" name="Button 1"><controlPr defaultSize="0" print="0" autoFill="0" autoPict="0" macro="[0]!Solve"><anchor moveWithCells="1" sizeWithCells="1"><from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>12</xdr:row><xdr:rowOff>0</xdr:rowOff></from><to><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>14</xdr:row><xdr:rowOff>0</xdr:rowOff></to></anchor></controlPr></control></mc:Choice></mc:AlternateContent></controls></mc:Choice></mc:AlternateContent>"#;

#[test]
fn only_the_sheet_data_holds_rows_and_cells() {
    // Rows, columns, cells and merges inside controls, alternate
    // content and extension lists are none of the sheet's.
    let xml = format!(
        r#"<worksheet><sheetViews><sheetView><extLst><ext><row r="2"/></ext></extLst></sheetView></sheetViews><cols><col min="2" max="2" hidden="1"/></cols><sheetData><row r="1"><c r="A1"><v>1</v><extLst><ext><c r="B1"><v>2</v></c></ext></extLst></c><extLst><ext><x14:c r="C1"><v>3</v></x14:c></ext></extLst></row><row r="1048576"><c r="A1048576"><v>4</v></c></row></sheetData>{CONTROLS}<extLst><ext><x14:mergeCells><x14:mergeCell ref="A1:B2"/></x14:mergeCells><x14:cols><x14:col min="5" max="5" hidden="1"/></x14:cols></ext></extLst></worksheet>"#
    );
    let scan = scan_sheet(&xml, &[]).unwrap();
    let mut values: Vec<_> = scan.values.into_iter().collect();
    values.sort_by_key(|(at, _)| *at);
    assert_eq!(
        values,
        vec![
            ((0, 0), Data::Float(1.0)),
            ((1_048_575, 0), Data::Float(4.0))
        ]
    );
    assert!(scan.merges.is_empty(), "{:?}", scan.merges);
    assert_eq!(scan.hidden_cols, vec![(1, 1)]);
    assert!(scan.hidden_rows.is_empty());
    assert_eq!(scan.styles.cells, vec![(0, 0, 0), (1_048_575, 0, 0)]);
}

#[test]
fn broken_xml_is_an_error_not_a_panic() {
    assert!(scan_sheet(
        "<worksheet><sheetData><row r=\"1\"><c r=\"A1\" s=\"1\"></row>",
        &[]
    )
    .is_err());
    assert!(
        parse_xf_borders("<styleSheet><borders><border><left style=\"thin\"></border>").is_err()
    );
    assert!(parse_shared_strings("<sst><si><t>a</si>").is_err());
}

#[test]
fn far_cells_cost_what_they_hold_and_impossible_ones_are_refused() {
    let xml = sheet(
        r#"<row r="1"><c r="A1" s="1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576" s="1"><v>2</v></c></row>"#,
    );
    let scan = scan_sheet(&xml, &[]).unwrap();
    assert_eq!(scan.values.len(), 2);
    assert_eq!(
        scan.values.get(&(MAX_ROW, MAX_COL)),
        Some(&Data::Float(2.0))
    );
    let (regions, _) = scan.styles.resolve(&xfs());
    assert_eq!(
        regions.len(),
        2,
        "two bordered cells far apart: two small maps"
    );
    assert!(regions
        .iter()
        .all(|r| r.map.rows() == 1 && r.map.cols() == 1));
    assert_eq!(regions[1].origin, CellRef::new(MAX_ROW, MAX_COL));
    for bad in [
        r#"<row r="1"><c r="ZZZZZZZZZZ99999999999"><v>1</v></c></row>"#,
        r#"<row r="1"><c r="A0"><v>1</v></c></row>"#,
        r#"<row r="1"><c r="A1048577"><v>1</v></c></row>"#,
        r#"<row r="1048577"><c><v>1</v></c></row>"#,
        r#"<row r="0"><c><v>1</v></c></row>"#,
    ] {
        let err = scan_sheet(&sheet(bad), &[]).unwrap_err();
        assert!(err.contains("outside the sheet"), "{bad}: {err}");
    }
    let err = scan_sheet(
        &sheet(r#"<row r="1"><c r="ZZZZZZZZZZ99999999999"/></row>"#),
        &[],
    )
    .unwrap_err();
    assert!(err.contains("'ZZZZZZZZZZ99999999999'"), "{err}");
}

#[test]
fn duplicated_attributes_are_malformed_xml() {
    for bad in [
        r#"<row r="1" r="1"><c r="A1"><v>1</v></c></row>"#,
        r#"<row r="1"><c r="A1" s="1" s="1"><v>1</v></c></row>"#,
        r#"<row r="1"><c r="A1"><v a="1" a="2">1</v></c></row>"#,
    ] {
        let err = scan_sheet(&sheet(bad), &[]).unwrap_err();
        assert!(err.contains("duplicated attribute"), "{bad}: {err}");
    }
}

#[test]
fn values_are_unescaped_and_trimmed_as_xml_says() {
    let strings = vec![Some("a".to_string()); 7]
        .into_iter()
        .chain([Some("7 & 8".to_string()), None])
        .collect::<Vec<_>>();
    assert_eq!(
        value("<c r=\"A1\"><v>&#51;</v></c>", &[]).0,
        Some(Data::Float(3.0))
    );
    assert_eq!(
        value("<c r=\"A1\"><v>&#x34;</v></c>", &[]).0,
        Some(Data::Float(4.0))
    );
    assert_eq!(
        value("<c r=\"A1\"><v> 5\n</v></c>", &[]).0,
        Some(Data::Float(5.0))
    );
    assert_eq!(
        value("<c r=\"A1\" t=\"s\"><v> 7 </v></c>", &strings).0,
        Some(Data::String("7 &amp; 8".replace("&amp;", "&")))
    );
    assert_eq!(
        value("<c r=\"A1\" t=\"inlineStr\"><is><r><t>1</t></r><r><t>2</t></r><rPh><t>x</t></rPh></is></c>", &[]).0,
        Some(Data::String("12".into()))
    );
    assert_eq!(
        value("<c r=\"A1\" t=\"b\"><v>1</v></c>", &[]).0,
        Some(Data::Bool(true))
    );
    assert_eq!(
        value("<c r=\"A1\" t=\"e\"><v>#N/A</v></c>", &[]).0,
        Some(Data::Error(CellErrorType::NA))
    );
    assert_eq!(value("<c r=\"A1\" s=\"3\"/>", &[]), (None, None));
    assert_eq!(value("<c r=\"A1\" t=\"s\"><v/></c>", &[]), (None, None));
    assert_eq!(value("<c r=\"A1\" t=\"s\"><v> </v></c>", &[]), (None, None));
    // What cannot be read is never blank.
    for (cell, shown) in [
        ("<c r=\"A1\"><v>&bogus;</v></c>", "&bogus;"),
        ("<c r=\"A1\"><v>5x</v></c>", "5x"),
        ("<c r=\"A1\"><v>NaN</v></c>", "NaN"),
        (
            "<c r=\"A1\" t=\"s\"><v>99</v></c>",
            "shared string 99, which the workbook does not have",
        ),
        (
            "<c r=\"A1\" t=\"s\"><v>8</v></c>",
            "shared string 8, which cannot be read",
        ),
        ("<c r=\"A1\" t=\"s\"><v>x</v></c>", "x"),
        ("<c r=\"A1\" t=\"b\"><v>2</v></c>", "2"),
    ] {
        let (v, u) = value(cell, &strings);
        assert_eq!(u, Some(Unread::Value(shown.into())), "{cell}");
        assert_eq!(v, Some(Data::String(shown.into())), "{cell}");
    }
}

#[test]
fn ooxml_escapes_are_resolved_in_strings() {
    assert_eq!(unescape_ooxml("5_x000D_".into()), "5\r");
    assert_eq!(unescape_ooxml("a_x005F_x0041_b".into()), "a_x0041_b");
    assert_eq!(unescape_ooxml("_xD83D__xDE00_".into()), "\u{1F600}");
    assert_eq!(unescape_ooxml("_xD83D_x".into()), "\u{FFFD}x");
    assert_eq!(unescape_ooxml("_x12_ é _xZZZZ_".into()), "_x12_ é _xZZZZ_");
    assert_eq!(
        value("<c r=\"A1\" t=\"str\"><f>A2</f><v>7_x000D_</v></c>", &[]).0,
        Some(Data::String("7\r".into()))
    );
}

#[test]
fn shared_string_counts_are_hints_only() {
    let sst = r#"<sst uniqueCount="2147483648" count="99999999999"><si><t xml:space="preserve"> 7 </t></si><si><r><t>4</t></r><r><t>2</t></r><rPh><t>x</t></rPh></si><si/><si><t>&#x35;&amp;</t></si><si><t>&nope;</t></si></sst>"#;
    assert_eq!(
        parse_shared_strings(sst).unwrap(),
        vec![
            Some(" 7 ".to_string()),
            Some("42".to_string()),
            Some(String::new()),
            Some("5&".to_string()),
            None
        ]
    );
}

#[test]
fn formulas_without_a_cached_value_are_evaluated_or_unread() {
    let f = |cell: &str| value(cell, &[]);
    // openpyxl: no cached value.
    assert_eq!(
        f("<c r=\"A1\"><f>5</f><v></v></c>").0,
        Some(Data::Float(5.0))
    );
    assert_eq!(f("<c r=\"A1\"><f>2+3</f></c>").0, Some(Data::Float(5.0)));
    // XlsxWriter: a cached 0.
    assert_eq!(
        f("<c r=\"A1\"><f>(1+2)*3</f><v>0</v></c>").0,
        Some(Data::Float(9.0))
    );
    // A real cached value wins.
    assert_eq!(
        f("<c r=\"A1\"><f>2+3</f><v>4</v></c>").0,
        Some(Data::Float(4.0))
    );
    // Not constant: a cached 0 is no value (a reference is read later,
    // from the workbook).
    assert_eq!(
        f("<c r=\"A1\"><f>A2</f><v>0</v></c>").1,
        Some(Unread::Formula("A2".into()))
    );
    assert_eq!(
        f("<c r=\"A1\"><f>A2+1</f><v/></c>").1,
        Some(Unread::Formula("A2+1".into()))
    );
    assert_eq!(
        f("<c r=\"A1\"><f t=\"shared\" si=\"0\"/></c>").1,
        Some(Unread::Formula(String::new()))
    );
    // A cached empty text (`=IF(..,"",..)`) is a value.
    assert_eq!(
        f("<c r=\"A1\" t=\"str\"><f>IF(A2,\"\",1)</f><v></v></c>"),
        (Some(Data::String(String::new())), None)
    );
}

#[test]
fn constant_formulas() {
    assert_eq!(eval_constant("5"), Some(5.0));
    assert_eq!(eval_constant("=2+3"), Some(5.0));
    assert_eq!(eval_constant(" -(1+2) * -3 / 9 "), Some(1.0));
    assert_eq!(eval_constant("1.5e1-6"), Some(9.0));
    assert_eq!(eval_constant("+.5*2"), Some(1.0));
    for bad in [
        "", "A1", "1/0", "(1+2", "1+", "2^3", "SUM(1)", "1 2", "1e", "\"5\"",
    ] {
        assert_eq!(eval_constant(bad), None, "{bad}");
    }
    assert_eq!(eval_constant(&"(".repeat(10_000)), None);
}

#[test]
fn mutated_sheets_and_strings_give_results_or_errors_never_panics() {
    let base = sheet(concat!(
        r#"<row r="1" s="2" customFormat="1"><c r="A1" s="1" t="s"><v> 1 </v></c>"#,
        r#"<c r="B1" t="inlineStr"><is><r><t>x&amp;</t></r><rPh><t>y</t></rPh></is></c>"#,
        r#"<c r="C1"><f>(1+2)*3</f><v>0</v></c><c r="D1" t="b"><v>1</v></c></row>"#,
        r#"<row r="3"><c r="XFD3" s="2"><v>&#51;</v></c><c t="e"><v>#N/A</v></c></row>"#,
    ));
    let sst = r#"<sst uniqueCount="9"><si><t>a</t></si><si><r><t>7</t></r></si></sst>"#;
    let strings = parse_shared_strings(sst).unwrap();
    let pieces = [
        "<",
        ">",
        "/",
        "\"",
        "&",
        "&#",
        ";",
        "r=\"",
        "ZZZZ99",
        "0",
        "4294967296",
        "<c>",
        "<v>",
        "</v>",
        "<f>",
        "<is>",
        "<row>",
        "</sheetData>",
        " ",
        "s=\"1\"",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n.max(1)
    };
    for _ in 0..3000 {
        let mut text = base.clone();
        for _ in 0..1 + next(3) {
            let at = next(text.len());
            let at = (0..=at)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            let end = (at + next(6)).min(text.len());
            let end = (end..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(text.len());
            text.replace_range(at..end, pieces[next(pieces.len())]);
        }
        if let Ok(scan) = scan_sheet(&text, &strings) {
            let _ = scan.styles.resolve(&xfs());
        }
        let _ = parse_shared_strings(&text.replace("worksheet", "sst"));
    }
}

#[test]
fn regions_split_on_empty_rows_and_columns_only() {
    let r = Rect::cell;
    // Touching cells stay together; one empty row or column splits.
    let out = split_regions(vec![r(0, 0), r(1, 1), r(3, 0), r(0, 3)]);
    assert_eq!(
        out,
        vec![
            Rect {
                r0: 0,
                r1: 1,
                c0: 0,
                c1: 1
            },
            r(0, 3),
            r(3, 0),
        ]
    );
    // An L inside another's bounding box is split by nothing: one box.
    let out = split_regions(vec![
        r(0, 0),
        r(0, 1),
        r(0, 2),
        r(1, 0),
        r(2, 0),
        r(1, 2),
        r(2, 2),
        r(2, 1),
    ]);
    assert_eq!(out.len(), 1);
}

#[test]
fn bold_cells_are_told_by_their_format() {
    let mut infos = xfs();
    infos[1].bold = true;
    let xml = sheet(r#"<row r="1"><c r="A1" s="1"><v>5</v></c><c r="B1" s="2"><v>3</v></c></row>"#);
    let scan = scan_sheet(&xml, &[]).unwrap();
    let (_, [blue_italic, bold]) = scan.styles.resolve(&infos);
    assert!(bold.contains(&(0, 0)));
    assert!(!bold.contains(&(0, 1)));
    assert!(blue_italic.is_empty());
}

/// A workbook whose cell A1 has the given format.
fn workbook_with(format: &rust_xlsxwriter::Format) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    book.add_worksheet()
        .write_with_format(0, 0, 5, format)
        .expect("write");
    book.save_to_buffer().expect("save")
}

/// Each workbook's palette, through the last-palette cache, is the one
/// calamine makes of its own style sheet, whatever was read before.
#[test]
fn a_palette_is_its_own_workbooks_whatever_came_before() {
    use rust_xlsxwriter::{Color, Format};
    let blue = workbook_with(&Format::new().set_italic().set_font_color(Color::Blue));
    let bold = workbook_with(&Format::new().set_bold());
    let palette = |bytes: &[u8]| {
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
        let parts = Package::read(&mut zip, Path::new("t.xlsx")).unwrap();
        format!("{:?}", font_palette(&mut zip, &parts).unwrap())
    };
    let (first_blue, first_bold) = (palette(&blue), palette(&bold));
    assert_ne!(first_blue, first_bold);
    for _ in 0..2 {
        assert_eq!(palette(&blue), first_blue);
        assert_eq!(palette(&blue), first_blue);
        assert_eq!(palette(&bold), first_bold);
    }
    // The first read of each made its palette afresh; so does a thread
    // that read nothing before.
    let fresh = std::thread::spawn(move || palette(&bold)).join().unwrap();
    assert_eq!(fresh, first_bold);
}
