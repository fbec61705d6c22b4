import sympy as sp

from verify.authoring import Claim, RankBound

from ._common import BELOW_THRESHOLD, MAIN, H, L, Source, d_x, log3

A1 = sp.Rational(1, 9)
A2 = -L + (2 - log3(2))
BOUND = A1 * 3**L * (log3(d_x - H) + A2)

CLAIM = Claim(
    id="levine2020_theorem1_lower",
    source=Source(MAIN, "§4.1", "Theorem 1, eq. 6 (lower bound), a_1 = 1/9, a_2 = -L + 2 - log3 2"),
    statement="For L < log3 d_x and H > 1, almost everywhere "
              "a_1 3^L (log3(d_x - H) + a_2) <= log3 sep(y_p^i).",
    formulas={"log3_sep_lower": BOUND, "a_1": A1, "a_2": A2},
    domain="H > 1 heads, H < d_x (log3(d_x - H) defined)",
    regime=BELOW_THRESHOLD,
    checks=[RankBound(BOUND, "lower", "log3", regime=BELOW_THRESHOLD,
                      condition=lambda s: 1 < s.heads < s.width)],
)
