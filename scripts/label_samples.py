#!/usr/bin/env python3
"""Tuning samples labelled by a UCI engine's judgement: each position's result replaced by an expected score.

    python3 scripts/label_samples.py [--engine /usr/games/stockfish] [--nodes 20000] [--weight 1] [--wdl]
        [--jobs 1] [--option NAME=VALUE ...] IN OUT

Reads the samples `tune --write-samples` writes (a line each: White's result, `1`, `0.5` or `0`, a space
and the position's FEN; `#` lines and empty lines are passed over) and writes them to OUT with the result
replaced by `weight · e + (1 − weight) · result`, where `e` is the engine's expected score for White
after a search of `--nodes` nodes from a fresh table (`ucinewgame` before each position): its
centipawns through the logistic `1 / (1 + 10^(−cp/400))`, a mate 1 or 0; with `--wdl`, its own
win/draw/loss estimate instead (Stockfish's `UCI_ShowWDL`), which is steeper (Stockfish 15.1 puts a
position it scores 4.5 pawns up at 1000 wins in 1000) and so tells large advantages apart less. The tuner (`tune --samples OUT`, with `--squares` or without) fits the evaluation to
these fractions as it fits it to results; a fraction is the average result the engine expects, so the
fit learns the engine's judgement of each position instead of the outcome of one noisy game.

OUT must be a new or regular file in a folder that is there (a symlink, FIFO or folder is refused before any
work, and nothing is replaced). One thread and 16 MB of hash for the engine where it has such options (and `--option`'s); `--jobs N` runs N engines on
parts of the file; the output is in the input's order and does not depend on N (each position is
searched alone from a cleared table, with one thread). Needs python-chess (`pip install chess`). Errors
(a line that is no sample, an engine that will not start or gives no score) exit with code 2.
"""

import argparse
import multiprocessing
import os
import stat
import sys

import chess
import chess.engine

from selfplay_uci import engine_options, run_main

ENGINE = None


def start(path: str, options: dict, wdl: bool) -> None:
    """Starts this worker's engine (one thread, 16 MB, win/draw/loss shown with `wdl`)."""
    global ENGINE
    ENGINE = chess.engine.SimpleEngine.popen_uci(path)
    wanted = {"Threads": 1, "Hash": 16, **({"UCI_ShowWDL": True} if wdl else {})}
    try:
        if wdl and "UCI_ShowWDL" not in ENGINE.options:
            raise ValueError(f"{path} has no UCI_ShowWDL option, which --wdl needs")
        ENGINE.configure({**{k: v for k, v in wanted.items() if k in ENGINE.options}, **options})
    except BaseException:
        ENGINE.quit()
        raise


def expected_white(board: chess.Board, nodes: int, wdl: bool) -> float:
    """The worker's engine's expected score for White after `nodes` nodes on a cleared table."""
    for budget in (nodes, 4 * nodes, 16 * nodes):
        info = ENGINE.analyse(board, chess.engine.Limit(nodes=budget), game=object())
        if wdl and "wdl" in info:
            return info["wdl"].white().expectation()
        if not wdl and "score" in info:
            score = info["score"].white()
            if score.is_mate():
                # `mate 0` is the side to move mated: from White's view `MateGiven` (+0) or `Mate(-0)`.
                return 1.0 if score > chess.engine.Cp(0) else 0.0
            return 1.0 / (1.0 + 10.0 ** (-score.score() / 400.0))
    raise RuntimeError(f"no score for {board.fen()}")


def label(job) -> list:
    """The lines of one part, labelled: (line number, result, FEN) in, text lines out."""
    rows, nodes, weight, wdl, engine, options = job
    if ENGINE is None:
        start(engine, options, wdl)
    out = []
    for _, result, fen in rows:
        # chess960=True keeps the castling rights of Chess960 positions (the default board drops any right
        # whose king or rook is not on a classic square); classic positions read the same either way.
        e = expected_white(chess.Board(fen, chess960=True), nodes, wdl)
        out.append(f"{weight * e + (1 - weight) * result:.4f} {fen}")
    return out


def check_output(path: str) -> None:
    """Refuses, before any work, an output path that is not a new or regular file in a folder that is
    there: a symlink, a FIFO, a device or a folder is never written through or replaced."""
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise ValueError(f"{path}: not a regular file (a symlink, folder, FIFO or device is not written)")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise ValueError(f"{path}: the folder {folder} is not there")


def read(path: str) -> list:
    """The samples of `path` as (line number, result, FEN); ValueError for a line that is no sample."""
    rows = []
    with open(path, encoding="utf-8-sig") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            result, _, fen = text.partition(" ")
            try:
                value = float(result)
                if not 0.0 <= value <= 1.0:
                    raise ValueError
                chess.Board(fen, chess960=True)
            except ValueError:
                raise ValueError(f"{path} line {number}: not a result in [0, 1] and a FEN: {text[:80]!r}")
            rows.append((number, value, fen))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--engine", default="/usr/games/stockfish")
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--weight", type=float, default=1.0, help="the engine's share of the label, 0 to 1")
    parser.add_argument("--wdl", action="store_true", help="the engine's win/draw/loss, not its centipawns")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, an engine option")
    args = parser.parse_args()
    if args.nodes < 1 or args.jobs < 1 or not 0.0 <= args.weight <= 1.0:
        parser.error("--nodes and --jobs must be at least 1, --weight within 0 to 1")
    try:
        options = engine_options(args.option)
        check_output(args.output)
        rows = read(args.input)
        size = max(1, min(500, len(rows) // (4 * args.jobs) + 1))
        jobs = [
            (rows[i : i + size], args.nodes, args.weight, args.wdl, args.engine, options)
            for i in range(0, len(rows), size)
        ]
        # Each worker starts its engine with its first part, so that an engine that fails to start there
        # is an error raised here (a Pool's initializer that fails is only started again and again).
        with multiprocessing.Pool(args.jobs) as pool:
            with open(args.output, "w", encoding="utf-8") as out:
                done = 0
                for lines in pool.imap(label, jobs):
                    out.write("".join(line + "\n" for line in lines))
                    done += len(lines)
                    if sys.stderr.isatty():
                        print(f"\r{done} of {len(rows)}", end="", file=sys.stderr, flush=True)
        print(f"{done} samples labelled", file=sys.stderr)
    except (OSError, ValueError, RuntimeError, chess.engine.EngineError) as e:
        print(f"\nerror: {e}" if sys.stderr.isatty() else f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    run_main(main)
