//! JavaScript bindings of the Tesseract crates, for web pages and Web Workers: games of 4D Tesseract,
//! classic chess and Chess960 with the engine and its tiers, Four Tac Toe, and the piece pictures.
//!
//! The rules and the figures it follows are the project's contract, [`tesseract_board::rules`] (RULES.md).
//!
//! The logic is plain Rust ([`Chess`], [`Engine`], [`TacToe`], [`Online`]: methods returning `Result<_, String>`,
//! tested natively with `cargo test -p tesseract-wasm`); the `#[wasm_bindgen]` layer (module `js`) wraps
//! each type in a JavaScript class of the same name and turns an `Err(message)` into a thrown
//! `Error(message)`. Method names are camelCase in JavaScript (`legal_moves` is `legalMoves`).
//!
//! # Build
//!
//! ```sh
//! scripts/wasm.sh     # web/pkg/tesseract_wasm.js, tesseract_wasm_bg.wasm and the .d.ts types
//! ```
//!
//! The script adds the `wasm32-unknown-unknown` target if missing, installs `wasm-bindgen-cli` 0.2.130
//! into `target/tools` unless that version is on the `PATH` (it must match the `wasm-bindgen` crate,
//! pinned to `=0.2.130`), builds this crate in release and runs `wasm-bindgen --target web`.
//!
//! # The JavaScript API
//!
//! ```text
//! class Chess {
//!   static start(name: string, seed: number): Chess    // "light" | "standard" | "dense" | "classic" | "chess960:N"
//!   static fromText(text: string, seed: number): Chess // FEN (2D) or TFEN (4D)
//!   static fromRecord(json: string): Chess             // a GameRecord (tesseract-search) as JSON
//!   record(white: string, black: string): string       // GameRecord JSON; "human" | "beginner" | "club" | "expert" | "master"
//!   dims(): number                                     // 2 or 4
//!   side(): number                                     // 8 or 5
//!   board(): string                                    // a char per cell, index order: piece letter (upper = white) or '.'
//!   turn(): string                                     // "w" | "b"
//!   text(): string                                     // FEN / TFEN (Shredder-FEN castling in Chess960 mode)
//!   inCheck(): boolean
//!   kingInCheck(): number                              // the side to move's king cell if in check, else -1
//!   legalMoves(): string                               // JSON [{"from", "to", "text", "promotion", "kingTo"}]
//!   movesFrom(cell: number): string                    // the same, only moves from cell
//!   history(): string                                  // JSON array of the move texts played
//!   lastMove(): string                                 // JSON {"from", "to"} or "null"
//!   play(text: string): void                           // throws if not a legal move; unchanged then
//!   undo(): string | undefined                         // the undone move's text
//!   status(): string | undefined                       // undefined while the game goes on, else "checkmate, white wins", ...
//!   winner(): string | undefined                       // "w" | "b" for a checkmate
//!   seed(): number
//!   cellName(cell: number): string                     // "e4" in 2D, "2313" in 4D
//!   variant(): string                                  // "tesseract" | "chess" | "chess960"
//!   notation(): string                                 // JSON array: SAN in 2D ("Nf3"), the long form in 4D ("Y2213-2313")
//!   at(ply: number): Chess                             // the game after its first `ply` moves (a new Chess)
//!   pgn(white: string, black: string): string          // the game in PGN (players and seed in tags)
//!   result(): string                                   // "1-0" | "0-1" | "1/2-1/2" | "*"
//!   static recordFromPgn(text: string): string         // the first game of a PGN text as GameRecord JSON
//! }
//! function pieceSvg(letter: string, dims: number): string  // a piece's picture: an SVG document, 45×45 (tesseract_board::pieces)
//! function studies(): string                             // JSON [{"number", "title", "n", "idea", "fen", "key", "line", "lineText"}]: tesseract-verify's twelve
//! function lessons(): string                             // JSON [{"number", "title", "teaches", "explain", "goal", "target", "bound", "fen", "pieces"}]
//! function dailyPuzzle(date: number): string             // the puzzle of a day (YYYYMMDD): a study entry, mate in 2 or 3 composed from the date
//! function judge(fen: string, n: number): string           // a composer's check: JSON {"verdict": "sound" | "cooked" | "shorter" | "none", "text", "key", "keys", "line"}
//! function lessonSolution(number: number): string        // JSON array of move texts: the shortest way through, from the lesson's proof
//! class Study {                                  // a study being solved (tesseract_verify::tutor::StudyPlay)
//!   constructor(number: number)                        // 1 to 12
//!   static daily(date: number): Study                  // the puzzle of a day, YYYYMMDD
//!   entry(): string                                    // the study as an entry of studies() (number null)
//!   fen(): string; moves(): string; movesLeft(): number; solved(): boolean; failed(): boolean
//!   play(text: string): string                         // JSON {"reply": "defence" | "solved" | "refuted", "white", "defence", "defenceName", "moves"}
//!   hint(): number                                     // the cell of the piece to move next in a solution
//!   takeBack(): boolean                                // White's last move and Black's answer
//! }
//! class Lesson {                                 // a lesson being followed (tesseract_verify::tutor::LessonPlay)
//!   constructor(number: number)                        // 1 to 8
//!   fen(): string; movesFrom(cell: number): string; pieces(): string; count(): number; done(): boolean
//!   play(text: string): boolean                        // whether the goal is met; throws on a move the lesson does not allow
//!   restart(): void
//! }
//! class Engine {
//!   constructor()
//!   think(game: Chess, tier: string): string           // JSON {"move", "score": "cp 23" | "mate 3" | "mate -2", "depth", "nodes", "ms", "words"}
//! }
//! class TacToe {
//!   constructor()
//!   static fromText(text: string): TacToe
//!   text(): string
//!   toMove(): string                                   // "X" | "O"
//!   owners(): string                                   // 81 chars: 'X', 'O', '.', '#' (the centre)
//!   canClaim(cell: number): boolean
//!   claim(cell: number): number                        // the points scored; throws if the cell cannot be claimed
//!   undo(): number                                     // the cell taken back, or -1
//!   scores(): string                                   // JSON [x, o]
//!   isOver(): boolean
//!   outcome(): string | undefined                      // "X wins" | "O wins" | "draw"
//!   engineMove(level: number): number                  // the engine's cell at level 1..5 (not claimed)
//!   completedLines(): string                           // JSON [{"cells": [i, j, k], "player": "X" | "O"}]
//!   hints(cell: number, viewer: string): string        // JSON {"player", "lines": [{"cells", "held"}]}: live lines through a cell
//!   cellName(cell: number): string                     // "2222" is the centre
//! }
//! class Online {                                 // one side of a signed match between two browsers
//!   static generateIdentity(): string                  // a long-term identity key, 64 hex digits (secret)
//!   static identityOf(keyHex: string): string          // its identity, 32 hex digits
//!   static create(start: string, color: string, keyHex: string): Online
//!   static join(invitation: string, keyHex: string): Online
//!   static resume(stateHex: string, keyHex: string, invitation: string): Online
//!   invitation(): string                               // "tw1.<w|b>.<start>.<match id>.<secret>" (secret)
//!   matchId(): string; start(): string; color(): string; identity(): string; peerIdentity(): string | undefined
//!   receive(frame: Uint8Array): string                 // JSON events; a frame that does not authenticate is "dropped"
//!   receiveOversize(length: number): string
//!   nextFrame(): Uint8Array | undefined
//!   retransmit(): void; unacknowledged(): number; dropped(): number
//!   play(text: string): void; offerDraw(): void; acceptDraw(): void; declineDraw(): void
//!   claimable(): string | undefined; claimDraw(): string; resign(): void; abort(): void
//!   safetyNumber(): string | undefined                 // 16 hex digits, the same on both sides
//!   phase(): string; action(): string; drawOffered(): boolean
//!   moves(): string; position(): string; result(): string | undefined; failure(): string | undefined
//!   saveState(): string                                // hex, secret (the match's keys)
//! }
//! ```
//!
//! [`Online`]'s events, invitations and stored state are described in the crate's README.
//!
//! Cells are indices `(x−1) + n(y−1) + n²(z−1) + n³(w−1)` (RULES.md §1): 0 to 63 in 2D (a1 = 0, h1 = 7,
//! a2 = 8), 0 to 624 in 4D, 0 to 80 in Four Tac Toe. In a move entry, `to` is the cell the move text
//! names: for castling in Chess960 mode (king takes own rook, `e1h1`) the rook's cell; `kingTo` is set
//! for castling moves only, to the cell where the king ends (g1/c1 or g8/c8), so that a page can accept a
//! click on either. `promotion` is the upper-case letter (`Q`, and in 4D also `U`, `D`) or `null`.
//!
//! # Example
//!
//! ```js
//! import init, { Chess, Engine, TacToe } from "./pkg/tesseract_wasm.js";
//! await init();                                   // fetches tesseract_wasm_bg.wasm beside the .js
//!
//! const game = Chess.start("standard", 42);       // 4D Tesseract
//! const moves = JSON.parse(game.legalMoves());    // 226 moves
//! game.play(moves[0].text);
//! try { game.play("e2e4"); } catch (e) { console.log(e.message); }   // a 2D move on a 4D board
//! const engine = new Engine();                    // in a Web Worker, keep one
//! const reply = JSON.parse(engine.think(game, "club"));
//! game.play(reply.move);
//! console.log(game.status() ?? `${game.turn()} to move`, game.lastMove());
//!
//! const t = new TacToe();
//! t.claim(t.engineMove(3));
//! ```
//!
//! In node, or to load the module from bytes: `initSync({ module: bytes })` or
//! `await init({ module_or_path: bytes })`.
//!
//! # Choices
//!
//! - **JSON strings for structured results** (move lists, records, the engine's answer): one copy across
//!   the boundary, no `js-sys`/`serde-wasm-bindgen`, and the same text the native tests parse.
//! - **Numbers are checked.** A JavaScript number is an `f64`: cells, seeds and levels are refused with a
//!   message unless they are whole and in range (−1, 2.5, `NaN` are not cell 4294967295, 2 or 0).
//! - **Seeds are JavaScript numbers**, whole from 0 to 2⁵³ − 1 (`Number.MAX_SAFE_INTEGER`), so that
//!   `seed()` returns them exactly; a record whose seed is larger is refused rather than rounded. (Not
//!   `BigInt`: `Chess.start("classic", 42)` reads better, and every seed the `play` example writes fits.)
//! - **Deterministic.** No randomness beyond the game's seed; the engine's move at a tier is that of
//!   [`tesseract_search::Game::think`], so the same game, seed and tier give the same move as natively,
//!   unless the tier's wall-clock guard fires (a slow device; the master stops within 3.5 s). The Four
//!   Tac Toe engine counts nodes only.
//! - **Threads**: none. The crates are built without `tesseract-movegen`'s `parallel` feature, and the
//!   engine's clock is `web_time::Instant` (`performance.now()`), which works in a Web Worker: run
//!   `think` there to keep the page responsive, on a `Chess` rebuilt with `fromRecord` from the page's
//!   `record(...)` (`text()` would drop the earlier positions the engine needs for repetition draws).
//! - **Boards**: 8×8 and 5⁴ only; `fromText` and `fromRecord` refuse the other shapes the board crate
//!   reads, so `dims()` is 2 or 4.
//! - **Errors never panic**: every input from JavaScript is checked and refused with a message saying
//!   what is wrong; a failed call changes nothing.
#![deny(missing_docs)]
// No `forbid(unsafe_code)` here: the code `#[wasm_bindgen]` generates in `js` is unsafe. The modules with
// the logic forbid it each.

mod args;
mod chess;
mod engine;
pub mod js;
mod online;
mod tactoe;
mod tutor;

pub use args::MAX_SEED;
pub use chess::Chess;
pub use chess::piece_svg;
pub use engine::Engine;
pub use online::{MAX_INVITATION, Online};
pub use tactoe::TacToe;
pub use tutor::{JUDGE_NODES, LessonGame, StudyGame, daily_puzzle, judge, lesson_list, lesson_solution, study_list};

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
