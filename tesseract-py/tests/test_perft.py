"""Perft from Python: the figures of RULES.md (§3 for the 4D armies, §5 for chess)."""

import pytest

import tesseract

# RULES.md §3: perft(1), perft(2), perft(3) of the three armies.
TESSERACT = {
    "light": [220, 47_754, 10_788_703],
    "standard": [226, 50_420, 11_715_134],
    "dense": [236, 55_064, 13_175_822],
}
# RULES.md §5.
CHESS = [20, 400, 8_902, 197_281]


@pytest.mark.parametrize("army", ["light", "standard", "dense"])
@pytest.mark.parametrize("depth", [1, 2])
def test_tesseract_armies_shallow(army, depth):
    assert tesseract.Board.tesseract(army).perft(depth) == TESSERACT[army][depth - 1]


def test_standard_depth_3_on_every_core_and_on_one_thread():
    board = tesseract.Board.tesseract("standard")
    assert board.perft(3) == 11_715_134
    assert board.perft(3, threads=1) == 11_715_134
    assert board.perft(3, threads=2, hash_mb=16) == 11_715_134


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_chess(depth):
    assert tesseract.Board.chess().perft(depth) == CHESS[depth - 1]
    assert tesseract.Board().perft(depth, threads=1) == CHESS[depth - 1]


def test_len_legal_moves_is_perft_1():
    assert len(tesseract.Board.tesseract().legal_moves) == 226
    assert len(tesseract.Board().legal_moves) == 20


def test_depth_0_counts_the_position():
    assert tesseract.Board.tesseract().perft(0) == 1
    assert tesseract.Board.tesseract().divide(0) == {}


def test_divide_sums_to_perft_and_names_moves_by_text():
    board = tesseract.Board.tesseract("light")
    split = board.divide(2)
    assert len(split) == 220
    assert sum(split.values()) == 47_754
    assert list(split) == [m.uci() for m in board.legal_moves]
    assert board.divide(2, threads=1) == split
    chess = tesseract.Board().divide(3)
    assert chess["e2e4"] == 600 and chess["g1f3"] == 440 and sum(chess.values()) == 8_902


def test_perft_after_moves():
    # Kiwipete, a public perft position: 48, 2,039, 97,862.
    board = tesseract.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert [board.perft(d) for d in (1, 2, 3)] == [48, 2_039, 97_862]


def test_bad_counting_arguments_raise():
    board = tesseract.Board()
    with pytest.raises(ValueError, match="threads"):
        board.perft(1, threads=0)
    with pytest.raises(ValueError, match="hash_mb"):
        board.perft(1, hash_mb=10**6)
    with pytest.raises(OverflowError):
        board.perft(-1)
    with pytest.raises(TypeError):
        board.perft("3")
