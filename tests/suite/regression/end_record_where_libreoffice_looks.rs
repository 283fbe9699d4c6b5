//! LibreOffice (7.4, the version Debian 12 and Ubuntu 22.04/24.04 LTS
//! install with `apt-get install libreoffice-calc-nogui`) looks for a zip
//! archive's end record only in the last 22 + 512 bytes of the file, so a
//! zip comment longer than 512 bytes hides it and the file "could not be
//! loaded". The copies once kept their stamp and grid records in the
//! comment (about 600 bytes for one 9x9 grid) and LibreOffice could open
//! none of them; the records now live in a part of the copy and the
//! comment keeps one short line. `other_programs.rs` checks the same on a
//! workbook of several sheets where LibreOffice is installed.

use crate::util::fixture;

/// LibreOffice 7.x finds the end record only this far from the end.
const LIBREOFFICE_COMMENT_LIMIT: usize = 512;

fn solved_copy(dir: &std::path::Path) -> std::path::PathBuf {
    let out = dir.join("copy.xlsx");
    let o = crate::util::command()
        .arg(fixture("status_logic_easy.xlsx"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
fn the_copy_keeps_its_end_record_where_libreoffice_looks_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = solved_copy(dir.path());
    let zip = zip::ZipArchive::new(std::fs::File::open(&out).unwrap()).unwrap();
    let len = zip.comment().len();
    assert!(
        len <= LIBREOFFICE_COMMENT_LIMIT,
        "zip comment of {len} bytes: LibreOffice 7.x cannot open the copy"
    );
}

#[test]
fn libreoffice_converts_a_single_grid_copy() {
    if !crate::util::soffice_found() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = solved_copy(dir.path());
    let csv = dir.path().join("csv");
    let o = crate::util::soffice_convert("csv", &csv, &dir.path().join("profile"), [&out]);
    assert!(
        csv.join("copy.csv").is_file(),
        "LibreOffice could not load the copy: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}
