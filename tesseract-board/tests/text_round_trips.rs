//! Texts that round-trip and edges that never panic: the board crate's findings of the outside review
//! (issue 11, items 4, 13, 14 and 15), each as a regression test.

use tesseract_board::fen::CastlingNotation;
use tesseract_board::{CastlingMode, Cell, Color, Piece, Position, Role, Setup, SetupTextError, Shape};

fn put(setup: &mut Setup, coords: [u8; 4], color: Color, role: Role) {
    setup.put(&coords, Some(Piece::new(color, role)));
}

/// Black to move after a white double step over 2323 that two pawns could have made: the Y-pawn now on
/// 2423 (from 2223) and the W-pawn now on 2324 (from 2322). The cell alone cannot say which may be taken.
fn ambiguous_double_step() -> Setup {
    let mut s = Setup::empty(Shape::TESSERACT);
    put(&mut s, [5, 1, 1, 1], Color::White, Role::King);
    put(&mut s, [5, 5, 5, 5], Color::Black, Role::King);
    put(&mut s, [2, 4, 2, 3], Color::White, Role::YPawn);
    put(&mut s, [2, 3, 2, 4], Color::White, Role::WPawn);
    s.turn = Color::Black;
    s.en_passant = Some(s.shape.geometry().cell(&[2, 3, 2, 3]).unwrap());
    s
}

#[test]
fn an_ambiguous_four_digit_en_passant_cell_is_read_when_no_pawn_can_take() {
    // Item 13: nobody can capture on 2323, so which pawn passed cannot matter; the field is dropped.
    let setup = ambiguous_double_step();
    let text = setup.fen().unwrap();
    assert!(text.contains(" b - 2323 0 1"), "{text}");
    let pos = Position::from_fen(&text).expect("the four digits are enough when no capture is possible");
    assert_eq!(pos.en_passant(), None);
    assert!(pos.fen().contains(" b - - 0 1"), "{}", pos.fen());

    // A black Y-pawn on 1423 captures onto 2323 (forward along y, sideways along x): now it matters.
    let mut setup = ambiguous_double_step();
    put(&mut setup, [1, 4, 2, 3], Color::Black, Role::YPawn);
    let text = setup.fen().unwrap();
    let err = Position::from_fen(&text).unwrap_err().to_string();
    assert!(err.contains("a pawn can capture there: name the pawn too"), "{err}");
    // Named with eight digits (cell, then pawn), the text is read, and written back the same way.
    let named = text.replace(" 2323 ", " 23232423 ");
    let pos = Position::from_fen(&named).expect("the pawn is named");
    let ep = pos.en_passant().expect("the capture is possible");
    assert_eq!(pos.geometry().cell_name(ep.victim), "2423");
    assert_eq!(pos.fen(), named);
}

#[test]
fn clocks_written_are_clocks_read() {
    // Item 14: one range both ways, every u32.
    let text = "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295";
    let pos = Position::from_fen(text).unwrap();
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (u32::MAX, u32::MAX));
    assert_eq!(pos.fen(), text);
    for field in ["4294967296 1", "0 4294967296"] {
        let text = format!("4k3/8/8/8/8/8/8/4K3 w - - {field}");
        let err = Position::from_fen(&text).unwrap_err().to_string();
        assert!(err.contains("expected a number from"), "{err}");
    }
    // Ten digits within range are read (the reader once stopped at nine, below what the writer prints).
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 1000000000 1000000000").unwrap();
    assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
    // Playing on at the top of the range keeps the clocks there, and unmake restores them exactly.
    let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295").unwrap();
    let before = pos.clone();
    let m = tesseract_board::Move::new(pos.king(Color::Black), Cell::new(pos.king(Color::Black).index() as u16 - 1));
    let undo = pos.make(m);
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (u32::MAX, u32::MAX));
    assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
    pos.unmake(m, undo);
    assert_eq!(pos, before);
}

#[test]
fn a_setup_text_reads_back_to_the_same_setup_or_is_refused() {
    // Item 15: a right with no rook behind it was written as K, which reads back as another rook cell.
    let mut s: Setup = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
    let g = s.shape.geometry();
    s.castling = vec![g.cell(&[3, 1]).unwrap(), g.cell(&[8, 8]).unwrap()];
    for notation in [CastlingNotation::XFen, CastlingNotation::Shredder] {
        let text = s.fen_with(notation).unwrap();
        assert_eq!(text.parse::<Setup>().unwrap(), s, "{text}");
    }
    // What no text can say is refused, with the reason.
    let refused = |s: &Setup, fragment: &str| {
        let err = s.fen().unwrap_err();
        assert!(err.to_string().contains(fragment), "{err}");
    };
    let mut t = s.clone();
    t.castling = vec![g.cell(&[3, 4]).unwrap()];
    refused(&t, "back rank");
    let mut t = s.clone();
    t.castling = vec![Cell::new(64)];
    refused(&t, "not on the board");
    let mut t = s.clone();
    t.castling = vec![Cell::new(2), Cell::new(2)];
    refused(&t, "distinct");
    let mut t = s.clone();
    t.board.pop();
    assert!(matches!(t.fen(), Err(SetupTextError::BoardSize { expected: 64, found: 63, .. })));
    let mut t = s.clone();
    t.en_passant = Some(Cell::new(99));
    refused(&t, "en passant: the cell is not on the board");
    let mut t = s.clone();
    t.en_passant_pawn = Some(Cell::new(3));
    refused(&t, "no en passant cell");
    let mut t = Setup::empty(Shape::new(2, 6).unwrap());
    t.castling = vec![Cell::new(0)];
    refused(&t, "only on 8×8");
}

#[test]
fn off_board_cells_are_answered_not_panicked_on() {
    // Item 4 (the board's half): a cell index past the board.
    let pos = tesseract_board::start::chess();
    for index in [64u16, 625, u16::MAX] {
        assert!(!pos.is_attacked(Cell::new(index), Color::White));
        assert_eq!(pos.piece_at(Cell::new(index)), None);
        assert!(!pos.geometry().contains(Cell::new(index)));
    }
    assert!(pos.geometry().contains(Cell::new(63)));
}

#[test]
fn castling_exists_on_the_8x8_board_only() {
    let mut s = Setup::empty(Shape::new(2, 6).unwrap());
    s.put(&[3, 1], Some(Piece::new(Color::White, Role::King)));
    s.put(&[1, 1], Some(Piece::new(Color::White, Role::Rook)));
    s.put(&[3, 6], Some(Piece::new(Color::Black, Role::King)));
    s.castling = vec![Cell::new(0)];
    let err = Position::from_setup(s, CastlingMode::Chess960).unwrap_err().to_string();
    assert!(err.contains("only on 8×8"), "{err}");
}
