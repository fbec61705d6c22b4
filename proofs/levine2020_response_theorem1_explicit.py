from verify.authoring import Claim, RankBound

from ._common import BELOW_THRESHOLD, RESPONSE, H, L, Source, d_x, log3

A = -L + (2 - log3(2))
LOWER = 3 ** (L - 2) * (log3(d_x - H) + A)
UPPER = (3**L - 1) / 2 * log3(d_x + H)

CLAIM = Claim(
    id="levine2020_response_theorem1_explicit",
    source=Source(RESPONSE, "lines 3-4", "Theorem 1 as restated"),
    statement="3^(L-2) (log3(d_x - H) + a) <= log3 sep(y) <= (3^L - 1)/2 log3(d_x + H), a = -L + 2 - log3 2, "
              "for L < log3 d_x.",
    formulas={"lower": LOWER, "upper": UPPER, "a": A},
    regime=BELOW_THRESHOLD,
    checks=[RankBound(LOWER, "lower", "log3", regime=BELOW_THRESHOLD, condition=lambda s: 1 < s.heads < s.width,
                      name="lower bound vs exact ranks"),
            RankBound(UPPER, "upper", "log3", regime=BELOW_THRESHOLD, name="upper bound vs exact ranks")],
)
