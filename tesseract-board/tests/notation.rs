//! Position and move text: the invalid corpus, arbitrary input, and known texts.

use proptest::prelude::*;
use tesseract_board::{FromFenError, Position, Role, TextMove, TextMoveError, fen, start};

const INVALID: &str = include_str!("data/invalid_fen.txt");

/// The corpus: (text, expected fragment of the error), with `\n` in a text standing for a newline.
fn corpus() -> Vec<(String, &'static str)> {
    INVALID
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (text, expected) = l.split_once('\t').expect("text TAB expected-message");
            (text.replace("\\n", "\n"), expected)
        })
        .collect()
}

#[test]
fn every_invalid_text_is_rejected_with_a_precise_error() {
    let cases = corpus();
    assert!(cases.len() >= 40, "the corpus must hold at least 40 invalid texts, it has {}", cases.len());
    for (text, expected) in cases {
        match Position::from_fen(&text) {
            Ok(pos) => panic!("accepted invalid text {text:?} as\n{pos}"),
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.contains(expected), "text {text:?}\n  error: {msg}\n  expected to contain: {expected}");
            }
        }
    }
}

#[test]
fn the_standard_tesseract_start_has_the_text_of_rules_section_3() {
    let text = "rnknr/5/5/5/5//ubqbu/5/5/5/5//1d1d1/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/wwwww/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/wwwww/5/5///5/yyyyy/5/YYYYY/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/yyyyy/5/YYYYY/5///5/5/WWWWW/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/WWWWW/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/1D1D1//5/5/5/5/UBQBU//5/5/5/5/RNKNR w - - 0 1";
    let pos = start::tesseract(start::Army::Standard);
    assert_eq!(pos.fen(), text);
    assert_eq!(Position::from_fen(text).unwrap(), pos);
}

#[test]
fn several_errors_are_all_reported() {
    // No white king, a unicorn on a 2D board, and a pawn on its last rank.
    let err = Position::from_fen("Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQUBNR w - - 0 1").unwrap_err();
    let FromFenError::Position(err) = err else { panic!("expected a position error, got {err}") };
    assert_eq!(err.errors.len(), 3, "{err}");
    let text = err.to_string();
    for fragment in ["a8: a white pawn stands on its promotion cell", "e1: there is no unicorn", "white has no king"] {
        assert!(text.contains(fragment), "{text}");
    }
    // The setup is handed back.
    assert_eq!(err.setup.shape.cells(), 64);
}

#[test]
fn castling_texts_in_three_notations() {
    let pos = start::chess960(0).unwrap(); // BBQNNRKR
    assert_eq!(pos.fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    assert_eq!(
        pos.fen_with(fen::CastlingNotation::Shredder),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    );
    for text in [
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    ] {
        assert_eq!(Position::from_fen(text).unwrap(), pos, "{text}");
    }
    // X-FEN names the file when an outer rook stands beside the castling one.
    let xfen = "4k3/8/8/8/8/8/8/RR2K2R w BK - 0 1";
    let pos = Position::from_fen(xfen).unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    assert_eq!(pos.fen_with(fen::CastlingNotation::Shredder), "4k3/8/8/8/8/8/8/RR2K2R w HB - 0 1");
}

#[test]
fn en_passant_cells_are_kept_only_when_a_capture_is_possible() {
    // After 1. e4 no black pawn can take on e3: the cell is dropped, as modern FEN writers do.
    let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(pos.en_passant(), None);
    let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(pos.fen(), "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
}

#[test]
fn text_moves_parse_and_print() {
    for text in ["22132313", "24132513Q", "11115555D", "e2e4", "e7e8q", "a7b8n", "123453", "123453U", "23", "91"] {
        let m: TextMove = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.to_string(), text);
    }
    let m: TextMove = "24132513Q".parse().unwrap();
    assert_eq!(
        (m.dims(), m.from(), m.to(), m.promotion()),
        (4, &[2, 4, 1, 3][..], &[2, 5, 1, 3][..], Some(Role::Queen))
    );
    assert_eq!("23".parse::<TextMove>().map(|m| (m.dims(), m.from()[0], m.to()[0])), Ok((1, 2, 3)));
    let bad: [(&str, &str); 19] = [
        ("", "empty"),
        ("22132313\n", "offset 8"),
        ("22132313q", "upper-case promotion letter"),
        ("2213231", "7 coordinate digits"),
        ("22132313QQ", "offset 9"),
        ("e2e4Q", "lower-case promotion letter"),
        ("e2e9x", "lower-case promotion letter"),
        ("e2", "move text of 2 characters: a 2D move text has 4 (e2e4) or 5"),
        ("E2E4", "a file letter (2D) or a coordinate digit"),
        ("22130313", "offset 4"),
        ("２２１３２３１３", "offset 0"),
        ("e2e4k", "lower-case promotion letter"),
        // Found by the notation fuzz target: a multi-byte character (named at its first byte).
        ("e\u{1e3}]", "unexpected 'ǣ' at offset 1"),
        // The outside review: `0000` was "a move text of 4 characters: expected 4 or 5".
        ("0000", "0000 is a null move"),
        // Counts of digits that fit no board, each named as such (they were "expected 6 or 7" for 7
        // characters, "8 or 9" for 9).
        ("2222", "4 coordinate digits"),
        ("221323134", "9 coordinate digits"),
        ("2", "1 coordinate digit: one per axis"),
        ("1234567890", "10 coordinate digits"),
        // Not ASCII after a 2D text of the right length in characters (was "5 characters: expected 4 or 5").
        ("e2e4é", "unexpected 'é' at offset 4"),
    ];
    for (text, fragment) in bad {
        let err: TextMoveError = text.parse::<TextMove>().unwrap_err();
        assert!(err.to_string().contains(fragment), "{text:?}: {err}");
    }
    assert_eq!("0000".parse::<TextMove>(), Err(TextMoveError::NullMove));
    assert_eq!(TextMoveError::NullMove.to_string(), "0000 is a null move (UCI's \"no move\"), not a move of the rules");
}

/// No length error contradicts the text it is about: the count it names is the text's, and the counts it
/// says it expects do not include it.
#[test]
fn length_errors_never_contradict_the_text() {
    let mut texts: Vec<String> = (1..=12).map(|n| "1".repeat(n)).collect();
    texts.extend((1..=8).map(|n| "e".repeat(n)));
    texts.extend(["0000", "00000000", "e2e4q1", "a1"].map(String::from));
    for text in texts {
        match TextMove::parse(&text) {
            Err(TextMoveError::Length(n)) => {
                assert_eq!(n, text.len(), "{text}");
                assert!(!(4..=5).contains(&n), "{text}: {}", TextMoveError::Length(n));
            }
            Err(TextMoveError::Digits(n)) => {
                assert_eq!(n, text.len(), "{text}");
                assert!(![2, 6, 8].contains(&n), "{text}: {}", TextMoveError::Digits(n));
            }
            _ => {}
        }
    }
}

/// Issue 29: a text typed for a board (`TextMove::parse_for`) is answered for that board: a cell alone is
/// named as a cell (`2213` was "4 characters: expected 4 or 5" in the terminal game), a count of digits
/// gets the board's count, and a text of the other kind is refused at its first character with the form
/// of this board's moves; what parses is the same as `TextMove::parse`.
#[test]
fn a_text_typed_for_a_board_is_answered_for_that_board() {
    use tesseract_board::{Geometry, Shape};
    let g4 = start::tesseract(start::Army::Standard).geometry();
    let g2 = start::chess().geometry();
    let g3 = Shape::new(3, 5).unwrap().geometry();
    let g1 = Shape::new(1, 8).unwrap().geometry();
    let cases: [(&Geometry, &str, TextMoveError, &str); 10] = [
        (
            g4,
            "2213",
            TextMoveError::Cell { dims: 4 },
            "it names one cell; a move names two, the from cell and then the to cell (22132313)",
        ),
        (g2, "e4", TextMoveError::Cell { dims: 2 }, "(e2e4)"),
        (g3, "221", TextMoveError::Cell { dims: 3 }, "(121131)"),
        (g1, "5", TextMoveError::Cell { dims: 1 }, "(23)"),
        (
            g4,
            "221",
            TextMoveError::DigitCount { count: 3, dims: 4 },
            "3 coordinate digits, but a move on this board has 8: 4 for the from cell, then 4 for the to cell (22132313)",
        ),
        (g4, "2", TextMoveError::DigitCount { count: 1, dims: 4 }, "1 coordinate digit, but"),
        (g3, "9999", TextMoveError::DigitCount { count: 4, dims: 3 }, "has 6: 3 for the from cell"),
        (
            g4,
            "foo",
            TextMoveError::Unexpected {
                offset: 0,
                found: 'f',
                expected: "a coordinate digit: a move on this board is written like 22132313",
            },
            "unexpected 'f' at offset 0",
        ),
        (
            g2,
            "2213",
            TextMoveError::Unexpected {
                offset: 0,
                found: '2',
                expected: "a file letter: a move on this board is written like e2e4",
            },
            "written like e2e4",
        ),
        // Off the board, a cell-shaped text is a count of digits (5⁴ has no coordinate 9).
        (
            g4,
            "9999",
            TextMoveError::DigitCount { count: 4, dims: 4 },
            "4 coordinate digits, but a move on this board has 8",
        ),
    ];
    for (g, text, expected, words) in cases {
        let err = TextMove::parse_for(text, g).unwrap_err();
        assert_eq!(err, expected, "{text} in {}D", g.dims());
        assert!(err.to_string().contains(words), "{text}: {err}");
        for nonsense in ["expected 4 or 5", "on a board of one axis", "6 in 3D"] {
            assert!(!err.to_string().contains(nonsense), "{text}: {err}");
        }
    }
    // What parses, parses as without a board (a text for another board too: resolving it says so), and the
    // errors no board changes stay as they were.
    for text in ["22132313", "24132513Q", "e2e4", "121131", "23", "0000", "", "22132313\n", "e2e4é"] {
        for g in [g1, g2, g3, g4] {
            let plain = TextMove::parse(text);
            let typed = TextMove::parse_for(text, g);
            if plain.is_ok() || matches!(plain, Err(TextMoveError::NullMove | TextMoveError::Empty)) {
                assert_eq!(typed, plain, "{text:?} in {}D", g.dims());
            }
        }
    }
}

proptest! {
    #[test]
    fn no_text_panics_the_position_parser(text in ".{0,200}") {
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn no_fen_like_text_panics(text in "[KQRBNUDYWPkqrbnudywp1-9/]{1,120} [wb] [-KQkqA-Ha-h]{1,4} [-a-h1-9]{1,4} [0-9]{1,3} [0-9]{1,3}") {
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn no_text_panics_the_move_parser(text in ".{0,20}") {
        if let Ok(m) = TextMove::parse(&text) {
            prop_assert_eq!(TextMove::parse(&m.to_string()), Ok(m));
        }
    }

    /// For any board, `parse_for` accepts exactly what `parse` accepts, and never panics.
    #[test]
    fn parse_for_accepts_what_parse_accepts(text in "[0-9a-jQRBNUDqrbn]{0,10}|.{0,12}", dims in 1usize..=4, side in 3usize..=9) {
        let g = tesseract_board::Shape::new(dims, side).unwrap().geometry();
        prop_assert_eq!(TextMove::parse_for(&text, g).ok(), TextMove::parse(&text).ok());
    }

    #[test]
    fn no_bytes_panic_either_parser(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Position::from_fen(&text);
        let _ = TextMove::parse(&text);
    }
}
