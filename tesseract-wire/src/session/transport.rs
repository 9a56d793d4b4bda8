//! The transport part of a session: the frames to send, the unacknowledged ones to send again after a
//! silence, and the last accepted frames, whose byte-identical copies are ignored (PROTOCOL.md §6); and
//! the entry of incoming bytes, where a frame that does not authenticate is dropped and counted, and only
//! an authenticated violation aborts the session (§7).

use std::collections::VecDeque;

use super::{Event, Refusal, Session, Stage};
use crate::Error;
use crate::frame::{Frame, Kind, MAX_FRAME, Text};

/// The frames of a session, out and in.
#[derive(Default)]
pub(super) struct Transport {
    /// The frames to send, in order.
    pub(super) outbox: VecDeque<Vec<u8>>,
    /// The frames the peer may not have received yet.
    pub(super) unacked: Vec<Vec<u8>>,
    /// The last frames accepted, byte for byte, oldest first (at most [`RECENT`]).
    pub(super) recent: VecDeque<Vec<u8>>,
    /// How many frames were dropped because they did not authenticate as the peer's next frame.
    pub(super) dropped: u64,
}

/// How many of the last accepted frames a session remembers, to ignore their byte-identical copies (the
/// peer's retransmissions: at most three unacknowledged frames, and its handshake frame).
pub(super) const RECENT: usize = 4;

impl Transport {
    /// Queues a frame to send, and keeps it until the peer's answer acknowledges it.
    pub(super) fn queue(&mut self, frame: Vec<u8>) {
        self.outbox.push_back(frame.clone());
        self.unacked.push(frame);
    }

    /// Remembers an accepted frame, so that its copies are ignored.
    pub(super) fn remember(&mut self, frame: Vec<u8>) {
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(frame);
    }
}

impl Session {
    /// The next frame to send, if any. Send them all, in order, to the peer.
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transport.outbox.pop_front()
    }

    /// The frames the peer may not have received yet (at most three): what to send again after a silence.
    pub fn unacknowledged(&self) -> &[Vec<u8>] {
        &self.transport.unacked
    }

    /// Queues the [unacknowledged](Session::unacknowledged) frames again, for [`Session::poll_transmit`].
    /// The peer ignores a byte-identical copy of the last frame it accepted, so this is always harmless.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, Color};
    /// use tesseract_wire::{EphemeralKey, IdentityKey, MatchConfig, MatchId, Session};
    /// let (me, peer) = (IdentityKey::from_bytes(&[1; 32])?, IdentityKey::from_bytes(&[2; 32])?);
    /// let config = MatchConfig::new(MatchId::from_bytes([5; 16]), Color::Black, start::chess()).pin_peer(peer.identity());
    /// let mut black = Session::new(config, &me, EphemeralKey::random())?;
    /// let hello = black.poll_transmit().unwrap(); // lost on the way
    /// black.retransmit(); // after a silence
    /// assert_eq!(black.poll_transmit(), Some(hello));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn retransmit(&mut self) {
        // Frames still waiting in the outbox are not queued twice: however often a client retransmits
        // while it cannot send (a lost socket, a state it cannot save), the outbox stays bounded.
        let t = &mut self.transport;
        for f in &t.unacked {
            if !t.outbox.contains(f) {
                t.outbox.push_back(f.clone());
            }
        }
    }

    /// Takes one frame from the relay.
    ///
    /// Returns what happened. A byte-identical copy of one of the last frames accepted is ignored
    /// ([`Event::Duplicate`]). A frame that does not authenticate as the peer's next frame — too long,
    /// malformed, for another match or version, a bad key or tag, a copy of an older frame (its sequence
    /// number is past), a frame of the wrong stage — is **dropped**: nothing changes but the count of
    /// [`Session::dropped`], and [`Event::Dropped`] says why. Anyone who can write to the relay can send
    /// such frames; they cannot stop a match. Only an *authenticated* frame that breaks the rules — an
    /// illegal or non-canonical move, a message out of turn, a false claim, a board desync — aborts the
    /// session: it queues one Abort frame (which does not say why) and refuses everything after.
    ///
    /// # Errors
    /// The typed [`Error`] of the violation that aborted the session now, for the local user only; or,
    /// with nothing changed, [`Error::Aborted`] once aborted and [`Error::Closed`] after the end of the
    /// match (a frame that is not a copy of one accepted last).
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, Color};
    /// use tesseract_wire::{EphemeralKey, Error, Event, IdentityKey, MatchConfig, MatchId, Phase, Session};
    /// let (alice, bob) = (IdentityKey::from_bytes(&[1; 32])?, IdentityKey::from_bytes(&[2; 32])?);
    /// let config = |c| MatchConfig::new(MatchId::from_bytes([5; 16]), c, start::chess());
    /// let mut white = Session::new(config(Color::White).pin_peer(bob.identity()), &alice, EphemeralKey::random())?;
    /// let mut black = Session::new(config(Color::Black).pin_peer(alice.identity()), &bob, EphemeralKey::random())?;
    /// let hello = black.poll_transmit().unwrap();
    /// let mut forged = hello.clone();
    /// forged[20] ^= 1; // a bit flipped in transit
    /// assert!(matches!(white.receive(&forged)?[..], [Event::Dropped { .. }]));
    /// assert_eq!((white.dropped(), white.phase()), (1, Phase::Handshake)); // counted, nothing else
    /// assert!(white.receive(&hello)?.is_empty()); // answered with a Reply
    /// assert_eq!(white.receive(&hello)?, [Event::Duplicate]); // a retransmission: the Reply again
    /// let reply = white.poll_transmit().unwrap();
    /// assert!(matches!(black.receive(&reply)?[..], [Event::PeerKeys { .. }, Event::Established { .. }]));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn receive(&mut self, bytes: &[u8]) -> Result<Vec<Event>, Error> {
        if self.stage == Stage::Aborted {
            return Err(Error::Aborted);
        }
        if self.transport.recent.iter().any(|f| f == bytes) {
            return Ok(vec![Event::Duplicate]);
        }
        if let Stage::Closed(_) = self.stage {
            return Err(Error::Closed);
        }
        if bytes.len() > MAX_FRAME {
            return Ok(self.drop_frame(Error::Oversize { len: bytes.len(), max: MAX_FRAME }));
        }
        let frame = match Frame::decode(bytes) {
            Ok(f) => f,
            Err(e) => return Ok(self.drop_frame(e)),
        };
        let handshake = !frame.kind().is_message();
        match self.accept(frame, bytes) {
            Ok(events) => {
                // A Hello is remembered once it is proven (the responder's candidates keep it till then).
                if !(handshake && self.stage == Stage::AwaitFinished) {
                    self.transport.remember(bytes.to_vec());
                }
                Ok(events)
            }
            Err(Refusal::Drop(e)) => Ok(self.drop_frame(e)),
            Err(Refusal::Violation(e)) => self.fail(e),
        }
    }

    /// Takes the news of a frame longer than [`MAX_FRAME`] that the caller refused to read (a bounded
    /// reader such as [`crate::resp::read_reply`] skips it and reports only its length). The session treats
    /// it as [`Session::receive`] treats such a frame: it is dropped and counted.
    ///
    /// # Errors
    /// [`Error::Closed`] / [`Error::Aborted`] once the match is over (nothing changes).
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, Color};
    /// use tesseract_wire::{EphemeralKey, Error, Event, IdentityKey, MatchConfig, MatchId, Phase, Session};
    /// let (me, peer) = (IdentityKey::from_bytes(&[1; 32])?, IdentityKey::from_bytes(&[2; 32])?);
    /// let config = MatchConfig::new(MatchId::from_bytes([5; 16]), Color::White, start::chess()).pin_peer(peer.identity());
    /// let mut white = Session::new(config, &me, EphemeralKey::random())?;
    /// let events = white.receive_oversize(1 << 28)?;
    /// assert_eq!(events, [Event::Dropped { error: Error::Oversize { len: 1 << 28, max: 256 } }]);
    /// assert_eq!((white.dropped(), white.phase()), (1, Phase::Handshake));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn receive_oversize(&mut self, len: u64) -> Result<Vec<Event>, Error> {
        match self.stage {
            Stage::Aborted => Err(Error::Aborted),
            Stage::Closed(_) => Err(Error::Closed),
            _ => {
                Ok(self.drop_frame(Error::Oversize { len: usize::try_from(len).unwrap_or(usize::MAX), max: MAX_FRAME }))
            }
        }
    }

    /// How many frames this session dropped because they did not authenticate as the peer's next frame
    /// (since it was started or resumed). A few come from a lossy relay; many mean that someone other than
    /// the peer writes to the match: worth telling the player, though it cannot change the game.
    pub fn dropped(&self) -> u64 {
        self.transport.dropped
    }

    /// Drops a frame that did not authenticate: counts it, changes nothing else.
    fn drop_frame(&mut self, error: Error) -> Vec<Event> {
        self.transport.dropped += 1;
        vec![Event::Dropped { error }]
    }

    /// Aborts: queues an authenticated, reason-free Abort if the message chain is running, and refuses
    /// everything after.
    fn fail(&mut self, e: Error) -> Result<Vec<Event>, Error> {
        self.transport.unacked.clear();
        if self.stage == Stage::Playing {
            // Fails only at the counter's end, when no message can be sent at all.
            let _ = self.send(Kind::Abort, Text::EMPTY, self.game.pos().hash());
        }
        self.stage = Stage::Aborted;
        self.failure = Some(e.clone());
        Err(e)
    }
}
