//! [`Session`]: one player's side of one match, a sans-IO state machine (bytes in; bytes and events out).
//!
//! The session is in four named parts, each with its own file, besides the match id, the color, the
//! stage and the failure that it keeps itself:
//!
//! - [`handshake`]: the keys (ours, the peer's, the ephemeral ones), the transcript hash, the derived
//!   keys, and the Hello, Reply and Finished frames (PROTOCOL.md §4);
//! - [`chain`]: the message chain over both directions (sequence number, previous tag, whose turn it is
//!   to send, the snapshot before our last message) and the sealing of outgoing messages (§5);
//! - [`game`]: the board, the moves, the draw offers and the end by rule, and the checks of move texts;
//! - [`transport`]: the frames to send, the unacknowledged ones, the last accepted ones (§6), and the
//!   entry of incoming bytes.
//!
//! An incoming message goes through [`message`] in three steps: authenticate (chain and tag), decide
//! (whether the message is allowed and the boards agree, changing nothing) and commit. The local player's
//! moves and answers are in [`local`]; saving and resuming in [`state`] (PROTOCOL.md §11). The attacks of
//! the threat model are a test-only child module (`attacks.rs`), so that the parts stay private.

use std::fmt;

use tesseract_board::{Color, Move, Position};
use tesseract_movegen::{GameEnd, Termination};

use crate::Error;
use crate::frame::{Frame, TAG_LEN};
use crate::keys::{EphemeralKey, Identity, IdentityKey, InvitationSecret, MatchId};

mod chain;
mod game;
mod handshake;
mod local;
mod message;
mod state;
mod transport;

#[cfg(test)]
mod attacks;

pub use state::{MAX_STATE, STATE_FORMAT, StateError};

use chain::Chain;
use game::Game;
use handshake::Handshake;
use transport::Transport;

/// How a game ended: one of the rules' ends ([`Termination`], tesseract-movegen's one list of them), or
/// one that only players make (resignation, agreement, abort).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// An end by the rules: confirmed by the side to move, or a draw claimed (PROTOCOL.md §5.3).
    Rules(Termination),
    /// A player resigned.
    Resignation,
    /// A draw offer was accepted.
    DrawAgreed,
    /// A player stopped the match without a result.
    Aborted,
}

impl EndReason {
    /// The text an End message carries for the reasons it can carry (the rules' ends; PROTOCOL.md §5.3's
    /// table).
    ///
    /// # Examples
    /// ```
    /// use tesseract_movegen::Termination;
    /// use tesseract_wire::EndReason;
    /// assert_eq!(EndReason::Rules(Termination::FiftyMoves).wire_text(), Some("fifty-moves"));
    /// assert_eq!(EndReason::from_wire_text("checkmate"), Some(EndReason::Rules(Termination::Checkmate)));
    /// assert_eq!(EndReason::Resignation.wire_text(), None);
    /// ```
    pub const fn wire_text(self) -> Option<&'static str> {
        let EndReason::Rules(t) = self else { return None };
        Some(match t {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadDraw => "dead-draw",
            Termination::Fivefold => "fivefold",
            Termination::SeventyFiveMoves => "seventy-five-moves",
            Termination::Threefold => "threefold",
            Termination::FiftyMoves => "fifty-moves",
        })
    }

    /// The reason an End text names, if any.
    pub fn from_wire_text(text: &str) -> Option<EndReason> {
        Termination::ALL.into_iter().map(EndReason::Rules).find(|r| r.wire_text() == Some(text))
    }

    /// A name for programs and logs: the End text for the rules' ends, else `resignation`,
    /// `draw-agreed` or `aborted`.
    ///
    /// ```
    /// use tesseract_movegen::Termination;
    /// use tesseract_wire::EndReason;
    /// assert_eq!(EndReason::DrawAgreed.name(), "draw-agreed");
    /// assert_eq!(EndReason::Rules(Termination::Fivefold).name(), "fivefold");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Resignation => "resignation",
            EndReason::DrawAgreed => "draw-agreed",
            EndReason::Aborted => "aborted",
            EndReason::Rules(_) => match self.wire_text() {
                Some(text) => text,
                None => "aborted",
            },
        }
    }
}

impl From<GameEnd> for EndReason {
    fn from(end: GameEnd) -> EndReason {
        EndReason::Rules(end.termination())
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

impl GameResult {
    /// The score: `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted match.
    pub const fn score(self) -> &'static str {
        match (self.winner, self.reason) {
            (Some(Color::White), _) => "1-0",
            (Some(Color::Black), _) => "0-1",
            (None, EndReason::Aborted) => "*",
            (None, _) => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    /// `1-0 (checkmate)`, `1/2-1/2 (draw-agreed)`, `* (aborted)`: the score and the reason's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.score(), self.reason.name())
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
    /// The authenticated peer broke the protocol (an illegal move, a false claim, a desync): the session
    /// accepts nothing more (fail closed).
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
    /// The peer's keys are proven (they match the pinned identity, if one was pinned, and the peer's
    /// Finished tag verified): sent with [`Event::Established`].
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
    /// A byte-identical copy of a frame accepted lately: ignored (a Hello the responder answered is
    /// answered again).
    Duplicate,
    /// A frame that does not authenticate as the peer's next frame was dropped, and counted in
    /// [`Session::dropped`]: damaged or replayed on the way, or sent by someone other than the peer.
    /// Nothing else changed.
    Dropped {
        /// Why it was dropped (for logs; never sent to anyone).
        error: Error,
    },
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
    /// The local player's color.
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

/// Where the session stands, finer than [`Phase`]: which handshake frame it waits for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// The responder waits for the initiator's Hello.
    AwaitHello,
    /// The initiator waits for the responder's Reply.
    AwaitReply,
    /// The responder answered one Hello or more and waits for the Finished that proves one of them (it
    /// still answers other Hellos).
    AwaitFinished,
    /// The handshake is complete; messages flow.
    Playing,
    /// The match is over.
    Closed(GameResult),
    /// The authenticated peer broke the protocol (or our counter ran out): nothing more is accepted.
    Aborted,
}

/// Why an incoming frame was refused.
pub(super) enum Refusal {
    /// It does not authenticate as the peer's next frame: dropped and counted, nothing changes.
    Drop(Error),
    /// The authenticated peer broke the protocol: the session aborts.
    Violation(Error),
}

/// One player's side of one match: a sans-IO state machine.
///
/// Feed it every frame that arrives with [`Session::receive`]; take the frames it wants sent with
/// [`Session::poll_transmit`]; make local moves with [`Session::play`] and friends; call
/// [`Session::retransmit`] when the peer has been silent for a while (the relay may have dropped a
/// frame). See the crate docs for a whole match.
///
/// A frame that does not authenticate is dropped and counted ([`Session::dropped`]), so that nobody but
/// the peer can stop the match; an authenticated frame that breaks the protocol aborts the session for
/// good and queues one Abort frame that does not say what failed; local misuse (a move out of turn)
/// returns an error and changes nothing.
pub struct Session {
    /// The match id both players know.
    match_id: MatchId,
    /// The local player's color.
    color: Color,
    /// Where the session stands.
    stage: Stage,
    /// The failure that aborted the session, if one did.
    failure: Option<Error>,
    /// Keys, peer, transcript hash and derived keys.
    handshake: Handshake,
    /// The message chain: sequence number, previous tag, turn to send, snapshot.
    chain: Chain,
    /// The board and the game on it.
    game: Game,
    /// Frames out and the last frame in.
    transport: Transport,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the keys, the invitation secret or the transcript's secrets.
        f.debug_struct("Session")
            .field("match_id", &self.match_id)
            .field("color", &self.color)
            .field("me", &self.handshake.me.identity())
            .field("peer", &self.handshake.peer.map(|p| p.identity))
            .field("phase", &self.phase())
            .field("seq", &self.chain.seq)
            .field("ply", &self.game.ply)
            .finish_non_exhaustive()
    }
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
        let mut s = Session {
            match_id: config.match_id,
            color: config.color,
            stage: if initiator { Stage::AwaitReply } else { Stage::AwaitHello },
            failure: None,
            handshake: Handshake {
                initiator,
                chess960: config.start.castling_mode() == tesseract_board::CastlingMode::Chess960,
                start_fen,
                pinned: config.peer,
                invitation: config.invitation,
                me: identity.clone(),
                ephemeral_public: ephemeral.public_key(),
                ephemeral: Some(ephemeral),
                peer: None,
                th: None,
                keys: None,
                candidates: Vec::new(),
            },
            chain: Chain { seq: 0, prev: [0; TAG_LEN], sender: config.start.turn(), snapshot: None },
            game: Game::new(config.start),
            transport: Transport::default(),
        };
        if initiator {
            let hello = Frame::Hello(s.keys_field()).encode();
            s.transport.queue(hello);
        }
        Ok(s)
    }

    /// The local player's color.
    pub fn color(&self) -> Color {
        self.color
    }

    /// Whether this side opens the handshake (the side that does not move first in the start position).
    pub fn is_initiator(&self) -> bool {
        self.handshake.initiator
    }

    /// The local player's identity.
    pub fn identity(&self) -> Identity {
        self.handshake.me.identity()
    }

    /// The match id.
    pub fn match_id(&self) -> MatchId {
        self.match_id
    }

    /// The peer's identity, once its keys have arrived.
    pub fn peer_identity(&self) -> Option<Identity> {
        self.handshake.peer.map(|p| p.identity)
    }

    /// The transcript hash once both keys are known: both players see the same 32 bytes, which they may
    /// compare out of band (a "safety number") if they pinned nothing.
    pub fn transcript_hash(&self) -> Option<[u8; 32]> {
        self.handshake.th
    }

    /// The board as this side knows it.
    pub fn position(&self) -> &Position {
        self.game.pos()
    }

    /// Half-moves played in this match.
    pub fn ply(&self) -> u32 {
        self.game.ply
    }

    /// The move texts played so far, in order.
    pub fn moves(&self) -> &[String] {
        &self.game.moves
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

    /// The game's end by a rule that needs no claim (mate, stalemate, dead position, fivefold repetition,
    /// the 75-move rule) reached on the board, while the side to move has not confirmed it yet with its
    /// End message.
    pub fn pending_end(&self) -> Option<GameResult> {
        self.game.over
    }

    /// Whether the peer's draw offer waits for our answer.
    pub fn draw_offered(&self) -> bool {
        self.game.offer == Some(self.color.other())
    }

    /// What the local player should do now.
    pub fn action(&self) -> Action {
        match self.stage {
            Stage::AwaitHello | Stage::AwaitReply | Stage::AwaitFinished => Action::Wait,
            Stage::Closed(_) | Stage::Aborted => Action::Done,
            Stage::Playing if self.chain.sender != self.color || self.game.over.is_some() => Action::Wait,
            Stage::Playing if self.draw_offered() => Action::AnswerDraw,
            Stage::Playing => Action::Move,
        }
    }

    /// A draw the local player may claim now instead of moving: threefold repetition or the 50-move rule.
    pub fn claimable(&self) -> Option<EndReason> {
        if self.action() != Action::Move {
            return None;
        }
        self.game.claimable()
    }

    /// Takes a decoded frame (`bytes` as it came) in the current stage: the handshake's frames go to
    /// [`handshake`], the messages to [`message`]. Anything a stranger could have sent is a
    /// [`Refusal::Drop`]; only an authenticated message can be a [`Refusal::Violation`].
    fn accept(&mut self, frame: Frame, bytes: &[u8]) -> Result<Vec<Event>, Refusal> {
        let waiting = |f: Frame, why| Err(Refusal::Drop(Error::unexpected(f.kind(), why)));
        match (self.stage, frame) {
            (Stage::AwaitHello | Stage::AwaitFinished, Frame::Hello(k)) => {
                self.on_hello(&k, bytes).map_err(Refusal::Drop)
            }
            (Stage::AwaitReply, Frame::Reply(k, tag)) => self.on_reply(&k, &tag).map_err(Refusal::Drop),
            (Stage::AwaitFinished, Frame::Finished { tag }) => {
                let mut events = self.on_finished(&tag).map_err(Refusal::Drop)?;
                // A start position that is already over: we, the side to move, say so at once.
                events.extend(self.confirm_end().map_err(Refusal::Violation)?);
                Ok(events)
            }
            (Stage::Playing, Frame::Message(m)) => self.on_message(m),
            (Stage::AwaitHello, f) => waiting(f, "waiting for the initiator's hello"),
            (Stage::AwaitReply, f) => waiting(f, "waiting for the responder's reply"),
            (Stage::AwaitFinished, f) => waiting(f, "waiting for the initiator's finished"),
            (_, f) => waiting(f, "the handshake is over"),
        }
    }
}
