"""Shared helpers for tests that point the command line at special files (issue 21): a FIFO with a
reader, a private character device, a read-only file that stays read-only even for root."""

import os
import select
import stat
import subprocess
import threading


class FifoReader(threading.Thread):
    """Reads a FIFO until told the writer is done; opened read-write so that it is a reader at once
    (a writer's non-blocking open then finds it), and never sees an early end of file."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.fd = os.open(path, os.O_RDWR)
        self.data, self.done = bytearray(), threading.Event()
        self.start()

    def run(self):
        while True:
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                self.data += os.read(self.fd, 1 << 16)
            elif self.done.is_set():
                return

    def finish(self) -> bytes:
        self.done.set()
        self.join(10)
        os.close(self.fd)
        return bytes(self.data)


def null_device(folder) -> str:
    """A character device like /dev/null to write to. As root, a private one made with mknod in
    ``folder``: a buggy writer that replaced its output would otherwise replace the system's
    /dev/null. Not root, /dev/null itself (which cannot then be replaced)."""
    if os.geteuid() != 0:
        return "/dev/null"
    path = os.path.join(folder, "null")
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return path


def make_read_only(path) -> bool:
    """Make ``path`` unwritable: mode 0444, or as root (who writes through mode bits) the immutable
    attribute; False where that is not possible here. ``undo_read_only`` reverses it."""
    if os.geteuid() != 0:
        os.chmod(path, 0o444)
        return True
    return subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0


def undo_read_only(path) -> None:
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    elif os.path.exists(path):
        os.chmod(path, 0o644)


#: The results store's table as docs/store.md gives it (the recheck's tests write stores from rows by hand).
STORE_TABLE = ("CREATE TABLE results (key TEXT PRIMARY KEY, kind TEXT, spec TEXT, method TEXT, field TEXT, "
               "seed INTEGER, params TEXT, version TEXT, value TEXT, seconds REAL, created TEXT)")


def write_store(path, rows):
    """A results store at ``path`` holding ``rows`` (11 columns each, in STORE_TABLE's order); returns ``path``."""
    import sqlite3

    con = sqlite3.connect(path)
    con.execute(STORE_TABLE)
    con.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [tuple(r) for r in rows])
    con.commit()
    con.close()
    return path


def write_csv(path, rows, fields=None):
    """A CSV table at ``path`` with ``fields`` (default: the first row's keys) and ``rows`` (dicts); returns ``path``
    (the recheck's tests write slices and edits of the committed tables)."""
    import csv

    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(fields or rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path
