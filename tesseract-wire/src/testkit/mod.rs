//! Helpers for tests and demonstrations, behind the `testkit` feature: **not covered by semver** (they may
//! change in any release) and not meant for production code.
//!
//! - automatic players: the [`Mover`] trait, [`SeededMover`] (a deterministic, ChaCha-seeded stand-in for
//!   an engine) and [`AutoPlayer`] (answers for a session: moves, draw offers at a move cap, claims);
//! - a relay that misbehaves on purpose, [`FaultyRelay`] with its [`Faults`], and [`duel`], which plays a
//!   whole match between two automatic players through it and reports ([`DuelReport`]) whether the two
//!   boards ever silently disagreed;
//! - the primitives' entry points for the known-answer tests ([`hmac_sha256`], [`hmac_sha256_verify`],
//!   [`hkdf_sha256`], [`ecdh_p256`]), through the same crates and key decoding as the protocol.
//!   [`hmac_sha256_verify`] accepts truncated tags, which the protocol never does.
//!
//! The crate's own tests, the workspace's `online` example (`--auto`, `--local`, `--faults`) and its tests
//! turn the feature on in their dev-dependencies:
//!
//! ```toml
//! [dev-dependencies]
//! tesseract-wire = { version = "0.1", features = ["testkit"] }
//! ```
//!
//! # Examples
//!
//! A whole match between two automatic players through a relay that drops and duplicates frames:
//! ```
//! use tesseract_board::{start, Color};
//! use tesseract_wire::testkit::{duel, AutoPlayer, FaultyRelay, Faults, SeededMover};
//! use tesseract_wire::{EphemeralKey, IdentityKey, MatchConfig, MatchId, Session};
//! # let alice = IdentityKey::random();
//! # let bob = IdentityKey::random();
//! let id = MatchId::from_bytes([9; 16]);
//! let config = |c| MatchConfig::new(id, c, start::chess());
//! let white = Session::new(config(Color::White).pin_peer(bob.identity()), &alice, EphemeralKey::random())?;
//! let black = Session::new(config(Color::Black).pin_peer(alice.identity()), &bob, EphemeralKey::random())?;
//! let mut relay = FaultyRelay::new(3, Faults::LOSSY);
//! let (mut wp, mut bp) = (AutoPlayer::new(SeededMover::new(1), 40), AutoPlayer::new(SeededMover::new(2), 40));
//! let report = duel(white, black, &mut wp, &mut bp, &mut relay, 10_000);
//! assert!(report.completed() && report.consistent());
//! assert_eq!(report.white.hash, report.black.hash);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod auto;
mod primitives;
mod relay;

pub use auto::{AutoPlayer, Mover, ScriptedPlayer, SeededMover};
pub use primitives::{ecdh_p256, hkdf_sha256, hmac_sha256, hmac_sha256_verify};
pub use relay::{DuelReport, Fault, Faults, FaultyRelay, SideReport, duel};
