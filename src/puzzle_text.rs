//! Text puzzle files: one puzzle a line, its side told by its length
//! ([`parse_puzzles`], [`read_puzzle_lines`]), `#` comment and blank lines
//! left out, read by `bench` and `rate`.
//!
//! They are read a line at a time ([`puzzle_lines`]), so that
//! `bench` and `rate` hold only the puzzles in flight, never a whole file:
//! their memory stays the same for a thousand lines or a million, and a
//! file without line ends (`/dev/zero`) or a huge one is refused early.
//! `-` is standard input.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::grid::{Grid, GridError};

/// Why a file could not be benchmarked.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A line is not a puzzle of the file's size.
    #[error("{}:{line}: {source}", path.display())]
    BadLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        source: GridError,
    },
    /// The file is not a puzzle collection at all (binary data, endless
    /// lines, too large).
    #[error("{}:{line}: {reason}", path.display())]
    NotPuzzles {
        /// The file.
        path: PathBuf,
        /// 1-based line number where that became clear.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The solver reported a grid that does not solve the puzzle, or the
    /// same solution twice (an engine bug, never expected).
    #[error("{}:{line}: the solver returned an invalid or repeated solution", path.display())]
    WrongSolution {
        /// The file.
        path: PathBuf,
        /// 1-based line number of the puzzle.
        line: usize,
    },
}

/// Reads the puzzles of a text collection, with their 1-based line numbers.
///
/// Each line's side is taken from its length (81 cells: 9x9, 256: 16x16,
/// and so on), so a file may mix sizes; a line whose length is not the
/// square of a side with a box shape, or with a character that is not a
/// digit of its side, is an error naming its line number.
///
/// ```
/// use xlsudoku::bench::parse_puzzles;
/// let err = parse_puzzles("# two 4x4 puzzles\n1.3..2.4....1..3\n\n1.3..2.4....1.. short\n");
/// assert_eq!(err.map(|_| ()).unwrap_err().0, 4, "line 4 is one cell short");
/// let ok = parse_puzzles("1.3..2.4....1..3\n..........4..... note\n").unwrap();
/// assert_eq!(ok.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [1, 2]);
/// let mixed = parse_puzzles(&format!("1.3..2.4....1..3\n{}\n", ".".repeat(81))).unwrap();
/// assert_eq!(mixed.iter().map(|(_, g)| g.side()).collect::<Vec<_>>(), [4, 9]);
/// ```
pub fn parse_puzzles(text: &str) -> Result<Vec<(usize, Grid)>, (usize, GridError)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (index, line) in split_lines(text).enumerate() {
        if let Some(grid) = parse_puzzle_line(line).map_err(|e| (index + 1, e))? {
            out.push((index + 1, grid));
        }
    }
    Ok(out)
}

/// Lines ending in `\n`, `\r\n` or a lone `\r` (old Mac files).
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\r', '\n']).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = match rest.as_bytes().get(end) {
            Some(b'\r') if rest.as_bytes().get(end + 1) == Some(&b'\n') => 2,
            Some(_) => 1,
            None => 0,
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

/// One line of a puzzle file: its 1-based number, and the puzzle or why
/// the line is not one ([`read_puzzle_lines`]).
pub type PuzzleLine = (usize, Result<Grid, GridError>);

/// The smallest side a puzzle line may have (a 4x4 grid).
pub const MIN_SIDE: usize = 4;

/// One line: `None` for a comment or a blank line.
pub(crate) fn parse_puzzle_line(line: &str) -> Result<Option<Grid>, GridError> {
    let Some(token) = line.split_whitespace().next() else {
        return Ok(None);
    };
    if token.starts_with('#') {
        return Ok(None);
    }
    let cells = token.chars().count();
    if cells < MIN_SIDE * MIN_SIDE {
        return Err(GridError::BadLength(cells));
    }
    Grid::parse_line(token, None).map(Some)
}

/// The longest line a puzzle file may have: a 64x64 puzzle and a comment.
pub(crate) const MAX_LINE: usize = 64 * 1024;
/// The largest puzzle file read.
pub(crate) const MAX_FILE: u64 = 2 << 30;

/// Every puzzle line of a puzzle file with its 1-based line number: the
/// grid, or why the line is not a puzzle, so that a caller can report a
/// malformed line and go on. Comment and blank lines are left out. The
/// file as a whole is refused ([`BenchError::Io`],
/// [`BenchError::NotPuzzles`]) when it cannot be read, is not UTF-8 text,
/// has a line over 64 KiB or is over 2 GiB. The lines are all kept:
/// [`puzzle_lines`] hands them over one at a time.
///
/// ```
/// use xlsudoku::bench::read_puzzle_lines;
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("p.txt");
/// std::fs::write(&path, "# two 4x4 puzzles\r\n1.3..2.4....1..3\r\nnot a puzzle\r\n")?;
/// let lines = read_puzzle_lines(&path)?;
/// assert_eq!(lines.len(), 2);
/// assert_eq!(lines[0].0, 2);
/// assert!(lines[0].1.is_ok());
/// assert_eq!(lines[1].0, 3);
/// assert!(lines[1].1.is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_puzzle_lines(path: &Path) -> Result<Vec<PuzzleLine>, BenchError> {
    puzzle_lines(path)?.collect()
}

/// The puzzle lines of one file, in order ([`puzzle_lines`]).
pub struct PuzzleLines {
    /// The file as messages name it (`<stdin>` for `-`).
    path: PathBuf,
    /// The file, cut one byte past the largest size read.
    reader: BufReader<std::io::Take<Box<dyn Read + Send>>>,
    /// The line being read.
    buf: Vec<u8>,
    /// The 1-based number of the last line read.
    line_no: usize,
    /// Bytes read so far.
    total: u64,
    /// The end was reached, or the file refused.
    done: bool,
}

/// Opens a puzzle file (`-`: standard input) for reading line by line:
/// each item is a puzzle line with its 1-based number (the grid, or why
/// the line is not a puzzle; comment and blank lines are left out), or,
/// last, why the file as a whole is refused ([`BenchError::Io`],
/// [`BenchError::NotPuzzles`]: not UTF-8 text, a line over 64 KiB, over
/// 2 GiB).
///
/// ```
/// use xlsudoku::bench::puzzle_lines;
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("p.txt");
/// std::fs::write(&path, "# a 4x4 puzzle\n1.3..2.4....1..3\nnot a puzzle\n")?;
/// let lines: Vec<_> = puzzle_lines(&path)?.collect::<Result<_, _>>()?;
/// assert_eq!((lines[0].0, lines[1].0), (2, 3));
/// assert!(lines[0].1.is_ok() && lines[1].1.is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn puzzle_lines(path: &Path) -> Result<PuzzleLines, BenchError> {
    let (shown, source): (PathBuf, Box<dyn Read + Send>) = if path.as_os_str() == "-" {
        (PathBuf::from("<stdin>"), Box::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path).map_err(|source| BenchError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        (path.to_path_buf(), Box::new(file))
    };
    Ok(PuzzleLines {
        path: shown,
        reader: BufReader::with_capacity(1 << 16, source.take(MAX_FILE + 1)),
        buf: Vec::new(),
        line_no: 0,
        total: 0,
        done: false,
    })
}

impl PuzzleLines {
    /// The file as messages name it: as given, `<stdin>` for `-`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the next line into `buf`, ended by `\n`, `\r\n` or `\r`, at
    /// most [`MAX_LINE`] bytes (one more tells a longer line); false at the
    /// end of the file.
    fn read_line(&mut self) -> std::io::Result<bool> {
        self.buf.clear();
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                return Ok(!self.buf.is_empty());
            }
            match chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    let cr = chunk[i] == b'\r';
                    self.buf.extend_from_slice(&chunk[..i]);
                    self.reader.consume(i + 1);
                    self.total += i as u64 + 1;
                    if cr && self.reader.fill_buf()?.first() == Some(&b'\n') {
                        self.reader.consume(1);
                        self.total += 1;
                    }
                    return Ok(true);
                }
                None => {
                    let n = chunk.len();
                    self.buf.extend_from_slice(chunk);
                    self.reader.consume(n);
                    self.total += n as u64;
                }
            }
            if self.buf.len() > MAX_LINE {
                return Ok(true);
            }
        }
    }

    /// The next puzzle line, `None` for a comment or blank line, or why
    /// the file is refused.
    fn next_line(&mut self) -> Result<Option<PuzzleLine>, BenchError> {
        let bad = |line: usize, reason: String| BenchError::NotPuzzles {
            path: self.path.clone(),
            line,
            reason,
        };
        self.line_no += 1;
        let line_no = self.line_no;
        if self.buf.len() > MAX_LINE {
            return Err(bad(
                line_no,
                format!("a line over {MAX_LINE} bytes: not a puzzle file"),
            ));
        }
        if self.total > MAX_FILE {
            return Err(bad(
                line_no,
                format!("over {MAX_FILE} bytes: too large a puzzle file"),
            ));
        }
        let mut text = std::str::from_utf8(&self.buf)
            .map_err(|_| bad(line_no, "not UTF-8 text: not a puzzle file".to_string()))?;
        if line_no == 1 {
            text = text.strip_prefix('\u{feff}').unwrap_or(text);
        }
        Ok(match parse_puzzle_line(text) {
            Ok(None) => None,
            Ok(Some(grid)) => Some((line_no, Ok(grid))),
            Err(e) => Some((line_no, Err(e))),
        })
    }
}

impl Iterator for PuzzleLines {
    type Item = Result<PuzzleLine, BenchError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let line = match self.read_line() {
                Ok(true) => self.next_line(),
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Err(source) => Err(BenchError::Io {
                    path: self.path.clone(),
                    source,
                }),
            };
            match line {
                Ok(None) => {}
                Ok(Some(l)) => return Some(Ok(l)),
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_one_at_a_time_and_a_refusal_ends_them() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("p.txt");
        let four = "1.3..2.4....1..3";
        let long = "1".repeat(MAX_LINE + 10);
        std::fs::write(&path, format!("{four}\r\n\r{four}\n{long}\n{four}\n")).expect("write");
        let items: Vec<_> = puzzle_lines(&path).expect("open").collect();
        assert_eq!(
            items.len(),
            3,
            "two puzzles, then the refusal, then nothing"
        );
        assert!(matches!(items[0], Ok((1, Ok(_)))));
        assert!(matches!(items[1], Ok((3, Ok(_)))));
        assert!(matches!(
            items[2],
            Err(BenchError::NotPuzzles { line: 4, .. })
        ));
    }

    #[test]
    fn a_missing_file_is_refused_when_opened() {
        let err = puzzle_lines(Path::new("/nonexistent/p.txt")).err();
        assert!(matches!(err, Some(BenchError::Io { .. })), "{err:?}");
    }
}
