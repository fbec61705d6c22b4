"""Two-limb products mod p by Karatsuba: three float64 BLAS products where four limb products were.

``ModArith`` (``verify.exact.floatmod``) mixes this in for primes below about 2^44.9, where the
Karatsuba chunk is at least ``MIN_CHUNK`` long; the notes of that module (reduced values, |x| <= h,
LIMIT = 2^53 - 2p, balanced limbs) are assumed here.

* Two limbs by Karatsuba (``karatsuba``, the default for two limbs wherever its chunk is at least
  ``MIN_CHUNK``, i.e. the odd primes from 11,863,289 to 31,988,991,918,047, about 2^23.5 to 2^44.9;
  an audit rechecked every bound below on 4,791 of them): with balanced limbs x = x_0 + 2^b x_1, |x_0| <= l_0 = 2^(b-1)
  and |x_1| <= l_1 = (h >> b) + 1, so |x_0 + x_1| <= s = l_0 + l_1 (b minimises s).  Three BLAS
  products over an inner chunk of k = floor(LIMIT / s^2) indices: L = A_0 B_0 (|.| <= k l_0^2),
  H = A_1 B_1 (|.| <= k l_1^2) and M = (A_0 + A_1)(B_0 + B_1) (|.| <= k s^2), every partial sum
  <= k s^2 <= LIMIT, so exact.  X = M - L - H = A_0 B_1 + A_1 B_0 (|.| <= 2 k l_0 l_1; M - L is a
  difference of exact floats with a representable result, so exact, and so is X).  Then
  A B = L + 2^b (X + 2^b H) mod p by two shifts of *unreduced* values (below): Y = X + shift(H),
  C - A B = C - shift(Y) - L, whose |.| <= h + (p/2 + d) + k l_0^2 <= LIMIT, reduced once.  Three
  products instead of four, and no reduction before a shift.  For p just below 2^40, b = 20, s = 2^20 and
  k = 8190 (p = 2^40 - 87); every product of a 4000^2 elimination's recursion then runs in one chunk.
* The shift 2^b x mod p in floats (``_shift``) of an integer |x| <= X: p = 2^b P_H + p_lo with
  |p_lo| <= 2^(b-1).  q = rint(x * fl(2^b / p)) is within 1/2 + e of 2^b x / p, where e = 2^b X / p
  * 2.0001 * 2^-53 (two roundings), so |q| <= Q = 2^b X / p + 1/2 + e.  q P_H (|.| <= Q P_H) is
  exact, t = x - q P_H is exact, 2^b t = 2^b x - q p + q p_lo is exact (a power of two), q p_lo
  (|.| <= Q |p_lo|) is exact, and 2^b t - q p_lo = 2^b x - q p, |.| <= p/2 + d with d = p e: a
  difference of integers below 2^53 whose result is one, so exact -- provided Q P_H, Q |p_lo| and
  p/2 + d + Q |p_lo| are at most 2^53.  ``shift_output`` checks these in exact rational arithmetic
  for the two inputs the combination feeds it (X = k l_1^2 for H, 2 k l_0 l_1 + p/2 + d_H for Y),
  and the plan halves k until they hold (for p = 2^40 - 87 they hold at k = 8190: d < 2^22).

The elementwise work (the split, the combination, the per-pivot update) runs as the compiled loops
of ``verify.exact.fused`` with numpy, and as array-module passes otherwise (cupy; and the reference
the compiled loops are tested against).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from . import tuning

if TYPE_CHECKING:
    from types import ModuleType

    from .device import DeviceArray

__all__ = ["KaratsubaProducts", "shift_output"]

# ``tuning.KARATSUBA_TILE``: the largest scratch array (entries) of a Karatsuba product: its nine (limbs of
# a row block of a and a column block of b, their sums, the three products) hold at most 9 x 8 x 2^22
# bytes = 288 MiB.


def shift_output(p: int, bits: int, bound: int) -> int | None:
    """The bound p/2 + d on the result of ``ModArith._shift`` (2^b x mod p in floats) for integers
    |x| <= ``bound``, or None when one of its steps could pass 2^53 (module notes: the shift).
    Exact rational arithmetic.

    >>> shift_output(2**40 - 87, 20, 2**52) - (2**40 - 87) // 2 < 2**22
    True
    """
    high = (p + 2 ** (bits - 1)) >> bits
    low = abs(p - (high << bits))
    quotient = Fraction(bound << bits, p)
    error = quotient * Fraction(20001, 10000) / 2**53  # e: q is within 1/2 + e of 2^b x / p
    largest = quotient + Fraction(1, 2) + error  # Q
    out = Fraction(p, 2) + p * error
    if largest * high > 2**53 or largest * low > 2**53 or out + largest * low > 2**53:
        return None
    return math.floor(out)


def _karatsuba_plan(p: int, h: int, limit: int) -> tuple[int, int, int, tuple[int, int]]:
    """(bits per limb b, limb-sum bound s, inner chunk k, the two shifts' input bounds) of the
    two-limb Karatsuba product, b minimising s = l_0 + l_1 = 2^(b-1) + (h >> b) + 1 (the bound of
    x_0 + x_1); k = floor(LIMIT / s^2), halved until both shifts and the final sum are exact
    (module notes: Karatsuba); k = 0 when none is."""
    b = min(range(2, 53), key=lambda b: 2 ** (b - 1) + (h >> b) + 1)
    low, high = 2 ** (b - 1), (h >> b) + 1
    bound = low + high
    k = limit // (bound * bound)
    while k >= 1:
        first = shift_output(p, b, k * high * high)  # shift(H), |H| <= k l_1^2
        second = None if first is None else 2 * k * low * high + first  # |Y| = |X + shift(H)|
        out = None if second is None or second > limit else shift_output(p, b, second)
        if out is not None and h + out + k * low * low <= limit:
            return b, bound, k, (k * high * high, second)
        k //= 2
    return b, bound, 0, (0, 0)


class KaratsubaProducts:
    """The Karatsuba products of ``ModArith`` (a mixin: it uses the host's ``p``, ``h``, ``limit``,
    ``pinv``, ``xp``, ``_bands`` and ``reduce_in_place``)."""

    p: int
    xp: ModuleType
    h: int
    limit: int
    pinv: float
    bits: int
    chunk: int
    limb_bound: int
    karatsuba: bool
    fused: ModuleType | None  # ``verify.exact.fused``, where its compiled loops run the passes
    sum_bound: int
    shift_inputs: tuple[int, int]
    p_high: int
    p_low: int
    shift_pinv: float

    def _plan_karatsuba(self, karatsuba: bool | None, fused: bool | None, min_chunk: int) -> None:
        """Switch two limbs to Karatsuba where its chunk is at least ``min_chunk`` (or ``karatsuba``
        forces it), with the compiled loops where ``fused`` asks for them (by default with numpy)."""
        p = self.p
        bits, sum_bound, chunk, inputs = _karatsuba_plan(p, self.h, self.limit)
        if not (chunk >= min_chunk or (karatsuba and chunk >= 1)):
            if karatsuba:
                raise ValueError(f"Karatsuba cannot hold an exact product mod {p}")
            return
        self.karatsuba = True
        self.bits, self.chunk = bits, chunk
        self.limb_bound = max(2 ** (bits - 1), (self.h >> bits) + 1)
        self.sum_bound = sum_bound
        #: p = 2^b P_H + p_lo with |p_lo| <= 2^(b-1): the exact float shift (``_shift``)
        self.p_high = (p + 2 ** (bits - 1)) >> bits
        self.p_low = p - (self.p_high << bits)
        self.shift_pinv = 2.0**bits / p
        #: the largest |x| each of the combination's two shifts receives (H, then Y)
        self.shift_inputs = inputs
        #: scratch kept between products (``_workspace``): fresh pages fault on every touch
        self._scratch = {}
        #: the compiled Karatsuba loops (``verify.exact.fused``), numpy only; None: array passes
        if fused or (fused is None and self.xp is np):
            try:
                from . import fused as kernels  # numba: imported (and compiled) only where used
            except (ImportError, RuntimeError):  # no numba, or no writable place for its cache
                if fused:
                    raise
                return  # the array-module passes: the same results, slower
            self.fused = kernels

    def _karatsuba_submul(self, c: DeviceArray, a: DeviceArray, b: DeviceArray) -> None:
        """c <- c - a @ b (mod p) for reduced c, a and b, chunk by chunk; c leaves reduced."""
        for k in range(0, a.shape[1], self.chunk):
            self._karatsuba(c, a[:, k:k + self.chunk], b[k:k + self.chunk])

    def _shift(self, x: DeviceArray, q: DeviceArray, t) -> None:
        """2^b x mod p in floats only, in place, for an integer |x| up to the bound the plan checked
        (``shift_inputs``; module notes: the shift); ``q`` and ``t`` are scratch of x's shape.
        Leaves |x| <= ``shift_output(p, b, |x|)``, a little over p/2."""
        xp = self.xp
        xp.multiply(x, self.shift_pinv, out=q)
        xp.rint(q, out=q)  # q
        xp.multiply(q, float(self.p_high), out=t)  # q P_H, exact
        x -= t  # t = x - q P_H, exact
        x *= float(2**self.bits)  # 2^b t, exact
        xp.multiply(q, float(self.p_low), out=t)  # q p_lo, exact
        x -= t

    def _workspace(self, name: str, rows: int, cols: int):
        """A rows x cols C-contiguous scratch array named ``name``, kept between calls and grown when
        too small: the Karatsuba products' limbs and results are allocated once per elimination, not
        once per product (a fresh large array faults in every page it touches)."""
        flat = self._scratch.get(name)
        if flat is None or flat.size < rows * cols:
            flat = self._scratch[name] = self.xp.empty(rows * cols, dtype=self.xp.float64)
        return flat[:rows * cols].reshape(rows, cols)

    def _split_sum(self, x: DeviceArray, low: DeviceArray, high: DeviceArray, total: DeviceArray) -> None:
        """Karatsuba limbs of reduced ``x`` into ``low``, ``high`` (x = low + 2^b high, the balanced
        limbs of ``_split``) and their sum into ``total`` (|.| <= sum_bound)."""
        if self.fused is not None:
            self.fused.split_sum(x, low, high, total, 1.0 / float(2**self.bits), float(2**self.bits))
            return
        low[...], high[...] = self._split(x)
        self.xp.add(low, high, out=total)

    def _shift_constants(self) -> tuple[Any, ...]:
        """(fl(2^b / p), P_H, p_lo, 2^b, fl(1/p), p) as floats: the compiled loops' arguments."""
        return (self.shift_pinv, float(self.p_high), float(self.p_low), float(2**self.bits), self.pinv,
                float(self.p))

    def _karatsuba_rank_one(self, target: DeviceArray, left: DeviceArray, right: np.ndarray) -> None:
        """target <- target - left right^T (mod p), reduced, by the compiled loop: a Karatsuba product
        of inner dimension one on every entry, in one pass (``ModArith.rank_one``)."""
        self.fused.rank_one(target, left, right, 1.0 / float(2**self.bits), *self._shift_constants())

    def _karatsuba(self, c: DeviceArray, a: DeviceArray, b: DeviceArray) -> None:
        """c <- c - a @ b (mod p), reduced, by three limb products (module notes: Karatsuba), for an
        inner dimension k <= chunk.  Column blocks of b and row blocks of a keep every scratch array
        (six limb arrays, three products) within ``KARATSUBA_TILE`` entries; the products write into
        kept scratch, and the splits and the combination run row band by row band, in cache."""
        xp = self.xp
        (m, n), k = c.shape, a.shape[1]
        width = max(1, min(n, tuning.KARATSUBA_TILE // k))
        for j in range(0, n, width):
            w = min(width, n - j)
            b0, b1, bs = (self._workspace(name, k, w) for name in ("b0", "b1", "bs"))
            self._split_sum(b[:, j:j + w], b0, b1, bs)
            height = max(1, min(m, tuning.KARATSUBA_TILE // max(k, w)))
            for r in range(0, m, height):
                s = min(height, m - r)
                a0, a1, as_ = (self._workspace(name, s, k) for name in ("a0", "a1", "as"))
                self._split_sum(a[r:r + s], a0, a1, as_)
                low = xp.matmul(a0, b0, out=self._workspace("low", s, w))  # L, |.| <= k l0^2
                high = xp.matmul(a1, b1, out=self._workspace("high", s, w))  # H, |.| <= k l1^2
                middle = xp.matmul(as_, bs, out=self._workspace("middle", s, w))  # M, |.| <= k s^2
                self._combine(c[r:r + s, j:j + w], low, middle, high)

    def _combine(self, c: DeviceArray, low: DeviceArray, middle: DeviceArray, high: DeviceArray) -> None:
        """c <- c - (L + 2^b (M - L - H) + 2^(2b) H) mod p, reduced, from the three exact products
        (module notes: Karatsuba); ``low``, ``middle`` and ``high`` are overwritten."""
        if self.fused is not None:
            self.fused.combine(c, low, middle, high, *self._shift_constants())
            return
        bands = self._bands(middle) or [slice(None)]
        rows = bands[0].stop - bands[0].start if bands[0].stop is not None else c.shape[0]
        q = self._workspace("q", rows, c.shape[1])
        t = self._workspace("t", rows, c.shape[1])
        for band in bands:
            hi, mid, lo, tile = high[band], middle[band], low[band], c[band]
            n = tile.shape[0]
            qb, tb = q[:n], t[:n]
            mid -= lo  # = A0 B1 + A1 B0 + A1 B1: exact, |.| <= k (2 l0 l1 + l1^2) <= k s^2
            mid -= hi  # X = A0 B1 + A1 B0, |.| <= 2 k l0 l1
            self._shift(hi, qb, tb)  # 2^b H mod p, from |H| <= k l1^2 (shift_inputs[0])
            mid += hi  # Y = X + shift(H) (shift_inputs[1])
            self._shift(mid, qb, tb)  # 2^b Y mod p = 2^b X + 2^2b H mod p
            tile -= mid
            tile -= lo  # |.| <= h + shift_output + k l0^2 <= LIMIT (checked by the plan)
            self.reduce_in_place(tile, qb)
