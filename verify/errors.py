"""The exceptions the command line turns into a one-line message and exit status 2."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import os

__all__ = ["InputError", "Terminated", "printable"]


class InputError(ValueError):
    """Bad input: the message names the problem and the fix, on one line.

    The command line prints ``verify: error: <message>`` and exits with status 2; library
    callers get an ordinary ``ValueError`` subclass.
    """


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread by the command line's handler so that a sweep
    stops exactly as on Ctrl-C: every worker ended, every temporary file removed, the store's open
    transaction rolled back.  ``signal_name`` names the signal ("SIGTERM")."""

    signal_name: str

    def __init__(self, signal_name: str) -> None:
        super().__init__(signal_name)
        self.signal_name = signal_name


def printable(text: "str | os.PathLike[str]") -> str:
    """``text`` (a str or a path) with every character that is not printable written as its Python
    escape (``\\n``, ``\\x1b``, ``\\udcff``), so that a name echoed in a message stays one line and
    cannot move the cursor or recolour the terminal."""
    import os

    text = os.fspath(text) if not isinstance(text, str) else text
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
