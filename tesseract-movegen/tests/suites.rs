//! Published perft figures for classic chess and Chess960 (`tests/data/*.perft`), checked with the fast
//! generator and the naive one.
//!
//! Every figure runs in release (`cargo test --release -p tesseract-movegen --test suites`). Debug builds
//! skip the figures above [`DEBUG_CAP`] nodes, and say which; the naive generator checks the figures up to
//! [`NAIVE_CAP`] nodes in both.

use tesseract_board::{CastlingMode, Position, TextMove};
use tesseract_movegen::{divide, naive, perft};

/// The classic suite: the start position and positions 2 to 6 of the Chess Programming Wiki.
const CHESS: &str = include_str!("data/chess.perft");
/// The Chess960 suite.
const CHESS960: &str = include_str!("data/chess960.perft");

/// In debug builds, the fast generator skips any figure above this many nodes.
const DEBUG_CAP: u64 = 2_000_000;
/// The naive generator checks the figures up to this many nodes.
const NAIVE_CAP: u64 = 200_000;
/// In optimised builds it checks the classic suite's figures up to this many nodes (about 16 million
/// leaves in all: the start to depth 5, Kiwipete to 4, positions 3 to 6 to 5, 4, 4, 4).
const NAIVE_CHESS_RELEASE_CAP: u64 = 5_000_000;
/// Figures above this many nodes are counted on every core (with the `parallel` feature).
const PARALLEL_FROM: u64 = 5_000_000;

/// Perft of a big figure: on every core with the `parallel` feature (on by default).
#[cfg(feature = "parallel")]
fn perft_big(pos: &mut Position, depth: u32) -> u64 {
    tesseract_movegen::perft_parallel(pos, depth, 0)
}

/// Perft of a big figure: on one thread, without the `parallel` feature.
#[cfg(not(feature = "parallel"))]
fn perft_big(pos: &mut Position, depth: u32) -> u64 {
    perft(pos, depth)
}

/// One line of a suite: a position and its figures by depth.
struct Entry {
    line: usize,
    fen: &'static str,
    figures: Vec<(u32, u64)>,
}

/// Reads a suite: `<fen> ;D1 <n> ;D2 <n> ...` per line, `#` comments and blank lines ignored.
fn parse_suite(name: &str, text: &'static str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().expect("split yields one part").trim();
        let figures: Vec<(u32, u64)> = parts
            .map(|part| {
                let (depth, nodes) = part
                    .trim()
                    .strip_prefix('D')
                    .and_then(|rest| rest.split_once(' '))
                    .unwrap_or_else(|| panic!("{name}:{}: {part:?} is not `D<depth> <nodes>`", i + 1));
                let depth = depth.parse().unwrap_or_else(|e| panic!("{name}:{}: depth {depth:?}: {e}", i + 1));
                let nodes = nodes.trim().parse().unwrap_or_else(|e| panic!("{name}:{}: count {nodes:?}: {e}", i + 1));
                (depth, nodes)
            })
            .collect();
        assert!(!figures.is_empty(), "{name}:{}: no figures", i + 1);
        entries.push(Entry { line: i + 1, fen, figures });
    }
    assert!(!entries.is_empty(), "{name}: no positions");
    entries
}

/// Parses a suite position; in the Chess960 suite, castling rights must put the position in Chess960 mode.
fn position(name: &str, entry: &Entry, chess960: bool) -> Position {
    let pos = Position::from_fen(entry.fen).unwrap_or_else(|e| panic!("{name}:{}: {}: {e}", entry.line, entry.fen));
    let castling = entry.fen.split(' ').nth(2).unwrap_or("-");
    if chess960 && castling != "-" {
        assert_eq!(pos.castling_mode(), CastlingMode::Chess960, "{name}:{}: {}", entry.line, entry.fen);
    }
    pos
}

/// Our divide of `pos` at `depth`, one `move nodes` per line, for a failure message.
fn divide_text(pos: &Position, depth: u32) -> String {
    let mut pos = pos.clone();
    let mut lines: Vec<String> =
        divide(&mut pos, depth).into_iter().map(|(m, n)| format!("  {} {n}", TextMove::from_move(m, &pos))).collect();
    lines.sort();
    lines.join("\n")
}

/// Checks every figure of a suite with the fast generator, within the debug cap.
fn check_fast(name: &str, text: &'static str, chess960: bool) {
    let entries = parse_suite(name, text);
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let mut checked = 0;
    for entry in &entries {
        let mut pos = position(name, entry, chess960);
        let before = pos.clone();
        let mut ran = 0;
        for &(depth, want) in &entry.figures {
            if cfg!(debug_assertions) && want > DEBUG_CAP {
                skipped.push(format!("{name}:{} D{depth} ({want} nodes): {}", entry.line, entry.fen));
                continue;
            }
            let got = if want > PARALLEL_FROM { perft_big(&mut pos, depth) } else { perft(&mut pos, depth) };
            assert!(pos == before, "{name}:{}: perft({depth}) changed the position {}", entry.line, entry.fen);
            if got != want {
                let detail = if depth > 1 { divide_text(&pos, depth) } else { String::new() };
                failures.push(format!(
                    "{name}:{}: perft({depth}) of {} is {got}, expected {want}\n{detail}",
                    entry.line, entry.fen
                ));
            }
            ran += 1;
        }
        assert!(ran > 0, "{name}:{}: every figure of {} was skipped", entry.line, entry.fen);
        checked += ran;
    }
    if !skipped.is_empty() {
        println!("{name}: skipped {} figures above {DEBUG_CAP} nodes in this debug build:", skipped.len());
        for s in &skipped {
            println!("  {s}");
        }
    }
    println!("{name}: {} positions, {checked} figures checked with the fast generator", entries.len());
    assert!(failures.is_empty(), "{} of {checked} figures differ:\n{}", failures.len(), failures.join("\n"));
}

/// Checks every figure of a suite up to `cap` nodes with the naive generator.
fn check_naive(name: &str, text: &'static str, chess960: bool, cap: u64) {
    let entries = parse_suite(name, text);
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in &entries {
        let setup = position(name, entry, chess960).to_setup();
        for &(depth, want) in entry.figures.iter().filter(|&&(_, want)| want <= cap) {
            let got = naive::perft(&setup, depth);
            if got != want {
                failures.push(format!(
                    "{name}:{}: naive perft({depth}) of {} is {got}, expected {want}",
                    entry.line, entry.fen
                ));
            }
            checked += 1;
        }
    }
    println!("{name}: {} positions, {checked} figures checked with the naive generator", entries.len());
    assert!(checked >= entries.len(), "{name}: the naive pass checked only {checked} figures");
    assert!(failures.is_empty(), "{} of {checked} figures differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn chess_suite_fast() {
    check_fast("chess.perft", CHESS, false);
}

#[test]
fn chess960_suite_fast() {
    check_fast("chess960.perft", CHESS960, true);
}

#[test]
fn chess_suite_naive() {
    let cap = if cfg!(debug_assertions) { NAIVE_CAP } else { NAIVE_CHESS_RELEASE_CAP };
    check_naive("chess.perft", CHESS, false, cap);
}

#[test]
fn chess960_suite_naive() {
    check_naive("chess960.perft", CHESS960, true, NAIVE_CAP);
}

/// The suites cover what they claim: the classic start to depth 6, and enough Chess960 positions.
#[test]
fn suites_cover_their_positions() {
    let chess = parse_suite("chess.perft", CHESS);
    let start = chess.iter().find(|e| e.fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"));
    let start = start.expect("the start position is in chess.perft");
    assert_eq!(start.figures.last(), Some(&(6, 119_060_324)));
    for entry in &chess {
        assert!(entry.figures.len() >= 3, "chess.perft:{}: too few depths", entry.line);
    }
    let chess960 = parse_suite("chess960.perft", CHESS960);
    assert!(chess960.len() >= 20, "only {} Chess960 positions", chess960.len());
    for entry in &chess960 {
        assert!(entry.figures.len() >= 4, "chess960.perft:{}: too few depths", entry.line);
    }
}
