//! SAN against python-chess, the oracle (issue 15): for every move of thousands of random classic and
//! Chess960 games written by `scripts/san_oracle.py` (tests/data/san_games.txt), our SAN equals
//! python-chess's and parsing python-chess's SAN gives the move back; the same live on fresh games when
//! python-chess is installed. Then SAN parsing on its own: what it accepts, what it refuses and why,
//! arbitrary text; and the 4D long form on random Tesseract games, with check and mate marks checked
//! against the naive generator.

use std::process::Command;

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{CastlingMode, Position, TextMove, start};
use tesseract_movegen::san::{self, San, SanError, SanPlus, Suffix};
use tesseract_movegen::{Legal, legal_moves, naive};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/san_games.txt");
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/san_oracle.py");

/// What a game file held, for the report and the coverage checks.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    chess960: usize,
    moves: usize,
    failures: Vec<String>,
}

/// Checks every move of a file of `san_oracle.py games` lines; the SAN texts python-chess wrote.
fn check_games(text: &str, tally: &mut Tally, sans: &mut Vec<String>) {
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "line {}: expected mode, FEN and moves", n + 1);
        let mode = match fields[0] {
            "std" => CastlingMode::Standard,
            "960" => CastlingMode::Chess960,
            other => panic!("line {}: mode {other:?}", n + 1),
        };
        let mut pos = Position::from_fen_with_mode(fields[1], mode)
            .unwrap_or_else(|e| panic!("line {}: {:?}: {e}", n + 1, fields[1]));
        tally.games += 1;
        tally.chess960 += usize::from(mode == CastlingMode::Chess960);
        let words: Vec<&str> = fields[2].split(' ').filter(|w| !w.is_empty()).collect();
        assert_eq!(words.len() % 2, 0, "line {}: uci and san in pairs", n + 1);
        for pair in words.chunks(2) {
            let (uci, theirs) = (pair[0], pair[1]);
            tally.moves += 1;
            sans.push(theirs.to_string());
            let m = match pos.parse_move(uci) {
                Ok(m) => m,
                Err(e) => {
                    tally.failures.push(format!("{}: {uci}: {e}", pos.fen()));
                    break;
                }
            };
            let ours = SanPlus::from_move(&pos, m).to_string();
            if ours != theirs {
                tally.failures.push(format!("{}: {uci}: ours {ours}, python-chess {theirs}", pos.fen()));
            }
            match san::parse_move(&pos, theirs) {
                Ok(back) if back == m => {}
                Ok(back) => tally.failures.push(format!(
                    "{}: {theirs} parsed as {}, python-chess played {uci}",
                    pos.fen(),
                    TextMove::from_move(back, &pos)
                )),
                Err(e) => tally.failures.push(format!("{}: {theirs} ({uci}): {e}", pos.fen())),
            }
            // Our text reads back as the same notation.
            let parsed: SanPlus = ours.parse().unwrap_or_else(|e| panic!("{ours}: {e}"));
            assert_eq!(parsed.to_string(), ours);
            let _ = pos.make(m);
        }
    }
}

fn count(sans: &[String], f: impl Fn(&str) -> bool) -> usize {
    sans.iter().filter(|s| f(s)).count()
}

/// Whether a SAN names its piece's file and rank (`Qh4e1`), file only (`Nbd7`) or rank only (`R1a3`).
fn disambiguation(s: &str) -> &'static str {
    let b = s.trim_end_matches(['+', '#']).as_bytes();
    if b.is_empty() || !b"KQRBN".contains(&b[0]) {
        return "";
    }
    let body: Vec<u8> = b[1..].iter().copied().filter(|&c| c != b'x').collect();
    match body.len() {
        4 => "both",
        3 if body[0].is_ascii_lowercase() => "file",
        3 => "rank",
        _ => "",
    }
}

#[test]
fn san_agrees_with_python_chess_on_the_shipped_games() {
    let text = std::fs::read_to_string(DATA).expect("tests/data/san_games.txt");
    let mut tally = Tally::default();
    let mut sans = Vec::new();
    check_games(&text, &mut tally, &mut sans);
    let features = [
        ("O-O", count(&sans, |s| s.trim_end_matches(['+', '#']) == "O-O")),
        ("O-O-O", count(&sans, |s| s.starts_with("O-O-O"))),
        ("=Q", count(&sans, |s| s.contains("=Q"))),
        ("=R", count(&sans, |s| s.contains("=R"))),
        ("=B", count(&sans, |s| s.contains("=B"))),
        ("=N", count(&sans, |s| s.contains("=N"))),
        ("+", count(&sans, |s| s.ends_with('+'))),
        ("#", count(&sans, |s| s.ends_with('#'))),
        ("pawn captures", count(&sans, |s| s.as_bytes()[0].is_ascii_lowercase() && s.contains('x'))),
        ("file", count(&sans, |s| disambiguation(s) == "file")),
        ("rank", count(&sans, |s| disambiguation(s) == "rank")),
        ("file and rank", count(&sans, |s| disambiguation(s) == "both")),
    ];
    println!("{} games ({} Chess960), {} moves: {features:?}", tally.games, tally.chess960, tally.moves);
    assert!(
        tally.failures.is_empty(),
        "{} of {} moves differ:\n{}",
        tally.failures.len(),
        tally.moves,
        tally.failures[..tally.failures.len().min(20)].join("\n")
    );
    assert!(tally.games >= 2000 && tally.chess960 >= 700, "{tally:?}");
    assert!(tally.moves >= 150_000, "{} moves", tally.moves);
    for (name, n) in features {
        // Three pieces of a kind that all reach one square are rare even in the crowded games.
        let least = if name == "file and rank" { 10 } else { 100 };
        assert!(n >= least, "only {n} moves with {name} in the sample");
    }
}

/// En passant and Chess960 castling need the position to be recognised; counted by replaying.
#[test]
fn the_shipped_games_hold_en_passant_and_chess960_castling() {
    let text = std::fs::read_to_string(DATA).expect("tests/data/san_games.txt");
    let (mut en_passant, mut castling960) = (0, 0);
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let chess960 = fields[0] == "960";
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let mut pos = Position::from_fen_with_mode(fields[1], mode).unwrap();
        for pair in fields[2].split(' ').collect::<Vec<_>>().chunks(2) {
            let m = pos.parse_move(pair[0]).unwrap();
            let target = pos.en_passant().map(|ep| ep.target);
            let pawn = pos.piece_at(m.from).is_some_and(|p| p.role.is_pawn());
            en_passant += usize::from(pawn && target == Some(m.to));
            castling960 += usize::from(chess960 && pair[1].starts_with("O-O"));
            let _ = pos.make(m);
        }
    }
    assert!(en_passant >= 100, "{en_passant} en passant captures");
    assert!(castling960 >= 100, "{castling960} Chess960 castlings");
}

fn python_chess_available() -> bool {
    Command::new("python3").args(["-c", "import chess"]).output().is_ok_and(|o| o.status.success())
}

/// Fresh games from the oracle, live: runs when python-chess is installed and is skipped otherwise
/// (set `TESSERACT_REQUIRE_ORACLE=1` to make a missing python-chess a failure, as CI does).
#[test]
fn san_agrees_with_python_chess_live() {
    if !python_chess_available() {
        assert!(
            std::env::var_os("TESSERACT_REQUIRE_ORACLE").is_none(),
            "TESSERACT_REQUIRE_ORACLE is set but python3 cannot import chess"
        );
        eprintln!("skipped: python3 cannot import chess (pip install chess)");
        return;
    }
    // Another seed than the shipped file's, so these are other games.
    let output = Command::new("python3").args([SCRIPT, "games", "77", "150"]).output().expect("python3 runs");
    assert!(output.status.success(), "{SCRIPT}: {}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let mut tally = Tally::default();
    check_games(&text, &mut tally, &mut Vec::new());
    assert_eq!(tally.games, 150);
    assert!(tally.moves > 5_000, "{} moves", tally.moves);
    assert!(tally.failures.is_empty(), "{}", tally.failures[..tally.failures.len().min(20)].join("\n"));
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(p: &Position, text: &str) -> tesseract_board::Move {
    p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn accepted_forms() {
    let start = start::chess();
    let nf3 = uci(&start, "g1f3");
    for text in ["Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Nxf3", "Nf3+", "Nf3#", "Nf3!?", "Nf3?", "Nf3+!!", "g1f3"] {
        assert_eq!(san::parse_move(&start, text), Ok(nf3), "{text}");
    }
    let e4 = uci(&start, "e2e4");
    for text in ["e4", "e2e4", "e2-e4", "e4!"] {
        assert_eq!(san::parse_move(&start, text), Ok(e4), "{text}");
    }
    let promo = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let e8q = uci(&promo, "e7e8q");
    for text in ["e8=Q", "e8Q", "e8q", "e8=q", "e8=Q+", "e7e8q", "e7e8=Q"] {
        assert_eq!(san::parse_move(&promo, text), Ok(e8q), "{text}");
    }
    assert_eq!(san::parse_move(&promo, "e8=N"), Ok(uci(&promo, "e7e8n")));
    // Castling: O-O, 0-0, and written as the king's move in both notations, classic game.
    let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = uci(&castle, "e1g1");
    for text in ["O-O", "0-0", "O-O+", "e1g1", "e1h1"] {
        assert_eq!(san::parse_move(&castle, text), Ok(short), "{text}");
    }
    let long = uci(&castle, "e1c1");
    for text in ["O-O-O", "0-0-0", "e1c1", "e1a1"] {
        assert_eq!(san::parse_move(&castle, text), Ok(long), "{text}");
    }
    assert_eq!(San::from_move(&castle, short).to_string(), "O-O");
    assert_eq!(San::from_move(&castle, long).to_string(), "O-O-O");
    // Chess960: the king on b1 and its rooks on a1 and h1 (O-O-O moves the king one file right).
    let p960 = Position::from_fen_with_mode("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", CastlingMode::Chess960).unwrap();
    let queen_side = uci(&p960, "b1a1");
    assert_eq!(SanPlus::from_move(&p960, queen_side).to_string(), "O-O-O");
    assert_eq!(san::parse_move(&p960, "O-O-O"), Ok(queen_side));
    assert_eq!(san::parse_move(&p960, "O-O"), Ok(uci(&p960, "b1h1")));
    // "Kc1" is the king's step, not castling, though castling also puts the king on c1.
    assert_eq!(san::parse_move(&p960, "Kc1"), Ok(uci(&p960, "b1c1")));
}

#[test]
fn refused_with_the_reason() {
    let start = start::chess();
    let msg = |p: &Position, text: &str| san::parse_move(p, text).unwrap_err().to_string();
    assert_eq!(msg(&start, "Nf4"), "Nf4 is not a legal move here: no knight can move to f4");
    assert_eq!(msg(&start, "Nhf3"), "Nhf3 is not a legal move here: no knight from that square can move to f3");
    assert_eq!(msg(&start, "e5"), "e5 is not a legal move here: no pawn can move to e5");
    assert_eq!(
        msg(&start, "O-O"),
        "O-O is not a legal move here: castling that way is not allowed now (a piece in between, or the king in check or passing an attacked square)"
    );
    assert_eq!(msg(&start, "e3e4"), "e3e4 is not a legal move here: no white piece stands on e3");
    assert_eq!(msg(&start, "Nf3=Q"), "\"Nf3=Q\" is not a move in algebraic notation: only a pawn promotes");
    assert_eq!(
        msg(&start, "Pe4"),
        "\"Pe4\" is not a move in algebraic notation: expected a piece letter K, Q, R, B or N, a file letter or O-O"
    );
    assert_eq!(msg(&start, ""), "\"\" is not a move in algebraic notation: empty text");
    assert_eq!(msg(&start, "Nf3!!!"), "\"Nf3!!!\" is not a move in algebraic notation: more than two ! or ? marks");
    assert_eq!(msg(&start, "é4"), "\"é4\" is not a move in algebraic notation: a character that is not ASCII");
    let rights = pos("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(msg(&rights, "O-O"), "O-O is not a legal move here: no castling right on that side");
    let promo = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(
        msg(&promo, "e8"),
        "e8 is not a legal move here: the move promotes: add the promotion piece (=Q, =R, =B or =N)"
    );
    assert_eq!(msg(&promo, "e8=K"), "e8=K is not a legal move here: a pawn cannot promote to a king");
    assert_eq!(
        msg(&promo, "e7e8"),
        "e7e8 is not a legal move here: the move promotes: add the promotion piece (Q, R, B, N)"
    );
    assert_eq!(msg(&promo, "Ke2=Q"), "\"Ke2=Q\" is not a move in algebraic notation: only a pawn promotes");
    // A 2D SAN on a 4D board, and the long form on a 2D board.
    let t = start::tesseract(start::Army::Standard);
    assert!(matches!(san::parse_move(&t, "Nf3"), Err(SanError::WrongBoard { expected: 4, found: 2, .. })));
    assert!(matches!(san::parse_move(&start, "Y2213-2313"), Err(SanError::WrongBoard { expected: 2, found: 4, .. })));
    assert_eq!(
        msg(&t, "W2213-2313"),
        "W2213-2313 is not a legal move here: the piece on 2213 is a Y-pawn, not a W-pawn"
    );
    assert_eq!(msg(&t, "Y2213-2413"), "Y2213-2413 is not a legal move here: that piece cannot move there");
    assert_eq!(msg(&t, "Y2413-2513"), "Y2413-2513 is not a legal move here: no white piece stands on 2413");
}

#[test]
fn ambiguous_moves_list_the_candidates() {
    let knights = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    let Err(SanError::Ambiguous { san, candidates }) = san::parse_move(&knights, "Nd2") else {
        panic!("Nd2 with knights on b1 and f1 is ambiguous")
    };
    assert_eq!((san.as_str(), candidates), ("Nd2", vec!["b1d2".to_string(), "f1d2".to_string()]));
    assert_eq!(San::from_move(&knights, uci(&knights, "b1d2")).to_string(), "Nbd2");
    // Rooks on one file: the rank tells them apart.
    let rooks = pos("R7/8/8/8/8/8/7k/R3K3 w - - 0 1");
    assert!(matches!(san::parse_move(&rooks, "Ra4"), Err(SanError::Ambiguous { .. })));
    let m = uci(&rooks, "a1a4");
    assert_eq!(San::from_move(&rooks, m).to_string(), "R1a4");
    assert_eq!(san::parse_move(&rooks, "R1a4"), Ok(m));
    // Queens on a1, a4 and d1 all reach d4: only file and rank together name the one on a1.
    let queens = pos("8/8/7k/8/Q7/8/8/Q2Q1K2 w - - 0 1");
    let m = uci(&queens, "a1d4");
    assert_eq!(San::from_move(&queens, m).to_string(), "Qa1d4");
    assert_eq!(san::parse_move(&queens, "Qa1d4"), Ok(m));
    assert!(matches!(san::parse_move(&queens, "Qad4"), Err(SanError::Ambiguous { .. })));
    assert!(matches!(san::parse_move(&queens, "Q1d4"), Err(SanError::Ambiguous { .. })));
    assert_eq!(San::from_move(&queens, uci(&queens, "a4d4")).to_string(), "Q4d4");
    assert_eq!(San::from_move(&queens, uci(&queens, "d1d4")).to_string(), "Qdd4");
}

#[test]
fn check_and_mate_marks() {
    let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let mate = uci(&p, "a1a8");
    assert_eq!(
        SanPlus::from_move(&p, mate),
        SanPlus { san: San::from_move(&p, mate), suffix: Some(Suffix::Checkmate) }
    );
    assert_eq!(san::to_san(&p, mate), "Ra8#");
    let p = pos("6k1/6pp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(san::to_san(&p, uci(&p, "a1a8")), "Ra8+");
}

#[test]
fn try_from_move_refuses_an_illegal_move() {
    let p = start::chess();
    let m = tesseract_board::Move::new(tesseract_board::Cell::new(12), tesseract_board::Cell::new(36));
    assert!(matches!(San::try_from_move(&p, m), Err(SanError::Illegal { .. })));
    let off = tesseract_board::Move::new(tesseract_board::Cell::new(12), tesseract_board::Cell::new(9999));
    assert!(SanPlus::try_from_move(&p, off).is_err());
}

/// Random 4D games: the long form of every move reads back as the move, and its mark agrees with the
/// naive generator's view of check and mate.
#[test]
fn the_4d_long_form_round_trips_on_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5A44_4D4D);
    let (mut moves, mut checks, mut captures, mut promotions) = (0, 0, 0, 0);
    for army in start::Army::ALL {
        for _ in 0..4 {
            let mut p = start::tesseract(army);
            for _ in 0..120 {
                let list = legal_moves(&p);
                if list.is_empty() {
                    break;
                }
                // Prefer captures and promotions, so that the game opens up and pawns promote.
                let noisy: Vec<_> =
                    list.iter().copied().filter(|m| p.piece_at(m.to).is_some() || m.promotion.is_some()).collect();
                let pool = if !noisy.is_empty() && rng.next_u32() % 3 == 0 { &noisy[..] } else { &list[..] };
                let m = pool[(rng.next_u64() % pool.len() as u64) as usize];
                let written = SanPlus::from_move(&p, m);
                let text = written.to_string();
                assert_eq!(san::parse_move(&p, &text), Ok(m), "{text} in {}", p.fen());
                assert_eq!(text.parse::<SanPlus>().unwrap(), written);
                let after = naive::play(&p.to_setup(), m);
                let us = after.turn;
                let king = after
                    .board
                    .iter()
                    .position(|x| *x == Some(tesseract_board::Piece::new(us, tesseract_board::Role::King)))
                    .unwrap();
                let in_check = naive::is_attacked(&after, tesseract_board::Cell::new(king as u16), us.other());
                let expected = match (in_check, naive::legal_moves(&after).is_empty()) {
                    (false, _) => None,
                    (true, false) => Some(Suffix::Check),
                    (true, true) => Some(Suffix::Checkmate),
                };
                assert_eq!(written.suffix, expected, "{text} in {}", p.fen());
                moves += 1;
                checks += usize::from(expected.is_some());
                captures += usize::from(matches!(written.san, San::Long { capture: true, .. }));
                promotions += usize::from(m.promotion.is_some());
                let _ = p.make(m);
            }
        }
    }
    assert!(
        moves > 1000 && checks > 10 && captures > 100 && promotions > 0,
        "{moves} {checks} {captures} {promotions}"
    );
}

#[test]
fn the_4d_long_form() {
    let p = start::tesseract(start::Army::Standard);
    let m = uci(&p, "22132313");
    assert_eq!(San::from_move(&p, m).to_string(), "Y2213-2313");
    assert_eq!(san::parse_move(&p, "Y2213x2313"), Ok(m)); // the capture mark is not checked
    assert_eq!(san::parse_move(&p, "Y2213-2313+"), Ok(m)); // nor the check mark
    let mut setup = tesseract_board::Setup::empty(tesseract_board::Shape::TESSERACT);
    let piece = |c, r| Some(tesseract_board::Piece::new(c, r));
    use tesseract_board::{Color::*, Role::*};
    setup.put(&[5, 1, 1, 1], piece(White, King));
    setup.put(&[5, 5, 5, 5], piece(Black, King));
    setup.put(&[1, 4, 1, 3], piece(White, YPawn));
    let promo = Position::from_setup(setup, CastlingMode::Standard).unwrap();
    let m = san::parse_move(&promo, "Y1413-1513=D").unwrap();
    assert_eq!(m.promotion, Some(tesseract_board::Role::Dragon));
    assert_eq!(san::parse_move(&promo, "Y1413-1513D"), Ok(m));
    assert_eq!(San::from_move(&promo, m).to_string(), "Y1413-1513=D");
    assert!(san::parse_move(&promo, "Y1413-1513").unwrap_err().to_string().contains("the move promotes"));
    let raum = start::raumschach();
    let m = uci(&raum, "121131");
    assert_eq!(SanPlus::from_move(&raum, m).to_string(), "Y121-131");
    assert_eq!(san::parse_move(&raum, "Y121-131"), Ok(m));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Any text: a move or an error, never a panic; and a text that parses prints as it reads back.
    #[test]
    fn arbitrary_text_never_panics(text in "[KQRBNUDYWPOoxX0-9a-j=+#!?@ -]{0,12}|\\PC{0,8}", which in 0usize..3) {
        let p = match which { 0 => start::chess(), 1 => start::tesseract(start::Army::Standard), _ => start::chess960(100).unwrap() };
        let _ = san::parse_move(&p, &text);
        if let Ok(s) = text.parse::<SanPlus>() {
            let again: SanPlus = s.to_string().parse().unwrap();
            prop_assert_eq!(again, s);
        }
    }
}
