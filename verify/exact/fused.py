"""The Karatsuba passes of ``verify.exact.karatsuba`` fused into one loop each, compiled by numba.

numpy runs the two-limb Karatsuba product's elementwise work as separate whole-array passes: five
for the limb split, twenty-one for the combination of the three products, fourteen for a rank-one
update (``ModArith.mul``'s uint64 correction and two reductions).  Each pass reads and writes
memory, and on the thin strided panels of a recursive elimination every pass walks thousands of
pages.  The loops here do the same float64 operations in the same order on one element at a time,
so each array is read and written once.  No library fuses such a chain: numexpr has no rounding
to nearest (``rint``), and numpy's ufuncs are one pass each.

Exactness is the module notes of ``verify.exact.karatsuba`` (Karatsuba, the shift), unchanged: every
operation below is one of the float64 operations named there, on the same operands, so every
intermediate is the same integer.  numba compiles without fast-math, so no operation is
reassociated or contracted; and every product that meets an addition is exact (q P_H, q p_lo, q p,
2^b x_1, limb products), so a fused multiply-add would not change a result either.
``tests/exact/test_fused.py`` checks the kernels bit for bit against the numpy passes and against
Python integers at the plan's largest inputs, and that the compiled code has no fused multiply-add.

Compiled on first use (about a second; cached beside the module afterwards), and only for numpy:
on a GPU (cupy) ``ModArith`` keeps its array-module passes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["split_sum", "combine", "rank_one"]


@njit(inline="always")
def _shift(x, shift_pinv, p_high, p_low, scale):
    """2^b x mod p of an integer-valued float x (``ModArith._shift``, the same four steps)."""
    q = np.rint(x * shift_pinv)
    t = x - q * p_high  # exact
    t = t * scale  # 2^b t, exact
    return t - q * p_low  # exact


@njit(inline="always")
def _combined(c, low, middle, high, shift_pinv, p_high, p_low, scale, pinv, p):
    """c - (L + 2^b (M - L - H) + 2^(2b) H) mod p, reduced (``ModArith._combine`` on one entry)."""
    x = (middle - low) - high  # X = A0 B1 + A1 B0
    y = x + _shift(high, shift_pinv, p_high, p_low, scale)  # Y = X + shift(H)
    y = _shift(y, shift_pinv, p_high, p_low, scale)
    v = (c - y) - low
    return v - np.rint(v * pinv) * p  # reduce


def _rows(array):
    """(flat, ld): a 1-D contiguous view from ``array``'s first entry to its last and its row stride
    in entries, for a 2-D float64 view whose rows are contiguous (the slices an elimination passes);
    None otherwise.  The compiled loops take contiguous 1-D row slices of it, which numba vectorises,
    where a 2-D strided view compiles to a scalar loop (3.6x slower, measured)."""
    if array.ndim != 2 or array.dtype != np.float64 or array.strides[1] != 8 or array.strides[0] < 0 \
            or array.strides[0] % 8:
        return None
    ld = array.strides[0] // 8
    span = (array.shape[0] - 1) * ld + array.shape[1]
    return np.lib.stride_tricks.as_strided(array, shape=(span,), strides=(8,)), ld


def _run(kernel, arrays, extra=()) -> None:
    """``kernel(flat_0, ld_0, flat_1, ld_1, ..., m, n, *extra)`` on the (flat, ld) forms of the 2-D
    ``arrays`` (all m x n; the kernel writes only the first).  An array whose rows are not
    contiguous goes through a contiguous copy (the first is written back).

    One thread: splitting the rows over two threads halves a pass run alone (measured, 2000^2), but
    not inside an elimination, where BLAS's own threads still hold the cores after each product."""
    m, n = arrays[0].shape
    if m == 0 or n == 0:
        return
    forms, copies = [], []
    for array in arrays:
        form = _rows(array)
        if form is None:
            copies.append((array, np.ascontiguousarray(array, dtype=np.float64)))
            form = _rows(copies[-1][1])
        forms += list(form)
    kernel(*forms, m, n, *extra)
    if copies and copies[0][0] is arrays[0]:
        arrays[0][...] = copies[0][1]


@njit(nogil=True, cache=True)
def _split_sum(low, ldl, high, ldh, total, ldt, x, ldx, m, n, down, scale):
    for i in range(m):  # contiguous 1-D row slices: the inner loop vectorises
        source, lo_row, hi_row, sum_row = x[i * ldx:i * ldx + n], low[i * ldl:i * ldl + n], \
            high[i * ldh:i * ldh + n], total[i * ldt:i * ldt + n]
        for j in range(n):
            value = source[j]
            hi = np.rint(value * down)  # x_1
            lo = value - hi * scale  # x_0 = x - 2^b x_1, exact
            lo_row[j] = lo
            hi_row[j] = hi
            sum_row[j] = lo + hi


def split_sum(x, low, high, total, down, scale) -> None:
    """low, high, total <- x_0, x_1 and x_0 + x_1 of reduced ``x`` (x = x_0 + 2^b x_1; ``down`` =
    2^-b, ``scale`` = 2^b), as ``ModArith._split_sum``."""
    _run(_split_sum, [low, high, total, x], (down, scale))


@njit(nogil=True, cache=True)
def _combine(c, ldc, low, ldl, middle, ldm, high, ldh, m, n, shift_pinv, p_high, p_low, scale, pinv, p):
    for i in range(m):  # contiguous 1-D row slices: the inner loop vectorises
        out, lo_row, mid_row, hi_row = c[i * ldc:i * ldc + n], low[i * ldl:i * ldl + n], \
            middle[i * ldm:i * ldm + n], high[i * ldh:i * ldh + n]
        for j in range(n):
            out[j] = _combined(out[j], lo_row[j], mid_row[j], hi_row[j], shift_pinv, p_high, p_low, scale, pinv, p)


def combine(c, low, middle, high, shift_pinv, p_high, p_low, scale, pinv, p) -> None:
    """c <- c - (L + 2^b (M - L - H) + 2^(2b) H) mod p, reduced, from the three exact products
    (``ModArith._combine``); ``low``, ``middle`` and ``high`` are only read."""
    _run(_combine, [c, low, middle, high], (shift_pinv, p_high, p_low, scale, pinv, p))


@njit(nogil=True, cache=True)
def _rank_one(target, ld, left, ldl, m, n, right, down, shift_pinv, p_high, p_low, scale, pinv, p):
    right_low, right_high = np.empty(n), np.empty(n)
    for j in range(n):
        right_high[j] = np.rint(right[j] * down)
        right_low[j] = right[j] - right_high[j] * scale
    for i in range(m):
        hi = np.rint(left[i * ldl] * down)
        lo = left[i * ldl] - hi * scale
        row = target[i * ld:i * ld + n]  # a contiguous 1-D slice: the loop below vectorises
        for j in range(n):
            row[j] = _combined(row[j], lo * right_low[j], (lo + hi) * (right_low[j] + right_high[j]),
                               hi * right_high[j], shift_pinv, p_high, p_low, scale, pinv, p)


def rank_one(target, left, right, down, shift_pinv, p_high, p_low, scale, pinv, p) -> None:
    """target <- target - left right^T mod p, reduced, for reduced ``target`` (2-D), ``left`` and
    ``right`` (1-D): a Karatsuba product with an inner dimension of one (limbs split, three limb
    products, the same combination) on every entry."""
    _run(_rank_one, [target, np.ascontiguousarray(left).reshape(-1, 1)],
         (np.ascontiguousarray(right), down, shift_pinv, p_high, p_low, scale, pinv, p))
