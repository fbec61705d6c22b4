"""Corollary 1: a network deeper by a factor d needs a shallow width factor w ∝ exp(exp(d)).

Read with the shallow depth n fixed and the deep depth L = d n growing with d, the deep width at the edge
of Corollary 1's condition (d_x = 3^L + 1, the smallest width above 3^L; H = 2 divides it), and w from
equating eq. 6's upper bound for the shallow network with its lower bound for the deep one, as the
example after the corollary does.  Double-exponential growth in d then means log3 log3 w grows
linearly in d; the slope is n.  (Read with the deep depth fixed instead, d ranges only over divisors of
L and nothing grows: no asymptotic statement to decide.)
"""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import MAIN, Source, k, log3, n

HEADS = 2


def log_log_w(factor):
    """log3 log3 w for a deep network of depth factor * n (width 3^(factor n) + 1) and a shallow one of depth n."""
    depth = factor * n
    width = 3**depth + 1
    deep_lower = sp.Rational(1, 9) * 3**depth * (log3(width - HEADS) - depth + 2 - log3(2))
    shallow_width = 3 ** (deep_lower / ((3**n - 1) / 2)) - HEADS
    return log3(log3(shallow_width / width))


SLOPE = log_log_w(k + 1) - log_log_w(k)
GRID = {n: [1, 2, 3], k: list(range(4, 10))}

CLAIM = Claim(
    id="levine2020_corollary1_growth",
    source=Source(MAIN, "§4.1", "Corollary 1: w ∝ exp(exp(d))"),
    statement="With the shallow depth fixed, the width factor w needed to match a network d times deeper grows "
              "double-exponentially in d: log3 log3 w increases by about the shallow depth n per unit of d.",
    formulas={"log3_log3_w": log_log_w(k), "slope": SLOPE},
    domain="shallow depth n = 1-3, d = 4..10 (deep depth up to 30, deep width 3^L + 1, H = 2)",
    reading="At d = 2 with n = 1 or 2 the bounds give w < 1 (no widening needed): the growth statement is "
            "asymptotic and is checked from d = 4 on, where log3 w > 0.",
    left_out="d = 1..3: the statement is asymptotic, and at d = 2 with n = 1, 2 the bounds give w < 1 (see "
             "reading), so the slope window is checked from d = 4 (where log3 w > 0) on.",
    checks=[InequalityChain([n - sp.Rational(1, 2), SLOPE, n + sp.Rational(1, 2)], ["<=", "<="], grid=GRID,
                            search=0, name="n - 1/2 <= log3 log3 w(d+1) - log3 log3 w(d) <= n + 1/2")],
)
