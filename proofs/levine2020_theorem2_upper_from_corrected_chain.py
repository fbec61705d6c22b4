"""Theorem 2's printed upper bound (main text, eq. 7) against the chain the author response corrected.

The response restores a lost '+1' in the supplement's eq. 6 and gets c_2 = -2 d_x log3(d_x / (2 sqrt(2e)))
+ log3 d_x (claim levine2020_response_corrected_chain).  The main text prints c_2 = -2 d_x log3(d_x / 2e)
+ log3 d_x.  Step by step: the difference of the two bounds is exactly d_x log3(e/2), and that is
positive, so the printed bound is the weaker one and follows from the corrected chain.
"""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import ABOVE_THRESHOLD, MAIN, L, Source, d_x, log3

PRINTED = 2 * d_x * L + L - 2 * d_x * log3(d_x / (2 * sp.E)) + log3(d_x)
CORRECTED = (2 * d_x + 1) * L + log3(d_x) - 2 * d_x * log3(d_x / (2 * sp.sqrt(2 * sp.E)))
GAP = d_x * log3(sp.E / 2)
GRID = {L: list(range(1, 7)), d_x: list(range(1, 40))}

CLAIM = Claim(
    id="levine2020_theorem2_upper_from_corrected_chain",
    source=Source(MAIN, "§4.2", "Theorem 2, eq. 7 (upper bound, c_2 = -2 d_x log3(d_x/2e) + log3 d_x), against "
                                "the response's corrected chain"),
    statement="The printed upper bound 2 d_x L + c_1 + c_2 exceeds the corrected chain's closed form by exactly "
              "d_x log3(e/2) > 0, so it follows from the corrected chain in Theorem 2's regime.",
    formulas={"printed": PRINTED, "corrected": CORRECTED, "gap": GAP},
    domain="L = 1-6, d_x = 1..39 with L > log3 d_x (the equality is also proved symbolically)",
    regime=ABOVE_THRESHOLD,
    checks=[InequalityChain([PRINTED - CORRECTED, GAP], ["="], grid=GRID, regime=ABOVE_THRESHOLD, search=0,
                            name="printed - corrected = d_x log3(e/2)"),
            InequalityChain([0, GAP], ["<"], grid=GRID, regime=ABOVE_THRESHOLD, search=0,
                            name="d_x log3(e/2) > 0"),
            InequalityChain([CORRECTED, PRINTED], ["<="], grid=GRID, regime=ABOVE_THRESHOLD, search=0,
                            name="corrected closed form <= printed bound")],
)
