//! The 8×8 bitboard back end against the mailbox generator: the same moves in the same order, piece by
//! piece, in both modes, and the same counts, at every node of perft trees of the chess suites, on random
//! games from all 960 Chess960 starts, and on positions made for en passant pins, castling through check
//! and promotions with capture.

use std::ops::ControlFlow;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{Cell, Move, Position, Role, start};
use tesseract_movegen::fast::{count_mailbox, generate_until_mailbox};
use tesseract_movegen::{
    AllMoves, GenMode, MoveList, Noisy, count, generate_until, legal_moves, legal_moves_into, moves_from, noisy_moves,
};

const CHESS: &str = include_str!("data/chess.perft");
const CHESS960: &str = include_str!("data/chess960.perft");

type Pieces = Vec<(Cell, Role, Vec<Move>)>;

fn pieces<M: GenMode>(pos: &Position, mailbox: bool) -> Pieces {
    let mut out = Vec::new();
    let mut take = |piece: tesseract_movegen::PieceMoves<'_>| {
        out.push((piece.from, piece.role, piece.moves.to_vec()));
        ControlFlow::<()>::Continue(())
    };
    if mailbox {
        generate_until_mailbox::<M, ()>(pos, &mut take);
    } else {
        generate_until::<M, ()>(pos, &mut take);
    }
    out
}

fn flat(pieces: &Pieces) -> Vec<Move> {
    pieces.iter().flat_map(|(_, _, m)| m.iter().copied()).collect()
}

/// Compares the two back ends at `pos`: piece by piece and as lists, both modes, and the counts.
/// Returns the legal moves.
fn compare(pos: &Position) -> Vec<Move> {
    assert!(pos.bitboards().is_some(), "an 8×8 position uses the bitboard back end");
    let fen = pos.fen();
    let all_mb = pieces::<AllMoves>(pos, true);
    let all_bb = pieces::<AllMoves>(pos, false);
    assert_eq!(all_bb, all_mb, "pieces' moves differ (all moves) at {fen}");
    let noisy_mb = pieces::<Noisy>(pos, true);
    let noisy_bb = pieces::<Noisy>(pos, false);
    assert_eq!(noisy_bb, noisy_mb, "pieces' moves differ (noisy) at {fen}");
    let all = flat(&all_mb);
    assert_eq!(legal_moves(pos), all, "legal_moves at {fen}");
    let mut list = MoveList::new();
    legal_moves_into(pos, &mut list);
    assert_eq!(list.as_slice(), all.as_slice(), "legal_moves_into at {fen}");
    assert_eq!(noisy_moves(pos), flat(&noisy_mb), "noisy_moves at {fen}");
    assert_eq!(count(pos), all.len(), "count at {fen}");
    assert_eq!(count_mailbox(pos), all.len(), "mailbox count at {fen}");
    for (from, _, moves) in &all_mb {
        assert_eq!(&moves_from(pos, *from), moves, "moves_from at {fen}");
    }
    all
}

/// Compares at every node of the tree of `pos` to `depth` plies; returns the leaves.
fn tree(pos: &mut Position, depth: u32) -> u64 {
    let moves = compare(pos);
    if depth <= 1 {
        return moves.len() as u64;
    }
    let mut leaves = 0;
    for m in moves {
        let undo = pos.make(m);
        leaves += tree(pos, depth - 1);
        pos.unmake(m, undo);
    }
    leaves
}

/// The suite's positions with their figure at `depth`.
fn suite(text: &str, depth: u32) -> Vec<(Position, Option<u64>)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim();
            let figure = parts.filter_map(|p| p.trim().strip_prefix(&format!("D{depth} "))).next();
            (Position::from_fen(fen).unwrap(), figure.map(|f| f.trim().parse().unwrap()))
        })
        .collect()
}

/// Deep enough to reach every kind of move, shallow enough for a debug build.
const DEPTH: u32 = if cfg!(debug_assertions) { 3 } else { 4 };

#[test]
fn chess_suite_trees_agree_node_by_node() {
    let positions = suite(CHESS, DEPTH);
    assert!(positions.len() >= 7, "{}", positions.len());
    let mut figures = 0;
    for (mut pos, figure) in positions {
        let leaves = tree(&mut pos, DEPTH);
        // Not every line of the suite has a figure at every depth.
        if let Some(figure) = figure {
            assert_eq!(leaves, figure, "{}", pos.fen());
            figures += 1;
        }
    }
    assert!(figures >= 7, "{figures} figures checked");
}

#[test]
fn chess960_suite_trees_agree_node_by_node() {
    let positions = suite(CHESS960, 2);
    assert!(positions.len() >= 60);
    for (mut pos, figure) in positions {
        let leaves = tree(&mut pos, 2);
        assert_eq!(Some(leaves), figure, "{}", pos.fen());
    }
}

/// Positions made for the hard cases, each compared over a small tree.
#[test]
fn en_passant_pins_castling_through_check_and_promotions_agree() {
    let fens = [
        // En passant along the rank would uncover the rook: refused.
        "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        "8/8/8/r2pP2K/8/8/8/k7 w - d6 0 2",
        // En passant next to an enemy bishop (legal: nothing is pinned), by a pawn pinned on a diagonal
        // (refused), and capturing a checking pawn.
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "8/8/4k3/8/2pP4/8/B5K1/8 b - d3 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
        "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
        // Castling through, out of and into check; castling that gives check.
        "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
        "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
        "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/3q4/8/8/R3K2R w KQkq - 0 1",
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
        // Chess960: king and rook next to each other, the king on its destination, a rook through check.
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
        "5rkr/8/8/8/8/8/8/5RKR w HFhf - 0 1",
        "qr3kr1/8/8/8/8/8/8/QR3KR1 w GBgb - 0 1",
        "b1rk2r1/8/8/8/8/8/8/BR1K2R1 w GBg - 0 1",
        // Promotions, with capture, out of check, to give check; under-promotion and stalemates.
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
        "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
        "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
        "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
        "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        // Discovered and double checks.
        "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
        "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
    ];
    for fen in fens {
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        tree(&mut pos, DEPTH);
    }
}

/// Random games from every Chess960 start (classic chess is number 518), compared at every ply, and the
/// last position's tree of two plies.
#[test]
fn random_games_from_all_960_starts_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let plies = if cfg!(debug_assertions) { 40 } else { 120 };
    let mut nodes = 0;
    for number in 0..960 {
        let mut pos = start::chess960(number).unwrap();
        for _ in 0..plies {
            let moves = compare(&pos);
            nodes += 1;
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.next_u32() as usize % moves.len()];
            let _ = pos.make(m);
        }
        tree(&mut pos, 2);
    }
    assert!(nodes > 960 * 20, "{nodes} nodes");
}
