//! Move generation speed: fast vs naive in 4D, and 2D against shakmaty and cozy-chess on the same positions.
//!
//! `cargo bench --bench movegen` (all), or a filter such as `cargo bench --bench movegen -- 4d`.
//! Ratios between lines of one run are the figures to quote; absolute times depend on the machine.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};
use tesseract::board::{Position, start};
use tesseract::movegen::{naive, perft};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn shakmaty_perft(pos: &Chess, depth: u32) -> u64 {
    if depth <= 1 {
        return if depth == 0 { 1 } else { pos.legal_moves().len() as u64 };
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            shakmaty_perft(&child, depth - 1)
        })
        .sum()
}

fn tesseract_4d(c: &mut Criterion) {
    let mut group = c.benchmark_group("4d standard start");
    group.sample_size(10);
    let pos = start::tesseract(start::Army::Standard);
    group.bench_function("fast perft(3)", |b| {
        let mut p = pos.clone();
        b.iter(|| assert_eq!(perft(black_box(&mut p), 3), 11_715_134))
    });
    group.bench_function("fast perft(2)", |b| {
        let mut p = pos.clone();
        b.iter(|| assert_eq!(perft(black_box(&mut p), 2), start::Army::Standard.perft()[1]))
    });
    let setup = pos.to_setup();
    group.bench_function("naive perft(2)", |b| {
        b.iter(|| assert_eq!(naive::perft(black_box(&setup), 2), start::Army::Standard.perft()[1]))
    });
    if std::env::var_os("TESSERACT_BENCH_NAIVE3").is_some() {
        group.bench_function("naive perft(3)", |b| {
            b.iter(|| assert_eq!(naive::perft(black_box(&setup), 3), 11_715_134))
        });
    }
    group.finish();
}

/// Perft with cozy-chess, counting the last ply's moves without playing them.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 0 {
        return 1;
    }
    board.generate_moves(|moves| {
        if depth == 1 {
            nodes += moves.len() as u64;
        } else {
            for m in moves {
                let mut child = board.clone();
                child.play_unchecked(m);
                nodes += cozy_perft(&child, depth - 1);
            }
        }
        false
    });
    nodes
}

/// The chess suite's positions (tesseract-movegen/tests/data/chess.perft) at depths of 10 to 100 ms,
/// each counted by tesseract, shakmaty and cozy-chess, all three counting the last ply without playing it.
fn chess_2d(c: &mut Criterion) {
    let mut group = c.benchmark_group("2d");
    group.sample_size(20);
    for (name, fen, depth, expected) in [
        ("start perft(5)", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4_865_609),
        ("kiwipete perft(4)", KIWIPETE, 4, 4_085_603),
        ("position 3 perft(6)", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11_030_083),
        ("position 4 perft(5)", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15_833_292),
        ("position 5 perft(4)", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2_103_487),
    ] {
        let pos = Position::from_fen(fen).expect("valid FEN");
        group.bench_function(format!("tesseract {name}"), |b| {
            let mut p = pos.clone();
            b.iter(|| assert_eq!(perft(black_box(&mut p), depth), expected))
        });
        let chess: Chess = fen.parse::<Fen>().expect("valid FEN").into_position(CastlingMode::Standard).expect("legal");
        group.bench_function(format!("shakmaty {name}"), |b| {
            b.iter(|| assert_eq!(shakmaty_perft(black_box(&chess), depth), expected))
        });
        let board: cozy_chess::Board = fen.parse().expect("valid FEN");
        group.bench_function(format!("cozy-chess {name}"), |b| {
            b.iter(|| assert_eq!(cozy_perft(black_box(&board), depth), expected))
        });
    }
    group.finish();
}

criterion_group!(benches, tesseract_4d, chess_2d);
criterion_main!(benches);
