//! Endgame tablebases for boards of any dimension: every pawnless ending of up to four pieces solved by
//! retrograde analysis, with the distance to mate (DTM) for both sides to move.
//!
//! A table covers one material (`KQK`, `KRKN`, `KUUK`, …) on one board (8×8 chess, the 5³ Raumschach
//! board, the 4D 5⁴ Tesseract board, any `d` and `n` the board crate has), stored once per orbit of the
//! board's symmetry group (8 elements in 2D, 48 in 3D, 384 in 4D) with interchangeable pieces counted once.
//!
//! # Examples
//!
//! Generate the KRK table of chess and ask it about a position:
//! ```
//! use tesseract_board::{Color, Position, Shape};
//! use tesseract_tablebase::{Tablebases, Wdl};
//! let mut tables = Tablebases::new();
//! let krk = tables.generate(Shape::CHESS, &"KRK".parse()?, &Default::default(), &|_| {})?;
//! let stats = krk.stats(Color::White);
//! assert_eq!(stats.longest_moves(), 16); // the longest KRK mate in chess is 16 moves
//! let pos: Position = "8/8/8/8/8/2k5/8/K6R w - - 0 1".parse()?;
//! let probe = tables.probe(&pos).unwrap();
//! assert_eq!(probe.wdl, Wdl::Win);
//! println!("{probe}; the fastest mate begins {:?}", tables.best_move(&pos).unwrap().0);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Tables are saved and loaded with a header naming the board, material, rules and generator version,
//! and a SHA-256 checksum ([`Tablebase::write`], [`Tablebase::read`], [`Tablebases::load_dir`]).
//!
//! # Method
//!
//! See [`generate`](mod@generate) for the retrograde analysis and its guarantees. Values are exact under
//! the rules of RULES.md with the draw claims left out (repetition, the 50- and 75-move rules), as in every
//! DTM table: a value is the distance to mate when both sides play best and nobody claims a draw.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod generate;
mod layout;
mod material;
mod space;
mod store;
mod table;

// The README's Rust example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use generate::{GenerateError, GenerateOptions, Progress};
pub use material::{MAX_PIECES, Material, MaterialError};
pub use store::{LoadError, Tablebases};
pub use table::{
    MAGIC, Probe, RULES_VERSION, SideStats, TableError, Tablebase, Wdl, board_text, file_name, parse_board,
};
