//! Legal move generation for boards of any dimension: a fast generator, an independent naive one, perft.
//!
//! The rules and the figures it follows are the project's contract, [`tesseract_board::rules`] (RULES.md).
//!
//! # Examples
//!
//! The legal moves of a position, and perft:
//! ```
//! use tesseract_board::start;
//! use tesseract_movegen::{legal_moves, perft};
//! let mut pos = start::tesseract(start::Army::Standard);
//! assert_eq!(legal_moves(&pos).len(), 226);
//! assert_eq!(perft(&mut pos, 2), 50_420);
//! ```
//!
//! Playing a move typed by a user, checked:
//! ```
//! use tesseract_board::start;
//! use tesseract_movegen::Legal;
//! let mut pos = start::chess();
//! let m = pos.parse_move("e2e4")?;
//! pos.play(m)?;
//! assert!(pos.parse_move("e2e4").is_err());
//! # Ok::<_, tesseract_movegen::MoveError>(())
//! ```
//!
//! SAN for display and game records, and PGN (see [`san`] and [`pgn`]):
//! ```
//! use tesseract_board::start;
//! use tesseract_movegen::pgn::{PgnGame, read_games};
//! use tesseract_movegen::san;
//! let mut pos = start::chess();
//! let m = san::parse_move(&pos, "Nf3")?;
//! assert_eq!(san::to_san(&pos, m), "Nf3");
//! let game = PgnGame::from_moves(pos.clone(), [m]);
//! let text = game.to_pgn()?;
//! assert!(text.ends_with("\n\n1. Nf3 *\n"));
//! assert_eq!(read_games(&text).next().unwrap()?, game);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! The naive generator, which shares nothing with the fast one but the board crate's plain data:
//! ```
//! use tesseract_board::start;
//! use tesseract_movegen::naive;
//! let setup = start::chess().to_setup();
//! assert_eq!(naive::perft(&setup, 2), 400);
//! ```
//!
//! # Design
//!
//! Two generators that share no code, and a count that proves them: see [`fast`] for the legal
//! generator (checks and pins found once per node by scanning out from the king) and [`naive`] for the
//! reference (pseudo-legal moves from coordinate arithmetic, each played on a copy and kept if the king
//! is safe). Tests compare them move for move at every node of several trees and on hundreds of random
//! positions, and both against published perft figures and python-chess.
//!
//! # Feature flags
//!
//! - `parallel` (on by default): the parallel perft on every core through rayon, `perft_parallel` and
//!   `divide_parallel`, with the shared lock-free table of deep counts (`PerftTable`,
//!   `divide_with_table`). Without it the crate needs no threads, so it builds for
//!   `wasm32-unknown-unknown` (`default-features = false`); [`perft`] and [`divide`] count on one thread
//!   either way.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod board8;
pub mod fast;
pub mod game;
pub mod naive;
#[cfg(feature = "parallel")]
mod parallel;
mod perft;
pub mod pgn;
mod rules;
pub mod san;
mod tables;

pub use board8::Attacks8;
pub use fast::{
    AllMoves, GenMode, MAX_PIECE_MOVES, MoveFilter, MoveList, Noisy, PieceMoves, count, empty_board_moves, generate,
    generate_until, legal_moves, legal_moves_into, legal_moves_matching, moves_from, noisy_moves,
};
pub use game::{Claims, Game, GameEnd, ReplayError, Termination};
#[cfg(feature = "parallel")]
pub use parallel::{
    PerftTable, PerftTableError, divide_parallel, divide_parallel_with_stop, divide_with_table, perft_parallel,
};
pub use perft::{divide, divide_with_stop, perft};
pub use rules::{Legal, MoveError, Outcome, text_line, text_line_string};

/// The largest hash table, in megabytes (2²⁰ bytes), that any front end of the workspace accepts: perft's
/// shared table (`PerftTable`, with the `parallel` feature) and the engine's
/// transposition table (`tesseract_search::TranspositionTable`) are sized in megabytes, and every entry
/// point that takes a size from a user (the UCI engine's `Hash` option, the `--hash` of the `perft`,
/// `bestmove` and `match` examples, the Python binding's `hash_mb`, `experiment`'s engines) refuses more
/// than this: 64 GiB, far more than a search or a deep count uses, and little enough that a typo is
/// refused before anything is allocated.
///
/// The cap is not a promise that such a table fits: a table is touched when it is made, and a system that
/// overcommits memory (Linux) may grant a reservation it cannot back and end the process later. A size
/// larger than the machine's memory and swap is refused by the allocator (`try_new` reports it); a run
/// that makes several tables at once (`experiment --threads`) checks their total against the memory
/// available itself. The table types take any size; the cap is the front ends'.
pub const MAX_TABLE_MB: usize = 65_536;

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
