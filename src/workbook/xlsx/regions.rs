//! Bordered cells cut into separate regions: wherever a whole row or
//! column between them carries no border.

/// A rectangle of cells, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rect {
    pub(super) r0: u32,
    pub(super) r1: u32,
    pub(super) c0: u32,
    pub(super) c1: u32,
}

impl Rect {
    pub(super) fn cell(r: u32, c: u32) -> Rect {
        Rect {
            r0: r,
            r1: r,
            c0: c,
            c1: c,
        }
    }
}

/// Splits rectangles into groups separated by at least one whole row or
/// column that none of them touches, recursively, and returns each group's
/// bounding box, in reading order. A grid's frame is bordered on every row
/// and every column it spans, so no grid straddles two groups, and the
/// boxes never overlap.
pub(super) fn split_regions(rects: Vec<Rect>) -> Vec<Rect> {
    // Splitting sorts each group again; a crafted nesting could make that
    // quadratic, so past a budget the groups left are kept whole (still
    // disjoint, only larger).
    let mut budget: usize = 64 << 20;
    let mut done = Vec::new();
    let mut work = vec![rects];
    while let Some(mut group) = work.pop() {
        if group.is_empty() {
            continue;
        }
        if budget < group.len() {
            done.extend(bounding_box(&group));
            continue;
        }
        budget -= group.len();
        let parts = split_on(&mut group, |r| (r.r0, r.r1));
        if parts.len() > 1 {
            work.extend(parts);
            continue;
        }
        let mut group = parts.into_iter().next().unwrap_or_default();
        let parts = split_on(&mut group, |r| (r.c0, r.c1));
        if parts.len() > 1 {
            work.extend(parts);
            continue;
        }
        done.extend(parts.first().and_then(|g| bounding_box(g)));
    }
    done.sort_by_key(|r| (r.r0, r.c0));
    done
}

/// The smallest rectangle holding them all.
pub(super) fn bounding_box(rects: &[Rect]) -> Option<Rect> {
    rects.iter().fold(None, |acc, r| {
        Some(match acc {
            None => *r,
            Some(a) => Rect {
                r0: a.r0.min(r.r0),
                r1: a.r1.max(r.r1),
                c0: a.c0.min(r.c0),
                c1: a.c1.max(r.c1),
            },
        })
    })
}

/// Groups rectangles whose spans on one axis (`span`) overlap or touch.
pub(super) fn split_on(group: &mut [Rect], span: impl Fn(&Rect) -> (u32, u32)) -> Vec<Vec<Rect>> {
    group.sort_by_key(|r| span(r).0);
    let mut parts: Vec<Vec<Rect>> = Vec::new();
    let mut end: Option<u32> = None;
    for r in group.iter() {
        let (lo, hi) = span(r);
        match end {
            Some(e) if lo <= e.saturating_add(1) => {
                end = Some(e.max(hi));
                if let Some(last) = parts.last_mut() {
                    last.push(*r);
                }
            }
            _ => {
                end = Some(hi);
                parts.push(vec![*r]);
            }
        }
    }
    parts
}
