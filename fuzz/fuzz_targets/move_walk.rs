//! Fuzz target: a walk through a game driven by the input, mixing legal moves played through their text,
//! arbitrary `Move` values into checked play, and arbitrary move texts.
//!
//! Checked on every input: nothing panics; every legal move's text resolves back to the move; checked play
//! of an arbitrary move succeeds exactly when the move is legal and changes nothing when it is refused; a
//! text that resolves names a legal move.
#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use tesseract_board::{Cell, Move, Position, Role, TextMove, start};
use tesseract_movegen::{Legal, legal_moves};

fn start_position(u: &mut Unstructured<'_>) -> Result<Position> {
    Ok(match u.int_in_range(0..=5)? {
        0 => start::chess(),
        1 => start::chess960(u.int_in_range(0..=959)?).expect("in range"),
        2 => start::tesseract(start::Army::Light),
        3 => start::tesseract(start::Army::Standard),
        4 => start::tesseract(start::Army::Dense),
        // A small 3D board with pawns close to promotion and en passant.
        _ => Position::from_fen("k2/3/3//3/y2/3//3/Y2/2K w - - 0 1").expect("valid"),
    })
}

fn walk(u: &mut Unstructured<'_>) -> Result<()> {
    let mut pos = start_position(u)?;
    for _ in 0..u.int_in_range(0..=60)? {
        let moves = legal_moves(&pos);
        match u.int_in_range(0..=2)? {
            0 => {
                if moves.is_empty() {
                    return Ok(());
                }
                let m = *u.choose(&moves)?;
                let text = TextMove::from_move(m, &pos).to_string();
                assert_eq!(pos.parse_move(&text), Ok(m), "{text} in {}", pos.fen());
                pos.play(m).expect("a legal move plays");
            }
            1 => {
                let promotion = if u.arbitrary()? { Some(*u.choose(&Role::ALL)?) } else { None };
                let m = Move::with_promotion(Cell::new(u.arbitrary()?), Cell::new(u.arbitrary()?), promotion);
                let before = pos.clone();
                match pos.play(m) {
                    Ok(_) => assert!(moves.contains(&m)),
                    Err(_) => {
                        assert!(!moves.contains(&m));
                        assert_eq!(pos, before);
                    }
                }
            }
            _ => {
                let len = u.int_in_range(0..=12)?;
                let bytes = u.bytes(len)?;
                let Ok(text) = std::str::from_utf8(bytes) else { continue };
                if let Ok(m) = pos.parse_move(text) {
                    assert!(moves.contains(&m), "{text}");
                }
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = walk(&mut Unstructured::new(data));
});
