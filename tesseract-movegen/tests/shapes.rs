//! The shapes differential: random valid positions on every supported shape (1 to 4 axes, side 3 to 9),
//! where the fast generator, `make`/`unmake`, the incremental hash and the position text are checked against
//! the naive generator and naive play at the root and at every node of a random walk.
//!
//! Tesseract (5⁴) and chess (8×8) have their own deep suites; this test is for the shapes nobody plays yet,
//! where a table that only happens to be right on 5⁴ and 8×8 shows (sides 7 and 9 once let a king step onto
//! an attacked cell; side 4 once forgot to promote on a double step).
//!
//! The same random positions check the notations on every shape: each legal move's text, its SAN (short
//! SAN in 2D, the long form elsewhere) and a PGN of the walk in every notation read back to the same move
//! and game (boards of one axis once wrote texts, `23`, `R2-3`, `1. 23 *`, that no reader took).

use std::collections::BTreeSet;

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::geometry::{MAX_DIMS, MAX_SIDE, MIN_SIDE};
use tesseract_board::{CastlingMode, Cell, Color, Move, Piece, Position, Role, Setup, Shape, TextMove};
use tesseract_movegen::pgn::{Notation, PgnGame, WriteOptions};
use tesseract_movegen::san::{self, SanPlus};
use tesseract_movegen::{Legal, legal_moves, naive};

/// Picks a uniformly random index below `n`.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A random setup of `shape`: two kings and a few other pieces of the roles that exist there, pawns mostly
/// on their start rows (so double steps and en passant happen), and on 8×8 (the one board with castling) castling rights for rooks
/// that stand on their king's back rank. Often invalid; the caller keeps the valid ones.
fn random_setup(shape: Shape, rng: &mut ChaCha8Rng) -> (Setup, CastlingMode) {
    let g = shape.geometry();
    let d = shape.dims();
    let n = shape.side() as u8;
    let mut setup = Setup::empty(shape);
    setup.turn = if rng.next_u64() % 2 == 0 { Color::White } else { Color::Black };
    let roles: Vec<Role> = Role::ALL.iter().copied().filter(|r| *r != Role::King && r.exists_in(d)).collect();
    let free = |setup: &Setup, rng: &mut ChaCha8Rng| loop {
        let cell = Cell::new(below(rng, shape.cells()) as u16);
        if setup.piece(cell).is_none() {
            return cell;
        }
    };
    let mut mode = CastlingMode::Standard;
    if shape == Shape::CHESS && rng.next_u64() % 2 == 0 {
        // Back ranks with a king between two rooks, Chess960 style, for either or both sides.
        mode = CastlingMode::Chess960;
        for color in Color::ALL {
            if rng.next_u64() % 3 == 0 {
                continue;
            }
            let rank = if color == Color::White { 1 } else { n };
            let king_file = 2 + below(rng, n as usize - 2) as u8;
            let left = 1 + below(rng, king_file as usize - 1) as u8;
            let right = king_file + 1 + below(rng, (n - king_file) as usize) as u8;
            setup.put(&[king_file, rank], Some(Piece::new(color, Role::King)));
            for file in [left, right] {
                setup.put(&[file, rank], Some(Piece::new(color, Role::Rook)));
                if rng.next_u64() % 4 != 0 {
                    setup.castling.push(g.cell(&[file, rank]).expect("on the board"));
                }
            }
        }
        setup.castling.sort();
    }
    for color in Color::ALL {
        if !setup.board.contains(&Some(Piece::new(color, Role::King))) {
            let cell = free(&setup, rng);
            setup.board[cell.index()] = Some(Piece::new(color, Role::King));
        }
    }
    // Bigger boards get more pieces, but few enough for the naive generator in a debug build.
    let room = shape.cells() - setup.board.iter().flatten().count();
    let extra = (1 + below(rng, (2 + shape.cells().ilog2() as usize).min(12))).min(room);
    for _ in 0..extra {
        let color = if rng.next_u64() % 2 == 0 { Color::White } else { Color::Black };
        // Pawns half the time (when the board has them), other roles evenly.
        let pawns: Vec<Role> = roles.iter().copied().filter(|r| r.is_pawn()).collect();
        let role = if !pawns.is_empty() && rng.next_u64() % 2 == 0 {
            pawns[below(rng, pawns.len())]
        } else {
            roles[below(rng, roles.len())]
        };
        let mut cell = free(&setup, rng);
        if let Some(axis) = role.pawn_axis().filter(|_| rng.next_u64() % 2 == 0) {
            // Move it onto its start row along its axis (2 for White, n − 1 for Black), if that cell is free.
            let mut coords = g.coords(cell);
            coords[axis] = if color == Color::White { 2 } else { n - 1 };
            let start = g.cell(&coords[..d]).expect("on the board");
            if setup.piece(start).is_none() {
                cell = start;
            }
        }
        setup.board[cell.index()] = Some(Piece::new(color, role));
    }
    if n >= 5 && !g.pawn_roles().is_empty() && rng.next_u64() % 3 == 0 {
        add_en_passant(&mut setup, rng);
    }
    (setup, mode)
}

/// Stages a double step that just happened: a pawn of the side that moved on the cell beyond the passed
/// one, the passed and start cells empty, and a pawn of the side to move beside it, ready to take.
fn add_en_passant(setup: &mut Setup, rng: &mut ChaCha8Rng) {
    let g = setup.shape.geometry();
    let d = g.dims();
    let n = g.side() as u8;
    let mover = setup.turn.other();
    let role = g.pawn_roles()[below(rng, g.pawn_roles().len())];
    let axis = role.pawn_axis().expect("a pawn");
    let k = g.capture_axes()[below(rng, g.capture_axes().len())];
    let (start, passed, landed) = if mover == Color::White { (2, 3, 4) } else { (n - 1, n - 2, n - 3) };
    let mut coords: Vec<u8> = (0..d).map(|_| 1 + below(rng, n as usize) as u8).collect();
    coords[k] = 2 + below(rng, n as usize - 2) as u8;
    let at = |coords: &[u8], v: u8| {
        let mut c = coords.to_vec();
        c[axis] = v;
        g.cell(&c).expect("on the board")
    };
    let (origin, over, victim) = (at(&coords, start), at(&coords, passed), at(&coords, landed));
    let mut beside = coords.clone();
    beside[k] += if rng.next_u64() % 2 == 0 { 1 } else { 0 };
    beside[k] -= if beside[k] == coords[k] { 1 } else { 0 };
    let taker = at(&beside, landed);
    for cell in [origin, over, victim, taker] {
        if setup.piece(cell).is_some_and(|p| p.role == Role::King) {
            return;
        }
    }
    setup.board[origin.index()] = None;
    setup.board[over.index()] = None;
    setup.board[victim.index()] = Some(Piece::new(mover, role));
    setup.board[taker.index()] = Some(Piece::new(setup.turn, role));
    setup.en_passant = Some(over);
}

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<Move> {
    let mut v: Vec<Move> = moves.into_iter().collect();
    v.sort();
    v
}

/// Checks one node: fast and naive move sets, every child by `make` against naive play (and its hash
/// against the hash from scratch), `unmake`, and the position text read back. Returns the legal moves.
fn check_node(pos: &mut Position) -> Vec<Move> {
    let setup = pos.to_setup();
    let fen = pos.fen();
    let back = Position::from_fen_with_mode(&fen, pos.castling_mode()).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(back, *pos, "the text {fen} reads back to another position");
    assert_eq!(back.hash(), pos.hash(), "{fen}");
    let fast = sorted(legal_moves(pos));
    let slow = sorted(naive::legal_moves(&setup));
    if fast != slow {
        let f: BTreeSet<_> = fast.iter().map(|&m| TextMove::from_move(m, pos).to_string()).collect();
        let s: BTreeSet<_> = slow.iter().map(|&m| TextMove::from_move(m, pos).to_string()).collect();
        panic!(
            "generators disagree at {fen}\n  only fast: {:?}\n  only naive: {:?}",
            f.difference(&s).collect::<Vec<_>>(),
            s.difference(&f).collect::<Vec<_>>()
        );
    }
    for &m in &fast {
        let before = pos.clone();
        let text = TextMove::from_move(m, pos);
        assert_eq!(pos.resolve(&text), Ok(m), "{text} in {fen}");
        let undo = pos.make(m);
        let expected = Position::from_setup(naive::play(&setup, m), pos.castling_mode())
            .unwrap_or_else(|e| panic!("naive child of {fen} by {text} is invalid: {e}"));
        assert_eq!(*pos, expected, "make and naive play differ after {text} from {fen}");
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "incremental hash after {text} from {fen}");
        assert_eq!(pos.hash(), expected.hash(), "hash after {text} from {fen}");
        pos.unmake(m, undo);
        assert_eq!(*pos, before, "unmake of {text} from {fen}");
        assert_eq!(pos.hash(), before.hash(), "unmake of {text} from {fen}: hash");
    }
    fast
}

/// What the walks reached on one shape.
#[derive(Default, Debug)]
struct Reached {
    nodes: usize,
    positions: usize,
    checks: usize,
    promotions: usize,
    en_passant: usize,
    castling: usize,
}

/// A random valid position of `shape` (castling in Chess960 mode on 8×8).
fn random_position(shape: Shape, rng: &mut ChaCha8Rng) -> Position {
    for _ in 0..10_000 {
        let (setup, mode) = random_setup(shape, rng);
        if let Ok(pos) = Position::from_setup(setup, mode) {
            return pos;
        }
    }
    panic!("{shape}: no valid random setup in 10,000 tries");
}

/// Random valid positions of `shape`, each checked at the root and along a random walk.
fn walk_shape(shape: Shape, seed: u64, positions: usize, plies: usize) -> Reached {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (shape.dims() as u64) << 8 ^ shape.side() as u64);
    let mut reached = Reached::default();
    let mut tries = 0;
    while reached.positions < positions {
        tries += 1;
        assert!(tries < 200 * positions, "{shape}: too few valid random setups");
        let (setup, mode) = random_setup(shape, &mut rng);
        let Ok(mut pos) = Position::from_setup(setup, mode) else { continue };
        reached.positions += 1;
        for _ in 0..plies {
            let moves = check_node(&mut pos);
            reached.nodes += 1;
            reached.checks += pos.is_check() as usize;
            reached.promotions += moves.iter().any(|m| m.promotion.is_some()) as usize;
            reached.en_passant += pos.en_passant().is_some() as usize;
            reached.castling +=
                moves.iter().any(|m| pos.piece_at(m.to).is_some_and(|p| p.color == pos.turn())) as usize;
            if moves.is_empty() {
                break;
            }
            // Pawn moves half the time when there are any, so double steps meet enemy pawns (en passant).
            let pawn_moves: Vec<Move> =
                moves.iter().copied().filter(|m| pos.piece_at(m.from).is_some_and(|p| p.role.is_pawn())).collect();
            let pool = if !pawn_moves.is_empty() && rng.next_u64() % 2 == 0 { &pawn_moves } else { &moves };
            let m = pool[below(&mut rng, pool.len())];
            pos.play(m).expect("a legal move plays");
        }
    }
    reached
}

fn every_shape() -> impl Iterator<Item = Shape> {
    (1..=MAX_DIMS).flat_map(|d| (MIN_SIDE..=MAX_SIDE).map(move |n| Shape::new(d, n as usize).expect("supported")))
}

#[test]
fn generators_agree_on_random_positions_of_every_shape() {
    let (positions, plies) = if cfg!(debug_assertions) { (24, 16) } else { (60, 24) };
    let mut total = Reached::default();
    for shape in every_shape() {
        // The naive generator scans every cell for every move: keep the largest boards' samples smaller.
        let (positions, plies) = match shape.cells() {
            c if c > 2000 && !cfg!(debug_assertions) => (positions / 4, plies / 2),
            c if c > 2000 => (positions / 2, plies / 2),
            _ => (positions, plies),
        };
        let r = walk_shape(shape, 0x5a9e5, positions, plies);
        println!("{shape}: {r:?}");
        assert!(r.nodes >= positions, "{shape}: {r:?}");
        // Every shape with pawns reaches promotions (side 4's double step onto the last row among them).
        if shape.dims() >= 2 {
            assert!(r.promotions > 0, "{shape}: {r:?}");
        }
        total.nodes += r.nodes;
        total.positions += r.positions;
        total.checks += r.checks;
        total.promotions += r.promotions;
        total.en_passant += r.en_passant;
        total.castling += r.castling;
    }
    println!("all shapes: {total:?}");
    assert!(total.checks > 0 && total.promotions > 0 && total.en_passant > 0 && total.castling > 0, "{total:?}");
}

/// The cases the outside review found, each as a position and the moves both generators must list.
#[test]
fn found_by_the_shapes_differential() {
    // Side 7: the bishop on a1 covers f6 along the long diagonal; the black king on g7 may not step there.
    let pos = Position::from_fen("6k/7/7/7/7/7/B5K b - - 0 1").unwrap();
    let moves: BTreeSet<String> = legal_moves(&pos).iter().map(|&m| TextMove::from_move(m, &pos).to_string()).collect();
    assert_eq!(moves, ["g7f7", "g7g6"].map(String::from).into());
    // From the stalemate with a rook on f6's file too, the king has no move at all.
    let stalemate = Position::from_fen("6k/5R1/7/7/7/7/B5K b - - 0 1").unwrap();
    assert!(legal_moves(&stalemate).is_empty() && !stalemate.is_check());
    // Side 4: the black pawn's double step from b3 lands on b1, the last row, and promotes.
    let pos = Position::from_fen("k3/1p2/4/3K b - - 0 1").unwrap();
    assert_eq!(legal_moves(&pos).len(), 7);
    assert_eq!(naive::legal_moves(&pos.to_setup()).len(), 7);
    let mut after = pos.clone();
    let m = after.parse_move("b3b1q").expect("the promoting double step is legal");
    after.play(m).unwrap();
    assert_eq!(after.fen(), "k3/4/4/1q1K w - - 0 2");
    // Side 9, in 4D as well as 2D: every shape's generator is checked by the differential above; here
    // one 9×9 case of the same table fault (a bishop's long diagonal seen as another line).
    let pos = Position::from_fen("8k/9/9/9/9/9/9/9/B7K b - - 0 1").unwrap();
    let fast = sorted(legal_moves(&pos));
    assert_eq!(fast, sorted(naive::legal_moves(&pos.to_setup())));
}

#[test]
fn a_side_of_two_is_refused() {
    for d in 1..=MAX_DIMS {
        let err = Shape::new(d, 2).unwrap_err();
        assert!(err.to_string().contains("the two kings would always touch"), "{err}");
    }
    let err = Position::from_fen("k1/1K w - - 0 1").unwrap_err();
    assert!(err.to_string().contains("side"), "{err}");
}

/// Every legal move of `pos` written as its move text and as SAN (with its check mark) reads back to the
/// same move; returns the moves.
fn check_notations(pos: &Position) -> Vec<Move> {
    let fen = pos.fen();
    let moves = legal_moves(pos).to_vec();
    for &m in &moves {
        let text = TextMove::from_move(m, pos).to_string();
        assert_eq!(pos.parse_move(&text), Ok(m), "move text {text} in {fen}");
        let san = SanPlus::from_move(pos, m).to_string();
        assert_eq!(san::parse_move(pos, &san), Ok(m), "SAN {san} in {fen}");
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 6 } else { 24 }))]

    /// On every shape of 1 to 4 axes and side 3 to 9: a random position, a random walk of up to 8 plies
    /// from it with every legal move's text and SAN read back at each node, and the walk's PGN in every
    /// notation read back to the same game.
    #[test]
    fn every_move_text_san_and_pgn_reads_back_on_every_shape(seed in any::<u64>()) {
        for shape in every_shape() {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (shape.dims() as u64) << 8 ^ shape.side() as u64);
            let start = random_position(shape, &mut rng);
            let mut pos = start.clone();
            let mut game = PgnGame::new(start.clone());
            for _ in 0..8 {
                let moves = check_notations(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves[below(&mut rng, moves.len())];
                game.push(m);
                pos.play(m).expect("a legal move plays");
            }
            for notation in [Notation::Auto, Notation::San, Notation::Text] {
                let text = game.write_with(&WriteOptions { notation, ..WriteOptions::default() }).unwrap();
                let back: PgnGame = text.parse().unwrap_or_else(|e| panic!("{shape} {notation:?}: {e}\n{text}"));
                prop_assert_eq!(&back, &game, "{} {:?}\n{}", shape, notation, text);
            }
        }
    }
}

/// Boards of one axis: the texts the outside review found refused (`23`, `R2-3`, `1. 23 *`) read back.
#[test]
fn a_board_of_one_axis_has_texts_that_read_back() {
    let pos = Position::from_fen("K1R1n1k w - - 0 1").unwrap();
    let m = pos.parse_move("34").unwrap();
    assert_eq!(TextMove::from_move(m, &pos).to_string(), "34");
    assert_eq!(san::to_san(&pos, m), "R3-4");
    assert_eq!(san::parse_move(&pos, "R3-4"), Ok(m));
    let check = pos.parse_move("35").unwrap();
    assert_eq!(san::to_san(&pos, check), "R3x5#");
    assert_eq!(san::parse_move(&pos, "R3x5#"), Ok(check));
    let game = PgnGame::from_moves(pos.clone(), [m]);
    let text = game.to_pgn().unwrap();
    assert!(text.contains("[Variant \"Tesseract\"]\n[SetUp \"1\"]\n[FEN \"K1R1n1k w - - 0 1\"]\n"), "{text}");
    assert!(text.ends_with("\n\n1. 34 *\n"), "{text}");
    assert_eq!(text.parse::<PgnGame>().unwrap(), game);
    let long = game.write_with(&WriteOptions { notation: Notation::San, ..WriteOptions::default() }).unwrap();
    assert!(long.ends_with("\n\n1. R3-4 *\n"), "{long}");
    assert_eq!(long.parse::<PgnGame>().unwrap(), game);
    // Short SAN stays short SAN: a rank before a capture is not the long form of one axis.
    assert!(matches!("R1xa1".parse::<san::San>(), Ok(san::San::Normal { rank: Some(1), capture: true, .. })));
    // The long form of one axis on a board of three: written for another board.
    let err = san::parse_move(&tesseract_board::start::raumschach(), "R1-2").unwrap_err();
    assert_eq!(err.to_string(), "R1-2 is written for a board of 1 axes, but this board has 3");
}
