"""Corollary 2 'follows from theorems 1 and 2': in which regime does its shallow network lie?

With beta_1 = log3 d_x / L, the shallow network has depth L_s = beta_1 L + beta_2 = log3 d_x + beta_2 and
width d_s = 3^beta_2 d_x, so log3 d_s = L_s exactly: it sits on the threshold, where neither Theorem 1
(L < log3 d_x) nor Theorem 2 (L > log3 d_x) says anything.  beta_2 is checked at integer values
(k below), the smallest first.
"""

import sympy as sp

from verify.authoring import Claim, InequalityChain, Property

from ._common import ABOVE_THRESHOLD, MAIN, H, L, Source, d_x, k, log3, multichoose

BETA_1 = log3(d_x) / L
SHALLOW_DEPTH = BETA_1 * L + k
SHALLOW_WIDTH = 3**k * d_x
GRID = {L: list(range(1, 7)), d_x: list(range(2, 30)), k: [1, 2, 3]}
#: On the threshold d_x = 3^L: Theorem 1's printed lower bound against the construction's rank (d_x - H is even
#: there, every H being a power of 3), the step that would carry eq. 6 to the boundary.
AT_THRESHOLD = 3**L
T1_LOWER = 3 ** (L - 2) * (log3(AT_THRESHOLD - H) - L + 2 - log3(2))
T1_RANK = multichoose(sp.floor((AT_THRESHOLD - H) / 2), 3 ** (L - 2))


def _strictly_inside():
    """log3 d_s - L_s, simplified exactly: Theorem 1 needs it > 0 for every L, d_x, beta_2."""
    gap = sp.simplify(sp.expand_log(log3(SHALLOW_WIDTH) - SHALLOW_DEPTH, force=True))
    if gap == 0:
        return False, "log3 d_s - L_s simplifies to 0: the shallow network is on the threshold", \
            {"log3(d_s) - L_s": "0", "L_s": str(SHALLOW_DEPTH), "d_s": str(SHALLOW_WIDTH),
             "smallest": "L = 1, d_x = 2, beta_2 = 1: L_s = 1 + log3 2 = log3 6 = log3 d_s"}
    return bool(gap.is_positive), f"log3 d_s - L_s = {gap}", None


CLAIM = Claim(
    id="levine2020_corollary2_regimes",
    source=Source(MAIN, "§4.2", "Corollary 2, eq. 8, and 'the above corollary, which follows from theorems 1 and 2'"),
    statement="For L > log3 d_x, beta_1 = log3 d_x / L < 1, and the shallow network (depth beta_1 L + beta_2, width "
              "3^beta_2 d_x) lies in Theorem 1's regime L_s < log3 d_s, so that eq. 6 bounds its sep from below.",
    formulas={"beta_1": BETA_1, "shallow_depth": SHALLOW_DEPTH, "shallow_width": SHALLOW_WIDTH},
    domain="L = 1-6, d_x = 2..29 with L > log3 d_x, beta_2 = 1-3 (the regime question exactly, for all values)",
    regime=ABOVE_THRESHOLD,
    reading="'Follows from theorems 1 and 2' is read as: eq. 6's lower bound for the shallow network against eq. 7's "
            "upper bound for the deep one, which needs the shallow network strictly inside Theorem 1's regime.",
    checks=[InequalityChain([BETA_1, 1], ["<"], grid=GRID, regime=ABOVE_THRESHOLD, search=0,
                            name="beta_1 < 1 in the regime"),
            Property(_strictly_inside, name="shallow network inside Theorem 1's regime (exact)")],
    expected="erratum",
    corrected_statement="The shallow network has L_s = log3 d_s exactly (on the threshold, outside both theorems' "
                        "strict regimes); with one more factor 3 of width, d_s = 3^(beta_2 + 1) d_x, it lies inside "
                        "Theorem 1's regime with log3 d_s - L_s = 1.  Alternatively eq. 6's lower bound extends to "
                        "the threshold itself: at d_x = 3^L it follows from the construction's rank (d_x - H is even "
                        "there).",
    corrected_checks=[InequalityChain([SHALLOW_DEPTH, log3(SHALLOW_WIDTH)], ["="], grid=GRID, regime=ABOVE_THRESHOLD,
                                      search=0, name="L_s = log3 d_s"),
                      InequalityChain([SHALLOW_DEPTH + 1, log3(3 * SHALLOW_WIDTH)], ["="], grid=GRID,
                                      regime=ABOVE_THRESHOLD, search=0, name="log3(3 d_s) - L_s = 1"),
                      InequalityChain([T1_LOWER, log3(T1_RANK)], ["<="], grid={L: [2, 3, 4, 5, 6], H: [3, 9, 27, 81]},
                                      condition=lambda p: p[H] < 3 ** p[L], search=0,
                                      name="on the threshold d_x = 3^L: eq. 6's lower bound <= log3 of the "
                                           "construction's rank")],
)
