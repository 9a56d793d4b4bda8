//! The `#[wasm_bindgen]` layer: the JavaScript classes `Chess`, `Engine`, `TacToe` and `Online`, each a thin wrapper
//! of the plain-Rust type of the same name that turns an `Err(message)` into a thrown `Error(message)`.
//!
//! It compiles on every target (so the native lints check it), but its functions can only be called from
//! JavaScript: on a native target `JsError::new` has no JavaScript to call.

use wasm_bindgen::prelude::*;

use crate::{Chess, Engine, LessonGame, Online, StudyGame, TacToe};

/// An `Err(message)` as a JavaScript `Error` with that message.
fn throw<T>(result: Result<T, String>) -> Result<T, JsError> {
    result.map_err(|message| JsError::new(&message))
}

/// A piece's picture, an SVG document (45×45) from the board crate's piece set; throws on a bad letter.
#[wasm_bindgen(js_name = pieceSvg)]
pub fn piece_svg(letter: &str, dims: f64) -> Result<String, JsError> {
    throw(crate::piece_svg(letter, dims))
}

/// The twelve studies of tesseract-verify, as JSON.
#[wasm_bindgen]
pub fn studies() -> String {
    crate::study_list()
}

/// The eight lessons of tesseract-verify, as JSON.
#[wasm_bindgen]
pub fn lessons() -> String {
    crate::lesson_list()
}

/// The shortest way through a lesson, as a JSON array of move texts (from the lesson's proof).
#[wasm_bindgen(js_name = lessonSolution)]
pub fn lesson_solution(number: f64) -> Result<String, JsError> {
    throw(crate::lesson_solution(number))
}

/// A composer's check: is the position a sound mate in n? JSON {"verdict", "text", "key", "keys", "line"}.
#[wasm_bindgen]
pub fn judge(fen: &str, n: f64) -> Result<String, JsError> {
    throw(crate::judge(fen, n))
}

/// The puzzle of a day (YYYYMMDD) as a study entry (JSON); seconds for a mate in 3: call it in a worker.
#[wasm_bindgen(js_name = dailyPuzzle)]
pub fn daily_puzzle(date: f64) -> Result<String, JsError> {
    throw(crate::daily_puzzle(date))
}

/// A study being solved.
#[wasm_bindgen(js_name = Study)]
#[derive(Debug)]
pub struct JsStudy(StudyGame);

#[wasm_bindgen(js_class = Study)]
impl JsStudy {
    /// Study `number` (1 to 12); throws on another number.
    #[wasm_bindgen(constructor)]
    pub fn new(number: f64) -> Result<JsStudy, JsError> {
        throw(StudyGame::new(number)).map(JsStudy)
    }

    /// The puzzle of the day `date` (YYYYMMDD); throws on a number that is not a date.
    pub fn daily(date: f64) -> Result<JsStudy, JsError> {
        throw(StudyGame::daily(date)).map(JsStudy)
    }

    /// The study as an entry of studies() (JSON, its number null).
    pub fn entry(&self) -> String {
        self.0.entry()
    }

    /// TFEN of the position now.
    pub fn fen(&self) -> String {
        self.0.fen()
    }

    /// JSON array of the move texts played.
    pub fn moves(&self) -> String {
        self.0.moves()
    }

    /// White's moves left to mate in.
    #[wasm_bindgen(js_name = movesLeft)]
    pub fn moves_left(&self) -> u32 {
        self.0.moves_left()
    }

    /// Plays White's move and Black's answer; JSON {"reply", "white", "defence", "defenceName", "moves"}.
    pub fn play(&mut self, text: &str) -> Result<String, JsError> {
        throw(self.0.play(text))
    }

    /// The cell of the piece to move next in a solution.
    pub fn hint(&mut self) -> Result<u32, JsError> {
        throw(self.0.hint())
    }

    /// Takes back White's last move and Black's answer.
    #[wasm_bindgen(js_name = takeBack)]
    pub fn take_back(&mut self) -> bool {
        self.0.take_back()
    }

    /// Whether the study is solved.
    pub fn solved(&self) -> bool {
        self.0.solved()
    }

    /// Whether the last move was refuted.
    pub fn failed(&self) -> bool {
        self.0.failed()
    }
}

/// A lesson being followed.
#[wasm_bindgen(js_name = Lesson)]
#[derive(Debug)]
pub struct JsLesson(LessonGame);

#[wasm_bindgen(js_class = Lesson)]
impl JsLesson {
    /// Lesson `number` (1 to 8); throws on another number.
    #[wasm_bindgen(constructor)]
    pub fn new(number: f64) -> Result<JsLesson, JsError> {
        throw(LessonGame::new(number)).map(JsLesson)
    }

    /// TFEN of the position now.
    pub fn fen(&self) -> String {
        self.0.fen()
    }

    /// JSON array of the moves of the taught piece on `cell` (as Chess.movesFrom).
    #[wasm_bindgen(js_name = movesFrom)]
    pub fn moves_from(&self, cell: f64) -> Result<String, JsError> {
        throw(self.0.moves_from(cell))
    }

    /// JSON array of the taught pieces' cells.
    pub fn pieces(&self) -> String {
        self.0.pieces()
    }

    /// Plays the learner's move; whether the goal is met.
    pub fn play(&mut self, text: &str) -> Result<bool, JsError> {
        throw(self.0.play(text))
    }

    /// The moves played.
    pub fn count(&self) -> u32 {
        self.0.count()
    }

    /// Whether the goal is met.
    pub fn done(&self) -> bool {
        self.0.done()
    }

    /// Starts again.
    pub fn restart(&mut self) {
        self.0.restart();
    }
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

    /// "tesseract", "chess" or "chess960".
    pub fn variant(&self) -> String {
        self.0.variant()
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

    /// JSON array of the played moves as people read them: SAN in 2D, the long form (Y2213-2313) in 4D.
    pub fn notation(&self) -> String {
        self.0.notation()
    }

    /// The game after its first `ply` moves (a new game: same start and seed); throws on a bad number.
    pub fn at(&self, ply: f64) -> Result<JsChess, JsError> {
        throw(self.0.at(ply)).map(JsChess)
    }

    /// The game in PGN with its players ("human" or a tier) and seed; throws on a bad player name.
    pub fn pgn(&self, white: &str, black: &str) -> Result<String, JsError> {
        throw(self.0.pgn(white, black))
    }

    /// "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
    pub fn result(&self) -> String {
        self.0.result()
    }

    /// The first game of a PGN text as GameRecord JSON (for fromRecord); throws saying what is wrong.
    #[wasm_bindgen(js_name = recordFromPgn)]
    pub fn record_from_pgn(text: &str) -> Result<String, JsError> {
        throw(Chess::record_from_pgn(text))
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

    /// JSON {"player", "lines": [{"cells", "held"}]}: the live lines through a cell for viewer "X" or "O".
    pub fn hints(&self, cell: f64, viewer: &str) -> Result<String, JsError> {
        throw(self.0.hints(cell, viewer))
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

/// One player's side of a signed online match (tesseract-wire), authenticated by the game link's
/// invitation secret. Sans-IO: the page passes it every frame from the relay and sends every frame it gives.
#[wasm_bindgen(js_name = Online)]
#[derive(Debug)]
pub struct JsOnline(Online);

#[wasm_bindgen(js_class = Online)]
impl JsOnline {
    /// A new long-term identity key as 64 hex digits (secret: keep it in the browser's storage).
    #[wasm_bindgen(js_name = generateIdentity)]
    pub fn generate_identity() -> String {
        Online::generate_identity()
    }

    /// The public identity (32 hex digits) of an identity key; throws if the key is not 64 hex digits
    /// of a valid P-256 secret.
    #[wasm_bindgen(js_name = identityOf)]
    pub fn identity_of(secret_hex: &str) -> Result<String, JsError> {
        throw(Online::identity_of(secret_hex))
    }

    /// A new match from a start ("light", "standard", "dense", "classic", "chess960:N") on color "w" or
    /// "b"; `invitation()` is the text for the game link. Throws on a bad argument.
    pub fn create(start: &str, color: &str, identity_hex: &str) -> Result<JsOnline, JsError> {
        throw(Online::create(start, color, identity_hex)).map(JsOnline)
    }

    /// Joins the match of an invitation text; throws saying what is wrong with it.
    pub fn join(invitation: &str, identity_hex: &str) -> Result<JsOnline, JsError> {
        throw(Online::join(invitation, identity_hex)).map(JsOnline)
    }

    /// Resumes a match from saveState()'s hex, the identity key and the invitation; throws why not.
    pub fn resume(state_hex: &str, identity_hex: &str, invitation: &str) -> Result<JsOnline, JsError> {
        throw(Online::resume(state_hex, identity_hex, invitation)).map(JsOnline)
    }

    /// The invitation text (`tw1.<w|b>.<start>.<match id>.<secret>`); it holds the secret.
    pub fn invitation(&self) -> String {
        self.0.invitation()
    }

    /// The match id, 32 hex digits.
    #[wasm_bindgen(js_name = matchId)]
    pub fn match_id(&self) -> String {
        self.0.match_id()
    }

    /// The start's name.
    pub fn start(&self) -> String {
        self.0.start()
    }

    /// This player's color: "w" or "b".
    pub fn color(&self) -> String {
        self.0.color()
    }

    /// This player's identity, 32 hex digits.
    pub fn identity(&self) -> String {
        self.0.identity()
    }

    /// The peer's identity once its keys arrived, else undefined.
    #[wasm_bindgen(js_name = peerIdentity)]
    pub fn peer_identity(&self) -> Option<String> {
        self.0.peer_identity()
    }

    /// Takes one frame from the relay; JSON array of events (a frame that does not authenticate is a
    /// "dropped" event and the match goes on; one that ends the match is a "failure" event; never
    /// a throw).
    pub fn receive(&mut self, bytes: &[u8]) -> String {
        self.0.receive(bytes)
    }

    /// The news of a message too long to be a frame, which the page did not copy; events as receive.
    #[wasm_bindgen(js_name = receiveOversize)]
    pub fn receive_oversize(&mut self, len: f64) -> String {
        self.0.receive_oversize(len)
    }

    /// The next frame to send, or undefined.
    #[wasm_bindgen(js_name = nextFrame)]
    pub fn next_frame(&mut self) -> Option<Vec<u8>> {
        self.0.next_frame()
    }

    /// How many frames were dropped because they did not authenticate.
    pub fn dropped(&self) -> f64 {
        self.0.dropped()
    }

    /// Queues the unacknowledged frames again, for nextFrame().
    pub fn retransmit(&mut self) {
        self.0.retransmit();
    }

    /// How many frames the peer has not acknowledged yet.
    pub fn unacknowledged(&self) -> u32 {
        self.0.unacknowledged()
    }

    /// Plays a move text; throws why not (out of turn, illegal: nothing changes).
    pub fn play(&mut self, text: &str) -> Result<(), JsError> {
        throw(self.0.play(text))
    }

    /// Offers a draw; throws why not.
    #[wasm_bindgen(js_name = offerDraw)]
    pub fn offer_draw(&mut self) -> Result<(), JsError> {
        throw(self.0.offer_draw())
    }

    /// Accepts the peer's draw offer; throws if none waits.
    #[wasm_bindgen(js_name = acceptDraw)]
    pub fn accept_draw(&mut self) -> Result<(), JsError> {
        throw(self.0.accept_draw())
    }

    /// Declines the peer's draw offer; throws if none waits.
    #[wasm_bindgen(js_name = declineDraw)]
    pub fn decline_draw(&mut self) -> Result<(), JsError> {
        throw(self.0.decline_draw())
    }

    /// "threefold" or "fifty-moves" when this player may claim a draw now, else undefined.
    pub fn claimable(&self) -> Option<String> {
        self.0.claimable()
    }

    /// Claims the claimable draw and returns its name; throws if there is none.
    #[wasm_bindgen(js_name = claimDraw)]
    pub fn claim_draw(&mut self) -> Result<String, JsError> {
        throw(self.0.claim_draw())
    }

    /// Resigns; throws during the handshake or after the end.
    pub fn resign(&mut self) -> Result<(), JsError> {
        throw(self.0.resign())
    }

    /// Stops the match without a result.
    pub fn abort(&mut self) {
        self.0.abort();
    }

    /// 16 hex digits both players see once the handshake has both keys, else undefined.
    #[wasm_bindgen(js_name = safetyNumber)]
    pub fn safety_number(&self) -> Option<String> {
        self.0.safety_number()
    }

    /// "handshake", "playing", "closed" or "aborted".
    pub fn phase(&self) -> String {
        self.0.phase()
    }

    /// "wait", "move", "answerDraw" or "done".
    pub fn action(&self) -> String {
        self.0.action()
    }

    /// Whether the peer's draw offer waits for an answer.
    #[wasm_bindgen(js_name = drawOffered)]
    pub fn draw_offered(&self) -> bool {
        self.0.draw_offered()
    }

    /// JSON array of the move texts played.
    pub fn moves(&self) -> String {
        self.0.moves()
    }

    /// FEN or TFEN of the position.
    pub fn position(&self) -> String {
        self.0.position()
    }

    /// JSON {"score", "winner", "reason"} once the match is over, else undefined.
    pub fn result(&self) -> Option<String> {
        self.0.result()
    }

    /// JSON {"kind", "message"} of the failure that aborted the match, else undefined.
    pub fn failure(&self) -> Option<String> {
        self.0.failure()
    }

    /// The whole session as hex, secret (it holds the match's keys); throws for a match too long to save.
    #[wasm_bindgen(js_name = saveState)]
    pub fn save_state(&self) -> Result<String, JsError> {
        throw(self.0.save_state())
    }
}
