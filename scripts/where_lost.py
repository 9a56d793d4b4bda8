#!/usr/bin/env python3
"""Where an engine loses its games: each of its moves judged by Stockfish at a fixed node budget.

    python3 scripts/where_lost.py [--engine tesseract] [--stockfish /usr/games/stockfish] [--nodes 150000]
        [--skip-plies 4] [--jobs 1] [--list 20] PGN...

Reads the games of the PGN files (as `selfplay_uci.py --pgn` writes them: chess or Chess960), keeps those
the engine did not win (the engine is the player whose name holds `--engine`, either color; a game where
both names hold it is an error), passes over the first `--skip-plies` plies (the random plies
`selfplay_uci.py` opens with, which no engine chose), and asks Stockfish (one thread,
64 MB of hash, a fresh process for each game, so each game's figures depend on it alone) for its score
before and after each of the engine's moves, from the engine's side, mates counted as ±10,000 and every
score clamped to ±1,000 centipawns; a position the game's rules end, or where a draw can be claimed, is
scored by them (mated −10,000, drawn 0), not asked (a judge that gives no score at the budget, stopped
inside its first iteration, is asked again with four and sixteen times the budget). A move's loss is the
fall of that score. Prints:

- a line a game: its file and round, the engine's result, and the ply from which Stockfish's score stayed
  at −150 or below to the end (`-` when it never did), with the pieces on the board there (`before the
  first judged move` when the random plies had already given such a position);
- the moves, and the centipawns lost, by phase: the opening (up to ply 30), the middlegame (plies 31 to 80
  with more than 14 pieces) and the endgame (the rest); moves played in a position already scored −600 or
  below are left out, the game being lost;
- for the lost games, the median of the ply and of the pieces where the score stayed at −150 or below,
  and how many of them got there by ply 30 and with 24 pieces or more on the board (the games lost before
  the first judged move left out);
- the moves that lost 150 centipawns or more from a position not yet lost (above −600), the `--list`
  largest with the move Stockfish preferred.

`--jobs N` judges N games at a time (a Stockfish process each); the output does not depend on N.
A reader that goes away (`| head -1`) ends it quietly with exit code 141.
`--stockfish` may name any UCI engine that searches to a node budget (CI judges with `tesseract-uci`).
Needs python-chess (`pip install chess`).
"""

import argparse
import multiprocessing
import statistics
import sys

import chess
import chess.engine
import chess.pgn

from selfplay_uci import OPENING_PLIES, run_main

CLAMP = 1000
LOST = -600
STAYS = -150
BIG = 150


def clamp(cp: int) -> int:
    return max(-CLAMP, min(CLAMP, cp))


def phase(ply: int, pieces: int) -> str:
    if ply <= 30:
        return "opening"
    if ply <= 80 and pieces > 14:
        return "middlegame"
    return "endgame"


def read_games(paths, engine: str):
    """(path, round, the engine's color, its score, the start, the moves) of each game the engine played and
    did not win, and how many games it played."""
    games, played = [], 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if game.errors:
                    raise ValueError(f"{path} round {game.headers.get('Round', '?')}: {game.errors[0]}")
                white, black = game.headers.get("White", ""), game.headers.get("Black", "")
                if engine in white and engine in black:
                    raise ValueError(f"{path} round {game.headers.get('Round', '?')}: both players' names hold "
                                     f"{engine!r}: name the engine by more of its name")
                if engine in white:
                    color = chess.WHITE
                elif engine in black:
                    color = chess.BLACK
                else:
                    continue
                played += 1
                points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(game.headers.get("Result", "*"))
                if points is None:
                    continue
                score = points if color == chess.WHITE else 1 - points
                if score < 1:
                    moves = list(game.mainline_moves())
                    games.append((path, game.headers.get("Round", "?"), color, score, game.board(), moves))
    return games, played


def judge(job):
    """The engine's moves of one game: (ply after the move, pieces after it, score before, after, move, best)."""
    (path, rnd, color, score, board, moves), stockfish, nodes, skip = job
    sf = chess.engine.SimpleEngine.popen_uci(stockfish)
    try:
        # One thread and 64 MB where the engine has such options (any UCI engine may judge).
        sf.configure({k: v for k, v in {"Threads": 1, "Hash": 64}.items() if k in sf.options})

        def analyse():
            """The score from the engine's side, and the judge's move (`None` when the game is over)."""
            # A draw that could be claimed counts as one: `selfplay_uci.py` claims it at once.
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                return (0 if outcome.winner is None else 10_000 if outcome.winner == color else -10_000), None
            # An engine stopped by the node budget before it finished a first iteration may give no score:
            # it is asked again with four and sixteen times the budget.
            for budget in (nodes, 4 * nodes, 16 * nodes):
                info = sf.analyse(board, chess.engine.Limit(nodes=budget))
                if "score" in info:
                    pv = info.get("pv") or [None]
                    return info["score"].pov(color).score(mate_score=10_000), pv[0]
            raise RuntimeError(f"{path} round {rnd}: no score from {stockfish} for {board.fen()}")

        rows = []
        for i, move in enumerate(moves):
            if board.turn != color or i < skip:
                board.push(move)
                continue
            e0, best = analyse()
            san, best_san = board.san(move), board.san(best) if best else "-"
            board.push(move)
            e1, _ = analyse()
            rows.append((board.ply(), len(board.piece_map()), clamp(e0), clamp(e1), san, best_san))
        return path, rnd, score, rows
    finally:
        sf.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--engine", default="tesseract", help="a part of the engine's player name")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--nodes", type=int, default=150_000)
    parser.add_argument(
        "--skip-plies", type=int, default=OPENING_PLIES, help="plies at the start not judged (random ones)"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--list", type=int, default=20, help="how many of the large losses to list")
    args = parser.parse_args()
    if args.nodes < 1 or args.jobs < 1 or args.list < 0 or args.skip_plies < 0:
        parser.error("--nodes and --jobs must be at least 1, --list and --skip-plies at least 0")
    try:
        games, played = read_games(args.pgn, args.engine)
        if played == 0:
            raise ValueError(f"no game has a player whose name holds {args.engine!r}")
        jobs = [(g, args.stockfish, args.nodes, args.skip_plies) for g in games]
        with multiprocessing.Pool(args.jobs) as pool:
            judged = pool.map(judge, jobs, chunksize=1)
    except (OSError, ValueError, RuntimeError, chess.engine.EngineError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    lost = {"opening": [0, 0], "middlegame": [0, 0], "endgame": [0, 0]}
    stayed, big = [], []
    for path, rnd, score, rows in judged:
        mark = "-"
        if rows and rows[0][2] <= STAYS and all(r[3] <= STAYS for r in rows):
            mark = "before the first judged move"
        else:
            for i, (ply, pieces, _, _, _, _) in enumerate(rows):
                if all(r[3] <= STAYS for r in rows[i:]):
                    mark = f"ply {ply}, {pieces} pieces"
                    if score == 0:
                        stayed.append((ply, pieces))
                    break
        print(f"{path} round {rnd}: scored {score:g}; at {STAYS} or below from {mark}")
        for ply, pieces, e0, e1, san, best in rows:
            if e0 <= LOST:
                continue
            bucket = lost[phase(ply, pieces)]
            bucket[0] += 1
            bucket[1] += max(0, e0 - e1)
            if e0 - e1 >= BIG:
                big.append((e0 - e1, path, rnd, ply, san, best, e0, e1))
    print(f"games judged: {len(judged)} of {played} (those the engine did not win), by {args.stockfish} at "
          f"{args.nodes} nodes a position, from ply {args.skip_plies + 1}")
    for name, (moves, cp) in lost.items():
        print(f"{name}: {moves} moves, {cp} cp lost, {cp / max(moves, 1):.1f} a move")
    if stayed:
        median_ply = statistics.median(p for p, _ in stayed)
        median_pieces = statistics.median(n for _, n in stayed)
        early = sum(1 for p, _ in stayed if p <= 30)
        crowded = sum(1 for _, n in stayed if n >= 24)
        print(f"lost games: {len(stayed)}, at {STAYS} or below for good from ply {median_ply:g} (median), "
              f"{median_pieces:g} pieces; by ply 30: {early}; with 24 pieces or more: {crowded}")
    print(f"moves losing {BIG} cp or more from a position above {LOST}: {len(big)}")
    order = lambda b: (-b[0], b[1], int(b[2]) if b[2].isdigit() else 0, b[2], b[3])  # noqa: E731
    for loss, path, rnd, ply, san, best, e0, e1 in sorted(big, key=order)[: args.list]:
        print(f"  {path} round {rnd} ply {ply}: {san} ({e0} -> {e1}), the judge preferred {best}")
    return 0


if __name__ == "__main__":
    run_main(main)
