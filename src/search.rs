//! Interim exact search (replaced by the engine on the `search` branch).

use crate::grid::Grid;
use std::time::Instant;

/// Search limits.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    /// Stop after this many solutions.
    pub limit: usize,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limit: 2,
            deadline: None,
        }
    }
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// Solutions found, at most `limit`.
    pub solutions: Vec<Grid>,
    /// Guesses made.
    pub guesses: u64,
}

/// A search that did not finish.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The deadline passed.
    #[error("timed out after {guesses} guesses")]
    Timeout {
        /// Guesses made by then.
        guesses: u64,
    },
}

struct S<'a> {
    n: usize,
    g: Grid,
    rows: Vec<u64>,
    cols: Vec<u64>,
    boxes: Vec<u64>,
    opts: &'a SearchOptions,
    out: Vec<Grid>,
    guesses: u64,
}

impl S<'_> {
    fn free(&self, i: usize) -> u64 {
        let (r, c) = (i / self.n, i % self.n);
        let used = self.rows[r] | self.cols[c] | self.boxes[self.g.box_of(r, c)];
        let all = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        !used & all
    }
    fn flip(&mut self, i: usize, d: u8) {
        let (r, c) = (i / self.n, i % self.n);
        let b = self.g.box_of(r, c);
        let m = 1u64 << (d - 1);
        self.rows[r] ^= m;
        self.cols[c] ^= m;
        self.boxes[b] ^= m;
    }
    fn rec(&mut self) -> Result<bool, SearchError> {
        let blanks = (0..self.n * self.n).filter(|&i| self.g.cells()[i] == 0);
        let Some(i) = blanks.min_by_key(|&i| self.free(i).count_ones()) else {
            self.out.push(self.g.clone());
            return Ok(self.out.len() >= self.opts.limit);
        };
        let mut m = self.free(i);
        if m.count_ones() > 1 {
            self.guesses += 1;
            if self.guesses % 1024 == 0 && self.opts.deadline.is_some_and(|d| Instant::now() > d) {
                return Err(SearchError::Timeout {
                    guesses: self.guesses,
                });
            }
        }
        while m != 0 {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            self.flip(i, d);
            self.g.set(i / self.n, i % self.n, d);
            if self.rec()? {
                return Ok(true);
            }
            self.g.set(i / self.n, i % self.n, 0);
            self.flip(i, d);
        }
        Ok(false)
    }
}

/// Finds up to `opts.limit` solutions of `puzzle`.
pub fn search(puzzle: &Grid, opts: &SearchOptions) -> Result<SearchOutcome, SearchError> {
    let n = puzzle.side();
    let mut s = S {
        n,
        g: puzzle.clone(),
        rows: vec![0; n],
        cols: vec![0; n],
        boxes: vec![0; n],
        opts,
        out: Vec::new(),
        guesses: 0,
    };
    if !puzzle.conflicts().is_empty() {
        return Ok(SearchOutcome {
            solutions: vec![],
            guesses: 0,
        });
    }
    for i in 0..n * n {
        let d = puzzle.cells()[i];
        if d != 0 {
            s.flip(i, d);
        }
    }
    s.rec()?;
    Ok(SearchOutcome {
        solutions: s.out,
        guesses: s.guesses,
    })
}
