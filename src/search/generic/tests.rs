use super::*;

fn open_state(geo: &Geometry) -> State {
    State {
        cand: vec![geo.full; geo.cells()],
        val: vec![0; geo.cells()],
        open: geo.cells(),
    }
}

#[test]
fn geometry_lists_peers_and_units() {
    let geo = Geometry::new(3, 3);
    assert_eq!(geo.peer_count, 20);
    let mut peers: Vec<u16> = geo.peers_of(0).to_vec();
    peers.sort_unstable();
    assert_eq!(
        peers,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20, 27, 36, 45, 54, 63, 72]
    );
    let six = Geometry::new(3, 2);
    assert_eq!(
        six.unit(12 + 1),
        [3, 4, 5, 9, 10, 11],
        "box 1 of a 3x2 grid"
    );
    assert_eq!(six.cell_units[9], [1, 6 + 3, 12 + 1]);
    assert_eq!(Geometry::new(8, 8).full, u64::MAX);
}

#[test]
fn alldiff_strikes_a_naked_pair_from_the_rest_of_the_unit() {
    let geo = Geometry::new(3, 3);
    let mut engine = Engine::new(&geo, true);
    let mut st = open_state(&geo);
    st.cand[0] = 0b011;
    st.cand[1] = 0b011;
    assert!(matches!(engine.alldiff_unit(&mut st, 0), Ok(true)));
    assert!((2..9).all(|c| st.cand[c] == geo.full & !0b011));
    assert_eq!(st.cand[9], geo.full, "other units untouched");
}

#[test]
fn alldiff_reduces_a_hidden_pair_to_its_digits() {
    let geo = Geometry::new(3, 3);
    let mut engine = Engine::new(&geo, true);
    let mut st = open_state(&geo);
    // Digits 8 and 9 only in cells 0 and 1 of row 0.
    for c in 2..9 {
        st.cand[c] &= !0b1_1000_0000;
    }
    assert!(matches!(engine.alldiff_unit(&mut st, 0), Ok(true)));
    assert_eq!((st.cand[0], st.cand[1]), (0b1_1000_0000, 0b1_1000_0000));
}

#[test]
fn alldiff_finds_three_cells_sharing_two_digits_contradictory() {
    let geo = Geometry::new(2, 2);
    let mut engine = Engine::new(&geo, true);
    let mut st = open_state(&geo);
    for c in 0..3 {
        st.cand[c] = 0b0011;
    }
    assert!(engine.alldiff_unit(&mut st, 0).is_err());
}

#[test]
fn locked_candidates_point_and_claim() {
    let geo = Geometry::new(3, 3);
    let mut engine = Engine::new(&geo, false);
    let mut st = open_state(&geo);
    // In box 0, digit 1 only in row 0: pointing strikes it from the rest
    // of row 0.
    for cell in [9, 10, 11, 18, 19, 20] {
        st.cand[cell] &= !1;
    }
    assert!(matches!(engine.locked_candidates(&mut st), Ok(true)));
    assert!((3..9).all(|c| st.cand[c] & 1 == 0));
    assert!(st.cand[0] & 1 != 0 && st.cand[27] & 1 != 0);
}

#[test]
fn segments_split_each_line_and_box_into_line_box_intersections() {
    for (w, h) in [(3, 3), (3, 2), (2, 3), (4, 2), (5, 5)] {
        let geo = Geometry::new(w, h);
        let n = geo.side;
        let sorted = |cells: &[u16]| {
            let mut v = cells.to_vec();
            v.sort_unstable();
            v
        };
        // The cells of a group of segments, sorted.
        let union = |group: &[u16]| {
            let cells: Vec<u16> = group
                .iter()
                .flat_map(|&s| geo.segments[usize::from(s)].cells.clone())
                .collect();
            sorted(&cells)
        };
        // Each line's segments cover it, and each box's row (column)
        // segments cover the box.
        for (line, group) in geo.by_line.iter().enumerate() {
            assert_eq!(union(group), sorted(geo.unit(line)), "{w}x{h} line {line}");
        }
        for (k, group) in geo.by_box.iter().enumerate() {
            let bx = 2 * n + k / 2;
            assert_eq!(union(group), sorted(geo.unit(bx)), "{w}x{h} box {}", k / 2);
        }
        // A segment and its rests make up its line and its box.
        for seg in &geo.segments {
            let cell = usize::from(seg.cells[0]);
            let [row, col, bx] = geo.cell_units[cell];
            let line = if seg.cells.iter().all(|&c| usize::from(c) / n == cell / n) {
                row
            } else {
                col
            };
            let whole = |rest: &[u16]| sorted(&[seg.cells.as_slice(), rest].concat());
            assert_eq!(whole(&seg.line_rest), sorted(geo.unit(usize::from(line))));
            assert_eq!(whole(&seg.box_rest), sorted(geo.unit(usize::from(bx))));
        }
    }
}

/// On an open `w` x `h`-box grid, strikes digit bit `bit` from the
/// cells `struck`; one locked-candidates pass must then remove it from
/// exactly the `lost` cells among the cells still holding it, keeping it
/// in `kept`.
fn locks(w: usize, h: usize, bit: u64, struck: &[usize], lost: &[usize], kept: &[usize]) {
    let geo = Geometry::new(w, h);
    let mut engine = Engine::new(&geo, false);
    let mut st = open_state(&geo);
    for &cell in struck {
        st.cand[cell] &= !bit;
    }
    assert!(matches!(engine.locked_candidates(&mut st), Ok(true)));
    let gone: Vec<usize> = (0..geo.cells())
        .filter(|c| !struck.contains(c) && st.cand[*c] & bit == 0)
        .collect();
    assert_eq!(gone, lost, "{w}x{h}: cells that lost the digit");
    assert!(kept.iter().all(|&c| st.cand[c] & bit != 0), "{w}x{h}");
}

#[test]
fn claiming_strikes_the_rest_of_the_box_in_rows_and_columns() {
    // 6x6 with 3x2 boxes (3 columns, 2 rows). In row 0, digit 1 only in
    // the first stack (columns 0-2): the rest of box 0 (row 1, columns
    // 0-2) loses it.
    locks(3, 2, 1, &[3, 4, 5], &[6, 7, 8], &[0, 9]);
    // In column 5, digit 2 only in band 0 (rows 0-1): the rest of box 1
    // (columns 3-4 of rows 0-1) loses it.
    locks(3, 2, 2, &[17, 23, 29, 35], &[3, 4, 9, 10], &[5, 15]);
}

#[test]
fn pointing_strikes_the_rest_of_the_line_in_rows_and_columns() {
    // 6x6 with 2x3 boxes (2 columns, 3 rows): box 0 is rows 0-2,
    // columns 0-1. Digit 1 only in row 0 of box 0 (no claiming: every
    // row and column still holds it in two boxes): row 0 beyond the box
    // loses it.
    locks(2, 3, 1, &[6, 7, 12, 13], &[2, 3, 4, 5], &[0, 18]);
    // 6x6 with 3x2 boxes, box 0 rows 0-1, columns 0-2: digit 2 only in
    // column 1 of box 0 (columns 0 and 2 still hold it in two other
    // bands, rows 0 and 1 in the other stack): column 1 below the box
    // loses it.
    locks(3, 2, 2, &[0, 2, 6, 8], &[13, 19, 25, 31], &[1, 12]);
}

#[test]
fn a_wipe_out_blames_the_unit_the_cells_share() {
    let geo = Geometry::new(3, 3);
    let mut engine = Engine::new(&geo, false);
    let mut st = open_state(&geo);
    st.cand[40] = 0b10; // centre cell: only digit 2
    assert!(engine.assign(&mut st, 44, 2).is_err(), "same row");
    assert_eq!(engine.culprit, Some(4), "row 5");
}
