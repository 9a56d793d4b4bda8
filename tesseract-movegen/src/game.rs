//! A game by the rules alone: a start, the moves played, the positions' hashes; undo and redo; the ends
//! that depend on the history (repetitions, the 50- and 75-move rules) and the claimable draws, as FIDE
//! has them (RULES.md §2: "draw claims as in chess").
//!
//! | End | Kind | When |
//! |---|---|---|
//! | [`Termination::Checkmate`], [`Termination::Stalemate`] | automatic | no legal move |
//! | [`Termination::DeadDraw`] | automatic | [`Legal::is_insufficient_material`] |
//! | [`Termination::Fivefold`] | automatic | the position occurs for the fifth time |
//! | [`Termination::SeventyFiveMoves`] | automatic | 150 plies without a capture or a pawn move |
//! | [`Termination::Threefold`] | claimable ([`Claims::THREEFOLD`]) | the position occurs for the third time |
//! | [`Termination::FiftyMoves`] | claimable ([`Claims::FIFTY_MOVES`]) | 100 plies without a capture or a pawn move |
//!
//! A mate on the move that reaches the 75-move or the fivefold mark is a mate: the board's rules come first.
//! A position "occurs again" as FIDE and python-chess count it: the same pieces on the same cells, the same
//! side to move, the same castling rights, and the same en passant right, which counts only when an en
//! passant capture is legal (a pawn that could take but is pinned gives no right). The comparison is by
//! [`Game::repetition_key`], the Zobrist hash without an en passant cell that cannot be used. Only the
//! positions since the last capture or pawn move can repeat, so only those are compared.
//!
//! Claims are those of the position on the board. FIDE also lets a player claim by writing down a move
//! that would make the claim hold; that is for the caller to try (play the move, see
//! [`Game::claimable`], undo).

use std::fmt;

use tesseract_board::{Color, Move, Position, TextMove, Undo};

use tesseract_board::zobrist::Zobrist;

use crate::fast::legal_moves;
use crate::pgn::{GameResult, PgnGame};
use crate::rules::{Legal, MoveError, Outcome};

bitflags::bitflags! {
    /// A set of draw claims: those a position allows ([`Game::claimable`]), or those a player makes
    /// whenever they can ([`Game::end`]).
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
    pub struct Claims: u8 {
        /// The position occurs for the third time (or more).
        const THREEFOLD = 1;
        /// 100 plies or more without a capture or a pawn move.
        const FIFTY_MOVES = 1 << 1;
    }
}

/// How a game ends by the rules: the one list of the rules' ends, which the engine's games, the playouts'
/// statistics and the wire protocol's End messages all name (python-chess calls it the termination).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum Termination {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A dead position by material ([`Legal::is_insufficient_material`]).
    DeadDraw,
    /// The position occurred for the fifth time: drawn without a claim.
    Fivefold,
    /// 150 plies without a capture or a pawn move: drawn without a claim.
    SeventyFiveMoves,
    /// A draw claimed as the position occurs for the third time.
    Threefold,
    /// A draw claimed after 100 plies without a capture or a pawn move.
    FiftyMoves,
}

impl Termination {
    /// Every end, the board's first, then the automatic draws, then the claims.
    pub const ALL: [Termination; 7] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::DeadDraw,
        Termination::Fivefold,
        Termination::SeventyFiveMoves,
        Termination::Threefold,
        Termination::FiftyMoves,
    ];

    /// Whether a player has to claim this end ([`Termination::Threefold`], [`Termination::FiftyMoves`]).
    pub const fn is_claim(self) -> bool {
        matches!(self, Termination::Threefold | Termination::FiftyMoves)
    }

    /// A name for programs: `checkmate`, `stalemate`, `dead_draw`, `fivefold`, `seventy_five_moves`,
    /// `threefold` or `fifty_moves` (the serde name too).
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadDraw => "dead_draw",
            Termination::Fivefold => "fivefold",
            Termination::SeventyFiveMoves => "seventy_five_moves",
            Termination::Threefold => "threefold",
            Termination::FiftyMoves => "fifty_moves",
        }
    }

    /// The termination of a [`Termination::name`].
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for Termination {
    /// For people: `checkmate`, `threefold repetition`, `the 75-move rule`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadDraw => "insufficient material",
            Termination::Fivefold => "fivefold repetition",
            Termination::SeventyFiveMoves => "75-move rule",
            Termination::Threefold => "threefold repetition",
            Termination::FiftyMoves => "50-move rule",
        })
    }
}

/// How a game ended: the [`Termination`], and the winner for a mate (every other end is a draw).
///
/// With the `serde` feature: `{"termination": "checkmate", "winner": "White"}`,
/// `{"termination": "threefold", "winner": null}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameEnd {
    termination: Termination,
    winner: Option<Color>,
}

impl GameEnd {
    /// A mate by `winner`.
    pub const fn checkmate(winner: Color) -> GameEnd {
        GameEnd { termination: Termination::Checkmate, winner: Some(winner) }
    }

    /// A draw by `termination`; [`Termination::Checkmate`] is no draw: give the winner with
    /// [`GameEnd::checkmate`] (debug builds check).
    pub const fn draw(termination: Termination) -> GameEnd {
        debug_assert!(!matches!(termination, Termination::Checkmate), "a mate has a winner");
        GameEnd { termination, winner: None }
    }

    /// How the game ended.
    pub const fn termination(self) -> Termination {
        self.termination
    }

    /// The winner, if the game is not drawn.
    pub const fn winner(self) -> Option<Color> {
        self.winner
    }

    /// Whether a player had to claim this end.
    pub const fn is_claim(self) -> bool {
        self.termination.is_claim()
    }

    /// The termination's name ([`Termination::name`]).
    pub const fn name(self) -> &'static str {
        self.termination.name()
    }

    /// The result as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn score(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl From<Outcome> for GameEnd {
    fn from(outcome: Outcome) -> GameEnd {
        match outcome {
            Outcome::Checkmate { winner } => GameEnd::checkmate(winner),
            Outcome::Stalemate => GameEnd::draw(Termination::Stalemate),
            Outcome::DeadDraw => GameEnd::draw(Termination::DeadDraw),
        }
    }
}

impl fmt::Display for GameEnd {
    /// For people: `checkmate, white wins`, `threefold repetition, a draw`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(winner) => write!(f, "{}, {winner} wins", self.termination),
            None => write!(f, "{}, a draw", self.termination),
        }
    }
}

/// Why a list of moves does not replay from its start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} ({text}): {source}")]
pub struct ReplayError {
    /// The move's index in the list, from 1.
    pub ply: usize,
    /// Its text.
    pub text: String,
    /// Why it is not legal there.
    pub source: MoveError,
}

/// A game: its start, its moves and their undo data, the hashes of the positions played through, and the
/// moves taken back that [`Game::redo`] replays.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_movegen::{Claims, Game, GameEnd, Termination};
/// let mut game = Game::new(start::chess());
/// for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
///     game.play_text(m)?;
/// }
/// // The start position stands for the third time: a draw either player may claim, not yet an end.
/// assert_eq!(game.repetitions(), 3);
/// assert_eq!(game.claimable(), Claims::THREEFOLD);
/// assert_eq!(game.outcome(), None);
/// assert_eq!(game.end(Claims::all()), Some(GameEnd::draw(Termination::Threefold)));
/// game.undo();
/// assert_eq!(game.claimable(), Claims::empty());
/// game.redo();
/// assert_eq!(game.moves().len(), 8);
/// # Ok::<_, tesseract_movegen::MoveError>(())
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "GameText", into = "GameText")
)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
    hashes: Vec<u64>,
    keys: Vec<u64>,
    redo: Vec<Move>,
}

impl PartialEq for Game {
    /// Two games are equal when they have the same start and the same moves (undo data and the redo list
    /// are not compared).
    fn eq(&self, other: &Game) -> bool {
        self.start == other.start && self.moves == other.moves
    }
}

impl Eq for Game {}

impl Game {
    /// A new game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            undos: Vec::new(),
            hashes: Vec::new(),
            keys: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// The game of moves written as text (RULES.md §4) from `start`, each one checked.
    ///
    /// # Errors
    /// [`ReplayError`] for the first move that is not legal where it stands.
    pub fn replay<'a>(start: Position, moves: impl IntoIterator<Item = &'a TextMove>) -> Result<Game, ReplayError> {
        let mut game = Game::new(start);
        for (i, text) in moves.into_iter().enumerate() {
            let m =
                game.pos.resolve(text).map_err(|source| ReplayError { ply: i + 1, text: text.to_string(), source })?;
            game.play_unchecked(m);
        }
        Ok(game)
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

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The hashes of the positions before the current one, oldest first (what a search needs to see
    /// repetitions).
    pub fn history(&self) -> &[u64] {
        &self.hashes
    }

    /// Plays a move after checking it is legal. A move taken back and played again keeps the rest of the
    /// redo list; any other move clears it.
    ///
    /// # Errors
    /// [`MoveError`] when it is not legal; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let before = (self.pos.hash(), Game::repetition_key(&self.pos));
        let undo = self.pos.play(m)?;
        self.push(m, undo, before);
        Ok(())
    }

    /// Plays a move known to be legal here: one from this position's legal move list (an engine's best
    /// move, a move [`Legal::resolve`] returned), without generating the list again to check it. An
    /// illegal move breaks the game's invariants (debug builds check).
    pub fn play_unchecked(&mut self, m: Move) {
        debug_assert!(self.pos.is_legal(m), "play_unchecked of an illegal move");
        let before = (self.pos.hash(), Game::repetition_key(&self.pos));
        let undo = self.pos.make(m);
        self.push(m, undo, before);
    }

    /// Records a move played, with the hash and the repetition key of the position before it.
    fn push(&mut self, m: Move, undo: Undo, (hash, key): (u64, u64)) {
        self.hashes.push(hash);
        self.keys.push(key);
        self.moves.push(m);
        self.undos.push(undo);
        if self.redo.last() == Some(&m) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
    }

    /// Parses, resolves and plays a move text (RULES.md §4): one parse, one generation.
    ///
    /// # Errors
    /// [`MoveError`] saying why the text is not a legal move here; the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.pos.parse_move(text)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// Takes back the last move, if any; [`Game::redo`] plays it again.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        let undo = self.undos.pop().expect("one undo per move");
        self.hashes.pop();
        self.keys.pop();
        self.pos.unmake(m, undo);
        self.redo.push(m);
        Some(m)
    }

    /// Plays again the last move taken back, if any.
    pub fn redo(&mut self) -> Option<Move> {
        let m = *self.redo.last()?;
        self.play_unchecked(m);
        Some(m)
    }

    /// The moves [`Game::redo`] would play, next one first.
    pub fn redo_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.redo.iter().rev().copied()
    }

    /// How many times the current position has occurred (counting now; only positions since the last
    /// capture or pawn move can be equal).
    pub fn repetitions(&self) -> usize {
        let key = Game::repetition_key(&self.pos);
        1 + self.keys.iter().rev().take(self.pos.halfmove_clock() as usize).filter(|&&k| k == key).count()
    }

    /// The key positions are compared by for repetitions: the Zobrist hash, without its en passant cell
    /// when no en passant capture is legal there (the hash keeps the cell whenever an enemy pawn stands
    /// beside the pawn that double-stepped, pinned or not). Positions that FIDE counts as the same have
    /// equal keys.
    pub fn repetition_key(pos: &Position) -> u64 {
        let Some(ep) = pos.en_passant() else { return pos.hash() };
        let g = pos.geometry();
        // A pawn's capture moves change x (or z, in 3D and 4D); its steps do not.
        let sideways = |m: &Move| {
            g.coord(m.from, 0) != g.coord(m.to, 0) || (g.dims() >= 3 && g.coord(m.from, 2) != g.coord(m.to, 2))
        };
        let takes = legal_moves(pos).iter().any(|m| {
            m.to == ep.target && sideways(m) && pos.piece_at(m.from).is_some_and(|p| p.role.pawn_axis().is_some())
        });
        if takes { pos.hash() } else { pos.hash() ^ Zobrist::of(pos.shape()).en_passant(ep.target) }
    }

    /// The end by the rules that need no claim: mate, stalemate, dead position, fivefold repetition, the
    /// 75-move rule.
    pub fn outcome(&self) -> Option<GameEnd> {
        match self.pos.outcome() {
            Some(outcome) => Some(outcome.into()),
            None => self.automatic_draw(),
        }
    }

    /// The draws the side to move may claim now (threefold repetition, the 50-move rule), as FIDE allows
    /// them in the position on the board; none once the board's rules have ended the game.
    pub fn claimable(&self) -> Claims {
        let mut claims = Claims::empty();
        if self.pos.outcome().is_some() {
            // A game over on the board (mate, stalemate, dead position) leaves nothing to claim.
            return claims;
        }
        if self.pos.halfmove_clock() >= 100 {
            claims |= Claims::FIFTY_MOVES;
        }
        if self.repetitions() >= 3 {
            claims |= Claims::THREEFOLD;
        }
        claims
    }

    /// The end if the game is over, with the draws in `claim` claimed as soon as they are allowed
    /// (`Claims::all()` for engine matches and playouts, `Claims::empty()` for the automatic rules alone):
    /// [`Game::outcome`], then the 50-move claim, then the threefold claim.
    pub fn end(&self, claim: Claims) -> Option<GameEnd> {
        self.outcome().or_else(|| self.claimed(claim))
    }

    /// [`Game::end`] when the caller already knows how many legal moves the current position has (a
    /// playout generates them anyway): the same rules in the same order, without a second generation.
    pub fn end_given_moves(&self, claim: Claims, legal_moves: usize) -> Option<GameEnd> {
        let end = if self.pos.is_insufficient_material() {
            Some(GameEnd::draw(Termination::DeadDraw))
        } else if legal_moves == 0 {
            Some(if self.pos.is_check() {
                GameEnd::checkmate(self.pos.turn().other())
            } else {
                GameEnd::draw(Termination::Stalemate)
            })
        } else {
            self.automatic_draw().or_else(|| self.claimed(claim))
        };
        // Debug builds check every call against the rules' own path.
        debug_assert_eq!(end, self.end(claim), "end_given_moves({legal_moves}) differs from end()");
        end
    }

    fn automatic_draw(&self) -> Option<GameEnd> {
        if self.pos.halfmove_clock() >= 150 {
            Some(GameEnd::draw(Termination::SeventyFiveMoves))
        } else if self.repetitions() >= 5 {
            Some(GameEnd::draw(Termination::Fivefold))
        } else {
            None
        }
    }

    fn claimed(&self, claim: Claims) -> Option<GameEnd> {
        let allowed = self.claimable() & claim;
        if allowed.contains(Claims::FIFTY_MOVES) {
            Some(GameEnd::draw(Termination::FiftyMoves))
        } else if allowed.contains(Claims::THREEFOLD) {
            Some(GameEnd::draw(Termination::Threefold))
        } else {
            None
        }
    }

    /// The game as a PGN record: the start (with `Variant`, `SetUp` and `FEN` tags when it needs them),
    /// the moves, and the result of [`Game::outcome`] (`*` while the game goes on; set
    /// [`PgnGame::result`] after a claimed draw, a resignation or an agreement). Its
    /// [`to_pgn`](PgnGame::to_pgn) is the text.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::start;
    /// use tesseract_movegen::Game;
    /// let mut game = Game::new(start::chess());
    /// for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
    ///     game.play_text(m)?;
    /// }
    /// let text = game.to_pgn().to_pgn()?;
    /// assert!(text.ends_with("\n1. f3 e5 2. g4 Qh4# 0-1\n"));
    /// let back = Game::from_pgn(&text.parse()?)?;
    /// assert_eq!(back, game);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_pgn(&self) -> PgnGame {
        let mut pgn = PgnGame::from_moves(self.start.clone(), self.moves.iter().copied());
        pgn.result = GameResult::from(self.outcome());
        pgn
    }

    /// The game of a PGN record's main line, each move checked again.
    ///
    /// # Errors
    /// [`ReplayError`] for the first move that is not legal where it stands.
    pub fn from_pgn(pgn: &PgnGame) -> Result<Game, ReplayError> {
        let mut game = Game::new(pgn.start.clone());
        for (i, m) in pgn.moves().enumerate() {
            if let Err(source) = game.play(m) {
                let g = game.pos.geometry();
                let text = if g.contains(m.from) && g.contains(m.to) {
                    TextMove::from_move(m, &game.pos).to_string()
                } else {
                    format!("cells #{} to #{}", m.from.index(), m.to.index())
                };
                return Err(ReplayError { ply: i + 1, text, source });
            }
        }
        Ok(game)
    }

    /// The text of each move played (RULES.md §4).
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
}

/// A game as plain data: its start and its moves' texts (the serde form of [`Game`]).
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct GameText {
    start: Position,
    moves: Vec<TextMove>,
}

#[cfg(feature = "serde")]
impl From<Game> for GameText {
    fn from(game: Game) -> GameText {
        GameText { moves: game.move_texts(), start: game.start }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<GameText> for Game {
    type Error = ReplayError;

    fn try_from(text: GameText) -> Result<Game, ReplayError> {
        Game::replay(text.start, &text.moves)
    }
}
