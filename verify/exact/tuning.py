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
  The float row was measured at two limbs only, on the CPU; the same row prices one and three limbs,
  and the block LU (no GPU price has been measured).
  ``seconds(kernel, side)`` interpolates it.

Product plans (``verify.exact.floatmod``, ``verify.exact.karatsuba``):

* ``MIN_CHUNK``: fewest inner indices per exact float64 product worth a BLAS call; fewer limbs are
  preferred while their chunk is at least this long (commit 7b08595, 2026-11-26).
* ``TILE_ENTRIES``: largest temporary (entries) one product tile may allocate (128 MiB of float64).
* ``BAND_ENTRIES``: entries per row band of the elementwise passes on numpy arrays, so that a band
  stays in cache (a 3000^2 reduction: 0.046 s whole, 0.018 s banded).
* ``KARATSUBA_TILE``: largest scratch array of a Karatsuba product (9 x 8 x 2^22 bytes = 288 MiB).

The float elimination (``verify.exact.elimination``) and its factorization check (``verify.exact.factorcheck``):

* ``BASE``: columns below which the elimination (and rows below which the triangular solve) runs one
  pivot at a time (commit 7b08595, 2026-11-26); ``TRSM_BASE``: rows up to which the triangular solve
  is one product with the inverse of its diagonal block (commit 94bd33b, 2026-11-26, "elimination
  overheads").
* ``PLAIN_MIN_CHUNK``: shortest inner chunk of the check's plain one-limb products; below it (p above
  about 2^23.5) the check uses digits (commit b3e00a2, 2026-11-27).
* ``BAND``: rows per band when the stored factors are multiplied (commit f2b15c4, 2026-11-26).
* ``READ_BAND``: entries per band when the check reads the caller's matrix (512 KiB of float64, so
  that a band's conversion stays in cache); ``DEVICE_READ_BAND`` on a GPU, so that each host-to-device
  copy moves a large band; ``DIGIT_READ_BAND`` where the check's products take digits or rows are
  longer than one plain chunk.

Batches of the callers of ``verify.exact.modp``:

* ``TOKEN_BATCH``: points per numpy batch of the token routes' Gram model (``verify.rank.token.gram``,
  commit 1eb0ef0, 2026-11-26): a few arrays of that many d x d int64.
* ``GRID_BLOCK_POINTS``: grid points per numpy block of the certificate's grid
  (``verify.constructions.grid_eval``): a few MiB of float64 per array at d_x = 30.

The device (``verify.exact.device``) and the block LU (``verify.exact.blocklu``), carried over from the GPU
scripts (commit 4ba7f49 and 989e2d1, 2026-11-27); none has been measured on a GPU by the engine yet:

* ``GPU_MIN``: shortest side of the largest matrix from which ``auto`` takes the GPU: below it the
  host-to-device copies and the per-pivot launches cost more than the CPU's whole elimination (an
  estimate: the CPU ranks a 4,000^2 matrix mod p in seconds).
* ``LEAF``: diagonal blocks up to this size are leaves, inverted by Gauss-Jordan.
* ``LEAF_ROUTE``: the block LU's leaf route on a GPU (``verify.exact.leaves.ROUTES``), the winner of
  ``benchmarks/gpu_reach.py``'s leaf stage, with ``LEAF_ROUTE_MEASURED`` (device, date and each route's
  seconds).  None until a device has measured one: ``leaves.default_route`` then takes the route with
  the fewest launches (the kernel leaf: one launch a leaf).
* ``BLOCK_WIDTH``: default width of the diagonal blocks.
* ``BLOCK_BAND_ENTRIES``: largest temporary (entries) of one block-LU product band (2^27 float64: 1 GiB on
  a device; ``BAND_ENTRIES`` above is the host's cache-sized band, another value for another purpose).
* ``SMALL``: Schur complements up to this side go to the pivoting elimination; larger ones, with
  ``project``, to a random projection (a lower bound).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["FLOAT_MIN", "FLOAT_BYTES", "FLINT_BYTES", "SECONDS", "seconds", "MIN_CHUNK", "TILE_ENTRIES",
           "BAND_ENTRIES", "KARATSUBA_TILE", "BASE", "TRSM_BASE", "PLAIN_MIN_CHUNK", "BAND", "READ_BAND",
           "DEVICE_READ_BAND", "DIGIT_READ_BAND", "TOKEN_BATCH", "GRID_BLOCK_POINTS", "GPU_MIN", "LEAF",
           "LEAF_ROUTE", "LEAF_ROUTE_MEASURED", "BLOCK_WIDTH", "BLOCK_BAND_ENTRIES", "SMALL"]

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

BASE = 16
TRSM_BASE = 16
PLAIN_MIN_CHUNK = 256
BAND = 512
READ_BAND = 2**16
DEVICE_READ_BAND = 2**24
DIGIT_READ_BAND = 2**22

TOKEN_BATCH = 1 << 15
GRID_BLOCK_POINTS = 2**14

GPU_MIN = 4096
LEAF = 128
LEAF_ROUTE: str | None = None
LEAF_ROUTE_MEASURED: dict[Any, Any] | None = None
BLOCK_WIDTH = 1024
BLOCK_BAND_ENTRIES = 2**27
SMALL = 6144


def seconds(family: str, side: int) -> float:
    """Seconds to rank a matrix of short side ``side`` in ``family`` ("float" or "flint"): log-log
    interpolation in ``SECONDS``, extended beyond its ends along the end segments.

    >>> round(seconds("flint", 4000), 3), round(seconds("float", 2828), 2), seconds("float", 10**300)
    (12.675, 1.06, inf)
    """
    points = [(math.log(n), math.log(s)) for n, s in SECONDS[family]]
    x = math.log(max(side, 1))
    index = min(max(1, sum(1 for point in points if point[0] < x)), len(points) - 1)
    (x0, y0), (x1, y1) = points[index - 1], points[index]
    log_seconds = y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return math.exp(log_seconds) if log_seconds < 700 else math.inf  # a shape far past any reach: no price
