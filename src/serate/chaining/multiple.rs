//! Binary (contradiction and double implication), region and cell
//! forcing chains, as SE's `getMultipleChainsHintList` finds them, cell
//! by cell.

use super::super::budget;
use super::super::grid::{digits, Grid, CELL_REGIONS, REGION_CELLS};
use super::graph::{cell_of, digit_of, is_on, key, Arena, CAUSE_CELL, CAUSE_NONE};
use super::implications::{run, Mode, Scratch};
use super::{chain_hint, nested, ChainHint, Chainer};

/// What a hint on `target` (a key) strikes and places: an "on" strikes
/// the cell's other candidates and places the digit, an "off" strikes
/// the candidate. None when an "on" has nothing to strike (SE drops it).
/// What a hint strikes and what it places.
type Effect = (Vec<(u8, u16)>, Option<(u8, u8)>);

fn effect(g: &Grid, target: u16) -> Option<Effect> {
    let (c, d) = (cell_of(target), digit_of(target));
    if is_on(target) {
        let rest = g.cands[c] & !(1 << d);
        (rest != 0).then(|| (vec![(c as u8, rest)], Some((c as u8, d))))
    } else {
        Some((vec![(c as u8, 1 << d)], None))
    }
}

struct Ctx<'a> {
    g: &'a Grid,
    chainer: Chainer,
    nest: bool,
    mode: Mode,
    scratch: Scratch,
    out: Vec<ChainHint>,
}

impl Ctx<'_> {
    /// A hint with these chain targets (SE's `getChainsTargets`).
    fn push(
        &mut self,
        targets: &[(&Arena, u32)],
        root_cause: u8,
        sort_key: u8,
        (removals, place): Effect,
    ) {
        let rule = self.chainer.rule();
        let mut h = chain_hint(
            rule,
            rule.base(),
            nested::complexity(targets),
            sort_key,
            removals,
            place,
        );
        if self.nest {
            h.nest = Some(Box::new(nested::info(targets, root_cause)));
        }
        self.out.push(h);
    }

    /// A hint whose result is `target` itself (reductions, doubles).
    fn push_target(
        &mut self,
        targets: &[(&Arena, u32)],
        root_cause: u8,
        target: u16,
        sort_key: u8,
    ) {
        if let Some(e) = effect(self.g, target) {
            self.push(targets, root_cause, sort_key, e);
        }
    }

    fn start(&mut self, arena: &mut Arena, k: u16) -> Option<(u32, u32)> {
        arena.clear();
        let n = arena.make(k, &[]);
        arena.insert(n);
        run(self.g, arena, self.mode, &mut self.scratch)
    }
}

/// Every hint of a multiple, dynamic or Nishio chainer, in SE's order;
/// with their nested views when `nest` (for a chain nesting them).
pub fn hints(g: &Grid, chainer: Chainer, nest: bool) -> Vec<ChainHint> {
    let mut ctx = Ctx {
        g,
        chainer,
        nest,
        mode: Mode {
            y: !chainer.nishio,
            dynamic: chainer.dynamic,
            level: chainer.level,
        },
        scratch: Scratch::new(g),
        out: Vec::new(),
    };
    let mut ons: Vec<Arena> = Vec::new();
    let mut off = Arena::default();
    let mut others: Vec<Arena> = Vec::new();
    for cell in 0..81 {
        if budget::expired() {
            break;
        }
        let card = g.cands[cell].count_ones();
        if g.values[cell] == 0 && (card > 2 || (card > 1 && chainer.dynamic)) {
            cell_hints(&mut ctx, cell, card, &mut ons, &mut off, &mut others);
        }
    }
    ctx.out
}

fn cell_hints(
    ctx: &mut Ctx,
    cell: usize,
    card: u32,
    ons: &mut Vec<Arena>,
    off: &mut Arena,
    others: &mut Vec<Arena>,
) {
    let chainer = ctx.chainer;
    let double = card >= 3 && !chainer.nishio && chainer.dynamic;
    let contradiction = chainer.dynamic || chainer.nishio;
    while ons.len() < card as usize {
        ons.push(Arena::default());
    }
    for (i, v) in digits(ctx.g.cands[cell]).enumerate() {
        let on = &mut ons[i];
        let absurd = ctx.start(on, key(cell, v, true));
        if contradiction {
            if let Some((a, b)) = absurd {
                let e = (vec![(cell as u8, 1 << v)], None);
                ctx.push(&[(on, a), (on, b)], CAUSE_NONE, 7, e);
            }
        }
        let absurd = ctx.start(off, key(cell, v, false));
        if contradiction {
            if let Some((a, b)) = absurd {
                let rest = ctx.g.cands[cell] & !(1 << v);
                if rest != 0 {
                    let e = (vec![(cell as u8, rest)], Some((cell as u8, v)));
                    ctx.push(&[(off, a), (off, b)], CAUSE_NONE, 7, e);
                }
            }
        }
        let on = &ons[i];
        if double {
            for want_on in [true, false] {
                for &n in &on.order {
                    let k = on.key(n);
                    if is_on(k) != want_on {
                        continue;
                    }
                    if let Some(m) = off.get(k) {
                        ctx.push_target(&[(on, n), (off, m)], CAUSE_NONE, k, 1);
                    }
                }
            }
        }
        if !chainer.nishio {
            region_hints(ctx, cell, v, on, others);
        }
    }
    if !chainer.nishio && (card == 2 || (chainer.multiple && card > 2)) {
        let arenas = &ons[..card as usize];
        for want_on in [true, false] {
            for &n in &arenas[0].order {
                let k = arenas[0].key(n);
                if is_on(k) != want_on {
                    continue;
                }
                if arenas[1..].iter().all(|a| a.contains(k)) {
                    let targets: Vec<(&Arena, u32)> = arenas
                        .iter()
                        .filter_map(|a| a.get(k).map(|m| (a, m)))
                        .collect();
                    ctx.push_target(&targets, CAUSE_CELL, k, 5);
                }
            }
        }
    }
}

/// Region forcing chains for digit `v` in the regions of `cell`, when
/// `cell` is the region's first place for `v`.
fn region_hints(ctx: &mut Ctx, cell: usize, v: u8, on: &Arena, others: &mut Vec<Arena>) {
    for r in CELL_REGIONS[cell] {
        let r = r as usize;
        let pos = ctx.g.positions(r, v);
        let n = pos.count_ones();
        if !(n == 2 || (ctx.chainer.multiple && n > 2)) {
            continue;
        }
        if REGION_CELLS[r][pos.trailing_zeros() as usize] as usize != cell {
            continue;
        }
        while others.len() < 9 {
            others.push(Arena::default());
        }
        let mut used = 0;
        for i in 0..9 {
            if pos >> i & 1 == 0 {
                continue;
            }
            let c = REGION_CELLS[r][i] as usize;
            if c == cell {
                continue;
            }
            let mut a = std::mem::take(&mut others[used]);
            ctx.start(&mut a, key(c, v, true));
            others[used] = a;
            used += 1;
        }
        let rest = &others[..used];
        for want_on in [true, false] {
            for &n in &on.order {
                let k = on.key(n);
                if is_on(k) != want_on {
                    continue;
                }
                if rest.iter().all(|a| a.contains(k)) {
                    let targets: Vec<(&Arena, u32)> = std::iter::once((on, n))
                        .chain(rest.iter().filter_map(|a| a.get(k).map(|m| (a, m))))
                        .collect();
                    ctx.push_target(&targets, r as u8, k, 6);
                }
            }
        }
    }
}
