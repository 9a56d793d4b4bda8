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
//! **Streaming** ([`PgnReader::read_game`] with a [`Visitor`]): the reader tells a visitor each game's
//! tags, start position, moves (resolved and checked, with the positions before and after), comments,
//! NAGs, variations and result as it meets them, and gives what the visitor makes of the game; nothing is
//! built that the visitor does not build, and [`Visitor::begin_movetext`] can skip a game's moves. The
//! iterator is one such visitor ([`GameBuilder`]); [`PgnReader::parallel_visit`] reads into copies of any
//! visitor on every core.
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

use std::fmt;

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

    /// The start of a game without a `[FEN]` tag.
    fn start(self) -> Position {
        self.start_ref().clone()
    }

    /// The start of a game without a `[FEN]` tag, built once (a FEN parsed and checked).
    fn start_ref(self) -> &'static Position {
        static STARTS: std::sync::OnceLock<[Position; 3]> = std::sync::OnceLock::new();
        let starts = STARTS.get_or_init(|| {
            [
                start::chess(),
                start::chess960(518).expect("518 is a Chess960 number"),
                start::tesseract(start::Army::Standard),
            ]
        });
        &starts[match self {
            Variant::Classic => 0,
            Variant::Chess960 => 1,
            Variant::Tesseract => 2,
        }]
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

mod cutter;
mod lexer;
mod reader;
mod visitor;
mod window;

pub use cutter::{Cut, GameCutter, Scan};
pub use reader::*;
pub use visitor::{GameBuilder, Skip, Visitor};
