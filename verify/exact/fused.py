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
on a GPU (cupy), and where numba cannot be imported or has nowhere to write its cache, ``ModArith``
keeps its array-module passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

if TYPE_CHECKING:
    from .device import DeviceArray

__all__ = ["split_sum", "combine", "rank_one"]


@njit(inline="always")
def _shift(x: DeviceArray, shift_pinv, p_high, p_low, scale):
    """2^b x mod p of an integer-valued float x (``ModArith._shift``, the same four steps)."""
    q = np.rint(x * shift_pinv)
    t = x - q * p_high  # exact
    t = t * scale  # 2^b t, exact
    return t - q * p_low  # exact


@njit(inline="always")
def _combined(c: DeviceArray, low, middle, high, shift_pinv, p_high, p_low, scale, pinv, p):
    """c - (L + 2^b (M - L - H) + 2^(2b) H) mod p, reduced (``ModArith._combine`` on one entry)."""
    x = (middle - low) - high  # X = A0 B1 + A1 B0
    y = x + _shift(high, shift_pinv, p_high, p_low, scale)  # Y = X + shift(H)
    y = _shift(y, shift_pinv, p_high, p_low, scale)
    v = (c - y) - low
    return v - np.rint(v * pinv) * p  # reduce


@njit(nogil=True, cache=True)
def split_sum(x: DeviceArray, low: DeviceArray, high: DeviceArray, total: DeviceArray, down: float,
              scale: float) -> None:
    """low, high, total <- x_0, x_1 and x_0 + x_1 of reduced ``x`` (x = x_0 + 2^b x_1; ``down`` =
    2^-b, ``scale`` = 2^b), as ``ModArith._split_sum``; the outputs are C-contiguous scratch."""
    row = np.empty(x.shape[1])
    for i in range(x.shape[0]):
        row[:] = x[i]  # a contiguous copy of a strided row: the loop below vectorises
        lo_row, hi_row, sum_row = low[i], high[i], total[i]
        for j in range(row.shape[0]):
            value = row[j]
            hi = np.rint(value * down)  # x_1
            lo = value - hi * scale  # x_0 = x - 2^b x_1, exact
            lo_row[j] = lo
            hi_row[j] = hi
            sum_row[j] = lo + hi


@njit(nogil=True, cache=True)
def combine(c: DeviceArray, low: DeviceArray, middle: DeviceArray, high: DeviceArray, shift_pinv: float, p_high: float,
            p_low: float, scale: float, pinv: float, p: float) -> None:
    """c <- c - (L + 2^b (M - L - H) + 2^(2b) H) mod p, reduced, from the three exact products
    (``ModArith._combine``; L, M, H C-contiguous scratch, only read)."""
    row = np.empty(c.shape[1])
    for i in range(c.shape[0]):
        row[:] = c[i]  # a contiguous copy of a strided row: the loop below vectorises
        lo_row, mid_row, hi_row = low[i], middle[i], high[i]
        for j in range(row.shape[0]):
            row[j] = _combined(row[j], lo_row[j], mid_row[j], hi_row[j], shift_pinv, p_high, p_low, scale, pinv, p)
        c[i] = row


@njit(nogil=True, cache=True)
def rank_one(target: DeviceArray, left: DeviceArray, right: np.ndarray, down: float, shift_pinv: float, p_high: float,
             p_low: float, scale: float, pinv: float, p: float) -> None:
    """target <- target - left right^T mod p, reduced, for reduced ``target`` (2-D), ``left`` and
    ``right`` (1-D): a Karatsuba product with an inner dimension of one (limbs split, three limb
    products, the same combination) on every entry."""
    n = target.shape[1]
    right_low, right_high, row = np.empty(n), np.empty(n), np.empty(n)
    for j in range(n):
        right_high[j] = np.rint(right[j] * down)
        right_low[j] = right[j] - right_high[j] * scale
    for i in range(target.shape[0]):
        hi = np.rint(left[i] * down)
        lo = left[i] - hi * scale
        row[:] = target[i]  # a contiguous copy of a strided row: the loop below vectorises
        for j in range(n):
            row[j] = _combined(row[j], lo * right_low[j], (lo + hi) * (right_low[j] + right_high[j]),
                               hi * right_high[j], shift_pinv, p_high, p_low, scale, pinv, p)
        target[i] = row
