//! Tesseract chess in a [Bevy](https://bevyengine.org) app: [`TesseractPlugin`] puts a game in the world
//! as the [`ChessGame`] resource, takes people's moves as [`PlayMove`] messages, lets the engine think on
//! its own thread while frames go on, and tells the app what happens through the [`MovePlayed`],
//! [`MoveRejected`], [`GameOver`] and [`EngineError`] messages.
//!
//! Works for every board of the Tesseract crates: the 4D game on its 5×5×5×5 board, classic chess and
//! Chess960 (the plugin's `start` position decides).
//!
//! # Examples
//!
//! The engine plays both sides of a game of chess in a headless app, 2,000 nodes a move:
//! ```
//! use bevy::prelude::*;
//! use tesseract_bevy::{GameOver, MovePlayed, Side, TesseractPlugin};
//! use tesseract_board::start;
//!
//! let plugin = TesseractPlugin::new(start::chess())
//!     .with_seed(7)
//!     .with_white(Side::EngineNodes(2_000))
//!     .with_black(Side::EngineNodes(2_000));
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, plugin));
//! // Read the messages each frame, as a system would with a `MessageReader`.
//! let mut moves = app.world().resource::<Messages<MovePlayed>>().get_cursor();
//! let mut ends = app.world().resource::<Messages<GameOver>>().get_cursor();
//! let mut played = 0;
//! for _frame in 0..100 {
//!     app.update();
//!     played += moves.read(app.world().resource::<Messages<MovePlayed>>()).count();
//!     if ends.read(app.world().resource::<Messages<GameOver>>()).next().is_some() {
//!         break;
//!     }
//!     std::thread::sleep(std::time::Duration::from_millis(1)); // a frame's work would go here
//! }
//! assert!(played > 0);
//! ```
//!
//! # Threads
//!
//! The engine's search runs on a thread of its own ([`tesseract_search::Thinker`]), not in Bevy's task
//! pools: the plugin's system starts it when an engine is to move, looks at it once a frame without waiting
//! ([`Thinking`] shows its best line so far), and plays its move on the frame after it is done. A frame
//! never waits for the engine's thinking: the table is cleared before a [`Side::EngineNodes`] move on the
//! search thread ([`Thinker::clear_before_next_search`]), and stopping an unwanted search waits only for
//! the thread to notice (a few milliseconds, or the end of a table allocation or clear under way). A search for a position that is no
//! longer on the board (a side changed, the game restarted, the game ended) is stopped, and dropping the
//! app (or an [`AppExit`]) stops and joins the search thread.
//!
//! # Determinism
//!
//! A [`Side::EngineNodes`] engine searches a node budget from a cleared table, seeded by the game's seed:
//! its move depends only on the game, on any machine and however the frames fall. A [`Side::Engine`] tier
//! is the engine of [`Game::think`]: the same, unless the tier's wall-clock guard fires on a slow machine.

#![deny(missing_docs)]

use std::fmt;

use bevy::app::AppExit;
use bevy::prelude::*;
use tesseract_board::{Color, Move, Position, TextMove};
use tesseract_search::{BestMove, Game, GameEnd, Limits, Options, Thinker, Tier};

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// A person: the side's moves come as [`PlayMove`] messages.
    Human,
    /// The engine at a tier ([`Game::think`]: its table size, budgets, noise and wall-clock guard).
    Engine(Tier),
    /// The engine with a node budget per move and no noise: deterministic, and as quick or as strong as
    /// the budget (a few thousand nodes is a weak, fast player).
    EngineNodes(u64),
}

impl Side {
    /// Whether the engine plays this side.
    pub fn is_engine(self) -> bool {
        !matches!(self, Side::Human)
    }
}

impl fmt::Display for Side {
    /// `human`, the tier's name, or `engine (N nodes)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Side::Human => f.write_str("human"),
            Side::Engine(tier) => f.write_str(tier.name()),
            Side::EngineNodes(nodes) => write!(f, "engine ({nodes} nodes)"),
        }
    }
}

/// The plugin: a game from `start`, its players, and the engine's table size.
///
/// Its systems run in [`Update`], in the [`TesseractSystems`] set: people's moves first, then the engine,
/// then the game's end.
#[derive(Clone, Debug)]
pub struct TesseractPlugin {
    /// The start position.
    pub start: Position,
    /// The game's seed (the engine's tie breaks and noise).
    pub seed: u64,
    /// Who plays White.
    pub white: Side,
    /// Who plays Black.
    pub black: Side,
    /// The engine's table, in megabytes, for [`Side::EngineNodes`] (a tier sets its own size).
    pub hash_mb: usize,
}

impl Default for TesseractPlugin {
    /// Classic chess, seed 0, two people, a 16 MB table.
    fn default() -> TesseractPlugin {
        TesseractPlugin::new(tesseract_board::start::chess())
    }
}

impl TesseractPlugin {
    /// A game from `start` between two people, seed 0, a 16 MB table.
    pub fn new(start: Position) -> TesseractPlugin {
        TesseractPlugin { start, seed: 0, white: Side::Human, black: Side::Human, hash_mb: 16 }
    }

    /// With this seed.
    pub fn with_seed(mut self, seed: u64) -> TesseractPlugin {
        self.seed = seed;
        self
    }

    /// With this White player.
    pub fn with_white(mut self, white: Side) -> TesseractPlugin {
        self.white = white;
        self
    }

    /// With this Black player.
    pub fn with_black(mut self, black: Side) -> TesseractPlugin {
        self.black = black;
        self
    }

    /// With a table of this many megabytes for [`Side::EngineNodes`].
    pub fn with_hash_mb(mut self, hash_mb: usize) -> TesseractPlugin {
        self.hash_mb = hash_mb;
        self
    }
}

impl Plugin for TesseractPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<PlayMove>()
            .add_message::<MovePlayed>()
            .add_message::<MoveRejected>()
            .add_message::<GameOver>()
            .add_message::<EngineError>()
            .insert_resource(ChessGame::new(self.start.clone(), self.seed, self.white, self.black))
            .init_resource::<Thinking>()
            .insert_resource(Engine { thinker: None, hash_mb: self.hash_mb.max(1), job: None, failed: None })
            .add_systems(Update, (play_human_moves, drive_engine, report_game_over).chain().in_set(TesseractSystems))
            .add_systems(Last, stop_engine_on_exit);
    }
}

/// The plugin's systems in [`Update`], to order an app's own systems before or after them.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TesseractSystems;

/// The game and its players.
///
/// Read it for the position, the moves and the game's end; change it only through its methods (a new game,
/// another player), so that the engine and the messages follow.
#[derive(Resource, Clone, Debug)]
pub struct ChessGame {
    game: Game,
    white: Side,
    black: Side,
    /// The game's end, kept from the last change ([`Game::status`] generates the moves).
    end: Option<GameEnd>,
    /// Counts the changes (moves, restarts, players): an engine search is for one of them.
    version: u64,
    /// Whether [`GameOver`] was written for this game.
    reported: bool,
}

impl ChessGame {
    /// A game from `start` with its seed and players.
    pub fn new(start: Position, seed: u64, white: Side, black: Side) -> ChessGame {
        let game = Game::new(start, seed);
        let end = game.status();
        ChessGame { game, white, black, end, version: 0, reported: false }
    }

    /// The game: its start, moves, position, history, seed, records.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        self.game.moves()
    }

    /// Whether and how the game is over ([`Game::status`]: every draw claimed as soon as allowed).
    pub fn status(&self) -> Option<GameEnd> {
        self.end
    }

    /// Who plays `color`.
    pub fn side(&self, color: Color) -> Side {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Who is to move.
    pub fn side_to_move(&self) -> Side {
        self.side(self.position().turn())
    }

    /// Sets who plays `color` (a search for that side stops on the next frame if it is no longer the
    /// engine's).
    pub fn set_side(&mut self, color: Color, side: Side) {
        let slot = match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        };
        let changed = std::mem::replace(slot, side) != side;
        // Only a change for the side to move concerns a running search (or an engine that failed).
        if changed && color == self.position().turn() {
            self.version += 1;
        }
    }

    /// Starts a new game from `start` with `seed`, the same players; [`GameOver`] will be written again
    /// when it ends.
    pub fn restart(&mut self, start: Position, seed: u64) {
        self.game = Game::new(start, seed);
        self.end = self.game.status();
        self.version += 1;
        self.reported = false;
    }

    /// Checks and plays a person's move text.
    fn play_human(&mut self, text: &str) -> Result<MovePlayed, String> {
        if let Some(end) = self.end {
            return Err(format!("the game is over: {end}"));
        }
        let turn = self.position().turn();
        if self.side(turn).is_engine() {
            return Err(format!("{turn} is to move, and the engine plays {turn}"));
        }
        let before = self.position().clone();
        let mv = self.game.play_text(text).map_err(|e| e.to_string())?;
        Ok(self.played(mv, &before))
    }

    /// Checks and plays the engine's move.
    fn play_engine(&mut self, mv: Move) -> Result<MovePlayed, String> {
        let before = self.position().clone();
        self.game.play(mv).map_err(|e| format!("the engine's move is refused: {e}"))?;
        Ok(self.played(mv, &before))
    }

    fn played(&mut self, mv: Move, before: &Position) -> MovePlayed {
        self.end = self.game.status();
        self.version += 1;
        MovePlayed {
            mv,
            text: TextMove::from_move(mv, before).to_string(),
            by: before.turn(),
            ply: self.game.moves().len(),
        }
    }
}

/// A person's move, as text (RULES.md §4: `e2e4`, `e7e8q` in chess; the 4D board's cells in 4D).
///
/// Played if it is legal and a person is to move; otherwise a [`MoveRejected`] says why and nothing
/// changes.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PlayMove(pub String);

/// A move was played (by a person or the engine).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct MovePlayed {
    /// The move.
    pub mv: Move,
    /// Its text (RULES.md §4), as [`TextMove::from_move`] writes it.
    pub text: String,
    /// The side that played it.
    pub by: Color,
    /// Its number in the game, from 1.
    pub ply: usize,
}

/// A [`PlayMove`] was not played: the game is unchanged.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct MoveRejected {
    /// The text, as sent.
    pub text: String,
    /// Why: not a move, not legal here, not a person's turn, or the game is over.
    pub reason: String,
}

/// The game has ended: written once per game, on the frame of its last move.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOver {
    /// How it ended ([`ChessGame::status`]).
    pub end: GameEnd,
}

/// The engine could not play (its table or thread could not be had, or it gave no move): it stays idle
/// until the game or its players change.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// What went wrong.
    pub reason: String,
}

/// What the engine thinks, for a UI; written by the plugin each frame.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    /// The side the engine is thinking for, while it thinks.
    pub color: Option<Color>,
    /// Its best line so far in this search (after its last finished iteration), once it has one.
    pub best: Option<BestMove>,
    /// How many frames this search has been running for.
    pub frames: u64,
    /// The final result of the engine's last move (its score, depth, nodes and line).
    pub last: Option<BestMove>,
}

/// The engine's handle: the search thread, created at the first engine move.
#[derive(Resource)]
struct Engine {
    thinker: Option<Thinker>,
    hash_mb: usize,
    /// The game version the running search is for.
    job: Option<u64>,
    /// The game version at which the engine failed: it waits for a change.
    failed: Option<u64>,
}

impl Engine {
    fn stop(&mut self) {
        if let Some(thinker) = &mut self.thinker {
            thinker.stop();
        }
        self.job = None;
    }

    fn start(&mut self, game: &Game, side: Side) -> Result<(), String> {
        // The table is allocated on the search thread at the first start: the frame does not wait for it.
        let thinker = self.thinker.get_or_insert_with(|| Thinker::lazy(self.hash_mb));
        let started = match side {
            Side::Human => return Err("a person plays this side".into()),
            Side::Engine(tier) => thinker.start_tier(game, tier),
            Side::EngineNodes(nodes) => {
                if thinker.searcher().is_some_and(|s| s.hash_mb() != self.hash_mb) {
                    // A tier's move resized it: a new one, made on the search thread.
                    *thinker = Thinker::lazy(self.hash_mb);
                }
                // Cleared on the search thread: the frame does not wait for a fill of the whole table.
                thinker.clear_before_next_search();
                let limits = Limits { nodes: Some(nodes), ..Limits::default() };
                let options = Options { seed: game.seed(), ..Options::default() };
                thinker.start_with(game.position(), game.history(), limits, options)
            }
        };
        started.map_err(|e| format!("cannot start the engine: {e}"))
    }
}

fn play_human_moves(
    mut requests: MessageReader<PlayMove>,
    mut chess: ResMut<ChessGame>,
    mut played: MessageWriter<MovePlayed>,
    mut rejected: MessageWriter<MoveRejected>,
) {
    for PlayMove(text) in requests.read() {
        match chess.play_human(text) {
            Ok(mv) => {
                played.write(mv);
            }
            Err(reason) => {
                rejected.write(MoveRejected { text: text.clone(), reason });
            }
        }
    }
}

fn drive_engine(
    mut chess: ResMut<ChessGame>,
    mut engine: ResMut<Engine>,
    mut thinking: ResMut<Thinking>,
    mut played: MessageWriter<MovePlayed>,
    mut errors: MessageWriter<EngineError>,
) {
    let version = chess.version;
    let turn = chess.position().turn();
    let side = chess.side(turn);
    let wanted = chess.end.is_none() && side.is_engine() && engine.failed != Some(version);
    if engine.job.is_some_and(|job| !wanted || job != version) {
        // The search is for a position that is gone, or a side no engine plays.
        engine.stop();
        thinking.color = None;
        thinking.best = None;
    }
    if !wanted {
        return;
    }
    let mut fail = |engine: &mut Engine, reason: String| {
        engine.stop();
        engine.failed = Some(version);
        errors.write(EngineError { reason });
    };
    if engine.job.is_none() {
        if let Err(reason) = engine.start(chess.game(), side) {
            fail(&mut engine, reason);
            return;
        }
        engine.job = Some(version);
        thinking.color = Some(turn);
        thinking.best = None;
        thinking.frames = 0;
    }
    thinking.frames += 1;
    let Some(thinker) = engine.thinker.as_mut() else { return };
    match thinker.poll() {
        Some(best) if best.is_final() => {
            engine.job = None;
            thinking.color = None;
            thinking.best = None;
            match chess.play_engine(best.best_move) {
                Ok(mv) => {
                    played.write(mv);
                }
                Err(reason) => fail(&mut engine, reason),
            }
            thinking.last = Some(best);
        }
        // A new line so far (written only when it changes, for change detection).
        Some(best) if thinking.best.as_ref() != Some(&best) => thinking.best = Some(best),
        Some(_) => {}
        None if !thinker.is_thinking() => {
            let reason = thinker.failure().map_or_else(|| "the search ended without a move".into(), |e| e.to_string());
            thinking.color = None;
            thinking.best = None;
            fail(&mut engine, reason);
        }
        None => {}
    }
}

fn report_game_over(mut chess: ResMut<ChessGame>, mut over: MessageWriter<GameOver>) {
    if let Some(end) = chess.end
        && !chess.reported
    {
        chess.reported = true;
        over.write(GameOver { end });
    }
}

fn stop_engine_on_exit(mut exits: MessageReader<AppExit>, mut engine: ResMut<Engine>) {
    if exits.read().next().is_some() {
        engine.stop();
    }
}

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
