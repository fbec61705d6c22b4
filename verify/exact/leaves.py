"""Inverses of small diagonal blocks ("leaves") over GF(p), for the block LU (``verify.exact.blocklu``).

Three routes (``ROUTES``) with one contract: reduced float64 in, reduced float64 inverse out
(|x| <= h = (p-1)/2 + 2, ``verify.exact.floatmod``), or "singular".

* ``"kernel"`` (``kernel_leaf_inverse``): Gauss-Jordan with row swaps as *one* kernel launch per leaf
  (or per batch of independent leaves): a ``numba.cuda`` kernel (``leaf_cuda.gauss_jordan``, one thread
  block a leaf, threads over columns) on a GPU; its CPU twin ``_twin_gauss_jordan`` (numba on the
  host, the same steps in the same order) with numpy.  Its singular flags stay on the device.
* ``"host"`` (``leaf_inverse``): the leaf copied to the host, Gauss-Jordan with row swaps compiled by
  numba, copied back (two copies and one host read per leaf); FLINT (``host_inverse``) for
  p >= ``LEAF_PRIME``.
* ``"array"`` (``array_leaf_inverse``): fraction-free Gauss-Jordan in array operations of the array
  module: nothing read back, but about 15 launches per column (2,000 per 128-wide leaf).  Kept for
  the comparison ``benchmarks/gpu_reach.py`` times and for the launch-budget test that must fail on it.

``LAUNCHES`` says how many kernel launches each route costs per leaf; ``default_route`` picks the
measured winner (``verify.exact.tuning.LEAF_ROUTE``) or, until a device measured one, the route with
the fewest launches.

By hand because neither numpy, cupy nor FLINT inverts a matrix modulo a prime inside an array module;
FLINT's own inverse costs more in conversions than in arithmetic at this size (``leaf_inverse``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from .floatmod import ModArith

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from .device import DeviceArray

__all__ = ["LEAF_PRIME", "ROUTES", "LAUNCHES", "default_route", "host_inverse", "leaf_inverse", "array_leaf_inverse",
           "kernel_leaf_inverse", "twin_leaf_inverse", "MAX_KERNEL_LEAF"]

#: The leaf routes, by name (module notes).
ROUTES = ("kernel", "host", "array")
#: Operations queued on the device per w-wide leaf of each route (kernel launches and copies): one
#: kernel; the host leaf's contiguous copy, its copy to the host and the inverse's copy back (and a
#: host round trip); about 15 launches per column (``array_leaf_inverse``'s loop body).  The budget
#: ``tests/exact/test_launch_budget.py`` holds the block LU to.
LAUNCHES: dict[str, Callable[[int], int]] = {"kernel": lambda w: 1, "host": lambda w: 3, "array": lambda w: 15 * w}
#: Widest leaf the kernel route takes (its factor column lives in the thread block's shared memory).
MAX_KERNEL_LEAF = 1024


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
def _gauss_jordan(m: DeviceArray, p, pinv) -> bool:  # pragma: no cover - compiled; tested through leaf_inverse
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


def _power(ar: ModArith, x: DeviceArray, e: int):
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


def array_leaf_inverse(ar: ModArith, block: DeviceArray) -> tuple[DeviceArray, DeviceArray]:
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


# ---------------------------------------------------------------------------------------------- the kernel route
# Exactness (both the kernel and its twin): the input is brought to |x| <= (p - 1)/2 (a zero residue is
# then 0.0) and every later entry is reduced to |x| <= h = (p - 1)/2 + 2 by x - floor(x fl(1/p) + 1/2) p.
# A scaled pivot row has |x s| <= h (p - 1), an elimination step |x - f y| <= h + h^2; for p < 2^26 both
# are at most LIMIT = 2^53 - 2p (``tests/exact/test_blocklu.py::test_leaf_prime_keeps_every_step_exact``
# at the largest p), so each is an exact float64 integer.  |x / p| < 2^53 / p, so fl(1/p) x is within
# 2^-52 |x / p| <= 2^53 / p 2^-52 = 2/p of x / p, and floor(. + 1/2) (the addition is exact: |x fl(1/p)|
# < 2^52) is within 1/2 + 2/p of x / p: |x - q p| <= p/2 + 2 <= h + 1/2, an integer, so <= h.  The same
# bound as ``ModArith.reduce``'s rint (floor(. + 1/2) because the simulator and numba.cuda both have it;
# the two differ only on ties, where both bounds hold).  The pivot's inverse: the extended Euclidean
# algorithm in int64 (|x| < p < 2^26).


@njit(cache=True)
def _twin_gauss_jordan(a: DeviceArray, m: DeviceArray, out, ok: DeviceArray, p,
                       pinv) -> None:  # pragma: no cover - compiled; tested through twin_leaf_inverse
    """The CPU twin of ``verify.exact.leaf_cuda.gauss_jordan``: for each leaf b of the stack ``a``
    (batch x w x w), [A | I] in ``m`` (batch x w x 2w) to [I | A^-1], the inverse to ``out[b]``, ok[b] = 0
    if singular."""
    w = a.shape[1]
    for b in range(a.shape[0]):
        for i in range(w):
            for j in range(2 * w):
                if j < w:
                    x = a[b, i, j]
                    m[b, i, j] = x - np.floor(x * pinv + 0.5) * p
                else:
                    m[b, i, j] = 1.0 if j - w == i else 0.0
        ok[b] = 1
        for c in range(w):
            r = c
            while r < w and m[b, r, c] == 0.0:
                r += 1
            if r == w:
                ok[b] = 0
                break
            x0, x1, u, v = 1, 0, int(m[b, r, c]), p
            if u < 0:
                u += p
            while v:
                q = u // v
                u, v = v, u - q * v
                x0, x1 = x1, x0 - q * x1
            if x0 < 0:
                x0 += p
            scale = float(x0)
            for j in range(c, 2 * w):
                t = m[b, r, j]
                m[b, r, j] = m[b, c, j]
                y = t * scale
                m[b, c, j] = y - np.floor(y * pinv + 0.5) * p
            for i in range(w):
                f = m[b, i, c]
                if i == c or f == 0.0:
                    continue
                for j in range(c, 2 * w):
                    y = m[b, i, j] - f * m[b, c, j]
                    m[b, i, j] = y - np.floor(y * pinv + 0.5) * p
        for i in range(w):
            for j in range(w):
                out[b, i, j] = m[b, i, w + j]


_CUDA: list[Any] = []


def cuda_kernel() -> Any:  # numba's CUDA dispatcher (numba is untyped)
    """The ``numba.cuda`` leaf kernel (``verify.exact.leaf_cuda``, imported on first use: numba-cuda is
    optional, ``pip install 'seprank-verify[gpu-cuda12]'``)."""
    if not _CUDA:
        from .leaf_cuda import gauss_jordan

        _CUDA.append(gauss_jordan)
    return _CUDA[0]


def cuda_available() -> bool:
    """Whether numba-cuda can be imported (the kernel route's GPU launcher)."""
    try:
        import numba.cuda  # noqa: F401
    except ImportError:
        return False
    return True


def _launch(xp: ModuleType, a: DeviceArray, m: DeviceArray, out, ok: DeviceArray, p: int) -> None:
    """One launch of the leaf kernel on the stack ``a``: the CPU twin with numpy; ``xp.host_kernel`` where
    the array module offers one (a host stand-in for cupy, ``verify.testing.fake_cupy``: it counts the
    launch and runs the twin on its host arrays); the ``numba.cuda`` kernel on cupy's current stream."""
    if xp is np:
        _twin_gauss_jordan(a, m, out, ok, p, 1.0 / p)
        return
    stand_in = getattr(xp, "host_kernel", None)
    if stand_in is not None:
        stand_in(_twin_gauss_jordan, a, m, out, ok, p, 1.0 / p)
        return
    from numba import cuda

    threads = min(1024, max(32, 2 * a.shape[1]))
    stream = cuda.external_stream(xp.cuda.get_current_stream().ptr)  # cupy's stream: ordered with its work
    # views of cupy's memory without numba's synchronisation on the exporting stream (the launch is on it)
    args = [cuda.as_cuda_array(x, sync=False) for x in (a, m, out, ok)]
    cuda_kernel()[a.shape[0], threads, stream](*args, p, 1.0 / p)


def kernel_leaf_inverse(ar: ModArith, blocks: DeviceArray,
                        ok: DeviceArray | None = None) -> tuple[DeviceArray, DeviceArray]:
    """(inverses, ok) of a stack of small reduced float64 matrices (batch x w x w, array module ``ar.xp``,
    any strides) over GF(p), p < ``LEAF_PRIME``, in one kernel launch; ``ok`` (int32, one a leaf, on the
    device; written when given) is 0 where a leaf is singular.  Nothing is read back."""
    xp, p = ar.xp, ar.p
    if p >= LEAF_PRIME:
        raise ValueError(f"the kernel leaf needs p < 2^26, not {p}")
    batch, w = blocks.shape[0], blocks.shape[1]
    if w > MAX_KERNEL_LEAF:
        raise ValueError(f"the kernel leaf takes leaves up to {MAX_KERNEL_LEAF} wide, not {w}")
    m = xp.empty((batch, w, 2 * w), dtype=xp.float64)
    out = xp.empty((batch, w, w), dtype=xp.float64)
    if ok is None:
        ok = xp.empty((batch,), dtype=xp.int32)
    _launch(xp, blocks, m, out, ok, p)
    return out, ok


def twin_leaf_inverse(block: np.ndarray, p: int) -> np.ndarray | None:
    """The kernel route's CPU twin on one numpy leaf: its inverse, or None if singular (for tests)."""
    out, ok = kernel_leaf_inverse(ModArith(p, np), np.ascontiguousarray(block, dtype=np.float64)[None])
    return out[0] if ok[0] else None


def default_route(xp: ModuleType) -> str:
    """The leaf route of the block LU on array module ``xp``: ``host`` with numpy (no copies there);
    on a device the measured winner ``tuning.LEAF_ROUTE`` if any, else the route with the fewest
    launches that can run (``kernel`` when numba-cuda imports or the module is a host stand-in)."""
    from . import tuning

    if xp is np:
        return "host"
    if tuning.LEAF_ROUTE is not None:
        return tuning.LEAF_ROUTE
    runnable = [r for r in ROUTES if r != "kernel" or getattr(xp, "host_kernel", None) or cuda_available()]
    return min(runnable, key=lambda r: LAUNCHES[r](tuning.LEAF))
