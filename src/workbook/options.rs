//! What a workbook read is asked for: the grid's range and box shape when
//! given, the sheets to read.

use crate::address::CellRange;
use crate::grid::BoxShape;

/// Overrides for grid detection.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// Use exactly this square as the grid on every sheet (`--range C3:K11`),
    /// without looking at borders or values.
    pub range: Option<CellRange>,
    /// Force the box shape (`--box 3x2`); with detection, only squares of
    /// its side are grids.
    pub shape: Option<BoxShape>,
    /// Where the solutions go (`--answers`): decides each grid's
    /// [`FoundGrid::answer`](super::FoundGrid::answer).
    pub answers: crate::answer_place::Answers,
}
