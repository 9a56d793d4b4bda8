//! The Tesseract engine: evaluation, iterative-deepening fail-soft negamax with a transposition table,
//!
//! The rules and the figures it follows are the project's contract, [`tesseract_board::rules`] (RULES.md).
//! pruning and quiescence, four difficulty tiers, reproducible from a seed, for 4D Tesseract, classic chess
//! and Chess960. It builds on `tesseract-board` and `tesseract-movegen` (and `tesseract-tablebase` for
//! endgame tables a caller loads), and does no I/O.
//!
//! # Examples
//!
//! Search a position to a fixed depth, watching each iteration:
//! ```
//! use tesseract_board::{start, TextMove};
//! use tesseract_search::{Limits, Options, Searcher};
//! let pos = start::tesseract(start::Army::Standard);
//! let mut searcher = Searcher::new(16);
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = searcher.search(&pos, &[], &limits, &Options::default(), |info| {
//!     println!("depth {} score {} nodes {}", info.depth, info.score, info.nodes);
//! });
//! let best = result.best_move.expect("the start has 226 legal moves");
//! println!("bestmove {}", TextMove::from_move(best, &pos));
//! ```
//!
//! Play a game against a tier; the game's seed makes every engine move reproducible:
//! ```
//! use tesseract_board::start;
//! use tesseract_search::{Game, Player, Searcher, Tier};
//! let mut game = Game::new(start::chess(), 2024);
//! let mut searcher = Searcher::new(1);
//! game.play_text("d2d4")?;
//! let reply = game.think(&mut searcher, Tier::Beginner, |_| {});
//! game.play(reply.best_move.expect("a legal reply"))?;
//! // The record (start, seed, players, moves) replays to the same engine moves.
//! let record = game.record(Player::Human, Player::Engine(Tier::Beginner));
//! assert!(record.verify(&mut searcher, |_, _| {}).is_ok());
//! # Ok::<_, tesseract_movegen::MoveError>(())
//! ```
//!
//! The evaluation is symmetric: a position and its color-flipped point reflection score opposite:
//! ```
//! use tesseract_board::{start, CastlingMode, Position};
//! use tesseract_search::eval::evaluate_white;
//! let pos = Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")?;
//! // σ moves the king to the d-file: castling rights then follow the Chess960 rules.
//! let flipped = Position::from_setup(pos.to_setup().mirrored(), CastlingMode::Chess960)?;
//! assert_eq!(evaluate_white(&flipped), -evaluate_white(&pos));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design
//!
//! - **Search** ([`search`]): iterative deepening over a fail-soft negamax with principal-variation
//!   search, aspiration windows, a transposition table ([`tt`]), null-move pruning, late-move reductions
//!   and pruning, futility pruning, check extension and a quiescence search on captures and promotions
//!   (and, on 2D boards, quiet checks at its first ply),
//!   with moves ordered by table move, MVV-LVA, killers, on 2D boards countermoves, and history, and
//!   captures judged by static exchange evaluation. The branching factor is the
//!   problem this design answers: the Tesseract start has 226 legal moves (20 in chess), and a plain
//!   alpha-beta would not see past depth four; the pruning makes the effective branching factor a small
//!   fraction of that (the master completes depth seven from the start within 2 s for most seeds here:
//!   within its node budget for 33 of the seeds 0 to 39 before the 4D passed pawns, for 8 of the seeds 0
//!   to 9 with them; see the README for the figures).
//! - **Evaluation** ([`eval`]): integers only; material with values derived from the pieces' empty-board
//!   mobility, mobility, centrality, pawn advancement along each pawn's own axis, king safety, passed
//!   pawns (of both kinds in 4D); tapered between middlegame and endgame weights; exactly antisymmetric
//!   under the color flip σ. Its weights ([`eval::Weights`]) can be changed for a search
//!   ([`Options::weights`]), fitted to game results ([`tune`]) and read from text.
//! - **Move lists live in the searcher**, one reusable vector per ply, filled through the generator's
//!   push interface: a `MoveList` holds 10,240 moves (61 KB), too much for the stack of a recursion.
//! - **Determinism.** Limits are depths and node counts, checked on entry to every node; the clock is only
//!   a safety guard (a search stopped by it says so in [`SearchResult::stop`]). The only randomness is a
//!   ChaCha8 generator seeded from the game's seed and the ply ([`game_ply`]): it keys the evaluation noise
//!   of the weak tiers and breaks ties between root moves. With its table cleared before each move, as
//!   [`Game::think`] does, a [`Tier`]'s move depends only on the game, never on the machine, unless the
//!   guard fires; [`Game::think_unguarded`] (used by [`GameRecord::verify`]) has no guard at all.
//! - **No staged generation.** The generator is legal and hands out whole lists; checking a table move's
//!   legality would itself take a generation, so every node generates once, scores, and picks the best
//!   few by selection before sorting the rest. The static exchange evaluation is asked lazily, of a
//!   capture by a more valuable piece only when it comes up for search (and, on 2D boards, of the moves
//!   the exchange pruning looks at); quiescence after four plies considers only recaptures: 4D
//!   middlegames have so many loose pawns that unrestricted capture chains ran thirty plies deep.
//! - **A table cleared at every tier move.** Keeping it between moves would make a move depend on the
//!   searches before it, so a game loaded from a record and continued would not replay; the tiers trade
//!   that bit of strength for reproducibility. [`Searcher::search`] itself keeps the table, for callers
//!   that want it (the UCI engine's master on a clock, whose moves depend on the timing anyway, does).
//! - **Repetition** needs the game's past: [`Searcher::search`] takes the hashes of the earlier
//!   positions; any repetition since the last capture or pawn move is scored as a draw inside the search.
//!
//! - **The clock** is `web_time::Instant`: the standard library's on native targets, `performance.now()`
//!   on `wasm32-unknown-unknown` (browsers and Web Workers), where `std::time::Instant::now` traps. The
//!   search uses no threads (its movegen dependency is built without the `parallel` feature), so it runs in
//!   a browser (`tesseract-wasm`).
//! - **Thinking while a game draws** ([`Thinker`]): a handle that runs a search on its own thread,
//!   polled without blocking for the best line so far and the final move, stopped at any time, stopped
//!   and joined when dropped (native targets; a page runs the search in a Web Worker instead).
//! - **Endgame tables** ([`Searcher::set_tablebases`]): with tables loaded from `tesseract-tablebase`, a
//!   root position they cover is answered by the table's best move and exact mate, and nodes of at most
//!   four pieces they cover take the table's value; without them (the default) nothing changes.
//! - **Time management** ([`time`]): a [`Clock`] (time left, increment, moves to the control) gives a
//!   [`TimeBudget`] of a soft limit (no new iteration) and a hard limit (the search's wall-clock limit),
//!   with a move overhead kept aside, for front ends that play on a clock (`tesseract-uci`); a
//!   [`Stability`] paces the soft limit by what the iterations show (the best move changing or standing,
//!   the score falling); [`Limits::paced`] paces a soft node limit the same way.
//!
//! # Bench signature
//!
//! [`bench::run`] searches a fixed list of positions (4D from all three armies, classic chess, Chess960)
//! to fixed depths with a fresh 16 MB table each, and sums the nodes: [`bench::SIGNATURE`]. Any change to
//! the search or the evaluation that changes the engine's behaviour changes the signature; a test pins
//! it, so such a change must update [`bench::SIGNATURE`] in the same commit, and its message must say that
//! behaviour changed and why (a change that keeps the signature is a pure speed-up or refactoring). The
//! recorded 40-ply game between two tiers in `tests/data/replay_40.txt`, which a test replays move for
//! move, is pinned the same way (it also moves when a tier's budget changes); `tests/replay.rs` says how
//! to regenerate it.
//!
//! # Playouts
//!
//! [`playout`] plays whole seeded games between two policies (uniform random moves, a tier, a node
//! budget) by the rules of [`Game`] and counts what researchers ask about: length, result and the reason
//! for it, branching, captures, promotions, checks ([`playout::GameStats`]); the same seed gives the same
//! game on every machine. The facade's `experiment` example runs them by the hundred.
//! ```
//! use tesseract_board::start;
//! use tesseract_search::playout::{play_random, EndReason};
//! let stats = play_random(&start::chess(), 42, 1_000);
//! assert_eq!(stats.plies > 0, stats.mean_branching > 0.0);
//! println!("{} plies, {} ({})", stats.plies, stats.result, stats.reason);
//! # let _ = EndReason::ALL;
//! ```
//!
//! # Tuning
//!
//! [`tune`] fits the evaluation's weights ([`eval::Weights`]: the pieces' values and every positional
//! weight, or those picked by name) to the results of played games (Texel tuning): samples of quiet
//! positions with their games' results, the evaluation's scale and the weights fitted to them, each trial
//! evaluated by an [`eval::Evaluator`]. The `tune` example plays the seeded games and prints the fit; the
//! engine's weights change by hand, after a match.
//!
//! # Words for people
//!
//! [`describe`] says a score as a player reads it, naming the side that stands better:
//! ```
//! use tesseract_board::Color;
//! use tesseract_search::{Score, describe};
//! assert_eq!(describe(Score::Cp(-170), 6, Color::Black), "White is better by about 1.7 pawns, looking 6 moves ahead");
//! ```
//!
//! # Feature flags
//!
//! - `serde`: `Serialize`/`Deserialize` for [`GameRecord`], [`Player`] and [`Tier`] (game records saved
//!   as JSON by the `play` example), and for the playouts' [`playout::GameStats`] and
//!   [`playout::Policy`].
//! - `csv`: `playout::CsvWriter`, playout statistics as CSV rows (through the `csv` crate).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bench;
pub mod eval;
mod game;
pub mod playout;
pub mod search;
mod see;
pub mod thinker;
mod tier;
pub mod time;
pub mod tt;
pub mod tune;
pub mod words;

pub use game::{Game, GameRecord, ParsePlayerError, Player, RecordError};
pub use search::{
    Features, Info, Limits, MATE, MAX_NOISE, MAX_PLY, Options, Score, SearchResult, Searcher, StopReason, TABLE_WIN,
    game_ply,
};
/// How a game ended: the rules-level game's ends, re-exported for the engine's users.
pub use tesseract_movegen::{GameEnd, Termination};
pub use thinker::{BestMove, Observer, ThinkError, Thinker};
pub use tier::{ParseTierError, Tier, TierSettings};
pub use time::{Clock, LATENCY_MARGIN, LATENCY_MOVES, Latency, RESERVE_OVERHEADS, Stability, TimeBudget};
pub use tt::{TableAllocError, TranspositionTable};
pub use words::describe;

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
