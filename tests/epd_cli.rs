//! The `epd` example: a suite's move that is not a legal move here is an error naming it (it must not pass as
//! "solved"), and a position is solved by its best move, given in UCI text or in SAN.

mod common;

use common::stdout;

#[test]
fn a_best_move_that_is_not_a_move_here_is_an_error() {
    let dir = std::env::temp_dir().join(format!("tesseract-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qa8; id \"WAC.001\";\n").unwrap();
    let out = common::run_example("epd", &["--file", bad.to_str().unwrap(), "--nodes", "1000"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("WAC.001: bm Qa8: not a legal move here in UCI text"), "{err}");
    assert!(err.contains("or in SAN (Qa8 is not a legal move here: no queen can move to a8)"), "{err}");
    assert!(stdout(&out).is_empty());

    // The same best move in UCI text and in SAN, and a move to avoid in SAN that the engine plays.
    let wac1 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -";
    for (ops, solved) in [("bm g3g6;", 1), ("bm Qg6;", 1), ("bm Rf2 Qg6;", 1), ("am Qg6;", 0), ("bm Rf2;", 0)] {
        let good = dir.join("good.epd");
        std::fs::write(&good, format!("{wac1} {ops} id \"WAC.001\"; dm 2;\n")).unwrap();
        let out =
            common::run_example("epd", &["--file", good.to_str().unwrap(), "--nodes", "50000", "--max-mate", "2"], "");
        assert!(out.status.success(), "{ops}");
        assert_eq!(
            stdout(&out).lines().last(),
            Some(format!("solved {solved} of 1").as_str()),
            "{ops}: {}",
            stdout(&out)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn weights_from_a_file_evaluate_and_a_bad_file_is_refused_before_any_search() {
    let dir = std::env::temp_dir().join(format!("tesseract-epd-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("suite.epd");
    std::fs::write(
        &suite,
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";\n\
         8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["--file", suite.to_str().unwrap(), "--nodes", "3000"];
        args.extend_from_slice(extra);
        common::run_example("epd", &args, "")
    };
    // The engine's own weights as a file search the same trees as no file.
    let own = dir.join("own.txt");
    std::fs::write(&own, tesseract::search::eval::Weights::of(2).to_text(tesseract::board::Shape::CHESS)).unwrap();
    let plain = run(&[]);
    assert!(plain.status.success());
    assert_eq!(stdout(&run(&["--weights", own.to_str().unwrap()])), stdout(&plain));
    // A rook worth a pawn scores otherwise (both positions have rooks).
    let cheap = dir.join("cheap.txt");
    std::fs::write(&cheap, "value.Rook 100\n").unwrap();
    let out = run(&["--weights", cheap.to_str().unwrap()]);
    assert!(out.status.success());
    assert_ne!(stdout(&out), stdout(&plain));
    // Refused with exit code 2, nothing searched: a name of no 8×8 weight, a missing file (named).
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "tempo 10\nvalue.Unicorn 400\n").unwrap();
    let missing = dir.join("missing.txt");
    for (file, says) in [(&bad, "line 2: no weight is named \"value.Unicorn\""), (&missing, "missing.txt: ")] {
        let out = run(&["--weights", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: ") && err.contains(says), "{err}");
        assert!(stdout(&out).is_empty());
    }
    let out = common::run_example("epd", &["--file", missing.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.txt: "));
    // A suite with no position is refused too, before the weights are used (they would never be read).
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "# nothing\n\n").unwrap();
    let out = common::run_example("epd", &["--file", empty.to_str().unwrap(), "--weights", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("empty.epd: no position (only blank lines and comments)"), "{err}");
    assert!(stdout(&out).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
