//! [`Session`]: one player's side of one match, a sans-IO state machine (bytes in; bytes and events out).

use std::collections::VecDeque;
use std::fmt;

use tesseract_board::{CastlingMode, Color, Move, Position, TextMove};
use tesseract_movegen::{Legal, Outcome};

use crate::Error;
use crate::frame::{Frame, KeysField, Kind, MAX_FRAME, MacInput, MessageFrame, TAG_LEN, Tag, Text, VERSION};
use crate::handshake::{self, Keys, Transcript};
use crate::keys::{EphemeralKey, Identity, IdentityKey, InvitationSecret, MatchId, PublicKey};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Kings alone.
    DeadDraw,
    /// A draw claimed by threefold repetition.
    Threefold,
    /// A draw claimed under the 50-move rule (100 plies without capture or pawn move).
    FiftyMoves,
    /// A player resigned.
    Resignation,
    /// A draw offer was accepted.
    DrawAgreed,
    /// A player stopped the match without a result.
    Aborted,
}

impl EndReason {
    /// The text an End message carries for the reasons it can carry (the first five).
    ///
    /// # Examples
    /// ```
    /// use tesseract_wire::EndReason;
    /// assert_eq!(EndReason::FiftyMoves.wire_text(), Some("fifty-moves"));
    /// assert_eq!(EndReason::from_wire_text("checkmate"), Some(EndReason::Checkmate));
    /// assert_eq!(EndReason::Resignation.wire_text(), None);
    /// ```
    pub const fn wire_text(self) -> Option<&'static str> {
        match self {
            EndReason::Checkmate => Some("checkmate"),
            EndReason::Stalemate => Some("stalemate"),
            EndReason::DeadDraw => Some("dead-draw"),
            EndReason::Threefold => Some("threefold"),
            EndReason::FiftyMoves => Some("fifty-moves"),
            _ => None,
        }
    }

    /// The reason an End text names, if any.
    pub fn from_wire_text(text: &str) -> Option<EndReason> {
        [EndReason::Checkmate, EndReason::Stalemate, EndReason::DeadDraw, EndReason::Threefold, EndReason::FiftyMoves]
            .into_iter()
            .find(|r| r.wire_text() == Some(text))
    }
}

/// The result of a match: who won (`None` for a draw or an abort) and how.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winner, if any.
    pub winner: Option<Color>,
    /// How the game ended.
    pub reason: EndReason,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let score = match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None if self.reason == EndReason::Aborted => "*",
            None => "1/2-1/2",
        };
        write!(f, "{score} ({:?})", self.reason)
    }
}

/// Where a session stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Keys are being agreed; no move yet.
    Handshake,
    /// Both sides proved the key; the game is on.
    Playing,
    /// The game ended normally (or a player aborted it deliberately).
    Closed(GameResult),
    /// A frame failed a check: the session accepts nothing more (fail closed).
    Aborted,
}

/// What the local player should do now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Wait for the peer (or for the handshake).
    Wait,
    /// Our turn: move (or offer a draw, claim a draw, resign).
    Move,
    /// The peer offered a draw: accept or decline.
    AnswerDraw,
    /// The match is over.
    Done,
}

/// Something that happened because of an incoming frame.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// The peer's keys arrived and match the pinned identity (if one was pinned).
    PeerKeys {
        /// The peer's identity.
        identity: Identity,
    },
    /// The handshake is complete on this side: the peer proved it holds the key.
    Established {
        /// The peer's identity.
        peer: Identity,
    },
    /// The peer moved; the move was checked by our generator and played on our board.
    Moved {
        /// The mover.
        color: Color,
        /// The move.
        m: Move,
        /// Its text.
        text: String,
    },
    /// The peer offered a draw.
    DrawOffered,
    /// The peer declined our draw offer.
    DrawDeclined,
    /// The match is over.
    GameOver(GameResult),
    /// A byte-identical copy of the last accepted frame: ignored.
    Duplicate,
}

/// The settings of one match for one player.
///
/// # Examples
/// ```
/// use tesseract_board::{start, Color};
/// use tesseract_wire::{IdentityKey, MatchConfig, MatchId};
/// let peer = IdentityKey::from_bytes(&[2; 32])?.identity();
/// let config = MatchConfig::new(MatchId::from_bytes([1; 16]), Color::White, start::tesseract(start::Army::Standard))
///     .pin_peer(peer);
/// assert_eq!(config.peer, Some(peer));
/// # Ok::<_, tesseract_wire::KeyError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The match id both players know.
    pub match_id: MatchId,
    /// The local player's colour.
    pub color: Color,
    /// The start position both players agreed on (bound into the transcript).
    pub start: Position,
    /// The peer's pinned identity.
    pub peer: Option<Identity>,
    /// The invitation secret from the game link, mixed into the keys.
    pub invitation: Option<InvitationSecret>,
}

impl MatchConfig {
    /// A configuration with nothing pinned yet: pin the peer or add an invitation secret before use.
    pub fn new(match_id: MatchId, color: Color, start: Position) -> MatchConfig {
        MatchConfig { match_id, color, start, peer: None, invitation: None }
    }

    /// Pins the peer's identity: the handshake fails unless the peer's key has it.
    pub fn pin_peer(mut self, peer: Identity) -> MatchConfig {
        self.peer = Some(peer);
        self
    }

    /// Mixes an invitation secret into the keys: the handshake fails unless the peer knows it too.
    pub fn invitation(mut self, secret: InvitationSecret) -> MatchConfig {
        self.invitation = Some(secret);
        self
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    AwaitHello,
    AwaitReply,
    AwaitFinished,
    Playing,
    Closed(GameResult),
    Aborted,
}

/// The chain state a message is checked against: its sequence number, ply, the hash before it and the
/// previous tag.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Chain {
    pub seq: u32,
    pub ply: u32,
    pub hash: u64,
    pub prev: [u8; TAG_LEN],
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Peer {
    pub identity: Identity,
    pub static_key: PublicKey,
}

/// One player's side of one match: a sans-IO state machine.
///
/// Feed it every frame that arrives with [`Session::receive`]; take the frames it wants sent with
/// [`Session::poll_transmit`]; make local moves with [`Session::play`] and friends; call
/// [`Session::retransmit`] when the peer has been silent for a while (the relay may have dropped a
/// frame). See the crate docs for a whole match.
///
/// Any failure of an incoming frame aborts the session for good and queues one Abort frame that does not
/// say what failed; local misuse (a move out of turn) returns an error and changes nothing.
pub struct Session {
    pub(crate) match_id: MatchId,
    pub(crate) color: Color,
    pub(crate) initiator: bool,
    pub(crate) start_fen: String,
    pub(crate) chess960: bool,
    pub(crate) pinned: Option<Identity>,
    pub(crate) invitation: Option<InvitationSecret>,
    pub(crate) me: IdentityKey,
    pub(crate) ephemeral: Option<EphemeralKey>,
    pub(crate) ephemeral_public: PublicKey,
    pub(crate) peer: Option<Peer>,
    pub(crate) th: Option<[u8; 32]>,
    pub(crate) keys: Option<Keys>,
    pub(crate) stage: Stage,
    /// The next message's chain state (sequence number, ply, current hash, previous tag).
    pub(crate) seq: u32,
    pub(crate) prev: [u8; TAG_LEN],
    /// Whose turn it is to send a (non-terminal) message.
    pub(crate) sender: Color,
    /// The chain state before our last message, while the peer may not have seen it (for a resign or abort
    /// the peer sent before it did).
    pub(crate) snapshot: Option<Chain>,
    pub(crate) pos: Position,
    pub(crate) ply: u32,
    pub(crate) moves: Vec<String>,
    pub(crate) repetition: Vec<String>,
    pub(crate) offer: Option<Color>,
    pub(crate) offer_blocked: Option<Color>,
    pub(crate) over: Option<GameResult>,
    pub(crate) outbox: VecDeque<Vec<u8>>,
    pub(crate) unacked: Vec<Vec<u8>>,
    pub(crate) last_accepted: Option<Vec<u8>>,
    pub(crate) failure: Option<Error>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the keys, the invitation secret or the transcript's secrets.
        f.debug_struct("Session")
            .field("match_id", &self.match_id)
            .field("color", &self.color)
            .field("me", &self.me.identity())
            .field("peer", &self.peer.map(|p| p.identity))
            .field("phase", &self.phase())
            .field("seq", &self.seq)
            .field("ply", &self.ply)
            .finish_non_exhaustive()
    }
}

pub(crate) fn colour_byte(c: Color) -> u8 {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub(crate) fn repetition_key(pos: &Position) -> String {
    let fen = pos.fen();
    fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen).to_string()
}

pub(crate) fn rule_result(pos: &Position) -> Option<GameResult> {
    Some(match pos.outcome()? {
        Outcome::Checkmate { winner } => GameResult { winner: Some(winner), reason: EndReason::Checkmate },
        Outcome::Stalemate => GameResult { winner: None, reason: EndReason::Stalemate },
        Outcome::DeadDraw => GameResult { winner: None, reason: EndReason::DeadDraw },
    })
}

/// Whether `text` follows the move grammar of the board's shape, byte by byte (RULES.md §4): in 4D
/// `^[1-5]{8}[QRBNUD]?$`, in 2D UCI `^[a-h][1-8][a-h][1-8][qrbn]?$`; other shapes alike with their sizes.
fn grammar(pos: &Position, text: &[u8]) -> bool {
    let g = pos.geometry();
    let (d, n) = (g.dims(), g.side() as u8);
    let (coords, promo) = if d == 2 { (4, text.get(4)) } else { (2 * d, text.get(2 * d)) };
    if text.len() != coords && text.len() != coords + 1 {
        return false;
    }
    let coords_ok = text[..coords].iter().enumerate().all(|(i, &c)| {
        if d == 2 && i % 2 == 0 { (b'a'..b'a' + n).contains(&c) } else { (b'1'..b'1' + n).contains(&c) }
    });
    let promo_ok = match promo {
        None => true,
        Some(c) if d == 2 => b"qrbn".contains(c),
        Some(c) => b"QRBNUD".contains(c),
    };
    coords_ok && promo_ok
}

/// The one legal move `text` names here, if `text` is its canonical text.
pub(crate) fn check_move_text(pos: &Position, text: &str) -> Result<Move, Error> {
    if !grammar(pos, text.as_bytes()) {
        return Err(Error::NonCanonical(text.escape_debug().to_string()));
    }
    let parsed = TextMove::parse(text).map_err(|_| Error::NonCanonical(text.to_string()))?;
    let m = pos.resolve(&parsed).map_err(Error::IllegalMove)?;
    if TextMove::from_move(m, pos).to_string() != text {
        return Err(Error::NonCanonical(text.to_string()));
    }
    Ok(m)
}

impl Session {
    /// Starts one player's side of a match with a fresh ephemeral key. The side that does not move first
    /// in the start position is the initiator and queues its Hello at once.
    ///
    /// # Errors
    /// [`Error::Config`] if neither a peer identity is pinned nor an invitation secret given (the relay
    /// could then substitute its own keys), or if the pinned identity is our own.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, Color};
    /// use tesseract_wire::{EphemeralKey, IdentityKey, MatchConfig, MatchId, Session};
    /// let me = IdentityKey::from_bytes(&[1; 32])?;
    /// let config = MatchConfig::new(MatchId::from_bytes([0; 16]), Color::Black, start::chess());
    /// // Nothing pinned: refused.
    /// assert!(Session::new(config.clone(), &me, EphemeralKey::random()).is_err());
    /// let peer = IdentityKey::from_bytes(&[2; 32])?.identity();
    /// let mut black = Session::new(config.pin_peer(peer), &me, EphemeralKey::random())?;
    /// assert_eq!(black.poll_transmit().map(|f| f.len()), Some(151)); // the Hello
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(config: MatchConfig, identity: &IdentityKey, ephemeral: EphemeralKey) -> Result<Session, Error> {
        if config.peer.is_none() && config.invitation.is_none() {
            return Err(Error::Config(
                "pin the peer's identity or give an invitation secret: otherwise the relay can stand in the middle",
            ));
        }
        if config.peer == Some(identity.identity()) {
            return Err(Error::Config("the pinned peer identity is our own"));
        }
        let start_fen = config.start.fen();
        if start_fen.len() > u16::MAX as usize {
            return Err(Error::Config("the start position's text is too long"));
        }
        let initiator = config.color != config.start.turn();
        let over = rule_result(&config.start);
        let mut s = Session {
            match_id: config.match_id,
            color: config.color,
            initiator,
            chess960: config.start.castling_mode() == CastlingMode::Chess960,
            repetition: vec![repetition_key(&config.start)],
            start_fen,
            pinned: config.peer,
            invitation: config.invitation,
            me: identity.clone(),
            ephemeral_public: ephemeral.public_key(),
            ephemeral: Some(ephemeral),
            peer: None,
            th: None,
            keys: None,
            stage: if initiator { Stage::AwaitReply } else { Stage::AwaitHello },
            seq: 0,
            prev: [0; TAG_LEN],
            sender: config.start.turn(),
            snapshot: None,
            pos: config.start,
            ply: 0,
            moves: Vec::new(),
            offer: None,
            offer_blocked: None,
            over,
            outbox: VecDeque::new(),
            unacked: Vec::new(),
            last_accepted: None,
            failure: None,
        };
        if initiator {
            let hello = Frame::Hello(s.keys_field()).encode();
            s.queue(hello);
        }
        Ok(s)
    }

    fn keys_field(&self) -> KeysField {
        KeysField {
            match_id: *self.match_id.as_bytes(),
            colour: colour_byte(self.color),
            static_key: *self.me.public_key().as_bytes(),
            ephemeral_key: *self.ephemeral_public.as_bytes(),
        }
    }

    fn queue(&mut self, frame: Vec<u8>) {
        self.outbox.push_back(frame.clone());
        self.unacked.push(frame);
    }

    /// The next frame to send, if any. Send them all, in order, to the peer.
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.outbox.pop_front()
    }

    /// The frames the peer may not have received yet (at most two): what to send again after a silence.
    pub fn unacknowledged(&self) -> &[Vec<u8>] {
        &self.unacked
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
        self.outbox.extend(self.unacked.iter().cloned());
    }

    /// The local player's colour.
    pub fn color(&self) -> Color {
        self.color
    }

    /// Whether this side opens the handshake (the side that does not move first in the start position).
    pub fn is_initiator(&self) -> bool {
        self.initiator
    }

    /// The local player's identity.
    pub fn identity(&self) -> Identity {
        self.me.identity()
    }

    /// The match id.
    pub fn match_id(&self) -> MatchId {
        self.match_id
    }

    /// The peer's identity, once its keys have arrived.
    pub fn peer_identity(&self) -> Option<Identity> {
        self.peer.map(|p| p.identity)
    }

    /// The transcript hash once both keys are known: both players see the same 32 bytes, which they may
    /// compare out of band (a "safety number") if they pinned nothing.
    pub fn transcript_hash(&self) -> Option<[u8; 32]> {
        self.th
    }

    /// The board as this side knows it.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Half-moves played in this match.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The move texts played so far, in order.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// Where the session stands.
    pub fn phase(&self) -> Phase {
        match self.stage {
            Stage::AwaitHello | Stage::AwaitReply | Stage::AwaitFinished => Phase::Handshake,
            Stage::Playing => Phase::Playing,
            Stage::Closed(r) => Phase::Closed(r),
            Stage::Aborted => Phase::Aborted,
        }
    }

    /// The result, once the match is over (an abort after a failure gives an `Aborted` result too).
    pub fn result(&self) -> Option<GameResult> {
        match self.stage {
            Stage::Closed(r) => Some(r),
            Stage::Aborted => Some(GameResult { winner: None, reason: EndReason::Aborted }),
            _ => None,
        }
    }

    /// The failure that aborted the session, if one did.
    pub fn failure(&self) -> Option<&Error> {
        self.failure.as_ref()
    }

    /// The game's end by rule (mate, stalemate, kings alone) reached on the board, while the side to move
    /// has not confirmed it yet with its End message.
    pub fn pending_end(&self) -> Option<GameResult> {
        self.over
    }

    /// Whether the peer's draw offer waits for our answer.
    pub fn draw_offered(&self) -> bool {
        self.offer == Some(self.color.other())
    }

    /// What the local player should do now.
    pub fn action(&self) -> Action {
        match self.stage {
            Stage::AwaitHello | Stage::AwaitReply | Stage::AwaitFinished => Action::Wait,
            Stage::Closed(_) | Stage::Aborted => Action::Done,
            Stage::Playing if self.sender != self.color || self.over.is_some() => Action::Wait,
            Stage::Playing if self.draw_offered() => Action::AnswerDraw,
            Stage::Playing => Action::Move,
        }
    }

    /// A draw the local player may claim now instead of moving: threefold repetition or the 50-move rule.
    pub fn claimable(&self) -> Option<EndReason> {
        if self.action() != Action::Move {
            return None;
        }
        if self.repetitions() >= 3 {
            Some(EndReason::Threefold)
        } else if self.pos.halfmove_clock() >= 100 {
            Some(EndReason::FiftyMoves)
        } else {
            None
        }
    }

    fn repetitions(&self) -> usize {
        let now = self.repetition.last();
        self.repetition.iter().filter(|k| Some(*k) == now).count()
    }

    // ----- incoming -----

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
        if self.last_accepted.as_deref() == Some(bytes) {
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
                self.last_accepted = Some(bytes.to_vec());
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
        self.unacked.clear();
        if self.stage == Stage::Playing {
            // Fails only at the counter's end, when no message can be sent at all.
            let _ = self.send(Kind::Abort, Text::EMPTY, self.pos.hash());
        }
        self.stage = Stage::Aborted;
        self.failure = Some(e.clone());
        Err(e)
    }

    fn accept(&mut self, frame: Frame) -> Result<Vec<Event>, Error> {
        match (self.stage, frame) {
            (Stage::AwaitHello, Frame::Hello(k)) => {
                let peer = self.check_keys(&k)?;
                self.derive(peer, &k)?;
                let th = self.th.unwrap_or_default();
                let tag =
                    self.keys.as_ref().map(|keys| handshake::finished_tag(&keys.finished[self.color.index()], &th));
                let tag = tag.ok_or(Error::Malformed("no keys"))?;
                self.unacked.clear();
                let reply = Frame::Reply(self.keys_field(), Tag::from_bytes(tag)).encode();
                self.queue(reply);
                self.stage = Stage::AwaitFinished;
                Ok(vec![Event::PeerKeys { identity: peer.identity }])
            }
            (Stage::AwaitReply, Frame::Reply(k, tag)) => {
                let peer = self.check_keys(&k)?;
                self.derive(peer, &k)?;
                let th = self.th.unwrap_or_default();
                let keys = self.keys.as_ref().ok_or(Error::Malformed("no keys"))?;
                if !handshake::verify_finished(&keys.finished[self.color.other().index()], &th, tag.as_bytes()) {
                    return Err(Error::Authentication(Kind::Reply.name()));
                }
                let mine = handshake::finished_tag(&keys.finished[self.color.index()], &th);
                self.unacked.clear();
                self.queue(Frame::Finished { tag: Tag::from_bytes(mine) }.encode());
                self.prev = mine;
                self.stage = Stage::Playing;
                Ok(vec![Event::PeerKeys { identity: peer.identity }, Event::Established { peer: peer.identity }])
            }
            (Stage::AwaitFinished, Frame::Finished { tag }) => {
                let th = self.th.unwrap_or_default();
                let keys = self.keys.as_ref().ok_or(Error::Malformed("no keys"))?;
                if !handshake::verify_finished(&keys.finished[self.color.other().index()], &th, tag.as_bytes()) {
                    return Err(Error::Authentication(Kind::Finished.name()));
                }
                self.prev = *tag.as_bytes();
                self.unacked.clear();
                self.stage = Stage::Playing;
                let peer = self.peer.map(|p| p.identity).ok_or(Error::Malformed("no peer"))?;
                let mut events = vec![Event::Established { peer }];
                // A start position that is already over: we, the side to move, say so at once.
                events.extend(self.confirm_end()?);
                Ok(events)
            }
            (Stage::Playing, Frame::Message(m)) => self.on_message(m),
            (Stage::AwaitHello, f) => Err(Error::unexpected(f.kind(), "waiting for the initiator's hello")),
            (Stage::AwaitReply, f) => Err(Error::unexpected(f.kind(), "waiting for the responder's reply")),
            (Stage::AwaitFinished, f) => Err(Error::unexpected(f.kind(), "waiting for the initiator's finished")),
            (_, f) => Err(Error::unexpected(f.kind(), "the handshake is over")),
        }
    }

    /// Checks the keys of a Hello or Reply: our match, the peer's colour, strict public keys that are not
    /// ours, and the pinned identity.
    fn check_keys(&self, k: &KeysField) -> Result<Peer, Error> {
        if k.match_id != *self.match_id.as_bytes() {
            return Err(Error::WrongMatch);
        }
        if k.colour != colour_byte(self.color.other()) {
            return Err(Error::Reflection("the frame claims our own colour"));
        }
        let static_key =
            PublicKey::from_sec1(&k.static_key).map_err(|source| Error::BadKey { which: "static", source })?;
        let ephemeral =
            PublicKey::from_sec1(&k.ephemeral_key).map_err(|source| Error::BadKey { which: "ephemeral", source })?;
        if static_key == self.me.public_key() || ephemeral == self.ephemeral_public {
            return Err(Error::Reflection("our own key came back"));
        }
        let identity = static_key.identity();
        if let Some(expected) = self.pinned {
            if expected != identity {
                return Err(Error::IdentityMismatch { expected, found: identity });
            }
        }
        Ok(Peer { identity, static_key })
    }

    /// Transcript hash and keys from the peer's keys (PROTOCOL.md §4).
    fn derive(&mut self, peer: Peer, k: &KeysField) -> Result<(), Error> {
        let peer_ephemeral =
            PublicKey::from_sec1(&k.ephemeral_key).map_err(|source| Error::BadKey { which: "ephemeral", source })?;
        let my_static = self.me.public_key();
        let (statics, ephemerals) = match self.color {
            Color::White => ([&my_static, &peer.static_key], [&self.ephemeral_public, &peer_ephemeral]),
            Color::Black => ([&peer.static_key, &my_static], [&peer_ephemeral, &self.ephemeral_public]),
        };
        let th = Transcript {
            match_id: self.match_id.as_bytes(),
            chess960: self.chess960,
            start_fen: &self.start_fen,
            invitation: self.invitation.is_some(),
            statics,
            ephemerals,
        }
        .hash();
        // The ephemeral secret is used here once and dropped.
        let eph = self.ephemeral.take().ok_or(Error::Malformed("ephemeral key already used"))?;
        let (ee, es, se) = match self.color {
            // es = white ephemeral × black static; se = white static × black ephemeral.
            Color::White => (
                handshake::dh(eph.secret(), &peer_ephemeral),
                handshake::dh(eph.secret(), &peer.static_key),
                handshake::dh(self.me.secret(), &peer_ephemeral),
            ),
            Color::Black => (
                handshake::dh(eph.secret(), &peer_ephemeral),
                handshake::dh(self.me.secret(), &peer_ephemeral),
                handshake::dh(eph.secret(), &peer.static_key),
            ),
        };
        let keys = handshake::schedule(&th, &ee, &es, &se, self.invitation.as_ref().map(|s| s.as_bytes()));
        self.th = Some(th);
        self.keys = Some(keys);
        self.peer = Some(peer);
        Ok(())
    }

    fn on_message(&mut self, m: MessageFrame) -> Result<Vec<Event>, Error> {
        let peer = self.color.other();
        let current = Chain { seq: self.seq, ply: self.ply, hash: self.pos.hash(), prev: self.prev };
        // The state the tag must have been computed in, from our own records: the current one, or, for a
        // resign or abort that crossed our last message, the one before it. The header only selects.
        let chain = if m.seq == current.seq && m.ply == current.ply {
            current
        } else if let Some(s) = self.snapshot.filter(|s| m.kind.is_terminal() && m.seq == s.seq && m.ply == s.ply) {
            s
        } else {
            return Err(Error::Sequence {
                expected: current.seq,
                expected_ply: current.ply,
                found: m.seq,
                found_ply: m.ply,
            });
        };
        let peer_id = self.peer.map(|p| p.identity).ok_or(Error::Malformed("no peer"))?;
        let input = MacInput {
            version: VERSION,
            kind: m.kind,
            match_id: *self.match_id.as_bytes(),
            sender: *peer_id.as_bytes(),
            colour: colour_byte(peer),
            seq: chain.seq,
            ply: chain.ply,
            hash: m.hash,
            text: m.text,
            prev: chain.prev,
        };
        let keys = self.keys.as_ref().ok_or(Error::Malformed("no keys"))?;
        if !handshake::verify_message(&keys.message[peer.index()], &input, m.tag.as_bytes()) {
            return Err(Error::Authentication(m.kind.name()));
        }
        // Authentic. From here on, a refusal is a protocol violation by the peer (or a desync).
        let next_seq = chain.seq.checked_add(1).ok_or(Error::CounterExhausted)?;
        let desync = |ours: u64, ply: u32| Error::Desync { ply, ours, theirs: m.hash };
        if m.kind.is_terminal() {
            if !m.text.is_empty() {
                return Err(Error::NonCanonical(m.text.to_string()));
            }
            if m.hash != chain.hash {
                return Err(desync(chain.hash, chain.ply));
            }
            let result = if m.kind == Kind::Resign {
                GameResult { winner: Some(self.color), reason: EndReason::Resignation }
            } else {
                GameResult { winner: None, reason: EndReason::Aborted }
            };
            self.seq = next_seq;
            self.prev = *m.tag.as_bytes();
            self.unacked.clear();
            self.stage = Stage::Closed(result);
            return Ok(vec![Event::GameOver(result)]);
        }
        if self.sender != peer {
            return Err(Error::unexpected(m.kind, "it is not the peer's turn to send"));
        }
        if self.over.is_some() && m.kind != Kind::End {
            return Err(Error::unexpected(m.kind, "the game is over on the board: only the end message may follow"));
        }
        if !matches!(m.kind, Kind::Move | Kind::End) && !m.text.is_empty() {
            return Err(Error::NonCanonical(m.text.to_string()));
        }
        // First whether the message is allowed here, then whether the boards agree, then the changes.
        enum Effect {
            Move(Move, Position, u32),
            Offer,
            Answer,
            End(GameResult),
        }
        let effect = match m.kind {
            Kind::Move => {
                if self.offer == Some(self.color) {
                    return Err(Error::unexpected(m.kind, "our draw offer waits for an answer"));
                }
                if self.pos.turn() != peer {
                    return Err(Error::unexpected(m.kind, "it is not the peer's move"));
                }
                let mv = check_move_text(&self.pos, m.text.as_str())?;
                let ply = self.ply.checked_add(1).ok_or(Error::CounterExhausted)?;
                let mut next = self.pos.clone();
                next.make(mv);
                Effect::Move(mv, next, ply)
            }
            Kind::DrawOffer => {
                if self.pos.turn() != peer || self.offer.is_some() || self.offer_blocked == Some(peer) {
                    return Err(Error::unexpected(m.kind, "the peer may not offer a draw now"));
                }
                Effect::Offer
            }
            Kind::DrawAccept | Kind::DrawDecline => {
                if self.offer != Some(self.color) {
                    return Err(Error::unexpected(m.kind, "we offered no draw"));
                }
                Effect::Answer
            }
            Kind::End => {
                let claim =
                    EndReason::from_wire_text(m.text.as_str()).ok_or_else(|| Error::FalseClaim(m.text.to_string()))?;
                if self.pos.turn() != peer || self.offer.is_some() {
                    return Err(Error::FalseClaim(m.text.to_string()));
                }
                Effect::End(match (self.over, claim) {
                    (Some(r), c) if r.reason == c => r,
                    (None, EndReason::Threefold) if self.repetitions() >= 3 => {
                        GameResult { winner: None, reason: claim }
                    }
                    (None, EndReason::FiftyMoves) if self.pos.halfmove_clock() >= 100 => {
                        GameResult { winner: None, reason: claim }
                    }
                    _ => return Err(Error::FalseClaim(m.text.to_string())),
                })
            }
            _ => return Err(Error::unexpected(m.kind, "not a message kind")),
        };
        let (ours, ply) = match &effect {
            Effect::Move(_, next, ply) => (next.hash(), *ply),
            _ => (current.hash, current.ply),
        };
        if m.hash != ours {
            return Err(desync(ours, ply));
        }
        let mut events = Vec::new();
        match effect {
            Effect::Move(mv, next, ply) => {
                self.pos = next;
                self.ply = ply;
                self.moves.push(m.text.to_string());
                self.repetition.push(repetition_key(&self.pos));
                self.offer = None;
                self.offer_blocked = None;
                self.over = rule_result(&self.pos);
                events.push(Event::Moved { color: peer, m: mv, text: m.text.to_string() });
            }
            Effect::Offer => {
                self.offer = Some(peer);
                events.push(Event::DrawOffered);
            }
            Effect::Answer if m.kind == Kind::DrawAccept => {
                self.offer = None;
                let result = GameResult { winner: None, reason: EndReason::DrawAgreed };
                self.stage = Stage::Closed(result);
                events.push(Event::GameOver(result));
            }
            Effect::Answer => {
                self.offer = None;
                self.offer_blocked = Some(self.color);
                events.push(Event::DrawDeclined);
            }
            Effect::End(result) => {
                self.stage = Stage::Closed(result);
                events.push(Event::GameOver(result));
            }
        }
        self.seq = next_seq;
        self.prev = *m.tag.as_bytes();
        self.sender = self.color;
        self.snapshot = None;
        self.unacked.clear();
        // A move that ends the game by rule leaves us, the side to move, to confirm it.
        events.extend(self.confirm_end()?);
        Ok(events)
    }

    /// Sends End if the game is over by rule on our board and we are to move (and so to confirm it).
    fn confirm_end(&mut self) -> Result<Option<Event>, Error> {
        if let (Stage::Playing, Some(result), true) = (self.stage, self.over, self.sender == self.color) {
            if let Some(text) = result.reason.wire_text() {
                self.send(Kind::End, Text::new(text)?, self.pos.hash())?;
                self.stage = Stage::Closed(result);
                return Ok(Some(Event::GameOver(result)));
            }
        }
        Ok(None)
    }

    // ----- outgoing -----

    /// Seals and queues one message in the current chain state.
    fn send(&mut self, kind: Kind, text: Text, hash: u64) -> Result<(), Error> {
        let next_seq = self.seq.checked_add(1).ok_or(Error::CounterExhausted)?;
        let keys = self.keys.as_ref().ok_or(Error::NotNow("the handshake is not complete"))?;
        let input = MacInput {
            version: VERSION,
            kind,
            match_id: *self.match_id.as_bytes(),
            sender: *self.me.identity().as_bytes(),
            colour: colour_byte(self.color),
            seq: self.seq,
            ply: self.ply,
            hash,
            text,
            prev: self.prev,
        };
        let tag = handshake::message_tag(&keys.message[self.color.index()], &input);
        let frame =
            Frame::Message(MessageFrame { kind, seq: self.seq, ply: self.ply, hash, text, tag: Tag::from_bytes(tag) })
                .encode();
        self.snapshot = Some(Chain { seq: self.seq, ply: self.ply, hash: self.pos.hash(), prev: self.prev });
        self.queue(frame);
        self.seq = next_seq;
        self.prev = tag;
        Ok(())
    }

    /// Sends a local message, aborting the session if the counter is exhausted.
    fn send_local(&mut self, kind: Kind, text: Text, hash: u64) -> Result<(), Error> {
        match self.send(kind, text, hash) {
            Err(Error::CounterExhausted) => {
                self.stage = Stage::Aborted;
                self.failure = Some(Error::CounterExhausted);
                Err(Error::CounterExhausted)
            }
            other => other,
        }
    }

    fn my_turn(&self, what: &'static str) -> Result<(), Error> {
        match self.stage {
            Stage::Playing => {}
            Stage::Closed(_) => return Err(Error::Closed),
            Stage::Aborted => return Err(Error::Aborted),
            _ => return Err(Error::NotNow("the handshake is not complete")),
        }
        if self.sender != self.color || self.over.is_some() {
            return Err(Error::NotNow(what));
        }
        Ok(())
    }

    /// Plays a local move: checks it with the legal generator, plays it on our board and queues it.
    ///
    /// [`Session::play_text`] takes the move as text; the crate docs show a whole exchange.
    ///
    /// # Errors
    /// [`Error::NotNow`] out of turn or while the peer's draw offer waits for an answer,
    /// [`Error::IllegalLocalMove`] for an illegal move (nothing changes); [`Error::CounterExhausted`]
    /// aborts the session.
    pub fn play(&mut self, m: Move) -> Result<(), Error> {
        self.my_turn("it is the peer's turn")?;
        if self.draw_offered() {
            return Err(Error::NotNow("answer the peer's draw offer first"));
        }
        let text = TextMove::from_move(m, &self.pos).to_string();
        let mut next = self.pos.clone();
        next.play(m).map_err(Error::IllegalLocalMove)?;
        let ply = self.ply.checked_add(1).ok_or(Error::CounterExhausted)?;
        self.send_local(Kind::Move, Text::new(&text)?, next.hash())?;
        self.sender = self.color.other();
        self.pos = next;
        self.ply = ply;
        self.moves.push(text);
        self.repetition.push(repetition_key(&self.pos));
        self.offer = None;
        self.offer_blocked = None;
        self.over = rule_result(&self.pos);
        Ok(())
    }

    /// Parses a move text (RULES.md §4) and plays it.
    ///
    /// # Errors
    /// As [`Session::play`]; [`Error::IllegalLocalMove`] for text that names no legal move.
    pub fn play_text(&mut self, text: &str) -> Result<(), Error> {
        self.my_turn("it is the peer's turn")?;
        let m = self.pos.parse_move(text).map_err(Error::IllegalLocalMove)?;
        self.play(m)
    }

    /// Offers a draw (on our move); the peer must answer before we move.
    ///
    /// # Errors
    /// [`Error::NotNow`] out of turn, with an offer pending, or after a declined offer until we have moved.
    pub fn offer_draw(&mut self) -> Result<(), Error> {
        self.my_turn("it is the peer's turn")?;
        if self.offer.is_some() || self.offer_blocked == Some(self.color) {
            return Err(Error::NotNow("no second draw offer before a move"));
        }
        self.send_local(Kind::DrawOffer, Text::EMPTY, self.pos.hash())?;
        self.offer = Some(self.color);
        self.sender = self.color.other();
        Ok(())
    }

    /// Accepts the peer's draw offer: the game is drawn.
    ///
    /// # Errors
    /// [`Error::NotNow`] if no offer waits.
    pub fn accept_draw(&mut self) -> Result<(), Error> {
        self.my_turn("no draw offer waits")?;
        if !self.draw_offered() {
            return Err(Error::NotNow("no draw offer waits"));
        }
        self.send_local(Kind::DrawAccept, Text::EMPTY, self.pos.hash())?;
        self.offer = None;
        self.stage = Stage::Closed(GameResult { winner: None, reason: EndReason::DrawAgreed });
        Ok(())
    }

    /// Declines the peer's draw offer: the peer must now move.
    ///
    /// # Errors
    /// [`Error::NotNow`] if no offer waits.
    pub fn decline_draw(&mut self) -> Result<(), Error> {
        self.my_turn("no draw offer waits")?;
        if !self.draw_offered() {
            return Err(Error::NotNow("no draw offer waits"));
        }
        self.send_local(Kind::DrawDecline, Text::EMPTY, self.pos.hash())?;
        self.offer = None;
        self.offer_blocked = Some(self.color.other());
        self.sender = self.color.other();
        Ok(())
    }

    /// Claims a draw by threefold repetition or the 50-move rule, instead of moving.
    ///
    /// # Errors
    /// [`Error::NotNow`] out of turn or if the claim does not hold on our board.
    pub fn claim_draw(&mut self, reason: EndReason) -> Result<(), Error> {
        self.my_turn("it is the peer's turn")?;
        let holds = match reason {
            EndReason::Threefold => self.repetitions() >= 3,
            EndReason::FiftyMoves => self.pos.halfmove_clock() >= 100,
            _ => false,
        };
        if !holds || self.draw_offered() {
            return Err(Error::NotNow("the claim does not hold"));
        }
        let text = reason.wire_text().ok_or(Error::NotNow("not a claim"))?;
        self.send_local(Kind::End, Text::new(text)?, self.pos.hash())?;
        self.stage = Stage::Closed(GameResult { winner: None, reason });
        Ok(())
    }

    /// Resigns (at any time once the handshake is complete): the peer wins.
    ///
    /// # Errors
    /// [`Error::NotNow`] during the handshake, [`Error::Closed`] after the end.
    pub fn resign(&mut self) -> Result<(), Error> {
        match self.stage {
            Stage::Playing => {}
            Stage::Closed(_) => return Err(Error::Closed),
            Stage::Aborted => return Err(Error::Aborted),
            _ => return Err(Error::NotNow("the handshake is not complete: abort instead")),
        }
        self.send_local(Kind::Resign, Text::EMPTY, self.pos.hash())?;
        self.stage = Stage::Closed(GameResult { winner: Some(self.color.other()), reason: EndReason::Resignation });
        Ok(())
    }

    /// Stops the match without a result. Queues an Abort if the handshake is complete; does nothing if
    /// the match is already over.
    pub fn abort(&mut self) {
        if self.stage == Stage::Playing {
            let _ = self.send(Kind::Abort, Text::EMPTY, self.pos.hash());
        }
        if !matches!(self.stage, Stage::Closed(_) | Stage::Aborted) {
            self.stage = Stage::Closed(GameResult { winner: None, reason: EndReason::Aborted });
        }
    }
}
