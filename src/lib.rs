//! Tesseract: chess in more than two dimensions, above all the 4D game Tesseract on a 5×5×5×5 board.
//!
//! This facade re-exports the workspace's crates under short names; depend on the individual crates
//! when you need only some of them.
//!
//! | module | crate | feature | what it holds |
//! |---|---|---|---|
//! | `board` | `tesseract-board` | always | geometry, pieces, positions, notations, hashing, start positions |
//! | `movegen` | `tesseract-movegen` | always | the legal move generators, perft, the rules-level game |
//! | `search` | `tesseract-search` | `search` (default) | the engine, games with an engine, seeded playouts |
//! | `verify` | `tesseract-verify` | `verify` (default) | machine-checked studies and lessons, self-checks |
//! | `uci` | `tesseract-uci` | `uci` (default) | the engine over UCI: command parser, engine loop, input lines |
//! | `tactoe` | `tesseract-tactoe` | `tactoe` (default) | Four Tac Toe on the shared geometry |
//! | `tablebase` | `tesseract-tablebase` | `tablebase` (default) | endgame tables of every board: generation, files, probing |
//! | `wire` | `tesseract-wire` | `wire` | the authenticated move protocol (P-256, HKDF, HMAC) |
//!
//! Other features: `svg` (default) for SVG pictures, `serde` for serialization through every crate,
//! `csv` for the playout statistics writer. `default-features = false` leaves the board and the move
//! generators alone; [`prelude`] brings the names most programs use.
//!
//! ```
//! use tesseract::board::start;
//! let mut pos = start::tesseract(start::Army::Standard);
//! assert_eq!(tesseract::movegen::perft(&mut pos, 1), 226);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use tesseract_board as board;
pub use tesseract_movegen as movegen;
#[cfg(feature = "search")]
pub use tesseract_search as search;
#[cfg(feature = "tablebase")]
pub use tesseract_tablebase as tablebase;
#[cfg(feature = "tactoe")]
pub use tesseract_tactoe as tactoe;
#[cfg(feature = "uci")]
pub use tesseract_uci as uci;
#[cfg(feature = "verify")]
pub use tesseract_verify as verify;
#[cfg(feature = "wire")]
pub use tesseract_wire as wire;

/// The names most programs use, and the traits whose methods they call (`pos.play(m)` needs
/// [`Legal`](tesseract_movegen::Legal) in scope): `use tesseract::prelude::*;`.
///
/// ```
/// use tesseract::prelude::*;
/// let mut game = Game::new(start::chess());
/// let m = game.position().parse_move("e2e4")?;
/// game.play(m)?;
/// assert_eq!(legal_moves(game.position()).len(), 20);
/// # Ok::<_, MoveError>(())
/// ```
pub mod prelude {
    pub use tesseract_board::{Cell, Color, Move, Piece, Position, Role, Shape, TextMove, start};
    pub use tesseract_movegen::{Claims, Game, GameEnd, Legal, MoveError, Outcome, legal_moves, perft};
    #[cfg(feature = "search")]
    pub use tesseract_search::{Limits, Searcher, Tier};
}

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
