//! The engine of tesseract-search: `engine_play` and `engine_analyse` (`tesseract.engine.play` and
//! `tesseract.engine.analyse` in Python).

use std::sync::Arc;

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use tesseract_board::{Position, Shape};
use tesseract_movegen::legal_moves;
use tesseract_search::{Limits, Options, Score, SearchResult, Searcher, Tier};

use crate::board::Board;
use crate::moves::PyMove;
use crate::tablebase::PyTablebases;
use crate::{interrupt, stack};

/// The table of a search with explicit limits and no tier: the master's.
const FULL_HASH_MB: usize = 16;

/// What the engine found: the move, its score, the depth reached, the nodes searched and the principal
/// variation.
#[pyclass(module = "tesseract", name = "Analysis", frozen, get_all)]
#[derive(Clone, Debug)]
pub(crate) struct Analysis {
    /// The move to play.
    #[pyo3(name = "move")]
    mv: PyMove,
    /// The score from the side to move's view: `cp 23`, or `mate 3` (`mate -2` when it gets mated).
    score: String,
    /// The score in centipawns, or None for a mate score.
    cp: Option<i32>,
    /// Mate in this many moves (negative: the side to move gets mated), or None.
    mate: Option<i32>,
    /// The last iteration completed.
    depth: u32,
    /// Nodes searched.
    nodes: u64,
    /// The principal variation, starting with the move.
    pv: Vec<PyMove>,
}

#[pymethods]
impl Analysis {
    fn __repr__(&self) -> String {
        format!("<Analysis move={} score={:?} depth={} nodes={}>", self.mv.text, self.score, self.depth, self.nodes)
    }
}

/// The limits and options of a search on a board of `shape`: a tier's deterministic budget there (no
/// wall-clock guard; chess and Chess960 have their own for the lower tiers), or explicit node and depth
/// limits with a tier's evaluation noise (none without a tier).
fn settings(
    shape: Shape,
    tier: Option<&str>,
    nodes: Option<u64>,
    depth: Option<u32>,
    seed: u64,
) -> PyResult<(Limits, Options, usize)> {
    if nodes == Some(0) {
        return Err(PyValueError::new_err("nodes: expected at least 1"));
    }
    if depth == Some(0) {
        return Err(PyValueError::new_err("depth: expected at least 1"));
    }
    let tier = tier.map(|t| t.parse::<Tier>().map_err(|e| PyValueError::new_err(e.to_string()))).transpose()?;
    if nodes.is_none() && depth.is_none() {
        let tier = tier.unwrap_or(Tier::Club);
        return Ok((tier.settings_on(shape).budget(), tier.options(seed), tier.settings().hash_mb));
    }
    let limits = Limits { depth, nodes, ..Limits::default() };
    match tier {
        Some(t) => Ok((limits, t.options(seed), t.settings().hash_mb)),
        None => Ok((limits, Options { seed, ..Options::default() }, FULL_HASH_MB)),
    }
}

/// Runs the search on a copy of the board's game, without the GIL, on a thread of its own that Ctrl-C
/// stops (`KeyboardInterrupt`).
fn search(
    board: &Bound<'_, Board>,
    tier: Option<&str>,
    nodes: Option<u64>,
    depth: Option<u32>,
    seed: u64,
    tablebases: Option<PyRef<'_, PyTablebases>>,
) -> PyResult<(SearchResult, Position)> {
    let (pos, history, status) = {
        let b = board.borrow();
        (b.pos().clone(), b.game().history().to_vec(), stack::ample(|| b.game().status()))
    };
    let (limits, options, hash_mb) = settings(pos.shape(), tier, nodes, depth, seed)?;
    if stack::ample(|| legal_moves(&pos).is_empty()) {
        let why = status.map_or_else(|| "no legal move".to_string(), |end| end.to_string());
        return Err(PyValueError::new_err(format!("the game is over ({why}): there is no move to play")));
    }
    let py = board.py();
    let mut searcher = py.detach(|| Searcher::try_new(hash_mb)).map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    searcher.set_tablebases(tablebases.map(|t| Arc::clone(&t.tables)));
    // Ctrl-C raises the searcher's stop flag: the search returns within 1,024 nodes, and the call raises
    // KeyboardInterrupt.
    let stop = searcher.stop_flag();
    let result =
        interrupt::run(py, stack::SEARCH, &stop, || searcher.search(&pos, &history, &limits, &options, |_| {}))?;
    Ok((result, pos))
}

/// The engine's move for the side to move, deterministic for a given board, tier, limits and seed.
///
/// - `tier`: `beginner`, `club`, `expert` or `master`, each a node budget, a depth cap, a table size and
///   an evaluation noise (tesseract-search's `Tier`); the default, with no `nodes` or `depth`, is `club`.
/// - `nodes`, `depth`: explicit limits instead of the tier's budget; with no tier, the full-strength engine
///   (no noise, a 16 MB table).
/// - `seed`: seeds the noise of the weak tiers and the ties between root moves (a game's seed in the
///   library's records: the same board, tier and seed give the move `Game::think_unguarded` gives).
/// - `tablebases`: endgame tables (`Tablebases`) for the engine: a position they cover is answered by
///   their move with the exact mate as its score, and inside the search positions of up to four pieces
///   they cover take their values.
///
/// The search is a pure function of these (no clock), runs without the GIL, and sees the board's
/// earlier positions for repetitions. Raises ValueError for an unknown tier or a game with no legal move,
/// and KeyboardInterrupt on Ctrl-C.
#[pyfunction]
#[pyo3(signature = (board, tier=None, *, nodes=None, depth=None, seed=0, tablebases=None))]
pub(crate) fn engine_play(
    board: &Bound<'_, Board>,
    tier: Option<&str>,
    nodes: Option<u64>,
    depth: Option<u32>,
    seed: u64,
    tablebases: Option<PyRef<'_, PyTablebases>>,
) -> PyResult<PyMove> {
    let (result, pos) = search(board, tier, nodes, depth, seed, tablebases)?;
    let best = result.best_move.ok_or_else(|| PyValueError::new_err("the engine found no move"))?;
    Ok(PyMove::new(best, &pos))
}

/// As `engine_play`, with the search's findings: an `Analysis` (move, score, cp, mate, depth, nodes, pv).
#[pyfunction]
#[pyo3(signature = (board, tier=None, *, nodes=None, depth=None, seed=0, tablebases=None))]
pub(crate) fn engine_analyse(
    board: &Bound<'_, Board>,
    tier: Option<&str>,
    nodes: Option<u64>,
    depth: Option<u32>,
    seed: u64,
    tablebases: Option<PyRef<'_, PyTablebases>>,
) -> PyResult<Analysis> {
    let (result, pos) = search(board, tier, nodes, depth, seed, tablebases)?;
    let best = result.best_move.ok_or_else(|| PyValueError::new_err("the engine found no move"))?;
    let mut line = pos.clone();
    let pv = result
        .pv
        .iter()
        .map(|&m| {
            let entry = PyMove::new(m, &line);
            line.make(m);
            entry
        })
        .collect();
    let (cp, mate) = match result.score {
        Score::Cp(v) => (Some(v), None),
        Score::Mate(m) => (None, Some(m)),
    };
    Ok(Analysis {
        mv: PyMove::new(best, &pos),
        score: result.score.to_string(),
        cp,
        mate,
        depth: result.depth,
        nodes: result.nodes,
        pv,
    })
}
