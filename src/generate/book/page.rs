//! The printed page of a puzzle book: the paper, how many puzzles a page
//! holds, and the sizes that follow from them.
//!
//! Every size is worked out here, in pixels at 96 per inch (the unit in
//! which rust_xlsxwriter sets both column widths and row heights, so a cell
//! given the same number of pixels each way is square on paper), before a
//! cell is written: the grids of a page, their titles and the gaps between
//! them fill a block that fits the paper's printable area at 100 %, and
//! the sheet prints that block centred on the page.
//!
//! ```
//! use xlsudoku::generate::book::{Paper, PerPage, PuzzlePage};
//!
//! let page = PuzzlePage::new(9, PerPage::Four, Paper::A4);
//! assert_eq!((page.across, page.down), (2, 2));
//! // Two 9x9 grids and the gap between them fit the printable width.
//! assert!(2 * 9 * page.cell + page.gap_x <= Paper::A4.printable().0);
//! ```

use std::fmt;
use std::str::FromStr;

/// Pixels per inch: the unit of every size here.
pub const PX_PER_INCH: u32 = 96;

/// The margin on every side of the page, in inches.
pub const MARGIN_INCHES: f64 = 0.5;

/// The paper a book is laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
    /// Either: the layout fits both A4's width and Letter's height, and the
    /// workbook names no paper, so it prints on the printer's own.
    #[default]
    Any,
}

impl Paper {
    /// The page's width and height in pixels.
    pub fn size(self) -> (u32, u32) {
        match self {
            // 210 × 297 mm at 96 px per inch.
            Paper::A4 => (793, 1122),
            Paper::Letter => (816, 1056),
            Paper::Any => (793, 1056),
        }
    }

    /// The width and height within the margins, in pixels, less a small
    /// reserve (2 %) for the rounding a spreadsheet does when it turns the
    /// sizes into its own units, so that nothing is shrunk to fit.
    pub fn printable(self) -> (u32, u32) {
        let (w, h) = self.size();
        let margins = (2.0 * MARGIN_INCHES * f64::from(PX_PER_INCH)) as u32;
        let reserve = |x: u32| x - x / 50;
        (reserve(w - margins), reserve(h - margins))
    }

    /// Excel's paper-size code (`pageSetup paperSize`), if the workbook
    /// names one.
    pub fn excel_code(self) -> Option<u8> {
        match self {
            Paper::Letter => Some(1),
            Paper::A4 => Some(9),
            Paper::Any => None,
        }
    }
}

impl FromStr for Paper {
    type Err = String;
    fn from_str(s: &str) -> Result<Paper, String> {
        match s.to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            "any" => Ok(Paper::Any),
            _ => Err(format!(
                "'{s}' is no paper this tool knows: a4, letter or any"
            )),
        }
    }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
            Paper::Any => "any",
        })
    }
}

/// How many puzzles a printed page holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PerPage {
    /// One, as large as reads well.
    #[default]
    One,
    /// Two, one above the other.
    Two,
    /// Four, two by two.
    Four,
    /// Six, two across and three down.
    Six,
}

impl PerPage {
    /// The number of puzzles.
    pub fn count(self) -> usize {
        let (a, d) = self.arrangement();
        a * d
    }

    /// Grids across and down.
    pub fn arrangement(self) -> (usize, usize) {
        match self {
            PerPage::One => (1, 1),
            PerPage::Two => (1, 2),
            PerPage::Four => (2, 2),
            PerPage::Six => (2, 3),
        }
    }
}

impl FromStr for PerPage {
    type Err = String;
    fn from_str(s: &str) -> Result<PerPage, String> {
        match s.trim() {
            "1" => Ok(PerPage::One),
            "2" => Ok(PerPage::Two),
            "4" => Ok(PerPage::Four),
            "6" => Ok(PerPage::Six),
            _ => Err(format!("'{s}' puzzles a page: 1, 2, 4 or 6")),
        }
    }
}

impl fmt::Display for PerPage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.count())
    }
}

/// The sizes of a page of puzzles, in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzlePage {
    /// Grids across and down.
    pub across: usize,
    /// Grids down.
    pub down: usize,
    /// A cell's side (square).
    pub cell: u32,
    /// The height of the title row above each grid.
    pub title: u32,
    /// The width of the column between two grids side by side.
    pub gap_x: u32,
    /// The height of the row under each grid (the last one's too): the
    /// row a solved copy's note goes into, and the gap before the title
    /// under it.
    pub gap_y: u32,
    /// The digits' font size, in points.
    pub font_points: u32,
}

/// The largest cell of a puzzle page: 0.6 in, so that a 9x9 grid with one
/// a page is 5.4 in wide.
const MAX_CELL: u32 = 58;

impl PuzzlePage {
    /// The page for `per_page` grids of side `side` on `paper`.
    pub fn new(side: usize, per_page: PerPage, paper: Paper) -> PuzzlePage {
        let (across, down) = per_page.arrangement();
        let title = if per_page == PerPage::One { 40 } else { 32 };
        let (gap_x, gap_y) = (48, 32);
        let (w, h) = paper.printable();
        let side = side.max(1) as u32;
        let (a, d) = (across as u32, down as u32);
        let by_width = (w - (a - 1) * gap_x) / (a * side);
        let by_height = (h - d * (title + gap_y)) / (d * side);
        // Even, so that a line drawn on the cell's middle falls on a pixel.
        let cell = (by_width.min(by_height).min(MAX_CELL) & !1).max(4);
        PuzzlePage {
            across,
            down,
            cell,
            title,
            gap_x,
            gap_y,
            font_points: font_points(cell),
        }
    }

    /// The width and height of the whole block of a full page, in pixels.
    pub fn block(&self, side: usize) -> (u32, u32) {
        let grid = self.cell * side as u32;
        let (a, d) = (self.across as u32, self.down as u32);
        (
            a * grid + (a - 1) * self.gap_x,
            d * (self.title + grid + self.gap_y),
        )
    }
}

/// The sizes of a page of answers, in pixels: small grids, each under its
/// puzzle's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerPage {
    /// Grids across.
    pub across: usize,
    /// Grids down.
    pub down: usize,
    /// A cell's side.
    pub cell: u32,
    /// The height of the label row above each grid.
    pub label: u32,
    /// The width of the column between two grids.
    pub gap_x: u32,
    /// The height of the row between a grid and the label under it.
    pub gap_y: u32,
    /// The digits' font size, in points.
    pub font_points: u32,
}

/// The largest cell of an answer grid.
const MAX_ANSWER_CELL: u32 = 22;

impl AnswerPage {
    /// The page of answers of side `side` on `paper`: twelve 9x9 grids
    /// (three by four), six of larger sides (two by three).
    pub fn new(side: usize, paper: Paper) -> AnswerPage {
        let (across, down) = if side <= 9 { (3, 4) } else { (2, 3) };
        let (label, gap_x, gap_y) = (22, 24, 16);
        let (w, h) = paper.printable();
        let s = side.max(1) as u32;
        let (a, d) = (across as u32, down as u32);
        let by_width = (w - (a - 1) * gap_x) / (a * s);
        let by_height = (h - d * label - (d - 1) * gap_y) / (d * s);
        let cell = by_width.min(by_height).clamp(6, MAX_ANSWER_CELL);
        AnswerPage {
            across,
            down,
            cell,
            label,
            gap_x,
            gap_y,
            font_points: font_points(cell),
        }
    }

    /// The number of grids a page holds.
    pub fn count(&self) -> usize {
        self.across * self.down
    }
}

/// Digits about half a cell high: the font size in points (3/4 of a
/// pixel) of a cell `cell` pixels high, between 5 and 28.
fn font_points(cell: u32) -> u32 {
    (cell * 3 / 4 * 11 / 20).clamp(5, 28)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAPERS: [Paper; 3] = [Paper::A4, Paper::Letter, Paper::Any];
    const LAYOUTS: [PerPage; 4] = [PerPage::One, PerPage::Two, PerPage::Four, PerPage::Six];

    #[test]
    fn every_page_fits_its_paper_at_full_size() {
        for paper in PAPERS {
            let (w, h) = paper.printable();
            for per in LAYOUTS {
                for side in [4, 6, 9, 12, 16, 25, 36] {
                    let page = PuzzlePage::new(side, per, paper);
                    let (bw, bh) = page.block(side);
                    assert!(
                        bw <= w && bh <= h,
                        "{side} {per} {paper}: {bw}x{bh} in {w}x{h}"
                    );
                    assert_eq!(page.across * page.down, per.count());
                }
            }
            for side in [4, 9, 16, 25] {
                let a = AnswerPage::new(side, paper);
                let grid = a.cell * side as u32;
                let bw = a.across as u32 * grid + (a.across as u32 - 1) * a.gap_x;
                let bh = a.down as u32 * (a.label + grid) + (a.down as u32 - 1) * a.gap_y;
                assert!(bw <= w && bh <= h, "answers {side} {paper}: {bw}x{bh}");
                assert!((6..=12).contains(&a.count()));
            }
        }
    }

    #[test]
    fn one_a_page_is_large_and_more_a_page_smaller() {
        let one = PuzzlePage::new(9, PerPage::One, Paper::Letter);
        assert_eq!(one.cell, MAX_CELL);
        let six = PuzzlePage::new(9, PerPage::Six, Paper::Letter);
        assert!(six.cell < one.cell && six.cell >= 24, "{six:?}");
        assert!(one.font_points > six.font_points);
    }

    #[test]
    fn papers_and_counts_parse_and_print_back() {
        for p in PAPERS {
            assert_eq!(p.to_string().parse::<Paper>(), Ok(p));
        }
        for l in LAYOUTS {
            assert_eq!(l.to_string().parse::<PerPage>(), Ok(l));
        }
        assert!("3".parse::<PerPage>().unwrap_err().contains("1, 2, 4 or 6"));
        assert!("legal".parse::<Paper>().unwrap_err().contains("a4, letter"));
    }
}
