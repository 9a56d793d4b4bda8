"""Perft, divide and seeded playouts on a Dask cluster (``pip install ./tesseract-py[distributed]``).

A long count is split into work units, each computed by the Rust library in a Dask worker (the GIL is
released while it counts), on any cluster the ``distributed`` scheduler runs on: a ``LocalCluster`` by
default, or ``Client(address)`` for a scheduler of a university's SLURM or PBS (dask-jobqueue), Kubernetes
or a few machines over SSH::

    from tesseract import distributed as td

    result = td.perft("standard", 4, split=1, store="perft4.sqlite")
    print(result.nodes)                                  # 2720713816
    study = td.playouts(["light"], games=100, seed=1)
    print(study.table())                                 # the table of the experiment example

Perft units are the positions after ``split`` plies, merged by Zobrist hash (a position reached by several
move orders is counted once and weighted by its number of paths; two positions sharing a hash are kept
apart, their texts compared). Playout units are ranges of game numbers of a seeded run, each game seeded as the
``experiment`` example seeds it, so the games and the statistics are those of ``experiment`` for the same
seed, on any cluster.

Every finished unit is written to the store (an SQLite file; see ``Store``) as it arrives, so a run stopped
at any point resumes where it stopped: the same call (or command) with the same store counts only the
units not in it, and never a unit twice. ``verify=FRACTION`` counts a seeded random sample of the units again
on other workers (perft: the unhashed count) and refuses to finish (``VerificationError``) when a recount
disagrees.

The command line: ``python -m tesseract.distributed perft --start standard --depth 6 --split 2 --store
perft6.sqlite [--scheduler tcp://HOST:8786]``, whose last line is ``nodes N`` as for the ``perft``
example, and ``python -m tesseract.distributed playouts ...``, whose last line is ``games N`` as for
``experiment`` (``--help`` for the options).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Sequence, Union

import tesseract

from ._store import Store, UnitResult

__all__ = [
    "PerftEstimate",
    "PerftResult",
    "PerftUnit",
    "PlayoutResult",
    "Store",
    "UnitResult",
    "VerificationError",
    "estimate",
    "perft",
    "perft_units",
    "playouts",
]

# The largest split: the positions after 3 plies of the 4D start are 11.7 million, as many units.
MAX_SPLIT = 4
# Games a playout unit plays, by default.
UNIT_GAMES = 10
# The reasons a game ends, in the order of the experiment example's columns (EndReason::ALL).
REASONS = (
    "checkmate",
    "stalemate",
    "dead_draw",
    "fivefold",
    "seventy_five_moves",
    "threefold",
    "fifty_moves",
    "ply_cap",
)
# The columns of the experiment example's CSV (tesseract_search::playout::CsvWriter::HEADER).
CSV_COLUMNS = (
    "start",
    "game",
    "seed",
    "white",
    "black",
    "plies",
    "result",
    "reason",
    "mean_branching",
    "max_branching",
    "captures",
    "promotions",
    "checks",
    "white_pieces",
    "black_pieces",
    "engine_nodes",
)


class VerificationError(RuntimeError):
    """A recount disagreed with the first count of a unit: the run does not finish."""


# ---------------------------------------------------------------------------------------------------------
# The work of one unit, in a worker.


def _worker_name() -> str:
    """The address of the Dask worker this runs in (``local`` outside a worker)."""
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return "local"


def count_unit(key: str, fen: str, chess960: bool, depth: int, hash_mb: int) -> UnitResult:
    """Perft ``depth`` of the position ``fen`` on one thread (with a table of ``hash_mb`` MB, 0: none)."""
    begin = time.perf_counter()
    count = tesseract.Board(fen, chess960=chess960).perft(depth, threads=1, hash_mb=hash_mb)
    return UnitResult(key, count, time.perf_counter() - begin, _worker_name(), tesseract.__version__)


def play_unit(
    key: str, start: str, white: str, black: str, seed: int, first_game: int, games: int, max_plies: int
) -> UnitResult:
    """Games ``first_game`` to ``first_game + games - 1`` of a seeded run (``tesseract.playouts``)."""
    begin = time.perf_counter()
    rows = tesseract.playouts(
        start, white=white, black=black, seed=seed, first_game=first_game, games=games, max_plies=max_plies
    )
    data = json.dumps(rows, separators=(",", ":"))
    return UnitResult(key, len(rows), time.perf_counter() - begin, _worker_name(), tesseract.__version__, data)


# ---------------------------------------------------------------------------------------------------------
# Perft units.


@dataclass(frozen=True)
class PerftUnit:
    """One position after ``split`` plies: its Zobrist hash as 16 hex digits (the key), its text, the plies
    left to count, and the number of move sequences from the root reaching it, by first move."""

    key: str
    fen: str
    chess960: bool
    depth: int
    paths: dict[str, int]


def _board(position: Union[str, "tesseract.Board"]) -> "tesseract.Board":
    """A start name (``standard``, ``classic``, ``chess960:N``, ...), a FEN or TFEN, or a board."""
    if isinstance(position, tesseract.Board):
        return position.copy(stack=False)
    try:
        return tesseract.Board.from_start(position)
    except ValueError:
        return tesseract.Board(position)


def _without_counters(fen: str) -> str:
    return fen.rsplit(" ", 2)[0]


def perft_units(position: Union[str, "tesseract.Board"], depth: int, split: int) -> list[PerftUnit]:
    """The units of perft ``depth`` split after ``split`` plies (1 to ``min(depth, 4)``), in the order they
    are first reached; positions are merged when their hashes and their texts (without the move counters)
    are equal, and two positions that share a hash are kept apart. Raises ``ValueError`` for a split out of
    range."""
    board = _board(position)
    if depth < 1:
        raise ValueError(f"depth: {depth} is below 1")
    if not 1 <= split <= min(depth, MAX_SPLIT):
        raise ValueError(f"split: {split} is out of range (1 to {min(depth, MAX_SPLIT)} for depth {depth})")
    chess960 = board.chess960_mode
    found: dict[str, tuple[str, dict[str, int]]] = {}

    def walk(plies: int, first: str) -> None:
        if plies == 0:
            key = f"{board.zobrist_hash():016x}"
            fen = board.fen()
            entry = found.get(key)
            if entry is not None and _without_counters(entry[0]) != _without_counters(fen):
                # Two positions share the hash: the second is a unit of its own, keyed by its text too.
                key += "-" + hashlib.sha256(_without_counters(fen).encode()).hexdigest()[:12]
                entry = found.get(key)
            if entry is None:
                found[key] = (fen, {first: 1})
            else:
                entry[1][first] = entry[1].get(first, 0) + 1
            return
        for move in board.legal_moves:
            board.push(move)
            walk(plies - 1, first or move.uci())
            board.pop()

    walk(split, "")
    return [PerftUnit(k, fen, chess960, depth - split, paths) for k, (fen, paths) in found.items()]


# ---------------------------------------------------------------------------------------------------------
# Running units on a cluster.


@contextlib.contextmanager
def _cluster(client: Any, workers: Optional[int], scheduler: Optional[str]) -> Iterator[Any]:
    """The client given, one of ``scheduler``'s address, or a LocalCluster of ``workers`` processes (one
    thread each; default: one a core), closed at the end."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:  # pragma: no cover - the extra is missing
        raise ImportError(
            "tesseract.distributed needs Dask's distributed: pip install './tesseract-py[distributed]'"
        ) from e
    if client is not None:
        yield client
    elif scheduler is not None:
        with Client(scheduler) as c:
            yield c
    else:
        n = workers or os.cpu_count() or 1
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            with Client(cluster) as c:
                yield c


class _Progress:
    """Units done and total, leaves (or games) a second and the time left, on stderr: one line redrawn on a
    terminal, else a line every 30 seconds."""

    def __init__(self, total: int, resumed: int, what: str, enabled: bool) -> None:
        self.total, self.resumed, self.what, self.enabled = total, resumed, what, enabled
        self.tty = sys.stderr.isatty()
        self.begin = time.monotonic()
        self.last = 0.0
        self.done = 0
        self.counted = 0

    def update(self, counted: int) -> None:
        self.done += 1
        self.counted += counted
        now = time.monotonic()
        if self.enabled and now - self.last >= (0.5 if self.tty else 30.0):
            self.last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        elapsed = max(now - self.begin, 1e-9)
        left = self.total - self.resumed - self.done
        eta = elapsed / self.done * left if self.done else float("nan")
        line = (
            f"units {self.resumed + self.done}/{self.total}"
            + (f" ({self.resumed} from the store)" if self.resumed else "")
            + f", {self.counted / elapsed:,.0f} {self.what}/s, time left "
            + (time.strftime("%H:%M:%S", time.gmtime(eta)) if eta == eta else "?")
        )
        print(("\r" + line + "\x1b[K") if self.tty else line, end="" if self.tty else "\n", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.enabled and self.tty:
            print(file=sys.stderr)


# Each task sent to a worker holds a batch of units sized to last about this long (the first units of a
# run go one a task, to measure them): Dask's overhead is a few milliseconds a task, so units of a
# millisecond would otherwise spend most of their time in the scheduler, and tasks of hours would lose
# hours when a worker dies.
TASK_SECONDS = 2.0


def _count_batch(fn: Callable[..., UnitResult], batch: list[tuple]) -> list[UnitResult]:
    """A task: the units of ``batch`` (argument tuples of ``fn``), one after another."""
    return [fn(*args) for args in batch]


def _dispatch(
    client: Any,
    run: str,
    fn: Callable[..., UnitResult],
    todo: list[tuple],
    on_result: Callable[[UnitResult], None],
    after_batch: Callable[[], None],
    where: Optional[dict] = None,
) -> None:
    """Computes ``fn(*args)`` for every ``args`` of ``todo`` on the cluster, calls ``on_result`` with each
    result as its task returns and ``after_batch`` after each batch of returned tasks. Keeps two tasks a
    worker thread in flight, each a batch of units that should last about ``TASK_SECONDS`` by the units'
    mean time so far. A task of a worker that dies is sent again by the scheduler; the results are those of
    the units, whatever the batches."""
    from distributed import as_completed

    queue = list(reversed(todo))
    flying = as_completed(with_results=True)
    spent, units = 0.0, 0
    known = {"threads": 1, "at": -1e9}

    def threads() -> int:
        # The cluster's threads, asked of the scheduler at most every 2 seconds (workers come and go).
        if time.monotonic() - known["at"] >= 2.0:
            info = client.scheduler_info()["workers"].values()
            known["threads"], known["at"] = max(1, sum(w.get("nthreads", 1) for w in info)), time.monotonic()
        return int(known["threads"])

    def send() -> None:
        size = 1 if units == 0 else max(1, round(TASK_SECONDS / max(spent / units, 1e-6)))
        size = min(size, max(1, len(queue) // (2 * threads())))
        batch = [queue.pop() for _ in range(min(size, len(queue)))]
        key = f"tesseract-{run}-{batch[0][0]}-{len(batch)}"
        flying.add(client.submit(_count_batch, fn, batch, key=key, pure=False, **(where or {})))

    try:
        for _ in range(2 * threads()):
            if queue:
                send()
        for results in flying.batches():
            for future, result in results:
                future.release()
                for unit in result:
                    spent += unit.seconds
                    units += 1
                    on_result(unit)
            after_batch()
            while queue and flying.count() < 2 * threads():
                send()
    finally:
        client.cancel([f for f in flying.futures if not f.done()])


def _run_units(
    client: Any,
    store: Store,
    run: str,
    fn: Callable[..., UnitResult],
    tasks: dict[str, tuple],
    progress: _Progress,
    on_unit: Optional[Callable[[UnitResult], None]],
) -> None:
    """Computes the units of ``tasks`` (argument tuples of ``fn`` by key) not yet in the store and writes
    each one as its task returns."""
    done = store.done(run)

    def write(unit: UnitResult) -> None:
        if unit.version != tesseract.__version__:
            raise RuntimeError(
                f"worker {unit.worker} runs tesseract {unit.version}, this client {tesseract.__version__}: "
                "install the same version everywhere"
            )
        # A unit computed twice (its worker died after finishing it) is written and reported once.
        if store.add(run, unit):
            progress.update(unit.count)
            if on_unit is not None:
                on_unit(unit)

    try:
        todo = [args for key, args in tasks.items() if key not in done]
        _dispatch(client, run, fn, todo, write, store.commit)
    finally:
        store.commit()


def _verify(
    client: Any,
    store: Store,
    run: str,
    fn: Callable[..., UnitResult],
    tasks: dict[str, tuple],
    fraction: float,
    agree: Callable[[UnitResult, UnitResult], bool],
) -> int:
    """Recounts a sample of ``fraction`` of the units (seeded by the run) on workers other than the one
    that counted each, and records the recounts (``_execute`` then refuses a run with a recount that
    disagrees). Returns the number of units in the sample."""
    keys = sorted(tasks)
    sample = random.Random(run).sample(keys, math.ceil(fraction * len(keys)))
    done = store.done(run)
    recounted = store.recounts(run)
    workers = list(client.scheduler_info()["workers"])
    # Grouped by the worker that counted them, each group sent to the others (any worker when alone).
    groups: dict[str, list[tuple]] = {}
    for key in sample:
        if key not in recounted:
            groups.setdefault(done[key].worker, []).append(tasks[key])
    for counted_by, todo in groups.items():
        # Other workers preferred; when they are gone (or there never were any) any worker recounts, and
        # the recounts table says which.
        others = [w for w in workers if w != counted_by]
        _dispatch(
            client, f"{run}-recount", fn, todo,
            lambda unit: store.add_recount(run, unit, agree(done[unit.key], unit)),
            store.commit,
            {"workers": others, "allow_other_workers": True} if others else {},
        )
    store.commit()
    return len(sample)


def _run_id(params: dict) -> str:
    return hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:16]


def _open(store: Union[str, os.PathLike, Store, None]) -> tuple[Store, bool]:
    if isinstance(store, Store):
        return store, False
    return Store(os.fspath(store) if store is not None else ":memory:"), True


@dataclass
class _Done:
    """The results of a run's units, once they are all in the store: by key, the number found there at the
    start (resumed), the number recounted, and per worker its units, seconds and counts."""

    units: dict[str, UnitResult]
    resumed: int
    recounted: int
    workers: list[tuple[str, int, float, int]]


def _execute(
    kind: str,
    params: dict,
    fn: Callable[..., UnitResult],
    tasks: dict[str, tuple],
    *,
    store: Union[str, os.PathLike, Store, None],
    client: Any,
    scheduler: Optional[str],
    workers: Optional[int],
    progress: bool,
    on_unit: Optional[Callable[[UnitResult], None]],
    what: str,
    verify: float = 0.0,
    recount: Optional[dict[str, tuple]] = None,
    agree: Callable[[UnitResult, UnitResult], bool] = lambda a, b: a == b,
    result: Optional[Callable[[dict[str, UnitResult]], dict]] = None,
) -> _Done:
    """The run of ``kind`` with ``params``: computes the units of ``tasks`` (``fn``'s arguments by key) not yet
    in the store, on the cluster the arguments name (started only when there is work), recounts a ``verify``
    fraction of them (with the arguments of ``recount``, default ``tasks``, compared by ``agree``), and with
    ``result`` marks the run finished with ``result(units)`` in the store."""
    if not 0.0 <= verify <= 1.0:
        raise ValueError(f"verify: {verify} is not a fraction from 0 to 1")
    run = _run_id(params)
    db, owned = _open(store)
    try:
        db.begin(run, kind, params)
        resumed = sum(1 for key in db.done(run) if key in tasks)
        recounted = 0
        if resumed < len(tasks) or verify > 0:
            with _cluster(client, workers, scheduler) as c:
                bar = _Progress(len(tasks), resumed, what, progress)
                try:
                    _run_units(c, db, run, fn, tasks, bar, on_unit)
                finally:
                    bar.close()
                if verify > 0:
                    recounted = _verify(c, db, run, fn, recount or tasks, verify, agree)
        done = db.done(run)
        # A disagreement recorded by an earlier session's verify still stops the run.
        wrong = sorted(k for k, (r, _) in db.recounts(run).items() if k in done and not agree(done[k], r))
        if wrong:
            raise VerificationError(
                f"{len(wrong)} recount(s) disagree with the first count, units {', '.join(wrong[:10])}: "
                f"see the tables units and recounts of {db.path}"
            )
        missing = [key for key in tasks if key not in done]
        if missing:  # pragma: no cover - _run_units returns only when every unit is in
            raise RuntimeError(f"{len(missing)} units were not counted")
        out = _Done({key: done[key] for key in tasks}, resumed, recounted, list(db.workers(run)))
        if result is not None:
            db.finish(run, result(out.units))
        return out
    finally:
        if owned:
            db.close()


# ---------------------------------------------------------------------------------------------------------
# Perft.


def _perft_params(board: "tesseract.Board", depth: int, split: int) -> dict:
    """What identifies a perft run in the store: the position, its castling mode, the depth, the split and
    the library's version (not the table size, which changes no count)."""
    return {
        "kind": "perft",
        "fen": board.fen(),
        "chess960": board.chess960_mode,
        "depth": depth,
        "split": split,
        "version": tesseract.__version__,
    }


@dataclass
class PerftResult:
    """A finished count: the leaves, the divide by first move (sorted by move text), the units, those found
    finished in the store (resumed), the units recounted, and the seconds of this call and of all units."""

    nodes: int
    divide: dict[str, int]
    units: int
    resumed: int = 0
    recounted: int = 0
    seconds: float = 0.0
    unit_seconds: float = 0.0
    workers: list[tuple[str, int, float, int]] = field(default_factory=list)


def perft(
    position: Union[str, "tesseract.Board"],
    depth: int,
    *,
    split: int = 2,
    store: Union[str, os.PathLike, Store, None] = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    verify: float = 0.0,
    hash_mb: int = 0,
    progress: bool = False,
    on_unit: Optional[Callable[[UnitResult], None]] = None,
) -> PerftResult:
    """Perft ``depth`` of ``position`` (a start name, a FEN/TFEN or a board) in units of the positions
    after ``split`` plies, on ``client``, the scheduler at ``scheduler``, or a LocalCluster of ``workers``
    processes; each unit written to ``store`` (a path, or a ``Store``; None: in memory) as it finishes, and
    a run found there resumed. ``verify``: the fraction of units recounted (unhashed) on other workers.
    ``hash_mb``: each unit's own table (0: none). ``on_unit`` is called with each unit as it is written."""
    board = _board(position)
    if depth == 0:
        return PerftResult(nodes=1, divide={}, units=0)
    units = perft_units(board, depth, split)
    params = _perft_params(board, depth, split)
    tasks = {u.key: (u.key, u.fen, u.chess960, u.depth, hash_mb) for u in units}
    recount = {u.key: (u.key, u.fen, u.chess960, u.depth, 0) for u in units}
    begin = time.monotonic()

    def divide_of(done: dict[str, UnitResult]) -> dict[str, int]:
        divide: dict[str, int] = {}
        for u in units:
            for first, paths in u.paths.items():
                divide[first] = divide.get(first, 0) + paths * done[u.key].count
        return dict(sorted(divide.items()))

    run = _execute(
        "perft", params, count_unit, tasks, store=store, client=client, scheduler=scheduler, workers=workers,
        progress=progress, on_unit=on_unit, what="leaves", verify=verify, recount=recount,
        agree=lambda a, b: a.count == b.count,
        result=lambda done: {"nodes": sum(divide_of(done).values()), "divide": divide_of(done)},
    )
    divide = divide_of(run.units)
    return PerftResult(
        nodes=sum(divide.values()),
        divide=divide,
        units=len(units),
        resumed=run.resumed,
        recounted=run.recounted,
        seconds=time.monotonic() - begin,
        unit_seconds=sum(r.seconds for r in run.units.values()),
        workers=run.workers,
    )


@dataclass
class PerftEstimate:
    """What a count would take, from a seeded sample of its units: the units, the move sequences to the
    split (perft(split)), the sampled units' results, perft(depth) estimated with its standard error, the
    sampled units' leaves a second on one core, and the core-hours of all units with their standard error."""

    units: int
    paths: int
    sampled: list[UnitResult]
    nodes: float
    nodes_error: float
    leaves_per_second: float
    core_hours: float
    core_hours_error: float


def _mean_and_error(values: list[float], population: int) -> tuple[float, float]:
    """The sample mean, and its standard error for a simple random sample without replacement."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n * (1 - n / population))


def estimate(
    position: Union[str, "tesseract.Board"],
    depth: int,
    *,
    split: int = 2,
    sample: int = 16,
    seed: int = 0,
    store: Union[str, os.PathLike, Store, None] = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    hash_mb: int = 0,
    progress: bool = False,
) -> PerftEstimate:
    """Counts ``sample`` units of perft ``depth`` drawn at random (seeded by ``seed``) and estimates the
    whole count and its cost: units are a simple random sample, so ``units * mean(paths * count)`` is an
    unbiased estimate of perft(depth), and ``units * mean(seconds)`` of its core-seconds. The sampled units
    are kept in ``store`` as a run of their own (by table size: the timings depend on it), so the same
    estimate is answered from the store."""
    board = _board(position)
    units = perft_units(board, depth, split)
    if not 1 <= sample <= len(units):
        raise ValueError(f"sample: {sample} is out of range (1 to {len(units)} units)")
    # A run of its own (the timings depend on the table), not the perft run's.
    params = dict(_perft_params(board, depth, split), kind="estimate", hash_mb=hash_mb)
    chosen = random.Random(seed).sample(units, sample)
    tasks = {u.key: (u.key, u.fen, u.chess960, u.depth, hash_mb) for u in chosen}
    done = _execute(
        "estimate", params, count_unit, tasks, store=store, client=client, scheduler=scheduler, workers=workers,
        progress=progress, on_unit=None, what="leaves",
    ).units
    results = [done[u.key] for u in chosen]
    weighted = [float(sum(u.paths.values()) * r.count) for u, r in zip(chosen, results)]
    nodes, nodes_error = _mean_and_error(weighted, len(units))
    seconds, seconds_error = _mean_and_error([r.seconds for r in results], len(units))
    return PerftEstimate(
        units=len(units),
        paths=sum(sum(u.paths.values()) for u in units),
        sampled=results,
        nodes=nodes * len(units),
        nodes_error=nodes_error * len(units),
        leaves_per_second=sum(r.count for r in results) / max(sum(r.seconds for r in results), 1e-9),
        core_hours=seconds * len(units) / 3600,
        core_hours_error=seconds_error * len(units) / 3600,
    )


# ---------------------------------------------------------------------------------------------------------
# Playouts.


def _rust_float(x: float) -> str:
    """A float as Rust's Display writes it (the experiment example's CSV): the shortest text that reads
    back to it, without a trailing ``.0``."""
    text = repr(x)
    return text[:-2] if text.endswith(".0") else text


@dataclass
class PlayoutResult:
    """A finished study: every game's row (the experiment example's CSV columns), by start then game."""

    starts: list[str]
    rows: list[dict[str, Any]]
    units: int
    resumed: int = 0
    recounted: int = 0
    seconds: float = 0.0
    unit_seconds: float = 0.0
    workers: list[tuple[str, int, float, int]] = field(default_factory=list)

    def table(self) -> str:
        """The summary table of the experiment example, line for line: per start the games, the mean plies,
        the mean branching (pooled), the results, and the share of each reason."""
        width = max([5] + [len(s) for s in self.starts])
        column = [max(len(r), 11) for r in REASONS]
        header = f"{'start':<{width}} {'games':>7} {'plies':>10} {'branching':>9} {'white':>6} {'draw':>6} {'black':>6}"
        header += "".join(f" {r:>{w}}" for r, w in zip(REASONS, column))
        lines = [header]
        for name in self.starts:
            games = [r for r in self.rows if r["start"] == name]
            n = float(len(games))
            plies = sum(g["plies"] for g in games)
            moves = 0.0
            for g in games:
                moves += g["mean_branching"] * float(g["plies"])
            branching = 0.0 if plies == 0 else moves / float(plies)
            results = {r: sum(1 for g in games if g["result"] == r) for r in ("white", "draw", "black")}
            line = (
                f"{name:<{width}} {len(games):>7} {plies / n:>10.1f} {branching:>9.1f} {results['white']:>6} "
                f"{results['draw']:>6} {results['black']:>6}"
            )
            for reason, w in zip(REASONS, column):
                share = 100.0 * float(sum(1 for g in games if g["reason"] == reason)) / n
                line += f" {share:>{w - 1}.1f}%"
            lines.append(line)
        return "\n".join(lines)

    def csv(self) -> str:
        """The rows as the experiment example's ``--csv`` writes them."""
        out = [",".join(CSV_COLUMNS)]
        for row in self.rows:
            out.append(
                ",".join(_rust_float(row[c]) if c == "mean_branching" else str(row[c]) for c in CSV_COLUMNS)
            )
        return "\n".join(out) + "\n"


def playouts(
    starts: Sequence[str] = ("light", "standard", "dense"),
    *,
    games: int = 100,
    white: str = "random",
    black: str = "random",
    seed: int = 1,
    first_game: int = 0,
    max_plies: int = 10_000,
    unit_games: int = UNIT_GAMES,
    store: Union[str, os.PathLike, Store, None] = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    verify: float = 0.0,
    progress: bool = False,
    on_unit: Optional[Callable[[UnitResult], None]] = None,
) -> PlayoutResult:
    """Games ``first_game`` to ``first_game + games - 1`` from each start, as ``experiment --games GAMES
    --armies STARTS --white WHITE --black BLACK --seed SEED --first-game FIRST --max-plies MAX`` plays them,
    in units of ``unit_games`` games; store, cluster, verify (the units played again on other workers, which
    must give the same games) and progress as for ``perft``."""
    starts = list(starts)
    if len(set(starts)) != len(starts):
        raise ValueError("starts: a start is named twice")
    if not 1 <= unit_games <= 1_000_000:
        raise ValueError(f"unit_games: {unit_games} is out of range (1 to 1000000)")
    if not starts:
        raise ValueError("starts: none named")
    if not 1 <= games <= 1_000_000:
        raise ValueError(f"games: {games} is out of range (1 to 1000000)")
    # The starts, players and ranges checked here (ValueError), rather than in every worker: one ply each.
    for name in starts:
        tesseract.playouts(name, white=white, black=black, seed=seed, first_game=first_game, max_plies=1)
    if not 1 <= max_plies <= 1_000_000:
        raise ValueError(f"max_plies: {max_plies} is out of range (1 to 1000000)")
    params = {
        "kind": "playouts",
        "starts": starts,
        "games": games,
        "white": white,
        "black": black,
        "seed": seed,
        "first_game": first_game,
        "max_plies": max_plies,
        "unit_games": unit_games,
        "version": tesseract.__version__,
    }
    tasks: dict[str, tuple] = {}
    for name in starts:
        for a in range(first_game, first_game + games, unit_games):
            n = min(unit_games, first_game + games - a)
            key = f"{name}:{a}+{n}"
            tasks[key] = (key, name, white, black, seed, a, n, max_plies)
    begin = time.monotonic()
    run = _execute(
        "playouts", params, play_unit, tasks, store=store, client=client, scheduler=scheduler, workers=workers,
        progress=progress, on_unit=on_unit, what="games", verify=verify, agree=lambda a, b: a.data == b.data,
        result=lambda done: {"games": sum(r.count for r in done.values())},
    )
    return PlayoutResult(
        starts=starts,
        rows=[row for key in tasks for row in json.loads(run.units[key].data or "[]")],
        units=len(tasks),
        resumed=run.resumed,
        recounted=run.recounted,
        seconds=time.monotonic() - begin,
        unit_seconds=sum(r.seconds for r in run.units.values()),
        workers=run.workers,
    )
