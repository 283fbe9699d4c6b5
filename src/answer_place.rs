//! Where the solution goes (`solve --answers`): into the grid itself (the
//! default), into a copy of the grid elsewhere on its sheet, or into a copy
//! on a new sheet of solutions, so that the puzzle stays as it was printed.
//!
//! ```
//! use xlsudoku::answer_place::Answers;
//!
//! assert_eq!("beside".parse::<Answers>()?, Answers::Beside);
//! assert_eq!("sheet".parse::<Answers>()?, Answers::Sheet);
//! let at: Answers = "at:M3".parse()?;
//! assert_eq!(at.to_string(), "at:M3");
//! assert!("at:nowhere".parse::<Answers>().is_err());
//! # Ok::<(), xlsudoku::answer_place::AnswersError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::address::CellRef;

/// Where the annotated copy writes a grid's solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Answers {
    /// Into the grid's own blank cells (`grid`).
    #[default]
    InGrid,
    /// Into a copy of the grid to its right, one empty column between, or
    /// below it (one row left for the note) when the right is not free
    /// (`beside`).
    Beside,
    /// Into a copy of the grid whose top-left corner is this cell
    /// (`at:M3`).
    At(CellRef),
    /// Into a copy of the grid on one new sheet per workbook (`Solutions`,
    /// or `Solutions 2` … when the name is taken) that holds every solved
    /// grid under a title naming its sheet and range (`sheet`).
    Sheet,
}

/// An `--answers` value that is none of `grid`, `beside`, `sheet`, `at:CELL`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an answers mode: grid, beside, sheet, or at:CELL such as at:M3")]
pub struct AnswersError(pub String);

impl FromStr for Answers {
    type Err = AnswersError;

    fn from_str(s: &str) -> Result<Self, AnswersError> {
        let bad = || AnswersError(s.to_string());
        let t = s.trim();
        if t.eq_ignore_ascii_case("grid") {
            return Ok(Answers::InGrid);
        }
        if t.eq_ignore_ascii_case("beside") {
            return Ok(Answers::Beside);
        }
        if t.eq_ignore_ascii_case("sheet") {
            return Ok(Answers::Sheet);
        }
        let cell = t
            .get(..3)
            .filter(|p| p.eq_ignore_ascii_case("at:"))
            .and_then(|_| t.get(3..))
            .ok_or_else(bad)?;
        cell.trim()
            .parse::<CellRef>()
            .map(Answers::At)
            .map_err(|_| bad())
    }
}

impl fmt::Display for Answers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answers::InGrid => f.write_str("grid"),
            Answers::Beside => f.write_str("beside"),
            Answers::Sheet => f.write_str("sheet"),
            Answers::At(c) => write!(f, "at:{c}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_print_back() {
        for s in ["grid", "beside", "sheet", "at:M3", "at:XFD1"] {
            assert_eq!(s.parse::<Answers>().unwrap().to_string(), s);
        }
        assert_eq!("Sheet".parse::<Answers>().unwrap(), Answers::Sheet);
        assert_eq!("AT:b2".parse::<Answers>().unwrap().to_string(), "at:B2");
        for bad in ["", "at:", "at:3M", "sideways", "at:M3:N4", "é"] {
            assert!(bad.parse::<Answers>().is_err(), "{bad}");
        }
    }
}
