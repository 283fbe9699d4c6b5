//! An input whose default output name (`NAME.solved.xlsx`) is longer than
//! the file system allows. The copy cannot be written at all, yet the
//! error said the existing output "cannot be read; left as it is (move it
//! away, or --force replaces it)": there is no such file, and --force
//! changes nothing. The error must say the name is too long.

use std::path::Path;

#[cfg(unix)]
#[test]
fn an_output_name_too_long_is_named_as_such_not_as_a_foreign_file() {
    let t = tempfile::tempdir().unwrap();
    // 244 + ".xlsx" fits (249); 244 + ".solved.xlsx" (256) does not.
    let input = t.path().join(format!("{}.xlsx", "c".repeat(244)));
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/status_logic_easy.xlsx"),
        &input,
    )
    .unwrap();
    let before = std::fs::read(&input).unwrap();
    let o = crate::util::command().arg(&input).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("too long"), "names the cause: {err}");
    assert!(!err.contains("--force"), "--force would not help: {err}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}
