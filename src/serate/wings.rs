//! XY-wing and XYZ-wing, in SE's order (pivot cell by cell, wings in the
//! order of the pivot's house cells).

use super::grid::{pop, Grid, PEERS};
use super::rules::{Hint, Rule};

fn is_xy(xy: u16, xz: u16, yz: u16) -> bool {
    xy.count_ones() == 2
        && xz.count_ones() == 2
        && yz.count_ones() == 2
        && (xy | xz | yz).count_ones() == 3
        && xy & xz & yz == 0
}

fn is_xyz(xy: u16, xz: u16, yz: u16) -> bool {
    xy.count_ones() == 3
        && xz.count_ones() == 2
        && yz.count_ones() == 2
        && (xy | xz | yz).count_ones() == 3
        && (xy & xz & yz).count_ones() == 1
}

/// The first XY-wing (`xyz` false) or XYZ-wing with something to strike.
pub fn wing(g: &Grid, xyz: bool) -> Option<Hint> {
    let size = if xyz { 3 } else { 2 };
    for pivot in 0..81 {
        let xy = g.cands[pivot];
        if xy.count_ones() != size {
            continue;
        }
        // Both wings are bivalue: the pivot's bivalue house cells, in
        // SE's order, are all the search needs to walk.
        let mut pairs = [0usize; 20];
        let mut n = 0;
        for h in Grid::house_cells(pivot) {
            if pop(g.cands[h]) == 2 {
                pairs[n] = h;
                n += 1;
            }
        }
        for &a in &pairs[..n] {
            let xz = g.cands[a];
            if (xy & !xz).count_ones() != 1 {
                continue;
            }
            for &b in &pairs[..n] {
                let yz = g.cands[b];
                let ok = if xyz {
                    is_xyz(xy, xz, yz)
                } else {
                    is_xy(xy, xz, yz)
                };
                if !ok {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as u8;
                let mut victims = PEERS[a] & PEERS[b];
                if xyz {
                    victims &= PEERS[pivot];
                }
                victims &= !(1u128 << pivot | 1u128 << a | 1u128 << b);
                let mut removals: Vec<(u8, u16)> = Vec::new();
                while victims != 0 {
                    let c = victims.trailing_zeros() as usize;
                    victims &= victims - 1;
                    if g.has(c, z) {
                        removals.push((c as u8, 1u16 << z));
                    }
                }
                if !removals.is_empty() {
                    let rule = if xyz { Rule::XyzWing } else { Rule::XyWing };
                    return Some(Hint::striking(rule, removals));
                }
            }
        }
    }
    None
}
