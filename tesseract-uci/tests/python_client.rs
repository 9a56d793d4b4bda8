//! python-chess as a real UCI client: `tests/uci_client.py` drives the built binary through a classic
//! and a Chess960 game to the end on 1+0.01 s clocks, `go movetime`, `go depth`, `go infinite` + `stop`
//! and `go mate`, checking every bestmove and PV with python-chess, and a long blitz (200 moves for each of
//! two engines on one 2+0.05 s clock with the default `Move Overhead`, neither clock below 0.4 s).
//!
//! Needs `python3` with python-chess (`pip install chess`; `scripts/test.sh` installs it); run with
//! `cargo test --profile ci -p tesseract-uci --test python_client -- --include-ignored`.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tesseract-uci");
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci_client.py");

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
