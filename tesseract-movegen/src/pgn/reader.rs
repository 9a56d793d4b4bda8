//! Reading games from any `BufRead`: the reader, its parallel form, the parser.

use std::cell::Cell;
use std::collections::VecDeque;
use std::io::BufRead;

use tesseract_board::{Move, Position};

use crate::rules::Legal;

use super::cutter::{Cut, GameCutter, Scan};
use super::lexer::{Lexed, Lexer, Plain, Tok, normalize};
use super::visitor::{GameBuilder, Skip, Visitor};
use super::window::{DEFAULT_AHEAD, Window};
use super::{GameResult, PgnError, PgnErrorKind, PgnGame, Variant, valid_tag_name};

/// How far, from some game on, the games that give way to the cut reading (after telling the visitor
/// something) may outnumber the games read in place since then before a reader reads the rest of its text
/// the cut way alone: a text whose games are rarely plain is then not read twice over.
const GIVE_UP: u32 = 16;

/// The most bytes of one game's text a [`PgnReader`] holds, unless [`PgnReader::max_game_bytes`] says
/// otherwise: 16 MiB, as much as the whole files the workspace's `play` example reads, far more than any
/// annotated game needs.
pub const DEFAULT_MAX_GAME_BYTES: usize = 16 << 20;

/// The largest buffer a [`PgnReader`] keeps for the next game's text when a game is done (64 KiB).
const SPARE_BYTES: usize = 64 << 10;

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

/// Reads the games of a PGN text from any `BufRead`, one `Result` per game (see the [module](super)).
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
    source: Window<R>,
    /// The text ahead a game is read in place from, when the cutter stands at a game's start (see
    /// [`PgnReader::read_in_place`]).
    ahead: usize,
    /// The calls a game read in place made before it gave way to the cut reading, which reads the game
    /// again without making them twice.
    told: Option<Told>,
    /// How far games that gave way (after telling the visitor something) outnumber games read in place,
    /// from the last game where they did not: at [`GIVE_UP`], the rest of the text is read the cut way.
    gave_way: u32,
    /// The games read in place so far.
    in_place: u64,
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
    /// Game texts cut off and errors, in the order of the text.
    pending: VecDeque<Pending>,
    /// The game text being parsed, if any.
    current: Option<Current>,
    /// The position the parser plays the moves on, its buffers kept from game to game.
    scratch: Option<Position>,
    games: usize,
    keep_variations: bool,
    /// Whether the movetext is read (moves resolved), or only the tags and the result.
    movetext: bool,
    done: bool,
}

/// A game text being parsed: the games in it are read one per call.
struct Current {
    text: String,
    /// Where the next game's first token is looked for, and its line.
    at: usize,
    line: usize,
}

/// What the games of the iterator hold: variations' text, the movetext.
#[derive(Copy, Clone, Debug)]
struct ReadOptions {
    keep_variations: bool,
    movetext: bool,
}

impl ReadOptions {
    fn builder(self) -> GameBuilder {
        GameBuilder::with(self.keep_variations, self.movetext)
    }
}

/// What a [`PgnReader`] has cut off: a game's text to parse (it may hold several untagged games), or an
/// error of reading (its game numbered when it is handed out).
enum Pending {
    Text { text: Vec<u8>, first_line: usize },
    Error { line: usize, kind: PgnErrorKind },
}

/// A game text as a string: valid UTF-8 (nearly always) taken as it is, invalid bytes read as U+FFFD.
fn into_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

impl Current {
    /// The next game of the text, numbered `number`, told to `visitor` and played on `pos`: `None` when the
    /// text holds no more. After an error, the rest of the failed game is skipped.
    fn next_game<V: Visitor>(
        &mut self,
        number: usize,
        visitor: &mut V,
        pos: &mut Option<Position>,
    ) -> Option<Result<V::Output, PgnError>> {
        let mut parser = Parser { lex: Lexer::new(&self.text, self.at, self.line), peeked: None, strict: None };
        let read = parser.game(number, visitor, pos);
        if read.is_err() {
            parser.skip_game();
        }
        debug_assert!(parser.peeked.is_none(), "a game ends on a token it read");
        (self.at, self.line) = parser.lex.at();
        read.transpose()
    }
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
            source: Window::new(source),
            ahead: DEFAULT_AHEAD,
            told: None,
            gave_way: 0,
            in_place: 0,
            splitter: GameCutter::new(),
            chunk: Vec::new(),
            spare: Vec::new(),
            first_line: 1,
            line_start: 0,
            skipping: false,
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            pending: VecDeque::new(),
            current: None,
            scratch: None,
            games: 0,
            keep_variations: true,
            movetext: true,
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

    /// How much text ahead the reader keeps to read games in place (32 KiB by default; `0` reads every game
    /// the cut way). A game is read in place, straight from the reader's buffer, when it is a plain one
    /// (tag lines, movetext of moves, move numbers, NAGs, comments in braces and variations, a result at
    /// the end of its line) within the text ahead: that saves a pass over its bytes to find where it ends.
    /// Any other game is cut out of the text first (see [`GameCutter`]) and then read; when, from some game
    /// on, the games that gave way after the visitor was told something outnumber those read in place
    /// since then by 16, the rest of the text is read the cut way alone ([`PgnReader::games_read_in_place`]
    /// counts the others). Both ways give the same games and errors and tell a visitor the same
    /// calls, with one exception: a game whose cut reading ends in an error of reading (over the cap, or an
    /// error of the source) may have been told its first calls before that error. The option is for
    /// measuring and testing the two ways; the default suits any text.
    ///
    /// # Examples
    /// ```
    /// use tesseract_movegen::pgn::PgnReader;
    /// let text = "[Event \"a\"]\n1. e4 e5 1-0\n1. d4 { a note\n; not a comment } d5 *\n";
    /// let in_place: Vec<_> = PgnReader::new(text.as_bytes()).collect();
    /// let cut: Vec<_> = PgnReader::new(text.as_bytes()).read_ahead(0).collect();
    /// assert_eq!(in_place, cut);
    /// assert_eq!(in_place.len(), 2);
    /// ```
    #[must_use]
    pub fn read_ahead(mut self, bytes: usize) -> PgnReader<R> {
        self.ahead = bytes;
        self
    }

    /// How many of the games read so far were read in place ([`PgnReader::read_ahead`]); the others were
    /// cut out of the text first. A measure of how plain a text is, for tuning and testing.
    ///
    /// # Examples
    /// ```
    /// use tesseract_movegen::pgn::PgnReader;
    /// // The second game has a `;` comment, which the cutter reads its own way.
    /// let text = "1. e4 e5 1-0\n1. d4 d5 ; a comment\n*\n1. c4 *\n";
    /// let mut reader = PgnReader::new(text.as_bytes());
    /// assert_eq!(reader.by_ref().count(), 3);
    /// assert_eq!(reader.games_read_in_place(), 2);
    /// ```
    pub fn games_read_in_place(&self) -> u64 {
        self.in_place
    }

    fn options(&self) -> ReadOptions {
        ReadOptions { keep_variations: self.keep_variations, movetext: self.movetext }
    }

    /// Queues the game text held (if any besides white space) and starts the next one on `next_line`.
    fn end_chunk(&mut self, rest: Vec<u8>, next_line: usize) {
        let chunk = std::mem::replace(&mut self.chunk, rest);
        let first = std::mem::replace(&mut self.first_line, next_line);
        self.line_start = 0;
        if chunk.iter().all(u8::is_ascii_whitespace) {
            self.recycle(chunk);
        } else {
            self.pending.push_back(Pending::Text { text: chunk, first_line: first });
        }
    }

    /// Keeps a game text's buffer for the next game, unless a long game made it large.
    fn recycle(&mut self, mut buffer: Vec<u8>) {
        if buffer.capacity() <= SPARE_BYTES && buffer.capacity() > self.spare.capacity() {
            buffer.clear();
            self.spare = buffer;
        }
    }

    /// The next game of the text, told to `visitor` as it is read (see [`Visitor`]): what
    /// [`Visitor::end_game`] gives, or the game's error; `None` at the end of the text. The games (and
    /// errors) are the same, in the same order and numbered the same, as the iterator gives them.
    ///
    /// # Examples
    /// Tags only, the moves skipped (neither resolved nor checked):
    /// ```
    /// use tesseract_board::Position;
    /// use tesseract_movegen::pgn::{GameResult, PgnReader, Skip, Visitor};
    ///
    /// #[derive(Default)]
    /// struct Players(Vec<String>);
    ///
    /// impl Visitor for Players {
    ///     type Output = (Vec<String>, GameResult);
    ///     fn begin_game(&mut self) {
    ///         self.0.clear();
    ///     }
    ///     fn tag(&mut self, name: &str, value: &str) {
    ///         if name == "White" || name == "Black" {
    ///             self.0.push(value.to_string());
    ///         }
    ///     }
    ///     fn begin_movetext(&mut self, _: &Position) -> Skip {
    ///         Skip(true)
    ///     }
    ///     fn end_game(&mut self, result: GameResult) -> Self::Output {
    ///         (std::mem::take(&mut self.0), result)
    ///     }
    /// }
    ///
    /// let text = "[White \"Ann\"]\n[Black \"Bo\"]\n1. e4 Ke7 0-1\n";
    /// let mut reader = PgnReader::new(text.as_bytes());
    /// let (players, result) = reader.read_game(&mut Players::default()).unwrap()?;
    /// assert_eq!((players, result), (vec!["Ann".to_string(), "Bo".to_string()], GameResult::BlackWins));
    /// assert!(reader.read_game(&mut Players::default()).is_none());
    /// # Ok::<_, tesseract_movegen::pgn::PgnError>(())
    /// ```
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> Option<Result<V::Output, PgnError>> {
        loop {
            if let Some(current) = &mut self.current {
                let read = match self.told.take() {
                    Some(told) => {
                        let mut muted = Gated { inner: &mut *visitor, gate: Gate::Mute(told) };
                        let read = current.next_game(self.games + 1, &mut muted, &mut self.scratch);
                        // The cut reading reads on past every call the reading in place made, to the game's end.
                        debug_assert!(!matches!(read, Some(Ok(None))), "a game read again never told its end");
                        read.and_then(Result::transpose)
                    }
                    None => current.next_game(self.games + 1, visitor, &mut self.scratch),
                };
                match read {
                    Some(read) => {
                        self.games += 1;
                        return Some(read);
                    }
                    None => {
                        let done = self.current.take().map(|c| c.text.into_bytes()).unwrap_or_default();
                        self.recycle(done);
                    }
                }
            }
            match self.pending.pop_front() {
                Some(Pending::Text { text, first_line }) => {
                    self.current = Some(Current { text: into_text(text), at: 0, line: first_line });
                }
                Some(Pending::Error { line, kind }) => {
                    // A game that gave way to the cut reading may fail there (over the cap, or the source's
                    // error): it ends here.
                    self.told = None;
                    self.games += 1;
                    return Some(Err(PgnError { game: self.games, line, ply: None, kind }));
                }
                None if self.done => return None,
                None if self.ahead > 0 && self.gave_way < GIVE_UP && self.told.is_none() && self.at_game_start() => {
                    match self.read_in_place(visitor) {
                        InPlace::Game(read) => {
                            self.in_place += u64::from(read.is_some());
                            self.gave_way = self.gave_way.saturating_sub(1);
                            return read;
                        }
                        InPlace::Cut(told) => {
                            self.gave_way += u32::from(told.is_some());
                            self.told = told;
                            self.read_some();
                        }
                    }
                }
                None => self.read_some(),
            }
        }
    }

    /// Whether the next game's text starts afresh where the source stands: no text held, the cutter at a
    /// game's start.
    fn at_game_start(&self) -> bool {
        self.chunk.is_empty() && !self.skipping && self.splitter.at_game_start()
    }

    /// Reads the next game where it stands in the text ahead, without cutting it out first: the cutter's
    /// pass over the bytes is saved when the game is one whose end the reading itself tells exactly. That
    /// is a game of plain tag lines (`[Name "value"]` alone on one line) and movetext of moves, move
    /// numbers, NAGs, comments in braces and variations, that ends with a result alone at the end of its
    /// line (or at the end of the source), within the text ahead and the cap: the cutter would cut it just
    /// there. Anything else (another token, an error, the end of the text ahead) makes the reading give
    /// way, before telling the visitor anything of it; the cut reading then reads the game again, and
    /// [`Gate::Mute`] keeps the visitor from being told twice what it was told.
    fn read_in_place<V: Visitor>(&mut self, visitor: &mut V) -> InPlace<V::Output> {
        let line = self.splitter.line();
        // No more text ahead than a game may take (so that no setting reads the whole source in).
        let (ahead, last) = self.source.ahead(self.ahead.min(self.max_game_bytes.saturating_add(1)));
        let mut end = ahead.len().min(self.max_game_bytes);
        while !ahead.is_char_boundary(end) {
            end -= 1;
        }
        let last = last && end == ahead.len();
        let stopped = Cell::new(false);
        let mut told = Told { calls: 0, skip: None };
        let mut watched = Gated { inner: visitor, gate: Gate::Watch { stopped: &stopped, told: &mut told } };
        let strict = Strict { last, stopped: &stopped, tags_read: false };
        let mut parser = Parser { lex: Lexer::new(&ahead[..end], 0, line), peeked: None, strict: Some(strict) };
        let read = parser.game(self.games + 1, &mut watched, &mut self.scratch);
        if stopped.get() {
            return InPlace::Cut(Some(told).filter(|t| t.calls > 0));
        }
        let (consumed, next_line) = match read {
            Err(_) => return InPlace::Cut(Some(told).filter(|t| t.calls > 0)),
            // No game in the rest of the source.
            Ok(None) => {
                let (at, line) = parser.lex.at();
                debug_assert!(last && at == end);
                (at, line)
            }
            // The parser checked that the line ends after the result (`Parser::ends_game`).
            Ok(Some(_)) => match parser.lex.blank_to_line_end() {
                Some((at, true)) => (at, parser.lex.at().1 + 1),
                Some((at, false)) => (at, parser.lex.at().1),
                None => unreachable!("a game read in place ends its line"),
            },
        };
        let output = match read {
            Ok(Some(output)) => output,
            _ => None,
        };
        self.source.consume_text(consumed);
        self.splitter.skip_lines(next_line - line);
        self.first_line = next_line;
        match output {
            Some(output) => {
                self.games += 1;
                InPlace::Game(Some(Ok(output)))
            }
            None => {
                self.done = true;
                InPlace::Game(None)
            }
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
                let error = Pending::Error { line: self.splitter.line(), kind: PgnErrorKind::Io(e.to_string()) };
                self.pending.push_back(error);
                return;
            }
        };
        if buf.is_empty() {
            self.done = true;
            if !self.skipping {
                self.end_chunk(Vec::new(), self.splitter.line());
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
        let line = self.splitter.line();
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
            let kind = PgnErrorKind::GameTooLong { max_bytes: self.max_game_bytes };
            self.pending.push_back(Pending::Error { line: self.first_line, kind });
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
        let mut builder = self.options().builder();
        self.read_game(&mut builder)
    }
}

/// The games of a [`PgnReader`] parsed on every core ([`PgnReader::parallel`], or told to copies of a
/// visitor with [`PgnReader::parallel_visit`]): the same items in the same order as the reader gives them,
/// games numbered the same in errors.
#[cfg(feature = "parallel")]
pub struct ParallelGames<R, V: Visitor = GameBuilder> {
    reader: PgnReader<R>,
    /// Copied for each game text parsed.
    visitor: V,
    ready: VecDeque<Result<V::Output, PgnError>>,
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
    pub fn parallel(self) -> ParallelGames<R> {
        let builder = self.options().builder();
        self.parallel_visit(builder)
    }

    /// As [`PgnReader::parallel`], each game told to a copy of `visitor` (a fresh copy for each game text
    /// cut from the file, so the copies share nothing): what [`PgnReader::read_game`] gives, in the same
    /// order, read on every core.
    ///
    /// # Examples
    /// ```
    /// use tesseract_movegen::pgn::{GameResult, PgnReader, Visitor};
    ///
    /// #[derive(Clone)]
    /// struct Plies(usize);
    ///
    /// impl Visitor for Plies {
    ///     type Output = (usize, GameResult);
    ///     fn begin_game(&mut self) {
    ///         self.0 = 0;
    ///     }
    ///     fn play(&mut self, _: &tesseract_board::Position, _: tesseract_board::Move) {
    ///         self.0 += 1;
    ///     }
    ///     fn end_game(&mut self, result: GameResult) -> Self::Output {
    ///         (self.0, result)
    ///     }
    /// }
    ///
    /// let text = "1. e4 e5 *\n1. d4 Kd7 2. Ke3 *\n1. c4 c5 2. Nc3 1/2-1/2\n";
    /// let all: Vec<_> = PgnReader::new(text.as_bytes()).parallel_visit(Plies(0)).collect();
    /// assert_eq!(all[0], Ok((2, GameResult::Unknown)));
    /// assert_eq!(all[1].as_ref().unwrap_err().game, 2);
    /// assert_eq!(all[2], Ok((3, GameResult::Draw)));
    /// ```
    pub fn parallel_visit<V>(mut self, visitor: V) -> ParallelGames<R, V>
    where
        V: Visitor + Clone + Send + Sync,
        V::Output: Send,
    {
        // The games left in a text being read, read here.
        let mut ready = VecDeque::new();
        let mut first = visitor.clone();
        while let Some(current) = &mut self.current {
            match current.next_game(self.games + 1, &mut first, &mut self.scratch) {
                Some(read) => {
                    self.games += 1;
                    ready.push_back(read);
                }
                None => self.current = None,
            }
        }
        let numbered = self.games;
        ParallelGames { reader: self, visitor, ready, next: Vec::new(), numbered }
    }
}

#[cfg(feature = "parallel")]
impl<R, V> ParallelGames<R, V>
where
    R: BufRead + Send,
    V: Visitor + Clone + Send + Sync,
    V::Output: Send,
{
    /// Reads the next batch of game texts, parses them in parallel, and queues the results in order.
    fn fill(&mut self) {
        let batch = match std::mem::take(&mut self.next) {
            batch if batch.is_empty() => next_batch(&mut self.reader),
            batch => batch,
        };
        if batch.is_empty() {
            return;
        }
        // The batch parsed on the pool while the next one is split from the text.
        let (reader, visitor) = (&mut self.reader, &self.visitor);
        let (parsed, next) = rayon::join(|| parse_batch(batch, visitor), || next_batch(reader));
        self.next = next;
        for mut result in parsed.into_iter().flatten() {
            self.numbered += 1;
            if let Err(e) = &mut result {
                e.game = self.numbered;
            }
            self.ready.push_back(result);
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

/// A batch's game texts parsed on every core, each by a copy of `visitor`, in order (each text's games
/// numbered from 1).
#[cfg(feature = "parallel")]
fn parse_batch<V>(batch: Vec<Pending>, visitor: &V) -> Vec<Vec<Result<V::Output, PgnError>>>
where
    V: Visitor + Clone + Sync,
    V::Output: Send,
{
    use rayon::prelude::*;
    batch
        .into_par_iter()
        .map(|item| match item {
            Pending::Text { text, first_line } => {
                let mut current = Current { text: into_text(text), at: 0, line: first_line };
                let (mut visitor, mut scratch) = (visitor.clone(), None);
                std::iter::from_fn(|| current.next_game(1, &mut visitor, &mut scratch)).collect()
            }
            Pending::Error { line, kind } => vec![Err(PgnError { game: 0, line, ply: None, kind })],
        })
        .collect()
}

#[cfg(feature = "parallel")]
impl<R, V> Iterator for ParallelGames<R, V>
where
    R: BufRead + Send,
    V: Visitor + Clone + Send + Sync,
    V::Output: Send,
{
    type Item = Result<V::Output, PgnError>;

    fn next(&mut self) -> Option<Result<V::Output, PgnError>> {
        // A batch may hold no game (a text of comments alone): read on until one does or the text ends.
        while self.ready.is_empty() && !(self.next.is_empty() && self.reader.done && self.reader.pending.is_empty()) {
            self.fill();
        }
        self.ready.pop_front()
    }
}

/// What a game read in place ([`PgnReader::read_in_place`]) came to: the game (or the end of the source),
/// or giving way to the cut reading, with what the visitor was told before.
enum InPlace<O> {
    Game(Option<Result<O, PgnError>>),
    Cut(Option<Told>),
}

/// How many calls a visitor was told of a game read in place before the reading gave way, and its answer
/// to [`Visitor::begin_movetext`] if it was asked.
#[derive(Copy, Clone, Debug)]
struct Told {
    calls: usize,
    skip: Option<Skip>,
}

/// What lets a visitor's calls through a [`Gated`] visitor.
enum Gate<'c> {
    /// A game read in place: every call passes, counted, until the reading stops (gives way to the cut
    /// reading); after that none does.
    Watch { stopped: &'c Cell<bool>, told: &'c mut Told },
    /// The same game read again the cut way: the calls it was told already do not pass again, and
    /// [`Visitor::begin_movetext`] answers what the visitor answered.
    Mute(Told),
}

/// A visitor that passes on the calls its [`Gate`] lets through; the end of a game that did not pass gives
/// `None`.
struct Gated<'v, 'c, V> {
    inner: &'v mut V,
    gate: Gate<'c>,
}

impl<V> Gated<'_, '_, V> {
    /// Whether a call passes.
    fn on(&mut self) -> bool {
        match &mut self.gate {
            Gate::Watch { stopped, told } => {
                let on = !stopped.get();
                told.calls += usize::from(on);
                on
            }
            Gate::Mute(told) => {
                let muted = told.calls > 0;
                told.calls -= usize::from(muted);
                !muted
            }
        }
    }
}

impl<V: Visitor> Visitor for Gated<'_, '_, V> {
    type Output = Option<V::Output>;

    fn begin_game(&mut self) {
        if self.on() {
            self.inner.begin_game();
        }
    }

    fn tag(&mut self, name: &str, value: &str) {
        if self.on() {
            self.inner.tag(name, value);
        }
    }

    fn begin_movetext(&mut self, start: &Position) -> Skip {
        if !self.on() {
            return match &self.gate {
                Gate::Watch { .. } => Skip(true),
                Gate::Mute(told) => told.skip.unwrap_or_default(),
            };
        }
        let skip = self.inner.begin_movetext(start);
        if let Gate::Watch { told, .. } = &mut self.gate {
            told.skip = Some(skip);
        }
        skip
    }

    fn play(&mut self, before: &Position, m: Move) {
        if self.on() {
            self.inner.play(before, m);
        }
    }

    fn reached(&mut self, after: &Position) {
        if self.on() {
            self.inner.reached(after);
        }
    }

    fn comment(&mut self, text: &str) {
        if self.on() {
            self.inner.comment(text);
        }
    }

    fn nag(&mut self, nag: u8) {
        if self.on() {
            self.inner.nag(nag);
        }
    }

    fn wants_variations(&self) -> bool {
        self.inner.wants_variations()
    }

    fn variation(&mut self, raw: &str) {
        if self.on() {
            self.inner.variation(raw);
        }
    }

    fn end_game(&mut self, result: GameResult) -> Option<V::Output> {
        self.on().then(|| self.inner.end_game(result))
    }
}

/// The watch a parser keeps while it reads a game in place: whether its text is the last of the source,
/// and where it says it stopped (and gave way to the cut reading).
struct Strict<'c> {
    last: bool,
    stopped: &'c Cell<bool>,
    /// The tags are read: a bracket or a string now is one the cutter may read otherwise (a `[` leading
    /// its line ends the game for it, whatever the parser makes of it).
    tags_read: bool,
}

struct Parser<'a> {
    lex: Lexer<'a>,
    peeked: Option<Lexed<'a>>,
    /// Reading a game in place: every token is checked to be one the cutter reads as the lexer does.
    strict: Option<Strict<'a>>,
}

impl<'a> Parser<'a> {
    #[inline]
    fn next(&mut self) -> Option<Lexed<'a>> {
        match self.peeked.take() {
            Some(t) => Some(t),
            None => {
                let t = self.lex.next_token();
                self.checked(t)
            }
        }
    }

    #[inline]
    fn peek(&mut self) -> Option<&Lexed<'a>> {
        if self.peeked.is_none() {
            let t = self.lex.next_token();
            self.peeked = self.checked(t);
        }
        self.peeked.as_ref()
    }

    /// A token just read, or `None` when reading in place stops at it (see [`PgnReader::read_in_place`]):
    /// after an error, at a token the cutter reads its own way or may read on (one that touches the end
    /// of the text ahead), at the end of that text unless the source ends there; among the tags, a `[`
    /// that is not the first token of its line, a `]` with more after it on its line; after the tags, any
    /// bracket or string. Once stopped, every token is `None`.
    #[inline(always)]
    fn checked(&mut self, t: Option<Lexed<'a>>) -> Option<Lexed<'a>> {
        let Some(strict) = &self.strict else { return t };
        let stop = self.stops()
            || match &t {
                None | Some(Err(_)) => !strict.last || t.is_some(),
                Some(Ok((Tok::LBracket | Tok::RBracket | Tok::Str(_), _))) if strict.tags_read => true,
                Some(Ok((Tok::LBracket, _))) => !self.lex.leads_its_line(self.lex.at().0 - 1),
                Some(Ok((Tok::RBracket, _))) => self.lex.blank_to_line_end().is_none(),
                Some(Ok(_)) => false,
            };
        if stop {
            return self.stop();
        }
        t
    }

    /// Whether reading in place stops at the token just read, whatever it is: it stopped before, or the
    /// lexer read past something the cutter reads its own way, or to the end of the text ahead.
    #[inline(always)]
    fn stops(&self) -> bool {
        self.strict
            .as_ref()
            .is_some_and(|strict| strict.stopped.get() || self.lex.unusual || (self.lex.at_end() && !strict.last))
    }

    /// Stops reading in place: no more tokens.
    #[cold]
    fn stop<T>(&self) -> Option<T> {
        if let Some(strict) = &self.strict {
            strict.stopped.set(true);
        }
        None
    }

    /// A game just read its result: when it is read in place, the reading stops unless nothing follows the
    /// result on its line (the cutter cuts after that line alone).
    fn ends_game(&mut self) {
        if let Some(strict) = &self.strict
            && self.lex.blank_to_line_end().is_none_or(|(_, newline)| !newline && !strict.last)
        {
            strict.stopped.set(true);
        }
    }

    /// The next token of movetext and its line, move numbers read past: moves straight from the lexer
    /// (nearly all of a movetext), anything else as a token; `None` at the end of the text.
    #[inline]
    fn movetext_token(&mut self) -> Option<Lexed<'a>> {
        loop {
            let plain = if self.peeked.is_none() { self.lex.plain() } else { None };
            return match plain {
                Some(_) if self.stops() => self.stop(),
                Some(Plain::Number) => continue,
                Some(Plain::Symbol(s, line)) => Some(Ok((Tok::Symbol(s), line))),
                None => self.next(),
            };
        }
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

    /// The next game, told to `visitor` and played on `scratch` (made from the game's start, its buffers
    /// reused); `None` at the end of the text.
    fn game<V: Visitor>(
        &mut self,
        number: usize,
        visitor: &mut V,
        scratch: &mut Option<Position>,
    ) -> Result<Option<V::Output>, PgnError> {
        let err = |line: usize, ply: Option<usize>, kind| PgnError { game: number, line, ply, kind };
        // Comments before the tags belong to no game; without tags they are the game's first comments.
        let mut leading = Vec::new();
        while let Some(Ok((Tok::Comment(_), _))) = self.peek() {
            if let Some(Ok((Tok::Comment(c), _))) = self.next() {
                leading.push(c);
            }
        }
        let Some(first) = self.peek() else { return Ok(None) };
        visitor.begin_game();
        let first_line = match first {
            Ok((_, line)) => *line,
            Err(e) => e.1,
        };
        // The tags the reader itself reads (the first of each name).
        let (mut variant, mut fen, mut result) = (None, None, None);
        let mut tags = false;
        while let Some(Ok((Tok::LBracket, line))) = self.peek() {
            let line = *line;
            self.next();
            let name = match self.next() {
                Some(Ok((Tok::Symbol(s), _))) if valid_tag_name(s) => s,
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
            // The cutter reads past a tag's first line alone: read in place, a tag is on one line.
            if self.lex.at().1 != line {
                self.stop::<()>();
            }
            visitor.tag(name, &value);
            tags = true;
            let slot = match name {
                "Variant" => &mut variant,
                "FEN" => &mut fen,
                "Result" => &mut result,
                _ => continue,
            };
            if slot.is_none() {
                *slot = Some(value);
            }
        }
        if let Some(strict) = &mut self.strict {
            strict.tags_read = true;
        }
        let variant =
            Variant::from_tag(variant.as_deref()).map_err(|v| err(first_line, None, PgnErrorKind::Variant(v)))?;
        let pos = match (fen, scratch.as_mut()) {
            (Some(fen), _) => scratch.insert(
                variant
                    .position(fen.trim())
                    .map_err(|error| err(first_line, None, PgnErrorKind::Fen { fen: fen.to_string(), error }))?,
            ),
            (None, Some(pos)) => {
                pos.clone_from(variant.start_ref());
                pos
            }
            (None, None) => scratch.insert(variant.start_ref().clone()),
        };
        let tag_result = result.as_deref().and_then(GameResult::parse).filter(|r| *r != GameResult::Unknown);
        let skip = visitor.begin_movetext(pos);
        if skip.0 {
            return self.result_only(visitor, tags, tag_result, number);
        }
        if !tags {
            for c in leading {
                visitor.comment(c);
            }
        }
        let long = pos.shape().dims() != 2;
        let keep_variations = visitor.wants_variations();
        let mut termination = None;
        let mut any = tags;
        let mut plies = 0;
        while let Some(t) = self.movetext_token() {
            let (tok, line) = t.map_err(|e| err(e.1, Some(plies + 1), e.0))?;
            let ply = Some(plies + 1);
            match tok {
                Tok::Symbol(s) => {
                    if let Some(r) = GameResult::parse(s) {
                        termination = Some(r);
                        self.ends_game();
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
                    // The common SAN first, its small answer in registers; anything else (and every error)
                    // through the full reading.
                    let quick = if long { None } else { crate::san::quick_move(pos, s.as_bytes()) };
                    let m = match quick {
                        Some(m) => m,
                        None => movetext_move(pos, s, long).map_err(|kind| err(line, ply, kind))?,
                    };
                    visitor.play(pos, m);
                    let _ = pos.make(m);
                    visitor.reached(pos);
                    plies += 1;
                }
                Tok::Period => {}
                Tok::Comment(c) => visitor.comment(c),
                Tok::Nag(n) => {
                    if plies > 0 {
                        visitor.nag(n);
                    }
                }
                Tok::Open => {
                    let raw = self.variation(line, keep_variations).map_err(|(kind, l)| err(l, ply, kind))?;
                    if plies == 0 {
                        return Err(err(line, ply, PgnErrorKind::VariationBeforeMove));
                    }
                    if keep_variations {
                        visitor.variation(&raw);
                    }
                }
                Tok::Close => return Err(err(line, ply, PgnErrorKind::UnmatchedParenthesis)),
                Tok::Star => {
                    termination = Some(GameResult::Unknown);
                    self.ends_game();
                    break;
                }
                Tok::LBracket => return Err(err(line, ply, PgnErrorKind::Unexpected('['))),
                Tok::RBracket => return Err(err(line, ply, PgnErrorKind::Unexpected(']'))),
                Tok::Str(_) => return Err(err(line, ply, PgnErrorKind::Unexpected('"'))),
            }
        }
        if !any && termination.is_none() {
            return Ok(None);
        }
        Ok(Some(visitor.end_game(tag_result.or(termination).unwrap_or(GameResult::Unknown))))
    }

    /// The movetext of a game read without its moves ([`PgnReader::read_movetext`]): up to its result
    /// outside variations (or the end of its text), which is the game's result unless its tags give one.
    fn result_only<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: bool,
        tag_result: Option<GameResult>,
        number: usize,
    ) -> Result<Option<V::Output>, PgnError> {
        let mut depth = 0usize;
        let mut termination = None;
        // As the full read: a text of comments and NAGs alone, without tags, moves or result, is no game.
        let mut any = tags;
        while let Some(t) = self.movetext_token() {
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
                    self.ends_game();
                    break;
                }
                Tok::Symbol(s) => match GameResult::parse(s) {
                    Some(r) => {
                        termination = Some(r);
                        self.ends_game();
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
        Ok(Some(visitor.end_game(tag_result.or(termination).unwrap_or(GameResult::Unknown))))
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
                    let c = normalize(c);
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
