//! A bounded line reader for the interactive examples: commands come one a line from standard input, and
//! no line, however long, is held in memory beyond a small cap.
//!
//! A line longer than the cap is skipped as it streams by (reading on to its end without keeping it),
//! and a line that is not UTF-8 is skipped too; each is reported as such, so that the example answers it
//! and goes on reading.

use std::io::{self, BufRead};

/// The longest line accepted, in bytes, not counting its line ending (`\n` or `\r\n`).
pub const MAX_LINE: usize = 4096;

/// One line of input, or why it was skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line ending.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes: skipped, never held in memory; its length in bytes.
    TooLong(usize),
    /// A line that is not UTF-8 text: skipped.
    NotUtf8,
}

impl Line {
    /// What to tell the user about a skipped line (`None` for a line of text).
    pub fn complaint(&self) -> Option<String> {
        match self {
            Line::Text(_) => None,
            Line::NotUtf8 => Some("That line is not UTF-8 text: ignored.".to_string()),
            Line::TooLong(n) => Some(format!("That line has {n} bytes, more than {MAX_LINE}: ignored.")),
        }
    }
}

/// Reads lines of at most [`MAX_LINE`] bytes from a buffered reader.
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of the lines of `inner`.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader { inner, buf: Vec::new() }
    }

    /// The next line; `None` at the end of input. A last line without a line ending counts as a line.
    ///
    /// # Errors
    /// The errors of the underlying reader (an interrupted read is retried).
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        // Room for the cap plus a `\r` and one more byte, which tells a line over the cap.
        let room = MAX_LINE + 2;
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
            total += len;
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
        if too_long || self.buf.len() > MAX_LINE {
            return Ok(Some(Line::TooLong(total)));
        }
        Ok(Some(match std::str::from_utf8(&self.buf) {
            Ok(text) => Line::Text(text.to_string()),
            Err(_) => Line::NotUtf8,
        }))
    }
}
