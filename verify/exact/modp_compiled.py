"""Compiled d x d mod-p products for numba loops (one pair at a time, in registers and scratch arrays).

Part of the mod-p layer (``verify.exact.modp`` lists every plan): int64 words, p < 2^31, d < 2^14.
Every stored value is a residue in [0, p); a product of two is at most (p - 1)^2 < 2^62.  For
p = 2^31 - 1 each product t is folded once, ``part``: (t & p) + (t >> 31) (2^31 = 1 mod p), to below
2^31 + 2^31 = 2^32, so a dot product of d < 2^14 such terms stays below 2^46, and ``red`` folds once more
(t & p <= p, t >> 31 < 2^15: at most p + 2^15 < 2p) and subtracts p once: the residue in [0, p).  For
other primes each product is reduced by ``%`` and a sum of d < 2^14 residues stays below 2^45.  Sums of
two residues are below 2^32 and reduced the same way.  Nothing reaches 2^63.

The functions are ``inline="always"``: a caller compiled with ``cache=True`` (``verify.rank.token.grid_loop``)
embeds them, and numba's cache does not notice edits here, so clear ``__pycache__`` after changing this
file.  Written by hand: numba compiles the loops; no library here offers a fused modular small-matrix
product.  ``tests/rank/test_grid_loop.py`` checks the loops built on them bit for bit against the numpy
limb route (``modp.int64_product``) and against Python integers at p - 1 everywhere (the largest sums).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["MERSENNE", "part", "red", "mul", "mul_t", "vec", "vec_t"]

MERSENNE = 2**31 - 1


@njit(inline="always")
def part(t: int, p: int) -> int:
    """A value congruent to t mod p, below 2^32 (p = 2^31 - 1) or below p (other primes); t < 2^63."""
    if p == MERSENNE:
        return (t & MERSENNE) + (t >> 31)
    return t % p


@njit(inline="always")
def red(t: int, p: int) -> int:
    """t mod p in [0, p) for 0 <= t < 2^46 (p = 2^31 - 1) or < 2^63 (other primes)."""
    if p == MERSENNE:
        t = (t & MERSENNE) + (t >> 31)  # <= p + 2^15 < 2p
        return t - MERSENNE if t >= MERSENNE else t
    return t % p


@njit(inline="always")
def mul(x: np.ndarray, y: np.ndarray, out: np.ndarray, p: int) -> None:
    """out <- x y mod p for d x d residues."""
    d = x.shape[0]
    for r in range(d):
        for c in range(d):
            acc = 0
            for k in range(d):
                acc += part(x[r, k] * y[k, c], p)
            out[r, c] = red(acc, p)


@njit(inline="always")
def mul_t(x: np.ndarray, y: np.ndarray, out: np.ndarray, p: int) -> None:
    """out <- x y^T mod p for d x d residues (``mul`` on the transposed view)."""
    mul(x, y.T, out, p)


@njit(inline="always")
def vec(v: np.ndarray, m: np.ndarray, out: np.ndarray, p: int) -> None:
    """out <- v m mod p (row vector times matrix)."""
    d = m.shape[0]
    for c in range(d):
        acc = 0
        for k in range(d):
            acc += part(v[k] * m[k, c], p)
        out[c] = red(acc, p)


@njit(inline="always")
def vec_t(v: np.ndarray, m: np.ndarray, out: np.ndarray, p: int) -> None:
    """out <- v m^T mod p (``vec`` on the transposed view)."""
    vec(v, m.T, out, p)
