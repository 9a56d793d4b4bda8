//! The transport part of a session: the frames to send, the unacknowledged ones to send again after a
//! silence, and the last accepted frame, whose byte-identical copy is ignored (PROTOCOL.md §6); and the
//! entry of incoming bytes, where every failure aborts the session (§7).

use std::collections::VecDeque;

use super::{Event, Session, Stage};
use crate::Error;
use crate::frame::{Frame, Kind, MAX_FRAME, Text};

/// The frames of a session, out and in.
#[derive(Default)]
pub(super) struct Transport {
    /// The frames to send, in order.
    pub(super) outbox: VecDeque<Vec<u8>>,
    /// The frames the peer may not have received yet.
    pub(super) unacked: Vec<Vec<u8>>,
    /// The last frame accepted, byte for byte.
    pub(super) last_accepted: Option<Vec<u8>>,
}

impl Transport {
    /// Queues a frame to send, and keeps it until the peer's answer acknowledges it.
    pub(super) fn queue(&mut self, frame: Vec<u8>) {
        self.outbox.push_back(frame.clone());
        self.unacked.push(frame);
    }
}

impl Session {
    /// The next frame to send, if any. Send them all, in order, to the peer.
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transport.outbox.pop_front()
    }

    /// The frames the peer may not have received yet (at most two): what to send again after a silence.
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
        self.transport.outbox.extend(self.transport.unacked.iter().cloned());
    }

    /// Takes one frame from the relay.
    ///
    /// Returns what happened, or the failure. A byte-identical copy of the last accepted frame is ignored
    /// ([`Event::Duplicate`]). Any other problem — a frame too long, malformed, for another match or
    /// version, a bad key or tag, out of order, out of turn, illegal, non-canonical, or a board desync —
    /// aborts the session: it queues one Abort frame (which does not say why) and refuses everything
    /// after.
    ///
    /// # Errors
    /// The typed [`Error`] saying which check failed, for the local user only.
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
    /// assert!(matches!(white.receive(&hello)?[..], [Event::PeerKeys { .. }]));
    /// assert_eq!(white.receive(&hello)?, [Event::Duplicate]); // a retransmission: ignored
    /// let mut forged = hello.clone();
    /// forged[20] ^= 1; // a bit flipped in transit
    /// assert!(white.receive(&forged).is_err());
    /// assert_eq!(white.phase(), Phase::Aborted);
    /// assert_eq!(white.receive(&hello), Err(Error::Aborted)); // fail closed
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn receive(&mut self, bytes: &[u8]) -> Result<Vec<Event>, Error> {
        if self.stage == Stage::Aborted {
            return Err(Error::Aborted);
        }
        if self.transport.last_accepted.as_deref() == Some(bytes) {
            return Ok(vec![Event::Duplicate]);
        }
        if let Stage::Closed(_) = self.stage {
            return Err(Error::Closed);
        }
        if bytes.len() > MAX_FRAME {
            return self.fail(Error::Oversize { len: bytes.len(), max: MAX_FRAME });
        }
        let frame = match Frame::decode(bytes) {
            Ok(f) => f,
            Err(e) => return self.fail(e),
        };
        match self.accept(frame) {
            Ok(events) => {
                self.transport.last_accepted = Some(bytes.to_vec());
                Ok(events)
            }
            Err(e) => self.fail(e),
        }
    }

    /// Takes the news of a frame longer than [`MAX_FRAME`] that the caller refused to read (a bounded
    /// reader such as [`crate::resp::read_reply`] skips it and reports only its length). The session treats
    /// it as [`Session::receive`] treats such a frame: it aborts, unless the match is already over.
    ///
    /// # Errors
    /// Always: [`Error::Oversize`] (and the session is aborted), or [`Error::Closed`] / [`Error::Aborted`]
    /// once the match is over (nothing changes).
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, Color};
    /// use tesseract_wire::{EphemeralKey, Error, IdentityKey, MatchConfig, MatchId, Phase, Session};
    /// let (me, peer) = (IdentityKey::from_bytes(&[1; 32])?, IdentityKey::from_bytes(&[2; 32])?);
    /// let config = MatchConfig::new(MatchId::from_bytes([5; 16]), Color::White, start::chess()).pin_peer(peer.identity());
    /// let mut white = Session::new(config, &me, EphemeralKey::random())?;
    /// assert_eq!(white.receive_oversize(1 << 28), Err(Error::Oversize { len: 1 << 28, max: 256 }));
    /// assert_eq!(white.phase(), Phase::Aborted);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn receive_oversize(&mut self, len: u64) -> Result<Vec<Event>, Error> {
        match self.stage {
            Stage::Aborted => Err(Error::Aborted),
            Stage::Closed(_) => Err(Error::Closed),
            _ => self.fail(Error::Oversize { len: usize::try_from(len).unwrap_or(usize::MAX), max: MAX_FRAME }),
        }
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
