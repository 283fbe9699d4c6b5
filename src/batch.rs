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
use crate::annotate::{
    annotate_with, kept_solution_copies, solutions_sheet_name, AnnotateOptions, CellEdit,
    CellValue, GridMark, SheetEdits, SolutionCopy, Solutions, StyleFrom,
};
use crate::report::{SheetRecord, SheetStatus};
use crate::solve::{candidate_letters, format_elapsed, solve, Outcome, SolveOptions, Status};
use crate::workbook::{read_file, read_workbook_bytes, Cell, FoundGrid, ReadOptions, Symbol};

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
    /// `-o` is (after links) one of the inputs, or a folder holding one
    /// that the run would write into.
    #[error("-o {output} is the input {input}; xlsudoku never writes over an input: choose another output")]
    OutputIsAnInput {
        /// The output asked for.
        output: PathBuf,
        /// The input it is.
        input: PathBuf,
    },
    /// `-o` names a workbook file but the run has several files to write.
    #[error("-o {0}: several inputs (or a folder) need -o to be a folder, not a workbook")]
    OutputNamesAWorkbook(PathBuf),
    /// `-` (standard input or output) used where it cannot be.
    #[error("{0}")]
    Dash(&'static str),
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

/// The bytes of a file name (any encoding: a name that is not UTF-8 is
/// still a name).
fn name_bytes(p: &Path) -> &[u8] {
    p.file_name().map_or(&[][..], |n| n.as_encoded_bytes())
}

fn is_workbook_name(p: &Path) -> bool {
    let name = name_bytes(p);
    let lower = name.to_ascii_lowercase();
    (lower.ends_with(b".xlsx") || lower.ends_with(b".xlsm"))
        && !name.starts_with(b"~$")
        && !name.starts_with(b".")
        && !lower.ends_with(b".solved.xlsx")
        && !lower.ends_with(b".solved.xlsm")
}

/// The path standing for standard input (as an input) or standard output
/// (as `-o`).
pub const DASH: &str = "-";

/// Whether a path is `-`: standard input as an input, standard output as
/// `-o`.
pub fn is_dash(p: &Path) -> bool {
    p.as_os_str() == DASH
}

/// The default output beside an input: `NAME.solved.xlsx` (`.xlsm` kept).
/// Names that are not UTF-8 keep their stem.
pub fn default_output(input: &Path) -> PathBuf {
    let ext = input
        .extension()
        .unwrap_or_else(|| std::ffi::OsStr::new("xlsx"));
    let mut name = input
        .file_stem()
        .unwrap_or_else(|| std::ffi::OsStr::new("workbook"))
        .to_os_string();
    name.push(".solved.");
    name.push(ext);
    input.with_file_name(name)
}

fn is_workbook_extension(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("xlsx") || e.eq_ignore_ascii_case("xlsm"))
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
        if name_bytes(&p).starts_with(b".") {
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

/// The input or annotated copy of `jobs` that a report file (`--report`,
/// `--junit`) at `report` would replace, after links: writing the report
/// there would destroy a workbook.
pub fn report_clash(report: &Path, jobs: &[Job]) -> Option<PathBuf> {
    if is_dash(report) {
        return None;
    }
    let report = canonical(report);
    jobs.iter()
        .flat_map(|j| std::iter::once(&j.input).chain(j.output.as_ref()))
        .filter(|p| !is_dash(p))
        .find(|p| canonical(p) == report)
        .cloned()
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
    let dash_in = p.inputs.iter().any(|i| is_dash(i));
    let dash_out = p.write && p.output.as_deref().is_some_and(is_dash);
    if dash_in && p.inputs.len() > 1 {
        return Err(BatchError::Dash(
            "- (a workbook on standard input) must be the only input",
        ));
    }
    if dash_in && p.write && p.output.is_none() {
        return Err(BatchError::Dash(
            "a workbook read from standard input needs -o FILE, or -o - for standard output",
        ));
    }
    // One input that is not a folder: a file, or a pipe such as
    // `<(curl …)` (read like a file, as `check` reads it).
    let single_file =
        p.inputs.len() == 1 && (dash_in || (p.inputs[0].exists() && !p.inputs[0].is_dir()));
    if dash_out && !single_file {
        return Err(BatchError::Dash(
            "-o - (standard output) takes one workbook: give one input file",
        ));
    }
    let output = p.output.as_ref().filter(|_| p.write && !dash_out);
    let out_canon = output.and_then(|o| fs::canonicalize(o).ok());
    // No output may be an input: a folder given as both, or through a link.
    if let Some(oc) = &out_canon {
        for input in p.inputs.iter().filter(|i| !is_dash(i)) {
            if fs::canonicalize(input).ok().as_ref() == Some(oc) {
                return Err(BatchError::OutputIsAnInput {
                    output: p.output.clone().unwrap_or_default(),
                    input: input.clone(),
                });
            }
        }
    }
    let mut pairs: Vec<(PathBuf, Option<PathBuf>, bool)> = Vec::new();
    let out_is_file = match output {
        Some(o) => {
            let dir_like = o.is_dir() || o.as_os_str().to_string_lossy().ends_with(['/', '\\']);
            if !single_file && o.is_file() {
                return Err(BatchError::OutputNotDir(o.clone()));
            }
            if !single_file && !o.exists() && !dir_like && is_workbook_extension(o) {
                return Err(BatchError::OutputNamesAWorkbook(o.clone()));
            }
            single_file && !dir_like
        }
        None => false,
    };
    for input in &p.inputs {
        if is_dash(input) {
            let out = match (&p.output, p.write) {
                (_, false) => None,
                (Some(o), true) if is_dash(o) => Some(o.clone()),
                (Some(o), true) if out_is_file => Some(o.clone()),
                (Some(o), true) => Some(o.join("stdin.xlsx")),
                (None, true) => None,
            };
            pairs.push((input.clone(), out, false));
        } else if input.is_dir() {
            let mut files = Vec::new();
            walk(input, out_canon.as_deref(), &mut HashSet::new(), &mut files)?;
            for f in files {
                let out = match (output, p.write) {
                    (_, false) => None,
                    (Some(o), true) => Some(o.join(f.strip_prefix(input).unwrap_or(&f))),
                    (None, true) => Some(default_output(&f)),
                };
                pairs.push((f, out, true));
            }
        } else if input.exists() {
            let out = match (&p.output, p.write) {
                (_, false) => None,
                (Some(o), true) if is_dash(o) => Some(o.clone()),
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
        .filter_map(|(i, o, _)| {
            o.as_ref()
                .filter(|o| !is_dash(o))
                .map(|o| (canonical(o), i.clone()))
        })
        .collect();
    let mut passed_over = Vec::new();
    let mut jobs = Vec::with_capacity(pairs.len());
    for (input, output, incremental) in pairs {
        let writer = (!is_dash(&input))
            .then(|| writers.get(&canonical(&input)))
            .flatten();
        match writer {
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
        if let Some(o) = job.output.as_ref().filter(|o| !is_dash(o)) {
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
    /// `check --max-level` and the like: a solved grid outside these is
    /// `too-hard` or `too-easy` (a complete grid, with no blank, is never
    /// either).
    pub limits: crate::logic::Limits,
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
    /// The names of the workbook's sheets, when it was read.
    pub sheet_names: Vec<String>,
}

/// What an annotated copy is made from: the xlsudoku version, the input's
/// file name, size and modification time (rsync's quick check), and every
/// option that changes the copy (`--logic-only`, `--range`, `--box`,
/// `--timeout`, `--sheet`, `--techniques`, `--answers`). The copy's zip comment records this line with,
/// after the version, a digest of the copy's entries (to tell a copy
/// xlsudoku wrote from one changed since) and, at the end, every grid's
/// report (given again when a rerun finds the copy up to date). `None`
/// when the input cannot be looked at.
pub fn stamp(input: &Path, opts: &RunOptions) -> Option<String> {
    let meta = fs::metadata(input).ok()?;
    let mtime = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let name = input.file_name()?.to_string_lossy();
    let show = |o: Option<String>| o.unwrap_or_else(|| "-".to_string());
    let mut sheets: Vec<String> = opts.sheets.iter().map(|s| s.to_lowercase()).collect();
    sheets.sort();
    sheets.dedup();
    Some(format!(
        "{}{} input={:?}:{}:{}.{:09} logic-only={} range={} box={} timeout={} sheets={} techniques={} answers={}",
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
        if sheets.is_empty() {
            "-".to_string()
        } else {
            format!("{sheets:?}")
        },
        opts.solve.techniques,
        opts.read.answers,
    ))
}

/// Hex digits of the entry digest in a stamp line.
const DIGEST_LEN: usize = 16;
/// The stamp's digest before it is known (also: never checked).
const NO_DIGEST: &str = "0000000000000000";
/// The most bytes of grid reports a stamp line carries.
const MAX_STAMPED_GRIDS: usize = 16 * 1024;

/// One grid's report as a stamp line keeps it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct StampedGrid {
    sheet: Option<String>,
    range: Option<String>,
    size: Option<String>,
    #[serde(rename = "box")]
    box_shape: Option<String>,
    givens: Option<usize>,
    status: SheetStatus,
    unique: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    history: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rating: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<crate::logic::Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<u32>,
    elapsed_ms: f64,
    error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer_range: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    answer_sheet: Option<String>,
}

impl StampedGrid {
    fn of(r: &SheetRecord, history: bool) -> StampedGrid {
        StampedGrid {
            sheet: r.sheet.clone(),
            range: r.range.clone(),
            size: r.size.clone(),
            box_shape: r.box_shape.clone(),
            givens: r.givens,
            status: r.status,
            unique: r.unique,
            history: r.history.clone().filter(|_| history),
            rating: r.rating,
            level: r.level,
            score: r.score,
            elapsed_ms: r.elapsed_ms,
            error: r.error.clone(),
            answer_range: r.answer_range.clone(),
            answer_sheet: r.answer_sheet.clone(),
        }
    }

    fn record(self, file: &str, output: &str) -> SheetRecord {
        SheetRecord {
            file: file.to_string(),
            sheet: self.sheet,
            range: self.range,
            size: self.size,
            box_shape: self.box_shape,
            givens: self.givens,
            status: self.status,
            unique: self.unique,
            history: self.history,
            rating: self.rating,
            level: self.level,
            score: self.score,
            elapsed_ms: self.elapsed_ms,
            output: Some(output.to_string()),
            error: self.error,
            skipped: true,
            answer_range: self.answer_range,
            answer_sheet: self.answer_sheet,
        }
    }
}

/// The stamp line written into a copy: `key` ([`stamp`]) with the digest
/// placeholder after the version, and the grid reports at the end (`-`
/// when they do not fit, and the copy is then never up to date).
fn stamp_line(key: &str, records: &[SheetRecord]) -> String {
    let grids = [true, false].iter().find_map(|&history| {
        let list: Vec<StampedGrid> = records
            .iter()
            .map(|r| StampedGrid::of(r, history))
            .collect();
        serde_json::to_string(&list)
            .ok()
            .filter(|j| j.len() <= MAX_STAMPED_GRIDS)
    });
    let (head, rest) = split_version(key).unwrap_or((key, ""));
    format!(
        "{head} cd={NO_DIGEST} {rest} grids={}",
        grids.as_deref().unwrap_or("-")
    )
}

/// `xlsudoku VERSION` and the rest of a stamp line.
fn split_version(line: &str) -> Option<(&str, &str)> {
    let after = line.strip_prefix(crate::annotate::STAMP_PREFIX)?;
    let space = after.find(' ')?;
    let cut = crate::annotate::STAMP_PREFIX.len() + space;
    Some((&line[..cut], &line[cut + 1..]))
}

/// The digest recorded in a stamp line: `Some(None)` for a line from
/// before digests, `None` for a line this version cannot read.
fn recorded_digest(line: &str) -> Option<Option<&str>> {
    let (_, rest) = split_version(line)?;
    match rest.strip_prefix("cd=") {
        Some(d) if d.len() > DIGEST_LEN && d.as_bytes()[DIGEST_LEN] == b' ' => {
            Some(Some(&d[..DIGEST_LEN]))
        }
        Some(_) => None,
        None => Some(None),
    }
}

/// A digest of every entry of a zip archive as its central directory
/// lists it (name, checksum, sizes, place): any change to a part changes
/// it; the archive comment is not in it.
fn entries_digest<R: std::io::Read + std::io::Seek>(
    archive: &mut zip::ZipArchive<R>,
) -> Option<String> {
    // FNV-1a, 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for i in 0..archive.len() {
        let f = archive.by_index_raw(i).ok()?;
        eat(f.name_raw());
        eat(&[0]);
        eat(&f.crc32().to_le_bytes());
        eat(&f.compressed_size().to_le_bytes());
        eat(&f.size().to_le_bytes());
        eat(&f.header_start().to_le_bytes());
    }
    Some(format!("{h:016x}"))
}

/// What is at an output's place before it is written.
#[derive(Debug)]
enum Existing {
    /// Nothing.
    Missing,
    /// A copy xlsudoku wrote, unchanged since: its stamp line.
    Ours(String),
    /// Something else; why it is not taken for xlsudoku's.
    Foreign(&'static str),
}

/// The error of a path whose name (or a component of it) is longer than
/// the file system allows.
fn name_too_long(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ENAMETOOLONG)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

fn existing_output(output: &Path) -> Existing {
    let file = match fs::File::open(output) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return match fs::symlink_metadata(output) {
                Ok(_) => Existing::Foreign("is a link to nothing"),
                Err(_) => Existing::Missing,
            }
        }
        Err(_) if output.is_dir() => return Existing::Foreign("is a folder"),
        // A name the file system cannot hold names nothing: writing it
        // says so ("File name too long"), which --force would not change.
        Err(e) if name_too_long(&e) => return Existing::Missing,
        Err(_) => return Existing::Foreign("cannot be read"),
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Existing::Foreign("is not a regular file");
    }
    let Ok(mut archive) = zip::ZipArchive::new(std::io::BufReader::new(file)) else {
        return Existing::Foreign("is not a workbook xlsudoku wrote");
    };
    let line = crate::annotate::record_text(&mut archive)
        .split(|&b| b == b'\n')
        .find(|l| l.starts_with(crate::annotate::STAMP_PREFIX.as_bytes()))
        .map(|l| String::from_utf8_lossy(l).into_owned());
    let Some(line) = line else {
        return Existing::Foreign(
            "has no xlsudoku stamp (saved since by another program, or not a copy xlsudoku wrote)",
        );
    };
    match recorded_digest(&line) {
        // Written before copies carried a digest, or the digest could not
        // be recorded: the stamp is all there is to go by.
        Some(None) | Some(Some(NO_DIGEST)) => Existing::Ours(line),
        Some(Some(d)) if entries_digest(&mut archive).as_deref() == Some(d) => Existing::Ours(line),
        _ => Existing::Foreign("was changed since xlsudoku wrote it"),
    }
}

/// The grid reports of an up-to-date copy: its stamp line matches `key`
/// (same version, input and options) and holds them.
fn stamped_grids(line: &str, key: &str) -> Option<Vec<StampedGrid>> {
    let (head, key_rest) = split_version(key)?;
    let rest = line.strip_prefix(head)?.strip_prefix(" cd=")?;
    let rest = rest.get(DIGEST_LEN..)?.strip_prefix(' ')?;
    let grids = rest.strip_prefix(key_rest)?.strip_prefix(" grids=")?;
    serde_json::from_str(grids).ok()
}

/// True when `output` is an annotated copy made by this version from this
/// input as it is now, with the same options, unchanged since.
pub fn up_to_date(input: &Path, output: &Path, opts: &RunOptions) -> bool {
    match (stamp(input, opts), existing_output(output)) {
        (Some(key), Existing::Ours(line)) => stamped_grids(&line, &key).is_some(),
        _ => false,
    }
}

/// Reads the input of a job: standard input for `-`, else the file. A
/// file that does not start as a workbook does is not read further (its
/// first bytes make the error), so a device such as `/dev/zero` is refused
/// at once.
fn read_input(path: &Path) -> Result<Vec<u8>, crate::workbook::ReadError> {
    use std::io::Read as _;
    let io = |source| crate::workbook::ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    // The reader's limit for a workbook file.
    let limit: u64 = 1 << 30;
    let mut source: Box<dyn std::io::Read> = if is_dash(path) {
        Box::new(std::io::stdin().lock())
    } else {
        let file = fs::File::open(path).map_err(io)?;
        if file.metadata().is_ok_and(|m| m.is_file()) {
            // Size checks and the usual read.
            drop(file);
            return read_file(path);
        }
        Box::new(file)
    };
    let mut bytes = Vec::new();
    (&mut source).take(8).read_to_end(&mut bytes).map_err(io)?;
    if bytes.starts_with(b"PK") || bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        source.take(limit).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > limit {
            return Err(crate::workbook::ReadError::TooLarge {
                path: path.to_path_buf(),
                part: "the file".into(),
                size: bytes.len() as u64,
                limit,
            });
        }
    }
    Ok(bytes)
}

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
    let run = std::panic::AssertUnwindSafe(|| {
        // A hook for the tests that prove the above: debug builds only.
        if cfg!(debug_assertions)
            && std::env::var_os("XLSUDOKU_TEST_PANIC_ON")
                .is_some_and(|name| job.input.file_name() == Some(name.as_os_str()))
        {
            panic!("a panic planted by XLSUDOKU_TEST_PANIC_ON");
        }
        process_file(job, opts)
    });
    std::panic::catch_unwind(run).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_string());
        FileOutcome {
            records: vec![SheetRecord {
                file: job.input.display().to_string(),
                status: SheetStatus::Error,
                error: Some(format!(
                    "{}: internal error, nothing written ({what}); please report it with the file",
                    job.input.display()
                )),
                ..Default::default()
            }],
            failed: true,
            ..Default::default()
        }
    })
}

fn process_file(job: &Job, opts: &RunOptions) -> FileOutcome {
    let shown_input = if is_dash(&job.input) {
        PathBuf::from("<stdin>")
    } else {
        job.input.clone()
    };
    let file = shown_input.display().to_string();
    let error = |message: String| FileOutcome {
        records: vec![SheetRecord {
            file: file.clone(),
            status: SheetStatus::Error,
            error: Some(message),
            ..Default::default()
        }],
        failed: true,
        ..Default::default()
    };
    let to_file = job.output.as_ref().filter(|o| !is_dash(o));
    // Taken before reading: should the input change while it is processed,
    // the copy carries the older time and the next run redoes it.
    let key = to_file.and_then(|_| stamp(&job.input, opts));
    if let Some(out) = to_file {
        match existing_output(out) {
            Existing::Foreign(why) if !opts.force => {
                return error(format!(
                    "{}: {why}; left as it is (move it away, or --force replaces it)",
                    out.display()
                ))
            }
            Existing::Ours(line) if job.incremental && !opts.force => {
                if let Some(grids) = key.as_deref().and_then(|k| stamped_grids(&line, k)) {
                    let shown = out.display().to_string();
                    return FileOutcome {
                        records: grids.into_iter().map(|g| g.record(&file, &shown)).collect(),
                        skipped: true,
                        ..Default::default()
                    };
                }
            }
            _ => {}
        }
    }
    // One read serves detection and the copy.
    let bytes = match read_input(&job.input) {
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
    type Solved = (
        usize,
        SheetRecord,
        Vec<CellEdit>,
        Option<GridMark>,
        Option<SheetCopy>,
    );
    let solved: Vec<Solved> = tasks
        .par_iter()
        .map(|&(i, name, grid)| {
            let (record, edits, copy) = match grid {
                Some(g) => solve_grid_copy(&file, name, g, &opts.solve, &opts.limits),
                None => (
                    SheetRecord {
                        file: file.clone(),
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
        .collect();
    let mut records: Vec<SheetRecord> = Vec::with_capacity(solved.len());
    let mut edits: Vec<SheetEdits> = Vec::new();
    let mut marks: Vec<GridMark> = Vec::new();
    let mut style_from: Vec<StyleFrom> = Vec::new();
    // The copies for the sheet of solutions, with their records' places.
    let mut copies: Vec<(usize, SolutionCopy)> = Vec::new();
    for (i, record, cells, mark, copy) in solved {
        if let (Some(cells), Some(m)) = (copy, &mark) {
            copies.push((
                records.len(),
                SolutionCopy {
                    sheet: m.sheet.clone(),
                    grid: m.range,
                    cells,
                    kept_styles: None,
                },
            ));
        }
        records.push(record);
        if let Some(m) = &mark {
            let grid = sheets[i].grids.iter().find(|g| g.range == m.range);
            style_from.extend(
                grid.map(|g| answer_styles(&m.sheet, g, &cells))
                    .unwrap_or_default(),
            );
        }
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
        // The sheet of solutions: written in `sheet` mode, and in the
        // others an earlier run's goes.
        let mut solutions = Solutions {
            copies: Vec::with_capacity(copies.len()),
            force: opts.force,
        };
        // With `--sheet`, the copies of the other sheets stay as an
        // earlier run wrote them, each in its sheet's place, whatever the
        // mode (the sheets asked for are the only ones this run changes).
        if !opts.sheets.is_empty() {
            let kept = match kept_solution_copies(std::io::Cursor::new(&bytes), &opts.sheets) {
                Ok(k) => k,
                Err(e) => return error(format!("{}: {e}", job.input.display())),
            };
            let order = |name: &str| sheet_names.iter().position(|n| n == name);
            copies.extend(kept.into_iter().map(|c| (usize::MAX, c)));
            // Stable: each sheet's copies keep their order.
            copies.sort_by_key(|(_, c)| order(&c.sheet));
        }
        if !copies.is_empty() {
            let name = match solutions_sheet_name(std::io::Cursor::new(&bytes)) {
                Ok(n) => n,
                Err(e) => return error(format!("{}: {e}", job.input.display())),
            };
            let places =
                crate::annotate::solutions::layout(copies.iter().map(|(_, c)| c.grid.rows()));
            for ((k, copy), place) in copies.into_iter().zip(places) {
                if let Some(r) = records.get_mut(k) {
                    r.answer_range = Some(place.range.to_string());
                    r.answer_sheet = Some(name.clone());
                }
                solutions.copies.push(copy);
            }
        }
        let line = key.map(|k| stamp_line(&k, &records));
        let written = if is_dash(out) {
            write_stdout(&shown_input, &bytes, &edits, marks, style_from, solutions)
        } else {
            write_atomic(
                &shown_input,
                &bytes,
                out,
                &edits,
                (marks, style_from, solutions),
                line,
            )
        };
        if let Err(e) = written {
            return error(e);
        }
        let shown = if is_dash(out) {
            "<stdout>".to_string()
        } else {
            out.display().to_string()
        };
        for r in &mut records {
            r.output = Some(shown.clone());
        }
    } else if let Err(e) = annotate_with(
        std::io::Cursor::new(&bytes),
        &edits,
        &mut Discard::default(),
        AnnotateOptions::default(),
    ) {
        // `check` makes the copy too, into nothing: it refuses exactly
        // what writing the copy would refuse.
        return error(format!("{}: {e}", job.input.display()));
    }
    FileOutcome {
        records,
        sheet_names,
        ..Default::default()
    }
}

/// A writer that keeps nothing but its length: where `check` writes the
/// copy it makes.
#[derive(Debug, Default)]
struct Discard {
    pos: u64,
    len: u64,
}

impl std::io::Write for Discard {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pos = self.pos.saturating_add(buf.len() as u64);
        self.len = self.len.max(self.pos);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::io::Seek for Discard {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let target = match to {
            std::io::SeekFrom::Start(n) => Some(n),
            std::io::SeekFrom::End(d) => self.len.checked_add_signed(d),
            std::io::SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = target.ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "seek before the start")
        })?;
        Ok(self.pos)
    }
}

/// A writer that, after its first error, takes everything without writing
/// it (keeping track of positions as a file would): the zip writer,
/// dropped after an error, tries once more to finish the archive and would
/// print its own debug text about that failure too. The first error still
/// reaches the caller.
struct StopAfterError<W> {
    inner: W,
    failed: bool,
    /// The position, and the end, as the writes and seeks so far make them.
    pos: u64,
    len: u64,
}

impl<W> StopAfterError<W> {
    fn new(inner: W) -> Self {
        StopAfterError {
            inner,
            failed: false,
            pos: 0,
            len: 0,
        }
    }

    fn moved(&mut self, pos: u64) -> u64 {
        self.pos = pos;
        self.len = self.len.max(pos);
        pos
    }
}

impl<W: std::io::Write> std::io::Write for StopAfterError<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.failed {
            match self.inner.write(buf) {
                Ok(n) => {
                    self.moved(self.pos.saturating_add(n as u64));
                    return Ok(n);
                }
                Err(e) => {
                    self.failed = true;
                    return Err(e);
                }
            }
        }
        self.moved(self.pos.saturating_add(buf.len() as u64));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.failed {
            return Ok(());
        }
        self.inner.flush().inspect_err(|_| self.failed = true)
    }
}

impl<W: std::io::Seek> std::io::Seek for StopAfterError<W> {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        use std::io::SeekFrom;
        if !self.failed {
            match self.inner.seek(pos) {
                Ok(p) => return Ok(self.moved(p)),
                Err(e) => {
                    self.failed = true;
                    return Err(e);
                }
            }
        }
        let to = match pos {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
        };
        Ok(self.moved(to.unwrap_or(self.pos)))
    }
}

/// Writes the annotated copy to standard output (built in memory first:
/// a zip archive is written with seeks).
fn write_stdout(
    input: &Path,
    bytes: &[u8],
    edits: &[SheetEdits],
    grids: Vec<GridMark>,
    style_from: Vec<StyleFrom>,
    solutions: Solutions,
) -> Result<(), String> {
    let mut copy = std::io::Cursor::new(Vec::with_capacity(bytes.len() + bytes.len() / 8));
    let options = AnnotateOptions {
        grids,
        style_from,
        solutions: Some(solutions),
        ..AnnotateOptions::default()
    };
    annotate_with(std::io::Cursor::new(bytes), edits, &mut copy, options)
        .map_err(|e| format!("{}: {e}", input.display()))?;
    let mut out = std::io::stdout().lock();
    out.write_all(copy.get_ref())
        .and_then(|()| out.flush())
        .map_err(|e| format!("standard output: cannot write the copy: {e}"))
}

/// Writes the annotated copy of `bytes` (read from `input`): a temporary
/// file in the target directory, flushed to disk, then renamed over the
/// target and the directory flushed, so no reader ever sees a half-written
/// file. The copy gets the usual permissions of a new file (or those of
/// the file it replaces), not the temporary file's private ones. The
/// stamp line's digest is filled in once the entries are written.
fn write_atomic(
    input: &Path,
    bytes: &[u8],
    output: &Path,
    edits: &[SheetEdits],
    (grids, style_from, solutions): (Vec<GridMark>, Vec<StyleFrom>, Solutions),
    stamp: Option<String>,
) -> Result<(), String> {
    let dir = parent_dir(output);
    fs::create_dir_all(&dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let mut tmp = TempCopy::beside(output)
        .map_err(|e| format!("{}: cannot create a temporary file: {e}", dir.display()))?;
    let failed = |e: &dyn std::fmt::Display| format!("{}: cannot write: {e}", output.display());
    {
        let mut sink = StopAfterError::new(std::io::BufWriter::with_capacity(1 << 16, tmp.file()));
        let options = AnnotateOptions {
            stamp,
            grids,
            style_from,
            solutions: Some(solutions),
            ..AnnotateOptions::default()
        };
        annotate_with(std::io::Cursor::new(bytes), edits, &mut sink, options).map_err(
            |e| match e {
                crate::annotate::AnnotateError::Io(e) => failed(&e),
                e => format!("{}: {e}", input.display()),
            },
        )?;
        std::io::Write::flush(&mut sink).map_err(|e| failed(&e))?;
        if sink.failed {
            return Err(failed(&"the copy could not be written"));
        }
    }
    fill_in_digest(tmp.file()).map_err(|e| failed(&e))?;
    tmp.file().sync_all().map_err(|e| failed(&e))?;
    tmp.persist(output).map_err(|e| failed(&e))?;
    // The rename itself reaches the disk with the directory.
    if let Ok(d) = fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Writes the digest of the entries just written into the stamp line of
/// the archive comment at the end of `file` (in place: the comment keeps
/// its length). A copy without a stamp line is left as it is.
fn fill_in_digest(file: &mut fs::File) -> std::io::Result<()> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    file.seek(SeekFrom::Start(0))?;
    let mut archive =
        zip::ZipArchive::new(std::io::BufReader::new(&mut *file)).map_err(std::io::Error::other)?;
    let comment = archive.comment().to_vec();
    let Some(digest) = entries_digest(&mut archive) else {
        return Ok(());
    };
    drop(archive);
    let mut at = 0usize;
    let mut place = None;
    for line in comment.split(|&b| b == b'\n') {
        if line.starts_with(crate::annotate::STAMP_PREFIX.as_bytes()) {
            let text = String::from_utf8_lossy(line);
            if let Some((head, rest)) = split_version(&text) {
                if rest.starts_with(&format!("cd={NO_DIGEST} ")) {
                    place = Some(at + head.len() + " cd=".len());
                }
            }
            break;
        }
        at += line.len() + 1;
    }
    let Some(place) = place else {
        return Ok(());
    };
    let len = file.seek(SeekFrom::End(0))?;
    let start = len
        .checked_sub(comment.len() as u64)
        .ok_or_else(|| std::io::Error::other("the archive comment is not at the end"))?;
    let mut tail = Vec::with_capacity(comment.len());
    file.seek(SeekFrom::Start(start))?;
    file.read_to_end(&mut tail)?;
    if tail != comment {
        // The comment is not where a fresh archive keeps it: keep the
        // placeholder (such a copy is then recognised by its stamp alone).
        return Ok(());
    }
    file.seek(SeekFrom::Start(start + place as u64))?;
    std::io::Write::write_all(file, digest.as_bytes())?;
    Ok(())
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Temporary files of this process not yet renamed or removed: what an
/// interrupted run removes ([`remove_own_temporary_files`]).
static OWN_TEMPS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn own_temps() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    OWN_TEMPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A temporary file beside its target, named
/// `.NAME.PID.XXXXXX.xlsudoku-tmp` (NAME shortened when long) so that a
/// later run can tell an abandoned one from one in progress, and known to
/// [`remove_own_temporary_files`] until it is renamed or dropped (dropping
/// removes it).
#[derive(Debug)]
pub struct TempCopy {
    file: Option<tempfile::NamedTempFile>,
    path: PathBuf,
}

impl TempCopy {
    /// Creates the temporary file in `target`'s folder, with the usual
    /// permissions of a new file (the umask applies), or those of the
    /// file it will replace.
    pub fn beside(target: &Path) -> std::io::Result<TempCopy> {
        let dir = parent_dir(target);
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(short_name(target.file_name().unwrap_or_default()));
        prefix.push(format!(".{}.", std::process::id()));
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(TEMP_SUFFIX);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(target)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.permissions().mode() & 0o7777)
                .unwrap_or(0o666);
            builder.permissions(fs::Permissions::from_mode(mode));
        }
        // Created and registered at once: an interrupted run knows every
        // temporary file it made.
        let mut temps = own_temps();
        let file = builder.tempfile_in(dir)?;
        let path = file.path().to_path_buf();
        temps.push(path.clone());
        Ok(TempCopy {
            file: Some(file),
            path,
        })
    }

    /// The open file.
    pub fn file(&mut self) -> &mut fs::File {
        self.file
            .as_mut()
            .map(|f| f.as_file_mut())
            .expect("a TempCopy holds its file until persisted")
    }

    /// Renames the temporary file over `target`.
    pub fn persist(mut self, target: &Path) -> std::io::Result<()> {
        match self.file.take() {
            Some(f) => f.persist(target).map(|_| ()).map_err(|e| e.error),
            None => Err(std::io::Error::other("already persisted")),
        }
    }
}

impl Drop for TempCopy {
    fn drop(&mut self) {
        // The file first (dropping removes it), then the register.
        self.file = None;
        own_temps().retain(|p| p != &self.path);
    }
}

/// Removes every temporary file this process has open ([`TempCopy`]) and
/// keeps any more from being made: for a run stopped by a signal, just
/// before it exits.
pub fn remove_own_temporary_files() {
    let temps = own_temps();
    for p in temps.iter() {
        let _ = fs::remove_file(p);
    }
    // Held until the process exits: no worker makes another.
    std::mem::forget(temps);
}

/// A file name cut to leave room for the temporary name's additions.
fn short_name(name: &std::ffi::OsStr) -> std::ffi::OsString {
    const KEEP: usize = 180;
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let b = name.as_bytes();
        std::ffi::OsStr::from_bytes(&b[..b.len().min(KEEP)]).to_os_string()
    }
    #[cfg(not(unix))]
    {
        name.to_string_lossy()
            .chars()
            .take(KEEP / 4)
            .collect::<String>()
            .into()
    }
}

const TEMP_SUFFIX: &str = ".xlsudoku-tmp";

/// Removes the temporary files that interrupted runs left in these folders
/// (`.NAME.PID.XXXXXX.xlsudoku-tmp`, and `.xlsudoku-report.XXXXXX` of older
/// versions): those of a process that no longer runs (or, where that
/// cannot be told, older than an hour). They were never renamed, so they
/// hold no finished work; a run still in progress keeps its own. Called at
/// the start of every run over its output and report folders.
pub fn sweep_leftovers<'a>(dirs: impl IntoIterator<Item = &'a Path>) {
    let mut seen: HashSet<PathBuf> = HashSet::new();
    for dir in dirs {
        if !seen.insert(dir.to_path_buf()) {
            continue;
        }
        let Ok(entries) = fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let pid = if let Some(rest) = name
                .strip_suffix(TEMP_SUFFIX)
                .filter(|_| name.starts_with('.'))
            {
                let mut parts = rest.rsplitn(3, '.');
                let _random = parts.next();
                match parts.next().and_then(|p| p.parse::<u32>().ok()) {
                    Some(pid) => Some(pid),
                    None => continue,
                }
            } else if name.starts_with(".xlsudoku-report.") {
                None
            } else {
                continue;
            };
            let dead = pid.is_some_and(|p| p != std::process::id() && !process_alive(p));
            if dead || is_older_than_an_hour(&e.path()) {
                let _ = fs::remove_file(e.path());
            }
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
    parts.extend(grid.bad_cells().into_iter().map(|(at, raw)| {
        format!(
            "{at} holds \"{raw}\", not a digit {}",
            grid.symbols.describe(side)
        )
    }));
    let formulas = grid.formula_cells();
    if !formulas.is_empty() {
        let cells: Vec<String> = formulas.iter().map(|(at, _)| at.to_string()).collect();
        let (hold, what) = match formulas.len() {
            1 => ("holds", "a formula"),
            _ => ("hold", "formulas"),
        };
        parts.push(format!(
            "{} {hold} {what} without a value (open and save the file in Excel or LibreOffice first)",
            cells.join(", ")
        ));
    }
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
            digit_name(grid, c.value),
            c.unit,
            cells.join(", ")
        ));
    }
    parts.join("; ")
}

/// Why a sheet without grids has none, when it has bordered squares that
/// were turned down for their values.
fn no_grid_reason(sheet: &crate::workbook::Sheet) -> Option<String> {
    let reasons: Vec<String> = sheet.turned_down.iter().map(|t| t.to_string()).collect();
    (!reasons.is_empty()).then(|| reasons.join("; "))
}

/// What the edits of one grid write, for the copy's record of them: the
/// grid cells given a value, the note's cell and the answer copy's square
/// (none of them when the answer copy was refused: the earlier record is
/// kept).
fn grid_mark(sheet: &str, grid: &FoundGrid, edits: &[CellEdit]) -> GridMark {
    let answer = grid.answer.range().filter(|block| {
        edits
            .iter()
            .any(|e| block.contains(e.at) && e.value != CellValue::Clear)
    });
    GridMark {
        answer,
        keep: edits.is_empty(),
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

/// The cells of a grid's answer copy that the edits write a value into,
/// each taking the style of its grid cell: plain for a given, its blue
/// italic twin for a solved cell.
pub fn answer_styles(sheet: &str, grid: &FoundGrid, edits: &[CellEdit]) -> Vec<StyleFrom> {
    let Some(block) = grid.answer.range() else {
        return Vec::new();
    };
    let side = grid.shape.side();
    edits
        .iter()
        .filter(|e| block.contains(e.at) && e.value != CellValue::Clear)
        .map(|e| {
            let (r, c) = (e.at.row - block.start.row, e.at.col - block.start.col);
            let i = r as usize * side + c as usize;
            StyleFrom {
                sheet: sheet.to_string(),
                at: e.at,
                from: grid.range.cell(r, c),
                blue: !matches!(grid.cells.get(i), Some(Cell::Given(_))),
            }
        })
        .collect()
}

/// Solves one found grid: its report record and the cell edits for the
/// annotated copy (fills, clears of an earlier run's fills, and the note;
/// with an answer copy ([`FoundGrid::answer`]), the copy instead of fills,
/// the grid's earlier fills cleared). A grid whose answer copy is refused
/// gets no edits at all.
/// A solved grid's rating outside `limits` makes the record `too-hard` or
/// `too-easy`; a complete grid (no blank) is never either.
pub fn solve_grid(
    file: &str,
    sheet: &str,
    grid: &FoundGrid,
    opts: &SolveOptions,
    limits: &crate::logic::Limits,
) -> (SheetRecord, Vec<CellEdit>) {
    let (record, edits, _) = solve_grid_copy(file, sheet, grid, opts, limits);
    (record, edits)
}

/// How digit `d` is written into `grid`: in its alphabet, a letter as
/// text in the grid's case.
fn written(grid: &FoundGrid, d: u8) -> CellValue {
    match grid.symbols.symbol(d) {
        Symbol::Number(n) => CellValue::Number(f64::from(n)),
        Symbol::Letter(_) => CellValue::Text(digit_name(grid, d)),
    }
}

/// Digit `d` as `grid` shows it (`7`, `G`, `g`), for messages.
fn digit_name(grid: &FoundGrid, d: u8) -> String {
    match grid.symbols.symbol(d) {
        Symbol::Number(n) => n.to_string(),
        Symbol::Letter(c) if grid.lowercase => c.to_ascii_lowercase().to_string(),
        Symbol::Letter(c) => c.to_string(),
    }
}

/// What a grid's copy on the sheet of solutions holds (`--answers
/// sheet`): each cell's value in reading order and whether it is solved
/// (blue italics) rather than given.
pub type SheetCopy = Vec<(CellValue, bool)>;

/// [`solve_grid`], and with [`AnswerPlace::Sheet`](crate::workbook::AnswerPlace::Sheet)
/// the copy that goes on the sheet of solutions when the grid is solved
/// (or, `--logic-only`, given up with candidates).
pub fn solve_grid_copy(
    file: &str,
    sheet: &str,
    grid: &FoundGrid,
    opts: &SolveOptions,
    limits: &crate::logic::Limits,
) -> (SheetRecord, Vec<CellEdit>, Option<SheetCopy>) {
    let puzzle = grid.puzzle();
    let side = grid.shape.side();
    let bad = grid.bad_cells();
    let outcome = if bad.is_empty() && grid.formula_cells().is_empty() && grid.merged.is_empty() {
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
    if let Some(r) = outcome.rating.filter(|_| outcome.status == Status::Solved) {
        // The seed's `history-time` first, then the ratings.
        note.push_str(&format!(
            " · SE {} · {}",
            crate::logic::rating::se_text(r.se, r.complete),
            r.level
        ));
    }
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
    let block = grid.answer.range();
    // What the solution holds for cell `i`, in the grid's own alphabet.
    let solved_value = |i: usize| match outcome.grid.cells()[i] {
        0 => match outcome.candidates.get(i) {
            Some(&m) if m != 0 => CellValue::Text(candidate_letters(m)),
            _ => CellValue::Clear,
        },
        // In the grid's own alphabet: a letter as text.
        d => written(grid, d),
    };
    for (i, cell) in grid.cells.iter().enumerate() {
        let at: CellRef = grid.cell_ref(i);
        if formulas.contains(&at) {
            // A formula is never written over.
            continue;
        }
        let earlier = matches!(cell, Cell::Filled(_) | Cell::FilledText(_));
        // A blank written as `0`, `.` or pencil marks is filled like a blank.
        if !matches!(cell, Cell::Blank | Cell::Marked(_)) && !earlier {
            continue;
        }
        let value = if filled && grid.answer == crate::workbook::AnswerPlace::InGrid {
            solved_value(i)
        } else {
            CellValue::Clear
        };
        if value == CellValue::Clear && !earlier {
            continue;
        }
        edits.push(CellEdit { at, value });
    }
    // The solution as a copy of the grid: givens as they are.
    let copy_value = |i: usize, cell: &Cell| match cell {
        Cell::Given(d) => written(grid, *d),
        _ => solved_value(i),
    };
    let mut copy: std::collections::HashSet<CellRef> = std::collections::HashSet::new();
    if let (Some(block), true) = (block, filled) {
        for (i, cell) in grid.cells.iter().enumerate() {
            let at = block.cell((i / side) as u32, (i % side) as u32);
            copy.insert(at);
            edits.push(CellEdit {
                at,
                value: copy_value(i, cell),
            });
        }
    }
    let sheet_copy: Option<SheetCopy> =
        (filled && grid.answer == crate::workbook::AnswerPlace::Sheet).then(|| {
            grid.cells
                .iter()
                .enumerate()
                .map(|(i, cell)| (copy_value(i, cell), !matches!(cell, Cell::Given(_))))
                .collect()
        });
    // An earlier answer copy goes where this run writes no other.
    if let Some(old) = grid.earlier_answer {
        for r in old.start.row..=old.end.row {
            for c in old.start.col..=old.end.col {
                let at = CellRef::new(r, c);
                if !copy.contains(&at) {
                    edits.push(CellEdit {
                        at,
                        value: CellValue::Clear,
                    });
                }
            }
        }
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
        rating: outcome.rating.map(|r| r.se),
        level: outcome.rating.map(|r| r.level),
        score: outcome.rating.map(|r| r.score),
        elapsed_ms: outcome.elapsed.as_secs_f64() * 1000.0,
        output: None,
        error,
        skipped: false,
        answer_range: block.filter(|_| filled).map(|b| b.to_string()),
        answer_sheet: block.filter(|_| filled).map(|_| sheet.to_string()),
    };
    let mut record = record;
    if let Some(why) = grid.answer.refusal() {
        record.status = SheetStatus::Refused;
        record.error = Some(why);
        return (record, Vec::new(), None);
    }
    // A complete grid (a solution printed beside its puzzles) has nothing
    // to solve, so no difficulty to bound.
    let rated = (outcome.status, outcome.rating, puzzle.is_full());
    if let (Status::Solved, Some(r), false) = rated {
        if let Err((too_hard, why)) = limits.check(&r) {
            record.status = if too_hard {
                SheetStatus::TooHard
            } else {
                SheetStatus::TooEasy
            };
            record.error = Some(why);
        }
    }
    (record, edits, sheet_copy)
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
    fn a_stamp_line_gives_back_its_grids_for_the_same_key_only() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.xlsx");
        fs::write(&f, b"x").unwrap();
        let opts = RunOptions::default();
        let key = stamp(&f, &opts).unwrap();
        let record = SheetRecord {
            sheet: Some("S \"1\" grids=[".into()),
            status: SheetStatus::Multiple,
            error: Some("more than one solution".into()),
            ..Default::default()
        };
        let line = stamp_line(&key, std::slice::from_ref(&record));
        assert_eq!(recorded_digest(&line), Some(Some(NO_DIGEST)));
        let grids = stamped_grids(&line, &key).unwrap();
        let back = grids[0].clone().record("a.xlsx", "out/a.xlsx");
        assert_eq!(back.sheet, record.sheet);
        assert_eq!(back.status, SheetStatus::Multiple);
        assert!(back.skipped);
        let other = RunOptions {
            sheets: vec!["S".into()],
            ..RunOptions::default()
        };
        assert!(stamped_grids(&line, &stamp(&f, &other).unwrap()).is_none());
        // A line from before digests is still taken for xlsudoku's.
        assert_eq!(
            recorded_digest("xlsudoku 0.1.0 input=\"a\" ok=true"),
            Some(None)
        );
        assert_eq!(recorded_digest("xlsudoku 0.1.0 cd=12"), None);
    }

    #[test]
    fn grids_too_many_for_a_stamp_are_left_out() {
        let record = SheetRecord {
            history: Some("#".repeat(MAX_STAMPED_GRIDS)),
            ..Default::default()
        };
        let line = stamp_line("xlsudoku 0.1.0 input=x", std::slice::from_ref(&record));
        assert!(line.len() < MAX_STAMPED_GRIDS, "history dropped first");
        let many = vec![record; MAX_STAMPED_GRIDS / 16];
        let line = stamp_line("xlsudoku 0.1.0 input=x", &many);
        assert!(line.ends_with(" grids=-"), "{}", &line[..80]);
    }

    #[test]
    fn temporary_names_stay_short_and_sweeps_spare_live_runs() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join(format!("{}.xlsx", "n".repeat(250)));
        let tmp = TempCopy::beside(&target).unwrap();
        let name = tmp.path.file_name().unwrap().len();
        assert!(name <= 255, "{name}");
        let live = d.path().join(format!(
            ".a.xlsx.{}.Ab12Cd.xlsudoku-tmp",
            std::process::id()
        ));
        let dead = d.path().join(".a.xlsx.4194999.Ab12Cd.xlsudoku-tmp");
        let other = d.path().join(".notes.4194999.txt");
        for p in [&live, &dead, &other] {
            fs::write(p, b"x").unwrap();
        }
        sweep_leftovers([d.path()]);
        assert!(live.exists() && other.exists() && tmp.path.exists());
        assert!(!dead.exists());
        // Dropped, the temporary file is gone and forgotten.
        let path = tmp.path.clone();
        drop(tmp);
        assert!(!path.exists());
        assert!(!own_temps().contains(&path));
    }

    #[test]
    fn after_an_error_writes_and_seeks_go_nowhere_but_add_up() {
        use std::io::{Seek, SeekFrom, Write};
        /// A disk with room for four bytes.
        struct Disk(std::io::Cursor<Vec<u8>>);
        impl Write for Disk {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                if self.0.get_ref().len() + buf.len() > 4 {
                    return Err(std::io::Error::other("no space left"));
                }
                self.0.write(buf)
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        impl Seek for Disk {
            fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
                self.0.seek(pos)
            }
        }
        let mut full = StopAfterError::new(Disk(std::io::Cursor::new(Vec::new())));
        assert_eq!(full.write(b"abc").unwrap(), 3);
        assert!(full.write_all(b"defgh").is_err());
        assert!(full.failed);
        full.write_all(b"ijkl").unwrap();
        assert_eq!(full.stream_position().unwrap(), full.pos);
        assert_eq!(full.seek(SeekFrom::Start(1)).unwrap(), 1);
        assert_eq!(full.seek(SeekFrom::End(-1)).unwrap(), full.len - 1);
        assert_eq!(full.seek(SeekFrom::Current(-100)).unwrap(), full.len - 1);
        full.flush().unwrap();
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
        assert!(matches!(err, BatchError::OutputIsAnInput { .. }), "{err}");
    }
}
