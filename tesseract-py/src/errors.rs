//! The module's exceptions, all `ValueError` subclasses, and the conversions from the library's errors.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tesseract_board::{FromFenError, TextMoveError};
use tesseract_movegen::MoveError;
use tesseract_movegen::san::SanError;

pyo3::create_exception!(
    tesseract,
    FenError,
    PyValueError,
    "A position text (FEN, TFEN) that is malformed or describes no valid position; the message names the field and what is wrong."
);
pyo3::create_exception!(
    tesseract,
    InvalidMoveError,
    PyValueError,
    "A move text that is not a move on this board (malformed, or written for a board of another shape)."
);
pyo3::create_exception!(
    tesseract,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that is not legal in the position; the message says why."
);
pyo3::create_exception!(
    tesseract,
    AmbiguousMoveError,
    PyValueError,
    "A move in algebraic notation that names more than one legal move (Nd2 with knights on b1 and f3); the message lists them."
);
pyo3::create_exception!(
    tesseract,
    PgnError,
    PyValueError,
    "A game of a PGN text that cannot be read (a malformed tag, an unclosed comment or variation, an unknown variant, ...); the message says where."
);

/// The longest position text read: a 9⁴ board, the largest the board crate reads, needs about 8,000
/// characters, so anything longer is refused before parsing (and never echoed back).
pub(crate) const MAX_FEN_LEN: usize = 65_536;

/// The longest move text read: eight digits and a promotion letter, with room to spare.
pub(crate) const MAX_MOVE_TEXT: usize = 64;

/// A [`FenError`] for a position text that cannot be read.
pub(crate) fn fen_error(e: &FromFenError) -> PyErr {
    FenError::new_err(e.to_string())
}

/// Checks a position text's length before it is parsed.
pub(crate) fn check_fen_len(text: &str) -> PyResult<()> {
    if text.len() > MAX_FEN_LEN {
        return Err(FenError::new_err(format!(
            "a position text has at most {MAX_FEN_LEN} bytes; this one has {}",
            text.len()
        )));
    }
    Ok(())
}

/// Checks a move text's length before it is parsed.
pub(crate) fn check_move_len(text: &str) -> PyResult<()> {
    if text.len() > MAX_MOVE_TEXT {
        return Err(InvalidMoveError::new_err(format!(
            "a move text has at most {MAX_MOVE_TEXT} bytes (like e2e4 or 22132313); this one has {}",
            text.len()
        )));
    }
    Ok(())
}

/// An [`InvalidMoveError`] for text that is not a move.
pub(crate) fn text_move_error(e: &TextMoveError) -> PyErr {
    InvalidMoveError::new_err(e.to_string())
}

/// The exception for a move the position refuses: [`InvalidMoveError`] when the text does not fit the
/// board (wrong number of axes, a cell off the board), [`IllegalMoveError`] when it names no legal move.
pub(crate) fn move_error(e: &MoveError) -> PyErr {
    match e {
        MoveError::Text { .. } | MoveError::WrongDims { .. } | MoveError::OffBoard { .. } => {
            InvalidMoveError::new_err(e.to_string())
        }
        _ => IllegalMoveError::new_err(e.to_string()),
    }
}

/// The exception for algebraic notation the position refuses, as python-chess raises them:
/// [`InvalidMoveError`] for text that is not algebraic notation or is written for a board of another
/// number of axes, [`AmbiguousMoveError`] when several legal moves match, [`IllegalMoveError`] when none
/// does.
pub(crate) fn san_error(e: &SanError) -> PyErr {
    match e {
        SanError::Syntax(_) | SanError::WrongBoard { .. } => InvalidMoveError::new_err(e.to_string()),
        SanError::Ambiguous { .. } => AmbiguousMoveError::new_err(e.to_string()),
        _ => IllegalMoveError::new_err(e.to_string()),
    }
}
