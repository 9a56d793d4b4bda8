//! The pgn example's command line (issue 33): `generate` writes the seeded corpus, `read` counts its
//! results, openings and errors on one thread and on all (the same lines), reads it zstd-compressed with
//! the `zstd` feature, filters by tag and by a position reached into a new PGN, and refuses bad arguments
//! with exit code 2.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::stdout;
use tesseract::movegen::pgn::{GameResult, read_games};

fn run(args: &[&str]) -> Output {
    common::run_example("pgn", args, "")
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    stdout(&out)
}

/// A fresh folder of this test process.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tesseract-pgn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// 300 games, and a bad one after them.
fn corpus(dir: &Path) -> (PathBuf, String) {
    let file = dir.join("games.pgn");
    let generated = ok(&["generate", "--games", "300", "--seed", "7", "--max-plies", "60", "--out", path(&file)]);
    assert_eq!(generated, "");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("\n[Event \"bad\"]\n\n1. e4 Ke7 *\n");
    std::fs::write(&file, &text).unwrap();
    (file, text)
}

#[test]
fn read_counts_what_the_file_holds_on_one_thread_and_on_all() {
    let dir = temp_dir("counts");
    let (file, text) = corpus(&dir);
    let out = ok(&["read", path(&file), "--quiet"]);
    assert!(out.ends_with("errors 1\ngames 300\n"), "{out}");
    assert!(out.contains("error game 301, line "), "{out}");
    // The results, as the tags of the text say.
    for (result, tag) in [(GameResult::WhiteWins, "1-0"), (GameResult::BlackWins, "0-1"), (GameResult::Unknown, "*")] {
        let n = text.matches(&format!("[Result \"{tag}\"]")).count();
        assert!(out.contains(&format!("result {result} {n}\n")), "{result}: {n} in {out}");
    }
    // Openings: ten lines, most frequent first, each four plies of SAN.
    let openings: Vec<&str> = out.lines().filter(|l| l.starts_with("opening ")).collect();
    assert_eq!(openings.len(), 10);
    let counts: Vec<u64> = openings.iter().map(|l| l.split(' ').nth(1).unwrap().parse().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert!(openings.iter().all(|l| l.contains(" 1. ") && l.contains(" 2. ")), "{openings:?}");
    assert_eq!(ok(&["read", path(&file), "--quiet", "--threads", "1"]), out);
    assert_eq!(ok(&["read", path(&file), "--quiet", "--threads", "2", "--no-variations"]), out);
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "zstd")]
#[test]
fn read_takes_a_zstd_file_as_the_plain_one() {
    let dir = temp_dir("zstd");
    let (file, text) = corpus(&dir);
    let packed = dir.join("games.pgn.zst");
    std::fs::write(&packed, zstd::encode_all(text.as_bytes(), 3).unwrap()).unwrap();
    assert!(std::fs::metadata(&packed).unwrap().len() < text.len() as u64 / 3);
    assert_eq!(ok(&["read", path(&packed), "--quiet"]), ok(&["read", path(&file), "--quiet"]));
    // Cut short: the counts so far, then the reason and exit code 2.
    let bytes = std::fs::read(&packed).unwrap();
    let cut = dir.join("cut.pgn.zst");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(&["read", path(&cut), "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("\ngames "), "{}", stdout(&out));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("pgn: "), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn read_writes_the_games_that_pass_the_filters() {
    let dir = temp_dir("filters");
    let (file, text) = corpus(&dir);
    let games: Vec<_> = read_games(&text).filter_map(Result::ok).collect();
    // By tag.
    let kept = dir.join("round.pgn");
    let out = ok(&["read", path(&file), "--quiet", "--tag", "Round=17", "--out", path(&kept)]);
    assert!(out.ends_with("written 1\ngames 1\n"), "{out}");
    let back: Vec<_> = read_games(&std::fs::read_to_string(&kept).unwrap()).map(Result::unwrap).collect();
    assert_eq!(back, [games[16].clone()]);
    // By a position reached: the one after ply 9 of game 42, given as FEN and as its hash.
    let mut pos = games[41].start.clone();
    for m in &games[41].moves[..9] {
        let _ = pos.make(m.mv);
    }
    let reaching: Vec<_> = games
        .iter()
        .filter(|g| {
            let mut p = g.start.clone();
            p.hash() == pos.hash()
                || g.moves.iter().any(|m| {
                    let _ = p.make(m.mv);
                    p.hash() == pos.hash()
                })
        })
        .collect();
    // To standard output: the games alone (the counts on standard error).
    let by_fen = run(&["read", path(&file), "--quiet", "--fen", &pos.fen(), "--out", "-"]);
    assert!(by_fen.status.success());
    let written: Vec<_> = read_games(&stdout(&by_fen)).map(Result::unwrap).collect();
    assert_eq!(written.len(), reaching.len());
    assert!(written.iter().zip(&reaching).all(|(a, b)| a == *b));
    let counts = String::from_utf8_lossy(&by_fen.stderr).to_string();
    assert!(counts.ends_with(&format!("written {0}\ngames {0}\n", reaching.len())), "{counts}");
    let hash = format!("{:#x}", pos.hash());
    let by_hash = run(&["read", path(&file), "--quiet", "--hash", &hash, "--out", "-"]);
    assert_eq!((by_hash.stdout, by_hash.stderr), (by_fen.stdout, by_fen.stderr));
    // Tag and position together: nothing.
    let none = ok(&["read", path(&file), "--quiet", "--hash", &hash, "--tag", "Event=nothing"]);
    assert!(none.ends_with("errors 1\ngames 0\n"), "{none}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_exit_with_2_and_say_why() {
    let dir = temp_dir("bad");
    let missing = dir.join("missing.pgn");
    for (args, says) in [
        (vec!["read", path(&missing)], "missing.pgn"),
        (vec!["read", path(&dir), "--hash", "xyz"], "hexadecimal"),
        (vec!["read", path(&dir), "--fen", "not a fen"], "--fen"),
        (vec!["read", path(&dir), "--tag", "=x"], "NAME=VALUE"),
        (vec!["read", path(&dir), "--threads", "0"], "--threads"),
        (vec!["read", path(&dir), "--out", path(&missing.join("x.pgn"))], "does not exist"),
        (vec!["generate"], "--games"),
        (vec!["generate", "--games", "1", "--out", path(&dir)], "pgn:"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
