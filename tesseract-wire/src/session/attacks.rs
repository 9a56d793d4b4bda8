//! The threat model: 25 attacks by a relay (or a misbehaving peer), each a test that fails if its defence
//! is removed. They live inside the crate because a few need to forge frames with a real key (what a
//! compromised or buggy peer could send) or to set a counter near its end.

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use tesseract_board::{Color, Position, start};
use tesseract_movegen::Legal;

use super::Stage;
use super::handshake::MAX_CANDIDATES;
use crate::crypto;
use crate::frame::{Frame, MacInput, MessageFrame};
use crate::*;

// ----- helpers -----

fn key(n: u64) -> IdentityKey {
    IdentityKey::generate(&mut ChaCha20Rng::seed_from_u64(n))
}

fn eph(n: u64) -> EphemeralKey {
    EphemeralKey::generate(&mut ChaCha20Rng::seed_from_u64(1_000_000 + n))
}

const MATCH: MatchId = MatchId::from_bytes([0x42; 16]);

fn alice() -> IdentityKey {
    key(1)
}
fn bob() -> IdentityKey {
    key(2)
}
fn carol() -> IdentityKey {
    key(3)
}

fn session(me: &IdentityKey, peer: Identity, color: Color, start: Position, match_id: MatchId, seed: u64) -> Session {
    Session::new(MatchConfig::new(match_id, color, start).pin_peer(peer), me, eph(seed)).expect("config")
}

/// Alice plays White, Bob Black, each pinning the other; `seed` picks the ephemeral keys.
fn pair_in(start: Position, match_id: MatchId, seed: u64) -> (Session, Session) {
    let w = session(&alice(), bob().identity(), Color::White, start.clone(), match_id, 2 * seed);
    let b = session(&bob(), alice().identity(), Color::Black, start, match_id, 2 * seed + 1);
    (w, b)
}

fn pair(start: Position) -> (Session, Session) {
    pair_in(start, MATCH, 0)
}

fn drain(s: &mut Session) -> Vec<Vec<u8>> {
    std::iter::from_fn(|| s.poll_transmit()).collect()
}

/// Hands every queued frame across until both are quiet; panics on any refusal.
fn pump(a: &mut Session, b: &mut Session) -> Vec<Event> {
    let mut events = Vec::new();
    loop {
        let fa = drain(a);
        let fb = drain(b);
        if fa.is_empty() && fb.is_empty() {
            return events;
        }
        for f in fa {
            events.extend(b.receive(&f).expect("b accepts"));
        }
        for f in fb {
            events.extend(a.receive(&f).expect("a accepts"));
        }
    }
}

fn established_in(start: Position, match_id: MatchId, seed: u64) -> (Session, Session) {
    let (mut w, mut b) = pair_in(start, match_id, seed);
    pump(&mut b, &mut w);
    assert_eq!(w.phase(), Phase::Playing);
    assert_eq!(b.phase(), Phase::Playing);
    (w, b)
}

fn established(start: Position) -> (Session, Session) {
    established_in(start, MATCH, 0)
}

fn tesseract() -> Position {
    start::tesseract(start::Army::Standard)
}

/// A message sealed with `s`'s own key at any chain state: what only the holder of the key can make.
fn seal(s: &Session, kind: Kind, text: &str, seq: u32, ply: u32, hash: u64, prev: [u8; 32]) -> Vec<u8> {
    let text = Text::new(text).expect("printable text");
    let input = MacInput {
        version: VERSION,
        kind,
        match_id: *s.match_id.as_bytes(),
        sender: *s.identity().as_bytes(),
        color: s.color.index() as u8,
        seq,
        ply,
        hash,
        text,
        prev,
    };
    let keys = s.handshake.keys.as_ref().expect("keys");
    let tag = crypto::message_tag(&keys.message[s.color.index()], &input);
    Frame::Message(MessageFrame { kind, seq, ply, hash, text, tag: Tag::from_bytes(tag) }).encode()
}

/// A message sealed by `s` in its current state, as if it sent it next (without changing `s`).
fn seal_next(s: &Session, kind: Kind, text: &str, hash: u64) -> Vec<u8> {
    seal(s, kind, text, s.chain.seq, s.game.ply, hash, s.chain.prev)
}

fn assert_aborted(s: &Session) {
    assert_eq!(s.phase(), Phase::Aborted, "the session must fail closed");
}

/// Hands `bytes` to `s`, which must drop it: nothing changes but the count of dropped frames, nothing is
/// sent. Returns why it was dropped.
fn dropped(s: &mut Session, bytes: &[u8]) -> Error {
    let state = |s: &Session| {
        let h = s.handshake.candidates.iter().map(|c| c.hello.clone()).collect::<Vec<_>>();
        (s.phase(), s.ply(), s.chain.seq, s.chain.prev, s.position().hash(), s.transport.unacked.clone(), h)
    };
    let (before, count, queued) = (state(s), s.dropped(), s.transport.outbox.len());
    let events = s.receive(bytes).expect("a frame that does not authenticate is dropped, not an error");
    let [Event::Dropped { error }] = &events[..] else { panic!("expected the frame to be dropped, got {events:?}") };
    assert!(state(s) == before, "a dropped frame changed the session");
    assert_eq!((s.dropped(), s.transport.outbox.len()), (count + 1, queued), "counted, and nothing sent");
    error.clone()
}

/// The Finished frame with tag `t`.
fn finished(t: [u8; 32]) -> Vec<u8> {
    Frame::Finished { tag: Tag::from_bytes(t) }.encode()
}

/// The Finished tag the initiator `s` would send after the responder's `reply`, computed with its own
/// keys whatever they are (a man in the middle's best try).
fn finished_after(s: &Session, reply: &[u8]) -> [u8; 32] {
    let Ok(Frame::Reply(k, _)) = Frame::decode(reply) else { panic!("not a reply") };
    let c = s.candidate(&k, Vec::new()).expect("keys that pass the checks");
    crypto::finished_tag(&c.keys.finished[s.color.index()], &c.th)
}

fn message(bytes: &[u8]) -> MessageFrame {
    match Frame::decode(bytes).expect("a frame") {
        Frame::Message(m) => m,
        f => panic!("not a message: {f:?}"),
    }
}

fn with_keys(bytes: &[u8], f: impl FnOnce(&mut KeysField)) -> Vec<u8> {
    let mut frame = Frame::decode(bytes).expect("a frame");
    match &mut frame {
        Frame::Hello(k) | Frame::Reply(k, _) => f(k),
        _ => panic!("no keys"),
    }
    frame.encode()
}

// ----- the 25 attacks -----
//
// Since protocol version 2 a frame that does not authenticate as the peer's next frame is dropped and
// counted, never fatal (PROTOCOL.md §7): each attack by the relay or a stranger asserts "dropped, and the
// match goes on"; only an authenticated violation (attacks 16 to 18, 21, 22's false claims) aborts.

/// 1. The relay runs its own handshakes with both players (its own keys in the middle).
#[test]
fn attack_01_mitm_key_substitution_by_relay() {
    let mallory = key(66);
    // Mallory pretends to be Black towards Alice and White towards Bob, with her own long-term key.
    let (mut w, mut b) = pair(tesseract());
    let mut m_as_black = session(&mallory, alice().identity(), Color::Black, tesseract(), MATCH, 90);
    let mut m_as_white = session(&mallory, bob().identity(), Color::White, tesseract(), MATCH, 91);
    let bob_hello = drain(&mut b).remove(0);
    let mallory_hello = drain(&mut m_as_black).remove(0);
    // Bob's Hello goes to Mallory; Mallory answers Bob with her own keys.
    m_as_white.receive(&bob_hello).expect("Mallory reads Bob's hello");
    let mallory_reply = drain(&mut m_as_white).remove(0);
    let err = dropped(&mut b, &mallory_reply);
    assert!(matches!(err, Error::IdentityMismatch { .. }), "{err}");
    // Mallory's Hello goes to Alice.
    let err = dropped(&mut w, &mallory_hello);
    assert!(matches!(err, Error::IdentityMismatch { .. }), "{err}");
    // Neither is stopped: Bob's Hello, sent again after a silence, completes the real handshake.
    b.retransmit();
    pump(&mut b, &mut w);
    assert_eq!((w.phase(), b.phase()), (Phase::Playing, Phase::Playing));

    // Subtler: she keeps Bob's static key (so the identity matches) and swaps in her own ephemeral key.
    let (mut w, mut b) = pair(tesseract());
    let hello = drain(&mut b).remove(0);
    let mallory_eph = eph(92).public_key();
    let forged = with_keys(&hello, |k| k.ephemeral_key = *mallory_eph.as_bytes());
    assert!(w.receive(&forged).expect("answered").is_empty(), "a Hello proves nothing: answered, no event");
    let reply = drain(&mut w).remove(0);
    // Bob sees a Reply bound to a transcript he never saw: its Finished tag fails.
    assert!(matches!(dropped(&mut b, &reply), Error::Authentication("reply")));
    // And Mallory cannot finish with Alice either: she lacks Bob's static secret for `es`; the best she can
    // replay is a Finished from another run.
    let (_, mut b2) = established(tesseract());
    let _ = b2.poll_transmit();
    assert_eq!(dropped(&mut w, &finished(b2.chain.prev)), Error::Authentication("finished"));
    // Bob's own Hello is answered too, and his Finished proves it: the forged candidate is forgotten.
    assert!(w.receive(&hello).unwrap().is_empty());
    assert_eq!(w.handshake.candidates.len(), 2);
    pump(&mut w, &mut b);
    assert_eq!((w.phase(), b.phase()), (Phase::Playing, Phase::Playing));
    assert_eq!(w.transcript_hash(), b.transcript_hash());
    assert!(w.handshake.candidates.is_empty() && w.handshake.ephemeral.is_none());

    // With no identity pinned but an invitation secret, a relay without the secret still fails.
    let secret = InvitationSecret::from_bytes([5; 32]);
    let wrong = InvitationSecret::from_bytes([6; 32]);
    let cfg = |c: Color| MatchConfig::new(MATCH, c, tesseract());
    let mut w = Session::new(cfg(Color::White).invitation(secret), &alice(), eph(93)).unwrap();
    let mut m = Session::new(cfg(Color::Black).invitation(wrong), &mallory, eph(94)).unwrap();
    w.receive(&drain(&mut m).remove(0)).expect("hello");
    let reply = drain(&mut w).remove(0);
    assert_eq!(dropped(&mut m, &reply), Error::Authentication("reply"), "Mallory cannot verify Alice's reply");
    // Mallory's best try at a Finished: computed with her wrong secret.
    let fake = finished_after(&m, &reply);
    assert_eq!(dropped(&mut w, &finished(fake)), Error::Authentication("finished"));
    assert_eq!(w.phase(), Phase::Handshake);
}

/// 2. A move made up by the relay, or a genuine one altered.
#[test]
fn attack_02_forged_move() {
    let (mut w, mut b) = established(tesseract());
    // A well-formed move frame at exactly the expected place, with a made-up tag.
    let mut next = w.game.pos().clone();
    next.play(next.parse_move("22132313").unwrap()).unwrap();
    let forged = Frame::Message(MessageFrame {
        kind: Kind::Move,
        seq: 0,
        ply: 0,
        hash: next.hash(),
        text: Text::new("22132313").unwrap(),
        tag: Tag::from_bytes([0xa5; 32]),
    })
    .encode();
    assert_eq!(dropped(&mut b, &forged), Error::Authentication("move"));
    // A genuine move with its text changed to another legal move.
    w.play_text("22132313").unwrap();
    let genuine = drain(&mut w).remove(0);
    let mut m = message(&genuine);
    m.text = Text::new("42134313").unwrap(); // another legal first move
    assert!(tesseract().parse_move("42134313").is_ok());
    let altered = Frame::Message(m).encode();
    assert_eq!(dropped(&mut b, &altered), Error::Authentication("move"));
    // The genuine move still goes through.
    b.receive(&genuine).unwrap();
    assert_eq!(b.moves(), ["22132313"]);
}

/// 3. Truncated frames and truncated tags (a 16-byte HMAC is not accepted).
#[test]
fn attack_03_truncated_tag_or_frame() {
    let (mut w, mut b) = established(tesseract());
    w.play_text("22132313").unwrap();
    let frame = drain(&mut w).remove(0);
    for cut in 0..frame.len() {
        assert!(Frame::decode(&frame[..cut]).is_err(), "a frame cut to {cut} bytes must be refused");
    }
    // A frame whose tag is the left half of the true tag (what `verify_truncated_left` would accept).
    let short = &frame[..frame.len() - 16];
    assert_eq!(dropped(&mut b, short), Error::Malformed("truncated frame"));
    b.receive(&frame).unwrap();
    assert_eq!(b.ply(), 1);
    // The same check at the MAC level: half a valid tag never verifies.
    let (mut w, b) = established(tesseract());
    w.play_text("22132313").unwrap();
    let m = message(&drain(&mut w).remove(0));
    let input = MacInput {
        version: VERSION,
        kind: m.kind,
        match_id: *MATCH.as_bytes(),
        sender: *alice().identity().as_bytes(),
        color: 0,
        seq: 0,
        ply: 0,
        hash: m.hash,
        text: m.text,
        prev: b.chain.prev,
    };
    let key = &b.handshake.keys.as_ref().unwrap().message[0];
    assert!(crypto::verify_message(key, &input, m.tag.as_bytes()));
    assert!(!crypto::verify_message(key, &input, &m.tag.as_bytes()[..16]));
    // A truncated handshake frame.
    let (mut w, mut b) = pair(tesseract());
    let hello = drain(&mut b).remove(0);
    assert_eq!(dropped(&mut w, &hello[..150]), Error::FrameLength { kind: "hello", expected: 151, found: 150 });
    w.receive(&hello).unwrap();
    pump(&mut w, &mut b);
    assert_eq!(w.phase(), Phase::Playing);
}

/// 4. An old frame of this match played again later.
#[test]
fn attack_04_replay_within_match() {
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    let first = drain(&mut w).remove(0);
    b.receive(&first).unwrap();
    // A copy while it is one of the last frames accepted is ignored.
    play_line(&mut w, &mut b, &["e7e5", "g1f3"]);
    assert_eq!(b.receive(&first).unwrap(), [Event::Duplicate]);
    play_line(&mut w, &mut b, &["b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3"]);
    // White's first move again, later: authentic, but its place in the chain is long gone.
    let err = dropped(&mut b, &first);
    assert!(matches!(err, Error::Sequence { expected: 9, found: 0, .. }), "{err}");
    play_line(&mut w, &mut b, &["d7d6"]);
    assert_eq!(w.moves(), b.moves());
    // The handshake replayed mid-game: a copy of one of the last frames accepted is ignored; an older one
    // is dropped.
    let (mut w, mut b) = pair(start::chess());
    let hello = drain(&mut b)[0].clone();
    w.receive(&hello).unwrap();
    b.receive(&drain(&mut w)[0]).unwrap();
    w.receive(&drain(&mut b)[0]).unwrap();
    play_line(&mut w, &mut b, &["e2e4", "e7e5"]);
    assert_eq!(w.receive(&hello).unwrap(), [Event::Duplicate]);
    play_line(&mut w, &mut b, &["g1f3", "b8c6", "f1c4", "g8f6"]);
    assert!(matches!(dropped(&mut w, &hello), Error::Unexpected { .. }));
    play_line(&mut w, &mut b, &["d2d3"]);
    assert_eq!(w.moves(), b.moves());
}

/// 5. Frames delivered out of order, and authentic messages sent out of turn.
#[test]
fn attack_05_reorder_and_out_of_turn() {
    // Reorder: White's move, then White's resignation, delivered resignation first: dropped (its place in
    // the chain is not reached), then both arrive in order, from the retransmission.
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    w.resign().unwrap();
    let frames = drain(&mut w);
    assert_eq!(frames.len(), 2);
    let err = dropped(&mut b, &frames[1]);
    assert!(matches!(err, Error::Sequence { expected: 0, found: 1, .. }), "{err}");
    b.receive(&frames[0]).unwrap();
    let events = b.receive(&frames[1]).unwrap();
    let resigned = GameResult { winner: Some(Color::Black), reason: EndReason::Resignation };
    assert_eq!(events, [Event::GameOver(resigned)]);

    // Out of turn: White sends a second message while it is Black's turn to send (authentic: a violation).
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    b.receive(&drain(&mut w)[0]).unwrap();
    let hash = w.game.pos().hash();
    let again = seal_next(&w, Kind::DrawOffer, "", hash);
    let err = b.receive(&again).unwrap_err();
    assert_eq!(err, Error::Unexpected { kind: "draw offer", why: "it is not the peer's turn to send" });
    assert_aborted(&b);

    // Out of turn on the board: a Black move sealed as White (White's key, White's turn to send).
    let (w, mut b) = established(start::chess());
    let black_move = seal_next(&w, Kind::Move, "e7e5", 0);
    assert!(b.receive(&black_move).is_err());
    assert_aborted(&b);

    // Locally, moving out of turn is refused without harm.
    let (mut w, mut b) = established(start::chess());
    assert_eq!(b.play_text("e7e5").unwrap_err(), Error::NotNow("it is the peer's turn"));
    assert_eq!(b.phase(), Phase::Playing);
    w.play_text("e2e4").unwrap();
    pump(&mut w, &mut b);
    assert_eq!(b.ply(), 1);
}

/// 6. A lost frame: the next message cannot be placed in the chain and is dropped too; the sender's
///    retransmission heals both.
#[test]
fn attack_06_drop_healed_by_retransmission() {
    let (mut w, mut b) = established(start::chess());
    play_line(&mut w, &mut b, &["e2e4", "e7e5"]);
    w.play_text("g1f3").unwrap();
    let lost = drain(&mut w);
    assert_eq!(lost.len(), 1);
    // White then resigns; the resignation arrives, the move never did.
    w.resign().unwrap();
    let resign = drain(&mut w).remove(0);
    let err = dropped(&mut b, &resign);
    assert!(matches!(err, Error::Sequence { expected: 2, found: 3, .. }), "{err}");
    // After a silence White sends both again: the move, then the resignation.
    w.retransmit();
    pump(&mut w, &mut b);
    assert_eq!(b.moves(), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(b.result(), Some(GameResult { winner: Some(Color::Black), reason: EndReason::Resignation }));

    // Without a next message, the sender's retransmission after a silence heals the drop.
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    let _lost = drain(&mut w);
    w.retransmit();
    pump(&mut w, &mut b);
    assert_eq!(b.moves(), ["e2e4"]);
}

/// 7. A duplicate is ignored only if byte-identical to a frame accepted lately; any other byte makes it a
///    frame that does not authenticate.
#[test]
fn attack_07_duplicate_retransmission_ignored_only_if_identical() {
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    let f = drain(&mut w).remove(0);
    b.receive(&f).unwrap();
    assert_eq!(b.receive(&f).unwrap(), vec![Event::Duplicate]);
    assert_eq!(b.ply(), 1);
    assert_eq!(b.phase(), Phase::Playing);
    // Any other byte, anywhere, is not a duplicate.
    for at in [4, 10, 14, f.len() - 1] {
        let mut g = f.clone();
        g[at] ^= 1;
        dropped(&mut b, &g);
    }
    play_line(&mut w, &mut b, &["e7e5"]);
    assert_eq!(w.moves(), b.moves());
    // The handshake too: a repeated Hello is answered with the same Reply again.
    let (mut w, mut b) = pair(start::chess());
    let hello = drain(&mut b).remove(0);
    assert!(w.receive(&hello).unwrap().is_empty());
    assert_eq!(w.receive(&hello).unwrap(), vec![Event::Duplicate]);
    let replies = drain(&mut w);
    assert_eq!((replies.len(), &replies[0]), (2, &replies[1]));
    assert_eq!(w.handshake.candidates.len(), 1);
}

/// 8. A player's own frames sent back to it.
#[test]
fn attack_08_reflection_of_own_frame() {
    // Black's Hello back to Black.
    let (mut w, mut b) = pair(start::chess());
    let hello = drain(&mut b).remove(0);
    assert!(matches!(dropped(&mut b, &hello), Error::Unexpected { .. }));
    // White's Reply back to White.
    w.receive(&hello).unwrap();
    let reply = drain(&mut w).remove(0);
    assert!(matches!(dropped(&mut w, &reply), Error::Unexpected { .. }));
    b.receive(&reply).unwrap();
    pump(&mut b, &mut w);
    assert_eq!((w.phase(), b.phase()), (Phase::Playing, Phase::Playing));
    // A Hello whose color was rewritten to the receiver's own color.
    let (mut w, mut b) = pair(start::chess());
    let hello = drain(&mut b).remove(0);
    let recolored = with_keys(&hello, |k| k.color = 0);
    assert_eq!(dropped(&mut w, &recolored), Error::Reflection("the frame claims our own color"));
    // A Hello carrying the receiver's own keys.
    let own = *w.handshake.me.public_key().as_bytes();
    let mirrored = with_keys(&hello, |k| k.static_key = own);
    assert_eq!(dropped(&mut w, &mirrored), Error::Reflection("our own key came back"));
    // A message sealed by White, in exactly the state in which White expects Black's next message.
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    pump(&mut w, &mut b);
    let mirror = seal(&w, Kind::Move, "e7e5", w.chain.seq, w.game.ply, b.game.pos().hash(), w.chain.prev);
    assert_eq!(dropped(&mut w, &mirror), Error::Authentication("move"));
    play_line(&mut w, &mut b, &["e7e5"]);
    assert_eq!(w.moves(), ["e2e4", "e7e5"]);
}

/// 9. A frame of one match played into another between the same players.
#[test]
fn attack_09_cross_match_replay() {
    let other = MatchId::from_bytes([0x43; 16]);
    let (mut w1, _b1) = established_in(start::chess(), MATCH, 0);
    let (_w2, mut b2) = established_in(start::chess(), other, 1);
    w1.play_text("e2e4").unwrap();
    let f = drain(&mut w1).remove(0);
    // Same players, same place in the game, same move: another match's keys.
    assert_eq!(dropped(&mut b2, &f), Error::Authentication("move"));
    // A Hello for another match.
    let (_, mut b1) = pair_in(start::chess(), MATCH, 2);
    let (mut w2, _) = pair_in(start::chess(), other, 3);
    assert_eq!(dropped(&mut w2, &drain(&mut b1)[0]), Error::WrongMatch);
}

/// 10. Another version byte (version 1 among them), and a stripped invitation secret.
#[test]
fn attack_10_version_downgrade() {
    for version in [0u8, 1, 3, 0xff] {
        let (mut w, mut b) = pair(start::chess());
        let mut hello = drain(&mut b).remove(0);
        hello[2] = version;
        assert_eq!(dropped(&mut w, &hello), Error::Version(version));
    }
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    let mut f = drain(&mut w).remove(0);
    f[2] = 1;
    assert_eq!(dropped(&mut b, &f), Error::Version(1));
    // The version is also inside every tag: a version-1 message with a matching header still fails.
    let (w, mut b) = established(start::chess());
    let m = message(&seal_next(&w, Kind::DrawOffer, "", w.game.pos().hash()));
    let input = MacInput {
        version: 1,
        kind: m.kind,
        match_id: *MATCH.as_bytes(),
        sender: *w.identity().as_bytes(),
        color: 0,
        seq: 0,
        ply: 0,
        hash: m.hash,
        text: m.text,
        prev: w.chain.prev,
    };
    let v1 = crypto::message_tag(&w.handshake.keys.as_ref().unwrap().message[0], &input);
    let frame = Frame::Message(MessageFrame { tag: Tag::from_bytes(v1), ..m }).encode();
    assert_eq!(dropped(&mut b, &frame), Error::Authentication("draw offer"));
    // A side that uses the invitation secret never completes with one that was made to drop it.
    let secret = InvitationSecret::from_bytes([5; 32]);
    let mut w = Session::new(
        MatchConfig::new(MATCH, Color::White, start::chess()).pin_peer(bob().identity()).invitation(secret),
        &alice(),
        eph(10),
    )
    .unwrap();
    let mut b = session(&bob(), alice().identity(), Color::Black, start::chess(), MATCH, 11);
    w.receive(&drain(&mut b)[0]).unwrap();
    assert_eq!(dropped(&mut b, &drain(&mut w)[0]), Error::Authentication("reply"));
}

/// 11. Identity misbinding: the wrong player answers, or someone claims another's key.
#[test]
fn attack_11_identity_misbinding() {
    // Carol, with her own genuine key, answers a match Alice set up with Bob.
    let (mut w, _) = pair(start::chess());
    let mut c = session(&carol(), alice().identity(), Color::Black, start::chess(), MATCH, 20);
    let err = dropped(&mut w, &drain(&mut c)[0]);
    assert_eq!(err, Error::IdentityMismatch { expected: bob().identity(), found: carol().identity() });
    // Carol presents Bob's public key as hers (unknown key share): she cannot do the Diffie-Hellman.
    let (mut w, _) = pair(start::chess());
    let mut c = session(&carol(), alice().identity(), Color::Black, start::chess(), MATCH, 21);
    let bobs = *bob().public_key().as_bytes();
    let claimed = with_keys(&drain(&mut c)[0], |k| k.static_key = bobs);
    w.receive(&claimed).expect("identity matches the claimed key");
    let reply = drain(&mut w).remove(0);
    assert_eq!(dropped(&mut c, &reply), Error::Authentication("reply"), "Carol's transcript differs");
    // Her best Finished comes from her own transcript, which has her key: refused.
    let fake = finished_after(&c, &reply);
    assert_eq!(dropped(&mut w, &finished(fake)), Error::Authentication("finished"));
    // Swapped roles: both believe they are White; the transcript orders keys by color, so nothing
    // completes (a responder never answers a responder).
    let mut w1 = session(&alice(), bob().identity(), Color::White, start::chess(), MATCH, 22);
    let mut w2 = session(&bob(), alice().identity(), Color::White, start::chess(), MATCH, 23);
    assert!(w1.poll_transmit().is_none() && w2.poll_transmit().is_none());
    // Both believe they are Black: each Hello claims Black, the color of its receiver.
    let mut b1 = session(&alice(), bob().identity(), Color::Black, start::chess(), MATCH, 24);
    let mut b2 = session(&bob(), alice().identity(), Color::Black, start::chess(), MATCH, 25);
    let h2 = drain(&mut b2).remove(0);
    let _ = drain(&mut b1);
    assert!(matches!(dropped(&mut b1, &h2), Error::Unexpected { .. }));
    // Pinning oneself is refused up front.
    let me = alice();
    let cfg = MatchConfig::new(MATCH, Color::White, start::chess()).pin_peer(me.identity());
    assert!(matches!(Session::new(cfg, &me, eph(26)), Err(Error::Config(_))));
}

/// 12. A frame of one kind passed off as another.
#[test]
fn attack_12_type_confusion() {
    // Black offers a draw; White declines; the relay turns the decline into an acceptance.
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    pump(&mut w, &mut b);
    b.offer_draw().unwrap();
    pump(&mut b, &mut w);
    w.decline_draw().unwrap();
    let decline = drain(&mut w).remove(0);
    let mut m = message(&decline);
    m.kind = Kind::DrawAccept;
    assert_eq!(dropped(&mut b, &Frame::Message(m).encode()), Error::Authentication("draw accept"));
    assert_eq!(b.receive(&decline).unwrap(), [Event::DrawDeclined]);
    // A move turned into a resignation (same seq, ply, hash; text dropped).
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    let mut m = message(&drain(&mut w)[0]);
    m.kind = Kind::Resign;
    m.text = Text::EMPTY;
    m.hash = b.game.pos().hash();
    assert_eq!(dropped(&mut b, &Frame::Message(m).encode()), Error::Authentication("resign"));
    // The Finished tag reused as a message tag: different labels, different keys.
    let (w, mut b) = established(start::chess());
    let _ = w;
    let finished_tag = b.chain.prev;
    let m = MessageFrame {
        kind: Kind::Resign,
        seq: 0,
        ply: 0,
        hash: b.game.pos().hash(),
        text: Text::EMPTY,
        tag: Tag::from_bytes(finished_tag),
    };
    assert_eq!(dropped(&mut b, &Frame::Message(m).encode()), Error::Authentication("resign"));
}

/// 13. Invalid-curve, twist, identity and compressed points in a Hello.
#[test]
fn attack_13_invalid_points() {
    // A point of the quadratic twist of P-256 (x from Wycheproof's twist vectors, y² = −(x³ − 3x + b)).
    const TWIST: &str = "04efdde3b32872a9effcf3b94cbf73aa7b39f9683ece9121b9852167f4e3da609beab6a1b46314c219f7014e0416dcccec871ed9593167c020308650c3e110e94a";
    let twist: Vec<u8> = (0..65).map(|i| u8::from_str_radix(&TWIST[2 * i..2 * i + 2], 16).unwrap()).collect();
    let good = *bob().public_key().as_bytes();
    let mut off_curve = good;
    off_curve[64] ^= 1;
    let mut compressed = [0u8; 65];
    compressed[0] = 0x02 | (good[64] & 1);
    compressed[1..33].copy_from_slice(&good[1..33]);
    let identity = [0u8; 65];
    let mut hybrid = good;
    hybrid[0] = 0x06 | (good[64] & 1);
    let mut unreduced = [0xffu8; 65]; // x = y = 2²⁵⁶ − 1 > p
    unreduced[0] = 4;
    let cases: [(&str, [u8; 65], KeyError); 6] = [
        ("twist", twist.clone().try_into().unwrap(), KeyError::NotOnCurve),
        ("off the curve", off_curve, KeyError::NotOnCurve),
        ("compressed", compressed, KeyError::Form { found: compressed[0] }),
        ("identity", identity, KeyError::Form { found: 0 }),
        ("hybrid", hybrid, KeyError::Form { found: hybrid[0] }),
        ("unreduced", unreduced, KeyError::NotOnCurve),
    ];
    for (name, point, expected) in cases {
        for which in ["static", "ephemeral"] {
            let (mut w, mut b) = pair(start::chess());
            let hello = with_keys(&drain(&mut b)[0], |k| {
                if which == "static" { k.static_key = point } else { k.ephemeral_key = point }
            });
            let err = dropped(&mut w, &hello);
            assert_eq!(err, Error::BadKey { which, source: expected.clone() }, "{name} {which}");
        }
    }
    // Every Wycheproof invalid-curve point (and compressed form) is refused by the same decoder.
    let set = wycheproof::ecdh::TestSet::load(wycheproof::ecdh::TestName::EcdhSecp256r1Ecpoint).unwrap();
    let mut refused = 0;
    for t in set.test_groups.iter().flat_map(|g| &g.tests) {
        if t.result == wycheproof::TestResult::Invalid {
            assert!(PublicKey::from_sec1(&t.public_key).is_err(), "tc {}", t.tc_id);
            refused += 1;
        }
    }
    assert_eq!(refused, 24);
    // And the 33-byte compressed form is refused by length.
    assert_eq!(PublicKey::from_sec1(&compressed[..33]).unwrap_err(), KeyError::Length { found: 33 });
}

/// 14. Keys reused across matches: a rematch (same players, same match id, same start) has fresh keys.
#[test]
fn attack_14_key_reuse_across_matches() {
    let (mut w1, b1) = established_in(start::chess(), MATCH, 30);
    let (w2, mut b2) = established_in(start::chess(), MATCH, 31);
    assert_ne!(w1.handshake.th, w2.handshake.th, "fresh ephemeral keys give another transcript");
    assert_ne!(b1.handshake.th, b2.handshake.th);
    w1.play_text("e2e4").unwrap();
    let f = drain(&mut w1).remove(0);
    assert_eq!(dropped(&mut b2, &f), Error::Authentication("move"));
    // A session uses its ephemeral key for one match: it is dropped once the handshake is complete.
    assert!(w2.handshake.ephemeral.is_none() && b1.handshake.ephemeral.is_none());
    // And the Finished of the first match does not open the second.
    let (_, mut b3) = pair_in(start::chess(), MATCH, 32);
    let (mut w3, _) = pair_in(start::chess(), MATCH, 32);
    let hello = drain(&mut b3).remove(0);
    w3.receive(&hello).unwrap();
    assert_eq!(dropped(&mut w3, &finished(b1.chain.prev)), Error::Authentication("finished"));
}

/// 15. Oversize input, refused before parsing.
#[test]
fn attack_15_oversize_input() {
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    let f = drain(&mut w).remove(0);
    let mut big = f.clone();
    big.resize(MAX_FRAME + 1, 0);
    assert_eq!(dropped(&mut b, &big), Error::Oversize { len: MAX_FRAME + 1, max: MAX_FRAME });
    let huge = vec![0x54u8; 1 << 20];
    assert_eq!(Frame::decode(&huge).unwrap_err(), Error::Oversize { len: 1 << 20, max: MAX_FRAME });
    // Within the limit, trailing bytes are malformed, not oversize.
    let mut padded = f.clone();
    padded.push(0);
    assert_eq!(Frame::decode(&padded).unwrap_err(), Error::Malformed("bytes after the tag"));
    // Known only by its length (a bounded reader skipped it): dropped alike.
    let events = b.receive_oversize(1 << 28).unwrap();
    assert_eq!(events, [Event::Dropped { error: Error::Oversize { len: 1 << 28, max: MAX_FRAME } }]);
    assert_eq!((b.dropped(), b.phase()), (2, Phase::Playing));
    b.receive(&f).unwrap();
    assert_eq!(b.ply(), 1);
    // After the end of the match, an oversize frame changes nothing: the result stays.
    let (mut w, _) = established(start::chess());
    w.resign().unwrap();
    let result = w.result();
    assert_eq!(w.receive(&vec![0; MAX_FRAME + 1]).unwrap_err(), Error::Closed);
    assert_eq!(w.receive_oversize(1 << 28).unwrap_err(), Error::Closed);
    assert_eq!(w.result(), result);
    assert!(matches!(w.phase(), Phase::Closed(_)));
}

/// 16. Malformed or non-canonical move text, even when authentic.
#[test]
fn attack_16_malformed_text() {
    // Bytes outside printable ASCII never parse, whatever the tag.
    for text in [&b"22132313\n"[..], b"2213231\xff", "２２１３２３１３".as_bytes(), b"22132313\0", b" 22132313"]
    {
        let (w, mut b) = established(tesseract());
        let m = message(&seal_next(&w, Kind::Move, "22132313", 0));
        let mut raw = Frame::Message(m).encode();
        // Splice the bad text in place of the good one (length byte at 20).
        raw.splice(21..29, text.iter().copied());
        raw[20] = text.len() as u8;
        dropped(&mut b, &raw);
    }
    // Printable but not the canonical text of a legal move: authentic frames, refused by the board check.
    let bad_4d = ["22132313q", "22132313Q", "2213231", "221323130", "22130313", "a2132313", "22132313 ", "+22132313"];
    for text in bad_4d {
        let (w, mut b) = established(tesseract());
        // A space is not printable ASCII (0x21..=0x7e): such a text cannot even be sealed (the decoder's
        // refusal of it is the first loop's).
        let Ok(t) = Text::new(text) else {
            assert!(text.contains(' '), "{text:?}");
            continue;
        };
        let frame = seal_next(&w, Kind::Move, t.as_str(), 0);
        let err = b.receive(&frame).unwrap_err();
        assert!(matches!(err, Error::NonCanonical(_) | Error::IllegalMove(_)), "{text}: {err}");
        assert_aborted(&b);
    }
    let bad_2d = ["E2E4", "e2e4q", "e2-e4", "e2e4 ", "e2e9", "i2i4", "22132313"];
    for text in bad_2d {
        let (w, mut b) = established(start::chess());
        // A space is not printable ASCII (0x21..=0x7e): such a text cannot even be sealed (the decoder's
        // refusal of it is the first loop's).
        let Ok(t) = Text::new(text) else {
            assert!(text.contains(' '), "{text:?}");
            continue;
        };
        let err = b.receive(&seal_next(&w, Kind::Move, t.as_str(), 0)).unwrap_err();
        assert!(matches!(err, Error::NonCanonical(_) | Error::IllegalMove(_)), "{text}: {err}");
        assert_aborted(&b);
    }
    // King-takes-rook castling text in classic mode is not canonical (the classic text is e1g1).
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert!(super::game::check_move_text(&pos, "e1g1").is_ok());
    assert!(super::game::check_move_text(&pos, "e1h1").is_err());
    // The grammar itself, byte by byte (RULES.md §4).
    let t = tesseract();
    assert!(super::game::check_move_text(&t, "22132313").is_ok());
    for bad in ["62132313", "02132313", "2213231３", "22132313\n"] {
        assert!(matches!(super::game::check_move_text(&t, bad), Err(Error::NonCanonical(_))), "{bad}");
    }
}

/// 16b. A message of a kind without text (draw offer, accept, decline, resign, abort) that carries a text
/// or any other extra byte is refused by the decoder, by its length, before the tag is checked: even when
/// authentic (a buggy peer), the error names the kind and both lengths, not a "non-canonical move text".
/// A frame that does not decode cannot be authenticated, so it is dropped like any other.
#[test]
fn fixed_length_kinds_with_extra_bytes_are_refused_at_decode() {
    for kind in [Kind::DrawOffer, Kind::DrawAccept, Kind::DrawDecline, Kind::Resign, Kind::Abort] {
        let (w, mut b) = established(tesseract());
        // Authentic, with an 8-byte text: 61 bytes where the kind has 53.
        let frame = seal_next(&w, kind, "22132313", w.game.pos().hash());
        assert_eq!(frame.len(), 61);
        let expected = format!("malformed frame: a {} frame has exactly 53 bytes, this one has 61", kind.name());
        assert_eq!(Frame::decode(&frame).unwrap_err().to_string(), expected);
        assert_eq!(dropped(&mut b, &frame).to_string(), expected);
        // Empty text but a byte after the tag, and one byte short.
        let mut good = seal_next(&w, kind, "", w.game.pos().hash());
        assert!(Frame::decode(&good).is_ok());
        good.push(0);
        assert_eq!(
            Frame::decode(&good).unwrap_err(),
            Error::FrameLength { kind: kind.name(), expected: 53, found: 54 }
        );
        assert_eq!(
            Frame::decode(&good[..52]).unwrap_err(),
            Error::FrameLength { kind: kind.name(), expected: 53, found: 52 }
        );
        // The kind's one length, but a text-length byte that is not 0 (old: "truncated frame").
        good.pop();
        let at = good.len() - crate::frame::TAG_LEN - 1;
        assert_eq!(good[at], 0, "the text-length byte");
        for len in [1, 8, 255] {
            good[at] = len;
            let expected = format!("malformed frame: a {} frame carries no text", kind.name());
            assert_eq!(Frame::decode(&good).unwrap_err(), Error::TextNotAllowed { kind: kind.name() });
            assert_eq!(Frame::decode(&good).unwrap_err().to_string(), expected);
        }
        // Authentic otherwise: the session drops it with the same error.
        let (w, mut b) = established(tesseract());
        let mut frame = seal_next(&w, kind, "", w.game.pos().hash());
        frame[at] = 1;
        assert_eq!(dropped(&mut b, &frame), Error::TextNotAllowed { kind: kind.name() });
    }
    // Move and End carry a text: their length follows it.
    assert_eq!(Kind::Move.fixed_len(), None);
    assert_eq!(Kind::End.fixed_len(), None);
}

/// 17. An authentic move that is illegal on the receiver's board: a protocol violation.
#[test]
fn attack_17_authentic_illegal_move() {
    for (start, text) in
        [(tesseract(), "22132513"), (tesseract(), "24132313"), (start::chess(), "e2e5"), (start::chess(), "e1e2")]
    {
        let (w, mut b) = established(start);
        let err = b.receive(&seal_next(&w, Kind::Move, text, 0)).unwrap_err();
        assert!(matches!(err, Error::IllegalMove(_)), "{text}: {err}");
        assert_aborted(&b);
    }
}

/// 18. The boards disagree (a bug on one side): the Zobrist hash in the next message shows it.
#[test]
fn attack_18_desync() {
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    pump(&mut w, &mut b);
    // A bug on Black's side: its board shows e2e3 instead of e2e4.
    let mut wrong = start::chess();
    wrong.play(wrong.parse_move("e2e3").unwrap()).unwrap();
    b.game.set_board(wrong);
    b.play_text("e7e5").unwrap(); // legal on both boards
    let f = drain(&mut b).remove(0);
    let err = w.receive(&f).unwrap_err();
    assert!(matches!(err, Error::Desync { ply: 2, .. }), "{err}");
    assert_aborted(&w);
    // Same for a message that carries no move.
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    pump(&mut w, &mut b);
    let mut wrong = start::chess();
    wrong.play(wrong.parse_move("d2d4").unwrap()).unwrap();
    b.game.set_board(wrong);
    b.resign().unwrap();
    assert!(matches!(w.receive(&drain(&mut b)[0]), Err(Error::Desync { .. })));
}

/// 19. Tags are compared in constant time by the MAC, never with `==` (which `Tag` does not implement).
#[test]
fn attack_19_tag_comparison_is_constant_time() {
    // Compile-time: `Tag: PartialEq` would make this ambiguous (the assert_not_impl trick).
    trait AmbiguousIfEq<A> {
        fn some_item() {}
    }
    impl<T: ?Sized> AmbiguousIfEq<()> for T {}
    impl<T: ?Sized + PartialEq> AmbiguousIfEq<u8> for T {}
    <Tag as AmbiguousIfEq<_>>::some_item();
    // Run time: a tag wrong in its first or its last byte fails alike, through `Mac::verify_slice`.
    let key = [7u8; 32];
    let good = crypto::tag(&key, b"input");
    assert!(crypto::verify(&key, b"input", &good));
    for at in [0, 31] {
        let mut bad = good;
        bad[at] ^= 0x80;
        assert!(!crypto::verify(&key, b"input", &bad));
    }
    assert!(!crypto::verify(&key, b"input", &[]));
    assert!(!crypto::verify(&key, b"input", &good[..31]));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// 20. Ambiguous encodings: the MAC input is injective (it has an inverse), so no two different
    /// messages share a tag input.
    #[test]
    fn attack_20_ambiguous_encodings(
        a in mac_input(), b in mac_input(),
    ) {
        prop_assert_eq!(MacInput::decode(&a.encode()), Some(a));
        prop_assert_eq!(a.encode() == b.encode(), a == b);
        // Moving bytes between the text and its neighbours changes the encoding's length or the length byte.
        prop_assert_eq!(a.encode().len(), MacInput::FIXED_LEN + a.text.as_bytes().len());
    }
}

fn mac_input() -> impl Strategy<Value = MacInput> {
    let kind = prop::sample::select(Kind::ALL.to_vec());
    let text = prop::collection::vec(0x21u8..0x7f, 0..=MAX_TEXT)
        .prop_map(|v| Text::new(std::str::from_utf8(&v).unwrap()).unwrap());
    // Small alphabets so that near-collisions (same fields but one) are frequent.
    (any::<u8>(), kind, any::<[u8; 16]>(), 0u8..2, 0u32..3, 0u32..3, 0u64..3, text, any::<[u8; 32]>()).prop_map(
        |(version, kind, match_id, color, seq, ply, hash, text, prev)| MacInput {
            version: version % 2,
            kind,
            match_id: [match_id[0] % 2; 16],
            sender: [color; 16],
            color,
            seq,
            ply,
            hash,
            text,
            prev: [prev[0] % 2; 32],
        },
    )
}

/// 21. The message counter at its maximum never wraps.
#[test]
fn attack_21_ply_counter_at_max() {
    let (mut w, mut b) = established(start::chess());
    w.chain.seq = u32::MAX - 1;
    b.chain.seq = u32::MAX - 1;
    w.play_text("e2e4").unwrap();
    pump(&mut w, &mut b);
    assert_eq!((w.chain.seq, b.chain.seq), (u32::MAX, u32::MAX));
    // The next message would need sequence number u32::MAX, after which the counter would wrap.
    assert_eq!(b.play_text("e7e5").unwrap_err(), Error::CounterExhausted);
    assert_aborted(&b);
    assert!(b.poll_transmit().is_none());
    // An authentic frame at u32::MAX is refused rather than wrapped to 0.
    let (mut w, b) = established(start::chess());
    w.chain.seq = u32::MAX; // White's records: Black's next message is number u32::MAX
    let resign = seal(&b, Kind::Resign, "", u32::MAX, 0, w.game.pos().hash(), w.chain.prev);
    assert_eq!(w.receive(&resign).unwrap_err(), Error::CounterExhausted);
    assert_aborted(&w);
    // The ply counter likewise.
    let (mut w, _) = established(start::chess());
    w.game.ply = u32::MAX;
    assert_eq!(w.play_text("e2e4").unwrap_err(), Error::CounterExhausted);
}

/// 22. Forged resignations and false end claims.
#[test]
fn attack_22_forged_resign_or_end() {
    // The relay makes up Black's resignation.
    let (_, mut b) = established(start::chess());
    let forged = Frame::Message(MessageFrame {
        kind: Kind::Resign,
        seq: 0,
        ply: 0,
        hash: b.game.pos().hash(),
        text: Text::EMPTY,
        tag: Tag::from_bytes([0; 32]),
    })
    .encode();
    assert_eq!(dropped(&mut b, &forged), Error::Authentication("resign"));
    // An authentic but false claim of mate, stalemate or a draw.
    let claims = ["checkmate", "stalemate", "dead-draw", "fivefold", "seventy-five-moves", "threefold", "fifty-moves"];
    for claim in claims.into_iter().chain(["resign", "CHECKMATE"]) {
        let (w, mut b) = established(start::chess());
        let err = b.receive(&seal_next(&w, Kind::End, claim, w.game.pos().hash())).unwrap_err();
        assert_eq!(err, Error::FalseClaim(claim.into()));
        assert_aborted(&b);
    }
    // A forged End after a real mate (the mated side's confirmation made up by the relay).
    let (mut w, mut b) = established(start::chess());
    for (side, mv) in [(0, "f2f3"), (1, "e7e5"), (0, "g2g4")] {
        if side == 0 {
            w.play_text(mv).unwrap();
            pump(&mut w, &mut b);
        } else {
            b.play_text(mv).unwrap();
            pump(&mut b, &mut w);
        }
    }
    b.play_text("d8h4").unwrap();
    let mate = drain(&mut b).remove(0);
    let events = w.receive(&mate).unwrap();
    assert!(events.contains(&Event::GameOver(GameResult {
        winner: Some(Color::Black),
        reason: EndReason::Rules(Termination::Checkmate)
    })));
    let end = drain(&mut w).remove(0);
    let mut m = message(&end);
    m.tag = Tag::from_bytes([1; 32]);
    assert_eq!(dropped(&mut b, &Frame::Message(m).encode()), Error::Authentication("end"));
    b.receive(&end).unwrap();
    assert_eq!(w.result(), b.result());
    // The genuine confirmation closes both.
    let (mut w, mut b) = established(start::chess());
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        if w.action() == Action::Move {
            w.play_text(mv).unwrap()
        } else {
            b.play_text(mv).unwrap()
        }
        pump(&mut w, &mut b);
    }
    assert_eq!(w.phase(), b.phase());
    assert_eq!(
        w.result(),
        Some(GameResult { winner: Some(Color::Black), reason: EndReason::Rules(Termination::Checkmate) })
    );
}

/// 23. Nothing is accepted after a failure (an authenticated violation), not even a genuine frame;
///     nothing is sent but one Abort.
#[test]
fn attack_23_continuing_after_failure() {
    let (mut w, mut b) = established(start::chess());
    let bad = seal_next(&w, Kind::Move, "e2e5", 0);
    w.play_text("e2e4").unwrap();
    let genuine = drain(&mut w).remove(0);
    assert!(matches!(b.receive(&bad), Err(Error::IllegalMove(_))));
    assert_eq!(b.receive(&genuine).unwrap_err(), Error::Aborted);
    assert_eq!(b.play_text("e7e5").unwrap_err(), Error::Aborted);
    assert_eq!(b.resign().unwrap_err(), Error::Aborted);
    assert_eq!(b.offer_draw().unwrap_err(), Error::Aborted);
    assert_eq!(b.ply(), 0);
    let out = drain(&mut b);
    assert_eq!(out.len(), 1);
    assert_eq!(message(&out[0]).kind, Kind::Abort);
    // The Abort is authentic: the peer learns the match is over, and nothing else.
    assert_eq!(
        w.receive(&out[0]).unwrap(),
        vec![Event::GameOver(GameResult { winner: None, reason: EndReason::Aborted })]
    );
    assert_eq!(b.stage, Stage::Aborted);
}

/// 24. No secret in `Debug` output.
#[test]
fn attack_24_secrets_in_debug() {
    let me = alice();
    let secret_hex = crate::keys::hex(&me.to_bytes()[..]);
    assert!(!format!("{me:?}").contains(&secret_hex));
    assert!(!format!("{me:#?}").contains(&secret_hex));
    let e = EphemeralKey::from_bytes(&[9; 32]).unwrap();
    assert_eq!(format!("{e:?}"), "EphemeralKey { .. }");
    let inv = InvitationSecret::from_bytes([0xab; 32]);
    assert!(!format!("{inv:?}").contains("abab"));
    let cfg = MatchConfig::new(MATCH, Color::White, start::chess()).pin_peer(bob().identity()).invitation(inv);
    assert!(!format!("{cfg:?}").contains("abab"));
    let (w, b) = established(start::chess());
    for s in [&w, &b] {
        let dump = format!("{s:?}{s:#?}");
        let keys = s.handshake.keys.as_ref().unwrap();
        for k in keys.finished.iter().chain(&keys.message) {
            assert!(!dump.contains(&crate::keys::hex(k)));
        }
        assert!(!dump.contains(&crate::keys::hex(&s.handshake.me.to_bytes()[..])));
    }
}

// ----- what the wire says -----

/// Errors on the wire never say which check failed: from the same state, every violation sends the very
/// same bytes (one Abort with no text); a frame that does not authenticate sends nothing at all.
#[test]
fn wire_abort_does_not_say_which_check_failed() {
    let junk: [fn(&Session, &Session) -> Vec<u8>; 3] = [
        |_, _| vec![0xff; 300],                                                 // oversize
        |_, _| b"TW\x02\x10garbage".to_vec(),                                   // malformed
        |b, w| seal(w, Kind::Move, "e2e4", 0, 0, b.game.pos().hash(), [0; 32]), // bad tag (wrong prev)
    ];
    for make in junk {
        let (w, mut b) = established(start::chess());
        let frame = make(&b, &w);
        dropped(&mut b, &frame);
        assert!(drain(&mut b).is_empty());
    }
    let mut aborts = Vec::new();
    let failures: [fn(&mut Session, &Session) -> Vec<u8>; 4] = [
        |_, w| seal_next(w, Kind::Move, "e2e5", 0),     // illegal move
        |_, w| seal_next(w, Kind::Move, "e2e4", 12345), // desync
        |_, w| seal_next(w, Kind::End, "checkmate", w.game.pos().hash()), // false claim
        |_, w| seal_next(w, Kind::DrawAccept, "", w.game.pos().hash()), // no offer to accept
    ];
    for fail in failures {
        let (w, mut b) = established(start::chess());
        let frame = fail(&mut b, &w);
        assert!(b.receive(&frame).is_err());
        let out = drain(&mut b);
        assert_eq!(out.len(), 1);
        let m = message(&out[0]);
        assert_eq!((m.kind, m.text), (Kind::Abort, Text::EMPTY));
        aborts.push(out[0].clone());
    }
    assert!(aborts.windows(2).all(|p| p[0] == p[1]), "the abort frames differ by failure");
}

/// A resignation that crosses a move in flight is still accepted (checked against the state before our
/// own last message).
#[test]
fn resign_crossing_a_move() {
    let (mut w, mut b) = established(start::chess());
    w.play_text("e2e4").unwrap();
    pump(&mut w, &mut b);
    b.play_text("e7e5").unwrap();
    let black_move = drain(&mut b).remove(0);
    // White resigns before Black's move arrives.
    w.resign().unwrap();
    let resign = drain(&mut w).remove(0);
    let events = b.receive(&resign).unwrap();
    assert_eq!(
        events,
        vec![Event::GameOver(GameResult { winner: Some(Color::Black), reason: EndReason::Resignation })]
    );
    assert_eq!(w.receive(&black_move).unwrap_err(), Error::Closed);
}

/// A match that starts in a finished position (here, a stalemate) ends at once with the End message of the
/// side to move.
#[test]
fn start_position_already_over() {
    let pos = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(pos.outcome().is_some());
    let (mut w, mut b) = pair(pos);
    pump(&mut w, &mut b);
    let stalemate = Some(GameResult { winner: None, reason: EndReason::Rules(Termination::Stalemate) });
    assert_eq!((w.result(), b.result()), (stalemate, stalemate));
}

/// Plays `moves` alternately from `w` and `b` (whoever is to move), pumping after each.
fn play_line(w: &mut Session, b: &mut Session, moves: &[&str]) {
    for mv in moves {
        if w.action() == Action::Move {
            w.play_text(mv).unwrap();
        } else {
            b.play_text(mv).unwrap();
        }
        pump(w, b);
    }
}

/// Not an attack: the rules-level game's ends over the wire. The third occurrence lets the side to move
/// claim; the fifth ends the match without a claim (`fivefold`), confirmed by the side to move.
#[test]
fn repetitions_are_claimable_at_three_and_end_the_match_at_five() {
    let (mut w, mut b) = established(start::chess());
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    play_line(&mut w, &mut b, &dance);
    assert_eq!(w.claimable(), None);
    play_line(&mut w, &mut b, &dance);
    assert_eq!(w.claimable(), Some(EndReason::Rules(Termination::Threefold)));
    play_line(&mut w, &mut b, &dance);
    assert_eq!(w.phase(), Phase::Playing);
    play_line(&mut w, &mut b, &dance);
    let fivefold = Some(GameResult { winner: None, reason: EndReason::Rules(Termination::Fivefold) });
    assert_eq!((w.result(), b.result()), (fivefold, fivefold));
}

/// Not an attack: a capture that leaves a knight against a king (Nxc3) is a dead position on 8×8 (FIDE), and the
/// match closes as `dead-draw` on both sides; an End that claims it earlier is a false claim.
#[test]
fn a_dead_position_by_material_closes_the_match() {
    let start = Position::from_fen("4k3/8/8/8/8/2q5/8/1N2K3 w - - 0 1").unwrap();
    let (w, mut b) = established(start.clone());
    let forged = message(&seal_next(&w, Kind::End, "dead-draw", w.game.pos().hash()));
    let frame = Frame::Message(forged).encode();
    assert!(matches!(b.receive(&frame), Err(Error::FalseClaim(_))), "early claim");
    let (mut w, mut b) = established(start);
    play_line(&mut w, &mut b, &["b1c3"]);
    let dead = Some(GameResult { winner: None, reason: EndReason::Rules(Termination::DeadDraw) });
    assert_eq!((w.result(), b.result()), (dead, dead));
}

/// Not an attack: a local move naming a cell off the board is refused as illegal (the move text is
/// written only once the move is known legal), and nothing is sent.
#[test]
fn a_local_move_off_the_board_is_refused() {
    let (mut w, _b) = established(start::chess());
    let off = tesseract_board::Move {
        from: tesseract_board::Cell::new(4000),
        to: tesseract_board::Cell::new(12),
        promotion: None,
    };
    assert!(matches!(w.play(off), Err(Error::IllegalLocalMove(_))));
    assert!(drain(&mut w).is_empty());
    assert_eq!(w.ply(), 0);
}

// ----- a stranger on the match -----

/// What a stranger who knows the match id can write to it: random bytes, damaged copies, replays of every
/// frame seen so far, Hellos with the peer's public key and its own ephemeral keys (which pass every check
/// a Hello can have), its own handshake frames, and forged resignations, aborts, ends and Finished frames.
struct Stranger {
    rng: ChaCha20Rng,
    seen: Vec<Vec<u8>>,
    mallory: Session,
    next_eph: u64,
}

impl Stranger {
    fn new(seed: u64) -> Stranger {
        let mallory = session(&key(66), alice().identity(), Color::Black, start::chess(), MATCH, 500 + seed);
        Stranger { rng: ChaCha20Rng::seed_from_u64(seed), seen: Vec::new(), mallory, next_eph: 600 }
    }

    /// A Hello with Bob's public key (so Alice's pin holds) and a fresh ephemeral key of the stranger's.
    fn hello_as_bob(&mut self, bob_hello: &[u8]) -> Vec<u8> {
        self.next_eph += 1;
        let e = *eph(self.next_eph).public_key().as_bytes();
        with_keys(bob_hello, |k| k.ephemeral_key = e)
    }

    /// Some frames to send around `genuine`.
    fn junk(&mut self, genuine: &[u8]) -> Vec<Vec<u8>> {
        use rand_core::Rng;
        let mut out = Vec::new();
        for _ in 0..3 {
            let f = match self.rng.next_u32() % 8 {
                0 => {
                    let mut v = vec![0; (self.rng.next_u32() % 300) as usize];
                    self.rng.fill_bytes(&mut v);
                    v
                }
                1 => {
                    let mut v = genuine.to_vec();
                    let at = self.rng.next_u32() as usize % v.len();
                    v[at] ^= 1 << (self.rng.next_u32() % 8);
                    v
                }
                2 | 3 if !self.seen.is_empty() => self.seen[self.rng.next_u32() as usize % self.seen.len()].clone(),
                4 => self.mallory.unacknowledged()[0].clone(),
                5 => finished(std::array::from_fn(|_| self.rng.next_u32() as u8)),
                _ => match Frame::decode(genuine) {
                    // The same header, another kind (resign, abort, end), a made-up tag.
                    Ok(Frame::Message(mut m)) => {
                        m.kind = [Kind::Resign, Kind::Abort, Kind::End][self.rng.next_u32() as usize % 3];
                        m.text = if m.kind == Kind::End { Text::new("checkmate").unwrap() } else { Text::EMPTY };
                        m.tag = Tag::from_bytes(std::array::from_fn(|_| self.rng.next_u32() as u8));
                        Frame::Message(m).encode()
                    }
                    _ => b"TW\x02\x15".to_vec(),
                },
            };
            out.push(f);
        }
        out
    }
}

/// Hands `junk` to `s`: each is dropped or ignored as a copy (a Hello may also be answered), or refused as
/// `Closed` after the end; none moves the game or ends it.
fn shrug_off(s: &mut Session, junk: &[Vec<u8>]) {
    for j in junk {
        let (ply, phase) = (s.ply(), s.phase());
        let events = match s.receive(j) {
            Err(Error::Closed) => Vec::new(),
            other => other.expect("a stranger's frame never aborts"),
        };
        assert!(
            events.iter().all(|e| matches!(e, Event::Dropped { .. } | Event::Duplicate)),
            "a stranger's frame did something: {events:?}"
        );
        assert_eq!((s.ply(), s.phase()), (ply, phase));
    }
}

/// Hands every queued frame across, each between the stranger's frames; the genuine ones are then seen by
/// the stranger. Returns whether a genuine frame moved.
fn hostile_pump(a: &mut Session, b: &mut Session, x: &mut Stranger) -> bool {
    let mut moved = false;
    loop {
        let (fa, fb) = (drain(a), drain(b));
        if fa.is_empty() && fb.is_empty() {
            return moved;
        }
        moved = true;
        for (frames, to) in [(fa, &mut *b), (fb, &mut *a)] {
            for f in frames {
                let before = x.junk(&f);
                shrug_off(to, &before);
                to.receive(&f).expect("a genuine frame is accepted");
                let after = x.junk(&f);
                shrug_off(to, &after);
                x.seen.push(f);
            }
        }
    }
}

/// 25. A stranger who knows the match id floods it for a whole match: more Hellos that pass every check
///     than a responder keeps, before and after the real one; junk, damaged copies, replays of everything
///     it saw, forged resignations, aborts and ends around every genuine frame. All of it is dropped (and
///     counted) or ignored; the players' retransmission heals the handshake, and the match is played to
///     its end with the same game and result on both sides.
#[test]
fn attack_25_a_stranger_floods_a_whole_match_and_it_still_finishes() {
    use rand_core::Rng;
    let mut x = Stranger::new(25);
    let (mut w, mut b) = pair(start::chess());
    let bob_hello = drain(&mut b).remove(0);
    // More candidate Hellos than Alice keeps, on both sides of Bob's own.
    // Each is answered; once 16 are kept, each newcomer pushes out the oldest, which counts as dropped.
    for n in 0..MAX_CANDIDATES + 4 {
        let h = x.hello_as_bob(&bob_hello);
        let events = w.receive(&h).unwrap();
        assert_eq!(events.len(), usize::from(n >= MAX_CANDIDATES), "{n}: {events:?}");
        assert!(events.iter().all(|e| matches!(e, Event::Dropped { .. })));
    }
    assert_eq!(w.dropped(), 4, "a flood of Hellos is noticed");
    w.receive(&bob_hello).unwrap();
    for _ in 0..MAX_CANDIDATES + 4 {
        let h = x.hello_as_bob(&bob_hello);
        w.receive(&h).unwrap();
    }
    assert_eq!(w.handshake.candidates.len(), MAX_CANDIDATES, "Bob's Hello was pushed out");
    // A responder saved now saves none of it: the stranger's Hellos never change its saved state.
    let (mut fresh, _) = pair(start::chess());
    assert_eq!(w.save_state().unwrap(), fresh.save_state().unwrap());
    let _ = drain(&mut fresh);
    // Alice's Replies reach Bob: all dropped but the one to his Hello, which is gone from Alice by now.
    let mut moves = ChaCha20Rng::seed_from_u64(7);
    let mut silences = 0;
    while !(matches!(w.phase(), Phase::Closed(_)) && matches!(b.phase(), Phase::Closed(_))) {
        if !hostile_pump(&mut w, &mut b, &mut x) {
            // A silence: both send their unacknowledged frames again, as clients do after a timeout.
            silences += 1;
            assert!(silences < 20, "the match is stuck: {:?} {:?}", w.phase(), b.phase());
            w.retransmit();
            b.retransmit();
            continue;
        }
        for s in [&mut w, &mut b] {
            if s.action() == Action::Move {
                if s.ply() >= 60 {
                    s.resign().unwrap();
                } else {
                    let legal = tesseract_movegen::legal_moves(s.position());
                    let m = legal[moves.next_u32() as usize % legal.len()];
                    s.play(m).unwrap();
                }
            }
        }
    }
    assert!(silences >= 1, "the flooded handshake needed a retransmission");
    assert_eq!(w.moves(), b.moves());
    assert_eq!(w.result(), b.result());
    assert!(w.failure().is_none() && b.failure().is_none());
    assert!(w.dropped() > 100 && b.dropped() > 100, "dropped {} / {}", w.dropped(), b.dropped());
}

// ----- automatic ends, and two at once -----

/// Not an attack: the 75-move rule ends the match. Its End text, `seventy-five-moves`, is 18 bytes: version
/// 1's limit of 16 aborted every such match instead of drawing it.
#[test]
fn the_75_move_rule_ends_the_match_with_an_18_byte_end() {
    let start = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 148 120").unwrap();
    let (mut w, mut b) = established(start);
    play_line(&mut w, &mut b, &["a1a2"]);
    assert_eq!(w.phase(), Phase::Playing, "149 half-moves: not yet");
    b.play_text("e8d8").unwrap();
    let last = drain(&mut b).remove(0);
    let events = w.receive(&last).unwrap();
    let drawn = GameResult { winner: None, reason: EndReason::Rules(Termination::SeventyFiveMoves) };
    assert!(events.contains(&Event::GameOver(drawn)), "{events:?}");
    let end = drain(&mut w).remove(0);
    assert_eq!(message(&end).text.as_str(), "seventy-five-moves");
    assert_eq!(end.len(), 53 + 18);
    assert_eq!(b.receive(&end).unwrap(), [Event::GameOver(drawn)]);
    assert_eq!((w.result(), b.result()), (Some(drawn), Some(drawn)));
}

/// Two automatic ends at once (PROTOCOL.md §5.3): a mate given on the 150th half-move is a mate, and a
/// fifth repetition reached on the 150th half-move is a 75-move end; the End naming the other one is a
/// false claim.
#[test]
fn two_automatic_ends_at_once_are_sent_in_the_order_of_the_protocol() {
    // Ra8# is the 150th half-move without a capture or pawn move.
    let start = Position::from_fen("6k1/8/6K1/8/8/8/8/R7 w - - 149 100").unwrap();
    let mate = GameResult { winner: Some(Color::White), reason: EndReason::Rules(Termination::Checkmate) };
    let (mut w, mut b) = established(start.clone());
    play_line(&mut w, &mut b, &["a1a8"]);
    assert_eq!((w.result(), b.result()), (Some(mate), Some(mate)));
    let (mut w, mut b) = established(start);
    w.play_text("a1a8").unwrap();
    b.receive(&drain(&mut w)[0]).unwrap();
    let _ = drain(&mut b);
    let wrong = seal(&b, Kind::End, "seventy-five-moves", 1, 1, b.game.pos().hash(), b.chain.snapshot.unwrap().prev);
    assert!(matches!(w.receive(&wrong), Err(Error::FalseClaim(_))));

    // The knights' dance from a clock of 134: the start's fifth occurrence is the 150th half-move.
    let start = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 134 80").unwrap();
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let (mut w, mut b) = established(start);
    for _ in 0..4 {
        play_line(&mut w, &mut b, &dance);
    }
    let drawn = GameResult { winner: None, reason: EndReason::Rules(Termination::SeventyFiveMoves) };
    assert_eq!((w.result(), b.result()), (Some(drawn), Some(drawn)));
}
