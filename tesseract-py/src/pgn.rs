//! The Rust core of `tesseract.pgn` (the Python module `python/tesseract/pgn.py`): game records
//! (`PgnRecord`, over tesseract-movegen's `PgnGame`), the stream that reads every game of a file in large
//! chunks (`PgnStream`), and what `read_game` needs to read one game line by line (`PgnLineCut`,
//! `pgn_parse`).
//!
//! # Splitting a text into games
//!
//! Both readers cut the text into games with tesseract-movegen's `GameCutter`, the one its `PgnReader`
//! cuts with: a game ends after a line whose last token is a result (`1-0`, `0-1`, `1/2-1/2`, `*`, outside
//! comments and variations), or where a tag line follows movetext. Each game's text is then read by
//! `tesseract_movegen::pgn::read_games`, which yields the game (or several, when a line holds more than
//! one), or the error that stops it. Since each game's text is at hand, a bad game is salvaged much as
//! python-chess keeps one: its tags, and the moves before the error ([`salvage`]).
//!
//! No text makes this panic, and none makes a stream hold more than one game's text, at most
//! [`MAX_GAME_BYTES`] (a longer game is reported and read past), besides the chunk being read.

use std::collections::VecDeque;

use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyType};
use tesseract_board::Position;
use tesseract_movegen::pgn::{
    Cut, DEFAULT_MAX_GAME_BYTES, GameCutter, GameResult, Notation, PgnError as RawPgnError, PgnErrorKind, PgnGame,
    PgnWriteError, WriteOptions, read_games, valid_tag_name,
};
use tesseract_movegen::san::{SanError, SanPlus};
use tesseract_movegen::{Claims, MoveError};

use crate::board::Board;
use crate::errors::{AmbiguousMoveError, FenError, IllegalMoveError, InvalidMoveError, PgnError, san_error};
use crate::moves::PyMove;
use crate::stack;

/// The most bytes of one game's text a stream holds (tesseract-movegen's reader's own cap, 16 MiB): a
/// longer game is reported as an error and read past without being kept.
const MAX_GAME_BYTES: usize = DEFAULT_MAX_GAME_BYTES;

/// The most prefixes of a bad line [`salvage`] reads, for an error that is not a move's.
const SALVAGE_TRIES: usize = 32;

/// How much a stream asks its source for at a time (characters of a text file, bytes of a binary one).
const DEFAULT_CHUNK: usize = 1 << 18;

/// One game's text, cut from a stream, or a game too long to keep.
enum Piece {
    /// The text and the line of the stream it starts on.
    Text(Vec<u8>, usize),
    /// A game longer than [`MAX_GAME_BYTES`], starting on this line, read past.
    TooLong(usize),
}

/// Cuts a stream of bytes, fed in chunks, into the texts of its games.
struct Splitter {
    cutter: GameCutter,
    /// The current game's text so far (from its first byte, unless it is being read past), and the bytes
    /// after it not yet scanned.
    buf: Vec<u8>,
    /// How much of `buf` was scanned.
    scanned: usize,
    /// Where the line being scanned starts in `buf`, if it is still there.
    line_start: Option<usize>,
    /// The line the current game's text starts on.
    first_line: usize,
    /// An over-long game is being read past: its bytes are dropped as they are scanned.
    skipping: bool,
}

impl Splitter {
    fn new() -> Splitter {
        Splitter {
            cutter: GameCutter::new(),
            buf: Vec::new(),
            scanned: 0,
            line_start: Some(0),
            first_line: 1,
            skipping: false,
        }
    }

    /// Takes the next chunk (empty at the end of the stream) and returns the pieces it completes.
    fn push(&mut self, data: &[u8], eof: bool) -> Vec<Piece> {
        let mut out = Vec::new();
        self.buf.extend_from_slice(data);
        // Where the current game starts in `buf`.
        let mut start = 0;
        loop {
            let scan = self.cutter.scan(&self.buf[self.scanned..]);
            // The start of the line being scanned: after the last line end read, if any.
            if let Some(offset) = scan.line_start {
                self.line_start = Some(self.scanned + offset);
            }
            self.scanned += scan.read;
            let Some(cut) = scan.cut else { break };
            let end = match cut {
                Cut::AfterLine => self.scanned,
                // The tag line's start, or (when an over-long game dropped it) its `[` alone.
                Cut::BeforeLine => self.line_start.unwrap_or(self.scanned - 1),
            };
            if self.skipping {
                self.skipping = false;
            } else {
                out.push(Piece::Text(self.buf[start..end].to_vec(), self.first_line));
            }
            start = end;
            self.first_line = self.cutter.line();
        }
        if !self.skipping && self.buf.len() - start > MAX_GAME_BYTES {
            out.push(Piece::TooLong(self.first_line));
            self.skipping = true;
        }
        if self.skipping {
            // Only the line being scanned is kept (the next game may start on it), unless it is too long.
            start = self.line_start.unwrap_or(self.scanned);
            if self.buf.len() - start > MAX_GAME_BYTES {
                start = self.scanned;
                self.line_start = None;
            }
        }
        self.buf.drain(..start);
        self.scanned -= start;
        self.line_start = self.line_start.map(|s| s.saturating_sub(start));
        if eof {
            if !self.skipping && !self.buf.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut self.buf), self.first_line));
            }
            *self = Splitter::new();
        }
        out
    }
}

/// Where a game's text was read: numbers for the error messages.
#[derive(Copy, Clone, Debug)]
enum Origin {
    /// From a stream: the games before this text, and the line it starts on.
    Stream { games_before: usize, first_line: usize },
    /// One game's text read by `read_game`: lines counted from its first.
    Game,
}

/// A game that could not be read: what is wrong and where, and what was salvaged.
struct BadGame {
    kind: PgnErrorKind,
    message: String,
    /// Its number in the stream (None for `read_game`).
    game: Option<usize>,
    line: usize,
    ply: Option<usize>,
    /// The game up to the error: its tags, start and the moves before the error.
    salvaged: Option<PgnGame>,
    /// The tags read, when the start could not be.
    tags: Vec<(String, String)>,
}

/// What reading one game gave.
enum Item {
    Game(PgnGame),
    Bad(BadGame),
}

/// Reads the games of one game's text (one, or several when a line holds more than one).
fn parse_text(bytes: &[u8], origin: Origin) -> Vec<Item> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    for (i, read) in read_games(&text).enumerate() {
        match read {
            Ok(game) => out.push(Item::Game(game)),
            Err(e) => {
                // Only the first game of the text can be salvaged: where a later one starts is not known.
                let (salvaged, tags) = if i == 0 { salvage(&text, &e) } else { (None, Vec::new()) };
                let (game, line, message) = match origin {
                    Origin::Stream { games_before, first_line } => {
                        let located = RawPgnError {
                            game: games_before + i + 1,
                            line: first_line + e.line - 1,
                            ply: e.ply,
                            kind: e.kind.clone(),
                        };
                        (Some(located.game), located.line, located.to_string())
                    }
                    Origin::Game => {
                        let ply = e.ply.map(|p| format!(", ply {p}")).unwrap_or_default();
                        let message = match i {
                            0 => format!("line {} of the game{ply}: {}", e.line, e.kind),
                            _ => format!("game {} of the text read, line {}{ply}: {}", i + 1, e.line, e.kind),
                        };
                        (None, e.line, message)
                    }
                };
                out.push(Item::Bad(BadGame { kind: e.kind, message, game, line, ply: e.ply, salvaged, tags }));
            }
        }
    }
    out
}

/// Whether an error is a move that does not read (the bad move of a salvaged game).
fn is_move_error(kind: &PgnErrorKind) -> bool {
    matches!(kind, PgnErrorKind::Move(_) | PgnErrorKind::MoveText(_) | PgnErrorKind::NullMove(_))
}

/// What can be kept of a game whose text failed to read: for an error in the movetext, the game up to
/// it, as python-chess keeps one (its tags, its start, and the moves before the error, with their
/// comments: the text before the error's line and the longest prefix of that line, word by word, that
/// reads without error and stops before the bad move); otherwise its tags alone, as far as they read.
fn salvage(text: &str, e: &RawPgnError) -> (Option<PgnGame>, Vec<(String, String)>) {
    let Some(ply) = e.ply else { return (None, scan_tags(text)) };
    let line_start = match e.line {
        0 | 1 => Some(0),
        n => text.match_indices('\n').nth(n - 2).map(|(i, _)| i + 1),
    };
    let Some(line_start) = line_start else { return (None, scan_tags(text)) };
    let (before, rest) = text.split_at(line_start);
    let words: Vec<&str> = rest.split('\n').next().unwrap_or("").split_whitespace().collect();
    let read = |k: usize| read_games(&format!("{before}{}\n*\n", words[..k].join(" "))).next();
    // The game up to the bad move, if the prefix of `k` words reads.
    let kept = |k: usize| match read(k) {
        Some(Ok(game)) if game.moves.len() < ply => Some(game),
        _ => None,
    };
    // Each try reads the text again: a few tries at most, so that a long line of words cannot make this
    // quadratic.
    let best = if is_move_error(&e.kind) {
        // A prefix takes the bad move exactly when it is longer than the words before it: found by
        // bisection (a prefix may fail for another reason, ending inside a comment, but not this one).
        let takes_bad = |k: usize| matches!(read(k), Some(Err(err)) if is_move_error(&err.kind) && err.ply.is_some_and(|p| p >= ply));
        let (mut lo, mut hi) = (0, words.len() + 1);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if takes_bad(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        (0..=lo).rev().take(SALVAGE_TRIES).find_map(kept)
    } else {
        // The longest prefix that reads, word by word from the longest.
        (0..=words.len()).rev().take(SALVAGE_TRIES).find_map(kept)
    };
    match best {
        Some(game) => (Some(game), Vec::new()),
        None => (None, scan_tags(text)),
    }
}

/// The tag pairs at the start of a game's text, as far as they read: for a game whose tags or start
/// position could not be read, so that its headers still say which game it was.
fn scan_tags(text: &str) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if trimmed.is_empty() || line.starts_with('%') {
            continue;
        }
        if !trimmed.starts_with('[') {
            break;
        }
        let mut rest = trimmed;
        while let Some(r) = rest.trim_start().strip_prefix('[') {
            let r = r.trim_start();
            let name_len = r.find(|c: char| c.is_whitespace() || c == '"' || c == ']').unwrap_or(r.len());
            let (name, r) = r.split_at(name_len);
            let Some(r) = r.trim_start().strip_prefix('"') else { break };
            let mut value = String::new();
            let mut end = None;
            let mut chars = r.char_indices();
            while let Some((i, c)) = chars.next() {
                match c {
                    '"' => {
                        end = Some(i + 1);
                        break;
                    }
                    '\\' => match chars.next() {
                        Some((_, n @ ('"' | '\\'))) => value.push(n),
                        Some((_, n)) => {
                            value.push('\\');
                            value.push(n);
                        }
                        None => value.push('\\'),
                    },
                    '\t' | '\r' => value.push(' '),
                    c => value.push(c),
                }
            }
            let Some(end) = end else { break };
            let Some(r) = r[end..].trim_start().strip_prefix(']') else { break };
            if valid_tag_name(name) {
                tags.push((name.to_string(), value));
            }
            rest = r;
        }
    }
    tags
}

/// The record of a game with these tags and no moves: its start as the tags say (`Variant`, `FEN`), its
/// result the `Result` tag's.
fn record_from_tags(tags: &[(String, String)]) -> Result<PgnGame, RawPgnError> {
    let mut text = String::new();
    for (name, value) in tags {
        if !valid_tag_name(name) {
            return Err(RawPgnError {
                game: 1,
                line: 1,
                ply: None,
                kind: PgnErrorKind::Tag(
                    "a tag name starts with a letter or digit and holds only letters, digits and _+#=:-",
                ),
            });
        }
        text.push('[');
        text.push_str(name);
        text.push_str(" \"");
        for c in value.chars() {
            match c {
                '"' | '\\' => {
                    text.push('\\');
                    text.push(c);
                }
                '\n' | '\r' => text.push(' '),
                c => text.push(c),
            }
        }
        text.push_str("\"]\n");
    }
    text.push_str("\n*\n");
    match read_games(&text).next() {
        Some(Ok(mut game)) => {
            game.tags = tags.to_vec();
            Ok(game)
        }
        Some(Err(e)) => Err(e),
        None => Err(RawPgnError { game: 1, line: 1, ply: None, kind: PgnErrorKind::NoGame }),
    }
}

/// The exception class of a PGN error: python-chess's move exceptions for a move that does not read,
/// FenError for the `FEN` tag, PgnError for the rest.
fn error_type<'py>(py: Python<'py>, kind: &PgnErrorKind) -> Bound<'py, PyType> {
    match kind {
        PgnErrorKind::Move(SanError::Syntax(_) | SanError::WrongBoard { .. }) => py.get_type::<InvalidMoveError>(),
        PgnErrorKind::Move(SanError::Ambiguous { .. }) => py.get_type::<AmbiguousMoveError>(),
        PgnErrorKind::Move(_) | PgnErrorKind::NullMove(_) => py.get_type::<IllegalMoveError>(),
        PgnErrorKind::MoveText(MoveError::Text { .. } | MoveError::WrongDims { .. } | MoveError::OffBoard { .. }) => {
            py.get_type::<InvalidMoveError>()
        }
        PgnErrorKind::MoveText(_) => py.get_type::<IllegalMoveError>(),
        PgnErrorKind::Fen { .. } => py.get_type::<FenError>(),
        _ => py.get_type::<PgnError>(),
    }
}

/// The exception instance for a bad game, with its `game`, `line` and `ply` attributes.
fn exception(py: Python<'_>, bad: &BadGame) -> PyResult<Py<PyAny>> {
    let value = error_type(py, &bad.kind).call1((bad.message.as_str(),))?;
    value.setattr("game", bad.game)?;
    value.setattr("line", bad.line)?;
    value.setattr("ply", bad.ply)?;
    Ok(value.unbind())
}

/// A game read, as Python receives it: the record (None when its start could not be read), the tags
/// read when there is no record, and the error that stopped it (None for a good game).
type PyItem = (Option<Py<PgnRecord>>, Option<Vec<(String, String)>>, Option<Py<PyAny>>);

fn item_to_py(py: Python<'_>, item: Item) -> PyResult<PyItem> {
    match item {
        Item::Game(game) => Ok((Some(Py::new(py, PgnRecord { game })?), None, None)),
        Item::Bad(bad) => {
            let error = exception(py, &bad)?;
            let BadGame { salvaged, tags, .. } = bad;
            match salvaged {
                Some(game) => Ok((Some(Py::new(py, PgnRecord { game })?), None, Some(error))),
                None => Ok((None, Some(tags), Some(error))),
            }
        }
    }
}

/// A game record read from PGN or made from a board: tesseract-movegen's `PgnGame` (tags, start position,
/// moves with their comments, NAGs and variations as raw text, result). Immutable; `tesseract.pgn.Game`
/// wraps it and keeps the changes made from Python (headers, comments, NAGs) until it writes.
#[pyclass(module = "tesseract._tesseract", name = "PgnRecord", frozen)]
pub(crate) struct PgnRecord {
    game: PgnGame,
}

impl PgnRecord {
    /// The positions before each move, with each move: calls `f(position, index)` before playing it.
    fn replay(&self, mut f: impl FnMut(&Position, usize)) {
        let mut pos = self.game.start.clone();
        for (i, pm) in self.game.moves.iter().enumerate() {
            f(&pos, i);
            let _ = pos.make(pm.mv);
        }
    }
}

/// The exception for a game record that cannot be written.
fn write_error(e: &PgnWriteError) -> PyErr {
    match e {
        PgnWriteError::IllegalMove { error, .. } => san_error(error),
        _ => PyValueError::new_err(e.to_string()),
    }
}

#[pymethods]
impl PgnRecord {
    /// The record of a board's game: its start position (the root) and every move pushed, the seven tags
    /// of the roster (unknown values), `Variant`, `SetUp` and `FEN` when the start needs them, and the
    /// result when the game is over (checkmate, stalemate, insufficient material, the 75-move rule,
    /// fivefold repetition: python-chess's `board.result()`), `*` otherwise.
    #[staticmethod]
    fn from_board(board: PyRef<'_, Board>) -> PgnRecord {
        let game = board.game();
        let mut record = PgnGame::from_moves(game.start().clone(), game.moves().iter().copied());
        record.result = GameResult::from(stack::ample(|| game.rules().end(Claims::empty())));
        record.set_tag("Result", record.result.as_str());
        PgnRecord { game: record }
    }

    /// The record of a game with these tags and no moves, starting where `Variant` and `FEN` say.
    ///
    /// Raises FenError for a `FEN` tag that is not a valid position, PgnError for an unknown variant or
    /// a tag name PGN cannot hold.
    #[staticmethod]
    fn from_tags(py: Python<'_>, tags: Vec<(String, String)>) -> PyResult<PgnRecord> {
        match stack::ample(|| record_from_tags(&tags)) {
            Ok(game) => Ok(PgnRecord { game }),
            Err(e) => {
                let kind_message = e.kind.to_string();
                let value = error_type(py, &e.kind).call1((kind_message,))?;
                Err(PyErr::from_value(value))
            }
        }
    }

    /// The tag pairs, in the order read.
    fn tags(&self) -> Vec<(String, String)> {
        self.game.tags.clone()
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2` or `*` (the `Result` tag's, or the movetext's where the tag is
    /// missing or `*`).
    #[getter]
    fn result(&self) -> &'static str {
        self.game.result.as_str()
    }

    /// The comments before the first move.
    fn comments(&self) -> Vec<String> {
        self.game.comments.clone()
    }

    /// The number of moves of the main line.
    fn __len__(&self) -> usize {
        self.game.moves.len()
    }

    /// The start position, as a new Board.
    fn start(&self) -> Board {
        Board::from_position(self.game.start.clone())
    }

    /// The board after the first `ply` moves (0: the start), with those moves on its stack.
    ///
    /// Raises IndexError when the game has fewer moves.
    fn board_at(&self, ply: usize) -> PyResult<Board> {
        let moves =
            self.game.moves.get(..ply).ok_or_else(|| {
                PyIndexError::new_err(format!("ply {ply}: the game has {} moves", self.game.moves.len()))
            })?;
        Board::with_moves(self.game.start.clone(), moves.iter().map(|m| m.mv))
    }

    /// The moves of the main line.
    fn moves(&self) -> Vec<PyMove> {
        let mut out = Vec::with_capacity(self.game.moves.len());
        self.replay(|pos, i| out.push(PyMove::new(self.game.moves[i].mv, pos)));
        out
    }

    /// Each move of the main line with its comments, NAGs and variations (raw text).
    #[allow(clippy::type_complexity)]
    fn nodes(&self) -> Vec<(PyMove, Vec<String>, Vec<u32>, Vec<String>)> {
        let mut out = Vec::with_capacity(self.game.moves.len());
        self.replay(|pos, i| {
            let pm = &self.game.moves[i];
            let nags = pm.nags.iter().map(|&n| u32::from(n)).collect();
            out.push((PyMove::new(pm.mv, pos), pm.comments.clone(), nags, pm.variations.clone()));
        });
        out
    }

    /// Each move of the main line in algebraic notation with its check mark (`Nf3`, `O-O`, `Qxf7#`; the
    /// long form `Y2213-2313` on boards of one, three and four axes).
    fn sans(&self) -> PyResult<Vec<String>> {
        stack::ample(|| {
            let mut pos = self.game.start.clone();
            self.game
                .moves
                .iter()
                .map(|pm| SanPlus::from_move_and_play(&mut pos, pm.mv).map(|s| s.to_string()))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(|e| san_error(&e))
    }

    /// The game in PGN export format (tesseract-movegen's writer): the tags one a line, a blank line, the
    /// movetext wrapped at `columns` (None: one line), the result. `tags`, `result`, `comments` (before
    /// the first move) and `annotations` (one `(comments, nags, variations)` a move) replace the
    /// record's own when given. `notation`: `auto` (SAN in 2D, move texts such as `22132313` on other
    /// boards), `san` (SAN, or the long form `Y2213-2313`), `text` (UCI in 2D, move texts elsewhere).
    ///
    /// Raises ValueError for a tag name PGN cannot hold, an unknown notation, a NAG outside 0 to 255 or
    /// annotations of another number of moves.
    #[pyo3(signature = (*, tags=None, result=None, comments=None, annotations=None, columns=Some(80), notation="auto", write_comments=true, write_variations=true))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn to_pgn(
        &self,
        tags: Option<Vec<(String, String)>>,
        result: Option<&str>,
        comments: Option<Vec<String>>,
        annotations: Option<Vec<(Vec<String>, Vec<i64>, Vec<String>)>>,
        columns: Option<usize>,
        notation: &str,
        write_comments: bool,
        write_variations: bool,
    ) -> PyResult<String> {
        let notation = match notation {
            "auto" => Notation::Auto,
            "san" => Notation::San,
            "text" => Notation::Text,
            other => {
                return Err(PyValueError::new_err(format!(
                    "notation: expected \"auto\", \"san\" or \"text\", not {other:?}"
                )));
            }
        };
        let mut game = self.game.clone();
        if let Some(tags) = tags {
            game.tags = tags;
        }
        if let Some(result) = result {
            game.result = GameResult::parse(result).unwrap_or(GameResult::Unknown);
        }
        if let Some(comments) = comments {
            game.comments = comments;
        }
        if let Some(annotations) = annotations {
            if annotations.len() != game.moves.len() {
                return Err(PyValueError::new_err(format!(
                    "annotations: expected one for each of the {} moves, not {}",
                    game.moves.len(),
                    annotations.len()
                )));
            }
            for (pm, (comments, nags, variations)) in game.moves.iter_mut().zip(annotations) {
                pm.comments = comments;
                pm.nags = nags
                    .into_iter()
                    .map(|n| u8::try_from(n).map_err(|_| PyValueError::new_err(format!("NAG {n}: expected 0 to 255"))))
                    .collect::<PyResult<_>>()?;
                pm.variations = variations;
            }
        }
        let options = WriteOptions {
            columns: columns.unwrap_or(usize::MAX),
            notation,
            comments: write_comments,
            variations: write_variations,
        };
        stack::ample(|| game.write_with(&options)).map_err(|e| write_error(&e))
    }

    fn __repr__(&self) -> String {
        format!("<PgnRecord: {} moves, {}>", self.game.moves.len(), self.game.result)
    }
}

/// Reads a text file or a binary file's `read(n)` chunk as bytes (UTF-8 for text; text that is not
/// valid Unicode reads as U+FFFD).
fn read_chunk(handle: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<u8>> {
    let data = handle.call_method1("read", (n,))?;
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(s) = data.cast::<PyString>() {
        return Ok(s.to_string_lossy().into_owned().into_bytes());
    }
    Err(PyTypeError::new_err(format!("the PGN source's read() returned {}, not str or bytes", data.get_type().name()?)))
}

/// Every game of a file, read in large chunks (`handle.read(chunk)`, a text or binary file): the games
/// of each chunk are cut apart and read without the GIL, then handed out one by one as
/// `(record, tags, error)` (see `pgn_parse`). Reads ahead of the game it returns.
#[pyclass(module = "tesseract._tesseract", name = "PgnStream")]
pub(crate) struct PgnStream {
    handle: Py<PyAny>,
    chunk: usize,
    splitter: Splitter,
    ready: VecDeque<Item>,
    /// The games read so far (good and bad), which numbers the next one.
    games: usize,
    done: bool,
}

#[pymethods]
impl PgnStream {
    /// A stream of the games of `handle`, an object with `read(n)` returning str or bytes, read `chunk`
    /// characters (or bytes) at a time (at least 1; by default 256 Ki).
    #[new]
    #[pyo3(signature = (handle, chunk=DEFAULT_CHUNK))]
    fn new(handle: Bound<'_, PyAny>, chunk: usize) -> PyResult<PgnStream> {
        if !handle.hasattr("read")? {
            return Err(PyTypeError::new_err(format!(
                "a PGN source is a file object with read(), not {}",
                handle.get_type().name()?
            )));
        }
        if chunk == 0 {
            return Err(PyValueError::new_err("chunk: expected a positive size"));
        }
        Ok(PgnStream {
            handle: handle.unbind(),
            chunk,
            splitter: Splitter::new(),
            ready: VecDeque::new(),
            games: 0,
            done: false,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next game as `(record, tags, error)`; StopIteration at the end of the file. An exception the
    /// file's `read` raises is raised here.
    fn __next__(slf: &Bound<'_, Self>) -> PyResult<Option<PyItem>> {
        let py = slf.py();
        // Another thread (or the file's own `read`) using the stream while this call reads is refused,
        // not a panic: the GIL is released while a chunk is read.
        let mut this = slf
            .try_borrow_mut()
            .map_err(|_| PyRuntimeError::new_err("this PGN stream is already being read (by another thread?)"))?;
        loop {
            if let Some(item) = this.ready.pop_front() {
                return item_to_py(py, item).map(Some);
            }
            if this.done {
                return Ok(None);
            }
            let data = read_chunk(this.handle.bind(py), this.chunk)?;
            let eof = data.is_empty();
            let this = &mut *this;
            let (splitter, ready, games) = (&mut this.splitter, &mut this.ready, &mut this.games);
            py.detach(|| {
                for piece in splitter.push(&data, eof) {
                    match piece {
                        Piece::Text(text, first_line) => {
                            let origin = Origin::Stream { games_before: *games, first_line };
                            let items = stack::ample(|| parse_text(&text, origin));
                            *games += items.len();
                            ready.extend(items);
                        }
                        Piece::TooLong(line) => {
                            *games += 1;
                            let kind = PgnErrorKind::GameTooLong { max_bytes: MAX_GAME_BYTES };
                            let message = RawPgnError { game: *games, line, ply: None, kind: kind.clone() }.to_string();
                            ready.push_back(Item::Bad(BadGame {
                                kind,
                                message,
                                game: Some(*games),
                                line,
                                ply: None,
                                salvaged: None,
                                tags: Vec::new(),
                            }));
                        }
                    }
                }
            });
            this.done = eof;
        }
    }
}

/// Finds the end of one game read line by line (for `read_game`), by the streams' rule: `feed(line)` is
/// 0 while the game goes on, 1 when it ends with this line (a result), 2 when it ended before this line
/// (a tag line after movetext: the next game's).
#[pyclass(module = "tesseract._tesseract", name = "PgnLineCut")]
pub(crate) struct PgnLineCut {
    cutter: GameCutter,
}

#[pymethods]
impl PgnLineCut {
    #[new]
    fn new() -> PgnLineCut {
        PgnLineCut { cutter: GameCutter::new() }
    }

    /// Takes the game's next line (with its line end, as `readline()` gives it; characters that are not
    /// valid Unicode, such as a file's `surrogateescape` bytes, read as U+FFFD).
    fn feed(&mut self, line: &Bound<'_, PyString>) -> u8 {
        match self.cutter.scan(line.to_string_lossy().as_bytes()).cut {
            None => 0,
            Some(Cut::AfterLine) => 1,
            Some(Cut::BeforeLine) => 2,
        }
    }

    /// Whether the game's movetext has begun, outside a comment (a tag line would start the next game).
    #[getter]
    fn in_movetext(&self) -> bool {
        self.cutter.in_movetext()
    }
}

/// Reads the games of one game's text (normally one; more when a line holds several), each as
/// `(record, tags, error)`: `(record, None, None)` for a good game; for a bad one the error (an exception
/// instance: IllegalMoveError, AmbiguousMoveError, InvalidMoveError, FenError or PgnError, with `game`,
/// `line` and `ply` attributes, lines counted from the text's first) and either the record salvaged (the
/// tags, the start and the moves before the error) or, when the start could not be read, None and the tags
/// read. Characters that are not valid Unicode (a file's `surrogateescape` bytes) read as U+FFFD.
#[pyfunction]
pub(crate) fn pgn_parse(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<Vec<PyItem>> {
    let text = text.to_string_lossy();
    let items = stack::ample(|| parse_text(text.as_bytes(), Origin::Game));
    items.into_iter().map(|item| item_to_py(py, item)).collect()
}
