//! How close the engine comes to SE's own ratings on a reference file of
//! lines `PUZZLE ER EP ED` (SE's `serate` output): exact, within 0.2 and
//! within 1.0 counts of ER, exact EP and ED, and the time taken.

use std::time::{Duration, Instant};

/// Agreement counts over a reference file.
#[derive(Debug, Clone, Default)]
pub struct Agreement {
    /// Puzzles compared.
    pub total: usize,
    /// ER equal to the tenth.
    pub exact: usize,
    /// ER within 0.2.
    pub within_02: usize,
    /// ER within 1.0.
    pub within_10: usize,
    /// EP equal.
    pub ep_exact: usize,
    /// ED equal.
    pub ed_exact: usize,
    /// Time spent rating.
    pub elapsed: Duration,
    /// The puzzles whose ER differs: (puzzle, SE's ER, ours), in tenths.
    pub misses: Vec<(String, u32, u32)>,
}

fn tenths(s: &str) -> Option<u32> {
    let v: f64 = s.parse().ok()?;
    Some((v * 10.0).round() as u32)
}

/// Compares the engine with the reference lines in `text`, rated by
/// [`rate`](super::rate), or with `exactly` by
/// [`rate_exactly`](super::rate_exactly). Lines that do not read as
/// `PUZZLE ER EP ED` are skipped.
pub fn compare(text: &str, exactly: bool) -> Agreement {
    let mut a = Agreement::default();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 {
            continue;
        }
        let (Some(p), Some(er), Some(ep), Some(ed)) = (
            super::grid::parse(f[0]),
            tenths(f[1]),
            tenths(f[2]),
            tenths(f[3]),
        ) else {
            continue;
        };
        let t = Instant::now();
        let r = if exactly {
            super::rate_exactly(&p)
        } else {
            super::rate(&p)
        }
        .tenths();
        a.elapsed += t.elapsed();
        a.total += 1;
        let diff = r.0.abs_diff(er);
        a.exact += usize::from(diff == 0);
        a.within_02 += usize::from(diff <= 2);
        a.within_10 += usize::from(diff <= 10);
        a.ep_exact += usize::from(r.1 == ep);
        a.ed_exact += usize::from(r.2 == ed);
        if diff != 0 {
            a.misses.push((f[0].to_string(), er, r.0));
        }
    }
    a
}

impl std::fmt::Display for Agreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} puzzles: ER exact {}, within 0.2 {}, within 1.0 {}; EP exact {}, ED exact {}; {:.2} s",
            self.total,
            self.exact,
            self.within_02,
            self.within_10,
            self.ep_exact,
            self.ed_exact,
            self.elapsed.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    /// Rates the reference files named in `SERATE_REF` (colon-separated)
    /// and prints the agreement: `SERATE_REF=a.txt:b.txt cargo test --lib
    /// serate::agreement -- --ignored --nocapture`; with `SERATE_EXACT`
    /// set, SE's own choice of hint every step (`rate_exactly`).
    #[test]
    #[ignore]
    fn agreement_with_reference_files() {
        let files = std::env::var("SERATE_REF").unwrap_or_default();
        for file in files.split(':').filter(|f| !f.is_empty()) {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            let a = super::compare(&text, std::env::var_os("SERATE_EXACT").is_some());
            println!("{file}: {a}");
            if std::env::var_os("SERATE_MISSES").is_some() {
                for (p, se, us) in &a.misses {
                    println!(
                        "  {p} SE {}.{} us {}.{}",
                        se / 10,
                        se % 10,
                        us / 10,
                        us % 10
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod find {
    /// Prints, per rule, the first reference puzzle whose hardest step is
    /// that rule (to pick the puzzles the rule tests pin).
    #[test]
    #[ignore]
    fn puzzles_per_rule() {
        let files = std::env::var("SERATE_REF").unwrap_or_default();
        let mut seen = Vec::new();
        for file in files.split(':').filter(|f| !f.is_empty()) {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for line in text.lines() {
                let Some(p) = super::super::grid::parse(line) else {
                    continue;
                };
                let r = super::super::rate(&p);
                let key = format!("{:?}", r.hardest);
                if !seen.contains(&key) {
                    println!("{key} {line}");
                    seen.push(key);
                }
            }
        }
    }
}
