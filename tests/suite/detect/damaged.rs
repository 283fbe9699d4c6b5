//! Damaged workbooks: a part cut short anywhere gives a result or a typed
//! error naming the file, never a panic.

use crate::util::fixture;

use xlsudoku::workbook::{read_workbook, ReadError, ReadOptions};

#[test]
fn parts_cut_short_anywhere_never_panic() {
    let original = crate::util::entries(&std::fs::read(fixture("example.xlsx")).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let mut errors = 0;
    let mut reads = 0;
    for target in [
        "xl/styles.xml",
        "xl/worksheets/sheet1.xml",
        "xl/workbook.xml",
        "xl/_rels/workbook.xml.rels",
    ] {
        let len = original
            .iter()
            .find(|(n, _)| n == target)
            .map(|(_, d)| d.len())
            .unwrap_or_else(|| panic!("no part {target}"));
        for cut in (0..len).step_by(len / 23 + 1) {
            let damaged: Vec<(String, Vec<u8>)> = original
                .iter()
                .map(|(n, d)| {
                    let d = if n == target {
                        d[..cut].to_vec()
                    } else {
                        d.clone()
                    };
                    (n.clone(), d)
                })
                .collect();
            let path = dir
                .path()
                .join(format!("cut_{}_{cut}.xlsx", target.replace('/', "_")));
            std::fs::write(&path, crate::util::pack(&damaged, &[])).unwrap();
            match read_workbook(&path, &ReadOptions::default()) {
                Ok(_) => reads += 1,
                Err(e) => {
                    errors += 1;
                    let msg = e.to_string();
                    assert!(msg.contains("cut_"), "error must name the file: {msg}");
                    assert!(
                        matches!(e, ReadError::NotAWorkbook { .. } | ReadError::Sheet { .. }),
                        "{e:?}"
                    );
                }
            }
        }
    }
    assert!(errors > 0, "cutting the sheet part short must be noticed");
    assert!(reads + errors > 50);
}

#[test]
fn missing_sheet_part_is_a_sheet_error_naming_the_sheet() {
    let damaged: Vec<(String, Vec<u8>)> =
        crate::util::entries(&std::fs::read(fixture("example.xlsx")).unwrap())
            .into_iter()
            .filter(|(n, _)| n != "xl/worksheets/sheet2.xml")
            .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no_sheet2.xlsx");
    std::fs::write(&path, crate::util::pack(&damaged, &[])).unwrap();
    let err = read_workbook(&path, &ReadOptions::default()).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("no_sheet2.xlsx"), "{msg}");
    assert!(msg.contains("Big"), "names the sheet: {msg}");
}
