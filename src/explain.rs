//! Solving paths in words: every step of the technique ladder
//! ([`crate::logic`]) as a sentence that names cells, lines and digits the
//! way the reader sees them.
//!
//! A grid read from a workbook is named with the sheet's own addresses: a
//! grid at `C3:K11` has its first cell at `C3`, its lines are the sheet's
//! `row 7` and `column E`, and its digits are written in the grid's own
//! alphabet ([`Symbols`]: a 16x16 written `0`-`9`, `A`-`F` says `F`, not
//! 16). A one-line text puzzle has no sheet: its cells are `r5c7` (row 5,
//! column 7, counted from 1), its lines `row 5` and `column 7`, its digits
//! as the text form writes them (`1`-`9`, then `A` for 10 ...). Boxes are
//! `box 1` to `box N`, row by row, in both.
//!
//! ```
//! use xlsudoku::address::CellRef;
//! use xlsudoku::explain::{explain_puzzle, AddressMap};
//! use xlsudoku::grid::{BoxShape, Grid, Unit};
//! use xlsudoku::solve::SolveOptions;
//! use xlsudoku::workbook::Symbols;
//!
//! let shape = BoxShape::new(3, 3).unwrap();
//! let sheet = AddressMap::sheet(CellRef::new(2, 2), shape, Symbols::Numbers);
//! assert_eq!(sheet.cell(0), "C3");
//! assert_eq!(sheet.unit(Unit::Row(4)), "row 7");
//! assert_eq!(sheet.unit(Unit::Col(2)), "column E");
//! assert_eq!(AddressMap::puzzle(shape).cell(4 * 9 + 6), "r5c7");
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()?;
//! let explained = explain_puzzle(&puzzle, &SolveOptions::default());
//! assert!(explained.passes());
//! // Singles only: one step per blank, each placing a digit.
//! assert_eq!(explained.steps.len(), 81 - puzzle.givens());
//! assert!(explained.steps.iter().all(|s| s.placed.is_some()));
//! assert!(explained.steps[0].text.starts_with("naked single: r"));
//! # Ok::<(), xlsudoku::grid::GridError>(())
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::address::{column_name, CellRef};
use crate::grid::{digit_char, BoxShape, Grid, Unit};
use crate::logic::{ChainNode, Level, Step, Technique};
use crate::report::SheetStatus;
use crate::solve::{solve, Outcome, SolveOptions, Status};
use crate::workbook::{read_workbook, FoundGrid, ReadError, ReadOptions, Sheet, Symbols};

/// How the cells, lines and digits of one grid are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressMap {
    shape: BoxShape,
    /// The sheet cell of the grid's first cell; `None` for a text puzzle.
    origin: Option<CellRef>,
    /// The grid's alphabet; `None`: the text form's (`1`-`9`, `A` ...).
    symbols: Option<Symbols>,
    /// Whether the grid writes its letters in lower case.
    lowercase: bool,
}

impl AddressMap {
    /// A grid on a sheet whose first cell is `origin` (`C3` for a grid at
    /// `C3:K11`), written in `symbols`.
    pub fn sheet(origin: CellRef, shape: BoxShape, symbols: Symbols) -> Self {
        AddressMap {
            shape,
            origin: Some(origin),
            symbols: Some(symbols),
            lowercase: false,
        }
    }

    /// The names of a grid found on a sheet, its letters in its case.
    pub fn for_grid(grid: &FoundGrid) -> Self {
        AddressMap {
            lowercase: grid.lowercase,
            ..AddressMap::sheet(grid.range.start, grid.shape, grid.symbols)
        }
    }

    /// A text puzzle: cells `r5c7`, lines `row 5` and `column 7`, digits
    /// as the text form writes them.
    pub fn puzzle(shape: BoxShape) -> Self {
        AddressMap {
            shape,
            origin: None,
            symbols: None,
            lowercase: false,
        }
    }

    fn side(&self) -> usize {
        self.shape.side()
    }

    /// The name of the cell at a row-major index of the grid: `E7` on a
    /// sheet, `r5c7` for a text puzzle.
    pub fn cell(&self, index: usize) -> String {
        let n = self.side().max(1);
        let (r, c) = (index / n, index % n);
        match self.origin {
            Some(o) => CellRef::new(
                o.row.saturating_add(r as u32),
                o.col.saturating_add(c as u32),
            )
            .to_string(),
            None => format!("r{}c{}", r + 1, c + 1),
        }
    }

    /// The label of a line or box without its kind: `7` for a sheet's row 7,
    /// `E` for its column E, `4` for box 4.
    fn label(&self, unit: Unit) -> String {
        match (unit, self.origin) {
            (Unit::Row(r), Some(o)) => (u64::from(o.row) + r as u64 + 1).to_string(),
            (Unit::Col(c), Some(o)) => column_name(o.col.saturating_add(c as u32)),
            (Unit::Row(k) | Unit::Col(k) | Unit::Box(k), _) => (k + 1).to_string(),
        }
    }

    /// A unit as people name it: `row 7`, `column E` (`column 7` for a
    /// text puzzle), `box 4`.
    pub fn unit(&self, unit: Unit) -> String {
        let kind = match unit {
            Unit::Row(_) => "row",
            Unit::Col(_) => "column",
            Unit::Box(_) => "box",
        };
        format!("{kind} {}", self.label(unit))
    }

    /// A digit (`1..=side`) in the grid's alphabet, its letters in the
    /// grid's case.
    pub fn digit(&self, d: u8) -> String {
        match self.symbols {
            Some(s) if self.lowercase => s.symbol(d).to_string().to_ascii_lowercase(),
            Some(s) => s.symbol(d).to_string(),
            None => digit_char(d).to_string(),
        }
    }

    /// The grid's alphabet in words: `1-9`, `1-9, A-G`, `0-9, A-F`.
    pub fn alphabet(&self) -> String {
        let side = self.side();
        match self.symbols {
            Some(s) => s.describe(side),
            None if side <= 9 => format!("1-{side}"),
            None => format!("1-9, A-{}", digit_char(side.min(61) as u8)),
        }
    }

    fn row(&self, i: usize) -> usize {
        i / self.side().max(1)
    }

    fn col(&self, i: usize) -> usize {
        i % self.side().max(1)
    }

    fn box_of(&self, i: usize) -> usize {
        let (w, h) = (self.shape.width().max(1), self.shape.height().max(1));
        (self.row(i) / h) * (self.side() / w) + self.col(i) / w
    }

    /// The row, column and box of a cell.
    fn units_of(&self, i: usize) -> [Unit; 3] {
        [
            Unit::Row(self.row(i)),
            Unit::Col(self.col(i)),
            Unit::Box(self.box_of(i)),
        ]
    }

    fn contains(&self, unit: Unit, i: usize) -> bool {
        self.units_of(i).contains(&unit)
    }

    /// The units every one of `cells` lies in (rows, columns, boxes).
    fn shared(&self, cells: &[usize]) -> Vec<Unit> {
        let Some(&first) = cells.first() else {
            return Vec::new();
        };
        self.units_of(first)
            .into_iter()
            .filter(|&u| cells.iter().all(|&c| self.contains(u, c)))
            .collect()
    }

    /// The cells of a cell's row, column and box (itself included, some
    /// twice).
    fn peers(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.side();
        let (w, h) = (self.shape.width().max(1), self.shape.height().max(1));
        let (r, c) = (self.row(i), self.col(i));
        let (r0, c0) = (r / h * h, c / w * w);
        (0..n)
            .map(move |k| r * n + k)
            .chain((0..n).map(move |k| k * n + c))
            .chain((0..h * w).map(move |k| (r0 + k / w) * n + c0 + k % w))
    }

    /// The row and column through a box on which every one of `inbox`
    /// lies (an empty rectangle's cross), the one through `x` first.
    fn rectangle_lines(&self, inbox: &[usize], x: usize) -> Option<(usize, usize)> {
        let rows: Vec<usize> = inbox.iter().map(|&c| self.row(c)).collect();
        let cols: Vec<usize> = inbox.iter().map(|&c| self.col(c)).collect();
        let mut found = None;
        for &r in &rows {
            for &c in &cols {
                if inbox.iter().all(|&i| self.row(i) == r || self.col(i) == c) {
                    if self.row(x) == r || self.col(x) == c {
                        return Some((r, c));
                    }
                    found = found.or(Some((r, c)));
                }
            }
        }
        found
    }

    fn cells(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&c| self.cell(c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn digits(&self, digits: &[u8]) -> String {
        digits
            .iter()
            .map(|&d| self.digit(d))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// `removes 2 from G5, 6 from G5, G9`: by digit, cells in reading order.
    fn removes(&self, eliminated: &[(usize, u8)]) -> String {
        let mut by_digit: BTreeMap<u8, Vec<usize>> = BTreeMap::new();
        for &(c, d) in eliminated {
            by_digit.entry(d).or_default().push(c);
        }
        let parts: Vec<String> = by_digit
            .into_iter()
            .map(|(d, mut cells)| {
                cells.sort_unstable();
                cells.dedup();
                format!("{} from {}", self.digit(d), self.cells(&cells))
            })
            .collect();
        format!("removes {}", parts.join(", "))
    }

    /// A cell's candidates as `(1,2,7)`, or nothing when unknown.
    fn candidates(&self, cands: &[u64], cell: usize) -> String {
        match cands.get(cell) {
            Some(&m) if m != 0 => format!(" ({})", self.digits(&digits_of(m))),
            _ => String::new(),
        }
    }
}

fn bit(d: u8) -> u64 {
    if (1..=64).contains(&d) {
        1u64 << (d - 1)
    } else {
        0
    }
}

fn digits_of(mask: u64) -> Vec<u8> {
    (0..64u8)
        .filter(|b| mask & (1u64 << b) != 0)
        .map(|b| b + 1)
        .collect()
}

/// `3 and 7`, `3, 5 and 7`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// One step in words. `candidates` are the candidates of every cell just
/// before the step (bit `d - 1` for digit `d`, 0 for a filled cell), as
/// [`explain_steps`] keeps them; with an empty slice the words leave out
/// what only the candidates tell (a wing's cell contents).
///
/// ```
/// use xlsudoku::address::CellRef;
/// use xlsudoku::explain::{describe, AddressMap};
/// use xlsudoku::grid::{BoxShape, Unit};
/// use xlsudoku::logic::{Step, Technique};
/// use xlsudoku::workbook::Symbols;
///
/// let shape = BoxShape::new(3, 3).unwrap();
/// let map = AddressMap::sheet(CellRef::new(2, 2), shape, Symbols::Numbers);
/// let step = Step {
///     technique: Technique::HiddenSingle,
///     unit: Some(Unit::Row(4)),
///     digits: vec![7],
///     cells: vec![4 * 9 + 2],
///     placed: Some((4 * 9 + 2, 7)),
///     eliminated: vec![],
///     chains: vec![],
/// };
/// assert_eq!(describe(&step, &map, &[]), "hidden single: 7 has one place in row 7 → E7");
/// ```
pub fn describe(step: &Step, map: &AddressMap, candidates: &[u64]) -> String {
    let name = step.technique.name();
    let d0 = step.digits.first().copied();
    let removes = map.removes(&step.eliminated);
    match (step.technique, step.placed) {
        (Technique::NakedSingle, Some((c, d))) => {
            format!("{name}: {} = {}", map.cell(c), map.digit(d))
        }
        (Technique::Guess, Some((c, d))) => format!(
            "{name}: {} = {} (from the proven solution; the techniques stop here)",
            map.cell(c),
            map.digit(d)
        ),
        (Technique::HiddenSingle, Some((c, d))) => match step.unit {
            Some(u) => format!(
                "{name}: {} has one place in {} → {}",
                map.digit(d),
                map.unit(u),
                map.cell(c)
            ),
            None => format!("{name}: {} = {}", map.cell(c), map.digit(d)),
        },
        (Technique::LockedCandidates, None) if step.unit.is_some() && d0.is_some() => {
            let (unit, d) = (step.unit.unwrap_or(Unit::Row(0)), d0.unwrap_or(1));
            let other = map
                .shared(&step.cells)
                .into_iter()
                .find(|&u| u != unit && matches!(unit, Unit::Box(_)) != matches!(u, Unit::Box(_)));
            let kind = if matches!(unit, Unit::Box(_)) {
                "pointing"
            } else {
                "claiming"
            };
            let within = other.map(|o| map.unit(o)).unwrap_or_default();
            format!(
                "{name} ({kind}): {} of {} lies only in {within} ({}): {removes}",
                map.digit(d),
                map.unit(unit),
                map.cells(&step.cells)
            )
        }
        (
            Technique::NakedPair
            | Technique::NakedTriple
            | Technique::NakedQuad
            | Technique::LockedPair
            | Technique::LockedTriple
            | Technique::HiddenPair
            | Technique::HiddenTriple
            | Technique::HiddenQuad,
            None,
        ) => {
            let mut units: Vec<Unit> = step.unit.into_iter().collect();
            if matches!(
                step.technique,
                Technique::LockedPair | Technique::LockedTriple
            ) {
                units.extend(
                    map.shared(&step.cells)
                        .into_iter()
                        .filter(|u| Some(*u) != step.unit),
                );
                units.truncate(2);
            }
            let units: Vec<String> = units.into_iter().map(|u| map.unit(u)).collect();
            format!(
                "{name} {} in {} ({}): {removes}",
                map.digits(&step.digits),
                map.cells(&step.cells),
                units.join(", ")
            )
        }
        (Technique::XWing | Technique::Swordfish | Technique::Jellyfish, None)
            if d0.is_some() && step.unit.is_some() =>
        {
            let d = d0.unwrap_or(1);
            let in_rows = matches!(step.unit, Some(Unit::Row(_)));
            let mut base: Vec<usize> = step
                .cells
                .iter()
                .map(|&c| if in_rows { map.row(c) } else { map.col(c) })
                .collect();
            let mut cover: Vec<usize> = step
                .cells
                .iter()
                .map(|&c| if in_rows { map.col(c) } else { map.row(c) })
                .collect();
            for v in [&mut base, &mut cover] {
                v.sort_unstable();
                v.dedup();
            }
            let label =
                |row: bool, k: usize| map.label(if row { Unit::Row(k) } else { Unit::Col(k) });
            let base: Vec<String> = base.into_iter().map(|k| label(in_rows, k)).collect();
            let cover: Vec<String> = cover.into_iter().map(|k| label(!in_rows, k)).collect();
            let (base_kind, cover_kind) = if in_rows {
                ("rows", "columns")
            } else {
                ("columns", "rows")
            };
            format!(
                "{name} on {} in {base_kind} {} ({cover_kind} {}): {removes}",
                map.digit(d),
                and_list(&base),
                cover.join(", ")
            )
        }
        (Technique::Skyscraper | Technique::TwoStringKite | Technique::TurbotFish, None)
            if step.cells.len() == 4 && d0.is_some() =>
        {
            let d = d0.unwrap_or(1);
            let [a, b, c, e] = [step.cells[0], step.cells[1], step.cells[2], step.cells[3]];
            let first = step
                .unit
                .filter(|&u| map.contains(u, a) && map.contains(u, b))
                .or_else(|| strong_unit(map, candidates, d, a, b));
            let second = strong_unit(map, candidates, d, c, e);
            let link = |x: usize, y: usize, u: Option<Unit>| match u {
                Some(u) => format!("{}–{} ({})", map.cell(x), map.cell(y), map.unit(u)),
                None => format!("{}–{}", map.cell(x), map.cell(y)),
            };
            format!(
                "{name} on {}: strong links {} and {}, {} sees {}: {removes}",
                map.digit(d),
                link(a, b, first),
                link(c, e, second),
                map.cell(b),
                map.cell(c)
            )
        }
        (Technique::XyWing | Technique::XyzWing, None) if step.cells.len() == 3 && d0.is_some() => {
            let [p, a, b] = [step.cells[0], step.cells[1], step.cells[2]];
            format!(
                "{name} on {}: pivot {}{}, pincers {}{} and {}{}: {removes}",
                map.digit(d0.unwrap_or(1)),
                map.cell(p),
                map.candidates(candidates, p),
                map.cell(a),
                map.candidates(candidates, a),
                map.cell(b),
                map.candidates(candidates, b)
            )
        }
        (Technique::WWing, None) if step.cells.len() == 4 && d0.is_some() => {
            let y = d0.unwrap_or(1);
            let [a, b, e1, e2] = [step.cells[0], step.cells[1], step.cells[2], step.cells[3]];
            let pair = candidates.get(a).copied().unwrap_or(0);
            let x = digits_of(pair & !bit(y)).first().copied();
            let link = match x {
                Some(x) => {
                    let unit = strong_unit(map, candidates, x, e1, e2)
                        .map(|u| format!(", {}", map.unit(u)))
                        .unwrap_or_default();
                    format!(
                        "a strong link on {} ({}–{}{unit})",
                        map.digit(x),
                        map.cell(e1),
                        map.cell(e2)
                    )
                }
                None => format!("the strong link {}–{}", map.cell(e1), map.cell(e2)),
            };
            let both = if pair.count_ones() == 2 {
                format!(" both hold {};", map.digits(&digits_of(pair)))
            } else {
                String::new()
            };
            format!(
                "{name} on {}: {} and {}{both} {link} joins them: {removes}",
                map.digit(y),
                map.cell(a),
                map.cell(b)
            )
        }
        (Technique::RemotePair, None) if step.digits.len() == 2 => {
            let (a, b) = two_colours(&step.cells, |x, y| !map.shared(&[x, y]).is_empty());
            format!(
                "{name} on {}: {} hold only {} and each sees the next, so {} hold one digit and {} the other: {removes}",
                map.digits(&step.digits),
                map.cells(&step.cells),
                map.digits(&step.digits),
                map.cells(&a),
                map.cells(&b)
            )
        }
        (Technique::BugPlusOne, Some((c, d))) => format!(
            "{name}: every blank but {} has two candidates, and {} has three places in its row, column and box → {} = {}",
            map.cell(c),
            map.digit(d),
            map.cell(c),
            map.digit(d)
        ),
        (Technique::EmptyRectangle, None) if step.cells.len() >= 3 && d0.is_some() => {
            let d = d0.unwrap_or(1);
            let (x, y, inbox) = (step.cells[0], step.cells[1], &step.cells[2..]);
            let cross = map.rectangle_lines(inbox, x);
            let lines = match cross {
                Some((r, c)) => format!(
                    " lie on {} and {}",
                    map.unit(Unit::Row(r)),
                    map.unit(Unit::Col(c))
                ),
                None => format!(" are {}", map.cells(inbox)),
            };
            let within = step.unit.map(|u| map.unit(u)).unwrap_or_default();
            let link = strong_unit(map, candidates, d, x, y)
                .map(|u| format!(" ({})", map.unit(u)))
                .unwrap_or_default();
            format!(
                "{name} on {}: the places of {} in {within}{lines}; strong link {}–{}{link}: {removes}",
                map.digit(d),
                map.digit(d),
                map.cell(x),
                map.cell(y)
            )
        }
        (
            Technique::UniqueRectangle1
            | Technique::UniqueRectangle2
            | Technique::UniqueRectangle3
            | Technique::UniqueRectangle4,
            None,
        ) if step.cells.len() >= 4 && step.digits.len() >= 2 => {
            let pair = map.digits(&step.digits[..2]);
            let c = &step.cells;
            let rect = map.cells(&c[..4]);
            let why = match step.technique {
                Technique::UniqueRectangle1 => format!(
                    "{} hold only {pair}, so {} must not",
                    map.cells(&c[..3]),
                    map.cell(c[3])
                ),
                Technique::UniqueRectangle2 => format!(
                    "{} and {} hold {pair} and the same extra {}, which one of them must be",
                    map.cell(c[2]),
                    map.cell(c[3]),
                    step.digits.get(2).map(|&z| map.digit(z)).unwrap_or_default()
                ),
                Technique::UniqueRectangle3 => format!(
                    "the extras of {} and {} ({}) form a naked subset with {}{}",
                    map.cell(c[2]),
                    map.cell(c[3]),
                    map.digits(&step.digits[2..]),
                    map.cells(&c[4..]),
                    step.unit.map(|u| format!(" in {}", map.unit(u))).unwrap_or_default()
                ),
                _ => {
                    let locked = map
                        .shared(&c[2..4])
                        .into_iter()
                        .map(|u| map.unit(u))
                        .next()
                        .unwrap_or_default();
                    format!(
                        "{} has no place in {locked} but {} and {}, so neither may be {}",
                        map.digit(step.digits[0]),
                        map.cell(c[2]),
                        map.cell(c[3]),
                        map.digit(step.digits[1])
                    )
                }
            };
            format!("{name} on {pair} ({rect}): {why}: {removes}")
        }
        (Technique::HiddenRectangle, None) if step.cells.len() == 4 && step.digits.len() == 2 => {
            let [p, q, s2, x] = [step.cells[0], step.cells[1], step.cells[2], step.cells[3]];
            let (u, v) = (step.digits[0], step.digits[1]);
            format!(
                "{name} on {} ({}): {} holds only {}, and {} has no place in {} and {} but the rectangle's, so {} may not be {}: {removes}",
                map.digits(&step.digits),
                map.cells(&[p, q, s2, x]),
                map.cell(p),
                map.digits(&step.digits),
                map.digit(u),
                map.unit(map.units_of(x)[0]),
                map.unit(map.units_of(x)[1]),
                map.cell(x),
                map.digit(v)
            )
        }
        (
            Technique::FinnedXWing
            | Technique::SashimiXWing
            | Technique::FinnedSwordfish
            | Technique::SashimiSwordfish
            | Technique::FinnedJellyfish
            | Technique::SashimiJellyfish,
            None,
        ) if d0.is_some() && step.unit.is_some() => {
            let d = d0.unwrap_or(1);
            let in_rows = matches!(step.unit, Some(Unit::Row(_)));
            let size = match step.technique {
                Technique::FinnedXWing | Technique::SashimiXWing => 2,
                Technique::FinnedSwordfish | Technique::SashimiSwordfish => 3,
                _ => 4,
            };
            let line = |c: usize| if in_rows { map.row(c) } else { map.col(c) };
            let across = |c: usize| if in_rows { map.col(c) } else { map.row(c) };
            let mut base: Vec<usize> = step.cells.iter().map(|&c| line(c)).collect();
            base.sort_unstable();
            base.dedup();
            let (cover, fins) = fish_covers(map, step, size, &across);
            let label =
                |row: bool, k: usize| map.label(if row { Unit::Row(k) } else { Unit::Col(k) });
            let base: Vec<String> = base.into_iter().map(|k| label(in_rows, k)).collect();
            let cover: Vec<String> = cover.into_iter().map(|k| label(!in_rows, k)).collect();
            let (base_kind, cover_kind) = if in_rows {
                ("rows", "columns")
            } else {
                ("columns", "rows")
            };
            let fin_word = if fins.len() == 1 { "fin" } else { "fins" };
            format!(
                "{name} on {} in {base_kind} {} ({cover_kind} {}), {fin_word} {}: {removes}",
                map.digit(d),
                and_list(&base),
                cover.join(", "),
                map.cells(&fins)
            )
        }
        (Technique::SueDeCoq, None) if step.unit.is_some() && step.cells.len() >= 4 => {
            let line = step.unit.unwrap_or(Unit::Row(0));
            let first = step.cells[0];
            let bx = map.units_of(first)[2];
            let group: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|&c| map.contains(line, c) && map.contains(bx, c))
                .collect();
            let in_line: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|&c| map.contains(line, c) && !map.contains(bx, c))
                .collect();
            let in_box: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|&c| !map.contains(line, c))
                .collect();
            let all: Vec<usize> = step.cells.clone();
            let group_digits = digits_of(
                group
                    .iter()
                    .fold(0u64, |m, &c| m | candidates.get(c).copied().unwrap_or(0)),
            );
            let held = if group_digits.is_empty() {
                String::new()
            } else {
                format!(" ({})", map.digits(&group_digits))
            };
            format!(
                "{name} where {} crosses {}: {}{held} with {} in the line and {} in the box — {} cells holding the {} digits {}: {removes}",
                map.unit(line),
                map.unit(bx),
                map.cells(&group),
                map.cells(&in_line),
                map.cells(&in_box),
                all.len(),
                step.digits.len(),
                map.digits(&step.digits)
            )
        }
        (Technique::SimpleColouring, None) if d0.is_some() => {
            let d = d0.unwrap_or(1);
            let (a, b) = two_colours(&step.cells, |x, y| {
                strong_unit(map, candidates, d, x, y).is_some()
            });
            let wrap = step
                .eliminated
                .iter()
                .all(|&(c, _)| step.cells.contains(&c));
            let how = if wrap {
                "two cells of one colour see each other, so that colour is false"
            } else {
                "a cell seeing both colours cannot hold it"
            };
            format!(
                "{name} on {}: strong links colour {} against {}; {how}: {removes}",
                map.digit(d),
                map.cells(&a),
                map.cells(&b)
            )
        }
        (Technique::MultiColouring, None) if d0.is_some() && !step.cells.is_empty() => {
            let d = d0.unwrap_or(1);
            let linked = |x: usize, y: usize| strong_unit(map, candidates, d, x, y).is_some();
            let (a, b) = two_colours(&step.cells, linked);
            let first: Vec<usize> = a.iter().chain(&b).copied().collect();
            let rest: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|c| !first.contains(c))
                .collect();
            let (c2, d2) = two_colours(&rest, linked);
            format!(
                "{name} on {}: clusters {} against {}, and {} against {}, joined where their cells see each other: {removes}",
                map.digit(d),
                map.cells(&a),
                map.cells(&b),
                map.cells(&c2),
                map.cells(&d2)
            )
        }
        (
            Technique::XChain
            | Technique::XyChain
            | Technique::NiceLoop
            | Technique::GroupedNiceLoop,
            None,
        ) if step.chains.first().is_some_and(|c| c.len() >= 2) => {
            let chain = &step.chains[0];
            let (first, last) = (&chain[0], &chain[chain.len() - 1]);
            let on_digit = if step.technique == Technique::XChain {
                format!(" on {}", map.digit(first.digit))
            } else {
                String::new()
            };
            // The chain starts from its first node false and ends with its
            // last true: one of the two holds.
            let first_true = ChainNode {
                on: true,
                ..first.clone()
            };
            format!(
                "{name}{on_digit}: {}: {} or {}: {removes}",
                chain_text(map, chain),
                node_is(map, &first_true),
                node_is(map, last)
            )
        }
        (Technique::AlsXz | Technique::AlsXyWing | Technique::AlsChain, None)
            if step.chains.first().is_some_and(|c| c.len() >= 2) =>
        {
            let sets = &step.chains[0];
            let set = |nd: &ChainNode| {
                let held = nd
                    .cells
                    .iter()
                    .filter_map(|&c| candidates.get(c))
                    .fold(0u64, |m, &x| m | x);
                let digits = if held == 0 {
                    String::new()
                } else {
                    format!(" ({})", map.digits(&digits_of(held)))
                };
                format!("{{{}}}{digits}", map.cells(&nd.cells))
            };
            let body = match step.technique {
                Technique::AlsXz => format!(
                    "{} and {} share the restricted common {}, so one of them is locked",
                    set(&sets[0]),
                    set(&sets[1]),
                    map.digit(sets[0].digit)
                ),
                Technique::AlsXyWing if sets.len() == 3 => format!(
                    "pivot {} joined by {} to {} and by {} to {}, so {} or {} is locked",
                    set(&sets[1]),
                    map.digit(sets[0].digit),
                    set(&sets[0]),
                    map.digit(sets[1].digit),
                    set(&sets[2]),
                    map.cells(&sets[0].cells),
                    map.cells(&sets[2].cells)
                ),
                _ => {
                    let mut t = set(&sets[0]);
                    for k in 1..sets.len() {
                        t.push_str(&format!(
                            " –{}– {}",
                            map.digit(sets[k - 1].digit),
                            set(&sets[k])
                        ));
                    }
                    format!("{t}: the first or the last set is locked")
                }
            };
            format!("{name}: {body}: {removes}")
        }
        (Technique::ForcingChain | Technique::ForcingNet, _) if !step.chains.is_empty() => {
            forcing_text(step, map)
        }
        _ => generic(step, map),
    }
}

/// Splits the first cluster of `cells` reachable from `cells[0]` by
/// `linked` into its two colours (breadth first); cells not reached are
/// left out.
fn two_colours(cells: &[usize], linked: impl Fn(usize, usize) -> bool) -> (Vec<usize>, Vec<usize>) {
    let Some(&start) = cells.first() else {
        return (Vec::new(), Vec::new());
    };
    let mut colour: BTreeMap<usize, bool> = BTreeMap::new();
    colour.insert(start, false);
    let mut queue = vec![start];
    let mut head = 0;
    while head < queue.len() {
        let x = queue[head];
        head += 1;
        let cx = colour.get(&x).copied().unwrap_or(false);
        for &y in cells {
            if y != x && !colour.contains_key(&y) && linked(x, y) {
                colour.insert(y, !cx);
                queue.push(y);
            }
        }
    }
    let pick = |want: bool| -> Vec<usize> {
        queue
            .iter()
            .copied()
            .filter(|c| colour.get(c) == Some(&want))
            .collect()
    };
    (pick(false), pick(true))
}

/// A finned fish's cover lines and fins: the first choice of `size` lines
/// across the base (by `across`) that holds every eliminated cell and
/// leaves as fins cells that each eliminated cell sees; the fewest fins
/// win.
fn fish_covers(
    map: &AddressMap,
    step: &Step,
    size: usize,
    across: &dyn Fn(usize) -> usize,
) -> (Vec<usize>, Vec<usize>) {
    let mut lines: Vec<usize> = step.cells.iter().map(|&c| across(c)).collect();
    lines.sort_unstable();
    lines.dedup();
    let sees = |x: usize, y: usize| x != y && !map.shared(&[x, y]).is_empty();
    let mut best: Option<(Vec<usize>, Vec<usize>)> = None;
    let count = lines.len();
    if count < size || count > 16 {
        return (lines, Vec::new());
    }
    for mask in 0u32..(1 << count) {
        if mask.count_ones() as usize != size {
            continue;
        }
        let cover: Vec<usize> = (0..count)
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| lines[i])
            .collect();
        let fins: Vec<usize> = step
            .cells
            .iter()
            .copied()
            .filter(|&c| !cover.contains(&across(c)))
            .collect();
        if fins.is_empty() {
            continue;
        }
        let fits = step
            .eliminated
            .iter()
            .all(|&(e, _)| cover.contains(&across(e)) && fins.iter().all(|&f| sees(e, f)));
        if fits && best.as_ref().is_none_or(|(_, f)| fins.len() < f.len()) {
            best = Some((cover, fins));
        }
    }
    best.unwrap_or((lines, Vec::new()))
}

/// A node as a statement: `C3 is 4`, `C3 is not 4`, `4 is in C3 or D3`.
fn node_is(map: &AddressMap, nd: &ChainNode) -> String {
    let d = map.digit(nd.digit);
    match (nd.cells.len(), nd.on) {
        (1, true) => format!("{} is {d}", map.cell(nd.cells[0])),
        (1, false) => format!("{} is not {d}", map.cell(nd.cells[0])),
        (_, true) => format!(
            "{d} is in {}",
            and_list(&nd.cells.iter().map(|&c| map.cell(c)).collect::<Vec<_>>())
                .replace(" and ", " or ")
        ),
        (_, false) => format!("{d} is not in {}", map.cells(&nd.cells)),
    }
}

/// A chain in Eureka notation with the map's names: `(4)C3 = (4)G3 –
/// (4)G7 = (4)J7`: `=` before a node made true (a strong link), `–`
/// before one made false (a weak link); a group's cells joined by `/`.
fn chain_text(map: &AddressMap, chain: &[ChainNode]) -> String {
    let mut t = String::new();
    for (k, nd) in chain.iter().enumerate() {
        if k > 0 {
            t.push_str(if nd.on { " = " } else { " – " });
        }
        let cells: Vec<String> = nd.cells.iter().map(|&c| map.cell(c)).collect();
        t.push_str(&format!("({}){}", map.digit(nd.digit), cells.join("/")));
    }
    t
}

/// A forcing chain or net in words: the premise(s), each branch, and what
/// follows.
fn forcing_text(step: &Step, map: &AddressMap) -> String {
    let name = step.technique.name();
    let net = step.technique == Technique::ForcingNet;
    let effect = match step.placed {
        Some((c, d)) => format!("{} = {}", map.cell(c), map.digit(d)),
        None => map.removes(&step.eliminated),
    };
    let branch = |b: &[ChainNode]| -> String {
        if net {
            let shown: Vec<String> = b
                .iter()
                .skip(1)
                .take(12)
                .map(|nd| node_is(map, nd))
                .collect();
            let more = if b.len() > 13 { ", …" } else { "" };
            if shown.is_empty() {
                String::new()
            } else {
                format!(" ({}{more})", shown.join(", "))
            }
        } else {
            format!(" ({})", chain_text(map, b))
        }
    };
    let premise = &step.chains[0][0];
    let contradiction = step.chains.iter().all(|b| b.first() == Some(premise))
        && (step.eliminated == [(premise.cells[0], premise.digit)]
            || step.placed == Some((premise.cells[0], premise.digit)));
    if contradiction {
        let branches: Vec<String> = step.chains.iter().map(|b| branch(b)).collect();
        return format!(
            "{name}: if {}, a contradiction follows{}: {effect}",
            node_is(map, premise).replace(" is ", " were "),
            branches.concat()
        );
    }
    let premises: Vec<&ChainNode> = step.chains.iter().filter_map(|b| b.first()).collect();
    let cells: Vec<usize> = premises.iter().map(|nd| nd.cells[0]).collect();
    let same_cell = cells.windows(2).all(|w| w[0] == w[1]);
    let each = if same_cell {
        let digits: Vec<u8> = premises.iter().map(|nd| nd.digit).collect();
        format!(
            "each candidate of {} ({})",
            map.cell(cells[0]),
            map.digits(&digits)
        )
    } else {
        let unit = map
            .shared(&cells)
            .first()
            .map(|&u| format!(" in {}", map.unit(u)))
            .unwrap_or_default();
        format!(
            "each place of {}{unit} ({})",
            map.digit(premise.digit),
            map.cells(&cells)
        )
    };
    let branches: Vec<String> = step
        .chains
        .iter()
        .map(|b| {
            let head = b.first().map(|nd| node_is(map, nd)).unwrap_or_default();
            format!("{head}{}", branch(b))
        })
        .collect();
    format!(
        "{name}: {each} leads to the same: {}: {effect}",
        branches.join("; ")
    )
}

/// Any other step: name, digits, cells, unit, then what it does.
fn generic(step: &Step, map: &AddressMap) -> String {
    let mut s = step.technique.name().to_string();
    if !step.digits.is_empty() {
        s.push_str(&format!(" {}", map.digits(&step.digits)));
    }
    if !step.cells.is_empty() {
        s.push_str(&format!(" in {}", map.cells(&step.cells)));
    }
    if let Some(u) = step.unit {
        s.push_str(&format!(" ({})", map.unit(u)));
    }
    let mut effects = Vec::new();
    if let Some((c, d)) = step.placed {
        effects.push(format!("{} = {}", map.cell(c), map.digit(d)));
    }
    if !step.eliminated.is_empty() {
        effects.push(map.removes(&step.eliminated));
    }
    if !effects.is_empty() {
        s.push_str(&format!(": {}", effects.join(", ")));
    }
    s
}

/// A unit holding both `x` and `y` in which `d` has exactly these two
/// places (rows, then columns, then boxes); without candidates, the first
/// unit they share.
fn strong_unit(map: &AddressMap, cands: &[u64], d: u8, x: usize, y: usize) -> Option<Unit> {
    let shared = map.shared(&[x, y]);
    if cands.len() != map.side() * map.side() {
        return shared.first().copied();
    }
    shared.into_iter().find(|&u| {
        (0..cands.len())
            .filter(|&i| map.contains(u, i) && cands[i] & bit(d) != 0)
            .count()
            == 2
    })
}

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
    let n = puzzle.side();
    let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let values = puzzle.cells();
    let mut cands: Vec<u64> = (0..values.len())
        .map(|i| {
            if values[i] != 0 {
                return 0;
            }
            let used = map
                .peers(i)
                .filter_map(|j| values.get(j))
                .fold(0u64, |m, &v| m | bit(v));
            all & !used
        })
        .collect();
    steps
        .iter()
        .enumerate()
        .map(|(k, step)| {
            let text = describe(step, map, &cands);
            if let Some((c, d)) = step.placed {
                for j in map.peers(c) {
                    if let Some(m) = cands.get_mut(j) {
                        *m &= !bit(d);
                    }
                }
                if let Some(m) = cands.get_mut(c) {
                    *m = 0;
                }
            }
            for &(c, d) in &step.eliminated {
                if let Some(m) = cands.get_mut(c) {
                    *m &= !bit(d);
                }
            }
            let pair = |(c, d): (usize, u8)| CellDigit {
                cell: map.cell(c),
                digit: d,
            };
            let info = step.technique.info();
            ExplainedStep {
                n: k + 1,
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
        })
        .collect()
}

/// One grid explained: where it is, how solving it ended, and its steps
/// (none unless it was solved). One JSON object of `explain --json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridExplanation {
    /// The workbook (`None` for a text puzzle).
    pub file: Option<String>,
    /// The sheet's name (`None` for a text puzzle).
    pub sheet: Option<String>,
    /// The grid's cells on the sheet, e.g. `C3:K11`.
    pub range: Option<String>,
    /// The text puzzle as given (`None` for a workbook grid).
    pub puzzle: Option<String>,
    /// The grid's size, e.g. `9x9`.
    pub size: Option<String>,
    /// The box shape, e.g. `3x3`.
    #[serde(rename = "box")]
    pub box_shape: Option<String>,
    /// The grid's alphabet, as the text writes digits: `1-9`, `0-9, A-F`.
    pub symbols: Option<String>,
    /// How many givens.
    pub givens: Option<usize>,
    /// How it ended (`no-grid` for a sheet without a grid).
    pub status: SheetStatus,
    /// Sudoku Explainer's rating of a solved grid.
    #[serde(serialize_with = "crate::rounding::opt_rating")]
    pub rating: Option<f32>,
    /// HoDoKu's level of a solved grid.
    pub level: Option<Level>,
    /// HoDoKu's score of a solved grid.
    pub score: Option<u32>,
    /// The history string (naked singles silent).
    pub history: String,
    /// Time spent solving.
    #[serde(serialize_with = "crate::rounding::millis")]
    pub elapsed_ms: f64,
    /// Why the grid has no steps: the clash, the bad cell, `more than one
    /// solution` ...
    pub error: Option<String>,
    /// The steps, in order.
    pub steps: Vec<ExplainedStep>,
}

impl GridExplanation {
    /// True when the grid was solved and its steps explained.
    pub fn passes(&self) -> bool {
        self.status == SheetStatus::Solved
    }

    /// The heading line: `Hard!C3:K11 (9x9): solved · SE 4.2 · hard`, or the
    /// status and its reason.
    pub fn heading(&self) -> String {
        let place = match (&self.sheet, &self.range) {
            (Some(s), Some(r)) => format!("{}!{r}", sheet_ref(s)),
            (Some(s), None) => sheet_ref(s),
            (None, _) => "puzzle".to_string(),
        };
        let size = self
            .size
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        let mut line = format!("{place}{size}: {}", status_words(self.status));
        if let (Some(r), Some(l)) = (self.rating, self.level) {
            line.push_str(&format!(
                " · SE {} · {l}",
                // Only a ladder that stopped short leaves the rating a bound.
                crate::logic::rating::se_text(
                    r,
                    l != Level::Extreme || !self.history.contains('#')
                )
            ));
        }
        if let Some(e) = &self.error {
            line.push_str(&format!(": {e}"));
        }
        line
    }

    /// The heading, then one numbered line per step.
    pub fn to_text(&self) -> String {
        let mut s = self.heading();
        s.push('\n');
        let width = self.steps.len().to_string().len();
        for step in &self.steps {
            s.push_str(&format!("  {:>width$}. {}\n", step.n, step.text));
        }
        s
    }

    /// The explanation as one line of JSON (no newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }
}

fn status_words(s: SheetStatus) -> &'static str {
    match s {
        SheetStatus::Multiple => "multiple solutions",
        SheetStatus::NoGrid => "no grid",
        other => other.as_str(),
    }
}

/// A sheet name as a formula writes it: `Hard`, `'My puzzles'`.
fn sheet_ref(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    if plain {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\'', "''"))
    }
}

/// What is wrong with a grid, in words, with the map's names; `None` when
/// it was solved.
fn failure(outcome: &Outcome, map: &AddressMap, opts: &SolveOptions) -> Option<String> {
    match outcome.status {
        Status::Solved | Status::GaveUp => None,
        Status::Invalid => Some(conflicts(outcome, map)),
        Status::Unsolvable => Some("the givens have no solution".to_string()),
        Status::Multiple => Some("the givens allow more than one solution".to_string()),
        Status::Timeout => Some(format!(
            "no answer within {}",
            opts.timeout
                .map(|t| format!("{} s", t.as_secs_f64()))
                .unwrap_or_default()
        )),
    }
}

/// `5 twice in row 3 (C3, I3)`, with the map's names.
fn conflicts(outcome: &Outcome, map: &AddressMap) -> String {
    outcome
        .conflicts
        .iter()
        .map(|c| {
            let times = match c.cells.len() {
                2 => "twice".to_string(),
                3 => "three times".to_string(),
                n => format!("{n} times"),
            };
            format!(
                "{} {times} in {} ({})",
                map.digit(c.value),
                map.unit(c.unit),
                map.cells(&c.cells)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn explanation(
    puzzle: &Grid,
    outcome: &Outcome,
    map: &AddressMap,
    error: Option<String>,
) -> GridExplanation {
    let solved = outcome.status == Status::Solved;
    let rating = outcome.rating.filter(|_| solved);
    let side = puzzle.side();
    GridExplanation {
        file: None,
        sheet: None,
        range: None,
        puzzle: None,
        size: Some(format!("{side}x{side}")),
        box_shape: Some(puzzle.shape().to_string()),
        symbols: Some(map.alphabet()),
        givens: Some(puzzle.givens()),
        status: outcome.status.into(),
        rating: rating.map(|r| r.se),
        level: rating.map(|r| r.level),
        score: rating.map(|r| r.score),
        history: outcome.history.clone(),
        elapsed_ms: outcome.elapsed.as_secs_f64() * 1000.0,
        error,
        steps: if solved {
            explain_steps(puzzle, &outcome.steps, map)
        } else {
            Vec::new()
        },
    }
}

/// Solves a text puzzle and explains its steps (cells named `r5c7`).
pub fn explain_puzzle(puzzle: &Grid, opts: &SolveOptions) -> GridExplanation {
    let opts = SolveOptions {
        logic_only: false,
        ..opts.clone()
    };
    let map = AddressMap::puzzle(puzzle.shape());
    let outcome = solve(puzzle, &opts);
    let error = failure(&outcome, &map, &opts);
    GridExplanation {
        puzzle: Some(puzzle.to_line()),
        ..explanation(puzzle, &outcome, &map, error)
    }
}

/// Solves one grid of a sheet and explains its steps with the sheet's
/// addresses. A grid with bad values, formulas without a value or merged
/// cells is invalid, as `check` says, and is not solved.
pub fn explain_grid(
    file: &str,
    sheet: &str,
    grid: &FoundGrid,
    opts: &SolveOptions,
) -> GridExplanation {
    let opts = SolveOptions {
        logic_only: false,
        ..opts.clone()
    };
    let map = AddressMap::for_grid(grid);
    let puzzle = grid.puzzle();
    let clean =
        grid.bad_cells().is_empty() && grid.formula_cells().is_empty() && grid.merged.is_empty();
    let outcome = if clean {
        solve(&puzzle, &opts)
    } else {
        Outcome::invalid(&puzzle)
    };
    let error = if clean {
        failure(&outcome, &map, &opts)
    } else {
        // The cells' own faults in `check`'s words, then the clashes named
        // with the sheet's lines.
        let cells_only = Outcome {
            conflicts: Vec::new(),
            ..outcome.clone()
        };
        let parts: Vec<String> = [
            crate::invalid::invalid_reason(grid, &cells_only),
            conflicts(&outcome, &map),
        ]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
        Some(parts.join("; "))
    };
    GridExplanation {
        file: Some(file.to_string()),
        sheet: Some(sheet.to_string()),
        range: Some(grid.range.to_string()),
        ..explanation(&puzzle, &outcome, &map, error)
    }
}

/// A sheet without a grid: status `no-grid`, with the bordered squares
/// turned down for their values, if any, as the reason.
fn no_grid(file: &str, sheet: &Sheet) -> GridExplanation {
    let reasons: Vec<String> = sheet.turned_down.iter().map(|t| t.to_string()).collect();
    GridExplanation {
        file: Some(file.to_string()),
        sheet: Some(sheet.name.clone()),
        range: None,
        puzzle: None,
        size: None,
        box_shape: None,
        symbols: None,
        givens: None,
        status: SheetStatus::NoGrid,
        rating: None,
        level: None,
        score: None,
        history: String::new(),
        elapsed_ms: 0.0,
        error: (!reasons.is_empty()).then(|| reasons.join("; ")),
        steps: Vec::new(),
    }
}

/// Why a workbook could not be explained.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// The workbook could not be read (the message names the file).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A sheet asked for is not in the workbook.
    #[error("{}: --sheet {}: no such sheet; the sheets are: {}", path.display(), crate::report::shown(.name), sheets.join(", "))]
    NoSuchSheet {
        /// The workbook.
        path: PathBuf,
        /// The name asked for.
        name: String,
        /// The workbook's sheets.
        sheets: Vec<String>,
    },
}

/// Reads a workbook and explains every grid of every sheet (or of the
/// sheets named in `sheets`, case ignored), in workbook order; a sheet
/// without a grid gets a `no-grid` entry. Grids are solved in parallel.
pub fn explain_workbook(
    path: &Path,
    read: &ReadOptions,
    opts: &SolveOptions,
    sheets: &[String],
) -> Result<Vec<GridExplanation>, ExplainError> {
    let book = read_workbook(path, read)?;
    let wanted: Vec<String> = sheets.iter().map(|s| s.to_lowercase()).collect();
    if let Some(missing) = sheets.iter().find(|s| {
        !book
            .iter()
            .any(|b| b.name.to_lowercase() == s.to_lowercase())
    }) {
        return Err(ExplainError::NoSuchSheet {
            path: path.to_path_buf(),
            name: missing.clone(),
            sheets: book.iter().map(|s| s.name.clone()).collect(),
        });
    }
    let file = path.display().to_string();
    let tasks: Vec<(&Sheet, Option<&FoundGrid>)> = book
        .iter()
        .filter(|s| wanted.is_empty() || wanted.contains(&s.name.to_lowercase()))
        .flat_map(|s| {
            let grids: Vec<Option<&FoundGrid>> = if s.grids.is_empty() {
                vec![None]
            } else {
                s.grids.iter().map(Some).collect()
            };
            grids.into_iter().map(move |g| (s, g))
        })
        .collect();
    Ok(tasks
        .par_iter()
        .map(|&(s, g)| match g {
            Some(g) => explain_grid(&file, &s.name, g, opts),
            None => no_grid(&file, s),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{BEYOND, EASY, HARD};

    fn nine() -> BoxShape {
        BoxShape::new(3, 3).unwrap()
    }

    fn step(t: Technique, unit: Option<Unit>, digits: &[u8], cells: &[usize]) -> Step {
        Step {
            technique: t,
            unit,
            digits: digits.to_vec(),
            cells: cells.to_vec(),
            placed: None,
            eliminated: Vec::new(),
            chains: Vec::new(),
        }
    }

    #[test]
    fn sheet_names_follow_the_grid_range() {
        let m = AddressMap::sheet(CellRef::new(2, 2), nine(), Symbols::Numbers);
        assert_eq!(m.cell(0), "C3");
        assert_eq!(m.cell(80), "K11");
        assert_eq!(m.unit(Unit::Row(0)), "row 3");
        assert_eq!(m.unit(Unit::Col(8)), "column K");
        assert_eq!(m.unit(Unit::Box(3)), "box 4");
        let p = AddressMap::puzzle(nine());
        assert_eq!(p.cell(80), "r9c9");
        assert_eq!(p.unit(Unit::Col(6)), "column 7");
    }

    #[test]
    fn letter_alphabets_name_digits_as_the_grid_writes_them() {
        let s16 = BoxShape::new(4, 4).unwrap();
        let z = AddressMap::sheet(CellRef::new(0, 0), s16, Symbols::ZeroThenLetters);
        assert_eq!((z.digit(1), z.digit(16)), ("0".into(), "F".into()));
        assert_eq!(z.alphabet(), "0-9, A-F");
        let p = AddressMap::puzzle(s16);
        assert_eq!((p.digit(9), p.digit(16)), ("9".into(), "G".into()));
        assert_eq!(p.alphabet(), "1-9, A-G");
    }

    fn node(cells: &[usize], digit: u8, on: bool) -> ChainNode {
        ChainNode {
            cells: cells.to_vec(),
            digit,
            on,
        }
    }

    #[test]
    fn chains_are_written_with_the_sheets_cells() {
        let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
        // r1c1 {1,2} – r1c5 {2,3} – r5c5 {3,1}: r1c1 or r5c5 is 1.
        let mut s = step(Technique::XyChain, None, &[1, 2, 3], &[0, 4, 40]);
        s.chains = vec![vec![
            node(&[0], 1, false),
            node(&[0], 2, true),
            node(&[4], 2, false),
            node(&[4], 3, true),
            node(&[40], 3, false),
            node(&[40], 1, true),
        ]];
        s.eliminated = vec![(36, 1)];
        assert_eq!(
            describe(&s, &m, &[]),
            "XY-chain: (1)A1 = (2)A1 – (2)E1 = (3)E1 – (3)E5 = (1)E5: \
             A1 is 1 or E5 is 1: removes 1 from A5"
        );
        // A grouped node names its cells joined by a slash.
        let mut g = step(Technique::GroupedNiceLoop, None, &[4], &[0, 1, 2]);
        g.chains = vec![vec![node(&[0], 4, false), node(&[1, 2], 4, true)]];
        g.eliminated = vec![(9, 4)];
        let text = describe(&g, &m, &[]);
        assert!(
            text.starts_with("grouped AIC: (4)A1 = (4)B1/C1: "),
            "{text}"
        );
        assert!(text.contains("4 is in B1 or C1"), "{text}");
    }

    #[test]
    fn almost_locked_sets_show_their_cells_and_digits() {
        let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
        let mut cands = vec![0u64; 81];
        cands[0] = 0b011;
        cands[3] = 0b101;
        cands[4] = 0b110;
        let mut s = step(Technique::AlsXz, None, &[1, 2], &[0, 3, 4]);
        s.chains = vec![vec![node(&[0], 1, false), node(&[3, 4], 1, false)]];
        s.eliminated = vec![(8, 2)];
        assert_eq!(
            describe(&s, &m, &cands),
            "ALS-XZ: {A1} (1,2) and {D1, E1} (1,2,3) share the restricted common 1, \
             so one of them is locked: removes 2 from I1"
        );
    }

    #[test]
    fn forcing_steps_say_their_premises_and_branches() {
        let m = AddressMap::puzzle(nine());
        // A contradiction net: r1c1 = 5 leads to trouble.
        let mut s = step(Technique::ForcingNet, None, &[5], &[0]);
        s.chains = vec![vec![node(&[0], 5, true), node(&[10], 7, true)]];
        s.eliminated = vec![(0, 5)];
        assert_eq!(
            describe(&s, &m, &[]),
            "forcing net: if r1c1 were 5, a contradiction follows (r2c2 is 7): removes 5 from r1c1"
        );
        // A cell forcing chain: both candidates of r1c1 strike 3 from r9c9.
        let mut c = step(Technique::ForcingChain, None, &[1, 2], &[0, 0]);
        c.chains = vec![
            vec![node(&[0], 1, true), node(&[80], 1, false)],
            vec![
                node(&[0], 2, true),
                node(&[8], 2, false),
                node(&[80], 1, false),
            ],
        ];
        c.eliminated = vec![(80, 1)];
        let text = describe(&c, &m, &[]);
        assert!(
            text.starts_with("forcing chain: each candidate of r1c1 (1,2) leads to the same: "),
            "{text}"
        );
        assert!(text.ends_with(": removes 1 from r9c9"), "{text}");
        assert!(text.contains("(2)r1c1 – (2)r1c9 – (1)r9c9"), "{text}");
    }

    #[test]
    fn x_wing_names_its_rows_and_columns() {
        let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
        let mut s = step(
            Technique::XWing,
            Some(Unit::Row(2)),
            &[4],
            &[2 * 9 + 3, 2 * 9 + 7, 6 * 9 + 3, 6 * 9 + 7],
        );
        s.eliminated = vec![(9 + 7, 4), (8 * 9 + 3, 4)];
        assert_eq!(
            describe(&s, &m, &[]),
            "X-wing on 4 in rows 3 and 7 (columns D, H): removes 4 from H2, D9"
        );
    }

    #[test]
    fn finned_fish_names_its_covers_and_fins() {
        let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
        // Rows 1 and 5, columns B and H, fin I5 (box 6): H4 and H6 lose 1.
        let mut s = step(
            Technique::FinnedXWing,
            Some(Unit::Row(0)),
            &[1],
            &[1, 7, 37, 43, 44],
        );
        s.eliminated = vec![(34, 1), (52, 1)];
        assert_eq!(
            describe(&s, &m, &[]),
            "finned X-wing on 1 in rows 1 and 5 (columns B, H), fin I5: removes 1 from H4, H6"
        );
    }

    #[test]
    fn uniqueness_steps_in_words() {
        let m = AddressMap::puzzle(nine());
        let mut s = step(Technique::UniqueRectangle1, None, &[1, 2], &[0, 3, 9, 12]);
        s.eliminated = vec![(12, 1), (12, 2)];
        assert_eq!(
            describe(&s, &m, &[]),
            "unique rectangle type 1 on 1,2 (r1c1, r1c4, r2c1, r2c4): r1c1, r1c4, r2c1 hold \
             only 1,2, so r2c4 must not: removes 1 from r2c4, 2 from r2c4"
        );
        let mut s = step(Technique::UniqueRectangle4, None, &[1, 2], &[0, 9, 3, 12]);
        s.eliminated = vec![(3, 2), (12, 2)];
        assert_eq!(
            describe(&s, &m, &[]),
            "unique rectangle type 4 on 1,2 (r1c1, r2c1, r1c4, r2c4): 1 has no place in \
             column 4 but r1c4 and r2c4, so neither may be 2: removes 2 from r1c4, r2c4"
        );
        let mut s = step(Technique::HiddenRectangle, None, &[1, 2], &[0, 9, 3, 12]);
        s.eliminated = vec![(12, 2)];
        let text = describe(&s, &m, &[]);
        assert!(
            text.starts_with("hidden rectangle on 1,2 (r1c1, r2c1, r1c4, r2c4): r1c1 holds only 1,2, and 1 has no place in row 2 and column 4"),
            "{text}"
        );
        let mut s = step(Technique::BugPlusOne, None, &[5], &[40]);
        s.placed = Some((40, 5));
        assert_eq!(
            describe(&s, &m, &[]),
            "BUG+1: every blank but r5c5 has two candidates, and 5 has three places in its \
             row, column and box → r5c5 = 5"
        );
    }

    #[test]
    fn patterns_in_words() {
        let m = AddressMap::puzzle(nine());
        // Empty rectangle: box 5's 1s on row 5 and column 5; strong link
        // r5c8-r8c8 (column 8); r8c5 loses 1.
        let mut s = step(
            Technique::EmptyRectangle,
            Some(Unit::Box(4)),
            &[1],
            &[43, 70, 31, 39, 41, 49],
        );
        s.eliminated = vec![(67, 1)];
        assert_eq!(
            describe(&s, &m, &[]),
            "empty rectangle on 1: the places of 1 in box 5 lie on row 5 and column 5; \
             strong link r5c8–r8c8 (column 8): removes 1 from r8c5"
        );
        // Sue de Coq: r1c1, r1c2 with r1c7 (row) and r2c1 (box).
        let mut s = step(
            Technique::SueDeCoq,
            Some(Unit::Row(0)),
            &[1, 2, 3, 4],
            &[0, 1, 6, 9],
        );
        s.eliminated = vec![(3, 1), (10, 3)];
        let text = describe(&s, &m, &[]);
        assert!(
            text.starts_with("Sue de Coq where row 1 crosses box 1: r1c1, r1c2 with r1c7 in the line and r2c1 in the box — 4 cells holding the 4 digits 1,2,3,4: removes"),
            "{text}"
        );
        // Remote pair {1,2}: r1c1 r1c5 r5c5 r5c9.
        let mut s = step(Technique::RemotePair, None, &[1, 2], &[0, 4, 40, 44]);
        s.eliminated = vec![(8, 1), (8, 2)];
        let text = describe(&s, &m, &[]);
        assert!(
            text.contains("so r1c1, r5c5 hold one digit and r1c5, r5c9 the other"),
            "{text}"
        );
    }

    #[test]
    fn naked_pair_groups_removals_by_digit() {
        let m = AddressMap::sheet(CellRef::new(0, 0), nine(), Symbols::Numbers);
        let g = |r: usize| r * 9 + 6;
        let mut s = step(
            Technique::NakedPair,
            Some(Unit::Col(6)),
            &[2, 6],
            &[g(2), g(7)],
        );
        s.eliminated = vec![(g(4), 2), (g(4), 6), (g(8), 6)];
        assert_eq!(
            describe(&s, &m, &[]),
            "naked pair 2,6 in G3, G8 (column G): removes 2 from G5, 6 from G5, G9"
        );
    }

    #[test]
    fn pointing_names_the_box_and_the_line() {
        let m = AddressMap::puzzle(nine());
        let mut s = step(
            Technique::LockedCandidates,
            Some(Unit::Box(0)),
            &[5],
            &[0, 1],
        );
        s.eliminated = vec![(5, 5)];
        assert_eq!(
            describe(&s, &m, &[]),
            "locked candidates (pointing): 5 of box 1 lies only in row 1 (r1c1, r1c2): removes 5 from r1c6"
        );
    }

    #[test]
    fn singles_and_guesses_in_words() {
        let m = AddressMap::puzzle(nine());
        let mut s = step(Technique::NakedSingle, None, &[1], &[4 * 9 + 5]);
        s.placed = Some((4 * 9 + 5, 1));
        assert_eq!(describe(&s, &m, &[]), "naked single: r5c6 = 1");
        s.technique = Technique::Guess;
        assert_eq!(
            describe(&s, &m, &[]),
            "guess: r5c6 = 1 (from the proven solution; the techniques stop here)"
        );
    }

    #[test]
    fn every_placement_of_a_hard_puzzle_agrees_with_its_solution() {
        for line in [EASY, HARD, BEYOND] {
            let p: Grid = line.parse().unwrap();
            let e = explain_puzzle(&p, &SolveOptions::default());
            assert!(e.passes(), "{}", e.heading());
            let sol = solve(&p, &SolveOptions::default()).grid;
            let placed = e.steps.iter().filter_map(|s| s.placed.as_ref()).count();
            assert_eq!(placed, 81 - p.givens());
            for s in &e.steps {
                if let Some(cd) = &s.placed {
                    let (r, c) = parse_rc(&cd.cell);
                    assert_eq!(sol.get(r, c), cd.digit, "{}", s.text);
                }
                assert!(!s.text.is_empty());
            }
        }
    }

    fn parse_rc(s: &str) -> (usize, usize) {
        let (r, c) = s[1..].split_once('c').unwrap();
        (
            r.parse::<usize>().unwrap() - 1,
            c.parse::<usize>().unwrap() - 1,
        )
    }

    #[test]
    fn peers_are_the_row_column_and_box_on_a_6x6() {
        let m = AddressMap::puzzle(BoxShape::new(3, 2).unwrap());
        let i = 6 + 4; // r2c5, box 2 (columns 4-6 of rows 1-2)
        let mut peers: Vec<usize> = m.peers(i).filter(|&j| j != i).collect();
        peers.sort_unstable();
        peers.dedup();
        let want: Vec<usize> = (0..36)
            .filter(|&j| j != i && !m.shared(&[i, j]).is_empty())
            .collect();
        assert_eq!(peers, want);
        assert_eq!(peers.len(), 5 + 5 + 2);
    }

    #[test]
    fn sheet_names_are_quoted_when_a_formula_would() {
        assert_eq!(sheet_ref("Hard"), "Hard");
        assert_eq!(sheet_ref("My puzzles"), "'My puzzles'");
        assert_eq!(sheet_ref("it's"), "'it''s'");
    }
}
