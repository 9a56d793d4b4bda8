//! The mate prover against a plain recursive search without table or move ordering, on seeded random
//! positions of the composer: the table and the ordering change no answer.

use tesseract_board::{Color, Position};
use tesseract_movegen::legal_moves;
use tesseract_verify::compose::{Composer, Recipe};
use tesseract_verify::mate::MateSolver;

/// Whether the side to move mates within `n`, by the definition, with nothing cached.
fn plain_mates(pos: &mut Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    for m in legal_moves(pos) {
        let undo = pos.make(m);
        let wins = plain_mated(pos, n - 1);
        pos.unmake(m, undo);
        if wins {
            return true;
        }
    }
    false
}

/// Whether the side to move is mated within `k` moves of the other side.
fn plain_mated(pos: &mut Position, k: u32) -> bool {
    let moves = legal_moves(pos);
    if moves.is_empty() {
        return pos.is_check();
    }
    if k == 0 {
        return false;
    }
    moves.iter().all(|&d| {
        let undo = pos.make(d);
        let lost = plain_mates(pos, k);
        pos.unmake(d, undo);
        lost
    })
}

#[test]
fn the_solver_agrees_with_the_definition() {
    let mut composer = Composer::new(2024, 1);
    composer.corner = true;
    composer.reach = 4;
    composer.fill = 90;
    composer.recipe = Some(Recipe::parse("QN", "").unwrap());
    // Mates in two are checked on the first positions only, and only in release: the plain search is slow.
    let deep = if cfg!(debug_assertions) { 0 } else { 12 };
    let mut mates = [0; 3];
    for i in 0..200 {
        let pos = composer.random_position().expect("the recipe stands");
        let mut solver = MateSolver::new();
        for n in 1..=(if i < deep { 2 } else { 1 }) {
            let fast = solver.mates_within(&pos, n).unwrap();
            let plain = plain_mates(&mut pos.clone(), n);
            assert_eq!(fast, plain, "mate within {n} at {}", pos.fen());
            if fast {
                mates[n as usize] += 1;
            }
            // Every key the solver lists mates, by the definition.
            for key in solver.keys(&pos, n).unwrap() {
                let mut p = pos.clone();
                p.make(key);
                assert!(plain_mated(&mut p, n - 1));
            }
        }
    }
    assert!(mates[1] > 0, "the sample has mates in one: {mates:?}");
}

#[test]
fn mates_within_is_monotone_and_keys_grow_with_n() {
    let mut composer = Composer::new(99, 2);
    composer.corner = true;
    composer.reach = 4;
    composer.fill = 90;
    for _ in 0..10 {
        let pos = composer.random_position().expect("the recipe stands");
        let mut solver = MateSolver::new();
        let k1 = solver.keys(&pos, 1).unwrap();
        let k2 = solver.keys(&pos, 2).unwrap();
        assert!(k1.iter().all(|m| k2.contains(m)));
        assert_eq!(solver.mates_within(&pos, 1).unwrap(), !k1.is_empty());
        assert_eq!(solver.mates_within(&pos, 2).unwrap(), !k2.is_empty());
        let shortest = solver.shortest_mate(&pos, 2).unwrap();
        assert_eq!(shortest.is_some(), !k2.is_empty());
        assert!(pos.turn() == Color::White);
    }
}

#[test]
fn a_checks_only_mate_is_a_mate_and_the_node_limit_stops_a_search() {
    let mut composer = Composer::new(5, 2);
    composer.corner = true;
    composer.reach = 4;
    composer.fill = 90;
    for _ in 0..20 {
        let pos = composer.random_position().expect("the recipe stands");
        let mut checks = MateSolver::checks_only(u64::MAX);
        let mut full = MateSolver::new();
        for n in 1..=2 {
            if checks.mates_within(&pos, n).unwrap() {
                assert!(full.mates_within(&pos, n).unwrap());
            }
        }
    }
    let pos = composer.random_position().expect("the recipe stands");
    let mut limited = MateSolver::with_node_limit(10);
    assert!(limited.mates_within(&pos, 3).is_err());
}
