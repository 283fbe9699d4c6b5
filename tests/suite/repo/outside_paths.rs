//! `.ci/no-outside-paths`, the guard `.ci/run` calls: it passes on the
//! repository and fails on a planted path outside it, wherever the guard
//! looks (code, tests, benchmarks, examples, fixture scripts).

use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the repository's guard on the tree at `dir`.
fn guard(dir: &Path) -> Output {
    Command::new("bash")
        .arg(root().join(".ci/no-outside-paths"))
        .arg(dir)
        .output()
        .expect("bash runs the guard")
}

/// A scratch tree holding one file, `rel`, with `text` in it.
fn tree_with(rel: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    dir
}

#[test]
fn the_repository_names_no_path_outside_itself() {
    let o = guard(root());
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn guard_fails_on_a_planted_shared_reference() {
    // Spelled in pieces so that this file itself passes the guard.
    let shared = ["..", "/sha", "red/bench/9x9"].concat();
    let planted = [
        ("tests/search.rs", format!("let p = \"{shared}\";")),
        ("src/lib.rs", format!("// read {shared} first")),
        (
            "benches/datasets.rs",
            ["let p = \"", "/work", "/sha", "red/bench\";"].concat(),
        ),
        (
            "examples/make.rs",
            ["let p = \"", "/home", "/me/data\";"].concat(),
        ),
        ("fixtures/make.py", ["p = '", "/root", "/corpus'"].concat()),
        (
            "tests/suite/util/mod.rs",
            ["// see ", "/Users", "/me/corpus"].concat(),
        ),
    ];
    for (rel, text) in planted {
        let dir = tree_with(rel, &text);
        let o = guard(dir.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{rel}: {text}\n{err}");
        assert!(err.contains(rel), "{rel} not named:\n{err}");
    }
}

#[test]
fn guard_lets_web_addresses_and_paths_inside_the_repository_pass() {
    for text in [
        "// from eleves.ens.fr/home/frisch/sudoku.html",
        "let p = root.join(\"benches/data/9x9\");",
        "let p = std::env::temp_dir().join(\"x\");",
    ] {
        let dir = tree_with("src/lib.rs", text);
        let o = guard(dir.path());
        assert!(
            o.status.success(),
            "{text}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
