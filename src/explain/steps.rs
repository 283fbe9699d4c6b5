//! A solving path as structured steps with their sentences.

use serde::Serialize;

use super::pictures::Replay;
use super::{describe, AddressMap};
use crate::grid::Grid;
use crate::logic::Step;

/// A cell and a digit, as JSON shows them: `{"cell":"E7","digit":7}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellDigit {
    /// The cell's name (`E7`, or `r5c7` for a text puzzle).
    pub cell: String,
    /// The digit, `1..=side` (the text shows it in the grid's alphabet).
    pub digit: u8,
}

/// One step, structured and in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExplainedStep {
    /// 1-based number of the step.
    pub n: usize,
    /// The technique's key, as `--techniques` takes it (`hidden-single`).
    pub technique: &'static str,
    /// The technique's name in words (`hidden single`).
    pub name: &'static str,
    /// The letter the history records (`None` for a naked single).
    pub letter: Option<char>,
    /// The unit the pattern lives in, named (`row 7`), if any.
    pub unit: Option<String>,
    /// The pattern's cells.
    pub cells: Vec<String>,
    /// The pattern's digits, `1..=side`.
    pub digits: Vec<u8>,
    /// The digit placed, if any.
    pub placed: Option<CellDigit>,
    /// The candidates struck.
    pub eliminated: Vec<CellDigit>,
    /// The pattern's chains, for chains, almost locked sets and forcing
    /// chains ([`Step::chains`](crate::logic::Step::chains)): each a list of nodes, first to last.
    /// Left out of the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chains: Vec<Vec<ExplainedNode>>,
    /// The step in words.
    pub text: String,
}

/// A node of a chain, as JSON shows it:
/// `{"cells":["E7"],"digit":4,"on":true}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExplainedNode {
    /// The node's cells: one, or a group (of one box and line, or an
    /// almost locked set's cells).
    pub cells: Vec<String>,
    /// The digit (an almost locked set's node: the restricted common it
    /// shares with the next set).
    pub digit: u8,
    /// True for "the digit is in these cells", false for "it is not".
    pub on: bool,
}

/// Every step of a puzzle's solving path in words: the candidates are
/// replayed from the givens so each sentence can name what the cells hold
/// just before its step.
pub fn explain_steps(puzzle: &Grid, steps: &[Step], map: &AddressMap) -> Vec<ExplainedStep> {
    explain_steps_from(puzzle, &[], steps, map)
}

/// [`explain_steps`] from a person's pencil marks: the candidates start
/// from the givens narrowed by `marks` (bit `d - 1` for digit `d`, per
/// cell; 0 or an empty slice for none), as a path run from those marks
/// found them.
pub fn explain_steps_from(
    puzzle: &Grid,
    marks: &[u64],
    steps: &[Step],
    map: &AddressMap,
) -> Vec<ExplainedStep> {
    let mut replay = Replay::new(puzzle, marks, map);
    steps
        .iter()
        .enumerate()
        .map(|(k, step)| {
            let text = describe(step, map, &replay.cands);
            replay.apply(step);
            explained_step(k + 1, step, map, text)
        })
        .collect()
}

/// One step, numbered `n`, structured with the map's names, with its
/// sentence `text` (the hint's step is explained by this too).
pub(crate) fn explained_step(
    n: usize,
    step: &Step,
    map: &AddressMap,
    text: String,
) -> ExplainedStep {
    let pair = |(c, d): (usize, u8)| CellDigit {
        cell: map.cell(c),
        digit: d,
    };
    let info = step.technique.info();
    ExplainedStep {
        n,
        technique: info.key,
        name: info.name,
        letter: info.letter,
        unit: step.unit.map(|u| map.unit(u)),
        cells: step.cells.iter().map(|&c| map.cell(c)).collect(),
        digits: step.digits.clone(),
        placed: step.placed.map(pair),
        eliminated: step.eliminated.iter().copied().map(pair).collect(),
        chains: step
            .chains
            .iter()
            .map(|chain| {
                chain
                    .iter()
                    .map(|node| ExplainedNode {
                        cells: node.cells.iter().map(|&c| map.cell(c)).collect(),
                        digit: node.digit,
                        on: node.on,
                    })
                    .collect()
            })
            .collect(),
        text,
    }
}
