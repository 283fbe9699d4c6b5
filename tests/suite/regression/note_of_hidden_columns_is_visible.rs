//! A grid whose columns are all hidden (an author hiding the puzzle, or
//! a template with the grid collapsed) got its note in the grid's first
//! column, hidden like the rest: the status could not be seen. The note is
//! never in a hidden column: it goes to the first visible column after the
//! grid.

use std::io::Read;
use std::path::Path;

const SHEET: &str = "xl/worksheets/sheet1.xml";

fn part(path: &Path, name: &str) -> String {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut s = String::new();
    zip.by_name(name).unwrap().read_to_string(&mut s).unwrap();
    s
}

#[test]
fn the_note_of_a_grid_in_hidden_columns_goes_to_a_visible_column() {
    let t = tempfile::tempdir().unwrap();
    // status_logic_easy.xlsx: EASY at C3:K11, with columns C..K hidden.
    let src = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/status_logic_easy.xlsx"),
    )
    .unwrap();
    let edited = crate::util::repack(&src, |name, data| {
        if name != SHEET {
            return Some(data);
        }
        let xml = String::from_utf8(data).unwrap();
        let from = "<col min=\"3\" max=\"11\" width=\"4.7109375\" customWidth=\"1\"/>";
        assert_eq!(xml.matches(from).count(), 1);
        Some(
            xml.replacen(
                from,
                "<col min=\"3\" max=\"11\" width=\"4.7109375\" hidden=\"1\" customWidth=\"1\"/>",
                1,
            )
            .into_bytes(),
        )
    });
    let input = t.path().join("hidden_cols.xlsx");
    std::fs::write(&input, edited).unwrap();
    let out = t.path().join("out.xlsx");
    let o = crate::util::command()
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let xml = part(&out, SHEET);
    let at = xml.find("solved in ").expect("a note");
    let cell_start = xml[..at].rfind("<c ").unwrap();
    let tag = &xml[cell_start..at];
    let r = tag.split("r=\"").nth(1).unwrap().split('"').next().unwrap();
    let col: String = r.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    assert!(
        !["C", "D", "E", "F", "G", "H", "I", "J", "K"].contains(&col.as_str()),
        "the note is at {r}, in a hidden column"
    );
}
