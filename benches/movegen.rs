//! Move generation speed: fast vs naive in 4D, and 2D against shakmaty on the same positions.
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

fn chess_2d(c: &mut Criterion) {
    let mut group = c.benchmark_group("2d");
    group.sample_size(20);
    for (name, fen, depth, expected) in [
        ("start perft(5)", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4_865_609),
        ("kiwipete perft(4)", KIWIPETE, 4, 4_085_603),
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
    }
    group.finish();
}

criterion_group!(benches, tesseract_4d, chess_2d);
criterion_main!(benches);
