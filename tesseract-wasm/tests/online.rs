//! The plain-Rust layer of the JavaScript class `Online`, natively: two players' sides of a match, frames
//! handed across by hand as a relay would. Expected results come from the rules (fool's mate is Black's
//! mate) or from the other side of the match (both see the same safety number and moves), never from the
//! side under test alone.

use serde_json::Value;
use tesseract_wasm::{Chess, Online};

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn key() -> String {
    Online::generate_identity()
}

/// A new match between two fresh identities: (creator, joiner).
fn pair(start: &str, color: &str) -> (Online, Online) {
    let creator = Online::create(start, color, &key()).expect("create");
    let joiner = Online::join(&creator.invitation(), &key()).expect("join");
    (creator, joiner)
}

/// Hands every queued frame to the other side until both are quiet; returns the events each side saw.
fn pump(a: &mut Online, b: &mut Online) -> (Vec<Value>, Vec<Value>) {
    let (mut seen_a, mut seen_b) = (Vec::new(), Vec::new());
    loop {
        let mut moved = false;
        while let Some(f) = a.next_frame() {
            seen_b.extend(events(&b.receive(&f)));
            moved = true;
        }
        while let Some(f) = b.next_frame() {
            seen_a.extend(events(&a.receive(&f)));
            moved = true;
        }
        if !moved {
            return (seen_a, seen_b);
        }
    }
}

fn events(text: &str) -> Vec<Value> {
    match json(text) {
        Value::Array(list) => list,
        other => panic!("events are not an array: {other}"),
    }
}

fn types(list: &[Value]) -> Vec<&str> {
    list.iter().map(|e| e["type"].as_str().expect("type")).collect()
}

fn moves(side: &Online) -> Vec<String> {
    serde_json::from_value(json(&side.moves())).expect("moves")
}

/// White and Black of a pair, whichever created.
fn by_color<'a>(a: &'a mut Online, b: &'a mut Online) -> (&'a mut Online, &'a mut Online) {
    if a.color() == "w" { (a, b) } else { (b, a) }
}

#[test]
fn a_whole_chess_game_ends_in_fools_mate_on_both_sides() {
    let (mut a, mut b) = pair("classic", "w");
    assert_eq!((a.color().as_str(), b.color().as_str()), ("w", "b"));
    assert_eq!(a.invitation(), b.invitation());
    assert_eq!(a.match_id(), b.match_id());
    assert_eq!(a.phase(), "handshake");
    assert_eq!(a.safety_number(), None);
    let (ea, eb) = pump(&mut a, &mut b);
    assert_eq!(a.phase(), "playing");
    assert_eq!(b.phase(), "playing");
    let safety = a.safety_number().expect("a safety number after the handshake");
    assert_eq!(safety.len(), 16);
    assert_eq!(b.safety_number(), Some(safety.clone()));
    // Each side saw the other's identity, and the same safety number in its established event.
    let established = |list: &[Value]| list.iter().find(|e| e["type"] == "established").cloned().expect("established");
    assert_eq!(established(&ea)["peer"], b.identity().as_str());
    assert_eq!(established(&eb)["peer"], a.identity().as_str());
    assert_eq!(established(&ea)["safety"], safety.as_str());
    assert_eq!(established(&eb)["safety"], safety.as_str());
    assert_eq!(a.peer_identity(), Some(b.identity()));

    assert_eq!(a.action(), "move");
    assert_eq!(b.action(), "wait");
    let line = ["f2f3", "e7e5", "g2g4", "d8h4"];
    for (i, text) in line.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };
        assert!(other.play(text).is_err(), "{text} out of turn is refused");
        mover.play(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let (_, seen) = pump(mover, other);
        let moved: Vec<&Value> = seen.iter().filter(|e| e["type"] == "moved").collect();
        assert_eq!(moved.len(), 1, "{seen:?}");
        assert_eq!(moved[0]["text"], *text);
        assert_eq!(moved[0]["ply"], i + 1);
        assert_eq!(moved[0]["color"], if i % 2 == 0 { "w" } else { "b" });
    }
    assert_eq!(moves(&a), line);
    assert_eq!(moves(&b), line);
    assert_eq!(a.position(), b.position());
    // Fool's mate: Black mates, so both sides end with 0-1 by checkmate.
    for side in [&a, &b] {
        assert_eq!(side.phase(), "closed");
        assert_eq!(side.action(), "done");
        assert_eq!(json(&side.result().expect("result")), json(r#"{"score":"0-1","winner":"b","reason":"checkmate"}"#));
        assert_eq!(side.failure(), None);
    }
    let mut after = Chess::start("classic", 1.0).expect("classic");
    for m in line {
        after.play(m).expect("the line is legal");
    }
    assert_eq!(a.position(), after.text());
}

#[test]
fn a_4d_game_with_a_declined_draw_then_a_resignation() {
    // The creator takes Black: the joiner is White and moves first.
    let (mut a, mut b) = pair("standard", "b");
    pump(&mut a, &mut b);
    let (white, black) = by_color(&mut a, &mut b);
    assert_eq!(white.color(), "w");
    // Six plies, each the first legal move of the library's own generator.
    let mut mirror = Chess::start("standard", 1.0).expect("standard");
    for ply in 0..6 {
        let list = json(&mirror.legal_moves());
        let text = list[0]["text"].as_str().expect("text").to_string();
        let (mover, other) = if ply % 2 == 0 { (&mut *white, &mut *black) } else { (&mut *black, &mut *white) };
        mover.play(&text).expect("a legal move");
        mirror.play(&text).expect("legal");
        let (_, seen) = pump(mover, other);
        assert_eq!(types(&seen), ["moved"]);
        assert_eq!(seen[0]["text"], text.as_str());
    }
    assert_eq!(white.position(), mirror.text());
    assert_eq!(black.position(), mirror.text());
    // White offers a draw, Black declines; White may not offer again before a move.
    white.offer_draw().expect("offer");
    let (_, seen) = pump(white, black);
    assert_eq!(types(&seen), ["drawOffered"]);
    assert!(black.draw_offered());
    assert_eq!(black.action(), "answerDraw");
    black.decline_draw().expect("decline");
    let (seen, _) = pump(white, black);
    assert_eq!(types(&seen), ["drawDeclined"]);
    assert!(white.offer_draw().is_err());
    assert!(white.claim_draw().is_err(), "no repetition, no 50 moves");
    assert_eq!(white.claimable(), None);
    // Black resigns (at any time): White wins on both sides.
    black.resign().expect("resign");
    let (seen, _) = pump(white, black);
    assert_eq!(types(&seen), ["gameOver"]);
    for side in [&*white, &*black] {
        assert_eq!(json(&side.result().expect("over")), json(r#"{"score":"1-0","winner":"w","reason":"resignation"}"#));
    }
    assert!(black.resign().is_err(), "the game is over");
}

#[test]
fn a_draw_by_agreement_in_chess960() {
    let (mut a, mut b) = pair("chess960:0", "w");
    assert!(a.invitation().starts_with("tw1.w.chess960:0."), "{}", a.invitation());
    pump(&mut a, &mut b);
    a.play("e2e4").expect("e2e4");
    pump(&mut a, &mut b);
    b.offer_draw().expect("offer");
    pump(&mut a, &mut b);
    assert!(a.play("d2d4").is_err(), "the offer must be answered first");
    a.accept_draw().expect("accept");
    let (_, seen) = pump(&mut a, &mut b);
    assert_eq!(types(&seen), ["gameOver"]);
    for side in [&a, &b] {
        assert_eq!(
            json(&side.result().expect("over")),
            json(r#"{"score":"1/2-1/2","winner":null,"reason":"draw-agreed"}"#)
        );
    }
}

#[test]
fn a_tampered_move_is_dropped_and_the_genuine_one_played() {
    let (mut white, mut black) = pair("classic", "w");
    pump(&mut white, &mut black);
    white.play("e2e4").expect("e2e4");
    let frame = white.next_frame().expect("the move frame");
    assert_eq!(frame[3], 0x10, "a Move frame (PROTOCOL.md §3)");
    // The text starts after TW, version, kind, seq, ply, hash and its length byte: e2e4 -> e2e5.
    let mut forged = frame.clone();
    assert_eq!(&forged[21..25], b"e2e4");
    forged[24] = b'5';
    let seen = events(&black.receive(&forged));
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0]["type"], "dropped");
    assert_eq!(seen[0]["kind"], "Authentication");
    assert_eq!(seen[0]["message"], "authentication failed for a move frame");
    assert_eq!(seen[0]["count"], 1);
    assert_eq!((black.phase().as_str(), black.dropped()), ("playing", 1.0), "dropped: the match goes on");
    assert_eq!(moves(&black), Vec::<String>::new(), "the forged move is not played");
    assert_eq!(black.failure(), None);
    // The genuine frame (sent again after a silence) is played.
    assert_eq!(types(&events(&black.receive(&frame))), ["moved"]);
    assert_eq!(moves(&black), ["e2e4"]);
}

#[test]
fn garbage_and_oversize_frames_are_dropped_without_panicking() {
    let (mut white, _) = pair("classic", "w");
    type Input = fn(&mut Online) -> String;
    let inputs: [(&str, Input); 4] = [
        ("Malformed", |w| w.receive(b"not a frame")),
        ("Oversize", |w| w.receive_oversize(1e12)),
        ("Oversize", |w| w.receive(&[0x54; 2000])),
        ("Oversize", |w| w.receive_oversize(f64::NAN)),
    ];
    for (n, (kind, input)) in inputs.iter().enumerate() {
        let seen = events(&input(&mut white));
        assert_eq!((seen[0]["type"].as_str(), seen[0]["kind"].as_str()), (Some("dropped"), Some(*kind)), "{seen:?}");
        assert_eq!(seen[0]["count"], n + 1);
        assert_eq!(white.phase(), "handshake");
    }
}

#[test]
fn both_sides_resume_from_saved_state_and_play_on() {
    let (key_a, key_b) = (key(), key());
    let mut a = Online::create("classic", "b", &key_a).expect("create");
    let mut b = Online::join(&a.invitation(), &key_b).expect("join");
    pump(&mut a, &mut b);
    let (white, black) = (&mut b, &mut a);
    white.play("e2e4").expect("e2e4");
    pump(white, black);
    black.play("e7e5").expect("e7e5");
    // Black's move is queued and saved but lost on the way; both pages reload.
    let saved_black = black.save_state().expect("save");
    assert!(black.next_frame().is_some());
    let saved_white = white.save_state().expect("save");
    let link = white.invitation();
    let mut white = Online::resume(&saved_white, &key_b, &link).expect("white resumes");
    let mut black = Online::resume(&saved_black, &key_a, &link).expect("black resumes");
    assert_eq!((white.color().as_str(), black.color().as_str()), ("w", "b"));
    assert_eq!(white.phase(), "playing");
    assert_eq!(moves(&black), ["e2e4", "e7e5"]);
    assert_eq!(moves(&white), ["e2e4"]);
    assert_eq!(white.safety_number(), black.safety_number());
    // The resumed Black sends its move again; White plays on.
    let (seen, _) = pump(&mut white, &mut black);
    assert_eq!(types(&seen), ["moved"]);
    white.play("g1f3").expect("g1f3");
    pump(&mut white, &mut black);
    assert_eq!(moves(&black), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(white.position(), black.position());

    // Refusals: another player's key, another match, damaged or cut bytes, not hex.
    let other = pair("classic", "b").0.invitation();
    let err = Online::resume(&saved_white, &key_a, &link).unwrap_err();
    assert!(err.contains("another player"), "{err}");
    let err = Online::resume(&saved_white, &key_b, &other).unwrap_err();
    assert!(err.contains("another match id"), "{err}");
    let mut damaged = saved_white.clone().into_bytes();
    damaged[100] = if damaged[100] == b'0' { b'1' } else { b'0' };
    let err = Online::resume(std::str::from_utf8(&damaged).expect("ascii"), &key_b, &link).unwrap_err();
    assert!(err.contains("checksum"), "{err}");
    let err = Online::resume(&saved_white[..saved_white.len() - 2], &key_b, &link).unwrap_err();
    assert!(err.contains("checksum"), "{err}");
    assert!(Online::resume("xyz", &key_b, &link).unwrap_err().contains("hex"));
    assert!(Online::resume("", &key_b, &link).is_err());
}

#[test]
fn a_lost_frame_is_sent_again_by_retransmit() {
    let (mut white, mut black) = pair("classic", "w");
    let hello = black.next_frame().expect("Black opens with its Hello");
    assert_eq!(black.unacknowledged(), 1);
    drop(hello); // nobody was listening
    black.retransmit();
    pump(&mut white, &mut black);
    assert_eq!(white.phase(), "playing");
    white.play("d2d4").expect("d2d4");
    let first = white.next_frame().expect("move");
    assert_eq!(events(&black.receive(&first))[0]["type"], "moved");
    white.retransmit();
    let copy = white.next_frame().expect("the same move again");
    assert_eq!(copy, first);
    assert_eq!(types(&events(&black.receive(&copy))), ["duplicate"]);
    assert_eq!(moves(&black), ["d2d4"]);
}

#[test]
fn invitations_are_checked_field_by_field() {
    let (a, _) = pair("standard", "w");
    let good = a.invitation();
    let fields: Vec<&str> = good.split('.').collect();
    assert_eq!(fields.len(), 5);
    assert_eq!(&fields[..3], ["tw1", "w", "standard"]);
    assert_eq!(fields[3], a.match_id());
    assert_eq!(fields[4].len(), 64);
    let joined = Online::join(&good, &key()).expect("join");
    assert_eq!(joined.invitation(), good);
    assert_eq!(joined.start(), "standard");

    let secret = fields[4];
    let with = |i: usize, v: &str| {
        let mut f = fields.clone();
        f[i] = v;
        f.join(".")
    };
    let cases = [
        (String::new(), "fields"),
        ("tw1.w.standard".to_string(), "fields"),
        (format!("{good}.extra"), "fields"),
        (with(0, "tw2"), "expected \"tw1\""),
        (with(1, "x"), "color"),
        (with(2, "chess960:0518"), "written \"chess960:518\""),
        (with(2, "chess960:960"), "start"),
        (with(2, "Standard"), "start"),
        (with(2, "raumschach"), "unknown start"),
        (with(3, "00"), "match id"),
        (with(4, &secret[..63]), "secret"),
        (with(4, &format!("{}g", &secret[..63])), "secret"),
        ("x".repeat(100_000), "at most 256"),
    ];
    for (text, why) in cases {
        let err = Online::join(&text, &key()).unwrap_err();
        assert!(err.contains(why), "{text:.80}: {err}");
        assert!(!err.contains(&secret[..32]), "the secret is not echoed: {err}");
        assert!(err.len() < 400, "the message is short: {err:.100}");
    }
}

#[test]
fn identities_are_64_hex_digits_of_a_valid_key() {
    let k = key();
    assert_eq!(k.len(), 64);
    assert!(k.bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    let id = Online::identity_of(&k).expect("identity");
    assert_eq!(id.len(), 32);
    assert_eq!(Online::identity_of(&k.to_uppercase()), Ok(id.clone()));
    assert_ne!(Online::identity_of(&key()).expect("another"), id);
    let a = Online::create("classic", "white", &k).expect("create");
    assert_eq!(a.identity(), id);
    for bad in ["", "00", &"0".repeat(64), &"f".repeat(64), &"z".repeat(64), &"1".repeat(65), &"1".repeat(1000)] {
        assert!(Online::identity_of(bad).is_err(), "{bad:.70}");
        assert!(Online::create("classic", "w", bad).is_err(), "{bad:.70}");
    }
    assert!(Online::create("classic", "green", &k).unwrap_err().contains("color"));
    assert!(Online::create("chess", "w", &k).is_err());
    // A start of the board crate on another board (3D): the page plays 8x8 and 5^4 only.
    assert!(Online::create("raumschach", "w", &k).unwrap_err().contains("unknown start"));
}

#[test]
fn local_misuse_changes_nothing() {
    let (mut white, mut black) = pair("classic", "w");
    assert!(white.play("e2e4").unwrap_err().contains("handshake"));
    assert!(white.resign().is_err());
    pump(&mut white, &mut black);
    let before = (white.position(), white.moves(), white.unacknowledged());
    for bad in ["e2e5", "e7e5", "", "22132313", &"e2e4".repeat(100)] {
        assert!(white.play(bad).is_err(), "{bad:.20}");
    }
    assert!(white.accept_draw().is_err());
    assert!(white.decline_draw().is_err());
    assert_eq!((white.position(), white.moves(), white.unacknowledged()), before);
    assert_eq!(white.next_frame(), None);
    assert_eq!(white.phase(), "playing");
}

#[test]
fn a_threefold_repetition_is_claimed_by_the_side_to_move() {
    let (mut white, mut black) = pair("classic", "w");
    pump(&mut white, &mut black);
    // The start position stands again after plies 4 and 8: its third time, White to move (FIDE 9.2).
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (i, text) in dance.iter().chain(&dance).enumerate() {
        assert_eq!(white.claimable(), None, "before ply {i}");
        let (mover, other) = if i % 2 == 0 { (&mut white, &mut black) } else { (&mut black, &mut white) };
        mover.play(text).expect("legal");
        pump(mover, other);
    }
    assert_eq!(white.claimable().as_deref(), Some("threefold"));
    assert_eq!(black.claimable(), None, "not Black's move");
    assert!(black.claim_draw().is_err());
    assert_eq!(white.claim_draw().as_deref(), Ok("threefold"));
    let (_, seen) = pump(&mut white, &mut black);
    assert_eq!(types(&seen), ["gameOver"]);
    for side in [&white, &black] {
        assert_eq!(
            json(&side.result().expect("over")),
            json(r#"{"score":"1/2-1/2","winner":null,"reason":"threefold"}"#)
        );
    }
}
