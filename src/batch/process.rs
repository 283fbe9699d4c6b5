//! One file of a run: read once, its grids solved in parallel, its copy
//! written (or, for `check`, made into nothing); a panic inside becomes the
//! file's error record.

use super::*;

/// Reads, solves and (for a job with an output) writes one file. Never
/// panics on bad input: problems come back as records.
///
/// An output that exists is replaced only when xlsudoku wrote it and it
/// has not changed since (its stamp and digest say so), or with
/// [`RunOptions::force`]; anything else, such as a copy opened and saved by
/// a person, is left as it is and the file gets an error record.
///
/// A panic inside (a defect, never an expected outcome) becomes this
/// file's error record, so one file never ends a folder run; temporary
/// files are removed as the panic unwinds.
pub fn process(job: &Job, opts: &RunOptions) -> FileOutcome {
    contained(&job.input, || process_file(job, opts))
}

/// Runs `work` for the file `input`, a panic inside it turned into the
/// file's error record (see [`process()`]); what `work` holds is dropped as
/// the panic unwinds, temporary files with it.
fn contained(input: &Path, work: impl FnOnce() -> FileOutcome) -> FileOutcome {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        FileOutcome {
            records: vec![SheetRecord {
                file: input.display().to_string(),
                status: SheetStatus::Error,
                error: Some(format!(
                    "{}: internal error, nothing written ({what}); please report it with the file",
                    input.display()
                )),
                ..Default::default()
            }],
            failed: true,
            ..Default::default()
        }
    })
}

/// What the grids of one file came to, in reading order: the sheet's
/// index, its record, the cells to write, the grid's record and its copy
/// for the sheet of solutions.
type Solved = (
    usize,
    SheetRecord,
    Vec<CellEdit>,
    Option<GridMark>,
    Option<SheetCopy>,
);

/// What a file's copy gets: the records, the edits by sheet, the grid
/// records, the styles taken from other cells, and the copies for the
/// sheet of solutions with their records' places.
#[derive(Default)]
struct Gathered {
    records: Vec<SheetRecord>,
    edits: Vec<SheetEdits>,
    marks: Vec<GridMark>,
    style_from: Vec<StyleFrom>,
    copies: Vec<(usize, SolutionCopy)>,
}

fn process_file(job: &Job, opts: &RunOptions) -> FileOutcome {
    let shown_input = if is_dash(&job.input) {
        PathBuf::from("<stdin>")
    } else {
        job.input.clone()
    };
    let file = shown_input.display().to_string();
    let error = |message: String| error_outcome(&file, message);
    let to_file = job.output.as_ref().filter(|o| !is_dash(o));
    // Taken before reading: should the input change while it is processed,
    // the copy carries the older time and the next run redoes it.
    let key = to_file.and_then(|_| stamp(&job.input, opts));
    if let Some(out) = to_file {
        match skip_existing(job, opts, out, key.as_deref(), &file) {
            Ok(Some(outcome)) => return outcome,
            Ok(None) => {}
            Err(message) => return error(message),
        }
    }
    // One read serves detection and the copy.
    let bytes = match read_input(&job.input) {
        Ok(b) => b,
        Err(e) => return error(e.to_string()),
    };
    // An .xls or .ods is read, and copied, as the .xlsx made of it.
    let (bytes, conversion) = match crate::workbook::as_xlsx(&shown_input, bytes) {
        Ok(b) => b,
        Err(e) => return error(e.to_string()),
    };
    let sheets = match read_workbook_bytes(&shown_input, &bytes, &opts.read) {
        Ok(s) => s,
        Err(e) => return error(e.to_string()),
    };
    let sheet_names: Vec<String> = sheets.iter().map(|s| s.name.clone()).collect();
    let wanted: Vec<String> = opts.sheets.iter().map(|s| s.to_lowercase()).collect();
    // Every grid of every sheet, solved in parallel.
    let tasks: Vec<(usize, &str, Option<&FoundGrid>)> = sheets
        .iter()
        .enumerate()
        .filter(|(_, s)| wanted.is_empty() || wanted.contains(&s.name.to_lowercase()))
        .flat_map(|(i, s)| {
            let grids: Vec<Option<&FoundGrid>> = if s.grids.is_empty() {
                vec![None]
            } else {
                s.grids.iter().map(Some).collect()
            };
            grids.into_iter().map(move |g| (i, s.name.as_str(), g))
        })
        .collect();
    if tasks.is_empty() && !wanted.is_empty() {
        // None of the sheets asked for: nothing to report or write.
        return FileOutcome {
            sheet_names,
            ..Default::default()
        };
    }
    let solved = solve_all(&tasks, &sheets, &file, opts);
    let mut got = gather(solved, &sheets);
    // A workbook with no grid on any sheet (asked for with --sheet or not)
    // fails, and its records say so.
    if sheets.iter().all(|s| s.grids.is_empty()) {
        for r in &mut got.records {
            r.error = Some(no_grid_anywhere(r.error.take()));
        }
    }
    if let Some(out) = &job.output {
        if let Err(e) = write_output(
            job,
            opts,
            out,
            (&shown_input, &bytes),
            &sheet_names,
            key,
            &mut got,
        ) {
            return error(e);
        }
    } else if let Err(e) = annotate_with(
        std::io::Cursor::new(&bytes),
        &got.edits,
        &mut Discard::default(),
        AnnotateOptions::default(),
    ) {
        // `check` makes the copy too, into nothing: it refuses exactly
        // what writing the copy would refuse.
        return error(format!("{}: {e}", job.input.display()));
    }
    for r in &mut got.records {
        r.converted.clone_from(&conversion);
    }
    FileOutcome {
        records: got.records,
        sheet_names,
        conversion,
        ..Default::default()
    }
}

/// A file's outcome when it fails as a whole: one error record.
fn error_outcome(file: &str, message: String) -> FileOutcome {
    FileOutcome {
        records: vec![SheetRecord {
            file: file.to_string(),
            status: SheetStatus::Error,
            error: Some(message),
            ..Default::default()
        }],
        failed: true,
        ..Default::default()
    }
}

/// What an existing output means for the job: left alone with an error
/// (not a regular file; not xlsudoku's, without --force), or up to date, so
/// that its recorded grids are reported again (`Some`); `None` to go on.
fn skip_existing(
    job: &Job,
    opts: &RunOptions,
    out: &Path,
    key: Option<&str>,
    file: &str,
) -> Result<Option<FileOutcome>, String> {
    match existing_output(out) {
        // Not even with --force: replacing a FIFO or a device is never
        // what was meant.
        Existing::NotRegular(kind) => Err(not_regular_message(out, kind)),
        Existing::Foreign(why) if !opts.force => Err(format!(
            "{}: {why}; left as it is (move it away, or --force replaces it)",
            out.display()
        )),
        Existing::Ours(line) if job.incremental && !opts.force => {
            Ok(key.and_then(|k| stamped_grids(&line, k)).map(|grids| {
                let shown = out.display().to_string();
                FileOutcome {
                    records: grids.into_iter().map(|g| g.record(file, &shown)).collect(),
                    skipped: true,
                    ..Default::default()
                }
            }))
        }
        _ => Ok(None),
    }
}

/// Solves every grid of the file in parallel (a sheet without one gets its
/// no-grid record).
fn solve_all(
    tasks: &[(usize, &str, Option<&FoundGrid>)],
    sheets: &[crate::workbook::Sheet],
    file: &str,
    opts: &RunOptions,
) -> Vec<Solved> {
    tasks
        .par_iter()
        .map(|&(i, name, grid)| {
            let (record, edits, copy) = match grid {
                Some(g) => solve_grid_once(
                    file,
                    name,
                    g,
                    (&opts.solve, &opts.limits),
                    Some(&opts.repeats),
                ),
                None => (
                    SheetRecord {
                        file: file.to_string(),
                        sheet: Some(name.to_string()),
                        status: SheetStatus::NoGrid,
                        // Why the bordered squares there are not grids.
                        error: no_grid_reason(&sheets[i]),
                        ..Default::default()
                    },
                    Vec::new(),
                    None,
                ),
            };
            let mark = grid.map(|g| grid_mark(name, g, &edits));
            (i, record, edits, mark, copy)
        })
        .collect()
}

/// The grids' results gathered into what the copy gets.
fn gather(solved: Vec<Solved>, sheets: &[crate::workbook::Sheet]) -> Gathered {
    let mut got = Gathered {
        records: Vec::with_capacity(solved.len()),
        ..Gathered::default()
    };
    for (i, record, cells, mark, copy) in solved {
        if let (Some(cells), Some(m)) = (copy, &mark) {
            got.copies.push((
                got.records.len(),
                SolutionCopy {
                    sheet: m.sheet.clone(),
                    grid: m.range,
                    cells,
                    kept_styles: None,
                },
            ));
        }
        got.records.push(record);
        if let Some(m) = &mark {
            let grid = sheets[i].grids.iter().find(|g| g.range == m.range);
            got.style_from.extend(
                grid.map(|g| answer_styles(&m.sheet, g, &cells))
                    .unwrap_or_default(),
            );
        }
        got.marks.extend(mark);
        if cells.is_empty() {
            continue;
        }
        let name = &sheets[i].name;
        match got.edits.iter_mut().find(|e| &e.sheet == name) {
            Some(e) => e.cells.extend(cells),
            None => got.edits.push(SheetEdits {
                sheet: name.clone(),
                cells,
            }),
        }
    }
    got
}

/// Writes the copy to `out` (a file, atomically with its stamp, or
/// standard output), with the sheet of solutions laid out; the records
/// learn where their answers and the copy went.
fn write_output(
    job: &Job,
    opts: &RunOptions,
    out: &Path,
    (shown_input, bytes): (&Path, &[u8]),
    sheet_names: &[String],
    key: Option<String>,
    got: &mut Gathered,
) -> Result<(), String> {
    // The sheet of solutions: written in `sheet` mode, and in the
    // others an earlier run's goes.
    let mut copies = std::mem::take(&mut got.copies);
    let mut solutions = Solutions {
        copies: Vec::with_capacity(copies.len()),
        force: opts.force,
    };
    // With `--sheet`, the copies of the other sheets stay as an
    // earlier run wrote them, each in its sheet's place, whatever the
    // mode (the sheets asked for are the only ones this run changes).
    if !opts.sheets.is_empty() {
        let kept = kept_solution_copies(std::io::Cursor::new(bytes), &opts.sheets)
            .map_err(|e| format!("{}: {e}", job.input.display()))?;
        let order = |name: &str| sheet_names.iter().position(|n| n == name);
        copies.extend(kept.into_iter().map(|c| (usize::MAX, c)));
        // Stable: each sheet's copies keep their order.
        copies.sort_by_key(|(_, c)| order(&c.sheet));
    }
    if !copies.is_empty() {
        let name = solutions_sheet_name(std::io::Cursor::new(bytes))
            .map_err(|e| format!("{}: {e}", job.input.display()))?;
        let places =
            crate::annotate::solution_sheet::layout(copies.iter().map(|(_, c)| c.grid.rows()));
        for ((k, copy), place) in copies.into_iter().zip(places) {
            if let Some(r) = got.records.get_mut(k) {
                r.answer_range = Some(place.range.to_string());
                r.answer_sheet = Some(name.clone());
            }
            solutions.copies.push(copy);
        }
    }
    let line = key.map(|k| stamp_line(&k, &got.records));
    let marks = std::mem::take(&mut got.marks);
    let style_from = std::mem::take(&mut got.style_from);
    let written = if is_dash(out) {
        write_stdout(shown_input, bytes, &got.edits, marks, style_from, solutions)
    } else {
        write_atomic(
            shown_input,
            bytes,
            out,
            &got.edits,
            (marks, style_from, solutions),
            line,
        )
    };
    written?;
    let shown = if is_dash(out) {
        "<stdout>".to_string()
    } else {
        out.display().to_string()
    };
    for r in &mut got.records {
        r.output = Some(shown.clone());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file's work that panics after making a temporary file beside
    /// `target`.
    fn panics_holding_a_temporary(target: &Path) -> FileOutcome {
        let _temp = TempCopy::beside(target).unwrap();
        panic!("planted for the test at {}", target.display());
    }

    #[test]
    fn a_panic_becomes_the_files_error_record_and_the_next_file_runs() {
        let dir = tempfile::tempdir().unwrap();
        let b = dir.path().join("b.xlsx");
        let ok = || FileOutcome::default();
        let outcomes = [
            contained(&dir.path().join("a.xlsx"), ok),
            contained(&b, || panics_holding_a_temporary(&b)),
            contained(&dir.path().join("c.xlsx"), ok),
        ];
        assert!(!outcomes[0].failed && !outcomes[2].failed);
        let failed = &outcomes[1];
        assert!(failed.failed);
        let record = &failed.records[0];
        assert_eq!(record.status, SheetStatus::Error);
        assert_eq!(record.file, b.display().to_string());
        let error = record.error.as_deref().unwrap();
        assert!(
            error.starts_with(&format!(
                "{}: internal error, nothing written (planted",
                b.display()
            )),
            "{error}"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "no temporary file left: {left:?}");
    }

    #[test]
    fn a_panic_with_a_formatted_message_or_none_is_reported_too() {
        let input = Path::new("x.xlsx");
        let text = contained(input, || panic!("{}", String::from("built")));
        assert!(text.records[0]
            .error
            .as_deref()
            .unwrap()
            .contains("(built)"));
        let other = contained(input, || std::panic::panic_any(7u8));
        assert!(other.records[0]
            .error
            .as_deref()
            .unwrap()
            .contains("(no message)"));
    }
}
