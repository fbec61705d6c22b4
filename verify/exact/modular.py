"""Exact products modulo a word-size prime through float64 BLAS, with no FLINT conversion.

Entries in [0, p), p < 2^63, are cut into three 21-bit limbs.  A product of two limbs is below
2^42, so a float64 matrix product over at most 2^11 inner indices is an exact integer below
2^53; the nine limb products are grouped by shift 21 (i + j), reduced mod p per inner chunk,
and the five shifted sums (uint64) are combined in Python integers.  Used where a small matrix (a few
rows of a null-space basis) meets a large block that only exists as a numpy array, so the
block never has to be copied entry by entry into FLINT (about 140 ns per entry).
"""

from __future__ import annotations

import numpy as np

__all__ = ["modular_product"]

LIMB_BITS = 21
LIMBS = 3
#: Inner indices per float64 product: (2^21 - 1)^2 * 2^11 < 2^53, so every sum is exact.
INNER_CHUNK = 2**11


def _limbs(matrix: np.ndarray) -> list[np.ndarray]:
    mask = (1 << LIMB_BITS) - 1
    return [((matrix >> (LIMB_BITS * i)) & mask).astype(np.float64) for i in range(LIMBS)]


def modular_product(left: np.ndarray, right: np.ndarray, modulus: int) -> np.ndarray:
    """(left @ right) mod ``modulus`` exactly, as a numpy object array of Python ints.

    ``left`` (t x k) and ``right`` (k x n) are int64 arrays with entries in [0, modulus),
    modulus < 2^63.

    >>> p = 2**63 - 25
    >>> a = np.array([[p - 1, 2]], dtype=np.int64); b = np.array([[p - 1], [p - 2]], dtype=np.int64)
    >>> int(modular_product(a, b, p)[0, 0]) == ((p - 1) ** 2 + 2 * (p - 2)) % p
    True
    """
    if not 2 <= modulus < 2**63:
        raise ValueError(f"modulus {modulus} is outside 2..2^63-1")
    rows, inner = left.shape
    cols = right.shape[1]
    shifted = [np.zeros((rows, cols), dtype=np.uint64) for _ in range(2 * LIMBS - 1)]
    for start in range(0, inner, INNER_CHUNK):
        stacked = np.vstack(_limbs(left[:, start:start + INNER_CHUNK]))  # limb i of left in rows i*t..
        for j, limb in enumerate(_limbs(right[start:start + INNER_CHUNK])):
            # exact: each entry < 2^53; three of them added to a value < p < 2^63 stay < 2^64
            products = (stacked @ limb).astype(np.uint64)
            for i in range(LIMBS):
                shifted[i + j] += products[i * rows:(i + 1) * rows]
        for s in shifted:
            np.remainder(s, np.uint64(modulus), out=s)
    out = np.zeros((rows, cols), dtype=object)
    for s, part in enumerate(shifted):
        out += part.astype(object) * pow(2, LIMB_BITS * s, modulus)
    return out % modulus
