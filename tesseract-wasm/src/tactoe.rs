//! [`TacToe`]: a game of Four Tac Toe (`tesseract-tactoe`) with its engine, in the shape of the JavaScript
//! class `TacToe`.
#![forbid(unsafe_code)]

use serde_json::{Value, json};
use tesseract_board::Cell;
use tesseract_tactoe::{CELLS, CENTRE, Engine, Game, Lines, Player, Strength};

use crate::args;

/// Four Tac Toe: tic-tac-toe on the 3×3×3×3 board (cells `(x−1) + 3(y−1) + 9(z−1) + 27(w−1)`, 0 to
/// 80), whose centre (cell 40, `2222`) no one may claim; X claims first, each completed line of three
/// scores a point (RULES.md §7).
///
/// Every method is the JavaScript method of the same name in camelCase (see the crate docs); an `Err`
/// is thrown there as an `Error` with the same message. A method that fails changes nothing.
#[derive(Debug, Default)]
pub struct TacToe {
    game: Game,
    /// The engine of the last level asked for, kept with its 2 MiB table.
    engine: Option<(u8, Engine)>,
}

impl TacToe {
    /// An empty board, X to claim.
    pub fn new() -> TacToe {
        TacToe { game: Game::new(), engine: None }
    }

    /// The state written by [`TacToe::text`] (the crate's text form: placement and side to move). The
    /// game read has no claims to undo.
    ///
    /// # Errors
    /// What is wrong with the text, and where.
    pub fn from_text(text: &str) -> Result<TacToe, String> {
        let game = Game::from_text(text).map_err(|e| format!("not a Four Tac Toe state: {e}"))?;
        Ok(TacToe { game, engine: None })
    }

    /// The state in the crate's text form (`tesseract_tactoe::text`).
    pub fn text(&self) -> String {
        self.game.text()
    }

    /// Who claims next: `X` or `O` (`X` again once the board is full, since 80 is even).
    pub fn to_move(&self) -> String {
        self.game.to_move().char().to_string()
    }

    /// 81 characters in cell order: `X`, `O`, `.` for a free cell, `#` for the centre.
    pub fn owners(&self) -> String {
        (0..CELLS)
            .map(|i| {
                let cell = Cell::new(i as u16);
                match self.game.owner(cell) {
                    Some(p) => p.char(),
                    None if cell == CENTRE => '#',
                    None => '.',
                }
            })
            .collect()
    }

    /// Whether `cell` can be claimed now: a cell index of the board, not the centre, free, and the game
    /// not over. Any other number answers `false`.
    pub fn can_claim(&self, cell: f64) -> bool {
        args::whole_below(cell, CELLS).is_some_and(|i| self.game.can_claim(Cell::new(i as u16)))
    }

    /// The side to move claims `cell` and scores one point per line the claim completes; returns those
    /// points.
    ///
    /// # Errors
    /// `cell` is not a cell index, is the centre or taken, or the game is over (the message of
    /// [`tesseract_tactoe::ClaimError`]); the game is unchanged.
    pub fn claim(&mut self, cell: f64) -> Result<u32, String> {
        let cell = args::cell(cell, CELLS)?;
        self.game.claim(Cell::new(cell as u16)).map(|c| c.points()).map_err(|e| e.to_string())
    }

    /// Takes back the last claim and returns its cell; −1 when there is none (a new game, or one read
    /// from text).
    pub fn undo(&mut self) -> i32 {
        self.game.undo().map_or(-1, |c| c.cell.index() as i32)
    }

    /// The scores as JSON `[x, o]`.
    pub fn scores(&self) -> String {
        json!(self.game.scores()).to_string()
    }

    /// Whether all 80 claimable cells are taken.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// `None` before the end; then `X wins`, `O wins` or `draw`.
    pub fn outcome(&self) -> Option<String> {
        self.game.outcome().map(|o| o.to_string())
    }

    /// The cell the engine would claim for the side to move at `level`, 1 (depth 1) to 5 (depth 6 within
    /// 500,000 nodes), as [`Strength::level`] defines them; deterministic (nodes, never time). The game is
    /// unchanged: claim the cell with [`TacToe::claim`].
    ///
    /// # Errors
    /// A level that is not a whole number from 1 to 5, or a finished game.
    pub fn engine_move(&mut self, level: f64) -> Result<u32, String> {
        let strength = args::whole_below(level, usize::from(Strength::MAX_LEVEL) + 1)
            .and_then(|l| Strength::level(l as u8).map(|s| (l as u8, s)));
        let Some((level, strength)) = strength else {
            return Err(format!(
                "the level must be a whole number from {} to {}; got {level}",
                Strength::MIN_LEVEL,
                Strength::MAX_LEVEL
            ));
        };
        let engine = match &mut self.engine {
            Some((l, e)) if *l == level => e,
            slot => &mut slot.insert((level, Engine::new(strength))).1,
        };
        let cell =
            engine.best_move(&self.game).ok_or_else(|| "the game is over: no cell is left to claim".to_string())?;
        Ok(cell.index() as u32)
    }

    /// Every completed line with its owner, as a JSON array of `{"cells": [i, j, k], "player": "X"}`, in
    /// line order.
    pub fn completed_lines(&self) -> String {
        let lines = Lines::get();
        let list: Vec<Value> = self
            .game
            .completed_lines()
            .into_iter()
            .map(|(id, player)| {
                let cells = lines.line(id).cells().map(|c| c.index());
                json!({"cells": cells, "player": player.char().to_string()})
            })
            .collect();
        Value::Array(list).to_string()
    }

    /// The live lines through `cell` as `viewer` (`X` or `O`) sees them, the write-up's hover hint
    /// (RULES.md §7): a free cell or one the viewer holds shows the lines the viewer could still complete
    /// through it, a cell the opponent holds the opponent's; dead and completed lines never. JSON
    /// `{"player": "X", "lines": [{"cells": [i, j, k], "held": 0..2}]}`, in line order; the centre has none.
    ///
    /// # Errors
    /// `cell` is not a cell index (0 to 80), or `viewer` is not `X` or `O`.
    pub fn hints(&self, cell: f64, viewer: &str) -> Result<String, String> {
        let cell = Cell::new(args::cell(cell, CELLS)? as u16);
        let viewer = match viewer {
            "X" => Player::X,
            "O" => Player::O,
            other => return Err(format!("the viewer is X or O, not {other:?}")),
        };
        let hints = self.game.hints(cell, viewer);
        let lines = Lines::get();
        let list: Vec<Value> = hints
            .lines
            .iter()
            .map(|h| json!({"cells": lines.line(h.line).cells().map(|c| c.index()), "held": h.held}))
            .collect();
        Ok(json!({"player": hints.player.char().to_string(), "lines": list}).to_string())
    }

    /// The name of a cell: its coordinates xyzw, each 1 to 3 (`2222` is the centre).
    ///
    /// # Errors
    /// `cell` is not a cell index (0 to 80).
    pub fn cell_name(&self, cell: f64) -> Result<String, String> {
        let cell = args::cell(cell, CELLS)?;
        Ok(tesseract_tactoe::cell_name(Cell::new(cell as u16)))
    }
}
