//! Lines of input with a bound on their length, for the interactive examples: a line that is too long or
//! not UTF-8 is answered and skipped, never kept whole in memory and never the end of the input.

use std::io::{self, BufRead};

/// The longest line kept, in bytes (without its line break): 4 KiB.
pub const MAX_LINE: usize = 4096;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's text, without its line break (`\n` or `\r\n`).
    Text(String),
    /// A line whose bytes are not UTF-8.
    NotUtf8,
    /// A line longer than the limit: read to its end and dropped; its length in bytes.
    TooLong(usize),
}

impl Line {
    /// What to tell the user about a line that was dropped (`None` for a line of text).
    pub fn complaint(&self) -> Option<String> {
        match self {
            Line::Text(_) => None,
            Line::NotUtf8 => Some("That line is not UTF-8 text: ignored.".to_string()),
            Line::TooLong(n) => Some(format!("That line has {n} bytes, more than {MAX_LINE}: ignored.")),
        }
    }
}

/// Reads one line of at most `max` bytes; `None` at the end of the input. A longer line is read to its
/// end through the reader's buffer (never stored whole) and reported as [`Line::TooLong`].
///
/// # Errors
/// A failed read.
pub fn read_line<R: BufRead + ?Sized>(r: &mut R, max: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut len = 0usize;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if len == 0 {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let body = &buf[..if done { take - 1 } else { take }];
        if len + body.len() <= max + 1 {
            // One byte more than the limit is kept, for a `\r` before the `\n`.
            kept.extend_from_slice(body);
        }
        len += body.len();
        r.consume(take);
        if done {
            break;
        }
    }
    if kept.last() == Some(&b'\r') && len == kept.len() {
        kept.pop();
        len -= 1;
    }
    if len > max {
        return Ok(Some(Line::TooLong(len)));
    }
    Ok(Some(String::from_utf8(kept).map_or(Line::NotUtf8, Line::Text)))
}
