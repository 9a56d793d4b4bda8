#!/usr/bin/env python3
"""Runs a UCI engine over EPD test suites at a fixed node budget and counts the positions it solves.

    python3 scripts/suites_uci.py --engine ENGINE [--nodes 200000] [--option NAME=VALUE ...] [--quiet] FILE...

The same measure as the `epd` example of the workspace, for any UCI engine (Stockfish, or tesseract-uci
built from another commit): each position is searched alone (`ucinewgame`, then `position fen` and
`go nodes N`; one thread and a 16 MB table unless `--option` says otherwise), and it is solved when the
engine's move is one of its `bm` moves and none of its `am` moves. The suites' moves may be in SAN or in
UCI text. So the suites of tesseract-search/tests/data/suites are measured next to Stockfish:

    python3 scripts/suites_uci.py --engine /usr/games/stockfish --nodes 200000 \\
        tesseract-search/tests/data/suites/*.epd

Prints a line per position, `FILE ID solved|missed MOVE` (unless `--quiet`), a line per file,
`FILE solved N of M`, and as its last line `solved N of M` over all the files (a position without an
`id` is `-`, as the epd example prints it). A file that cannot be read, a line that is not EPD or not a
legal position, a move of a suite that is not legal in its position, an engine that cannot be started,
has no such option, refuses an option's value or fails mid-run: a message on stderr and exit code 2. A
reader that goes away (`| head -1`) ends it quietly with exit code 141. Needs python-chess (`pip install chess`).
"""

import argparse
import os
import sys

import chess
import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from selfplay_uci import run_main  # noqa: E402


# The largest suite file read (the epd example's cap too).
MAX_FILE = 16 << 20


def read_suite(path: str) -> list:
    """The positions of an EPD file with their operations; ValueError naming the line for a bad one."""
    with open(path, "rb") as f:
        data = f.read(MAX_FILE + 1)
    if len(data) > MAX_FILE:
        raise ValueError(f"{path}: the file is larger than {MAX_FILE >> 20} MiB, the most read here")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: the file is not UTF-8 text ({e})") from None
    suite = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            board, ops = chess.Board.from_epd(line)
        except ValueError as e:
            raise ValueError(f"{path}:{number}: {e}") from None
        if not board.is_valid():
            raise ValueError(f"{path}:{number}: not a legal position ({board.status()!r})")
        moves = {}
        for opcode in ("bm", "am"):
            moves[opcode] = ops.get(opcode, [])
            if not isinstance(moves[opcode], list) or any(m not in board.legal_moves for m in moves[opcode]):
                raise ValueError(f"{path}:{number}: {opcode} holds a move that is not legal here")
        # A position without an id is `-`, as the epd example prints it.
        suite.append((ops.get("id", "-"), board, moves["bm"], moves["am"]))
    return suite


def option(text: str) -> tuple:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    return name, value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", required=True, help="the UCI engine's program")
    parser.add_argument("--nodes", type=int, default=200_000, help="the node budget of each search")
    parser.add_argument("--option", type=option, action="append", default=[], help="a UCI option, NAME=VALUE")
    parser.add_argument("--quiet", action="store_true", help="print only the lines of each file and the total")
    parser.add_argument("files", nargs="+", metavar="FILE")
    args = parser.parse_args()
    if args.nodes < 1:
        parser.error("--nodes must be at least 1")
    try:
        suites = [(path, read_suite(path)) for path in args.files]
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    except (OSError, chess.engine.EngineError) as e:
        print(f"error: {args.engine}: {e}", file=sys.stderr)
        return 2
    with engine:
        try:
            return run(engine, args, suites)
        except chess.engine.EngineError as e:
            print(f"error: {args.engine}: {e}", file=sys.stderr)
            return 2


def run(engine, args, suites) -> int:
    """Configures the engine and runs the suites; EngineError when the engine refuses or fails."""
    unknown = [name for name, _ in args.option if name not in engine.options]
    if unknown:
        print(f"error: {args.engine} has no option {unknown[0]!r}", file=sys.stderr)
        return 2
    # One thread and a 16 MB table where the engine has those options, unless --option says otherwise.
    options = {name: value for name, value in (("Threads", "1"), ("Hash", "16")) if name in engine.options}
    options.update(args.option)
    engine.configure(options)
    solved_all = total_all = 0
    for path, suite in suites:
        solved = 0
        for id_, board, best, avoid in suite:
            # A new game object makes python-chess send ucinewgame: every position from a cleared table.
            result = engine.play(board, chess.engine.Limit(nodes=args.nodes), game=object())
            ok = result.move is not None and (not best or result.move in best) and result.move not in avoid
            solved += ok
            if not args.quiet:
                move = result.move.uci() if result.move else "-"
                print(f"{os.path.basename(path)} {id_} {'solved' if ok else 'missed'} {move}", flush=True)
        print(f"{os.path.basename(path)} solved {solved} of {len(suite)}", flush=True)
        solved_all += solved
        total_all += len(suite)
    print(f"solved {solved_all} of {total_all}")
    return 0


if __name__ == "__main__":
    run_main(main)
