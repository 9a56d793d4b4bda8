//! The handshake part of a session: the long-term and ephemeral keys, the peer's keys, the transcript
//! hash and the derived keys, and the handling of Hello, Reply and Finished (PROTOCOL.md §4).

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
    /// Our ephemeral key, until the handshake uses it (once).
    pub(super) ephemeral: Option<EphemeralKey>,
    /// Our ephemeral public key, kept after the secret is dropped.
    pub(super) ephemeral_public: PublicKey,
    /// The peer, once its keys have arrived.
    pub(super) peer: Option<Peer>,
    /// The transcript hash, once both keys are known.
    pub(super) th: Option<[u8; 32]>,
    /// The derived keys, once both keys are known.
    pub(super) keys: Option<Keys>,
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

    /// The responder takes the initiator's Hello: checks its keys, derives ours, and answers with its Reply
    /// (keys and Finished tag).
    pub(super) fn on_hello(&mut self, k: &KeysField) -> Result<Vec<Event>, Error> {
        let peer = self.check_keys(k)?;
        self.derive(peer, k)?;
        let th = self.handshake.th.unwrap_or_default();
        let tag =
            self.handshake.keys.as_ref().map(|keys| crypto::finished_tag(&keys.finished[self.color.index()], &th));
        let tag = tag.ok_or(Error::Malformed("no keys"))?;
        self.transport.unacked.clear();
        let reply = Frame::Reply(self.keys_field(), Tag::from_bytes(tag)).encode();
        self.transport.queue(reply);
        self.stage = Stage::AwaitFinished;
        Ok(vec![Event::PeerKeys { identity: peer.identity }])
    }

    /// The initiator takes the responder's Reply: checks its keys, derives ours, verifies its Finished tag,
    /// and sends its own Finished. The message chain starts from that tag.
    pub(super) fn on_reply(&mut self, k: &KeysField, tag: &Tag) -> Result<Vec<Event>, Error> {
        let peer = self.check_keys(k)?;
        self.derive(peer, k)?;
        let th = self.handshake.th.unwrap_or_default();
        let keys = self.handshake.keys.as_ref().ok_or(Error::Malformed("no keys"))?;
        if !crypto::verify_finished(&keys.finished[self.color.other().index()], &th, tag.as_bytes()) {
            return Err(Error::Authentication(Kind::Reply.name()));
        }
        let mine = crypto::finished_tag(&keys.finished[self.color.index()], &th);
        self.transport.unacked.clear();
        self.transport.queue(Frame::Finished { tag: Tag::from_bytes(mine) }.encode());
        self.chain.prev = mine;
        self.stage = Stage::Playing;
        Ok(vec![Event::PeerKeys { identity: peer.identity }, Event::Established { peer: peer.identity }])
    }

    /// The responder takes the initiator's Finished: verifies it; the message chain starts from its tag.
    pub(super) fn on_finished(&mut self, tag: &Tag) -> Result<Vec<Event>, Error> {
        let th = self.handshake.th.unwrap_or_default();
        let keys = self.handshake.keys.as_ref().ok_or(Error::Malformed("no keys"))?;
        if !crypto::verify_finished(&keys.finished[self.color.other().index()], &th, tag.as_bytes()) {
            return Err(Error::Authentication(Kind::Finished.name()));
        }
        self.chain.prev = *tag.as_bytes();
        self.transport.unacked.clear();
        self.stage = Stage::Playing;
        let peer = self.handshake.peer.map(|p| p.identity).ok_or(Error::Malformed("no peer"))?;
        let mut events = vec![Event::Established { peer }];
        // A start position that is already over: we, the side to move, say so at once.
        events.extend(self.confirm_end()?);
        Ok(events)
    }

    /// Checks the keys of a Hello or Reply: our match, the peer's color, strict public keys that are not
    /// ours, and the pinned identity.
    fn check_keys(&self, k: &KeysField) -> Result<Peer, Error> {
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
        Ok(Peer { identity, static_key })
    }

    /// Transcript hash and keys from the peer's keys (PROTOCOL.md §4).
    fn derive(&mut self, peer: Peer, k: &KeysField) -> Result<(), Error> {
        let peer_ephemeral =
            PublicKey::from_sec1(&k.ephemeral_key).map_err(|source| Error::BadKey { which: "ephemeral", source })?;
        let my_static = self.handshake.me.public_key();
        let (statics, ephemerals) = match self.color {
            Color::White => ([&my_static, &peer.static_key], [&self.handshake.ephemeral_public, &peer_ephemeral]),
            Color::Black => ([&peer.static_key, &my_static], [&peer_ephemeral, &self.handshake.ephemeral_public]),
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
        // The ephemeral secret is used here once and dropped.
        let eph = self.handshake.ephemeral.take().ok_or(Error::Malformed("ephemeral key already used"))?;
        let (ee, es, se) = match self.color {
            // es = white ephemeral × black static; se = white static × black ephemeral.
            Color::White => (
                crypto::dh(eph.secret(), &peer_ephemeral),
                crypto::dh(eph.secret(), &peer.static_key),
                crypto::dh(self.handshake.me.secret(), &peer_ephemeral),
            ),
            Color::Black => (
                crypto::dh(eph.secret(), &peer_ephemeral),
                crypto::dh(self.handshake.me.secret(), &peer_ephemeral),
                crypto::dh(eph.secret(), &peer.static_key),
            ),
        };
        let keys = crypto::schedule(&th, &ee, &es, &se, self.handshake.invitation.as_ref().map(|s| s.as_bytes()));
        self.handshake.th = Some(th);
        self.handshake.keys = Some(keys);
        self.handshake.peer = Some(peer);
        Ok(())
    }
}
