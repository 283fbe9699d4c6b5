//! The record of the sheet of solutions (`solve --answers sheet`): one line
//! naming the sheet, its part and a digest of the part as written, so that
//! a later run knows its own sheet by this line only, never by its name.

use super::grid::{decode_name, encode_name};

/// How the record line of the sheet of solutions ([`SolutionsRecord`])
/// begins.
pub const SOLUTIONS_PREFIX: &str = "xlsudoku-solutions ";

/// The record of the sheet of solutions an annotated copy holds: one line
/// of its records,
///
/// ```text
/// xlsudoku-solutions sheet=Solutions part=xl%2Fworksheets%2Fsheet4.xml digest=9c1d…
/// ```
///
/// with the sheet's name and part encoded as in the grid records, and the
/// digest (FNV-1a, 64 bits) of the part's bytes as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolutionsRecord {
    /// The sheet's name.
    pub sheet: String,
    /// Its worksheet part.
    pub part: String,
    /// The digest of the part as written ([`digest`]).
    pub digest: String,
}

impl SolutionsRecord {
    /// The record as one line (without a line break).
    pub fn to_line(&self) -> String {
        format!(
            "{SOLUTIONS_PREFIX}sheet={} part={} digest={}",
            encode_name(&self.sheet),
            encode_name(&self.part),
            self.digest
        )
    }

    /// Reads a line written by [`SolutionsRecord::to_line`]; `None` for
    /// anything else.
    pub fn parse_line(line: &str) -> Option<Self> {
        let rest = line.strip_prefix(SOLUTIONS_PREFIX)?;
        let (mut sheet, mut part, mut digest) = (None, None, None);
        for word in rest.split(' ').filter(|w| !w.is_empty()) {
            let (k, v) = word.split_once('=')?;
            match k {
                "sheet" => sheet = Some(decode_name(v)?),
                "part" => part = Some(decode_name(v)?),
                "digest" if v.len() == 16 && v.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    digest = Some(v.to_string())
                }
                _ => {}
            }
        }
        Some(SolutionsRecord {
            sheet: sheet.filter(|s| !s.is_empty())?,
            part: part.filter(|p| !p.is_empty())?,
            digest: digest?,
        })
    }
}

/// The record of the sheet of solutions in a copy's record text, if any.
pub fn parse_solutions_record(text: &[u8]) -> Option<SolutionsRecord> {
    text.split(|&b| b == b'\n')
        .filter_map(|l| std::str::from_utf8(l).ok())
        .find_map(|l| SolutionsRecord::parse_line(l.trim_end_matches('\r')))
}

/// The record of the sheet of solutions of the workbook `input`, if any.
pub fn read_solutions_record<R: std::io::Read + std::io::Seek>(
    input: R,
) -> Option<SolutionsRecord> {
    let mut archive = zip::ZipArchive::new(input).ok()?;
    parse_solutions_record(&super::part::record_text(&mut archive))
}

/// The digest a [`SolutionsRecord`] keeps: FNV-1a (64 bits) of `bytes`,
/// as 16 hex digits.
pub fn digest(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}
