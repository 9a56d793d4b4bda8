//! The reader's buffer over its source: the text ahead kept as a string, so that games can be read where
//! they stand, and handed out as bytes to the cutter when a game needs it.

use std::io::{BufRead, ErrorKind, Read};

/// The text ahead the reader keeps, by default, before it reads a game in place: 32 KiB, many times a
/// usual game. (A game longer than that is read the cut way.)
pub(super) const DEFAULT_AHEAD: usize = 32 << 10;

/// A buffer over a source, read the two ways the reader reads: [`Window::ahead`] gives the text ahead as
/// a string (valid UTF-8, up to the first bytes that are not), [`BufRead`] gives the same bytes and those
/// after, for the cutter. Both consume from the same place.
pub(super) struct Window<R> {
    source: R,
    /// Text read and not consumed, from `start`.
    text: String,
    start: usize,
    /// The bytes after `text` that are not valid UTF-8 (yet: a character a read cut, or bytes that are
    /// none), from `raw_start`; the source's bytes come after them.
    raw: Vec<u8>,
    raw_start: usize,
    /// The error a read of the source gave while the text was filled, handed out after the bytes before it.
    error: Option<std::io::Error>,
    /// The source has no more bytes.
    eof: bool,
}

impl<R: BufRead> Window<R> {
    pub(super) fn new(source: R) -> Window<R> {
        Window { source, text: String::new(), start: 0, raw: Vec::new(), raw_start: 0, error: None, eof: false }
    }

    /// The text ahead, at least `want` bytes of it unless the source ends (or an error or a byte that is
    /// not UTF-8 comes) first; and whether it is all the source has left (no byte and no error after it).
    pub(super) fn ahead(&mut self, want: usize) -> (&str, bool) {
        if self.text.len() - self.start < want && self.error.is_none() && !self.eof {
            self.fill(want);
        }
        let last = self.eof && self.error.is_none() && self.raw_start == self.raw.len();
        (&self.text[self.start..], last)
    }

    /// Reads on into the text until it holds four times `want` bytes ahead (or the source ends, or bytes
    /// come that are not UTF-8): each piece the source hands out is checked and copied straight in.
    fn fill(&mut self, want: usize) {
        self.text.drain(..self.start);
        self.start = 0;
        let target = want.saturating_mul(4).max(1);
        while self.text.len() < target && self.raw_start == self.raw.len() {
            let piece = match self.source.fill_buf() {
                Ok([]) => {
                    self.eof = true;
                    return;
                }
                Ok(piece) => piece,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            };
            let n = piece.len().min(target - self.text.len());
            let (valid, kept) = match std::str::from_utf8(&piece[..n]) {
                Ok(text) => (text, n),
                Err(e) => {
                    let valid = e.valid_up_to();
                    // A character cut by the piece's end is completed from the next; bytes that are no
                    // character end the text (the cutter reads them).
                    let kept = e.error_len().map_or(n, |len| valid + len);
                    (std::str::from_utf8(&piece[..valid]).unwrap_or_default(), kept)
                }
            };
            // Room grown exactly (no doubling): the text holds at most the target and a character.
            self.text.reserve_exact(valid.len());
            self.text.push_str(valid);
            self.raw.clear();
            self.raw_start = 0;
            self.raw.extend_from_slice(&piece[valid.len()..kept]);
            self.source.consume(kept);
            self.complete_char();
        }
    }

    /// Completes a character that a piece's end cut (its first bytes in `raw`) with the source's next
    /// bytes, onto the text; leaves in `raw` bytes that are no character.
    fn complete_char(&mut self) {
        while self.raw_start < self.raw.len() {
            let next = match self.source.fill_buf() {
                Ok([]) => {
                    self.eof = true;
                    return;
                }
                Ok(piece) => piece[0],
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    return;
                }
            };
            self.raw.push(next);
            self.source.consume(1);
            match std::str::from_utf8(&self.raw) {
                Ok(c) => {
                    self.text.reserve_exact(c.len());
                    self.text.push_str(c);
                    self.raw.clear();
                }
                Err(e) if e.error_len().is_some() => return,
                Err(_) => {}
            }
        }
    }

    /// Consumes `n` bytes of the text ahead ([`Window::ahead`]).
    pub(super) fn consume_text(&mut self, n: usize) {
        debug_assert!(n <= self.text.len() - self.start);
        self.start += n;
    }
}

impl<R: BufRead> Read for Window<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let buf = self.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Window<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.start < self.text.len() {
            Ok(&self.text.as_bytes()[self.start..])
        } else if self.raw_start < self.raw.len() {
            Ok(&self.raw[self.raw_start..])
        } else if let Some(e) = self.error.take() {
            Err(e)
        } else {
            self.source.fill_buf()
        }
    }

    fn consume(&mut self, n: usize) {
        if self.start < self.text.len() {
            self.start += n;
        } else if self.raw_start < self.raw.len() {
            self.raw_start += n;
        } else {
            self.source.consume(n);
        }
    }
}
