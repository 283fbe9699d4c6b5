//! The dynamic chainers knowing the solution (module `truth`): the same
//! hints from fewer runs, and the quick look for a contradiction.

use super::super::super::grid::parse;
use super::super::super::rules::Rule;
use super::super::truth::unique_solution;
use super::*;

/// The grids of a top1465 puzzle's SE run from its first chain on,
/// with the puzzle's solution.
fn chain_grids() -> (Vec<Grid>, [u8; 81]) {
    let p =
        parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
            .expect("81 digits");
    let mut g = Grid::new(&p);
    let mut out = Vec::new();
    while let Some(h) = crate::serate::next_hint(&g, false) {
        if h.difficulty >= 6.5 {
            out.push(g.clone());
        }
        h.apply(&mut g);
    }
    (out, unique_solution(&p).expect("one solution"))
}

/// What a hint list says, to compare two.
fn view(list: &[ChainHint]) -> Vec<String> {
    list.iter()
        .map(|h| format!("{:?} {} {}", h.hint, h.complexity, h.sort_key))
        .collect()
}

/// With any hint no harder than `enough` wanted, the dynamic chainer
/// first looks for the first false candidate, in the order of cells
/// and digits, whose "on" meets a contradiction: its hint strikes
/// what the solution rules out and is one SE's full search finds
/// too; below the rule's base, or without the solution, it finds
/// none.
#[test]
fn quick_contradiction_is_the_first_false_candidates_hint_of_the_full_search() {
    let (grids, solution) = chain_grids();
    let mut quick = 0;
    for g in &grids {
        let ask = |chainer, enough, truth| {
            let mut ctx = Ctx::new(g, chainer, (false, enough), truth);
            quick_contradiction(&mut ctx, &mut Runs::new(), &mut Leads::default())
        };
        let dynamic = Chainer::DYNAMIC;
        assert!(ask(dynamic, 8.4, Some(solution)).is_none());
        assert!(ask(dynamic, 20.0, None).is_none());
        assert!(ask(Chainer::MULTIPLE, 20.0, Some(solution)).is_none());
        assert!(ask(Chainer::NISHIO, 20.0, Some(solution)).is_none());
        if let Some(h) = ask(dynamic, 8.5, Some(solution)) {
            assert!(h.hint.difficulty <= 8.5 + 1e-9, "{h:?}");
        }
        let Some(h) = ask(dynamic, 20.0, Some(solution)) else {
            continue;
        };
        quick += 1;
        assert_eq!((h.hint.rule, h.hint.place), (Rule::Dynamic, None));
        let [(cell, m)] = h.hint.removals[..] else {
            panic!("one strike: {h:?}");
        };
        let (cell, v) = (cell as usize, m.trailing_zeros() as u8);
        assert_eq!(m.count_ones(), 1);
        assert_ne!(solution[cell], v, "a false candidate");
        let mut scratch = Scratch::new(g);
        let mode = Mode {
            y: true,
            dynamic: true,
            level: 0,
        };
        let earlier = (0..81)
            .flat_map(|c| digits(g.cands[c]).map(move |d| (c, d)))
            .take_while(|&at| at != (cell, v))
            .filter(|&(c, d)| g.values[c] == 0 && pop(g.cands[c]) >= 2 && solution[c] != d);
        for (c, d) in earlier {
            let mut arena = Arena::default();
            let n = arena.make(key(c, d, true), &[]);
            arena.insert(n);
            let absurd = run(g, &mut arena, mode, &mut scratch);
            assert!(absurd.is_none(), "{c} {d} comes first");
        }
        // Every hint, the harder ones too (made when nesting).
        let full = hints_knowing(g, dynamic, (true, f64::NEG_INFINITY), Some(solution));
        assert!(
            full.iter().any(|f| f.hint.rule == h.hint.rule
                && f.hint.removals == h.hint.removals
                && f.complexity == h.complexity),
            "{h:?} is not among SE's hints"
        );
    }
    assert!(quick > 0);
}

/// A full search of the dynamic chainer leaves as leads the false
/// candidates whose "on" met a contradiction no harder than its
/// easiest hint; the next look tries the least complex first, and on
/// the same grid takes it.
#[test]
fn a_full_search_leads_the_next_look() {
    let (grids, solution) = chain_grids();
    let mut led = 0;
    for g in &grids {
        let mut leads = Leads::default();
        let all = (false, f64::NEG_INFINITY);
        let hints = hints_knowing_from(g, Chainer::DYNAMIC, all, Some(solution), &mut leads);
        let Some(easiest) = hints.iter().map(|h| h.hint.difficulty).reduce(f64::min) else {
            continue;
        };
        let Some(&(cell, v)) = leads.hits.last() else {
            continue;
        };
        assert!(leads.hits.iter().all(|&(c, d)| solution[c as usize] != d));
        let mut ctx = Ctx::new(g, Chainer::DYNAMIC, (false, easiest), Some(solution));
        let h = quick_contradiction(&mut ctx, &mut Runs::new(), &mut leads)
            .expect("the lead meets its contradiction again");
        assert_eq!(h.hint.removals, vec![(cell, 1 << v)]);
        assert!(h.hint.difficulty <= easiest + 1e-9);
        assert_eq!(leads.from, cell as usize);
        led += 1;
    }
    assert!(led > 0);
}

/// Started past the cell of its first hint, the quick look goes
/// round the grid: it takes the first false candidate from there
/// whose "on" meets a contradiction, and leaves `from` at its cell.
#[test]
fn quick_contradiction_starts_where_asked_and_goes_round() {
    let (grids, solution) = chain_grids();
    let mode = Mode {
        y: true,
        dynamic: true,
        level: 0,
    };
    let mut moved = 0;
    for g in &grids {
        let ask = |from: &mut usize| {
            let mut ctx = Ctx::new(g, Chainer::DYNAMIC, (false, 20.0), Some(solution));
            let mut leads = Leads {
                from: *from,
                hits: Vec::new(),
            };
            let hint = quick_contradiction(&mut ctx, &mut Runs::new(), &mut leads);
            *from = leads.from;
            hint
        };
        let mut first = 0;
        let Some(h) = ask(&mut first) else {
            continue;
        };
        assert_eq!(h.hint.removals[0].0 as usize, first);
        let mut from = first + 1;
        let again = ask(&mut from).expect("the first one is met again, going round");
        let cell = again.hint.removals[0].0 as usize;
        assert_eq!(cell, from);
        assert_ne!(
            solution[cell],
            again.hint.removals[0].1.trailing_zeros() as u8
        );
        let mut scratch = Scratch::new(g);
        let between = (first + 1..81).chain(0..=first).take_while(|&c| c != cell);
        for c in between.filter(|&c| g.values[c] == 0 && pop(g.cands[c]) >= 2) {
            for d in digits(g.cands[c]).filter(|&d| d != solution[c]) {
                let mut arena = Arena::default();
                let n = arena.make(key(c, d, true), &[]);
                arena.insert(n);
                assert!(run(g, &mut arena, mode, &mut scratch).is_none(), "{c} {d}");
            }
        }
        moved += usize::from(cell != first);
    }
    assert!(moved > 0, "some grid has its next one elsewhere");
}

/// The runs the solution rules out give no hint: every chainer finds
/// the same hints, in the same order, knowing it or not.
#[test]
fn knowing_the_solution_changes_no_hint() {
    let (grids, solution) = chain_grids();
    let mut found = 0;
    for g in grids.iter().take(6) {
        for chainer in [Chainer::NISHIO, Chainer::MULTIPLE, Chainer::DYNAMIC] {
            // Every hint, the harder ones too (made when nesting).
            let at = (true, f64::NEG_INFINITY);
            let plain = hints_knowing(g, chainer, at, None);
            let knowing = hints_knowing(g, chainer, at, Some(solution));
            assert_eq!(view(&plain), view(&knowing), "{chainer:?}");
            found += plain.len();
        }
    }
    assert!(found > 0);
}

/// Not making the hints harder than the easiest found so far leaves
/// the easiest as it is, and makes fewer hints.
#[test]
fn the_hints_not_made_are_never_the_easiest() {
    let (grids, solution) = chain_grids();
    let mut fewer = 0;
    for g in &grids {
        for chainer in [Chainer::NISHIO, Chainer::MULTIPLE, Chainer::DYNAMIC] {
            for truth in [None, Some(solution)] {
                let all = hints_knowing(g, chainer, (true, f64::NEG_INFINITY), truth);
                let made = hints_knowing(g, chainer, (false, f64::NEG_INFINITY), truth);
                let strip = |h: &ChainHint| (h.hint.clone(), h.complexity, h.sort_key);
                assert_eq!(
                    super::super::sorted(all.clone()).first().map(strip),
                    super::super::sorted(made.clone()).first().map(strip),
                    "{chainer:?}"
                );
                assert!(made.len() <= all.len());
                fewer += usize::from(made.len() < all.len());
            }
        }
    }
    assert!(fewer > 0);
}
