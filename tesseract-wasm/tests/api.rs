//! The plain-Rust layer of the JavaScript API, natively: every expected figure comes from RULES.md or from
//! the rules of chess and Four Tac Toe, never from running this code.

use serde_json::Value;
use tesseract_board::{CastlingMode, Color, Piece, Position, Role, Setup, Shape};
use tesseract_wasm::{Chess, Engine, TacToe};

const CLASSIC_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn moves(game: &Chess) -> Vec<Value> {
    match json(&game.legal_moves()) {
        Value::Array(list) => list,
        other => panic!("legalMoves is not an array: {other}"),
    }
}

fn texts(game: &Chess) -> Vec<String> {
    moves(game).iter().map(|m| m["text"].as_str().expect("text is a string").to_string()).collect()
}

/// Everything a page can see of a game, to check that a refused call changed nothing.
fn snapshot(game: &Chess) -> [String; 6] {
    [game.text(), game.history(), game.turn(), game.board(), game.legal_moves(), game.last_move()]
}

fn start(name: &str) -> Chess {
    Chess::start(name, 1.0).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn from_text(text: &str) -> Chess {
    Chess::from_text(text, 1.0).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play_all(game: &mut Chess, line: &str) {
    for m in line.split_whitespace() {
        game.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn start_names_and_shapes() {
    for (name, dims, side) in
        [("light", 4, 5), ("standard", 4, 5), ("dense", 4, 5), ("classic", 2, 8), ("chess960:518", 2, 8)]
    {
        let game = start(name);
        assert_eq!((game.dims(), game.side()), (dims, side), "{name}");
        assert_eq!(game.board().len(), (side as usize).pow(dims), "{name}");
        assert_eq!(game.turn(), "w");
        assert_eq!(game.status(), None);
        assert_eq!(game.seed(), 1.0);
    }
    // The board crate's 3D start is not offered here: this API plays on 8×8 and 5⁴ only.
    assert!(Chess::start("raumschach", 1.0).unwrap_err().contains("3 axes of side 5"));
    for bad in ["", "Standard", "chess", "chess960:960", "chess960:x", "chess960:", "standard "] {
        let err = Chess::start(bad, 1.0).unwrap_err();
        assert!(!err.is_empty(), "{bad:?}");
    }
}

#[test]
fn seeds_must_be_exact_javascript_integers() {
    assert_eq!(Chess::start("classic", 9_007_199_254_740_991.0).unwrap().seed(), 9_007_199_254_740_991.0);
    for bad in [-1.0, 0.5, 9_007_199_254_740_992.0, f64::NAN, f64::INFINITY] {
        assert!(Chess::start("classic", bad).is_err(), "{bad}");
        assert!(Chess::from_text(CLASSIC_FEN, bad).is_err(), "{bad}");
    }
}

#[test]
fn the_board_in_index_order() {
    // a1 = 0 ... h1 = 7, a2 = 8, ..., h8 = 63 (RULES.md §1).
    let classic = start("classic").board();
    assert_eq!(classic, format!("RNBQKBNRPPPPPPPP{}pppppppprnbqkbnr", ".".repeat(32)));
    assert_eq!(start("classic").text(), CLASSIC_FEN);
    // The standard army: 32 pieces a side; the white king on (3,1,1,1), the black one on (3,5,5,5).
    let board = start("standard").board();
    assert_eq!(board.chars().filter(char::is_ascii_uppercase).count(), 32);
    assert_eq!(board.chars().filter(char::is_ascii_lowercase).count(), 32);
    let idx = |x: usize, y: usize, z: usize, w: usize| (x - 1) + 5 * (y - 1) + 25 * (z - 1) + 125 * (w - 1);
    assert_eq!(board.as_bytes()[idx(3, 1, 1, 1)], b'K');
    assert_eq!(board.as_bytes()[idx(3, 5, 5, 5)], b'k');
    // Y-pawns on (x, 2, z, 3) and W-pawns on (x, 3, z, 2) for z in the band {1, 5}.
    assert_eq!(board.as_bytes()[idx(2, 2, 1, 3)], b'Y');
    assert_eq!(board.as_bytes()[idx(4, 3, 5, 2)], b'W');
    assert_eq!(board.as_bytes()[idx(2, 4, 5, 3)], b'y');
}

#[test]
fn legal_move_counts_from_the_starts() {
    // RULES.md §3 and §5.
    for (name, count) in [("standard", 226), ("light", 220), ("dense", 236), ("classic", 20)] {
        assert_eq!(moves(&start(name)).len(), count, "{name}");
    }
}

/// perft through the API: legalMoves, play and undo only.
fn perft(game: &mut Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let texts = texts(game);
    if depth == 1 {
        return texts.len() as u64;
    }
    let mut nodes = 0;
    for text in texts {
        game.play(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        nodes += perft(game, depth - 1);
        assert_eq!(game.undo().as_deref(), Some(text.as_str()));
    }
    nodes
}

#[test]
fn perft_2_through_the_api() {
    // RULES.md §3 (standard army) and §5 (chess).
    for (name, nodes) in [("standard", 50_420), ("classic", 400)] {
        let mut game = start(name);
        let before = snapshot(&game);
        assert_eq!(perft(&mut game, 2), nodes, "{name}");
        assert_eq!(snapshot(&game), before, "{name}: the walk left the game changed");
    }
}

#[test]
fn move_entries_name_their_cells() {
    let game = start("classic");
    // e2 is cell 12: e2e3 and e2e4.
    let from_e2 = json(&game.moves_from(12.0).unwrap());
    let mut found: Vec<(String, u64)> = from_e2
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["text"].as_str().unwrap().to_string(), m["to"].as_u64().unwrap()))
        .collect();
    found.sort();
    assert_eq!(found, [("e2e3".to_string(), 20), ("e2e4".to_string(), 28)]);
    for m in from_e2.as_array().unwrap() {
        assert_eq!(m["from"], 12);
        assert!(m["promotion"].is_null() && m["kingTo"].is_null(), "{m}");
    }
    // An empty cell has no moves; a number that is no cell is refused.
    assert_eq!(game.moves_from(28.0).unwrap(), "[]");
    for bad in [-1.0, 64.0, 1.5, f64::NAN] {
        assert!(game.moves_from(bad).is_err(), "{bad}");
    }
    // A 4D move: the Y-pawn at (2,2,1,3) steps to (2,3,1,3) (RULES.md §4).
    let tess = start("standard");
    let m = moves(&tess).into_iter().find(|m| m["text"] == "22132313").expect("22132313 is legal at the start");
    assert_eq!((m["from"].as_u64(), m["to"].as_u64()), (Some(1 + 5 + 250), Some(1 + 10 + 250)));
}

#[test]
fn castling_in_classic_mode_names_the_king_cell() {
    let mut game = from_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let king: Vec<Value> = json(&game.moves_from(4.0).unwrap()).as_array().unwrap().clone();
    let castle =
        |text: &str| king.iter().find(|m| m["text"] == text).unwrap_or_else(|| panic!("{text} missing")).clone();
    // e1g1: to g1 (6), the king ends on g1; e1c1: to c1 (2), the king ends on c1.
    assert_eq!((castle("e1g1")["to"].as_u64(), castle("e1g1")["kingTo"].as_u64()), (Some(6), Some(6)));
    assert_eq!((castle("e1c1")["to"].as_u64(), castle("e1c1")["kingTo"].as_u64()), (Some(2), Some(2)));
    let others = king.iter().filter(|m| !m["kingTo"].is_null()).count();
    assert_eq!(others, 2, "only the two castling moves have kingTo");
    game.play("e1g1").unwrap();
    assert_eq!(&game.board()[..8], "R....RK.");
    assert_eq!(game.last_move(), r#"{"from":4,"to":6}"#);
}

#[test]
fn castling_in_chess960_mode_is_king_takes_rook() {
    // King on g1, rooks on b1 and h1; Shredder-FEN rights put the game in Chess960 mode.
    let mut game = from_text("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
    let king: Vec<Value> = json(&game.moves_from(6.0).unwrap()).as_array().unwrap().clone();
    let castle =
        |text: &str| king.iter().find(|m| m["text"] == text).unwrap_or_else(|| panic!("{text} missing")).clone();
    // O-O: g1h1, "to" the rook's cell h1 (7), the king stays on g1 (6).
    assert_eq!((castle("g1h1")["to"].as_u64(), castle("g1h1")["kingTo"].as_u64()), (Some(7), Some(6)));
    // O-O-O: g1b1, "to" b1 (1), the king ends on c1 (2).
    assert_eq!((castle("g1b1")["to"].as_u64(), castle("g1b1")["kingTo"].as_u64()), (Some(1), Some(2)));
    assert_eq!(king.iter().filter(|m| !m["kingTo"].is_null()).count(), 2);
    game.play("g1b1").unwrap();
    // The king on c1, the rook on d1.
    assert_eq!(&game.board()[..8], "..KR...R");
    assert_eq!(game.last_move(), r#"{"from":6,"to":1}"#);
    // The text keeps Chess960 mode: it reads back to the same game.
    let again = from_text(&game.text());
    assert_eq!(again.legal_moves(), game.legal_moves());
    // A Chess960 start by name is in Chess960 mode too: position 518 castles king-takes-rook.
    let mut c = start("chess960:518");
    play_all(&mut c, "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5");
    assert!(texts(&c).contains(&"e1h1".to_string()));
    assert!(!texts(&c).contains(&"e1g1".to_string()));
}

#[test]
fn promotions_are_separate_entries() {
    // 2D: the pawn on a7 promotes on a8 (cell 56) to Q, R, B or N.
    let mut game = from_text("8/P7/8/8/8/8/8/k6K w - - 0 1");
    let pawn = json(&game.moves_from(48.0).unwrap());
    let mut promos: Vec<(String, String)> = pawn
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["to"], 56);
            (m["promotion"].as_str().unwrap().to_string(), m["text"].as_str().unwrap().to_string())
        })
        .collect();
    promos.sort();
    let want: Vec<(String, String)> =
        [("B", "a7a8b"), ("N", "a7a8n"), ("Q", "a7a8q"), ("R", "a7a8r")].map(|(a, b)| (a.into(), b.into())).into();
    assert_eq!(promos, want);
    let before = snapshot(&game);
    let err = game.play("a7a8").unwrap_err();
    assert!(err.contains("promot"), "{err}");
    assert_eq!(snapshot(&game), before);
    game.play("a7a8n").unwrap();
    assert_eq!(game.board().as_bytes()[56], b'N');

    // 4D: a Y-pawn on (1,4,1,3) promotes on (1,5,1,3) to Q, R, B, N, U or D (RULES.md §2).
    let mut setup = Setup::empty(Shape::TESSERACT);
    setup.put(&[1, 4, 1, 3], Some(Piece::new(Color::White, Role::YPawn)));
    setup.put(&[5, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
    setup.put(&[5, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
    let pos = Position::from_setup(setup, CastlingMode::Standard).expect("a valid 4D position");
    let game = from_text(&pos.fen());
    let from = 15 + 250;
    let mut promos: Vec<String> = json(&game.moves_from(from as f64).unwrap())
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["to"], 20 + 250);
            let p = m["promotion"].as_str().unwrap().to_string();
            assert_eq!(m["text"], format!("14131513{p}"));
            p
        })
        .collect();
    promos.sort();
    assert_eq!(promos, ["B", "D", "N", "Q", "R", "U"]);
}

#[test]
fn illegal_and_unparsable_moves_are_refused_and_change_nothing() {
    let mut game = start("classic");
    game.play("e2e4").unwrap();
    let before = snapshot(&game);
    let long = "e".repeat(10_000);
    for bad in
        ["e2e5", "e7e6x", "d2d4", "e4e5e6", "zz", "", "22132313", "e9e8", "e7e5 ", "\u{0}", "é2é4", long.as_str()]
    {
        let err = game.play(bad).unwrap_err();
        assert!(!err.is_empty(), "{bad:?}");
        assert!(err.len() < 300, "the message echoes the input whole: {err}");
        assert_eq!(snapshot(&game), before, "{bad:?} changed the game");
    }
    let mut tess = start("standard");
    let before = snapshot(&tess);
    for bad in ["e2e4", "2213231", "22132314", "22132313R", "66666666", "11111111"] {
        assert!(tess.play(bad).is_err(), "{bad}");
        assert_eq!(snapshot(&tess), before, "{bad:?} changed the game");
    }
    // The messages say what is wrong.
    assert_eq!(
        start("classic").play("e2e5").unwrap_err(),
        "e2e5 is not a legal move here: that piece cannot move there"
    );
}

#[test]
fn bad_position_texts_are_refused() {
    for bad in ["", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "8/8/8/8/8/8/8/8 w - - 0 1", "x w - - 0 1"] {
        assert!(Chess::from_text(bad, 0.0).is_err(), "{bad:?}");
    }
    // Valid positions on boards the API does not offer: 6×6 (2 axes) and 3×3×3 (3 axes).
    for other in ["k5/6/6/6/6/5K w - - 0 1", "k2/3/3//3/3/3//3/3/2K w - - 0 1"] {
        assert!(tesseract_board::Position::from_fen(other).is_ok(), "{other} is a valid position");
        let err = Chess::from_text(other, 0.0).unwrap_err();
        assert!(err.contains("this API plays chess on 8x8"), "{other}: {err}");
        let record = format!(r#"{{"start":"{other}","seed":1,"white":"human","black":"club","moves":[]}}"#);
        assert!(Chess::from_record(&record).unwrap_err().contains("the record's start"), "{other}");
    }
}

#[test]
fn history_last_move_and_undo() {
    let mut game = start("classic");
    assert_eq!((game.history(), game.last_move(), game.undo()), ("[]".to_string(), "null".to_string(), None));
    play_all(&mut game, "e2e4 c7c5");
    assert_eq!(game.history(), r#"["e2e4","c7c5"]"#);
    // c7 = 50, c5 = 34.
    assert_eq!(game.last_move(), r#"{"from":50,"to":34}"#);
    assert_eq!(game.undo().as_deref(), Some("c7c5"));
    assert_eq!(game.last_move(), r#"{"from":12,"to":28}"#);
    assert_eq!(game.turn(), "b");
    assert_eq!(game.undo().as_deref(), Some("e2e4"));
    assert_eq!(game.text(), CLASSIC_FEN);
}

#[test]
fn cell_names() {
    let classic = start("classic");
    assert_eq!(classic.cell_name(0.0).unwrap(), "a1");
    assert_eq!(classic.cell_name(28.0).unwrap(), "e4");
    assert_eq!(classic.cell_name(63.0).unwrap(), "h8");
    let tess = start("standard");
    assert_eq!(tess.cell_name((1 + 5 + 250) as f64).unwrap(), "2213");
    assert_eq!(tess.cell_name(624.0).unwrap(), "5555");
    for bad in [-1.0, 625.0, 0.5, f64::NAN, f64::INFINITY] {
        assert!(tess.cell_name(bad).is_err(), "{bad}");
    }
    assert!(classic.cell_name(64.0).is_err());
}

#[test]
fn records_round_trip() {
    let mut game = Chess::start("classic", 7.0).unwrap();
    play_all(&mut game, "e2e4 c7c5 g1f3");
    let record = game.record("human", "club").unwrap();
    let value = json(&record);
    assert_eq!(value["start"], CLASSIC_FEN);
    assert_eq!(value["seed"], 7);
    assert_eq!((value["white"].as_str(), value["black"].as_str()), (Some("human"), Some("club")));
    assert_eq!(value["moves"], json(r#"["e2e4","c7c5","g1f3"]"#));
    let back = Chess::from_record(&record).unwrap();
    assert_eq!(snapshot(&back), snapshot(&game));
    assert_eq!(back.seed(), 7.0);
    assert_eq!(back.record("human", "club").unwrap(), record);
    for player in ["human", "beginner", "club", "expert", "master"] {
        assert!(game.record(player, player).is_ok(), "{player}");
    }
    for bad in ["", "Human", "grandmaster", "engine"] {
        assert!(game.record(bad, "human").is_err(), "{bad:?}");
        assert!(game.record("human", bad).is_err(), "{bad:?}");
    }
    // A Chess960 game's record keeps the mode.
    let mut c = Chess::start("chess960:0", 3.0).unwrap();
    let first = texts(&c)[0].clone();
    c.play(&first).unwrap();
    let back = Chess::from_record(&c.record("master", "human").unwrap()).unwrap();
    assert_eq!(snapshot(&back), snapshot(&c));
    // A 4D game.
    let mut t = Chess::start("dense", 11.0).unwrap();
    t.play("22132313").unwrap();
    let back = Chess::from_record(&t.record("human", "expert").unwrap()).unwrap();
    assert_eq!(snapshot(&back), snapshot(&t));
}

#[test]
fn bad_records_are_refused_with_the_reason() {
    let ok = format!(r#"{{"start":"{CLASSIC_FEN}","seed":1,"white":"human","black":"club","moves":["e2e4"]}}"#);
    assert!(Chess::from_record(&ok).is_ok());
    let cases = [
        ("", "not a game record"),
        ("{", "not a game record"),
        ("[]", "not a game record"),
        (r#"{"start":"x","seed":1,"white":"human","black":"club","moves":[]}"#, "not a game record"),
        (&ok.replace("\"human\"", "\"robot\""), "robot"),
        (&ok.replace("\"seed\":1", "\"seed\":-1"), "not a game record"),
        (&ok.replace("\"seed\":1", "\"seed\":9007199254740992"), "2^53"),
        (&ok.replace(r#"["e2e4"]"#, r#"["e2e4","e2e4"]"#), "move 2"),
        (&ok.replace(r#"["e2e4"]"#, r#"["e2e5"]"#), "move 1"),
        (&ok.replace(r#"["e2e4"]"#, r#"["zz"]"#), "not a game record"),
    ];
    for (text, says) in cases {
        let err = Chess::from_record(text).unwrap_err();
        assert!(err.contains(says), "{text}: {err:?} does not say {says:?}");
    }
}

#[test]
fn checkmate_and_stalemate() {
    // Fool's mate: 1. f3 e5 2. g4 Qh4#.
    let mut game = start("classic");
    play_all(&mut game, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(game.status().as_deref(), Some("checkmate, black wins"));
    assert_eq!(game.winner().as_deref(), Some("b"));
    assert!(game.in_check());
    assert_eq!(game.king_in_check(), 4, "the white king on e1");
    assert_eq!(game.legal_moves(), "[]");
    let err = Engine::new().think(&game, "beginner").unwrap_err();
    assert!(err.contains("checkmate"), "{err}");
    assert!(game.play("e1f2").is_err());
    assert_eq!(game.undo().as_deref(), Some("d8h4"));
    assert_eq!((game.status(), game.winner(), game.in_check(), game.king_in_check()), (None, None, false, -1));

    // Black to move, not in check, no legal move.
    let stale = from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stale.status().as_deref(), Some("stalemate, a draw"));
    assert_eq!((stale.winner(), stale.in_check(), stale.king_in_check()), (None, false, -1));
    assert!(Engine::new().think(&stale, "club").is_err());

    // Check, not mate: 1. e4 f6 2. Qh5+ (the black king on e8, cell 60).
    let mut check = start("classic");
    play_all(&mut check, "e2e4 f7f6 d1h5");
    assert_eq!((check.in_check(), check.king_in_check(), check.status()), (true, 60, None));
}

fn think(engine: &mut Engine, game: &Chess, tier: &str) -> Value {
    json(&engine.think(game, tier).unwrap_or_else(|e| panic!("{tier}: {e}")))
}

#[test]
fn the_engine_plays_a_legal_move_and_the_same_one_for_the_same_seed() {
    for (name, line) in [("classic", "e2e4"), ("standard", "22132313")] {
        let mut game = Chess::start(name, 5.0).unwrap();
        play_all(&mut game, line);
        let before = snapshot(&game);
        let mut engine = Engine::new();
        let a = think(&mut engine, &game, "beginner");
        assert_eq!(snapshot(&game), before, "think changed the game");
        let mv = a["move"].as_str().unwrap().to_string();
        assert!(texts(&game).contains(&mv), "{name}: {mv} is not legal");
        let score = a["score"].as_str().unwrap();
        assert!(score.starts_with("cp ") || score.starts_with("mate "), "{score}");
        assert!(a["depth"].as_u64().unwrap() >= 1 && a["nodes"].as_u64().unwrap() >= 1 && a["ms"].is_u64(), "{a}");
        // The score in words names the side that is better, or says the game is even, and the depth.
        let words = a["words"].as_str().unwrap();
        let depth = format!("looking {} move", a["depth"]);
        assert!(
            words.contains(&depth) && (words.contains("is better by about") || words.starts_with("about even")),
            "{words}"
        );
        // The same engine again, and a new one: the same move.
        assert_eq!(think(&mut engine, &game, "beginner")["move"], mv.as_str());
        assert_eq!(think(&mut Engine::new(), &game, "beginner")["move"], mv.as_str());
        // The tier's table changes size between tiers and back.
        let club = think(&mut engine, &game, "club")["move"].as_str().unwrap().to_string();
        assert!(texts(&game).contains(&club), "{name}: {club} is not legal");
        assert_eq!(think(&mut engine, &game, "beginner")["move"], mv.as_str());
        game.play(&mv).unwrap();
    }
    for bad in ["", "Beginner", "human", "grandmaster"] {
        let err = Engine::new().think(&start("classic"), bad).unwrap_err();
        assert!(err.contains("unknown tier"), "{bad:?}: {err}");
    }
}

#[test]
fn the_engine_mates_in_one() {
    // A back-rank mate: Ra8#, the only mate.
    let game = from_text("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let answer = think(&mut Engine::new(), &game, "club");
    assert_eq!(answer["move"], "a1a8");
    assert_eq!(answer["score"], "mate 1");
}

fn tactoe_cell(name: &str) -> f64 {
    let b = name.as_bytes();
    let c = |i: usize| f64::from(b[i] - b'1');
    c(0) + 3.0 * c(1) + 9.0 * c(2) + 27.0 * c(3)
}

#[test]
fn tactoe_claims_scores_and_undo() {
    // The crate's example: X takes 1111, 3111, 2211, 2311; O answers far away; 2111 then completes
    // 1111-2111-3111 (along x) and 2111-2211-2311 (along y): two points.
    let mut t = TacToe::new();
    assert_eq!((t.to_move(), t.scores(), t.is_over(), t.outcome()), ("X".into(), "[0,0]".into(), false, None));
    for name in ["1111", "3333", "3111", "3332", "2211", "3323", "2311", "1333"] {
        assert_eq!(t.claim(tactoe_cell(name)).unwrap(), 0, "{name}");
    }
    assert_eq!(t.to_move(), "X");
    assert_eq!(t.claim(tactoe_cell("2111")).unwrap(), 2);
    assert_eq!(t.scores(), "[2,0]");
    assert_eq!(t.to_move(), "O");
    let lines = json(&t.completed_lines());
    assert_eq!(lines, json(r#"[{"cells":[0,1,2],"player":"X"},{"cells":[1,4,7],"player":"X"}]"#));
    let owners = t.owners();
    assert_eq!(owners.len(), 81);
    assert_eq!(&owners[40..41], "#");
    let x: Vec<f64> = ["1111", "3111", "2211", "2311", "2111"].map(tactoe_cell).into();
    let o: Vec<f64> = ["3333", "3332", "3323", "1333"].map(tactoe_cell).into();
    for (i, c) in owners.char_indices() {
        let want = match i as f64 {
            i if x.contains(&i) => 'X',
            i if o.contains(&i) => 'O',
            40.0 => '#',
            _ => '.',
        };
        assert_eq!(c, want, "cell {i}");
    }
    assert_eq!(t.cell_name(1.0).unwrap(), "2111");
    assert_eq!(t.cell_name(40.0).unwrap(), "2222");
    // The text reads back, with the same scores.
    let back = TacToe::from_text(&t.text()).unwrap();
    assert_eq!((back.owners(), back.scores(), back.to_move()), (t.owners(), t.scores(), t.to_move()));
    // Refused claims change nothing.
    let before = (t.text(), t.scores());
    for bad in [40.0, 0.0, 81.0, -1.0, 2.5, f64::NAN] {
        assert!(t.claim(bad).is_err(), "{bad}");
        assert!(!t.can_claim(bad), "{bad}");
        assert_eq!((t.text(), t.scores()), before);
    }
    assert!(t.claim(40.0).unwrap_err().contains("centre"));
    assert!(t.can_claim(3.0));
    // Undo gives back the cells, last first.
    assert_eq!(t.undo(), 1);
    assert_eq!(t.scores(), "[0,0]");
    assert_eq!(t.completed_lines(), "[]");
    assert_eq!(TacToe::new().undo(), -1);
    // A game read from text has no claims to take back.
    assert_eq!(TacToe::from_text(&back.text()).unwrap().undo(), -1);
    for bad in ["", "X", "3/3/3 X", "3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3 O"] {
        assert!(TacToe::from_text(bad).is_err(), "{bad:?}");
    }
    for bad in [-1.0, 81.0, 0.5] {
        assert!(t.cell_name(bad).is_err(), "{bad}");
    }
}

#[test]
fn tactoe_engine() {
    // X to claim after 1111, 3333, 2111, 1233: 3111 completes 1111-2111-3111.
    let mut t = TacToe::new();
    for name in ["1111", "3333", "2111", "1233"] {
        t.claim(tactoe_cell(name)).unwrap();
    }
    assert_eq!(t.engine_move(2.0).unwrap() as f64, tactoe_cell("3111"));
    for bad in [0.0, 6.0, 2.5, -1.0, f64::NAN] {
        assert!(t.engine_move(bad).is_err(), "{bad}");
    }
    // Level 1 against itself to the end: 80 claims, then the game is over.
    let mut t = TacToe::new();
    for ply in 0..80 {
        let cell = t.engine_move(1.0).unwrap();
        assert!(t.can_claim(f64::from(cell)), "ply {ply}: {cell}");
        t.claim(f64::from(cell)).unwrap();
    }
    assert!(t.is_over());
    let scores: Vec<u32> = serde_json::from_str(&t.scores()).unwrap();
    let want = match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => "X wins",
        std::cmp::Ordering::Less => "O wins",
        std::cmp::Ordering::Equal => "draw",
    };
    assert_eq!(t.outcome().as_deref(), Some(want));
    assert!(t.engine_move(1.0).is_err());
    assert!(!t.owners().contains('.'));
    assert!(t.claim(0.0).unwrap_err().contains("over"));
}

#[test]
fn notation_is_san_in_2d_and_the_long_form_in_4d() {
    let mut game = start("classic");
    assert_eq!(game.notation(), "[]");
    // The Scholar's mate, as every chess book writes it.
    play_all(&mut game, "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7");
    assert_eq!(game.notation(), r#"["e4","e5","Bc4","Nc6","Qh5","Nf6","Qxf7#"]"#);
    assert_eq!(game.result(), "1-0");
    // Castling is written O-O.
    let mut c = from_text("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    c.play("e1g1").unwrap();
    assert_eq!(c.notation(), r#"["O-O"]"#);
    // 4D: a Y-pawn's double step from the standard army and a knight move, in the long form of RULES.md §4
    // (piece letter, from, '-' or 'x', to; a pawn is named by its letter Y or W).
    let mut t = start("standard");
    t.play("22132313").unwrap();
    let list = json(&t.notation());
    assert_eq!(list[0], "Y2213-2313");
}

#[test]
fn the_game_at_an_earlier_ply() {
    let mut game = start("classic");
    play_all(&mut game, "e2e4 c7c5 g1f3");
    let at0 = game.at(0.0).unwrap();
    assert_eq!((at0.text(), at0.history()), (CLASSIC_FEN.to_string(), "[]".to_string()));
    let at2 = game.at(2.0).unwrap();
    assert_eq!(at2.text(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    assert_eq!(at2.last_move(), r#"{"from":50,"to":34}"#);
    assert_eq!(snapshot(&game.at(3.0).unwrap()), snapshot(&game));
    assert_eq!(snapshot(&game.at(99.0).unwrap()), snapshot(&game));
    assert_eq!(game.at(1.0).unwrap().seed(), game.seed());
    for bad in [-1.0, 0.5, f64::NAN, f64::INFINITY] {
        assert!(game.at(bad).is_err(), "{bad}");
    }
    // The game itself is unchanged.
    assert_eq!(game.history(), r#"["e2e4","c7c5","g1f3"]"#);
}

#[test]
fn pgn_round_trips_through_the_record() {
    let mut game = Chess::start("classic", 7.0).unwrap();
    play_all(&mut game, "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7");
    let pgn = game.pgn("human", "club").unwrap();
    for part in ["[White \"human\"]", "[Black \"club\"]", "[Result \"1-0\"]", "[Seed \"7\"]", "4. Qxf7# 1-0"] {
        assert!(pgn.contains(part), "{part} not in\n{pgn}");
    }
    let record = Chess::record_from_pgn(&pgn).unwrap();
    assert_eq!(record, game.record("human", "club").unwrap());
    // A PGN from elsewhere: names that are not players are humans, no Seed tag is seed 0.
    let other = "[Event \"?\"]\n[White \"Morphy\"]\n[Black \"Duke\"]\n\n1. e4 e5 2. Nf3 d6 *\n";
    let value = json(&Chess::record_from_pgn(other).unwrap());
    assert_eq!(
        (value["white"].as_str(), value["black"].as_str(), value["seed"].as_u64()),
        (Some("human"), Some("human"), Some(0))
    );
    assert_eq!(value["moves"], json(r#"["e2e4","e7e5","g1f3","d7d6"]"#));
    // A Chess960 and a 4D game.
    let mut c = Chess::start("chess960:0", 3.0).unwrap();
    let first = texts(&c)[0].clone();
    c.play(&first).unwrap();
    let back = Chess::from_record(&Chess::record_from_pgn(&c.pgn("master", "human").unwrap()).unwrap()).unwrap();
    assert_eq!(snapshot(&back), snapshot(&c));
    let mut t = Chess::start("dense", 11.0).unwrap();
    t.play("22132313").unwrap();
    let back = Chess::from_record(&Chess::record_from_pgn(&t.pgn("human", "expert").unwrap()).unwrap()).unwrap();
    assert_eq!(snapshot(&back), snapshot(&t));
    assert_eq!(t.result(), "*");
    // Refused, with the reason.
    for (text, says) in [
        ("", "no game"),
        ("1. e4 e5 2. Ke3 *", "ply 3: Ke3 is not a legal move"),
        ("[Variant \"Crazyhouse\"]\n\n1. e4 *", "not a PGN game"),
        ("[Variant \"Tesseract\"]\n[FEN \"k5/6/6/6/6/5K w - - 0 1\"]\n\n*", "this API plays chess on 8x8"),
    ] {
        let err = Chess::record_from_pgn(text).unwrap_err();
        assert!(err.contains(says), "{text:?}: {err}");
    }
    assert!(game.pgn("robot", "human").is_err());
}

#[test]
fn variants() {
    assert_eq!(start("standard").variant(), "tesseract");
    assert_eq!(start("classic").variant(), "chess");
    assert_eq!(start("chess960:518").variant(), "chess960");
    assert_eq!(start("chess960:0").variant(), "chess960");
    assert_eq!(from_text(CLASSIC_FEN).variant(), "chess");
    assert_eq!(from_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").variant(), "chess960");
}

#[test]
fn tactoe_hover_hints() {
    let mut game = TacToe::new();
    // RULES.md §7: 14 playable lines pass through a corner; on an empty board all are X's to complete.
    let corner = tactoe_cell("1111");
    let hints = json(&game.hints(corner, "X").unwrap());
    assert_eq!((hints["player"].as_str(), hints["lines"].as_array().map(Vec::len)), (Some("X"), Some(14)));
    game.claim(corner).unwrap(); // X
    game.claim(tactoe_cell("2111")).unwrap(); // O blocks the line along x
    // O looks at X's corner: X's lines, one fewer, each with the corner held.
    let hints = json(&game.hints(corner, "O").unwrap());
    assert_eq!(hints["player"], "X");
    let lines = hints["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 13);
    assert!(
        lines.iter().all(|l| l["held"] == 1 && l["cells"].as_array().unwrap().contains(&json(&corner.to_string())))
    );
    // The centre has no lines; bad arguments are refused.
    assert_eq!(json(&game.hints(40.0, "X").unwrap())["lines"], json("[]"));
    assert!(game.hints(81.0, "X").is_err());
    assert!(game.hints(0.0, "Z").is_err());
}

#[test]
fn piece_pictures() {
    // Every piece letter of each board has a picture: the board crate's document, 45×45.
    for (dims, letters) in [(2.0, "KQRBNPkqrbnp"), (4.0, "KQRBNUDYWkqrbnudyw")] {
        for c in letters.chars() {
            let svg = tesseract_wasm::piece_svg(&c.to_string(), dims).unwrap_or_else(|e| panic!("{c}: {e}"));
            assert!(svg.starts_with("<svg") && svg.contains("viewBox=\"0 0 45 45\""), "{c}: {svg}");
        }
    }
    // White and Black differ; the 2D pawn is not the 4D Y-pawn (no arrow).
    let pic = |l: &str, d: f64| tesseract_wasm::piece_svg(l, d).unwrap();
    assert_ne!(pic("K", 4.0), pic("k", 4.0));
    assert_ne!(pic("P", 2.0), pic("Y", 4.0));
    for (letter, dims) in [("", 2.0), ("KQ", 2.0), ("X", 4.0), ("K", 3.0), ("K", f64::NAN)] {
        assert!(tesseract_wasm::piece_svg(letter, dims).is_err(), "{letter:?} {dims}");
    }
}
