//! An incoming message (PROTOCOL.md §5.4) in three steps, so that nothing changes until everything is
//! checked:
//!
//! 1. [`Session::authenticate`]: the chain state the tag must have been made in, from our own records
//!    (the frame's header only selects it), and the tag over our own expectation of the message;
//! 2. [`Session::decide`]: whether the authentic message is allowed now (turn, draw offers, end of the
//!    game, a legal and canonical move, a true claim), and whether the sender's position hash is ours;
//! 3. [`Session::commit`]: the changes to the game, the chain and the transport, all at once.

use tesseract_board::Move;

use super::chain::{ChainState, color_byte};
use super::game::check_move_text;
use super::{EndReason, Event, GameResult, Refusal, Session, Stage};
use crate::Error;
use crate::crypto;
use crate::frame::{Kind, MacInput, MessageFrame, VERSION};

/// What an authentic message does, decided before anything changes.
enum Effect {
    /// A resign or an abort: the match ends with this result.
    Stop(GameResult),
    /// A move: the move, the hash of the position after it and the ply after it.
    Move(Move, u64, u32),
    /// A draw offer.
    Offer,
    /// The peer accepts our draw offer.
    Accept,
    /// The peer declines our draw offer.
    Decline,
    /// An End that confirms the end by rule or claims a draw: the result.
    End(GameResult),
}

impl Session {
    /// Takes a message in the Playing stage: [authenticate](Session::authenticate),
    /// [decide](Session::decide), [commit](Session::commit). A refusal leaves the session as it was: a
    /// frame that does not authenticate is dropped by the caller, an authentic violation aborts.
    pub(super) fn on_message(&mut self, m: MessageFrame) -> Result<Vec<Event>, Refusal> {
        let chain = self.authenticate(&m).map_err(Refusal::Drop)?;
        // Authentic. From here on, a refusal is a protocol violation by the peer (or a desync).
        let next_seq = chain.seq.checked_add(1).ok_or(Refusal::Violation(Error::CounterExhausted))?;
        let effect = self.decide(&m, &chain).map_err(Refusal::Violation)?;
        self.commit(&m, next_seq, effect).map_err(Refusal::Violation)
    }

    /// Step 1: finds the chain state the message's tag must have been made in — the current one, or, for a
    /// resign or abort that crossed our last message, the one before it; the header's sequence number and
    /// ply only select — and verifies the tag, in constant time, over the MAC input built from our own
    /// records (version, match id, the peer's identity and color, that chain state) and the frame's kind,
    /// position hash and text.
    ///
    /// # Errors
    /// [`Error::Sequence`] for a header that selects no state (a replay, a frame from the future),
    /// [`Error::Authentication`] for a tag that does not verify: either way the frame is dropped.
    fn authenticate(&self, m: &MessageFrame) -> Result<ChainState, Error> {
        let peer = self.color.other();
        let current = self.chain_state();
        let chain = if m.seq == current.seq && m.ply == current.ply {
            current
        } else if let Some(s) = self.chain.snapshot.filter(|s| m.kind.is_terminal() && m.seq == s.seq && m.ply == s.ply)
        {
            s
        } else {
            return Err(Error::Sequence {
                expected: current.seq,
                expected_ply: current.ply,
                found: m.seq,
                found_ply: m.ply,
            });
        };
        let peer_id = self.handshake.peer.map(|p| p.identity).ok_or(Error::Malformed("no peer"))?;
        let input = MacInput {
            version: VERSION,
            kind: m.kind,
            match_id: *self.match_id.as_bytes(),
            sender: *peer_id.as_bytes(),
            color: color_byte(peer),
            seq: chain.seq,
            ply: chain.ply,
            hash: m.hash,
            text: m.text,
            prev: chain.prev,
        };
        let keys = self.handshake.keys.as_ref().ok_or(Error::Malformed("no keys"))?;
        if !crypto::verify_message(&keys.message[peer.index()], &input, m.tag.as_bytes()) {
            return Err(Error::Authentication(m.kind.name()));
        }
        Ok(chain)
    }

    /// Step 2: decides what an authentic message does, changing nothing. A resign or abort needs an empty
    /// text and the hash of its chain state. Any other message must be the peer's to send, must be an End
    /// once the game is over by rule, carries text only if it is a move or an End, and must be allowed by
    /// the game (the peer's move, legal and canonical; a draw offer it may make; an answer to our offer; a
    /// true claim or confirmation); then its hash must be ours after it.
    ///
    /// # Errors
    /// [`Error::NonCanonical`], [`Error::Unexpected`], [`Error::IllegalMove`],
    /// [`Error::FalseClaim`], [`Error::CounterExhausted`] (the ply), [`Error::Desync`].
    fn decide(&self, m: &MessageFrame, chain: &ChainState) -> Result<Effect, Error> {
        let peer = self.color.other();
        let desync = |ours: u64, ply: u32| Error::Desync { ply, ours, theirs: m.hash };
        if m.kind.is_terminal() {
            if !m.text.is_empty() {
                return Err(Error::NonCanonical(m.text.to_string()));
            }
            if m.hash != chain.hash {
                return Err(desync(chain.hash, chain.ply));
            }
            return Ok(Effect::Stop(if m.kind == Kind::Resign {
                GameResult { winner: Some(self.color), reason: EndReason::Resignation }
            } else {
                GameResult { winner: None, reason: EndReason::Aborted }
            }));
        }
        // Not terminal: `chain` is the current state (a snapshot is selected only for a resign or abort).
        if self.chain.sender != peer {
            return Err(Error::unexpected(m.kind, "it is not the peer's turn to send"));
        }
        let game = &self.game;
        if game.over.is_some() && m.kind != Kind::End {
            return Err(Error::unexpected(m.kind, "the game is over on the board: only the end message may follow"));
        }
        if !matches!(m.kind, Kind::Move | Kind::End) && !m.text.is_empty() {
            return Err(Error::NonCanonical(m.text.to_string()));
        }
        // First whether the message is allowed here, then whether the boards agree.
        let effect = match m.kind {
            Kind::Move => {
                if game.offer == Some(self.color) {
                    return Err(Error::unexpected(m.kind, "our draw offer waits for an answer"));
                }
                if game.pos().turn() != peer {
                    return Err(Error::unexpected(m.kind, "it is not the peer's move"));
                }
                let mv = check_move_text(game.pos(), m.text.as_str())?;
                let ply = game.ply.checked_add(1).ok_or(Error::CounterExhausted)?;
                let mut next = game.pos().clone();
                next.make(mv);
                Effect::Move(mv, next.hash(), ply)
            }
            Kind::DrawOffer => {
                if game.pos().turn() != peer || game.offer.is_some() || game.offer_blocked == Some(peer) {
                    return Err(Error::unexpected(m.kind, "the peer may not offer a draw now"));
                }
                Effect::Offer
            }
            Kind::DrawAccept | Kind::DrawDecline => {
                if game.offer != Some(self.color) {
                    return Err(Error::unexpected(m.kind, "we offered no draw"));
                }
                if m.kind == Kind::DrawAccept { Effect::Accept } else { Effect::Decline }
            }
            Kind::End => {
                let claim =
                    EndReason::from_wire_text(m.text.as_str()).ok_or_else(|| Error::FalseClaim(m.text.to_string()))?;
                if game.pos().turn() != peer || game.offer.is_some() {
                    return Err(Error::FalseClaim(m.text.to_string()));
                }
                Effect::End(match (game.over, claim) {
                    (Some(r), c) if r.reason == c => r,
                    (None, claim) if game.may_claim(claim) => GameResult { winner: None, reason: claim },
                    _ => return Err(Error::FalseClaim(m.text.to_string())),
                })
            }
            _ => return Err(Error::unexpected(m.kind, "not a message kind")),
        };
        let (ours, ply) = match &effect {
            Effect::Move(_, next, ply) => (*next, *ply),
            _ => (chain.hash, chain.ply),
        };
        if m.hash != ours {
            return Err(desync(ours, ply));
        }
        Ok(effect)
    }

    /// Step 3: applies what [`Session::decide`] decided: the game changes, the chain moves on past the
    /// message (its tag becomes the previous tag; after anything but a resign or abort it is our turn to
    /// send and our snapshot is gone), and our unacknowledged frames are acknowledged. A move that ends the
    /// game by rule leaves us, the side to move, to confirm it with an End.
    ///
    /// # Errors
    /// [`Error::CounterExhausted`] if that End cannot be sent.
    fn commit(&mut self, m: &MessageFrame, next_seq: u32, effect: Effect) -> Result<Vec<Event>, Error> {
        let peer = self.color.other();
        let mut events = Vec::new();
        match effect {
            Effect::Stop(result) => {
                self.chain.seq = next_seq;
                self.chain.prev = *m.tag.as_bytes();
                self.transport.unacked.clear();
                self.stage = Stage::Closed(result);
                return Ok(vec![Event::GameOver(result)]);
            }
            Effect::Move(mv, _, ply) => {
                self.game.advance(mv, ply, m.text.to_string());
                events.push(Event::Moved { color: peer, m: mv, text: m.text.to_string() });
            }
            Effect::Offer => {
                self.game.offer = Some(peer);
                events.push(Event::DrawOffered);
            }
            Effect::Accept => {
                self.game.offer = None;
                let result = GameResult { winner: None, reason: EndReason::DrawAgreed };
                self.stage = Stage::Closed(result);
                events.push(Event::GameOver(result));
            }
            Effect::Decline => {
                self.game.offer = None;
                self.game.offer_blocked = Some(self.color);
                events.push(Event::DrawDeclined);
            }
            Effect::End(result) => {
                self.stage = Stage::Closed(result);
                events.push(Event::GameOver(result));
            }
        }
        self.chain.seq = next_seq;
        self.chain.prev = *m.tag.as_bytes();
        self.chain.sender = self.color;
        self.chain.snapshot = None;
        self.transport.unacked.clear();
        events.extend(self.confirm_end()?);
        Ok(events)
    }
}
