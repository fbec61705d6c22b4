"""The example after Corollary 1 sits in the corollary's regime: L = 6 below log3 1000, d_x > 3^L."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import MAIN, H, L, Source, d_x, k, log3

POINT = {L: [6], d_x: [1000], H: [16]}
#: The shallow width the example equates bounds for: (3^k - 1)/2 log3(d_s + 16) = (1/9) 3^6 (log3 984 - 4 - log3 2),
#: at shallow depth k; eq. 6's upper bound, used for it, holds only where k < log3 d_s.
DEEP_LOWER = sp.Rational(1, 9) * 3**6 * (log3(1000 - 16) - 6 + 2 - log3(2))
SHALLOW_WIDTH = 3 ** (DEEP_LOWER / ((3**k - 1) / 2)) - 16

CLAIM = Claim(
    id="levine2020_corollary1_example_regime",
    source=Source(MAIN, "§4.1", "example after Corollary 1: 'taking the deep network under the depth-efficiency "
                                "threshold L^deep = 6' for d_x = 1000, H = 16"),
    statement="L = 6 < log3(1000) = L_th, i.e. the deep network satisfies d_x^deep = 1000 > 3^6 as Corollary 1 "
              "requires, and 1 < H = 16 < d_x as Theorem 1 requires; the shallow networks the example sizes (depth 2 "
              "and 3) also lie in Theorem 1's regime, where eq. 6's upper bound holds.",
    formulas={"threshold": log3(d_x), "width_condition": 3**L},
    checks=[InequalityChain([L, log3(d_x)], ["<"], grid=POINT, search=0, name="L < log3 d_x"),
            InequalityChain([3**L, d_x], ["<"], grid=POINT, search=0, name="3^L < d_x"),
            InequalityChain([1, H, d_x], ["<", "<"], grid=POINT, search=0, name="1 < H < d_x"),
            InequalityChain([k, log3(SHALLOW_WIDTH)], ["<"], grid={k: [2, 3]}, search=0,
                            name="the shallow networks (depth 2, 3) lie in eq. 6's regime, where its upper "
                                 "bound holds")],
)
