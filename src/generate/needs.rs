//! Puzzles for practising a technique: `generate --needs x-wing` keeps only
//! puzzles whose solving path uses an X-wing, and `--max-technique` keeps
//! only those whose path uses nothing the ladder tries after a technique.
//!
//! The solving path is the ladder's run (every technique, or those up to
//! `--max-technique`), simplest technique first, as `explain` shows it.
//!
//! ```
//! use xlsudoku::generate::Needs;
//! use xlsudoku::logic::Technique;
//!
//! let n: Needs = "x-wing,xy-wing".parse()?;
//! assert!(n.met_by(&[Technique::XWing, Technique::XyWing, Technique::HiddenSingle]));
//! assert!(!n.met_by(&[Technique::XWing]));
//! assert_eq!(n.to_string(), "X-wing and XY-wing");
//! assert_eq!(n.as_flag(), "x-wing,xy-wing");
//! let any = n.any();
//! assert!(any.met_by(&[Technique::XWing]));
//! # Ok::<(), xlsudoku::logic::UnknownTechnique>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::logic::{Ladder, Technique, UnknownTechnique};

/// Techniques a puzzle's solving path must use: every one named (or, with
/// [`Needs::any`], at least one). A name that stands for several
/// techniques (the letter `u`: the unique rectangles) is met by any of
/// them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Needs {
    /// Each word given, the technique it names in words, and the
    /// techniques it stands for.
    groups: Vec<(String, String, Ladder)>,
    any: bool,
}

impl Needs {
    /// The same techniques, met when any one of them is used.
    pub fn any(mut self) -> Needs {
        self.any = true;
        self
    }

    /// Whether a path using these techniques meets the needs.
    pub fn met_by(&self, used: &[Technique]) -> bool {
        let met = |(_, _, group): &(String, String, Ladder)| {
            used.iter()
                .any(|&t| t != Technique::NakedSingle && group.contains(t))
        };
        if self.any {
            self.groups.iter().any(met)
        } else {
            self.groups.iter().all(met)
        }
    }
}

impl Needs {
    /// The words as `--needs` reads them back: `x-wing,xy-wing`.
    pub fn as_flag(&self) -> String {
        let words: Vec<&str> = self.groups.iter().map(|(w, _, _)| w.as_str()).collect();
        words.join(",")
    }
}

impl FromStr for Needs {
    type Err = UnknownTechnique;
    fn from_str(s: &str) -> Result<Needs, UnknownTechnique> {
        let mut groups = Vec::new();
        for word in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let ladder: Ladder = word.parse()?;
            let named: Vec<Technique> = ladder
                .techniques()
                .filter(|&t| t != Technique::NakedSingle)
                .collect();
            let name = match named.as_slice() {
                [one] => one.info().name.to_string(),
                _ => word.to_string(),
            };
            groups.push((word.to_string(), name, ladder));
        }
        if groups.is_empty() {
            return Err(UnknownTechnique(s.to_string()));
        }
        Ok(Needs { groups, any: false })
    }
}

impl fmt::Display for Needs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.groups.iter().map(|(_, n, _)| n.as_str()).collect();
        let join = if self.any { " or " } else { " and " };
        f.write_str(&names.join(join))
    }
}

/// The ladder of `--max-technique`: every technique tried up to `last`,
/// in the ladder's order (HoDoKu's, simplest first).
pub fn ladder_up_to(last: Technique) -> Ladder {
    let all = Ladder::all();
    let mut upto = Vec::new();
    for t in all.techniques() {
        upto.push(t);
        if t == last {
            break;
        }
    }
    Ladder::of(&upto)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_for_a_family_is_met_by_any_member() {
        let n: Needs = "u".parse().expect("needs");
        assert!(n.met_by(&[Technique::UniqueRectangle2]));
        assert!(!n.met_by(&[Technique::NakedSingle, Technique::XWing]));
        assert_eq!(n.to_string(), "u");
        assert!("x-wong".parse::<Needs>().is_err());
        assert!(",".parse::<Needs>().is_err());
    }

    #[test]
    fn the_ladder_up_to_a_technique_stops_there() {
        let l = ladder_up_to(Technique::XWing);
        assert!(l.contains(Technique::HiddenSingle) && l.contains(Technique::XWing));
        assert!(!l.contains(Technique::Swordfish) && !l.contains(Technique::ForcingNet));
    }
}
