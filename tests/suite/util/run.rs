//! Running the real binary.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// The real binary, as a command to add arguments, a folder or an
/// environment to (the tests share one process: a test that needs another
/// environment or working folder gives it to the child, never sets its
/// own).
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xlsudoku"))
}

/// Runs the real binary with `args`.
pub fn xlsudoku(args: &[&str]) -> Output {
    command().args(args).output().expect("run xlsudoku")
}

/// xlsudoku started with no stdin and its stdout and stderr piped.
pub fn spawn(args: &[&str]) -> Child {
    command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A run's exit code (it ended by itself, not by a signal).
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

/// A run's standard output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's standard error, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A run's standard output and error together.
pub fn output_text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Solves `input` into `out` with `--json` and `extra`: the exit code and
/// the grid records (the summary line left out).
pub fn solve_records(
    input: &Path,
    out: &Path,
    extra: &[&str],
) -> (i32, Vec<xlsudoku::report::SheetRecord>) {
    let mut args = vec![
        "solve",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let o = xlsudoku(&args);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.pop();
    let recs = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (o.status.code().unwrap(), recs)
}
