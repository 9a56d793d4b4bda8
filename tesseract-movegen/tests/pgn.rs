//! PGN reading and writing (issue 15): a corpus written by python-chess (tags, comments, NAGs, nested
//! variations, Chess960 and set-up starts; tests/data/san_corpus.pgn from `scripts/san_oracle.py pgn`)
//! is read with python-chess's mainlines, written back token for token as python-chess wrote it, and
//! round-tripped; 4D and 3D games round-trip in every notation; hand-written PGN exercises what
//! python-chess never writes; random and mutated bytes never panic the reader.

use std::io::BufReader;

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{Position, TextMove, start};
use tesseract_movegen::pgn::{
    Cut, GameCutter, GameResult, Notation, PgnError, PgnErrorKind, PgnGame, PgnReader, PgnWriteError, Skip, Visitor,
    WriteOptions, read_games, write_games,
};
use tesseract_movegen::san::SanError;
use tesseract_movegen::{Legal, legal_moves};

const CORPUS: &str = include_str!("data/san_corpus.pgn");
const MAINLINES: &str = include_str!("data/san_corpus.uci");

fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

fn corpus() -> Vec<PgnGame> {
    read_games(CORPUS).map(|g| g.unwrap_or_else(|e| panic!("{e}"))).collect()
}

#[test]
fn the_python_chess_corpus_reads_with_its_mainlines() {
    let games = corpus();
    let mainlines: Vec<&str> = MAINLINES.lines().collect();
    assert_eq!(games.len(), 300);
    assert_eq!(mainlines.len(), games.len());
    let (mut moves, mut comments, mut nags, mut variations, mut chess960, mut setup) = (0, 0, 0, 0, 0, 0);
    for (i, (game, line)) in games.iter().zip(&mainlines).enumerate() {
        let mut pos = game.start.clone();
        let theirs: Vec<_> = line
            .split_whitespace()
            .map(|uci| {
                let m = pos.parse_move(uci).unwrap_or_else(|e| panic!("game {}: {uci}: {e}", i + 1));
                let _ = pos.make(m);
                m
            })
            .collect();
        assert_eq!(game.moves().collect::<Vec<_>>(), theirs, "game {}", i + 1);
        assert_eq!(game.end_position().unwrap(), pos);
        assert_eq!(game.result.as_str(), game.tag("Result").unwrap(), "game {}", i + 1);
        moves += theirs.len();
        comments += game.comments.len() + game.moves.iter().map(|m| m.comments.len()).sum::<usize>();
        nags += game.moves.iter().map(|m| m.nags.len()).sum::<usize>();
        variations += game.moves.iter().map(|m| m.variations.len()).sum::<usize>();
        chess960 += usize::from(game.tag("Variant") == Some("Chess960"));
        setup += usize::from(game.tag("Variant").is_none() && game.tag("FEN").is_some());
    }
    println!(
        "{} games, {moves} moves, {comments} comments, {nags} NAGs, {variations} variations, \
         {chess960} Chess960, {setup} set-up",
        games.len()
    );
    assert!(
        moves > 10_000 && comments > 500 && nags > 500 && variations > 300,
        "{moves} {comments} {nags} {variations}"
    );
    assert!(chess960 >= 90 && setup >= 40, "{chess960} Chess960, {setup} set-up games");
    let nested = games.iter().flat_map(|g| &g.moves).flat_map(|m| &m.variations).filter(|v| v.contains('(')).count();
    assert!(nested > 10, "{nested} nested variations");
}

/// Ours written back is python-chess's text token for token (the line breaks may differ).
#[test]
fn the_corpus_written_back_is_what_python_chess_wrote() {
    let games = corpus();
    let ours = write_games(&games).unwrap();
    let (a, b) = (words(&ours), words(CORPUS));
    if let Some(i) = a.iter().zip(&b).position(|(x, y)| x != y) {
        panic!(
            "first difference at word {i}: ours {:?}, python-chess {:?}",
            &a[i..(i + 12).min(a.len())],
            &b[i..(i + 12).min(b.len())]
        );
    }
    assert_eq!(a.len(), b.len());
}

#[test]
fn the_corpus_round_trips() {
    let games = corpus();
    let written = write_games(&games).unwrap();
    let again: Vec<PgnGame> = read_games(&written).map(Result::unwrap).collect();
    assert_eq!(again, games);
    assert_eq!(write_games(&again).unwrap(), written);
    for line in written.lines().filter(|l| !l.starts_with('[')) {
        assert!(line.chars().count() <= 80, "{line:?} is {} characters", line.chars().count());
    }
    // Skipping variations loses exactly the variations.
    let skipped: Vec<PgnGame> = PgnReader::new(CORPUS.as_bytes()).keep_variations(false).map(Result::unwrap).collect();
    let mut stripped = games.clone();
    stripped.iter_mut().flat_map(|g| &mut g.moves).for_each(|m| m.variations.clear());
    assert_eq!(skipped, stripped);
    // A BufRead over a file reads the same games.
    let path = std::env::temp_dir().join(format!("tesseract-pgn-{}.pgn", std::process::id()));
    std::fs::write(&path, CORPUS).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    let from_file: Vec<PgnGame> = PgnReader::new(BufReader::with_capacity(64, file)).map(Result::unwrap).collect();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(from_file, games);
}

/// Fresh games from python-chess's exporter, live: runs when python-chess is installed and is skipped
/// otherwise (set `TESSERACT_REQUIRE_ORACLE=1` to make a missing python-chess a failure).
#[test]
fn a_fresh_python_chess_corpus_reads_and_writes_back_live() {
    let available =
        std::process::Command::new("python3").args(["-c", "import chess"]).output().is_ok_and(|o| o.status.success());
    if !available {
        assert!(std::env::var_os("TESSERACT_REQUIRE_ORACLE").is_none(), "python3 cannot import chess");
        eprintln!("skipped: python3 cannot import chess (pip install chess)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("tesseract-pgn-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pgn, uci) = (dir.join("games.pgn"), dir.join("games.uci"));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/san_oracle.py");
    let out = std::process::Command::new("python3")
        .args([script, "pgn", "99", "60"])
        .arg(&pgn)
        .arg(&uci)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (text, mainlines) = (std::fs::read_to_string(&pgn).unwrap(), std::fs::read_to_string(&uci).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
    let games: Vec<PgnGame> = read_games(&text).map(|g| g.unwrap_or_else(|e| panic!("{e}"))).collect();
    assert_eq!(games.len(), 60);
    for (game, line) in games.iter().zip(mainlines.lines()) {
        let mut pos = game.start.clone();
        for (m, uci) in game.moves().zip(line.split_whitespace()) {
            assert_eq!(TextMove::from_move(m, &pos).to_string(), uci);
            let _ = pos.make(m);
        }
        assert_eq!(game.moves.len(), line.split_whitespace().count());
    }
    assert_eq!(words(&write_games(&games).unwrap()), words(&text));
}

/// A random game of `plies` from `start`.
fn random_game(rng: &mut ChaCha8Rng, start: Position, plies: usize) -> PgnGame {
    let mut pos = start.clone();
    let mut game = PgnGame::new(start);
    for ply in 0..plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        game.push(m);
        if ply % 7 == 3 {
            game.moves.last_mut().unwrap().comments.push(format!("ply {} of a random game", ply + 1));
        }
        if ply % 11 == 5 {
            game.moves.last_mut().unwrap().nags.push((rng.next_u32() % 20) as u8);
        }
        let _ = pos.make(m);
    }
    game.result = match pos.outcome() {
        Some(o) => GameResult::from_outcome(o),
        None => GameResult::Unknown,
    };
    game
}

#[test]
fn games_of_three_and_four_axes_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4D_6A4E);
    let mut starts: Vec<Position> = start::Army::ALL.iter().map(|&a| start::tesseract(a)).collect();
    starts.push(start::raumschach());
    let mut total = 0;
    for (i, start) in starts.iter().enumerate() {
        for _ in 0..5 {
            let game = random_game(&mut rng, start.clone(), 150);
            total += game.moves.len();
            let end = game.end_position().unwrap();
            for notation in [Notation::Auto, Notation::San, Notation::Text] {
                let text = game.write_with(&WriteOptions { notation, ..WriteOptions::default() }).unwrap();
                assert!(text.contains("[Variant \"Tesseract\"]\n"), "{text}");
                assert!(text.contains(&format!("[FEN \"{}\"]\n", start.fen())), "{text}");
                let back: PgnGame = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(back, game, "{notation:?}");
                assert_eq!(back.end_position().unwrap(), end);
                let first = TextMove::from_move(game.moves[0].mv, start).to_string();
                let long = tesseract_movegen::san::to_san(start, game.moves[0].mv);
                let body = &text[text.find("\n\n").unwrap()..];
                match notation {
                    Notation::San => assert!(body.contains(&format!("1. {long}")), "{body}"),
                    _ => assert!(body.contains(&format!("1. {first}")), "{body}"),
                }
            }
            if i < 3 {
                // The TFEN alone says the board: no Variant tag needed to read it back.
                let mut untagged = game.clone();
                untagged.tags.retain(|(n, _)| n != "Variant");
                let text = untagged.to_pgn().unwrap().replace("[Variant \"Tesseract\"]\n", "");
                assert_eq!(text.parse::<PgnGame>().unwrap().moves, game.moves);
            }
        }
    }
    assert!(total > 2000, "{total} plies");
}

#[test]
fn a_chess960_game_round_trips_with_its_variant_and_fen() {
    let mut rng = ChaCha8Rng::seed_from_u64(960);
    for number in [0, 518, 959, 123] {
        let start = start::chess960(number).unwrap();
        let game = random_game(&mut rng, start.clone(), 60);
        let text = game.to_pgn().unwrap();
        assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
        assert_eq!(text.contains("[FEN "), number != 518, "{text}");
        assert_eq!(text.parse::<PgnGame>().unwrap(), game);
    }
}

fn only(text: &str) -> PgnGame {
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 1, "{games:?}");
    games.into_iter().next().unwrap().unwrap_or_else(|e| panic!("{e}"))
}

fn error(text: &str) -> PgnError {
    read_games(text).find_map(Result::err).unwrap_or_else(|| panic!("no error in {text:?}"))
}

#[test]
fn what_python_chess_does_not_write() {
    // Several tags on a line, escapes, `;` and `%` comments, a BOM, move numbers glued to moves, `!?`.
    let text = "\u{feff}[Event \"A \\\"quoted\\\" \\\\ name\"] [Site \"x\"]\n\
                % an escape line\n\
                [Result \"*\"]\n\n\
                {before} 1.e4 ; rest of line\n\
                e5!? 2.Nf3 $14 ?! 2...Nc6 3. Bb5 a6 *\n";
    let g = only(text);
    assert_eq!(g.tag("Event"), Some("A \"quoted\" \\ name"));
    assert_eq!(g.tags.len(), 3);
    assert_eq!(g.comments, ["before"]);
    assert_eq!(g.moves[0].comments, ["rest of line"]);
    assert_eq!(only("1. e4 ; a } b\n*").moves[0].comments, ["a b"]);
    assert_eq!(g.moves[1].nags, [5]);
    assert_eq!(g.moves[2].nags, [14, 6]);
    assert_eq!(g.moves.len(), 6);
    let written = g.to_pgn().unwrap();
    assert!(
        written.starts_with("[Event \"A \\\"quoted\\\" \\\\ name\"]\n[Site \"x\"]\n[Result \"*\"]\n\n"),
        "{written}"
    );
    assert_eq!(only(&written), g);
    // No tags, no blank lines between games: each ends at its result.
    let games: Vec<PgnGame> =
        read_games("1. e4 1-0 1. d4 d5 0-1\n[White \"x\"]\n1. c4 *").map(Result::unwrap).collect();
    assert_eq!(games.iter().map(|g| g.moves.len()).collect::<Vec<_>>(), [1, 2, 1]);
    assert_eq!(
        games.iter().map(|g| g.result).collect::<Vec<_>>(),
        [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Unknown]
    );
    // A game without a result ends at the next game's tags or at the end.
    let games: Vec<PgnGame> = read_games("[A \"1\"]\n1. e4\n[A \"2\"]\n1. d4").map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].moves.len(), 1);
    // The tag's result wins over the movetext's, unless it is `*`.
    assert_eq!(only("[Result \"1/2-1/2\"]\n1. e4 *").result, GameResult::Draw);
    assert_eq!(only("[Result \"*\"]\n1. e4 0-1").result, GameResult::BlackWins);
    // A comment spanning lines, whitespace read as single spaces; UCI moves; a set-up start, Black first.
    let g = only("[FEN \"4k3/8/8/8/8/8/8/R3K2R b KQ - 0 7\"]\n7... Kd7 {a\n  long   comment} 8. e1g1 Kc6 *");
    assert_eq!(g.moves[0].comments, ["a long comment"]);
    assert!(g.to_pgn().unwrap().contains("\n\n7... Kd7 { a long comment } 8. O-O Kc6 *\n"));
    assert!(g.to_pgn().unwrap().contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K2R b KQ - 0 7\"]"));
    // Empty input and whitespace: no game.
    assert_eq!(read_games("").count(), 0);
    assert_eq!(read_games(" \n\n ").count(), 0);
    assert!(matches!("".parse::<PgnGame>(), Err(PgnError { kind: PgnErrorKind::NoGame, .. })));
}

#[test]
fn errors_say_where_and_what_and_reading_goes_on() {
    let text = "[Event \"one\"]\n\n1. e4 e5\n2. Nf3 Nf6 3. Nxe5 Qe7 4. Nf3 Nxe4 5. Qe2 Nc3+ 6. Ke2 1-0\n\n\
                [Event \"two\"]\n\n1. d4 *\n";
    let games: Vec<_> = read_games(text).collect();
    assert_eq!(games.len(), 2);
    let e = games[0].as_ref().unwrap_err();
    assert_eq!((e.game, e.line, e.ply), (1, 4, Some(11)));
    assert!(matches!(&e.kind, PgnErrorKind::Move(SanError::Illegal { san, .. }) if san == "Ke2"), "{e}");
    assert_eq!(e.to_string(), "game 1, line 4, ply 11: Ke2 is not a legal move here: no king can move to e2");
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("two"));

    let kinds = [
        ("[Event \"x]\n1. e4 *", "game 1, line 1: string not closed: no \" before the end of the line"),
        ("[Event \"x\"\n1. e4 *", "game 1, line 1: malformed tag: expected ] after the tag value"),
        ("[Event x]\n1. e4 *", "game 1, line 1: malformed tag: expected a quoted value after the tag name"),
        (
            "[Variant \"Atomic\"]\n1. e4 *",
            "game 1, line 1: unsupported variant \"Atomic\" (expected standard, Chess960 or Tesseract)",
        ),
        ("1. e4 {open", "game 1, line 1, ply 2: comment not closed: no } before the end of the game"),
        ("1. e4 (1. d4", "game 1, line 1, ply 2: variation not closed: no ) before the end of the game"),
        ("( 1. d4 ) 1. e4 *", "game 1, line 1, ply 1: a variation before the first move"),
        ("1. e4 ) *", "game 1, line 1, ply 2: ) without ("),
        ("1. e4 -- *", "game 1, line 1, ply 2: null move \"--\": a game record holds only moves of the rules"),
        ("1. e4 $300 *", "game 1, line 1, ply 2: NAG \"$300\": expected $0 to $255"),
        ("1. e4 & *", "game 1, line 1, ply 2: unexpected '&'"),
        (
            "1. e4 e5 2. Nf3 Nc6 3. Nd4 Nf6 4. Nd4 *",
            "game 1, line 1, ply 7: Nd4 is not a legal move here: no knight can move to d4",
        ),
        (
            "1. Nbd2 *",
            "game 1, line 1, ply 1: Nbd2 is not a legal move here: no knight from that square can move to d2",
        ),
        (
            "[Variant \"Tesseract\"]\n1. 22132413 *",
            "game 1, line 2, ply 1: 22132413 is not a legal move here: that piece cannot move there",
        ),
        (
            "1. 22132313 *",
            "game 1, line 1, ply 1: \"22132313\" is not a move in algebraic notation: expected a piece letter K, Q, R, B or N, a file letter or O-O",
        ),
    ];
    for (text, message) in kinds {
        assert_eq!(error(text).to_string(), message, "{text:?}");
    }
    let fen = error("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n*");
    assert!(matches!(fen.kind, PgnErrorKind::Fen { .. }), "{fen}");
    // After a bad game, the next one is read, and numbered.
    let games: Vec<_> = read_games("1. e5 *\n1. e4 *\n[A \"b\"]\n1. Qh5 *\n1. d4 *").collect();
    let numbers: Vec<_> = games.iter().map(|g| g.as_ref().map_or_else(|e| e.game, |g| g.moves.len())).collect();
    assert_eq!(numbers, [1, 1, 3, 1]);
}

#[test]
fn writing_checks_the_moves_and_the_tags() {
    let mut game = PgnGame::from_moves(start::chess(), [start::chess().parse_move("e2e4").unwrap()]);
    game.push(game.moves[0].mv); // e2e4 again, now illegal
    assert!(matches!(game.to_pgn(), Err(PgnWriteError::IllegalMove { ply: 2, .. })));
    assert!(matches!(game.end_position(), Err(PgnWriteError::IllegalMove { ply: 2, .. })));
    game.moves.pop();
    game.set_tag("Bad Name", "x");
    assert!(matches!(game.to_pgn(), Err(PgnWriteError::TagName(_))));
    game.tags.pop();
    // A result field the tags disagree with is written from the field; the roster order is kept.
    game.result = GameResult::WhiteWins;
    let text = game.to_pgn().unwrap();
    assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n"), "{text}");
    // Long comments wrap at 80 columns, a word per piece.
    game.moves[0].comments.push("word ".repeat(60));
    game.moves[0].comments.push("a } inside".into());
    let text = game.to_pgn().unwrap();
    assert!(text.lines().all(|l| l.len() <= 80), "{text}");
    assert!(words(&text).join(" ").contains("} { a inside } 1-0"), "{text}");
    // Without comments, variations, and in UCI.
    game.moves[0].variations.push("1. d4 d5".into());
    let plain = game
        .write_with(&WriteOptions {
            comments: false,
            variations: false,
            notation: Notation::Text,
            ..WriteOptions::default()
        })
        .unwrap();
    assert!(plain.ends_with("\n\n1. e2e4 1-0\n"), "{plain}");
    assert_eq!(plain.parse::<PgnGame>().unwrap().moves().collect::<Vec<_>>(), game.moves().collect::<Vec<_>>());
}

/// A game as written and read back.
fn written_and_read(g: &PgnGame) -> PgnGame {
    let text = g.to_pgn().unwrap();
    text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A game with its tags as writing makes them (the result, the start's tags).
fn exported(g: &PgnGame) -> PgnGame {
    PgnGame { tags: g.export_tags(), ..g.clone() }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Random bytes: games or errors, never a panic.
    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        for g in PgnReader::new(&bytes[..]).flatten() {
            prop_assert_eq!(written_and_read(&g), exported(&g));
        }
    }

    /// The corpus's first games with a few bytes changed, cut or repeated: every game read is written and
    /// read back the same, every error is a typed error.
    #[test]
    fn mutated_pgn_never_panics(edits in prop::collection::vec((any::<u16>(), 0u8..4, any::<u8>()), 1..6), len in 200usize..4000) {
        let mut bytes = CORPUS.as_bytes()[..len.min(CORPUS.len())].to_vec();
        const ALPHABET: &[u8] = b"[]{}()\";%$!?.*-01/2345678abcdefghNBRQKOx=+# \n";
        for (at, op, b) in edits {
            let at = at as usize % bytes.len().max(1);
            match op {
                0 => { if !bytes.is_empty() { bytes[at] = ALPHABET[b as usize % ALPHABET.len()]; } }
                1 => { if !bytes.is_empty() { bytes.remove(at); } }
                2 => bytes.insert(at, ALPHABET[b as usize % ALPHABET.len()]),
                _ => bytes.insert(at, b),
            }
        }
        for game in PgnReader::new(&bytes[..]) {
            match game {
                Ok(g) => prop_assert_eq!(written_and_read(&g), exported(&g)),
                Err(e) => prop_assert!(e.game >= 1 && e.line >= 1 && !e.to_string().is_empty()),
            }
        }
    }
}

/// `0000` is UCI's null move, not a move number: a game with one is refused by name (python-chess reads
/// it as a null move; a `Move` cannot be one), never read as a different game.
#[test]
fn a_null_move_is_refused_not_skipped() {
    let err = read_games("1. e4 0000 2. e5 0000 3. Nf3 *\n").next().unwrap().unwrap_err();
    assert!(matches!(err.kind, PgnErrorKind::NullMove(ref t) if t == "0000"), "{err}");
    assert_eq!(err.ply, Some(2), "{err}");
}

/// A tab in a tag value reads as a space, as the writer writes it: reading, writing and reading again
/// gives the same game (proptest found "2024.07.04\t").
#[test]
fn a_tab_in_a_tag_value_round_trips() {
    let game = read_games("[Date \"2024.07.04\t\"]\n[Result \"*\"]\n\n1. e4 *\n").next().unwrap().unwrap();
    assert_eq!(game.tag("Date"), Some("2024.07.04 "));
    let again = read_games(&game.to_pgn().unwrap()).next().unwrap().unwrap();
    assert_eq!(again, game);
}

/// Files joined with `cat`, each starting with a byte-order mark: every game reads (the outside review
/// found the second file's first game lost: its tag line did not start with `[`).
#[test]
fn a_byte_order_mark_before_any_game_is_skipped() {
    let a = "\u{feff}[Event \"a\"]\n\n1. e4 e5 *\n";
    let b = "\u{feff}[Event \"b\"]\n\n1. d4 d5 2. c4 1-0\n";
    let c = "\u{feff}1. Nf3 *\n";
    let joined = format!("{a}{b}{c}");
    let games: Vec<PgnGame> = read_games(&joined).map(|g| g.unwrap_or_else(|e| panic!("{e}"))).collect();
    assert_eq!(games.iter().map(|g| g.tag("Event")).collect::<Vec<_>>(), [Some("a"), Some("b"), None]);
    assert_eq!(games.iter().map(|g| g.moves.len()).collect::<Vec<_>>(), [2, 3, 1]);
    // A file without a final line end: the mark stands after the result, on the same line.
    let games: Vec<PgnGame> =
        read_games(&format!("{}{b}", a.trim_end())).map(|g| g.unwrap_or_else(|e| panic!("{e}"))).collect();
    assert_eq!(games.iter().map(|g| g.tag("Event")).collect::<Vec<_>>(), [Some("a"), Some("b")]);
    // Through a small buffer, so that the mark and the tag line arrive in pieces.
    let games: Vec<_> = PgnReader::new(BufReader::with_capacity(2, joined.as_bytes())).collect();
    assert_eq!(games.iter().filter(|g| g.is_ok()).count(), 3, "{games:?}");
}

/// A game over the reader's cap is reported, naming the game and the cap, and the next game is read;
/// games under the cap are read whatever the whole text's size (untagged games one after another too).
#[test]
fn a_game_over_the_cap_is_reported_and_the_next_one_read() {
    let cap = 4096;
    let comment = "a long comment ".repeat(1000);
    for (name, long_game) in [
        ("comment on one line", format!("[Event \"long\"]\n\n1. e4 {{{comment}}} e5 2. Nf3 1-0\n")),
        (
            "comment over lines",
            format!("[Event \"long\"]\n\n1. e4 {{{}}} e5 *\n", comment.replace("comment", "comment\n")),
        ),
        ("no result, next tags", format!("[Event \"long\"]\n\n1. e4 {{{comment}}} e5\n")),
        ("before the tags", format!("{{{comment}}}\n[Event \"long\"]\n\n1. e4 e5 *\n")),
    ] {
        let text = format!("[Event \"first\"]\n\n1. c4 *\n\n{long_game}\n[Event \"next\"]\n\n1. d4 d5 *\n1. g3 *\n");
        let games: Vec<_> = PgnReader::new(BufReader::with_capacity(64, text.as_bytes())).max_game_bytes(cap).collect();
        assert_eq!(games.len(), 4, "{name}: {games:?}");
        assert_eq!(games[0].as_ref().unwrap().tag("Event"), Some("first"), "{name}");
        let err = games[1].as_ref().unwrap_err();
        assert_eq!(err.kind, PgnErrorKind::GameTooLong { max_bytes: cap }, "{name}");
        assert_eq!((err.game, err.ply), (2, None), "{name}");
        assert!(err.to_string().starts_with("game 2, line "), "{name}: {err}");
        assert!(err.to_string().contains("longer than 4096 bytes"), "{name}: {err}");
        let next = games[2].as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((next.tag("Event"), next.moves.len()), (Some("next"), 2), "{name}");
        assert_eq!(games[3].as_ref().unwrap().moves.len(), 1, "{name}");
        // With the default cap (16 MiB) the same text reads whole.
        assert_eq!(read_games(&text).filter(Result::is_ok).count(), 4, "{name}");
    }
    // A thousand untagged games, 20 KB in all, each far under a cap of 256 bytes.
    let many = "1. e4 e5 2. Nf3 Nc6 *\n".repeat(1000);
    let games: Vec<_> = PgnReader::new(many.as_bytes()).max_game_bytes(256).collect();
    assert_eq!(games.len(), 1000);
    assert!(games.iter().all(|g| g.as_ref().is_ok_and(|g| g.moves.len() == 4)));
    // Tagged games without blank lines or results, each under the cap.
    let tagged = "[Event \"x\"]\n1. e4 e5\n".repeat(500);
    let games: Vec<_> = PgnReader::new(tagged.as_bytes()).max_game_bytes(64).collect();
    assert_eq!(games.len(), 500);
    assert!(games.iter().all(Result::is_ok));
}

/// The parallel reader gives the sequential reader's items in its order (games, errors and their
/// numbers), on the python-chess corpus, on texts with bad and over-long games, and on texts of more
/// than one batch.
#[test]
fn the_parallel_reader_gives_what_the_sequential_one_gives() {
    let comment = "a long comment ".repeat(1000);
    let bad = "1. e5 *\n1. e4 *\n[A \"b\"]\n1. Qh5 *\n1. d4 *\n1. e4 {open";
    let long =
        format!("[Event \"first\"]\n\n1. c4 *\n\n[Event \"long\"]\n\n1. e4 {{{comment}}} e5 *\n1. d4 Ke3 *\n1. g3 *\n");
    let big = format!("{CORPUS}\n{bad}\n").repeat(1 + (2 << 20) / CORPUS.len());
    for (name, text, cap) in [
        ("corpus", CORPUS, usize::MAX),
        ("bad games", bad, usize::MAX),
        ("over the cap", &long, 4096),
        ("big", &big, usize::MAX),
    ] {
        let sequential: Vec<_> =
            PgnReader::new(BufReader::with_capacity(256, text.as_bytes())).max_game_bytes(cap).collect();
        let parallel: Vec<_> =
            PgnReader::new(BufReader::with_capacity(256, text.as_bytes())).max_game_bytes(cap).parallel().collect();
        assert!(sequential.iter().any(Result::is_ok), "{name}");
        assert_eq!(parallel.len(), sequential.len(), "{name}");
        assert!(parallel == sequential, "{name}: the items differ");
    }
}

/// Without variations, a game is the full read's with its variations dropped; without movetext, its tags,
/// start and result, no moves: on the python-chess corpus (nested variations, comments in them, set-up
/// starts) and on a text whose second game has an illegal move (read without error when moves are not).
#[test]
fn variations_and_movetext_can_be_skipped() {
    let text = format!(
        "{CORPUS}\n[Event \"illegal\"]\n[Result \"0-1\"]\n\n1. e4 Ke7 (1... e5 2. Nf3) 0-1\n[Event \"last\"]\n\n1. d4 *\n"
    );
    let full: Vec<_> = read_games(&text).collect();
    let plain: Vec<_> = PgnReader::new(text.as_bytes()).keep_variations(false).collect();
    let tags: Vec<_> = PgnReader::new(text.as_bytes()).read_movetext(false).collect();
    assert_eq!((plain.len(), tags.len()), (full.len(), full.len()));
    assert!(full.iter().filter_map(|g| g.as_ref().ok()).any(|g| g.moves.iter().any(|m| !m.variations.is_empty())));
    for (i, ((full, plain), tags)) in full.iter().zip(&plain).zip(&tags).enumerate() {
        let tags = tags.as_ref().unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        match full {
            Ok(full) => {
                let mut without = full.clone();
                without.moves.iter_mut().for_each(|m| m.variations.clear());
                assert_eq!(plain.as_ref().unwrap(), &without, "game {}", i + 1);
                assert_eq!(
                    (&tags.tags, &tags.start, tags.result),
                    (&full.tags, &full.start, full.result),
                    "game {}",
                    i + 1
                );
                assert!(tags.moves.is_empty());
            }
            Err(e) => {
                assert_eq!(plain.as_ref().unwrap_err(), e);
                assert_eq!(tags.tag("Event"), Some("illegal"));
                assert_eq!(tags.result, GameResult::BlackWins);
            }
        }
    }
    assert!(full.iter().filter(|g| g.is_err()).count() == 1);
}

/// The games are the same however the source hands out its bytes (a comment, a tag line or a `;` comment
/// cut anywhere by the end of a buffer).
#[test]
fn reading_in_small_pieces_gives_the_same_games() {
    let text = format!(
        "{CORPUS}\n[Event \"x\"]\n\n1. e4 {{ a comment\nover lines }} e5 ; to the end {{ of the line\n2. Nf3\n% a line\n*\n1. e4 e5 (1... c5 {{c}}) 1-0\n"
    );
    let whole: Vec<_> = read_games(&text).collect();
    assert!(whole.len() > 100 && whole.iter().all(Result::is_ok));
    for cap in [1, 2, 3, 7, 64, 4096] {
        let pieces: Vec<_> = PgnReader::new(BufReader::with_capacity(cap, text.as_bytes())).collect();
        assert!(pieces == whole, "buffers of {cap} bytes");
    }
}

/// The cuts of a text fed to a [`GameCutter`] in pieces of `piece` bytes: each cut's position (the end of
/// the game before it) and kind.
fn cuts(text: &[u8], piece: usize) -> Vec<(usize, Cut)> {
    let mut cutter = GameCutter::new();
    let mut out = Vec::new();
    let mut line_start = 0;
    let mut at = 0;
    for chunk in text.chunks(piece) {
        let mut rest = chunk;
        while !rest.is_empty() {
            let scan = cutter.scan(rest);
            if let Some(offset) = scan.line_start {
                line_start = at + offset;
            }
            at += scan.read;
            rest = &rest[scan.read..];
            match scan.cut {
                Some(Cut::AfterLine) => out.push((at, Cut::AfterLine)),
                Some(Cut::BeforeLine) => out.push((line_start, Cut::BeforeLine)),
                None => {}
            }
        }
    }
    out
}

#[test]
fn game_cutter_cuts_the_same_in_pieces_of_any_size() {
    let text = "[Event \"a\"]\n1. e4 { 1-0\n} e5 (1... c5 0-1) ; 1-0\n% 1-0\n2. Nf3 *\n\n[Event \"b\"]\n1. d4 d5\n\n\
                [Event \"c\"]\n\u{feff}1. c4 1/2-1/2\n";
    let whole = cuts(text.as_bytes(), text.len());
    let a = text.find("\n\n[Event \"b").unwrap() + 1;
    let c = text.find("[Event \"c").unwrap();
    assert_eq!(whole, [(a, Cut::AfterLine), (c, Cut::BeforeLine), (text.len(), Cut::AfterLine)]);
    for piece in 1..text.len() {
        assert_eq!(cuts(text.as_bytes(), piece), whole, "pieces of {piece} bytes");
    }
}

#[test]
fn game_cutter_ends_a_string_at_its_line_end() {
    // A backslash last on a line escapes nothing on the next: the empty string there is closed.
    let text = "1. e4 \"a\\\n1. d4 \"\" 1-0\n1. c4 *\n";
    assert_eq!(cuts(text.as_bytes(), text.len()), [(text.len() - 8, Cut::AfterLine), (text.len(), Cut::AfterLine)]);
}

#[test]
fn game_cutter_starts_each_game_with_no_variation_open() {
    // A variation left open by one game does not hide the results of the next.
    let text = "1. e4 (1. d4\n[Event \"b\"]\n1. c4 1-0\n1. Nf3 0-1\n";
    let b = text.find('[').unwrap();
    let c = text.find("1. Nf3").unwrap();
    assert_eq!(cuts(text.as_bytes(), 5), [(b, Cut::BeforeLine), (c, Cut::AfterLine), (text.len(), Cut::AfterLine)]);
    let games: Vec<_> = PgnReader::new(text.as_bytes()).collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[2].as_ref().unwrap().result, GameResult::BlackWins);
}

/// Texts that hold no game where the reader first looks: the parallel reader reads on to the games after
/// a batch of comments and NAGs alone, and the reader without movetext counts the games the full read
/// counts (no game of a move number or a NAG alone after a result; a stray `)` an error in both).
#[test]
fn batches_and_texts_without_a_game() {
    let text = format!("1. e4 {{{}}} *\n{}\n[Event \"b\"]\n1. d4 *\n", "x".repeat(1_100_000), "$1 ".repeat(400_000));
    let sequential: Vec<_> = read_games(&text).collect();
    let parallel: Vec<_> = PgnReader::new(text.as_bytes()).parallel().collect();
    assert_eq!(sequential.len(), 2);
    assert!(parallel == sequential);
    for text in ["1. e4 e5 1-0\n2.\n", "1. e4 e5 1-0 !\n", "1. e4 e5 1-0\n) *\n[Event \"x\"]\n1. d4 *\n"] {
        let full: Vec<_> = read_games(text).collect();
        let tags: Vec<_> = PgnReader::new(text.as_bytes()).read_movetext(false).collect();
        assert_eq!(tags.len(), full.len(), "{text:?}");
        for (t, f) in tags.iter().zip(&full) {
            assert_eq!(t.is_ok(), f.is_ok(), "{text:?}: {t:?} {f:?}");
        }
    }
}

/// A compressed stream is told from text by its first four bytes however few a read gives, and a
/// skippable frame before it is no text either.
#[cfg(feature = "zstd")]
#[test]
fn zstd_streams_are_told_by_their_first_bytes_whatever_the_reads() {
    use std::io::Read;
    /// A source that gives one byte a read, as a slow pipe may.
    struct Trickle(std::io::Cursor<Vec<u8>>);
    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(1);
            self.0.read(&mut buf[..n])
        }
    }
    let text = "[Event \"x\"]\n\n1. e4 e5 *\n\n[Event \"y\"]\n\n1. d4 d5 1-0\n";
    let packed = zstd::encode_all(text.as_bytes(), 3).unwrap();
    let mut skippable = vec![0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4];
    skippable.extend_from_slice(&packed);
    let want: Vec<_> = read_games(text).collect();
    for (name, bytes) in [("plain", text.as_bytes().to_vec()), ("zstd", packed), ("skippable frame first", skippable)] {
        let games: Vec<_> =
            tesseract_movegen::pgn::decompressed(Trickle(std::io::Cursor::new(bytes))).unwrap().collect();
        assert!(games == want, "{name}: {games:?}");
    }
}

/// Pieces of PGN text that matter to where a game ends.
const CUTTER_TOKENS: &[&str] = &[
    "e4", "Nf3", "1.", "12...", "1-0", "0-1", "1/2-1/2", "*", "{", "}", ";", "(", ")", "\"", "\\", "[", "]", "%", "$1",
    "!?", "-", "--", "+-", "x1-0", "\u{feff}", "\u{f000}", "é", " ", " ", "  ", "\t", "\n", "\n", "\r\n",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The cutter's whole-line reading of plain movetext cuts where its byte-wise reading does (pieces of
    /// one byte leave it nothing to read a line at once).
    #[test]
    fn game_cutter_reads_lines_as_it_reads_bytes(tokens in prop::collection::vec(0..CUTTER_TOKENS.len(), 0..80)) {
        let text: String = tokens.iter().map(|&k| CUTTER_TOKENS[k]).collect();
        let bytewise = cuts(text.as_bytes(), 1);
        prop_assert_eq!(cuts(text.as_bytes(), text.len().max(1)), bytewise.clone(), "{:?}", text);
        prop_assert_eq!(cuts(text.as_bytes(), 7), bytewise, "{:?}", text);
    }
}

/// A visitor that writes down every call, in order: what a game's calls were.
#[derive(Clone, Default)]
struct Record {
    skip: bool,
    variations: bool,
    calls: Vec<String>,
}

impl Visitor for Record {
    type Output = Vec<String>;

    fn begin_game(&mut self) {
        self.calls = vec!["begin".to_string()];
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.calls.push(format!("tag {name}={value}"));
    }

    fn begin_movetext(&mut self, start: &Position) -> Skip {
        self.calls.push(format!("start {}", start.fen()));
        Skip(self.skip)
    }

    fn play(&mut self, before: &Position, m: tesseract_board::Move) {
        self.calls.push(format!("play {}", TextMove::from_move(m, before)));
        // The position the reader plays on is the one the moves so far lead to.
        assert!(before.is_legal(m));
    }

    fn reached(&mut self, after: &Position) {
        self.calls.push(format!("reached {:x}", after.hash()));
    }

    fn comment(&mut self, text: &str) {
        // Raw text; a game keeps it with whitespace runs (and a `;` comment's `}`) read as single spaces.
        let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == '}').filter(|w| !w.is_empty()).collect();
        self.calls.push(format!("comment {}", words.join(" ")));
    }

    fn nag(&mut self, nag: u8) {
        self.calls.push(format!("nag {nag}"));
    }

    fn wants_variations(&self) -> bool {
        self.variations
    }

    fn variation(&mut self, raw: &str) {
        self.calls.push(format!("variation {raw}"));
    }

    fn end_game(&mut self, result: GameResult) -> Vec<String> {
        self.calls.push(format!("end {result}"));
        std::mem::take(&mut self.calls)
    }
}

/// The calls a visitor should see for a game the iterator read: its tags, start, moves with the positions
/// they reach, comments, NAGs, variations (when asked) and result, in the order of the text.
fn expected_calls(game: &PgnGame, variations: bool) -> Vec<String> {
    let mut calls = vec!["begin".to_string()];
    calls.extend(game.tags.iter().map(|(n, v)| format!("tag {n}={v}")));
    calls.push(format!("start {}", game.start.fen()));
    calls.extend(game.comments.iter().map(|c| format!("comment {c}")));
    let mut pos = game.start.clone();
    for m in &game.moves {
        calls.push(format!("play {}", TextMove::from_move(m.mv, &pos)));
        let _ = pos.make(m.mv);
        calls.push(format!("reached {:x}", pos.hash()));
        // The iterator keeps a move's annotations by kind; their order among kinds is the text's.
        calls.extend(m.comments.iter().map(|c| format!("comment {c}")));
        calls.extend(m.nags.iter().map(|n| format!("nag {n}")));
        if variations {
            calls.extend(m.variations.iter().map(|v| format!("variation {v}")));
        }
    }
    calls.push(format!("end {}", game.result));
    calls
}

/// Sorts the annotations after each move (comments, NAGs, variations) so that the orders can be compared.
fn by_kind(calls: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<String> = Vec::new();
    for c in calls {
        if c.starts_with("comment ") || c.starts_with("nag ") || c.starts_with("variation ") {
            run.push(c);
        } else {
            run.sort_by_key(|c| ["comment", "nag", "variation"].iter().position(|k| c.starts_with(k)));
            out.append(&mut run);
            out.push(c);
        }
    }
    out
}

/// The visitor is told what the iterator builds, in the text's order, on the python-chess corpus (comments,
/// NAGs, nested variations, set-up starts) with bad games between good ones; errors are the iterator's,
/// numbered the same; a visitor that skips the moves is told the tags, start and result alone; the
/// parallel reader gives the sequential reader's items.
#[test]
fn a_visitor_is_told_what_the_iterator_builds() {
    let text = format!("{CORPUS}\n1. e5 *\n[A \"b\"]\n1. Qh5 {{x}} *\n1. e4 {{open\n");
    let games: Vec<_> = read_games(&text).collect();
    assert!(games.iter().filter(|g| g.is_err()).count() >= 3);
    for variations in [false, true] {
        let mut reader = PgnReader::new(BufReader::with_capacity(100, text.as_bytes()));
        let mut record = Record { variations, ..Record::default() };
        let mut n = 0;
        while let Some(read) = reader.read_game(&mut record) {
            match (&games[n], read) {
                (Ok(game), Ok(calls)) => {
                    assert_eq!(by_kind(calls), by_kind(expected_calls(game, variations)), "game {}", n + 1)
                }
                (Err(want), Err(got)) => assert_eq!(&got, want),
                (want, got) => panic!("game {}: {want:?} read as {got:?}", n + 1),
            }
            n += 1;
        }
        assert_eq!(n, games.len());
    }
    let mut reader = PgnReader::new(text.as_bytes());
    let mut tags_only = Record { skip: true, ..Record::default() };
    let mut skipped = 0;
    while let Some(read) = reader.read_game(&mut tags_only) {
        if let Ok(calls) = read {
            assert!(calls.iter().all(|c| !c.starts_with("play") && !c.starts_with("comment")), "{calls:?}");
            skipped += 1;
        }
    }
    assert!(skipped >= 300);
    let record = Record { variations: true, ..Record::default() };
    let mut sequential = Vec::new();
    let mut reader = PgnReader::new(text.as_bytes());
    while let Some(read) = reader.read_game(&mut record.clone()) {
        sequential.push(read);
    }
    let parallel: Vec<_> =
        PgnReader::new(BufReader::with_capacity(256, text.as_bytes())).parallel_visit(record).collect();
    assert!(parallel == sequential, "the parallel visit differs");
}

/// Move numbers read however they are written (digits and periods, apart or not, or digits alone on a 2D
/// board), and `0000` refused as a null move even before a period.
#[test]
fn move_numbers_in_every_form() {
    for text in [
        "1. e4 e5 2. Nf3 *",
        "1.e4 1...e5 2.Nf3 *",
        "1 . e4 1 ... e5 2 Nf3 *",
        "e4 e5 Nf3 *",
        "1.\ne4\n1...\ne5 2.\nNf3 *",
    ] {
        let game = only(text);
        assert_eq!(game.moves.len(), 3, "{text}");
    }
    for text in ["1. e4 0000. *", "1. e4 0000 *", "1. e4 -- *"] {
        assert!(matches!(error(text).kind, PgnErrorKind::NullMove(_)), "{text}");
    }
}

/// The first bytes of a byte-order mark that is none (U+F000 starts with the mark's first byte) make their
/// line movetext that ends no game, however the text is fed: the line-at-a-time reading does not carry
/// them past the line end (found by review).
#[test]
fn game_cutter_weighs_a_false_byte_order_mark_at_its_line_end() {
    for text in ["\u{f000} e4\ne5 1-0\ne4 *\n", "\u{f000}e4 e5\nNf3 Nc6 0-1\n1. d4 *\n"] {
        let whole = cuts(text.as_bytes(), text.len());
        assert_eq!(cuts(text.as_bytes(), 1), whole, "{text:?}");
        assert_eq!(whole.len(), 2, "{text:?}: {whole:?}");
    }
}

/// A visitor that writes down every call of every game, in one log that no game resets: reading in place
/// and the cut reading must tell it the same calls, none twice.
#[derive(Default)]
struct Log(Vec<String>, bool);

impl Visitor for Log {
    type Output = ();

    fn begin_game(&mut self) {
        self.0.push("begin".to_string());
        self.1 = false;
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.0.push(format!("tag {name}={value}"));
        self.1 |= name == "White";
    }

    fn begin_movetext(&mut self, start: &Position) -> Skip {
        self.0.push(format!("start {}", start.fen()));
        // The moves of games with a White tag skipped, as a tags-only reader skips them.
        Skip(self.1)
    }

    fn play(&mut self, before: &Position, m: tesseract_board::Move) {
        self.0.push(format!("play {}", TextMove::from_move(m, before)));
    }

    fn reached(&mut self, after: &Position) {
        self.0.push(format!("reached {:x}", after.hash()));
    }

    fn comment(&mut self, text: &str) {
        self.0.push(format!("comment {text}"));
    }

    fn nag(&mut self, nag: u8) {
        self.0.push(format!("nag {nag}"));
    }

    fn wants_variations(&self) -> bool {
        true
    }

    fn variation(&mut self, raw: &str) {
        self.0.push(format!("variation {raw}"));
    }

    fn end_game(&mut self, result: GameResult) {
        self.0.push(format!("end {result}"));
    }
}

/// Pieces of PGN text: plain games (which are read in place) mixed with everything the cutter reads its
/// own way (`;` and `%` lines, strings, brackets, byte-order marks, results with more after them on their
/// line, bytes that are not UTF-8 are added by the test).
const IN_PLACE_PIECES: &[&str] = &[
    "[Event \"a\"]\n",
    "[White \"b\"]\n",
    "[Result \"1-0\"]\n",
    "\n",
    "\n\n",
    " ",
    "1. e4 ",
    "e5 ",
    "2. Nf3 ",
    "Nc6 ",
    "3. Bb5 ",
    "a6 ",
    "{ [%clk 0:01:00] } ",
    "{ over\nlines } ",
    "$1 ",
    "!? ",
    "(2. d4 d5) ",
    "(1... c5 (1... e6)) ",
    "1-0\n",
    "0-1\n",
    "1/2-1/2\n",
    "*\n",
    "1-0",
    "*",
    "1-0 ",
    "Ke2 ",
    "Qh5 ",
    "[Event \"c\"] [Site \"d\"]\n",
    ";x\n",
    "%y\n",
    "\"s\"",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "\u{feff}",
    "é",
    "\r\n",
    "\t",
    "[Event \"x\"] {\n",
    "[Event\n",
    "\"x\"]\n",
    "(e5\n",
    "[Site \"y\"]\n)",
    "-- ",
    "4... ",
    "\u{f000}",
    "a%b ",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Reading in place gives what the cut reading gives (`read_ahead(0)`): the same games and errors, in
    /// the same order, and the same calls to a visitor in the same order (none twice), whatever the text
    /// ahead (from a byte, which makes nearly every game give way to the cut reading, to the default), the
    /// source's pieces and the cap.
    #[test]
    fn reading_in_place_gives_what_the_cut_reading_gives(
        pieces in prop::collection::vec(0..IN_PLACE_PIECES.len() + 1, 0..120),
        ahead in prop::sample::select(vec![1usize, 3, 16, 64, 300, 32 << 10]),
        buffer in prop::sample::select(vec![1usize, 7, 64, 8192]),
        cap in prop::sample::select(vec![40usize, 200, usize::MAX]),
        movetext in any::<bool>(),
    ) {
        // The index past the pieces stands for a byte that is not UTF-8.
        let text: Vec<u8> = pieces
            .iter()
            .flat_map(|&k| IN_PLACE_PIECES.get(k).map_or(&[0xff_u8][..], |p| p.as_bytes()).iter().copied())
            .collect();
        let reader = |ahead| {
            PgnReader::new(BufReader::with_capacity(buffer, &text[..])).read_ahead(ahead).max_game_bytes(cap).read_movetext(movetext)
        };
        let cut: Vec<_> = reader(0).collect();
        let in_place: Vec<_> = reader(ahead).collect();
        prop_assert!(in_place == cut, "{:?}", String::from_utf8_lossy(&text));
        // Over the cap, a game that gave way may have told its first calls before its error: the calls are
        // compared without a cap, the results with it too.
        let log = |ahead, cap| {
            let (mut reader, mut log) = (reader(ahead).max_game_bytes(cap), Log::default());
            let results: Vec<_> = std::iter::from_fn(|| reader.read_game(&mut log)).collect();
            (results, log.0)
        };
        prop_assert!(log(ahead, cap).0 == log(0, cap).0, "{:?}", String::from_utf8_lossy(&text));
        let (results, in_place_log) = log(ahead, usize::MAX);
        let (cut_results, cut_log) = log(0, usize::MAX);
        prop_assert!(results == cut_results, "{:?}", String::from_utf8_lossy(&text));
        prop_assert_eq!(in_place_log, cut_log, "{:?}", String::from_utf8_lossy(&text));
    }
}

/// What a fresh-eyes review found reading in place read otherwise than the cut reading: a tag over two
/// lines (the cutter reads its second line as movetext, so a tag line after it starts a new game), and a
/// tag line inside a variation of a game whose moves are skipped (the cutter starts a new game there too).
#[test]
fn reading_in_place_gives_way_where_the_cutter_reads_otherwise() {
    for (text, movetext) in [
        ("[Event\n\"x\"]\n[Site \"y\"]\n1. e4 *\n", true),
        ("[Event\n\"x\"]\n[Site \"y\"]\n1. e4 ;c\n*\n", true),
        // The White tag makes `Log` skip the moves too.
        ("[White \"w\"]\n1. e4 (e5\n[Event \"y\"]\n) *\n", false),
    ] {
        let read = |ahead| {
            let games: Vec<_> = PgnReader::new(text.as_bytes()).read_ahead(ahead).read_movetext(movetext).collect();
            games
        };
        let cut = read(0);
        assert_eq!(cut.len(), 2, "{text:?}: {cut:?}");
        assert!(read(1 << 10) == cut, "{text:?}");
        let log = |ahead| {
            let reader = PgnReader::new(text.as_bytes()).read_ahead(ahead).read_movetext(movetext);
            let (mut reader, mut log) = (reader, Log::default());
            let results: Vec<_> = std::iter::from_fn(|| reader.read_game(&mut log)).collect();
            (results, log.0)
        };
        assert!(log(1 << 10) == log(0), "{text:?}");
    }
}

/// Plain games are read in place and give what the cut reading gives: the python-chess corpus, in pieces
/// of every size from the source and with text ahead of every size.
#[test]
fn the_corpus_reads_the_same_in_place() {
    let cut: Vec<_> = PgnReader::new(CORPUS.as_bytes()).read_ahead(0).collect();
    assert!(cut.len() >= 300 && cut.iter().all(Result::is_ok));
    for (ahead, buffer) in [(1, 4096), (100, 7), (1000, 64), (32 << 10, 8192)] {
        let mut reader = PgnReader::new(BufReader::with_capacity(buffer, CORPUS.as_bytes())).read_ahead(ahead);
        let in_place: Vec<_> = reader.by_ref().collect();
        assert!(in_place == cut, "text ahead {ahead}, pieces of {buffer}");
        // With the default room ahead, every game of the corpus is plain (each ends with a result alone on its
        // line); with less, its longer games give way.
        if ahead == 32 << 10 {
            assert_eq!(reader.games_read_in_place(), cut.len() as u64, "text ahead {ahead}");
        }
    }
    // Games that all give way to the cut reading late (a `%` line before the result): after 16 of them the
    // reader reads the cut way alone, and the games are the same.
    let late = "[Event \"x\"]\n1. e4 e5 2. Nf3 Nc6 { note }\n%escape\n3. Bb5 1-0\n\n";
    let plain = "[Event \"y\"]\n1. d4 d5 1-0\n\n";
    for (lates, read_in_place) in [(100, 0), (15, 10), (16, 0)] {
        let text = format!("{}{}", late.repeat(lates), plain.repeat(10));
        let cut: Vec<_> = PgnReader::new(text.as_bytes()).read_ahead(0).collect();
        assert!(cut.len() == lates + 10 && cut.iter().all(Result::is_ok));
        let mut reader = PgnReader::new(text.as_bytes());
        assert!(reader.by_ref().collect::<Vec<_>>() == cut);
        // Sixteen games that gave way switch reading in place off; fifteen do not.
        assert_eq!(reader.games_read_in_place(), read_in_place, "{lates} late games first");
    }
}
