//! Boards of any dimension for chess variants, above all the 4D game Tesseract on a 5×5×5×5 board.
//!
//! This crate holds everything about a position that is not move generation: the [`geometry`] of a board
//! of `d` axes and side `n` (directions and their classes, knight leaps, the padded mailbox), [`Piece`]s,
//! the plain-data [`Setup`] and the validated [`Position`], text forms ([`fen`] for positions,
//! [`TextMove`] for moves), [`zobrist`] hashing, the [`start`] positions, and text pictures. Legal moves
//! come from `tesseract-movegen`, which builds on this crate.
//!
//! # Examples
//!
//! The Tesseract start, its text and its picture:
//! ```
//! use tesseract_board::{start, Position};
//! let pos = start::tesseract(start::Army::Standard);
//! assert_eq!(pos.pieces().count(), 64);
//! let text = pos.fen();
//! assert_eq!(Position::from_fen(&text)?, pos);
//! println!("{pos}"); // a 5×5 grid of 5×5 boards
//! # Ok::<_, tesseract_board::FromFenError>(())
//! ```
//!
//! Geometry: the 80 directions of 4D in four classes, and a cell's index (RULES.md §1):
//! ```
//! use tesseract_board::Shape;
//! let g = Shape::TESSERACT.geometry();
//! let classes: Vec<usize> = (1..=4).map(|c| g.directions_of_class(c).len()).collect();
//! assert_eq!(classes, [8, 24, 32, 16]);
//! assert_eq!(g.cell(&[2, 2, 1, 3]).unwrap().index(), 1 + 5 + 250);
//! ```
//!
//! Making and unmaking a move restores the position and its hash exactly:
//! ```
//! use tesseract_board::{start, Move, TextMove};
//! let mut pos = start::tesseract(start::Army::Standard);
//! let before = pos.clone();
//! let g = pos.geometry();
//! let m = Move::new(g.cell(&[2, 2, 1, 3]).unwrap(), g.cell(&[2, 3, 1, 3]).unwrap());
//! assert_eq!(TextMove::from_move(m, &pos).to_string(), "22132313");
//! let undo = pos.make(m);
//! assert_ne!(pos.hash(), before.hash());
//! pos.unmake(m, undo);
//! assert_eq!(pos, before);
//! assert_eq!(pos.hash(), before.hash());
//! ```
//!
//! # Design
//!
//! - **One position type for every shape.** The shape is data ([`Shape`]), not a type parameter: a
//!   program can hold a Tesseract game and a chess game side by side, and 3D boards need no new code. The
//!   tables a shape needs are built once, on first use, and shared ([`Shape::geometry`]).
//! - **Padded mailbox and piece lists.** Generators step through a byte array with [`geometry::PADDING`]
//!   cells of border, so a ray stops at the edge with one load and no coordinate arithmetic; each side keeps
//!   a list of its pieces so that generation visits 32 pieces, not 625 cells. On 5⁴ the mailbox is 6,561
//!   bytes, so make/unmake (not copy-make) is the fast way to walk a tree.
//! - **Setup and Position.** [`Setup`] is plain data anyone can build; [`Position::from_setup`] checks it
//!   and reports every reason it is invalid. A `Position` is always valid.
//! - **Moves are plain data.** A [`Move`] is (from, to, promotion); the position says whether it is en
//!   passant, a double step or castling (king takes own rook). Text moves ([`TextMove`]) are parsed without a
//!   position and resolved against one by `tesseract-movegen`; [`TextMove::parse_for`] reads a text typed
//!   for a board of a known shape, so that its errors say what that board expects (`2213` on the 5⁴ board
//!   names a cell, not a move).
//!
//! # Feature flags
//!
//! - `serde`: `Serialize`/`Deserialize` for [`Position`] (as its FEN/TFEN text) and [`TextMove`] (as its
//!   move text), and for the small enums.
//! - `svg`: SVG pictures of boards of any shape (the `svg` module): positions with highlights, arrows, a last-move
//!   mark and coordinates; grids with signs and lines (Four Tac Toe); and the piece set they draw with (the
//!   `pieces` module: each piece as an SVG document or fragment). No dependencies.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bitboard;
mod cell;
pub mod epd;
pub mod fen;
pub mod geometry;
pub mod mailbox;
pub mod picture;
mod piece;
#[cfg(feature = "svg")]
pub mod pieces;
mod position;
mod setup;
#[doc = include_str!("../RULES.md")]
pub mod rules {}
pub mod start;
#[cfg(feature = "svg")]
pub mod svg;
mod text_move;
pub mod zobrist;

pub use bitboard::Bitboards;
pub use cell::{Cell, Move};
pub use fen::{CastlingNotation, FenError, FromFenError, SetupTextError};
pub use geometry::{Direction, Geometry, Leap, Shape, ShapeError};
pub use piece::{Color, ParseColorError, Piece, Role};
pub use position::{Castling, CastlingMode, CastlingSide, EnPassant, MAX_MOVES, Position, Undo};
pub use setup::{PositionError, PositionErrorKind, Setup};
pub use text_move::{TextMove, TextMoveError};

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
