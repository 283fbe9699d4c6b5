//! Steps as pictures (`explain --xlsx steps.xlsx`): a new workbook with a
//! sheet per grid and, for each step in order, its numbered sentence over
//! a picture of the grid as it stands just before it: placed digits
//! (givens bold), and in every blank its candidates laid out as the box
//! is (a 3x3 block of small digits in a 9x9), the step's cells filled in
//! the hint's colours ([`crate::paint::Role`]), struck candidates red and
//! crossed out, thick box lines. It prints one picture width a page.

use std::collections::HashMap;

use rust_xlsxwriter::{Color, Format, FormatAlign, FormatBorder, Workbook, Worksheet, XlsxError};

use super::{describe, AddressMap};
use crate::grid::Grid;
use crate::logic::Step;
use crate::paint::{paint, Role};

/// One grid to draw: its givens, its steps, and how its cells are named.
#[derive(Debug, Clone, PartialEq)]
pub struct Pictured {
    /// The givens.
    pub puzzle: Grid,
    /// The pencil marks the steps start from (bit `d - 1` for digit `d`,
    /// per cell, 0 where there are none; empty for a grid without marks):
    /// the first picture's candidates are the marks.
    pub marks: Vec<u64>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The names of the grid's cells, lines and digits.
    pub map: AddressMap,
}

/// The space a missing candidate takes: a figure space, as wide as a digit.
pub const GAP: char = '\u{2007}';

/// The candidates of every cell from the givens (narrowed by the pencil
/// marks, if any), kept up to date step by step (bit `d - 1` for digit
/// `d`; 0 for a filled cell).
pub(crate) struct Replay<'a> {
    map: &'a AddressMap,
    /// The digits placed (givens and steps').
    pub values: Vec<u8>,
    /// The candidates.
    pub cands: Vec<u64>,
}

impl<'a> Replay<'a> {
    /// The position of the givens, each blank's candidates kept to its
    /// `marks` where it has some (`marks` may be empty: none).
    pub fn new(puzzle: &Grid, marks: &[u64], map: &'a AddressMap) -> Self {
        let n = puzzle.side();
        let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let values = puzzle.cells().to_vec();
        let cands = (0..values.len())
            .map(|i| {
                if values[i] != 0 {
                    return 0;
                }
                let used = map
                    .peers(i)
                    .filter_map(|j| values.get(j))
                    .fold(0u64, |m, &v| m | bit(v));
                match marks.get(i) {
                    Some(&m) if m != 0 => all & !used & m,
                    _ => all & !used,
                }
            })
            .collect();
        Replay { map, values, cands }
    }

    /// Takes a step: its digit placed and struck from its peers, its
    /// candidates struck.
    pub fn apply(&mut self, step: &Step) {
        if let Some((c, d)) = step.placed {
            for j in self.map.peers(c) {
                if let Some(m) = self.cands.get_mut(j) {
                    *m &= !bit(d);
                }
            }
            if let Some(m) = self.cands.get_mut(c) {
                *m = 0;
            }
            if let Some(v) = self.values.get_mut(c) {
                *v = d;
            }
        }
        for &(c, d) in &step.eliminated {
            if let Some(m) = self.cands.get_mut(c) {
                *m &= !bit(d);
            }
        }
    }
}

fn bit(d: u8) -> u64 {
    if (1..=64).contains(&d) {
        1u64 << (d - 1)
    } else {
        0
    }
}

/// A cell's look: its part in the step (if any), which of its sides are
/// box lines (left, right, top, bottom), and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Look {
    role: Option<Role>,
    edges: [bool; 4],
    kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Given,
    Placed,
    Candidates,
}

/// The formats of a sheet's cells and candidate digits, made once each.
struct Formats {
    cells: HashMap<Look, Format>,
    digit: Format,
    struck: Format,
    key: Format,
    heading: Format,
    sentence: Format,
}

impl Formats {
    fn new() -> Self {
        Formats {
            cells: HashMap::new(),
            digit: Format::new()
                .set_font_size(8)
                .set_font_color(Color::RGB(0x55_55_55)),
            struck: Format::new()
                .set_font_size(8)
                .set_font_color(Color::RGB(0xC0_00_00))
                .set_font_strikethrough(),
            key: Format::new().set_font_size(8).set_bold(),
            heading: Format::new()
                .set_bold()
                .set_font_size(11)
                .set_text_wrap()
                .set_align(FormatAlign::Left)
                .set_align(FormatAlign::Top),
            sentence: Format::new()
                .set_bold()
                .set_font_size(9)
                .set_text_wrap()
                .set_align(FormatAlign::Left)
                .set_align(FormatAlign::Top),
        }
    }

    fn cell(&mut self, look: Look) -> &Format {
        self.cells.entry(look).or_insert_with(|| {
            let line = |thick: bool| {
                if thick {
                    FormatBorder::Medium
                } else {
                    FormatBorder::Thin
                }
            };
            let mut f = Format::new()
                .set_border_left(line(look.edges[0]))
                .set_border_right(line(look.edges[1]))
                .set_border_top(line(look.edges[2]))
                .set_border_bottom(line(look.edges[3]))
                .set_align(FormatAlign::Center)
                .set_align(FormatAlign::VerticalCenter)
                .set_text_wrap();
            f = match look.kind {
                Kind::Given => f.set_font_size(16).set_bold(),
                Kind::Placed => f.set_font_size(16),
                Kind::Candidates => f.set_font_size(8).set_font_color(Color::RGB(0x55_55_55)),
            };
            if let Some(r) = look.role {
                let rgb = u32::from_str_radix(&r.argb()[2..], 16).unwrap_or(0xFF_FF_FF);
                f = f.set_background_color(Color::RGB(rgb));
            }
            f
        })
    }
}

/// The candidates of a blank as the picture lays them out: `w` digits a
/// line (the box's width), a figure space for each one missing, a space
/// between; with the digit each segment is, to choose its format.
pub(crate) fn candidate_text(
    cands: u64,
    side: usize,
    width: usize,
    map: &AddressMap,
) -> Vec<(Option<u8>, String)> {
    let mut out: Vec<(Option<u8>, String)> = Vec::new();
    for d in 1..=side as u8 {
        let k = usize::from(d - 1);
        if k > 0 {
            out.push((None, if k % width == 0 { "\n" } else { " " }.to_string()));
        }
        if cands & bit(d) != 0 {
            out.push((Some(d), map.digit(d)));
        } else {
            let wide = map.digit(d).chars().count().max(1);
            out.push((None, GAP.to_string().repeat(wide)));
        }
    }
    out
}

/// Draws one grid's pictures on `sheet`, under `heading`.
fn draw(
    sheet: &mut Worksheet,
    heading: &str,
    g: &Pictured,
    f: &mut Formats,
) -> Result<(), XlsxError> {
    let shape = g.puzzle.shape();
    let side = shape.side();
    let (bw, bh) = (shape.width().max(1), shape.height().max(1));
    sheet.set_column_width(0, 2)?;
    for c in 0..side {
        sheet.set_column_width(1 + c as u16, if side <= 9 { 6.5 } else { 9.0 })?;
    }
    sheet.merge_range(0, 1, 0, side as u16, heading, &f.heading)?;
    sheet.set_row_height(0, 32.0)?;
    let mut replay = Replay::new(&g.puzzle, &g.marks, &g.map);
    let band = side as u32 + 2;
    let line_height = 10.0;
    for (k, step) in g.steps.iter().enumerate() {
        let top = 2 + k as u32 * band;
        let text = describe(step, &g.map, &replay.cands);
        // The sentence over the picture's width, wrapped, its row as high
        // as its lines (about eight characters a column).
        let sentence = format!("{}. {text}", k + 1);
        let lines = sentence.chars().count().div_ceil(8 * side).max(1);
        sheet.merge_range(top, 1, top, side as u16, &sentence, &f.sentence)?;
        sheet.set_row_height(top, 13.0 * lines as f64 + 2.0)?;
        let roles: HashMap<usize, Role> = paint(step, shape)
            .into_iter()
            .map(|p| (p.cell, p.role))
            .collect();
        for r in 0..side {
            sheet.set_row_height(top + 1 + r as u32, line_height * bh as f64 + 3.0)?;
            for c in 0..side {
                let i = r * side + c;
                let look = Look {
                    role: roles.get(&i).copied(),
                    edges: [c % bw == 0, c % bw == bw - 1, r % bh == 0, r % bh == bh - 1],
                    kind: match (g.puzzle.cells()[i], replay.values[i]) {
                        (0, 0) => Kind::Candidates,
                        (0, _) => Kind::Placed,
                        _ => Kind::Given,
                    },
                };
                let (row, col) = (top + 1 + r as u32, 1 + c as u16);
                let v = replay.values[i];
                if v != 0 {
                    let format = f.cell(look).clone();
                    match g.map.digit(v).parse::<f64>() {
                        Ok(n) => sheet.write_number_with_format(row, col, n, &format)?,
                        Err(_) => {
                            sheet.write_string_with_format(row, col, g.map.digit(v), &format)?
                        }
                    };
                    continue;
                }
                let struck: Vec<u8> = step
                    .eliminated
                    .iter()
                    .filter(|e| e.0 == i)
                    .map(|e| e.1)
                    .collect();
                let key = |d: u8| {
                    step.placed == Some((i, d))
                        || (step.cells.contains(&i) && step.digits.contains(&d))
                };
                let format = f.cell(look).clone();
                let parts = candidate_text(replay.cands[i], side, bw, &g.map);
                // Runs of one look as one segment; a cell all of one look
                // is a plain string (rich strings cost more to write).
                let mut runs: Vec<(u8, String)> = Vec::new();
                for (d, text) in &parts {
                    let which = match d {
                        Some(d) if struck.contains(d) => 1,
                        Some(d) if key(*d) => 2,
                        _ => 0,
                    };
                    match runs.last_mut() {
                        Some((w, t)) if *w == which || d.is_none() => t.push_str(text),
                        _ => runs.push((which, text.clone())),
                    }
                }
                if let [(0, text)] = runs.as_slice() {
                    sheet.write_string_with_format(row, col, text, &format)?;
                    continue;
                }
                let looks = [&f.digit, &f.struck, &f.key];
                let segments: Vec<(&Format, &str)> = runs
                    .iter()
                    .map(|(w, t)| (looks[usize::from(*w)], t.as_str()))
                    .collect();
                sheet.write_rich_string_with_format(row, col, &segments, &format)?;
            }
        }
        replay.apply(step);
    }
    // Two pictures a page: a break before every other one.
    let breaks: Vec<u32> = (2..g.steps.len())
        .step_by(2)
        .map(|k| 2 + k as u32 * band)
        .take(1023)
        .collect();
    sheet.set_page_breaks(&breaks)?;
    sheet.set_portrait();
    sheet.set_margins(0.5, 0.5, 0.5, 0.5, 0.3, 0.3);
    let last = 2 + g.steps.len() as u32 * band;
    sheet.set_print_area(0, 0, last, side as u16)?;
    sheet.set_print_fit_to_pages(1, 0);
    Ok(())
}

/// A sheet name Excel takes: the characters `[]:*?/\` replaced, at most
/// 31 characters, unlike every name in `taken` (case ignored).
fn sheet_name(wanted: &str, taken: &[String]) -> String {
    let clean: String = wanted
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { '_' } else { c })
        .collect();
    let clean = clean.trim_matches('\'');
    let base: String = if clean.is_empty() {
        "Grid".to_string()
    } else {
        clean.chars().take(31).collect()
    };
    let free = |n: &str| !taken.iter().any(|t| t.eq_ignore_ascii_case(n));
    if free(&base) {
        return base;
    }
    (2..)
        .map(|k| {
            let tail = format!(" ({k})");
            let head: String = base.chars().take(31 - tail.chars().count()).collect();
            format!("{head}{tail}")
        })
        .find(|n| free(n))
        .unwrap_or(base)
}

/// The workbook of pictures of every solved grid of `explained`: a sheet
/// per grid, in order, named after its sheet (`Puzzle` for a text
/// puzzle), under the grid's heading line. A grid without steps (failed)
/// has no sheet; with none at all the workbook has one sheet saying so.
///
/// ```
/// use xlsudoku::explain::{explain_puzzle, steps_workbook};
/// use xlsudoku::solve::SolveOptions;
///
/// let p = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// let explained = explain_puzzle(&p.parse()?, &SolveOptions::default());
/// let bytes = steps_workbook(&[explained])?;
/// assert!(bytes.starts_with(b"PK"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn steps_workbook(explained: &[super::GridExplanation]) -> Result<Vec<u8>, XlsxError> {
    let mut book = Workbook::new();
    let mut formats = Formats::new();
    let mut names: Vec<String> = Vec::new();
    for e in explained {
        let Some(g) = &e.pictured else {
            continue;
        };
        let name = sheet_name(e.sheet.as_deref().unwrap_or("Puzzle"), &names);
        let sheet = book.add_worksheet();
        sheet.set_name(&name)?;
        names.push(name);
        draw(sheet, &e.heading(), g, &mut formats)?;
    }
    if names.is_empty() {
        let sheet = book.add_worksheet();
        sheet.write_string(0, 0, "no grid was solved, so there are no steps to draw")?;
    }
    book.save_to_buffer()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::BoxShape;

    #[test]
    fn candidates_keep_their_places_in_the_box_layout() {
        let map = AddressMap::puzzle(BoxShape::new(3, 3).unwrap());
        let text: String = candidate_text(0b1_0000_0101, 9, 3, &map)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        assert_eq!(text, format!("1 {GAP} 3\n{GAP} {GAP} {GAP}\n{GAP} {GAP} 9"));
    }

    #[test]
    fn sheet_names_are_legal_and_unique() {
        let taken = vec!["Easy".to_string()];
        assert_eq!(sheet_name("easy", &taken), "easy (2)");
        assert_eq!(sheet_name("a/b:c", &[]), "a_b_c");
        assert_eq!(sheet_name(&"x".repeat(40), &[]).chars().count(), 31);
    }
}
