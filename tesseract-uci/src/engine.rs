//! The engine loop: the state between commands, the options, and the search on its own thread.
//!
//! The thread that reads input owns an [`Engine`] and hands it each line ([`Engine::handle`]). `go`
//! starts a search thread (the engine's [`Thinker`], the handle games use too, with the UCI output as its
//! [`Observer`]), which owns the [`Searcher`] until it has printed `bestmove`, and a watchdog
//! thread that raises the search's stop flag at the hard time limit; so `isready`, `stop` and `quit` are
//! answered at once while the engine thinks. `stop` waits for the search thread to print `bestmove`
//! (a few milliseconds: the search checks its stop flag every 1,024 nodes).

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tesseract_board::start::{self, Army};
use tesseract_board::{CastlingMode, Color, Move, Position, Shape, TextMove};
use tesseract_movegen::{Legal, text_line, text_line_string};
use tesseract_search::{
    Clock, Game, Info, Latency, Observer, Options, Score, SearchResult, Searcher, Stability, Thinker, Tier, TimeBudget,
};
use tesseract_tablebase::Tablebases;

use crate::command::{Command, Go, PositionCommand, Start};
use crate::lines::{Line, MAX_LINE};

/// The engine's name in `id name`.
pub const NAME: &str = concat!("Tesseract ", env!("CARGO_PKG_VERSION"));

/// The default transposition table size, in megabytes (the master tier's).
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest table, in megabytes: the workspace's one cap on table sizes,
/// [`tesseract_movegen::MAX_TABLE_MB`] (64 GiB), as for every front end. A table is filled (touched) when
/// made, so on Linux, which overcommits, a table larger than the memory available (but not than memory and
/// swap, which the allocator refuses: an `info string error` and the previous table kept) may get the
/// process killed rather than an allocation error: choose a `Hash` that fits the machine.
pub const MAX_HASH_MB: usize = tesseract_movegen::MAX_TABLE_MB;
/// The default move overhead, in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 100;
/// The largest move overhead, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;
/// The largest `Seed`.
pub const MAX_SEED: u64 = i32::MAX as u64;

/// Each tier's strength in classic chess on a 10+0.1 clock, in Elo on the scale of Stockfish 15.1's
/// `UCI_Elo` (with `UCI_LimitStrength`), rounded to 5: measured with the engine of commit 2fb64cb by 60
/// games a tier against Stockfish at three `UCI_Elo` levels (200 games at two levels for the master); the
/// README has the commands, the games and the intervals, about ±35 (the master) to ±90.
/// `UCI_Elo` picks the nearest; the spin's range is from the first to the last, and a value outside it is
/// clamped.
pub const TIER_ELO: [(Tier, u32); 4] =
    [(Tier::Beginner, 1605), (Tier::Club, 1825), (Tier::Expert, 1870), (Tier::Master, 2220)];

/// The tier whose measured Elo is nearest to `elo` (the weaker of two equally near).
///
/// ```
/// use tesseract_search::Tier;
/// use tesseract_uci::engine::tier_for_elo;
/// assert_eq!(tier_for_elo(1500), Tier::Beginner);
/// assert_eq!(tier_for_elo(1850), Tier::Expert);
/// assert_eq!(tier_for_elo(2000), Tier::Expert);
/// assert_eq!(tier_for_elo(2100), Tier::Master);
/// assert_eq!(tier_for_elo(3000), Tier::Master);
/// ```
pub fn tier_for_elo(elo: u32) -> Tier {
    let mut best = TIER_ELO[0];
    for entry in TIER_ELO {
        if entry.1.abs_diff(elo) < best.1.abs_diff(elo) {
            best = entry;
        }
    }
    best.0
}

/// What the reading loop does after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`: stop reading.
    Quit,
}

/// The game played through `UCI_Variant`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Classic chess, or Chess960 with `UCI_Chess960`.
    Chess,
    /// 4D Tesseract on the 5×5×5×5 board.
    Tesseract,
}

/// The options, as `setoption` left them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Config {
    hash_mb: usize,
    move_overhead: Duration,
    ponder: bool,
    chess960: bool,
    variant: Variant,
    army: Army,
    tier: Option<Tier>,
    limit_strength: bool,
    elo: u32,
    seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            hash_mb: DEFAULT_HASH_MB,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            ponder: false,
            chess960: false,
            variant: Variant::Chess,
            army: Army::Standard,
            tier: None,
            limit_strength: false,
            elo: TIER_ELO[0].1,
            seed: 0,
        }
    }
}

impl Config {
    /// The tier that plays: `UCI_LimitStrength` with `UCI_Elo` first, else `Tier` (`None`: full strength).
    fn playing_tier(&self) -> Option<Tier> {
        if self.limit_strength { Some(tier_for_elo(self.elo)) } else { self.tier }
    }

    fn castling_mode(&self) -> CastlingMode {
        if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard }
    }

    /// The start position of `position startpos`.
    fn start_position(&self) -> Position {
        match self.variant {
            Variant::Tesseract => start::tesseract(self.army),
            Variant::Chess if self.chess960 => Position::from_setup(start::chess().to_setup(), CastlingMode::Chess960)
                .expect("the chess start is a valid Chess960 position"),
            Variant::Chess => start::chess(),
        }
    }
}

/// The `uci` answer's option lines.
fn option_lines() -> Vec<String> {
    vec![
        format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
        format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ),
        "option name Ponder type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_Variant type combo default chess var chess var tesseract".to_string(),
        "option name Army type combo default standard var light var standard var dense".to_string(),
        "option name Tier type combo default full strength var beginner var club var expert var master var full strength"
            .to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {0} min {0} max {1}", TIER_ELO[0].1, TIER_ELO[3].1),
        format!("option name Seed type spin default 0 min 0 max {MAX_SEED}"),
        "option name TablebasePath type string default <empty>".to_string(),
    ]
}

/// Where the engine writes: one line at a time, flushed, from any thread.
#[derive(Clone)]
struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    /// Set when a write fails (the GUI has gone): searches then stop at once.
    broken: Arc<AtomicBool>,
}

impl Output {
    fn line(&self, text: &str) -> bool {
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        let ok = writeln!(sink, "{text}").and_then(|()| sink.flush()).is_ok();
        if !ok {
            self.broken.store(true, Ordering::Relaxed);
        }
        ok
    }

    fn error(&self, message: &str) {
        self.line(&format!("info string error {message}"));
    }
}

/// The state shared by the reading thread, the search thread and the watchdog.
struct Control {
    state: Mutex<State>,
    changed: Condvar,
    /// The searcher's stop flag.
    stop: Arc<AtomicBool>,
}

#[derive(Debug)]
struct State {
    /// `stop` or `quit` was received.
    stop_requested: bool,
    /// `go ponder` until `ponderhit`.
    pondering: bool,
    /// `go infinite`: `bestmove` waits for `stop`.
    infinite: bool,
    /// No depth, node or time limit (a plain `go`, `go mate N`, or a clock missing for the side to move):
    /// stopped at the end of the input like an infinite search.
    open_ended: bool,
    /// The time limits of the move, started at `go` or at `ponderhit`.
    budget: Option<TimeBudget>,
    /// When the budget's clock started (`go`, or `ponderhit`).
    started: Option<Instant>,
    hard: Option<Instant>,
    /// How settled the search is, iteration by iteration: it stretches or shrinks the soft limit of a
    /// clock's budget (`paced`); a `go movetime` budget is not paced.
    stability: Stability,
    paced: bool,
    /// `bestmove` is printed or about to be: the search thread is ending.
    finished: bool,
    /// `bestmove` has been printed (or is about to be) for this search: never a second one.
    bestmove_sent: bool,
    /// When `bestmove` was written, and its move: what the clock of the next move is compared with.
    answered: Option<(Instant, Option<Move>)>,
}

impl Control {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl State {
    /// Starts the clock of the move's budget.
    fn start_clock(&mut self, now: Instant) {
        if let Some(b) = self.budget {
            self.started = Some(now);
            self.hard = now.checked_add(b.hard);
        }
    }

    /// Records an iteration that has reached `score` with `best` first on its line, and says whether the
    /// search should stop: a stop was asked, `go mate` found its mate, or the budget's soft limit
    /// (stretched or shrunk by the search's [`Stability`]) or hard limit has passed.
    fn stop_after_iteration(&mut self, now: Instant, best: Option<Move>, score: Score, mate: Option<u32>) -> bool {
        self.stability.update(best, score);
        if self.stop_requested {
            return true;
        }
        if self.pondering || self.infinite {
            return false;
        }
        let found_mate = matches!((score, mate), (Score::Mate(m), Some(n)) if m > 0 && m.unsigned_abs() <= n);
        let soft = match (self.budget, self.started) {
            (Some(b), Some(t)) if self.paced => {
                b.stop_after_iteration_with(now.saturating_duration_since(t), &self.stability)
            }
            (Some(b), Some(t)) => b.stop_after_iteration(now.saturating_duration_since(t)),
            _ => false,
        };
        found_mate || soft || self.hard.is_some_and(|h| now >= h)
    }
}

/// Marks the search finished when the search thread ends, however it ends, so that the watchdog ends too;
/// a search thread that panics answers `bestmove 0000` at once, so that a GUI waiting on a clock is not
/// left without a move.
struct FinishGuard(Arc<Control>, Output);

impl Drop for FinishGuard {
    fn drop(&mut self) {
        let mut st = self.0.lock();
        st.finished = true;
        let answer = std::thread::panicking() && !std::mem::replace(&mut st.bestmove_sent, true);
        self.0.changed.notify_all();
        drop(st);
        if answer {
            self.1.error("the search failed");
            self.1.line("bestmove 0000");
        }
    }
}

/// A move searched on a clock, kept until the next `go` of the same game measures what the move cost on
/// the clock beyond the search ([`Latency`]).
struct ClockedMove {
    /// The hashes of the game's positions up to the one searched (the last).
    positions: Vec<u64>,
    /// The side's clock in that `go`.
    clock: Clock,
    /// When the move's clock started: that `go` was read, or, after a `go ponder`, the `ponderhit`.
    received: Instant,
    /// A `go ponder` that no `ponderhit` has turned into the move yet (a ponder stopped is never measured).
    pondering: bool,
    /// When `bestmove` was written, and its move (filled in when the search is joined).
    answered: Option<(Instant, Option<Move>)>,
}

/// A search in progress.
struct Running {
    control: Arc<Control>,
    thinker: Thinker,
    watchdog: Option<JoinHandle<()>>,
}

/// The UCI engine: options, the current game and the searcher (see the [module docs](self)).
pub struct Engine {
    out: Output,
    config: Config,
    game: Game,
    /// The searcher while no search runs (`None` during a search, or when none could be allocated).
    searcher: Option<Searcher>,
    running: Option<Running>,
    /// `ucinewgame` came: clear the table before the next search.
    clear_pending: bool,
    debug: bool,
    /// The endgame tables `TablebasePath` loaded, given to the searcher at each `go`.
    tablebases: Option<Arc<Tablebases>>,
    /// What moves cost on the clock beyond the search, measured over the last moves played on a clock.
    latency: Latency,
    /// The last move searched on a clock, until the next `go`.
    clocked: Option<ClockedMove>,
}

impl Engine {
    /// An engine writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> Engine {
        let config = Config::default();
        let game = Game::new(config.start_position(), config.seed);
        Engine {
            out: Output { sink: Arc::new(Mutex::new(out)), broken: Arc::new(AtomicBool::new(false)) },
            config,
            game,
            searcher: None,
            running: None,
            clear_pending: false,
            debug: false,
            tablebases: None,
            latency: Latency::default(),
            clocked: None,
        }
    }

    /// Handles one line of input.
    pub fn handle(&mut self, line: &Line) -> Flow {
        match line {
            Line::Text(text) => self.handle_text(text),
            Line::TooLong(n) => {
                self.out.error(&format!("a line of {n} bytes is longer than the {MAX_LINE} allowed: ignored"));
                Flow::Continue
            }
            Line::NotUtf8 => {
                self.out.error("a line that is not UTF-8 text: ignored");
                Flow::Continue
            }
        }
    }

    /// Handles one line of text.
    pub fn handle_text(&mut self, line: &str) -> Flow {
        let command = match Command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.out.error(&e.to_string());
                return Flow::Continue;
            }
        };
        match command {
            Command::Uci => {
                self.out.line(&format!("id name {NAME}"));
                self.out.line("id author The Tesseract developers");
                for l in option_lines() {
                    self.out.line(&l);
                }
                self.out.line("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                // Allocate a table that `setoption name Hash` asked for before saying ready.
                if self.running.is_none() {
                    self.prepare_searcher();
                }
                self.out.line("readyok");
            }
            Command::SetOption { name, value, column } => match self.set_option(&name, value.as_deref()) {
                Ok(Some(note)) => {
                    self.out.line(&format!("info string {note}"));
                }
                Ok(None) => {}
                Err(e) => self.out.error(&format!("column {column}: setoption {name}: {e}")),
            },
            Command::Register => {}
            Command::UciNewGame => {
                self.clear_pending = true;
                self.clocked = None;
                self.game = Game::new(self.config.start_position(), self.config.seed);
            }
            Command::Position(p) => {
                if let Err(e) = self.set_position(&p) {
                    self.out.error(&format!("position: {e}; the position is unchanged"));
                }
            }
            Command::Go(go) => self.go(&go),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => {
                self.stop();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// At the end of the input: lets a search with limits finish (an infinite or pondering one is
    /// stopped), and waits for its `bestmove`.
    pub fn finish(&mut self) {
        if let Some(r) = &self.running {
            let mut st = r.control.lock();
            if st.infinite || st.pondering || st.open_ended {
                st.stop_requested = true;
                r.control.stop.store(true, Ordering::Relaxed);
                r.control.changed.notify_all();
            }
        }
        self.join();
    }

    /// Sets an option; `Ok(Some(note))` when the value was taken with a change the GUI should hear of (an
    /// `UCI_Elo` out of range, clamped).
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, String> {
        let value = value.ok_or("needs a value (setoption name NAME value VALUE)")?;
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        if is("TablebasePath") {
            return self.set_tablebase_path(value);
        }
        let mut c = self.config.clone();
        let mut note = None;
        if is("Hash") {
            c.hash_mb = spin(value, 1, MAX_HASH_MB as u64)? as usize;
        } else if is("Move Overhead") {
            c.move_overhead = Duration::from_millis(spin(value, 0, MAX_MOVE_OVERHEAD_MS)?);
        } else if is("Ponder") {
            c.ponder = check(value)?;
        } else if is("UCI_Chess960") {
            c.chess960 = check(value)?;
        } else if is("UCI_Variant") {
            c.variant = combo(value, &[("chess", Variant::Chess), ("tesseract", Variant::Tesseract)])?;
        } else if is("Army") {
            c.army = combo(value, &Army::ALL.map(|a| (a.name(), a)))?;
        } else if is("Tier") {
            let tiers = Tier::ALL.map(|t| (t.name(), Some(t)));
            c.tier = combo(value, &[tiers[0], tiers[1], tiers[2], tiers[3], ("full strength", None)])?;
        } else if is("UCI_LimitStrength") {
            c.limit_strength = check(value)?;
        } else if is("UCI_Elo") {
            let (elo, clamped) = clamp_elo(value)?;
            c.elo = elo;
            if clamped {
                let (min, max) = (TIER_ELO[0].1, TIER_ELO[3].1);
                let tier = tier_for_elo(elo);
                note = Some(format!(
                    "UCI_Elo {} is out of range {min}..{max}: using {elo}, the {tier} tier",
                    value.trim()
                ));
            }
        } else if is("Seed") {
            c.seed = spin(value, 0, MAX_SEED)?;
        } else {
            return Err("unknown option (the `uci` command lists them)".to_string());
        }
        let restart = c.variant != self.config.variant
            || c.chess960 != self.config.chess960
            || (c.army != self.config.army && c.variant == Variant::Tesseract);
        self.config = c;
        if restart {
            self.game = Game::new(self.config.start_position(), self.config.seed);
        }
        Ok(note)
    }

    /// `TablebasePath`: loads every table file (`*.ttb`) of the folder, or no tables for an empty value
    /// or `<empty>`. A folder that cannot be loaded is an error, and leaves no tables.
    fn set_tablebase_path(&mut self, value: &str) -> Result<Option<String>, String> {
        let path = value.trim();
        self.tablebases = None;
        if path.is_empty() || path == "<empty>" {
            return Ok(None);
        }
        let tables = Tablebases::load_dir(PathBuf::from(path))
            .map_err(|e| format!("{e}; no tables are loaded (the value is a folder of .ttb files)"))?;
        let count = tables.len();
        let note = match count {
            0 => format!("TablebasePath {path}: no table files (*.ttb) in the folder"),
            1 => format!("TablebasePath {path}: 1 table loaded"),
            n => format!("TablebasePath {path}: {n} tables loaded"),
        };
        if count > 0 {
            self.tablebases = Some(Arc::new(tables));
        }
        Ok(Some(note))
    }

    fn set_position(&mut self, p: &PositionCommand) -> Result<(), String> {
        let start = match &p.start {
            Start::StartPos => self.config.start_position(),
            Start::Fen { text, column } => {
                let pos = Position::from_fen_with_mode(text, self.config.castling_mode())
                    .map_err(|e| format!("column {column}: fen: {e}"))?;
                let wanted = match self.config.variant {
                    Variant::Chess => Shape::CHESS,
                    Variant::Tesseract => Shape::TESSERACT,
                };
                if pos.shape() != wanted {
                    return Err(format!(
                        "column {column}: fen: a board of {} axes of {} cells, but UCI_Variant {} plays on {} axes of \
                         {}",
                        pos.shape().dims(),
                        pos.shape().side(),
                        match self.config.variant {
                            Variant::Chess => "chess",
                            Variant::Tesseract => "tesseract",
                        },
                        wanted.dims(),
                        wanted.side()
                    ));
                }
                pos
            }
        };
        let mut game = Game::new(start, self.config.seed);
        for (i, m) in p.moves.iter().enumerate() {
            let illegal =
                |e: tesseract_movegen::MoveError| format!("column {}: move {} ({}): {e}", m.column, i + 1, m.text);
            let mv = game.position().resolve(&m.text).map_err(illegal)?;
            game.play(mv).map_err(illegal)?;
        }
        self.game = game;
        Ok(())
    }

    /// Makes sure a searcher of the wanted table size exists (when no search runs).
    fn prepare_searcher(&mut self) -> bool {
        let wanted = match self.config.playing_tier() {
            Some(t) => t.settings_on(self.game.position().shape()).hash_mb,
            None => self.config.hash_mb,
        };
        if self.searcher.as_ref().is_some_and(|s| s.hash_mb() == wanted) {
            return true;
        }
        // Free the old table first: two large tables may not fit.
        let old = self.searcher.take().map(|s| s.hash_mb());
        match Searcher::try_new(wanted) {
            Ok(s) => {
                self.searcher = Some(s);
                true
            }
            Err(e) => {
                self.out.error(&format!("Hash {wanted}: {e}"));
                self.searcher = old.or(Some(1)).and_then(|mb| Searcher::try_new(mb).ok());
                if self.searcher.is_none() {
                    self.out.error("no transposition table could be allocated");
                }
                self.searcher.is_some()
            }
        }
    }

    /// Joins a search that has ended or is ending (after `stop`, or at the end of input).
    fn join(&mut self) {
        let Some(mut r) = self.running.take() else { return };
        r.thinker.wait();
        if let Some(c) = &mut self.clocked {
            c.answered = r.control.lock().answered;
        }
        if let Some(w) = r.watchdog {
            let _ = w.join();
        }
        match r.thinker.into_searcher() {
            Some(s) => self.searcher = Some(s),
            None => {
                // The search thread failed; its guard has ended the watchdog and answered (a thread that
                // could not even start its job has not). A new searcher next time.
                if !std::mem::replace(&mut r.control.lock().bestmove_sent, true) {
                    self.out.error("the search failed");
                    self.out.line("bestmove 0000");
                }
            }
        }
    }

    /// Joins a finished search; whether no search is running now.
    fn reap(&mut self) -> bool {
        if let Some(r) = &self.running {
            if !r.control.lock().finished {
                return false;
            }
            self.join();
        }
        true
    }

    fn stop(&mut self) {
        if let Some(r) = &mut self.running {
            {
                let mut st = r.control.lock();
                st.stop_requested = true;
                r.control.stop.store(true, Ordering::Relaxed);
                r.control.changed.notify_all();
            }
            // Raises the stop flag until the thread ends (a search that had not begun yet lowers it).
            r.thinker.stop();
        }
        self.join();
    }

    fn ponderhit(&mut self) {
        let Some(r) = &self.running else { return };
        let mut st = r.control.lock();
        if st.pondering {
            let now = Instant::now();
            st.pondering = false;
            st.start_clock(now);
            r.control.changed.notify_all();
            // The move's clock starts now: measured from here, as a `go` would be.
            if let Some(c) = self.clocked.as_mut().filter(|c| c.pondering) {
                c.received = now;
                c.pondering = false;
            }
        }
    }

    /// The time budget of a `go`, for the side to move.
    fn budget(&self, go: &Go) -> Option<TimeBudget> {
        if go.infinite {
            return None;
        }
        let overhead = self.config.move_overhead;
        if let Some(t) = go.movetime {
            return Some(TimeBudget::fixed(t, overhead));
        }
        Some(self.clock(go)?.budget_measured(overhead, self.latency.estimate()))
    }

    /// The clock of a `go`, for the side to move (`None` when it gives none).
    fn clock(&self, go: &Go) -> Option<Clock> {
        let (time, inc) = match self.game.position().turn() {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        Some(Clock { remaining: time?, increment: inc.unwrap_or_default(), moves_to_go: go.movestogo })
    }

    /// Measures the last move searched on a clock against the clock of this `go`, when this is the same
    /// game two plies on (the engine's move and the reply), and remembers this move for the next. A `go
    /// ponder` measures the move before it likewise (its clock is the one the engine has after that move)
    /// and is remembered as a move once `ponderhit` comes, its clock counted from there.
    fn measure_latency(&mut self, go: &Go, received: Instant) {
        let last = self.clocked.take();
        let clocked = !go.infinite && go.movetime.is_none();
        let Some(clock) = self.clock(go).filter(|_| clocked) else { return };
        let history = self.game.history();
        if let Some(ClockedMove {
            positions: before,
            clock: was,
            received: asked,
            pondering: false,
            answered: Some((at, best)),
        }) = last
        {
            // The positions before this one are those up to the one searched, and the one after the move.
            let played = self.game.moves();
            let continues = history.len() == before.len() + 1
                && history.starts_with(&before)
                && best.is_some()
                && played.len() >= 2
                && played.get(played.len() - 2).copied() == best;
            if continues {
                self.latency.record(&was, at.saturating_duration_since(asked), clock.remaining);
            }
        }
        if self.debug {
            if let Some(l) = self.latency.estimate() {
                let n = self.latency.len();
                let moves = if n == 1 { "move" } else { "moves" };
                self.out.line(&format!(
                    "info string latency {} ms (the largest of {n} {moves}, with the margin)",
                    l.as_millis()
                ));
            }
        }
        let mut positions = self.game.history().to_vec();
        positions.push(self.game.position().hash());
        self.clocked = Some(ClockedMove { positions, clock, received, pondering: go.ponder, answered: None });
    }

    fn go(&mut self, go: &Go) {
        // The move's clock runs from the command, so that a table allocated or cleared first counts.
        let received = Instant::now();
        if !self.reap() {
            self.out.error("go: a search is running (send stop first); ignored");
            return;
        }
        if !self.prepare_searcher() {
            self.out.line("bestmove 0000");
            return;
        }
        let Some(mut searcher) = self.searcher.take() else { return };
        searcher.set_tablebases(self.tablebases.clone());
        self.measure_latency(go, received);
        let tier = self.config.playing_tier();
        if self.debug {
            let strength = match tier {
                Some(t) => {
                    let elo = TIER_ELO.iter().find(|e| e.0 == t).map_or(0, |e| e.1);
                    format!("the {t} tier (about {elo} Elo in chess)")
                }
                None => "full strength".to_string(),
            };
            self.out.line(&format!("info string playing at {strength}"));
        }
        // A tier clears its table before each move, as in the project's games: its moves then depend only
        // on the game. The master on a clock (or `movetime`) is the exception: there its moves may depend on
        // the timing anyway (the clock usually binds before its node budget), so it keeps its table and history between
        // moves, as full strength does.
        let keeps_table = tier == Some(Tier::Master) && self.budget(go).is_some();
        if self.clear_pending || (tier.is_some() && !keeps_table) {
            searcher.clear();
            self.clear_pending = false;
        }
        // The tier's budgets on this board (chess and 4D have their own), without the wall-clock guard: the
        // clock below is the guard.
        let settings = tier.map(|t| t.settings_on(self.game.position().shape()));
        let mut limits = settings.map(|s| s.budget()).unwrap_or_default();
        if let Some(d) = go.depth {
            limits.depth = Some(limits.depth.map_or(d, |t| t.min(d)));
        }
        if let Some(n) = go.nodes {
            limits.nodes = Some(limits.nodes.map_or(n, |t| t.min(n)));
        }
        if !go.searchmoves.is_empty() {
            // The moves are read in the position searched; one that is not legal there is reported and
            // left out, and a list with none legal searches every move.
            let pos = self.game.position();
            let mut moves = Vec::new();
            for token in &go.searchmoves {
                match pos.resolve(&token.text) {
                    Ok(m) => moves.push(m),
                    Err(e) => self.out.error(&format!("go searchmoves: column {}: {e}; left out", token.column)),
                }
            }
            if moves.is_empty() {
                self.out.error("go searchmoves: no legal move named; searching every move");
            } else {
                limits.root_moves = Some(moves);
            }
        }
        let budget = self.budget(go);
        let pondering = go.ponder;
        if !pondering {
            limits.time = budget.map(|b| b.hard);
        }
        let options =
            settings.map_or(Options { seed: self.config.seed, ..Options::default() }, |s| s.options(self.config.seed));
        let control = Arc::new(Control {
            state: Mutex::new(State {
                stop_requested: false,
                pondering,
                infinite: go.infinite,
                open_ended: limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none(),
                budget,
                started: None,
                hard: None,
                stability: Stability::default(),
                paced: go.movetime.is_none(),
                finished: false,
                bestmove_sent: false,
                answered: None,
            }),
            changed: Condvar::new(),
            stop: searcher.stop_flag(),
        });
        if !pondering {
            control.lock().start_clock(received);
        }
        let job = SearchJob {
            pos: self.game.position().clone(),
            mate: go.mate,
            out: self.out.clone(),
            guard: FinishGuard(Arc::clone(&control), self.out.clone()),
        };
        let mut thinker = Thinker::with_searcher(searcher);
        if let Err(e) = thinker.start_observed(self.game.position(), self.game.history(), limits, options, job) {
            self.out.error(&format!("go: cannot start the search thread: {e}"));
            self.out.line("bestmove 0000");
            self.searcher = thinker.into_searcher();
            return;
        }
        let wd_control = Arc::clone(&control);
        let watchdog = std::thread::Builder::new().name("watchdog".into()).spawn(move || watchdog(&wd_control));
        let watchdog = match watchdog {
            Ok(w) => Some(w),
            Err(e) => {
                // Without a watchdog the search's own time limit still holds, except after a ponderhit:
                // stop the search rather than risk the clock.
                self.out.error(&format!("go: cannot start the watchdog thread: {e}"));
                control.lock().stop_requested = true;
                control.stop.store(true, Ordering::Relaxed);
                control.changed.notify_all();
                None
            }
        };
        self.running = Some(Running { control, thinker, watchdog });
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Raises the stop flag at the hard limit (counted from `go`, or from `ponderhit`).
fn watchdog(control: &Control) {
    let mut st = control.lock();
    loop {
        if st.finished {
            return;
        }
        let now = Instant::now();
        match (st.pondering, st.hard) {
            (false, Some(h)) if now >= h => {
                control.stop.store(true, Ordering::Relaxed);
                // Raised again on each wake, in case the search had not started when it was first raised.
                st = control
                    .changed
                    .wait_timeout(st, Duration::from_millis(5))
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
            (false, Some(h)) => {
                st = control.changed.wait_timeout(st, h - now).unwrap_or_else(PoisonError::into_inner).0;
            }
            _ => st = control.changed.wait(st).unwrap_or_else(PoisonError::into_inner),
        }
    }
}

/// The UCI side of a search, run on the search thread as the [`Thinker`]'s observer: `info` lines after
/// each iteration, the stop rules of the move's limits, and `bestmove` (after `stop` in `go infinite` and
/// while pondering).
struct SearchJob {
    pos: Position,
    mate: Option<u32>,
    out: Output,
    /// The state shared with the reading thread and the watchdog; marks the search finished when the job
    /// is dropped, even by a panic on the search thread.
    guard: FinishGuard,
}

impl Observer for SearchJob {
    fn iteration(&mut self, info: &Info<'_>) -> ControlFlow<()> {
        let ok = self.out.line(&info_line(&self.pos, info));
        let mut st = self.guard.0.lock();
        if !ok || st.stop_after_iteration(Instant::now(), info.pv.first().copied(), info.score, self.mate) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    fn finished(&mut self, result: &SearchResult) {
        if result.best_move.is_none() {
            self.out.line(&format!("info depth 0 score {}", result.score));
        }
        // In `go infinite` and while pondering, `bestmove` waits for `stop` (or `ponderhit`).
        let control = &self.guard.0;
        let mut st = control.lock();
        while !st.stop_requested && (st.infinite || st.pondering) && !self.out.broken.load(Ordering::Relaxed) {
            st = control.changed.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
        st.finished = true;
        st.bestmove_sent = true;
        control.changed.notify_all();
        drop(st);
        // Stamped before the line goes out: the GUI's clock stops only when it has read it.
        let at = Instant::now();
        self.out.line(&bestmove_line(&self.pos, result));
        control.lock().answered = Some((at, result.best_move));
    }
}

fn info_line(pos: &Position, info: &Info<'_>) -> String {
    let mut s = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.score,
        info.nodes,
        info.nps,
        info.elapsed.as_millis(),
        info.hashfull
    );
    let pv = text_line_string(pos, info.pv);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv);
    }
    s
}

fn bestmove_line(pos: &Position, result: &SearchResult) -> String {
    let Some(best) = result.best_move else { return "bestmove 0000".to_string() };
    let mut s = format!("bestmove {}", TextMove::from_move(best, pos));
    if result.pv.first() == Some(&best) && result.pv.len() >= 2 {
        if let [_, ponder] = &text_line(pos, &result.pv[..2])[..] {
            s.push_str(" ponder ");
            s.push_str(&ponder.to_string());
        }
    }
    s
}

fn spin(value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("value {:?}: expected a whole number from {min} to {max}", Shown(value))),
    }
}

/// An `UCI_Elo` value, clamped to the tiers' range: the Elo and whether it was out of range. Any whole
/// number is taken (a GUI offers its own range); anything else is an error.
fn clamp_elo(value: &str) -> Result<(u32, bool), String> {
    let (min, max) = (TIER_ELO[0].1, TIER_ELO[3].1);
    let wanted =
        value.trim().parse::<i64>().map_err(|_| format!("value {:?}: expected a whole number", Shown(value)))?;
    let elo = wanted.clamp(i64::from(min), i64::from(max)) as u32;
    Ok((elo, i64::from(elo) != wanted))
}

fn check(value: &str) -> Result<bool, String> {
    if value.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if value.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(format!("value {:?}: expected true or false", Shown(value)))
    }
}

fn combo<T: Copy>(value: &str, choices: &[(&str, T)]) -> Result<T, String> {
    choices.iter().find(|(name, _)| name.eq_ignore_ascii_case(value)).map(|&(_, v)| v).ok_or_else(|| {
        let names: Vec<&str> = choices.iter().map(|&(n, _)| n).collect();
        format!("value {:?}: expected one of {}", Shown(value), names.join(", "))
    })
}

/// A value in an error message, cut after 40 characters.
struct Shown<'a>(&'a str);

impl std::fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cut: String = self.0.chars().take(40).collect();
        if cut.len() < self.0.len() { write!(f, "{:?}…", cut) } else { write!(f, "{cut:?}") }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn lines(&self) -> Vec<String> {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap().lines().map(str::to_string).collect()
        }

        /// Waits up to `secs` for a line starting with `prefix`.
        fn wait_for(&self, prefix: &str, secs: u64) -> String {
            let end = Instant::now() + Duration::from_secs(secs);
            loop {
                if let Some(l) = self.lines().into_iter().find(|l| l.starts_with(prefix)) {
                    return l;
                }
                assert!(Instant::now() < end, "no {prefix:?} within {secs} s: {:#?}", self.lines());
                std::thread::sleep(Duration::from_millis(2));
            }
        }

        fn count(&self, prefix: &str) -> usize {
            self.lines().iter().filter(|l| l.starts_with(prefix)).count()
        }

        fn clear(&self) {
            self.0.lock().unwrap().clear();
        }
    }

    fn engine() -> (Engine, Shared) {
        let out = Shared::default();
        (Engine::new(Box::new(out.clone())), out)
    }

    fn send(e: &mut Engine, lines: &[&str]) {
        for l in lines {
            assert_eq!(e.handle_text(l), Flow::Continue, "{l}");
        }
    }

    /// The move of a `bestmove` line.
    fn best(line: &str) -> &str {
        line.split_whitespace().nth(1).unwrap()
    }

    #[test]
    fn handshake_lists_the_options() {
        let (mut e, out) = engine();
        send(&mut e, &["uci", "isready"]);
        let lines = out.lines();
        assert_eq!(lines[0], "id name Tesseract 0.1.0");
        assert!(lines.contains(&"option name UCI_Variant type combo default chess var chess var tesseract".into()));
        assert!(lines.contains(&"option name UCI_Elo type spin default 1605 min 1605 max 2220".into()));
        assert!(lines.contains(&"option name Move Overhead type spin default 100 min 0 max 5000".into()));
        assert!(!lines.iter().any(|l| l.contains("Threads")), "single-threaded search: no Threads option");
        assert_eq!(&lines[lines.len() - 2..], ["uciok", "readyok"]);
    }

    #[test]
    fn elo_maps_to_the_nearest_measured_tier() {
        // Labels 1605, 1825, 1870, 2220; midpoints 1715 (beginner/club: a tie, the weaker), 1847.5
        // (club/expert), 2045 (expert/master: a tie, the weaker).
        for (elo, tier) in [
            (0, Tier::Beginner),
            (1605, Tier::Beginner),
            (1715, Tier::Beginner),
            (1716, Tier::Club),
            (1847, Tier::Club),
            (1848, Tier::Expert),
            (2045, Tier::Expert),
            (2046, Tier::Master),
            (2220, Tier::Master),
            (u32::MAX, Tier::Master),
        ] {
            assert_eq!(tier_for_elo(elo), tier, "{elo}");
        }
        let (mut e, _) = engine();
        send(&mut e, &["setoption name Tier value club"]);
        assert_eq!(e.config.playing_tier(), Some(Tier::Club));
        send(&mut e, &["setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 2100"]);
        assert_eq!(e.config.playing_tier(), Some(Tier::Master));
        send(&mut e, &["setoption name UCI_LimitStrength value false", "setoption name tier value Full Strength"]);
        assert_eq!(e.config.playing_tier(), None);
    }

    #[test]
    fn the_hash_option_takes_the_workspaces_table_cap() {
        let (mut e, out) = engine();
        send(&mut e, &["uci"]);
        let line = format!("option name Hash type spin default 16 min 1 max {}", tesseract_movegen::MAX_TABLE_MB);
        assert!(out.lines().contains(&line), "{:?}", out.lines());
        // The largest size is taken (its table is made at `isready` or `go`, not here).
        out.clear();
        send(&mut e, &["setoption name Hash value 65536"]);
        assert!(out.lines().is_empty(), "{:?}", out.lines());
        assert_eq!(e.config.hash_mb, 65_536);
    }

    #[test]
    fn an_elo_out_of_range_is_clamped_to_the_nearest_tier() {
        let (min, max) = (TIER_ELO[0].1, TIER_ELO[3].1);
        let (mut e, out) = engine();
        send(&mut e, &["setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 2400"]);
        assert_eq!(
            out.lines(),
            [format!("info string UCI_Elo 2400 is out of range {min}..{max}: using {max}, the master tier")]
        );
        assert_eq!((e.config.elo, e.config.playing_tier()), (max, Some(Tier::Master)));
        for (value, tier) in [("0", Tier::Beginner), ("-40", Tier::Beginner), ("99999999999", Tier::Master)] {
            out.clear();
            send(&mut e, &[&format!("setoption name UCI_Elo value {value}")]);
            let elo = if tier == Tier::Master { max } else { min };
            let note =
                format!("info string UCI_Elo {value} is out of range {min}..{max}: using {elo}, the {tier} tier");
            assert_eq!(out.lines(), [note], "{value}");
            assert_eq!(e.config.playing_tier(), Some(tier), "{value}");
        }
        // In range: taken as it is, and nothing said.
        out.clear();
        for elo in [min, max] {
            send(&mut e, &[&format!("setoption name UCI_Elo value {elo}")]);
            assert_eq!(e.config.elo, elo);
        }
        assert_eq!(out.lines(), Vec::<String>::new());
    }

    #[test]
    fn a_tier_plays_by_the_budgets_of_its_board() {
        // In chess the expert stops at 20,000 nodes (in 4D at 150,000), also on a clock that would allow
        // far more.
        let chess = Tier::Expert.settings_on(tesseract_board::Shape::CHESS);
        assert_eq!(chess.nodes, 20_000);
        let position = "position startpos moves e2e4 e7e5 g1f3";
        let (mut e, out) = engine();
        send(&mut e, &["setoption name Tier value expert"]);
        let clocked = search(&mut e, &out, &[position, "go wtime 600000 btime 600000 winc 5000 binc 5000"]);
        let got = infos(&clocked);
        assert!(got.iter().all(|i| i.nodes <= chess.nodes), "{clocked:#?}");
        // The same tier with no clock prints the same search (a tier's move depends on the game alone).
        let unclocked = search(&mut e, &out, &[position, "go depth 40"]);
        assert_eq!(deterministic(&unclocked), deterministic(&clocked));
    }

    #[test]
    fn the_master_keeps_its_table_on_a_clock_and_clears_it_by_nodes() {
        // The first iteration's `hashfull` shows what the search before left in the table.
        let position = "position startpos moves e2e4 e7e5";
        let clock = "go wtime 600000 btime 600000 nodes 15000";
        let (mut e, out) = engine();
        for (tier, go, kept) in [("master", "go nodes 15000", false), ("master", clock, true), ("expert", clock, false)]
        {
            // Each pair from a cleared table.
            send(&mut e, &[&format!("setoption name Tier value {tier}"), "ucinewgame"]);
            let first = search(&mut e, &out, &[position, go]);
            assert_eq!(infos(&first)[0].hashfull, 0, "{tier}, {go}: {first:#?}");
            let again = search(&mut e, &out, &[position, go]);
            if kept {
                assert!(infos(&again)[0].hashfull > 0, "{tier}, {go}: the table is kept: {again:#?}");
            } else {
                assert_eq!(infos(&again)[0].hashfull, 0, "{tier}, {go}: the table is cleared: {again:#?}");
                assert_eq!(deterministic(&again), deterministic(&first), "{tier}, {go}");
            }
        }
    }

    #[test]
    fn bad_options_are_errors_and_change_nothing() {
        let (mut e, out) = engine();
        let before = e.config.clone();
        for (line, message) in [
            ("setoption name Threads value 2", "column 30: setoption Threads: unknown option"),
            ("setoption name Hash value 0", "column 27: setoption Hash: value \"0\": expected a whole number from 1"),
            ("setoption name Hash value 65537", "value \"65537\": expected a whole number from 1 to 65536"),
            ("setoption name Hash value lots", "setoption Hash: value \"lots\""),
            ("setoption name Hash", "column 16: setoption Hash: needs a value"),
            ("setoption name UCI_Elo value strong", "setoption UCI_Elo: value \"strong\": expected a whole number"),
            ("setoption name UCI_Elo value 1e3", "expected a whole number"),
            ("setoption name UCI_Chess960 value yes", "expected true or false"),
            ("setoption name UCI_Variant value shogi", "expected one of chess, tesseract"),
            ("setoption name Tier value grandmaster", "expected one of beginner, club, expert, master, full strength"),
        ] {
            out.clear();
            send(&mut e, &[line]);
            let lines = out.lines();
            assert_eq!(lines.len(), 1, "{line}: {lines:?}");
            assert!(lines[0].starts_with("info string error "), "{line}: {lines:?}");
            assert!(lines[0].contains(message), "{line}: {lines:?}");
        }
        assert_eq!(e.config, before);
    }

    #[test]
    fn a_bad_position_keeps_the_previous_one() {
        let (mut e, out) = engine();
        send(&mut e, &["position startpos moves e2e4"]);
        let fen = e.game.position().fen();
        for (line, message) in [
            ("position startpos moves e2e4 e2e4", "position: column 30: move 2 (e2e4): e2e4 is not a legal move"),
            ("position fen 8/8/8 w - - 0 1", "position: column 14: fen: "),
            ("position startpos moves 22132313", "the move is written for a board of 4 axes"),
        ] {
            out.clear();
            send(&mut e, &[line]);
            let lines = out.lines();
            assert!(
                lines.len() == 1 && lines[0].starts_with("info string error ") && lines[0].contains(message),
                "{lines:?}"
            );
            assert!(lines[0].ends_with("the position is unchanged"));
            assert_eq!(e.game.position().fen(), fen);
        }
        // A TFEN is refused while playing chess.
        out.clear();
        send(&mut e, &[&format!("position fen {}", start::tesseract(Army::Light).fen())]);
        assert!(out.lines()[0].contains("UCI_Variant chess plays on 2 axes of 8"), "{:?}", out.lines());
    }

    #[test]
    fn the_history_is_kept_for_repetitions() {
        let (mut e, _) = engine();
        send(&mut e, &["position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"]);
        assert_eq!(e.game.history().len(), 8);
        assert_eq!(e.game.repetitions(), 3);
        assert_eq!(e.game.history()[0], start::chess().hash());
    }

    #[test]
    fn castling_text_follows_uci_chess960() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let (mut e, out) = engine();
        send(&mut e, &[&format!("position fen {fen} moves e1g1")]);
        assert_eq!(out.lines(), Vec::<String>::new());
        assert_eq!(e.game.position().fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
        // King takes rook is not a standard castling text.
        send(&mut e, &[&format!("position fen {fen} moves e1h1")]);
        assert_eq!(out.count("info string error "), 1);
        send(&mut e, &["setoption name UCI_Chess960 value true", &format!("position fen {fen} moves e1h1 e8a8")]);
        assert_eq!(out.count("info string error "), 1, "{:?}", out.lines());
        assert_eq!(e.game.position().fen(), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
        // A Chess960 start needs UCI_Chess960 for its castling rights.
        send(
            &mut e,
            &[
                "setoption name UCI_Chess960 value false",
                "position fen nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w GBgb - 0 1",
            ],
        );
        assert_eq!(out.count("info string error "), 2);
    }

    #[test]
    fn mated_and_stalemated_roots_answer_0000() {
        let (mut e, out) = engine();
        // Fool's mate: White is mated.
        send(&mut e, &["position startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 5"]);
        assert_eq!(out.wait_for("bestmove", 10), "bestmove 0000");
        assert!(out.lines().contains(&"info depth 0 score mate 0".to_string()), "{:?}", out.lines());
        out.clear();
        send(&mut e, &["position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go infinite"]);
        // Even with no move, `go infinite` waits for `stop`.
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(out.count("bestmove"), 0);
        send(&mut e, &["stop"]);
        assert_eq!(out.lines(), ["info depth 0 score cp 0", "bestmove 0000"]);
    }

    #[test]
    fn infinite_searches_until_stop_and_answers_isready_meanwhile() {
        let (mut e, out) = engine();
        send(&mut e, &["position startpos", "go infinite"]);
        out.wait_for("info depth 2", 10);
        let t = Instant::now();
        send(&mut e, &["isready"]);
        assert!(t.elapsed() < Duration::from_millis(100));
        assert_eq!(out.count("readyok"), 1);
        assert_eq!(out.count("bestmove"), 0);
        send(&mut e, &["go depth 1"]);
        assert_eq!(out.count("info string error go: a search is running"), 1);
        let t = Instant::now();
        send(&mut e, &["stop"]);
        assert!(t.elapsed() < Duration::from_millis(500), "stop took {:?}", t.elapsed());
        assert_eq!(out.count("bestmove"), 1);
        // A stop with nothing running is harmless and says nothing.
        send(&mut e, &["stop", "stop"]);
        assert_eq!(out.count("bestmove"), 1);
        // A stop right after go still gives one bestmove.
        for _ in 0..5 {
            send(&mut e, &["go infinite", "stop"]);
        }
        assert_eq!(out.count("bestmove"), 6);
        assert_eq!(e.handle_text("quit"), Flow::Quit);
    }

    #[test]
    fn ponderhit_starts_the_clock() {
        let (mut e, out) = engine();
        send(&mut e, &["setoption name Ponder value true", "position startpos", "go ponder movetime 250"]);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(out.count("bestmove"), 0, "pondering does not end by itself");
        let t = Instant::now();
        send(&mut e, &["ponderhit"]);
        out.wait_for("bestmove", 10);
        let took = t.elapsed();
        assert!(took >= Duration::from_millis(100) && took < Duration::from_millis(1_000), "{took:?}");
        // Stop while pondering also ends with one bestmove.
        send(&mut e, &["go ponder wtime 1000 btime 1000", "stop"]);
        assert_eq!(out.count("bestmove"), 2);
    }

    #[test]
    fn movetime_and_clock_are_kept() {
        let (mut e, out) = engine();
        // 300 ms less the default overhead of 100 ms, counted from the engine's reading `go` (after `t`).
        send(&mut e, &["position startpos moves d2d4"]);
        let t = Instant::now();
        send(&mut e, &["go movetime 300"]);
        out.wait_for("bestmove", 10);
        let took = t.elapsed();
        assert!(took >= Duration::from_millis(200) && took < Duration::from_millis(500), "{took:?}");
        // Black to move with 500 ms in sudden death: hard limit min(3·(400/20), 200) = 60 ms.
        out.clear();
        send(&mut e, &["go wtime 1 btime 500"]);
        let t = Instant::now();
        out.wait_for("bestmove", 10);
        assert!(t.elapsed() < Duration::from_millis(150), "{:?}", t.elapsed());
    }

    #[test]
    fn the_next_clock_of_the_game_measures_what_a_move_cost_beyond_the_search() {
        let (mut e, out) = engine();
        // Sets the position, sends `go` with White's clock at `wtime` ms (White to move), and returns the
        // best move and how long the answer took as the test saw it (at least what the engine took).
        let think = |e: &mut Engine, moves: &str, wtime: u128| {
            send(e, &[&format!("position startpos moves {moves}")]);
            out.clear();
            let t = Instant::now();
            send(e, &[&format!("go wtime {wtime} btime 10000 winc 100 binc 100")]);
            let answer = out.wait_for("bestmove", 10);
            (best(&answer).to_string(), t.elapsed().as_millis())
        };
        // Any legal move of the position after `moves` other than `not`, as text.
        let other = |e: &mut Engine, moves: &str, not: &str| {
            send(e, &[&format!("position startpos moves {moves}")]);
            let pos = e.game.position();
            let texts =
                tesseract_movegen::legal_moves(pos).into_iter().map(|m| TextMove::from_move(m, pos).to_string());
            texts.into_iter().find(|t| t != not).expect("two legal moves")
        };
        send(&mut e, &["debug on"]);
        let (x, _) = think(&mut e, "", 10_000);
        assert_eq!(out.count("info string latency"), 0, "nothing measured yet");
        // After ucinewgame the same game two plies on is another game: nothing measured.
        send(&mut e, &["ucinewgame"]);
        let (y, _) = think(&mut e, &format!("{x} e7e5"), 9_000);
        assert_eq!(out.count("info string latency"), 0, "measured across ucinewgame");
        // Two plies on, but the engine's move not played (a GUI that took it back): nothing measured.
        let z = other(&mut e, &format!("{x} e7e5"), &y);
        let reply = other(&mut e, &format!("{x} e7e5 {z}"), "");
        let line = format!("{x} e7e5 {z} {reply}");
        let (w, took) = think(&mut e, &line, 9_000);
        assert_eq!(out.count("info string latency"), 0, "measured with another move than {y} played");
        // The game two plies on, the GUI's clock 20 ms lower than the test saw: measured.
        let reply = other(&mut e, &format!("{line} {w}"), "");
        think(&mut e, &format!("{line} {w} {reply}"), 9_000 + 100 - took - 20);
        let latency = out.wait_for("info string latency", 0);
        let ms: u128 = latency.split(' ').nth(3).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{latency}"));
        // 20 ms and the 5 ms margin, less up to 1 ms: the test reads its clock in whole milliseconds.
        assert!((24..1_000).contains(&ms), "{latency}");
        assert!(latency.ends_with("(the largest of 1 move, with the margin)"), "{latency}");
        // The budget of the next move is planned with it (that it then plans more than the overhead's rule
        // at such a clock is the time module's test).
        let Ok(Some(Command::Go(g))) = Command::parse("go wtime 5000 btime 5000 winc 100 binc 100") else { panic!() };
        let clock =
            Clock { remaining: Duration::from_secs(5), increment: Duration::from_millis(100), moves_to_go: None };
        let overhead = Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS);
        assert_eq!(e.budget(&g), Some(clock.budget_measured(overhead, e.latency.estimate())));
        // Without `debug on` nothing is said.
        send(&mut e, &["debug off"]);
        think(&mut e, "", 9_000);
        assert_eq!(out.count("info string latency"), 0);
    }

    #[test]
    fn a_pondered_move_is_measured_from_ponderhit_and_a_stopped_ponder_not_at_all() {
        let (mut e, out) = engine();
        send(&mut e, &["setoption name Ponder value true", "debug on"]);
        // Ponders on the position after `moves` with White's clock at `wtime` ms for 300 ms, ends it with
        // `end` (`ponderhit` or `stop`), and returns the best move and how long the answer took from `end`.
        let ponder = |e: &mut Engine, moves: &str, wtime: u128, end: &str| {
            send(e, &[&format!("position startpos moves {moves}")]);
            out.clear();
            send(e, &[&format!("go ponder wtime {wtime} btime 10000 winc 100 binc 100")]);
            std::thread::sleep(Duration::from_millis(300));
            let t = Instant::now();
            send(e, &[end]);
            let answer = out.wait_for("bestmove", 10);
            (best(&answer).to_string(), t.elapsed().as_millis())
        };
        let reply = |e: &mut Engine, moves: &str| {
            send(e, &[&format!("position startpos moves {moves}")]);
            let pos = e.game.position();
            let m = tesseract_movegen::legal_moves(pos)[0];
            TextMove::from_move(m, pos).to_string()
        };
        let (x, took) = ponder(&mut e, "", 10_000, "ponderhit");
        assert_eq!(out.count("info string latency"), 0, "nothing measured yet");
        // Two plies on, the GUI's clock 20 ms lower than the test saw from `ponderhit`: measured (the 300
        // ms of pondering, had they counted, would have left nothing to measure but the 5 ms margin).
        let line = format!("{x} {}", reply(&mut e, &x));
        let (y, took) = ponder(&mut e, &line, 10_000 + 100 - took - 20, "ponderhit");
        let latency = out.lines().into_iter().find(|l| l.starts_with("info string latency")).expect("measured");
        let ms: u128 = latency.split(' ').nth(3).and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{latency}"));
        assert!((24..1_000).contains(&ms), "{latency}");
        assert_eq!(e.latency.len(), 1);
        // A ponder stopped (the GUI's guess missed) is not a move of the game, even when the game then goes
        // on with its answer: the `go ponder` measures the move before it, the `go` after it nothing.
        let line = format!("{line} {y} {}", reply(&mut e, &format!("{line} {y}")));
        let (z, _) = ponder(&mut e, &line, 9_000 + 100 - took - 20, "stop");
        assert_eq!(e.latency.len(), 2);
        let line = format!("{line} {z} {}", reply(&mut e, &format!("{line} {z}")));
        out.clear();
        send(&mut e, &[&format!("position startpos moves {line}"), "go wtime 8000 btime 10000 winc 100 binc 100"]);
        out.wait_for("bestmove", 10);
        assert_eq!(e.latency.len(), 2, "a stopped ponder measured");
    }

    #[test]
    fn a_clock_is_paced_by_the_iterations_and_movetime_is_not() {
        let ms = Duration::from_millis;
        let state = |paced: bool| State {
            stop_requested: false,
            pondering: false,
            infinite: false,
            open_ended: false,
            budget: Some(TimeBudget { soft: ms(100), hard: ms(300) }),
            started: None,
            hard: None,
            finished: false,
            bestmove_sent: false,
            answered: None,
            stability: Stability::default(),
            paced,
        };
        let moves = tesseract_movegen::legal_moves(&start::chess());
        let (a, b) = (moves.first().copied(), moves.get(1).copied());
        let t0 = Instant::now();
        for paced in [true, false] {
            let mut st = state(paced);
            st.start_clock(t0);
            // Six iterations with the same best move at 75 ms: settled, the soft limit is ×0.7 = 70 ms.
            let stops: Vec<bool> =
                (0..6).map(|_| st.stop_after_iteration(t0 + ms(75), a, Score::Cp(0), None)).collect();
            assert_eq!(stops, [false, false, false, false, false, paced]);
            // The best move changes at 150 ms: ×1.6, 160 ms, so it goes on when paced.
            assert_eq!(st.stop_after_iteration(t0 + ms(150), b, Score::Cp(0), None), !paced);
            let budget = st.budget.unwrap();
            assert!(!budget.stop_after_iteration_with(ms(159), &st.stability));
            assert!(budget.stop_after_iteration_with(ms(160), &st.stability));
        }
    }

    #[test]
    fn a_clock_budget_is_paced_and_a_movetime_budget_is_not() {
        let (mut e, out) = engine();
        for (go, paced) in [("go movetime 300", false), ("go wtime 2000 btime 2000", true)] {
            out.clear();
            send(&mut e, &["position startpos", go]);
            let running = e.running.as_ref().expect("a search runs");
            assert_eq!(running.control.lock().paced, paced, "{go}");
            out.wait_for("bestmove", 10);
        }
    }

    #[test]
    fn mate_search_stops_at_the_mate() {
        let (mut e, out) = engine();
        // A back-rank mate in one: the search stops at it and says so.
        send(&mut e, &["position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go mate 1"]);
        let bm = out.wait_for("bestmove", 10);
        assert_eq!(best(&bm), "a1a8");
        assert!(out.lines().iter().any(|l| l.contains(" score mate 1 ")), "{:?}", out.lines());
    }

    /// A folder of its own under the system's temporary folder, removed when dropped.
    struct TempDir(std::path::PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let path = std::env::temp_dir().join(format!("tesseract-uci-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            TempDir(path)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn tablebase_path_loads_tables_and_the_engine_reports_their_mate() {
        let dir = TempDir::new("tables");
        let mut tables = Tablebases::new();
        tables.generate(Shape::CHESS, &"KRK".parse().unwrap(), &Default::default(), &|_| {}).unwrap();
        tables.save_dir(&dir.0).unwrap();
        let (mut e, out) = engine();
        send(&mut e, &["uci"]);
        assert!(out.lines().contains(&"option name TablebasePath type string default <empty>".into()));
        out.clear();
        // The longest KRK win: mate in 16, which a search to depth 3 does not see.
        let pos = tables.get(Shape::CHESS, &"KRK".parse().unwrap()).unwrap().longest_example(Color::White).unwrap();
        let fen = pos.fen();
        send(&mut e, &[&format!("position fen {fen}"), "go depth 3"]);
        out.wait_for("bestmove", 30);
        assert!(!out.lines().iter().any(|l| l.contains(" score mate ")), "{:?}", out.lines());
        out.clear();
        send(&mut e, &[&format!("setoption name TablebasePath value {}", dir.0.display())]);
        // KRK and the smaller tables generated with it.
        let loaded = format!("info string TablebasePath {}: {} tables loaded", dir.0.display(), tables.len());
        assert_eq!(out.lines(), [loaded]);
        send(&mut e, &["go depth 3"]);
        let bm = out.wait_for("bestmove", 30);
        assert!(
            out.lines().iter().any(|l| l.starts_with("info depth 1 ") && l.contains(" score mate 16 ")),
            "{:?}",
            out.lines()
        );
        let (m, _) = tables.best_move(&pos).unwrap();
        assert_eq!(best(&bm), TextMove::from_move(m, &pos).to_string());
        // An empty value (or `<empty>`) unloads them.
        for empty in ["setoption name TablebasePath value", "setoption name TablebasePath value <empty>"] {
            send(&mut e, &[&format!("setoption name TablebasePath value {}", dir.0.display()), empty]);
            out.clear();
            send(&mut e, &["go depth 3"]);
            out.wait_for("bestmove", 30);
            assert!(!out.lines().iter().any(|l| l.contains(" score mate ")), "{empty}: {:?}", out.lines());
        }
    }

    #[test]
    fn a_bad_tablebase_path_is_an_error_and_leaves_no_tables() {
        let dir = TempDir::new("bad-tables");
        let mut tables = Tablebases::new();
        tables.generate(Shape::CHESS, &"KRK".parse().unwrap(), &Default::default(), &|_| {}).unwrap();
        tables.save_dir(&dir.0).unwrap();
        let (mut e, out) = engine();
        let fen = "8/8/8/8/8/2k5/8/K6R w - - 0 1";
        send(&mut e, &[&format!("setoption name TablebasePath value {}", dir.0.display())]);
        assert!(e.tablebases.is_some());
        // A folder that does not exist.
        out.clear();
        let missing = dir.0.join("missing");
        send(&mut e, &[&format!("setoption name TablebasePath value {}", missing.display())]);
        let lines = out.lines();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("info string error column 36: setoption TablebasePath: cannot read the folder"),
            "{lines:?}"
        );
        assert!(e.tablebases.is_none(), "the earlier tables are gone too");
        // A damaged table file.
        std::fs::write(dir.0.join("KRK.8x8.ttb"), b"TESSTB1\nnot a table").unwrap();
        out.clear();
        send(&mut e, &[&format!("setoption name TablebasePath value {}", dir.0.display())]);
        let lines = out.lines();
        assert!(
            lines.len() == 1 && lines[0].starts_with("info string error ") && lines[0].contains("KRK.8x8.ttb"),
            "{lines:?}"
        );
        assert!(e.tablebases.is_none());
        // A folder without tables: said, and no tables.
        for file in std::fs::read_dir(&dir.0).unwrap() {
            std::fs::remove_file(file.unwrap().path()).unwrap();
        }
        out.clear();
        send(&mut e, &[&format!("setoption name TablebasePath value {}", dir.0.display())]);
        assert_eq!(
            out.lines(),
            [format!("info string TablebasePath {}: no table files (*.ttb) in the folder", dir.0.display())]
        );
        // The engine still plays.
        out.clear();
        send(&mut e, &[&format!("position fen {fen}"), "go depth 2"]);
        out.wait_for("bestmove", 30);
        assert!(!out.lines().iter().any(|l| l.contains(" score mate ")), "{:?}", out.lines());
    }

    #[test]
    fn tesseract_through_uci() {
        let (mut e, out) = engine();
        send(&mut e, &["setoption name UCI_Variant value tesseract", "position startpos moves 22132313", "go depth 2"]);
        let bm = out.wait_for("bestmove", 30);
        let mut pos = start::tesseract(Army::Standard);
        pos.play(pos.parse_move("22132313").unwrap()).unwrap();
        let m = pos.parse_move(best(&bm)).unwrap_or_else(|err| panic!("{bm}: {err}"));
        assert_eq!(best(&bm).len(), 8);
        pos.play(m).unwrap();
        // The army option changes the start.
        send(&mut e, &["setoption name Army value light", "position startpos"]);
        assert_eq!(e.game.position(), &start::tesseract(Army::Light));
        send(&mut e, &[&format!("position fen {} moves {}", pos.fen(), "44444445")]);
        assert_eq!(out.count("info string error "), 1, "{:?}", out.lines());
    }

    #[test]
    fn skipped_lines_are_answered() {
        let (mut e, out) = engine();
        e.handle(&Line::TooLong(5_000_000));
        e.handle(&Line::NotUtf8);
        assert_eq!(
            out.lines(),
            [
                "info string error a line of 5000000 bytes is longer than the 1048576 allowed: ignored",
                "info string error a line that is not UTF-8 text: ignored"
            ]
        );
    }

    /// Sends `lines` (ending with a bounded `go`) and returns what the engine printed for them, up to and
    /// including the `bestmove`, once the search thread has ended.
    fn search(e: &mut Engine, out: &Shared, lines: &[&str]) -> Vec<String> {
        out.clear();
        send(e, lines);
        out.wait_for("bestmove", 120);
        e.finish();
        out.lines()
    }

    /// The fields of an `info depth` line, which must come in the documented order.
    #[derive(Debug)]
    struct InfoLine {
        depth: u32,
        seldepth: u32,
        nodes: u64,
        time: u64,
        hashfull: u32,
        pv: Vec<String>,
    }

    fn parse_info(line: &str) -> InfoLine {
        let w: Vec<&str> = line.split(' ').collect();
        let keys = [(0, "info"), (1, "depth"), (3, "seldepth"), (5, "score"), (8, "nodes"), (10, "nps")];
        for (i, key) in keys.into_iter().chain([(12, "time"), (14, "hashfull"), (16, "pv")]) {
            assert_eq!(w.get(i), Some(&key), "field {i} of {line:?}");
        }
        assert!(w[6] == "cp" || w[6] == "mate", "{line}");
        w[7].parse::<i32>().unwrap_or_else(|err| panic!("score in {line:?}: {err}"));
        let n = |i: usize| w[i].parse::<u64>().unwrap_or_else(|err| panic!("field {i} of {line:?}: {err}"));
        n(11);
        InfoLine {
            depth: n(2) as u32,
            seldepth: n(4) as u32,
            nodes: n(9),
            time: n(13),
            hashfull: n(15) as u32,
            pv: w[17..].iter().map(|m| m.to_string()).collect(),
        }
    }

    /// The `info depth` lines of some output.
    fn infos(lines: &[String]) -> Vec<InfoLine> {
        lines.iter().filter(|l| l.starts_with("info depth")).map(|l| parse_info(l)).collect()
    }

    /// The output without the fields that depend on the machine (nps and time): what the same search
    /// prints on any machine.
    fn deterministic(lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < w.len() {
                    if w[i] == "nps" || w[i] == "time" {
                        i += 2;
                    } else {
                        kept.push(w[i]);
                        i += 1;
                    }
                }
                kept.join(" ")
            })
            .collect()
    }

    #[test]
    fn info_lines_carry_every_field_with_sane_values() {
        let (mut e, out) = engine();
        let moves = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6";
        let lines = search(&mut e, &out, &[&format!("position startpos moves {moves}"), "go depth 6"]);
        let infos = infos(&lines);
        // One line per iteration, and nothing else but the bestmove.
        assert_eq!(infos.len(), 6, "{lines:#?}");
        assert_eq!(lines.len(), 7, "{lines:#?}");
        let mut root = start::chess();
        for m in moves.split(' ') {
            root.play(root.parse_move(m).unwrap()).unwrap();
        }
        for (i, info) in infos.iter().enumerate() {
            assert_eq!(info.depth, i as u32 + 1, "{info:?}");
            assert!(info.hashfull <= 1000, "{info:?}");
            assert!(info.nodes > 0, "{info:?}");
            if let Some(before) = i.checked_sub(1).map(|b| &infos[b]) {
                assert!(info.nodes >= before.nodes, "{before:?} then {info:?}");
                assert!(info.time >= before.time, "{before:?} then {info:?}");
            }
            // The PV is a line of legal moves from the root.
            assert!(!info.pv.is_empty(), "{info:?}");
            let mut p = root.clone();
            for m in &info.pv {
                let mv = p.parse_move(m).unwrap_or_else(|err| panic!("{info:?}: {m}: {err}"));
                p.play(mv).unwrap();
            }
        }
        // The quiescence search goes deeper than the iteration somewhere, and the table fills.
        assert!(infos.iter().any(|i| i.seldepth > i.depth), "{infos:#?}");
        assert!(infos.last().unwrap().hashfull > 0, "{infos:#?}");
        // The bestmove is the last PV's first move.
        assert_eq!(best(lines.last().unwrap()), infos.last().unwrap().pv[0]);
    }

    #[test]
    fn ucinewgame_forgets_what_the_engine_learnt() {
        let fixed = ["position startpos", "go depth 6"];
        let (mut fresh, fresh_out) = engine();
        let reference = search(&mut fresh, &fresh_out, &fixed);
        assert_eq!(infos(&reference).len(), 6, "{reference:#?}");
        let reference = deterministic(&reference);
        let (mut e, out) = engine();
        search(&mut e, &out, &["position startpos moves e2e4 e7e5", "go depth 5"]);
        search(&mut e, &out, &["position startpos moves d2d4", "go nodes 20000"]);
        // What it learnt shows: the same search without ucinewgame prints other info lines (their nodes,
        // scores or lines differ; time and nps are left out of the comparison).
        let learnt = deterministic(&search(&mut e, &out, &fixed));
        assert_ne!(learnt, reference, "the table and history carry over between searches");
        send(&mut e, &["position startpos moves g1f3 g8f6 f3g1 f6g8"]);
        // ucinewgame resets the position, history included, to the start...
        send(&mut e, &["ucinewgame"]);
        assert_eq!(e.game.position(), &start::chess());
        assert!(e.game.history().is_empty(), "{:?}", e.game.history());
        // ...and clears the table and history: a `go` searches the start exactly as a fresh engine does.
        assert_eq!(deterministic(&search(&mut e, &out, &["go depth 6"])), reference);
        assert_eq!(deterministic(&search(&mut e, &out, &["ucinewgame", "position startpos", "go depth 6"])), reference);
        // In 4D, the start of the army chosen.
        send(&mut e, &["setoption name UCI_Variant value tesseract", "setoption name Army value light"]);
        send(&mut e, &["position startpos moves 22132313", "ucinewgame"]);
        assert_eq!(e.game.position(), &start::tesseract(Army::Light));
        assert!(e.game.history().is_empty());
    }

    #[test]
    fn go_nodes_stays_within_the_budget() {
        let position = "position startpos moves e2e4 c7c5";
        for budget in [1_u64, 300, 5_000, 40_000] {
            let (mut e, out) = engine();
            let lines = search(&mut e, &out, &[position, &format!("go nodes {budget}")]);
            let got = infos(&lines);
            // The limit is checked as each node is entered, so no iteration reported used more.
            assert!(got.iter().all(|i| i.nodes <= budget), "go nodes {budget}: {lines:#?}");
            let bm = best(lines.last().unwrap()).to_string();
            let mut pos = start::chess();
            pos.play(pos.parse_move("e2e4").unwrap()).unwrap();
            pos.play(pos.parse_move("c7c5").unwrap()).unwrap();
            pos.parse_move(&bm).unwrap_or_else(|err| panic!("go nodes {budget}: {bm}: {err}"));
            // The budget, not something else, ended the search: the same search by depth finds the same
            // iterations, and the next one needs more nodes than the budget.
            let depth = got.len() as u32;
            let (mut f, f_out) = engine();
            let by_depth = search(&mut f, &f_out, &[position, &format!("go depth {}", depth + 1)]);
            let by_depth_infos = infos(&by_depth);
            assert_eq!(
                deterministic(&by_depth[..depth as usize]),
                deterministic(&lines[..depth as usize]),
                "go nodes {budget}"
            );
            let next = &by_depth_infos[depth as usize];
            assert!(next.nodes > budget, "go nodes {budget} stopped before depth {}: {next:?}", next.depth);
        }
    }
}
