import sympy as sp

from verify.authoring import Claim, RankBound

from ._common import ABOVE_THRESHOLD, MAIN, L, Source, d_x, log3

C1 = L
C2 = -2 * d_x * log3(d_x / (2 * sp.E)) + log3(d_x)
BOUND = 2 * d_x * L + C1 + C2

CLAIM = Claim(
    id="levine2020_theorem2_upper",
    expected="not-decided",
    source=Source(MAIN, "§4.2", "Theorem 2, eq. 7 (upper bound), c_1 = L, c_2 = -2 d_x log3(d_x/2e) + log3 d_x"),
    statement="For L > log3 d_x, almost everywhere log3 sep(y_p^i) <= 2 d_x L + c_1 + c_2.",
    formulas={"log3_sep_upper": BOUND, "c_1": C1, "c_2": C2},
    domain="L >= 1, H divides d_x",
    regime=ABOVE_THRESHOLD,
    left_out="N < 2(d_x + 1): the exact ranks come from the reduced route, which holds from N = 2(d_x + 1) on, so "
             "the smallest N = 2 is not computed here (a coefficient-route rank at N = 2 takes seconds at L <= 2, "
             "d_x <= 3, as levine2020_revised_residual_small_n does; not yet added).",
    checks=[RankBound(BOUND, "upper", "log3", regime=ABOVE_THRESHOLD)],
)
