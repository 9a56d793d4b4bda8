//! A game: its start, its moves, its seed and the positions' hashes, with the rules' claims (repetition,
//! 50-move rule), undo, the engine's move for a tier, and a plain-data record that replays identically.

use std::fmt;

use tesseract_board::{Color, Move, Position, TextMove, Undo};
use tesseract_movegen::{Legal, MoveError, Outcome};

use crate::search::{Info, Limits, SearchResult, Searcher};
use crate::tier::Tier;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The side to move is mated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Kings alone.
    DeadDraw,
    /// The position occurred for the third time.
    Repetition,
    /// 100 plies without a capture or a pawn move.
    FiftyMoves,
}

impl GameEnd {
    /// The winner, if the game is not drawn.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameEnd::Checkmate { winner } => write!(f, "checkmate, {winner} wins"),
            GameEnd::Stalemate => f.write_str("stalemate, a draw"),
            GameEnd::DeadDraw => f.write_str("kings alone, a draw"),
            GameEnd::Repetition => f.write_str("threefold repetition, a draw"),
            GameEnd::FiftyMoves => f.write_str("50-move rule, a draw"),
        }
    }
}

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

impl std::str::FromStr for Player {
    type Err = String;

    fn from_str(s: &str) -> Result<Player, String> {
        if s == "human" {
            return Ok(Player::Human);
        }
        s.parse::<Tier>()
            .map(Player::Engine)
            .map_err(|_| format!("unknown player {s:?}: expected human, beginner, club, expert or master"))
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

/// A game in progress.
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
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    hashes: Vec<u64>,
    seed: u64,
}

impl Game {
    /// A new game from `start`, with the seed of its engine moves.
    pub fn new(start: Position, seed: u64) -> Game {
        Game { pos: start.clone(), start, moves: Vec::new(), undos: Vec::new(), hashes: Vec::new(), seed }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The hashes of the positions before the current one, oldest first (for [`Searcher::search`]).
    pub fn history(&self) -> &[u64] {
        &self.hashes
    }

    /// Plays a move after checking it is legal.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] when it is not; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let hash = self.pos.hash();
        let undo = self.pos.play(m)?;
        self.hashes.push(hash);
        self.moves.push(m);
        self.undos.push(undo);
        Ok(())
    }

    /// Plays a move the caller took from this position's legal move list (or the engine's best move),
    /// without generating the list again to check it.
    pub(crate) fn play_legal(&mut self, m: Move) {
        debug_assert!(self.pos.is_legal(m), "play_legal of an illegal move");
        let hash = self.pos.hash();
        let undo = self.pos.make(m);
        self.hashes.push(hash);
        self.moves.push(m);
        self.undos.push(undo);
    }

    /// Parses, checks and plays a move text (RULES.md §4).
    ///
    /// # Errors
    /// [`MoveError`] saying why the text is not a legal move here.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.pos.parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        let undo = self.undos.pop().expect("one undo per move");
        self.hashes.pop();
        self.pos.unmake(m, undo);
        Some(m)
    }

    /// How many times the current position occurred (counting now).
    pub fn repetitions(&self) -> usize {
        let h = self.pos.hash();
        1 + self.hashes.iter().rev().take(self.pos.halfmove_clock() as usize).filter(|&&x| x == h).count()
    }

    /// Whether and how the game is over: mate, stalemate, kings alone, threefold repetition, 50-move rule.
    pub fn status(&self) -> Option<GameEnd> {
        match self.pos.outcome() {
            Some(Outcome::Checkmate { winner }) => Some(GameEnd::Checkmate { winner }),
            Some(Outcome::Stalemate) => Some(GameEnd::Stalemate),
            Some(Outcome::DeadDraw) => Some(GameEnd::DeadDraw),
            None => self.claim(),
        }
    }

    /// [`Game::status`] when the caller already knows how many legal moves the current position has (the
    /// playouts generate them anyway): the same rules in the same order, without a second generation.
    pub(crate) fn status_with(&self, legal_moves: usize) -> Option<GameEnd> {
        let end = if self.pos.is_kings_only() {
            Some(GameEnd::DeadDraw)
        } else if legal_moves == 0 {
            Some(if self.pos.is_check() {
                GameEnd::Checkmate { winner: self.pos.turn().other() }
            } else {
                GameEnd::Stalemate
            })
        } else {
            self.claim()
        };
        // Debug builds check every call against the rules' own path.
        debug_assert_eq!(end, self.status(), "status_with({legal_moves}) differs from status()");
        end
    }

    /// The draws a game record claims when the board's rules have not ended the game: the 50-move rule,
    /// then threefold repetition.
    fn claim(&self) -> Option<GameEnd> {
        if self.pos.halfmove_clock() >= 100 {
            return Some(GameEnd::FiftyMoves);
        }
        if self.repetitions() >= 3 {
            return Some(GameEnd::Repetition);
        }
        None
    }

    /// The text of each move played.
    pub fn move_texts(&self) -> Vec<TextMove> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let t = TextMove::from_move(m, &pos);
                pos.make(m);
                t
            })
            .collect()
    }

    /// The engine's move at `tier`: the searcher is resized to the tier's table and cleared, so that the
    /// result depends only on the game (start, moves, seed) and the tier, unless the tier's wall-clock
    /// guard fires.
    pub fn think(&self, searcher: &mut Searcher, tier: Tier, on_iteration: impl FnMut(&Info<'_>)) -> SearchResult {
        self.think_within(searcher, tier, &tier.limits(), on_iteration)
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
        self.think_within(searcher, tier, &tier.budget(), on_iteration)
    }

    fn think_within(
        &self,
        searcher: &mut Searcher,
        tier: Tier,
        limits: &Limits,
        on_iteration: impl FnMut(&Info<'_>),
    ) -> SearchResult {
        let settings = tier.settings();
        if searcher.hash_mb() != settings.hash_mb {
            searcher.resize(settings.hash_mb);
        }
        searcher.clear();
        searcher.search(&self.pos, &self.hashes, limits, &tier.options(self.seed), on_iteration)
    }

    /// The game as plain data.
    pub fn record(&self, white: Player, black: Player) -> GameRecord {
        GameRecord { start: self.start.clone(), seed: self.seed, white, black, moves: self.move_texts() }
    }

    /// The game a record describes (its moves checked for legality, not re-thought).
    ///
    /// # Errors
    /// [`RecordError::IllegalMove`] for the first move that is not legal.
    pub fn from_record(record: &GameRecord) -> Result<Game, RecordError> {
        let mut game = Game::new(record.start.clone(), record.seed);
        for (i, text) in record.moves.iter().enumerate() {
            let illegal = |source| RecordError::IllegalMove { ply: i + 1, text: text.to_string(), source };
            let m = game.pos.resolve(text).map_err(illegal)?;
            game.play(m).map_err(illegal)?;
        }
        Ok(game)
    }
}

impl GameRecord {
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
            let player = if game.pos.turn() == Color::White { self.white } else { self.black };
            if let Player::Engine(tier) = player {
                let result = game.think_unguarded(searcher, tier, |_| {});
                let engine = result.best_move.map(|m| TextMove::from_move(m, &game.pos).to_string());
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
            let m = game.pos.resolve(text).map_err(|source| RecordError::IllegalMove {
                ply: i + 1,
                text: text.to_string(),
                source,
            })?;
            game.play(m).map_err(|source| RecordError::IllegalMove { ply: i + 1, text: text.to_string(), source })?;
        }
        Ok(game)
    }
}
