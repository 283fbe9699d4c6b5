//! `rate --se-only`: Sudoku Explainer's rating alone (ER, EP, ED) of a
//! 9x9 puzzle, as `serate` and skfr give it: the clashes, the exact
//! search proving one solution, then SE's own rules, without the HoDoKu
//! ladder (no level, score or history), about a third less work on hard
//! puzzles. Other sizes, where SE has no scale, are rated in full.

use std::time::{Duration, Instant};

use super::{rate_puzzle, RateRecord};
use crate::grid::Grid;
use crate::search::{search, SearchError, SearchOptions};
use crate::solve::Status;

/// Rates one puzzle on Sudoku Explainer's scale alone: a 9x9 with one
/// solution gets ER, EP and ED (`level`, `score` and `history` stay
/// empty); past `timeout` (search and rating together) its status is
/// `timeout`, never a partial rating. A grid of another size is rated
/// as [`rate_puzzle`] does.
///
/// ```
/// use xlsudoku::rate_lists::rate_puzzle_se;
/// use xlsudoku::solve::Status;
///
/// // SE 1.2.1 rates it 3.4/1.2/1.2 (benches/rating/se_reference/).
/// let puzzle = "...4..8......39...4.1.2.....3.97..18.....3..4.2....9..27.5......9....4..6..2....9"
///     .parse()?;
/// let r = rate_puzzle_se("p.txt", 1, &puzzle, None);
/// assert_eq!(r.status, Status::Solved);
/// assert_eq!((r.rating, r.ep, r.ed), (Some(3.4), Some(1.2), Some(1.2)));
/// assert_eq!((r.level, r.score, r.history.as_str()), (None, None, ""));
/// assert_eq!(r.to_human_line(), format!("p.txt:1 {} 3.4/1.2/1.2", puzzle.to_line()));
/// # Ok::<(), xlsudoku::grid::GridError>(())
/// ```
pub fn rate_puzzle_se(
    file: &str,
    line: usize,
    puzzle: &Grid,
    timeout: Option<Duration>,
) -> RateRecord {
    if puzzle.side() != 9 {
        return rate_puzzle(file, line, puzzle, timeout);
    }
    let started = Instant::now();
    let mut record = RateRecord {
        file: file.to_string(),
        line,
        puzzle: puzzle.to_line(),
        status: Status::Invalid,
        rating: None,
        rating_exact: None,
        ep: None,
        ed: None,
        level: None,
        score: None,
        history: String::new(),
        guesses: 0,
        elapsed_ms: 0.0,
        error: None,
    };
    let done = |mut r: RateRecord, status: Status| {
        r.status = status;
        r.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        r
    };
    let conflicts = puzzle.conflicts();
    if !conflicts.is_empty() {
        record.error = Some(super::clashes_in_words(&conflicts));
        return done(record, Status::Invalid);
    }
    let deadline = timeout.and_then(|t| started.checked_add(t));
    let found = match search(puzzle, &SearchOptions { limit: 2, deadline }) {
        Ok(found) => found,
        Err(SearchError::Timeout { .. }) => return done(record, Status::Timeout),
    };
    match found.solutions.len() {
        0 => return done(record, Status::Unsolvable),
        1 => {}
        _ => return done(record, Status::Multiple),
    }
    let mut cells = [0u8; 81];
    cells.copy_from_slice(puzzle.cells());
    let Ok(se) = crate::serate::rate_until(&cells, deadline) else {
        return done(record, Status::Timeout);
    };
    let tenth = crate::serate::to_tenth;
    record.rating = Some(tenth(se.er));
    record.rating_exact = Some(true);
    record.ep = Some(tenth(se.ep));
    record.ed = Some(tenth(se.ed));
    done(record, Status::Solved)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ER, EP and ED as the full rating gives them, without the ladder's
    /// parts, on puzzles from singles to chains.
    #[test]
    fn se_only_gives_the_full_ratings_se_part() {
        for p in [
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "...4..8......39...4.1.2.....3.97..18.....3..4.2....9..27.5......9....4..6..2....9",
        ] {
            let puzzle: Grid = p.parse().unwrap();
            let full = rate_puzzle("f", 1, &puzzle, None);
            let se = rate_puzzle_se("f", 1, &puzzle, None);
            assert_eq!(se.status, Status::Solved);
            assert_eq!(
                (se.rating, se.ep, se.ed),
                (full.rating, full.ep, full.ed),
                "{p}"
            );
            assert_eq!(se.rating_exact, Some(true));
            assert!(full.level.is_some() && se.level.is_none() && se.history.is_empty());
        }
    }

    /// A clash, two solutions and none are said as the full rating says
    /// them; a 4x4 grid is rated in full.
    #[test]
    fn se_only_reports_bad_puzzles_and_rates_other_sizes_in_full() {
        let clash: Grid = format!("11{}", ".".repeat(79)).parse().unwrap();
        let r = rate_puzzle_se("f", 1, &clash, None);
        assert_eq!(r.status, Status::Invalid);
        assert_eq!(r.error, rate_puzzle("f", 1, &clash, None).error);
        assert!(r.error.is_some());
        let open: Grid = ".".repeat(81).parse().unwrap();
        assert_eq!(rate_puzzle_se("f", 1, &open, None).status, Status::Multiple);
        let none: Grid = format!("12345678.{}9", ".".repeat(71)).parse().unwrap();
        assert_eq!(
            rate_puzzle_se("f", 1, &none, None).status,
            Status::Unsolvable
        );
        let four: Grid = "1.3..2.4....1..3".parse().unwrap();
        let r = rate_puzzle_se("f", 1, &four, None);
        assert_eq!(r.status, rate_puzzle("f", 1, &four, None).status);
    }

    /// A time limit already past is a timeout, never a partial rating.
    #[test]
    fn se_only_past_its_timeout_is_a_timeout() {
        let hard: Grid =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
                .parse()
                .unwrap();
        let r = rate_puzzle_se("f", 1, &hard, Some(Duration::ZERO));
        assert_eq!(r.status, Status::Timeout);
        assert_eq!(r.rating, None);
    }
}
