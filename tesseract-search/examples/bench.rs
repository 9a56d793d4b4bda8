//! Prints the bench signature: each bench position's node count at its fixed depth, then the total, the
//! time and the nodes per second.
//!
//! ```text
//! cargo run --release -p tesseract-search --example bench [-- --no-mate-safety]
//! ```
//!
//! `--no-mate-safety` searches with `Features::mate_safety` off (it is on by default), to see its cost in nodes.

use std::io::{self, Write};
use std::time::Instant;

use clap::Parser;
use tesseract_search::{Features, bench};

#[derive(Parser, Debug)]
#[command(about = "The engine's bench signature")]
struct Args {
    /// Search with mate safety off (the plain search, for comparison).
    #[arg(long)]
    no_mate_safety: bool,
}

fn main() {
    let args = Args::parse();
    let features = Features { mate_safety: !args.no_mate_safety, ..Features::default() };
    let mut out = io::stdout().lock();
    let start = Instant::now();
    let lines = bench::run_with(features, |line| {
        let name = if line.position.len() > 24 { &line.position[..24] } else { line.position };
        writeln!(out, "{name:<26} depth {:>2} nodes {:>9}", line.depth, line.nodes).unwrap_or_else(|e| fail(&e));
    });
    let total: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "{} positions, {total} nodes, {secs:.2} s, {:.0} nps", lines.len(), total as f64 / secs)
        .unwrap_or_else(|e| fail(&e));
    if total != bench::SIGNATURE && features == Features::default() {
        writeln!(out, "the signature changed: bench::SIGNATURE is {}", bench::SIGNATURE).unwrap_or_else(|e| fail(&e));
    }
}

/// Ends the bench after a failed write to standard output: at once and quietly with exit code 141 when
/// the reader went away (`bench | head -1`; 128 + SIGPIPE, as a shell reports a Unix tool killed by
/// SIGPIPE), otherwise with a line on stderr and exit code 1.
fn fail(error: &io::Error) -> ! {
    if error.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    eprintln!("bench: cannot write the output: {error}");
    std::process::exit(1);
}
