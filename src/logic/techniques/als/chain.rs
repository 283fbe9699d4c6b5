//! The ALS chain search: depth first from every set, up to [`MAX_CHAIN`]
//! sets and [`MAX_EXPANSIONS`] links followed per step.

use super::AlmostLockedSets;
use super::{Als, AlsData, MAX_CHAIN, MAX_EXPANSIONS};
use crate::logic::memo::Run;
use crate::logic::{bit, Board, Cells, Technique};

/// A chain found: its sets (indices into [`AlsData`]'s), its commons and
/// what it strikes.
type Found = (Vec<usize>, Vec<u8>, Vec<(usize, u8)>);

// The search tests what a chain strikes from its fourth set on.
const _: () = assert!(MAX_CHAIN >= 4);

/// The restricted commons of every set ([`AlsData`]'s `rcc`), in one
/// array in the same order, each with the far set's cells folded: the
/// search reads a set's links in a row instead of looking each far set
/// up (the same links, the same order, so the same budget spent).
struct Links {
    /// Where each set's links begin in `list` (one more entry at the end).
    at: Vec<usize>,
    list: Vec<Link>,
}

/// One restricted common of a set: the far set, its cells folded
/// ([`Als::fold`]) and the common digits.
#[derive(Clone, Copy)]
struct Link {
    fold: u128,
    digits: u64,
    next: usize,
}

impl Links {
    fn new(data: &AlsData) -> Links {
        let mut at = Vec::with_capacity(data.als.len() + 1);
        let mut list = Vec::with_capacity(data.rcc.total());
        at.push(0);
        for links in data.rcc.rows() {
            list.extend(links.iter().map(|&(next, digits)| Link {
                fold: data.folds[next],
                digits,
                next,
            }));
            at.push(list.len());
        }
        Links { at, list }
    }

    /// The links of set `i`.
    fn of(&self, i: usize) -> &[Link] {
        &self.list[self.at[i]..self.at[i + 1]]
    }
}

/// One search: the position's sets, the path so far and the budget left.
/// The path is kept in arrays of [`MAX_CHAIN`] (no list grown or
/// shrunk at each link followed).
struct Search<'a> {
    family: &'a AlmostLockedSets,
    board: &'a Board,
    data: &'a AlsData,
    links: &'a Links,
    /// The path's sets (`len` of them) and the commons between them
    /// (`len - 1`).
    path: [usize; MAX_CHAIN],
    commons: [u8; MAX_CHAIN],
    len: usize,
    /// The cells of the path's sets (which never overlap), and folded
    /// (exact on grids of 128 cells or fewer: `small`).
    used: Vec<u64>,
    used_fold: u128,
    small: bool,
    budget: usize,
}

impl Search<'_> {
    /// The first chain on from the path that strikes something (the path
    /// and commons left as that chain's), or `None`.
    fn go(&mut self) -> Option<Vec<(usize, u8)>> {
        let len = self.len;
        let last = self.path[len - 1];
        let prev = if len >= 2 {
            bit(self.commons[len - 2])
        } else {
            0
        };
        let first = self.path[0];
        let links = self.links;
        for &Link { fold, digits, next } in links.of(last) {
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            // A set of the path, or one overlapping one.
            let overlaps = if self.small {
                self.used_fold & fold != 0
            } else {
                self.used.meets(&self.data.als[next].set)
            };
            if overlaps {
                continue;
            }
            if len + 1 == MAX_CHAIN {
                // The chain's last set: only whether it strikes (no path
                // to extend, nor to undo).
                if let Some(s) = self.last_set(next, digits & !prev) {
                    return Some(s);
                }
                continue;
            }
            let mut xs = digits & !prev;
            while xs != 0 {
                let x = xs.trailing_zeros() as u8 + 1;
                xs &= xs - 1;
                self.path[len] = next;
                self.commons[len - 1] = x;
                self.len = len + 1;
                self.used_fold |= fold;
                if !self.small {
                    for (u, w) in self.used.iter_mut().zip(&self.data.als[next].set) {
                        *u |= w;
                    }
                }
                if len + 1 >= 4 {
                    let except = bit(self.commons[0]) | bit(x);
                    if self.data.may_strike(first, next, except) {
                        let (a, b) = (&self.data.als[first], &self.data.als[next]);
                        let struck = self.family.als_struck(self.board, self.data, a, b, except);
                        if !struck.is_empty() {
                            return Some(struck);
                        }
                    }
                }
                if let Some(s) = self.go() {
                    return Some(s);
                }
                self.len = len;
                self.used_fold &= !fold;
                if !self.small {
                    for (u, w) in self.used.iter_mut().zip(&self.data.als[next].set) {
                        *u &= !w;
                    }
                }
            }
        }
        None
    }

    /// What the path ending on set `next` ([`MAX_CHAIN`] sets), by the
    /// first common `x` of `xs` that strikes something, strikes (the set
    /// and `x` put on the path), as [`Search::go`] would find it one set
    /// short of the end.
    fn last_set(&mut self, next: usize, mut xs: u64) -> Option<Vec<(usize, u8)>> {
        let first = self.path[0];
        while xs != 0 {
            let x = xs.trailing_zeros() as u8 + 1;
            xs &= xs - 1;
            let except = bit(self.commons[0]) | bit(x);
            if !self.data.may_strike(first, next, except) {
                continue;
            }
            let (a, b) = (&self.data.als[first], &self.data.als[next]);
            let struck = self.family.als_struck(self.board, self.data, a, b, except);
            if !struck.is_empty() {
                self.path[self.len] = next;
                self.commons[self.len - 1] = x;
                self.len += 1;
                return Some(struck);
            }
        }
        None
    }
}

impl AlmostLockedSets {
    /// One ALS chain of four to [`MAX_CHAIN`] sets that strikes something.
    pub(in crate::logic) fn als_chain(&mut self, board: &mut Board, run: &Run) -> bool {
        let data = self.als_data(board);
        let Some((path, commons, struck)) = self.find_chain(board, &data, run) else {
            return false;
        };
        let sets: Vec<&Als> = path.iter().map(|&i| &*data.als[i]).collect();
        self.als_step(board, Technique::AlsChain, &sets, &commons, struck);
        true
    }

    /// The first chain the search meets that strikes something: its sets
    /// (indices into `data`), its commons and what it strikes.
    fn find_chain(&self, board: &Board, data: &AlsData, run: &Run) -> Option<Found> {
        let links = Links::new(data);
        let mut search = Search {
            family: self,
            board,
            data,
            links: &links,
            path: [0; MAX_CHAIN],
            commons: [0; MAX_CHAIN],
            len: 1,
            used: Vec::new(),
            used_fold: 0,
            small: board.cands.len() <= 128,
            budget: MAX_EXPANSIONS,
        };
        for (start, first) in data.als.iter().enumerate() {
            if start % 16 == 0 && run.past_deadline() {
                break;
            }
            search.path[0] = start;
            search.len = 1;
            search.used.clone_from(&first.set);
            search.used_fold = first.fold;
            if let Some(struck) = search.go() {
                let len = search.len;
                let (path, commons) = (&search.path[..len], &search.commons[..len - 1]);
                return Some((path.to_vec(), commons.to_vec(), struck));
            }
            if search.budget == 0 {
                break;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::{AlmostLockedSets, AlsData, Struck, MAX_CHAIN, MAX_EXPANSIONS};
    use super::Found;
    use crate::logic::{bit, Board, Cells};

    /// The search as plainly as it goes: each set's list of restricted
    /// commons, overlaps by the sets' cells, every chain of four sets or
    /// more asked what it strikes.
    fn plain(family: &AlmostLockedSets, board: &Board, data: &AlsData) -> (Option<Found>, bool) {
        #[allow(clippy::too_many_arguments)]
        fn go(
            family: &AlmostLockedSets,
            board: &Board,
            data: &AlsData,
            path: &mut Vec<usize>,
            commons: &mut Vec<u8>,
            budget: &mut usize,
        ) -> Option<Struck> {
            let last = *path.last()?;
            let prev = commons.last().copied();
            for &(next, r) in data.rcc.of(last) {
                if *budget == 0 {
                    return None;
                }
                *budget -= 1;
                let set = &data.als[next].set;
                if path.iter().any(|&p| data.als[p].set.meets(set)) {
                    continue;
                }
                for x in crate::logic::digits_of(r).filter(|&x| Some(x) != prev) {
                    path.push(next);
                    commons.push(x);
                    if path.len() >= 4 {
                        let (a, b) = (&data.als[path[0]], &data.als[next]);
                        let except = bit(commons[0]) | bit(x);
                        let struck = family.als_struck(board, data, a, b, except);
                        if !struck.is_empty() {
                            return Some(struck);
                        }
                    }
                    if path.len() < MAX_CHAIN {
                        if let Some(s) = go(family, board, data, path, commons, budget) {
                            return Some(s);
                        }
                    }
                    path.pop();
                    commons.pop();
                }
            }
            None
        }
        let mut budget = MAX_EXPANSIONS;
        for start in 0..data.als.len() {
            let (mut path, mut commons) = (vec![start], Vec::new());
            if let Some(s) = go(family, board, data, &mut path, &mut commons, &mut budget) {
                return (Some((path, commons, s)), false);
            }
            if budget == 0 {
                return (None, true);
            }
        }
        (None, false)
    }

    #[test]
    fn the_search_finds_the_plain_searchs_chain() {
        // At every position of the ladder on hard puzzles, the search
        // (its links in one array, the last set only tested, pairs that
        // cannot strike skipped) finds the chain the plain search finds,
        // or none; both where chains are found and where the budget ends.
        let (mut found, mut spent, mut positions) = (0, 0, 0);
        crate::logic::tests::each_hard_position(12, |s| {
            let mut family = s.families.als.clone();
            let data = family.als_data(&s.board);
            let (want, out) = plain(&family, &s.board, &data);
            assert_eq!(family.find_chain(&s.board, &data, &s.run), want);
            positions += 1;
            found += usize::from(want.is_some());
            spent += usize::from(out);
        });
        assert!(
            positions > 300 && found > 10 && spent > 10,
            "{positions} {found} {spent}"
        );
    }
}
