//! Every example whose reader goes away (`example | head -1`) ends quietly with exit code 141 (128 +
//! SIGPIPE, as a shell reports a Unix tool killed by SIGPIPE; `examples/common/out.rs`): no panic
//! ("failed printing to stdout: Broken pipe", exit code 101 and a backtrace, as `println!` did), no error
//! on stderr, and no thread of `match` panicking either. The same holds for the examples of the member
//! crates (tesseract-search's `tune` and `bench`, tesseract-movegen's `speed`, tesseract-relay's
//! `relay_load`, the benchmarks' `pgn_shakmaty`).

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use tesseract::board::start;

/// The exit code of an example whose standard output was closed by its reader.
const CLOSED_PIPE: i32 = 141;

fn assert_quiet(what: &str, out: &Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Progress lines (compose's) may stand there, but no panic and no error.
    for text in ["panicked", "Broken pipe", "error"] {
        assert!(!stderr.contains(text), "{what}: {stderr}");
    }
    assert_eq!(out.status.code(), Some(CLOSED_PIPE), "{what}: {stderr}");
}

#[test]
fn every_example_ends_quietly_when_nobody_reads_its_output() {
    let tesseract_start = start::by_name("standard").unwrap().fen();
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        ("perft", vec!["--start", "classic", "--depth", "2"], ""),
        ("perft", vec!["--start", "classic", "--depth", "2", "--divide"], ""),
        ("bestmove", vec!["--start", "classic", "--depth", "3"], ""),
        ("match", vec!["--a", "random", "--b", "random", "--max-plies", "4", "--games", "8", "--threads", "2"], ""),
        ("match", vec!["--a", "random", "--b", "random", "--max-plies", "4", "--games", "2", "--quiet"], ""),
        ("experiment", vec!["--games", "2", "--max-plies", "4", "--armies", "classic"], ""),
        ("compose", vec!["--solve", "--fen", &tesseract_start, "--n", "1"], ""),
        ("compose", vec!["--n", "1", "--tries", "2"], ""),
        ("four_tac_toe", vec!["--lines"], ""),
        ("four_tac_toe", vec!["--selfplay", "--seed", "1", "--strength", "1"], ""),
        ("four_tac_toe", vec!["--match", "1", "--seed", "1", "--strength", "1"], ""),
        ("four_tac_toe", vec!["--versus", "human"], "1111\nquit\n"),
        ("selfcheck", vec!["--depth", "1"], ""),
        ("epd", vec!["--studies", "--nodes", "100"], ""),
        ("play", vec!["--start", "classic", "--two-players", "--no-color"], "e2e4\nquit\n"),
        ("play", vec!["--start", "classic", "--white", "beginner", "--black", "beginner", "--no-color"], ""),
        ("online", vec!["--new-link"], ""),
        ("online", vec!["--local", "--seed", "1"], ""),
    ];
    for (name, args, stdin) in cases {
        let out = common::run_with_closed_stdout(name, &args, stdin.as_bytes());
        assert_quiet(&format!("{name} {args:?}"), &out);
    }
}

#[test]
fn the_member_crates_examples_end_quietly_too() {
    let pgn = std::env::temp_dir().join(format!("tesseract-closed-stdout-{}.pgn", std::process::id()));
    std::fs::write(&pgn, "[Event \"?\"]\n\n1. e4 e5 2. Nf3 1-0\n").expect("a temporary PGN file");
    let cases: Vec<(&str, &str, Vec<&str>)> = vec![
        ("tesseract-search", "tune", vec!["--start", "classic", "--games", "1", "--nodes", "20", "--max-plies", "12"]),
        ("tesseract-search", "bench", vec![]),
        ("tesseract-movegen", "speed", vec!["classic", "1", "1"]),
        ("tesseract-relay", "relay_load", vec!["--matches", "1", "--frames", "2"]),
        ("tesseract-benches", "pgn_shakmaty", vec![pgn.to_str().expect("a UTF-8 temporary path")]),
    ];
    for (package, name, args) in cases {
        let out = common::run_program_with_closed_stdout(&common::member_example(package, name), &args, b"");
        assert_quiet(&format!("{package} {name} {args:?}"), &out);
    }
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn match_threads_end_quietly_when_the_reader_goes_away_after_one_line() {
    // 3,000 game lines of about 90 bytes are more than a pipe holds (64 KiB): after the first line is read
    // and the pipe closed, some worker's write fails.
    let mut child = Command::new(common::example("match"))
        .args(["--a", "random", "--b", "random", "--max-plies", "4", "--games", "3000", "--threads", "4"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("match starts");
    let mut reader = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut first = String::new();
    reader.read_line(&mut first).expect("a first line");
    assert!(first.starts_with("game "), "{first}");
    drop(reader);
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        assert!(started.elapsed() < Duration::from_secs(60), "match still running after its reader left");
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("match ends");
    assert_quiet("match | head -1", &out);
}
