//! OpenFormula (the `table:formula` of `.ods`) to Excel's formula syntax:
//! `of:=SUM([.A1:.B2];[$Data.C3])` → `SUM(A1:B2,Data!C3)`.

/// The Excel text (without `=`) of an OpenFormula, or `None` when it uses
/// what has no Excel spelling here (a reference across sheets, the
/// union `~` or intersection `!` operators, a namespace other than `of:`).
pub(crate) fn from_openformula(text: &str) -> Option<String> {
    let body = text
        .strip_prefix("of:")
        .or_else(|| (!text.contains(':') || text.starts_with('=')).then_some(text))?;
    let body = body.strip_prefix('=').unwrap_or(body);
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push('"');
                // A string: `""` is a quote inside it.
                loop {
                    match chars.next()? {
                        '"' if chars.peek() == Some(&'"') => {
                            chars.next();
                            out.push_str("\"\"");
                        }
                        '"' => break,
                        other => out.push(other),
                    }
                }
                out.push('"');
            }
            '[' => {
                let mut inner = String::new();
                let mut quoted = false;
                loop {
                    let ch = chars.next()?;
                    match ch {
                        '\'' => quoted = !quoted,
                        ']' if !quoted => break,
                        _ => {}
                    }
                    inner.push(ch);
                }
                out.push_str(&reference(&inner)?);
            }
            ';' => out.push(','),
            '~' | '!' => return None,
            _ => out.push(c),
        }
    }
    let out = out.replace("COM.MICROSOFT.", "");
    (!out.contains("ORG.OPENOFFICE.") && !out.contains("#REF")).then_some(out)
}

/// One bracketed reference: `.A1`, `.A1:.B2`, `$Sheet1.A1`, `'My sheet'.A1:.B2`.
fn reference(inner: &str) -> Option<String> {
    let mut parts = split_outside_quotes(inner, ':');
    if parts.is_empty() || parts.len() > 2 {
        return None;
    }
    let (sheet, first) = sheet_and_cell(parts.remove(0))?;
    let second = match parts.pop() {
        Some(p) => {
            let (s2, c2) = sheet_and_cell(p)?;
            if s2.is_some() && s2 != sheet {
                return None;
            }
            Some(c2)
        }
        None => None,
    };
    let mut out = String::new();
    if let Some(s) = sheet {
        out.push_str(&s);
        out.push('!');
    }
    out.push_str(&first);
    if let Some(c) = second {
        out.push(':');
        out.push_str(&c);
    }
    Some(out)
}

fn split_outside_quotes(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut quoted, mut start) = (false, 0);
    for (i, c) in s.char_indices() {
        if c == '\'' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            out.push(&s[start..i]);
            start = i + 1;
        }
    }
    out.push(&s[start..]);
    out
}

/// `$Sheet.A1` → (`Some("Sheet")`, `A1`); `.A1` → (`None`, `A1`).
fn sheet_and_cell(part: &str) -> Option<(Option<String>, String)> {
    let part = part.trim();
    let dot = split_outside_quotes(part, '.');
    let (sheet, cell) = match dot.as_slice() {
        [sheet, cell] => (*sheet, *cell),
        _ => return None,
    };
    let sheet = sheet.strip_prefix('$').unwrap_or(sheet);
    if cell.is_empty() || cell.contains('#') {
        return None;
    }
    let sheet = (!sheet.is_empty()).then(|| {
        if sheet.starts_with('\'') || sheet.chars().all(|c| c.is_alphanumeric() || c == '_') {
            sheet.to_string()
        } else {
            format!("'{}'", sheet.replace('\'', "''"))
        }
    });
    Some((sheet, cell.to_string()))
}

#[cfg(test)]
mod tests {
    use super::from_openformula;

    #[test]
    fn openformula_becomes_excel() {
        assert_eq!(
            from_openformula("of:=SUM([.A1:.B2];[$Data.C3])").as_deref(),
            Some("SUM(A1:B2,Data!C3)")
        );
        assert_eq!(
            from_openformula("of:=[$'My sheet'.$A$1]&\"a;[b]\"").as_deref(),
            Some("'My sheet'!$A$1&\"a;[b]\"")
        );
        assert_eq!(from_openformula("of:=[.A1]~[.B1]"), None);
        assert_eq!(from_openformula("of:=[$A.A1:$B.B2]"), None);
        assert_eq!(from_openformula("of:=[.#REF!]"), None);
    }
}
