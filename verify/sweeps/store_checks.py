"""Checks on a results store's file before and while SQLite opens it: what a path is (``identify``), whether it
can be written (``refuse_read_only``), the read-only URI, and which SQLite failures show the file damaged, read-only
or on a full disk (``verify.sweeps.store`` words the messages)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..errors import InputError, printable

__all__ = ["identify", "refuse_read_only", "read_only_uri", "shows_damage", "is_read_only", "is_disk_full",
           "require_store", "COMPANIONS", "FULL_DISK_BYTES"]


def is_read_only(exc: Exception) -> bool:
    """SQLite's "attempt to write a readonly database" (SQLITE_READONLY) and its OS counterparts."""
    text = str(exc).lower().replace("-", "").replace(" ", "")
    return "readonly" in text or getattr(exc, "errno", None) in (13, 30)  # EACCES, EROFS


#: SQLite's primary result codes that show the file itself is damaged (SQLITE_CORRUPT, SQLITE_NOTADB); any other
#: failure (cannot open, I/O, locked, read-only) says nothing about the file's contents.
_DAMAGE_CODES = (11, 26)


def shows_damage(exc: Exception) -> bool:
    """Whether ``exc`` shows the store's contents damaged: SQLite's corrupt / not-a-database codes, or a value that
    is not what a run writes (``ValueError``: not JSON, not an object, a rank beyond its bound)."""
    if isinstance(exc, ValueError):
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _DAMAGE_CODES
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def read_only_uri(path: Path, immutable: bool = False) -> str:
    """The ``file:`` URI opening ``path`` read-only: its absolute path percent-encoded byte by byte, so a name
    holding ``?``, ``#`` or ``%`` stays a name and never becomes a URI query, fragment or escape.
    ``immutable``: SQLite reads the file as it is, with no lock and no -shm file (for a store in a folder
    no one can write, where nothing can change it; a -wal file beside it would be ignored, so the caller
    uses it only where there is none).

    >>> read_only_uri(Path("/x/a?b#c%41.sqlite"))
    'file:/x/a%3Fb%23c%2541.sqlite?mode=ro'
    """
    from urllib.parse import quote

    return f"file:{quote(os.fsencode(path.absolute()))}?mode=ro" + ("&immutable=1" if immutable else "")


#: Free space below which a failed write is put down to a full disk: SQLite reports a disk too full for its
#: -wal and -shm files as "disk I/O error", not as SQLITE_FULL.
FULL_DISK_BYTES = 1 << 20


def is_disk_full(exc: Exception, folder: Path) -> bool:
    """SQLite's "database or disk is full", ENOSPC, or any failure on a disk with under ``FULL_DISK_BYTES`` free."""
    if "disk is full" in str(exc).lower() or getattr(exc, "errno", None) == 28:  # ENOSPC
        return True
    try:
        found = os.statvfs(folder)
    except OSError:
        return False
    return found.f_bavail * found.f_frsize < FULL_DISK_BYTES


#: The files SQLite keeps beside a store in WAL mode (and the rollback journal).
COMPANIONS = ("-wal", "-shm", "-journal")


_SQLITE_MAGIC = b"SQLite format 3\x00"
_COLUMNS = ["key", "kind", "spec", "method", "field", "seed", "params", "version", "value", "seconds", "created"]


def identify(path: Path) -> None:
    """Refuse (``InputError``) a path that is there but is not a results store of ours: a folder, a
    device or FIFO, a file that is not SQLite, another application's SQLite database.  Nothing is
    written to find out (the database is opened read-only).  A missing or empty file passes."""
    import stat

    fix = "pass another --store PATH (a new file is created) or use --no-store"
    shown = printable(path)
    try:
        status = path.stat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(f"cannot use the results store {shown}: {exc.strerror}; {fix}") from None
    if stat.S_ISDIR(status.st_mode):
        raise InputError(f"--store {shown} is a folder, not a results store; give a file path, e.g. "
                         f"--store {printable(path / 'results.sqlite')}, or use --no-store")
    if not stat.S_ISREG(status.st_mode):
        raise InputError(f"--store {shown} is not a regular file (a device, FIFO or socket); {fix}")
    if status.st_size == 0:
        return
    try:
        with open(path, "rb") as file:
            head = file.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        raise InputError(f"cannot read the results store {shown}: {exc.strerror}; {fix}") from None
    if head != _SQLITE_MAGIC:
        raise InputError(f"--store {shown} is not an SQLite file (it is some other file, left untouched); {fix}")
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=60)
        try:
            tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            columns = [row[1] for row in conn.execute("PRAGMA table_info(results)")]
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return  # a damaged store of ours: opening it says so
    if tables and columns != _COLUMNS:
        listed = ", ".join(printable(t) for t in sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
        raise InputError(f"--store {shown} is another application's SQLite database (tables: {listed}), not a "
                         f"verify results store; it is left untouched: {fix}")


def refuse_read_only(path: Path) -> None:
    """Refuse (``InputError``), writing nothing, a store a writable open would fail on for want of
    permission: writing needs the file and (for SQLite's -wal and -shm files) its folder to be
    writable, and a new store needs the nearest folder that exists on its path to be writable (the
    rest is created there); otherwise SQLite says only "unable to open database file"."""
    fix = "make it writable, pass another --store PATH, or use --no-store"
    if path.exists() and not os.access(path, os.W_OK):
        raise InputError(f"the results store {printable(path)} is read-only; {fix}")
    folder = path.parent
    if path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"the results store's folder {printable(folder)} is read-only (SQLite writes its journal "
                         f"there); {fix}")
    if not path.exists():
        there = next((p for p in path.absolute().parents if p.exists()), None)
        if there is not None and there.is_dir() and not os.access(there, os.W_OK | os.X_OK):
            raise InputError(f"the results store {printable(path)} would be created in the folder "
                             f"{printable(there)}, which is read-only; {fix}")


def require_store(path: Path) -> None:
    """Refuse (``InputError``) a store path to be read that holds no store, saying which way: nothing there, a
    symbolic link to nothing, or a loop of symbolic links (``Path.exists`` says False to all three)."""
    import errno

    shown = printable(path)
    fix = "pass --store PATH naming a results store"
    try:
        os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise InputError(f"--store {shown} is a symbolic link to {printable(os.readlink(path))}, which does not "
                             f"exist; {fix}") from None
        raise InputError(f"no results store at {shown}; run a sweep first (e.g. verify table) or pass --store "
                         f"PATH") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"--store {shown} is a loop of symbolic links (each points on to the next, never to a "
                             f"file); {fix}") from None
        raise InputError(f"cannot read the results store {shown}: {exc.strerror}; {fix}") from None
