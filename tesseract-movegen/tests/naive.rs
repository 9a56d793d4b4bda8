//! Tests of the naive reference generator against the contract figures of RULES.md and public perft counts.
//!
//! Run with `cargo test -p tesseract-movegen --test naive`; the slow ones run in release
//! (`cargo test --release -p tesseract-movegen --test naive`), and the 4D perft(3) ones only on request
//! (`-- --ignored`).

use tesseract_board::start::{self, Army};
use tesseract_board::{Cell, Color, Move, Piece, Role, Setup, Shape, fen};
use tesseract_movegen::naive;

fn setup(text: &str) -> Setup {
    fen::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A cell of a board by coordinates.
fn at(shape: Shape, coords: &[u8]) -> Cell {
    shape.geometry().cell(coords).expect("on the board")
}

/// A 2D cell by its algebraic name.
fn sq(name: &str) -> Cell {
    Shape::CHESS.geometry().parse_cell(name).expect("a square")
}

fn tesseract(army: Army) -> Setup {
    start::tesseract(army).to_setup()
}

// ---------------------------------------------------------------------------------------------------
// Empty-board constants (RULES.md §2)
// ---------------------------------------------------------------------------------------------------

/// One piece of `role` alone on an otherwise empty board, its destinations summed over every cell.
fn empty_board_sum(shape: Shape, role: Role) -> usize {
    (0..shape.cells())
        .map(|i| {
            let cell = Cell::new(i as u16);
            let mut s = Setup::empty(shape);
            s.board[cell.index()] = Some(Piece::new(Color::White, role));
            naive::piece_destinations(&s, cell).len()
        })
        .sum()
}

#[test]
fn empty_board_constants_4d() {
    let t = Shape::TESSERACT;
    assert_eq!(empty_board_sum(t, Role::Rook), 10_000);
    assert_eq!(empty_board_sum(t, Role::Bishop), 18_000);
    assert_eq!(empty_board_sum(t, Role::Unicorn), 16_000);
    assert_eq!(empty_board_sum(t, Role::Dragon), 5_664);
    assert_eq!(empty_board_sum(t, Role::Queen), 49_664);
    assert_eq!(empty_board_sum(t, Role::King), 27_936);
    assert_eq!(empty_board_sum(t, Role::Knight), 14_400);
}

#[test]
fn empty_board_constants_2d() {
    // Classic figures: a rook always has 14 moves, a queen 1456 in total, a king 420, a knight 336.
    let c = Shape::CHESS;
    assert_eq!(empty_board_sum(c, Role::Rook), 64 * 14);
    assert_eq!(empty_board_sum(c, Role::Bishop), 560);
    assert_eq!(empty_board_sum(c, Role::Queen), 1_456);
    assert_eq!(empty_board_sum(c, Role::King), 420);
    assert_eq!(empty_board_sum(c, Role::Knight), 336);
}

#[test]
fn empty_board_piece_counts_per_cell_4d() {
    // A queen in the centre of 5^4 reaches 2 cells along each of the 80 directions; a corner knight 12.
    let t = Shape::TESSERACT;
    let mut s = Setup::empty(t);
    let centre = at(t, &[3, 3, 3, 3]);
    s.board[centre.index()] = Some(Piece::new(Color::White, Role::Queen));
    assert_eq!(naive::piece_destinations(&s, centre).len(), 160);
    let mut s = Setup::empty(t);
    let corner = at(t, &[1, 1, 1, 1]);
    s.board[corner.index()] = Some(Piece::new(Color::Black, Role::Knight));
    assert_eq!(naive::piece_destinations(&s, corner).len(), 12);
}

// ---------------------------------------------------------------------------------------------------
// Classic chess and Chess960: public perft figures
// ---------------------------------------------------------------------------------------------------

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
const CHESS960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

// The classic and Chess960 suites' figures are checked with this generator by tests/suites.rs, from
// tests/data/*.perft (to 5 million leaves in optimised builds).

#[test]
fn perft_is_color_symmetric_in_2d() {
    // The point reflection swaps colors and reverses files too, so castling (king to g or c) is not
    // symmetric: compare the positions without castling rights.
    for text in [KIWIPETE, POSITION_3, POSITION_4, POSITION_6, CHESS960] {
        let mut s = setup(text);
        s.castling.clear();
        assert_eq!(naive::perft(&s, 3), naive::perft(&s.mirrored(), 3), "{text}");
    }
}

// ---------------------------------------------------------------------------------------------------
// Tesseract (RULES.md §3)
// ---------------------------------------------------------------------------------------------------

#[test]
fn tesseract_start_is_the_contract_text() {
    let text = "rnknr/5/5/5/5//ubqbu/5/5/5/5//1d1d1/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/wwwww/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/wwwww/5/5///5/yyyyy/5/YYYYY/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/yyyyy/5/YYYYY/5///5/5/WWWWW/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/WWWWW/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/1D1D1//5/5/5/5/UBQBU//5/5/5/5/RNKNR w - - 0 1";
    assert_eq!(setup(text), tesseract(Army::Standard));
}

#[test]
fn perft_tesseract_depth_1() {
    assert_eq!(naive::perft(&tesseract(Army::Light), 1), Army::Light.perft()[0]);
    assert_eq!(naive::perft(&tesseract(Army::Standard), 1), Army::Standard.perft()[0]);
    assert_eq!(naive::perft(&tesseract(Army::Dense), 1), Army::Dense.perft()[0]);
}

#[test]
fn perft_tesseract_standard_depth_2() {
    assert_eq!(naive::perft(&tesseract(Army::Standard), 2), Army::Standard.perft()[1]);
}

#[test]
fn perft_tesseract_light_and_dense_depth_2() {
    assert_eq!(naive::perft(&tesseract(Army::Light), 2), Army::Light.perft()[1]);
    assert_eq!(naive::perft(&tesseract(Army::Dense), 2), Army::Dense.perft()[1]);
}

#[test]
#[ignore = "about 30 s per count in release; run with --release -- --ignored"]
fn perft_tesseract_standard_depth_3() {
    assert_eq!(naive::perft(&tesseract(Army::Standard), 3), Army::Standard.perft()[2]);
}

// One test per army, so that the test threads count them side by side.
#[test]
#[ignore = "about 30 s per count in release; run with --release -- --ignored"]
fn perft_tesseract_light_depth_3() {
    assert_eq!(naive::perft(&tesseract(Army::Light), 3), Army::Light.perft()[2]);
}

#[test]
#[ignore = "about 30 s per count in release; run with --release -- --ignored"]
fn perft_tesseract_dense_depth_3() {
    assert_eq!(naive::perft(&tesseract(Army::Dense), 3), Army::Dense.perft()[2]);
}

#[test]
fn tesseract_start_moves_are_symmetric() {
    // The start is its own point reflection: Black has as many moves as White, and after any White move
    // the position and its reflection (colors swapped, Black's turn becoming White's) have as many replies.
    let s = tesseract(Army::Standard);
    let mut black_to_move = s.clone();
    black_to_move.turn = Color::Black;
    assert_eq!(naive::legal_moves(&black_to_move).len(), 226);
    for m in naive::legal_moves(&s) {
        let after = naive::play(&s, m);
        assert_eq!(naive::perft(&after, 1), naive::perft(&after.mirrored(), 1));
    }
}

#[test]
fn tesseract_promotions_list_six_pieces() {
    let t = Shape::TESSERACT;
    let mut s = Setup::empty(t);
    s.put(&[3, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
    s.put(&[3, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
    s.put(&[1, 4, 1, 3], Some(Piece::new(Color::White, Role::YPawn)));
    s.put(&[1, 3, 1, 4], Some(Piece::new(Color::White, Role::WPawn)));
    let moves = naive::legal_moves(&s);
    let y = at(t, &[1, 4, 1, 3]);
    let promos: Vec<Option<Role>> = moves.iter().filter(|m| m.from == y).map(|m| m.promotion).collect();
    assert_eq!(
        promos,
        [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Unicorn, Role::Dragon].map(Some).to_vec()
    );
    let w = at(t, &[1, 3, 1, 4]);
    assert_eq!(moves.iter().filter(|m| m.from == w).count(), 6);
    let m = Move::with_promotion(w, at(t, &[1, 3, 1, 5]), Some(Role::Dragon));
    let after = naive::play(&s, m);
    assert_eq!(after.piece(m.to), Some(Piece::new(Color::White, Role::Dragon)));
    assert_eq!(after.piece(w), None);
}

#[test]
fn tesseract_pawn_captures_only_along_x_and_z() {
    let t = Shape::TESSERACT;
    let mut s = Setup::empty(t);
    s.put(&[3, 3, 3, 3], Some(Piece::new(Color::White, Role::YPawn)));
    // Enemies on every cell one step forward along y and one step along another axis.
    for d in [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]] {
        let c = [(3 + d[0]) as u8, 4, (3 + d[1]) as u8, (3 + d[2]) as u8];
        s.put(&c, Some(Piece::new(Color::Black, Role::Knight)));
    }
    let dest = naive::piece_destinations(&s, at(t, &[3, 3, 3, 3]));
    let mut want = vec![
        at(t, &[2, 4, 3, 3]),
        at(t, &[4, 4, 3, 3]),
        at(t, &[3, 4, 2, 3]),
        at(t, &[3, 4, 4, 3]),
        at(t, &[3, 4, 3, 3]),
    ];
    want.sort();
    assert_eq!(dest, want);
    // And it attacks exactly those four capture cells.
    let attacked: Vec<Cell> =
        (0..t.cells()).map(|i| Cell::new(i as u16)).filter(|&c| naive::is_attacked(&s, c, Color::White)).collect();
    want.retain(|&c| c != at(t, &[3, 4, 3, 3]));
    assert_eq!(attacked, want);
}

#[test]
fn tesseract_en_passant_by_either_pawn_and_a_push_onto_the_target() {
    let t = Shape::TESSERACT;
    let mut s = Setup::empty(t);
    s.turn = Color::Black;
    s.put(&[3, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
    s.put(&[3, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
    s.put(&[2, 4, 1, 3], Some(Piece::new(Color::Black, Role::YPawn)));
    s.put(&[3, 2, 1, 3], Some(Piece::new(Color::White, Role::YPawn)));
    s.put(&[1, 3, 1, 2], Some(Piece::new(Color::White, Role::WPawn)));
    s.put(&[2, 3, 1, 2], Some(Piece::new(Color::White, Role::WPawn)));
    s.halfmove = 7;
    let double = Move::new(at(t, &[2, 4, 1, 3]), at(t, &[2, 2, 1, 3]));
    assert!(naive::legal_moves(&s).contains(&double));
    let s = naive::play(&s, double);
    let target = at(t, &[2, 3, 1, 3]);
    let victim = at(t, &[2, 2, 1, 3]);
    assert_eq!(s.en_passant, Some(target));
    assert_eq!((s.turn, s.halfmove, s.fullmove), (Color::White, 0, 2));
    let moves = naive::legal_moves(&s);
    let by_y = Move::new(at(t, &[3, 2, 1, 3]), target);
    let by_w = Move::new(at(t, &[1, 3, 1, 2]), target);
    let push = Move::new(at(t, &[2, 3, 1, 2]), target);
    for m in [by_y, by_w, push] {
        assert!(moves.contains(&m), "{m:?} missing");
    }
    for m in [by_y, by_w] {
        let after = naive::play(&s, m);
        assert_eq!(after.piece(victim), None, "en passant removes the pawn");
        assert_eq!(after.piece(target), s.piece(m.from));
        assert_eq!(after.en_passant, None);
    }
    let after = naive::play(&s, push);
    assert_eq!(after.piece(victim), Some(Piece::new(Color::Black, Role::YPawn)), "a push captures nothing");
    // The en passant right lasts one ply.
    let king_move = Move::new(at(t, &[3, 1, 1, 1]), at(t, &[3, 1, 1, 2]));
    assert_eq!(naive::play(&s, king_move).en_passant, None);
}

#[test]
fn tesseract_w_pawn_double_step_sets_the_target() {
    let t = Shape::TESSERACT;
    let mut s = Setup::empty(t);
    s.put(&[3, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
    s.put(&[3, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
    s.put(&[2, 3, 2, 2], Some(Piece::new(Color::White, Role::WPawn)));
    s.put(&[3, 3, 3, 4], Some(Piece::new(Color::Black, Role::WPawn)));
    let from = at(t, &[2, 3, 2, 2]);
    let mut dest = naive::piece_destinations(&s, from);
    dest.sort();
    assert_eq!(dest, vec![at(t, &[2, 3, 2, 3]), at(t, &[2, 3, 2, 4])]);
    let s = naive::play(&s, Move::new(from, at(t, &[2, 3, 2, 4])));
    assert_eq!(s.en_passant, Some(at(t, &[2, 3, 2, 3])));
    // A black W-pawn's capture cells are one step back along w and one along x or z: (3,3,3,4) cannot
    // reach the target (2,3,2,3), (3,3,2,4) can, and takes the W-pawn on (2,3,2,4).
    let moves = naive::legal_moves(&s);
    assert!(!moves.contains(&Move::new(at(t, &[3, 3, 3, 4]), at(t, &[2, 3, 2, 3]))));
    let mut s2 = s.clone();
    s2.board[at(t, &[3, 3, 3, 4]).index()] = None;
    s2.put(&[3, 3, 2, 4], Some(Piece::new(Color::Black, Role::WPawn)));
    let ep = Move::new(at(t, &[3, 3, 2, 4]), at(t, &[2, 3, 2, 3]));
    assert!(naive::legal_moves(&s2).contains(&ep));
    let after = naive::play(&s2, ep);
    assert_eq!(after.piece(at(t, &[2, 3, 2, 4])), None);
    assert_eq!(after.piece(at(t, &[2, 3, 2, 3])), Some(Piece::new(Color::Black, Role::WPawn)));
}

// ---------------------------------------------------------------------------------------------------
// Castling (2D, RULES.md §5, §6)
// ---------------------------------------------------------------------------------------------------

#[test]
fn chess960_castling_uncovers_a_rook_on_the_back_rank() {
    // King c1, castling rook b1, enemy rook a1: queen-side castling leaves the king on c1 and the rook
    // goes to d1, uncovering the a1 rook's attack on c1. Illegal.
    let s = setup("7k/8/8/8/8/8/8/rRK5 w B - 0 1");
    assert_eq!(s.castling, vec![sq("b1")]);
    assert!(!naive::legal_moves(&s).contains(&Move::new(sq("c1"), sq("b1"))));
    // Without the enemy rook it is legal, and the king stays on c1.
    let s = setup("7k/8/8/8/8/8/8/1RK5 w B - 0 1");
    let m = Move::new(sq("c1"), sq("b1"));
    assert!(naive::legal_moves(&s).contains(&m));
    let after = naive::play(&s, m);
    assert_eq!(after.piece(sq("c1")), Some(Piece::new(Color::White, Role::King)));
    assert_eq!(after.piece(sq("d1")), Some(Piece::new(Color::White, Role::Rook)));
    assert_eq!(after.piece(sq("b1")), None);
    assert!(after.castling.is_empty());
    assert_eq!(after.halfmove, 1, "castling is not a capture");
}

#[test]
fn chess960_castling_king_and_rook_swap() {
    let s = setup("6k1/8/8/8/8/8/8/5KR1 w G - 0 1");
    let m = Move::new(sq("f1"), sq("g1"));
    assert!(naive::legal_moves(&s).contains(&m));
    let after = naive::play(&s, m);
    assert_eq!(after.piece(sq("g1")), Some(Piece::new(Color::White, Role::King)));
    assert_eq!(after.piece(sq("f1")), Some(Piece::new(Color::White, Role::Rook)));
    // King already on g1, rook on h1: only the rook moves, and f1 must be empty.
    let s = setup("k7/8/8/8/8/8/8/6KR w H - 0 1");
    let m = Move::new(sq("g1"), sq("h1"));
    let after = naive::play(&s, m);
    assert!(naive::legal_moves(&s).contains(&m));
    assert_eq!(after.piece(sq("f1")), Some(Piece::new(Color::White, Role::Rook)));
    assert_eq!(after.piece(sq("g1")), Some(Piece::new(Color::White, Role::King)));
    assert_eq!(after.piece(sq("h1")), None);
    let s = setup("k7/8/8/8/8/8/8/5NKR w H - 0 1");
    assert!(!naive::legal_moves(&s).contains(&m), "f1 is occupied");
}

#[test]
fn castling_through_or_out_of_check() {
    // f1 attacked: no king-side castling; b1 attacked does not stop queen-side castling.
    let s = setup("4k3/8/8/8/8/8/1r3r2/R3K2R w KQ - 0 1");
    let moves = naive::legal_moves(&s);
    assert!(!moves.contains(&Move::new(sq("e1"), sq("h1"))));
    assert!(moves.contains(&Move::new(sq("e1"), sq("a1"))));
    // In check: no castling at all.
    let s = setup("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    let moves = naive::legal_moves(&s);
    assert!(!moves.contains(&Move::new(sq("e1"), sq("h1"))));
    assert!(!moves.contains(&Move::new(sq("e1"), sq("a1"))));
    // Landing on an attacked square: no.
    let s = setup("4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1");
    assert!(!naive::legal_moves(&s).contains(&Move::new(sq("e1"), sq("h1"))));
    // Classic castling result.
    let s = setup("4k3/8/8/8/8/8/8/R3K2R w KQ - 3 1");
    let after = naive::play(&s, Move::new(sq("e1"), sq("h1")));
    assert_eq!(after.piece(sq("g1")), Some(Piece::new(Color::White, Role::King)));
    assert_eq!(after.piece(sq("f1")), Some(Piece::new(Color::White, Role::Rook)));
    assert_eq!(after.piece(sq("e1")), None);
    assert_eq!(after.piece(sq("h1")), None);
    let after = naive::play(&s, Move::new(sq("e1"), sq("a1")));
    assert_eq!(after.piece(sq("c1")), Some(Piece::new(Color::White, Role::King)));
    assert_eq!(after.piece(sq("d1")), Some(Piece::new(Color::White, Role::Rook)));
    assert!(after.castling.is_empty());
    assert_eq!(after.halfmove, 4);
}

#[test]
fn castling_rights_follow_rooks_and_kings() {
    let s = setup("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let after = naive::play(&s, Move::new(sq("a1"), sq("a8")));
    assert_eq!(after.castling, vec![sq("h1"), sq("h8")]);
    assert_eq!(after.halfmove, 0);
    let after = naive::play(&s, Move::new(sq("h1"), sq("h4")));
    assert_eq!(after.castling, vec![sq("a1"), sq("a8"), sq("h8")]);
    let after = naive::play(&s, Move::new(sq("e1"), sq("d1")));
    assert_eq!(after.castling, vec![sq("a8"), sq("h8")]);
    let after = naive::play(&after, Move::new(sq("e8"), sq("e7")));
    assert!(after.castling.is_empty());
    assert_eq!(after.fullmove, 2);
}

// ---------------------------------------------------------------------------------------------------
// Make, attacks, divide
// ---------------------------------------------------------------------------------------------------

#[test]
fn en_passant_in_2d() {
    let s = setup("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    let s = naive::play(&s, Move::new(sq("d7"), sq("d5")));
    assert_eq!(s.en_passant, Some(sq("d6")));
    let m = Move::new(sq("e5"), sq("d6"));
    assert!(naive::legal_moves(&s).contains(&m));
    let after = naive::play(&s, m);
    assert_eq!(after.piece(sq("d5")), None);
    assert_eq!(after.piece(sq("d6")), Some(Piece::new(Color::White, Role::YPawn)));
    // The target is set after every double step, even if no pawn can capture.
    let s = naive::play(&setup(START), Move::new(sq("e2"), sq("e4")));
    assert_eq!(s.en_passant, Some(sq("e3")));
    // En passant exposing the king along the rank is illegal.
    let s = setup("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(!naive::legal_moves(&s).contains(&Move::new(sq("e5"), sq("d6"))));
}

#[test]
fn promotions_in_2d_list_four_pieces() {
    let s = setup("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let moves = naive::legal_moves(&s);
    let promos: Vec<Move> = moves.into_iter().filter(|m| m.from == sq("a7")).collect();
    assert_eq!(promos.len(), 8, "a8 and b8, four pieces each");
    assert!(promos.iter().all(|m| m.promotion.is_some()));
}

#[test]
fn is_attacked_basics() {
    let s = setup(START);
    assert!(naive::is_attacked(&s, sq("f3"), Color::White));
    assert!(naive::is_attacked(&s, sq("d3"), Color::White));
    assert!(!naive::is_attacked(&s, sq("e4"), Color::White));
    assert!(naive::is_attacked(&s, sq("f6"), Color::Black));
    assert!(!naive::is_attacked(&s, sq("e1"), Color::Black));
    // Sliders are blocked; a pawn attacks diagonally only.
    let s = setup("4k3/8/8/8/8/8/4P3/4K2R w - - 0 1");
    assert!(naive::is_attacked(&s, sq("f1"), Color::White));
    assert!(naive::is_attacked(&s, sq("h8"), Color::White));
    assert!(!naive::is_attacked(&s, sq("e3"), Color::White));
    assert!(naive::is_attacked(&s, sq("d3"), Color::White));
}

#[test]
fn divide_adds_up_to_perft() {
    let s = setup(KIWIPETE);
    let d = naive::divide(&s, 2);
    assert_eq!(d.len(), 48);
    assert_eq!(d.iter().map(|&(_, n)| n).sum::<u64>(), 2_039);
    let t = tesseract(Army::Standard);
    let d = naive::divide(&t, 1);
    assert_eq!(d.len(), 226);
    assert!(d.iter().all(|&(_, n)| n == 1));
    assert!(naive::divide(&t, 0).is_empty());
    assert_eq!(naive::perft(&t, 0), 1);
}

#[test]
fn checkmate_and_stalemate_have_no_moves() {
    assert!(naive::legal_moves(&setup("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")).is_empty());
    assert!(naive::legal_moves(&setup("7k/8/6QK/8/8/8/8/8 b - - 0 1")).is_empty());
}
