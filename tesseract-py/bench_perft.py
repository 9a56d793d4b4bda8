"""perft(3) of the 4D standard start from Python against the Rust perft example, single-thread, interleaved.

Usage (after `pip install ./tesseract-py` and `cargo build --release --example perft`):

    python tesseract-py/bench_perft.py [--runs 15] [--example target/release/examples/perft]

Prints the median and best wall-clock and CPU time of each. The Rust figure is the whole process (the
example's start-up is about a millisecond); the Python figure is the `Board.perft` call alone.
"""

import argparse
import resource
import statistics
import subprocess
import time

import tesseract


def rust_run(example):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(
        [example, "--start", "standard", "--depth", "3", "--threads", "1"], capture_output=True, text=True, check=True
    ).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert out.strip().splitlines()[-1] == "nodes 11715134", out
    return wall, cpu


def python_run(board):
    cpu0, start = time.process_time(), time.perf_counter()
    nodes = board.perft(3, threads=1)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
    assert nodes == 11_715_134
    return wall, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--example", default="target/release/examples/perft")
    args = parser.parse_args()
    board = tesseract.Board.tesseract("standard")
    rust, python = [], []
    for _ in range(args.runs):
        rust.append(rust_run(args.example))
        python.append(python_run(board))
    for name, runs in [("Rust example", rust), ("Python Board.perft", python)]:
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"{name:20} wall median {statistics.median(walls) * 1000:6.1f} ms  best {min(walls) * 1000:6.1f} ms   "
            f"cpu median {statistics.median(cpus) * 1000:6.1f} ms  best {min(cpus) * 1000:6.1f} ms"
        )


if __name__ == "__main__":
    main()
