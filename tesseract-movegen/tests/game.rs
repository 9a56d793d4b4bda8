//! The rules-level game: undo and redo, repetitions, the automatic and claimable draws, dead positions,
//! replay and the serde form.

use tesseract_board::{CastlingMode, Color, Position, Role, TextMove, start};
use tesseract_movegen::{Claims, Game, GameEnd, Legal, MoveError, Termination, legal_moves};

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

fn s4d() -> Position {
    start::tesseract(start::Army::Standard)
}

fn first_knight(p: &Position) -> usize {
    p.pieces().find(|(_, piece)| piece.role == Role::Knight).unwrap().0.index()
}

fn play_all(game: &mut Game, moves: &[&str]) {
    for m in moves {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

const DANCE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

#[test]
fn repetitions_are_counted_and_claims_offered_then_forced() {
    let mut game = Game::new(start::chess());
    assert_eq!(game.repetitions(), 1);
    let mut seen = Vec::new();
    for _ in 0..4 {
        play_all(&mut game, &DANCE);
        seen.push((game.repetitions(), game.claimable(), game.outcome(), game.end(Claims::all())));
    }
    assert_eq!(
        seen,
        [
            (2, Claims::empty(), None, None),
            (3, Claims::THREEFOLD, None, Some(GameEnd::draw(Termination::Threefold))),
            (4, Claims::THREEFOLD, None, Some(GameEnd::draw(Termination::Threefold))),
            (
                5,
                Claims::THREEFOLD,
                Some(GameEnd::draw(Termination::Fivefold)),
                Some(GameEnd::draw(Termination::Fivefold))
            ),
        ]
    );
    // Claims the player does not make are not made for them.
    game.undo();
    assert_eq!(game.end(Claims::FIFTY_MOVES), None);
    assert_eq!(game.end(Claims::THREEFOLD), Some(GameEnd::draw(Termination::Threefold)));
}

#[test]
fn a_capture_or_pawn_move_ends_the_window_of_repetitions() {
    let mut game = Game::new(start::chess());
    play_all(&mut game, &DANCE);
    play_all(&mut game, &["e2e4", "e7e5"]);
    play_all(&mut game, &DANCE);
    play_all(&mut game, &DANCE);
    assert_eq!(game.repetitions(), 3, "the positions before e4 do not count");
}

#[test]
fn fifty_moves_are_claimable_and_seventy_five_automatic() {
    let before = "8/8/4k3/8/8/8/R7/4K3 w - - 98 80";
    let mut game = Game::new(pos(before));
    game.play_text("a2a3").unwrap();
    assert_eq!((game.claimable(), game.outcome()), (Claims::empty(), None));
    game.play_text("e6e5").unwrap();
    assert_eq!((game.claimable(), game.outcome()), (Claims::FIFTY_MOVES, None));
    assert_eq!(game.end(Claims::all()), Some(GameEnd::draw(Termination::FiftyMoves)));
    let mut late = Game::new(pos("8/8/4k3/8/8/8/R7/4K3 w - - 149 120"));
    late.play_text("a2a3").unwrap();
    assert_eq!(late.outcome(), Some(GameEnd::draw(Termination::SeventyFiveMoves)));
    // Both claims at once: the 50-move rule is named first.
    let mut both = Game::new(pos("8/8/4k3/8/8/8/R7/4K3 w - - 100 80"));
    play_all(&mut both, &["a2a3", "e6e5", "a3a2", "e5e6", "a2a3", "e6e5", "a3a2", "e5e6"]);
    assert_eq!(both.claimable(), Claims::all());
    assert_eq!(both.end(Claims::all()), Some(GameEnd::draw(Termination::FiftyMoves)));
}

#[test]
fn mate_comes_before_the_seventy_five_move_rule() {
    // White mates on the move that makes the 150th ply: a mate, not a draw (FIDE 9.6.2).
    let mut game = Game::new(pos("7k/8/6K1/8/8/8/8/R7 w - - 149 120"));
    game.play_text("a1a8").unwrap();
    assert_eq!(game.outcome(), Some(GameEnd::checkmate(Color::White)));
}

#[test]
fn dead_positions_by_material() {
    let dead = [
        "8/8/4k3/8/8/8/8/4K3 w - - 0 1",
        "8/8/4k3/8/8/2N5/8/4K3 w - - 0 1",
        "8/8/4k3/8/8/2b5/8/4K3 w - - 0 1",
        "8/8/4k3/8/3b4/2B5/8/4K3 w - - 0 1",
        "8/8/4k3/8/3b4/2B5/8/B3K3 w - - 0 1",
    ];
    let alive = [
        "8/8/4k3/1b6/8/2B5/8/4K3 w - - 0 1",
        "8/8/4k3/8/8/2N5/8/3NK3 w - - 0 1",
        "8/8/4k3/8/8/2n5/8/3NK3 w - - 0 1",
        "8/8/4k3/8/8/2N5/8/3BK3 w - - 0 1",
        "8/8/4k3/8/8/8/P7/4K3 w - - 0 1",
        "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",
    ];
    for fen in dead {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
        assert_eq!(Game::new(pos(fen)).outcome(), Some(GameEnd::draw(Termination::DeadDraw)), "{fen}");
    }
    for fen in alive {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
        assert_eq!(Game::new(pos(fen)).outcome(), None, "{fen}");
    }
    // In 4D only kings alone is dead: a king and a knight against a king is played on (RULES.md §2).
    let mut setup = start::tesseract(start::Army::Standard).to_setup();
    for (i, square) in setup.board.iter_mut().enumerate() {
        if square.is_some_and(|p| p.role != Role::King && !(p.role == Role::Knight && i == first_knight(&s4d()))) {
            *square = None;
        }
    }
    let knight = Position::from_setup(setup.clone(), CastlingMode::Standard).unwrap();
    assert!(!knight.is_insufficient_material());
    setup.board.iter_mut().filter(|p| p.is_some_and(|p| p.role == Role::Knight)).for_each(|p| *p = None);
    let kings = Position::from_setup(setup, CastlingMode::Standard).unwrap();
    assert!(kings.is_insufficient_material());
    assert_eq!(Game::new(kings).outcome(), Some(GameEnd::draw(Termination::DeadDraw)));
}

#[test]
fn undo_and_redo_walk_the_game_and_a_new_move_forgets_the_redo() {
    let mut game = Game::new(start::tesseract(start::Army::Standard));
    let moves: Vec<_> = (0..6)
        .map(|i| {
            let list = legal_moves(game.position());
            let m = list[(i * 7) % list.len()];
            game.play(m).unwrap();
            m
        })
        .collect();
    let end = game.position().clone();
    assert_eq!(game.undo(), Some(moves[5]));
    assert_eq!(game.undo(), Some(moves[4]));
    assert_eq!(game.redo_moves().collect::<Vec<_>>(), [moves[4], moves[5]]);
    // Playing the move redo would play keeps the rest.
    game.play(moves[4]).unwrap();
    assert_eq!(game.redo_moves().collect::<Vec<_>>(), [moves[5]]);
    assert_eq!(game.redo(), Some(moves[5]));
    assert_eq!(game.position(), &end);
    assert_eq!(game.redo(), None);
    game.undo();
    let other = legal_moves(game.position()).into_iter().find(|&m| m != moves[5]).unwrap();
    game.play(other).unwrap();
    assert_eq!(game.redo_moves().count(), 0);
    while game.undo().is_some() {}
    assert_eq!(game.position(), game.start());
    assert_eq!(game.history().len(), 0);
}

#[test]
fn an_illegal_move_changes_nothing_and_says_why() {
    let mut game = Game::new(start::chess());
    let before = game.clone();
    let err = game.play_text("e2e5").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err:?}");
    let err = game.play_text("e2-e4").unwrap_err();
    assert!(matches!(err, MoveError::Text { .. }), "{err:?}");
    assert!(err.to_string().starts_with("\"e2-e4\" is not a move: "), "{err}");
    assert_eq!(game, before);
    assert_eq!(game.moves().len(), 0);
}

/// Issue 29: a cell typed as a move (`2213` in 4D) is named as a cell, and a count of digits gets the
/// board's own count; the error is still `MoveError::Text`, its source typed for the board.
#[test]
fn a_cell_alone_is_named_as_a_cell_for_the_board_in_use() {
    use tesseract_board::TextMoveError;
    let mut game = Game::new(start::tesseract(start::Army::Standard));
    let err = game.play_text("2213").unwrap_err();
    assert_eq!(err, MoveError::Text { text: "2213".into(), source: TextMoveError::Cell { dims: 4 } });
    assert_eq!(
        err.to_string(),
        "\"2213\" is not a move: it names one cell; a move names two, the from cell and then the to cell (22132313)"
    );
    let err = game.play_text("2213231").unwrap_err();
    assert!(matches!(err, MoveError::Text { source: TextMoveError::DigitCount { count: 7, dims: 4 }, .. }), "{err:?}");
    // A text for another board still resolves to the board's complaint about axes.
    assert!(matches!(game.play_text("e2e4"), Err(MoveError::WrongDims { expected: 4, found: 2 })));
    let mut game = Game::new(start::chess());
    let err = game.play_text("e4").unwrap_err();
    assert!(matches!(err, MoveError::Text { source: TextMoveError::Cell { dims: 2 }, .. }), "{err:?}");
    assert_eq!(game.moves().len(), 0);
}

#[test]
fn replay_checks_every_move_and_names_the_first_bad_one() {
    let texts: Vec<TextMove> = ["e2e4", "e7e5", "g1f3", "b8c6"].iter().map(|t| t.parse().unwrap()).collect();
    let game = Game::replay(start::chess(), &texts).unwrap();
    assert_eq!(game.move_texts(), texts);
    let mut bad = texts.clone();
    bad[2] = "g1g3".parse().unwrap();
    let err = Game::replay(start::chess(), &bad).unwrap_err();
    assert_eq!(err.ply, 3);
    assert_eq!(err.to_string(), "move 3 (g1g3): g1g3 is not a legal move here: that piece cannot move there");
}

#[test]
fn end_given_moves_agrees_with_end_along_random_games() {
    // Random 2D games reach mates, stalemates, dead positions and repetitions; every node compares the
    // shortcut with the full rules.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut ends = std::collections::BTreeMap::new();
    for _ in 0..200 {
        let mut game = Game::new(start::chess());
        loop {
            let list = legal_moves(game.position());
            let end = game.end_given_moves(Claims::all(), list.len());
            assert_eq!(end, game.end(Claims::all()));
            if let Some(end) = end {
                *ends.entry(end.name()).or_insert(0) += 1;
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            game.play_unchecked(list[(state % list.len() as u64) as usize]);
        }
    }
    assert!(ends.len() >= 3, "{ends:?}");
}

#[cfg(feature = "serde")]
#[test]
fn a_game_serializes_as_its_start_and_move_texts() {
    let mut game = Game::new(start::chess());
    play_all(&mut game, &["e2e4", "e7e5"]);
    let json = serde_json::to_string(&game).unwrap();
    assert_eq!(json, r#"{"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":["e2e4","e7e5"]}"#);
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game);
    assert_eq!(back.position(), game.position());
    let bad = json.replace("e7e5", "e7e4");
    let err = serde_json::from_str::<Game>(&bad).unwrap_err();
    assert!(err.to_string().contains("move 2 (e7e4)"), "{err}");
    let end = serde_json::to_string(&GameEnd::checkmate(Color::Black)).unwrap();
    assert_eq!(serde_json::from_str::<GameEnd>(&end).unwrap(), GameEnd::checkmate(Color::Black));
}

/// A GUI's click, from a cell to a cell: every legal move is found from its own cells, castling also from
/// the king's destination (the two-step click), in classic chess and Chess960.
#[test]
fn clicks_find_every_legal_move_and_castling_by_the_two_step() {
    let cell = |p: &Position, name: &str| p.geometry().parse_cell(name).unwrap();
    let positions = [
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ];
    for fen in positions {
        let p = pos(fen);
        for m in legal_moves(&p) {
            assert_eq!(p.move_between(m.from, m.to, m.promotion), Ok(m), "{fen}: {m:?}");
            if let Some(king_to) = p.castling_king_to(m) {
                assert_eq!(p.move_between(m.from, king_to, None), Ok(m), "{fen}: two-step");
            }
        }
    }
    let classic = pos(positions[0]);
    let short = classic.move_between(cell(&classic, "e1"), cell(&classic, "g1"), None).unwrap();
    assert_eq!(classic.castling_king_to(short), Some(cell(&classic, "g1")));
    let long = classic.move_between(cell(&classic, "e8"), cell(&classic, "c8"), None);
    assert!(long.is_err(), "not Black's turn");
    // Chess960: king on f1, rook on h1 (g1 empty): the click on g1 is the king's step, the rook castles.
    let p = pos("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    let step = p.move_between(cell(&p, "f1"), cell(&p, "g1"), None).unwrap();
    assert_eq!(p.castling_king_to(step), None);
    let castle = p.move_between(cell(&p, "f1"), cell(&p, "h1"), None).unwrap();
    assert_eq!(p.castling_king_to(castle), Some(cell(&p, "g1")));
    // Errors say why, and cells off the board are refused.
    let promo = pos(positions[2]);
    let err = promo.move_between(cell(&promo, "b7"), cell(&promo, "b8"), None).unwrap_err();
    assert_eq!(err.to_string(), "b7b8 is not a legal move here: the move promotes: add the promotion piece");
    let err = promo.move_between(cell(&promo, "b7"), tesseract_board::Cell::new(64), None).unwrap_err();
    assert!(matches!(err, MoveError::CellOffBoard { which: "to", .. }), "{err:?}");
}

/// An en passant right that cannot be used (the pawn that could take is pinned) does not make a position
/// different (FIDE; python-chess's `is_repetition` says 3 here).
#[test]
fn an_unusable_en_passant_right_does_not_count_for_repetitions() {
    let mut game = Game::new(pos("3k4/3p4/8/K3P2r/8/8/8/8 b - - 0 1"));
    play_all(&mut game, &["d7d5", "a5a4", "d8e8", "a4a5", "e8d8", "a5a4", "d8e8", "a4a5", "e8d8"]);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable(), Claims::THREEFOLD);
    // A usable right does count: without the rook, exd6 is legal and the first position differs.
    let mut free = Game::new(pos("3k4/3p4/8/K3P3/8/8/8/8 b - - 0 1"));
    play_all(&mut free, &["d7d5", "a5a4", "d8e8", "a4a5", "e8d8", "a5a4", "d8e8", "a4a5", "e8d8"]);
    assert_eq!(free.repetitions(), 2);
}

/// Nothing is claimable once the board has ended the game (python-chess: no claim without a legal move).
#[test]
fn nothing_is_claimable_after_mate() {
    let mut game = Game::new(pos("7k/8/6K1/8/8/8/8/R7 w - - 120 100"));
    game.play_text("a1a8").unwrap();
    assert_eq!(game.claimable(), Claims::empty());
    assert_eq!(game.end(Claims::all()), Some(GameEnd::checkmate(Color::White)));
}

/// `text_line` stops at a move naming a cell off the board, and `castling_king_to` answers `None` for
/// anything but a castling move with its right on 8×8.
#[test]
fn untrusted_lines_and_castling_questions_do_not_panic() {
    use tesseract_board::{Cell, Move};
    let chess = start::chess();
    let off = Move { from: Cell::new(600), to: Cell::new(601), promotion: None };
    assert!(tesseract_movegen::text_line(&chess, &[off]).is_empty());
    let s4 = s4d();
    let king = s4.king(Color::White);
    for (cell, piece) in s4.pieces() {
        if piece.role == Role::Rook {
            assert_eq!(s4.castling_king_to(Move { from: king, to: cell, promotion: None }), None);
        }
    }
    let no_rights = pos("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    let g = no_rights.geometry();
    let e1h1 = Move { from: g.parse_cell("e1").unwrap(), to: g.parse_cell("h1").unwrap(), promotion: None };
    assert_eq!(no_rights.castling_king_to(e1h1), None);
    assert_eq!(no_rights.castling_king_to(off), None);
}
