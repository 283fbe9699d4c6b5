//! The lock that keeps two runs from writing the same outputs at once
//! (each file is written whole, but two runs with other options would
//! leave a folder holding a mix of both). A run takes, before writing
//! anything:
//!
//! - with `-o FOLDER`, or over a folder without `-o`: `FOLDER/.xlsudoku.lock`
//!   (a `--shard K/N` run shares it with the other shards and holds
//!   `FOLDER/.xlsudoku.K-of-N.lock` alone: shards write other files);
//! - for a file named on the command line: `.NAME.xlsudoku-lock` beside
//!   its output NAME, and its folder's lock shared (runs writing other
//!   files in one folder, such as `xargs -P`, go on side by side; a run
//!   over the whole folder waits for none of them).
//!
//! The locks are `flock(2)` locks: the system releases them when the run
//! ends, however it ends, so a lock file a killed run leaves behind holds
//! nothing and is taken over. A run removes its lock files when done (the
//! file is checked to be the one locked, so a run that opened it just
//! before it went locks it anew). A second run refuses at once (exit 2)
//! naming the first's process id and command, which the lock file holds.

use std::fs;
use std::path::{Path, PathBuf};

use super::{is_dash, Job, Plan, Shard};

/// The lock file of a folder.
pub const FOLDER_LOCK: &str = ".xlsudoku.lock";

/// Why the outputs could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another run holds the lock.
    #[error(
        "{place}: another xlsudoku run ({holder}) is writing {what}; try again when it is done"
    )]
    Busy {
        /// The folder or file, as the user gave it.
        place: PathBuf,
        /// `pid N: COMMAND`, from the lock file.
        holder: String,
        /// `here` or `it`.
        what: &'static str,
    },
    /// The lock file could not be made or locked.
    #[error("{place}: cannot take the lock {}: {source}", lock.display())]
    Io {
        /// The folder or file, as the user gave it.
        place: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The locks a run holds until it is dropped (then its lock files are
/// removed).
#[derive(Debug, Default)]
pub struct RunLock {
    held: Vec<Held>,
}

#[derive(Debug)]
struct Held {
    path: PathBuf,
    #[cfg_attr(not(unix), allow(dead_code))]
    file: fs::File,
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // The last held first: each shard's own lock before the shared one.
        while let Some(h) = self.held.pop() {
            release(h);
        }
    }
}

/// What one lock is on.
struct Place {
    /// As the user gave it, for messages.
    shown: PathBuf,
    lock: PathBuf,
    shared: bool,
    what: &'static str,
}

/// The places of a run's locks (see the module's text), sorted.
fn places(plan: &Plan, jobs: &[Job], shard: Option<Shard>) -> Vec<Place> {
    let mut out = Vec::new();
    let folder = |dir: &Path, out: &mut Vec<Place>| {
        out.push(Place {
            shown: dir.to_path_buf(),
            lock: dir.join(FOLDER_LOCK),
            shared: shard.is_some(),
            what: "here",
        });
        if let Some(s) = shard {
            out.push(Place {
                shown: dir.to_path_buf(),
                lock: dir.join(format!(".xlsudoku.{}-of-{}.lock", s.index, s.count)),
                shared: false,
                what: "this shard here",
            });
        }
    };
    let output = plan.output.as_deref().filter(|o| !is_dash(o));
    match output {
        Some(o) if jobs.iter().any(|j| j.output.as_deref() == Some(o)) => {}
        Some(o) => {
            // The folder's lock covers every file the run writes there.
            folder(o, &mut out);
            return out;
        }
        None => {
            for dir in plan.inputs.iter().filter(|i| !is_dash(i) && i.is_dir()) {
                folder(dir, &mut out);
            }
        }
    }
    for job in jobs.iter().filter(|j| !j.incremental) {
        let Some(o) = job.output.as_deref().filter(|o| !is_dash(o)) else {
            continue;
        };
        let mut name = std::ffi::OsString::from(".");
        name.push(super::write::short_name(o.file_name().unwrap_or_default()));
        name.push(".xlsudoku-lock");
        out.push(Place {
            shown: o.to_path_buf(),
            lock: o.with_file_name(name),
            shared: false,
            what: "it",
        });
        // Shared with other such runs, not with a run over the folder.
        let dir = super::write::parent_dir(o);
        out.push(Place {
            lock: dir.join(FOLDER_LOCK),
            shown: dir,
            shared: true,
            what: "here",
        });
    }
    // Stable: a folder's own (exclusive) lock stays before a shared one.
    out.sort_by(|a, b| a.lock.cmp(&b.lock));
    out.dedup_by(|a, b| a.lock == b.lock);
    out
}

/// Takes the locks of a run that writes `jobs` (planned from `plan`),
/// creating the output folder when needed; a run that writes nothing
/// takes none. Refuses at once when another run holds one.
pub fn lock_outputs(plan: &Plan, jobs: &[Job], shard: Option<Shard>) -> Result<RunLock, LockError> {
    let mut lock = RunLock::default();
    if !plan.write || jobs.is_empty() {
        return Ok(lock);
    }
    for place in places(plan, jobs, shard) {
        let io = |source| LockError::Io {
            place: place.shown.clone(),
            lock: place.lock.clone(),
            source,
        };
        if let Some(dir) = place.lock.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(io)?;
        }
        match take(&place.lock, place.shared).map_err(io)? {
            Ok(held) => lock.held.push(held),
            Err(holder) => {
                return Err(LockError::Busy {
                    place: place.shown,
                    holder,
                    what: place.what,
                })
            }
        }
    }
    Ok(lock)
}

/// The holder a lock file names, or words for one that names none yet.
fn holder(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_default();
    match text.lines().next().map(str::trim).filter(|l| !l.is_empty()) {
        Some(line) => line.chars().take(300).collect(),
        None => "pid unknown".to_string(),
    }
}

/// This process as a lock file names it.
fn me() -> String {
    let command: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    format!("pid {}: {}", std::process::id(), command.join(" "))
}

/// Locks `path` (created when missing): the held lock, or the holder of
/// the lock that is in the way.
#[cfg(unix)]
fn take(path: &Path, shared: bool) -> std::io::Result<Result<Held, String>> {
    use std::io::Write as _;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    use std::os::unix::io::AsRawFd;
    let how = if shared { libc::LOCK_SH } else { libc::LOCK_EX };
    loop {
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)?;
        if !file.metadata()?.is_file() {
            return Err(std::io::Error::other("not a regular file"));
        }
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(file.as_raw_fd(), how | libc::LOCK_NB) } != 0 {
            let e = std::io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                return Ok(Err(holder(path)));
            }
            return Err(e);
        }
        // The last holder may have removed the file between the open and
        // the lock: then the lock is on a file no one else sees.
        let (mine, there) = (file.metadata()?, fs::symlink_metadata(path));
        if !there.is_ok_and(|t| t.dev() == mine.dev() && t.ino() == mine.ino()) {
            continue;
        }
        // Shards sharing the lock each write it: it names one of them.
        file.set_len(0)?;
        writeln!(file, "{}", me())?;
        // A run stopped by a signal removes it with its temporary files.
        super::write::own_temps().push(path.to_path_buf());
        return Ok(Ok(Held {
            path: path.to_path_buf(),
            file,
        }));
    }
}

#[cfg(not(unix))]
fn take(path: &Path, _shared: bool) -> std::io::Result<Result<Held, String>> {
    let file = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    Ok(Ok(Held {
        path: path.to_path_buf(),
        file,
    }))
}

/// Removes the lock file while it is held (a shared one only when no
/// other run shares it), then lets it go.
fn release(h: Held) {
    super::write::own_temps().retain(|p| p != &h.path);
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on a descriptor `h` owns.
        let alone = unsafe { libc::flock(h.file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
        if alone {
            let _ = fs::remove_file(&h.path);
        }
    }
    #[cfg(not(unix))]
    let _ = fs::remove_file(&h.path);
    drop(h.file);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(inputs: Vec<PathBuf>, output: Option<PathBuf>) -> Plan {
        Plan {
            inputs,
            output,
            write: true,
        }
    }

    #[test]
    fn a_second_lock_on_a_folder_is_refused_and_names_the_first() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let job = Job {
            input: d.path().join("in/a.xlsx"),
            output: Some(out.join("a.xlsx")),
            incremental: true,
        };
        let p = plan(vec![d.path().join("in")], Some(out.clone()));
        let first = lock_outputs(&p, std::slice::from_ref(&job), None).unwrap();
        assert!(fs::read_to_string(out.join(FOLDER_LOCK))
            .unwrap()
            .starts_with(&format!("pid {}: ", std::process::id())));
        let err = lock_outputs(&p, std::slice::from_ref(&job), None).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(&format!(
                "{}: another xlsudoku run (pid {}",
                out.display(),
                std::process::id()
            )),
            "{text}"
        );
        // Shards share the folder with each other, not with a whole run.
        let one = Shard { index: 1, count: 2 };
        let two = Shard { index: 2, count: 2 };
        assert!(lock_outputs(&p, std::slice::from_ref(&job), Some(one)).is_err());
        drop(first);
        assert!(!out.join(FOLDER_LOCK).exists(), "removed when done");
        let a = lock_outputs(&p, std::slice::from_ref(&job), Some(one)).unwrap();
        let b = lock_outputs(&p, std::slice::from_ref(&job), Some(two)).unwrap();
        assert!(lock_outputs(&p, std::slice::from_ref(&job), Some(one)).is_err());
        assert!(lock_outputs(&p, std::slice::from_ref(&job), None).is_err());
        drop(a);
        assert!(out.join(FOLDER_LOCK).exists(), "still shared by shard 2");
        drop(b);
        assert_eq!(fs::read_dir(&out).unwrap().count(), 0, "lock files removed");
    }

    #[test]
    fn files_named_on_the_command_line_lock_their_output_only() {
        let d = tempfile::tempdir().unwrap();
        let job = |name: &str| Job {
            input: d.path().join(name),
            output: Some(d.path().join(format!("{name}.out.xlsx"))),
            incremental: false,
        };
        let (a, b) = (job("a"), job("b"));
        let pa = plan(vec![a.input.clone()], a.output.clone());
        let pb = plan(vec![b.input.clone()], b.output.clone());
        let held = lock_outputs(&pa, std::slice::from_ref(&a), None).unwrap();
        assert!(d.path().join(".a.out.xlsx.xlsudoku-lock").exists());
        let other = lock_outputs(&pb, std::slice::from_ref(&b), None).unwrap();
        let err = lock_outputs(&pa, std::slice::from_ref(&a), None).unwrap_err();
        assert!(err.to_string().contains("is writing it"), "{err}");
        // A run over the folder waits for neither, and they for it.
        let folder = plan(vec![d.path().to_path_buf()], None);
        let all = Job {
            incremental: true,
            ..a.clone()
        };
        let err = lock_outputs(&folder, std::slice::from_ref(&all), None).unwrap_err();
        assert!(err.to_string().contains("is writing here"), "{err}");
        drop((held, other));
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 0);
    }
}
