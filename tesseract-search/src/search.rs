//! Iterative-deepening, fail-soft negamax alpha-beta with principal-variation search.
//!
//! One iteration per depth, each searching the root moves in the order the previous one left them (best
//! first, then by their scores, or on 2D boards by the nodes each took: see `Tuning`), inside an
//! aspiration window from depth 4. Every node:
//!
//! - counts itself, and stops the search when a limit is reached: the node limit is checked on entry, the
//!   stop flag and the wall-clock guard every 1,024 nodes;
//! - is a draw by repetition (a position that occurred since the last capture or pawn move, in the game
//!   or on the current line), by the 50-move rule (unless it is mate) or in a dead position of the rules
//!   (kings alone; on 8×8 also a lone minor piece, or bishops on squares of one color);
//! - extends by one ply when the side to move is in check (check extension);
//! - reads the transposition table: its move is searched first, and its score ends the node at non-PV
//!   nodes when the stored draft and bound allow;
//! - at non-PV nodes not in check, prunes: static-eval ("reverse futility") cutoffs at drafts up to 6,
//!   except on 2D boards (where they cut the replies to sacrifices: see `Tuning`);
//!   null-move pruning from draft 3 when the static eval is at least beta and the side to move has a piece
//!   other than king and pawns (never in check, never in pawn-only endings), reduction `3 + draft/4` plus up
//!   to 3 more with the eval margin; late-move pruning of quiet moves beyond a count growing with the draft
//!   squared (drafts 1–4), futility pruning of quiet moves when the static eval plus `100 + 120·draft`
//!   cannot reach alpha (drafts 1–3), on 2D boards static-exchange pruning (drafts 1–6: a quiet move that
//!   loses more than `25·draft²` cp by static exchange, a losing capture more than `150·draft`), and
//!   under-promotions (with mate safety, not a knight's that gives check; nor is a checking move pruned by
//!   futility, late-move or exchange pruning); the figures are the named constants below;
//! - orders moves: transposition-table move, captures and queen promotions by MVV-LVA, two killer moves
//!   per ply, on 2D boards the countermove (the quiet move that last refuted the opponent's move, by its
//!   piece and target cell; see `Tuning`), then quiet moves by history (a bonus of draft² for a quiet move
//!   that cuts, a malus for the quiet moves tried before it; on 2D boards plus the continuation history,
//!   the same kept for the move after each (piece, target cell) of the moves one and two plies before),
//!   then the captures that lose material by
//!   static exchange evaluation (`see`: every piece bearing on the cell recaptures, least valuable first,
//!   while it pays; asked for ordering only of a capture whose capturer is worth more than its victim, and
//!   below the root only when it comes up for search; the 2D exchange pruning asks it of the quiet moves
//!   and losing captures it looks at), under-promotions last;
//! - reduces late quiet moves (late-move reductions, `0.75 + ln(draft)·ln(index)/2.25` plies, one less at
//!   PV nodes and for killers and the countermove, adjusted by history), re-searching at full draft when
//!   the reduced search beats alpha;
//! - searches the first move with the full window and the others with a null window (PVS), re-searching
//!   those that land inside the window;
//! - stores its result with the replacement scheme of [`crate::tt`].
//!
//! At draft 0 a quiescence search takes over: stand pat on the static eval, then captures, en passant and
//! queen promotions by MVV-LVA (with mate safety, knight promotions that give check too), skipping those
//! that cannot raise the eval to alpha (delta pruning) and those that lose material by static exchange;
//! on 2D boards with mate safety, its first ply also tries the quiet moves that give check without
//! hanging the piece; in check, every evasion. Scores are mate-aware: a mate `n` plies from the root
//! scores `MATE − n`.
//!
//! Randomness: a ChaCha8 generator seeded from the game's seed and the ply ([`game_ply`]) gives the keys
//! of the evaluation noise (a hash of the position and the key, so a position keeps its noise throughout
//! the search) and the tie-break order of the root moves. No other source of randomness, and the clock is
//! only a guard: with no time limit, a search is a pure function of its inputs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::mailbox::{self, EMPTY};
use tesseract_board::{Cell, Color, Move, Position, Role};
use tesseract_movegen::{AllMoves, Legal, Noisy, generate};
use tesseract_tablebase::{Tablebases, Wdl};
// std::time::Instant traps on wasm32-unknown-unknown; web-time is std's on native and performance.now() in
// browsers and Web Workers.
use web_time::Instant;

use crate::eval::{self, Tables, Weights};
use crate::see;
use crate::time::Stability;
use crate::tt::{Bound, Entry, TableAllocError, TranspositionTable};

/// The deepest line the search follows, in plies from the root.
pub const MAX_PLY: usize = 100;
/// The score of mate at the root; a mate `n` plies away scores `MATE − n` (or `n − MATE` when mated).
pub const MATE: i32 = 30_000;
/// Scores at least this far from zero are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// The value of a position an endgame table says is won, less its plies to mate (at most 252): a band
/// just below [`MATE_BOUND`] and far above any evaluation ([`Searcher::set_tablebases`]).
pub const TABLE_WIN: i32 = MATE_BOUND - 1;
const INF: i32 = 31_000;

/// A score as reported: centipawns, or mate in a number of moves (negative when the side to move is
/// mated).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (full moves, UCI-style); negative: the side to move gets mated.
    Mate(i32),
}

impl Score {
    /// The score of an internal search value.
    pub fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
        } else {
            Score::Cp(v)
        }
    }

    /// A single number for comparisons and adjudication: centipawns, or ±(`MATE` − moves) for mates.
    pub fn value(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(m) if m > 0 => MATE - 2 * m + 1,
            Score::Mate(m) => -MATE - 2 * m,
        }
    }
}

impl std::fmt::Display for Score {
    /// `cp S` or `mate M`, as in the `info` lines of the bestmove example.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// When a search stops. Deterministic limits (depth, nodes) make a search reproducible; `time` is a
/// safety guard only (see the crate docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration (default: as deep as other limits allow, at most [`MAX_PLY`] − 1).
    pub depth: Option<u32>,
    /// Stop when this many nodes have been searched, even inside an iteration (checked on node entry).
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes have been searched.
    pub soft_nodes: Option<u64>,
    /// Pace `soft_nodes` by what the iterations show, as the UCI engine paces its soft time limit
    /// ([`Stability`](crate::Stability)): stretched after an iteration that changed the best move or lost
    /// score, shrunk once the best move has stood for several (×0.5 to ×2.5). Still a node count, so the
    /// search stays reproducible; the hard limit `nodes` is not paced, and without `soft_nodes` this does
    /// nothing.
    pub paced: bool,
    /// Wall-clock guard: stop after this long. A search that stops on it is not reproducible.
    pub time: Option<Duration>,
    /// Search only these root moves (UCI's `go searchmoves`): those of the list that are legal here, in
    /// the order the search would give them anyway, so that a restriction to every legal move is the
    /// search without one. `None`, or a list with no legal move, searches them all. A restriction to one
    /// move still searches it (for its score and line) rather than answering at once.
    pub root_moves: Option<Vec<Move>>,
}

/// The largest evaluation noise, in centipawns: ten pawns either way already makes play random.
pub const MAX_NOISE: i32 = 1_000;

/// Settings of a search other than its limits.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The game's seed, which with the ply seeds the search's ChaCha generator.
    pub seed: u64,
    /// Evaluation noise: each position's static eval moves by up to this many centipawns either way
    /// (taken as 0 to [`MAX_NOISE`]).
    pub noise: i32,
    /// The selective parts of the search, all on by default (turn one off to measure what it brings).
    pub features: Features,
    /// The evaluation's weights; `None` (the default) for the engine's own ([`Weights::of`]). Weights
    /// belong to one family of boards (chess and Chess960, or the boards of three and more axes): give
    /// those of the board searched, e.g. read by [`Weights::parse`]. The tables of each distinct set are
    /// built on its first search and kept for the process's life.
    pub weights: Option<Weights>,
}

/// Switches for the selective parts of the search. All are on by default; the match example turns them
/// off one at a time to measure them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub late_move_reductions: bool,
    /// Futility pruning of quiet moves, and static-eval cutoffs at shallow drafts ("reverse futility"; the
    /// search makes no static-eval cutoffs on 2D boards, whatever this flag).
    pub futility: bool,
    /// Late-move pruning: quiet moves past a count at shallow drafts.
    pub late_move_pruning: bool,
    /// Mate safety (on by default): a move that gives check is not pruned by futility, late-move or (2D)
    /// exchange pruning, nor a knight promotion that gives check by the rule that prunes under-promotions (other
    /// under-promotions still are), and a capture or knight promotion that gives check is spared
    /// quiescence's delta pruning at the first quiescence ply unless it loses material (losing captures,
    /// delta pruning deeper in quiescence and its recaptures-only rule still prune as before); no
    /// static-eval cutoff or null move when beta is a mated score, no futility, late-move or exchange
    /// pruning when alpha is already a mate; the null-move search
    /// keeps at least one full ply; iterative deepening stops on a mate only once the depth is well past
    /// twice its distance. On 2D boards, quiescence's first ply also tries the quiet moves that give check
    /// and do not lose the piece by static exchange (in 4D that took 2 to 3 times the nodes to depth 7).
    ///
    /// Measured (the crate README has the commands and figures): it finds the shortest mate more often
    /// and solves more of Win at Chess at a fixed node budget, and the tiers' strength ladder holds with
    /// it; it costs nodes to a given depth.
    pub mate_safety: bool,
    /// Static-exchange pruning: at shallow drafts, a quiet move or losing capture that gives up more
    /// material than the draft left can win back is not searched. On 2D boards only (whatever this flag).
    pub see_pruning: bool,
    /// Continuation history: quiet moves are ordered (and reduced) by the scores they earned after the
    /// same moves one and two plies before, not only by their own history. On 2D boards only (whatever
    /// this flag).
    pub continuation_history: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            null_move: true,
            late_move_reductions: true,
            futility: true,
            late_move_pruning: true,
            mate_safety: true,
            see_pruning: true,
            continuation_history: true,
        }
    }
}

/// Why a search stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The depth limit was reached (or [`MAX_PLY`]).
    Depth,
    /// The node limit was reached inside an iteration.
    Nodes,
    /// The soft node limit stopped iterative deepening between iterations.
    SoftNodes,
    /// The wall-clock guard fired.
    Time,
    /// The stop flag was raised.
    Stopped,
    /// The root has no legal move, or only one.
    Forced,
    /// A loaded endgame table answered at the root ([`Searcher::set_tablebases`]): no search was made.
    Tablebase,
}

/// What each finished iteration reports.
#[derive(Clone, Debug)]
pub struct Info<'a> {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score of the best move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far (wall clock: for display only).
    pub nps: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: &'a [Move],
    /// Transposition table use, in permille.
    pub hashfull: u32,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best_move: Option<Move>,
    /// Its score (from the last finished iteration, or the part of an unfinished one that changed it).
    pub score: Score,
    /// The last finished iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Why the search stopped.
    pub stop: StopReason,
}

/// The ply of a position in its game, derived from its move counters: `2·(fullmove − 1)`, plus one when
/// Black is to move. With the seed it seeds the search's generator.
pub fn game_ply(pos: &Position) -> u64 {
    2 * (pos.fullmove_number() as u64).saturating_sub(1) + (pos.turn() == Color::Black) as u64
}

/// The engine: a transposition table and the move-ordering memory, reused from search to search.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_search::{Limits, Options, Searcher};
/// let pos = start::chess();
/// let mut searcher = Searcher::new(1);
/// let limits = Limits { depth: Some(4), ..Limits::default() };
/// let result = searcher.search(&pos, &[], &limits, &Options::default(), |info| println!("depth {}", info.depth));
/// assert_eq!(result.depth, 4);
/// assert!(result.best_move.is_some());
/// ```
#[derive(Debug)]
pub struct Searcher {
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
    history: Vec<i32>,
    cont: Vec<i16>,
    killers: Vec<[Option<Move>; 2]>,
    lists: Vec<Vec<(Move, i32)>>,
    tablebases: Option<Arc<Tablebases>>,
}

impl Searcher {
    /// An engine with a transposition table of `hash_mb` megabytes.
    ///
    /// # Panics
    /// If the table's memory cannot be allocated; [`Searcher::try_new`] reports it instead.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::try_new(hash_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with a table of `hash_mb` megabytes, or an error if that memory cannot be had (for
    /// sizes that come from users).
    ///
    /// # Errors
    /// [`TableAllocError`] when the table cannot be allocated.
    pub fn try_new(hash_mb: usize) -> Result<Searcher, TableAllocError> {
        Searcher::try_new_with_stop(hash_mb, Arc::new(AtomicBool::new(false)))
    }

    /// [`Searcher::try_new`] with a stop flag the caller already holds (a handle that raises it before
    /// the searcher exists).
    pub(crate) fn try_new_with_stop(hash_mb: usize, stop: Arc<AtomicBool>) -> Result<Searcher, TableAllocError> {
        Ok(Searcher {
            tt: TranspositionTable::try_new(hash_mb)?,
            stop,
            history: Vec::new(),
            cont: Vec::new(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            tablebases: None,
        })
    }

    /// Replaces the transposition table by an empty one of `hash_mb` megabytes.
    ///
    /// # Panics
    /// If the memory cannot be allocated (the old table is freed first).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(1);
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// The transposition table's size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.tt.megabytes()
    }

    /// Forgets everything learnt: the transposition table, history (continuation history too) and
    /// killers. After this, a search depends only on its arguments.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        // The next search allocates it again, zeroed.
        self.cont = Vec::new();
        self.killers.fill([None; 2]);
    }

    /// Gives the searcher endgame tables (`None`, the default, takes them away); they stay through
    /// [`Searcher::clear`] and [`Searcher::resize`].
    ///
    /// With tables, a root position that a loaded table covers is answered by the table's best move
    /// ([`Tablebases::best_move`]: the fastest mate when winning, the longest resistance when losing, a
    /// move that holds the draw) without a search: the result's score is the table's exact mate
    /// ([`Score::Mate`] in moves, or `Cp(0)` for a draw), its principal variation the table's line to
    /// mate, its stop reason [`StopReason::Tablebase`], and `on_iteration` hears of it once (depth 1, no
    /// nodes). A root restricted by [`Limits::root_moves`] is searched as usual, and so is a won root
    /// whose mate is longer than what is left of the fifty moves (halfmove clock + plies to mate > 100).
    /// Inside the search, a node with at most four pieces whose position a loaded table covers takes the
    /// table's value instead of being searched: [`TABLE_WIN`] less the plies to mate for a win (the
    /// negation for a loss), 0 for a draw, a band just below the mate scores that depends on the position
    /// alone, so it is consistent in the transposition table whatever the ply; a search that converts
    /// into a table's win reports it as such a large centipawn score (as engines do with Syzygy wins).
    ///
    /// Tables ignore the 50-move rule and repetitions (as every distance-to-mate table does): the
    /// search still scores a position with a halfmove clock of 100 as drawn, but a table's value deeper
    /// in the tree may be a mate longer than what is left of the fifty moves.
    ///
    /// Without tables, searches are exactly as before (the bench signature is unchanged).
    ///
    /// # Examples
    /// ```
    /// use std::sync::Arc;
    /// use tesseract_board::{Position, Shape};
    /// use tesseract_search::{Limits, Options, Score, Searcher, StopReason};
    /// use tesseract_tablebase::Tablebases;
    /// let mut tables = Tablebases::new();
    /// tables.generate(Shape::CHESS, &"KRK".parse()?, &Default::default(), &|_| {})?;
    /// let mut searcher = Searcher::new(1);
    /// searcher.set_tablebases(Some(Arc::new(tables)));
    /// let pos: Position = "8/8/8/8/8/2k5/8/K6R w - - 0 1".parse()?;
    /// let result = searcher.search(&pos, &[], &Limits::default(), &Options::default(), |_| {});
    /// assert_eq!(result.stop, StopReason::Tablebase);
    /// assert!(matches!(result.score, Score::Mate(n) if n > 0));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>) {
        self.tablebases = tables.filter(|t| !t.is_empty());
    }

    /// The tables given by [`Searcher::set_tablebases`], if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// A flag that stops the running search when set (from another thread); each search lowers it when
    /// it starts.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Searches `pos` and returns the best move.
    ///
    /// `history` holds the hashes ([`Position::hash`]) of the game's earlier positions, oldest first,
    /// for repetition draws. `on_iteration` is called after each finished iteration. The
    /// transposition table and the history tables (halved; on 2D boards the continuation history too)
    /// carry over from earlier searches unless
    /// [`Searcher::clear`] is called (killers and countermoves start empty in every search); clear before
    /// each search for results that depend only on the arguments (the tiers do).
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        options: &Options,
        mut on_iteration: impl FnMut(&Info<'_>),
    ) -> SearchResult {
        let start = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        self.tt.new_search();
        let cells = pos.geometry().cells();
        if self.history.len() != 32 * cells {
            self.history = vec![0; 32 * cells];
        } else {
            for h in &mut self.history {
                *h /= 2;
            }
        }
        let cont_len = if Tuning::of(pos).continuation_history && options.features.continuation_history {
            CONT_PLIES * (PIECES * cells).pow(2)
        } else {
            0
        };
        if self.cont.len() != cont_len {
            self.cont = vec![0; cont_len];
        } else {
            for h in &mut self.cont {
                *h /= 2;
            }
        }
        self.killers.fill([None; 2]);
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed ^ game_ply(pos).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let noise_key = rng.next_u64();
        let mut hashes = Vec::with_capacity(history.len() + MAX_PLY + 2);
        hashes.extend_from_slice(history);
        hashes.push(pos.hash());
        let mut w = Worker {
            pos: pos.clone(),
            t: options.weights.as_ref().map_or_else(|| Tables::of(pos.shape()), |w| Tables::with(pos.shape(), w)),
            tt: &mut self.tt,
            history: &mut self.history,
            cont: &mut self.cont,
            killers: &mut self.killers,
            lists: &mut self.lists,
            stop: &self.stop,
            tables: self.tablebases.as_deref(),
            hashes,
            pv: vec![[NO_MOVE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 1],
            quiets: Vec::with_capacity(64 * (MAX_PLY + 1)),
            root: Vec::new(),
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| start + t),
            aborted: None,
            seldepth: 0,
            noise: options.noise.clamp(0, MAX_NOISE),
            features: options.features,
            noise_key,
            lmr: lmr_table(),
            iter_best: None,
            null_at: [false; MAX_PLY + 1],
            tuning: Tuning::of(pos),
            played: Vec::with_capacity(MAX_PLY + 2),
            countermoves: if Tuning::of(pos).countermoves { vec![None; 32 * cells] } else { Vec::new() },
        };
        w.init_root(&mut rng);
        let restricted = limits.root_moves.as_ref().is_some_and(|keep| {
            let before = w.root.len();
            if w.root.iter().any(|r| keep.contains(&r.mv)) {
                w.root.retain(|r| keep.contains(&r.mv));
            }
            w.root.len() < before
        });
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let mut result = SearchResult {
            best_move: w.root.first().map(|r| r.mv),
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: w.root.first().map(|r| vec![r.mv]).unwrap_or_default(),
            stop: StopReason::Depth,
        };
        if w.root.is_empty() || (w.root.len() == 1 && !restricted) {
            result.score = Score::from_value(if w.root.is_empty() && w.pos.is_check() { -MATE } else { 0 });
            result.stop = StopReason::Forced;
            if w.root.is_empty() {
                return result;
            }
        }
        if !restricted {
            if let Some((best, score, pv)) = w.tables.and_then(|t| table_answer(t, pos)) {
                result =
                    SearchResult { best_move: Some(best), score, depth: 1, nodes: 0, pv, stop: StopReason::Tablebase };
                let elapsed = start.elapsed();
                on_iteration(&Info {
                    depth: 1,
                    seldepth: result.pv.len() as u32,
                    score,
                    nodes: 0,
                    nps: 0,
                    elapsed,
                    pv: &result.pv,
                    hashfull: w.tt.hashfull(),
                });
                return result;
            }
        }
        let mut score: i32 = 0;
        let mut stability = Stability::default();
        for depth in 1..=max_depth {
            let soft = limits.soft_nodes.map(|soft| if limits.paced { paced(soft, &stability) } else { soft });
            if depth > 1 && soft.is_some_and(|soft| w.nodes >= soft) {
                result.stop = StopReason::SoftNodes;
                break;
            }
            let mut delta = ASPIRATION_DELTA;
            let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && score.abs() < MATE_BOUND {
                (score - delta, score + delta)
            } else {
                (-INF, INF)
            };
            loop {
                let v = w.root_search(depth as i32, alpha, beta);
                if w.aborted.is_some() {
                    break;
                }
                if v <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (v - delta).max(-INF);
                } else if v >= beta {
                    beta = (v + delta).min(INF);
                } else {
                    score = v;
                    break;
                }
                delta += delta;
            }
            if let Some(reason) = w.aborted {
                // A move of the unfinished iteration that beat the previous best (searched first) counts.
                if let Some((i, v)) = w.iter_best.filter(|&(i, _)| i > 0) {
                    result.best_move = Some(w.root[i].mv);
                    result.score = Score::from_value(v);
                    result.pv = w.root_pv(i);
                }
                result.stop = reason;
                break;
            }
            w.finish_iteration();
            result.best_move = Some(w.root[0].mv);
            result.score = Score::from_value(score);
            result.depth = depth;
            result.pv = w.root_pv(0);
            stability.update(result.best_move, result.score);
            let elapsed = start.elapsed();
            on_iteration(&Info {
                depth,
                seldepth: w.seldepth as u32,
                score: result.score,
                nodes: w.nodes,
                nps: nps(w.nodes, elapsed),
                elapsed,
                pv: &result.pv,
                hashfull: w.tt.hashfull(),
            });
            if result.stop == StopReason::Forced {
                break;
            }
            // A mate found within the depth cannot get shorter by searching deeper, if the search were
            // full-width; with pruning and reductions a shorter one may still show, so deepen well past
            // twice its distance first (mate safety), rather than stop at once.
            let mate_plies = MATE - score.abs();
            let stop_after = if w.features.mate_safety { 2 * mate_plies + MATE_STOP_EXTRA_PLIES } else { mate_plies };
            if score.abs() >= MATE_BOUND && stop_after < depth as i32 {
                break;
            }
        }
        result.nodes = w.nodes;
        result
    }
}

/// A soft node limit paced by the iterations so far ([`Limits::paced`]), at most `u64::MAX`.
fn paced(soft: u64, stability: &Stability) -> u64 {
    u64::try_from(u128::from(soft) * u128::from(stability.soft_permille()) / 1000).unwrap_or(u64::MAX)
}

/// The tables' answer at the root: their best move, the exact score (mate in moves, or 0 for a draw) and
/// the line of perfect play (to mate; the move alone for a draw). `None` when no table covers the
/// position, the game is over, or a win's mate would come after the fifty-move rule allows a claim.
fn table_answer(tables: &Tablebases, pos: &Position) -> Option<(Move, Score, Vec<Move>)> {
    let here = tables.probe(pos)?;
    if here.wdl == Wdl::Win && pos.halfmove_clock() + here.plies? > 100 {
        // The opponent could claim a draw before the mate: let the search judge.
        return None;
    }
    let (best, _) = tables.best_move(pos)?;
    let (score, pv) = match (here.wdl, here.plies) {
        (Wdl::Win, Some(p)) => (Score::Mate(p.div_ceil(2) as i32), tables.mating_line(pos)),
        (Wdl::Loss, Some(p)) => (Score::Mate(-((p / 2) as i32)), tables.mating_line(pos)),
        _ => (Score::Cp(0), vec![best]),
    };
    // The line starts with the best move (the same choice); keep that true whatever the line says.
    let pv = if pv.first() == Some(&best) { pv } else { vec![best] };
    Some((best, score, pv))
}

/// Nodes per second.
fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / micros
}

/// `round(1024 · ln i)` for i in 0..64 (0 for i = 0): integer logarithms keep the reduction table the same
/// on every platform (no floating-point library in the search).
const LN_1024: [u32; 64] = [
    0, 0, 710, 1125, 1420, 1648, 1835, 1993, 2129, 2250, 2358, 2455, 2545, 2627, 2702, 2773, 2839, 2901, 2960, 3015,
    3068, 3118, 3165, 3211, 3254, 3296, 3336, 3375, 3412, 3448, 3483, 3516, 3549, 3580, 3611, 3641, 3670, 3698, 3725,
    3751, 3777, 3803, 3827, 3851, 3875, 3898, 3921, 3943, 3964, 3985, 4006, 4026, 4046, 4066, 4085, 4104, 4122, 4140,
    4158, 4175, 4193, 4210, 4226, 4243,
];

/// The late-move reduction table, `[draft][move index]`: `⌊base + ln(draft) · ln(index) / divisor⌋` with
/// [`LMR_BASE_PERCENT`] and [`LMR_DIVISOR_PERCENT`], in integer arithmetic (`LN_1024` is `1024 · ln`).
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    // r = (base·divisor·1024² + ln·ln·100²) / (divisor·1024²·100): the formula above with base and divisor
    // in hundredths and the logarithms in 1024ths, numerator and denominator multiplied by 100² · 1024².
    let scale = 1024 * 1024;
    let numerator_base = LMR_BASE_PERCENT * LMR_DIVISOR_PERCENT * scale;
    let denominator = LMR_DIVISOR_PERCENT * scale * 100;
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((numerator_base + LN_1024[d] as u64 * LN_1024[m] as u64 * 100 * 100) / denominator) as u8;
        }
    }
    t
}

/// Plies of quiescence search with every capture; deeper, only recaptures on the last capture's cell.
const QS_RECAPTURES_AFTER: u32 = 4;
/// Late-move reductions: `base + ln(draft) · ln(index) / divisor` plies, both in hundredths (0.75, 2.25).
const LMR_BASE_PERCENT: u64 = 75;
const LMR_DIVISOR_PERCENT: u64 = 225;
/// Late-move reductions: the shallowest draft reduced, and at the root the first move index reduced (the
/// root's reduction is one ply less than the table's).
const LMR_MIN_DEPTH: i32 = 3;
const LMR_ROOT_MIN_INDEX: usize = 4;
/// Late-move reductions: a quiet move's history score changes its reduction by one ply per this much,
/// at most [`LMR_HISTORY_MAX_PLIES`] either way.
const LMR_HISTORY_PER_PLY: i32 = 4096;
const LMR_HISTORY_MAX_PLIES: i32 = 2;
/// History: a quiet move that cuts off earns `draft²`, at most this much (the moves tried before it lose
/// as much).
const HISTORY_BONUS_MAX: i32 = 400;

// The search's margins and reductions, named so that a tuning change is a one-line diff (the crate docs
// describe each rule). Drafts are in plies, margins in centipawns.

/// The half-width of the first aspiration window around the previous iteration's score.
const ASPIRATION_DELTA: i32 = 35;
/// The first depth searched inside an aspiration window.
const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Reverse futility: the deepest draft, and the margin per ply of draft.
const RFP_MAX_DEPTH: i32 = 6;
const RFP_MARGIN_PER_PLY: i32 = 80;
/// Null move: the shallowest draft; the reduction `base + draft/divisor + min((eval − beta)/per_extra,
/// max_extra)`.
const NULL_MIN_DEPTH: i32 = 3;
const NULL_BASE_REDUCTION: i32 = 3;
const NULL_DEPTH_DIVISOR: i32 = 4;
const NULL_EVAL_PER_EXTRA: i32 = 200;
const NULL_MAX_EXTRA: i32 = 3;
/// Late-move pruning: the deepest draft, and the count of quiet moves kept, `base + draft²·factor` (the
/// factor larger when the eval improves).
const LMP_MAX_DEPTH: i32 = 4;
const LMP_BASE: i32 = 4;
const LMP_FACTOR: i32 = 2;
const LMP_FACTOR_IMPROVING: i32 = 3;
/// Futility pruning of quiet moves: the deepest draft, and the margin `base + per_ply·draft`.
const FUTILITY_MAX_DEPTH: i32 = 3;
const FUTILITY_BASE: i32 = 100;
const FUTILITY_PER_PLY: i32 = 120;
/// Without a table move, drafts from this one search one ply less.
const NO_TT_MOVE_REDUCTION_DEPTH: i32 = 6;
/// Quiescence delta pruning: a capture is skipped when even this margin above its gain cannot reach alpha.
const DELTA_MARGIN: i32 = 200;
/// Mate safety: a mate `p` plies away stops iterative deepening once the depth exceeds `2p + this`.
const MATE_STOP_EXTRA_PLIES: i32 = 4;
/// Mate safety: in this many quiescence plies, a capture that gives check is spared delta pruning.
const MATE_SAFE_QS_PLIES: u32 = 1;

/// Moves picked one at a time by selection before the rest of the list is sorted.
const PICK_THEN_SORT: usize = 6;

const NO_MOVE: Move = Move::new(Cell::new(0), Cell::new(0));

const SCORE_TT: i32 = 1 << 30;
const SCORE_NOISY: i32 = 1 << 27;
const SCORE_KILLER: i32 = 1 << 26;
/// The quiet move that refuted the previous move elsewhere in the tree, ordered after the killers.
const SCORE_COUNTER: i32 = SCORE_KILLER - 1;
const SCORE_UNDER: i32 = -(1 << 28);
/// Captures that lose material in the exchange come after the quiet moves.
const SCORE_BAD_CAPTURE: i32 = -(1 << 25);
const HISTORY_MAX: i32 = 1 << 14;
/// Static-exchange pruning (2D, [`Tuning::see_pruning`]), at non-PV nodes not in check up to this draft: a
/// quiet move (not a killer or the countermove) that loses more than `SEE_QUIET_MARGIN · draft²`, and a
/// losing capture that loses more than `SEE_CAPTURE_MARGIN · draft`, in centipawns.
const SEE_PRUNE_MAX_DEPTH: i32 = 6;
const SEE_QUIET_MARGIN: i32 = 25;
const SEE_CAPTURE_MARGIN: i32 = 150;
/// Continuation history ([`Tuning::continuation_history`]): the moves before that a quiet move's score
/// looks back to (the opponent's last move, then one's own before it).
const CONT_PLIES: usize = 2;
/// The pieces a continuation-history row tells apart: the 6 roles of a 2D board (king, queen, rook, bishop,
/// knight, Y-pawn; [`CONT_ROLE`]) of 2 colours.
const PIECES: usize = 12;
/// A role's index among a continuation-history row's roles: the six of a 2D board, each its own. The
/// unicorn and dragon (which need three and four axes) share the knight's and the W-pawn (four axes) the
/// Y-pawn's, so the index stays in range on any board, but the history is used on 2D boards only
/// ([`Tuning::continuation_history`]), where they cannot stand.
const CONT_ROLE: [usize; 9] = [0, 1, 2, 3, 4, 4, 4, 5, 5];

/// A root move and what the iterations learnt about it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
    /// Nodes spent under this move in the current iteration (re-searches included).
    nodes: u64,
}

/// The state of one search.
struct Worker<'a> {
    pos: Position,
    t: &'static Tables,
    tt: &'a mut TranspositionTable,
    history: &'a mut [i32],
    cont: &'a mut [i16],
    killers: &'a mut [[Option<Move>; 2]],
    lists: &'a mut [Vec<(Move, i32)>],
    stop: &'a AtomicBool,
    /// The loaded endgame tables, if any.
    tables: Option<&'a Tablebases>,
    hashes: Vec<u64>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 1],
    /// Quiet moves tried at each node on the current line, for the history malus.
    quiets: Vec<Move>,
    root: Vec<RootMove>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: Option<StopReason>,
    seldepth: usize,
    noise: i32,
    features: Features,
    noise_key: u64,
    lmr: Box<[[u8; 64]; 64]>,
    /// The best root move of the current iteration so far, and its score.
    iter_best: Option<(usize, i32)>,
    /// Whether the move at each ply of the current line is a null move.
    null_at: [bool; MAX_PLY + 1],
    tuning: Tuning,
    /// The (mover's code, target cell) of each move on the current line (`(0, 0)` for a null move).
    played: Vec<(u8, u16)>,
    /// The quiet move that last refuted each (mover's code, target cell): `[code * cells + cell]`.
    countermoves: Vec<Option<Move>>,
}

/// The choices of the search that depend on the board, measured on each: Win at Chess at 500k nodes a
/// position for 2D chess, the nodes to depth 7 from the starts for 4D (the crate README has the figures).
#[derive(Copy, Clone, Debug)]
struct Tuning {
    /// Continuation history: a quiet move is ordered (and so reduced) by its history plus the scores it
    /// earned after the same (piece, target cell) of the move one ply before and of the move two plies
    /// before, each kept like the history (a bonus of draft² when it cuts, a malus for the quiet moves
    /// tried before it). On two axes (crate README, "Exchange pruning and continuation history (2D)"), in
    /// 600 games at 10,000 nodes on top of the exchange pruning, the first ply scored +29 Elo [+5, +53]; the
    /// second, on top of the first, +20 [−5, +44] and +10 [−13, +34] (seeds 1 and 2). Not tried on more
    /// axes, where its table of `2 · (12 · cells)²` entries (`2 · (18 · cells)²` to tell apart the roles of
    /// 4D) would not fit (625 cells in 4D).
    continuation_history: bool,
    /// Static-exchange pruning of quiet moves and losing captures at shallow drafts
    /// (`SEE_PRUNE_MAX_DEPTH` and the margins). On two axes, 600 games at 10,000 nodes: +29 Elo [+5, +53]
    /// (seed 1), +30 [+6, +55] (seed 2); not tried on more axes.
    see_pruning: bool,
    /// Static-eval cutoffs ("reverse futility") at shallow drafts. On two axes they cut the replies to
    /// sacrifices before the combination shows (Win at Chess at 500k nodes, measured before countermoves
    /// and the passed-pawn terms: 277 of 299 without them, 253 with them, the search otherwise the same);
    /// in 4D the search cannot afford to go without them.
    reverse_futility: bool,
    /// With mate safety, quiescence's first ply also tries the quiet moves that give check and do not
    /// hang the piece. On two axes it finds the mates and forks at the horizon that the suites are made
    /// of (Win at Chess, measured likewise: 277 with them, 267 without); in 4D, with no static-eval
    /// cutoffs either, depth 7 from the standard start took 2 to 3 times the nodes.
    quiet_checks: bool,
    /// Countermoves: the quiet move that last refuted the opponent's move (its piece and target cell) is
    /// tried right after the killers. On two axes, with the passed-pawn terms of the evaluation (also
    /// two axes only), self-play against the search without both scored 59.2%, Elo +65 [95%: +22, +111]
    /// over 200 games (the crate README); on three or four axes they are not measured yet, so not used.
    countermoves: bool,
    /// Root moves after the best are ordered for the next iteration by the nodes their searches took
    /// (a move that took long to refute is the likeliest to become best), not by their last scores,
    /// which are upper bounds all equal to alpha for most of them. On two axes Win at Chess at 500k
    /// nodes a position went from 276 to 284 of 299 with it (264 to 276 at 250k, 278 to 286 at 1M); in
    /// 4D it took 1.6 M nodes to depth 7 from the standard start instead of 350,070.
    root_by_nodes: bool,
}

impl Tuning {
    fn of(pos: &Position) -> Tuning {
        let two_axes = pos.geometry().dims() == 2;
        Tuning {
            continuation_history: two_axes,
            see_pruning: two_axes,
            reverse_futility: !two_axes,
            quiet_checks: two_axes,
            countermoves: two_axes,
            root_by_nodes: two_axes,
        }
    }
}

/// Whether an ordering score is that of a capture found to lose material by static exchange
/// ([`Worker::settle`]).
#[inline]
fn is_bad_capture_score(score: i32) -> bool {
    // The band's keys (`capture_key`) are far below its width, and history scores far above it.
    (SCORE_BAD_CAPTURE..SCORE_BAD_CAPTURE / 2).contains(&score)
}

/// A mailbox code's index among the [`PIECES`] pieces (6 roles, 2 colours), for continuation history.
#[inline]
fn piece_index(code: u8) -> usize {
    CONT_ROLE[mailbox::role(code).index()] + PIECES / 2 * ((code >> 4) & 1) as usize
}

/// A strong 64-bit mixer (SplitMix64's finaliser).
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A capture's (or queen promotion's) place within its band: most valuable victim first, then least
/// valuable capturer (MVV-LVA). Even and positive for every value the weights allow (0 to 4,000), so the
/// low bit is free for [`is_unsettled_capture`].
#[inline]
fn capture_key(victim: i32, attacker: i32) -> i32 {
    2 * (32 * victim - attacker / 8 + 512)
}

/// Whether an ordering score is that of a capture in the winning band whose static exchange is not
/// asked yet (its low bit: [`Worker::order_score`]). Between two captures of equal key, one of them
/// unsettled (possible only with weights that give two pieces values within 8 cp of each other on either
/// side of a victim's), the unsettled one comes first, where an eager score went by list order.
#[inline]
fn is_unsettled_capture(score: i32) -> bool {
    (SCORE_NOISY..SCORE_TT).contains(&score) && score & 1 == 1
}

#[inline]
fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

#[inline]
fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// The stored score of `e` (mate distances made relative to `ply`) if its bound settles the window
/// `(alpha, beta)`: exact, a lower bound at or above beta, or an upper bound at or below alpha.
#[inline]
fn tt_cutoff(e: &Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_tt(e.score, ply);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
    };
    usable.then_some(v)
}

impl Worker<'_> {
    /// Whether the search must stop now; counts the node otherwise.
    #[inline]
    fn enter(&mut self, ply: usize) -> bool {
        if self.aborted.is_some() {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = Some(StopReason::Nodes);
            return true;
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = Some(StopReason::Stopped);
                return true;
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = Some(StopReason::Time);
                return true;
            }
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        self.pv_len[ply] = 0;
        false
    }

    /// The static evaluation from the side to move's point of view, with the noise.
    #[inline]
    fn evaluate(&self) -> i32 {
        let v = eval::evaluate_with(self.t, &self.pos);
        let v = if self.pos.turn() == Color::White { v } else { -v };
        if self.noise == 0 {
            return v;
        }
        let span = 2 * self.noise as u64 + 1;
        v + (mix(self.pos.hash() ^ self.noise_key) % span) as i32 - self.noise
    }

    /// Whether the current position is dead by the rules, the game drawn: kings alone, or on 8×8 a lone
    /// minor piece or bishops on squares of one color (`Legal::is_insufficient_material`, which reads
    /// the piece lists), asked with at most four pieces on the board (more bishops of one square color
    /// alone are rare; the evaluation scores them 0).
    #[inline]
    fn is_dead(&self) -> bool {
        let pieces = self.pos.piece_list(Color::White).len() + self.pos.piece_list(Color::Black).len();
        pieces == 2 || pieces <= 4 && self.pos.is_insufficient_material()
    }

    /// Whether the current position repeats one since the last irreversible move.
    fn is_repetition(&self) -> bool {
        let n = self.hashes.len();
        let cur = self.hashes[n - 1];
        let back = (self.pos.halfmove_clock() as usize).min(n - 1);
        let mut i = 4;
        while i <= back {
            if self.hashes[n - 1 - i] == cur {
                return true;
            }
            i += 2;
        }
        false
    }

    /// The value of the current position from the loaded tables, when it has at most four pieces and a
    /// table covers it: [`TABLE_WIN`] less the plies to mate for a win (its negation for a loss), 0 for a
    /// draw. The value depends on the position alone, not on the ply it is reached at, so it is stored
    /// in and read from the transposition table as it is; it stays below [`MATE_BOUND`], so that a mate
    /// the search sees on the board (exact) ranks above a table's win (which the 50-move rule may spoil).
    #[inline]
    fn table_value(&self) -> Option<i32> {
        let tables = self.tables?;
        let pieces = self.pos.piece_list(Color::White).len() + self.pos.piece_list(Color::Black).len();
        if pieces > tesseract_tablebase::MAX_PIECES {
            return None;
        }
        let probe = tables.probe(&self.pos)?;
        Some(match (probe.wdl, probe.plies) {
            (Wdl::Win, Some(p)) => TABLE_WIN - p as i32,
            (Wdl::Loss, Some(p)) => -(TABLE_WIN - p as i32),
            _ => 0,
        })
    }

    /// The victim's mailbox code if `m` captures (en passant included), else 0.
    #[inline]
    fn victim(&self, m: Move) -> u8 {
        let g = self.pos.geometry();
        let mb = self.pos.mailbox();
        let code = mb[g.padded(m.to)];
        if code != EMPTY {
            // Castling takes one's own rook: not a capture.
            return if mailbox::color(code) != self.pos.turn() { code } else { 0 };
        }
        if let Some(ep) = self.pos.en_passant() {
            if ep.target == m.to && mailbox::role(mb[g.padded(m.from)]).is_pawn() {
                let (a, b) = (g.coords(m.from), g.coords(m.to));
                if g.capture_axes().iter().any(|&k| a[k] != b[k]) {
                    return mb[g.padded(ep.victim)];
                }
            }
        }
        0
    }

    /// Whether a capture worth `victim` loses material once the exchange on its cell is played out
    /// ([`see::see`]); asked of the exchange only when the capturer is worth more than the victim. Any
    /// loss counts, also the 10 cp of a bishop taking a defended knight in 2D (5 to 30 cp between the
    /// minor pieces in 4D): the figures in the README were measured so; a margin is untried.
    #[inline]
    fn is_bad_capture(&self, m: Move, victim: i32) -> bool {
        let attacker = self.t.value_of_code(self.pos.mailbox()[self.pos.geometry().padded(m.from)]);
        attacker > victim && see::see(self.t, &self.pos, m) < 0
    }

    /// Scores the moves of `lists[ply]` for ordering.
    fn score_moves(&mut self, ply: usize, tt_move: Option<Move>) {
        let killers = self.killers[ply];
        let cells = self.t_cells();
        let counter = self.countermove_slot().and_then(|i| self.countermoves[i]);
        let bases = self.cont_bases();
        let mut tt_index = None;
        for i in 0..self.lists[ply].len() {
            let m = self.lists[ply][i].0;
            let s = if Some(m) == tt_move {
                tt_index = Some(i);
                SCORE_TT
            } else {
                let s = self.order_score(m, killers, cells, bases);
                // A quiet move, scored by its history (captures and underpromotions are far outside).
                if Some(m) == counter && s.abs() <= (1 + CONT_PLIES as i32) * HISTORY_MAX { SCORE_COUNTER } else { s }
            };
            self.lists[ply][i].1 = s;
        }
        // The table's move is the best-scored move: put it first as the first pick would ([`Worker::pick`]
        // then takes it without a look at the rest).
        if let Some(i) = tt_index {
            self.lists[ply].swap(0, i);
        }
    }

    /// The countermove table's index for the move that led to this node, if the board uses countermoves
    /// ([`Tuning::countermoves`]) and the move was not a null move.
    #[inline]
    fn countermove_slot(&self) -> Option<usize> {
        if !self.tuning.countermoves {
            return None;
        }
        match self.played.last() {
            Some(&(code, to)) if code != 0 => Some(code as usize * self.t_cells() + to as usize),
            _ => None,
        }
    }

    #[inline]
    fn t_cells(&self) -> usize {
        self.pos.geometry().cells()
    }

    /// A move's ordering score; `bases` are the node's continuation-history rows ([`Worker::cont_bases`]).
    #[inline]
    fn order_score(
        &self,
        m: Move,
        killers: [Option<Move>; 2],
        cells: usize,
        bases: [Option<usize>; CONT_PLIES],
    ) -> i32 {
        let victim = self.victim(m);
        let mover = self.pos.mailbox()[self.pos.geometry().padded(m.from)];
        match m.promotion {
            Some(Role::Queen) => {
                return SCORE_NOISY + capture_key(self.t.value_of_code(victim) + self.t.value(Role::Queen), 0);
            }
            Some(_) => return SCORE_UNDER + self.t.value_of_code(victim),
            None => {}
        }
        if victim != 0 {
            let value = self.t.value_of_code(victim);
            let key = capture_key(value, self.t.value_of_code(mover));
            // A capturer worth more than its victim may lose the exchange: that is asked of the static
            // exchange only when the capture comes up for search ([`Worker::pick`]), marked by the low bit.
            let unsettled = self.t.value_of_code(mover) > value;
            return SCORE_NOISY + key + unsettled as i32;
        }
        if killers[0] == Some(m) {
            return SCORE_KILLER + 1;
        }
        if killers[1] == Some(m) {
            return SCORE_KILLER;
        }
        let at = piece_index(mover) * cells + m.to.index();
        let cont: i32 = bases.into_iter().flatten().map(|b| self.cont[b + at] as i32).sum();
        self.history[mover as usize * cells + m.to.index()] + cont
    }

    /// The continuation-history rows of this node: one for each of the moves one and two plies before
    /// (the opponent's last move and one's own), if the board uses continuation history
    /// ([`Tuning::continuation_history`]) and the move was not a null move. A row holds a score for each
    /// (piece, target cell) of the next move.
    #[inline]
    fn cont_bases(&self) -> [Option<usize>; CONT_PLIES] {
        if self.cont.is_empty() {
            return [None; CONT_PLIES];
        }
        let cells = self.t_cells();
        let row_len = PIECES * cells;
        let table_len = row_len * row_len;
        let n = self.played.len();
        std::array::from_fn(|k| match n.checked_sub(k + 1).map(|i| self.played[i]) {
            Some((code, to)) if code != 0 => Some(k * table_len + (piece_index(code) * cells + to as usize) * row_len),
            _ => None,
        })
    }

    fn update_cont(&mut self, base: usize, m: Move, mover: u8, bonus: i32) {
        let i = base + piece_index(mover) * self.t_cells() + m.to.index();
        let h = self.cont[i] as i32;
        self.cont[i] = (h + bonus - h * bonus.abs() / HISTORY_MAX) as i16;
    }

    /// Moves the best-scored move of `lists[ply][i..]` to index `i` and returns it: a selection step for
    /// the first few moves (most nodes end there), then one sort of the rest. A capture whose static
    /// exchange was left unasked by [`Worker::order_score`] is asked now: if it loses material, it takes
    /// the place among the losing captures that an eager score would have given it, and the next best
    /// move is picked. Most nodes end on their first moves, so most exchanges are never asked; the moves
    /// come in the same order as with every exchange asked up front (the bench signature is unchanged).
    #[inline]
    fn pick(&mut self, ply: usize, i: usize) -> Move {
        if i == PICK_THEN_SORT {
            self.lists[ply][i..].sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        }
        loop {
            let list = &mut self.lists[ply];
            let mut best = i;
            // The table's move, put first by [`Worker::score_moves`], outranks every other.
            if i < PICK_THEN_SORT && list[i].1 != SCORE_TT {
                // The first of the best-scored moves, found without a branch a move.
                let mut best_score = list[i].1;
                for (j, &(_, s)) in list.iter().enumerate().skip(i + 1) {
                    let better = s > best_score;
                    best = if better { j } else { best };
                    best_score = if better { s } else { best_score };
                }
                list.swap(i, best);
            }
            let (m, score) = list[i];
            if !is_unsettled_capture(score) {
                return m;
            }
            // A capture whose exchange is not asked yet: a losing one goes down among the losing captures.
            let settled = self.settle(m, score);
            if settled >= SCORE_NOISY {
                self.lists[ply][i].1 = settled;
                return m;
            }
            let demoted = settled;
            let list = &mut self.lists[ply];
            if i < PICK_THEN_SORT {
                // Put it back where it was, so that the moves keep the order an eager score gave them.
                list.swap(i, best);
                list[best].1 = demoted;
            } else {
                list[i].1 = demoted;
                // Keep the sorted tail sorted: slide the capture down past the losing captures of its score too
                // (they were demoted before it, from earlier in the list).
                let mut k = i;
                while k + 1 < list.len() && list[k + 1].1 >= demoted {
                    list.swap(k, k + 1);
                    k += 1;
                }
            }
        }
    }

    /// The final ordering score of a capture scored with its exchange unasked ([`is_unsettled_capture`]):
    /// in the winning band if it does not lose material, else in the losing band ([`SCORE_BAD_CAPTURE`]).
    fn settle(&self, m: Move, score: i32) -> i32 {
        let settled = score - 1;
        let victim = self.t.value_of_code(self.victim(m));
        if self.is_bad_capture(m, victim) { settled - SCORE_NOISY + SCORE_BAD_CAPTURE } else { settled }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1];
        head[ply][0] = m;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    fn update_history(&mut self, m: Move, mover: u8, bonus: i32) {
        let i = mover as usize * self.t_cells() + m.to.index();
        let h = &mut self.history[i];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    #[inline]
    fn make(&mut self, m: Move) -> tesseract_board::Undo {
        let mover = self.pos.mailbox()[self.pos.geometry().padded(m.from)];
        self.played.push((mover, m.to.index() as u16));
        let undo = self.pos.make(m);
        self.hashes.push(self.pos.hash());
        undo
    }

    #[inline]
    fn unmake(&mut self, m: Move, undo: tesseract_board::Undo) {
        self.hashes.pop();
        self.played.pop();
        self.pos.unmake(m, undo);
    }

    /// Whether `m` gives check. Asked only of a move about to be pruned, so it plays the move on the
    /// board and takes it back rather than keep attack tables for every move.
    fn gives_check(&mut self, m: Move) -> bool {
        let undo = self.pos.make(m);
        let check = self.pos.is_check();
        self.pos.unmake(m, undo);
        check
    }

    /// Whether `m` promotes to a knight and gives check: the one under-promotion that mate safety keeps.
    #[inline]
    fn is_checking_knight_promotion(&mut self, m: Move) -> bool {
        m.promotion == Some(Role::Knight) && self.gives_check(m)
    }

    /// [`Self::gives_check`], remembered in `cache` so that one move is played on the board once.
    #[inline]
    fn gives_check_once(&mut self, m: Move, cache: &mut Option<bool>) -> bool {
        *cache.get_or_insert_with(|| self.gives_check(m))
    }

    /// Generates the root moves, ordered: captures and promotions by MVV-LVA (losing captures after the
    /// quiet moves), then quiet moves in an
    /// order drawn from the search's generator (the tie-break of equal moves).
    fn init_root(&mut self, rng: &mut ChaCha8Rng) {
        self.lists[0].clear();
        let list = &mut self.lists[0];
        generate::<AllMoves>(&self.pos, |pm| list.extend(pm.moves.iter().map(|&m| (m, 0))));
        let cells = self.t_cells();
        let mut keyed: Vec<(i64, Move)> = Vec::with_capacity(self.lists[0].len());
        for i in 0..self.lists[0].len() {
            let m = self.lists[0][i].0;
            let s = self.order_score(m, [None; 2], cells, [None; CONT_PLIES]);
            let s = if is_unsettled_capture(s) { self.settle(m, s) } else { s } as i64;
            keyed.push(((s << 24) + (rng.next_u32() >> 8) as i64, m));
        }
        keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        self.root = keyed.into_iter().map(|(_, mv)| RootMove { mv, score: -INF, pv: Vec::new(), nodes: 0 }).collect();
    }

    /// After an iteration: the best move first, then the others by the nodes their searches took
    /// ([`Tuning::root_by_nodes`]) or by their last scores (bounds for most); the sorts are stable.
    fn finish_iteration(&mut self) {
        if let Some((i, _)) = self.iter_best {
            let best = self.root.remove(i);
            self.root.insert(0, best);
        }
        if self.tuning.root_by_nodes {
            self.root[1..].sort_by_key(|r| std::cmp::Reverse(r.nodes));
        } else {
            self.root[1..].sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        for r in &mut self.root {
            r.nodes = 0;
        }
    }

    fn root_pv(&self, i: usize) -> Vec<Move> {
        let r = &self.root[i];
        if r.pv.is_empty() { vec![r.mv] } else { r.pv.clone() }
    }
}

// The root search and the node searches.
impl Worker<'_> {
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.iter_best = None;
        self.pv_len[0] = 0;
        let in_check = self.pos.is_check();
        self.evals[0] = if in_check { -INF } else { self.evaluate() };
        let mut best = -INF;
        for i in 0..self.root.len() {
            let m = self.root[i].mv;
            let quiet = m.promotion.is_none() && self.victim(m) == 0;
            let nodes_before = self.nodes;
            let undo = self.make(m);
            let gives_check = self.pos.is_check();
            let mut v;
            if i == 0 {
                v = -self.negamax(depth - 1, -beta, -alpha, 1, true, gives_check);
            } else {
                let mut r = 0;
                if self.features.late_move_reductions
                    && depth >= LMR_MIN_DEPTH
                    && i >= LMR_ROOT_MIN_INDEX
                    && quiet
                    && !gives_check
                    && !in_check
                {
                    r = (self.lmr[depth.min(63) as usize][i.min(63)] as i32 - 1).clamp(0, depth - 2);
                }
                v = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, 1, false, gives_check);
                if v > alpha && r > 0 && self.aborted.is_none() {
                    v = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, false, gives_check);
                }
                if v > alpha && v < beta && self.aborted.is_none() {
                    v = -self.negamax(depth - 1, -beta, -alpha, 1, true, gives_check);
                }
            }
            self.unmake(m, undo);
            self.root[i].nodes += self.nodes - nodes_before;
            if self.aborted.is_some() {
                return best;
            }
            self.root[i].score = v;
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                self.update_pv(0, m);
                self.root[i].pv = self.pv[0][..self.pv_len[0]].to_vec();
                self.iter_best = Some((i, v));
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        in_check: bool,
    ) -> i32 {
        // Draws by the rules come first, so that they count at the horizon too (a checkmate on the
        // hundredth ply still counts: in check, the search goes on).
        let fifty = self.pos.halfmove_clock() >= 100;
        if self.is_dead() || self.is_repetition() || (fifty && !in_check) {
            return 0;
        }
        if self.tables.is_some() && !fifty {
            if let Some(v) = self.table_value() {
                return if self.enter(ply) { 0 } else { v };
            }
        }
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, in_check, 0, None);
        }
        if self.enter(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let hash = self.pos.hash();
        let entry = self.tt.probe(hash);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth {
                if let Some(v) = tt_cutoff(&e, ply, alpha, beta) {
                    return v;
                }
            }
        }

        let eval = if in_check {
            -INF
        } else if let Some(e) = entry {
            e.eval
        } else {
            self.evaluate()
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        let us = self.pos.turn();

        // Mate safety: when beta is a mated score, only a search proves the mate is escaped.
        let safe = self.features.mate_safety;
        let mated_beta = safe && beta <= -MATE_BOUND;
        if !pv_node && !in_check && !mated_beta {
            // Reverse futility: the static eval is so far above beta that a quiet move will keep it there.
            if self.features.futility
                && self.tuning.reverse_futility
                && depth <= RFP_MAX_DEPTH
                && eval - RFP_MARGIN_PER_PLY * (depth - improving as i32) >= beta
                && eval.abs() < MATE_BOUND
            {
                return eval;
            }
            // Null move.
            if self.features.null_move
                && depth >= NULL_MIN_DEPTH
                && eval >= beta
                && !self.last_was_null(ply)
                && eval::has_pieces(&self.pos, us)
            {
                let r = NULL_BASE_REDUCTION
                    + depth / NULL_DEPTH_DIVISOR
                    + ((eval - beta) / NULL_EVAL_PER_EXTRA).min(NULL_MAX_EXTRA);
                // Mate safety: at least one full ply, so a mate-in-one threat is seen (quiescence alone
                // would stand pat on it).
                let null_depth = if safe { (depth - 1 - r).max(1) } else { depth - 1 - r };
                let undo = self.pos.make_null();
                self.hashes.push(self.pos.hash());
                self.played.push((0, 0));
                self.null_at[ply] = true;
                let v = -self.negamax(null_depth, -beta, -beta + 1, ply + 1, false, false);
                self.null_at[ply] = false;
                self.hashes.pop();
                self.played.pop();
                self.pos.unmake_null(undo);
                if self.aborted.is_some() {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Generate and order.
        self.lists[ply].clear();
        {
            let list = &mut self.lists[ply];
            generate::<AllMoves>(&self.pos, |pm| list.extend(pm.moves.iter().map(|&m| (m, 0))));
        }
        if self.lists[ply].is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if fifty {
            return 0;
        }
        self.score_moves(ply, tt_move);
        if tt_move.is_none() && depth >= NO_TT_MOVE_REDUCTION_DEPTH {
            depth -= 1;
        }

        let quiets_start = self.quiets.len();
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_seen = 0i32;
        let original_alpha = alpha;
        let lmp_limit = LMP_BASE + depth * depth * if improving { LMP_FACTOR_IMPROVING } else { LMP_FACTOR };
        // Mate safety: with a mate in hand, a quiet move may still mate sooner; prune none.
        let may_prune_quiets = !(safe && alpha >= MATE_BOUND);
        let n = self.lists[ply].len();
        for i in 0..n {
            let m = self.pick(ply, i);
            let order = self.lists[ply][i].1;
            let victim = self.victim(m);
            let quiet = victim == 0 && m.promotion.is_none();
            let mover = self.pos.mailbox()[self.pos.geometry().padded(m.from)];
            if quiet {
                quiets_seen += 1;
            }
            if !pv_node && !in_check && best > -MATE_BOUND && quiet && order < SCORE_COUNTER && may_prune_quiets {
                let prune = (self.features.late_move_pruning && depth <= LMP_MAX_DEPTH && quiets_seen > lmp_limit)
                    || (self.features.futility
                        && depth <= FUTILITY_MAX_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_PER_PLY * depth <= alpha);
                // Mate safety: a move that gives check is never pruned blind.
                if prune && !(safe && self.gives_check(m)) {
                    continue;
                }
            }
            // Static-exchange pruning (2D): a move that loses too much material for the draft left.
            if self.tuning.see_pruning
                && self.features.see_pruning
                && !pv_node
                && !in_check
                && best > -MATE_BOUND
                && depth <= SEE_PRUNE_MAX_DEPTH
                && may_prune_quiets
                && m.promotion.is_none()
            {
                let prune = if quiet {
                    order < SCORE_COUNTER && see::see(self.t, &self.pos, m) < -SEE_QUIET_MARGIN * depth * depth
                } else {
                    is_bad_capture_score(order) && see::see(self.t, &self.pos, m) < -SEE_CAPTURE_MARGIN * depth
                };
                // Mate safety: a move that gives check is never pruned blind.
                if prune && !(safe && self.gives_check(m)) {
                    continue;
                }
            }
            // Under-promotions are pruned away from the principal variation, unless (mate safety) it is a
            // knight's that gives check (the queen moves along every line of the other pieces, so only the
            // knight can check where she does not).
            if m.promotion.is_some_and(|p| p != Role::Queen)
                && !pv_node
                && best > -MATE_BOUND
                && !in_check
                && !(safe && self.is_checking_knight_promotion(m))
            {
                continue;
            }
            let undo = self.make(m);
            let gives_check = self.pos.is_check();
            let mut v;
            if searched == 0 {
                v = -self.negamax(depth - 1, -beta, -alpha, ply + 1, pv_node, gives_check);
            } else {
                let mut r = 0;
                if self.features.late_move_reductions && depth >= LMR_MIN_DEPTH && quiet && !gives_check {
                    r = self.lmr[depth.min(63) as usize][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if order >= SCORE_COUNTER {
                        r -= 1;
                    } else {
                        r -= (order / LMR_HISTORY_PER_PLY).clamp(-LMR_HISTORY_MAX_PLIES, LMR_HISTORY_MAX_PLIES);
                    }
                    if !improving {
                        r += 1;
                    }
                    if in_check {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                v = -self.negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1, false, gives_check);
                if v > alpha && r > 0 && self.aborted.is_none() {
                    v = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1, false, gives_check);
                }
                if pv_node && v > alpha && v < beta && self.aborted.is_none() {
                    v = -self.negamax(depth - 1, -beta, -alpha, ply + 1, true, gives_check);
                }
            }
            self.unmake(m, undo);
            if self.aborted.is_some() {
                self.quiets.truncate(quiets_start);
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        if quiet {
                            if self.killers[ply][0] != Some(m) {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = Some(m);
                            }
                            if let Some(i) = self.countermove_slot() {
                                self.countermoves[i] = Some(m);
                            }
                            let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
                            self.update_history(m, mover, bonus);
                            let bases = self.cont_bases();
                            for b in bases.into_iter().flatten() {
                                self.update_cont(b, m, mover, bonus);
                            }
                            for k in quiets_start..self.quiets.len() {
                                let q = self.quiets[k];
                                let qm = self.pos.mailbox()[self.pos.geometry().padded(q.from)];
                                self.update_history(q, qm, -bonus);
                                for b in bases.into_iter().flatten() {
                                    self.update_cont(b, q, qm, -bonus);
                                }
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && self.quiets.len() < quiets_start + 64 {
                self.quiets.push(m);
            }
        }
        self.quiets.truncate(quiets_start);
        let bound = Bound::of(best, original_alpha, alpha, beta);
        self.tt.store(hash, best_move.or(tt_move), to_tt(best, ply), if in_check { 0 } else { eval }, depth, bound);
        best
    }

    fn last_was_null(&self, ply: usize) -> bool {
        ply > 0 && self.null_at[ply - 1]
    }

    fn qsearch(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        qdepth: u32,
        last_to: Option<Cell>,
    ) -> i32 {
        if self.enter(ply) {
            return 0;
        }
        if self.is_dead() {
            return 0;
        }
        if self.tables.is_some() && self.pos.halfmove_clock() < 100 {
            if let Some(v) = self.table_value() {
                return v;
            }
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let hash = self.pos.hash();
        let entry = self.tt.probe(hash);
        if let Some(v) = entry.and_then(|e| tt_cutoff(&e, ply, alpha, beta)) {
            return v;
        }
        let tt_move = entry.and_then(|e| e.mv);
        let mut best;
        let stand;
        self.lists[ply].clear();
        if in_check {
            stand = -INF;
            best = -INF;
            let list = &mut self.lists[ply];
            generate::<AllMoves>(&self.pos, |pm| list.extend(pm.moves.iter().map(|&m| (m, 0))));
            if self.lists[ply].is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            stand = match entry {
                Some(e) => e.eval,
                None => self.evaluate(),
            };
            if stand >= beta {
                if entry.is_none() {
                    self.tt.store(hash, None, to_tt(stand, ply), stand, 0, Bound::Lower);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            let list = &mut self.lists[ply];
            if qdepth == 0 && self.tuning.quiet_checks && self.features.mate_safety {
                generate::<AllMoves>(&self.pos, |pm| list.extend(pm.moves.iter().map(|&m| (m, 0))));
            } else {
                generate::<Noisy>(&self.pos, |pm| list.extend(pm.moves.iter().map(|&m| (m, 0))));
            }
        }
        self.score_moves(ply, tt_move);
        let original_alpha = alpha;
        let mut best_move = None;
        let n = self.lists[ply].len();
        for i in 0..n {
            let m = self.pick(ply, i);
            let order = self.lists[ply][i].1;
            if !in_check {
                // Whether the move gives check, asked at most once a move.
                let mut checks = None;
                if m.promotion.is_some_and(|p| p != Role::Queen)
                    && !(self.features.mate_safety
                        && m.promotion == Some(Role::Knight)
                        && self.gives_check_once(m, &mut checks))
                {
                    continue;
                }
                if qdepth >= QS_RECAPTURES_AFTER && last_to.is_some_and(|c| c != m.to) {
                    continue;
                }
                let victim_code = self.victim(m);
                let victim = self.t.value_of_code(victim_code);
                let gain = victim + m.promotion.map_or(0, |p| self.t.value(p) - self.t.value(Role::YPawn));
                // Whether the capture loses material by exchange: its ordering score says so (a losing capture
                // is scored below zero, every other capture far above), except for the table's move.
                let losing = |w: &Self| {
                    m.promotion.is_none() && if order == SCORE_TT { w.is_bad_capture(m, victim) } else { order < 0 }
                };
                let prune = if victim_code == 0 && m.promotion.is_none() {
                    // A quiet move (generated only where quiet checks are tried): a check that does not
                    // hang the piece, or nothing.
                    !self.gives_check_once(m, &mut checks) || see::see(self.t, &self.pos, m) < 0
                } else if stand + gain + DELTA_MARGIN <= alpha {
                    // Mate safety: a capture (or knight promotion) that gives check may mate though it wins
                    // little, so in the first quiescence plies delta pruning spares it, unless it loses
                    // material (sparing every checking capture at every ply cost 1.4 to 2.4 times the
                    // nodes to depth 7 from the 4D starts).
                    !(self.features.mate_safety
                        && qdepth < MATE_SAFE_QS_PLIES
                        && !losing(self)
                        && self.gives_check_once(m, &mut checks))
                } else {
                    losing(self)
                };
                if prune {
                    continue;
                }
            }
            let undo = self.make(m);
            let gives_check = self.pos.is_check();
            let v = -self.qsearch(-beta, -alpha, ply + 1, gives_check, qdepth + 1, Some(m.to));
            self.unmake(m, undo);
            if self.aborted.is_some() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(m);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, original_alpha, alpha, beta);
        self.tt.store(hash, best_move, to_tt(best, ply), if in_check { 0 } else { stand }, 0, bound);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_rows_tell_apart_the_pieces_of_a_2d_board_and_stay_in_range() {
        let two_d = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::YPawn];
        let mut seen = std::collections::HashSet::new();
        for color in Color::ALL {
            for role in Role::ALL {
                let i = piece_index(mailbox::code(color, role));
                assert!(i < PIECES, "{color:?} {role:?}: {i}");
                if two_d.contains(&role) {
                    assert!(seen.insert(i), "{color:?} {role:?} shares row {i}");
                }
            }
        }
        assert_eq!(seen.len(), PIECES);
    }
}
