//! A workbook given as a pipe (`xlsudoku <(curl …) -o out.xlsx`, a named
//! FIFO) was refused by `solve` with "-o out.xlsx: several inputs (or a
//! folder) need -o to be a folder", although it is one input and `check`
//! reads the same pipe. One input that is not a folder is a file.

#[cfg(unix)]
#[test]
fn a_workbook_from_a_named_pipe_is_solved_into_the_file_given() {
    use std::io::Write;
    use std::path::Path;

    let t = tempfile::tempdir().unwrap();
    let fifo = t.path().join("puzzle.xlsx");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/status_logic_easy.xlsx"),
    )
    .unwrap();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            // Opening blocks until xlsudoku opens the pipe for reading; a
            // run that refuses first never does, so give up after a while.
            let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            let _ = f.write_all(&bytes);
        })
    };
    let out = t.path().join("out.xlsx");
    let o = crate::util::command()
        .arg(&fifo)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let refused = !o.status.success();
    if refused {
        // Unblock the writer thread so the test ends.
        let _ = std::fs::File::open(&fifo);
    }
    writer.join().unwrap();
    assert!(
        !refused,
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.is_file(), "the copy is written");
}
