//! User text quoted in a message, one line of plain text whatever the
//! text holds. Below every module that writes messages (the grid model's
//! among them), so that none reaches up to [`report`](crate::report) for it.

use std::fmt::Write as _;

/// User text as a message quotes it: control characters (a NUL byte, an
/// escape, a line break …) and the byte order mark written out (`\0`,
/// `\t`, `\n`, `\r`, else `U+001B`), so that a message stays one line
/// of plain text.
///
/// ```
/// use xlsudoku::quote::shown;
///
/// assert_eq!(shown("a\0b\tc\u{1b}"), "a\\0b\\tcU+001B");
/// assert_eq!(shown("Easy"), "Easy");
/// ```
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    let odd = |c: char| c.is_control() || c == '\u{feff}';
    if !text.chars().any(odd) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if odd(c) => {
                let _ = write!(out, "U+{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn a_line_break_and_the_byte_order_mark_are_written_out() {
        assert_eq!(shown("a\r\nb"), "a\\r\\nb");
        assert_eq!(shown("\u{feff}x"), "U+FEFFx");
        assert!(matches!(shown("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
