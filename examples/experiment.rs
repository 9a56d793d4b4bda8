//! Seeded playouts by the hundred, for research: games between two players from one or more start
//! positions, their statistics as CSV and JSON, and a summary table.
//!
//! ```text
//! cargo run --release --example experiment -- [--games N] [--armies NAMES] [--white PLAYER]
//!     [--black PLAYER] [--seed N] [--first-game N] [--max-plies N] [--threads N] [--memory MB]
//!     [--csv FILE] [--json FILE]
//! ```
//!
//! `--armies` takes comma-separated start names (`light`, `standard`, `dense`, `raumschach`, `classic`,
//! `chess960:N`; default `light,standard,dense`), and `--games` games are played from each. A player is
//! `random` (a uniformly random legal move), a tier (`beginner`, `club`, `expert`, `master`, within its
//! deterministic budget, no wall-clock guard) or `nodes=N` (the engine at N nodes a move). Game number k
//! (k from `--first-game`, default 0) of every start has the seed `game_seed(seed, k)`
//! (`tesseract_search::playout`): a run is the same on every machine and for any `--threads`, and
//! `--first-game K --games 1` plays game K of a run again alone. A game still on after `--max-plies`
//! plies (default 10,000) is a draw, counted under `ply_cap`.
//!
//! Games run in parallel on `--threads` threads (default: every core) with a progress bar on stderr when
//! it is a terminal. Then stdout has the summary: per start, the games, the mean plies, the mean branching
//! (legal moves per position in which a move was chosen, all that start's games pooled), the results
//! (White wins, draws, Black wins) and the reasons in percent; then `time S s`; the last line is always
//! `games N`, the number of games played. `--csv FILE` writes one row a game (`CsvWriter`'s columns:
//! start, game, seed, white, black, plies, result, reason, mean_branching, max_branching, captures,
//! promotions, checks, white_pieces, black_pieces, engine_nodes), `--json FILE` the run's settings and
//! the same games as JSON; both in the order of the starts and game numbers, whatever the threads, each
//! file replaced whole (written beside it, then renamed). A symbolic link is followed to the file it names
//! (which is replaced, the link kept; a dangling link creates the file where it points), a FIFO or a
//! character device is written straight through, and `-` is standard output, which then holds that file
//! alone: the first line and the table go to stderr.
//!
//! Ranges: `--games` 1 to 1,000,000, `--first-game` 0 to 1,000,000, `--max-plies` 1 to 1,000,000, `--threads` 1
//! to 1,024 (no more start than there are games), `nodes=N` 1 to 1,000,000,000, `--memory` 1 to 65,536 MB
//! (`tesseract_movegen::MAX_TABLE_MB`, the workspace's one cap on table sizes).
//!
//! Memory: each thread makes its own two engines (`Policy::table_mb`: a master's table is 16 MB, so two
//! masters take 32 MB a thread), and a run whose tables take more together than `--memory` (by default
//! the memory available, `MemAvailable` of `/proc/meminfo`; elsewhere the cap) is refused, naming how many
//! threads would fit. Tables are not shared between threads (a table is a searcher's own) nor sized down
//! (a smaller table would change the games, which must be the same for any `--threads`).
//!
//! A value out of range, an unknown player or start, a start named twice, tables that do not fit, an output
//! file whose folder does not exist, an output that is a folder, a block device or a socket (or a link to one),
//! or `--csv` and `--json` naming the same file (through a link too): a message on stderr and exit code 2,
//! before any game. A file that cannot be written at the end (a full disk, a folder removed meanwhile): the
//! other file is still written, the table printed, and then a message per failed file on stderr and exit code
//! 1.

#[macro_use]
#[path = "common/out.rs"]
mod out;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use clap::builder::RangedU64ValueParser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use tesseract::board::{Position, start};
use tesseract::movegen::MAX_TABLE_MB;
use tesseract::search::playout::{CsvWriter, EndReason, GameResult, GameStats, Playout, Policy, game_seed};

#[path = "common/files.rs"]
mod files;

use files::Target;

#[derive(Parser, Debug)]
#[command(about = "Seeded games by the hundred: statistics as CSV and JSON, and a summary table")]
struct Args {
    /// Games from each start, 1 to 1000000.
    #[arg(long, default_value_t = 100, value_parser = count(1..=MAX_GAMES))]
    games: u64,
    /// Start positions, comma-separated: light, standard, dense, raumschach, classic, chess960:N.
    #[arg(long, default_value = "light,standard,dense")]
    armies: String,
    /// White: random, beginner, club, expert, master or nodes=N.
    #[arg(long, default_value = "random", value_parser = policy)]
    white: Policy,
    /// Black: random, beginner, club, expert, master or nodes=N.
    #[arg(long, default_value = "random", value_parser = policy)]
    black: Policy,
    /// The run's seed; game k has the seed game_seed(seed, k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The number of the first game, 0 to 1000000 (to split a run, or replay one game).
    #[arg(long, default_value_t = 0, value_parser = count(0..=MAX_GAMES))]
    first_game: u64,
    /// A game still on after this many plies is a draw (ply_cap), 1 to 1000000.
    #[arg(long, default_value_t = Playout::DEFAULT_MAX_PLIES as u64, value_parser = count(1..=1_000_000))]
    max_plies: u64,
    /// Worker threads, 1 to 1024 (default: every core; no more than the games). Each makes its own engines,
    /// whose tables must fit in --memory together.
    #[arg(long, value_parser = count(1..=1024))]
    threads: Option<u64>,
    /// The most megabytes the engines' tables may take together, 1 to 65536 (default: the memory available,
    /// MemAvailable of /proc/meminfo; elsewhere 65536).
    #[arg(long, value_name = "MB", value_parser = count(1..=MAX_TABLE_MB as u64))]
    memory: Option<u64>,
    /// Write one CSV row a game to FILE (a link is followed to its file; `-`: standard output, the table
    /// then goes to stderr).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write the settings and the games as JSON to FILE (a link is followed to its file; `-`: standard
    /// output, the table then goes to stderr).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// The most games from each start, and the highest first game.
const MAX_GAMES: u64 = 1_000_000;

/// A parser of counts within `range`.
fn count(range: std::ops::RangeInclusive<u64>) -> RangedU64ValueParser<u64> {
    RangedU64ValueParser::new().range(range)
}

/// A player, for clap.
fn policy(text: &str) -> Result<Policy, String> {
    text.parse().map_err(|e: tesseract::search::playout::PolicyError| e.to_string())
}

/// One game of the run: its start's name and number, with its statistics.
#[derive(Serialize)]
struct Row<'a> {
    start: &'a str,
    game: u64,
    #[serde(flatten)]
    stats: GameStats,
}

/// The JSON file: the settings, then the games.
#[derive(Serialize)]
struct Report<'a> {
    seed: u64,
    white: Policy,
    black: Policy,
    max_plies: u64,
    first_game: u64,
    games_per_start: u64,
    starts: &'a [String],
    games: &'a [Row<'a>],
}

/// Refuses a run whose engines' tables (each thread makes its own two) take more memory together than
/// `--memory`, or else the memory available: `MemAvailable` of `/proc/meminfo` on Linux, elsewhere the cap
/// on table sizes ([`MAX_TABLE_MB`]).
fn check_memory(args: &Args, threads: usize) -> Result<(), String> {
    let (limit, source) = match (args.memory, available_mb()) {
        (Some(mb), _) => (mb, "that --memory allows"),
        (None, Some(mb)) => (mb, "available (MemAvailable in /proc/meminfo; --memory MB sets another limit)"),
        (None, None) => (MAX_TABLE_MB as u64, "of the cap on table sizes (--memory MB sets another limit)"),
    };
    let (white, black) = (args.white.table_mb() as u64, args.black.table_mb() as u64);
    let total = (white + black) * threads as u64;
    if total <= limit {
        return Ok(());
    }
    let fit = match limit / (white + black) {
        0 => "not even one thread's tables fit".to_string(),
        1 => "only one thread's tables fit (--threads 1)".to_string(),
        n => format!("the tables of at most {n} threads fit (--threads {n})"),
    };
    let whose = if threads == 1 { "one thread's".to_string() } else { format!("{threads} threads'") };
    Err(format!(
        "{whose} engines take {total} MB of tables ({white} MB for white, {black} MB for black, in each \
         thread), more than the {limit} MB {source}: {fit}"
    ))
}

/// `MemAvailable` of `/proc/meminfo`, in megabytes: the memory that can be had without swapping (Linux;
/// `None` elsewhere, or when it cannot be read).
fn available_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// The starts named by `--armies`, or a message.
fn starts(text: &str) -> Result<Vec<(String, Position)>, String> {
    let mut out: Vec<(String, Position)> = Vec::new();
    for name in text.split(',') {
        let pos = start::by_name(name).map_err(|e| format!("--armies: {e}"))?;
        if out.iter().any(|(n, _)| n == name) {
            return Err(format!("--armies: {name:?} is named twice"));
        }
        out.push((name.to_string(), pos));
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let setup = (|| {
        let starts = starts(&args.armies)?;
        // Refused before any game: a folder, a block device, a socket, a file whose folder is missing.
        let mut targets = Vec::new();
        for (flag, path) in [("--csv", &args.csv), ("--json", &args.json)] {
            if let Some(path) = path {
                targets.push(files::output_target(path).map_err(|e| format!("{flag}: {}: {e}", path.display()))?);
            }
        }
        if targets.len() == 2 && targets[0] == targets[1] {
            return Err("--csv and --json name the same file".to_string());
        }
        if targets.contains(&Target::Stdout) {
            // Standard output holds the file alone; the table goes to stderr.
            out::to_stderr();
        }
        // No more threads than games: each thread makes its own engines.
        let games = starts.len() * args.games as usize;
        let threads = args
            .threads
            .map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), |t| t as usize)
            .min(games);
        check_memory(&args, threads)?;
        // The engines' tables must be allocatable.
        Playout::try_new(args.white, args.black).map_err(|e| e.to_string())?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(16 << 20)
            .build()
            .map_err(|e| format!("--threads: cannot start {threads} threads: {e}"))?;
        Ok((starts, pool))
    })();
    let (starts, pool) = match setup {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    outln!(
        "experiment: {} games from each of {}, white {}, black {}, seed {}, first game {}, max plies {}",
        args.games,
        args.armies,
        args.white,
        args.black,
        args.seed,
        args.first_game,
        args.max_plies
    );
    let jobs: Vec<(usize, u64)> =
        (0..starts.len()).flat_map(|s| (args.first_game..args.first_game + args.games).map(move |k| (s, k))).collect();
    let bar = ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} games, eta {eta}")
            .expect("a valid template"),
    );
    let started = Instant::now();
    let played: Result<Vec<Row<'_>>, String> = pool.install(|| {
        jobs.par_iter()
            .map_init(
                || Playout::try_new(args.white, args.black).map(|p| p.with_max_plies(args.max_plies as usize)),
                |playout, &(s, k)| {
                    let playout = playout.as_mut().map_err(|e| e.to_string())?;
                    let (name, pos) = &starts[s];
                    let stats = playout.play(pos, game_seed(args.seed, k));
                    bar.inc(1);
                    Ok(Row { start: name, game: k, stats })
                },
            )
            .collect()
    });
    bar.finish_and_clear();
    let rows = match played {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let elapsed = started.elapsed();
    // The files first (a reader of the table may leave after its first lines), then the table, then what
    // could not be written: a failed file never hides the summary of the games played.
    let failures = write_outputs(&args, &starts, &rows);
    print_summary(&starts, &rows);
    outln!("time {:.1} s", elapsed.as_secs_f64());
    outln!("games {}", rows.len());
    for e in &failures {
        eprintln!("error: {e}");
    }
    if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Writes the CSV and JSON files asked for, each whatever became of the other; the messages of those that
/// could not be written. A reader of standard output (`-`) that went away ends the run quietly
/// (`out::fail`).
fn write_outputs(args: &Args, starts: &[(String, Position)], rows: &[Row<'_>]) -> Vec<String> {
    let mut failures = Vec::new();
    let mut write = |flag: &str, path: &PathBuf, contents: std::io::Result<Vec<u8>>| {
        let written = contents.and_then(|bytes| files::write_output(path, &bytes));
        match written {
            Ok(()) => {}
            Err(e) if path.as_os_str() == "-" => out::fail(&e),
            Err(e) => failures.push(format!("{flag}: {}: {e}", files::output_name(path))),
        }
    };
    if let Some(path) = &args.csv {
        let csv = (|| {
            let mut csv = CsvWriter::new(Vec::new())?;
            for row in rows {
                csv.write(row.start, row.game, &row.stats)?;
            }
            csv.into_inner()
        })();
        write("--csv", path, csv);
    }
    if let Some(path) = &args.json {
        let names: Vec<String> = starts.iter().map(|(n, _)| n.clone()).collect();
        let report = Report {
            seed: args.seed,
            white: args.white,
            black: args.black,
            max_plies: args.max_plies,
            first_game: args.first_game,
            games_per_start: args.games,
            starts: &names,
            games: rows,
        };
        let json = serde_json::to_vec(&report).map(|mut json| {
            json.push(b'\n');
            json
        });
        write("--json", path, json.map_err(std::io::Error::other));
    }
    failures
}

/// The table: one line per start.
fn print_summary(starts: &[(String, Position)], rows: &[Row<'_>]) {
    let width = starts.iter().map(|(n, _)| n.len()).max().unwrap_or(0).max(5);
    let mut header = format!(
        "{:<width$} {:>7} {:>10} {:>9} {:>6} {:>6} {:>6}",
        "start", "games", "plies", "branching", "white", "draw", "black"
    );
    // One column per reason, as wide as its name (at least 11).
    let column = |reason: EndReason| reason.name().len().max(11);
    for reason in EndReason::ALL {
        header.push_str(&format!(" {:>w$}", reason.name(), w = column(reason)));
    }
    outln!("{header}");
    for (name, _) in starts {
        let games: Vec<&GameStats> = rows.iter().filter(|r| r.start == name).map(|r| &r.stats).collect();
        let n = games.len() as f64;
        let plies: usize = games.iter().map(|g| g.plies).sum();
        // Pooled: the legal moves of every position in which a move was chosen, over those positions.
        let moves: f64 = games.iter().map(|g| g.mean_branching * g.plies as f64).sum();
        let branching = if plies == 0 { 0.0 } else { moves / plies as f64 };
        let results = |r: GameResult| games.iter().filter(|g| g.result == r).count();
        let mut line = format!(
            "{name:<width$} {:>7} {:>10.1} {:>9.1} {:>6} {:>6} {:>6}",
            games.len(),
            plies as f64 / n,
            branching,
            results(GameResult::White),
            results(GameResult::Draw),
            results(GameResult::Black)
        );
        for reason in EndReason::ALL {
            let share = 100.0 * games.iter().filter(|g| g.reason == reason).count() as f64 / n;
            line.push_str(&format!(" {:>w$.1}%", share, w = column(reason) - 1));
        }
        outln!("{line}");
    }
}
