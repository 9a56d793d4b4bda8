//! Counts the leaves of the legal move tree (perft), optionally split by first move (divide).
//!
//! ```text
//! cargo run --release --example perft -- (--fen TEXT | --start light|standard|dense|raumschach|classic|chess960:N)
//!     --depth N [--divide] [--generator fast|naive] [--moves "M1 M2 ..."] [--threads N] [--hash MB]
//! ```
//!
//! Prints one line `<move> <count>` per first move with `--divide` (moves in the text of RULES.md §4,
//! sorted), then, as the last line on stdout, `nodes <N>`. A progress bar appears on stderr when a run
//! lasts more than a second. Malformed input: a message on stderr and exit code 2.
//!
//! `--hash MB` takes 0 (no table, the default) to 65536 megabytes (`tesseract_movegen::MAX_TABLE_MB`, the
//! workspace's one cap on table sizes, as for `bestmove`, `match`, the UCI engine and the Python binding). When the system refuses the table's
//! reservation, the run stops before counting with a one-line error and exit code 2; a system that
//! overcommits memory may grant a reservation it cannot back, and then ends the process later, when the
//! table fills.

#[macro_use]
#[path = "common/out.rs"]
mod out;

use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::builder::RangedU64ValueParser;
use clap::{Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use position::PositionArgs;
use rayon::prelude::*;
use tesseract::board::{Move, Position, TextMove};
use tesseract::movegen::{self, Legal, MAX_TABLE_MB, naive};

#[path = "common/position.rs"]
mod position;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Generator {
    Fast,
    Naive,
}

#[derive(Parser, Debug)]
#[command(about = "Perft and divide for Tesseract (4D), chess and Chess960")]
struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Plies to count.
    #[arg(long)]
    depth: u32,
    /// Print the count under each first move.
    #[arg(long)]
    divide: bool,
    /// Which generator counts.
    #[arg(long, value_enum, default_value_t = Generator::Fast)]
    generator: Generator,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Moves to play from the position before counting, in the text of RULES.md §4, separated by spaces.
    #[arg(long, default_value = "")]
    moves: String,
    /// Megabytes of shared transposition table for the fast generator, 0 to 65536 (0: none, exact by
    /// construction).
    #[arg(long, default_value_t = 0, value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_TABLE_MB as u64))]
    hash: usize,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let pos = args.position.position();
    let pos = pos.and_then(|mut p| {
        for text in args.moves.split_whitespace() {
            let m = p.parse_move(text).map_err(|e| format!("--moves: {e}"))?;
            p.play(m).map_err(|e| format!("--moves: {e}"))?;
        }
        Ok(p)
    });
    let pos = match pos {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let table = match args.hash {
        0 => None,
        mb => match movegen::PerftTable::try_new(mb) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("error: --hash: {e}");
                return ExitCode::from(2);
            }
        },
    };
    if let Some(threads) = args.threads {
        if threads == 0 || rayon::ThreadPoolBuilder::new().num_threads(threads).build_global().is_err() {
            eprintln!("error: --threads: expected a positive number of threads");
            return ExitCode::from(2);
        }
    }
    let lines = run(&pos, &args, table.as_ref());
    let mut total = 0u64;
    let mut texts: Vec<(String, u64)> =
        lines.iter().map(|&(m, n)| (TextMove::from_move(m, &pos).to_string(), n)).collect();
    texts.sort();
    for (text, n) in &texts {
        total += n;
        if args.divide {
            outln!("{text} {n}");
        }
    }
    if args.depth == 0 {
        total = 1;
    }
    outln!("nodes {total}");
    ExitCode::SUCCESS
}

/// The count under every first move, computed in parallel over first moves.
fn run(pos: &Position, args: &Args, table: Option<&movegen::PerftTable>) -> Vec<(Move, u64)> {
    if args.depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = movegen::legal_moves(pos).to_vec();
    let started = Instant::now();
    let bar = ProgressBar::with_draw_target(Some(moves.len() as u64), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} first moves, eta {eta}")
            .expect("a valid template"),
    );
    let shown = Mutex::new(false);
    let tick = || {
        bar.inc(1);
        if started.elapsed() > Duration::from_secs(1) {
            let mut shown = shown.lock().expect("no panics while holding the lock");
            if !*shown {
                *shown = true;
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    };
    let lines: Vec<(Move, u64)> = match args.generator {
        Generator::Fast if table.is_some() => {
            // The hashed count shares its table between threads; progress is per first move.
            let lines = movegen::divide_with_table(pos, args.depth, table.expect("checked"));
            lines.iter().for_each(|_| tick());
            lines
        }
        Generator::Fast => moves
            .par_iter()
            .map(|&m| {
                let mut child = pos.clone();
                let _ = child.make(m);
                let n = movegen::perft(&mut child, args.depth - 1);
                tick();
                (m, n)
            })
            .collect(),
        Generator::Naive => {
            let setup = pos.to_setup();
            let naive_moves = naive::legal_moves(&setup);
            naive_moves
                .par_iter()
                .map(|&m| {
                    let n = naive::perft(&naive::play(&setup, m), args.depth - 1);
                    tick();
                    (m, n)
                })
                .collect()
        }
    };
    bar.finish_and_clear();
    lines
}
