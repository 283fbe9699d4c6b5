//! The colours of a step, after HoDoKu's hint colours (`Options.java`):
//! which cell of a step plays which part, and the fill each part gets.

use crate::grid::BoxShape;
use crate::logic::{Step, Technique};

/// The part a cell plays in a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// The cell the step places a digit in.
    Place,
    /// A cell that loses a candidate.
    Strike,
    /// The first or last cell of a chain.
    ChainEnd,
    /// A fin of a finned or sashimi fish.
    Fin,
    /// A cell of the pattern (the fish's body, the pair, the wing ...).
    Pattern,
    /// A cell the person got wrong.
    Wrong,
}

impl Role {
    /// Every role, in the order a cell playing several takes the first.
    pub const ALL: [Role; 6] = [
        Role::Place,
        Role::Strike,
        Role::Wrong,
        Role::ChainEnd,
        Role::Fin,
        Role::Pattern,
    ];

    /// The fill colour (ARGB), HoDoKu's: place green
    /// (`HINT_CANDIDATE_BACK_COLOR`), strike red
    /// (`HINT_CANDIDATE_DELETE_BACK_COLOR`), fin blue
    /// (`HINT_CANDIDATE_FIN_BACK_COLOR`), chain end violet
    /// (`HINT_CANDIDATE_ENDO_FIN_BACK_COLOR`), pattern yellow
    /// (`AKT_CELL_COLOR`), wrong pink (`INVALID_CELL_COLOR`).
    ///
    /// ```
    /// use xlsudoku::hint::Role;
    /// assert_eq!(Role::Place.argb(), "FF3FDA65");
    /// ```
    pub fn argb(self) -> &'static str {
        match self {
            Role::Place => "FF3FDA65",
            Role::Strike => "FFFF7684",
            Role::Fin => "FF7FBBFF",
            Role::ChainEnd => "FFD8B2FF",
            Role::Pattern => "FFFFFF96",
            Role::Wrong => "FFFFB9B9",
        }
    }

    /// The fill's colour in words, for the guide's table.
    pub fn colour_name(self) -> &'static str {
        match self {
            Role::Place => "green",
            Role::Strike => "red",
            Role::Fin => "blue",
            Role::ChainEnd => "violet",
            Role::Pattern => "yellow",
            Role::Wrong => "pink",
        }
    }

    /// What a cell of this role is, for the guide's table.
    pub fn meaning(self) -> &'static str {
        match self {
            Role::Place => "the cell to place the digit in",
            Role::Strike => "a cell that loses a candidate",
            Role::Wrong => "a wrong cell",
            Role::ChainEnd => "the first or last cell of a chain",
            Role::Fin => "a fin of a finned or sashimi fish",
            Role::Pattern => {
                "a cell of the pattern (the pair, the fish's body, the wing, a chain's inner nodes)"
            }
        }
    }

    /// The role in words, for the legend: `place`, `strike` ...
    pub fn name(self) -> &'static str {
        match self {
            Role::Place => "place",
            Role::Strike => "strike",
            Role::Fin => "fin",
            Role::ChainEnd => "chain end",
            Role::Pattern => "pattern",
            Role::Wrong => "wrong",
        }
    }
}

/// The colours as a Markdown table (fill, colour code, cell), as the
/// guide shows it.
///
/// ```
/// assert!(xlsudoku::hint::markdown_table().contains("| green | `3FDA65` |"));
/// ```
pub fn markdown_table() -> String {
    let mut t = String::from("| fill | RGB | cell |\n|---|---|---|\n");
    for r in Role::ALL {
        t.push_str(&format!(
            "| {} | `{}` | {} |\n",
            r.colour_name(),
            &r.argb()[2..],
            r.meaning()
        ));
    }
    t
}

/// A cell to colour and the part it plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paint {
    /// The cell (row-major index).
    pub cell: usize,
    /// Its part.
    pub role: Role,
}

/// The cells of a step and their parts, in reading order, each cell once
/// (a cell playing several parts takes the first of [`Role::ALL`]).
///
/// ```
/// use xlsudoku::grid::{BoxShape, Unit};
/// use xlsudoku::hint::{paint, Role};
/// use xlsudoku::logic::{Step, Technique};
///
/// let pointing = Step {
///     technique: Technique::LockedCandidates,
///     unit: Some(Unit::Box(0)),
///     digits: vec![4],
///     cells: vec![0, 1],
///     placed: None,
///     eliminated: vec![(5, 4)],
///     chains: vec![],
/// };
/// let roles: Vec<Role> = paint(&pointing, BoxShape::new(3, 3).unwrap()).iter().map(|p| p.role).collect();
/// assert_eq!(roles, [Role::Pattern, Role::Pattern, Role::Strike]);
/// ```
pub fn paint(step: &Step, shape: BoxShape) -> Vec<Paint> {
    let mut roles: std::collections::BTreeMap<usize, Role> = Default::default();
    let mut put = |cell: usize, role: Role| {
        let e = roles.entry(cell).or_insert(role);
        if role < *e {
            *e = role;
        }
    };
    if let Some((c, _)) = step.placed {
        put(c, Role::Place);
    }
    for &(c, _) in &step.eliminated {
        put(c, Role::Strike);
    }
    let fins = fins(step, shape);
    for &c in &step.cells {
        put(
            c,
            if fins.contains(&c) {
                Role::Fin
            } else {
                Role::Pattern
            },
        );
    }
    for chain in &step.chains {
        for (k, node) in chain.iter().enumerate() {
            let end = k == 0 || k + 1 == chain.len();
            for &c in &node.cells {
                put(c, if end { Role::ChainEnd } else { Role::Pattern });
            }
        }
    }
    roles
        .into_iter()
        .map(|(cell, role)| Paint { cell, role })
        .collect()
}

/// The fins of a finned or sashimi fish: its cells in the box of the
/// struck candidates whose cross line (a column for a fish on rows) is no
/// cover line. Cover lines are those of the struck cells and of the fish's
/// cells outside that box.
fn fins(step: &Step, shape: BoxShape) -> Vec<usize> {
    let side = shape.side();
    use Technique::*;
    let finned = matches!(
        step.technique,
        FinnedXWing
            | SashimiXWing
            | FinnedSwordfish
            | SashimiSwordfish
            | FinnedJellyfish
            | SashimiJellyfish
    );
    let Some(&(first, _)) = step.eliminated.first() else {
        return Vec::new();
    };
    if !finned || side == 0 {
        return Vec::new();
    }
    let on_rows = matches!(step.unit, Some(crate::grid::Unit::Row(_)));
    let cross = |c: usize| if on_rows { c % side } else { c / side };
    let (bw, bh) = (shape.width().max(1), shape.height().max(1));
    let box_of = |c: usize| (c / side / bh, c % side / bw);
    let fin_box = box_of(first);
    let mut covers: Vec<usize> = step.eliminated.iter().map(|&(c, _)| cross(c)).collect();
    covers.extend(
        step.cells
            .iter()
            .filter(|&&c| box_of(c) != fin_box)
            .map(|&c| cross(c)),
    );
    step.cells
        .iter()
        .copied()
        .filter(|&c| box_of(c) == fin_box && !covers.contains(&cross(c)))
        .collect()
}
