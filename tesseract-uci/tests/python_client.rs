//! python-chess as a real UCI client: `tests/uci_client.py` drives the built binary through a classic
//! and a Chess960 game to the end on 1+0.01 s clocks, `go movetime`, `go depth`, `go infinite` + `stop`
//! and `go mate`, checking every bestmove and PV with python-chess, and a long blitz (200 moves for each of
//! two engines on one 2+0.05 s clock with the default `Move Overhead`, neither clock below 0.4 s).
//!
//! Needs `python3` with python-chess (`pip install chess`; `scripts/test.sh` installs it); run with
//! `cargo test --profile ci -p tesseract-uci --test python_client -- --include-ignored`.
//!
//! `tests/uci_tablebase.py` drives it with endgame tables: the KRK table generated here, saved to a
//! folder and loaded through `TablebasePath`, and the engine mates from the longest KRK win in exactly 16
//! moves, reporting `score mate N` at every move; a bad folder is an `info string error`, nothing worse.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tesseract-uci");
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci_client.py");
const TABLEBASE_SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci_tablebase.py");

#[test]
#[ignore = "needs python3 with python-chess; plays whole games"]
fn python_chess_drives_the_engine() {
    let out = Command::new("python3")
        .arg(SCRIPT)
        .arg(BIN)
        .output()
        .expect("python3 runs (install python-chess with `pip install chess`)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(out.status.success(), "uci_client.py failed ({}):\n{stdout}\n{stderr}", out.status);
    assert!(stdout.lines().last() == Some("all checks passed"), "{stdout}");
    for check in ["\"handshake\"", "\"limits\"", "\"classic\"", "\"chess960\"", "\"long blitz\""] {
        assert!(stdout.contains(check), "{check} missing:\n{stdout}");
    }
}

#[test]
#[ignore = "needs python3 with python-chess"]
fn python_chess_sees_the_tables_mate() {
    use tesseract_board::{Color, Shape};
    use tesseract_tablebase::Tablebases;
    let dir = std::env::temp_dir().join(format!("tesseract-uci-python-tables-{}", std::process::id()));
    let mut tables = Tablebases::new();
    let krk = tables.generate(Shape::CHESS, &"KRK".parse().unwrap(), &Default::default(), &|_| {}).unwrap();
    let pos = krk.longest_example(Color::White).unwrap();
    let mate = krk.stats(Color::White).longest_moves();
    assert_eq!(mate, 16);
    tables.save_dir(&dir).unwrap();
    let out = Command::new("python3")
        .arg(TABLEBASE_SCRIPT)
        .arg(BIN)
        .arg(&dir)
        .arg(pos.fen())
        .arg(mate.to_string())
        .output()
        .expect("python3 runs (install python-chess with `pip install chess`)");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(out.status.success(), "uci_tablebase.py failed ({}):\n{stdout}\n{stderr}", out.status);
    assert!(stdout.lines().last() == Some("all checks passed"), "{stdout}");
    assert!(stdout.contains("\"check\": \"tablebase\""), "{stdout}");
}
