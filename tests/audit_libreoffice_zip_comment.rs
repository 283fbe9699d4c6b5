//! LibreOffice (7.4, the version Debian 12 and Ubuntu 22.04/24.04 LTS
//! install with `apt-get install libreoffice-calc-nogui`) cannot open any
//! annotated copy: `soffice --convert-to` says "source file could not be
//! loaded". Its zip reader looks for the end-of-central-directory record
//! only in the last 22 + 512 bytes of the file, so a zip comment longer
//! than 512 bytes hides it; the copy's comment holds the stamp line and
//! one `xlsudoku-grid` record per grid, about 600 bytes for a single 9x9
//! grid (a copy re-zipped with the same parts and no comment, or a comment
//! of 512 bytes, opens; 513 bytes does not). `other_programs.rs` catches
//! it only where LibreOffice is installed (elsewhere it skips).
//!
//! Not a small fix: the stamp and grid records must fit in 512 bytes or
//! move out of the archive comment (e.g. into a central-directory file
//! comment, which readers skip by its length), and every reader of the
//! stamp (`batch::existing_output`, `annotate::record`) follow.

mod common;

use common::fixture;

use std::process::Command;

/// LibreOffice 7.x finds the end record only this far from the end.
const LIBREOFFICE_COMMENT_LIMIT: usize = 512;

fn solved_copy(dir: &std::path::Path) -> std::path::PathBuf {
    let out = dir.join("copy.xlsx");
    let o = Command::new(env!("CARGO_BIN_EXE_xlsudoku"))
        .arg(fixture("status_logic_easy.xlsx"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
#[ignore = "defect: the copy's zip comment (stamp + grid records, ~600 bytes for one 9x9 grid) exceeds the 512 bytes LibreOffice 7.x scans for the end record, so LibreOffice cannot open any annotated copy"]
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
#[ignore = "defect: LibreOffice 7.4 says 'source file could not be loaded' for every annotated copy (zip comment over 512 bytes)"]
fn libreoffice_converts_a_single_grid_copy() {
    if !Command::new("soffice")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("skipped: soffice not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = solved_copy(dir.path());
    let csv = dir.path().join("csv");
    let o = Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            dir.path().join("profile").display()
        ))
        .args([
            "--headless",
            "--norestore",
            "--convert-to",
            "csv",
            "--outdir",
        ])
        .arg(&csv)
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        csv.join("copy.csv").is_file(),
        "LibreOffice could not load the copy: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}
