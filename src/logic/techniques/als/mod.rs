//! Almost locked sets: ALS-XZ (`L`), ALS-XY-wing (`M`) and ALS chains
//! (`C`).
//!
//! An almost locked set (ALS) is `k` cells of one unit holding `k + 1`
//! digits between them (a pair cell is the smallest). Remove any one digit
//! and the rest are locked: each must go in those cells. A digit `x` is a
//! **restricted common** of two ALS that do not overlap when both hold it
//! and every cell of one holding `x` sees every cell of the other holding
//! it: `x` can then be in one of them at most.
//!
//! - ALS-XZ: ALS `A` and `B` with a restricted common `x`; one of them
//!   lacks `x`, so it is locked: a digit `z` both hold is in `A` or in `B`,
//!   and any cell seeing every `z` of both loses `z`.
//! - ALS-XY-wing: a pivot `C` with restricted commons `x` to `A` and `y`
//!   to `B`: `C` lacks `x` or `y`, so `A` or `B` is locked, and the same
//!   `z` as above goes.
//! - ALS chain: `A1 -x1- A2 -x2- … An`, consecutive restricted commons
//!   different: `A1` or `An` is locked; `z` as above (`z` not the first
//!   nor the last common).
//!
//! ALS are gathered up to [`MAX_CELLS_LARGE`] cells on grids larger than
//! 9x9 (a 16-cell unit has 65,536 subsets), of any size on smaller ones,
//! and at most [`MAX_SETS`] are kept, the smallest;
//! chains are searched up to [`MAX_CHAIN`] sets and [`MAX_EXPANSIONS`] extensions per step, HoDoKu's
//! ALS chain length being 6.

use std::sync::Arc;

use crate::logic::words::{digit_list, Words};
use crate::logic::{ChainNode, Step, Technique};

mod chain;
mod finders;
mod sets;

/// The largest ALS gathered on grids larger than 9x9.
const MAX_CELLS_LARGE: usize = 4;
/// The most sets kept (the smallest first): restricted commons are worked
/// out for every two, so a 25x25's thousands of sets would take seconds.
const MAX_SETS: usize = 2_000;
/// The most sets in an ALS chain.
const MAX_CHAIN: usize = 6;
/// The most chain extensions tried in one search (the search is
/// exponential in the chain length; past this it gives up for the step).
const MAX_EXPANSIONS: usize = 20_000;

/// What the ALS family keeps: `(steps taken, candidates, sets)`, the last
/// position's sets, to build the next one's from (the sets of a unit
/// whose cells have not changed are the same, and so is a set whose own
/// cells have not; so are the restricted commons of two such sets).
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct AlmostLockedSets {
    /// The last position's sets.
    pub(in crate::logic) last: Option<(usize, Vec<u64>, Arc<AlsData>)>,
}

/// The restricted commons of every set, in compressed rows: set `i`'s
/// ([`Commons::of`]) are every other set `k` sharing one, by index, with
/// the digits as a bit set. One list for all the sets: the rows are
/// made without a list per set.
#[derive(Debug)]
pub(in crate::logic) struct Commons {
    /// Where each set's row begins in `list` (one more entry at the end).
    at: Vec<u32>,
    list: Vec<(usize, u64)>,
}

impl Commons {
    /// The rows of `sets` sets from each pair once (`(i, k, digits)`,
    /// `i < k`), each row by the other set's index.
    fn from_pairs(sets: usize, pairs: &[(u32, u32, u64)]) -> Commons {
        let mut at = vec![0u32; sets + 1];
        for &(i, k, _) in pairs {
            debug_assert!(i < k, "each pair once, the lower set first");
            at[i as usize + 1] += 1;
            at[k as usize + 1] += 1;
        }
        for i in 0..sets {
            at[i + 1] += at[i];
        }
        let mut fill: Vec<u32> = at[..sets].to_vec();
        let mut list = vec![(0usize, 0u64); pairs.len() * 2];
        for &(i, k, r) in pairs {
            let (i, k) = (i as usize, k as usize);
            list[fill[i] as usize] = (k, r);
            fill[i] += 1;
            list[fill[k] as usize] = (i, r);
            fill[k] += 1;
        }
        for i in 0..sets {
            list[at[i] as usize..at[i + 1] as usize].sort_unstable_by_key(|&(k, _)| k);
        }
        Commons { at, list }
    }

    /// The restricted commons of set `i`.
    #[inline]
    fn of(&self, i: usize) -> &[(usize, u64)] {
        &self.list[self.at[i] as usize..self.at[i + 1] as usize]
    }

    /// Every set's row, in the order of the sets.
    fn rows(&self) -> impl Iterator<Item = &[(usize, u64)]> {
        (0..self.at.len().saturating_sub(1)).map(|i| self.of(i))
    }

    /// How many restricted commons there are, counted from both sets.
    fn total(&self) -> usize {
        self.list.len()
    }
}

/// The almost locked sets of a position and the restricted commons
/// between them ([`Commons`]).
#[derive(Debug)]
pub(in crate::logic) struct AlsData {
    als: Vec<Arc<Als>>,
    rcc: Commons,
    /// Where each unit's sets begin in `als` (one more entry at the end).
    unit_at: Vec<usize>,
    /// Whether sets were left out ([`MAX_SETS`]).
    truncated: bool,
    /// Per digit (index `d - 1`): the cells holding it, folded as
    /// [`Als::fold`].
    cand_fold: Vec<u128>,
    /// Each set's cells, folded ([`Als::fold`]), side by side.
    folds: Vec<u128>,
    /// Per set, the digits (bit `d - 1`) of which some candidate outside
    /// it sees every one in it (folded: a quick test). Two sets strike
    /// only digits both have here.
    strikable: Vec<u64>,
    /// Per set and digit index (`side` entries a set): the candidates of
    /// the digit outside the set seeing every one of it in the set,
    /// folded ([`Als::fold`]; exact on grids of 128 cells or fewer).
    /// Two sets strike a digit `z` only where theirs meet
    /// ([`AlsData::may_strike`]).
    reach: Vec<u128>,
}

impl AlsData {
    /// Whether sets `a` and `b` (which do not overlap) may strike a digit
    /// of both not in `except`: exactly whether
    /// [`AlmostLockedSets::als_struck`] strikes something on a grid of
    /// 128 cells or fewer, a necessary condition on larger ones. No list
    /// is made: the chain and wing searches test every pair they meet.
    #[inline]
    fn may_strike(&self, a: usize, b: usize, except: u64) -> bool {
        let n = self.cand_fold.len();
        let (ra, rb) = (
            &self.reach[a * n..(a + 1) * n],
            &self.reach[b * n..(b + 1) * n],
        );
        let mut z = self.strikable[a] & self.strikable[b] & !except;
        while z != 0 {
            let i = z.trailing_zeros() as usize;
            z &= z - 1;
            if ra[i] & rb[i] != 0 {
                return true;
            }
        }
        false
    }
}

/// Candidates struck: `(cell, digit)`.
type Struck = Vec<(usize, u8)>;

/// One almost locked set.
#[derive(Debug)]
struct Als {
    /// The position (steps taken) of the list that gathered the set: it
    /// is in every list since (a list keeps a set from the last one or
    /// gathers it anew; a list cut short at [`MAX_SETS`] is not carried
    /// on, so the sets after it are gathered anew).
    born: usize,
    cells: Vec<usize>,
    /// The cells as a bit set.
    set: Vec<u64>,
    /// Its digits.
    mask: u64,
    /// Per digit (index `d - 1`, `words` words each): the cells seeing
    /// every cell of the set holding `d` (empty when none holds it).
    /// Left empty on grids of 128 cells or fewer, where `seen_fold` is
    /// exact; so is `with`.
    seen: Vec<u64>,
    /// Per digit: the cells of the set holding it, as a bit set.
    with: Vec<u64>,
    /// The cells, `seen` and `with` folded into 128 bits (cell `c` at bit
    /// `c % 128`): exact on grids of 128 cells or fewer, and a quick test
    /// on larger ones (disjoint folds mean disjoint sets).
    fold: u128,
    seen_fold: Vec<u128>,
    with_fold: Vec<u128>,
}

impl Als {
    fn words(&self) -> usize {
        self.set.len()
    }

    /// The cells seeing every cell of the set holding digit index `i`.
    fn seen(&self, i: usize) -> &[u64] {
        &self.seen[i * self.words()..(i + 1) * self.words()]
    }

    /// The cells of the set holding digit index `i`.
    fn with(&self, i: usize) -> &[u64] {
        &self.with[i * self.words()..(i + 1) * self.words()]
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let removes = w.removes(&step.eliminated);
    let candidates = w.cands;
    Some(match (step.technique, step.placed) {
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
                    format!(" ({})", w.digits(&digit_list(held)))
                };
                format!("{{{}}}{digits}", w.cells(&nd.cells))
            };
            let body = match step.technique {
                Technique::AlsXz => format!(
                    "{} and {} share the restricted common {}, so one of them is locked",
                    set(&sets[0]),
                    set(&sets[1]),
                    w.digit(sets[0].digit)
                ),
                Technique::AlsXyWing if sets.len() == 3 => format!(
                    "pivot {} joined by {} to {} and by {} to {}, so {} or {} is locked",
                    set(&sets[1]),
                    w.digit(sets[0].digit),
                    set(&sets[0]),
                    w.digit(sets[1].digit),
                    set(&sets[2]),
                    w.cells(&sets[0].cells),
                    w.cells(&sets[2].cells)
                ),
                _ => {
                    let mut t = set(&sets[0]);
                    for k in 1..sets.len() {
                        t.push_str(&format!(
                            " –{}– {}",
                            w.digit(sets[k - 1].digit),
                            set(&sets[k])
                        ));
                    }
                    format!("{t}: the first or the last set is locked")
                }
            };
            format!("{name}: {body}: {removes}")
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::grid::{BoxShape, Grid};
    use crate::logic::{Ladder, Solver, Technique};

    #[test]
    fn the_kept_sets_and_failures_change_no_step() {
        // At every position of the ladder on hard puzzles, ALS-XZ and the
        // ALS-XY-wing find the same step as on a twin of the board that
        // keeps no sets and no failures from earlier positions.
        // Pairs of sets both carried since a search in vain: the patterns
        // skipped (for the XY-wing, as its wings).
        let mut skipped = 0;
        for (line, p) in crate::logic::tests::hard_puzzles(40) {
            let mut board = Solver::with_ladder(&p, Ladder::all()).unwrap();
            board.assume_unique();
            while !board.grid.is_full() && !board.contradiction {
                for t in [Technique::AlsXz, Technique::AlsXyWing] {
                    let (mut with, mut without) = (board.clone(), board.clone());
                    without.families = Default::default();
                    without.run.facts.off = true;
                    let data = with.families.als.als_data(&with.board);
                    let old = with.families.als.als_tried(&with.board, &with.run, t);
                    skipped += data
                        .rcc
                        .rows()
                        .enumerate()
                        .flat_map(|(i, list)| list.iter().map(move |&(k, _)| (i, k)))
                        .filter(|&(i, k)| i < k && old(&data.als[i]) && old(&data.als[k]))
                        .count();
                    assert_eq!(with.find(t), without.find(t), "{line}");
                    assert_eq!(with.steps, without.steps, "{line}");
                }
                if !board.step() {
                    break;
                }
                board.contradiction = board.find_contradiction();
            }
        }
        // The failures were used, or the test proves nothing.
        assert!(skipped > 1000, "{skipped}");
    }

    #[test]
    fn may_strike_is_whether_two_sets_strike() {
        // At every position on hard puzzles, for every two sets sharing a
        // restricted common and each digit or two they keep out, the quick
        // test says whether the list of what they strike is not empty.
        let (mut yes, mut no) = (0, 0);
        crate::logic::tests::each_hard_position(6, |s| {
            let mut family = s.families.als.clone();
            let data = family.als_data(&s.board);
            for (i, list) in data.rcc.rows().enumerate() {
                for &(k, _) in list {
                    for except in (0..9).flat_map(|x| (x..9).map(move |y| (1 << x) | (1 << y))) {
                        let (a, b) = (&data.als[i], &data.als[k]);
                        let struck = family.als_struck(&s.board, &data, a, b, except);
                        assert_eq!(data.may_strike(i, k, except), !struck.is_empty());
                        yes += usize::from(!struck.is_empty());
                        no += usize::from(struck.is_empty());
                    }
                }
            }
        });
        assert!(yes > 1000 && no > 1000, "{yes} {no}");
    }

    #[test]
    fn als_xz_strikes_the_common_digit() {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        // A = r1c1 {1,2}; B = r1c4, r1c5 {1,2,3} with 1 only in r1c4,
        // which r1c1 sees: 1 is a restricted common, and 2 (in both) is in
        // one of them: row 1 loses it elsewhere (the search may find
        // another pair first; every one found must strike outside its sets).
        b.cands[0] = 0b011;
        b.cands[3] = 0b101;
        b.cands[4] = 0b110;
        assert!(b.find(Technique::AlsXz));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::AlsXz);
        assert!(!s.eliminated.is_empty());
        assert!(s.eliminated.iter().all(|(c, _)| !s.cells.contains(c)));
        assert_eq!(s.chains[0].len(), 2);
    }
}
