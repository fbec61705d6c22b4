"""Memory estimates, checked before any large allocation."""

from __future__ import annotations

from ..errors import InputError

__all__ = ["DEFAULT_MEMORY_GIB", "guard", "gib"]

#: Refuse computations estimated to need more than this many GiB unless told otherwise.
DEFAULT_MEMORY_GIB = 16.0


def gib(n_bytes: float) -> str:
    return f"{n_bytes / 2**30:.3g} GiB"


def guard(estimate_bytes: float, limit_gib: float, what: str, fix: str) -> None:
    """Raise InputError naming the estimate and the fix if ``estimate_bytes`` exceeds the limit.

    >>> guard(10, 1.0, "x", "y")
    """
    if estimate_bytes > limit_gib * 2**30:
        raise InputError(f"{what} needs about {gib(estimate_bytes)}, over the {limit_gib:g} GiB limit; "
                         f"{fix}, or raise --max-memory-gib")
