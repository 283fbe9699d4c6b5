//! OpenDocument's value and length syntax: lengths (`0.74pt`, `2cm`),
//! colours (`#rrggbb`), borders (`0.74pt solid #000000`), dates
//! (`2024-01-05T12:30:00`) and durations (`PT12H30M00S`).

use super::model::{excel_serial, Side};

/// A length (`0.74pt`, `2.258cm`, `0.5in`, `12px`) in points.
pub(crate) fn points(v: &str) -> Option<f64> {
    let v = v.trim();
    let split = v.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(v.len());
    let n: f64 = v[..split].parse().ok()?;
    let k = match &v[split..] {
        "pt" => 1.0,
        "cm" => 72.0 / 2.54,
        "mm" => 72.0 / 25.4,
        "in" => 72.0,
        "px" => 0.75,
        "pc" => 12.0,
        _ => return None,
    };
    Some(n * k).filter(|p| p.is_finite() && *p >= 0.0)
}
/// `#rrggbb` as `0xRRGGBB`.
pub(crate) fn rgb(v: &str) -> Option<u32> {
    let h = v.trim().strip_prefix('#')?;
    (h.len() == 6)
        .then(|| u32::from_str_radix(h, 16).ok())
        .flatten()
}
/// A border (`0.74pt solid #000000`) as a side.
pub(crate) fn border(v: &str) -> Side {
    let mut width = 0.0;
    let mut kind = "none";
    let mut color = None;
    for part in v.split_whitespace() {
        if let Some(p) = points(part) {
            width = p;
        } else if let Some(c) = rgb(part) {
            color = Some(c);
        } else {
            kind = match part {
                "solid" | "double" | "dotted" | "dashed" | "dash-dot" | "dash-dot-dot"
                | "fine-dashed" | "double-thin" => part,
                "none" | "hidden" => "none",
                _ => kind,
            };
        }
    }
    let heavy = width > 1.0;
    let line = match kind {
        "none" => 0,
        _ if width == 0.0 && kind == "solid" => 0,
        "double" | "double-thin" => 6,
        "dotted" => 4,
        "dashed" | "fine-dashed" if heavy => 8,
        "dashed" | "fine-dashed" => 3,
        "dash-dot" if heavy => 10,
        "dash-dot" => 9,
        "dash-dot-dot" if heavy => 12,
        "dash-dot-dot" => 11,
        _ if width < 0.3 => 7,
        _ if width <= 1.0 => 1,
        _ if width < 2.25 => 2,
        _ => 5,
    };
    Side {
        line,
        color: color.filter(|_| line != 0),
    }
}
/// `2024-01-05` or `2024-01-05T12:30:00` as an Excel serial number.
pub(crate) fn date_serial(v: &str) -> Option<f64> {
    let (date, time) = v.split_once('T').unwrap_or((v, ""));
    let mut it = date.splitn(3, '-');
    let y: i64 = it.next()?.parse().ok()?;
    let m: u32 = it.next()?.parse().ok()?;
    let d: u32 = it.next()?.parse().ok()?;
    let day = excel_serial(y, m, d)?;
    let mut frac = 0.0;
    if !time.is_empty() {
        let mut p = time.split(':');
        let h: f64 = p.next()?.parse().ok()?;
        let mi: f64 = p.next().unwrap_or("0").parse().ok()?;
        let s: f64 = p.next().unwrap_or("0").parse().ok()?;
        frac = (h * 3600.0 + mi * 60.0 + s) / 86400.0;
    }
    Some(day + frac)
}
/// `PT12H30M00S` as a fraction of a day.
pub(crate) fn duration_days(v: &str) -> Option<f64> {
    let rest = v.strip_prefix("PT").or_else(|| v.strip_prefix("-PT"))?;
    let (mut total, mut num) = (0.0, String::new());
    for ch in rest.chars() {
        match ch {
            'H' => total += num.parse::<f64>().ok()? * 3600.0,
            'M' => total += num.parse::<f64>().ok()? * 60.0,
            'S' => total += num.parse::<f64>().ok()?,
            _ => {
                num.push(ch);
                continue;
            }
        }
        num.clear();
    }
    Some(total / 86400.0 * if v.starts_with('-') { -1.0 } else { 1.0 })
}
