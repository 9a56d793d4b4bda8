"""PGN game records, shaped like python-chess's ``chess.pgn``: read them, look at them, write them.

::

    import tesseract.pgn

    with open("games.pgn") as f:
        for game in tesseract.pgn.read_games(f):          # every game, read in large chunks by Rust
            if game.errors:                                 # a bad game is returned, not raised
                print("skipped:", game.errors[0])
                continue
            print(game.headers["White"], game.result, len(game.mainline_moves()))

    with open("games.pgn") as f:
        game = tesseract.pgn.read_game(f)                   # one game; f is left just past it
        board = game.board()                                # the start
        for node in game.mainline():
            print(node.san(), node.comment, node.nags, node.variations)
        print(game.end().board().fen())                     # the final position

    game = tesseract.pgn.Game.from_board(board)             # a board's moves from its root
    game.headers["Event"] = "Analysis"
    print(game)                                             # PGN export format (the Rust writer)

The reading, the SAN and the writing are tesseract-movegen's (``tesseract_movegen::pgn``, ``san``): chess,
Chess960 (``[Variant "Chess960"]``) and the boards of one, three and four axes (``[Variant
"Tesseract"]``, the TFEN in ``[FEN]``, moves as digit move texts such as ``22132313`` or the long form
``Y2213-2313``). A game ends after its result, or where the next game's tags begin (blank lines do not
end games).
"""

import re
import weakref
from collections import deque
from itertools import starmap
from typing import (
    IO,
    Any,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    MutableMapping,
    Optional,
    Set,
    TextIO,
    Tuple,
    Union,
)

from ._tesseract import (
    AmbiguousMoveError,
    Board,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    PgnError,
    PgnLineCut,
    PgnRecord,
    PgnStream,
    pgn_parse,
)

__all__ = [
    "AmbiguousMoveError",
    "ChildNode",
    "FenError",
    "Game",
    "GameNode",
    "Headers",
    "IllegalMoveError",
    "InvalidMoveError",
    "PgnError",
    "RESULTS",
    "TAG_ROSTER",
    "read_game",
    "read_games",
]

TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
"""The seven tags every game has, in the order they are written (python-chess's ``TAG_ROSTER``)."""

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""The four results a game record can end with."""

_ROSTER = frozenset(TAG_ROSTER)
_ROSTER_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}
_TAG_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")
_MAX_GAME_CHARS = 1 << 24
"""The longest game text ``read_game`` holds (16 Mi characters, as ``read_games`` holds 16 MiB): a longer
game is reported and read past."""

_Item = Tuple[Optional[PgnRecord], Optional[List[Tuple[str, str]]], Optional[ValueError]]


class Headers(MutableMapping[str, str]):
    """A game's tags, python-chess's ``chess.pgn.Headers``: a mutable mapping from tag name to value, the
    seven roster tags first (in roster order), then the others in the order they were added.

    ``Headers()`` holds the roster with unknown values (``?``, ``????.??.??``, ``*``); ``Headers(data)``
    only the tags given. A tag name starts with a letter or digit and holds letters, digits and
    ``_+#=:-``, and a value (outside the roster) has no line break, else ValueError.
    """

    def __init__(
        self,
        data: Optional[Union[Mapping[str, str], Iterable[Tuple[str, str]]]] = None,
        **kwargs: str,
    ) -> None:
        self._roster: Dict[str, str] = {}
        self._others: Dict[str, str] = {}
        if data is None:
            data = _ROSTER_DEFAULTS
        self.update(data, **kwargs)

    @classmethod
    def _of(cls, tags: Iterable[Tuple[str, str]], defaults: bool) -> "Headers":
        """Headers of tags the Rust reader read (valid names, no line breaks), with the roster's
        defaults first when ``defaults``; a tag read twice keeps its last value, as in python-chess."""
        headers = cls.__new__(cls)
        headers._roster = dict(_ROSTER_DEFAULTS) if defaults else {}
        headers._others = {}
        for name, value in tags:
            if name in _ROSTER:
                headers._roster[name] = value
            else:
                headers._others[name] = value
        return headers

    def __setitem__(self, key: str, value: str) -> None:
        if key in _ROSTER:
            self._roster[key] = value
        elif not _TAG_NAME.match(key):
            raise ValueError(
                f"a tag name starts with a letter or digit and holds only letters, digits and _+#=:-: {key!r}"
            )
        elif "\n" in value or "\r" in value:
            raise ValueError(f"a tag value holds no line break: {key} {value!r}")
        else:
            self._others[key] = value

    def __getitem__(self, key: str) -> str:
        if key in _ROSTER:
            return self._roster[key]
        return self._others[key]

    def __delitem__(self, key: str) -> None:
        if key in _ROSTER:
            del self._roster[key]
        else:
            del self._others[key]

    def __iter__(self) -> Iterator[str]:
        for key in TAG_ROSTER:
            if key in self._roster:
                yield key
        yield from self._others

    def __len__(self) -> int:
        return len(self._roster) + len(self._others)

    def copy(self) -> "Headers":
        """A copy."""
        return Headers._of(self.items(), defaults=False)

    def __copy__(self) -> "Headers":
        return self.copy()

    def __repr__(self) -> str:
        pairs = ", ".join(f"{key}={value!r}" for key, value in self.items())
        return f"Headers({pairs})"


def _comment_text(comments: List[str]) -> str:
    """Several comments as one text, joined by line breaks as python-chess joins them."""
    return "\n".join(comments)


def _comments_to_write(text: str, read: List[str]) -> List[str]:
    """The comments to write for a comment text: those read when it was not changed, else the text."""
    if text == _comment_text(read):
        return read
    return [text] if text.strip() else []


class GameNode:
    """What ``Game`` (the start of the game) and ``ChildNode`` (a move of its main line) share."""

    comment: str
    """The comment after the move (for a ``Game``, before the first move); several comments read are
    joined by line breaks."""

    _index: int

    def game(self) -> "Game":
        """The game this node belongs to."""
        raise NotImplementedError

    def board(self) -> Board:
        """A new board at this node: the start's position with the moves up to this node pushed (so that
        ``pop()`` and the repetition rule see them)."""
        return self.game()._checked_record().board_at(self._index)

    def ply(self) -> int:
        """The ply of the position at this node, counted as the start position's counters count it
        (``Board.ply()``): the number of moves before it, plus the start's own ply."""
        return self.game()._start_ply() + self._index

    def next(self) -> Optional["ChildNode"]:
        """The next move's node, or None at the end of the game."""
        nodes = self.game()._nodes()
        return nodes[self._index] if self._index < len(nodes) else None

    def is_end(self) -> bool:
        """Whether no move follows."""
        return self._index >= len(self.game()._nodes())

    def end(self) -> "GameNode":
        """The last node of the main line (the game itself when it has no move): ``game.end().board()``
        is the final position."""
        nodes = self.game()._nodes()
        return nodes[-1] if nodes else self.game()

    def mainline(self) -> List["ChildNode"]:
        """The nodes of the main line after this one, in order."""
        return self.game()._nodes()[self._index :]

    def mainline_moves(self) -> List[Move]:
        """The moves of the main line after this node, in order."""
        return self.game()._moves()[self._index :]


class ChildNode(GameNode):
    """A move of a game's main line, with what annotates it (python-chess's ``ChildNode``).

    ``comment`` and ``nags`` may be changed; writing the game writes them. ``variations`` are the
    alternatives to this move as read, each the raw text between its parentheses (python-chess parses
    them into nodes; here they are text, written back as they are).
    """

    parent: GameNode
    """The node before this one (the game for the first move)."""
    move: Move
    """The move."""
    nags: Set[int]
    """Its numeric annotation glyphs (``$1`` or ``!`` is 1, ``$2`` or ``?`` is 2, ...)."""
    variations: List[str]
    """The alternatives to this move, as the raw text of each variation."""

    def __init__(
        self,
        game: "Game",
        parent: GameNode,
        index: int,
        move: Move,
        comments: List[str],
        nags: List[int],
        variations: List[str],
    ) -> None:
        self._game = game
        self.parent = parent
        self._index = index
        self.move = move
        self._comments_read = comments
        self.comment = _comment_text(comments)
        self._nags_read = nags
        self.nags = set(nags)
        self.variations = variations

    def game(self) -> "Game":
        return self._game

    def san(self) -> str:
        """The move in algebraic notation with its check mark (``Nf3``, ``O-O``, ``Qxf7#``; the long form
        ``Y2213-2313`` on boards of one, three and four axes)."""
        return self._game._sans()[self._index - 1]

    def uci(self) -> str:
        """The move text (UCI in 2D, digits elsewhere)."""
        return self.move.uci()

    def _annotations(self) -> Tuple[List[str], List[int], List[str]]:
        nags = self._nags_read if set(self._nags_read) == self.nags else sorted(self.nags)
        return _comments_to_write(self.comment, self._comments_read), nags, list(self.variations)

    def __repr__(self) -> str:
        return f"<ChildNode ply {self.ply()}: {self.san()}>"


class Game(GameNode):
    """A game record (python-chess's ``chess.pgn.Game``): headers, start position, main line with comments,
    NAGs and variations (as raw text), result, and the errors met reading it.

    ``Game()`` is an empty game from the chess start with the roster's headers; ``Game(headers)`` starts
    where the headers' ``Variant`` and ``FEN`` say (FenError, PgnError otherwise). Games come from
    ``read_game``, ``read_games`` and ``Game.from_board``. The moves cannot be changed; the headers, the
    comments and the NAGs can, and ``str(game)`` writes them.
    """

    errors: List[ValueError]
    """The errors met reading the game (python-chess's ``game.errors``): empty for a good game; for a bad
    one its error (IllegalMoveError, AmbiguousMoveError, InvalidMoveError, FenError or PgnError, with
    ``line`` and ``ply`` attributes, and ``game``, its number in the file, from ``read_games``). A bad
    game keeps its headers and the moves before the error."""

    _record: Optional[PgnRecord]
    _tags: Optional[List[Tuple[str, str]]]
    _headers: Optional[Headers]
    _node_list: Optional[List[ChildNode]]
    _move_list: Optional[List[Move]]
    _san_list: Optional[List[str]]
    _comment: Optional[str]
    _ply0: Optional[int]

    def __init__(self, headers: Optional[Union[Mapping[str, str], Iterable[Tuple[str, str]]]] = None) -> None:
        tags = Headers(headers)
        self._set(PgnRecord.from_tags(list(tags.items())), None, None)
        self._headers = tags

    def _set(
        self, record: Optional[PgnRecord], tags: Optional[List[Tuple[str, str]]], error: Optional[ValueError]
    ) -> None:
        self._record = record
        self._tags = tags
        self._headers = None
        self.errors = [] if error is None else [error]
        self._index = 0
        self._node_list = None
        self._move_list = None
        self._san_list = None
        self._comment = None
        self._ply0 = None

    @classmethod
    def _wrap(
        cls, record: Optional[PgnRecord], tags: Optional[List[Tuple[str, str]]], error: Optional[ValueError]
    ) -> "Game":
        """A game of what the Rust reader returned (nothing is built until asked for)."""
        game = cls.__new__(cls)
        game._set(record, tags, error)
        return game

    @classmethod
    def from_board(cls, board: Board) -> "Game":
        """The game of a board: its root position and every move pushed since, the roster's headers (with
        ``Variant``, ``SetUp`` and ``FEN`` when the start needs them) and the result when the game is over
        without a claim (python-chess's ``board.result()``), else ``*``."""
        return cls._wrap(PgnRecord.from_board(board), None, None)

    def game(self) -> "Game":
        return self

    @property
    def headers(self) -> Headers:
        """The tags: the roster's seven (``?`` where the game has none, as in python-chess) and the others
        read, in order. ``Result`` is the movetext's result when the tag is missing or ``*``."""
        if self._headers is None:
            if self._record is None:
                self._headers = Headers._of(self._tags or [], defaults=True)
            else:
                self._headers = Headers._of(self._record.tags(), defaults=True)
                if self._headers._roster.get("Result", "*") == "*":
                    self._headers._roster["Result"] = self._record.result
        return self._headers

    @headers.setter
    def headers(self, value: Headers) -> None:
        self._headers = value

    @property
    def result(self) -> str:
        """The result, ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``: the ``Result`` header (``*`` when it holds
        anything else). Setting it sets the header."""
        value = self.headers.get("Result", "*")
        return value if value in RESULTS else "*"

    @result.setter
    def result(self, value: str) -> None:
        if value not in RESULTS:
            raise ValueError(f"a result is 1-0, 0-1, 1/2-1/2 or *, not {value!r}")
        self.headers["Result"] = value

    @property  # type: ignore[override]
    def comment(self) -> str:
        """The comment before the first move (several joined by line breaks)."""
        if self._comment is None:
            self._comment = _comment_text(self._record.comments() if self._record is not None else [])
        return self._comment

    @comment.setter
    def comment(self, value: str) -> None:
        self._comment = value

    def _checked_record(self) -> PgnRecord:
        if self._record is None:
            raise ValueError(f"this game's start position could not be read: {self.errors[0]}")
        return self._record

    def _nodes(self) -> List[ChildNode]:
        if self._node_list is None:
            nodes: List[ChildNode] = []
            parent: GameNode = self
            if self._record is not None:
                for i, (move, comments, nags, variations) in enumerate(self._record.nodes()):
                    node = ChildNode(self, parent, i + 1, move, comments, nags, variations)
                    nodes.append(node)
                    parent = node
            self._node_list = nodes
        return self._node_list

    def _moves(self) -> List[Move]:
        if self._move_list is None:
            self._move_list = self._record.moves() if self._record is not None else []
        return self._move_list

    def _sans(self) -> List[str]:
        if self._san_list is None:
            self._san_list = self._checked_record().sans()
        return self._san_list

    def _start_ply(self) -> int:
        if self._ply0 is None:
            self._ply0 = self.board().ply()
        return self._ply0

    def mainline_moves(self) -> List[Move]:
        """The moves of the main line, in order (a new list)."""
        return list(self._moves())

    def to_pgn(
        self, *, columns: Optional[int] = 80, notation: str = "auto", comments: bool = True, variations: bool = True
    ) -> str:
        """The game in PGN export format, by tesseract-movegen's writer: the headers one a line (``Result``,
        ``Variant``, ``SetUp`` and ``FEN`` made to agree with the result and the start position), a blank
        line, the movetext wrapped at ``columns`` (None: one line), the result, a line end.

        ``notation``: ``auto`` (SAN in 2D, digit move texts such as ``22132313`` on other boards, as the
        crates write 4D games), ``san`` (SAN, and the long form ``Y2213-2313`` on other boards) or ``text``
        (UCI in 2D). ``comments=False`` leaves out comments and NAGs, ``variations=False`` variations.

        Raises ValueError for a game whose start position could not be read.
        """
        record = self._checked_record()
        annotations = None
        if self._node_list is not None:
            annotations = [node._annotations() for node in self._node_list]
        before = None
        if self._comment is not None:
            before = _comments_to_write(self._comment, record.comments())
        return record.to_pgn(
            tags=list(self.headers.items()),
            result=self.result,
            comments=before,
            annotations=annotations,
            columns=columns,
            notation=notation,
            write_comments=comments,
            write_variations=variations,
        )

    def __str__(self) -> str:
        return self.to_pgn()

    def __repr__(self) -> str:
        headers = self.headers
        errors = f", {len(self.errors)} error{'s' if len(self.errors) != 1 else ''}" if self.errors else ""
        moves = len(self._record) if self._record is not None else 0
        return (
            f"<Game ({headers.get('White', '?')!r} vs. {headers.get('Black', '?')!r}, "
            f"{moves} move{'s' if moves != 1 else ''}, "
            f"{self.result}{errors})>"
        )


class _Leftover:
    """What ``read_game`` read of a file past the game it returned: games that shared its last line, or
    the next game's first line (a tag line right after movetext), and where the file then was."""

    __slots__ = ("games", "line", "position")

    def __init__(self, games: Deque[Game], line: Optional[str], position: Optional[int]) -> None:
        self.games = games
        self.line = line
        self.position = position


_leftovers: "weakref.WeakKeyDictionary[Any, _Leftover]" = weakref.WeakKeyDictionary()
# Files that take no weak reference: kept (with the file) until read to the end.
_leftovers_kept: Dict[int, Tuple[Any, _Leftover]] = {}


def _tell(handle: Any) -> Optional[int]:
    """The file's position, or None when it cannot tell (not seekable, or being iterated over)."""
    try:
        if handle.seekable():
            position: int = handle.tell()
            return position
    except (AttributeError, OSError, ValueError):
        pass
    return None


def _seek(handle: Any, position: int) -> bool:
    try:
        handle.seek(position)
        return True
    except (AttributeError, OSError, ValueError):
        return False


def _keep_leftover(handle: Any, leftover: _Leftover) -> None:
    try:
        _leftovers[handle] = leftover
    except TypeError:
        _leftovers_kept[id(handle)] = (handle, leftover)


def _take_leftover(handle: Any) -> Optional[_Leftover]:
    try:
        leftover = _leftovers.pop(handle, None)
    except TypeError:
        kept = _leftovers_kept.pop(id(handle), None)
        leftover = kept[1] if kept is not None and kept[0] is handle else None
    if leftover is not None and leftover.position is not None and _tell(handle) != leftover.position:
        return None  # the file was moved since: what was read ahead belongs elsewhere
    return leftover


def _game_text(handle: TextIO, pending: Optional[str]) -> Tuple[Optional[str], Optional[str], bool]:
    """One game's lines, read with ``readline()`` (``pending`` first, if any): the text (None for a game
    longer than ``_MAX_GAME_CHARS``, read past), the next game's first line if it had to be read (a tag
    line right after movetext, when the file could not be moved back before it), and whether the file
    ended."""
    cut = PgnLineCut()
    lines: List[str] = []
    size = 0
    mark: Optional[int] = None
    line = pending if pending is not None else handle.readline()
    if not isinstance(line, str):
        raise TypeError(f"read_game reads a file opened in text mode; readline() returned {type(line).__name__}")
    while line.isspace():  # blank lines before the game are not counted as its lines
        line = handle.readline()
    while line:
        state = cut.feed(line)
        if state == 2:
            next_line = None if mark is not None and _seek(handle, mark) else line
            return (None if size > _MAX_GAME_CHARS else "".join(lines)), next_line, False
        size += len(line)
        if size <= _MAX_GAME_CHARS:
            lines.append(line)
        else:
            lines.clear()
        if state == 1:
            return (None if size > _MAX_GAME_CHARS else "".join(lines)), None, False
        # After a blank line in the movetext, a tag line may come next: where it starts, to go back there.
        mark = _tell(handle) if line.isspace() and cut.in_movetext else None
        line = handle.readline()
    return (None if size > _MAX_GAME_CHARS else "".join(lines)), None, True


def _too_long() -> Game:
    """A game whose text was too long to hold, with its error."""
    error = PgnError(
        f"line 1 of the game: the game's text is longer than {_MAX_GAME_CHARS} characters, the most "
        "read_game holds: read past it to the next game"
    )
    error.game, error.line, error.ply = None, 1, None  # type: ignore[attr-defined]
    return Game._wrap(None, None, error)


def read_game(handle: TextIO) -> Optional[Game]:
    """The next game of a file opened in text mode, or None at its end (python-chess's
    ``chess.pgn.read_game``).

    The file is read line by line (``readline()``) up to the game's end, so that it is left just past
    the game: the next call reads the next game, and ``tell()`` before a call gives the game's offset. A
    game ends after the line of its result, or where the next game's tags begin; when that tag line had to
    be read (a game without a result right before the next one's tags), the file is moved back before it
    when it can be (``seek``), else the line is kept for the next ``read_game`` of this file. A bad game is
    returned with its error in ``game.errors`` (lines counted from the game's first, blank lines before
    it left out); the next call reads on. A game's text is held while it is read, up to 16 Mi characters:
    a longer game is returned with a PgnError, read past without being kept.
    """
    leftover = _take_leftover(handle)
    pending: Optional[str] = None
    if leftover is not None:
        if leftover.games:
            game = leftover.games.popleft()
            if leftover.games or leftover.line is not None:
                _keep_leftover(handle, leftover)
            return game
        pending = leftover.line
    while True:
        text, pending, eof = _game_text(handle, pending)
        if text is None:
            games = deque([_too_long()])
        else:
            games = deque(starmap(Game._wrap, pgn_parse(text))) if text else deque()
        if games:
            game = games.popleft()
            if games or pending is not None:
                _keep_leftover(handle, _Leftover(games, pending, _tell(handle)))
            return game
        if eof:
            return None


def read_games(handle: IO[Any], *, chunk_size: int = 1 << 18) -> Iterator[Game]:
    """Every game of a file (text or binary; binary is read as UTF-8), in order, bad games included with
    their errors (``game.errors``, numbered by game and line in the file).

    The file is read in chunks of ``chunk_size`` characters (or bytes), and the games of each chunk are
    cut apart and read by Rust without the GIL: much faster than ``read_game`` in a loop, but the file is
    read ahead of the game returned, so do not mix it with other reads of the same file.
    """
    items: Iterator[_Item] = PgnStream(handle, chunk_size)
    return starmap(Game._wrap, items)
