import sympy as sp

from verify.authoring import Claim, RankBound

from ._common import ABOVE_THRESHOLD, RESPONSE, H, L, Source, d_x, log3

UPPER = 2 * d_x * L + L - 2 * d_x * log3(d_x / (2 * sp.sqrt(2 * sp.E))) + log3(d_x)
LOWER = sp.Rational(1, 2) * d_x * L - L * (H / 2 + 1) - d_x * (1 + sp.Rational(1, 2) * log3((d_x - H) / 2))

CLAIM = Claim(
    id="levine2020_response_theorem2_explicit",
    expected="not-decided",
    source=Source(RESPONSE, "lines 16-20", "Theorem 2 as restated, with the corrected c_2"),
    statement="For L > log3 d_x: 1/2 d_x L + b_1 + b_2 <= log3 sep(y) <= 2 d_x L + c_1 + c_2 with c_1 = L and "
              "c_2 = -2 d_x log3(d_x / (2 sqrt(2e))) + log3 d_x.",
    formulas={"upper": UPPER, "lower": LOWER},
    regime=ABOVE_THRESHOLD,
    reading="The response's c_2 is garbled ('... sqrt 2e + log3 d_x'); it is taken as the closed form of the "
            "corrected chain (claim levine2020_response_corrected_chain); b_1, b_2 as in the main text.",
    checks=[RankBound(UPPER, "upper", "log3", regime=ABOVE_THRESHOLD, name="upper bound vs exact ranks"),
            RankBound(LOWER, "lower", "log3", regime=ABOVE_THRESHOLD, condition=lambda s: s.heads < s.width,
                      name="lower bound vs exact ranks")],
)
