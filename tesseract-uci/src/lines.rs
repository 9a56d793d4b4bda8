//! Input lines of bounded length: a line longer than the cap streams past without being kept, a line
//! that is not UTF-8 is reported as such, so that the engine answers either and reads on. The workspace's
//! interactive examples (`play`, `four_tac_toe`, `online`) read their input with it too.

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
        // Room for the cap plus a `\r` and one more byte, which tells a line over the cap.
        let room = self.max.saturating_add(2);
        self.buf.clear();
        let mut too_long = false;
        let mut any = false;
        let mut total = 0usize;
        // The line's last byte so far (a `\r` there belongs to the line ending).
        let mut last = None;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (len, ended) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            if !too_long {
                let keep = len.min(room - self.buf.len());
                self.buf.extend_from_slice(&chunk[..keep]);
                if keep < len {
                    too_long = true;
                    self.buf.clear();
                }
            }
            total = total.saturating_add(len);
            if len > 0 {
                last = Some(chunk[len - 1]);
            }
            self.inner.consume(len + usize::from(ended));
            if ended {
                break;
            }
        }
        if last == Some(b'\r') {
            // Kept in `buf` unless the line was already too long.
            if !too_long {
                self.buf.pop();
            }
            total -= 1;
        }
        if too_long || self.buf.len() > self.max {
            return Ok(Some(Line::TooLong(total)));
        }
        Ok(Some(match std::str::from_utf8(&self.buf) {
            Ok(text) => Line::Text(text.to_string()),
            Err(_) => Line::NotUtf8,
        }))
    }
}

impl Line {
    /// What to tell a person about a skipped line, for a reader capped at `max` bytes (`None` for a line
    /// of text).
    pub fn complaint(&self, max: usize) -> Option<String> {
        match self {
            Line::Text(_) => None,
            Line::NotUtf8 => Some("That line is not UTF-8 text: ignored.".to_string()),
            Line::TooLong(n) => Some(format!("That line has {n} bytes, more than {max}: ignored.")),
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
        // The `\r` of a long line's `\r\n` ending is not counted in its length.
        let mut crlf = vec![b'd'; 30];
        crlf.extend_from_slice(b"\r\nok");
        assert_eq!(lines(&crlf, 10), [Line::TooLong(30), text("ok")]);
        assert_eq!(Line::TooLong(30).complaint(10).unwrap(), "That line has 30 bytes, more than 10: ignored.");
    }

    #[test]
    fn non_utf8_is_reported() {
        assert_eq!(lines(b"go \xff\xfe\nisready\n", 100), [Line::NotUtf8, text("isready")]);
    }
}
