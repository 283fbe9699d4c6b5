//! The techniques of the ladder: the one table of them ([`TABLE`]: order,
//! letter, name, ratings, and what the ladder and its memo need to know of
//! each) and one file per family of techniques, which finds the family's
//! steps and says them in words.
//!
//! Adding a technique means its row in `table.rs` and its finder in its
//! family's file.

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
