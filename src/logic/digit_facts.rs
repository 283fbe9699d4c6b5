//! What the single-digit techniques found nothing on, digit by digit.
//!
//! A fish, a skyscraper, an empty rectangle, a colouring or an X-chain on
//! digit `d` reads `d`'s places and nothing else, and strikes only `d`. So
//! "technique `t` finds nothing on `d`" holds wherever `d`'s places are
//! the same, whatever the other digits do. A hard position is usually the
//! last one with a strike or two on one digit: the others' places have
//! not changed, and their searches are skipped. The facts are kept by the
//! digit's places (row by row), so they hold across positions and across
//! the two runs of a rating ([`Findings`](super::Findings) carries them).
//!
//! Each technique asks [`Board::digits_to_skip`] before its loop over the
//! digits and tells [`Board::digits_failed`] which digits it searched to
//! the end in vain: the step it finds, and which one it finds first, are
//! the same as without the facts.

use std::collections::HashMap;

use super::{Board, Technique};

/// One digit's key (the digit, then its places in each row) and the
/// techniques that find nothing there.
type Fact = (Box<[u64]>, u64);

/// Facts about single digits: for a digit's places, the techniques
/// ([`Technique::bit`]) that find nothing there.
#[derive(Debug, Clone, Default)]
pub(super) struct DigitFacts {
    /// Key: the digit, then its places in each row.
    known: HashMap<Box<[u64]>, u64>,
    /// The current position (steps taken) and each digit's key and facts.
    here: Option<(usize, Vec<Fact>)>,
}

impl DigitFacts {
    /// The facts alone, for another board of the same puzzle.
    pub(super) fn carried(&self) -> DigitFacts {
        DigitFacts {
            known: self.known.clone(),
            here: None,
        }
    }

    /// Adds the facts of another board of the same puzzle.
    pub(super) fn absorb(&mut self, other: DigitFacts) {
        if self.known.is_empty() {
            self.known = other.known;
        } else {
            for (key, facts) in other.known {
                *self.known.entry(key).or_default() |= facts;
            }
        }
        self.here = None;
    }
}

impl Board {
    /// Each digit's key and facts in the current position.
    fn digit_facts_here(&mut self) -> &mut Vec<Fact> {
        let at = self.steps.len();
        if self.digit_facts.here.as_ref().is_none_or(|(s, _)| *s != at) {
            let n = self.side;
            let table = self.table();
            let here = (1..=n)
                .map(|d| {
                    let key: Box<[u64]> = std::iter::once(d as u64)
                        .chain((0..n).map(|k| table.places[k * n + d - 1]))
                        .collect();
                    let facts = self.digit_facts.known.get(&key).copied().unwrap_or(0);
                    (key, facts)
                })
                .collect();
            self.digit_facts.here = Some((at, here));
        }
        match &mut self.digit_facts.here {
            Some((_, here)) => here,
            None => unreachable!("set above"),
        }
    }

    /// The digits (bit `d - 1`) on which `t` is known to find nothing in
    /// the current position.
    pub(super) fn digits_to_skip(&mut self, t: Technique) -> u64 {
        let b = t.bit();
        self.digit_facts_here()
            .iter()
            .enumerate()
            .filter(|(_, (_, facts))| facts & b != 0)
            .fold(0, |acc, (i, _)| acc | 1 << i)
    }

    /// Notes that `t` searched the digits of `digits` (bit `d - 1`) in the
    /// current position to the end and found nothing.
    pub(super) fn digits_failed(&mut self, t: Technique, digits: u64) {
        if digits == 0 || self.past_deadline() {
            return;
        }
        let b = t.bit();
        let mut noted = Vec::new();
        for (i, (key, facts)) in self.digit_facts_here().iter_mut().enumerate() {
            if digits & (1 << i) != 0 && *facts & b == 0 {
                *facts |= b;
                noted.push((key.clone(), *facts));
            }
        }
        for (key, facts) in noted {
            *self.digit_facts.known.entry(key).or_default() |= facts;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Board, Ladder, Technique};
    use crate::grid::Grid;

    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    #[test]
    fn a_fact_holds_while_the_digit_places_stay_and_only_then() {
        let p: Grid = HARD.parse().unwrap();
        let mut b = Board::with_ladder(&p, Ladder::all()).unwrap();
        assert_eq!(b.digits_to_skip(Technique::XWing), 0);
        b.digits_failed(Technique::XWing, 0b101);
        assert_eq!(b.digits_to_skip(Technique::XWing), 0b101);
        assert_eq!(b.digits_to_skip(Technique::Swordfish), 0);
        // Strike a 1: the fact on 1 no longer applies, the one on 3 does.
        let c1 = (0..81).find(|&c| b.cands[c] & 1 != 0).unwrap();
        b.apply(super::super::Step {
            technique: Technique::XWing,
            unit: None,
            digits: vec![1],
            cells: vec![],
            placed: None,
            eliminated: vec![(c1, 1)],
            chains: vec![],
        });
        assert_eq!(b.digits_to_skip(Technique::XWing), 0b100);
        // Back where the digit's places were: the fact holds again.
        let mut again = Board::with_ladder(&p, Ladder::all()).unwrap();
        again.note_findings(None);
        b.note_findings(None);
        let facts = b.take_findings();
        again.note_findings(facts);
        assert_eq!(again.digits_to_skip(Technique::XWing), 0b101);
    }

    #[test]
    fn facts_travel_to_another_board_of_the_puzzle() {
        let p: Grid = HARD.parse().unwrap();
        let mut a = Board::with_ladder(&p, Ladder::all()).unwrap();
        a.note_findings(None);
        a.digits_failed(Technique::Skyscraper, 0b1_0000_0000);
        let mut b = Board::with_ladder(&p, Ladder::all()).unwrap();
        b.note_findings(a.take_findings());
        assert_eq!(b.digits_to_skip(Technique::Skyscraper), 0b1_0000_0000);
    }
}
