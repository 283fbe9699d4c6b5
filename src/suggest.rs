//! Near matches for mistyped words: a command's name, a level, a value from
//! a short list. Every "did you mean" of the tool comes from here.

/// The Levenshtein distance between two short words (in characters).
///
/// ```
/// assert_eq!(xlsudoku::suggest::edit_distance("hrad", "hard"), 2);
/// assert_eq!(xlsudoku::suggest::edit_distance("", "man"), 3);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut last = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (last + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            last = here;
        }
    }
    row[b.len()]
}

/// The candidate nearest to `word` (case does not matter), when it is at
/// most two edits away and those edits change less than half of it; the
/// first of equally near ones.
///
/// ```
/// use xlsudoku::suggest::closest;
/// let commands = ["solve", "check", "generate"];
/// assert_eq!(closest("chekc", commands), Some("check"));
/// assert_eq!(closest("puzzles", commands), None);
/// ```
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (edit_distance(&word, &c.to_lowercase()), c))
        .filter(|(d, c)| *d > 0 && *d <= 2.min(c.chars().count() / 2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_words_are_found_and_far_ones_are_not() {
        assert_eq!(edit_distance("chekc", "check"), 2);
        assert_eq!(closest("HRAD", ["easy", "hard", "medium"]), Some("hard"));
        assert_eq!(
            closest("hard", ["hard"]),
            None,
            "an exact match is no suggestion"
        );
        assert_eq!(closest("mn", ["man"]), Some("man"));
        assert_eq!(closest("x", ["man", "rate"]), None);
        assert_eq!(closest("xyz", ["easy", "hard"]), None);
    }
}
