//! A cell's value from its XML: shared strings, inline strings, numbers,
//! booleans, errors and the cached results of formulas.

use calamine::{CellErrorType, Data};
use quick_xml::events::Event;

use super::formula::eval_constant;
use super::parts::{check_attrs, unescape_ooxml, XmlText};
use super::scan::CellXml;
use crate::workbook::reader::Unread;

/// The shared strings, in order; `None` for one that cannot be read. The
/// declared `count`/`uniqueCount` are not used.
pub(super) fn parse_shared_strings(xml: &str) -> Result<Vec<Option<String>>, String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out: Vec<Option<String>> = Vec::new();
    let mut current: Option<XmlText> = None;
    let (mut in_t, mut in_phonetic) = (false, false);
    loop {
        let event = reader.read_event().map_err(|e| e.to_string())?;
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                check_attrs(e)?;
                let empty = matches!(event, Event::Empty(_));
                match e.local_name().as_ref() {
                    "si" if empty => out.push(Some(String::new())),
                    "si" => current = Some(XmlText::default()),
                    "rPh" => in_phonetic = !empty,
                    "t" => in_t = !empty && current.is_some() && !in_phonetic,
                    _ => {}
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                "si" => {
                    if let Some(t) = current.take() {
                        out.push((!t.unreadable).then(|| unescape_ooxml(t.text)));
                    }
                }
                "rPh" => in_phonetic = false,
                "t" => in_t = false,
                _ => {}
            },
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) if in_t => {
                if let Some(t) = current.as_mut() {
                    t.push_event(&event);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

/// The number a formula cell caches (`<v>` of a numeric cell), if any.
pub(super) fn cached_number(c: &CellXml) -> Option<f64> {
    let kind = c.kind.as_deref().map(str::trim).unwrap_or("n");
    if kind != "n" {
        return None;
    }
    c.value
        .as_ref()
        .filter(|t| !t.unreadable)
        .and_then(|t| t.text.trim().parse::<f64>().ok())
}

/// The value of one `<c>` element: `None` when it holds none, an
/// [`Unread`] when it holds one that cannot be read.
pub(super) fn cell_value(c: CellXml, strings: &[Option<String>]) -> Result<Option<Data>, Unread> {
    let kind = c.kind.as_deref().map(str::trim).unwrap_or("n");
    let text_kind = matches!(kind, "s" | "str" | "inlineStr");
    let raw = |t: &XmlText| Unread::Value(t.text.clone());
    // The cached value, as the file holds it.
    let cached: Option<Data> = match kind {
        "inlineStr" => match c.inline.as_ref().or(c.value.as_ref()) {
            Some(t) if t.unreadable => return Err(raw(t)),
            Some(t) => Some(Data::String(unescape_ooxml(t.text.clone()))),
            None => None,
        },
        _ => match c.value.as_ref() {
            None => None,
            Some(t) if t.unreadable => return Err(raw(t)),
            Some(t) => {
                let v = t.text.trim_matches(|c: char| c.is_ascii_whitespace());
                match kind {
                    "str" => Some(Data::String(unescape_ooxml(t.text.clone()))),
                    // An empty `<v/>` holds nothing, whatever the type.
                    _ if v.is_empty() => None,
                    "s" => {
                        let i: usize = v.parse().map_err(|_| raw(t))?;
                        match strings.get(i) {
                            Some(Some(s)) => Some(Data::String(s.clone())),
                            Some(None) => {
                                return Err(Unread::Value(format!(
                                    "shared string {i}, which cannot be read"
                                )))
                            }
                            None => {
                                return Err(Unread::Value(format!(
                                    "shared string {i}, which the workbook does not have"
                                )))
                            }
                        }
                    }
                    "b" => match v {
                        "0" | "false" => Some(Data::Bool(false)),
                        "1" | "true" => Some(Data::Bool(true)),
                        _ => return Err(raw(t)),
                    },
                    "e" => Some(Data::Error(error_value(v).ok_or_else(|| raw(t))?)),
                    "d" => Some(Data::DateTimeIso(v.to_string())),
                    _ => match v.parse::<f64>() {
                        Ok(x) if x.is_finite() => Some(Data::Float(x)),
                        _ => return Err(raw(t)),
                    },
                }
            }
        },
    };
    let Some(formula) = c.formula else {
        return Ok(cached);
    };
    // A program that does not calculate writes formulas without a cached
    // result (openpyxl) or with 0 (XlsxWriter): constant ones are
    // evaluated, others cannot be read.
    let missing = match &cached {
        None => !(text_kind && c.value.is_some()),
        Some(Data::Float(x)) => *x == 0.0,
        _ => false,
    };
    if !missing {
        return Ok(cached);
    }
    if formula.unreadable {
        return Err(Unread::Formula(formula.text));
    }
    // Others (a cached 0 included) are read from the workbook when they are
    // a direct reference (`super::formula`), and else stay unread.
    match eval_constant(&formula.text) {
        Some(x) => Ok(Some(Data::Float(x))),
        None => Err(Unread::Formula(formula.text)),
    }
}

pub(super) fn error_value(v: &str) -> Option<CellErrorType> {
    Some(match v {
        "#DIV/0!" => CellErrorType::Div0,
        "#N/A" => CellErrorType::NA,
        "#NAME?" => CellErrorType::Name,
        "#NULL!" => CellErrorType::Null,
        "#NUM!" => CellErrorType::Num,
        "#REF!" => CellErrorType::Ref,
        "#VALUE!" => CellErrorType::Value,
        "#GETTING_DATA" => CellErrorType::GettingData,
        _ => return None,
    })
}
