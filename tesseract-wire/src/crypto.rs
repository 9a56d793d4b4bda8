//! The handshake's and the messages' cryptography: transcript hash, Diffie-Hellman mix, HKDF key
//! schedule, Finished tags and message tags (PROTOCOL.md §4 and §6). No state, no I/O: the session calls
//! these.

use hkdf::Hkdf;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::frame::{MacInput, TAG_LEN, VERSION};
use crate::keys::PublicKey;
use crate::labels::{self, INFO_FINISHED, INFO_MESSAGE};

type HmacSha256 = Hmac<Sha256>;

/// The public inputs of the transcript hash, ordered by color (White first).
pub(crate) struct Transcript<'a> {
    pub match_id: &'a [u8; 16],
    pub chess960: bool,
    pub start_fen: &'a str,
    pub invitation: bool,
    pub statics: [&'a PublicKey; 2],
    pub ephemerals: [&'a PublicKey; 2],
}

impl Transcript<'_> {
    /// SHA-256 over the transcript (PROTOCOL.md §4.1).
    pub fn hash(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update([labels::TRANSCRIPT.len() as u8]);
        h.update(labels::TRANSCRIPT);
        h.update([VERSION]);
        h.update(self.match_id);
        h.update([u8::from(self.chess960)]);
        // A FEN longer than 65,535 bytes cannot be a valid position of a supported shape; clamp anyway so
        // the length field can never wrap (the session refuses such a start before it gets here).
        let fen = &self.start_fen.as_bytes()[..self.start_fen.len().min(u16::MAX as usize)];
        h.update((fen.len() as u16).to_be_bytes());
        h.update(fen);
        h.update([u8::from(self.invitation)]);
        for key in self.statics {
            h.update(key.identity().as_bytes());
        }
        for key in self.statics.iter().chain(&self.ephemerals) {
            h.update(key.as_bytes());
        }
        h.finalize().into()
    }
}

/// The four keys of a match (PROTOCOL.md §4.3), wiped on drop.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Keys {
    /// Finished keys, by color.
    pub finished: [[u8; 32]; 2],
    /// Message keys, by sending color.
    pub message: [[u8; 32]; 2],
}

/// The x-coordinate of `secret · public`, 32 bytes.
pub(crate) fn dh(secret: &p256::SecretKey, public: &PublicKey) -> Zeroizing<[u8; 32]> {
    let shared = p256::ecdh::diffie_hellman(secret.to_nonzero_scalar(), public.point().as_affine());
    let mut out = Zeroizing::new([0; 32]);
    out.copy_from_slice(shared.raw_secret_bytes());
    out
}

/// HKDF-SHA256 with the transcript hash as salt over `ee ‖ es ‖ se [‖ invitation]`.
pub(crate) fn schedule(
    th: &[u8; 32],
    ee: &[u8; 32],
    es: &[u8; 32],
    se: &[u8; 32],
    invitation: Option<&[u8; 32]>,
) -> Keys {
    let mut ikm = Zeroizing::new(Vec::with_capacity(128));
    ikm.extend_from_slice(ee);
    ikm.extend_from_slice(es);
    ikm.extend_from_slice(se);
    if let Some(s) = invitation {
        ikm.extend_from_slice(s);
    }
    let hk = Hkdf::<Sha256>::new(Some(th), &ikm);
    let mut keys = Keys { finished: [[0; 32]; 2], message: [[0; 32]; 2] };
    for c in 0..2 {
        // 32 bytes are always a valid HKDF-SHA256 output length (at most 255·32).
        let _ = hk.expand(INFO_FINISHED[c], &mut keys.finished[c]);
        let _ = hk.expand(INFO_MESSAGE[c], &mut keys.message[c]);
    }
    keys
}

fn mac(key: &[u8; 32]) -> HmacSha256 {
    // HMAC accepts keys of any length.
    <HmacSha256 as KeyInit>::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"))
}

/// The bytes a Finished tag covers: label and transcript hash.
fn finished_input(th: &[u8; 32]) -> Vec<u8> {
    let mut v = Vec::with_capacity(1 + labels::FINISHED.len() + 32);
    v.push(labels::FINISHED.len() as u8);
    v.extend_from_slice(labels::FINISHED);
    v.extend_from_slice(th);
    v
}

/// HMAC-SHA256(key, bytes).
pub(crate) fn tag(key: &[u8; 32], bytes: &[u8]) -> [u8; TAG_LEN] {
    mac(key).chain_update(bytes).finalize().into_bytes().into()
}

/// Constant-time check of `tag` against HMAC-SHA256(key, bytes), through the MAC's own verification.
pub(crate) fn verify(key: &[u8; 32], bytes: &[u8], tag: &[u8]) -> bool {
    mac(key).chain_update(bytes).verify_slice(tag).is_ok()
}

/// The Finished tag of the side holding `key`.
pub(crate) fn finished_tag(key: &[u8; 32], th: &[u8; 32]) -> [u8; TAG_LEN] {
    tag(key, &finished_input(th))
}

/// Constant-time check of a Finished tag.
pub(crate) fn verify_finished(key: &[u8; 32], th: &[u8; 32], t: &[u8]) -> bool {
    verify(key, &finished_input(th), t)
}

/// The tag of a message.
pub(crate) fn message_tag(key: &[u8; 32], input: &MacInput) -> [u8; TAG_LEN] {
    tag(key, &input.encode())
}

/// Constant-time check of a message tag.
pub(crate) fn verify_message(key: &[u8; 32], input: &MacInput, t: &[u8]) -> bool {
    verify(key, &input.encode(), t)
}
