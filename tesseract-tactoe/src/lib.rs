//! Four Tac Toe: tic-tac-toe on a 3×3×3×3 board whose centre no one may claim, scored on 232 lines.
//!
//! The rules and the figures it follows are the project's contract, [`tesseract_board::rules`] (RULES.md).
//!
//! Two players, X first, claim free cells in turn. A line is three cells in a row along any of the 80
//! directions of 4D; of the 272 lines, 40 pass through the forbidden centre, so 232 can be completed. Each
//! line a player completes scores that player one point, and one claim can complete several. After all 80
//! claimable cells are taken, the higher score wins (RULES.md §7). The lines come from
//! [`tesseract_board`]'s geometry: this crate shows that the board crate serves games other than chess.
//!
//! # Examples
//!
//! Count the lines:
//! ```
//! use tesseract_tactoe::Lines;
//! assert_eq!(Lines::get().counts().to_string(), "lines 272 through-centre 40 playable 232");
//! ```
//!
//! Play, score two lines with one claim, write the state as text, undo:
//! ```
//! use tesseract_tactoe::{parse_cell, Game};
//! let mut game = Game::new();
//! // X takes 1111, 3111, 2211, 2311; O answers far away.
//! for name in ["1111", "3333", "3111", "3332", "2211", "3323", "2311", "1333"] {
//!     game.claim(parse_cell(name)?)?;
//! }
//! // 2111 completes 1111-2111-3111 (along x) and 2111-2211-2311 (along y).
//! let claim = game.claim(parse_cell("2111")?)?;
//! assert_eq!(claim.points(), 2);
//! assert_eq!(game.scores(), [2, 0]);
//! let text = game.text();
//! assert_eq!(Game::from_text(&text)?.scores(), [2, 0]);
//! game.undo();
//! assert_eq!(game.scores(), [0, 0]);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Ask for hints and for the engine's move:
//! ```
//! use tesseract_tactoe::{parse_cell, Engine, Game, Player, Strength};
//! let mut game = Game::new();
//! game.claim(parse_cell("1111")?)?;
//! let hints = game.hints(parse_cell("1111")?, Player::O);
//! assert_eq!((hints.player, hints.lines.len()), (Player::X, 14));
//! let mut engine = Engine::new(Strength::level(2).unwrap());
//! let reply = engine.best_move(&game).unwrap();
//! game.claim(reply)?;
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design
//!
//! - **Bit sets.** 81 cells fit a `u128`: each player's cells are one, each line is a mask, and a claim
//!   completes a line when the claimant's set covers the mask. A claim looks only at the playable lines
//!   through its cell (at most 14), and taking a claim back recounts the same lines, so make/unmake need no
//!   stored points: the search walks the tree with them.
//! - **Scores follow from the board.** Every completed line belongs to whoever holds its three cells, so
//!   the text form ([`text`]) writes only the cells and the side to move.
//! - **A game and a search core.** [`Game`] checks claims and returns typed errors ([`ClaimError`]), keeps
//!   the claims for [`Game::undo`], and reports the lines each claim completed; the [`Engine`] copies the
//!   bare board and searches it with unchecked make/unmake.
//! - **A dedicated search.** `tesseract-search` is written for chess positions and moves; this game's
//!   moves are single cells and its value is a score difference, so a small negamax of its own (see
//!   [`engine`]) is clearer than bending the chess search to fit.
//! - **Determinism.** Strengths are budgets of depth and nodes, never time, and every random choice comes
//!   from ChaCha8 with the seed given: the same seed gives the same game on every machine.
//!
//! # Feature flags
//!
//! - `svg`: [`Game::picture`], the grid as an SVG picture (through `tesseract-board`'s `svg` feature).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod engine;
mod game;
pub mod hints;
pub mod lines;
mod play;
pub mod text;

pub use engine::{Engine, POINT, Search, Strength};
pub use game::{Claim, ClaimError, Game, Outcome, Player};
pub use hints::{Hint, Hints};
pub use lines::{CELLS, CENTRE, CLAIMABLE, LINES, Line, LineCounts, LineId, Lines, PLAYABLE, THROUGH_CENTRE};
pub use lines::{cell_name, geometry};
pub use play::{
    Contestant, MatchResult, OPENING_PLIES, RandomPlayer, Strategy, play_game, play_match, random_opening, selfplay,
};
pub use text::{CellNameError, TextError, parse_cell};

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
