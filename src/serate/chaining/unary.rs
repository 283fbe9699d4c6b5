//! SE's static chains from one candidate: bidirectional cycles (X, Y and
//! XY) and forcing chains (X and XY) that reach the candidate's own
//! negation. No grid changes while chaining, so no hidden parents.

use super::super::budget;
use super::super::grid::{digits, pop, Grid};
use super::super::rules::{add_removal, Rule};
use super::closure::Contradictions;
use super::graph::{cell_of, conjugate, digit_of, is_on, key, Arena, CAUSE_NONE};
use super::implications::{off_to_on, on_to_off, Places};
use super::{chain_hint, ChainHint};

/// Buffers reused by the runs of one [`hints`] call, so that a start's
/// walks do not allocate their queues anew.
#[derive(Default)]
struct Bufs {
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    offs: Vec<u16>,
    ons: Vec<(u16, super::implications::Source)>,
    found: Vec<u32>,
    /// The level of a breadth-first walk being followed.
    level: Vec<u32>,
}

/// Every cycle and forcing chain hint, in SE's order: X, then Y, then
/// XY; with their nested views when `nest` (for a chain nesting them).
/// Stops after the start that gave a hint of difficulty `enough` or
/// less (`f64::NEG_INFINITY`: never).
pub fn hints(g: &Grid, nest: bool, enough: f64) -> Vec<ChainHint> {
    let mut out = Vec::new();
    let places = Places::new(g);
    // No potential reaching its conjugate with every link: no cycle and
    // no forcing chain of any kind (module `closure`).
    let xy = Contradictions::new(g, &places, true);
    if !xy.any() {
        return out;
    }
    let mut arena = Arena::take();
    let mut bufs = Bufs::default();
    if !nest {
        if let Some(h) = quick_forcing((g, &places), &xy, enough, (&mut arena, &mut bufs)) {
            arena.give();
            return vec![h];
        }
    }
    for (y, x) in [(false, true), (true, false), (true, true)] {
        let only_x;
        let found = if y {
            &xy
        } else {
            only_x = Contradictions::new(g, &places, false);
            &only_x
        };
        if !found.any() {
            continue;
        }
        for cell in 0..81 {
            if g.values[cell] != 0 || pop(g.cands[cell]) < 2 {
                continue;
            }
            if pop(g.cands[cell]) > 2 && !x {
                continue;
            }
            // The clock is read only before a cell's work.
            if budget::expired() {
                break;
            }
            for v in digits(g.cands[cell]) {
                let before = out.len();
                let at = (cell, v);
                unary(
                    (g, &places),
                    (at, found),
                    (y, x),
                    nest,
                    (&mut arena, &mut bufs),
                    &mut out,
                );
                if out[before..]
                    .iter()
                    .any(|h| super::is_enough(h.hint.difficulty, enough))
                {
                    arena.give();
                    return out;
                }
            }
        }
    }
    arena.give();
    out
}

fn sort_key(y: bool, x: bool) -> u8 {
    if y && x {
        4
    } else if y {
        3
    } else {
        2
    }
}

/// The cycles and forcing chains from one candidate; `found` says which
/// runs can find something (the others are not made).
fn unary(
    (g, places): (&Grid, &Places),
    ((cell, v), found): ((usize, u8), &Contradictions),
    (y, x): (bool, bool),
    nest: bool,
    (arena, bufs): (&mut Arena, &mut Bufs),
    out: &mut Vec<ChainHint>,
) {
    let source = key(cell, v, true);
    let cycles = found.may_cycle(source);
    if cycles {
        do_cycles((g, places), arena, (y, x), source, bufs);
    } else {
        bufs.found.clear();
    }
    for i in 0..bufs.found.len() {
        let dst = bufs.found[i];
        if let Some(mut h) = cycle_hint(g, arena, dst, y, x) {
            if nest {
                h.nest = Some(Box::new(super::nested::cycle_info(arena, dst)));
            }
            out.push(h);
        }
    }
    if !x {
        return;
    }
    for start in [source, conjugate(source)] {
        if !found.reaches_conjugate(start) {
            continue;
        }
        do_forcing((g, places), arena, y, start, bufs);
        for &t in &bufs.found {
            out.extend(forcing_hint(g, arena, t, (y, x), nest));
        }
    }
}

/// The forcing chain hint of a walk's target `t` (its "on" places the
/// digit, its "off" strikes it); None for an "on" with nothing to strike.
fn forcing_hint(
    g: &Grid,
    arena: &Arena,
    t: u32,
    (y, x): (bool, bool),
    nest: bool,
) -> Option<ChainHint> {
    let k = arena.key(t);
    let (c, d) = (cell_of(k), digit_of(k));
    let rule = if y {
        Rule::XyForcingChain
    } else {
        Rule::ForcingChain
    };
    let base = rule.base();
    let cx = arena.ancestor_count(t);
    let (removals, place) = if is_on(k) {
        let rest = g.cands[c] & !(1 << d);
        if rest == 0 {
            return None;
        }
        (vec![(c as u8, rest)], Some((c as u8, d)))
    } else {
        (vec![(c as u8, 1 << d)], None)
    };
    let mut h = chain_hint(rule, base, cx, sort_key(y, x), removals, place);
    h.nest = nest.then(|| Box::new(super::nested::info(&[(arena, t)], CAUSE_NONE)));
    Some(h)
}

/// When any hint no harder than `enough` will do (`rate` past its ER
/// so far) and an XY forcing chain's base is no harder: the first XY
/// forcing chain no harder than `enough` from a false candidate's "on",
/// in the order of cells and digits, before the full search (X, then
/// Y, then XY, cycles included): the walks go only from the starts
/// `xy` says reach their negation.
fn quick_forcing(
    (g, places): (&Grid, &Places),
    xy: &Contradictions,
    enough: f64,
    (arena, bufs): (&mut Arena, &mut Bufs),
) -> Option<ChainHint> {
    if enough < Rule::XyForcingChain.base() {
        return None;
    }
    let truth = super::truth::of(g)?;
    for cell in 0..81 {
        if g.values[cell] != 0 || pop(g.cands[cell]) < 2 {
            continue;
        }
        for v in digits(g.cands[cell] & !(1 << truth[cell])) {
            let start = key(cell, v, true);
            if !xy.reaches_conjugate(start) {
                continue;
            }
            do_forcing((g, places), arena, true, start, bufs);
            for &t in &bufs.found {
                if let Some(h) = forcing_hint(g, arena, t, (true, true), false) {
                    if super::is_enough(h.hint.difficulty, enough) {
                        return Some(h);
                    }
                }
            }
        }
    }
    None
}

/// SE's `doCycles`: a breadth-first walk that may revisit "offs"; the
/// "ons" equal to the source reached after four links or more, left in
/// `bufs.found` (the arena starts anew from `source`).
fn do_cycles(
    (g, places): (&Grid, &Places),
    arena: &mut Arena,
    (y, x): (bool, bool),
    source: u16,
    bufs: &mut Bufs,
) {
    let Bufs {
        pending_on,
        pending_off,
        offs,
        ons,
        found: cycles,
        level: next,
    } = bufs;
    cycles.clear();
    pending_on.clear();
    pending_off.clear();
    arena.restart(source);
    pending_on.push(arena.order[0]);
    let mut length = 0;
    while !pending_on.is_empty() || !pending_off.is_empty() {
        length += 1;
        std::mem::swap(pending_on, next);
        pending_on.clear();
        for &p in next.iter() {
            on_to_off(g, places, arena.key(p), y, offs);
            for &k in offs.iter() {
                // Every ancestor's key is in the sets, so a key not there
                // needs no walk up the chain.
                if !arena.contains(k) || !arena.has_first_ancestor(p, k) {
                    let n = arena.make(k, &[p]);
                    pending_off.push(n);
                    arena.insert(n);
                }
            }
        }
        length += 1;
        std::mem::swap(pending_off, next);
        pending_off.clear();
        for &p in next.iter() {
            off_to_on(g, places, arena.key(p), (y, x), ons);
            for &(k, src) in ons.iter() {
                // A node only for a cycle closed or an "on" not reached
                // yet: the others would be made and never looked at.
                let closes = length >= 4 && k == source;
                let fresh = !arena.contains(k);
                if !closes && !fresh {
                    continue;
                }
                let n = arena.make(k, &[p]);
                arena.set_cause(n, src.code());
                if closes {
                    cycles.push(n);
                }
                if fresh {
                    pending_on.push(n);
                    arena.insert(n);
                }
            }
        }
    }
}

/// SE's `doForcingChains`: the first "on" or "off" reached that
/// contradicts the start, left in `bufs.found` (the arena starts anew
/// from `source`).
fn do_forcing(
    (g, places): (&Grid, &Places),
    arena: &mut Arena,
    y: bool,
    source: u16,
    bufs: &mut Bufs,
) {
    let Bufs {
        pending_on,
        pending_off,
        offs,
        ons,
        found: targets,
        ..
    } = bufs;
    targets.clear();
    pending_on.clear();
    pending_off.clear();
    arena.restart(source);
    let root = arena.order[0];
    if is_on(source) {
        pending_on.push(root);
    } else {
        pending_off.push(root);
    }
    while !pending_on.is_empty() || !pending_off.is_empty() {
        let mut i = 0;
        while i < pending_on.len() {
            let p = pending_on[i];
            i += 1;
            on_to_off(g, places, arena.key(p), y, offs);
            for &k in offs.iter() {
                if conjugate(k) == source && !targets.iter().any(|&t| arena.key(t) == k) {
                    let n = arena.make(k, &[p]);
                    targets.push(n);
                }
                // Not in the sets, so not an ancestor either (every
                // ancestor's key is in the sets).
                if !arena.contains(k) {
                    let n = arena.make(k, &[p]);
                    arena.insert(n);
                    pending_off.push(n);
                }
            }
        }
        pending_on.clear();
        let mut i = 0;
        while i < pending_off.len() {
            let p = pending_off[i];
            i += 1;
            off_to_on(g, places, arena.key(p), (y, true), ons);
            for &(k, src) in ons.iter() {
                if conjugate(k) == source && !targets.iter().any(|&t| arena.key(t) == k) {
                    let n = arena.make(k, &[p]);
                    arena.set_cause(n, src.code());
                    targets.push(n);
                }
                if !arena.contains(k) {
                    let n = arena.make(k, &[p]);
                    arena.set_cause(n, src.code());
                    arena.insert(n);
                    pending_on.push(n);
                }
            }
        }
        pending_off.clear();
    }
}

/// SE's `createCycleHint`: what both colours of the cycle see.
fn cycle_hint(g: &Grid, arena: &Arena, dst: u32, y: bool, x: bool) -> Option<ChainHint> {
    let mut chain = Vec::new();
    let mut cells = 0u128;
    let mut p = dst;
    while let Some(&q) = arena.parents(p).first() {
        chain.push(p);
        cells |= 1 << cell_of(arena.key(p));
        p = q;
    }
    let mut forw: Vec<(u8, u8)> = Vec::new();
    let mut back: Vec<(u8, u8)> = Vec::new();
    for &n in &chain {
        let k = arena.key(n);
        let (c, d) = (cell_of(k), digit_of(k));
        for h in Grid::house_cells(c) {
            if cells >> h & 1 == 0 && g.has(h, d) {
                let list = if is_on(k) { &mut forw } else { &mut back };
                if !list.contains(&(h as u8, d)) {
                    list.push((h as u8, d));
                }
            }
        }
    }
    let mut removals = Vec::new();
    for e in forw.iter().filter(|e| back.contains(e)) {
        add_removal(&mut removals, e.0 as usize, 1 << e.1);
    }
    if removals.is_empty() {
        return None;
    }
    let (rule, base) = if y && x {
        (Rule::XyCycle, 7.0)
    } else {
        (Rule::Cycle, 6.5)
    };
    Some(chain_hint(
        rule,
        base,
        arena.ancestor_count(dst),
        sort_key(y, x),
        removals,
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::super::grid::parse;
    use super::*;

    /// The grids of SE runs, at each step that needs a chain, of two
    /// puzzles SE rates by a cycle and an XY-cycle (`serate::tests`).
    fn chain_grids() -> Vec<Grid> {
        let mut out = Vec::new();
        for line in [
            "6....4..2...8....1..2....7..4...1......2..3.62.9..8...583..9...9.....4......15.9.",
            "......57.6...84.......2...4..1.4...9..78..2..3......8...9...4...3..5..9241...3...",
        ] {
            let mut g = Grid::new(&parse(line).expect("81 digits"));
            while let Some(h) = crate::serate::next_hint(&g, false) {
                if h.difficulty >= 6.2 {
                    out.push(g.clone());
                }
                h.apply(&mut g);
            }
        }
        out
    }

    #[test]
    fn no_start_with_a_cycle_hint_is_skipped() {
        let (mut seen, mut hints) = ([0usize; 2], 0);
        for g in chain_grids() {
            let places = Places::new(&g);
            let mut arena = Arena::default();
            let mut bufs = Bufs::default();
            for (y, x) in [(false, true), (true, false), (true, true)] {
                let found = Contradictions::new(&g, &places, y);
                for cell in (0..81).filter(|&c| pop(g.cands[c]) >= 2) {
                    for v in digits(g.cands[cell]) {
                        let source = key(cell, v, true);
                        do_cycles((&g, &places), &mut arena, (y, x), source, &mut bufs);
                        let hint = bufs
                            .found
                            .iter()
                            .any(|&dst| cycle_hint(&g, &arena, dst, y, x).is_some());
                        let may = found.may_cycle(source);
                        assert!(may || !hint, "a cycle from {cell} {v} is skipped");
                        seen[may as usize] += 1;
                        hints += hint as usize;
                    }
                }
            }
        }
        assert!(seen[0] > 0 && hints > 0, "{seen:?} {hints}");
    }

    /// With any hint no harder than `enough` wanted, the quick search
    /// takes the first start, in the order of cells and digits, among
    /// the false candidates' "on"s that reach their "off": its XY
    /// forcing chain strikes what the solution rules out and is a hint
    /// SE's full search finds too; below the rule's base it finds none.
    #[test]
    fn quick_forcing_is_the_first_false_starts_hint_of_the_full_search() {
        let line =
            "6....4..2...8....1..2....7..4...1......2..3.62.9..8...583..9...9.....4......15.9.";
        let p = parse(line).expect("81 digits");
        let _known = super::super::Known::new(&p);
        let (mut quick, mut grids) = (0, 0);
        let mut g = Grid::new(&p);
        while let Some(step) = crate::serate::next_hint(&g, false) {
            if step.difficulty >= 6.2 {
                grids += 1;
                let solution = super::super::truth::of(&g).expect("the grid fits the solution");
                let places = Places::new(&g);
                let xy = Contradictions::new(&g, &places, true);
                let (mut arena, mut bufs) = (Arena::default(), Bufs::default());
                let mut ask =
                    |enough| quick_forcing((&g, &places), &xy, enough, (&mut arena, &mut bufs));
                assert!(ask(6.9).is_none(), "below the base of XY forcing chains");
                if let Some(h) = ask(7.0) {
                    assert!(h.hint.difficulty <= 7.0 + 1e-9, "{h:?}");
                }
                if let Some(h) = ask(20.0) {
                    quick += 1;
                    assert_eq!((h.hint.rule, h.hint.place), (Rule::XyForcingChain, None));
                    let [(cell, m)] = h.hint.removals[..] else {
                        panic!("one strike: {h:?}");
                    };
                    let (cell, v) = (cell as usize, m.trailing_zeros() as u8);
                    assert_eq!(m.count_ones(), 1);
                    assert_ne!(solution[cell], v, "a false candidate");
                    let earlier = (0..81)
                        .flat_map(|c| digits(g.cands[c]).map(move |d| (c, d)))
                        .take_while(|&at| at != (cell, v))
                        .filter(|&(c, d)| g.values[c] == 0 && solution[c] != d);
                    for (c, d) in earlier {
                        assert!(
                            !xy.reaches_conjugate(key(c, d, true)),
                            "{c} {d} comes first"
                        );
                    }
                    let full = hints(&g, false, f64::NEG_INFINITY);
                    assert!(
                        full.iter().any(|f| f.hint.rule == h.hint.rule
                            && f.hint.removals == h.hint.removals
                            && f.complexity == h.complexity),
                        "{h:?} is not among SE's hints"
                    );
                }
            }
            step.apply(&mut g);
        }
        assert!(grids > 0 && quick > 0, "{grids} {quick}");
    }
}
