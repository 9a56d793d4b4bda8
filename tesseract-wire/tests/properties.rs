//! Properties: the decoder and the session never panic on arbitrary bytes; the encoding is canonical;
//! whole matches through a misbehaving relay never end with the two boards silently disagreeing.

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use tesseract_board::{Color, Position, start};
use tesseract_wire::testkit::{AutoPlayer, DuelReport, Fault, Faults, FaultyRelay, SeededMover, duel};
use tesseract_wire::{EphemeralKey, Event, Frame, IdentityKey, MatchConfig, MatchId, Phase, Session};

fn key(n: u64) -> IdentityKey {
    IdentityKey::generate(&mut ChaCha20Rng::seed_from_u64(n))
}

fn eph(n: u64) -> EphemeralKey {
    EphemeralKey::generate(&mut ChaCha20Rng::seed_from_u64(7_000 + n))
}

fn pair(start: &Position, seed: u64) -> (Session, Session) {
    let (a, b) = (key(1), key(2));
    let id = MatchId::from_bytes([seed as u8; 16]);
    let w = Session::new(MatchConfig::new(id, Color::White, start.clone()).pin_peer(b.identity()), &a, eph(2 * seed))
        .unwrap();
    let bl =
        Session::new(MatchConfig::new(id, Color::Black, start.clone()).pin_peer(a.identity()), &b, eph(2 * seed + 1))
            .unwrap();
    (w, bl)
}

fn established(start: &Position) -> (Session, Session) {
    let (mut w, mut b) = pair(start, 0);
    loop {
        let fb: Vec<_> = std::iter::from_fn(|| b.poll_transmit()).collect();
        let fw: Vec<_> = std::iter::from_fn(|| w.poll_transmit()).collect();
        if fb.is_empty() && fw.is_empty() {
            return (w, b);
        }
        fb.iter().for_each(|f| drop(w.receive(f).unwrap()));
        fw.iter().for_each(|f| drop(b.receive(f).unwrap()));
    }
}

/// Bytes that look like a frame often enough to get past the first checks.
fn frame_like() -> impl Strategy<Value = Vec<u8>> {
    let kind = prop::sample::select(vec![0x01u8, 0x02, 0x03, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x00, 0xff]);
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        (kind, prop::collection::vec(any::<u8>(), 0..260)).prop_map(|(k, rest)| {
            let mut v = b"TW\x02".to_vec();
            v.push(k);
            v.extend(rest);
            v
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn decoder_never_panics_and_is_canonical(bytes in frame_like()) {
        if let Ok(frame) = Frame::decode(&bytes) {
            // One encoding per frame: what decodes re-encodes to the same bytes.
            prop_assert_eq!(frame.encode(), bytes);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn sessions_never_panic_on_arbitrary_frames(frames in prop::collection::vec(frame_like(), 1..4), playing in any::<bool>()) {
        let (mut w, mut b) = if playing { established(&start::chess()) } else { pair(&start::chess(), 0) };
        let phases = (w.phase(), b.phase());
        for f in &frames {
            // Without the players' keys no frame authenticates: each is dropped (or, a Hello, answered).
            for s in [&mut w, &mut b] {
                let events = s.receive(f).unwrap();
                let harmless = events.iter().all(|e| matches!(e, Event::Dropped { .. } | Event::Duplicate));
                prop_assert!(harmless, "{:?}", events);
            }
        }
        // Nothing a stranger sends stops the match.
        prop_assert_eq!((w.phase(), b.phase()), phases);
        prop_assert!(w.failure().is_none() && b.failure().is_none());
    }

    #[test]
    fn mutated_genuine_frames_never_panic(at in 0usize..200, bit in 0u8..8, cut in 0usize..200) {
        let (mut w, mut b) = established(&start::chess());
        w.play_text("e2e4").unwrap();
        let mut f = w.poll_transmit().unwrap();
        let i = at % f.len();
        f[i] ^= 1 << bit;
        f.truncate(f.len() - cut % 4);
        // A damaged frame is dropped and counted; the genuine one still goes through.
        let events = b.receive(&f).unwrap();
        let was_dropped = matches!(events[..], [Event::Dropped { .. }]);
        prop_assert!(was_dropped, "{:?}", events);
        prop_assert_eq!((b.phase(), b.dropped()), (Phase::Playing, 1));
        w.retransmit();
        let genuine = w.poll_transmit().unwrap();
        let moved = matches!(b.receive(&genuine).unwrap()[..], [Event::Moved { .. }]);
        prop_assert!(moved, "the genuine move after the damaged copy");
    }
}

fn run(start: &Position, seed: u64, faults: Faults, cap: u32) -> DuelReport {
    let (w, b) = pair(start, seed);
    let mut relay = FaultyRelay::new(seed, faults);
    let mut wp = AutoPlayer::new(SeededMover::new(seed), cap);
    let mut bp = AutoPlayer::new(SeededMover::new(seed + 1000), cap);
    duel(w, b, &mut wp, &mut bp, &mut relay, 20_000)
}

/// Drops and duplicates are harmless: every match completes, and both sides end with the same position.
#[test]
fn lossy_relay_is_harmless() {
    for seed in 0..12 {
        let start = if seed % 2 == 0 { start::chess() } else { start::tesseract(start::Army::Standard) };
        let r = run(&start, seed, Faults::LOSSY, 40);
        assert!(r.completed(), "seed {seed}: {:?} / {:?}\n{:?}", r.white.failure, r.black.failure, r.log);
        assert!(r.consistent(), "seed {seed}");
        assert_eq!(r.white.hash, r.black.hash);
        assert_eq!(r.white.result, r.black.result);
        assert!(r.faults.iter().any(|(_, f)| *f == Fault::Dropped), "seed {seed}: the relay dropped nothing");
    }
}

/// Every kind of fault together, damaged and injected frames among them: nothing a relay sends can stop a
/// match (protocol version 2). Every frame that does not authenticate is dropped and counted, the
/// retransmissions heal the rest, and every match completes with both boards equal.
#[test]
fn every_fault_is_harmless() {
    let faults = Faults { drop: 100, duplicate: 100, reorder: 100, corrupt: 30, inject: 30 };
    let mut dropped = 0;
    for seed in 0..40 {
        let start = if seed % 2 == 0 { start::chess() } else { start::tesseract(start::Army::Standard) };
        let r = run(&start, seed, faults, 30);
        assert!(r.consistent(), "seed {seed}: silent disagreement\n{:#?}", r.log);
        assert!(
            r.completed() && !r.detected(),
            "seed {seed}: {:?} {:?}\n{:#?}",
            r.white.failure,
            r.black.failure,
            r.log
        );
        assert_eq!((r.white.hash, r.white.result), (r.black.hash, r.black.result), "seed {seed}");
        dropped += r.white.dropped + r.black.dropped;
    }
    assert!(dropped > 40, "the relay's damaged and injected frames were dropped: {dropped}");
}

/// A perfect relay: a full game to its end (mate, stalemate, dead draw, claim, or the cap's agreed draw).
#[test]
fn perfect_relay_full_game() {
    for (seed, start) in [(1, start::chess()), (2, start::tesseract(start::Army::Standard))] {
        let r = run(&start, seed, Faults::NONE, 300);
        assert!(r.completed() && r.consistent() && !r.detected());
        assert_eq!((r.white.hash, &r.white.fen, r.white.result), (r.black.hash, &r.black.fen, r.black.result));
    }
}
