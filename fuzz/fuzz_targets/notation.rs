//! Fuzz target: the position-text and move-text parsers of tesseract-board with arbitrary bytes.
//!
//! Checked on every input: nothing panics; a text that parses into a valid position prints to a text that
//! parses back into the same position; a move text that parses prints back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tesseract_board::{Position, TextMove};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = Position::from_fen(text) {
        let again = Position::from_fen_with_mode(&pos.fen(), pos.castling_mode()).expect("printed text parses");
        assert_eq!(again, pos);
    }
    if let Ok(m) = TextMove::parse(text) {
        assert_eq!(m.to_string(), text);
    }
});
