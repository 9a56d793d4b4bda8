"""SAN and PGN: Board.san/parse_san/push_san and tesseract.pgn, side by side with python-chess."""

import io
import random

import pytest

import tesseract
import tesseract.pgn as tpgn

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402

from perft_positions import STARTS  # noqa: E402

# Castling, en passant, promotions, checks and pieces that need disambiguation close at hand.
POSITIONS = STARTS + [
    # Three queens and two rooks reaching the same squares: file, rank and both.
    "6k1/8/8/2Q1Q3/8/2Q5/8/R3K2R w KQ - 0 1",
    "7k/8/8/8/3N1N2/8/3N1N2/K7 w - - 0 1",
]


def normalized(comment):
    """A comment's words: tesseract-movegen reads white space runs as single spaces."""
    return " ".join(comment.split())


def check_san_of_every_move(ours, theirs):
    """Every legal move's SAN is python-chess's, and reads back to the move, in both directions."""
    before = (ours.fen(), ours.zobrist_hash())
    for move in theirs.legal_moves:
        expected = theirs.san(move)
        assert ours.san(move.uci()) == expected, (ours.fen(), move.uci())
        assert ours.parse_san(expected).uci() == move.uci(), (ours.fen(), expected)
        # What python-chess also reads: the long algebraic form and the move text.
        assert ours.parse_san(theirs.lan(move)).uci() == move.uci(), (ours.fen(), theirs.lan(move))
    for move in ours.legal_moves:
        assert ours.san(move) == theirs.san(chess.Move.from_uci(move.uci()))
    assert (ours.fen(), ours.zobrist_hash()) == before


@pytest.mark.parametrize("game", range(24))
def test_san_of_every_legal_move_agrees_with_python_chess(game):
    rng = random.Random(game)
    if game % 4 == 3:
        number = rng.randrange(960)
        ours, theirs = tesseract.Board.chess960(number), chess.Board.from_chess960_pos(number)
    else:
        fen = POSITIONS[game % len(POSITIONS)]
        ours, theirs = tesseract.Board(fen), chess.Board(fen)
    for _ in range(80):
        check_san_of_every_move(ours, theirs)
        moves = list(theirs.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        san = theirs.san(move)
        assert ours.push_san(san).uci() == move.uci()
        theirs.push(move)
        assert ours.fen() == theirs.fen(en_passant="xfen")


def test_san_reads_what_python_chess_reads():
    board = tesseract.Board()
    pairs = [("e4", "e2e4"), ("Nf3+", "g1f3"), ("Ng1f3", "g1f3"), ("Ng1-f3", "g1f3"), ("e2e4", "e2e4"), ("Nf3!?", "g1f3")]
    for text, uci in pairs:
        assert board.parse_san(text).uci() == uci
    castle = tesseract.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert castle.parse_san("O-O").uci() == "e1g1" and castle.parse_san("0-0-0").uci() == "e1c1"
    promote = tesseract.Board("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    for text in ["a8=Q", "a8Q", "a8q", "a8=Q+"]:
        assert promote.parse_san(text).uci() == "a7a8q"
    assert promote.san("a7a8n") == "a8=N"


def test_san_in_4d_is_the_long_form():
    board = tesseract.Board.tesseract()
    assert board.san("22132313") == "Y2213-2313"
    assert board.parse_san("Y2213-2313").uci() == "22132313"
    rng = random.Random(4)
    for _ in range(12):
        for move in board.legal_moves:
            assert board.parse_san(board.san(move)) == move
        board.push(rng.choice(board.legal_moves))
    with pytest.raises(tesseract.InvalidMoveError):
        board.parse_san("e4")  # short SAN is for 2D boards


def test_san_errors_are_python_chess_exceptions_and_change_nothing():
    board = tesseract.Board("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    before = (board.fen(), board.zobrist_hash(), len(board.move_stack))
    cases = [
        ("Rd1", tesseract.AmbiguousMoveError, "Rd1 is ambiguous here: it could be a1d1 or h1d1"),
        ("Nf3", tesseract.IllegalMoveError, "no knight can move to f3"),
        ("Ke4", tesseract.IllegalMoveError, "e4"),
        ("Pe4", tesseract.InvalidMoveError, "not a move in algebraic notation"),
        ("", tesseract.InvalidMoveError, "empty"),
        ("x" * 100, tesseract.InvalidMoveError, "at most 64 bytes"),
        ("Y2213-2313", tesseract.InvalidMoveError, "axes"),
        ("--", tesseract.InvalidMoveError, "algebraic"),
    ]
    for text, error, message in cases:
        for method in (board.parse_san, board.push_san):
            with pytest.raises(error, match=None) as raised:
                method(text)
            assert message in str(raised.value), (text, str(raised.value))
            assert isinstance(raised.value, ValueError)
            assert (board.fen(), board.zobrist_hash(), len(board.move_stack)) == before
    with pytest.raises(tesseract.IllegalMoveError):
        board.san("a1b2")  # not a legal move: no SAN
    with pytest.raises(tesseract.InvalidMoveError):
        board.san("22132313")
    with pytest.raises(TypeError):
        board.san(3)
    assert (board.fen(), board.zobrist_hash(), len(board.move_stack)) == before


def test_random_san_texts_never_crash():
    rng = random.Random(7)
    alphabet = "abcdefghKQRBNPYWUDx=+#-O0!?12345678 \x00é"
    for fen in [chess.STARTING_FEN, POSITIONS[1]]:
        board = tesseract.Board(fen)
        for _ in range(3000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(12)))
            try:
                board.parse_san(text)
            except ValueError:
                pass
        assert board.fen() == tesseract.Board(fen).fen()


# --- PGN ---------------------------------------------------------------------------------------------

COMMENTS = ["good", "a comment\nover two lines", "[%clk 0:01:00]", "{ spaces }".strip("{ }"), "é and ü"]


def random_game(rng, number, fen=None, chess960=False, plies=60):
    """A python-chess game with headers, comments, NAGs and variations (some nested) at random."""
    board = chess.Board(fen, chess960=chess960) if fen else chess.Board(chess960=chess960)
    game = chess.pgn.Game()
    if fen or chess960:
        game.setup(board)
    game.headers["Event"] = f"Test {number}"
    game.headers["White"] = f"Player {rng.randrange(100)}"
    game.headers["WhiteElo"] = str(1200 + rng.randrange(1600))
    if rng.random() < 0.3:
        game.comment = rng.choice(COMMENTS)
    node = game
    for _ in range(rng.randrange(1, plies)):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        if rng.random() < 0.1 and len(moves) > 1:
            alternative = node.add_variation(rng.choice([m for m in moves if m != move]))
            alternative.comment = rng.choice(COMMENTS)
            after = board.copy()
            after.push(alternative.move)
            replies = list(after.legal_moves)
            if replies:
                reply = alternative.add_variation(rng.choice(replies))
                if rng.random() < 0.5 and len(replies) > 1:
                    reply.parent.add_variation(rng.choice([m for m in replies if m != reply.move]))
        node = node.add_main_variation(move)
        if rng.random() < 0.15:
            node.comment = rng.choice(COMMENTS)
        if rng.random() < 0.1:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 10, 14, 255]))
        board.push(move)
    game.headers["Result"] = board.result()
    return game


def corpus(seed, games=30):
    """A multi-game PGN text as python-chess writes it, with a byte-order mark, a `%` line, a comment with
    a blank line, games from a FEN, Chess960 games, and a game whose result is in its movetext only."""
    rng = random.Random(seed)
    texts = []
    for k in range(games):
        if k % 10 == 3:
            game = random_game(rng, k, fen=POSITIONS[1 + k % (len(POSITIONS) - 1)])
        elif k % 10 == 7:
            game = random_game(rng, k, chess960=True, fen=chess.Board.from_chess960_pos(rng.randrange(960)).fen())
        else:
            game = random_game(rng, k)
        texts.append(str(game))
    texts.append('[Event "Hand-written"]\n[White "A"]\n\n% an escape line\n1. e4\ne5 2. Nf3 {\ntwo\n\nparagraphs } Nc6 1-0')
    texts.append('[Event "No result tag"]\n\n1. d4 d5 2. c4 0-1')
    return "\ufeff" + "\n\n".join(texts) + "\n"


def python_chess_games(text):
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


def our_games(text):
    handle = io.StringIO(text)
    games = []
    while (game := tpgn.read_game(handle)) is not None:
        games.append(game)
    return games


def compare_games(ours, theirs):
    assert [m.uci() for m in ours.mainline_moves()] == [m.uci() for m in theirs.mainline_moves()]
    assert dict(ours.headers) == dict(theirs.headers)
    assert normalized(ours.comment) == normalized(theirs.comment)
    assert len(ours.mainline()) == len(list(theirs.mainline()))
    ply = 0
    for mine, python_chess in zip(ours.mainline(), theirs.mainline()):
        ply += 1
        assert mine.move.uci() == python_chess.move.uci()
        assert mine.san() == python_chess.san()
        assert mine.ply() == python_chess.ply()
        assert normalized(mine.comment) == normalized(python_chess.comment), ply
        assert mine.nags == python_chess.nags, ply
        alternatives = python_chess.parent.variations[1:]
        assert len(mine.variations) == len(alternatives), ply
        for raw, variation in zip(mine.variations, alternatives):
            assert variation.san() in raw.split(), (raw, variation.san())
    end = theirs.end().board()
    assert ours.end().board().fen() == end.fen(en_passant="xfen")
    assert ours.board().fen() == theirs.board().fen(en_passant="xfen")


def test_a_multi_game_file_reads_as_python_chess_reads_it():
    text = corpus(1)
    theirs = python_chess_games(text)
    ours = our_games(text)
    streamed = list(tpgn.read_games(io.StringIO(text)))
    assert len(ours) == len(theirs) == len(streamed) == 32
    for mine, python_chess, stream in zip(ours, theirs, streamed):
        assert mine.errors == [] and python_chess.errors == [] and stream.errors == []
        compare_games(mine, python_chess)
        assert str(stream) == str(mine)
    assert ours[-2].comment == "" and normalized(ours[-2].mainline()[2].comment) == "two paragraphs"
    assert ours[-1].result == "0-1" and ours[-1].headers["Result"] == "0-1"
    assert ours[7].board().chess960_mode


def test_written_games_read_back_in_both_libraries():
    for mine, python_chess in zip(our_games(corpus(2)), python_chess_games(corpus(2))):
        written = str(mine)
        again = tpgn.read_game(io.StringIO(written))
        assert again is not None and again.errors == []
        assert str(again) == written
        compare_games(again, python_chess)
        theirs = chess.pgn.read_game(io.StringIO(written))
        assert theirs.errors == []
        compare_games(mine, theirs)


def test_chunk_sizes_and_binary_files_give_the_same_games():
    text = corpus(3, games=12)
    expected = [str(g) for g in tpgn.read_games(io.StringIO(text))]
    assert len(expected) == 14
    for chunk in [1, 2, 3, 7, 64, 1000]:
        assert [str(g) for g in tpgn.read_games(io.StringIO(text), chunk_size=chunk)] == expected, chunk
    assert [str(g) for g in tpgn.read_games(io.BytesIO(text.encode()), chunk_size=5)] == expected


BAD = """[Event "Good 1"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "Illegal"]
[White "X"]

1. e4 e5 2. Nf3 { fine } Nc6 3. Ke3 Nf6 4. d4 0-1

[Event "Ambiguous"]
[FEN "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"]
[SetUp "1"]

1. Kd2 Kd8 2. Rd1 *

[Event "Bad FEN"]
[FEN "8/8/8/8 w - - 0 1"]

1. e4 *

[Event "Unclosed variation"]

1. d4 ( 1. c4 e5

[Event "Good 2"]

1. c4 e5 1/2-1/2
"""


def test_a_bad_game_is_reported_and_the_next_one_read():
    for games in [our_games(BAD), list(tpgn.read_games(io.StringIO(BAD))), list(tpgn.read_games(io.StringIO(BAD), chunk_size=3))]:
        assert [g.headers["Event"] for g in games] == ["Good 1", "Illegal", "Ambiguous", "Bad FEN", "Unclosed variation", "Good 2"]
        good1, illegal, ambiguous, bad_fen, unclosed, good2 = games
        assert good1.errors == [] and good2.errors == []
        assert [m.uci() for m in good2.mainline_moves()] == ["c2c4", "e7e5"] and good2.result == "1/2-1/2"
        # The moves before the error are kept, as python-chess keeps them.
        (error,) = illegal.errors
        assert isinstance(error, tesseract.IllegalMoveError) and error.ply == 5
        assert "Ke3 is not a legal move here" in str(error)
        assert [m.uci() for m in illegal.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6"]
        assert illegal.mainline()[2].comment == "fine" and illegal.headers["White"] == "X"
        assert isinstance(ambiguous.errors[0], tesseract.AmbiguousMoveError)
        assert [m.uci() for m in ambiguous.mainline_moves()] == ["e2d2", "e8d8"]
        assert isinstance(bad_fen.errors[0], tesseract.FenError) and bad_fen.headers["FEN"] == "8/8/8/8 w - - 0 1"
        assert bad_fen.mainline_moves() == [] and bad_fen.end() is bad_fen
        with pytest.raises(ValueError, match="start position could not be read"):
            bad_fen.board()
        with pytest.raises(ValueError):
            str(bad_fen)
        assert isinstance(unclosed.errors[0], tesseract.PgnError) and "variation not closed" in str(unclosed.errors[0])
        assert [m.uci() for m in unclosed.mainline_moves()] == ["d2d4"]
    # The stream numbers games and lines in the file.
    error = list(tpgn.read_games(io.StringIO(BAD)))[1].errors[0]
    assert (error.game, error.line, error.ply) == (2, 8, 5)
    assert str(error).startswith("game 2, line 8, ply 5: ")
    # python-chess keeps the same moves of the illegal and the ambiguous games.
    theirs = python_chess_games(BAD)
    assert [m.uci() for m in theirs[1].mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert type(theirs[1].errors[0]).__name__ == "IllegalMoveError"
    assert type(theirs[2].errors[0]).__name__ == "AmbiguousMoveError"


def test_read_game_leaves_the_file_at_the_next_game():
    text = corpus(4, games=6)
    handle = io.StringIO(text)
    offsets, games = [], []
    while True:
        offsets.append(handle.tell())
        game = tpgn.read_game(handle)
        if game is None:
            break
        games.append(str(game))
    assert len(games) == 8
    # python-chess's idiom: an offset kept, the game read again from it.
    for offset, expected in zip(offsets, games):
        handle.seek(offset)
        assert str(tpgn.read_game(handle)) == expected
    # Mixed with python-chess's reader on the same file.
    handle.seek(offsets[2])
    assert [m.uci() for m in chess.pgn.read_game(handle).mainline_moves()] == [
        m.uci() for m in tpgn.read_game(io.StringIO(games[2])).mainline_moves()
    ]
    assert str(tpgn.read_game(handle)) == games[3]


class Lines:
    """A file that can only be read forward."""

    def __init__(self, text):
        self._file = io.StringIO(text)

    def readline(self):
        return self._file.readline()


class SlotLines:
    """The same, and no weak reference to it can be made."""

    __slots__ = ("_file",)

    def __init__(self, text):
        self._file = io.StringIO(text)

    def readline(self):
        return self._file.readline()


NO_RESULTS = """[Event "1"]
1. e4 e5
[Event "2"]

1. d4 d5

[Event "3"]
1. c4 1-0 1. Nf3 *
[Event "4"]
1. b3
"""


@pytest.mark.parametrize("make", [io.StringIO, Lines, SlotLines])
def test_games_without_results_and_several_on_a_line(make):
    handle = make(NO_RESULTS)
    games = []
    while (game := tpgn.read_game(handle)) is not None:
        games.append(game)
    assert [(g.headers["Event"], [m.uci() for m in g.mainline_moves()], g.result) for g in games] == [
        ("1", ["e2e4", "e7e5"], "*"),
        ("2", ["d2d4", "d7d5"], "*"),
        ("3", ["c2c4"], "1-0"),
        ("?", ["g1f3"], "*"),
        ("4", ["b2b3"], "*"),
    ]
    assert [str(g) for g in tpgn.read_games(io.StringIO(NO_RESULTS))] == [str(g) for g in games]
    assert tpgn.read_game(handle) is None


def test_a_4d_game_is_written_and_read_back():
    rng = random.Random(5)
    board = tesseract.Board.tesseract("light")
    for _ in range(30):
        board.push(rng.choice(board.legal_moves))
    game = tpgn.Game.from_board(board)
    game.headers["Event"] = "4D"
    game.mainline()[3].comment = "a comment"
    game.mainline()[4].nags.add(3)
    text = str(game)
    assert '[Variant "Tesseract"]\n[SetUp "1"]\n[FEN "' in text
    assert board.root().fen() in text
    assert f"1. {board.move_stack[0].uci()} " in text
    for notation in ["auto", "san", "text"]:
        written = game.to_pgn(notation=notation)
        if notation == "san":
            assert game.mainline()[0].san() in written
        back = tpgn.read_game(io.StringIO(written))
        assert back is not None and back.errors == [], back.errors
        assert back.mainline_moves() == board.move_stack
        assert back.end().board() == board and back.end().board().fen() == board.fen()
        assert back.headers["Event"] == "4D" and back.mainline()[3].comment == "a comment"
        assert back.mainline()[4].nags == {3} and back.board().dims == 4
    streamed = list(tpgn.read_games(io.StringIO(text + "\n" + text)))
    assert [g.mainline_moves() for g in streamed] == [board.move_stack, board.move_stack]


def test_game_from_board_round_trip():
    rng = random.Random(6)
    for number in [None, 17]:
        board = tesseract.Board() if number is None else tesseract.Board.chess960(number)
        theirs = chess.Board() if number is None else chess.Board.from_chess960_pos(number)
        while not board.is_game_over(claim_draw=False) and len(board.move_stack) < 300:
            move = rng.choice(board.legal_moves)
            board.push(move)
            theirs.push_uci(move.uci())
        game = tpgn.Game.from_board(board)
        assert game.result == theirs.result() == game.headers["Result"]
        python_chess = chess.pgn.Game.from_board(theirs)
        assert dict(game.headers) == dict(python_chess.headers)
        written = str(game)
        compare_games(tpgn.read_game(io.StringIO(written)), python_chess)
        compare_games(game, chess.pgn.read_game(io.StringIO(written)))
        assert game.end().board() == board and game.board() == board.root()
        assert [m.uci() for m in game.end().board().move_stack] == [m.uci() for m in board.move_stack]


def test_headers_comments_and_nags_are_written_as_changed():
    game = tpgn.read_game(io.StringIO('[Event "E"]\n[Annotator "Z"]\n\n{ before } 1. e4 { a } ; b\n$1 e5 $2 $6 *\n'))
    assert list(game.headers) == ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Annotator"]
    assert game.comment == "before" and game.mainline()[0].comment == "a\nb"
    assert "{ a } { b }" in str(game)  # unchanged comments are written as read
    assert game.mainline()[1].nags == {2, 6}
    game.headers["White"] = 'The "Champion"'
    game.headers["Round"] = "3"
    del game.headers["Annotator"]
    game.comment = ""
    game.mainline()[0].comment = "only one"
    game.mainline()[1].nags = {4}
    game.result = "0-1"
    text = str(game)
    assert '[White "The \\"Champion\\""]' in text and '[Round "3"]' in text and "Annotator" not in text
    assert text.endswith("\n1. e4 $1 { only one } 1... e5 $4 0-1\n")
    assert game.to_pgn(comments=False, columns=None).endswith("\n1. e4 e5 0-1\n")
    with pytest.raises(ValueError):
        game.headers["Bad Name"] = "x"
    with pytest.raises(ValueError):
        game.headers["Annotator"] = "two\nlines"
    with pytest.raises(ValueError):
        game.result = "2-0"
    with pytest.raises(ValueError):
        game.to_pgn(notation="other")
    empty = tpgn.Game()
    assert str(empty) == tpgn.Game.from_board(tesseract.Board()).to_pgn() and empty.mainline_moves() == []
    assert str(empty).endswith('[Result "*"]\n\n*\n')
    fen = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"
    assert tpgn.Game({"FEN": fen, "SetUp": "1"}).board().fen() == fen
    with pytest.raises(tesseract.FenError):
        tpgn.Game({"FEN": "nonsense"})


def test_a_game_too_long_is_read_past():
    text = '[Event "long"]\n\n1. e4 { ' + "word " * (17 << 18) + "} e5 *\n\n[Event \"after\"]\n\n1. d4 *\n"
    games = list(tpgn.read_games(io.StringIO(text)))
    handle = io.StringIO(text.replace("{ word", "{\nword").replace("word word ", "word\nword "))
    assert [tpgn.read_game(handle), tpgn.read_game(handle), tpgn.read_game(handle)][2] is None
    handle.seek(0)
    games += [tpgn.read_game(handle), tpgn.read_game(handle)]
    assert [len(g.errors) for g in games] == [1, 0, 1, 0]
    assert isinstance(games[0].errors[0], tesseract.PgnError) and "longer than" in str(games[0].errors[0])
    for good in games[1::2]:
        assert good.headers["Event"] == "after" and [m.uci() for m in good.mainline_moves()] == ["d2d4"]
    assert "the most read_game holds" in str(games[2].errors[0])


def test_random_pgn_text_never_crashes():
    rng = random.Random(8)
    base = corpus(9, games=4) + BAD
    pieces = ["[", "]", "{", "}", "(", ")", ";", "%", '"', "\\", "\n", " ", "1-0", "*", "$300", "e4", "Nf3", "\ufeff", "é"]
    for _ in range(300):
        chars = list(base)
        for _ in range(rng.randrange(1, 20)):
            i = rng.randrange(len(chars))
            chars[i : i + rng.randrange(3)] = rng.choice(pieces)
        text = "".join(chars)
        streamed = list(tpgn.read_games(io.StringIO(text), chunk_size=rng.choice([64, 4096])))
        handle = io.StringIO(text)
        while (game := tpgn.read_game(handle)) is not None:
            if not game.errors:
                str(game)
        for game in streamed:
            assert all(isinstance(e, ValueError) for e in game.errors)
    raw = bytes(rng.randrange(256) for _ in range(20000))
    list(tpgn.read_games(io.BytesIO(raw)))
    escaped = io.StringIO((b'[Event "\xff"]\n\n1. e4 {\xfe} *\n'.decode("utf-8", "surrogateescape")))
    game = tpgn.read_game(escaped)
    assert set(game.headers["Event"]) == set(game.mainline()[0].comment) == {"\ufffd"}
    with pytest.raises(TypeError):
        list(tpgn.read_games(42))
