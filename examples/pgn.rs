//! Reads PGN files as the open game databases publish them (plain or zstd-compressed, any size), and makes
//! seeded files of random games to test readers with.
//!
//! ```text
//! cargo run --release --features zstd --example pgn -- read FILE [--threads N] [--openings PLIES] [--top K]
//!     [--tag NAME=VALUE]... [--fen FEN | --hash HEX] [--out FILE] [--no-variations] [--quiet]
//! cargo run --release --example pgn -- generate --games N [--seed S] [--max-plies N] [--out FILE]
//! ```
//!
//! `read` goes through every game of FILE (zstd-compressed when its first bytes say so, which needs the
//! `zstd` feature), on every core (`--threads`, default all; `--threads 1` reads on one), with a progress
//! bar on standard error (bytes of the file, games a second; none with `--quiet` or when standard error is
//! not a terminal), and prints:
//! - `opening N TEXT` for the `--top` (default 10) most frequent openings, the first `--openings` plies
//!   (default 4) of each game in SAN (`opening 312 1. e4 e5 2. Nf3 Nc6`), most frequent first;
//! - `result R N` for each result (`1-0`, `0-1`, `1/2-1/2`, `*`) of the games read;
//! - `error TEXT` for the first five games that could not be read (game number, line, ply, what is wrong),
//!   then `errors N`;
//! - with `--out`, `written N`: the games that pass the filters (every `--tag NAME=VALUE`, and with `--fen`
//!   or `--hash` the games that reach that position, by Zobrist hash: the start or after any ply) written
//!   as PGN to the file (`-` for standard output, the counts then going to standard error; the games are
//!   held until the end, then written as the other examples write files: never half a file, a symbolic
//!   link followed);
//! - last, `games N`: the games read without error.
//!
//! Statistics and filters count only the games read without error; the filters also narrow the counts.
//! `generate` writes `--games` random games (`tesseract_search::playout::pgn_corpus` from the classic start,
//! seed `--seed`, at most `--max-plies` plies each: tags of a database, clock comments, NAGs and
//! variations) as PGN to `--out` (default standard output): the files the `pgn` bench and
//! `scripts/compare_pgn.py` read. Bad arguments or an unreadable file: a message on standard error and exit
//! code 2, also when reading fails part-way (a truncated compressed file), after the counts so far.
//!
//! Memory: reading holds a batch of games at a time whatever the file's size; the opening counts grow
//! with the distinct openings (many with a large `--openings`), and `--out` keeps the games it writes.

#[macro_use]
#[path = "common/out.rs"]
mod out;

#[path = "common/files.rs"]
mod files;

use std::collections::HashMap;
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tesseract::board::{Move, Position, start};
use tesseract::movegen::pgn::{self, GameBuilder, GameResult, PgnError, PgnGame};
use tesseract::movegen::san;
use tesseract::search::playout::pgn_corpus;

#[derive(Parser, Debug)]
#[command(about = "Reads PGN files (plain or zstd), counts and filters their games; makes seeded test files")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts the results, openings and errors of a PGN file, and writes the games that pass the filters.
    Read(ReadArgs),
    /// Writes seeded random games as PGN.
    Generate(GenerateArgs),
}

#[derive(clap::Args, Debug)]
struct ReadArgs {
    /// The PGN file, plain or zstd-compressed.
    file: PathBuf,
    /// Threads that parse games (default: every core); 1 reads on the calling thread alone.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Plies of each game that make its opening.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=200))]
    openings: u64,
    /// How many openings to print, the most frequent first (0: none, and no opening is written out).
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Keep only the games with this tag value (NAME=VALUE; repeat for several, all must hold).
    #[arg(long = "tag", value_parser = tag_filter)]
    tags: Vec<(String, String)>,
    /// Keep only the games that reach this position (FEN, or TFEN on other boards).
    #[arg(long, conflicts_with = "hash", value_parser = fen_hash)]
    fen: Option<u64>,
    /// Keep only the games that reach the position of this Zobrist hash (hexadecimal, as `0x…` or not).
    #[arg(long, value_parser = hex_hash)]
    hash: Option<u64>,
    /// Write the games kept to this file as PGN (`-` for standard output).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Skip variations without keeping their text (faster; they are not written with --out then).
    #[arg(long)]
    no_variations: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// How many games.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: u64,
    /// The run's seed: game k is the random playout of seed game_seed(seed, k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The most plies of a game.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    max_plies: u64,
    /// Where to write the games (`-`, the default, for standard output).
    #[arg(long, default_value = "-")]
    out: PathBuf,
}

fn tag_filter(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("expected NAME=VALUE, got {text:?}")),
    }
}

fn fen_hash(text: &str) -> Result<u64, String> {
    Position::from_fen(text).map(|p| p.hash()).map_err(|e| e.to_string())
}

fn hex_hash(text: &str) -> Result<u64, String> {
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")).unwrap_or(text);
    u64::from_str_radix(digits, 16)
        .map_err(|_| format!("expected a hexadecimal hash of at most 16 digits, got {text:?}"))
}

/// A reader that counts the bytes read from it, for the progress bar.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// What `read` counts.
#[derive(Default)]
struct Tally {
    /// Games read, with or without error, kept or not.
    read: u64,
    games: u64,
    errors: u64,
    first_errors: Vec<String>,
    results: HashMap<GameResult, u64>,
    openings: HashMap<String, u64>,
    kept: Vec<PgnGame>,
    /// Reading the file failed (not a game in it): what the error said.
    failed: Option<String>,
}

/// What `read` takes from a game: whether it passes the filters, its result, its opening, and with `--out`
/// the game itself.
struct Summary {
    passes: bool,
    result: GameResult,
    opening: Option<String>,
    game: Option<PgnGame>,
}

/// The visitor that reads a game into a [`Summary`], as the reader meets its parts: no game is built
/// unless `--out` keeps it.
#[derive(Clone)]
struct Summarize<'a> {
    args: &'a ReadArgs,
    /// For each `--tag` filter, whether the game's first tag of that name has the value (`None`: no such tag
    /// yet).
    tags: Vec<Option<bool>>,
    /// Whether the game reached the position of `--fen` or `--hash`.
    reached: bool,
    start: Option<Position>,
    opening: Vec<Move>,
    /// The game being built, with `--out`.
    builder: Option<GameBuilder>,
}

impl<'a> Summarize<'a> {
    fn new(args: &'a ReadArgs) -> Summarize<'a> {
        let builder = args.out.as_ref().map(|_| GameBuilder::new());
        Summarize { args, tags: Vec::new(), reached: false, start: None, opening: Vec::new(), builder }
    }

    fn hash_reached(&mut self, pos: &Position) {
        self.reached |= self.args.fen.or(self.args.hash).is_some_and(|h| pos.hash() == h);
    }
}

impl pgn::Visitor for Summarize<'_> {
    type Output = Summary;

    fn begin_game(&mut self) {
        self.tags = vec![None; self.args.tags.len()];
        self.reached = false;
        self.opening.clear();
        if let Some(b) = &mut self.builder {
            b.begin_game();
        }
    }

    fn tag(&mut self, name: &str, value: &str) {
        for (i, (n, v)) in self.args.tags.iter().enumerate() {
            if n == name && self.tags[i].is_none() {
                self.tags[i] = Some(v == value);
            }
        }
        if let Some(b) = &mut self.builder {
            b.tag(name, value);
        }
    }

    fn begin_movetext(&mut self, start: &Position) -> pgn::Skip {
        self.hash_reached(start);
        if self.args.top > 0 {
            self.start = Some(start.clone());
        }
        if let Some(b) = &mut self.builder {
            b.begin_movetext(start);
        }
        pgn::Skip(false)
    }

    fn play(&mut self, before: &Position, m: Move) {
        if self.args.top > 0 && self.opening.len() < self.args.openings as usize {
            self.opening.push(m);
        }
        if let Some(b) = &mut self.builder {
            b.play(before, m);
        }
    }

    fn reached(&mut self, after: &Position) {
        self.hash_reached(after);
    }

    fn comment(&mut self, text: &str) {
        if let Some(b) = &mut self.builder {
            b.comment(text);
        }
    }

    fn nag(&mut self, nag: u8) {
        if let Some(b) = &mut self.builder {
            b.nag(nag);
        }
    }

    fn wants_variations(&self) -> bool {
        self.builder.is_some() && !self.args.no_variations
    }

    fn variation(&mut self, raw: &str) {
        if let Some(b) = &mut self.builder {
            b.variation(raw);
        }
    }

    fn end_game(&mut self, result: GameResult) -> Summary {
        let tags_hold = self.tags.iter().all(|t| *t == Some(true));
        let hash_holds = self.args.fen.or(self.args.hash).is_none() || self.reached;
        // The moves were checked legal as they were read.
        let opening = self.start.as_ref().map(|start| san::numbered(start, &self.opening).unwrap_or_default());
        let game = self.builder.as_mut().map(|b| b.end_game(result));
        Summary { passes: tags_hold && hash_holds, result, opening, game }
    }
}

impl Tally {
    fn add(&mut self, read: Result<Summary, PgnError>) {
        self.read += 1;
        let summary = match read {
            Ok(summary) => summary,
            Err(e) if matches!(e.kind, pgn::PgnErrorKind::Io(_)) => {
                self.failed = Some(e.to_string());
                return;
            }
            Err(e) => {
                self.errors += 1;
                if self.first_errors.len() < 5 {
                    self.first_errors.push(e.to_string());
                }
                return;
            }
        };
        if !summary.passes {
            return;
        }
        self.games += 1;
        *self.results.entry(summary.result).or_default() += 1;
        if let Some(opening) = summary.opening {
            *self.openings.entry(opening).or_default() += 1;
        }
        self.kept.extend(summary.game);
    }
}

fn read(args: &ReadArgs) -> Result<(), String> {
    // An output that cannot be written (its folder missing, a folder) is refused before any reading.
    if let Some(out) = &args.out {
        files::output_target(out).map_err(|e| format!("{}: {e}", files::output_name(out)))?;
    }
    let name = args.file.display();
    let file = std::fs::File::open(&args.file).map_err(|e| format!("{name}: {e}"))?;
    let total = file.metadata().map(|m| m.len()).unwrap_or(0);
    let read = Arc::new(AtomicU64::new(0));
    let counting = Counting { inner: file, read: Arc::clone(&read) };
    let reader = pgn::decompressed(counting).map_err(|e| format!("{name}: {e}"))?;
    let visible = !args.quiet && std::io::stderr().is_terminal();
    let bar = ProgressBar::with_draw_target(
        Some(total),
        if visible { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() },
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg}")
            .expect("a valid template"),
    );
    // With the games on standard output, the counts go to standard error.
    if args.out.as_ref().is_some_and(|o| o.as_os_str() == "-") {
        out::to_stderr();
    }
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    let step = |tally: &mut Tally, game| {
        tally.add(game);
        let seen = tally.read;
        if seen.is_multiple_of(1024) {
            bar.set_position(read.load(Ordering::Relaxed));
            let rate = seen as f64 / started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!("{seen} games, {rate:.0} games/s"));
        }
    };
    bar.enable_steady_tick(Duration::from_millis(200));
    let mut visitor = Summarize::new(args);
    if args.threads == Some(1) {
        let mut reader = reader;
        while let Some(game) = reader.read_game(&mut visitor) {
            step(&mut tally, game);
        }
    } else {
        if let Some(n) = args.threads {
            rayon::ThreadPoolBuilder::new().num_threads(n as usize).build_global().map_err(|e| e.to_string())?;
        }
        reader.parallel_visit(visitor).for_each(|game| step(&mut tally, game));
    }
    bar.finish_and_clear();

    let mut openings: Vec<_> = tally.openings.into_iter().collect();
    openings.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (text, n) in openings.iter().take(args.top) {
        outln!("opening {n} {text}");
    }
    for result in [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw, GameResult::Unknown] {
        outln!("result {result} {}", tally.results.get(&result).copied().unwrap_or(0));
    }
    for e in &tally.first_errors {
        outln!("error {e}");
    }
    outln!("errors {}", tally.errors);
    if let Some(out) = &args.out {
        let text = pgn::write_games(&tally.kept).map_err(|e| e.to_string())?;
        files::write_output(out, text.as_bytes()).map_err(|e| format!("{}: {e}", files::output_name(out)))?;
        outln!("written {}", tally.kept.len());
    }
    outln!("games {}", tally.games);
    match tally.failed {
        Some(e) => Err(format!("{name}: {e}")),
        None => Ok(()),
    }
}

fn generate(args: &GenerateArgs) -> Result<(), String> {
    let start = start::chess();
    let mut text = String::new();
    // As pgn::write_games writes them: a blank line between games.
    for (i, game) in pgn_corpus(&start, args.seed, 0..args.games, args.max_plies as usize).enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&game.to_pgn().map_err(|e| e.to_string())?);
    }
    files::write_output(&args.out, text.as_bytes()).map_err(|e| format!("{}: {e}", files::output_name(&args.out)))
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    let result = match &args.command {
        Command::Read(read_args) => read(read_args),
        Command::Generate(generate_args) => generate(generate_args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pgn: {e}");
            ExitCode::from(2)
        }
    }
}
