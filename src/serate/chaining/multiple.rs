//! Binary (contradiction and double implication), region and cell
//! forcing chains, as SE's `getMultipleChainsHintList` finds them, cell
//! by cell.

use super::super::budget;
use super::super::grid::{bits, digits, pop, Grid, CELL_REGIONS, REGION_CELLS};
use super::closure::Reach;
use super::graph::{
    cell_of, digit_of, has, is_on, key, Arena, KeySet, CAUSE_CELL, CAUSE_NONE, WORDS,
};
use super::implications::{run, Mode, Scratch};
use super::templates::Templates;
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
    /// A hint of this difficulty or less ends the search.
    enough: f64,
    /// Whether such a hint was found.
    done: bool,
    /// The easiest hint's difficulty so far, and the most complex hint
    /// no harder ([`most_complex`]): a harder hint is never SE's choice,
    /// so it is not made (its walk stops past the cap).
    easiest: f64,
    cap: usize,
    /// A Nishio chainer's templates (module `templates`).
    templates: Option<std::rc::Rc<Templates>>,
    /// The grid's only solution, when known (module `truth`).
    truth: Option<[u8; 81]>,
}

impl<'a> Ctx<'a> {
    fn new(
        g: &'a Grid,
        chainer: Chainer,
        (nest, enough): (bool, f64),
        truth: Option<[u8; 81]>,
    ) -> Ctx<'a> {
        Ctx {
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
            enough,
            done: false,
            easiest: f64::INFINITY,
            cap: usize::MAX,
            templates: chainer.nishio.then(|| std::rc::Rc::new(Templates::new(g))),
            truth,
        }
    }

    /// Whether a run from the assumption `k` may meet a contradiction:
    /// not when the grid's only solution makes `k` true (module `truth`).
    fn may_contradict(&self, k: u16) -> bool {
        self.truth
            .is_none_or(|s| (s[cell_of(k)] == digit_of(k)) != is_on(k))
    }

    /// A hint with these chain targets (SE's `getChainsTargets`).
    fn push(
        &mut self,
        targets: &[(&Arena, u32)],
        root_cause: u8,
        sort_key: u8,
        (removals, place): Effect,
    ) {
        let rule = self.chainer.rule();
        // A hint harder than one found is not the easiest: not made (but
        // every hint counts when nesting).
        let cap = if self.nest { usize::MAX } else { self.cap };
        let Some(complexity) = nested::complexity_within(targets, cap) else {
            return;
        };
        let mut h = chain_hint(rule, rule.base(), complexity, sort_key, removals, place);
        if self.nest {
            h.nest = Some(Box::new(nested::info(targets, root_cause)));
        }
        self.done |= super::is_enough(h.hint.difficulty, self.enough);
        if h.hint.difficulty < self.easiest {
            self.easiest = h.hint.difficulty;
            self.cap = most_complex(rule.base(), self.easiest);
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
        arena.restart(k);
        run(self.g, arena, self.mode, &mut self.scratch)
    }
}

/// The highest complexity a hint of `base` may have and be no harder than
/// `difficulty`.
fn most_complex(base: f64, difficulty: f64) -> usize {
    // The longest chain with each count of additions is a ceiling of
    // `length_addition` plus 2.
    super::length_ceilings()
        .map(|ceil| ceil + 2)
        .take_while(|&c| super::is_enough(base + super::length_addition(c), difficulty))
        .last()
        .unwrap_or(0)
}

/// The runs from each "on" assumption, each made once: a cell's chains
/// and the region chains of its digits ask the same runs (a run depends
/// only on the grid, the mode and the assumption). The runs lie in one
/// list, found through a table of 729 slots (no allocation per run).
struct Runs {
    /// For each `(cell, digit)`, its run's place in `made` (or `NONE`).
    slot: [u32; 729],
    made: Vec<Run>,
}

/// One run: its arena and the contradiction it met.
type Run = (Arena, Option<(u32, u32)>);

const NO_RUN: u32 = u32::MAX;

impl Drop for Runs {
    fn drop(&mut self) {
        for run in self.made.drain(..) {
            run.0.give();
        }
    }
}

impl Runs {
    fn new() -> Runs {
        Runs {
            slot: [NO_RUN; 729],
            made: Vec::new(),
        }
    }

    fn index(cell: usize, v: u8) -> usize {
        cell * 9 + v as usize - 1
    }

    /// Makes the run from `cell` holding `v`, if not made yet.
    fn ensure(&mut self, ctx: &mut Ctx, cell: usize, v: u8) {
        let i = Runs::index(cell, v);
        if self.slot[i] == NO_RUN {
            let mut arena = Arena::take();
            let absurd = ctx.start(&mut arena, key(cell, v, true));
            self.slot[i] = self.made.len() as u32;
            self.made.push((arena, absurd));
        }
    }

    /// The candidates (cell, digit) whose runs met a contradiction of
    /// complexity `cap` or less, the least complex last (tried first).
    fn contradicting(&self, cap: usize) -> Vec<(u8, u8)> {
        let mut hits: Vec<(usize, u8, u8)> = (0..81)
            .flat_map(|c| (1..=9).map(move |v| (c, v)))
            .filter_map(|(c, v)| {
                let at = self.slot[Runs::index(c, v)];
                let (on, absurd) = self.made.get(at as usize)?;
                let (a, b) = (*absurd)?;
                let n = nested::complexity_within(&[(on, a), (on, b)], cap)?;
                Some((n, c as u8, v))
            })
            .collect();
        hits.sort_by_key(|h| std::cmp::Reverse(h.0));
        hits.into_iter().map(|(_, c, v)| (c, v)).collect()
    }

    /// The run from `cell` holding `v` and the contradiction it met;
    /// None until [`Runs::ensure`] made it.
    fn get(&self, cell: usize, v: u8) -> Option<(&Arena, Option<(u32, u32)>)> {
        let at = self.slot[Runs::index(cell, v)];
        self.made.get(at as usize).map(|r| (&r.0, r.1))
    }
}

/// Every hint of a multiple, dynamic or Nishio chainer, in SE's order;
/// with their nested views when `nest` (for a chain nesting them).
/// Stops after the candidate that gave a hint of difficulty `enough` or
/// less (`f64::NEG_INFINITY`: never).
pub fn hints(g: &Grid, chainer: Chainer, nest: bool, enough: f64) -> Vec<ChainHint> {
    hints_knowing(g, chainer, (nest, enough), truth_for(g, chainer))
}

/// The grid's only solution when a dynamic chainer can use it (module
/// `truth`).
fn truth_for(g: &Grid, chainer: Chainer) -> Option<[u8; 81]> {
    chainer.dynamic.then(|| super::truth::of(g)).flatten()
}

/// Where a dynamic chainer's first look for a contradiction no harder
/// than `enough` starts, kept from one step of a rating run to the
/// next: consecutive steps tend to find theirs where the last did. A
/// speed device: the hint is still one no harder than `enough`, so the
/// step leaves ER as SE's would.
///
/// ```
/// use xlsudoku::serate::chaining::{forcing_chains_from, Chainer, Known, Leads};
/// use xlsudoku::serate::grid::{parse, Grid};
///
/// let p = parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
///     .expect("81 digits");
/// let _known = Known::new(&p); // the solution, for the quick look
/// let g = Grid::new(&p);
/// let mut leads = Leads::default();
/// // Any dynamic chain will do: the first contradiction is taken.
/// let hint = forcing_chains_from(&g, Chainer::DYNAMIC, 20.0, &mut leads).expect("a chain");
/// assert!(hint.difficulty >= 8.5);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Leads {
    /// The cell where the last one was found: the scan of the grid
    /// starts there and goes round.
    from: usize,
    /// Before the scan, these candidates (cell, digit), last first: those
    /// whose "on" met a contradiction when a full search last made every
    /// run. On a later grid of the run, with fewer candidates, such a
    /// run nearly always meets one again.
    hits: Vec<(u8, u8)>,
}

/// As [`hints`] without nesting, a dynamic chainer's first look for a
/// contradiction no harder than `enough` ([`quick_contradiction`]) led
/// by `leads`, which it updates.
pub fn hints_from(g: &Grid, chainer: Chainer, enough: f64, leads: &mut Leads) -> Vec<ChainHint> {
    hints_knowing_from(g, chainer, (false, enough), truth_for(g, chainer), leads)
}

/// [`hints`], the grid's only solution `truth` given when known.
fn hints_knowing(
    g: &Grid,
    chainer: Chainer,
    (nest, enough): (bool, f64),
    truth: Option<[u8; 81]>,
) -> Vec<ChainHint> {
    hints_knowing_from(g, chainer, (nest, enough), truth, &mut Leads::default())
}

/// [`hints_knowing`], the quick look led by `leads` ([`hints_from`]).
fn hints_knowing_from(
    g: &Grid,
    chainer: Chainer,
    (nest, enough): (bool, f64),
    truth: Option<[u8; 81]>,
    leads: &mut Leads,
) -> Vec<ChainHint> {
    let mut ctx = Ctx::new(g, chainer, (nest, enough), truth);
    let mut runs = Runs::new();
    if let Some(h) = quick_contradiction(&mut ctx, &mut runs, leads) {
        return vec![h];
    }
    let mut off = Arena::take();
    // Static chains follow the static graph: a cell whose runs cannot
    // meet (module `closure`) gives nothing, and its runs are not made.
    let reach = (!chainer.dynamic).then(|| Reach::with_cells(g));
    for cell in 0..81 {
        if ctx.done {
            break;
        }
        let card = pop(g.cands[cell]);
        if g.values[cell] == 0 && (card > 2 || (card > 1 && chainer.dynamic)) {
            if reach.as_ref().is_some_and(|r| !may_meet(r, g, cell)) {
                continue;
            }
            // The clock is read only before a cell's work.
            if budget::expired() {
                break;
            }
            cell_hints(&mut ctx, cell, card, &mut runs, &mut off);
        }
    }
    off.give();
    if ctx.truth.is_some() && chainer.dynamic && !chainer.nishio && !nest {
        // The contradictions no harder than the ER after this step lead
        // the next look.
        let er = ctx.enough.max(ctx.easiest);
        leads.hits = runs.contradicting(most_complex(chainer.rule().base(), er));
    }
    ctx.out
}

/// When any hint no harder than `enough` will do (`rate` past its ER
/// so far) and the rule's base is no harder: a dynamic chainer's first
/// contradiction no harder than `enough` from a false candidate's "on",
/// first among `leads`' candidates, then in the order of cells (from
/// its cell, going round; left at the cell that gave one) and digits,
/// before the full search: one
/// run per false candidate, instead of every run of a cell's and its
/// regions' chains. The runs made stay for the full search, which runs
/// only when none is found.
fn quick_contradiction(ctx: &mut Ctx, runs: &mut Runs, leads: &mut Leads) -> Option<ChainHint> {
    let truth = ctx.truth?;
    let chainer = ctx.chainer;
    if ctx.nest || !chainer.dynamic || chainer.nishio || ctx.enough < chainer.rule().base() {
        return None;
    }
    let g = ctx.g;
    while let Some((cell, v)) = leads.hits.pop() {
        let cell = cell as usize;
        if g.cands[cell] & (1 << v) == 0 || truth[cell] == v {
            continue;
        }
        if budget::expired() {
            return None;
        }
        if let Some(h) = contradiction_from(ctx, runs, cell, v) {
            leads.from = cell;
            return Some(h);
        }
    }
    let start = leads.from.min(80);
    for cell in (start..81).chain(0..start) {
        if g.values[cell] != 0 || pop(g.cands[cell]) < 2 {
            continue;
        }
        if budget::expired() {
            return None;
        }
        for v in digits(g.cands[cell] & !(1 << truth[cell])) {
            if let Some(h) = contradiction_from(ctx, runs, cell, v) {
                leads.from = cell;
                return Some(h);
            }
        }
    }
    None
}

/// The contradiction the "on" run from `cell` holding `v` meets, as a
/// hint, when no harder than `enough`.
fn contradiction_from(ctx: &mut Ctx, runs: &mut Runs, cell: usize, v: u8) -> Option<ChainHint> {
    runs.ensure(ctx, cell, v);
    let (on, Some((a, b))) = runs.get(cell, v)? else {
        return None;
    };
    ctx.push(
        &[(on, a), (on, b)],
        CAUSE_NONE,
        7,
        (vec![(cell as u8, 1 << v)], None),
    );
    if ctx.done {
        return ctx.out.pop();
    }
    ctx.out.clear();
    None
}

/// Whether a static chainer's cell or region chains from `cell` (see
/// [`cell_hints`]) can meet, by what the runs' starts reach.
fn may_meet(reach: &Reach, g: &Grid, cell: usize) -> bool {
    let cands = g.cands[cell];
    if reach.meet(digits(cands).map(|v| key(cell, v, true))) {
        return true;
    }
    digits(cands).any(|v| {
        CELL_REGIONS[cell].iter().any(|&r| {
            let r = r as usize;
            let pos = g.positions(r, v);
            pop(pos) >= 2
                && REGION_CELLS[r][pos.trailing_zeros() as usize] as usize == cell
                && reach.meet(bits(pos).map(|i| key(REGION_CELLS[r][i] as usize, v, true)))
        })
    })
}

fn cell_hints(ctx: &mut Ctx, cell: usize, card: u32, runs: &mut Runs, off: &mut Arena) {
    let chainer = ctx.chainer;
    let double = card >= 3 && !chainer.nishio && chainer.dynamic;
    let contradiction = chainer.dynamic || chainer.nishio;
    let cands = ctx.g.cands[cell];
    for v in digits(cands) {
        if ctx.done {
            return;
        }
        if let Some(t) = ctx.templates.clone() {
            nishio_hints(ctx, &t, (cell, v), runs, off);
            continue;
        }
        runs.ensure(ctx, cell, v);
        let Some((on, absurd)) = runs.get(cell, v) else {
            continue;
        };
        if contradiction {
            if let Some((a, b)) = absurd {
                let e = (vec![(cell as u8, 1 << v)], None);
                ctx.push(&[(on, a), (on, b)], CAUSE_NONE, 7, e);
            }
        }
        // The "off" run serves the contradictions and the double
        // implications only: a static chainer, with neither, skips it,
        // and so does a dynamic one on a cell of two candidates when
        // the solution makes "off" true.
        let off_key = key(cell, v, false);
        if !(double || (contradiction && ctx.may_contradict(off_key))) {
            region_hints(ctx, cell, v, runs);
            continue;
        }
        let absurd = ctx.start(off, off_key);
        if contradiction {
            if let Some((a, b)) = absurd {
                let rest = cands & !(1 << v);
                if rest != 0 {
                    let e = (vec![(cell as u8, rest)], Some((cell as u8, v)));
                    ctx.push(&[(off, a), (off, b)], CAUSE_NONE, 7, e);
                }
            }
        }
        // Only the keys both runs hold are asked: none, no hint (the
        // start's nodes are not walked).
        let common = if double {
            common_keys(&[on, off])
        } else {
            [0; WORDS]
        };
        if common.iter().any(|&w| w != 0) {
            for want_on in [true, false] {
                for &n in &on.order {
                    let k = on.key(n);
                    if is_on(k) != want_on || !has(&common, k) {
                        continue;
                    }
                    if let Some(m) = off.get(k) {
                        ctx.push_target(&[(on, n), (off, m)], CAUSE_NONE, k, 1);
                    }
                }
            }
        }
        if !chainer.nishio {
            region_hints(ctx, cell, v, runs);
        }
    }
    if !chainer.nishio && (card == 2 || (chainer.multiple && card > 2)) {
        let arenas: Vec<&Arena> = digits(cands)
            .filter_map(|v| runs.get(cell, v).map(|r| r.0))
            .collect();
        if arenas.len() != card as usize {
            return;
        }
        // As for the regions: only the first run's own keys are asked.
        let common = common_keys(&arenas);
        if common.iter().all(|&w| w == 0) {
            return;
        }
        for want_on in [true, false] {
            for &n in &arenas[0].order {
                let k = arenas[0].key(n);
                if is_on(k) != want_on {
                    continue;
                }
                if has(&common, k) {
                    let targets: Vec<(&Arena, u32)> = arenas
                        .iter()
                        .filter_map(|a| a.get(k).map(|m| (*a, m)))
                        .collect();
                    ctx.push_target(&targets, CAUSE_CELL, k, 5);
                }
            }
        }
    }
}

/// A Nishio chainer's hints from `cell` holding `v` or not: the runs'
/// contradictions, as [`cell_hints`] finds them, but only the runs
/// `templates` says may meet one are made.
fn nishio_hints(
    ctx: &mut Ctx,
    templates: &Templates,
    (cell, v): (usize, u8),
    runs: &mut Runs,
    off: &mut Arena,
) {
    let [on_may, off_may] = [true, false].map(|on| {
        let k = key(cell, v, on);
        templates.may_contradict(k) && ctx.may_contradict(k)
    });
    if on_may {
        runs.ensure(ctx, cell, v);
        if let Some((on, Some((a, b)))) = runs.get(cell, v) {
            let e = (vec![(cell as u8, 1 << v)], None);
            ctx.push(&[(on, a), (on, b)], CAUSE_NONE, 7, e);
        }
    }
    if off_may {
        if let Some((a, b)) = ctx.start(off, key(cell, v, false)) {
            let rest = ctx.g.cands[cell] & !(1 << v);
            if rest != 0 {
                let e = (vec![(cell as u8, rest)], Some((cell as u8, v)));
                ctx.push(&[(off, a), (off, b)], CAUSE_NONE, 7, e);
            }
        }
    }
}

/// Region forcing chains for digit `v` in the regions of `cell`, when
/// `cell` is the region's first place for `v`.
fn region_hints(ctx: &mut Ctx, cell: usize, v: u8, runs: &mut Runs) {
    for r in CELL_REGIONS[cell] {
        let r = r as usize;
        let pos = ctx.g.positions(r, v);
        let n = pop(pos);
        if !(n == 2 || (ctx.chainer.multiple && n > 2)) {
            continue;
        }
        if REGION_CELLS[r][pos.trailing_zeros() as usize] as usize != cell {
            continue;
        }
        let others: Vec<usize> = bits(pos)
            .map(|i| REGION_CELLS[r][i] as usize)
            .filter(|&c| c != cell)
            .collect();
        for &c in &others {
            runs.ensure(ctx, c, v);
        }
        let Some((on, _)) = runs.get(cell, v) else {
            continue;
        };
        let rest: Vec<&Arena> = others
            .iter()
            .filter_map(|&c| runs.get(c, v).map(|r| r.0))
            .collect();
        let mut common = common_keys(&rest);
        // Only the start's own keys are asked: none in common, no hint
        // (the start's nodes are not walked).
        for (c, &w) in common.iter_mut().zip(on.keys()) {
            *c &= w;
        }
        if common.iter().all(|&w| w == 0) {
            continue;
        }
        for want_on in [true, false] {
            for &n in &on.order {
                let k = on.key(n);
                if is_on(k) != want_on {
                    continue;
                }
                if has(&common, k) {
                    let targets: Vec<(&Arena, u32)> = std::iter::once((on, n))
                        .chain(rest.iter().filter_map(|a| a.get(k).map(|m| (*a, m))))
                        .collect();
                    ctx.push_target(&targets, r as u8, k, 6);
                }
            }
        }
    }
}

/// The keys every arena of `arenas` holds (all keys when none).
fn common_keys(arenas: &[&Arena]) -> KeySet {
    let mut common = [u64::MAX; WORDS];
    for a in arenas {
        for (c, &w) in common.iter_mut().zip(a.keys()) {
            *c &= w;
        }
    }
    common
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `most_complex` is the highest complexity whose difficulty is no
    /// harder, as a count up says.
    #[test]
    fn most_complex_is_the_last_complexity_no_harder() {
        for base in [7.0, 8.5, 9.5] {
            for tenths in 0..=15 {
                let difficulty = base + f64::from(tenths) / 10.0;
                let counted = (0..2000)
                    .filter(|&c| {
                        super::super::is_enough(base + super::super::length_addition(c), difficulty)
                    })
                    .max()
                    .expect("short chains add nothing");
                assert_eq!(
                    most_complex(base, difficulty),
                    counted,
                    "{base} {difficulty}"
                );
            }
        }
    }

    /// Each run is found again under its own cell and digit, whatever
    /// the order they were made in.
    #[test]
    fn runs_are_found_under_their_cell_and_digit() {
        let g = Grid::new(
            &super::super::super::grid::parse(
                "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            )
            .expect("81 digits"),
        );
        let chainer = Chainer::DYNAMIC;
        let mut ctx = Ctx::new(&g, chainer, (false, f64::NEG_INFINITY), None);
        let mut runs = Runs::new();
        let asked: Vec<(usize, u8)> = (0..81)
            .rev()
            .flat_map(|c| digits(g.cands[c]).map(move |v| (c, v)))
            .step_by(7)
            .collect();
        for &(c, v) in &asked {
            assert!(runs.get(c, v).is_none());
            runs.ensure(&mut ctx, c, v);
            runs.ensure(&mut ctx, c, v);
        }
        assert_eq!(runs.made.len(), asked.len());
        for &(c, v) in &asked {
            let (arena, _) = runs.get(c, v).expect("made");
            assert_eq!(arena.key(arena.order[0]), key(c, v, true));
        }
    }

    /// The keys in common, by bit sets, are the keys every arena holds.
    #[test]
    fn common_keys_are_those_every_arena_holds() {
        let mut arenas = [Arena::default(), Arena::default(), Arena::default()];
        for (i, a) in arenas.iter_mut().enumerate() {
            for k in (0..super::super::graph::KEYS as u16).filter(|k| k % (i as u16 + 2) == 0) {
                let n = a.make(k, &[]);
                a.insert(n);
            }
        }
        let refs: Vec<&Arena> = arenas.iter().collect();
        let common = common_keys(&refs);
        let mut seen = 0;
        for k in 0..super::super::graph::KEYS as u16 {
            let all = refs.iter().all(|a| a.contains(k));
            assert_eq!(has(&common, k), all, "key {k}");
            seen += all as usize;
        }
        assert!(seen > 0);
        assert!(common_keys(&[]).iter().all(|&w| w == u64::MAX));
    }
}

#[cfg(test)]
mod truth_tests;
