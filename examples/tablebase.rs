//! Generates an endgame table and reports what it found.
//!
//! ```text
//! cargo run --release --example tablebase -- --board chess|raumschach|tesseract|DxN --material KRK
//!     [--out FILE] [--save-dir DIR] [--threads N] [--line]
//! ```
//!
//! Generates the table of `--material` (and first every smaller table a capture leads to) on the board,
//! with a progress bar on stderr, then prints for each side to move its wins, draws and losses and the
//! longest mate with one example position (FEN/TFEN) and, with `--line`, its mating line; then the time
//! and the peak memory of the process. The last line on stdout is
//!
//! ```text
//! longest N wins W draws D
//! ```
//!
//! N: the longest mate in moves with the stronger side (White in the material's text once normalized,
//! `KQKR` not `KRKQ`) to move; W and D: positions with the stronger side to move, each symmetry orbit and
//! each set of interchangeable pieces counted once, that are won and drawn. `--out FILE` saves the table,
//! `--save-dir DIR` saves it and every smaller table under their standard names (`KQK.5x5x5x5.ttb`), a
//! folder that `play --tablebases DIR`, the UCI engine's `TablebasePath` and Python's
//! `tesseract.Tablebases.load` read. Bad arguments: a message on stderr and exit code 2.

#[macro_use]
#[path = "common/out.rs"]
mod out;
#[path = "common/files.rs"]
mod files;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use tesseract::board::{Color, Shape};
use tesseract::movegen::text_line_string;
use tesseract::tablebase::{GenerateOptions, Material, Progress, Tablebases, parse_board};

#[derive(Parser, Debug)]
#[command(about = "Endgame tablebases: retrograde analysis with distance to mate on any board")]
struct Args {
    /// The board: chess (8×8), raumschach (5×5×5), tesseract (5×5×5×5), or DxN sides like 5x5x5.
    #[arg(long, value_parser = board)]
    board: Shape,
    /// The material, White's king and pieces then Black's: KQK, KRK, KQKR, KUUK (pawnless, up to 4 pieces).
    #[arg(long)]
    material: Material,
    /// Save the table to this file.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Save the table and every smaller one into this folder under their standard names.
    #[arg(long)]
    save_dir: Option<std::path::PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the mating line of each longest example.
    #[arg(long)]
    line: bool,
}

/// The board a name or a `DxN`-style text names.
fn board(text: &str) -> Result<Shape, String> {
    match text {
        "chess" => Ok(Shape::CHESS),
        "raumschach" => Ok(Shape::RAUMSCHACH),
        "tesseract" => Ok(Shape::TESSERACT),
        other => parse_board(other)
            .ok_or_else(|| format!("{other:?} is not a board: chess, raumschach, tesseract, or sides like 5x5x5")),
    }
}

/// The peak resident memory of this process in MiB, where the system reports it (Linux).
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(path) = &args.out {
        if let Err(e) = files::target(path) {
            eprintln!("error: --out {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    let (material, swapped) = args.material.normalized();
    if swapped {
        eprintln!("note: {} is generated as {material}, the stronger side as White", args.material);
    }
    let options = GenerateOptions { threads: args.threads.unwrap_or(GenerateOptions::default().threads).max(1) };
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {percent:>3}% {elapsed_precise}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    let report = |p: Progress| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_prefix(if p.pass == 0 { "setting up".to_string() } else { format!("ply {:>3}", p.pass) });
    };
    let started = Instant::now();
    let mut tables = Tablebases::new();
    let result = tables.generate(args.board, &material, &options, &report).map(|_| ());
    bar.finish_and_clear();
    if let Err(e) = result {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let table = tables.get(args.board, &material).expect("the table just generated");
    let seconds = started.elapsed().as_secs_f64();
    outln!(
        "board {} ({} symmetries), material {material}: {} indices per side to move",
        tesseract::tablebase::board_text(args.board),
        table.symmetries(),
        table.entries_per_side()
    );
    for stm in Color::ALL {
        let s = table.stats(stm);
        let who = if stm == Color::White { "stronger side (White) to move" } else { "weaker side (Black) to move" };
        outln!("{who}: {s}");
        if let Some(pos) = table.longest_example(stm) {
            outln!("  longest mate {} moves ({} positions), e.g. {}", s.longest_moves(), s.at_longest, pos.fen());
            if args.line {
                outln!("  line: {}", text_line_string(&pos, &tables.mating_line(&pos)));
            }
        }
    }
    if let Some(path) = &args.out {
        // A link is followed, a FIFO written through, a folder or a missing folder refused (files.rs).
        if let Err(e) = files::write_atomic(path, &table.to_bytes()) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if let Some(dir) = &args.save_dir {
        if let Err(e) = tables.save_dir(dir) {
            eprintln!("error: cannot write into {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    let memory = peak_memory_mib().map_or("unknown".to_string(), |m| format!("{m:.0} MiB"));
    outln!("time {seconds:.1} s on {} threads, peak memory {memory}", options.threads);
    let s = table.stats(Color::White);
    outln!("longest {} wins {} draws {}", s.longest_moves(), s.wins, s.draws);
    ExitCode::SUCCESS
}
