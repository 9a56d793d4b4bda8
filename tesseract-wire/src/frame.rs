//! The bytes on the wire: frames, their canonical encoding and decoding, and the MAC input of a message
//! (PROTOCOL.md §3 and §5).
//!
//! Every frame has exactly one encoding: fixed-width fields, big-endian integers, one length-prefixed
//! text, no padding, nothing after the tag. [`Frame::decode`] refuses anything longer than [`MAX_FRAME`]
//! before it reads a byte, and every other deviation; it never panics (a proptest and a fuzz target feed
//! it arbitrary bytes).

use std::fmt;

use crate::Error;
use crate::keys::{PUBLIC_KEY_LEN, hex};
use crate::labels;

/// The protocol version this crate speaks. A frame of any other version is refused.
pub const VERSION: u8 = 2;

/// The two bytes every frame starts with: `TW`.
pub const MAGIC: [u8; 2] = *b"TW";

/// The largest frame accepted; anything longer is refused before parsing. The largest real frame (a
/// Reply) has 183 bytes.
pub const MAX_FRAME: usize = 256;

/// The longest text a message may carry (a 4D promotion is 9 bytes, the longest End text,
/// `seventy-five-moves`, 18; version 1 allowed 16, which no 75-move end fits).
pub const MAX_TEXT: usize = 32;

/// The length of a MAC tag: the full HMAC-SHA256 output, never truncated.
pub const TAG_LEN: usize = 32;

/// `TW`, the version and the kind.
const HEADER_LEN: usize = 4;
/// Match id, color and two public keys.
const KEYS_LEN: usize = 16 + 1 + 2 * PUBLIC_KEY_LEN;
/// A message body without its text: seq, ply, hash, the text's length byte and the tag.
const MESSAGE_FIXED_LEN: usize = 4 + 4 + 8 + 1 + TAG_LEN;

/// The kind of a frame: its fourth byte.
///
/// # Examples
/// ```
/// use tesseract_wire::Kind;
/// assert_eq!(Kind::from_byte(0x10), Some(Kind::Move));
/// assert_eq!(Kind::Move.as_byte(), 0x10);
/// assert!(Kind::Resign.is_terminal());
/// assert_eq!(Kind::from_byte(0x7f), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Handshake 1, from the initiator: its keys.
    Hello,
    /// Handshake 2, from the responder: its keys and its Finished tag.
    Reply,
    /// Handshake 3, from the initiator: its Finished tag.
    Finished,
    /// A move, in RULES.md §4 move text.
    Move,
    /// A draw offer by the side to move; the peer must accept or decline.
    DrawOffer,
    /// Acceptance of the peer's draw offer: the game is drawn.
    DrawAccept,
    /// Refusal of the peer's draw offer: the offerer must now move.
    DrawDecline,
    /// The side to move ends the game by rule (mate, stalemate, dead draw) or claims a draw.
    End,
    /// The sender resigns (at any time).
    Resign,
    /// The sender stops the match without a result (at any time, and after any failure).
    Abort,
}

impl Kind {
    /// Every kind, in byte order.
    pub const ALL: [Kind; 10] = [
        Kind::Hello,
        Kind::Reply,
        Kind::Finished,
        Kind::Move,
        Kind::DrawOffer,
        Kind::DrawAccept,
        Kind::DrawDecline,
        Kind::End,
        Kind::Resign,
        Kind::Abort,
    ];

    /// The byte on the wire.
    pub const fn as_byte(self) -> u8 {
        match self {
            Kind::Hello => 0x01,
            Kind::Reply => 0x02,
            Kind::Finished => 0x03,
            Kind::Move => 0x10,
            Kind::DrawOffer => 0x11,
            Kind::DrawAccept => 0x12,
            Kind::DrawDecline => 0x13,
            Kind::End => 0x14,
            Kind::Resign => 0x15,
            Kind::Abort => 0x16,
        }
    }

    /// The kind of a byte, if any.
    pub fn from_byte(b: u8) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_byte() == b)
    }

    /// Whether this is a message of the MAC chain (not a handshake frame).
    pub const fn is_message(self) -> bool {
        !matches!(self, Kind::Hello | Kind::Reply | Kind::Finished)
    }

    /// Whether the sender may send it at any time, ending the match for both sides (resign, abort).
    pub const fn is_terminal(self) -> bool {
        matches!(self, Kind::Resign | Kind::Abort)
    }

    /// The length of every frame of this kind, for the kinds that carry no text: the handshake frames and
    /// the messages other than Move and End (PROTOCOL.md §3). `None` for Move and End.
    ///
    /// # Examples
    /// ```
    /// use tesseract_wire::Kind;
    /// assert_eq!(Kind::Resign.fixed_len(), Some(53));
    /// assert_eq!(Kind::Hello.fixed_len(), Some(151));
    /// assert_eq!(Kind::Move.fixed_len(), None);
    /// ```
    pub const fn fixed_len(self) -> Option<usize> {
        match self {
            Kind::Hello => Some(HEADER_LEN + KEYS_LEN),
            Kind::Reply => Some(HEADER_LEN + KEYS_LEN + TAG_LEN),
            Kind::Finished => Some(HEADER_LEN + TAG_LEN),
            Kind::Move | Kind::End => None,
            Kind::DrawOffer | Kind::DrawAccept | Kind::DrawDecline | Kind::Resign | Kind::Abort => {
                Some(HEADER_LEN + MESSAGE_FIXED_LEN)
            }
        }
    }

    /// The name used in errors and logs.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Hello => "hello",
            Kind::Reply => "reply",
            Kind::Finished => "finished",
            Kind::Move => "move",
            Kind::DrawOffer => "draw offer",
            Kind::DrawAccept => "draw accept",
            Kind::DrawDecline => "draw decline",
            Kind::End => "end",
            Kind::Resign => "resign",
            Kind::Abort => "abort",
        }
    }
}

/// An HMAC-SHA256 tag as carried in a frame.
///
/// It deliberately has no `PartialEq`: tags are checked only by the MAC's constant-time verification
/// (`Mac::verify_slice`), never compared with `==`, which could stop at the first differing byte:
/// ```compile_fail
/// # use tesseract_wire::Tag;
/// let a = Tag::from_bytes([0; 32]);
/// let b = Tag::from_bytes([0; 32]);
/// let _ = a == b; // does not compile
/// ```
#[derive(Copy, Clone)]
pub struct Tag([u8; TAG_LEN]);

impl Tag {
    /// A tag from its bytes.
    pub const fn from_bytes(bytes: [u8; TAG_LEN]) -> Tag {
        Tag(bytes)
    }

    /// The 32 bytes.
    pub const fn as_bytes(&self) -> &[u8; TAG_LEN] {
        &self.0
    }
}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tag({})", hex(&self.0))
    }
}

/// The text of a message: at most [`MAX_TEXT`] bytes of printable ASCII (`0x21..=0x7e`), checked when a
/// frame is decoded. Whether it is a *canonical* move text is for the session to check against its board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Text {
    len: u8,
    bytes: [u8; MAX_TEXT],
}

impl Text {
    /// The empty text (every message kind but Move and End).
    pub const EMPTY: Text = Text { len: 0, bytes: [0; MAX_TEXT] };

    /// A text from a string.
    ///
    /// # Errors
    /// [`Error::Malformed`] for more than [`MAX_TEXT`] bytes or a byte outside `0x21..=0x7e`.
    pub fn new(s: &str) -> Result<Text, Error> {
        Text::from_bytes(s.as_bytes())
    }

    fn from_bytes(b: &[u8]) -> Result<Text, Error> {
        if b.len() > MAX_TEXT {
            return Err(Error::Malformed("text longer than 32 bytes"));
        }
        if !b.iter().all(|c| (0x21..=0x7e).contains(c)) {
            return Err(Error::Malformed("text byte outside printable ASCII"));
        }
        let mut bytes = [0; MAX_TEXT];
        bytes[..b.len()].copy_from_slice(b);
        Ok(Text { len: b.len() as u8, bytes })
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only printable ASCII is ever stored.
        std::str::from_utf8(self.as_bytes()).unwrap_or("")
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The key-carrying part of Hello and Reply.
#[derive(Copy, Clone, Debug)]
pub struct KeysField {
    /// The match id as the sender knows it.
    pub match_id: [u8; 16],
    /// The sender's color: 0 White, 1 Black.
    pub color: u8,
    /// The sender's long-term public key, 65 bytes (checked by the session, not here).
    pub static_key: [u8; PUBLIC_KEY_LEN],
    /// The sender's ephemeral public key, 65 bytes (checked by the session, not here).
    pub ephemeral_key: [u8; PUBLIC_KEY_LEN],
}

/// The header and tag of a chain message (every kind but the three handshake kinds).
#[derive(Copy, Clone, Debug)]
pub struct MessageFrame {
    /// The message kind.
    pub kind: Kind,
    /// The message's place in the match's chain, counted over both directions from 0.
    pub seq: u32,
    /// The number of half-moves played before the message (for a move: before it).
    pub ply: u32,
    /// The sender's Zobrist hash of its board after the message (a bug detector).
    pub hash: u64,
    /// The move text, the end reason, or empty.
    pub text: Text,
    /// HMAC-SHA256 over the [`MacInput`].
    pub tag: Tag,
}

/// A decoded frame: well-formed bytes, nothing checked against any session yet.
///
/// # Examples
/// ```
/// use tesseract_wire::{Frame, Tag};
/// let f = Frame::Finished { tag: Tag::from_bytes([9; 32]) };
/// let bytes = f.encode();
/// assert_eq!(&bytes[..4], b"TW\x02\x03");
/// assert!(matches!(Frame::decode(&bytes)?, Frame::Finished { .. }));
/// assert!(Frame::decode(&bytes[..35]).is_err());
/// # Ok::<_, tesseract_wire::Error>(())
/// ```
#[derive(Copy, Clone, Debug)]
pub enum Frame {
    /// Handshake 1.
    Hello(KeysField),
    /// Handshake 2: keys and the responder's Finished tag.
    Reply(KeysField, Tag),
    /// Handshake 3: the initiator's Finished tag.
    Finished {
        /// The initiator's Finished tag.
        tag: Tag,
    },
    /// A chain message.
    Message(MessageFrame),
}

impl Frame {
    /// The frame's kind.
    pub fn kind(&self) -> Kind {
        match self {
            Frame::Hello(_) => Kind::Hello,
            Frame::Reply(..) => Kind::Reply,
            Frame::Finished { .. } => Kind::Finished,
            Frame::Message(m) => m.kind,
        }
    }

    /// The canonical bytes of the frame (PROTOCOL.md §5).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(184);
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        out.push(self.kind().as_byte());
        match self {
            Frame::Hello(k) => put_keys(&mut out, k),
            Frame::Reply(k, tag) => {
                put_keys(&mut out, k);
                out.extend_from_slice(tag.as_bytes());
            }
            Frame::Finished { tag } => out.extend_from_slice(tag.as_bytes()),
            Frame::Message(m) => {
                out.extend_from_slice(&m.seq.to_be_bytes());
                out.extend_from_slice(&m.ply.to_be_bytes());
                out.extend_from_slice(&m.hash.to_be_bytes());
                out.push(m.text.len);
                out.extend_from_slice(m.text.as_bytes());
                out.extend_from_slice(m.tag.as_bytes());
            }
        }
        out
    }

    /// Decodes a frame. The length is checked first: nothing longer than [`MAX_FRAME`] is parsed.
    ///
    /// # Errors
    /// [`Error::Oversize`], [`Error::Version`] for another protocol version, [`Error::FrameLength`] for a
    /// frame of a kind without text (handshake frames, draw offer, accept and decline, resign, abort) whose
    /// length is not that kind's one length, [`Error::TextNotAllowed`] for such a frame of a kind without
    /// text whose text-length byte is not 0, and [`Error::Malformed`] for any other deviation from the one
    /// canonical encoding (wrong magic, unknown kind, wrong length, trailing bytes, a text too long or not
    /// printable ASCII).
    pub fn decode(bytes: &[u8]) -> Result<Frame, Error> {
        if bytes.len() > MAX_FRAME {
            return Err(Error::Oversize { len: bytes.len(), max: MAX_FRAME });
        }
        let mut r = Reader { bytes, at: 0 };
        if r.take::<2>()? != MAGIC {
            return Err(Error::Malformed("bad magic"));
        }
        let version = r.u8()?;
        if version != VERSION {
            return Err(Error::Version(version));
        }
        let kind = Kind::from_byte(r.u8()?).ok_or(Error::Malformed("unknown kind"))?;
        if let Some(expected) = kind.fixed_len() {
            if bytes.len() != expected {
                return Err(Error::FrameLength { kind: kind.name(), expected, found: bytes.len() });
            }
        }
        let frame = match kind {
            Kind::Hello => Frame::Hello(r.keys()?),
            Kind::Reply => {
                let k = r.keys()?;
                Frame::Reply(k, Tag(r.take()?))
            }
            Kind::Finished => Frame::Finished { tag: Tag(r.take()?) },
            _ => {
                let seq = u32::from_be_bytes(r.take()?);
                let ply = u32::from_be_bytes(r.take()?);
                let hash = u64::from_be_bytes(r.take()?);
                let len = r.u8()? as usize;
                if kind.fixed_len().is_some() && len != 0 {
                    return Err(Error::TextNotAllowed { kind: kind.name() });
                }
                if len > MAX_TEXT {
                    return Err(Error::Malformed("text longer than 32 bytes"));
                }
                let text = Text::from_bytes(r.slice(len)?)?;
                let tag = Tag(r.take()?);
                Frame::Message(MessageFrame { kind, seq, ply, hash, text, tag })
            }
        };
        if r.at != bytes.len() {
            return Err(Error::Malformed("bytes after the tag"));
        }
        Ok(frame)
    }
}

fn put_keys(out: &mut Vec<u8>, k: &KeysField) {
    out.extend_from_slice(&k.match_id);
    out.push(k.color);
    out.extend_from_slice(&k.static_key);
    out.extend_from_slice(&k.ephemeral_key);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn slice(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end =
            self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(Error::Malformed("truncated frame"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let mut a = [0; N];
        a.copy_from_slice(self.slice(N)?);
        Ok(a)
    }

    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take::<1>()?[0])
    }

    fn keys(&mut self) -> Result<KeysField, Error> {
        let match_id = self.take()?;
        let color = self.u8()?;
        if color > 1 {
            return Err(Error::Malformed("color byte not 0 or 1"));
        }
        Ok(KeysField { match_id, color, static_key: self.take()?, ephemeral_key: self.take()? })
    }
}

/// Everything a message's tag covers (PROTOCOL.md §6). The receiver fills it from its *own* expected state
/// (its match id, the peer's pinned identity and color, its expected sequence number and ply, the
/// previous tag it holds), taking from the frame only the kind, the claimed hash and the text, so a header
/// field changed in transit or copied from another context fails the MAC.
///
/// The encoding is injective: every field has a fixed width but the text, which has a length prefix and
/// is followed by fixed-width fields only; [`MacInput::decode`] is its inverse (a proptest checks both).
///
/// # Examples
/// ```
/// use tesseract_wire::{Kind, MacInput, Text};
/// let input = MacInput {
///     version: 1, kind: Kind::Move, match_id: [1; 16], sender: [2; 16], color: 0,
///     seq: 0, ply: 0, hash: 42, text: Text::new("22132313")?, prev: [3; 32],
/// };
/// let bytes = input.encode();
/// assert_eq!(bytes.len(), 109 + 8);
/// assert_eq!(MacInput::decode(&bytes), Some(input));
/// # Ok::<_, tesseract_wire::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MacInput {
    /// The protocol version.
    pub version: u8,
    /// The message kind.
    pub kind: Kind,
    /// The match id.
    pub match_id: [u8; 16],
    /// The sender's 128-bit identity.
    pub sender: [u8; 16],
    /// The sender's color: 0 White, 1 Black.
    pub color: u8,
    /// The message's sequence number in the match.
    pub seq: u32,
    /// The ply at which it is sent.
    pub ply: u32,
    /// The sender's position hash after the message.
    pub hash: u64,
    /// The text.
    pub text: Text,
    /// The previous tag of the chain (for the first message, the initiator's Finished tag).
    pub prev: [u8; TAG_LEN],
}

impl MacInput {
    /// The length of the input without its text.
    pub const FIXED_LEN: usize = 1 + labels::MESSAGE.len() + 1 + 1 + 16 + 16 + 1 + 4 + 4 + 8 + 1 + TAG_LEN;

    /// The bytes the tag is computed over.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::FIXED_LEN + MAX_TEXT);
        out.push(labels::MESSAGE.len() as u8);
        out.extend_from_slice(labels::MESSAGE);
        out.push(self.version);
        out.push(self.kind.as_byte());
        out.extend_from_slice(&self.match_id);
        out.extend_from_slice(&self.sender);
        out.push(self.color);
        out.extend_from_slice(&self.seq.to_be_bytes());
        out.extend_from_slice(&self.ply.to_be_bytes());
        out.extend_from_slice(&self.hash.to_be_bytes());
        out.push(self.text.len);
        out.extend_from_slice(self.text.as_bytes());
        out.extend_from_slice(&self.prev);
        out
    }

    /// The inverse of [`MacInput::encode`]: `None` for bytes that no input encodes to.
    pub fn decode(bytes: &[u8]) -> Option<MacInput> {
        let mut r = Reader { bytes, at: 0 };
        let label_len = r.u8().ok()? as usize;
        if r.slice(label_len).ok()? != labels::MESSAGE {
            return None;
        }
        let version = r.u8().ok()?;
        let kind = Kind::from_byte(r.u8().ok()?)?;
        let match_id = r.take().ok()?;
        let sender = r.take().ok()?;
        let color = r.u8().ok()?;
        let seq = u32::from_be_bytes(r.take().ok()?);
        let ply = u32::from_be_bytes(r.take().ok()?);
        let hash = u64::from_be_bytes(r.take().ok()?);
        let len = r.u8().ok()? as usize;
        let text = Text::from_bytes(r.slice(len).ok()?).ok()?;
        let prev = r.take().ok()?;
        (r.at == bytes.len()).then_some(MacInput { version, kind, match_id, sender, color, seq, ply, hash, text, prev })
    }
}
