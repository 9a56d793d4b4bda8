//! Saving a session and resuming it in another process (PROTOCOL.md §11): the bytes of a [`Session`]'s
//! whole state, secrets included, so that a player who stops (a crash, a restart) can pick up the same
//! match where it was, with the same keys and the same chain, instead of a new handshake the peer would
//! refuse.

use std::collections::VecDeque;

use sha2::{Digest, Sha256};
use tesseract_board::{CastlingMode, Color};
use tesseract_movegen::Termination;
use zeroize::Zeroizing;

use super::chain::{Chain, ChainState, color_byte};
use super::game::{Game, check_move_text};
use super::handshake::{Handshake, Peer};
use super::transport::{RECENT, Transport};
use super::{EndReason, GameResult, MatchConfig, Session, Stage};
use crate::crypto::Keys;
use crate::frame::{Frame, MAX_FRAME, MAX_TEXT, TAG_LEN, VERSION};
use crate::keys::{EphemeralKey, Identity, IdentityKey, PUBLIC_KEY_LEN, PublicKey, hex};

/// The first bytes of a saved state: `TWS`.
const MAGIC: [u8; 3] = *b"TWS";

/// The state format this crate writes and reads.
pub const STATE_FORMAT: u8 = 2;

/// The largest state accepted (and written): 4 MiB, room for a match of about 400,000 plies.
pub const MAX_STATE: usize = 4 << 20;

/// The most unacknowledged frames a session holds (three: the initiator's Hello and Finished, then a
/// resign or abort sent before the responder's first message).
const MAX_UNACKED: usize = 4;

/// Why saved state bytes cannot be resumed, or a session cannot be saved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    /// Longer than [`MAX_STATE`]: refused before reading (or, when saving, a match too long to save).
    #[error("a session state of {len} bytes refused: the limit is {max}")]
    Oversize {
        /// Its length.
        len: usize,
        /// The limit, [`MAX_STATE`].
        max: usize,
    },
    /// Another format of state (written by another version of this crate).
    #[error("the session state is in format {0}: this version reads format 2")]
    Format(u8),
    /// Bytes that are not a whole, consistent state: damaged, cut, or not a state at all.
    #[error("not a valid session state: {0}")]
    Malformed(&'static str),
    /// A valid state of another match, color, start, player, peer or invitation than the one given.
    #[error("the session state is for another {what}: the state has {state}, this side {ours}")]
    Mismatch {
        /// Which setting differs.
        what: &'static str,
        /// The state's value (never a secret).
        state: String,
        /// The value given to resume with.
        ours: String,
    },
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The byte of a stage (PROTOCOL.md §11). A responder that answered Hellos is saved as waiting for one:
/// its candidates are not saved (byte 2 is not written), since the initiator sends its Hello again with its
/// Finished; so a stranger's Hellos never change the saved state.
fn stage_byte(stage: Stage) -> u8 {
    match stage {
        Stage::AwaitHello | Stage::AwaitFinished => 0,
        Stage::AwaitReply => 1,
        Stage::Playing => 3,
        Stage::Closed(_) => 4,
        Stage::Aborted => 5,
    }
}

/// The byte of an end reason (PROTOCOL.md §11). Exhaustive: a new reason does not compile until it has
/// a byte here and in [`reason_of`].
fn reason_byte(r: EndReason) -> u8 {
    match r {
        EndReason::Rules(Termination::Checkmate) => 0,
        EndReason::Rules(Termination::Stalemate) => 1,
        EndReason::Rules(Termination::DeadDraw) => 2,
        EndReason::Rules(Termination::Threefold) => 3,
        EndReason::Rules(Termination::FiftyMoves) => 4,
        EndReason::Resignation => 5,
        EndReason::DrawAgreed => 6,
        EndReason::Aborted => 7,
        EndReason::Rules(Termination::Fivefold) => 8,
        EndReason::Rules(Termination::SeventyFiveMoves) => 9,
    }
}

/// The end reason of a byte, the inverse of [`reason_byte`]; `None` for a byte no reason has.
fn reason_of(b: u8) -> Option<EndReason> {
    Some(match b {
        0 => EndReason::Rules(Termination::Checkmate),
        1 => EndReason::Rules(Termination::Stalemate),
        2 => EndReason::Rules(Termination::DeadDraw),
        3 => EndReason::Rules(Termination::Threefold),
        4 => EndReason::Rules(Termination::FiftyMoves),
        5 => EndReason::Resignation,
        6 => EndReason::DrawAgreed,
        7 => EndReason::Aborted,
        8 => EndReason::Rules(Termination::Fivefold),
        9 => EndReason::Rules(Termination::SeventyFiveMoves),
        _ => return None,
    })
}

fn opt_color_byte(c: Option<Color>) -> u8 {
    c.map_or(0, |c| color_byte(c) + 1)
}

struct Writer(Zeroizing<Vec<u8>>);

impl Writer {
    fn put(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
    fn u8(&mut self, b: u8) {
        self.0.push(b);
    }
    fn flag(&mut self, b: bool) {
        self.0.push(u8::from(b));
    }
    fn opt(&mut self, bytes: Option<&[u8]>) {
        self.flag(bytes.is_some());
        if let Some(b) = bytes {
            self.put(b);
        }
    }
    fn frame(&mut self, f: &[u8]) {
        // Frames are at most MAX_FRAME bytes.
        self.put(&(f.len() as u16).to_be_bytes());
        self.put(f);
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

fn bad(why: &'static str) -> StateError {
    StateError::Malformed(why)
}

impl<'a> Reader<'a> {
    fn slice(&mut self, n: usize) -> Result<&'a [u8], StateError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(bad("cut short"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn take<const N: usize>(&mut self) -> Result<[u8; N], StateError> {
        let mut a = [0; N];
        a.copy_from_slice(self.slice(N)?);
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, StateError> {
        Ok(self.take::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, StateError> {
        Ok(u16::from_be_bytes(self.take()?))
    }
    fn u32(&mut self) -> Result<u32, StateError> {
        Ok(u32::from_be_bytes(self.take()?))
    }
    fn flag(&mut self) -> Result<bool, StateError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(bad("a flag byte that is neither 0 nor 1")),
        }
    }
    fn opt<const N: usize>(&mut self) -> Result<Option<[u8; N]>, StateError> {
        Ok(if self.flag()? { Some(self.take()?) } else { None })
    }
    fn color(&mut self) -> Result<Color, StateError> {
        match self.u8()? {
            0 => Ok(Color::White),
            1 => Ok(Color::Black),
            _ => Err(bad("a color byte that is neither 0 nor 1")),
        }
    }
    fn opt_color(&mut self) -> Result<Option<Color>, StateError> {
        match self.u8()? {
            0 => Ok(None),
            1 => Ok(Some(Color::White)),
            2 => Ok(Some(Color::Black)),
            _ => Err(bad("a draw offer byte that is not 0, 1 or 2")),
        }
    }
    fn frame(&mut self) -> Result<Vec<u8>, StateError> {
        let len = self.u16()? as usize;
        let f = self.slice(len)?;
        Frame::decode(f).map_err(|_| bad("a saved frame that is not a frame"))?;
        Ok(f.to_vec())
    }
}

impl Session {
    /// The session's whole state as bytes (format in PROTOCOL.md §11), to write to a file so that
    /// [`Session::resume`] can go on with the match in another process.
    ///
    /// **The bytes are secret**: they hold the match's message keys (and, until the handshake uses it,
    /// the ephemeral secret and the invitation secret), enough to forge this player's moves in this
    /// match. Store them where only the player can read them; the buffer is wiped when dropped.
    ///
    /// Save after every change, and before sending the frames the change queued: a player restarted
    /// from an older state than the peer has seen cannot go on (the peer refuses its messages).
    ///
    /// # Errors
    /// [`StateError::Oversize`] for a match too long to save (beyond [`MAX_STATE`] bytes).
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, Color};
    /// use tesseract_wire::{EphemeralKey, IdentityKey, MatchConfig, MatchId, Session};
    /// let (me, peer) = (IdentityKey::from_bytes(&[1; 32])?, IdentityKey::from_bytes(&[2; 32])?);
    /// let config = MatchConfig::new(MatchId::from_bytes([5; 16]), Color::Black, start::chess()).pin_peer(peer.identity());
    /// let mut black = Session::new(config.clone(), &me, EphemeralKey::random())?;
    /// let hello = black.poll_transmit().unwrap();
    /// let saved = black.save_state()?;
    /// drop(black); // the process stops
    /// let mut again = Session::resume(config, &me, &saved)?;
    /// assert_eq!(again.poll_transmit(), Some(hello)); // the same Hello, sent again: no new handshake
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn save_state(&self) -> Result<Zeroizing<Vec<u8>>, StateError> {
        let moves: usize = self.game.moves.iter().map(|m| 1 + m.len()).sum();
        // A responder's Replies to candidate Hellos are not saved (nor the candidates): see `stage_byte`.
        let answering = self.stage == Stage::AwaitFinished;
        let unacked: &[Vec<u8>] = if answering { &[] } else { &self.transport.unacked };
        let frames: usize = unacked.iter().chain(&self.transport.recent).map(|f| 2 + f.len()).sum();
        let len = 1024 + self.handshake.start_fen.len() + moves + frames;
        if len > MAX_STATE {
            return Err(StateError::Oversize { len, max: MAX_STATE });
        }
        // Allocated once, large enough, so that no copy of the secrets is left behind by a reallocation.
        let mut w = Writer(Zeroizing::new(Vec::with_capacity(len)));
        w.put(&MAGIC);
        w.u8(STATE_FORMAT);
        w.u8(VERSION);
        w.put(self.match_id.as_bytes());
        w.u8(color_byte(self.color));
        w.put(self.handshake.me.identity().as_bytes());
        w.put(&(self.handshake.start_fen.len() as u16).to_be_bytes());
        w.put(self.handshake.start_fen.as_bytes());
        w.flag(self.handshake.chess960);
        w.opt(self.handshake.pinned.as_ref().map(|p| &p.as_bytes()[..]));
        w.opt(self.handshake.invitation.as_ref().map(|s| &s.as_bytes()[..]));
        w.u8(stage_byte(self.stage));
        if let Stage::Closed(r) = self.stage {
            w.u8(opt_color_byte(r.winner));
            w.u8(reason_byte(r.reason));
        }
        let eph = self.handshake.ephemeral.as_ref().map(EphemeralKey::to_bytes);
        w.opt(eph.as_ref().map(|e| &e[..]));
        w.put(self.handshake.ephemeral_public.as_bytes());
        w.opt(self.handshake.peer.as_ref().map(|p| &p.static_key.as_bytes()[..]));
        w.opt(self.handshake.th.as_ref().map(|t| &t[..]));
        w.flag(self.handshake.keys.is_some());
        if let Some(k) = &self.handshake.keys {
            for key in k.finished.iter().chain(&k.message) {
                w.put(key);
            }
        }
        w.put(&self.chain.seq.to_be_bytes());
        w.put(&self.chain.prev);
        w.u8(color_byte(self.chain.sender));
        w.flag(self.chain.snapshot.is_some());
        if let Some(s) = self.chain.snapshot {
            w.put(&s.seq.to_be_bytes());
            w.put(&s.ply.to_be_bytes());
            w.put(&s.hash.to_be_bytes());
            w.put(&s.prev);
        }
        w.u8(opt_color_byte(self.game.offer));
        w.u8(opt_color_byte(self.game.offer_blocked));
        w.put(&(self.game.moves.len() as u32).to_be_bytes());
        for m in &self.game.moves {
            // Move texts are at most MAX_TEXT bytes.
            w.u8(m.len() as u8);
            w.put(m.as_bytes());
        }
        w.u8(unacked.len() as u8);
        for f in unacked {
            w.frame(f);
        }
        // At most RECENT frames.
        w.u8(self.transport.recent.len() as u8);
        for f in &self.transport.recent {
            w.frame(f);
        }
        let digest = Sha256::digest(&w.0[..]);
        w.put(&digest);
        Ok(w.0)
    }

    /// Resumes a session saved by [`Session::save_state`], with the same configuration and long-term key
    /// it was started with (which the state is checked against). The resumed session holds the same
    /// keys, chain and board, and queues its unacknowledged frames again, as [`Session::retransmit`]
    /// does; it goes on with the match as if it had never stopped. A board over by rule with this side
    /// to move (a state saved before the rules ended the game there) is confirmed at once: the End is
    /// queued and [`Session::phase`] is closed.
    ///
    /// # Errors
    /// [`StateError::Oversize`], [`StateError::Format`], [`StateError::Malformed`] for bytes that are not a
    /// whole, consistent state (the checksum, every field, and every move replayed on the board are
    /// checked), and [`StateError::Mismatch`] for a state of another match id, color, start position,
    /// player (key), pinned peer or invitation secret than `config` and `identity`. Nothing is resumed.
    pub fn resume(config: MatchConfig, identity: &IdentityKey, bytes: &[u8]) -> Result<Session, StateError> {
        if bytes.len() > MAX_STATE {
            return Err(StateError::Oversize { len: bytes.len(), max: MAX_STATE });
        }
        if bytes.len() < MAGIC.len() + 2 + 32 || bytes[..3] != MAGIC {
            return Err(bad("it does not start with TWS"));
        }
        if bytes[3] != STATE_FORMAT {
            return Err(StateError::Format(bytes[3]));
        }
        let (body, digest) = bytes.split_at(bytes.len() - 32);
        if Sha256::digest(body)[..] != *digest {
            return Err(bad("its checksum does not match: the bytes are damaged or cut"));
        }
        let mut r = Reader { bytes: body, at: 5 };
        if bytes[4] != VERSION {
            return Err(bad("it is for another protocol version"));
        }
        let mismatch = |what, state: String, ours: String| StateError::Mismatch { what, state, ours };
        let match_id = r.take::<16>()?;
        if match_id != *config.match_id.as_bytes() {
            return Err(mismatch("match id", hex(&match_id), config.match_id.to_string()));
        }
        let color = r.color()?;
        if color != config.color {
            return Err(mismatch("color", color_name(color).into(), color_name(config.color).into()));
        }
        let me = Identity::from_bytes(r.take()?);
        if me != identity.identity() {
            return Err(mismatch("player (key)", me.to_string(), identity.identity().to_string()));
        }
        let fen_len = r.u16()? as usize;
        let fen = std::str::from_utf8(r.slice(fen_len)?).map_err(|_| bad("a start position that is not text"))?;
        let start_fen = config.start.fen();
        if fen != start_fen {
            return Err(mismatch("start position", fen.into(), start_fen));
        }
        let chess960 = r.flag()?;
        if chess960 != (config.start.castling_mode() == CastlingMode::Chess960) {
            return Err(mismatch("castling mode", format!("chess960={chess960}"), format!("chess960={}", !chess960)));
        }
        let pinned = r.opt::<16>()?.map(Identity::from_bytes);
        if pinned != config.peer {
            let name = |p: Option<Identity>| p.map_or("none".to_string(), |p| p.to_string());
            return Err(mismatch("pinned peer", name(pinned), name(config.peer)));
        }
        let invitation = r.opt::<32>()?.map(Zeroizing::new);
        let same = match (&invitation, &config.invitation) {
            (None, None) => true,
            (Some(a), Some(b)) => a[..] == b.as_bytes()[..],
            _ => false,
        };
        if !same {
            let name = |s: bool| if s { "one" } else { "none" };
            let (state, ours) = match (invitation.is_some(), config.invitation.is_some()) {
                (true, true) => ("a different one", "another"),
                (s, o) => (name(s), name(o)),
            };
            return Err(mismatch("invitation secret", state.into(), ours.into()));
        }
        let stage = match r.u8()? {
            0 => Stage::AwaitHello,
            1 => Stage::AwaitReply,
            3 => Stage::Playing,
            4 => {
                let winner = r.opt_color()?;
                let reason = reason_of(r.u8()?).ok_or(bad("an unknown end reason"))?;
                Stage::Closed(GameResult { winner, reason })
            }
            5 => Stage::Aborted,
            _ => return Err(bad("an unknown stage")),
        };
        let ephemeral = match r.opt::<32>()?.map(Zeroizing::new) {
            Some(secret) => Some(EphemeralKey::from_bytes(&secret).map_err(|_| bad("an invalid ephemeral secret"))?),
            None => None,
        };
        let ephemeral_public = PublicKey::from_sec1(r.slice(PUBLIC_KEY_LEN)?).map_err(|_| bad("an invalid key"))?;
        if ephemeral.as_ref().is_some_and(|e| e.public_key() != ephemeral_public) {
            return Err(bad("an ephemeral secret that does not match its public key"));
        }
        let peer = match r.opt::<PUBLIC_KEY_LEN>()? {
            Some(k) => {
                let static_key = PublicKey::from_sec1(&k).map_err(|_| bad("an invalid peer key"))?;
                Some(Peer { identity: static_key.identity(), static_key })
            }
            None => None,
        };
        if let (Some(p), Some(pin)) = (peer, pinned) {
            if p.identity != pin {
                return Err(bad("a peer key whose identity is not the pinned one"));
            }
        }
        let th = r.opt::<32>()?;
        let keys = if r.flag()? {
            let mut k = Keys { finished: [[0; 32]; 2], message: [[0; 32]; 2] };
            for key in k.finished.iter_mut().chain(k.message.iter_mut()) {
                key.copy_from_slice(r.slice(32)?);
            }
            Some(k)
        } else {
            None
        };
        let seq = r.u32()?;
        let prev = r.take::<TAG_LEN>()?;
        let sender = r.color()?;
        let snapshot = if r.flag()? {
            Some(ChainState { seq: r.u32()?, ply: r.u32()?, hash: u64::from_be_bytes(r.take()?), prev: r.take()? })
        } else {
            None
        };
        let offer = r.opt_color()?;
        let offer_blocked = r.opt_color()?;
        let count = r.u32()?;
        let mut game = Game::new(config.start.clone());
        for _ in 0..count {
            let len = r.u8()? as usize;
            if len > MAX_TEXT {
                return Err(bad("a move text longer than 32 bytes"));
            }
            let text = std::str::from_utf8(r.slice(len)?).map_err(|_| bad("a move text that is not text"))?;
            if game.over.is_some() {
                return Err(bad("a move after the game was over by rule"));
            }
            let m = check_move_text(game.pos(), text).map_err(|_| bad("a move that is not legal in its position"))?;
            let ply = game.ply + 1;
            game.advance(m, ply, text.to_string());
        }
        (game.offer, game.offer_blocked) = (offer, offer_blocked);
        let unacked_count = r.u8()? as usize;
        if unacked_count > MAX_UNACKED {
            return Err(bad("more unacknowledged frames than a session holds"));
        }
        let unacked = (0..unacked_count).map(|_| r.frame()).collect::<Result<Vec<_>, _>>()?;
        let recent_count = r.u8()? as usize;
        if recent_count > RECENT {
            return Err(bad("more remembered frames than a session keeps"));
        }
        let recent = (0..recent_count).map(|_| r.frame()).collect::<Result<VecDeque<_>, _>>()?;
        if r.at != body.len() {
            return Err(bad("bytes after the last field"));
        }
        let initiator = config.color != config.start.turn();
        let handshake_done = keys.is_some() && th.is_some() && peer.is_some();
        let handshake_open = ephemeral.is_some() && keys.is_none() && th.is_none() && peer.is_none();
        let consistent = match stage {
            Stage::AwaitHello => !initiator && handshake_open && unacked.is_empty(),
            Stage::AwaitReply => initiator && handshake_open,
            Stage::AwaitFinished => false,
            // Closed during the handshake (an abort) holds nothing of it; closed in play, all of it.
            Stage::Closed(_) if !handshake_done => ephemeral.is_none() && keys.is_none(),
            Stage::Playing | Stage::Closed(_) => ephemeral.is_none() && handshake_done,
            Stage::Aborted => true,
        };
        if !consistent {
            return Err(bad("a stage that does not agree with the keys held"));
        }
        debug_assert!(unacked.iter().chain(&recent).all(|f| f.len() <= MAX_FRAME));
        let mut session = Session {
            match_id: config.match_id,
            color,
            stage,
            failure: None,
            handshake: Handshake {
                initiator,
                start_fen,
                chess960,
                pinned,
                invitation: config.invitation,
                me: identity.clone(),
                ephemeral,
                ephemeral_public,
                peer,
                th,
                keys,
                candidates: Vec::new(),
            },
            chain: Chain { seq, prev, sender, snapshot },
            game,
            transport: Transport { outbox: unacked.iter().cloned().collect(), unacked, recent, dropped: 0 },
        };
        // A state saved in play whose board is over by rule with us to move (saved by a version whose rules
        // had not ended the game there yet: a fifth repetition, 150 plies, K+B v K) confirms the end now,
        // as a live session does at once; otherwise both sides would wait for each other.
        session.confirm_end().map_err(|_| bad("the end by rule cannot be confirmed"))?;
        Ok(session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte names at most one reason, each reason has one byte, and the bytes are those of
    /// PROTOCOL.md §11 (0 to 9).
    #[test]
    fn end_reason_bytes_round_trip() {
        let mut named = 0;
        for b in 0..=u8::MAX {
            if let Some(r) = reason_of(b) {
                assert_eq!(reason_byte(r), b, "{r:?}");
                named += 1;
            }
        }
        assert_eq!(named, 10);
        assert_eq!(reason_of(10), None);
    }
}
