//! Search speed: time to depth 6 from the Tesseract standard start with the master's 16 MB table, time to
//! depth 12 in a chess middlegame (the 8×8 bitboard paths of the evaluation and the exchange count), and the
//! bench signature's positions (nodes per second).
//!
//! `cargo bench --bench search`. Absolute times depend on the machine; the README quotes a run.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tesseract::board::{Position, start};
use tesseract::search::{Limits, Options, Searcher, Tier, bench};

fn depth_six(c: &mut Criterion) {
    let mut group = c.benchmark_group("tesseract standard start");
    group.sample_size(10);
    let pos = start::tesseract(start::Army::Standard);
    let mut searcher = Searcher::new(Tier::Master.settings().hash_mb);
    let limits = Limits { depth: Some(6), ..Limits::default() };
    group.bench_function("depth 6, 16 MB", |b| {
        b.iter(|| {
            searcher.clear();
            let r = searcher.search(black_box(&pos), &[], &limits, &Options::default(), |_| {});
            assert_eq!(r.depth, 6);
            r.nodes
        })
    });
    group.finish();
    let mut group = c.benchmark_group("chess middlegame");
    group.sample_size(10);
    let pos = Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9").expect("a FEN");
    let limits = Limits { depth: Some(12), ..Limits::default() };
    group.bench_function("depth 12, 16 MB", |b| {
        b.iter(|| {
            searcher.clear();
            let r = searcher.search(black_box(&pos), &[], &limits, &Options::default(), |_| {});
            assert_eq!(r.depth, 12);
            r.nodes
        })
    });
    group.finish();
    let mut group = c.benchmark_group("bench signature");
    group.sample_size(10);
    group.bench_function("18 positions", |b| b.iter(|| bench::run(|_| {}).iter().map(|l| l.nodes).sum::<u64>()));
    group.finish();
}

criterion_group!(benches, depth_six);
criterion_main!(benches);
