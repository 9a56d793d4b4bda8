//! An authenticated move protocol for 4D chess (Tesseract) and chess over an untrusted relay.
//!
//! The rules and the figures it follows are the project's contract, [`tesseract_board::rules`] (RULES.md).
//!
//! Two players who share nothing but a match id and each other's 128-bit identity (or an invitation
//! secret from the game link) play through a relay that may drop, duplicate, reorder, corrupt, replay or
//! forge frames, and may try to stand in the middle. The protocol, byte for byte, is in `PROTOCOL.md`
//! next to this crate, with known-answer vectors that a test checks.
//!
//! The crate is sans-IO: a [`Session`] takes bytes ([`Session::receive`]) and gives bytes
//! ([`Session::poll_transmit`]) and [`Event`]s; sockets, channels and timers are the caller's (the
//! `online` example of the workspace plays over Redis pub/sub). A session can be saved as (secret) bytes
//! and resumed in another process ([`Session::save_state`], [`Session::resume`]; PROTOCOL.md §11), and
//! [`resp`] reads a Redis relay with every size bounded.
//!
//! # Examples
//!
//! A whole handshake and two moves between two sessions, handing frames across by hand:
//! ```
//! use tesseract_board::{start, Color};
//! use tesseract_wire::{Action, EphemeralKey, Event, IdentityKey, MatchConfig, MatchId, Session};
//!
//! // Long-term keys; each player tells the other its identity out of band.
//! let alice = IdentityKey::random();
//! let bob = IdentityKey::random();
//! let id = MatchId::from_bytes([7; 16]);
//! let game = start::tesseract(start::Army::Standard);
//! let white_config = MatchConfig::new(id, Color::White, game.clone()).pin_peer(bob.identity());
//! let black_config = MatchConfig::new(id, Color::Black, game).pin_peer(alice.identity());
//! // A fresh ephemeral key per match and per side.
//! let mut white = Session::new(white_config, &alice, EphemeralKey::random())?;
//! let mut black = Session::new(black_config, &bob, EphemeralKey::random())?;
//!
//! // Hand every queued frame to the other side until both are quiet.
//! fn pump(a: &mut Session, b: &mut Session) -> Result<Vec<Event>, tesseract_wire::Error> {
//!     let mut events = Vec::new();
//!     loop {
//!         let mut moved = false;
//!         while let Some(f) = a.poll_transmit() { events.extend(b.receive(&f)?); moved = true; }
//!         while let Some(f) = b.poll_transmit() { events.extend(a.receive(&f)?); moved = true; }
//!         if !moved { return Ok(events); }
//!     }
//! }
//! pump(&mut black, &mut white)?; // Hello, Reply, Finished
//! assert_eq!(white.action(), Action::Move);
//!
//! white.play_text("22132313")?;
//! let events = pump(&mut white, &mut black)?;
//! assert!(matches!(&events[0], Event::Moved { text, .. } if text == "22132313"));
//! black.play_text("24532353")?;
//! pump(&mut black, &mut white)?;
//! assert_eq!(white.position(), black.position());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! A frame that does not authenticate — damaged, replayed, or sent by anyone else who can write to the
//! relay — is dropped and counted, and the match goes on; only the authenticated peer can end it:
//! ```
//! # use tesseract_board::{start, Color};
//! # use tesseract_wire::{EphemeralKey, Error, Event, IdentityKey, MatchConfig, MatchId, Phase, Session};
//! # let alice = IdentityKey::random();
//! # let bob = IdentityKey::random();
//! # let id = MatchId::from_bytes([7; 16]);
//! # let config = MatchConfig::new(id, Color::White, start::chess()).pin_peer(bob.identity());
//! # let mut white = Session::new(config, &alice, EphemeralKey::random())?;
//! let events = white.receive(b"TW\x02\x01 not a hello")?;
//! let [Event::Dropped { error }] = &events[..] else { panic!("{events:?}") };
//! assert_eq!(error.to_string(), "malformed frame: a hello frame has exactly 151 bytes, this one has 16");
//! assert_eq!((white.phase(), white.dropped()), (Phase::Handshake, 1));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design
//!
//! - **Identities are bound to keys.** Plain ephemeral ECDH through a relay is open to a man in the
//!   middle; here each player has a long-term P-256 key, its [`Identity`] is a hash of the public key, and
//!   the handshake mixes static and ephemeral Diffie-Hellman (`ee`, `es`, `se`, Noise-KK-shaped) so only
//!   the holders of the pinned keys (and, if used, of the invitation secret) derive the session keys.
//! - **The transcript is the salt.** HKDF-SHA256 is salted with the hash of everything public (version,
//!   match id, start position, both identities, all four public keys, ordered by color): a relay that
//!   changes any of it yields other keys and the Finished tags fail.
//! - **A strict ping-pong.** Handshake and game alternate (the side that does not move first opens), so
//!   a side has at most a frame or two unacknowledged (three at most) and retransmitting them after a silence heals
//!   any drop; a byte-identical copy of a frame accepted lately is ignored. Resign and abort may cross a
//!   message in flight; the receiver checks them against the state before its own last message.
//! - **Nobody but the peer can stop a match.** A frame that does not authenticate as the peer's next one
//!   (junk, a damaged or replayed frame, a stranger's handshake) is dropped and counted
//!   ([`Session::dropped`], [`Event::Dropped`]), never fatal; a responder answers every well-formed Hello
//!   and keeps the last few until a Finished tag proves which was the peer's.
//! - **Chained tags over the receiver's own state.** Each message's full 32-byte HMAC-SHA256 covers a
//!   label, the version, the kind, the match id, the sender's identity and color, the sequence number,
//!   the ply, the sender's position hash, the text and the previous tag. The receiver fills all of it from
//!   its own records but the kind, text and claimed hash, and verifies with `Mac::verify_slice`.
//! - **The board has the last word.** An authentic move is still checked by the legal generator
//!   (`tesseract-movegen`) and must be the one canonical text of a legal move; then the sender's Zobrist
//!   hash must equal ours. Either failure is a protocol violation or a desync, reported as such.
//! - **Fail closed, say nothing.** The first authenticated violation (an illegal move, a false claim, a
//!   desync) aborts the session; the only frame it still sends is an authenticated Abort that carries no
//!   reason. The local [`Error`] says exactly what failed.
//!
//! # Feature flags
//! - `redis` (off by default): the `redis` module, playing a session through a Redis relay (a reconnecting
//!   pub/sub link, the saving policy of a state file); native targets only.
//! - `testkit` (off by default): the `testkit` module, helpers for tests and demonstrations that are
//!   **not covered by semver** — automatic players (`Mover`, `SeededMover`, `AutoPlayer`), a
//!   fault-injecting relay (`FaultyRelay`, `duel`) and the primitives' entry points for the Wycheproof
//!   and known-answer tests. Production code needs none of it: a [`Session`] is the whole protocol.
//!
//! # Layout
//! A [`Session`] is in named parts, one file each under `src/session/`: the handshake (keys, peer,
//! transcript hash, derived keys), the message chain (sequence number, previous tag, turn to send), the
//! game (board, moves, draw offers) and the transport (outbox, unacknowledged frames, last accepted
//! frame). An incoming message goes through three steps, authenticate, decide and commit, so that nothing
//! changes before every check has passed. The 25 attacks of the threat model (PROTOCOL.md §10) are unit
//! tests of the session module (`src/session/attacks.rs`).

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod crypto;
mod error;
mod frame;
mod keys;
mod labels;
#[cfg(feature = "redis")]
pub mod redis;
pub mod resp;
mod session;
#[cfg(feature = "testkit")]
pub mod testkit;

pub use error::Error;
pub use frame::{
    Frame, KeysField, Kind, MAGIC, MAX_FRAME, MAX_TEXT, MacInput, MessageFrame, TAG_LEN, Tag, Text, VERSION,
};
pub use keys::{EphemeralKey, Identity, IdentityKey, InvitationSecret, KeyError, MatchId, PUBLIC_KEY_LEN, PublicKey};
pub use session::{
    Action, EndReason, Event, GameResult, MAX_STATE, MatchConfig, Phase, STATE_FORMAT, Session, StateError,
};
/// The rules' ends, which [`EndReason::Rules`] names (tesseract-movegen's one list of them).
pub use tesseract_movegen::Termination;
/// The buffer type that wipes secrets on drop (from the `zeroize` crate), as [`Session::save_state`] and
/// [`IdentityKey::to_bytes`] return them.
pub use zeroize::Zeroizing;

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
