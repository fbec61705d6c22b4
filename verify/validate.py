"""The one validation of the values a user gives, shared by the command line and the Python API.

The parser's ``type`` functions (``verify.cli.argtypes``) and the API's entry points call the same
checks, so ``verify.probe_n(max_tokens=10**9)`` is refused with the message ``--max-tokens 10^9``
gets, at once, before anything is allocated.  Each message names the value, the valid range and
the option that sets it.
"""

from __future__ import annotations

import math

from .errors import InputError

__all__ = ["integer", "flag", "memory_gib", "seed", "scheduler_address", "grid_values", "parse_range",
           "MAX_SPEC_DEPTH", "MAX_WIDTH", "MAX_COUNT", "MAX_TOKENS", "MAX_MEMORY_GIB"]

#: Largest depth a ``NetworkSpec`` takes: 3^L then has 478 digits, still computed at once by the closed-form
#: bounds and estimates, while 3^L at L = 2^70 could not even be written down (the command line and the
#: sweeps stop far earlier, at ``verify.sweeps.table.MAX_DEPTH``).
MAX_SPEC_DEPTH = 1000

#: Largest width accepted (the estimates refuse far smaller ones at any depth).
MAX_WIDTH = 10**6
#: Largest value of the other integer options (vocabulary, templates; seeds are unbounded).
MAX_COUNT = 10**9
#: Largest sequence length accepted (the exact routes refuse far smaller ones).
MAX_TOKENS = 10**4
#: Largest memory limit accepted (GiB).
MAX_MEMORY_GIB = 2**40


def integer(value: object, name: str, low: int, high: int | None = None) -> int:
    """``value`` if it is an int (not a bool) in [low, high]; else an ``InputError`` naming ``name``
    (the command-line option, e.g. ``--depth``) and the range.

    >>> integer(3, "--depth", 1, 64)
    3
    """
    span = f"from {low} to {high:,}" if high is not None else f"at least {low}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be an integer {span}, got {value!r}")
    if value < low or (high is not None and value > high):
        raise InputError(f"{name} must be an integer {span}, got {value}")
    return value


def flag(value: object, name: str) -> bool:
    """``value`` if it is a bool; else an ``InputError`` (``residual=1`` is a typo for True)."""
    if not isinstance(value, bool):
        raise InputError(f"{name} must be True or False, got {value!r}")
    return value


def sweep_options(workers: object, **flags: object) -> None:
    """The checks ``--workers`` and a sweep's switches (``flags``: name=value, each a bool) get on the command
    line (``verify.api``'s table and probe calls)."""
    if workers is not None:
        integer(workers, "workers", 1, 4096)
    for name, value in flags.items():
        flag(value, name)


def seed(value: object, name: str = "--seed") -> int:
    """A seed: an integer >= 0 (as ``--seed`` takes it)."""
    return integer(value, name, 0)


def memory_gib(value: object, name: str = "--max-memory-gib") -> float:
    """A memory limit: a finite number above 0 and at most 2^40 GiB (nan, inf and negatives would
    disable the limit).

    >>> memory_gib(0.5)
    0.5
    """
    number = math.nan
    if not isinstance(value, bool) and isinstance(value, (int, float)):
        number = float(value) if abs(value) < 2**1000 else math.inf
    if not math.isfinite(number) or number <= 0 or number > MAX_MEMORY_GIB:
        why = ("; infinity would disable the limit" if number == math.inf and value == math.inf else
               "; nan would disable the limit" if isinstance(value, float) and math.isnan(value) else "")
        example = f"{name} 16" if name.startswith("--") else f"{name}=16"
        raise InputError(f"{name} must be a finite number above 0 and at most 2^40 (GiB), got {value!r}{why}; "
                         f"e.g. {example}")
    return number


def grid_values(values: object, name: str, high: int, cap: int, example: str = "1-3") -> list[int]:
    """The values of one axis of a grid (``depths``, ``widths``): integers from 1 to ``high``, at most
    ``cap`` of them, from a ``range``, a list or any iterable, checked without iterating what could be
    endless or huge: a range by its first and last value and its length (each O(1)), any other
    iterable by taking at most ``cap + 1`` items (a generator is consumed only that far).

    >>> grid_values(range(1, 4), "--depths", 64, 2000)
    [1, 2, 3]
    """
    span = f"integers from 1 to {high:,}"
    if isinstance(values, range):
        if len(values) == 0:
            raise InputError(f"{name} {values!r} is empty; give at least one value, e.g. {name} {example}")
        first, last = values[0], values[-1]
        low, top = min(first, last), max(first, last)
        if low < 1 or top > high:
            raise InputError(f"{name} must be {span}, got {values!r} (from {low:,} to {top:,}); e.g. {name} {example}")
        if len(values) > cap:
            raise InputError(f"{name} {values!r} has {len(values):,} values, over the {cap:,} a grid takes; narrow it")
        return list(values)
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise InputError(f"{name} must be a list or range of {span}, or text such as '1-3', got "
                         f"{type(values).__name__}")
    import itertools

    items = list(itertools.islice(iter(values), cap + 1))
    if len(items) > cap:
        raise InputError(f"{name} has more than {cap:,} values, over the {cap:,} a grid takes; narrow it")
    if not items:
        raise InputError(f"{name} is empty; give at least one value, e.g. {name} {example}")
    for value in items:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
            raise InputError(f"{name} must be {span}, got {shown}; e.g. {name} {example}")
    return items


def scheduler_address(text: object) -> str:
    """A Dask scheduler address, ``tcp://HOST:PORT`` (``HOST:PORT`` gets ``tcp://``), with a port from
    1 to 65535, checked before anything tries to connect (an unchecked port reached Dask's own
    parser, which answered "Unable to allocate 3.07 EiB")."""
    from urllib.parse import urlsplit

    from .errors import printable

    fix = "give the Dask scheduler's address as tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"--scheduler must be an address, got {text!r}; {fix}")
    shown = printable(text)
    address = text.strip() if "://" in text else f"tcp://{text.strip()}"
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        raise InputError(f"--scheduler {shown!r}: the port must be a number from 1 to 65535; {fix}") from None
    if parts.scheme not in ("tcp", "tls", "ws", "wss"):
        raise InputError(f"--scheduler {shown!r}: unknown protocol {printable(parts.scheme)!r}; {fix}")
    if not parts.hostname or port is None or not 1 <= port <= 65535 or parts.path not in ("", "/") \
            or parts.query or parts.fragment:
        raise InputError(f"--scheduler {shown!r} is not HOST:PORT with a port from 1 to 65535; {fix}")
    return address


def parse_range(text: str, name: str, high: int = 10**4) -> list[int]:
    """``"2-4"`` -> [2, 3, 4]; ``"1,3"`` -> [1, 3]; ``"3"`` -> [3]; every value in 1..``high``.

    >>> parse_range("1-3", "depths")
    [1, 2, 3]
    """
    values: set[int] = set()
    shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "..."
    bad = f"--{name} must be integers from 1 to {high:,}, got {shown}; write e.g. 1-3 or 2,4"
    for part in text.split(","):
        ends = part.strip()
        if ends.startswith("-") and ends[1:].strip().isdigit():  # -3: a negative value, not a range
            raise InputError(bad)
        low, dash, top = ends.partition("-")
        if dash and low.strip().isdigit() and not top.strip():
            raise InputError(f"--{name} {shown}: {ends[:40]!r} is an unfinished range; write LOW-HIGH, e.g. 1-3")
        try:
            low, top = int(low), int(top if dash else low)
        except ValueError:
            raise InputError(f"--{name} {shown}: {part.strip()[:40]!r} is neither a number nor a range LOW-HIGH; "
                             f"write e.g. 1-3 or 2,4") from None
        if top < low:
            raise InputError(f"--{name} {shown}: the range {low}-{top} runs backwards; write {top}-{low}")
        if low < 1 or top > high:
            raise InputError(bad)
        values.update(range(low, top + 1))
    return sorted(values)
