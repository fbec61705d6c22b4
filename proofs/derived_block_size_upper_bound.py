"""The derivative-space (block-size) upper bound: a result derived in this toolkit, not in the papers.

Derivation (``verify/rank/bound.py``): for N >= 2(d_x + 1) the separation rank is the rank of the
catalecticant of q(S) = F(S)^T e_p; for the non-residual network q is homogeneous of degree
C = (3^L - 1)/2 in n = d_x(d_x + 1)/2 variables, so the catalecticant is block diagonal with degree
blocks of C(a + n - 1, n - 1) x d_x C(C - a + n - 1, n - 1), each of rank <= min(rows, cols).  For
smaller N the Taylor expansion in S_B is still a decomposition, so the bound holds for every N.
The papers' Theorems 1-2 (main text §4) are the comparison, on the log3 scale, with arb.
"""

import sympy as sp

from verify.authoring import Cases, Claim, compare, shifted
from verify.authoring.network import Field, NetworkSpec
from verify.authoring.ranks import default_specs, derivative_bound, exact_rank
from verify.authoring.ranks import rank_once as separation_rank  # one run at the given seed

from ._common import MAIN, H, L, Source, d_x
from .levine2020_theorem1_upper import BOUND as THEOREM1
from .levine2020_theorem2_upper import BOUND as THEOREM2

n = d_x * (d_x + 1) / 2
a = sp.Symbol("a", integer=True, nonnegative=True)
C = (3**L - 1) / 2
BLOCK_SUM = sp.Sum(sp.Min(sp.binomial(a + n - 1, n - 1), d_x * sp.binomial(C - a + n - 1, n - 1)), (a, 0, C))

#: Depths compared with Theorem 2 (every one in its regime L > log3 d_x), and the widths: the
#: per-layer growth n = d_x(d_x+1)/2 is below Theorem 2's 2 d_x + 1 exactly for d_x <= 3.
DEEPEST = 32
WIDTHS = range(2, 9)
ALWAYS = (2, 3)


def _log3(value: int):
    return sp.log(sp.Integer(value), 3)


def _tighter_than_theorem2(width: int, depth: int) -> bool:
    bound = derivative_bound(NetworkSpec(depth=depth, width=width)).total
    return compare(_log3(bound), THEOREM2, "<", {L: depth, d_x: width, H: 1}) is True


def _block_inequality(spec: NetworkSpec, slack: int = 0):
    """Exact rank against the bound (less ``slack``); small specs (L <= 2, d_x <= 3; residual d_x <= 2)
    also block by block over Q."""
    bound = derivative_bound(spec)
    rank = exact_rank(spec)
    ok = rank <= bound.total - slack
    detail = ""
    if spec.depth <= 2 and spec.width <= (3 if not spec.residual else 2):
        # over Q at depth 2 width 3 residual takes about 2 minutes a spec here (and its blocks are only
        # compared with min(rows, cols), always true): the residual cross-check over Q stops at width 2
        result = separation_rank(spec, "reduced", field=Field(None))
        shapes = [(b.rows, b.cols) for b in result.blocks]
        ok = ok and result.rank == rank and all(b.rank <= min(b.rows, b.cols) - slack for b in result.blocks)
        if not spec.residual:
            ok = ok and shapes == [(r, c) for r, c, _ in bound.blocks]
        detail = f", blocks over Q {[b.rank for b in result.blocks]} within {[min(s) for s in shapes]}"
    name = f"L={spec.depth} d_x={spec.width} H={spec.heads}" + (" residual" if spec.residual else "")
    meets = " (meets it: exact)" if rank == bound.total else ""
    return ok, f"{name}: rank {rank} <= {bound.total}{meets}{detail}", None if ok else {"spec": name, "rank": rank}


def _theorem2_case(width: int):
    """Below Theorem 2 at every depth for d_x <= 3; for wider networks below it up to one crossover
    depth and not below after it (a single crossing, whose depth the evidence states)."""
    depths = [depth for depth in range(1, DEEPEST + 1) if 3**depth > width]
    flags = [_tighter_than_theorem2(width, depth) for depth in depths]
    last = max([depth for depth, t in zip(depths, flags, strict=False) if t], default=0)
    if width in ALWAYS:
        ok = all(flags)
        line = f"d_x={width}: below Theorem 2 at every L in {depths[0]}..{DEEPEST}"
    else:
        ok = last < DEEPEST and all(t == (depth <= last) for depth, t in zip(depths, flags, strict=False))
        line = f"d_x={width}: below Theorem 2 for L <= {last}, not below for {last + 1} <= L <= {DEEPEST}"
    return ok, line, None if ok else {"width": width, "flags": dict(zip(depths, flags, strict=False))}


#: Theorem 1's regime L < log3 d_x: depth 1 (d_x >= 4), 2 (d_x >= 10), 3 (d_x >= 28), 4 (d_x >= 82).
THEOREM1_CASES = ([(1, w) for w in range(4, 31)] + [(2, w) for w in range(10, 201, 10)] +
                  [(3, w) for w in range(28, 201, 20)] + [(4, w) for w in (82, 100, 200)])


def _theorem1_case(depth: int, width: int):
    """Theorem 1's bound grows with H, so H = 1 is the sharpest; at L = 1 the two are exact integers."""
    bound = derivative_bound(NetworkSpec(depth=depth, width=width)).total
    if depth == 1:
        ok = bound == width + 1  # (d_x + H)^1 at H = 1: equal; strictly below for every H >= 2
        return ok, f"L=1 d_x={width}: {bound} = d_x + 1", None if ok else {"depth": 1, "width": width}
    ok = compare(_log3(bound), THEOREM1, "<", {L: depth, d_x: width, H: 1}) is True
    return ok, f"L={depth} d_x={width}: below Theorem 1 at H = 1", None if ok else {"depth": depth, "width": width}


CLAIM = Claim(
    id="derived_block_size_upper_bound",
    source=Source(MAIN, "§4.1-4.2 (compared with Theorems 1-2)",
                  "derived here, not in the papers: the block-size (derivative-space) upper bound"),
    statement=("Derived in this toolkit, not stated in the papers: for the non-residual network, at every weight "
               "setting and every N, sep(y_p^i) <= sum_{a=0}^{C} min(C(a+n-1, n-1), d_x C(C-a+n-1, n-1)) with "
               "n = d_x(d_x+1)/2 and C = (3^L-1)/2 (and, residual, min_t C(t-1+n, n) + d_x C(C-t+n, n)).  On the "
               "log3 scale it grows by about n per layer against 2 d_x + 1 in Theorem 2: it is below Theorem 2's "
               f"bound at every depth checked (L <= {DEEPEST}) for d_x = 2, 3, and for wider networks only up to "
               "a crossover depth, past which it is not (the evidence gives each width's).  Inside Theorem 1's regime "
               "it equals Theorem 1's bound at L = 1, H = 1 "
               "(both d_x + 1) and is below it otherwise."),
    formulas={"block_sum_upper": BLOCK_SUM, "theorem1_log3": THEOREM1, "theorem2_log3": THEOREM2},
    domain=(f"the registry's default specs (and their residual set) for the inequality; d_x = 2..8, L <= {DEEPEST} "
            "for Theorem 2; Theorem 1's regime at L = 1..4 for d_x up to 200"),
    reading=("A result of this toolkit (docs/mathematics.md §2), cited against the main paper only for "
             "the comparison.  Theorem 1 is compared at H = 1, its smallest value."),
    left_out="N < 2(d_x + 1): the block bound is compared with reduced-route ranks, which hold from N = 2(d_x + 1) "
             "on; the smallest N = 2 is not computed here (it is, for the theorems' bounds, by their 'bound at the "
             "smallest N' checks).",
    checks=[
        Cases(default_specs() + default_specs(residual=True), _block_inequality,
              name="rank <= min(rows, cols) per block and in total, against exact ranks",
              perturb={"the bound less one (never attained)": shifted(_block_inequality, slack=1)}),
        Cases(list(WIDTHS), _theorem2_case, name="against Theorem 2 on the log3 scale (arb)"),
        Cases(THEOREM1_CASES, _theorem1_case, name="against Theorem 1 on the log3 scale (arb)"),
    ],
)
