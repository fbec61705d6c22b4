"""The benchmark scripts' flags, checked as the ``verify`` command checks its own (``benchmarks/*.py``).

A script builds its parser with ``ScriptParser`` (argparse's errors become one line), types its flags with
the functions here (each refuses a value with the range it takes: counts, finite seconds, memory limits,
``depth,width,heads`` specs, comma lists) and runs its ``main`` through ``run_script``, which ends every
refusal in one line ``NAME: error: ...`` on stderr and exit status 2, with no traceback; an output file is
checked (``output_file``) before any work, so a long measurement is never lost to a read-only ``--out``.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import NoReturn, TypeVar

from ..errors import InputError

__all__ = ["ScriptParser", "run_script", "count", "seconds", "memory", "spec_triple", "int_list", "grid_range",
           "output_file"]


class ScriptParser(argparse.ArgumentParser):
    """argparse with its errors as ``InputError`` (one line, the script's --help named), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{message} (see '{self.prog} --help')")


def run_script(main: Callable[[], int | None], prog: str | None = None, finish: bool = True) -> None:
    """Run ``main()`` and exit: its return value (0 for None); an ``InputError`` (a refused flag, an
    unwritable output, no GPU) is the one line ``PROG: error: ...`` and status 2; Ctrl-C status 130.
    ``finish=False``: return after a success (the script prints its closing line itself)."""
    import os

    prog = prog or os.path.basename(sys.argv[0])
    try:
        status = main()
    except InputError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        sys.exit(130)
    if finish or status:
        sys.exit(status or 0)


_T = TypeVar("_T")


def _type(name: str, parse: Callable[[str], _T]) -> Callable[[str], _T]:
    def checked(text: str) -> _T:
        try:
            return parse(text)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    checked.__name__ = name  # argparse names the type in its own messages
    return checked


def count(option: str, low: int = 0, high: int = 2**62) -> Callable[[str], int]:
    """An integer flag in [low, high].

    >>> count("--n", 0, 10)("3")
    3
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise InputError(f"{option} must be an integer from {low:,} to {high:,}, got {text[:40]!r}")
        return value
    return _type(option, parse)


def seconds(option: str, high: float = 7 * 86400.0) -> Callable[[str], float]:
    """A finite time above 0 (nan, inf and negatives would make a budget meaningless).

    >>> seconds("--budget-s")("60")
    60.0
    """
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and 0 < value <= high):
            raise InputError(f"{option} must be a number of seconds above 0 and at most {high:,.0f}, got "
                             f"{text[:40]!r}")
        return value
    return _type(option, parse)


def memory(option: str = "--max-memory-gib") -> Callable[[str], float]:
    """A memory limit as ``verify``'s ``--max-memory-gib`` takes it (``verify.validate.memory_gib``)."""
    from ..validate import memory_gib

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise InputError(f"{option} must be a finite number above 0 and at most 2^40 (GiB), got "
                             f"{text[:40]!r}") from None
        return memory_gib(value, option)
    return _type(option, parse)


def spec_triple(option: str = "--specs") -> Callable[[str], tuple[int, int, int]]:
    """``depth,width,heads``: depth 1 to 64, width 1 to 10^6 and heads dividing the width (as ``verify sep``
    takes them).

    >>> spec_triple()("4,3,1")
    (4, 3, 1)
    """
    from ..validate import MAX_WIDTH

    def parse(text: str) -> tuple[int, int, int]:
        parts = text.split(",")
        fix = f"write depth,width,heads, e.g. {option} 4,3,1"
        try:
            depth, width, heads = (int(p) for p in parts)
        except ValueError:
            raise InputError(f"{option} {text[:40]!r} is not three integers depth,width,heads; {fix}") from None
        if not (1 <= depth <= 64 and 1 <= width <= MAX_WIDTH and 1 <= heads <= width and width % heads == 0):
            raise InputError(f"{option} {text[:40]!r}: need 1 <= depth <= 64, 1 <= width <= {MAX_WIDTH:,} and "
                             f"heads dividing the width; {fix}")
        return depth, width, heads
    return _type(option, parse)


def int_list(option: str, low: int, high: int) -> Callable[[str], list[int]]:
    """A comma list of integers each in [low, high] (``--sizes 4000,8000``).

    >>> int_list("--sizes", 1, 10**5)("4000,8000")
    [4000, 8000]
    """
    one = count(option, low, high)

    def parse(text: str) -> list[int]:
        parts = [p.strip() for p in text.split(",")]
        if not text.strip() or not all(parts):
            raise InputError(f"{option} {text[:40]!r} is not a comma list of integers, e.g. {option} {low},{low + 1}")
        try:
            return [one(p) for p in parts]
        except argparse.ArgumentTypeError as exc:
            raise InputError(str(exc)) from None
    return _type(option, parse)


def grid_range(option: str, high: int) -> Callable[[str], str]:
    """``verify table``'s ``--depths``/``--widths`` text (``1-3``, ``2,4``), checked as the command checks it
    (``verify.validate.parse_range``) and passed on as given.

    >>> grid_range("--depths", 64)("1-3")
    '1-3'
    """
    def parse(text: str) -> str:
        from ..validate import parse_range

        parse_range(text, option.lstrip("-"), high)
        return text
    return _type(option, parse)


def output_file(path: str | None, option: str = "--out") -> None:
    """Refuse, before any work, an output file the script could not write (``verify.files.check_output``)."""
    from ..files import check_output

    check_output(path, option)
