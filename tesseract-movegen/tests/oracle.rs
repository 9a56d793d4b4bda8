//! python-chess as an external oracle: perft(3) of seeded random classic and Chess960 positions, ours
//! against python-chess's (`scripts/python_perft.py`).
//!
//! Needs `python3` with python-chess (`pip install chess`); run with
//! `cargo test --release -p tesseract-movegen --test oracle -- --include-ignored`.

use std::io::Write;
use std::process::{Command, Stdio};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::fen::CastlingNotation;
use tesseract_board::{Position, TextMove, start};
use tesseract_movegen::{divide, legal_moves, perft};

/// The python-chess perft script.
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/python_perft.py");
/// The seed of the random walks: a change of seed is a change of sample.
const SEED: u64 = 0x0A7C_1E5E_ED00_2D60;
/// Classic positions in the sample.
const CLASSIC: usize = 120;
/// Chess960 positions in the sample.
const CHESS960: usize = 70;
/// Extra positions in check, and with en passant available, half classic and half Chess960: random
/// play rarely stops on one.
const TARGETED: usize = 20;
/// The longest random walk, in plies.
const MAX_PLIES: u64 = 40;
/// The depth compared.
const DEPTH: u32 = 3;

/// A sampled position and how python-chess reads it.
struct Sample {
    pos: Position,
    chess960: bool,
}

impl Sample {
    /// The position text given to python-chess: Shredder-FEN for Chess960, FEN for classic positions.
    fn fen(&self) -> String {
        if self.chess960 { self.pos.fen_with(CastlingNotation::Shredder) } else { self.pos.fen() }
    }

    /// A line of input for the script.
    fn line(&self, depth: u32) -> String {
        format!("{}\t{depth}\t{}\n", self.fen(), if self.chess960 { "960" } else { "std" })
    }
}

/// A uniform draw in `0..n`.
fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    rng.next_u64() % n
}

/// Plays 0 to [`MAX_PLIES`] random legal moves from `pos`; `None` if the end has no legal move.
fn random_walk(rng: &mut ChaCha8Rng, pos: Position) -> Option<Position> {
    let plies = below(rng, MAX_PLIES + 1);
    walk(rng, pos, plies, |_| false)
}

/// Plays up to [`MAX_PLIES`] random legal moves from `pos`, stopping at the first position after a move
/// that has `property`; `None` if none has it.
fn walk_to(rng: &mut ChaCha8Rng, pos: Position, property: fn(&Position) -> bool) -> Option<Position> {
    walk(rng, pos, MAX_PLIES, property).filter(property)
}

/// Plays `plies` random legal moves, or fewer if the game ends or a position has `stop`; `None` if the
/// position reached has no legal move.
fn walk(rng: &mut ChaCha8Rng, mut pos: Position, plies: u64, stop: fn(&Position) -> bool) -> Option<Position> {
    for _ in 0..plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let m = moves[below(rng, moves.len() as u64) as usize];
        let _ = pos.make(m);
        if stop(&pos) {
            break;
        }
    }
    (!legal_moves(&pos).is_empty()).then_some(pos)
}

/// A random Chess960 start.
fn chess960_start(rng: &mut ChaCha8Rng) -> Position {
    let number = below(rng, 960) as u32;
    start::chess960(number).expect("0..960 is a Chess960 number")
}

/// The sample: [`CLASSIC`] positions from the classic start and [`CHESS960`] from random Chess960 starts,
/// then [`TARGETED`] positions in check and as many with en passant available.
fn sample() -> Vec<Sample> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut out = Vec::new();
    while out.len() < CLASSIC {
        if let Some(pos) = random_walk(&mut rng, start::chess()) {
            out.push(Sample { pos, chess960: false });
        }
    }
    while out.len() < CLASSIC + CHESS960 {
        let start = chess960_start(&mut rng);
        if let Some(pos) = random_walk(&mut rng, start) {
            out.push(Sample { pos, chess960: true });
        }
    }
    let properties: [fn(&Position) -> bool; 2] = [Position::is_check, |p| p.en_passant().is_some()];
    for property in properties {
        for i in 0..TARGETED {
            let chess960 = i % 2 == 1;
            loop {
                let start = if chess960 { chess960_start(&mut rng) } else { start::chess() };
                if let Some(pos) = walk_to(&mut rng, start, property) {
                    out.push(Sample { pos, chess960 });
                    break;
                }
            }
        }
    }
    out
}

/// Runs the script on `input` (one line per position) and returns its counts, one per line.
fn python_perft(input: String) -> Vec<u64> {
    let expected = input.lines().count();
    let mut child = Command::new("python3")
        .arg(SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run python3 {SCRIPT}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("python3 ran");
    let written = writer.join().expect("the writer thread ends");
    assert!(
        output.status.success(),
        "{SCRIPT} failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    written.expect("python3 reads its input");
    let counts: Vec<u64> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.trim().parse().unwrap_or_else(|e| panic!("{SCRIPT} printed {l:?}: {e}")))
        .collect();
    assert_eq!(counts.len(), expected, "{SCRIPT} printed {} counts for {expected} positions", counts.len());
    counts
}

/// Our divide of a mismatched position against python-chess's perft of each child, for the report.
fn divide_comparison(sample: &Sample, depth: u32) -> String {
    let mut pos = sample.pos.clone();
    let ours = divide(&mut pos, depth);
    let mut input = sample.line(1);
    let mut names = Vec::new();
    for &(m, _) in &ours {
        names.push(TextMove::from_move(m, &pos).to_string());
        let mut child = pos.clone();
        let _ = child.make(m);
        input.push_str(&Sample { pos: child, chess960: sample.chess960 }.line(depth - 1));
    }
    let theirs = python_perft(input);
    let mut out = format!("  legal moves: ours {}, python-chess {}\n", ours.len(), theirs[0]);
    for ((name, &(_, n)), &p) in names.iter().zip(&ours).zip(&theirs[1..]) {
        let mark = if n == p { "" } else { "   <-- differs" };
        out.push_str(&format!("  {name} ours {n} python-chess {p}{mark}\n"));
    }
    out
}

#[test]
#[ignore = "needs python-chess (pip install chess): run by scripts/test.sh"]
fn perft_agrees_with_python_chess() {
    let samples = sample();
    assert_eq!(samples.len(), CLASSIC + CHESS960 + 2 * TARGETED);
    assert_eq!(samples.iter().filter(|s| s.chess960).count(), CHESS960 + TARGETED);
    let in_check = samples.iter().filter(|s| s.pos.is_check()).count();
    let en_passant = samples.iter().filter(|s| s.pos.en_passant().is_some()).count();
    let castling = samples.iter().filter(|s| !s.pos.castling().is_empty()).count();
    let castling960 = samples.iter().filter(|s| s.chess960 && !s.pos.castling().is_empty()).count();
    println!(
        "{} positions ({} Chess960): {in_check} in check, {en_passant} with en passant, \
         {castling} with castling rights ({castling960} Chess960)",
        samples.len(),
        CHESS960 + TARGETED
    );
    assert!(in_check >= TARGETED, "only {in_check} positions in check in the sample");
    assert!(en_passant >= TARGETED, "only {en_passant} positions with en passant in the sample");
    assert!(castling960 > 0 && castling > castling960, "castling rights missing from the sample");

    let input: String = samples.iter().map(|s| s.line(DEPTH)).collect();
    let theirs = python_perft(input);
    let mut failures = Vec::new();
    for (sample, &want) in samples.iter().zip(&theirs) {
        let mut pos = sample.pos.clone();
        let got = perft(&mut pos, DEPTH);
        if got != want {
            failures.push(format!(
                "{} ({}): perft({DEPTH}) ours {got}, python-chess {want}\n{}",
                sample.fen(),
                if sample.chess960 { "Chess960" } else { "classic" },
                divide_comparison(sample, DEPTH)
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} positions differ:\n{}", failures.len(), samples.len(), failures.join("\n"));
}
