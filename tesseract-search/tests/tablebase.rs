//! Endgame tables given to the searcher (`Searcher::set_tablebases`): from the longest win of a table,
//! the engine plays against the table's best defence and mates in exactly the table's distance,
//! reporting that mate at every move; inside the search, nodes a table covers take its exact value.
//!
//! Chess KQK and KRK and the 3D Raumschach KQK are generated in the test (under a second); the 4D
//! Tesseract KQK (about 20 s in release) is `#[ignore]`d: `cargo test --release -p tesseract-search --test
//! tablebase -- --include-ignored`.

use std::sync::Arc;

use tesseract_board::{Color, Position, Shape};
use tesseract_movegen::{Legal, Outcome, legal_moves};
use tesseract_search::{Limits, Options, Score, Searcher, StopReason, TABLE_WIN};
use tesseract_tablebase::{Material, Tablebases, Wdl};

fn tables(shape: Shape, materials: &[&str]) -> Arc<Tablebases> {
    let mut tables = Tablebases::new();
    for m in materials {
        tables.generate(shape, &m.parse().unwrap(), &Default::default(), &|_| {}).unwrap();
    }
    Arc::new(tables)
}

/// The engine (White) plays from the longest White win of `material` against the table's best defence:
/// it mates in exactly the table's distance, and every search reports the mate still to come.
fn engine_mates_in_the_tables_distance(tables: &Arc<Tablebases>, shape: Shape, material: &str) -> u32 {
    let material: Material = material.parse().unwrap();
    let table = tables.get(shape, &material).unwrap();
    let mut pos: Position = table.longest_example(Color::White).unwrap();
    let probe = tables.probe(&pos).unwrap();
    assert_eq!(probe.wdl, Wdl::Win);
    let plies = probe.plies.unwrap();
    assert_eq!(plies, table.stats(Color::White).longest_plies);
    let mut searcher = Searcher::new(1);
    searcher.set_tablebases(Some(Arc::clone(tables)));
    let limits = Limits { depth: Some(3), ..Limits::default() };
    let mut played = 0;
    while pos.outcome().is_none() {
        if pos.turn() == Color::White {
            let to_mate = (plies - played).div_ceil(2) as i32;
            let mut reported = Vec::new();
            let result = searcher
                .search(&pos, &[], &limits, &Options::default(), |info| reported.push((info.score, info.depth)));
            assert_eq!(result.score, Score::Mate(to_mate), "{pos:?}");
            assert_eq!(result.stop, StopReason::Tablebase);
            assert_eq!(reported, [(Score::Mate(to_mate), 1)], "the info line reports the mate");
            assert_eq!(result.pv.len() as u32, plies - played, "the line runs to mate");
            pos.play(result.best_move.unwrap()).unwrap();
        } else {
            let (defence, _) = tables.best_move(&pos).unwrap();
            pos.play(defence).unwrap();
        }
        played += 1;
        assert!(played <= plies, "no mate within the table's {plies} plies");
    }
    assert_eq!(pos.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    assert_eq!(played, plies, "mate in exactly the table's distance");
    plies
}

#[test]
fn chess_krk_and_kqk_are_mated_in_the_tables_distance() {
    let t = tables(Shape::CHESS, &["KQK", "KRK"]);
    assert_eq!(engine_mates_in_the_tables_distance(&t, Shape::CHESS, "KRK"), 31, "KRK: mate in 16");
    assert_eq!(engine_mates_in_the_tables_distance(&t, Shape::CHESS, "KQK"), 19, "KQK: mate in 10");
}

#[test]
fn raumschach_kqk_is_mated_in_the_tables_distance() {
    let t = tables(Shape::RAUMSCHACH, &["KQK"]);
    engine_mates_in_the_tables_distance(&t, Shape::RAUMSCHACH, "KQK");
}

#[test]
#[ignore = "generates the 4D KQK table: about 20 s in release"]
fn tesseract_kqk_is_mated_in_the_tables_distance() {
    let t = tables(Shape::TESSERACT, &["KQK"]);
    engine_mates_in_the_tables_distance(&t, Shape::TESSERACT, "KQK");
}

/// The losing side's root reports the mate against it, and a drawn root scores 0 with a move that keeps
/// the draw.
#[test]
fn losing_and_drawn_roots() {
    let t = tables(Shape::CHESS, &["KRK"]);
    let mut searcher = Searcher::new(1);
    searcher.set_tablebases(Some(Arc::clone(&t)));
    let lost: Position = "8/8/8/8/8/2k5/8/K6R b - - 0 1".parse().unwrap();
    let plies = t.probe(&lost).unwrap().plies.unwrap();
    let r = searcher.search(&lost, &[], &Limits::default(), &Options::default(), |_| {});
    assert_eq!(r.score, Score::Mate(-((plies / 2) as i32)));
    assert_eq!(r.stop, StopReason::Tablebase);
    // Black to move takes the loose rook: a draw (kings alone).
    let drawn: Position = "8/8/8/8/8/8/2k5/K2R4 b - - 0 1".parse().unwrap();
    assert_eq!(t.probe(&drawn).unwrap().wdl, Wdl::Draw);
    let r = searcher.search(&drawn, &[], &Limits::default(), &Options::default(), |_| {});
    assert_eq!((r.score, r.stop), (Score::Cp(0), StopReason::Tablebase));
    let mut after = drawn.clone();
    after.play(r.best_move.unwrap()).unwrap();
    assert_eq!(t.probe(&after).unwrap().wdl, Wdl::Draw);
}

/// Inside the search: with the root's answer turned off (a root restricted by `Limits::root_moves` is
/// searched; here every move but one that does not mate fastest), a depth-2 search finds the KRK win from
/// the table values at ply 1, scored in the table band (`TABLE_WIN` less the 30 plies left after the
/// fastest first move), and plays a move of the fastest mate; without tables the same search sees no win.
#[test]
fn nodes_inside_the_search_take_the_tables_values() {
    let t = tables(Shape::CHESS, &["KRK"]);
    let table = t.get(Shape::CHESS, &"KRK".parse().unwrap()).unwrap();
    let pos = table.longest_example(Color::White).unwrap();
    let slower = |m: &tesseract_board::Move| {
        let mut after = pos.clone();
        after.play(*m).unwrap();
        t.probe(&after).unwrap().plies != Some(30)
    };
    let mut moves = legal_moves(&pos);
    let left_out = moves.iter().position(slower).expect("a move that does not mate fastest");
    moves.remove(left_out);
    let limits = Limits { depth: Some(2), root_moves: Some(moves), ..Limits::default() };
    let mut plain = Searcher::new(1);
    let without = plain.search(&pos, &[], &limits, &Options::default(), |_| {});
    assert!(matches!(without.score, Score::Cp(_)), "{without:?}");
    let mut searcher = Searcher::new(1);
    searcher.set_tablebases(Some(Arc::clone(&t)));
    let with = searcher.search(&pos, &[], &limits, &Options::default(), |_| {});
    assert_ne!(with.stop, StopReason::Tablebase);
    assert_eq!(with.score, Score::Cp(TABLE_WIN - 30));
    let mut after = pos.clone();
    after.play(with.best_move.unwrap()).unwrap();
    assert_eq!(t.probe(&after).unwrap().plies, Some(30), "a move of the fastest mate");
    assert!(with.nodes < without.nodes, "table nodes are not searched: {} v {}", with.nodes, without.nodes);
}

/// Tables that do not cover the position change nothing: the same result as without tables.
#[test]
fn tables_of_other_material_change_nothing() {
    let t = tables(Shape::CHESS, &["KRK"]);
    let pos = tesseract_board::start::chess();
    let limits = Limits { depth: Some(5), ..Limits::default() };
    let plain = Searcher::new(1).search(&pos, &[], &limits, &Options::default(), |_| {});
    let mut searcher = Searcher::new(1);
    searcher.set_tablebases(Some(t));
    assert!(searcher.tablebases().is_some());
    let with = searcher.search(&pos, &[], &limits, &Options::default(), |_| {});
    assert_eq!(plain, with);
    // An empty set is no tables.
    searcher.set_tablebases(Some(Arc::new(Tablebases::new())));
    assert!(searcher.tablebases().is_none());
}

/// A won root whose mate comes later than the fifty-move rule allows a claim is searched, not answered
/// from the table; with time left on the clock the table answers.
#[test]
fn a_win_past_the_fifty_moves_is_searched() {
    let t = tables(Shape::CHESS, &["KRK"]);
    let pos = t.get(Shape::CHESS, &"KRK".parse().unwrap()).unwrap().longest_example(Color::White).unwrap();
    let plies = t.probe(&pos).unwrap().plies.unwrap();
    let with_clock = |halfmove: u32| {
        let mut setup = pos.to_setup();
        setup.halfmove = halfmove;
        Position::from_setup(setup, pos.castling_mode()).unwrap()
    };
    let limits = Limits { depth: Some(2), ..Limits::default() };
    let mut searcher = Searcher::new(1);
    searcher.set_tablebases(Some(Arc::clone(&t)));
    let in_time = searcher.search(&with_clock(100 - plies), &[], &limits, &Options::default(), |_| {});
    assert_eq!(in_time.stop, StopReason::Tablebase);
    let too_late = searcher.search(&with_clock(101 - plies), &[], &limits, &Options::default(), |_| {});
    assert_ne!(too_late.stop, StopReason::Tablebase);
}
