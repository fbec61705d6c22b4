import sympy as sp

from verify.authoring import Claim, RankBound

from ._common import ABOVE_THRESHOLD, MAIN, H, L, Source, d_x, log3

B1 = -L * (H / 2 + 1)
B2 = -d_x * (1 + sp.Rational(1, 2) * log3((d_x - H) / 2))
BOUND = sp.Rational(1, 2) * d_x * L + B1 + B2

CLAIM = Claim(
    id="levine2020_theorem2_lower",
    expected="not-decided",
    source=Source(MAIN, "§4.2", "Theorem 2, eq. 7 (lower bound), b_1 = -L(H/2 + 1), "
                                 "b_2 = -d_x(1 + log3((d_x - H)/2)/2)"),
    statement="For L > log3 d_x, almost everywhere 1/2 d_x L + b_1 + b_2 <= log3 sep(y_p^i).",
    formulas={"log3_sep_lower": BOUND, "b_1": B1, "b_2": B2},
    domain="H < d_x (log3((d_x - H)/2) defined)",
    regime=ABOVE_THRESHOLD,
    left_out="N < 2(d_x + 1): the exact ranks come from the reduced route, which holds from N = 2(d_x + 1) on, so "
             "the smallest N = 2 is not computed here (a coefficient-route rank at N = 2 takes seconds at L <= 2, "
             "d_x <= 3, as levine2020_revised_residual_small_n does; not yet added) (for a lower bound the "
             "smallest N is where sep may be smallest).",
    checks=[RankBound(BOUND, "lower", "log3", regime=ABOVE_THRESHOLD, condition=lambda s: s.heads < s.width)],
)
