//! Tesseract: chess in more than two dimensions, above all the 4D game Tesseract on a 5×5×5×5 board.
//!
//! This facade re-exports the workspace's crates under short names; depend on the individual crates
//! when you need only some of them.
//!
//! | module | crate | what it holds |
//! |---|---|---|
//! | [`board`] | `tesseract-board` | geometry, pieces, positions, notations, hashing, start positions |
//! | [`movegen`] | `tesseract-movegen` | the fast and the naive legal move generators, perft |
//! | [`search`] | `tesseract-search` | the engine, games and their rules, seeded playouts and their statistics |
//! | [`wire`] | `tesseract-wire` | the authenticated move protocol |
//! | [`verify`] | `tesseract-verify` | machine-checked studies and lessons, self-checks |
//! | [`tactoe`] | `tesseract-tactoe` | Four Tac Toe on the shared geometry |
//! | [`uci`] | `tesseract-uci` | the engine over UCI: command parser, engine loop, bounded input lines |
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
pub use tesseract_search as search;
pub use tesseract_tactoe as tactoe;
pub use tesseract_uci as uci;
pub use tesseract_verify as verify;
pub use tesseract_wire as wire;

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
