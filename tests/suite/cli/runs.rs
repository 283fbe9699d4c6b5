//! The real binary on the workbooks in `fixtures/`: layouts, statuses,
//! exit codes, the annotated copy, reruns and bad input.

use super::{note_text, records, sheets, solve_to, written};
use crate::util::{code, fixture, stderr, stdout, xlsudoku};

use std::path::Path;

use calamine::{open_workbook, Data, Reader, Xlsx};
use xlsudoku::workbook::Cell;

#[test]
fn example_workbook_is_solved_in_blue_italics_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("example.xlsx");
    let (o, out) = solve_to(&input, dir.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let before = sheets(&input);
    let after = sheets(&out);
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(a.name, b.name);
        if b.grids.is_empty() {
            continue;
        }
        let puzzle = b.grids[0].puzzle();
        let grid = written(a);
        assert!(grid.solves(&puzzle), "{} not solved:\n{grid}", a.name);
        // Every blank became a blue italic digit; givens stayed givens.
        for (cb, ca) in b.grids[0].cells.iter().zip(&a.grids[0].cells) {
            match cb {
                Cell::Given(d) => assert_eq!(ca, &Cell::Given(*d)),
                _ => assert!(matches!(ca, Cell::Filled(_)), "{ca:?}"),
            }
        }
        let note = note_text(&out, a);
        // `solved in TIME · difficulty SE rating (level) · steps: history (letters: …)`
        assert!(note.starts_with("solved in "), "{note}");
        let (time, rest) = note["solved in ".len()..]
            .split_once(" · difficulty SE ")
            .expect("a rating");
        assert!(time.ends_with(" ms") || time.ends_with(" s"), "{note}");
        assert!(
            rest.contains(" (easy)") || rest.contains(" (medium)"),
            "{note}"
        );
    }
    // The data sheet keeps its formulas.
    let mut book: Xlsx<_> = open_workbook(&out).unwrap();
    let formulas = book.worksheet_formula("Notes").unwrap();
    assert!(formulas.used_cells().any(|(_, _, f)| f.contains("SUM")));
}

/// Sheet name, grid range and box shape expected in a fixture.
type Expected<'a> = &'a [(&'a str, &'a str, &'a str)];

#[test]
fn every_layout_is_found_where_it_is_drawn() {
    let cases: &[(&str, Expected)] = &[
        ("layout_gridlines_c3.xlsx", &[("Grid", "C3:K11", "3x3")]),
        ("layout_frame_b2.xlsx", &[("Frame", "B2:J10", "3x3")]),
        ("layout_thick_a1.xlsx", &[("Thick", "A1:I9", "3x3")]),
        ("layout_h8.xlsx", &[("Far", "H8:P16", "3x3")]),
        ("layout_title_row.xlsx", &[("Titled", "A2:I10", "3x3")]),
        (
            "layout_neighbour_borders.xlsx",
            &[("Neighbours", "C3:K11", "3x3")],
        ),
        (
            "layout_two_grids.xlsx",
            &[("Two", "B2:J10", "3x3"), ("Two", "L2:T10", "3x3")],
        ),
        ("layout_4x4.xlsx", &[("Four", "B2:E5", "2x2")]),
        ("layout_25x25.xlsx", &[("Huge", "B2:Z26", "5x5")]),
        ("layout_text_givens.xlsx", &[("Text", "C3:K11", "3x3")]),
        (
            "openpyxl_row_col_styles.xlsx",
            &[
                ("RowStyles", "C3:K11", "3x3"),
                ("ColStyles", "C3:K11", "3x3"),
            ],
        ),
        ("start_end_borders.xlsx", &[("StartEnd", "B2:J10", "3x3")]),
        ("macro.xlsm", &[("Macro", "C3:K11", "3x3")]),
        (
            "libreoffice_example.xlsx",
            &[("Easy", "C3:K11", "3x3"), ("Big", "C3:R18", "4x4")],
        ),
        (
            "libreoffice_layout_frame_b2.xlsx",
            &[("Frame", "B2:J10", "3x3")],
        ),
        (
            "libreoffice_layout_6x6.xlsx",
            &[("Six", "B2:G7", "3x2"), ("Tall", "B2:G7", "2x3")],
        ),
    ];
    for (file, expected) in cases {
        let o = xlsudoku(&[
            "check",
            "--json",
            "--allow-no-grid",
            fixture(file).to_str().unwrap(),
        ]);
        assert_eq!(code(&o), 0, "{file}: {}", stdout(&o));
        let (recs, _) = records(&o);
        let mut got: Vec<(String, String, String)> = recs
            .iter()
            .filter(|r| r.status != "no-grid")
            .map(|r| {
                assert_eq!(r.status, "solved", "{file}: {r:?}");
                assert_eq!(r.unique, Some(true));
                (
                    r.sheet.clone().unwrap(),
                    r.range.clone().unwrap(),
                    r.box_shape.clone().unwrap(),
                )
            })
            .collect();
        got.sort();
        let want: Vec<(String, String, String)> = expected
            .iter()
            .map(|(s, r, b)| (s.to_string(), r.to_string(), b.to_string()))
            .collect::<Vec<_>>();
        let mut want = want;
        want.sort();
        assert_eq!(got, want, "{file}");
    }
}

#[test]
fn six_by_six_takes_its_box_shape_from_thick_lines() {
    let o = xlsudoku(&[
        "check",
        "--json",
        fixture("layout_6x6.xlsx").to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let (recs, _) = records(&o);
    let shapes: Vec<(String, String)> = recs
        .iter()
        .map(|r| (r.sheet.clone().unwrap(), r.box_shape.clone().unwrap()))
        .collect();
    assert_eq!(
        shapes,
        vec![("Six".into(), "3x2".into()), ("Tall".into(), "2x3".into())]
    );
}

#[test]
fn bordered_tables_and_plain_sheets_are_not_grids() {
    for file in ["layout_nongrid_tables.xlsx", "layout_no_grid.xlsx"] {
        let o = xlsudoku(&["check", "--json", fixture(file).to_str().unwrap()]);
        assert_eq!(code(&o), 1, "no grid fails check by default: {file}");
        let (recs, _) = records(&o);
        assert!(
            recs.iter().all(|r| r.status == "no-grid"),
            "{file}: {recs:?}"
        );
        let o = xlsudoku(&["check", "--allow-no-grid", fixture(file).to_str().unwrap()]);
        assert_eq!(code(&o), 0, "{file}");
    }
}

#[test]
fn one_no_grid_rule_in_solve_and_check() {
    // example.xlsx: a grid on one sheet, none on Notes. The Notes sheet is
    // reported, not a failure, in check (JSON, human line, JUnit) and solve.
    let t = tempfile::tempdir().unwrap();
    let example = fixture("example.xlsx");
    let junit = t.path().join("junit.xml");
    let o = xlsudoku(&[
        "check",
        "--json",
        "--junit",
        junit.to_str().unwrap(),
        example.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    let (recs, summary) = records(&o);
    assert!(
        recs.iter()
            .any(|r| r.sheet.as_deref() == Some("Notes") && r.status == "no-grid"),
        "{recs:?}"
    );
    assert_eq!(summary["summary"]["statuses"]["no-grid"], 1, "{summary}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("failures=\"0\"") && !xml.contains("<failure"),
        "{xml}"
    );
    let o = xlsudoku(&["check", example.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(stdout(&o).contains("[Notes]: no-grid"), "{}", stdout(&o));
    let (o, _) = solve_to(&example, t.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));

    // A workbook with no grid anywhere fails both, saying why.
    let none = fixture("layout_no_grid.xlsx");
    for o in [
        xlsudoku(&["check", "--json", none.to_str().unwrap()]),
        xlsudoku(&[
            "--json",
            none.to_str().unwrap(),
            "-o",
            t.path().join("none.xlsx").to_str().unwrap(),
        ]),
    ] {
        assert_eq!(code(&o), 1, "{}", stdout(&o));
        let (recs, _) = records(&o);
        assert!(!recs.is_empty());
        for r in &recs {
            assert_eq!(r.status, "no-grid");
            assert!(
                r.error
                    .as_deref()
                    .is_some_and(|e| e.contains("no grid anywhere in the workbook")),
                "{r:?}"
            );
        }
    }
    let o = xlsudoku(&["check", "--allow-no-grid", none.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}

#[test]
fn each_status_gets_its_note_exit_code_and_no_fills() {
    let cases = [
        (
            "status_invalid_clash.xlsx",
            "invalid",
            // The sheet's row, as explain names it.
            "invalid: 5 twice in row 3 (C3, I3)",
        ),
        (
            "status_invalid_bad_values.xlsx",
            "invalid",
            "invalid: E4 holds \"x\", not a digit 1-9",
        ),
        (
            "status_unsolvable.xlsx",
            "unsolvable",
            // The givens to blame are named (cli::conflicts checks them).
            "unsolvable: the givens have no solution; these ",
        ),
        (
            "status_multiple.xlsx",
            "multiple",
            "multiple solutions: more than one solution: ",
        ),
    ];
    for (file, status, note_start) in cases {
        let dir = tempfile::tempdir().unwrap();
        let (o, out) = solve_to(&fixture(file), dir.path(), &["--json"]);
        assert_eq!(code(&o), 1, "{file}");
        let (recs, _) = records(&o);
        assert_eq!(recs[0].status, status, "{file}");
        let after = sheets(&out);
        let note = note_text(&out, &after[0]);
        assert!(note.starts_with(note_start), "{file}: {note}");
        assert!(
            after[0].grids[0]
                .cells
                .iter()
                .all(|c| !matches!(c, Cell::Filled(_))),
            "{file}: a failed grid gets no filled cells"
        );
    }
}

#[test]
fn rerun_on_its_own_output_replaces_instead_of_stacking() {
    let dir = tempfile::tempdir().unwrap();
    let (o, first) = solve_to(&fixture("example.xlsx"), dir.path(), &[]);
    assert_eq!(code(&o), 0);
    let second = dir.path().join("second.xlsx");
    let o = xlsudoku(&[first.to_str().unwrap(), "-o", second.to_str().unwrap()]);
    assert_eq!(code(&o), 0);
    let (a, b) = (sheets(&first), sheets(&second));
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.grids.len(), y.grids.len());
        for (gx, gy) in x.grids.iter().zip(&y.grids) {
            assert_eq!(gx.cells, gy.cells);
            assert_eq!(gx.note_at, gy.note_at, "the note is replaced in place");
        }
    }
    // Every part but the notes' timings and the run's own record (input
    // name, size, time) is identical.
    let strip = |p: &Path| -> Vec<(String, String)> {
        let mut z = zip::ZipArchive::new(std::fs::File::open(p).unwrap()).unwrap();
        (0..z.len())
            .map(|i| {
                let mut f = z.by_index(i).unwrap();
                let mut s = String::new();
                std::io::Read::read_to_string(&mut f, &mut s).unwrap_or_default();
                let re_time = |t: &str| {
                    t.split("<t>")
                        .map(|piece| {
                            let end = piece.find("</t>").unwrap_or(piece.len());
                            // A note: `solved in TIME · difficulty …`.
                            let text = &piece[..end];
                            let (head, tail) = text.split_once(" · ").unwrap_or((text, ""));
                            if head.ends_with(" ms") || head.ends_with(" s") {
                                let keep = head.rsplit_once(" in ").map_or("", |x| x.0);
                                format!("{keep}{tail}{}", &piece[end..])
                            } else {
                                piece.to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join("<t>")
                };
                (f.name().unwrap().to_string(), re_time(&s))
            })
            .filter(|(name, _)| name != xlsudoku::annotate::RECORD_PART)
            .collect()
    };
    assert_eq!(strip(&first), strip(&second));
}

#[test]
fn the_input_is_never_modified_and_cannot_be_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.xlsx");
    std::fs::copy(fixture("example.xlsx"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let o = xlsudoku(&[input.to_str().unwrap()]);
    assert_eq!(code(&o), 0);
    assert_eq!(std::fs::read(&input).unwrap(), before);
    assert!(dir.path().join("in.solved.xlsx").is_file());
    let o = xlsudoku(&[input.to_str().unwrap(), "-o", input.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("in.xlsx"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn macro_workbooks_stay_macro_workbooks() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("m.xlsm");
    std::fs::copy(fixture("macro.xlsm"), &input).unwrap();
    let o = xlsudoku(&[input.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = dir.path().join("m.solved.xlsm");
    let mut z = zip::ZipArchive::new(std::fs::File::open(&out).unwrap()).unwrap();
    assert!(z.by_name("xl/vbaProject.bin").is_ok());
    let mut ct = String::new();
    std::io::Read::read_to_string(&mut z.by_name("[Content_Types].xml").unwrap(), &mut ct).unwrap();
    assert!(ct.contains("macroEnabled"), "{ct}");
    // Excel refuses a macro workbook named .xlsx: so does xlsudoku.
    let wrong = dir.path().join("m.xlsx");
    let o = xlsudoku(&[input.to_str().unwrap(), "-o", wrong.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains(".xlsm"), "{}", stderr(&o));
    assert!(!wrong.exists());
}

#[test]
fn broken_files_exit_2_and_name_the_file() {
    for (file, words) in [
        ("encrypted.xlsx", "encrypted"),
        ("truncated.xlsx", "truncated.xlsx"),
        ("not_a_workbook.xlsx", "not_a_workbook.xlsx"),
        ("zip_bomb.xlsx", "zip bomb"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.xlsx");
        let o = xlsudoku(&[fixture(file).to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(code(&o), 2, "{file}");
        let err = stderr(&o);
        assert!(err.contains(file) && err.contains(words), "{file}: {err}");
        assert!(!out.exists(), "{file}: no output for a broken input");
    }
    let o = xlsudoku(&["/no/such/file.xlsx"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("/no/such/file.xlsx"));
}

#[test]
fn range_and_box_override_detection() {
    let o = xlsudoku(&[
        "check",
        "--json",
        "--range",
        "B2:G7",
        "--box",
        "3x2",
        fixture("layout_6x6.xlsx").to_str().unwrap(),
    ]);
    let (recs, _) = records(&o);
    assert_eq!(recs.len(), 2);
    assert!(recs
        .iter()
        .all(|r| r.range.as_deref() == Some("B2:G7") && r.box_shape.as_deref() == Some("3x2")));
    // The "Six" sheet has 3x2 boxes: solved. "Tall" has 2x3 boxes: read as
    // 3x2 its givens clash or have no single answer.
    assert_eq!(recs[0].status, "solved");
    assert_ne!(recs[1].status, "solved");
}

#[test]
fn bench_reports_counts_per_file_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.txt");
    std::fs::write(
        &path,
        "# two 9x9 puzzles: one unique, one with several solutions\n\
         ..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.. easy\n\
         ....................18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n",
    )
    .unwrap();
    let o = xlsudoku(&["bench", "--json", path.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["puzzles"], 2);
    assert_eq!(v["unique"], 1);
    assert_eq!(v["multiple"], 1);
    assert_eq!(v["none"], 0);
    // Exactly the fields issue 3 names (`timed_out` only when one did).
    let mut keys: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "file",
            "multiple",
            "none",
            "per_second",
            "puzzles",
            "seconds",
            "solved",
            "unique"
        ]
    );
    // A bad line names the file and the line.
    std::fs::write(&path, "12x\n").unwrap();
    let o = xlsudoku(&["bench", path.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("set.txt"), "{}", stderr(&o));
    // -j benches files side by side, reported in the order given.
    let sets: Vec<String> = (0..4)
        .map(|k| {
            let p = dir.path().join(format!("s{k}.txt"));
            let line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
            std::fs::write(&p, line.repeat(k + 1)).unwrap();
            p.to_str().unwrap().to_string()
        })
        .collect();
    let mut args = vec!["bench", "--json", "-j", "2"];
    args.extend(sets.iter().map(String::as_str));
    let o = xlsudoku(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let counts: Vec<u64> = stdout(&o)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["puzzles"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(counts, [1, 2, 3, 4]);
    assert_eq!(code(&xlsudoku(&["bench", "-j", "0", &sets[0]])), 2);
}

#[test]
fn the_copys_zip_comment_stays_short_enough_for_libreoffice() {
    // LibreOffice cannot open a zip archive whose comment passes about 500
    // bytes; the records of several grids (with their reports) go into a
    // part of the copy instead, and read back whole.
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = solve_to(&fixture("layout_two_grids.xlsx"), dir.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let bytes = std::fs::read(&out).unwrap();
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(&bytes)).unwrap();
    assert!(z.comment().len() < 400, "{}", z.comment().len());
    let text = String::from_utf8(xlsudoku::annotate::record_text(&mut z)).unwrap();
    assert_eq!(text.matches("xlsudoku-grid ").count(), 2, "{text}");
    let stamp = xlsudoku::annotate::read_stamp(std::io::Cursor::new(&bytes)).unwrap();
    assert!(stamp.contains("grids=["), "{stamp}");
}

#[test]
fn every_failing_run_ends_with_its_failures_and_github_gets_annotations() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("puzzles");
    std::fs::create_dir(&dir).unwrap();
    for name in [
        "status_logic_easy.xlsx",
        "status_multiple.xlsx",
        "status_invalid_clash.xlsx",
    ] {
        std::fs::copy(fixture(name), dir.join(name)).unwrap();
    }
    let dir = dir.to_str().unwrap();
    // -q: nothing but the failures, one line each, at the end.
    let o = xlsudoku(&["check", dir, "-q"]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], "xlsudoku: 2 grids failed:", "{err}");
    assert!(
        lines[1].ends_with(
            "status_invalid_clash.xlsx [Clash] C3:K11: invalid - 5 twice in row 3 (C3, I3)"
        ),
        "{err}"
    );
    assert!(
        lines[2].contains(
            "status_multiple.xlsx [Multiple] C3:K11: multiple - more than one solution: "
        ) && lines[2].ends_with(" either way"),
        "{err}"
    );
    assert_eq!(lines.len(), 3, "{err}");
    // Without -q the summary follows the usual lines; a run that passed
    // has none.
    let o = xlsudoku(&["check", dir, "--color", "never"]);
    assert!(stderr(&o).contains("xlsudoku: 2 grids failed:"));
    assert!(!stdout(&o).contains('\x1b'));
    let o = xlsudoku(&["check", &format!("{dir}/status_logic_easy.xlsx")]);
    assert_eq!(code(&o), 0);
    assert!(!stderr(&o).contains("failed"), "{}", stderr(&o));
    // --format github: an ::error command per failing grid on stdout.
    let o = xlsudoku(&["check", dir, "--format", "github", "-q"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let errors: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("::error file="))
        .collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(
        errors[0].contains("title=xlsudoku [Clash] C3%3AK11%3A invalid::5 twice in row 3"),
        "{out}"
    );
    // --color always paints the status word; NO_COLOR leaves auto plain.
    let o = xlsudoku(&["check", dir, "--color", "always"]);
    assert!(
        stdout(&o).contains("\x1b[1;32msolved\x1b[0m"),
        "{}",
        stdout(&o)
    );
    let o = crate::util::command()
        .args(["check", dir])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!stdout(&o).contains('\x1b'));
}

/// `path` rewritten to `to` with its first sheet part passed through
/// `edit`; every other entry and the zip comment (the run's records) kept.
fn edit_first_sheet(path: &Path, to: &Path, edit: impl Fn(String) -> String) {
    crate::util::repack_file(path, to, |name, data| {
        Some(if name == "xl/worksheets/sheet1.xml" {
            edit(String::from_utf8(data).unwrap()).into_bytes()
        } else {
            data
        })
    });
}

/// The texts of the first sheet's column C below row 11, row by row.
fn texts_below_the_grid(path: &Path) -> Vec<(u32, String)> {
    let mut book: Xlsx<_> = open_workbook(path).unwrap();
    let name = book.sheet_names()[0].clone();
    let range = book.worksheet_range(&name).unwrap();
    (11..40)
        .filter_map(|r| match range.get_value((r, 2)) {
            Some(Data::String(s)) => Some((r + 1, s.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn an_edited_copy_keeps_one_note_and_the_text_a_person_typed_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let (o, first) = solve_to(&fixture("status_logic_easy.xlsx"), dir.path(), &[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let notes = texts_below_the_grid(&first);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].1.starts_with("solved in "), "{notes:?}");
    // The note restyled (its font no longer blue italic): still the run's
    // note, replaced in place, not a second one under it.
    let restyled = dir.path().join("restyled.xlsx");
    edit_first_sheet(&first, &restyled, |xml| {
        let at = xml.find("<c r=\"C12\" s=\"").expect("the note's cell");
        let end = at + xml[at..].find('>').unwrap();
        format!("{}<c r=\"C12\" s=\"0\"{}", &xml[..at], &xml[end..])
    });
    let again = dir.path().join("again.xlsx");
    let o = xlsudoku(&[restyled.to_str().unwrap(), "-o", again.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let notes = texts_below_the_grid(&again);
    assert_eq!(notes.len(), 1, "one note per grid: {notes:?}");
    assert_eq!(notes[0].0, 12, "{notes:?}");
    assert!(notes[0].1.starts_with("solved in "), "{notes:?}");
    // Text a person typed over the note (it keeps the note's blue italics,
    // as a cell does when typed into) is theirs: kept, the note goes below.
    let typed = dir.path().join("typed.xlsx");
    edit_first_sheet(&first, &typed, |xml| {
        let at = xml.find("<t>solved in ").expect("the note's text") + 3;
        let end = at + xml[at..].find("</t>").unwrap();
        format!("{}checked by Ann{}", &xml[..at], &xml[end..])
    });
    let third = dir.path().join("third.xlsx");
    let o = xlsudoku(&[typed.to_str().unwrap(), "-o", third.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let notes = texts_below_the_grid(&third);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(notes[0], (12, "checked by Ann".to_string()), "{notes:?}");
    assert!(notes[1].1.starts_with("solved in "), "{notes:?}");
}

#[test]
fn every_command_refuses_the_same_box_shapes_with_one_message() {
    let input = fixture("status_logic_easy.xlsx");
    let input = input.to_str().unwrap();
    let nine = ".".repeat(81);
    for (args, shape) in [
        (vec!["solve", input, "--box", "1x9"], "1x9"),
        (vec!["check", input, "--box", "2x1"], "2x1"),
        (vec!["explain", input, "--box", "1x1"], "1x1"),
        (vec!["explain", "--puzzle", &nine, "--box", "9x1"], "9x1"),
        (vec!["generate", "-o", "-", "--box", "1x9"], "1x9"),
    ] {
        let o = xlsudoku(&args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stdout(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
        let want = format!(
            "box shape {shape}: boxes must be at least 2 cells each way and make a side of at most 64"
        );
        assert!(stderr(&o).contains(&want), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn json_numbers_are_rounded_to_what_they_mean() {
    let o = xlsudoku(&[
        "check",
        "--json",
        fixture("status_logic_easy.xlsx").to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let line = stdout(&o).lines().next().unwrap().to_string();
    let number = |key: &str| -> String {
        let at = line
            .find(&format!("\"{key}\":"))
            .unwrap_or_else(|| panic!("{line}"))
            + key.len()
            + 3;
        line[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect()
    };
    let decimals = |n: &str| n.split_once('.').map_or(0, |(_, d)| d.len());
    assert!(decimals(&number("elapsed_ms")) <= 3, "{line}");
    assert_eq!(number("rating"), "1.2", "{line}");
}

#[test]
fn control_characters_in_messages_are_written_out() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let puzzle = format!("\0{}", &crate::util::EASY[1..]);
    std::fs::write(&file, format!("{puzzle}\n")).unwrap();
    let o = xlsudoku(&["rate", file.to_str().unwrap()]);
    let text = format!("{}{}", stdout(&o), stderr(&o));
    assert!(text.contains("character '\\0' at position 0"), "{text:?}");
    assert!(!text.contains('\0'), "{text:?}");
}
