//! Formulas whose value the file does not hold (programs that write
//! without calculating: openpyxl stores none, XlsxWriter and
//! rust_xlsxwriter store 0), read from the workbook itself when they are
//! a direct reference to one cell (`=Data!A1`, `=$B$2`, `='My Sheet'!C3`,
//! to this sheet or another). Constant arithmetic is read while the sheet
//! is scanned ([`eval_constant`]). Nothing else is
//! evaluated: such cells stay unread, and a grid holding one is invalid,
//! naming them.

use std::collections::HashMap;

use calamine::Data;

use crate::address::CellRef;
use crate::workbook::reader::{RawSheet, Unread};

/// How many references in a row (`A1` → `B1` → …) are followed.
const MAX_ROUNDS: usize = 32;

/// A formula that is a direct reference to one cell: the sheet it names
/// (`None` for its own) and the cell.
pub(crate) fn parse_reference(formula: &str) -> Option<(Option<String>, CellRef)> {
    let text = formula.trim();
    let text = text.strip_prefix('=').unwrap_or(text).trim();
    let (sheet, cell) = match text.rfind('!') {
        Some(bang) => (Some(sheet_name(&text[..bang])?), &text[bang + 1..]),
        None => (None, text),
    };
    Some((sheet, cell_reference(cell)?))
}

/// `A1`, `$A1`, `A$1` or `$A$1`.
fn cell_reference(text: &str) -> Option<CellRef> {
    let text = text.strip_prefix('$').unwrap_or(text);
    let letters = text.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (col, row) = text.split_at(letters);
    let row = row.strip_prefix('$').unwrap_or(row);
    if letters == 0 || row.is_empty() || !row.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    format!("{col}{row}").parse().ok()
}

/// The sheet name of a reference: `Data` or `'My Sheet'` (`''` for a quote).
fn sheet_name(text: &str) -> Option<String> {
    if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        let name = inner.replace("''", "'");
        return (!name.is_empty()).then_some(name);
    }
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
    plain.then(|| text.to_string())
}

/// Replaces, in every sheet, the unread formulas that are direct
/// references by the value of the cell they name (a blank cell reads as
/// 0, as a spreadsheet shows it). A reference to an unread cell waits for
/// it; cycles and missing sheets stay unread.
pub(crate) fn resolve_references(sheets: &mut [RawSheet]) {
    let index: HashMap<String, usize> = sheets
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.to_lowercase(), i))
        .collect();
    for _ in 0..MAX_ROUNDS {
        let mut found: Vec<(usize, (u32, u32), Data)> = Vec::new();
        for (i, sheet) in sheets.iter().enumerate() {
            for (&at, unread) in &sheet.unread {
                let Unread::Formula(f) = unread else {
                    continue;
                };
                let Some((name, target)) = parse_reference(f) else {
                    continue;
                };
                let j = match name {
                    Some(n) => match index.get(&n.to_lowercase()) {
                        Some(&j) => j,
                        None => continue,
                    },
                    None => i,
                };
                let key = (target.row, target.col);
                if sheets[j].unread.contains_key(&key) {
                    continue;
                }
                let value = sheets[j]
                    .values
                    .get_value(key)
                    .cloned()
                    .unwrap_or(Data::Float(0.0));
                found.push((i, at, value));
            }
        }
        if found.is_empty() {
            return;
        }
        for (i, at, value) in found {
            sheets[i].unread.remove(&at);
            sheets[i].values.set(at, value);
        }
    }
}

/// The value of a formula made only of numbers, `+ - * /` and parentheses
/// (`5`, `2+3`, `=(1+2)*3`); `None` for anything else, or a result that is
/// not a finite number.
pub(crate) fn eval_constant(formula: &str) -> Option<f64> {
    let text = formula.trim();
    let text = text.strip_prefix('=').unwrap_or(text);
    let mut p = Expr {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let v = p.sum()?;
    p.blank();
    (p.i == p.s.len() && v.is_finite()).then_some(v)
}

/// A recursive-descent reader of constant arithmetic.
pub(super) struct Expr<'a> {
    pub(super) s: &'a [u8],
    pub(super) i: usize,
    pub(super) depth: u32,
}

impl Expr<'_> {
    pub(super) fn blank(&mut self) {
        while self.s.get(self.i).is_some_and(|b| b.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    pub(super) fn peek(&mut self) -> Option<u8> {
        self.blank();
        self.s.get(self.i).copied()
    }

    pub(super) fn sum(&mut self) -> Option<f64> {
        let mut v = self.product()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.i += 1;
            let w = self.product()?;
            v = if op == b'+' { v + w } else { v - w };
        }
        Some(v)
    }

    pub(super) fn product(&mut self) -> Option<f64> {
        let mut v = self.unary()?;
        while let Some(op @ (b'*' | b'/')) = self.peek() {
            self.i += 1;
            let w = self.unary()?;
            if op == b'/' && w == 0.0 {
                return None; // #DIV/0!
            }
            v = if op == b'*' { v * w } else { v / w };
        }
        Some(v)
    }

    pub(super) fn unary(&mut self) -> Option<f64> {
        self.depth += 1;
        if self.depth > 200 {
            return None;
        }
        let v = match self.peek()? {
            b'-' => {
                self.i += 1;
                self.unary().map(|v| -v)
            }
            b'+' => {
                self.i += 1;
                self.unary()
            }
            b'(' => {
                self.i += 1;
                let v = self.sum()?;
                (self.peek()? == b')').then(|| {
                    self.i += 1;
                    v
                })
            }
            _ => self.number(),
        };
        self.depth -= 1;
        v
    }

    pub(super) fn number(&mut self) -> Option<f64> {
        let start = self.i;
        let digits = |s: &mut Self| {
            let from = s.i;
            while s.s.get(s.i).is_some_and(u8::is_ascii_digit) {
                s.i += 1;
            }
            s.i > from
        };
        let whole = digits(self);
        let mut frac = false;
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            frac = digits(self);
        }
        if !whole && !frac {
            return None;
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        std::str::from_utf8(&self.s[start..self.i])
            .ok()?
            .parse()
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(f: &str) -> Option<(Option<String>, String)> {
        parse_reference(f).map(|(s, at)| (s, at.to_string()))
    }

    #[test]
    fn direct_references_are_read_and_nothing_else() {
        let own = |a: &str| Some((None, a.to_string()));
        let on = |s: &str, a: &str| Some((Some(s.to_string()), a.to_string()));
        assert_eq!(r("A1"), own("A1"));
        assert_eq!(r("=$B$2"), own("B2"));
        assert_eq!(r("B$2"), own("B2"));
        assert_eq!(r("Data!A1"), on("Data", "A1"));
        assert_eq!(r("='My Sheet'!C3"), on("My Sheet", "C3"));
        assert_eq!(r("'It''s'!$C$3"), on("It's", "C3"));
        for other in [
            "A1+1",
            "SUM(A1)",
            "A1:B2",
            "Data!A1:B2",
            "$$A1",
            "A1$",
            "A$$1",
            "My Sheet!A1",
            "!A1",
            "''!A1",
            "5",
            "",
            "A 1",
            "XFE1",
        ] {
            assert_eq!(r(other), None, "{other}");
        }
    }
}
