#!/usr/bin/env python3
"""Reading a PGN file: the workspace's reader against shakmaty + pgn-reader and python-chess (issue 33).

Generates the seeded corpus (`pgn generate`: random games of at most 100 plies with a database's tags,
clock comments, NAGs and variations), then times each reader over it, alternating, as separate processes:

- `pgn read FILE --threads 1 --top 0 --quiet` (tesseract-movegen's PgnReader with a visitor that keeps the
  result, `PgnReader::read_game`, one thread), and with `--threads 2` (`PgnReader::parallel_visit`);
- `pgn_shakmaty FILE` (shakmaty 0.30 + pgn-reader 0.29, moves resolved and played, variations skipped;
  an example of the tesseract-benches package);
- python-chess's `chess.pgn.read_game` over the first `--python-games` games (it is slow; its rate is
  what is compared), and `tesseract.pgn` (the Python binding) when the interpreter has it.

Each reader must report the same number of games. Prints a table: games, median seconds, games/s, MB/s,
peak resident memory (GNU time's `%M`, when /usr/bin/time is installed), and each rate as a ratio of
shakmaty + pgn-reader's.

Usage: python3 scripts/compare_pgn.py [--games 20000] [--seed 1] [--runs 5] [--python-games 2000]
           [--python PATH]   (default: target/py-venv/bin/python when it exists, else this interpreter)
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PYTHON_CHESS = """
import sys, chess.pgn
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        if not game.errors:
            n += 1
print("games", n)
"""

TESSERACT_PY = """
import sys, tesseract.pgn
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for game in tesseract.pgn.read_games(f):
        if not game.errors:
            n += 1
print("games", n)
"""


TIME = "/usr/bin/time"


def run_measured(command):
    """Runs a command; returns (seconds, its peak resident bytes or None, its last line). The peak comes
    from GNU time (`/usr/bin/time -f %M`) when it is installed: a child's own `ru_maxrss` would count the
    pages of this Python process it was forked from."""
    measured = os.path.exists(TIME)
    full = [TIME, "-f", "%M", "--", *command] if measured else command
    start = time.perf_counter()
    child = subprocess.run(full, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if child.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({child.returncode}): {child.stderr.strip()}")
    peak = int(child.stderr.strip().splitlines()[-1]) * 1024 if measured else None
    return seconds, peak, child.stdout.strip().splitlines()[-1]


def first_games(path, count, out):
    """Writes the first `count` games of the corpus at `path` to `out` (games are separated by blank lines
    before a tag line, as `pgn generate` writes them)."""
    games, lines = 0, []
    with open(path, encoding="utf-8") as f:
        previous = ""
        for line in f:
            if line.startswith("[Event ") and previous.strip() == "":
                games += 1
                if games > count:
                    break
            lines.append(line)
            previous = line
    with open(out, "w", encoding="utf-8") as f:
        f.writelines(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python-games", type=int, default=2000)
    parser.add_argument("--python", default=None)
    args = parser.parse_args()
    if args.games < 1 or args.runs < 1 or args.python_games < 1:
        sys.exit("--games, --runs and --python-games are at least 1")
    venv = os.path.join(ROOT, "target", "py-venv", "bin", "python")
    python = args.python or (venv if os.path.exists(venv) else sys.executable)

    subprocess.run(["cargo", "build", "--quiet", "--release", "--example", "pgn"], cwd=ROOT, check=True)
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "tesseract-benches", "--example", "pgn_shakmaty"],
        cwd=ROOT,
        check=True,
    )
    examples = os.path.join(ROOT, "target", "release", "examples")
    pgn, shakmaty = os.path.join(examples, "pgn"), os.path.join(examples, "pgn_shakmaty")

    with tempfile.TemporaryDirectory() as tmp:
        corpus = os.path.join(tmp, "corpus.pgn")
        subprocess.run([pgn, "generate", "--games", str(args.games), "--seed", str(args.seed), "--out", corpus], check=True)
        small = os.path.join(tmp, "small.pgn")
        python_games = min(args.python_games, args.games)
        first_games(corpus, python_games, small)
        size, small_size = os.path.getsize(corpus), os.path.getsize(small)
        print(f"corpus: {args.games} games, {size} bytes (seed {args.seed}); python readers: the first {python_games} games, {small_size} bytes")

        readers = [
            ("tesseract read_game, 1 thread", [pgn, "read", corpus, "--threads", "1", "--top", "0", "--quiet"], args.games, size),
            ("tesseract parallel_visit, 2 threads", [pgn, "read", corpus, "--threads", "2", "--top", "0", "--quiet"], args.games, size),
            ("shakmaty + pgn-reader", [shakmaty, corpus], args.games, size),
            ("python-chess read_game", [python, "-c", PYTHON_CHESS, small], python_games, small_size),
        ]
        has_binding = subprocess.run([python, "-c", "import tesseract.pgn"], capture_output=True).returncode == 0
        if has_binding:
            readers.append(("tesseract.pgn (Python)", [python, "-c", TESSERACT_PY, corpus], args.games, size))
        else:
            print(f"({python} has no tesseract.pgn: `bash scripts/python.sh` installs it into target/py-venv)")

        times = {name: [] for name, *_ in readers}
        memory = {name: None for name, *_ in readers}
        for _ in range(args.runs):
            for name, command, games, _ in readers:
                seconds, peak, last = run_measured(command)
                if last != f"games {games}":
                    sys.exit(f"{name}: ended with {last!r}, expected 'games {games}'")
                times[name].append(seconds)
                if peak is not None:
                    memory[name] = max(memory[name] or 0, peak)

    rate = {name: games / statistics.median(times[name]) for name, _, games, _ in readers}
    base = rate["shakmaty + pgn-reader"]
    print(f"median of {args.runs} alternating runs (whole processes: start, read, exit)")
    print(f"{'reader':42} {'games':>7} {'seconds':>8} {'games/s':>10} {'MB/s':>7} {'peak MB':>8} {'× shakmaty':>11}")
    for name, _, games, bytes_ in readers:
        median = statistics.median(times[name])
        print(
            f"{name:42} {games:7} {median:8.3f} {rate[name]:10.0f} {bytes_ / median / 1e6:7.1f} "
            f"{'' if memory[name] is None else f'{memory[name] / 1e6:.1f}':>8} {rate[name] / base:10.3f}×"
        )
    chess_rate = rate["python-chess read_game"]
    if has_binding:
        print(f"tesseract.pgn / python-chess: {rate['tesseract.pgn (Python)'] / chess_rate:.1f}×")


if __name__ == "__main__":
    main()
