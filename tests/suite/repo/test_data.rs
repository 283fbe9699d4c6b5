//! The data the tests and benchmarks read lives in the repository, with its
//! origin and licence beside it, and a test whose data is missing fails
//! with a message naming the folder instead of skipping itself.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn benchmark_sets_and_corpus_are_in_the_repository_with_their_sources() {
    let bench = root().join("benches/data");
    assert!(bench.join("README.md").is_file());
    for (dir, files) in [
        (
            "9x9",
            &[
                "puzzles2_17_clue",
                "puzzles3_magictour_top1465",
                "puzzles5_forum_hardest_1905_11+",
                "puzzles6_forum_hardest_1106",
                "puzzles7_serg_benchmark",
                "gen_random_minimal_10k.txt",
            ][..],
        ),
        ("16x16", &["gecode_16x16.txt"][..]),
        (
            "25x25",
            &[
                "gecode_25x25.txt",
                "liamjdavis_25x25_valid.txt",
                "liamjdavis_25x25_invalid.txt",
            ][..],
        ),
    ] {
        let readme = std::fs::read_to_string(bench.join(dir).join("README.txt"))
            .unwrap_or_else(|e| panic!("benches/data/{dir}/README.txt: {e}"));
        for file in files {
            assert!(bench.join(dir).join(file).is_file(), "{dir}/{file}");
            assert!(readme.contains(file), "{dir}/README.txt names no {file}");
        }
        assert!(
            readme.contains("MIT") || readme.contains("BSD"),
            "{dir}: licence"
        );
    }
    let corpus = root().join("tests/corpus");
    for file in ["README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(corpus.join(file).is_file(), "tests/corpus/{file}");
    }
    let readme = std::fs::read_to_string(corpus.join("README.md")).unwrap();
    assert!(readme.contains("rust_xlsxwriter") && readme.contains("MIT OR Apache-2.0"));
    // Counted here, not through `corpus_files`, to check the count on its
    // own.
    let workbooks = std::fs::read_dir(&corpus)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.path()
                .extension()
                .is_some_and(|x| x == "xlsx" || x == "xlsm")
        })
        .count();
    assert!(
        workbooks >= crate::util::CORPUS_MIN,
        "{workbooks} workbooks"
    );
}

#[test]
fn missing_test_data_fails_with_a_message_naming_the_folder() {
    // The folders come as arguments (what `XLSUDOKU_CORPUS` and
    // `XLSUDOKU_BENCH_DIR` would name): the tests share one process, and
    // changing its environment would move the data of the tests running
    // beside this one.
    let gone = tempfile::tempdir().unwrap().path().join("gone");
    let corpus = std::panic::catch_unwind(|| crate::util::corpus_files_in(Some(gone.clone())));
    let bench =
        std::panic::catch_unwind(|| crate::util::bench_text_in(&gone, "25x25/gecode_25x25.txt"));
    let message = |e: Box<dyn std::any::Any + Send>| -> String {
        e.downcast_ref::<String>().cloned().unwrap_or_default()
    };
    let corpus = message(corpus.expect_err("a missing corpus fails"));
    assert!(
        corpus.contains("corpus is missing") && corpus.contains(&*gone.to_string_lossy()),
        "{corpus}"
    );
    let bench = message(bench.expect_err("missing puzzles fail"));
    assert!(
        bench.contains("benchmark puzzles missing") && bench.contains("gecode_25x25.txt"),
        "{bench}"
    );
}
