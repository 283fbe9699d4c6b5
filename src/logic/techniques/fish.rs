//! Basic fish: X-wing, swordfish, jellyfish (`x` `s` `j`). A digit whose
//! places in `size` rows lie in `size` columns between them is struck from
//! the rest of those columns, and the same with rows and columns swapped.

use crate::grid::Unit;
use crate::logic::memo::Run;
use crate::logic::words::{and_list, Words};
use crate::logic::{bit, digits_of, first_cover, Board, Step, Technique};

/// The basic fish family (X-wing, swordfish, jellyfish): its finders,
/// called as `Fish.finder(board, …)`; it keeps nothing between calls.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::logic) struct Fish;

impl Fish {
    /// One basic fish of `size` lines (2 to 4) that strikes something.
    pub(in crate::logic) fn basic_fish(
        &mut self,
        board: &mut Board,
        run: &mut Run,
        size: usize,
    ) -> bool {
        let n = board.side;
        let table = board.table();
        let places = &table.places;
        let mut lines = [(0usize, 0u64); 64];
        let t = match size {
            2 => Technique::XWing,
            3 => Technique::Swordfish,
            _ => Technique::Jellyfish,
        };
        let mut pick = Vec::with_capacity(size);
        let found = run.first_by_digit(board, t, |d| {
            // Base rows (units 0..n) then base columns (units n..2n): the
            // cover units are the other kind, at the same positions.
            for (base, cover) in [(0, n), (n, 0)] {
                let mut len = 0;
                for k in base..base + n {
                    let p = places[k * n + d as usize - 1];
                    if (2..=size).contains(&(p.count_ones() as usize)) {
                        lines[len] = (k, p);
                        len += 1;
                    }
                }
                if len < size {
                    continue;
                }
                let step = first_cover(&lines[..len], size, &mut pick, &mut |pick, union| {
                    self.fish_step(board, d, cover, pick, union)
                });
                if step.is_some() {
                    return step;
                }
            }
            None
        });
        board.apply_found(found)
    }

    /// The step for digit `d` confined in the base lines `pick` to the
    /// positions `union` (the cover lines, from unit `cover` on), if it
    /// strikes something.
    fn fish_step(
        &self,
        board: &Board,
        d: u8,
        cover: usize,
        pick: &[usize],
        union: u64,
    ) -> Option<Step> {
        let b = bit(d);
        // Base rows are struck from through their columns, and base columns
        // through their rows: a cell is in the pattern when its unit of the
        // base kind was picked.
        let base_slot = if cover == 0 { 1 } else { 0 };
        let mut eliminated: Vec<(usize, u8)> = digits_of(union)
            .flat_map(|pos| board.units[cover + pos as usize - 1].iter().copied())
            .filter(|&c| !pick.contains(&board.cell_units[c][base_slot]) && board.cands[c] & b != 0)
            .map(|c| (c, d))
            .collect();
        if eliminated.is_empty() {
            return None;
        }
        eliminated.sort_unstable();
        let cells: Vec<usize> = pick
            .iter()
            .flat_map(|&k| board.units[k].iter().copied())
            .filter(|&c| board.cands[c] & b != 0)
            .collect();
        let technique = match pick.len() {
            2 => Technique::XWing,
            3 => Technique::Swordfish,
            _ => Technique::Jellyfish,
        };
        Some(Step {
            technique,
            unit: Some(board.unit_of(pick[0])),
            digits: vec![d],
            cells,
            placed: None,
            eliminated,
            chains: Vec::new(),
        })
    }
}

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let d0 = step.digits.first().copied();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (Technique::XWing | Technique::Swordfish | Technique::Jellyfish, None)
            if d0.is_some() && step.unit.is_some() =>
        {
            let d = d0.unwrap_or(1);
            let in_rows = matches!(step.unit, Some(Unit::Row(_)));
            let mut base: Vec<usize> = step
                .cells
                .iter()
                .map(|&c| if in_rows { w.row(c) } else { w.col(c) })
                .collect();
            let mut cover: Vec<usize> = step
                .cells
                .iter()
                .map(|&c| if in_rows { w.col(c) } else { w.row(c) })
                .collect();
            for v in [&mut base, &mut cover] {
                v.sort_unstable();
                v.dedup();
            }
            let label =
                |row: bool, k: usize| w.label(if row { Unit::Row(k) } else { Unit::Col(k) });
            let base: Vec<String> = base.into_iter().map(|k| label(in_rows, k)).collect();
            let cover: Vec<String> = cover.into_iter().map(|k| label(!in_rows, k)).collect();
            let (base_kind, cover_kind) = if in_rows {
                ("rows", "columns")
            } else {
                ("columns", "rows")
            };
            format!(
                "{name} on {} in {base_kind} {} ({cover_kind} {}): {removes}",
                w.digit(d),
                and_list(&base),
                cover.join(", ")
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
    fn x_wing_in_rows_strikes_its_columns() {
        let p = Grid::empty(BoxShape::new(3, 3).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        // 1 in rows 1 and 6 only at columns A and E.
        for row in [0, 5] {
            for col in (0..9).filter(|&c| c != 0 && c != 4) {
                b.cands[row * 9 + col] &= !1;
            }
        }
        assert!(b.find(Technique::XWing));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.technique, Technique::XWing);
        assert_eq!(s.cells, vec![0, 4, 45, 49]);
        let mut want: Vec<(usize, u8)> = (0..9)
            .filter(|&r| r != 0 && r != 5)
            .flat_map(|r| [(r * 9, 1), (r * 9 + 4, 1)])
            .collect();
        want.sort_unstable();
        assert_eq!(s.eliminated, want);
    }

    #[test]
    fn swordfish_in_columns_on_a_6x6() {
        let p = Grid::empty(BoxShape::new(3, 2).unwrap());
        let mut b = Solver::edited_by_hand(&p);
        // 2 in columns 1, 3 and 5 only in rows 1, 3 and 5 (two each).
        let keep = [(0, 0), (2, 0), (2, 2), (4, 2), (0, 4), (4, 4)];
        for col in [0, 2, 4] {
            for row in 0..6 {
                if !keep.contains(&(row, col)) {
                    b.cands[row * 6 + col] &= !0b10;
                }
            }
        }
        assert!(!b.find(Technique::XWing));
        assert!(b.find(Technique::Swordfish));
        let s = b.steps().last().unwrap().clone();
        assert_eq!(s.technique, Technique::Swordfish);
        assert!(s
            .eliminated
            .iter()
            .all(|&(c, d)| d == 2 && [0, 2, 4].contains(&(c / 6)) && c % 2 == 1));
        assert_eq!(s.eliminated.len(), 9);
    }
}
