//! Ratings of a puzzle, computed the ways HoDoKu and Sudoku Explainer do:
//!
//! - **HoDoKu** solves with its techniques in [`TABLE`](super::TABLE) order; the score is
//!   the sum of the scores of every step (each single counts), the level the
//!   highest level among them, raised while the score exceeds that level's
//!   ceiling (easy 800, medium 1,000, hard 1,600, unfair 1,800), as HoDoKu
//!   2.2 does. HoDoKu rates 9x9 grids only; on other sizes the ceilings
//!   scale with the number of cells, so a 16x16 solved by singles is easy.
//! - **Sudoku Explainer** always takes the easiest step available: the
//!   ladder is run with the techniques ordered by their SE rating, and ER
//!   is the rating of the hardest step taken (hidden single 1.2 in a box,
//!   1.5 in a line; pointing 2.6, claiming 2.8).
//!
//! When the techniques stop short, the rating is a lower bound: the step
//! that finishes the puzzle is beyond the ladder. Every SE technique rated
//! under 4.5 is on the ladder, so such a puzzle rates at least 4.5 (unique
//! rectangles; chains rate 6.6 and up). [`Rating::complete`] says which.
//!
//! ```
//! use xlsudoku::grid::Grid;
//! use xlsudoku::logic::{rate, Level};
//!
//! let easy: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let r = rate(&easy).expect("no clash");
//! assert!(r.complete);
//! assert_eq!(r.level, Level::Easy);
//! assert!(r.se <= 2.3);
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

use super::{Board, Ladder, Level, Step, Stop, Technique};
use crate::grid::{Grid, Unit};

/// How hard a puzzle is, on HoDoKu's and Sudoku Explainer's scales.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Rating {
    /// Sudoku Explainer's ER: the rating of the hardest step.
    pub se: f32,
    /// HoDoKu's level.
    pub level: Level,
    /// HoDoKu's score.
    pub score: u32,
    /// False when the techniques stopped short: `se` and `score` are then
    /// lower bounds and `level` is [`Level::Extreme`].
    pub complete: bool,
}

/// A rating as notes and reports show it: `4.2`, or `4.2+` when the
/// ladder stopped short and the rating is a lower bound (level extreme).
pub fn se_text(se: f32, level: Level) -> String {
    let plus = if level == Level::Extreme { "+" } else { "" };
    format!("{se:.1}{plus}")
}

/// Bounds a puzzle's difficulty must stay within (`check --max-level`,
/// `--min-level`, `--max-rating`, `--min-rating`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Limits {
    /// The hardest HoDoKu level allowed.
    pub max_level: Option<Level>,
    /// The easiest HoDoKu level allowed.
    pub min_level: Option<Level>,
    /// The highest SE rating allowed.
    pub max_rating: Option<f32>,
    /// The lowest SE rating allowed.
    pub min_rating: Option<f32>,
}

impl Limits {
    /// True when no bound is set.
    pub fn is_empty(&self) -> bool {
        *self == Limits::default()
    }

    /// `Err(true, why)` when the rating is above a bound, `Err(false, why)`
    /// when below one, `Ok` when within all.
    pub fn check(&self, r: &Rating) -> Result<(), (bool, String)> {
        let shown = format!("{} (SE {})", r.level, se_text(r.se, r.level));
        if let Some(max) = self.max_level.filter(|&m| r.level > m) {
            return Err((true, format!("{shown}, above --max-level {max}")));
        }
        if let Some(max) = self
            .max_rating
            .filter(|&m| r.se > m + 1e-4 || (!r.complete && r.se >= m))
        {
            return Err((true, format!("{shown}, above --max-rating {max}")));
        }
        if let Some(min) = self.min_level.filter(|&m| r.level < m) {
            return Err((false, format!("{shown}, below --min-level {min}")));
        }
        if let Some(min) = self.min_rating.filter(|&m| r.complete && r.se + 1e-4 < m) {
            return Err((false, format!("{shown}, below --min-rating {min}")));
        }
        Ok(())
    }
}

/// The SE rating of one step (the box and line variants told apart).
pub fn se_rating(step: &Step) -> f32 {
    match (step.technique, step.unit) {
        (Technique::HiddenSingle, Some(Unit::Box(_))) => 1.2,
        (Technique::LockedCandidates, Some(Unit::Row(_) | Unit::Col(_))) => 2.8,
        (t, _) => t.info().se_rating,
    }
}

/// The least SE rating of a step the ladder does not have (a unique
/// rectangle): a puzzle the ladder cannot finish rates at least this.
const BEYOND_LADDER: f32 = 4.5;

/// HoDoKu's ceiling score for a level: a puzzle scoring more moves up.
fn ceiling(level: Level) -> u32 {
    match level {
        Level::Easy => 800,
        Level::Medium => 1000,
        Level::Hard => 1600,
        Level::Unfair => 1800,
        Level::Extreme => u32::MAX,
    }
}

fn next(level: Level) -> Level {
    match level {
        Level::Easy => Level::Medium,
        Level::Medium => Level::Hard,
        Level::Hard => Level::Unfair,
        _ => Level::Extreme,
    }
}

/// Rates a puzzle with every technique; `None` when givens clash. Rate
/// only puzzles with one solution: the ratings assume it.
pub fn rate(puzzle: &Grid) -> Option<Rating> {
    let mut hodoku = Board::with_ladder(puzzle, Ladder::all())?;
    let stop = hodoku.run(None);
    let score: u32 = hodoku
        .steps()
        .iter()
        .map(|s| s.technique.info().hodoku_score)
        .sum();
    let complete = stop == Stop::Solved;
    let mut level = hodoku
        .steps()
        .iter()
        .map(|s| s.technique.info().level)
        .max()
        .unwrap_or(Level::Easy);
    if complete {
        let cells = u64::from(puzzle.side() as u32).pow(2);
        let scaled = |l: Level| u64::from(ceiling(l)) * cells.max(81) / 81;
        while u64::from(score) > scaled(level) && level != Level::Extreme {
            level = next(level);
        }
    } else {
        level = Level::Extreme;
    }
    let mut se = Board::with_ladder(puzzle, Ladder::all())?;
    let mut order: Vec<Technique> = se.order.clone();
    order.sort_by(|a, b| a.info().se_rating.total_cmp(&b.info().se_rating));
    se.order = order;
    se.run(None);
    let mut er = se.steps().iter().map(se_rating).fold(0.0f32, f32::max);
    if !complete {
        // SE has nothing under 4.5 that the ladder lacks.
        er = er.max(BEYOND_LADDER);
    }
    Some(Rating {
        se: er,
        level,
        score,
        complete,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{EASY, HARD, PAIRS};

    #[test]
    fn singles_only_is_easy() {
        let r = rate(&EASY.parse().unwrap()).unwrap();
        assert_eq!((r.level, r.complete), (Level::Easy, true));
        assert!(r.se <= 2.3, "{r:?}");
    }

    #[test]
    fn a_stuck_ladder_is_extreme_and_a_lower_bound() {
        let r = rate(&HARD.parse().unwrap()).unwrap();
        assert!(!r.complete);
        assert_eq!(r.level, Level::Extreme);
        assert!(r.se >= BEYOND_LADDER);
    }

    #[test]
    fn subsets_raise_the_level_and_the_rating() {
        let r = rate(&PAIRS.parse().unwrap()).unwrap();
        assert!(r.complete, "{r:?}");
        assert!(r.level >= Level::Medium, "{r:?}");
        assert!(r.se >= 2.6, "{r:?}");
        assert!(r.score > 800, "{r:?}");
    }

    #[test]
    fn ceilings_follow_hodoku() {
        assert_eq!(ceiling(Level::Easy), 800);
        assert_eq!(next(Level::Hard), Level::Unfair);
        assert!(super::super::TABLE.iter().all(|t| t.se_rating > 0.0));
    }
}
