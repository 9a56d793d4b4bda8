"""Tesseract: 4D chess on a 5x5x5x5 board, classic chess and Chess960, from Rust.

A python-chess-like API over the Tesseract crates::

    import tesseract

    board = tesseract.Board.tesseract("standard")   # 4D; Board() is the chess start
    print(len(board.legal_moves))                     # 226
    board.push_uci("22132313")                        # moves as eight digits in 4D, UCI in 2D
    print(board.perft(2))                             # 50420 (without the GIL, on every core)
    reply = tesseract.engine.play(board, "club", seed=7)

Endgame tables: ``Tablebases.load(dir)`` or ``Tablebases.generate("chess", "KRK")``, probed with
``probe(board) -> (wdl, dtm)`` and ``best_move(board)``, and given to the engine as
``engine.play(board, tablebases=tables)``.

The write-up's mate studies and tutorial lessons: ``studies()``, ``lessons()``, ``Study(n)`` (play
White's moves, the mate solver answers) and ``Lesson(n)`` (only the taught pieces move).

SAN as python-chess writes and reads it: ``board.san(move)``, ``board.parse_san("Nf3")``,
``board.push_san("e4")`` (the long form ``Y2213-2313`` in 3D and 4D). PGN: ``tesseract.pgn``
(``read_game``, ``read_games``, ``Game``), shaped like ``chess.pgn``.

Every error is an exception: ``FenError``, ``InvalidMoveError``, ``IllegalMoveError`` and
``AmbiguousMoveError`` (as python-chess names them) and ``PgnError`` are ``ValueError`` subclasses carrying
the library's messages.
"""

from . import engine, pgn
from ._tesseract import (
    AmbiguousMoveError,
    Analysis,
    Board,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    Lesson,
    Move,
    Outcome,
    PgnError,
    Piece,
    Study,
    Tablebases,
    Termination,
    __version__,
    lesson_solution,
    lessons,
    playout_seed,
    playouts,
    studies,
)

WHITE: bool = True
"""The side that moves first (``Board.turn`` is True when White is to move)."""
BLACK: bool = False
"""The side that moves second."""
STARTING_FEN: str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
"""The classic chess start, as python-chess names it."""

__all__ = [
    "AmbiguousMoveError",
    "Analysis",
    "BLACK",
    "Board",
    "FenError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Lesson",
    "Move",
    "Outcome",
    "PgnError",
    "Piece",
    "STARTING_FEN",
    "Study",
    "Tablebases",
    "Termination",
    "WHITE",
    "__version__",
    "engine",
    "lesson_solution",
    "lessons",
    "pgn",
    "playout_seed",
    "playouts",
    "studies",
]
