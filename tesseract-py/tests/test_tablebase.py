"""Endgame tables from Python: generated, saved and loaded, probed, and given to the engine, which then
mates in exactly the table's distance against the table's best defence."""

import pytest

import tesseract
from tesseract import Board, Tablebases, engine

# The longest KRK win in chess: mate in 16 (31 plies).
KRK_LONGEST = "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"


@pytest.fixture(scope="module")
def chess_tables():
    return Tablebases.generate("chess", ["KQK", "KRK"])


def test_generate_and_probe(chess_tables):
    assert ("8x8", "KRK") in chess_tables.tables() and ("8x8", "KQK") in chess_tables.tables()
    assert len(chess_tables) == len(chess_tables.tables())
    b = Board(KRK_LONGEST)
    assert chess_tables.probe(b) == (1, 31)
    assert chess_tables.probe_wdl(b) == 1 and chess_tables.probe_dtm(b) == 31
    b.push(chess_tables.best_move(b))
    assert chess_tables.probe(b) == (-1, -30)
    # A drawn position: Black takes the loose rook.
    drawn = Board("8/8/8/8/8/8/2k5/K2R4 b - - 0 1")
    assert chess_tables.probe(drawn) == (0, 0)
    assert chess_tables.best_move(drawn).uci() == "c2d1"
    # Not covered: None, or KeyError from the probe_ functions.
    start = Board()
    assert chess_tables.probe(start) is None and chess_tables.get_dtm(start) is None
    assert chess_tables.best_move(start) is None
    with pytest.raises(KeyError):
        chess_tables.probe_wdl(start)


def test_engine_mates_in_the_tables_distance(chess_tables):
    b = Board(KRK_LONGEST)
    without = engine.analyse(b, depth=3)
    assert without.mate is None
    plies = 0
    while not b.is_game_over():
        if b.turn == tesseract.WHITE:
            a = engine.analyse(b, depth=3, tablebases=chess_tables)
            assert a.mate == (31 - plies + 1) // 2 and a.score == f"mate {a.mate}"
            assert a.move == chess_tables.best_move(b)
            assert engine.play(b, "beginner", tablebases=chess_tables) == a.move
            b.push(a.move)
        else:
            b.push(chess_tables.best_move(b))
        plies += 1
    assert b.is_checkmate() and b.outcome().winner is True
    assert plies == 31


def test_save_and_load(chess_tables, tmp_path):
    chess_tables.save(tmp_path)
    loaded = Tablebases.load(tmp_path)
    assert sorted(loaded.tables()) == sorted(chess_tables.tables())
    assert loaded.probe(Board(KRK_LONGEST)) == (1, 31)
    with pytest.raises(OSError, match="cannot read the folder"):
        Tablebases.load(tmp_path / "missing")
    (tmp_path / "KRK.8x8.ttb").write_bytes(b"TESSTB1\nbroken")
    with pytest.raises(ValueError, match="KRK.8x8.ttb"):
        Tablebases.load(tmp_path)


def test_raumschach_tables_answer_for_their_board_only():
    tables = Tablebases.generate("raumschach", "KQK")
    assert ("5x5x5", "KQK") in tables.tables()
    # A chess KQK position is not of that board.
    assert tables.probe(Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")) is None


def test_bad_arguments():
    with pytest.raises(ValueError, match="expected chess, raumschach or tesseract"):
        Tablebases.generate("shogi", "KQK")
    with pytest.raises(ValueError, match="material"):
        Tablebases.generate("chess", "KXK")
