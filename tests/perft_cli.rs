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
    use tesseract::board::start::Army;
    let figure = |army: Army, depth: usize| army.perft()[depth - 1].to_string();
    for (start, depth, nodes) in [
        ("light", "1", figure(Army::Light, 1)),
        ("standard", "2", figure(Army::Standard, 2)),
        ("dense", "1", figure(Army::Dense, 1)),
        ("chess960:518", "3", "8902".to_string()),
        // The README's 3D line (RULES.md §8), by both generators.
        ("raumschach", "3", "298923".to_string()),
    ] {
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

/// A message on stderr, nothing on stdout, exit code 2.
fn refused(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "{stderr}");
    stderr
}

#[test]
fn hash_out_of_range_is_refused() {
    // Issue 11 item 5: huge sizes made every worker panic (or the allocation abort the process).
    for hash in ["18446744073709551615", "17592186044416", "65537"] {
        let stderr = refused(&perft(&["--start", "classic", "--depth", "2", "--hash", hash]));
        let expected = format!("error: invalid value '{hash}' for '--hash <HASH>': {hash} is not in 0..=65536");
        assert_eq!(stderr.lines().next(), Some(expected.as_str()), "{stderr}");
    }
    // In range, the hashed count is the plain one.
    let out = perft(&["--start", "classic", "--depth", "3", "--hash", "1", "--divide"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("nodes 8902"));
}

#[test]
fn a_table_that_cannot_be_allocated_is_refused_in_one_line() {
    // `--hash 65536` under a 4 GiB address-space limit: the system always refuses the 64 GiB reservation
    // (whatever memory the machine has, and however it overcommits), which is an error before counting,
    // in one line, not an abort.
    let args = ["--start", "classic", "--depth", "1", "--hash", "65536"];
    let command = common::example_under_shell("perft", "ulimit -v 4194304", &args);
    let out = common::run_within(command, Vec::new(), std::time::Duration::from_secs(60));
    let stderr = refused(&out);
    assert_eq!(stderr, "error: --hash: cannot allocate a perft table of 65536 MB\n");
}
