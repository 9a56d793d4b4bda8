//! One-thread perft speed: the best of several runs of [`tesseract_movegen::perft`] from a start
//! position, in leaves per second.
//!
//! ```text
//! cargo run --release -p tesseract-movegen --example speed [-- START DEPTH RUNS]
//! ```
//!
//! `START` is a start name (`standard`, `light`, `dense`, `classic`, …; default `standard`), `DEPTH`
//! defaults to 3 and `RUNS` to 15. The best wall-clock time is kept: on a machine shared with other jobs
//! the fastest run is the least disturbed. Two builds compared on the same machine, run alternately,
//! give the ratio to quote: the file depends on nothing but `perft` and the start positions, so it can
//! be copied into an older checkout.

use std::time::Instant;

use tesseract_board::start;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("standard", String::as_str);
    let depth: u32 = args.get(1).map_or(3, |s| s.parse().expect("a depth"));
    let runs: u32 = args.get(2).map_or(15, |s| s.parse().expect("a number of runs"));
    let mut pos = start::by_name(name).expect("a start name");
    let mut best = f64::MAX;
    let mut leaves = 0;
    for _ in 0..runs {
        let clock = Instant::now();
        leaves = tesseract_movegen::perft(&mut pos, depth);
        best = best.min(clock.elapsed().as_secs_f64());
    }
    println!(
        "{name} perft({depth}) {leaves} leaves, best of {runs} {:.2} ms, {:.1} M leaves/s",
        best * 1e3,
        leaves as f64 / best / 1e6
    );
}
