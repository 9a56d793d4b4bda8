//! The play example end to end, driven through scripted stdin: moves, listing a piece's moves, malformed
//! and illegal input, undo, save and load (with the engine's moves re-thought), the end of a game.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::{example, stdout};

fn play(args: &[&str], input: &str) -> Output {
    common::run_example("play", args, input)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tesseract-play-{}-{name}", std::process::id()))
}

#[test]
fn tesseract_against_the_beginner() {
    let save = temp("4d.json");
    let script = format!(
        "moves 2111\nfoo\n99999999\n22132314\n22132313\nhistory\nundo\nhistory\n22132313\nsave {0}\nload {0} verify\nquit\n",
        save.display()
    );
    // Without the wall-clock guard the engine's moves do not depend on how busy the machine is: `verify`
    // replays them however many tests run at once.
    let out = play(&["--tier", "beginner", "--seed", "5", "--no-color", "--no-time-guard"], &script);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The 5×5 grid of 5×5 boards with coordinates.
    assert!(text.contains("  w=1          w=2          w=3          w=4          w=5"), "{text}");
    assert!(text.contains("z=1   5 . . . . .  5 . . . . .  5 . . . . .  5 . . . . .  5 . . . . ."), "{text}");
    // The knight's moves, listed and highlighted (`>N` the knight, ` *` its destinations).
    assert!(text.contains("The white knight on 2111 has 12 legal moves: "), "{text}");
    assert!(text.contains("1 R>N K N R"), "{text}");
    assert!(text.contains(" *"), "{text}");
    // Malformed and illegal moves are explained.
    assert!(text.contains("\"foo\" is not a move or a command"), "{text}");
    assert!(text.contains("Illegal move: from cell \"99999999\" is not on this board"), "{text}");
    assert!(text.contains("Illegal move: 22132314 is not a legal move here: that piece cannot move there"), "{text}");
    // The engine says it is thinking, then plays: one line a move, in words (each iteration only with
    // --verbose).
    assert!(text.contains("The beginner engine is thinking..."), "{text}");
    assert!(!text.contains("  depth "), "{text}");
    let engine_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("Black (beginner) plays ")).collect();
    assert_eq!(engine_lines.len(), 2, "{text}");
    for line in engine_lines {
        assert!(summary_line_reads_well(line), "{line}");
    }
    assert!(text.contains("Move taken back."), "{text}");
    assert!(text.contains("No moves yet."), "{text}");
    assert!(text.contains("Saved 2 moves to"), "{text}");
    assert!(text.contains("All 1 engine moves replayed identically."), "{text}");
    let json = std::fs::read_to_string(&save).unwrap();
    assert!(json.contains("\"black\": \"beginner\"") && json.contains("\"seed\": 5"), "{json}");
    // Loading the record from the command line continues the game.
    let out = play(&["--load", save.to_str().unwrap(), "--no-color"], "history\nquit\n");
    let text = stdout(&out);
    assert!(text.contains("Loaded "), "{text}");
    assert!(text.lines().any(|l| l.starts_with("22132313 ")), "{text}");
    std::fs::remove_file(&save).ok();
}

/// Whether an engine's line reads `Black (beginner) plays Y2453-2353 — Black is better by about 0.4 pawns,
/// looking 2 moves ahead, 0.1 s.`: the move in the long form or SAN, the judgement in the words of
/// `tesseract_search::describe`, the time in seconds.
fn summary_line_reads_well(line: &str) -> bool {
    let Some((head, tail)) = line.split_once(" — ") else { return false };
    let mut words = head.split(' ');
    let side = words.next().is_some_and(|w| w == "White" || w == "Black");
    let tier = words.next().is_some_and(|w| w.starts_with('(') && w.ends_with(')'));
    let plays = words.next() == Some("plays") && words.next().is_some_and(|m| !m.is_empty()) && words.next().is_none();
    let Some(judgement) = tail.strip_suffix(" s.").and_then(|t| t.rsplit_once(", ")) else { return false };
    let (words_part, seconds) = judgement;
    let seconds = seconds.parse::<f64>().is_ok() && seconds.contains('.');
    let said = words_part.starts_with("about even")
        || words_part.starts_with("White is better by about ")
        || words_part.starts_with("Black is better by about ")
        || words_part.contains(" mates in ");
    let looking = words_part.contains(" mates in ") || words_part.contains(", looking ");
    side && tier && plays && seconds && said && looking
}

#[test]
fn two_players_to_mate() {
    let picture = temp("mate.svg");
    let out = play(
        &["--start", "classic", "--two-players", "--no-color"],
        &format!("e2e4q\nf2f3\ne7e5\ng2g4\nd8h4\nsvg {}\ne2e4\nundo\nundo\nmoves b1\nquit\n", picture.display()),
    );
    let text = stdout(&out);
    assert!(out.status.success());
    // The picture of the mate: the last move marked, the mated king red, every piece drawn.
    let svg = std::fs::read_to_string(&picture).unwrap();
    std::fs::remove_file(&picture).ok();
    assert!(text.contains(&format!("Wrote the picture of the position to {}.", picture.display())), "{text}");
    assert_eq!(svg.matches("class=\"last-move\"").count(), 2);
    assert_eq!(svg.matches("fill=\"#e03131\"").count(), 1, "the king in check");
    assert_eq!(svg.matches("class=\"piece ").count(), 32);
    assert!(text.contains("8 r n b q k b n r"), "{text}");
    assert!(text.contains("  a b c d e f g h"), "{text}");
    assert!(
        text.contains("Illegal move: e2e4q is not a legal move here: this promotion piece is not allowed here"),
        "{text}"
    );
    assert!(text.contains("Game over: checkmate, black wins."), "{text}");
    assert!(text.contains("The game is over (checkmate, black wins)"), "{text}");
    assert!(text.contains("Move taken back."), "{text}");
    assert!(text.contains("The white knight on b1 has 2 legal moves: "), "{text}");
}

#[test]
fn end_of_input_and_bad_files() {
    // End of input without `quit` ends the session cleanly; a line that is not UTF-8 is refused.
    let mut child = Command::new(example("play"))
        .args(["--start", "chess960:0", "--two-players", "--no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"\xff\xfe\ne2e4\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("not UTF-8") && text.contains("white plays e2e4."), "{text}");
    let missing = temp("missing.json");
    let out = play(
        &["--start", "light", "--two-players", "--no-color"],
        &format!("load {}\nsave\nmoves 9999\nmoves 4535\nfen\nquit\n", missing.display()),
    );
    let text = stdout(&out);
    assert!(text.contains("Could not load"), "{text}");
    assert!(text.contains("save needs a file name"), "{text}");
    assert!(text.contains("\"9999\" is not a cell of this board"), "{text}");
    assert!(text.contains("belongs to the side not to move"), "{text}");
    assert!(text.contains(" w - - 0 1"), "{text}");
    // A broken record is refused with a message.
    let bad = temp("bad.json");
    std::fs::write(&bad, r#"{"start": "standard", "seed": 1, "white": "human", "black": "club", "moves": []}"#)
        .unwrap();
    let out = play(&["--load", bad.to_str().unwrap(), "--no-color"], "quit\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Could not load"));
    std::fs::remove_file(&bad).ok();
}

#[test]
fn playing_black_undo_goes_back_to_a_human_turn() {
    // Undo before any move of yours leaves the engine's opening move; later undos go back to your turn,
    // and the engine's side is never handed to you: the saved game replays.
    let save = temp("black.json");
    let script = format!("undo\ne7e5\nundo\nhistory\ne7e5\nsave {0}\nload {0} verify\nquit\n", save.display());
    let out = play(
        &[
            "--start",
            "classic",
            "--color",
            "black",
            "--tier",
            "beginner",
            "--seed",
            "3",
            "--no-color",
            "--no-time-guard",
        ],
        &script,
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Nothing to undo."), "{text}");
    assert!(text.contains("All 2 engine moves replayed identically."), "{text}");
    assert!(!text.contains("white plays"), "the human never moves for White: {text}");
    std::fs::remove_file(&save).ok();
}

#[test]
fn malformed_arguments_exit_2() {
    for args in [
        &["--start", "huge"][..],
        &["--tier", "grandmaster"],
        &["--color", "green"],
        &["--white", "robot"],
        &["--frobnicate"],
    ] {
        let out = play(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn promotion_in_2d() {
    let out = play(
        &["--start", "classic", "--two-players", "--no-color"],
        "a2a4\nb7b5\na4b5\na7a6\nb5a6\nc8b7\na6b7\nb8c6\nb7a8\nb7a8q\nquit\n",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("white plays b7a8q."), "{text}");
    assert!(text.contains("8 Q . . q k b n r"), "{text}");
    assert!(!text.contains("white plays b7a8."), "a promotion needs its piece: {text}");
}

#[test]
fn garbage_input_never_crashes() {
    // Lines of random words, digits and symbols (no `save`, which would write files), in 2D and 4D.
    let words = ["moves", "undo", "board", "fen", "history", "help", "load", "e2e4", "2213", "22132313", "verify"];
    let symbols: Vec<char> = "0123456789abcdefghQRBNUD -=/\\\"'é€\t".chars().collect();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut script = String::new();
    for _ in 0..300 {
        let mut line = String::new();
        for _ in 0..next(4) {
            if next(2) == 0 {
                line.push_str(words[next(words.len())]);
            } else {
                line.extend((0..next(10)).map(|_| symbols[next(symbols.len())]));
            }
            line.push(' ');
        }
        script.push_str(line.trim_end());
        script.push('\n');
    }
    for start in ["classic", "light"] {
        let out = play(&["--start", start, "--two-players", "--no-color"], &script);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{start}: {stderr}");
        assert!(!stderr.contains("panicked"), "{start}: {stderr}");
    }
}

/// A fresh empty folder for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs play with `args` and `input`, at most a minute.
fn play_within(args: &[&str], input: &[u8]) -> Output {
    let mut command = Command::new(example("play"));
    command.args(args);
    common::run_within(command, input.to_vec(), std::time::Duration::from_secs(60))
}

#[test]
fn two_engines_stop_at_quit_or_the_end_of_input() {
    // Issue 11 item 9: with two engine players the game played to its end whatever the input said.
    let engines = ["--start", "classic", "--white", "beginner", "--black", "beginner", "--seed", "1", "--no-color"];
    for input in ["quit\n", ""] {
        let out = play_within(&engines, input.as_bytes());
        let text = stdout(&out);
        assert!(out.status.success(), "{input:?}: {text}");
        assert!(text.contains("white beginner vs black beginner"), "{input:?}: {text}");
        assert!(!text.contains("Game over"), "{input:?}: the engines played on: {text}");
    }
    // The same for a loaded game between engines; lines before the `quit` are still answered, in order.
    let dir = temp_dir("engines");
    let record = dir.join("engines.json");
    std::fs::write(
        &record,
        r#"{"start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seed": 2, "white": "beginner", "black": "beginner", "moves": ["e2e4"]}"#,
    )
    .unwrap();
    let out = play_within(&["--load", record.to_str().unwrap(), "--no-color"], b"fen\nquit\n");
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Loaded "), "{text}");
    let answer = text.lines().skip_while(|l| !l.ends_with("> fen")).nth(1).unwrap_or_default();
    assert_eq!(answer.split(' ').count(), 6, "the fen line is echoed, then answered: {text}");
    assert!(!text.contains("Game over"), "the engines played on: {text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_failed_save_leaves_the_old_file_as_it_was() {
    // Issue 11 item 10: `save` truncated the file before writing it. Here no file may grow past 0 bytes
    // (`ulimit -f 0`, which binds root too), so writing the new game fails; the old save must survive.
    let dir = temp_dir("atomic");
    let save = dir.join("game.json");
    let old = r#"{"start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seed": 1, "white": "human", "black": "human", "moves": ["e2e4"]}"#;
    std::fs::write(&save, old).unwrap();
    let script = format!("e2e4\ne7e5\nsave {}\nquit\n", save.display());
    let args = ["--start", "classic", "--two-players", "--no-color"];
    let command = common::example_under_shell("play", "trap '' XFSZ; ulimit -f 0", &args);
    let out = common::run_within(command, script.into_bytes(), std::time::Duration::from_secs(60));
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("Could not save to {}: ", save.display())), "{text}");
    assert_eq!(std::fs::read_to_string(&save).unwrap(), old);
    let names = |dir: &PathBuf| -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    };
    assert_eq!(names(&dir), ["game.json"], "no temporary file is left behind");
    // A save that can be written replaces the old file whole, and leaves nothing else.
    let out = play(&args, &format!("e2e4\ne7e5\nsave {}\nquit\n", save.display()));
    assert!(stdout(&out).contains("Saved 2 moves to"), "{}", stdout(&out));
    let json = std::fs::read_to_string(&save).unwrap();
    assert!(json.contains("\"e7e5\"") && json.ends_with("}\n"), "{json}");
    assert_eq!(names(&dir), ["game.json"]);
    // A folder that is a regular file: a clear message, and the game goes on.
    let blocker = dir.join("blocker");
    std::fs::write(&blocker, "").unwrap();
    let out = play(&args, &format!("save {}/game.json\ne2e4\nquit\n", blocker.display()));
    let text = stdout(&out);
    assert!(text.contains(&format!("Could not save to {}/game.json: ", blocker.display())), "{text}");
    assert!(text.contains("white plays e2e4."), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn loading_is_capped_and_takes_a_byte_order_mark() {
    // Issue 11 item 16: `--load /dev/zero` read until memory ran out (here a 100 MB address-space limit
    // stands for that); a larger-than-sane file is refused naming the file and the cap; a UTF-8 byte-order
    // mark is no obstacle.
    let command = common::example_under_shell("play", "ulimit -v 100000", &["--load", "/dev/zero", "--no-color"]);
    let out = common::run_within(command, b"quit\n".to_vec(), std::time::Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("Could not load /dev/zero: the file is larger than 16 MiB"), "{stderr}");
    let dir = temp_dir("load");
    let big = dir.join("big.json");
    std::fs::File::create(&big).unwrap().set_len((16 << 20) + 1).unwrap();
    let out = play(&["--two-players", "--no-color"], &format!("load {}\nquit\n", big.display()));
    let text = stdout(&out);
    assert!(text.contains(&format!("Could not load {}: the file is larger than 16 MiB", big.display())), "{text}");
    let bom = dir.join("bom.json");
    let record = r#"{"start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seed": 4, "white": "human", "black": "human", "moves": ["e2e4", "e7e5"]}"#;
    std::fs::write(&bom, format!("\u{feff}{record}\n")).unwrap();
    let out = play(&["--load", bom.to_str().unwrap(), "--no-color"], "history\nquit\n");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("Loaded {}: 2 moves, human vs human, seed 4.", bom.display())), "{text}");
    assert!(text.contains("e2e4 e7e5"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn long_lines_are_answered_and_skipped_without_being_kept() {
    // Issue 11 item 16: a 128 MiB line under a 100 MB address-space limit; the cap is 4096 bytes. A line's
    // `\r\n` ending is no part of it, nor of its length (old: the `\r` of an over-long line was counted).
    let mut input = format!("{:<4096}\r\n{:<4097}\n", "history", "history").into_bytes();
    input.extend(std::iter::repeat_n(b'9', 128 << 20));
    input.extend(b"\r\ne2e4\n");
    let args = ["--start", "classic", "--two-players", "--no-color"];
    let command = common::example_under_shell("play", "ulimit -v 100000", &args);
    let out = common::run_within(command, input, std::time::Duration::from_secs(120));
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.matches("white> That line has 4097 bytes, more than 4096: ignored.").count(), 1, "{text}");
    assert_eq!(text.matches("white> That line has 134217728 bytes, more than 4096: ignored.").count(), 1, "{text}");
    assert!(text.contains("No moves yet."), "a line of exactly 4096 bytes is read: {text}");
    assert!(text.contains("white plays e2e4."), "{text}");
}

/// Two master engines on the dense 4D start (`--verbose`, so that each iteration is printed): once the
/// first search has printed its third iteration, a `quit` (or the end of input) stops it at once: no later
/// iteration is printed, and the program ends within a second (old: `quit` was seen only after the iteration under way, which on this board takes
/// from a fraction of a second to the 3.5 s guard).
#[test]
fn quit_cuts_short_a_search_under_way() {
    use std::io::BufRead;
    use std::time::{Duration, Instant};
    for by_eof in [false, true] {
        let mut child = Command::new(example("play"))
            .args([
                "--start",
                "dense",
                "--white",
                "master",
                "--black",
                "master",
                "--seed",
                "1",
                "--no-color",
                "--verbose",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = Some(child.stdin.take().unwrap());
        let (send, lines) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        let mut before = Vec::new();
        let start = Instant::now();
        while !before.last().is_some_and(|l: &String| l.starts_with("  depth  3 ")) {
            assert!(start.elapsed() < Duration::from_secs(60), "no third iteration: {before:?}");
            match lines.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => before.push(line),
                Err(e) => panic!("{e}: {before:?}"),
            }
        }
        let quit = Instant::now();
        if by_eof {
            drop(stdin.take());
        } else {
            stdin.as_mut().unwrap().write_all(b"quit\n").unwrap();
        }
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if quit.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("still running 30 s after the quit");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let stopped = quit.elapsed();
        drop(stdin);
        reader.join().unwrap();
        let after: Vec<String> = lines.try_iter().collect();
        assert!(status.success(), "{after:?}");
        assert!(!after.iter().any(|l| l.contains("  depth ")), "eof {by_eof}: the search went on: {after:?}");
        assert!(!after.iter().any(|l| l.contains(" (master) plays ")), "eof {by_eof}: {after:?}");
        assert!(stopped < Duration::from_secs(1), "eof {by_eof}: {stopped:?} from the quit to the end: {after:?}");
    }
}

/// `save FILE.pgn` writes PGN (the players and the seed in tags), which python-chess-style readers take,
/// and `load FILE.pgn verify` replays it with the engine's moves re-thought; 4D games too
/// (`[Variant "Tesseract"]`, the TFEN, eight-digit moves).
#[test]
fn a_game_saved_as_pgn_loads_and_replays() {
    for (start, moves, first) in [("classic", "e2e4\n", "1. e4 "), ("standard", "22132313\n", "1. 22132313 ")] {
        let save = temp(&format!("{start}.pgn"));
        let script = format!("{moves}save {0}\nload {0} verify\nquit\n", save.display());
        let out =
            play(&["--start", start, "--tier", "beginner", "--seed", "5", "--no-color", "--no-time-guard"], &script);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = stdout(&out);
        assert!(text.contains("All 1 engine moves replayed identically."), "{text}");
        let pgn = std::fs::read_to_string(&save).unwrap();
        assert!(pgn.contains("[White \"human\"]\n[Black \"beginner\"]\n"), "{pgn}");
        assert!(pgn.contains("[Seed \"5\"]"), "{pgn}");
        assert!(pgn.contains(first), "{pgn}");
        assert_eq!(pgn.contains("[Variant \"Tesseract\"]"), start == "standard", "{pgn}");
        std::fs::remove_file(&save).ok();
    }
}

#[test]
fn save_follows_a_relative_dangling_link_and_a_dash_prints_the_record() {
    use std::os::unix::fs::symlink;
    let (dir, here, there) = common::scratch_here_there("play-targets");
    // Relative to the link's folder (here), not to the working directory of the game (dir).
    let link = here.join("game.json");
    symlink("../there/game.json", &link).unwrap();
    let picture = here.join("board.svg");
    symlink("../there/board.svg", &picture).unwrap();
    let script =
        format!("e2e4\nsave {}\nsvg {}\nsave -\nsave {}\nquit\n", link.display(), picture.display(), there.display());
    let mut command = Command::new(example("play"));
    command.current_dir(&dir).args(["--start", "classic", "--two-players", "--no-color"]);
    let out = common::run_within(command, script.into_bytes(), std::time::Duration::from_secs(60));
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("Saved 1 moves to {}.", link.display())), "{text}");
    assert!(common::is_link(&link) && common::is_link(&picture), "a link was replaced by a file");
    let json = std::fs::read_to_string(there.join("game.json")).unwrap();
    assert!(json.contains("\"e2e4\""), "{json}");
    assert!(std::fs::read_to_string(there.join("board.svg")).unwrap().starts_with("<svg"));
    assert_eq!(common::names(&here), ["board.svg", "game.json"]);
    assert_eq!(common::names(&there), ["board.svg", "game.json"]);
    // `save -` prints the record itself.
    assert!(text.contains(&json), "{text}");
    assert!(text.contains("Saved 1 moves to standard output."), "{text}");
    // A folder is refused, and the game goes on.
    assert!(text.contains(&format!("Could not save to {}: a folder, not a file", there.display())), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Two people: the board from White's side until `flip` turns it; `history` writes SAN in 2D and the long
/// form in 4D, numbered, then the texts as typed. Playing Black against the engine draws Black's side.
#[test]
fn the_board_turns_for_black_and_history_reads_like_a_score_sheet() {
    let out = play(&["--start", "classic", "--two-players", "--no-color"], "e2e4\ne7e5\ng1f3\nhistory\nflip\nquit\n");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("\n1. e4 e5 2. Nf3\ne2e4 e7e5 g1f3\n"), "{text}");
    let turned = text.split("black> flip").nth(1).expect("the board after flip");
    assert!(turned.contains("\n1 R . B K Q B N R\n"), "{turned}"); // g1 empty, seen from h to a
    assert!(turned.contains("\n  h g f e d c b a\n"), "{turned}");
    let out = play(&["--two-players", "--no-color"], "22132313\n24532353\nhistory\nquit\n");
    let text = stdout(&out);
    assert!(text.contains("\n1. Y2213-2313 Y2453-2353\n22132313 24532353\n"), "{text}");
    // Against the engine as Black: Black's side from the first picture on.
    let out =
        play(&["--start", "classic", "--color", "black", "--tier", "beginner", "--seed", "3", "--no-color"], "quit\n");
    let text = stdout(&out);
    assert!(text.contains("\n  h g f e d c b a\n"), "{text}");
    assert!(!text.contains("\n  a b c d e f g h\n"), "{text}");
}

/// The last 2D diagram printed before `text`'s last prompt: its eight rank lines top to bottom (`8 r n b …`)
/// and its line of files.
fn last_2d_diagram(text: &str) -> (Vec<String>, String) {
    let lines: Vec<&str> = text.lines().collect();
    let files = lines
        .iter()
        .rposition(|l| *l == "  a b c d e f g h" || *l == "  h g f e d c b a")
        .unwrap_or_else(|| panic!("no 2D diagram: {text}"));
    assert!(files >= 8, "{text}");
    (lines[files - 8..files].iter().map(|l| l.to_string()).collect(), lines[files].to_string())
}

/// A cell line of a 4D diagram: the row of boards it is in (`z=3`), its y label, and the cells of each of
/// the five boards left to right (`r n k n r`).
#[derive(Debug)]
struct CellLine {
    z: String,
    y: String,
    boards: Vec<String>,
}

/// The last 4D diagram in `text`: the w of its columns left to right (`w=5`, …) and its cell lines top to
/// bottom. It reads the layout, not a copy of it: a row of boards starts with its `z=N` label, each line
/// of cells has five boards of a y label and five cells.
fn last_4d_diagram(text: &str) -> (Vec<String>, Vec<CellLine>) {
    let start = text.rfind("\n        w=").unwrap_or_else(|| panic!("no 4D diagram: {text}")) + 1;
    let mut lines = text[start..].lines();
    let columns: Vec<String> = lines.next().unwrap().split_whitespace().map(String::from).collect();
    let mut cells = Vec::new();
    let mut z = String::new();
    for line in lines {
        if line.starts_with("z=") {
            z = line.split_whitespace().next().unwrap().to_string();
        } else if !line.starts_with("      ") && !line.is_empty() {
            break; // the words under the diagram
        }
        let tokens: Vec<&str> = line.get(6..).unwrap_or_default().split_whitespace().collect();
        if tokens.len() == 30 && tokens[1].len() == 1 && !tokens[1].chars().all(|c| c.is_ascii_digit()) {
            let boards: Vec<String> = tokens.chunks(6).map(|b| b[1..].join(" ")).collect();
            cells.push(CellLine { z: z.clone(), y: tokens[0].to_string(), boards });
        }
    }
    assert_eq!(columns.len(), 5, "{text}");
    assert_eq!(cells.len(), 25, "{text}");
    (columns, cells)
}

/// Issue 29: the board is drawn from the side of the person at the keyboard, from the first picture on:
/// Black's back rank at the bottom for `--color black` (the engine, at the default beginner tier, opens),
/// for `--black human` against an engine and for a loaded game where only Black is human; White's when both
/// sides or neither are people. Read from the printed diagram, so a board drawn from the wrong side fails.
#[test]
fn the_board_is_drawn_from_the_persons_side_from_the_first_picture() {
    let bottom_2d = |args: &[&str], input: &str| {
        let out = play(args, input);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = stdout(&out);
        let (ranks, files) = last_2d_diagram(&text);
        (text, ranks, files)
    };
    // 2D, against the engine as Black (the default tier: beginner).
    let (text, ranks, files) =
        bottom_2d(&["--start", "classic", "--color", "black", "--seed", "3", "--no-color"], "quit\n");
    assert!(text.contains("chess: white beginner vs black human"), "{text}");
    assert_eq!(ranks.iter().map(|r| &r[..1]).collect::<String>(), "12345678", "rank 1 at the top: {text}");
    assert_eq!(ranks[7], "8 r n b k q b n r", "Black's back rank at the bottom, seen from h to a: {text}");
    assert_eq!(ranks[6], "7 p p p p p p p p", "{text}");
    assert_eq!(files, "  h g f e d c b a");
    // The same with the players named one by one.
    let (text, ranks, _) = bottom_2d(
        &["--start", "classic", "--white", "beginner", "--black", "human", "--seed", "3", "--no-color"],
        "quit\n",
    );
    assert_eq!(ranks[7], "8 r n b k q b n r", "{text}");
    // White's side for White, for two people, and for a loaded game where both are people.
    for args in [
        &["--start", "classic", "--seed", "3", "--no-color"][..],
        &["--start", "classic", "--white", "human", "--black", "beginner", "--no-color"],
        &["--start", "classic", "--two-players", "--no-color"],
        &["--start", "classic", "--white", "human", "--black", "human", "--no-color"],
    ] {
        let (text, ranks, files) = bottom_2d(args, "quit\n");
        assert_eq!(ranks[7], "1 R N B Q K B N R", "{args:?}: {text}");
        assert_eq!(files, "  a b c d e f g h", "{args:?}");
    }
    // A loaded game where only Black is a person is drawn from Black's side, from the command line and
    // from `load` in a game between two people (which was drawn from White's side).
    let dir = temp_dir("side");
    let record = dir.join("black.json");
    std::fs::write(
        &record,
        r#"{"start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seed": 2, "white": "beginner", "black": "human", "moves": ["e2e4"]}"#,
    )
    .unwrap();
    let (text, ranks, _) = bottom_2d(&["--load", record.to_str().unwrap(), "--no-color"], "quit\n");
    assert_eq!(ranks[7], "8 r n b k q b n r", "{text}");
    assert_eq!(ranks[3], "4 . . . P . . . .", "e4 seen from Black's side: {text}");
    let (text, ranks, _) = bottom_2d(
        &["--start", "classic", "--two-players", "--no-color"],
        &format!("load {}\nquit\n", record.display()),
    );
    assert_eq!(ranks[7], "8 r n b k q b n r", "{text}");
    std::fs::remove_dir_all(&dir).ok();

    // 4D, against the engine as Black: the rows of boards run z=1 at the top to z=5 at the bottom, the
    // columns w=5 on the left to w=1, and the bottom line of cells is Black's back row (y=5) on the board
    // z=5, w=5, the king in the middle.
    let out = play(&["--color", "black", "--seed", "3", "--no-color", "--no-time-guard"], "quit\n");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Tesseract, chess on a 5x5x5x5 board: white beginner vs black human"), "{text}");
    let (columns, cells) = last_4d_diagram(&text);
    assert_eq!(columns, ["w=5", "w=4", "w=3", "w=2", "w=1"], "{text}");
    let rows: Vec<&str> = cells.iter().step_by(5).map(|l| l.z.as_str()).collect();
    assert_eq!(rows, ["z=1", "z=2", "z=3", "z=4", "z=5"], "{text}");
    let bottom = cells.last().unwrap();
    assert_eq!((bottom.z.as_str(), bottom.y.as_str(), bottom.boards[0].as_str()), ("z=5", "5", "r n k n r"), "{text}");
    assert_eq!(cells[23].boards[2], "y y y y y", "Black's Y-pawns on w=3, just above: {text}");
    let lower: String = cells[15..].iter().flat_map(|l| l.boards.iter()).cloned().collect();
    assert!(!lower.contains('K') && lower.contains('k'), "{text}");
    assert!(text.contains("turned for Black:"), "{text}");
    // And from White's side for White: White's back row at the bottom left, on z=1, w=1.
    let out = play(&["--two-players", "--no-color"], "quit\n");
    let text = stdout(&out);
    let (columns, cells) = last_4d_diagram(&text);
    assert_eq!(columns, ["w=1", "w=2", "w=3", "w=4", "w=5"], "{text}");
    let bottom = cells.last().unwrap();
    assert_eq!((bottom.z.as_str(), bottom.y.as_str(), bottom.boards[0].as_str()), ("z=1", "1", "R N K N R"), "{text}");
}

/// Issue 29: a cell typed where a move belongs (`2213` on the 5⁴ board) was answered "4 characters:
/// expected 4 or 5"; it is now named as a cell, with the forms of a move and `moves 2213`. Other texts get
/// what this board expects, and the long form that `history` writes is a move too (SAN in 2D).
#[test]
fn a_cell_or_a_short_text_is_answered_for_the_board_in_use() {
    let out = play(&["--two-players", "--no-color"], "2213\n221\n2\nY2213-2413\nY2213-2313\nhistory\nquit\n");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        text.contains(
            "\"2213\" names a cell, not a move: a move names its from cell and then its to cell, written as eight \
             digits from-xyzw to-xyzw like 22132313"
        ),
        "{text}"
    );
    assert!(
        text.contains("or the long form like Y2213-2313. Type `moves 2213` to list the moves of the piece on 2213."),
        "{text}"
    );
    assert!(
        text.contains("\"221\" is not a move or a command (3 coordinate digits, but a move on this board has 8: 4 for the from cell, then 4 for the to cell (22132313))"),
        "{text}"
    );
    assert!(
        text.contains("\"2\" is not a move or a command (1 coordinate digit, but a move on this board has 8"),
        "{text}"
    );
    for nonsense in ["expected 4 or 5", "on a board of one axis", "6 in 3D"] {
        assert!(!text.contains(nonsense), "{nonsense}: {text}");
    }
    // The long form: an illegal one says why, a legal one is played.
    assert!(text.contains("Illegal move: Y2213-2413 is not a legal move here"), "{text}");
    assert!(text.contains("white plays Y2213-2313."), "{text}");
    assert!(text.contains("\n1. Y2213-2313\n22132313\n"), "{text}");
    // 2D: SAN is a move, a cell that is no SAN move says why.
    let out = play(&["--start", "classic", "--two-players", "--no-color"], "e4\nNf6\ne6\nhistory\nquit\n");
    let text = stdout(&out);
    assert!(text.contains("white plays e4.") && text.contains("black plays Nf6."), "{text}");
    assert!(text.contains("Illegal move: e6 is not a legal move here"), "{text}");
    assert!(text.contains("\n1. e4 Nf6\ne2e4 g8f6\n"), "{text}");
}

/// Issue 29: one line a move by default; `--verbose` prints each iteration too, then the same line with
/// the numbers.
#[test]
fn verbose_prints_each_iteration_of_the_engine() {
    let args = ["--start", "classic", "--color", "black", "--seed", "3", "--no-color", "--no-time-guard"];
    let quiet = stdout(&play(&args, "quit\n"));
    let loud = stdout(&play(&[&args[..], &["--verbose"]].concat(), "quit\n"));
    assert!(!quiet.contains("  depth "), "{quiet}");
    assert!(loud.contains("  depth  1  score"), "{loud}");
    let line = |text: &str| text.lines().find(|l| l.starts_with("White (beginner) plays ")).map(String::from);
    let (quiet_line, loud_line) = (line(&quiet).expect(&quiet), line(&loud).expect(&loud));
    assert!(summary_line_reads_well(&quiet_line), "{quiet_line}");
    assert!(loud_line.contains(" Depth ") && loud_line.contains(" nodes, score "), "{loud_line}");
    // The same move and the same words (the time may differ).
    let head = |l: &str| l.rsplit_once(", ").map(|(h, _)| h.to_string()).unwrap();
    assert_eq!(head(&quiet_line), head(loud_line.split(" s. Depth").next().unwrap()), "{quiet_line}\n{loud_line}");
}

/// `--tablebases DIR`: with the KRK table loaded, the engine (White) plays from the longest KRK win
/// against the table's best defence typed by Black, says at once that it mates in 16, and mates on its
/// 16th move; a folder that cannot be loaded is an error with exit status 2.
#[test]
fn the_engine_plays_the_tables_mate() {
    use tesseract::board::{Color, Shape, TextMove};
    use tesseract::tablebase::Tablebases;
    let dir = temp_dir("tables");
    let mut tables = Tablebases::new();
    let krk = tables.generate(Shape::CHESS, &"KRK".parse().unwrap(), &Default::default(), &|_| {}).unwrap();
    let pos = krk.longest_example(Color::White).unwrap();
    tables.save_dir(&dir).unwrap();
    let line = tables.mating_line(&pos);
    assert_eq!(line.len(), 31);
    // Black's moves of the line, typed by the person; the engine's come from the tables.
    let mut after = pos.clone();
    let mut black = String::new();
    for (i, &m) in line.iter().enumerate() {
        if i % 2 == 1 {
            black.push_str(&format!("{}\n", TextMove::from_move(m, &after)));
        }
        after.make(m);
    }
    let record = temp("krk.pgn");
    std::fs::write(
        &record,
        format!("[White \"master\"]\n[Black \"human\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n[Seed \"1\"]\n\n*\n", pos.fen()),
    )
    .unwrap();
    let args = ["--load", record.to_str().unwrap(), "--tablebases", dir.to_str().unwrap(), "--no-color"];
    let out = play(&args, format!("{black}quit\n").as_str());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.contains(&format!("Endgame tables: {} loaded from {}.", tables.len(), dir.display())), "{text}");
    let engine: Vec<&str> = text.lines().filter(|l| l.starts_with("White (master) plays ")).collect();
    assert_eq!(engine.len(), 16, "{text}");
    assert!(engine[0].contains(" — White mates in 16, "), "{}", engine[0]);
    assert!(engine[14].contains(" — White mates in 2, "), "{}", engine[14]);
    assert!(text.contains("Game over: checkmate, white wins."), "{text}");
    // Without tables the master sees no mate from there.
    let out = play(&args[..3], "quit\n");
    let text = stdout(&out);
    assert!(!text.contains("mates in"), "{text}");
    // A folder that does not exist, and one without tables.
    let missing = dir.join("missing");
    let out = play(&["--tablebases", missing.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: --tablebases: cannot read the folder "), "{err}");
    let empty = temp_dir("no-tables");
    let out = play(&["--tablebases", empty.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no table files (*.ttb)"));
    // A damaged table.
    std::fs::write(dir.join("KRK.8x8.ttb"), b"TESSTB1\nbroken").unwrap();
    let out = play(&["--tablebases", dir.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("KRK.8x8.ttb"));
    for d in [&dir, &empty] {
        std::fs::remove_dir_all(d).ok();
    }
    std::fs::remove_file(&record).ok();
}
