//! Fuzz target: a session's `receive` with arbitrary bytes.
//!
//! Checked on every input: nothing panics, and nothing a stranger sends stops the match (protocol
//! version 2): without the peer's keys no frame authenticates, so every one is dropped (or, a Hello with
//! the pinned key, answered), the session stays in its handshake, and its count of dropped frames goes up
//! by one per dropped frame.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tesseract_board::{Color, start};
use tesseract_wire::{EphemeralKey, Event, IdentityKey, MatchConfig, MatchId, Phase, Session};

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
        let before = s.dropped();
        let events = s.receive(part).expect("a stranger's bytes are never an error");
        let dropped = events.iter().filter(|e| matches!(e, Event::Dropped { .. })).count() as u64;
        assert!(events.iter().all(|e| matches!(e, Event::Dropped { .. } | Event::Duplicate)));
        assert_eq!(s.dropped(), before + dropped);
        assert_eq!(s.phase(), Phase::Handshake);
    }
});
