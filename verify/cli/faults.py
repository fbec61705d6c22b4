"""The one error path of the command line: every user mistake and environment fault becomes one
line ``verify: error: <problem>; <fix>`` on stderr and exit status 2, with no traceback.

The environment is made safe before a command runs (``run_guarded``):

- SIGTERM and SIGHUP raise ``Terminated`` (a ``KeyboardInterrupt``) in the main thread, so they stop a
  command exactly as Ctrl-C does: every worker process ended, temporary files removed, the results
  store's open transaction rolled back; a second such signal ends the process at once;
- a closed stdout is refused up front (nothing could be reported); a closed stderr is pointed at
  ``/dev/null`` (progress and messages are dropped, the exit status still tells);
- a stream whose encoding cannot write the symbols we print (``LC_ALL=C``, ``PYTHONIOENCODING=ascii``)
  gets ASCII fallbacks (``>=`` for ≥, ``sec.`` for §, ...);
- the output is flushed before the exit status is decided, so a full disk or a closed pipe is an error.

Set ``VERIFY_DEBUG=1`` to let unexpected exceptions through with their traceback.
"""

from __future__ import annotations

import codecs
import errno
import os
import signal
import sqlite3
import sys
import threading
import unicodedata
from typing import TYPE_CHECKING

from ..errors import InputError, Terminated, printable

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["run_guarded", "fault_message", "USER_ERROR", "ascii_fallback"]

#: Exit status of every refused input, environment fault and interrupt (Ctrl-C, SIGTERM, SIGHUP).
USER_ERROR = 2

#: Symbols our output uses, and what an ASCII-only stream shows instead.
_ASCII = {"§": "sec. ", "≥": ">=", "≤": "<=", "≠": "!=", "≈": "~", "×": "x", "·": "*", "…": "...", "–": "-",
          "—": "--", "→": "->", "←": "<-", "⌊": "floor(", "⌋": ")", "⌈": "ceil(", "⌉": ")", "√": "sqrt",
          "∞": "inf", "±": "+/-", "∈": " in ", "∑": "sum", "Σ": "Sum", "∏": "prod", "²": "^2", "³": "^3",
          "′": "'", "‘": "'", "’": "'", "“": '"', "”": '"', "α": "alpha", "β": "beta", "δ": "delta",
          "ε": "eps", "λ": "lambda", "ℓ": "l", "≡": "==", "⊗": "(x)", "✓": "ok", "✗": "x", "█": "#"}


def ascii_fallback(error: UnicodeEncodeError) -> tuple[str, int]:
    """Codec error handler: each character the stream cannot encode becomes its ASCII fallback
    (the table above, else its compatibility decomposition, else ``\\uXXXX``)."""
    out = []
    for char in error.object[error.start:error.end]:
        text = _ASCII.get(char)
        if text is None:
            text = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
        if not text:
            text = char.encode("ascii", "backslashreplace").decode("ascii")
        out.append(text)
    return "".join(out), error.end


codecs.register_error("verify-ascii", ascii_fallback)


def _ascii_streams() -> None:
    """Give stdout and stderr ASCII fallbacks where their encoding cannot write our symbols."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if not encoding or not hasattr(stream, "reconfigure"):
            continue
        try:
            "§≥≤×…".encode(encoding)
        except UnicodeEncodeError:
            stream.reconfigure(errors="verify-ascii")
        except LookupError:  # pragma: no cover - an unknown encoding name
            stream.reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - stdout replaced (tests)
        pass


def _interrupt_message(exc: KeyboardInterrupt) -> str:
    """What an interrupt leaves: a sweep's results are in its store (if it has one), nothing else is."""
    executor = sys.modules.get("verify.sweeps.executor")  # not loaded: no sweep ran, nothing to import for it
    name = getattr(exc, "signal_name", None) or "Ctrl-C"
    if executor is not None and isinstance(exc, executor.SweepInterrupted):
        done = exc.stats.computed
        if exc.store_path is not None:
            return (f"interrupted ({name}); {done} new result{'s were' if done != 1 else ' was'} computed and kept in "
                    f"the results store {exc.store_path}, so the same command resumes where it stopped")
        return f"interrupted ({name}); with --no-store nothing computed was kept, so a rerun starts again"
    kept = getattr(exc, "kept_blocks", None)  # verify sep --store
    if kept is not None:
        path, count = kept
        return (f"interrupted ({name}); {count} degree block{'s' if count != 1 else ''} finished in this run "
                f"{'are' if count != 1 else 'is'} kept in the results store {path}, with any kept before, so the "
                f"same command resumes where it stopped; no output file was left half-written")
    return f"interrupted ({name}) before the command finished; no output file was left half-written"


def fault_message(exc: BaseException) -> str | None:
    """The one-line message for an exception the command line owns, or None for a program error."""
    if isinstance(exc, InputError):
        return str(exc)
    if isinstance(exc, KeyboardInterrupt):
        return _interrupt_message(exc)
    if isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError) and exc.errno == errno.EPIPE):
        return ("the output pipe was closed before everything was written (e.g. by head); read the whole "
                "output, or use --json or a file")
    if isinstance(exc, sqlite3.DatabaseError):
        if "readonly" in str(exc).replace("-", "").replace(" ", "").lower():
            return (f"the results store is read-only ({exc}); make it writable, pass another --store PATH, "
                    f"or use --no-store")
        return (f"the results store is damaged or not an SQLite file ({exc}); delete it, pass another "
                f"--store PATH, or use --no-store")
    if isinstance(exc, MemoryError):
        return ("the machine ran out of memory although the estimate allowed the work; lower "
                "--max-memory-gib or choose a smaller spec")
    if isinstance(exc, OSError) and exc.errno == errno.EBADF and not exc.filename:
        return "the output stream is closed; run the command with stdout open (e.g. redirect it to a file)"
    if isinstance(exc, OSError):
        if exc.filename:
            return f"cannot use {exc.filename}: {exc.strerror or exc}; check the path and its permissions"
        return f"cannot write the output ({exc.strerror or exc}); check the disk and where stdout goes"
    return None


class _Signals:
    """SIGTERM and SIGHUP raise ``Terminated`` in this process's main thread while installed."""

    NAMES = ("SIGTERM", "SIGHUP")

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.previous = {}

    def _handle(self, signum, frame):
        if os.getpid() != self.pid:  # a forked worker before its initializer ran: die as by default
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        for name in self.NAMES:  # a second signal during the clean-up ends the process at once
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        raise Terminated(signal.Signals(signum).name)

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for name in self.NAMES:
                number = getattr(signal, name, None)
                if number is not None:
                    self.previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)


def _streams_ready() -> None:
    """A closed stderr goes to /dev/null; a closed stdout is refused (nothing could be reported)."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    if sys.stdout is None:
        raise InputError("stdout is closed, so no result could be reported; run the command with stdout open "
                         "(redirect it to a file or /dev/null)")
    _ascii_streams()


def _close_progress_bars() -> None:
    """Close the open progress bars (``verify.sweeps.progress.close_all``): none can be open where that
    module was never loaded, so a refusal by the parser loads no engine module for this."""
    progress = sys.modules.get("verify.sweeps.progress")
    if progress is not None:
        progress.close_all()


def run_guarded(handler: Callable[..., int], args: object) -> int:
    """``handler(args)`` with every owned fault turned into one line on stderr and exit status 2."""
    try:
        with _Signals():
            _streams_ready()
            code = handler(args)
            sys.stdout.flush()  # a full disk or a closed stream is an error, not a silent exit 0
            return code
    except BaseException as exc:  # noqa: BLE001 - the command line's single exit point
        _close_progress_bars()
        if isinstance(exc, SystemExit):
            raise
        message = fault_message(exc)
        if isinstance(exc, InputError):  # "expected one argument" before a value starting with -: the = form
            from .hints import dash_value_hint

            message = dash_value_hint(message, list(sys.argv[1:] if args is None else args))
        if message is None:
            if os.environ.get("VERIFY_DEBUG"):
                raise
            message = (f"internal error ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
                       f"please report it with the command line (VERIFY_DEBUG=1 shows the traceback)")
        if isinstance(exc, BrokenPipeError):
            _silence_stdout()
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except (OSError, ValueError):
            _silence_stdout()
        try:
            print(f"verify: error: {printable(message)}", file=sys.stderr or open(os.devnull, "w"), flush=True)
        except (OSError, ValueError):  # stderr closed under us: the exit status still tells
            pass
        return USER_ERROR if fault_message(exc) is not None else 1
    finally:
        _close_progress_bars()
