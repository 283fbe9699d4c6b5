//! `xlsudoku techniques`: the technique table (letter, name, key, Sudoku
//! Explainer rating, HoDoKu level and score), as a table or JSON Lines,
//! read off the library's one table.

use std::io::Write;

use xlsudoku::logic::TABLE;

use crate::common::print_generated;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// One JSON object per technique: order, letter (null for the silent
    /// naked single), name, key, se_rating, level, score.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> u8 {
    print_generated(|out| {
        if !a.json {
            writeln!(
                out,
                "{:<6}  {:<24}  {:<20}  {:>4}  {:<7}  {:>5}",
                "letter", "technique", "key (--techniques)", "SE", "level", "score"
            )?;
        }
        for (order, i) in TABLE.iter().enumerate() {
            if a.json {
                let row = serde_json::json!({
                    "order": order + 1,
                    "letter": i.letter.map(String::from),
                    "name": i.name,
                    "key": i.key,
                    "se_rating": (f64::from(i.se_rating) * 10.0).round() / 10.0,
                    "level": i.level,
                    "score": i.hodoku_score,
                });
                writeln!(out, "{row}")?;
            } else {
                let letter = i.letter.map_or("-".to_string(), String::from);
                writeln!(
                    out,
                    "{letter:<6}  {:<24}  {:<20}  {:>4.1}  {:<7}  {:>5}",
                    i.name,
                    i.key,
                    i.se_rating,
                    i.level.to_string(),
                    i.hodoku_score
                )?;
            }
        }
        Ok(())
    })
}

/// The key to the history string for `--help` and the man page.
pub fn history_key_help() -> String {
    format!(
        "History letters (one per deduction in the note's history string; a naked single writes none):\n{}",
        xlsudoku::logic::letter_key()
            .lines()
            .map(|l| format!("  {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    )
}
