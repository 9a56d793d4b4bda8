//! Untrusted moves into checked play: any `Move` value, on or off the board, is played only if legal,
//! and otherwise answered with an error and no change (issue 11, item 4).

use proptest::prelude::*;
use tesseract_board::{Cell, Move, Role, start};
use tesseract_movegen::{Legal, MoveError, legal_moves};

#[test]
fn a_move_off_the_board_is_an_error() {
    let mut pos = start::chess();
    let before = pos.clone();
    let err = pos.play(Move::new(Cell::new(12), Cell::new(700))).unwrap_err();
    assert_eq!(err, MoveError::CellOffBoard { which: "to", index: 700, cells: 64 });
    assert_eq!(err.to_string(), "the move's to cell (index 700) is not on this board of 64 cells");
    let err = pos.play(Move::new(Cell::new(u16::MAX), Cell::new(0))).unwrap_err();
    assert!(matches!(err, MoveError::CellOffBoard { which: "from", .. }), "{err}");
    assert_eq!(pos, before);
    assert!(!pos.is_legal(Move::new(Cell::new(64), Cell::new(65))));
}

fn role() -> impl Strategy<Value = Option<Role>> {
    prop_oneof![Just(None), (0usize..9).prop_map(|i| Some(Role::ALL[i]))]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Arbitrary move values, after a few legal plies: legal ones play, the rest change nothing.
    #[test]
    fn arbitrary_moves_never_panic(which in 0usize..3, plies in prop::collection::vec(any::<u16>(), 0..6),
                                   from in any::<u16>(), to in any::<u16>(), promotion in role(), near in any::<bool>()) {
        let mut pos = match which {
            0 => start::chess(),
            1 => start::tesseract(start::Army::Standard),
            _ => start::chess960(518).unwrap(),
        };
        for p in plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() { break; }
            pos.play(moves[p as usize % moves.len()]).unwrap();
        }
        let cells = pos.geometry().cells() as u16;
        // Half the time keep the cells on the board, so that near-legal moves are tried too.
        let (from, to) = if near { (from % cells, to % cells) } else { (from, to) };
        let m = Move::with_promotion(Cell::new(from), Cell::new(to), promotion);
        let before = pos.clone();
        let legal = legal_moves(&pos).contains(&m);
        match pos.play(m) {
            Ok(_) => prop_assert!(legal),
            Err(e) => {
                prop_assert!(!legal, "{e}");
                prop_assert_eq!(&pos, &before);
            }
        }
    }
}
