#!/usr/bin/env python3
"""Plays two UCI engines against each other in 4D Tesseract at a fixed node budget: `selfplay_uci.py` for
the 5⁴ board, so that two builds of `tesseract-uci` (say, today's and that of an older commit) can be
matched in 4D.

    python scripts/selfplay_uci_4d.py --a ENGINE --b ENGINE [--games 200] [--nodes 5000] [--army standard]
        [--a-option NAME=VALUE ...] [--b-option NAME=VALUE ...] [--seed 1] [--jobs 1]

Both engines are told `setoption name UCI_Variant value tesseract` (tesseract-uci's README, "4D Tesseract
through UCI") and each move `position fen TFEN moves ...` and `go nodes N`. Games come in pairs, each
opening played twice with colors swapped: the army's start (`--army light|standard|dense`) and four random
legal plies, from a generator seeded by `--seed` and the pair's number, so the same arguments give the
same openings. The referee is the project's own rules through its Python bindings (`import tesseract`,
tesseract-py: build it with `scripts/python.sh`, then run this script with `target/py-venv/bin/python`):
a move an engine gives that is not legal there stops the match with an error. A game ends by the rules
(draws claimed as soon as they can be) or as a draw after 300 plies of the engines' play (after the
opening's four; `selfplay_uci.py` counts those in). `--jobs N` plays N games at a time; the games and
results are the same whatever N, only the order of the lines changes.

Prints one line a game (the result, the plies the engines played, the opening's TFEN and each engine's
nodes and depth a move, from its last info line of each move), a line of these figures over the games, and
the result from A's point of view with the Elo difference and its 95% interval, as `selfplay_uci.py`
prints them (its `summary`). Exit code 2, with a line saying what went wrong, for bad arguments and for an
engine that cannot start, lacks an option or refuses its value, reports an error, plays an illegal move,
goes away, or does not answer within 30 s (and a second for every 10,000 nodes of a search).
"""

import argparse
import multiprocessing
import os
import queue
import random
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import tesseract
    from selfplay_uci import MAX_PLIES, OPENING_PLIES, Side, engine_options, run_main, summary  # python-chess
except ImportError as missing:
    print(
        f"error: {missing}: build the tesseract module with scripts/python.sh (its environment has python-chess"
        " too) and run this script with target/py-venv/bin/python",
        file=sys.stderr,
    )
    sys.exit(2)

ARMIES = ("light", "standard", "dense")


class EngineError(Exception):
    """An engine that could not start, refused an option, gave an illegal move or went away."""


class Engine:
    """A UCI engine process speaking the 4D game. An answer that does not come within `timeout` seconds
    is an error."""

    def __init__(self, path: str, options: dict, timeout: float):
        self.path = path
        self.timeout = timeout
        try:
            self.proc = subprocess.Popen(
                [path],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                errors="replace",
            )
        except OSError as error:
            raise EngineError(f"engine {path!r}: {error}") from error
        # The engine's lines, read by a thread: a queue can be waited on with a timeout, a pipe cannot.
        self.lines = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()
        try:
            names = set()
            self.send("uci")
            for line in self.until("uciok"):
                words = line.split()
                if words[:2] == ["option", "name"] and "type" in words:
                    names.add(" ".join(words[2 : words.index("type")]).lower())
            for name, value in [("UCI_Variant", "tesseract")] + list(options.items()):
                # Option names are case-insensitive in UCI.
                if name.lower() not in names:
                    raise EngineError(f"engine {path!r} has no option {name!r}")
                self.send(f"setoption name {name} value {value}")
            self.ready()
        except BaseException:
            self.quit()
            raise

    def read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, line: str):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise EngineError(f"engine {self.path!r} went away: {error}") from error

    def until(self, first_word: str):
        """The engine's lines up to the first that starts with `first_word` (that one last)."""
        while True:
            try:
                line = self.lines.get(timeout=self.timeout)
            except queue.Empty:
                raise EngineError(f"engine {self.path!r} did not answer within {self.timeout:g} s") from None
            if line is None:
                try:
                    code = self.proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    code = None
                raise EngineError(f"engine {self.path!r} went away (exit code {code})")
            yield line
            if line.split()[:1] == [first_word]:
                return

    def ready(self):
        """`isready`: an error the engine reports before `readyok` (tesseract-uci's `info string error ...`,
        such as a refused option value) stops the match."""
        self.send("isready")
        for line in self.until("readyok"):
            if line.startswith("info string error"):
                raise EngineError(f"engine {self.path!r}: {line.strip()}")

    def play(self, start: str, moves: list, nodes: int) -> tuple:
        """The engine's move from `start` after `moves`, with the nodes and depth of its last info line."""
        self.send(f"position fen {start}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go nodes {nodes}")
        depth = searched = 0
        for line in self.until("bestmove"):
            words = line.split()
            if line.startswith("info string error"):
                # A refused `position` or `go`: the engine would search something else.
                raise EngineError(f"engine {self.path!r}: {line.strip()}")
            if words[:1] == ["info"] and words[1:2] != ["string"]:
                for key, value in zip(words, words[1:]):
                    if key in ("depth", "nodes") and value.isdigit():
                        if key == "depth":
                            depth = int(value)
                        else:
                            searched = int(value)
            elif words[:1] == ["bestmove"] and len(words) >= 2:
                return words[1], searched, depth
        raise EngineError(f"engine {self.path!r}: a bestmove line without a move")

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        try:
            self.proc.stdin.close()
        except OSError:
            pass  # a pipe to an engine that went away


def opening(pair: int, seed: int, army: str):
    """The army's start and four random legal plies, from a generator seeded by `seed` and `pair`."""
    rng = random.Random(seed * 1_000_003 + pair)
    board = tesseract.Board.tesseract(army)
    for _ in range(OPENING_PLIES):
        moves = board.legal_moves
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def play(white: Engine, black: Engine, board, nodes: int) -> tuple:
    """Plays one game from `board` to its end; the result, the plies the engines played (a draw after
    `MAX_PLIES` of them) and a `Side` for White and for Black."""
    start = board.fen()
    moves = []
    sides = [Side(), Side()]
    while not board.is_game_over(claim_draw=True) and len(moves) < MAX_PLIES:
        mover = 0 if board.turn else 1
        text, searched, depth = (white, black)[mover].play(start, moves, nodes)
        try:
            board.push_uci(text)
        except ValueError as error:
            engine = (white, black)[mover]
            raise EngineError(f"engine {engine.path!r} played {text!r} after {start} moves {moves}: {error}") from error
        moves.append(text)
        sides[mover].moves += 1
        sides[mover].nodes += searched
        sides[mover].depth += depth
    outcome = board.outcome(claim_draw=True)
    result = outcome.result() if outcome is not None else "1/2-1/2"
    return result, len(moves), sides[0], sides[1]


def play_games(task) -> tuple:
    """Plays the games numbered in `task`: A's scores, A's and B's `Side` over them."""
    path_a, path_b, nodes, seed, army, games, options_a, options_b = task
    scores, totals = [], (Side(), Side())
    timeout = timeout_for(nodes)
    a = b = None
    try:
        a = Engine(path_a, options_a, timeout)
        b = Engine(path_b, options_b, timeout)
        for g in games:
            pair, a_white = g // 2, g % 2 == 0
            board = opening(pair, seed, army)
            start = board.fen()
            for engine in (a, b):
                engine.send("ucinewgame")
                engine.ready()
            white, black = (a, b) if a_white else (b, a)
            result, plies, on_white, on_black = play(white, black, board, nodes)
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            scores.append(points if a_white else 1 - points)
            side_a, side_b = (on_white, on_black) if a_white else (on_black, on_white)
            totals[0].add(side_a)
            totals[1].add(side_b)
            print(
                f"game {g + 1} A={'white' if a_white else 'black'} {result} plies {plies} start {start}"
                f" A {side_a.per_move()} B {side_b.per_move()}",
                flush=True,
            )
    except EngineError:
        raise
    except Exception as error:
        # Whatever else went wrong in a worker (an engine's unreadable line, say) ends the match the same way.
        raise EngineError(f"{error!r}") from error
    finally:
        for engine in (a, b):
            if engine is not None:
                engine.quit()
    return scores, totals


def timeout_for(nodes: int) -> float:
    """How long an engine may take to answer: 30 s, and a second for every 10,000 nodes of a search."""
    return 30 + nodes / 10_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="engine A's executable")
    parser.add_argument("--b", required=True, help="engine B's executable")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=5000, help="nodes a move (default 5,000)")
    parser.add_argument("--army", choices=ARMIES, default="standard", help="the start position's army")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    parser.add_argument("--a-option", action="append", default=[], metavar="NAME=VALUE", help="a UCI option of A")
    parser.add_argument("--b-option", action="append", default=[], metavar="NAME=VALUE", help="a UCI option of B")
    args = parser.parse_args()
    if args.games < 1 or args.nodes < 1 or args.jobs < 1:
        print("error: --games, --nodes and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        options = [engine_options(args.a_option), engine_options(args.b_option)]
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    jobs = min(args.jobs, args.games)
    tasks = [
        (args.a, args.b, args.nodes, args.seed, args.army, list(range(j, args.games, jobs)), *options)
        for j in range(jobs)
    ]
    try:
        for path, opts in zip((args.a, args.b), options):
            Engine(path, opts, timeout_for(0)).quit()
        if jobs == 1:
            results = [play_games(tasks[0])]
        else:
            with multiprocessing.Pool(jobs) as pool:
                # The first worker's error ends the match at once (leaving the pool stops the others).
                results = list(pool.imap_unordered(play_games, tasks))
    except EngineError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    scores = [score for part in results for score in part[0]]
    totals = (Side(), Side())
    for part in results:
        totals[0].add(part[1][0])
        totals[1].add(part[1][1])
    print(f"per move: A {totals[0].per_move()}, B {totals[1].per_move()}")
    print(summary(scores))
    return 0


if __name__ == "__main__":
    run_main(main)
