//! Fuzz target: a session's `receive` with arbitrary bytes, by a responder waiting for a Hello and by an
//! established session.
//!
//! Checked on every input: nothing panics, and nothing a stranger sends stops the match (protocol
//! version 2): without the peer's keys no frame authenticates, so every one is dropped (or, a Hello with
//! the pinned key, answered), the session stays where it was, and its count of dropped frames goes up by
//! one per dropped frame.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tesseract_board::{Color, start};
use tesseract_wire::{EphemeralKey, Event, IdentityKey, MatchConfig, MatchId, Phase, Session, Zeroizing};

fn keys() -> &'static (IdentityKey, IdentityKey) {
    static KEYS: OnceLock<(IdentityKey, IdentityKey)> = OnceLock::new();
    KEYS.get_or_init(|| (IdentityKey::from_bytes(&[1; 32]).unwrap(), IdentityKey::from_bytes(&[2; 32]).unwrap()))
}

fn config(color: Color) -> MatchConfig {
    let (me, peer) = keys();
    let other = if color == Color::White { peer } else { me };
    MatchConfig::new(MatchId::from_bytes([0; 16]), color, start::chess()).pin_peer(other.identity())
}

/// White's saved state once the handshake with Black is complete (made once, resumed for every input).
fn established() -> &'static Zeroizing<Vec<u8>> {
    static STATE: OnceLock<Zeroizing<Vec<u8>>> = OnceLock::new();
    STATE.get_or_init(|| {
        let (me, peer) = keys();
        let mut w = Session::new(config(Color::White), me, EphemeralKey::from_bytes(&[3; 32]).unwrap()).unwrap();
        let mut b = Session::new(config(Color::Black), peer, EphemeralKey::from_bytes(&[4; 32]).unwrap()).unwrap();
        for _ in 0..3 {
            while let Some(f) = b.poll_transmit() {
                w.receive(&f).unwrap();
            }
            while let Some(f) = w.poll_transmit() {
                b.receive(&f).unwrap();
            }
        }
        assert_eq!(w.phase(), Phase::Playing);
        w.save_state().unwrap()
    })
}

fuzz_target!(|data: &[u8]| {
    let (me, _) = keys();
    let waiting = Session::new(config(Color::White), me, EphemeralKey::from_bytes(&[3; 32]).unwrap()).unwrap();
    let playing = Session::resume(config(Color::White), me, established()).unwrap();
    for mut s in [waiting, playing] {
        let phase = s.phase();
        // The whole input as one frame, then its two halves.
        let (a, b) = data.split_at(data.len() / 2);
        for part in [data, a, b] {
            let before = s.dropped();
            let events = s.receive(part).expect("a stranger's bytes are never an error");
            let dropped = events.iter().filter(|e| matches!(e, Event::Dropped { .. })).count() as u64;
            assert!(events.iter().all(|e| matches!(e, Event::Dropped { .. } | Event::Duplicate)));
            assert_eq!(s.dropped(), before + dropped);
            assert_eq!(s.phase(), phase);
        }
    }
});
