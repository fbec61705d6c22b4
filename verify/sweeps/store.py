"""The results store: every computed result in an SQLite database, one transaction per result.

A result is keyed by what determines it: the kind of computation, the full network spec, the
method, the field, the seed, any further parameters and the package version.  A sweep looks a
task up before computing it and writes each result as soon as it arrives, so a repeated sweep
reuses everything and an interrupted one loses nothing already computed.

The default database is ``$VERIFY_STORE`` if set, else ``verify/results.sqlite`` under the user's
cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model.spec import NetworkSpec
from ..version import __version__
from .store_checks import (
    COMPANIONS,
    FULL_DISK_BYTES,
    identify,
    is_disk_full,
    is_read_only,
    read_only_uri,
    refuse_read_only,
    shows_damage,
)

__all__ = ["Task", "Store", "default_store_path", "identify", "refuse_read_only", "FULL_DISK_BYTES"]


_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    spec TEXT NOT NULL,
    method TEXT NOT NULL,
    field TEXT NOT NULL,
    seed INTEGER NOT NULL,
    params TEXT NOT NULL,
    version TEXT NOT NULL,
    value TEXT NOT NULL,
    seconds REAL NOT NULL,
    created TEXT NOT NULL
)
"""


def default_store_path(environ: dict[str, str] | os._Environ[str] | None = None) -> Path:
    """``$VERIFY_STORE``, else ``verify/results.sqlite`` in ``$XDG_CACHE_HOME`` or ``~/.cache`` (a
    relative ``XDG_CACHE_HOME`` is ignored, as the XDG base-directory specification says, so the
    store does not move with the working directory).  ``environ`` (default ``os.environ``): the
    environment to read, e.g. the pytest plugin's copy from before any conftest changed it."""
    environ = os.environ if environ is None else environ
    if environ.get("VERIFY_STORE"):
        return Path(environ["VERIFY_STORE"])
    from ..files import cache_home

    return cache_home(environ) / "results.sqlite"


@dataclass(frozen=True)
class Task:
    """One independent computation of a sweep.

    ``kind`` names the function that computes it (see ``sweep.compute``); ``params`` holds every
    further input that changes the value, as sorted (name, value) pairs; ``limits`` holds inputs that
    only decide whether the work is attempted (the memory limit), so they are not part of the key.
    """

    kind: str
    spec: NetworkSpec
    method: str
    field: str
    seed: int = 0
    params: tuple[tuple[str, Any], ...] = field(default_factory=tuple)
    limits: tuple[tuple[str, Any], ...] = field(default_factory=tuple, compare=False)

    def key(self) -> str:
        return json.dumps({"kind": self.kind, "spec": self.spec.as_dict(), "method": self.method,
                           "field": self.field, "seed": self.seed, "params": dict[str, Any](self.params),
                           "version": __version__}, sort_keys=True)


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def value_problem(value: object) -> str | None:
    """What makes a stored result impossible, so that it cannot have come from a run, or None: not a
    JSON object, a rank that is not a non-negative integer, or a rank above the row's own ``rows``,
    ``cols``, ``compressed_to`` or proven ``upper_bound`` (a rank is at most each of them)."""
    if not isinstance(value, dict):
        return "not a JSON object"
    if "rank" not in value or value["rank"] is None:
        return None  # e.g. a sep row over several partitions with different ranks
    if not _count(value["rank"]):
        return f"rank {value['rank']!r} is not a non-negative integer"
    for name in ("rows", "cols", "compressed_to", "upper_bound"):
        limit = value.get(name)
        if limit is None:
            continue
        if not _count(limit):
            return f"{name} {limit!r} is not a non-negative integer"
        if value["rank"] > limit:
            return f"rank {value['rank']} above its {name} {limit}"
    return None


def _row_problem(row: dict[str, Any]) -> str | None:
    """What makes a listed row impossible: a spec or params that are not JSON objects, or its value's problem."""
    for name in ("spec", "params"):
        if not isinstance(row[name], dict):
            return f"its {name} is not a JSON object"
    return value_problem(row["value"])


class Store:
    """An SQLite file of results; ``Store(None)`` keeps nothing (every lookup misses).

    ``read_only=True`` opens an existing store for reading only (``verify results``), so a store
    the user cannot write is still listed; a writable open of a store that cannot be written is
    refused up front as read-only (never called damaged).  ``create=False`` (a dry run) reads an
    existing store, read-only, and creates nothing.  A path that is not a store of ours (a folder,
    another application's database) is refused before anything is opened (``identify``).
    """

    path: Path | None

    def __init__(self, path: str | Path | None, read_only: bool = False, create: bool = True) -> None:
        self.path = None if path is None else Path(path)
        self._conn = None
        if self.path is None:
            return
        identify(self.path)
        if not create and (not self.path.exists() or self.path.stat().st_size == 0):  # a dry run: nothing to read,
            return  # and nothing is created
            return
        if read_only or not create:
            self._open_read_only()
            return
        self._refuse_read_only()
        files = [self.path] + [Path(f"{self.path}{tail}") for tail in COMPANIONS]
        new = [f for f in files if not f.exists()]  # what a failed open must not leave behind
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=60)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(_SCHEMA)
            self._conn.commit()
        except (OSError, sqlite3.DatabaseError) as exc:
            self.close()
            if self.path in new:  # a store this call was making: none of its files stays half-made
                for made in new:
                    try:
                        made.unlink()
                    except OSError:
                        pass
            if is_read_only(exc):
                raise self._fault(exc) from None
            if is_disk_full(exc, self.path.parent):
                raise self._fault(exc) from None
            raise InputError(f"cannot open the results store {self.path}: {exc}; "
                             f"choose another file with --store PATH") from None

    def _refuse_read_only(self) -> None:
        refuse_read_only(self.path)

    def _open_read_only(self) -> None:
        """Open for reading only, writing nothing.  A store in WAL mode whose folder cannot be written (a
        shared or mounted results folder) cannot get the -shm file ``mode=ro`` needs: with no -wal file
        beside it (nothing uncommitted to read) it is read ``immutable``; with one, it is refused as
        unreadable there, never called damaged."""
        try:
            self._connect(read_only_uri(self.path))
            return
        except sqlite3.DatabaseError as exc:
            first = exc
        wal = Path(f"{self.path}-wal")
        if shows_damage(first) or (wal.exists() and wal.stat().st_size > 0):
            raise self._fault(first) from None
        try:
            self._connect(read_only_uri(self.path, immutable=True))
        except sqlite3.DatabaseError as exc:
            raise self._fault(exc) from None

    def _connect(self, uri: str) -> None:
        try:
            self._conn = sqlite3.connect(uri, uri=True, timeout=60)
            self._conn.execute("SELECT COUNT(*) FROM results").fetchone()
        except sqlite3.DatabaseError:
            self.close()
            raise

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _fault(self, exc: Exception) -> InputError:
        """A read-only store is said to be read-only, a full disk full; anything else SQLite refuses is damage."""
        if is_disk_full(exc, self.path.parent):
            return InputError(f"the disk holding the results store {self.path} is full ({exc}); free some space, or "
                              f"pass --store PATH on another disk (or --no-store); nothing half-made was left there")
        if is_read_only(exc):
            return InputError(f"the results store {self.path} is read-only ({exc}); make it writable, pass another "
                              f"--store PATH, or use --no-store")
        if shows_damage(exc):  # only a file shown to be damaged is called so, and only then is deleting advised
            return InputError(f"the results store {self.path} is damaged ({exc}); delete or move it, pass another "
                              f"--store PATH, or use --no-store")
        wal = Path(f"{self.path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            return InputError(f"cannot read the results store {self.path} ({exc}): its write-ahead log {wal.name} "
                              f"needs a -shm file SQLite cannot make in that folder; make the folder writable, or "
                              f"copy the store with its {wal.name} to a writable folder and pass --store there")
        return InputError(f"cannot use the results store {self.path} ({exc}); check the file's and its folder's "
                          f"permissions and the disk, pass another --store PATH, or use --no-store")

    _damaged = _fault

    def get(self, task: Task) -> dict[str, Any] | None:
        if self._conn is None:
            return None
        try:
            row = self._conn.execute("SELECT value FROM results WHERE key = ?", (task.key(),)).fetchone()
            value = None if row is None else json.loads(row[0])
        except (sqlite3.DatabaseError, ValueError) as exc:
            raise self._damaged(exc) from None
        problem = None if value is None else value_problem(value)
        if problem:
            raise self._damaged(ValueError(f"a {task.kind} row: {problem}"))
        return value

    def put(self, task: Task, value: dict[str, Any], seconds: float) -> None:
        """Write one result in its own transaction (committed before this returns)."""
        if self._conn is None:
            return
        try:
            self._put(task, value, seconds)
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from None

    def _put(self, task: Task, value: dict[str, Any], seconds: float) -> None:
        with self._conn:
            self._conn.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (task.key(), task.kind, json.dumps(task.spec.as_dict(), sort_keys=True), task.method, task.field,
                 task.seed, json.dumps(dict(task.params), sort_keys=True), __version__,
                 json.dumps(value, sort_keys=True), seconds, time.strftime("%Y-%m-%dT%H:%M:%S")))

    def rows(self, kind: str | None = None) -> list[dict[str, Any]]:
        """Every stored result, oldest first, as flat dicts (spec, params and value decoded)."""
        if self._conn is None:
            return []
        query = "SELECT kind, spec, method, field, seed, params, version, value, seconds, created FROM results"
        args: tuple = ()
        if kind is not None:
            query += " WHERE kind = ?"
            args = (kind,)
        out = []
        try:
            for kind_, spec, method, field_, seed, params, version, value, seconds, created in \
                    self._conn.execute(query + " ORDER BY created, rowid", args):
                out.append({"kind": kind_, "spec": json.loads(spec), "method": method, "field": field_,
                            "seed": seed, "params": json.loads(params), "version": version,
                            "value": json.loads(value), "seconds": seconds, "created": created})
                problem = _row_problem(out[-1])
                if problem:
                    raise ValueError(f"a {kind_} row: {problem}")
        except (sqlite3.DatabaseError, ValueError) as exc:
            raise self._damaged(exc) from None
        return out

    def __len__(self) -> int:
        if self._conn is None:
            return 0
        try:
            return self._conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise self._damaged(exc) from None


def export_csv(rows: list[dict[str, Any]]) -> str:
    """Flat CSV: one line per result; spec fields, params and value fields become columns."""
    flat = []
    for row in rows:
        value = dict(row["value"])
        older = value.pop("valid_for_tokens", None)  # stored by 0.2.0 and older: ">= 6" -> 6
        if isinstance(older, str) and older.startswith(">= ") and "valid_from_tokens" not in value:
            value["valid_from_tokens"] = int(older[3:])
        row = {**row, "value": value}
        line = {"kind": row["kind"], **{f"spec.{k}": v for k, v in row["spec"].items()},
                "method": row["method"], "field": row["field"], "seed": row["seed"],
                **{k: (" ".join(map(str, row[k])) if k == "primes" and row[k] else row[k])
                   for k in ("certainty", "probability_bound", "primes") if k in row},
                **{f"param.{k}": v for k, v in row["params"].items()},
                **{f"value.{k}": (json.dumps(v) if isinstance(v, (dict, list)) else v)
                   for k, v in row["value"].items()},
                "version": row["version"], "seconds": round(row["seconds"], 3), "created": row["created"]}
        flat.append(line)
    columns: list[str] = []
    for line in flat:
        columns.extend(c for c in line if c not in columns)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(flat)
    return buf.getvalue()
