//! Every value of a table justified move by move with the library's legal move generator, and the
//! shortest values proven by the verifier's exhaustive mate search (see `common`).

mod common;

/// Every `stride`-th position, or every position when `TESSERACT_TABLEBASE_FULL` is set: the full pass of
/// the sampled tables (`TESSERACT_TABLEBASE_FULL=1 cargo test --release -p tesseract-tablebase --test
/// consistency -- --include-ignored`).
fn sample(stride: usize) -> usize {
    if std::env::var_os("TESSERACT_TABLEBASE_FULL").is_some() { 1 } else { stride }
}

use tesseract_board::Shape;
use tesseract_tablebase::Tablebases;

#[test]
fn chess_kqk_and_krk_every_position() {
    let mut tables = Tablebases::new();
    for material in ["KQK", "KRK"] {
        let t = common::generate(&mut tables, Shape::CHESS, material);
        let checked = common::check_table(&tables, &t, 1);
        assert!(checked > 40_000, "{material}: {checked}");
    }
}

#[test]
fn chess_krk_short_mates_by_exhaustive_search() {
    let mut tables = Tablebases::new();
    let t = common::generate(&mut tables, Shape::CHESS, "KRK");
    assert!(common::check_by_mate_search(&t, 7, 3) > 500);
}

#[test]
#[ignore = "a minute in an optimised build; scripts/test.sh runs it in its optimised pass (-- --ignored)"]
fn chess_four_piece_tables() {
    let mut tables = Tablebases::new();
    for (material, stride) in [("KBNK", 17), ("KQKR", 17), ("KBBK", 17), ("KNNK", 17)] {
        let t = common::generate(&mut tables, Shape::CHESS, material);
        assert!(common::check_table(&tables, &t, sample(stride)) > 20_000, "{material}");
        assert!(common::check_by_mate_search(&t, 301, 2) > 100, "{material}");
    }
}

#[test]
#[ignore = "seconds in an optimised build; scripts/test.sh runs it in its optimised pass (-- --ignored)"]
fn raumschach_three_piece_tables() {
    let mut tables = Tablebases::new();
    for material in ["KQK", "KRK", "KBK", "KNK", "KUK"] {
        let t = common::generate(&mut tables, Shape::RAUMSCHACH, material);
        assert!(common::check_table(&tables, &t, 1) > 20_000, "{material}");
        assert!(common::check_by_mate_search(&t, 31, 2) > 100, "{material}");
    }
}

#[test]
#[ignore = "a minute in an optimised build; scripts/test.sh runs it in its optimised pass (-- --ignored)"]
fn tesseract_kqk() {
    let mut tables = Tablebases::new();
    let t = common::generate(&mut tables, Shape::TESSERACT, "KQK");
    assert!(common::check_table(&tables, &t, sample(97)) > 10_000);
    assert!(common::check_by_mate_search(&t, 307, 2) > 100);
}
