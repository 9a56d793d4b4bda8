//! The studies and lessons as the page gets them: the same as tesseract-verify ships and proves (no copy
//! that can drift), and played through the JavaScript API's Rust layer.

use serde_json::Value;
use tesseract_board::TextMove;
use tesseract_verify::{lesson, study};
use tesseract_wasm::{LessonGame, StudyGame, lesson_list, study_list};

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn the_page_lists_exactly_the_verified_studies_and_lessons() {
    let shipped = study::shipped().unwrap();
    let listed = json(&study_list());
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 12);
    assert_eq!(listed.len(), shipped.len());
    for (i, (l, s)) in listed.iter().zip(&shipped).enumerate() {
        assert_eq!(l["number"], i + 1);
        assert_eq!(
            (l["title"].as_str(), l["n"].as_u64(), l["fen"].as_str()),
            (Some(s.title.as_str()), Some(u64::from(s.n)), Some(s.position.fen().as_str()))
        );
        assert_eq!(l["line"].as_array().unwrap().len(), s.line.len());
    }
    let shipped = lesson::shipped().unwrap();
    let listed = json(&lesson_list());
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 8);
    for (l, s) in listed.iter().zip(&shipped) {
        assert_eq!(
            (l["title"].as_str(), l["fen"].as_str(), l["bound"].as_u64()),
            (Some(s.title.as_str()), Some(s.position.fen().as_str()), Some(u64::from(s.bound)))
        );
        assert_eq!(l["explain"].as_str(), Some(s.explain.as_str()));
    }
}

#[test]
fn study_one_by_its_key_and_a_wrong_first_move_refuted() {
    let s = &study::shipped().unwrap()[0];
    let key = TextMove::from_move(s.key, &s.position).to_string();
    let mut game = StudyGame::new(1.0).unwrap();
    assert_eq!(game.hint().unwrap() as usize, s.key.from.index());
    let reply = json(&game.play(&key).unwrap());
    assert_eq!(reply["reply"], "solved");
    assert!(game.solved());
    assert!(game.play(&key).is_err(), "over");
    // A wrong key: refuted with a defence, taken back, and the key still solves.
    let mut game = StudyGame::new(1.0).unwrap();
    let wrong = tesseract_movegen::legal_moves(&s.position).into_iter().find(|&m| m != s.key).unwrap();
    let reply = json(&game.play(&TextMove::from_move(wrong, &s.position).to_string()).unwrap());
    assert_eq!(reply["reply"], "refuted");
    assert!(game.failed());
    assert!(game.take_back());
    assert_eq!(game.fen(), s.position.fen());
    assert_eq!(json(&game.play(&key).unwrap())["reply"], "solved");
    for bad in [0.0, 13.0, 1.5, f64::NAN] {
        assert!(StudyGame::new(bad).is_err(), "{bad}");
    }
    assert!(StudyGame::new(1.0).unwrap().play("zz").is_err());
}

#[test]
fn lesson_one_to_its_goal() {
    let l = &lesson::shipped().unwrap()[0];
    let report = lesson::verify(l, lesson::LessonCheck::Fast);
    let mut game = LessonGame::new(1.0).unwrap();
    let pieces = json(&game.pieces());
    let first = pieces[0].as_u64().unwrap() as f64;
    assert!(!json(&game.moves_from(first).unwrap()).as_array().unwrap().is_empty());
    for (i, text) in report.solution.iter().enumerate() {
        assert_eq!(game.play(text).unwrap(), i + 1 == report.solution.len(), "{text}");
    }
    assert!(game.done() && game.count() as usize == report.solution.len());
    game.restart();
    assert_eq!(game.fen(), l.position.fen());
    assert!(LessonGame::new(9.0).is_err());
}

#[test]
fn the_composers_check() {
    let s = &study::shipped().unwrap()[0];
    let sound = json(&tesseract_wasm::judge(&s.position.fen(), f64::from(s.n)).unwrap());
    assert_eq!(sound["verdict"], "sound");
    assert_eq!(sound["key"], json(&study_list())[0]["key"]);
    let shorter = json(&tesseract_wasm::judge(&s.position.fen(), f64::from(s.n + 1)).unwrap());
    assert_eq!((shorter["verdict"].as_str(), shorter["n"].as_u64()), (Some("shorter"), Some(u64::from(s.n))));
    // Ra8# and Rb8#: cooked, both named in SAN.
    let cooked = json(&tesseract_wasm::judge("6k1/8/6K1/8/8/8/8/RR6 w - - 0 1", 1.0).unwrap());
    assert_eq!(cooked["verdict"], "cooked");
    assert_eq!(cooked["keys"], json(r#"["Ra8#","Rb8#"]"#));
    let none = json(&tesseract_wasm::judge("7k/8/8/8/8/8/8/K7 w - - 0 1", 2.0).unwrap());
    assert_eq!(none["verdict"], "none");
    for (fen, n) in [
        ("not a position", 1.0),
        ("7k/8/8/8/8/8/8/K7 w - - 0 1", 0.0),
        ("7k/8/8/8/8/8/8/K7 w - - 0 1", 9.0),
        ("7k/8/8/8/8/8/8/K7 w - - 0 1", 1.5),
    ] {
        assert!(tesseract_wasm::judge(fen, n).is_err(), "{fen} {n}");
    }
}

#[test]
fn the_daily_puzzle() {
    let puzzle = json(&tesseract_wasm::daily_puzzle(20261204.0).unwrap());
    let expected = tesseract_verify::tutor::daily(20261204).unwrap();
    assert_eq!((puzzle["number"].as_str(), puzzle["n"].as_u64()), (Some("daily:20261204"), Some(2)));
    assert_eq!(puzzle["fen"].as_str(), Some(expected.position.fen().as_str()));
    assert_eq!(puzzle["title"], "Puzzle of 2026-12-04");
    let mut game = StudyGame::daily(20261204.0).unwrap();
    let mut entry = json(&game.entry());
    entry["number"] = puzzle["number"].clone();
    assert_eq!(entry, puzzle);
    let texts = puzzle["lineText"].as_array().unwrap();
    assert_eq!(json(&game.play(texts[0].as_str().unwrap()).unwrap())["reply"], "defence");
    assert_eq!(json(&game.play(texts[2].as_str().unwrap()).unwrap())["reply"], "solved");
    for bad in [-1.0, 1.5, 20261232.0, 1e12] {
        assert!(tesseract_wasm::daily_puzzle(bad).is_err(), "{bad}");
    }
}
