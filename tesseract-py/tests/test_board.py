"""The Board API: constructors, moves, errors, outcomes, hashes, cells, copies."""

import copy
import pickle
import random

import pytest

import tesseract
from tesseract import Board, FenError, IllegalMoveError, InvalidMoveError, Termination

STANDARD_TFEN_START = "rnknr/5/5/5/5//ubqbu/5/5/5/5//1d1d1/5/5/5/5//"


def test_constructors():
    assert Board().fen() == tesseract.STARTING_FEN
    assert Board.chess() == Board()
    assert Board(tesseract.STARTING_FEN) == Board()
    t = Board.tesseract()
    assert (t.dims, t.side, t.cell_count) == (4, 5, 625)
    assert t.fen().startswith(STANDARD_TFEN_START)
    assert Board(t.fen()) == t
    assert Board.tesseract("standard") == t == Board.from_start("standard")
    assert len(Board.tesseract("light").piece_map()) == 44
    assert len(Board.tesseract("dense").piece_map()) == 84
    assert Board.chess960(518).fen() == tesseract.STARTING_FEN
    assert Board.chess960(518).chess960_mode and not Board().chess960_mode
    assert Board.chess960(0).fen(shredder=True) == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    assert Board.from_chess960_pos(0) == Board.chess960(0) == Board.from_start("chess960:0")
    assert Board(chess960=True).chess960_mode


def test_bad_constructor_arguments_raise():
    with pytest.raises(ValueError, match="army"):
        Board.tesseract("huge")
    with pytest.raises(ValueError, match="959"):
        Board.chess960(960)
    with pytest.raises(ValueError):
        Board.chess960(-1)
    with pytest.raises(ValueError, match="unknown start"):
        Board.from_start("go")


def test_other_shapes_from_their_text():
    # A 3D board of side 5: kings in opposite corners; the corner king has 7 moves (six-digit texts).
    b = Board("5/5/5/5/4k//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/K4 w - - 0 1")
    assert (b.dims, b.side) == (3, 5)
    assert sorted(m.uci() for m in b.legal_moves) == [
        "111112", "111121", "111122", "111211", "111212", "111221", "111222"
    ]
    assert b.piece_at((1, 1, 1)).symbol() == "K"
    # 1D: the kings stand two cells apart, the white king cannot step next to the black one.
    line = Board("K1k w - - 0 1")
    assert line.dims == 1 and line.legal_moves == []
    assert line.outcome().termination == Termination.INSUFFICIENT_MATERIAL


def test_a_board_of_one_axis_plays_and_pickles_its_moves():
    # The outside review: 1D moves were written as texts (`23`) that push_uci refused, so a pickled 1D
    # board with a move could not be loaded.
    b = Board("K1R1n1k w - - 0 1")
    texts = sorted(m.uci() for m in b.legal_moves)
    assert texts == ["12", "32", "34", "35"]
    for m in b.legal_moves:
        c = b.copy()
        assert c.push_uci(m.uci()) == m and c.peek().uci() == m.uci()
    b.push_uci("34")
    assert [m.uci() for m in b.legal_moves] == ["76"]  # a knight has no leap on one axis
    b.push_uci("76")
    b.push_uci("12")
    p = pickle.loads(pickle.dumps(b))
    assert p == b and [m.uci() for m in p.move_stack] == ["34", "76", "12"]
    assert p.pop().uci() == "12" and p.root() == b.root()
    assert b.cell_name(3) == "4" and b.coords("4") == (4,)


def test_automatic_draws_fivefold_and_seventyfive_moves():
    # The README once said the library had neither: both end a game without a claim.
    b = Board()
    for i in range(4):
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            b.push_uci(text)
            # The start position occurs again after each round: a fifth time after the fourth.
            if text == "f6g8":
                assert b.is_repetition(i + 2) and b.is_fivefold_repetition() == (i == 3)
    o = b.outcome(claim_draw=False)
    assert (o.termination, o.winner, o.result()) == (Termination.FIVEFOLD_REPETITION, None, "1/2-1/2")
    assert b.is_game_over(claim_draw=False)
    # The automatic end comes before any claim.
    assert b.outcome().termination == Termination.FIVEFOLD_REPETITION
    late = Board("8/8/4k3/8/8/8/R7/4K3 w - - 149 120")
    assert late.outcome(claim_draw=False) is None and not late.is_seventyfive_moves()
    late.push_uci("a2a3")
    assert late.is_seventyfive_moves() and late.halfmove_clock == 150
    o = late.outcome(claim_draw=False)
    assert (o.termination, o.winner) == (Termination.SEVENTYFIVE_MOVES, None)
    assert late.outcome().termination == Termination.SEVENTYFIVE_MOVES
    # python-chess's names and numbers.
    assert (Termination.SEVENTYFIVE_MOVES.name, Termination.SEVENTYFIVE_MOVES.value) == ("SEVENTYFIVE_MOVES", 4)
    assert (Termination.FIVEFOLD_REPETITION.name, Termination.FIVEFOLD_REPETITION.value) == ("FIVEFOLD_REPETITION", 5)
    # A mate on the 150th ply is a mate.
    mate = Board("k7/8/1K6/8/8/8/8/7R w - - 149 120")
    mate.push_uci("h1h8")
    assert mate.outcome(claim_draw=False).termination == Termination.CHECKMATE


def test_turn_and_counters():
    b = Board()
    assert b.turn is True and b.turn == tesseract.WHITE
    b.push_uci("e2e4")
    assert b.turn is False
    assert (b.halfmove_clock, b.fullmove_number, b.ply()) == (0, 1, 1)
    assert b.ep_square is None  # no black pawn can take on e3
    b.push_uci("d7d5")
    b.push_uci("e4e5")
    b.push_uci("f7f5")
    assert b.ep_square == b.cell_index("f6")
    assert "e5f6" in [m.uci() for m in b.legal_moves]


def test_push_pop_restore_fen_and_hash_4d():
    b = Board.tesseract()
    rng = random.Random(4)
    seen = [(b.fen(), b.zobrist_hash())]
    for _ in range(40):
        moves = b.legal_moves
        if not moves:
            break
        b.push(rng.choice(moves))
        seen.append((b.fen(), b.zobrist_hash()))
    assert len(b.move_stack) == len(seen) - 1
    while b.move_stack:
        seen.pop()
        b.pop()
        assert (b.fen(), b.zobrist_hash()) == seen[-1]
    assert b == Board.tesseract()


def test_push_pop_peek_move_stack_2d():
    b = Board()
    m = b.push_uci("g1f3")
    assert b.peek() == m and b.move_stack == [m]
    b.push(b.parse_uci("g8f6"))
    b.push("b1c3")
    assert [x.uci() for x in b.move_stack] == ["g1f3", "g8f6", "b1c3"]
    assert b.pop().uci() == "b1c3"
    assert b.pop().uci() == "g8f6"
    assert b.pop() == m
    with pytest.raises(IndexError):
        b.pop()
    with pytest.raises(IndexError):
        b.peek()
    assert b == Board() and b.hash == Board().hash


def assert_refused(board, move, error, match=None):
    before = (board.fen(), board.zobrist_hash(), board.move_stack)
    with pytest.raises(error, match=match):
        board.push(move)
    if isinstance(move, str):
        with pytest.raises(error, match=match):
            board.push_uci(move)
        with pytest.raises(error, match=match):
            board.parse_uci(move)
        assert not board.is_legal(move)
    assert (board.fen(), board.zobrist_hash(), board.move_stack) == before


def test_illegal_and_malformed_moves_raise_typed_errors_and_change_nothing():
    b = Board()
    assert_refused(b, "e2e5", IllegalMoveError, "that piece cannot move there")
    assert_refused(b, "e7e5", IllegalMoveError, "no piece of the side to move")
    assert_refused(b, "e1g1", IllegalMoveError)
    assert_refused(b, "e2e2", IllegalMoveError)
    assert_refused(b, "e2", InvalidMoveError, "characters")
    assert_refused(b, "", InvalidMoveError, "empty")
    assert_refused(b, "e2e4x", InvalidMoveError)
    assert_refused(b, "22132313", InvalidMoveError, "axes")
    assert_refused(b, "i2i4", InvalidMoveError, "not on this board")
    assert_refused(b, "e2e4\n", InvalidMoveError)
    assert_refused(b, "é2e4", InvalidMoveError)
    # UCI's null move is no move of the rules, and the error says so (it once said "4 characters:
    # expected 4 or 5").
    assert_refused(b, "0000", InvalidMoveError, "0000 is a null move")
    assert_refused(Board.tesseract(), "0000", InvalidMoveError, "null move")
    assert_refused(b, "2222", InvalidMoveError, "4 coordinate digits")
    t = Board.tesseract()
    assert_refused(t, "e2e4", InvalidMoveError, "axes")
    assert_refused(t, "22132314", IllegalMoveError)
    assert_refused(t, "22132313Q", IllegalMoveError, "promotion")
    assert_refused(t, "62132313", InvalidMoveError)
    # A Move of another board: another shape, or not legal here.
    assert_refused(t, Board().legal_moves[0], InvalidMoveError, "shape")
    after = Board()
    after.push_uci("e2e4")
    assert_refused(Board(), after.legal_moves[0], IllegalMoveError)
    with pytest.raises(TypeError):
        b.push(12)
    assert issubclass(FenError, ValueError)
    assert issubclass(InvalidMoveError, ValueError) and issubclass(IllegalMoveError, ValueError)


def test_promotion_texts():
    b = Board("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    promotions = sorted(m.uci() for m in b.legal_moves if m.promotion)
    assert promotions == ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    assert_refused(b, "e7e8", IllegalMoveError, "add the promotion piece")
    m = b.push_uci("e7e8n")
    assert m.promotion == "N" and b.piece_at("e8").symbol() == "N"
    # 4D: a Y-pawn one step from y = 5 promotes to Q, R, B, N, U or D.
    t = Board(tfen({(1, 4, 5, 5): "Y", (1, 1, 1, 1): "K", (5, 1, 5, 5): "k"}))
    assert sorted(m.promotion for m in t.legal_moves if m.promotion) == sorted("QRBNUD")
    assert t.push_uci("14551555U").promotion == "U"


def tfen(pieces, side="w"):
    """The TFEN text of a 5x5x5x5 position: pieces by (x, y, z, w) coordinates."""
    def row(y, z, w):
        out, empty = "", 0
        for x in range(1, 6):
            letter = pieces.get((x, y, z, w))
            if letter is None:
                empty += 1
                continue
            out += (str(empty) if empty else "") + letter
            empty = 0
        return out + (str(empty) if empty else "")

    placement = "///".join(
        "//".join("/".join(row(y, z, w) for y in range(5, 0, -1)) for z in range(5, 0, -1))
        for w in range(5, 0, -1)
    )
    return f"{placement} {side} - - 0 1"


def test_tfen_helper_writes_the_library_text():
    assert tfen({}).count("/") == Board.tesseract().fen().count("/")
    t = Board.tesseract()
    assert Board(tfen({(x, y, z, w): t.piece_at((x, y, z, w)).symbol()
                       for (x, y, z, w) in (t.coords(i) for i in t.piece_map())})) == t


def test_fools_mate():
    b = Board()
    for text in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        assert b.outcome() is None and not b.is_game_over()
        b.push_uci(text)
    assert b.is_check() and b.is_checkmate() and not b.is_stalemate()
    o = b.outcome()
    assert o.winner is False and o.termination == Termination.CHECKMATE
    assert o.termination.name == "CHECKMATE" and o.result() == "0-1"
    assert o == b.outcome(claim_draw=False)
    assert repr(o) == "Outcome(termination=Termination.CHECKMATE, winner=False)"
    assert b.legal_moves == [] and b.is_game_over()


def test_stalemate():
    b = Board("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    b.push_uci("f1f7")
    assert b.is_stalemate() and not b.is_check() and not b.is_checkmate()
    o = b.outcome()
    assert (o.termination, o.winner, o.result()) == (Termination.STALEMATE, None, "1/2-1/2")


def test_threefold_repetition_and_fifty_moves_are_claimed_by_default():
    b = Board()
    for _ in range(2):
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            assert b.outcome() is None
            b.push_uci(text)
    assert b.is_repetition() and b.is_repetition(3) and not b.is_repetition(4)
    assert b.outcome().termination == Termination.THREEFOLD_REPETITION
    assert b.outcome().winner is None
    assert b.outcome(claim_draw=False) is None and not b.is_game_over(claim_draw=False)
    f = Board("4k3/8/8/8/8/8/8/4K2R w - - 99 80")
    assert f.outcome() is None
    f.push_uci("h1h2")
    assert f.is_fifty_moves() and f.outcome().termination == Termination.FIFTY_MOVES
    assert f.outcome(claim_draw=False) is None
    k = Board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    k.push_uci("e1e2")
    assert k.outcome().termination == Termination.INSUFFICIENT_MATERIAL


def test_chess960_castling_is_king_takes_rook():
    b = Board.chess960(518)
    for text in ["e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"]:
        b.push_uci(text)
    texts = [m.uci() for m in b.legal_moves]
    assert "e1h1" in texts and "e1g1" not in texts
    assert_refused(b, "e1g1", IllegalMoveError)
    castle = b.push_uci("e1h1")
    assert castle.to_cell == b.cell_index("h1")
    assert b.piece_at("g1").symbol() == "K" and b.piece_at("f1").symbol() == "R"
    assert b.fen(shredder=True).split()[2] == "ha"
    # The same moves in classic mode: castling is the king's two-step.
    c = Board()
    for text in ["e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"]:
        c.push_uci(text)
    texts = [m.uci() for m in c.legal_moves]
    assert "e1g1" in texts and "e1h1" not in texts
    castle = c.push_uci("e1g1")
    assert castle.to_cell == c.cell_index("g1") and castle.from_cell == c.cell_index("e1")
    assert c.fen() == b.fen()  # the same position; only the notation of castling differs
    # A Chess960 start whose king is not on e: b1 king, a1 rook ("rkr..."): queen-side castling names a1.
    d = Board("1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1")
    assert d.chess960_mode
    assert {"b1a1", "b1g1"} <= {m.uci() for m in d.legal_moves}


def test_hash_of_equal_positions_reached_by_different_move_orders():
    a, b = Board(), Board()
    for text in ["g1f3", "g8f6", "b1c3"]:
        a.push_uci(text)
    for text in ["b1c3", "g8f6", "g1f3"]:
        b.push_uci(text)
    assert a == b and a.zobrist_hash() == b.zobrist_hash() and a.fen() == b.fen()
    assert a.zobrist_hash() != Board().zobrist_hash()
    x, y = Board.tesseract(), Board.tesseract()
    for text in ["21111311", "45555355", "41115311", "25551355"]:
        x.push_uci(text)
    for text in ["41115311", "45555355", "21111311", "25551355"]:
        y.push_uci(text)
    assert x == y and x.hash == y.hash and x.fen() == y.fen()
    assert x.move_stack != y.move_stack
    # The hash is the position's, not the game's: a board read from the text hashes the same.
    assert Board(x.fen()).hash == x.hash


def test_piece_at_takes_an_index_coordinates_or_a_name():
    t = Board.tesseract()
    king = t.piece_at((3, 1, 1, 1))
    assert king.symbol() == "K" and king.color is True and king.role == "king"
    assert t.piece_at("3111") == king == t.piece_at(2) == t.piece_at([3, 1, 1, 1])
    assert t.cell_index("3111") == 2 and t.cell_name(2) == "3111" and t.coords(2) == (3, 1, 1, 1)
    assert t.piece_at((3, 5, 5, 5)).symbol() == "k" and t.piece_at((3, 5, 5, 5)).color is False
    assert t.piece_at("2213").role == "Y-pawn" and t.piece_at("2312").role == "W-pawn"
    assert t.piece_at((3, 3, 3, 3)) is None
    c = Board()
    assert c.piece_at("e1").symbol() == "K" and c.piece_at("e2").role == "pawn" and c.piece_at(63).symbol() == "r"
    assert c.cell_name(28) == "e4" and c.coords("e4") == (5, 4)
    for bad in [625, -1, 10**30, (0, 1, 1, 1), (1, 1, 1), (1, 1, 1, 6), "e4", "33333", "", "x" * 10**6, (1.0, 1, 1, 1)]:
        with pytest.raises(ValueError):
            t.piece_at(bad)
    with pytest.raises(TypeError):
        t.piece_at(None)
    with pytest.raises(TypeError):
        t.piece_at(2.0)


def test_moves_values():
    b = Board()
    m = b.parse_uci("e2e4")
    assert (m.uci(), m.text(), str(m), repr(m)) == ("e2e4", "e2e4", "e2e4", "Move('e2e4')")
    assert (m.from_cell, m.to_cell, m.promotion) == (12, 28, None)
    assert m == b.parse_uci("e2e4") and hash(m) == hash(b.parse_uci("e2e4"))
    assert m != b.parse_uci("d2d4") and m != "e2e4"
    assert len(set(b.legal_moves)) == 20
    t = Board.tesseract().parse_uci("22132313")
    assert (t.uci(), t.from_cell, t.to_cell) == ("22132313", 1 + 5 + 250, 1 + 10 + 250)


def test_copy_root_and_pickle():
    b = Board.chess960(100)
    for text in ["e2e4", "e7e5"]:
        b.push_uci(text)
    c = b.copy()
    c.push_uci("d2d4")
    assert len(b.move_stack) == 2 and len(c.move_stack) == 3
    s = b.copy(stack=False)
    assert s == b and s.move_stack == [] and s.root() == b
    assert b.root() == Board.chess960(100) and b.root().move_stack == []
    assert copy.copy(b).move_stack == b.move_stack and copy.deepcopy(b) == b
    p = pickle.loads(pickle.dumps(b))
    assert p == b and p.move_stack == b.move_stack and p.chess960_mode
    t = Board.tesseract()
    t.push_uci("22132313")
    q = pickle.loads(pickle.dumps(t))
    assert q == t and q.pop().uci() == "22132313"


def test_str_and_repr():
    assert str(Board()).startswith("8 r n b q k b n r\n")
    assert str(Board()).endswith("white to move")
    picture = str(Board.tesseract())
    assert "w=1" in picture and "z=5" in picture and picture.endswith("white to move")
    assert repr(Board()) == f"Board('{tesseract.STARTING_FEN}')"
    assert repr(Board.chess960(0)) == "Board('bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1', chess960=True)"
    assert eval(repr(Board.chess960(0)), {"Board": Board}) == Board.chess960(0)
    with pytest.raises(TypeError):
        hash(Board())


def test_bad_position_texts_raise_fen_error():
    for text in ["", " ", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "k\x00K w - - 0 1", "kK w - - 0 1",
                 "/" * 100_000, "K" * 100_000 + " w - - 0 1"]:
        with pytest.raises(FenError):
            Board(text)
    with pytest.raises(FenError, match="placement"):
        Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1")


def test_big_and_random_inputs_raise_and_do_not_crash():
    megabyte = "r" * (1 << 20)
    with pytest.raises(FenError, match="at most"):
        Board(megabyte)
    with pytest.raises(FenError):
        Board.from_moves(megabyte, [])
    b = Board()
    for call in (b.push_uci, b.parse_uci, b.push):
        with pytest.raises(InvalidMoveError, match="at most"):
            call(megabyte)
    with pytest.raises(ValueError):
        b.piece_at(megabyte)
    rng = random.Random(7)
    alphabet = "rnbqkpRNBQKPYWUDyw12345678/ -abcdefgh\x00é"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 90)))
        try:
            Board(text)
        except FenError:
            pass
        try:
            b.push_uci(text)
            b.pop()
        except (InvalidMoveError, IllegalMoveError):
            pass
    assert b == Board()


def test_from_moves():
    b = Board.from_moves(tesseract.STARTING_FEN, ["e2e4", "e7e5"])
    assert len(b.move_stack) == 2 and b.root() == Board()
    with pytest.raises(IllegalMoveError):
        Board.from_moves(tesseract.STARTING_FEN, ["e2e4", "e2e4"])
