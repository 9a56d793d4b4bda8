//! `tests/data/automatic-ends.txt`: one game per automatic end (checkmate, stalemate, dead position,
//! fivefold repetition, the 75-move rule), which the end-to-end tests play through the relays (the
//! `online` example over Redis in `tests/online_redis.rs`, two browsers through tesseract-relay in
//! `web/tests/online.test.mjs`). Checked here by the library's rules and by python-chess, which made the
//! classic lines (`scripts/automatic_ends.py`); the 4D line comes from `print_a_4d_seventy_five_move_game`.

mod common;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract::board::{Position, start};
use tesseract::movegen::{Game, Termination, legal_moves};

fn games() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    common::automatic_ends()
}

fn start_of(name: &str) -> Position {
    match name {
        "classic" => start::chess(),
        "standard" => start::tesseract(start::Army::Standard),
        _ => panic!("start {name}"),
    }
}

/// Every line is legal, nothing ends it before its last move, and its last move ends it by the named rule,
/// by the library's `Game` (the rules the wire and the engine use).
#[test]
fn every_game_ends_by_its_rule_on_its_last_move_and_not_before() {
    let mut ends = Vec::new();
    for (end, start, moves) in games() {
        let mut game = Game::new(start_of(start));
        for (i, text) in moves.iter().enumerate() {
            assert_eq!(game.outcome(), None, "{end}: over before move {} {text}", i + 1);
            game.play_text(text).unwrap_or_else(|e| panic!("{end}: move {} {text}: {e}", i + 1));
        }
        let outcome = game.outcome().unwrap_or_else(|| panic!("{end}: not over after its last move"));
        assert_eq!(outcome.termination(), Termination::from_name(&end.replace('-', "_")).unwrap(), "{end}");
        ends.push((end, start));
    }
    let automatic = ["checkmate", "stalemate", "dead-draw", "fivefold", "seventy-five-moves"];
    for end in automatic {
        assert!(ends.contains(&(end, "classic")), "no classic game ending by {end}");
    }
    assert!(ends.contains(&("seventy-five-moves", "standard")), "no 4D game ending by the 75-move rule");
}

/// python-chess, an implementation that shares nothing with this one, agrees on every classic line.
#[test]
fn python_chess_agrees_on_the_classic_games() {
    let available =
        std::process::Command::new("python3").args(["-c", "import chess"]).output().is_ok_and(|o| o.status.success());
    if !available {
        assert!(std::env::var_os("TESSERACT_REQUIRE_ORACLE").is_none(), "python3 cannot import chess");
        eprintln!("skipped: python3 cannot import chess (pip install chess)");
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new("python3")
        .arg(format!("{root}/scripts/automatic_ends.py"))
        .arg("check")
        .arg(format!("{root}/tests/data/automatic-ends.txt"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.trim(), "checked 5");
}

/// Prints the 4D line of the file: 150 seeded quiet piece moves from the standard start (no capture, no
/// pawn move, no check, no position a fourth time), the 150th ending the game by the 75-move rule.
/// `cargo test --test automatic_ends -- --ignored --nocapture`
#[test]
#[ignore = "prints the 4D line of tests/data/automatic-ends.txt"]
fn print_a_4d_seventy_five_move_game() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    'attempt: loop {
        let mut game = Game::new(start::tesseract(start::Army::Standard));
        let mut texts = Vec::new();
        while texts.len() < 150 {
            let pos = game.position().clone();
            let mut quiet: Vec<_> = legal_moves(&pos)
                .into_iter()
                .filter(|m| {
                    pos.piece_at(m.to).is_none() && pos.piece_at(m.from).is_some_and(|p| p.role.pawn_axis().is_none())
                })
                .collect();
            // A seeded shuffle, then the first move that keeps the game quiet.
            for i in (1..quiet.len()).rev() {
                quiet.swap(i, rng.next_u32() as usize % (i + 1));
            }
            let found = quiet.into_iter().find(|&m| {
                let text = tesseract::board::TextMove::from_move(m, &pos).to_string();
                game.play(m).unwrap();
                let ok = !game.position().is_check()
                    && game.repetitions() <= 3
                    && (texts.len() == 149 || game.outcome().is_none());
                game.undo();
                ok && {
                    texts.push(text);
                    true
                }
            });
            match found {
                Some(m) => game.play(m).unwrap(),
                None => continue 'attempt,
            }
        }
        assert_eq!(game.outcome().map(|o| o.termination()), Some(Termination::SeventyFiveMoves));
        println!("seventy-five-moves standard {}", texts.join(" "));
        return;
    }
}
