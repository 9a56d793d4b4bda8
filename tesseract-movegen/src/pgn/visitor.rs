//! The streaming reading of games: a [`Visitor`] is told each game's parts as the reader meets them.

use tesseract_board::{Move, Position};

use super::lexer::normalize;
use super::{GameResult, PgnGame, PgnMove};

/// Whether a part of a game is skipped (`Skip(true)`) or read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Skip(pub bool);

/// What a caller of [`PgnReader::read_game`](super::PgnReader::read_game) is told of each game, in the
/// order of the text, without a [`PgnGame`] being built: the tags, the start position, each move of the
/// main line (resolved and checked by the reader, legal where it stands), comments, NAGs, and the result.
/// Each method but [`Visitor::end_game`] does nothing unless the visitor says otherwise.
///
/// For each game the reader calls [`begin_game`](Visitor::begin_game), then [`tag`](Visitor::tag) for each
/// tag pair, then [`begin_movetext`](Visitor::begin_movetext) with the start position (which may skip the
/// moves: only the result is then read), then [`play`](Visitor::play) and [`reached`](Visitor::reached)
/// for each move, [`comment`](Visitor::comment),
/// [`nag`](Visitor::nag) and [`variation`](Visitor::variation) as the movetext has them, and last
/// [`end_game`](Visitor::end_game) with the result, whose output the reader returns. A game with an error
/// (an illegal move, a bad tag …) ends without `end_game`: the reader returns the [`PgnError`](super::PgnError)
/// instead, and the next game starts with `begin_game` again, so a visitor resets its state there. A text
/// that turns out to hold no game (comments or NAGs alone, without a tag, a move or a result, after the
/// last game) also ends without `end_game` and without an error.
///
/// # Examples
/// Counting the captures of each game, with nothing else kept:
/// ```
/// use tesseract_board::{Move, Position};
/// use tesseract_movegen::pgn::{GameResult, PgnReader, Visitor};
///
/// struct Captures(usize);
///
/// impl Visitor for Captures {
///     type Output = usize;
///     fn begin_game(&mut self) {
///         self.0 = 0;
///     }
///     fn play(&mut self, before: &Position, m: Move) {
///         self.0 += usize::from(before.piece_at(m.to).is_some());
///     }
///     fn end_game(&mut self, _: GameResult) -> usize {
///         self.0
///     }
/// }
///
/// let text = "1. e4 d5 2. exd5 Qxd5 *\n[White \"B\"]\n1. d4 Kd7 2. Ke3 *\n1. c4 c5 1/2-1/2\n";
/// let mut reader = PgnReader::new(text.as_bytes());
/// let mut captures = Captures(0);
/// assert_eq!(reader.read_game(&mut captures), Some(Ok(2)));
/// assert!(reader.read_game(&mut captures).unwrap().is_err()); // 1... Kd7: d7 holds Black's pawn
/// assert_eq!(reader.read_game(&mut captures), Some(Ok(0)));
/// assert_eq!(reader.read_game(&mut captures), None);
/// ```
pub trait Visitor {
    /// What reading a game gives.
    type Output;

    /// A game starts: forget what the last one left (it may have ended in an error).
    fn begin_game(&mut self) {}

    /// A tag pair, its value with its escapes undone.
    fn tag(&mut self, name: &str, value: &str) {
        let _ = (name, value);
    }

    /// The tags are read; the game starts from `start` (the `[Variant]` and `[FEN]` tags applied).
    /// `Skip(true)` skips the moves: they are neither resolved nor checked, and only the result is read
    /// (a pass over a file's tags is then several times faster).
    fn begin_movetext(&mut self, start: &Position) -> Skip {
        let _ = start;
        Skip(false)
    }

    /// A move of the main line, legal in `before`, the position before it. (The reader then plays it.)
    fn play(&mut self, before: &Position, m: Move) {
        let _ = (before, m);
    }

    /// The position the move just told to [`Visitor::play`] leads to.
    fn reached(&mut self, after: &Position) {
        let _ = after;
    }

    /// A comment, its raw text (between its braces, or after its `;` to the line's end): before the first
    /// move, or after the last move played. Before the tags, a comment is the game's only when it has no
    /// tags.
    fn comment(&mut self, text: &str) {
        let _ = text;
    }

    /// A numeric annotation glyph after the last move played (`$1` or `!` is 1, `?` 2, `!!` 3, `??` 4,
    /// `!?` 5, `?!` 6). Ignored before the first move.
    fn nag(&mut self, nag: u8) {
        let _ = nag;
    }

    /// Whether variations are handed to [`Visitor::variation`]; otherwise (the default) they are skipped
    /// without their text being built, their moves neither resolved nor checked.
    fn wants_variations(&self) -> bool {
        false
    }

    /// A variation, an alternative to the last move played: its raw text between the parentheses (tokens
    /// separated by single spaces, comments in braces). Not checked.
    fn variation(&mut self, raw: &str) {
        let _ = raw;
    }

    /// The game ends with `result`: the `[Result]` tag's, or the movetext's where the tag is missing or
    /// `*`. What it returns is what the reader gives for the game.
    fn end_game(&mut self, result: GameResult) -> Self::Output;
}

/// The visitor that builds a [`PgnGame`] of each game: what [`PgnReader`](super::PgnReader) iterates and
/// [`PgnReader::parallel`](super::PgnReader::parallel) reads on every core. A visitor of one's own can hold
/// one and hand each call on to it, to build the game besides what it does.
///
/// # Panics
/// [`Visitor::end_game`] panics when [`Visitor::begin_movetext`] was not handed on before it (the reader
/// always calls it first): the game's start would be unknown.
#[derive(Clone, Debug)]
pub struct GameBuilder {
    keep_variations: bool,
    movetext: bool,
    tags: Vec<(String, String)>,
    start: Option<Position>,
    comments: Vec<String>,
    moves: Vec<PgnMove>,
}

impl Default for GameBuilder {
    fn default() -> GameBuilder {
        GameBuilder::new()
    }
}

impl GameBuilder {
    /// A builder of whole games: moves with their comments, NAGs and variations.
    pub fn new() -> GameBuilder {
        GameBuilder::with(true, true)
    }

    /// A builder that keeps variations or not, and reads the moves or only the tags and the result.
    pub(super) fn with(keep_variations: bool, movetext: bool) -> GameBuilder {
        GameBuilder {
            keep_variations,
            movetext,
            tags: Vec::new(),
            start: None,
            comments: Vec::new(),
            moves: Vec::new(),
        }
    }
}

impl Visitor for GameBuilder {
    type Output = PgnGame;

    fn begin_game(&mut self) {
        self.tags.clear();
        self.start = None;
        self.comments.clear();
        // Room for a game of usual length, so that reading one rarely grows the list.
        self.moves = Vec::with_capacity(96);
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.to_string(), value.to_string()));
    }

    fn begin_movetext(&mut self, start: &Position) -> Skip {
        self.start = Some(start.clone());
        Skip(!self.movetext)
    }

    fn play(&mut self, _: &Position, m: Move) {
        self.moves.push(PgnMove::new(m));
    }

    fn comment(&mut self, text: &str) {
        let text = normalize(text);
        match self.moves.last_mut() {
            Some(m) => m.comments.push(text),
            None => self.comments.push(text),
        }
    }

    fn nag(&mut self, nag: u8) {
        if let Some(m) = self.moves.last_mut() {
            m.nags.push(nag);
        }
    }

    fn wants_variations(&self) -> bool {
        self.keep_variations
    }

    fn variation(&mut self, raw: &str) {
        if let Some(m) = self.moves.last_mut() {
            m.variations.push(raw.to_string());
        }
    }

    fn end_game(&mut self, result: GameResult) -> PgnGame {
        PgnGame {
            tags: std::mem::take(&mut self.tags),
            start: self.start.take().expect("a game's start is known before it ends"),
            comments: std::mem::take(&mut self.comments),
            moves: std::mem::take(&mut self.moves),
            result,
        }
    }
}
