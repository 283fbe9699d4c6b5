//! Clause learning for the hardest grids: the candidates left by
//! propagation, handed to the CaDiCaL SAT solver.
//!
//! The generic engine's depth-first search with all-different propagation
//! settles almost every grid in a few hundred guesses. A few large minimal
//! puzzles (the Gecode 25x25 set) defeat it: no amount of propagation at
//! each node replaces learning from the conflicts met. When the search runs
//! past its guess budget, the engine hands the root candidates to CaDiCaL
//! (through the `cadical` crate, which builds and links the solver itself):
//!
//! - one variable per open candidate `(cell, digit)`;
//! - each open cell holds exactly one of its candidates;
//! - each digit not yet placed in a unit goes to exactly one of the unit's
//!   open cells that can hold it;
//! - at-most-one is pairwise for up to [`PAIRWISE_UP_TO`] literals (every
//!   constraint of a grid up to 25x25), else a sequential counter (linear
//!   in the number of literals, for the larger grids).
//!
//! Each solution found is blocked by a clause and the solver asked again,
//! until the limit is reached or the formula becomes unsatisfiable (which
//! proves there are no more solutions).
//!
//! Why CaDiCaL, its `sat` configuration and pairwise at-most-one: the
//! solvers, encodings and options measured on these formulas are in
//! docs/design.md ("Measured: solvers for the hardest large grids").

use std::time::Instant;

use super::geometry::Geometry;

/// At-most-one constraints over at most this many literals are pairwise
/// (at most 300 binary clauses each); longer ones use a sequential counter,
/// whose size stays linear on the largest grids.
///
/// Pairwise for every constraint of a 25x25 grid (at most 25 literals)
/// against pairwise up to 6 and the counter above: Gecode 25x25 median
/// 1.95 s -> 1.58 s, slowest 14.8 s -> 13.0 s (CPU, CaDiCaL 1.9.5 `sat`).
const PAIRWISE_UP_TO: usize = 25;

/// CaDiCaL's configuration (see [`solve`]).
const CONFIG: &str = "sat";

/// The deadline passed before the SAT solver finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Timeout;

/// Asks CaDiCaL to stop once the deadline has passed.
struct Deadline(Option<Instant>);

impl cadical::Callbacks for Deadline {
    fn terminate(&mut self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }
}

/// Finds up to `limit` completions of a propagated state (`cand` per cell,
/// `val` the placed digit or 0) other than the `known` ones (one digit per
/// cell each), each returned as one digit per cell.
///
/// Fewer than `limit` proves there are no more.
pub(super) fn solve(
    geo: &Geometry,
    cand: &[u64],
    val: &[u8],
    known: &[&[u8]],
    limit: usize,
    deadline: Option<Instant>,
) -> Result<Vec<Vec<u8>>, Timeout> {
    let side = geo.side();
    let cells = geo.cells();
    // var[cell * side + digit]: the SAT variable of an open candidate.
    let mut var = vec![0i32; cells * side];
    let mut next = 0i32;
    for cell in (0..cells).filter(|&c| val[c] == 0) {
        let mut m = cand[cell];
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            next += 1;
            var[cell * side + d] = next;
        }
    }
    // CaDiCaL's options for satisfiable formulas: on the Gecode 25x25 set
    // (one satisfiable call, then one unsatisfiable after the blocking
    // clause) faster on 14 of 18 puzzles and never slower, median 2.8 s ->
    // 2.0 s; "unsat" and "plain" were slower than the default.
    let solver = cadical::Solver::with_config(CONFIG).unwrap_or_else(|_| cadical::Solver::new());
    let mut enc = Encoder { solver, next };
    enc.solver.set_callbacks(Some(Deadline(deadline)));
    let mut lits = Vec::with_capacity(side);
    for cell in (0..cells).filter(|&c| val[c] == 0) {
        lits.clear();
        lits.extend((0..side).map(|d| var[cell * side + d]).filter(|&v| v != 0));
        enc.exactly_one(&lits);
    }
    for u in 0..3 * side {
        let unit = geo.unit(u);
        let placed = unit
            .iter()
            .filter(|&&c| val[c as usize] != 0)
            .fold(0u64, |acc, &c| acc | 1u64 << (val[c as usize] - 1));
        for d in (0..side).filter(|&d| placed & (1u64 << d) == 0) {
            lits.clear();
            lits.extend(
                unit.iter()
                    .map(|&c| var[c as usize * side + d])
                    .filter(|&v| v != 0),
            );
            // An empty clause (a digit with no place) makes the formula
            // unsatisfiable, as it should.
            enc.exactly_one(&lits);
        }
    }
    for solution in known {
        enc.block(&var, val, solution);
    }
    let mut solutions = Vec::new();
    while solutions.len() < limit {
        match enc.solver.solve() {
            Some(true) => {}
            Some(false) => break,
            None => return Err(Timeout),
        }
        let mut digits = val.to_vec();
        for cell in (0..cells).filter(|&c| val[c] == 0) {
            if let Some(d) = (0..side).find(|&d| {
                let v = var[cell * side + d];
                v != 0 && enc.solver.value(v) == Some(true)
            }) {
                digits[cell] = d as u8 + 1;
            }
        }
        let open = enc.block(&var, val, &digits);
        solutions.push(digits);
        if !open {
            // Nothing was open: the one completion is the state itself.
            break;
        }
    }
    Ok(solutions)
}

/// Clause building over one solver.
struct Encoder {
    solver: cadical::Solver<Deadline>,
    /// The highest variable in use.
    next: i32,
}

impl Encoder {
    /// Excludes one completion (a digit per cell) by a clause over the open
    /// cells; false when there is no open cell to exclude it by.
    fn block(&mut self, var: &[i32], val: &[u8], digits: &[u8]) -> bool {
        let side = var.len() / val.len().max(1);
        let mut clause = Vec::new();
        for (cell, &d) in digits.iter().enumerate() {
            if val[cell] != 0 || d == 0 {
                continue;
            }
            match var.get(cell * side + usize::from(d) - 1) {
                Some(&v) if v != 0 => clause.push(-v),
                // Not a candidate: no completion matches, nothing to block.
                _ => return true,
            }
        }
        if clause.is_empty() {
            return false;
        }
        self.solver.add_clause(clause);
        true
    }

    /// Exactly one of `lits` is true.
    fn exactly_one(&mut self, lits: &[i32]) {
        self.solver.add_clause(lits.iter().copied());
        if lits.len() <= PAIRWISE_UP_TO {
            for (i, &a) in lits.iter().enumerate() {
                for &b in &lits[i + 1..] {
                    self.solver.add_clause([-a, -b]);
                }
            }
            return;
        }
        // Sequential counter: s_i is true when one of lits[..=i] is.
        let mut prev = 0;
        for (i, &x) in lits.iter().enumerate() {
            if i + 1 < lits.len() {
                self.next += 1;
                let s = self.next;
                self.solver.add_clause([-x, s]);
                if prev != 0 {
                    self.solver.add_clause([-prev, s]);
                    self.solver.add_clause([-x, -prev]);
                }
                prev = s;
            } else {
                self.solver.add_clause([-x, -prev]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty(geo: &Geometry) -> (Vec<u64>, Vec<u8>) {
        let full = if geo.side() == 64 {
            u64::MAX
        } else {
            (1u64 << geo.side()) - 1
        };
        (vec![full; geo.cells()], vec![0; geo.cells()])
    }

    fn is_latin_sudoku(geo: &Geometry, digits: &[u8]) -> bool {
        (0..3 * geo.side()).all(|u| {
            let seen = geo
                .unit(u)
                .iter()
                .fold(0u64, |acc, &c| acc | 1u64 << (digits[c as usize] - 1));
            seen.count_ones() as usize == geo.side()
        })
    }

    #[test]
    fn exactly_one_has_one_model_per_literal() {
        // Up to PAIRWISE_UP_TO literals pairwise, beyond that the
        // sequential counter: every model found (each then blocked) has
        // exactly one literal true, and there are exactly n of them.
        for n in 0..=PAIRWISE_UP_TO as i32 + 4 {
            let mut enc = Encoder {
                solver: cadical::Solver::new(),
                next: n,
            };
            let lits: Vec<i32> = (1..=n).collect();
            enc.exactly_one(&lits);
            let mut models = 0;
            while enc.solver.solve() == Some(true) {
                let truth: Vec<i32> = lits
                    .iter()
                    .map(|&l| {
                        if enc.solver.value(l) == Some(true) {
                            l
                        } else {
                            -l
                        }
                    })
                    .collect();
                assert_eq!(truth.iter().filter(|&&l| l > 0).count(), 1, "n = {n}");
                enc.solver.add_clause(truth.iter().map(|&l| -l));
                models += 1;
                assert!(models <= n, "n = {n}: more models than literals");
            }
            assert_eq!(models, n, "n = {n}");
        }
    }

    #[test]
    fn an_empty_grid_has_two_distinct_valid_completions() {
        // Every cell and unit of an empty grid has `side` candidates: up
        // to 25x25 pairwise, 36x36 uses the sequential counter.
        for (w, h) in [(3, 3), (4, 4), (3, 2), (5, 5), (6, 6)] {
            let geo = Geometry::new(w, h);
            let (cand, val) = empty(&geo);
            let found = solve(&geo, &cand, &val, &[], 2, None).expect("no deadline");
            assert_eq!(found.len(), 2, "{w}x{h}");
            assert_ne!(found[0], found[1]);
            assert!(found.iter().all(|s| is_latin_sudoku(&geo, s)), "{w}x{h}");
        }
    }

    #[test]
    fn a_unit_missing_a_digit_has_no_completion() {
        let geo = Geometry::new(2, 2);
        let (mut cand, val) = empty(&geo);
        for &c in geo.unit(0) {
            cand[c as usize] &= !0b1000; // digit 4 nowhere in row 0
        }
        assert_eq!(solve(&geo, &cand, &val, &[], 2, None), Ok(Vec::new()));
    }

    #[test]
    fn placed_cells_are_kept_and_the_rest_completed() {
        let geo = Geometry::new(2, 2);
        let (mut cand, mut val) = empty(&geo);
        // Row 0 placed as 1 2 3 4, struck from the column and box peers.
        for c in 0..4 {
            val[c] = c as u8 + 1;
            cand[c] = 1 << c;
        }
        for (cell, c) in cand.iter_mut().enumerate().skip(4) {
            *c &= !(1u64 << (cell % 4));
        }
        cand[4] &= !0b0010; // box 0 holds 2 at cell 1
        cand[5] &= !0b0001;
        cand[6] &= !0b1000;
        cand[7] &= !0b0100;
        let found = solve(&geo, &cand, &val, &[], 5, None).expect("no deadline");
        assert_eq!(found.len(), 5, "more than five completions exist");
        for (i, s) in found.iter().enumerate() {
            assert_eq!(&s[..4], &[1, 2, 3, 4]);
            assert!(is_latin_sudoku(&geo, s));
            assert!(found[i + 1..].iter().all(|t| t != s), "repeated");
        }
        // Known completions are excluded, not returned again.
        let known: Vec<&[u8]> = found.iter().map(Vec::as_slice).collect();
        let rest = solve(&geo, &cand, &val, &known, 100, None).expect("no deadline");
        assert!(rest.iter().all(|s| !found.contains(s)));
        assert_eq!(
            rest.len() + found.len(),
            solve(&geo, &cand, &val, &[], 100, None)
                .expect("no deadline")
                .len()
        );
    }

    #[test]
    fn at_most_one_is_pairwise_up_to_25_literals_then_a_counter() {
        let clauses_and_aux = |n: i32| {
            let mut enc = Encoder {
                solver: cadical::Solver::new(),
                next: n,
            };
            let lits: Vec<i32> = (1..=n).collect();
            enc.exactly_one(&lits);
            (enc.solver.num_clauses(), enc.next - n)
        };
        // One at-least-one clause and n(n-1)/2 binary ones, no new variable.
        assert_eq!(clauses_and_aux(25), (1 + 300, 0));
        // Beyond: the counter's n-1 auxiliary variables, 3n-4 clauses.
        assert_eq!(clauses_and_aux(26), (1 + 74, 25));
    }

    #[test]
    fn the_configuration_is_one_cadical_knows() {
        assert!(cadical::Solver::<Deadline>::with_config(CONFIG).is_ok());
    }

    #[test]
    fn a_passed_deadline_times_out() {
        let geo = Geometry::new(5, 5);
        let (cand, val) = empty(&geo);
        let past = Instant::now();
        assert_eq!(solve(&geo, &cand, &val, &[], 2, Some(past)), Err(Timeout));
    }
}
