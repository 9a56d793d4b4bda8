//! A C ABI for the Tesseract crates: games of 4D Tesseract, chess and Chess960, their legal moves and
//! perft, the engine's move at a node budget, and an engine that thinks on its own thread while the
//! caller's game loop draws frames.
//!
//! The header is `include/tesseract.h`, generated from this file by cbindgen and checked in (a test fails
//! when it is stale). The crate builds a shared library (`libtesseract_ffi.so`, `.dylib`,
//! `tesseract_ffi.dll`) and a static one (`libtesseract_ffi.a`); the README shows how to link each, from
//! C, C++ and C# (Unity).
//!
//! # Contract
//!
//! - **No panic crosses the boundary.** Every entry point catches one and returns [`TESS_E_PANIC`] (or
//!   NULL, [`TESS_PERFT_ERROR`] or [`TESS_E_INVALID`], as the function says); a panic would be a bug in the library.
//! - **Strings.** Strings in are UTF-8, NUL-terminated or with their length (the `_n` functions); NULL,
//!   an impossible length or invalid UTF-8 is an error, not a crash. Strings out go into a caller's buffer with its length in bytes: they are UTF-8 and always
//!   NUL-terminated when the buffer has room for at least the NUL; a function says what it returns
//!   when the text does not fit (the size needed, or [`TESS_E_BUFFER`]). Error texts (`err`, `errlen`)
//!   are cut at a character boundary to fit; `err` may be NULL.
//! - **Objects.** Every object a `_new` or `_start` function returns has a `_free`; `_free(NULL)` does
//!   nothing. A refused call leaves its object unchanged.
//! - **Threads.** A `tess_game` may move between threads. Functions that take a `const tess_game *` only
//!   read it and may run at the same time on the same game from several threads; a function that takes
//!   `tess_game *` (`tess_play`, `tess_undo`, `tess_game_free`) must not run at the same time as any other
//!   call on that game. A `tess_search` is used from one thread at a time (any thread); its search runs on
//!   a thread of its own, and no call on it blocks for longer than it takes that thread to notice a stop
//!   (`tess_search_stop`, `tess_search_free`: a few milliseconds, as the search looks at its stop flag
//!   every 1,024 nodes).
//! - **Determinism.** `tess_best_move` and a `tess_search` with a node budget give the same move for the
//!   same game on every machine (the engine's moves are a pure function of position, history, settings
//!   and seed: here seed 0); a time limit is a guard that makes them depend on the machine.
#![allow(non_camel_case_types)]

use std::ffi::{CStr, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use tesseract_board::{Position, TextMove, start};
use tesseract_search::{Game, Limits, Options, Score, Termination, ThinkError, Thinker};

/// Success.
pub const TESS_OK: i32 = 0;
/// `tess_search_poll`: the engine still thinks (the line so far, if any, is in the buffer).
pub const TESS_THINKING: i32 = 1;
/// A pointer the function needs is NULL.
pub const TESS_E_NULL: i32 = -1;
/// A string is not valid UTF-8.
pub const TESS_E_UTF8: i32 = -2;
/// The text is not a legal move in this position (the error text says why).
pub const TESS_E_MOVE: i32 = -3;
/// The game is over (`tess_status` is not `TESS_ONGOING`: mate, stalemate, or a draw by rule): no
/// move is played or searched.
pub const TESS_E_GAME_OVER: i32 = -4;
/// The caller's buffer is too small for the text (nothing useful was written).
pub const TESS_E_BUFFER: i32 = -5;
/// The library panicked: a bug, caught at the boundary. An object the call could change may be left
/// inconsistent: free it.
pub const TESS_E_PANIC: i32 = -6;
/// The system refused a resource (memory for the engine's table, a thread).
pub const TESS_E_RESOURCE: i32 = -7;
/// A length is larger than any string can be (above `PTRDIFF_MAX`: a negative number passed as a length?).
pub const TESS_E_ARGUMENT: i32 = -8;
/// `tess_legal_moves`, `tess_fen`, `tess_status_text`: the game is NULL or the library panicked. Every
/// other negative result of these three is minus the buffer size needed (the other `TESS_E_` codes are
/// not used by them).
pub const TESS_E_INVALID: i32 = i32::MIN;

/// `tess_status`: the game goes on.
pub const TESS_ONGOING: i32 = 0;
/// `tess_status`: the side to move is checkmated.
pub const TESS_CHECKMATE: i32 = 1;
/// `tess_status`: the side to move has no legal move and is not in check.
pub const TESS_STALEMATE: i32 = 2;
/// `tess_status`: drawn by rule: insufficient material, threefold or fivefold repetition, the 50- or
/// 75-move rule (draws are claimed as soon as the rules allow).
pub const TESS_DRAW: i32 = 3;

/// A buffer of this many bytes holds any one move text, NUL included (RULES.md section 4: at most 9
/// characters in 4D).
pub const TESS_MOVE_TEXT_MAX: usize = 16;

/// The megabytes of transposition table of the engine in `tess_best_move` and `tess_search_start`.
const HASH_MB: usize = 16;

/// A game: its start, the moves played, the position now. Opaque; create with `tess_game_new`, free
/// with `tess_game_free`.
pub struct tess_game {
    game: Game,
}

/// An engine thinking on its own thread about one position of a game (taken when it started: the game
/// may change or be freed meanwhile). Opaque; create with `tess_search_start`, free with
/// `tess_search_free`.
pub struct tess_search {
    thinker: Thinker,
    root: Position,
}

/// What a search found: filled by `tess_search_poll` and `tess_search_stop`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct tess_search_info {
    /// The last finished iteration (0 when none has finished yet).
    pub depth: u32,
    /// 1 when the search has ended and this is its move, 0 while it thinks.
    pub is_final: u32,
    /// The score in centipawns from the side to move (meaningful when `mate` is 0).
    pub score_cp: i32,
    /// Mate in this many moves: positive when the side to move mates, negative when it is mated, 0 when
    /// the score is in centipawns.
    pub mate: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Runs `f`, turning a panic into `fallback`.
fn guard<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
}

/// Writes `text` and a NUL into `buf`, or says how many bytes it needs.
///
/// # Safety
/// `buf` is NULL or valid for `len` bytes of writing.
unsafe fn write_text(text: &str, buf: *mut c_char, len: usize) -> Result<(), usize> {
    let needed = text.len() + 1;
    if buf.is_null() || len < needed {
        if !buf.is_null() && len > 0 {
            // SAFETY: buf is valid for len ≥ 1 bytes.
            unsafe { *buf = 0 };
        }
        return Err(needed);
    }
    // SAFETY: buf is valid for len ≥ needed bytes, and text is not inside the caller's buffer.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), text.len());
        *buf.add(text.len()) = 0;
    }
    Ok(())
}

/// Writes an error text into `err`, cut at a character boundary to fit.
///
/// # Safety
/// `err` is NULL or valid for `len` bytes of writing.
unsafe fn write_error(message: &str, err: *mut c_char, len: usize) {
    if err.is_null() || len == 0 {
        return;
    }
    let mut end = message.len().min(len - 1);
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    // SAFETY: the caller's contract; end + 1 ≤ len.
    let _ = unsafe { write_text(&message[..end], err, len) };
}

/// A string from the caller: NUL-terminated, or with its length in bytes (the `_n` functions).
#[derive(Copy, Clone)]
enum Text {
    Terminated(*const c_char),
    Sized(*const c_char, usize),
}

/// Reads a caller's UTF-8 string.
///
/// # Safety
/// A `Terminated` pointer is NULL or a NUL-terminated string; a `Sized` one is NULL (with any length: an
/// error unless 0) or valid for its length in bytes.
unsafe fn read_text<'a>(text: Text) -> Result<&'a str, (i32, String)> {
    let bytes = match text {
        Text::Terminated(p) if !p.is_null() => {
            // SAFETY: the caller's contract.
            unsafe { CStr::from_ptr(p) }.to_bytes()
        }
        Text::Sized(_, len) if len > isize::MAX as usize => {
            return Err((TESS_E_ARGUMENT, format!("the length {len} is larger than any string (a negative number?)")));
        }
        Text::Sized(p, len) if !p.is_null() => {
            // SAFETY: the caller's contract.
            unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }
        }
        Text::Sized(_, 0) => &[],
        _ => return Err((TESS_E_NULL, "the text is NULL".to_owned())),
    };
    std::str::from_utf8(bytes).map_err(|e| (TESS_E_UTF8, format!("the text is not UTF-8 at byte {}", e.valid_up_to())))
}

/// Makes an object to hand to the caller, or NULL with the reason (or a panic's) in `err`.
///
/// # Safety
/// `err` is NULL or valid for `errlen` bytes; `f` keeps the contracts of the pointers it reads.
unsafe fn make<T>(err: *mut c_char, errlen: usize, f: impl FnOnce() -> Result<T, String>) -> *mut T {
    match guard(Err("the library panicked (a bug)".to_owned()), f) {
        Ok(object) => Box::into_raw(Box::new(object)),
        Err(message) => {
            // SAFETY: the caller's contract.
            unsafe { write_error(&message, err, errlen) };
            std::ptr::null_mut()
        }
    }
}

/// A start position by name or text: `standard`, `light`, `dense`, `raumschach`, `classic`,
/// `chess960:N`, or a FEN (2D) or TFEN (4D).
fn parse_start(text: &str) -> Result<Position, String> {
    let text = text.trim();
    if text.contains(' ') || text.contains('/') {
        Position::from_fen(text).map_err(|e| format!("not a valid position text: {e}"))
    } else {
        start::by_name(text).map_err(|e| e.to_string())
    }
}

/// `tess_perft`: the game is NULL or the library panicked.
pub const TESS_PERFT_ERROR: u64 = u64::MAX;

/// The library's version, a static NUL-terminated string (never freed). Thread safety: any thread.
#[unsafe(no_mangle)]
pub extern "C" fn tess_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// A new game from `start`: `standard`, `light` or `dense` (the Tesseract armies, 4D), `raumschach`
/// (3D), `classic`, `chess960:N` (N in 0..959), or a FEN (2D) or TFEN (4D) text.
///
/// Returns NULL when `start` is none of these, with the reason in `err` (`errlen` bytes, may be NULL).
/// Free the game with `tess_game_free`. Thread safety: any thread.
///
/// # Safety
/// `start` is NULL or a NUL-terminated string; `err` is NULL or valid for `errlen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_game_new(start: *const c_char, err: *mut c_char, errlen: usize) -> *mut tess_game {
    // SAFETY: the caller's contract.
    unsafe { game_new(Text::Terminated(start), err, errlen) }
}

/// `tess_game_new` with `start` given as `len` bytes of UTF-8 (no NUL needed; NULL only with `len` 0).
/// Thread safety: any thread.
///
/// # Safety
/// `start` is valid for `len` bytes; `err` is NULL or valid for `errlen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_game_new_n(
    start: *const c_char,
    len: usize,
    err: *mut c_char,
    errlen: usize,
) -> *mut tess_game {
    // SAFETY: the caller's contract.
    unsafe { game_new(Text::Sized(start, len), err, errlen) }
}

/// `tess_game_new` and `tess_game_new_n`.
///
/// # Safety
/// As theirs.
unsafe fn game_new(start: Text, err: *mut c_char, errlen: usize) -> *mut tess_game {
    let new = || {
        // SAFETY: the caller's contract.
        let text = unsafe { read_text(start) }.map_err(|(_, m)| format!("start: {m}"))?;
        let pos = parse_start(text)?;
        Ok(tess_game { game: Game::new(pos, 0) })
    };
    // SAFETY: the caller's contract.
    unsafe { make(err, errlen, new) }
}

/// A copy of `g` (its start, moves and position), to free with `tess_game_free`; NULL when `g` is NULL.
/// Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_game_clone(g: *const tess_game) -> *mut tess_game {
    guard(std::ptr::null_mut(), || {
        // SAFETY: the caller's contract.
        match unsafe { g.as_ref() } {
            Some(g) => Box::into_raw(Box::new(tess_game { game: g.game.clone() })),
            None => std::ptr::null_mut(),
        }
    })
}

/// Frees a game from `tess_game_new` or `tess_game_clone`; NULL does nothing. Thread safety: no other
/// call on `g` may run at the same time, or after.
///
/// # Safety
/// `g` is NULL or a live game, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_game_free(g: *mut tess_game) {
    if !g.is_null() {
        // SAFETY: the caller's contract: g came from Box::into_raw and is freed once.
        guard((), || drop(unsafe { Box::from_raw(g) }));
    }
}

/// The number of leaf nodes of the legal move tree of the current position to `depth` plies (perft;
/// depth 0 is 1), or [`TESS_PERFT_ERROR`] when `g` is NULL. Runs on the calling thread for as long as it
/// takes (the 4D start's perft(4) is 2.7 billion leaves), with about 64 KB of that thread's stack per
/// ply. Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_perft(g: *const tess_game, depth: u32) -> u64 {
    guard(TESS_PERFT_ERROR, || {
        // SAFETY: the caller's contract.
        let Some(g) = (unsafe { g.as_ref() }) else { return TESS_PERFT_ERROR };
        tesseract_movegen::perft(&mut g.game.position().clone(), depth)
    })
}

/// The legal moves of the current position as texts (RULES.md section 4: `e2e4`, `e7e8q` in 2D, `22132313` in
/// 4D), separated by single spaces and NUL-terminated, in `buf` (`buflen` bytes).
///
/// Returns the number of moves (0 after mate or stalemate: the buffer then holds ""; a game drawn by rule
/// still lists its moves, which `tess_play` refuses), or minus the buffer
/// size needed when `buf` is NULL or too small (the buffer then holds ""), or [`TESS_E_INVALID`] when `g`
/// is NULL. Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game; `buf` is NULL or valid for `buflen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_legal_moves(g: *const tess_game, buf: *mut c_char, buflen: usize) -> i32 {
    guard(TESS_E_INVALID, || {
        // SAFETY: the caller's contract.
        let Some(g) = (unsafe { g.as_ref() }) else { return TESS_E_INVALID };
        let pos = g.game.position();
        let moves = tesseract_movegen::legal_moves(pos);
        let texts: Vec<String> = moves.iter().map(|&m| TextMove::from_move(m, pos).to_string()).collect();
        // SAFETY: the caller's contract.
        size_or_count(unsafe { write_text(&texts.join(" "), buf, buflen) }, moves.len())
    })
}

/// A count (or length) on success, minus the size needed when the buffer was too small.
fn size_or_count(written: Result<(), usize>, count: usize) -> i32 {
    match written {
        Ok(()) => i32::try_from(count).unwrap_or(i32::MAX),
        // Texts here are far shorter than 2 GB.
        Err(needed) => i32::try_from(needed).map_or(TESS_E_INVALID, |n| -n),
    }
}

/// The current position as FEN (2D) or TFEN (4D), NUL-terminated, in `buf`. Returns its length, or
/// minus the buffer size needed, or [`TESS_E_INVALID`] when `g` is NULL. Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game; `buf` is NULL or valid for `buflen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_fen(g: *const tess_game, buf: *mut c_char, buflen: usize) -> i32 {
    guard(TESS_E_INVALID, || {
        // SAFETY: the caller's contract.
        let Some(g) = (unsafe { g.as_ref() }) else { return TESS_E_INVALID };
        let fen = g.game.position().fen();
        // SAFETY: the caller's contract.
        size_or_count(unsafe { write_text(&fen, buf, buflen) }, fen.len())
    })
}

/// Plays `move` (a move text, RULES.md section 4) if it is legal and the game is not over.
///
/// Returns [`TESS_OK`] when played; otherwise the game is unchanged and the result is [`TESS_E_MOVE`]
/// (not a legal move here: `err` says why), [`TESS_E_GAME_OVER`] (`tess_status` is not
/// [`TESS_ONGOING`]: a draw by rule ends the game too), [`TESS_E_NULL`], [`TESS_E_UTF8`] or
/// [`TESS_E_PANIC`].
/// Thread safety: changes `g`.
///
/// # Safety
/// `g` is NULL or a live game; `move` is NULL or a NUL-terminated string; `err` is NULL or valid for
/// `errlen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_play(g: *mut tess_game, r#move: *const c_char, err: *mut c_char, errlen: usize) -> i32 {
    // SAFETY: the caller's contract.
    unsafe { play(g, Text::Terminated(r#move), err, errlen) }
}

/// `tess_play` with `move` given as `len` bytes of UTF-8 (no NUL needed; NULL only with `len` 0).
/// Thread safety: changes `g`.
///
/// # Safety
/// `g` is NULL or a live game; `move` is valid for `len` bytes; `err` is NULL or valid for `errlen`
/// bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_play_n(
    g: *mut tess_game,
    r#move: *const c_char,
    len: usize,
    err: *mut c_char,
    errlen: usize,
) -> i32 {
    // SAFETY: the caller's contract.
    unsafe { play(g, Text::Sized(r#move, len), err, errlen) }
}

/// `tess_play` and `tess_play_n`.
///
/// # Safety
/// As theirs.
unsafe fn play(g: *mut tess_game, r#move: Text, err: *mut c_char, errlen: usize) -> i32 {
    let played = guard(Err((TESS_E_PANIC, "the library panicked (a bug)".to_owned())), || {
        // SAFETY: the caller's contract.
        let g = unsafe { g.as_mut() }.ok_or((TESS_E_NULL, "the game is NULL".to_owned()))?;
        // SAFETY: the caller's contract.
        let text = unsafe { read_text(r#move) }.map_err(|(code, m)| (code, format!("move: {m}")))?;
        if let Some(end) = g.game.status() {
            return Err((TESS_E_GAME_OVER, format!("the game is over: {end}")));
        }
        g.game.play_text(text.trim()).map(|_| ()).map_err(|e| (TESS_E_MOVE, e.to_string()))
    });
    match played {
        Ok(()) => TESS_OK,
        Err((code, message)) => {
            // SAFETY: the caller's contract.
            unsafe { write_error(&message, err, errlen) };
            code
        }
    }
}

/// Takes back the last move. Returns [`TESS_OK`], or [`TESS_E_MOVE`] when no move was played, or
/// [`TESS_E_NULL`]. Thread safety: changes `g`.
///
/// # Safety
/// `g` is NULL or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_undo(g: *mut tess_game) -> i32 {
    guard(TESS_E_PANIC, || {
        // SAFETY: the caller's contract.
        let Some(g) = (unsafe { g.as_mut() }) else { return TESS_E_NULL };
        if g.game.undo().is_some() { TESS_OK } else { TESS_E_MOVE }
    })
}

/// The number of moves (plies) played. 0 when `g` is NULL. Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_ply(g: *const tess_game) -> u32 {
    guard(0, || {
        // SAFETY: the caller's contract.
        unsafe { g.as_ref() }.map_or(0, |g| u32::try_from(g.game.moves().len()).unwrap_or(u32::MAX))
    })
}

/// The side to move: 0 for White, 1 for Black; [`TESS_E_NULL`] when `g` is NULL. Thread safety: reads
/// `g`.
///
/// # Safety
/// `g` is NULL or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_side_to_move(g: *const tess_game) -> i32 {
    guard(TESS_E_PANIC, || {
        // SAFETY: the caller's contract.
        let Some(g) = (unsafe { g.as_ref() }) else { return TESS_E_NULL };
        i32::from(g.game.position().turn() == tesseract_board::Color::Black)
    })
}

/// The engine's move in the current position within `nodes` nodes (at least 1), as a move text in
/// `buf` ([`TESS_MOVE_TEXT_MAX`] bytes are always enough). Deterministic: the same game and budget give
/// the same move on every machine. Blocks the calling thread until it is found (a few hundred thousand
/// nodes per second; the search itself runs on a thread with a stack of its own; see
/// `tess_search_start` to think without blocking).
///
/// Returns [`TESS_OK`], or [`TESS_E_GAME_OVER`] (`tess_status` is not [`TESS_ONGOING`]),
/// [`TESS_E_BUFFER`], [`TESS_E_NULL`], [`TESS_E_RESOURCE`] (no memory for the table, no thread) or
/// [`TESS_E_PANIC`]. Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game; `buf` is NULL or valid for `buflen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_best_move(g: *const tess_game, nodes: u64, buf: *mut c_char, buflen: usize) -> i32 {
    guard(TESS_E_PANIC, || {
        // SAFETY: the caller's contract.
        let Some(g) = (unsafe { g.as_ref() }) else { return TESS_E_NULL };
        if g.game.status().is_some() {
            return TESS_E_GAME_OVER;
        }
        let mut thinker = Thinker::lazy(HASH_MB);
        let limits = Limits { nodes: Some(nodes.max(1)), ..Limits::default() };
        let pos = g.game.position();
        if thinker.start_with(pos, g.game.history(), limits, Options::default()).is_err() {
            return TESS_E_RESOURCE;
        }
        let Some(best) = thinker.wait().map(|b| b.best_move) else { return failure_code(&thinker) };
        // SAFETY: the caller's contract.
        match unsafe { write_text(&TextMove::from_move(best, pos).to_string(), buf, buflen) } {
            Ok(()) => TESS_OK,
            Err(_) => TESS_E_BUFFER,
        }
    })
}

/// Whether the game is over: [`TESS_ONGOING`], [`TESS_CHECKMATE`] (the side to move is mated),
/// [`TESS_STALEMATE`] or [`TESS_DRAW`] (by rule; draws are claimed as soon as the rules allow);
/// [`TESS_E_NULL`] when `g` is NULL. Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_status(g: *const tess_game) -> i32 {
    guard(TESS_E_PANIC, || {
        // SAFETY: the caller's contract.
        let Some(g) = (unsafe { g.as_ref() }) else { return TESS_E_NULL };
        match g.game.status().map(|end| end.termination()) {
            None => TESS_ONGOING,
            Some(Termination::Checkmate) => TESS_CHECKMATE,
            Some(Termination::Stalemate) => TESS_STALEMATE,
            Some(_) => TESS_DRAW,
        }
    })
}

/// How the game ended, for people (`checkmate, white wins`, `threefold repetition, a draw`), or "" while
/// it goes on, in `buf`. Returns its length, or minus the buffer size needed, or [`TESS_E_INVALID`]
/// when `g` is NULL. Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game; `buf` is NULL or valid for `buflen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_status_text(g: *const tess_game, buf: *mut c_char, buflen: usize) -> i32 {
    guard(TESS_E_INVALID, || {
        // SAFETY: the caller's contract.
        let Some(g) = (unsafe { g.as_ref() }) else { return TESS_E_INVALID };
        let text = g.game.status().map(|end| end.to_string()).unwrap_or_default();
        // SAFETY: the caller's contract.
        size_or_count(unsafe { write_text(&text, buf, buflen) }, text.len())
    })
}

/// Starts the engine on the current position of `g` (with its history, for repetitions), on a thread of
/// its own, and returns at once. It stops by itself after `nodes` nodes (0: no node limit) or
/// `max_ms` milliseconds (0: no time limit), or when `tess_search_stop` or `tess_search_free` is called;
/// with both limits 0 it thinks until stopped. A node budget alone gives the move `tess_best_move`
/// gives. The search keeps its own copy of the position: `g` may change or be freed meanwhile.
///
/// Returns NULL with the reason in `err` when `g` is NULL, the game is over (`tess_status` is not
/// [`TESS_ONGOING`]), or no thread can be started. The table is allocated on the search thread: without
/// the memory for it the search ends at once, and `tess_search_poll` says [`TESS_E_RESOURCE`]. Free the
/// search with `tess_search_free`. Thread safety: reads `g`.
///
/// # Safety
/// `g` is NULL or a live game; `err` is NULL or valid for `errlen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_search_start(
    g: *const tess_game,
    nodes: u64,
    max_ms: u32,
    err: *mut c_char,
    errlen: usize,
) -> *mut tess_search {
    let start = || {
        // SAFETY: the caller's contract.
        let g = unsafe { g.as_ref() }.ok_or("the game is NULL")?;
        if let Some(end) = g.game.status() {
            return Err(format!("the game is over: {end}"));
        }
        // The table is allocated on the search thread: this call returns at once.
        let mut thinker = Thinker::lazy(HASH_MB);
        let limits = Limits {
            nodes: (nodes > 0).then_some(nodes),
            time: (max_ms > 0).then(|| Duration::from_millis(max_ms.into())),
            ..Limits::default()
        };
        let root = g.game.position().clone();
        thinker.start_with(&root, g.game.history(), limits, Options::default()).map_err(|e| e.to_string())?;
        Ok(tess_search { thinker, root })
    };
    // SAFETY: the caller's contract.
    unsafe { make(err, errlen, start) }
}

/// Looks at a search without blocking. Returns [`TESS_THINKING`] while it thinks, with the best line
/// of its last finished iteration (none before the first: `info->depth` is 0 and `buf` holds ""), and
/// [`TESS_OK`] once it has ended, with its final move (`info->is_final` is 1), from then on.
///
/// The line goes into `buf` as move texts separated by spaces, the best move first, cut to the whole
/// moves that fit; [`TESS_E_BUFFER`] when not even the best move fits ([`TESS_MOVE_TEXT_MAX`] bytes
/// always do). `info` and `buf` may be NULL. [`TESS_E_NULL`] when `s` is NULL; when the search failed,
/// [`TESS_E_RESOURCE`] (no memory for its table) or [`TESS_E_PANIC`] (a bug). Thread safety: one thread
/// at a time on `s`.
///
/// # Safety
/// `s` is NULL or a live search; `info` is NULL or valid for writing; `buf` is NULL or valid for `buflen`
/// bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_search_poll(
    s: *mut tess_search,
    info: *mut tess_search_info,
    buf: *mut c_char,
    buflen: usize,
) -> i32 {
    // SAFETY: the caller's contract.
    unsafe { look(s, info, buf, buflen, Thinker::poll) }
}

/// Stops a search (if it still runs), waits for its thread, and gives its final move as
/// `tess_search_poll` does once a search has ended ([`TESS_OK`]). Thread safety: one thread at a time
/// on `s`.
///
/// # Safety
/// As `tess_search_poll`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_search_stop(
    s: *mut tess_search,
    info: *mut tess_search_info,
    buf: *mut c_char,
    buflen: usize,
) -> i32 {
    // SAFETY: the caller's contract.
    unsafe { look(s, info, buf, buflen, Thinker::stop) }
}

/// `tess_search_poll` and `tess_search_stop`: what `how` gives, reported.
///
/// # Safety
/// As theirs.
unsafe fn look(
    s: *mut tess_search,
    info: *mut tess_search_info,
    buf: *mut c_char,
    buflen: usize,
    how: fn(&mut Thinker) -> Option<tesseract_search::BestMove>,
) -> i32 {
    guard(TESS_E_PANIC, || {
        // SAFETY: the caller's contract.
        let Some(s) = (unsafe { s.as_mut() }) else { return TESS_E_NULL };
        let best = how(&mut s.thinker);
        // SAFETY: the caller's contract.
        unsafe { report(s, best, info, buf, buflen) }
    })
}

/// The code of a search that ended without a move: no memory for its table, or a panic.
fn failure_code(thinker: &Thinker) -> i32 {
    match thinker.failure() {
        Some(ThinkError::Table(_)) => TESS_E_RESOURCE,
        _ => TESS_E_PANIC,
    }
}

/// Writes what a poll or a stop found.
///
/// # Safety
/// As `tess_search_poll`.
unsafe fn report(
    s: &tess_search,
    best: Option<tesseract_search::BestMove>,
    info: *mut tess_search_info,
    buf: *mut c_char,
    buflen: usize,
) -> i32 {
    let found = best.as_ref().map_or_else(tess_search_info::default, |b| tess_search_info {
        depth: b.depth,
        is_final: u32::from(b.is_final()),
        score_cp: match b.score {
            Score::Cp(cp) => cp,
            Score::Mate(_) => 0,
        },
        mate: match b.score {
            Score::Mate(m) => m,
            Score::Cp(_) => 0,
        },
        nodes: b.nodes,
    });
    // SAFETY: the caller's contract.
    if let Some(info) = unsafe { info.as_mut() } {
        *info = found;
    }
    let status = match &best {
        Some(b) if b.is_final() => TESS_OK,
        Some(_) => TESS_THINKING,
        // Started only on a position with moves: an ended search without a move has failed.
        None if !s.thinker.is_thinking() => {
            // SAFETY: the caller's contract; no line from an earlier poll stays in the buffer.
            let _ = unsafe { write_text("", buf, buflen) };
            return failure_code(&s.thinker);
        }
        None => TESS_THINKING,
    };
    if buf.is_null() {
        return status;
    }
    let texts = best.as_ref().map(|b| tesseract_movegen::text_line(&s.root, &b.pv)).unwrap_or_default();
    let mut line = String::new();
    for text in texts.iter().map(ToString::to_string) {
        let extra = if line.is_empty() { text.len() } else { text.len() + 1 };
        if line.len() + extra + 1 > buflen {
            break;
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&text);
    }
    if line.is_empty() && !texts.is_empty() {
        // SAFETY: the caller's contract.
        let _ = unsafe { write_text("", buf, buflen) };
        return TESS_E_BUFFER;
    }
    // SAFETY: the caller's contract; the line fits, or both are empty (then buflen may be 0).
    let _ = unsafe { write_text(&line, buf, buflen) };
    status
}

/// Stops a search if it runs, joins its thread and frees it; NULL does nothing. Thread safety: no other
/// call on `s` may run at the same time, or after.
///
/// # Safety
/// `s` is NULL or a live search, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tess_search_free(s: *mut tess_search) {
    if !s.is_null() {
        // SAFETY: the caller's contract: s came from Box::into_raw and is freed once.
        guard((), || drop(unsafe { Box::from_raw(s) }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_shared_between_threads_only_as_the_docs_say() {
        fn sync_and_send<T: Send + Sync>() {}
        sync_and_send::<tess_game>();
        fn send<T: Send>() {}
        send::<tess_search>();
    }

    #[test]
    fn a_panic_stops_at_the_boundary() {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        assert_eq!(guard(TESS_E_PANIC, || -> i32 { panic!("a bug") }), TESS_E_PANIC);
        assert_eq!(guard(TESS_E_PANIC, || TESS_OK), TESS_OK);
        std::panic::set_hook(hook);
    }
}
