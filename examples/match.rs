//! Plays engine settings against each other and measures the difference in strength.
//!
//! ```text
//! cargo run --release --example match -- --a PLAYER --b PLAYER [--games N] [--start NAMES] [--seed N]
//!     [--opening-plies N] [--threads N] [--max-plies N] [--adjudicate CP] [--first-game N] [--quiet]
//! ```
//!
//! A player is `random` (a uniformly random legal move) or a tier (`beginner`, `club`, `expert`,
//! `master`), optionally followed by comma-separated changes: `nodes=N`, `soft=N`, `depth=N`, `hash=MB`,
//! `noise=CP`, and `nonull`, `nolmr`, `nofut`, `nolmp` to switch off null-move pruning, late-move
//! reductions, futility pruning or late-move pruning, `nomatesafe` to switch off mate safety, `nosee` and
//! `nocont` to switch off static-exchange pruning and continuation history (both 2D only; e.g. `--a
//! expert,nonull --b expert`), `paced` or `unpaced` to pace the soft node limit by the iterations or not
//! (`Limits::paced`; by default as the tier does: no tier paces), and `weights=FILE` to evaluate with the
//! engine's weights changed by the lines of FILE (`name value`, as `tesseract_search::eval::Weights::parse`
//! reads them; a file that does not fit a board of `--start` is refused before any game), so that two
//! evaluations play each other from one build.
//!
//! Games come in pairs: each opening (a start position from `--start`, cycled, then `--opening-plies`
//! random moves drawn from a ChaCha generator seeded by `--seed` and the pair's number) is played twice,
//! colors swapped. Games run in parallel (`--threads`, default every core). A game ends by the rules
//! (mate, stalemate, kings alone, threefold repetition, 50-move rule), by adjudication when four engine
//! scores in a row (either side's, seen from White) are at least `--adjudicate` centipawns the same way
//! (a win for that side), or as a draw after `--max-plies` plies.
//!
//! Prints one line per game, then the result from A's point of view: wins, draws, losses, score, and the
//! Elo difference with a 95% confidence interval (normal approximation over the game scores, `Elo +N [95%:
//! LOW, HIGH]`, an end beyond the possible scores shown as `-inf` or `+inf`), and per player the mean
//! thinking time, depth and nodes per move. When every game has the same result the interval comes from the
//! exact binomial bound instead (`examples/common/elo.rs`): all won, a one-sided bound, `Elo > +183 (95%,
//! one-sided)` for 10 games; all lost, `Elo < -183 (95%, one-sided)`; all drawn, `Elo +0 [95%: -111,
//! +111]` for 10 games. `--first-game` and `--games` select a range of the game sequence, so a long match
//! can be run in parts and the parts added up.
//!
//! Ranges: `--games` 1 to 1,000,000 and `--first-game` 0 to 1,000,000 (a game's number then always fits
//! its seed); `hash=MB` 1 to 65,536 (`tesseract_movegen::MAX_TABLE_MB`, the workspace's one cap on table
//! sizes); `--adjudicate` at least 1; `--opening-plies` at most 1,000. No more threads start than there
//! are games (and fewer if the system refuses more). A value out of range, like any malformed argument: a
//! message on stderr and exit code 2.

#[macro_use]
#[path = "common/out.rs"]
mod out;
#[path = "common/elo.rs"]
mod elo;
#[path = "common/files.rs"]
mod files;

use std::ops::RangeInclusive;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::Parser;
use clap::builder::RangedU64ValueParser;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract::board::{Color, Position, Shape, start};
use tesseract::movegen::{MAX_TABLE_MB, legal_moves};
use tesseract::search::eval::Weights;
use tesseract::search::{Game, Limits, MAX_NOISE, MAX_PLY, Options, Score, Searcher, Tier};

use elo::Estimate;

#[derive(Parser, Debug)]
#[command(
    about = "Engine-vs-engine matches with an Elo estimate",
    long_about = "Engine-vs-engine matches with an Elo estimate: the Elo difference of A's mean score with a 95% \
                  interval (normal approximation over the game scores); when every game is won or every game lost, \
                  a one-sided bound (Elo > +N or Elo < -N, 95%), and when every game is drawn, the exact interval."
)]
struct Args {
    /// Player A: random, or a tier with optional changes (expert,nodes=200000,nonull).
    #[arg(long)]
    a: String,
    /// Player B.
    #[arg(long)]
    b: String,
    /// Number of games, 1 to 1000000 (rounded up to an even number: openings are played twice).
    #[arg(long, default_value_t = 40, value_parser = count(1..=MAX_GAMES as u64))]
    games: usize,
    /// The first game of the sequence to play, 0 to 1000000 (to split a match into parts).
    #[arg(long, default_value_t = 0, value_parser = count(0..=MAX_GAMES as u64))]
    first_game: usize,
    /// Start positions, comma-separated, cycled over the openings: light, standard, dense, raumschach, classic,
    /// chess960:N, or chess960 for a random one per opening.
    #[arg(long, default_value = "standard")]
    start: String,
    /// The match seed (openings, game seeds).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies played from the start position to vary the openings (at most 1000).
    #[arg(long, default_value_t = 4, value_parser = count(0..=1000))]
    opening_plies: usize,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Adjudicate a win when four engine scores in a row are at least this many centipawns one way (at
    /// least 1).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(i32).range(1..))]
    adjudicate: i32,
    /// Print only the summary.
    #[arg(long)]
    quiet: bool,
}

/// The most games one run plays, and the highest first game: far beyond any real match, and small enough
/// that game numbers never overflow.
const MAX_GAMES: usize = 1_000_000;

/// A parser of counts within `range`.
fn count(range: RangeInclusive<u64>) -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(range)
}

/// Who plays, and how.
#[derive(Clone, Debug)]
#[expect(clippy::large_enum_variant, reason = "two players a match, parsed once")]
enum Spec {
    Random,
    /// A tier's engine, with the budgets of the board it plays on ([`Tier::settings_on`]), and what the
    /// spec overrides of them.
    Engine {
        label: String,
        tier: Tier,
        overrides: Limits,
        /// `paced` or `unpaced`: the soft node limit paced by the iterations or not, over the tier's.
        pace: Option<bool>,
        options: Options,
        hash: usize,
        /// `weights=FILE`: the file's path and text.
        weights: Option<(String, String)>,
    },
}

impl Spec {
    fn parse(text: &str) -> Result<Spec, String> {
        let mut parts = text.split(',');
        let head = parts.next().unwrap_or_default();
        if head == "random" {
            return match parts.next() {
                None => Ok(Spec::Random),
                Some(p) => Err(format!("{text}: the random player takes no options ({p})")),
            };
        }
        let tier: Tier = head.parse().map_err(|e: tesseract::search::ParseTierError| e.to_string())?;
        // Matches measure strength, not speed: the wall-clock guard is off (see `Spec::limits`).
        let mut limits = Limits::default();
        let mut options = tier.options(0);
        let mut hash = tier.settings().hash_mb;
        let mut weights = None;
        let mut pace = None;
        for p in parts {
            let number = |v: &str, max: u64| match v.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(format!("{text}: {p}: expected a number from 1 to {max}")),
            };
            match p.split_once('=') {
                Some(("nodes", v)) => limits.nodes = Some(number(v, u64::MAX)?),
                Some(("soft", v)) => limits.soft_nodes = Some(number(v, u64::MAX)?),
                Some(("depth", v)) => limits.depth = Some(number(v, MAX_PLY as u64)? as u32),
                Some(("hash", v)) => hash = number(v, MAX_TABLE_MB as u64)? as usize,
                Some(("noise", "0")) => options.noise = 0,
                Some(("noise", v)) => options.noise = number(v, MAX_NOISE as u64)? as i32,
                Some(("weights", path)) => {
                    let text = files::read_text(Path::new(path)).map_err(|e| format!("{text}: {path}: {e}"))?;
                    weights = Some((path.to_string(), text));
                }
                None if p == "nonull" => options.features.null_move = false,
                None if p == "nolmr" => options.features.late_move_reductions = false,
                None if p == "nofut" => options.features.futility = false,
                None if p == "nolmp" => options.features.late_move_pruning = false,
                None if p == "nomatesafe" => options.features.mate_safety = false,
                None if p == "nosee" => options.features.see_pruning = false,
                None if p == "nocont" => options.features.continuation_history = false,
                None if p == "paced" => pace = Some(true),
                None if p == "unpaced" => pace = Some(false),
                _ => return Err(format!("{text}: unknown option {p:?}")),
            }
        }
        // The table must be allocatable (each game allocates its own).
        Searcher::try_new(hash).map_err(|e| format!("{text}: {e}"))?;
        Ok(Spec::Engine { label: text.to_string(), tier, overrides: limits, pace, options, hash, weights })
    }

    /// The spec's search options on a board of `shape`: with its `weights=FILE` read for that board.
    fn options_on(&self, shape: Shape) -> Result<Options, String> {
        match self {
            Spec::Random => Ok(Options::default()),
            Spec::Engine { options, weights: None, .. } => Ok(*options),
            Spec::Engine { options, weights: Some((path, text)), label, .. } => {
                let weights = Weights::parse(shape, text).map_err(|e| format!("{label}: {path}: {e}"))?;
                Ok(Options { weights: Some(weights), ..*options })
            }
        }
    }

    /// An engine's limits on a board of `shape`: the tier's deterministic budget there (chess and Chess960
    /// have their own for the lower tiers), with the spec's `nodes`, `soft`, `depth` and `paced` or `unpaced`
    /// over it.
    fn limits(tier: Tier, overrides: &Limits, pace: Option<bool>, shape: Shape) -> Limits {
        let budget = tier.settings_on(shape).budget();
        Limits {
            nodes: overrides.nodes.or(budget.nodes),
            soft_nodes: overrides.soft_nodes.or(budget.soft_nodes),
            paced: pace.unwrap_or(budget.paced),
            depth: overrides.depth.or(budget.depth),
            ..budget
        }
    }

    fn label(&self) -> &str {
        match self {
            Spec::Random => "random",
            Spec::Engine { label, .. } => label,
        }
    }
}

/// A player's running totals.
#[derive(Clone, Debug, Default)]
struct Totals {
    moves: u64,
    micros: u128,
    depth: u64,
    nodes: u64,
}

/// How a game ended, from White's point of view: 1, ½ or 0.
#[derive(Clone, Debug)]
struct Played {
    index: usize,
    white_score: f64,
    reason: String,
    plies: usize,
    opening: String,
    totals: [Totals; 2],
}

fn opening(args: &Args, pair: usize) -> Result<(Position, Vec<tesseract::board::Move>), String> {
    let names: Vec<&str> = args.start.split(',').collect();
    let name = names[pair % names.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ pair as u64);
    let pos = if name == "chess960" {
        start::chess960(rng.next_u32() % 960).map_err(|e| e.to_string())?
    } else {
        start::by_name(name).map_err(|e| e.to_string())?
    };
    // Random plies, avoiding lines that end the game.
    'retry: for _ in 0..100 {
        let mut p = pos.clone();
        let mut moves = Vec::new();
        for _ in 0..args.opening_plies {
            let legal = legal_moves(&p);
            if legal.is_empty() {
                continue 'retry;
            }
            let m = legal[(rng.next_u64() % legal.len() as u64) as usize];
            p.make(m);
            moves.push(m);
        }
        if !legal_moves(&p).is_empty() {
            return Ok((pos, moves));
        }
    }
    Err("no opening found".to_string())
}

fn play_game(args: &Args, index: usize, specs: [&Spec; 2], searchers: &mut [Searcher; 2]) -> Result<Played, String> {
    let pair = index / 2;
    let (start_pos, opening_moves) = opening(args, pair)?;
    let seed = args.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ (index as u64) << 20;
    let mut game = Game::new(start_pos, seed);
    let mut texts = Vec::new();
    for &m in &opening_moves {
        texts.push(tesseract::board::TextMove::from_move(m, game.position()).to_string());
        game.play(m).map_err(|e| e.to_string())?;
    }
    // White is A in even games, B in odd ones.
    let white_is_a = index.is_multiple_of(2);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut totals = [Totals::default(), Totals::default()];
    let mut recent: Vec<i32> = Vec::new();
    let shape = game.position().shape();
    let options = [specs[0].options_on(shape)?, specs[1].options_on(shape)?];
    let (white_score, reason) = loop {
        if let Some(end) = game.status() {
            let s = match end.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            break (s, end.to_string());
        }
        if game.moves().len() >= args.max_plies {
            break (0.5, format!("draw after {} plies", args.max_plies));
        }
        let white = game.position().turn() == Color::White;
        let side = if white == white_is_a { 0 } else { 1 };
        let m = match specs[side] {
            Spec::Random => {
                let legal = legal_moves(game.position());
                legal[(rng.next_u64() % legal.len() as u64) as usize]
            }
            Spec::Engine { tier, overrides, pace, hash, .. } => {
                let limits = &Spec::limits(*tier, overrides, *pace, game.position().shape());
                let searcher = &mut searchers[side];
                if searcher.hash_mb() != *hash {
                    searcher.resize(*hash);
                }
                searcher.clear();
                let options = Options { seed: game.seed(), ..options[side] };
                let t = Instant::now();
                let result = searcher.search(game.position(), game.history(), limits, &options, |_| {});
                let tot = &mut totals[side];
                tot.moves += 1;
                tot.micros += t.elapsed().as_micros();
                tot.depth += result.depth as u64;
                tot.nodes += result.nodes;
                let v = match result.score {
                    Score::Mate(m) if m > 0 => 100_000,
                    Score::Mate(_) => -100_000,
                    Score::Cp(v) => v,
                };
                recent.push(if white { v } else { -v });
                result.best_move.ok_or("the engine found no move in a live game")?
            }
        };
        game.play(m).map_err(|e| e.to_string())?;
        let n = recent.len();
        if n >= 4 {
            let last = &recent[n - 4..];
            if last.iter().all(|&v| v >= args.adjudicate) {
                break (1.0, "adjudicated".to_string());
            }
            if last.iter().all(|&v| v <= -args.adjudicate) {
                break (0.0, "adjudicated".to_string());
            }
        }
    };
    Ok(Played { index, white_score, reason, plies: game.moves().len(), opening: texts.join(" "), totals })
}

fn main() -> ExitCode {
    let args = Args::parse();
    let specs = match (Spec::parse(&args.a), Spec::parse(&args.b)) {
        (Ok(a), Ok(b)) => [a, b],
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for name in args.start.split(',') {
        let shape = if name == "chess960" {
            Shape::CHESS
        } else {
            match start::by_name(name) {
                Ok(pos) => pos.shape(),
                Err(e) => {
                    eprintln!("error: --start: {e}");
                    return ExitCode::from(2);
                }
            }
        };
        for spec in &specs {
            if let Err(e) = spec.options_on(shape) {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let games = args.games.div_ceil(2) * 2;
    let threads =
        args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, games);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Played>> = Mutex::new(Vec::new());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let started = Instant::now();
    std::thread::scope(|s| {
        for worker in 0..threads {
            let spawned = std::thread::Builder::new().stack_size(64 << 20).spawn_scoped(s, || {
                let mut searchers = [Searcher::new(1), Searcher::new(1)];
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= games || failure.lock().expect("lock").is_some() {
                        break;
                    }
                    let index = args.first_game + k;
                    match play_game(&args, index, [&specs[0], &specs[1]], &mut searchers) {
                        Ok(p) => {
                            if !args.quiet {
                                let (w, b) =
                                    if index.is_multiple_of(2) { (&args.a, &args.b) } else { (&args.b, &args.a) };
                                let result = match p.white_score {
                                    1.0 => "1-0",
                                    0.0 => "0-1",
                                    _ => "1/2-1/2",
                                };
                                outln!(
                                    "game {:>3}: {w} - {b}: {result} ({}, {} plies) opening {}",
                                    index + 1,
                                    p.reason,
                                    p.plies,
                                    p.opening
                                );
                            }
                            results.lock().expect("lock").push(p);
                        }
                        Err(e) => *failure.lock().expect("lock") = Some(e),
                    }
                }
            });
            // The workers that did start share out every game; none at all is an error.
            if let Err(e) = spawned {
                if worker == 0 {
                    *failure.lock().expect("lock") = Some(format!("cannot start a worker thread: {e}"));
                }
                break;
            }
        }
    });
    if let Some(e) = failure.into_inner().expect("lock") {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let results = results.into_inner().expect("lock");
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut scores = Vec::new();
    let mut totals = [Totals::default(), Totals::default()];
    for p in &results {
        let a_score = if p.index % 2 == 0 { p.white_score } else { 1.0 - p.white_score };
        match a_score {
            1.0 => wins += 1,
            0.0 => losses += 1,
            _ => draws += 1,
        }
        scores.push(a_score);
        for (sum, t) in totals.iter_mut().zip(&p.totals) {
            sum.moves += t.moves;
            sum.micros += t.micros;
            sum.depth += t.depth;
            sum.nodes += t.nodes;
        }
    }
    let mean = scores.iter().sum::<f64>() / scores.len() as f64;
    let estimate = Estimate::of(&scores).map_or_else(|| "no games".to_string(), |e| e.to_string());
    outln!(
        "{} vs {}: {} games, +{wins} ={draws} -{losses}, score {:.1}%, {estimate} ({:.0} s)",
        specs[0].label(),
        specs[1].label(),
        results.len(),
        100.0 * mean,
        started.elapsed().as_secs_f64()
    );
    for (spec, t) in specs.iter().zip(&totals) {
        if t.moves > 0 {
            outln!(
                "  {}: {:.0} ms/move, depth {:.1}, {:.0} nodes/move over {} moves",
                spec.label(),
                t.micros as f64 / 1000.0 / t.moves as f64,
                t.depth as f64 / t.moves as f64,
                t.nodes as f64 / t.moves as f64,
                t.moves
            );
        }
    }
    ExitCode::SUCCESS
}
