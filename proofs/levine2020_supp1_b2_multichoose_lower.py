"""The lower estimate of the multiset coefficient in the first supplement's B.2:
((n over k)) = binom(n+k-1, k) = binom(n+k-1, n-1) >= max{((n-1)/k + 1)^k, (k/(n-1) + 1)^(n-1)},
from binom(n, k) >= (n/k)^k, and its specialisation to n = (d_x - H)/2, k = 3^(L-2)."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import MAIN, H, L, Source, d_x, k, multichoose, n

QUOTED = [(n / k) ** k, sp.binomial(n, k)]
FIRST = [((n - 1) / k + 1) ** k, sp.binomial(n + k - 1, k), multichoose(n, k)]
SECOND = [(k / (n - 1) + 1) ** (n - 1), sp.binomial(n + k - 1, n - 1), multichoose(n, k)]
D = (d_x - H) / 2
LAM = 3 ** (L - 2)
SPEC_FIRST = [((D - 1) / LAM + 1) ** LAM, multichoose(D, LAM)]
SPEC_SECOND = [(LAM / (D - 1) + 1) ** (D - 1), multichoose(D, LAM)]
GRID = {n: list(range(1, 13)), k: list(range(1, 13))}
SPEC_GRID = {L: [2, 3, 4], d_x: list(range(2, 25)), H: list(range(1, 25))}


def _even(p):
    """d = (d_x - H)/2 a positive integer, H dividing d_x (d_a = d_x/H)."""
    return p[H] < p[d_x] and p[d_x] % p[H] == 0 and (p[d_x] - p[H]) % 2 == 0


CLAIM = Claim(
    id="levine2020_supp1_b2_multichoose_lower",
    source=Source(MAIN, "supplement B.2", "'using the identity binom(n,k) >= (n/k)^k' and the display after it"),
    statement="binom(n, k) >= (n/k)^k; ((n over k)) = binom(n+k-1, k) = binom(n+k-1, n-1) >= "
              "max{((n-1)/k + 1)^k, (k/(n-1) + 1)^(n-1)}; the same at n = (d_x - H)/2, k = 3^(L-2).",
    formulas={"first": FIRST[0], "second": SECOND[0], "multichoose": multichoose(n, k)},
    domain="n, k = 1..12 (the second branch needs n >= 2: at n = 1 it reads (k/0 + 1)^0), plus 40 seeded "
           "points each up to 3000; the specialisation at L = 2..4, 2 <= d_x <= 24, H | d_x with d_x - H even and >= 2",
    reading="At odd d_x - H the printed (d_x - H)/2 is not an integer and the multiset coefficient is not a count; "
            "the construction's integer d = floor((d_x - H)/2) is the general case n = d.  What the rank ((d over "
            "3^(L-2))) gives for the theorems' printed bounds is claim levine2020_theorem1_lower_construction "
            "(Theorem 1) and levine2020_supp1_b2_theorem2_step (Theorem 2).",
    checks=[InequalityChain(QUOTED, ["<="], grid=GRID, condition=lambda p: p[k] <= p[n], search=40,
                            search_ranges={n: (1, 3000), k: (1, 3000)}, name="binom(n, k) >= (n/k)^k"),
            InequalityChain(FIRST, ["<=", "="], grid=GRID, search=40, search_ranges={n: (1, 3000), k: (1, 3000)},
                            name="first branch"),
            InequalityChain(SECOND, ["<=", "="], grid=GRID, condition=lambda p: p[n] >= 2, search=40,
                            search_ranges={n: (2, 3000), k: (1, 3000)}, name="second branch, n >= 2"),
            InequalityChain(SPEC_FIRST, ["<="], grid=SPEC_GRID, condition=_even, search=0,
                            name="specialised, first branch"),
            InequalityChain(SPEC_SECOND, ["<="], grid=SPEC_GRID, condition=lambda p: _even(p) and p[d_x] - p[H] >= 4,
                            search=0, name="specialised, second branch (d >= 2)")],
)
