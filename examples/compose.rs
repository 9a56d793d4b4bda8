//! Composes Tesseract mate-in-N studies from seeded random positions, or solves a position.
//!
//! ```text
//! cargo run --release --example compose -- --n N [--seed S] [--tries T] [--count K] [--mate PIECE]
//!     [--white LETTERS] [--black LETTERS] [--corner] [--reach R] [--fill PERCENT] [--checks-first]
//!     [--node-limit NODES] [--svg FILE]
//! cargo run --release --example compose -- --solve --fen TFEN --n N [--svg FILE]
//! ```
//!
//! Compose mode prints each candidate (a position that is mate in exactly N with a unique key) as a
//! record of the studies file (`tesseract-verify/data/studies.txt`), with a placeholder title and an
//! idea that lists the themes found, followed by a blank line; progress goes to stderr, and the last line
//! on stdout is `candidates K tries T`. The same arguments give the same candidates.
//!
//! `--tries` bounds a run: each try draws at most 1,000 setups looking for a valid position (a try that
//! finds none counts as a try, and the last line on stderr tells how many did), and the solver stops a
//! try at `--node-limit` nodes. A recipe that cannot mate (`--white ""`) or that has more than 63 pieces a
//! side is refused.
//!
//! Solve mode prints every first move that mates in N or fewer (one per line, in the move text of
//! RULES.md §4, sorted), then a last line `keys K` (`keys 0` when there is none). The search is exhaustive
//! over every legal move.
//!
//! `--svg FILE` follows a symbolic link to the file it names, writes a FIFO or a character device
//! straight through, and refuses a folder, a block device or a socket before any work; with `--solve`,
//! `--svg -` writes the picture to standard output and the keys to stderr.
//!
//! Malformed arguments (or a position that is not valid TFEN): a message on stderr and exit code 2.

#[macro_use]
#[path = "common/out.rs"]
mod out;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use tesseract::board::svg::Picture;
use tesseract::board::{Position, Role, TextMove};
use tesseract::verify::compose::{Composer, Recipe};
use tesseract::verify::mate::MateSolver;

#[path = "common/files.rs"]
mod files;

use files::Target;

#[derive(Parser, Debug)]
#[command(about = "Compose mate-in-N studies for Tesseract, or list every key of a position")]
struct Args {
    /// Mate in exactly this many moves (compose), or in at most this many (solve).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8))]
    n: u32,
    /// List every key that mates in N for the position given with --fen.
    #[arg(long, requires = "fen")]
    solve: bool,
    /// The position (TFEN, RULES.md §4) to solve.
    #[arg(long, requires = "solve")]
    fen: Option<String>,
    /// The seed of the random positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions to try.
    #[arg(long, default_value_t = 1000)]
    tries: u64,
    /// Stop after this many candidates.
    #[arg(long)]
    count: Option<u64>,
    /// Keep only candidates whose main line ends with a move of this piece (Q R B N U D, Y or W for a pawn).
    #[arg(long, value_parser = parse_mater)]
    mate: Option<Role>,
    /// The attacker's pieces besides its king, as letters (`RN`); default: drawn at random per try.
    #[arg(long, value_name = "LETTERS")]
    white: Option<String>,
    /// The defender's pieces besides its king, as letters (`yw`); used with --white.
    #[arg(long, value_name = "LETTERS", requires = "white", default_value = "")]
    black: String,
    /// Put the defending king in a corner.
    #[arg(long)]
    corner: bool,
    /// How far from the defending king the attacking pieces may stand.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=4))]
    reach: u8,
    /// Fill uncovered flight cells of the defending king with its own men, with this probability (percent).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    fill: u32,
    /// Keep only positions that mate in exactly N by checks alone before the exhaustive search.
    #[arg(long)]
    checks_first: bool,
    /// Solver nodes allowed per try.
    #[arg(long, default_value_t = 2_000_000)]
    node_limit: u64,
    /// Write pictures (SVG): with --solve, the position with an arrow per key, to this file (`-`: standard
    /// output, the keys then go to stderr); when composing, each candidate's position, to this path with the
    /// candidate's number before the extension (`study.svg` gives `study-1.svg`, `study-2.svg`, …). A link
    /// is followed to its file, a FIFO or a character device written through; a folder is refused.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

fn parse_mater(text: &str) -> Result<Role, String> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => match Role::from_upper_char(c.to_ascii_uppercase(), 4) {
            Some(Role::King) | None => Err(format!("{text:?} is not a piece letter (Q R B N U D Y W)")),
            Some(role) => Ok(role),
        },
        _ => Err(format!("expected one piece letter, found {text:?}")),
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = if args.solve { solve(&args) } else { compose(&args) };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `dir/name.svg` with `-k` before the extension: `dir/name-k.svg`.
fn numbered_path(path: &Path, k: u64) -> PathBuf {
    let stem = path.file_stem().map_or_else(|| "study".into(), |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

fn solve(args: &Args) -> Result<(), String> {
    let text = args.fen.as_deref().ok_or("--solve needs --fen")?;
    let pos = Position::from_fen(text).map_err(|e| format!("--fen: {e}"))?;
    if pos.geometry().dims() != 4 {
        return Err("--fen: the position must be a 4D Tesseract position".into());
    }
    if let Some(path) = &args.svg {
        // Refused before the search: a folder, a block device, a socket, a missing folder.
        if files::output_target(path).map_err(|e| format!("--svg {}: {e}", path.display()))? == Target::Stdout {
            // Standard output holds the picture alone; the keys go to stderr.
            out::to_stderr();
        }
    }
    let keys = MateSolver::new().keys(&pos, args.n).map_err(|e| e.to_string())?;
    if let Some(path) = &args.svg {
        let picture = keys.iter().fold(Picture::of(&pos), |p, m| p.arrow(m.from, m.to));
        files::write_output(path, picture.to_svg().as_bytes())
            .map_err(|e| format!("--svg {}: {e}", files::output_name(path)))?;
    }
    let mut texts: Vec<String> = keys.iter().map(|&m| TextMove::from_move(m, &pos).to_string()).collect();
    texts.sort();
    for t in &texts {
        outln!("{t}");
    }
    outln!("keys {}", texts.len());
    Ok(())
}

fn compose(args: &Args) -> Result<(), String> {
    let mut composer = Composer::new(args.seed, args.n);
    composer.node_limit = args.node_limit;
    composer.mater = args.mate;
    composer.corner = args.corner;
    composer.reach = args.reach;
    composer.fill = args.fill;
    composer.checks_first = args.checks_first;
    if let Some(white) = &args.white {
        composer.recipe = Some(Recipe::parse(white, &args.black).map_err(|e| format!("--white/--black: {e}"))?);
    }
    if let Some(path) = &args.svg {
        if path.as_os_str() == "-" {
            return Err("--svg -: composing writes one picture per candidate, which standard output cannot hold \
                        apart (give a file name, or use --solve)"
                .into());
        }
        let first = numbered_path(path, 1);
        files::output_target(&first).map_err(|e| format!("--svg {}: {e}", first.display()))?;
    }
    let started = Instant::now();
    let mut found = 0;
    while composer.tries < args.tries && args.count.is_none_or(|k| found < k) {
        if let Some(candidate) = composer.try_one() {
            found += 1;
            outln!("{}", candidate.to_record_text(&format!("s{}-t{}", args.seed, composer.tries)));
            if let Some(path) = &args.svg {
                let numbered = numbered_path(path, found);
                let svg = Picture::of(&candidate.position).to_svg();
                files::write_output(&numbered, svg.as_bytes())
                    .map_err(|e| format!("--svg {}: {e}", numbered.display()))?;
            }
            eprintln!("candidate {found} at try {} ({:.1?})", composer.tries, started.elapsed());
        }
    }
    eprintln!(
        "{} tries, {} abandoned at the node limit, {} without a valid position, {:.1?}",
        composer.tries,
        composer.aborted,
        composer.no_position,
        started.elapsed()
    );
    outln!("candidates {found} tries {}", composer.tries);
    Ok(())
}
