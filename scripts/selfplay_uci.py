#!/usr/bin/env python3
"""Plays two UCI engines against each other at a fixed node budget or on a clock, in 2D chess and Chess960.

    python3 scripts/selfplay_uci.py --a ENGINE --b ENGINE [--games 200] [--nodes 20000 | --clock 10+0.1]
        [--a-nodes N] [--a-option NAME=VALUE ...] [--b-option NAME=VALUE ...] [--classic] [--seed 1] [--jobs 1]
        [--pgn FILE]

Games come in pairs: each opening is played twice, colors swapped. Openings alternate between the classic
start and a Chess960 start, each followed by four random legal plies (a generator seeded by `--seed` and
the pair's number), so the same arguments give the same openings. A game ends by the rules (python-chess
decides, draws claimed as soon as they can be), or as a draw after 300 plies.

`--jobs N` plays N games at a time, each worker with its own pair of engine processes; at a node budget
the games and their results are the same whatever N, only the order of the lines changes.

`--clock BASE+INC` plays on a clock instead (seconds: each side starts with BASE and gains INC after each
move, the engines are sent `go wtime btime winc binc`, and a side whose clock runs out loses, unless the other
side has too little material left to mate, a draw as in the FIDE rules; such games are marked "on time").
`--nodes` and `--clock` exclude each other; with neither, 20,000 nodes a move. With `--clock`, `--a-nodes N`
takes A off the clock: A is sent `go nodes N` (no clock, so a tier of tesseract-uci plays at its own node
budget when N is larger) while B plays on the clock. `--a-option`
and `--b-option` set UCI options of one engine (repeatable), `--classic` keeps to the classic start. So a
tier of tesseract-uci is measured against Stockfish's calibrated strength (the Elo difference is then from
A's point of view, to be added to B's `UCI_Elo`):

    python3 scripts/selfplay_uci.py --a target/release/tesseract-uci --a-option Tier=club \
        --b /usr/games/stockfish --b-option UCI_LimitStrength=true --b-option UCI_Elo=1800 \
        --clock 10+0.1 --classic --games 20 --jobs 2

and the master tier at its own node budget against Stockfish on a clock (`--a-nodes 100000000`: the tier's
budget binds, here 300,000 nodes before the last iteration and 1,400,000 at most):

    python3 scripts/selfplay_uci.py --a target/release/tesseract-uci --a-option Tier=master --a-nodes 100000000 \
        --b /usr/games/stockfish --b-option UCI_LimitStrength=true --b-option UCI_Elo=2300 \
        --b-option "Move Overhead=100" --clock 10+0.1 --classic --games 40 --jobs 2

Prints one line per game (with each engine's nodes and depth a move, as its last info line of the move
said, and on a clock each side's lowest clock after a move, or "off the clock"), a line of these figures over
all the games,
then the result from A's point of view: wins, draws, losses, the score and the Elo difference with a 95%
interval (normal approximation over the game scores), like the `match` example; when every game is won or
every game lost, a one-sided 95% bound instead (`Elo > +183 (95%, one-sided)` for ten wins), and when every
game is drawn the exact interval (`Elo +0 [-111, +111]` for ten draws).
`--pgn FILE` writes the games to FILE as PGN, in the order of their numbers (the players are the engines'
paths with their options; a loss on time has the tag `Termination "time forfeit"`).
A reader that goes away (`| head -1`) ends it quietly with exit code 141. Needs python-chess (`pip install chess`).
"""

import argparse
import math
import multiprocessing
import os
import random
import sys
import time

import chess
import chess.engine
import chess.pgn

MAX_PLIES = 300
OPENING_PLIES = 4


def opening(pair: int, seed: int, classic: bool = False) -> chess.Board:
    rng = random.Random(seed * 1_000_003 + pair)
    if pair % 2 == 0 or classic:
        board = chess.Board()
    else:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    for _ in range(OPENING_PLIES):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


class Side:
    """What one engine did in a game: its moves, the nodes and depths it reported, its lowest clock."""

    def __init__(self):
        self.moves = 0
        self.nodes = 0
        self.depth = 0
        self.lowest = math.inf

    def add(self, other):
        self.moves += other.moves
        self.nodes += other.nodes
        self.depth += other.depth
        self.lowest = min(self.lowest, other.lowest)

    def lowest_clock(self) -> str:
        """The lowest clock after a move, or "off the clock" for a side that played without one."""
        return "off the clock" if self.lowest == math.inf else f"{self.lowest:.3f} s"

    def per_move(self) -> str:
        """`N nodes, depth D` a move (the engine's last info line of each move)."""
        moves = max(self.moves, 1)
        return f"{self.nodes / moves / 1000:.1f}k nodes, depth {self.depth / moves:.1f}"


def play(white, black, board: chess.Board, nodes: int, clock=None, off_clock=None) -> tuple:
    """Plays one game to its end: at `nodes` a move, or on `clock` = (base, increment) in seconds; on a
    clock, the engine `off_clock` (if any) plays at `nodes` a move without one.

    Returns the result, how it came ("" by the rules or the ply cap, "on time" when a clock ran out), and
    a `Side` for White and for Black. A side's lowest clock is what it had left after a move, before the
    increment."""
    game = object()
    engines = {chess.WHITE: white, chess.BLACK: black}
    sides = {chess.WHITE: Side(), chess.BLACK: Side()}
    left = {chess.WHITE: clock[0], chess.BLACK: clock[0]} if clock else None
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        timed = clock and engines[board.turn] is not off_clock
        if timed:
            limit = chess.engine.Limit(
                white_clock=left[chess.WHITE], black_clock=left[chess.BLACK], white_inc=clock[1], black_inc=clock[1]
            )
        else:
            limit = chess.engine.Limit(nodes=nodes)
        side = board.turn
        start = time.monotonic()
        result = engines[side].play(board, limit, game=game, info=chess.engine.INFO_BASIC)
        stats = sides[side]
        stats.moves += 1
        stats.nodes += result.info.get("nodes", 0)
        stats.depth += result.info.get("depth", 0)
        if timed:
            left[side] -= time.monotonic() - start
            stats.lowest = min(stats.lowest, left[side])
            if left[side] < 0:
                if board.has_insufficient_material(not side):
                    return "1/2-1/2", "on time", sides[chess.WHITE], sides[chess.BLACK]
                return ("0-1" if side == chess.WHITE else "1-0"), "on time", sides[chess.WHITE], sides[chess.BLACK]
            left[side] += clock[1]
        board.push(result.move)
    if board.ply() >= MAX_PLIES and not board.is_game_over(claim_draw=True):
        return "1/2-1/2", "", sides[chess.WHITE], sides[chess.BLACK]
    return board.result(claim_draw=True), "", sides[chess.WHITE], sides[chess.BLACK]


def elo(score: float) -> float:
    """The Elo difference of an expected score strictly between 0 and 1."""
    return -400 * math.log10(1 / score - 1) + 0.0


def elo_estimate(scores: list) -> str:
    """The Elo difference of A's game scores (1, 0.5, 0) and how sure it is at 95%, as the `match` example
    prints it (examples/common/elo.rs has the reasoning): a normal interval over the game scores, an end
    beyond the possible scores shown as -inf or +inf; when every game is won (lost), the exact one-sided
    bound `Elo > +N (95%, one-sided)` (`Elo < -N`) from 0.05^(1/n); when every game is drawn, the exact
    interval from 0.5 * 0.025^(1/n)."""
    n = len(scores)
    first = scores[0]
    if all(s == first for s in scores):
        one_sided = elo(0.05 ** (1 / n))
        if first == 1.0:
            return f"Elo > {one_sided:+.0f} (95%, one-sided)"
        if first == 0.0:
            return f"Elo < {-one_sided + 0.0:+.0f} (95%, one-sided)"
        edge = 0.5 * 0.025 ** (1 / n)
        return f"Elo {elo(first):+.0f} [{elo(edge):+.0f}, {elo(1 - edge):+.0f}]"
    mean = sum(scores) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    low = f"{elo(mean - half):+.0f}" if mean - half > 0 else "-inf"
    high = f"{elo(mean + half):+.0f}" if mean + half < 1 else "+inf"
    return f"Elo {elo(mean):+.0f} [{low}, {high}]"


def summary(scores: list) -> str:
    """The last line: A's wins, draws and losses, score and Elo estimate."""
    n = len(scores)
    wins, draws = scores.count(1.0), scores.count(0.5)
    losses = n - wins - draws
    mean = sum(scores) / n
    return f"A vs B: +{wins} ={draws} -{losses} score {100 * mean:.1f}% {elo_estimate(scores)}"


def play_games(task) -> tuple:
    """Plays the games numbered in `task` between engines A and B: their scores from A's point of view, A's
    and B's `Side` over the games, and each game's PGN text."""
    path_a, path_b, nodes, seed, games, clock, a_nodes, options_a, options_b, classic = task
    scores = []
    totals = (Side(), Side())
    pgns = []
    a = b = None
    try:
        a = start_engine(path_a, options_a)
        b = start_engine(path_b, options_b)
        for g in games:
            pair, a_white = g // 2, g % 2 == 0
            board = opening(pair, seed, classic)
            start = board.fen()
            white, black = (a, b) if a_white else (b, a)
            if a_nodes is None:
                result, how, on_white, on_black = play(white, black, board, nodes, clock)
            else:
                result, how, on_white, on_black = play(white, black, board, a_nodes, clock, off_clock=a)
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            score = points if a_white else 1 - points
            scores.append(score)
            side_a, side_b = (on_white, on_black) if a_white else (on_black, on_white)
            totals[0].add(side_a)
            totals[1].add(side_b)
            how = f" {how}" if how else ""
            lowest = f" lowest clock A {side_a.lowest_clock()} B {side_b.lowest_clock()}" if clock else ""
            print(
                f"game {g + 1} A={'white' if a_white else 'black'} {result}{how} plies {board.ply()} start {start}"
                f" A {side_a.per_move()} B {side_b.per_move()}{lowest}",
                flush=True,
            )
            clocks = (None if a_nodes is not None else clock, clock)
            pgns.append(pgn_text(board, g, a_white, result, how.strip(), path_a, path_b, options_a, options_b, clocks))
    finally:
        for engine in (a, b):
            if engine is not None:
                engine.quit()
    return scores, totals, pgns


def pgn_text(board, g, a_white, result, how, path_a, path_b, options_a, options_b, clocks) -> str:
    """The game as PGN: the engines (path and options) as the players, the start position, the result, and
    the time control of A and B (`clocks`, each (base, increment) or None for a node budget)."""
    game = chess.pgn.Game.from_board(board)
    name_a = " ".join([path_a] + [f"{k}={v}" for k, v in options_a.items()])
    name_b = " ".join([path_b] + [f"{k}={v}" for k, v in options_b.items()])
    game.headers["Event"] = "selfplay_uci.py"
    game.headers["Round"] = str(g + 1)
    game.headers["White"], game.headers["Black"] = (name_a, name_b) if a_white else (name_b, name_a)
    game.headers["Result"] = result
    control = [f"{c[0]:g}+{c[1]:g}" if c else "-" for c in clocks]
    if control[0] == control[1] and clocks[0]:
        game.headers["TimeControl"] = control[0]
    elif clocks[1]:
        white, black = control if a_white else control[::-1]
        game.headers["WhiteTimeControl"], game.headers["BlackTimeControl"] = white, black
    if how:
        game.headers["Termination"] = "time forfeit"
    return str(game)


def start_engine(path: str, options: dict):
    """Starts the UCI engine at `path` and sets `options` (raises chess.engine.EngineError or OSError)."""
    engine = chess.engine.SimpleEngine.popen_uci(path)
    try:
        engine.configure(options)
    except BaseException:
        engine.quit()
        raise
    return engine


def engine_options(items: list) -> dict:
    """The `NAME=VALUE` items of `--a-option` or `--b-option` as a dict (ValueError for another form)."""
    parsed = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ValueError(f"option {item!r}: expected NAME=VALUE")
        parsed[name] = value
    return parsed


def run_main(main) -> None:
    """Exits with `main()`'s code; a reader that went away (`... | head -1`) ends it quietly with code 141,
    as a Unix tool killed by SIGPIPE would (the workspace's examples end so too), without writing to the
    closed pipe again."""
    try:
        sys.exit(main())
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="engine A's executable")
    parser.add_argument("--b", required=True, help="engine B's executable")
    parser.add_argument("--games", type=int, default=200)
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, help="nodes a move (the default, 20,000)")
    limit.add_argument("--clock", help="BASE+INC in seconds: play on a clock instead of at --nodes a move")
    parser.add_argument("--a-nodes", type=int, metavar="N", help="with --clock: A plays at N nodes a move, off the clock")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    parser.add_argument("--a-option", action="append", default=[], metavar="NAME=VALUE", help="a UCI option of A")
    parser.add_argument("--b-option", action="append", default=[], metavar="NAME=VALUE", help="a UCI option of B")
    parser.add_argument("--classic", action="store_true", help="the classic start only (no Chess960)")
    parser.add_argument("--pgn", metavar="FILE", help="write the games to FILE as PGN, in order")
    args = parser.parse_args()
    if args.nodes is None:
        args.nodes = 20_000
    if args.games < 1 or args.nodes < 1 or args.jobs < 1 or (args.a_nodes is not None and args.a_nodes < 1):
        print("error: --games, --nodes, --a-nodes and --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.a_nodes is not None and args.clock is None:
        print("error: --a-nodes takes A off a clock: it needs --clock", file=sys.stderr)
        return 2
    clock = None
    if args.clock is not None:
        try:
            base, inc = (float(x) for x in args.clock.split("+"))
        except ValueError:
            base = inc = -1.0
        if not (base > 0 and inc >= 0):
            print(f"error: --clock {args.clock!r}: expected BASE+INC in seconds, e.g. 10+0.1", file=sys.stderr)
            return 2
        clock = (base, inc)
    try:
        options = [engine_options(args.a_option), engine_options(args.b_option)]
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path, opts in zip((args.a, args.b), options):
        try:
            start_engine(path, opts).quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError) as error:
            print(f"error: engine {path!r} with options {opts}: {error}", file=sys.stderr)
            return 2

    jobs = max(1, min(args.jobs, args.games))
    tasks = [
        (args.a, args.b, args.nodes, args.seed, list(range(j, args.games, jobs)), clock, args.a_nodes, *options, args.classic)
        for j in range(jobs)
    ]
    if jobs == 1:
        results = [play_games(tasks[0])]
    else:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(play_games, tasks)
    scores = [score for part in results for score in part[0]]
    totals = (Side(), Side())
    for part in results:
        totals[0].add(part[1][0])
        totals[1].add(part[1][1])
    if args.pgn:
        games = sorted((int(p.split('[Round "')[1].split('"')[0]), p) for part in results for p in part[2])
        with open(args.pgn, "w", encoding="utf-8") as out:
            out.write("\n\n".join(p for _, p in games) + "\n")
    lowest = f"; lowest clock: A {totals[0].lowest_clock()}, B {totals[1].lowest_clock()}" if clock else ""
    print(f"per move: A {totals[0].per_move()}, B {totals[1].per_move()}{lowest}")
    print(summary(scores))
    return 0


if __name__ == "__main__":
    run_main(main)
