//! Fuzz target: the position-text and move-text parsers of tesseract-board with arbitrary bytes.
//!
//! Checked on every input: nothing panics; a text that parses into a valid position prints to a text that
//! parses back into the same position; a move text that parses prints back to itself; read for a board of
//! one to four axes (`TextMove::parse_for`), a text parses exactly when it parses without one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tesseract_board::{Position, Shape, TextMove};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = Position::from_fen(text) {
        let again = Position::from_fen_with_mode(&pos.fen(), pos.castling_mode()).expect("printed text parses");
        assert_eq!(again, pos);
    }
    let parsed = TextMove::parse(text);
    if let Ok(m) = &parsed {
        assert_eq!(m.to_string(), text);
    }
    for dims in 1..=4 {
        let g = Shape::new(dims, 5).expect("a shape").geometry();
        assert_eq!(TextMove::parse_for(text, g).ok(), parsed.clone().ok());
    }
});
