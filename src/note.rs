//! The note written under a grid in the annotated copy, in words that a
//! person who has never read the manual can follow: what happened, how
//! long it took, how hard the puzzle is, and the seed's history string
//! labelled as the steps taken, with where its letters are explained.
//!
//! ```
//! use std::time::Duration;
//! use xlsudoku::note::Note;
//! use xlsudoku::solve::Status;
//!
//! let note = Note {
//!     status: Status::Solved,
//!     elapsed: Duration::from_micros(760),
//!     history: "ii!*",
//!     rating: None,
//!     error: None,
//! };
//! assert_eq!(
//!     note.text(),
//!     "solved in 0.76 ms · steps: ii!* (letters: xlsudoku techniques)"
//! );
//! ```

use std::time::Duration;

use crate::logic::rating::{se_text, Rating};
use crate::solve::{format_elapsed, Status};

/// Where the note sends a reader for the meaning of the history's letters.
pub const LETTERS_KEY: &str = "(letters: xlsudoku techniques)";

/// The word a hint's note starts with (`hint: …`): `xlsudoku hint` writes
/// it, and a later run reads such a note as the tool's own.
pub const HINT_WORD: &str = "hint";

/// The most characters of history a note holds: a spreadsheet cell holds
/// at most 32,767, and the note's other parts need room too. Longer
/// histories are cut and the note says how many steps it left out.
pub const MAX_HISTORY: usize = 30_000;

/// What one grid's note says.
#[derive(Debug, Clone, Copy)]
pub struct Note<'a> {
    /// How the grid ended.
    pub status: Status,
    /// The time taken.
    pub elapsed: Duration,
    /// The history string: one letter per deduction.
    pub history: &'a str,
    /// The puzzle's difficulty, shown for a solved grid.
    pub rating: Option<Rating>,
    /// Why the grid was not solved, with the sheet's cell addresses.
    pub error: Option<&'a str>,
}

impl Note<'_> {
    /// The note's text: `solved in 0.76 ms · difficulty SE 7.0 (extreme) ·
    /// steps: ii!!*!^ (letters: xlsudoku techniques)`, `gave up after 3.00
    /// ms · steps: i!`…, or for an error `invalid: 5 twice in row 3 (C3,
    /// I3) (0.01 ms)`. The time always stands after `in`, `after` or in
    /// brackets, never next to the history.
    pub fn text(&self) -> String {
        let time = format_elapsed(self.elapsed);
        let word = self.status.note_word();
        if let Some(e) = self.error {
            return format!("{word}: {e} ({time})");
        }
        let mut note = match self.status {
            Status::GaveUp => format!("{word} after {time}"),
            _ => format!("{word} in {time}"),
        };
        if let Some(r) = self.rating.filter(|_| self.status == Status::Solved) {
            note.push_str(&format!(
                " · difficulty SE {} ({})",
                se_text(r.se, r.se_exact),
                r.level
            ));
        }
        if !self.history.is_empty() {
            note.push_str(&format!(" · steps: {} {LETTERS_KEY}", cut(self.history)));
        }
        note
    }
}

/// The history as the note holds it: whole up to [`MAX_HISTORY`]
/// characters, else its start and how many steps are left out.
fn cut(history: &str) -> String {
    let total = history.chars().count();
    if total <= MAX_HISTORY {
        return history.to_string();
    }
    let head: String = history.chars().take(MAX_HISTORY).collect();
    format!("{head}… and {} more", total - MAX_HISTORY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Level;

    fn rating(se: f32, exact: bool) -> Rating {
        Rating {
            se,
            ep: se,
            ed: se,
            level: Level::Extreme,
            score: 1,
            complete: true,
            se_exact: exact,
        }
    }

    fn note(status: Status, history: &str) -> Note<'_> {
        Note {
            status,
            elapsed: Duration::from_micros(760),
            history,
            rating: None,
            error: None,
        }
    }

    #[test]
    fn the_time_never_touches_the_history() {
        let text = Note {
            rating: Some(rating(7.0, true)),
            ..note(Status::Solved, "ii!!*!^")
        }
        .text();
        assert_eq!(
            text,
            "solved in 0.76 ms · difficulty SE 7.0 (extreme) · steps: ii!!*!^ (letters: xlsudoku techniques)"
        );
        assert!(!text.contains("-0.76"));
    }

    #[test]
    fn a_lower_bound_rating_says_at_least() {
        let text = Note {
            rating: Some(rating(9.5, false)),
            ..note(Status::Solved, "")
        }
        .text();
        assert_eq!(text, "solved in 0.76 ms · difficulty SE ≥ 9.5 (extreme)");
    }

    #[test]
    fn giving_up_says_after_and_shows_the_steps() {
        assert_eq!(
            note(Status::GaveUp, "i!").text(),
            "gave up after 0.76 ms · steps: i! (letters: xlsudoku techniques)"
        );
    }

    #[test]
    fn an_error_names_its_reason_then_the_time() {
        let text = Note {
            error: Some("5 twice in row 3 (C3, I3)"),
            ..note(Status::Invalid, "")
        }
        .text();
        assert_eq!(text, "invalid: 5 twice in row 3 (C3, I3) (0.76 ms)");
    }

    #[test]
    fn a_history_too_long_for_a_cell_is_cut_and_says_so() {
        let long = "i".repeat(MAX_HISTORY + 5);
        let text = note(Status::Solved, &long).text();
        assert!(text.ends_with("… and 5 more (letters: xlsudoku techniques)"));
        assert!(text.chars().count() < 32_767);
        let exact = "i".repeat(MAX_HISTORY);
        assert!(!note(Status::Solved, &exact).text().contains('…'));
    }
}
