use super::*;

const STYLES: &str = r#"<styleSheet><fonts count="1"><font><sz val="11"/></font></fonts><cellXfs count="3"><xf fontId="0"/><xf fontId="0" borderId="1" applyBorder="1"/><xf fontId="0" fillId="2"/></cellXfs></styleSheet>"#;

fn head(dim: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac"><dimension ref="{dim}"/>"#
    )
}

fn plan(cells: &[(&str, CellValue)]) -> SheetPlan {
    let mut p = SheetPlan::new();
    for (at, v) in cells {
        let at: CellRef = at.parse().unwrap();
        p.entry(at.row).or_default().insert(at.col, v.clone());
    }
    p
}

fn run(src: &str, cells: &[(&str, CellValue)]) -> (String, Option<String>) {
    let mut pool = StylePool::parse("styles", STYLES).unwrap();
    let out = patch_sheet(
        "sheet",
        src,
        &plan(cells),
        &HashMap::new(),
        &HashMap::new(),
        &mut pool,
    )
    .unwrap();
    (out.xml, pool.render().unwrap())
}

const TAIL: &str =
    r#"<pageMargins left="0.7"/><extLst><ext uri="{X}"><x14:foo/></ext></extLst></worksheet>"#;

#[test]
fn cells_go_into_an_empty_sheet_data() {
    let src = format!("{}<sheetData/>{TAIL}", head("A1"));
    let (out, styles) = run(
        &src,
        &[
            ("B2", CellValue::Number(7.0)),
            ("C2", CellValue::Number(1.5)),
        ],
    );
    assert_eq!(
        out,
        format!(
            r#"{}<sheetData><row r="2"><c r="B2" s="3"><v>7</v></c><c r="C2" s="3"><v>1.5</v></c></row></sheetData>{TAIL}"#,
            head("B2:C2")
        )
    );
    assert!(styles.unwrap().contains(r#"<cellXfs count="4">"#));
}

#[test]
fn a_missing_row_is_inserted_in_row_order() {
    let src = format!(
        r#"{}<sheetData><row r="1" spans="1:1" x14ac:dyDescent="0.25"><c r="A1"><v>1</v></c></row><row r="5"><c r="A5" s="1"/></row></sheetData>{TAIL}"#,
        head("A1:A5")
    );
    let (out, _) = run(&src, &[("C3", CellValue::Number(4.0))]);
    assert_eq!(
        out,
        format!(
            r#"{}<sheetData><row r="1" spans="1:1" x14ac:dyDescent="0.25"><c r="A1"><v>1</v></c></row><row r="3"><c r="C3" s="3"><v>4</v></c></row><row r="5"><c r="A5" s="1"/></row></sheetData>{TAIL}"#,
            head("A1:C5")
        )
    );
}

#[test]
fn a_missing_cell_goes_between_its_neighbours_and_widens_spans() {
    let src = format!(
        r#"{}<sheetData><row r="2" spans="2:4"><c r="B2" s="1" t="s"><v>0</v></c><c r="D2" s="1"/></row></sheetData>{TAIL}"#,
        head("B2:D2")
    );
    let (out, _) = run(
        &src,
        &[
            ("C2", CellValue::Number(9.0)),
            ("F2", CellValue::Number(2.0)),
        ],
    );
    assert_eq!(
        out,
        format!(
            r#"{}<sheetData><row r="2" spans="2:6"><c r="B2" s="1" t="s"><v>0</v></c><c r="C2" s="3"><v>9</v></c><c r="D2" s="1"/><c r="F2" s="3"><v>2</v></c></row></sheetData>{TAIL}"#,
            head("B2:F2")
        )
    );
}

#[test]
fn an_existing_cell_is_replaced_in_place_keeping_its_border() {
    let src = format!(
        r#"{}<sheetData><row r="1"><c r="A1" s="1" t="s" cm="1"><f>A2</f><v>3</v></c><c r="B1" s="2"/><c r="C1"><v>1</v></c></row></sheetData>{TAIL}"#,
        head("A1:C1")
    );
    let (out, styles) = run(
        &src,
        &[
            ("A1", CellValue::Number(5.0)),
            ("B1", CellValue::Number(6.0)),
        ],
    );
    assert_eq!(
        out,
        format!(
            r#"{}<sheetData><row r="1"><c r="A1" s="3"><v>5</v></c><c r="B1" s="4"><v>6</v></c><c r="C1"><v>1</v></c></row></sheetData>{TAIL}"#,
            head("A1:C1")
        )
    );
    let styles = styles.unwrap();
    assert!(
        styles.contains(r#"<xf fontId="1" borderId="1" applyBorder="1" applyFont="1"/>"#),
        "{styles}"
    );
    assert!(
        styles.contains(r#"<xf fontId="1" fillId="2" applyFont="1"/>"#),
        "{styles}"
    );
}

#[test]
fn clearing_keeps_the_style_and_drops_the_value() {
    let src = format!(
        r#"{}<sheetData><row r="1"><c r="A1" s="2" t="s"><v>3</v></c><c r="B1" t="inlineStr"><is><t>x</t></is></c></row></sheetData>{TAIL}"#,
        head("A1:B1")
    );
    let (out, styles) = run(
        &src,
        &[
            ("A1", CellValue::Clear),
            ("B1", CellValue::Clear),
            ("Z9", CellValue::Clear),
        ],
    );
    assert_eq!(
        out,
        format!(
            r#"{}<sheetData><row r="1"><c r="A1" s="2"/><c r="B1"/></row></sheetData>{TAIL}"#,
            head("A1:B1")
        )
    );
    assert_eq!(styles, None);
}

#[test]
fn inline_text_is_escaped_and_spaces_preserved() {
    let src = format!("{}<sheetData></sheetData>{TAIL}", head("A1"));
    let (out, _) = run(&src, &[("A1", CellValue::Text(" a<b & \"c\"".into()))]);
    assert!(out.contains(
        r#"<row r="1"><c r="A1" s="3" t="inlineStr"><is><t xml:space="preserve"> a&lt;b &amp; &quot;c&quot;</t></is></c></row>"#
    ), "{out}");
}

#[test]
fn new_cells_take_the_row_style_then_the_column_style() {
    let src = format!(
        r#"{}<cols><col min="2" max="4" width="9" style="2" customWidth="1"/></cols><sheetData><row r="1" s="1" customFormat="1"><c r="A1" s="1"/></row></sheetData>{TAIL}"#,
        head("A1")
    );
    let (out, _) = run(
        &src,
        &[
            ("C1", CellValue::Number(1.0)),
            ("C2", CellValue::Number(2.0)),
            ("F2", CellValue::Number(3.0)),
        ],
    );
    // Row 1's style 1 → blue 3; column C's style 2 → blue 4; F: 0 → 5.
    assert!(out.contains(r#"<c r="C1" s="3"><v>1</v></c>"#), "{out}");
    assert!(
        out.contains(
            r#"<row r="2"><c r="C2" s="4"><v>2</v></c><c r="F2" s="5"><v>3</v></c></row>"#
        ),
        "{out}"
    );
}

#[test]
fn cells_and_rows_without_r_get_explicit_addresses_where_touched() {
    let src = format!(
        r#"{}<sheetData><row><c><v>1</v></c><c><v>2</v></c><c><v>3</v></c></row><row><c><v>4</v></c></row></sheetData>{TAIL}"#,
        head("A1:C2")
    );
    let (out, _) = run(&src, &[("B1", CellValue::Number(8.0))]);
    assert!(out.contains(
        r#"<sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1" s="3"><v>8</v></c><c r="C1"><v>3</v></c></row><row><c><v>4</v></c></row>"#
    ), "{out}");
}

#[test]
fn prefixed_sheets_get_prefixed_new_elements() {
    let src = r#"<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="1"><x:c r="A1"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>"#;
    let (out, _) = run(
        src,
        &[
            ("B1", CellValue::Number(2.0)),
            ("A3", CellValue::Text("n".into())),
        ],
    );
    assert!(out.contains(r#"<x:c r="B1" s="3"><x:v>2</x:v></x:c></x:row><x:row r="3"><x:c r="A3" s="3" t="inlineStr"><x:is><x:t>n</x:t></x:is></x:c></x:row></x:sheetData>"#), "{out}");
}

#[test]
fn rows_columns_and_cells_outside_the_data_are_none_of_the_sheets() {
    // A row and a column style inside an extension list, and a form
    // control anchored by `<xdr:row>`/`<xdr:col>` after a last row.
    let controls = r#"<mc:AlternateContent><mc:Choice Requires="x14"><controls><mc:AlternateContent><mc:Choice Requires="x14"><control shapeId="1025" r:id="rId3" name="Button 1"><controlPr macro="[0]!Solve"><anchor moveWithCells="1"><from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>12</xdr:row><xdr:rowOff>0</xdr:rowOff></from><to><xdr:col>3</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>14</xdr:row><xdr:rowOff>0</xdr:rowOff></to></anchor></controlPr></control></mc:Choice></mc:AlternateContent></controls></mc:Choice></mc:AlternateContent>"#;
    let src = format!(
        r#"{}<sheetViews><sheetView><extLst><ext><row r="2" s="2" customFormat="1"/><col min="2" max="2" style="1"/></ext></extLst></sheetView></sheetViews><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="A1048576"><v>2</v></c></row></sheetData>{controls}{TAIL}"#,
        head("A1:A1048576")
    );
    let wanted: HashSet<CellRef> = ["B2"].iter().map(|a| a.parse().unwrap()).collect();
    assert_eq!(
        styles_of("sheet", &src, &wanted).unwrap()[&wanted.iter().next().copied().unwrap()],
        0
    );
    let (out, _) = run(&src, &[("B2", CellValue::Number(5.0))]);
    let want = src
        .replace(
            r#"</row><row r="1048576">"#,
            r#"</row><row r="2"><c r="B2" s="3"><v>5</v></c></row><row r="1048576">"#,
        )
        .replace("A1:A1048576", "A1:B1048576");
    assert_eq!(out, want);
    assert_eq!(scan_existing("sheet", &src).unwrap().rows.len(), 2);
}

#[test]
fn styles_of_reads_own_row_and_column_styles() {
    let src = r#"<worksheet><cols><col min="3" max="3" style="7"/></cols><sheetData><row r="1"><c r="A1" s="4"/><c r="B1"/></row><row r="2" s="5" customFormat="1"/></sheetData></worksheet>"#;
    let wanted: HashSet<CellRef> = ["A1", "B1", "A2", "C1", "D1"]
        .iter()
        .map(|a| a.parse().unwrap())
        .collect();
    let got = styles_of("sheet", src, &wanted).unwrap();
    let at = |a: &str| got[&a.parse::<CellRef>().unwrap()];
    assert_eq!(
        (at("A1"), at("B1"), at("A2"), at("C1"), at("D1")),
        (4, 0, 5, 7, 0)
    );
}

#[test]
fn a_forced_style_is_written_plain_or_as_its_blue_twin() {
    let src = format!("{}<sheetData/>{TAIL}", head("A1"));
    let mut pool = StylePool::parse("styles", STYLES).unwrap();
    let forced: Forced = [
        ("A1".parse().unwrap(), (1, false)),
        ("B1".parse().unwrap(), (1, true)),
    ]
    .into_iter()
    .collect();
    let cells = [
        ("A1", CellValue::Number(1.0)),
        ("B1", CellValue::Number(2.0)),
    ];
    let out = patch_sheet(
        "sheet",
        &src,
        &plan(&cells),
        &HashMap::new(),
        &forced,
        &mut pool,
    )
    .unwrap();
    assert!(
        out.xml.contains(r#"<c r="A1" s="1"><v>1</v></c>"#),
        "{}",
        out.xml
    );
    assert!(!out.xml.contains(r#"<c r="B1" s="1">"#), "{}", out.xml);
    assert!(out.xml.contains(r#"<c r="B1" s=""#), "{}", out.xml);
}

#[test]
fn the_master_of_a_shared_formula_is_refused() {
    let src = r#"<worksheet><sheetData><row r="1"><c r="A1"><f t="shared" ref="A1:A3" si="0">B1</f><v>1</v></c></row></sheetData></worksheet>"#;
    let mut pool = StylePool::parse("styles", STYLES).unwrap();
    let err = patch_sheet(
        "sheet",
        src,
        &plan(&[("A1", CellValue::Number(1.0))]),
        &HashMap::new(),
        &HashMap::new(),
        &mut pool,
    )
    .unwrap_err();
    assert!(matches!(err, AnnotateError::Unsupported { .. }), "{err}");
}

#[test]
fn patching_its_own_output_again_changes_nothing() {
    let src = format!(
        r#"{}<sheetData><row r="2" spans="2:4"><c r="B2" s="1"><v>5</v></c><c r="D2" s="1"/></row></sheetData>{TAIL}"#,
        head("B2:D2")
    );
    let cells = [
        ("C2", CellValue::Number(9.0)),
        ("D2", CellValue::Number(3.0)),
        ("B4", CellValue::Text("solved".into())),
    ];
    let mut pool = StylePool::parse("styles", STYLES).unwrap();
    let once = patch_sheet(
        "sheet",
        &src,
        &plan(&cells),
        &HashMap::new(),
        &HashMap::new(),
        &mut pool,
    )
    .unwrap()
    .xml;
    let styles = pool.render().unwrap().unwrap();
    let mut pool2 = StylePool::parse("styles", &styles).unwrap();
    let twice = patch_sheet(
        "sheet",
        &once,
        &plan(&cells),
        &HashMap::new(),
        &HashMap::new(),
        &mut pool2,
    )
    .unwrap()
    .xml;
    assert_eq!(once, twice);
    assert_eq!(pool2.render().unwrap(), None);
}

#[test]
fn rows_and_cells_out_of_order_take_their_edits_in_place() {
    // Cells of row 2 right to left (rows in order): the pass restarts
    // knowing where each cell is.
    let src = format!(
        r#"{}<sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="D2" s="1"/><c r="B2" s="1"/></row></sheetData>{TAIL}"#,
        head("A1:D2")
    );
    let (out, _) = run(
        &src,
        &[
            ("B2", CellValue::Number(2.0)),
            ("C2", CellValue::Number(3.0)),
            ("D2", CellValue::Number(4.0)),
        ],
    );
    assert_eq!(out.matches("r=\"B2\"").count(), 1, "{out}");
    assert_eq!(out.matches("r=\"D2\"").count(), 1, "{out}");
    assert!(out.contains("r=\"C2\""), "{out}");
    // Rows out of order.
    let src = format!(
        r#"{}<sheetData><row r="5"><c r="A5"><v>5</v></c></row><row r="2"><c r="A2"><v>2</v></c></row></sheetData>{TAIL}"#,
        head("A2:A5")
    );
    let (out, _) = run(
        &src,
        &[
            ("B2", CellValue::Number(9.0)),
            ("B5", CellValue::Number(8.0)),
            ("B3", CellValue::Number(7.0)),
        ],
    );
    for r in ["2", "3", "5"] {
        assert_eq!(out.matches(&format!("<row r=\"{r}\"")).count(), 1, "{out}");
    }
    assert!(out.contains(r#"<c r="A2"><v>2</v></c><c r="B2""#), "{out}");
    assert!(out.contains(r#"<c r="A5"><v>5</v></c><c r="B5""#), "{out}");
}

#[test]
fn row_order_is_told_from_the_row_tags() {
    assert!(rows_in_order(
        r#"<sheetData><row r="1"/><x:row r="3" spans="1:2"><c><t>row 2</t></c></x:row><row/></sheetData>"#,
        None
    ));
    assert!(!rows_in_order(r#"<row r="3"/><row r="2"/>"#, None));
    assert!(!rows_in_order(r#"<row r="3"/><row r="3"/>"#, None));
    assert!(!rows_in_order(r#"<row r = "3"/>"#, None));
    assert!(!rows_in_order(r#"<row r="x"/>"#, None));
    assert!(rows_in_order("<worksheet><sheetData/></worksheet>", None));
    assert!(rows_in_order(r#"</row><row r="4"/><row/>"#, Some(3)));
    assert!(!rows_in_order(r#"</row><row r="3"/>"#, Some(3)));
}

#[test]
fn a_sheet_without_sheet_data_is_malformed() {
    let mut pool = StylePool::parse("styles", STYLES).unwrap();
    let err = patch_sheet(
        "sheet",
        "<worksheet/>",
        &plan(&[("A1", CellValue::Number(1.0))]),
        &HashMap::new(),
        &HashMap::new(),
        &mut pool,
    )
    .unwrap_err();
    assert!(matches!(err, AnnotateError::Malformed { .. }), "{err}");
}

#[test]
fn rows_skipped_unparsed_still_come_out_whole_even_with_comments() {
    let src = format!(
        r#"{}<sheetData><row r="1"><c r="A1"><v>1</v></c><!-- </row> --><c r="B1"><v>2</v></c></row><row r="2"><c r="A2"><v>3</v></c></row><row r="4"><c r="A4"><v>4</v></c></row></sheetData>{TAIL}"#,
        head("A1:B4")
    );
    let (out, _) = run(
        &src,
        &[
            ("B2", CellValue::Number(5.0)),
            ("A3", CellValue::Number(6.0)),
        ],
    );
    assert_eq!(
        out,
        format!(
            r#"{}<sheetData><row r="1"><c r="A1"><v>1</v></c><!-- </row> --><c r="B1"><v>2</v></c></row><row r="2"><c r="A2"><v>3</v></c><c r="B2" s="3"><v>5</v></c></row><row r="3"><c r="A3" s="3"><v>6</v></c></row><row r="4"><c r="A4"><v>4</v></c></row></sheetData>{TAIL}"#,
            head("A1:B4")
        )
    );
}

#[test]
fn a_byte_order_mark_is_kept_and_offsets_stay_right() {
    const BOM: char = '\u{FEFF}';
    let src = format!("{BOM}{}<sheetData/>{TAIL}", head("A1"));
    let (out, _) = run(&src, &[("A1", CellValue::Number(1.0))]);
    assert_eq!(
        out,
        format!(
            r#"{BOM}{}<sheetData><row r="1"><c r="A1" s="3"><v>1</v></c></row></sheetData>{TAIL}"#,
            head("A1")
        )
    );
}

#[test]
fn truncated_or_mangled_sheets_give_errors_not_panics() {
    let src = format!(
        r#"{}<cols><col min="1" max="3" style="1"/></cols><sheetData><row r="1" spans="1:3"><c r="A1" s="1" t="s"><v>0</v></c><c r="C1"><f>A1</f><v>2</v></c></row><row><c><v>1</v></c></row><row r="5"/></sheetData>{TAIL}"#,
        head("A1:C5")
    );
    let cells = [
        ("A1", CellValue::Number(1.0)),
        ("B1", CellValue::Text("x".into())),
        ("C1", CellValue::Clear),
        ("B4", CellValue::Number(2.0)),
        ("A5", CellValue::Number(3.0)),
    ];
    for cut in 0..src.len() {
        let mut pool = StylePool::parse("styles", STYLES).unwrap();
        let _ = patch_sheet(
            "sheet",
            &src[..cut],
            &plan(&cells),
            &HashMap::new(),
            &HashMap::new(),
            &mut pool,
        );
        // Swap two bytes to break tags in other ways.
        let mut bytes = src.clone().into_bytes();
        bytes.swap(cut, (cut * 7 + 3) % src.len());
        if let Ok(mangled) = String::from_utf8(bytes) {
            let mut pool = StylePool::parse("styles", STYLES).unwrap();
            let _ = patch_sheet(
                "sheet",
                &mangled,
                &plan(&cells),
                &HashMap::new(),
                &HashMap::new(),
                &mut pool,
            );
        }
    }
    let mut pool = StylePool::parse("styles", STYLES).unwrap();
    assert!(patch_sheet(
        "sheet",
        &src,
        &plan(&cells),
        &HashMap::new(),
        &HashMap::new(),
        &mut pool
    )
    .is_ok());
}

#[test]
fn numbers_are_written_as_excel_reads_them() {
    assert_eq!(format_number(7.0).as_deref(), Some("7"));
    assert_eq!(format_number(-0.25).as_deref(), Some("-0.25"));
    assert_eq!(format_number(f64::NAN), None);
}

#[test]
fn a_restyle_sets_the_style_and_keeps_the_value() {
    let src = format!(
        r#"{}<sheetData><row r="1"><c r="A1" s="2" t="s"><v>3</v></c><c r="B1" s="2"/></row></sheetData>{TAIL}"#,
        head("A1:B1")
    );
    let (out, styles) = run(
        &src,
        &[("A1", CellValue::Restyle(1)), ("B1", CellValue::Restyle(0))],
    );
    assert_eq!(
        out,
        format!(
            r#"{}<sheetData><row r="1"><c r="A1" s="1" t="s"><v>3</v></c><c r="B1" s="0"/></row></sheetData>{TAIL}"#,
            head("A1:B1")
        )
    );
    assert_eq!(styles, None, "no style is made");
}
