//! Seeded playouts: whole games between two [`Policy`]s (uniform random moves, the engine at a tier, the
//! engine at a fixed node budget), played by the rules of [`Game`], with the statistics researchers count
//! ([`GameStats`]) and, with the `csv` feature, a CSV writer for them (`CsvWriter`).
//!
//! # Examples
//!
//! A random game from the Tesseract start, and the same game again from the same seed:
//! ```
//! use tesseract_board::start;
//! use tesseract_search::playout::{play_random, EndReason};
//! let start = start::tesseract(start::Army::Light);
//! let stats = play_random(&start, 7, 200);
//! assert!(stats.plies <= 200);
//! if stats.reason == EndReason::PlyCap {
//!     assert_eq!(stats.plies, 200);
//! }
//! assert_eq!(play_random(&start, 7, 200), stats);
//! ```
//!
//! The engine against random moves, keeping the game:
//! ```
//! use tesseract_board::start;
//! use tesseract_search::playout::{Playout, Policy};
//! let mut playout = Playout::new("nodes=200".parse()?, Policy::Random).with_max_plies(6);
//! let (game, stats) = playout.play_game(&start::chess(), 1);
//! assert_eq!(game.moves().len(), stats.plies);
//! assert!(stats.engine_nodes > 0);
//! # Ok::<_, tesseract_search::playout::PolicyError>(())
//! ```
//!
//! # Determinism
//!
//! A playout is a pure function of its start, seed, policies and ply cap, the same on every machine: the
//! random player draws from a ChaCha8 generator seeded by `ChaCha8Rng::seed_from_u64(seed)`, and picks
//! the move of index `v mod n` among the `n` legal moves in the generator's order, for the first 64-bit
//! draw `v` at or above `2⁶⁴ mod n` (an exactly uniform choice); the engine plays within deterministic
//! budgets only ([`Game::think_unguarded`] for a tier, a node limit for [`Policy::Nodes`]), never a
//! wall-clock limit, with the game's seed. The order of the fast generator's move list is part of this
//! contract: a change to it changes the random games, and the tests that pin a few of them say so.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{Color, Position};
use tesseract_movegen::pgn::PgnGame;
use tesseract_movegen::{MoveList, legal_moves_into};

use crate::game::Game;
use crate::search::{Limits, Options, Searcher};
use crate::tier::Tier;
use crate::tt::TableAllocError;
use tesseract_movegen::{GameEnd, Termination};

/// Who chooses the moves of one side in a playout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Policy {
    /// A uniformly random legal move (text `random`).
    Random,
    /// The engine at a tier, within the tier's deterministic budget, without its wall-clock guard
    /// ([`Game::think_unguarded`]; text: the tier's name, `club`).
    Tier(Tier),
    /// The engine with a hard limit of this many nodes a move (no depth cap, no noise, a table of
    /// [`Policy::table_mb`] megabytes cleared before each move; text `nodes=N`, N from 1 to
    /// [`Policy::MAX_NODES`]).
    Nodes(u64),
}

impl Policy {
    /// The largest node budget [`Policy::Nodes`] takes from text: a billion nodes, about an hour a move.
    pub const MAX_NODES: u64 = 1_000_000_000;

    /// The transposition table of the engine that plays this policy, in megabytes (0 for
    /// [`Policy::Random`]): the tier's own for a tier; for a node budget, one megabyte for every 32,768
    /// nodes, rounded up to a power of two, from 1 to 64.
    pub fn table_mb(self) -> usize {
        match self {
            Policy::Random => 0,
            Policy::Tier(t) => t.settings().hash_mb,
            Policy::Nodes(n) => (n.div_ceil(32_768).clamp(1, 64) as usize).next_power_of_two(),
        }
    }
}

impl fmt::Display for Policy {
    /// `random`, the tier's name, or `nodes=N`: the text [`Policy::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::Random => f.write_str("random"),
            Policy::Tier(t) => f.write_str(t.name()),
            Policy::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// A policy text that names no policy.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PolicyError {
    /// Neither `random`, a tier nor `nodes=N`.
    #[error("unknown player {0:?}: expected random, beginner, club, expert, master or nodes=N")]
    Unknown(String),
    /// `nodes=` followed by something other than a number from 1 to [`Policy::MAX_NODES`].
    #[error("nodes={0:?}: expected a node budget from 1 to 1000000000")]
    Nodes(String),
}

impl FromStr for Policy {
    type Err = PolicyError;

    /// `random`, `beginner`, `club`, `expert`, `master` or `nodes=N` (N from 1 to [`Policy::MAX_NODES`]).
    fn from_str(s: &str) -> Result<Policy, PolicyError> {
        if s == "random" {
            return Ok(Policy::Random);
        }
        if let Some(n) = s.strip_prefix("nodes=") {
            return match n.parse::<u64>() {
                Ok(v) if (1..=Policy::MAX_NODES).contains(&v) && !n.starts_with('+') => Ok(Policy::Nodes(v)),
                _ => Err(PolicyError::Nodes(n.to_string())),
            };
        }
        s.parse::<Tier>().map(Policy::Tier).map_err(|_| PolicyError::Unknown(s.to_string()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Policy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Policy {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Policy, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A game's result: the winner, or a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
pub enum GameResult {
    /// White won (text `white`).
    White,
    /// A draw, whatever the reason, the ply cap included (text `draw`).
    Draw,
    /// Black won (text `black`).
    Black,
}

impl GameResult {
    /// The result of a game won by `winner`, or drawn (`None`).
    pub fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::White,
            Some(Color::Black) => GameResult::Black,
            None => GameResult::Draw,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::White => Some(Color::White),
            GameResult::Black => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// `white`, `draw` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            GameResult::White => "white",
            GameResult::Draw => "draw",
            GameResult::Black => "black",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a playout ended: one of the rules' ends ([`Termination`]), or the ply cap. Serialized (and written
/// in CSV) as its [`name`](EndReason::name).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    /// An end by the rules (playouts claim every draw as soon as allowed, so the automatic fivefold and
    /// 75-move draws only come after the claims were refused: never, here).
    Rules(Termination),
    /// The playout's ply cap was reached with the game still on: a draw here (text `ply_cap`).
    PlyCap,
}

impl EndReason {
    /// Every reason, in the order of the summary tables: the rules' ends, then the cap.
    pub const ALL: [EndReason; 8] = {
        let mut all = [EndReason::PlyCap; 8];
        let mut i = 0;
        while i < Termination::ALL.len() {
            all[i] = EndReason::Rules(Termination::ALL[i]);
            i += 1;
        }
        all
    };

    /// The text: [`Termination::name`] for the rules' ends (`checkmate`, `threefold`, …), `ply_cap` for
    /// the cap.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Rules(t) => t.name(),
            EndReason::PlyCap => "ply_cap",
        }
    }

    /// The reason of a [`EndReason::name`].
    pub fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl From<GameEnd> for EndReason {
    fn from(end: GameEnd) -> EndReason {
        EndReason::Rules(end.termination())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for EndReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for EndReason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<EndReason, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        EndReason::from_name(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown end reason {s:?}")))
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What happened in one playout. Counts are of moves played (plies); "branching" is the number of
/// legal moves of a position in which a move was chosen, so the final position (where the game ended, or
/// the cap struck) does not count.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameStats {
    /// The playout's seed.
    pub seed: u64,
    /// Who played White.
    pub white: Policy,
    /// Who played Black.
    pub black: Policy,
    /// Moves played.
    pub plies: usize,
    /// The winner, or a draw.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: EndReason,
    /// The mean number of legal moves over the `plies` positions in which a move was chosen (0 when no
    /// move was played).
    pub mean_branching: f64,
    /// The most legal moves of any of those positions (0 when no move was played).
    pub max_branching: usize,
    /// Moves that took a piece (en passant included).
    pub captures: usize,
    /// Moves that promoted a pawn.
    pub promotions: usize,
    /// Moves that gave check.
    pub checks: usize,
    /// White's pieces on the board at the end, the king included.
    pub white_pieces: usize,
    /// Black's pieces on the board at the end, the king included.
    pub black_pieces: usize,
    /// Nodes the engine searched, both sides together (0 between random players).
    pub engine_nodes: u64,
}

/// Plays seeded games between two policies; it owns the engines' tables, so one `Playout` per thread
/// plays game after game without allocating them again.
#[derive(Debug)]
pub struct Playout {
    policies: [Policy; 2],
    max_plies: usize,
    random_plies: usize,
    searchers: [Option<Searcher>; 2],
}

impl Playout {
    /// The ply cap of [`Playout::new`]: far beyond the longest random game measured (the 50-move rule
    /// ends nearly all of them within a few thousand plies).
    pub const DEFAULT_MAX_PLIES: usize = 10_000;

    /// A playout of `white` against `black`, capped at [`Playout::DEFAULT_MAX_PLIES`].
    ///
    /// # Panics
    /// If an engine's table (at most 64 MB each) cannot be allocated; [`Playout::try_new`] reports it.
    pub fn new(white: Policy, black: Policy) -> Playout {
        Playout::try_new(white, black).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A playout of `white` against `black`, or the error of allocating an engine's table.
    ///
    /// # Errors
    /// [`TableAllocError`] when an engine's table cannot be allocated.
    pub fn try_new(white: Policy, black: Policy) -> Result<Playout, TableAllocError> {
        let searcher = |p: Policy| match p {
            Policy::Random => Ok(None),
            _ => Searcher::try_new(p.table_mb()).map(Some),
        };
        Ok(Playout {
            policies: [white, black],
            max_plies: Playout::DEFAULT_MAX_PLIES,
            random_plies: 0,
            searchers: [searcher(white)?, searcher(black)?],
        })
    }

    /// The same playout with another ply cap: a game still on after `max_plies` moves ends as a draw,
    /// [`EndReason::PlyCap`].
    #[must_use]
    pub fn with_max_plies(mut self, max_plies: usize) -> Playout {
        self.max_plies = max_plies;
        self
    }

    /// The same playout with its first `plies` plies uniformly random, whatever the policies (an
    /// opening of the seed's, so that the engine's games from one start differ: its own moves vary little
    /// with the seed). 0 by default.
    #[must_use]
    pub fn with_random_plies(mut self, plies: usize) -> Playout {
        self.random_plies = plies;
        self
    }

    /// White's policy.
    pub fn white(&self) -> Policy {
        self.policies[0]
    }

    /// Black's policy.
    pub fn black(&self) -> Policy {
        self.policies[1]
    }

    /// The ply cap.
    pub fn max_plies(&self) -> usize {
        self.max_plies
    }

    /// Plays a game from `start` with `seed` and returns its statistics.
    pub fn play(&mut self, start: &Position, seed: u64) -> GameStats {
        self.play_game(start, seed).1
    }

    /// Plays a game from `start` with `seed` and returns it with its statistics (the game's moves, a
    /// [`Game::record`] of it, its final position).
    pub fn play_game(&mut self, start: &Position, seed: u64) -> (Game, GameStats) {
        let mut game = Game::new(start.clone(), seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut legal = Box::new(MoveList::new());
        let (mut branching, mut max_branching) = (0u64, 0usize);
        let (mut captures, mut promotions, mut checks, mut engine_nodes) = (0, 0, 0, 0u64);
        let end = loop {
            legal.clear();
            legal_moves_into(game.position(), &mut legal);
            if let Some(end) = game.status_with(legal.len()) {
                break Some(end);
            }
            if game.moves().len() >= self.max_plies {
                break None;
            }
            branching += legal.len() as u64;
            max_branching = max_branching.max(legal.len());
            let side = game.position().turn().index();
            let policy = if game.moves().len() < self.random_plies { Policy::Random } else { self.policies[side] };
            let m = match policy {
                Policy::Random => legal[uniform_index(&mut rng, legal.len())],
                policy => {
                    let searcher = self.searchers[side].as_mut().expect("an engine policy has a searcher");
                    let result = match policy {
                        Policy::Tier(tier) => game.think_unguarded(searcher, tier, |_| {}),
                        Policy::Nodes(nodes) => {
                            searcher.clear();
                            let limits = Limits { nodes: Some(nodes), ..Limits::default() };
                            let options = Options { seed: game.seed(), ..Options::default() };
                            searcher.search(game.position(), game.history(), &limits, &options, |_| {})
                        }
                        Policy::Random => unreachable!("handled above"),
                    };
                    engine_nodes += result.nodes;
                    // The search returns a root move whenever there is one, and there is one here.
                    result.best_move.expect("the engine moves in a position with legal moves")
                }
            };
            let them = game.position().turn().other();
            let before = game.position().piece_list(them).len();
            game.play_legal(m);
            let pos = game.position();
            captures += usize::from(pos.piece_list(them).len() < before);
            promotions += usize::from(m.promotion.is_some());
            checks += usize::from(pos.is_check());
        };
        let plies = game.moves().len();
        let pos = game.position();
        let stats = GameStats {
            seed,
            white: self.policies[0],
            black: self.policies[1],
            plies,
            result: GameResult::from_winner(end.and_then(GameEnd::winner)),
            reason: end.map_or(EndReason::PlyCap, EndReason::from),
            mean_branching: if plies == 0 { 0.0 } else { branching as f64 / plies as f64 },
            max_branching,
            captures,
            promotions,
            checks,
            white_pieces: pos.piece_list(Color::White).len(),
            black_pieces: pos.piece_list(Color::Black).len(),
            engine_nodes,
        };
        (game, stats)
    }
}

/// A game of uniformly random moves from `start` with `seed`, capped at `max_plies` plies.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_search::playout::play_random;
/// let stats = play_random(&start::chess(), 3, 40);
/// assert!(stats.plies <= 40 && stats.mean_branching > 0.0);
/// ```
pub fn play_random(start: &Position, seed: u64, max_plies: usize) -> GameStats {
    Playout::new(Policy::Random, Policy::Random).with_max_plies(max_plies).play(start, seed)
}

/// The seed of game `index` of a run seeded `run_seed`: SplitMix64's output after `index + 1` steps from
/// `run_seed`, so that neighbouring runs (seeds 1 and 2) share no games, and any one game of a run can
/// be played again alone from its seed.
///
/// ```
/// use tesseract_search::playout::game_seed;
/// assert_ne!(game_seed(1, 0), game_seed(1, 1));
/// assert_ne!(game_seed(1, 1), game_seed(2, 0));
/// assert_eq!(game_seed(0, 0), 0xe220_a839_7b1d_cdaf); // SplitMix64's first output from 0
/// ```
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// An index below `n` (> 0), exactly uniform: the first draw `v` at or above `2⁶⁴ mod n`, reduced mod `n`.
fn uniform_index(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n as u64;
    let threshold = n.wrapping_neg() % n;
    loop {
        let v = rng.next_u64();
        if v >= threshold {
            return (v % n) as usize;
        }
    }
}

/// A corpus of seeded game records, for benchmarks and tests of PGN readers: game `k` (for `k` in `games`)
/// is the random playout of [`play_random`] from `start` with seed [`game_seed`]`(run_seed, k)`, capped at
/// `max_plies`, written with the tags a game database has and, depending on `k % 4`, no annotations, a
/// clock comment on every move (`{ [%clk 0:02:57] }`, as online servers write them), NAGs and comments
/// every few moves, or a variation (another legal move, in the notation [`tesseract_movegen::san`] writes) at a random
/// ply. A pure function of its arguments, like the playouts.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_search::playout::pgn_corpus;
/// let games: Vec<_> = pgn_corpus(&start::chess(), 1, 0..8, 60).collect();
/// assert_eq!(games.len(), 8);
/// assert!(games.iter().all(|g| g.moves.len() <= 60 && g.tag("Round").is_some()));
/// assert!(games[1].moves.iter().all(|m| m.comments.len() == 1));
/// assert_eq!(games, pgn_corpus(&start::chess(), 1, 0..8, 60).collect::<Vec<_>>());
/// ```
pub fn pgn_corpus(
    start: &Position,
    run_seed: u64,
    games: std::ops::Range<u64>,
    max_plies: usize,
) -> impl Iterator<Item = PgnGame> + '_ {
    let mut playout = Playout::new(Policy::Random, Policy::Random).with_max_plies(max_plies);
    games.map(move |k| {
        let seed = game_seed(run_seed, k);
        let (game, _) = playout.play_game(start, seed);
        let mut pgn = game.rules().to_pgn();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5047_4e43_6f72_7075);
        let elo = |rng: &mut ChaCha8Rng| (1200 + rng.next_u64() % 1600).to_string();
        let (white_elo, black_elo) = (elo(&mut rng), elo(&mut rng));
        for (name, value) in [
            ("Event", "Seeded corpus".to_string()),
            ("Site", "tesseract".to_string()),
            ("Date", format!("2026.{:02}.{:02}", 1 + k % 12, 1 + k % 28)),
            ("Round", (k + 1).to_string()),
            ("White", format!("Random {}", rng.next_u64() % 1000)),
            ("Black", format!("Random {}", rng.next_u64() % 1000)),
            ("WhiteElo", white_elo),
            ("BlackElo", black_elo),
            ("TimeControl", "180+0".to_string()),
        ] {
            pgn.set_tag(name, &value);
        }
        let plies = pgn.moves.len();
        match k % 4 {
            1 => {
                let mut clock = [180u64, 180];
                for (i, m) in pgn.moves.iter_mut().enumerate() {
                    let c = &mut clock[i % 2];
                    *c = c.saturating_sub(rng.next_u64() % 6);
                    m.comments.push(format!("[%clk {}:{:02}:{:02}]", *c / 3600, *c / 60 % 60, *c % 60));
                }
            }
            2 => {
                for m in pgn.moves.iter_mut() {
                    match rng.next_u64() % 12 {
                        0 => m.nags.push(1 + (rng.next_u64() % 6) as u8),
                        1 => m.comments.push("a move worth a second look".to_string()),
                        _ => {}
                    }
                }
            }
            3 if plies > 0 => {
                let ply = (rng.next_u64() % plies as u64) as usize;
                let mut pos = pgn.start.clone();
                for m in &pgn.moves[..ply] {
                    let _ = pos.make(m.mv);
                }
                let mut legal = MoveList::new();
                legal_moves_into(&pos, &mut legal);
                if let Some(&other) = legal.iter().find(|&&o| o != pgn.moves[ply].mv) {
                    pgn.moves[ply].variations.push(tesseract_movegen::san::to_san(&pos, other));
                }
            }
            _ => {}
        }
        pgn
    })
}

/// Writes playout statistics as CSV (RFC 4180 through the `csv` crate: fields with commas, quotes or line
/// breaks are quoted), one header line then one row a game; the caller names each game's start and
/// number, the first two columns.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_search::playout::{play_random, CsvWriter};
/// let mut csv = CsvWriter::new(Vec::new())?;
/// csv.write("classic", 0, &play_random(&start::chess(), 1, 10))?;
/// let text = String::from_utf8(csv.into_inner()?).unwrap();
/// assert!(text.starts_with("start,game,seed,white,black,plies,result,reason,"));
/// assert_eq!(text.lines().count(), 2);
/// # Ok::<_, std::io::Error>(())
/// ```
#[cfg(feature = "csv")]
#[derive(Debug)]
pub struct CsvWriter<W: std::io::Write> {
    inner: csv::Writer<W>,
}

#[cfg(feature = "csv")]
impl<W: std::io::Write> CsvWriter<W> {
    /// The header line's fields: the start and game columns, then the fields of [`GameStats`] in order.
    pub const HEADER: [&'static str; 16] = [
        "start",
        "game",
        "seed",
        "white",
        "black",
        "plies",
        "result",
        "reason",
        "mean_branching",
        "max_branching",
        "captures",
        "promotions",
        "checks",
        "white_pieces",
        "black_pieces",
        "engine_nodes",
    ];

    /// A writer to `out`, the header written.
    ///
    /// # Errors
    /// The error of writing the header (the writer buffers, so it may appear only later).
    pub fn new(out: W) -> std::io::Result<CsvWriter<W>> {
        let mut inner = csv::Writer::from_writer(out);
        inner.write_record(Self::HEADER)?;
        Ok(CsvWriter { inner })
    }

    /// Writes the row of game number `game` from the start named `start` (any text: a start name, a
    /// FEN).
    ///
    /// # Errors
    /// The error of writing.
    pub fn write(&mut self, start: &str, game: u64, stats: &GameStats) -> std::io::Result<()> {
        let row: [String; 16] = [
            start.to_string(),
            game.to_string(),
            stats.seed.to_string(),
            stats.white.to_string(),
            stats.black.to_string(),
            stats.plies.to_string(),
            stats.result.to_string(),
            stats.reason.to_string(),
            stats.mean_branching.to_string(),
            stats.max_branching.to_string(),
            stats.captures.to_string(),
            stats.promotions.to_string(),
            stats.checks.to_string(),
            stats.white_pieces.to_string(),
            stats.black_pieces.to_string(),
            stats.engine_nodes.to_string(),
        ];
        self.inner.write_record(&row)?;
        Ok(())
    }

    /// Flushes and hands back the output.
    ///
    /// # Errors
    /// The error of flushing.
    pub fn into_inner(self) -> std::io::Result<W> {
        self.inner.into_inner().map_err(|e| e.into_error())
    }
}
