//! The built `tesseract-uci` binary spoken to over pipes: robustness against garbage input, the end of
//! input, and 4D Tesseract games through the protocol, every engine move checked by `tesseract-movegen`.
//!
//! The full 4D game on a clock is `#[ignore]`d (run with `--include-ignored` in an optimised build).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::start::{self, Army};
use tesseract_board::{Color, Position};
use tesseract_movegen::Legal;
use tesseract_search::{Game, GameEnd};
use tesseract_uci::engine::TIER_ELO;

const BIN: &str = env!("CARGO_BIN_EXE_tesseract-uci");

/// A running engine and the lines it has written.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    log: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines: rx, log: Vec::new() }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(bytes).and_then(|()| stdin.flush()).expect("the engine reads its input");
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let end = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    let done = line.starts_with(prefix);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {prefix:?} within {timeout:?}; last lines: {:#?}", tail(&self.log))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed its output before {prefix:?}; last lines: {:#?}", tail(&self.log))
                }
            }
        }
    }

    fn handshake(&mut self, options: &[&str]) {
        self.send("uci");
        self.until("uciok", Duration::from_secs(10));
        for o in options {
            self.send(o);
        }
        self.send("isready");
        let lines = self.until("readyok", Duration::from_secs(10));
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    }

    /// Closes the input and waits for the exit; the remaining output.
    fn close(mut self) -> (std::process::ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("the engine exits");
        let rest: Vec<String> = self.lines.iter().collect();
        (status, rest)
    }
}

fn tail(log: &[String]) -> &[String] {
    &log[log.len().saturating_sub(12)..]
}

#[test]
fn garbage_never_kills_the_engine() {
    let mut e = Engine::start();
    e.handshake(&[]);
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let words = [
        "go",
        "position",
        "fen",
        "startpos",
        "moves",
        "setoption",
        "name",
        "value",
        "Hash",
        "UCI_Variant",
        "tesseract",
        "depth",
        "e2e4",
        "22132313",
        "-5",
        "999999999999999999999",
        "ponderhit",
        "Tier",
        "stop",
        "é",
        "\t",
        "\r",
        "debug",
        "mate",
        "nodes",
        "wtime",
        "movetime",
        "8/8/8/8/8/8/8/K6k",
        "w",
        "-",
    ];
    for round in 0..40 {
        let mut batch = Vec::new();
        for _ in 0..50 {
            let mut line = Vec::new();
            for _ in 0..rng.next_u32() % 8 {
                let w = words[rng.next_u32() as usize % words.len()];
                // Never a real search of unbounded length: garbage only, and `go` with a depth.
                line.extend_from_slice(w.as_bytes());
                line.push(b' ');
            }
            if rng.next_u32() % 10 == 0 {
                // Random bytes, not UTF-8 as a rule, NULs included.
                line.extend((0..rng.next_u32() % 64).map(|_| rng.next_u32() as u8).filter(|&b| b != b'\n'));
            }
            line.push(b'\n');
            batch.extend_from_slice(&line);
        }
        if round % 10 == 0 {
            // A line of 2 MiB, over the 1 MiB cap.
            batch.extend(std::iter::repeat_n(b'x', 2 << 20));
            batch.push(b'\n');
        }
        e.send_bytes(&batch);
        // Whatever the garbage started, stop it and check the engine still answers.
        e.send("stop");
        e.send("isready");
        e.until("readyok", Duration::from_secs(60));
    }
    // The garbage reached the parser and was answered: an error for most of the 2,000 lines, and for
    // each of the four 2 MiB lines.
    let errors = e.log.iter().filter(|l| l.starts_with("info string error ")).count();
    assert!(errors > 1_000, "{errors} errors");
    let too_long = e.log.iter().filter(|l| l.contains("bytes is longer than the 1048576 allowed")).count();
    assert_eq!(too_long, 4);
    // Still playing after all that.
    e.send("setoption name UCI_Variant value chess");
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let lines = e.until("bestmove", Duration::from_secs(30));
    let m = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let mut pos = start::chess();
    pos.play(pos.parse_move("e2e4").unwrap()).unwrap();
    pos.parse_move(&m).unwrap_or_else(|err| panic!("{m}: {err}"));
    e.send("quit");
    let (status, _) = e.close();
    assert!(status.success());
}

#[test]
fn overlong_and_non_utf8_lines_are_answered() {
    let mut e = Engine::start();
    let mut batch = vec![b'y'; (1 << 20) + 1];
    batch.push(b'\n');
    batch.extend_from_slice(b"go \xff\xfe depth 1\nisready\n");
    e.send_bytes(&batch);
    let lines = e.until("readyok", Duration::from_secs(10));
    assert_eq!(
        lines,
        [
            "info string error a line of 1048577 bytes is longer than the 1048576 allowed: ignored",
            "info string error a line that is not UTF-8 text: ignored",
            "readyok",
        ]
    );
}

#[test]
fn the_end_of_input_lets_a_bounded_search_finish() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 3");
    let (status, rest) = e.close();
    assert!(status.success());
    assert!(rest.last().is_some_and(|l| l.starts_with("bestmove ")), "{rest:?}");
    assert!(rest.iter().any(|l| l.starts_with("info depth 3 ")), "{rest:?}");
    // An infinite search is stopped at the end of input, with its bestmove; so is any search with no
    // depth, node or time limit (a plain `go`, `go mate N`, a clock given only for the other side), which
    // would otherwise run on to depth 99.
    for go in ["go infinite", "go", "go mate 5", "go btime 5"] {
        let mut e = Engine::start();
        e.send("position startpos");
        e.send(go);
        let started = std::time::Instant::now();
        let (status, rest) = e.close();
        assert!(status.success(), "{go}");
        assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{go}: {rest:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "{go}");
    }
}

#[test]
fn an_elo_out_of_range_plays_the_nearest_tier_and_says_so() {
    let (min, max) = (TIER_ELO[0].1, TIER_ELO[TIER_ELO.len() - 1].1);
    for (elo, tier, used) in [(2400, "master", max), (100, "beginner", min)] {
        let mut e = Engine::start();
        e.send("uci");
        e.until("uciok", Duration::from_secs(10));
        e.send("setoption name UCI_LimitStrength value true");
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send("isready");
        let lines = e.until("readyok", Duration::from_secs(10));
        assert_eq!(
            lines,
            [
                format!("info string UCI_Elo {elo} is out of range {min}..{max}: using {used}, the {tier} tier"),
                "readyok".into()
            ]
        );
        // The engine plays at that tier (`debug on` names it at each `go`).
        e.send("debug on");
        e.send("position startpos");
        e.send("go depth 1");
        let lines = e.until("bestmove", Duration::from_secs(10));
        assert!(lines[0].starts_with(&format!("info string playing at the {tier} tier ")), "{lines:?}");
        let (status, _) = e.close();
        assert!(status.success());
    }
}

#[test]
fn version_and_help_flags() {
    let out = Command::new(BIN).arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "tesseract-uci 0.1.0");
    let out = Command::new(BIN).arg("--bogus").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// How a side chooses its moves in a 4D game.
struct Side {
    engine: Engine,
    go: fn(&Clocks) -> String,
}

/// Both clocks, in milliseconds.
struct Clocks {
    left: [i64; 2],
    inc: i64,
}

/// Plays a 4D game between two engine processes from the standard army, each move checked by
/// `tesseract-movegen` before it is played; returns the game and how it ended (`None` at `max_plies`).
fn play_4d(sides: &mut [Side; 2], max_plies: usize, clocks: &mut Clocks) -> (Game, Option<GameEnd>) {
    let mut game = Game::new(start::tesseract(Army::Standard), 0);
    let mut moves: Vec<String> = Vec::new();
    for side in sides.iter_mut() {
        side.engine.handshake(&["setoption name UCI_Variant value tesseract", "ucinewgame"]);
    }
    while moves.len() < max_plies {
        if let Some(end) = game.status() {
            return (game, Some(end));
        }
        let turn = game.position().turn();
        let side = &mut sides[(turn == Color::Black) as usize];
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        side.engine.send(&position);
        let go = (side.go)(clocks);
        let t = Instant::now();
        side.engine.send(&go);
        let lines = side.engine.until("bestmove", Duration::from_secs(120));
        let spent = t.elapsed().as_millis() as i64;
        let c = &mut clocks.left[turn.index()];
        *c -= spent;
        assert!(*c >= 0, "{turn} lost on time at ply {}: {spent} ms spent", moves.len() + 1);
        *c += clocks.inc;
        let text = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        assert!(digits == 8 && text.len() <= 9, "a 4D move is eight digits and a promotion letter: {text}");
        // Every PV must be legal from the root too.
        for l in &lines {
            if let Some(pv) = l.split(" pv ").nth(1) {
                let mut p: Position = game.position().clone();
                for m in pv.split_whitespace() {
                    let mv = p.parse_move(m).unwrap_or_else(|err| panic!("pv {pv}: {m}: {err}"));
                    p.play(mv).unwrap();
                }
            }
        }
        game.play_text(&text).unwrap_or_else(|err| panic!("ply {}: {text}: {err}", moves.len() + 1));
        moves.push(text);
    }
    (game, None)
}

#[test]
fn a_4d_game_through_the_protocol() {
    // Two engines, a fixed node budget a move: short in a debug build.
    let go = |_: &Clocks| "go nodes 400".to_string();
    let mut sides = [Side { engine: Engine::start(), go }, Side { engine: Engine::start(), go }];
    let mut clocks = Clocks { left: [i64::MAX / 4; 2], inc: 0 };
    let (game, _) = play_4d(&mut sides, 12, &mut clocks);
    assert_eq!(game.moves().len(), 12);
    for side in sides {
        let mut e = side.engine;
        e.send("quit");
        assert!(e.close().0.success());
    }
}

/// A whole game, which must end by the rules (`Game::status`: a mate, or a draw by stalemate, material,
/// repetition or the 50-move rule) before its cap of 600 plies, with no loss on time on either side.
/// It does not ask who wins: the full-strength side mates as a rule, but on this clock the beginner
/// sometimes mates it first.
#[test]
#[ignore = "a whole 4D game on a 1+0.01 s clock: run in an optimised build"]
fn a_whole_4d_game_on_a_clock() {
    let go = |c: &Clocks| format!("go wtime {} btime {} winc {} binc {}", c.left[0], c.left[1], c.inc, c.inc);
    let mut strong = Engine::start();
    strong.handshake(&[]);
    let mut weak = Engine::start();
    weak.handshake(&["setoption name Tier value beginner"]);
    let mut sides = [Side { engine: strong, go }, Side { engine: weak, go }];
    let mut clocks = Clocks { left: [1_000, 1_000], inc: 10 };
    let t = Instant::now();
    let max_plies = 600;
    let (game, end) = play_4d(&mut sides, max_plies, &mut clocks);
    println!(
        "4D game, full strength (White) vs beginner (Black), 1+0.01 s: {} plies in {:.1} s, {}; clocks left {} / {} ms",
        game.moves().len(),
        t.elapsed().as_secs_f64(),
        end.map_or(format!("stopped at {max_plies} plies"), |e| e.to_string()),
        clocks.left[0],
        clocks.left[1]
    );
    assert!(end.is_some(), "no end by the rules within {max_plies} plies");
    for side in sides {
        let mut e = side.engine;
        e.send("quit");
        assert!(e.close().0.success());
    }
}
