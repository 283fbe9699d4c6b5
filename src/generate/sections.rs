//! A book in sections: `--level easy:5,medium:5,hard:10` makes five easy
//! puzzles, then five medium ones, then ten hard ones, numbered through
//! the book.
//!
//! ```
//! use xlsudoku::generate::Levels;
//! use xlsudoku::logic::Level;
//!
//! let l: Levels = "easy:5,medium..hard:10".parse()?;
//! let s = l.sections(1);
//! assert_eq!((s.len(), s[1].count), (2, 10));
//! assert_eq!(s[1].level.max, Some(Level::Hard));
//! let one: Levels = "hard..".parse()?;
//! assert_eq!(one.sections(7)[0].count, 7);
//! # Ok::<(), String>(())
//! ```

use std::fmt;
use std::str::FromStr;

use super::Span;
use crate::logic::Level;

/// One section of a book: how many puzzles, of which levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    /// The levels its puzzles are in.
    pub level: Span<Level>,
    /// How many puzzles.
    pub count: usize,
}

/// `generate --level`: one range of levels for the whole set, or sections
/// each with its count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Levels {
    /// Every puzzle in this range.
    All(Span<Level>),
    /// Sections in order, each `LEVEL:COUNT`.
    Sections(Vec<Section>),
}

impl Levels {
    /// The sections to make: those given, or one of `count` puzzles.
    pub fn sections(&self, count: usize) -> Vec<Section> {
        match self {
            Levels::All(level) => vec![Section {
                level: *level,
                count,
            }],
            Levels::Sections(s) => s.clone(),
        }
    }

    /// How many puzzles the sections make, if the levels have sections.
    pub fn total(&self) -> Option<usize> {
        match self {
            Levels::All(_) => None,
            Levels::Sections(s) => Some(s.iter().map(|s| s.count).sum()),
        }
    }
}

impl FromStr for Levels {
    type Err = String;
    fn from_str(s: &str) -> Result<Levels, String> {
        if !s.contains(':') && !s.contains(',') {
            return s.parse().map(Levels::All);
        }
        let mut sections = Vec::new();
        for part in s.split(',') {
            let Some((level, count)) = part.split_once(':') else {
                return Err(format!(
                    "'{part}': a section is LEVEL:COUNT, as in easy:5,medium:5,hard:10"
                ));
            };
            let count: usize = count
                .trim()
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("'{part}': the count must be a whole number from 1"))?;
            sections.push(Section {
                level: level.parse()?,
                count,
            });
        }
        Ok(Levels::Sections(sections))
    }
}

impl fmt::Display for Levels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Levels::All(l) => f.write_str(&level_text(l)),
            Levels::Sections(s) => {
                let parts: Vec<String> = s
                    .iter()
                    .map(|s| format!("{}:{}", level_text(&s.level), s.count))
                    .collect();
                f.write_str(&parts.join(","))
            }
        }
    }
}

/// A level range as `--level` reads it back: `hard`, `easy..medium`.
fn level_text(l: &Span<Level>) -> String {
    match (l.min, l.max) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        _ => l.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_read_back_as_written() {
        for text in [
            "hard",
            "easy..medium",
            "easy:5,medium:5,hard:10",
            "hard..:3",
        ] {
            let l: Levels = text.parse().expect(text);
            assert_eq!(l.to_string(), text);
        }
        assert_eq!(
            "easy:5,hard:10".parse::<Levels>().map(|l| l.total()),
            Ok(Some(15))
        );
    }

    #[test]
    fn bad_sections_are_named() {
        for (text, says) in [
            ("easy:5,hard", "'hard'"),
            ("easy:0", "from 1"),
            ("easy:x", "'easy:x'"),
            ("eazy:5", "eazy"),
        ] {
            let e = text.parse::<Levels>().unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
