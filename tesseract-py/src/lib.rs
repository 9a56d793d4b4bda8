//! Python bindings of the Tesseract crates (PyO3, built into a wheel by maturin): the extension module
//! `tesseract._tesseract`, which the Python package `tesseract` (in `python/tesseract/`) re-exports.
//!
//! The API is close to python-chess's where it fits: a `Board` of any shape (4D
//! Tesseract, chess, Chess960, and every board of 1 to 4 axes the board crate reads) with `legal_moves`,
//! `push`, `pop`, `outcome`, `fen`, `perft`, SAN (`san`, `parse_san`, `push_san`); `Move` and `Piece`
//! values; PGN reading and writing (the Rust core of the Python module `tesseract.pgn`, in `pgn`); the engine as
//! `tesseract.engine.play`; endgame tables (`Tablebases`: generated, loaded, probed, given to the engine);
//! the write-up's mate studies and lessons (`Study`, `Lesson`, `studies()`,
//! `lessons()`, through tesseract-verify's tutor); conversion to and from python-chess's `chess.Board`. The README of this crate
//! has the Python API, the install command and the tests; the type stubs are in
//! `python/tesseract/_tesseract.pyi`.
//!
//! # Choices
//!
//! - **No panics across the boundary.** Every value from Python is checked: position texts (at most
//!   64 KiB) raise `FenError`, move texts `InvalidMoveError`, `IllegalMoveError` or `AmbiguousMoveError`
//!   (all `ValueError` subclasses, with the library's messages), cells and counts `ValueError`; a method
//!   that raises leaves the board unchanged. A PGN game that does not read is returned with its error,
//!   never raised, so that the games after it are read.
//! - **Enough stack on any thread**: a move list is 61 KB on the stack, and Python threads may have small
//!   stacks; calls into the generator move to a fresh stack segment when the thread's is short (`stack`).
//! - **The GIL is released** (`Python::detach`) for perft, divide and the engine, on a copy of the
//!   position, so that the board is not borrowed meanwhile; the work runs on a thread of its own while the
//!   calling thread runs Python's signal handlers every 20 ms, so that Ctrl-C interrupts it (`interrupt`).
//!   A PGN stream reads each chunk of its file with the GIL and reads the chunk's games without it.
//! - **No `extension-module` feature**: deprecated in PyO3 0.30, since maturin (1.9.4 and later) tells
//!   PyO3 itself not to link libpython. The crate is an ordinary workspace member: `cargo clippy` checks
//!   it, and it has no Rust test target (a test binary would need libpython); its tests are Python's.
#![deny(missing_docs)]
// No `forbid(unsafe_code)`: the code PyO3's macros generate is unsafe.

mod board;
mod cells;
mod engine;
mod errors;
mod interrupt;
mod learn;
mod moves;
mod outcome;
mod pgn;
mod playout;
mod stack;
mod tablebase;

use pyo3::prelude::*;

/// The extension module, imported by the `tesseract` package as `tesseract._tesseract`.
#[pymodule]
#[pyo3(name = "_tesseract")]
fn tesseract_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<board::Board>()?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<moves::PyPiece>()?;
    m.add_class::<outcome::Outcome>()?;
    m.add_class::<outcome::Termination>()?;
    m.add_class::<engine::Analysis>()?;
    m.add_function(wrap_pyfunction!(engine::engine_play, m)?)?;
    m.add_function(wrap_pyfunction!(engine::engine_analyse, m)?)?;
    m.add_class::<tablebase::PyTablebases>()?;
    m.add_class::<learn::Study>()?;
    m.add_class::<learn::Lesson>()?;
    m.add_function(wrap_pyfunction!(learn::studies, m)?)?;
    m.add_function(wrap_pyfunction!(learn::lessons, m)?)?;
    m.add_function(wrap_pyfunction!(learn::lesson_solution, m)?)?;
    m.add_function(wrap_pyfunction!(playout::playouts, m)?)?;
    m.add_function(wrap_pyfunction!(playout::playout_seed, m)?)?;
    m.add("FenError", py.get_type::<errors::FenError>())?;
    m.add("InvalidMoveError", py.get_type::<errors::InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<errors::IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<errors::AmbiguousMoveError>())?;
    m.add("PgnError", py.get_type::<errors::PgnError>())?;
    m.add_class::<pgn::PgnRecord>()?;
    m.add_class::<pgn::PgnStream>()?;
    m.add_class::<pgn::PgnLineCut>()?;
    m.add_function(wrap_pyfunction!(pgn::pgn_parse, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
