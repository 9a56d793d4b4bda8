//! Fuzz target: the saved-game JSON of `tesseract-search` (what `play` saves and loads).
//!
//! Checked on every input: nothing panics; a record that reads either replays into a game or is refused
//! with the move that does not play; a game that replays saves to JSON that reads back to the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tesseract_search::{Game, GameRecord};

fuzz_target!(|data: &[u8]| {
    let Ok(record) = serde_json::from_slice::<GameRecord>(data) else { return };
    let Ok(game) = Game::from_record(&record) else { return };
    let again = game.record(record.white, record.black);
    assert_eq!(again, record);
    let json = serde_json::to_string(&again).expect("a record serializes");
    assert_eq!(serde_json::from_str::<GameRecord>(&json).expect("saved JSON reads"), record);
});
