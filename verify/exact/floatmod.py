"""Exact arithmetic modulo a prime p < 2^50 on float64 arrays, with matrix products through BLAS.

Every entry is an integer held exactly in a float64 and kept *reduced*: |x| <= h with
h = (p - 1)/2 + 2 (balanced, i.e. centred, representation plus a slack of 2, see ``reduce``).
Written against the array-API subset numpy and cupy share (the module is passed as ``xp``),
so the same code runs on a GPU.

Derivation of the bounds (LIMIT = 2^53 - 2p; every integer of magnitude <= 2^53 is a float64):

* ``reduce(x)``, |x| <= LIMIT: q = rint(x * fl(1/p)); the computed quotient x/p has absolute
  error <= |x/p| * 2.0001 * 2^-53 <= 2.1/p < 1/2, so q is the nearest integer to x/p or next
  to it, |q p| <= |x| + p <= 2^53 is exact, and r = x - q p is exact with |r| <= p/2 + 2.1,
  i.e. |r| <= h.
* One limb (``limbs == 1``, small primes): a product C - A B over an inner chunk of k indices
  has every partial sum bounded by h + k h^2, exact when h + k h^2 <= LIMIT.  For p < 2^23 that
  allows k >= 511; for p just below 2^26, k = 7 (so a two-limb split is chosen there instead).
* w limbs (larger primes): x = sum_i x_i 2^(b i) with balanced limbs, |x_i| <= 2^(b-1) below
  the top and |x_top| <= h / 2^(b(w-1)) + 1, so every limb is <= l (``limb_bound``).  The w^2
  limb products A_i B_j are one stacked BLAS product; each partial sum is <= k l^2, exact when
  k l^2 <= LIMIT.  For p < 2^46, w = 2 and b = 23 give l = 2^22 and k = 504; for p < 2^51,
  w = 3 and b = 17 give l = 2^16 and k in the millions.  The reduced blocks are combined as
  sum_s (sum_{i+j=s} A_i B_j) * (2^(b s) mod p) with ``mul``.
* Two limbs by Karatsuba (three limb products instead of four, p below about 2^44.9): the module
  notes of ``verify.exact.karatsuba``.
* ``mul(x, y)`` for |x|, |y| <= h when h^2 > LIMIT: q = rint(x * y * fl(1/p)) is within 1 of
  x y / p (relative error <= 3.0001 * 2^-53 on a value <= h^2/p < 2^49), and r = x y - q p is
  formed exactly in uint64 arithmetic modulo 2^64 (|r| <= 1.5 p + 1 < 2^63), then reduced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

# MIN_CHUNK: fewest inner indices per BLAS call (fewer limbs preferred while their chunk is that long);
# TILE_ENTRIES: largest product temporary; BAND_ENTRIES: row bands of the elementwise passes on numpy
# (the array module's own loop on a GPU).  Tuned values, measured where ``verify.exact.tuning`` says.
from . import tuning
from .karatsuba import KaratsubaProducts

if TYPE_CHECKING:
    from types import ModuleType

    from .device import DeviceArray

__all__ = ["ModArith", "MAX_PRIME", "small_prime_windows"]

#: Largest modulus supported (three 17-bit limbs; ``mul``'s quotient stays within 1).
MAX_PRIME = 2**50


def small_prime_windows(p: int) -> tuple[int, int]:
    """The longest exact inner dimension k at ``p`` of an int8 x int8 -> int32 product and of a float32
    product, for reduced operands |x| <= h = (p - 1)/2 + 2: k h^2 + h < 2^31 (0 when h > 127, past int8)
    and k h^2 + h <= 2^24 - 2p (float32's LIMIT, as ``reduce`` needs it).  The windows of the integer
    kernels at small primes (``benchmarks/small_primes.py`` prints them; not built).

    >>> small_prime_windows(251), small_prime_windows(257)[0]
    ((133144, 1040), 0)
    """
    h = (p - 1) // 2 + 2
    int8 = (2**31 - 1 - h) // (h * h) if h <= 127 else 0
    single = max(0, (2**24 - 2 * p - h) // (h * h))
    return int8, single


def _limb_plan(h: int, limit: int, limbs: int) -> tuple[int, int, int]:
    """(bits per limb b, limb bound l, inner chunk k) for ``limbs`` limbs, b minimising l."""
    if limbs == 1:
        return 0, h, max(0, (limit - h) // (h * h))
    best = None
    for b in range(2, 53):
        bound = max(2 ** (b - 1), (h >> (b * (limbs - 1))) + 1)
        if best is None or bound < best[1]:
            best = (b, bound)
    b, bound = best
    return b, bound, limit // (bound * bound)


class ModArith(KaratsubaProducts):
    """Reduced float64 arithmetic mod ``p`` on arrays of module ``xp`` (numpy or cupy).

    Parameters
    ----------
    p : int
        An odd prime, 3 <= p < 2^50.
    xp : module
        numpy or cupy.
    limbs : int, optional
        Limbs per operand in matrix products (1, 2 or 3); by default the fewest whose exact
        chunk has at least ``MIN_CHUNK`` inner indices.
    karatsuba : bool, optional
        Two limbs only: three limb products (Karatsuba) instead of four.  By default wherever its
        chunk has at least ``MIN_CHUNK`` inner indices (p below about 2^44.9); False forces the four
        products, True forces Karatsuba.
    fused : bool, optional
        Karatsuba only: run its elementwise passes as the compiled loops of ``verify.exact.fused``
        (one pass each) instead of array-module passes.  By default with numpy; False keeps the
        array-module passes (the reference the compiled loops are tested against).

    >>> ar = ModArith(7)
    >>> x = ar.from_ints(np.array([[6, 5], [3, 1]])); ar.to_ints(x).tolist()
    [[6, 5], [3, 1]]
    """

    p: int
    xp: ModuleType
    h: int
    limit: int
    pinv: float
    bits: int
    limb_bound: int
    chunk: int
    fused: ModuleType | None
    limbs: int
    small: bool
    delay: int
    shift: list[int]

    def __init__(self, p: int, xp: ModuleType = np, limbs: int | None = None, karatsuba: bool | None = None,
                 fused: bool | None = None) -> None:
        if not 3 <= p < MAX_PRIME or p % 2 == 0:
            raise ValueError(f"modulus {p} is outside the odd range 3..2^50")
        self.p, self.xp = p, xp
        self.h = (p - 1) // 2 + 2
        self.limit = 2**53 - 2 * p
        self.pinv = 1.0 / p
        plans = {w: _limb_plan(self.h, self.limit, w) for w in (1, 2, 3)}
        if limbs is None:
            limbs = next((w for w in (1, 2, 3) if plans[w][2] >= tuning.MIN_CHUNK), 3)
        if plans[limbs][2] < 1:
            raise ValueError(f"{limbs} limb(s) cannot hold an exact product mod {p}")
        self.limbs = limbs
        self.bits, self.limb_bound, self.chunk = plans[limbs]
        #: two limbs by Karatsuba (three limb products instead of four) where its chunk is long enough
        self.karatsuba = False
        self.fused = None
        if limbs == 2 and karatsuba is not False:
            self._plan_karatsuba(karatsuba, fused, tuning.MIN_CHUNK)
        #: products of two reduced values are exact in float64 (no uint64 correction needed)
        self.small = self.h * self.h + self.h <= self.limit
        #: rank-one updates x - l u (|l|, |u| <= h) that may pile up on a reduced x before
        #: |x| could pass LIMIT (0 when products need limbs): delayed reduction
        self.delay = (self.limit - self.h) // (self.h * self.h) if self.small else 0
        self.shift = [self.balanced(pow(2, self.bits * s, p)) for s in range(2 * limbs - 1)]

    # ------------------------------------------------------------------ scalars and conversion
    def balanced(self, value: int) -> int:
        """``value`` mod p in (-p/2, p/2)."""
        value %= self.p
        return value - self.p if value > self.p // 2 else value

    def inverse(self, value: int) -> int:
        """The balanced inverse of a nonzero reduced entry."""
        return self.balanced(pow(int(value) % self.p, -1, self.p))

    def from_ints(self, matrix: DeviceArray, overwrite: bool = False) -> DeviceArray:
        """A reduced float64 copy of an integer array (int64, uint64, or Python ints as numpy objects).

        With ``overwrite`` and an int64 array of ``xp``, the result is written over the input's own
        memory (band by band, through a float64 view), which the caller then no longer reads."""
        xp = self.xp
        if getattr(matrix, "dtype", None) == object:
            matrix = np.mod(matrix, self.p).astype(np.int64)
        if overwrite and isinstance(matrix, xp.ndarray) and matrix.dtype == xp.int64:
            out = matrix.view(xp.float64)
        else:
            out = xp.empty(matrix.shape, dtype=xp.float64)
        if out.size == 0:
            return out
        band = tuning.TILE_ENTRIES if xp is not np else 4 * tuning.BAND_ENTRIES  # numpy: bands that stay in cache
        step = max(1, band // max(1, matrix.shape[-1]))
        for r in range(0, matrix.shape[0], step):  # row bands: temporaries (and host-to-device copies) stay small
            values = matrix[r:r + step]
            if getattr(values, "dtype", None) == np.uint64:  # int64 would wrap entries past 2^63 to another residue
                values = xp.remainder(xp.asarray(values), xp.uint64(self.p))
            values = xp.asarray(values, dtype=xp.int64)
            if out.base is not None and values.base is not None:  # overwrite: never read what is being written
                values = values.copy()
            low, high = int(values.min()), int(values.max())
            if 0 <= low and high < self.p:  # residues already: only centre them
                out[r:r + step] = values
                band = out[r:r + step]
                band -= self.p * (band > self.p // 2)
            elif max(-low, high) <= self.limit:  # exact in float64: reduce there (integer division is slow)
                out[r:r + step] = self.reduce(values.astype(xp.float64))
            else:
                values = xp.remainder(values, self.p)
                out[r:r + step] = (values - self.p * (values > self.p // 2)).astype(xp.float64)
        return out

    def to_ints(self, values: DeviceArray) -> DeviceArray:
        """Canonical residues in [0, p) as int64."""
        return self.xp.remainder(values.astype(self.xp.int64), self.p)

    # ------------------------------------------------------------------ elementwise
    def _bands(self, x: DeviceArray):
        """Row bands (slices) of a large 2-D numpy ``x`` for the elementwise passes; None for
        small arrays and on a GPU (one pass over the whole array)."""
        if self.xp is not np or x.ndim != 2 or x.size <= 2 * tuning.BAND_ENTRIES:
            return None
        band = max(1, tuning.BAND_ENTRIES // x.shape[1])
        return [slice(r, r + band) for r in range(0, x.shape[0], band)]

    def reduce_in_place(self, x: DeviceArray, q: DeviceArray) -> None:
        """Reduce ``x`` (|x| <= LIMIT) in place to |x| <= h in one pass, with ``q`` (x's shape, not
        overlapping it) for the quotient: no temporary, no bands (the caller's band is the unit)."""
        xp = self.xp
        xp.multiply(x, self.pinv, out=q)
        xp.rint(q, out=q)
        q *= self.p
        x -= q

    def reduce(self, x: DeviceArray, scratch: DeviceArray | None = None) -> DeviceArray:
        """Reduce ``x`` (|x| <= LIMIT) in place to |x| <= h; returns it.  ``scratch``, an array of
        x's shape not overlapping it, holds the quotient instead of a new temporary."""
        bands = self._bands(x)
        if bands is None:
            q = x * self.pinv if scratch is None else self.xp.multiply(x, self.pinv, out=scratch)
            self.xp.rint(q, out=q)
            q *= self.p
            x -= q
            return x
        if scratch is None:  # one band's temporary
            scratch = self.xp.empty((bands[0].stop - bands[0].start, x.shape[1]), dtype=x.dtype)
            for band in bands:
                part = x[band]
                self.reduce_in_place(part, scratch[:part.shape[0]])
        else:
            for band in bands:
                self.reduce_in_place(x[band], scratch[band])
        return x

    def subtract(self, x: DeviceArray, y: DeviceArray, reduce: bool) -> None:
        """x <- x - y in place, then reduced if ``reduce`` (x - y within LIMIT); ``y`` (x's shape,
        not overlapping it) is overwritten.  Band by band: each band is reduced while in cache."""
        for band in self._bands(x) or [slice(None)]:
            part = x[band]
            part -= y[band]
            if reduce:
                self.reduce_in_place(part, y[band])

    def nonzero(self, x: DeviceArray) -> DeviceArray:
        """Boolean mask of entries that are nonzero mod p (h < p for p >= 5: a sign test suffices)."""
        if self.h < self.p:
            return x != 0
        return self.xp.remainder(x, self.p) != 0

    def rank_one(self, target: DeviceArray, left: DeviceArray, right: np.ndarray) -> None:
        """target <- target - left right^T (mod p), reduced, for reduced ``target`` (2-D), ``left`` and
        ``right`` (1-D): the per-pivot update of an elimination whose products need limbs (h^2 >
        LIMIT).  With the compiled Karatsuba loops, one pass; else ``mul``'s exact product,
        subtracted and reduced."""
        if self.fused is not None:
            self._karatsuba_rank_one(target, left, right)
            return
        target -= self.mul(left[:, None], right[None, :])
        self.reduce(target)

    def mul(self, x: DeviceArray, y: DeviceArray) -> DeviceArray:
        """Reduced x * y (elementwise, broadcasting; ``y`` may be a Python int).  A 1-D ``x`` times a
        reduced int, with the compiled Karatsuba loops, is one rank-one pass: 0 - (-y) x."""
        xp = self.xp
        if self.small:
            return self.reduce(x * y)
        if self.fused is not None and isinstance(y, int) and abs(y) < self.h and x.ndim == 1:
            out = xp.zeros((1, x.shape[0]), dtype=xp.float64)
            self._karatsuba_rank_one(out, xp.array([float(-y)]), xp.ascontiguousarray(x))
            return out[0]
        q = xp.rint(x * y * self.pinv)
        xu = x.astype(xp.int64).view(xp.uint64)
        yu = (xp.uint64(y % 2**64) if isinstance(y, int) else y.astype(xp.int64).view(xp.uint64))
        r = xu * yu - q.astype(xp.int64).view(xp.uint64) * xp.uint64(self.p)
        return self.reduce(r.view(xp.int64).astype(xp.float64))

    # ------------------------------------------------------------------ matrix products
    def _split(self, x: DeviceArray):
        """Balanced limbs x_0..x_{w-1} of reduced ``x``: x_1.. = rint(x / 2^b), x_0 = x - 2^b x_1, and so
        on (exact: scalings by powers of two; |x_i| <= 2^(b-1) below the top limb)."""
        xp = self.xp
        base = float(2**self.bits)
        parts = []
        for _ in range(self.limbs - 1):
            high = xp.rint(x * (1.0 / base))
            low = high * base
            xp.subtract(x, low, out=low)
            parts.append(low)
            x = high
        parts.append(x)
        return parts

    def _product(self, a: DeviceArray, b: DeviceArray):
        """Reduced a @ b for an inner dimension of at most ``chunk``."""
        xp = self.xp
        if self.limbs == 1:
            return a @ b
        m, n, w = a.shape[0], b.shape[1], self.limbs
        stacked = xp.concatenate(self._split(a), axis=0) @ xp.concatenate(self._split(b), axis=1)
        total = None
        for s in range(2 * w - 1):
            group = None
            for i in range(max(0, s - w + 1), min(s, w - 1) + 1):
                part = self.reduce(stacked[i * m:(i + 1) * m, (s - i) * n:(s - i + 1) * n])
                group = part.copy() if group is None else group + part
            group = self.reduce(group)
            term = group if s == 0 else self.mul(group, self.shift[s])
            total = term if total is None else total + term
        return total

    def _limbed_submul(self, c: DeviceArray, a: DeviceArray, b: DeviceArray) -> None:
        """c <- c - a @ b (mod p) for reduced c, a and b with w limb products a chunk (``_product``),
        reduced after each chunk.  Column blocks of b and row blocks of a keep each limb split and
        stacked product within a few ``TILE_ENTRIES``, whatever the shapes (a thin product with a
        wide operand, as in the factorization check, included)."""
        (m, n), inner, w = c.shape, a.shape[1], self.limbs
        depth = min(inner, self.chunk)
        width = max(1, min(n, tuning.TILE_ENTRIES // (w * depth)))
        step = max(1, tuning.TILE_ENTRIES // (w * w * max(width, depth)))
        for j in range(0, n, width):
            for r in range(0, m, step):
                tile = c[r:r + step, j:j + width]
                for k in range(0, inner, self.chunk):
                    self.subtract(tile, self._product(a[r:r + step, k:k + self.chunk],
                                                      b[k:k + self.chunk, j:j + width]), True)

    def submul(self, c: DeviceArray, a: DeviceArray, b: DeviceArray, pending: int | None = None) -> int:
        """c <- c - a @ b (mod p), in place on the view ``c``, for reduced ``a`` and ``b``; every
        partial sum exact (module notes).

        With ``pending`` None, ``c`` is reduced on entry and on return.  Otherwise (delayed
        reduction, one limb only) ``c`` enters with |c| <= h + pending h^2 and is reduced only when
        the next chunk could pass LIMIT; returns the count bounding it on return (0 if reduced)."""
        inner = a.shape[1]
        if inner == 0 or c.shape[0] == 0 or c.shape[1] == 0:
            return pending or 0
        if self.limbs > 1:  # no delayed reduction with limbs: c is reduced first should a count be pending
            if pending:
                self.reduce(c)
            (self._karatsuba_submul if self.karatsuba else self._limbed_submul)(c, a, b)
            return 0
        delayed = pending is not None and self.delay > 0
        step = max(1, tuning.TILE_ENTRIES // (self.limbs * self.limbs * c.shape[1]))
        # one contiguous buffer for every chunk's product: no temporary per chunk
        buf = self.xp.empty((min(step, c.shape[0]), c.shape[1]), dtype=c.dtype)
        out = 0
        for r in range(0, c.shape[0], step):
            tile, count = c[r:r + step], (pending or 0)
            if delayed and count + min(self.chunk, inner) > self.delay:
                self.reduce(tile)
                count = 0
            for k in range(0, inner, self.chunk):
                width = min(self.chunk, inner - k)
                following = min(self.chunk, inner - k - width)  # the next chunk's width, 0 after the last
                # reduce after this chunk when products do not wait (not delayed), or when the next
                # chunk could pass LIMIT: |tile| <= h + (count + width + following) h^2 is the test
                due = not delayed or (following > 0 and count + width + following > self.delay)
                product = self.xp.matmul(a[r:r + step, k:k + self.chunk], b[k:k + self.chunk], out=buf[:tile.shape[0]])
                self.subtract(tile, product, due)
                count = 0 if due else count + width
            out = count
        return out
