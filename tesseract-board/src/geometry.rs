//! The shape of a board: axes, cells, directions, knight leaps, and the padded mailbox.
//!
//! A board has `d` axes (1 to 4) of side `n` (3 to 9; on a side of 2 the kings would always touch). Cells are numbered exactly as RULES.md §1 says,
//! `idx = (x−1) + n·(y−1) + n²·(z−1) + n³·(w−1)`, and that number is a [`Cell`].
//!
//! Move generators do not walk cells by coordinates: they walk a *padded mailbox*, a copy of the board
//! with [`PADDING`] extra cells on both ends of every axis (the reach of a knight), whose border cells hold
//! an off-board marker. A step in a direction is then one addition of a constant offset, and the edge is one
//! load: for Tesseract the mailbox has 9⁴ = 6,561 entries. The alternative, a ray table per cell and
//! direction, costs 625·80 rays and far more cache. Every table here is computed once per shape, the first
//! time [`Shape::geometry`] is called, and shared by every position of that shape.

use std::fmt;
use std::sync::OnceLock;

use crate::Cell;

/// Cells of padding on each end of every axis in the mailbox: two, the reach of a knight's long leg.
pub const PADDING: usize = 2;
/// The largest number of axes a board may have.
pub const MAX_DIMS: usize = 4;
/// The largest side a board may have (cells in text are single digits 1..9).
pub const MAX_SIDE: u8 = 9;
/// The smallest side a board may have: 3. On a side of 2 every two cells touch, so the two kings would
/// always attack each other and no position would be valid.
pub const MIN_SIDE: u8 = 3;

/// Names of the axes, in index order.
pub const AXIS_NAMES: [char; MAX_DIMS] = ['x', 'y', 'z', 'w'];

/// The number of axes and the side of a board.
///
/// # Examples
/// ```
/// use tesseract_board::Shape;
/// assert_eq!(Shape::TESSERACT.cells(), 625);
/// assert_eq!(Shape::CHESS.cells(), 64);
/// assert_eq!(Shape::new(3, 5)?, Shape::RAUMSCHACH);
/// # Ok::<_, tesseract_board::ShapeError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    dims: u8,
    side: u8,
}

/// A shape outside the supported range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// The number of axes is not in 1..=4.
    #[error("a board has 1 to {MAX_DIMS} axes, not {0}")]
    Dims(usize),
    /// The side is not in 3..=9 (a side of 2 has no valid position: the kings always touch).
    #[error("a board's side is {MIN_SIDE} to {MAX_SIDE} cells, not {side}{hint}", side = .0, hint = side_hint(*.0))]
    Side(usize),
}

/// Why a side of 2, the one natural-looking side below the range, is not supported.
fn side_hint(side: usize) -> &'static str {
    if side == 2 { " (on a side of 2 the two kings would always touch)" } else { "" }
}

impl Shape {
    /// Tesseract: 4 axes of side 5, 625 cells.
    pub const TESSERACT: Shape = Shape { dims: 4, side: 5 };
    /// Classic chess and Chess960: 2 axes of side 8.
    pub const CHESS: Shape = Shape { dims: 2, side: 8 };
    /// Raumschach size: 3 axes of side 5.
    pub const RAUMSCHACH: Shape = Shape { dims: 3, side: 5 };
    /// Four Tac Toe: 4 axes of side 3.
    pub const FOUR_TAC_TOE: Shape = Shape { dims: 4, side: 3 };

    /// A shape of `dims` axes (1..=4) and side `side` (3..=9).
    ///
    /// # Errors
    /// [`ShapeError`] when either number is out of range.
    pub const fn new(dims: usize, side: usize) -> Result<Shape, ShapeError> {
        if dims == 0 || dims > MAX_DIMS {
            return Err(ShapeError::Dims(dims));
        }
        if side < MIN_SIDE as usize || side > MAX_SIDE as usize {
            return Err(ShapeError::Side(side));
        }
        Ok(Shape { dims: dims as u8, side: side as u8 })
    }

    /// The number of axes.
    #[inline]
    pub const fn dims(self) -> usize {
        self.dims as usize
    }

    /// The number of cells along each axis.
    #[inline]
    pub const fn side(self) -> usize {
        self.side as usize
    }

    /// The number of cells, `side^dims`.
    #[inline]
    pub const fn cells(self) -> usize {
        (self.side as usize).pow(self.dims as u32)
    }

    /// The shared tables of this shape, computed on first use.
    pub fn geometry(self) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; MAX_DIMS * (MAX_SIDE - MIN_SIDE + 1) as usize] =
            [const { OnceLock::new() }; MAX_DIMS * (MAX_SIDE - MIN_SIDE + 1) as usize];
        let slot = (self.dims() - 1) * (MAX_SIDE - MIN_SIDE + 1) as usize + (self.side - MIN_SIDE) as usize;
        TABLES[slot].get_or_init(|| Geometry::build(self))
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.side();
        for i in 0..self.dims() {
            if i > 0 {
                f.write_str("×")?;
            }
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

/// A direction: a nonzero vector in {−1, 0, 1}^d, and its class, the number of axes it moves.
///
/// In 4D there are 80 directions: 8 of class 1 (rook), 24 of class 2 (bishop), 32 of class 3 (unicorn)
/// and 16 of class 4 (dragon).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Direction {
    /// The step on each axis (unused axes are 0).
    pub delta: [i8; MAX_DIMS],
    /// How many axes move: 1..=d.
    pub class: u8,
    /// The step in the padded mailbox.
    pub offset: i32,
}

/// A knight leap: (±2, ±1) on an ordered pair of axes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Leap {
    /// The step on each axis.
    pub delta: [i8; MAX_DIMS],
    /// The step in the padded mailbox.
    pub offset: i32,
}

/// The tables of one board shape. Obtain it with [`Shape::geometry`].
#[derive(Debug)]
pub struct Geometry {
    shape: Shape,
    padded_side: usize,
    strides: [i32; MAX_DIMS],
    to_padded: Box<[u16]>,
    to_cell: Box<[u16]>,
    coords: Box<[[u8; MAX_DIMS]]>,
    directions: Box<[Direction]>,
    class_start: [usize; MAX_DIMS + 2],
    leaps: Box<[Leap]>,
    queen_reach: usize,
    /// How two cells relate, indexed by the difference of their mailbox indices plus `padded_len − 1`
    /// (read it through [`Geometry::line`]): `i + 1` when the second lies along direction `i` from the
    /// first, [`LINE_LEAP`] for a knight leap, 0 otherwise. Empty where two displacements can share a
    /// difference: two coordinates differ by at most `2n − 2`, so differences are unique when that is less
    /// than the padded side `n + 4`, on sides up to 5 (and on one axis).
    lines: Box<[u8]>,
}

/// The [`Geometry::line`] value of a knight leap.
pub(crate) const LINE_LEAP: u8 = u8::MAX;

/// The marker `to_cell` holds for a padding entry.
const OFF: u16 = u16::MAX;

impl Geometry {
    fn build(shape: Shape) -> Geometry {
        let d = shape.dims();
        let n = shape.side();
        let p = n + 2 * PADDING;
        let mut strides = [0i32; MAX_DIMS];
        for (axis, s) in strides.iter_mut().enumerate().take(d) {
            *s = p.pow(axis as u32) as i32;
        }
        let padded_len = p.pow(d as u32);
        assert!(padded_len < OFF as usize, "padded mailbox must be indexable by u16");
        let cells = shape.cells();
        let mut to_padded = vec![0u16; cells];
        let mut to_cell = vec![OFF; padded_len];
        let mut coords = vec![[0u8; MAX_DIMS]; cells];
        for (idx, c) in coords.iter_mut().enumerate() {
            let mut rest = idx;
            let mut padded = 0usize;
            for (axis, coord) in c.iter_mut().enumerate().take(d) {
                let v = rest % n;
                rest /= n;
                *coord = (v + 1) as u8;
                padded += (v + PADDING) * p.pow(axis as u32);
            }
            to_padded[idx] = padded as u16;
            to_cell[padded] = idx as u16;
        }

        // Directions: every nonzero vector of {-1,0,1}^d, sorted by class, then lexicographically.
        let mut directions = Vec::new();
        let total = 3usize.pow(d as u32);
        for code in 0..total {
            let mut delta = [0i8; MAX_DIMS];
            let mut rest = code;
            for item in delta.iter_mut().take(d) {
                *item = (rest % 3) as i8 - 1;
                rest /= 3;
            }
            let class = delta.iter().filter(|&&v| v != 0).count() as u8;
            if class == 0 {
                continue;
            }
            let offset = (0..d).map(|a| delta[a] as i32 * strides[a]).sum();
            directions.push(Direction { delta, class, offset });
        }
        directions.sort_by_key(|dir| (dir.class, dir.delta.map(|v| -v)));
        let mut class_start = [0usize; MAX_DIMS + 2];
        for (class, start) in class_start.iter_mut().enumerate().skip(1) {
            *start = directions.iter().filter(|dir| (dir.class as usize) < class).count();
        }

        let mut leaps = Vec::new();
        for a in 0..d {
            for b in 0..d {
                if a == b {
                    continue;
                }
                for sa in [2i8, -2] {
                    for sb in [1i8, -1] {
                        let mut delta = [0i8; MAX_DIMS];
                        delta[a] = sa;
                        delta[b] = sb;
                        let offset = sa as i32 * strides[a] + sb as i32 * strides[b];
                        leaps.push(Leap { delta, offset });
                    }
                }
            }
        }
        // The most cells a queen reaches from one cell of an empty board.
        let queen_reach = (0..cells)
            .map(|idx| {
                directions
                    .iter()
                    .map(|dir| {
                        let mut k = 0;
                        let mut c = coords[idx];
                        loop {
                            let next: Option<Vec<u8>> = (0..d)
                                .map(|a| {
                                    let v = c[a] as i32 + dir.delta[a] as i32;
                                    (1..=n as i32).contains(&v).then_some(v as u8)
                                })
                                .collect();
                            match next {
                                Some(v) => {
                                    c[..d].copy_from_slice(&v);
                                    k += 1;
                                }
                                None => break k,
                            }
                        }
                    })
                    .sum::<usize>()
            })
            .max()
            .unwrap_or(0);
        let mut lines = Vec::new();
        if d == 1 || 2 * (n - 1) < p {
            lines = vec![0u8; 2 * padded_len - 1];
            let base = padded_len as i32 - 1;
            for (i, dir) in directions.iter().enumerate() {
                for k in 1..n as i32 {
                    lines[(base + k * dir.offset) as usize] = i as u8 + 1;
                }
            }
            for leap in &leaps {
                lines[(base + leap.offset) as usize] = LINE_LEAP;
            }
        }
        Geometry {
            lines: lines.into(),
            queen_reach,
            shape,
            padded_side: p,
            strides,
            to_padded: to_padded.into(),
            to_cell: to_cell.into(),
            coords: coords.into(),
            directions: directions.into(),
            class_start,
            leaps: leaps.into(),
        }
    }

    /// The shape these tables describe.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Number of axes.
    #[inline]
    pub fn dims(&self) -> usize {
        self.shape.dims()
    }

    /// Cells per axis.
    #[inline]
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.to_padded.len()
    }

    /// Whether `cell` is a cell of this board (its index is below [`Geometry::cells`]). The methods that
    /// take a [`Cell`] expect one of the board's cells, and panic on another; check untrusted cells here.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        cell.index() < self.cells()
    }

    /// Every cell, in index order.
    pub fn all_cells(&self) -> impl Iterator<Item = Cell> + use<> {
        (0..self.cells() as u16).map(Cell::new)
    }

    /// Side of the padded mailbox (`side + 2·PADDING`).
    #[inline]
    pub fn padded_side(&self) -> usize {
        self.padded_side
    }

    /// Entries in the padded mailbox, `padded_side^dims`.
    #[inline]
    pub fn padded_len(&self) -> usize {
        self.to_cell.len()
    }

    /// How the cells at mailbox indices `from` and `to` relate (see the field `lines`): `Some(0)` for no
    /// line, `Some(i + 1)` along direction `i`, `Some(LINE_LEAP)` for a knight leap; `None` on shapes
    /// without the table (sides of 6 and more).
    #[inline]
    pub(crate) fn line(&self, from: usize, to: usize) -> Option<u8> {
        self.lines.get(self.to_cell.len() - 1 + to - from).copied()
    }

    /// The mailbox step for +1 on `axis`.
    #[inline]
    pub fn stride(&self, axis: usize) -> i32 {
        self.strides[axis]
    }

    /// The mailbox index of a cell.
    #[inline]
    pub fn padded(&self, cell: Cell) -> usize {
        self.to_padded[cell.index()] as usize
    }

    /// The cell at a mailbox index, or `None` on the padding.
    #[inline]
    pub fn cell_at_padded(&self, padded: usize) -> Option<Cell> {
        match self.to_cell.get(padded) {
            Some(&c) if c != OFF => Some(Cell::new(c)),
            _ => None,
        }
    }

    /// The table from mailbox index to cell index (`u16::MAX` on the padding), for generators.
    #[inline]
    pub fn padded_to_cell_table(&self) -> &[u16] {
        &self.to_cell
    }

    /// The table from cell index to mailbox index, for generators.
    #[inline]
    pub fn cell_to_padded_table(&self) -> &[u16] {
        &self.to_padded
    }

    /// The coordinates of a cell, 1-based; unused axes are 0.
    #[inline]
    pub fn coords(&self, cell: Cell) -> [u8; MAX_DIMS] {
        self.coords[cell.index()]
    }

    /// The coordinate of `cell` on `axis` (1-based).
    #[inline]
    pub fn coord(&self, cell: Cell, axis: usize) -> u8 {
        self.coords[cell.index()][axis]
    }

    /// The cell at 1-based coordinates (one per axis), or `None` if any is off the board.
    pub fn cell(&self, coords: &[u8]) -> Option<Cell> {
        if coords.len() != self.dims() {
            return None;
        }
        let n = self.side();
        let mut idx = 0usize;
        for (axis, &c) in coords.iter().enumerate() {
            if c == 0 || c as usize > n {
                return None;
            }
            idx += (c as usize - 1) * n.pow(axis as u32);
        }
        Some(Cell::new(idx as u16))
    }

    /// The cell one `delta` away from `cell`, if it is on the board.
    pub fn offset(&self, cell: Cell, delta: &[i8; MAX_DIMS]) -> Option<Cell> {
        let mut c = self.coords(cell);
        for axis in 0..self.dims() {
            let v = c[axis] as i32 + delta[axis] as i32;
            if v < 1 || v > self.side() as i32 {
                return None;
            }
            c[axis] = v as u8;
        }
        self.cell(&c[..self.dims()])
    }

    /// The most cells a queen reaches from one cell of the empty board (160 on 5⁴, 27 on 8×8).
    #[inline]
    pub fn queen_reach(&self) -> usize {
        self.queen_reach
    }

    /// All directions, sorted by class (1 first).
    #[inline]
    pub fn directions(&self) -> &[Direction] {
        &self.directions
    }

    /// The directions of one class (1..=dims); empty for other classes.
    #[inline]
    pub fn directions_of_class(&self, class: usize) -> &[Direction] {
        if class == 0 || class > self.dims() {
            return &[];
        }
        &self.directions[self.class_start[class]..self.class_start[class + 1]]
    }

    /// The knight leaps: (±2, ±1) on every ordered pair of axes, `4·d·(d−1)` of them (48 in 4D).
    #[inline]
    pub fn leaps(&self) -> &[Leap] {
        &self.leaps
    }

    /// The pawns that exist on this board: the Y-pawn from two axes up, the W-pawn from four.
    pub fn pawn_roles(&self) -> &'static [crate::Role] {
        match self.dims() {
            0 | 1 => &[],
            2 | 3 => &[crate::Role::YPawn],
            _ => &[crate::Role::YPawn, crate::Role::WPawn],
        }
    }

    /// The axes along which pawns capture sideways: those along which no pawn advances, x and z
    /// (only x in 2D).
    pub fn capture_axes(&self) -> &'static [usize] {
        match self.dims() {
            0 | 1 => &[],
            2 => &[0],
            _ => &[0, 2],
        }
    }

    /// The name of a cell: algebraic (`e4`) on a 2D board, one digit per axis (`2313`) otherwise.
    pub fn cell_name(&self, cell: Cell) -> String {
        let c = self.coords(cell);
        if self.dims() == 2 {
            format!("{}{}", (b'a' + c[0] - 1) as char, c[1])
        } else {
            c[..self.dims()].iter().map(|v| (b'0' + v) as char).collect()
        }
    }

    /// Parses a cell name as [`Geometry::cell_name`] writes it.
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        let bytes = text.as_bytes();
        if self.dims() == 2 {
            if bytes.len() != 2 || !bytes[0].is_ascii_lowercase() || !bytes[1].is_ascii_digit() {
                return None;
            }
            self.cell(&[bytes[0] - b'a' + 1, bytes[1] - b'0'])
        } else {
            if bytes.len() != self.dims() || !bytes.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let coords: Vec<u8> = bytes.iter().map(|b| b - b'0').collect();
            self.cell(&coords)
        }
    }

    /// The straight lines of `len` consecutive cells along the direction set: every segment of `len`
    /// cells `c, c+v, …, c+(len−1)v`, each counted once (not again from its other end).
    ///
    /// For `len == side` these are the winning lines of n-in-a-row, `((n+2)^d − n^d)/2` of them:
    /// 8 on 3×3, 49 on 3³, 272 on 3⁴.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::Shape;
    /// assert_eq!(Shape::new(2, 3)?.geometry().lines(3).len(), 8);
    /// assert_eq!(Shape::FOUR_TAC_TOE.geometry().lines(3).len(), 272);
    /// # Ok::<_, tesseract_board::ShapeError>(())
    /// ```
    pub fn lines(&self, len: usize) -> Vec<Vec<Cell>> {
        let mut lines = Vec::new();
        if len == 0 {
            return lines;
        }
        for dir in self.directions.iter() {
            // Count each segment once: keep the direction whose first nonzero step is positive.
            let first = dir.delta.iter().find(|&&v| v != 0).copied().unwrap_or(0);
            if first < 0 {
                continue;
            }
            for start in self.all_cells() {
                let mut line = Vec::with_capacity(len);
                let mut at = Some(start);
                for _ in 0..len {
                    match at {
                        Some(c) => {
                            line.push(c);
                            at = self.offset(c, &dir.delta);
                        }
                        None => break,
                    }
                }
                if line.len() == len {
                    lines.push(line);
                }
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_classes_in_4d() {
        let g = Shape::TESSERACT.geometry();
        assert_eq!(g.directions().len(), 80);
        let counts: Vec<usize> = (1..=4).map(|c| g.directions_of_class(c).len()).collect();
        assert_eq!(counts, [8, 24, 32, 16]);
        assert_eq!(g.leaps().len(), 48);
        for class in 1..=4 {
            for dir in g.directions_of_class(class) {
                assert_eq!(dir.class as usize, class);
            }
        }
    }

    #[test]
    fn queen_reach_bounds_the_move_list() {
        assert_eq!(Shape::TESSERACT.geometry().queen_reach(), 160);
        assert_eq!(Shape::CHESS.geometry().queen_reach(), 27);
        assert_eq!(crate::Position::max_pieces(Shape::TESSERACT), 64);
    }

    #[test]
    fn directions_in_2d() {
        let g = Shape::CHESS.geometry();
        assert_eq!(g.directions_of_class(1).len(), 4);
        assert_eq!(g.directions_of_class(2).len(), 4);
        assert_eq!(g.directions_of_class(3).len(), 0);
        assert_eq!(g.leaps().len(), 8);
    }

    #[test]
    fn index_formula_of_rules_section_1() {
        let g = Shape::TESSERACT.geometry();
        for x in 1..=5u8 {
            for y in 1..=5u8 {
                for z in 1..=5u8 {
                    for w in 1..=5u8 {
                        let idx =
                            (x - 1) as usize + 5 * (y - 1) as usize + 25 * (z - 1) as usize + 125 * (w - 1) as usize;
                        let cell = g.cell(&[x, y, z, w]).unwrap();
                        assert_eq!(cell.index(), idx);
                        assert_eq!(g.coords(cell), [x, y, z, w]);
                        assert_eq!(g.cell_at_padded(g.padded(cell)), Some(cell));
                    }
                }
            }
        }
        assert_eq!(g.padded_len(), 6561);
        assert_eq!(g.cell(&[0, 1, 1, 1]), None);
        assert_eq!(g.cell(&[6, 1, 1, 1]), None);
    }

    #[test]
    fn padding_surrounds_the_board_by_a_knight_reach() {
        for shape in [Shape::TESSERACT, Shape::CHESS, Shape::RAUMSCHACH] {
            let g = shape.geometry();
            for cell in g.all_cells() {
                let p = g.padded(cell) as i64;
                for leap in g.leaps() {
                    let q = p + leap.offset as i64;
                    assert!(q >= 0 && (q as usize) < g.padded_len());
                    assert_eq!(g.cell_at_padded(q as usize), g.offset(cell, &leap.delta));
                }
                for dir in g.directions() {
                    let q = (p + dir.offset as i64) as usize;
                    assert_eq!(g.cell_at_padded(q), g.offset(cell, &dir.delta));
                }
            }
        }
    }

    #[test]
    fn line_counts_follow_the_formula() {
        for (d, n, want) in [(2, 3, 8), (3, 3, 49), (4, 3, 272), (2, 8, 18)] {
            let shape = Shape::new(d, n).unwrap();
            let formula = ((n + 2).pow(d as u32) - n.pow(d as u32)) / 2;
            assert_eq!(formula, want);
            assert_eq!(shape.geometry().lines(n).len(), want, "{shape}");
        }
    }

    #[test]
    fn cell_names_round_trip() {
        for shape in [Shape::TESSERACT, Shape::CHESS, Shape::RAUMSCHACH] {
            let g = shape.geometry();
            for cell in g.all_cells() {
                assert_eq!(g.parse_cell(&g.cell_name(cell)), Some(cell));
            }
        }
        let g = Shape::CHESS.geometry();
        assert_eq!(g.cell_name(g.cell(&[5, 4]).unwrap()), "e4");
    }
}
