//! The annotated copy as other programs see it: openpyxl finds everything
//! of the input kept (values, formulas, borders, fills, merged cells, data
//! validations, conditional formats, comments, names), and LibreOffice
//! opens it and shows the solved grids.
//!
//! openpyxl (`pip install -r fixtures/requirements.txt`) and LibreOffice
//! (`apt-get install libreoffice-calc-nogui`) are installed by `.ci/run`.
//! Where one is missing, its test says so (a `SKIPPED:` line that `cargo
//! test` shows) and passes, except under CI (`CI=true`), where a missing
//! openpyxl fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use xlsudoku::workbook::{read_workbook, ReadOptions};

/// Workbooks written by rust_xlsxwriter, openpyxl and LibreOffice.
const INPUTS: [&str; 7] = [
    "example.xlsx",
    "openpyxl_fidelity.xlsx",
    "openpyxl_row_col_styles.xlsx",
    "libreoffice_example.xlsx",
    "libreoffice_openpyxl_fidelity.xlsx",
    "layout_text_givens.xlsx",
    "macro.xlsm",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn solve_all(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    INPUTS
        .iter()
        .map(|name| {
            let input = root().join("fixtures").join(name);
            let out = dir.join(name);
            let o = crate::util::command()
                .args([input.to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"])
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(0), "{name}");
            (input, out)
        })
        .collect()
}

/// Says on the real stderr, past the test harness's capture, that a test
/// skipped itself and why: `cargo test` shows the line without
/// `--nocapture`.
fn skipped(why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
}

fn has_python_module(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn openpyxl_finds_everything_of_the_input_kept() {
    if !has_python_module("openpyxl") {
        assert!(
            std::env::var("CI").is_err(),
            "openpyxl is missing under CI: .ci/run installs fixtures/requirements.txt"
        );
        skipped("python3 with openpyxl not found (pip install -r fixtures/requirements.txt)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (input, out) in solve_all(dir.path()) {
        let o = Command::new("python3")
            .arg(root().join("tests/compare_openpyxl.py"))
            .args([&input, &out])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{}:\n{}{}",
            input.display(),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn libreoffice_opens_the_copy_and_shows_the_solved_grids() {
    if !crate::util::soffice_found() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let solved = solve_all(dir.path());
    let resaved = dir.path().join("resaved");
    std::fs::create_dir_all(&resaved).unwrap();
    // LibreOffice loads each copy and saves it again as .xlsx; what it saves
    // is what it understood.
    let profile = dir.path().join("lo-profile");
    let o = crate::util::soffice_convert(
        "xlsx",
        &resaved,
        &profile,
        solved.iter().map(|(_, out)| out),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (input, out) in &solved {
        let stem = out.file_stem().unwrap().to_str().unwrap();
        let again = resaved.join(format!("{stem}.xlsx"));
        let before = read_workbook(input, &ReadOptions::default()).unwrap();
        let after = read_workbook(&again, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("LibreOffice could not resave {}: {e}", out.display()));
        let names = |s: &[xlsudoku::workbook::Sheet]| -> Vec<String> {
            s.iter().map(|x| x.name.clone()).collect()
        };
        assert_eq!(names(&before), names(&after), "{}", input.display());
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(
                b.grids.len(),
                a.grids.len(),
                "{} {}",
                input.display(),
                b.name
            );
            for (gb, ga) in b.grids.iter().zip(&a.grids) {
                let grid = ga.shown();
                assert!(
                    grid.solves(&gb.puzzle()),
                    "{} {}: LibreOffice shows\n{grid}",
                    input.display(),
                    b.name
                );
            }
        }
    }
}
