//! One puzzle per rule, each rated by SE 1.2.1's `serate` (ER EP ED in
//! the table), whose hardest step is that rule: the engine must give SE's
//! three numbers and find that rule hardest.

use super::grid::{digits, pop, Grid};
use super::rules::Rule;
use super::{grid::parse, rate};

fn pin(puzzle: &str, se: (u32, u32, u32), rule: Rule) {
    let p = parse(puzzle).expect("81 cells");
    let r = rate(&p);
    assert_eq!(r.tenths(), se, "{puzzle}");
    let found = match (r.hardest, rule) {
        (Some(Rule::Nested(_)), Rule::Nested(_)) => true,
        (h, want) => h == Some(want),
    };
    assert!(found, "{puzzle}: {:?}", r.hardest);
}

macro_rules! rule {
    (Nested) => {
        Rule::Nested(1)
    };
    ($r:ident) => {
        Rule::$r
    };
}

macro_rules! pins {
    ($($name:ident: $rule:ident, $p:expr, $er:expr, $ep:expr, $ed:expr;)*) => {
        $(
            #[test]
            fn $name() {
                pin($p, ($er, $ep, $ed), rule!($rule));
            }
        )*
    };
}

pins! {
    hidden_single_block: HiddenSingleBlock, ".5....167...5.2.....7.8...5.2.........364.....68..37...3.....1....4.7..61.4.....8", 12, 12, 12;
    hidden_single_line: HiddenSingleLine, "......74...5......4.3.5..68.......2.61...43..7...6....52.1......8..2...7...4....1", 15, 12, 12;
    direct_pointing: DirectPointing, ".4.5.9.....5..4.2.9.8.2..6..61...2..3....2.....4.7......6...71....346.....2.8....", 17, 12, 12;
    direct_hidden_pair: DirectHiddenPair, ".6...1.2.1.....5....54.9...9..6...74..2...3.58..5..2..21..9.7.......24.....8..6..", 20, 12, 12;
    naked_single: NakedSingle, "2..413............4..2.....14....3....8.9.6..7..5..1..8...5.....576....86.1....2.", 23, 12, 12;
    direct_hidden_triple: DirectHiddenTriple, "..5..29..1....8..7.8....5..........9....26.3.8...47..2..3....5...623...........46", 25, 12, 12;
    pointing: Pointing, "7...8.......314....482.6...98.....7.....632.........654...2...9....5..2....1.8..6", 26, 12, 12;
    claiming: Claiming, ".....1.2...3...16.2.......87.4..2...9.1..6....5..7.......1.8......3..8.25..2.967.", 28, 12, 12;
    naked_pair: NakedPair, ".8.....923.4..8.6............2...53......4..1...3.6.7..4.951..3.1.......7.3......", 30, 12, 12;
    x_wing: XWing, "..7.83...2.........6.71...2..53..9......75...6..1...4..4......68......1..7..34.5.", 32, 12, 12;
    hidden_pair: HiddenPair, "...4..8......39...4.1.2.....3.97..18.....3..4.2....9..27.5......9....4..6..2....9", 34, 12, 12;
    naked_triple: NakedTriple, "7......12....62..4....3..8........4.8...1.2.5.975.3........6...6...789..1.3.5....", 36, 15, 15;
    hidden_triple: HiddenTriple, "..6...1.77.8.....5...5..64.1.39.64..9..7.........1....2......1.5.....794...8.....", 40, 12, 12;
    xy_wing: XyWing, "62....4.89.8.3...1....4....3..79.5.4..7..8.93......1..8....32.....6....7...5.....", 42, 12, 12;
    xyz_wing: XyzWing, "..3.......6.7.9..1...6......16...8.9.......24.98......5....2.6....5.4.3...9..32..", 44, 12, 12;
    unique_loop: UniqueLoop, ".8..5..1........8.6..38...9...8..5...6..4...8.739..4..9.6.3.....35..1...2.......1", 45, 12, 12;
    bug_type_1: Bug1, ".4...2..95.31...7.7..6..4..86.237....5.......1.............65.7.....52.....79.3.8", 56, 12, 12;
    bug: Bug, "5.....3..69..7.......64...1.3.7.4.6..6.........42....7..9.2...3....1.24...2.8....", 57, 12, 12;
    forcing_chain: ForcingChain, "..85.4..7.1..86..4.7....1..5...4...639...7..........39.5.3...2...14..6....3......", 66, 12, 12;
    cycle: Cycle, "6....4..2...8....1..2....7..4...1......2..3.62.9..8...583..9...9.....4......15.9.", 68, 12, 12;
    xy_cycle: XyCycle, "......57.6...84.......2...4..1.4...9..78..2..3......8...9...4...3..5..9241...3...", 70, 12, 12;
    xy_forcing_chain: XyForcingChain, "3....2.84..83..9........6.35.3....6.4.6...8...1..7.5..1.92.......459....6....3...", 71, 12, 12;
    aligned_triple: AlignedTriple, "7.......4...29....6...8..5....7..8...8...1.9...4.3.2...2.3....6176....2.4........", 75, 12, 12;
    nishio: Nishio, ".6.2.......4839...5.9.........5...1.32..1.........672...6..5.4.....4..69....7...8", 78, 12, 12;
    multiple: Multiple, ".......4...49.3..6.78....5..2...7.....356...7.4......9...3....1...642.8......52..", 83, 15, 15;
    dynamic_long_with_plus_steps: Dynamic, "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........", 95, 12, 12;
    dynamic: Dynamic, "..8...6...9..41......3..4..87..9......5..4..2..17.5.9.6....7..87...5.1..3.9......", 90, 12, 12;
}

#[test]
fn odd_grids_rate_without_panic() {
    // A solved grid, a grid with a digit twice in a row, a grid with a
    // cell left without candidates: no panic, and 20.0 when stuck.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    assert_eq!(rate(&parse(solved).unwrap()).tenths().0, 0);
    let twice = format!("11{}", ".".repeat(79));
    let _ = rate(&parse(&twice).unwrap());
    let stuck = format!("12345678.........9{}", ".".repeat(63));
    assert_eq!(rate(&parse(&stuck).unwrap()).tenths().0, 200);
}

#[test]
fn nested_forcing_chains_rate_the_hardest_as_se() {
    // SE 1.2.1 rates this 10.3/1.2/1.2 (forum "hardest" list): its
    // hardest step is a dynamic forcing chain nesting forcing chains
    // (level 2, base 9.5), long enough to add 0.8.
    let p = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
    let r = rate(&parse(p).unwrap());
    assert_eq!(r.tenths(), (103, 12, 12));
    assert_eq!(r.hardest, Some(Rule::Nested(2)));
}

#[test]
fn nested_dynamic_chains_reach_se_eleven_seven() {
    // Published 11.7/11.7/3.4 (forum's hardest list, sukaku-forge's
    // corpus): only dynamic chains nesting dynamic chains (level 4 or 5,
    // base 10.5 or 11.0) solve it.
    let p = "........1.....2.3.....4567.....8.....145.928.5.821.9...529.8..418.4.....4.9..1..8";
    let r = rate(&parse(p).unwrap());
    assert_eq!(r.tenths(), (117, 117, 34));
    assert!(
        matches!(r.hardest, Some(Rule::Nested(4 | 5))),
        "{:?}",
        r.hardest
    );
}

/// A rating's grids, each with copies struck at random as a run
/// strikes them (a cell keeps one candidate at least).
pub(crate) fn run_like_grids() -> Vec<(Grid, Grid)> {
    let mut out = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for p in [
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
        ".......71.2.8........5.3...7.9.6.......2..8..1.........3...25..6...1..4..........",
    ] {
        let p = crate::serate::grid::parse(p).expect("81 digits");
        let mut g = Grid::new(&p);
        while let Some(h) = crate::serate::next_hint(&g, false) {
            for strikes in [0, 3, 10, 30] {
                let mut cur = g.clone();
                for _ in 0..strikes {
                    let c = (next() % 81) as usize;
                    let m = cur.cands[c];
                    if pop(m) >= 2 {
                        let d = digits(m)
                            .nth((next() % pop(m) as u64) as usize)
                            .unwrap_or(0);
                        cur.cands[c] &= !(1 << d);
                    }
                }
                out.push((g.clone(), cur));
            }
            h.apply(&mut g);
        }
    }
    out
}

/// Along `rate`'s runs of `puzzles`, at each step whose ER so far is in
/// `ers`: the hint taken leaves ER as SE's own first hint would. Returns
/// the steps checked and those where SE's hint is of a rule between the
/// wings and the cycles (unique loops, sets and fish of four, BUG,
/// aligned pair) and `taken(ours, SE's)` holds.
fn er_as_se_along_runs(
    puzzles: &[&str],
    ers: std::ops::Range<f64>,
    taken: impl Fn(&super::rules::Hint, &super::rules::Hint) -> bool,
) -> (usize, usize) {
    let (mut steps, mut before) = (0, 0);
    for p in puzzles {
        let p = crate::serate::grid::parse(p).expect("81 digits");
        let mut g = Grid::new(&p);
        let mut er = f64::NEG_INFINITY;
        while let Some(h) = crate::serate::next_hint_within(&g, false, er) {
            if ers.contains(&er) {
                let se = crate::serate::next_hint(&g, false).expect("SE's hint");
                assert!(
                    (h.difficulty.max(er) - se.difficulty.max(er)).abs() < 1e-9,
                    "{:?} {} against SE's {:?} {} at ER {er}",
                    h.rule,
                    h.difficulty,
                    se.rule,
                    se.difficulty
                );
                steps += 1;
                let passed = matches!(
                    se.rule,
                    Rule::UniqueLoop
                        | Rule::NakedQuad
                        | Rule::Jellyfish
                        | Rule::HiddenQuad
                        | Rule::Bug1
                        | Rule::Bug
                        | Rule::AlignedPair
                );
                before += usize::from(passed && taken(&h, &se));
            }
            er = er.max(h.difficulty);
            h.apply(&mut g);
        }
    }
    (steps, before)
}

#[test]
fn cycles_and_forcing_chains_first_leave_er_as_se_does() {
    // From an ER of 7.0 on (below the aligned exclusions' skip at 9.0, a
    // shortcut of another kind): at some steps the hint is a chain where
    // SE's is of a rule the chains now go before.
    let puzzles = [
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        ".......71.2.8........5.3...7.9.6.......2..8..1.........3...25..6...1..4..........",
        "8......21..1..95.6.....53...7.4...6.....7...9..2.9....3.86.....1.5.............42",
        "..3...1...6.2...9...2.84....19..6.7.7.8.1............5..7..3...3....2....8.75...3",
        ".....8.9.87....4.1..4...3...4..2..5.61...4..8................62...91......85.6..3",
    ];
    let (steps, before) = er_as_se_along_runs(&puzzles, 7.0..9.0, |h, se| h.rule != se.rule);
    assert!(steps > 50 && before > 0, "{steps} {before}");
}

#[test]
fn chainers_before_the_rules_they_pass_leave_er_as_se_does() {
    // From an ER of DEFER_ER on: at some steps the hint is a Nishio,
    // multiple or dynamic chain where SE's is of a rule the chainers
    // now go before.
    let puzzles = [
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        "8......21..1..95.6.....53...7.4...6.....7...9..2.9....3.86.....1.5.............42",
        "..3...1...6.2...9...2.84....19..6.7.7.8.1............5..7..3...3....2....8.75...3",
        ".....8.9.87....4.1..4...3...4..2..5.61...4..8................62...91......85.6..3",
        "12.4.........8...37....6...........8.....2.45..59...6..1...4.9..7....8..96..1..2.",
        "..3.4..1....192......3....7..4.6....5...34..2.8.9.........7...67......58.29....3.",
        "2...4.5...1.....3............6...8.2.7.3.9......1.....4...5.6.....7...9...8......",
        "5..6.3....2....98.......1...1..9.......3....67.......4....8.25.4..7..............",
    ];
    let chain = |h: &super::rules::Hint, _: &super::rules::Hint| {
        matches!(h.rule, Rule::Nishio | Rule::Multiple | Rule::Dynamic)
    };
    let (steps, before) = er_as_se_along_runs(&puzzles, super::DEFER_ER..f64::INFINITY, chain);
    assert!(steps > 50 && before > 0, "{steps} {before}");
}
