#!/usr/bin/env python3
"""Rates engine A of `selfplay_uci.py` matches against engines of known Elo (Stockfish's UCI_Elo).

    python3 scripts/rate_uci.py FILE...

Each FILE is what one `selfplay_uci.py` run printed, after a first line `# python3 scripts/selfplay_uci.py
ARGS` that gives the command (tesseract-uci/data/calibration/ holds such files). From the command it takes
A's options (`--a-option`), the clock (`--clock`; with `--a-nodes N`, "A at N nodes, B on" it) and B's
`UCI_Elo` (`--b-option UCI_Elo=N`); from the
game lines (`game N A=white 1-0 ...`) the results, from A's point of view.

Prints a line for each of A's settings and clock: the games, wins, draws and losses, and each B's Elo
with A's score against it, then A's Elo: the rating at which A's expected score (the logistic curve
1 / (1 + 10^((B - A) / 400)) summed over the games) equals its score, with a 95% interval from the spread
of the game scores (a normal approximation on the score, as `selfplay_uci.py`'s Elo difference; `?` for a
bound past a score of 0 or 100%). A side that won or lost every game has only a bound. Files without `UCI_Elo` for B (A against another engine) or without a
finished game are left out.
"""

import math
import shlex
import sys
from collections import defaultdict

SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def read(path: str):
    """A's settings, the clock, B's Elo and A's game scores in the file (None when B has no UCI_Elo)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    command = next((l for l in lines if l.startswith("# python3 ")), None)
    if command is None:
        raise ValueError(f"{path}: no line '# python3 scripts/selfplay_uci.py ...'")
    words = shlex.split(command[2:])
    a_options, b_elo, clock, a_nodes = [], None, "nodes", None
    for flag, value in zip(words, words[1:]):
        if flag == "--a-option":
            a_options.append(value)
        elif flag == "--b-option" and value.startswith("UCI_Elo="):
            b_elo = int(value.split("=", 1)[1])
        elif flag == "--clock":
            clock = value
        elif flag == "--a-nodes":
            a_nodes = value
    if a_nodes is not None:
        clock = f"A at {a_nodes} nodes, B on {clock}"
    scores = []
    for line in lines:
        w = line.split()
        if len(w) >= 4 and w[0] == "game" and w[2] in ("A=white", "A=black"):
            points = SCORE[w[3]]
            scores.append(points if w[2] == "A=white" else 1 - points)
    if b_elo is None:
        return None
    return " ".join(a_options) or "(no options)", clock, b_elo, scores


def expected(a: float, b: float) -> float:
    return 1 / (1 + 10 ** ((b - a) / 400))


def solve(games, total: float) -> float:
    """The Elo at which A's expected score over `games` is `total` (bisection: it grows with the Elo)."""
    lo, hi = -2000.0, 6000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if sum(expected(mid, b) for b, _ in games) < total:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def rating(games) -> tuple:
    """The Elo at which the expected score over `games` (pairs of B's Elo and A's score) is A's score, and
    its 95% interval: the Elos whose expected score is A's score less or plus 1.96 standard errors (for one
    B, the interval of `selfplay_uci.py`); None for a bound past any score, or for the Elo itself when A
    won or lost every game.

    Three wins and a loss against 1500 are a score of 3 to 1: 1500 + 400 log10(3) = 1690.8. The game
    scores' standard deviation is 0.5, so the interval's low end is a score of 3 - 1.96 = 1.04 of 4, 26%:
    1500 + 400 log10(0.26 / 0.74) = 1318.3; its high end is past 4 of 4.
    >>> r, low, high = rating([(1500, 1.0), (1500, 1.0), (1500, 1.0), (1500, 0.0)])
    >>> round(r, 1), round(low, 1), high
    (1690.8, 1318.3, None)

    A 50% score against 1400 and 1600 alike is 1500, and the interval is around it.
    >>> r, low, high = rating([(1400, 1.0), (1400, 0.0), (1600, 1.0), (1600, 0.0)] * 5)
    >>> round(r, 1), low < 1500 < high, round(1500 - low) == round(high - 1500)
    (1500.0, True, True)
    >>> rating([(1350, 1.0), (1350, 1.0)])
    (None, None, None)
    """
    n = len(games)
    total = sum(s for _, s in games)
    mean = total / n
    sd = math.sqrt(sum((s - mean) ** 2 for _, s in games) / max(n - 1, 1))
    half = 1.96 * sd * math.sqrt(n)

    def at(score):
        return solve(games, score) if 0 < score < n else None

    return at(total), at(total - half), at(total + half)


def percent(score: float, games: int) -> str:
    """A score of `games` games in percent, to a tenth and without a trailing zero: half percents as they
    are (Python's own rounding would print 57.5% as 58% and 32.5% as 32%).
    >>> percent(11.5, 20), percent(6.5, 20), percent(12, 20), percent(20.5, 80)
    ('57.5', '32.5', '60', '25.6')
    """
    return f"{100 * score / games:.1f}".removesuffix(".0")


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    groups = defaultdict(list)
    for path in sys.argv[1:]:
        try:
            found = read(path)
        except (OSError, ValueError, KeyError) as error:
            print(f"error: {path}: {error}", file=sys.stderr)
            return 2
        if found is not None and found[3]:
            a, clock, b_elo, scores = found
            groups[(a, clock)].extend((b_elo, s) for s in scores)
    for (a, clock), games in sorted(groups.items()):
        scores = [s for _, s in games]
        wins, draws = scores.count(1.0), scores.count(0.5)
        by_b = defaultdict(list)
        for b, s in games:
            by_b[b].append(s)
        against = ", ".join(f"{percent(sum(s), len(s))}% of {len(s)} vs {b}" for b, s in sorted(by_b.items()))
        r, low, high = rating(games)
        if r is None:
            bound = min(by_b) if sum(scores) else max(by_b)
            verdict = f"Elo {'above' if sum(scores) else 'below'} {bound} (no game {'lost' if sum(scores) else 'won'})"
        else:
            shown = [f"{x:.0f}" if x is not None else "?" for x in (low, high)]
            verdict = f"Elo {r:.0f} [{shown[0]}, {shown[1]}]"
        print(f"{a} {clock}: {len(games)} games +{wins} ={draws} -{len(games) - wins - draws} ({against}): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
