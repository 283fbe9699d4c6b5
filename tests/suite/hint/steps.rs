//! The hint's step is `explain`'s first step from the same position.

use super::json_lines;
use crate::util::{bench_text, fixture, xlsudoku};

use serde_json::Value;

/// The first step `explain --puzzle LINE --json` gives.
fn explains_first(line: &str) -> Value {
    let o = xlsudoku(&["explain", "--puzzle", line, "--json"]);
    let grids = json_lines(&o);
    grids[0]["steps"][0].clone()
}

#[test]
fn on_every_fixture_the_hint_is_explains_first_step_from_the_same_position() {
    let dir = tempfile::tempdir().unwrap();
    let mut compared = 0;
    let mut names: Vec<String> = std::fs::read_dir(fixture(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".xlsx") || n.ends_with(".xls") || n.ends_with(".ods"))
        .collect();
    names.sort();
    for name in names {
        let out = dir.path().join(format!("{name}.hint.xlsx"));
        let o = xlsudoku(&[
            "hint",
            "--json",
            fixture(&name).to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        let code = o.status.code().unwrap();
        if code == 2 {
            // Not a workbook (encrypted, truncated, a zip bomb ...).
            assert!(!out.exists(), "{name}: a copy after a file error");
            continue;
        }
        // `explain` on the same workbook starts from the givens it reads
        // (every digit, an earlier run's fills left out): where that is
        // the hint's position, its first step is the hint's.
        let explained = json_lines(&xlsudoku(&[
            "explain",
            "--json",
            fixture(&name).to_str().unwrap(),
        ]));
        for g in json_lines(&o) {
            if g["status"] != "step" {
                continue;
            }
            let position = g["position"].as_str().unwrap();
            let digits = position.chars().filter(|c| *c != '.').count() as u64;
            let e = explained
                .iter()
                .find(|e| e["sheet"] == g["sheet"] && e["range"] == g["range"])
                .unwrap_or_else(|| panic!("{name} {}: not explained", g["range"]));
            if e["givens"].as_u64() != Some(digits) {
                continue;
            }
            assert_eq!(
                g["step"], e["steps"][0],
                "{name} {}: {position}",
                g["range"]
            );
            compared += 1;
        }
    }
    assert!(compared >= 40, "only {compared} grids hinted");
}

#[test]
fn on_200_benchmark_puzzles_the_hint_is_explains_first_step() {
    let mut lines: Vec<String> = Vec::new();
    for (set, take) in [
        ("9x9/puzzles3_magictour_top1465", 100),
        ("9x9/gen_random_minimal_10k.txt", 100),
    ] {
        lines.extend(
            bench_text(set)
                .lines()
                .filter(|l| l.len() >= 81 && !l.starts_with('#'))
                .take(take)
                .map(|l| l[..81].to_string()),
        );
    }
    assert_eq!(lines.len(), 200);
    for line in &lines {
        let o = xlsudoku(&["hint", "--json", "--puzzle", line]);
        let hint = &json_lines(&o)[0];
        assert_eq!(hint["status"], "step", "{line}");
        assert_eq!(hint["step"], explains_first(line), "{line}");
    }
}
