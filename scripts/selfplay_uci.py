#!/usr/bin/env python3
"""Plays two UCI engines against each other at a fixed node budget, in 2D chess and Chess960.

    python3 scripts/selfplay_uci.py --a ENGINE --b ENGINE [--games 200] [--nodes 20000] [--seed 1] [--jobs 1]

Games come in pairs: each opening is played twice, colors swapped. Openings alternate between the classic
start and a Chess960 start, each followed by four random legal plies (a generator seeded by `--seed` and
the pair's number), so the same arguments give the same openings. A game ends by the rules (python-chess
decides, draws claimed as soon as they can be), or as a draw after 300 plies.

`--jobs N` plays N games at a time, each worker with its own pair of engine processes; the games and
their results are the same whatever N (node budgets, not clocks), only the order of the lines changes.

Prints one line per game, then the result from A's point of view: wins, draws, losses, the score and the
Elo difference with a 95% interval (normal approximation over the game scores), like the `match` example.
Needs python-chess (`pip install chess`).
"""

import argparse
import math
import multiprocessing
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


def play_games(task) -> list:
    """Plays the games numbered in `task` between engines A and B; their scores from A's point of view."""
    path_a, path_b, nodes, seed, games = task
    a = chess.engine.SimpleEngine.popen_uci(path_a)
    b = chess.engine.SimpleEngine.popen_uci(path_b)
    scores = []
    try:
        for g in games:
            pair, a_white = g // 2, g % 2 == 0
            board = opening(pair, seed)
            start = board.fen()
            white, black = (a, b) if a_white else (b, a)
            result = play(white, black, board, nodes)
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            score = points if a_white else 1 - points
            scores.append(score)
            print(f"game {g + 1} A={'white' if a_white else 'black'} {result} plies {board.ply()} start {start}", flush=True)
    finally:
        a.quit()
        b.quit()
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="engine A's executable")
    parser.add_argument("--b", required=True, help="engine B's executable")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    args = parser.parse_args()
    if args.games < 1 or args.nodes < 1 or args.jobs < 1:
        print("error: --games, --nodes and --jobs must be at least 1", file=sys.stderr)
        return 2

    jobs = max(1, min(args.jobs, args.games))
    tasks = [(args.a, args.b, args.nodes, args.seed, list(range(j, args.games, jobs))) for j in range(jobs)]
    if jobs == 1:
        results = [play_games(tasks[0])]
    else:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(play_games, tasks)
    scores = [score for part in results for score in part]
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
