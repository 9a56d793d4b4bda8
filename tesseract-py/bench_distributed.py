"""Throughput of tesseract.distributed per worker, and its scaling from 1 to N workers.

    python tesseract-py/bench_distributed.py [--start raumschach] [--depth 6] [--split 2] [--sample 400]
        [--workers 1,2] [--seed 0]

For each number of workers: a LocalCluster of that many worker processes (one thread each) is started, then
the same seeded sample of perft units is counted (``tesseract.distributed.estimate``, an in-memory store,
so nothing is resumed) and timed from the first task sent to the last result written, the cluster's
start-up left out. Prints per run the leaves, the wall time, leaves/s in all and per worker, and the speed-up
over the first run. Needs the ``distributed`` extra.
"""

import argparse
import time

from distributed import Client, LocalCluster

from tesseract import distributed as td


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", default="raumschach")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--split", type=int, default=2)
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    first = None
    for n in [int(w) for w in args.workers.split(",")]:
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            with Client(cluster) as client:
                client.wait_for_workers(n)
                begin = time.perf_counter()
                guess = td.estimate(args.start, args.depth, split=args.split, sample=args.sample, seed=args.seed,
                                    client=client)
                wall = time.perf_counter() - begin
        leaves = sum(r.count for r in guess.sampled)
        rate = leaves / wall
        first = first or rate
        print(f"workers {n}: {len(guess.sampled)} units, {leaves} leaves in {wall:.1f} s, {rate / 1e6:.1f} M leaves/s, "
              f"{rate / n / 1e6:.1f} M a worker, speed-up {rate / first:.2f}x")


if __name__ == "__main__":
    main()
