//! The limits that must see every WebSocket frame, not only whole messages: the rate counts each frame
//! (a fragment of a message, a continuation, a ping, a pong), a message may have at most
//! [`MAX_FRAGMENTS`] frames, and it must end within the time allowed. The WebSocket library hands out
//! whole messages only, so a message that never ends would reach neither limit there; this reader sits
//! between the socket and the library and reads the frame headers as the bytes go by.
//!
//! On the first frame over a limit it hands the library only the bytes before that frame's header,
//! records why (the close code and reason to send), and from then on every read fails; the connection
//! sends its close frame and drains the socket itself.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Instant;

use crate::hub::Close;
use crate::limits::Bucket;

/// The most frames one message may come in (browsers send a message of up to a few kilobytes as one).
pub(crate) const MAX_FRAGMENTS: u32 = 16;

/// The close of a connection over the rate limit.
pub(crate) const RATE_LIMIT: Close = (1008, "rate limit");
/// The close of a message in more than [`MAX_FRAGMENTS`] frames.
pub(crate) const TOO_MANY_FRAGMENTS: Close = (1009, "too many fragments");
/// The close of a message that did not end in time.
pub(crate) const UNFINISHED: Close = (1008, "message not finished in time");

const OP_CONTINUATION: u8 = 0x0;
const OP_TEXT: u8 = 0x1;
const OP_BINARY: u8 = 0x2;
const OP_CLOSE: u8 = 0x8;

/// Where the reader is in the byte stream.
#[derive(Debug)]
enum At {
    /// In a frame header, `have` of its bytes seen.
    Header { bytes: [u8; 14], have: usize },
    /// In a payload, `left` bytes to go.
    Payload { left: u64 },
}

/// The frame accounting of one connection.
#[derive(Debug)]
pub(crate) struct Frames {
    at: At,
    bucket: Bucket,
    /// The frames of the message under way, and when its first came.
    fragments: u32,
    started: Option<Instant>,
    message_time: Duration,
}

impl Frames {
    /// `rate` frames a second (bursts of twice that); a message must end within `message_time`.
    pub(crate) fn new(rate: u32, message_time: Duration) -> Frames {
        Frames {
            at: At::Header { bytes: [0; 14], have: 0 },
            bucket: Bucket::new(rate),
            fragments: 0,
            started: None,
            message_time,
        }
    }

    /// Reads `data` (the next bytes from the client). `Err((keep, close))`: a frame whose header starts
    /// at `keep` (0 if it started in earlier bytes) is over a limit.
    fn scan(&mut self, data: &[u8]) -> Result<(), (usize, Close)> {
        let mut i = 0;
        while i < data.len() {
            match &mut self.at {
                At::Payload { left } => {
                    let step = usize::try_from(*left).unwrap_or(usize::MAX).min(data.len() - i);
                    i += step;
                    *left -= step as u64;
                    if *left == 0 {
                        self.at = At::Header { bytes: [0; 14], have: 0 };
                    }
                }
                At::Header { bytes, have } => {
                    let start = i.saturating_sub(*have);
                    bytes[*have] = data[i];
                    *have += 1;
                    i += 1;
                    let Some(length) = header_length(&bytes[..*have]) else { continue };
                    if *have < length {
                        continue;
                    }
                    let (fin, opcode, payload) = decode(&bytes[..length]);
                    self.at = if payload == 0 {
                        At::Header { bytes: [0; 14], have: 0 }
                    } else {
                        At::Payload { left: payload }
                    };
                    self.frame(fin, opcode).map_err(|close| (start, close))?;
                }
            }
        }
        Ok(())
    }

    /// Accounts one frame.
    fn frame(&mut self, fin: bool, opcode: u8) -> Result<(), Close> {
        if opcode == OP_CLOSE {
            // The end of the conversation is never refused.
            return Ok(());
        }
        if !self.bucket.take() {
            return Err(RATE_LIMIT);
        }
        let now = Instant::now();
        if let Some(started) = self.started
            && now.saturating_duration_since(started) > self.message_time
        {
            return Err(UNFINISHED);
        }
        match opcode {
            OP_TEXT | OP_BINARY if !fin => {
                self.started = Some(now);
                self.fragments = 1;
            }
            OP_CONTINUATION => {
                self.fragments += 1;
                if self.fragments > MAX_FRAGMENTS {
                    return Err(TOO_MANY_FRAGMENTS);
                }
                if fin {
                    self.started = None;
                    self.fragments = 0;
                }
            }
            // Whole messages, control frames, and what the library refuses as a protocol error.
            _ => {}
        }
        Ok(())
    }
}

/// The length of a frame header from its first bytes, once they say it.
fn header_length(bytes: &[u8]) -> Option<usize> {
    let second = *bytes.get(1)?;
    let extended = match second & 0x7f {
        126 => 2,
        127 => 8,
        _ => 0,
    };
    let mask = if second & 0x80 != 0 { 4 } else { 0 };
    Some(2 + extended + mask)
}

/// FIN, opcode and payload length of a complete header.
fn decode(header: &[u8]) -> (bool, u8, u64) {
    let fin = header[0] & 0x80 != 0;
    let opcode = header[0] & 0x0f;
    let payload = match header[1] & 0x7f {
        126 => u64::from(u16::from_be_bytes([header[2], header[3]])),
        127 => u64::from_be_bytes(header[2..10].try_into().expect("eight bytes")),
        n => u64::from(n),
    };
    (fin, opcode, payload)
}

/// A socket whose incoming bytes pass through [`Frames`]. `verdict` is set on the first frame over a
/// limit.
pub(crate) struct Metered<S> {
    inner: S,
    frames: Frames,
    verdict: Arc<OnceLock<Close>>,
}

impl<S> Metered<S> {
    pub(crate) fn new(inner: S, frames: Frames) -> Metered<S> {
        Metered { inner, frames, verdict: Arc::new(OnceLock::new()) }
    }

    /// Why the reader stopped, once it has.
    pub(crate) fn verdict(&self) -> Arc<OnceLock<Close>> {
        self.verdict.clone()
    }

    /// The socket itself, past the accounting (to drain it after the close frame).
    pub(crate) fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }
}

fn refused() -> io::Error {
    io::Error::other("frame over a limit")
}

impl<S: AsyncRead + Unpin> AsyncRead for Metered<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.verdict.get().is_some() {
            return Poll::Ready(Err(refused()));
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        match this.frames.scan(&buf.filled()[before..]) {
            Ok(()) => Poll::Ready(Ok(())),
            Err((keep, close)) => {
                let _ = this.verdict.set(close);
                buf.set_filled(before + keep);
                if keep == 0 { Poll::Ready(Err(refused())) } else { Poll::Ready(Ok(())) }
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Metered<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client frame: FIN flag, opcode, masked, with `payload` (the mask is zero: the bytes are as
    /// given).
    fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        let mut f = vec![(if fin { 0x80 } else { 0 }) | opcode];
        match payload.len() {
            n if n < 126 => f.push(0x80 | n as u8),
            n if n <= 0xffff => {
                f.push(0x80 | 126);
                f.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                f.push(0x80 | 127);
                f.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        f.extend_from_slice(&[0; 4]);
        f.extend_from_slice(payload);
        f
    }

    fn frames(rate: u32) -> Frames {
        Frames::new(rate, Duration::from_secs(10))
    }

    #[tokio::test]
    async fn whole_messages_of_every_length_form_are_one_frame_each_even_split_byte_by_byte() {
        let mut stream = Vec::new();
        for len in [0usize, 1, 125, 126, 1000, 70_000] {
            stream.extend(frame(true, OP_BINARY, &vec![7; len]));
        }
        let mut f = frames(3); // a burst of six frames
        for byte in stream.chunks(1) {
            f.scan(byte).unwrap();
        }
        assert!(matches!(f.at, At::Header { have: 0, .. }));
        // The seventh frame is over the burst: its header starts at 0 of these bytes.
        assert_eq!(f.scan(&frame(true, OP_BINARY, b"x")), Err((0, RATE_LIMIT)));
    }

    #[tokio::test]
    async fn a_frame_over_the_rate_is_cut_at_its_header() {
        let one = frame(true, OP_BINARY, b"abc");
        let mut f = frames(1); // a burst of two
        let three = [one.clone(), one.clone(), one.clone()].concat();
        assert_eq!(f.scan(&three), Err((2 * one.len(), RATE_LIMIT)));
    }

    #[tokio::test]
    async fn fragments_count_against_the_rate_and_their_number() {
        // Every fragment takes a token: a message of 12 frames is over a burst of ten.
        let mut f = frames(5);
        let mut stream = frame(false, OP_BINARY, b"a");
        for _ in 0..11 {
            stream.extend(frame(false, OP_CONTINUATION, b""));
        }
        assert_eq!(f.scan(&stream).unwrap_err().1, RATE_LIMIT);
        // A message that never ends: empty continuations, cut at the seventeenth frame.
        let mut f = frames(1000);
        let mut stream = frame(false, OP_BINARY, b"a");
        for _ in 0..MAX_FRAGMENTS - 1 {
            stream.extend(frame(false, OP_CONTINUATION, b""));
        }
        f.scan(&stream).unwrap();
        assert_eq!(f.scan(&frame(false, OP_CONTINUATION, b"")), Err((0, TOO_MANY_FRAGMENTS)));
        // A message of sixteen frames ends well, and the count starts again.
        let mut f = frames(1000);
        let mut stream = frame(false, OP_TEXT, b"a");
        for _ in 0..MAX_FRAGMENTS - 2 {
            stream.extend(frame(false, OP_CONTINUATION, b"b"));
        }
        stream.extend(frame(true, OP_CONTINUATION, b"c"));
        stream.extend(frame(false, OP_BINARY, b"d"));
        stream.extend(frame(true, OP_CONTINUATION, b"e"));
        f.scan(&stream).unwrap();
        // Close frames are never refused, even with the bucket empty.
        let mut f = frames(1);
        f.scan(&[frame(true, OP_BINARY, b""), frame(true, OP_BINARY, b"")].concat()).unwrap();
        f.scan(&frame(true, OP_CLOSE, &[3, 232])).unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_message_that_does_not_end_in_time_is_cut_at_its_next_frame() {
        let mut f = frames(1000);
        f.scan(&frame(false, OP_BINARY, b"a")).unwrap();
        tokio::time::advance(Duration::from_secs(5)).await;
        f.scan(&frame(true, 0x9, b"ping")).unwrap();
        tokio::time::advance(Duration::from_secs(6)).await;
        assert_eq!(f.scan(&frame(true, 0x9, b"ping")), Err((0, UNFINISHED)));
    }
}
