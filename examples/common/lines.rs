//! Standard input for the interactive examples: lines of at most [`MAX_LINE`] bytes, read with the bounded
//! reader of `tesseract-uci` (a longer line, or one that is not UTF-8, is answered and skipped, never kept).

use std::io::StdinLock;

pub use tesseract::uci::{Line, LineReader};

/// The longest line accepted, in bytes, not counting its line ending: commands and moves are short.
pub const MAX_LINE: usize = 4096;

/// The lines of standard input.
pub fn stdin_lines() -> LineReader<StdinLock<'static>> {
    LineReader::new(std::io::stdin().lock(), MAX_LINE)
}
