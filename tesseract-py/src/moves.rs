//! `Move` and `Piece`: plain values handed to Python.

use pyo3::prelude::*;
use tesseract_board::{Color, Move as RawMove, Piece as RawPiece, Position, Shape, TextMove};

/// A legal move of some position: its cells, its promotion and its text (RULES.md §4).
///
/// Moves come from a board (`Board.legal_moves`, `Board.parse_uci`, `Board.push_uci`, `Board.peek`, the
/// engine); they compare equal when they are the same move on a board of the same shape.
#[pyclass(module = "tesseract", name = "Move", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PyMove {
    /// The board's shape: the move's cells and text are meaningful there only.
    pub(crate) shape: Shape,
    /// The move as the generator encodes it (castling as king takes own rook).
    pub(crate) raw: RawMove,
    /// The move's text in the position it was made for.
    pub(crate) text: TextMove,
}

impl PyMove {
    /// The move `m` of `pos`.
    pub(crate) fn new(m: RawMove, pos: &Position) -> PyMove {
        PyMove { shape: pos.shape(), raw: m, text: TextMove::from_move(m, pos) }
    }
}

#[pymethods]
impl PyMove {
    /// The move text of RULES.md §4: eight digits (and a promotion letter) in 4D, six in 3D, two on one
    /// axis, UCI in 2D (castling `e1g1` in classic mode, king takes own rook `e1h1` in Chess960 mode).
    fn uci(&self) -> String {
        self.text.to_string()
    }

    /// The move text, as `uci()` (the name the library uses, for boards where it is not UCI).
    fn text(&self) -> String {
        self.text.to_string()
    }

    /// The index of the cell the piece leaves.
    #[getter(from_cell)]
    fn get_from_cell(&self) -> usize {
        self.raw.from.index()
    }

    /// The index of the cell the move text names as the destination: the king's destination (g1, c1) for
    /// castling in classic mode, the rook's cell in Chess960 mode, as in python-chess.
    #[getter]
    fn to_cell(&self) -> usize {
        self.shape.geometry().cell(self.text.to()).map_or(self.raw.to.index(), |c| c.index())
    }

    /// The upper-case letter of the promotion piece (`Q`, `R`, `B`, `N`, and in 3D/4D `U`, `D`), or None.
    #[getter]
    fn promotion(&self) -> Option<char> {
        self.raw.promotion.map(|r| r.upper_char(self.shape.dims()))
    }

    fn __str__(&self) -> String {
        self.text.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.text)
    }
}

/// A piece: its color and its kind.
#[pyclass(module = "tesseract", name = "Piece", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PyPiece {
    pub(crate) piece: RawPiece,
    /// The board's number of axes, which names the pawn (`P` in 2D, `Y`/`W` elsewhere).
    pub(crate) dims: usize,
}

#[pymethods]
impl PyPiece {
    /// True for White, False for Black (as in python-chess).
    #[getter]
    fn color(&self) -> bool {
        self.piece.color == Color::White
    }

    /// The kind's English name: `king`, `queen`, `rook`, `bishop`, `knight`, `unicorn`, `dragon`, `pawn`
    /// (2D), `Y-pawn` or `W-pawn`.
    #[getter]
    fn role(&self) -> &'static str {
        self.piece.role.name_in(self.dims)
    }

    /// The letter of FEN/TFEN: upper case for White.
    fn symbol(&self) -> char {
        self.piece.char(self.dims)
    }

    fn __str__(&self) -> String {
        self.symbol().to_string()
    }

    fn __repr__(&self) -> String {
        let color = if self.color() { "white" } else { "black" };
        format!("<Piece '{}': {color} {}>", self.symbol(), self.role())
    }
}
