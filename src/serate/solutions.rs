//! How many solutions a puzzle has (0, 1 or "2 or more"): the nested
//! chains (SE 9.5 and up) are only tried on a puzzle with one solution,
//! where they are known to finish; on others they could run for hours.

use super::grid::{Grid, PEERS};

/// The number of solutions of `g`, counted up to `limit`. A grid with
/// every candidate its values allow goes to the crate's exact solver
/// ([`crate::search`], microseconds); one with candidates struck to the
/// plain search here, which honours them.
pub fn count(g: &Grid, limit: usize) -> usize {
    if g.cands == Grid::new(&g.values).cands {
        if let Some(n) = count_by_solver(&g.values, limit) {
            return n;
        }
    }
    count_by_search(g, limit)
}

fn count_by_solver(values: &[u8; 81], limit: usize) -> Option<usize> {
    let shape = crate::grid::BoxShape::new(3, 3).ok()?;
    let grid = crate::grid::Grid::from_cells(shape, values.to_vec()).ok()?;
    let opts = crate::search::SearchOptions {
        limit: limit.max(1),
        deadline: None,
    };
    let outcome = crate::search::search(&grid, &opts).ok()?;
    Some(outcome.solutions.len())
}

fn count_by_search(g: &Grid, limit: usize) -> usize {
    let clash = (0..81).any(|c| {
        g.values[c] != 0 && (0..81).any(|p| PEERS[c] >> p & 1 == 1 && g.values[p] == g.values[c])
    });
    if clash {
        return 0;
    }
    let mut values = g.values;
    let mut cands = g.cands;
    let mut found = 0;
    search(&mut values, &mut cands, limit, &mut found);
    found
}

fn search(values: &mut [u8; 81], cands: &mut [u16; 81], limit: usize, found: &mut usize) {
    // The empty cell with the fewest candidates.
    let mut best = None;
    let mut fewest = 10;
    for c in 0..81 {
        if values[c] == 0 {
            let n = cands[c].count_ones();
            if n < fewest {
                fewest = n;
                best = Some(c);
            }
        }
    }
    let Some(c) = best else {
        *found += 1;
        return;
    };
    let mut m = cands[c];
    while m != 0 && *found < limit {
        let d = m.trailing_zeros() as u8;
        m &= m - 1;
        let (saved_v, saved_c) = (*values, *cands);
        values[c] = d;
        cands[c] = 0;
        let mut peers = PEERS[c];
        let mut dead = false;
        while peers != 0 {
            let p = peers.trailing_zeros() as usize;
            peers &= peers - 1;
            if values[p] == d {
                dead = true;
            }
            cands[p] &= !(1 << d);
        }
        if !dead {
            search(values, cands, limit, found);
        }
        *values = saved_v;
        *cands = saved_c;
    }
}

#[cfg(test)]
mod tests {
    use super::count;
    use crate::serate::grid::{parse, Grid};

    #[test]
    fn the_solver_and_the_plain_search_agree() {
        let one =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        for text in [
            one.to_string(),
            ".".repeat(81),
            format!("11{}", ".".repeat(79)),
        ] {
            let g = Grid::new(&parse(&text).unwrap());
            assert_eq!(super::count_by_search(&g, 2), count(&g, 2));
        }
    }

    #[test]
    fn counts_none_one_and_many() {
        let one =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        assert_eq!(count(&Grid::new(&parse(one).unwrap()), 2), 1);
        let empty = ".".repeat(81);
        assert_eq!(count(&Grid::new(&parse(&empty).unwrap()), 2), 2);
        let twice = format!("11{}", ".".repeat(79));
        assert_eq!(count(&Grid::new(&parse(&twice).unwrap()), 2), 0);
    }
}
