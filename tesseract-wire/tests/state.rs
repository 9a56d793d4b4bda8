//! Saving and resuming a session (PROTOCOL.md §11): a player stopped at any point of a match and resumed
//! from its saved state goes on with the same match; damaged, cut or foreign states are refused with a
//! typed error and never panic.

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};
use tesseract_board::{Color, Position, start};
use tesseract_wire::testkit::{AutoPlayer, SeededMover};
use tesseract_wire::{
    Action, EphemeralKey, Event, IdentityKey, InvitationSecret, MAX_STATE, MatchConfig, MatchId, Phase, Session,
    StateError,
};

fn key(n: u64) -> IdentityKey {
    IdentityKey::generate(&mut ChaCha20Rng::seed_from_u64(n))
}

fn eph(n: u64) -> EphemeralKey {
    EphemeralKey::generate(&mut ChaCha20Rng::seed_from_u64(9_000 + n))
}

const ID: MatchId = MatchId::from_bytes([0x33; 16]);

fn config(c: Color, start: &Position) -> MatchConfig {
    let peer = if c == Color::White { key(2) } else { key(1) };
    MatchConfig::new(ID, c, start.clone()).pin_peer(peer.identity())
}

fn me(c: Color) -> IdentityKey {
    if c == Color::White { key(1) } else { key(2) }
}

fn pair(start: &Position) -> (Session, Session) {
    (
        Session::new(config(Color::White, start), &me(Color::White), eph(1)).unwrap(),
        Session::new(config(Color::Black, start), &me(Color::Black), eph(2)).unwrap(),
    )
}

/// Saves `s` and resumes it from the bytes, as a restarted process does; the bytes of the resumed
/// session are the same.
fn restart(s: Session, start: &Position) -> Session {
    let c = s.color();
    let saved = s.save_state().unwrap();
    drop(s);
    let resumed = Session::resume(config(c, start), &me(c), &saved).unwrap();
    assert_eq!(*resumed.save_state().unwrap(), *saved, "save, resume, save gives the same bytes");
    resumed
}

fn drain(s: &mut Session) -> Vec<Vec<u8>> {
    std::iter::from_fn(|| s.poll_transmit()).collect()
}

/// A whole match between two automatic players in which both are restarted from their saved state after
/// every frame they send or receive, and every frame sent just before a restart is lost: the
/// retransmission of the resumed sessions (when they resume, and after a round in which nothing moved, as
/// clients do after a silence) heals it, and the match completes with both boards equal. (A responder's
/// Reply to a Hello is not saved: a restart loses it, and the initiator's Hello sent again brings it back.)
fn match_with_restarts(start: &Position, cap: u32) -> (Session, Session) {
    let (mut w, mut b) = pair(start);
    let (mut wp, mut bp) = (AutoPlayer::new(SeededMover::new(1), cap), AutoPlayer::new(SeededMover::new(2), cap));
    // The frames each side sent before its last restart (its state was saved before they went out).
    let (mut sent_w, mut sent_b) = (Vec::new(), Vec::new());
    for round in 0..10_000 {
        if w.action() == Action::Done && b.action() == Action::Done {
            return (w, b);
        }
        wp.act(&mut w).unwrap();
        bp.act(&mut b).unwrap();
        let fw: Vec<_> = std::mem::take(&mut sent_w).into_iter().chain(drain(&mut w)).collect();
        let fb: Vec<_> = std::mem::take(&mut sent_b).into_iter().chain(drain(&mut b)).collect();
        if fw.is_empty() && fb.is_empty() {
            // A silence: both send their unacknowledged frames again, as clients do.
            w.retransmit();
            b.retransmit();
        }
        // Every third round, the frames queued are lost with the process that queued them.
        if round % 3 == 0 {
            w = restart(w, start);
            b = restart(b, start);
            continue;
        }
        for f in fw {
            b.receive(&f).unwrap();
        }
        for f in fb {
            w.receive(&f).unwrap();
        }
        // What the frames made each side queue goes out, then both restart.
        (sent_w, sent_b) = (drain(&mut w), drain(&mut b));
        w = restart(w, start);
        b = restart(b, start);
    }
    panic!("the match did not finish");
}

#[test]
fn a_match_restarted_after_every_step_completes_with_both_boards_equal() {
    for (start, cap) in [(start::chess(), 60), (start::tesseract(start::Army::Light), 40)] {
        let (w, b) = match_with_restarts(&start, cap);
        assert!(matches!(w.phase(), Phase::Closed(_)), "{:?}", w.phase());
        assert_eq!(w.result(), b.result());
        assert_eq!(w.position().hash(), b.position().hash());
        assert_eq!(w.moves(), b.moves());
        assert!(w.ply() >= cap.min(20), "{}", w.ply());
    }
}

/// The initiator stops after its Hello; the responder has answered meanwhile. The resumed initiator takes
/// the Reply with the ephemeral key of its Hello; a fresh session (no saved state) sends a new Hello, which
/// the responder, still waiting for a Finished, answers too: the fresh session completes the handshake.
#[test]
fn resume_during_the_handshake_keeps_the_ephemeral_key() {
    let chess = start::chess();
    let (mut w, mut b) = pair(&chess);
    let hello = drain(&mut b).remove(0);
    let saved = b.save_state().unwrap();
    drop(b);
    let reply = {
        w.receive(&hello).unwrap();
        drain(&mut w).remove(0)
    };
    let mut b = Session::resume(config(Color::Black, &chess), &me(Color::Black), &saved).unwrap();
    assert_eq!(drain(&mut b), std::slice::from_ref(&hello), "the resumed initiator sends its Hello again");
    let events = b.receive(&reply).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::Established { .. })), "{events:?}");
    for f in drain(&mut b) {
        w.receive(&f).unwrap();
    }
    assert_eq!(w.phase(), Phase::Playing);
    // Without the state: a new Hello, answered by a responder that already answered the first one.
    let (mut w2, mut b2) = pair(&chess);
    w2.receive(&drain(&mut b2).remove(0)).unwrap();
    let _lost = drain(&mut w2);
    let mut fresh = Session::new(config(Color::Black, &chess), &me(Color::Black), eph(77)).unwrap();
    assert!(w2.receive(&drain(&mut fresh).remove(0)).unwrap().is_empty());
    for f in drain(&mut w2) {
        fresh.receive(&f).unwrap();
    }
    for f in drain(&mut fresh) {
        w2.receive(&f).unwrap();
    }
    assert_eq!((w2.phase(), fresh.phase()), (Phase::Playing, Phase::Playing));
    assert_eq!(w2.transcript_hash(), fresh.transcript_hash());
}

fn saved_mid_game() -> (Position, Vec<u8>) {
    let chess = start::chess();
    let (mut w, mut b) = pair(&chess);
    for f in drain(&mut b) {
        w.receive(&f).unwrap();
    }
    for f in drain(&mut w) {
        b.receive(&f).unwrap();
    }
    for f in drain(&mut b) {
        w.receive(&f).unwrap();
    }
    w.play_text("e2e4").unwrap();
    for f in drain(&mut w) {
        b.receive(&f).unwrap();
    }
    b.play_text("e7e5").unwrap();
    for f in drain(&mut b) {
        w.receive(&f).unwrap();
    }
    w.play_text("g1f3").unwrap();
    (chess, w.save_state().unwrap().to_vec())
}

#[test]
fn damaged_cut_or_foreign_states_are_refused() {
    let (chess, saved) = saved_mid_game();
    let white = || config(Color::White, &chess);
    let resume = |c: MatchConfig, k: &IdentityKey, bytes: &[u8]| Session::resume(c, k, bytes).map(|_| ()).unwrap_err();
    assert!(Session::resume(white(), &me(Color::White), &saved).is_ok());
    // Every byte flipped, every cut: refused.
    for i in 0..saved.len() {
        let mut bad = saved.clone();
        bad[i] ^= 0x20;
        let err = resume(white(), &me(Color::White), &bad);
        assert!(matches!(err, StateError::Malformed(_) | StateError::Format(_)), "byte {i}: {err}");
    }
    for cut in 0..saved.len() {
        assert!(matches!(resume(white(), &me(Color::White), &saved[..cut]), StateError::Malformed(_)), "{cut}");
    }
    assert_eq!(
        resume(white(), &me(Color::White), &saved[..saved.len() - 1]).to_string(),
        "not a valid session state: its checksum does not match: the bytes are damaged or cut"
    );
    let mut other_format = saved.clone();
    other_format[3] = 1;
    assert_eq!(
        resume(white(), &me(Color::White), &other_format).to_string(),
        "the session state is in format 1: this version reads format 2"
    );
    assert_eq!(
        resume(white(), &me(Color::White), &vec![0; MAX_STATE + 1]),
        StateError::Oversize { len: MAX_STATE + 1, max: MAX_STATE }
    );
    // Valid, but for something else than what is given.
    let other_match = MatchConfig { match_id: MatchId::from_bytes([0x44; 16]), ..white() };
    assert_eq!(
        resume(other_match, &me(Color::White), &saved).to_string(),
        format!("the session state is for another match id: the state has {ID}, this side {}", "44".repeat(16))
    );
    let err = resume(config(Color::Black, &chess), &me(Color::Black), &saved);
    assert!(matches!(err, StateError::Mismatch { what: "color", .. }), "{err}");
    let err = resume(white(), &key(5), &saved);
    assert!(matches!(err, StateError::Mismatch { what: "player (key)", .. }), "{err}");
    let err = resume(config(Color::White, &start::chess960(100).unwrap()), &me(Color::White), &saved);
    assert!(matches!(err, StateError::Mismatch { what: "start position", .. }), "{err}");
    let err = resume(white().pin_peer(key(6).identity()), &me(Color::White), &saved);
    assert!(matches!(err, StateError::Mismatch { what: "pinned peer", .. }), "{err}");
    let err = resume(white().invitation(InvitationSecret::from_bytes([9; 32])), &me(Color::White), &saved);
    assert_eq!(
        err.to_string(),
        "the session state is for another invitation secret: the state has none, this side one"
    );
}

/// Recomputes the checksum after a change, so that the change reaches the field checks.
fn reseal(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 32;
    let digest = Sha256::digest(&bytes[..n]);
    bytes[n..].copy_from_slice(&digest);
    bytes
}

#[test]
fn an_illegal_move_in_a_state_is_refused() {
    let (chess, saved) = saved_mid_game();
    // "e2e4" is the first move text: make it an illegal "e2e5".
    let at = saved.windows(4).position(|w| w == b"e2e4").unwrap();
    let mut bad = saved.clone();
    bad[at + 3] = b'5';
    let err = Session::resume(config(Color::White, &chess), &me(Color::White), &reseal(bad)).map(|_| ()).unwrap_err();
    assert_eq!(err, StateError::Malformed("a move that is not legal in its position"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Any change of any bytes, with a valid checksum, gives a session or a typed error: never a panic.
    #[test]
    fn resume_never_panics(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)) {
        static SAVED: std::sync::OnceLock<(Position, Vec<u8>)> = std::sync::OnceLock::new();
        let (chess, saved) = SAVED.get_or_init(saved_mid_game);
        let mut bytes = saved.clone();
        let body = bytes.len() - 32;
        for (i, v) in edits {
            bytes[5 + i.index(body - 5)] = v;
        }
        let _ = Session::resume(config(Color::White, chess), &me(Color::White), &reseal(bytes));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let chess = start::chess();
        let mut b = b"TWS\x01\x01".to_vec();
        b.extend(bytes);
        b.extend([0; 32]);
        let _ = Session::resume(config(Color::White, &chess), &me(Color::White), &reseal(b));
    }
}

/// A responder saved while it answers Hellos is saved as waiting for one (its candidates are not saved):
/// resumed, it drops the initiator's Finished that it can no longer verify, and the initiator's Hello and
/// Finished sent again after the silence complete the handshake.
#[test]
fn a_responder_resumed_in_the_handshake_completes_it_from_the_initiators_retransmission() {
    let chess = start::chess();
    let (w, mut b) = pair(&chess);
    let mut w = w;
    w.receive(&drain(&mut b).remove(0)).unwrap();
    let reply = drain(&mut w).remove(0);
    let mut w = restart(w, &chess);
    assert!(drain(&mut w).is_empty(), "the Reply to a candidate is not saved");
    b.receive(&reply).unwrap();
    let finished = drain(&mut b);
    assert_eq!(finished.len(), 1);
    assert!(matches!(w.receive(&finished[0]).unwrap()[..], [Event::Dropped { .. }]));
    b.retransmit(); // after the silence: the Hello and the Finished
    let again = drain(&mut b);
    assert_eq!(again.len(), 2);
    for f in &again {
        w.receive(f).unwrap();
    }
    assert_eq!((w.phase(), b.phase()), (Phase::Playing, Phase::Playing));
    assert_eq!(w.transcript_hash(), b.transcript_hash());
}

/// A match aborted during the handshake saves a state that resumes as what it is: closed, aborted, with
/// nothing of the handshake kept (no ephemeral secret, nothing to send).
#[test]
fn a_match_aborted_during_the_handshake_resumes_closed() {
    let chess = start::chess();
    for color in [Color::White, Color::Black] {
        let (w, b) = pair(&chess);
        let mut s = if color == Color::White { w } else { b };
        s.abort();
        assert!(drain(&mut s).is_empty());
        let s = restart(s, &chess);
        assert_eq!(s.result().map(|r| r.reason), Some(tesseract_wire::EndReason::Aborted), "{color:?}");
        assert!(s.unacknowledged().is_empty());
    }
}

/// However often a client calls retransmit while it cannot send (a lost socket, a state it cannot save),
/// each unacknowledged frame waits in the outbox once.
#[test]
fn retransmitting_never_queues_a_frame_twice() {
    let (_, mut b) = pair(&start::chess());
    for _ in 0..100 {
        b.retransmit();
    }
    assert_eq!(drain(&mut b).len(), 1, "the Hello, once");
}

/// Black's state after White's first move, in a position where another move of the same length would
/// have ended the game by rule: `e1d1` (the king steps out of the queen's check) and `b1c3` (the knight
/// takes the queen, leaving a knight against a king: a dead position on 8×8).
fn black_saved_after(start: &Position, white: &str, black_reply: Option<&str>) -> Vec<u8> {
    let (mut w, mut b) = pair(start);
    for _ in 0..2 {
        for f in drain(&mut b) {
            w.receive(&f).unwrap();
        }
        for f in drain(&mut w) {
            b.receive(&f).unwrap();
        }
    }
    w.play_text(white).unwrap();
    for f in drain(&mut w) {
        b.receive(&f).unwrap();
    }
    if let Some(reply) = black_reply {
        b.play_text(reply).unwrap();
    }
    b.save_state().unwrap().to_vec()
}

/// A state whose board is over by rule with the saver to move (as a version whose rules had not ended
/// the game there would have saved it) is resumed with the end confirmed at once, not left waiting; a
/// state with moves after such an end is refused.
#[test]
fn a_state_over_by_rule_is_confirmed_on_resume_and_moves_after_it_are_refused() {
    let start = Position::from_fen("4k3/8/8/8/8/2q5/8/1N2K3 w - - 0 1").unwrap();
    let saved = black_saved_after(&start, "e1d1", None);
    let at = saved.windows(4).position(|w| w == b"e1d1").unwrap();
    let mut over = saved.clone();
    over[at..at + 4].copy_from_slice(b"b1c3");
    let mut b = Session::resume(config(Color::Black, &start), &me(Color::Black), &reseal(over)).unwrap();
    let Phase::Closed(result) = b.phase() else { panic!("not closed: {:?}", b.phase()) };
    assert_eq!((result.winner, result.reason.name()), (None, "dead-draw"));
    assert!(!drain(&mut b).is_empty(), "the End is queued for the peer");
    // Black also replied in this state: a move after the end by rule.
    let saved = black_saved_after(&start, "e1d1", Some("c3c2"));
    let at = saved.windows(4).position(|w| w == b"e1d1").unwrap();
    let mut after = saved.clone();
    after[at..at + 4].copy_from_slice(b"b1c3");
    let err = Session::resume(config(Color::Black, &start), &me(Color::Black), &reseal(after)).map(|_| ()).unwrap_err();
    assert_eq!(err, StateError::Malformed("a move after the game was over by rule"));
}
