//! Cells and moves: the position-independent identifiers that cross every crate boundary.

use std::fmt;

use crate::Role;

/// A cell of a board, numbered as RULES.md §1 says: `(x−1) + n·(y−1) + n²·(z−1) + n³·(w−1)`.
///
/// A `Cell` is only a number; the [`crate::Geometry`] of a shape turns it into coordinates and names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Cell(u16);

impl Cell {
    /// The cell with this index.
    #[inline]
    pub const fn new(index: u16) -> Cell {
        Cell(index)
    }

    /// Its index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A move on a known board: from a cell to a cell, with the piece a pawn promotes to.
///
/// Moves are plain data: the position they are played in says what else happens. A pawn moving onto the
/// en passant cell captures en passant; a pawn moving two cells sets the en passant cell; in 2D, castling is
/// written as the king moving onto its own rook ("king takes rook", as Chess960 engines do), so every
/// castling move has one encoding whatever the start files. Text forms, which do depend on the board, are in
/// [`crate::TextMove`].
///
/// With the `serde` feature a move serializes as its cell indices (`{"from": 12, "to": 28, "promotion":
/// null}`), which mean nothing without the board; for the text of RULES.md §4 use [`crate::TextMove`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Move {
    /// The cell the piece leaves.
    pub from: Cell,
    /// The cell it lands on (for castling: the cell of the castling rook).
    pub to: Cell,
    /// The promotion piece, for a pawn reaching its last cell.
    pub promotion: Option<Role>,
}

// A `Move` is six bytes, and `Option<Move>` uses the promotion's niche: no size cost for "no move".
const _: () = assert!(std::mem::size_of::<Move>() == 6);
const _: () = assert!(std::mem::size_of::<Move>() == std::mem::size_of::<Option<Move>>());

impl Move {
    /// A move without promotion.
    #[inline]
    pub const fn new(from: Cell, to: Cell) -> Move {
        Move { from, to, promotion: None }
    }

    /// A move with an optional promotion.
    #[inline]
    pub const fn with_promotion(from: Cell, to: Cell, promotion: Option<Role>) -> Move {
        Move { from, to, promotion }
    }
}
