//! `hint` and `explain` take `--range`, `--box`, `--techniques` and
//! `--timeout` from one definition: their help says the same of each, and
//! both read them alike.

use crate::util::{fixture, stdout, xlsudoku};

/// The help block of `flag` in `xlsudoku COMMAND --help`: its line and the
/// lines of its text, up to the next flag.
fn help_of(command: &str, flag: &str) -> String {
    let help = stdout(&xlsudoku(&[command, "--help"]));
    let mut lines = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(flag));
    let head = lines
        .next()
        .unwrap_or_else(|| panic!("{command}: no {flag}"));
    let body: Vec<&str> = lines
        .take_while(|l| !l.trim_start().starts_with('-') && !l.trim().is_empty())
        .collect();
    format!("{head}\n{}", body.join("\n"))
}

#[test]
fn hint_and_explain_say_the_same_of_the_flags_they_share() {
    for flag in ["--range", "--box", "--techniques", "--timeout"] {
        let (h, e) = (help_of("hint", flag), help_of("explain", flag));
        assert!(h.len() > flag.len() + 10, "{h}");
        assert_eq!(h, e, "{flag}");
    }
}

#[test]
fn hint_and_explain_read_the_shared_flags_alike() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("status_needs_guess.xlsx");
    let copy = dir.path().join("hint.xlsx");
    let shared = [
        "--range",
        "C3:K11",
        "--box",
        "3x3",
        "--techniques",
        "naked-single",
        "--timeout",
        "30",
    ];
    let mut args = vec![
        "hint",
        "--json",
        input.to_str().unwrap(),
        "-o",
        copy.to_str().unwrap(),
    ];
    args.extend(shared);
    let hinted = super::super::hint::json_lines(&xlsudoku(&args));
    let mut args = vec!["explain", "--json", input.to_str().unwrap()];
    args.extend(shared);
    let explained = super::super::hint::json_lines(&xlsudoku(&args));
    assert_eq!(hinted[0]["step"], explained[0]["steps"][0]);
    // Naked singles alone stop at once here: the first step is a guess,
    // where the whole ladder finds a hidden single.
    let default =
        super::super::hint::json_lines(&xlsudoku(&["explain", "--json", input.to_str().unwrap()]));
    assert_ne!(default[0]["steps"][0], explained[0]["steps"][0]);
    // A range with --puzzle is refused by both.
    for command in ["hint", "explain"] {
        let o = xlsudoku(&[command, "--puzzle", "1234", "--range", "A1:D4"]);
        assert_eq!(o.status.code(), Some(2), "{command}");
    }
}
