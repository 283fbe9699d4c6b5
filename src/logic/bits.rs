//! Bit sets of digits ([`Digits`], and raw masks, bit `d - 1` for digit
//! `d`, on the hot paths), of positions in a unit and of cells
//! ([`Cells`]), and the search over them that subsets and fish share.

use super::Step;

/// Digit `d` as a set of digits (bit `d - 1`).
pub(super) fn bit(d: u8) -> u64 {
    1u64 << (d - 1)
}

/// Every digit of a grid of this side, as a set (bit `d - 1` for `d`).
pub(super) fn all_digits(side: usize) -> u64 {
    if side == 64 {
        u64::MAX
    } else {
        (1u64 << side) - 1
    }
}

/// A set of digits, bit `d - 1` for digit `d` (up to 64): a cell's
/// candidates, the digits a search skips or searched in vain.
///
/// ```
/// use xlsudoku::logic::Digits;
///
/// let mut d = Digits::from_bits(0b1011); // 1 2 4
/// assert!(d.contains(2) && !d.contains(3));
/// d.remove(1);
/// d.insert(9);
/// assert_eq!(d.iter().collect::<Vec<u8>>(), [2, 4, 9]);
/// assert_eq!(d.len(), 3);
/// assert_eq!(d & Digits::of(4), Digits::of(4));
/// assert_eq!((d | Digits::of(1)).bits(), 0b1_0000_1011);
/// assert!((Digits::all(9) & !d).contains(1));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Digits(u64);

impl Digits {
    /// No digit.
    pub const EMPTY: Digits = Digits(0);

    /// The set of bits `bits` (bit `d - 1` for digit `d`).
    #[inline]
    pub const fn from_bits(bits: u64) -> Digits {
        Digits(bits)
    }

    /// The set as bits (bit `d - 1` for digit `d`).
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Digit `d` alone (1 to 64).
    #[inline]
    pub fn of(d: u8) -> Digits {
        Digits(bit(d))
    }

    /// Every digit of a grid of this side (1 to `side`).
    #[inline]
    pub fn all(side: usize) -> Digits {
        Digits(all_digits(side))
    }

    /// Whether digit `d` is in the set.
    #[inline]
    pub fn contains(self, d: u8) -> bool {
        self.0 & bit(d) != 0
    }

    /// Adds digit `d`.
    #[inline]
    pub fn insert(&mut self, d: u8) {
        self.0 |= bit(d);
    }

    /// Takes digit `d` out.
    #[inline]
    pub fn remove(&mut self, d: u8) {
        self.0 &= !bit(d);
    }

    /// How many digits the set holds.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The digits, lowest first.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = u8> {
        digits_of(self.0)
    }
}

impl From<u64> for Digits {
    /// The set of bits (bit `d - 1` for digit `d`).
    #[inline]
    fn from(bits: u64) -> Digits {
        Digits(bits)
    }
}

impl std::ops::BitOr for Digits {
    type Output = Digits;
    #[inline]
    fn bitor(self, other: Digits) -> Digits {
        Digits(self.0 | other.0)
    }
}

impl std::ops::BitAnd for Digits {
    type Output = Digits;
    #[inline]
    fn bitand(self, other: Digits) -> Digits {
        Digits(self.0 & other.0)
    }
}

impl std::ops::Not for Digits {
    type Output = Digits;
    /// Every digit (of 64) not in the set: meant to be intersected.
    #[inline]
    fn not(self) -> Digits {
        Digits(!self.0)
    }
}

impl std::ops::BitOrAssign for Digits {
    #[inline]
    fn bitor_assign(&mut self, other: Digits) {
        self.0 |= other.0;
    }
}

impl std::ops::BitAndAssign for Digits {
    #[inline]
    fn bitand_assign(&mut self, other: Digits) {
        self.0 &= other.0;
    }
}

/// The common search of subsets and fish: the first choice of `size`
/// items (each a key and a bit mask: a cell's candidates, a digit's
/// places, a line's places of a digit) whose masks together cover exactly
/// `size` bits, for which `found` makes a step. Items are tried in order;
/// a branch is cut as soon as its union passes `size` bits. `pick` is
/// room for the choice (cleared first), kept by the caller from one call
/// to the next.
pub(super) fn first_cover<T: Copy>(
    items: &[(T, u64)],
    size: usize,
    pick: &mut Vec<T>,
    found: &mut impl FnMut(&[T], u64) -> Option<Step>,
) -> Option<Step> {
    fn go<T: Copy>(
        items: &[(T, u64)],
        size: usize,
        from: usize,
        union: u64,
        pick: &mut Vec<T>,
        found: &mut impl FnMut(&[T], u64) -> Option<Step>,
    ) -> Option<Step> {
        if pick.len() == size {
            return if union.count_ones() as usize == size {
                found(pick, union)
            } else {
                None
            };
        }
        // Only items that leave enough after them to complete the choice.
        let last = (items.len() + pick.len()).checked_sub(size)?;
        for (j, &(key, mask)) in items.iter().enumerate().take(last + 1).skip(from) {
            let u = union | mask;
            if !at_most(u, size) {
                continue;
            }
            pick.push(key);
            let step = go(items, size, j + 1, u, pick, found);
            pick.pop();
            if step.is_some() {
                return step;
            }
        }
        None
    }
    pick.clear();
    go(items, size, 0, 0, pick, found)
}

/// Whether `x` has exactly two bits set (a pair cell, a strong link),
/// without counting them all.
pub(super) fn two_bits(x: u64) -> bool {
    let rest = x & x.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Whether `x` has at most `k` bits set (cheaper than counting them all
/// for the small `k` of a subset or a fish).
pub(super) fn at_most(mut x: u64, k: usize) -> bool {
    for _ in 0..k {
        x &= x.wrapping_sub(1);
    }
    x == 0
}

/// A set of cells as bits in words, cell `c` at bit `c % 64` of word
/// `c / 64` (the same for any small numbers: a graph's nodes, units).
/// Implemented on the words themselves, so any slice of them is a set (a
/// cell's row of a table of peers, a part of a longer array), at no cost.
pub(super) trait Cells {
    /// Whether `c` is in the set.
    fn has(&self, c: usize) -> bool;
    /// Puts `c` in the set.
    fn put(&mut self, c: usize);
    /// Whether the set and `other` share a member.
    fn meets(&self, other: &[u64]) -> bool;
    /// Whether every member of the set is in `other`.
    fn within(&self, other: &[u64]) -> bool;
    /// Keeps only the members also in `other`.
    fn keep(&mut self, other: &[u64]);
    /// The set's 128-bit halves or'ed together: the set itself on a grid
    /// of up to 128 cells, a quick first test on larger ones (two sets
    /// whose folds are disjoint are).
    fn folded(&self) -> u128;
    /// The members, in order.
    fn members(&self) -> impl Iterator<Item = usize> + '_;
}

impl Cells for [u64] {
    #[inline]
    fn has(&self, c: usize) -> bool {
        self[c / 64] & (1u64 << (c % 64)) != 0
    }

    #[inline]
    fn put(&mut self, c: usize) {
        self[c / 64] |= 1u64 << (c % 64);
    }

    #[inline]
    fn meets(&self, other: &[u64]) -> bool {
        self.iter().zip(other).any(|(x, y)| x & y != 0)
    }

    #[inline]
    fn within(&self, other: &[u64]) -> bool {
        self.iter().zip(other).all(|(x, y)| x & !y == 0)
    }

    #[inline]
    fn keep(&mut self, other: &[u64]) {
        for (x, y) in self.iter_mut().zip(other) {
            *x &= *y;
        }
    }

    #[inline]
    fn folded(&self) -> u128 {
        self.chunks(2).fold(0u128, |acc, w| {
            acc | u128::from(w[0]) | (u128::from(w.get(1).copied().unwrap_or(0)) << 64)
        })
    }

    fn members(&self) -> impl Iterator<Item = usize> + '_ {
        self.iter().enumerate().flat_map(|(w, &m)| {
            let mut m = m;
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let x = 64 * w + m.trailing_zeros() as usize;
                    m &= m - 1;
                    x
                })
            })
        })
    }
}

/// The set bits of `mask` as indices, lowest first (positions in a unit).
pub(super) fn positions(mask: u64) -> impl Iterator<Item = usize> {
    digits_of(mask).map(|d| d as usize - 1)
}

/// The digits of a set of digits (bit `d - 1` for `d`), lowest first.
pub(super) fn digits_of(mask: u64) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            Some(d)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{Cells, Digits};

    #[test]
    fn digits_insert_remove_and_read_every_digit_up_to_64() {
        // Digits 1, 9, 25, 63 and 64 (the highest bit) of a 64x64 grid.
        let members = [1u8, 9, 25, 63, 64];
        let mut d = Digits::EMPTY;
        for &m in &members {
            d.insert(m);
        }
        assert_eq!(d.len(), members.len());
        assert_eq!(d.iter().collect::<Vec<u8>>(), members);
        for x in 1..=64u8 {
            assert_eq!(d.contains(x), members.contains(&x), "digit {x}");
        }
        assert_eq!(d & !Digits::of(64), {
            let mut e = d;
            e.remove(64);
            e
        });
        assert_eq!(Digits::all(64).len(), 64);
        assert_eq!((Digits::all(9) & !d).len(), 7);
        assert!((d & Digits::of(2)).is_empty());
        assert_eq!(Digits::from(d.bits()), d);
    }

    /// A set of `words` words holding `members`.
    fn set(words: usize, members: &[usize]) -> Vec<u64> {
        let mut s = vec![0u64; words];
        for &c in members {
            s.put(c);
        }
        s
    }

    #[test]
    fn cells_put_and_read_across_words() {
        // 625 cells (a 25x25 grid): ten words, the last one partial.
        let members = [0, 63, 64, 127, 128, 300, 624];
        let s = set(10, &members);
        for c in 0..625 {
            assert_eq!(s.has(c), members.contains(&c), "cell {c}");
        }
        assert_eq!(s.members().collect::<Vec<_>>(), members);
        assert_eq!(s.iter().map(|w| w.count_ones()).sum::<u32>(), 7);
    }

    #[test]
    fn cells_meet_contain_and_intersect() {
        let a = set(3, &[5, 70, 150]);
        let b = set(3, &[70, 140]);
        let c = set(3, &[6, 71]);
        assert!(a.meets(&b) && b.meets(&a));
        assert!(!a.meets(&c));
        assert!(set(3, &[70]).within(&a));
        assert!(!b.within(&a));
        let mut k = a.clone();
        k.keep(&b);
        assert_eq!(k, set(3, &[70]));
    }

    #[test]
    fn cells_fold_to_the_set_up_to_128_cells_and_halves_or_ed_beyond() {
        let small = set(2, &[0, 64, 127]);
        assert_eq!(small.folded(), 1 | 1 << 64 | 1 << 127);
        // Cell 130 lands on bit 2 of the fold, cell 200 on bit 72.
        let large = set(4, &[1, 130, 200]);
        assert_eq!(large.folded(), 1 << 1 | 1 << 2 | 1 << 72);
        // Disjoint folds mean disjoint sets.
        let other = set(4, &[3, 129 + 64]);
        assert_eq!(large.folded() & other.folded(), 0);
        assert!(!large.meets(&other));
    }
}
