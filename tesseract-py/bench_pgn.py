"""Reading the same PGN file with tesseract.pgn and with python-chess's chess.pgn.read_game: games a second.

Usage (after `scripts/python.sh` or `pip install ./tesseract-py`, with python-chess installed):

    python tesseract-py/bench_pgn.py [--games 1000] [--plies 100] [--runs 3] [--keep FILE]

Writes a seeded file first (python-chess plays `--games` random games of at most `--plies` plies, seeded
`random.Random(1)`, and writes them with their tags: a database's seven tags and Elo ratings, clock comments
on every move of a quarter of the games, NAGs and comments on another quarter, a variation in another),
then times each reader over the whole file, in turns, `--runs` times, and prints the median and best CPU
time of each, its games a second (median) and the ratio to python-chess:

- python-chess: `chess.pgn.read_game(f)` until None (it builds the whole game: headers, nodes, boards);
- `read_games`: `tesseract.pgn.read_games(f)`, the games as returned (headers and moves are built when
  asked for);
- `read_games + headers + moves`: the same, and for each game `dict(game.headers)` and
  `game.mainline_moves()` (python-chess has built those and more);
- `read_game`: `tesseract.pgn.read_game(f)` until None, line by line, with headers and moves as above.

Every reader must find the same number of games and moves, else the script stops.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

import chess
import chess.pgn

import tesseract.pgn


def random_game(rng, k, plies):
    board = chess.Board()
    game = chess.pgn.Game()
    game.headers["Event"] = "Seeded corpus"
    game.headers["Site"] = "bench_pgn.py"
    game.headers["Date"] = f"2026.{1 + k % 12:02}.{1 + k % 28:02}"
    game.headers["Round"] = str(k + 1)
    game.headers["White"] = f"Random {rng.randrange(1000)}"
    game.headers["Black"] = f"Random {rng.randrange(1000)}"
    game.headers["WhiteElo"] = str(1200 + rng.randrange(1600))
    game.headers["BlackElo"] = str(1200 + rng.randrange(1600))
    game.headers["TimeControl"] = "180+0"
    node = game
    clock = [180, 180]
    variation_at = rng.randrange(plies)
    for ply in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        if k % 4 == 3 and ply == variation_at and len(moves) > 1:
            node.add_variation(rng.choice([m for m in moves if m != move]))
        node = node.add_main_variation(move)
        if k % 4 == 1:
            clock[ply % 2] = max(0, clock[ply % 2] - rng.randrange(6))
            c = clock[ply % 2]
            node.comment = f"[%clk {c // 3600}:{c // 60 % 60:02}:{c % 60:02}]"
        elif k % 4 == 2 and rng.randrange(12) == 0:
            node.nags.add(1 + rng.randrange(6))
        elif k % 4 == 2 and rng.randrange(12) == 0:
            node.comment = "a comment on this move"
        board.push(move)
    game.headers["Result"] = board.result()
    return game


def write_corpus(path, games, plies):
    rng = random.Random(1)
    with open(path, "w", encoding="utf-8") as f:
        for k in range(games):
            print(random_game(rng, k, plies), file=f, end="\n\n")


def python_chess(path):
    games = moves = 0
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            moves += sum(1 for _ in game.mainline_moves())
    return games, moves


def tesseract_read_games(path):
    games = moves = 0
    with open(path, encoding="utf-8") as f:
        for game in tesseract.pgn.read_games(f):
            assert not game.errors, game.errors
            games += 1
            # The number of moves without building them (the record is private to tesseract.pgn).
            moves += len(game._record) if game._record is not None else 0
    return games, moves


def tesseract_read_games_built(path):
    games = moves = 0
    with open(path, encoding="utf-8") as f:
        for game in tesseract.pgn.read_games(f):
            dict(game.headers)
            games += 1
            moves += len(game.mainline_moves())
    return games, moves


def tesseract_read_game(path):
    games = moves = 0
    with open(path, encoding="utf-8") as f:
        while (game := tesseract.pgn.read_game(f)) is not None:
            dict(game.headers)
            games += 1
            moves += len(game.mainline_moves())
    return games, moves


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", help="write the file here (kept) rather than in a temporary folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.keep or os.path.join(folder, "corpus.pgn")
        start = time.perf_counter()
        write_corpus(path, args.games, args.plies)
        size = os.path.getsize(path)
        print(f"{args.games} games, {size / 1e6:.2f} MB, written in {time.perf_counter() - start:.1f} s: {path}")
        readers = [
            ("python-chess read_game", python_chess),
            ("tesseract read_games", tesseract_read_games),
            ("tesseract read_games + headers + moves", tesseract_read_games_built),
            ("tesseract read_game + headers + moves", tesseract_read_game),
        ]
        times = {name: [] for name, _ in readers}
        counts = {}
        for _ in range(args.runs):
            for name, read in readers:
                cpu = time.process_time()
                counts[name] = read(path)
                times[name].append(time.process_time() - cpu)
        if len(set(counts.values())) != 1:
            sys.exit(f"the readers disagree on (games, moves): {counts}")
        games, moves = counts[readers[0][0]]
        print(f"each reader: {games} games, {moves} moves; CPU time over {args.runs} runs")
        base = statistics.median(times[readers[0][0]])
        for name, _ in readers:
            median, best = statistics.median(times[name]), min(times[name])
            print(
                f"{name:40} median {median * 1000:8.1f} ms  best {best * 1000:8.1f} ms  "
                f"{games / median:9.0f} games/s  {base / median:6.1f}x"
            )


if __name__ == "__main__":
    main()
