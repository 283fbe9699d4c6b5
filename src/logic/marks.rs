//! A position a person has reached: pencil marks that narrow a cell's
//! candidates, and the ladder taken one step at a time from there (the
//! hint, and the step pictures, start from such a position).

use super::{Digits, Solver, Step, Stop};
use crate::grid::Grid;

impl Solver {
    /// Keeps only the candidates of `marks` ([`Digits`], or their bits:
    /// bit `d - 1` for digit `d`) in
    /// a blank cell: the pencil marks a person wrote there. Candidates the
    /// placed digits already struck stay struck; a filled cell is left as
    /// it is. Leaving a cell no candidate makes the position a
    /// contradiction ([`Solver::run`] and [`Solver::next_step`] say so).
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::Solver;
    ///
    /// let p: Grid =
    ///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    ///         .parse()?;
    /// let mut solver = Solver::new(&p).unwrap();
    /// let digits = |s: &Solver| s.board().candidates(0).iter().collect::<Vec<u8>>();
    /// assert_eq!(digits(&solver), [4, 5]);
    /// solver.keep_marks(0, 0b1_0000_1000); // the person wrote "4 9"
    /// assert_eq!(digits(&solver), [4]); // 9 was struck already
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn keep_marks(&mut self, cell: usize, marks: impl Into<Digits>) {
        let marks = marks.into();
        let b = &mut self.board;
        let Some(&now) = b.cands.get(cell) else {
            return;
        };
        for d in (Digits::from_bits(now) & !marks).iter() {
            b.strike_queued(cell, d);
        }
        b.contradiction = b.find_contradiction();
    }

    /// Takes the ladder's next step from this position, as [`Solver::run`]
    /// takes it (with `solution`, a guess where the techniques stop), and
    /// returns it; `Err` with why there is none: the grid is full
    /// ([`Stop::Solved`]), broken ([`Stop::Contradiction`]), the
    /// techniques stop and no solution was given ([`Stop::Stuck`]), or the
    /// deadline passed. The seed's ladder fills every single one pass
    /// finds, as the macro did: then the step returned is the pass's
    /// first, the one a person would take first, and the position has
    /// moved past the others.
    ///
    /// ```
    /// use xlsudoku::grid::Grid;
    /// use xlsudoku::logic::Solver;
    ///
    /// let p: Grid =
    ///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    ///         .parse()?;
    /// let mut whole = Solver::new(&p).unwrap();
    /// whole.run(None);
    /// let mut one = Solver::new(&p).unwrap();
    /// assert_eq!(one.next_step(None).ok(), whole.steps().first());
    /// # Ok::<(), xlsudoku::grid::GridError>(())
    /// ```
    pub fn next_step(&mut self, solution: Option<&Grid>) -> Result<&Step, Stop> {
        let before = self.board.steps.len();
        self.advance(solution)?;
        self.board.steps.get(before).ok_or(Stop::Stuck)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{Ladder, Solver};
    use crate::samples::HARD;

    #[test]
    fn steps_one_at_a_time_are_the_runs_steps() {
        let p: Grid = HARD.parse().unwrap();
        let sol = crate::logic::tests::brute_force(&p).unwrap();
        let mut whole = Solver::with_ladder(&p, Ladder::all()).unwrap();
        whole.assume_unique();
        whole.run(Some(&sol));
        let mut one = Solver::with_ladder(&p, Ladder::all()).unwrap();
        one.assume_unique();
        let mut taken = Vec::new();
        while let Ok(step) = one.next_step(Some(&sol)) {
            taken.push(step.clone());
        }
        assert_eq!(taken, whole.steps());
        assert_eq!(one.next_step(Some(&sol)), Err(Stop::Solved));
    }

    #[test]
    fn the_seed_ladders_next_step_is_its_passs_first() {
        // The seed's pass fills several naked singles at once; the step
        // given is the first of them, the run's first step.
        let p: Grid =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
                .parse()
                .unwrap();
        let mut whole = Solver::with_ladder(&p, Ladder::seed()).unwrap();
        whole.run(None);
        let mut one = Solver::with_ladder(&p, Ladder::seed()).unwrap();
        let first = one.next_step(None).unwrap().clone();
        assert!(one.steps().len() > 1, "the pass took several steps");
        assert_eq!(Some(&first), whole.steps().first());
    }

    #[test]
    fn marks_narrow_candidates_and_a_mark_set_without_room_is_a_contradiction() {
        let p: Grid = HARD.parse().unwrap();
        let mut b = Solver::new(&p).unwrap();
        let blank = (0..81).find(|&i| b.candidates(i).len() >= 3).unwrap();
        let mut keep = b.candidates(blank);
        keep.remove(keep.iter().next().unwrap()); // drop the lowest
        b.keep_marks(blank, keep | Digits::of(64));
        assert_eq!(b.candidates(blank), keep);
        b.keep_marks(blank, 0);
        assert_eq!(b.next_step(None), Err(Stop::Contradiction));
    }
}
