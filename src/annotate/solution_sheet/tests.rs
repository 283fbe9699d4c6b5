use super::workbook::*;
use super::*;

#[test]
fn names_avoid_taken_ones_without_regard_to_case() {
    assert_eq!(free_name(["Easy", "Hard"], None), "Solutions");
    assert_eq!(free_name(["SOLUTIONS"], None), "Solutions 2");
    assert_eq!(
        free_name(["solutions", "Solutions 2", "x"], None),
        "Solutions 3"
    );
    assert_eq!(free_name(["Solutions"], Some("Solutions")), "Solutions");
}

#[test]
fn titles_and_print_areas_quote_names_as_formulas_do() {
    let r: CellRange = "C3:K11".parse().unwrap();
    assert_eq!(title("Easy", r), "Easy!C3:K11");
    assert_eq!(title("Hard one", r), "'Hard one'!C3:K11");
    assert_eq!(title("it's", r), "'it''s'!C3:K11");
    assert_eq!(title("AB12", r), "'AB12'!C3:K11");
    assert_eq!(title("1st", r), "'1st'!C3:K11");
    let places = layout([9, 16]);
    assert_eq!(places[1].range.to_string(), "B15:Q30");
    assert_eq!(print_area("Solutions", &places), "'Solutions'!$A$1:$Q$30");
}

#[test]
fn copies_read_back_from_the_sheet_as_written() {
    let copy = |sheet: &str, grid: &str, side: usize| SolutionCopy {
        sheet: sheet.into(),
        grid: grid.parse().unwrap(),
        cells: (0..side * side)
            .map(|i| match i % 3 {
                0 => (CellValue::Number((i % 9 + 1) as f64), true),
                1 => (CellValue::Text(format!("a<&{i}")), false),
                _ => (CellValue::Clear, false),
            })
            .collect(),
        kept_styles: None,
    };
    let copies = vec![copy("It's 1!", "C3:F6", 4), copy("B", "A1:I9", 9)];
    let places = layout(copies.iter().map(|c| c.grid.rows()));
    let xml = sheet_xml(&copies, &places, 0, false, |k, i| (k * 100 + i) as u32);
    let back = read_copies("s", &xml).unwrap();
    assert_eq!(back.len(), 2);
    for (k, (a, b)) in copies.iter().zip(&back).enumerate() {
        assert_eq!((&a.sheet, a.grid), (&b.sheet, b.grid));
        let values: Vec<&CellValue> = a.cells.iter().map(|(v, _)| v).collect();
        let again: Vec<&CellValue> = b.cells.iter().map(|(v, _)| v).collect();
        assert_eq!(values, again);
        let styles: Vec<u32> = (0..a.cells.len()).map(|i| (k * 100 + i) as u32).collect();
        assert_eq!(b.kept_styles.as_ref(), Some(&styles));
    }
    // Written again from what was read: the same sheet.
    let kept_xml = sheet_xml(&back, &places, 0, false, |k, i| {
        back[k].kept_styles.as_ref().map_or(0, |s| s[i])
    });
    assert_eq!(kept_xml, xml);
    // A title naming a square no grid has is no copy.
    let huge = xml.replacen("C3:F6", "A1:XFD1048576", 1);
    assert_eq!(read_copies("s", &huge).unwrap().len(), 1);
    // Not a sheet of solutions: nothing, and no panic on cut XML.
    assert!(read_copies("s", "<worksheet/>").unwrap().is_empty());
    for cut in (0..xml.len()).step_by(3) {
        if xml.is_char_boundary(cut) {
            let _ = read_copies("s", &xml[..cut]);
        }
    }
}

#[test]
fn sheet_ids_stay_unique_past_the_largest() {
    assert_eq!(free_sheet_id([]), 1);
    assert_eq!(free_sheet_id([1, 7, 3]), 8);
    assert_eq!(free_sheet_id([1, 2, u32::MAX]), 3);
    assert_eq!(free_sheet_id([u32::MAX, 2]), 1);
}

#[test]
fn removing_a_sheet_moves_the_active_and_first_tabs_with_their_sheets() {
    let wb = r#"<workbook><bookViews><workbookView firstSheet="1" activeTab="2"/></bookViews><sheets><sheet name="S"/><sheet name="A"/><sheet name="B"/></sheets></workbook>"#;
    assert_eq!(
        remove_sheet("w", wb, "S").unwrap(),
        r#"<workbook><bookViews><workbookView firstSheet="0" activeTab="1"/></bookViews><sheets><sheet name="A"/><sheet name="B"/></sheets></workbook>"#
    );
    // The active sheet removed, last: the one before it is active.
    let out = remove_sheet("w", wb, "B").unwrap();
    assert!(
        out.contains(r#"<workbookView firstSheet="1" activeTab="1"/>"#),
        "{out}"
    );
    // The last visible sheet stays.
    let hidden = wb.replace(
        r#"<sheet name="A"/><sheet name="B"/>"#,
        r#"<sheet name="A" state="hidden"/><sheet name="B" state="veryHidden"/>"#,
    );
    assert!(matches!(
        remove_sheet("w", &hidden, "S"),
        Err(AnnotateError::Unsupported { .. })
    ));
    assert!(remove_sheet("w", &hidden, "A").is_ok());
    // Before the tabs: nothing moves.
    let wb = wb.replace(r#"firstSheet="1" activeTab="2""#, r#"activeTab="0""#);
    let out = remove_sheet("w", &wb, "B").unwrap();
    assert!(out.contains(r#"<workbookView activeTab="0"/>"#), "{out}");
}

#[test]
fn a_record_line_reads_back() {
    let rec = SolutionsRecord {
        sheet: "Solutions 2".into(),
        part: "xl/worksheets/sheet4.xml".into(),
        digest: digest(b"abc"),
    };
    let line = rec.to_line();
    assert!(line.starts_with("xlsudoku-solutions sheet=Solutions%202 part=xl%2F"));
    assert_eq!(SolutionsRecord::parse_line(&line), Some(rec.clone()));
    let text = format!("xlsudoku 0.1\n{line}\nxlsudoku-grid x");
    assert_eq!(parse_solutions_record(text.as_bytes()), Some(rec));
    for bad in [
        "xlsudoku-solutions sheet= part=a digest=0123456789abcdef",
        "xlsudoku-solutions sheet=S part=a digest=12",
        "xlsudoku-solutions sheet=S digest=0123456789abcdef",
        "xlsudoku-solutions sheet=%G1 part=a digest=0123456789abcdef",
    ] {
        assert_eq!(SolutionsRecord::parse_line(bad), None, "{bad}");
    }
}

#[test]
fn a_sheet_goes_last_with_its_print_area_before_calc_pr() {
    let wb = r#"<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="1"/></workbook>"#;
    let out = add_sheet("w", wb, "Solutions", 2, "rId5", "'Solutions'!$A$1:$J$11").unwrap();
    assert_eq!(
        out,
        r#"<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="A" sheetId="1" r:id="rId1"/><sheet name="Solutions" sheetId="2" r:id="rId5"/></sheets><definedNames><definedName name="_xlnm.Print_Area" localSheetId="1">'Solutions'!$A$1:$J$11</definedName></definedNames><calcPr calcId="1"/></workbook>"#
    );
    // Set again: the old print area goes, the new one comes.
    let again = set_print_area("w", &out, "Solutions", "'Solutions'!$A$1:$B$2").unwrap();
    assert!(again.contains(r#"<definedNames><definedName name="_xlnm.Print_Area" localSheetId="1">'Solutions'!$A$1:$B$2</definedName></definedNames>"#), "{again}");
    // Removed: back to the start.
    let back = remove_sheet("w", &again, "Solutions").unwrap();
    assert_eq!(back, wb);
}

#[test]
fn existing_names_are_kept_and_follow_their_sheets() {
    let wb = r#"<x:workbook xmlns:x="m" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:sheets><x:sheet name="A" sheetId="1" rel:id="rId1"/><x:sheet name="S" sheetId="7" rel:id="rId2"/><x:sheet name="B" sheetId="3" rel:id="rId3"/></x:sheets><x:definedNames><x:definedName name="_xlnm.Print_Area" localSheetId="0">A!$A$1</x:definedName><x:definedName name="k" localSheetId="1">S!$A$1</x:definedName><x:definedName name="_xlnm.Print_Area" localSheetId="2">B!$A$1</x:definedName></x:definedNames></x:workbook>"#;
    let out = remove_sheet("w", wb, "S").unwrap();
    assert_eq!(
        out,
        r#"<x:workbook xmlns:x="m" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:sheets><x:sheet name="A" sheetId="1" rel:id="rId1"/><x:sheet name="B" sheetId="3" rel:id="rId3"/></x:sheets><x:definedNames><x:definedName name="_xlnm.Print_Area" localSheetId="0">A!$A$1</x:definedName><x:definedName name="_xlnm.Print_Area" localSheetId="1">B!$A$1</x:definedName></x:definedNames></x:workbook>"#
    );
    let added = add_sheet("w", &out, "Solutions", 8, "rId9", "v").unwrap();
    assert!(
        added.contains(r#"<x:sheet name="Solutions" sheetId="8" rel:id="rId9"/></x:sheets>"#),
        "{added}"
    );
    assert!(added.contains(r#"B!$A$1</x:definedName><x:definedName name="_xlnm.Print_Area" localSheetId="2">v</x:definedName></x:definedNames>"#), "{added}");
    // No relationships prefix on the root: declared on the element.
    let bare = r#"<workbook><sheets><sheet name="A"/></sheets><definedNames/></workbook>"#;
    let added = add_sheet("w", bare, "S", 2, "rId2", "v").unwrap();
    assert_eq!(
        added,
        format!(
            r#"<workbook><sheets><sheet name="A"/><sheet name="S" sheetId="2" r:id="rId2" xmlns:r="{RELATIONSHIPS_NS}"/></sheets><definedNames><definedName name="_xlnm.Print_Area" localSheetId="1">v</definedName></definedNames></workbook>"#
        )
    );
}

#[test]
fn a_strict_workbook_gets_strict_relationship_ids() {
    let wb = format!(
        r#"<workbook xmlns="{STRICT_MAIN_NS}"><sheets><sheet name="A"/></sheets></workbook>"#
    );
    let out = add_sheet("w", &wb, "S", 2, "rId2", "v").unwrap();
    assert!(
        out.contains(&format!(
            r#"<sheet name="S" sheetId="2" r:id="rId2" xmlns:r="{STRICT_RELATIONSHIPS_NS}"/>"#
        )),
        "{out}"
    );
    let wb = wb.replace(
        "<workbook ",
        &format!(r#"<workbook xmlns:q="{STRICT_RELATIONSHIPS_NS}" "#),
    );
    let out = add_sheet("w", &wb, "S", 2, "rId2", "v").unwrap();
    assert!(
        out.contains(r#"<sheet name="S" sheetId="2" q:id="rId2"/>"#),
        "{out}"
    );
    let xml = sheet_xml(&[], &[], 0, true, |_, _| 0);
    assert!(
        xml.contains(&format!(
            r#"<worksheet xmlns="{STRICT_MAIN_NS}" xmlns:r="{STRICT_RELATIONSHIPS_NS}">"#
        )),
        "{xml}"
    );
}

#[test]
fn truncated_workbook_parts_give_errors_not_panics() {
    let wb = r#"<workbook xmlns:r="R"><sheets><sheet name="A" sheetId="1" r:id="rId1"/><sheet name="S"><x/></sheet></sheets><definedNames><definedName name="n" localSheetId="1">1</definedName></definedNames><calcPr/></workbook>"#;
    for cut in 0..wb.len() {
        let _ = add_sheet("w", &wb[..cut], "T", 3, "rId3", "v");
        let _ = remove_sheet("w", &wb[..cut], "S");
        let _ = set_print_area("w", &wb[..cut], "S", "v");
    }
}
