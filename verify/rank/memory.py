"""Memory estimates, checked before any large allocation.

Every estimate is closed-form arithmetic on binomials and logarithms, so it answers in
microseconds for any input, absurd ones included (depth 10^20, width 10^6): sizes too large
for exact integers are compared on the log2 scale.
"""

from __future__ import annotations

import math

from ..defaults import DEFAULT_MEMORY_GIB
from ..errors import InputError

__all__ = ["DEFAULT_MEMORY_GIB", "guard", "gib", "log2_multichoose", "guard_log2"]


def gib(n_bytes: float) -> str:
    """``n_bytes`` in GiB, three digits; integers beyond a float as a power of ten.

    >>> gib(3 * 2**30), gib(2**2000)
    ('3 GiB', '10^593 GiB')
    """
    if isinstance(n_bytes, int) and n_bytes.bit_length() > 1000:
        return f"10^{round((n_bytes.bit_length() - 30) * math.log10(2))} GiB"
    return f"{n_bytes / 2**30:.3g} GiB"


def size_text(n_bytes: float) -> str:
    """``n_bytes`` in the unit that reads best, three digits (``5 MiB``, not ``0.00488 GiB``).

    >>> size_text(792 * 824 * 8), size_text(2**29), size_text(100)
    ('4.98 MiB', '512 MiB', '0.0977 KiB')
    """
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.3g} {unit}"
    return f"{n_bytes / 2**10:.3g} KiB"


def _check_limit(limit_gib: float) -> None:
    from ..validate import memory_gib

    memory_gib(limit_gib, "max_memory_gib")


def guard(estimate_bytes: float, limit_gib: float, what: str, fix: str) -> None:
    """Raise InputError naming the estimate and the fix if ``estimate_bytes`` exceeds the limit.

    >>> guard(10, 1.0, "x", "y")
    """
    _check_limit(limit_gib)
    if estimate_bytes > limit_gib * 2**30:
        raise InputError(f"{what} needs about {gib(estimate_bytes)}, over the {limit_gib:g} GiB limit; "
                         f"{fix}, or raise --max-memory-gib")


def log2_multichoose(log2_m: float, k: float) -> float:
    """A lower bound on log2 binom(m + k, k), given log2 m, for any m, k >= 0 (m may be far
    beyond a float).

    With s = min(m, k) and l = max(m, k), binom(m + k, k) = prod_{i=1..s} (l + i)/i >= (l/s + 1)^s,
    each factor being at least (l + s)/s; the bound is below the truth by at most s log2 e bits,
    and it never subtracts nearly equal numbers, so it is safe at every size.

    >>> 2 ** log2_multichoose(math.log2(8), 2) <= 45  # binom(10, 2)
    True
    """
    if k <= 0 or log2_m == -math.inf:
        return 0.0
    log2_k = math.log2(k)
    low, high = (log2_m, log2_k) if log2_m <= log2_k else (log2_k, log2_m)
    # s log2(l/s + 1) with s = 2^low, l = 2^high
    gap = high - low
    per_factor = gap + math.log2(1 + 2.0**-gap) if gap < 1000 else gap
    return 2.0**low * per_factor if low < 1000 else math.inf


def guard_log2(log2_bytes: float, limit_gib: float, what: str, fix: str) -> None:
    """``guard`` for a lower bound on the bytes, given as its log2 (any size, no big integers).

    >>> guard_log2(3.0, 1.0, "x", "y")
    """
    _check_limit(limit_gib)
    if log2_bytes <= math.log2(limit_gib) + 30:
        return
    size = ("more than 10^300 GiB" if log2_bytes == math.inf else f"{gib(2.0**log2_bytes)}" if log2_bytes < 1000
            else f"10^{(log2_bytes - 30) * math.log10(2):,.0f} GiB")
    raise InputError(f"{what} needs at least {size}, over the {limit_gib:g} GiB limit; "
                     f"{fix}, or raise --max-memory-gib")
