//! Finned and sashimi fish: X-wing, swordfish, jellyfish (`f`).
//!
//! A fish of `size` base lines (rows, or columns) whose places of a digit
//! lie in `size` cover lines, except for a few places outside them (the
//! fins), all in one box. Either a fin holds the digit, or the fish without
//! its fins does; so a cell of a cover line, outside the base lines, in the
//! fins' box cannot hold it. A fish is sashimi when a base line keeps at most one
//! place inside the cover lines (HoDoKu's definition); finned otherwise.
//!
//! The search is capped as HoDoKu caps it: at most five fins, and base
//! lines whose places span at most three lines beyond the `size` covers.
//! Past those bounds a fin set seldom shares a box, so nothing is struck,
//! and the combinations grow fast on 16x16 and 25x25 grids.

use crate::grid::Unit;
use crate::logic::memo::{OnDigit, Run};
use crate::logic::words::{and_list, Words};
use crate::logic::{at_most, bit, digits_of, Board, Step, Technique};

/// The most fins a fish may have.
const MAX_FINS: u32 = 5;
/// The most lines beyond the fish's size the base places may span.
const MAX_EXTRA_COVERS: usize = 3;

/// The fixed parts of one search: the digit, the kinds of line, the size.
struct Search<'a> {
    d: u8,
    /// The first unit of the base kind (0 rows, `n` columns).
    base: usize,
    /// The first unit of the cover kind.
    cover: usize,
    size: usize,
    sashimi: bool,
    /// The candidate base lines: unit and places.
    lines: &'a [(usize, u64)],
    /// For each line of the base kind (by unit - `base`, times the side)
    /// and each box (by box number), the positions of its cells there.
    in_box: &'a [u64],
    /// The base lines (bit `unit - base`) changed since this search last
    /// went through the digit in vain (all when it has not): a choice of
    /// lines must hold one.
    dirty: u64,
    /// For each index `j` of `lines`, whether one of `lines[j..]` changed.
    dirty_from: &'a [bool],
    /// The first fish of the other kind (sashimi when finned ones are
    /// sought) met on the way, kept for the next call.
    other: std::cell::RefCell<Option<Step>>,
    /// For each line of the base kind (by unit - `base`), the digit's
    /// places (cover positions): with `in_box`, what a fish with its fins
    /// in a box could strike there.
    line_places: &'a [u64],
}

/// What a search for finned fish of one size found of the sashimi kind,
/// in the position it searched: the ladder asks for sashimi fish of that
/// size right after, in the same position, unless a finned one was found.
#[derive(Debug, Clone)]
pub(in crate::logic) struct FishMemo {
    cands: Vec<u64>,
    size: usize,
    sashimi: Option<Step>,
}

impl FishMemo {
    /// The answer kept for a sashimi search of `size` lines in the
    /// position `cands` (`Some(None)`: no sashimi fish), or `None` when
    /// the memo was made for another search or position.
    fn answer(self, size: usize, cands: &[u64]) -> Option<Option<Step>> {
        (self.size == size && self.cands == cands).then_some(self.sashimi)
    }
}

/// The finned technique of `size` lines, and the one sought (`sashimi`
/// or finned).
fn techniques(size: usize, sashimi: bool) -> (Technique, Technique) {
    let finned = match size {
        2 => Technique::FinnedXWing,
        3 => Technique::FinnedSwordfish,
        _ => Technique::FinnedJellyfish,
    };
    let t = match (size, sashimi) {
        (_, false) => finned,
        (2, true) => Technique::SashimiXWing,
        (3, true) => Technique::SashimiSwordfish,
        _ => Technique::SashimiJellyfish,
    };
    (finned, t)
}

/// The rows and the columns (bit sets) whose places of a digit changed
/// from `then` (row by row, where a search last went through it in vain)
/// to `now`; every line when `then` is empty or not a superset of `now`.
fn changed_lines(now: &[u64], then: &[u64]) -> (u64, u64) {
    let n = now.len();
    if then.len() == n && now.iter().zip(then.iter()).all(|(a, b)| a & !b == 0) {
        let rows = (0..n)
            .filter(|&r| now[r] != then[r])
            .fold(0u64, |m, r| m | 1 << r);
        let cols = now
            .iter()
            .zip(then.iter())
            .fold(0u64, |m, (a, b)| m | (a ^ b));
        (rows, cols)
    } else {
        (u64::MAX, u64::MAX)
    }
}

/// What the finned fish family keeps.
#[derive(Debug, Clone, Default)]
pub(in crate::logic) struct FinnedFish {
    /// The sashimi fish a failed search for finned ones met, for the
    /// search that follows it in the same position.
    pub(in crate::logic) sashimi: Option<FishMemo>,
    /// For each kind of finned fish (size and sashimi) and digit: the
    /// digit's places (row by row) where that search last went through it
    /// in vain on this board (empty when it has not).
    pub(in crate::logic) in_vain: Vec<Box<[u64]>>,
}

/// The most boxes a grid has (its side, at most 64).
const MAX_BOXES: usize = 64;

impl FinnedFish {
    /// One finned (`sashimi` false) or sashimi fish of `size` lines (2 to
    /// 4) that strikes something.
    pub(in crate::logic) fn finned_fish(
        &mut self,
        board: &mut Board,
        run: &mut Run,
        size: usize,
        sashimi: bool,
    ) -> bool {
        let kept = if sashimi { self.sashimi.take() } else { None };
        if let Some(answer) = kept.and_then(|m| m.answer(size, &board.cands)) {
            let found = answer.is_some();
            if let Some(step) = answer {
                board.apply(step);
            }
            return found;
        }
        let n = board.side;
        let mut first_sashimi: Option<Step> = None;
        let line_boxes = board.line_boxes.clone();
        let table = board.table();
        let places = &table.places;
        let mut lines = Vec::with_capacity(n);
        // The digits' facts: `finned` marks a digit with neither finned
        // nor sashimi fish of this size (what a finned search that meets
        // no sashimi one on the way shows), `t` one without the kind
        // sought.
        let (finned, t) = techniques(size, sashimi);
        let also = run.digits_to_skip(board, finned);
        // Where this search last went through a digit and found no fish
        // (a finned search: of either kind), only the choices of base
        // lines with a line changed since are tried: the others, and what
        // they strike, are as they were there (a run only loses
        // candidates), so they hold no fish either.
        let kind = (size - 2) * 2 + usize::from(sashimi);
        if self.in_vain.len() < 6 * n {
            self.in_vain.resize(6 * n, Box::default());
        }
        // The choice of base lines, and each depth's `outside` (written
        // before it is read).
        let mut pick = Vec::with_capacity(size);
        let outside = [0u64; MAX_BOXES];
        let mut levels = [[0u64; MAX_BOXES]; 4];
        let found = run.first_on_digits(board, t, also, |d| {
            let mut now = [0u64; 64];
            for (r, row) in now[..n].iter_mut().enumerate() {
                *row = places[r * n + d as usize - 1];
            }
            let now = &now[..n];
            let (dirty_rows, dirty_cols) =
                changed_lines(now, &self.in_vain[kind * n + d as usize - 1]);
            // The boxes holding the digit: a fin box must hold a cell to
            // strike.
            let boxes = (0..n)
                .filter(|&b| places[(2 * n + b) * n + d as usize - 1] != 0)
                .fold(0u64, |m, b| m | 1 << b);
            let mut other_kind = false;
            for (base, cover) in [(0, n), (n, 0)] {
                let dirty = if base == 0 { dirty_rows } else { dirty_cols };
                if dirty == 0 {
                    continue;
                }
                lines.clear();
                lines.extend(
                    (base..base + n)
                        .map(|k| (k, places[k * n + d as usize - 1]))
                        .filter(|&(_, p)| p != 0 && p.count_ones() <= size as u32 + MAX_FINS),
                );
                if lines.len() < size {
                    continue;
                }
                let mut line_places = [0u64; MAX_BOXES];
                for (l, p) in line_places[..n].iter_mut().enumerate() {
                    *p = places[(base + l) * n + d as usize - 1];
                }
                // Whether a line among lines[j..] changed, for each j.
                let mut dirty_from = [false; 65];
                for j in (0..lines.len()).rev() {
                    dirty_from[j] = dirty_from[j + 1] || dirty & (1 << (lines[j].0 - base)) != 0;
                }
                let search = Search {
                    d,
                    base,
                    cover,
                    size,
                    sashimi,
                    dirty,
                    dirty_from: &dirty_from,
                    lines: &lines,
                    in_box: &line_boxes[base * n..(base + n) * n],
                    other: std::cell::RefCell::new(None),
                    line_places: &line_places[..n],
                };
                pick.clear();
                let bases = match size {
                    2 => Self::finned_bases::<2>,
                    3 => Self::finned_bases::<3>,
                    _ => Self::finned_bases::<4>,
                };
                let found = bases(
                    self,
                    board,
                    &search,
                    0,
                    (0, false),
                    (&outside[..n], boxes),
                    &mut levels,
                    &mut pick,
                );
                let other = search.other.into_inner();
                other_kind |= other.is_some();
                if first_sashimi.is_none() {
                    first_sashimi = other;
                }
                if let Some(step) = found {
                    return OnDigit::Found(step);
                }
            }
            if sashimi || !other_kind {
                self.in_vain[kind * n + d as usize - 1] = now.into();
                OnDigit::InVain
            } else {
                OnDigit::Unproven
            }
        });
        if let Some(step) = found {
            board.apply(step);
            return true;
        }
        if !sashimi {
            // Nothing finned: the whole search ran, and met the first
            // sashimi fish (if any) the next call would find.
            self.sashimi = Some(FishMemo {
                cands: board.cands.clone(),
                size,
                sashimi: first_sashimi,
            });
        }
        false
    }

    /// Chooses the base lines (depth first, in order) and tries each.
    /// `outside[b]` holds the positions of the chosen lines' places outside
    /// box `b`: were `b` the fins' box, they would all be covers. The
    /// boxes of `viable` (bit `b`) leave at most `size` there; `outside`
    /// is kept for them alone. It only grows as lines are chosen, so a box
    /// that leaves more is dropped for the choices below, and a choice
    /// where no box is left is dropped at once.
    #[allow(clippy::too_many_arguments)]
    fn finned_bases<const SIZE: usize>(
        &self,
        board: &Board,
        s: &Search,
        from: usize,
        (union, changed): (u64, bool),
        (outside, viable): (&[u64], u64),
        levels: &mut [[u64; MAX_BOXES]],
        pick: &mut Vec<(usize, u64)>,
    ) -> Option<Step> {
        let n = board.side;
        if pick.len() == SIZE {
            return changed
                .then(|| self.finned_covers(board, s, pick, union, (outside, viable)))?;
        }
        // The next level's `outside`, in a buffer of its own (no copy of
        // every box's entry per choice).
        let (next, deeper) = levels.split_first_mut()?;
        let next = &mut next[..n];
        // Only lines that leave enough after them to complete the choice.
        let end = (s.lines.len() + pick.len() + 1).saturating_sub(SIZE);
        for j in from..end {
            if !changed && !s.dirty_from[j] {
                // No changed line left to choose.
                break;
            }
            let (k, p) = s.lines[j];
            let u = union | p;
            if !at_most(u, SIZE + MAX_EXTRA_COVERS) {
                continue;
            }
            let in_box = &s.in_box[(k - s.base) * n..(k - s.base + 1) * n];
            let mut alive = 0u64;
            let mut boxes = viable;
            while boxes != 0 {
                let b = boxes.trailing_zeros() as usize;
                boxes &= boxes - 1;
                let o = outside[b] | (p & !in_box[b]);
                next[b] = o;
                if at_most(o, SIZE) {
                    alive |= 1 << b;
                }
            }
            if alive == 0 {
                continue;
            }
            pick.push((k, p));
            let changed = changed || s.dirty & (1 << (k - s.base)) != 0;
            let step = self.finned_bases::<SIZE>(
                board,
                s,
                j + 1,
                (u, changed),
                (next, alive),
                deeper,
                pick,
            );
            pick.pop();
            if step.is_some() {
                return step;
            }
        }
        None
    }

    /// Tries every choice of covers for the base lines `pick` (places at
    /// positions `union`) that leaves the fins in one box: a struck cell
    /// lies on a cover line outside the base lines, so it shares neither a
    /// row nor a column with a fin and must share every fin's box. For a
    /// fin box `b` of `viable`, the positions in `outside[b]` must be
    /// covers; the other covers are chosen among the rest. (The other
    /// boxes leave more than `size` covers.)
    fn finned_covers(
        &self,
        board: &Board,
        s: &Search,
        pick: &[(usize, u64)],
        union: u64,
        (outside, viable): (&[u64], u64),
    ) -> Option<Step> {
        let n = board.side;
        let mut boxes = viable;
        while boxes != 0 {
            let b = boxes.trailing_zeros() as usize;
            boxes &= boxes - 1;
            let forced_mask = outside[b];
            let forced = forced_mask.count_ones() as usize;
            let free_mask = union & !forced_mask;
            if forced > s.size || free_mask == 0 {
                continue;
            }
            // Something to strike first: a cell of the box holding the
            // digit, off the base lines, on a line that may be a cover.
            let fin_box = 2 * n + b;
            let strikable = (0..n).any(|line| {
                s.line_places[line] & s.in_box[line * n + b] & union != 0
                    && !pick.iter().any(|&(k, _)| k == s.base + line)
            });
            if !strikable {
                continue;
            }
            let mut free = [0u8; 64];
            let mut len = 0;
            for p in digits_of(free_mask) {
                free[len] = p - 1;
                len += 1;
            }
            if len < s.size - forced {
                continue;
            }
            let free = &free[..len];
            let mut chosen = Vec::with_capacity(s.size);
            let mut found = None;
            subsets(
                free,
                s.size - forced,
                0,
                &mut chosen,
                &mut |more: u64| match self.finned_step(
                    board,
                    s.d,
                    s.cover,
                    pick,
                    forced_mask | more,
                    fin_box,
                ) {
                    Some((step, kind)) if kind == s.sashimi => {
                        found = Some(step);
                        true
                    }
                    Some((step, _)) => {
                        let mut other = s.other.borrow_mut();
                        if other.is_none() {
                            *other = Some(step);
                        }
                        false
                    }
                    None => false,
                },
            );
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The step for base lines `pick`, cover positions `covers` and fins in
    /// `fin_box`, if the fish has fins and strikes something, and whether
    /// it is sashimi.
    fn finned_step(
        &self,
        board: &Board,
        d: u8,
        cover: usize,
        pick: &[(usize, u64)],
        covers: u64,
        fin_box: usize,
    ) -> Option<(Step, bool)> {
        let fin_count: u32 = pick.iter().map(|&(_, p)| (p & !covers).count_ones()).sum();
        if fin_count == 0 || fin_count > MAX_FINS {
            return None;
        }
        let sashimi = pick.iter().any(|&(_, p)| (p & covers).count_ones() <= 1);
        let (base_slot, cover_slot) = if cover == 0 { (1, 0) } else { (0, 1) };
        let b = bit(d);
        let mut eliminated: Vec<(usize, u8)> = board.units[fin_box]
            .iter()
            .copied()
            .filter(|&c| {
                let pos = board.cell_units[c][cover_slot] - cover;
                board.cands[c] & b != 0
                    && covers & (1u64 << pos) != 0
                    && !pick
                        .iter()
                        .any(|&(k, _)| board.cell_units[c][base_slot] == k)
            })
            .map(|c| (c, d))
            .collect();
        if eliminated.is_empty() {
            return None;
        }
        eliminated.sort_unstable();
        let cells_of = |k: usize, mask: u64| -> Vec<usize> {
            digits_of(mask)
                .map(|pos| board.units[k][pos as usize - 1])
                .collect()
        };
        // The body first, then the fins.
        let mut cells: Vec<usize> = pick
            .iter()
            .flat_map(|&(k, p)| cells_of(k, p & covers))
            .collect();
        cells.extend(pick.iter().flat_map(|&(k, p)| cells_of(k, p & !covers)));
        let technique = match (pick.len(), sashimi) {
            (2, false) => Technique::FinnedXWing,
            (2, true) => Technique::SashimiXWing,
            (3, false) => Technique::FinnedSwordfish,
            (3, true) => Technique::SashimiSwordfish,
            (_, false) => Technique::FinnedJellyfish,
            (_, true) => Technique::SashimiJellyfish,
        };
        let step = Step {
            technique,
            unit: Some(board.unit_of(pick[0].0)),
            digits: vec![d],
            cells,
            placed: None,
            eliminated,
            chains: Vec::new(),
        };
        Some((step, sashimi))
    }
}

/// Calls `f` with every `size`-subset of `items` (bit positions) as a mask,
/// until it returns true.
fn subsets(
    items: &[u8],
    size: usize,
    from: usize,
    chosen: &mut Vec<u8>,
    f: &mut impl FnMut(u64) -> bool,
) -> bool {
    if chosen.len() == size {
        return f(chosen.iter().fold(0u64, |m, &p| m | (1u64 << p)));
    }
    let end = (items.len() + chosen.len() + 1).saturating_sub(size);
    for j in from..end {
        chosen.push(items[j]);
        let done = subsets(items, size, j + 1, chosen, f);
        chosen.pop();
        if done {
            return true;
        }
    }
    false
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let d0 = step.digits.first().copied();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (
            Technique::FinnedXWing
            | Technique::SashimiXWing
            | Technique::FinnedSwordfish
            | Technique::SashimiSwordfish
            | Technique::FinnedJellyfish
            | Technique::SashimiJellyfish,
            None,
        ) if d0.is_some() && step.unit.is_some() => {
            let d = d0.unwrap_or(1);
            let in_rows = matches!(step.unit, Some(Unit::Row(_)));
            let size = match step.technique {
                Technique::FinnedXWing | Technique::SashimiXWing => 2,
                Technique::FinnedSwordfish | Technique::SashimiSwordfish => 3,
                _ => 4,
            };
            let line = |c: usize| if in_rows { w.row(c) } else { w.col(c) };
            let across = |c: usize| if in_rows { w.col(c) } else { w.row(c) };
            let mut base: Vec<usize> = step.cells.iter().map(|&c| line(c)).collect();
            base.sort_unstable();
            base.dedup();
            let (cover, fins) = fish_covers(w, step, size, &across);
            let label =
                |row: bool, k: usize| w.label(if row { Unit::Row(k) } else { Unit::Col(k) });
            let base: Vec<String> = base.into_iter().map(|k| label(in_rows, k)).collect();
            let cover: Vec<String> = cover.into_iter().map(|k| label(!in_rows, k)).collect();
            let (base_kind, cover_kind) = if in_rows {
                ("rows", "columns")
            } else {
                ("columns", "rows")
            };
            let fin_word = if fins.len() == 1 { "fin" } else { "fins" };
            format!(
                "{name} on {} in {base_kind} {} ({cover_kind} {}), {fin_word} {}: {removes}",
                w.digit(d),
                and_list(&base),
                cover.join(", "),
                w.cells(&fins)
            )
        }
        _ => return None,
    })
}

/// A finned fish's cover lines and fins: the first choice of `size` lines
/// across the base (by `across`) that holds every eliminated cell and
/// leaves as fins cells that each eliminated cell sees; the fewest fins
/// win.
fn fish_covers(
    w: &Words,
    step: &Step,
    size: usize,
    across: &dyn Fn(usize) -> usize,
) -> (Vec<usize>, Vec<usize>) {
    let mut lines: Vec<usize> = step.cells.iter().map(|&c| across(c)).collect();
    lines.sort_unstable();
    lines.dedup();
    let sees = |x: usize, y: usize| x != y && !w.shared(&[x, y]).is_empty();
    let mut best: Option<(Vec<usize>, Vec<usize>)> = None;
    let count = lines.len();
    if count < size || count > 16 {
        return (lines, Vec::new());
    }
    for mask in 0u32..(1 << count) {
        if mask.count_ones() as usize != size {
            continue;
        }
        let cover: Vec<usize> = (0..count)
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| lines[i])
            .collect();
        let fins: Vec<usize> = step
            .cells
            .iter()
            .copied()
            .filter(|&c| !cover.contains(&across(c)))
            .collect();
        if fins.is_empty() {
            continue;
        }
        let fits = step
            .eliminated
            .iter()
            .all(|&(e, _)| cover.contains(&across(e)) && fins.iter().all(|&f| sees(e, f)));
        if fits && best.as_ref().is_none_or(|(_, f)| fins.len() < f.len()) {
            best = Some((cover, fins));
        }
    }
    best.unwrap_or((lines, Vec::new()))
}

#[cfg(test)]
mod tests {
    use crate::grid::{BoxShape, Grid};
    use crate::logic::{Solver, Technique};

    fn board_with_only(shape: BoxShape, d: u8, keep: &[usize]) -> Solver {
        let p = Grid::empty(shape);
        let mut b = Solver::edited_by_hand(&p);
        let n = shape.side();
        for c in 0..n * n {
            if !keep.contains(&c) {
                b.cands[c] &= !(1 << (d - 1));
            }
        }
        b
    }

    #[test]
    fn finned_x_wing_strikes_only_beside_its_fin() {
        // 1 in row 1 at c2, c8; in row 5 at c2, c8 and the fin c9 (box 6).
        // Column 8 below, in box 6: r4c8 and r6c8 see the fin and lose 1;
        // r8c8 does not (box 9).
        let keep = [1, 7, 37, 43, 44, 34, 52, 70];
        let mut b = board_with_only(BoxShape::new(3, 3).unwrap(), 1, &keep);
        assert!(!b.find(Technique::XWing));
        assert!(b.find(Technique::FinnedXWing));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::FinnedXWing);
        assert_eq!(s.eliminated, vec![(34, 1), (52, 1)]);
        assert_eq!(s.cells.last(), Some(&44), "the fin comes last");
    }

    #[test]
    fn choices_left_as_they_were_hold_no_fish() {
        // Along the ladder on hard puzzles, finned and sashimi fish found
        // trying only the choices of base lines changed since the last
        // search in vain are those found trying them all.
        let mut kept = 0;
        crate::logic::tests::each_hard_position(40, |b| {
            kept += (b.families.finned_fish.in_vain.iter())
                .filter(|v| !v.is_empty())
                .count();
            for size in 2..=4 {
                let (mut with, mut without) = (b.clone(), b.clone());
                without.families.finned_fish.in_vain.clear();
                for s in [&mut with, &mut without] {
                    let fish = &mut s.families.finned_fish;
                    if !fish.finned_fish(&mut s.board, &mut s.run, size, false) {
                        fish.finned_fish(&mut s.board, &mut s.run, size, true);
                    }
                }
                assert_eq!(with.steps, without.steps);
            }
        });
        assert!(kept > 1000, "{kept}");
    }

    #[test]
    fn sashimi_x_wing_on_a_6x6() {
        // Boxes 3 wide, 2 high. 2 in row 1 at c1, c4; in row 3 at c4 and
        // the fin c5 (row 3 has one body cell: sashimi). r4c4 is in column
        // 4 and in the fin's box (rows 3-4, columns 4-6): it loses 2.
        let keep = [0, 3, 15, 16, 21, 33];
        let mut b = board_with_only(BoxShape::new(3, 2).unwrap(), 2, &keep);
        assert!(!b.find(Technique::FinnedXWing));
        assert!(b.find(Technique::SashimiXWing));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::SashimiXWing);
        assert_eq!(s.eliminated, vec![(21, 2)]);
    }
}
