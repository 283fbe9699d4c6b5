//! The job runner behind `solve` and `check`: workbooks solved in parallel,
//! records printed in input order (`Sink`), report files written whole
//! (`ReportFile`, `--report`, `--junit`), and temporary files removed on
//! a signal.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use xlsudoku::batch::{self, FileOutcome, Plan, RunOptions};
use xlsudoku::report::{junit_xml, SheetRecord, Summary};

use crate::common::{on_stdout, say, stdout_closed, usage_error, Common};
use crate::failures::{github_line, paint, Failures, Format};

/// A report file (`--report`, `--junit`) being written. A regular file (a
/// link to one: its target) is written to a temporary file beside it and
/// renamed over it at the end; anything else (a pipe, a device such as
/// `/dev/stdout`, a link to nothing) is written directly. The first write
/// error is kept, and [`ReportFile::finish`] reports it.
pub struct ReportFile {
    /// As given, for messages.
    path: PathBuf,
    /// The regular file to rename the temporary one over.
    target: Option<PathBuf>,
    temp: Option<batch::TempCopy>,
    direct: Option<std::io::BufWriter<std::fs::File>>,
    buffered: Option<std::io::BufWriter<std::fs::File>>,
    error: Option<std::io::Error>,
}

impl ReportFile {
    fn create(path: &Path) -> std::io::Result<ReportFile> {
        let mut report = ReportFile {
            path: path.to_path_buf(),
            target: None,
            temp: None,
            direct: None,
            buffered: None,
            error: None,
        };
        let regular = std::fs::metadata(path).map(|m| m.is_file());
        let special = path.starts_with("/dev") || path.starts_with("/proc");
        match regular {
            Ok(true) if !special => {
                let target = std::fs::canonicalize(path)?;
                let mut temp = batch::TempCopy::beside(&target)?;
                report.buffered = Some(std::io::BufWriter::new(temp.file().try_clone()?));
                report.temp = Some(temp);
                report.target = Some(target);
            }
            Ok(_) => report.direct = Some(std::io::BufWriter::new(open_special(path)?)),
            Err(_) if std::fs::symlink_metadata(path).is_ok() => {
                // A link to nothing yet: written through.
                let f = std::fs::File::create(path)?;
                report.direct = Some(std::io::BufWriter::new(f));
            }
            Err(_) => {
                let mut temp = batch::TempCopy::beside(path)?;
                report.buffered = Some(std::io::BufWriter::new(temp.file().try_clone()?));
                report.temp = Some(temp);
                report.target = Some(path.to_path_buf());
            }
        }
        Ok(report)
    }

    fn write(&mut self, text: &str) {
        if self.error.is_some() {
            return;
        }
        let w = match (&mut self.direct, &mut self.buffered) {
            (Some(w), _) | (None, Some(w)) => w,
            (None, None) => return,
        };
        if let Err(e) = w.write_all(text.as_bytes()) {
            self.error = Some(e);
        }
    }

    /// Flushes and puts the report in place; the error names the file.
    fn finish(mut self) -> Result<(), String> {
        let fail = |e: &dyn std::fmt::Display| {
            format!("{}: cannot write the report: {e}", self.path.display())
        };
        for w in [self.direct.as_mut(), self.buffered.as_mut()]
            .into_iter()
            .flatten()
        {
            if self.error.is_none() {
                if let Err(e) = w.flush().and_then(|()| w.get_ref().sync_all().or(Ok(()))) {
                    self.error = Some(e);
                }
            }
        }
        if let Some(e) = self.error.take() {
            return Err(fail(&e));
        }
        self.buffered = None;
        if let (Some(temp), Some(target)) = (self.temp.take(), &self.target) {
            temp.persist(target).map_err(|e| fail(&e))?;
        }
        Ok(())
    }
}

/// Opens a pipe or a device to write into, without waiting: a FIFO no
/// one reads is an error at once (opening it would wait for a reader for
/// ever). The writes then wait as usual for a slow reader.
fn open_special(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        use std::os::unix::io::AsRawFd;
        options.custom_flags(libc::O_NONBLOCK);
        let f = options.open(path).map_err(|e| {
            if e.raw_os_error() == Some(libc::ENXIO) {
                std::io::Error::other("a FIFO that no one reads (start its reader first)")
            } else {
                e
            }
        })?;
        // SAFETY: fcntl on a descriptor `f` owns.
        unsafe {
            let flags = libc::fcntl(f.as_raw_fd(), libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(f.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
        Ok(f)
    }
    #[cfg(not(unix))]
    options.open(path)
}

/// Where records go, in input order, as files finish.
pub struct Sink {
    json: bool,
    quiet: bool,
    report: Option<ReportFile>,
    keep: bool,
    records: Vec<SheetRecord>,
    summary: Summary,
    failed: bool,
    allow_no_grid: bool,
    progress: Option<ProgressBar>,
    /// Human lines go to stderr (stdout carries the workbook).
    human_to_stderr: bool,
    /// False once stdout is closed (`| head`): stop printing, finish the work.
    stdout_open: bool,
    /// The first error writing stdout other than its reader going away.
    stdout_error: Option<std::io::Error>,
    /// Sheet names met in the workbooks read (for `--sheet` errors).
    sheet_names: std::collections::BTreeSet<String>,
    /// Sheet names reported, lower case.
    reported_sheets: std::collections::HashSet<String>,
    /// What failed, for the summary at the end.
    failures: Failures,
    /// `--format github`.
    github: bool,
    /// Status words in colour.
    colour: bool,
}

impl Sink {
    fn file_done(&mut self, done: &FileOutcome) {
        self.summary.files += 1;
        self.summary.skipped += usize::from(done.skipped);
        self.summary.failed_files += usize::from(done.failed);
        if self.sheet_names.len() < 1000 {
            self.sheet_names.extend(done.sheet_names.iter().cloned());
        }
        // An .xls/.ods read as .xlsx: one line on stderr, always when
        // something was not carried (never dropped silently).
        if let (Some(conv), Some(r)) = (&done.conversion, done.records.first()) {
            if !self.quiet || !conv.not_carried.is_empty() {
                self.print_err(&format!("xlsudoku: {}", conv.line(r.file.as_ref())));
            }
        }
        // A sheet without a grid fails only when its workbook has none.
        let has_grid = xlsudoku::report::has_grid(&done.records);
        for r in &done.records {
            self.emit(r, has_grid);
        }
        if let Some(pb) = &self.progress {
            pb.inc(1);
            let rate = pb.position() as f64 / pb.elapsed().as_secs_f64().max(1e-3);
            pb.set_message(format!("{} grids, {rate:.0} files/s", self.summary.sheets));
        }
    }

    fn emit(&mut self, r: &SheetRecord, workbook_has_grid: bool) {
        self.summary.add(r);
        if let Some(sheet) = &r.sheet {
            self.reported_sheets.insert(sheet.to_lowercase());
        }
        let fails = r.sheet.is_none() || !r.passes(workbook_has_grid, self.allow_no_grid);
        if r.sheet.is_some() && fails {
            self.failed = true;
        }
        if r.sheet.is_none() && r.error.as_deref() == Some(batch::STDOUT_CLOSED) {
            stdout_closed();
        }
        if fails {
            self.failures.note(r);
        }
        if r.sheet.is_none() {
            // File errors always reach stderr, even with -q.
            self.print_err(&format!(
                "xlsudoku: {}",
                r.error.as_deref().unwrap_or("error")
            ));
        }
        if self.json {
            self.print(&r.to_json_line());
        } else if self.github && fails {
            // An annotation per failure, -q or not.
            let line = github_line(r);
            if self.human_to_stderr {
                self.print_err(&line);
            } else {
                self.print(&line);
            }
        } else if !self.quiet && r.sheet.is_some() {
            let mut line = r.to_human_line();
            if self.colour {
                line = paint(&line, r.status);
            }
            if self.human_to_stderr {
                self.print_err(&line);
            } else {
                self.print(&line);
            }
        }
        if let Some(f) = &mut self.report {
            f.write(&format!("{}\n", r.to_json_line()));
        }
        if self.keep {
            self.records.push(r.clone());
        }
    }

    fn print(&mut self, line: &str) {
        if !self.stdout_open {
            return;
        }
        let write = || writeln!(std::io::stdout().lock(), "{line}");
        let written = match &self.progress {
            Some(pb) => pb.suspend(write),
            None => write(),
        };
        if let Err(e) = on_stdout(written) {
            self.stdout_open = false;
            self.stdout_error = Some(e);
        }
    }

    fn print_err(&self, line: &str) {
        match &self.progress {
            Some(pb) => pb.suspend(|| say(line)),
            None => say(line),
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove this run's temporary files and
/// exit with 128 + the signal's number (130, 143, 129), as a shell does.
/// signal-hook, not ctrlc: the exit status must say which signal came,
/// and ctrlc's handler is not told.
#[cfg(unix)]
fn clean_up_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            batch::remove_own_temporary_files();
            std::process::exit(128 + signal);
        }
    });
}

#[cfg(not(unix))]
fn clean_up_on_signals() {}

pub fn run_jobs(
    c: &Common,
    plan: &Plan,
    opts: &RunOptions,
    junit: Option<&Path>,
    allow_no_grid: bool,
) -> u8 {
    let start = Instant::now();
    let planned = match batch::plan(plan) {
        Ok(p) => p,
        Err(e) => return usage_error(e),
    };
    if !c.quiet {
        for (input, writer) in &planned.passed_over {
            say(&format!(
                "xlsudoku: passing over {}: an earlier copy of {}, rewritten by this run",
                input.display(),
                writer.display()
            ));
        }
    }
    let mut jobs = planned.jobs;
    let not_read = planned.not_read;
    if jobs.is_empty() && !plan.write {
        // A check over nothing is a mistyped path, not a pass.
        return usage_error(format!(
            "no .xlsx/.xlsm workbooks found in the inputs{}",
            not_read_list(&not_read)
        ));
    }
    for (flag, path) in [("--report", c.report.as_deref()), ("--junit", junit)] {
        if let Some(clash) = path.and_then(|p| batch::report_clash(p, &jobs)) {
            return usage_error(format!(
                "{flag} {}: that is the workbook {}; the report would replace it: choose another file",
                path.unwrap_or(Path::new("")).display(),
                clash.display()
            ));
        }
    }
    if let Some(shard) = c.shard {
        jobs = shard.select(jobs);
    }
    // Held to the end of the run: no other run writes these outputs
    // meanwhile (released by the system however the run ends).
    let _lock = match batch::lock_outputs(plan, &jobs, c.shard) {
        Ok(l) => l,
        Err(e) => return usage_error(e),
    };
    clean_up_on_signals();
    // Temporary files that killed runs left where this one writes.
    sweep_where_written(c, junit, &jobs);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(c.jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return usage_error(format!("cannot start the worker threads: {e}")),
    };
    let report = match &c.report {
        Some(p) => match ReportFile::create(p) {
            Ok(f) => Some(f),
            Err(e) => return usage_error(format!("{}: cannot write the report: {e}", p.display())),
        },
        None => None,
    };
    let progress = progress_bar(c, jobs.len());
    let mut sink = Sink {
        json: c.json,
        quiet: c.quiet,
        report,
        keep: junit.is_some(),
        records: Vec::new(),
        summary: Summary::default(),
        failed: false,
        allow_no_grid,
        progress: progress.clone(),
        human_to_stderr: plan.write && plan.output.as_deref().is_some_and(batch::is_dash),
        stdout_open: true,
        stdout_error: None,
        sheet_names: Default::default(),
        reported_sheets: Default::default(),
        failures: Failures::default(),
        github: c.format == Format::Github,
        colour: c
            .color
            .enabled(plan.write && plan.output.as_deref().is_some_and(batch::is_dash)),
    };
    process_in_order(pool, &jobs, opts, &mut sink);
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    finish_run(c, junit, allow_no_grid, sink, &not_read, start)
}

/// Removes the temporary files that killed runs left where this one writes
/// (the reports' folders and the outputs').
fn sweep_where_written(c: &Common, junit: Option<&Path>, jobs: &[batch::Job]) {
    let report_dirs: Vec<PathBuf> = [c.report.as_deref(), junit]
        .into_iter()
        .flatten()
        .map(|p| {
            std::fs::canonicalize(p)
                .unwrap_or_else(|_| p.to_path_buf())
                .parent()
                .map(|d| {
                    if d.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        d
                    }
                    .to_path_buf()
                })
                .unwrap_or_else(|| PathBuf::from("."))
        })
        .collect();
    let output_dirs: Vec<PathBuf> = jobs
        .iter()
        .filter_map(|j| j.output.as_deref())
        .filter(|o| !batch::is_dash(o))
        .map(|o| match o.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        })
        .collect();
    batch::sweep_leftovers(report_dirs.iter().chain(&output_dirs).map(PathBuf::as_path));
}

/// The progress bar of a run of several files on a terminal (not with -q).
fn progress_bar(c: &Common, files: usize) -> Option<ProgressBar> {
    (!c.quiet && std::io::stderr().is_terminal() && files > 1).then(|| {
        let pb = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} files, {msg} [{elapsed_precise}, ETA {eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    })
}

/// Processes the jobs on the pool; workers finish in any order, records
/// are emitted in input order, each file as soon as every file before it
/// is done.
fn process_in_order(
    pool: rayon::ThreadPool,
    jobs: &[batch::Job],
    opts: &RunOptions,
    sink: &mut Sink,
) {
    let (tx, rx) = std::sync::mpsc::channel::<(usize, FileOutcome)>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            pool.install(|| {
                jobs.par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, job)| {
                        let _ = tx.send((i, batch::process(job, opts)));
                    })
            })
        });
        let mut pending: BTreeMap<usize, FileOutcome> = BTreeMap::new();
        let mut next = 0;
        for (i, done) in rx {
            pending.insert(i, done);
            while let Some(done) = pending.remove(&next) {
                sink.file_done(&done);
                next += 1;
            }
        }
    });
}

/// The end of a run: the summary, the failures, the reports written, and
/// the exit status.
fn finish_run(
    c: &Common,
    junit: Option<&Path>,
    allow_no_grid: bool,
    mut sink: Sink,
    not_read: &[PathBuf],
    start: Instant,
) -> u8 {
    sink.summary.seconds = start.elapsed().as_secs_f64();
    // Listed in the summary (its JSON line too), never as records: a
    // reader of the records meets grids and file errors only.
    sink.summary.not_read = not_read
        .iter()
        .map(|p| xlsudoku::report::NotRead {
            file: p.display().to_string(),
            reason: batch::not_read_reason(p).to_string(),
        })
        .collect();
    if !c.quiet && !c.json && !not_read.is_empty() {
        let list = not_read_list(not_read);
        say(&format!(
            "xlsudoku: not read: {}",
            list.trim_start_matches("; ")
        ));
    }
    if c.json {
        let line = sink.summary.to_json_line();
        sink.print(&line);
    } else if !c.quiet {
        say(&sink.summary.to_human_line());
    }
    // Every run that had failures ends with them, one line each (-q too).
    if let Some(failures) = sink.failures.summary() {
        say(&failures);
    }
    let mut code = 0u8;
    if sink.stdout_open {
        if let Err(e) = on_stdout(std::io::stdout().lock().flush()) {
            sink.stdout_error = Some(e);
        }
    }
    if let Some(e) = &sink.stdout_error {
        say(&format!("xlsudoku: stdout: cannot write the report: {e}"));
        code = 2;
    }
    if let Some(mut f) = sink.report.take() {
        f.write(&format!("{}\n", sink.summary.to_json_line()));
        if let Err(e) = f.finish() {
            say(&format!("xlsudoku: {e}"));
            code = 2;
        }
    }
    if let Some(path) = junit {
        let xml = junit_xml(&sink.records, &sink.summary, allow_no_grid);
        let written = ReportFile::create(path)
            .map_err(|e| format!("{}: cannot write the report: {e}", path.display()))
            .and_then(|mut f| {
                f.write(&xml);
                f.finish()
            });
        if let Err(e) = written {
            say(&format!("xlsudoku: {e} (JUnit)"));
            code = 2;
        }
    }
    // A --sheet name that no workbook has is a typing error, not a pass.
    let unknown: Vec<&String> = c
        .sheet
        .iter()
        .filter(|n| !sink.reported_sheets.contains(&n.to_lowercase()))
        .collect();
    if !unknown.is_empty() && sink.summary.failed_files == 0 {
        let there: Vec<&str> = sink.sheet_names.iter().map(String::as_str).collect();
        for name in unknown {
            say(&format!(
                "xlsudoku: --sheet {}: no such sheet{}",
                xlsudoku::quote::shown(name),
                if there.is_empty() {
                    String::new()
                } else {
                    format!("; the sheets are: {}", there.join(", "))
                }
            ));
        }
        code = 2;
    }
    if sink.summary.failed_files > 0 {
        code = 2;
    } else if sink.failed && code == 0 {
        code = 1;
    }
    code
}

/// The files not read, with why: `; 2 files of other kinds: a.csv (not a
/// workbook …), …` — at most ten named.
fn not_read_list(not_read: &[PathBuf]) -> String {
    if not_read.is_empty() {
        return String::new();
    }
    let mut text = format!(
        "; {} of other kinds: ",
        if not_read.len() == 1 {
            "1 file".to_string()
        } else {
            format!("{} files", not_read.len())
        }
    );
    let named: Vec<String> = not_read
        .iter()
        .take(10)
        .map(|p| format!("{} ({})", p.display(), batch::not_read_reason(p)))
        .collect();
    text.push_str(&named.join(", "));
    if not_read.len() > 10 {
        text.push_str(&format!(", and {} more", not_read.len() - 10));
    }
    text
}
