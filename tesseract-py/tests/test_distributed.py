"""tesseract.distributed on real Dask clusters (LocalCluster, worker processes on loopback): perft and
divide through units equal the single-machine counts on 1 and 2 workers; the standard 4D start's perft(4)
(2,720,713,816, RULES.md §3) survives a killed worker and a killed client (resumed from the store, no unit
counted twice); recounts run on other workers and a tampered store is refused; the playouts are the games and
table of the experiment example for the same seeds."""

import os
import pathlib
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import tesseract

distributed = pytest.importorskip("distributed")
from distributed import Client, LocalCluster  # noqa: E402

from tesseract import distributed as td  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
STANDARD_PERFT4 = 2_720_713_816


@pytest.fixture(scope="module")
def two_workers():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            yield client


def test_units_merge_transpositions_by_hash():
    units = td.perft_units("classic", 4, 3)
    paths = sum(sum(u.paths.values()) for u in units)
    assert paths == 8_902  # perft(3) of chess: every move sequence is in exactly one unit
    assert len(units) < paths  # transpositions were merged (1. Nf3 e5 2. Nc3 and 1. Nc3 e5 2. Nf3)
    assert all(u.depth == 1 and len(u.key) == 16 for u in units)
    assert sum(len(u.paths) > 1 for u in units) > 0  # some are reached from two first moves
    with pytest.raises(ValueError, match="split"):
        td.perft_units("raumschach", 3, 4)
    with pytest.raises(ValueError, match="split"):
        td.perft_units("raumschach", 3, 0)


def test_perft_and_divide_equal_the_single_machine_count(two_workers, tmp_path):
    board = tesseract.Board.from_start("raumschach")
    expected = board.divide(4)
    result = td.perft("raumschach", 4, split=2, client=two_workers, store=tmp_path / "s.sqlite")
    assert result.nodes == sum(expected.values()) == board.perft(4)
    assert result.divide == dict(sorted(expected.items()))
    assert len({w for w, *_ in result.workers}) == 2  # both workers counted
    # Chess from a FEN, and Chess960 (castling as king takes rook).
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert td.perft(kiwipete, 3, split=1, client=two_workers).nodes == 97_862
    c960 = tesseract.Board.chess960(0)
    assert td.perft(c960, 3, split=2, client=two_workers).divide == dict(sorted(c960.divide(3).items()))


def test_one_worker_gives_the_same_figures(two_workers):
    two = td.perft("raumschach", 4, split=2, client=two_workers)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            one = td.perft("raumschach", 4, split=2, client=client)
            # Recounts with no other worker: on the same one, said so in the store.
            checked = td.perft("raumschach", 3, split=1, client=client, verify=0.2)
    assert (one.nodes, one.divide) == (two.nodes, two.divide)
    assert len(one.workers) == 1
    assert checked.recounted == 14 and checked.nodes == 298_923


def _store_units(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM units").fetchone()


@pytest.fixture
def deadline():
    """Fails the test, rather than hanging CI, when it lasts more than 5 minutes (about 12 s here)."""

    def expired(*_):
        raise TimeoutError("the test ran for more than 300 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(300)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_standard_perft4_resumes_a_killed_client_and_survives_a_killed_worker(tmp_path, deadline):
    """The CI run of the issue: the client (with its cluster) is killed after 30 units; the run resumes
    from the store on a LocalCluster of 2 worker processes, one of which is killed mid-run."""
    store = tmp_path / "perft4.sqlite"
    command = [sys.executable, "-m", "tesseract.distributed", "perft", "--start", "standard", "--depth", "4",
               "--split", "1", "--store", str(store), "--workers", "2", "--quiet"]
    child = subprocess.Popen(command, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.2)
            if store.exists():
                try:
                    if _store_units(store)[0] >= 30:
                        break
                except sqlite3.OperationalError:  # the child is creating the tables
                    pass
        assert child.poll() is None, child.communicate()
    finally:
        os.killpg(child.pid, signal.SIGKILL)  # the client and its whole cluster, as a lost job would be
        child.wait()
    before = _store_units(store)[0]
    assert 30 <= before < 226

    killed, seen = [], []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            def kill_one(unit):
                seen.append(unit.key)
                if len(killed) == 0 and unit.worker != "local":
                    pids = client.run(os.getpid)
                    victim = next(w for w in pids if w != unit.worker)
                    os.kill(pids[victim], signal.SIGKILL)
                    killed.append(victim)

            result = td.perft("standard", 4, split=1, client=client, store=store, on_unit=kill_one)
    assert killed
    assert result.nodes == STANDARD_PERFT4
    assert result.resumed == before
    assert sum(result.divide.values()) == STANDARD_PERFT4 and len(result.divide) == 226
    # Every unit written once: the units the client had written were not counted again, and a unit the
    # killed worker had finished (then computed again elsewhere) was reported once.
    assert len(seen) == len(set(seen)) == 226 - before
    assert _store_units(store) == (226, 226)


def test_verify_recounts_on_other_workers_and_refuses_a_wrong_count(two_workers, tmp_path):
    store = tmp_path / "v.sqlite"
    result = td.perft("raumschach", 3, split=1, client=two_workers, store=store, verify=0.5)
    assert result.recounted == 33  # half of the 66 units, rounded up
    with sqlite3.connect(store) as db:
        rows = db.execute(
            "SELECT u.worker, r.worker, u.count, r.count, r.agrees FROM units u JOIN recounts r USING (run, key)"
        ).fetchall()
        assert len(rows) == 33 and all(a != b and c == d and ok for a, b, c, d, ok in rows)
        db.execute("UPDATE units SET count = count + 1 WHERE key = (SELECT MIN(key) FROM units)")
    with pytest.raises(td.VerificationError, match="disagree"):
        td.perft("raumschach", 3, split=1, client=two_workers, store=store, verify=1.0)
    # The disagreement stays recorded: the run does not finish without a new verify either.
    with pytest.raises(td.VerificationError, match="disagree"):
        td.perft("raumschach", 3, split=1, client=two_workers, store=store)


def _experiment():
    """The experiment example's binary (built by scripts/test.sh's optimised pass), or cargo builds it."""
    for profile in ("ci", "release"):
        path = ROOT / "target" / profile / "examples" / "experiment"
        if path.exists():
            return [str(path)]
    if shutil.which("cargo") is None:
        pytest.skip("no experiment binary and no cargo")
    return ["cargo", "run", "--quiet", "--manifest-path", str(ROOT / "Cargo.toml"), "--profile", "ci",
            "--features", "search", "--example", "experiment", "--"]


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "12", "--armies", "raumschach,classic", "--seed", "5"],
        ["--games", "3", "--armies", "classic", "--white", "nodes=300", "--seed", "2", "--first-game", "7"],
    ],
)
def test_playouts_are_the_games_and_table_of_experiment(two_workers, tmp_path, args):
    csv = tmp_path / "experiment.csv"
    run = subprocess.run(_experiment() + args + ["--csv", str(csv)], capture_output=True, text=True, check=True)
    opts = dict(zip(args[::2], args[1::2]))
    result = td.playouts(
        opts["--armies"].split(","),
        games=int(opts["--games"]),
        white=opts.get("--white", "random"),
        seed=int(opts["--seed"]),
        first_game=int(opts.get("--first-game", 0)),
        unit_games=5,
        client=two_workers,
    )
    assert result.csv() == csv.read_text()
    lines = run.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("start "))
    assert result.table().splitlines() == lines[header : header + len(result.starts) + 1]


def test_playouts_resume_from_the_store(two_workers, tmp_path):
    store = tmp_path / "p.sqlite"
    first = td.playouts(["raumschach"], games=20, seed=3, unit_games=4, client=two_workers, store=store)
    again = td.playouts(["raumschach"], games=20, seed=3, unit_games=4, client=two_workers, store=store, verify=0.4)
    assert (first.units, first.resumed, again.resumed, again.recounted) == (5, 0, 5, 2)
    assert again.rows == first.rows and len(first.rows) == 20


def test_command_line(tmp_path):
    store = str(tmp_path / "cli.sqlite")
    base = [sys.executable, "-m", "tesseract.distributed"]
    out = subprocess.run(
        base + ["perft", "--start", "raumschach", "--depth", "3", "--split", "2", "--divide", "--workers", "1",
                "--store", store, "--quiet"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    assert out[-1] == "nodes 298923"
    divide = tesseract.Board.from_start("raumschach").divide(3)
    assert out[:-2] == [f"{m} {n}" for m, n in sorted(divide.items())]
    # Resumed whole from the store: no cluster needed, the same lines.
    again = subprocess.run(
        base + ["perft", "--start", "raumschach", "--depth", "3", "--split", "2", "--divide", "--store", store, "--quiet"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    units = len(td.perft_units("raumschach", 3, 2))
    assert again[:-2] == out[:-2] and again[-1] == out[-1] and f"units {units} ({units} from the store" in again[-2]
    csv = tmp_path / "games.csv"
    out = subprocess.run(
        base + ["playouts", "--games", "4", "--armies", "raumschach", "--seed", "9", "--workers", "1", "--store", store,
                "--csv", str(csv), "--quiet"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    assert out[-1] == "games 4" and out[-2].startswith("time ") and out[0].startswith("start ")
    rows = csv.read_text().splitlines()
    assert rows[0].startswith("start,game,seed,") and [r.split(",")[1] for r in rows[1:]] == ["0", "1", "2", "3"]
    # A reader that stops after one line: no traceback.
    head = subprocess.run(
        " ".join(base + ["perft", "--start", "raumschach", "--depth", "3", "--split", "2", "--divide", "--store", store,
                         "--quiet"]) + " | head -1",
        shell=True, capture_output=True, text=True,
    )
    assert len(head.stdout.splitlines()) == 1 and "Traceback" not in head.stderr, head.stderr
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database" * 100)
    for store_arg in (str(tmp_path / "no" / "such.sqlite"), str(tmp_path), str(garbage)):
        run = subprocess.run(base + ["perft", "--start", "classic", "--depth", "1", "--store", store_arg],
                             capture_output=True, text=True)
        assert run.returncode == 2 and "--store" in run.stderr and "Traceback" not in run.stderr, run.stderr
    for bad in (["playouts", "--csv", str(tmp_path / "no" / "such.csv")], ["playouts", "--csv", str(tmp_path)],
                ["perft", "--start", "nowhere", "--depth", "3"], ["perft", "--start", "classic", "--depth", "3", "--split", "4"],
                ["perft", "--fen", "not a fen", "--depth", "2"], ["perft", "--start", "classic", "--depth", "2", "--verify", "2"],
                ["playouts", "--white", "grandmaster"], ["playouts", "--armies", "light,light"]):
        run = subprocess.run(base + bad + ["--store", store], capture_output=True, text=True)
        assert run.returncode == 2 and "error" in run.stderr and "Traceback" not in run.stderr, (bad, run.stderr)


def test_estimate_from_a_sample_of_units(two_workers, tmp_path):
    store = tmp_path / "e.sqlite"
    exact = 21_077_252  # perft(4) of the 3D start
    guess = td.estimate("raumschach", 4, split=1, sample=20, seed=3, client=two_workers, store=store)
    assert (guess.units, guess.paths, len(guess.sampled)) == (66, 66, 20)
    assert guess.nodes_error > 0 and abs(guess.nodes - exact) < 4 * guess.nodes_error
    assert guess.leaves_per_second > 0 and guess.core_hours > 0
    # Every unit sampled: the exact count, no error; asked again, the store answers (the same timings).
    whole = td.estimate("raumschach", 4, split=1, sample=66, client=two_workers, store=store)
    assert round(whole.nodes) == exact and whole.nodes_error == 0
    again = td.estimate("raumschach", 4, split=1, sample=66, client=two_workers, store=store)
    assert again.sampled == whole.sampled
