"""Inverses of small diagonal blocks ("leaves") over GF(p), for the block LU (``verify.exact.blocklu``).

Two routes with one contract: reduced float64 in, reduced float64 inverse out (|x| <= h = (p-1)/2 + 2,
``verify.exact.floatmod``), or "singular".

* ``array_leaf_inverse``: fraction-free Gauss-Jordan in array operations of the array module, so on
  a GPU a leaf never goes back to the host (the block LU's ``"array"`` leaf).
* ``leaf_inverse``: Gauss-Jordan with row swaps compiled by numba on the host (``"compiled"``), and
  FLINT (``host_inverse``) for p >= ``LEAF_PRIME``.

By hand because neither numpy, cupy nor FLINT inverts a matrix modulo a prime inside an array module;
FLINT's own inverse costs more in conversions than in arithmetic at this size (``leaf_inverse``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .floatmod import ModArith

__all__ = ["LEAF_PRIME", "host_inverse", "leaf_inverse", "array_leaf_inverse"]


def host_inverse(block: np.ndarray, p: int) -> np.ndarray | None:
    """Inverse of a small int64 matrix over GF(p) (entries in [0, p)) by FLINT, or None if singular.
    The reference the leaves are tested against, and the compiled leaf's route for p >= ``LEAF_PRIME``."""
    import flint

    w = block.shape[0]
    try:
        inv = flint.nmod_mat(w, w, block.ravel().tolist(), p).inv()
    except ZeroDivisionError:
        return None
    return np.array([int(x) for x in inv.entries()], dtype=np.int64).reshape(w, w)


#: Both leaves hold every intermediate exactly below this modulus (module notes).
LEAF_PRIME = 2**26


@njit(cache=True)
def _gauss_jordan(m, p, pinv):  # pragma: no cover - compiled; tested through leaf_inverse
    """[A | I] -> [I | A^-1] in place over GF(p), reduced float64 entries; False if A is singular."""
    w = m.shape[0]
    for c in range(w):
        r = c
        while r < w and m[r, c] == 0.0:  # |x| < p (the caller's input, then reduced): a zero residue is 0.0
            r += 1
        if r == w:
            return False
        if r != c:
            for j in range(c, 2 * w):
                m[r, j], m[c, j] = m[c, j], m[r, j]
        # the pivot's inverse by the extended Euclidean algorithm, in int64 (p < 2^26)
        a, b, x0, x1 = int(m[c, c]) % p, p, 1, 0
        while b:
            q = a // b
            a, b = b, a - q * b
            x0, x1 = x1, x0 - q * x1
        scale = float(x0 % p)
        pivot = np.empty(2 * w - c)  # the scaled pivot row, apart from m: the loops below vectorise
        for j in range(c, 2 * w):
            v = m[c, j] * scale  # |.| <= h (p - 1) < 2^53
            pivot[j - c] = v - np.rint(v * pinv) * p
            m[c, j] = pivot[j - c]
        for i in range(w):
            f = m[i, c]
            if i == c or f == 0.0:
                continue
            row = m[i, c:]
            for j in range(pivot.shape[0]):
                v = row[j] - f * pivot[j]  # |.| <= h + h^2 <= 2^53 - 2p
                row[j] = v - np.rint(v * pinv) * p
    return True


def leaf_inverse(block: np.ndarray, p: int) -> np.ndarray | None:
    """Reduced float64 inverse of a small reduced float64 numpy matrix over GF(p), or None if singular.

    Gauss-Jordan on [A | I], compiled by numba, for p < ``LEAF_PRIME``; FLINT (``host_inverse``)
    above.  By hand because FLINT's own inverse of a 128 x 128 leaf takes 2 ms but moving it in and
    out through Python lists 13 ms (measured on the 2-core CPU: 15.4 ms a leaf in all), and a 40,000^2
    block LU with 2,048-wide blocks inverts 320 leaves.  Exactness (``verify.exact.floatmod``'s
    notes): entries stay reduced, |x| <= h = (p - 1)/2 + 2; a row scaled by the pivot's inverse
    (in [0, p)) has |x s| <= h (p - 1), an elimination step |x - f y| <= h + h^2, both at most
    LIMIT = 2^53 - 2p for p < 2^26, so each is exact and ``v - rint(v * fl(1/p)) p`` reduces it exactly to
    |r| <= h again.  The input is first brought to |x| <= (p - 1)/2, so that a zero residue is 0.0."""
    w = block.shape[0]
    if p >= LEAF_PRIME:
        inv = host_inverse(np.rint(block).astype(np.int64) % p, p)
        if inv is None:
            return None
        return (inv - p * (inv > p // 2)).astype(np.float64)
    m = np.zeros((w, 2 * w))
    # to |x| <= (p - 1)/2 first: |x| <= h allows x = +-p at p = 3 (h = 3), a zero residue that the pivot
    # search would take for nonzero; x / p is never a half-integer (p odd), so rint finds the nearest
    m[:, :w] = block - np.rint(block / p) * p
    m[np.arange(w), w + np.arange(w)] = 1.0
    if not _gauss_jordan(m, p, 1.0 / p):
        return None
    return m[:, w:].copy()


def _power(ar: ModArith, x, e: int):
    """Reduced x^e elementwise (|x| <= h, h^2 exact: p < 2^26), by squaring."""
    xp = ar.xp
    out = xp.ones_like(x)
    base = x.copy()
    while e:
        if e & 1:
            out = ar.reduce(out * base)
        e >>= 1
        if e:
            base = ar.reduce(base * base)
    return out


def array_leaf_inverse(ar: ModArith, block):
    """(inverse, ok) of a small reduced float64 matrix of ``ar.xp`` over GF(p), p < ``LEAF_PRIME``, in
    array operations only: nothing is read back to the host, so on a GPU the leaf stays on the device.
    ``ok`` is a 0-d boolean array, False when ``block`` is singular (``inverse`` is then meaningless).

    Fraction-free Gauss-Jordan on [A | I]: at column c, if the pivot is zero the first row below with a
    nonzero entry in column c is added to row c; then every row i becomes d x_i - x_ic x_c (d the
    pivot; row c itself is scaled by d).  These are invertible row operations while d != 0, so the
    result is [D | E] with D diagonal and A^-1 = D^-1 E; D's entries are inverted as d^(p-2).  Bounds:
    module notes."""
    xp, p = ar.xp, ar.p
    if p >= LEAF_PRIME:
        raise ValueError(f"the array leaf needs p < 2^26, not {p}")
    w = block.shape[0]
    m = xp.zeros((w, 2 * w), dtype=xp.float64)
    m[:, :w] = block - xp.rint(block * (1.0 / p)) * p  # |x| <= (p - 1)/2: a zero residue is 0.0
    m[xp.arange(w), w + xp.arange(w)] = 1.0
    ok = xp.ones((), dtype=bool)
    for c in range(w):
        below = ar.nonzero(m[c:, c])  # a sign test, or the remainder at p = 3 (h = p: +-3 is zero)
        r = c + xp.argmax(below)  # c itself when the pivot is nonzero (or nothing below is)
        zero = xp.logical_not(below[0])
        m[c] = ar.reduce(m[c] + zero * xp.take(m, r, axis=0))  # |.| <= 2h: exact
        d = m[c, c].copy()
        ok = xp.logical_and(ok, ar.nonzero(d))
        row = m[c].copy()
        f = m[:, c].copy()
        f[c] = 0.0
        m *= d  # |d x| <= h^2
        m -= f[:, None] * row[None, :]  # |d x - f y| <= 2 h^2 < 2^53 - 2p
        ar.reduce(m)
    inv_d = _power(ar, xp.diagonal(m[:, :w]).copy(), p - 2)
    return ar.reduce(inv_d[:, None] * m[:, w:]), ok
