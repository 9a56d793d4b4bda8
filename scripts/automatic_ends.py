#!/usr/bin/env python3
"""Games of chess that end by each automatic rule, made and checked by python-chess (the external oracle).

The end-to-end tests play them through the relays (the `online` example over Redis, two browsers through
tesseract-relay): one game per automatic end, so that every End message travels the whole way.

    automatic_ends.py make SEED > tests/data/automatic-ends.txt
        Writes one game per line, `END START MOVE...` (UCI moves from the classic start): `checkmate` (fool's
        mate), `stalemate` (Sam Loyd's ten-move stalemate), `dead-draw` (the shortest of 500 seeded games of
        captures that end with bare kings or a lone minor piece), `fivefold` (the knights' dance four times) and
        `seventy-five-moves` (150 seeded quiet piece moves: no capture, no pawn move, no check, no position a
        fifth time). The 4D line of the file (`seventy-five-moves standard ...`) is not python-chess's: it
        comes from `cargo test --test automatic_ends -- --ignored --nocapture` and is appended by hand.

    automatic_ends.py check FILE
        Replays every classic line of FILE with python-chess: each move legal, no automatic end before the
        last move, and after it exactly the named one (python-chess's outcome without claims). Prints
        `checked N` and exits 0, or names the first line that is wrong and exits 1.

The shipped file was made by
    python3 scripts/automatic_ends.py make 2026 > tests/data/automatic-ends.txt
and its 4D line appended as above.
"""

import random
import sys

try:
    import chess
except ImportError:
    sys.exit("automatic_ends.py needs python-chess: pip install chess")

TERMINATION = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "dead-draw",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy-five-moves",
}

FOOLS_MATE = "f2f3 e7e5 g2g4 d8h4".split()
LOYD_STALEMATE = "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6".split()
KNIGHTS = "g1f3 g8f6 f3g1 f6g8".split()


def end_of(board):
    """The automatic end python-chess sees (no claims), as this project names it, or None."""
    outcome = board.outcome(claim_draw=False)
    return TERMINATION.get(outcome.termination, outcome.termination.name) if outcome else None


def dead_draw(rng):
    """The shortest of 500 games that prefer captures and end by insufficient material (and nothing else
    first)."""
    best = None
    for _ in range(500):
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < 400:
            legal = list(board.legal_moves)
            captures = [m for m in legal if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.9 else legal))
        if end_of(board) == "dead-draw" and (best is None or board.ply() < len(best)):
            best = [m.uci() for m in board.move_stack]
    if best is None:
        raise SystemExit("no dead-draw game found")
    return best


def seventy_five(rng):
    """150 quiet piece moves from the start: no capture, no pawn move, no check, no fifth repetition."""
    for _ in range(10_000):
        board = chess.Board()
        while board.ply() < 150:
            quiet = [
                m
                for m in board.legal_moves
                if not board.is_capture(m)
                and board.piece_type_at(m.from_square) != chess.PAWN
                and not board.gives_check(m)
            ]
            rng.shuffle(quiet)
            for m in quiet:
                board.push(m)
                if board.is_repetition(4) or (board.ply() < 150 and end_of(board)):
                    board.pop()
                    continue
                break
            else:
                break
        if board.ply() == 150 and end_of(board) == "seventy-five-moves":
            return [m.uci() for m in board.move_stack]
    raise SystemExit("no 75-move game found")


def make(seed):
    rng = random.Random(seed)
    games = [
        ("checkmate", FOOLS_MATE),
        ("stalemate", LOYD_STALEMATE),
        ("dead-draw", dead_draw(rng)),
        ("fivefold", KNIGHTS * 4),
        ("seventy-five-moves", seventy_five(rng)),
    ]
    print(f"# Games that end by each automatic rule: END START MOVE... (scripts/automatic_ends.py make {seed})")
    for end, moves in games:
        print(end, "classic", " ".join(moves))


def check(path):
    checked = 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            end, start, *moves = line.split()
            if start != "classic":
                continue
            board = chess.Board()
            for i, text in enumerate(moves):
                move = chess.Move.from_uci(text)
                if move not in board.legal_moves:
                    sys.exit(f"line {number}: move {i + 1} {text} is illegal")
                if end_of(board):
                    sys.exit(f"line {number}: the game ended by {end_of(board)} before move {i + 1}")
                board.push(move)
            if end_of(board) != end:
                sys.exit(f"line {number}: ends by {end_of(board)}, not {end}")
            checked += 1
    print(f"checked {checked}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "make":
        make(int(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        sys.exit(__doc__)
