//! `xlsudoku rate`: text puzzle files rated line by line through the real
//! binary (statuses, order, JSON fields, exit codes, threads).

use crate::util::xlsudoku;
use crate::util::{stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// Solved by singles alone.
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// magictour top1465 #10: hidden pairs and a hidden triple, no guess.
const PAIRS: &str =
    "......41.9..3.....3...5.....48..7..........62.1.......6..2....5.7....8......9....";
/// magictour top1465 #1: beyond the techniques, needs guesses.
const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// A puzzle file with an easy, a medium, a hard, an invalid, a malformed
/// and an ambiguous line, CRLF line ends and comments.
fn mixed_file(dir: &Path) -> PathBuf {
    let invalid = format!("11{}", ".".repeat(79));
    let lines = [
        "# easy, pairs, hard, a clash, a short line, an empty grid",
        &format!("{EASY} an easy one"),
        PAIRS,
        HARD,
        &invalid,
        "12345",
        &"0".repeat(81),
        "",
    ];
    let path = dir.join("mixed.txt");
    std::fs::write(&path, lines.join("\r\n")).expect("write puzzles");
    path
}

fn json_lines(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn rate_json_reports_every_puzzle_line_in_order_with_its_status_and_rating() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = mixed_file(dir.path());
    let out = xlsudoku(&["rate", "--json", path.to_str().expect("utf-8 path")]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 7, "{}", stdout(&out));
    // The malformed line has its record in its place: line and reason.
    let bad = &lines[4];
    assert_eq!(
        (bad["line"].as_u64(), bad["status"].as_str()),
        (Some(6), Some("malformed"))
    );
    assert_eq!(bad["file"], path.to_str().unwrap());
    assert!(
        bad["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{bad}"
    );
    let records: Vec<Value> = lines[..6]
        .iter()
        .filter(|r| r["status"] != "malformed")
        .cloned()
        .collect();
    let got: Vec<(u64, &str)> = records
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            (2, "solved"),
            (3, "solved"),
            (4, "solved"),
            (5, "invalid"),
            (7, "multiple")
        ]
    );
    for r in &records {
        for key in [
            "file",
            "line",
            "puzzle",
            "status",
            "rating",
            "rating_exact",
            "ep",
            "ed",
            "level",
            "score",
            "history",
            "guesses",
            "elapsed_ms",
        ] {
            assert!(r.get(key).is_some(), "{key} missing: {r}");
        }
        assert_eq!(r["file"], path.to_str().unwrap());
    }
    let (easy, pairs, hard) = (&records[0], &records[1], &records[2]);
    assert_eq!(easy["puzzle"], EASY);
    assert_eq!(easy["level"], "easy");
    assert!(easy["rating"].as_f64().unwrap() <= 2.3, "{easy}");
    assert_eq!(easy["guesses"], 0);
    // SE's ED is the first step, EP the hardest up to the first placement.
    let (er, ep, ed) = (
        easy["rating"].as_f64().unwrap(),
        easy["ep"].as_f64().unwrap(),
        easy["ed"].as_f64().unwrap(),
    );
    assert!(ed <= ep && ep <= er, "{easy}");
    assert_ne!(pairs["level"], "easy");
    assert!(pairs["rating"].as_f64().unwrap() >= 2.6, "{pairs}");
    assert_eq!(pairs["guesses"], 0);
    // Forcing nets finish it without a guess: extreme, rated 8.5 and up.
    assert_eq!(hard["level"], "extreme");
    assert_eq!(hard["guesses"], 0, "{hard}");
    let history = hard["history"].as_str().unwrap();
    assert!(history.contains('N') && !history.contains('#'), "{hard}");
    assert!(hard["rating"].as_f64().unwrap() >= 8.5, "{hard}");
    assert!(hard["score"].as_u64().unwrap() > 1800);
    // Not rated: no rating, level or score; the clash is named.
    for r in &records[3..] {
        for key in ["rating", "ep", "ed", "level", "score"] {
            assert!(r[key].is_null(), "{key}: {r}");
        }
    }
    assert!(
        records[3]["error"]
            .as_str()
            .unwrap()
            .contains("1 repeats in row 1"),
        "{}",
        records[3]
    );
    let summary = &lines[6]["summary"];
    assert_eq!(summary["puzzles"], 5);
    assert_eq!(summary["solved"], 3);
    assert_eq!(summary["invalid"], 1);
    assert_eq!(summary["multiple"], 1);
    assert_eq!(summary["malformed"], 1);
    assert_eq!(summary["levels"]["easy"], 1);
    assert_eq!(summary["levels"]["extreme"], 1);
    assert_eq!(
        summary["without_guess"], 3,
        "forcing nets finish the hard one"
    );
    assert!(summary["per_second"].as_f64().unwrap() > 0.0);
    // The malformed line is named on stderr, and the exit code says so.
    let err = stderr(&out);
    assert!(err.contains("mixed.txt:6:"), "{err}");
    assert_eq!(out.status.code(), Some(2), "{err}");
}

#[test]
fn rate_prints_one_human_line_per_puzzle_and_the_summary_on_stderr() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = mixed_file(dir.path());
    let out = xlsudoku(&["rate", path.to_str().unwrap()]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    let file = path.display().to_string();
    assert!(
        lines[0].starts_with(&format!("{file}:2 {EASY} ")) && lines[0].contains(" easy "),
        "{}",
        lines[0]
    );
    // Extreme (forcing nets) but finished: the rating is no lower bound.
    assert!(
        lines[2].contains(" extreme ") && !lines[2].contains("+ extreme "),
        "{}",
        lines[2]
    );
    assert!(lines[3].contains(" invalid: "), "{}", lines[3]);
    assert!(lines[4].ends_with(" multiple"), "{}", lines[4]);
    let err = stderr(&out);
    assert!(err.contains("rated 3 of 5 puzzles"), "{err}");
    assert!(err.contains("1 malformed line"), "{err}");
    assert_eq!(out.status.code(), Some(2));
}

/// The JSON lines without their times, which differ from run to run.
fn without_times(o: &Output) -> Vec<Value> {
    json_lines(o)
        .into_iter()
        .map(|mut v| {
            if let Some(m) = v.as_object_mut() {
                m.remove("elapsed_ms");
                if let Some(s) = m.get_mut("summary").and_then(Value::as_object_mut) {
                    s.remove("seconds");
                    s.remove("per_second");
                }
            }
            v
        })
        .collect()
}

#[test]
fn rate_gives_the_same_output_with_one_and_two_threads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("many.txt");
    // Enough puzzles that two threads interleave: easy and hard alternate.
    let text: String = (0..40)
        .map(|i| format!("{}\n", [EASY, HARD, PAIRS][i % 3]))
        .collect();
    std::fs::write(&path, text).expect("write");
    let p = path.to_str().unwrap();
    let one = xlsudoku(&["rate", "--json", "-j", "1", p]);
    let two = xlsudoku(&["rate", "--json", "-j", "2", p]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
    assert_eq!(without_times(&one), without_times(&two));
    assert_eq!(without_times(&one).len(), 41);
    let h1 = xlsudoku(&["rate", "-j", "1", p]);
    let h2 = xlsudoku(&["rate", "-j", "2", p]);
    assert_eq!(stdout(&h1), stdout(&h2));
}

#[test]
fn rate_exits_0_when_all_are_rated_and_1_when_one_is_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = dir.path().join("good.txt");
    std::fs::write(&good, format!("{EASY}\n{PAIRS}\n")).expect("write");
    let out = xlsudoku(&["rate", good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ambiguous = dir.path().join("ambiguous.txt");
    std::fs::write(&ambiguous, format!("{EASY}\n{}\n", ".".repeat(81))).expect("write");
    let out = xlsudoku(&["rate", ambiguous.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // An unsolvable grid without a clash: r1c9 can hold nothing.
    let unsolvable = dir.path().join("unsolvable.txt");
    let mut cells = "12345678.".to_string() + &".".repeat(72);
    cells.replace_range(5 * 9 + 8..5 * 9 + 9, "9");
    std::fs::write(&unsolvable, format!("{cells}\n")).expect("write");
    let out = xlsudoku(&["rate", "--json", unsolvable.to_str().unwrap()]);
    assert_eq!(json_lines(&out)[0]["status"], "unsolvable");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn rate_names_an_unreadable_file_and_goes_on_with_the_next() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = dir.path().join("good.txt");
    std::fs::write(&good, format!("{EASY}\n")).expect("write");
    let binary = dir.path().join("binary.txt");
    std::fs::write(&binary, [0xffu8, 0xfe, 0x00, b'\n']).expect("write");
    let missing = dir.path().join("missing.txt");
    let out = xlsudoku(&[
        "rate",
        "--json",
        missing.to_str().unwrap(),
        binary.to_str().unwrap(),
        good.to_str().unwrap(),
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["status"], "solved");
    assert_eq!(lines[1]["summary"]["file_errors"], 2);
    let err = stderr(&out);
    assert!(
        err.contains("missing.txt") && err.contains("binary.txt:1"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rate_timeout_reports_the_puzzle_as_timeout() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("slow.txt");
    // An empty 36x36 grid: proving it ambiguous takes the search a while.
    std::fs::write(&path, format!("{}\n{EASY}\n", ".".repeat(36 * 36))).expect("write");
    let out = xlsudoku(&[
        "rate",
        "--json",
        "--timeout",
        "0.000001",
        path.to_str().unwrap(),
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["status"], "timeout", "{}", lines[0]);
    assert!(lines[0]["rating"].is_null());
    // The easy one may finish within a microsecond or not (the ladder
    // checks the deadline too); either way the run goes on to it.
    let easy = lines[1]["status"].as_str().unwrap();
    assert!(easy == "solved" || easy == "timeout", "{}", lines[1]);
    let timeouts = if easy == "timeout" { 2 } else { 1 };
    assert_eq!(lines[2]["summary"]["timeout"], timeouts);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn rate_is_a_subcommand_and_checks_its_jobs() {
    let out = xlsudoku(&["rate", "-j", "0", "x.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--jobs 0"), "{}", stderr(&out));
    let out = xlsudoku(&["--json", "rate", "--help"]);
    assert!(stdout(&out).contains("serate"), "{}", stdout(&out));
}

/// gen_random_minimal_10k.txt line 75: singles, subsets and locked
/// candidates leave a unique rectangle (type 1) that finishes it.
const NEEDS_UR: &str =
    "..4.....8.5...........9.2.7....7..6...6....193..6..7.5....8.....4275....1...2..36";

#[test]
fn a_unique_puzzle_is_rated_with_uniqueness_and_an_ambiguous_one_is_not_rated() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The same puzzle without its last given has several solutions.
    let ambiguous = format!("{}.", &NEEDS_UR[..80]);
    let path = dir.path().join("ur.txt");
    std::fs::write(&path, format!("{NEEDS_UR}\n{ambiguous}\n")).expect("write");
    let out = xlsudoku(&["rate", "--json", path.to_str().unwrap()]);
    let lines = json_lines(&out);
    let ur = &lines[0];
    assert_eq!(ur["status"], "solved", "{ur}");
    let history = ur["history"].as_str().unwrap();
    assert!(history.ends_with('u') && !history.contains('#'), "{ur}");
    assert_eq!(ur["level"], "hard", "{ur}");
    assert_eq!(ur["guesses"], 0, "{ur}");
    assert!((ur["rating"].as_f64().unwrap() - 4.5).abs() < 1e-6, "{ur}");
    assert_eq!(lines[1]["status"], "multiple", "{}", lines[1]);
    assert!(lines[1]["rating"].is_null() && lines[1]["level"].is_null());
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn timeout_bounds_the_ladder_not_only_the_search() {
    // Magictour top1465 #4: the search proves it unique at once, but the
    // ladder spends most of its time in forcing nets. Rated without a
    // deadline first; with a deadline of a quarter of that time the
    // ladder stops in the nets.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("nets.txt");
    let slow = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
    std::fs::write(&path, format!("{slow}\n")).expect("write");
    let out = xlsudoku(&["rate", "--json", path.to_str().unwrap()]);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["status"], "solved", "{}", lines[0]);
    let full = lines[0]["elapsed_ms"].as_f64().expect("elapsed_ms");
    let deadline = format!("{}", (full / 4.0 / 1000.0).max(1e-6));
    let out = xlsudoku(&[
        "rate",
        "--json",
        "--timeout",
        &deadline,
        path.to_str().unwrap(),
    ]);
    let lines = json_lines(&out);
    assert_eq!(
        lines[0]["status"], "timeout",
        "{} (deadline {deadline} s)",
        lines[0]
    );
    assert!(lines[0]["rating"].is_null());
    let ms = lines[0]["elapsed_ms"].as_f64().expect("elapsed_ms");
    assert!(
        ms < full / 4.0 + 500.0,
        "the ladder ran past its deadline: {ms} ms"
    );
}

#[test]
fn rate_reads_standard_input_for_a_dash_a_window_at_a_time() {
    use std::io::{BufRead, Write};
    use std::process::Stdio;
    let mut child = crate::util::command()
        .args(["rate", "-j", "1", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xlsudoku");
    let mut input = child.stdin.take().unwrap();
    // A few windows of lines, the input left open: records come out
    // before the end of the input is seen.
    input
        .write_all(format!("{EASY}\n").repeat(300).as_bytes())
        .unwrap();
    input.flush().unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = std::io::BufReader::new(out).lines();
        let _ = tx.send(lines.next());
        lines.count() + 1
    });
    let first = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("a record before the input ends")
        .expect("a line")
        .expect("text");
    assert!(first.starts_with(&format!("<stdin>:1 {EASY} ")), "{first}");
    input.write_all(b"12345\n").unwrap();
    drop(input);
    let o = child.wait_with_output().expect("wait");
    assert_eq!(reader.join().unwrap(), 300);
    assert_eq!(o.status.code(), Some(2), "the malformed line 301");
    assert!(stderr(&o).contains("<stdin>:301:"), "{}", stderr(&o));
}

/// The first lines of a reference file of Sudoku Explainer 1.2.1's own
/// ratings (`PUZZLE ER EP ED`, from its `serate`).
fn se_reference(name: &str, n: usize) -> Vec<(String, [f64; 3])> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/rating/se_reference")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("reference file");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(n)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let num = |i: usize| f[i].parse::<f64>().expect("a rating");
            (f[0].to_string(), [num(1), num(2), num(3)])
        })
        .collect()
}

#[test]
fn rate_gives_sudoku_explainers_own_ratings_on_9x9() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("se.txt");
    let reference = se_reference("top1465_every7th200.txt", 8);
    let text: Vec<&str> = reference.iter().map(|(p, _)| p.as_str()).collect();
    std::fs::write(&path, text.join("\n")).expect("write");
    let out = xlsudoku(&["rate", "--json", "-j", "2", path.to_str().unwrap()]);
    let lines = json_lines(&out);
    for ((puzzle, [er, ep, ed]), got) in reference.iter().zip(&lines) {
        let at = |k: &str| got[k].as_f64().unwrap_or(-1.0);
        assert_eq!(got["puzzle"].as_str(), Some(puzzle.as_str()));
        assert_eq!((at("rating"), at("ep"), at("ed")), (*er, *ep, *ed), "{got}");
        assert_eq!(got["rating_exact"], true, "{got}");
    }
    // The first needs forcing chains (extreme for HoDoKu); the rating is SE's.
    assert_eq!(lines[0]["level"], "extreme", "{}", lines[0]);
    let human = xlsudoku(&["rate", path.to_str().unwrap()]);
    let first = stdout(&human).lines().next().unwrap_or("").to_string();
    assert!(first.contains(" 9.0 extreme "), "{first}");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_hard_9x9_past_the_timeout_is_a_timeout_never_a_wrong_rating() {
    // One of the hardest known (SE 11.9): seconds of SE's nested chains,
    // far past the timeout. `rate` has no SE budget: no lower bound, no
    // guess, the status says why there is no rating.
    let hardest = se_reference("hardest_published41.txt", 1);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("hard.txt");
    std::fs::write(&path, format!("{}\n", hardest[0].0)).expect("write");
    let out = xlsudoku(&[
        "rate",
        "--json",
        "--timeout",
        "0.05",
        path.to_str().unwrap(),
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["status"], "timeout", "{}", lines[0]);
    assert!(lines[0]["rating"].is_null() && lines[0]["rating_exact"].is_null());
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn se_only_gives_sudoku_explainers_three_ratings_and_nothing_of_the_ladder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("se.txt");
    let reference = se_reference("top1465_every7th200.txt", 6);
    let mut text: Vec<String> = reference.iter().map(|(p, _)| p.clone()).collect();
    text.push("0".repeat(81)); // an empty grid: multiple
    std::fs::write(&path, text.join("\n")).expect("write");
    let out = xlsudoku(&["rate", "--se-only", "--json", path.to_str().unwrap()]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 8, "{}", stdout(&out));
    for ((puzzle, [er, ep, ed]), got) in reference.iter().zip(&lines) {
        let at = |k: &str| got[k].as_f64().unwrap_or(-1.0);
        assert_eq!(got["puzzle"].as_str(), Some(puzzle.as_str()));
        assert_eq!((at("rating"), at("ep"), at("ed")), (*er, *ep, *ed), "{got}");
        assert!(got["level"].is_null() && got["score"].is_null(), "{got}");
        assert_eq!(got["history"], "", "{got}");
    }
    assert_eq!(lines[6]["status"], "multiple");
    assert_eq!(out.status.code(), Some(1));
    // In words: ER/EP/ED per puzzle, the summary without levels.
    let human = xlsudoku(&["rate", "--se-only", path.to_str().unwrap()]);
    let first = stdout(&human).lines().next().unwrap_or("").to_string();
    let [er, ep, ed] = reference[0].1;
    assert!(
        first.ends_with(&format!(" {}/{ep:.1}/{ed:.1}", se_text(er))),
        "{first}"
    );
    let err = stderr(&human);
    assert!(
        err.contains("rated 6 of 7 puzzles") && !err.contains("extreme"),
        "{err}"
    );
    assert!(err.contains("; 1 multiple"), "{err}");
}

/// A rating as `rate` prints it: one decimal.
fn se_text(x: f64) -> String {
    format!("{x:.1}")
}
