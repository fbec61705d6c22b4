"""The derivative-space upper bound on the separation rank, in closed form (derived here).

This bound is not stated in the papers; it follows from the reduced route (``docs/mathematics.md``
§2 route 3 and §6).  The separation rank (N >= 2(d_x + 1)) is the rank of the catalecticant of
q(S) = F(S)^T e_p: rows alpha (a derivative multi-index), columns (k, beta) (a component of q and
a monomial), in n = d_x(d_x + 1)/2 variables.  Any matrix has rank <= min(rows, cols), and the
rank of a block-diagonal matrix is the sum of its blocks' ranks, so

* **homogeneous network** (q homogeneous of degree C = C(L) = (3^L - 1)/2): the catalecticant is
  block diagonal with degree blocks a = 0..C of C(a + n - 1, n - 1) rows and
  d_x C(C - a + n - 1, n - 1) columns, and

      sep <= sum_a min(C(a + n - 1, n - 1), d_x C(C - a + n - 1, n - 1))          (B1)

  for every weight setting;
* **residual network** (q of degree <= C, every degree present): row 0 (alpha = 0) meets every
  column, so the nonzero pattern gives a single block and min(rows, cols) is the trivial
  C(C + n, n).  The pattern is still a staircase: entry (alpha, (k, beta)) is a coefficient of a
  monomial of degree |alpha| + |beta|, zero once that exceeds C.  Rows with |alpha| >= t therefore
  live in the d_x C(C - t + n, n) columns with |beta| <= C - t, and the other rows are
  C(t - 1 + n, n) in number, so

      sep <= min_{t = 0..C+1} [ C(t - 1 + n, n) + d_x C(C - t + n, n) ].          (B2)

  There are no per-block values to report here (one block); (B2) is the total.

Both reduce to O(log C) binomials (``homogeneous_bound``, ``staircase_bound``): cheap for any
depth and width.  The same counts hold for the
embedded network of rank r (n = r(r + 1)/2 and r components).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from ..model.spec import NetworkSpec

__all__ = ["DerivativeBound", "degree_block_sizes", "homogeneous_bound", "staircase_bound", "derivative_bound",
           "BLOCK_LIST_CAP"]

#: Degrees C(L) above which the per-block list is not written out (depth 12 and more: no route
#: computes such a rank; the total stays in closed form).
BLOCK_LIST_CAP = 100_000


@dataclass(frozen=True)
class DerivativeBound:
    """The derivative-space upper bound of a spec.

    Attributes
    ----------
    total : int
        Upper bound on the generic separation rank (and on the rank at any weights).
    blocks : tuple of (rows, cols, bound)
        Degree blocks a = 0..C of the homogeneous network, bound = min(rows, cols); empty for a
        residual network (one block: the bound is ``total``, from the staircase count B2) and
        for C > ``BLOCK_LIST_CAP``.
    kind : str
        ``"degree blocks"`` (B1) or ``"staircase"`` (B2).
    """

    total: int
    blocks: tuple
    kind: str


def degree_block_sizes(nvars: int, top: int, components: int) -> list[tuple[int, int]]:
    """(rows, cols) of the degree blocks a = 0..top: (C(a+n-1, n-1), d C(top-a+n-1, n-1)).

    >>> degree_block_sizes(3, 1, 2)  # d_x = 2, L = 1: n = 3 variables, degree 1, 2 components
    [(1, 6), (3, 2)]
    """
    return [(comb(a + nvars - 1, nvars - 1), components * comb(top - a + nvars - 1, nvars - 1))
            for a in range(top + 1)]


def _last_true(predicate, lo: int, hi: int) -> int:
    """Largest t in [lo, hi] with predicate(t), for a predicate true up to some point then false
    (lo - 1 if none): O(log(hi - lo)) evaluations."""
    while lo <= hi:
        mid = (lo + hi) // 2
        if predicate(mid):
            lo = mid + 1
        else:
            hi = mid - 1
    return hi


def homogeneous_bound(nvars: int, top: int, components: int) -> int:
    """Sum over degree blocks of min(rows, cols): (B1) of the module notes, in closed form.

    rows_a = C(a+n-1, n-1) grows with a and cols_a = d C(top-a+n-1, n-1) shrinks, so with t the
    last a where rows_a <= cols_a the sum is sum_{a<=t} rows_a + sum_{a>t} cols_a, and the hockey
    stick identity sum_{j<=m} C(j+n-1, n-1) = C(m+n, n) gives C(t+n, n) + d C(top-t-1+n, n):
    O(log top) binomials, so any depth is cheap.

    >>> homogeneous_bound(3, 1, 2)  # depth 1, width 2: min(1, 6) + min(3, 2)
    3
    """
    def rows_not_above_cols(a: int) -> bool:
        return comb(a + nvars - 1, nvars - 1) <= components * comb(top - a + nvars - 1, nvars - 1)

    t = _last_true(rows_not_above_cols, 0, top)
    below = comb(t + nvars, nvars) if t >= 0 else 0
    above = components * comb(top - t - 1 + nvars, nvars) if t < top else 0
    return below + above


def staircase_bound(nvars: int, top: int, components: int) -> int:
    """min over t = 0..top+1 of C(t-1+n, n) + d C(top-t+n, n): (B2) of the module notes (q of degree
    <= top), in closed form.

    The step from t to t + 1 adds C(t+n-1, n-1) rows and removes d C(top-t+n-1, n-1) columns: it
    grows with t, so the function is convex in t and its minimum sits at the first t whose step is
    not negative (binary search, O(log top) binomials).

    >>> staircase_bound(3, 1, 2)  # t = 1: one row of degree 0, plus 2 components x 1 constant column
    3
    """
    def value(t: int) -> int:
        return (comb(t - 1 + nvars, nvars) if t else 0) + components * comb(top - t + nvars, nvars)

    def step_negative(t: int) -> bool:  # value(t + 1) < value(t)
        return comb(t + nvars - 1, nvars - 1) < components * comb(top - t + nvars - 1, nvars - 1)

    return value(_last_true(step_negative, 0, top) + 1)


def derivative_bound(spec: NetworkSpec, rank: int | None = None) -> DerivativeBound:
    """The derivative-space bound of ``spec`` (homogeneous: B1 per degree block; residual: B2).

    Parameters
    ----------
    spec : NetworkSpec
        Depth L and width d_x fix n = d_x(d_x+1)/2 and C = (3^L-1)/2; heads do not enter.
    rank : int, optional
        For an embedded network of rank r: n = r(r+1)/2 and r components instead of d_x.

    Examples
    --------
    >>> derivative_bound(NetworkSpec(depth=2, width=2)).total  # 1 + 3 + 6 + 6 + 2
    18
    """
    r = spec.width if rank is None else rank
    nvars, top = r * (r + 1) // 2, spec.layer_degree
    if spec.residual:
        return DerivativeBound(staircase_bound(nvars, top, r), (), "staircase")
    blocks = () if top > BLOCK_LIST_CAP else tuple(
        (rows, cols, min(rows, cols)) for rows, cols in degree_block_sizes(nvars, top, r))
    return DerivativeBound(homogeneous_bound(nvars, top, r), blocks, "degree blocks")
