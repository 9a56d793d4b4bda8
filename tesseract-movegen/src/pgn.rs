//! PGN (Portable Game Notation): reading and writing game records, for chess, Chess960 and the boards of
//! one, three and four axes (RULES.md §4).
//!
//! A [`PgnGame`] is plain data: the tags in the order read, the start position, the moves with what
//! annotates them (NAGs, comments, variations as raw text), and the result. It holds no rules state
//! (history, repetition, clocks): a game type that has them builds a `PgnGame` from its start position and
//! moves ([`PgnGame::from_moves`]) to write one, and replays [`PgnGame::moves`] from [`PgnGame::start`] to
//! read one.
//!
//! **Reading** ([`read_games`] over a `&str`, [`PgnReader`] over any `BufRead`) yields one
//! `Result<PgnGame, PgnError>` per game, so a bad game is reported (game number, line, ply, what is wrong)
//! and the games after it are still read. What it accepts:
//! - tag pairs `[Name "value"]` (with `\"` and `\\` escapes), several on a line or one per line;
//! - the start: `[Variant "Chess960"]` (or `chess 960`, `Fischerandom`, `fischer random`) for Chess960,
//!   `[Variant "Tesseract"]` for every other board (1 to 4 axes), with the position in `[FEN "..."]`
//!   (FEN, X-FEN, Shredder-FEN or TFEN; without a FEN tag the classic start, Chess960 position 518, or the
//!   standard Tesseract army); other variants are an error;
//! - movetext: move numbers (`12.`, `12...`, or none), moves in SAN ([`crate::san`], with `!`, `?` …
//!   read as NAGs 1–6), in UCI, or on boards of one, three and four axes as move texts (`22132313`) or the
//!   readable long form (`Y2213-2313`); `{comments}` and `;` comments, kept per move (whitespace in a
//!   comment reads as single spaces); NAGs `$n`; variations `( ... )`, kept as raw text on the move they are
//!   alternatives to, or skipped ([`PgnReader::keep_variations`]); lines starting with `%` are skipped;
//!   the result `1-0`, `0-1`, `1/2-1/2` or `*`.
//!
//! A game ends at its result or where the next game's tags begin, so games need no blank line between
//! them. The result is the `[Result]` tag's, or the movetext's where the tag is missing or `*` (as in
//! python-chess). A byte-order mark is read as white space, so files joined with `cat` read as one. No
//! input makes the reader panic, and none makes it hold more than one game's text, at most
//! [`PgnReader::max_game_bytes`] ([`DEFAULT_MAX_GAME_BYTES`], 16 MiB): a longer game is reported
//! ([`PgnErrorKind::GameTooLong`]) and read past.
//!
//! **Writing** ([`PgnGame::to_pgn`], [`PgnGame::write_with`]) follows the PGN export format: tags one per
//! line, a blank line, the movetext wrapped at 80 columns, move numbers `1.` and `1...` (after a comment
//! or variation and at the start when Black moves first), NAGs as `$n`, comments in braces, the result.
//! On boards of one, three and four axes the movetext is the digit move text by default (RULES.md §4),
//! or the readable long form on request ([`Notation::San`]).
//!
//! # Examples
//!
//! ```
//! use tesseract_movegen::pgn::{read_games, GameResult};
//! let text = r#"[Event "Casual"]
//! [White "Alice"]
//! [Black "Bob"]
//! [Result "1-0"]
//!
//! 1. e4 e5 2. Bc4 {the Italian bishop} Nc6 3. Qh5 Nf6?? 4. Qxf7# 1-0
//! "#;
//! let game = read_games(text).next().unwrap()?;
//! assert_eq!(game.tag("White"), Some("Alice"));
//! assert_eq!(game.moves.len(), 7);
//! assert_eq!(game.moves[2].comments, ["the Italian bishop"]);
//! assert_eq!(game.moves[5].nags, [4]);
//! assert_eq!(game.result, GameResult::WhiteWins);
//! assert_eq!(game.end_position()?.fen(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4");
//! let written = game.to_pgn()?;
//! assert!(written.ends_with("1. e4 e5 2. Bc4 { the Italian bishop } 2... Nc6 3. Qh5 Nf6 $4 4. Qxf7# 1-0\n"));
//! assert_eq!(read_games(&written).next().unwrap()?, game);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! A 4D game: `[Variant "Tesseract"]`, the TFEN in `[FEN]`, eight-digit moves.
//! ```
//! use tesseract_board::start;
//! use tesseract_movegen::Legal;
//! use tesseract_movegen::pgn::{PgnGame, read_games};
//! let pos = start::tesseract(start::Army::Standard);
//! let m = pos.parse_move("22132313")?;
//! let game = PgnGame::from_moves(pos, [m]);
//! let text = game.to_pgn()?;
//! assert!(text.contains("[Variant \"Tesseract\"]\n[SetUp \"1\"]\n[FEN \"rnknr/5/"));
//! assert!(text.ends_with("\n1. 22132313 *\n"));
//! assert_eq!(read_games(&text).next().unwrap()?, game);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;
use std::fmt;
use std::io::BufRead;

use tesseract_board::fen::FromFenError;
use tesseract_board::{CastlingMode, Color, Move, Position, TextMove, start};

use crate::Outcome;
use crate::rules::{Legal, MoveError};
use crate::san::{SanError, SanPlus};

/// The result of a game, as its `[Result]` tag and the end of its movetext write it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    #[default]
    Unknown,
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result a termination text names, if it is one of the four.
    pub fn parse(text: &str) -> Option<GameResult> {
        Some(match text {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// The result of a game that ended with `outcome`.
    pub const fn from_outcome(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Checkmate { winner: Color::White } => GameResult::WhiteWins,
            Outcome::Checkmate { winner: Color::Black } => GameResult::BlackWins,
            Outcome::Stalemate | Outcome::DeadDraw => GameResult::Draw,
        }
    }
}

impl From<Option<crate::GameEnd>> for GameResult {
    /// The result of a game over ([`crate::GameEnd::score`]), `*` for a game that goes on.
    fn from(end: Option<crate::GameEnd>) -> GameResult {
        match end.map(|e| e.winner()) {
            None => GameResult::Unknown,
            Some(Some(Color::White)) => GameResult::WhiteWins,
            Some(Some(Color::Black)) => GameResult::BlackWins,
            Some(None) => GameResult::Draw,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A move of a game record and what annotates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move, legal in the position the moves before it lead to.
    pub mv: Move,
    /// Numeric annotation glyphs (`$1` or `!` is 1, `$2` or `?` is 2, …), in the order read.
    pub nags: Vec<u8>,
    /// Comments after the move, each without its braces, whitespace runs read as single spaces. (A comment
    /// is written in braces, so a `}` in it is dropped when writing; a `;` comment's `}` reads as a space.)
    pub comments: Vec<String>,
    /// Variations that are alternatives to this move, each the raw text between its parentheses
    /// (tokens separated by single spaces; `;` comments inside turned into braces). Not checked.
    pub variations: Vec<String>,
}

impl PgnMove {
    /// A move without annotations.
    pub fn new(mv: Move) -> PgnMove {
        PgnMove { mv, nags: Vec::new(), comments: Vec::new(), variations: Vec::new() }
    }
}

/// A game record: tags, start position, moves, comments, result. Plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Every tag pair, in the order read (or set). Writing keeps them and their order, but makes
    /// `Result`, `Variant`, `SetUp` and `FEN` agree with [`PgnGame::result`] and [`PgnGame::start`]
    /// (changing a value that disagrees, adding a tag that is missing); a line break in a value is
    /// written as a space.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves of the main line.
    pub moves: Vec<PgnMove>,
    /// The result.
    pub result: GameResult,
}

/// How moves are written in the movetext.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// SAN on 2D boards, the move text of RULES.md §4 (`22132313`) on boards of one, three and four axes.
    #[default]
    Auto,
    /// SAN on 2D boards, the readable long form (`Y2213-2313`) on boards of one, three and four axes.
    San,
    /// Move texts everywhere: UCI on 2D boards (`e2e4`, castling `e1g1` in classic games and `e1h1` in
    /// Chess960), digits on boards of one, three and four axes.
    Text,
}

/// Options of [`PgnGame::write_with`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// The longest movetext line, in characters (a single longer word gets a line of its own).
    pub columns: usize,
    /// How moves are written.
    pub notation: Notation,
    /// Whether comments and NAGs are written.
    pub comments: bool,
    /// Whether variations are written.
    pub variations: bool,
}

impl Default for WriteOptions {
    /// 80 columns, [`Notation::Auto`], comments and variations written.
    fn default() -> WriteOptions {
        WriteOptions { columns: 80, notation: Notation::Auto, comments: true, variations: true }
    }
}

/// Why a game record cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnWriteError {
    /// A move is not legal where it is played.
    #[error("ply {ply}: {error}")]
    IllegalMove {
        /// The move's ply, 1 for the first move.
        ply: usize,
        /// Why.
        error: SanError,
    },
    /// A tag name that PGN cannot hold (it starts with a letter or digit and holds letters, digits and
    /// `_+#=:-` only).
    #[error("tag name {0:?}: a tag name starts with a letter or digit and holds only letters, digits and _+#=:-")]
    TagName(String),
}

/// The families of start positions a PGN game can name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Variant {
    Classic,
    Chess960,
    Tesseract,
}

impl Variant {
    /// The variant a `[Variant]` tag names (python-chess's names for classic chess and Chess960).
    fn from_tag(value: Option<&str>) -> Result<Variant, String> {
        let Some(value) = value else { return Ok(Variant::Classic) };
        match value.trim().to_ascii_lowercase().as_str() {
            "" | "standard" | "chess" | "classical" | "normal" | "from position" => Ok(Variant::Classic),
            "chess960" | "chess 960" | "fischerandom" | "fischerrandom" | "fischer random" => Ok(Variant::Chess960),
            "tesseract" => Ok(Variant::Tesseract),
            _ => Err(value.to_string()),
        }
    }

    fn of(pos: &Position) -> Variant {
        let shape = pos.shape();
        if shape.dims() != 2 || shape.side() != 8 {
            Variant::Tesseract
        } else if pos.castling_mode() == CastlingMode::Chess960 {
            Variant::Chess960
        } else {
            Variant::Classic
        }
    }

    /// The start of a game without a `[FEN]` tag, built once (a FEN parsed and checked) and then copied.
    fn start(self) -> Position {
        static STARTS: std::sync::OnceLock<[Position; 3]> = std::sync::OnceLock::new();
        let starts = STARTS.get_or_init(|| {
            [
                start::chess(),
                start::chess960(518).expect("518 is a Chess960 number"),
                start::tesseract(start::Army::Standard),
            ]
        });
        starts[match self {
            Variant::Classic => 0,
            Variant::Chess960 => 1,
            Variant::Tesseract => 2,
        }]
        .clone()
    }

    fn position(self, fen: &str) -> Result<Position, FromFenError> {
        match self {
            Variant::Chess960 => Position::from_fen_with_mode(fen, CastlingMode::Chess960),
            _ => Position::from_fen(fen),
        }
    }
}

/// The seven tags every exported game starts with, in order.
pub const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Whether PGN can hold a tag of this name: a letter or digit, then letters, digits and `_+#=:-`.
///
/// ```
/// use tesseract_movegen::pgn::valid_tag_name;
/// assert!(valid_tag_name("WhiteElo"));
/// assert!(!valid_tag_name("") && !valid_tag_name("_x") && !valid_tag_name("White Elo"));
/// ```
pub fn valid_tag_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || b"_+#=:-".contains(&c))
}

impl PgnGame {
    /// An empty record from `start`: the seven tags with unknown values (`?`, `????.??.??`, `*`), and
    /// `Variant`, `SetUp` and `FEN` when the start needs them.
    pub fn new(start: Position) -> PgnGame {
        let tags = vec![
            ("Event".into(), "?".into()),
            ("Site".into(), "?".into()),
            ("Date".into(), "????.??.??".into()),
            ("Round".into(), "?".into()),
            ("White".into(), "?".into()),
            ("Black".into(), "?".into()),
            ("Result".into(), "*".into()),
        ];
        let mut game = PgnGame { tags, start, comments: Vec::new(), moves: Vec::new(), result: GameResult::Unknown };
        game.tags = game.export_tags();
        game
    }

    /// A record of `moves` played from `start` (not checked here: [`PgnGame::end_position`] and writing
    /// check them).
    pub fn from_moves(start: Position, moves: impl IntoIterator<Item = Move>) -> PgnGame {
        let mut game = PgnGame::new(start);
        game.moves = moves.into_iter().map(PgnMove::new).collect();
        game
    }

    /// Appends a move without annotations.
    pub fn push(&mut self, m: Move) {
        self.moves.push(PgnMove::new(m));
    }

    /// The moves of the main line.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().map(|m| m.mv)
    }

    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets the value of the tag named `name`, in its place, or appends the tag.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        set_tag(&mut self.tags, name, value);
    }

    /// The position after the moves, each checked to be legal.
    ///
    /// # Errors
    /// [`PgnWriteError::IllegalMove`] naming the first move that is not legal.
    pub fn end_position(&self) -> Result<Position, PgnWriteError> {
        let mut pos = self.start.clone();
        for (i, pm) in self.moves.iter().enumerate() {
            if let Err(e) = pos.play(pm.mv) {
                let text = match e {
                    MoveError::Illegal { text, .. } => text,
                    other => other.to_string(),
                };
                return Err(PgnWriteError::IllegalMove {
                    ply: i + 1,
                    error: SanError::Illegal { san: text, reason: "not in the legal move list".into() },
                });
            }
        }
        Ok(pos)
    }

    /// The tags as they are written: [`PgnGame::tags`] with `Result`, `Variant`, `SetUp` and `FEN` made to
    /// agree with the result and the start position.
    pub fn export_tags(&self) -> Vec<(String, String)> {
        let mut tags = self.tags.clone();
        if self.tag("Result") != Some(self.result.as_str()) {
            if tags.iter().any(|(n, _)| n == "Result") {
                set_tag(&mut tags, "Result", self.result.as_str());
            } else {
                // After the roster tags before it, as the export format orders them.
                let at = tags.iter().take_while(|(n, _)| SEVEN_TAG_ROSTER[..6].contains(&n.as_str())).count();
                tags.insert(at, ("Result".into(), self.result.as_str().into()));
            }
        }
        let variant = Variant::of(&self.start);
        let read = Variant::from_tag(self.tag("Variant"));
        match variant {
            Variant::Classic => {
                if read.is_err() || read == Ok(Variant::Chess960) || read == Ok(Variant::Tesseract) {
                    tags.retain(|(n, _)| n != "Variant");
                }
            }
            Variant::Chess960 => {
                if read != Ok(Variant::Chess960) {
                    set_tag(&mut tags, "Variant", "Chess960");
                }
            }
            Variant::Tesseract => {
                if read != Ok(Variant::Tesseract) {
                    set_tag(&mut tags, "Variant", "Tesseract");
                }
            }
        }
        let fen = self.tag("FEN");
        let fen_agrees = fen.is_some_and(|f| variant.position(f).is_ok_and(|p| p == self.start));
        let needs_fen = variant == Variant::Tesseract || self.start != variant.start();
        if !fen_agrees && (fen.is_some() || needs_fen) {
            set_tag(&mut tags, "FEN", &self.start.fen());
        }
        // A FEN tag goes with `[SetUp "1"]`, just before it when missing.
        if let Some(at) = tags.iter().position(|(n, _)| n == "FEN") {
            match tags.iter_mut().find(|(n, _)| n == "SetUp") {
                Some((_, v)) => *v = "1".into(),
                None => tags.insert(at, ("SetUp".into(), "1".into())),
            }
        }
        tags
    }

    /// The game in PGN export format, 80 columns, moves in [`Notation::Auto`].
    ///
    /// # Errors
    /// [`PgnWriteError`] for a move that is not legal where it is played, or a tag name PGN cannot hold.
    pub fn to_pgn(&self) -> Result<String, PgnWriteError> {
        self.write_with(&WriteOptions::default())
    }

    /// The game in PGN export format with `options`: the tags, a blank line, the movetext and the result,
    /// each line ending in `\n`.
    ///
    /// # Errors
    /// [`PgnWriteError`] for a move that is not legal where it is played, or a tag name PGN cannot hold.
    pub fn write_with(&self, options: &WriteOptions) -> Result<String, PgnWriteError> {
        let mut out = String::new();
        for (name, value) in self.export_tags() {
            if !valid_tag_name(&name) {
                return Err(PgnWriteError::TagName(name));
            }
            out.push('[');
            out.push_str(&name);
            out.push_str(" \"");
            for c in value.chars() {
                match c {
                    '"' | '\\' => {
                        out.push('\\');
                        out.push(c);
                    }
                    '\n' | '\r' | '\t' => out.push(' '),
                    c => out.push(c),
                }
            }
            out.push_str("\"]\n");
        }
        out.push('\n');
        let mut words = Words::new(options.columns);
        let mut force_number = true;
        if options.comments {
            for c in &self.comments {
                words.comment(c);
                force_number = true;
            }
        }
        let mut pos = self.start.clone();
        let long = pos.shape().dims() != 2;
        for (i, pm) in self.moves.iter().enumerate() {
            let n = pos.fullmove_number();
            if pos.turn() == Color::White {
                words.push(&format!("{n}."));
            } else if force_number {
                words.push(&format!("{n}..."));
            }
            let text = match (options.notation, long) {
                (Notation::Text, _) | (Notation::Auto, true) => {
                    if !pos.is_legal(pm.mv) {
                        let text = if pos.geometry().contains(pm.mv.from) && pos.geometry().contains(pm.mv.to) {
                            TextMove::from_move(pm.mv, &pos).to_string()
                        } else {
                            format!("{:?}", pm.mv)
                        };
                        let error = SanError::Illegal { san: text, reason: "not in the legal move list".into() };
                        return Err(PgnWriteError::IllegalMove { ply: i + 1, error });
                    }
                    let text = TextMove::from_move(pm.mv, &pos).to_string();
                    let _ = pos.make(pm.mv);
                    text
                }
                _ => SanPlus::from_move_and_play(&mut pos, pm.mv)
                    .map_err(|error| PgnWriteError::IllegalMove { ply: i + 1, error })?
                    .to_string(),
            };
            words.push(&text);
            force_number = false;
            if options.comments {
                for nag in &pm.nags {
                    words.push(&format!("${nag}"));
                }
                for c in &pm.comments {
                    words.comment(c);
                    force_number = true;
                }
            }
            if options.variations {
                for v in &pm.variations {
                    words.push("(");
                    for w in v.split_whitespace() {
                        words.push(w);
                    }
                    words.push(")");
                    force_number = true;
                }
            }
        }
        words.push(self.result.as_str());
        out.push_str(&words.finish());
        Ok(out)
    }
}

/// Sets the first tag named `name`, or appends it.
fn set_tag(tags: &mut Vec<(String, String)>, name: &str, value: &str) {
    match tags.iter_mut().find(|(n, _)| n == name) {
        Some((_, v)) => *v = value.to_string(),
        None => tags.push((name.to_string(), value.to_string())),
    }
}

/// Movetext words wrapped into lines of at most `columns` characters.
struct Words {
    columns: usize,
    out: String,
    line: usize,
}

impl Words {
    fn new(columns: usize) -> Words {
        Words { columns, out: String::new(), line: 0 }
    }

    fn push(&mut self, word: &str) {
        let len = word.chars().count();
        if self.line > 0 && self.line + 1 + len > self.columns {
            self.out.push('\n');
            self.line = 0;
        }
        if self.line > 0 {
            self.out.push(' ');
            self.line += 1;
        }
        self.out.push_str(word);
        self.line += len;
    }

    /// A comment in braces, its words wrapped like the others (a `}` inside is dropped: PGN cannot hold it).
    fn comment(&mut self, text: &str) {
        self.push("{");
        for w in text.split_whitespace() {
            let w = w.replace('}', "");
            if !w.is_empty() {
                self.push(&w);
            }
        }
        self.push("}");
    }

    fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }
}

/// Writes several games, separated by blank lines, in PGN export format.
///
/// # Errors
/// The first game's [`PgnWriteError`].
pub fn write_games<'a>(games: impl IntoIterator<Item = &'a PgnGame>) -> Result<String, PgnWriteError> {
    let mut out = String::new();
    for (i, game) in games.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&game.to_pgn()?);
    }
    Ok(out)
}

/// Why a game of a PGN text cannot be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}{}: {kind}", ply.map(|p| format!(", ply {p}")).unwrap_or_default())]
pub struct PgnError {
    /// The game's number in the text, 1 for the first.
    pub game: usize,
    /// The line where the problem is, 1 for the first line of the text.
    pub line: usize,
    /// The ply being read (1 for the first move), in the movetext.
    pub ply: Option<usize>,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// What is wrong with a game of a PGN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A malformed tag pair.
    #[error("malformed tag: {0}")]
    Tag(&'static str),
    /// A `[Variant]` this library does not play.
    #[error("unsupported variant {0:?} (expected standard, Chess960 or Tesseract)")]
    Variant(String),
    /// The `[FEN]` tag is not a valid position.
    #[error("FEN tag {fen:?}: {error}")]
    Fen {
        /// The tag's value.
        fen: String,
        /// Why.
        error: FromFenError,
    },
    /// A move in algebraic notation that is not legal, ambiguous or malformed.
    #[error(transparent)]
    Move(SanError),
    /// A move text (`22132313`) that is not legal.
    #[error(transparent)]
    MoveText(MoveError),
    /// A null move (`--`, `Z0`, `0000`): no move of the rules.
    #[error("null move {0:?}: a game record holds only moves of the rules")]
    NullMove(String),
    /// A `{` comment without its `}`.
    #[error("comment not closed: no }} before the end of the game")]
    UnterminatedComment,
    /// A `"` string without its closing quote on the same line.
    #[error("string not closed: no \" before the end of the line")]
    UnterminatedString,
    /// A `(` without its `)`.
    #[error("variation not closed: no ) before the end of the game")]
    UnclosedVariation,
    /// A `)` without a `(`.
    #[error(") without (")]
    UnmatchedParenthesis,
    /// A variation before any move it could be an alternative to.
    #[error("a variation before the first move")]
    VariationBeforeMove,
    /// A NAG that is not `$0` to `$255`.
    #[error("NAG {0:?}: expected $0 to $255")]
    Nag(String),
    /// A character that has no place in PGN here.
    #[error("unexpected {0:?}")]
    Unexpected(char),
    /// Reading the input failed.
    #[error("reading failed: {0}")]
    Io(String),
    /// The text holds no game (from [`PgnGame`]'s `FromStr`).
    #[error("no game in the text")]
    NoGame,
    /// A game's text is longer than the reader's cap ([`PgnReader::max_game_bytes`]); the reader read
    /// past it, without keeping it, to the next game.
    #[error(
        "the game's text is longer than {max_bytes} bytes, the most this reader holds \
         (PgnReader::max_game_bytes): read past it to the next game"
    )]
    GameTooLong {
        /// The cap, in bytes.
        max_bytes: usize,
    },
}

/// A token of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok<'a> {
    LBracket,
    RBracket,
    Str(String),
    Symbol(&'a str),
    Period,
    Star,
    Comment(String),
    Nag(u8),
    Open,
    Close,
}

/// A token and its line, or a lexing error and its line.
/// (The error boxed: a token is moved at every step, and most of the kinds are large.)
type Lexed<'a> = Result<(Tok<'a>, usize), Box<(PgnErrorKind, usize)>>;

/// Splits one game's text (or several untagged ones) into tokens with their line numbers.
struct Lexer<'a> {
    text: &'a str,
    i: usize,
    line: usize,
    /// Whether comments are kept (their text normalized); otherwise a comment token is empty.
    comments: bool,
}

/// The words of `text` separated by single spaces.
fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

fn is_symbol_start(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn is_symbol_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_+#=:-/".contains(&b)
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, first_line: usize, comments: bool) -> Lexer<'a> {
        Lexer { text, i: 0, line: first_line, comments }
    }

    /// The next token and its line, a lexing error and its line, or `None` at the end.
    fn next_token(&mut self) -> Option<Lexed<'a>> {
        let b = self.text.as_bytes();
        loop {
            let c = *b.get(self.i)?;
            let at_line_start = self.i == 0 || b[self.i - 1] == b'\n';
            if c == b'\n' {
                self.line += 1;
                self.i += 1;
            } else if c.is_ascii_whitespace() {
                self.i += 1;
            } else if b[self.i..].starts_with(BOM) {
                self.i += BOM.len();
            } else if c == b'%' && at_line_start {
                while self.i < b.len() && b[self.i] != b'\n' {
                    self.i += 1;
                }
            } else {
                break;
            }
        }
        let line = self.line;
        let start = self.i;
        let c = b[start];
        self.i += 1;
        let tok = match c {
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b'(' => Tok::Open,
            b')' => Tok::Close,
            b'.' => Tok::Period,
            b'*' => Tok::Star,
            b'{' => {
                let Some(len) = b[self.i..].iter().position(|&x| x == b'}') else {
                    self.line += b[self.i..].iter().filter(|&&x| x == b'\n').count();
                    self.i = b.len();
                    return Some(Err(Box::new((PgnErrorKind::UnterminatedComment, line))));
                };
                let body = &self.text[self.i..self.i + len];
                self.line += body.bytes().filter(|&x| x == b'\n').count();
                self.i += len + 1;
                Tok::Comment(if self.comments { normalize(body) } else { String::new() })
            }
            b';' => {
                let len = b[self.i..].iter().position(|&x| x == b'\n').unwrap_or(b.len() - self.i);
                let body = &self.text[self.i..self.i + len];
                self.i += len;
                // Written back in braces, which cannot hold a `}`.
                Tok::Comment(if self.comments { normalize(&body.replace('}', " ")) } else { String::new() })
            }
            b'"' => {
                let mut value = String::new();
                loop {
                    match b.get(self.i) {
                        None | Some(b'\n') => return Some(Err(Box::new((PgnErrorKind::UnterminatedString, line)))),
                        Some(b'"') => {
                            self.i += 1;
                            break;
                        }
                        Some(b'\\') if matches!(b.get(self.i + 1), Some(b'"' | b'\\')) => {
                            value.push(b[self.i + 1] as char);
                            self.i += 2;
                        }
                        Some(_) => {
                            // Up to the next quote, backslash or line end (all ASCII: char boundaries).
                            let len = b[self.i..]
                                .iter()
                                .position(|&x| matches!(x, b'"' | b'\\' | b'\n'))
                                .unwrap_or(b.len() - self.i)
                                .max(1);
                            let end = self.i + len;
                            match self.text.get(self.i..end) {
                                // A tab or carriage return reads as a space, as the writer writes it.
                                Some(s) => {
                                    value.extend(s.chars().map(|c| if matches!(c, '\t' | '\r') { ' ' } else { c }))
                                }
                                None => value.push('\\'), // a lone backslash before a multi-byte char
                            }
                            self.i = end;
                        }
                    }
                }
                Tok::Str(value)
            }
            b'$' => {
                let len = b[self.i..].iter().take_while(|x| x.is_ascii_digit()).count();
                let digits = &self.text[self.i..self.i + len];
                self.i += len;
                match digits.parse::<u8>() {
                    Ok(n) => Tok::Nag(n),
                    Err(_) => return Some(Err(Box::new((PgnErrorKind::Nag(format!("${digits}")), line)))),
                }
            }
            b'!' | b'?' => {
                let second = b.get(self.i).copied().filter(|x| matches!(x, b'!' | b'?'));
                if second.is_some() {
                    self.i += 1;
                }
                Tok::Nag(match (c, second) {
                    (b'!', None) => 1,
                    (b'?', None) => 2,
                    (b'!', Some(b'!')) => 3,
                    (b'?', Some(b'?')) => 4,
                    (b'!', Some(_)) => 5,
                    _ => 6,
                })
            }
            b'-' if b.get(self.i) == Some(&b'-') => {
                self.i += 1;
                Tok::Symbol("--")
            }
            c if is_symbol_start(c) => {
                while self.i < b.len() && is_symbol_char(b[self.i]) {
                    self.i += 1;
                }
                Tok::Symbol(&self.text[start..self.i])
            }
            _ => {
                let found = self.text[start..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
                self.i = start + found.len_utf8();
                return Some(Err(Box::new((PgnErrorKind::Unexpected(found), line))));
            }
        };
        Some(Ok((tok, line)))
    }
}

/// The most bytes of one game's text a [`PgnReader`] holds, unless [`PgnReader::max_game_bytes`] says
/// otherwise: 16 MiB, as much as the whole files the workspace's `play` example reads, far more than any
/// annotated game needs.
pub const DEFAULT_MAX_GAME_BYTES: usize = 16 << 20;

/// The largest buffer a [`PgnReader`] keeps for the next game's text when a game is done (64 KiB).
const SPARE_BYTES: usize = 64 << 10;

/// The byte-order mark of UTF-8, read as white space before any game and between tokens.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// Where the text of one game ends, found by [`GameCutter::scan`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cut {
    /// At the start of the line being scanned: it is a tag line after movetext, the next game's first
    /// line. The scan stopped just past its `[`; the game before ends at the line's start.
    BeforeLine,
    /// After the line just ended, its `\n` included: its last token is a result outside comments and
    /// variations.
    AfterLine,
}

/// What one [`GameCutter::scan`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scan {
    /// How many bytes were read: all of them when there is no cut, else up to and including the cut's
    /// byte (the `\n` of an [`Cut::AfterLine`] line, the `[` of a [`Cut::BeforeLine`] one).
    pub read: usize,
    /// The first cut, if any.
    pub cut: Option<Cut>,
    /// The offset just past the last line end read (where the line being scanned starts), if any.
    pub line_start: Option<usize>,
}

/// Finds where one game's text ends in a stream of PGN bytes, fed in pieces of any size, without keeping
/// them: a game ends after a line whose last token is a result (`1-0`, `0-1`, `1/2-1/2`, `*` outside
/// comments and variations), or where a tag line follows movetext. (A line that goes on after a result may
/// start the next game, whose end the parser alone can tell after an error: such a line does not end the
/// text.) It follows the lexer in what it skips (comments in braces or after `;`, lines starting with `%`,
/// the rest of a tag line, strings) so that a brace or a result inside a comment ends nothing, and takes a
/// byte-order mark at the start of a line as white space. After a cut it starts on the next game (no
/// movetext read, no variation open).
///
/// [`PgnReader`] cuts its source with one; each game's text can then be read with [`read_games`].
///
/// # Examples
/// ```
/// use tesseract_movegen::pgn::{Cut, GameCutter};
/// let text = b"[Event \"one\"]\n1. e4 e5 1-0\n[Event \"two\"]\n1. d4 { 0-1 } d5\n[Event \"three\"]\n";
/// let mut cutter = GameCutter::new();
/// let first = cutter.scan(text);
/// assert_eq!(first.cut, Some(Cut::AfterLine));
/// assert_eq!(&text[..first.read], b"[Event \"one\"]\n1. e4 e5 1-0\n");
/// assert_eq!(cutter.line(), 3);
/// // The second game has no result: it ends where the next tag line starts.
/// let rest = &text[first.read..];
/// let second = cutter.scan(rest);
/// assert_eq!(second.cut, Some(Cut::BeforeLine));
/// let start = second.line_start.unwrap();
/// assert_eq!(&rest[..start], b"[Event \"two\"]\n1. d4 { 0-1 } d5\n");
/// assert_eq!(&rest[start..second.read], b"[");
/// // The rest of the stream: no cut.
/// let last = cutter.scan(&rest[second.read..]);
/// assert_eq!((last.read, last.cut), (rest.len() - second.read, None));
/// ```
#[derive(Clone, Debug)]
pub struct GameCutter {
    /// The line being scanned, 1 for the first.
    line: usize,
    /// At the first byte of a line.
    column0: bool,
    /// Only white space (or a byte-order mark) so far on this line, outside any comment.
    leading: bool,
    /// How many bytes of a byte-order mark the line's leading bytes matched (0 after a whole one).
    bom: usize,
    /// The rest of the line is skipped: a tag line, a `%` line, a `;` comment.
    skip_line: bool,
    in_comment: bool,
    /// In a `"` string in movetext (the lexer reads one to its closing quote or the line's end).
    in_string: bool,
    /// After a backslash in a string.
    escape: bool,
    /// Variations open.
    depth: usize,
    /// The game has movetext (tokens other than tags and comments).
    seen_movetext: bool,
    /// A result was read: the game ends at the end of a line outside a comment.
    ended: bool,
    /// The symbol being read, when it is short enough to be a result.
    word: [u8; 7],
    word_len: usize,
    in_word: bool,
}

impl Default for GameCutter {
    fn default() -> GameCutter {
        GameCutter::new()
    }
}

impl GameCutter {
    /// A cutter at the start of a stream (line 1).
    pub fn new() -> GameCutter {
        GameCutter {
            line: 1,
            column0: true,
            leading: true,
            bom: 0,
            skip_line: false,
            in_comment: false,
            in_string: false,
            escape: false,
            depth: 0,
            seen_movetext: false,
            ended: false,
            word: [0; 7],
            word_len: 0,
            in_word: false,
        }
    }

    /// The line being scanned, 1 for the first (after an [`Cut::AfterLine`] cut, the next game's first).
    pub fn line(&self) -> usize {
        self.line
    }

    /// Whether the current game's movetext has begun, outside a comment: a tag line now would start the
    /// next game.
    pub fn in_movetext(&self) -> bool {
        self.seen_movetext && !self.in_comment
    }

    /// Forgets the game just cut off: the next one starts with no movetext and no variation open.
    fn next_game(&mut self) {
        self.seen_movetext = false;
        self.depth = 0;
        self.ended = false;
    }

    /// Ends the symbol being read, if any: whether the line ends a game now depends on it alone.
    fn end_word(&mut self) {
        if self.in_word {
            self.ended = self.depth == 0 && matches!(&self.word[..self.word_len], b"1-0" | b"0-1" | b"1/2-1/2");
        }
        self.in_word = false;
        self.word_len = 0;
    }

    /// Scans `bytes`, the stream's next bytes after those scanned before, up to the first cut (see
    /// [`Scan`]); the bytes after it are for the next call.
    pub fn scan(&mut self, bytes: &[u8]) -> Scan {
        let mut line_start = None;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            i += 1;
            if b == b'\n' {
                self.end_word();
                self.line += 1;
                line_start = Some(i);
                if self.bom != 0 {
                    // The first bytes of a mark alone on their line: not white space.
                    self.seen_movetext = true;
                    self.ended = false;
                }
                self.column0 = true;
                self.leading = !self.in_comment;
                self.bom = 0;
                self.skip_line = false;
                self.in_string = false;
                // A string ends at a line end, a backslash before it escaping nothing.
                self.escape = false;
                if self.ended && !self.in_comment {
                    self.next_game();
                    return Scan { read: i, cut: Some(Cut::AfterLine), line_start };
                }
                continue;
            }
            let column0 = std::mem::replace(&mut self.column0, false);
            if self.in_comment {
                // Straight to the comment's end or the line's, whichever comes first.
                if b != b'}' {
                    match bytes[i..].iter().position(|&c| c == b'}' || c == b'\n') {
                        Some(k) if bytes[i + k] == b'}' => i += k + 1,
                        Some(k) => {
                            i += k;
                            continue;
                        }
                        None => i = bytes.len(),
                    }
                }
                self.in_comment = i == bytes.len() && bytes[i - 1] != b'}';
                continue;
            }
            if self.skip_line {
                // Straight to the line's end.
                i += bytes[i..].iter().position(|&c| c == b'\n').unwrap_or(bytes.len() - i);
                continue;
            }
            if self.in_string {
                // As the lexer reads it: `\"` and `\\` are escapes, a lone backslash is itself.
                let escaped = std::mem::take(&mut self.escape);
                if !escaped && b == b'"' {
                    self.in_string = false;
                } else {
                    self.escape = !escaped && b == b'\\';
                }
                continue;
            }
            if self.leading {
                if b == BOM[self.bom] {
                    self.bom = (self.bom + 1) % BOM.len();
                    continue;
                }
                if self.bom == 0 && b.is_ascii_whitespace() {
                    continue;
                }
                self.leading = false;
                if self.bom != 0 {
                    // The first bytes of a mark that is not one: not white space, so the line is movetext.
                    self.seen_movetext = true;
                } else if b == b'[' {
                    // A tag line: the rest of it is the tag's, not movetext.
                    self.skip_line = true;
                    if self.seen_movetext {
                        self.next_game();
                        return Scan { read: i, cut: Some(Cut::BeforeLine), line_start };
                    }
                    continue;
                } else if b == b'%' && column0 {
                    self.skip_line = true;
                    continue;
                }
            }
            if b.is_ascii_whitespace() {
                self.end_word();
                continue;
            }
            match b {
                b'{' => {
                    self.end_word();
                    self.ended = false;
                    self.in_comment = true;
                }
                b';' => {
                    self.end_word();
                    self.ended = false;
                    self.skip_line = true;
                }
                _ => {
                    self.seen_movetext = true;
                    if is_symbol_char(b) && (self.in_word || is_symbol_start(b)) {
                        if !self.in_word {
                            self.in_word = true;
                            self.word_len = 0;
                        }
                        // The rest of the symbol in this piece at once (a symbol may go on in the next one).
                        let run = 1 + bytes[i..].iter().take_while(|&&c| is_symbol_char(c)).count();
                        let symbol = &bytes[i - 1..i - 1 + run];
                        i += run - 1;
                        match self.word.get_mut(self.word_len..self.word_len + run) {
                            Some(w) => {
                                w.copy_from_slice(symbol);
                                self.word_len += run;
                            }
                            // A symbol longer than the word is no result: marked so with a byte no result has.
                            None => {
                                self.word[0] = b'_';
                                self.word_len = 1;
                            }
                        }
                    } else {
                        self.end_word();
                        self.ended = b == b'*' && self.depth == 0;
                        match b {
                            b'"' => self.in_string = true,
                            b'(' => self.depth += 1,
                            b')' => self.depth = self.depth.saturating_sub(1),
                            _ => {}
                        }
                    }
                }
            }
        }
        Scan { read: bytes.len(), cut: None, line_start }
    }
}

/// Appends `bytes` to `buf`, growing it to at most `max` bytes of capacity (or what it needs, if more):
/// the reader's buffer never takes twice the cap, as doubling would.
fn extend_capped(buf: &mut Vec<u8>, bytes: &[u8], max: usize) {
    let need = buf.len() + bytes.len();
    if need > buf.capacity() {
        let target = need.max(buf.capacity().saturating_mul(2)).min(max.max(need));
        buf.reserve_exact(target - buf.len());
    }
    buf.extend_from_slice(bytes);
}

/// Reads the games of a PGN text from any `BufRead`, one `Result` per game (see the [module](self)).
///
/// Invalid UTF-8 is read as U+FFFD; a byte-order mark is skipped before any game, so files joined with
/// `cat` read as one (and anywhere white space may stand).
///
/// A game's text (from its first line to the line of its result, or to the next game's tags) is held
/// whole while it is read, up to [`PgnReader::max_game_bytes`] ([`DEFAULT_MAX_GAME_BYTES`], 16 MiB): a
/// longer one is reported as [`PgnErrorKind::GameTooLong`] and the rest of it is read past without being
/// kept, so that no input makes the reader hold more than the cap (and what parsing a game of that size
/// takes); the next game is read as usual.
///
/// # Examples
/// ```
/// use tesseract_movegen::pgn::{PgnErrorKind, PgnReader};
/// let text = "1. e4 e5 2. Ke3 *\n\n[Event \"second\"]\n1. d4 { solid } (1. c4) d5 1/2-1/2\n";
/// let games: Vec<_> = PgnReader::new(text.as_bytes()).collect();
/// let err = games[0].as_ref().unwrap_err();
/// assert_eq!((err.game, err.line, err.ply), (1, 1, Some(3)));
/// assert_eq!(err.to_string(), "game 1, line 1, ply 3: Ke3 is not a legal move here: no king can move to e3");
/// let second = games[1].as_ref().unwrap();
/// assert_eq!(second.moves[0].variations, ["1. c4"]);
/// # let _ = PgnErrorKind::UnclosedVariation;
/// ```
pub struct PgnReader<R> {
    source: R,
    splitter: GameCutter,
    /// The text of the game being read (none while an over-long one is read past).
    chunk: Vec<u8>,
    /// An empty buffer kept from the last game's text, so that reading a game allocates no new one.
    spare: Vec<u8>,
    /// The line `chunk` starts on.
    first_line: usize,
    /// Where the current line starts in `chunk`.
    line_start: usize,
    /// An over-long game is being read past.
    skipping: bool,
    max_game_bytes: usize,
    pending: VecDeque<Pending>,
    games: usize,
    keep_variations: bool,
    /// Whether the movetext is read (moves resolved), or only the tags and the result.
    movetext: bool,
    /// Game texts are queued unparsed (for [`PgnReader::parallel`]) rather than parsed as they end.
    defer: bool,
    done: bool,
}

/// What the parser reads of a game: variations' text, the movetext.
#[derive(Copy, Clone, Debug)]
struct ReadOptions {
    keep_variations: bool,
    movetext: bool,
}

/// What a [`PgnReader`] has ready: a game read (or an error), or in deferred mode a game's text to parse.
/// (A game kept inline, as the queue held it before texts could wait in it: boxing it would cost an
/// allocation a game.)
#[allow(clippy::large_enum_variant)]
enum Pending {
    Done(Result<PgnGame, PgnError>),
    Text { text: Vec<u8>, first_line: usize },
}

/// Parses the games in one game's text (usually one; several when untagged games share it), numbering
/// them from `first_game`, into `out`; returns how many.
fn parse_text(
    text: &[u8],
    first_line: usize,
    first_game: usize,
    options: ReadOptions,
    out: &mut impl Extend<Pending>,
) -> usize {
    // Valid UTF-8 (nearly always) is checked by the faster test; invalid bytes read as U+FFFD.
    let text = match std::str::from_utf8(text) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(text),
    };
    let mut parser = Parser { lex: Lexer::new(&text, first_line, options.movetext), peeked: None, options };
    let mut count = 0;
    loop {
        let game = first_game + count;
        match parser.game(game) {
            Ok(None) => break,
            Ok(Some(g)) => out.extend([Pending::Done(Ok(g))]),
            Err(e) => {
                out.extend([Pending::Done(Err(e))]);
                parser.skip_game();
            }
        }
        count += 1;
    }
    count
}

/// The first bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// A source of PGN text read from a file: the file itself, or its decompressed text.
pub type PgnSource = Box<dyn BufRead + Send>;

/// A reader of the PGN file at `path`, plain or zstd-compressed (`.pgn.zst`, as the open game databases
/// publish their monthly files; told by its first bytes, not its name), decompressed as it is read with the
/// `zstd` feature. Memory stays bounded whatever the file's size.
///
/// # Errors
/// The error of opening or reading the file's first bytes; a compressed file without the `zstd` feature is
/// an error of kind [`std::io::ErrorKind::Unsupported`] that says so.
///
/// # Examples
/// ```
/// # fn main() -> std::io::Result<()> {
/// let path = std::env::temp_dir().join(format!("tesseract-open-doc-{}.pgn", std::process::id()));
/// std::fs::write(&path, "1. e4 e5 *\n")?;
/// let games: Vec<_> = tesseract_movegen::pgn::open(&path)?.collect();
/// assert_eq!(games.len(), 1);
/// std::fs::remove_file(&path)
/// # }
/// ```
pub fn open(path: &std::path::Path) -> std::io::Result<PgnReader<PgnSource>> {
    decompressed(std::fs::File::open(path)?)
}

/// A reader of the PGN text in `source`, plain or zstd-compressed (told by its first bytes), as [`open`]
/// reads a file: for a file the caller opened (to count its bytes for a progress bar, say) or a stream.
///
/// # Errors
/// As [`open`].
pub fn decompressed(mut source: impl std::io::Read + Send + 'static) -> std::io::Result<PgnReader<PgnSource>> {
    // The first four bytes, however few a read gives (a pipe), to tell a zstd frame (or a skippable frame,
    // which some compressors write first) from text.
    let mut head = [0u8; 4];
    let mut n = 0;
    while n < head.len() {
        match source.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let skippable = (0x184d_2a50..=0x184d_2a5f).contains(&u32::from_le_bytes(head));
    let compressed = n == head.len() && (head == ZSTD_MAGIC || skippable);
    let source = std::io::BufReader::with_capacity(
        1 << 16,
        std::io::Read::chain(std::io::Cursor::new(head[..n].to_vec()), source),
    );
    let source: PgnSource = if compressed {
        #[cfg(feature = "zstd")]
        {
            Box::new(std::io::BufReader::with_capacity(1 << 16, zstd::stream::read::Decoder::with_buffer(source)?))
        }
        #[cfg(not(feature = "zstd"))]
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Unsupported,
                "a zstd-compressed file: reading it needs the `zstd` feature of tesseract-movegen",
            ));
        }
    } else {
        Box::new(source)
    };
    Ok(PgnReader::new(source))
}

/// Reads the games of a PGN text (see [`PgnReader`]).
pub fn read_games(text: &str) -> PgnReader<&[u8]> {
    PgnReader::new(text.as_bytes())
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of the games in `source`.
    pub fn new(source: R) -> PgnReader<R> {
        PgnReader {
            source,
            splitter: GameCutter::new(),
            chunk: Vec::new(),
            spare: Vec::new(),
            first_line: 1,
            line_start: 0,
            skipping: false,
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            pending: VecDeque::new(),
            games: 0,
            keep_variations: true,
            movetext: true,
            defer: false,
            done: false,
        }
    }

    /// Whether variations are kept as raw text on their moves (the default) or skipped.
    #[must_use]
    pub fn keep_variations(mut self, keep: bool) -> PgnReader<R> {
        self.keep_variations = keep;
        self
    }

    /// Whether the moves are read (the default), or only the tags, the start position and the result: a
    /// game then has no moves, comments or NAGs, and its moves are neither resolved nor checked (a game with
    /// an illegal move reads without error), which makes a pass over a file's tags several times faster.
    ///
    /// # Examples
    /// ```
    /// use tesseract_movegen::pgn::{GameResult, PgnReader};
    /// let text = "[White \"A\"]\n1. e4 Ke7 1-0\n[White \"B\"]\n1. d4 d5 (1... Nf6) *\n";
    /// let games: Vec<_> = PgnReader::new(text.as_bytes()).read_movetext(false).map(Result::unwrap).collect();
    /// assert_eq!(games.iter().map(|g| g.tag("White").unwrap()).collect::<Vec<_>>(), ["A", "B"]);
    /// assert_eq!(games[0].result, GameResult::WhiteWins);
    /// assert!(games.iter().all(|g| g.moves.is_empty()));
    /// ```
    #[must_use]
    pub fn read_movetext(mut self, read: bool) -> PgnReader<R> {
        self.movetext = read;
        self
    }

    /// The most bytes of one game's text the reader holds ([`DEFAULT_MAX_GAME_BYTES`] by default): a
    /// game over it is a [`PgnErrorKind::GameTooLong`] error, read past without being kept.
    ///
    /// # Examples
    /// ```
    /// use tesseract_movegen::pgn::{PgnErrorKind, PgnReader};
    /// let text = format!("1. e4 {{{}}} e5 *\n1. d4 d5 *\n", "x".repeat(5000));
    /// let games: Vec<_> = PgnReader::new(text.as_bytes()).max_game_bytes(1 << 10).collect();
    /// let err = games[0].as_ref().unwrap_err();
    /// assert_eq!(err.kind, PgnErrorKind::GameTooLong { max_bytes: 1024 });
    /// assert_eq!(err.to_string(), "game 1, line 1: the game's text is longer than 1024 bytes, the most \
    ///     this reader holds (PgnReader::max_game_bytes): read past it to the next game");
    /// assert_eq!(games[1].as_ref().unwrap().moves.len(), 2);
    /// ```
    #[must_use]
    pub fn max_game_bytes(mut self, max: usize) -> PgnReader<R> {
        self.max_game_bytes = max;
        self
    }

    fn options(&self) -> ReadOptions {
        ReadOptions { keep_variations: self.keep_variations, movetext: self.movetext }
    }

    /// Parses the game text held (if any besides white space) and starts the next one on `next_line`.
    fn end_chunk(&mut self, rest: Vec<u8>, next_line: usize) {
        let chunk = std::mem::replace(&mut self.chunk, rest);
        let first = std::mem::replace(&mut self.first_line, next_line);
        self.line_start = 0;
        if chunk.iter().all(u8::is_ascii_whitespace) {
            // Nothing to read.
        } else if self.defer {
            self.pending.push_back(Pending::Text { text: chunk, first_line: first });
            return;
        } else {
            self.games += parse_text(&chunk, first, self.games + 1, self.options(), &mut self.pending);
        }
        // Kept for the next game, unless a long game made it large.
        if chunk.capacity() <= SPARE_BYTES {
            self.spare = chunk;
            self.spare.clear();
        }
    }

    /// Reads one buffer's worth of the source up to the next cut, keeping it unless an over-long game is
    /// being read past.
    fn read_some(&mut self) {
        let buf = match self.source.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => return,
            Err(e) => {
                self.done = true;
                self.games += 1;
                let error = PgnError {
                    game: self.games,
                    line: self.splitter.line,
                    ply: None,
                    kind: PgnErrorKind::Io(e.to_string()),
                };
                self.pending.push_back(Pending::Done(Err(error)));
                return;
            }
        };
        if buf.is_empty() {
            self.done = true;
            if !self.skipping {
                self.end_chunk(Vec::new(), self.splitter.line);
            }
            return;
        }
        // At most one byte over the cap is kept, which tells a game over it.
        let room = self.max_game_bytes.saturating_sub(self.chunk.len()).saturating_add(1);
        let limit = if self.skipping { buf.len() } else { buf.len().min(room) };
        let Scan { read, cut, line_start } = self.splitter.scan(&buf[..limit]);
        if !self.skipping {
            if let Some(offset) = line_start {
                self.line_start = self.chunk.len() + offset;
            }
            extend_capped(&mut self.chunk, &buf[..read], self.max_game_bytes.saturating_add(1));
        }
        self.source.consume(read);
        let line = self.splitter.line;
        if self.skipping {
            match cut {
                // The next game's tag line: its `[` starts the next text (white space before it is dropped).
                Some(Cut::BeforeLine) => {
                    self.skipping = false;
                    self.chunk = vec![b'['];
                    self.first_line = line;
                }
                Some(Cut::AfterLine) => {
                    self.skipping = false;
                    self.first_line = line;
                }
                None => {}
            }
            return;
        }
        if cut == Some(Cut::BeforeLine) {
            let mut rest = std::mem::take(&mut self.spare);
            rest.extend_from_slice(&self.chunk[self.line_start..]);
            self.chunk.truncate(self.line_start);
            self.end_chunk(rest, line);
        }
        if self.chunk.len() > self.max_game_bytes {
            self.games += 1;
            let kind = PgnErrorKind::GameTooLong { max_bytes: self.max_game_bytes };
            self.pending.push_back(Pending::Done(Err(PgnError {
                game: self.games,
                line: self.first_line,
                ply: None,
                kind,
            })));
            self.chunk = Vec::new();
            self.line_start = 0;
            // A game that ended on this line needs no reading past.
            self.skipping = cut != Some(Cut::AfterLine);
            self.first_line = line;
        } else if cut == Some(Cut::AfterLine) {
            let rest = std::mem::take(&mut self.spare);
            self.end_chunk(rest, line);
        }
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Result<PgnGame, PgnError>> {
        loop {
            match self.pending.pop_front() {
                Some(Pending::Done(r)) => return Some(r),
                Some(Pending::Text { text, first_line }) => {
                    // Not queued outside deferred mode; parsed here all the same.
                    let mut out = VecDeque::new();
                    self.games += parse_text(&text, first_line, self.games + 1, self.options(), &mut out);
                    out.extend(self.pending.drain(..));
                    self.pending = out;
                    continue;
                }
                None => {}
            }
            if self.done {
                return None;
            }
            self.read_some();
        }
    }
}

/// The games of a [`PgnReader`] parsed on every core ([`PgnReader::parallel`]): the same items in the same
/// order as the reader gives them, games numbered the same in errors.
#[cfg(feature = "parallel")]
pub struct ParallelGames<R> {
    reader: PgnReader<R>,
    ready: VecDeque<Result<PgnGame, PgnError>>,
    /// The next batch, split while the last one was parsed.
    next: Vec<Pending>,
    /// Games (and errors) handed out or ready so far: the number of the next one, less one.
    numbered: usize,
}

/// The text a batch of [`ParallelGames`] gathers before parsing it: 1 MiB.
#[cfg(feature = "parallel")]
const BATCH_BYTES: usize = 1 << 20;

#[cfg(feature = "parallel")]
impl<R: BufRead + Send> PgnReader<R> {
    /// The same games, parsed on every core (rayon's pool): the text is cut into batches of about 1 MiB of
    /// games, each batch's games are parsed in parallel while the next batch is cut, and the results come
    /// out in the order of the text. Memory stays bounded by two batches and the games of one (and one
    /// game's cap), whatever the file's size. For counting and filtering large files; the sequential reader
    /// is faster on one core.
    ///
    /// # Examples
    /// ```
    /// use tesseract_movegen::pgn::PgnReader;
    /// let text = "1. e4 e5 *\n1. d4 Kd7 2. Ke3 *\n1. c4 c5 1/2-1/2\n";
    /// let one: Vec<_> = PgnReader::new(text.as_bytes()).collect();
    /// let all: Vec<_> = PgnReader::new(text.as_bytes()).parallel().collect();
    /// assert_eq!(one, all);
    /// assert_eq!(all[1].as_ref().unwrap_err().game, 2);
    /// ```
    pub fn parallel(mut self) -> ParallelGames<R> {
        self.defer = true;
        ParallelGames { reader: self, ready: VecDeque::new(), next: Vec::new(), numbered: 0 }
    }
}

#[cfg(feature = "parallel")]
impl<R: BufRead + Send> ParallelGames<R> {
    /// Reads the next batch of game texts, parses them in parallel, and queues the results in order.
    fn fill(&mut self) {
        let options = self.reader.options();
        let batch = match std::mem::take(&mut self.next) {
            batch if batch.is_empty() => next_batch(&mut self.reader),
            batch => batch,
        };
        if batch.is_empty() {
            return;
        }
        // The batch parsed on the pool while the next one is split from the text.
        let reader = &mut self.reader;
        let (parsed, next) = rayon::join(|| parse_batch(batch, options), || next_batch(reader));
        self.next = next;
        for item in parsed.into_iter().flatten() {
            self.numbered += 1;
            if let Pending::Done(mut result) = item {
                if let Err(e) = &mut result {
                    e.game = self.numbered;
                }
                self.ready.push_back(result);
            }
        }
    }
}

/// The next game texts (and errors) of a deferred reader, about [`BATCH_BYTES`] of text; empty at the end.
#[cfg(feature = "parallel")]
fn next_batch<R: BufRead>(reader: &mut PgnReader<R>) -> Vec<Pending> {
    let mut batch = Vec::new();
    let mut bytes = 0;
    while bytes < BATCH_BYTES {
        match reader.pending.pop_front() {
            Some(item) => {
                if let Pending::Text { text, .. } = &item {
                    bytes += text.len();
                }
                batch.push(item);
            }
            None if reader.done => break,
            None => reader.read_some(),
        }
    }
    batch
}

/// A batch's game texts parsed on every core, in order (each text's games numbered from 1).
#[cfg(feature = "parallel")]
fn parse_batch(batch: Vec<Pending>, options: ReadOptions) -> Vec<Vec<Pending>> {
    use rayon::prelude::*;
    batch
        .into_par_iter()
        .map(|item| match item {
            Pending::Text { text, first_line } => {
                let mut out = Vec::new();
                parse_text(&text, first_line, 1, options, &mut out);
                out
            }
            done => vec![done],
        })
        .collect()
}

#[cfg(feature = "parallel")]
impl<R: BufRead + Send> Iterator for ParallelGames<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Result<PgnGame, PgnError>> {
        // A batch may hold no game (a text of comments alone): read on until one does or the text ends.
        while self.ready.is_empty() && !(self.next.is_empty() && self.reader.done && self.reader.pending.is_empty()) {
            self.fill();
        }
        self.ready.pop_front()
    }
}

struct Parser<'a> {
    lex: Lexer<'a>,
    peeked: Option<Lexed<'a>>,
    options: ReadOptions,
}

impl<'a> Parser<'a> {
    fn next(&mut self) -> Option<Lexed<'a>> {
        self.peeked.take().or_else(|| self.lex.next_token())
    }

    fn peek(&mut self) -> Option<&Lexed<'a>> {
        if self.peeked.is_none() {
            self.peeked = self.lex.next_token();
        }
        self.peeked.as_ref()
    }

    /// Skips the rest of a game that failed: up to its result outside variations, or the end of its text.
    fn skip_game(&mut self) {
        let mut depth = 0usize;
        while let Some(t) = self.next() {
            match t {
                Ok((Tok::Open, _)) => depth += 1,
                Ok((Tok::Close, _)) => depth = depth.saturating_sub(1),
                Ok((Tok::Star, _)) if depth == 0 => return,
                Ok((Tok::Symbol(s), _)) if depth == 0 && GameResult::parse(s).is_some() => return,
                _ => {}
            }
        }
    }

    /// The next game, `None` at the end of the text.
    fn game(&mut self, number: usize) -> Result<Option<PgnGame>, PgnError> {
        let err = |line: usize, ply: Option<usize>, kind| PgnError { game: number, line, ply, kind };
        // Comments before the tags belong to no game; without tags they are the game's first comments.
        let mut leading = Vec::new();
        while let Some(Ok((Tok::Comment(_), _))) = self.peek() {
            if let Some(Ok((Tok::Comment(c), _))) = self.next() {
                if self.options.movetext {
                    leading.push(c);
                }
            }
        }
        let Some(first) = self.peek() else { return Ok(None) };
        let first_line = match first {
            Ok((_, line)) => *line,
            Err(e) => e.1,
        };
        let mut tags: Vec<(String, String)> = Vec::new();
        while let Some(Ok((Tok::LBracket, line))) = self.peek() {
            let line = *line;
            self.next();
            let name = match self.next() {
                Some(Ok((Tok::Symbol(s), _))) if valid_tag_name(s) => s.to_string(),
                Some(Err(e)) => return Err(err(e.1, None, e.0)),
                _ => return Err(err(line, None, PgnErrorKind::Tag("expected a tag name after ["))),
            };
            let value = match self.next() {
                Some(Ok((Tok::Str(v), _))) => v,
                Some(Err(e)) => return Err(err(e.1, None, e.0)),
                _ => return Err(err(line, None, PgnErrorKind::Tag("expected a quoted value after the tag name"))),
            };
            match self.next() {
                Some(Ok((Tok::RBracket, _))) => {}
                Some(Err(e)) => return Err(err(e.1, None, e.0)),
                _ => return Err(err(line, None, PgnErrorKind::Tag("expected ] after the tag value"))),
            }
            tags.push((name, value));
        }
        let find = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let variant =
            Variant::from_tag(find("Variant")).map_err(|v| err(first_line, None, PgnErrorKind::Variant(v)))?;
        let start = match find("FEN") {
            None => variant.start(),
            Some(fen) => variant
                .position(fen.trim())
                .map_err(|error| err(first_line, None, PgnErrorKind::Fen { fen: fen.to_string(), error }))?,
        };
        let tag_result = find("Result").and_then(GameResult::parse).filter(|r| *r != GameResult::Unknown);
        let comments = if tags.is_empty() { leading } else { Vec::new() };
        // Room for a game of usual length, so that reading one rarely grows the list.
        let moves = Vec::with_capacity(96);
        let mut game = PgnGame { tags, start, comments, moves, result: GameResult::Unknown };
        if !self.options.movetext {
            return self.result_only(game, tag_result, number);
        }
        let mut pos = game.start.clone();
        let long = pos.shape().dims() != 2;
        let mut termination = None;
        let mut any = !game.tags.is_empty();
        while let Some(t) = self.next() {
            let (tok, line) = t.map_err(|e| err(e.1, Some(game.moves.len() + 1), e.0))?;
            let ply = Some(game.moves.len() + 1);
            match tok {
                Tok::Comment(c) => match game.moves.last_mut() {
                    Some(m) => m.comments.push(c),
                    None => game.comments.push(c),
                },
                Tok::Nag(n) => {
                    if let Some(m) = game.moves.last_mut() {
                        m.nags.push(n);
                    }
                }
                Tok::Period => {}
                Tok::Open => {
                    let keep = self.options.keep_variations;
                    let raw = self.variation(line, keep).map_err(|(kind, l)| err(l, ply, kind))?;
                    match game.moves.last_mut() {
                        Some(m) if keep => m.variations.push(raw),
                        Some(_) => {}
                        None => return Err(err(line, ply, PgnErrorKind::VariationBeforeMove)),
                    }
                }
                Tok::Close => return Err(err(line, ply, PgnErrorKind::UnmatchedParenthesis)),
                Tok::Star => {
                    termination = Some(GameResult::Unknown);
                    break;
                }
                Tok::LBracket => return Err(err(line, ply, PgnErrorKind::Unexpected('['))),
                Tok::RBracket => return Err(err(line, ply, PgnErrorKind::Unexpected(']'))),
                Tok::Str(_) => return Err(err(line, ply, PgnErrorKind::Unexpected('"'))),
                Tok::Symbol(s) => {
                    if let Some(r) = GameResult::parse(s) {
                        termination = Some(r);
                        break;
                    }
                    let digits = s.bytes().all(|c| c.is_ascii_digit());
                    // A move number: digits before a period, or on a 2D board a short number without one (as
                    // python-chess reads it); longer digits are a move text of another board.
                    // `0000` is no move number but UCI's null move (refused below, as python-chess reads it).
                    let number = digits && s != "0000";
                    if number && (matches!(self.peek(), Some(Ok((Tok::Period, _)))) || (!long && s.len() <= 4)) {
                        continue;
                    }
                    any = true;
                    let m = movetext_move(&pos, s, long).map_err(|kind| err(line, ply, kind))?;
                    let _ = pos.make(m);
                    game.moves.push(PgnMove::new(m));
                }
            }
        }
        if !any && termination.is_none() {
            return Ok(None);
        }
        game.result = tag_result.or(termination).unwrap_or(GameResult::Unknown);
        Ok(Some(game))
    }

    /// The movetext of a game read without its moves ([`PgnReader::read_movetext`]): up to its result
    /// outside variations (or the end of its text), which is the game's result unless its tags give one.
    fn result_only(
        &mut self,
        mut game: PgnGame,
        tag_result: Option<GameResult>,
        number: usize,
    ) -> Result<Option<PgnGame>, PgnError> {
        let mut depth = 0usize;
        let mut termination = None;
        // As the full read: a text of comments and NAGs alone, without tags, moves or result, is no game.
        let mut any = !game.tags.is_empty();
        while let Some(t) = self.next() {
            let (tok, line) = t.map_err(|e| PgnError { game: number, line: e.1, ply: None, kind: e.0 })?;
            let unexpected = match tok {
                Tok::Open => {
                    depth += 1;
                    None
                }
                Tok::Close if depth == 0 => {
                    let kind = PgnErrorKind::UnmatchedParenthesis;
                    return Err(PgnError { game: number, line, ply: None, kind });
                }
                Tok::Close => {
                    depth -= 1;
                    None
                }
                _ if depth > 0 => None,
                Tok::Star => {
                    termination = Some(GameResult::Unknown);
                    break;
                }
                Tok::Symbol(s) => match GameResult::parse(s) {
                    Some(r) => {
                        termination = Some(r);
                        break;
                    }
                    None => {
                        // A move (a move number alone is none).
                        any |= !s.bytes().all(|c| c.is_ascii_digit());
                        None
                    }
                },
                Tok::LBracket => Some('['),
                Tok::RBracket => Some(']'),
                Tok::Str(_) => Some('"'),
                _ => None,
            };
            if let Some(c) = unexpected {
                return Err(PgnError { game: number, line, ply: None, kind: PgnErrorKind::Unexpected(c) });
            }
        }
        if !any && termination.is_none() {
            return Ok(None);
        }
        game.result = tag_result.or(termination).unwrap_or(GameResult::Unknown);
        Ok(Some(game))
    }

    /// The raw text of a variation whose `(` was just read, up to its matching `)` (checked but not kept,
    /// an empty text, unless `keep`).
    fn variation(&mut self, open_line: usize, keep: bool) -> Result<String, (PgnErrorKind, usize)> {
        let mut raw = String::new();
        let mut depth = 1usize;
        let word = |raw: &mut String, w: &str, glue: bool| {
            if !keep {
                return;
            }
            if !raw.is_empty() && !glue {
                raw.push(' ');
            }
            raw.push_str(w);
        };
        loop {
            let Some(t) = self.next() else { return Err((PgnErrorKind::UnclosedVariation, open_line)) };
            let (tok, line) = t.map_err(|e| *e)?;
            match tok {
                Tok::Open => {
                    depth += 1;
                    word(&mut raw, "(", false);
                }
                Tok::Close => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(raw);
                    }
                    word(&mut raw, ")", false);
                }
                Tok::Period => {
                    let glue = raw.ends_with(|c: char| c.is_ascii_digit() || c == '.');
                    word(&mut raw, ".", glue);
                }
                Tok::Symbol(s) => word(&mut raw, s, false),
                Tok::Star => word(&mut raw, "*", false),
                Tok::Nag(_) | Tok::Comment(_) if !keep => {}
                Tok::Nag(n) => word(&mut raw, &format!("${n}"), false),
                Tok::Comment(c) => {
                    let c = c.replace('}', "");
                    word(&mut raw, &if c.is_empty() { "{ }".to_string() } else { format!("{{ {c} }}") }, false);
                }
                Tok::LBracket => return Err((PgnErrorKind::Unexpected('['), line)),
                Tok::RBracket => return Err((PgnErrorKind::Unexpected(']'), line)),
                Tok::Str(_) => return Err((PgnErrorKind::Unexpected('"'), line)),
            }
        }
    }
}

/// The legal move a movetext symbol names: SAN or UCI on 2D boards; the move text or the long form on
/// boards of one, three and four axes.
fn movetext_move(pos: &Position, text: &str, long: bool) -> Result<Move, PgnErrorKind> {
    if matches!(text, "--" | "Z0" | "0000") {
        return Err(PgnErrorKind::NullMove(text.to_string()));
    }
    if long && text.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return pos.parse_move(text).map_err(PgnErrorKind::MoveText);
    }
    crate::san::parse_move(pos, text).map_err(PgnErrorKind::Move)
}

impl std::str::FromStr for PgnGame {
    type Err = PgnError;

    /// The first game of a PGN text.
    fn from_str(text: &str) -> Result<PgnGame, PgnError> {
        read_games(text).next().unwrap_or(Err(PgnError { game: 1, line: 1, ply: None, kind: PgnErrorKind::NoGame }))
    }
}
