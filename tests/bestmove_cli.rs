//! The bestmove example's command-line contract: `info depth D score cp S|mate M nodes N nps X pv ...` per
//! finished iteration, `bestmove MOVE` (or `bestmove none`) as the last line, the same output for the same
//! arguments apart from nps, and exit code 2 with a message on stderr for malformed input.

mod common;

use std::process::Output;

use common::stdout;
use tesseract::board::{Position, Shape, TextMove, start};
use tesseract::movegen::{Legal, legal_moves};
use tesseract::search::Tier;

fn bestmove(args: &[&str]) -> Output {
    common::run_example("bestmove", args, "")
}

/// Checks the shape of every line and returns the best move's text.
fn check_contract(out: &Output, pos: &Position) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(out);
    let lines: Vec<&str> = text.lines().collect();
    let (last, infos) = lines.split_last().expect("some output");
    for (i, line) in infos.iter().enumerate() {
        let w: Vec<&str> = line.split(' ').collect();
        assert_eq!((w[0], w[1], w[3], w[6], w[8], w[10]), ("info", "depth", "score", "nodes", "nps", "pv"), "{line}");
        assert_eq!(w[2].parse::<usize>().unwrap(), i + 1, "one line per iteration: {line}");
        assert!(w[4] == "cp" || w[4] == "mate", "{line}");
        w[5].parse::<i32>().unwrap();
        w[7].parse::<u64>().unwrap();
        w[9].parse::<u64>().unwrap();
        // The PV is a line of legal moves.
        let mut p = pos.clone();
        for m in &w[11..] {
            let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{line}: {e}"));
            p.play(mv).unwrap();
        }
        assert!(w.len() > 11, "{line}");
    }
    let best = last.strip_prefix("bestmove ").unwrap_or_else(|| panic!("last line {last:?}"));
    if best != "none" {
        pos.parse_move(best).unwrap_or_else(|e| panic!("bestmove {best}: {e}"));
    }
    best.to_string()
}

/// The output without the nps figures.
fn without_nps(text: &str) -> String {
    text.lines()
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            match w.iter().position(|&x| x == "nps") {
                Some(i) => [&w[..=i], &w[i + 2..]].concat().join(" "),
                None => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn classic_and_chess960() {
    let out = bestmove(&["--start", "classic", "--depth", "5"]);
    let best = check_contract(&out, &start::chess());
    assert_eq!(stdout(&out).lines().count(), 6);
    assert_eq!(best.len(), 4);
    let out = bestmove(&["--start", "chess960:0", "--depth", "4", "--hash", "2"]);
    check_contract(&out, &start::chess960(0).unwrap());
}

#[test]
fn tesseract_moves_are_eight_digits() {
    for army in ["light", "standard", "dense"] {
        let out = bestmove(&["--start", army, "--depth", "2"]);
        let best = check_contract(&out, &start::by_name(army).unwrap());
        assert!(best.len() == 8 && best.bytes().all(|b| (b'1'..=b'5').contains(&b)), "{best}");
    }
}

#[test]
fn mate_and_no_move() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let out = bestmove(&["--fen", fen, "--depth", "3"]);
    assert_eq!(check_contract(&out, &Position::from_fen(fen).unwrap()), "a1a8");
    assert!(stdout(&out).contains("score mate 1 "));
    let mated = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
    let out = bestmove(&["--fen", mated, "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "bestmove none\n");
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let out = bestmove(&["--fen", stalemate, "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "bestmove none\n");
}

#[test]
fn same_arguments_same_output() {
    let args = ["--start", "standard", "--tier", "beginner", "--seed", "17"];
    let a = bestmove(&args);
    let b = bestmove(&args);
    check_contract(&a, &start::tesseract(start::Army::Standard));
    assert_eq!(without_nps(&stdout(&a)), without_nps(&stdout(&b)));
    let args = ["--start", "classic", "--nodes", "3000", "--seed", "5"];
    assert_eq!(without_nps(&stdout(&bestmove(&args))), without_nps(&stdout(&bestmove(&args))));
}

#[test]
fn malformed_input_exits_2_with_a_message() {
    for args in [
        &["--start", "huge"][..],
        &["--fen", "not a position"],
        &["--start", "classic", "--tier", "grandmaster"],
        &["--start", "classic", "--depth", "0"],
        &["--start", "classic", "--depth", "x"],
        &["--start", "classic", "--hash", "0"],
        &["--start", "classic", "--hash", "65537"],
        &["--start", "classic", "--nodes", "0"],
        &["--start", "chess960:960"],
        &["--start", "classic", "--moves", "e2e4 e2e4"],
        &["--start", "classic", "--moves", "e2e9"],
        &["--start", "classic", "--frobnicate"],
        &[],
    ] {
        let out = bestmove(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `--moves` gives the engine the game: a position repeated from the line is a draw, which a lost side
/// seeks (issue 12, history). Black, a queen down, returns to a position of the line with h8g8.
#[test]
fn the_line_played_before_makes_a_repetition_a_draw() {
    let fen = "7k/8/8/8/8/8/8/K1Q5 b - - 0 1";
    let with = stdout(&bestmove(&["--fen", fen, "--moves", "h8g8 a1a2 g8h8 a2a1", "--depth", "3"]));
    let lines: Vec<&str> = with.lines().collect();
    assert!(lines[lines.len() - 2].starts_with("info depth 3 score cp 0 "), "{with}");
    assert_eq!(lines[lines.len() - 1], "bestmove h8g8");
    let without = stdout(&bestmove(&["--fen", fen, "--depth", "3"]));
    assert!(without.lines().rev().nth(1).is_some_and(|l| l.contains("score cp -")), "{without}");
}

/// A dead position of the rules is a draw to the engine (issue 34: K+B against K scored `cp 399`), and the
/// lines keep the contract.
#[test]
fn a_dead_position_scores_a_draw() {
    let fen = "8/8/8/3k4/8/8/8/2B1K3 w - - 0 1";
    let out = bestmove(&["--fen", fen, "--depth", "4"]);
    check_contract(&out, &Position::from_fen(fen).unwrap());
    let text = stdout(&out);
    let infos: Vec<&str> = text.lines().filter(|l| l.starts_with("info")).collect();
    assert!(!infos.is_empty() && infos.iter().all(|l| l.contains(" score cp 0 ")), "{text}");
}

/// The score of the last `info` line, in centipawns (`None` for a mate score).
fn last_cp(text: &str) -> Option<i32> {
    let info = text.lines().rev().find(|l| l.starts_with("info "))?;
    let w: Vec<&str> = info.split(' ').collect();
    (w[4] == "cp").then(|| w[5].parse().unwrap())
}

/// The other half: a side that is ahead avoids a repetition, a draw to it. White, a queen up, plays some
/// move M without the history. The line M, a king move of Black, M back and the king move back returns
/// to the position, so that the position after M occurred before: with that line White plays another move,
/// and still wins (at the time of writing M is c1c3, the line c1c3 h8h7 c3c1 h7h8, and White plays c1h6).
#[test]
fn the_line_played_before_makes_the_side_ahead_avoid_a_repetition() {
    let fen = "7k/8/8/8/8/8/8/K1Q5 w - - 0 1";
    let root = Position::from_fen(fen).unwrap();
    let without = bestmove(&["--fen", fen, "--depth", "3"]);
    let m = check_contract(&without, &root);
    assert!(last_cp(&stdout(&without)).is_some_and(|cp| cp > 500), "{}", stdout(&without));
    // Only kings and a queen: every move can be taken back by its reverse.
    let back = |text: &str| format!("{}{}", &text[2..4], &text[..2]);
    let mut after_m = root.clone();
    after_m.play(after_m.parse_move(&m).unwrap()).unwrap();
    let line = legal_moves(&after_m)
        .into_iter()
        .map(|reply| TextMove::from_move(reply, &after_m).to_string())
        .map(|reply| format!("{m} {reply} {} {}", back(&m), back(&reply)))
        .find(|line| {
            let mut p = root.clone();
            line.split(' ').all(|t| p.parse_move(t).is_ok_and(|mv| p.play(mv).is_ok())) && p.hash() == root.hash()
        })
        .unwrap_or_else(|| panic!("no line returns to the position after {m}"));
    let with = bestmove(&["--fen", fen, "--moves", &line, "--depth", "3"]);
    let best = check_contract(&with, &root);
    assert_ne!(best, m, "after {line}, {m} repeats a position: a draw");
    assert!(last_cp(&stdout(&with)).is_some_and(|cp| cp > 500), "{}", stdout(&with));
}

/// A tier plays by its board's budgets: in chess the expert stops within 20,000 nodes (its chess budget),
/// where its 4D budget would allow 150,000; from the standard Tesseract start it searches past that.
#[test]
fn a_tier_searches_within_its_boards_budget() {
    let nodes = |args: &[&str]| -> u64 {
        let text = stdout(&bestmove(args));
        text.lines()
            .filter_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok())
            .max()
            .expect("info lines with nodes")
    };
    let chess = Tier::Expert.settings_on(Shape::CHESS);
    let four_d = Tier::Expert.settings_on(Shape::TESSERACT);
    assert!(four_d.nodes > chess.nodes);
    assert!(nodes(&["--start", "classic", "--tier", "expert"]) <= chess.nodes);
    assert!(nodes(&["--start", "standard", "--tier", "expert"]) > chess.nodes);
}
