//! [`Setup`]: a position as plain, unvalidated data, and the errors that validation reports.

use crate::{Cell, Color, Piece, Role, Shape};

/// A position as plain data: what a text or a user describes, before anyone checks it makes sense.
///
/// Every field is public and any combination can be built; [`crate::Position::from_setup`] checks it and
/// turns it into a [`crate::Position`], or reports every reason why not.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The board's shape.
    pub shape: Shape,
    /// The piece on each cell, indexed by [`Cell::index`]; `shape.cells()` entries.
    pub board: Vec<Option<Piece>>,
    /// The side to move.
    pub turn: Color,
    /// The cells of the rooks that keep a castling right (on the 8×8 board only), in cell order.
    pub castling: Vec<Cell>,
    /// The cell a pawn passed over with a double step on the last move.
    pub en_passant: Option<Cell>,
    /// The cell of the pawn that made that double step, when known. Validation finds it from the target
    /// alone except in the rare 4D case where a Y-pawn and a W-pawn could both have passed over the same
    /// cell; then it must be given if a pawn of the side to move can capture there (position text writes
    /// it as eight digits, see [`crate::fen`]), and otherwise the en passant state is dropped.
    pub en_passant_pawn: Option<Cell>,
    /// Plies since the last capture or pawn move.
    pub halfmove: u32,
    /// The number of the full move, starting at 1 and counted after each Black move.
    pub fullmove: u32,
}

impl Setup {
    /// An empty board of `shape`, White to move, move 1.
    pub fn empty(shape: Shape) -> Setup {
        Setup {
            shape,
            board: vec![None; shape.cells()],
            turn: Color::White,
            castling: Vec::new(),
            en_passant: None,
            en_passant_pawn: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The piece on `cell` (`None` also for a cell outside the board).
    pub fn piece(&self, cell: Cell) -> Option<Piece> {
        self.board.get(cell.index()).copied().flatten()
    }

    /// Puts `piece` on the cell at `coords` (one 1-based coordinate per axis).
    ///
    /// # Panics
    /// If the coordinates are not on the board; this is a builder for code, not for untrusted input.
    pub fn put(&mut self, coords: &[u8], piece: Option<Piece>) -> &mut Setup {
        let cell = self.shape.geometry().cell(coords).expect("coordinates on the board");
        self.board[cell.index()] = piece;
        self
    }

    /// The same position with colors swapped and every cell reflected through the centre (σ: p → n+1−p
    /// on every axis), the side to move swapped too. For Tesseract's starts this gives back the same position.
    #[must_use]
    pub fn mirrored(&self) -> Setup {
        let g = self.shape.geometry();
        let n = self.shape.side() as u8;
        let reflect = |cell: Cell| {
            let c = g.coords(cell);
            let r: Vec<u8> = c[..g.dims()].iter().map(|v| n + 1 - v).collect();
            g.cell(&r).expect("reflection stays on the board")
        };
        let mut out = Setup::empty(self.shape);
        for cell in g.all_cells() {
            if let Some(p) = self.piece(cell) {
                out.board[reflect(cell).index()] = Some(Piece::new(p.color.other(), p.role));
            }
        }
        out.turn = self.turn.other();
        out.castling = self.castling.iter().map(|&c| reflect(c)).collect();
        out.castling.sort();
        out.en_passant = self.en_passant.map(reflect);
        out.en_passant_pawn = self.en_passant_pawn.map(reflect);
        out.halfmove = self.halfmove;
        out.fullmove = self.fullmove;
        out
    }
}

/// One reason a [`Setup`] is not a valid position. Cells are named as in text (`e4`, `2313`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionErrorKind {
    /// The board has the wrong number of cells for its shape.
    #[error("the board has {found} cells, but a {shape} board has {expected}")]
    BoardSize {
        /// The shape.
        shape: Shape,
        /// Cells it should have.
        expected: usize,
        /// Cells it has.
        found: usize,
    },
    /// A piece that does not exist on a board of this many axes.
    #[error("{cell}: there is no {role} on a board of {dims} axes")]
    RoleNotOnBoard {
        /// The cell's name.
        cell: String,
        /// The piece kind.
        role: Role,
        /// The board's axes.
        dims: usize,
    },
    /// A side has no king.
    #[error("{color} has no king")]
    MissingKing {
        /// The side.
        color: Color,
    },
    /// A side has more than one king.
    #[error("{color} has {count} kings, expected 1")]
    TooManyKings {
        /// The side.
        color: Color,
        /// How many.
        count: usize,
    },
    /// A side has more pieces than the move list can hold for this shape.
    #[error("{color} has {count} pieces; at most {max} fit a board of this shape")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A pawn stands on its own promotion cell.
    #[error("{cell}: a {color} {pawn} stands on its promotion cell")]
    PawnOnPromotionCell {
        /// The cell's name.
        cell: String,
        /// Its side.
        color: Color,
        /// Which pawn ("pawn" in 2D, "Y-pawn" or "W-pawn" in 4D).
        pawn: &'static str,
    },
    /// A pawn stands behind its start cell.
    #[error("{cell}: a {color} {pawn} stands behind its start cell")]
    PawnBehindStart {
        /// The cell's name.
        cell: String,
        /// Its side.
        color: Color,
        /// Which pawn ("pawn" in 2D, "Y-pawn" or "W-pawn" in 4D).
        pawn: &'static str,
    },
    /// The side that just moved is in check.
    #[error("{color} is not to move but is in check")]
    OppositeCheck {
        /// The side in check.
        color: Color,
    },
    /// The en passant cell could not come from a double step.
    #[error("en passant cell {cell}: {reason}")]
    EnPassant {
        /// The cell's name.
        cell: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A castling right that the board does not support.
    #[error("castling right at {cell}: {reason}")]
    Castling {
        /// The rook's cell name.
        cell: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// The fullmove number is 0.
    #[error("the fullmove number must be at least 1")]
    FullmoveZero,
}

/// A [`Setup`] that is not a valid position: every reason, and the setup handed back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// Every reason found, at least one.
    pub errors: Vec<PositionErrorKind>,
    /// The rejected setup.
    pub setup: Box<Setup>,
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("invalid position: ")?;
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}
