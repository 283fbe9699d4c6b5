//! Sue de Coq (`q`): two or three blank cells where a line crosses a box,
//! holding digits `V` (at least two more than cells), with a set of cells
//! `D` elsewhere in the line (digits `VD`) and a set `E` elsewhere in the
//! box (digits `VE`), `VD` and `VE` disjoint, so that all these cells
//! together hold exactly as many digits as there are cells. Each digit
//! then takes exactly one of them: the digits of `VD`, and those of `V`
//! outside `VE`, lie in the line's part and are struck from the rest of
//! the line; those of `VE`, and of `V` outside `VD`, from the rest of the
//! box.
//!
//! The search is capped at two cells for `D` and for `E` (the common forms:
//! a bivalue cell or a two-cell almost locked set on each side), which
//! keeps a failed search to a few thousand mask operations on a 9x9.

use crate::grid::Unit;
use crate::logic::memo::Run;
use crate::logic::words::{digit_list, Words};
use crate::logic::{digits_of, Board, Step, Technique};

/// The most cells taken on each side (line and box).
const MAX_SIDE: usize = 2;

/// Up to three cells, without an allocation.
#[derive(Debug, Clone, Copy, Default)]
struct Few {
    cells: [usize; 3],
    len: usize,
}

impl Few {
    fn of(cells: &[usize]) -> Few {
        let mut f = Few::default();
        f.cells[..cells.len()].copy_from_slice(cells);
        f.len = cells.len();
        f
    }

    fn cells(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

/// The lists one search fills for each crossing, their space reused.
#[derive(Default)]
struct Scratch {
    groups: Vec<(Few, u64)>,
    line_rest: Vec<usize>,
    box_rest: Vec<usize>,
    line_sets: Vec<(Few, u64)>,
    box_sets: Vec<(Few, u64)>,
}

/// The Sue de Coq family: its finders, called as `SueDeCoq.finder(board,
/// …)`; it keeps nothing between calls.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::logic) struct SueDeCoq;

impl SueDeCoq {
    /// One Sue de Coq that strikes something.
    pub(in crate::logic) fn sue_de_coq(&mut self, board: &mut Board, run: &mut Run) -> bool {
        let n = board.side;
        let mut inter: Vec<usize> = Vec::with_capacity(n);
        let mut scratch = Scratch::default();
        // A crossing whose line and box are unchanged since a search in
        // vain gives nothing.
        let unchanged = run.units_unchanged(board, Technique::SueDeCoq);
        let unchanged = |u: usize| unchanged.as_ref().is_some_and(|un| un[u]);
        for line in 0..2 * n {
            // The line's cells come box by box, boxes in increasing order.
            let cells = &board.units[line];
            let mut i = 0;
            while i < cells.len() {
                let bx = board.cell_units[cells[i]][2];
                inter.clear();
                while i < cells.len() && board.cell_units[cells[i]][2] == bx {
                    if board.cands[cells[i]] != 0 {
                        inter.push(cells[i]);
                    }
                    i += 1;
                }
                if inter.len() < 2 || unchanged(line) && unchanged(bx) {
                    continue;
                }
                if let Some(step) = self.sue_de_coq_at(board, line, bx, &inter, &mut scratch) {
                    board.apply(step);
                    return true;
                }
            }
        }
        false
    }

    fn sue_de_coq_at(
        &self,
        board: &Board,
        line: usize,
        bx: usize,
        inter: &[usize],
        s: &mut Scratch,
    ) -> Option<Step> {
        // The intersection cells: every choice of two or three holding at
        // least two digits more than cells.
        s.groups.clear();
        for i in 0..inter.len() {
            for j in i + 1..inter.len() {
                let pair = [inter[i], inter[j]];
                let choices = std::iter::once(Few::of(&pair)).chain(
                    inter[j + 1..]
                        .iter()
                        .map(|&k| Few::of(&[pair[0], pair[1], k])),
                );
                for group in choices {
                    let v = group.cells().iter().fold(0u64, |m, &c| m | board.cands[c]);
                    if v.count_ones() as usize >= group.len + 2 {
                        s.groups.push((group, v));
                    }
                }
            }
        }
        if s.groups.is_empty() {
            return None;
        }
        let line_slot = if line < board.side { 0 } else { 1 };
        s.line_rest.clear();
        s.line_rest.extend(
            board.units[line]
                .iter()
                .copied()
                .filter(|&c| board.cell_units[c][2] != bx && board.cands[c] != 0),
        );
        s.box_rest.clear();
        s.box_rest.extend(
            board.units[bx]
                .iter()
                .copied()
                .filter(|&c| board.cell_units[c][line_slot] != line && board.cands[c] != 0),
        );
        small_sets(&s.line_rest, &board.cands, &mut s.line_sets);
        small_sets(&s.box_rest, &board.cands, &mut s.box_sets);
        if s.line_sets.is_empty() || s.box_sets.is_empty() {
            return None;
        }
        for (group, v) in &s.groups {
            let (group, v) = (group.cells(), *v);
            for (dcells, vd) in &s.line_sets {
                let dcells = dcells.cells();
                // A line set must share digits with the group, and may
                // not hold them all.
                if vd & v == 0 {
                    continue;
                }
                for (ecells, ve) in &s.box_sets {
                    let ecells = ecells.cells();
                    if ve & v == 0 || vd & ve != 0 {
                        continue;
                    }
                    let all = v | vd | ve;
                    if all.count_ones() as usize != group.len() + dcells.len() + ecells.len() {
                        continue;
                    }
                    let in_line = vd | (v & !ve);
                    let in_box = ve | (v & !vd);
                    let mut eliminated: Vec<(usize, u8)> = Vec::new();
                    for &c in &board.units[line] {
                        if !group.contains(&c) && !dcells.contains(&c) {
                            eliminated.extend(digits_of(board.cands[c] & in_line).map(|d| (c, d)));
                        }
                    }
                    for &c in &board.units[bx] {
                        if !group.contains(&c) && !ecells.contains(&c) {
                            eliminated.extend(digits_of(board.cands[c] & in_box).map(|d| (c, d)));
                        }
                    }
                    if eliminated.is_empty() {
                        continue;
                    }
                    eliminated.sort_unstable();
                    eliminated.dedup();
                    let mut cells = group.to_vec();
                    cells.extend(dcells);
                    cells.extend(ecells);
                    return Some(Step {
                        technique: Technique::SueDeCoq,
                        unit: Some(board.unit_of(line)),
                        digits: digits_of(all).collect(),
                        cells,
                        placed: None,
                        eliminated,
                        chains: Vec::new(),
                    });
                }
            }
        }
        None
    }
}

/// Sets of one or two of `cells` whose digits number one more than the
/// cells (a bivalue cell, two cells holding three digits), into `out` as
/// `(cells, digits)`.
fn small_sets(cells: &[usize], cands: &[u64], out: &mut Vec<(Few, u64)>) {
    out.clear();
    for (i, &a) in cells.iter().enumerate() {
        if crate::logic::two_bits(cands[a]) {
            out.push((Few::of(&[a]), cands[a]));
        }
        if MAX_SIDE < 2 {
            continue;
        }
        for &b in &cells[i + 1..] {
            let m = cands[a] | cands[b];
            if m.count_ones() == 3 {
                out.push((Few::of(&[a, b]), m));
            }
        }
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let removes = w.removes(&step.eliminated);
    let candidates = w.cands;
    Some(match (step.technique, step.placed) {
        (Technique::SueDeCoq, None) if step.unit.is_some() && step.cells.len() >= 4 => {
            let line = step.unit.unwrap_or(Unit::Row(0));
            let first = step.cells[0];
            let bx = w.units_of(first)[2];
            let group: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|&c| w.contains(line, c) && w.contains(bx, c))
                .collect();
            let in_line: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|&c| w.contains(line, c) && !w.contains(bx, c))
                .collect();
            let in_box: Vec<usize> = step
                .cells
                .iter()
                .copied()
                .filter(|&c| !w.contains(line, c))
                .collect();
            let all: Vec<usize> = step.cells.clone();
            let group_digits = digit_list(
                group
                    .iter()
                    .fold(0u64, |m, &c| m | candidates.get(c).copied().unwrap_or(0)),
            );
            let held = if group_digits.is_empty() {
                String::new()
            } else {
                format!(" ({})", w.digits(&group_digits))
            };
            format!(
                "{name} where {} crosses {}: {}{held} with {} in the line and {} in the box — {} cells holding the {} digits {}: {removes}",
                w.unit(line),
                w.unit(bx),
                w.cells(&group),
                w.cells(&in_line),
                w.cells(&in_box),
                all.len(),
                step.digits.len(),
                w.digits(&step.digits)
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::grid::{BoxShape, Grid};
    use crate::logic::{Solver, Technique};

    #[test]
    fn classic_sue_de_coq() {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        // r1c1, r1c2 hold {1,2,3,4}; r1c3 is filled (no candidates).
        // In row 1, r1c7 holds {1,2}; in box 1, r2c1 holds {3,4}. The four
        // cells hold four digits: 1 and 2 leave the rest of row 1, 3 and 4
        // the rest of box 1.
        b.cands[0] = 0b1111;
        b.cands[1] = 0b1111;
        b.cands[2] = 0;
        b.cands[6] = 0b0011;
        b.cands[9] = 0b1100;
        assert!(b.find(Technique::SueDeCoq));
        let s = b.steps().last().unwrap();
        assert_eq!(s.technique, Technique::SueDeCoq);
        assert_eq!(s.cells, vec![0, 1, 6, 9]);
        assert_eq!(s.digits, vec![1, 2, 3, 4]);
        // Row 1 loses 1 and 2 (r1c4 ...), not 3 or 4.
        assert!(s.eliminated.contains(&(3, 1)) && s.eliminated.contains(&(3, 2)));
        assert!(!s.eliminated.contains(&(3, 3)));
        // Box 1 loses 3 and 4 (r2c2 ...), not 1 or 2.
        assert!(s.eliminated.contains(&(10, 3)) && s.eliminated.contains(&(10, 4)));
        assert!(!s.eliminated.contains(&(10, 1)));
        assert!(!s.eliminated.iter().any(|&(c, _)| [0, 1, 6, 9].contains(&c)));
    }
}
