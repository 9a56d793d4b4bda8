"""The command line of tesseract.distributed.

    python -m tesseract.distributed perft (--start NAME | --fen TEXT) --depth N [--split K] [--divide]
        [--store FILE] [--scheduler ADDRESS | --workers N] [--verify FRACTION] [--hash MB] [--quiet]
        [--estimate N [--seed S]]
    python -m tesseract.distributed playouts [--games N] [--armies NAMES] [--white P] [--black P] [--seed N]
        [--first-game N] [--max-plies N] [--unit-games N] [--csv FILE] [--store FILE]
        [--scheduler ADDRESS | --workers N] [--verify FRACTION] [--quiet]

perft prints, with --divide, one line ``<move> <count>`` per first move (sorted by move text), then a line
on the units and the time, and last ``nodes N``, as the perft example; with ``--estimate N`` it counts N
seeded random units only and prints the estimated count and core-hours (last line ``estimated core-hours
H +- E``). playouts prints the experiment
example's table, then ``time S s``, and last ``games N``. Progress goes to stderr. Wrong arguments: a
message and exit code 2; a recount that disagrees or a failed unit: a message and exit code 1.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from typing import Optional, Sequence

from . import Store, VerificationError, estimate, perft, playouts

DEFAULT_STORE = "tesseract-distributed.sqlite"


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a fraction from 0 to 1")
    return value


def _ranged(low: int, high: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range ({low} to {high})")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tesseract.distributed",
        description="Perft and seeded playouts on a Dask cluster, durable and resumable.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def cluster_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--store", default=DEFAULT_STORE, help=f"the SQLite result store (default {DEFAULT_STORE})")
        where = p.add_mutually_exclusive_group()
        where.add_argument("--scheduler", help="a Dask scheduler's address, tcp://HOST:8786 (default: a LocalCluster)")
        where.add_argument("--workers", type=_ranged(1, 1024), help="the LocalCluster's worker processes (default: one a core)")
        p.add_argument("--verify", type=_fraction, default=0.0, metavar="FRACTION",
                       help="recount this fraction of the units on other workers (default 0)")
        p.add_argument("--quiet", action="store_true", help="no progress on stderr")

    p = sub.add_parser("perft", help="perft and divide, split into the positions after --split plies")
    start = p.add_mutually_exclusive_group(required=True)
    start.add_argument("--start", help="light, standard, dense, raumschach, classic or chess960:N")
    start.add_argument("--fen", help="a position's FEN or TFEN")
    p.add_argument("--depth", type=_ranged(0, 64), required=True, help="plies, 0 to 64")
    p.add_argument("--split", type=_ranged(1, 4), default=2, help="plies before the units (1 to 4, at most the depth; default 2)")
    p.add_argument("--divide", action="store_true", help="print the count under each first move")
    p.add_argument("--estimate", type=_ranged(1, 1_000_000), metavar="N",
                   help="count only N seeded random units and estimate the whole count and its core-hours")
    p.add_argument("--seed", type=_ranged(0, 2**64 - 1), default=0, help="the --estimate sample's seed (default 0)")
    p.add_argument("--hash", type=_ranged(0, 65536), default=0, metavar="MB",
                   help="each unit's own transposition table in MB (default 0: none)")
    cluster_options(p)

    q = sub.add_parser("playouts", help="seeded games, as the experiment example plays them")
    q.add_argument("--games", type=_ranged(1, 1_000_000), default=100, help="games from each start (default 100)")
    q.add_argument("--armies", default="light,standard,dense", help="comma-separated start names")
    q.add_argument("--white", default="random", help="random, beginner, club, expert, master or nodes=N")
    q.add_argument("--black", default="random", help="as --white")
    q.add_argument("--seed", type=_ranged(0, 2**64 - 1), default=1, help="the run's seed (default 1, as experiment)")
    q.add_argument("--first-game", type=_ranged(0, 1_000_000), default=0, help="the first game's number (default 0)")
    q.add_argument("--max-plies", type=_ranged(1, 1_000_000), default=10_000, help="a game's ply cap (default 10000)")
    q.add_argument("--unit-games", type=_ranged(1, 1_000_000), default=10, help="games a unit (default 10)")
    q.add_argument("--csv", help="write every game's row there, as experiment --csv (- for stdout)")
    cluster_options(q)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    where = {"scheduler": args.scheduler, "workers": args.workers}
    # The store opens (and has the tables) before any work: a folder, a device or a file of another kind
    # is refused here.
    try:
        Store(args.store).close()
    except sqlite3.Error as e:
        parser.error(f"--store: {args.store}: {e}")
    try:
        if args.command == "perft":
            position = args.start if args.start is not None else args.fen
            try:
                from . import _board, perft_units

                board = _board(position)
                if args.depth > 0:
                    perft_units(board, min(args.depth, 1), 1)  # the position reads and has a move list
                if args.depth > 0 and not 1 <= args.split <= min(args.depth, 4):
                    raise ValueError(f"--split: {args.split} is out of range (1 to {min(args.depth, 4)} for depth {args.depth})")
            except ValueError as e:
                parser.error(str(e))
            if args.estimate is not None:
                try:
                    guess = estimate(board, args.depth, split=args.split, sample=args.estimate, seed=args.seed,
                                     store=args.store, hash_mb=args.hash, progress=not args.quiet, **where)
                except ValueError as e:
                    parser.error(str(e))
                print(f"units {guess.units} (move sequences {guess.paths}), sampled {len(guess.sampled)}, "
                      f"{sum(r.count for r in guess.sampled)} leaves in {sum(r.seconds for r in guess.sampled):.1f} s")
                print(f"leaves/s per core {guess.leaves_per_second:.0f}")
                print(f"estimated nodes {guess.nodes:.4g} +- {guess.nodes_error:.2g}")
                print(f"estimated core-hours {guess.core_hours:.4g} +- {guess.core_hours_error:.2g}")
                return 0
            result = perft(board, args.depth, split=args.split, store=args.store, verify=args.verify,
                           hash_mb=args.hash, progress=not args.quiet, **where)
            if args.divide:
                for move, count in result.divide.items():
                    print(f"{move} {count}")
            print(f"units {result.units} ({result.resumed} from the store, {result.recounted} recounted), "
                  f"time {result.seconds:.1f} s, unit time {result.unit_seconds:.1f} s")
            print(f"nodes {result.nodes}")
        else:
            starts = [s for s in args.armies.split(",") if s]
            try:
                # Checked before any cluster starts: the same errors as the games would raise.
                import tesseract

                if len(set(starts)) != len(starts) or not starts:
                    raise ValueError(f"--armies: {args.armies!r} names no start or a start twice")
                for name in starts:
                    tesseract.playouts(name, white=args.white, black=args.black, seed=args.seed, max_plies=1)
                if args.csv not in (None, "-"):
                    folder = os.path.dirname(os.path.abspath(args.csv))
                    if os.path.isdir(args.csv) or not os.path.isdir(folder):
                        raise ValueError(f"--csv: {args.csv}: a folder, or in a folder that does not exist")
            except ValueError as e:
                parser.error(str(e))
            print(
                f"playouts: {args.games} games from each of {','.join(starts)}, white {args.white}, black "
                f"{args.black}, seed {args.seed}, first game {args.first_game}, max plies {args.max_plies}",
                file=sys.stderr,
            )
            study = playouts(starts, games=args.games, white=args.white, black=args.black, seed=args.seed,
                              first_game=args.first_game, max_plies=args.max_plies, unit_games=args.unit_games,
                              store=args.store, verify=args.verify, progress=not args.quiet, **where)
            if args.csv == "-":
                sys.stdout.write(study.csv())
                out = sys.stderr
            else:
                if args.csv is not None:
                    with open(args.csv, "w", encoding="utf-8", newline="") as f:
                        f.write(study.csv())
                out = sys.stdout
            print(study.table(), file=out)
            print(f"time {study.seconds:.1f} s", file=out)
            print(f"games {len(study.rows)}", file=out)
    except VerificationError as e:
        print(f"verify: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise
    except KeyboardInterrupt:
        print("interrupted: the finished units are in the store; the same command resumes", file=sys.stderr)
        return 130
    except Exception as e:  # a failed unit, a lost scheduler, a full disk: one line, no traceback
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


def run() -> int:
    """``main``, with a reader that stops early (``| head -1``) ending the output quietly."""
    try:
        code = main()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # Python would report the pipe again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(run())
