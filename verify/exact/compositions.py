"""Count vectors: the compositions of an integer into a fixed number of non-negative parts."""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
from numpy.typing import DTypeLike

__all__ = ["compositions", "exponent_dtype"]


def exponent_dtype(top: int) -> type[np.int16] | type[np.int64]:
    """The narrowest integer type for exponent rows of degree <= ``top``: int16 while the sum of two
    such rows (alpha + beta, at most 2 * top) stays below 2^15, else int64.

    >>> exponent_dtype(40).__name__, exponent_dtype(20000).__name__
    ('int16', 'int64')
    """
    return np.int16 if 2 * top < 2**15 else np.int64


def compositions(total: int, parts: int, dtype: DTypeLike = np.int64) -> np.ndarray:
    """All vectors of ``parts`` non-negative integers summing to ``total``, one per row, in
    ascending lexicographic order; binom(total + parts - 1, parts - 1) of them.

    Also the exponent vectors of the monomials of degree ``total`` in ``parts`` variables;
    ``dtype`` (e.g. ``exponent_dtype(total)``) keeps large lists small.

    Notes
    -----
    Built from ``combinations_with_replacement`` (which lists them in descending order) with one
    vectorised scatter-add; no recursion, so wide cases (55 variables) stay fast.

    >>> compositions(2, 2).tolist()
    [[0, 2], [1, 1], [2, 0]]
    """
    combos = np.array(list(combinations_with_replacement(range(parts), total)), dtype=np.int64)
    out = np.zeros((max(len(combos), 1), parts), dtype=dtype)
    if total:
        np.add.at(out, (np.repeat(np.arange(len(combos)), total), combos.ravel()), 1)
    return out[::-1].copy()
