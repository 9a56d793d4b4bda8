//! Fuzz target: the Four Tac Toe state text.
//!
//! Checked on every input: nothing panics; a text that reads into a game writes back to the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tesseract_tactoe::Game;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(game) = Game::from_text(text) {
        let written = game.text();
        assert_eq!(written, text);
        assert_eq!(Game::from_text(&written).expect("written text reads").text(), written);
    }
});
