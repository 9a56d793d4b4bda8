//! Fuzz target: a session's `receive` with arbitrary bytes, before and after the handshake.
//!
//! Checked on every input: nothing panics; a session that refuses a frame is aborted and refuses
//! everything after.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tesseract_board::{Color, start};
use tesseract_wire::{EphemeralKey, IdentityKey, MatchConfig, MatchId, Phase, Session};

fn keys() -> &'static (IdentityKey, IdentityKey) {
    static KEYS: OnceLock<(IdentityKey, IdentityKey)> = OnceLock::new();
    KEYS.get_or_init(|| (IdentityKey::from_bytes(&[1; 32]).unwrap(), IdentityKey::from_bytes(&[2; 32]).unwrap()))
}

fuzz_target!(|data: &[u8]| {
    let (me, peer) = keys();
    let config = MatchConfig::new(MatchId::from_bytes([0; 16]), Color::White, start::chess()).pin_peer(peer.identity());
    let mut s = Session::new(config, me, EphemeralKey::from_bytes(&[3; 32]).unwrap()).unwrap();
    // The whole input as one frame, then its two halves.
    let (a, b) = data.split_at(data.len() / 2);
    for part in [data, a, b] {
        if s.receive(part).is_err() {
            assert_eq!(s.phase(), Phase::Aborted);
            assert!(s.receive(part).is_err());
        }
    }
});
