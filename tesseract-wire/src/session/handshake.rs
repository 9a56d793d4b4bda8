//! The handshake part of a session: the long-term and ephemeral keys, the peer's keys, the transcript
//! hash and the derived keys, and the handling of Hello, Reply and Finished (PROTOCOL.md §4).
//!
//! Nothing a stranger sends can stop a handshake (PROTOCOL.md §4.5): a Hello carries no proof, so the
//! responder answers every well-formed Hello with a Reply and keeps it as a [`Candidate`] (the last
//! [`MAX_CANDIDATES`]) until a Finished tag proves which Hello was the peer's; the initiator keeps its
//! ephemeral secret until a Reply's tag verifies, and drops every Reply that does not.

use tesseract_board::Color;

use super::{Event, Session, Stage};
use crate::Error;
use crate::crypto::{self, Keys, Transcript};
use crate::frame::{Frame, KeysField, Kind, Tag};
use crate::keys::{EphemeralKey, Identity, IdentityKey, InvitationSecret, PublicKey};

use super::chain::color_byte;

/// The handshake's state: what the keys are derived from, and the keys.
pub(super) struct Handshake {
    /// Whether this side opens the handshake (the side that does not move first).
    pub(super) initiator: bool,
    /// The start position's text, bound into the transcript.
    pub(super) start_fen: String,
    /// Whether the start is a Chess960 position (bound into the transcript).
    pub(super) chess960: bool,
    /// The peer's pinned identity.
    pub(super) pinned: Option<Identity>,
    /// The invitation secret, mixed into the keys.
    pub(super) invitation: Option<InvitationSecret>,
    /// Our long-term key.
    pub(super) me: IdentityKey,
    /// Our ephemeral key, until the handshake is complete (it is used for one match only, but may serve
    /// several candidate Hellos of that match, at most one of them the peer's).
    pub(super) ephemeral: Option<EphemeralKey>,
    /// Our ephemeral public key, kept after the secret is dropped.
    pub(super) ephemeral_public: PublicKey,
    /// The peer, once its keys have arrived.
    pub(super) peer: Option<Peer>,
    /// The transcript hash, once both keys are known.
    pub(super) th: Option<[u8; 32]>,
    /// The derived keys, once both keys are known.
    pub(super) keys: Option<Keys>,
    /// The responder's answered Hellos, oldest first, while it waits for a Finished that proves one.
    pub(super) candidates: Vec<Candidate>,
}

/// The most Hellos a responder keeps answered at once: a stranger flooding Hellos pushes out the oldest,
/// and the peer's own Hello, sent again after a silence, comes back in.
pub(crate) const MAX_CANDIDATES: usize = 16;

/// A Hello the responder answered: its bytes, the keys it leads to, and the Reply sent for it.
pub(super) struct Candidate {
    /// The Hello, byte for byte.
    pub(super) hello: Vec<u8>,
    /// Its sender's long-term key.
    pub(super) peer: Peer,
    /// The transcript hash with its keys.
    pub(super) th: [u8; 32],
    /// The keys derived with it.
    pub(super) keys: Keys,
    /// Our Reply to it.
    pub(super) reply: Vec<u8>,
}

/// The peer's long-term key and the identity it hashes to.
#[derive(Copy, Clone, Debug)]
pub(super) struct Peer {
    /// The peer's identity.
    pub(super) identity: Identity,
    /// The peer's static public key.
    pub(super) static_key: PublicKey,
}

impl Session {
    /// Our keys as a Hello or Reply carries them.
    pub(super) fn keys_field(&self) -> KeysField {
        KeysField {
            match_id: *self.match_id.as_bytes(),
            color: color_byte(self.color),
            static_key: *self.handshake.me.public_key().as_bytes(),
            ephemeral_key: *self.handshake.ephemeral_public.as_bytes(),
        }
    }

    /// The responder takes a Hello (`bytes` as it came): a copy of one it answered has that Reply sent
    /// again; a new one whose keys pass the checks becomes a candidate, answered with a Reply (our keys
    /// and Finished tag). Nothing proves a Hello, so nothing else changes until a Finished verifies. A
    /// candidate pushed out by newer ones (at most [`MAX_CANDIDATES`] are kept) was never proven: it counts
    /// as a dropped frame ([`Event::Dropped`]), so that a flood of Hellos is noticed.
    ///
    /// # Errors
    /// The check the Hello failed ([`Session::check_keys`]): the frame is dropped.
    pub(super) fn on_hello(&mut self, k: &KeysField, bytes: &[u8]) -> Result<Vec<Event>, Error> {
        let candidates = &mut self.handshake.candidates;
        if let Some(i) = candidates.iter().position(|c| c.hello == bytes) {
            // The initiator sent its Hello again: our Reply was lost. It becomes the newest candidate.
            let c = candidates.remove(i);
            let reply = c.reply.clone();
            candidates.push(c);
            self.transport.unacked.clear();
            self.transport.queue(reply);
            return Ok(vec![Event::Duplicate]);
        }
        let candidate = self.candidate(k, bytes.to_vec())?;
        self.transport.unacked.clear();
        self.transport.queue(candidate.reply.clone());
        let mut events = Vec::new();
        if self.handshake.candidates.len() == MAX_CANDIDATES {
            self.handshake.candidates.remove(0);
            events.extend(self.unproven(1));
        }
        self.handshake.candidates.push(candidate);
        self.stage = Stage::AwaitFinished;
        Ok(events)
    }

    /// Counts `n` candidate Hellos that no Finished proved (pushed out, or left when another was proven)
    /// as dropped frames.
    fn unproven(&mut self, n: usize) -> Vec<Event> {
        self.transport.dropped += n as u64;
        let error = Error::unexpected(Kind::Hello, "a Hello that no Finished proved");
        vec![Event::Dropped { error }; n]
    }

    /// A Hello's candidate: its keys checked, the keys derived with it, and our Reply to it.
    pub(super) fn candidate(&self, k: &KeysField, hello: Vec<u8>) -> Result<Candidate, Error> {
        let (peer, peer_ephemeral) = self.check_keys(k)?;
        let (th, keys) = self.derive(&peer, &peer_ephemeral)?;
        let tag = crypto::finished_tag(&keys.finished[self.color.index()], &th);
        let reply = Frame::Reply(self.keys_field(), Tag::from_bytes(tag)).encode();
        Ok(Candidate { hello, peer, th, keys, reply })
    }

    /// The initiator takes the responder's Reply: checks its keys, derives ours, verifies its Finished tag,
    /// and sends its own Finished. The message chain starts from that tag.
    ///
    /// # Errors
    /// The check the Reply failed: the frame is dropped and nothing changes (the ephemeral secret is kept
    /// for the peer's own Reply).
    pub(super) fn on_reply(&mut self, k: &KeysField, tag: &Tag) -> Result<Vec<Event>, Error> {
        let (peer, peer_ephemeral) = self.check_keys(k)?;
        let (th, keys) = self.derive(&peer, &peer_ephemeral)?;
        if !crypto::verify_finished(&keys.finished[self.color.other().index()], &th, tag.as_bytes()) {
            return Err(Error::Authentication(Kind::Reply.name()));
        }
        let mine = crypto::finished_tag(&keys.finished[self.color.index()], &th);
        self.establish(peer, th, keys);
        // Our Hello stays unacknowledged with the Finished until the responder's first message: a stranger
        // may have flooded it with Hellos until it forgot ours, and the two sent again bring it back.
        self.transport.unacked.push(Frame::Hello(self.keys_field()).encode());
        self.transport.queue(Frame::Finished { tag: Tag::from_bytes(mine) }.encode());
        self.chain.prev = mine;
        Ok(vec![Event::PeerKeys { identity: peer.identity }, Event::Established { peer: peer.identity }])
    }

    /// The responder takes a Finished: the candidate whose keys verify its tag is the peer's Hello; the
    /// message chain starts from the tag.
    ///
    /// # Errors
    /// [`Error::Authentication`] when no candidate's keys verify the tag: the frame is dropped.
    pub(super) fn on_finished(&mut self, tag: &Tag) -> Result<Vec<Event>, Error> {
        let peer = self.color.other().index();
        // Every candidate is tried (in constant time each): at most one holds the peer's keys.
        let proven = self
            .handshake
            .candidates
            .iter()
            .position(|c| crypto::verify_finished(&c.keys.finished[peer], &c.th, tag.as_bytes()))
            .ok_or(Error::Authentication(Kind::Finished.name()))?;
        let c = self.handshake.candidates.swap_remove(proven);
        let mut events = self.unproven(self.handshake.candidates.len());
        self.transport.remember(c.hello);
        self.establish(c.peer, c.th, c.keys);
        self.chain.prev = *tag.as_bytes();
        events.extend([Event::PeerKeys { identity: c.peer.identity }, Event::Established { peer: c.peer.identity }]);
        Ok(events)
    }

    /// The handshake is complete with `peer`: its keys are the session's, the ephemeral secret and the
    /// other candidates are dropped, our handshake frames are acknowledged.
    fn establish(&mut self, peer: Peer, th: [u8; 32], keys: Keys) {
        let h = &mut self.handshake;
        (h.peer, h.th, h.keys, h.ephemeral) = (Some(peer), Some(th), Some(keys), None);
        h.candidates.clear();
        self.transport.unacked.clear();
        self.stage = Stage::Playing;
    }

    /// Checks the keys of a Hello or Reply: our match, the peer's color, strict public keys that are not
    /// ours, and the pinned identity. Returns the peer and its ephemeral key, decoded once.
    fn check_keys(&self, k: &KeysField) -> Result<(Peer, PublicKey), Error> {
        if k.match_id != *self.match_id.as_bytes() {
            return Err(Error::WrongMatch);
        }
        if k.color != color_byte(self.color.other()) {
            return Err(Error::Reflection("the frame claims our own color"));
        }
        let static_key =
            PublicKey::from_sec1(&k.static_key).map_err(|source| Error::BadKey { which: "static", source })?;
        let ephemeral =
            PublicKey::from_sec1(&k.ephemeral_key).map_err(|source| Error::BadKey { which: "ephemeral", source })?;
        if static_key == self.handshake.me.public_key() || ephemeral == self.handshake.ephemeral_public {
            return Err(Error::Reflection("our own key came back"));
        }
        let identity = static_key.identity();
        if let Some(expected) = self.handshake.pinned {
            if expected != identity {
                return Err(Error::IdentityMismatch { expected, found: identity });
            }
        }
        Ok((Peer { identity, static_key }, ephemeral))
    }

    /// Transcript hash and keys with the peer's keys (PROTOCOL.md §4), from our ephemeral secret, which
    /// stays until the handshake is complete.
    fn derive(&self, peer: &Peer, peer_ephemeral: &PublicKey) -> Result<([u8; 32], Keys), Error> {
        let my_static = self.handshake.me.public_key();
        let (statics, ephemerals) = match self.color {
            Color::White => ([&my_static, &peer.static_key], [&self.handshake.ephemeral_public, peer_ephemeral]),
            Color::Black => ([&peer.static_key, &my_static], [peer_ephemeral, &self.handshake.ephemeral_public]),
        };
        let th = Transcript {
            match_id: self.match_id.as_bytes(),
            chess960: self.handshake.chess960,
            start_fen: &self.handshake.start_fen,
            invitation: self.handshake.invitation.is_some(),
            statics,
            ephemerals,
        }
        .hash();
        let eph = self.handshake.ephemeral.as_ref().ok_or(Error::NotNow("the handshake is complete"))?;
        let (ee, es, se) = match self.color {
            // es = white ephemeral × black static; se = white static × black ephemeral.
            Color::White => (
                crypto::dh(eph.secret(), peer_ephemeral),
                crypto::dh(eph.secret(), &peer.static_key),
                crypto::dh(self.handshake.me.secret(), peer_ephemeral),
            ),
            Color::Black => (
                crypto::dh(eph.secret(), peer_ephemeral),
                crypto::dh(self.handshake.me.secret(), peer_ephemeral),
                crypto::dh(eph.secret(), &peer.static_key),
            ),
        };
        let keys = crypto::schedule(&th, &ee, &es, &se, self.handshake.invitation.as_ref().map(|s| s.as_bytes()));
        Ok((th, keys))
    }
}
