//! The engine's self-checks: the figures of RULES.md recomputed, each by two independent paths.
//!
//! | check | what it proves | paths compared |
//! |---|---|---|
//! | [`empty_board_constants`] | one piece alone, moves summed over the 625 cells, for every piece kind (RULES.md §2) | the fast generator's ray loops, the naive generator's coordinate arithmetic, the figures of the rules |
//! | [`start_theorem`] | for all three armies: exact σ-symmetry, the piece counts, nothing attacked, the structure of §3, the move count | the board's attack scan and the naive generator's vector test |
//! | [`generators_agree`] | the two generators list the same moves at every node of the tree to a stated depth from each start, and make the same children | fast `legal_moves` + `make` against naive `legal_moves` + `play` |
//! | [`frozen_script`] | 40 half-moves from the standard start, committed as wire text, replay to a committed Zobrist hash | checked play on `Position` (incremental hash) against naive play on plain data (hash computed from scratch) |
//!
//! The frozen script is the determinism that online play relies on: two clients that apply the same
//! move texts reach the same hash, whatever generator or build they run. It was generated once by
//! [`random_script`] (seed 40, uniform choice among the legal moves sorted by text) and committed; a test
//! regenerates it from the seed to show where it came from, but the committed text and hash are the
//! reference, so a change to move generation or hashing that alters them fails the build.
//!
//! # Examples
//! ```
//! let check = tesseract_verify::selfcheck::empty_board_constants();
//! assert!(check.passed(), "{check}");
//! assert!(check.figure.contains("rook 10,000"));
//! ```

use std::fmt;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{CastlingMode, Color, Move, Piece, Position, Role, Setup, Shape, TextMove, start};
use tesseract_movegen::{Legal, empty_board_moves, legal_moves, naive};

use crate::records::{self, DataError};

/// The frozen script, as text (`tesseract-verify/data/script40.txt`).
pub const SCRIPT_TXT: &str = include_str!("../data/script40.txt");

/// The empty-board constants of RULES.md §2.
pub const EMPTY_BOARD: [(Role, u64); 7] = [
    (Role::Rook, 10_000),
    (Role::Bishop, 18_000),
    (Role::Unicorn, 16_000),
    (Role::Dragon, 5_664),
    (Role::Queen, 49_664),
    (Role::King, 27_936),
    (Role::Knight, 14_400),
];

/// The depth to which [`generators_agree`] compares the generators by default (the `selfcheck` example
/// and the tests): every node of the first ply, and the 50,420 leaves of perft(2) from the standard start.
pub const AGREE_DEPTH: u32 = 2;

/// The outcome of one self-check: its figure, and every failure found.
#[derive(Clone, Debug)]
pub struct SelfCheck {
    /// A short name.
    pub name: &'static str,
    /// The figure it establishes, in words.
    pub figure: String,
    /// What went wrong; empty when the check passes.
    pub failures: Vec<String>,
    /// Wall time.
    pub elapsed: Duration,
}

impl SelfCheck {
    /// Whether the check passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

impl fmt::Display for SelfCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = if self.passed() { "ok    " } else { "FAILED" };
        write!(f, "{status} {}: {} ({:.2?})", self.name, self.figure, self.elapsed)?;
        for failure in &self.failures {
            write!(f, "\n       - {failure}")?;
        }
        Ok(())
    }
}

/// Writes a count with thousands separators (`50,420`).
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Check 1: the empty-board constants of RULES.md §2, by the fast generator and by the naive one.
pub fn empty_board_constants() -> SelfCheck {
    let started = Instant::now();
    let g = Shape::TESSERACT.geometry();
    let mut failures = Vec::new();
    let mut figures = Vec::new();
    for (role, expected) in EMPTY_BOARD {
        let fast = empty_board_moves(Shape::TESSERACT, role);
        let slow: u64 = g
            .all_cells()
            .map(|cell| {
                let mut setup = Setup::empty(Shape::TESSERACT);
                setup.board[cell.index()] = Some(Piece::new(Color::White, role));
                naive::piece_destinations(&setup, cell).len() as u64
            })
            .sum();
        if fast != expected || slow != expected {
            failures.push(format!("{role}: rules {expected}, fast {fast}, naive {slow}"));
        }
        figures.push(format!("{} {}", role.name(), thousands(fast)));
    }
    SelfCheck { name: "empty-board constants", figure: figures.join(", "), failures, elapsed: started.elapsed() }
}

/// The start figures of RULES.md §3: pieces a side and legal moves at the start.
const ARMIES: [(start::Army, usize, usize); 3] =
    [(start::Army::Light, 22, 220), (start::Army::Standard, 32, 226), (start::Army::Dense, 42, 236)];

/// Check 2: the start-position theorem for the three armies: Black is exactly σ(White) (every coordinate
/// p → 6 − p, colors swapped), each side has its stated number of pieces (12 majors: K, Q, 2 R, 2 B, 2 N,
/// 2 U, 2 D; five Y-pawns and five W-pawns per band row), the majors stand on the plate y = 1, w = 1 (for
/// White), Y-pawns in w = 3 and W-pawns in y = 3, no piece is attacked (by two attack tests), and the
/// side to move has the stated number of legal moves (by both generators).
pub fn start_theorem() -> SelfCheck {
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut figures = Vec::new();
    for (army, per_side, moves) in ARMIES {
        let name = format!("{army:?}").to_lowercase();
        let pos = start::tesseract(army);
        let setup = pos.to_setup();
        let g = pos.geometry();
        let mut mirrored = setup.mirrored();
        mirrored.turn = setup.turn;
        if mirrored != setup {
            failures.push(format!("{name}: Black is not the point reflection of White"));
        }
        for color in Color::ALL {
            let count = pos.pieces().filter(|(_, p)| p.color == color).count();
            if count != per_side {
                failures.push(format!("{name}: {color} has {count} pieces, expected {per_side}"));
            }
        }
        let band = (per_side - 12) / 10;
        let expected_roles = [
            (Role::King, 1),
            (Role::Queen, 1),
            (Role::Rook, 2),
            (Role::Bishop, 2),
            (Role::Knight, 2),
            (Role::Unicorn, 2),
            (Role::Dragon, 2),
            (Role::YPawn, 5 * band),
            (Role::WPawn, 5 * band),
        ];
        for (role, n) in expected_roles {
            let found = pos.pieces().filter(|(_, p)| *p == Piece::new(Color::White, role)).count();
            if found != n {
                failures.push(format!("{name}: White has {found} {role}s, expected {n}"));
            }
        }
        for (cell, piece) in pos.pieces().filter(|(_, p)| p.color == Color::White) {
            let c = g.coords(cell);
            let ok = match piece.role {
                Role::YPawn => c[1] == 2 && c[3] == 3,
                Role::WPawn => c[1] == 3 && c[3] == 2,
                _ => c[1] == 1 && c[3] == 1,
            };
            if !ok {
                failures.push(format!("{name}: the white {} on {} is off its plate", piece.role, g.cell_name(cell)));
            }
        }
        let attacked = pos
            .pieces()
            .filter(|&(cell, p)| {
                pos.is_attacked(cell, p.color.other()) || naive::is_attacked(&setup, cell, p.color.other())
            })
            .count();
        if attacked != 0 {
            failures.push(format!("{name}: {attacked} pieces are attacked at move zero"));
        }
        let fast = legal_moves(&pos).len();
        let slow = naive::legal_moves(&setup).len();
        if fast != moves || slow != moves {
            failures.push(format!("{name}: {moves} moves expected, fast {fast}, naive {slow}"));
        }
        figures.push(format!("{name} {per_side}+{per_side} pieces, {moves} moves"));
    }
    SelfCheck {
        name: "start-position theorem",
        figure: format!("{}; σ exact, nothing attacked", figures.join("; ")),
        failures,
        elapsed: started.elapsed(),
    }
}

/// Compares the generators at `pos` and, below it, to `depth` plies: the same legal moves at every node
/// above the last ply, and every child made by `make` equal (position and hash) to the child made by the
/// naive `play`. Returns (nodes compared, leaves at `depth`).
fn agree_below(pos: &mut Position, depth: u32, failures: &mut Vec<String>) -> (u64, u64) {
    if depth == 0 {
        return (0, 1);
    }
    let setup = pos.to_setup();
    let mut fast: Vec<Move> = legal_moves(pos).to_vec();
    fast.sort();
    let mut slow = naive::legal_moves(&setup);
    slow.sort();
    if fast != slow {
        if failures.len() < 10 {
            failures.push(format!("{}: fast lists {} moves, naive {}", pos.fen(), fast.len(), slow.len()));
        }
        return (1, 0);
    }
    let (mut nodes, mut leaves) = (1, 0);
    for m in fast {
        let undo = pos.make(m);
        match Position::from_setup(naive::play(&setup, m), pos.castling_mode()) {
            Ok(child) if child == *pos && child.hash() == pos.hash() => {}
            _ if failures.len() >= 10 => {}
            _ => failures.push(format!("{} then {}: make and naive play differ", setup_fen(&setup), text(m, &setup))),
        }
        let (n, l) = agree_below(pos, depth - 1, failures);
        nodes += n;
        leaves += l;
        pos.unmake(m, undo);
    }
    (nodes, leaves)
}

fn setup_fen(setup: &Setup) -> String {
    Position::from_setup(setup.clone(), CastlingMode::Standard).map_or_else(|_| "an invalid setup".into(), |p| p.fen())
}

fn text(m: Move, setup: &Setup) -> String {
    Position::from_setup(setup.clone(), CastlingMode::Standard)
        .map_or_else(|_| format!("{m:?}"), |p| TextMove::from_move(m, &p).to_string())
}

/// Check 3: the fast and the naive generators agree node for node to `depth` plies from each of the three
/// starts (see [`AGREE_DEPTH`]); the leaves counted must be the perft figures of RULES.md §3.
pub fn generators_agree(depth: u32) -> SelfCheck {
    let started = Instant::now();
    let mut failures = Vec::new();
    let mut figures = Vec::new();
    let mut total_nodes = 0;
    for army in start::Army::ALL {
        // Depth 0 counts the start itself; then the contract's figures (data/tesseract.perft).
        let perft: Vec<u64> = std::iter::once(1).chain(army.perft()).collect();
        let name = format!("{army:?}").to_lowercase();
        let mut pos = start::tesseract(army);
        let (nodes, leaves) = agree_below(&mut pos, depth, &mut failures);
        total_nodes += nodes;
        if let Some(&expected) = perft.get(depth as usize) {
            if leaves != expected {
                failures.push(format!("{name}: {leaves} leaves at depth {depth}, RULES.md says {expected}"));
            }
        }
        figures.push(format!("{name} {}", thousands(leaves)));
    }
    SelfCheck {
        name: "generators agree",
        figure: format!("depth {depth}: {} nodes compared, leaves {}", thousands(total_nodes), figures.join(", ")),
        failures,
        elapsed: started.elapsed(),
    }
}

/// A frozen script: moves from a start position and the hash and text they must reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The record's name.
    pub name: String,
    /// The start, by name (`standard`, `light`, `dense`; see `tesseract_board::start::by_name`).
    pub start: String,
    /// The seed it was generated with (documentation: the moves are the reference).
    pub seed: u64,
    /// The moves, as text (RULES.md §4).
    pub moves: Vec<String>,
    /// The Zobrist hash after the last move.
    pub hash: u64,
    /// The position text after the last move.
    pub fen: String,
}

/// The fields of a script record, the header first.
pub const SCRIPT_FIELDS: [&str; 6] = ["script", "start", "seed", "moves", "hash", "fen"];

/// Reads a script file (one `script:` record).
///
/// # Errors
/// [`DataError`] naming the line and field: an unknown start, a seed or hash that is not a number, a move
/// text that is malformed (legality is checked by replaying), more than one record.
pub fn parse_script(text: &str) -> Result<Script, DataError> {
    let records = records::parse(text, "script", &SCRIPT_FIELDS)?;
    if let Some(second) = records.get(1) {
        return Err(DataError::Value {
            line: second.start,
            field: "script".into(),
            reason: "a script file holds one script".into(),
        });
    }
    let r = &records[0];
    let start_field = r.require("start")?;
    start::by_name(&start_field.value).map_err(|e| start_field.error(e.to_string()))?;
    let seed_field = r.require("seed")?;
    let seed = seed_field.value.parse().map_err(|_| seed_field.error("expected a number"))?;
    let moves_field = r.require("moves")?;
    let moves: Vec<String> = moves_field.value.split_whitespace().map(str::to_string).collect();
    for (i, m) in moves.iter().enumerate() {
        if !m.is_ascii() {
            return Err(moves_field.error(format!("move {}: {:?} is not a move text", i + 1, records::cut(m))));
        }
        TextMove::parse(m).map_err(|e| moves_field.error(format!("move {}: {e}", i + 1)))?;
    }
    let hash_field = r.require("hash")?;
    let hex = hash_field.value.strip_prefix("0x").unwrap_or(&hash_field.value);
    let hash = u64::from_str_radix(hex, 16).map_err(|_| hash_field.error("expected a 64-bit hexadecimal number"))?;
    Ok(Script {
        name: r.label().to_string(),
        start: start_field.value.clone(),
        seed,
        moves,
        hash,
        fen: r.require("fen")?.text()?,
    })
}

/// The script generator: `plies` moves from `start`, each chosen uniformly among the legal moves sorted by
/// their text, with a [`ChaCha8Rng`] seeded with `seed`. Stops early if the game ends.
pub fn random_script(start: &Position, plies: usize, seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut out = Vec::new();
    for _ in 0..plies {
        let mut moves: Vec<(String, Move)> =
            legal_moves(&pos).iter().map(|&m| (TextMove::from_move(m, &pos).to_string(), m)).collect();
        if moves.is_empty() {
            break;
        }
        moves.sort();
        let (text, m) = moves.swap_remove((rng.next_u64() % moves.len() as u64) as usize);
        pos.make(m);
        out.push(text);
    }
    out
}

/// Move texts are ASCII; anything else is refused before a parser sees it.
fn ascii(i: usize, text: &str) -> Result<(), String> {
    if text.is_ascii() { Ok(()) } else { Err(format!("move {} ({text:?}) is not a move text", i + 1)) }
}

/// Replays a script by checked play on [`Position`] (`parse_move`, `play`): the final position.
///
/// # Errors
/// A message naming the move that is not legal.
pub fn replay_fast(script: &Script) -> Result<Position, String> {
    let mut pos = start::by_name(&script.start).map_err(|e| e.to_string())?;
    for (i, text) in script.moves.iter().enumerate() {
        ascii(i, text)?;
        let m = pos.parse_move(text).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        pos.play(m).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
    }
    Ok(pos)
}

/// Replays a script with the naive generator on plain data: each text is matched against the naive legal
/// moves by its coordinates, played with `naive::play`, and the final setup is validated into a
/// [`Position`], whose hash is computed from scratch.
///
/// # Errors
/// A message naming the move that the naive generator does not list, or an invalid final setup.
pub fn replay_naive(script: &Script) -> Result<Position, String> {
    let start = start::by_name(&script.start).map_err(|e| e.to_string())?;
    let g = start.geometry();
    let mut setup = start.to_setup();
    for (i, text) in script.moves.iter().enumerate() {
        ascii(i, text)?;
        let t = TextMove::parse(text).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        let (Some(from), Some(to)) = (g.cell(t.from()), g.cell(t.to())) else {
            return Err(format!("move {} ({text}) is off the board", i + 1));
        };
        let m = naive::legal_moves(&setup)
            .into_iter()
            .find(|m| m.from == from && m.to == to && m.promotion == t.promotion())
            .ok_or_else(|| format!("move {} ({text}) is not among the naive generator's legal moves", i + 1))?;
        setup = naive::play(&setup, m);
    }
    Position::from_setup(setup, start.castling_mode()).map_err(|e| format!("the naive final setup: {e}"))
}

/// Check 4 on a given script: both replays reach the committed hash and position text.
pub fn check_script(script: &Script) -> SelfCheck {
    let started = Instant::now();
    let mut failures = Vec::new();
    let fast = replay_fast(script);
    let slow = replay_naive(script);
    match &fast {
        Ok(pos) => {
            if pos.hash() != script.hash {
                failures.push(format!(
                    "checked play reaches hash {:#018x}, committed {:#018x}",
                    pos.hash(),
                    script.hash
                ));
            }
            if pos.fen() != script.fen {
                failures.push(format!("checked play reaches {}, committed {}", pos.fen(), script.fen));
            }
        }
        Err(e) => failures.push(format!("checked play: {e}")),
    }
    match (&slow, &fast) {
        (Ok(naive_pos), Ok(pos)) => {
            if naive_pos.hash() != script.hash || naive_pos != pos {
                failures.push(format!(
                    "naive play reaches hash {:#018x} ({}), committed {:#018x}",
                    naive_pos.hash(),
                    naive_pos.fen(),
                    script.hash
                ));
            }
        }
        (Err(e), _) => failures.push(format!("naive play: {e}")),
        (Ok(_), Err(_)) => {}
    }
    SelfCheck {
        name: "frozen script",
        figure: format!(
            "{} half-moves from the {} start replay to hash {:#018x} by checked and by naive play",
            script.moves.len(),
            script.start,
            script.hash
        ),
        failures,
        elapsed: started.elapsed(),
    }
}

/// Check 4: the committed script ([`SCRIPT_TXT`]).
pub fn frozen_script() -> SelfCheck {
    match parse_script(SCRIPT_TXT) {
        Ok(script) => check_script(&script),
        Err(e) => SelfCheck {
            name: "frozen script",
            figure: "unreadable".into(),
            failures: vec![e.to_string()],
            elapsed: Duration::ZERO,
        },
    }
}

/// The four self-checks, generators compared to `depth`.
pub fn all(depth: u32) -> Vec<SelfCheck> {
    vec![empty_board_constants(), start_theorem(), generators_agree(depth), frozen_script()]
}
