"""The engine from Python: legal, reproducible, within limits."""

import pytest

import tesseract
from tesseract import Board, engine


@pytest.mark.parametrize("tier", ["beginner", "club", "expert", "master"])
def test_play_returns_a_legal_move_of_chess(tier):
    b = Board()
    b.push_uci("e2e4")
    move = engine.play(b, tier, seed=3)
    assert isinstance(move, tesseract.Move) and move in b.legal_moves


@pytest.mark.parametrize("tier", ["beginner", "club"])
def test_play_returns_a_legal_move_in_4d(tier):
    b = Board.tesseract()
    move = engine.play(b, tier, seed=11)
    assert move in b.legal_moves and len(move.uci()) == 8
    b.push(move)
    assert engine.play(b, tier, seed=11) in b.legal_moves


def test_play_is_reproducible():
    b = Board.tesseract("light")
    first = [engine.play(b, "beginner", seed=s) for s in range(6)]
    again = [engine.play(b.copy(), "beginner", seed=s) for s in range(6)]
    assert first == again
    assert engine.play(b, seed=42) == engine.play(b, "club", seed=42)
    assert engine.play(b, nodes=5_000, seed=1) == engine.play(b, nodes=5_000, seed=1)
    # The weakest tier's noise depends on the seed: some seeds choose differently.
    chess = Board()
    assert len({engine.play(chess, "beginner", seed=s).uci() for s in range(12)}) > 1


def test_a_game_between_tiers_replays_identically():
    def game():
        b = Board()
        for ply in range(12):
            b.push(engine.play(b, "beginner" if ply % 2 else "club", seed=5))
        return [m.uci() for m in b.move_stack]

    assert game() == game()


def test_analyse_finds_a_mate_in_one():
    b = Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    a = engine.analyse(b, depth=3)
    assert a.move.uci() == "a1a8" and a.mate == 1 and a.cp is None and a.score == "mate 1"
    assert a.pv[0] == a.move and a.depth >= 1 and a.nodes > 0
    assert engine.play(b, "master") == b.parse_uci("a1a8")


def test_analyse_principal_variation_is_playable():
    b = Board.tesseract()
    a = engine.analyse(b, "beginner", seed=2)
    assert a.move == a.pv[0] and a.cp is not None
    line = b.copy()
    for m in a.pv:
        line.push(m)


def test_engine_sees_repetitions():
    # The engine knows the game's earlier positions: a board rebuilt from the text alone would not.
    b = Board()
    for _ in range(2):
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            b.push_uci(text)
    assert engine.play(b, depth=2) in b.legal_moves


def test_engine_errors():
    b = Board()
    with pytest.raises(ValueError, match="unknown tier"):
        engine.play(b, "grandmaster")
    with pytest.raises(ValueError, match="nodes"):
        engine.play(b, nodes=0)
    with pytest.raises(ValueError, match="depth"):
        engine.play(b, depth=0)
    with pytest.raises(OverflowError):
        engine.play(b, seed=-1)
    mate = Board()
    for text in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        mate.push_uci(text)
    with pytest.raises(ValueError, match="checkmate"):
        engine.play(mate)
    with pytest.raises(TypeError):
        engine.play("not a board")


def test_a_tier_searches_within_its_boards_budget():
    # In chess the expert's budget is 20,000 nodes (its own for 2D boards); from the standard Tesseract
    # start it has 150,000 and searches past 20,000.
    chess = engine.analyse(Board(), "expert", seed=1)
    assert 0 < chess.nodes <= 20_000
    four_d = engine.analyse(Board.tesseract("standard"), "expert", seed=1)
    assert four_d.nodes > 20_000
