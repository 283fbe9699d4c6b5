//! Writing without ever leaving a half-written file: the copy goes to a
//! temporary file beside its target and is renamed over it; the run's own
//! temporary files are removed on the way out, and others' left by a
//! killed run are swept after an hour.

use super::*;
/// A writer that keeps nothing but its length: where `check` writes the
/// copy it makes.
#[derive(Debug, Default)]
pub(super) struct Discard {
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

/// The annotated copy of `bytes` (read from `input`, named in errors),
/// made in memory: a zip archive is written with seeks, which on a file
/// each flushed a buffer and asked the system where it was (about a
/// hundred calls a copy); the input is in memory already, and a copy is
/// about its size.
fn annotated_copy(
    input: &Path,
    bytes: &[u8],
    edits: &[SheetEdits],
    options: AnnotateOptions,
) -> Result<std::io::Cursor<Vec<u8>>, String> {
    let mut copy = std::io::Cursor::new(Vec::with_capacity(bytes.len() + bytes.len() / 4));
    annotate_with(std::io::Cursor::new(bytes), edits, &mut copy, options)
        .map_err(|e| format!("{}: {e}", input.display()))?;
    Ok(copy)
}

/// Writes the annotated copy to standard output ([`annotated_copy`]).
pub(super) fn write_stdout(
    input: &Path,
    bytes: &[u8],
    edits: &[SheetEdits],
    grids: Vec<GridMark>,
    style_from: Vec<StyleFrom>,
    solutions: Solutions,
) -> Result<(), String> {
    let options = AnnotateOptions {
        grids,
        style_from,
        solutions: Some(solutions),
        ..AnnotateOptions::default()
    };
    let copy = annotated_copy(input, bytes, edits, options)?;
    let mut out = std::io::stdout().lock();
    out.write_all(copy.get_ref())
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => STDOUT_CLOSED.to_string(),
            _ => format!("standard output: cannot write the copy: {e}"),
        })
}

/// The error of a copy written to standard output whose reader closed it
/// (`| head -c 10`): the command line ends the run quietly on it.
pub const STDOUT_CLOSED: &str = "standard output: closed by its reader";

/// Writes the annotated copy of `bytes` (read from `input`): a temporary
/// file in the target directory, flushed to disk, then renamed over the
/// target and the directory flushed, so no reader ever sees a half-written
/// file. The copy gets the usual permissions of a new file (or those of
/// the file it replaces), not the temporary file's private ones. The
/// stamp line's digest is filled in once the entries are written.
///
/// The copy is made in memory ([`annotated_copy`]) and written in one
/// go: a disk that fails (full, gone) fails that one write, with its
/// error.
pub(super) fn write_atomic(
    input: &Path,
    bytes: &[u8],
    output: &Path,
    edits: &[SheetEdits],
    (grids, style_from, solutions): (Vec<GridMark>, Vec<StyleFrom>, Solutions),
    stamp: Option<String>,
) -> Result<(), String> {
    let failed = |e: &dyn std::fmt::Display| format!("{}: cannot write: {e}", output.display());
    let options = AnnotateOptions {
        stamp,
        grids,
        style_from,
        solutions: Some(solutions),
        ..AnnotateOptions::default()
    };
    let mut copy = annotated_copy(input, bytes, edits, options)?;
    fill_in_digest(&mut copy).map_err(|e| failed(&e))?;
    let dir = parent_dir(output);
    fs::create_dir_all(&dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let mut tmp = TempCopy::beside(output).map_err(|e| failed(&e))?;
    tmp.file()
        .write_all(copy.get_ref())
        .and_then(|()| tmp.file().sync_all())
        .map_err(|e| failed(&e))?;
    // Checked again: a FIFO or a device made there meanwhile is kept.
    if let Some(kind) = super::place::not_regular(output) {
        return Err(super::place::not_regular_message(output, kind));
    }
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
pub(super) fn fill_in_digest<F>(file: &mut F) -> std::io::Result<()>
where
    F: std::io::Read + std::io::Write + std::io::Seek,
{
    use std::io::SeekFrom;
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
        if line.starts_with(crate::records::STAMP_PREFIX.as_bytes()) {
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

pub(super) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Temporary files of this process not yet renamed or removed: what an
/// interrupted run removes ([`remove_own_temporary_files`]).
pub(super) static OWN_TEMPS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

pub(super) fn own_temps() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
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
        let file = builder
            .tempfile_in(dir)
            .map_err(super::place::without_temporary_path)?;
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
            Some(f) => f
                .persist(target)
                .map(|_| ())
                .map_err(|e| super::place::without_temporary_path(e.error)),
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
pub(super) fn short_name(name: &std::ffi::OsStr) -> std::ffi::OsString {
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

pub(super) const TEMP_SUFFIX: &str = ".xlsudoku-tmp";

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
pub(super) fn process_alive(pid: u32) -> bool {
    let proc_dir = Path::new("/proc");
    !proc_dir.is_dir() || proc_dir.join(pid.to_string()).exists()
}

pub(super) fn is_older_than_an_hour(p: &Path) -> bool {
    fs::metadata(p)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age > std::time::Duration::from_secs(3600))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
