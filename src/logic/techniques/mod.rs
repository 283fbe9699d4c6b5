//! The techniques of the ladder: the one table of them ([`TABLE`]: order,
//! letter, name, ratings, and what the ladder and its memo need to know of
//! each) and one file per family of techniques, which finds the family's
//! steps and says them in words.
//!
//! Each family is one type: its finders are the type's methods, given
//! the position ([`Board`](crate::logic::Board)) and the run (whose
//! choice, the deadline, the notes), and what it keeps between calls is
//! the type's fields (`Families` gathers the families that keep
//! something; the others are unit types). Adding a technique means its
//! finder in its family's file (or a new family's file) and its row in
//! `table.rs`, whose `find` column calls the finder.

mod table;

pub(in crate::logic) mod als;
pub(in crate::logic) mod chains;
pub(in crate::logic) mod colouring;
pub(in crate::logic) mod finned_fish;
pub(in crate::logic) mod fish;
pub(in crate::logic) mod forcing;
pub(in crate::logic) mod intersections;
pub(in crate::logic) mod single_digit;
pub(in crate::logic) mod singles;
pub(in crate::logic) mod subsets;
pub(in crate::logic) mod sue_de_coq;
pub(in crate::logic) mod uniqueness;
pub(in crate::logic) mod wings;

pub use table::*;

/// The families that keep something between calls (their memos), one
/// value each, owned by the [`Solver`](crate::logic::Solver). The
/// families that keep nothing are unit types, called as they are.
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct Families {
    /// The link graph and the XY-chains' last search in vain.
    pub(in crate::logic) chains: chains::Chains,
    /// The last position's almost locked sets.
    pub(in crate::logic) als: als::AlmostLockedSets,
    /// The sashimi fish met, the searches in vain by digit.
    pub(in crate::logic) finned_fish: finned_fish::FinnedFish,
    /// The rectangles.
    pub(in crate::logic) uniqueness: uniqueness::Uniqueness,
    /// The colour clusters.
    pub(in crate::logic) colouring: colouring::Colouring,
    /// The premises that concluded.
    pub(in crate::logic) forcing: forcing::Forcing,
    /// Each unit's subsets.
    pub(in crate::logic) subsets: subsets::Subsets,
}
