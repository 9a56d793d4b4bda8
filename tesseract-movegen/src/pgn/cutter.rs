//! Where one game's text ends in a stream of PGN bytes.

use super::lexer::{BOM, is_symbol_char, is_symbol_start};

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
/// [`PgnReader`](super::PgnReader) cuts its source with one; each game's text can then be read with
/// [`read_games`](super::read_games).
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

/// The bytes that end a plain run of movetext ([`GameCutter::plain_run`]).
static STOPS: [bool; 256] = {
    let mut stops = [false; 256];
    let mut b = 0;
    while b < 256 {
        stops[b] = b >= 0x80 || matches!(b as u8, b'\n' | b'{' | b';' | b'"' | b'(' | b')' | b'*');
        b += 1;
    }
    stops
};

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

    /// Whether the cutter stands where a game's text starts afresh: at the start of the stream or just after
    /// a [`Cut::AfterLine`] cut (or after [`GameCutter::skip_lines`]), nothing of a game read yet.
    pub(super) fn at_game_start(&self) -> bool {
        self.column0
            && self.leading
            && self.bom == 0
            && !self.skip_line
            && !self.in_comment
            && !self.in_string
            && !self.escape
            && self.depth == 0
            && !self.seen_movetext
            && !self.ended
            && !self.in_word
    }

    /// Counts `lines` lines read elsewhere, from a game start to another (text the cutter would have cut
    /// after, at [`Cut::AfterLine`]): the cutter stays at a game start.
    pub(super) fn skip_lines(&mut self, lines: usize) {
        debug_assert!(self.at_game_start());
        self.line += lines;
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

    /// Reads the plain movetext that starts at `bytes[i]` (no word being read, outside comments, strings
    /// and skipped lines) as the byte-wise scan would read it: up to the first byte that needs that scan (a
    /// comment, a string, a parenthesis, `*`, a byte that is not ASCII), or a line end that may end the game
    /// or before a line that may start otherwise (white space, a tag, a `%` line, a byte-order mark); the
    /// line ends between are counted, the last in `line_start`. Returns where it stopped.
    fn plain_run(&mut self, bytes: &[u8], mut i: usize, line_start: &mut Option<usize>) -> usize {
        loop {
            let rest = &bytes[i..];
            // At the end of the piece, the last token may go on in the next: left to the byte-wise scan.
            let end = rest
                .iter()
                .position(|&c| STOPS[usize::from(c)])
                .unwrap_or_else(|| rest.iter().rposition(u8::is_ascii_whitespace).map_or(0, |k| k + 1));
            let run = rest[..end].trim_ascii_end();
            i += end;
            if !run.is_empty() {
                self.seen_movetext = true;
                self.column0 = false;
                // Whether the line would end the game now depends on its last token alone: a symbol, read from
                // its first letter or digit (a sign before it is a token of its own, which no result is).
                let symbol = run.len() - run.iter().rev().take_while(|&&c| is_symbol_char(c)).count();
                let word = &run[symbol..];
                let word = &word[word.iter().position(|&c| is_symbol_start(c)).unwrap_or(word.len())..];
                self.ended = self.depth == 0 && matches!(word, b"1-0" | b"0-1" | b"1/2-1/2");
            }
            // On past a line end that ends nothing, into a line that starts with a symbol (not after the
            // first bytes of a byte-order mark that was none, which the line end must weigh).
            let next_starts_symbol = bytes.get(i + 1).is_some_and(|&c| is_symbol_start(c));
            if bytes.get(i) != Some(&b'\n') || self.ended || self.bom != 0 || !next_starts_symbol {
                return i;
            }
            i += 1;
            self.line += 1;
            *line_start = Some(i);
        }
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
                    match memchr::memchr2(b'}', b'\n', &bytes[i..]) {
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
                i += memchr::memchr(b'\n', &bytes[i..]).unwrap_or(bytes.len() - i);
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
                // Plain movetext, nearly all of a game: straight to the next byte that matters.
                i = self.plain_run(bytes, i, &mut line_start);
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
