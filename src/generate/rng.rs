//! The generator's random numbers: xoshiro256** seeded through SplitMix64,
//! written out here so that a seed means the same puzzles on every machine
//! and with every release of every dependency (only `u64` arithmetic, no
//! floating point, no platform word size).
//!
//! Each puzzle of a set draws from its own stream, [`Rng::for_puzzle`]
//! (the master seed and the puzzle's number), so the puzzles do not depend
//! on how many threads made them or in which order.
//!
//! ```
//! use xlsudoku::generate::Rng;
//!
//! let mut a = Rng::for_puzzle(7, 0);
//! let mut b = Rng::for_puzzle(7, 0);
//! assert_eq!(a.next_u64(), b.next_u64());
//! assert!(a.below(9) < 9);
//! ```

/// A xoshiro256** generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// One step of SplitMix64: the recommended way to seed xoshiro.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The stream of puzzle `index` (0-based) of the set made from `seed`.
    pub fn for_puzzle(seed: u64, index: u64) -> Rng {
        // Two SplitMix64 outputs mixed: distinct (seed, index) pairs start
        // far apart even for neighbouring seeds and indices.
        let mut st = seed;
        let a = splitmix(&mut st);
        let mut st = a ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
        let mut s = [0u64; 4];
        for w in &mut s {
            *w = splitmix(&mut st);
        }
        // xoshiro must not start from all zeros (SplitMix64 never gives
        // four zeros in a row, but the guard costs nothing).
        if s == [0; 4] {
            s[0] = 1;
        }
        Rng { s }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform number in `0..n` (0 when `n` is 0), without modulo bias
    /// (Lemire's multiply-and-reject).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as usize;
            }
        }
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xoshiro_matches_the_reference_sequence() {
        // The reference implementation's first outputs from state 1, 2, 3, 4.
        let mut r = Rng { s: [1, 2, 3, 4] };
        let got: Vec<u64> = (0..4).map(|_| r.next_u64()).collect();
        assert_eq!(got, [11520, 0, 1509978240, 1215971899390074240]);
    }

    #[test]
    fn streams_are_fixed_by_seed_and_index() {
        // The first outputs are part of the format: a seed must give the
        // same puzzles on every machine and in every later version.
        let mut r = Rng::for_puzzle(0, 0);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        let mut again = Rng::for_puzzle(0, 0);
        assert_eq!(first, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
        let mut other = Rng::for_puzzle(0, 1);
        assert_ne!(first[0], other.next_u64());
        let mut other_seed = Rng::for_puzzle(1, 0);
        assert_ne!(first[0], other_seed.next_u64());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::for_puzzle(42, 3);
        let mut seen = [0usize; 7];
        for _ in 0..7000 {
            seen[r.below(7)] += 1;
        }
        // Each of 7 values about 1000 times.
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::for_puzzle(5, 5);
        let mut v: Vec<usize> = (0..50).collect();
        r.shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}
