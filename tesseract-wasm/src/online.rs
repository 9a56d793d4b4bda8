//! [`Online`]: one player's side of a signed match between two browsers, over a [`tesseract_wire::Session`],
//! in the shape of the JavaScript class `Online`.
//!
//! The session is sans-IO: the page hands it every frame the relay delivers ([`Online::receive`]) and sends
//! every frame it gives ([`Online::next_frame`]); sockets, timers and storage are the page's.
#![forbid(unsafe_code)]

use serde_json::{Value, json};
use tesseract_board::{CastlingMode, Color, fen::CastlingNotation, start};
use tesseract_wire::{
    Action, EndReason, EphemeralKey, Error, Event, GameResult, IdentityKey, InvitationSecret, MatchConfig, MatchId,
    Phase, Session, StateError, Zeroizing,
};

/// The first field of an invitation: the format's name and version.
const INVITATION_TAG: &str = "tw1";

/// The longest invitation text read: the longest real one is about 120 characters.
pub const MAX_INVITATION: usize = 256;

/// The longest saved state accepted, in hex digits: twice [`tesseract_wire::MAX_STATE`].
const MAX_STATE_HEX: usize = 2 * tesseract_wire::MAX_STATE;

/// What a game link carries after `#join=`: the match id, the invitation secret, the creator's color and
/// the start, as `tw1.<w|b>.<start>.<match id: 32 hex>.<secret: 64 hex>`.
#[derive(Clone, Debug)]
struct Invitation {
    match_id: MatchId,
    creator: Color,
    start: String,
    secret: InvitationSecret,
}

impl Invitation {
    fn parse(text: &str) -> Result<Invitation, String> {
        if text.len() > MAX_INVITATION {
            return Err(format!(
                "not an invitation: {} characters, an invitation has at most {MAX_INVITATION}",
                text.len()
            ));
        }
        let fields: Vec<&str> = text.split('.').collect();
        let [tag, color, start, id, secret] = fields[..] else {
            return Err(format!(
                "not an invitation: {} fields separated by '.', expected 5 (tw1.<w|b>.<start>.<match id>.<secret>)",
                fields.len()
            ));
        };
        if tag != INVITATION_TAG {
            return Err(format!("not an invitation: it starts with {:?}, expected \"tw1\"", shorten(tag)));
        }
        let creator = color_of(color).map_err(|e| format!("the invitation's color: {e}"))?;
        let start = canonical_start(start).map_err(|e| format!("the invitation's start: {e}"))?;
        let match_id = id.parse::<MatchId>().map_err(|e| format!("the invitation's match id: {e}"))?;
        let secret = secret.parse::<InvitationSecret>().map_err(|_| {
            // The error would echo the digits: the secret stays out of messages.
            "the invitation's secret: expected 64 hex digits".to_string()
        })?;
        Ok(Invitation { match_id, creator, start, secret })
    }

    fn text(&self) -> String {
        format!(
            "{INVITATION_TAG}.{}.{}.{}.{}",
            self.creator.char(),
            self.start,
            self.match_id,
            self.secret.to_hex().as_str()
        )
    }

    fn config(&self, color: Color) -> Result<MatchConfig, String> {
        let pos = start::by_name(&self.start).map_err(|e| e.to_string())?;
        Ok(MatchConfig::new(self.match_id, color, pos).invitation(self.secret.clone()))
    }
}

/// The start names a match can use, written one way only: `light`, `standard`, `dense`, `classic`,
/// `chess960:N` (N from 0 to 959, no sign or leading zero).
fn canonical_start(name: &str) -> Result<String, String> {
    // The board crate knows other starts too (the 3D raumschach): the page plays 8x8 and 5^4 only.
    let known = matches!(name, "light" | "standard" | "dense" | "classic") || name.starts_with("chess960:");
    if !known {
        return Err(format!(
            "unknown start {:?}: expected light, standard, dense, classic or chess960:N",
            shorten(name)
        ));
    }
    start::by_name(name).map_err(|e| e.to_string())?;
    let canonical = match name.strip_prefix("chess960:") {
        Some(n) => format!("chess960:{}", n.parse::<u32>().map_err(|e| e.to_string())?),
        None => name.to_string(),
    };
    if canonical != name {
        return Err(format!("{:?} is written {canonical:?}", shorten(name)));
    }
    Ok(canonical)
}

/// `w`/`white` or `b`/`black`.
fn color_of(text: &str) -> Result<Color, String> {
    text.parse().map_err(|e: tesseract_board::ParseColorError| e.to_string())
}

/// At most 40 characters of untrusted text, for a message.
fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex digits (either case, an even number) into bytes; `what` names the input in the message.
fn unhex(text: &str, what: &str, max_digits: usize) -> Result<Vec<u8>, String> {
    if text.len() > max_digits {
        return Err(format!("{what}: {} characters, at most {max_digits} hex digits", text.len()));
    }
    if !text.len().is_multiple_of(2) {
        return Err(format!("{what}: an odd number of hex digits ({})", text.len()));
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    text.as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            digit(pair[0])
                .zip(digit(pair[1]))
                .map(|(h, l)| (h << 4) | l)
                .ok_or_else(|| format!("{what}: not a hex digit at position {}", 2 * i))
        })
        .collect()
}

/// The long-term key of 64 hex digits (its 32 secret bytes).
fn identity_key(secret_hex: &str) -> Result<IdentityKey, String> {
    let bytes = unhex(secret_hex, "the identity key", 64)?;
    let bytes: [u8; 32] =
        bytes.try_into().map_err(|b: Vec<u8>| format!("the identity key: {} hex digits, expected 64", 2 * b.len()))?;
    IdentityKey::from_bytes(&bytes).map_err(|e| format!("the identity key: {e}"))
}

fn color_char(c: Color) -> String {
    c.char().to_string()
}

fn result_json(r: GameResult) -> Value {
    json!({ "score": r.score(), "winner": r.winner.map(color_char), "reason": r.reason.name() })
}

fn failure_json(e: &Error) -> Value {
    json!({ "type": "failure", "kind": e.name(), "message": e.to_string(), "fatal": !e.is_local() })
}

fn state_error(e: StateError) -> String {
    format!("the saved match cannot be resumed: {e}")
}

/// One player's side of an online match: a [`Session`] authenticated by an invitation secret from a game
/// link, with the JSON-and-strings API of the JavaScript class `Online`.
///
/// Every method is the JavaScript method of the same name in camelCase (see the crate docs); an `Err`
/// is thrown there as an `Error` with the same message. Frames from the relay are never thrown about:
/// [`Online::receive`] reports a dropped frame as a `dropped` event and a fatal one as a `failure`.
pub struct Online {
    session: Session,
    invitation: Invitation,
}

impl std::fmt::Debug for Online {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Online")
            .field("match_id", &self.invitation.match_id)
            .field("color", &self.session.color())
            .field("phase", &self.session.phase())
            .finish_non_exhaustive()
    }
}

impl Online {
    /// A new long-term identity key: 64 hex digits (its secret), for the page to keep.
    ///
    /// # Panics
    /// If the browser (or the operating system) gives no random bytes.
    pub fn generate_identity() -> String {
        hex(&IdentityKey::random().to_bytes()[..])
    }

    /// The public identity (32 hex digits) of an identity key of 64 hex digits.
    ///
    /// # Errors
    /// Text that is not 64 hex digits, or not a valid P-256 secret.
    pub fn identity_of(secret_hex: &str) -> Result<String, String> {
        Ok(identity_key(secret_hex)?.identity().to_string())
    }

    /// A new match: a fresh match id and invitation secret, this player on `color` (`w` or `b`) from
    /// `start` (`light`, `standard`, `dense`, `classic`, `chess960:N`), with the identity key
    /// `identity_hex`. [`Online::invitation`] is the text to give the other player.
    ///
    /// # Errors
    /// A bad start, color or identity key.
    pub fn create(start: &str, color: &str, identity_hex: &str) -> Result<Online, String> {
        let start = canonical_start(start)?;
        let creator = color_of(color)?;
        let key = identity_key(identity_hex)?;
        let invitation = Invitation { match_id: MatchId::random(), creator, start, secret: InvitationSecret::random() };
        Online::begin(invitation, creator, &key)
    }

    /// Joins the match of an invitation (the text after `#join=` in a game link), on the color the
    /// creator left.
    ///
    /// # Errors
    /// An invitation that does not parse (saying which field), or a bad identity key.
    pub fn join(invitation: &str, identity_hex: &str) -> Result<Online, String> {
        let invitation = Invitation::parse(invitation)?;
        let key = identity_key(identity_hex)?;
        let color = invitation.creator.other();
        Online::begin(invitation, color, &key)
    }

    fn begin(invitation: Invitation, color: Color, key: &IdentityKey) -> Result<Online, String> {
        let config = invitation.config(color)?;
        let session = Session::new(config, key, EphemeralKey::random()).map_err(|e| e.to_string())?;
        Ok(Online { session, invitation })
    }

    /// Resumes a match saved by [`Online::save_state`], with the identity key and the invitation it was
    /// played with (on either side: the state says which).
    ///
    /// # Errors
    /// Text that is not hex, a state that is damaged, cut or of another format, or one of another match,
    /// start, player or invitation (the wire crate's `StateError`, in words).
    pub fn resume(state_hex: &str, identity_hex: &str, invitation: &str) -> Result<Online, String> {
        let invitation = Invitation::parse(invitation)?;
        let key = identity_key(identity_hex)?;
        let bytes = Zeroizing::new(unhex(state_hex, "the saved state", MAX_STATE_HEX)?);
        let creator = invitation.creator;
        let (as_creator, as_joiner) = (invitation.config(creator)?, invitation.config(creator.other())?);
        // The state holds the color; the creator's is tried first, the joiner's if the state says so.
        let session = match Session::resume(as_creator, &key, &bytes) {
            Err(StateError::Mismatch { what: "color", .. }) => Session::resume(as_joiner, &key, &bytes),
            other => other,
        }
        .map_err(state_error)?;
        Ok(Online { session, invitation })
    }

    /// The invitation text (`tw1.<w|b>.<start>.<match id>.<secret>`), the same on both sides: a game link
    /// is the page's address with `#join=` and this. **It holds the secret**: whoever has it can answer in
    /// place of the invited player until the handshake is done.
    pub fn invitation(&self) -> String {
        self.invitation.text()
    }

    /// The match id, 32 hex digits (also the relay's match name).
    pub fn match_id(&self) -> String {
        self.invitation.match_id.to_string()
    }

    /// The start's name.
    pub fn start(&self) -> String {
        self.invitation.start.clone()
    }

    /// This player's color: `w` or `b`.
    pub fn color(&self) -> String {
        color_char(self.session.color())
    }

    /// This player's identity, 32 hex digits.
    pub fn identity(&self) -> String {
        self.session.identity().to_string()
    }

    /// The peer's identity once its keys arrived.
    pub fn peer_identity(&self) -> Option<String> {
        self.session.peer_identity().map(|i| i.to_string())
    }

    /// Takes one frame from the relay; returns a JSON array of events:
    /// `{"type": "peerKeys", "identity"}`, `{"type": "established", "peer", "safety"}`,
    /// `{"type": "moved", "color", "text", "ply"}`, `{"type": "drawOffered"}`, `{"type": "drawDeclined"}`,
    /// `{"type": "gameOver", "score", "winner", "reason"}`, `{"type": "duplicate"}`;
    /// `{"type": "dropped", "kind", "message", "count"}` for a frame that does not authenticate (damaged,
    /// replayed, or sent by someone other than the opponent): dropped, the match goes on, and `count` is
    /// how many were dropped so far; or one `{"type": "failure", "kind", "message", "fatal"}` for a frame
    /// that ended the match (`fatal`: an authenticated violation, an illegal move, a false claim, a
    /// desync) or came after its end (not fatal). `kind` is the wire crate's error (`Authentication`,
    /// `Desync`, `Sequence`, `Malformed`, ...), `message` says what failed.
    pub fn receive(&mut self, bytes: &[u8]) -> String {
        let events = self.session.receive(bytes);
        self.events_json(events)
    }

    /// Takes the news of a frame of `len` bytes that the page refused to copy (too long to be a frame):
    /// dropped as any oversize frame. The same JSON as [`Online::receive`].
    pub fn receive_oversize(&mut self, len: f64) -> String {
        let len = if len.is_finite() && len >= 0.0 { len as u64 } else { u64::MAX };
        let events = self.session.receive_oversize(len);
        self.events_json(events)
    }

    fn events_json(&self, events: Result<Vec<Event>, Error>) -> String {
        let list: Vec<Value> = match events {
            Err(e) => vec![failure_json(&e)],
            Ok(events) => events
                .into_iter()
                .map(|e| match e {
                    Event::PeerKeys { identity } => json!({ "type": "peerKeys", "identity": identity.to_string() }),
                    Event::Established { peer } => {
                        json!({ "type": "established", "peer": peer.to_string(), "safety": self.safety_number() })
                    }
                    Event::Moved { color, text, .. } => json!({
                        "type": "moved",
                        "color": color_char(color),
                        "text": text,
                        "ply": self.session.moves().len(),
                    }),
                    Event::DrawOffered => json!({ "type": "drawOffered" }),
                    Event::DrawDeclined => json!({ "type": "drawDeclined" }),
                    Event::GameOver(r) => {
                        let mut v = result_json(r);
                        v["type"] = json!("gameOver");
                        v
                    }
                    Event::Duplicate => json!({ "type": "duplicate" }),
                    Event::Dropped { error } => json!({
                        "type": "dropped",
                        "kind": error.name(),
                        "message": error.to_string(),
                        "count": self.session.dropped(),
                    }),
                    other => json!({ "type": "other", "debug": format!("{other:?}") }),
                })
                .collect(),
        };
        Value::Array(list).to_string()
    }

    /// How many frames were dropped because they did not authenticate (since the page started or
    /// resumed the match).
    pub fn dropped(&self) -> f64 {
        self.session.dropped() as f64
    }

    /// The next frame to send to the relay, or `None` when there is none.
    pub fn next_frame(&mut self) -> Option<Vec<u8>> {
        self.session.poll_transmit()
    }

    /// Queues the unacknowledged frames again (after a reconnection, a `joined` from the relay, or a
    /// silence), for [`Online::next_frame`].
    pub fn retransmit(&mut self) {
        self.session.retransmit();
    }

    /// How many frames the peer has not acknowledged yet (0 to 2, at most 4).
    pub fn unacknowledged(&self) -> u32 {
        self.session.unacknowledged().len() as u32
    }

    /// Plays a move text (RULES.md §4: eight digits in 4D, UCI in 2D) and queues it.
    ///
    /// # Errors
    /// Not this player's move, a draw offer to answer first, or not a legal move (nothing changes).
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        if text.len() > 32 {
            return Err(format!("not a move text: {} characters", text.len()));
        }
        self.session.play_text(text).map_err(|e| e.to_string())
    }

    /// Offers a draw (on this player's move).
    ///
    /// # Errors
    /// Out of turn, an offer pending, or again before a move after a declined offer.
    pub fn offer_draw(&mut self) -> Result<(), String> {
        self.session.offer_draw().map_err(|e| e.to_string())
    }

    /// Accepts the peer's draw offer: the game is drawn.
    ///
    /// # Errors
    /// No offer waits.
    pub fn accept_draw(&mut self) -> Result<(), String> {
        self.session.accept_draw().map_err(|e| e.to_string())
    }

    /// Declines the peer's draw offer.
    ///
    /// # Errors
    /// No offer waits.
    pub fn decline_draw(&mut self) -> Result<(), String> {
        self.session.decline_draw().map_err(|e| e.to_string())
    }

    /// The draw this player may claim now instead of moving: `threefold` or `fifty-moves`, else `None`.
    pub fn claimable(&self) -> Option<String> {
        self.session.claimable().map(|r| EndReason::name(r).to_string())
    }

    /// Claims the draw [`Online::claimable`] names; returns its name.
    ///
    /// # Errors
    /// No draw to claim now.
    pub fn claim_draw(&mut self) -> Result<String, String> {
        let reason = self.session.claimable().ok_or("no draw to claim: neither threefold repetition nor 50 moves")?;
        self.session.claim_draw(reason).map_err(|e| e.to_string())?;
        Ok(EndReason::name(reason).to_string())
    }

    /// Resigns: the peer wins.
    ///
    /// # Errors
    /// During the handshake, or after the end.
    pub fn resign(&mut self) -> Result<(), String> {
        self.session.resign().map_err(|e| e.to_string())
    }

    /// Stops the match without a result (an Abort is queued if the handshake is done).
    pub fn abort(&mut self) {
        self.session.abort();
    }

    /// The safety number once the handshake has both keys: the first 8 bytes of the transcript hash in
    /// hex (as the `online` example prints it). Both players see the same one; a relay in the middle
    /// would give them different ones.
    pub fn safety_number(&self) -> Option<String> {
        self.session.transcript_hash().map(|th| hex(&th[..8]))
    }

    /// `handshake`, `playing`, `closed` (the game ended) or `aborted` (a frame failed a check).
    pub fn phase(&self) -> String {
        match self.session.phase() {
            Phase::Handshake => "handshake",
            Phase::Playing => "playing",
            Phase::Closed(_) => "closed",
            Phase::Aborted => "aborted",
        }
        .to_string()
    }

    /// What this player should do: `wait`, `move`, `answerDraw` or `done`.
    pub fn action(&self) -> String {
        match self.session.action() {
            Action::Wait => "wait",
            Action::Move => "move",
            Action::AnswerDraw => "answerDraw",
            Action::Done => "done",
        }
        .to_string()
    }

    /// Whether the peer's draw offer waits for this player's answer.
    pub fn draw_offered(&self) -> bool {
        self.session.draw_offered()
    }

    /// JSON array of the move texts played, in order.
    pub fn moves(&self) -> String {
        json!(self.session.moves()).to_string()
    }

    /// The position as FEN (2D; Shredder-FEN castling in Chess960) or TFEN (4D).
    pub fn position(&self) -> String {
        let pos = self.session.position();
        match pos.castling_mode() {
            CastlingMode::Standard => pos.fen(),
            CastlingMode::Chess960 => pos.fen_with(CastlingNotation::Shredder),
        }
    }

    /// JSON `{"score": "1-0" | "0-1" | "1/2-1/2" | "*", "winner": "w" | "b" | null, "reason"}` once the
    /// match is over, else `None`. An aborted match (by a player or a failed frame) has score `*`.
    pub fn result(&self) -> Option<String> {
        self.session.result().map(|r| result_json(r).to_string())
    }

    /// JSON `{"kind", "message"}` of the failure that aborted the match, if one did.
    pub fn failure(&self) -> Option<String> {
        self.session.failure().map(|e| json!({ "kind": e.name(), "message": e.to_string() }).to_string())
    }

    /// The whole session as hex (PROTOCOL.md §11), for [`Online::resume`]. **Secret**: it holds the
    /// match's keys, enough to forge this player's moves in this match.
    ///
    /// # Errors
    /// A match too long to save (over 4 MiB).
    pub fn save_state(&self) -> Result<String, String> {
        let bytes = self.session.save_state().map_err(|e| format!("the match cannot be saved: {e}"))?;
        Ok(hex(&bytes[..]))
    }
}
