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
//! give the ratio to quote: the file depends on nothing but `perft`, the start positions and clap, so it
//! can be copied into an older checkout (with `clap` added to its dev-dependencies).

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use tesseract_board::start;

#[derive(Parser, Debug)]
#[command(about = "One-thread perft speed from a start position, the best of several runs")]
struct Args {
    /// A start name (standard, light, dense, raumschach, classic, chess960:N, ...).
    #[arg(default_value = "standard")]
    start: String,
    /// The perft depth (1 to 8).
    #[arg(default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
    depth: u32,
    /// The runs, of which the fastest is kept (at least 1).
    #[arg(default_value_t = 15, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut pos = match start::by_name(&args.start) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("speed: {}: {e}", args.start);
            return ExitCode::from(2);
        }
    };
    let (name, depth, runs) = (&args.start, args.depth, args.runs);
    let mut best = f64::MAX;
    let mut leaves = 0;
    for _ in 0..runs {
        let clock = Instant::now();
        leaves = tesseract_movegen::perft(&mut pos, depth);
        best = best.min(clock.elapsed().as_secs_f64());
    }
    let line = format!(
        "{name} perft({depth}) {leaves} leaves, best of {runs} {:.2} ms, {:.1} M leaves/s",
        best * 1e3,
        leaves as f64 / best / 1e6
    );
    match writeln!(io::stdout(), "{line}") {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`speed | true`): 141, as a shell reports a Unix tool killed by SIGPIPE.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(141),
        Err(e) => {
            eprintln!("speed: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}
