//! The real binary's technique ladder on the fixtures: the history it
//! records, `--techniques`, `--logic-only`, the ratings in the note and
//! the report, and `check`'s level bounds.

use super::{note_text, records, sheets, solve_to, written};
use crate::util::{code, fixture, stderr, stdout, xlsudoku};
use xlsudoku::workbook::Cell;

#[test]
fn hard_puzzle_history_records_guesses_and_the_ladder() {
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = solve_to(&fixture("status_needs_guess.xlsx"), dir.path(), &["--json"]);
    assert_eq!(code(&o), 0);
    let (recs, _) = records(&o);
    let history = recs[0].history.clone().unwrap();
    assert!(history.contains('#') && history.contains('i'), "{history}");
    let letters: String = xlsudoku::logic::TABLE
        .iter()
        .filter_map(|t| t.letter)
        .collect();
    assert!(history.chars().all(|c| letters.contains(c)), "{history}");
    let note = note_text(&out, &sheets(&out)[0]);
    // The history stands apart from the time, labelled, with its key.
    assert!(note.starts_with("solved in "), "{note}");
    assert!(
        note.ends_with(&format!(
            " · steps: {history} (letters: xlsudoku techniques)"
        )),
        "{note}"
    );
    assert!(!note.contains(&format!("{history}-")), "{note}");
}

#[test]
fn techniques_seed_gives_the_old_macros_exact_history() {
    // The history the four-technique ladder has always written for this
    // puzzle (before the ladder grew), pinned letter for letter.
    let dir = tempfile::tempdir().unwrap();
    let (o, _) = solve_to(
        &fixture("status_needs_guess.xlsx"),
        dir.path(),
        &["--json", "--techniques", "seed"],
    );
    assert_eq!(code(&o), 0);
    let (recs, _) = records(&o);
    assert_eq!(
        recs[0].history.as_deref(),
        Some("i#i##i!!##i#iii!!#iiiiiii****#")
    );
    // The whole ladder needs fewer guesses on the same puzzle.
    let dir = tempfile::tempdir().unwrap();
    let (o, _) = solve_to(&fixture("status_needs_guess.xlsx"), dir.path(), &["--json"]);
    let (recs, _) = records(&o);
    let all = recs[0].history.clone().unwrap();
    assert!(all.matches('#').count() < 10, "{all}");
}

#[test]
fn techniques_list_limits_the_ladder_and_bad_names_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (o, _) = solve_to(
        &fixture("status_needs_guess.xlsx"),
        dir.path(),
        &["--json", "--techniques", "i"],
    );
    assert_eq!(code(&o), 0);
    let (recs, _) = records(&o);
    let h = recs[0].history.clone().unwrap();
    assert!(h.chars().all(|c| c == 'i' || c == '#'), "{h}");
    let dir = tempfile::tempdir().unwrap();
    let (o, _) = solve_to(
        &fixture("status_needs_guess.xlsx"),
        dir.path(),
        &["--techniques", "i,qv"],
    );
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("qv"), "{}", stderr(&o));
}

#[test]
fn logic_only_gives_up_and_writes_candidate_letters() {
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = solve_to(
        &fixture("status_needs_guess.xlsx"),
        dir.path(),
        &["--logic-only", "--json"],
    );
    assert_eq!(code(&o), 1, "gave up is a failure");
    let (recs, _) = records(&o);
    assert_eq!(recs[0].status, "gave-up");
    let s = &sheets(&out)[0];
    let letters: Vec<&String> = s.grids[0]
        .cells
        .iter()
        .filter_map(|c| match c {
            Cell::FilledText(t) => Some(t),
            _ => None,
        })
        .collect();
    assert!(!letters.is_empty());
    assert!(letters
        .iter()
        .all(|t| t.len() >= 2 && t.chars().all(|c| ('a'..='i').contains(&c))));
    assert!(note_text(&out, s).starts_with("gave up after "));
    // Solving that output without --logic-only finishes the job.
    let dir2 = tempfile::tempdir().unwrap();
    let (o, out2) = solve_to(&out, dir2.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let s2 = &sheets(&out2)[0];
    assert!(written(s2).is_full());
}

#[test]
fn solved_grids_are_rated_in_the_note_and_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = solve_to(&fixture("example.xlsx"), dir.path(), &["--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (recs, _) = records(&o);
    let easy = &recs[0];
    assert_eq!(easy.level, Some(xlsudoku::logic::Level::Easy));
    assert!(easy.rating.is_some_and(|r| r <= 2.3), "{easy:?}");
    assert!(easy.score.is_some_and(|s| s > 0));
    // A 16x16 solved by singles is easy too (HoDoKu's score ceilings are
    // for 81 cells; they scale with the grid).
    assert_eq!(recs[1].level, Some(xlsudoku::logic::Level::Easy));
    let note = note_text(&out, &sheets(&out)[0]);
    assert!(note.starts_with("solved in "), "{note}");
    assert!(
        note.contains(" · difficulty SE ") && note.contains(" (easy)"),
        "{note}"
    );
    // A grid the ladder cannot finish: extreme. With no time for Sudoku
    // Explainer's own rating, its rating is what is known, as a lower
    // bound: the static chains (6.5) are known at once to find nothing
    // on this grid (nothing reaches its own negation), so the bound is
    // the next chainer's, Nishio's 7.5.
    let (o, out) = solve_to(
        &fixture("status_needs_guess.xlsx"),
        dir.path(),
        &["--json", "--se-budget", "0"],
    );
    let (recs, _) = records(&o);
    assert_eq!(recs[0].level, Some(xlsudoku::logic::Level::Extreme));
    assert_eq!(
        (recs[0].rating, recs[0].rating_exact),
        (Some(7.5), Some(false))
    );
    let note = note_text(&out, &sheets(&out)[0]);
    assert!(note.contains(" · difficulty SE ≥ 7.5 (extreme)"), "{note}");
    // Easy grids are rated exactly within any budget.
    assert_eq!(easy.rating_exact, Some(true));
    // Failed grids are not rated.
    let (o, _) = solve_to(&fixture("status_multiple.xlsx"), dir.path(), &["--json"]);
    let (recs, _) = records(&o);
    assert_eq!((recs[0].rating, recs[0].level), (None, None));
}

#[test]
fn check_fails_grids_outside_the_promised_level() {
    let (hard, easy) = (
        fixture("status_needs_guess.xlsx"),
        fixture("status_logic_easy.xlsx"),
    );
    let run = |extra: &[&str]| {
        let mut args = vec![
            "check",
            hard.to_str().unwrap(),
            easy.to_str().unwrap(),
            "--json",
        ];
        args.extend_from_slice(extra);
        xlsudoku(&args)
    };
    // Records come in the inputs' sorted order: the easy one first.
    let o = run(&["--max-level", "hard"]);
    assert_eq!(code(&o), 1);
    let (recs, _) = records(&o);
    assert_eq!(recs[1].status, "too-hard");
    assert!(recs[1]
        .error
        .as_deref()
        .unwrap()
        .contains("above --max-level hard"));
    assert_eq!(recs[0].status, "solved");
    let o = run(&["--min-level", "medium"]);
    let (recs, _) = records(&o);
    assert_eq!(
        (recs[0].status.as_str(), recs[1].status.as_str()),
        ("too-easy", "solved")
    );
    let o = run(&["--max-rating", "3.0"]);
    let (recs, _) = records(&o);
    assert_eq!(
        (recs[0].status.as_str(), recs[1].status.as_str()),
        ("solved", "too-hard")
    );
    // Past the SE budget the rating is a lower bound: under a
    // --max-rating it is not known to be within, so the grid fails.
    let o = run(&["--max-rating", "9.9", "--se-budget", "0"]);
    assert_eq!(code(&o), 1);
    let (recs, _) = records(&o);
    assert_eq!(recs[1].status, "too-hard");
    let why = recs[1].error.as_deref().unwrap_or("");
    assert!(
        why.contains("(SE ≥ 7.5), not known to be within --max-rating 9.9"),
        "{why}"
    );
    // A lower bound equal to the limit is not above it, only not known.
    let o = run(&["--max-rating", "7.5", "--se-budget", "0"]);
    let (recs, _) = records(&o);
    let why = recs[1].error.as_deref().unwrap_or("");
    assert!(
        why.contains("not known to be within --max-rating 7.5"),
        "{why}"
    );
    // Nor does a lower bound under --min-rating pass it.
    let o = run(&["--min-rating", "9.9", "--se-budget", "0"]);
    let (recs, _) = records(&o);
    assert_eq!(recs[1].status, "too-easy");
    let why = recs[1].error.as_deref().unwrap_or("");
    assert!(
        why.contains("(SE ≥ 7.5), not known to reach --min-rating 9.9"),
        "{why}"
    );
    // A --timeout shorter than the budget keeps the answer: the rating is
    // what is known when it passes. The grid's search and ladder take
    // about 25 ms and its whole rating about 115 ms (2026-11-28): of
    // three timeouts in between, on a slower or a faster machine, one
    // passes during the rating.
    let cut_short = ["0.03", "0.06", "0.09"].iter().any(|t| {
        let o = run(&["--timeout", t, "--se-budget", "30"]);
        let (recs, _) = records(&o);
        recs[1].status == "solved" && recs[1].rating_exact == Some(false)
    });
    assert!(
        cut_short,
        "no timeout cut the rating short and kept the answer"
    );
    let o = run(&["--se-budget=-1"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("must be 0 or a positive number of seconds"));
    assert_eq!(
        code(&run(&["--min-level", "extreme", "--max-level", "easy"])),
        2
    );
    assert_eq!(code(&run(&["--max-level", "tough"])), 2);
    assert_eq!(code(&run(&["--max-level", "extreme"])), 0);
    // --level is both bounds, as generate reads it: one level or a range.
    let o = run(&["--level", "medium"]);
    let (recs, _) = records(&o);
    assert_eq!(
        (recs[0].status.as_str(), recs[1].status.as_str()),
        ("too-easy", "too-hard")
    );
    assert_eq!(code(&run(&["--level", "easy..extreme"])), 0);
    assert_eq!(code(&run(&["--level", "hard", "--max-level", "easy"])), 2);
    // A bad level is answered in one style everywhere: the value, a near
    // match, and what is allowed.
    for args in [
        vec!["check", "--level", "hrad", "x.xlsx"],
        vec!["check", "--max-level", "hrad", "x.xlsx"],
        vec!["generate", "--level", "easy..hrad", "-o", "-"],
    ] {
        let o = xlsudoku(&args);
        assert_eq!(code(&o), 2, "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(r#"unknown level "hrad" (did you mean hard?): easy, medium, hard, unfair or extreme"#),
            "{args:?}: {err}"
        );
    }
}
