//! The implication graph of one chaining run: SE's `Potential`s (a
//! candidate assumed on or off) with their parents, in an arena. A
//! potential is known by its key; the first node made for a key is the
//! one the run's sets hold (SE's `LinkedSet` keeps the first).

/// `(cell * 9 + digit - 1) * 2 + on`: 1458 keys.
pub const KEYS: usize = 81 * 9 * 2;

const NONE: u32 = u32::MAX;

/// Words of a bit set over the keys.
pub const WORDS: usize = KEYS.div_ceil(64);

/// A bit set over the keys.
pub type KeySet = [u64; WORDS];

/// Whether a key set holds `k`.
#[inline]
pub fn has(set: &KeySet, k: u16) -> bool {
    set[k as usize / 64] >> (k % 64) & 1 == 1
}

/// The key of a potential.
#[inline]
pub fn key(cell: usize, d: u8, on: bool) -> u16 {
    ((cell * 9 + d as usize - 1) * 2 + on as usize) as u16
}

/// The cell of a key.
#[inline]
pub fn cell_of(k: u16) -> usize {
    k as usize / 18
}

/// The digit of a key.
#[inline]
pub fn digit_of(k: u16) -> u8 {
    (k as usize / 2 % 9) as u8 + 1
}

/// Whether a key is an "on" potential.
#[inline]
pub fn is_on(k: u16) -> bool {
    k & 1 == 1
}

/// The same candidate in the other state.
#[inline]
pub fn conjugate(k: u16) -> u16 {
    k ^ 1
}

/// One potential: its key and its parents (the first is the main one).
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// The potential's key.
    pub key: u16,
    /// Why it holds (SE's `cause`): [`CAUSE_CELL`], a region index, or
    /// [`CAUSE_NONE`] (an assumption, an advanced "off").
    pub cause: u8,
    start: u32,
    len: u32,
    nest: u32,
}

/// The cause of a potential forced by its cell (SE's naked single).
pub const CAUSE_CELL: u8 = 27;
/// No cause: an assumption, or an "off" a rule gave.
pub const CAUSE_NONE: u8 = u8::MAX;

/// A nested chain an "off" came from: its identity (SE's `FullChain`)
/// and its complexity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nest {
    /// A fingerprint of the chain's targets and their ancestors.
    pub fingerprint: u64,
    /// The nested hint's complexity (its own nesting included).
    pub complexity: usize,
}

/// The nodes of one run, the parents lists and the sets of potentials
/// reached (first node per key), with their order of arrival.
///
/// The sets are also kept as a bit set of keys (three cache lines), which
/// answers "is it there" without touching the key-to-node table: a
/// chainer keeps hundreds of arenas, and their tables, looked up at
/// random, left the cache.
#[derive(Debug, Clone)]
pub struct Arena {
    nodes: Vec<Node>,
    parents: Vec<u32>,
    present: KeySet,
    index: Vec<u32>,
    nests: Vec<Nest>,
    /// Nodes in the "on" and "off" sets, in order of arrival.
    pub order: Vec<u32>,
}

impl Default for Arena {
    fn default() -> Self {
        Arena {
            nodes: Vec::new(),
            parents: Vec::new(),
            present: [0; WORDS],
            index: vec![NONE; KEYS],
            nests: Vec::new(),
            order: Vec::new(),
        }
    }
}

thread_local! {
    /// Arenas given back, cleared, for the next runs on this thread: a
    /// chainer's runs and the nested chainers' inside them reuse their
    /// memory instead of allocating anew.
    static POOL: std::cell::RefCell<Vec<Arena>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The most arenas the pool keeps.
const POOL_MAX: usize = 2048;

impl Arena {
    /// An empty arena, from the pool when it has one.
    pub fn take() -> Arena {
        POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default()
    }

    /// Gives an arena back to the pool.
    pub fn give(mut self) {
        self.clear();
        POOL.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < POOL_MAX {
                p.push(self);
            }
        });
    }

    /// Empties the arena for a new run, keeping its memory.
    pub fn clear(&mut self) {
        // The table is read only for keys in `present`: no reset.
        self.nodes.clear();
        self.parents.clear();
        self.present = [0; WORDS];
        self.nests.clear();
        self.order.clear();
    }

    /// Empties the arena and makes `k` its one assumption, in the sets:
    /// the start of a run or a walk.
    pub fn restart(&mut self, k: u16) {
        self.clear();
        let root = self.make(k, &[]);
        self.insert(root);
    }

    /// Makes a node (not yet in the sets).
    #[inline]
    pub fn make(&mut self, key: u16, parents: &[u32]) -> u32 {
        let start = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.nodes.push(Node {
            key,
            cause: CAUSE_NONE,
            start,
            len: parents.len() as u32,
            nest: NONE,
        });
        (self.nodes.len() - 1) as u32
    }

    /// Adds a node to the sets (if its key is not there yet).
    #[inline]
    pub fn insert(&mut self, node: u32) -> bool {
        let k = self.nodes[node as usize].key;
        if self.contains(k) {
            return false;
        }
        self.present[k as usize / 64] |= 1 << (k % 64);
        self.index[k as usize] = node;
        self.order.push(node);
        true
    }

    /// The node the sets hold for a key.
    #[inline]
    pub fn get(&self, key: u16) -> Option<u32> {
        self.contains(key).then(|| self.index[key as usize])
    }

    /// Whether the sets hold a key.
    #[inline]
    pub fn contains(&self, key: u16) -> bool {
        has(&self.present, key)
    }

    /// The keys the sets hold.
    #[inline]
    pub fn keys(&self) -> &KeySet {
        &self.present
    }

    /// A node's key.
    #[inline]
    pub fn key(&self, node: u32) -> u16 {
        self.nodes[node as usize].key
    }

    /// A node's parents.
    #[inline]
    pub fn parents(&self, node: u32) -> &[u32] {
        let n = &self.nodes[node as usize];
        &self.parents[n.start as usize..(n.start + n.len) as usize]
    }

    /// Sets a node's cause.
    #[inline]
    pub fn set_cause(&mut self, node: u32, cause: u8) {
        self.nodes[node as usize].cause = cause;
    }

    /// A node's cause.
    #[inline]
    pub fn cause(&self, node: u32) -> u8 {
        self.nodes[node as usize].cause
    }

    /// Records a nested chain; its index is given to the "offs" it made.
    pub fn add_nest(&mut self, nest: Nest) -> u32 {
        self.nests.push(nest);
        (self.nests.len() - 1) as u32
    }

    /// Marks a node as made by the nested chain `nest` (from [`Arena::add_nest`]).
    pub fn set_nest(&mut self, node: u32, nest: u32) {
        self.nodes[node as usize].nest = nest;
    }

    /// The nested chain a node came from.
    #[inline]
    pub fn nest(&self, node: u32) -> Option<Nest> {
        let i = self.nodes[node as usize].nest;
        (i != NONE).then(|| self.nests[i as usize])
    }

    /// Whether `key` is a strict ancestor of `node` along first parents
    /// (SE's `isParent`).
    pub fn has_first_ancestor(&self, node: u32, key: u16) -> bool {
        let mut p = node;
        while let Some(&q) = self.parents(p).first() {
            p = q;
            if self.key(p) == key {
                return true;
            }
        }
        false
    }

    /// The number of distinct potentials among a node and all its
    /// ancestors (SE's `getAncestorCount`).
    pub fn ancestor_count(&self, node: u32) -> usize {
        let mut seen = [0u64; KEYS.div_ceil(64)];
        let mut queue = vec![node];
        let mut head = 0;
        let mut count = 0;
        while head < queue.len() {
            let n = queue[head];
            head += 1;
            let k = self.key(n) as usize;
            if seen[k / 64] >> (k % 64) & 1 == 1 {
                continue;
            }
            seen[k / 64] |= 1 << (k % 64);
            count += 1;
            queue.extend_from_slice(self.parents(n));
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit set answers as a plain list of the keys inserted does,
    /// across clears (the key-to-node table is not reset by them).
    #[test]
    fn present_keys_match_a_plain_list_across_clears() {
        let mut arena = Arena::default();
        let mut state = 12345u32;
        for round in 0..20 {
            arena.clear();
            let mut plain: Vec<(u16, u32)> = Vec::new();
            for _ in 0..200 + round * 20 {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let k = (state >> 8) as u16 % KEYS as u16;
                let n = arena.make(k, &[]);
                let fresh = !plain.iter().any(|&(q, _)| q == k);
                assert_eq!(arena.insert(n), fresh);
                if fresh {
                    plain.push((k, n));
                }
            }
            for k in 0..KEYS as u16 {
                let want = plain.iter().find(|&&(q, _)| q == k).map(|&(_, n)| n);
                assert_eq!(arena.get(k), want, "round {round} key {k}");
                assert_eq!(arena.contains(k), want.is_some());
                assert_eq!(has(arena.keys(), k), want.is_some());
            }
        }
    }
}
