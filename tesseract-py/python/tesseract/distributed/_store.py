"""The result store of a distributed run: one SQLite file, written only by the client.

Tables:

- ``runs``: one row a run (its id, kind, parameters as JSON, when it began and finished, its result);
- ``units``: one row a finished unit (the run, the unit's key, its count, the seconds it took, the worker
  that counted it, the library version, and for playouts the games as JSON);
- ``recounts``: the units counted again by ``verify``, with whether the recount agreed.

A unit's row is written once (its key is the primary key): a unit finished twice, because a worker died
after finishing it or because a resumed run sent it again, keeps its first result, so a run never counts a
unit twice. Rows are committed in small batches (every half second), so a client killed at any point loses
at most the results of its last half second, which the resumed run counts again.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any, Iterable, Optional

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS units (
    run TEXT NOT NULL,
    key TEXT NOT NULL,
    count INTEGER NOT NULL,
    seconds REAL NOT NULL,
    worker TEXT NOT NULL,
    version TEXT NOT NULL,
    data TEXT,
    PRIMARY KEY (run, key)
);
CREATE TABLE IF NOT EXISTS recounts (
    run TEXT NOT NULL,
    key TEXT NOT NULL,
    count INTEGER NOT NULL,
    seconds REAL NOT NULL,
    worker TEXT NOT NULL,
    version TEXT NOT NULL,
    data TEXT,
    agrees INTEGER NOT NULL,
    PRIMARY KEY (run, key)
);
"""

# How long finished units wait in memory before they are committed.
_COMMIT_EVERY = 0.5


@dataclass(frozen=True)
class UnitResult:
    """What a worker reports for one unit: its count, the seconds it took, the worker, the library version,
    and for playouts the games (a JSON text)."""

    key: str
    count: int
    seconds: float
    worker: str
    version: str
    data: Optional[str] = None


class Store:
    """An SQLite result store (``path``; ``":memory:"`` keeps nothing after the run)."""

    def __init__(self, path: str = ":memory:") -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path)
        self._db.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "PRAGMA journal_mode=MEMORY")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._db.commit()
        self._last_commit = time.monotonic()

    def close(self) -> None:
        """Commits what is pending and closes the file."""
        self._db.commit()
        self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    # Runs.

    def begin(self, run: str, kind: str, params: dict) -> Optional[dict]:
        """Registers run ``run`` (or finds it again, to resume it); returns its result if it finished."""
        row = self._db.execute("SELECT finished, result FROM runs WHERE id = ?", (run,)).fetchone()
        if row is None:
            self._db.execute(
                "INSERT INTO runs (id, kind, params, started) VALUES (?, ?, ?, ?)",
                (run, kind, json.dumps(params, sort_keys=True), time.time()),
            )
            self._db.commit()
            return None
        return json.loads(row[1]) if row[0] is not None else None

    def finish(self, run: str, result: dict) -> None:
        """Marks the run finished with its result."""
        self._db.execute(
            "UPDATE runs SET finished = ?, result = ? WHERE id = ?",
            (time.time(), json.dumps(result, sort_keys=True), run),
        )
        self._db.commit()

    # Units.

    def done(self, run: str) -> dict[str, UnitResult]:
        """The units of ``run`` finished so far, by key."""
        rows = self._db.execute(
            "SELECT key, count, seconds, worker, version, data FROM units WHERE run = ?", (run,)
        )
        return {r[0]: UnitResult(*r) for r in rows}

    def add(self, run: str, unit: UnitResult) -> bool:
        """Writes a finished unit unless it is there already; True when it was new."""
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO units (run, key, count, seconds, worker, version, data) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (run, unit.key, unit.count, unit.seconds, unit.worker, unit.version, unit.data),
        )
        self._maybe_commit()
        return cursor.rowcount == 1

    def recounts(self, run: str) -> dict[str, tuple[UnitResult, bool]]:
        """The recounts of ``run`` so far, by key, with whether each agreed."""
        rows = self._db.execute(
            "SELECT key, count, seconds, worker, version, data, agrees FROM recounts WHERE run = ?", (run,)
        )
        return {r[0]: (UnitResult(*r[:6]), bool(r[6])) for r in rows}

    def add_recount(self, run: str, unit: UnitResult, agrees: bool) -> None:
        """Writes a recount (the first one of a unit stays)."""
        self._db.execute(
            "INSERT OR IGNORE INTO recounts (run, key, count, seconds, worker, version, data, agrees) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (run, unit.key, unit.count, unit.seconds, unit.worker, unit.version, unit.data, int(agrees)),
        )
        self._maybe_commit()

    def commit(self) -> None:
        """Commits what is pending now."""
        self._db.commit()
        self._last_commit = time.monotonic()

    def _maybe_commit(self) -> None:
        if time.monotonic() - self._last_commit >= _COMMIT_EVERY:
            self.commit()

    def workers(self, run: str) -> Iterable[tuple[str, int, float, int]]:
        """Per worker of ``run``: its name, the units it finished, their seconds, their counts."""
        return self._db.execute(
            "SELECT worker, COUNT(*), SUM(seconds), SUM(count) FROM units WHERE run = ? GROUP BY worker "
            "ORDER BY worker",
            (run,),
        ).fetchall()
