//! The known-answer vectors of PROTOCOL.md §9.
//!
//! This file re-implements the specification from its text with the primitive crates alone (sha2, hkdf,
//! hmac, P-256 Diffie-Hellman, and rand_chacha for the position hash of §8), so it checks three things: that PROTOCOL.md's hex is what the
//! specification says, that the crate's sessions send exactly those bytes, and that another
//! implementation following the text would interoperate.

use std::collections::BTreeMap;

use hkdf::Hkdf;
use hmac::{Hmac, KeyInit, Mac};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use sha2::{Digest, Sha256};
use tesseract_board::{Color, Position, Role, start};
use tesseract_movegen::Legal;
use tesseract_wire::testkit::ecdh_p256;
use tesseract_wire::{EndReason, EphemeralKey, IdentityKey, InvitationSecret, MatchConfig, MatchId, Phase, Session};

const PROTOCOL: &str = include_str!("../PROTOCOL.md");

fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

fn hmac(key: &[u8], data: &[u8]) -> [u8; 32] {
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(key).unwrap();
    m.update(data);
    m.finalize().into_bytes().into()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A label with its one-byte length in front.
fn label(s: &str) -> Vec<u8> {
    let mut v = vec![s.len() as u8];
    v.extend_from_slice(s.as_bytes());
    v
}

/// Secret scalar from a seed text: SHA-256 of the text (PROTOCOL.md §9).
fn seed_secret(name: &str) -> [u8; 32] {
    sha256(&[format!("tesseract-wire/1 test vector: {name}").as_bytes()])
}

/// The protocol version of the text (§1), in every frame, transcript and tag.
const VERSION: u8 = 2;

const MATCH_ID: [u8; 16] =
    [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff];

const MOVE: u8 = 0x10;
const DRAW_OFFER: u8 = 0x11;
const DRAW_ACCEPT: u8 = 0x12;
const DRAW_DECLINE: u8 = 0x13;
const END: u8 = 0x14;
const RESIGN: u8 = 0x15;

/// A vector game: the prefix of its vectors' names, its start (None: the standard Tesseract start of
/// RULES.md §3), and its messages after the handshake: (sender, kind, text).
struct VectorGame {
    prefix: &'static str,
    fen: Option<&'static str>,
    script: &'static [(Color, u8, &'static str)],
}

/// The vector games of PROTOCOL.md §9: the 4D game (moves, a declined offer, a resignation); a 2D game with
/// an en passant capture, a promotion and a draw agreed; a 2D game ending in a fifty-move claim; a 2D game
/// ended by the 75-move rule (the longest End text).
const GAMES: [VectorGame; 4] = [
    VectorGame {
        prefix: "",
        fen: None,
        script: &[
            (Color::White, MOVE, "22132313"),
            (Color::Black, MOVE, "24532353"),
            (Color::White, DRAW_OFFER, ""),
            (Color::Black, DRAW_DECLINE, ""),
            (Color::White, MOVE, "42134313"),
            (Color::Black, RESIGN, ""),
        ],
    },
    VectorGame {
        prefix: "b.",
        fen: Some("7k/1P6/8/3pP3/8/8/8/K7 w - d6 0 60"),
        script: &[
            (Color::White, MOVE, "e5d6"),
            (Color::Black, MOVE, "h8g7"),
            (Color::White, MOVE, "b7b8q"),
            (Color::Black, DRAW_OFFER, ""),
            (Color::White, DRAW_ACCEPT, ""),
        ],
    },
    VectorGame {
        prefix: "c.",
        fen: Some("r3k3/8/8/8/8/8/8/4K2R w Kq - 99 80"),
        script: &[(Color::White, MOVE, "e1e2"), (Color::Black, END, "fifty-moves")],
    },
    VectorGame {
        prefix: "d.",
        fen: Some("4k3/8/8/8/8/8/8/R3K3 w - - 149 120"),
        script: &[(Color::White, MOVE, "a1a2"), (Color::Black, END, "seventy-five-moves")],
    },
];

impl VectorGame {
    fn start(&self) -> Position {
        match self.fen {
            None => start::tesseract(start::Army::Standard),
            Some(fen) => Position::from_fen(fen).unwrap(),
        }
    }
}

/// The Zobrist keys of a board of `dims` axes and side `n`, drawn as PROTOCOL.md §8 says: ChaCha8 keyed
/// with the seed text, stream 256·d + n, each key two output words, low word first.
fn zobrist_keys(dims: usize, n: usize) -> Vec<u64> {
    let mut rng = ChaCha8Rng::from_seed(*b"Tesseract Zobrist keys, seed v1.");
    rng.set_stream((256 * dims + n) as u64);
    let cells = n.pow(dims as u32);
    (0..2 * 9 * cells + 1 + cells + 2 * n)
        .map(|_| {
            let lo = u64::from(rng.next_u32());
            let hi = u64::from(rng.next_u32());
            lo | hi << 32
        })
        .collect()
}

/// The position hash of PROTOCOL.md §8, from the position's contents alone.
fn spec_hash(pos: &Position) -> u64 {
    let (dims, n) = (pos.shape().dims(), pos.shape().side());
    let keys = zobrist_keys(dims, n);
    let cells = n.pow(dims as u32);
    let role = |r: Role| match r {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Unicorn => 5,
        Role::Dragon => 6,
        Role::YPawn => 7,
        Role::WPawn => 8,
    };
    let color = |c: Color| if c == Color::White { 0 } else { 1 };
    let mut h = 0;
    for (cell, piece) in pos.pieces() {
        h ^= keys[(color(piece.color) * 9 + role(piece.role)) * cells + cell.index()];
    }
    let side = 2 * 9 * cells;
    if pos.turn() == Color::Black {
        h ^= keys[side];
    }
    if let Some(ep) = pos.en_passant() {
        h ^= keys[side + 1 + ep.target.index()];
    }
    let geo = pos.geometry();
    for rook in pos.castling().cells() {
        let c = if geo.coord(rook, 1) == 1 { 0 } else { 1 };
        h ^= keys[side + 1 + cells + c * n + usize::from(geo.coord(rook, 0)) - 1];
    }
    h
}

/// Every vector, by name, computed from the specification's text.
fn compute() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut put = |k: &str, v: &[u8]| out.push((k.to_string(), hex(v)));
    let s_sec = [seed_secret("white static"), seed_secret("black static")];
    let e_sec = [seed_secret("white ephemeral"), seed_secret("black ephemeral")];
    let s_pub: Vec<[u8; 65]> =
        s_sec.iter().map(|s| *IdentityKey::from_bytes(s).unwrap().public_key().as_bytes()).collect();
    let e_pub: Vec<[u8; 65]> =
        e_sec.iter().map(|s| *EphemeralKey::from_bytes(s).unwrap().public_key().as_bytes()).collect();
    let ids: Vec<[u8; 16]> =
        s_pub.iter().map(|p| sha256(&[&label("tesseract-wire/1 identity"), p])[..16].try_into().unwrap()).collect();
    put("match_id", &MATCH_ID);
    for (c, name) in ["white", "black"].iter().enumerate() {
        put(&format!("{name}.static.secret"), &s_sec[c]);
        put(&format!("{name}.static.public"), &s_pub[c]);
        put(&format!("{name}.identity"), &ids[c]);
        put(&format!("{name}.ephemeral.secret"), &e_sec[c]);
        put(&format!("{name}.ephemeral.public"), &e_pub[c]);
    }
    // The position hash (§8): the first keys of both shapes.
    for (shape, dims, n) in [("4d", 4, 5), ("2d", 2, 8)] {
        let keys = zobrist_keys(dims, n);
        for (i, k) in keys.iter().take(2).enumerate() {
            put(&format!("zobrist.{shape}.key.{i}"), &k.to_be_bytes());
        }
        put(&format!("zobrist.{shape}.key.side"), &keys[2 * 9 * n.pow(dims as u32)].to_be_bytes());
    }
    let invitation = seed_secret("invitation");
    let scenarios = [
        ("", &GAMES[0], None),
        ("invitation.", &GAMES[0], Some(invitation)),
        (GAMES[1].prefix, &GAMES[1], None),
        (GAMES[2].prefix, &GAMES[2], None),
        (GAMES[3].prefix, &GAMES[3], None),
    ];
    // Black's first two messages of the 4D game, their tags and hashes, for the saved states.
    let (mut frames, mut tags, mut hashes) = (Vec::new(), Vec::new(), Vec::new());
    for (scenario, game, inv) in scenarios {
        let start = game.start();
        let fen = start.fen();
        if let Some(text) = game.fen {
            assert_eq!(fen, text, "the crate writes the documented start text back byte for byte");
        }
        assert_eq!(spec_hash(&start), start.hash(), "{scenario} start hash");
        if inv.is_none() {
            put(&format!("{scenario}start_hash"), &spec_hash(&start).to_be_bytes());
        }
        if let Some(s) = inv {
            put("invitation.secret", &s);
        }
        let th = sha256(&[
            &label("tesseract-wire/1 transcript"),
            &[VERSION],
            &MATCH_ID,
            &[0],
            &(fen.len() as u16).to_be_bytes(),
            fen.as_bytes(),
            &[u8::from(inv.is_some())],
            &ids[0],
            &ids[1],
            &s_pub[0],
            &s_pub[1],
            &e_pub[0],
            &e_pub[1],
        ]);
        put(&format!("{scenario}transcript_hash"), &th);
        let ee = ecdh_p256(&e_sec[0], &e_pub[1]).unwrap();
        let es = ecdh_p256(&e_sec[0], &s_pub[1]).unwrap();
        let se = ecdh_p256(&s_sec[0], &e_pub[1]).unwrap();
        // Both sides compute the same three values.
        assert_eq!(ee, ecdh_p256(&e_sec[1], &e_pub[0]).unwrap());
        assert_eq!(es, ecdh_p256(&s_sec[1], &e_pub[0]).unwrap());
        assert_eq!(se, ecdh_p256(&e_sec[1], &s_pub[0]).unwrap());
        if scenario.is_empty() {
            put("dh.ee", &ee);
            put("dh.es", &es);
            put("dh.se", &se);
        }
        let mut ikm = [ee, es, se].concat();
        ikm.extend(inv.iter().flatten());
        let hk = Hkdf::<Sha256>::new(Some(&th), &ikm);
        let expand = |info: &str| {
            let mut k = [0u8; 32];
            hk.expand(info.as_bytes(), &mut k).unwrap();
            k
        };
        let fk = [expand("tesseract-wire/1 finished white"), expand("tesseract-wire/1 finished black")];
        let mk = [expand("tesseract-wire/1 white to black"), expand("tesseract-wire/1 black to white")];
        put(&format!("{scenario}key.finished_white"), &fk[0]);
        put(&format!("{scenario}key.finished_black"), &fk[1]);
        put(&format!("{scenario}key.white_to_black"), &mk[0]);
        put(&format!("{scenario}key.black_to_white"), &mk[1]);
        let finished_input = [label("tesseract-wire/1 finished"), th.to_vec()].concat();
        let fin = [hmac(&fk[0], &finished_input), hmac(&fk[1], &finished_input)];
        let keys = |c: usize| [MATCH_ID.to_vec(), vec![c as u8], s_pub[c].to_vec(), e_pub[c].to_vec()].concat();
        let hello = [vec![b'T', b'W', VERSION, 0x01], keys(1)].concat();
        let reply = [vec![b'T', b'W', VERSION, 0x02], keys(0), fin[0].to_vec()].concat();
        let finished = [vec![b'T', b'W', VERSION, 0x03], fin[1].to_vec()].concat();
        // The Hello holds no start position: the 2D games send the 4D game's Hello, given once.
        if game.prefix.is_empty() {
            put(&format!("{scenario}frame.hello"), &hello);
        }
        put(&format!("{scenario}frame.reply"), &reply);
        put(&format!("{scenario}frame.finished"), &finished);
        if inv.is_some() {
            continue;
        }
        // The message chain.
        let mut pos: Position = start.clone();
        let mut prev = fin[1];
        let mut ply = 0u32;
        for (seq, (sender, kind, text)) in game.script.iter().enumerate() {
            let c = sender.index();
            if *kind == MOVE {
                let m = pos.parse_move(text).unwrap();
                pos.play(m).unwrap();
            }
            let hash = spec_hash(&pos);
            assert_eq!(hash, pos.hash(), "{scenario}message {seq}: the hash of §8 is the crate's");
            let body = [
                (seq as u32).to_be_bytes().to_vec(),
                ply.to_be_bytes().to_vec(),
                hash.to_be_bytes().to_vec(),
                vec![text.len() as u8],
                text.as_bytes().to_vec(),
            ]
            .concat();
            let input = [
                label("tesseract-wire/1 message"),
                vec![VERSION, *kind],
                MATCH_ID.to_vec(),
                ids[c].to_vec(),
                vec![c as u8],
                (seq as u32).to_be_bytes().to_vec(),
                ply.to_be_bytes().to_vec(),
                hash.to_be_bytes().to_vec(),
                vec![text.len() as u8],
                text.as_bytes().to_vec(),
                prev.to_vec(),
            ]
            .concat();
            let tag = hmac(&mk[c], &input);
            if seq == 0 && scenario.is_empty() {
                put("message.0.mac_input", &input);
            }
            put(&format!("{scenario}message.{seq}.tag"), &tag);
            let frame = [vec![b'T', b'W', VERSION, *kind], body, tag.to_vec()].concat();
            put(&format!("{scenario}message.{seq}.frame"), &frame);
            if scenario.is_empty() && seq <= 1 {
                frames.push(frame);
                tags.push(tag);
                hashes.push(hash);
            }
            prev = tag;
            if *kind == MOVE {
                ply += 1;
            }
        }
        if scenario.is_empty() {
            // The saved states of §11 (format 2). White, the responder, after it answered Black's Hello:
            // saved as waiting for a Hello (neither the candidate nor its Reply is saved), the ephemeral
            // secret kept, no keys chosen yet.
            let mut st = state_head(0, &ids[0], &fen);
            st.push(0); // stage: waiting for a Hello
            st.extend([vec![1], e_sec[0].to_vec(), e_pub[0].to_vec()].concat());
            st.extend([0, 0, 0]); // no peer key, transcript hash or keys yet
            st.extend([0u32.to_be_bytes().to_vec(), vec![0; 32], vec![0]].concat()); // seq 0, prev zero, White sends
            st.extend([0, 0, 0]); // no snapshot, no draw offer, no declined offer
            st.extend(0u32.to_be_bytes()); // no moves
            st.push(0); // no unacknowledged frame (the Reply to a candidate is not saved)
            st.push(0); // no frame accepted yet (an answered Hello is not accepted until proven)
            put("state.white.after_hello", &sealed(st));
            // Black, the initiator, after its first move (message 1): playing, its move unacknowledged, the
            // chain before it as the snapshot, the Reply and White's move remembered.
            let mut st = state_head(1, &ids[1], &fen);
            st.push(3); // stage: playing
            st.extend([vec![0], e_pub[1].to_vec()].concat()); // the ephemeral secret is gone
            st.extend([vec![1], s_pub[0].to_vec(), vec![1], th.to_vec(), vec![1]].concat());
            st.extend([fk[0], fk[1], mk[0], mk[1]].concat());
            st.extend([2u32.to_be_bytes().to_vec(), tags[1].to_vec(), vec![0]].concat()); // seq 2, White sends
            let snapshot = [1u32.to_be_bytes(), 1u32.to_be_bytes()].concat();
            st.extend([vec![1], snapshot, hashes[0].to_be_bytes().to_vec(), tags[0].to_vec()].concat());
            st.extend([0, 0]); // no draw offer, no declined offer
            st.extend(2u32.to_be_bytes());
            for m in ["22132313", "24532353"] {
                st.extend([vec![m.len() as u8], m.as_bytes().to_vec()].concat());
            }
            st.extend([vec![1], framed(&frames[1])].concat());
            st.extend([vec![2], framed(&reply), framed(&frames[0])].concat());
            put("state.black.after_message_1", &sealed(st));
        }
    }
    out
}

/// The fields of a saved state (§11) before the stage: magic, format 2, version, match id, color, own
/// identity, start text, Chess960 flag 0, the pinned peer (flag 1 and its identity: the vector sessions
/// pin each other), no invitation secret (flag 0).
fn state_head(color: u8, own: &[u8; 16], fen: &str) -> Vec<u8> {
    let ids = vector_identities();
    let peer = ids[1 - color as usize];
    [
        b"TWS".to_vec(),
        vec![2, VERSION],
        MATCH_ID.to_vec(),
        vec![color],
        own.to_vec(),
        (fen.len() as u16).to_be_bytes().to_vec(),
        fen.as_bytes().to_vec(),
        vec![0],
        vec![1],
        peer.to_vec(),
        vec![0],
    ]
    .concat()
}

/// The identities of the vector keys (§2).
fn vector_identities() -> [[u8; 16]; 2] {
    ["white static", "black static"].map(|n| {
        let public = *IdentityKey::from_bytes(&seed_secret(n)).unwrap().public_key().as_bytes();
        sha256(&[&label("tesseract-wire/1 identity"), &public])[..16].try_into().unwrap()
    })
}

/// A frame in a state: its u16 length, then its bytes.
fn framed(f: &[u8]) -> Vec<u8> {
    [(f.len() as u16).to_be_bytes().to_vec(), f.to_vec()].concat()
}

/// A state's bytes followed by their SHA-256.
fn sealed(body: Vec<u8>) -> Vec<u8> {
    let digest = sha256(&[&body]);
    [body, digest.to_vec()].concat()
}

/// `name: hex` lines of the fenced block after the `<!-- vectors -->` marker in PROTOCOL.md.
fn documented() -> BTreeMap<String, String> {
    let block = PROTOCOL.split("<!-- vectors -->").nth(1).expect("PROTOCOL.md has a vectors marker");
    let block = block.split("```").nth(1).expect("a fenced block after the marker");
    block
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

#[test]
fn protocol_md_vectors_are_what_the_text_specifies() {
    let doc = documented();
    let computed = compute();
    for (k, v) in &computed {
        assert_eq!(doc.get(k), Some(v), "PROTOCOL.md vector {k}");
    }
    assert_eq!(doc.len(), computed.len(), "PROTOCOL.md has vectors this test does not compute");
}

#[test]
fn sessions_send_exactly_the_vector_frames() {
    let v: BTreeMap<String, String> = compute().into_iter().collect();
    let runs = [
        ("", &GAMES[0], false),
        ("invitation.", &GAMES[0], true),
        ("b.", &GAMES[1], false),
        ("c.", &GAMES[2], false),
        ("d.", &GAMES[3], false),
    ];
    for (p, game, invitation) in runs {
        let w_key = IdentityKey::from_bytes(&seed_secret("white static")).unwrap();
        let b_key = IdentityKey::from_bytes(&seed_secret("black static")).unwrap();
        let id = MatchId::from_bytes(MATCH_ID);
        let pos = game.start();
        let mut wc = MatchConfig::new(id, Color::White, pos.clone()).pin_peer(b_key.identity());
        let mut bc = MatchConfig::new(id, Color::Black, pos).pin_peer(w_key.identity());
        if invitation {
            let s = InvitationSecret::from_bytes(seed_secret("invitation"));
            wc = wc.invitation(s.clone());
            bc = bc.invitation(s);
        }
        let mut w =
            Session::new(wc, &w_key, EphemeralKey::from_bytes(&seed_secret("white ephemeral")).unwrap()).unwrap();
        let mut b =
            Session::new(bc, &b_key, EphemeralKey::from_bytes(&seed_secret("black ephemeral")).unwrap()).unwrap();
        let hello = b.poll_transmit().unwrap();
        let hello_name = if invitation { "invitation.frame.hello" } else { "frame.hello" };
        assert_eq!(hex(&hello), v[hello_name]);
        w.receive(&hello).unwrap();
        if p.is_empty() {
            assert_eq!(hex(&w.save_state().unwrap()), v["state.white.after_hello"], "White's state after the Hello");
        }
        let reply = w.poll_transmit().unwrap();
        assert_eq!(hex(&reply), v[&format!("{p}frame.reply")], "{p}reply");
        b.receive(&reply).unwrap();
        let finished = b.poll_transmit().unwrap();
        assert_eq!(hex(&finished), v[&format!("{p}frame.finished")], "{p}finished");
        w.receive(&finished).unwrap();
        assert_eq!(hex(&w.transcript_hash().unwrap()), v[&format!("{p}transcript_hash")]);
        assert_eq!(w.transcript_hash(), b.transcript_hash());
        if invitation {
            continue;
        }
        for (seq, (sender, kind, text)) in game.script.iter().enumerate() {
            let (s, r) = if *sender == Color::White { (&mut w, &mut b) } else { (&mut b, &mut w) };
            // An end by rule is sent by the side to move as soon as the move that made it arrives.
            let automatic = *kind == END && matches!(s.phase(), Phase::Closed(_));
            match *kind {
                _ if automatic => {}
                MOVE => s.play_text(text).unwrap(),
                DRAW_OFFER => s.offer_draw().unwrap(),
                DRAW_ACCEPT => s.accept_draw().unwrap(),
                DRAW_DECLINE => s.decline_draw().unwrap(),
                END => s.claim_draw(EndReason::from_wire_text(text).unwrap()).unwrap(),
                RESIGN => s.resign().unwrap(),
                _ => unreachable!(),
            }
            let f = s.poll_transmit().unwrap();
            assert_eq!(hex(&f), v[&format!("{p}message.{seq}.frame")], "{p}message {seq}");
            if p.is_empty() && seq == 1 {
                let state = hex(&s.save_state().unwrap());
                assert_eq!(state, v["state.black.after_message_1"], "Black's state after its first move");
            }
            r.receive(&f).unwrap();
        }
        assert!(w.result().is_some(), "{p}the vector game ends");
        assert_eq!(w.result(), b.result());
    }
}

/// Prints the vectors in PROTOCOL.md's format: `cargo test -p tesseract-wire --test vectors -- --ignored --nocapture`.
#[test]
#[ignore = "prints the vectors for PROTOCOL.md"]
fn print_vectors() {
    for (k, v) in compute() {
        println!("{k}: {v}");
    }
}
