//! How a table numbers its positions: one index per placement of the pieces, up to symmetry.
//!
//! The pieces are placed in table order (White's king, Black's king, White's pieces, Black's pieces, see
//! [`crate::Material::layout`]). The index is `domain(White's king) · N^(k−1) + Σ cellᵢ · N^(k−1−i)`, with
//! `N` the number of cells and `k` the number of pieces. Only *canonical* placements are positions of the
//! table: White's king in the fundamental domain, the symmetry among those that do that which gives the
//! smallest index, identical pieces in increasing cell order. Every other index is marked "not a
//! position", so every orbit of the board's symmetry group, and every set of interchangeable pieces, is
//! counted once.

use std::sync::Arc;

use tesseract_board::{Color, Role, Shape};

use crate::Material;
use crate::space::{Space, Sq};

/// The index space of one table.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    pub space: Arc<Space>,
    pub material: Material,
    /// The pieces in table order.
    pub pieces: Vec<(Color, Role)>,
    /// Ranges of interchangeable pieces (same color and role), two or more long.
    groups: Vec<(usize, usize)>,
    /// Indices per side to move.
    pub per_side: u64,
}

impl Layout {
    pub fn new(shape: Shape, material: &Material) -> Layout {
        let space = Space::of(shape);
        let pieces = material.layout();
        let mut groups = Vec::new();
        let mut start = 0;
        for i in 1..=pieces.len() {
            if i == pieces.len() || pieces[i] != pieces[start] {
                if i - start > 1 {
                    groups.push((start, i));
                }
                start = i;
            }
        }
        let per_side = space.domain.len() as u64 * (space.cells as u64).pow(pieces.len() as u32 - 1);
        debug_assert_eq!(Some(per_side), crate::table::entries_per_side(shape, pieces.len()));
        Layout { space, material: material.clone(), pieces, groups, per_side }
    }

    /// The number of pieces.
    #[inline]
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// The index of a placement whose first cell is in the domain.
    #[inline]
    fn index_unchecked(&self, cells: &[Sq]) -> u64 {
        let n = self.space.cells as u64;
        let mut idx = u64::from(self.space.domain_index[cells[0] as usize]);
        for &c in &cells[1..] {
            idx = idx * n + u64::from(c);
        }
        idx
    }

    /// The placement an index stands for (cells in table order).
    #[inline]
    pub fn decode(&self, mut idx: u64, out: &mut [Sq; 4]) {
        let n = self.space.cells as u64;
        for i in (1..self.len()).rev() {
            out[i] = (idx % n) as Sq;
            idx /= n;
        }
        out[0] = self.space.domain[idx as usize];
    }

    /// The index of the canonical placement of the orbit of `cells` (table order, any cells).
    #[inline]
    pub fn canonical(&self, cells: &[Sq]) -> u64 {
        let k = self.len();
        let mut best = u64::MAX;
        let mut mapped = [0 as Sq; 4];
        // The index orders placements by White's king, then Black's king, then the rest: the symmetries
        // that minimize the first two cells are the only candidates (usually one).
        for &g in self.space.pair_symmetries(cells[0], cells[1]) {
            for i in 0..k {
                mapped[i] = self.space.map(g, cells[i]);
            }
            for &(a, b) in &self.groups {
                mapped[a..b].sort_unstable();
            }
            best = best.min(self.index_unchecked(&mapped[..k]));
        }
        best
    }

    /// Whether two pieces share a cell.
    #[inline]
    pub fn overlaps(&self, cells: &[Sq]) -> bool {
        (1..cells.len()).any(|i| cells[..i].contains(&cells[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closed_form_size_is_the_layouts() {
        for dims in 1..=4 {
            for side in 3..=9 {
                let shape = Shape::new(dims, side).unwrap();
                let space = Space::of(shape);
                for pieces in 2..=4 {
                    let layout_size = space.domain.len() as u64 * (space.cells as u64).pow(pieces as u32 - 1);
                    assert_eq!(crate::table::entries_per_side(shape, pieces), Some(layout_size), "{shape} {pieces}");
                }
            }
        }
    }
}
