use super::*;

#[test]
fn each_isa_level_has_its_own_name_and_the_detected_one_is_reported() {
    let names = [BASELINE, BMI, BMI_PEXT].map(|level| Isa::unchecked(level).name());
    assert_eq!(names, ["baseline", "bmi2", "bmi2+pext"]);
    assert_eq!(isa_name(), Isa::detect().name());
    #[cfg(target_arch = "x86_64")]
    if Isa::detect() != Isa::baseline() {
        assert!(runs(Isa::detect().level()));
    }
}

#[test]
fn complex_keeps_only_pairs_on_a_perfect_matching() {
    assert_eq!(COMPLEX[0x1FF], BAND);
    // Row 0 only in box 0; row 1 in boxes 0 and 1; row 2 anywhere.
    let s = 0b111_011_001;
    let expect = 7 | (7 << (9 + 3)) | (7 << (18 + 6));
    assert_eq!(COMPLEX[s], expect);
    // Rows 0 and 1 both only in box 0: no matching.
    assert_eq!(COMPLEX[0b111_001_001], 0);
}

#[test]
fn mask_single_clears_a_box_column_in_the_other_bands() {
    // Box 0 holds the digit only in column 1; boxes 1 and 2 anywhere.
    assert_eq!(MASK_SINGLE[0b111_111_010], BAND & !column(1));
    assert_eq!(MASK_SINGLE[0x1FF], BAND);
}

#[test]
fn row_singles_picks_rows_with_one_place() {
    let f = (1 << 4) | (0b11 << 9) | (1 << 26);
    assert_eq!(row_singles(f), (1 << 4) | (1 << 26));
    // Every pattern of each row, against a count of its bits.
    for x in 0..512u32 {
        for shift in [0, 9, 18] {
            let f = (x << shift) | if shift == 0 { 0b11 << 9 } else { 0b101 };
            let one = if x.count_ones() == 1 { x << shift } else { 0 };
            assert_eq!(row_singles(f), one, "{f:#x}");
        }
    }
}

#[test]
fn givens_at_once_match_givens_a_cell_at_a_time() {
    let lines = [
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        ".................................................................................",
    ];
    for line in lines {
        let cells: Vec<u8> = line.bytes().map(|b| b.saturating_sub(b'0')).collect();
        assert_eq!(givens(&cells), givens_scalar(&cells), "{line}");
    }
    // Values outside 1-9 are blanks in both.
    let cells: Vec<u8> = (0..81u8).map(|i| i % 13).collect();
    assert_eq!(givens(&cells), givens_scalar(&cells));
}

#[test]
fn load_rejects_clashing_givens_in_a_column() {
    let mut cells = [0u8; 81];
    cells[4] = 7;
    cells[76] = 7;
    assert!(State::load(&cells).is_none());
    cells[76] = 6;
    assert!(State::load(&cells).is_some());
    cells[22] = 7; // column 4 again, in the same band
    assert!(State::load(&cells).is_none());
}

#[test]
fn load_rejects_clashing_givens_in_a_row_or_a_box() {
    let mut cells = [0u8; 81];
    cells[30] = 4;
    cells[35] = 4;
    assert!(State::load(&cells).is_none(), "row 3");
    cells[35] = 0;
    cells[50] = 4;
    assert!(State::load(&cells).is_none(), "box 4");
    cells[50] = 5;
    assert!(State::load(&cells).is_some());
}

#[test]
fn load_keeps_a_given_and_strikes_its_peers() {
    let mut cells = [0u8; 81];
    cells[40] = 9; // row 4, column 4: band 1, position 13
    let st = State::load(&cells).expect("one given");
    assert_eq!(st.f[w(8, 1)] & (1 << 13), 1 << 13);
    assert_eq!(st.f[w(8, 1)] & BAND_PEERS[13], 0);
    assert_eq!(st.f[w(8, 0)] & column(4), 0, "column 4 in band 0");
    assert_eq!(st.f[w(3, 1)] & (1 << 13), 0, "other digits leave the cell");
    assert_eq!(st.open[1], BAND & !(1 << 13));
}

#[test]
fn open_peers_counts_the_open_cells_of_row_box_and_column() {
    let mut cells = [0u8; 81];
    let st = State::load(&cells).expect("empty grid");
    // Cell (8, 0): row 8 and box 6 minus the cell (14), column 0 in
    // bands 0 and 1 (6).
    assert_eq!(st.open_peers(2, 18), 14 + 6);
    // Fill four cells of row 6 (not its first) and two of column 0
    // below it.
    for (i, v) in [(55, 1), (56, 2), (57, 3), (60, 4), (63, 5), (72, 6)] {
        cells[i] = v;
    }
    let st = State::load(&cells).expect("valid givens");
    // Cell (6, 0): row 6 lost 4 open cells, its box 2 more (63, 72; 55
    // and 56 already counted in the row); its column outside the band
    // none.
    assert_eq!(st.open_peers(2, 0), 20 - 4 - 2);
}

#[test]
fn every_copy_of_the_search_finds_the_same_solutions_with_the_same_guesses() {
    let lines = [
        // forum_hardest_1106, magictour_top1465 and serg, first lines.
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        ".................................................................................",
    ];
    // Every copy the processor can run (`pext` slow or not).
    #[cfg(target_arch = "x86_64")]
    let isas: Vec<Isa> = [BASELINE, BMI, BMI_PEXT]
        .into_iter()
        .filter(|&level| runs(level))
        .map(Isa::unchecked)
        .collect();
    #[cfg(not(target_arch = "x86_64"))]
    let isas = vec![Isa::baseline()];
    let runnable = isas.iter();
    for line in lines {
        let cells: Vec<u8> = line.bytes().map(|b| b.saturating_sub(b'0')).collect();
        let opts = SearchOptions::default();
        let mut first = Vec::new();
        let expected = search_with(&cells, &opts, &mut first, Isa::baseline()).expect("found");
        for &isa in runnable.clone() {
            let mut out = Vec::new();
            let found = search_with(&cells, &opts, &mut out, isa).expect("found");
            assert_eq!((found, &out), (expected, &first), "{isa:?} on {line}");
        }
    }
}

#[test]
fn a_row_single_marks_the_fixed_cells_other_digits_and_the_column_dirty() {
    let mut st = State::load(&[0; 81]).expect("empty grid");
    assert!(st.propagate::<BASELINE>());
    assert_eq!(st.dirty, 0);
    // Digit 5 (index 4) struck from the row and box peers of cell 13 of
    // band 1 (row 4, column 4): the row keeps one place, the box one
    // column.
    let i = w(4, 1);
    st.f[i] &= !BAND_PEERS[13];
    let mut dirty = 0;
    assert!(st.update_word::<BASELINE>(i, &mut dirty));
    // The cell leaves the other eight digits of band 1, and column 4
    // leaves digit 5 in bands 0 and 2; word i itself is done.
    let expected = (0..9)
        .filter(|&d| d != 4)
        .fold(0, |acc, d| acc | 1 << w(d, 1))
        | 1 << w(4, 0)
        | 1 << w(4, 2);
    assert_eq!(dirty, expected, "{dirty:#029b}");
    assert_eq!(st.open[1] & (1 << 13), 0, "fixed");
}

#[test]
fn the_row_box_pattern_by_pext_is_the_table_one() {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // Every row pattern in each row, and a spread of whole words.
        let rows = (0..512u32).flat_map(|x| [x, x << 9, x << 18]);
        let words = (0..100_000u32).map(|k| k.wrapping_mul(0x9E37_79B9) & BAND);
        for f in rows.chain(words) {
            assert_eq!(shrink::<BMI_PEXT>(f), shrink::<BASELINE>(f), "{f:#x}");
        }
    }
}

#[test]
fn a_guess_is_fixed_by_propagation() {
    let cells = [0u8; 81];
    let mut st = State::load(&cells).expect("empty grid");
    assert!(st.propagate::<BASELINE>());
    // Digit 5 (index 4) in cell (4, 4): band 1, position 13.
    st.guess(4, 1, 13);
    assert!(st.propagate::<BASELINE>());
    assert_eq!(st.open[1] & (1 << 13), 0, "the cell is closed");
    for d in 0..9 {
        let here = st.f[w(d, 1)] & (1 << 13) != 0;
        assert_eq!(here, d == 4, "digit {} in the cell", d + 1);
    }
    assert_eq!(st.f[w(4, 0)] & column(4), 0, "column 4 above");
    assert_eq!(st.f[w(4, 2)] & column(4), 0, "column 4 below");
}

#[test]
fn a_solved_state_reads_back_its_cells() {
    let line = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let cells: Vec<u8> = line.bytes().map(|b| b - b'0').collect();
    let mut st = State::load(&cells).expect("valid grid");
    assert!(st.propagate::<BASELINE>());
    assert_eq!(st.open, [0; 3]);
    assert_eq!(st.cells::<BASELINE>().to_vec(), cells);
    #[cfg(target_arch = "x86_64")]
    if Isa::detect().level() >= BMI {
        // By bit planes and `pdep`, nines in the last cells included.
        assert_eq!(st.cells::<BMI>().to_vec(), cells);
    }
}
