//! Bounded reading and writing of the Redis protocol (RESP2), for a relay over Redis pub/sub.
//!
//! The relay is not trusted, and neither is anyone who can publish on it: a Redis client library reads a
//! whole reply into memory before the caller sees it, so a 256 MiB message published on a player's
//! channel would cost hundreds of megabytes before [`MAX_FRAME`](crate::MAX_FRAME) could refuse it.
//! [`read_reply`] reads one reply with every size bounded: lines (headers, status and error texts) at
//! [`MAX_LINE`] bytes, arrays at [`MAX_ARRAY`] elements and no nesting, and bulk strings at the caller's
//! limit; a longer bulk string is skipped through a small buffer, never stored, and reported as
//! [`Reply::Oversize`] with its length. [`command`] writes a command.
//!
//! The reader works on any [`BufRead`] (a `BufReader` over a socket, a byte slice in tests); sockets,
//! reconnection and timers stay the caller's, as everywhere in this crate.
//!
//! # Examples
//! ```
//! use tesseract_wire::resp::{self, Message, Payload, Reply};
//! assert_eq!(resp::command(&[b"PUBLISH", b"ch", b"TW"]), b"*3\r\n$7\r\nPUBLISH\r\n$2\r\nch\r\n$2\r\nTW\r\n");
//! let mut wire: &[u8] = b"*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nTW\r\n*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$999\r\n";
//! let first = resp::read_reply(&mut wire, 256)?;
//! assert_eq!(first.into_message(), Some(Message { channel: b"ch".to_vec(), payload: Payload::Bytes(b"TW".to_vec()) }));
//! // The second message declares 999 bytes: more than the limit, so it is skipped (here the input ends).
//! assert!(resp::read_reply(&mut wire, 256).is_err());
//! # Ok::<_, resp::RespError>(())
//! ```

use std::io::{self, BufRead};

/// The longest line accepted (a type byte, a header, a status or error text), CRLF included.
pub const MAX_LINE: usize = 1024;

/// The most elements accepted in an array (a pub/sub message has three, a pattern message four).
pub const MAX_ARRAY: usize = 8;

/// One reply (or pub/sub push) of a Redis server, bounded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A status reply, `+OK`.
    Simple(String),
    /// An error reply, `-ERR …`.
    Error(String),
    /// An integer reply, `:3`.
    Integer(i64),
    /// A bulk string within the limit; `None` for the null bulk string `$-1`.
    Bulk(Option<Vec<u8>>),
    /// A bulk string longer than the limit: skipped without being stored; its declared length.
    Oversize(u64),
    /// An array of replies, none of them an array; `None` for the null array `*-1`.
    Array(Option<Vec<Reply>>),
}

/// The payload of a pub/sub message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// The bytes, within the limit.
    Bytes(Vec<u8>),
    /// A payload longer than the limit, skipped unread: its length.
    Oversize(u64),
}

/// A pub/sub message: `message`, the channel, the payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The channel it was published on.
    pub channel: Vec<u8>,
    /// What was published.
    pub payload: Payload,
}

impl Reply {
    /// The pub/sub message this reply is, if it is one (a three-element array `message`, channel,
    /// payload); `None` for anything else (subscription confirmations, pongs, other replies).
    pub fn into_message(self) -> Option<Message> {
        let Reply::Array(Some(items)) = self else { return None };
        let [kind, channel, payload]: [Reply; 3] = items.try_into().ok()?;
        if kind != Reply::Bulk(Some(b"message".to_vec())) {
            return None;
        }
        let Reply::Bulk(Some(channel)) = channel else { return None };
        let payload = match payload {
            Reply::Bulk(Some(bytes)) => Payload::Bytes(bytes),
            Reply::Oversize(len) => Payload::Oversize(len),
            _ => return None,
        };
        Some(Message { channel, payload })
    }
}

/// Why a reply could not be read. After any of these the connection is out of step: close it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RespError {
    /// The connection failed or timed out.
    #[error("relay connection: {0}")]
    Io(#[from] io::Error),
    /// The connection ended (at a reply boundary or inside one).
    #[error("the relay closed the connection")]
    Closed,
    /// Bytes that are not the Redis protocol, or beyond a bound of this reader.
    #[error("the relay broke the Redis protocol: {0}")]
    Protocol(&'static str),
}

/// The bytes of a command: an array of bulk strings.
pub fn command(args: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + args.iter().map(|a| a.len() + 16).sum::<usize>());
    out.extend_from_slice(format!("*{}\r\n", args.len()).as_bytes());
    for a in args {
        out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Reads one reply. Bulk strings longer than `max_bulk` bytes are skipped (read through a small buffer
/// and dropped) and returned as [`Reply::Oversize`]; nothing read is ever larger than `max_bulk`,
/// [`MAX_LINE`] or [`MAX_ARRAY`] elements of those.
///
/// # Errors
/// [`RespError::Closed`] at the end of the input, [`RespError::Io`] for a failed read (a socket's read
/// timeout included: the reply is then cut and the connection out of step), [`RespError::Protocol`] for
/// anything that is not RESP2 within the bounds (nested arrays, overlong lines, bad lengths).
pub fn read_reply<R: BufRead + ?Sized>(r: &mut R, max_bulk: usize) -> Result<Reply, RespError> {
    read(r, max_bulk, true)
}

fn read<R: BufRead + ?Sized>(r: &mut R, max_bulk: usize, top: bool) -> Result<Reply, RespError> {
    let line = read_line(r)?;
    let (&kind, rest) = line.split_first().ok_or(RespError::Protocol("an empty line"))?;
    let text = || String::from_utf8_lossy(rest).into_owned();
    Ok(match kind {
        b'+' => Reply::Simple(text()),
        b'-' => Reply::Error(text()),
        b':' => Reply::Integer(integer(rest)?),
        b'$' => match integer(rest)? {
            -1 => Reply::Bulk(None),
            len if len < 0 => return Err(RespError::Protocol("a negative bulk length")),
            len if len as u64 > max_bulk as u64 => {
                skip(r, len as u64)?;
                crlf(r)?;
                Reply::Oversize(len as u64)
            }
            len => {
                let mut bytes = vec![0; len as usize];
                r.read_exact(&mut bytes).map_err(eof)?;
                crlf(r)?;
                Reply::Bulk(Some(bytes))
            }
        },
        b'*' if !top => return Err(RespError::Protocol("a nested array")),
        b'*' => match integer(rest)? {
            -1 => Reply::Array(None),
            n if n < 0 => return Err(RespError::Protocol("a negative array length")),
            n if n as u64 > MAX_ARRAY as u64 => return Err(RespError::Protocol("an array of more than 8 elements")),
            n => Reply::Array(Some((0..n).map(|_| read(r, max_bulk, false)).collect::<Result<_, _>>()?)),
        },
        _ => return Err(RespError::Protocol("an unknown reply type")),
    })
}

fn eof(e: io::Error) -> RespError {
    if e.kind() == io::ErrorKind::UnexpectedEof { RespError::Closed } else { RespError::Io(e) }
}

/// One CRLF-terminated line without its CRLF, at most [`MAX_LINE`] bytes in all.
fn read_line<R: BufRead + ?Sized>(r: &mut R) -> Result<Vec<u8>, RespError> {
    let mut line = Vec::new();
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if buf.is_empty() {
            return Err(RespError::Closed);
        }
        let room = MAX_LINE - line.len();
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if take > room {
            return Err(RespError::Protocol("a line longer than 1024 bytes"));
        }
        line.extend_from_slice(&buf[..take]);
        r.consume(take);
        if done {
            if line.len() < 2 || line[line.len() - 2] != b'\r' {
                return Err(RespError::Protocol("a line not ended by CRLF"));
            }
            line.truncate(line.len() - 2);
            return Ok(line);
        }
    }
}

fn integer(digits: &[u8]) -> Result<i64, RespError> {
    std::str::from_utf8(digits)
        .ok()
        .filter(|s| !s.is_empty() && s.len() <= 20)
        .and_then(|s| s.parse().ok())
        .ok_or(RespError::Protocol("a length or integer that is not a number"))
}

fn crlf<R: BufRead + ?Sized>(r: &mut R) -> Result<(), RespError> {
    let mut end = [0; 2];
    r.read_exact(&mut end).map_err(eof)?;
    if &end != b"\r\n" {
        return Err(RespError::Protocol("a bulk string not followed by CRLF"));
    }
    Ok(())
}

/// Reads and drops `n` bytes, through the reader's own buffer.
fn skip<R: BufRead + ?Sized>(r: &mut R, mut n: u64) -> Result<(), RespError> {
    while n > 0 {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if buf.is_empty() {
            return Err(RespError::Closed);
        }
        let take = buf.len().min(usize::try_from(n).unwrap_or(usize::MAX));
        r.consume(take);
        n -= take as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(mut wire: &[u8]) -> Vec<Result<Reply, String>> {
        let mut out = Vec::new();
        loop {
            match read_reply(&mut wire, 8) {
                Ok(r) => out.push(Ok(r)),
                Err(RespError::Closed) => return out,
                Err(e) => {
                    out.push(Err(e.to_string()));
                    return out;
                }
            }
        }
    }

    #[test]
    fn replies_of_each_type() {
        let got = all(b"+OK\r\n-ERR no\r\n:42\r\n$-1\r\n$3\r\nabc\r\n*-1\r\n*0\r\n$9\r\n123456789\r\n:-7\r\n");
        assert_eq!(
            got,
            [
                Ok(Reply::Simple("OK".into())),
                Ok(Reply::Error("ERR no".into())),
                Ok(Reply::Integer(42)),
                Ok(Reply::Bulk(None)),
                Ok(Reply::Bulk(Some(b"abc".to_vec()))),
                Ok(Reply::Array(None)),
                Ok(Reply::Array(Some(vec![]))),
                Ok(Reply::Oversize(9)),
                Ok(Reply::Integer(-7)),
            ]
        );
    }

    #[test]
    fn an_oversize_payload_is_skipped_and_the_stream_stays_in_step() {
        let wire = b"*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$12\r\n0123456789ab\r\n*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nTW\r\n";
        let got: Vec<_> = all(wire).into_iter().map(|r| r.unwrap().into_message().unwrap()).collect();
        assert_eq!(got[0], Message { channel: b"ch".to_vec(), payload: Payload::Oversize(12) });
        assert_eq!(got[1], Message { channel: b"ch".to_vec(), payload: Payload::Bytes(b"TW".to_vec()) });
    }

    #[test]
    fn everything_out_of_bounds_or_out_of_protocol_is_refused() {
        let long = format!("+{}\r\n", "x".repeat(MAX_LINE));
        let cases: [(&[u8], &str); 9] = [
            (b"*1\r\n*1\r\n:1\r\n", "a nested array"),
            (b"*9\r\n", "an array of more than 8 elements"),
            (long.as_bytes(), "a line longer than 1024 bytes"),
            (b"+OK\n", "a line not ended by CRLF"),
            (b"$3\r\nabcd\r\n", "a bulk string not followed by CRLF"),
            (b"$-2\r\n", "a negative bulk length"),
            (b":12a\r\n", "a length or integer that is not a number"),
            (b"?\r\n", "an unknown reply type"),
            (b"\r\n", "an empty line"),
        ];
        for (wire, why) in cases {
            assert_eq!(all(wire), [Err(format!("the relay broke the Redis protocol: {why}"))], "{wire:?}");
        }
        // Cut anywhere inside a reply: the connection ended.
        let wire = b"*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$12\r\n0123456789ab\r\n";
        for cut in 1..wire.len() {
            let mut part = &wire[..cut];
            assert!(matches!(read_reply(&mut part, 8), Err(RespError::Closed)), "{cut}");
        }
    }

    #[test]
    fn non_messages_are_not_messages() {
        for wire in [&b"*3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n"[..], b":1\r\n", b"*2\r\n$4\r\npong\r\n$0\r\n\r\n"]
        {
            let mut w = wire;
            assert_eq!(read_reply(&mut w, 8).unwrap().into_message(), None);
        }
    }
}
