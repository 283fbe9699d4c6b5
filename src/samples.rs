//! Well-known 9x9 puzzles the unit tests share.

/// Solved by singles alone.
pub(crate) const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// Needs more than the seed's four techniques; the whole ladder finishes
/// it with forcing nets (magictour top1465 #1).
pub(crate) const HARD: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// forum hardest 1106 #1.
pub(crate) const HARDER: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
/// magictour top1465 #10: hidden pairs and a hidden triple, no guess.
pub(crate) const PAIRS: &str =
    "......41.9..3.....3...5.....48..7..........62.1.......6..2....5.7....8......9....";
/// Beyond the whole ladder: forcing nets stop short and it needs guesses
/// (magictour top1465 #4).
pub(crate) const BEYOND: &str =
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
