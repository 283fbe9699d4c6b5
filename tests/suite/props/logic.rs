//! Soundness of the technique ladder: on puzzles from the benchmark sets
//! (9x9, 16x16) and on random 6x6 and 8x8 puzzles, every step of every
//! technique agrees with the unique solution: no placement is wrong and no
//! elimination strikes the true digit. Also pins that each technique of the
//! table is actually used somewhere, so a finder that silently stops
//! finding fails here.

use std::collections::BTreeSet;
use std::path::PathBuf;

use proptest::prelude::*;
use xlsudoku::grid::{BoxShape, Grid};
use xlsudoku::logic::{Ladder, Solver, Stop, Technique};
use xlsudoku::search::{search, SearchOptions};

fn data(rel: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("benches/data")
        .join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (benchmark data is part of the repository)",
            path.display()
        )
    });
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

/// The unique solution, or `None` for a puzzle with none or several.
fn unique_solution(p: &Grid) -> Option<Grid> {
    let found = search(p, &SearchOptions::default()).ok()?;
    (found.solutions.len() == 1).then(|| found.solutions[0].clone())
}

/// Runs the whole ladder with guesses from the solution and checks every
/// step; returns the techniques used.
fn check_steps(p: &Grid, ladder: Ladder) -> BTreeSet<Technique> {
    let sol = unique_solution(p).expect("a puzzle with one solution");
    let mut b = Solver::with_ladder(p, ladder).expect("no clash");
    // One solution, proven: the uniqueness techniques may run.
    b.assume_unique();
    assert_eq!(b.run(Some(&sol)), Stop::Solved, "{p}");
    assert_eq!(b.board().grid(), &sol);
    let mut used = BTreeSet::new();
    for s in b.steps() {
        used.insert(s.technique);
        if let Some((c, d)) = s.placed {
            assert_eq!(sol.cells()[c], d, "wrong placement in {p}: {s:?}");
        }
        for &(c, d) in &s.eliminated {
            assert_ne!(sol.cells()[c], d, "true digit struck in {p}: {s:?}");
        }
        assert!(
            s.placed.is_some() || !s.eliminated.is_empty(),
            "a step that changes nothing: {s:?}"
        );
    }
    used
}

#[test]
fn every_step_agrees_with_the_solution_on_9x9_benchmark_puzzles() {
    let mut lines = data("9x9/puzzles3_magictour_top1465");
    lines.truncate(600);
    lines.extend(
        data("9x9/puzzles6_forum_hardest_1106")
            .into_iter()
            .take(100),
    );
    lines.extend(data("9x9/puzzles2_17_clue").into_iter().take(300));
    let mut used = BTreeSet::new();
    for line in &lines {
        let p: Grid = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        used.extend(check_steps(&p, Ladder::all()));
    }
    println!("{} 9x9 puzzles checked; used: {used:?}", lines.len());
    for t in [
        Technique::HiddenSingle,
        Technique::LockedPair,
        Technique::LockedTriple,
        Technique::LockedCandidates,
        Technique::NakedPair,
        Technique::NakedTriple,
        Technique::HiddenPair,
        Technique::HiddenTriple,
        Technique::NakedQuad,
        Technique::XWing,
        Technique::Swordfish,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::TurbotFish,
        Technique::WWing,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::RemotePair,
        Technique::BugPlusOne,
        Technique::EmptyRectangle,
        Technique::UniqueRectangle1,
        Technique::UniqueRectangle2,
        Technique::UniqueRectangle3,
        Technique::UniqueRectangle4,
        Technique::HiddenRectangle,
        Technique::FinnedXWing,
        Technique::SashimiXWing,
        Technique::FinnedSwordfish,
        Technique::SashimiSwordfish,
        Technique::FinnedJellyfish,
        Technique::SueDeCoq,
        Technique::MultiColouring,
        Technique::NiceLoop,
        Technique::AlsXz,
        Technique::ForcingNet,
        Technique::Guess,
    ] {
        assert!(used.contains(&t), "{t:?} never used: {used:?}");
    }
}

#[test]
fn every_step_agrees_with_the_solution_on_16x16_puzzles() {
    let lines = data("16x16/gecode_16x16.txt");
    assert!(!lines.is_empty());
    let mut used = BTreeSet::new();
    for line in &lines {
        let p: Grid = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        used.extend(check_steps(&p, Ladder::all()));
    }
    println!("16x16 used: {used:?}");
}

#[test]
fn short_ladders_reach_the_techniques_the_whole_ladder_leaves_early() {
    // With every technique, earlier ones (turbot fish, empty rectangles,
    // finned fish) take what simple colouring and sashimi jellyfish would:
    // these ladders leave the work to them, and their steps are checked
    // the same way.
    let lines = data("9x9/puzzles3_magictour_top1465");
    let mut used = BTreeSet::new();
    for spec in ["i,c", "i,f", "i,!,2,3,*,^,c,m"] {
        let ladder: Ladder = spec.parse().unwrap();
        for line in lines.iter().take(150) {
            used.extend(check_steps(&line.parse().unwrap(), ladder.clone()));
        }
    }
    for t in [
        Technique::SimpleColouring,
        Technique::MultiColouring,
        Technique::FinnedXWing,
        Technique::SashimiXWing,
        Technique::FinnedSwordfish,
        Technique::SashimiSwordfish,
        Technique::FinnedJellyfish,
        Technique::SashimiJellyfish,
    ] {
        assert!(used.contains(&t), "{t:?} never used: {used:?}");
    }
}

#[test]
fn short_ladders_exercise_the_new_techniques_on_16x16() {
    // Singles take most of these 16x16 puzzles; with few techniques on the
    // ladder, the later ones get work, and their steps are checked.
    let lines = data("16x16/gecode_16x16.txt");
    let mut used = BTreeSet::new();
    for spec in [
        "i,f",
        "i,c,m",
        "i,e",
        "i,r,u,h,b,q",
        "i,!,e,r,c,m,q,f,u,h,b",
    ] {
        let ladder: Ladder = spec.parse().unwrap();
        for line in &lines {
            used.extend(check_steps(&line.parse().unwrap(), ladder.clone()));
        }
    }
    for t in [
        Technique::RemotePair,
        Technique::EmptyRectangle,
        Technique::UniqueRectangle4,
        Technique::HiddenRectangle,
        Technique::FinnedXWing,
        Technique::SashimiXWing,
        Technique::FinnedSwordfish,
        Technique::SashimiSwordfish,
        Technique::FinnedJellyfish,
        Technique::SashimiJellyfish,
        Technique::SueDeCoq,
        Technique::SimpleColouring,
        Technique::MultiColouring,
    ] {
        assert!(used.contains(&t), "{t:?} never used on 16x16: {used:?}");
    }
}

/// Puzzles with several solutions: the benchmark puzzles with givens taken
/// away until a second solution appears.
fn ambiguous_puzzles(count: usize) -> Vec<(Grid, Vec<Grid>)> {
    let mut out = Vec::new();
    for line in data("9x9/puzzles3_magictour_top1465").iter().take(count) {
        let mut p: Grid = line.parse().unwrap();
        for i in 0..81 {
            if p.cells()[i] == 0 {
                continue;
            }
            p.set(i / 9, i % 9, 0);
            let found = search(
                &p,
                &SearchOptions {
                    limit: 50,
                    ..SearchOptions::default()
                },
            )
            .unwrap();
            if found.solutions.len() > 1 {
                out.push((p, found.solutions));
                break;
            }
        }
    }
    out
}

#[test]
fn an_ambiguous_puzzle_is_never_solved_by_a_uniqueness_step() {
    // Without the proof of one solution, the ladder takes no uniqueness
    // step, and no step strikes a digit any solution has there.
    let puzzles = ambiguous_puzzles(60);
    assert!(puzzles.len() >= 50, "{}", puzzles.len());
    for (p, solutions) in &puzzles {
        let mut b = Solver::with_ladder(p, Ladder::all()).unwrap();
        assert!(!b.assumes_unique());
        // Sound steps cannot pick one of several solutions: the ladder
        // stops short.
        assert_eq!(b.run(None), Stop::Stuck, "{p}");
        for s in b.steps() {
            assert!(
                !matches!(
                    s.technique,
                    Technique::UniqueRectangle1
                        | Technique::UniqueRectangle2
                        | Technique::UniqueRectangle3
                        | Technique::UniqueRectangle4
                        | Technique::HiddenRectangle
                        | Technique::BugPlusOne
                ),
                "uniqueness used on an ambiguous puzzle {p}: {s:?}"
            );
            for sol in solutions {
                for &(c, d) in &s.eliminated {
                    assert_ne!(sol.cells()[c], d, "{p}: {s:?}");
                }
                if let Some((c, d)) = s.placed {
                    assert_eq!(sol.cells()[c], d, "{p}: {s:?}");
                }
            }
        }
        // And solve reports it as ambiguous, without steps or rating.
        let out = xlsudoku::solve::solve(p, &xlsudoku::solve::SolveOptions::default());
        assert_eq!(out.status, xlsudoku::solve::Status::Multiple, "{p}");
        assert!(out.steps.is_empty() && out.rating.is_none());
    }
}

#[test]
fn the_seed_ladder_uses_only_the_seed_letters() {
    for line in data("9x9/puzzles3_magictour_top1465").iter().take(50) {
        let p: Grid = line.parse().unwrap();
        let used = check_steps(&p, Ladder::seed());
        assert!(used.iter().all(|t| [
            Technique::NakedSingle,
            Technique::HiddenSingle,
            Technique::LockedCandidates,
            Technique::HiddenPair,
            Technique::HiddenTriple,
            Technique::Guess
        ]
        .contains(t)));
    }
}

/// A complete grid of the shape: the standard pattern, digits relabelled,
/// rows shuffled within bands and columns within stacks.
fn solved_grid(shape: BoxShape, seed: u64) -> Grid {
    let (w, h, n) = (shape.width(), shape.height(), shape.side());
    let mut rng = seed | 1;
    let mut next = move |m: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % m as u64) as usize
    };
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        perm.swap(i, next(i + 1));
    }
    let mut rows: Vec<usize> = (0..n).collect();
    for band in 0..n / h {
        for i in (1..h).rev() {
            rows.swap(band * h + i, band * h + next(i + 1));
        }
    }
    let mut g = Grid::empty(shape);
    for (r, &rr) in rows.iter().enumerate() {
        for c in 0..n {
            let v = (rr % h * w + rr / h + c) % n;
            g.set(r, c, perm[v] as u8 + 1);
        }
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random 6x6 (3x2 and 2x3) and 8x8 puzzles with one solution.
    #[test]
    fn every_step_agrees_on_small_grids(seed in any::<u64>(), mask in any::<u64>(), kind in 0usize..3) {
        let (w, h) = [(3, 2), (2, 3), (4, 2)][kind];
        let shape = BoxShape::new(w, h).unwrap();
        let full = solved_grid(shape, seed);
        prop_assert!(full.conflicts().is_empty());
        let n = shape.side();
        let mut p = full.clone();
        let mut m = mask;
        for i in 0..n * n {
            // Keep roughly a third of the cells.
            if !(m.rotate_left(i as u32 % 64) ^ (i as u64 * 0x9e37_79b9)).is_multiple_of(3) {
                p.set(i / n, i % n, 0);
            }
            m = m.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        if unique_solution(&p).is_some() {
            check_steps(&p, Ladder::all());
            // Without the subsets and basic fish, the later techniques
            // (fins, rectangles, colouring, Sue de Coq) get the work.
            check_steps(&p, "i,!,e,r,f,u,h,b,q,c,m".parse().unwrap());
        }
    }
}

/// Also pins the notes of findings: `rate` hands Sudoku Explainer's run
/// what HoDoKu's run found and found nothing with (`Solver::note_findings`),
/// `rate_after` runs it without; the ratings must not differ.
#[test]
fn rating_from_the_historys_run_equals_rating_from_scratch() {
    use xlsudoku::logic::{rate, rate_after};
    let mut lines = data("9x9/puzzles3_magictour_top1465");
    lines.truncate(150);
    lines.extend(data("9x9/gen_random_minimal_10k.txt").into_iter().take(150));
    for line in &lines {
        let p: Grid = line.parse().unwrap();
        let sol = unique_solution(&p).expect("one solution");
        let mut b = Solver::with_ladder(&p, Ladder::all()).unwrap();
        b.assume_unique();
        b.run(Some(&sol));
        assert_eq!(rate_after(&p, b.steps()), rate(&p), "{line}");
    }
}

/// Singles and the chain, ALS and forcing techniques only: with the
/// simpler techniques left out, these have to do the work, so each is
/// exercised well beyond where the whole ladder would reach it.
fn chain_ladder() -> Ladder {
    Ladder::of(&[
        Technique::HiddenSingle,
        Technique::XChain,
        Technique::XyChain,
        Technique::NiceLoop,
        Technique::GroupedNiceLoop,
        Technique::AlsXz,
        Technique::AlsXyWing,
        Technique::AlsChain,
        Technique::ForcingChain,
        Technique::ForcingNet,
    ])
}

#[test]
fn chains_als_and_forcing_agree_with_the_solution_on_9x9_puzzles() {
    let mut lines = data("9x9/puzzles3_magictour_top1465");
    lines.truncate(120);
    lines.extend(data("9x9/gen_random_minimal_10k.txt").into_iter().take(120));
    let mut used = BTreeSet::new();
    for line in &lines {
        let p: Grid = line.parse().unwrap();
        used.extend(check_steps(&p, chain_ladder()));
    }
    for t in [
        Technique::XChain,
        Technique::XyChain,
        Technique::NiceLoop,
        Technique::GroupedNiceLoop,
        Technique::AlsXz,
        Technique::AlsXyWing,
        Technique::AlsChain,
        Technique::ForcingChain,
        Technique::ForcingNet,
    ] {
        assert!(used.contains(&t), "{t:?} never used: {used:?}");
    }
}

#[test]
fn chains_als_and_forcing_agree_with_the_solution_on_16x16_puzzles() {
    // Naked singles and the chain techniques only: the 16x16 puzzles at
    // hand fall to hidden singles, so without them the chains, sets and
    // forcing chains have to find what hidden singles would.
    let ladder = Ladder::of(&[
        Technique::XChain,
        Technique::XyChain,
        Technique::NiceLoop,
        Technique::GroupedNiceLoop,
        Technique::AlsXz,
        Technique::AlsXyWing,
        Technique::AlsChain,
        Technique::ForcingChain,
        Technique::ForcingNet,
    ]);
    let mut used = BTreeSet::new();
    for line in data("16x16/gecode_16x16.txt").iter().take(2) {
        let p: Grid = line.parse().unwrap();
        used.extend(check_steps(&p, ladder.clone()));
    }
    assert!(
        used.iter().any(|t| !matches!(
            t,
            Technique::NakedSingle | Technique::HiddenSingle | Technique::Guess
        )),
        "no chain technique used on 16x16: {used:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random 6x6 and 8x8 puzzles with the chain ladder.
    #[test]
    fn chains_agree_on_small_grids(seed in any::<u64>(), mask in any::<u64>(), kind in 0usize..3) {
        let (w, h) = [(3, 2), (2, 3), (4, 2)][kind];
        let shape = BoxShape::new(w, h).unwrap();
        let full = solved_grid(shape, seed);
        let n = shape.side();
        let mut p = full.clone();
        let mut m = mask;
        for i in 0..n * n {
            if !(m.rotate_left(i as u32 % 64) ^ (i as u64 * 0x9e37_79b9)).is_multiple_of(3) {
                p.set(i / n, i % n, 0);
            }
            m = m.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        if unique_solution(&p).is_some() {
            check_steps(&p, chain_ladder());
        }
    }
}
