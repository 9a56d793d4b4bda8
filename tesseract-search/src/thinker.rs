//! An engine that thinks on its own thread while the caller goes on: the handle a game loop polls once a
//! frame ("think while you draw").
//!
//! [`Thinker`] owns a [`Searcher`] and lends it to a search thread for each [`Thinker::start`]; the game
//! loop calls [`Thinker::poll`] when it likes (it never blocks), and gets the current best line while the
//! engine thinks and the final move once it is done. [`Thinker::stop`] ends a search early and returns its
//! best move; dropping the handle stops and joins its thread, so a player leaving a game never leaves a
//! search running behind it.
//!
//! The search is the same as a [`Searcher::search`] on the caller's thread: with the same position,
//! history, limits and options, a node or depth budget gives the same move and line (a test checks it),
//! however often and whenever it is polled.
//!
//! # Examples
//! ```
//! use tesseract_board::start;
//! use tesseract_search::{Limits, Thinker};
//! let mut thinker = Thinker::new(16)?;
//! thinker.start(&start::chess(), Limits { nodes: Some(20_000), ..Limits::default() })?;
//! let best = loop {
//!     // A game would draw a frame here, then look once.
//!     match thinker.poll() {
//!         Some(best) if best.is_final() => break best,
//!         Some(thinking) => println!("depth {} so far: {:?}", thinking.depth, thinking.best_move),
//!         // Ended without a move: the search failed (no memory for its table, or a bug).
//!         None if !thinker.is_thinking() => return Err(format!("{:?}", thinker.failure()).into()),
//!         None => {}
//!     }
//!     std::thread::sleep(std::time::Duration::from_millis(1));
//! };
//! println!("bestmove {:?} ({})", best.best_move, best.score);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! Threads: the handle itself is `Send` (a game may keep it in any thread) but is used from one thread
//! at a time (`&mut self`). On `wasm32-unknown-unknown`, where threads cannot be spawned, [`Thinker::start`]
//! returns [`ThinkError::Thread`]; a page runs [`Searcher::search`] in a Web Worker instead.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tesseract_board::{Move, Position};

use crate::search::{Info, Limits, Options, Score, SearchResult, Searcher, StopReason};
use crate::tt::TableAllocError;
use crate::{Game, Tier};

/// The search thread's stack: the search recurses up to [`crate::MAX_PLY`] plies with a few hundred bytes
/// of locals each, far below this (the Python bindings give their searches the same).
const STACK_BYTES: usize = 16 << 20;

/// The engine's best move so far, or its final move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move to play.
    pub best_move: Move,
    /// Its score, from the side to move.
    pub score: Score,
    /// The last finished iteration.
    pub depth: u32,
    /// Nodes searched (at the last finished iteration while thinking; in all once final).
    pub nodes: u64,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Why the search stopped: `None` while it still thinks.
    pub stop: Option<StopReason>,
}

impl BestMove {
    /// Whether the search has ended and this is its move.
    pub fn is_final(&self) -> bool {
        self.stop.is_some()
    }

    fn from_info(info: &Info<'_>) -> Option<BestMove> {
        Some(BestMove {
            best_move: *info.pv.first()?,
            score: info.score,
            depth: info.depth,
            nodes: info.nodes,
            pv: info.pv.to_vec(),
            stop: None,
        })
    }

    fn from_result(result: SearchResult) -> Option<BestMove> {
        Some(BestMove {
            best_move: result.best_move?,
            score: result.score,
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv,
            stop: Some(result.stop),
        })
    }
}

/// Why a search could not start, or failed ([`Thinker::failure`]).
#[derive(Debug, thiserror::Error)]
pub enum ThinkError {
    /// The position has no legal move (the game is over): there is nothing to think about.
    #[error("the side to move has no legal move: the game is over")]
    NoLegalMove,
    /// The search thread could not be started (no threads on this target, or none left).
    #[error("cannot start the search thread: {0}")]
    Thread(#[from] std::io::Error),
    /// The searcher's table could not be allocated.
    #[error(transparent)]
    Table(#[from] TableAllocError),
    /// The search thread panicked (a bug).
    #[error("the search failed (a bug in the engine)")]
    Panicked,
}

/// Hooks a front end runs on the search thread: `tesseract-uci` prints its `info` lines in
/// [`Observer::iteration`] and its `bestmove` in [`Observer::finished`], so that it shares this handle
/// with games. `()` observes nothing.
pub trait Observer: Send + 'static {
    /// After each finished iteration, on the search thread; [`ControlFlow::Break`] raises the search's
    /// stop flag (as [`Thinker::stop`] does, without waiting). The search looks at its flag every 1,024
    /// nodes, so in a small tree a further iteration may still finish, and be heard, before it stops.
    fn iteration(&mut self, info: &Info<'_>) -> ControlFlow<()> {
        let _ = info;
        ControlFlow::Continue(())
    }

    /// Once the search has ended, on its thread, before [`Thinker::poll`] can see the result (it may
    /// wait there, for example for a `stop` that a protocol requires before the answer). Not called when
    /// the search failed (its table could not be had, or it panicked): the observer is dropped instead.
    ///
    /// **A `finished` that waits must be released by the caller's own means** before [`Thinker::stop`],
    /// a new start, or a drop of the handle: they wait for the thread to end and cannot reach the
    /// observer. (`tesseract-uci` marks its `stop` in the state its observer waits on, then stops.)
    fn finished(&mut self, result: &SearchResult) {
        let _ = result;
    }
}

impl Observer for () {}

/// What a search thread needs: the position and history, or a game and a tier.
/// Boxed: the options hold an evaluation's weights (a few kilobytes), the game its history.
enum Job {
    Search(Box<SearchJob>),
    Tier { game: Box<Game>, tier: Tier },
}

/// A [`Job::Search`].
struct SearchJob {
    position: Position,
    history: Vec<u64>,
    limits: Limits,
    options: Options,
    observer: Box<dyn Observer>,
}

struct Running {
    thread: JoinHandle<Result<(Searcher, Option<BestMove>), TableAllocError>>,
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Option<BestMove>>>,
}

/// A searcher on its own thread: start, poll, stop; dropping it stops and joins the thread.
///
/// See the [module docs](self) for an example.
pub struct Thinker {
    /// The searcher while no search runs (a running search owns it).
    searcher: Option<Searcher>,
    hash_mb: usize,
    running: Option<Running>,
    /// The last search's final move, until the next start.
    last: Option<BestMove>,
    /// Clear the searcher's tables on the search thread before the next search.
    clear_pending: bool,
    /// Why the last search ended without a move, if it failed.
    failure: Option<ThinkError>,
}

impl std::fmt::Debug for Thinker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Thinker")
            .field("hash_mb", &self.hash_mb)
            .field("thinking", &self.is_thinking())
            .field("last", &self.last)
            .field("failure", &self.failure)
            .finish()
    }
}

impl Thinker {
    /// A handle whose searcher has a transposition table of `hash_mb` megabytes.
    ///
    /// # Errors
    /// [`TableAllocError`] when that memory cannot be had.
    pub fn new(hash_mb: usize) -> Result<Thinker, TableAllocError> {
        Ok(Thinker::with_searcher(Searcher::try_new(hash_mb)?))
    }

    /// A handle whose searcher (with a table of `hash_mb` megabytes) is made on the search thread at the
    /// first start, so that the caller never waits for the table's memory. If that memory cannot be had,
    /// the search ends without a move and [`Thinker::failure`] says why.
    pub fn lazy(hash_mb: usize) -> Thinker {
        Thinker { hash_mb, searcher: None, running: None, last: None, clear_pending: false, failure: None }
    }

    /// A handle around a searcher the caller has set up (its table, its endgame tables).
    pub fn with_searcher(searcher: Searcher) -> Thinker {
        Thinker {
            hash_mb: searcher.hash_mb(),
            searcher: Some(searcher),
            running: None,
            last: None,
            clear_pending: false,
            failure: None,
        }
    }

    /// The searcher, to set it up between searches (for example [`Searcher::set_tablebases`]): stops a
    /// running search first, and makes the searcher here if it was not made yet.
    ///
    /// # Errors
    /// [`TableAllocError`] when the table of a searcher not yet made cannot be allocated.
    pub fn searcher_mut(&mut self) -> Result<&mut Searcher, TableAllocError> {
        self.stop();
        if self.searcher.is_none() {
            self.searcher = Some(Searcher::try_new(self.hash_mb)?);
        }
        Ok(self.searcher.as_mut().expect("made above"))
    }

    /// The searcher while no search runs, if it has been made (see [`Thinker::lazy`]).
    pub fn searcher(&self) -> Option<&Searcher> {
        self.searcher.as_ref()
    }

    /// Clears the searcher's transposition table and move-ordering memory before the next search, on the
    /// search thread (a table of many megabytes takes a while to clear: the caller's frame does not wait
    /// for it). A search from a cleared table depends only on its arguments, as the tiers' moves do.
    pub fn clear_before_next_search(&mut self) {
        self.clear_pending = true;
    }

    /// Starts searching `position` within `limits` (default options: seed 0, no noise), stopping the
    /// search that runs, if any. The position has no history: see [`Thinker::start_with`] for a game's.
    ///
    /// # Errors
    /// [`ThinkError`]: the position has no legal move, or no thread could be started.
    pub fn start(&mut self, position: &Position, limits: Limits) -> Result<(), ThinkError> {
        self.start_with(position, &[], limits, Options::default())
    }

    /// Starts searching `position`, whose game's earlier positions have the hashes `history` (oldest
    /// first), as [`Searcher::search`] would.
    ///
    /// # Errors
    /// As [`Thinker::start`].
    pub fn start_with(
        &mut self,
        position: &Position,
        history: &[u64],
        limits: Limits,
        options: Options,
    ) -> Result<(), ThinkError> {
        if tesseract_movegen::count(position) == 0 {
            self.stop();
            self.last = None;
            self.failure = None;
            return Err(ThinkError::NoLegalMove);
        }
        self.start_observed(position, history, limits, options, ())
    }

    /// [`Thinker::start_with`], with an [`Observer`] whose hooks run on the search thread. Unlike the
    /// other starts it also searches a position without a legal move (at once), so that the observer
    /// hears of it: its [`Observer::finished`] gets the result without a move, and [`Thinker::poll`]
    /// then gives `None`.
    ///
    /// # Errors
    /// [`ThinkError::Thread`].
    pub fn start_observed(
        &mut self,
        position: &Position,
        history: &[u64],
        limits: Limits,
        options: Options,
        observer: impl Observer,
    ) -> Result<(), ThinkError> {
        self.spawn(Job::Search(Box::new(SearchJob {
            position: position.clone(),
            history: history.to_vec(),
            limits,
            options,
            observer: Box::new(observer),
        })))
    }

    /// Starts the move of `tier` in `game`, the one [`Game::think`] gives (the same move for the same
    /// game and tier, unless the tier's wall-clock guard fires).
    ///
    /// # Errors
    /// As [`Thinker::start`].
    pub fn start_tier(&mut self, game: &Game, tier: Tier) -> Result<(), ThinkError> {
        if tesseract_movegen::count(game.position()) == 0 {
            self.stop();
            self.last = None;
            self.failure = None;
            return Err(ThinkError::NoLegalMove);
        }
        self.spawn(Job::Tier { game: Box::new(game.clone()), tier })
    }

    fn spawn(&mut self, job: Job) -> Result<(), ThinkError> {
        self.stop();
        self.last = None;
        self.failure = None;
        let searcher = self.searcher.take();
        // A lazy searcher is made at the size its search will use: a tier's own table size.
        let hash_mb = match &job {
            Job::Tier { game, tier } => tier.settings_on(game.position().shape()).hash_mb,
            Job::Search(_) => self.hash_mb,
        };
        let clear = std::mem::take(&mut self.clear_pending);
        // The searcher's stop flag, or the one the thread will give the searcher it makes.
        let stop = searcher.as_ref().map_or_else(|| Arc::new(AtomicBool::new(false)), Searcher::stop_flag);
        let progress = Arc::new(Mutex::new(None));
        let shared = Arc::clone(&progress);
        let record = move |info: &Info<'_>| {
            if let Some(best) = BestMove::from_info(info) {
                *shared.lock().unwrap_or_else(PoisonError::into_inner) = Some(best);
            }
        };
        let raise = Arc::clone(&stop);
        // The searcher goes to the thread through this slot, so that it comes back if the spawn fails.
        let slot = Arc::new(Mutex::new(searcher));
        let taken = Arc::clone(&slot);
        let thread =
            std::thread::Builder::new().name("tesseract-thinker".into()).stack_size(STACK_BYTES).spawn(move || {
                let handed = taken.lock().unwrap_or_else(PoisonError::into_inner).take();
                let mut searcher = match handed {
                    Some(searcher) => searcher,
                    None => Searcher::try_new_with_stop(hash_mb, Arc::clone(&raise))?,
                };
                if clear {
                    searcher.clear();
                }
                let result = match job {
                    Job::Search(job) => {
                        let SearchJob { position, history, limits, options, mut observer } = *job;
                        let result = searcher.search(&position, &history, &limits, &options, |info| {
                            record(info);
                            if observer.iteration(info).is_break() {
                                raise.store(true, Ordering::Relaxed);
                            }
                        });
                        observer.finished(&result);
                        result
                    }
                    Job::Tier { game, tier } => game.think(&mut searcher, tier, record),
                };
                let best = BestMove::from_result(result);
                Ok((searcher, best))
            });
        match thread {
            Ok(thread) => {
                self.running = Some(Running { thread, stop, progress });
                Ok(())
            }
            Err(e) => {
                self.searcher = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
                self.clear_pending = clear;
                Err(ThinkError::Thread(e))
            }
        }
    }

    /// Whether a search is running (its thread has not been joined yet; [`Thinker::poll`] joins a
    /// finished one).
    pub fn is_thinking(&self) -> bool {
        self.running.is_some()
    }

    /// Never blocks. While the engine thinks: its best line after the last finished iteration (`None`
    /// before the first), not final. Once the search has ended: its final move
    /// ([`BestMove::is_final`]), from then on until the next start. `None` when nothing was started,
    /// and `None` once a search has ended without a move: it failed ([`Thinker::failure`]), or an
    /// observed search had no legal move to play. `None` with [`Thinker::is_thinking`] false after a
    /// start is therefore the end of that search.
    pub fn poll(&mut self) -> Option<BestMove> {
        let finished = self.running.as_ref().map(|r| r.thread.is_finished());
        match finished {
            Some(true) => self.join(),
            Some(false) => {
                self.running.as_ref().and_then(|r| r.progress.lock().unwrap_or_else(PoisonError::into_inner).clone())
            }
            None => self.last.clone(),
        }
    }

    /// Stops the running search, waits for its thread and returns its final move (the best of the
    /// iterations it finished; at least the first legal move it ordered). Without a running search: the
    /// last final move, if any.
    ///
    /// The wait is short: until the search looks at its stop flag (every 1,024 nodes: a few
    /// milliseconds), or until an allocation or a clear of its table that is under way has ended.
    pub fn stop(&mut self) -> Option<BestMove> {
        if let Some(running) = &self.running {
            // The search lowers its flag when it begins: keep raising it until the thread has ended.
            while !running.thread.is_finished() {
                running.stop.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_micros(200));
            }
            return self.join();
        }
        self.last.clone()
    }

    /// Gives the searcher back (after stopping a running search), for a caller that keeps it between
    /// searches; `None` when there is none: the last search failed ([`Thinker::failure`]), or a
    /// [`Thinker::lazy`] handle has not made one yet.
    pub fn into_searcher(mut self) -> Option<Searcher> {
        self.stop();
        self.searcher.take()
    }

    /// Whether the last search ended without a move because it failed: [`Thinker::failure`] says why.
    /// The next start makes a new searcher.
    pub fn failed(&self) -> bool {
        self.failure.is_some()
    }

    /// Why the last search failed: its table could not be allocated ([`ThinkError::Table`]), or its
    /// thread panicked ([`ThinkError::Panicked`]).
    pub fn failure(&self) -> Option<&ThinkError> {
        self.failure.as_ref()
    }

    /// Waits for the running search to end by its own limits (no stop) and returns its final move.
    pub fn wait(&mut self) -> Option<BestMove> {
        if self.running.is_some() { self.join() } else { self.last.clone() }
    }

    fn join(&mut self) -> Option<BestMove> {
        let running = self.running.take()?;
        match running.thread.join() {
            Ok(Ok((searcher, best))) => {
                self.searcher = Some(searcher);
                self.last = best;
            }
            Ok(Err(e)) => {
                self.last = None;
                self.failure = Some(ThinkError::Table(e));
            }
            Err(_) => {
                // The search panicked (a bug): a fresh searcher next time, and no move from this one.
                self.searcher = None;
                self.last = None;
                self.failure = Some(ThinkError::Panicked);
            }
        }
        self.last.clone()
    }
}

impl Drop for Thinker {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tesseract_board::start;

    fn node_limits(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    #[test]
    fn a_node_budget_gives_the_move_of_a_search_on_the_callers_thread() {
        for pos in [start::chess(), start::tesseract(start::Army::Light)] {
            let options = Options { seed: 7, ..Options::default() };
            let mut direct = Searcher::new(4);
            let expected = direct.search(&pos, &[], &node_limits(30_000), &options, |_| {});
            let mut thinker = Thinker::new(4).unwrap();
            thinker.start_with(&pos, &[], node_limits(30_000), options).unwrap();
            let best = loop {
                match thinker.poll() {
                    Some(b) if b.is_final() => break b,
                    Some(b) => assert!(b.depth > 0 && b.nodes <= 30_000),
                    None => {}
                }
                std::thread::sleep(Duration::from_micros(100));
            };
            assert_eq!(Some(best.best_move), expected.best_move);
            assert_eq!(
                (best.score, best.depth, best.nodes, &best.pv),
                (expected.score, expected.depth, expected.nodes, &expected.pv)
            );
            assert_eq!(best.stop, Some(expected.stop));
            assert!(!thinker.is_thinking());
            assert_eq!(thinker.poll(), Some(best), "the final move stays until the next start");
        }
    }

    #[test]
    fn a_search_from_a_cleared_table_repeats_itself() {
        let pos = start::chess();
        let mut thinker = Thinker::new(4).unwrap();
        let mut first = None;
        for _ in 0..3 {
            thinker.clear_before_next_search();
            thinker.start(&pos, node_limits(5_000)).unwrap();
            let best = thinker.wait().unwrap();
            assert_eq!(*first.get_or_insert_with(|| best.clone()), best);
        }
    }

    /// Records what it hears and stops the search after depth 3.
    struct StopAtThree(Arc<Mutex<(Vec<u32>, Option<SearchResult>)>>);

    impl Observer for StopAtThree {
        fn iteration(&mut self, info: &Info<'_>) -> ControlFlow<()> {
            self.0.lock().unwrap().0.push(info.depth);
            if info.depth >= 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        }

        fn finished(&mut self, result: &SearchResult) {
            assert!(self.0.lock().unwrap().1.replace(result.clone()).is_none(), "finished once");
        }
    }

    #[test]
    fn an_observer_hears_each_iteration_on_the_thread_stops_it_and_hears_the_end() {
        let heard = Arc::new(Mutex::new((Vec::new(), None)));
        let mut thinker = Thinker::new(4).unwrap();
        let pos = start::tesseract(start::Army::Light);
        thinker
            .start_observed(&pos, &[], Limits::default(), Options::default(), StopAtThree(Arc::clone(&heard)))
            .unwrap();
        let best = thinker.wait().unwrap();
        let (depths, result) = heard.lock().unwrap().clone();
        assert_eq!(depths, [1, 2, 3]);
        let result = result.expect("finished was called before the result reached the caller");
        assert_eq!((Some(best.best_move), best.depth, best.stop), (result.best_move, 3, Some(StopReason::Stopped)));
        let searcher = thinker.into_searcher().expect("the searcher comes back");
        assert_eq!(searcher.hash_mb(), 4);
    }

    #[test]
    fn a_lazy_handle_makes_its_searcher_on_the_search_thread_and_says_when_it_cannot() {
        let mut thinker = Thinker::lazy(2);
        assert!(thinker.searcher().is_none());
        thinker.start(&start::chess(), node_limits(2_000)).unwrap();
        assert!(thinker.wait().is_some());
        assert_eq!(thinker.searcher().map(Searcher::hash_mb), Some(2));
        assert!(!thinker.failed());
        let mut hopeless = Thinker::lazy(usize::MAX);
        hopeless.start(&start::chess(), node_limits(2_000)).unwrap();
        assert_eq!(hopeless.wait(), None);
        assert!(matches!(hopeless.failure(), Some(ThinkError::Table(_))), "{:?}", hopeless.failure());
        assert!(hopeless.into_searcher().is_none());
    }

    #[test]
    fn a_tier_move_is_the_games_think() {
        let mut game = Game::new(start::chess(), 11);
        game.play_text("e2e4").unwrap();
        let expected = game.think_unguarded(&mut Searcher::new(1), Tier::Beginner, |_| {});
        let mut thinker = Thinker::new(1).unwrap();
        thinker.start_tier(&game, Tier::Beginner).unwrap();
        assert_eq!(thinker.wait().map(|b| b.best_move), expected.best_move);
    }

    #[test]
    fn stop_ends_an_unlimited_search_at_once_and_gives_a_legal_move() {
        let pos = start::tesseract(start::Army::Standard);
        let mut thinker = Thinker::new(4).unwrap();
        thinker.start(&pos, Limits::default()).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(thinker.is_thinking());
        let best = thinker.stop().expect("a move");
        assert_eq!(best.stop, Some(StopReason::Stopped));
        assert!(tesseract_movegen::legal_moves(&pos).contains(&best.best_move));
        // Stopping at once after a start (before the search has lowered its flag) still stops it.
        for _ in 0..20 {
            thinker.start(&pos, Limits::default()).unwrap();
            assert!(thinker.stop().is_some());
        }
    }

    #[test]
    fn dropping_a_thinking_handle_stops_and_joins_its_thread() {
        let mut thinker = Thinker::new(4).unwrap();
        thinker.start(&start::tesseract(start::Army::Dense), Limits::default()).unwrap();
        // The drop happens on another thread, watched: a drop that did not stop the search would never
        // return, and the test fails after a minute instead of hanging.
        let (done, dropped) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            drop(thinker);
            let _ = done.send(());
        });
        assert!(dropped.recv_timeout(Duration::from_secs(60)).is_ok(), "dropping the handle did not stop its search");
    }

    #[test]
    fn a_finished_game_is_refused_and_a_new_start_replaces_the_running_search() {
        let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        let mut thinker = Thinker::new(1).unwrap();
        assert!(matches!(thinker.start(&mate, Limits::default()), Err(ThinkError::NoLegalMove)));
        assert_eq!(thinker.poll(), None);
        thinker.start(&start::chess(), Limits::default()).unwrap();
        thinker.start(&start::chess(), Limits { depth: Some(2), ..Limits::default() }).unwrap();
        assert_eq!(thinker.wait().map(|b| (b.depth, b.stop)), Some((2, Some(StopReason::Depth))));
    }
}
