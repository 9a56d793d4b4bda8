//! The 2D tables against figures published for chess.
//!
//! Sources: the longest mates (KQK 10, KRK 16, KBBK 19, KBNK 33, KQKR 35, KQQK 4, KQRK 6, KRRK 7,
//! KQKQ 13, KRKB 29, KRKN 40 moves; KNNK no forced win) are in every table of chess endings since
//! Thompson (1986) and Nalimov; the number of positions at the longest mate is from Peter Karrer's
//! statistics of the Nalimov tables as quoted by Guido on the Kryukov endgame forum ("Longest Mate in
//! kqk": kqk wtm 10 moves, 1 position; krk wtm 16 moves, 121 positions; kqk btm lost in 10, 8 positions;
//! krk btm lost in 16, 390 positions; kbnk wtm 33 moves, 138 positions); the whole KRK distribution with
//! Black to move is the UCI machine-learning repository's "Chess (King-Rook vs. King)" data set (Bain and
//! Hoff, 1994: 28,056 positions). All of them count positions once per orbit of the square's 8 symmetries.

mod common;

use tesseract_board::{Color, Shape};
use tesseract_tablebase::Tablebases;

#[test]
fn kqk_and_krk_longest_mates_and_their_counts() {
    let mut tables = Tablebases::new();
    for (material, moves, wtm_at, btm_at) in [("KQK", 10, 1, 8), ("KRK", 16, 121, 390)] {
        let t = common::generate(&mut tables, Shape::CHESS, material);
        let white = t.stats(Color::White);
        assert_eq!((white.longest_moves(), white.at_longest), (moves, wtm_at), "{material}, White to move");
        let black = t.stats(Color::Black);
        assert_eq!((black.longest_loss_plies / 2, black.at_longest_loss), (moves, btm_at), "{material}, Black to move");
        assert_eq!(white.draws, 0, "{material}: White to move always wins");
    }
}

#[test]
fn krk_black_to_move_matches_the_uci_data_set() {
    let mut tables = Tablebases::new();
    let t = common::generate(&mut tables, Shape::CHESS, "KRK");
    // Draws, then lost in 0 (checkmated), 1, ..., 16 moves.
    let published: [u64; 18] =
        [2796, 27, 78, 246, 81, 198, 471, 592, 683, 1433, 1712, 1985, 2854, 3597, 4194, 4553, 2166, 390];
    let mut ours = [0u64; 18];
    for (_, probe) in t.positions(Color::Black) {
        ours[probe.moves().map_or(0, |m| m as usize + 1)] += 1;
    }
    assert_eq!(ours, published);
    assert_eq!(ours.iter().sum::<u64>(), 28_056);
}

/// The four-piece tables take a few seconds in an optimised build: run by `scripts/test.sh` there.
#[test]
#[ignore = "seconds in an optimised build; scripts/test.sh runs it in its optimised pass (-- --ignored)"]
fn four_piece_longest_mates() {
    let mut tables = Tablebases::new();
    let published = [
        ("KBBK", 19),
        ("KBNK", 33),
        ("KQKR", 35),
        ("KQQK", 4),
        ("KQRK", 6),
        ("KRRK", 7),
        ("KQKQ", 13),
        ("KRKB", 29),
        ("KRKN", 40),
    ];
    for (material, moves) in published {
        let t = common::generate(&mut tables, Shape::CHESS, material);
        assert_eq!(t.stats(Color::White).longest_moves(), moves, "{material}");
    }
    assert_eq!(tables.get(Shape::CHESS, &"KBNK".parse().unwrap()).unwrap().stats(Color::White).at_longest, 138);
    // K+N+N cannot force mate: its only wins are mates in one that the defender walked into.
    let knnk = common::generate(&mut tables, Shape::CHESS, "KNNK");
    let s = knnk.stats(Color::White);
    assert_eq!(s.longest_moves(), 1);
    assert!(s.wins * 1000 < s.positions(), "{} wins of {}", s.wins, s.positions());
}
