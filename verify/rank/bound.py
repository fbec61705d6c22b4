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

* **first-layer kernel** (homogeneous network, ``docs/mathematics.md`` §6): the first layer sees S only
  through the H d_a^2 linear forms W^{V,h} S (W^{K,h})^T, so a subspace K of Sym_d of dimension
  k = max(0, n - H d_a^2) leaves T_1 unchanged, for every weight setting.  Along K, q has degree
  at most e = C(L - 1) (Lemma K); in coordinates adapted to K each degree block is a staircase in
  the K-degrees i = |alpha''| of its rows and j = |beta''| of its columns (zero where i + j > e), so

      rank_a <= min_{t = 0..e+1} [ sum_{i < t} R_{a,i} + sum_{j <= e - t} Q_{a,j} ],          (B3)
      R_{a,i} = M(i, k) M(a - i, n - k),   Q_{a,j} = c M(j, k) M(C - a - j, n - k),

  with M(x, m) = C(x + m - 1, m - 1) the monomials of degree x in m variables and
  c = min(d_x, H d_a) (q^T = u^T W, W the constant stack of the W^{Q,h}).  With k = 0 it is
  (B1).  ``kernel_graded_bounds`` evaluates it in O(C e) products.
* **one head, depth 3** (``docs/mathematics.md`` §6, Lemma V): at E = v v^T with v^T B_1 v = 0,
  (A_1 v)^T B_2 (A_1 v) = 0 and e_p^T A_3 A_2 A_1 v = 0, every component of q vanishes to order 7,
  so the columns of degree block 7 (order-6 derivatives of q) vanish on those points; for generic
  weights the v form a complete intersection of two quadrics in a hyperplane of P^{d-1}, which
  imposes h = C(N+14, N) - 2 C(N+12, N) + C(N+10, N) (N = d - 2) independent conditions on
  degree-14 forms in v, so

      rank_7 <= min(C(n + 6, n - 1) - h, d C(n + 5, n - 1))                                     (B4)

  (width 4: four points, h = 4, 31,460 -> 31,456).  It bounds the generic rank, the largest rank
  any weights give, so it holds at every weight setting.  ``one_head_depth3_points`` gives h.

The papers' own bounds the probe and the atlas compare ranks with live here too: the vocabulary paper's
Corollary 1 (``corollary1_lower_bound``), Theorem 2's bound as its proof gives it for V = r
(``lemma7_lower_bound``), and its conjectured scale r L / log3 r (``conjecture_scale``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import comb
from typing import Any

from ..model.spec import NetworkSpec

__all__ = ["corollary1_lower_bound", "lemma7_lower_bound", "conjecture_scale",
           "DerivativeBound", "degree_block_sizes", "homogeneous_bound", "staircase_bound", "derivative_bound",
           "first_layer_kernel", "kernel_graded_bounds", "one_head_depth3_points", "BLOCK_LIST_CAP",
           "KERNEL_WORK_CAP"]

#: Degrees C(L) above which the per-block list is not written out (depth 12 and more: no route
#: computes such a rank; the total stays in closed form).
BLOCK_LIST_CAP = 100_000
#: Most products (C + 1)(e + 2) spent on (B3); above it (depth 8 and more) the bound is (B1), still valid.
KERNEL_WORK_CAP = 3_000_000


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
        ``"degree blocks"`` (B1), ``"kernel-graded degree blocks"`` (B3), ``"degree blocks less the
        one-head base points"`` (B4) or ``"staircase"`` (B2).
    """

    total: int
    blocks: tuple[Any, ...]
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


def first_layer_kernel(nvars: int, heads: int, attn_dim: int) -> int:
    """k = max(0, n - H d_a^2): a dimension every weight setting's first-layer kernel reaches.

    T_1(S) = sum_h W^{O,h} (W^{V,h} S (W^{K,h})^T) W^{Q,h} depends on S only through the H
    d_a x d_a matrices W^{V,h} S (W^{K,h})^T: a linear map from the n-dimensional space of
    symmetric S to H d_a^2 values, whose kernel has dimension at least n - H d_a^2 (rank-nullity).

    >>> first_layer_kernel(3, 2, 1)  # width 2, two heads of d_a = 1: 3 entries of S, 2 forms
    1
    """
    return max(0, nvars - heads * attn_dim * attn_dim)


def kernel_graded_bounds(nvars: int, kernel: int, tail: int, top: int, components: int) -> list[int]:
    """Per degree block a = 0..top, the bound (B3) of the module notes.

    Rows of block a at K-degree i number R_{a,i} = M(i, k) M(a - i, n - k); columns at K-degree j
    number Q_{a,j} = d M(j, k) M(top - a - j, n - k); entries with i + j > ``tail`` (e) vanish.
    For each t the rows of K-degree >= t live in the columns of K-degree <= e - t, so
    rank <= (rows below t) + (those columns); the minimum over t = 0..e + 1 is taken.

    >>> kernel_graded_bounds(3, 1, 1, 4, 2)  # depth 2, width 2, two heads: block 2 has 6 rows, bound 5
    [1, 3, 5, 6, 2]
    """
    rest = nvars - kernel
    count = lambda x, m: comb(x + m - 1, m - 1) if x >= 0 else 0  # noqa: E731  monomials of degree x, m >= 1
    outer = [count(x, rest) for x in range(top + 1)]
    inner = [count(x, kernel) if kernel else int(x == 0) for x in range(min(tail, top) + 1)]
    bounds = []
    for a in range(top + 1):
        rows = [inner[i] * outer[a - i] for i in range(min(a, tail) + 1)]
        cols = [components * inner[j] * outer[top - a - j] for j in range(min(top - a, tail) + 1)]
        below = [0]  # below[t] = sum of rows[i] for i < t
        for r in rows:
            below.append(below[-1] + r)
        within = [0]  # within[u] = sum of cols[j] for j < u
        for c in cols:
            within.append(within[-1] + c)
        bounds.append(min(below[min(t, len(rows))] + within[min(tail - t + 1, len(cols))]
                          for t in range(tail + 2)))
    return bounds


def one_head_depth3_points(width: int) -> int:
    """h of (B4): the Hilbert function at degree 14 of two generic quadrics in P^N, N = width - 2.

    Koszul: the complete intersection's ideal in degree 14 is Q_1 R_12 + Q_2 R_12, whose only
    relation is Q_2 Q_1 - Q_1 Q_2 (in degree 14 a copy of R_10), so
    h = C(N+14, N) - 2 C(N+12, N) + C(N+10, N).

    >>> [one_head_depth3_points(d) for d in (2, 3, 4, 5)]  # width 4: two conics meet in 4 points
    [0, 0, 4, 56]
    """
    if width < 2:
        return 0
    top = width - 2
    return comb(top + 14, top) - 2 * comb(top + 12, top) + comb(top + 10, top)


def derivative_bound(spec: NetworkSpec, rank: int | None = None) -> DerivativeBound:
    """The derivative-space bound of ``spec`` (homogeneous: B3 per degree block, B1 when k = 0; residual: B2).

    Parameters
    ----------
    spec : NetworkSpec
        Depth L and width d_x fix n = d_x(d_x+1)/2 and C = (3^L-1)/2; heads H and the attention
        dimension d_a enter through the first-layer kernel k = max(0, n - H d_a^2) (B3).
    rank : int, optional
        For an embedded network of rank r: n = r(r+1)/2 and r components instead of d_x (the
        kernel argument holds there too: T_1(P T P^T) is a linear function of T's H d_a^2 forms).

    Examples
    --------
    >>> derivative_bound(NetworkSpec(depth=2, width=2)).total  # 1 + 3 + 6 + 6 + 2
    18
    >>> derivative_bound(NetworkSpec(depth=2, width=2, heads=2)).total  # (B3): block 2 is 5, not 6
    17
    """
    r = spec.width if rank is None else rank
    nvars, top = r * (r + 1) // 2, spec.layer_degree
    if spec.residual:
        return DerivativeBound(staircase_bound(nvars, top, r), (), "staircase")
    # q^T = u(S)^T W with W the H d_a x d constant stack of the W^{Q,h}: at most H d_a independent components
    comps = min(r, spec.heads * spec.attn_dim)
    kernel, tail = first_layer_kernel(nvars, spec.heads, spec.attn_dim), (3 ** (spec.depth - 1) - 1) // 2
    sizes = degree_block_sizes(nvars, top, r) if top <= BLOCK_LIST_CAP else []
    if kernel and (top + 1) * (tail + 2) <= KERNEL_WORK_CAP:
        most = kernel_graded_bounds(nvars, kernel, tail, top, comps)
        blocks = tuple((rows, cols, bound) for (rows, cols), bound in zip(sizes, most, strict=False))
        return DerivativeBound(sum(most), blocks, "kernel-graded degree blocks")
    blocks = tuple((rows, cols, min(rows, cols // r * comps)) for rows, cols in sizes)
    points = one_head_depth3_points(r) if (rank is None and spec.depth == 3 and spec.heads == 1
                                           and spec.attn_dim == spec.width) else 0
    if points:  # (B4): block 7's columns vanish on the base points
        rows, cols, _ = blocks[7]
        blocks = blocks[:7] + ((rows, cols, min(rows - points, cols)),) + blocks[8:]
        return DerivativeBound(sum(b[2] for b in blocks), blocks, "degree blocks less the one-head base points")
    return DerivativeBound(homogeneous_bound(nvars, top, comps), blocks, "degree blocks")


def corollary1_lower_bound(depth: int, rank: int, heads: int) -> int | None:
    """((floor((r - H)/2) over 3^(L-2))) (vocabulary paper, Corollary 1); None for depth 1 or r <= H.

    >>> corollary1_lower_bound(3, 9, 1)  # ((4 over 3)) = binom(6, 3)
    20
    """
    if depth < 2 or rank <= heads:
        return None
    n, k = (rank - heads) // 2, 3 ** (depth - 2)
    return math.comb(n + k - 1, k) if n > 0 else 0


def lemma7_lower_bound(depth: int, rank: int, heads: int) -> int | None:
    """((floor((r - 1 - H)/2) over 3^(L-2))): Theorem 2's bound as its proof gives it for V = r
    (vocabulary paper, Corollary 2 with Lemma 7, footnote 3); None for depth 1 or r - 1 <= H.

    >>> lemma7_lower_bound(3, 9, 1)  # ((3 over 3)) = binom(5, 3)
    10
    """
    if depth < 2 or rank - 1 <= heads:
        return None
    n, k = (rank - 1 - heads) // 2, 3 ** (depth - 2)
    return math.comb(n + k - 1, k) if n > 0 else 0


def conjecture_scale(depth: int, rank: int) -> float | None:
    """r L / log3 r, the conjectured N (a float, for orientation only; None for r = 1)."""
    return None if rank < 2 else rank * depth / math.log(rank, 3)
