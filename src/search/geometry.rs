//! The geometry of a grid of any shape for the generic engine and the SAT
//! encoding: its cells, houses and the segments where a row or column
//! crosses a box, as index tables built once per shape.

/// The fixed shape data of one box shape: units, peers, segments.
pub(crate) struct Geometry {
    pub(crate) side: usize,
    pub(crate) box_w: usize,
    pub(crate) box_h: usize,
    pub(crate) full: u64,
    /// `peers[cell * peer_count ..][.. peer_count]`: every other cell sharing
    /// a unit with `cell`.
    pub(crate) peers: Vec<u16>,
    pub(crate) peer_count: usize,
    /// `units[u * side ..][.. side]`: rows, then columns, then boxes.
    pub(crate) units: Vec<u16>,
    /// Unit numbers of each cell: row, column, box.
    pub(crate) cell_units: Vec<[u16; 3]>,
    /// The intersections of a line with a box (see [`Segment`]): row
    /// segments first, then column segments.
    pub(crate) segments: Vec<Segment>,
    /// Segment ids by line (a row's segments, then a column's, each line
    /// in turn), for claiming: a digit of a line confined to one segment
    /// leaves the rest of that segment's box.
    pub(crate) by_line: Vec<Vec<u16>>,
    /// Segment ids by box (a box's row segments, then its column
    /// segments), for pointing: a digit of a box confined to one segment
    /// leaves the rest of that segment's line.
    pub(crate) by_box: Vec<Vec<u16>>,
}

/// The cells where a line (row or column) and a box meet, with the other
/// cells of each: a digit the line (box) can hold only here leaves the
/// rest of the box (line). The cells come in the order the strikes were
/// always made, so that propagation and the search are the same.
pub(crate) struct Segment {
    pub(crate) cells: Vec<u16>,
    /// The line's other cells.
    pub(crate) line_rest: Vec<u16>,
    /// The box's other cells.
    pub(crate) box_rest: Vec<u16>,
}

impl Geometry {
    /// The geometry of a `box_w` x `box_h` box shape (side at most 64).
    pub(crate) fn new(box_w: usize, box_h: usize) -> Self {
        let side = box_w * box_h;
        let cells = side * side;
        let full = if side == 64 {
            u64::MAX
        } else {
            (1u64 << side) - 1
        };
        let box_of = |r: usize, c: usize| (r / box_h) * box_h + c / box_w;
        let mut units = Vec::with_capacity(3 * cells);
        for r in 0..side {
            units.extend((0..side).map(|c| (r * side + c) as u16));
        }
        for c in 0..side {
            units.extend((0..side).map(|r| (r * side + c) as u16));
        }
        for b in 0..side {
            let (r0, c0) = ((b / box_h) * box_h, (b % box_h) * box_w);
            for dr in 0..box_h {
                units.extend((0..box_w).map(|dc| ((r0 + dr) * side + c0 + dc) as u16));
            }
        }
        let peer_count = 2 * (side - 1) + (box_w - 1) * (box_h - 1);
        let mut peers = Vec::with_capacity(cells * peer_count);
        let mut cell_units = Vec::with_capacity(cells);
        for cell in 0..cells {
            let (r, c) = (cell / side, cell % side);
            let b = box_of(r, c);
            cell_units.push([r as u16, (side + c) as u16, (2 * side + b) as u16]);
            let (r0, c0) = ((r / box_h) * box_h, (c / box_w) * box_w);
            peers.extend(
                (0..side)
                    .filter(|&c2| c2 != c)
                    .map(|c2| (r * side + c2) as u16),
            );
            peers.extend(
                (0..side)
                    .filter(|&r2| r2 != r)
                    .map(|r2| (r2 * side + c) as u16),
            );
            for r2 in (r0..r0 + box_h).filter(|&r2| r2 != r) {
                for c2 in (c0..c0 + box_w).filter(|&c2| c2 != c) {
                    peers.push((r2 * side + c2) as u16);
                }
            }
        }
        debug_assert_eq!(peers.len(), cells * peer_count);
        let (segments, by_line, by_box) = segments(side, box_w, box_h);
        Geometry {
            side,
            box_w,
            box_h,
            full,
            peers,
            peer_count,
            units,
            cell_units,
            segments,
            by_line,
            by_box,
        }
    }

    /// Cells a side.
    pub(super) fn side(&self) -> usize {
        self.side
    }

    /// Cells in the grid.
    pub(super) fn cells(&self) -> usize {
        self.side * self.side
    }

    pub(crate) fn peers_of(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }

    /// The cells of unit `u`: rows, then columns, then boxes.
    pub(super) fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.side..(u + 1) * self.side]
    }
}

/// The line-box segments of a `box_w` x `box_h` shape with their
/// groupings by line and by box (see [`Geometry::segments`]). Row segment
/// `(r, j)` (row `r`, stack `j`) has id `r * box_h + j`; column segment
/// `(c, i)` (column `c`, band `i`) has id `side * box_h + c * box_w + i`.
pub(crate) fn segments(
    side: usize,
    w: usize,
    h: usize,
) -> (Vec<Segment>, Vec<Vec<u16>>, Vec<Vec<u16>>) {
    let n = side;
    let cell = |r: usize, c: usize| (r * n + c) as u16;
    let mut segments = Vec::with_capacity(n * (w + h));
    // The segments along every line, where `at(line, k)` is the line's
    // k-th cell, a segment holds `len` cells and a box spans `depth` lines.
    let mut along = |at: &dyn Fn(usize, usize) -> u16, len: usize, depth: usize| {
        for line in 0..n {
            let first = (line / depth) * depth;
            for j in 0..n / len {
                let (k0, k1) = (j * len, j * len + len);
                segments.push(Segment {
                    cells: (k0..k1).map(|k| at(line, k)).collect(),
                    line_rest: (0..n)
                        .filter(|&k| k < k0 || k >= k1)
                        .map(|k| at(line, k))
                        .collect(),
                    box_rest: (first..first + depth)
                        .filter(|&other| other != line)
                        .flat_map(|other| (k0..k1).map(move |k| at(other, k)))
                        .collect(),
                });
            }
        }
    };
    // Rows: row r, stack j (h stacks of w cells, boxes h rows deep); then
    // columns: column c, band i (w bands of h cells, boxes w columns wide).
    along(&|r, c| cell(r, c), w, h);
    along(&|c, r| cell(r, c), h, w);
    let row_seg = |r: usize, j: usize| (r * h + j) as u16;
    let col_seg = |c: usize, i: usize| (n * h + c * w + i) as u16;
    let mut by_line: Vec<Vec<u16>> = (0..n)
        .map(|r| (0..h).map(|j| row_seg(r, j)).collect())
        .collect();
    by_line.extend((0..n).map(|c| (0..w).map(|i| col_seg(c, i)).collect()));
    let mut by_box = Vec::with_capacity(2 * n);
    for b in 0..n {
        let (r0, c0) = ((b / h) * h, (b % h) * w);
        by_box.push((0..h).map(|k| row_seg(r0 + k, c0 / w)).collect());
        by_box.push((0..w).map(|k| col_seg(c0 + k, r0 / h)).collect());
    }
    (segments, by_line, by_box)
}
