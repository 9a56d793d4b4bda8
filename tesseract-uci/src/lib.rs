//! A UCI engine for classic chess, Chess960 and 4D Tesseract chess, on the Tesseract engine
//!
//! The rules and the figures it follows are the project's contract, [`tesseract_board::rules`] (RULES.md).
//! (`tesseract-search`): the `tesseract-uci` binary, and this library, which holds its parts.
//!
//! - [`command`]: one line of input parsed into a [`Command`](command::Command), or a typed error
//!   saying what is wrong and at which column;
//! - [`lines`]: input lines of bounded length (a longer line, or one that is not UTF-8, is reported and
//!   skipped, never held in memory);
//! - [`engine`]: the engine loop's state machine: options, the current game with its history (for
//!   repetitions), the search on its own thread with time management from `tesseract-search`'s
//!   [`Clock`](tesseract_search::Clock).
//!
//! [`run`] reads commands until `quit` or the end of the input. The crate's README documents the
//! protocol as this engine speaks it: the options, the 4D extension, the `UCI_Elo` mapping.
//!
//! ```
//! use std::io::Cursor;
//! use std::sync::{Arc, Mutex};
//! // A writer the example can read back.
//! #[derive(Clone, Default)]
//! struct Shared(Arc<Mutex<Vec<u8>>>);
//! impl std::io::Write for Shared {
//!     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
//!     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! }
//! let out = Shared::default();
//! let input = "position startpos moves e2e4\ngo depth 3\n";
//! tesseract_uci::run(Cursor::new(input), Box::new(out.clone()))?;
//! let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
//! assert!(text.lines().last().unwrap().starts_with("bestmove "));
//! # Ok::<_, std::io::Error>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use std::io::{self, BufRead, Write};

pub mod command;
pub mod engine;
pub mod lines;

pub use engine::{Engine, Flow};
pub use lines::{Line, LineReader, MAX_LINE};

/// Reads commands from `input` and answers on `output` until `quit` or the end of the input (where a
/// search with limits is let finish and an infinite one is stopped, each printing its `bestmove`).
///
/// # Errors
/// The input's read errors (the search is stopped first).
pub fn run(input: impl BufRead, output: Box<dyn Write + Send>) -> io::Result<()> {
    let mut engine = Engine::new(output);
    let mut reader = LineReader::new(input, MAX_LINE);
    loop {
        match reader.next_line() {
            Ok(Some(line)) => {
                if engine.handle(&line) == Flow::Quit {
                    return Ok(());
                }
            }
            Ok(None) => {
                engine.finish();
                return Ok(());
            }
            Err(e) => {
                engine.finish();
                return Err(e);
            }
        }
    }
}

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
