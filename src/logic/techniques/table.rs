//! The technique table: every technique of the ladder with its history
//! letter, its name, its Sudoku Explainer rating and its HoDoKu level and
//! score, in the order the ladder tries them. Adding a technique means one
//! row here and one solver file beside this one.
//!
//! ```
//! use xlsudoku::logic::{Ladder, Technique};
//!
//! let info = Technique::XWing.info();
//! assert_eq!(info.letter, Some('x'));
//! assert_eq!(info.name, "X-wing");
//! assert_eq!(info.hodoku_score, 140);
//! // `seed` is the old macro's ladder; `all` is every technique.
//! assert!(!Ladder::seed().contains(Technique::XWing));
//! assert!(Ladder::all().contains(Technique::XWing));
//! let only: Ladder = "i,!,x".parse().unwrap();
//! assert!(only.contains(Technique::XWing) && !only.contains(Technique::HiddenPair));
//! ```

use std::fmt;
use std::str::FromStr;

use super::chains::Kind;
use super::fish::Fish;
use super::intersections::Intersections;
use super::single_digit::Pattern;
use super::single_digit::SingleDigit;
use super::singles::Singles;
use super::sue_de_coq::SueDeCoq;
use super::wings::Wings;
use super::{
    als, chains, colouring, finned_fish, fish, forcing, intersections, single_digit, singles,
    subsets, sue_de_coq, uniqueness, wings, Families,
};
use crate::logic::memo::Run;
use crate::logic::words::{self, Words};
use crate::logic::{Board, Step};

/// A technique of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Technique {
    /// A cell with one candidate left (filled without a letter).
    NakedSingle,
    /// A digit with one place in a unit (`i`).
    HiddenSingle,
    /// A naked pair whose two cells share a box and a line: strikes in both (`2`).
    LockedPair,
    /// A naked triple whose cells share a box and a line: strikes in both (`3`).
    LockedTriple,
    /// A digit of a box confined to one line, or of a line to one box (`!`).
    LockedCandidates,
    /// Two cells of a unit holding the same two candidates (`2`).
    NakedPair,
    /// Three cells of a unit holding three candidates between them (`3`).
    NakedTriple,
    /// Two digits confined to the same two cells of a unit (`*`).
    HiddenPair,
    /// Three digits confined to the same three cells of a unit (`^`).
    HiddenTriple,
    /// Four cells of a unit holding four candidates between them (`4`).
    NakedQuad,
    /// Four digits confined to the same four cells of a unit (`&`).
    HiddenQuad,
    /// A digit confined to two columns in two rows, or the transpose (`x`).
    XWing,
    /// The same on three lines (`s`).
    Swordfish,
    /// The same on four lines (`j`).
    Jellyfish,
    /// A chain of four or more cells holding the same two candidates, each
    /// seeing the next: cells seeing two of opposite parity lose both (`r`).
    RemotePair,
    /// Bivalue universal grave + 1: every blank but one has two
    /// candidates; the odd digit of the one is its value (`b`; uniqueness).
    BugPlusOne,
    /// Two strong links on a digit, both in rows or both in columns,
    /// joined across (`k`).
    Skyscraper,
    /// A strong link in a row and one in a column, joined in a box (`t`).
    TwoStringKite,
    /// Two strong links joined otherwise, a box link among them (`o`).
    TurbotFish,
    /// A box whose places for a digit lie on one row and one column,
    /// joined to a strong link (`e`).
    EmptyRectangle,
    /// Two equal pairs joined by a strong link on one of their digits (`w`).
    WWing,
    /// A pair pivot with two pair pincers (`y`).
    XyWing,
    /// A three-candidate pivot with two pair pincers (`z`).
    XyzWing,
    /// Unique rectangle type 1: three corners hold only the pair, the
    /// fourth loses it (`u`; uniqueness).
    UniqueRectangle1,
    /// Unique rectangle type 2: two corners hold the pair plus the same
    /// extra digit, struck from cells seeing both (`u`; uniqueness).
    UniqueRectangle2,
    /// Unique rectangle type 3: the extras of two corners form a naked
    /// subset with other cells of their unit (`u`; uniqueness).
    UniqueRectangle3,
    /// Unique rectangle type 4: one digit of the pair is locked in the two
    /// corners' unit, so they lose the other (`u`; uniqueness).
    UniqueRectangle4,
    /// Hidden rectangle: a pair corner and strong links on one digit
    /// through the opposite corner, which loses the other (`h`; uniqueness).
    HiddenRectangle,
    /// A fish whose base lines hold extra places (fins) in one box: only
    /// cells seeing every fin are struck (`f`).
    FinnedXWing,
    /// A finned X-wing with a base line of one body cell (`f`).
    SashimiXWing,
    /// Finned swordfish (`f`).
    FinnedSwordfish,
    /// Sashimi swordfish (`f`).
    SashimiSwordfish,
    /// Finned jellyfish (`f`).
    FinnedJellyfish,
    /// Sashimi jellyfish (`f`).
    SashimiJellyfish,
    /// Sue de Coq: cells of a box-line intersection with two almost locked
    /// sets, one in the line and one in the box (`q`).
    SueDeCoq,
    /// Simple colouring: a digit's strong links coloured in two colours
    /// (trap: a cell seeing both colours; wrap: a colour seeing itself) (`c`).
    SimpleColouring,
    /// Multi-colouring: two colour clusters of one digit joined by a weak
    /// link (`m`).
    MultiColouring,
    /// An alternating chain of strong and weak links on one digit whose
    /// ends hold the digit between them (`X`).
    XChain,
    /// A chain of pair cells, each linked to the next by a shared digit,
    /// whose ends hold the same digit between them (`Y`).
    XyChain,
    /// An alternating inference chain (a nice loop) mixing links in cells
    /// and in units: one of its ends is true (`A`).
    NiceLoop,
    /// The same with grouped nodes: a digit's places in a box and line
    /// taken together (`A`).
    GroupedNiceLoop,
    /// Two almost locked sets joined by a restricted common digit (`L`).
    AlsXz,
    /// Three almost locked sets: a pivot joined to two others by two
    /// restricted common digits (`M`).
    AlsXyWing,
    /// A chain of almost locked sets joined by restricted common digits
    /// (`C`).
    AlsChain,
    /// Chains from every candidate of a cell or every place of a digit in a
    /// unit that agree, or from one candidate to a contradiction (`F`).
    ForcingChain,
    /// The same where a step follows from several earlier ones together
    /// (singles across the whole grid), a net rather than a chain (`N`).
    ForcingNet,
    /// A value taken from the known solution when the techniques stop (`#`).
    Guess,
}

/// HoDoKu's difficulty levels: a puzzle's level is the highest level of
/// the techniques its solution needs.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Singles only.
    Easy,
    /// Locked candidates, pairs and triples.
    Medium,
    /// Quads, basic fish, wings, single-digit patterns, uniqueness.
    Hard,
    /// Finned fish, chains, almost locked sets.
    Unfair,
    /// Forcing chains and nets, guessing.
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
    ];
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                let names = Level::ALL.map(|l| l.to_string());
                let near = crate::suggest::closest(s.trim(), names.iter().map(String::as_str))
                    .map(|n| format!(" (did you mean {n}?)"))
                    .unwrap_or_default();
                format!("unknown level {s:?}{near}: easy, medium, hard, unfair or extreme")
            })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        })
    }
}

/// One row of the technique table.
#[derive(Debug, Clone, Copy)]
pub struct TechniqueInfo {
    /// The technique.
    pub technique: Technique,
    /// The letter the history records (`None`: silent, as naked singles).
    pub letter: Option<char>,
    /// The name in words, as `explain` prints it.
    pub name: &'static str,
    /// Short names accepted by `--techniques` besides the letter.
    pub key: &'static str,
    /// Sudoku Explainer's rating of one such step (the line variant where
    /// SE rates a box and a line differently: hidden single 1.2 in a box,
    /// 1.5 in a line; pointing 2.6, claiming 2.8).
    pub se_rating: f32,
    /// HoDoKu's level for the technique.
    pub level: Level,
    /// HoDoKu's score for one application.
    pub hodoku_score: u32,
    /// What the ladder and its memo need to know of the technique: `K`,
    /// `V`, `X`, `U` below.
    traits: u8,
    /// The search for one step of the technique on a board: true when it
    /// found one and took it.
    pub(in crate::logic) find: fn(&mut Families, &mut Board, &mut Run) -> bool,
    /// The step in words, beside the finder in the family's file
    /// (`None`: the generic words).
    pub(in crate::logic) say: fn(&Step, &Words) -> Option<String>,
}

/// Kept: a step found in a position is noted for a second run on the
/// same puzzle ([`Solver::note_findings`](crate::logic::Solver)). Not for
/// singles, which cost less than a copy, nor for steps that depend on the
/// run: forcing chains and nets (which try first the premises that
/// concluded before), X- and XY-chains (whose choice is HoDoKu's or
/// Sudoku Explainer's).
const K: u8 = 1;
/// Searched in vain: the position of the technique's last search in vain
/// is kept, and units unchanged since are skipped (`memo/facts.rs`). For
/// the techniques that read a unit's cells (Sue de Coq: a line's and a
/// box's) and strike in that unit or in one other that shares their
/// pattern's cells, and ALS-XZ and the ALS-XY-wing, whose patterns of
/// sets carried since strike nothing.
const V: u8 = 2;
/// Not in Sudoku Explainer 1.2.1, whose run goes without it. SE's chains
/// are made of single candidates, so an AIC with grouped nodes is not
/// among them (SE finds what one strikes only with its dynamic forcing
/// chains, rated 8.5 and up); with links through cells alone SE looks for
/// loops only ("Forcing Y-Chains do not exist"), so an XY-chain or a
/// remote pair that is no loop is one of its forcing chains (7.0 +
/// length): the AIC search, which finds them too, the shortest first,
/// stands for them. SE has no Sue de Coq, ALS or hidden rectangle.
const X: u8 = 4;
/// Uniqueness: holds only for a puzzle with one solution, used only on a
/// board told so ([`Solver::assume_unique`](crate::logic::Solver::assume_unique)(crate::logic::Board::assume_unique)).
const U: u8 = 8;

impl TechniqueInfo {
    /// Whether a step found is noted for a second run on the puzzle.
    pub(in crate::logic) fn kept(&self) -> bool {
        self.traits & K != 0
    }

    /// Whether the position of the last search in vain is kept.
    pub(in crate::logic) fn in_vain_kept(&self) -> bool {
        self.traits & V != 0
    }

    /// Whether Sudoku Explainer 1.2.1 has the technique (its run uses
    /// only those).
    pub fn in_sudoku_explainer(&self) -> bool {
        self.traits & X == 0
    }

    /// Whether the technique holds only for a puzzle with one solution
    /// (unique rectangles, hidden rectangle, BUG+1).
    pub fn needs_uniqueness(&self) -> bool {
        self.traits & U != 0
    }
}

macro_rules! row {
    ($t:ident, $letter:expr, $name:expr, $key:expr, $se:expr, $level:ident, $score:expr, $traits:expr, $find:expr, $say:expr) => {
        TechniqueInfo {
            technique: Technique::$t,
            letter: $letter,
            name: $name,
            key: $key,
            se_rating: $se,
            level: Level::$level,
            hodoku_score: $score,
            traits: $traits,
            find: $find,
            say: $say,
        }
    };
}

/// Every technique, in the order the ladder tries them (HoDoKu 2.2's
/// default order; SE ratings from Sudoku Explainer 1.2.1; HoDoKu levels and
/// scores from HoDoKu 2.2's defaults). The guess closes the table.
///
/// Sudoku Explainer has no empty rectangle, remote pair, finned fish,
/// colouring or Sue de Coq: SE proves those eliminations with its chains
/// (X-cycles and XY-chains from 6.5, longer chains higher), so their rows
/// carry the rating SE gives the shortest chain that makes the same
/// deduction (6.6 for a four-link chain, a tenth more per extra pair of
/// links), and Sue de Coq that of SE's shortest forcing chain (7.0). The
/// uniqueness rows (`u` `h` `b`) are used only on a board told that its
/// puzzle has one solution ([`Solver::assume_unique`](crate::logic::Solver::assume_unique)(crate::logic::Board::assume_unique)).
/// SE rates a unique rectangle 4.5 whatever its type, plus a tenth per
/// digit beyond two in a type 3's naked set (the pair's row says 4.6);
/// SE has no hidden rectangle, whose deduction is its type 4's (4.5).
#[rustfmt::skip]
pub const TABLE: &[TechniqueInfo] = &[
    //   technique         letter     name                 key                  SE   level    score traits find say
    row!(NakedSingle,      None,      "naked single",      "naked-single",      2.3, Easy,    4, 0, |_, b, _| Singles.find_naked_single(b), singles::say),
    row!(HiddenSingle,     Some('i'), "hidden single",     "hidden-single",     1.5, Easy,    14, 0, |_, b, _| Singles.find_hidden_single(b), singles::say),
    row!(LockedPair,       Some('2'), "locked pair",       "locked-pair",       3.0, Medium,  40, K | V, |f, b, r| f.subsets.naked_subset(b, r, 2, true), subsets::say),
    row!(LockedTriple,     Some('3'), "locked triple",     "locked-triple",     3.6, Medium,  60, K | V, |f, b, r| f.subsets.naked_subset(b, r, 3, true), subsets::say),
    row!(LockedCandidates, Some('!'), "locked candidates", "locked-candidates", 2.6, Medium,  50, K | V, |_, b, r| Intersections.locked_candidates(b, r), intersections::say),
    row!(NakedPair,        Some('2'), "naked pair",        "naked-pair",        3.0, Medium,  60, K | V, |f, b, r| f.subsets.naked_subset(b, r, 2, false), subsets::say),
    row!(NakedTriple,      Some('3'), "naked triple",      "naked-triple",      3.6, Medium,  80, K | V, |f, b, r| f.subsets.naked_subset(b, r, 3, false), subsets::say),
    row!(HiddenPair,       Some('*'), "hidden pair",       "hidden-pair",       3.4, Medium,  70, K | V, |f, b, r| f.subsets.hidden_subset(b, r, 2), subsets::say),
    row!(HiddenTriple,     Some('^'), "hidden triple",     "hidden-triple",     4.0, Medium,  100, K | V, |f, b, r| f.subsets.hidden_subset(b, r, 3), subsets::say),
    row!(NakedQuad,        Some('4'), "naked quad",        "naked-quad",        5.0, Hard,    120, K | V, |f, b, r| f.subsets.naked_subset(b, r, 4, false), subsets::say),
    row!(HiddenQuad,       Some('&'), "hidden quad",       "hidden-quad",       5.4, Hard,    150, K | V, |f, b, r| f.subsets.hidden_subset(b, r, 4), subsets::say),
    row!(XWing,            Some('x'), "X-wing",            "x-wing",            3.2, Hard,    140, K, |_, b, r| Fish.basic_fish(b, r, 2), fish::say),
    row!(Swordfish,        Some('s'), "swordfish",         "swordfish",         3.8, Hard,    150, K, |_, b, r| Fish.basic_fish(b, r, 3), fish::say),
    row!(Jellyfish,        Some('j'), "jellyfish",         "jellyfish",         5.2, Hard,    160, K, |_, b, r| Fish.basic_fish(b, r, 4), fish::say),
    row!(RemotePair,       Some('r'), "remote pair",       "remote-pair",       7.0, Hard,    110, K | X, |f, b, _| f.colouring.remote_pair(b), colouring::say),
    row!(BugPlusOne,       Some('b'), "BUG+1",             "bug-plus-1",        5.6, Hard,    100, K | U, |f, b, _| f.uniqueness.bug_plus_one(b), uniqueness::say),
    row!(Skyscraper,       Some('k'), "skyscraper",        "skyscraper",        6.6, Hard,    130, K, |_, b, r| SingleDigit.single_digit(b, r, Pattern::Skyscraper), single_digit::say),
    row!(TwoStringKite,    Some('t'), "2-string kite",     "2-string-kite",     6.6, Hard,    150, K, |_, b, r| SingleDigit.single_digit(b, r, Pattern::Kite), single_digit::say),
    row!(TurbotFish,       Some('o'), "turbot fish",       "turbot-fish",       6.6, Hard,    120, K, |_, b, r| SingleDigit.single_digit(b, r, Pattern::Turbot), single_digit::say),
    row!(EmptyRectangle,   Some('e'), "empty rectangle",   "empty-rectangle",   6.6, Hard,    120, K, |_, b, r| SingleDigit.empty_rectangle(b, r), single_digit::say),
    row!(WWing,            Some('w'), "W-wing",            "w-wing",            7.1, Hard,    150, K, |_, b, _| Wings.w_wing(b), wings::say),
    row!(XyWing,           Some('y'), "XY-wing",           "xy-wing",           4.2, Hard,    160, K, |_, b, _| Wings.xy_wing(b, false), wings::say),
    row!(XyzWing,          Some('z'), "XYZ-wing",          "xyz-wing",          4.4, Hard,    180, K, |_, b, _| Wings.xy_wing(b, true), wings::say),
    row!(UniqueRectangle1, Some('u'), "unique rectangle type 1", "unique-rectangle-1", 4.5, Hard, 100, K | U, |f, b, _| f.uniqueness.unique_rectangle(b, 1), uniqueness::say),
    row!(UniqueRectangle2, Some('u'), "unique rectangle type 2", "unique-rectangle-2", 4.5, Hard, 100, K | U, |f, b, _| f.uniqueness.unique_rectangle(b, 2), uniqueness::say),
    row!(UniqueRectangle3, Some('u'), "unique rectangle type 3", "unique-rectangle-3", 4.6, Hard, 100, K | U, |f, b, _| f.uniqueness.unique_rectangle(b, 3), uniqueness::say),
    row!(UniqueRectangle4, Some('u'), "unique rectangle type 4", "unique-rectangle-4", 4.5, Hard, 100, K | U, |f, b, _| f.uniqueness.unique_rectangle(b, 4), uniqueness::say),
    row!(HiddenRectangle,  Some('h'), "hidden rectangle",  "hidden-rectangle",  4.5, Hard,    100, K | U | X, |f, b, _| f.uniqueness.hidden_rectangle(b), uniqueness::say),
    row!(FinnedXWing,      Some('f'), "finned X-wing",     "finned-x-wing",     6.6, Hard,    130, K, |f, b, r| f.finned_fish.finned_fish(b, r, 2, false), finned_fish::say),
    row!(SashimiXWing,     Some('f'), "sashimi X-wing",    "sashimi-x-wing",    6.6, Hard,    150, K, |f, b, r| f.finned_fish.finned_fish(b, r, 2, true), finned_fish::say),
    row!(FinnedSwordfish,  Some('f'), "finned swordfish",  "finned-swordfish",  6.8, Unfair,  200, K, |f, b, r| f.finned_fish.finned_fish(b, r, 3, false), finned_fish::say),
    row!(SashimiSwordfish, Some('f'), "sashimi swordfish", "sashimi-swordfish", 6.8, Unfair,  240, K, |f, b, r| f.finned_fish.finned_fish(b, r, 3, true), finned_fish::say),
    row!(FinnedJellyfish,  Some('f'), "finned jellyfish",  "finned-jellyfish",  7.0, Unfair,  250, K, |f, b, r| f.finned_fish.finned_fish(b, r, 4, false), finned_fish::say),
    row!(SashimiJellyfish, Some('f'), "sashimi jellyfish", "sashimi-jellyfish", 7.0, Unfair,  260, K, |f, b, r| f.finned_fish.finned_fish(b, r, 4, true), finned_fish::say),
    row!(SueDeCoq,         Some('q'), "Sue de Coq",        "sue-de-coq",        7.0, Unfair,  250, K | V | X, |_, b, r| SueDeCoq.sue_de_coq(b, r), sue_de_coq::say),
    row!(SimpleColouring,  Some('c'), "simple colouring",  "simple-colouring",  6.7, Hard,    150, K, |f, b, r| f.colouring.simple_colouring(b, r), colouring::say),
    row!(MultiColouring,   Some('m'), "multi-colouring",   "multi-colouring",   6.8, Hard,    200, K, |f, b, r| f.colouring.multi_colouring(b, r), colouring::say),
    row!(XChain,           Some('X'), "X-chain",           "x-chain",           6.6, Unfair,  260, 0, |f, b, r| f.chains.chain(b, r, Kind::X), chains::say),
    row!(XyChain,          Some('Y'), "XY-chain",          "xy-chain",          7.0, Unfair,  260, X, |f, b, r| f.chains.chain(b, r, Kind::Xy), chains::say),
    row!(NiceLoop,         Some('A'), "AIC",               "aic",               7.0, Unfair,  280, K, |f, b, r| f.chains.chain(b, r, Kind::Aic), chains::say),
    row!(GroupedNiceLoop,  Some('A'), "grouped AIC",       "grouped-aic",       7.0, Unfair,  300, K | X, |f, b, r| f.chains.chain(b, r, Kind::Grouped), chains::say),
    row!(AlsXz,            Some('L'), "ALS-XZ",            "als-xz",            7.5, Unfair,  300, K | V | X, |f, b, r| f.als.als_xz(b, r), als::say),
    row!(AlsXyWing,        Some('M'), "ALS-XY-wing",       "als-xy-wing",       8.0, Unfair,  320, K | V | X, |f, b, r| f.als.als_xy_wing(b, r), als::say),
    row!(AlsChain,         Some('C'), "ALS chain",         "als-chain",         8.0, Unfair,  340, K | X, |f, b, r| f.als.als_chain(b, r), als::say),
    row!(ForcingChain,     Some('F'), "forcing chain",     "forcing-chain",     8.0, Extreme, 500, 0, |f, b, r| f.forcing.forcing(b, r, &mut f.chains, false), forcing::say),
    row!(ForcingNet,       Some('N'), "forcing net",       "forcing-net",       8.5, Extreme, 700, 0, |f, b, r| f.forcing.forcing(b, r, &mut f.chains, true), forcing::say),
    row!(Guess,            Some('#'), "guess",             "guess",             11.0, Extreme, 20000, K, |_, _, _| false, words::say_guess),
];

/// How many techniques there are: the guess is the last variant.
const COUNT: usize = Technique::Guess as usize + 1;

/// Each technique's row in [`TABLE`], by the enum's number. Built when
/// compiling: a technique without a row, or with two, fails the build.
const ROW_OF: [u8; COUNT] = {
    assert!(
        TABLE.len() == COUNT,
        "one row per technique, the guess last"
    );
    let mut rows = [u8::MAX; COUNT];
    let mut k = 0;
    while k < TABLE.len() {
        let t = TABLE[k].technique as usize;
        assert!(rows[t] == u8::MAX, "a technique has two rows");
        rows[t] = k as u8;
        k += 1;
    }
    let mut t = 0;
    while t < COUNT {
        assert!(rows[t] != u8::MAX, "a technique has no row");
        t += 1;
    }
    rows
};

impl Technique {
    /// The technique as one bit of a set of techniques (there are fewer
    /// than 64; a unit test checks it).
    ///
    /// ```
    /// use xlsudoku::logic::Technique;
    ///
    /// assert_ne!(Technique::XWing.bit(), Technique::Swordfish.bit());
    /// assert_eq!(Technique::XWing.bit().count_ones(), 1);
    /// ```
    pub fn bit(self) -> u64 {
        1u64 << (self as u32 % 64)
    }

    /// The technique's row of [`TABLE`].
    pub fn info(self) -> &'static TechniqueInfo {
        &TABLE[ROW_OF[self as usize] as usize]
    }

    /// The letter the history string records, `None` for a naked single.
    pub fn letter(self) -> Option<char> {
        self.info().letter
    }

    /// The technique's name in words, as `explain` prints it.
    pub fn name(self) -> &'static str {
        self.info().name
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which techniques the ladder may use, tried in [`TABLE`] order. Naked
/// singles are always on (they are how a placement spreads); the guess is
/// not a technique here: whether to guess is the caller's choice.
///
/// Parsed from `seed` (the old VBA macro's four techniques: hidden single,
/// locked candidates, hidden pair, hidden triple — its exact history),
/// `all` (every technique, the default) or a comma-separated list of
/// letters and names (`i,!,2,x` or `hidden-single,x-wing`; a letter names
/// every technique that records it, so `2` is naked and locked pairs).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ladder {
    /// Bit `k` set: `TABLE[k]` is used.
    used: u64,
}

impl Ladder {
    /// The seed macro's ladder.
    pub fn seed() -> Ladder {
        Ladder::of(&[
            Technique::HiddenSingle,
            Technique::LockedCandidates,
            Technique::HiddenPair,
            Technique::HiddenTriple,
        ])
    }

    /// Every technique.
    pub fn all() -> Ladder {
        Ladder::of(
            &TABLE
                .iter()
                .map(|i| i.technique)
                .filter(|&t| t != Technique::Guess)
                .collect::<Vec<_>>(),
        )
    }

    /// A ladder of these techniques (naked singles added).
    pub fn of(techniques: &[Technique]) -> Ladder {
        let mut used = 0u64;
        for (k, info) in TABLE.iter().enumerate() {
            if info.technique == Technique::NakedSingle
                || (info.technique != Technique::Guess && techniques.contains(&info.technique))
            {
                used |= 1 << k;
            }
        }
        Ladder { used }
    }

    /// Whether the ladder uses this technique.
    pub fn contains(&self, t: Technique) -> bool {
        self.techniques().any(|u| u == t)
    }

    /// The techniques used, in the order they are tried.
    pub fn techniques(&self) -> impl Iterator<Item = Technique> + '_ {
        TABLE
            .iter()
            .enumerate()
            .filter(|(k, _)| self.used & (1 << k) != 0)
            .map(|(_, i)| i.technique)
    }

    /// The canonical spelling: `seed`, `all`, or the letters in table order
    /// (`i!x`), as the up-to-date stamp records it.
    pub fn spelling(&self) -> String {
        if *self == Ladder::seed() {
            return "seed".to_string();
        }
        if *self == Ladder::all() {
            return "all".to_string();
        }
        let mut s = String::new();
        for t in self.techniques() {
            if let Some(l) = t.letter() {
                if !s.contains(l) {
                    s.push(l);
                }
            }
        }
        s
    }
}

impl Default for Ladder {
    fn default() -> Self {
        Ladder::all()
    }
}

impl fmt::Display for Ladder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spelling())
    }
}

/// A `--techniques` value that names no technique.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown technique {0:?}: use seed, all, or letters/names from the technique table ({letters}; hidden-single, x-wing, ...; `xlsudoku techniques` lists them)", letters = pickable_letters())]
pub struct UnknownTechnique(pub String);

/// The letters `--techniques` takes, in table order, each once, space
/// separated (`i 2 3 ! …`): read off [`TABLE`].
pub fn pickable_letters() -> String {
    let mut seen = String::new();
    for l in pickable().filter_map(|i| i.letter) {
        if !seen.contains(l) {
            seen.push(l);
        }
    }
    seen.chars().map(String::from).collect::<Vec<_>>().join(" ")
}

/// The key to the history string, one letter a line with the techniques
/// that record it (`i  hidden single`), in table order: what `--help`, the
/// man page and the docs print, read off [`TABLE`].
///
/// ```
/// let key = xlsudoku::logic::letter_key();
/// assert!(key.lines().any(|l| l == "i  hidden single"));
/// assert!(key.lines().any(|l| l == "#  guess"));
/// ```
pub fn letter_key() -> String {
    let mut rows: Vec<(char, Vec<&str>)> = Vec::new();
    for info in TABLE {
        let Some(letter) = info.letter else { continue };
        match rows.iter_mut().find(|(l, _)| *l == letter) {
            Some((_, names)) => names.push(info.name),
            None => rows.push((letter, vec![info.name])),
        }
    }
    rows.iter()
        .map(|(l, names)| format!("{l}  {}", names.join(", ")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The technique table in Markdown, one row per technique in the order the
/// ladder tries them: letter, name, `--techniques` key, SE rating, HoDoKu
/// level and score. The user guide carries it, and a test keeps the two
/// equal.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| letter | technique | key | SE | HoDoKu level | score |\n|---|---|---|---|---|---|\n",
    );
    for i in TABLE {
        let letter = match i.letter {
            Some(l) => format!("`{l}`"),
            None => "(none)".to_string(),
        };
        out.push_str(&format!(
            "| {letter} | {} | `{}` | {:.1} | {} | {} |\n",
            i.name, i.key, i.se_rating, i.level, i.hodoku_score
        ));
    }
    out
}

/// The rows `--techniques` may name: all but the guess.
fn pickable() -> impl Iterator<Item = &'static TechniqueInfo> {
    TABLE.iter().filter(|i| i.technique != Technique::Guess)
}

impl FromStr for Ladder {
    type Err = UnknownTechnique;

    fn from_str(s: &str) -> Result<Ladder, UnknownTechnique> {
        match s.trim().to_ascii_lowercase().as_str() {
            "seed" => return Ok(Ladder::seed()),
            "all" => return Ok(Ladder::all()),
            _ => {}
        }
        let mut picked = Vec::new();
        for word in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let lower = word.to_ascii_lowercase();
            let by_name: Vec<Technique> = pickable()
                .filter(|i| i.key == lower || i.name.eq_ignore_ascii_case(word))
                .map(|i| i.technique)
                .collect();
            if !by_name.is_empty() {
                picked.extend(by_name);
                continue;
            }
            // A run of letters, as the stamp spells a ladder: `i!x`.
            for c in word.chars() {
                let by_letter: Vec<Technique> = pickable()
                    .filter(|i| i.letter == Some(c))
                    .map(|i| i.technique)
                    .collect();
                if by_letter.is_empty() {
                    return Err(UnknownTechnique(word.to_string()));
                }
                picked.extend(by_letter);
            }
        }
        if picked.is_empty() {
            return Err(UnknownTechnique(s.to_string()));
        }
        Ok(Ladder::of(&picked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_technique_has_one_row_and_keys_are_unique() {
        for (k, a) in TABLE.iter().enumerate() {
            assert_eq!(a.technique.info().technique, a.technique);
            for b in &TABLE[k + 1..] {
                assert_ne!(a.technique, b.technique);
                assert_ne!(a.key, b.key);
                assert_ne!(a.technique.bit(), b.technique.bit());
            }
        }
        assert_eq!(TABLE.last().map(|i| i.technique), Some(Technique::Guess));
        assert!(TABLE.len() <= 64);
    }

    #[test]
    fn every_variant_of_the_enum_has_a_row() {
        // The enum's variants are numbered 0..=Guess (the guess stays the
        // last variant); each number must have a row, so a variant added
        // without one fails here rather than taking the guess's row.
        let mut covered = vec![false; Technique::Guess as usize + 1];
        for i in TABLE {
            covered[i.technique as usize] = true;
        }
        let missing: Vec<usize> = (0..covered.len()).filter(|&k| !covered[k]).collect();
        assert!(missing.is_empty(), "variants without a row: {missing:?}");
    }

    #[test]
    fn the_key_and_the_unknown_technique_message_are_read_off_the_table() {
        let key = letter_key();
        for info in TABLE {
            if let Some(l) = info.letter {
                let line = key
                    .lines()
                    .find(|k| k.starts_with(&format!("{l}  ")))
                    .unwrap();
                assert!(line.contains(info.name), "{line}");
            }
        }
        assert_eq!(
            key.lines().count(),
            pickable_letters().split(' ').count() + 1
        );
        let message = "?".parse::<Ladder>().unwrap_err().to_string();
        assert!(message.contains(&pickable_letters()), "{message}");
        assert!(
            !pickable_letters().contains('#'),
            "the guess is not pickable"
        );
        let table = markdown_table();
        assert_eq!(table.lines().count(), TABLE.len() + 2);
        assert!(
            table.contains("| `x` | X-wing | `x-wing` | 3.2 | hard | 140 |"),
            "{table}"
        );
    }

    #[test]
    fn seed_letters_are_kept() {
        assert_eq!(Technique::HiddenSingle.letter(), Some('i'));
        assert_eq!(Technique::LockedCandidates.letter(), Some('!'));
        assert_eq!(Technique::HiddenPair.letter(), Some('*'));
        assert_eq!(Technique::HiddenTriple.letter(), Some('^'));
        assert_eq!(Technique::Guess.letter(), Some('#'));
        assert_eq!(Technique::NakedSingle.letter(), None);
    }

    #[test]
    fn ladders_parse_and_spell() {
        assert_eq!("seed".parse::<Ladder>().unwrap(), Ladder::seed());
        assert_eq!("ALL".parse::<Ladder>().unwrap(), Ladder::all());
        let l: Ladder = "i, x-wing,2".parse().unwrap();
        assert!(l.contains(Technique::NakedPair) && l.contains(Technique::LockedPair));
        assert!(l.contains(Technique::XWing) && l.contains(Technique::NakedSingle));
        assert!(!l.contains(Technique::Swordfish));
        assert_eq!(l.spelling(), "i2x");
        assert_eq!(
            l.spelling().parse::<Ladder>().unwrap(),
            l,
            "a spelling reads back"
        );
        assert_eq!("i,2,x".parse::<Ladder>().unwrap(), l);
        assert_eq!(Ladder::seed().spelling(), "seed");
        assert!("i,Q".parse::<Ladder>().unwrap_err().0 == "Q");
        assert!("".parse::<Ladder>().is_err());
        assert!(
            "#".parse::<Ladder>().is_err(),
            "the guess is not a technique to pick"
        );
    }
}
