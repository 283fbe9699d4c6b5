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
use crate::solve::{candidate_letters, Outcome, SolveOptions, Status};
use crate::workbook::{read_workbook_bytes, Cell, FoundGrid, ReadOptions, Symbol};

mod grids;
mod lock;
mod place;
mod process;
mod repeats;
mod stamp;
mod write;

pub use crate::invalid::invalid_reason;
use grids::*;
pub use grids::{answer_styles, solve_grid, solve_grid_copy};
pub use lock::{lock_outputs, LockError, RunLock, FOLDER_LOCK};
pub use place::{not_regular, not_regular_message};
pub use process::process;
pub use repeats::Repeats;
use stamp::*;
pub use stamp::{stamp, up_to_date};
use write::*;
pub use write::{remove_own_temporary_files, sweep_leftovers, TempCopy, STDOUT_CLOSED};

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
    /// `-o` exists and is neither a regular file nor a folder (a FIFO, a
    /// device, a socket): never replaced, even with `--force`.
    #[error("{path}: is not a regular file ({kind}); left as it is")]
    NotRegular {
        /// The output asked for.
        path: PathBuf,
        /// What it is.
        kind: &'static str,
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
    /// Files and directories (searched recursively for `.xlsx`/`.xlsm`/`.xls`/`.ods`).
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
    (lower.ends_with(b".xlsx")
        || lower.ends_with(b".xlsm")
        || lower.ends_with(b".xls")
        || lower.ends_with(b".ods"))
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

/// An `.xls` or `.ods` name: such a workbook is read, and copied, as the
/// `.xlsx` made of it.
fn is_legacy_name(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("xls") || e.eq_ignore_ascii_case("ods"))
}

/// The name a copy of `input` gets inside an output folder: its own, with
/// `.xlsx` for an `.xls` or `.ods`.
fn copy_name(name: PathBuf) -> PathBuf {
    if is_legacy_name(&name) {
        name.with_extension("xlsx")
    } else {
        name
    }
}

/// The default output beside an input: `NAME.solved.xlsx` (`.xlsm` kept;
/// an `.xls` or `.ods` is copied as `.xlsx`). Names that are not UTF-8
/// keep their stem.
pub fn default_output(input: &Path) -> PathBuf {
    let ext = input
        .extension()
        .filter(|_| !is_legacy_name(input))
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

/// A macro workbook must stay `.xlsm`, and a plain one `.xlsx`; the copy
/// of an `.xls` or `.ods` is an `.xlsx`.
fn check_extension(input: &Path, output: &Path) -> Result<(), BatchError> {
    let (kind, ext) = if is_macro_name(input) {
        ("a macro workbook", "xlsm")
    } else if is_legacy_name(input) {
        (
            "an .xls or .ods workbook, whose copy is written as a new .xlsx (xlsudoku does not write the old formats)",
            "xlsx",
        )
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
    not_read: &mut Vec<PathBuf>,
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
            walk(&p, skip, seen, out, not_read)?;
        } else if meta.is_file() && is_workbook_name(&p) {
            out.push(p);
        } else if meta.is_file() && !is_workbook_extension(&p) {
            // Lock files and earlier copies are passed over on purpose;
            // files of other kinds are listed, so nothing is left out
            // silently.
            not_read.push(p);
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
        .and_then(|f| crate::records::read_stamp(std::io::BufReader::new(f)))
        .is_some()
}

/// Expands inputs into jobs, sorted by input path: files as given,
/// directories searched recursively for `.xlsx`/`.xlsm`/`.xls`/`.ods` (skipping hidden
/// entries, Excel lock files `~$…`, earlier `*.solved.*` outputs and the
/// output directory). With `-o` a directory, each directory input's files
/// keep their path relative to it, and file inputs go in at the top.
pub fn plan(p: &Plan) -> Result<Planned, BatchError> {
    let single_file = check_dashes(p)?;
    let dash_out = p.write && p.output.as_deref().is_some_and(is_dash);
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
    let out_is_file = match output {
        Some(o) => output_is_file(o, single_file)?,
        None => false,
    };
    let mut not_read = Vec::new();
    let mut pairs = input_pairs(p, out_is_file, out_canon.as_deref(), &mut not_read)?;
    pairs.sort();
    // One job per file, whichever path named it.
    let mut seen_inputs: HashSet<PathBuf> = HashSet::new();
    pairs.retain(|(input, _, _)| seen_inputs.insert(canonical(input)));
    let (jobs, passed_over) = jobs_of(pairs)?;
    check_collisions(&jobs)?;
    not_read.sort();
    not_read.dedup();
    Ok(Planned {
        jobs,
        passed_over,
        not_read,
    })
}

/// An input, its output (none when not writing) and whether the run is
/// incremental (a file found in a folder).
type Pair = (PathBuf, Option<PathBuf>, bool);

/// [`plan`]'s checks of `-` (standard input or output); returns whether
/// the one input is a single file (or a pipe, or `-`).
fn check_dashes(p: &Plan) -> Result<bool, BatchError> {
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
    Ok(single_file)
}

/// Whether `-o` names the copy's file (rather than a folder), after
/// checking that it can be what the inputs need.
fn output_is_file(o: &Path, single_file: bool) -> Result<bool, BatchError> {
    if let Some(kind) = not_regular(o).filter(|_| !o.is_dir()) {
        return Err(BatchError::NotRegular {
            path: o.to_path_buf(),
            kind,
        });
    }
    let dir_like = o.is_dir() || o.as_os_str().to_string_lossy().ends_with(['/', '\\']);
    if !single_file && o.is_file() {
        return Err(BatchError::OutputNotDir(o.to_path_buf()));
    }
    if !single_file && !o.exists() && !dir_like && is_workbook_extension(o) {
        return Err(BatchError::OutputNamesAWorkbook(o.to_path_buf()));
    }
    Ok(single_file && !dir_like)
}

/// Each input (folders walked) with its output; files found in a folder
/// that are not read go to `not_read`.
fn input_pairs(
    p: &Plan,
    out_is_file: bool,
    out_canon: Option<&Path>,
    not_read: &mut Vec<PathBuf>,
) -> Result<Vec<Pair>, BatchError> {
    let output = p.output.as_ref().filter(|o| p.write && !is_dash(o));
    let mut pairs: Vec<Pair> = Vec::new();
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
            let seen = &mut HashSet::new();
            walk(input, out_canon, seen, &mut files, not_read)?;
            for f in files {
                let out = match (output, p.write) {
                    (_, false) => None,
                    (Some(o), true) => {
                        Some(o.join(copy_name(f.strip_prefix(input).unwrap_or(&f).to_path_buf())))
                    }
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
                (Some(o), true) => Some(o.join(copy_name(PathBuf::from(
                    input.file_name().unwrap_or(input.as_os_str()),
                )))),
                (None, true) => Some(default_output(input)),
            };
            pairs.push((input.clone(), out, false));
        } else {
            return Err(BatchError::Missing(input.clone()));
        }
    }
    Ok(pairs)
}

/// Inputs passed over: `(input, the input whose copy it is)`.
type PassedOver = Vec<(PathBuf, PathBuf)>;

/// The jobs of the pairs, and the inputs passed over. No output may land
/// on an input: an earlier copy of xlsudoku's that another job will
/// rewrite (`xlsudoku *.xlsx` run twice) is passed over; anything else is
/// refused rather than overwritten.
fn jobs_of(pairs: Vec<Pair>) -> Result<(Vec<Job>, PassedOver), BatchError> {
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
    Ok((jobs, passed_over))
}

/// Refuses two jobs writing one output.
fn check_collisions(jobs: &[Job]) -> Result<(), BatchError> {
    let mut outputs: HashMap<PathBuf, PathBuf> = HashMap::new();
    for job in jobs {
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
    Ok(())
}

/// Why a file found in a folder is not read: a spreadsheet format
/// xlsudoku does not read, or not a workbook at all.
pub fn not_read_reason(p: &Path) -> &'static str {
    let ext = p
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("xlsb") => {
            "a binary workbook (.xlsb), whose cell formats (the borders grids are found by) xlsudoku does not read: save it as .xlsx"
        }
        Some("xltx" | "xltm" | "csv") => {
            "a spreadsheet format xlsudoku does not read: save it as .xlsx"
        }
        _ => "not a workbook (.xlsx, .xlsm, .xls or .ods)",
    }
}

/// The jobs of a run, and the inputs passed over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Planned {
    /// What to process, sorted by input path.
    pub jobs: Vec<Job>,
    /// Inputs that are earlier xlsudoku copies which another job of this
    /// run rewrites: `(input, the input whose copy it is)`.
    pub passed_over: Vec<(PathBuf, PathBuf)>,
    /// Files of other kinds found in the folders searched (`.csv`, `.xls`,
    /// …), sorted: listed with [`not_read_reason`], never read.
    pub not_read: Vec<PathBuf>,
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
    /// The outcomes of the grids solved so far in this run, so that a
    /// grid met again is not solved again ([`Repeats`]).
    pub repeats: Repeats,
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
    /// How an `.xls` or `.ods` input was converted to `.xlsx`, and what
    /// the conversion could not carry.
    pub conversion: Option<crate::workbook::legacy::Conversion>,
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
            return crate::workbook::read_open_file(path, file);
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
        assert!(matches!(err, BatchError::OutputIsAnInput { .. }), "{err}");
    }
}
