//! Errors: typed and precise for the local user; on the wire, one content-free Abort whatever went wrong.

use tesseract_movegen::MoveError;

use crate::frame::Kind;
use crate::keys::{Identity, KeyError};

/// What went wrong, for the local user. The peer is never told which check failed.
///
/// An incoming frame that does not authenticate is dropped with one of these as the reason
/// ([`crate::Event::Dropped`]: nothing changes); an authenticated frame that breaks the protocol aborts the
/// session, and the only thing it sends then is an Abort with no reason ([`crate::Session::receive`]'s
/// error). [`Error::is_local`] tells misuse of the local API (a move out of turn, an illegal local move),
/// which changes nothing, from such violations.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A frame longer than the limit, refused before parsing.
    #[error("frame of {len} bytes refused: the limit is {max}")]
    Oversize {
        /// Its length.
        len: usize,
        /// The limit, [`crate::MAX_FRAME`].
        max: usize,
    },
    /// Bytes that are not a canonical frame.
    #[error("malformed frame: {0}")]
    Malformed(&'static str),
    /// A frame of a kind that has one fixed length (every kind but Move and End) with another length,
    /// refused before its fields are read: a text or any other byte where the kind has none.
    #[error("malformed frame: a {kind} frame has exactly {expected} bytes, this one has {found}")]
    FrameLength {
        /// The kind's name.
        kind: &'static str,
        /// The kind's length.
        expected: usize,
        /// The frame's length.
        found: usize,
    },
    /// A frame of a kind without text (draw offer, accept and decline, resign, abort) of that kind's one
    /// length whose text-length byte is not 0.
    #[error("malformed frame: a {kind} frame carries no text")]
    TextNotAllowed {
        /// The kind's name.
        kind: &'static str,
    },
    /// A frame of another protocol version (no negotiation, no downgrade).
    #[error("protocol version {0} refused: this side speaks version 2 only")]
    Version(u8),
    /// A handshake frame naming another match.
    #[error("the frame is for another match")]
    WrongMatch,
    /// A public key in a handshake frame was refused.
    #[error("the peer's {which} key was refused: {source}")]
    BadKey {
        /// `static` or `ephemeral`.
        which: &'static str,
        /// Why.
        source: KeyError,
    },
    /// The peer's long-term key is not the one whose identity was pinned.
    #[error("the peer's key has identity {found}, but {expected} was pinned: someone else is answering")]
    IdentityMismatch {
        /// The pinned identity.
        expected: Identity,
        /// The identity of the key received.
        found: Identity,
    },
    /// Our own key or frame came back (reflection), or the peer claims our color.
    #[error("reflection: {0}")]
    Reflection(&'static str),
    /// A Finished or message tag did not verify.
    #[error("authentication failed for a {0} frame")]
    Authentication(&'static str),
    /// A frame of a kind not acceptable now (out of order, out of turn, wrong phase).
    #[error("unexpected {kind} frame: {why}")]
    Unexpected {
        /// The kind's name.
        kind: &'static str,
        /// Why not now.
        why: &'static str,
    },
    /// A message whose sequence number or ply is not the expected one (drop, replay or reorder).
    #[error("expected message {expected} at ply {expected_ply}, got message {found} at ply {found_ply}")]
    Sequence {
        /// The expected sequence number.
        expected: u32,
        /// The expected ply.
        expected_ply: u32,
        /// The sequence number in the frame.
        found: u32,
        /// The ply in the frame.
        found_ply: u32,
    },
    /// A move text that is not the one canonical text of a legal move here.
    #[error("move text {0:?} is not canonical (RULES.md §4)")]
    NonCanonical(String),
    /// An authentic move that is illegal on our board: a protocol violation by the peer.
    #[error("illegal move: {0}")]
    IllegalMove(MoveError),
    /// The boards disagree: the peer's hash after the message is not ours.
    #[error("desync at ply {ply}: our position hash is {ours:016x}, the peer's {theirs:016x}")]
    Desync {
        /// The ply after the message.
        ply: u32,
        /// Our hash.
        ours: u64,
        /// The peer's.
        theirs: u64,
    },
    /// An End message whose claim our board does not support.
    #[error("false end claim {0:?}")]
    FalseClaim(String),
    /// A sequence number or ply would overflow.
    #[error("the message counter is exhausted")]
    CounterExhausted,
    /// The session failed earlier (or was aborted) and accepts nothing more.
    #[error("the session was aborted and accepts nothing more")]
    Aborted,
    /// The game is over; the session accepts nothing but duplicates of the last frame.
    #[error("the game is over")]
    Closed,
    /// Local misuse: not the local player's turn to send this.
    #[error("not now: {0}")]
    NotNow(&'static str),
    /// Local misuse: an illegal local move.
    #[error("illegal local move: {0}")]
    IllegalLocalMove(MoveError),
    /// The match configuration cannot be authenticated or is inconsistent.
    #[error("configuration: {0}")]
    Config(&'static str),
}

impl Error {
    /// Whether the error is local misuse or a refusal after the end that changed nothing (the session goes
    /// on, or is already over), rather than a violation that aborted the session. (Frames that do not
    /// authenticate are not errors of [`crate::Session::receive`] at all: they come back as
    /// [`crate::Event::Dropped`].)
    ///
    /// # Examples
    /// ```
    /// use tesseract_wire::Error;
    /// assert!(Error::NotNow("not your turn").is_local());
    /// assert!(!Error::Authentication("move").is_local());
    /// ```
    pub fn is_local(&self) -> bool {
        matches!(
            self,
            Error::NotNow(_) | Error::IllegalLocalMove(_) | Error::Config(_) | Error::Closed | Error::Aborted
        )
    }

    /// The error's kind by name, the variant's (`Authentication`, `Desync`, `Sequence`, …): a stable key
    /// for programs and logs, where the Display text is for people.
    ///
    /// ```
    /// use tesseract_wire::Error;
    /// assert_eq!(Error::Authentication("move").name(), "Authentication");
    /// assert_eq!(Error::Closed.name(), "Closed");
    /// ```
    pub const fn name(&self) -> &'static str {
        match self {
            Error::Oversize { .. } => "Oversize",
            Error::Malformed { .. } => "Malformed",
            Error::FrameLength { .. } => "FrameLength",
            Error::TextNotAllowed { .. } => "TextNotAllowed",
            Error::Version { .. } => "Version",
            Error::WrongMatch => "WrongMatch",
            Error::BadKey { .. } => "BadKey",
            Error::IdentityMismatch { .. } => "IdentityMismatch",
            Error::Reflection { .. } => "Reflection",
            Error::Authentication { .. } => "Authentication",
            Error::Unexpected { .. } => "Unexpected",
            Error::Sequence { .. } => "Sequence",
            Error::NonCanonical { .. } => "NonCanonical",
            Error::IllegalMove { .. } => "IllegalMove",
            Error::Desync { .. } => "Desync",
            Error::FalseClaim { .. } => "FalseClaim",
            Error::CounterExhausted => "CounterExhausted",
            Error::Aborted => "Aborted",
            Error::Closed => "Closed",
            Error::NotNow { .. } => "NotNow",
            Error::IllegalLocalMove { .. } => "IllegalLocalMove",
            Error::Config { .. } => "Config",
        }
    }

    pub(crate) fn unexpected(kind: Kind, why: &'static str) -> Error {
        Error::Unexpected { kind: kind.name(), why }
    }
}
