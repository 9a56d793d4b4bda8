//! The lines of the 3⁴ board: 272 straight runs of three cells, 40 of them through the forbidden centre,
//! leaving the 232 that can be completed.
//!
//! The lines come from the board crate's geometry ([`Geometry::lines`]), which walks the 80 directions of
//! RULES.md §1 and keeps each segment once. This module numbers them ([`LineId`], in the geometry's order),
//! marks those through the centre, and keeps for every cell the lines that pass through it, so that scoring a
//! claim looks at about a dozen lines rather than 232.

use std::fmt;
use std::sync::OnceLock;

use tesseract_board::{Cell, Geometry, Shape};

/// Cells on the board: 3⁴.
pub const CELLS: usize = 81;
/// Cells that can be claimed: all but the centre. The game ends after this many claims.
pub const CLAIMABLE: usize = CELLS - 1;
/// Lines of three cells on the 3⁴ board, `(5⁴ − 3⁴)/2`.
pub const LINES: usize = 272;
/// Lines through the centre, which no one can complete.
pub const THROUGH_CENTRE: usize = 40;
/// Lines that can be completed, `LINES − THROUGH_CENTRE`: the most points a game can hand out.
pub const PLAYABLE: usize = LINES - THROUGH_CENTRE;

/// The centre cell (2,2,2,2), which no one may claim: index `1 + 3 + 9 + 27`.
pub const CENTRE: Cell = Cell::new(40);

/// The most playable lines through one cell (a corner: 15 lines, one of them through the centre).
pub(crate) const MAX_LINES_PER_CELL: usize = 14;

/// The geometry of the Four Tac Toe board, [`Shape::FOUR_TAC_TOE`].
pub fn geometry() -> &'static Geometry {
    Shape::FOUR_TAC_TOE.geometry()
}

/// The name of a cell: its four coordinates `xyzw`, each 1..3 (`2222` is the centre).
///
/// # Examples
/// ```
/// use tesseract_tactoe::{cell_name, CENTRE};
/// assert_eq!(cell_name(CENTRE), "2222");
/// ```
pub fn cell_name(cell: Cell) -> String {
    if cell.index() >= CELLS {
        return format!("#{}", cell.index());
    }
    geometry().cell_name(cell)
}

/// The bit of a cell in a 81-bit set.
#[inline]
pub(crate) const fn bit(index: usize) -> u128 {
    1u128 << index
}

/// All claimable cells, as a bit set.
pub(crate) const CLAIMABLE_MASK: u128 = ((1u128 << CELLS) - 1) & !bit(CENTRE.index());

/// The number of a line: its place in [`Lines::all`], 0..272.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineId(u16);

impl LineId {
    /// The line's place in [`Lines::all`].
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for LineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}", self.0)
    }
}

/// One line: three cells in a row along one of the 80 directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    id: LineId,
    cells: [Cell; 3],
    direction: [i8; 4],
    mask: u128,
}

impl Line {
    /// Its number.
    #[inline]
    pub fn id(&self) -> LineId {
        self.id
    }

    /// Its three cells, in order along its direction.
    #[inline]
    pub fn cells(&self) -> [Cell; 3] {
        self.cells
    }

    /// The step from one cell to the next, one of −1, 0, 1 per axis (x, y, z, w); its first nonzero step is +1.
    #[inline]
    pub fn direction(&self) -> [i8; 4] {
        self.direction
    }

    /// Whether `cell` is one of its three.
    #[inline]
    pub fn contains(&self, cell: Cell) -> bool {
        self.cells.contains(&cell)
    }

    /// Whether it passes through the forbidden centre (then no one can ever complete it).
    #[inline]
    pub fn through_centre(&self) -> bool {
        self.cells[1] == CENTRE
    }

    /// Its cells as a bit set.
    #[inline]
    pub(crate) fn mask(&self) -> u128 {
        self.mask
    }
}

impl fmt::Display for Line {
    /// The three cell names joined by `-`, as in `1111-2111-3111`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.cells;
        write!(f, "{}-{}-{}", cell_name(a), cell_name(b), cell_name(c))
    }
}

/// The counts that [`Lines::counts`] reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LineCounts {
    /// All lines of three: 272.
    pub total: usize,
    /// Lines through the centre: 40.
    pub through_centre: usize,
    /// Lines that can be completed: 232.
    pub playable: usize,
}

impl fmt::Display for LineCounts {
    /// `lines 272 through-centre 40 playable 232`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lines {} through-centre {} playable {}", self.total, self.through_centre, self.playable)
    }
}

/// The lines of the board, numbered, with the lines through each cell. Obtain it with [`Lines::get`].
#[derive(Debug)]
pub struct Lines {
    all: Vec<Line>,
    playable: Vec<LineId>,
    through: Vec<Vec<LineId>>,
    playable_through: Vec<Vec<LineId>>,
    /// Per cell, the masks of its playable lines (unused slots 0), for the search.
    cell_masks: Vec<[u128; MAX_LINES_PER_CELL]>,
    /// The masks of the playable lines, for the search.
    playable_masks: Vec<u128>,
}

impl Lines {
    /// The table, computed from the geometry on first use and shared.
    ///
    /// # Examples
    /// ```
    /// use tesseract_tactoe::Lines;
    /// let counts = Lines::get().counts();
    /// assert_eq!((counts.total, counts.through_centre, counts.playable), (272, 40, 232));
    /// assert_eq!(counts.to_string(), "lines 272 through-centre 40 playable 232");
    /// ```
    pub fn get() -> &'static Lines {
        static TABLE: OnceLock<Lines> = OnceLock::new();
        TABLE.get_or_init(Lines::build)
    }

    fn build() -> Lines {
        let g = geometry();
        let mut all = Vec::new();
        for (i, cells) in g.lines(3).into_iter().enumerate() {
            let cells: [Cell; 3] = [cells[0], cells[1], cells[2]];
            let (a, b) = (g.coords(cells[0]), g.coords(cells[1]));
            let direction = [0, 1, 2, 3].map(|axis| b[axis] as i8 - a[axis] as i8);
            let mask = cells.iter().fold(0u128, |m, c| m | bit(c.index()));
            all.push(Line { id: LineId(i as u16), cells, direction, mask });
        }
        let playable: Vec<LineId> = all.iter().filter(|l| !l.through_centre()).map(Line::id).collect();
        let mut through = vec![Vec::new(); CELLS];
        let mut playable_through = vec![Vec::new(); CELLS];
        for line in &all {
            for c in line.cells {
                through[c.index()].push(line.id);
                if !line.through_centre() {
                    playable_through[c.index()].push(line.id);
                }
            }
        }
        let mut cell_masks = vec![[0u128; MAX_LINES_PER_CELL]; CELLS];
        for (cell, ids) in playable_through.iter().enumerate() {
            assert!(ids.len() <= MAX_LINES_PER_CELL, "cell {cell} has {} playable lines", ids.len());
            for (slot, id) in ids.iter().enumerate() {
                cell_masks[cell][slot] = all[id.index()].mask;
            }
        }
        let playable_masks = playable.iter().map(|id| all[id.index()].mask).collect();
        Lines { all, playable, through, playable_through, cell_masks, playable_masks }
    }

    /// All 272 lines, in the order of [`Geometry::lines`].
    #[inline]
    pub fn all(&self) -> &[Line] {
        &self.all
    }

    /// The line with this number.
    #[inline]
    pub fn line(&self, id: LineId) -> &Line {
        &self.all[id.index()]
    }

    /// The 232 lines that do not pass through the centre.
    pub fn playable(&self) -> impl Iterator<Item = &Line> + '_ {
        self.playable.iter().map(|id| &self.all[id.index()])
    }

    /// Every line through `cell`, the dead ones through the centre included (all 40 for the centre itself);
    /// empty for a cell off the board.
    pub fn through(&self, cell: Cell) -> &[LineId] {
        self.through.get(cell.index()).map_or(&[], Vec::as_slice)
    }

    /// The playable lines through `cell`: those of [`Lines::through`] that miss the centre (none for the
    /// centre or a cell off the board).
    pub fn playable_through(&self, cell: Cell) -> &[LineId] {
        self.playable_through.get(cell.index()).map_or(&[], Vec::as_slice)
    }

    /// How many lines there are, how many pass through the centre, and how many can be completed.
    pub fn counts(&self) -> LineCounts {
        let through_centre = self.all.iter().filter(|l| l.through_centre()).count();
        LineCounts { total: self.all.len(), through_centre, playable: self.all.len() - through_centre }
    }

    /// The masks of the playable lines through the cell with this index (unused slots are 0).
    #[inline]
    pub(crate) fn cell_masks(&self, index: usize) -> &[u128; MAX_LINES_PER_CELL] {
        &self.cell_masks[index]
    }

    /// The masks of the 232 playable lines.
    #[inline]
    pub(crate) fn playable_masks(&self) -> &[u128] {
        &self.playable_masks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_playable_line_appears_once_per_cell() {
        let lines = Lines::get();
        let total: usize = geometry().all_cells().map(|c| lines.playable_through(c).len()).sum();
        assert_eq!(total, 3 * PLAYABLE);
        assert_eq!(lines.through(CENTRE).len(), THROUGH_CENTRE);
        assert!(lines.playable_through(CENTRE).is_empty());
        assert!(lines.through(Cell::new(81)).is_empty());
    }

    #[test]
    fn a_corner_has_fifteen_lines_one_through_the_centre() {
        let lines = Lines::get();
        let corner = geometry().cell(&[1, 1, 1, 1]).unwrap();
        assert_eq!(lines.through(corner).len(), 15);
        assert_eq!(lines.playable_through(corner).len(), MAX_LINES_PER_CELL);
        let most = geometry().all_cells().map(|c| lines.playable_through(c).len()).max();
        assert_eq!(most, Some(MAX_LINES_PER_CELL));
    }
}
