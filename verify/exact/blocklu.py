"""Rank over GF(p) by block LU *without pivoting*: every flop in a large float64 matrix product.

Why by hand: the engine's PLUQ (``verify.exact.elimination``) pivots one column at a time, so on
a GPU each of its n pivots costs kernel launches and a host round trip; at n = 80,000 that held
it near 3 TFLOP/s.  Neither cupy nor cuSOLVER offers an LU modulo a prime.  This kernel trades
pivoting for matrix products, the way block algorithms for generic matrices do (Kaltofen and
Saunders, "On Wiedemann's method of solving sparse linear systems", AAECC 1991, for when block
LU without pivoting meets the rank):

    M = [A11 A12; A21 A22] = [I 0; L21 I] [A11 A12; 0 A22 - L21 A12],   L21 = A21 A11^{-1},

applied block after block while the w x w diagonal block A11 of the current Schur complement is
invertible.  Its inverse: the 2 x 2 block formula, recursively, down to ``tuning.LEAF`` x ``tuning.LEAF``
leaves inverted by Gauss-Jordan, by one of the leaf routes of ``verify.exact.leaves`` (one contract,
``leaf_inverse``): ``"kernel"`` (one launch a leaf: a numba.cuda kernel on a GPU, its compiled CPU
twin with numpy), ``"host"`` (copied to the host, compiled Gauss-Jordan, copied back) and ``"array"``
(Gauss-Jordan in array operations: about 15 launches per column).  The kernel and array routes leave
their singular flags on the device, read once per diagonal block; the host route knows at once.  The
default is ``leaves.default_route``: the host leaf with numpy; on a GPU the measured winner
(``tuning.LEAF_ROUTE``) or, until one is measured, the route with the fewest launches.  The leaves
of one diagonal block cannot be batched: each Schur complement's leaf needs the inverse before it.

If a diagonal block is singular the block is halved (down to a leaf) and tried again; when a
leaf-sized block is singular the loop stops and returns the Schur complement:
rank(M) = (pivots so far) + rank(Schur complement), exactly, since each A11 used was invertible.
``rank`` ranks the rest by the engine's pivoting elimination.

The leaves live in ``verify.exact.leaves``.  Exactness (``floatmod``'s argument): one limb only
(``ModArith.limbs == 1``, p below about 2^23.5).  Entries are held reduced, |x| <= h = (p-1)/2 + 2, in float64.  A
product of inner dimension k has every partial sum bounded by k h^2, and C - A B by h + k h^2; both are exact while
below 2^53 - 2p (``ModArith.limit``), i.e. k <= ``ModArith.chunk`` (32,767 for p = 1,048,573, so a block of
w <= 4096 columns is one product).  Products with longer inner dimensions are split into chunks,
each reduced.  The array leaf: entries brought to |x| <= (p-1)/2 <= h; a fraction-free step
x <- d x - f y has |d x|, |f y| <= h^2 and |d x - f y| <= 2 h^2 < 2^53 - 2p (p < 2^26), then is
reduced; the pivots' inverses are d^(p-2) by squaring, each product <= h^2.

Checks, independent of the elimination: before it starts, ``VECTORS`` seeded random vectors x
and M x are formed; afterwards the stored factors (L21 below the diagonal blocks, A11 and U12
on and above them, the Schur complement below-right) must give L (U x) = M x, and each A11 its
inverse times a random vector.  A wrong factor passes with probability at most p^-VECTORS.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from . import tuning
from .floatmod import ModArith
from .leaves import (
    LEAF_PRIME,
    ROUTES,
    array_leaf_inverse,
    default_route,
    host_inverse,
    kernel_leaf_inverse,
    leaf_inverse,
)
from .phases import phase

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from .device import DeviceArray

__all__ = ["BlockLU", "BLOCK_LU", "LEAF_PRIME", "VECTORS", "leaf_inverse", "array_leaf_inverse",
           "kernel_leaf_inverse", "host_inverse", "rank"]

#: How results name this kernel.
BLOCK_LU = "float64-block-lu"
#: Random vectors of the factorization check.
VECTORS = 4
# The tuned sizes, read where used (``verify.exact.tuning``): ``LEAF`` (leaves up to it are inverted by
# Gauss-Jordan), ``BLOCK_BAND_ENTRIES`` (the largest temporary of one product band), ``BLOCK_WIDTH`` (the
# default width of the diagonal blocks), ``SMALL`` (Schur complements up to it go to the pivoting
# elimination, larger ones, with ``project``, to a random projection: a lower bound).


class BlockLU:
    """Block LU without pivoting of a reduced float64 matrix over GF(p) (module ``ar.xp``).

    ``leaf``: a route of ``verify.exact.leaves.ROUTES`` (``"kernel"``, ``"host"``, ``"array"``); by
    default ``leaves.default_route`` for the array module (module notes)."""

    ar: ModArith
    xp: ModuleType
    p: int
    width: int
    leaf: str
    rng: random.Random
    flops: float

    def __init__(self, ar: ModArith, width: int | None = None, seed: int = 0, leaf: str | None = None) -> None:
        if ar.limbs != 1:
            raise ValueError(f"block LU needs one-limb products (p below about 2^23.5), not p = {ar.p}")
        if leaf is None:
            leaf = default_route(ar.xp)
        if leaf not in ROUTES:
            raise ValueError(f"leaf must be one of {', '.join(ROUTES)}, not {leaf!r}")
        width = tuning.BLOCK_WIDTH if width is None else width
        self.ar, self.xp, self.p, self.width, self.leaf = ar, ar.xp, ar.p, width, leaf
        self._sync = getattr(getattr(ar.xp, "cuda", None), "Device", None)
        self.rng = random.Random(f"blocklu:{seed}")
        self.flops = 0.0

    # ------------------------------------------------------------------ exact products
    def matmul(self, a: DeviceArray, b: DeviceArray) -> DeviceArray:
        """Reduced a @ b (a fresh array), split along the inner dimension into exact chunks."""
        xp, ar = self.xp, self.ar
        out = None
        for k in range(0, a.shape[1], ar.chunk):
            part = a[:, k:k + ar.chunk] @ b[k:k + ar.chunk]
            out = ar.reduce(part) if out is None else ar.reduce(out + ar.reduce(part))
        self.flops += 2.0 * a.shape[0] * a.shape[1] * b.shape[1]
        return out if out is not None else xp.zeros((a.shape[0], b.shape[1]), dtype=xp.float64)

    def submul(self, c: DeviceArray, a: DeviceArray, b: DeviceArray) -> None:
        """c <- c - a @ b reduced, in row bands (the temporary stays under ``tuning.BLOCK_BAND_ENTRIES``)."""
        xp, ar = self.xp, self.ar
        if c.shape[0] == 0 or c.shape[1] == 0 or a.shape[1] == 0:
            return
        if a.shape[1] > ar.chunk:
            for k in range(0, a.shape[1], ar.chunk):
                self.submul(c, a[:, k:k + ar.chunk], b[k:k + ar.chunk])
            return
        band = max(1, tuning.BLOCK_BAND_ENTRIES // c.shape[1])
        buf = xp.empty((min(band, c.shape[0]), c.shape[1]), dtype=xp.float64)
        for r in range(0, c.shape[0], band):
            part = c[r:r + band]
            tmp = buf[:part.shape[0]]
            xp.matmul(a[r:r + band], b, out=tmp)
            part -= tmp
            ar.reduce_in_place(part, tmp)  # |part| <= h + k h^2 <= LIMIT: exact, then reduced
        self.flops += 2.0 * a.shape[0] * a.shape[1] * b.shape[1]

    # ------------------------------------------------------------------ inverse of a diagonal block
    def inverse(self, a: DeviceArray) -> DeviceArray | None:
        """Reduced inverse of the reduced square ``a``, or None if a block on the way is singular."""
        with phase("leaves", self.synchronize):
            if self.leaf == "host":
                return self._inverse(a, None)
            flags = []
            out = self._inverse(a, flags)
            ok = flags[0]
            for flag in flags[1:]:
                ok = self.xp.logical_and(ok, flag)
            return out if bool(ok) else None  # one read back per diagonal block

    def synchronize(self) -> None:
        """Wait for the device's queued work (for the phases' seconds); nothing with numpy."""
        if self._sync is not None:
            self._sync().synchronize()

    def _leaf(self, a: DeviceArray, flags):
        if self.leaf == "host":
            host = a.get() if hasattr(a, "get") else np.asarray(a)
            inv = leaf_inverse(np.ascontiguousarray(host, dtype=np.float64), self.p)
            return None if inv is None else self.xp.asarray(inv)
        if self.leaf == "kernel":
            inv, ok = kernel_leaf_inverse(self.ar, a[None])
            flags.append(ok[0])
            return inv[0]
        inv, ok = array_leaf_inverse(self.ar, a)
        flags.append(ok)
        return inv

    def _inverse(self, a: DeviceArray, flags):
        """The recursion of ``inverse``; with ``flags`` (a list) the leaves append their device flags
        instead of returning None (the result is then meaningless unless every flag is True)."""
        xp, w = self.xp, a.shape[0]
        if w <= tuning.LEAF:
            return self._leaf(a, flags)
        h = w // 2
        p11, p12, p21, p22 = a[:h, :h], a[:h, h:], a[h:, :h], a[h:, h:]
        i11 = self._inverse(p11, flags)
        if i11 is None:
            return None
        x = self.matmul(i11, p12)  # A11^-1 A12
        t = p22.copy()
        self.submul(t, p21, x)  # T = A22 - A21 A11^-1 A12
        ti = self._inverse(t, flags)
        if ti is None:
            return None
        y = self.matmul(p21, i11)  # A21 A11^-1
        out = xp.empty_like(a)
        out[h:, h:] = ti
        out[h:, :h] = -self.matmul(ti, y)  # -T^-1 A21 A11^-1
        out[:h, h:] = -self.matmul(x, ti)  # -A11^-1 A12 T^-1
        upper = i11.copy()
        self.submul(upper, x, out[h:, :h])  # A11^-1 + A11^-1 A12 T^-1 A21 A11^-1
        out[:h, :h] = upper
        return out

    # ------------------------------------------------------------------ the factorization
    def random(self, rows: int, cols: int) -> Any:
        """A seeded uniform random matrix over GF(p), reduced: drawn and centred on the host, then copied
        (no read back from the device, as ``ModArith.from_ints`` would need for its range check)."""
        gen = np.random.default_rng([self.rng.randrange(2**63), rows, cols])
        values = gen.integers(0, self.p, size=(rows, cols), dtype=np.int64)
        values -= self.p * (values > self.p // 2)  # |x| <= (p - 1)/2 <= h: reduced
        return self.xp.asarray(values.astype(np.float64))

    def factor(self, m: DeviceArray, check: bool = True) -> tuple[int, list[int]]:
        """Eliminate ``m`` (reduced float64, overwritten with the factors) block by block.

        Returns (pivots, block widths): rank(m) = pivots + rank(m[pivots:, pivots:]), which then
        holds the Schur complement (empty when pivots = min(m.shape))."""
        xp, ar = self.xp, self.ar
        rows, cols = m.shape
        xs = ys = None
        if check:
            with phase("check", self.synchronize):
                xs = self.random(cols, VECTORS)
                ys = self.matmul(m, xs)
        k0, widths, w = 0, [], self.width
        while k0 < min(rows, cols):
            w = min(w, rows - k0, cols - k0)
            a11 = m[k0:k0 + w, k0:k0 + w]
            inv = self.inverse(xp.ascontiguousarray(a11))
            if inv is None:
                if w > tuning.LEAF:
                    w //= 2  # a smaller diagonal block may still be invertible
                    continue
                break
            if check:  # A11 A11^-1 = I on a random vector
                with phase("check", self.synchronize):
                    v = self.random(w, 1)
                    if not bool((ar.reduce(self.matmul(a11, self.matmul(inv, v)) - v) == 0).all()):
                        raise RuntimeError(f"block LU: the inverse of the diagonal block at {k0} is wrong")
            if k0 + w < rows:
                lower = self.matmul(xp.ascontiguousarray(m[k0 + w:, k0:k0 + w]), inv)  # L21
                m[k0 + w:, k0:k0 + w] = lower
                if k0 + w < cols:
                    self.submul(m[k0 + w:, k0 + w:], lower, xp.ascontiguousarray(m[k0:k0 + w, k0 + w:]))
                del lower
            widths.append(w)
            k0 += w
            w = self.width  # back to full blocks after a halving
        if check:
            with phase("check", self.synchronize):
                self._check(m, k0, widths, xs, ys)
        return k0, widths

    def _check(self, m: DeviceArray, k0: int, widths: list[int], xs, ys) -> None:
        """L (U x) = M x for the stored factors (module notes)."""
        ar = self.ar
        rows, cols = m.shape
        z = self.matmul(m[k0:, k0:], xs[k0:]) if k0 < rows and k0 < cols else None
        # U x: block row of each diagonal block: [A11 A12] x, rows k0.. : the Schur complement part
        ux = self.xp.zeros_like(ys)
        start = 0
        for w in widths:
            ux[start:start + w] = self.matmul(m[start:start + w, start:], xs[start:])
            start += w
        if z is not None:
            ux[k0:] = z
        # L (U x): unit lower block triangular, L21 stored below each diagonal block
        lux = ux.copy()
        start = 0
        for w in widths:
            if start + w < m.shape[0]:
                self.submul(lux[start + w:], -m[start + w:, start:start + w], ux[start:start + w])
            start += w
        if not bool((ar.reduce(lux - ys) == 0).all()):
            raise RuntimeError("block LU: L U x != M x, the factorization is wrong")


def _engine_rank(xp: ModuleType, p: int):
    from .elimination import rank_mod_p

    return lambda s: rank_mod_p(s, p, xp=xp)


def rank(matrix: DeviceArray, ar: ModArith, width: int | None = None, seed: int = 0, check: bool = True,
         fallback: Callable[[DeviceArray], int] | None = None,
         small: int | None = None, project: int = 0, leaf: str | None = None) -> dict[Any, Any]:
    """Rank of a reduced float64 matrix (consumed) by block LU; when a diagonal block is singular the
    Schur complement S left is ranked by ``fallback`` (default: the engine's pivoting elimination
    ``verify.exact.elimination.rank_mod_p`` on the same array module; ``fallback(int64 matrix) -> int``)
    if its sides are at most ``small`` (default ``tuning.SMALL``; ``width`` default ``tuning.BLOCK_WIDTH``).
    A larger S gets, with ``project``, the rank of U S V for seeded
    random U (project x rows) and V (cols x project): a lower bound on rank(S), equal to it unless a
    minor vanishes at U, V (Schwartz-Zippel) or rank(S) >= project; ``exact`` is then False and
    ``rank`` a lower bound.

    >>> ar = ModArith(1048573)
    >>> m = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8]])  # a zero first pivot: the fallback ranks it
    >>> rank(ar.from_ints(m), ar)["rank"]
    2
    """
    start = time.perf_counter()
    small = tuning.SMALL if small is None else small
    if fallback is None:
        fallback = _engine_rank(ar.xp, ar.p)
    lu = BlockLU(ar, width, seed, leaf)
    pivots, widths = lu.factor(matrix, check)
    rest, exact = 0, True
    schur = matrix[pivots:, pivots:]
    if schur.shape[0] and schur.shape[1] and bool(ar.nonzero(schur).any()):
        rest = fallback(ar.to_ints(schur)) if max(schur.shape) <= small else None
        if rest is None and project:
            s = min(project, *schur.shape)
            y = lu.matmul(lu.random(s, schur.shape[0]), lu.matmul(schur, lu.random(schur.shape[1], s)))
            rest = fallback(ar.to_ints(y))
            exact = False
        if rest is None:
            return {"rank": None, "pivots": pivots, "schur": list(schur.shape), "flops": lu.flops,
                    "exact": False, "seconds": time.perf_counter() - start}
    return {"rank": pivots + rest, "pivots": pivots, "schur": list(schur.shape), "flops": lu.flops,
            "exact": exact, "seconds": time.perf_counter() - start}
