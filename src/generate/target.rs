//! Which puzzles a set keeps: the HoDoKu level and Sudoku Explainer rating
//! (the same [`Limits`] `check --min-level/--max-level/--min-rating/
//! --max-rating` applies, so a generated set passes that check), the number
//! of givens, and the techniques that must finish the puzzle.
//!
//! ```
//! use xlsudoku::generate::{Span, Target};
//! use xlsudoku::grid::Grid;
//! use xlsudoku::logic::{Ladder, Level};
//!
//! let mut target = Target::default();
//! target.limits.max_level = Some(Level::Easy);
//! target.ladder = Some(Ladder::seed());
//! target.givens = "20..40".parse::<Span<usize>>()?;
//! let easy: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! assert!(target.accepts(&easy).is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use super::Needs;
use super::{GenerateError, Symmetry};
use crate::grid::{BoxShape, Grid};
use crate::logic::{
    rate_unique_until, Budget, Ladder, Level, Limits, Rating, Solver, Stop, Technique,
};

/// An inclusive range with either end open: `MIN..MAX`, `MIN..`, `..MAX`,
/// or one value `N` for `N..N`.
///
/// ```
/// use xlsudoku::generate::Span;
/// let s: Span<f32> = "3.0..4.5".parse()?;
/// assert_eq!((s.min, s.max), (Some(3.0), Some(4.5)));
/// let g: Span<usize> = "25".parse()?;
/// assert_eq!((g.min, g.max), (Some(25), Some(25)));
/// assert_eq!("..30".parse::<Span<usize>>()?.min, None);
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span<T> {
    /// The least value allowed, if any.
    pub min: Option<T>,
    /// The greatest value allowed, if any.
    pub max: Option<T>,
}

impl<T: FromStr + PartialOrd + Copy + fmt::Display> FromStr for Span<T>
where
    T::Err: fmt::Display,
{
    type Err = String;

    fn from_str(s: &str) -> Result<Span<T>, String> {
        let one = |t: &str| -> Result<Option<T>, String> {
            let t = t.trim();
            if t.is_empty() {
                return Ok(None);
            }
            t.parse::<T>().map(Some).map_err(|e| {
                // A level's error names the value and the choices; a
                // number's says only what is wrong with it.
                let e = e.to_string();
                if e.contains(t) {
                    e
                } else {
                    format!("{t:?}: {e}")
                }
            })
        };
        let span = match s.split_once("..") {
            Some((lo, hi)) => Span {
                min: one(lo)?,
                max: one(hi)?,
            },
            None => {
                let v = one(s)?.ok_or_else(|| "empty range: use MIN..MAX".to_string())?;
                Span {
                    min: Some(v),
                    max: Some(v),
                }
            }
        };
        if let (Some(lo), Some(hi)) = (span.min, span.max) {
            if lo > hi {
                return Err(format!("{lo}..{hi}: the lower end is above the upper"));
            }
        }
        Ok(span)
    }
}

impl<T: fmt::Display> fmt::Display for Span<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(lo) = &self.min {
            write!(f, "{lo}")?;
        }
        f.write_str("..")?;
        if let Some(hi) = &self.max {
            write!(f, "{hi}")?;
        }
        Ok(())
    }
}

/// How hard a puzzle is, compared as a whole ([`Target::judge`]).
pub type Hardness = [u32; 3];

/// What a [`Target`] makes of a puzzle.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Inside the target: keep it, with its rating.
    Keep(Rating),
    /// Below the target's lower bound, this hard.
    TooEasy(Hardness),
    /// Out for another reason: too hard, too many or too few givens, or
    /// not finished by the techniques asked for.
    Out,
}

/// What a puzzle must be for a set to keep it. The default keeps every
/// unique puzzle.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Target {
    /// Level and rating bounds, as `check` applies them.
    pub limits: Limits,
    /// How many givens (digging stops at the lower end; a puzzle whose
    /// minimal form keeps more than the upper end is dropped).
    pub givens: Span<usize>,
    /// Techniques that must finish the puzzle without a guess (`None`: any
    /// puzzle, even one the ladder cannot finish).
    pub ladder: Option<Ladder>,
    /// Techniques the solving path (the run of [`Target::ladder`], or of
    /// every technique) must use.
    pub needs: Option<Needs>,
}

impl Target {
    /// The puzzle's rating when it meets the target (the puzzle must have
    /// exactly one solution: the rating assumes it).
    pub fn accepts(&self, puzzle: &Grid) -> Option<Rating> {
        match self.judge(puzzle) {
            Verdict::Keep(r) => Some(r),
            _ => None,
        }
    }

    /// Whether a puzzle below the target is worth climbing from: the
    /// target has a lower bound on the level or the rating.
    pub fn wants_harder(&self) -> bool {
        self.limits.min_level.is_some_and(|l| l > Level::Easy) || self.limits.min_rating.is_some()
    }

    /// What the target makes of a unique puzzle: kept, too easy (with how
    /// hard it is, for the climb towards the target), or out (too hard,
    /// too many givens, not finished by the techniques asked for).
    pub fn judge(&self, puzzle: &Grid) -> Verdict {
        let givens = puzzle.givens();
        if self.givens.max.is_some_and(|m| givens > m)
            || self.givens.min.is_some_and(|m| givens < m)
        {
            return Verdict::Out;
        }
        // The path first: it costs a fraction of the rating, and most
        // puzzles miss a technique asked for.
        if let Some(needs) = &self.needs {
            let ladder = self.ladder.clone().unwrap_or_else(Ladder::all);
            let Some(mut path) = Solver::with_ladder(puzzle, ladder) else {
                return Verdict::Out;
            };
            path.assume_unique();
            let stop = path.run(None);
            let used: Vec<Technique> = path.steps().iter().map(|s| s.technique).collect();
            if !needs.met_by(&used) || (self.ladder.is_some() && stop != Stop::Solved) {
                return Verdict::Out;
            }
        }
        // No time budget: a set must be the same on every machine, so a
        // verdict may not depend on how fast this one rates. Dug puzzles
        // rate in milliseconds; SE's slow nested chains are for the
        // hardest known, which digging does not meet.
        let Some(rating) = rate_unique_until(puzzle, Budget::default()) else {
            return Verdict::Out;
        };
        match self.limits.check(&rating) {
            Ok(()) => {}
            Err((false, _)) => return Verdict::TooEasy(self.hardness(&rating)),
            Err((true, _)) => return Verdict::Out,
        }
        if let Some(ladder) = &self.ladder {
            // The whole ladder finishes it iff the rating is complete.
            let finished = if *ladder == Ladder::all() {
                rating.complete
            } else {
                Solver::with_ladder(puzzle, ladder.clone())
                    .is_some_and(|mut b| b.run(None) == Stop::Solved)
            };
            if !finished {
                return Verdict::Out;
            }
        }
        Verdict::Keep(rating)
    }

    /// How hard a rating is, in the order the target's lower bound asks
    /// for: the SE rating first when `--rating` has a lower end, else the
    /// HoDoKu level, then the score (which raises the level past each
    /// ceiling).
    fn hardness(&self, r: &Rating) -> Hardness {
        let level = Level::ALL.iter().position(|&l| l == r.level).unwrap_or(0) as u32;
        let se = (r.se * 10.0).round() as u32;
        if self.limits.min_rating.is_some() {
            [se, level, r.score]
        } else {
            [level, r.score, se]
        }
    }

    /// The target in words, for messages: `hard 9x9 (3x3 boxes), SE
    /// 3.0..4.0, givens ..26, techniques seed, rotational symmetry`.
    pub fn describe(&self, shape: BoxShape, symmetry: Symmetry) -> String {
        let l = &self.limits;
        let side = shape.side();
        let mut words = Vec::new();
        match (l.min_level, l.max_level) {
            (Some(a), Some(b)) if a == b => words.push(a.to_string()),
            (None, None) => {}
            (a, b) => words.push(format!(
                "level {}..{}",
                a.map(|x| x.to_string()).unwrap_or_default(),
                b.map(|x| x.to_string()).unwrap_or_default()
            )),
        }
        words.push(format!("{side}x{side} ({shape} boxes)"));
        let mut parts = vec![words.join(" ")];
        if l.min_rating.is_some() || l.max_rating.is_some() {
            let r = Span {
                min: l.min_rating,
                max: l.max_rating,
            };
            parts.push(format!("SE {r}"));
        }
        if self.givens != Span::default() {
            parts.push(format!("givens {}", self.givens));
        }
        if let Some(ladder) = &self.ladder {
            parts.push(format!("techniques {ladder}"));
        }
        if let Some(needs) = &self.needs {
            parts.push(format!("needing {needs}"));
        }
        if symmetry != Symmetry::None {
            parts.push(format!("{symmetry} symmetry"));
        }
        parts.join(", ")
    }

    /// Refuses, before any attempt, what no puzzle can meet: a level
    /// range or rating range upside down, the extreme level (where the
    /// ladder stops short) with techniques that must finish the puzzle,
    /// fewer givens than a unique puzzle of the size can have (17 at 9x9,
    /// proven by McGuire et al.; `side - 1` digits must appear in any
    /// size), more givens than cells, and a symmetric pattern whose
    /// orbits cannot add up to the givens range.
    pub fn check_reachable(
        &self,
        shape: BoxShape,
        symmetry: Symmetry,
    ) -> Result<(), GenerateError> {
        let l = &self.limits;
        let no = |why: String| Err(GenerateError::Impossible(why));
        if let (Some(a), Some(b)) = (l.min_level, l.max_level) {
            if a > b {
                return no(format!(
                    "level {a}..{b}: the lower level is above the upper"
                ));
            }
        }
        let side = shape.side();
        if l.min_rating.is_some() || l.max_rating.is_some() {
            let asked = Span {
                min: l.min_rating,
                max: l.max_rating,
            };
            let (lo, hi) = crate::logic::rating::se_reach(side);
            let reach = format!("a {side}x{side} puzzle rates {lo:.1} to {hi:.1} on the SE scale");
            if l.min_rating
                .into_iter()
                .chain(l.max_rating)
                .any(|r| !r.is_finite())
            {
                return no(format!("SE {asked}: not a rating; {reach}"));
            }
            if let (Some(a), Some(b)) = (l.min_rating, l.max_rating) {
                if a > b + 1e-4 {
                    return no(format!("SE {a}..{b}: the lower rating is above the upper"));
                }
            }
            if l.min_rating.is_some_and(|a| a > hi + 1e-4)
                || l.max_rating.is_some_and(|b| b + 1e-4 < lo)
            {
                return no(format!("SE {asked}: out of reach; {reach}"));
            }
        }
        if self.ladder.is_some() && l.min_level == Some(Level::Extreme) {
            return no(
                "level extreme means the techniques stop short, so no puzzle the --techniques finish is extreme"
                    .to_string(),
            );
        }
        let cells = side * side;
        let least = if side == 9 {
            17
        } else {
            side.saturating_sub(1)
        };
        if let Some(max) = self.givens.max {
            if max < least {
                return no(format!(
                    "givens {}: a {side}x{side} puzzle with one solution has at least {least} givens",
                    self.givens
                ));
            }
        }
        if let Some(min) = self.givens.min {
            if min > cells {
                return no(format!(
                    "givens {}: a {side}x{side} grid has {cells} cells",
                    self.givens
                ));
            }
        }
        if symmetry != Symmetry::None {
            // Orbits are pairs and single cells on the axis: the counts
            // reachable are `singles + 2k`, and any count when there are
            // single cells to spare.
            let singles = (0..cells)
                .filter(|&c| symmetry.partner(c, side) == c)
                .count();
            if singles == 0 {
                if let (Some(lo), Some(hi)) = (self.givens.min, self.givens.max) {
                    if lo == hi && lo % 2 == 1 {
                        return no(format!(
                            "givens {lo}: with {symmetry} symmetry a {side}x{side} puzzle has an even number of givens"
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    fn nine() -> BoxShape {
        BoxShape::new(3, 3).expect("shape")
    }

    #[test]
    fn spans_parse_both_ends_open_ends_and_one_value() {
        let s: Span<usize> = "20..30".parse().expect("span");
        assert_eq!((s.min, s.max), (Some(20), Some(30)));
        assert_eq!("20..".parse::<Span<usize>>().expect("span").max, None);
        assert_eq!(s.to_string(), "20..30");
        assert!("30..20".parse::<Span<usize>>().is_err());
        assert!("x..3".parse::<Span<usize>>().is_err());
        assert!("".parse::<Span<usize>>().is_err());
    }

    #[test]
    fn targets_keep_what_they_say() {
        let easy: Grid = EASY.parse().expect("puzzle");
        assert!(Target::default().accepts(&easy).is_some());
        let mut hard = Target::default();
        hard.limits.min_level = Some(Level::Hard);
        assert!(hard.accepts(&easy).is_none());
        let mut few = Target::default();
        few.givens.max = Some(easy.givens() - 1);
        assert!(few.accepts(&easy).is_none());
        let mut seed = Target::default();
        seed.ladder = Some(Ladder::seed());
        assert!(seed.accepts(&easy).is_some());
    }

    #[test]
    fn impossible_requests_are_refused_up_front() {
        let refused = |t: &Target, s: Symmetry| t.check_reachable(nine(), s).is_err();
        let mut t = Target::default();
        assert!(!refused(&t, Symmetry::None));
        t.givens = "5..6".parse().expect("span");
        assert!(refused(&t, Symmetry::None));
        t.givens = "100..".parse().expect("span");
        assert!(refused(&t, Symmetry::None));
        let mut t = Target::default();
        t.limits.min_level = Some(Level::Extreme);
        t.ladder = Some(Ladder::all());
        assert!(refused(&t, Symmetry::None));
        let mut t = Target::default();
        t.limits.min_level = Some(Level::Hard);
        t.limits.max_level = Some(Level::Easy);
        assert!(refused(&t, Symmetry::None));
        let mut t = Target {
            givens: "25".parse().expect("span"),
            ..Target::default()
        };
        // 9x9 has a centre cell and diagonal cells: odd counts are fine.
        assert!(!refused(&t, Symmetry::Rotational));
        let four = BoxShape::new(2, 2).expect("shape");
        t.givens = "7".parse().expect("span");
        assert!(t.check_reachable(four, Symmetry::Rotational).is_err());
        assert!(t.check_reachable(four, Symmetry::Diagonal).is_ok());
    }

    #[test]
    fn descriptions_name_every_bound() {
        let mut t = Target::default();
        t.limits.min_level = Some(Level::Hard);
        t.limits.max_level = Some(Level::Hard);
        t.limits.min_rating = Some(3.0);
        t.givens.max = Some(26);
        t.ladder = Some(Ladder::seed());
        let d = t.describe(nine(), Symmetry::Rotational);
        assert_eq!(
            d,
            "hard 9x9 (3x3 boxes), SE 3.., givens ..26, techniques seed, rotational symmetry"
        );
    }
}
