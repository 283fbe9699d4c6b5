//! SE 1.2.1's rules and their base difficulties, in one table. A hint's
//! difficulty is its rule's base, plus the additions some rules make (a
//! chain's length, a unique loop's size, a BUG's extra values).

/// One of Sudoku Explainer's rules (its hint kinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The last empty cell of a region ("alone" hidden single).
    FullHouse,
    /// A digit with one place in a block.
    HiddenSingleBlock,
    /// A digit with one place in a row or column.
    HiddenSingleLine,
    /// Pointing that leaves a hidden single, applied as the placement.
    DirectPointing,
    /// Claiming that leaves a hidden single, applied as the placement.
    DirectClaiming,
    /// A hidden pair that leaves a hidden single in its region.
    DirectHiddenPair,
    /// A cell with one candidate.
    NakedSingle,
    /// A hidden triple that leaves a hidden single in its region.
    DirectHiddenTriple,
    /// A block's digit confined to one line.
    Pointing,
    /// A line's digit confined to one block.
    Claiming,
    /// Naked pair.
    NakedPair,
    /// X-wing.
    XWing,
    /// Hidden pair.
    HiddenPair,
    /// Naked triple.
    NakedTriple,
    /// Swordfish.
    Swordfish,
    /// Hidden triple.
    HiddenTriple,
    /// XY-wing.
    XyWing,
    /// XYZ-wing.
    XyzWing,
    /// Unique rectangle or loop (base; the type and size add).
    UniqueLoop,
    /// Naked quad.
    NakedQuad,
    /// Jellyfish.
    Jellyfish,
    /// Hidden quad.
    HiddenQuad,
    /// Bivalue universal grave, type 1.
    Bug1,
    /// Bivalue universal grave, types 2 to 4 (base).
    Bug,
    /// Aligned pair exclusion.
    AlignedPair,
    /// X- or Y-cycle (base; the length adds).
    Cycle,
    /// XY-cycle.
    XyCycle,
    /// Forcing X- or Y-chain.
    ForcingChain,
    /// Forcing XY-chain.
    XyForcingChain,
    /// Aligned triple exclusion.
    AlignedTriple,
    /// Nishio forcing chain.
    Nishio,
    /// Multiple forcing chains (cell and region).
    Multiple,
    /// Dynamic forcing chains.
    Dynamic,
    /// Dynamic forcing chains with nesting `level` (1: "+", 2: + forcing
    /// chains, 3: + multiple, 4: + dynamic, 5: + dynamic +).
    Nested(u8),
}

impl Rule {
    /// SE's base difficulty of the rule.
    pub fn base(self) -> f64 {
        match self {
            Rule::FullHouse => 1.0,
            Rule::HiddenSingleBlock => 1.2,
            Rule::HiddenSingleLine => 1.5,
            Rule::DirectPointing => 1.7,
            Rule::DirectClaiming => 1.9,
            Rule::DirectHiddenPair => 2.0,
            Rule::NakedSingle => 2.3,
            Rule::DirectHiddenTriple => 2.5,
            Rule::Pointing => 2.6,
            Rule::Claiming => 2.8,
            Rule::NakedPair => 3.0,
            Rule::XWing => 3.2,
            Rule::HiddenPair => 3.4,
            Rule::NakedTriple => 3.6,
            Rule::Swordfish => 3.8,
            Rule::HiddenTriple => 4.0,
            Rule::XyWing => 4.2,
            Rule::XyzWing => 4.4,
            Rule::UniqueLoop => 4.5,
            Rule::NakedQuad => 5.0,
            Rule::Jellyfish => 5.2,
            Rule::HiddenQuad => 5.4,
            Rule::Bug1 => 5.6,
            Rule::Bug => 5.7,
            Rule::AlignedPair => 6.2,
            Rule::Cycle => 6.5,
            Rule::XyCycle => 7.0,
            Rule::ForcingChain => 6.6,
            Rule::XyForcingChain => 7.0,
            Rule::AlignedTriple => 7.5,
            Rule::Nishio => 7.5,
            Rule::Multiple => 8.0,
            Rule::Dynamic => 8.5,
            Rule::Nested(level) => {
                if level >= 2 {
                    9.5 + 0.5 * f64::from(level - 2)
                } else {
                    8.5 + 0.5 * f64::from(level)
                }
            }
        }
    }
}

/// One hint: what it strikes and places, and its difficulty.
#[derive(Debug, Clone, PartialEq)]
pub struct Hint {
    /// The rule that found it.
    pub rule: Rule,
    /// SE's difficulty of this hint.
    pub difficulty: f64,
    /// Candidates struck: (cell, digits as a bit set).
    pub removals: Vec<(u8, u16)>,
    /// The digit placed, if the hint places one: (cell, digit).
    pub place: Option<(u8, u8)>,
}

impl Hint {
    /// A hint that only places a digit.
    pub fn placing(rule: Rule, cell: usize, d: u8) -> Hint {
        Hint {
            rule,
            difficulty: rule.base(),
            removals: Vec::new(),
            place: Some((cell as u8, d)),
        }
    }

    /// A hint that only strikes candidates, at its rule's base difficulty.
    pub fn striking(rule: Rule, removals: Vec<(u8, u16)>) -> Hint {
        Hint {
            rule,
            difficulty: rule.base(),
            removals,
            place: None,
        }
    }

    /// Applies the hint as SE does: strikes, then places.
    pub fn apply(&self, g: &mut super::grid::Grid) {
        for &(c, m) in &self.removals {
            g.cands[c as usize] &= !m;
        }
        if let Some((c, d)) = self.place {
            g.place(c as usize, d);
        }
    }
}

/// Adds `mask` for `cell` to a removal list, merging with an entry for
/// the same cell.
pub fn add_removal(list: &mut Vec<(u8, u16)>, cell: usize, mask: u16) {
    if mask == 0 {
        return;
    }
    match list.iter_mut().find(|(c, _)| *c as usize == cell) {
        Some(e) => e.1 |= mask,
        None => list.push((cell as u8, mask)),
    }
}
