"""The one error path of the command line: every user mistake and environment fault becomes one
line ``verify: error: <problem>; <fix>`` on stderr and exit status 2, with no traceback.

Set ``VERIFY_DEBUG=1`` to let unexpected exceptions through with their traceback.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import sys

from ..errors import InputError

__all__ = ["run_guarded", "fault_message", "USER_ERROR"]

#: Exit status of every refused input and environment fault.
USER_ERROR = 2


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - stdout replaced (tests)
        pass


def fault_message(exc: BaseException) -> str | None:
    """The one-line message for an exception the command line owns, or None for a program error."""
    if isinstance(exc, InputError):
        return str(exc)
    if isinstance(exc, KeyboardInterrupt):
        return ("interrupted; every result computed so far is kept in the results store, so the same "
                "command resumes where it stopped")
    if isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError) and exc.errno == errno.EPIPE):
        return ("the output pipe was closed before everything was written (e.g. by head); read the whole "
                "output, or use --json or a file")
    if isinstance(exc, sqlite3.DatabaseError):
        return (f"the results store is damaged or not an SQLite file ({exc}); delete it, pass another "
                f"--store PATH, or use --no-store")
    if isinstance(exc, MemoryError):
        return ("the machine ran out of memory although the estimate allowed the work; lower "
                "--max-memory-gib or choose a smaller spec")
    if isinstance(exc, OSError):
        where = f" {exc.filename}" if exc.filename else ""
        return f"cannot use{where}: {exc.strerror or exc}; check the path and its permissions"
    return None


def run_guarded(handler, args) -> int:
    """``handler(args)`` with every owned fault turned into one line on stderr and exit status 2."""
    from ..sweeps.progress import close_all

    try:
        return handler(args)
    except BaseException as exc:  # noqa: BLE001 - the command line's single exit point
        close_all()
        if isinstance(exc, SystemExit):
            raise
        message = fault_message(exc)
        if message is None:
            if os.environ.get("VERIFY_DEBUG"):
                raise
            message = (f"internal error ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
                       f"please report it with the command line (VERIFY_DEBUG=1 shows the traceback)")
        if isinstance(exc, BrokenPipeError):
            _silence_stdout()
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            _silence_stdout()
        print(f"verify: error: {message}", file=sys.stderr)
        return USER_ERROR if fault_message(exc) is not None else 1
    finally:
        close_all()
