"""Every file the toolkit writes or reads goes through here, so each respects what is already there.

Writing (``write_output``), the way ``cp`` treats its destination:

- ``-`` is stdout;
- a symlink is followed to its target, which is then written as below (the link itself stays);
- a regular file or a new path is replaced atomically: a temporary file in the same folder, then a
  rename, so no reader sees half a file and an interrupt leaves no partial file behind; a new file
  gets mode 0666 less the umask (0644 under the usual umask), an existing one keeps its mode; a
  read-only file is refused, as ``cp`` refuses it;
- a character device (``/dev/null``, a terminal) or a FIFO is streamed to, never replaced; a FIFO
  with no reader is refused with one line instead of blocking;
- anything else (a folder, a socket, a block device) is refused with one line.

Reading (``read_text``): only regular files, sized before they are read, so ``/dev/zero`` or a
huge file is refused at once instead of read until memory runs out.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .errors import InputError

__all__ = ["write_output", "write_atomic", "check_output", "probe_folder", "is_stream", "is_stdout", "distinct_outputs",
           "read_text", "STDOUT"]

#: The output path that means standard output.
STDOUT = "-"


def cache_home(environ: Mapping[str, str] | None = None) -> Path:
    """The user's cache folder for ``verify``: ``$XDG_CACHE_HOME/verify``, else ``~/.cache/verify`` (a
    relative ``XDG_CACHE_HOME`` is ignored, as the XDG base-directory specification says, so nothing
    moves with the working directory).  ``environ``: the environment to read (default ``os.environ``)."""
    xdg = (os.environ if environ is None else environ).get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache") / "verify"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "not a regular file"


def _resolve(path: str | os.PathLike[str]) -> tuple[Path, os.stat_result | None]:
    """The path writing goes to (symlinks followed, like ``cp``) and its status, None if it is new."""
    try:  # a device or FIFO is written through the name given: /dev/stdout resolves to a
        status = os.stat(path)  # /proc/PID/fd/1 -> "pipe:[...]" link that names no file
        if stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
            return Path(path), status
    except OSError:
        pass
    target = Path(os.path.realpath(path))
    try:
        return target, os.stat(target)
    except FileNotFoundError:
        return target, None
    except OSError as exc:  # a symlink loop, a path through a file, no permission
        raise InputError(f"cannot write {path}: {exc.strerror or exc}; choose a writable path") from None


def is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is ``-``, or (through symlinks) a character device or FIFO: written as a stream,
    so a file-name convention (a plot's ``.png``) does not apply to it."""
    if str(path) == STDOUT:
        return True
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def check_output(path: str | os.PathLike[str] | None, option: str) -> None:
    """Refuse, before any work, an output ``path`` that ``write_output`` could not write.

    Nothing is written or opened here (opening a FIFO's write end would end its reader's input).
    """
    if path is None or str(path) == STDOUT:
        return
    if not str(path).strip():
        raise InputError(f"{option} {str(path)!r} is an empty path; give a file name, or - for stdout")
    target, status = _resolve(path)
    shown = f"{option} {path}"
    if status is not None:
        mode = status.st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"{shown} is a folder; give a file name, e.g. {Path(path) / 'out'}")
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            if not os.access(target, os.W_OK):
                raise InputError(f"{shown}: no permission to write to this device; choose a writable path")
            return
        if not stat.S_ISREG(mode):
            raise InputError(f"{shown} is {_kind(mode)}; give a regular file, a new path, /dev/null or -")
        _refuse_read_only(target, path)
    probe_folder(target.parent, shown)


def is_stdout(path: str | os.PathLike[str] | None) -> bool:
    """Whether writing ``path`` would land in this process's stdout: ``-``, or the regular file or pipe
    stdout is (``/dev/stdout`` under a redirection). A terminal or ``/dev/null`` is a device both may
    share, so it does not count."""
    if path is None:
        return False
    if str(path) == STDOUT:
        return True
    try:
        here, there = os.fstat(sys.stdout.fileno()), os.stat(path)
    except (OSError, ValueError, AttributeError):  # stdout replaced (tests) or closed; a new path
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino) and not stat.S_ISCHR(there.st_mode)


def _identity(path: str | os.PathLike[str]) -> tuple[Any, ...]:
    """What two output paths share when they name one file: the inode of an existing file, else the
    absolute path with symlinks and ``..`` resolved."""
    resolved = os.path.realpath(path)  # as write_output resolves it: DIR/new/../x is DIR/x
    try:
        status = os.stat(resolved)
        return ("inode", status.st_dev, status.st_ino)
    except OSError:
        return ("path", resolved)


def distinct_outputs(outputs: Iterable[tuple[str, str | os.PathLike[str] | None]]) -> None:
    """Refuse, before any work, two outputs of one command that would land in one place, which would
    leave only the last one written (e.g. ``verify run --out DIR --junit DIR/report.json``).

    ``outputs``: (what, path) pairs, ``what`` naming the option (``"--junit"``, ``"--out (report.md)"``);
    a None path is no output. Stdout (``-``, or the file or pipe it is) holds at most one of them;
    devices such as ``/dev/null`` or a terminal may take several.
    """
    seen: dict[tuple[Any, ...], str] = {}
    for what, path in outputs:
        if path is None:
            continue
        if is_stdout(path):
            key = ("stdout",)
        else:
            try:
                if stat.S_ISCHR(os.stat(path).st_mode):
                    continue
            except OSError:
                pass
            key = _identity(path)
        if key in seen:
            if key == ("stdout",):
                raise InputError(f"{seen[key]} and {what} would both go to stdout, one garbling the other; write "
                                 f"one of them to a file")
            raise InputError(f"{seen[key]} and {what} name one file ({path}), so writing one would replace the "
                             f"other; give them different paths")
        seen[key] = what


def probe_folder(folder: str | os.PathLike[str], shown: str) -> None:
    """Write (then delete) a scratch file in ``folder``, creating it and its missing parents for the
    probe and removing them again (a check leaves nothing behind: the run creates them when it
    writes); refuse it, naming ``shown`` (the option and its value), if that fails."""
    folder = Path(folder)
    made = [p for p in [folder, *folder.parents] if not os.path.lexists(p)]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(dir=folder, prefix=".verify-probe.")
        os.close(fd)
        os.unlink(scratch)
    except OSError as exc:
        raise InputError(f"{shown}: cannot write in {folder} ({exc.strerror or exc}); choose a writable path") from None
    finally:
        for created in made:  # deepest first
            try:
                created.rmdir()
            except OSError:
                pass


def _stream(target: Path, data: bytes, mode: int, path) -> None:
    """Write to a character device or FIFO in place: opened without O_CREAT or O_TRUNC."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0)
    if stat.S_ISFIFO(mode):
        flags |= os.O_NONBLOCK  # no reader: ENXIO at once instead of blocking for ever
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise InputError(f"cannot write {path}: it is a FIFO with no reader; start the reader first "
                             f"(e.g. cat {path} &)") from None
        raise InputError(f"cannot write {path}: {exc.strerror or exc}; choose a writable path") from None
    try:
        if stat.S_ISFIFO(mode):
            os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise
        raise InputError(f"cannot write {path}: {exc.strerror or exc}; choose a writable path") from None
    finally:
        os.close(fd)


def _refuse_read_only(target: Path, path) -> None:
    """An existing file we may not write is refused, as ``cp`` refuses it, although the rename of an
    atomic replace would be allowed by its folder."""
    if not os.access(target, os.W_OK):
        raise InputError(f"cannot write {path}: the file is read-only; make it writable or choose another path")


def _replace(target: Path, data: bytes, status: os.stat_result | None, path) -> None:
    """Atomic replace of a regular file (or creation of a new one) through a temporary file."""
    if status is not None:
        _refuse_read_only(target, path)
    tmp = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if status is not None:
            mode = stat.S_IMODE(status.st_mode)  # an existing file keeps its mode
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # mkstemp makes 0600; a report is an ordinary file
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}; choose a writable path") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def write_output(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text is written as UTF-8) to ``path``, respecting what is there (module docstring).

    A path that cannot be written raises ``InputError`` naming the path and the reason; nothing is
    left behind.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    if str(path) == STDOUT:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    target, status = _resolve(path)
    if status is None or stat.S_ISREG(status.st_mode):
        _replace(target, data, status, path)
    elif stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        _stream(target, data, status.st_mode, path)
    elif stat.S_ISDIR(status.st_mode):
        raise InputError(f"cannot write {path}: it is a folder; give a file name")
    else:
        raise InputError(f"cannot write {path}: it is {_kind(status.st_mode)}; give a regular file, a new path, "
                         f"/dev/null or -")


#: The name the report writer has always used.
write_atomic = write_output


def read_text(path: str | os.PathLike[str], max_bytes: int, what: str, fix: str) -> str:
    """The UTF-8 text of the regular file ``path``, refused (``InputError``) if it is missing, not a
    regular file (a folder, ``/dev/zero``, a FIFO), larger than ``max_bytes`` or not UTF-8."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{what} {str(path)!r} does not exist; {fix}") from None
    except OSError as exc:
        raise InputError(f"cannot read {what} {str(path)!r} ({exc.strerror or exc}); {fix}") from None
    if not stat.S_ISREG(status.st_mode):
        raise InputError(f"{what} {str(path)!r} is {_kind(status.st_mode)}; {fix}")
    if status.st_size > max_bytes:
        raise InputError(f"{what} {str(path)!r} has {status.st_size / 2**20:.0f} MiB, over the "
                         f"{max_bytes / 2**20:.0f} MiB it can have; {fix}")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(max_bytes + 1)  # the file may have grown since it was sized
    except OSError as exc:
        raise InputError(f"cannot read {what} {str(path)!r} ({exc.strerror or exc}); {fix}") from None
    if len(raw) > max_bytes:
        raise InputError(f"{what} {str(path)!r} is over the {max_bytes / 2**20:.0f} MiB it can have; {fix}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{what} {str(path)!r} is not UTF-8 text; {fix}") from None
