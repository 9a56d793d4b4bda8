//! Runs the engine over an EPD test suite at a fixed node budget and counts the positions it solves.
//!
//! ```text
//! cargo run --release --example epd -- (--file tesseract-search/tests/data/wac.epd | --studies)
//!     [--nodes N] [--tier master] [--max-mate N] [--no-mate-safety] [--weights FILE] [--quiet]
//! ```
//!
//! Each position is searched from a cleared table with the tier's settings (default master): its own
//! deterministic budget, or with `--nodes` that node budget alone (the tier's depth and other budgets
//! lifted). No wall-clock guard, so the result is a function of the arguments on any machine. A position is solved when the engine's move is one of its `bm` moves (and none
//! of its `am` moves). With `--max-mate N` only the positions with a `dm` (mate in N moves) of at most N are
//! run, and a position counts as solved only when the engine plays a `bm` move *and* reports the mate at
//! its shortest distance (`dm`). `--no-mate-safety` searches without mate safety (see
//! `tesseract_search::Features::mate_safety`, on by default), for before-and-after counts; `--weights FILE`
//! evaluates with the engine's weights changed by the file's `name value` lines (`Weights::parse`, as the
//! `match` example's `weights=FILE`; a file that does not fit a position's board is an error).
//!
//! Prints a line per position, `ID solved|missed MOVE score` (unless `--quiet`), and as its last line
//! `solved N of M`. Moves in the suite are in UCI text or in SAN (as the published suites are). Malformed
//! arguments, a line that is not EPD or a file with no position: a message on stderr and exit code 2.
//! `--studies` runs the twelve verified 4D studies of `tesseract-verify`.

#[macro_use]
#[path = "common/out.rs"]
mod out;

use std::process::ExitCode;

use clap::Parser;
use tesseract::board::epd::{Epd, Operation};
use tesseract::board::{Move, Position, Shape, TextMove};
use tesseract::movegen::{Legal, san};
use tesseract::search::eval::Weights;
use tesseract::search::{Limits, Score, Searcher, Tier};

#[path = "common/files.rs"]
mod files;

#[derive(Parser, Debug)]
#[command(about = "The engine over an EPD test suite at a fixed node budget")]
struct Args {
    /// The EPD file (lines starting with `#` and blank lines are skipped).
    #[arg(long, required_unless_present = "studies", conflicts_with = "studies")]
    file: Option<String>,
    /// The twelve verified Tesseract studies of tesseract-verify instead of a file (key as `bm`, mate in
    /// `n` as `dm`).
    #[arg(long)]
    studies: bool,
    /// The node budget of each search (default: the tier's own budget, its soft and hard node limits).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// The tier whose settings (table size, noise: none for master) are used.
    #[arg(long, default_value = "master")]
    tier: Tier,
    /// Only the mates in at most this many moves (`dm`), solved when the shortest mate is found.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    max_mate: Option<u32>,
    /// Search without mate safety (the plain search), to compare.
    #[arg(long)]
    no_mate_safety: bool,
    /// Evaluate with the engine's weights changed by this file's `name value` lines.
    #[arg(long)]
    weights: Option<String>,
    /// Print only the last line.
    #[arg(long)]
    quiet: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let suite = match (&args.file, args.studies) {
        (Some(path), _) => read_suite(path),
        (None, _) => studies(),
    };
    let suite = match suite {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let settings = args.tier.settings();
    let mut options = args.tier.options(0);
    options.features.mate_safety = !args.no_mate_safety;
    // The tier's budget on the board of each position (chess has its own for the lower tiers).
    let limits = |pos: &Position| match args.nodes {
        Some(n) => Limits { nodes: Some(n), ..Limits::default() },
        None => args.tier.settings_on(pos.shape()).budget(),
    };
    let mut searcher = match Searcher::try_new(settings.hash_mb) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The weights for each board of the suite, read before any search.
    let weights = match args.weights.as_deref().map(|path| weights_of(path, &suite)).transpose() {
        Ok(w) => w.unwrap_or_default(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut solved, mut total) = (0, 0);
    for epd in &suite {
        let mate = epd.operands("dm").and_then(|d| d.first()).and_then(|d| d.parse::<i32>().ok());
        if let Some(max) = args.max_mate {
            if !mate.is_some_and(|m| (1..=max as i32).contains(&m)) {
                continue;
            }
        }
        let pos = &epd.position;
        let id = epd.operands("id").and_then(|d| d.first()).map_or("-", String::as_str);
        // A move of the suite that is not a legal move here (a typo, a move of another position) is an
        // error, not a pass.
        let named = |opcode: &str| -> Result<Vec<Move>, String> {
            epd.operands(opcode)
                .unwrap_or(&[])
                .iter()
                .map(|t| suite_move(pos, t).map_err(|e| format!("{id}: {opcode} {t}: {e}")))
                .collect()
        };
        let (best, avoid) = match (named("bm"), named("am")) {
            (Ok(b), Ok(a)) => (b, a),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        options.weights = weights.iter().find(|(shape, _)| *shape == pos.shape()).map(|&(_, w)| w);
        searcher.clear();
        let result = searcher.search(pos, &[], &limits(pos), &options, |_| {});
        let played = result.best_move.map(|m| TextMove::from_move(m, pos).to_string()).unwrap_or_default();
        let mut ok = result.best_move.is_some_and(|m| (best.is_empty() || best.contains(&m)) && !avoid.contains(&m));
        if args.max_mate.is_some() {
            ok &= mate.is_some_and(|m| result.score == Score::Mate(m));
        }
        total += 1;
        solved += usize::from(ok);
        if !args.quiet {
            outln!("{id} {} {played} {}", if ok { "solved" } else { "missed" }, result.score);
        }
    }
    outln!("solved {solved} of {total}");
    ExitCode::SUCCESS
}

/// A move of a suite, in UCI text (`g3g6`) or in SAN (`Qg6`, `Qxg6+`), as the suites are published.
fn suite_move(pos: &Position, text: &str) -> Result<Move, String> {
    match pos.parse_move(text) {
        Ok(m) => Ok(m),
        Err(uci) => {
            san::parse_move(pos, text).map_err(|e| format!("not a legal move here in UCI text ({uci}) or in SAN ({e})"))
        }
    }
}

/// The weights of the file at `path` on each board of the suite.
fn weights_of(path: &str, suite: &[Epd]) -> Result<Vec<(Shape, Weights)>, String> {
    let text = files::read_text(std::path::Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
    let mut out: Vec<(Shape, Weights)> = Vec::new();
    for epd in suite {
        let shape = epd.position.shape();
        if !out.iter().any(|(s, _)| *s == shape) {
            out.push((shape, Weights::parse(shape, &text).map_err(|e| format!("{path}: {e}"))?));
        }
    }
    Ok(out)
}

/// The EPD lines of a file.
fn read_suite(path: &str) -> Result<Vec<Epd>, String> {
    let text = files::read_text(std::path::Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
    let mut suite = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        suite.push(Epd::parse(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?);
    }
    // A suite of nothing would "solve 0 of 0", and leave a `--weights` file unread: an error instead.
    if suite.is_empty() {
        return Err(format!("{path}: no position (only blank lines and comments)"));
    }
    Ok(suite)
}

/// The shipped studies as a suite: the key is the best move, the study's `n` the mate distance.
fn studies() -> Result<Vec<Epd>, String> {
    let studies = tesseract::verify::study::shipped().map_err(|e| e.to_string())?;
    Ok(studies
        .into_iter()
        .map(|s| {
            let op = |opcode: &str, operand: String| Operation { opcode: opcode.to_string(), operands: vec![operand] };
            let key = TextMove::from_move(s.key, &s.position).to_string();
            let operations = vec![op("bm", key), op("id", format!("study {}", s.name)), op("dm", s.n.to_string())];
            Epd { position: s.position, operations }
        })
        .collect())
}
