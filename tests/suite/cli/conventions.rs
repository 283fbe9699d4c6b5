//! The conventions of the command-line tools xlsudoku sits beside: shell
//! completions and a man page generated from the same definitions as the
//! parser, and a `--version` that names the instruction set the 9x9
//! engine picked.

use crate::util::stdout;
use crate::util::xlsudoku;
use std::process::Output;

#[test]
fn completions_for_each_shell_name_the_commands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = xlsudoku(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {o:?}");
        let script = stdout(&o);
        for word in ["check", "bench", "logic-only", "junit"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    let bash = stdout(&xlsudoku(&["completions", "bash"]));
    assert!(bash.contains("complete -F _xlsudoku"), "{bash}");
}

#[test]
fn completions_refuse_an_unknown_shell() {
    let o = xlsudoku(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bash"));
}

#[test]
fn man_page_is_roff_with_every_command_and_its_options() {
    let o = xlsudoku(&["man"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let page = stdout(&o);
    assert!(page.contains(".TH xlsudoku 1"), "{page}");
    assert_eq!(page.matches(".TH ").count(), 1, "one page");
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH \"XLSUDOKU SOLVE\"",
        ".SH \"XLSUDOKU CHECK\"",
        ".SH \"XLSUDOKU BENCH\"",
        ".SH \"XLSUDOKU COMPLETIONS\"",
        ".SH \"XLSUDOKU MAN\"",
    ] {
        assert!(page.contains(section), "no {section}");
    }
    for option in [
        "logic\\-only",
        "\\-\\-junit",
        "\\-\\-timeout",
        "\\-\\-shard",
    ] {
        assert!(page.contains(option), "no {option}");
    }
}

#[test]
fn version_names_the_instruction_set_the_9x9_engine_picked() {
    let o = xlsudoku(&["--version"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = stdout(&o);
    assert!(
        text.starts_with(&format!("xlsudoku {}\n", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    let isa = xlsudoku::search::engine_isa_name();
    assert!(["baseline", "bmi2", "bmi2+pext"].contains(&isa));
    assert!(
        text.contains(&format!("9x9 engine: {isa}")),
        "{text} should name {isa}"
    );
    let short = stdout(&xlsudoku(&["-V"]));
    assert_eq!(
        short.trim(),
        format!("xlsudoku {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_mistyped_command_gets_a_suggestion_and_a_real_path_is_still_a_path() {
    let d = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        crate::util::command()
            .args(args)
            .current_dir(d.path())
            .output()
            .expect("run xlsudoku")
    };
    let o = run(&["chekc", "puzzles/"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("did you mean the command 'check'"), "{err}");
    assert!(err.contains("chekc"), "{err}");
    // Flags before the word are passed over, and their values too.
    let o = run(&["-q", "genrate", "-n", "1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("'generate'"), "{err}");
    // A file of that name is read as a workbook, not taken for a command.
    std::fs::write(d.path().join("chekc"), b"not a workbook").unwrap();
    let o = run(&["chekc"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("did you mean"), "{err}");
    assert!(err.contains("chekc"), "{err}");
}

/// The commands of one step of a workflow file: the lines of its `run: |`
/// block.
fn step_commands(workflow: &str, step: &str) -> Vec<String> {
    let mut lines = workflow
        .lines()
        .skip_while(|l| !l.contains(&format!("name: {step}")));
    let run = lines
        .find(|l| l.trim_start().starts_with("run: |"))
        .unwrap_or_else(|| panic!("step {step} has no run block"));
    let indent = run.len() - run.trim_start().len();
    lines
        .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() > indent)
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_ci_example_runs_as_written() {
    let root = env!("CARGO_MANIFEST_DIR");
    let example = std::fs::read_to_string(format!("{root}/examples/ci/check-puzzles.yml")).unwrap();
    let commands = step_commands(&example, "Check the puzzles");
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("xlsudoku check puzzles/")),
        "{commands:?}"
    );
    let d = tempfile::tempdir().unwrap();
    let puzzles = d.path().join("puzzles");
    std::fs::create_dir(&puzzles).unwrap();
    for name in ["status_logic_easy.xlsx", "status_needs_guess.xlsx"] {
        std::fs::copy(format!("{root}/fixtures/{name}"), puzzles.join(name)).unwrap();
    }
    let run_all = || -> Vec<Output> {
        commands
            .iter()
            .map(|c| {
                let words: Vec<&str> = c.split_whitespace().collect();
                assert_eq!(words[0], "xlsudoku", "{c}: the example runs xlsudoku alone");
                crate::util::command()
                    .args(&words[1..])
                    .current_dir(d.path())
                    .output()
                    .expect("run xlsudoku")
            })
            .collect()
    };
    for o in run_all() {
        assert_eq!(o.status.code(), Some(0), "{o:?}");
    }
    let junit = std::fs::read_to_string(d.path().join("junit.xml")).unwrap();
    assert!(
        junit.contains("<testsuite") && junit.contains("failures=\"0\""),
        "{junit}"
    );
    // A puzzle with two solutions fails the step, and the report says so.
    std::fs::copy(
        format!("{root}/fixtures/status_multiple.xlsx"),
        puzzles.join("two.xlsx"),
    )
    .unwrap();
    let last = run_all().pop().unwrap();
    assert_eq!(last.status.code(), Some(1), "{last:?}");
    let junit = std::fs::read_to_string(d.path().join("junit.xml")).unwrap();
    assert!(junit.contains("multiple"), "{junit}");
}

#[test]
fn the_technique_table_and_the_letter_key_come_from_one_table() {
    let rows = stdout(&xlsudoku(&["techniques", "--json"]));
    let rows: Vec<serde_json::Value> = rows
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), xlsudoku::logic::TABLE.len());
    let xwing = rows.iter().find(|r| r["key"] == "x-wing").unwrap();
    assert_eq!(
        (xwing["letter"].as_str(), xwing["se_rating"].as_f64()),
        (Some("x"), Some(3.2))
    );
    assert_eq!(xwing["level"], "hard");
    assert!(
        rows[0]["letter"].is_null(),
        "the naked single writes no letter"
    );
    let table = stdout(&xlsudoku(&["techniques"]));
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("x ") && l.contains("X-wing")),
        "{table}"
    );
    // The key in --help (top level and solve's) and in the man page names
    // every letter of the table.
    let key = xlsudoku::logic::letter_key();
    for text in [
        stdout(&xlsudoku(&["--help"])),
        stdout(&xlsudoku(&["solve", "--help"])),
        stdout(&xlsudoku(&["man"])).replace("\\&", ""),
    ] {
        for line in key.lines() {
            assert!(text.contains(line), "{line:?} missing from:\n{text}");
        }
    }
}

#[test]
fn the_guides_technique_table_is_the_sources() {
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guide.md")).unwrap();
    let between = guide
        .split("<!-- techniques:begin -->\n")
        .nth(1)
        .and_then(|rest| rest.split("<!-- techniques:end -->").next())
        .expect("docs/guide.md has the technique table's markers");
    let table = xlsudoku::logic::markdown_table();
    assert_eq!(
        between, table,
        "docs/guide.md's technique table differs from src/logic/techniques/table.rs; put this between the markers:\n{table}"
    );
}

#[test]
fn the_guides_hint_colour_table_is_the_sources() {
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guide.md")).unwrap();
    let between = guide
        .split("<!-- hint-colours:begin -->\n")
        .nth(1)
        .and_then(|rest| rest.split("<!-- hint-colours:end -->").next())
        .expect("docs/guide.md has the hint colour table's markers");
    let table = xlsudoku::hint::markdown_table();
    assert_eq!(
        between, table,
        "docs/guide.md's hint colours differ from src/paint.rs; put this between the markers:\n{table}"
    );
}
