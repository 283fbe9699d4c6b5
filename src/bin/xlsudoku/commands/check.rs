//! `xlsudoku check`: its flags and run (CI checks, JSON, JUnit).

use std::path::PathBuf;

use xlsudoku::batch::{Plan, RunOptions};
use xlsudoku::generate::Span;
use xlsudoku::logic::{Level, Limits};

use crate::common::{run_options, usage_error, Common};
use crate::jobs::run_jobs;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    common: Common,
    /// Write a JUnit XML report (one test case per grid) to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// A workbook without any grid passes instead of failing (a sheet
    /// without a grid in a workbook with grids elsewhere always passes).
    #[arg(long)]
    allow_no_grid: bool,
    /// Fail a grid whose HoDoKu level is not LEVEL, or outside a range of
    /// them (`hard`, `easy..medium`, `hard..`): --min-level and --max-level
    /// at once.
    #[arg(long, value_name = "LEVEL", conflicts_with_all = ["max_level", "min_level"])]
    level: Option<Span<Level>>,
    /// Fail (`too-hard`) a grid whose HoDoKu level is above LEVEL (easy,
    /// medium, hard, unfair, extreme).
    #[arg(long, value_name = "LEVEL")]
    max_level: Option<Level>,
    /// Fail (`too-easy`) a grid whose HoDoKu level is below LEVEL.
    #[arg(long, value_name = "LEVEL")]
    min_level: Option<Level>,
    /// Fail (`too-hard`) a grid whose Sudoku Explainer rating is above X.
    #[arg(long, value_name = "X")]
    max_rating: Option<f32>,
    /// Fail (`too-easy`) a grid whose Sudoku Explainer rating is below X.
    #[arg(long, value_name = "X")]
    min_rating: Option<f32>,
}

pub fn run(a: Args) -> u8 {
    let plan = Plan {
        inputs: a.common.inputs.clone(),
        output: None,
        write: false,
    };
    let (min_level, max_level) = match a.level {
        Some(span) => (span.min, span.max),
        None => (a.min_level, a.max_level),
    };
    let limits = Limits {
        max_level,
        min_level,
        max_rating: a.max_rating,
        min_rating: a.min_rating,
    };
    if let (Some(lo), Some(hi)) = (min_level, max_level) {
        if lo > hi {
            return usage_error(format!("--min-level {lo} is above --max-level {hi}"));
        }
    }
    if [a.max_rating, a.min_rating]
        .iter()
        .flatten()
        .any(|r| !r.is_finite() || *r < 0.0)
    {
        return usage_error("--max-rating/--min-rating: a rating is a number from 0 up");
    }
    match run_options(&a.common, false, true) {
        Ok(opts) => {
            let opts = RunOptions { limits, ..opts };
            run_jobs(&a.common, &plan, &opts, a.junit.as_deref(), a.allow_no_grid)
        }
        Err(e) => usage_error(e),
    }
}
