//! Seeded playouts (`tesseract.playouts`): the games of tesseract-search's `playout` module, numbered and
//! seeded as the `experiment` example numbers and seeds them, so that a range of games played here (in a
//! Dask worker, say) is the same as those games of an `experiment` run.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tesseract_board::start;
use tesseract_search::playout::{GameStats, Playout, Policy, game_seed};

use crate::{interrupt, stack};

/// The most games one call plays and the most plies a game lasts: the ranges of the `experiment` example.
const MAX_GAMES: u64 = 1_000_000;

/// Plays games `first_game` to `first_game + games - 1` of the run seeded `seed` from the start named
/// `start` (`light`, `standard`, `dense`, `raumschach`, `classic`, `chess960:N`), White and Black each
/// `random`, a tier (`beginner`, `club`, `expert`, `master`) or `nodes=N`; game k has the seed
/// `game_seed(seed, k)` and ends as a draw (`ply_cap`) after `max_plies` plies. Returns one dict a game,
/// in order, with the columns of the `experiment` example's CSV: start, game, seed, white, black, plies,
/// result, reason, mean_branching, max_branching, captures, promotions, checks, white_pieces,
/// black_pieces, engine_nodes. Runs without the GIL on a thread of its own; Ctrl-C stops it between games
/// (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (start, *, white="random", black="random", seed=0, first_game=0, games=1, max_plies=10_000))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn playouts(
    py: Python<'_>,
    start: &str,
    white: &str,
    black: &str,
    seed: u64,
    first_game: u64,
    games: u64,
    max_plies: u64,
) -> PyResult<Vec<Py<PyDict>>> {
    let pos = start::by_name(start).map_err(|e| PyValueError::new_err(format!("start: {e}")))?;
    let policy = |side: &str, text: &str| -> PyResult<Policy> {
        text.parse().map_err(|e| PyValueError::new_err(format!("{side}: {e}")))
    };
    let (white, black) = (policy("white", white)?, policy("black", black)?);
    let check = |name: &str, value: u64, low: u64| -> PyResult<()> {
        if (low..=MAX_GAMES).contains(&value) {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!("{name}: {value} is out of range ({low} to {MAX_GAMES})")))
        }
    };
    check("games", games, 1)?;
    check("max_plies", max_plies, 1)?;
    if first_game.checked_add(games).is_none() {
        return Err(PyValueError::new_err(format!("first_game: {first_game} is out of range")));
    }
    let stop = AtomicBool::new(false);
    let played = interrupt::run(py, stack::SEARCH, &stop, || -> PyResult<Vec<(u64, GameStats)>> {
        let mut playout = Playout::try_new(white, black)
            .map_err(|e| PyMemoryError::new_err(e.to_string()))?
            .with_max_plies(max_plies as usize);
        let mut out = Vec::with_capacity(games as usize);
        for k in first_game..first_game + games {
            if stop.load(Ordering::Relaxed) {
                return Err(PyRuntimeError::new_err("the playouts were stopped"));
            }
            out.push((k, playout.play(&pos, game_seed(seed, k))));
        }
        Ok(out)
    })??;
    played
        .into_iter()
        .map(|(k, s)| {
            let row = PyDict::new(py);
            row.set_item("start", start)?;
            row.set_item("game", k)?;
            row.set_item("seed", s.seed)?;
            row.set_item("white", s.white.to_string())?;
            row.set_item("black", s.black.to_string())?;
            row.set_item("plies", s.plies)?;
            row.set_item("result", s.result.name())?;
            row.set_item("reason", s.reason.name())?;
            row.set_item("mean_branching", s.mean_branching)?;
            row.set_item("max_branching", s.max_branching)?;
            row.set_item("captures", s.captures)?;
            row.set_item("promotions", s.promotions)?;
            row.set_item("checks", s.checks)?;
            row.set_item("white_pieces", s.white_pieces)?;
            row.set_item("black_pieces", s.black_pieces)?;
            row.set_item("engine_nodes", s.engine_nodes)?;
            Ok(row.unbind())
        })
        .collect()
}

/// The seed of game `index` of a run seeded `run_seed` (`tesseract_search::playout::game_seed`).
#[pyfunction]
pub(crate) fn playout_seed(run_seed: u64, index: u64) -> u64 {
    game_seed(run_seed, index)
}
