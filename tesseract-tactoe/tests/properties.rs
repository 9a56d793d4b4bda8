//! Properties over random games: scores never decrease, every completed line is scored exactly once and to
//! its owner, at most 232 points in all, replaying gives the same scores, undo and text round-trip.

use std::collections::HashSet;

use proptest::prelude::*;
use tesseract_board::Cell;
use tesseract_tactoe::{ClaimError, Game, PLAYABLE, Player};

/// Plays `picks` as choices among the free cells (each pick modulo their number).
fn play(picks: &[usize]) -> (Game, Vec<tesseract_tactoe::Claim>) {
    let mut game = Game::new();
    let mut claims = Vec::new();
    for &pick in picks {
        let free: Vec<Cell> = game.free_cells().collect();
        if free.is_empty() {
            break;
        }
        let before = game.scores();
        let claim = game.claim(free[pick % free.len()]).unwrap();
        let after = game.scores();
        // Scores never decrease; only the claimant's moves, by the lines it completed.
        let p = claim.player.index();
        assert!(after[0] >= before[0] && after[1] >= before[1]);
        assert_eq!(after[p], before[p] + claim.points());
        assert_eq!(after[1 - p], before[1 - p]);
        assert!(after[0] + after[1] <= PLAYABLE as u32);
        claims.push(claim);
    }
    (game, claims)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_completed_line_is_scored_once_to_its_owner(picks in proptest::collection::vec(0usize..1000, 0..=80)) {
        let (game, claims) = play(&picks);
        let mut scored = HashSet::new();
        for claim in &claims {
            for &line in &claim.lines {
                prop_assert!(scored.insert((line, claim.player)), "line {line:?} scored twice");
            }
        }
        let completed: HashSet<_> = game.completed_lines().into_iter().collect();
        prop_assert_eq!(&scored, &completed);
        let [x, o] = game.scores();
        prop_assert_eq!(x as usize, completed.iter().filter(|(_, p)| *p == Player::X).count());
        prop_assert_eq!(o as usize, completed.iter().filter(|(_, p)| *p == Player::O).count());
        prop_assert!((x + o) as usize <= PLAYABLE);
    }

    #[test]
    fn replaying_the_moves_gives_the_same_game(picks in proptest::collection::vec(0usize..1000, 0..=80)) {
        let (game, _) = play(&picks);
        let again = Game::replay(game.claims().iter().map(|c| c.cell)).unwrap();
        prop_assert_eq!(again.scores(), game.scores());
        prop_assert_eq!(&again, &game);
        let from_text = Game::from_text(&game.text()).unwrap();
        prop_assert_eq!(from_text.scores(), game.scores());
        prop_assert_eq!(from_text.text(), game.text());
        prop_assert_eq!(from_text.to_move(), game.to_move());
    }

    #[test]
    fn undo_restores_every_earlier_state(picks in proptest::collection::vec(0usize..1000, 0..=80)) {
        let (mut game, _) = play(&picks);
        let mut states = Vec::new();
        let mut replay = Game::new();
        states.push((replay.text(), replay.scores()));
        for claim in game.claims().to_vec() {
            replay.claim(claim.cell).unwrap();
            states.push((replay.text(), replay.scores()));
        }
        while let Some(claim) = game.undo() {
            states.pop();
            prop_assert_eq!(&(game.text(), game.scores()), states.last().unwrap());
            prop_assert!(game.can_claim(claim.cell));
        }
        prop_assert_eq!(game, Game::new());
    }

    #[test]
    fn claims_of_bad_cells_never_panic(index in 0u16..u16::MAX, picks in proptest::collection::vec(0usize..1000, 0..=80)) {
        let (mut game, _) = play(&picks);
        let before = game.clone();
        match game.claim(Cell::new(index)) {
            Ok(claim) => {
                prop_assert_eq!(claim.cell.index(), index as usize);
                game.undo();
            }
            Err(ClaimError::OffBoard(i)) => prop_assert!(i >= 81),
            Err(_) => {}
        }
        prop_assert_eq!(game, before);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[XO123/ \\-]{0,80}") {
        if let Ok(game) = Game::from_text(&text) {
            prop_assert_eq!(game.text(), text);
        }
    }

    #[test]
    fn arbitrary_cell_names_never_panic(text in "\\PC{0,8}") {
        if let Ok(cell) = tesseract_tactoe::parse_cell(&text) {
            prop_assert!(cell.index() < 81);
        }
    }
}

#[test]
fn full_seeded_random_games() {
    for seed in 0..50 {
        let cells = tesseract_tactoe::random_opening(seed, 80);
        assert_eq!(cells.len(), 80);
        let game = Game::replay(cells.iter().copied()).unwrap();
        assert!(game.is_over());
        let [x, o] = game.scores();
        assert!(x + o <= PLAYABLE as u32);
        assert_eq!(game.completed_lines().len() as u32, x + o);
        // Same seed, same game.
        assert_eq!(tesseract_tactoe::random_opening(seed, 80), cells);
    }
    assert_ne!(tesseract_tactoe::random_opening(1, 80), tesseract_tactoe::random_opening(2, 80));
}
