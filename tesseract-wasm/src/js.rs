//! The `#[wasm_bindgen]` layer: the JavaScript classes `Chess`, `Engine` and `TacToe`, each a thin wrapper
//! of the plain-Rust type of the same name that turns an `Err(message)` into a thrown `Error(message)`.
//!
//! It compiles on every target (so the native lints check it), but its functions can only be called from
//! JavaScript: on a native target `JsError::new` has no JavaScript to call.

use wasm_bindgen::prelude::*;

use crate::{Chess, Engine, TacToe};

/// An `Err(message)` as a JavaScript `Error` with that message.
fn throw<T>(result: Result<T, String>) -> Result<T, JsError> {
    result.map_err(|message| JsError::new(&message))
}

/// A game of chess: 4D Tesseract, classic chess or Chess960.
#[wasm_bindgen(js_name = Chess)]
#[derive(Debug)]
pub struct JsChess(Chess);

#[wasm_bindgen(js_class = Chess)]
impl JsChess {
    /// A new game from a named start ("light", "standard", "dense", "classic", "chess960:N") and a seed
    /// (a whole number from 0 to 2^53 - 1); throws on a bad name or seed.
    pub fn start(name: &str, seed: f64) -> Result<JsChess, JsError> {
        throw(Chess::start(name, seed)).map(JsChess)
    }

    /// A new game from FEN (2D) or TFEN (4D) text and a seed; throws saying what is wrong with the text.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &str, seed: f64) -> Result<JsChess, JsError> {
        throw(Chess::from_text(text, seed)).map(JsChess)
    }

    /// The game a GameRecord JSON describes (moves checked for legality); throws with the reason.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(json: &str) -> Result<JsChess, JsError> {
        throw(Chess::from_record(json)).map(JsChess)
    }

    /// The GameRecord JSON of the game; players "human", "beginner", "club", "expert" or "master".
    pub fn record(&self, white: &str, black: &str) -> Result<String, JsError> {
        throw(self.0.record(white, black))
    }

    /// 2 or 4.
    pub fn dims(&self) -> u32 {
        self.0.dims()
    }

    /// 8 or 5.
    pub fn side(&self) -> u32 {
        self.0.side()
    }

    /// One character per cell in index order: the piece letter (upper case for White) or '.'.
    pub fn board(&self) -> String {
        self.0.board()
    }

    /// "w" or "b".
    pub fn turn(&self) -> String {
        self.0.turn()
    }

    /// FEN or TFEN of the current position.
    pub fn text(&self) -> String {
        self.0.text()
    }

    /// Whether the side to move is in check.
    #[wasm_bindgen(js_name = inCheck)]
    pub fn in_check(&self) -> bool {
        self.0.in_check()
    }

    /// The cell of the side to move's king if it is in check, else -1.
    #[wasm_bindgen(js_name = kingInCheck)]
    pub fn king_in_check(&self) -> i32 {
        self.0.king_in_check()
    }

    /// JSON array of {"from", "to", "text", "promotion", "kingTo"}.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> String {
        self.0.legal_moves()
    }

    /// The legal moves whose from is `cell`, as legalMoves; throws if `cell` is not a cell index.
    #[wasm_bindgen(js_name = movesFrom)]
    pub fn moves_from(&self, cell: f64) -> Result<String, JsError> {
        throw(self.0.moves_from(cell))
    }

    /// JSON array of the played move texts.
    pub fn history(&self) -> String {
        self.0.history()
    }

    /// JSON {"from", "to"} of the last move, or "null".
    #[wasm_bindgen(js_name = lastMove)]
    pub fn last_move(&self) -> String {
        self.0.last_move()
    }

    /// Plays a move text; throws saying why it is not a legal move (the game is then unchanged).
    pub fn play(&mut self, text: &str) -> Result<(), JsError> {
        throw(self.0.play(text))
    }

    /// Takes back the last move and returns its text; undefined when there is none.
    pub fn undo(&mut self) -> Option<String> {
        self.0.undo()
    }

    /// undefined while the game goes on, else how it ended ("checkmate, white wins", ...).
    pub fn status(&self) -> Option<String> {
        self.0.status()
    }

    /// "w" or "b" for a checkmate, else undefined.
    pub fn winner(&self) -> Option<String> {
        self.0.winner()
    }

    /// The game's seed.
    pub fn seed(&self) -> f64 {
        self.0.seed()
    }

    /// "e4" in 2D, "2313" in 4D; throws if `cell` is not a cell index.
    #[wasm_bindgen(js_name = cellName)]
    pub fn cell_name(&self, cell: f64) -> Result<String, JsError> {
        throw(self.0.cell_name(cell))
    }
}

/// The chess engine; one per Web Worker keeps its table between moves.
#[wasm_bindgen(js_name = Engine)]
#[derive(Debug, Default)]
pub struct JsEngine(Engine);

#[wasm_bindgen(js_class = Engine)]
impl JsEngine {
    /// An engine; its table is allocated by the first think.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsEngine {
        JsEngine(Engine::new())
    }

    /// JSON {"move", "score", "depth", "nodes", "ms"} of the engine's move at a tier ("beginner", "club",
    /// "expert", "master"); throws on a bad tier or a game with no legal move.
    pub fn think(&mut self, game: &JsChess, tier: &str) -> Result<String, JsError> {
        throw(self.0.think(&game.0, tier))
    }
}

/// Four Tac Toe on the 3x3x3x3 board.
#[wasm_bindgen(js_name = TacToe)]
#[derive(Debug, Default)]
pub struct JsTacToe(TacToe);

#[wasm_bindgen(js_class = TacToe)]
impl JsTacToe {
    /// An empty board, X to claim.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsTacToe {
        JsTacToe(TacToe::new())
    }

    /// The state written by text(); throws saying what is wrong.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: &str) -> Result<JsTacToe, JsError> {
        throw(TacToe::from_text(text)).map(JsTacToe)
    }

    /// The state as text.
    pub fn text(&self) -> String {
        self.0.text()
    }

    /// "X" or "O".
    #[wasm_bindgen(js_name = toMove)]
    pub fn to_move(&self) -> String {
        self.0.to_move()
    }

    /// 81 characters: 'X', 'O', '.', and '#' for the centre.
    pub fn owners(&self) -> String {
        self.0.owners()
    }

    /// Whether `cell` can be claimed now.
    #[wasm_bindgen(js_name = canClaim)]
    pub fn can_claim(&self, cell: f64) -> bool {
        self.0.can_claim(cell)
    }

    /// Claims `cell` for the side to move and returns the points scored; throws why not (unchanged).
    pub fn claim(&mut self, cell: f64) -> Result<u32, JsError> {
        throw(self.0.claim(cell))
    }

    /// Takes back the last claim: its cell, or -1 if none.
    pub fn undo(&mut self) -> i32 {
        self.0.undo()
    }

    /// JSON [x, o].
    pub fn scores(&self) -> String {
        self.0.scores()
    }

    /// Whether all 80 cells are claimed.
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// undefined before the end, then "X wins", "O wins" or "draw".
    pub fn outcome(&self) -> Option<String> {
        self.0.outcome()
    }

    /// The engine's cell at level 1 to 5 (not claimed); throws on a bad level or a finished game.
    #[wasm_bindgen(js_name = engineMove)]
    pub fn engine_move(&mut self, level: f64) -> Result<u32, JsError> {
        throw(self.0.engine_move(level))
    }

    /// JSON array of {"cells": [i, j, k], "player": "X" | "O"}.
    #[wasm_bindgen(js_name = completedLines)]
    pub fn completed_lines(&self) -> String {
        self.0.completed_lines()
    }

    /// The cell's name xyzw ("2222" is the centre); throws if `cell` is not 0 to 80.
    #[wasm_bindgen(js_name = cellName)]
    pub fn cell_name(&self, cell: f64) -> Result<String, JsError> {
        throw(self.0.cell_name(cell))
    }
}
