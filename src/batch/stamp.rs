//! The stamp an annotated copy carries in its records (see
//! [`crate::records`]: the zip comment, or the part `xlsudoku/records.xml`
//! it points at once they are long), and what it
//! tells a rerun: whether the copy is up to date with its input and
//! options, and every grid's report to give again.

use super::*;
/// What an annotated copy is made from: the xlsudoku version, the input's
/// file name, size and modification time (rsync's quick check), and every
/// option that changes the copy (`--logic-only`, `--range`, `--box`,
/// `--timeout`, `--sheet`, `--techniques`, `--answers`). The copy's records keep this line with,
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
        "{}{} input={:?}:{}:{}.{:09} logic-only={} range={} box={} timeout={} se-budget={} sheets={} techniques={} answers={}",
        crate::records::STAMP_PREFIX,
        env!("CARGO_PKG_VERSION"),
        name,
        meta.len(),
        mtime.as_secs(),
        mtime.subsec_nanos(),
        opts.solve.logic_only,
        show(opts.read.range.map(|r| r.to_string())),
        show(opts.read.shape.map(|b| b.to_string())),
        show(opts.solve.timeout.map(|t| format!("{}", t.as_secs_f64()))),
        show(opts.solve.se_budget.map(|t| format!("{}", t.as_secs_f64()))),
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
pub(super) const DIGEST_LEN: usize = 16;
/// The stamp's digest before it is known (also: never checked).
pub(super) const NO_DIGEST: &str = "0000000000000000";
/// The most bytes of grid reports a stamp line carries.
pub(super) const MAX_STAMPED_GRIDS: usize = 16 * 1024;

/// One grid's report as a stamp line keeps it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(super) struct StampedGrid {
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
    rating_exact: Option<bool>,
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
    pub(super) fn of(r: &SheetRecord, history: bool) -> StampedGrid {
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
            rating_exact: r.rating_exact,
            level: r.level,
            score: r.score,
            elapsed_ms: r.elapsed_ms,
            error: r.error.clone(),
            answer_range: r.answer_range.clone(),
            answer_sheet: r.answer_sheet.clone(),
        }
    }

    pub(super) fn record(self, file: &str, output: &str) -> SheetRecord {
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
            rating_exact: self.rating_exact,
            level: self.level,
            score: self.score,
            elapsed_ms: self.elapsed_ms,
            output: Some(output.to_string()),
            error: self.error,
            skipped: true,
            answer_range: self.answer_range,
            answer_sheet: self.answer_sheet,
            converted: None,
        }
    }
}

/// The stamp line written into a copy: `key` ([`stamp()`]) with the digest
/// placeholder after the version, and the grid reports at the end (`-`
/// when they do not fit, and the copy is then never up to date).
pub(super) fn stamp_line(key: &str, records: &[SheetRecord]) -> String {
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
pub(super) fn split_version(line: &str) -> Option<(&str, &str)> {
    let after = line.strip_prefix(crate::records::STAMP_PREFIX)?;
    let space = after.find(' ')?;
    let cut = crate::records::STAMP_PREFIX.len() + space;
    Some((&line[..cut], &line[cut + 1..]))
}

/// The digest recorded in a stamp line: `Some(None)` for a line from
/// before digests, `None` for a line this version cannot read.
pub(super) fn recorded_digest(line: &str) -> Option<Option<&str>> {
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
pub(super) fn entries_digest<R: std::io::Read + std::io::Seek>(
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
pub(super) enum Existing {
    /// Nothing.
    Missing,
    /// A copy xlsudoku wrote, unchanged since: its stamp line.
    Ours(String),
    /// Something else; why it is not taken for xlsudoku's.
    Foreign(&'static str),
    /// Neither a regular file nor a link to one: what it is (never
    /// opened, never replaced).
    NotRegular(&'static str),
}

/// The error of a path whose name (or a component of it) is longer than
/// the file system allows.
pub(super) fn name_too_long(e: &std::io::Error) -> bool {
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

pub(super) fn existing_output(output: &Path) -> Existing {
    // Before any open: opening a FIFO waits for a writer for ever.
    if let Some(kind) = super::place::not_regular(output) {
        return Existing::NotRegular(kind);
    }
    let file = match fs::File::open(output) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return match fs::symlink_metadata(output) {
                Ok(_) => Existing::Foreign("is a link to nothing"),
                Err(_) => Existing::Missing,
            }
        }
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
    let line = crate::records::record_text(&mut archive)
        .split(|&b| b == b'\n')
        .find(|l| l.starts_with(crate::records::STAMP_PREFIX.as_bytes()))
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
pub(super) fn stamped_grids(line: &str, key: &str) -> Option<Vec<StampedGrid>> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
