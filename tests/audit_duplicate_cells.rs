//! A cell given twice in the sheet data (a `<row>` repeated, or one `<c>`
//! repeated, as a merge tool or hand edit leaves it). xlsudoku read one
//! occurrence and filled the grid, the patcher edited one occurrence, and
//! other readers take the other: the copy, opened elsewhere, showed the
//! puzzle unsolved (or its givens as blanks) while xlsudoku reported it
//! solved, exit 0. Such a sheet is refused by `check` and `solve` alike
//! (exit 2, naming the cell), and nothing is written.

mod common;

use common::fixture;

use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SHEET: &str = "xl/worksheets/sheet1.xml";

/// `status_logic_easy.xlsx` (EASY at C3:K11) with its sheet XML edited.
fn easy_with(dir: &Path, name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let bytes = std::fs::read(fixture("status_logic_easy.xlsx")).unwrap();
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let name = f.name().unwrap().to_string();
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        if name == SHEET {
            data = edit(String::from_utf8(data).unwrap()).into_bytes();
        }
        w.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(&data).unwrap();
    }
    let path = dir.join(name);
    std::fs::write(&path, w.finish().unwrap().into_inner()).unwrap();
    path
}

fn xlsudoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xlsudoku"))
        .args(args)
        .output()
        .expect("run xlsudoku")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn refused(dir: &Path, input: &Path, cell: &str) {
    let before = std::fs::read(input).unwrap();
    let out = dir.join("out.xlsx");
    let check = xlsudoku(&["check", input.to_str().unwrap()]);
    let solve = xlsudoku(&[input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(2), "check: {}", text(&check));
    assert_eq!(solve.status.code(), Some(2), "solve: {}", text(&solve));
    assert!(
        text(&solve).contains(cell),
        "names {cell}: {}",
        text(&solve)
    );
    assert!(!out.exists(), "no copy is written");
    assert_eq!(std::fs::read(input).unwrap(), before, "input unchanged");
}

/// The `<row r="N">…</row>` element of row `n`.
fn row_element(xml: &str, n: u32) -> String {
    let start = xml.find(&format!("<row r=\"{n}\"")).unwrap();
    let end = start + xml[start..].find("</row>").unwrap() + "</row>".len();
    xml[start..end].to_string()
}

#[test]
fn a_row_given_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Row 3 (givens and blanks) repeated after row 5, blanks and all.
    let input = easy_with(dir.path(), "dup_row.xlsx", |xml| {
        let row3 = row_element(&xml, 3);
        let row5 = row_element(&xml, 5);
        xml.replacen(&row5, &format!("{row5}{row3}"), 1)
    });
    refused(dir.path(), &input, "C3");
}

#[test]
fn a_cell_given_twice_in_its_row_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // E3 (a blank) repeated at the end of row 3, holding a digit.
    let input = easy_with(dir.path(), "dup_cell.xlsx", |xml| {
        let row3 = row_element(&xml, 3);
        let twice = row3.replacen("</row>", "<c r=\"E3\"><v>4</v></c></row>", 1);
        xml.replacen(&row3, &twice, 1)
    });
    refused(dir.path(), &input, "E3");
}
