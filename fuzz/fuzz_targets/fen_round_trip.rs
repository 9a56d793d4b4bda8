//! Fuzz target: position text read, written, read again (FEN, X-FEN, Shredder-FEN, TFEN).
//!
//! Checked on every input: nothing panics; a text that reads into a setup is written by `Setup::fen` (or
//! refused with a reason) to a text that reads back to the same setup, in both castling notations; a text
//! that reads into a valid position writes a text that reads back to the same position and hash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tesseract_board::fen::CastlingNotation;
use tesseract_board::{Position, Setup};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(setup) = text.parse::<Setup>() {
        for notation in [CastlingNotation::XFen, CastlingNotation::Shredder] {
            let written = setup.fen_with(notation).expect("a setup read from text can be written");
            let again: Setup = written.parse().expect("written text reads");
            assert_eq!(again, setup, "{text:?} -> {written:?}");
        }
    }
    if let Ok(pos) = Position::from_fen(text) {
        for notation in [CastlingNotation::XFen, CastlingNotation::Shredder] {
            let written = pos.fen_with(notation);
            let again = Position::from_fen_with_mode(&written, pos.castling_mode()).expect("written text reads");
            assert_eq!(again, pos, "{text:?} -> {written:?}");
            assert_eq!(again.hash(), pos.hash());
        }
    }
});
