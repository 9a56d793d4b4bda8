#!/usr/bin/env python3
"""Plays two UCI engines against each other at a fixed node budget, in 2D chess and Chess960.

    python3 scripts/selfplay_uci.py --a ENGINE --b ENGINE [--games 200] [--nodes 20000] [--seed 1]

Games come in pairs: each opening is played twice, colors swapped. Openings alternate between the classic
start and a Chess960 start, each followed by four random legal plies (a generator seeded by `--seed` and
the pair's number), so the same arguments give the same openings. A game ends by the rules (python-chess
decides, draws claimed as soon as they can be), or as a draw after 300 plies.

Prints one line per game, then the result from A's point of view: wins, draws, losses, the score and the
Elo difference with a 95% interval (normal approximation over the game scores), like the `match` example.
Needs python-chess (`pip install chess`).
"""

import argparse
import math
import random
import sys

import chess
import chess.engine

MAX_PLIES = 300
OPENING_PLIES = 4


def opening(pair: int, seed: int) -> chess.Board:
    rng = random.Random(seed * 1_000_003 + pair)
    if pair % 2 == 0:
        board = chess.Board()
    else:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    for _ in range(OPENING_PLIES):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def play(white, black, board: chess.Board, nodes: int) -> str:
    game = object()
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        result = engines[board.turn].play(board, chess.engine.Limit(nodes=nodes), game=game)
        board.push(result.move)
    if board.ply() >= MAX_PLIES and not board.is_game_over(claim_draw=True):
        return "1/2-1/2"
    return board.result(claim_draw=True)


def elo(score: float) -> float:
    score = min(max(score, 0.001), 0.999)
    return -400 * math.log10(1 / score - 1) + 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="engine A's executable")
    parser.add_argument("--b", required=True, help="engine B's executable")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.games < 1 or args.nodes < 1:
        print("error: --games and --nodes must be at least 1", file=sys.stderr)
        return 2

    a = chess.engine.SimpleEngine.popen_uci(args.a)
    b = chess.engine.SimpleEngine.popen_uci(args.b)
    scores = []
    try:
        for g in range(args.games):
            pair, a_white = g // 2, g % 2 == 0
            board = opening(pair, args.seed)
            start = board.fen()
            white, black = (a, b) if a_white else (b, a)
            result = play(white, black, board, args.nodes)
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            score = points if a_white else 1 - points
            scores.append(score)
            print(f"game {g + 1} A={'white' if a_white else 'black'} {result} plies {board.ply()} start {start}", flush=True)
    finally:
        a.quit()
        b.quit()

    n = len(scores)
    wins, draws = scores.count(1.0), scores.count(0.5)
    losses = n - wins - draws
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(n)
    print(
        f"A vs B: +{wins} ={draws} -{losses} score {100 * mean:.1f}% "
        f"Elo {elo(mean):+.0f} [{elo(mean - half):+.0f}, {elo(mean + half):+.0f}]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
