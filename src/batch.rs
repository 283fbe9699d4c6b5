//! Runs over files and folders: which inputs, which outputs, and the whole
//! path for one file (read → solve every grid → write the annotated copy
//! atomically → report records).
//!
//! ```no_run
//! use std::path::PathBuf;
//! use xlsudoku::batch::{plan, process, Plan, RunOptions};
//!
//! let planned = plan(&Plan {
//!     inputs: vec![PathBuf::from("inbox")],
//!     output: Some(PathBuf::from("solved")),
//!     write: true,
//! })?;
//! for job in &planned.jobs {
//!     let done = process(job, &RunOptions::default());
//!     for record in &done.records {
//!         println!("{}", record.to_human_line());
//!     }
//! }
//! # Ok::<(), xlsudoku::batch::BatchError>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use rayon::prelude::*;

use crate::address::CellRef;
use crate::annotate::{annotate_with, AnnotateOptions, CellEdit, CellValue, GridMark, SheetEdits};
use crate::report::{SheetRecord, SheetStatus};
use crate::solve::{candidate_letters, format_elapsed, solve, Outcome, SolveOptions, Status};
use crate::workbook::{read_file, read_workbook_bytes, Cell, FoundGrid, ReadOptions};

/// A usage problem with the inputs or outputs of a run (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// An input does not exist.
    #[error("{0}: no such file or directory")]
    Missing(PathBuf),
    /// A directory could not be listed.
    #[error("{path}: cannot list the directory: {source}")]
    Walk {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An output would overwrite an input (its own, or another's).
    #[error("{input}: the copy of {writer} would overwrite it; xlsudoku never modifies an input")]
    OutputIsInput {
        /// The input that would be overwritten.
        input: PathBuf,
        /// The input whose copy it would be.
        writer: PathBuf,
    },
    /// `-o` is an existing file but a directory is needed.
    #[error("{0}: -o must be a directory when there are several inputs or a directory input")]
    OutputNotDir(PathBuf),
    /// Two inputs would be written to the same output.
    #[error("{a} and {b} would both be written to {output}")]
    Collision {
        /// The shared output.
        output: PathBuf,
        /// One input.
        a: PathBuf,
        /// The other.
        b: PathBuf,
    },
    /// `-o` names a file whose extension does not match the input's kind
    /// (Excel refuses a macro workbook named `.xlsx` and the reverse).
    #[error("{output}: the input {input} is {kind}; name the output .{ext}")]
    WrongExtension {
        /// The input.
        input: PathBuf,
        /// The output asked for.
        output: PathBuf,
        /// What the input is.
        kind: &'static str,
        /// The extension it needs.
        ext: &'static str,
    },
    /// `--shard` is not `K/N` with `1 <= K <= N`.
    #[error("--shard '{0}' is not K/N with 1 <= K <= N, e.g. 2/4")]
    BadShard(String),
}

/// One file to process and where its annotated copy goes (`None`: check
/// only, write nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The workbook to read.
    pub input: PathBuf,
    /// The annotated copy to write.
    pub output: Option<PathBuf>,
    /// Found in a directory: skipped when its copy is up to date (a file
    /// named on the command line is always processed).
    pub incremental: bool,
}

/// What to run over.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Files and directories (searched recursively for `.xlsx`/`.xlsm`).
    pub inputs: Vec<PathBuf>,
    /// `-o`: a file for one input file, else a directory.
    pub output: Option<PathBuf>,
    /// False for `check`: no outputs.
    pub write: bool,
}

/// `--shard K/N`: the K-th (1-based) of N deterministic slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1-based.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = BatchError;

    fn from_str(s: &str) -> Result<Self, BatchError> {
        let bad = || BatchError::BadShard(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Keeps the jobs of this slice: every N-th job of the sorted list,
    /// starting at the K-th, so slices are balanced and together cover
    /// every job exactly once.
    pub fn select(self, jobs: Vec<Job>) -> Vec<Job> {
        jobs.into_iter()
            .enumerate()
            .filter(|(i, _)| i % self.count == self.index - 1)
            .map(|(_, j)| j)
            .collect()
    }
}

fn is_workbook_name(p: &Path) -> bool {
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let lower = name.to_ascii_lowercase();
    (lower.ends_with(".xlsx") || lower.ends_with(".xlsm"))
        && !name.starts_with("~$")
        && !name.starts_with('.')
        && !lower.ends_with(".solved.xlsx")
        && !lower.ends_with(".solved.xlsm")
}

/// The default output beside an input: `NAME.solved.xlsx` (`.xlsm` kept).
pub fn default_output(input: &Path) -> PathBuf {
    let ext = input
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("xlsx")
        .to_string();
    let stem = input
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("workbook");
    input.with_file_name(format!("{stem}.solved.{ext}"))
}

fn is_macro_name(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsm"))
}

/// A macro workbook must stay `.xlsm`, and a plain one `.xlsx`.
fn check_extension(input: &Path, output: &Path) -> Result<(), BatchError> {
    let (kind, ext) = if is_macro_name(input) {
        ("a macro workbook", "xlsm")
    } else {
        ("a workbook without macros", "xlsx")
    };
    let matches = output
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext));
    if matches {
        Ok(())
    } else {
        Err(BatchError::WrongExtension {
            input: input.to_path_buf(),
            output: output.to_path_buf(),
            kind,
            ext,
        })
    }
}

/// Finds workbooks below `dir`, following links to directories once each
/// (`seen` holds the directories already walked, canonical).
fn walk(
    dir: &Path,
    skip: Option<&Path>,
    seen: &mut HashSet<PathBuf>,
    out: &mut Vec<PathBuf>,
) -> Result<(), BatchError> {
    if let Ok(canon) = fs::canonicalize(dir) {
        if skip == Some(canon.as_path()) || !seen.insert(canon) {
            return Ok(());
        }
    }
    let entries = fs::read_dir(dir).map_err(|source| BatchError::Walk {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        let hidden = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        // Follows links; a dangling link is passed over.
        let Ok(meta) = fs::metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            walk(&p, skip, seen, out)?;
        } else if meta.is_file() && is_workbook_name(&p) {
            out.push(p);
        }
    }
    Ok(())
}

/// A path's canonical form, for a file that may not exist yet: its
/// directory made canonical, its name kept.
fn canonical(p: &Path) -> PathBuf {
    if let Ok(c) = fs::canonicalize(p) {
        return c;
    }
    match (p.parent(), p.file_name()) {
        (Some(dir), Some(name)) => {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            fs::canonicalize(dir)
                .map(|d| d.join(name))
                .unwrap_or_else(|_| p.to_path_buf())
        }
        _ => p.to_path_buf(),
    }
}

/// True when the file is an annotated copy xlsudoku wrote.
fn is_xlsudoku_output(p: &Path) -> bool {
    fs::File::open(p)
        .ok()
        .and_then(|f| crate::annotate::read_stamp(std::io::BufReader::new(f)))
        .is_some()
}

/// Expands inputs into jobs, sorted by input path: files as given,
/// directories searched recursively for `.xlsx`/`.xlsm` (skipping hidden
/// entries, Excel lock files `~$…`, earlier `*.solved.*` outputs and the
/// output directory). With `-o` a directory, each directory input's files
/// keep their path relative to it, and file inputs go in at the top.
pub fn plan(p: &Plan) -> Result<Planned, BatchError> {
    let out_canon = p.output.as_ref().and_then(|o| fs::canonicalize(o).ok());
    let mut pairs: Vec<(PathBuf, Option<PathBuf>, bool)> = Vec::new();
    let single_file = p.inputs.len() == 1 && p.inputs[0].is_file();
    let out_is_file = match &p.output {
        Some(o) => {
            let dir_like = o.is_dir() || o.as_os_str().to_string_lossy().ends_with(['/', '\\']);
            if !single_file && o.is_file() {
                return Err(BatchError::OutputNotDir(o.clone()));
            }
            single_file && !dir_like
        }
        None => false,
    };
    for input in &p.inputs {
        if input.is_dir() {
            let mut files = Vec::new();
            walk(input, out_canon.as_deref(), &mut HashSet::new(), &mut files)?;
            for f in files {
                let out = match (&p.output, p.write) {
                    (_, false) => None,
                    (Some(o), true) => Some(o.join(f.strip_prefix(input).unwrap_or(&f))),
                    (None, true) => Some(default_output(&f)),
                };
                pairs.push((f, out, true));
            }
        } else if input.exists() {
            let out = match (&p.output, p.write) {
                (_, false) => None,
                (Some(o), true) if out_is_file => {
                    check_extension(input, o)?;
                    Some(o.clone())
                }
                (Some(o), true) => Some(o.join(input.file_name().unwrap_or(input.as_os_str()))),
                (None, true) => Some(default_output(input)),
            };
            pairs.push((input.clone(), out, false));
        } else {
            return Err(BatchError::Missing(input.clone()));
        }
    }
    pairs.sort();
    // One job per file, whichever path named it.
    let mut seen_inputs: HashSet<PathBuf> = HashSet::new();
    pairs.retain(|(input, _, _)| seen_inputs.insert(canonical(input)));
    // No output may land on an input: an earlier copy of xlsudoku's that
    // another job will rewrite (`xlsudoku *.xlsx` run twice) is passed
    // over; anything else is refused rather than overwritten.
    let writers: HashMap<PathBuf, PathBuf> = pairs
        .iter()
        .filter_map(|(i, o, _)| o.as_ref().map(|o| (canonical(o), i.clone())))
        .collect();
    let mut passed_over = Vec::new();
    let mut jobs = Vec::with_capacity(pairs.len());
    for (input, output, incremental) in pairs {
        match writers.get(&canonical(&input)) {
            Some(writer) if writer != &input && is_xlsudoku_output(&input) => {
                passed_over.push((input, writer.clone()));
            }
            Some(writer) => {
                return Err(BatchError::OutputIsInput {
                    input,
                    writer: writer.clone(),
                })
            }
            None => jobs.push(Job {
                input,
                output,
                incremental,
            }),
        }
    }
    let mut outputs: HashMap<PathBuf, PathBuf> = HashMap::new();
    for job in &jobs {
        if let Some(o) = &job.output {
            if let Some(a) = outputs.insert(canonical(o), job.input.clone()) {
                return Err(BatchError::Collision {
                    output: o.clone(),
                    a,
                    b: job.input.clone(),
                });
            }
        }
    }
    Ok(Planned { jobs, passed_over })
}

/// The jobs of a run, and the inputs passed over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Planned {
    /// What to process, sorted by input path.
    pub jobs: Vec<Job>,
    /// Inputs that are earlier xlsudoku copies which another job of this
    /// run rewrites: `(input, the input whose copy it is)`.
    pub passed_over: Vec<(PathBuf, PathBuf)>,
}

/// How to process each file.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Detection overrides (`--range`, `--box`).
    pub read: ReadOptions,
    /// `--logic-only`, `--timeout`.
    pub solve: SolveOptions,
    /// Redo outputs that are up to date.
    pub force: bool,
    /// `--sheet`: only these sheets (all when empty); the others are left
    /// alone and not reported.
    pub sheets: Vec<String>,
}

/// What processing one file produced.
#[derive(Debug, Clone, Default)]
pub struct FileOutcome {
    /// One record per grid, per sheet without a grid, or one error record.
    pub records: Vec<SheetRecord>,
    /// The output was up to date and left alone.
    pub skipped: bool,
    /// The file could not be read or written.
    pub failed: bool,
}

/// What an annotated copy is made from: the xlsudoku version, the input's
/// file name, size and modification time (rsync's quick check), and every
/// option that changes the copy. Recorded in the copy's zip comment
/// ([`crate::annotate::AnnotateOptions::stamp`]) followed by ` ok=true`
/// when every grid passed, so that failures are looked at again on the
/// next run. `None` when the input cannot be looked at.
pub fn stamp(input: &Path, opts: &RunOptions) -> Option<String> {
    let meta = fs::metadata(input).ok()?;
    let mtime = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let name = input.file_name()?.to_string_lossy();
    let show = |o: Option<String>| o.unwrap_or_else(|| "-".to_string());
    Some(format!(
        "{}{} input={:?}:{}:{}.{:09} logic-only={} range={} box={} timeout={}",
        crate::annotate::STAMP_PREFIX,
        env!("CARGO_PKG_VERSION"),
        name,
        meta.len(),
        mtime.as_secs(),
        mtime.subsec_nanos(),
        opts.solve.logic_only,
        show(opts.read.range.map(|r| r.to_string())),
        show(opts.read.shape.map(|b| b.to_string())),
        show(opts.solve.timeout.map(|t| format!("{}", t.as_secs_f64()))),
    ))
}

/// True when `output` is an annotated copy made by this version from this
/// input as it is now, with the same options, and every grid in it passed.
pub fn up_to_date(input: &Path, output: &Path, opts: &RunOptions) -> bool {
    stamp(input, opts).is_some_and(|s| is_stamped(output, &s))
}

fn is_stamped(output: &Path, stamp: &str) -> bool {
    let Ok(file) = fs::File::open(output) else {
        return false;
    };
    crate::annotate::read_stamp(std::io::BufReader::new(file))
        .is_some_and(|have| have.strip_suffix(" ok=true") == Some(stamp))
}

/// Reads, solves and (for a job with an output) writes one file. Never
/// panics on bad input: problems come back as records.
pub fn process(job: &Job, opts: &RunOptions) -> FileOutcome {
    let file = job.input.display().to_string();
    // Taken before reading: should the input change while it is processed,
    // the copy carries the older time and the next run redoes it.
    let stamp = job.output.as_ref().and_then(|_| stamp(&job.input, opts));
    if let (Some(out), Some(s)) = (&job.output, &stamp) {
        if job.incremental && !opts.force && is_stamped(out, s) {
            return FileOutcome {
                skipped: true,
                ..Default::default()
            };
        }
    }
    let error = |message: String| FileOutcome {
        records: vec![SheetRecord {
            file: file.clone(),
            status: SheetStatus::Error,
            error: Some(message),
            ..Default::default()
        }],
        skipped: false,
        failed: true,
    };
    // One read serves detection and the copy.
    let bytes = match read_file(&job.input) {
        Ok(b) => b,
        Err(e) => return error(e.to_string()),
    };
    let sheets = match read_workbook_bytes(&job.input, &bytes, &opts.read) {
        Ok(s) => s,
        Err(e) => return error(e.to_string()),
    };
    // Every grid of every sheet, solved in parallel.
    let tasks: Vec<(usize, &str, Option<&FoundGrid>)> = sheets
        .iter()
        .enumerate()
        .filter(|(_, s)| opts.sheets.is_empty() || opts.sheets.contains(&s.name))
        .flat_map(|(i, s)| {
            let grids: Vec<Option<&FoundGrid>> = if s.grids.is_empty() {
                vec![None]
            } else {
                s.grids.iter().map(Some).collect()
            };
            grids.into_iter().map(move |g| (i, s.name.as_str(), g))
        })
        .collect();
    type Solved = (usize, SheetRecord, Vec<CellEdit>, Option<GridMark>);
    let solved: Vec<Solved> = tasks
        .par_iter()
        .map(|&(i, name, grid)| {
            let (record, edits) = match grid {
                Some(g) => solve_grid(&file, name, g, &opts.solve),
                None => (
                    SheetRecord {
                        file: file.clone(),
                        sheet: Some(name.to_string()),
                        status: SheetStatus::NoGrid,
                        ..Default::default()
                    },
                    Vec::new(),
                ),
            };
            let mark = grid.map(|g| grid_mark(name, g, &edits));
            (i, record, edits, mark)
        })
        .collect();
    let mut records: Vec<SheetRecord> = Vec::with_capacity(solved.len());
    let mut edits: Vec<SheetEdits> = Vec::new();
    let mut marks: Vec<GridMark> = Vec::new();
    for (i, record, cells, mark) in solved {
        records.push(record);
        marks.extend(mark);
        if cells.is_empty() {
            continue;
        }
        let name = &sheets[i].name;
        match edits.iter_mut().find(|e| &e.sheet == name) {
            Some(e) => e.cells.extend(cells),
            None => edits.push(SheetEdits {
                sheet: name.clone(),
                cells,
            }),
        }
    }
    if let Some(out) = &job.output {
        let ok = records.iter().all(|r| r.passes(true));
        let stamp = stamp.map(|s| format!("{s} ok={ok}"));
        if let Err(e) = write_atomic(&job.input, &bytes, out, &edits, marks, stamp) {
            return error(e);
        }
        let shown = out.display().to_string();
        for r in &mut records {
            r.output = Some(shown.clone());
        }
    }
    FileOutcome {
        records,
        skipped: false,
        failed: false,
    }
}

/// Writes the annotated copy of `bytes` (read from `input`): a temporary
/// file in the target directory, flushed to disk, then renamed over the
/// target and the directory flushed, so no reader ever sees a half-written
/// file. The copy gets the usual permissions of a new file (or those of
/// the file it replaces), not the temporary file's private ones.
fn write_atomic(
    input: &Path,
    bytes: &[u8],
    output: &Path,
    edits: &[SheetEdits],
    grids: Vec<GridMark>,
    stamp: Option<String>,
) -> Result<(), String> {
    let dir = match output.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_leftovers(&dir, &name);
    let mut tmp = temp_file_in(&dir, &name, output)
        .map_err(|e| format!("{}: cannot create a temporary file: {e}", dir.display()))?;
    let mut sink = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
    let options = AnnotateOptions {
        stamp,
        grids,
        ..AnnotateOptions::default()
    };
    annotate_with(std::io::Cursor::new(bytes), edits, &mut sink, options)
        .map_err(|e| format!("{}: {e}", input.display()))?;
    sink.flush()
        .map_err(|e| format!("{}: {e}", output.display()))?;
    drop(sink);
    tmp.as_file()
        .sync_all()
        .map_err(|e| format!("{}: {e}", output.display()))?;
    tmp.persist(output)
        .map_err(|e| format!("{}: cannot write: {}", output.display(), e.error))?;
    // The rename itself reaches the disk with the directory.
    if let Ok(d) = fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A temporary file beside `output`, named `.NAME.PID.XXXXXX.xlsudoku-tmp`
/// so that a later run can tell an abandoned one from one in progress.
pub(crate) fn temp_file_in(
    dir: &Path,
    name: &str,
    output: &Path,
) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{name}.{}.", std::process::id());
    builder.prefix(&prefix).suffix(TEMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A new file's usual mode (the umask applies), or the replaced
        // file's.
        let mode = fs::metadata(output)
            .map(|m| m.permissions().mode() & 0o7777)
            .unwrap_or(0o666);
        builder.permissions(fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = output;
    builder.tempfile_in(dir)
}

const TEMP_SUFFIX: &str = ".xlsudoku-tmp";

/// Removes temporary files that an interrupted run left for this output
/// (`.NAME.PID.XXXXXX.xlsudoku-tmp`): those of a process that no longer
/// runs (or, where that cannot be told, older than an hour). They were
/// never renamed, so they hold no finished work; a run still in progress
/// keeps its own.
fn remove_leftovers(dir: &Path, name: &str) {
    let prefix = format!(".{name}.");
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name();
        let file = file.to_string_lossy();
        let Some(rest) = file
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(TEMP_SUFFIX))
        else {
            continue;
        };
        let pid = rest.split('.').next().and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|p| p != std::process::id() && !process_alive(p))
            || is_older_than_an_hour(&e.path())
        {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// Whether a process runs; `true` where that cannot be told (no `/proc`).
fn process_alive(pid: u32) -> bool {
    let proc_dir = Path::new("/proc");
    !proc_dir.is_dir() || proc_dir.join(pid.to_string()).exists()
}

fn is_older_than_an_hour(p: &Path) -> bool {
    fs::metadata(p)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > std::time::Duration::from_secs(3600))
}

/// The reason a grid is invalid, in words, with the workbook's addresses:
/// `5 twice in row 4 (D6, H6)`, `E3 holds "x", not a digit 1-9`.
pub fn invalid_reason(grid: &FoundGrid, outcome: &Outcome) -> String {
    let side = grid.shape.side();
    let mut parts: Vec<String> = grid
        .merged
        .iter()
        .map(|m| format!("merged cells {m} inside the grid"))
        .collect();
    parts.extend(
        grid.bad_cells()
            .into_iter()
            .map(|(at, raw)| format!("{at} holds \"{raw}\", not a digit 1-{side}")),
    );
    for c in &outcome.conflicts {
        let times = match c.cells.len() {
            2 => "twice".to_string(),
            3 => "three times".to_string(),
            n => format!("{n} times"),
        };
        let cells: Vec<String> = c
            .cells
            .iter()
            .map(|&i| grid.cell_ref(i).to_string())
            .collect();
        parts.push(format!(
            "{} {times} in {} ({})",
            c.value,
            c.unit,
            cells.join(", ")
        ));
    }
    parts.join("; ")
}

/// What the edits of one grid write, for the copy's record of them: the
/// grid cells given a value and the note's cell.
fn grid_mark(sheet: &str, grid: &FoundGrid, edits: &[CellEdit]) -> GridMark {
    GridMark {
        sheet: sheet.to_string(),
        range: grid.range,
        filled: edits
            .iter()
            .filter(|e| grid.range.contains(e.at) && e.value != CellValue::Clear)
            .map(|e| e.at)
            .collect(),
        note: edits
            .iter()
            .any(|e| e.at == grid.note_at)
            .then_some(grid.note_at),
    }
}

/// Solves one found grid: its report record and the cell edits for the
/// annotated copy (fills, clears of an earlier run's fills, and the note).
pub fn solve_grid(
    file: &str,
    sheet: &str,
    grid: &FoundGrid,
    opts: &SolveOptions,
) -> (SheetRecord, Vec<CellEdit>) {
    let puzzle = grid.puzzle();
    let side = grid.shape.side();
    let bad = grid.bad_cells();
    let outcome = if bad.is_empty() && grid.merged.is_empty() {
        solve(&puzzle, opts)
    } else {
        // Bad values make the grid invalid whatever the rest holds: no
        // solving; any clash among the good givens is named too.
        Outcome::invalid(&puzzle)
    };
    let time = format_elapsed(outcome.elapsed);
    let error = match outcome.status {
        Status::Solved | Status::GaveUp => None,
        Status::Invalid => Some(invalid_reason(grid, &outcome)),
        Status::Unsolvable => Some("the givens have no solution".to_string()),
        Status::Multiple => Some("more than one solution".to_string()),
        Status::Timeout => Some(format!(
            "no answer within {}",
            opts.timeout
                .map(|t| format!("{} s", t.as_secs_f64()))
                .unwrap_or_default()
        )),
    };
    let mut note = match (&error, outcome.status) {
        (None, s) if outcome.history.is_empty() => format!("{}: {time}", s.note_word()),
        (None, s) => format!("{}: {}-{time}", s.note_word(), outcome.history),
        (Some(e), s) => format!("{}: {e} ({time})", s.note_word()),
    };
    if grid.note_apart {
        note.push_str(&format!(" [grid {}]", grid.range));
    }
    let filled = matches!(outcome.status, Status::Solved | Status::GaveUp);
    match grid.formulas.len() {
        0 => {}
        _ if !filled => {}
        1 => note.push_str(&format!(
            "; {} holds a formula: left as it is",
            grid.formulas[0]
        )),
        n => note.push_str(&format!("; {n} cells hold formulas: left as they are")),
    }
    let mut edits: Vec<CellEdit> = Vec::new();
    let formulas: std::collections::HashSet<CellRef> = grid.formulas.iter().copied().collect();
    for (i, cell) in grid.cells.iter().enumerate() {
        let at: CellRef = grid.cell_ref(i);
        if formulas.contains(&at) {
            // A formula is never written over.
            continue;
        }
        let earlier = matches!(cell, Cell::Filled(_) | Cell::FilledText(_));
        if !matches!(cell, Cell::Blank) && !earlier {
            continue;
        }
        let value = if filled {
            match outcome.grid.cells()[i] {
                0 => match outcome.candidates.get(i) {
                    Some(&m) if m != 0 => CellValue::Text(candidate_letters(m)),
                    _ => CellValue::Clear,
                },
                d => CellValue::Number(d as f64),
            }
        } else {
            CellValue::Clear
        };
        if value == CellValue::Clear && !earlier {
            continue;
        }
        edits.push(CellEdit { at, value });
    }
    edits.push(CellEdit {
        at: grid.note_at,
        value: CellValue::Text(note),
    });
    let record = SheetRecord {
        file: file.to_string(),
        sheet: Some(sheet.to_string()),
        range: Some(grid.range.to_string()),
        size: Some(format!("{side}x{side}")),
        box_shape: Some(grid.shape.to_string()),
        givens: Some(puzzle.givens()),
        status: outcome.status.into(),
        unique: outcome.unique,
        history: Some(outcome.history.clone()),
        elapsed_ms: outcome.elapsed.as_secs_f64() * 1000.0,
        output: None,
        error,
    };
    (record, edits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parses_and_partitions() {
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        let jobs: Vec<Job> = (0..10)
            .map(|i| Job {
                input: PathBuf::from(format!("f{i:02}.xlsx")),
                output: None,
                incremental: true,
            })
            .collect();
        let mut all: Vec<Job> = Vec::new();
        for k in 1..=3 {
            let s: Shard = format!("{k}/3").parse().unwrap();
            let part = s.select(jobs.clone());
            assert!(part.len() == 3 || part.len() == 4);
            all.extend(part);
        }
        all.sort_by(|a, b| a.input.cmp(&b.input));
        assert_eq!(all, jobs);
    }

    #[test]
    fn default_output_keeps_the_macro_extension() {
        assert_eq!(
            default_output(Path::new("a/b.xlsm")),
            PathBuf::from("a/b.solved.xlsm")
        );
        assert_eq!(
            default_output(Path::new("in.xlsx")),
            PathBuf::from("in.solved.xlsx")
        );
    }

    #[test]
    fn walk_skips_lock_files_outputs_and_hidden() {
        let d = tempfile::tempdir().unwrap();
        for name in [
            "a.xlsx",
            "b.XLSM",
            "~$a.xlsx",
            ".hidden.xlsx",
            "a.solved.xlsx",
            "notes.txt",
        ] {
            fs::write(d.path().join(name), b"x").unwrap();
        }
        fs::create_dir(d.path().join("sub")).unwrap();
        fs::write(d.path().join("sub/c.xlsx"), b"x").unwrap();
        let jobs = plan(&Plan {
            inputs: vec![d.path().to_path_buf()],
            output: Some(d.path().join("out")),
            write: true,
        })
        .unwrap()
        .jobs;
        let names: Vec<String> = jobs
            .iter()
            .map(|j| {
                j.input
                    .strip_prefix(d.path())
                    .unwrap()
                    .display()
                    .to_string()
            })
            .collect();
        assert_eq!(names, vec!["a.xlsx", "b.XLSM", "sub/c.xlsx"]);
        assert_eq!(jobs[2].output, Some(d.path().join("out/sub/c.xlsx")));
    }

    #[test]
    fn output_equal_to_input_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.xlsx");
        fs::write(&f, b"x").unwrap();
        let err = plan(&Plan {
            inputs: vec![f.clone()],
            output: Some(f.clone()),
            write: true,
        })
        .unwrap_err();
        assert!(matches!(err, BatchError::OutputIsInput { .. }));
    }
}
