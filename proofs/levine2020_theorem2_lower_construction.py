"""Theorem 2's printed lower bound from the quantity its construction certifies.

The lower bound of eq. 7 comes from the same construction as Theorem 1's (§4.2: "similar to the one
illustrated above"): a grid sub-matrix of rank Q = ((floor((d_x - H)/2) over 3^(L-2))).  Above the
threshold the multiset coefficient is estimated through its mirror form ((3^(L-2) + 1 over
floor((d_x-H)/2) - 1)) (author response, lines 9-12).  Each step is checked over the regime grid,
both parities of d_x - H and the smallest widths included; L = 1 (only d_x = 2 lies above the
threshold there) is checked against sep >= 1.
"""

import sympy as sp

from verify.claims.checks import InequalityChain
from verify.claims.record import Claim

from ._common import ABOVE_THRESHOLD, MAIN, H, L, Source, d_x, log3, multichoose

K = 3 ** (L - 2)
HALF = sp.floor((d_x - H) / 2)
Q = multichoose(HALF, K)
MIRROR = multichoose(K + 1, HALF - 1)
PRINTED = sp.Rational(1, 2) * d_x * L - L * (H / 2 + 1) - d_x * (1 + sp.Rational(1, 2) * log3((d_x - H) / 2))
#: binom(m, n - 1) >= (m / (n - 1))^(n - 1) with m = floor((d_x-H)/2) + 3^(L-2) - 1, n - 1 = floor((d_x-H)/2) - 1.
MIRROR_POWER = (HALF - 1) * log3((HALF + K - 1) / (HALF - 1))


def _heads(p) -> bool:
    """Heads as in Theorem 1 (H dividing d_x), H < d_x so that log3((d_x - H)/2) is defined; H = 1 included."""
    return p[H] < p[d_x] and p[d_x] % p[H] == 0


def _two_halves(p) -> bool:
    """The mirror estimate needs floor((d_x - H)/2) >= 2."""
    return _heads(p) and (p[d_x] - p[H]) // 2 >= 2


GRID = {L: [2, 3, 4, 5], d_x: list(range(2, 61)), H: list(range(1, 31))}
SEARCH = {L: (2, 12), d_x: (2, 3000), H: (1, 12)}

CLAIM = Claim(
    id="levine2020_theorem2_lower_construction",
    source=Source(MAIN, "§4.2", "Theorem 2, eq. 7 (lower bound), from the construction's rank "
                                "((floor((d_x - H)/2) over 3^(L-2)))"),
    statement="For L > log3 d_x, L >= 2, H < d_x: 1/2 d_x L + b_1 + b_2 <= log3 max(1, ((floor((d_x-H)/2) over "
              "3^(L-2)))), through the mirror estimate (n-1) log3((n + 3^(L-2) - 1)/(n-1)), n = floor((d_x-H)/2); "
              "at L = 1 (d_x = 2) the printed bound is <= 0 = log3 of the trivial sep >= 1.",
    formulas={"construction_rank": Q, "mirror": MIRROR, "printed": PRINTED, "mirror_power": MIRROR_POWER},
    domain="L = 2-5, d_x = 2..60, every divisor H < d_x (H = 1 included), plus seeded points up to L = 12, "
           "d_x = 3000; L = 1, d_x = 2, H = 1",
    regime=ABOVE_THRESHOLD,
    reading="Where floor((d_x-H)/2) = 0 the construction certifies nothing and sep >= 1 stands in (max(1, Q)); the "
            "mirror estimate is checked where floor((d_x-H)/2) >= 2.",
    checks=[InequalityChain([PRINTED, log3(sp.Max(Q, 1))], ["<="], grid=GRID, regime=ABOVE_THRESHOLD,
                            condition=_heads, search=80, search_ranges=SEARCH,
                            name="printed bound <= log3 max(1, Q)"),
            InequalityChain([PRINTED, MIRROR_POWER, log3(MIRROR), log3(Q)], ["<=", "<=", "="], grid=GRID,
                            regime=ABOVE_THRESHOLD, condition=_two_halves, search=80, search_ranges=SEARCH,
                            name="through the mirror estimate"),
            InequalityChain([PRINTED, 0], ["<="], grid={L: [1], d_x: [2], H: [1]}, regime=ABOVE_THRESHOLD,
                            search=0, name="L = 1: printed bound <= 0")],
)
