//! Four Tac Toe in the terminal: tic-tac-toe on a 3×3×3×3 board (RULES.md §7).
//!
//! ```text
//! cargo run --release --example four_tac_toe                       # you (X) against the engine
//! cargo run --release --example four_tac_toe -- --play-as o --strength 5
//! cargo run --release --example four_tac_toe -- --versus human     # two people, one terminal
//! cargo run --release --example four_tac_toe -- --lines            # lines 272 through-centre 40 playable 232
//! cargo run --release --example four_tac_toe -- --selfplay --seed 1 --strength 3
//! cargo run --release --example four_tac_toe -- --match 25 --seed 7 --strength 3 --opponent random
//! ```
//!
//! Commands are read from standard input, one per line, so a game can be scripted through a pipe; the end
//! of input ends the game. A line longer than 4096 bytes or not UTF-8 is answered and skipped. `svg FILE`
//! writes as `play`'s `save` does (`examples/common/files.rs`: a link followed, a FIFO written through,
//! a folder refused, `-` for standard output). The game
//! logic is the library's ([`tesseract::tactoe`]); this file only talks.

#[macro_use]
#[path = "common/out.rs"]
mod out;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use tesseract::tactoe::{
    Claim, Contestant, Engine, Game, Lines, Player, Strength, cell_name, parse_cell, play_match, selfplay,
};

use lines::{Line, MAX_LINE, stdin_lines};

#[path = "common/files.rs"]
mod files;
#[path = "common/lines.rs"]
mod lines;

/// Four Tac Toe: claim cells of a 3×3×3×3 board (the centre 2222 is forbidden); every line of three you
/// complete scores a point; after 80 claims the higher score wins.
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
struct Args {
    /// Print `lines 272 through-centre 40 playable 232`, counted from the geometry, and exit.
    #[arg(long, conflicts_with_all = ["selfplay", "pairs"])]
    lines: bool,

    /// The engine plays itself from a random opening drawn from --seed; the last line printed is
    /// `final X <score> O <score>`.
    #[arg(long, requires = "seed", conflicts_with = "pairs")]
    selfplay: bool,

    /// Play a seeded match of this many pairs of games (colors swapped within a pair): the engine at
    /// --strength (A) against --opponent (B).
    #[arg(long = "match", value_name = "PAIRS", requires = "seed")]
    pairs: Option<u32>,

    /// The seed of every random choice (openings, random players).
    #[arg(long)]
    seed: Option<u64>,

    /// Engine strength, 1 (depth 1, fast) to 5 (depth 6 within 500,000 nodes).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=5))]
    strength: u8,

    /// In a match: B, `random` or an engine level 1 to 5.
    #[arg(long, default_value = "random", value_parser = parse_opponent, requires = "pairs")]
    opponent: Contestant,

    /// Interactive play: against the engine or another human at the same terminal.
    #[arg(long, value_enum, default_value_t = Versus::Engine)]
    versus: Versus,

    /// Against the engine: the side you play (X claims first).
    #[arg(long, value_enum, default_value_t = Side::X)]
    play_as: Side,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Versus {
    Engine,
    Human,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Side {
    X,
    O,
}

fn parse_opponent(text: &str) -> Result<Contestant, String> {
    if text == "random" {
        return Ok(Contestant::Random);
    }
    text.parse::<u8>()
        .ok()
        .and_then(Strength::level)
        .map(Contestant::Engine)
        .ok_or_else(|| format!("expected `random` or an engine level 1 to 5, not {text:?}"))
}

fn strength(level: u8) -> Strength {
    Strength::level(level).expect("clap keeps the level in 1..=5")
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.lines {
        outln!("{}", Lines::get().counts());
        return ExitCode::SUCCESS;
    }
    if args.selfplay {
        run_selfplay(strength(args.strength), args.seed.expect("clap requires --seed"));
        return ExitCode::SUCCESS;
    }
    if let Some(pairs) = args.pairs {
        let seed = args.seed.expect("clap requires --seed");
        let a = Contestant::Engine(strength(args.strength));
        outln!("A: {a}");
        outln!("B: {}", args.opponent);
        outln!("seed {seed} pairs {pairs}");
        outln!("{}", play_match(a, args.opponent, pairs, seed));
        return ExitCode::SUCCESS;
    }
    let engine_side = match (args.versus, args.play_as) {
        (Versus::Human, _) => None,
        (Versus::Engine, Side::X) => Some(Player::O),
        (Versus::Engine, Side::O) => Some(Player::X),
    };
    match interactive(engine_side, args.strength) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of standard output went away: quietly, as every example (`out::fail`).
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => out::fail(&e),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `X claims 1213: +2 (1113-1213-1313, 1213-2213-3213)  X 3  O 1`, with `who` after the player.
fn describe(claim: &Claim, game: &Game, who: &str) -> String {
    let lines = Lines::get();
    let mut out = format!("{}{who} claims {}: +{}", claim.player, cell_name(claim.cell), claim.points());
    if !claim.lines.is_empty() {
        let names: Vec<String> = claim.lines.iter().map(|&id| lines.line(id).to_string()).collect();
        out.push_str(&format!(" ({})", names.join(", ")));
    }
    let [x, o] = game.scores();
    out.push_str(&format!("  X {x}  O {o}"));
    out
}

fn final_line(game: &Game) -> String {
    let [x, o] = game.scores();
    format!("final X {x} O {o}")
}

fn run_selfplay(strength: Strength, seed: u64) {
    let played = selfplay(strength, seed);
    let mut game = Game::new();
    for (i, claim) in played.claims().iter().enumerate() {
        let claim = game.claim(claim.cell).expect("a finished game replays");
        outln!("{:>2}. {}", i + 1, describe(&claim, &game, ""));
    }
    out!("{game}");
    outln!("{}", final_line(&game));
}

const HELP: &str = "\
commands:
  xyzw         claim the cell with coordinates x y z w, each 1 to 3 (like 1323); 2222 is forbidden
               (x: column inside a board, y: row inside a board, z: row of boards, w: column of boards)
  hint xyzw    the live lines through a cell (h xyzw)
  undo         take back your last claim (u)
  board        draw the board (b)
  text         the state as text; record: the claims so far
  svg FILE     write a picture of the grid (SVG: the claims, the completed lines); a link is followed
               to its file, `svg -` prints it
  help         this list (?)
  quit         leave (q); the end of input leaves too";

fn interactive(engine_side: Option<Player>, level: u8) -> io::Result<()> {
    let mut engine = Engine::new(strength(level));
    let mut game = Game::new();
    let mut input = stdin_lines();
    let mut out = io::stdout().lock();
    writeln!(out, "Four Tac Toe. Type `help` for commands.")?;
    match engine_side {
        Some(p) => writeln!(out, "You are {}, the engine is {p} (strength {level}).", p.other())?,
        None => writeln!(out, "Two players, X first.")?,
    }
    write!(out, "{game}")?;
    loop {
        if game.is_over() {
            let outcome = game.outcome().expect("the game is over");
            writeln!(out, "Game over: {outcome}.")?;
            writeln!(out, "{}", final_line(&game))?;
            return Ok(());
        }
        if engine_side == Some(game.to_move()) {
            let cell = engine.best_move(&game).expect("the game is not over");
            let claim = game.claim(cell).expect("the engine claims a free cell");
            writeln!(out, "{}", describe(&claim, &game, " (engine)"))?;
            if !game.is_over() {
                write!(out, "{game}")?;
            }
            continue;
        }
        write!(out, "{}> ", game.to_move())?;
        out.flush()?;
        let line = match input.next_line()? {
            Some(Line::Text(line)) => line,
            Some(bad @ (Line::NotUtf8 | Line::TooLong(_))) => {
                writeln!(out, "{}", bad.complaint(MAX_LINE).unwrap_or_default())?;
                continue;
            }
            None => {
                writeln!(out)?;
                writeln!(out, "End of input: leaving the game.")?;
                writeln!(out, "{}", final_line(&game))?;
                return Ok(());
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["help" | "?"] => writeln!(out, "{HELP}")?,
            ["quit" | "q" | "exit"] => {
                writeln!(out, "{}", final_line(&game))?;
                return Ok(());
            }
            ["board" | "b"] => write!(out, "{game}")?,
            ["text" | "t"] => writeln!(out, "{}", game.text())?,
            ["record"] => writeln!(out, "{}", game.record())?,
            ["svg", path] => {
                let path = std::path::Path::new(path);
                let name = files::output_name(path);
                match files::write_output(path, game.picture().to_svg().as_bytes()) {
                    Ok(()) => writeln!(out, "wrote {name}")?,
                    Err(e) => writeln!(out, "could not write {name}: {e}")?,
                }
            }
            ["undo" | "u"] => {
                let human = game.to_move();
                // Against the engine, take back the engine's reply too, so it is your turn again.
                let mut undone = Vec::new();
                while let Some(claim) = game.undo() {
                    undone.push(cell_name(claim.cell));
                    if claim.player == human || engine_side.is_none() {
                        break;
                    }
                }
                if undone.is_empty() {
                    writeln!(out, "nothing to undo")?;
                } else {
                    writeln!(out, "undone: {}", undone.join(", "))?;
                    write!(out, "{game}")?;
                }
            }
            ["hint" | "h", rest @ ..] if !rest.is_empty() => match parse_cell(&rest.join("")) {
                Ok(cell) => write!(out, "{}", game.hint_picture(&game.hints(cell, game.to_move())))?,
                Err(e) => writeln!(out, "{e}")?,
            },
            ["hint" | "h"] => writeln!(out, "hint needs a cell, like `hint 1323`")?,
            _ => match parse_cell(&words.join("")) {
                Ok(cell) => match game.claim(cell) {
                    Ok(claim) => {
                        writeln!(out, "{}", describe(&claim, &game, ""))?;
                        if engine_side.is_none() && !game.is_over() {
                            write!(out, "{game}")?;
                        }
                    }
                    Err(e) => writeln!(out, "{e}")?,
                },
                Err(e) if line.trim().starts_with(|c: char| c.is_ascii_digit()) => writeln!(out, "{e}")?,
                Err(_) => writeln!(out, "unknown command {:?}: type a cell like 1323, or `help`", line.trim())?,
            },
        }
    }
}
