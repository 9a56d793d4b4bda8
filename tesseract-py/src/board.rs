//! `Board`: a game of any shape over tesseract-search's `Game`, with a python-chess-like API.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use pyo3::exceptions::{PyIndexError, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use tesseract_board::fen::CastlingNotation;
use tesseract_board::{CastlingMode, Color, Move, Position, Shape, TextMove, start};
use tesseract_movegen::san::{self, SanPlus};
use tesseract_movegen::{Claims, Legal, PerftTable, divide_parallel_with_stop, divide_with_stop, legal_moves};
use tesseract_search::{Game, game_ply};

use crate::cells::cell_arg;
use crate::errors::{
    InvalidMoveError, check_fen_len, check_move_len, fen_error, move_error, san_error, text_move_error,
};
use crate::moves::{PyMove, PyPiece};
use crate::outcome::Outcome;
use crate::{interrupt, stack};

/// What `Board.__reduce__` returns: `Board.from_moves` and its arguments (start text, move texts, Chess960
/// mode).
type Reduced<'py> = (Bound<'py, PyAny>, (String, Vec<String>, bool));

/// The largest perft table, in megabytes: the workspace's one cap on table sizes (as for the perft
/// example's `--hash` and the UCI engine's `Hash`).
const MAX_HASH_MB: usize = tesseract_movegen::MAX_TABLE_MB;

/// A game on a board of any shape the library reads: 4D Tesseract (5⁴), chess and Chess960 (8×8), and
/// boards of 1 to 4 axes of side 3 to 9 from their FEN. It keeps the start position and the moves played,
/// so that `pop()` takes a move back and the rules' claims (threefold repetition, the 50-move rule) see
/// the whole game.
///
/// `Board()` is the classic chess start; `Board(fen)` reads FEN (2D) or TFEN (4D); the static methods
/// `tesseract`, `chess`, `chess960` and `from_start` give the named starts.
#[pyclass(module = "tesseract", name = "Board")]
#[derive(Clone)]
pub(crate) struct Board {
    game: Game,
    /// The moves played, with their texts, for `move_stack` and `peek`.
    stack: Vec<PyMove>,
}

impl Board {
    pub(crate) fn from_position(pos: Position) -> Board {
        Board { game: Game::new(pos, 0), stack: Vec::new() }
    }

    /// The board of a game: `start`, then `moves` played (each checked).
    pub(crate) fn with_moves(start: Position, moves: impl IntoIterator<Item = Move>) -> PyResult<Board> {
        let mut board = Board::from_position(start);
        for m in moves {
            board.play(m)?;
        }
        Ok(board)
    }

    pub(crate) fn pos(&self) -> &Position {
        self.game.position()
    }

    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// Reads a position text, in the castling mode asked for (None: as the text says).
    fn read(fen: &str, chess960: Option<bool>) -> PyResult<Position> {
        check_fen_len(fen)?;
        let pos = stack::ample(|| match chess960 {
            None => Position::from_fen(fen),
            Some(true) => Position::from_fen_with_mode(fen, CastlingMode::Chess960),
            Some(false) => Position::from_fen_with_mode(fen, CastlingMode::Standard),
        });
        pos.map_err(|e| fen_error(&e))
    }

    /// The legal move a Python value names: a `Move` of a board of this shape, or a move text.
    fn resolve(&self, value: &Bound<'_, PyAny>) -> PyResult<Move> {
        if let Ok(m) = value.cast::<PyMove>() {
            let m = m.get();
            let shape = self.pos().shape();
            if m.shape != shape {
                return Err(InvalidMoveError::new_err(format!(
                    "the move {} belongs to a board of shape {}, this board is {shape}",
                    m.text, m.shape
                )));
            }
            if !stack::ample(|| self.pos().is_legal(m.raw)) {
                return Err(move_error(&tesseract_movegen::MoveError::Illegal {
                    text: m.text.to_string(),
                    reason: "not in the legal move list",
                }));
            }
            return Ok(m.raw);
        }
        if let Ok(s) = value.cast::<PyString>() {
            return self.parse(&s.to_cow()?);
        }
        Err(PyTypeError::new_err(format!(
            "a move is a tesseract.Move or a move text (str), not {}",
            value.get_type().name()?
        )))
    }

    /// Parses and resolves a move text.
    fn parse(&self, text: &str) -> PyResult<Move> {
        check_move_len(text)?;
        let parsed = TextMove::parse(text).map_err(|e| text_move_error(&e))?;
        stack::ample(|| self.pos().resolve(&parsed)).map_err(|e| move_error(&e))
    }

    /// Parses and resolves a move in algebraic notation (SAN in 2D, the long form elsewhere).
    fn parse_algebraic(&self, text: &str) -> PyResult<Move> {
        check_move_len(text)?;
        stack::ample(|| san::parse_move(self.pos(), text)).map_err(|e| san_error(&e))
    }

    /// Plays a legal move (checked again by the game).
    pub(crate) fn play(&mut self, m: Move) -> PyResult<PyMove> {
        let entry = PyMove::new(m, self.pos());
        stack::ample(|| self.game.play(m)).map_err(|e| move_error(&e))?;
        self.stack.push(entry.clone());
        Ok(entry)
    }

    /// The start position's text, read back in the same castling mode by `Board(text, chess960=...)`.
    fn start_text(&self) -> String {
        text_of(self.game.start())
    }

    /// How the game ended: with the claims (threefold, 50 moves) made, or by the automatic rules alone
    /// (mate, stalemate, insufficient material, fivefold, 75 moves), as python-chess's `outcome`.
    fn outcome_of(&self, claim_draw: bool) -> Option<Outcome> {
        let claims = if claim_draw { Claims::all() } else { Claims::empty() };
        stack::ample(|| self.game.rules().end(claims)).map(Outcome::of)
    }

    fn chess960_mode(&self) -> bool {
        self.pos().castling_mode() == CastlingMode::Chess960
    }
}

/// A position's text, Shredder-FEN castling in Chess960 mode (so that the mode reads back).
fn text_of(pos: &Position) -> String {
    match pos.castling_mode() {
        CastlingMode::Standard => pos.fen(),
        CastlingMode::Chess960 => pos.fen_with(CastlingNotation::Shredder),
    }
}

/// The deepest count: each ply of the recursion holds a move list of 61 KB on its thread's stack (the
/// count gets a stack sized for the depth, see [`stack::for_perft`]), and no tree that deep could be
/// counted anyway.
const MAX_PERFT_DEPTH: u32 = 64;

/// Perft split by first move, on `threads` threads (None: one per core) with a shared table of `hash_mb`
/// megabytes (0: none); one thread without a table is the plain recursive count of tesseract-movegen. The
/// count runs on a thread of its own, which Ctrl-C stops ([`interrupt::run`]: `KeyboardInterrupt`).
fn split(
    py: Python<'_>,
    pos: Position,
    depth: u32,
    threads: Option<usize>,
    hash_mb: usize,
) -> PyResult<Vec<(Move, u64)>> {
    let stop = AtomicBool::new(false);
    let counts = interrupt::run(py, stack::for_perft(depth), &stop, || -> PyResult<_> {
        if threads == Some(1) && hash_mb == 0 {
            let mut pos = pos;
            return Ok(divide_with_stop(&mut pos, depth, &stop));
        }
        let table = match hash_mb {
            0 => None,
            mb => Some(PerftTable::try_new(mb).map_err(|e| PyMemoryError::new_err(e.to_string()))?),
        };
        let n = threads.unwrap_or(0);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .stack_size(stack::for_perft(depth))
            .build()
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start {n} counting threads: {e}")))?;
        Ok(pool.install(|| divide_parallel_with_stop(&pos, depth, table.as_ref(), &stop)))
    })??;
    // Only an interrupt stops a count, and it raised its exception above.
    counts.ok_or_else(|| PyRuntimeError::new_err("the count was stopped"))
}

fn check_count_args(depth: u32, threads: Option<usize>, hash_mb: usize) -> PyResult<()> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PyValueError::new_err(format!("depth: expected 0 to {MAX_PERFT_DEPTH}, not {depth}")));
    }
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads: expected a positive number of threads, or None for every core"));
    }
    if hash_mb > MAX_HASH_MB {
        return Err(PyValueError::new_err(format!("hash_mb: expected 0 to {MAX_HASH_MB} megabytes, not {hash_mb}")));
    }
    Ok(())
}

#[pymethods]
impl Board {
    /// A board from a position text: FEN in 2D (castling as KQkq, X-FEN or Shredder-FEN), TFEN in 4D
    /// (RULES.md §4), or any shape the board crate reads; None (the default) is the classic chess start.
    /// `chess960` forces the castling mode (None: Chess960 when the text's castling rights say so).
    ///
    /// Raises FenError, with the reason, for a text that is not a valid position.
    #[new]
    #[pyo3(signature = (fen=None, *, chess960=None))]
    fn new(fen: Option<String>, chess960: Option<bool>) -> PyResult<Board> {
        let pos = match fen {
            None if chess960 == Some(true) => start::chess960(518).expect("518 is a Chess960 number"),
            None => start::chess(),
            Some(text) => Board::read(&text, chess960)?,
        };
        Ok(Board::from_position(pos))
    }

    /// The start of 4D Tesseract with an army: `light` (22 pieces a side), `standard` (32) or `dense` (42).
    #[staticmethod]
    #[pyo3(signature = (army="standard"))]
    fn tesseract(army: &str) -> PyResult<Board> {
        let army = army.parse::<start::Army>().map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Board::from_position(start::tesseract(army)))
    }

    /// The classic chess start.
    #[staticmethod]
    fn chess() -> Board {
        Board::from_position(start::chess())
    }

    /// Chess960 start position `n` (Scharnagl numbering 0 to 959; 518 is the classic arrangement), in
    /// Chess960 mode (castling as king takes own rook, `e1h1`).
    #[staticmethod]
    fn chess960(n: i64) -> PyResult<Board> {
        let number =
            u32::try_from(n).map_err(|_| PyValueError::new_err(format!("Chess960 numbers run 0..959, not {n}")))?;
        let pos = start::chess960(number).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Board::from_position(pos))
    }

    /// As `chess960(n)`, under python-chess's name.
    #[staticmethod]
    fn from_chess960_pos(n: i64) -> PyResult<Board> {
        Board::chess960(n)
    }

    /// A named start, as the command-line examples take them: `light`, `standard`, `dense`, `classic`
    /// or `chess960:N`.
    #[staticmethod]
    fn from_start(name: &str) -> PyResult<Board> {
        start::by_name(name).map(Board::from_position).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The board after playing `moves` (move texts) from the position `fen`; `chess960` as for `Board()`.
    ///
    /// Raises FenError for the text, InvalidMoveError or IllegalMoveError for the first move that cannot
    /// be played.
    #[staticmethod]
    #[pyo3(signature = (fen, moves, chess960=None))]
    fn from_moves(fen: String, moves: Vec<String>, chess960: Option<bool>) -> PyResult<Board> {
        let mut board = Board::from_position(Board::read(&fen, chess960)?);
        for text in &moves {
            let m = board.parse(text)?;
            board.play(m)?;
        }
        Ok(board)
    }

    /// The board of a python-chess `chess.Board`: its root position and its move stack (so that pop()
    /// and the repetition rule see the same game), in its castling mode.
    ///
    /// Raises FenError or IllegalMoveError when the library does not accept the position or a move
    /// (python-chess boards may hold positions this library refuses, with no king for example), and
    /// ValueError for a variant board.
    #[staticmethod]
    fn from_chess(board: &Bound<'_, PyAny>) -> PyResult<Board> {
        let py = board.py();
        let variant: String = board.getattr("uci_variant")?.extract()?;
        if variant != "chess" {
            return Err(PyValueError::new_err(format!(
                "only standard chess boards convert, not the variant {variant:?}"
            )));
        }
        let chess960: bool = board.getattr("chess960")?.extract()?;
        let root = board.call_method0("root")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("shredder", chess960)?;
        // A pseudo-legal en passant square, as this library keeps it (python-chess's default writes only
        // a legal one).
        kwargs.set_item("en_passant", "xfen")?;
        let fen: String = root.call_method("fen", (), Some(&kwargs))?.extract()?;
        let mut texts = Vec::new();
        for m in board.getattr("move_stack")?.try_iter()? {
            texts.push(m?.call_method0("uci")?.extract::<String>()?);
        }
        Board::from_moves(fen, texts, Some(chess960))
    }

    /// The same game as a python-chess `chess.Board` (8×8 boards only): the start position and every
    /// move pushed, in the same castling mode. Needs python-chess (`pip install chess`).
    fn to_chess<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.pos().shape() != Shape::CHESS {
            return Err(PyValueError::new_err(format!(
                "only 8x8 boards convert to python-chess; this board is {}",
                self.pos().shape()
            )));
        }
        let chess = py.import("chess")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("chess960", self.chess960_mode())?;
        let board = chess.getattr("Board")?.call((self.start_text(),), Some(&kwargs))?;
        for m in &self.stack {
            board.call_method1("push_uci", (m.text.to_string(),))?;
        }
        Ok(board)
    }

    /// The legal moves, in the generator's order, as a new list.
    #[getter]
    fn legal_moves(&self) -> Vec<PyMove> {
        let pos = self.pos();
        stack::ample(|| legal_moves(pos).iter().map(|&m| PyMove::new(m, pos)).collect())
    }

    /// Whether a move (a Move or a move text) is legal here; never raises for a malformed text.
    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
        self.resolve(mv).is_ok()
    }

    /// The legal move a move text names here (RULES.md §4: eight digits in 4D, UCI in 2D).
    ///
    /// Raises InvalidMoveError for text that is not a move on this board, IllegalMoveError for a move
    /// that is not legal here.
    fn parse_uci(&self, text: String) -> PyResult<PyMove> {
        let m = self.parse(&text)?;
        Ok(PyMove::new(m, self.pos()))
    }

    /// Plays a move, given as a Move or as its text, after checking it is legal (python-chess does not
    /// check; this board does). On error the board is unchanged.
    ///
    /// Raises InvalidMoveError or IllegalMoveError, TypeError for any other kind of value.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.resolve(mv)?;
        self.play(m).map(|_| ())
    }

    /// Plays the move a text names and returns it; raises as `parse_uci`, the board unchanged then.
    fn push_uci(&mut self, text: String) -> PyResult<PyMove> {
        let m = self.parse(&text)?;
        self.play(m)
    }

    /// The move in standard algebraic notation with its check mark, as python-chess writes it (`Nf3`,
    /// `exd6`, `O-O`, `e8=Q+`, `Qxf7#`); on boards of one, three and four axes the readable long form
    /// (`Y2213-2313`, `N3111-4131`, `R2-3`). The move is a Move or a move text.
    ///
    /// Raises InvalidMoveError or IllegalMoveError when it is not a legal move here, TypeError for any
    /// other kind of value.
    fn san(&self, mv: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.resolve(mv)?;
        let written = stack::ample(|| SanPlus::try_from_move(self.pos(), m)).map_err(|e| san_error(&e))?;
        Ok(written.to_string())
    }

    /// The legal move a text in algebraic notation names here: SAN in 2D as python-chess reads it (check
    /// marks and `!`/`?` annotations allowed, `0-0`, promotions with or without `=`, over-specified and
    /// fully specified moves such as `Ng1f3` or `e2e4`), the long form on boards of one, three and four
    /// axes (`Y2213-2313`).
    ///
    /// Raises InvalidMoveError for text that is not algebraic notation (or is written for a board of
    /// another number of axes), IllegalMoveError when no legal move matches, AmbiguousMoveError when
    /// several do (python-chess's three exceptions, all ValueError).
    fn parse_san(&self, text: &str) -> PyResult<PyMove> {
        let m = self.parse_algebraic(text)?;
        Ok(PyMove::new(m, self.pos()))
    }

    /// Plays the move a text in algebraic notation names and returns it; raises as `parse_san`, the
    /// board unchanged then.
    fn push_san(&mut self, text: &str) -> PyResult<PyMove> {
        let m = self.parse_algebraic(text)?;
        self.play(m)
    }

    /// Takes back the last move and returns it. Raises IndexError when no move was played.
    fn pop(&mut self) -> PyResult<PyMove> {
        let entry = self.stack.pop().ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        self.game.undo();
        Ok(entry)
    }

    /// The last move played. Raises IndexError when no move was played.
    fn peek(&self) -> PyResult<PyMove> {
        self.stack.last().cloned().ok_or_else(|| PyIndexError::new_err("peek at an empty move stack"))
    }

    /// The moves played since the start, as a new list.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.stack.clone()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        stack::ample(|| self.pos().is_check())
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        matches!(stack::ample(|| self.pos().outcome()), Some(tesseract_movegen::Outcome::Checkmate { .. }))
    }

    /// Whether the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> bool {
        matches!(stack::ample(|| self.pos().outcome()), Some(tesseract_movegen::Outcome::Stalemate))
    }

    /// Whether the current position occurred at least `count` times (counting now) since the last
    /// capture or pawn move.
    #[pyo3(signature = (count=3))]
    fn is_repetition(&self, count: usize) -> bool {
        self.game.repetitions() >= count
    }

    /// Whether 100 plies went by without a capture or a pawn move.
    fn is_fifty_moves(&self) -> bool {
        self.pos().halfmove_clock() >= 100
    }

    /// Whether the material left can never mate: kings alone; on 8×8 also K+N v K, K+B v K and bishops
    /// all on one color (FIDE's dead positions by material, as python-chess's `is_insufficient_material`
    /// decides them).
    fn is_insufficient_material(&self) -> bool {
        self.pos().is_insufficient_material()
    }

    /// Whether 150 plies went by without a capture or a pawn move (an automatic draw).
    fn is_seventyfive_moves(&self) -> bool {
        self.pos().halfmove_clock() >= 150
    }

    /// Whether the current position occurred five times (an automatic draw).
    fn is_fivefold_repetition(&self) -> bool {
        self.game.repetitions() >= 5
    }

    /// Whether the side to move may claim a draw now: threefold repetition or the 50-move rule, in the
    /// position on the board (python-chess's `can_claim_draw` also tries each legal move for a claim made
    /// by writing the move down; this one does not).
    fn can_claim_draw(&self) -> bool {
        !stack::ample(|| self.game.rules().claimable()).is_empty()
    }

    /// How the game ended, or None while it goes on: tesseract-movegen's `Game` rules.
    ///
    /// With `claim_draw=True` (the default) every draw is claimed as soon as allowed, as the engine, the
    /// UCI front end and the examples end games: checkmate, stalemate, insufficient material, the 75-move
    /// rule, fivefold repetition, the 50-move rule, threefold repetition. With `claim_draw=False` only
    /// the automatic ends (python-chess's default).
    #[pyo3(signature = (*, claim_draw=true))]
    fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        self.outcome_of(claim_draw)
    }

    /// Whether the game is over: `outcome(claim_draw=claim_draw) is not None`.
    #[pyo3(signature = (*, claim_draw=true))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.outcome_of(claim_draw).is_some()
    }

    /// The position text: FEN in 2D (castling rights in X-FEN, which is KQkq for classic positions, or
    /// Shredder-FEN with `shredder=True`), TFEN in 4D. The en passant cell appears only when a pawn of the
    /// side to move could capture there (python-chess's `en_passant="xfen"`).
    #[pyo3(signature = (*, shredder=false))]
    fn fen(&self, shredder: bool) -> String {
        let notation = if shredder { CastlingNotation::Shredder } else { CastlingNotation::XFen };
        self.pos().fen_with(notation)
    }

    /// The side to move: True for White, False for Black (as in python-chess).
    #[getter]
    fn turn(&self) -> bool {
        self.pos().turn() == Color::White
    }

    /// Whether castling follows the Chess960 rules (castling written as king takes own rook, `e1h1`);
    /// python-chess's `board.chess960` (here `Board.chess960(n)` is the start position `n`).
    #[getter(chess960_mode)]
    fn get_chess960_mode(&self) -> bool {
        self.chess960_mode()
    }

    /// The position's 64-bit Zobrist hash (the library's keys; equal positions hash equally, whatever the
    /// moves that led there).
    fn zobrist_hash(&self) -> u64 {
        self.pos().hash()
    }

    /// The position's 64-bit Zobrist hash, as `zobrist_hash()`.
    #[getter]
    fn hash(&self) -> u64 {
        self.pos().hash()
    }

    /// The number of axes: 2 for chess, 4 for Tesseract (1 to 4).
    #[getter]
    fn dims(&self) -> usize {
        self.pos().geometry().dims()
    }

    /// The number of cells along each axis: 8 for chess, 5 for Tesseract (3 to 9).
    #[getter]
    fn side(&self) -> usize {
        self.pos().geometry().side()
    }

    /// The number of cells, side ** dims (625 for Tesseract).
    #[getter]
    fn cell_count(&self) -> usize {
        self.pos().geometry().cells()
    }

    /// The halfmove clock: plies since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos().halfmove_clock()
    }

    /// The fullmove number, from 1, increased after each Black move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos().fullmove_number()
    }

    /// The en passant target cell (its index), or None.
    #[getter]
    fn ep_square(&self) -> Option<usize> {
        self.pos().en_passant().map(|ep| ep.target.index())
    }

    /// The number of plies since the start of the game the position's counters describe:
    /// 2 * (fullmove_number - 1), plus 1 when Black is to move.
    fn ply(&self) -> u64 {
        game_ply(self.pos())
    }

    /// The piece on a cell (an index, a tuple of 1-based coordinates, or a name such as `e4` or `2313`),
    /// or None when it is empty. Raises ValueError for a cell off the board.
    fn piece_at(&self, cell: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let pos = self.pos();
        let c = cell_arg(pos.geometry(), cell)?;
        Ok(pos.piece_at(c).map(|piece| PyPiece { piece, dims: pos.geometry().dims() }))
    }

    /// Every piece, by cell index.
    fn piece_map(&self) -> HashMap<usize, PyPiece> {
        let pos = self.pos();
        let dims = pos.geometry().dims();
        pos.pieces().map(|(c, piece)| (c.index(), PyPiece { piece, dims })).collect()
    }

    /// The index of a cell given in any of the forms `piece_at` takes.
    fn cell_index(&self, cell: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(cell_arg(self.pos().geometry(), cell)?.index())
    }

    /// The name of a cell: `e4` in 2D, one digit per axis otherwise (`2313`).
    fn cell_name(&self, cell: &Bound<'_, PyAny>) -> PyResult<String> {
        let g = self.pos().geometry();
        Ok(g.cell_name(cell_arg(g, cell)?))
    }

    /// The 1-based coordinates (x, y, z, w: one per axis) of a cell.
    fn coords<'py>(&self, py: Python<'py>, cell: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
        let g = self.pos().geometry();
        let c = g.coords(cell_arg(g, cell)?);
        PyTuple::new(py, &c[..g.dims()])
    }

    /// A copy; with `stack=False` its game starts at the current position (no moves to pop).
    #[pyo3(signature = (*, stack=true))]
    fn copy(&self, stack: bool) -> Board {
        if stack { self.clone() } else { Board::from_position(self.pos().clone()) }
    }

    /// The board at the start of its game.
    fn root(&self) -> Board {
        Board::from_position(self.game.start().clone())
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep (0 to 64). Runs without the GIL,
    /// so other Python threads go on meanwhile; on every core by default, on `threads` threads if given
    /// (1: the plain single-thread count), with a shared transposition table of `hash_mb` megabytes
    /// (default 0, none; exact by construction). Ctrl-C interrupts a long count: KeyboardInterrupt.
    #[pyo3(signature = (depth, *, threads=None, hash_mb=0))]
    fn perft(slf: &Bound<'_, Self>, depth: u32, threads: Option<usize>, hash_mb: usize) -> PyResult<u64> {
        check_count_args(depth, threads, hash_mb)?;
        let mut pos = slf.borrow().pos().clone();
        if depth <= 1 {
            // One move generation at most: no thread, nothing to interrupt.
            return Ok(stack::ample(|| tesseract_movegen::perft(&mut pos, depth)));
        }
        Ok(split(slf.py(), pos, depth, threads, hash_mb)?.iter().map(|&(_, n)| n).sum())
    }

    /// Perft split by first move: a dict from each legal move's text to the leaves below it, in the
    /// generator's order. Same arguments as `perft`; Ctrl-C interrupts it (KeyboardInterrupt).
    #[pyo3(signature = (depth, *, threads=None, hash_mb=0))]
    fn divide(slf: &Bound<'_, Self>, depth: u32, threads: Option<usize>, hash_mb: usize) -> PyResult<Py<PyDict>> {
        check_count_args(depth, threads, hash_mb)?;
        let pos = slf.borrow().pos().clone();
        let py = slf.py();
        let counts = split(py, pos.clone(), depth, threads, hash_mb)?;
        let out = PyDict::new(py);
        for (m, n) in counts {
            out.set_item(TextMove::from_move(m, &pos).to_string(), n)?;
        }
        Ok(out.unbind())
    }

    /// Equal when the positions are equal (pieces, side to move, castling rights, en passant cell, move
    /// counters), whatever the moves that led there.
    fn __eq__(&self, other: &Board) -> bool {
        self.pos() == other.pos()
    }

    /// Boards change, so they are not hashable; use `zobrist_hash()`.
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// The board's text picture: a 2D diagram, or for 4D the 5×5 grid of 5×5 boards (z rows, w columns;
    /// x and y inside each board), then the side to move.
    fn __str__(&self) -> String {
        self.pos().to_string()
    }

    fn __repr__(&self) -> String {
        let text = text_of(self.pos());
        if self.chess960_mode() { format!("Board('{text}', chess960=True)") } else { format!("Board('{text}')") }
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Pickles as the start position and the moves (`Board.from_moves`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let from_moves = py.get_type::<Board>().getattr("from_moves")?;
        let texts = self.stack.iter().map(|m| m.text.to_string()).collect();
        Ok((from_moves, (self.start_text(), texts, self.chess960_mode())))
    }
}
