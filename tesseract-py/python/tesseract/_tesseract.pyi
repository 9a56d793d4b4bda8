"""Type stubs of the extension module ``tesseract._tesseract`` (re-exported by ``tesseract``)."""

import os
from typing import Any, Optional, Sequence, Tuple, Union, final

__all__ = [
    "AmbiguousMoveError",
    "Analysis",
    "Board",
    "FenError",
    "IllegalMoveError",
    "InvalidMoveError",
    "Lesson",
    "Move",
    "Outcome",
    "PgnError",
    "PgnLineCut",
    "PgnRecord",
    "PgnStream",
    "Piece",
    "Study",
    "Tablebases",
    "Termination",
    "__version__",
    "engine_analyse",
    "engine_play",
    "lesson_solution",
    "lessons",
    "pgn_parse",
    "playout_seed",
    "playouts",
    "studies",
]

__version__: str

_Cell = Union[int, str, Tuple[int, ...], Sequence[int]]
"""A cell: an index ``(x-1) + n(y-1) + n²(z-1) + n³(w-1)``, a tuple of 1-based coordinates (one per
axis), or a name (``"e4"`` in 2D, ``"2313"`` in 4D)."""

class FenError(ValueError):
    """A position text that is malformed or describes no valid position."""

class InvalidMoveError(ValueError):
    """A move text that is not a move on this board (malformed, or for a board of another shape)."""

class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position."""

class AmbiguousMoveError(ValueError):
    """A move in algebraic notation that names more than one legal move (the message lists them)."""

class PgnError(ValueError):
    """A game of a PGN text that cannot be read (a malformed tag, an unclosed comment or variation, an
    unknown variant, ...); the message says where."""

@final
class Move:
    """A legal move of some position. Moves come from a board; equal when the same move on a board of
    the same shape."""

    @property
    def from_cell(self) -> int:
        """The index of the cell the piece leaves."""
    @property
    def to_cell(self) -> int:
        """The index of the cell the move text names (g1 for classic castling, the rook's cell in
        Chess960 mode)."""
    @property
    def promotion(self) -> Optional[str]:
        """The upper-case letter of the promotion piece, or None."""
    def uci(self) -> str:
        """The move text: eight digits (and a promotion letter) in 4D, six in 3D, two on one axis, UCI in
        2D; ``Board.push_uci`` reads it back."""
    def text(self) -> str:
        """The move text, as ``uci()``."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Piece:
    """A piece: its color and kind."""

    @property
    def color(self) -> bool:
        """True for White, False for Black."""
    @property
    def role(self) -> str:
        """king, queen, rook, bishop, knight, unicorn, dragon, pawn (2D), Y-pawn or W-pawn."""
    def symbol(self) -> str:
        """The FEN/TFEN letter, upper case for White."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Termination:
    """Why a game ended (python-chess's names)."""

    CHECKMATE: Termination
    STALEMATE: Termination
    INSUFFICIENT_MATERIAL: Termination
    SEVENTYFIVE_MOVES: Termination
    FIVEFOLD_REPETITION: Termination
    FIFTY_MOVES: Termination
    THREEFOLD_REPETITION: Termination
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __int__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Outcome:
    """How a game ended."""

    @property
    def termination(self) -> Termination: ...
    @property
    def winner(self) -> Optional[bool]:
        """True for White, False for Black, None for a draw."""
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Analysis:
    """What the engine found."""

    @property
    def move(self) -> Move: ...
    @property
    def score(self) -> str:
        """``cp 23`` or ``mate 3`` (negative: the side to move gets mated)."""
    @property
    def cp(self) -> Optional[int]: ...
    @property
    def mate(self) -> Optional[int]: ...
    @property
    def depth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def pv(self) -> list[Move]: ...

@final
class Board:
    """A game on a board of any shape: 4D Tesseract, chess, Chess960, and boards of 1 to 4 axes of
    side 3 to 9."""

    def __new__(cls, fen: Optional[str] = None, *, chess960: Optional[bool] = None) -> Board: ...
    @staticmethod
    def tesseract(army: str = "standard") -> Board:
        """The 4D start: army ``light``, ``standard`` or ``dense``."""
    @staticmethod
    def chess() -> Board: ...
    @staticmethod
    def chess960(n: int) -> Board:
        """Chess960 start position n (Scharnagl 0..959), in Chess960 mode."""
    @staticmethod
    def from_chess960_pos(n: int) -> Board: ...
    @staticmethod
    def from_start(name: str) -> Board:
        """``light``, ``standard``, ``dense``, ``classic`` or ``chess960:N``."""
    @staticmethod
    def from_moves(fen: str, moves: Sequence[str], chess960: Optional[bool] = None) -> Board: ...
    @staticmethod
    def from_chess(board: Any) -> Board:
        """From a python-chess ``chess.Board`` (root position and move stack)."""
    def to_chess(self) -> Any:
        """To a python-chess ``chess.Board`` (8x8 only)."""
    @property
    def legal_moves(self) -> list[Move]: ...
    def is_legal(self, mv: Union[Move, str]) -> bool: ...
    def parse_uci(self, text: str) -> Move: ...
    def push(self, mv: Union[Move, str]) -> None: ...
    def push_uci(self, text: str) -> Move: ...
    def san(self, mv: Union[Move, str]) -> str:
        """SAN with its check mark (``Nf3``, ``O-O``, ``e8=Q+``); the long form ``Y2213-2313`` on boards
        of one, three and four axes."""
    def parse_san(self, text: str) -> Move:
        """The legal move a SAN text names; InvalidMoveError, IllegalMoveError or AmbiguousMoveError."""
    def push_san(self, text: str) -> Move:
        """Plays the move a SAN text names; raises as ``parse_san``, the board unchanged then."""
    def pop(self) -> Move: ...
    def peek(self) -> Move: ...
    @property
    def move_stack(self) -> list[Move]: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_repetition(self, count: int = 3) -> bool: ...
    def is_fifty_moves(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def is_seventyfive_moves(self) -> bool: ...
    def is_fivefold_repetition(self) -> bool: ...
    def can_claim_draw(self) -> bool: ...
    def outcome(self, *, claim_draw: bool = True) -> Optional[Outcome]: ...
    def is_game_over(self, *, claim_draw: bool = True) -> bool: ...
    def fen(self, *, shredder: bool = False) -> str: ...
    @property
    def turn(self) -> bool:
        """True when White is to move."""
    @property
    def chess960_mode(self) -> bool: ...
    def zobrist_hash(self) -> int: ...
    @property
    def hash(self) -> int: ...
    @property
    def dims(self) -> int: ...
    @property
    def side(self) -> int: ...
    @property
    def cell_count(self) -> int: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    @property
    def ep_square(self) -> Optional[int]: ...
    def ply(self) -> int: ...
    def piece_at(self, cell: _Cell) -> Optional[Piece]: ...
    def piece_map(self) -> dict[int, Piece]: ...
    def cell_index(self, cell: _Cell) -> int: ...
    def cell_name(self, cell: _Cell) -> str: ...
    def coords(self, cell: _Cell) -> Tuple[int, ...]: ...
    def copy(self, *, stack: bool = True) -> Board: ...
    def root(self) -> Board: ...
    def perft(self, depth: int, *, threads: Optional[int] = None, hash_mb: int = 0) -> int:
        """Leaves of the legal move tree; Ctrl-C raises KeyboardInterrupt."""
    def divide(self, depth: int, *, threads: Optional[int] = None, hash_mb: int = 0) -> dict[str, int]:
        """perft under each first move; Ctrl-C raises KeyboardInterrupt."""
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any) -> Board: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str, list[str], bool]]: ...

@final
class Tablebases:
    """Endgame tables: pawnless endings of up to four pieces with their distance to mate, on chess, the 3D
    Raumschach board or the 4D Tesseract board."""

    @staticmethod
    def load(path: Union[str, "os.PathLike[str]"]) -> Tablebases:
        """Every ``*.ttb`` file of a folder; OSError when it cannot be read, ValueError for a damaged file."""
    @staticmethod
    def generate(board: str, material: Union[str, Sequence[str]]) -> Tablebases:
        """Generates ``material`` (``"KRK"`` or a list) on ``chess``, ``raumschach`` or ``tesseract``."""
    def save(self, path: Union[str, "os.PathLike[str]"]) -> None: ...
    def tables(self) -> list[Tuple[str, str]]:
        """``(board, material)`` pairs such as ``("8x8", "KRK")``."""
    def probe(self, board: Board) -> Optional[Tuple[int, int]]:
        """``(wdl, dtm)``: wdl 1/0/-1 for the side to move, dtm plies to mate (negative when mated); None
        when no table covers the position."""
    def probe_wdl(self, board: Board) -> int: ...
    def probe_dtm(self, board: Board) -> int: ...
    def get_wdl(self, board: Board) -> Optional[int]: ...
    def get_dtm(self, board: Board) -> Optional[int]: ...
    def best_move(self, board: Board) -> Optional[Move]: ...
    def __len__(self) -> int: ...

def engine_play(
    board: Board,
    tier: Optional[str] = None,
    *,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    seed: int = 0,
    tablebases: Optional[Tablebases] = None,
) -> Move:
    """The engine's move (tier beginner/club/expert/master, default club; or nodes/depth limits); with
    ``tablebases``, a position they cover is answered by their move; Ctrl-C raises KeyboardInterrupt."""

def engine_analyse(
    board: Board,
    tier: Optional[str] = None,
    *,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    seed: int = 0,
    tablebases: Optional[Tablebases] = None,
) -> Analysis:
    """As ``engine_play``, with the score, depth, nodes and principal variation."""

def studies() -> list[dict[str, Any]]:
    """The twelve mate studies, in order: ``number`` (from 1), ``name``, ``title``, ``n`` (White mates in
    n), ``fen``, ``idea``, ``key`` (a move text) and ``line`` (the proven main line, move texts)."""

def lessons() -> list[dict[str, Any]]:
    """The eight tutorial lessons, in order: ``number`` (from 1), ``name``, ``title``, ``teaches``, ``fen``,
    ``pieces`` (cell names), ``goal`` (capture, reach, check, promote), ``target`` (a cell name or None),
    ``bound`` (the par) and ``explain``."""

def lesson_solution(number: int) -> list[str]:
    """A shortest way through lesson ``number`` (1 to 8), as move texts."""

@final
class Study:
    """A mate study being solved: White's moves are judged by the mate solver and answered by Black's
    longest defence, or refuted (``failed``; ``take_back`` and try again)."""

    def __new__(cls, number: int) -> Study: ...
    @property
    def number(self) -> int: ...
    @property
    def title(self) -> str: ...
    @property
    def n(self) -> int:
        """White mates in this many moves."""
    @property
    def idea(self) -> str: ...
    @property
    def fen(self) -> str: ...
    @property
    def moves(self) -> list[str]:
        """The move texts played so far, White's and Black's."""
    @property
    def moves_left(self) -> int: ...
    @property
    def solved(self) -> bool: ...
    @property
    def failed(self) -> bool: ...
    def play(self, text: str) -> dict[str, Any]:
        """Plays White's move and Black's answer: ``{"reply": "solved" | "defence" | "refuted", "white",
        "defence", "defence_name", "moves"}``."""
    def hint(self) -> str:
        """The cell name of the piece that moves next in a solution."""
    def take_back(self) -> bool: ...
    def restart(self) -> None: ...

@final
class Lesson:
    """A tutorial lesson being followed: only the taught pieces move, the other side passes."""

    def __new__(cls, number: int) -> Lesson: ...
    @property
    def number(self) -> int: ...
    @property
    def title(self) -> str: ...
    @property
    def explain(self) -> str: ...
    @property
    def goal(self) -> str: ...
    @property
    def target(self) -> Optional[str]: ...
    @property
    def bound(self) -> int: ...
    @property
    def fen(self) -> str: ...
    @property
    def pieces(self) -> list[str]: ...
    @property
    def count(self) -> int: ...
    @property
    def done(self) -> bool: ...
    def legal_moves(self) -> list[str]:
        """The taught pieces' legal moves, as move texts."""
    def play(self, text: str) -> bool:
        """Plays the learner's move; returns whether the goal is met."""
    def restart(self) -> None: ...

def playouts(
    start: str,
    *,
    white: str = "random",
    black: str = "random",
    seed: int = 0,
    first_game: int = 0,
    games: int = 1,
    max_plies: int = 10000,
) -> list[dict[str, Any]]:
    """Games ``first_game`` to ``first_game + games - 1`` of the run seeded ``seed`` from the start named
    ``start``, each seeded ``playout_seed(seed, k)``, as the ``experiment`` example plays them: one dict a
    game with the columns of its CSV (start, game, seed, white, black, plies, result, reason,
    mean_branching, max_branching, captures, promotions, checks, white_pieces, black_pieces,
    engine_nodes). Players: ``random``, a tier name or ``nodes=N``. Without the GIL; Ctrl-C stops it
    between games."""

def playout_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``run_seed`` (SplitMix64, as ``experiment``)."""

_PgnItem = Tuple[Optional[PgnRecord], Optional[list[Tuple[str, str]]], Optional[ValueError]]
"""A game read: ``(record, None, None)`` for a good game; a bad one's error and either the record salvaged
(tags, start, the moves before the error) or None and the tags read."""

@final
class PgnRecord:
    """A game record (tesseract-movegen's ``PgnGame``), the core of ``tesseract.pgn.Game``; immutable."""

    @staticmethod
    def from_board(board: Board) -> PgnRecord: ...
    @staticmethod
    def from_tags(tags: Sequence[Tuple[str, str]]) -> PgnRecord:
        """No moves, starting where ``Variant`` and ``FEN`` say (FenError, PgnError)."""
    def tags(self) -> list[Tuple[str, str]]: ...
    @property
    def result(self) -> str: ...
    def comments(self) -> list[str]:
        """The comments before the first move."""
    def __len__(self) -> int: ...
    def start(self) -> Board: ...
    def board_at(self, ply: int) -> Board:
        """The board after the first ``ply`` moves, with them on its stack (IndexError past the end)."""
    def moves(self) -> list[Move]: ...
    def nodes(self) -> list[Tuple[Move, list[str], list[int], list[str]]]:
        """Each move with its comments, NAGs and variations (raw text)."""
    def sans(self) -> list[str]: ...
    def to_pgn(
        self,
        *,
        tags: Optional[Sequence[Tuple[str, str]]] = None,
        result: Optional[str] = None,
        comments: Optional[Sequence[str]] = None,
        annotations: Optional[Sequence[Tuple[Sequence[str], Sequence[int], Sequence[str]]]] = None,
        columns: Optional[int] = ...,
        notation: str = "auto",
        write_comments: bool = True,
        write_variations: bool = True,
    ) -> str:
        """PGN export format; the arguments given replace the record's own."""

@final
class PgnStream:
    """Every game of a file, read ``chunk`` characters (or bytes) at a time, cut apart and read without
    the GIL; yields ``(record, tags, error)``."""

    def __new__(cls, handle: Any, chunk: int = ...) -> PgnStream:
        """``chunk``: 262144 by default."""
    def __iter__(self) -> PgnStream: ...
    def __next__(self) -> _PgnItem: ...

@final
class PgnLineCut:
    """Where one game read line by line ends: ``feed(line)`` is 0 (it goes on), 1 (it ends with this line)
    or 2 (it ended before this line, the next game's tags)."""

    def __new__(cls) -> PgnLineCut: ...
    def feed(self, line: str) -> int: ...
    @property
    def in_movetext(self) -> bool: ...

def pgn_parse(text: str) -> list[_PgnItem]:
    """The games of one game's text, each as ``(record, tags, error)``."""
