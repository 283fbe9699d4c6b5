//! The title printed above each puzzle of a book, from a template:
//! `Week 47 · {n} · {level}`.
//!
//! ```
//! use xlsudoku::generate::book::Title;
//!
//! let t: Title = "Week 47 · {n} · {level}".parse()?;
//! assert_eq!(t.render(&[("n", "3"), ("level", "hard")]), "Week 47 · 3 · hard");
//! assert!("{colour}".parse::<Title>().is_err());
//! # Ok::<(), String>(())
//! ```

use std::fmt;
use std::str::FromStr;

/// The fields a title may name, with what each holds.
pub const FIELDS: [(&str, &str); 6] = [
    ("n", "the puzzle's number in the book"),
    ("level", "its HoDoKu level"),
    ("rating", "its Sudoku Explainer rating"),
    ("givens", "how many givens it has"),
    ("size", "its size, e.g. 9x9"),
    ("needs", "the techniques `--needs` asked for"),
];

/// The title every puzzle gets unless asked otherwise.
pub const DEFAULT_TITLE: &str = "Puzzle {n}: {level}, SE {rating}, {givens} givens";

/// The title of a puzzle made to need a technique, unless asked otherwise.
pub const NEEDS_TITLE: &str = "Puzzle {n}: {needs} · {level}, SE {rating}";

/// A title template: text with `{field}`s ([`FIELDS`]); `{{` and `}}`
/// write a brace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Title {
    text: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Field(&'static str),
}

impl Default for Title {
    fn default() -> Title {
        DEFAULT_TITLE.parse().unwrap_or(Title {
            text: String::new(),
            parts: Vec::new(),
        })
    }
}

impl FromStr for Title {
    type Err = String;
    fn from_str(s: &str) -> Result<Title, String> {
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    text.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    text.push('}');
                }
                '{' => {
                    let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                    let Some((field, _)) = FIELDS.iter().find(|(f, _)| *f == name) else {
                        return Err(format!(
                            "'{{{name}}}' is no field of a title; the fields are {}",
                            field_list()
                        ));
                    };
                    if !text.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut text)));
                    }
                    parts.push(Part::Field(field));
                }
                '}' => return Err(format!("'{s}': a lone '}}' (write '}}}}' for a brace)")),
                c => text.push(c),
            }
        }
        if !text.is_empty() {
            parts.push(Part::Text(text));
        }
        Ok(Title {
            text: s.to_string(),
            parts,
        })
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Title {
    /// The title with each field replaced by its value from `values`
    /// (a field without one is left empty).
    pub fn render<S: AsRef<str>>(&self, values: &[(&str, S)]) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Field(name) => {
                    if let Some((_, v)) = values.iter().find(|(k, _)| k == name) {
                        out.push_str(v.as_ref());
                    }
                }
            }
        }
        out
    }
}

/// `{n}, {level}, …`: the fields, as a message lists them.
pub fn field_list() -> String {
    FIELDS
        .iter()
        .map(|(f, _)| format!("{{{f}}}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_escape_and_fields_fill() {
        let t: Title = "{{n}} = {n}".parse().expect("title");
        assert_eq!(t.render(&[("n", "7")]), "{n} = 7");
        assert_eq!(t.to_string(), "{{n}} = {n}");
    }

    #[test]
    fn unknown_fields_and_lone_braces_are_refused_with_the_list() {
        let e = "{lvl}".parse::<Title>().unwrap_err();
        assert!(e.contains("{lvl}") && e.contains("{level}"), "{e}");
        assert!("a } b".parse::<Title>().is_err());
    }

    #[test]
    fn the_default_title_is_the_one_books_always_had() {
        let t = Title::default();
        let values = [
            ("n", "1"),
            ("level", "easy"),
            ("rating", "1.2"),
            ("givens", "30"),
        ];
        assert_eq!(t.render(&values), "Puzzle 1: easy, SE 1.2, 30 givens");
    }
}
