//! Crashes the fuzz targets (`fuzz/`) found, each pinned by a test that runs
//! the same checks as the target on its reproducer. A reproducer is built
//! here from a fixture and a small change (what the `xml_part` target does:
//! one part of a fixture package replaced), or kept as the fuzzer's input in
//! `tests/fuzz_regressions/`.

use std::io::{Cursor, Read, Write};
use std::path::Path;
use std::time::Duration;

use xlsudoku::annotate::{annotate, SheetEdits};
use xlsudoku::batch::solve_grid;
use xlsudoku::solve::SolveOptions;
use xlsudoku::workbook::{read_workbook_bytes, Cell, ReadOptions, Sheet};

const NAME: &str = "fuzz.xlsx";

fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(crate::util::fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A fuzz input kept in `tests/fuzz_regressions/`.
fn reproducer(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_regressions")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The content of one entry of a package.
fn part_of(package: &[u8], part: &str) -> String {
    let mut archive = zip::ZipArchive::new(Cursor::new(package)).expect("a zip package");
    let mut text = String::new();
    archive
        .by_name(part)
        .expect("the part")
        .read_to_string(&mut text)
        .expect("UTF-8 XML");
    text
}

/// `base` with the entry `part` replaced by (or, if absent, added as)
/// `content`, stored uncompressed; every other entry copied as stored.
fn with_part(base: &[u8], part: &str, content: &[u8]) -> Vec<u8> {
    let mut archive = zip::ZipArchive::new(Cursor::new(base)).expect("a zip package");
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut written = false;
    for i in 0..archive.len() {
        let file = archive.by_index_raw(i).expect("an entry");
        if file.name().expect("an entry name") == part {
            drop(file);
            writer.start_file(part, stored).unwrap();
            writer.write_all(content).unwrap();
            written = true;
        } else {
            writer.raw_copy_file(file).unwrap();
        }
    }
    if !written {
        writer.start_file(part, stored).unwrap();
        writer.write_all(content).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// A fixture with one part's text changed by `edit`, which must change it.
fn fixture_with(name: &str, part: &str, edit: impl Fn(&str) -> String) -> Vec<u8> {
    let base = fixture_bytes(name);
    let before = part_of(&base, part);
    let after = edit(&before);
    assert_ne!(before, after, "the edit changes {part}");
    with_part(&base, part, after.as_bytes())
}

/// The `annotate_roundtrip` target's checks: read, solve every grid, write
/// the copy, read it back with the same sheets and every given kept. A
/// refusal (an error) is fine; returns whether the workbook was read.
fn roundtrip(data: &[u8]) -> bool {
    let path = Path::new(NAME);
    let opts = ReadOptions::default();
    let Ok(sheets) = read_workbook_bytes(path, data, &opts) else {
        return false;
    };
    let solve = SolveOptions {
        logic_only: false,
        timeout: Some(Duration::from_secs(5)),
        ..SolveOptions::default()
    };
    let mut edits: Vec<SheetEdits> = Vec::new();
    for sheet in &sheets {
        for grid in &sheet.grids {
            let (_, cells) = solve_grid(NAME, &sheet.name, grid, &solve, &Default::default());
            match edits.iter_mut().find(|e| e.sheet == sheet.name) {
                Some(e) => e.cells.extend(cells),
                None => edits.push(SheetEdits {
                    sheet: sheet.name.clone(),
                    cells,
                }),
            }
        }
    }
    let mut out = Cursor::new(Vec::new());
    if annotate(Cursor::new(data), &edits, &mut out).is_err() {
        return true;
    }
    let copy = out.into_inner();
    let again = read_workbook_bytes(path, &copy, &opts)
        .unwrap_or_else(|e| panic!("the annotated copy does not read back: {e}"));
    let names = |s: &[Sheet]| s.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&sheets), names(&again), "the copy's sheets differ");
    for (before, after) in sheets.iter().zip(&again) {
        for grid in &before.grids {
            let Some(same) = after
                .grids
                .iter()
                .find(|g| g.range == grid.range && g.shape == grid.shape)
            else {
                continue;
            };
            for (i, (a, b)) in grid.cells.iter().zip(&same.cells).enumerate() {
                if let Cell::Given(v) = a {
                    assert_eq!(
                        b,
                        &Cell::Given(*v),
                        "the given at {} (left: the copy, right: the input)",
                        grid.cell_ref(i)
                    );
                }
            }
        }
    }
    true
}

/// `<dimension ref="AR1:R18"/>` (end before start) made calamine subtract
/// with overflow in debug builds (`xl/worksheets/sheet1.xml`, found by
/// `xml_part`). Release builds wrap and never use the result; the
/// `profile.dev.package.calamine` setting in Cargo.toml gives debug builds
/// the same arithmetic.
#[test]
fn a_reversed_dimension_is_no_crash() {
    let book = fixture_with("example.xlsx", "xl/worksheets/sheet1.xml", |xml| {
        xml.replace(
            r#"<dimension ref="A1:K11"/>"#,
            r#"<dimension ref="AR1:R18"/>"#,
        )
    });
    assert!(roundtrip(&book), "the workbook reads");
}

/// A cell reference with a long run of column letters (`xml_part` wrote
/// `r="Jopenxmlformats.org"` from pieces of a namespace) made calamine
/// multiply with overflow in debug builds; with release arithmetic it is a
/// read error.
#[test]
fn a_reference_with_too_many_column_letters_is_no_crash() {
    let book = fixture_with("example.xlsx", "xl/worksheets/sheet1.xml", |xml| {
        xml.replace(r#"<c r="C3""#, r#"<c r="Jopenxmlformats.org""#)
    });
    roundtrip(&book);
}

/// References far beyond the sheet, found by `xml_part` from the
/// dictionary's token: `r="ZZZZZZZZZZ99999999999"` (a capacity overflow
/// panic) and `r="D4ZZZZZZZZZZ99999999999"` (calamine's dense range asks for
/// 665 GB and the process aborts): the known defect of issue 13, point 2.
#[test]
fn a_reference_far_beyond_the_sheet_is_no_crash() {
    for far in ["ZZZZZZZZZZ99999999999", "D4ZZZZZZZZZZ99999999999"] {
        let book = fixture_with("example.xlsx", "xl/worksheets/sheet1.xml", |xml| {
            xml.replacen(r#"<c r="C3""#, &format!(r#"<c r="{far}""#), 1)
        });
        roundtrip(&book);
    }
}

/// Damaged OLE compound files (found by `read_workbook` from the encrypted
/// fixture): calamine's compound file reader, which the reader used to ask
/// whether such a file is an encrypted workbook, panicked on a sector cut
/// short (slice index out of range), on a sector whose length is not a
/// multiple of 4 (an assertion) and ran out of memory (over 4 GB) on a third.
/// The reader now tells an encrypted workbook by its `EncryptedPackage`
/// stream's name; each is a clean error, and the patcher refuses them too.
#[test]
fn damaged_ole_files_are_errors_not_crashes() {
    for name in [
        "cfb_short_sector.bin",
        "cfb_odd_sector.bin",
        "cfb_out_of_memory.bin",
    ] {
        let data = reproducer(name);
        let err = read_workbook_bytes(Path::new(NAME), &data, &ReadOptions::default())
            .map(|_| ())
            .expect_err(name);
        assert!(err.to_string().contains(NAME), "{name}: {err}");
        assert!(!roundtrip(&data), "{name}");
        let mut out = Cursor::new(Vec::new());
        assert!(
            annotate(Cursor::new(&data), &[], &mut out).is_err(),
            "{name}"
        );
    }
}

/// The encrypted fixture is still told from an old `.xls` without calamine's
/// compound file reader (an `.xls` is read: tests/suite/detect/legacy.rs).
#[test]
fn encrypted_and_old_binary_workbooks_are_still_told_apart() {
    let read = |name: &str| {
        read_workbook_bytes(
            Path::new(name),
            &fixture_bytes(name),
            &ReadOptions::default(),
        )
        .map(|_| ())
        .unwrap_err()
        .to_string()
    };
    assert!(read("encrypted.xlsx").contains("encrypted"));
    assert!(read_workbook_bytes(
        Path::new("old_format.xls"),
        &fixture_bytes("old_format.xls"),
        &ReadOptions::default()
    )
    .is_ok());
}

/// A cell whose reference names another row (`<c r="F4"><v>8</v>` inside
/// row 7, where F7 should be; F4 already holds 1 in row 4; found by
/// `xml_part`): the patch wrote the fill of F7 over the misfiled element,
/// so the 8 was lost. Such a sheet is now refused, naming the cell (by
/// `check` and `solve` alike: `regression::cells_filed_under_another_row`).
#[test]
fn a_cell_filed_under_another_rows_reference_is_refused() {
    let book = fixture_with("example.xlsx", "xl/worksheets/sheet1.xml", |xml| {
        xml.replace(r#"<c r="F7" s="4">"#, r#"<c r="F4" s="4">"#)
    });
    assert!(!roundtrip(&book), "a damaged sheet is refused");
    let err = read_workbook_bytes(Path::new(NAME), &book, &ReadOptions::default()).unwrap_err();
    assert!(err.to_string().contains("cell F4 stands in row 7"), "{err}");
}

/// A damaged `xl/styles.xml` in `openpyxl_fidelity.xlsx` (the `xml_part`
/// input kept as is: a selector byte, then the part): the input reads K5 of
/// sheet 'Puzzle' as a given 1, the copy as an earlier run's fill (blue
/// italics), which the next run would clear. Cause not yet known; the part
/// has many mutations (a misspelt `xmlNs`, garbled `indexedColors` entries,
/// one `cellXfs` entry with another font).
///
/// An earlier run's fills are now known from the copy's grid records, never
/// from the font, so no style sheet can turn a given into a fill; this one
/// is refused outright by the reader. `roundtrip` fails if a workbook it
/// reads loses a given.
#[test]
fn a_damaged_style_sheet_does_not_turn_a_given_into_a_fill() {
    let input = reproducer("styles_given_reads_as_fill.bin");
    let book = with_part(
        &fixture_bytes("openpyxl_fidelity.xlsx"),
        "xl/styles.xml",
        &input[1..],
    );
    let _read = roundtrip(&book);
}

/// An element other than a cell inside a row (`<oc r="I5" s="7"/>` in
/// row 5 of `layout_text_givens.xlsx`; found by `xml_part` on the merged
/// reader): the reader skipped it, the patcher filling I5 then wrote K5
/// twice and the copy did not read back. Such a sheet is refused, naming
/// the element and the row.
#[test]
fn an_element_other_than_a_cell_in_a_row_is_refused() {
    let input = reproducer("xml_part_unknown_element_in_row.bin");
    let book = with_part(
        &fixture_bytes("layout_text_givens.xlsx"),
        "xl/worksheets/sheet1.xml",
        &input[1..],
    );
    assert!(!roundtrip(&book), "a damaged sheet is refused");
    let err = read_workbook_bytes(Path::new(NAME), &book, &ReadOptions::default()).unwrap_err();
    assert!(err.to_string().contains("<oc> stands in row 5"), "{err}");
}

/// A damaged `xl/_rels/workbook.xml.rels` with no `</Relationships>` and
/// no styles relationship (found by `xml_part` on merged main): the patcher
/// added its own style sheet and put the relationship before the last
/// `</` it saw, inside a broken tag, so the copy did not read back. The
/// relationship now goes before the root's real end tag, and a part
/// without one is refused (by `check` too, which builds the copy).
#[test]
fn relationships_without_a_root_end_tag_are_refused_not_patched_blind() {
    let input = reproducer("xml_part_rels_without_root_end.bin");
    let book = with_part(
        &fixture_bytes("layout_text_givens.xlsx"),
        "xl/_rels/workbook.xml.rels",
        &input[1..],
    );
    // Read: the reader takes the relationships it can; the copy is refused.
    assert!(
        roundtrip(&book),
        "the input reads; roundtrip checks the copy"
    );
}
