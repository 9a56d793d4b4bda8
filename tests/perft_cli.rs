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

/// One line on stderr, nothing on stdout, exit code 2.
fn refused(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn hash_out_of_range_is_refused_in_one_line() {
    // Issue 11 item 5: huge sizes made every worker panic (or the allocation abort the process).
    for hash in ["18446744073709551615", "17592186044416", "65537"] {
        let stderr = refused(&perft(&["--start", "classic", "--depth", "2", "--hash", hash]));
        assert!(stderr.starts_with("error: --hash: expected 0 to 65536 megabytes"), "{hash}: {stderr}");
    }
    // In range, the hashed count is the plain one.
    let out = perft(&["--start", "classic", "--depth", "3", "--hash", "1", "--divide"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("nodes 8902"));
}

/// Whether the system refuses at once a single allocation of 64 GiB (Linux's heuristic overcommit on a
/// machine with less memory and swap than that).
fn refuses_64_gib() -> bool {
    let overcommit = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib = |key: &str| -> Option<u64> {
        let line = meminfo.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    match (overcommit.trim(), kib("MemTotal:"), kib("SwapTotal:")) {
        ("0" | "2", Some(mem), Some(swap)) => mem + swap < 48 << 20,
        _ => false,
    }
}

#[test]
fn a_table_that_cannot_be_allocated_is_refused_in_one_line() {
    // Where 64 GiB cannot be had, `--hash 65536` is an error before counting, not an abort.
    if !refuses_64_gib() {
        eprintln!("skipped: this machine might grant 64 GiB");
        return;
    }
    let stderr = refused(&perft(&["--start", "classic", "--depth", "1", "--hash", "65536"]));
    assert_eq!(stderr.trim_end(), "error: --hash: cannot allocate a perft table of 65536 MB");
}
