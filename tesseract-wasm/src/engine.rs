//! [`Engine`]: the chess engine of `tesseract-search` at a tier, in the shape of the JavaScript class
//! `Engine`.
#![forbid(unsafe_code)]

use serde_json::json;
use tesseract_board::TextMove;
use tesseract_movegen::legal_moves;
use tesseract_search::{Searcher, Tier, describe};
use web_time::Instant;

use crate::Chess;

/// The engine: a [`Searcher`] kept between moves, so that a Web Worker holding one `Engine` allocates
/// its transposition table once per tier rather than once per move.
#[derive(Debug, Default)]
pub struct Engine {
    searcher: Option<Searcher>,
}

impl Engine {
    /// An engine with no table yet: the first [`Engine::think`] allocates the tier's.
    pub fn new() -> Engine {
        Engine { searcher: None }
    }

    /// The engine's move for the side to move in `game` at `tier` (`beginner`, `club`, `expert` or
    /// `master`), as [`tesseract_search::Game::think`] chooses it: the tier's deterministic budget, and
    /// its wall-clock guard (at most 3.5 s for the master; a move cut short by the guard is the one case
    /// a replay may not reproduce).
    ///
    /// Returns JSON `{"move": "e2e4", "score": "cp 23", "depth": 6, "nodes": 12345, "ms": 80, "words":
    /// "about even, looking 6 moves ahead"}`: the move text (RULES.md §4), the score from the side to
    /// move's view (`cp N`, or `mate N`, negative when it is the side to move that gets mated), the last
    /// finished iteration, the nodes searched, the milliseconds spent, and the score in words for people
    /// ([`tesseract_search::describe`]: "White is better by about 1.7 pawns, looking 6 moves ahead"). The
    /// game itself is unchanged: play the move with [`Chess::play`].
    ///
    /// # Errors
    /// An unknown tier name; a game with no legal move (checkmate or stalemate; a game drawn by
    /// repetition or the 50-move rule still has moves, and the engine gives one); a transposition table
    /// the browser refuses to allocate (1 to 16 MB by tier; the search of a chess board takes 2.4 MB more
    /// for its continuation history, which is not checked so).
    pub fn think(&mut self, game: &Chess, tier: &str) -> Result<String, String> {
        let tier: Tier = tier.parse().map_err(|e: tesseract_search::ParseTierError| e.to_string())?;
        let game = game.game();
        let pos = game.position();
        if legal_moves(pos).is_empty() {
            let why = game.status().map_or_else(|| "no legal move".to_string(), |end| end.to_string());
            return Err(format!("the game is over ({why}): there is no move to think about"));
        }
        let hash_mb = tier.settings().hash_mb;
        let searcher = match &mut self.searcher {
            Some(s) if s.hash_mb() == hash_mb => s,
            slot => {
                // Free the old table before asking for the new one.
                *slot = None;
                slot.insert(Searcher::try_new(hash_mb).map_err(|e| e.to_string())?)
            }
        };
        let start = Instant::now();
        let result = game.think(searcher, tier, |_| {});
        let ms = start.elapsed().as_millis() as u64;
        let best = result.best_move.ok_or_else(|| "the engine found no move".to_string())?;
        Ok(json!({
            "move": TextMove::from_move(best, pos).to_string(),
            "score": result.score.to_string(),
            "depth": result.depth,
            "nodes": result.nodes,
            "ms": ms,
            "words": describe(result.score, result.depth, pos.turn()),
        })
        .to_string())
    }
}
