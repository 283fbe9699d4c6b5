//! Sudoku Explainer's run: always the easiest step available, in SE's own
//! order of hint producers, with SE's "direct" variants that only count
//! when they end in a placement.
//!
//! SE 1.2.1 asks its producers in this order and takes the first hint:
//! hidden single (a box 1.2, then a line 1.5), direct pointing 1.7 and
//! direct claiming 1.9 (an intersection whose strikes leave a hidden single
//! in a unit of the same kind), direct hidden pair 2.0 (a hidden pair whose
//! strikes leave a hidden single in its unit), naked single 2.3, direct
//! hidden triple 2.5, then the other techniques (pointing 2.6, claiming
//! 2.8, naked pair 3.0, …) by rating. A direct hint is applied as SE
//! applies it: its placement alone (SE's `DirectLockingHint` and
//! `DirectHiddenSetHint` carry no strikes; the candidates the pattern
//! would strike stay), one step rated as the intersection or subset.
//! Without the direct variants, a puzzle SE rates 1.7 would rate 2.6 here.

use super::memo::Run;
use super::techniques::intersections::Intersections;
use super::techniques::singles::Singles;
use super::{Board, Digits, Solver, Step, Technique};
use crate::grid::Unit;
use crate::logic::Cells;

/// One step of SE's run: its rating and whether it placed a digit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct SeStep {
    pub rating: f32,
    pub places: bool,
}

/// SE's rating of a direct pointing, claiming, hidden pair, hidden triple.
const DIRECT_POINTING: f32 = 1.7;
const DIRECT_CLAIMING: f32 = 1.9;
const DIRECT_HIDDEN_PAIR: f32 = 2.0;
const DIRECT_HIDDEN_TRIPLE: f32 = 2.5;

/// Runs the ladder as Sudoku Explainer does (see the module doc) and
/// returns its steps' ratings. The board's own steps are recorded too.
pub(super) fn run_easiest_first(solver: &mut Solver) -> Vec<SeStep> {
    let n = solver.board.side;
    // SE's singles come in its own order, below: HoDoKu's queues of them
    // are not kept, only the places they count down (for the table of
    // places and the test for a contradiction).
    if let Some(q) = &mut solver.board.queues {
        q.places_only();
    }
    solver.run.pick = super::Pick::Easiest;
    // Techniques Sudoku Explainer lacks: it finds what they find with
    // chains, rated higher, so its run goes without them.
    let mut order: Vec<Technique> = solver
        .order
        .iter()
        .copied()
        .filter(|t| t.info().in_sudoku_explainer())
        .collect();
    order.sort_by(|a, b| a.info().se_rating.total_cmp(&b.info().se_rating));
    let has = |t| order.contains(&t);
    let singles = has(Technique::HiddenSingle);
    let naked = has(Technique::NakedSingle);
    let locking = has(Technique::LockedCandidates);
    let pairs = has(Technique::HiddenPair);
    let triples = has(Technique::HiddenTriple);
    // The techniques SE rates from pointing (2.6) up; those below are the
    // singles, asked for by name above.
    let split = order
        .iter()
        .position(|t| t.info().se_rating >= 2.6)
        .unwrap_or(order.len());
    let mut high = order.split_off(split);
    let step_with = |solver: &mut Solver, order: &mut Vec<Technique>| {
        std::mem::swap(&mut solver.order, order);
        let found = solver.step();
        std::mem::swap(&mut solver.order, order);
        found
    };
    let mut out = Vec::new();
    // Where the direct hidden pairs and triples last found nothing.
    let mut vain: [Option<Vec<u64>>; 2] = [None, None];
    while !solver.board.contradiction && !solver.board.grid.is_full() && !solver.run.past_deadline()
    {
        let Solver { board, run, .. } = &mut *solver;
        let from = board.steps.len();
        let direct = if singles
            && (Singles.hidden_singles_in(board, 2 * n..3 * n)
                || Singles.hidden_singles_in(board, n..2 * n)
                || Singles.hidden_singles_in(board, 0..n))
        {
            None
        } else if locking && direct_locking(board, run, true) {
            Some(DIRECT_POINTING)
        } else if locking && direct_locking(board, run, false) {
            Some(DIRECT_CLAIMING)
        } else if pairs && direct_hidden_set(board, 2, &mut vain[0]) {
            Some(DIRECT_HIDDEN_PAIR)
        } else if naked && Singles.naked_singles(board) {
            None
        } else if triples && direct_hidden_set(board, 3, &mut vain[1]) {
            Some(DIRECT_HIDDEN_TRIPLE)
        } else if (locking && Intersections.locked_candidates_in(board, run, 2 * n..3 * n))
            || step_with(solver, &mut high)
        {
            None
        } else {
            break;
        };
        match direct {
            Some(rating) => out.push(SeStep {
                rating,
                places: true,
            }),
            None => out.extend(solver.board.steps[from..].iter().map(|s| SeStep {
                rating: se_rating(s),
                places: s.placed.is_some(),
            })),
        }
        solver.board.contradiction = solver.board.find_contradiction();
    }
    out
}

/// ER, EP and ED from the steps of SE's run (its `getDifficulty`): ER the
/// hardest step, ED the first step, EP the hardest step up to the first
/// placement. When the run stopped short (`finished` false), a value the
/// run did not reach is at least `beyond`.
pub(super) fn se_run_ratings(steps: &[SeStep], finished: bool, beyond: f32) -> (f32, f32, f32) {
    let beyond = if finished { 0.0 } else { beyond };
    let er = steps.iter().map(|s| s.rating).fold(0.0f32, f32::max);
    let ed = steps.first().map_or(beyond, |s| s.rating);
    let mut hardest = 0.0f32;
    let mut ep = None;
    for s in steps {
        hardest = hardest.max(s.rating);
        if s.places {
            ep = Some(hardest);
            break;
        }
    }
    (er, ep.unwrap_or(hardest.max(beyond)), ed)
}

/// SE's direct pointing (`pointing`: a box's digit confined to a line) or
/// direct claiming (a line's digit confined to a box) whose strikes would
/// leave the digit one place in another unit of the first unit's kind:
/// places it there, as SE does, without the strikes. True if one was
/// found. It reads and strikes one digit's places: the digits where it
/// found nothing are noted and skipped while their places stay
/// (`facts.rs`).
fn direct_locking(board: &mut Board, run: &mut Run, pointing: bool) -> bool {
    let n = board.side;
    let units = if pointing { 2 * n..3 * n } else { 0..2 * n };
    let fact = super::memo::facts::SEARCHES[usize::from(!pointing)];
    let skip = run.digits_to_skip_by(board, fact);
    let all = Digits::all(n);
    if skip == all {
        return false;
    }
    let table = board.table();
    let places_of = |k: usize, d: u8| table.places[k * n + d as usize - 1];
    for k in units {
        let kind = k / n;
        for d in (all & !skip).iter() {
            let places = places_of(k, d);
            if places & places.wrapping_sub(1) == 0 {
                continue;
            }
            let first = board.units[k][places.trailing_zeros() as usize];
            for slot in 0..3 {
                let other = board.cell_units[first][slot];
                if other == k || places & !board.crossing(k, other) != 0 {
                    continue;
                }
                // The cells the pattern would strike (the digit's places
                // in `other` outside `k`), and a unit of k's kind that
                // loses places to them and is left with one.
                let mut struck = places_of(other, d) & !board.crossing(other, k);
                let mut single = None;
                while struck != 0 {
                    let s = board.units[other][struck.trailing_zeros() as usize];
                    struck &= struck - 1;
                    let k3 = board.cell_units[s][kind];
                    let left = places_of(k3, d) & !board.crossing(k3, other);
                    if left != 0 && left & (left - 1) == 0 {
                        single = Some((k3, board.units[k3][left.trailing_zeros() as usize]));
                        break;
                    }
                }
                let Some((k3, cell)) = single else { continue };
                // SE applies a direct hint as its placement alone: the
                // strikes that led to it stay candidates.
                let cells: Vec<usize> = super::positions(places)
                    .map(|i| board.units[k][i])
                    .collect();
                let unit = board.unit_of(k);
                board.apply(Step {
                    technique: Technique::LockedCandidates,
                    unit: Some(unit),
                    digits: vec![d],
                    cells,
                    placed: None,
                    eliminated: Vec::new(),
                    chains: Vec::new(),
                });
                let unit3 = board.unit_of(k3);
                board.place(Technique::HiddenSingle, Some(unit3), cell, d);
                return true;
            }
        }
    }
    run.digits_failed_by(board, fact, all & !skip);
    false
}

/// SE's direct hidden pair or triple (`size`): `size` digits confined to
/// `size` cells of a unit (each with at least two places, the unit with
/// more than `size` blanks), whose strikes would leave another digit one
/// place in the unit: places it, as SE does, without the strikes. True if
/// one was found. `vain`: the candidates where the search last found
/// nothing (a unit whose cells are unchanged since gives nothing: the
/// search reads the unit alone), kept up to date.
fn direct_hidden_set(board: &mut Board, size: usize, vain: &mut Option<Vec<u64>>) -> bool {
    let n = board.side;
    let mut kept = vain.take();
    // The units (bit `k`, up to 3 * 64 of them) whose cells changed since
    // the last search in vain; all when there was none, or candidates
    // came back since.
    let changed = kept
        .as_ref()
        .and_then(|then| board.units_changed_since(then))
        .unwrap_or([u64::MAX; 3]);
    let table = board.table();
    let mut pick = Vec::with_capacity(size);
    // SE's order of units: boxes, columns, rows.
    for k in (2 * n..3 * n).chain(n..2 * n).chain(0..n) {
        if !changed.has(k) {
            continue;
        }
        let blanks = board.units[k]
            .iter()
            .filter(|&&c| board.cands[c] != 0)
            .count();
        if blanks <= size {
            continue;
        }
        let places = &table.places[k * n..(k + 1) * n];
        // Digits that can be in a hidden set of this size.
        let mut members = [0usize; 64];
        let mut count = 0;
        for (i, &p) in places.iter().enumerate() {
            if p & p.wrapping_sub(1) != 0 && super::at_most(p, size) {
                members[count] = i;
                count += 1;
            }
        }
        if count < size {
            continue;
        }
        pick.clear();
        let found = find_set(places, &members[..count], size, 0, 0, &mut pick);
        if let Some((set, union, target, at)) = found {
            let cells: Vec<usize> = (0..n)
                .filter(|&i| union & (1 << i) != 0)
                .map(|i| board.units[k][i])
                .collect();
            let technique = if size == 2 {
                Technique::HiddenPair
            } else {
                Technique::HiddenTriple
            };
            let unit = board.unit_of(k);
            board.apply(Step {
                technique,
                unit: Some(unit),
                digits: set.iter().map(|&i| i as u8 + 1).collect(),
                cells,
                placed: None,
                // As SE applies it: the placement alone.
                eliminated: Vec::new(),
                chains: Vec::new(),
            });
            let cell = board.units[k][at];
            board.place(Technique::HiddenSingle, Some(unit), cell, target as u8 + 1);
            return true;
        }
    }
    match &mut kept {
        Some(v) => v.clone_from(&board.cands),
        None => kept = Some(board.cands.clone()),
    }
    *vain = kept;
    false
}

/// The first choice of `size` digits of `members` whose places cover
/// exactly `size` cells and leave another digit one place outside them:
/// the digits, their cells, that digit and its place (indices in the unit).
fn find_set(
    places: &[u64],
    members: &[usize],
    size: usize,
    from: usize,
    union: u64,
    pick: &mut Vec<usize>,
) -> Option<(Vec<usize>, u64, usize, usize)> {
    if pick.len() == size {
        if union.count_ones() as usize != size {
            return None;
        }
        return (0..places.len()).find_map(|v| {
            let p = places[v];
            let rest = p & !union;
            (!pick.contains(&v) && p.count_ones() > 1 && rest.count_ones() == 1)
                .then(|| (pick.clone(), union, v, rest.trailing_zeros() as usize))
        });
    }
    // Only digits that leave enough after them to complete the choice.
    let end = (members.len() + pick.len() + 1).saturating_sub(size);
    for j in from..end {
        let u = union | places[members[j]];
        if !super::at_most(u, size) {
            continue;
        }
        pick.push(members[j]);
        let found = find_set(places, members, size, j + 1, u, pick);
        pick.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The SE rating of one step (the box and line variants told apart;
/// chains and forcing chains rated by their length, as SE does).
pub fn se_rating(step: &Step) -> f32 {
    match (step.technique, step.unit) {
        (Technique::HiddenSingle, Some(Unit::Box(_))) => 1.2,
        (Technique::LockedCandidates, Some(Unit::Row(_) | Unit::Col(_))) => 2.8,
        // SE: 4.5, plus a tenth per digit of the naked set beyond two (the
        // step's digits are the rectangle's pair, then the set's).
        (Technique::UniqueRectangle3, _) => 4.4 + 0.1 * step.digits.len().saturating_sub(2) as f32,
        (t, _) if !step.chains.is_empty() => {
            let nodes: usize = step.chains.iter().map(Vec::len).sum();
            t.info().se_rating + length_difficulty(nodes)
        }
        (t, _) => t.info().se_rating,
    }
}

/// Sudoku Explainer's rating added for a chain's length
/// (`ChainingHint.getLengthDifficulty`): 0.1 for each step of the series
/// 4, 6, 8, 12, 16, 24, 32 … that the chain's nodes less two pass.
///
/// ```
/// use xlsudoku::logic::rating::length_difficulty;
///
/// assert_eq!(length_difficulty(6), 0.0);
/// assert!((length_difficulty(7) - 0.1).abs() < 1e-6);
/// assert!((length_difficulty(20) - 0.5).abs() < 1e-6);
/// ```
pub fn length_difficulty(nodes: usize) -> f32 {
    let length = nodes.saturating_sub(2);
    let (mut ceil, mut odd, mut added) = (4usize, false, 0.0f32);
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    /// Puzzles of `gen_random_minimal_10k.txt` Sudoku Explainer 1.2.1
    /// (`serate`) rates 1.7 (direct pointing), with that rating.
    const SE_RATED: [(&str, f32); 2] = [
        (
            ".4.5.9.....5..4.2.9.8.2..6..61...2..3....2.....4.7......6...71....346.....2.8....",
            1.7,
        ),
        (
            "78..........5...2..9.8.6....1...74.....3..7.2.5..84...83.....9.....1...7....4..3.",
            1.7,
        ),
    ];

    #[test]
    fn direct_pointing_rates_as_sudoku_explainer_does() {
        for (p, se) in &SE_RATED {
            let grid: Grid = p.parse().unwrap();
            let mut board = Solver::new(&grid).unwrap();
            let steps = run_easiest_first(&mut board);
            assert!(board.grid().is_full());
            let (er, _, _) = se_run_ratings(&steps, true, 0.0);
            assert_eq!(er, *se, "{p}");
        }
    }

    #[test]
    fn direct_hidden_sets_find_the_same_with_the_units_they_skip() {
        // Along the ladder on hard puzzles, a direct hidden pair or triple
        // found with the memo of its last search in vain is the one found
        // without it.
        let mut skipped = 0;
        for (line, grid) in crate::logic::tests::hard_puzzles(30) {
            let mut board = Solver::new(&grid).unwrap();
            let mut vain: [Option<Vec<u64>>; 2] = [None, None];
            loop {
                for (size, memo) in [2, 3].into_iter().zip(vain.iter_mut()) {
                    if let Some(then) = memo.as_ref() {
                        skipped += board
                            .units
                            .iter()
                            .filter(|u| u.iter().all(|&c| board.cands[c] == then[c]))
                            .count();
                    }
                    let (mut with, mut without) = (board.clone(), board.clone());
                    let found = direct_hidden_set(&mut with.board, size, memo);
                    assert_eq!(
                        found,
                        direct_hidden_set(&mut without.board, size, &mut None)
                    );
                    assert_eq!(with.steps, without.steps, "{line}");
                }
                if board.grid().is_full() || !board.step() {
                    break;
                }
            }
        }
        assert!(skipped > 1000, "{skipped}");
    }

    #[test]
    fn direct_locking_finds_the_same_with_the_digits_it_skips() {
        // Along the ladder on hard puzzles, direct pointing and claiming
        // with the facts of their searches in vain (digits skipped while
        // their places stay) find what they find without them.
        let mut skipped = 0;
        for (line, grid) in crate::logic::tests::hard_puzzles(30) {
            let mut board = Solver::new(&grid).unwrap();
            loop {
                for pointing in [true, false] {
                    let fact = super::super::memo::facts::SEARCHES[usize::from(!pointing)];
                    skipped += board.run.digits_to_skip_by(&board.board, fact).len();
                    let (mut with, mut without) = (board.clone(), board.clone());
                    without.run.facts.off = true;
                    let found = direct_locking(&mut with.board, &mut with.run, pointing);
                    assert_eq!(
                        found,
                        direct_locking(&mut without.board, &mut without.run, pointing)
                    );
                    assert_eq!(with.steps, without.steps, "{line}");
                    if !found {
                        board.run.facts = with.run.facts;
                    }
                }
                if board.grid().is_full() || !board.step() {
                    break;
                }
            }
        }
        assert!(skipped > 1000, "{skipped}");
    }

    #[test]
    fn a_direct_hint_places_what_the_solution_has() {
        let grid: Grid = SE_RATED[0].0.parse().unwrap();
        let solution = crate::logic::tests::brute_force(&grid).unwrap();
        let mut solver = Solver::new(&grid).unwrap();
        let mut found = 0;
        loop {
            let before = solver.steps.len();
            let Solver { board, run, .. } = &mut solver;
            let hit = direct_locking(board, run, true)
                || direct_locking(board, run, false)
                || direct_hidden_set(board, 2, &mut None)
                || direct_hidden_set(board, 3, &mut None);
            if hit {
                found += 1;
                let placed = board.steps.last().and_then(|s| s.placed).unwrap();
                assert_eq!(solution.get(placed.0 / 9, placed.0 % 9), placed.1);
                for s in &board.steps[before..] {
                    for &(c, d) in &s.eliminated {
                        assert_ne!(solution.get(c / 9, c % 9), d, "{s:?}");
                    }
                }
            } else if !(Singles.hidden_singles(board)
                || Singles.naked_singles(board)
                || Intersections.locked_candidates(board, run))
            {
                break;
            }
        }
        assert!(found > 0);
    }
}
