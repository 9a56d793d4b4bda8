//! Input lines of bounded length: a line longer than the cap streams past without being kept, a line
//! that is not UTF-8 is reported as such, so that the engine answers either and reads on.

use std::io::{self, BufRead};

/// The longest line the engine reads, in bytes, without its line ending: room for a `position` command
/// with the moves of a very long game (a 4D move takes nine bytes with its space; a 2D one five or six).
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line ending (`\n` or `\r\n`).
    Text(String),
    /// A line longer than the cap, skipped; its length in bytes.
    TooLong(usize),
    /// A line that is not UTF-8, skipped.
    NotUtf8,
}

/// Reads lines of at most `max` bytes.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of the lines of `inner`, of at most `max` bytes each.
    pub fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader { inner, max, buf: Vec::new() }
    }

    /// The next line, or `None` at the end of the input (a last line without a line ending counts).
    ///
    /// # Errors
    /// The reader's errors (interrupted reads are retried).
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buf.clear();
        // The cap, a `\r`, and one byte more to tell a line over the cap.
        let keep_max = self.max.saturating_add(2);
        let mut length = 0usize;
        let mut seen = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !seen {
                    return Ok(None);
                }
                break;
            }
            seen = true;
            let (take, ended) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            let room = keep_max - self.buf.len();
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            length = length.saturating_add(take);
            self.inner.consume(take + ended as usize);
            if ended {
                break;
            }
        }
        if self.buf.last() == Some(&b'\r') && length <= self.buf.len() {
            self.buf.pop();
            length -= 1;
        }
        if length > self.max {
            return Ok(Some(Line::TooLong(length)));
        }
        match std::str::from_utf8(&self.buf) {
            Ok(s) => Ok(Some(Line::Text(s.to_string()))),
            Err(_) => Ok(Some(Line::NotUtf8)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let mut r = LineReader::new(io::BufReader::with_capacity(7, input), max);
        let mut out = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            out.push(l);
        }
        out
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn splits_lines() {
        assert_eq!(lines(b"uci\nisready\r\n\nquit", 100), [text("uci"), text("isready"), text(""), text("quit")]);
        assert_eq!(lines(b"", 100), []);
        assert_eq!(lines(b"\n", 100), [text("")]);
    }

    #[test]
    fn long_lines_are_skipped_with_their_length() {
        let mut input = vec![b'a'; 25];
        input.extend_from_slice(b"\nok\n");
        input.extend_from_slice(&[b'b'; 10]);
        input.extend_from_slice(b"\r\n");
        assert_eq!(lines(&input, 10), [Line::TooLong(25), text("ok"), text(&"b".repeat(10))]);
        assert_eq!(lines(&[b'c'; 11], 10), [Line::TooLong(11)]);
    }

    #[test]
    fn non_utf8_is_reported() {
        assert_eq!(lines(b"go \xff\xfe\nisready\n", 100), [Line::NotUtf8, text("isready")]);
    }
}
