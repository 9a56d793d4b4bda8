//! Play Tesseract (or classic chess, or Chess960) in the terminal, against the engine or another person.
//!
//! ```text
//! cargo run --release --example play -- [--start standard|light|dense|raumschach|classic|chess960:N]
//!     [--tier beginner|club|expert|master] [--color white|black] [--two-players]
//!     [--white PLAYER --black PLAYER] [--seed N] [--load FILE] [--tablebases DIR] [--no-color]
//!     [--no-time-guard] [--verbose]
//! cargo run --release --example play -- --study N | --lesson N [--no-color]
//! ```
//!
//! `--study N` (1 to 12) and `--lesson N` (1 to 8) play the write-up's mate studies and tutorial lessons,
//! as the page does, through `tesseract_verify::tutor` (examples/common/learn.rs): in a study you type
//! White's moves, each judged by the mate solver and answered by Black's longest defence or by a
//! refutation (`back` takes it back; `hint`, `restart`, `next`); in a lesson only the taught pieces move
//! and the other side passes, until the goal (`Done in N moves`). A number out of range exits with 2.
//!
//! The engine plays at the beginner tier unless `--tier` says otherwise (the page's default opponent too).
//! The board is drawn as in the write-up: a 5×5 grid of 5×5 boards, x and y inside each board, z choosing
//! the row of boards and w the column; a 2D game as the usual diagram. It is drawn from the side of the
//! person at the keyboard: playing Black (`--color black`, or `--black human` against an engine, or a
//! loaded game where only Black is human) the board is turned for you (the picture by 180°:
//! `Diagram::from_side` of tesseract-board), and from White's side when both sides or neither are people;
//! `flip` turns it either way. `history` lists the moves as a reader writes them (SAN in 2D, the long form of
//! RULES.md §4 in 3D and 4D: `tesseract_movegen::san::numbered`), then as typed. Moves are typed in the text of
//! RULES.md §4: eight digits from-xyzw to-xyzw in 4D (`22132313`, `24132513Q`), UCI in 2D (`e2e4`,
//! `e7e8q`), or as `history` writes them (the long form `Y2213-2313` in 4D, SAN such as `e4` or `Nf3` in
//! 2D). A cell alone (`2213`) is answered with what a move looks like and `moves 2213`, which lists that
//! piece's moves. Type `help` for the commands: list or highlight a piece's legal moves, undo, save and load
//! a game record (JSON: start position, seed, players, moves; the engine's moves replay identically).
//! After each engine move one line says what it played and what it thinks, in words
//! (`tesseract_search::describe`): `Black (beginner) plays Y2453-2353 — Black is better by about 0.4 pawns,
//! looking 2 moves ahead, 0.1 s.`; `--verbose` also prints each iteration of its search (depth, score,
//! nodes, time, principal variation) as it finishes.
//! Colors are used when stdout is a terminal, unless `--no-color` or `NO_COLOR` is set. A tier's
//! wall-clock guard (2 to 3.5 s) stops the engine on a busy or slow machine before its node budget, and
//! the move then differs from what `load FILE verify` re-thinks; `--no-time-guard` always searches the
//! whole budget, so every engine move is a function of the game, the tier and the seed alone.
//!
//! `--tablebases DIR` loads the endgame tables of a folder (the `*.ttb` files the `tablebase` example
//! writes with `--save-dir DIR`) for the engine (`Searcher::set_tablebases`): in a position a table covers
//! it plays the table's move at once and says the exact mate (`White mates in 16`), and inside its
//! searches it takes the tables' values; a folder that cannot be loaded is an error (exit status 2). A
//! game played with tables replays (`load FILE verify`) only with the same tables loaded.
//!
//! Input: one command a line; a line longer than 4096 bytes or not UTF-8 is answered and skipped. When
//! both sides are engines (`--white TIER --black TIER`, or a loaded game), they play on their own, and
//! `quit` or the end of input stops them at once, cutting short a search under way; other lines
//! typed meanwhile are taken in order afterwards. `save` (and `svg`) writes a temporary file beside the
//! target and renames it over the target, so a failed save leaves an earlier file as it was; a symbolic
//! link is followed first (a chain of them, a relative one from the link's folder, a dangling one: the
//! file is created where it points) and stays a link, a FIFO or a character device is written straight
//! through, a folder, a block device or a socket is refused with a message, and `save -` or `svg -`
//! prints to standard output. `--load` and `load` read at most 16 MiB (a larger file is refused) and
//! accept a UTF-8 byte-order mark.

#[macro_use]
#[path = "common/out.rs"]
mod out;

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use clap::Parser;
use tesseract::board::picture::Diagram;
use tesseract::board::svg::Picture;
use tesseract::board::{Cell, Color, Move, Position, TextMove, TextMoveError, start};
use tesseract::movegen::pgn::{PgnError, PgnGame};
use tesseract::movegen::san::SanError;
use tesseract::movegen::{MoveError, legal_moves, san, text_line_string};
use tesseract::search::{Game, GameRecord, Info, Player, Score, Searcher, StopReason, Tier};
use tesseract::tablebase::Tablebases;

use input::{Input, is_quit};
use lines::{Line, MAX_LINE};

#[path = "common/files.rs"]
mod files;
#[path = "common/input.rs"]
mod input;
#[path = "common/learn.rs"]
mod learn;
#[path = "common/lines.rs"]
mod lines;

#[derive(Parser, Debug)]
#[command(about = "Play Tesseract (4D chess), chess or Chess960 in the terminal")]
struct Args {
    /// The start position: light, standard, dense (Tesseract), raumschach (3D), classic, or chess960:N (N in
    /// 0..=959).
    #[arg(long, default_value = "standard")]
    start: String,
    /// The engine's tier: beginner, club, expert or master (beginner, as on the page, unless said).
    #[arg(long, default_value = "beginner")]
    tier: String,
    /// The color you play against the engine.
    #[arg(long, default_value = "white")]
    color: String,
    /// Two people at one keyboard, no engine.
    #[arg(long)]
    two_players: bool,
    /// Who plays White (human or a tier); overrides --tier/--color.
    #[arg(long)]
    white: Option<String>,
    /// Who plays Black (human or a tier); overrides --tier/--color.
    #[arg(long)]
    black: Option<String>,
    /// The game's seed (the engine's noise and tie-breaks); default: from the clock.
    #[arg(long)]
    seed: Option<u64>,
    /// Start from a saved game.
    #[arg(long)]
    load: Option<String>,
    /// Load the endgame tables of this folder (the `*.ttb` files of the tablebase example's --save-dir) for
    /// the engine: it plays their moves and knows their exact mates.
    #[arg(long, value_name = "DIR")]
    tablebases: Option<PathBuf>,
    /// Plain text even on a terminal.
    #[arg(long)]
    no_color: bool,
    /// No wall-clock guard: the engine always searches its whole node budget, so its moves are the same
    /// on any machine however busy (a save then always verifies), at the cost of long waits on a slow one.
    #[arg(long)]
    no_time_guard: bool,
    /// Print each iteration of the engine's search (depth, score, nodes, time, principal variation), not
    /// only the one line a move that says what it played and what it thinks.
    #[arg(long)]
    verbose: bool,
    /// Solve one of the write-up's mate studies (1 to 12): you play White's moves, Black defends.
    #[arg(long, value_name = "N", value_parser = learn::study_number, conflicts_with_all = GAME_ARGS, conflicts_with = "lesson")]
    study: Option<usize>,
    /// Follow one of the tutorial's lessons (1 to 8): only the taught piece moves, the other side passes.
    #[arg(long, value_name = "N", value_parser = learn::lesson_number, conflicts_with_all = GAME_ARGS)]
    lesson: Option<usize>,
}

/// The arguments of a game, which `--study` and `--lesson` do not take (nor each other: `--study` says so).
const GAME_ARGS: [&str; 11] = [
    "start",
    "tier",
    "color",
    "two_players",
    "white",
    "black",
    "seed",
    "load",
    "tablebases",
    "no_time_guard",
    "verbose",
];

const HELP: &str = "\
Commands:
  MOVE              play a move: 8 digits from-xyzw to-xyzw in 4D (22132313, promotion 24132513Q)
                    or the long form (Y2213-2313); UCI (e2e4, e7e8q) or SAN (e4, Nf3) in 2D
  moves             list every legal move, by piece
  moves CELL        list and highlight the moves of the piece on CELL (xyzw digits in 4D, e2 in 2D)
  board             draw the board again
  flip              turn the board (drawn from your side: from Black's when you play Black)
  undo              take back your last move (and the engine's reply)
  save FILE         save the game (JSON: start, seed, players, moves; PGN when FILE ends in .pgn);
                    a link is followed to its file, `save -` prints it
  svg FILE          write a picture of the position (SVG: the last move marked, a king in check red);
                    `svg -` prints it
  load FILE         load a saved game; `load FILE verify` also re-thinks every engine move
  fen               print the position's text
  history           print the moves played (SAN in 2D, the long form in 3D/4D, then as typed)
  help              this list
  quit              leave";

/// What the board drawing highlights.
#[derive(Default)]
struct Marks {
    selected: Option<Cell>,
    targets: Vec<Cell>,
    last: Option<Move>,
}

struct Ui {
    game: Game,
    players: [Player; 2],
    searcher: Searcher,
    color: bool,
    /// The side the board is drawn from (the person's against the engine; `flip` turns it).
    side: Color,
    /// Whether the tier's wall-clock guard may stop the engine before its budget.
    guard: bool,
    /// Whether each iteration of the engine's search is printed (`--verbose`).
    verbose: bool,
    out: std::io::Stdout,
    input: Input,
}

/// The color that plays the move of index `ply` (from 0) of a game from `start`.
fn mover_at(start: &Position, ply: usize) -> Color {
    if ply.is_multiple_of(2) { start.turn() } else { start.turn().other() }
}

fn player_of(color: Color, players: &[Player; 2]) -> Player {
    players[color.index()]
}

/// The side the board is drawn from: the person's, so Black's when only Black is a person; White's when
/// both sides or neither are people.
fn side_of(players: &[Player; 2]) -> Color {
    if matches!(players, [Player::Engine(_), Player::Human]) { Color::Black } else { Color::White }
}

/// A side's name at the start of a sentence.
fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// What a move looks like on a board of `dims` axes, for the messages that answer a text that is none.
fn move_forms(dims: usize) -> &'static str {
    match dims {
        2 => "UCI like e2e4 or e7e8q, or SAN like e4 or Nf3",
        3 => {
            "six digits from-xyz to-xyz like 221231 (a promotion letter Q R B N U after them when promoting), \
             or the long form like Y221-231"
        }
        _ => {
            "eight digits from-xyzw to-xyzw like 22132313 (a promotion letter Q R B N U D after them when \
             promoting), or the long form like Y2213-2313"
        }
    }
}

/// The mailbox-free text of a cell: digits in 4D, algebraic in 2D.
fn cell_name(pos: &Position, cell: Cell) -> String {
    pos.geometry().cell_name(cell)
}

/// Whether a file name asks for PGN (`.pgn`, any case) rather than the JSON record.
fn is_pgn(path: &str) -> bool {
    Path::new(path).extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

fn move_text(pos: &Position, m: Move) -> String {
    TextMove::from_move(m, pos).to_string()
}

/// `1 legal move`, `3 legal moves`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(v) => format!("{:+.2}", v as f64 / 100.0),
        Score::Mate(m) if m > 0 => format!("mate in {m}"),
        Score::Mate(m) => format!("mated in {}", -m),
    }
}

impl Ui {
    fn draw(&self, marks: &Marks) -> String {
        let pos = self.game.position();
        let diagram = Diagram::new(pos)
            .selected(marks.selected)
            .targets(marks.targets.iter().copied())
            .last_move(marks.last)
            .from_side(self.side)
            .ansi(self.color);
        let mut out = diagram.to_string();
        if pos.geometry().dims() == 4 {
            out.push_str(
                if self.side == Color::White {
                    "x runs left to right and y bottom to top inside each board; z picks the row of boards, w the column\n"
                } else {
                    "turned for Black: x runs right to left and y top to bottom inside each board; z picks the row of boards (1 at the top), w the column (5 on the left)\n"
                },
            );
        }
        out
    }

    /// Prints `text` and a line ending; a closed standard output ends the program (`out::fail`).
    fn say(&mut self, text: &str) {
        out::check(writeln!(self.out, "{text}").and_then(|()| self.out.flush()));
    }

    fn show(&mut self, marks: &Marks) {
        let picture = self.draw(marks);
        let pos = self.game.position();
        let turn = pos.turn();
        let who = match player_of(turn, &self.players) {
            Player::Human => "you".to_string(),
            Player::Engine(t) => format!("the {t} engine"),
        };
        let check = if pos.is_check() { ", in check" } else { "" };
        let text = format!("{picture}move {}, {turn} to move ({who}){check}", pos.fullmove_number());
        self.say(&text);
    }

    fn last_marks(&self) -> Marks {
        Marks { last: self.game.moves().last().copied(), ..Marks::default() }
    }

    /// Whether both sides are engines (the game plays itself).
    fn engines_only(&self) -> bool {
        self.players.iter().all(|p| matches!(p, Player::Engine(_)))
    }

    /// The engine plays the side to move. When both sides are engines, a `quit` or the end of input
    /// stops the search at once (the reading thread raises the stop flag), and no move is played:
    /// returns whether a move was played.
    fn engine_move(&mut self, tier: Tier) -> bool {
        let pos = self.game.position().clone();
        self.say(&format!("The {tier} engine is thinking..."));
        let started = std::time::Instant::now();
        let verbose = self.verbose;
        let watch = self.engines_only();
        let stop = self.searcher.stop_flag();
        self.input.watching.store(watch, Ordering::SeqCst);
        let input = &mut self.input;
        let on_iteration = |info: &Info<'_>| {
            // Also here: a `quit` read just before the search began, which lowered the flag.
            if watch && input.quit_pending() {
                stop.store(true, Ordering::Relaxed);
            }
            if !verbose {
                return;
            }
            // Each finished iteration, as it comes.
            outln!(
                "  depth {:>2}  score {:>8}  nodes {:>9}  {:>5} ms  pv {}",
                info.depth,
                score_text(info.score),
                info.nodes,
                info.elapsed.as_millis(),
                text_line_string(&pos, info.pv)
            );
        };
        let result = if self.guard {
            self.game.think(&mut self.searcher, tier, on_iteration)
        } else {
            self.game.think_unguarded(&mut self.searcher, tier, on_iteration)
        };
        self.input.watching.store(false, Ordering::SeqCst);
        if watch && self.input.quit_pending() {
            return false;
        }
        let Some(m) = result.best_move else { return false };
        if result.stop == StopReason::Time {
            self.say(&format!(
                "(The {tier} engine's wall-clock guard of {} s stopped this search before its node budget: this \
                 machine is busy. Replaying the saved game with `load FILE verify` may differ from this move.)",
                tier.settings().time_guard.as_secs_f32()
            ));
        }
        let seconds = started.elapsed().as_secs_f64();
        let written = san::to_san(&pos, m);
        self.game.play(m).expect("the engine plays legal moves");
        // One line a move: what was played, and the engine's judgement in words.
        let mover = pos.turn();
        let mut line = format!(
            "{} ({tier}) plays {written} — {}, {seconds:.1} s.",
            side_name(mover),
            tesseract::search::describe(result.score, result.depth, mover)
        );
        if self.verbose {
            line.push_str(&format!(
                " Depth {}, {} nodes, score {}.",
                result.depth,
                result.nodes,
                score_text(result.score)
            ));
        }
        self.say(&line);
        true
    }

    fn list_moves(&mut self, arg: Option<&str>) {
        let pos = self.game.position().clone();
        let moves = legal_moves(&pos);
        match arg {
            None => {
                let mut by_piece: Vec<(Cell, Vec<String>)> = Vec::new();
                let mut index: HashMap<Cell, usize> = HashMap::new();
                for &m in &moves {
                    let i = *index.entry(m.from).or_insert_with(|| {
                        by_piece.push((m.from, Vec::new()));
                        by_piece.len() - 1
                    });
                    by_piece[i].1.push(move_text(&pos, m));
                }
                let dims = pos.geometry().dims();
                let mut text = format!("{}:\n", plural(moves.len(), "legal move"));
                for (cell, list) in by_piece {
                    let p = pos.piece_at(cell).expect("a piece moves");
                    text.push_str(&format!(
                        "  {} {} on {}: {}\n",
                        p.char(dims),
                        p.role.name_in(dims),
                        cell_name(&pos, cell),
                        list.join(" ")
                    ));
                }
                self.say(text.trim_end());
            }
            Some(name) => {
                let Some(cell) = pos.geometry().parse_cell(name) else {
                    let example = match pos.geometry().dims() {
                        2 => "e2",
                        3 => "221 (x y z)",
                        _ => "2213 (x y z w)",
                    };
                    self.say(&format!("{name:?} is not a cell of this board: write it like {example}"));
                    return;
                };
                let dims = pos.geometry().dims();
                let Some(piece) = pos.piece_at(cell) else {
                    self.say(&format!("There is no piece on {}.", cell_name(&pos, cell)));
                    return;
                };
                let mine: Vec<Move> = moves.iter().copied().filter(|m| m.from == cell).collect();
                let what = format!("The {} {} on {}", piece.color, piece.role.name_in(dims), cell_name(&pos, cell));
                if piece.color != pos.turn() {
                    self.say(&format!("{what} belongs to the side not to move."));
                    return;
                }
                let marks = Marks { selected: Some(cell), targets: mine.iter().map(|m| m.to).collect(), last: None };
                self.show(&marks);
                let texts: Vec<String> = mine.iter().map(|&m| move_text(&pos, m)).collect();
                if texts.is_empty() {
                    self.say(&format!("{what} has no legal move."));
                } else {
                    self.say(&format!("{what} has {}: {}", plural(texts.len(), "legal move"), texts.join(" ")));
                }
            }
        }
    }

    fn write_svg(&mut self, path: &str) {
        let pos = self.game.position();
        let mut picture = Picture::of(pos);
        if let Some(&m) = self.game.moves().last() {
            picture = picture.last_move(m.from, m.to);
        }
        let name = files::output_name(Path::new(path));
        match files::write_output(Path::new(path), picture.to_svg().as_bytes()) {
            Ok(()) => self.say(&format!("Wrote the picture of the position to {name}.")),
            Err(e) => self.say(&format!("Could not write {name}: {e}")),
        }
    }

    fn save(&mut self, path: &str) {
        let record = self.game.record(self.players[0], self.players[1]);
        let text = if is_pgn(path) {
            self.game.to_pgn(self.players[0], self.players[1]).to_pgn().map_err(|e| e.to_string())
        } else {
            serde_json::to_string_pretty(&record).map(|json| json + "\n").map_err(|e| e.to_string())
        };
        let result = text.and_then(|t| files::write_output(Path::new(path), t.as_bytes()).map_err(|e| e.to_string()));
        let name = files::output_name(Path::new(path));
        match result {
            Ok(()) => self.say(&format!("Saved {} moves to {name}.", record.moves.len())),
            Err(e) => self.say(&format!("Could not save to {name}: {e}")),
        }
    }

    /// Loads a saved game (and says so), or returns why it could not, leaving the game as it was.
    fn load(&mut self, path: &str, verify: bool) -> Result<(), String> {
        let record: GameRecord = files::read_text(Path::new(path))
            .and_then(|s| {
                if is_pgn(path) {
                    let pgn: PgnGame = s.parse().map_err(|e: PgnError| e.to_string())?;
                    GameRecord::from_pgn(&pgn).map_err(|e| e.to_string())
                } else {
                    serde_json::from_str(&s).map_err(|e| e.to_string())
                }
            })
            .map_err(|e| format!("Could not load {path}: {e}"))?;
        let players = [record.white, record.black];
        let engine = (0..record.moves.len())
            .filter(|&i| matches!(player_of(mover_at(&record.start, i), &players), Player::Engine(_)))
            .count();
        let game = if verify {
            self.say(&format!("Replaying {path}, thinking again for each of its {engine} engine moves..."));
            record.verify(&mut self.searcher, |_, _| {})
        } else {
            Game::from_record(&record)
        };
        match game {
            Ok(game) => {
                self.game = game;
                self.players = [record.white, record.black];
                // A new game, drawn from its own person's side.
                self.side = side_of(&self.players);
                let mut text = format!(
                    "Loaded {path}: {} moves, {} vs {}, seed {}.",
                    record.moves.len(),
                    record.white,
                    record.black,
                    record.seed
                );
                if verify {
                    text.push_str(&format!(" All {engine} engine moves replayed identically."));
                }
                self.say(&text);
                Ok(())
            }
            Err(e) => Err(format!("Could not load {path}: {e}")),
        }
    }

    /// Takes back the last move; against the engine, back to before the last human move, so that it is a
    /// human's turn again (the engine's moves would only come back the same).
    fn undo(&mut self) {
        let against_engine = self.players.iter().any(|p| matches!(p, Player::Engine(_)));
        let keep = if against_engine {
            let start = self.game.start();
            (0..self.game.moves().len())
                .rev()
                .find(|&i| matches!(player_of(mover_at(start, i), &self.players), Player::Human))
        } else {
            self.game.moves().len().checked_sub(1)
        };
        let Some(keep) = keep else {
            self.say("Nothing to undo.");
            return;
        };
        while self.game.moves().len() > keep {
            self.game.undo();
        }
        self.say("Move taken back.");
        let marks = self.last_marks();
        self.show(&marks);
    }

    fn try_move(&mut self, text: &str) {
        if let Some(end) = self.game.status() {
            self.say(&format!("The game is over ({end}): undo, load, save or quit."));
            return;
        }
        let mover = self.game.position().turn();
        match self.game.play_text(text) {
            Ok(_) => self.say(&format!("{mover} plays {text}.")),
            Err(MoveError::Text { source, .. }) => {
                // Not the move text of RULES.md §4: perhaps the notation `history` writes (SAN in 2D, the
                // long form elsewhere).
                let pos = self.game.position().clone();
                let dims = pos.geometry().dims();
                match san::parse_move(&pos, text) {
                    Ok(m) => {
                        self.game.play(m).expect("a resolved move is legal");
                        self.say(&format!("{mover} plays {text}."));
                    }
                    Err(_) if matches!(source, TextMoveError::Cell { .. }) && dims != 2 => {
                        self.say(&format!(
                            "{text:?} names a cell, not a move: a move names its from cell and then its to cell, \
                             written as {}. Type `moves {text}` to list the moves of the piece on {text}.",
                            move_forms(dims)
                        ));
                    }
                    Err(SanError::Syntax(_)) => self.say(&format!(
                        "{text:?} is not a move or a command ({source}). Moves are written as {}; type help for \
                         the commands.",
                        move_forms(dims)
                    )),
                    Err(e) => self.say(&format!("Illegal move: {e}. Type `moves` to list the legal moves.")),
                }
            }
            Err(e) => self.say(&format!("Illegal move: {e}. Type `moves` to list the legal moves.")),
        }
    }

    /// Plays engine moves until a human is to move or the game ends, and draws the board. When both sides
    /// are engines, a `quit` or the end of input stops the game between moves.
    fn advance(&mut self) {
        loop {
            if self.engines_only() && self.input.quit_pending() {
                return;
            }
            if let Some(end) = self.game.status() {
                let marks = self.last_marks();
                self.show(&marks);
                self.say(&format!("Game over: {end}."));
                return;
            }
            match player_of(self.game.position().turn(), &self.players) {
                Player::Engine(tier) => {
                    if !self.engine_move(tier) {
                        return;
                    }
                }
                Player::Human => {
                    let marks = self.last_marks();
                    self.show(&marks);
                    return;
                }
            }
        }
    }
}

fn parse_args(args: &Args) -> Result<(Position, [Player; 2], u64), String> {
    let pos = start::by_name(&args.start).map_err(|e| format!("--start: {e}"))?;
    let tier: Tier = args.tier.parse().map_err(|e| format!("--tier: {e}"))?;
    let human: Color = args.color.parse().map_err(|e| format!("--color: {e}"))?;
    let mut players = if args.two_players {
        [Player::Human, Player::Human]
    } else if human == Color::White {
        [Player::Human, Player::Engine(tier)]
    } else {
        [Player::Engine(tier), Player::Human]
    };
    if let Some(w) = &args.white {
        players[0] = w.parse().map_err(|e| format!("--white: {e}"))?;
    }
    if let Some(b) = &args.black {
        players[1] = b.parse().map_err(|e| format!("--black: {e}"))?;
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() % 1_000_000)
    });
    Ok((pos, players, seed))
}

fn main() -> ExitCode {
    let args = Args::parse();
    let (pos, players, seed) = match parse_args(&args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let color = !args.no_color && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    if let Some(topic) = args.study.map(learn::Topic::Study).or(args.lesson.map(learn::Topic::Lesson)) {
        learn::run(topic, color);
        return ExitCode::SUCCESS;
    }
    let mut searcher = Searcher::new(1);
    if let Some(dir) = &args.tablebases {
        match Tablebases::load_dir(dir) {
            Ok(tables) if tables.is_empty() => {
                eprintln!("error: --tablebases: no table files (*.ttb) in {}", dir.display());
                return ExitCode::from(2);
            }
            Ok(tables) => {
                outln!("Endgame tables: {} loaded from {}.", tables.len(), dir.display());
                searcher.set_tablebases(Some(Arc::new(tables)));
            }
            Err(e) => {
                eprintln!("error: --tablebases: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let input = Input::stdin(searcher.stop_flag());
    // The board is drawn from the person's side: Black's when only Black is a person (`load` sets it again).
    let side = side_of(&players);
    let guard = !args.no_time_guard;
    let verbose = args.verbose;
    let out = std::io::stdout();
    let mut ui = Ui { game: Game::new(pos, seed), players, searcher, color, side, guard, verbose, out, input };
    if let Some(path) = &args.load {
        if let Err(e) = ui.load(path, false) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    let variant = match ui.game.start().geometry().dims() {
        2 => "chess",
        3 => "Raumschach-like chess on a 5x5x5 board",
        _ => "Tesseract, chess on a 5x5x5x5 board",
    };
    ui.say(&format!(
        "{variant}: white {} vs black {}, seed {}. Type help for the commands.",
        ui.players[0],
        ui.players[1],
        ui.game.seed()
    ));
    ui.advance();
    loop {
        let turn = ui.game.position().turn();
        let prompt = if ui.game.status().is_some() { "game over> ".to_string() } else { format!("{turn}> ") };
        out::check(write!(ui.out, "{prompt}").and_then(|()| ui.out.flush()));
        let line = match ui.input.next() {
            Some(Line::Text(line)) => line,
            Some(bad @ (Line::NotUtf8 | Line::TooLong(_))) => {
                ui.say(&bad.complaint(MAX_LINE).unwrap_or_default());
                continue;
            }
            None => {
                ui.say("");
                break;
            }
        };
        let line = line.trim();
        if !std::io::stdin().is_terminal() {
            // Echo scripted input, so that a transcript reads like a session.
            ui.say(line);
        }
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        let arg = words.next();
        match cmd {
            "help" | "?" => ui.say(HELP),
            word if is_quit(word) => break,
            "board" | "b" => {
                let marks = ui.last_marks();
                ui.show(&marks);
            }
            "moves" | "m" => ui.list_moves(arg),
            "undo" | "u" => ui.undo(),
            "fen" => {
                let fen = ui.game.position().fen();
                ui.say(&fen);
            }
            "history" => {
                // The readable list (SAN in 2D, the long form of RULES.md §4 elsewhere), then the texts to type.
                let texts: Vec<String> = ui.game.move_texts().iter().map(ToString::to_string).collect();
                if texts.is_empty() {
                    ui.say("No moves yet.");
                } else {
                    let list = san::numbered(ui.game.start(), ui.game.moves()).expect("the game's moves are legal");
                    ui.say(&list);
                    ui.say(&texts.join(" "));
                }
            }
            "flip" => {
                ui.side = ui.side.other();
                let marks = ui.last_marks();
                ui.show(&marks);
            }
            "save" => match arg {
                Some(path) => ui.save(path),
                None => ui.say("save needs a file name: save FILE"),
            },
            "svg" => match arg {
                Some(path) => ui.write_svg(path),
                None => ui.say("svg needs a file name: svg FILE"),
            },
            "load" => match arg {
                Some(path) => {
                    let verify = words.next() == Some("verify");
                    match ui.load(path, verify) {
                        Ok(()) => ui.advance(),
                        Err(e) => ui.say(&e),
                    }
                }
                None => ui.say("load needs a file name: load FILE"),
            },
            _ => {
                if arg.is_some() {
                    ui.say(&format!("Unknown command {cmd:?}; type help for the commands."));
                    continue;
                }
                let before = ui.game.moves().len();
                ui.try_move(cmd);
                if ui.game.moves().len() > before {
                    ui.advance();
                }
            }
        }
    }
    ExitCode::SUCCESS
}
