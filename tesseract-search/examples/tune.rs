//! Texel tuning of the piece values (`tesseract_search::tune`): plays seeded games of the engine against
//! itself at a node budget, samples their positions with the games' results, and fits the piece values of
//! the start's board to the results. Prints the fit; the engine's values change only by hand, after a match
//! shows the fitted ones play better.
//!
//! ```text
//! cargo run --release -p tesseract-search --example tune -- --start standard --games 300 --nodes 400 --seed 1
//! ```
//!
//! Samples are quiet positions (neither reached by a capture nor left by one; a promotion counts as quiet)
//! after the first `--skip`
//! plies, one every `--every` plies, with pawns on both sides and no check (`tune::Sample::of`).
//!
//! The output: the games' results, the samples, then for each tuned role its value before and after, the
//! scale and the error before and after, and the values as a Rust array by `Role::index`. The same
//! arguments give the same output on every machine (the playouts are seeded and node-bounded).

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use tesseract_board::{Role, start};
use tesseract_movegen::Legal;
use tesseract_search::eval::piece_value;
use tesseract_search::playout::{GameResult, Playout, Policy, game_seed};
use tesseract_search::tune::{Sample, error, fit_scale, tune_values};

#[derive(Parser, Debug)]
#[command(about = "Fits the piece values to the results of seeded engine games (Texel tuning)")]
struct Args {
    /// The start of the games: a start name (standard, light, dense, raumschach, classic, chess960:N).
    #[arg(long, default_value = "standard")]
    start: String,
    /// Games to play.
    #[arg(long, default_value_t = 300)]
    games: u64,
    /// The engine's node budget a move, both sides (1 to a billion).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    nodes: u64,
    /// The run's seed (game i is played from `playout::game_seed(seed, i)`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies played before the first sample of a game (the opening is the same in every game).
    #[arg(long, default_value_t = 8)]
    skip: usize,
    /// A sample every this many plies (at least 1).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// A game still on after this many plies ends as a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// The fit's step, in centipawns (1 to 100).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(i32).range(1..=100))]
    step: i32,
    /// The fit's passes over the roles, at most.
    #[arg(long, default_value_t = 30)]
    passes: usize,
}

/// The pieces on the board, kings included.
fn pieces(pos: &tesseract_board::Position) -> usize {
    pos.piece_list(tesseract_board::Color::White).len() + pos.piece_list(tesseract_board::Color::Black).len()
}

/// Runs the example, writing to standard output; a reader that goes away (`tune | head -1`) ends it
/// quietly with exit code 141 (128 + SIGPIPE, as a shell reports a Unix tool killed by SIGPIPE), any
/// other failure to write with a line on stderr and exit code 1.
fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args, &mut io::stdout().lock()) {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(141),
        Err(e) => {
            eprintln!("tune: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args, out: &mut impl Write) -> io::Result<ExitCode> {
    let start = match start::by_name(&args.start) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("tune: --start {}: {e}", args.start);
            return Ok(ExitCode::from(2));
        }
    };
    let dims = start.geometry().dims();
    let mut playout = Playout::new(Policy::Nodes(args.nodes), Policy::Nodes(args.nodes)).with_max_plies(args.max_plies);
    let mut samples = Vec::new();
    let mut results = [0u64; 3];
    for i in 0..args.games {
        let (game, stats) = playout.play_game(&start, game_seed(args.seed, i));
        let (result, column) = match stats.result {
            GameResult::White => (1.0, 0),
            GameResult::Draw => (0.5, 1),
            GameResult::Black => (0.0, 2),
        };
        results[column] += 1;
        // Quiet positions only: neither reached by a capture nor left by one (an exchange half made
        // misstates the material).
        let mut pos = game.start().clone();
        let mut captured = false;
        for (ply, &m) in game.moves().iter().enumerate() {
            let mut next = pos.clone();
            next.play(m).expect("a game's moves are legal");
            let captures = pieces(&next) < pieces(&pos);
            if ply >= args.skip && ((ply - args.skip) as u64).is_multiple_of(args.every) && !captured && !captures {
                samples.extend(Sample::of(&pos, result));
            }
            (pos, captured) = (next, captures);
        }
    }
    writeln!(
        out,
        "games {} (white wins {}, draws {}, black wins {}), samples {}",
        args.games,
        results[0],
        results[1],
        results[2],
        samples.len()
    )?;
    if samples.is_empty() {
        eprintln!("tune: the games gave no samples (quiet positions with pawns on both sides): play more games");
        return Ok(ExitCode::FAILURE);
    }
    let values: [i32; 9] = std::array::from_fn(|i| piece_value(dims, Role::ALL[i]));
    let roles: Vec<Role> =
        Role::ALL.into_iter().filter(|r| r.exists_in(dims) && *r != Role::King && !r.is_pawn()).collect();
    let before_scale = fit_scale(&samples, &values);
    let before = error(&samples, &values, before_scale);
    let fit = tune_values(&samples, values, &roles, args.step, args.passes);
    for role in &roles {
        writeln!(out, "{:?} {} -> {}", role, values[role.index()], fit.values[role.index()])?;
    }
    writeln!(
        out,
        "scale {before_scale:.3} -> {:.3}, error {before:.6} -> {:.6}, passes {}",
        fit.scale, fit.error, fit.passes
    )?;
    writeln!(out, "values {:?}", fit.values)?;
    Ok(ExitCode::SUCCESS)
}
