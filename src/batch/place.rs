//! What is at an output's place before anything is opened there: a FIFO,
//! a device, a socket or a folder is never replaced (nor opened: opening
//! a FIFO waits for its other end for ever).

use std::fs;
use std::path::Path;

/// What `path` is when it exists and is neither a regular file nor a link
/// to one (`"a FIFO"`, `"a character device"`, `"a folder"` …); `None`
/// when it is one, or nothing is there (a link to nothing included).
/// Only the file's metadata is read: nothing is opened.
pub fn not_regular(path: &Path) -> Option<&'static str> {
    let meta = fs::metadata(path).ok()?;
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_char_device() {
            return Some("a character device");
        }
        if kind.is_block_device() {
            return Some("a block device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// The message for an output that is not a regular file ([`not_regular`]):
/// it names the path as given and says it is left alone.
pub fn not_regular_message(path: &Path, kind: &str) -> String {
    format!(
        "{}: is not a regular file ({kind}); left as it is",
        path.display()
    )
}

/// An error from making a temporary file without the temporary file's
/// name: the `tempfile` crate adds `at path "…/.NAME.1234.aBcDeF.…"`,
/// which names nothing the user made. The kind and the system's message
/// stay.
pub(super) fn without_temporary_path(e: std::io::Error) -> std::io::Error {
    let text = e.to_string();
    match text.find(" at path \"") {
        Some(cut) => std::io::Error::new(e.kind(), text[..cut].to_string()),
        None => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_links_to_them_are_regular_and_the_rest_is_named() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("a.xlsx");
        fs::write(&f, b"x").unwrap();
        assert_eq!(not_regular(&f), None);
        assert_eq!(not_regular(&d.path().join("none")), None);
        assert_eq!(not_regular(d.path()), Some("a folder"));
        #[cfg(unix)]
        {
            let link = d.path().join("link.xlsx");
            std::os::unix::fs::symlink(&f, &link).unwrap();
            assert_eq!(not_regular(&link), None);
            let fifo = d.path().join("fifo.xlsx");
            let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid C string.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            assert_eq!(not_regular(&fifo), Some("a FIFO"));
            assert_eq!(
                not_regular(Path::new("/dev/null")),
                Some("a character device")
            );
            assert_eq!(
                not_regular_message(&fifo, "a FIFO"),
                format!(
                    "{}: is not a regular file (a FIFO); left as it is",
                    fifo.display()
                )
            );
        }
    }

    #[test]
    fn temporary_paths_are_cut_from_errors() {
        let e = tempfile::Builder::new()
            .tempfile_in("/nonexistent-xlsudoku-dir")
            .unwrap_err();
        assert!(e.to_string().contains("at path"), "{e}");
        let plain = without_temporary_path(e);
        assert_eq!(plain.kind(), std::io::ErrorKind::NotFound);
        assert!(!plain.to_string().contains("nonexistent"), "{plain}");
    }
}
