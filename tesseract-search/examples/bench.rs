//! Prints the bench signature: each bench position's node count at its fixed depth, then the total, the
//! time and the nodes per second.
//!
//! ```text
//! cargo run --release -p tesseract-search --example bench
//! ```

use std::time::Instant;

use tesseract_search::bench;

fn main() {
    let start = Instant::now();
    let lines = bench::run(|line| {
        let name = if line.position.len() > 24 { &line.position[..24] } else { line.position };
        println!("{name:<26} depth {:>2} nodes {:>9}", line.depth, line.nodes);
    });
    let total: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs = start.elapsed().as_secs_f64();
    println!("{} positions, {total} nodes, {secs:.2} s, {:.0} nps", lines.len(), total as f64 / secs);
    if total != bench::SIGNATURE {
        println!("the signature changed: bench::SIGNATURE is {}", bench::SIGNATURE);
    }
}
