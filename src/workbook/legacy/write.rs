//! The neutral [`Book`] written as an `.xlsx` in memory with
//! rust_xlsxwriter: every sheet's cells (values, formulas with their cached
//! results, styles), merges, column widths and styles, row heights and
//! styles, hidden rows, columns and sheets.

use rust_xlsxwriter::{
    Color, Format, FormatAlign, FormatBorder, FormatPattern, FormatUnderline, Formula, Workbook,
};

use super::model::{Book, NumFormat, Side, Style, Value};

fn border(line: u8) -> FormatBorder {
    use FormatBorder::*;
    [
        None,
        Thin,
        Medium,
        Dashed,
        Dotted,
        Thick,
        Double,
        Hair,
        MediumDashed,
        DashDot,
        MediumDashDot,
        DashDotDot,
        MediumDashDotDot,
        SlantDashDot,
    ][usize::from(line.min(13))]
}

fn pattern(p: u8) -> FormatPattern {
    use FormatPattern::*;
    [
        None,
        Solid,
        MediumGray,
        DarkGray,
        LightGray,
        DarkHorizontal,
        DarkVertical,
        DarkDown,
        DarkUp,
        DarkGrid,
        DarkTrellis,
        LightHorizontal,
        LightVertical,
        LightDown,
        LightUp,
        LightGrid,
        LightTrellis,
        Gray125,
        Gray0625,
    ][usize::from(p.min(18))]
}

/// The rust_xlsxwriter format of a model style.
fn format(style: &Style) -> Format {
    let mut f = Format::new();
    let font = &style.font;
    if let Some(name) = &font.name {
        f = f.set_font_name(name);
    }
    if let Some(size) = font.size_twips.filter(|&s| s > 0) {
        f = f.set_font_size(f64::from(size) / 20.0);
    }
    if font.bold {
        f = f.set_bold();
    }
    if font.italic {
        f = f.set_italic();
    }
    if font.underline {
        f = f.set_underline(FormatUnderline::Single);
    }
    if font.strike {
        f = f.set_font_strikethrough();
    }
    if let Some(c) = font.color {
        f = f.set_font_color(Color::RGB(c));
    }
    let (p, fore, back) = style.fill;
    if p != 0 {
        f = f.set_pattern(pattern(p));
        if let Some(c) = fore {
            f = f.set_foreground_color(Color::RGB(c));
        }
        if let Some(c) = back {
            f = f.set_background_color(Color::RGB(c));
        }
    }
    let [left, right, top, bottom] = style.borders;
    let side = |f: Format,
                s: Side,
                set: fn(Format, FormatBorder) -> Format,
                color: fn(Format, Color) -> Format| {
        if s.line == 0 {
            return f;
        }
        let f = set(f, border(s.line));
        match s.color {
            Some(c) => color(f, Color::RGB(c)),
            None => f,
        }
    };
    f = side(f, left, Format::set_border_left, |f, c| {
        f.set_border_left_color(c)
    });
    f = side(f, right, Format::set_border_right, |f, c| {
        f.set_border_right_color(c)
    });
    f = side(f, top, Format::set_border_top, |f, c| {
        f.set_border_top_color(c)
    });
    f = side(f, bottom, Format::set_border_bottom, |f, c| {
        f.set_border_bottom_color(c)
    });
    f = match &style.num_format {
        NumFormat::General => f,
        NumFormat::Builtin(i) => f.set_num_format_index(*i),
        NumFormat::Code(code) => f.set_num_format(code),
    };
    let h = [
        None,
        Some(FormatAlign::Left),
        Some(FormatAlign::Center),
        Some(FormatAlign::Right),
        Some(FormatAlign::Fill),
        Some(FormatAlign::Justify),
        Some(FormatAlign::CenterAcross),
        Some(FormatAlign::Distributed),
    ];
    if let Some(Some(a)) = h.get(usize::from(style.h_align)) {
        f = f.set_align(*a);
    }
    let v = [
        Some(FormatAlign::Top),
        Some(FormatAlign::VerticalCenter),
        None,
        Some(FormatAlign::VerticalJustify),
        Some(FormatAlign::VerticalDistributed),
    ];
    if let Some(Some(a)) = v.get(usize::from(style.v_align)) {
        f = f.set_align(*a);
    }
    if style.wrap {
        f = f.set_text_wrap();
    }
    f
}

/// A number as a formula's cached result.
fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// Writes `book` as an `.xlsx`; what cannot be written (a merge that
/// overlaps another, a sheet name Excel refuses) is counted in `book.lost`.
pub(crate) fn write(book: &mut Book) -> Result<Vec<u8>, String> {
    let formats: Vec<Format> = book.styles.iter().map(format).collect();
    let default = Format::new();
    let fmt = |i: usize| formats.get(i).unwrap_or(&default);
    let mut wb = Workbook::new();
    let mut lost: Vec<&str> = Vec::new();
    let first_visible = book.sheets.iter().position(|s| !s.hidden);
    for (n, sheet) in book.sheets.iter().enumerate() {
        let ws = wb.add_worksheet();
        if ws.set_name(&sheet.name).is_err() {
            lost.push("sheet names (renamed: Excel refuses them)");
            let _ = ws.set_name(format!("Sheet{}", n + 1));
        }
        if sheet.hidden && Some(n) != first_visible {
            ws.set_hidden(true);
        }
        if Some(n) == first_visible && n != 0 {
            ws.set_active(true);
        }
        for (&col, &w) in &sheet.col_widths {
            let _ = ws.set_column_width_pixels(
                col as u16,
                (w * 7.0).round().clamp(0.0, 255.0 * 7.0) as u32,
            );
        }
        for (&col, &s) in &sheet.col_styles {
            let _ = ws.set_column_format(col as u16, fmt(s));
        }
        for &col in &sheet.hidden_cols {
            let _ = ws.set_column_hidden(col as u16);
        }
        for (&row, &h) in &sheet.row_heights {
            let _ = ws.set_row_height(row, h.clamp(0.0, 409.0));
        }
        for (&row, &s) in &sheet.row_styles {
            let _ = ws.set_row_format(row, fmt(s));
        }
        for &row in &sheet.hidden_rows {
            let _ = ws.set_row_hidden(row);
        }
        for &(r0, c0, r1, c1) in &sheet.merges {
            let style = sheet.cells.get(&(r0, c0)).map_or(0, |c| c.style);
            if ws
                .merge_range(r0, c0 as u16, r1, c1 as u16, "", fmt(style))
                .is_err()
            {
                lost.push("merges (overlapping another)");
            }
        }
        for (&(row, col), cell) in &sheet.cells {
            let col = col as u16;
            let f = fmt(cell.style);
            let result = match &cell.value {
                Value::Empty => String::new(),
                Value::Number(n) => number_text(*n),
                Value::Text(t) => t.clone(),
                Value::Bool(b) => (if *b { "TRUE" } else { "FALSE" }).to_string(),
                Value::Error(e) => e.clone(),
            };
            let written = match (&cell.formula, &cell.value) {
                (Some(text), _) => ws
                    .write_formula_with_format(row, col, Formula::new(text).set_result(result), f)
                    .map(|_| ()),
                (None, Value::Empty) => ws.write_blank(row, col, f).map(|_| ()),
                (None, Value::Number(n)) => {
                    ws.write_number_with_format(row, col, *n, f).map(|_| ())
                }
                (None, Value::Text(t)) => ws.write_string_with_format(row, col, t, f).map(|_| ()),
                (None, Value::Bool(b)) => ws.write_boolean_with_format(row, col, *b, f).map(|_| ()),
                (None, Value::Error(e)) => ws
                    .write_formula_with_format(row, col, Formula::new(e).set_result(e), f)
                    .map(|_| ()),
            };
            if written.is_err() {
                lost.push("cells Excel cannot hold (text over 32,767 characters)");
            }
        }
    }
    for what in lost {
        book.lose(what, 1);
    }
    wb.save_to_buffer().map_err(|e| e.to_string())
}
