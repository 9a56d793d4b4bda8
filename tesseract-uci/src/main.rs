//! `tesseract-uci`: the Tesseract engine over UCI on standard input and output (see the README).

use std::process::ExitCode;

use clap::Parser;

/// The Tesseract chess engine (chess, Chess960 and 4D Tesseract) speaking UCI on standard input and
/// output. Start it from a chess GUI or a match runner; type `uci` to see its options.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {}

fn main() -> ExitCode {
    let _ = Args::parse();
    match tesseract_uci::run(std::io::stdin().lock(), Box::new(std::io::stdout())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: reading standard input: {e}");
            ExitCode::FAILURE
        }
    }
}
