"""Right null space over GF(p) from the float64 PLUQ of ``elimination``, optionally mixed down.

After P M Q = L U with U = [U11 U12] (U11 r x r upper triangular, invertible), M x = 0 exactly
when U Q^T x = 0 (L has full column rank), i.e. Q^T x = [-U11^{-1} U12 w; w] for any w.  With w
the columns of the identity these are a basis; with w the columns of a given (cols - r) x t
matrix H they are the basis times H (random combinations, as ``rank.degree_blocks`` mixes a wide
null space).  U12 H is one product and U11^{-1} (U12 H) a recursive upper-triangular solve, so the
mixed rows cost O(r^2 t), never the whole basis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import tuning
from .elimination import factor
from .factorcheck import check_null_rows

if TYPE_CHECKING:
    from types import ModuleType

    from .device import DeviceArray
    from .factorcheck import Sketch
    from .floatmod import ModArith

__all__ = ["NullSpace", "null_space"]


class NullSpace:
    """The right null space of a matrix over GF(p): ``rank``, ``nullity`` and ``rows(mix)``."""

    ar: ModArith
    a: DeviceArray  # the factored copy (PLUQ in place)
    colperm: list[int]
    rank: int
    sketch: Sketch | None
    cols: int
    nullity: int

    def __init__(self, matrix: DeviceArray, p: int, xp: ModuleType | None = None, overwrite: bool = False) -> None:
        self.ar, self.a, _, self.colperm, self.rank, self.sketch = factor(matrix, p, xp, overwrite=overwrite,
                                                                           left=True)
        self.cols = self.a.shape[1]
        self.nullity = self.cols - self.rank

    def _upper_solve(self, r0: int, r: int, b: DeviceArray) -> None:
        """b <- U[r0:r0+r, r0:r0+r]^{-1} b in place (U upper triangular with its pivots on the diagonal)."""
        ar, a = self.ar, self.a
        if r <= tuning.BASE:
            for j in reversed(range(r)):
                b[j] = ar.mul(b[j], ar.inverse(a[r0 + j, r0 + j]))
                if j:
                    b[:j] -= ar.mul(a[r0:r0 + j, r0 + j, None], b[j][None, :])
                    ar.reduce(b[:j])
            return
        half = r // 2
        self._upper_solve(r0 + half, r - half, b[half:])
        ar.submul(b[:half], a[r0:r0 + half, r0 + half:r0 + r], b[half:])
        self._upper_solve(r0, half, b[:half])

    def rows(self, mix: np.ndarray | None = None) -> np.ndarray:
        """Null vectors as rows (t x cols int64 in [0, p)): a basis (t = nullity), or the basis
        times ``mix`` (a nullity x t integer matrix), i.e. rows x^T with M x = 0."""
        ar, xp, r = self.ar, self.ar.xp, self.rank
        if mix is None:
            w = xp.eye(self.nullity, dtype=xp.float64)
        else:
            w = ar.from_ints(np.asarray(mix, dtype=object) if getattr(mix, "dtype", None) == object else mix)
        top = xp.zeros((r, w.shape[1]), dtype=xp.float64)
        ar.submul(top, self.a[:r, r:], w)  # -U12 w
        self._upper_solve(0, r, top)  # -U11^{-1} U12 w
        z = xp.concatenate([top, w], axis=0)  # Q^T x
        x = xp.empty_like(z)
        x[xp.asarray(self.colperm)] = z
        out = ar.to_ints(x).T
        if self.sketch is not None:  # every returned vector is checked against z^T M, drawn before
            check_null_rows(ar, self.sketch, out, self.a.shape, free=self.colperm[r:], mix=mix)
        return np.ascontiguousarray(out.get() if hasattr(out, "get") else out)


def null_space(matrix: DeviceArray, p: int, xp: ModuleType | None = None, overwrite: bool = False) -> NullSpace:
    """The right null space {x : matrix @ x = 0} over GF(p) (``NullSpace``); ``overwrite`` lets the
    elimination consume an int64 numpy input's memory.

    >>> ns = null_space(np.array([[1, 2, 3], [2, 4, 6]]), 7)
    >>> ns.rank, ns.nullity
    (1, 2)
    >>> (np.array([[1, 2, 3]]) @ ns.rows().T % 7).tolist()
    [[0, 0]]
    """
    return NullSpace(matrix, p, xp, overwrite)
