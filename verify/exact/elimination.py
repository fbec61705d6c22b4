"""Rank (and pivots) over GF(p) by a recursive PLUQ whose updates are float64 BLAS products.

The design follows the recursive PLUQ of FFLAS-FFPACK and FLINT's recursive ``nmod_mat_lu``
(Dumas, Pernet, Sultan, "Simultaneous computation of the row and column rank profiles", ISSAC
2013; Jeannerod, Pernet, Storjohann 2013): split the columns in halves, eliminate the left half,
solve for the right half's top rows with a triangular solve, update the rest with one matrix
product C <- C - L21 U12, eliminate the rest, and move its pivot columns next to the left half's.
Products go through ``floatmod.ModArith.submul``: exact float64 BLAS calls over inner chunks
short enough that no partial sum reaches 2^53 (the delayed reduction of FFLAS), reduced after
each chunk.  Below ``BASE`` columns the elimination is a rank-one update per pivot, on a
contiguous transposed copy of the panel (its row and column swaps are applied to the rest of the
array afterwards, in order); up to ``TRSM_BASE`` rows the triangular solve is one product with
the inverse of the diagonal block.

Row swaps act on whole rows and column moves on whole columns, so between base panels the array is
P A Q with L (unit lower, below the diagonal of the pivot columns) and U stored in place, and
the first ``rank`` entries of the row and column permutations are the pivot rows and columns:
the submatrix of A on them is invertible (its U part is triangular with a nonzero diagonal).
Pivot columns are the lexicographically first independent columns (the column rank profile).

Name of the method in results: ``ELIMINATION``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from . import tuning
from .factorcheck import CHECK, Sketch, check_factorization, sketch
from .floatmod import ModArith
from .phases import phase

if TYPE_CHECKING:
    from types import ModuleType

    from .device import DeviceArray

__all__ = ["ELIMINATION", "CHECK", "PivotRank", "rank_mod_p", "factor", "plan"]

#: How results name this elimination.
ELIMINATION = "float64-blas-pluq"
# BASE (columns below which the elimination, and rows below which the triangular solve, runs one pivot
# at a time) and TRSM_BASE (rows up to which the triangular solve is one product with the inverse of its
# diagonal block) are tuned values: ``verify.exact.tuning``.


@dataclass(frozen=True)
class PivotRank:
    """A rank over GF(``prime``), with the pivot rows and columns of the input matrix."""

    rank: int
    rows: np.ndarray
    cols: np.ndarray
    prime: int
    limbs: int
    elimination: str = ELIMINATION
    #: Random vectors on which P A Q = L U was verified (``verify.exact.factorcheck``).
    checked: int = 0


def plan(p: int, limbs: int | None = None) -> dict[Any, Any]:
    """How products mod ``p`` are split: limbs, bits per limb, limb bound, exact inner chunk, and
    whether two limbs multiply by Karatsuba (three products; ``karatsuba``'s module notes).

    >>> plan(8388593)["limbs"], plan(8388593)["chunk"] >= 511
    (1, True)
    >>> plan(2**46 - 21)["limbs"], plan(2**46 - 21)["chunk"]
    (2, 504)
    >>> plan(2**40 - 87)["karatsuba"], plan(2**40 - 87)["chunk"]
    (True, 8190)
    """
    ar = ModArith(p, np, limbs)
    return {"prime": p, "limbs": ar.limbs, "bits": ar.bits, "limb_bound": ar.limb_bound, "chunk": ar.chunk,
            "karatsuba": ar.karatsuba}


class _Pluq:
    def __init__(self, ar: ModArith, a: DeviceArray, rowperm, colperm) -> None:
        self.ar, self.a, self.rowperm, self.colperm = ar, a, rowperm, colperm
        self.xp = ar.xp
        self._inverses = {}  # (r0, c0, r) -> (L block, I - L^{-1}) of the triangular solves

    def _swap_rows(self, i: int, j: int) -> None:
        a, perm = self.a, self.rowperm
        a[[i, j]] = a[[j, i]]
        perm[i], perm[j] = perm[j], perm[i]

    def _swap_cols(self, i: int, j: int) -> None:
        a, perm = self.a, self.colperm
        a[:, [i, j]] = a[:, [j, i]]
        perm[i], perm[j] = perm[j], perm[i]

    def _base(self, r0: int, c0: int, c1: int, pend: int) -> int:
        """Eliminate columns c0:c1 below row r0 one pivot at a time; returns the rank found.
        The region enters bounded by h + pend h^2 and leaves reduced.

        The work runs on a contiguous transposed copy of the panel a[r0:, c0:c1] (its columns
        become rows, so each per-pivot pass reads contiguous memory): row j of ``panel`` is column
        c0 + j.  The row and column swaps it makes are then applied to the rest of the array in
        the order they were made, and the panel is written back, as if every swap had acted on
        whole rows and columns."""
        ar, a, xp = self.ar, self.a, self.xp
        rows = a.shape[0]
        width, height = c1 - c0, rows - r0
        # rows first, then the transpose in cache: twice as fast as one strided copy
        panel = xp.ascontiguousarray(xp.ascontiguousarray(a[r0:, c0:c1]).T)
        if width == 1 or height == 1:  # then the transpose of a contiguous slice is a view of ``a`` itself,
            panel = panel.copy()  # and the swaps below would act twice (a wrong L, found by the check)
        order = list(range(width))  # order[i]: the panel column now at panel position i
        swaps = []  # row swaps (i, k) of panel rows, in order
        k, pending = 0, pend  # pending: rank-one updates (in h^2) on the rows below k since reduced
        for j in range(width):
            if k >= height:
                break
            column = panel[j, k:]
            if pending:
                ar.reduce(column)
            hits = xp.nonzero(ar.nonzero(column))[0]
            if hits.shape[0] == 0:
                continue  # no pivot in this column: a dependent column, left in place
            i = k + int(hits[0])
            if i != k:  # swap panel rows i and k: entries i and k of every panel column
                panel[:, [i, k]] = panel[:, [k, i]]
                swaps.append((i, k))
            if j != k:  # move column j to pivot position k
                panel[[j, k]] = panel[[k, j]]
                order[j], order[k] = order[k], order[j]
            if pending:
                ar.reduce(panel[k + 1:, k])  # the pivot row, U
            if k + 1 < height:
                panel[k, k + 1:] = ar.mul(panel[k, k + 1:], ar.inverse(panel[k, k]))  # the multipliers: L
                if k + 1 < width:
                    pending = self._rank_one(panel[k + 1:, k + 1:], panel[k + 1:, k], panel[k, k + 1:], pending)
            k += 1
        if pending:
            ar.reduce(panel)
        perm = self.rowperm
        for i, t in swaps:  # whole rows; the panel part is overwritten below
            a[[r0 + i, r0 + t]] = a[[r0 + t, r0 + i]]
            perm[r0 + i], perm[r0 + t] = perm[r0 + t], perm[r0 + i]
        if order != list(range(width)):
            if r0:
                a[:r0, c0:c1] = a[:r0, [c0 + c for c in order]]
            self.colperm[c0:c1] = [self.colperm[c0 + c] for c in order]
        a[r0:, c0:c1] = panel.T
        return k

    def _rank_one(self, target: DeviceArray, left: DeviceArray, right: np.ndarray, pending: int) -> int:
        """target <- target - left right^T for reduced ``left`` and ``right``; returns the new count
        of pending updates on ``target`` (delayed reduction while |target| <= h + pending h^2 stays
        below LIMIT; immediate reduction when products need limbs)."""
        ar = self.ar
        if not ar.delay:
            ar.rank_one(target, left, right)
            return 0
        target -= left[:, None] * right[None, :]
        if pending + 1 >= ar.delay:
            ar.reduce(target)
            return 0
        return pending + 1

    def _unit_lower_inverse(self, r0: int, c0: int, r: int):
        """I - L^{-1}, reduced, for L the unit lower r x r block at (r0, c0) (strictly lower).

        The same diagonal block comes back at every level of the recursion above it: the inverse
        is kept with a copy of the block it was computed from, and reused while they are equal."""
        ar, a, xp = self.ar, self.a, self.xp
        block = a[r0:r0 + r, c0:c0 + r]
        kept = self._inverses.get((r0, c0, r))
        if kept is not None and bool((kept[0] == block).all()):
            return kept[1]
        inverse = xp.eye(r, dtype=a.dtype)  # rows become those of L^{-1}: L^{-1} I, one pivot at a time
        pending = 0
        for j in range(r - 1):
            if pending:
                ar.reduce(inverse[j, :j + 1])
            pending = self._rank_one(inverse[j + 1:, :j + 1], a[r0 + j + 1:r0 + r, c0 + j], inverse[j, :j + 1],
                                     pending)
        if pending:
            ar.reduce(inverse)
        inverse *= -1  # reduced stays reduced (|x| <= h is symmetric)
        inverse += xp.eye(r, dtype=a.dtype)  # unit diagonal: 0 on the diagonal
        self._inverses[(r0, c0, r)] = (block.copy(), inverse)
        return inverse

    def _trsm(self, r0: int, c0: int, r: int, cs: int, ce: int, pend: int) -> None:
        """Rows r0:r0+r of columns cs:ce <- L^{-1} (them), L the unit lower r x r block at (r0, c0).
        The right-hand side enters bounded by h + pend h^2 and leaves reduced.

        Up to ``TRSM_BASE`` rows: L^{-1} B = B - (I - L^{-1}) B, one exact product (``submul``)
        with the small inverse, instead of r - 1 rank-one passes over B's rows."""
        ar, a = self.ar, self.a
        if r <= tuning.TRSM_BASE:
            rhs = a[r0:r0 + r, cs:ce]
            if pend:
                ar.reduce(rhs)
            if r > 1:
                ar.submul(rhs, self._unit_lower_inverse(r0, c0, r), rhs.copy())
            return
        half = r // 2
        self._trsm(r0, c0, half, cs, ce, pend)
        pend = ar.submul(a[r0 + half:r0 + r, cs:ce], a[r0 + half:r0 + r, c0:c0 + half], a[r0:r0 + half, cs:ce], pend)
        self._trsm(r0 + half, c0 + half, r - half, cs, ce, pend)

    def run(self, r0: int, c0: int, c1: int, pend: int = 0) -> int:
        """PLUQ of the submatrix below row r0 on columns c0:c1; its pivot columns end up first.

        The region enters with |entries| <= h + pend h^2 (delayed reduction of the Schur
        complements, one limb) and leaves reduced."""
        a = self.a
        if r0 >= a.shape[0] or c0 >= c1:
            return 0
        if c1 - c0 <= tuning.BASE:
            return self._base(r0, c0, c1, pend)
        mid = c0 + (c1 - c0) // 2
        r1 = self.run(r0, c0, mid, pend)
        if r1:
            self._trsm(r0, c0, r1, mid, c1, pend)  # U12 = L11^{-1} A12
            pend = self.ar.submul(a[r0 + r1:, mid:c1], a[r0 + r1:, c0:c0 + r1], a[r0:r0 + r1, mid:c1], pend)  # Schur
        r2 = self.run(r0 + r1, mid, c1, pend)
        if r2 and mid - c0 > r1:  # move the right half's pivot columns next to the left half's
            moved = list(range(mid, mid + r2)) + list(range(c0 + r1, mid))
            band = max(1, tuning.TILE_ENTRIES // len(moved))
            for r in range(0, a.shape[0], band):  # in row bands: the temporary stays small
                a[r:r + band, c0 + r1:mid + r2] = a[r:r + band, moved]
            self.colperm[c0 + r1:mid + r2] = [self.colperm[c] for c in moved]
        return r1 + r2


def factor(matrix: DeviceArray, p: int, xp: ModuleType | None = None, limbs: int | None = None,
           overwrite: bool = False,
           left: bool = False) -> tuple[ModArith, DeviceArray, list[int], list[int], int, Sketch | None]:
    """PLUQ of an integer matrix over GF(p) in place on a reduced float64 copy, checked.

    Returns (arithmetic, array holding L and U, row permutation, column permutation, rank, sketch):
    the array is P A Q with L strictly below the diagonal of its first ``rank`` columns and U on and
    above it in its first ``rank`` rows; ``colperm[i]`` is the column of A at position i.  With
    ``overwrite``, an int64 numpy input's memory holds the factors (the input is consumed).

    Before the elimination, seeded random vectors and A's products with them are drawn (the
    ``sketch``; with ``left`` also z^T A, for null spaces); afterwards P A Q = L U is verified on
    them (``verify.exact.factorcheck``), so a wrong factorization raises
    ``FactorizationCheckError`` (false pass <= 2^-64) instead of returning a rank."""
    ar = ModArith(p, xp or np, limbs)
    if not hasattr(matrix, "shape"):
        matrix = np.asarray(matrix)
    if len(matrix.shape) != 2:
        raise ValueError("rank_mod_p needs a 2-D matrix")
    rows, cols = matrix.shape
    # drawn from the caller's integers by the check's own reduction, before from_ints (which may overwrite them)
    with phase("check"):
        found = sketch(ar, matrix, left) if rows and cols else None
    a = ar.from_ints(matrix, overwrite)
    rowperm, colperm = list(range(rows)), list(range(cols))
    if found is None:
        return ar, a, rowperm, colperm, 0, None
    rank = _Pluq(ar, a, rowperm, colperm).run(0, 0, cols)
    with phase("check"):
        check_factorization(ar, a, rowperm, colperm, rank, found)
    return ar, a, rowperm, colperm, rank, found


def rank_mod_p(matrix: DeviceArray, p: int, xp: ModuleType | None = None, pivots: bool = False,
               limbs: int | None = None,
               overwrite: bool = False) -> int | PivotRank:
    """Rank of an integer matrix over GF(p), 3 <= p < 2^50 odd prime, exactly; every factorization is
    verified on random vectors before its rank is returned (``factor``).

    Parameters
    ----------
    matrix : 2-D integer array (numpy int64 or object, or an ``xp`` array)
        Entries are reduced mod p first; the input is not modified.
    p : int
        The prime.
    xp : module, optional
        numpy (CPU, the default) or cupy (GPU); the same code runs on either (the caller's device,
        ``verify.exact.device``, passes it).  A numpy input is copied to the device in row bands.
    pivots : bool
        Return a ``PivotRank`` (rank, pivot rows, pivot columns as numpy arrays) instead of an int.
    limbs : int, optional
        Force the limb count of the products (see ``floatmod``).
    overwrite : bool
        Let the elimination run in an int64 input's own memory (the input is destroyed).

    >>> rank_mod_p(np.array([[1, 2, 3], [2, 4, 6], [1, 0, 1]]), 101)
    2
    >>> r = rank_mod_p(np.array([[0, 0], [0, 5]]), 7, pivots=True); (r.rank, r.rows.tolist(), r.cols.tolist())
    (1, [1], [1])
    """
    ar, a, rowperm, colperm, rank, found = factor(matrix, p, xp, limbs, overwrite)
    if not pivots:
        return rank
    return PivotRank(rank, np.array(rowperm[:rank], dtype=np.int64), np.array(colperm[:rank], dtype=np.int64),
                     p, ar.limbs, checked=found.vectors if found is not None else 0)
