//! The engine: tactics on hand-built positions, budgets, determinism, and seeded matches.

mod common;

use common::{c, play};

use tesseract_tactoe::{
    Contestant, Engine, Game, POINT, RandomPlayer, Strategy, Strength, play_game, play_match, random_opening, selfplay,
};

fn level(n: u8) -> Strength {
    Strength::level(n).unwrap()
}

#[test]
fn levels_and_custom_strengths() {
    assert!(Strength::level(0).is_none());
    assert!(Strength::level(6).is_none());
    let depths: Vec<u8> = (1..=5).map(|n| level(n).depth()).collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert_eq!(Strength::new(0, 10).depth(), 1);
    assert_eq!(Strength::default(), level(3));
}

#[test]
fn takes_the_claim_that_scores_most() {
    // X to move: 2221 completes 1221-2221-3221 and 2121-2221-2321; 1331 or 3131 complete one line each
    // (with 1111). No two of O's cells share a line, so O threatens nothing.
    let game = play(&["1221", "3221", "2121", "2321", "1111"], &["3333", "1233", "3123", "2313", "1112"]);
    for n in 1..=3 {
        let search = Engine::new(level(n)).search(&game).unwrap();
        assert_eq!(search.best, c("2221"), "level {n}");
    }
    assert_eq!(game.clone().claim(c("2221")).unwrap().points(), 2);
}

#[test]
fn blocks_the_opponents_line() {
    // O to move; X threatens 1111-2111-3111 and O has nothing to complete: from depth 2, O blocks 3111.
    let game = play(&["1111", "2111"], &["3333"]);
    for n in 2..=3 {
        assert_eq!(Engine::new(level(n)).best_move(&game), Some(c("3111")), "level {n}");
    }
}

#[test]
fn no_move_in_a_finished_game() {
    let game = Game::replay(random_opening(1, 80)).unwrap();
    assert_eq!(Engine::new(level(2)).best_move(&game), None);
    assert_eq!(RandomPlayer::new(1).choose(&game), None);
}

#[test]
fn the_node_budget_stops_deeper_iterations() {
    let game = Game::replay(random_opening(5, 6)).unwrap();
    let search = Engine::new(Strength::new(20, 3_000)).search(&game).unwrap();
    // A node one ply from the horizon finishes its children (at most 80) before the budget is looked at.
    assert!(search.nodes <= 3_000 + 80, "{} nodes", search.nodes);
    assert!(search.depth >= 1 && search.depth < 20);
    assert!(game.can_claim(search.best));
    // Near the end the search reaches the end of the game: the value is the exact final difference.
    let mut game = Game::replay(random_opening(6, 74)).unwrap();
    let search = Engine::new(Strength::new(6, u64::MAX)).search(&game).unwrap();
    assert_eq!(search.depth, 6);
    let me = game.to_move();
    let mut engine = Engine::new(Strength::new(6, u64::MAX));
    while let Some(cell) = engine.best_move(&game) {
        game.claim(cell).unwrap();
    }
    let diff = game.score(me) as i32 - game.score(me.other()) as i32;
    assert_eq!(search.value, POINT * diff, "perfect play from 6 cells before the end");
}

#[test]
fn a_search_depends_only_on_the_state_and_strength() {
    let game = Game::replay(random_opening(11, 9)).unwrap();
    let mut engine = Engine::new(level(3));
    let first = engine.search(&game).unwrap();
    let other = Game::replay(random_opening(12, 20)).unwrap();
    engine.search(&other);
    assert_eq!(engine.search(&game).unwrap(), first);
    assert_eq!(Engine::new(level(3)).search(&game).unwrap(), first);
    // The same state read from text, with no history, gives the same search.
    let read = Game::from_text(&game.text()).unwrap();
    assert_eq!(Engine::new(level(3)).search(&read).unwrap(), first);
}

#[test]
fn selfplay_is_determined_by_the_seed() {
    let a = selfplay(level(1), 4);
    assert!(a.is_over());
    assert_eq!(a.record(), selfplay(level(1), 4).record());
    assert_ne!(a.record(), selfplay(level(1), 5).record());
}

#[test]
fn play_game_reports_a_bad_opening() {
    let mut x = RandomPlayer::new(1);
    let mut o = RandomPlayer::new(2);
    let err = play_game(&mut x, &mut o, &[c("1111"), c("1111")]).unwrap_err();
    assert!(matches!(err, tesseract_tactoe::ClaimError::Taken { .. }));
    assert!(play_game(&mut x, &mut o, &[tesseract_tactoe::CENTRE]).is_err());
}

#[test]
fn the_engine_beats_a_random_player() {
    let result = play_match(Contestant::Engine(level(1)), Contestant::Random, 4, 1);
    assert_eq!(result.games, 8);
    assert_eq!(result.a_wins, 8, "{result}");
    assert!(result.a_points > 2 * result.b_points, "{result}");
    assert_eq!(play_match(Contestant::Engine(level(1)), Contestant::Random, 4, 1), result);
}

/// The figures in the README: `cargo test --release -p tesseract-tactoe --test engine -- --ignored --nocapture`.
#[test]
#[ignore = "slow in debug: scripts/test.sh runs it in the optimised pass (cargo test --profile ci -- --ignored)"]
fn stronger_levels_beat_weaker_ones_over_a_seeded_match() {
    let l3_vs_random = play_match(Contestant::Engine(level(3)), Contestant::Random, 25, 7);
    println!("level 3 vs random, 25 pairs, seed 7: {l3_vs_random}");
    assert!(l3_vs_random.a_wins >= 45, "{l3_vs_random}");
    let l3_vs_l1 = play_match(Contestant::Engine(level(3)), Contestant::Engine(level(1)), 25, 7);
    println!("level 3 vs level 1, 25 pairs, seed 7: {l3_vs_l1}");
    assert!(l3_vs_l1.a_wins > 2 * l3_vs_l1.b_wins, "{l3_vs_l1}");
    assert!(l3_vs_l1.a_points > l3_vs_l1.b_points, "{l3_vs_l1}");
}
