//! Steps in words. Each family of techniques says its own steps (its
//! `say` functions, beside its finders, named in the table's rows); this
//! module holds what they share: how a grid's cells, lines and digits are
//! named ([`Names`], which `explain` gives for a sheet's addresses or a
//! text puzzle's `r5c7`), the words for lists, removals, chains and
//! nodes, and the sentence for a step no family words better.

use std::collections::BTreeMap;

use super::{ChainNode, Step};
use crate::grid::{BoxShape, Unit};

/// How the cells, lines and digits of one grid are named.
pub trait Names {
    /// The grid's box shape.
    fn shape(&self) -> BoxShape;
    /// The name of the cell at a row-major index: `E7`, `r5c7`.
    fn cell(&self, index: usize) -> String;
    /// The label of a line or box without its kind: `7` for a sheet's row
    /// 7, `E` for its column E, `4` for box 4.
    fn label(&self, unit: Unit) -> String;
    /// A digit (`1..=side`) in the grid's alphabet.
    fn digit(&self, d: u8) -> String;
}

/// One step in words, the names given by `names`. `candidates` are the
/// candidates of every cell just before the step (bit `d - 1` for digit
/// `d`, 0 for a filled cell); with an empty slice the words leave out what
/// only the candidates tell (a wing's cell contents).
pub fn describe(step: &Step, names: &dyn Names, candidates: &[u64]) -> String {
    let w = Words {
        names,
        at: Layout(names.shape()),
        cands: candidates,
    };
    (step.technique.info().say)(step, &w).unwrap_or_else(|| w.generic(step))
}

/// A unit as people name it: `row 7`, `column E`, `box 4`.
pub(crate) fn unit_name(names: &dyn Names, unit: Unit) -> String {
    let kind = match unit {
        Unit::Row(_) => "row",
        Unit::Col(_) => "column",
        Unit::Box(_) => "box",
    };
    format!("{kind} {}", names.label(unit))
}

/// Where the cells of a grid of one shape lie: rows, columns, boxes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout(pub(crate) BoxShape);

impl Layout {
    pub(crate) fn side(&self) -> usize {
        self.0.side()
    }

    pub(crate) fn row(&self, i: usize) -> usize {
        i / self.side().max(1)
    }

    pub(crate) fn col(&self, i: usize) -> usize {
        i % self.side().max(1)
    }

    pub(crate) fn box_of(&self, i: usize) -> usize {
        let (w, h) = (self.0.width().max(1), self.0.height().max(1));
        (self.row(i) / h) * (self.side() / w) + self.col(i) / w
    }

    /// The row, column and box of a cell.
    pub(crate) fn units_of(&self, i: usize) -> [Unit; 3] {
        [
            Unit::Row(self.row(i)),
            Unit::Col(self.col(i)),
            Unit::Box(self.box_of(i)),
        ]
    }

    pub(crate) fn contains(&self, unit: Unit, i: usize) -> bool {
        self.units_of(i).contains(&unit)
    }

    /// The units every one of `cells` lies in (rows, columns, boxes).
    pub(crate) fn shared(&self, cells: &[usize]) -> Vec<Unit> {
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
    pub(crate) fn peers(self, i: usize) -> impl Iterator<Item = usize> {
        let n = self.side();
        let (w, h) = (self.0.width().max(1), self.0.height().max(1));
        let (r, c) = (self.row(i), self.col(i));
        let (r0, c0) = (r / h * h, c / w * w);
        (0..n)
            .map(move |k| r * n + k)
            .chain((0..n).map(move |k| k * n + c))
            .chain((0..h * w).map(move |k| (r0 + k / w) * n + c0 + k % w))
    }

    /// The row and column through a box on which every one of `inbox`
    /// lies (an empty rectangle's cross), the one through `x` first.
    pub(crate) fn rectangle_lines(&self, inbox: &[usize], x: usize) -> Option<(usize, usize)> {
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
}

/// What a family's `say` function words a step with: the names, the
/// layout, and the candidates before the step.
pub(in crate::logic) struct Words<'a> {
    names: &'a dyn Names,
    at: Layout,
    /// The candidates of every cell before the step (empty: unknown).
    pub(in crate::logic) cands: &'a [u64],
}

impl std::ops::Deref for Words<'_> {
    type Target = Layout;

    fn deref(&self) -> &Layout {
        &self.at
    }
}

impl Words<'_> {
    pub(in crate::logic) fn cell(&self, index: usize) -> String {
        self.names.cell(index)
    }

    pub(in crate::logic) fn label(&self, unit: Unit) -> String {
        self.names.label(unit)
    }

    pub(in crate::logic) fn unit(&self, unit: Unit) -> String {
        unit_name(self.names, unit)
    }

    pub(in crate::logic) fn digit(&self, d: u8) -> String {
        self.names.digit(d)
    }

    pub(in crate::logic) fn cells(&self, cells: &[usize]) -> String {
        cells
            .iter()
            .map(|&c| self.cell(c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub(in crate::logic) fn digits(&self, digits: &[u8]) -> String {
        digits
            .iter()
            .map(|&d| self.digit(d))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// `removes 2 from G5, 6 from G5, G9`: by digit, cells in reading order.
    pub(in crate::logic) fn removes(&self, eliminated: &[(usize, u8)]) -> String {
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

    /// A cell's candidates as ` (1,2,7)`, or nothing when unknown.
    pub(in crate::logic) fn candidates(&self, cell: usize) -> String {
        match self.cands.get(cell) {
            Some(&m) if m != 0 => format!(" ({})", self.digits(&digit_list(m))),
            _ => String::new(),
        }
    }

    /// A unit holding both `x` and `y` in which `d` has exactly these two
    /// places (rows, then columns, then boxes); without candidates, the
    /// first unit they share.
    pub(in crate::logic) fn strong_unit(&self, d: u8, x: usize, y: usize) -> Option<Unit> {
        let cands = self.cands;
        let shared = self.shared(&[x, y]);
        if cands.len() != self.side() * self.side() {
            return shared.first().copied();
        }
        shared.into_iter().find(|&u| {
            (0..cands.len())
                .filter(|&i| self.contains(u, i) && cands[i] & digit_bit(d) != 0)
                .count()
                == 2
        })
    }

    /// A node as a statement: `C3 is 4`, `C3 is not 4`, `4 is in C3 or D3`.
    pub(in crate::logic) fn node_is(&self, nd: &ChainNode) -> String {
        let d = self.digit(nd.digit);
        match (nd.cells.len(), nd.on) {
            (1, true) => format!("{} is {d}", self.cell(nd.cells[0])),
            (1, false) => format!("{} is not {d}", self.cell(nd.cells[0])),
            (_, true) => format!(
                "{d} is in {}",
                and_list(&nd.cells.iter().map(|&c| self.cell(c)).collect::<Vec<_>>())
                    .replace(" and ", " or ")
            ),
            (_, false) => format!("{d} is not in {}", self.cells(&nd.cells)),
        }
    }

    /// A chain in Eureka notation with the grid's names: `(4)C3 = (4)G3 –
    /// (4)G7 = (4)J7`: `=` before a node made true (a strong link), `–`
    /// before one made false (a weak link); a group's cells joined by `/`.
    pub(in crate::logic) fn chain_text(&self, chain: &[ChainNode]) -> String {
        let mut t = String::new();
        for (k, nd) in chain.iter().enumerate() {
            if k > 0 {
                t.push_str(if nd.on { " = " } else { " – " });
            }
            let cells: Vec<String> = nd.cells.iter().map(|&c| self.cell(c)).collect();
            t.push_str(&format!("({}){}", self.digit(nd.digit), cells.join("/")));
        }
        t
    }

    /// Any other step: name, digits, cells, unit, then what it does.
    fn generic(&self, step: &Step) -> String {
        let mut s = step.technique.name().to_string();
        if !step.digits.is_empty() {
            s.push_str(&format!(" {}", self.digits(&step.digits)));
        }
        if !step.cells.is_empty() {
            s.push_str(&format!(" in {}", self.cells(&step.cells)));
        }
        if let Some(u) = step.unit {
            s.push_str(&format!(" ({})", self.unit(u)));
        }
        let mut effects = Vec::new();
        if let Some((c, d)) = step.placed {
            effects.push(format!("{} = {}", self.cell(c), self.digit(d)));
        }
        if !step.eliminated.is_empty() {
            effects.push(self.removes(&step.eliminated));
        }
        if !effects.is_empty() {
            s.push_str(&format!(": {}", effects.join(", ")));
        }
        s
    }
}

/// A guess in words: where the techniques stop (the cells still open and
/// their candidates), that the rest needs trial and error, and the digit
/// the steps go on from, named as the proven solution's, not as a
/// deduction: `guess: the techniques stop here, with 58 cells open (212
/// candidates); the rest needs trial and error: D11 can be 7 or 9, and the
/// steps go on from D11 = 7, the digit of the proven solution`.
pub(in crate::logic) fn say_guess(step: &Step, w: &Words) -> Option<String> {
    let (c, d) = step.placed?;
    let open: Vec<u64> = w
        .cands
        .iter()
        .copied()
        .filter(|m| m.count_ones() > 1)
        .collect();
    let left: u32 = open.iter().map(|m| m.count_ones()).sum();
    let at = match open.len() {
        0 => String::new(),
        n => format!(", with {n} cells open ({left} candidates)"),
    };
    let options = match w.cands.get(c) {
        Some(&m) if m.count_ones() > 1 => {
            let ds: Vec<String> = digit_list(m).into_iter().map(|x| w.digit(x)).collect();
            format!(
                ": {} can be {}",
                w.cell(c),
                and_list(&ds).replace(" and ", " or ")
            )
        }
        _ => String::new(),
    };
    Some(format!(
        "{}: the techniques stop here{at}; the rest needs trial and error{options}, and the steps go on from {} = {}, the digit of the proven solution",
        step.technique.name(),
        w.cell(c),
        w.digit(d)
    ))
}

/// Digit `d` as a set of digits, none for a digit out of range.
pub(in crate::logic) fn digit_bit(d: u8) -> u64 {
    if (1..=64).contains(&d) {
        1u64 << (d - 1)
    } else {
        0
    }
}

/// The digits of a set of digits, lowest first.
pub(in crate::logic) fn digit_list(mask: u64) -> Vec<u8> {
    (0..64u8)
        .filter(|b| mask & (1u64 << b) != 0)
        .map(|b| b + 1)
        .collect()
}

/// `3 and 7`, `3, 5 and 7`.
pub(in crate::logic) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
