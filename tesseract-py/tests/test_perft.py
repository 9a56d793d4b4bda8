"""Perft from Python: the figures of RULES.md (§3 for the 4D armies, §5 for chess)."""

import pathlib

import pytest

import tesseract


def _tesseract_figures():
    """RULES.md §3: perft(1), perft(2), perft(3) of the three armies, from the one file that holds them."""
    path = pathlib.Path(__file__).resolve().parents[2] / "tesseract-board" / "data" / "tesseract.perft"
    figures, army = {}, None
    for line in path.read_text().splitlines():
        if line.startswith("# ") and line[2:] in ("light", "standard", "dense"):
            army = line[2:]
        elif line and not line.startswith("#"):
            figures[army] = [int(f.split()[1]) for f in line.split(" ;")[1:]]
    return figures


TESSERACT = _tesseract_figures()
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
    # The workspace's one cap on table sizes (tesseract_movegen::MAX_TABLE_MB), as for every front end.
    with pytest.raises(ValueError, match="hash_mb: expected 0 to 65536 megabytes, not 65537"):
        board.divide(1, hash_mb=65537)
    with pytest.raises(OverflowError):
        board.perft(-1)
    with pytest.raises(TypeError):
        board.perft("3")


def kings_on_a_line(side, depth):
    """perft of a 1D board of `side` cells, White's king on 1 and Black's on `side`, White to move, by
    dynamic programming over the kings' cells (a king steps one cell and never next to the other)."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def count(white, black, white_to_move, plies):
        if plies == 0:
            return 1
        me, other = (white, black) if white_to_move else (black, white)
        total = 0
        for to in (me - 1, me + 1):
            if 1 <= to <= side and abs(to - other) >= 2:
                total += count(to, black, False, plies - 1) if white_to_move else count(white, to, True, plies - 1)
        return total

    return count(1, side, True, depth)


def test_deep_counts_do_not_overflow_the_stack():
    # Every ply of the recursion holds a 61 KB move list: 64 plies need a bigger stack than a default
    # thread's, which the counting threads get.
    narrow = tesseract.Board("K3k w - - 0 1")
    assert narrow.perft(64, threads=1) == narrow.perft(64) == kings_on_a_line(5, 64) == 2
    assert narrow.divide(64, threads=1) == narrow.divide(64) == {"12": 2}
    # A wider line has 259,984,914,156,978 leaves at depth 64: counted through the shared table.
    wide = tesseract.Board("K7k w - - 0 1")
    assert wide.perft(64, hash_mb=4) == kings_on_a_line(9, 64) == 259_984_914_156_978
    assert wide.perft(40, threads=1, hash_mb=4) == kings_on_a_line(9, 40)
    with pytest.raises(ValueError, match="depth"):
        wide.perft(65)
    with pytest.raises(ValueError, match="depth"):
        wide.divide(1000)


def test_every_call_works_from_a_thread_with_the_smallest_stack():
    # threading.stack_size accepts 32 KiB; a move list alone is 61 KB. Run in a child process, so that a
    # stack overflow (a crash of the interpreter) fails this test and not the whole run.
    import subprocess
    import sys

    script = """
import threading, tesseract
threading.stack_size(32 * 1024)
out = {}
def work():
    b = tesseract.Board.tesseract()
    out["moves"] = len(b.legal_moves)
    b.push_uci("22132313")
    b.push(b.legal_moves[0])
    out["legal"] = b.is_legal("22132313")
    out["outcome"] = b.outcome(), b.is_checkmate(), b.is_stalemate(), b.is_game_over(claim_draw=False)
    b.pop()
    out["perft"] = tesseract.Board("K3k w - - 0 1").perft(64, threads=1), tesseract.Board.tesseract().perft(2, threads=1), b.divide(1, threads=1) != {}
    out["engine"] = tesseract.engine.play(b, "beginner", seed=1) in b.legal_moves
    out["deep"] = tesseract.engine.analyse(tesseract.Board(), depth=10).depth
    out["fen"] = tesseract.Board(b.fen()) == b
worker = threading.Thread(target=work)
worker.start()
worker.join()
print(out["moves"], out["legal"], out["outcome"], out["perft"], out["engine"], out["deep"], out["fen"])
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    assert run.stdout.split()[:2] == ["226", "False"], run.stdout
    assert "(2, 50420" in run.stdout and run.stdout.split()[-3:] == ["True", "10", "True"], run.stdout
