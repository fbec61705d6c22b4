"""Partitions (A, B) of the N input positions.

``levine2020_limits_to_depth_efficiencies.md`` §3, Claim 1: the separation rank w.r.t. balanced
partitions (|A| = |B| = N/2) does not depend on which balanced partition is taken.
"""

from __future__ import annotations

from itertools import combinations

from ..errors import InputError

__all__ = ["default_partition", "parse_partition", "balanced_partitions"]


def default_partition(tokens: int) -> tuple[int, ...]:
    """A = the first N/2 positions (the query position 0 among them); N must be even.

    >>> default_partition(4)
    (0, 1)
    """
    if tokens % 2:
        raise InputError(f"a balanced partition needs an even number of tokens, got {tokens}; "
                         f"use --tokens {tokens + 1} or give --partition explicitly")
    return tuple(range(tokens // 2))


def parse_partition(text: str, tokens: int) -> tuple[int, ...]:
    """Parse ``0,1,...``: the positions in A.  A must be a nonempty proper subset of 0..N-1.

    >>> parse_partition("2,0", 4)
    (0, 2)
    """
    try:
        positions = sorted({int(p) for p in text.split(",") if p.strip()})
    except ValueError:
        raise InputError(f"partition {text!r} is not a comma-separated list of positions; "
                         f"write e.g. --partition 0,1") from None
    if not positions or any(not 0 <= p < tokens for p in positions) or len(positions) == tokens:
        raise InputError(f"partition {text!r} must list some but not all of the positions 0..{tokens - 1}; "
                         f"write e.g. --partition {','.join(map(str, range(max(1, tokens // 2))))}")
    return tuple(positions)


def balanced_partitions(tokens: int) -> list[tuple[int, ...]]:
    """Every balanced partition, each once: the sets A of size N/2 that contain position 0.

    (A, B) and (B, A) have the same separation rank, so A is taken to hold position 0.

    >>> balanced_partitions(4)
    [(0, 1), (0, 2), (0, 3)]
    """
    default_partition(tokens)
    half = tokens // 2
    return [(0,) + rest for rest in combinations(range(1, tokens), half - 1)]
