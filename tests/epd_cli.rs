//! The `epd` example: a suite's move that is not a legal move here is an error naming it (SAN in a suite of
//! UCI moves must not pass as "solved"), and a position is solved by its best move.

mod common;

use common::stdout;

#[test]
fn a_best_move_that_is_not_a_move_here_is_an_error() {
    let dir = std::env::temp_dir().join(format!("tesseract-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n").unwrap();
    let out = common::run_example("epd", &["--file", bad.to_str().unwrap(), "--nodes", "1000"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("WAC.001: bm Qg6: \"Qg6\" is not a move: unexpected 'Q' at offset 0"), "{err}");
    assert!(stdout(&out).is_empty());

    let good = dir.join("good.epd");
    std::fs::write(&good, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm g3g6; id \"WAC.001\"; dm 2;\n")
        .unwrap();
    let out =
        common::run_example("epd", &["--file", good.to_str().unwrap(), "--nodes", "50000", "--max-mate", "2"], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("solved 1 of 1"), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
