"""The kernel leaf route's ``numba.cuda`` kernel (``verify.exact.leaves``): Gauss-Jordan with row swaps on
a stack of leaves over GF(p), one launch for the stack, one thread block a leaf.

Thread t of a block owns columns t, t + T, ... of [A | I]: it swaps and scales them in the pivot row and
eliminates them in every other row, so a step needs three barriers and no atomics; thread 0 finds the
pivot and its inverse (the extended Euclidean algorithm in int64).  The same steps, in the same order, as
its CPU twin ``leaves._twin_gauss_jordan``; exactness: the notes above that twin (every sum at most
h + h^2 < 2^53 - 2p for p < 2^26, each reduced by x - floor(x fl(1/p) + 1/2) p to |x| <= h).

Imported only to launch it on a GPU (numba-cuda is an optional extra) or under numba-cuda's simulator
(``NUMBA_ENABLE_CUDASIM=1``: ``tests/exact/test_leaf_kernel.py``).  By hand because neither cupy,
cuSOLVER nor numba offers an inverse modulo a prime.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from numba import cuda, float64, int64

if TYPE_CHECKING:
    from .device import DeviceArray

__all__ = ["gauss_jordan"]


@cuda.jit
def gauss_jordan(a: DeviceArray, m: DeviceArray, out: DeviceArray, ok: DeviceArray, p: float,
                 pinv: float) -> None:  # pragma: no cover - runs on a device or the simulator
    b = cuda.blockIdx.x
    t = cuda.threadIdx.x
    nt = cuda.blockDim.x
    w = a.shape[1]
    state = cuda.shared.array(2, int64)  # pivot row, pivot inverse
    f = cuda.shared.array(1024, float64)  # the factor column (MAX_KERNEL_LEAF)
    for k in range(t, 2 * w * w, nt):
        i, j = k // (2 * w), k % (2 * w)
        if j < w:
            x = a[b, i, j]
            m[b, i, j] = x - math.floor(x * pinv + 0.5) * p
        else:
            m[b, i, j] = 1.0 if j - w == i else 0.0
    if t == 0:
        ok[b] = 1
    cuda.syncthreads()
    for c in range(w):
        if t == 0:
            r = c
            while r < w and m[b, r, c] == 0.0:
                r += 1
            state[0] = r
            if r == w:
                ok[b] = 0
            else:
                x0, x1, u, v = 1, 0, int64(m[b, r, c]), int64(p)
                if u < 0:
                    u += p
                while v != 0:
                    q = u // v
                    u, v = v, u - q * v
                    x0, x1 = x1, x0 - q * x1
                if x0 < 0:
                    x0 += p
                state[1] = x0
        cuda.syncthreads()
        r = state[0]
        if r == w:
            return  # every thread reads the same r: all leave together
        scale = float64(state[1])
        for j in range(c + t, 2 * w, nt):  # swap rows r and c, scale the pivot row (own columns)
            y = m[b, r, j]
            m[b, r, j] = m[b, c, j]
            y = y * scale
            m[b, c, j] = y - math.floor(y * pinv + 0.5) * p
        cuda.syncthreads()
        for i in range(t, w, nt):
            f[i] = m[b, i, c]
        cuda.syncthreads()
        for j in range(c + t, 2 * w, nt):
            pivot = m[b, c, j]
            for i in range(w):
                if i != c and f[i] != 0.0:
                    y = m[b, i, j] - f[i] * pivot
                    m[b, i, j] = y - math.floor(y * pinv + 0.5) * p
        cuda.syncthreads()
    for k in range(t, w * w, nt):
        out[b, k // w, k % w] = m[b, k // w, w + k % w]
