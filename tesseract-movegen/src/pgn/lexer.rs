//! Tokens of PGN text, with their line numbers.

use std::borrow::Cow;

use super::PgnErrorKind;

/// The byte-order mark of UTF-8, read as white space before any game and between tokens.
pub(super) const BOM: &[u8] = "\u{feff}".as_bytes();

/// A token of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok<'a> {
    LBracket,
    RBracket,
    /// A string's value, its escapes undone (borrowed when it has none).
    Str(Cow<'a, str>),
    Symbol(&'a str),
    Period,
    Star,
    /// A comment's raw text: between its braces, or after its `;` to the line's end.
    Comment(&'a str),
    Nag(u8),
    Open,
    Close,
}

/// What [`Lexer::plain`] read.
pub(super) enum Plain<'a> {
    /// A move number and its periods.
    Number,
    /// A symbol and its line.
    Symbol(&'a str, usize),
}

/// A token and its line, or a lexing error and its line.
/// (The error boxed: a token is moved at every step, and most of the kinds are large.)
pub(super) type Lexed<'a> = Result<(Tok<'a>, usize), Box<(PgnErrorKind, usize)>>;

/// Splits one game's text (or several untagged ones) into tokens with their line numbers.
pub(super) struct Lexer<'a> {
    text: &'a str,
    i: usize,
    line: usize,
    /// Something was read past that a [`GameCutter`](super::GameCutter) reads its own way (a byte-order
    /// mark, a `%` line, a `;` comment): the reader's in-place reading gives way to the cut one.
    pub(super) unusual: bool,
}

/// The words of a comment's raw text separated by single spaces, as a game keeps it; a `}` (which a `;`
/// comment may hold) reads as a space, since the comment is written back in braces.
pub(super) fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(|c: char| c.is_whitespace() || c == '}').filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

pub(super) fn is_symbol_start(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

pub(super) fn is_symbol_char(b: u8) -> bool {
    SYMBOL[usize::from(b)]
}

/// The bytes of a symbol: letters, digits and `_+#=:-/`.
static SYMBOL: [bool; 256] = {
    let mut symbol = [false; 256];
    let mut b = 0;
    while b < 256 {
        symbol[b] =
            (b as u8).is_ascii_alphanumeric() || matches!(b as u8, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/');
        b += 1;
    }
    symbol
};

impl<'a> Lexer<'a> {
    /// A lexer of `text` from byte `at` (a token's start), on line `line`.
    pub(super) fn new(text: &'a str, at: usize, line: usize) -> Lexer<'a> {
        Lexer { text, i: at, line, unusual: false }
    }

    /// Where the next token is looked for, and its line.
    pub(super) fn at(&self) -> (usize, usize) {
        (self.i, self.line)
    }

    /// Whether the lexer has read to the end of its text.
    pub(super) fn at_end(&self) -> bool {
        self.i >= self.text.len()
    }

    /// Whether only white space stands before byte `at` on its line.
    pub(super) fn leads_its_line(&self, at: usize) -> bool {
        let before = &self.text.as_bytes()[..at];
        before.iter().rev().take_while(|&&c| c != b'\n').all(u8::is_ascii_whitespace)
    }

    /// Where the line ends when only white space is left on it: just past its `\n`, or at the text's end
    /// without one (`false`); `None` when a token follows on the line.
    pub(super) fn blank_to_line_end(&self) -> Option<(usize, bool)> {
        let b = self.text.as_bytes();
        let blank = b[self.i..].iter().take_while(|&&c| c != b'\n' && c.is_ascii_whitespace()).count();
        match b.get(self.i + blank) {
            Some(b'\n') => Some((self.i + blank + 1, true)),
            Some(_) => None,
            None => Some((b.len(), false)),
        }
    }

    /// Skips white space (and byte-order marks, and lines starting with `%`) up to the next token's first
    /// byte, which it gives; `None` at the end.
    #[inline(always)]
    fn skip_space(&mut self) -> Option<u8> {
        let b = self.text.as_bytes();
        loop {
            let c = *b.get(self.i)?;
            // The common bytes first, by plain tests (a jump table mispredicts).
            if c == b' ' {
                self.i += 1;
                continue;
            }
            if c > b' ' && c != b'%' && c != 0xef {
                return Some(c);
            }
            match c {
                b'\n' => {
                    self.line += 1;
                    self.i += 1;
                }
                c if c.is_ascii_whitespace() => self.i += 1,
                0xef if b[self.i..].starts_with(BOM) => {
                    self.unusual = true;
                    self.i += BOM.len();
                }
                // A line starting with `%`: skipped.
                b'%' if self.i == 0 || b[self.i - 1] == b'\n' => {
                    self.unusual = true;
                    self.i += memchr::memchr(b'\n', &b[self.i..]).unwrap_or(b.len() - self.i);
                }
                c => return Some(c),
            }
        }
    }

    /// The movetext's common tokens read at once, as [`Lexer::next_token`] reads them: after white space, a
    /// move number (digits, then periods) is read past ([`Plain::Number`]), a symbol is read
    /// ([`Plain::Symbol`], with its line). `None` for any other token (or the end), which is left unread.
    #[inline]
    pub(super) fn plain(&mut self) -> Option<Plain<'a>> {
        let c = self.skip_space()?;
        if !is_symbol_start(c) {
            return None;
        }
        let b = self.text.as_bytes();
        let start = self.i;
        let end = start + 1 + b[start + 1..].iter().position(|&x| !is_symbol_char(x)).unwrap_or(b.len() - start - 1);
        self.i = end;
        // (`0000` is UCI's null move, which the parser refuses, not a move number.)
        let digits = b[start..end].iter().all(u8::is_ascii_digit) && &b[start..end] != b"0000";
        if b.get(end) == Some(&b'.') && digits {
            self.i += b[end..].iter().take_while(|&&x| x == b'.').count();
            return Some(Plain::Number);
        }
        Some(Plain::Symbol(&self.text[start..end], self.line))
    }

    /// The next token and its line, a lexing error and its line, or `None` at the end.
    pub(super) fn next_token(&mut self) -> Option<Lexed<'a>> {
        self.skip_space()?;
        let b = self.text.as_bytes();
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
                let Some(len) = memchr::memchr(b'}', &b[self.i..]) else {
                    self.line += memchr::memchr_iter(b'\n', &b[self.i..]).count();
                    self.i = b.len();
                    return Some(Err(Box::new((PgnErrorKind::UnterminatedComment, line))));
                };
                let body = &self.text[self.i..self.i + len];
                // Comments are short (a clock, a word or two): a plain count beats a vectorised search's setup.
                self.line += body.bytes().filter(|&x| x == b'\n').count();
                self.i += len + 1;
                Tok::Comment(body)
            }
            b';' => {
                self.unusual = true;
                let len = memchr::memchr(b'\n', &b[self.i..]).unwrap_or(b.len() - self.i);
                let body = &self.text[self.i..self.i + len];
                self.i += len;
                Tok::Comment(body)
            }
            b'"' => {
                // Nearly always: no escape, tab or carriage return before the closing quote.
                let plain = b[self.i..].iter().position(|&x| matches!(x, b'"' | b'\\' | b'\n' | b'\t' | b'\r'));
                if let Some(len) = plain.filter(|&len| b[self.i + len] == b'"') {
                    let value = &self.text[self.i..self.i + len];
                    self.i += len + 1;
                    return Some(Ok((Tok::Str(Cow::Borrowed(value)), line)));
                }
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
                Tok::Str(Cow::Owned(value))
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
                self.i += b[self.i..].iter().position(|&x| !is_symbol_char(x)).unwrap_or(b.len() - self.i);
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
