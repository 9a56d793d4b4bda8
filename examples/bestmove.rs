//! Searches one position and prints the engine's best move.
//!
//! ```text
//! cargo run --release --example bestmove -- (--fen TEXT | --start light|standard|dense|raumschach|classic|chess960:N)
//!     [--moves "M1 M2 ..."] [--tier beginner|club|expert|master] [--depth N] [--nodes N] [--movetime MS]
//!     [--seed N] [--hash MB]
//! ```
//!
//! `--moves` plays a line of moves from the position first (as the perft example does); the engine then
//! searches the position they reach and sees the game: a position repeated from the line is a draw to it,
//! so it avoids a repetition when ahead and seeks one when behind.
//!
//! Prints one line per finished iteration, `info depth D score cp S|mate M nodes N nps X pv MOVE...`, and
//! as its last line on stdout `bestmove MOVE` (moves in the text of RULES.md §4; `bestmove none` when there
//! is no legal move). The same arguments and seed give the same output apart from nps, unless `--movetime`
//! (a wall-clock guard) cuts the search short.
//!
//! Limits: a tier sets depth, node budget, table size and evaluation noise (default: master when no
//! `--depth` or `--nodes` is given); `--depth`, `--nodes` and `--hash` (1 to 65536 MB:
//! `tesseract_movegen::MAX_TABLE_MB`, the workspace's one cap on table sizes) override the tier's. A tier's
//! wall-clock guard is left out, so that the output is a function of the arguments on any machine however
//! busy; `--movetime` adds a guard. Malformed input (or a table too large to allocate): a message on stderr
//! and exit code 2. A reader that closes the output (`| head -1`) ends the program at once, quietly, with
//! exit code 141 (as for every example: `examples/common/out.rs`).

#[macro_use]
#[path = "common/out.rs"]
mod out;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use position::PositionArgs;
use tesseract::board::TextMove;
use tesseract::movegen::{MAX_TABLE_MB, text_line_string};
use tesseract::search::{Game, Limits, Options, Searcher, Tier};

#[path = "common/position.rs"]
mod position;

#[derive(Parser, Debug)]
#[command(about = "The Tesseract engine's best move in a position (4D Tesseract, chess, Chess960)")]
struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves played from the position before searching (the game's history, for repetitions).
    #[arg(long, default_value = "")]
    moves: String,
    /// A difficulty tier: its depth, node budget, table size and noise (beginner, club, expert, master).
    #[arg(long)]
    tier: Option<String>,
    /// The deepest iteration.
    #[arg(long)]
    depth: Option<u32>,
    /// The node budget.
    #[arg(long)]
    nodes: Option<u64>,
    /// A wall-clock guard in milliseconds (a search it stops is not reproducible).
    #[arg(long)]
    movetime: Option<u64>,
    /// The game's seed (evaluation noise and tie-breaks).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Transposition table size in megabytes, 1 to 65536 (the workspace's cap on table sizes).
    #[arg(long)]
    hash: Option<usize>,
}

fn setup(args: &Args) -> Result<(Game, Limits, Options, usize), String> {
    let mut game = Game::new(args.position.position()?, args.seed);
    for text in args.moves.split_whitespace() {
        game.play_text(text).map_err(|e| format!("--moves: {e}"))?;
    }
    let tier = match &args.tier {
        Some(name) => Some(name.parse::<Tier>().map_err(|e| format!("--tier: {e}"))?),
        None if args.depth.is_none() && args.nodes.is_none() => Some(Tier::Master),
        None => None,
    };
    let (mut limits, options, mut hash) = match tier {
        // The tier's budget on this board (chess and Chess960 have their own for the lower tiers).
        Some(t) => (t.settings_on(game.position().shape()).budget(), t.options(args.seed), t.settings().hash_mb),
        None => (Limits::default(), Options { seed: args.seed, ..Options::default() }, 16),
    };
    if let Some(d) = args.depth {
        if d == 0 {
            return Err("--depth: expected at least 1".to_string());
        }
        limits.depth = Some(d);
    }
    if let Some(n) = args.nodes {
        if n == 0 {
            return Err("--nodes: expected at least 1".to_string());
        }
        limits.nodes = Some(n);
        limits.soft_nodes = None;
    }
    if let Some(ms) = args.movetime {
        limits.time = Some(Duration::from_millis(ms));
    }
    if let Some(mb) = args.hash {
        if mb == 0 || mb > MAX_TABLE_MB {
            return Err(format!("--hash: expected 1 to {MAX_TABLE_MB} megabytes"));
        }
        hash = mb;
    }
    Ok((game, limits, options, hash))
}

fn main() -> ExitCode {
    let args = Args::parse();
    let (game, limits, options, hash) = match setup(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut searcher = match Searcher::try_new(hash) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: --hash: {e}");
            return ExitCode::from(2);
        }
    };
    let pos = game.position();
    let result = searcher.search(pos, game.history(), &limits, &options, |info| {
        outln!(
            "info depth {} score {} nodes {} nps {} pv {}",
            info.depth,
            info.score,
            info.nodes,
            info.nps,
            text_line_string(pos, info.pv)
        );
    });
    match result.best_move {
        Some(m) => outln!("bestmove {}", TextMove::from_move(m, pos)),
        None => outln!("bestmove none"),
    }
    ExitCode::SUCCESS
}
