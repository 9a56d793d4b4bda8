//! A game with an engine: the rules-level [`tesseract_movegen::Game`] (moves, undo and redo, the ends of
//! the game and the draw claims), its seed, the engine's move for a tier, and a plain-data record that
//! replays identically.

use std::fmt;

use tesseract_board::{Color, Move, Position, TextMove};
use tesseract_movegen::pgn::{GameResult, PgnGame};
use tesseract_movegen::{Claims, GameEnd, Legal, MoveError};

use crate::search::{Info, Limits, SearchResult, Searcher};
use crate::tier::{Tier, TierSettings};

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A person (or any program outside the engine).
    Human,
    /// The engine at a tier.
    Engine(Tier),
}

impl fmt::Display for Player {
    /// `human` or the tier's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Engine(t) => f.write_str(t.name()),
        }
    }
}

/// A text that names no player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player {0:?}: expected human, beginner, club, expert or master")]
pub struct ParsePlayerError(pub String);

impl std::str::FromStr for Player {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<Player, ParsePlayerError> {
        if s == "human" {
            return Ok(Player::Human);
        }
        s.parse::<Tier>().map(Player::Engine).map_err(|_| ParsePlayerError(s.chars().take(40).collect()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Player {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Player {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Player, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A game as plain data: what a saved game holds (with the `serde` feature, as JSON for example).
///
/// ```json
/// {"start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "seed": 7,
///  "white": "human", "black": "club", "moves": ["e2e4", "c7c5"]}
/// ```
///
/// The seed and the players' tiers determine every engine move: [`GameRecord::verify`] re-thinks each
/// engine move and checks it is the one recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    /// The start position (FEN or TFEN text in serialized form).
    pub start: Position,
    /// The game's seed.
    pub seed: u64,
    /// Who plays White.
    pub white: Player,
    /// Who plays Black.
    pub black: Player,
    /// The moves, in the text of RULES.md §4.
    pub moves: Vec<TextMove>,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// A recorded move is not legal where it stands.
    #[error("move {ply} ({text}) of the record: {source}")]
    IllegalMove {
        /// The move's index in the record, from 1.
        ply: usize,
        /// Its text.
        text: String,
        /// Why it is illegal.
        source: MoveError,
    },
    /// The engine chooses another move than the one recorded.
    #[error("move {ply} of the record: the {tier} engine plays {engine}, the record says {recorded}")]
    EngineMismatch {
        /// The move's index in the record, from 1.
        ply: usize,
        /// The engine's tier.
        tier: Tier,
        /// The recorded move.
        recorded: String,
        /// The engine's move.
        engine: String,
    },
}

/// A game in progress, with the seed of its engine moves.
///
/// Engines claim every draw as soon as the rules allow it: [`Game::status`] is the rules-level game's
/// [`end`](tesseract_movegen::Game::end) with [`Claims::all`]. For the automatic ends alone and the
/// claims a player may make, see [`Game::rules`].
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_search::{Game, Searcher, Tier};
/// let mut game = Game::new(start::chess(), 42);
/// game.play_text("e2e4")?;
/// let mut searcher = Searcher::new(1);
/// let reply = game.think(&mut searcher, Tier::Beginner, |_| {});
/// game.play(reply.best_move.unwrap())?;
/// assert_eq!(game.moves().len(), 2);
/// game.undo();
/// assert_eq!(game.moves().len(), 1);
/// # Ok::<_, tesseract_movegen::MoveError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: tesseract_movegen::Game,
    seed: u64,
}

impl Game {
    /// A new game from `start`, with the seed of its engine moves.
    pub fn new(start: Position, seed: u64) -> Game {
        Game { rules: tesseract_movegen::Game::new(start), seed }
    }

    /// The rules-level game: its history, undo and redo, automatic ends and claimable draws.
    pub fn rules(&self) -> &tesseract_movegen::Game {
        &self.rules
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        self.rules.start()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.rules.position()
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        self.rules.moves()
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The hashes of the positions before the current one, oldest first (for [`Searcher::search`]).
    pub fn history(&self) -> &[u64] {
        self.rules.history()
    }

    /// Plays a move after checking it is legal.
    ///
    /// # Errors
    /// [`MoveError`] when it is not; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        self.rules.play(m)
    }

    /// Plays a move the caller took from this position's legal move list (or the engine's best move),
    /// without generating the list again to check it.
    pub(crate) fn play_legal(&mut self, m: Move) {
        self.rules.play_unchecked(m);
    }

    /// Parses, checks and plays a move text (RULES.md §4).
    ///
    /// # Errors
    /// [`MoveError`] saying why the text is not a legal move here.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        self.rules.play_text(text)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        self.rules.undo()
    }

    /// Plays again the last move taken back, if any.
    pub fn redo(&mut self) -> Option<Move> {
        self.rules.redo()
    }

    /// How many times the current position occurred (counting now).
    pub fn repetitions(&self) -> usize {
        self.rules.repetitions()
    }

    /// Whether and how the game is over, every draw claimed as soon as allowed: mate, stalemate, dead
    /// position, the 75-move rule and fivefold repetition, the 50-move rule, threefold repetition.
    pub fn status(&self) -> Option<GameEnd> {
        self.rules.end(Claims::all())
    }

    /// [`Game::status`] when the caller already knows how many legal moves the current position has (the
    /// playouts generate them anyway): the same rules in the same order, without a second generation.
    pub(crate) fn status_with(&self, legal_moves: usize) -> Option<GameEnd> {
        self.rules.end_given_moves(Claims::all(), legal_moves)
    }

    /// The text of each move played.
    pub fn move_texts(&self) -> Vec<TextMove> {
        self.rules.move_texts()
    }

    /// The engine's move at `tier` (its budgets on this board, [`Tier::settings_on`]): the searcher is
    /// resized to the tier's table and cleared, so that the
    /// result depends only on the game (start, moves, seed) and the tier, unless the tier's wall-clock
    /// guard fires.
    pub fn think(&self, searcher: &mut Searcher, tier: Tier, on_iteration: impl FnMut(&Info<'_>)) -> SearchResult {
        let settings = tier.settings_on(self.position().shape());
        self.think_within(searcher, &settings, &settings.limits(), on_iteration)
    }

    /// The engine's move at `tier` within its deterministic budget alone, with no wall-clock guard: a pure
    /// function of the game and the tier on any machine, however slow or busy ([`GameRecord::verify`]
    /// and strength matches use it).
    pub fn think_unguarded(
        &self,
        searcher: &mut Searcher,
        tier: Tier,
        on_iteration: impl FnMut(&Info<'_>),
    ) -> SearchResult {
        let settings = tier.settings_on(self.position().shape());
        self.think_within(searcher, &settings, &settings.budget(), on_iteration)
    }

    fn think_within(
        &self,
        searcher: &mut Searcher,
        settings: &TierSettings,
        limits: &Limits,
        on_iteration: impl FnMut(&Info<'_>),
    ) -> SearchResult {
        if searcher.hash_mb() != settings.hash_mb {
            searcher.resize(settings.hash_mb);
        }
        searcher.clear();
        searcher.search(self.position(), self.history(), limits, &settings.options(self.seed), on_iteration)
    }

    /// The game as plain data.
    pub fn record(&self, white: Player, black: Player) -> GameRecord {
        GameRecord { start: self.start().clone(), seed: self.seed, white, black, moves: self.move_texts() }
    }

    /// The game as a PGN record: the players' names in the `White` and `Black` tags (`human` or a tier),
    /// the seed in a `Seed` tag, and the result of [`Game::status`] (`*` while the game goes on), so that
    /// [`GameRecord::from_pgn`] reads it back whole.
    pub fn to_pgn(&self, white: Player, black: Player) -> PgnGame {
        let mut pgn = self.rules.to_pgn();
        pgn.set_tag("White", &white.to_string());
        pgn.set_tag("Black", &black.to_string());
        pgn.set_tag("Seed", &self.seed.to_string());
        pgn.result = GameResult::from(self.status());
        pgn
    }

    /// The game a record describes (its moves checked for legality, not re-thought).
    ///
    /// # Errors
    /// [`RecordError::IllegalMove`] for the first move that is not legal.
    pub fn from_record(record: &GameRecord) -> Result<Game, RecordError> {
        let rules = tesseract_movegen::Game::replay(record.start.clone(), &record.moves)?;
        Ok(Game { rules, seed: record.seed })
    }
}

impl From<tesseract_movegen::ReplayError> for RecordError {
    fn from(e: tesseract_movegen::ReplayError) -> RecordError {
        RecordError::IllegalMove { ply: e.ply, text: e.text, source: e.source }
    }
}

impl GameRecord {
    /// The record of a PGN game's main line: players from the `White` and `Black` tags when they name
    /// one (`human`, `beginner`, `club`, `expert`, `master`; any other name is a human), the seed from a
    /// `Seed` tag (0 without one).
    ///
    /// # Errors
    /// [`RecordError::IllegalMove`] for the first move that is not legal where it stands.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::start;
    /// use tesseract_search::{Game, GameRecord, Player, Tier};
    /// let mut game = Game::new(start::chess(), 7);
    /// game.play_text("e2e4")?;
    /// let text = game.to_pgn(Player::Human, Player::Engine(Tier::Club)).to_pgn()?;
    /// assert!(text.contains("[Black \"club\"]\n[Result \"*\"]\n[Seed \"7\"]"));
    /// let record = GameRecord::from_pgn(&text.parse()?)?;
    /// assert_eq!(record, game.record(Player::Human, Player::Engine(Tier::Club)));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_pgn(pgn: &PgnGame) -> Result<GameRecord, RecordError> {
        let game = tesseract_movegen::Game::from_pgn(pgn)?;
        let player = |tag| pgn.tag(tag).and_then(|name| name.parse().ok()).unwrap_or(Player::Human);
        Ok(GameRecord {
            start: pgn.start.clone(),
            seed: pgn.tag("Seed").and_then(|s| s.parse().ok()).unwrap_or(0),
            white: player("White"),
            black: player("Black"),
            moves: game.move_texts(),
        })
    }

    /// Replays the record, re-thinking every engine move within its tier's budget (without the wall-clock
    /// guard, so that a slow or busy machine replays the same game) and checking that the engine plays what
    /// is recorded; `on_move` sees each ply's index (from 1) and text as it is checked.
    ///
    /// # Errors
    /// The first illegal move or the first engine move that differs.
    pub fn verify(
        &self,
        searcher: &mut Searcher,
        mut on_move: impl FnMut(usize, &TextMove),
    ) -> Result<Game, RecordError> {
        let mut game = Game::new(self.start.clone(), self.seed);
        for (i, text) in self.moves.iter().enumerate() {
            let player = if game.position().turn() == Color::White { self.white } else { self.black };
            if let Player::Engine(tier) = player {
                let result = game.think_unguarded(searcher, tier, |_| {});
                let engine = result.best_move.map(|m| TextMove::from_move(m, game.position()).to_string());
                if engine.as_deref() != Some(text.to_string().as_str()) {
                    return Err(RecordError::EngineMismatch {
                        ply: i + 1,
                        tier,
                        recorded: text.to_string(),
                        engine: engine.unwrap_or_else(|| "none".to_string()),
                    });
                }
            }
            on_move(i + 1, text);
            let m = game.position().resolve(text).map_err(|source| RecordError::IllegalMove {
                ply: i + 1,
                text: text.to_string(),
                source,
            })?;
            game.play_legal(m);
        }
        Ok(game)
    }
}
