//! Fuzz target: arbitrary setups on every shape, validated; where valid, the fast generator against the
//! naive one, `make` against naive play (position and hash), `unmake`, and the text round trip.
//!
//! Checked on every input: nothing panics; validation either refuses the setup or builds a position on
//! which both generators list the same moves, every child made by `make` equals the naive child and has the
//! hash computed from scratch, `unmake` restores everything, and `Setup::fen` writes a text that reads back
//! to the same setup (or refuses it with a reason).
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use tesseract_board::{CastlingMode, Cell, Color, Piece, Position, Role, Setup, Shape};
use tesseract_movegen::{legal_moves, naive};

fn setup(u: &mut Unstructured<'_>) -> Result<(Setup, CastlingMode)> {
    // Small boards are most of the space worth searching; the largest 4D sides are slow for the naive side.
    let dims = u.int_in_range(1..=4)?;
    let max_side = if dims == 4 { 6 } else { 9 };
    let shape = Shape::new(dims, u.int_in_range(3..=max_side)?).expect("in range");
    let cells = shape.cells() as u16;
    let mut s = Setup::empty(shape);
    let cell = |u: &mut Unstructured<'_>| -> Result<Cell> {
        // Now and then a cell past the board.
        Ok(Cell::new(u.int_in_range(0..=cells + 1)?))
    };
    for color in Color::ALL {
        let c = cell(u)?;
        if let Some(slot) = s.board.get_mut(c.index()) {
            *slot = Some(Piece::new(color, Role::King));
        }
    }
    for _ in 0..u.int_in_range(0..=14)? {
        let c = cell(u)?;
        let piece = Piece::new(*u.choose(&Color::ALL)?, *u.choose(&Role::ALL)?);
        if let Some(slot) = s.board.get_mut(c.index()) {
            *slot = Some(piece);
        }
    }
    s.turn = *u.choose(&Color::ALL)?;
    for _ in 0..u.int_in_range(0..=4)? {
        s.castling.push(cell(u)?);
    }
    if u.arbitrary()? {
        s.castling.sort();
        s.castling.dedup();
    }
    s.en_passant = if u.arbitrary()? { Some(cell(u)?) } else { None };
    s.en_passant_pawn = if u.ratio(1, 4)? { Some(cell(u)?) } else { None };
    s.halfmove = u.arbitrary()?;
    s.fullmove = u.arbitrary()?;
    let mode = if u.arbitrary()? { CastlingMode::Chess960 } else { CastlingMode::Standard };
    Ok((s, mode))
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok((s, mode)) = setup(&mut u) else { return };
    if let Ok(text) = s.fen() {
        assert_eq!(text.parse::<Setup>().expect("written text reads"), s, "{text}");
    }
    let Ok(mut pos) = Position::from_setup(s, mode) else { return };
    let plain = pos.to_setup();
    let mut fast: Vec<_> = legal_moves(&pos).to_vec();
    let mut slow = naive::legal_moves(&plain);
    fast.sort();
    slow.sort();
    assert_eq!(fast, slow, "{}", pos.fen());
    let before = pos.clone();
    for &m in &fast {
        let undo = pos.make(m);
        let expected = Position::from_setup(naive::play(&plain, m), pos.castling_mode()).expect("a valid child");
        assert_eq!(pos, expected, "{m:?} from {}", before.fen());
        assert_eq!(pos.hash(), pos.hash_from_scratch());
        assert_eq!(pos.hash(), expected.hash());
        pos.unmake(m, undo);
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), before.hash());
    }
    let text = pos.fen();
    assert_eq!(Position::from_fen_with_mode(&text, pos.castling_mode()).expect("reads"), pos);
});
