"""Every tuned cut-off of the mod-p layer in one module, each with what measured it and when.

A *tuned* value is a speed choice: changing it changes how long a rank takes, never the rank.  The
exactness bounds (a float64 sum below 2^53, an int64 sum below 2^63) are not here: they are derived,
and live beside the code they make exact (``verify.exact.modp``, ``verify.exact.floatmod``).

Kernel choice and pricing (``verify.exact.kernels``):

* ``FLOAT_MIN``: shortest side from which a GF(p) matrix (p < 2^50) goes to the float64 elimination;
  below it FLINT's conversion and elimination cost less.  Measured on 50..1600-sized squares when the
  float route was added (commit ae02b2b, 2026-11-26).
* ``FLOAT_BYTES``, ``FLINT_BYTES``: bytes an entry costs each kernel, for the memory estimates (one
  float64 eliminated in place; FLINT's int64 slice, its transposed copy, the nmod_mat and the null-space
  basis: 25.8 measured on a 4000 x 4032 slice, commit 0c3e37d, 2026-11-26).
* ``SECONDS``: seconds to rank an n x n matrix, per kernel family, from one run of ``python
  benchmarks/elimination.py --sizes 500,1000,2000,4000`` on 2026-11-27 (docs/performance.md, "Two
  limbs"): the float elimination at 2^40 - 87 (two limbs, Karatsuba) and FLINT's nmod_mat at 2^63 - 25.
  The float row was measured at two limbs only; the same row prices one and three limbs.
  ``seconds(kernel, side)`` interpolates it.

Product plans (``verify.exact.floatmod``, ``verify.exact.karatsuba``):

* ``MIN_CHUNK``: fewest inner indices per exact float64 product worth a BLAS call; fewer limbs are
  preferred while their chunk is at least this long (commit 7b08595, 2026-11-26).
* ``TILE_ENTRIES``: largest temporary (entries) one product tile may allocate (128 MiB of float64).
* ``BAND_ENTRIES``: entries per row band of the elementwise passes on numpy arrays, so that a band
  stays in cache (a 3000^2 reduction: 0.046 s whole, 0.018 s banded).
* ``KARATSUBA_TILE``: largest scratch array of a Karatsuba product (9 x 8 x 2^22 bytes = 288 MiB).

Elsewhere, not moved here in this change (they belong to the device work of issue 32, which another
branch edits): ``verify.exact.device.GPU_MIN`` (4,096, an estimate, not yet measured on a GPU) and the
block LU's ``LEAF``, ``WIDTH``, ``SMALL`` and ``BAND_ENTRIES`` in ``verify.exact.blocklu``.
"""

from __future__ import annotations

import math

__all__ = ["FLOAT_MIN", "FLOAT_BYTES", "FLINT_BYTES", "SECONDS", "seconds", "MIN_CHUNK", "TILE_ENTRIES",
           "BAND_ENTRIES", "KARATSUBA_TILE"]

FLOAT_MIN = 256
FLOAT_BYTES = 8
FLINT_BYTES = 28

#: Per kernel family, (n, seconds to rank an n x n matrix) (module notes for what measured them).
SECONDS = {
    "float": ((500, 0.053), (1000, 0.127), (2000, 0.516), (4000, 2.18)),
    "flint": ((500, 0.031), (1000, 0.243), (2000, 1.718), (4000, 12.675)),
}

MIN_CHUNK = 256
TILE_ENTRIES = 2**24
BAND_ENTRIES = 2**15
KARATSUBA_TILE = 2**22


def seconds(family: str, side: int) -> float:
    """Seconds to rank a matrix of short side ``side`` in ``family`` ("float" or "flint"): log-log
    interpolation in ``SECONDS``, extended beyond its ends along the end segments.

    >>> round(seconds("flint", 4000), 3), round(seconds("float", 2828), 2)
    (12.675, 1.06)
    """
    points = [(math.log(n), math.log(s)) for n, s in SECONDS[family]]
    x = math.log(max(side, 1))
    index = min(max(1, sum(1 for point in points if point[0] < x)), len(points) - 1)
    (x0, y0), (x1, y1) = points[index - 1], points[index]
    return math.exp(y0 + (y1 - y0) * (x - x0) / (x1 - x0))
