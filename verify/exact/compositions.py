"""Count vectors: the compositions of an integer into a fixed number of non-negative parts."""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

__all__ = ["compositions"]


def compositions(total: int, parts: int) -> np.ndarray:
    """All vectors of ``parts`` non-negative integers summing to ``total``, one per row, in
    ascending lexicographic order; binom(total + parts - 1, parts - 1) of them.

    Also the exponent vectors of the monomials of degree ``total`` in ``parts`` variables.

    Notes
    -----
    Built from ``combinations_with_replacement`` (which lists them in descending order) with one
    vectorised scatter-add; no recursion, so wide cases (55 variables) stay fast.

    >>> compositions(2, 2).tolist()
    [[0, 2], [1, 1], [2, 0]]
    """
    combos = np.array(list(combinations_with_replacement(range(parts), total)), dtype=np.int64)
    out = np.zeros((max(len(combos), 1), parts), dtype=np.int64)
    if total:
        np.add.at(out, (np.repeat(np.arange(len(combos)), total), combos.ravel()), 1)
    return out[::-1].copy()
