//! Texel tuning of the evaluation's weights (`tesseract_search::tune`): plays seeded games of the engine
//! against itself at a node budget, samples their positions with the games' results, and fits the weights
//! of the start's board to the results. Prints the fit; the engine's weights change only by hand, after a
//! match shows the fitted ones play better.
//!
//! ```text
//! cargo run --release -p tesseract-search --example tune -- --start classic --games 300 --nodes 2000 --seed 1
//! ```
//!
//! `--only value` fits the pieces' values alone (the names are `Weights::named`'s; a parameter is fitted
//! when its name starts with one of the comma-separated prefixes), `--only value,mobility` the values and
//! the mobility weights; without it, every weight that counts on the board but the piece-square corrections
//! (`square.`, fitted by `--squares`, or one step at a time with `--only square`).
//!
//! Samples are quiet positions (neither reached by a capture nor left by one; a promotion counts as quiet)
//! after the first `--skip` plies, one every `--every` plies, with pawns on both sides and no check
//! (`tune::samples_of_game`). With an even `--skip` and `--every` (the defaults, 8 and 2), every sample has
//! White to move, so `tempo` fits White's average score rather than the move's worth: leave it out, or
//! sample every ply.
//!
//! `--write-samples FILE` writes the samples to FILE (`tune::write_samples`: a result and a position a
//! line); `--samples FILE` reads them from such a file instead of playing games, so that fits of other
//! parameters or steps need not replay the games (the start still names the board, which the samples must
//! be on; `--samples` goes with neither the games' arguments nor `--write-samples`). The file to write is
//! made before the games are played, so a path that cannot be one is refused at once (exit code 2).
//!
//! `--squares` fits the 8×8 piece-square corrections instead (`square.*`, `tune::fit_squares`): all of
//! them at once, by `--epochs` Gauss-Newton steps at the scale the engine's weights fit, pulled toward
//! the engine's by `--ridge`. `--check FILE` prints the error of the engine's weights and of the fitted
//! ones on other samples (held out of the fit), and `--write-weights FILE` writes the fitted weights as a
//! weights text, which the match example's `weights=FILE` plays:
//!
//! ```text
//! bash scripts/tune_samples.sh samples
//! cargo run --release -p tesseract-search --example tune -- --start classic --samples samples/train.txt \
//!     --squares --check samples/check.txt --write-weights squares.txt
//! ```
//!
//! The output: the games' results and the samples, the error of each pass, then each parameter that moved
//! with its weight before and after, the scale and the error before and after, and the weights as Rust
//! (`Weights`' fields). The same arguments give the same output on every machine (the playouts are seeded
//! and node-bounded), whatever the `--threads` that play the games.

use std::io::{self, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tesseract_board::{Position, Shape, start};
use tesseract_search::eval::{Evaluator, Weights, has_squares};
use tesseract_search::playout::{GameResult, Playout, Policy, game_seed};
use tesseract_search::tune::{
    Sample, SamplesError, error, fit_scale, fit_squares, read_samples, samples_of_game, tune, write_samples,
};

#[derive(Parser, Debug)]
#[command(about = "Fits the evaluation's weights to the results of seeded engine games (Texel tuning)")]
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
    /// Plies of uniformly random moves that open each game (the seed's), before the engine plays: the
    /// engine's own moves vary little with the seed, so without them the games from one start repeat a
    /// few openings.
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// A game still on after this many plies ends as a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// The fit's step for the pieces' values, in centipawns (1 to 100); other weights move by 1.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(i32).range(1..=100))]
    step: i32,
    /// Threads playing the games (1 to 256; the output is the same whatever the number).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// The fit's passes over the parameters, at most.
    #[arg(long, default_value_t = 30)]
    passes: usize,
    /// Fit only the parameters whose names start with one of these comma-separated prefixes (`value`,
    /// `centre`, `mobility` (with `mobility_unsafe`; `mobility.` without it), `advance`, `attack`, `shelter`,
    /// `tempo`, `passed` (with `passed_king` and `passed_blocked`; `passed.` without), `unstoppable`, `protected`,
    /// `doubled`, `isolated`, `rook_`, `threat_`, `bishop_pair`, on boards of two axes `shield`,
    /// `king_open_file`, `phalanx`, `backward`, `storm`, `outpost` and `trapped`, on 8×8 `square`, or a whole
    /// name such as `mobility.Rook.eg`); by default all of them but `square` (which `--squares` fits).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Write the samples to this file (one a line: the result for White and the position's text).
    #[arg(long, value_name = "FILE")]
    write_samples: Option<PathBuf>,
    /// Read the samples from this file (as `--write-samples` writes them) instead of playing games.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["games", "nodes", "seed", "skip", "every", "random_plies", "max_plies", "threads", "write_samples"]
    )]
    samples: Option<PathBuf>,
    /// Fit the 8×8 piece-square corrections (`square.*`, `tune::fit_squares`) instead of the stepwise fit
    /// of the other weights (chess and Chess960 only): `--epochs` Gauss-Newton steps from the start
    /// weights' (the engine's, or `--weights`).
    #[arg(long, conflicts_with_all = ["only", "step", "passes"])]
    squares: bool,
    /// The steps of `--squares` (1 to 100,000).
    #[arg(long, default_value_t = 150, requires = "squares", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    epochs: u64,
    /// The pull of `--squares` toward the start weights' corrections (`tune::fit_squares`'s ridge, 0 to 1).
    #[arg(long, default_value_t = 3e-7, requires = "squares", value_parser = ridge)]
    ridge: f64,
    /// Also print the error of the start weights (the engine's, or `--weights`) and of the fitted ones on these samples (a file as
    /// `--write-samples` writes, of positions held out of the fit), each at its own fitted scale.
    #[arg(long, value_name = "FILE")]
    check: Option<PathBuf>,
    /// Fit from these weights instead of the engine's: a weights text (`Weights::parse`: the engine's
    /// weights with the file's lines changed), such as `scripts/weights/2d-no-squares.txt`. The games are
    /// still the engine's.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Write the fitted weights to this file as a weights text (`Weights::to_text`), as the match
    /// example's `weights=FILE` reads it.
    #[arg(long, value_name = "FILE")]
    write_weights: Option<PathBuf>,
}

/// A ridge of `--ridge`: a number from 0 to 1.
fn ridge(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!("expected a number from 0 to 1, found {text:?}")),
    }
}

/// Plays game `i` of the run and samples it: (i, the result's column (White wins, draws, Black wins), the
/// samples).
fn sampled_game(args: &Args, start: &Position, playout: &mut Playout, i: u64) -> (u64, usize, Vec<Sample>) {
    let (game, stats) = playout.play_game(start, game_seed(args.seed, i));
    let (result, column) = match stats.result {
        GameResult::White => (1.0, 0),
        GameResult::Draw => (0.5, 1),
        GameResult::Black => (0.0, 2),
    };
    (i, column, samples_of_game(&game, result, args.skip, args.every as usize))
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
    let engine = match &args.weights {
        None => Weights::of(start.geometry().dims()),
        Some(path) => {
            match weights_text(path).and_then(|text| Weights::parse(start.shape(), &text).map_err(|e| e.to_string())) {
                Ok(weights) => weights,
                Err(e) => {
                    eprintln!("tune: --weights {}: {e}", path.display());
                    return Ok(ExitCode::from(2));
                }
            }
        }
    };
    // Without `--only`, every weight but the piece-square corrections, which `--squares` fits (or
    // `--only square`, one step at a time).
    let picked = |name: &str| match args.only.is_empty() {
        true => !name.starts_with("square."),
        false => args.only.iter().any(|p| name.starts_with(p.as_str())),
    };
    let names: Vec<String> = engine.clone().named(start.shape()).into_iter().map(|(n, _)| n).collect();
    // Every prefix must name something: a typo would otherwise leave its parameters out unseen.
    if let Some(prefix) = args.only.iter().find(|p| p.is_empty() || !names.iter().any(|n| n.starts_with(p.as_str()))) {
        eprintln!("tune: --only {prefix:?}: no parameter of this board has such a name");
        return Ok(ExitCode::from(2));
    }
    if args.squares && !has_squares(start.shape()) {
        eprintln!("tune: --squares: the piece-square corrections count on the 8×8 board only, not on {}", args.start);
        return Ok(ExitCode::from(2));
    }
    // The files to write are made, and the samples to check read, before the games are played, so that
    // a path that cannot be one (a missing folder, a folder, a block device) is told at once.
    let inputs = [("--samples", &args.samples), ("--check", &args.check), ("--weights", &args.weights)];
    let outputs = [("--write-samples", &args.write_samples), ("--write-weights", &args.write_weights)];
    for (flag, path) in outputs {
        let Some(path) = path else { continue };
        let same = |other: &PathBuf| {
            std::fs::canonicalize(path).is_ok_and(|a| std::fs::canonicalize(other).is_ok_and(|b| a == b))
        };
        if let Some((input, _)) = inputs.iter().find(|(_, other)| other.as_ref().is_some_and(same)) {
            eprintln!("tune: {flag} {}: the file {input} reads; writing would empty it", path.display());
            return Ok(ExitCode::from(2));
        }
    }
    let mut files = Vec::new();
    for (flag, path) in outputs {
        match path.as_ref().map(|p| output_file(p)) {
            Some(Ok(file)) => files.push(Some(BufWriter::new(file))),
            Some(Err(e)) => {
                eprintln!("tune: {flag} {}: {e}", path.as_ref().map_or(String::new(), |p| p.display().to_string()));
                return Ok(ExitCode::from(2));
            }
            None => files.push(None),
        }
    }
    let [mut samples_out, mut weights_out]: [Option<BufWriter<std::fs::File>>; 2] =
        files.try_into().expect("two files");
    let check = match &args.check {
        Some(path) => match samples_from(path, &start, &args.start) {
            Ok(samples) => Some(samples),
            Err(e) => {
                eprintln!("tune: --check {e}");
                return Ok(ExitCode::from(2));
            }
        },
        None => None,
    };
    let samples = match &args.samples {
        Some(path) => match samples_from(path, &start, &args.start) {
            Ok(samples) => {
                writeln!(out, "samples {} (from {})", samples.len(), path.display())?;
                samples
            }
            Err(e) => {
                eprintln!("tune: --samples {e}");
                return Ok(ExitCode::from(2));
            }
        },
        None => play_and_sample(args, &start, out)?,
    };
    if let (Some(path), Some(file)) = (&args.write_samples, &mut samples_out)
        && let Err(e) = write_samples(file, &samples).and_then(|()| file.flush())
    {
        eprintln!("tune: --write-samples {}: {e}", path.display());
        return Ok(ExitCode::FAILURE);
    }
    if samples.is_empty() {
        eprintln!("tune: the games gave no samples (quiet positions with pawns on both sides): play more games");
        return Ok(ExitCode::FAILURE);
    }
    let shape = start.shape();
    let before_scale = fit_scale(&samples, &Evaluator::new(shape, &engine));
    let fitted = if args.squares {
        let mut lines = Vec::new();
        let fit = fit_squares(&samples, engine, before_scale, args.ridge, args.epochs as usize, |epoch, e| {
            lines.push(format!("epoch {epoch}: error {e:.6}"));
        });
        for line in lines {
            writeln!(out, "{line}")?;
        }
        print_changes(out, shape, engine, fit.weights)?;
        writeln!(out, "scale {before_scale:.3}, error {:.6} -> {:.6}", fit.error_before, fit.error)?;
        fit.weights
    } else {
        let before = error(&samples, &Evaluator::new(shape, &engine), before_scale);
        let mut lines = Vec::new();
        let fit = tune(&samples, shape, engine, picked, args.step, args.passes, |pass, scale, e| {
            lines.push(format!("pass {pass}: scale {scale:.3}, error {e:.6}"));
        });
        for line in lines {
            writeln!(out, "{line}")?;
        }
        print_changes(out, shape, engine, fit.weights)?;
        writeln!(
            out,
            "scale {before_scale:.3} -> {:.3}, error {before:.6} -> {:.6}, passes {}",
            fit.scale, fit.error, fit.passes
        )?;
        writeln!(out, "{:?}", fit.weights)?;
        fit.weights
    };
    if let Some(check) = &check {
        let [was, now] = [engine, fitted].map(|w| {
            let evaluator = Evaluator::new(shape, &w);
            error(check, &evaluator, fit_scale(check, &evaluator))
        });
        writeln!(out, "check: {} samples, error {was:.6} -> {now:.6}", check.len())?;
    }
    if let (Some(path), Some(file)) = (&args.write_weights, &mut weights_out)
        && let Err(e) = file.write_all(fitted.to_text(shape).as_bytes()).and_then(|()| file.flush())
    {
        eprintln!("tune: --write-weights {}: {e}", path.display());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The most bytes of a `--weights` file read: 1 MiB, a hundred times an 8×8 weights text.
const MAX_WEIGHTS_FILE: u64 = 1 << 20;

/// The text of the `--weights` file at `path`, read up to [`MAX_WEIGHTS_FILE`] bytes (`/dev/zero` is
/// refused, not read to the end), or what is wrong with it.
fn weights_text(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_WEIGHTS_FILE + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_WEIGHTS_FILE {
        return Err(format!("the file is larger than {MAX_WEIGHTS_FILE} bytes"));
    }
    String::from_utf8(bytes).map_err(|_| "the file is not UTF-8 text".to_string())
}

/// Writes each weight that differs between `old` and `new`, a line `name old -> new`.
fn print_changes(out: &mut impl Write, shape: Shape, mut old: Weights, mut new: Weights) -> io::Result<()> {
    for ((name, was), (_, now)) in old.named(shape).into_iter().zip(new.named(shape)) {
        if was != now {
            writeln!(out, "{name} {was} -> {now}")?;
        }
    }
    Ok(())
}

/// The samples of the file at `path` (`tune::read_samples`), which must be on the board of `start`
/// (named `start_name`) and hold one at least; the error names the path.
fn samples_from(path: &std::path::Path, start: &Position, start_name: &str) -> Result<Vec<Sample>, String> {
    let at = path.display();
    match std::fs::File::open(path).map_err(SamplesError::from).and_then(|f| read_samples(BufReader::new(f))) {
        Ok(samples) if samples.first().is_some_and(|s| s.position.shape() != start.shape()) => Err(format!(
            "{at}: the samples are on the {} board, --start {start_name} on the {}",
            samples[0].position.shape(),
            start.shape()
        )),
        Ok(samples) if samples.is_empty() => Err(format!("{at}: the file holds no samples")),
        Ok(samples) => Ok(samples),
        Err(e) => Err(format!("{at}: {e}")),
    }
}

/// A file `--write-samples` or `--write-weights` names, made (or emptied) for writing: a symbolic link is followed to its
/// file, a FIFO or a character device is written straight through; a folder, a block device or a socket
/// is refused.
fn output_file(path: &std::path::Path) -> io::Result<std::fs::File> {
    if let Ok(meta) = std::fs::metadata(path) {
        let kind = meta.file_type();
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_block_device() || kind.is_socket() {
                return Err(io::Error::other("a block device or a socket, not a file to write to"));
            }
        }
        if kind.is_dir() {
            return Err(io::Error::other("a folder, not a file"));
        }
    }
    std::fs::File::create(path)
}

/// Plays the run's games (on `--threads` threads) and samples them, writing the games' results and the
/// samples' count. Game i is played from its own seed, whichever thread plays it, and the samples are put
/// back in the games' order: the output does not depend on the threads.
fn play_and_sample(args: &Args, start: &Position, out: &mut impl Write) -> io::Result<Vec<Sample>> {
    let threads = args.threads.min(args.games.max(1));
    let mut games: Vec<(u64, usize, Vec<Sample>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let policy = Policy::Nodes(args.nodes);
                    let mut playout = Playout::new(policy, policy)
                        .with_max_plies(args.max_plies)
                        .with_random_plies(args.random_plies);
                    (t..args.games)
                        .step_by(threads as usize)
                        .map(|i| sampled_game(args, start, &mut playout, i))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a game thread")).collect()
    });
    games.sort_by_key(|g| g.0);
    let mut results = [0u64; 3];
    let mut samples = Vec::new();
    for (_, column, game_samples) in games {
        results[column] += 1;
        samples.extend(game_samples);
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
    Ok(samples)
}
