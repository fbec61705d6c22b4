"""Checks done before any work: argument values at parse time (each message gives the valid
range) and output paths (a file or folder the command could not write is refused up front, so a
long computation is never lost to a typo in ``--out``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from ..defaults import DEFAULT_PRIME, MAX_DEPTH
from ..errors import InputError
from ..files import STDOUT, check_output, distinct_outputs, is_stream, probe_folder
from ..validate import MAX_COUNT, MAX_TOKENS, MAX_WIDTH, memory_gib
from ..validate import integer as validate_integer

__all__ = ["int_range", "memory_limit", "field_text", "writable_file", "writable_dir", "plot_file",
           "distinct_outputs", "store_files", "MAX_DEPTH",
           "MAX_WIDTH", "MAX_TOKENS", "MAX_COUNT"]

#: MAX_DEPTH, the largest depth the parser accepts, is the engine's (``verify.sweeps.table``); the
#: other limits are the API's (``verify.validate``), so the two refuse the same values.


def int_range(option: str, low: int, high: int | None = None, what: str | None = None) -> Callable[[str], int]:
    """An argparse ``type`` accepting integers in [low, high]; the message names the range.

    >>> int_range("--depth", 1, 64)("3")
    3
    """
    span = f"from {low} to {high:,}" if high is not None else f"at least {low}"
    name = f"{option} ({what})" if what else option

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer {span}, got {text!r}") from None
        try:
            return validate_integer(value, name, low, high)  # the API's own check
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = option  # argparse names the type in its own messages
    return parse


def memory_limit(text: str) -> float:
    """``--max-memory-gib``: a finite number above 0 (nan, inf and negatives would disable the limit).

    >>> memory_limit("0.5")
    0.5
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--max-memory-gib must be a finite number above 0 and at most 2^40 (GiB), "
                                         f"got {text[:40]!r}; e.g. --max-memory-gib 16") from None
    try:
        return memory_gib(value)  # the API's own check and message
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def field_text(text: str) -> str:
    """``--field``: ``qq`` or ``gf:P`` with P a prime below 2^63 (the moment tables and matrices hold
    residues in signed 64-bit words), returned as given.

    >>> field_text("gf:101")
    'gf:101'
    """
    if text in ("auto", f"gf:{DEFAULT_PRIME}"):  # the defaults (auto: the table's repeat loop), known good:
        return text  # argparse converts them even when a refusal follows, so they must not load FLINT
    from ..api import parse_field  # only for a field typed: the parser loads no engine module otherwise

    try:
        field = parse_field(text)
    except InputError as exc:  # a long value is shown by its start: the message stays one readable line
        shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}... ({len(text):,} characters)"
        raise argparse.ArgumentTypeError(f"--field {shown}: {exc}") from None
    if field.modulus is not None and field.modulus >= 2**63:
        raise argparse.ArgumentTypeError(f"--field modulus {field.modulus} is above 2^63; the exact routes hold "
                                         f"residues in 64-bit words, so use a prime below 2^63, e.g. "
                                         f"gf:{DEFAULT_PRIME}")
    return text


def writable_file(path: str | None, option: str) -> None:
    """Refuse an output file that could not be written, before any work is done (``-`` is stdout;
    a symlink, ``/dev/null`` or a FIFO is accepted and written the way ``verify.files`` writes it)."""
    check_output(path, option)


def plot_file(path: str | None, option: str = "--plot") -> None:
    """Refuse, before any work, a plot path that is not a .png (or ``-``), not writable, or a plot
    without matplotlib installed."""
    if path is None:
        return
    if not is_stream(path) and not path.lower().endswith(".png"):
        raise InputError(f"plot file {path!r} must end in .png; use e.g. {option} plot.png")
    check_output(path, option)
    from ..report.formats import require_matplotlib
    require_matplotlib()


def writable_dir(path: str, option: str) -> None:
    """Refuse an output folder that is a file or could not be created or written."""
    target = Path(path)
    if not path.strip():
        raise InputError(f"{option} {path!r} is an empty path; give a folder name, e.g. {option} verify-report")
    if path == STDOUT:
        raise InputError(f"{option} - (stdout) cannot hold the report files; give a folder name, e.g. "
                         f"{option} verify-report (--json prints the report on stdout)")
    if target.exists() and not target.is_dir():
        raise InputError(f"{option} {path} is an existing file, not a folder; give a folder name for the reports, "
                         f"e.g. {option} verify-report")
    probe_folder(target, f"{option} {path}")


def store_files(store: str | None) -> list[tuple[str, str | None]]:
    """The results store and the files SQLite keeps beside it, as ``distinct_outputs`` pairs: another
    output written there would replace the store."""
    if store is None:
        return []
    return [("--store", store)] + [(f"--store ({Path(store).name}{tail})", f"{store}{tail}")
                                   for tail in ("-journal", "-wal", "-shm")]

