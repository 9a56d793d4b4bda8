//! Reproducibility: a recorded 40-ply engine-vs-engine game replays with every move identical, and
//! games played twice from the same seed are the same game.
//!
//! The record in `tests/data/replay_40.txt` pins the engine's behaviour like the bench signature does:
//! a deliberate change of behaviour regenerates it, in the same commit, with
//! `TESSERACT_WRITE_REPLAY=1 cargo test --release -p tesseract-search --test replay -- --ignored write_record`.

use tesseract_board::{Color, TextMove, start};
use tesseract_search::{Game, GameRecord, Player, Searcher, Tier};

const RECORD: &str = include_str!("data/replay_40.txt");
const RECORD_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/replay_40.txt");

/// Reads the record's `key value` lines.
fn parse_record(text: &str) -> GameRecord {
    let mut start = None;
    let mut seed = None;
    let mut white = None;
    let mut black = None;
    let mut moves = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (key, value) = line.split_once(' ').expect("key value");
        match key {
            "start" => start = Some(start::by_name(value).expect("a start name")),
            "seed" => seed = Some(value.parse().expect("a seed")),
            "white" => white = Some(value.parse::<Player>().expect("a player")),
            "black" => black = Some(value.parse::<Player>().expect("a player")),
            "moves" => moves = value.split(' ').map(|m| m.parse::<TextMove>().expect("a move")).collect(),
            _ => panic!("unknown key {key}"),
        }
    }
    GameRecord { start: start.unwrap(), seed: seed.unwrap(), white: white.unwrap(), black: black.unwrap(), moves }
}

/// Plays `plies` plies between two players from `start_name`.
fn self_play(start_name: &str, seed: u64, players: [Tier; 2], plies: usize) -> Game {
    let mut game = Game::new(start::by_name(start_name).unwrap(), seed);
    let mut searchers = [Searcher::new(1), Searcher::new(1)];
    while game.moves().len() < plies && game.status().is_none() {
        let side = if game.position().turn() == Color::White { 0 } else { 1 };
        let r = game.think_unguarded(&mut searchers[side], players[side], |_| {});
        game.play(r.best_move.unwrap()).unwrap();
    }
    game
}

#[test]
fn recorded_game_replays_identically() {
    let record = parse_record(RECORD);
    assert_eq!(record.moves.len(), 40);
    let mut searcher = Searcher::new(1);
    let game = record.verify(&mut searcher, |_, _| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.moves().len(), 40);
}

#[test]
#[ignore = "writes tests/data/replay_40.txt when TESSERACT_WRITE_REPLAY is set"]
fn write_record() {
    if std::env::var_os("TESSERACT_WRITE_REPLAY").is_none() {
        return;
    }
    let (start_name, seed, white, black) = ("standard", 40, Tier::Beginner, Tier::Club);
    let game = self_play(start_name, seed, [white, black], 40);
    let moves: Vec<String> = game.move_texts().iter().map(ToString::to_string).collect();
    let text = format!(
        "# A 40-ply engine-vs-engine game; see tests/replay.rs.\nstart {start_name}\nseed {seed}\nwhite {white}\nblack {black}\nmoves {}\n",
        moves.join(" ")
    );
    std::fs::write(RECORD_PATH, text).unwrap();
}

#[test]
fn same_seed_same_game() {
    let a = self_play("classic", 7, [Tier::Beginner, Tier::Beginner], 16);
    let b = self_play("classic", 7, [Tier::Beginner, Tier::Beginner], 16);
    assert_eq!(a.moves(), b.moves());
    // The record of the game replays, engine moves re-thought.
    let record = a.record(Player::Engine(Tier::Beginner), Player::Engine(Tier::Beginner));
    let mut searcher = Searcher::new(1);
    let replayed = record.verify(&mut searcher, |_, _| {}).unwrap();
    assert_eq!(replayed.moves(), a.moves());
    // A record with a move the engine would not play is caught.
    let mut wrong = record.clone();
    let other = tesseract_movegen::legal_moves(replayed.start())
        .iter()
        .map(|&m| TextMove::from_move(m, replayed.start()))
        .find(|t| *t != record.moves[0])
        .unwrap();
    wrong.moves[0] = other;
    assert!(matches!(
        wrong.verify(&mut searcher, |_, _| {}),
        Err(tesseract_search::RecordError::EngineMismatch { ply: 1, .. })
    ));
}

#[test]
fn game_rules_and_undo() {
    let mut game = Game::new(start::chess(), 1);
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        game.play_text(m).unwrap();
        assert_eq!(game.status(), None);
    }
    game.play_text("f6g8").unwrap();
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.status(), Some(tesseract_search::GameEnd::draw(tesseract_movegen::Termination::Threefold)));
    assert!(game.undo().is_some());
    assert_eq!(game.status(), None);
    assert!(game.play_text("e2e5").is_err());
    assert_eq!(game.moves().len(), 7);
    let record = game.record(Player::Human, Player::Human);
    let back = Game::from_record(&record).unwrap();
    assert_eq!(back.position(), game.position());
    assert_eq!(back.history(), game.history());
}

#[cfg(feature = "serde")]
#[test]
fn json_round_trip() {
    let record = parse_record(RECORD);
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains("\"white\":\"beginner\""), "{json}");
    let back: GameRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, record);
    assert!(serde_json::from_str::<GameRecord>(&json.replace("beginner", "wizard")).is_err());
}
