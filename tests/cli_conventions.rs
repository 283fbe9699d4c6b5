//! The conventions of the command-line tools xlsudoku sits beside: shell
//! completions and a man page generated from the same definitions as the
//! parser, and a `--version` that names the instruction set the 9x9
//! engine picked.

use std::process::{Command, Output};

fn xlsudoku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xlsudoku"))
        .args(args)
        .output()
        .expect("run xlsudoku")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

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
        Command::new(env!("CARGO_BIN_EXE_xlsudoku"))
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
