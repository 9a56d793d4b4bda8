//! The perft example's command-line contract: divide lines `<move> <count>`, a last line `nodes <N>`, and
//! exit code 2 with a message on stderr for malformed input.

mod common;

use std::process::Output;

use common::stdout;

fn perft(args: &[&str]) -> Output {
    common::run_example("perft", args, "")
}

#[test]
fn divide_lines_then_nodes() {
    let out = perft(&["--start", "classic", "--depth", "3", "--divide"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(*lines.last().unwrap(), "nodes 8902");
    assert!(lines.contains(&"e2e4 600"), "{text}");
    let sum: u64 = lines[..20].iter().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 8902);
}

#[test]
fn both_generators_and_all_start_names() {
    for (start, depth, nodes) in
        [("light", "1", "220"), ("standard", "2", "50420"), ("dense", "1", "236"), ("chess960:518", "3", "8902")]
    {
        for generator in ["fast", "naive"] {
            let out = perft(&["--start", start, "--depth", depth, "--generator", generator]);
            assert_eq!(stdout(&out), format!("nodes {nodes}\n"), "{start} {generator}");
        }
    }
    let out = perft(&["--start", "standard", "--depth", "1", "--divide"]);
    assert!(stdout(&out).lines().any(|l| l == "22132313 1"), "4D moves are written as eight digits");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(stdout(&perft(&["--fen", kiwipete, "--depth", "2"])), "nodes 2039\n");
    assert_eq!(stdout(&perft(&["--start", "classic", "--moves", "e2e4 e7e5", "--depth", "1"])), "nodes 29\n");
}

#[test]
fn malformed_input_exits_2_with_a_message() {
    for args in [
        &["--start", "huge", "--depth", "2"][..],
        &["--fen", "not a position", "--depth", "2"],
        &["--start", "classic"],
        &["--start", "classic", "--depth", "x"],
        &["--start", "classic", "--depth", "2", "--generator", "quick"],
        &["--start", "chess960:960", "--depth", "1"],
        &["--start", "classic", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--depth", "1"],
        &["--start", "classic", "--moves", "e2e5", "--depth", "1"],
        &["--start", "classic", "--depth", "1", "--threads", "0"],
    ] {
        let out = perft(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
