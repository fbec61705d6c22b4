"""Writing output files atomically: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import InputError

__all__ = ["write_atomic"]


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, so no reader sees half a file.

    A path that cannot be written (a folder, a missing or read-only folder, a full disk) raises
    ``InputError`` naming the path and the reason; nothing is left behind.
    """
    path = Path(path)
    if path.is_dir():
        raise InputError(f"cannot write {path}: it is a folder; give a file name")
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a report is an ordinary file
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}; choose a writable path") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
