//! The arguments `hint` and `explain` share, defined once and flattened
//! into both (as ripgrep defines each flag once): where the grid is, its
//! box shape, the techniques of the ladder and the time limit.

use std::time::Duration;

use xlsudoku::address::CellRange;
use xlsudoku::grid::BoxShape;
use xlsudoku::logic::Ladder;
use xlsudoku::solve::SolveOptions;
use xlsudoku::workbook::ReadOptions;

use crate::common::parse_timeout;

/// `--range`, `--box`, `--techniques`, `--timeout`.
#[derive(clap::Args, Debug)]
pub struct LadderArgs {
    /// Use exactly this square as the grid (no detection), e.g. C3:K11.
    #[arg(long, value_name = "RANGE", conflicts_with = "puzzle")]
    pub range: Option<CellRange>,
    /// Box shape, WIDTHxHEIGHT, e.g. 3x2 for 6x6 grids.
    #[arg(long = "box", value_name = "WxH")]
    pub box_shape: Option<BoxShape>,
    /// Techniques the ladder may use: `seed`, `all`, or letters/names such
    /// as `i,!,2,x` (where they stop, a step guesses the proven
    /// solution's digit).
    #[arg(long, value_name = "seed|all|LIST", default_value = "all")]
    pub techniques: Ladder,
    /// Give up on a grid after this many seconds (status `timeout`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_timeout)]
    pub timeout: Option<Duration>,
}

impl LadderArgs {
    /// How to solve: the ladder and the time limit, with guesses.
    pub fn solve_options(&self) -> SolveOptions {
        SolveOptions {
            logic_only: false,
            timeout: self.timeout,
            techniques: self.techniques.clone(),
            ..SolveOptions::default()
        }
    }

    /// How to read a workbook: the range and the box shape.
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            range: self.range,
            shape: self.box_shape,
            ..ReadOptions::default()
        }
    }
}
