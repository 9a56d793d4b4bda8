//! Playing a [`Session`](crate::Session) through a Redis relay (feature `redis`; PROTOCOL.md §12.1): a
//! reconnecting pub/sub link ([`RedisRelay`]) and the saving policy of a player's state file
//! ([`StateSaver`]). The `online` example of the workspace is built on them.
//!
//! The session stays sans-IO: the caller hands it what [`RedisRelay::poll`] delivers, publishes what it
//! queues with [`RedisRelay::publish`] (after [`StateSaver::save`] says the state is on disk), and calls
//! [`Session::retransmit`](crate::Session::retransmit) when the link comes back or after a silence.
//!
//! ```no_run
//! use std::time::Duration;
//! use tesseract_board::{start, Color};
//! use tesseract_wire::redis::{RedisRelay, RelayEvent, Target};
//! use tesseract_wire::{EphemeralKey, IdentityKey, InvitationSecret, MatchConfig, MatchId, Session};
//!
//! let id: MatchId = "00112233445566778899aabbccddeeff".parse()?;
//! let secret: InvitationSecret = "11".repeat(32).parse()?;
//! let config = MatchConfig::new(id, Color::White, start::chess()).invitation(secret);
//! let mut session = Session::new(config, &IdentityKey::random(), EphemeralKey::random())?;
//! let mut relay = RedisRelay::new(Target::from_url("redis://127.0.0.1:6379")?, id, Color::White);
//! loop {
//!     match relay.poll(Duration::from_millis(20)) {
//!         Some(RelayEvent::Connected { .. }) => session.retransmit(),
//!         Some(RelayEvent::Frame(bytes)) => drop(session.receive(&bytes)?),
//!         Some(RelayEvent::Oversize(len)) => drop(session.receive_oversize(len)?),
//!         _ => {}
//!     }
//!     while let Some(frame) = session.poll_transmit() {
//!         let _ = relay.publish(&frame); // a failure drops the link: the frame is sent again later
//!     }
//!     // ... moves, the silence rule, the end of the match ...
//! #   break;
//! }
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod link;

use std::time::{Duration, Instant};

use tesseract_board::Color;
use zeroize::Zeroizing;

pub use link::Target;
use link::{Incoming, Link};

use crate::{MatchId, Session};

/// The channel a player publishes on: `tesseract-wire:<match id>:<color>` (PROTOCOL.md §12.1).
///
/// # Examples
/// ```
/// use tesseract_board::Color;
/// use tesseract_wire::MatchId;
/// use tesseract_wire::redis::channel;
/// let id = MatchId::from_bytes([0xab; 16]);
/// assert_eq!(channel(id, Color::Black), format!("tesseract-wire:{}:black", "ab".repeat(16)));
/// ```
pub fn channel(match_id: MatchId, color: Color) -> String {
    let color = match color {
        Color::White => "white",
        Color::Black => "black",
    };
    format!("tesseract-wire:{match_id}:{color}")
}

/// What [`RedisRelay::poll`] reports.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RelayEvent {
    /// The link is up: whatever was published meanwhile is lost, so send the unacknowledged frames again.
    Connected {
        /// Whether it is up again after the link was lost or the relay was unreachable.
        again: bool,
    },
    /// The relay could not be reached; said once per run of failed attempts, which go on with backoff.
    Unreachable(String),
    /// The link failed; a new one is attempted with backoff.
    Lost(String),
    /// A payload the peer's channel delivered (at most a frame's length: hand it to the session).
    Frame(Vec<u8>),
    /// A payload longer than a frame, skipped unread: its length (for
    /// [`Session::receive_oversize`](crate::Session::receive_oversize)).
    Oversize(u64),
}

/// Waits between attempts to reach the relay: 100 ms, doubling after each failure up to 2 s (§12.1).
#[derive(Debug)]
struct Backoff {
    delay: Duration,
    next: Instant,
}

impl Backoff {
    const FIRST: Duration = Duration::from_millis(100);
    const MAX: Duration = Duration::from_secs(2);

    fn new() -> Backoff {
        Backoff { delay: Backoff::FIRST, next: Instant::now() }
    }

    fn due(&self) -> bool {
        Instant::now() >= self.next
    }

    fn failed(&mut self) {
        self.next = Instant::now() + self.delay;
        self.delay = (self.delay * 2).min(Backoff::MAX);
    }
}

/// A player's link to a Redis relay that reconnects by itself: it publishes on the player's channel,
/// listens on the peer's, and when the connection fails opens a new one after 100 ms, then twice as long
/// after each failure up to 2 s (PROTOCOL.md §12.1).
pub struct RedisRelay {
    target: Target,
    mine: String,
    theirs: String,
    link: Option<Link>,
    backoff: Backoff,
    /// Since when the relay is unreachable (from the start until the first connection).
    lost_since: Option<Instant>,
    /// Whether the current run of failures was reported.
    reported: bool,
}

impl std::fmt::Debug for RedisRelay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisRelay")
            .field("mine", &self.mine)
            .field("theirs", &self.theirs)
            .field("connected", &self.link.is_some())
            .finish_non_exhaustive()
    }
}

impl RedisRelay {
    /// A relay for `color`'s side of match `match_id`; nothing is connected before the first
    /// [`RedisRelay::poll`].
    pub fn new(target: Target, match_id: MatchId, color: Color) -> RedisRelay {
        RedisRelay {
            target,
            mine: channel(match_id, color),
            theirs: channel(match_id, color.other()),
            link: None,
            backoff: Backoff::new(),
            lost_since: Some(Instant::now()),
            reported: false,
        }
    }

    /// Whether the link is up.
    pub fn is_connected(&self) -> bool {
        self.link.is_some()
    }

    /// How long the relay has been out of reach (since the start, or since the link was lost), if it is.
    pub fn unreachable_for(&self) -> Option<Duration> {
        self.lost_since.map(|t| t.elapsed())
    }

    /// Connects if the link is down and it is time to try, otherwise waits at most `wait` for what the
    /// peer's channel delivers.
    pub fn poll(&mut self, wait: Duration) -> Option<RelayEvent> {
        if self.link.is_none() {
            if !self.backoff.due() {
                std::thread::sleep(wait);
                return None;
            }
            return match Link::open(&self.target, &self.theirs) {
                Ok(link) => {
                    self.link = Some(link);
                    self.lost_since = None;
                    self.backoff = Backoff::new();
                    Some(RelayEvent::Connected { again: std::mem::take(&mut self.reported) })
                }
                Err(e) => {
                    self.backoff.failed();
                    let first = !std::mem::replace(&mut self.reported, true);
                    first.then_some(RelayEvent::Unreachable(e))
                }
            };
        }
        match self.link.as_ref()?.recv(wait)? {
            Incoming::Frame(bytes) => Some(RelayEvent::Frame(bytes)),
            Incoming::Oversize(len) => Some(RelayEvent::Oversize(len)),
            Incoming::Lost(e) => {
                self.lose();
                Some(RelayEvent::Lost(e))
            }
        }
    }

    /// Publishes a frame on the player's channel.
    ///
    /// # Errors
    /// The relay's or the connection's message when it fails: the link is dropped (a new one is attempted
    /// by the next [`RedisRelay::poll`]s) and the frame is lost, to be sent again by the session's
    /// retransmission; or "not connected" while the link is down.
    pub fn publish(&mut self, frame: &[u8]) -> Result<(), String> {
        let link = self.link.as_mut().ok_or_else(|| "not connected".to_string())?;
        link.publish(&self.mine, frame).inspect_err(|_| self.lose())
    }

    fn lose(&mut self) {
        if self.link.take().is_some() {
            self.reported = true;
            self.lost_since = Some(Instant::now());
            self.backoff = Backoff::new();
            self.backoff.failed();
        }
    }
}

/// What [`StateSaver::save`] did.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SaveOutcome {
    /// The session's current state is on disk (written now, or unchanged since the last write); `again`
    /// when this ends a run of failures.
    Saved {
        /// Whether earlier attempts had failed.
        again: bool,
    },
    /// The write failed (`first` of a run of failures, for a message): nothing may be sent.
    Failed {
        /// Whether this is the first failure in a row.
        first: bool,
        /// The write's error.
        error: String,
    },
    /// A write failed lately, and the next attempt is not due yet: nothing may be sent.
    Waiting,
}

impl SaveOutcome {
    /// Whether the state is on disk, so that the frames it queued may be sent.
    pub fn is_saved(&self) -> bool {
        matches!(self, SaveOutcome::Saved { .. })
    }
}

/// The saving policy of PROTOCOL.md §11 for a player's state file: the session's state is written after
/// every change and **before** the frames of that change are sent; a failed write is tried again 200 ms
/// later, and after [`StateSaver::ATTEMPTS`] failures in a row the player should give up (its file still
/// holds the last state saved, from which a restart resumes: the peer has seen nothing newer).
///
/// `write` puts the (secret) bytes where they belong: a file replaced atomically and readable by its owner
/// only, in the `online` example.
///
/// # Examples
/// ```
/// # use tesseract_board::{start, Color};
/// # use tesseract_wire::{EphemeralKey, IdentityKey, MatchConfig, MatchId, Session};
/// use tesseract_wire::redis::{SaveOutcome, StateSaver};
/// # let (identity, peer) = (IdentityKey::random(), IdentityKey::random().identity());
/// # let config = MatchConfig::new(MatchId::from_bytes([1; 16]), Color::Black, start::chess()).pin_peer(peer);
/// # let session = Session::new(config.clone(), &identity, EphemeralKey::random())?;
/// let mut disk: Option<Vec<u8>> = None;
/// let mut saver = StateSaver::new(|bytes: &[u8]| { disk = Some(bytes.to_vec()); Ok(()) }, None);
/// assert_eq!(saver.save(&session), SaveOutcome::Saved { again: false });
/// drop(saver);
/// assert!(Session::resume(config, &identity, disk.as_deref().unwrap()).is_ok());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub struct StateSaver<W> {
    write: W,
    written: Option<Zeroizing<Vec<u8>>>,
    failures: u32,
    retry_at: Instant,
}

impl<W> std::fmt::Debug for StateSaver<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the state: it holds the match's keys.
        f.debug_struct("StateSaver").field("failures", &self.failures).finish_non_exhaustive()
    }
}

impl<W: FnMut(&[u8]) -> std::io::Result<()>> StateSaver<W> {
    /// Failed writes in a row after which the player gives up.
    pub const ATTEMPTS: u32 = 10;
    /// The wait before a failed write is tried again.
    pub const RETRY: Duration = Duration::from_millis(200);

    /// A saver writing with `write`; `written` is what the file holds already (a resumed state), so that
    /// an unchanged state is not written again.
    pub fn new(write: W, written: Option<Zeroizing<Vec<u8>>>) -> StateSaver<W> {
        StateSaver { write, written, failures: 0, retry_at: Instant::now() }
    }

    /// Writes the session's state if it changed since the last write (or waits, after a recent failure).
    pub fn save(&mut self, session: &Session) -> SaveOutcome {
        if self.failures > 0 && Instant::now() < self.retry_at {
            return SaveOutcome::Waiting;
        }
        let result = session.save_state().map_err(|e| e.to_string()).and_then(|bytes| {
            if self.written.as_ref().is_none_or(|w| **w != *bytes) {
                (self.write)(&bytes).map_err(|e| e.to_string())?;
                self.written = Some(bytes);
            }
            Ok(())
        });
        match result {
            Ok(()) => SaveOutcome::Saved { again: std::mem::take(&mut self.failures) > 0 },
            Err(error) => {
                self.failures += 1;
                self.retry_at = Instant::now() + Self::RETRY;
                SaveOutcome::Failed { first: self.failures == 1, error }
            }
        }
    }

    /// Whether [`StateSaver::ATTEMPTS`] writes failed in a row: time to give up.
    pub fn given_up(&self) -> bool {
        self.failures >= Self::ATTEMPTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EphemeralKey, IdentityKey, MatchConfig};
    use tesseract_board::start;

    fn session() -> Session {
        let peer = IdentityKey::random().identity();
        let config = MatchConfig::new(MatchId::from_bytes([1; 16]), Color::Black, start::chess()).pin_peer(peer);
        Session::new(config, &IdentityKey::random(), EphemeralKey::random()).unwrap()
    }

    /// Writes only what changed; after a failure waits [`StateSaver::RETRY`], says `first` once, gives up
    /// after [`StateSaver::ATTEMPTS`] failures, and says `again` when a write succeeds after failures.
    #[test]
    fn the_saving_policy() {
        let s = session();
        let mut writes = 0;
        let mut saver = StateSaver::new(
            |_: &[u8]| {
                writes += 1;
                if writes >= 2 { Err(std::io::Error::other("disk full")) } else { Ok(()) }
            },
            None,
        );
        assert_eq!(saver.save(&s), SaveOutcome::Saved { again: false });
        assert_eq!(saver.save(&s), SaveOutcome::Saved { again: false }, "unchanged: not written again");
        let mut s = s;
        s.abort(); // a change
        assert_eq!(saver.save(&s), SaveOutcome::Failed { first: true, error: "disk full".into() });
        assert_eq!(saver.save(&s), SaveOutcome::Waiting);
        for n in 2..=StateSaver::<fn(&[u8]) -> std::io::Result<()>>::ATTEMPTS {
            std::thread::sleep(StateSaver::<fn(&[u8]) -> std::io::Result<()>>::RETRY);
            assert!(!saver.given_up());
            assert_eq!(saver.save(&s), SaveOutcome::Failed { first: false, error: "disk full".into() }, "{n}");
        }
        assert!(saver.given_up());
    }

    #[test]
    fn a_write_after_failures_says_again() {
        let s = session();
        let mut calls = 0;
        let mut saver = StateSaver::new(
            |_: &[u8]| {
                calls += 1;
                if calls == 1 { Err(std::io::Error::other("busy")) } else { Ok(()) }
            },
            None,
        );
        assert!(!saver.save(&s).is_saved());
        std::thread::sleep(Duration::from_millis(210));
        assert_eq!(saver.save(&s), SaveOutcome::Saved { again: true });
        assert!(!saver.given_up());
    }

    #[test]
    fn backoff_doubles_up_to_two_seconds() {
        let mut b = Backoff::new();
        assert!(b.due());
        let delays: Vec<_> = (0..7)
            .map(|_| {
                let d = b.delay;
                b.failed();
                d.as_millis()
            })
            .collect();
        assert_eq!(delays, [100, 200, 400, 800, 1600, 2000, 2000]);
        assert!(!b.due());
    }
}
