"""Side by side with python-chess: legal moves and FEN at every ply of random games, and conversions."""

import random

import pytest

import tesseract
from tesseract import Termination

chess = pytest.importorskip("chess")

from perft_positions import STARTS  # noqa: E402


def compare(ours, theirs, ply):
    """Everything both libraries say about a position must agree."""
    mine = sorted(m.uci() for m in ours.legal_moves)
    python_chess = sorted(m.uci() for m in theirs.legal_moves)
    assert mine == python_chess, (ply, ours.fen())
    assert ours.fen() == theirs.fen(en_passant="xfen"), ply
    assert ours.fen(shredder=True) == theirs.fen(shredder=True, en_passant="xfen"), ply
    assert ours.is_check() == theirs.is_check(), ply
    assert ours.is_checkmate() == theirs.is_checkmate(), ply
    assert ours.is_stalemate() == theirs.is_stalemate(), ply
    assert ours.turn == theirs.turn
    return mine


def play_side_by_side(ours, theirs, rng, plies):
    for ply in range(plies):
        moves = compare(ours, theirs, ply)
        if not moves:
            break
        text = rng.choice(moves)
        pushed = ours.push_uci(text)
        theirs.push_uci(text)
        assert pushed.uci() == text
        if ply % 25 == 0:
            # Conversions both ways in mid-game, move stack included.
            back = tesseract.Board.from_chess(theirs)
            assert back == ours and [m.uci() for m in back.move_stack] == [m.uci() for m in ours.move_stack]
            there = ours.to_chess()
            assert there == theirs and there.move_stack == theirs.move_stack
    compare(ours, theirs, "end")
    return ours


@pytest.mark.parametrize("game", range(60))
def test_random_games_agree_with_python_chess(game):
    rng = random.Random(game)
    fen = STARTS[game % len(STARTS)]
    ours, theirs = tesseract.Board(fen), chess.Board(fen)
    play_side_by_side(ours, theirs, rng, 200)
    # Taking every move back restores the start, as in python-chess.
    while ours.move_stack:
        assert ours.pop().uci() == theirs.pop().uci()
        assert ours.fen() == theirs.fen(en_passant="xfen")


@pytest.mark.parametrize("game", range(40))
def test_random_chess960_games_agree_with_python_chess(game):
    rng = random.Random(1000 + game)
    number = rng.randrange(960)
    ours = tesseract.Board.chess960(number)
    theirs = chess.Board.from_chess960_pos(number)
    assert ours.fen(shredder=True) == theirs.fen(shredder=True)
    play_side_by_side(ours, theirs, rng, 200)


def test_castling_moves_are_played_in_both():
    # Random games rarely castle: develop the back rank, castle as soon as it is legal, both sides, in
    # classic mode and in Chess960 mode.
    cases = [(tesseract.Board(), chess.Board())] + [
        (tesseract.Board.chess960(n), chess.Board.from_chess960_pos(n)) for n in [518, 0, 959, 357, 100]
    ]
    for ours, theirs in cases:
        rng = random.Random(theirs.fen())
        castled = []
        for ply in range(120):
            moves = compare(ours, theirs, ply)
            if not moves:
                break
            castles = [t for t in moves if theirs.is_castling(chess.Move.from_uci(t))]
            rank = 0 if theirs.turn else 7

            def develops(t):
                m = chess.Move.from_uci(t)
                piece = theirs.piece_at(m.from_square)
                return chess.square_rank(m.from_square) == rank and piece.piece_type not in (chess.KING, chess.ROOK)

            quiet = [t for t in moves if theirs.piece_at(chess.Move.from_uci(t).from_square).piece_type
                     not in (chess.KING, chess.ROOK)]
            pawns = [t for t in moves if theirs.piece_at(chess.Move.from_uci(t).from_square).piece_type == chess.PAWN]
            text = rng.choice(castles or [t for t in moves if develops(t)] + pawns or quiet or moves)
            if castles:
                castled.append(text)
            ours.push_uci(text)
            theirs.push_uci(text)
        assert len(castled) >= 2, (theirs.fen(), castled)


def test_conversions_keep_the_castling_mode():
    classic = tesseract.Board()
    cb = classic.to_chess()
    assert isinstance(cb, chess.Board) and not cb.chess960 and cb.fen() == chess.STARTING_FEN
    c960 = tesseract.Board.chess960(518)
    cb960 = c960.to_chess()
    assert cb960.chess960
    back = tesseract.Board.from_chess(cb960)
    assert back.chess960_mode and back == c960
    assert not tesseract.Board.from_chess(chess.Board()).chess960_mode
    custom = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    custom.push_uci("e1g1")
    ours = tesseract.Board.from_chess(custom)
    assert ours.move_stack[0].uci() == "e1g1" and ours.root().fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def test_conversion_errors():
    with pytest.raises(ValueError, match="8x8"):
        tesseract.Board.tesseract().to_chess()
    with pytest.raises(tesseract.FenError):
        tesseract.Board.from_chess(chess.Board(None))  # no kings
    from chess.variant import AtomicBoard

    with pytest.raises(ValueError, match="variant"):
        tesseract.Board.from_chess(AtomicBoard())
    null = chess.Board()
    null.push(chess.Move.null())
    with pytest.raises(tesseract.InvalidMoveError):
        tesseract.Board.from_chess(null)


def test_outcomes_agree_with_python_chess_claims():
    b = tesseract.Board()
    cb = chess.Board()
    for _ in range(2):
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            b.push_uci(text)
            cb.push_uci(text)
    theirs = cb.outcome(claim_draw=True)
    ours = b.outcome()
    assert ours.termination.name == theirs.termination.name == "THREEFOLD_REPETITION"
    assert ours.winner == theirs.winner and ours.result() == theirs.result()
    mate = chess.Board()
    for text in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        mate.push_uci(text)
    ours = tesseract.Board.from_chess(mate).outcome()
    theirs = mate.outcome()
    assert (ours.termination.name, ours.winner, ours.result()) == (theirs.termination.name, theirs.winner, theirs.result())


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4k3/8/8/8/8/4K3 w - - 0 1",  # kings alone
        "8/8/4k3/8/8/2N5/8/4K3 w - - 0 1",  # K+N v K
        "8/8/4k3/8/8/2B5/8/4K3 b - - 0 1",  # K+B v K
        "8/8/4k3/8/3b4/2B5/8/4K3 w - - 0 1",  # bishops on one color
        "8/8/4k3/1b6/8/2B5/8/4K3 w - - 0 1",  # bishops on both colors
        "8/8/4k3/8/8/2N5/8/3NK3 w - - 0 1",  # K+N+N v K
        "8/8/4k3/8/8/2n5/8/3NK3 w - - 0 1",  # K+N v K+N
        "8/8/4k3/8/8/8/P7/4K3 w - - 0 1",  # a pawn
        "8/8/4k3/8/8/8/8/R3K3 w - - 0 1",  # a rook
    ],
)
def test_insufficient_material_agrees_with_python_chess(fen):
    ours = tesseract.Board(fen)
    theirs = chess.Board(fen)
    assert ours.is_insufficient_material() == theirs.is_insufficient_material(), fen
    end = ours.outcome(claim_draw=False)
    other = theirs.outcome()
    assert (end and end.termination.name) == (other and other.termination.name), fen


def test_automatic_draws_agree_with_python_chess():
    # Knights dance: the fifth occurrence ends the game without a claim; the third only allows one.
    ours = tesseract.Board()
    theirs = chess.Board()
    for i in range(4):
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            ours.push_uci(text)
            theirs.push_uci(text)
            assert ours.can_claim_draw() == theirs.is_repetition(3), (i, text)
            assert ours.is_fivefold_repetition() == theirs.is_fivefold_repetition(), (i, text)
            a, b = ours.outcome(claim_draw=False), theirs.outcome()
            assert (a and a.termination.name) == (b and b.termination.name), (i, text)
    assert ours.outcome(claim_draw=False).termination == Termination.FIVEFOLD_REPETITION
    late = "8/8/4k3/8/8/8/R7/4K3 w - - 149 120"
    ours, theirs = tesseract.Board(late), chess.Board(late)
    ours.push_uci("a2a3")
    theirs.push_uci("a2a3")
    assert ours.is_seventyfive_moves() and theirs.is_seventyfive_moves()
    assert ours.outcome(claim_draw=False).termination.name == theirs.outcome().termination.name == "SEVENTYFIVE_MOVES"
