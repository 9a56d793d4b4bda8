#!/usr/bin/env python3
"""The endings of opposite-colored bishops among tuning samples, and how close engines judge them to a reference.

    python3 scripts/opposite_bishops.py select [--one-color | --endgame] [--limit N [--seed S]] IN OUT
    python3 scripts/opposite_bishops.py compare REFERENCE LABELS [LABELS ...]

`select` copies from IN to OUT the samples (`tune --write-samples` lines: a result and a FEN) whose
position is an ending of opposite-colored bishops: each side a bishop and pawns alone (and its king), the
two bishops on squares of opposite colors (with `--one-color`, of one color: the control; with
`--endgame`, every ending of at most three pieces a side besides king and pawns, no queen). With `--limit
N` it keeps N of them at random (Python's `random.Random(S).shuffle`, `--seed` 1 by default), in that
shuffled order. It prints how many it kept.

`compare` reads label files of the same samples in the same order (`scripts/label_samples.py` writes
them: a fraction, White's expected score, and the FEN) and prints, for each LABELS file, how far its
fractions are from REFERENCE's (a Stockfish search, say):

- the mean squared error;
- the same with the fractions' centipawns first multiplied by the one factor, from 0.05 to 3 in steps of
  0.01, that brings them closest (so that an engine is not judged on its centipawn scale alone);
- of the positions REFERENCE calls level (within 0.1 of one half), how many LABELS calls clearly won or lost
  (more than 0.2 from one half); of those REFERENCE calls decided (more than 0.3 from one half), how many
  LABELS gives to the same side by more than 0.2.

Needs python-chess (`pip install chess`). A file that cannot be read, an OUT that is IN or
not a regular file, label files whose positions are not REFERENCE's, or python-chess missing: exit code 2.
A reader that goes away (`| head -1`) ends it quietly with exit code 141.
"""

import argparse
import math
import os
import random
import stat
import sys


def samples(path: str) -> list:
    """The (fraction, FEN, line) of each sample of `path`, read as `scripts/label_samples.py` reads them
    (the FEN checked by python-chess); ValueError for a line that is no sample."""
    from label_samples import read

    with open(path, encoding="utf-8-sig") as f:
        lines = f.read().splitlines()
    return [(value, fen, lines[number - 1] + "\n") for number, value, fen in read(path)]


def bishops_alone(fen: str, opposite: bool) -> bool:
    """Whether `fen` is an ending of a bishop and pawns a side, the bishops on squares of opposite colors
    (`opposite`) or of one color."""
    import chess

    board = chess.Board(fen, chess960=True)
    squares = []
    for color in chess.COLORS:
        if any(board.pieces(role, color) for role in (chess.KNIGHT, chess.ROOK, chess.QUEEN)):
            return False
        bishops = board.pieces(chess.BISHOP, color)
        if len(bishops) != 1:
            return False
        square = next(iter(bishops))
        squares.append((chess.square_file(square) + chess.square_rank(square)) % 2)
    return (squares[0] != squares[1]) == opposite


def endgame(fen: str) -> bool:
    """Whether `fen` has at most three pieces a side besides king and pawns, and no queen."""
    import chess

    board = chess.Board(fen, chess960=True)
    return not board.queens and all(
        sum(len(board.pieces(role, color)) for role in (chess.KNIGHT, chess.BISHOP, chess.ROOK)) <= 3
        for color in chess.COLORS
    )


def select(source: str, target: str, kind: str, limit, seed: int) -> int:
    if os.path.lexists(target) and not stat.S_ISREG(os.lstat(target).st_mode):
        raise ValueError(f"{target}: not a regular file (a symlink, folder, FIFO or device is not written)")
    if os.path.exists(target) and os.path.exists(source) and os.path.samefile(source, target):
        raise ValueError(f"{target}: the input itself (it would be overwritten)")
    keep = {
        "opposite-colored bishops": lambda fen: bishops_alone(fen, True),
        "one-colored bishops": lambda fen: bishops_alone(fen, False),
        "endgames": endgame,
    }[kind]
    kept = [line for _, fen, line in samples(source) if keep(fen)]
    if limit is not None:
        random.Random(seed).shuffle(kept)
        kept = kept[:limit]
    with open(target, "w", encoding="utf-8") as out:
        out.writelines(kept)
    print(f"kept {len(kept)} samples of {kind}")
    return 0


def centipawns(fraction: float) -> float:
    """The centipawns of the logistic `1 / (1 + 10^(-cp/400))` that give `fraction` (kept off 0 and 1)."""
    fraction = min(max(fraction, 1e-4), 1.0 - 1e-4)
    return -400.0 * math.log10(1.0 / fraction - 1.0)


def mean_squared(a: list, b: list) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b)) / len(a)


def compare(reference: str, others: list) -> int:
    ref_rows = samples(reference)
    if not ref_rows:
        raise ValueError(f"{reference}: no samples")
    ref = [r[0] for r in ref_rows]
    level = [i for i, x in enumerate(ref) if abs(x - 0.5) < 0.1]
    decided = [i for i, x in enumerate(ref) if abs(x - 0.5) > 0.3]
    print(f"{reference}: {len(ref)} samples, {len(level)} level, {len(decided)} decided")
    for path in others:
        rows = samples(path)
        if [r[1] for r in rows] != [r[1] for r in ref_rows]:
            raise ValueError(f"{path}: not the positions of {reference} in the same order")
        v = [r[0] for r in rows]
        cps = [centipawns(x) for x in v]
        best = min(
            (mean_squared([1.0 / (1.0 + 10.0 ** (-k * c / 400.0)) for c in cps], ref), k)
            for k in (i / 100 for i in range(5, 301))
        )
        far = sum(abs(v[i] - 0.5) > 0.2 for i in level)
        agree = sum((v[i] - 0.5) * (ref[i] - 0.5) > 0 and abs(v[i] - 0.5) > 0.2 for i in decided)
        print(
            f"{path}: error {mean_squared(v, ref):.4f}, at its best scale {best[0]:.4f} (x{best[1]:.2f}); "
            f"level called won or lost {far} of {len(level)}; decided given to the same side {agree} of {len(decided)}"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("select", help="keep the samples of opposite-colored bishops")
    which = s.add_mutually_exclusive_group()
    which.add_argument("--one-color", action="store_true", help="bishops on squares of one color instead")
    which.add_argument("--endgame", action="store_true", help="endings of at most three pieces a side, no queen")
    s.add_argument("--limit", type=int, help="keep this many, chosen at random")
    s.add_argument("--seed", type=int, help="the shuffle's seed (1 by default), with --limit")
    s.add_argument("input")
    s.add_argument("output")
    c = sub.add_parser("compare", help="label files against a reference's")
    c.add_argument("reference")
    c.add_argument("labels", nargs="+")
    args = parser.parse_args()
    try:
        if args.command == "select":
            if args.limit is not None and args.limit < 0:
                parser.error("--limit must be at least 0")
            if args.seed is not None and args.limit is None:
                parser.error("--seed goes with --limit")
            kind = "one-colored bishops" if args.one_color else "endgames" if args.endgame else "opposite-colored bishops"
            return select(args.input, args.output, kind, args.limit, 1 if args.seed is None else args.seed)
        return compare(args.reference, args.labels)
    except BrokenPipeError:
        raise
    except (OSError, ValueError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    from selfplay_uci import run_main

    run_main(main)
