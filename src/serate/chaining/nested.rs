//! SE's nested forcing chains (`Chaining` with a level of 2 or more):
//! when a run of dynamic chains has nothing left to follow and the
//! simple rules of the "+" give nothing, whole chaining rules are asked
//! on the run's working grid — forcing chains and cycles (level 2), then
//! multiple chains (3); dynamic chains (4), then dynamic chains nested at
//! level 2 (5). Every hint of the first rule that gives any whose chains
//! needed a strike of the run (its "rule parents") makes "offs" of what
//! it strikes, with those strikes as parents, and the hint as the off's
//! nested chain: its complexity adds to the complexity of every outer
//! hint that uses it (once per distinct nested chain).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::super::grid::{digits, Grid, CELL_REGIONS, REGION_CELLS};
use super::graph::{cell_of, digit_of, is_on, key, Arena, Nest, CAUSE_CELL, CAUSE_NONE, KEYS};
use super::{multiple, sorted, unary, ChainHint, Chainer};

/// What an outer chain needs of a nested hint: its identity, and the
/// "on" potentials of its chains with their causes, as (cell, digit,
/// cause), from which its rule parents follow.
#[derive(Debug, Clone, PartialEq)]
pub struct NestInfo {
    /// SE's `FullChain` identity, as a fingerprint of the targets and
    /// the potentials of their chains.
    pub fingerprint: u64,
    /// The "on" potentials with a cause, in SE's order.
    pub causes: Vec<(u8, u8, u8)>,
}

/// Visits the distinct potentials (by key) of `node` and its ancestors,
/// breadth first, as SE's `getChain` lists them, while `f` says to go on.
fn walk(arena: &Arena, node: u32, mut f: impl FnMut(u32) -> bool) {
    // The queue is this thread's, reused (a walk per hint found); taken
    // out while walking, so a nested walk inside `f` gets its own.
    let mut queue = QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()));
    queue.clear();
    queue.push(node);
    let mut seen = [0u64; KEYS.div_ceil(64)];
    let mut head = 0;
    while head < queue.len() {
        let n = queue[head];
        head += 1;
        let k = arena.key(n) as usize;
        if seen[k / 64] >> (k % 64) & 1 == 1 {
            continue;
        }
        seen[k / 64] |= 1 << (k % 64);
        if !f(n) {
            break;
        }
        queue.extend_from_slice(arena.parents(n));
    }
    QUEUE.with(|q| *q.borrow_mut() = queue);
}

thread_local! {
    /// The queue [`walk`] reuses.
    static QUEUE: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// SE's complexity of a hint with these chain targets: the ancestor
/// counts summed, plus the complexity of each distinct nested chain met.
#[cfg(test)]
pub fn complexity(targets: &[(&Arena, u32)]) -> usize {
    complexity_within(targets, usize::MAX).unwrap_or(usize::MAX)
}

/// [`complexity`], or None as soon as it is known to pass `cap` (the
/// walks stop there).
pub fn complexity_within(targets: &[(&Arena, u32)], cap: usize) -> Option<usize> {
    let mut total: usize = 0;
    let mut seen: Vec<u64> = Vec::new();
    for &(arena, t) in targets {
        walk(arena, t, |n| {
            total += 1;
            if let Some(nest) = arena.nest(n) {
                if !seen.contains(&nest.fingerprint) {
                    seen.push(nest.fingerprint);
                    total = total.saturating_add(nest.complexity);
                }
            }
            total <= cap
        });
        if total > cap {
            return None;
        }
    }
    Some(total)
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3)
}

/// The nested view of a hint with these chain targets; `root_cause` is
/// the cause SE gives the assumption (the cell for cell chains, the
/// region for region chains, none for the others).
pub fn info(targets: &[(&Arena, u32)], root_cause: u8) -> NestInfo {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut causes = Vec::new();
    for &(arena, t) in targets {
        h = mix(h, 0x1_0000 | u64::from(arena.key(t)));
        walk(arena, t, |n| {
            let k = arena.key(n);
            h = mix(h, u64::from(k));
            let mut cause = arena.cause(n);
            if cause == CAUSE_NONE && arena.parents(n).is_empty() {
                cause = root_cause;
            }
            if is_on(k) && cause != CAUSE_NONE {
                causes.push((cell_of(k) as u8, digit_of(k), cause));
            }
            true
        });
    }
    NestInfo {
        fingerprint: h,
        causes,
    }
}

/// The cause SE gives an "off" reached from the "on" `parent`: the cell,
/// or the first region (block, row, column) the two cells share.
fn off_cause(parent: u16, off: u16) -> u8 {
    let (p, c) = (cell_of(parent), cell_of(off));
    if p == c {
        return CAUSE_CELL;
    }
    CELL_REGIONS[p]
        .into_iter()
        .find(|&r| REGION_CELLS[r as usize].contains(&(c as u8)))
        .unwrap_or(CAUSE_NONE)
}

/// The nested view of a cycle ending on `dst`: its chain, and its
/// reversed chain, where every "off" is an "on" with the off's cause.
pub fn cycle_info(arena: &Arena, dst: u32) -> NestInfo {
    let mut out = info(&[(arena, dst)], CAUSE_NONE);
    let mut p = dst;
    while let Some(&q) = arena.parents(p).first() {
        let k = arena.key(p);
        if !is_on(k) {
            let cause = off_cause(arena.key(q), k);
            if cause != CAUSE_NONE {
                out.causes.push((cell_of(k) as u8, digit_of(k), cause));
            }
        }
        p = q;
    }
    out
}

/// The strikes of the run (keys of "offs") a nested hint needed: what
/// the cells and regions of its causes lost between `start` and `cur`.
fn rule_parents(start: &Grid, cur: &Grid, info: &NestInfo, out: &mut Vec<u16>) {
    out.clear();
    let mut push = |k: u16| {
        if !out.contains(&k) {
            out.push(k);
        }
    };
    for &(cell, d, cause) in &info.causes {
        let cell = cell as usize;
        if cause == CAUSE_CELL {
            for v in digits(start.cands[cell] & !cur.cands[cell]) {
                push(key(cell, v, false));
            }
        } else {
            for &c in &REGION_CELLS[cause as usize] {
                let c = c as usize;
                if start.has(c, d) && !cur.has(c, d) {
                    push(key(c, d, false));
                }
            }
        }
    }
}

/// The chainers nested at `level`, in SE's order.
fn inner_chainers(level: u8) -> &'static [Option<Chainer>] {
    const LEVEL_2: Chainer = Chainer {
        level: 2,
        ..Chainer::DYNAMIC
    };
    match level {
        2 => &[None],
        3 => &[None, Some(Chainer::MULTIPLE)],
        4 => &[Some(Chainer::DYNAMIC)],
        _ => &[Some(Chainer::DYNAMIC), Some(LEVEL_2)],
    }
}

/// The hints of the nested chainers on the working grids met lately:
/// the runs of one chainer from different assumptions often exhaust on
/// the same grid (a cell's "on" and its other candidate's "off"), and a
/// level asks again what the level below asked.
type Cache = HashMap<(Grid, Option<Chainer>), Rc<Vec<ChainHint>>>;

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(HashMap::new());
}

/// The most grids [`CACHE`] keeps (it is emptied when full).
const CACHE_MAX: usize = 512;

/// [`hints`] through the cache.
fn cached_hints(g: &Grid, chainer: Option<Chainer>) -> Rc<Vec<ChainHint>> {
    let key = (g.clone(), chainer);
    if let Some(found) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return found;
    }
    let list = Rc::new(hints(g, chainer));
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_MAX {
            c.clear();
        }
        c.insert(key, Rc::clone(&list));
    });
    list
}

/// Every hint of a chainer (None: cycles and forcing chains) on `g`,
/// with its nested view, sorted as SE sorts them, equal strikes once.
fn hints(g: &Grid, chainer: Option<Chainer>) -> Vec<ChainHint> {
    let list = match chainer {
        None => unary::hints(g, true, f64::NEG_INFINITY),
        Some(c) => multiple::hints(g, c, true, f64::NEG_INFINITY),
    };
    let mut seen: HashSet<Vec<(u8, u16)>> = HashSet::new();
    sorted(list)
        .into_iter()
        .filter(|h| {
            let mut r = h.hint.removals.clone();
            r.sort_unstable();
            seen.insert(r)
        })
        .collect()
}

/// The new "offs" the chainers nested at `level` give on `cur`, the
/// working grid of a run that began on `start`: (key, parent nodes,
/// nested chain index in `arena`).
pub fn potentials(
    start: &Grid,
    cur: &Grid,
    arena: &mut Arena,
    level: u8,
    out: &mut Vec<(u16, Vec<u32>, Option<u32>)>,
) {
    let mut keys = Vec::new();
    for &chainer in inner_chainers(level) {
        for h in cached_hints(cur, chainer).iter() {
            let Some(info) = h.nest.as_deref() else {
                continue;
            };
            rule_parents(start, cur, info, &mut keys);
            if keys.is_empty() {
                continue;
            }
            let parents: Vec<u32> = keys.iter().filter_map(|&k| arena.get(k)).collect();
            let nest = arena.add_nest(Nest {
                fingerprint: info.fingerprint,
                complexity: h.complexity,
            });
            for &(c, m) in &h.hint.removals {
                for d in digits(m) {
                    out.push((key(c as usize, d, false), parents.clone(), Some(nest)));
                }
            }
        }
        if !out.is_empty() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::graph::{key, Arena, Nest, CAUSE_CELL, CAUSE_NONE};
    use super::{complexity, complexity_within, info, off_cause, rule_parents, walk, NestInfo};
    use crate::serate::grid::Grid;

    /// The reused queue gives each walk, nested ones too, every distinct
    /// ancestor once, as the arena's own count.
    #[test]
    fn walks_reusing_the_queue_count_as_the_arena() {
        let mut a = Arena::default();
        let r = a.make(key(0, 1, true), &[]);
        let b = a.make(key(0, 2, false), &[r]);
        let c = a.make(key(1, 1, false), &[r]);
        let d = a.make(key(1, 2, true), &[b, c]);
        let e = a.make(key(2, 3, false), &[d, b]);
        for n in [r, b, c, d, e] {
            let (mut outer, mut inner) = (0, 0);
            walk(&a, n, |m| {
                outer += 1;
                walk(&a, m, |_| {
                    inner += 1;
                    true
                });
                true
            });
            let count = a.ancestor_count(n);
            assert_eq!(outer, count);
            assert!(inner >= outer);
            assert_eq!(complexity(&[(&a, n)]), count);
            assert_eq!(complexity_within(&[(&a, n)], count), Some(count));
            assert_eq!(
                complexity_within(&[(&a, n), (&a, n)], 2 * count),
                Some(2 * count)
            );
            assert_eq!(complexity_within(&[(&a, n), (&a, n)], 2 * count - 1), None);
            assert_eq!(complexity_within(&[(&a, n)], count - 1), None);
        }
    }

    #[test]
    fn an_off_takes_its_cell_or_first_shared_region_as_cause() {
        // r1c1 on: r1c1's 2 goes off by the cell, r1c2's 1 by the block
        // (0) before the row (9), r2c1's 1 by the block, r9c1's 1 by the
        // column (18).
        let on = key(0, 1, true);
        assert_eq!(off_cause(on, key(0, 2, false)), CAUSE_CELL);
        assert_eq!(off_cause(on, key(1, 1, false)), 0);
        assert_eq!(off_cause(on, key(9, 1, false)), 0);
        assert_eq!(off_cause(on, key(72, 1, false)), 18);
        assert_eq!(off_cause(on, key(8, 1, false)), 9);
    }

    #[test]
    fn rule_parents_are_what_the_causes_cells_and_regions_lost() {
        let start = Grid::new(&[0; 81]);
        let mut cur = start.clone();
        cur.cands[0] &= !(1 << 3 | 1 << 5); // r1c1 lost 3 and 5
        cur.cands[4] &= !(1 << 7); // r1c5 lost 7 (row 0 is region 9)
        cur.cands[40] &= !(1 << 7); // r5c5 lost 7, outside row 1
        let nest = NestInfo {
            fingerprint: 0,
            causes: vec![(0, 1, CAUSE_CELL), (2, 7, 9), (0, 2, CAUSE_CELL)],
        };
        let mut out = Vec::new();
        rule_parents(&start, &cur, &nest, &mut out);
        assert_eq!(
            out,
            vec![key(0, 3, false), key(0, 5, false), key(4, 7, false)]
        );
    }

    #[test]
    fn complexity_adds_each_distinct_nested_chain_once() {
        // root -> a (made by nest X) -> b (made by nest X again) and
        // c (made by nest Y): 4 potentials + 10 (X once) + 3 (Y).
        let mut arena = Arena::default();
        let root = arena.make(key(0, 1, true), &[]);
        arena.insert(root);
        let x = arena.add_nest(Nest {
            fingerprint: 7,
            complexity: 10,
        });
        let y = arena.add_nest(Nest {
            fingerprint: 9,
            complexity: 3,
        });
        let x2 = arena.add_nest(Nest {
            fingerprint: 7,
            complexity: 10,
        });
        let a = arena.make(key(5, 2, false), &[root]);
        arena.set_nest(a, x);
        let b = arena.make(key(6, 2, false), &[a]);
        arena.set_nest(b, x2);
        let c = arena.make(key(7, 3, false), &[b, root]);
        arena.set_nest(c, y);
        assert_eq!(complexity(&[(&arena, c)]), 4 + 10 + 3);
        assert_eq!(complexity(&[(&arena, a)]), 2 + 10);
        // Two targets share the processed set: X counts once in all.
        assert_eq!(complexity(&[(&arena, a), (&arena, b)]), 2 + 3 + 10);
    }

    #[test]
    fn the_assumption_takes_the_hints_root_cause_and_offs_give_none() {
        let mut arena = Arena::default();
        let root = arena.make(key(0, 1, true), &[]);
        let off = arena.make(key(1, 1, false), &[root]);
        let on = arena.make(key(10, 1, true), &[off]);
        arena.set_cause(on, 0);
        let cell = info(&[(&arena, on)], CAUSE_CELL);
        assert_eq!(cell.causes, vec![(10, 1, 0), (0, 1, CAUSE_CELL)]);
        let binary = info(&[(&arena, on)], CAUSE_NONE);
        assert_eq!(binary.causes, vec![(10, 1, 0)]);
        assert_eq!(cell.fingerprint, binary.fingerprint);
        assert_ne!(
            info(&[(&arena, off)], CAUSE_NONE).fingerprint,
            cell.fingerprint
        );
    }
}
